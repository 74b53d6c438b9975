// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// Max pool of u8 codes: padding and the initial value are the smallest code
// (0 unsigned), which never beats a real element. A parallel generic over
// (n, oh, ow, c) folds each window in a register with scf.for loops over
// kh and kw (once LLVM unrolls them the channel loop is innermost and
// vectorized). Input index: oh * 2 + kh (stride 2), ow + kw * 2 - 1
// (dilation 2, one column of padding on the left). The padding is not
// materialized: a column outside [0, 4) reads column 0 and the code is
// replaced by the pad value 0; rows have no padding and no check.
// CHECK-LABEL: func.func @max_u8
// CHECK-NOT: tensor.pad
// CHECK: %[[INIT:.*]] = linalg.fill ins(%c0_i8{{.*}} : i8) outs(%{{.*}} : tensor<1x2x3x2xi8>)
// CHECK: linalg.generic {{{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%[[INIT]] : tensor<1x2x3x2xi8>)
// CHECK: ^bb0(%[[OUT:.*]]: i8):
// CHECK: %[[N:.*]] = linalg.index 0
// CHECK: %[[OH:.*]] = linalg.index 1
// CHECK: %[[OW:.*]] = linalg.index 2
// CHECK: %[[C:.*]] = linalg.index 3
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: %[[ROW0:.*]] = arith.muli %[[OH]], %c2
// CHECK: scf.for %[[KH:.*]] = %c0 to %c2{{.*}} step %c1 iter_args(%[[A0:.*]] = %[[OUT]]) -> (i8)
// CHECK: %[[ROW:.*]] = arith.addi %[[ROW0]], %[[KH]]
// CHECK-NOT: arith.cmpi
// CHECK: scf.for %[[KW:.*]] = %c0 to %c2{{.*}} step %c1 iter_args(%[[A1:.*]] = %[[A0]]) -> (i8)
// CHECK: %[[DW:.*]] = arith.muli %[[KW]], %c2
// CHECK: %[[COL1:.*]] = arith.addi %[[OW]], %[[DW]]
// CHECK: %[[COL:.*]] = arith.subi %[[COL1]], %c1
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[COL]], %c4
// CHECK: %[[SAFE:.*]] = arith.select %[[IN]], %[[COL]], %[[ZERO]] : index
// CHECK: %[[X:.*]] = tensor.extract %arg0[%[[N]], %[[ROW]], %[[SAFE]], %[[C]]] : tensor<1x4x4x2xi8>
// CHECK: %[[V:.*]] = arith.select %[[IN]], %[[X]], %c0_i8{{.*}} : i8
// CHECK: arith.maxui %[[V]], %[[A1]] : i8
func.func @max_u8(%x: tensor<1x4x4x2xi8>) -> tensor<1x2x3x2xi8> {
  %y = qnt.int_max_pool2d %x {dilations = array<i64: 1, 2>, input_unsigned, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 1, 0>, strides = array<i64: 2, 1>}
       : tensor<1x4x4x2xi8> -> tensor<1x2x3x2xi8>
  return %y : tensor<1x2x3x2xi8>
}

// -----

// Padding on an undilated axis: max may read a real element twice, so a tap
// in the padding reads the nearest row / column (clamped into [0, 4)), which
// lies in the window, and no code is selected (a select on a loop-invariant
// condition cost the channel loop its vectorization). Rows are dilated
// here (2), so they keep the check and the select.
// CHECK-LABEL: func.func @max_nearest_columns
// CHECK: %[[ZERO:.*]] = arith.constant 0 : index
// CHECK: scf.for
// CHECK: %[[RIN:.*]] = arith.cmpi ult, %{{.*}}, %c4
// CHECK: %[[ROW:.*]] = arith.select %[[RIN]], %{{.*}}, %[[ZERO]] : index
// CHECK: scf.for
// CHECK: %[[COL1:.*]] = arith.subi %{{.*}}, %c1{{.*}} : index
// CHECK: %[[UP:.*]] = arith.maxsi %[[COL1]], %[[ZERO]] : index
// CHECK: %[[COL:.*]] = arith.minsi %[[UP]], %c3{{.*}} : index
// CHECK: %[[X:.*]] = tensor.extract %arg0[%{{.*}}, %[[ROW]], %[[COL]], %{{.*}}]
// CHECK: %[[V:.*]] = arith.select %[[RIN]], %[[X]], %c-128_i8{{.*}} : i8
// CHECK: arith.maxsi %[[V]]
func.func @max_nearest_columns(%x: tensor<1x4x4x8xi8>) -> tensor<1x2x4x8xi8> {
  %y = qnt.int_max_pool2d %x {dilations = array<i64: 2, 1>, kernel = array<i64: 2, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>}
       : tensor<1x4x4x8xi8> -> tensor<1x2x4x8xi8>
  return %y : tensor<1x2x4x8xi8>
}

// -----

// Both axes undilated: no tap is checked, every index is clamped.
// CHECK-LABEL: func.func @max_nearest
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK: arith.minsi %{{.*}}, %c3{{.*}} : index
// CHECK: arith.minsi %{{.*}}, %c3{{.*}} : index
// CHECK-NOT: arith.select
// CHECK: arith.maxsi %{{.*}} : i8
func.func @max_nearest(%x: tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8> {
  %y = qnt.int_max_pool2d %x {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
       : tensor<1x4x4x8xi8> -> tensor<1x2x2x8xi8>
  return %y : tensor<1x2x2x8xi8>
}

// -----

// Signed: -128 initializes (and would pad); without padding no tap is
// checked.
// CHECK-LABEL: func.func @max_i8
// CHECK-NOT: tensor.pad
// CHECK: linalg.fill ins(%c-128_i8
// CHECK-NOT: arith.cmpi
// CHECK-NOT: arith.select
// CHECK: arith.maxsi
func.func @max_i8(%x: tensor<1x4x4x8xi8>) -> tensor<1x2x2x8xi8> {
  %y = qnt.int_max_pool2d %x {dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}
       : tensor<1x4x4x8xi8> -> tensor<1x2x2x8xi8>
  return %y : tensor<1x2x2x8xi8>
}

// -----

// Average pool, 3x3 input, 2x2 window, stride 2, top/left padding 1: raw
// codes (padding 0) are summed in i32 (the same register form; a tap in the
// padding reads the nearest row / column and is masked to 0 by a table per
// output row and kernel row, [[0, -1], [-1, -1]], and the same per column:
// no select, which LLVM would unswitch into a branch in the channel loop),
// then the real-position counts
// [[1, 2], [2, 4]] (row 0 of the output sees 1 input row, row 1 two; the
// same for columns), as the product of the row counts [1, 2] and the column
// counts [1, 2], and the per-channel zero points [1, -2] are constant
// operands: s = sum - count * z, y = clamp(z + (s +- count / 2) / count).
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1, d2, d3) -> (d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1, d2, d3) -> (d2)>
// CHECK-DAG: #[[CH:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-LABEL: func.func @avg_per_channel
// CHECK-NOT: tensor.pad
// CHECK: %[[RMASKS:.*]] = arith.constant dense<{{\[\[}}0, -1], [-1, -1]]> : tensor<2x2xi8>
// CHECK: %[[CMASKS:.*]] = arith.constant dense<{{\[\[}}0, -1], [-1, -1]]> : tensor<2x2xi8>
// CHECK: %[[SUM:.*]] = linalg.generic
// CHECK-SAME: outs(%{{.*}} : tensor<1x2x2x2xi32>)
// CHECK: %[[OH:.*]] = linalg.index 1
// CHECK: %[[OW:.*]] = linalg.index 2
// CHECK: scf.for %[[KH:[^ ]*]] =
// CHECK: %[[RMASK:.*]] = tensor.extract %[[RMASKS]][%[[OH]], %[[KH]]]
// CHECK: scf.for %[[KW:[^ ]*]] =
// CHECK: %[[X:.*]] = tensor.extract %arg0
// CHECK: %[[XR:.*]] = arith.andi %[[X]], %[[RMASK]] : i8
// CHECK: %[[CMASK:.*]] = tensor.extract %[[CMASKS]][%[[OW]], %[[KW]]]
// CHECK: %[[V:.*]] = arith.andi %[[XR]], %[[CMASK]] : i8
// CHECK-NOT: arith.select
// CHECK: %[[E:.*]] = arith.extsi %[[V]] : i8 to i32
// CHECK: arith.addi %{{.*}}, %[[E]] : i32
// CHECK: %[[ROWS:.*]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: %[[COLS:.*]] = arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: %[[ZPS:.*]] = arith.constant dense<[1, -2]> : tensor<2xi32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[ROW]], #[[COL]], #[[CH]], #{{.*}}]
// CHECK-SAME: ins(%[[SUM]], %[[ROWS]], %[[COLS]], %[[ZPS]] : tensor<1x2x2x2xi32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>)
// CHECK: ^bb0(%[[S:.*]]: i32, %[[NH:.*]]: i32, %[[NW:.*]]: i32, %[[Z:.*]]: i32, %{{.*}}: i8):
// CHECK: %[[N:.*]] = arith.muli %[[NH]], %[[NW]]
// CHECK: %[[NZ:.*]] = arith.muli %[[N]], %[[Z]]
// CHECK: %[[C:.*]] = arith.subi %[[S]], %[[NZ]]
// CHECK: %[[HALF:.*]] = arith.divsi %[[N]], %c2_i32
// CHECK: %[[NEG:.*]] = arith.cmpi slt, %[[C]], %c0_i32
// CHECK: %[[BIAS:.*]] = arith.select %[[NEG]]
// CHECK: %[[R:.*]] = arith.addi %[[C]], %[[BIAS]]
// |R| < 2^24: the division is in f32, exactly (vectorized; x86 has no
// vector integer division).
// CHECK: %[[RF:.*]] = arith.sitofp %[[R]] : i32 to f32
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i32 to f32
// CHECK: %[[QF:.*]] = arith.divf %[[RF]], %[[NF]] : f32
// CHECK: %[[Q:.*]] = arith.fptosi %[[QF]] : f32 to i32
// CHECK: arith.addi %[[Q]], %[[Z]]
// CHECK: arith.maxsi %{{.*}}, %c-128_i32
// CHECK: arith.minsi %{{.*}}, %c127_i32
func.func @avg_per_channel(%x: tensor<1x3x3x2xi8>) -> tensor<1x2x2x2xi8> {
  %y = qnt.int_avg_pool2d %x {kernel = array<i64: 2, 2>, max = 127 : i32, min = -128 : i32, padding = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>, zero_points = array<i32: 1, -2>}
       : tensor<1x3x3x2xi8> -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// count_include_pad divides by the window size 4 while the zero-point term
// still uses the real count (padding contributes q - z = 0); uniform
// parameters become constants in the body.
// CHECK-LABEL: func.func @avg_include_pad
// CHECK: arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: arith.constant dense<[1, 2]> : tensor<2xi32>
// CHECK: ^bb0(%[[S:.*]]: i32, %[[NH:.*]]: i32, %[[NW:.*]]: i32, %{{.*}}: i8):
// CHECK: %[[N:.*]] = arith.muli %[[NH]], %[[NW]]
// CHECK: arith.muli %[[N]], %c128_i32
// CHECK: arith.divsi %c4_i32, %c2_i32
// CHECK: %[[FOUR:.*]] = arith.sitofp %c4_i32 : i32 to f32
// CHECK: arith.divf %{{.*}}, %[[FOUR]] : f32
func.func @avg_include_pad(%x: tensor<1x3x3x4xi8>) -> tensor<1x2x2x4xi8> {
  %y = qnt.int_avg_pool2d %x {count_include_pad, input_unsigned, kernel = array<i64: 2, 2>, max = 255 : i32, min = 0 : i32, padding = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>, zero_points = array<i32: 128>}
       : tensor<1x3x3x4xi8> -> tensor<1x2x2x4xi8>
  return %y : tensor<1x2x2x4xi8>
}

// -----

// A 256 x 256 window of i16 codes can sum to 2^16 * 32768 = 2^31: the sum
// widens to i64, and the division is in f64 (exact below 2^53).
// CHECK-LABEL: func.func @avg_wide
// CHECK: linalg.fill ins(%c0_i64 : i64)
// CHECK: arith.extsi %{{.*}} : i16 to i64
// CHECK: arith.divf %{{.*}}, %{{.*}} : f64
// CHECK: arith.fptosi %{{.*}} : f64 to i64
// CHECK: arith.trunci %{{.*}} : i64 to i16
func.func @avg_wide(%x: tensor<1x256x256x1xi16>) -> tensor<1x1x1x1xi16> {
  %y = qnt.int_avg_pool2d %x {kernel = array<i64: 256, 256>, max = 32767 : i32, min = -32768 : i32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, zero_points = array<i32: 0>}
       : tensor<1x256x256x1xi16> -> tensor<1x1x1x1xi16>
  return %y : tensor<1x1x1x1xi16>
}

// -----

// 600000 x 600000 taps of i16 codes: |sum| can reach 2^53, past what f64
// divides exactly, so the division stays integer.
// CHECK-LABEL: func.func @avg_integer_division
// CHECK-NOT: arith.divf
// CHECK: arith.divsi %{{.*}}, %c2_i64 : i64
// CHECK: arith.divsi %{{.*}}, %{{.*}} : i64
// CHECK-NOT: arith.divf
func.func @avg_integer_division(%x: tensor<1x600000x600000x1xi16>) -> tensor<1x1x1x1xi16> {
  %y = qnt.int_avg_pool2d %x {kernel = array<i64: 600000, 600000>, max = 32767 : i32, min = -32768 : i32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, zero_points = array<i32: 0>}
       : tensor<1x600000x600000x1xi16> -> tensor<1x1x1x1xi16>
  return %y : tensor<1x1x1x1xi16>
}
