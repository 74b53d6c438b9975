// RUN: quant-opt %s | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s

// The three widths of vpdpbusd: 4 bytes per i32 lane.
// CHECK-LABEL: func.func @widths
// CHECK: qnt_kernel.x86.vpdpbusd %{{.*}}, %{{.*}}, %{{.*}} : vector<64xi8> -> vector<16xi32>
// CHECK: qnt_kernel.x86.vpdpbusd %{{.*}}, %{{.*}}, %{{.*}} : vector<32xi8> -> vector<8xi32>
// CHECK: qnt_kernel.x86.vpdpbusd %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi8> -> vector<4xi32>
func.func @widths(%a16: vector<16xi32>, %b64: vector<64xi8>, %a8: vector<8xi32>,
                  %b32: vector<32xi8>, %a4: vector<4xi32>, %b16: vector<16xi8>)
    -> (vector<16xi32>, vector<8xi32>, vector<4xi32>) {
  %0 = qnt_kernel.x86.vpdpbusd %a16, %b64, %b64 : vector<64xi8> -> vector<16xi32>
  %1 = qnt_kernel.x86.vpdpbusd %a8, %b32, %b32 : vector<32xi8> -> vector<8xi32>
  %2 = qnt_kernel.x86.vpdpbusd %a4, %b16, %b16 : vector<16xi8> -> vector<4xi32>
  return %0, %1, %2 : vector<16xi32>, vector<8xi32>, vector<4xi32>
}

// Pure: a dead one goes, two equal ones become one.
// RUN: quant-opt %s --canonicalize --cse | FileCheck %s --check-prefix=PURE
// PURE-LABEL: func.func @pure
// PURE-COUNT-1: qnt_kernel.x86.vpdpbusd
// PURE-NOT: qnt_kernel.x86.vpdpbusd
func.func @pure(%a: vector<16xi32>, %b: vector<64xi8>) -> (vector<16xi32>, vector<16xi32>) {
  %dead = qnt_kernel.x86.vpdpbusd %a, %b, %b : vector<64xi8> -> vector<16xi32>
  %0 = qnt_kernel.x86.vpdpbusd %a, %b, %b : vector<64xi8> -> vector<16xi32>
  %1 = qnt_kernel.x86.vpdpbusd %a, %b, %b : vector<64xi8> -> vector<16xi32>
  return %0, %1 : vector<16xi32>, vector<16xi32>
}

// Lowered by the x86vector patterns of convert-vector-to-llvm.
// RUN: quant-opt %s --convert-vector-to-llvm=enable-x86vector | FileCheck %s --check-prefix=LLVM
// LLVM-LABEL: func.func @widths
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"({{.*}}) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.256"({{.*}}) : (vector<8xi32>, vector<32xi8>, vector<32xi8>) -> vector<8xi32>
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.128"({{.*}}) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
// LLVM-NOT: qnt_kernel

// The 16-bit pair ops of the depthwise kernel: vpdpwssd (VNNI) and vpmaddwd
// (SSE2 / AVX2 / AVX-512 BW), two i16 per i32 lane.
// CHECK-LABEL: func.func @pairs
// CHECK: qnt_kernel.x86.vpdpwssd %{{.*}}, %{{.*}}, %{{.*}} : vector<32xi16> -> vector<16xi32>
// CHECK: qnt_kernel.x86.vpdpwssd %{{.*}}, %{{.*}}, %{{.*}} : vector<16xi16> -> vector<8xi32>
// CHECK: qnt_kernel.x86.vpmaddwd %{{.*}}, %{{.*}} : vector<32xi16> -> vector<16xi32>
// CHECK: qnt_kernel.x86.vpmaddwd %{{.*}}, %{{.*}} : vector<16xi16> -> vector<8xi32>
// CHECK: qnt_kernel.x86.vpmaddwd %{{.*}}, %{{.*}} : vector<8xi16> -> vector<4xi32>
// LLVM-LABEL: func.func @pairs
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpwssd.512"({{.*}}) : (vector<16xi32>, vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.vpdpwssd.256"({{.*}}) : (vector<8xi32>, vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// LLVM: llvm.call_intrinsic "llvm.x86.avx512.pmaddw.d.512"({{.*}}) : (vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// LLVM: llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"({{.*}}) : (vector<16xi16>, vector<16xi16>) -> vector<8xi32>
// LLVM: llvm.call_intrinsic "llvm.x86.sse2.pmadd.wd"({{.*}}) : (vector<8xi16>, vector<8xi16>) -> vector<4xi32>
func.func @pairs(%a16: vector<16xi32>, %h32: vector<32xi16>, %a8: vector<8xi32>,
                 %h16: vector<16xi16>, %h8: vector<8xi16>)
    -> (vector<16xi32>, vector<8xi32>, vector<16xi32>, vector<8xi32>, vector<4xi32>) {
  %0 = qnt_kernel.x86.vpdpwssd %a16, %h32, %h32 : vector<32xi16> -> vector<16xi32>
  %1 = qnt_kernel.x86.vpdpwssd %a8, %h16, %h16 : vector<16xi16> -> vector<8xi32>
  %2 = qnt_kernel.x86.vpmaddwd %h32, %h32 : vector<32xi16> -> vector<16xi32>
  %3 = qnt_kernel.x86.vpmaddwd %h16, %h16 : vector<16xi16> -> vector<8xi32>
  %4 = qnt_kernel.x86.vpmaddwd %h8, %h8 : vector<8xi16> -> vector<4xi32>
  return %0, %1, %2, %3, %4 : vector<16xi32>, vector<8xi32>, vector<16xi32>, vector<8xi32>, vector<4xi32>
}

// AArch64 saddlp: the i16 pairs of smull's products summed into i32 lanes.
// CHECK-LABEL: func.func @aarch64_pairs
// CHECK: qnt_kernel.aarch64.saddlp %{{.*}} : vector<8xi16> -> vector<4xi32>
// LLVM-LABEL: func.func @aarch64_pairs
// LLVM: llvm.call_intrinsic "llvm.aarch64.neon.saddlp.v4i32.v8i16"({{.*}}) : (vector<8xi16>) -> vector<4xi32>
// LLVM-NOT: qnt_kernel
func.func @aarch64_pairs(%p: vector<8xi16>) -> vector<4xi32> {
  %0 = qnt_kernel.aarch64.saddlp %p : vector<8xi16> -> vector<4xi32>
  return %0 : vector<4xi32>
}
