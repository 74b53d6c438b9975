// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// u8 input: the padding holds pad_value (the original zero point 128) as a
// storage code, i.e. the i8 bits -128. Stride 2 x 1, dilation 1 x 2,
// padding [1, 0, 2, 1]: the padded input is 5 x 7, the output 2 x 3.
// With a horizontal dilation, x is split into groups [N,H,W,G,C/G] and the
// filter is packed as [G][F/G][KH][KW][C/G]; a parallel linalg.generic over
// (n, oh, ow, g, fg) carries the sum through scf.for loops over (kh, kw, c),
// c innermost and contiguous in both operands.
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
// CHECK-LABEL: func.func @padded_u8
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x3xi8>, %[[W:.*]]: tensor<3x3x3x2xi8>, %[[B:.*]]: tensor<2xi32>
// CHECK: %[[PADV:.*]] = arith.constant -128 : i8
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 1, 2, 0] high[0, 0, 1, 0]
// CHECK: tensor.yield %[[PADV]] : i8
// CHECK: } : tensor<1x4x4x3xi8> to tensor<1x5x7x3xi8>
// CHECK: %[[XG:.*]] = tensor.expand_shape %[[PAD]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [1, 5, 7, 1, 3]
// CHECK: %[[WG:.*]] = tensor.expand_shape %[[W]] {{\[\[}}0], [1], [2], [3, 4]] output_shape [3, 3, 3, 1, 2]
// CHECK: %[[WINIT:.*]] = tensor.empty() : tensor<1x2x3x3x3xi8>
// CHECK: %[[WP:.*]] = linalg.transpose ins(%[[WG]] : tensor<3x3x3x1x2xi8>) outs(%[[WINIT]] : tensor<1x2x3x3x3xi8>) permutation = [3, 4, 0, 1, 2]
// CHECK: %[[BG:.*]] = tensor.expand_shape %[[B]] {{\[\[}}0, 1]] output_shape [1, 2]
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<1x2x3x1x2xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%[[BG]] : tensor<1x2xi32>) outs(%[[INIT]] : tensor<1x2x3x1x2xi32>) dimensions = [0, 1, 2]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$OUT]]],
// CHECK-SAME: iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: outs(%[[BIAS]] : tensor<1x2x3x1x2xi32>)
// CHECK: ^bb0(%[[ACC:.*]]: i32):
// CHECK: %[[N:.*]] = linalg.index 0 : index
// CHECK: %[[OH:.*]] = linalg.index 1 : index
// CHECK: %[[OW:.*]] = linalg.index 2 : index
// CHECK: %[[G:.*]] = linalg.index 3 : index
// CHECK: %[[FG:.*]] = linalg.index 4 : index
// CHECK: %[[KH_N:.*]] = arith.constant 3 : index
// CHECK: %[[KW_N:.*]] = arith.constant 3 : index
// CHECK: %[[C_N:.*]] = arith.constant 3 : index
// CHECK: scf.for %[[KH:.*]] = %{{.*}} to %[[KH_N]] step %{{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (i32) {
// CHECK: scf.for %[[KW:.*]] = %{{.*}} to %[[KW_N]] step %{{.*}} iter_args
// CHECK: scf.for %[[C:.*]] = %{{.*}} to %[[C_N]] step %{{.*}} iter_args
// CHECK: %[[S2:.*]] = arith.constant 2 : index
// CHECK: %[[OH2:.*]] = arith.muli %[[OH]], %[[S2]] : index
// CHECK: %[[IH:.*]] = arith.addi %[[OH2]], %[[KH]] : index
// CHECK: %[[D2:.*]] = arith.constant 2 : index
// CHECK: %[[KW2:.*]] = arith.muli %[[KW]], %[[D2]] : index
// CHECK: %[[IW:.*]] = arith.addi %[[OW]], %[[KW2]] : index
// CHECK: %[[XV:.*]] = tensor.extract %[[XG]][%[[N]], %[[IH]], %[[IW]], %[[G]], %[[C]]] : tensor<1x5x7x1x3xi8>
// CHECK: %[[WV:.*]] = tensor.extract %[[WP]][%[[G]], %[[FG]], %[[KH]], %[[KW]], %[[C]]] : tensor<1x2x3x3x3xi8>
// CHECK: arith.extui %[[XV]] : i8 to i32
// CHECK: arith.extsi %[[WV]] : i8 to i32
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
// CHECK-DAG: #[[$F:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3 + d4)>
// CHECK-LABEL: func.func @depthwise
// CHECK-NOT: tensor.pad
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 5, 5, 4, 1]
// CHECK: tensor.expand_shape %{{.*}} output_shape [3, 3, 1, 4, 1]
// CHECK: linalg.transpose {{.*}} outs(%{{.*}} : tensor<4x1x3x3x1xi8>) permutation = [3, 4, 0, 1, 2]
// CHECK: %[[ZW:.*]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK: linalg.generic {indexing_maps = [#[[$F]], #{{.*}}]
// CHECK-SAME: ins(%[[ZW]] : tensor<4xi32>)
// CHECK: ^bb0(%[[ZWV:.*]]: i32, %[[ACC:.*]]: i32):
// CHECK: %[[XV:.*]] = tensor.extract %{{.*}} : tensor<1x5x5x4x1xi8>
// CHECK: %[[WV:.*]] = tensor.extract %{{.*}} : tensor<4x1x3x3x1xi8>
// CHECK: %[[XE:.*]] = arith.extsi %[[XV]] : i8 to i32
// CHECK: %[[WE:.*]] = arith.extsi %[[WV]] : i8 to i32
// CHECK: %[[ZX:.*]] = arith.constant -3 : i32
// CHECK: %[[XS:.*]] = arith.subi %[[XE]], %[[ZX]] : i32
// CHECK: %[[WS:.*]] = arith.subi %[[WE]], %[[ZWV]] : i32
// CHECK: %[[P:.*]] = arith.muli %[[XS]], %[[WS]] : i32
// CHECK: arith.addi %{{.*}}, %[[P]] : i32
// CHECK: tensor.collapse_shape %{{.*}} : tensor<1x3x3x4x1xi32> into tensor<1x3x3x4xi32>
func.func @depthwise(%x: tensor<1x5x5x4xi8>, %w: tensor<3x3x1x4xi8>, %b: tensor<4xi32>) -> tensor<1x3x3x4xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = -3 : i32, weight_zero_points = array<i32: 1, 2, 3, 4>, pad_value = -3 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 4 : i64}
       : tensor<1x5x5x4xi8>, tensor<3x3x1x4xi8>, tensor<4xi32> -> tensor<1x3x3x4xi32>
  return %a : tensor<1x3x3x4xi32>
}

// -----

// Two groups of two channels and three filters each: filter f = 3 g + fg.
// CHECK-DAG: #[[$F:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d3 * 3 + d4)>
// CHECK-LABEL: func.func @grouped
// CHECK: tensor.expand_shape %{{.*}} output_shape [1, 3, 3, 2, 2] : tensor<1x3x3x4xi8> into tensor<1x3x3x2x2xi8>
// CHECK: tensor.expand_shape %{{.*}} output_shape [2, 2, 2, 2, 3] : tensor<2x2x2x6xi8> into tensor<2x2x2x2x3xi8>
// CHECK: linalg.transpose {{.*}} outs(%{{.*}} : tensor<2x3x2x2x2xi8>) permutation = [3, 4, 0, 1, 2]
// CHECK: tensor.expand_shape %{{.*}} output_shape [2, 3] : tensor<6xi32> into tensor<2x3xi32>
// CHECK: linalg.generic {indexing_maps = [#[[$F]], #{{.*}}]
// CHECK: tensor.collapse_shape %{{.*}} : tensor<1x2x2x2x3xi32> into tensor<1x2x2x6xi32>
func.func @grouped(%x: tensor<1x3x3x4xi8>, %w: tensor<2x2x2x6xi8>, %b: tensor<6xi32>) -> tensor<1x2x2x6xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0, 1, 0, 1, 0, 1>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64}
       : tensor<1x3x3x4xi8>, tensor<2x2x2x6xi8>, tensor<6xi32> -> tensor<1x2x2x6xi32>
  return %a : tensor<1x2x2x6xi32>
}

// -----

// One group and no horizontal dilation: a kernel row reads KW * C = 8
// consecutive codes of x (collapsed to [N][H][W * C]) and of the filter
// (packed as [F][KH][KW * C]), so the innermost loop runs over all 8, and,
// being long enough for dot products, carries the unroll hint. Stride 1 x 2,
// dilation 2 x 1, padding [1, 1, 0, 1]: the padded input is 6 x 5.
// CHECK-DAG: #[[$UNROLL:.*]] = #llvm.loop_unroll<count = 2 : i32>
// CHECK-DAG: #[[$ANN:.*]] = #llvm.loop_annotation<unroll = #[[$UNROLL]]>
// CHECK-DAG: #[[$OUT:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @row_contiguous
// CHECK-SAME: %[[X:.*]]: tensor<1x4x4x4xi8>, %[[W:.*]]: tensor<3x2x4x2xi8>, %[[B:.*]]: tensor<2xi32>
// CHECK: %[[PAD:.*]] = tensor.pad %[[X]] low[0, 1, 0, 0] high[0, 1, 1, 0]
// CHECK: } : tensor<1x4x4x4xi8> to tensor<1x6x5x4xi8>
// CHECK: %[[XR:.*]] = tensor.collapse_shape %[[PAD]] {{\[\[}}0], [1], [2, 3]] : tensor<1x6x5x4xi8> into tensor<1x6x20xi8>
// CHECK: %[[WINIT:.*]] = tensor.empty() : tensor<2x3x2x4xi8>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<3x2x4x2xi8>) outs(%[[WINIT]] : tensor<2x3x2x4xi8>) permutation = [3, 0, 1, 2]
// CHECK: %[[WP:.*]] = tensor.collapse_shape %[[WT]] {{\[\[}}0], [1], [2, 3]] : tensor<2x3x2x4xi8> into tensor<2x3x8xi8>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<1x2x2x2xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%[[B]] : tensor<2xi32>) outs(%[[INIT]] : tensor<1x2x2x2xi32>) dimensions = [0, 1, 2]
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$OUT]]], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
// CHECK-SAME: outs(%[[BIAS]] : tensor<1x2x2x2xi32>)
// CHECK: %[[N:.*]] = linalg.index 0 : index
// CHECK: %[[OH:.*]] = linalg.index 1 : index
// CHECK: %[[OW:.*]] = linalg.index 2 : index
// CHECK: %[[F:.*]] = linalg.index 3 : index
// CHECK: %[[KH_N:.*]] = arith.constant 3 : index
// CHECK: %[[J_N:.*]] = arith.constant 8 : index
// CHECK: scf.for %[[KH:.*]] = %{{.*}} to %[[KH_N]] step
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[J_N]] step
// CHECK: %[[D2:.*]] = arith.constant 2 : index
// CHECK: %[[KH2:.*]] = arith.muli %[[KH]], %[[D2]] : index
// CHECK: %[[IH:.*]] = arith.addi %[[OH]], %[[KH2]] : index
// CHECK: %[[SC:.*]] = arith.constant 8 : index
// CHECK: %[[OW8:.*]] = arith.muli %[[OW]], %[[SC]] : index
// CHECK: %[[IWC:.*]] = arith.addi %[[OW8]], %[[J]] : index
// CHECK: %[[XV:.*]] = tensor.extract %[[XR]][%[[N]], %[[IH]], %[[IWC]]] : tensor<1x6x20xi8>
// CHECK: %[[WV:.*]] = tensor.extract %[[WP]][%[[F]], %[[KH]], %[[J]]] : tensor<2x3x8xi8>
// CHECK: %[[XE:.*]] = arith.extsi %[[XV]] : i8 to i32
// CHECK-NEXT: %[[WE:.*]] = arith.extsi %[[WV]] : i8 to i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[XE]], %[[WE]] : i32
// CHECK-NEXT: %[[S:.*]] = arith.addi %{{.*}}, %[[P]] : i32
// CHECK-NEXT: scf.yield %[[S]] : i32
// CHECK-NEXT: } {loop_annotation = #[[$ANN]]}
// CHECK-NOT: tensor.collapse_shape
// CHECK: return %[[R]]
func.func @row_contiguous(%x: tensor<1x4x4x4xi8>, %w: tensor<3x2x4x2xi8>, %b: tensor<2xi32>) -> tensor<1x2x2x2xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 2>, dilations = array<i64: 2, 1>, padding = array<i64: 1, 1, 0, 1>, groups = 1 : i64}
       : tensor<1x4x4x4xi8>, tensor<3x2x4x2xi8>, tensor<2xi32> -> tensor<1x2x2x2xi32>
  return %a : tensor<1x2x2x2xi32>
}

// -----

// Constant filters are packed at compile time: w[kh][kw][c][f] becomes
// [f][kh][kw * C + c] for one group, [g][fg][kh][kw][c] for two.
// CHECK-LABEL: func.func @constant_filters
// CHECK-NOT: linalg.transpose
// CHECK-NOT: dense<{{\[\[\[\[}}1, 2]
// CHECK-NOT: dense<{{\[\[\[\[}}1, 2, 3, 4]
// CHECK: arith.constant dense<{{\[\[\[}}1, 3, 5, 7]], {{\[\[}}2, 4, 6, 8]]]> : tensor<2x1x4xi8>
// CHECK: arith.constant dense<{{\[\[\[\[\[}}1]]], {{\[\[\[}}2]]]], {{\[\[\[\[}}3]]], {{\[\[\[}}4]]]]]> : tensor<2x2x1x1x1xi8>
// CHECK-NOT: linalg.transpose
// CHECK: return
func.func @constant_filters(%x: tensor<1x2x2x2xi8>, %b: tensor<2xi32>, %b4: tensor<4xi32>) -> (tensor<1x2x1x2xi32>, tensor<1x2x2x4xi32>) {
  %w = arith.constant dense<[[[[1, 2], [3, 4]], [[5, 6], [7, 8]]]]> : tensor<1x2x2x2xi8>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x2x2x2xi8>, tensor<1x2x2x2xi8>, tensor<2xi32> -> tensor<1x2x1x2xi32>
  %wg = arith.constant dense<[[[[1, 2, 3, 4]]]]> : tensor<1x1x1x4xi8>
  %g = qnt.int_conv2d %x, %wg, %b4 {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64}
       : tensor<1x2x2x2xi8>, tensor<1x1x1x4xi8>, tensor<4xi32> -> tensor<1x2x2x4xi32>
  return %a, %g : tensor<1x2x1x2xi32>, tensor<1x2x2x4xi32>
}
