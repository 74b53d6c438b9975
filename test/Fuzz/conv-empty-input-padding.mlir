// Found by qnt-gen-fuzzer: a conv2d whose input has no elements (0 rows or
// 0 channels) but whose padding makes the output non-empty passed the
// verifier, then --qnt-to-llvm failed ("offset 1 is out-of-bounds: 1 >= 1"
// from memref.subview after bufferizing the tensor.pad). Every window then
// sees only padding, i.e. the input zero point, so each output is the bias
// (worked by hand: (z_x - z_x) * (w - z_w) = 0 for every tap).
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" > /dev/null
// The AArch64 and RISC-V kernels failed the same way (found again by
// qnt-gen-fuzzer once it fuzzed every target); they leave such convs to the
// generic lowering now.
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64-amx" > /dev/null
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64-avx2" > /dev/null
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64" > /dev/null
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64-dotprod" > /dev/null
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64-neon" > /dev/null
// RUN: quant-opt %s --qnt-to-llvm="target=riscv64" > /dev/null
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: %quant_ref_run %s | FileCheck %s

!X = !quant.uniform<u8:f32, 1.0:3>
!W = !quant.uniform<i8:f32, 1.0:2>
!A = !quant.uniform<i32:f32, 1.0>

func.func private @printMemrefI32(memref<*xi32>)

// No input rows: padding top 1 gives one output row.
func.func @no_rows(%x: tensor<1x0x2x1x!X>) -> tensor<1x1x2x1x!A> {
  %w = qnt.constant dense<5> : tensor<1x1x1x1xi8> -> tensor<1x1x1x1x!W>
  %b = qnt.constant dense<7> : tensor<1xi32> -> tensor<1x!A>
  %a = qnt.conv2d %x, %w, %b {padding = array<i64: 1, 0, 0, 0>}
       : tensor<1x0x2x1x!X>, tensor<1x1x1x1x!W>, tensor<1x!A> -> tensor<1x1x2x1x!A>
  return %a : tensor<1x1x2x1x!A>
}

// No input channels: the reduction is empty, padding rows 1 + 1.
func.func @no_channels(%x: tensor<1x1x1x0x!X>) -> tensor<1x3x1x2x!A> {
  %w = qnt.constant dense<5> : tensor<1x1x0x2xi8> -> tensor<1x1x0x2x!W>
  %b = qnt.constant dense<[-4, 9]> : tensor<2xi32> -> tensor<2x!A>
  %a = qnt.conv2d %x, %w, %b {padding = array<i64: 1, 1, 0, 0>}
       : tensor<1x1x1x0x!X>, tensor<1x1x0x2x!W>, tensor<2x!A> -> tensor<1x3x1x2x!A>
  return %a : tensor<1x3x1x2x!A>
}

func.func @main() {
  %r = arith.constant dense<> : tensor<1x0x2x1xi8>
  %rq = quant.scast %r : tensor<1x0x2x1xi8> to tensor<1x0x2x1x!X>
  %ra = call @no_rows(%rq) : (tensor<1x0x2x1x!X>) -> tensor<1x1x2x1x!A>
  %ri = quant.scast %ra : tensor<1x1x2x1x!A> to tensor<1x1x2x1xi32>
  %rm = bufferization.to_buffer %ri : tensor<1x1x2x1xi32> to memref<1x1x2x1xi32>
  %ru = memref.cast %rm : memref<1x1x2x1xi32> to memref<*xi32>
  call @printMemrefI32(%ru) : (memref<*xi32>) -> ()

  %c = arith.constant dense<> : tensor<1x1x1x0xi8>
  %cq = quant.scast %c : tensor<1x1x1x0xi8> to tensor<1x1x1x0x!X>
  %ca = call @no_channels(%cq) : (tensor<1x1x1x0x!X>) -> tensor<1x3x1x2x!A>
  %ci = quant.scast %ca : tensor<1x3x1x2x!A> to tensor<1x3x1x2xi32>
  %cm = bufferization.to_buffer %ci : tensor<1x3x1x2xi32> to memref<1x3x1x2xi32>
  %cu = memref.cast %cm : memref<1x3x1x2xi32> to memref<*xi32>
  call @printMemrefI32(%cu) : (memref<*xi32>) -> ()
  return
}

// CHECK: sizes = [1, 1, 2, 1]
// CHECK-NEXT: {{\[\[\[\[}}7],
// CHECK-NEXT: [7]]]]
// CHECK: sizes = [1, 3, 1, 2]
// CHECK-NEXT: {{\[\[\[\[}}-4, 9]],
// CHECK-NEXT: {{\[\[}}-4, 9]],
// CHECK-NEXT: {{\[\[}}-4, 9]]]]
