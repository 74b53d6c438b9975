// Shape ops that would move, merge, split or cut the quantized dimension of
// a per-axis type are rejected, one case per split; those that keep it in
// place pass. --qnt-to-llvm runs the check first.
// RUN: quant-opt %s -split-input-file -verify-diagnostics --qnt-verify-per-axis-shapes
// RUN: not quant-opt %s -split-input-file --qnt-to-llvm 2>&1 | FileCheck %s
// CHECK: error: 'tensor.collapse_shape' op changes dimension 3

!C = !quant.uniform<i8:f32:3, {0.5:1, 0.25:2}>
func.func @collapse_merges_axis(%x: tensor<1x2x2x2x!C>) -> tensor<1x8x!C> {
  // expected-error@+1 {{'tensor.collapse_shape' op changes dimension 3, the quantized axis of the per-axis type '!quant.uniform<i8:f32:3, {5.000000e-01:1,2.500000e-01:2}>': it is merged, split, sliced or dropped; shape ops on per-axis tensors must keep that dimension in place (or requantize to per tensor first)}}
  %y = tensor.collapse_shape %x [[0], [1, 2, 3]] : tensor<1x2x2x2x!C> into tensor<1x8x!C>
  return %y : tensor<1x8x!C>
}

// -----

!C = !quant.uniform<i8:f32:3, {0.5:1, 0.25:2}>
func.func @collapse_moves_axis(%x: tensor<1x2x2x2x!C>) -> tensor<4x2x!C> {
  // expected-error@+1 {{'tensor.collapse_shape' op changes dimension 3, the quantized axis of the per-axis type '!quant.uniform<i8:f32:3, {5.000000e-01:1,2.500000e-01:2}>': it would become dimension 1 while the type still names 3}}
  %y = tensor.collapse_shape %x [[0, 1, 2], [3]] : tensor<1x2x2x2x!C> into tensor<4x2x!C>
  return %y : tensor<4x2x!C>
}

// -----

!R = !quant.uniform<i8:f32:1, {0.5:1, 0.25:2}>
func.func @expand_moves_axis(%x: tensor<2x2x!R>) -> tensor<2x1x2x!R> {
  // expected-error@+1 {{'tensor.expand_shape' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01:2}>': it would become dimension 2 while the type still names 1}}
  %y = tensor.expand_shape %x [[0, 1], [2]] output_shape [2, 1, 2] : tensor<2x2x!R> into tensor<2x1x2x!R>
  return %y : tensor<2x1x2x!R>
}

// -----

!R = !quant.uniform<i8:f32:1, {0.5:1, 0.25:2, 1.0:0, 2.0:0}>
func.func @expand_splits_axis(%x: tensor<3x4x!R>) -> tensor<3x2x2x!R> {
  // expected-error@+1 {{'tensor.expand_shape' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01:2,1.000000e+00,2.000000e+00}>': it is merged, split, sliced or dropped}}
  %y = tensor.expand_shape %x [[0], [1, 2]] output_shape [3, 2, 2] : tensor<3x4x!R> into tensor<3x2x2x!R>
  return %y : tensor<3x2x2x!R>
}

// -----

!R = !quant.uniform<i8:f32:1, {0.5:1, 0.25:2}>
func.func @slice_cuts_axis(%x: tensor<4x2x!R>) -> tensor<4x1x!R> {
  // expected-error@+1 {{'tensor.extract_slice' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01:2}>': it is merged, split, sliced or dropped}}
  %y = tensor.extract_slice %x[0, 1] [4, 1] [1, 1] : tensor<4x2x!R> to tensor<4x1x!R>
  return %y : tensor<4x1x!R>
}

// -----

// Dropping dimension 0 shifts the axis from 1 to 0.
!R = !quant.uniform<i8:f32:1, {0.5:1, 0.25:2}>
func.func @slice_drops_before_axis(%x: tensor<4x2x!R>) -> tensor<2x!R> {
  // expected-error@+1 {{'tensor.extract_slice' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01:2}>': it would become dimension 0 while the type still names 1}}
  %y = tensor.extract_slice %x[2, 0] [1, 2] [1, 1] : tensor<4x2x!R> to tensor<2x!R>
  return %y : tensor<2x!R>
}

// -----

!R = !quant.uniform<i8:f32:1, {0.5:1, 0.25:2}>
func.func @transpose_moves_axis(%x: tensor<3x2x!R>) -> tensor<2x3x!R> {
  %e = tensor.empty() : tensor<2x3x!R>
  // expected-error@+1 {{'linalg.transpose' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01:2}>': it would become dimension 0 while the type still names 1}}
  %y = linalg.transpose ins(%x : tensor<3x2x!R>) outs(%e : tensor<2x3x!R>) permutation = [1, 0]
  return %y : tensor<2x3x!R>
}

// -----

// Accepted: unit dimensions merged into or split off the axis, rows
// sliced, a transpose that keeps dimension 1, and every per-tensor shape op.
!R = !quant.uniform<i8:f32:1, {0.5:1, 0.25:2}>
!T = !quant.uniform<i8:f32, 0.5:1>
func.func @kept(%x: tensor<4x2x1x!R>, %t: tensor<2x3x!T>) -> (tensor<2x2x!R>, tensor<1x2x4x!R>, tensor<6x!T>) {
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<4x2x1x!R> into tensor<4x2x!R>
  %s = tensor.extract_slice %c[1, 0] [2, 2] [1, 1] : tensor<4x2x!R> to tensor<2x2x!R>
  %ex = tensor.expand_shape %c [[0], [1, 2]] output_shape [4, 2, 1] : tensor<4x2x!R> into tensor<4x2x1x!R>
  %e = tensor.empty() : tensor<1x2x4x!R>
  %p = linalg.transpose ins(%ex : tensor<4x2x1x!R>) outs(%e : tensor<1x2x4x!R>) permutation = [2, 1, 0]
  %f = tensor.collapse_shape %t [[0, 1]] : tensor<2x3x!T> into tensor<6x!T>
  return %s, %p, %f : tensor<2x2x!R>, tensor<1x2x4x!R>, tensor<6x!T>
}

// -----

// Found by qnt-parse-fuzzer: builtin tensor types do not check a per-axis
// element type against their shape, and a quantized dimension past the rank
// used to index past the slice's offsets.
!R = !quant.uniform<i8:f32:2, {0.5:1, 0.25:2}>
func.func @axis_past_rank(%x: tensor<4x2x!R>) -> tensor<4x1x!R> {
  // expected-error@+1 {{'tensor.extract_slice' op source type 'tensor<4x2x!quant.uniform<i8:f32:2, {5.000000e-01:1,2.500000e-01:2}>>' has no dimension 2, the quantized axis of its per-axis type}}
  %y = tensor.extract_slice %x[0, 1] [4, 1] [1, 1] : tensor<4x2x!R> to tensor<4x1x!R>
  return %y : tensor<4x1x!R>
}

// -----

!R = !quant.uniform<i8:f32:1, {0.5:1, 0.25:2}>
func.func @scale_count_differs(%x: tensor<4x3x!R>) -> tensor<2x3x!R> {
  // expected-error@+1 {{'tensor.extract_slice' op source type 'tensor<4x3x!quant.uniform<i8:f32:1, {5.000000e-01:1,2.500000e-01:2}>>' has size 3 in dimension 1 but its per-axis type has 2 scales}}
  %y = tensor.extract_slice %x[0, 0] [2, 3] [1, 1] : tensor<4x3x!R> to tensor<2x3x!R>
  return %y : tensor<2x3x!R>
}


// -----

// Found by a hostile-input review: tensor.reshape kept the axis number while
// the rows of scales moved to dimension 2, so the dequantized values of
// row i were scaled by scale[i].
!P = !quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>
func.func @reshape_moves_axis(%x: tensor<3x3x!P>) -> tensor<1x3x3x!P> {
  %s = arith.constant dense<[1, 3, 3]> : tensor<3xindex>
  // expected-error@+1 {{'tensor.reshape' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {1.000000e+00,1.000000e+01,1.000000e+02}>': it would become dimension 2 while the type still names 1}}
  %r = tensor.reshape %x(%s) : (tensor<3x3x!P>, tensor<3xindex>) -> tensor<1x3x3x!P>
  return %r : tensor<1x3x3x!P>
}

// -----

!P = !quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>
func.func @reshape_merges_axis(%x: tensor<2x3x!P>) -> tensor<6x!P> {
  %s = arith.constant dense<[6]> : tensor<1xindex>
  // expected-error@+1 {{'tensor.reshape' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {1.000000e+00,1.000000e+01,1.000000e+02}>': it is merged, split, sliced or dropped}}
  %r = tensor.reshape %x(%s) : (tensor<2x3x!P>, tensor<1xindex>) -> tensor<6x!P>
  return %r : tensor<6x!P>
}

// -----

!P = !quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>
func.func @reshape_dynamic(%x: tensor<2x3x!P>, %s: tensor<2xindex>) -> tensor<?x?x!P> {
  // expected-error@+1 {{'tensor.reshape' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {1.000000e+00,1.000000e+01,1.000000e+02}>': a tensor.reshape to a dynamic shape cannot show where it goes}}
  %r = tensor.reshape %x(%s) : (tensor<2x3x!P>, tensor<2xindex>) -> tensor<?x?x!P>
  return %r : tensor<?x?x!P>
}

// -----

// Any op's result must fit its per-axis type: a concat along the axis
// doubles the dimension but keeps the three scales.
!P = !quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>
func.func @concat_along_axis(%a: tensor<2x3x!P>, %b: tensor<2x3x!P>) -> tensor<2x6x!P> {
  // expected-error@+1 {{'tensor.concat' op result #0 type 'tensor<2x6x!quant.uniform<i8:f32:1, {1.000000e+00,1.000000e+01,1.000000e+02}>>' has size 6 in dimension 1 but its per-axis type has 3 scales}}
  %c = tensor.concat dim(1) %a, %b : (tensor<2x3x!P>, tensor<2x3x!P>) -> tensor<2x6x!P>
  return %c : tensor<2x6x!P>
}

// -----

!P = !quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>
func.func @insert_slice_into_wider(%a: tensor<2x3x!P>, %d: tensor<2x6x!P>) -> tensor<2x6x!P> {
  // expected-error@+1 {{'tensor.insert_slice' op operand #1 type 'tensor<2x6x!quant.uniform<i8:f32:1, {1.000000e+00,1.000000e+01,1.000000e+02}>>' has size 6 in dimension 1 but its per-axis type has 3 scales}}
  %r = tensor.insert_slice %a into %d[0, 0] [2, 3] [1, 1] : tensor<2x3x!P> into tensor<2x6x!P>
  return %r : tensor<2x6x!P>
}

// -----

// Accepted: a reshape that only adds or drops unit dimensions around the
// axis keeps it at the same index; a concat across the axis.
!P = !quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>
func.func @reshape_and_concat_kept(%x: tensor<2x3x!P>, %y: tensor<2x3x!P>) -> (tensor<2x3x1x!P>, tensor<4x3x!P>) {
  %s = arith.constant dense<[2, 3, 1]> : tensor<3xindex>
  %r = tensor.reshape %x(%s) : (tensor<2x3x!P>, tensor<3xindex>) -> tensor<2x3x1x!P>
  %c = tensor.concat dim(0) %x, %y : (tensor<2x3x!P>, tensor<2x3x!P>) -> tensor<4x3x!P>
  return %r, %c : tensor<2x3x1x!P>, tensor<4x3x!P>
}

// -----

// A pad along the axis adds rows that have no scale (the result type would
// not fit either, but the message says why).
!P = !quant.uniform<i8:f32:0, {0.5:1, 0.25:-2}>
func.func @pad_along_axis(%x: tensor<2x2x!P>, %z: !P) -> tensor<3x2x!P> {
  // expected-error@+1 {{'tensor.pad' op pads dimension 0, the quantized axis of the per-axis type '!quant.uniform<i8:f32:0, {5.000000e-01:1,2.500000e-01:-2}>': the padded entries would have no scale; pad only the other dimensions of a per-axis tensor (or requantize to per tensor first)}}
  %p = tensor.pad %x low[1, 0] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : !P
  } : tensor<2x2x!P> to tensor<3x2x!P>
  return %p : tensor<3x2x!P>
}

// -----

// A padding amount unknown at compile time along the axis: the dynamic
// result size alone would pass the fit check.
!P = !quant.uniform<i8:f32:0, {0.5:1, 0.25:-2}>
func.func @pad_along_axis_dynamic(%x: tensor<2x2x!P>, %z: !P, %n: index) -> tensor<?x2x!P> {
  // expected-error@+1 {{'tensor.pad' op pads dimension 0, the quantized axis of the per-axis type}}
  %p = tensor.pad %x low[0, 0] high[%n, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : !P
  } : tensor<2x2x!P> to tensor<?x2x!P>
  return %p : tensor<?x2x!P>
}

// -----

// Accepted: padding the other dimensions, by static or dynamic amounts, and
// a zero padding of the axis given as a constant value.
!P = !quant.uniform<i8:f32:0, {0.5:1, 0.25:-2}>
func.func @pad_other_dims(%x: tensor<2x2x!P>, %z: !P, %n: index) -> (tensor<2x5x!P>, tensor<2x?x!P>) {
  %c0 = arith.constant 0 : index
  %p = tensor.pad %x low[0, 1] high[%c0, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : !P
  } : tensor<2x2x!P> to tensor<2x5x!P>
  %d = tensor.pad %x low[0, %n] high[0, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : !P
  } : tensor<2x2x!P> to tensor<2x?x!P>
  return %p, %d : tensor<2x5x!P>, tensor<2x?x!P>
}

// -----

// A broadcast that adds a dimension before the axis moves it: the codes of
// scale 1, 2, 4 would be read along the other dimension (a hunt found
// [[1,1,1],[2,2,2],[4,4,4]] printed for real [1, 2, 4]).
!P = !quant.uniform<i8:f32:0, {1.0:0, 2.0:0, 4.0:0}>
func.func @broadcast_moves_axis(%x: tensor<3x!P>) -> tensor<3x3x!P> {
  %e = tensor.empty() : tensor<3x3x!P>
  // expected-error@+1 {{'linalg.broadcast' op changes dimension 0, the quantized axis of the per-axis type '!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00,4.000000e+00}>': it would become dimension 1 while the type still names 0}}
  %b = linalg.broadcast ins(%x : tensor<3x!P>) outs(%e : tensor<3x3x!P>) dimensions = [0]
  return %b : tensor<3x3x!P>
}

// -----

// The same for a rank-reducing insert_slice of a row.
!P = !quant.uniform<i8:f32:0, {1.0:0, 2.0:0, 4.0:0}>
func.func @insert_slice_moves_axis(%x: tensor<3x!P>, %m: tensor<3x3x!P>) -> tensor<3x3x!P> {
  // expected-error@+1 {{'tensor.insert_slice' op changes dimension 0, the quantized axis of the per-axis type '!quant.uniform<i8:f32:0, {1.000000e+00,2.000000e+00,4.000000e+00}>': it would become dimension 1 while the type still names 0}}
  %r = tensor.insert_slice %x into %m[0, 0] [1, 3] [1, 1] : tensor<3x!P> into tensor<3x3x!P>
  return %r : tensor<3x3x!P>
}

// -----

// An insert along the axis at an offset not known to be 0 may shift its
// entries onto the scales of other channels.
!P = !quant.uniform<i8:f32:1, {1.0:0, 2.0:0, 4.0:0}>
func.func @insert_slice_unknown_offset(%x: tensor<2x3x!P>, %m: tensor<2x3x!P>, %o: index) -> tensor<2x3x!P> {
  // expected-error@+1 {{'tensor.insert_slice' op changes dimension 1, the quantized axis of the per-axis type '!quant.uniform<i8:f32:1, {1.000000e+00,2.000000e+00,4.000000e+00}>': it is merged, split, sliced or dropped}}
  %r = tensor.insert_slice %x into %m[0, %o] [2, 3] [1, 1] : tensor<2x3x!P> into tensor<2x3x!P>
  return %r : tensor<2x3x!P>
}

// -----

// Accepted: a broadcast that adds dimensions after the axis, and a
// rank-reducing insert of whole channels rows that keeps the axis in place.
!P = !quant.uniform<i8:f32:0, {1.0:0, 2.0:0, 4.0:0}>
func.func @keep_axis(%x: tensor<3x!P>, %m: tensor<3x4x!P>) -> (tensor<3x4x!P>, tensor<3x4x!P>) {
  %e = tensor.empty() : tensor<3x4x!P>
  %b = linalg.broadcast ins(%x : tensor<3x!P>) outs(%e : tensor<3x4x!P>) dimensions = [1]
  %r = tensor.insert_slice %x into %m[0, 2] [3, 1] [1, 1] : tensor<3x!P> into tensor<3x4x!P>
  return %b, %r : tensor<3x4x!P>, tensor<3x4x!P>
}
