// A module already lowered for one target cannot be lowered again for
// another: its kernels' intrinsics (vpdpbusd here) would reach the other
// back end, which aborted instruction selection. Lowering it again for the
// same target changes nothing.
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 -o %t.x86.mlir
// RUN: not quant-opt %t.x86.mlir --qnt-to-llvm=target=aarch64 2>&1 | FileCheck %s
// RUN: quant-opt %t.x86.mlir --qnt-to-llvm=target=x86_64 -o %t.again.mlir
// RUN: diff %t.x86.mlir %t.again.mlir
// CHECK: error: qnt-to-llvm: the module holds code already lowered for #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4"
// CHECK-SAME: whose kernels cannot run on the requested target #llvm.target<triple = "aarch64-unknown-linux-gnu"
// CHECK-SAME: lower the original module for that target instead

!X = !quant.uniform<u8:f32, 0.5:3>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.25>
func.func @f(%x: tensor<4x64x!X>) -> tensor<4x64x!A> {
  %wc = arith.constant dense<3> : tensor<64x64xi8>
  %w = quant.scast %wc : tensor<64x64xi8> to tensor<64x64x!W>
  %a = qnt.matmul %x, %w : tensor<4x64x!X>, tensor<64x64x!W> -> tensor<4x64x!A>
  return %a : tensor<4x64x!A>
}
