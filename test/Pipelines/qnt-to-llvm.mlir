// The public ops, lowered by --qnt-to-llvm and run by upstream mlir-runner,
// reproduce the contract's worked examples.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

// Public functions get the C interface; the module records the target, with
// the data layout clang-22 uses for that triple.
// RUN: quant-opt %s --qnt-to-llvm | FileCheck %s --check-prefix=IR
// IR: module attributes {llvm.data_layout = "{{.+}}", llvm.target = #llvm.target<triple = "[[TRIPLE:[^"]+]]", chip = "{{[^"]+}}"{{(, features = <\[[^]]*\]>)?}}>, llvm.target_triple = "[[TRIPLE]]"}
// IR: llvm.func @seed_133(
// IR: llvm.func @_mlir_ciface_seed_133(
// IR-NOT: llvm.func @_mlir_ciface_printMemref
// IR-NOT: memrefCopy

// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" | FileCheck %s --check-prefix=X86
// X86: llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
// X86-SAME: llvm.target_triple = "x86_64-unknown-linux-gnu"
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64-amx" | FileCheck %s --check-prefix=X86AMX
// X86AMX: llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "sapphirerapids">
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64" | FileCheck %s --check-prefix=AARCH64
// AARCH64: llvm.data_layout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i8:8:32-i16:16:32-i64:64-i128:128-n32:64-S128-Fn32"
// AARCH64-SAME: llvm.target_triple = "aarch64-unknown-linux-gnu"
// RUN: quant-opt %s --qnt-to-llvm="target=riscv64" | FileCheck %s --check-prefix=RISCV64
// RISCV64: llvm.data_layout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
// RISCV64-SAME: llvm.target_triple = "riscv64-unknown-linux-gnu"

// RUN: not quant-opt %s --qnt-to-llvm="target=mips" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: qnt-to-llvm: unknown target 'mips'; expected host, x86_64, x86_64-amx, x86_64-avx2, aarch64, aarch64-dotprod, aarch64-neon or riscv64

!XU8 = !quant.uniform<u8:f32, 0.25:128>
!W05 = !quant.uniform<i8:f32, 0.5>
!A0125 = !quant.uniform<i32:f32, 0.125>

func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

// Input codes [130, 126] (u8, s = 0.25, z = 128) times weights [3, -2]
// (i8, s = 0.5, written in float): accumulator (2)(3) + (-2)(-2) = 10, i.e.
// 1.25 real, which is code 1.25 / 0.25 + 128 = 133 at (u8, s = 0.25, z = 128).
func.func @seed_133(%x: tensor<1x2x!XU8>) -> (tensor<1x1x!A0125>, tensor<1x1x!XU8>) {
  %wf = arith.constant dense<[[1.5], [-1.0]]> : tensor<2x1xf32>
  %w = qnt.quantize %wf : tensor<2x1xf32> -> tensor<2x1x!W05>
  %a = qnt.matmul %x, %w : tensor<1x2x!XU8>, tensor<2x1x!W05> -> tensor<1x1x!A0125>
  %y = qnt.requantize %a : tensor<1x1x!A0125> -> tensor<1x1x!XU8>
  return %a, %y : tensor<1x1x!A0125>, tensor<1x1x!XU8>
}

// The same layer from f32 to f32: [0.5, -0.5] quantizes to [130, 126] and
// the result 133 dequantizes to (133 - 128) * 0.25 = 1.25.
func.func @seed_float(%xf: tensor<1x2xf32>) -> tensor<1x1xf32> {
  %x = qnt.quantize %xf : tensor<1x2xf32> -> tensor<1x2x!XU8>
  %wf = arith.constant dense<[[1.5], [-1.0]]> : tensor<2x1xf32>
  %w = qnt.quantize %wf : tensor<2x1xf32> -> tensor<2x1x!W05>
  %a = qnt.matmul %x, %w : tensor<1x2x!XU8>, tensor<2x1x!W05> -> tensor<1x1x!A0125>
  %y = qnt.requantize %a : tensor<1x1x!A0125> -> tensor<1x1x!XU8>
  %r = qnt.dequantize %y : tensor<1x1x!XU8> -> tensor<1x1xf32>
  return %r : tensor<1x1xf32>
}

// The FC neuron: S_X = 0.05, Z_X = -10; q_W = [50, -30, 20] (0.5, -0.3, 0.2
// at 0.01); q_b = 540 (0.27 at 0.0005); q_X = [30, 10, 70]; S_Y = 0.1,
// Z_Y = -5. acc = 40 * 50 + 20 * (-30) + 80 * 20 + 540 = 3540; M = 0.005
// gives 17.7 -> 18, and 18 - 5 = 13.
!FX = !quant.uniform<i8:f32, 0.05:-10>
!FW = !quant.uniform<i8:f32, 0.01>
!FA = !quant.uniform<i32:f32, 0.0005>
!FY = !quant.uniform<i8:f32, 0.1:-5>
func.func @fc_neuron(%x: tensor<1x3x!FX>, %b: tensor<1x!FA>) -> (tensor<1x1x!FA>, tensor<1x1x!FY>) {
  %wf = arith.constant dense<[[0.5], [-0.3], [0.2]]> : tensor<3x1xf32>
  %w = qnt.quantize %wf : tensor<3x1xf32> -> tensor<3x1x!FW>
  %a = qnt.matmul %x, %w, %b : tensor<1x3x!FX>, tensor<3x1x!FW>, tensor<1x!FA> -> tensor<1x1x!FA>
  %y = qnt.requantize %a : tensor<1x1x!FA> -> tensor<1x1x!FY>
  return %a, %y : tensor<1x1x!FA>, tensor<1x1x!FY>
}

// 2x2 asymmetric matmul: X = [[3, 1], [4, 2]] (Z = 1) as the M x K operand,
// W = [[5, 1], [3, 6]] (Z = 2, written in float as W - 2):
// (3-1)(5-2) + (1-1)(3-2) = 6, (3-1)(1-2) + (1-1)(6-2) = -2,
// (4-1)(5-2) + (2-1)(3-2) = 10, (4-1)(1-2) + (2-1)(6-2) = 1.
!LX = !quant.uniform<u8:f32, 1.0:1>
!RW = !quant.uniform<u8:f32, 1.0:2>
!AA = !quant.uniform<i32:f32, 1.0>
func.func @asymmetric_2x2(%x: tensor<2x2x!LX>) -> tensor<2x2xi32> {
  %wf = arith.constant dense<[[3.0, -1.0], [1.0, 4.0]]> : tensor<2x2xf32>
  %w = qnt.quantize %wf : tensor<2x2xf32> -> tensor<2x2x!RW>
  %a = qnt.matmul %x, %w : tensor<2x2x!LX>, tensor<2x2x!RW> -> tensor<2x2x!AA>
  %ai = quant.scast %a : tensor<2x2x!AA> to tensor<2x2xi32>
  return %ai : tensor<2x2xi32>
}

func.func @main() {
  // u8 codes [130, 126] as i8 bits.
  %xi = arith.constant dense<[[-126, 126]]> : tensor<1x2xi8>
  %x = quant.scast %xi : tensor<1x2xi8> to tensor<1x2x!XU8>
  %a, %y = call @seed_133(%x) : (tensor<1x2x!XU8>) -> (tensor<1x1x!A0125>, tensor<1x1x!XU8>)
  %ai = quant.scast %a : tensor<1x1x!A0125> to tensor<1x1xi32>
  %am = bufferization.to_buffer %ai : tensor<1x1xi32> to memref<1x1xi32>
  %au = memref.cast %am : memref<1x1xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[10]]
  call @printMemrefI32(%au) : (memref<*xi32>) -> ()
  %yi = quant.scast %y : tensor<1x1x!XU8> to tensor<1x1xi8>
  %ym = bufferization.to_buffer %yi : tensor<1x1xi8> to memref<1x1xi8>
  %yu = memref.cast %ym : memref<1x1xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[133]]
  call @printMemrefU8(%yu) : (memref<*xi8>) -> ()

  %xf = arith.constant dense<[[0.5, -0.5]]> : tensor<1x2xf32>
  %r = call @seed_float(%xf) : (tensor<1x2xf32>) -> tensor<1x1xf32>
  %rm = bufferization.to_buffer %r : tensor<1x1xf32> to memref<1x1xf32>
  %ru = memref.cast %rm : memref<1x1xf32> to memref<*xf32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1.25]]
  call @printMemrefF32(%ru) : (memref<*xf32>) -> ()

  %fxi = arith.constant dense<[[30, 10, 70]]> : tensor<1x3xi8>
  %fx = quant.scast %fxi : tensor<1x3xi8> to tensor<1x3x!FX>
  %fbi = arith.constant dense<[540]> : tensor<1xi32>
  %fb = quant.scast %fbi : tensor<1xi32> to tensor<1x!FA>
  %fa, %fy = call @fc_neuron(%fx, %fb) : (tensor<1x3x!FX>, tensor<1x!FA>) -> (tensor<1x1x!FA>, tensor<1x1x!FY>)
  %fai = quant.scast %fa : tensor<1x1x!FA> to tensor<1x1xi32>
  %fam = bufferization.to_buffer %fai : tensor<1x1xi32> to memref<1x1xi32>
  %fau = memref.cast %fam : memref<1x1xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[3540]]
  call @printMemrefI32(%fau) : (memref<*xi32>) -> ()
  %fyi = quant.scast %fy : tensor<1x1x!FY> to tensor<1x1xi8>
  %fym = bufferization.to_buffer %fyi : tensor<1x1xi8> to memref<1x1xi8>
  %fyu = memref.cast %fym : memref<1x1xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[13]]
  call @printMemrefI8(%fyu) : (memref<*xi8>) -> ()

  %li = arith.constant dense<[[3, 1], [4, 2]]> : tensor<2x2xi8>
  %l = quant.scast %li : tensor<2x2xi8> to tensor<2x2x!LX>
  %s = call @asymmetric_2x2(%l) : (tensor<2x2x!LX>) -> tensor<2x2xi32>
  %sm = bufferization.to_buffer %s : tensor<2x2xi32> to memref<2x2xi32>
  %su = memref.cast %sm : memref<2x2xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[6, -2],
  // CHECK-NEXT: [10, 1]]
  call @printMemrefI32(%su) : (memref<*xi32>) -> ()
  return
}
