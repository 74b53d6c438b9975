// Lowering is idempotent: --qnt-to-llvm over its own output (VNNI kernels
// included, now plain llvm.call_intrinsic) changes nothing. Before the
// kernels had an op of their own this failed in buffer deallocation, which
// rejected llvm.call_intrinsic for want of a memory-effect model.
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 -o %t.once.mlir
// RUN: quant-opt %t.once.mlir --qnt-to-llvm=target=x86_64 -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s < %t.twice.mlir
// The same on the other targets (RISC-V's "target-abi" flag is not added
// twice).
// RUN: quant-opt %s --qnt-to-llvm=target=riscv64 -o %t.rv.once.mlir
// RUN: quant-opt %t.rv.once.mlir --qnt-to-llvm=target=riscv64 -o %t.rv.twice.mlir
// RUN: diff %t.rv.once.mlir %t.rv.twice.mlir
// RUN: FileCheck %s --check-prefix=ABI < %t.rv.twice.mlir
// ABI-COUNT-1: "target-abi"
// ABI-NOT: "target-abi"
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64 -o %t.arm.once.mlir
// RUN: quant-opt %t.arm.once.mlir --qnt-to-llvm=target=aarch64 -o %t.arm.twice.mlir
// RUN: diff %t.arm.once.mlir %t.arm.twice.mlir

// CHECK-LABEL: llvm.func @matmul
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK-NOT: qnt_kernel

func.func @matmul(%x: tensor<2x5xi8>) -> tensor<2x3xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]> : tensor<5x3xi8>
  %b = arith.constant dense<[100, 200, 300]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x5xi8>, tensor<5x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  return %a : tensor<2x3xi32>
}
