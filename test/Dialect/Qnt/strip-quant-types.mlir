// qnt-strip-quant-types: !quant.uniform tensors become their signless storage
// integers everywhere; quantize / dequantize get their parameters as
// attributes, qnt.constant keeps its bits, quant.scast disappears.
// RUN: quant-opt %s -qnt-strip-quant-types -split-input-file | FileCheck %s

// u8 codes travel as i8 bits; the argument and result that held them are
// marked qnt.unsigned. quantize: scale 0.25 as f32, zero point 128, the u8
// range [0, 255]; dequantize mirrors it.
// CHECK-LABEL: func.func @quantize_dequantize
// CHECK-SAME: (%[[F:.*]]: tensor<2xf32>, %[[Q:.*]]: tensor<2xi8> {qnt.unsigned}) -> (tensor<2xi8> {qnt.unsigned}, tensor<2xf32>)
// CHECK: %[[I:.*]] = qnt.int_quantize %[[F]] {max = 255 : i32, min = 0 : i32, output_unsigned, scales = array<f32: 2.500000e-01>, zero_points = array<i32: 128>} : tensor<2xf32> -> tensor<2xi8>
// CHECK: %[[D:.*]] = qnt.int_dequantize %[[Q]] {input_unsigned, scales = array<f32: 2.500000e-01>, zero_points = array<i32: 128>} : tensor<2xi8> -> tensor<2xf32>
// CHECK: return %[[I]], %[[D]] : tensor<2xi8>, tensor<2xf32>
func.func @quantize_dequantize(%f: tensor<2xf32>, %q: tensor<2x!quant.uniform<u8:f32, 0.25:128>>)
    -> (tensor<2x!quant.uniform<u8:f32, 0.25:128>>, tensor<2xf32>) {
  %i = qnt.quantize %f : tensor<2xf32> -> tensor<2x!quant.uniform<u8:f32, 0.25:128>>
  %d = qnt.dequantize %q : tensor<2x!quant.uniform<u8:f32, 0.25:128>> -> tensor<2xf32>
  return %i, %d : tensor<2x!quant.uniform<u8:f32, 0.25:128>>, tensor<2xf32>
}

// -----

// Narrow range per axis (axis 1): min is -127, scales and zero points per
// channel; i16 storage keeps its width. Signed codes carry no unit attribute.
// CHECK-LABEL: func.func @per_axis_and_i16
// CHECK-SAME: -> (tensor<2x3xi8>, tensor<4xi16>)
// CHECK: qnt.int_quantize %{{.*}} {axis = 1 : i64, max = 127 : i32, min = -127 : i32, scales = array<f32: 5.000000e-01, 2.500000e-01, 1.250000e-01>, zero_points = array<i32: 0, 1, -1>} : tensor<2x3xf32> -> tensor<2x3xi8>
// CHECK: qnt.int_quantize %{{.*}} {max = 32767 : i32, min = -32768 : i32, scales = array<f32: 1.000000e-03>, zero_points = array<i32: 0>} : tensor<4xf32> -> tensor<4xi16>
func.func @per_axis_and_i16(%f: tensor<2x3xf32>, %g: tensor<4xf32>)
    -> (tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.5, 0.25:1, 0.125:-1}>>, tensor<4x!quant.uniform<i16:f32, 0.001>>) {
  %q = qnt.quantize %f : tensor<2x3xf32> -> tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.5, 0.25:1, 0.125:-1}>>
  %r = qnt.quantize %g : tensor<4xf32> -> tensor<4x!quant.uniform<i16:f32, 0.001>>
  return %q, %r : tensor<2x3x!quant.uniform<i8<-127:127>:f32:1, {0.5, 0.25:1, 0.125:-1}>>, tensor<4x!quant.uniform<i16:f32, 0.001>>
}

// -----

// Constants keep their bits: u8 code 200 is the i8 value 200 - 256 = -56.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: %[[U:.*]] = arith.constant dense<[-56, 3]> : tensor<2xi8>
// CHECK-DAG: %[[S:.*]] = arith.constant dense<[-128, 127]> : tensor<2xi8>
// CHECK-DAG: %[[A:.*]] = arith.constant dense<540> : tensor<1xi32>
// CHECK-NOT: qnt.constant
// CHECK: return %[[U]], %[[S]], %[[A]]
func.func @constants() -> (tensor<2x!quant.uniform<u8:f32, 0.1:100>>, tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<1x!quant.uniform<i32:f32, 0.0005>>) {
  %u = qnt.constant dense<[200, 3]> : tensor<2xui8> -> tensor<2x!quant.uniform<u8:f32, 0.1:100>>
  %s = qnt.constant dense<[-128, 127]> : tensor<2xi8> -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  %a = qnt.constant dense<540> : tensor<1xi32> -> tensor<1x!quant.uniform<i32:f32, 0.0005>>
  return %u, %s, %a : tensor<2x!quant.uniform<u8:f32, 0.1:100>>, tensor<2x!quant.uniform<i8:f32, 0.5>>, tensor<1x!quant.uniform<i32:f32, 0.0005>>
}

// -----

// The output of the earlier passes: every quant.scast goes, the integer ops
// read the function arguments directly, and the call site follows the
// callee's new signature.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>
!Y = !quant.uniform<u8:f32, 0.1:100>

// CHECK-LABEL: func.func @layer
// CHECK-SAME: (%[[X:.*]]: tensor<1x3xi8>, %[[W:.*]]: tensor<3x1xi8>) -> (tensor<1x1xi8> {qnt.unsigned})
// CHECK-NOT: quant.scast
// CHECK: %[[ACC:.*]] = qnt.int_matmul %[[X]], %[[W]], %{{.*}} {input_zero_point = -10 : i32, weight_zero_points = array<i32: 0>}
// CHECK: %[[Y:.*]] = qnt.int_requantize %[[ACC]]
// CHECK-NOT: quant.scast
// CHECK: return %[[Y]] : tensor<1x1xi8>
func.func @layer(%x: tensor<1x3x!X>, %w: tensor<3x1x!W>) -> tensor<1x1x!Y> {
  %xi = quant.scast %x : tensor<1x3x!X> to tensor<1x3xi8>
  %wi = quant.scast %w : tensor<3x1x!W> to tensor<3x1xi8>
  %b = arith.constant dense<0> : tensor<1xi32>
  %acc = qnt.int_matmul %xi, %wi, %b {input_zero_point = -10 : i32, weight_zero_points = array<i32: 0>}
         : tensor<1x3xi8>, tensor<3x1xi8>, tensor<1xi32> -> tensor<1x1xi32>
  %a = quant.scast %acc : tensor<1x1xi32> to tensor<1x1x!A>
  %ai = quant.scast %a : tensor<1x1x!A> to tensor<1x1xi32>
  %yi = qnt.int_requantize %ai {input_zero_points = array<i32: 0>, multipliers = array<i32: 1374389535>,
          shifts = array<i32: 7>, float_multipliers = array<f32: 0.005>, output_zero_points = array<i32: 100>,
          min = 0 : i32, max = 255 : i32, rounding = "double", output_unsigned} : tensor<1x1xi32> -> tensor<1x1xi8>
  %y = quant.scast %yi : tensor<1x1xi8> to tensor<1x1x!Y>
  return %y : tensor<1x1x!Y>
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[X:.*]]: tensor<1x3xi8>, %[[W:.*]]: tensor<3x1xi8>) -> (tensor<1x1xi8> {qnt.unsigned})
// CHECK: %[[R:.*]] = call @layer(%[[X]], %[[W]]) : (tensor<1x3xi8>, tensor<3x1xi8>) -> tensor<1x1xi8>
// CHECK: return %[[R]] : tensor<1x1xi8>
func.func @caller(%x: tensor<1x3x!X>, %w: tensor<3x1x!W>) -> tensor<1x1x!Y> {
  %y = call @layer(%x, %w) : (tensor<1x3x!X>, tensor<3x1x!W>) -> tensor<1x1x!Y>
  return %y : tensor<1x1x!Y>
}

// -----

// Other ops on quantized tensors (tensor reshapes, structured control flow)
// just change types.
!Y = !quant.uniform<u8:f32, 0.1:100>

// CHECK-LABEL: func.func @reshape_and_if
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: tensor<2x2xi8> {qnt.unsigned}, %[[B:.*]]: tensor<4xi8> {qnt.unsigned}) -> (tensor<4xi8> {qnt.unsigned})
// CHECK: %[[F:.*]] = tensor.collapse_shape %[[A]] {{\[}}[0, 1]] : tensor<2x2xi8> into tensor<4xi8>
// CHECK: %[[R:.*]] = scf.if %[[C]] -> (tensor<4xi8>) {
// CHECK:   scf.yield %[[F]] : tensor<4xi8>
// CHECK: } else {
// CHECK:   scf.yield %[[B]] : tensor<4xi8>
// CHECK: return %[[R]] : tensor<4xi8>
func.func @reshape_and_if(%c: i1, %a: tensor<2x2x!Y>, %b: tensor<4x!Y>) -> tensor<4x!Y> {
  %f = tensor.collapse_shape %a [[0, 1]] : tensor<2x2x!Y> into tensor<4x!Y>
  %r = scf.if %c -> tensor<4x!Y> {
    scf.yield %f : tensor<4x!Y>
  } else {
    scf.yield %b : tensor<4x!Y>
  }
  return %r : tensor<4x!Y>
}
