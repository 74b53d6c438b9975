// A conv whose bias is one constant element (for all filters) and whose
// worst-case accumulator could leave i32 stays TOSA. The pattern used to
// broadcast the bias before that check and then fail, which made the
// greedy driver fail the pass with no message (exit 1, empty stderr).
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-qnt))" | FileCheck %s
// RUN: quant-opt %s --tosa-to-llvm -o /dev/null

// 3 x 3 x 4096 taps, zero points -128: 36864 * 255 * 255 > 2^31 - 1.
// CHECK-LABEL: func.func @wide_conv
// CHECK: tosa.conv2d
// CHECK-NOT: qnt.
func.func @wide_conv(%x: tensor<1x3x3x4096xi8>) -> tensor<1x1x1x2xi32> {
  %zp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %w = "tosa.const"() {values = dense<1> : tensor<2x3x3x4096xi8>} : () -> tensor<2x3x3x4096xi8>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4096xi8>, tensor<2x3x3x4096xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x2xi32>
  return %y : tensor<1x1x1x2xi32>
}
