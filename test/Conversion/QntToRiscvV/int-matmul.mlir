// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-riscv-v,canonicalize,cse))" | FileCheck %s
// RUN: sed 's/^module {/module attributes {llvm.target = #llvm.target<triple = "aarch64-unknown-linux-gnu", chip = "generic", features = <["+neon", "+i8mm"]>>} {/' %s \
// RUN:   | quant-opt --split-input-file --pass-pipeline="builtin.module(func.func(qnt-riscv-v))" | FileCheck %s --check-prefix=OTHER

// Constant weights with per-column zero points {1, -1}: stored as
// w' = w - zw in i16, {{0, 3}, {2, -3}}, plus the zero row the pipelined K
// loop reads last. The input zero point 3 is subtracted from each i16
// activation; no bias correction. Columns: scalable chunks of vscale x 16
// i32, the last one masked.
// CHECK-LABEL: func.func @s8_x_s8
// CHECK-DAG: arith.constant dense<{{\[}}[0, 3], [2, -3], [0, 0]]> : tensor<3x2xi16>
// CHECK-DAG: arith.constant 3 : i16
// CHECK: vector.vscale
// CHECK: vector.create_mask {{.*}} : vector<[16]xi1>
// CHECK: vector.transfer_read {{.*}} : tensor<3x2xi16>, vector<[16]xi16>
// CHECK: tensor.extract %{{.*}} : tensor<3x2xi8>
// CHECK: arith.extsi {{.*}} : i8 to i16
// CHECK: arith.subi
// CHECK: vector.broadcast {{.*}} : i16 to vector<[16]xi16>
// CHECK: arith.muli {{.*}} : vector<[16]xi32>
// CHECK: arith.addi {{.*}} : vector<[16]xi32>
// CHECK: vector.transfer_write {{.*}} : vector<[16]xi32>, tensor<3x2xi32>
// OTHER-NOT: vector.vscale
// OTHER: qnt.int_matmul
module {
func.func @s8_x_s8(%x: tensor<3x2xi8>) -> tensor<3x2xi32> {
  %w = arith.constant dense<[[1, 2], [3, -4]]> : tensor<2x2xi8>
  %b = arith.constant dense<[10, 20]> : tensor<2xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 3 : i32, weight_zero_points = array<i32: 1, -1>}
      : tensor<3x2xi8>, tensor<2x2xi8>, tensor<2xi32> -> tensor<3x2xi32>
  return %a : tensor<3x2xi32>
}
}

// -----

// u8 run-time weights: zero-extended to i16 by one elementwise pass (the
// u8 activations likewise, per scalar).
// CHECK-LABEL: func.func @u8_x_u8_runtime
// CHECK: arith.extui {{.*}} : tensor<4x5xi8> to tensor<4x5xi16>
// CHECK: linalg.fill
// CHECK: tensor.insert_slice {{.*}} into tensor<5x5xi16>
// CHECK: arith.extui {{.*}} : i8 to i16
module {
func.func @u8_x_u8_runtime(%x: tensor<2x4xi8>, %w: tensor<4x5xi8>, %b: tensor<5xi32>) -> tensor<2x5xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned, w_unsigned}
      : tensor<2x4xi8>, tensor<4x5xi8>, tensor<5xi32> -> tensor<2x5xi32>
  return %a : tensor<2x5xi32>
}
}
