// Stock mlir-opt (LLVM 22) loads the qnt dialect from the plugin, parses a
// qnt module and prints it back; the plugin's passes load the same way.
// Stock mlir-opt is not instrumented and cannot load an ASan-built plugin.
// UNSUPPORTED: asan
// RUN: mlir-opt %s --load-dialect-plugin=%quant_opt_libs/QuantOptPlugin%shlibext | FileCheck %s
// RUN: mlir-opt %s --load-dialect-plugin=%quant_opt_libs/QuantOptPlugin%shlibext --load-pass-plugin=%quant_opt_libs/QuantOptPlugin%shlibext -canonicalize | FileCheck %s --check-prefix=FOLD
// RUN: not mlir-opt %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN

// CHECK-LABEL: func.func @fc
// CHECK: qnt.matmul %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x3x!quant.uniform<i8:f32, 5.000000e-02:-10>>, tensor<3x1x!quant.uniform<i8:f32, 1.000000e-02>>
// CHECK: qnt.requantize
// FOLD-LABEL: func.func @fc
// FOLD: qnt.constant dense<{{\[}}[50], [-30], [20]]> : tensor<3x1xi8>
// NOPLUGIN: Dialect `qnt' not found for custom op 'qnt.quantize'
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>
!Y = !quant.uniform<i8:f32, 0.1:-5>
func.func @fc(%x: tensor<1x3x!X>, %b: tensor<1x!A>) -> tensor<1x1x!Y> {
  %wf = arith.constant dense<[[0.5], [-0.3], [0.2]]> : tensor<3x1xf32>
  %w = qnt.quantize %wf : tensor<3x1xf32> -> tensor<3x1x!W>
  %a = qnt.matmul %x, %w, %b : tensor<1x3x!X>, tensor<3x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
  %y = qnt.requantize %a : tensor<1x1x!A> -> tensor<1x1x!Y>
  return %y : tensor<1x1x!Y>
}
