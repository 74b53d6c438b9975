// qnt-x86-vnni gives no op outside its own dialect a memory-effect model:
// intrinsic calls written by someone else keep their unknown effects, so
// canonicalize and cse, scheduled after the pass, neither erase a dead one
// nor merge two identical ones. (With the former context-wide model a dead
// `llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"` counted as pure and
// was erased, and rdrand counted as a plain memory access.)
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s

// The whole pipeline cannot take them: upstream's buffer deallocation
// rejects an op of unknown memory effects, with a diagnostic. (The former
// model made it accept them by declaring a read and a write of any memory.)
// RUN: not quant-opt %s --qnt-to-llvm=target=x86_64 2>&1 | FileCheck %s --check-prefix=DEALLOC
// DEALLOC: error: ops with unknown memory side effects are not supported

// CHECK-LABEL: func.func @kernel_and_intrinsics
// CHECK: qnt_kernel.x86.vpdpbusd
// CHECK-NOT: qnt.int_matmul
// CHECK: llvm.call_intrinsic "llvm.x86.rdrand.32"
// CHECK: llvm.call_intrinsic "llvm.x86.rdrand.32"
// CHECK: llvm.call_intrinsic "llvm.x86.rdrand.32"
// CHECK: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// CHECK: return

func.func @kernel_and_intrinsics(%x: tensor<2x5xi8>, %v: vector<16xi32>, %u: vector<64xi8>)
    -> (tensor<2x3xi32>, i32) {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]> : tensor<5x3xi8>
  %b = arith.constant dense<[100, 200, 300]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x5xi8>, tensor<5x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  // Two identical random draws (both used) and a dead one.
  %r0 = llvm.call_intrinsic "llvm.x86.rdrand.32"() : () -> !llvm.struct<(i32, i32)>
  %r1 = llvm.call_intrinsic "llvm.x86.rdrand.32"() : () -> !llvm.struct<(i32, i32)>
  %r2 = llvm.call_intrinsic "llvm.x86.rdrand.32"() : () -> !llvm.struct<(i32, i32)>
  %e0 = llvm.extractvalue %r0[0] : !llvm.struct<(i32, i32)>
  %e1 = llvm.extractvalue %r1[0] : !llvm.struct<(i32, i32)>
  %s = arith.addi %e0, %e1 : i32
  // A dead call of the very intrinsic the kernels use, written by hand.
  %d = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%v, %u, %u) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
  return %a, %s : tensor<2x3xi32>, i32
}
