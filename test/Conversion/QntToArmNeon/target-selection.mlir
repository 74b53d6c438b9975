// The kernels follow the module's llvm.target: sdot on a dotprod-only CPU,
// smull + saddlp on plain NEON, nothing without NEON or on another
// architecture.
// RUN: sed 's/TARGET/triple = "aarch64-unknown-linux-gnu", chip = "neoverse-n1", features = <["+neon", "+dotprod"]>/' %s \
// RUN:   | quant-opt --pass-pipeline="builtin.module(func.func(qnt-arm-neon,canonicalize,cse))" | FileCheck %s --check-prefix=DOT
// RUN: sed 's/TARGET/triple = "aarch64-unknown-linux-gnu", chip = "cortex-a57", features = <["+neon"]>/' %s \
// RUN:   | quant-opt --pass-pipeline="builtin.module(func.func(qnt-arm-neon,canonicalize,cse))" | FileCheck %s --check-prefix=NEON
// RUN: sed 's/TARGET/triple = "aarch64-unknown-linux-gnu", chip = "generic", features = <["-neon"]>/' %s \
// RUN:   | quant-opt --pass-pipeline="builtin.module(func.func(qnt-arm-neon))" | FileCheck %s --check-prefix=NONE
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4", features = <["+avx512vnni"]>/' %s \
// RUN:   | quant-opt --pass-pipeline="builtin.module(func.func(qnt-arm-neon))" | FileCheck %s --check-prefix=NONE

// u8 activations on sdot (s8 x s8): fed as x ^ 0x80, i.e. x = fed + 128,
// so the bias (10, 20) gains 128 * sum_k w = 128 * (4, -2) = (512, -256).
// Weights packed [N/8][K/4][8][4]: lane 0 = (1, 3, 0, 0), lane 1 =
// (2, -4, 0, 0), six zero lanes.
// DOT-LABEL: func.func @u8_x_s8
// DOT-DAG: arith.constant dense<[1, 3, 0, 0, 2, -4, 0{{(, 0)+}}]> : tensor<32xi8>
// DOT-DAG: arith.constant dense<[522, -236, 0, 0, 0, 0, 0, 0]> : tensor<8xi32>
// DOT-DAG: arith.constant dense<-128> : vector<4xi8>
// DOT: arith.xori
// DOT: arm_neon.intr.sdot
// DOT-NOT: smmla
// smull + saddlp: the same flip and bias; weights packed [N/4][K/16][4][16]:
// lane 0 = (1, 3, 0 x 14), lane 1 = (2, -4, 0 x 14), two zero lanes.
// NEON-LABEL: func.func @u8_x_s8
// NEON-DAG: arith.constant dense<[1, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, -4, 0{{(, 0)+}}]> : tensor<64xi8>
// NEON-DAG: arith.constant dense<[522, -236, 0, 0]> : tensor<4xi32>
// NEON-DAG: arith.constant dense<-128> : vector<16xi8>
// NEON: arith.xori
// NEON: arm_neon.intr.smull {{.*}} : vector<8xi8> to vector<8xi16>
// NEON: qnt_kernel.aarch64.saddlp {{.*}} : vector<8xi16> -> vector<4xi32>
// NEON-NOT: sdot
// NEON-NOT: mmla
// NONE-NOT: arm_neon
// NONE: qnt.int_matmul
module attributes {llvm.target = #llvm.target<TARGET>} {
func.func @u8_x_s8(%x: tensor<2x2xi8>) -> tensor<2x2xi32> {
  %w = arith.constant dense<[[1, 2], [3, -4]]> : tensor<2x2xi8>
  %b = arith.constant dense<[10, 20]> : tensor<2xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
      : tensor<2x2xi8>, tensor<2x2xi8>, tensor<2xi32> -> tensor<2x2xi32>
  return %a : tensor<2x2xi32>
}
}
