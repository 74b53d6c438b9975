// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-qnt))" | FileCheck %s --check-prefix=CONVERTED
// RUN: quant-opt %s --tosa-to-llvm | %mlir_runner_cmd | FileCheck %s --check-prefix=OUT
// RUN: quant-opt %s --tosa-to-llvm="target=riscv64" | FileCheck %s --check-prefix=RV
// RUN: not quant-opt %s --tosa-to-llvm="target=vax" 2>&1 | FileCheck %s --check-prefix=BAD

// A mixed graph: float TOSA (cast in and out, abs) around a quantized conv
// and rescale. tosa-to-qnt takes the integer part; upstream's passes lower
// the float part in the same module.
// CONVERTED-LABEL: func.func @layer
// CONVERTED: tosa.cast %arg0 : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xi8>
// CONVERTED: qnt.conv2d
// CONVERTED: qnt.int_requantize
// CONVERTED: tosa.cast %{{.*}} : (tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xf32>
// CONVERTED: tosa.abs
func.func @layer(%x: tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32> {
  %q = tosa.cast %x : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xi8>
  %w = "tosa.const"() {values = dense<2> : tensor<1x1x1x1xi8>} : () -> tensor<1x1x1x1xi8>
  %b = "tosa.const"() {values = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %q, %w, %b, %zp, %zp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x2x2x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x1xi32>
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<31> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %y = tosa.rescale %acc, %m, %s, %z32, %zp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x2x2x1xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x1xi8>
  %f = tosa.cast %y : (tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xf32>
  %a = tosa.abs %f : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  return %a : tensor<1x2x2x1xf32>
}

// Codes 1, -2, 3, 4 times 2 plus 1: 3, -3, 7, 9; halved with ties up
// (SINGLE_ROUND): 2, -1, 4, 5; abs: 2, 1, 4, 5.
// OUT: data =
// OUT-NEXT: {{\[\[\[\[}}2],
// OUT-NEXT: [1]],
// OUT-NEXT: {{\[\[}}4],
// OUT-NEXT: [5]]]]
func.func @main() {
  %x = arith.constant dense<[[[[1.0], [-2.0]], [[3.0], [4.0]]]]> : tensor<1x2x2x1xf32>
  %y = call @layer(%x) : (tensor<1x2x2x1xf32>) -> tensor<1x2x2x1xf32>
  %u = tensor.cast %y : tensor<1x2x2x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(tensor<*xf32>)

// The target option is qnt-to-llvm's.
// RV: llvm.target_triple = "riscv64-unknown-linux-gnu"
// BAD: tosa-to-llvm: unknown target 'vax'
