// Found by qnt-parse-fuzzer once it compiled for every target (out of
// memory on a seed from test/Dialect/Qnt/splat-constants.mlir): for
// aarch64, the i8mm/dotprod kernels padded this run-time bias of 10^9
// columns by building a 4 GB zero vector, and getConstantInts reserved
// 8 GB before it checked the splat limit. Each target must compile it in
// well under a second. The RUN lines pass with enough memory either way;
// the check that fails on a regression is the CI fuzz slice, which seeds
// qnt-parse-fuzzer with this file under a 4 GB RSS limit.
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64-amx" | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64-avx2" | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64" | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64-dotprod" | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64-neon" | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="target=riscv64" | FileCheck %s

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

// CHECK: llvm.func @huge_splat_bias
func.func @huge_splat_bias(%x: tensor<1x1x!X>, %w: tensor<1x1000000000x!W>) -> tensor<1x1000000000x!A> {
  %c = arith.constant dense<5> : tensor<1000000000xi32>
  %b = quant.scast %c : tensor<1000000000xi32> to tensor<1000000000x!A>
  %a = qnt.matmul %x, %w, %b : tensor<1x1x!X>, tensor<1x1000000000x!W>, tensor<1000000000x!A> -> tensor<1x1000000000x!A>
  return %a : tensor<1x1000000000x!A>
}

// Two rows, which the AMX kernel takes (its min-rows is 2): it built its
// 16 x N table of bias rows element by element, 64 GB here, and ran out of
// memory (found by a hunt running each kernel pass alone).
// CHECK: llvm.func @huge_splat_bias_two_rows
func.func @huge_splat_bias_two_rows(%x: tensor<2x1x!X>, %w: tensor<1x1000000000x!W>) -> tensor<2x1000000000x!A> {
  %c = arith.constant dense<5> : tensor<1000000000xi32>
  %b = quant.scast %c : tensor<1000000000xi32> to tensor<1000000000x!A>
  %a = qnt.matmul %x, %w, %b : tensor<2x1x!X>, tensor<1x1000000000x!W>, tensor<1000000000x!A> -> tensor<2x1000000000x!A>
  return %a : tensor<2x1000000000x!A>
}
