// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-arm-neon,canonicalize,cse))" | FileCheck %s

// s8 x s8 with i8mm (no llvm.target: the pass's claim). Per-column weight
// zero points {1, -1} fold into the weights: w' = {{0, 3}, {2, -3}}
// (k-major), packed [N/8][K/8][8][8]: lane 0 = column 0 = (0, 2, 0...),
// lane 1 = (3, -3, 0...), 6 zero lanes. The input zero point 3 becomes
// -3 * sum_k w' = (-6, 0) on the bias (10, 20), padded to 8 columns.
// CHECK-LABEL: func.func @s8_x_s8
// CHECK-DAG: arith.constant dense<[0, 2, 0, 0, 0, 0, 0, 0, 3, -3, 0{{(, 0)+}}]> : tensor<64xi8>
// CHECK-DAG: arith.constant dense<[4, 20, 0, 0, 0, 0, 0, 0]> : tensor<8xi32>
// Two rows: no full 12 x 8 tile, one remainder tile of 2 rows (not 12),
// one K step: the loops fold away.
// CHECK: %[[BV:.*]] = vector.transfer_read {{.*}} : tensor<8xi32>, vector<8xi32>
// CHECK: vector.shuffle %[[BV]], %[[BV]] [0, 1, 0, 1]
// CHECK: arm_neon.intr.smmla {{.*}} : vector<16xi8> to vector<4xi32>
// CHECK-NOT: arm_neon.intr.usmmla
// CHECK: tensor.extract_slice {{.*}} : tensor<2x8xi32> to tensor<2x2xi32>
func.func @s8_x_s8(%x: tensor<2x2xi8>) -> tensor<2x2xi32> {
  %w = arith.constant dense<[[1, 2], [3, -4]]> : tensor<2x2xi8>
  %b = arith.constant dense<[10, 20]> : tensor<2xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 3 : i32, weight_zero_points = array<i32: 1, -1>}
      : tensor<2x2xi8>, tensor<2x2xi8>, tensor<2xi32> -> tensor<2x2xi32>
  return %a : tensor<2x2xi32>
}

// -----

// u8 activations x s8 run-time weights: usmmla with the activations first;
// the weights are packed at run time (8 rows of 8 bytes concatenated, one
// transposing shuffle per K step).
// CHECK-LABEL: func.func @u8_x_s8_runtime
// CHECK: vector.shuffle {{.*}} : vector<32xi8>, vector<32xi8>
// CHECK: arm_neon.intr.usmmla
func.func @u8_x_s8_runtime(%x: tensor<3x16xi8>, %w: tensor<16x12xi8>, %b: tensor<12xi32>) -> tensor<3x12xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
      : tensor<3x16xi8>, tensor<16x12xi8>, tensor<12xi32> -> tensor<3x12xi32>
  return %a : tensor<3x12xi32>
}

// -----

// s8 activations x u8 weights: usmmla with the weights as the unsigned
// first operand (each accumulator holds the transposed 2 x 2 block), so the
// bias starts as (b0, b0, b1, b1) and rows are lanes (0, 2) / (1, 3).
// CHECK-LABEL: func.func @s8_x_u8_runtime
// CHECK: vector.shuffle %[[BV:.*]], %[[BV]] [0, 0, 1, 1] : vector<8xi32>, vector<8xi32>
// CHECK: arm_neon.intr.usmmla %{{.*}}, %[[WV:.*]], %[[AV:.*]] : vector<16xi8> to vector<4xi32>
// CHECK: vector.shuffle {{.*}} [0, 2, 4, 6] : vector<4xi32>, vector<4xi32>
// CHECK: vector.shuffle {{.*}} [1, 3, 5, 7] : vector<4xi32>, vector<4xi32>
func.func @s8_x_u8_runtime(%x: tensor<8x8xi8>, %w: tensor<8x12xi8>, %b: tensor<12xi32>) -> tensor<8x12xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, w_unsigned}
      : tensor<8x8xi8>, tensor<8x12xi8>, tensor<12xi32> -> tensor<8x12xi32>
  return %a : tensor<8x12xi32>
}

// -----

// M = 26 rows: two full 12-row tiles in the loop marked for the OpenMP
// pass, then one remainder tile of 2 rows; the packed activations hold
// 26 rows x K 8 = 208 bytes (a 12-row padding would make 36 x 8 = 288),
// and the result needs no row slice.
// CHECK-LABEL: func.func @remainder_tile
// CHECK: tensor.empty() : tensor<208xi8>
// CHECK: scf.for
// CHECK: } {qnt.parallel_tiles}
// CHECK: tensor.empty() : tensor<26x8xi32>
// CHECK: scf.for %{{.*}} = %c0 to %c2 step %c1
// CHECK-COUNT-24: arm_neon.intr.smmla
// CHECK: } {qnt.parallel_tiles}
// CHECK-COUNT-4: arm_neon.intr.smmla
// CHECK-NOT: arm_neon.intr.smmla
// CHECK-NOT: tensor.extract_slice
// CHECK: return
func.func @remainder_tile(%x: tensor<26x8xi8>, %w: tensor<8x8xi8>, %b: tensor<8xi32>) -> tensor<26x8xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
      : tensor<26x8xi8>, tensor<8x8xi8>, tensor<8xi32> -> tensor<26x8xi32>
  return %a : tensor<26x8xi32>
}
