// qnt-nontemporal-stores end to end: per-row dequantization (i8, i32 and
// 3-D ui8 codes) and quantization whose outputs are written by non-temporal
// vector stores (`nontemporal-min-bytes=1` makes every eligible op stream;
// by default only outputs beyond the host's last-level cache do). Every
// printed value must equal the reference model's (f32 as bits, NaN matches
// any NaN), and the hand-computed values below must hold.
// RUN: %quant_ref_run %s > %t.reference
// RUN: quant-opt %s --qnt-to-llvm="nontemporal-min-bytes=1" | %mlir_runner_cmd > %t.compiled
// RUN: FileCheck %s < %t.compiled
// RUN: %compare_outputs --f32-bits 0 --f32-bits 1 --f32-bits 2 %t.reference %t.compiled | FileCheck %s --check-prefix=AGREE
// AGREE: agreement: 272/272 printed values identical
//
// The four ops stream (and only with the option); x86 fences after them.
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 nontemporal-min-bytes=1" | FileCheck %s --check-prefix=X86
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64 nontemporal-min-bytes=1" | FileCheck %s --check-prefix=ARM
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" | FileCheck %s --check-prefix=OFF
// X86-LABEL: llvm.func @deq_rows(
// X86: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>
// X86: llvm.call_intrinsic "llvm.x86.sse.sfence"
// X86-LABEL: llvm.func @deq_i32(
// X86: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>
// X86: llvm.call_intrinsic "llvm.x86.sse.sfence"
// X86-LABEL: llvm.func @deq_u8_3d(
// X86: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>
// X86: llvm.call_intrinsic "llvm.x86.sse.sfence"
// X86-LABEL: llvm.func @q_rows(
// X86: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<64xi8>
// X86: llvm.call_intrinsic "llvm.x86.sse.sfence"
// ARM-LABEL: llvm.func @deq_rows(
// ARM: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>
// ARM-NOT: sfence
// OFF-NOT: nontemporal
// OFF-NOT: sfence

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefI32(memref<*xi32>)

// i8 codes, per-row scale and offset.
func.func @deq_rows(%src: tensor<2x32xi8>, %scale: tensor<2x1xf32>,
                    %offset: tensor<2x1xf32>) -> tensor<2x32xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<2x32xi8>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x32xf32>
  return %r : tensor<2x32xf32>
}

// i32 accumulators beyond 2^24, per-column scale, per-tensor offset.
func.func @deq_i32(%src: tensor<1x16xi32>, %scale: tensor<1x16xf32>,
                   %offset: tensor<1x1xf32>) -> tensor<1x16xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<1x16xi32>, tensor<1x16xf32>, tensor<1x1xf32> -> tensor<1x16xf32>
  return %r : tensor<1x16xf32>
}

// ui8 codes, 3-D, per-tensor scale and offset.
func.func @deq_u8_3d(%src: tensor<2x2x16xui8>, %scale: tensor<1x1x1xf32>,
                     %offset: tensor<1x1x1xf32>) -> tensor<2x2x16xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<2x2x16xui8>, tensor<1x1x1xf32>, tensor<1x1x1xf32> -> tensor<2x2x16xf32>
  return %r : tensor<2x2x16xf32>
}

// f32 -> i8 per row: ties, saturation, NaN and infinities.
func.func @q_rows(%x: tensor<2x64xf32>, %scale: tensor<2x1xf32>,
                  %offset: tensor<2x1xf32>) -> tensor<2x64xi8> {
  %q = qnt.quantize_dynamic %x, %scale, %offset
     : tensor<2x64xf32>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x64xi8>
  return %q : tensor<2x64xi8>
}

func.func @main() {
  %s1 = arith.constant dense<[[-128, 127, 0, 3, -128, 127, 0, 3, -128, 127, 0, 3, -128, 127, 0, 3, -128, 127, 0, 3, -128, 127, 0, 3, -128, 127, 0, 3, -128, 127, 0, 3], [0, 1, -1, 5, 0, 1, -1, 5, 0, 1, -1, 5, 0, 1, -1, 5, 0, 1, -1, 5, 0, 1, -1, 5, 0, 1, -1, 5, 0, 1, -1, 5]]> : tensor<2x32xi8>
  %c1 = arith.constant dense<[[0.5], [0x7F800000]]> : tensor<2x1xf32>
  %o1 = arith.constant dense<[[1.0], [0.0]]> : tensor<2x1xf32>
  %r1 = call @deq_rows(%s1, %c1, %o1) : (tensor<2x32xi8>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x32xf32>
  %b1 = arith.bitcast %r1 : tensor<2x32xf32> to tensor<2x32xi32>
  %m1 = bufferization.to_buffer %b1 : tensor<2x32xi32> to memref<2x32xi32>
  %u1 = memref.cast %m1 : memref<2x32xi32> to memref<*xi32>
  // (q - 1) * 0.5 for -128, 127, 0, 3: -64.5, 63, -0.5, 1; (q - 0) * inf
  // for 0, 1, -1, 5: NaN, inf, -inf, inf. As f32 bits:
  // CHECK: data =
  // CHECK-NEXT: {{\[\[}}-1031733248, 1115422720, -1090519040, 1065353216, -1031733248,
  // CHECK: {{\[}}{{-4194304|2143289344}}, 2139095040, -8388608, 2139095040, {{-4194304|2143289344}},
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()

  %s2 = arith.constant dense<[[16777217, 16777219, -2147483648, 2147483647, 16777217, 16777219, -2147483648, 2147483647, 16777217, 16777219, -2147483648, 2147483647, 16777217, 16777219, -2147483648, 2147483647]]> : tensor<1x16xi32>
  %c2 = arith.constant dense<1.0> : tensor<1x16xf32>
  %o2 = arith.constant dense<0.0> : tensor<1x1xf32>
  %r2 = call @deq_i32(%s2, %c2, %o2) : (tensor<1x16xi32>, tensor<1x16xf32>, tensor<1x1xf32>) -> tensor<1x16xf32>
  %b2 = arith.bitcast %r2 : tensor<1x16xf32> to tensor<1x16xi32>
  %m2 = bufferization.to_buffer %b2 : tensor<1x16xi32> to memref<1x16xi32>
  %u2 = memref.cast %m2 : memref<1x16xi32> to memref<*xi32>
  // f32(2^24 + 1) = 2^24 (tie to even), f32(2^24 + 3) = 2^24 + 4,
  // f32(-2^31) = -2^31, f32(2^31 - 1) = 2^31:
  // CHECK: data =
  // CHECK-NEXT: {{\[\[}}1266679808, 1266679810, -822083584, 1325400064,
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()

  %s3 = arith.constant dense<[[[11, 48, 85, 122, 159, 196, 233, 14, 51, 88, 125, 162, 199, 236, 17, 54], [91, 128, 165, 202, 239, 20, 57, 94, 131, 168, 205, 242, 23, 60, 97, 134]], [[171, 208, 245, 26, 63, 100, 137, 174, 211, 248, 29, 66, 103, 140, 177, 214], [251, 32, 69, 106, 143, 180, 217, 254, 35, 72, 109, 146, 183, 220, 1, 38]]]> : tensor<2x2x16xi8>
  %s3u = tensor.bitcast %s3 : tensor<2x2x16xi8> to tensor<2x2x16xui8>
  %c3 = arith.constant dense<0.25> : tensor<1x1x1xf32>
  %o3 = arith.constant dense<128.0> : tensor<1x1x1xf32>
  %r3 = call @deq_u8_3d(%s3u, %c3, %o3) : (tensor<2x2x16xui8>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<2x2x16xf32>
  %b3 = arith.bitcast %r3 : tensor<2x2x16xf32> to tensor<2x2x16xi32>
  %m3 = bufferization.to_buffer %b3 : tensor<2x2x16xi32> to memref<2x2x16xi32>
  %u3 = memref.cast %m3 : memref<2x2x16xi32> to memref<*xi32>
  // Codes 11, 48, 85 (unsigned): (11 - 128) / 4 = -29.25, -20, -10.75.
  // CHECK: data =
  // CHECK-NEXT: {{\[\[\[}}-1041629184, -1046478848, -1054081024,
  call @printMemrefI32(%u3) : (memref<*xi32>) -> ()

  %x4 = arith.constant dense<[[2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5, 2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5, 2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5, 2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5, 2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5, 2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5, 2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5, 2.5, 3.5, -2.5, 1000.0, -1000.0, 0.49999997, -0.5, 1.5], [0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5, 0x7FC00000, 0x7F800000, 0xFF800000, 0.0, -0.0, 126.5, 127.5, -128.5]]> : tensor<2x64xf32>
  %c4 = arith.constant dense<[[1.0], [1.0]]> : tensor<2x1xf32>
  %o4 = arith.constant dense<[[0.0], [-1.0]]> : tensor<2x1xf32>
  %r4 = call @q_rows(%x4, %c4, %o4) : (tensor<2x64xf32>, tensor<2x1xf32>, tensor<2x1xf32>) -> tensor<2x64xi8>
  %m4 = bufferization.to_buffer %r4 : tensor<2x64xi8> to memref<2x64xi8>
  %u4 = memref.cast %m4 : memref<2x64xi8> to memref<*xi8>
  // Row 0, offset 0: ties to even 2.5 -> 2, 3.5 -> 4, -2.5 -> -2;
  // saturation 1000 -> 127, -1000 -> -128; 0.49999997 -> 0, -0.5 -> -0
  // -> 0, 1.5 -> 2. Row 1, offset -1: inf -> 127, -inf -> -128, 0 and -0
  // -> -1, 126.5 -> 126 - 1 = 125, 127.5 -> 128 - 1 = 127,
  // -128.5 -> -128 - 1 -> -128 (saturated).
  // CHECK: data =
  // CHECK-NEXT: {{\[\[}}2, 4, -2, 127, -128, 0, 0, 2, 2,
  // CHECK: {{\[}}{{-?[0-9]+}}, 127, -128, -1, -1, 125, 127, -128, {{-?[0-9]+}},
  call @printMemrefI8(%u4) : (memref<*xi8>) -> ()
  return
}
