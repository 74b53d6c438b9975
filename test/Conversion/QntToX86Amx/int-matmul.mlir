// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(qnt-x86-amx,func.func(canonicalize,cse))" | FileCheck %s

// s8 x s8, hand-worked. w (K = 3, N = 2) = [[1, 2], [3, 4], [5, 6]] packs
// into one 16 x 64 B tile whose row 0 holds K group 0 column by column:
// (1, 3, 5, 0) for column 0, (2, 4, 6, 0) for column 1, zeros after; rows
// 1-15 are K padding (0). The input zero point 3 folds into the bias:
// 10 - 3 * (1 + 3 + 5) = -17 = 0xFFFFFFEF, 20 - 3 * (2 + 4 + 6) = -16, and
// every one of the 16 rows of the bias tile holds (-17, -16, 0, ...).
// The activations (2 x 3) are zero padded to one 16 x 64 A tile; the
// 16 x 16 result tile's 2 x 2 corner is the result. Neither operand is
// zero extended: tdpbssd.
// CHECK-LABEL: func.func @s8_x_s8_w
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xi8>)
// CHECK: %[[W:.*]] = arith.constant dense<"0x0103050002040600{{0+}}"> : tensor<16x64xi8>
// CHECK: %[[BIAS:.*]] = arith.constant dense<"0xEFFFFFFFF0FFFFFF{{0+}}EFFFFFFFF0FFFFFF{{0+}}EFFFFFFFF0FFFFFF
// CHECK-SAME: : tensor<16x16xi32>
// CHECK: %[[XP:.*]] = tensor.pad %[[X]] low[0, 0] high[14, 61]
// CHECK: %[[XB:.*]] = bufferization.to_buffer %[[XP]] read_only : tensor<16x64xi8> to memref<16x64xi8, strided<[?, 1], offset: ?>>
// CHECK: %[[WB:.*]] = bufferization.to_buffer %[[W]] read_only : tensor<16x64xi8> to memref<16x64xi8, strided<[?, 1], offset: ?>>
// CHECK: %[[BB:.*]] = bufferization.to_buffer %[[BIAS]] read_only
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x16xi32>
// CHECK: %[[C:.*]] = amx.tile_load %[[BB]][%[[C0:.*]], %[[C0]]] : memref<16x16xi32, strided<[?, 1], offset: ?>> into !amx.tile<16x16xi32>
// CHECK: %[[A:.*]] = amx.tile_load %[[XB]][%[[C0]], %[[C0]]] {{.*}} into !amx.tile<16x64xi8>
// CHECK: %[[B:.*]] = amx.tile_load %[[WB]][%[[C0]], %[[C0]]] {{.*}} into !amx.tile<16x64xi8>
// CHECK: %[[D:.*]] = amx.tile_muli %[[A]], %[[B]], %[[C]] : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK: amx.tile_store %[[OUT]][%[[C0]], %[[C0]]], %[[D]] : memref<16x16xi32>, !amx.tile<16x16xi32>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[OUT]] restrict writable : memref<16x16xi32> to tensor<16x16xi32>
// CHECK: %[[R:.*]] = tensor.extract_slice %[[T]][0, 0] [2, 2] [1, 1]
// CHECK: return %[[R]] : tensor<2x2xi32>
// CHECK-NOT: qnt.int_matmul
// CHECK: llvm.func internal @__qnt_amx_request_tile_data()
// CHECK-DAG: llvm.mlir.constant(158 : i64)
// CHECK-DAG: llvm.mlir.constant(4131 : i64)
// CHECK-DAG: llvm.mlir.constant(18 : i64)
// CHECK: llvm.inline_asm has_side_effects asm_dialect = att "syscall", "={rax},{rax},{rdi},{rsi},~{rcx},~{r11},~{memory}"
// CHECK: llvm.mlir.global_ctors ctors = [@__qnt_amx_request_tile_data], priorities = [101 : i32], data = [#llvm.zero]
func.func @s8_x_s8_w(%x: tensor<2x3xi8>) -> tensor<2x2xi32> {
  %w = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
  %b = arith.constant dense<[10, 20]> : tensor<2xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 3 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x3xi8>, tensor<3x2xi8>, tensor<2xi32> -> tensor<2x2xi32>
  return %a : tensor<2x2xi32>
}

// -----

// u8 activations times u8 weights above 127 (w - zw in [0, 255]): both
// operands zero extended (tdpbuud). M = 16 and K = 64 are whole tiles: the
// activations are tile-loaded in place. The run-time bias is padded to the
// 16 columns of the tile, the zero-point correction added
// (-zx * sum_k w' = -2 * 64 * 198 = -25344; -2 * 64 * 197 = -25216), and
// the row broadcast to the 16 rows of the bias tile.
// CHECK-LABEL: func.func @u8_x_u8_w
// CHECK-SAME: (%[[X:.*]]: tensor<16x64xi8>, %[[BIAS:.*]]: tensor<3xi32>)
// CHECK-DAG: %[[CORR:.*]] = arith.constant dense<[-25344, -25216, -25344, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK: %[[BP:.*]] = tensor.pad %[[BIAS]] low[0] high[13]
// CHECK: %[[BC:.*]] = arith.addi %[[BP]], %[[CORR]] : tensor<16xi32>
// CHECK: %[[ROWS:.*]] = linalg.broadcast ins(%[[BC]] : tensor<16xi32>) outs(%{{.*}} : tensor<16x16xi32>) dimensions = [0]
// CHECK-NOT: tensor.pad %[[X]]
// CHECK: %[[XB:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<16x64xi8> to memref<16x64xi8, strided<[?, 1], offset: ?>>
// CHECK: bufferization.to_buffer %[[ROWS]] read_only
// CHECK: amx.tile_load %[[XB]]
// CHECK: amx.tile_muli %{{.*}} zext, %{{.*}} zext, %{{.*}} : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [16, 3] [1, 1]
func.func @u8_x_u8_w(%x: tensor<16x64xi8>, %b: tensor<3xi32>) -> tensor<16x3xi32> {
  %w0 = arith.constant dense<-56> : tensor<64x3xi8>
  %a = qnt.int_matmul %x, %w0, %b {input_zero_point = 2 : i32, weight_zero_points = array<i32: 2, 3, 2>, x_unsigned, w_unsigned}
       : tensor<16x64xi8>, tensor<64x3xi8>, tensor<3xi32> -> tensor<16x3xi32>
  return %a : tensor<16x3xi32>
}

// -----

// s8 activations times u8 weights whose zero point 128 leaves w' in s8:
// tdpbssd. u8 activations times s8 weights: tdpbusd.
// CHECK-LABEL: func.func @s8_x_u8_zp128
// CHECK: amx.tile_muli %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} :
// CHECK-LABEL: func.func @u8_x_s8
// CHECK: amx.tile_muli %{{[0-9a-z_]+}} zext, %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} :
func.func @s8_x_u8_zp128(%x: tensor<4x8xi8>) -> tensor<4x8xi32> {
  %w = arith.constant dense<-1> : tensor<8x8xi8>
  %b = arith.constant dense<0> : tensor<8xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 128>, w_unsigned}
       : tensor<4x8xi8>, tensor<8x8xi8>, tensor<8xi32> -> tensor<4x8xi32>
  return %a : tensor<4x8xi32>
}
func.func @u8_x_s8(%x: tensor<4x8xi8>) -> tensor<4x8xi32> {
  %w = arith.constant dense<-7> : tensor<8x8xi8>
  %b = arith.constant dense<0> : tensor<8xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 255 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<4x8xi8>, tensor<8x8xi8>, tensor<8xi32> -> tensor<4x8xi32>
  return %a : tensor<4x8xi32>
}

// -----

// Blocking: 72 rows are 5 tile rows (two pairs in a loop, then a single
// row), 72 columns 5 tile columns (two pairs in a loop, then a single one):
// 2 x 2, 2 x 1, 1 x 2 and 1 x 1 blocks, the loops over tile pairs marked
// for the OpenMP pass. K = 200 is 4 K steps (unrolled), padded to 256.
// CHECK-LABEL: func.func @blocks
// CHECK: tensor.pad %{{.*}} low[0, 0] high[8, 56]
// CHECK: memref.alloc() {alignment = 64 : i64} : memref<80x80xi32>
// CHECK: scf.for
// CHECK:   scf.for
// CHECK-COUNT-16: amx.tile_muli
// CHECK:   } {qnt.parallel_tiles}
// CHECK-COUNT-8: amx.tile_muli
// CHECK: } {qnt.parallel_tiles}
// CHECK: scf.for
// CHECK-COUNT-8: amx.tile_muli
// CHECK: } {qnt.parallel_tiles}
// CHECK-COUNT-4: amx.tile_muli
// CHECK-NOT: amx.tile_muli
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [72, 72] [1, 1]
func.func @blocks(%x: tensor<72x200xi8>) -> tensor<72x72xi32> {
  %w = arith.constant dense<3> : tensor<200x72xi8>
  %b = arith.constant dense<0> : tensor<72xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<72x200xi8>, tensor<200x72xi8>, tensor<72xi32> -> tensor<72x72xi32>
  return %a : tensor<72x72xi32>
}

// -----

// A long K (56 steps): the first 16 steps start from the bias tile, then
// two loop iterations of 16 and a tail of 8 restart from the partial sums in
// the result buffer. Tile values never cross a block boundary.
// CHECK-LABEL: func.func @long_k
// CHECK: %[[OUT:.*]] = memref.alloc()
// CHECK: amx.tile_load %[[BIAS:[0-9a-z_]+]]
// CHECK-COUNT-16: amx.tile_muli
// CHECK: amx.tile_store %[[OUT]]
// CHECK: scf.for
// CHECK:   amx.tile_load %[[OUT]]
// CHECK-COUNT-16: amx.tile_muli
// CHECK:   amx.tile_store %[[OUT]]
// CHECK: }
// CHECK: amx.tile_load %[[OUT]]
// CHECK-COUNT-8: amx.tile_muli
// CHECK: amx.tile_store %[[OUT]]
func.func @long_k(%x: tensor<16x3584xi8>) -> tensor<16x16xi32> {
  %w = arith.constant dense<3> : tensor<3584x16xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<16x3584xi8>, tensor<3584x16xi8>, tensor<16xi32> -> tensor<16x16xi32>
  return %a : tensor<16x16xi32>
}

// -----

// Left alone: w - zw fits neither s8 nor u8 (-128 - 5, 127 - 5); a single
// row (GEMV: the VNNI kernel's, min-rows = 2); run-time weights with a
// weight zero point (qnt-symmetric-weights moves it out first); dynamic
// shapes. No permission request without a kernel.
// CHECK-LABEL: func.func @no_plan
// CHECK: qnt.int_matmul
// CHECK-LABEL: func.func @gemv
// CHECK: qnt.int_matmul
// CHECK-LABEL: func.func @runtime_weights
// CHECK: qnt.int_matmul
// CHECK-LABEL: func.func @dynamic
// CHECK: qnt.int_matmul
// CHECK-NOT: amx.
// CHECK-NOT: llvm.mlir.global_ctors
func.func @no_plan(%x: tensor<4x2xi8>) -> tensor<4x1xi32> {
  %w = arith.constant dense<[[-128], [127]]> : tensor<2x1xi8>
  %b = arith.constant dense<0> : tensor<1xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 5>}
       : tensor<4x2xi8>, tensor<2x1xi8>, tensor<1xi32> -> tensor<4x1xi32>
  return %a : tensor<4x1xi32>
}
func.func @gemv(%x: tensor<1x64xi8>) -> tensor<1x16xi32> {
  %w = arith.constant dense<1> : tensor<64x16xi8>
  %b = arith.constant dense<0> : tensor<16xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<1x64xi8>, tensor<64x16xi8>, tensor<16xi32> -> tensor<1x16xi32>
  return %a : tensor<1x16xi32>
}
func.func @runtime_weights(%x: tensor<4x8xi8>, %w: tensor<8x4xi8>) -> tensor<4x4xi32> {
  %b = arith.constant dense<0> : tensor<4xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 3>}
       : tensor<4x8xi8>, tensor<8x4xi8>, tensor<4xi32> -> tensor<4x4xi32>
  return %a : tensor<4x4xi32>
}
func.func @dynamic(%x: tensor<?x8xi8>) -> tensor<?x4xi32> {
  %w = arith.constant dense<1> : tensor<8x4xi8>
  %b = arith.constant dense<0> : tensor<4xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<?x8xi8>, tensor<8x4xi8>, tensor<4xi32> -> tensor<?x4xi32>
  return %a : tensor<?x4xi32>
}

// -----

// A requantize that is the matmul's only user is fused into the kernel's
// epilogue: after the block's C tile is stored, each row of 16 i32 is
// read back, rescaled (FixedPointBuilder on vectors) and stored as codes
// into a [16][16] i8 buffer, of which [2][3] is the result. The int32
// accumulator never leaves the kernel.
// CHECK-LABEL: func.func @fused
// CHECK: %[[ACC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x16xi32>
// CHECK: %[[CODES:.*]] = memref.alloc() {alignment = 64 : i64} : memref<16x16xi8>
// CHECK: amx.tile_muli
// CHECK: amx.tile_store %[[ACC]]
// CHECK: scf.for %[[R:.*]] = %c0 to %c16 step %c1 {
// CHECK:   %[[V:.*]] = vector.load %[[ACC]][%[[R]], %c0] : memref<16x16xi32>, vector<16xi32>
// CHECK:   arith.trunci %{{.*}} to vector<16xi8>
// CHECK:   vector.store %{{.*}}, %[[CODES]][%[[R]], %c0] : memref<16x16xi8>, vector<16xi8>
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[CODES]] restrict writable : memref<16x16xi8> to tensor<16x16xi8>
// CHECK: %[[RES:.*]] = tensor.extract_slice %[[T]][0, 0] [2, 3] [1, 1]
// CHECK-NOT: qnt.int_requantize
// CHECK: return %[[RES]] : tensor<2x3xi8>
func.func @fused(%x: tensor<2x8xi8>) -> tensor<2x3xi8> {
  %w = arith.constant dense<3> : tensor<8x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x8xi8>, tensor<8x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %y = qnt.int_requantize %a {float_multipliers = array<f32: 6.250000e-02>, input_zero_points = array<i32: 0>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 1073741824>, output_zero_points = array<i32: -3>, rounding = "double", shifts = array<i32: 3>}
       : tensor<2x3xi32> -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// Not fused when the accumulator has another user: the requantize stays.
// CHECK-LABEL: func.func @two_users
// CHECK: amx.tile_muli
// CHECK-NOT: vector.store
// CHECK: qnt.int_requantize
func.func @two_users(%x: tensor<2x8xi8>) -> (tensor<2x3xi8>, tensor<2x3xi32>) {
  %w = arith.constant dense<3> : tensor<8x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x8xi8>, tensor<8x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %y = qnt.int_requantize %a {float_multipliers = array<f32: 6.250000e-02>, input_zero_points = array<i32: 0>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 1073741824>, output_zero_points = array<i32: -3>, rounding = "double", shifts = array<i32: 3>}
       : tensor<2x3xi32> -> tensor<2x3xi8>
  return %y, %a : tensor<2x3xi8>, tensor<2x3xi32>
}

// -----

// Run-time weights (no zero point) are packed at run time by tensor ops
// into the constant path's B-tile layout: padded to [64][16], viewed as
// [KT = 1][16 rows][4 bytes][NT = 1][16 columns], transposed to
// [NT][KT][16][16][4] and flattened to [16][64]. The input zero point 5
// needs the column sums: b - 5 * sum_k w[k, n], reduced at run time (u8
// weights: zero extended), then padded and broadcast into the bias tile
// rows. u8 weights: tdpbsud.
// CHECK-LABEL: func.func @runtime_weights_u8
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xi8>, %[[W:.*]]: tensor<8x3xi8>, %[[B:.*]]: tensor<3xi32>)
// CHECK-DAG: %[[M5:.*]] = arith.constant dense<-5> : tensor<3xi32>
// CHECK: %[[WP:.*]] = tensor.pad %[[W]] low[0, 0] high[56, 13]
// CHECK: %[[SPLIT:.*]] = tensor.expand_shape %[[WP]] {{\[\[}}0, 1, 2], [3, 4]] output_shape [1, 16, 4, 1, 16] : tensor<64x16xi8> into tensor<1x16x4x1x16xi8>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[SPLIT]] : tensor<1x16x4x1x16xi8>) outs(%{{.*}} : tensor<1x1x16x16x4xi8>) permutation = [3, 0, 1, 4, 2]
// CHECK: %[[PACKED:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0, 1, 2], [3, 4]] : tensor<1x1x16x16x4xi8> into tensor<16x64xi8>
// CHECK: %[[SUMS:.*]] = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]} ins(%[[W]] : tensor<8x3xi8>)
// CHECK:   arith.extui %{{.*}} : i8 to i32
// CHECK: %[[SCALED:.*]] = arith.muli %[[SUMS]], %[[M5]] : tensor<3xi32>
// CHECK: %[[BC:.*]] = arith.addi %[[B]], %[[SCALED]] : tensor<3xi32>
// CHECK: tensor.pad %[[BC]] low[0] high[13]
// CHECK: linalg.broadcast
// CHECK: bufferization.to_buffer %[[PACKED]] read_only
// CHECK: amx.tile_muli %{{[0-9a-z_]+}}, %{{[0-9a-z_]+}} zext, %{{[0-9a-z_]+}} :
func.func @runtime_weights_u8(%x: tensor<4x8xi8>, %w: tensor<8x3xi8>, %b: tensor<3xi32>) -> tensor<4x3xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 5 : i32, weight_zero_points = array<i32: 0>, w_unsigned}
       : tensor<4x8xi8>, tensor<8x3xi8>, tensor<3xi32> -> tensor<4x3xi32>
  return %a : tensor<4x3xi32>
}
