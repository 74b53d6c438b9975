// The contractions with constant weights compile to 512-bit vpdpbusd for
// target=x86_64: broadcast 4 activation bytes (vpbroadcastd) and multiply
// them by 64 weight bytes into 16 i32 lanes. Each check must hit inside the
// function's own code (before the next symbol).
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 | mlir-translate --mlir-to-llvmir \
// RUN:   | llc -O3 -mtriple=x86_64-linux-gnu -mattr=+avx512vnni,+avx512bw -filetype=obj -o %t.o
// RUN: llvm-objdump -d %t.o | FileCheck %s

// CHECK-LABEL: <mm_s8>:
// CHECK-NOT: >:
// CHECK: vpbroadcastd {{.*}}%zmm
// CHECK-NOT: >:
// CHECK: vpdpbusd{{[[:space:]]+}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
func.func @mm_s8(%x: tensor<8x70x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<8x100x!quant.uniform<i32:f32, 0.125>> {
  %w = qnt.constant dense<5> : tensor<70x100xi8> -> tensor<70x100x!quant.uniform<i8:f32, 0.25>>
  %a = qnt.matmul %x, %w : tensor<8x70x!quant.uniform<i8:f32, 0.5:3>>, tensor<70x100x!quant.uniform<i8:f32, 0.25>> -> tensor<8x100x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<8x100x!quant.uniform<i32:f32, 0.125>>
}

// CHECK-LABEL: <conv3x3_u8>:
// CHECK-NOT: >:
// CHECK: vpdpbusd{{[[:space:]]+}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
func.func @conv3x3_u8(%x: tensor<1x9x9x16x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<1x9x9x64x!quant.uniform<i32:f32, 0.125>> {
  %w = qnt.constant dense<-2> : tensor<3x3x16x64xi8> -> tensor<3x3x16x64x!quant.uniform<i8:f32, 0.25>>
  %b = qnt.constant dense<100> : tensor<64xi32> -> tensor<64x!quant.uniform<i32:f32, 0.125>>
  %a = qnt.conv2d %x, %w, %b {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}
       : tensor<1x9x9x16x!quant.uniform<u8:f32, 0.5:128>>, tensor<3x3x16x64x!quant.uniform<i8:f32, 0.25>>, tensor<64x!quant.uniform<i32:f32, 0.125>> -> tensor<1x9x9x64x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<1x9x9x64x!quant.uniform<i32:f32, 0.125>>
}

// A matmul whose only user is a per-channel requantize: s8 activations with
// K = 64 are read in place and flipped in registers (vpxor on the broadcast
// bytes), and the requantize is the kernel's epilogue, its Q31 products
// formed in place (vpmuldq on the even and the odd lanes), never widened
// (no vpmovsxdq: the clamp stays in i32 lanes too); the codes are narrowed
// to bytes and stored.
// CHECK-LABEL: <mm_fused>:
// CHECK-NOT: >:
// CHECK: vpbroadcastd {{.*}}%zmm
// CHECK-NOT: >:
// CHECK: vpxor{{[dq]?}} {{.*}}%zmm
// CHECK-NOT: >:
// CHECK: vpdpbusd{{[[:space:]]+}}%zmm{{[0-9]+}}, %zmm{{[0-9]+}}, %zmm{{[0-9]+}}
// CHECK-NOT: {{>:|vpmovsxdq}}
// CHECK: vpmuldq {{.*}}%zmm
// CHECK-NOT: {{>:|vpmovsxdq|vpmovqd|vpmovsqb}}
// CHECK: vpmov{{s?}}db {{.*}}%zmm{{[0-9]+}}, {{%xmm|.*\(}}
func.func @mm_fused(%x: tensor<8x64x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<8x32x!quant.uniform<i8:f32, 0.7:-5>> {
  %w = qnt.constant dense<5> : tensor<64x32xi8> -> tensor<64x32x!quant.uniform<i8:f32:1, {0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.3}>>
  %a = qnt.matmul %x, %w : tensor<8x64x!quant.uniform<i8:f32, 0.5:3>>, tensor<64x32x!quant.uniform<i8:f32:1, {0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.5, 0.125, 0.25, 0.3}>> -> tensor<8x32x!quant.uniform<i32:f32:1, {0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.15}>>
  %y = qnt.requantize %a : tensor<8x32x!quant.uniform<i32:f32:1, {0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.25, 0.0625, 0.125, 0.15}>> -> tensor<8x32x!quant.uniform<i8:f32, 0.7:-5>>
  return %y : tensor<8x32x!quant.uniform<i8:f32, 0.7:-5>>
}
