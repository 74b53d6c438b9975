// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s
// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni{k-block=1},canonicalize,cse))" | FileCheck %s --check-prefix=KBLOCK

// The matmul's only user is a requantize along the columns: the kernel
// requantizes its accumulators in registers and stores i8 codes; no i32
// tensor is left. Per-channel tables hold N = 3 entries then 16 zeros, so
// that a vector of 16 lanes read from any column is in bounds.
// CHECK-LABEL: func.func @matmul_per_channel
// CHECK-SAME: -> tensor<2x3xi8>
// CHECK-DAG: %[[MULT:.*]] = arith.constant dense<[1073741824, 1610612736, 2147483647, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<19xi32>
// CHECK-DAG: %[[SHIFT:.*]] = arith.constant dense<[3, -1, 31, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<19xi32>
// CHECK-DAG: %[[ZOUT:.*]] = arith.constant dense<[-128, 0, 127, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<19xi32>
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<2x3xi8>
// CHECK: qnt_kernel.x86.vpdpbusd
// CHECK-DAG: vector.transfer_read %[[MULT]]{{.*}} : tensor<19xi32>, vector<16xi32>
// CHECK-DAG: vector.transfer_read %[[SHIFT]]{{.*}} : tensor<19xi32>, vector<16xi32>
// CHECK-DAG: vector.transfer_read %[[ZOUT]]{{.*}} : tensor<19xi32>, vector<16xi32>
// CHECK: arith.trunci %{{.*}} : vector<16xi{{32|64}}> to vector<16xi8>
// CHECK: vector.transfer_write %{{.*}}, %[[OUT]]{{.*}} : vector<3xi8>, tensor<2x3xi8>
// CHECK: vector.transfer_write %{{.*}} : vector<3xi8>, tensor<2x3xi8>
// CHECK-NOT: tensor<2x3xi32>
// CHECK-NOT: qnt.int_requantize
// CHECK: return
// KBLOCK-LABEL: func.func @matmul_per_channel
func.func @matmul_per_channel(%x: tensor<2x4xi8>) -> tensor<2x3xi8> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<[100, -200, 300]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %y = qnt.int_requantize %a {input_zero_points = array<i32: 0>,
         multipliers = array<i32: 1073741824, 1610612736, 2147483647>,
         shifts = array<i32: 3, -1, 31>, float_multipliers = array<f32: 0.0>,
         output_zero_points = array<i32: -128, 0, 127>, min = -128 : i32, max = 127 : i32,
         rounding = "double", axis = 1 : i64} : tensor<2x3xi32> -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// Conv (an implicit GEMM over 9 output pixels x 2 filters) with a per-tensor
// requantize in mode "float" to u8: splat parameters, f32 arithmetic in the
// epilogue, u8 codes stored in the [pixels][F] result, which is then viewed
// as NHWC.
// CHECK-LABEL: func.func @conv_float
// CHECK-DAG: %[[FM:.*]] = arith.constant dense<2.500000e-01> : vector<16xf32>
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<9x2xi8>
// CHECK: qnt_kernel.x86.vpdpbusd
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{.*}}, %[[FM]] : vector<16xf32>
// CHECK: vector.transfer_write %{{.*}} : vector<2xi8>, tensor<9x2xi8>
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0, 1, 2], [3]] output_shape [1, 3, 3, 2] : tensor<9x2xi8> into tensor<1x3x3x2xi8>
// CHECK-NOT: xi32>
// CHECK-NOT: qnt.int_requantize
// CHECK: return
func.func @conv_float(%x: tensor<1x3x3x4xi8>) -> tensor<1x3x3x2xi8> {
  %w = arith.constant dense<1> : tensor<3x3x4x2xi8>
  %b = arith.constant dense<[5, -5]> : tensor<2xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>,
         pad_value = 0 : i32, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
         padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}
       : tensor<1x3x3x4xi8>, tensor<3x3x4x2xi8>, tensor<2xi32> -> tensor<1x3x3x2xi32>
  %y = qnt.int_requantize %a {input_zero_points = array<i32: 0>, multipliers = array<i32: 0>,
         shifts = array<i32: 0>, float_multipliers = array<f32: 0.25>,
         output_zero_points = array<i32: 128>, min = 0 : i32, max = 255 : i32,
         rounding = "float", output_unsigned} : tensor<1x3x3x2xi32> -> tensor<1x3x3x2xi8>
  return %y : tensor<1x3x3x2xi8>
}

// -----

// The accumulator has a second user: the kernel stores i32 and the
// requantize stays for the generic lowering.
// CHECK-LABEL: func.func @two_users
// CHECK: qnt_kernel.x86.vpdpbusd
// CHECK: vector.transfer_write %{{.*}} : vector<3xi32>, tensor<2x3xi32>
// CHECK: qnt.int_requantize %{{.*}} : tensor<2x3xi32> -> tensor<2x3xi8>
func.func @two_users(%x: tensor<2x4xi8>) -> (tensor<2x3xi8>, tensor<2x3xi32>) {
  %w = arith.constant dense<2> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %y = qnt.int_requantize %a {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>,
         shifts = array<i32: 1>, float_multipliers = array<f32: 0.0>,
         output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "double"} : tensor<2x3xi32> -> tensor<2x3xi8>
  return %y, %a : tensor<2x3xi8>, tensor<2x3xi32>
}

// -----

// Per-channel parameters along the rows (axis 0) are not along the vectors:
// not fused.
// CHECK-LABEL: func.func @rows_axis
// CHECK: vector.transfer_write %{{.*}} : vector<3xi32>, tensor<2x3xi32>
// CHECK: qnt.int_requantize %{{.*}} {axis = 0 : i64
func.func @rows_axis(%x: tensor<2x4xi8>) -> tensor<2x3xi8> {
  %w = arith.constant dense<2> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %y = qnt.int_requantize %a {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824, 1073741824>,
         shifts = array<i32: 1, 2>, float_multipliers = array<f32: 0.0>,
         output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "double", axis = 0 : i64} : tensor<2x3xi32> -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// K blocked (k-block=1: one group of 4 per block, K = 12: three blocks): the
// first two accumulate i32 partial sums, the last one completes them and
// stores the codes (i16 here).
// KBLOCK-LABEL: func.func @k_blocks_fused
// KBLOCK: %[[PARTIAL:.*]] = scf.for
// KBLOCK:   vector.transfer_write %{{.*}} : vector<3xi32>, tensor<2x3xi32>
// KBLOCK: %[[OUT:.*]] = tensor.empty() : tensor<2x3xi16>
// KBLOCK: vector.transfer_read %[[PARTIAL]]{{.*}} : tensor<2x3xi32>, vector<3xi32>
// KBLOCK: qnt_kernel.x86.vpdpbusd
// KBLOCK: arith.trunci %{{.*}} : vector<16xi{{32|64}}> to vector<16xi16>
// KBLOCK: vector.transfer_write %{{.*}}, %[[OUT]]{{.*}} : vector<3xi16>, tensor<2x3xi16>
// KBLOCK-NOT: qnt.int_requantize
func.func @k_blocks_fused(%x: tensor<2x12xi8>) -> tensor<2x3xi16> {
  %w = arith.constant dense<3> : tensor<12x3xi8>
  %b = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x12xi8>, tensor<12x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %y = qnt.int_requantize %a {input_zero_points = array<i32: 7>, multipliers = array<i32: 1073741824>,
         shifts = array<i32: -2>, float_multipliers = array<f32: 0.0>,
         output_zero_points = array<i32: 0>, min = -32768 : i32, max = 32767 : i32,
         rounding = "half_even"} : tensor<2x3xi32> -> tensor<2x3xi16>
  return %y : tensor<2x3xi16>
}

// -----

// Few column tiles (N = 20: one tile of 2 vectors, 8-row register tiles)
// and 64 rows: the row tiles are the outer loop (8 iterations, enough for
// qnt-parallelize-tiles to split them in one region) and the column tile
// is inside it; 16 + 4 codes per row.
// CHECK-LABEL: func.func @rows_outside
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<64x20xi8>
// CHECK: %[[R:.*]] = scf.for %[[T:.*]] = %{{.*}} to %[[C8]] step %{{.*}} iter_args(%{{.*}} = %[[OUT]]) -> (tensor<64x20xi8>)
// CHECK-COUNT-16: qnt_kernel.x86.vpdpbusd
// CHECK: vector.transfer_write %{{.*}} : vector<16xi8>, tensor<64x20xi8>
// CHECK: vector.transfer_write %{{.*}} : vector<4xi8>, tensor<64x20xi8>
// CHECK: } {qnt.parallel_tiles}
// CHECK-NEXT: return %[[R]]
func.func @rows_outside(%x: tensor<64x8xi8>) -> tensor<64x20xi8> {
  %w = arith.constant dense<1> : tensor<8x20xi8>
  %b = arith.constant dense<0> : tensor<20xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<64x8xi8>, tensor<8x20xi8>, tensor<20xi32> -> tensor<64x20xi32>
  %y = qnt.int_requantize %a {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>,
         shifts = array<i32: 0>, float_multipliers = array<f32: 0.0>,
         output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "double"} : tensor<64x20xi32> -> tensor<64x20xi8>
  return %y : tensor<64x20xi8>
}
