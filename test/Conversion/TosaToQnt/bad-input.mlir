// RUN: quant-opt %s --split-input-file --tosa-to-llvm -verify-diagnostics

// What the TOSA pipeline checks before tosa-to-qnt and upstream's lowering,
// which would crash on these (or, for the rescale, fuse an add chain that
// broadcasts): each is an error naming the rule.

func.func @unranked_clamp(%x: tensor<*xi8>) -> tensor<*xi8> {
  // expected-error@+1 {{'tosa.clamp' op operand #0 is unranked ('tensor<*xi8>'); the TOSA pipeline compiles ranked tensors only}}
  %y = tosa.clamp %x {min_val = 0 : i8, max_val = 5 : i8} : (tensor<*xi8>) -> tensor<*xi8>
  return %y : tensor<*xi8>
}

// -----

func.func @unranked_rescale(%a: tensor<*xi32>) -> tensor<*xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<31> : tensor<1xi8>} : () -> tensor<1xi8>
  %zi = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.rescale' op operand #0 is unranked}}
  %y = tosa.rescale %a, %m, %s, %zi, %z {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<*xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<*xi8>
  return %y : tensor<*xi8>
}

// -----

func.func @quantized_element_type(%x: tensor<1x3x3x2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<1x3x3x2x!quant.uniform<i8:f32, 0.5:3>> {
  // expected-error@+1 {{'tosa.clamp' op operand #0 has the quantized element type '!quant.uniform<i8:f32, 5.000000e-01:3>'; TOSA 1.0 tensors hold the storage integers (i8, i16, i32) and take their zero points as operands}}
  %y = tosa.clamp %x {min_val = 0 : i8, max_val = 5 : i8} : (tensor<1x3x3x2x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<1x3x3x2x!quant.uniform<i8:f32, 0.5:3>>
  return %y : tensor<1x3x3x2x!quant.uniform<i8:f32, 0.5:3>>
}

// -----

// The output rescale of a TFLite-style add chain maps 1x3 to 2x3: alone
// or fused, a rescale keeps its shape.
func.func @add_chain_output_shape(%a: tensor<1x3xi8>, %b: tensor<1x3xi8>) -> tensor<2x3xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<20> : tensor<1xi8>} : () -> tensor<1xi8>
  %so = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %z = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %ra = tosa.rescale %a, %m, %s, %z, %z32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x3xi32>
  %rb = tosa.rescale %b, %m, %s, %z, %z32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x3xi32>
  %t = tosa.add %ra, %rb : (tensor<1x3xi32>, tensor<1x3xi32>) -> tensor<1x3xi32>
  // expected-error@+1 {{'tosa.rescale' op result shape 'tensor<2x3xi8>' differs from the input's 'tensor<1x3xi32>'; TOSA's RESCALE keeps the shape}}
  %y = tosa.rescale %t, %m, %so, %z32, %z {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

func.func @double_round_scale16(%x: tensor<4xi32>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<100> : tensor<1xi16>} : () -> tensor<1xi16>
  %s = "tosa.const"() {values = dense<35> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.rescale' op DOUBLE_ROUND needs scale32 = true (an ERROR_IF of TOSA's RESCALE)}}
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = false, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi16>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}
