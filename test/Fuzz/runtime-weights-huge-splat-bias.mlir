// Found by qnt-parse-fuzzer (out of memory on a seed from
// test/Dialect/Qnt/splat-constants.mlir): with weights known only at run
// time, qnt-fold-zero-points built the N-entry zero bias as a vector, 4 GB
// for these 10^9 output channels. It is a splat now; the whole pipeline
// takes well under a second.
// RUN: quant-opt %s --qnt-fold-zero-points | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" > /dev/null

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

// CHECK-LABEL: func.func @huge_splat_bias
// CHECK: arith.constant dense<0> : tensor<1000000000xi32>
// CHECK: qnt.int_matmul
func.func @huge_splat_bias(%x: tensor<1x1x!X>, %w: tensor<1x1000000000x!W>) -> tensor<1x1000000000x!A> {
  %c = arith.constant dense<5> : tensor<1000000000xi32>
  %b = quant.scast %c : tensor<1000000000xi32> to tensor<1000000000x!A>
  %a = qnt.matmul %x, %w, %b : tensor<1x1x!X>, tensor<1x1000000000x!W>, tensor<1000000000x!A> -> tensor<1x1000000000x!A>
  return %a : tensor<1x1000000000x!A>
}
