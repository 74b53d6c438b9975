// Strides and dilations of 2^62 are valid where they never move the window
// (one output position, one kernel tap): the lowerings must not multiply
// them into wrapped offsets. Compiled output and the reference model agree.
// RUN: %quant_ref_run %s | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd > %t.compiled
// RUN: FileCheck %s < %t.compiled
// RUN: %quant_ref_run %s > %t.reference
// RUN: %compare_outputs %t.reference %t.compiled
// The kernel rewrites of every target see the same op; they must compile
// it too (the AMX conv multiplied the stride by its padded tile width,
// found by qnt-parse-fuzzer under UBSan once it fuzzed every target).
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 -o /dev/null
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64-amx -o /dev/null
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64-avx2 -o /dev/null
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64 -o /dev/null
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64-dotprod -o /dev/null
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64-neon -o /dev/null
// RUN: quant-opt %s --qnt-to-llvm=target=riscv64 -o /dev/null

!X = !quant.uniform<u8:f32, 5.000000e-01:128>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

func.func private @printMemrefI32(memref<*xi32>)

// Only x[0, 0, 0, :] = [130, 120] is read: (130 - 128) * 2 + (120 - 128) * -1
// = 4 + 8 = 12.
func.func @far(%x: tensor<1x3x3x2x!X>) -> tensor<1x1x1x1x!A> {
  %w = qnt.constant dense<[[[[2], [-1]]]]> : tensor<1x1x2x1xi8> -> tensor<1x1x2x1x!W>
  %a = qnt.conv2d %x, %w {strides = array<i64: 4611686018427387904, 4611686018427387904>,
                          dilations = array<i64: 4611686018427387904, 4611686018427387904>}
       : tensor<1x3x3x2x!X>, tensor<1x1x2x1x!W> -> tensor<1x1x1x1x!A>
  return %a : tensor<1x1x1x1x!A>
}

func.func @main() {
  // u8 codes as i8 bits: 130 -> -126, 120 -> 120, the rest 200 -> -56.
  %xi = arith.constant dense<[[[[-126, 120], [-56, -56], [-56, -56]],
                               [[-56, -56], [-56, -56], [-56, -56]],
                               [[-56, -56], [-56, -56], [-56, -56]]]]> : tensor<1x3x3x2xi8>
  %x = quant.scast %xi : tensor<1x3x3x2xi8> to tensor<1x3x3x2x!X>
  %a = call @far(%x) : (tensor<1x3x3x2x!X>) -> tensor<1x1x1x1x!A>
  %ai = quant.scast %a : tensor<1x1x1x1x!A> to tensor<1x1x1x1xi32>
  %am = bufferization.to_buffer %ai : tensor<1x1x1x1xi32> to memref<1x1x1x1xi32>
  %au = memref.cast %am : memref<1x1x1x1xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[12]]]]
  call @printMemrefI32(%au) : (memref<*xi32>) -> ()
  return
}
