// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s

// s8 activations, 3x3 window, padding 1: an implicit GEMM. The pre-pass
// builds the padded, flipped image [1][5][5][4] (channels 2 -> 4): inside
// pixels copy x ^ 0x80 and zero the extra channels; border pixels hold
// pad_value flipped, -7 ^ 0x80 = 121. The bias folds -128 * sum(w) = -128 *
// 18. Rows are output pixels, three to a tile here (OW = 3); the reduction
// runs over kh, then (kw, c / 4).
// CHECK-LABEL: func.func @conv_pad
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x3x2xi8>)
// CHECK-DAG: %[[W:.*]] = arith.constant dense<"0x01010000010100000101{{0+}}01010000010100000101{{.*}}"> : tensor<576xi8>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[-2294, -2284, -2274, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0> : vector<2xi8>
// CHECK-DAG: %[[PAD:.*]] = arith.constant dense<121> : vector<4xi8>
// CHECK: %[[XP0:.*]] = tensor.empty() : tensor<1x5x5x4xi8>
// The batch loop of one step is gone (canonicalize).
// CHECK: scf.for %[[H:[^ ]*]] =
// CHECK:   scf.for %[[WI:[^ ]*]] =
// CHECK:       %[[INSIDE:.*]] = arith.andi
// CHECK:       scf.if %[[INSIDE]] -> (tensor<1x5x5x4xi8>) {
// CHECK:         vector.transfer_read %[[X]]{{.*}} : tensor<1x3x3x2xi8>, vector<2xi8>
// CHECK:         arith.xori %{{.*}}, %{{.*}} : vector<2xi8>
// CHECK:         vector.transfer_write {{.*}} : vector<2xi8>, tensor<1x5x5x4xi8>
// CHECK:         vector.transfer_write %[[Z]]{{.*}} : vector<2xi8>, tensor<1x5x5x4xi8>
// CHECK:       } else {
// CHECK:         vector.transfer_write %[[PAD]]{{.*}} : vector<4xi8>, tensor<1x5x5x4xi8>
// CHECK: %[[XF:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1, 2, 3]] : tensor<1x5x5x4xi8> into tensor<100xi8>
// CHECK: %[[OUT0:.*]] = tensor.empty() : tensor<9x3xi32>
// CHECK: %[[OUT:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[OUT0]]) -> (tensor<9x3xi32>)
// CHECK:   vector.transfer_read %[[B]]
// CHECK:   scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK:     scf.for {{.*}} -> (vector<16xi32>, vector<16xi32>, vector<16xi32>)
// CHECK:       vector.transfer_read %[[W]]
// CHECK:       vector.transfer_read %[[XF]]{{.*}} : tensor<100xi8>, vector<4xi8>
// CHECK:       qnt_kernel.x86.vpdpbusd
// CHECK:   vector.transfer_write {{.*}} : vector<3xi32>, tensor<9x3xi32>
// CHECK: %[[R:.*]] = tensor.expand_shape %[[OUT]] {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 3, 3] : tensor<9x3xi32> into tensor<1x3x3x3xi32>
// CHECK: return %[[R]]
func.func @conv_pad(%x: tensor<1x3x3x2xi8>) -> tensor<1x3x3x3xi32> {
  %w = arith.constant dense<1> : tensor<3x3x2x3xi8>
  %b = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = -7 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}
       : tensor<1x3x3x2xi8>, tensor<3x3x2x3xi8>, tensor<3xi32> -> tensor<1x3x3x3xi32>
  return %a : tensor<1x3x3x3xi32>
}

// -----

// A 1x1 conv on u8 activations with C a multiple of 4 and no padding reads
// the activations in place: it is a GEMM over the pixels.
// CHECK-LABEL: func.func @pointwise_in_place
// CHECK-SAME: (%[[X:.*]]: tensor<1x2x8x8xi8>)
// CHECK-NOT: arith.xori
// CHECK: %[[XF:.*]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1, 2, 3]] : tensor<1x2x8x8xi8> into tensor<128xi8>
// CHECK: qnt_kernel.x86.vpdpbusd
// CHECK: tensor.expand_shape {{.*}} : tensor<16x20xi32> into tensor<1x2x8x20xi32>
func.func @pointwise_in_place(%x: tensor<1x2x8x8xi8>) -> tensor<1x2x8x20xi32> {
  %w = arith.constant dense<-3> : tensor<1x1x8x20xi8>
  %b = arith.constant dense<7> : tensor<20xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64, x_unsigned}
       : tensor<1x2x8x8xi8>, tensor<1x1x8x20xi8>, tensor<20xi32> -> tensor<1x2x8x20xi32>
  return %a : tensor<1x2x8x20xi32>
}

// -----

// Groups: each group has its own packed weights ([group][tile][K/4][N0][4])
// and bias slice, and the pre-pass pads each group's channels (3 -> 4); a
// loop over the groups offsets activations by 4 bytes, weights by one
// group's block (5 filters padded to 16, 1 group of 4: 64 bytes) and output
// columns by 5.
// CHECK-LABEL: func.func @grouped
// CHECK-DAG: arith.constant {{.*}} : tensor<128xi8>
// CHECK-DAG: arith.constant dense<[1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<32xi32>
// CHECK: tensor.empty() : tensor<1x2x2x8xi8>
// CHECK: %[[G:.*]] = scf.for %[[GI:.*]] = %{{.*}} to %{{.*}} iter_args
// CHECK:   arith.muli %[[GI]], %{{.*}} : index
// CHECK: scf.for %[[GO:.*]] = %{{.*}} to %{{.*}} iter_args({{.*}}) -> (tensor<4x10xi32>)
// CHECK:   qnt_kernel.x86.vpdpbusd
func.func @grouped(%x: tensor<1x2x2x6xi8>) -> tensor<1x2x2x10xi32> {
  %w = arith.constant dense<0> : tensor<1x1x3x10xi8>
  %b = arith.constant dense<[1, 1, 1, 1, 1, 2, 2, 2, 2, 2]> : tensor<10xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64, x_unsigned}
       : tensor<1x2x2x6xi8>, tensor<1x1x3x10xi8>, tensor<10xi32> -> tensor<1x2x2x10xi32>
  return %a : tensor<1x2x2x10xi32>
}

// -----

// Run-time weights stay for qnt-to-linalg.
// CHECK-LABEL: func.func @runtime_weights
// CHECK: qnt.int_conv2d
// CHECK-NOT: qnt_kernel.x86.vpdpbusd
func.func @runtime_weights(%x: tensor<1x4x4x4xi8>, %w: tensor<3x3x4x8xi8>, %b: tensor<8xi32>) -> tensor<1x2x2x8xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x4x4x4xi8>, tensor<3x3x4x8xi8>, tensor<8xi32> -> tensor<1x2x2x8xi32>
  return %a : tensor<1x2x2x8xi32>
}
