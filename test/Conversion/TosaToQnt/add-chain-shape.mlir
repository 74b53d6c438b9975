// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(tosa-to-qnt))" -verify-diagnostics

// tosa-to-qnt alone (without the TOSA pipeline's input check,
// bad-input.mlir) does not fuse an add chain whose output rescale changes
// the shape into a broadcasting qnt.int_add: the rescale is converted
// alone, and the requantize's own rule rejects it.
func.func @add_chain_output_shape(%a: tensor<1x3xi8>, %b: tensor<1x3xi8>) -> tensor<2x3xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<20> : tensor<1xi8>} : () -> tensor<1xi8>
  %so = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %ra = tosa.rescale %a, %m, %s, %z, %z32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x3xi32>
  %rb = tosa.rescale %b, %m, %s, %z, %z32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x3xi32>
  %t = tosa.add %ra, %rb : (tensor<1x3xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  // expected-error@+1 {{'qnt.int_requantize' op result shape must equal the input shape}}
  %y = tosa.rescale %t, %m, %so, %z32, %z {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}
