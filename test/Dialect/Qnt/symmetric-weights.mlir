// qnt-symmetric-weights: Z_W = 0 needs nothing; Z_W != 0 costs exactly one
// runtime reduction over the input (the same integer op with all-ones
// weights), after which the op's weight zero points are 0 and
//   acc[.., n] = acc_sym[.., n] - Z_W[n] * sum_k (x - input_zero_point).
// RUN: quant-opt %s -qnt-symmetric-weights -split-input-file | FileCheck %s

// Symmetric weights: the op is left alone, no reduction, no correction.
// CHECK-LABEL: func.func @symmetric
// CHECK: qnt.int_matmul %arg0, %arg1, %arg2 {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
// CHECK-NOT: qnt.int_matmul
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @symmetric(%x: tensor<2x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}

// -----

// Per-channel zero points that are all 0 count as symmetric too.
// CHECK-LABEL: func.func @symmetric_per_channel_conv
// CHECK-COUNT-1: qnt.int_conv2d
// CHECK-NOT: qnt.int_conv2d
// CHECK-NOT: linalg.generic
func.func @symmetric_per_channel_conv(%x: tensor<1x4x4x2xi8>, %w: tensor<3x3x2x2xi8>, %b: tensor<2xi32>) -> tensor<1x2x2x2xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0, 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x4x4x2xi8>, tensor<3x3x2x2xi8>, tensor<2xi32> -> tensor<1x2x2x2xi32>
  return %a : tensor<1x2x2x2xi32>
}

// -----

// u8 weights with Z_W = 128 (after qnt-fold-zero-points, input zero point 0):
// the row sums r[m] = sum_k x[m, k] come from one M x K by K x 1 matmul with
// all-ones i8 weights (signed: they are the value 1), then
// acc[m, n] -= 128 * r[m].
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @matmul_asymmetric
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi8>, %[[W:.*]]: tensor<3x4xi8>, %[[B:.*]]: tensor<4xi32>)
// CHECK-DAG: %[[ONES:.*]] = arith.constant dense<1> : tensor<3x1xi8>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : tensor<1xi32>
// CHECK-DAG: %[[ZW:.*]] = arith.constant dense<128> : tensor<4xi32>
// CHECK-DAG: %[[R:.*]] = qnt.int_matmul %[[X]], %[[ONES]], %[[ZERO]] {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned} : tensor<2x3xi8>, tensor<3x1xi8>, tensor<1xi32> -> tensor<2x1xi32>
// CHECK-DAG: %[[SYM:.*]] = qnt.int_matmul %[[X]], %[[W]], %[[B]] {input_zero_point = 0 : i32, w_unsigned, weight_zero_points = array<i32: 0>, x_unsigned} : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
// CHECK-DAG: %[[RV:.*]] = tensor.collapse_shape %[[R]] {{\[}}[0, 1]] : tensor<2x1xi32> into tensor<2xi32>
// CHECK: %[[OUT:.*]] = linalg.generic {indexing_maps = [#[[ROW]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]} ins(%[[RV]], %[[ZW]] : tensor<2xi32>, tensor<4xi32>) outs(%[[SYM]] : tensor<2x4xi32>)
// CHECK-NEXT: ^bb0(%[[RI:.*]]: i32, %[[ZI:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[ZI]], %[[RI]] : i32
// CHECK-NEXT: %[[D:.*]] = arith.subi %[[ACC]], %[[P]] : i32
// CHECK-NEXT: linalg.yield %[[D]] : i32
// CHECK-NOT: qnt.int_matmul
// CHECK: return %[[OUT]]
func.func @matmul_asymmetric(%x: tensor<2x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 128>, x_unsigned, w_unsigned}
       : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}

// -----

// Per-channel Z_W and a kept input zero point (runtime weights): the row sum
// subtracts the same input zero point, sum_k (x - (-10)).
// CHECK-LABEL: func.func @matmul_per_channel
// CHECK-COUNT-2: qnt.int_matmul {{.*}}input_zero_point = -10 : i32, weight_zero_points = array<i32: 0>}
// CHECK-NOT: qnt.int_matmul
// CHECK: arith.constant dense<[1, -2, 0, 3]> : tensor<4xi32>
// CHECK-COUNT-1: linalg.generic
// CHECK-NOT: linalg.generic
func.func @matmul_per_channel(%x: tensor<2x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = -10 : i32, weight_zero_points = array<i32: 1, -2, 0, 3>}
       : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}

// -----

// Conv, groups = 1: the window sums use the same padding, pad_value,
// strides, dilations and input zero point, through one all-ones
// 3x3x2x1 filter; the N x OH x OW x 1 sums are shared by all 4 filters.
// CHECK-DAG: #[[PIX:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-DAG: #[[F:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @conv_asymmetric
// CHECK-SAME: (%[[X:.*]]: tensor<1x5x5x2xi8>, %[[W:.*]]: tensor<3x3x2x4xi8>, %[[B:.*]]: tensor<4xi32>)
// CHECK-DAG: %[[ONES:.*]] = arith.constant dense<1> : tensor<3x3x2x1xi8>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : tensor<1xi32>
// CHECK-DAG: %[[ZW:.*]] = arith.constant dense<5> : tensor<4xi32>
// CHECK-DAG: %[[S:.*]] = qnt.int_conv2d %[[X]], %[[ONES]], %[[ZERO]] {dilations = array<i64: 1, 2>, groups = 1 : i64, input_zero_point = 3 : i32, pad_value = 3 : i32, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>, weight_zero_points = array<i32: 0>} : tensor<1x5x5x2xi8>, tensor<3x3x2x1xi8>, tensor<1xi32> -> tensor<1x2x4x1xi32>
// CHECK-DAG: %[[SYM:.*]] = qnt.int_conv2d %[[X]], %[[W]], %[[B]] {dilations = array<i64: 1, 2>, groups = 1 : i64, input_zero_point = 3 : i32, pad_value = 3 : i32, padding = array<i64: 1, 0, 2, 1>, strides = array<i64: 2, 1>, weight_zero_points = array<i32: 0>} : tensor<1x5x5x2xi8>, tensor<3x3x2x4xi8>, tensor<4xi32> -> tensor<1x2x4x4xi32>
// CHECK-DAG: %[[SV:.*]] = tensor.collapse_shape %[[S]] {{\[}}[0], [1], [2, 3]] : tensor<1x2x4x1xi32> into tensor<1x2x4xi32>
// CHECK: linalg.generic {indexing_maps = [#[[PIX]], #[[F]], #[[ID4]]], {{.*}}} ins(%[[SV]], %[[ZW]] : tensor<1x2x4xi32>, tensor<4xi32>) outs(%[[SYM]] : tensor<1x2x4x4xi32>)
// CHECK-NOT: qnt.int_conv2d
func.func @conv_asymmetric(%x: tensor<1x5x5x2xi8>, %w: tensor<3x3x2x4xi8>, %b: tensor<4xi32>) -> tensor<1x2x4x4xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 3 : i32, weight_zero_points = array<i32: 5>, pad_value = 3 : i32,
         strides = array<i64: 2, 1>, dilations = array<i64: 1, 2>, padding = array<i64: 1, 0, 2, 1>, groups = 1 : i64}
       : tensor<1x5x5x2xi8>, tensor<3x3x2x4xi8>, tensor<4xi32> -> tensor<1x2x4x4xi32>
  return %a : tensor<1x2x4x4xi32>
}

// -----

// Depthwise (groups = C = F = 3): one window sum per channel, s[.., f] pairs
// with filter f directly.
// CHECK-DAG: #[[F:.*]] = affine_map<(d0, d1, d2, d3) -> (d3)>
// CHECK-DAG: #[[ID4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @depthwise
// CHECK-DAG: %[[ONES:.*]] = arith.constant dense<1> : tensor<3x3x1x3xi8>
// CHECK-DAG: %[[ZW:.*]] = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
// CHECK-DAG: %[[S:.*]] = qnt.int_conv2d %arg0, %[[ONES]], %{{.*}} {{{.*}}groups = 3 : i64{{.*}}} : tensor<1x4x4x3xi8>, tensor<3x3x1x3xi8>, tensor<3xi32> -> tensor<1x2x2x3xi32>
// CHECK-DAG: %[[SYM:.*]] = qnt.int_conv2d %arg0, %arg1, %arg2
// CHECK: linalg.generic {indexing_maps = [#[[ID4]], #[[F]], #[[ID4]]], {{.*}}} ins(%[[S]], %[[ZW]] : tensor<1x2x2x3xi32>, tensor<3xi32>) outs(%[[SYM]] : tensor<1x2x2x3xi32>)
func.func @depthwise(%x: tensor<1x4x4x3xi8>, %w: tensor<3x3x1x3xi8>, %b: tensor<3xi32>) -> tensor<1x2x2x3xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 1, 2, 3>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 3 : i64}
       : tensor<1x4x4x3xi8>, tensor<3x3x1x3xi8>, tensor<3xi32> -> tensor<1x2x2x3xi32>
  return %a : tensor<1x2x2x3xi32>
}

// -----

// Grouped conv (groups = 2, F = 6, so 3 filters per group): one window sum
// per group, and filter f = 3 * g + j reads s[.., g]. F is split into
// (group, filter in group) so that both maps are plain broadcasts.
// CHECK-DAG: #[[SG:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// CHECK-DAG: #[[GJ:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3, d4)>
// CHECK-DAG: #[[ID5:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @grouped
// CHECK-DAG: %[[ONES:.*]] = arith.constant dense<1> : tensor<1x1x2x2xi8>
// CHECK-DAG: %[[ZW:.*]] = arith.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi32>
// CHECK-DAG: %[[S:.*]] = qnt.int_conv2d %arg0, %[[ONES]], %{{.*}} {{{.*}}groups = 2 : i64{{.*}}} : tensor<1x2x2x4xi8>, tensor<1x1x2x2xi8>, tensor<2xi32> -> tensor<1x2x2x2xi32>
// CHECK-DAG: %[[SYM:.*]] = qnt.int_conv2d %arg0, %arg1, %arg2
// CHECK-DAG: %[[ACC:.*]] = tensor.expand_shape %[[SYM]] {{\[}}[0], [1], [2], [3, 4]] output_shape [1, 2, 2, 2, 3] : tensor<1x2x2x6xi32> into tensor<1x2x2x2x3xi32>
// CHECK-DAG: %[[ZWS:.*]] = tensor.expand_shape %[[ZW]] {{\[}}[0, 1]] output_shape [2, 3] : tensor<6xi32> into tensor<2x3xi32>
// CHECK: %[[OUT:.*]] = linalg.generic {indexing_maps = [#[[SG]], #[[GJ]], #[[ID5]]], {{.*}}} ins(%[[S]], %[[ZWS]] : tensor<1x2x2x2xi32>, tensor<2x3xi32>) outs(%[[ACC]] : tensor<1x2x2x2x3xi32>)
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[OUT]] {{\[}}[0], [1], [2], [3, 4]] : tensor<1x2x2x2x3xi32> into tensor<1x2x2x6xi32>
// CHECK: return %[[R]]
func.func @grouped(%x: tensor<1x2x2x4xi8>, %w: tensor<1x1x2x6xi8>, %b: tensor<6xi32>) -> tensor<1x2x2x6xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 1, 2, 3, 4, 5, 6>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64}
       : tensor<1x2x2x4xi8>, tensor<1x1x2x6xi8>, tensor<6xi32> -> tensor<1x2x2x6xi32>
  return %a : tensor<1x2x2x6xi32>
}
