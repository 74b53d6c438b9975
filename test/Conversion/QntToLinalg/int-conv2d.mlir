// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// u8 input: the padding holds pad_value (the original zero point 128) as a
// storage code, i.e. the i8 bits -128. Stride 2 x 1, dilation 1 x 2,
// padding [1, 0, 2, 1]: the padded input is 5 x 7, the output 2 x 3.
// CHECK-DAG: #[[$X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 * 2 + d5, d2 + d6 * 2, d3, d7)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d5, d6, d7, d3, d4)>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @padded_u8
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x3xi8>, %[[W:.*]]: tensor<3x3x3x2xi8>, %[[B:.*]]: tensor<2xi32>
// CHECK: %[[PADV:.*]] = arith.constant -128 : i8
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 1, 2, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %[[PADV]] : i8
// CHECK: } : tensor<1x4x4x3xi8> to tensor<1x5x7x3xi8>
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[PAD]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 5, 7, 1, 3]
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [3, 3, 3, 1, 2]
// CHECK: %[[BG:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0, 1]] output_shape [1, 2]
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<1x2x3x1x2xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%[[BG]] : tensor<1x2xi32>) outs(%[[INIT]] : tensor<1x2x3x1x2xi32>) dimensions = [0, 1, 2]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$X]], #[[$W]], #[[$OUT]]],
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
// CHECK-SAME: ins(%[[XG]], %[[WG]] : tensor<1x5x7x1x3xi8>, tensor<3x3x3x1x2xi8>) outs(%[[BIAS]] : tensor<1x2x3x1x2xi32>)
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK-NOT: arith.subi
// CHECK: arith.muli
// CHECK: arith.addi
// CHECK: %[[C:.*]] = tensor.collapse_shape %[[R]] {{\[\[}}0], [1], [2], [3, 4]] : tensor<1x2x3x1x2xi32> into tensor<1x2x3x2xi32>
// CHECK: return %[[C]]
func.func @padded_u8(%x: tensor<1x4x4x3xi8>, %w: tensor<3x3x3x2xi8>, %b: tensor<2xi32>) -> tensor<1x2x3x2xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 128 : i32,
         strides = array<i64: 2, 1>, dilations = array<i64: 1, 2>, padding = array<i64: 1, 0, 2, 1>, groups = 1 : i64, x_unsigned}
       : tensor<1x4x4x3xi8>, tensor<3x3x3x2xi8>, tensor<2xi32> -> tensor<1x2x3x2xi32>
  return %a : tensor<1x2x3x2xi32>
}

// -----

// Depthwise (groups == C == 4): one channel and one filter per group. The
// per-filter weight zero points are read at filter g * (F/G) + fg; without
// padding there is no tensor.pad.
// CHECK-DAG: #[[$X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1 + d5, d2 + d6, d3, d7)>
// CHECK-DAG: #[[$F:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3 + d4)>
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: tensor.pad
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 5, 5, 4, 1]
// CHECK: tensor.expand_shape %{{.*}} output_shape [3, 3, 1, 4, 1]
// CHECK: %[[ZW:.*]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK: linalg.generic {indexing_maps = [#[[$X]], #{{.*}}, #[[$F]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %{{.*}}, %[[ZW]] : tensor<1x5x5x4x1xi8>, tensor<3x3x1x4x1xi8>, tensor<4xi32>)
// CHECK: ^bb0(%[[XV:.*]]: i8, %[[WV:.*]]: i8, %[[ZWV:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK: %[[XE:.*]] = arith.extsi %[[XV]] : i8 to i32
// CHECK: %[[WE:.*]] = arith.extsi %[[WV]] : i8 to i32
// CHECK: %[[ZX:.*]] = arith.constant -3 : i32
// CHECK: %[[XS:.*]] = arith.subi %[[XE]], %[[ZX]] : i32
// CHECK: %[[WS:.*]] = arith.subi %[[WE]], %[[ZWV]] : i32
// CHECK: %[[P:.*]] = arith.muli %[[XS]], %[[WS]] : i32
// CHECK: arith.addi %[[ACC]], %[[P]] : i32
// CHECK: tensor.collapse_shape %{{.*}} : tensor<1x3x3x4x1xi32> into tensor<1x3x3x4xi32>
func.func @depthwise(%x: tensor<1x5x5x4xi8>, %w: tensor<3x3x1x4xi8>, %b: tensor<4xi32>) -> tensor<1x3x3x4xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = -3 : i32, weight_zero_points = array<i32: 1, 2, 3, 4>, pad_value = -3 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 4 : i64}
       : tensor<1x5x5x4xi8>, tensor<3x3x1x4xi8>, tensor<4xi32> -> tensor<1x3x3x4xi32>
  return %a : tensor<1x3x3x4xi32>
}

// -----

// Two groups of two channels and three filters each: filter f = 3 g + fg.
// CHECK-DAG: #[[$F:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d3 * 3 + d4)>
// CHECK-LABEL: func.func @grouped
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 3, 3, 2, 2] : tensor<1x3x3x4xi8> into tensor<1x3x3x2x2xi8>
// CHECK: tensor.expand_shape %{{.*}} output_shape [2, 2, 2, 2, 3] : tensor<2x2x2x6xi8> into tensor<2x2x2x2x3xi8>
// CHECK: tensor.expand_shape %{{.*}} output_shape [2, 3] : tensor<6xi32> into tensor<2x3xi32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #[[$F]], #{{.*}}]
// CHECK: tensor.collapse_shape %{{.*}} : tensor<1x2x2x2x3xi32> into tensor<1x2x2x6xi32>
func.func @grouped(%x: tensor<1x3x3x4xi8>, %w: tensor<2x2x2x6xi8>, %b: tensor<6xi32>) -> tensor<1x2x2x6xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0, 1, 0, 1, 0, 1>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64}
       : tensor<1x3x3x4xi8>, tensor<2x2x2x6xi8>, tensor<6xi32> -> tensor<1x2x2x6xi32>
  return %a : tensor<1x2x2x6xi32>
}
