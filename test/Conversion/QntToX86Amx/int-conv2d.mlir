// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(qnt-x86-amx,func.func(canonicalize,cse))" | FileCheck %s

// A 2x2 conv over 1x3x3x2 (stride 1, no padding, pad_value 1), hand-worked.
// With W dilation 1 the bytes one output pixel reads in a filter row are
// one contiguous run of KW * C = 4 bytes: K tile 0 is filter row 0, K tile
// 1 filter row 1. w (HWCF) = 1..8, so B tile (0, 0) row 0 holds
// w[0][0][0], w[0][0][1], w[0][1][0], w[0][1][1] = 1, 2, 3, 4 and B tile
// (0, 1) (packed row 16) 5, 6, 7, 8. Bias 100 - zx * sum(w) = 100 - 36 =
// 64 = 0x40. The 2 output pixels of a row are padded to 16 (one A tile per
// output row: tile rows 16 apart); the input is padded with pad_value to
// W = 15 + 2 = 17 columns for them, plus 2 rows of slack (64 bytes) for the
// K tile reading past its 4-byte run. An A tile row steps stride_w * C = 2
// bytes; output row 1 / filter row 1 start 17 * 2 = 34 bytes further.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x3x2xi8>)
// CHECK-DAG: %[[BIAS:.*]] = arith.constant dense<"0x40000000{{0+}}40000000
// CHECK-DAG: %[[W:.*]] = arith.constant dense<"0x01020304{{0+}}05060708{{0+}}"> : tensor<32x64xi8>
// CHECK-DAG: %[[PADV:.*]] = arith.constant 1 : i8
// CHECK: %[[XP:.*]] = tensor.pad %[[X]] low[0, 0, 0, 0] high[0, 2, 14, 0]
// CHECK:   tensor.yield %[[PADV]] : i8
// CHECK: } : tensor<1x3x3x2xi8> to tensor<1x5x17x2xi8>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[XP]] {{\[\[}}0, 1, 2, 3]] : tensor<1x5x17x2xi8> into tensor<170xi8>
// CHECK: %[[XB:.*]] = bufferization.to_buffer %[[FLAT]] read_only : tensor<170xi8> to memref<170xi8, strided<[1], offset: ?>>
// CHECK: %{{[^,]*}}, %[[OFF:[^,]*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[XB]]
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<32x16xi32>
// CHECK: %[[V0:.*]] = memref.reinterpret_cast %[[XB]] to offset: [%[[OFF]]], sizes: [16, 64], strides: [2, 1]
// CHECK: amx.tile_load %[[V0]]
// CHECK: %[[O34:.*]] = arith.addi %[[OFF]], %c34 : index
// CHECK: %[[V34:.*]] = memref.reinterpret_cast %[[XB]] to offset: [%[[O34]]], sizes: [16, 64], strides: [2, 1]
// CHECK: amx.tile_muli
// CHECK: amx.tile_muli
// CHECK: %[[O68:.*]] = arith.addi %[[OFF]], %c68 : index
// CHECK: memref.reinterpret_cast %[[XB]] to offset: [%[[O68]]], sizes: [16, 64], strides: [2, 1]
// CHECK: amx.tile_muli
// CHECK: amx.tile_muli
// CHECK: amx.tile_store %[[OUT]][%c0, %c0]
// CHECK: amx.tile_store %[[OUT]][%c16, %c0]
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK: %[[E:.*]] = tensor.expand_shape %[[T]] {{\[\[}}0, 1, 2], [3]] output_shape [1, 2, 16, 16]
// CHECK: %[[R:.*]] = tensor.extract_slice %[[E]][0, 0, 0, 0] [1, 2, 2, 1] [1, 1, 1, 1]
// CHECK: return %[[R]]
func.func @conv(%x: tensor<1x3x3x2xi8>) -> tensor<1x2x2x1xi32> {
  %w = arith.constant dense<[[[[1], [2]], [[3], [4]]], [[[5], [6]], [[7], [8]]]]> : tensor<2x2x2x1xi8>
  %b = arith.constant dense<100> : tensor<1xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 1 : i32, weight_zero_points = array<i32: 0>, pad_value = 1 : i32, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x3x3x2xi8>, tensor<2x2x2x1xi8>, tensor<1xi32> -> tensor<1x2x2x1xi32>
  return %a : tensor<1x2x2x1xi32>
}

// -----

// W dilation 2: the taps of a filter row are not adjacent, so each tap is
// its own run of C = 2 bytes (K tile = tap (kh, kw)): B tile rows 0, 16, 32,
// 48 start with (1, 2), (3, 4), (5, 6), (7, 8). Taps (0, 1) of output row 0
// start 2 pixels = 4 bytes in; the input is padded to
// (16 - 1) * 1 + (2 - 1) * 2 + 1 = 18 columns.
// CHECK-LABEL: func.func @dilated
// CHECK-DAG: arith.constant dense<"0x0102{{0+}}0304{{0+}}0506{{0+}}0708{{0+}}"> : tensor<64x64xi8>
// CHECK: tensor.pad %{{.*}} low[0, 0, 0, 0] high[0, 2, 14, 0]
// CHECK: } : tensor<1x3x4x2xi8> to tensor<1x5x18x2xi8>
// CHECK: %{{[^,]*}}, %[[OFF:[^,]*]], %{{.*}}, %{{.*}} = memref.extract_strided_metadata
// CHECK: memref.reinterpret_cast %{{.*}} to offset: [%[[OFF]]], sizes: [16, 64], strides: [2, 1]
// CHECK: arith.addi %[[OFF]], %c4 : index
func.func @dilated(%x: tensor<1x3x4x2xi8>) -> tensor<1x2x2x1xi32> {
  %w = arith.constant dense<[[[[1], [2]], [[3], [4]]], [[[5], [6]], [[7], [8]]]]> : tensor<2x2x2x1xi8>
  %b = arith.constant dense<0> : tensor<1xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32, strides = array<i64: 1, 1>, dilations = array<i64: 1, 2>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x3x4x2xi8>, tensor<2x2x2x1xi8>, tensor<1xi32> -> tensor<1x2x2x1xi32>
  return %a : tensor<1x2x2x1xi32>
}

// -----

// Grouped convs (and depthwise) stay with the VNNI kernels.
// CHECK-LABEL: func.func @grouped
// CHECK: qnt.int_conv2d
// CHECK-NOT: amx.
func.func @grouped(%x: tensor<1x4x4x4xi8>) -> tensor<1x2x2x4xi32> {
  %w = arith.constant dense<1> : tensor<3x3x2x4xi8>
  %b = arith.constant dense<0> : tensor<4xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64}
       : tensor<1x4x4x4xi8>, tensor<3x3x2x4xi8>, tensor<4xi32> -> tensor<1x2x2x4xi32>
  return %a : tensor<1x2x2x4xi32>
}
