// The VNNI microkernels follow the module's target, never the machine that
// compiles: target=x86_64 (x86-64-v4 + avx512vnni) gets vpdpbusd on any host;
// aarch64, riscv64 and an x86 target without VNNI do not.
// RUN: sed 's/ attributes {.*}//' %s | quant-opt --qnt-to-llvm=target=x86_64 | FileCheck %s --check-prefix=VNNI
// RUN: sed 's/ attributes {.*}//' %s | quant-opt --qnt-to-llvm=target=aarch64 | FileCheck %s --check-prefix=NOVNNI
// RUN: sed 's/ attributes {.*}//' %s | quant-opt --qnt-to-llvm=target=riscv64 | FileCheck %s --check-prefix=NOVNNI
// RUN: sed 's/ attributes {.*}//' %s | quant-opt --qnt-to-llvm=target=x86_64-avx2 | FileCheck %s --check-prefix=AVX2

// The pass reads `llvm.target` on the module: a target CPU that has VNNI by
// name (icelake-server) gets the kernels with no feature string; x86-64-v4
// alone (AVX-512 BW without VNNI) and x86-64-v3 (AVX2) get them with each
// vpdpbusd emulated by vpmaddwd (512 and 256 bits wide), alderlake
// (AVX-VNNI, no AVX-512) with the 256-bit vpdpbusd; plain x86-64 (SSE2) and
// aarch64 get none.
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "icelake-server"/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=PASS
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4", features = <["+avx512vnni"]>/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=PASS
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4"/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=ZMM
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v3"/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=YMM
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "alderlake"/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=AVXVNNI
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "x86-64"/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=SKIP
// RUN: sed 's/TARGET/triple = "x86_64-unknown-linux-gnu", chip = "icelake-server", features = <["-avx512vnni"]>/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=ZMM
// RUN: sed 's/TARGET/triple = "aarch64-unknown-linux-gnu", chip = "generic", features = <["+neon", "+dotprod", "+i8mm"]>/' %s | quant-opt --pass-pipeline="builtin.module(func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=SKIP

// VNNI-LABEL: llvm.func @matmul
// VNNI: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"
// AVX2-LABEL: llvm.func @matmul
// AVX2-NOT: vpdpbusd
// AVX2: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"
// AVX2-NOT: vpdpbusd
// NOVNNI-LABEL: llvm.func @matmul
// NOVNNI-NOT: vpdpbusd
// PASS-LABEL: func.func @matmul
// PASS-NOT: qnt.int_matmul
// PASS: vpdpbusd
// ZMM-LABEL: func.func @matmul
// ZMM-NOT: qnt.int_matmul
// ZMM-NOT: vpdpbusd
// ZMM: qnt_kernel.x86.vpmaddwd {{.*}} : vector<32xi16> -> vector<16xi32>
// ZMM-NOT: vpdpbusd
// YMM-LABEL: func.func @matmul
// YMM-NOT: qnt.int_matmul
// YMM-NOT: vpdpbusd
// YMM: qnt_kernel.x86.vpmaddwd {{.*}} : vector<16xi16> -> vector<8xi32>
// YMM-NOT: vpdpbusd
// AVXVNNI-LABEL: func.func @matmul
// AVXVNNI-NOT: qnt.int_matmul
// AVXVNNI-NOT: vpmaddwd
// AVXVNNI: qnt_kernel.x86.vpdpbusd {{.*}} : vector<32xi8> -> vector<8xi32>
// AVXVNNI-NOT: vpmaddwd
// SKIP-LABEL: func.func @matmul
// SKIP-NOT: vpdpbusd
// SKIP: qnt.int_matmul
// SKIP-NOT: vpdpbusd

module attributes {llvm.target = #llvm.target<TARGET>} {
func.func @matmul(%x: tensor<2x5xi8>) -> tensor<2x3xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]> : tensor<5x3xi8>
  %b = arith.constant dense<[100, 200, 300]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x5xi8>, tensor<5x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  return %a : tensor<2x3xi32>
}
}
