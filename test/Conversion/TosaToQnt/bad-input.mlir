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

// -----

// The cases below were found by a hostile-input hunt; each failed with an
// internal message, miscompiled or ran for minutes.

// TOSA 1.0's RESCALE has no i48 output (upstream produced invalid IR).
func.func @rescale_to_i48(%x: tensor<4xi8>) -> tensor<4xi48> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<31> : tensor<1xi8>} : () -> tensor<1xi8>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %zo = "tosa.const"() {values = dense<0> : tensor<1xi48>} : () -> tensor<1xi48>
  // expected-error@+1 {{'tosa.rescale' op rescales 'i8' to 'i48'; TOSA 1.0's RESCALE takes i8, i16, i32 or i48 to i8, i16 or i32}}
  %y = tosa.rescale %x, %m, %s, %z8, %zo {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi48>) -> tensor<4xi48>
  return %y : tensor<4xi48>
}

// -----

// apply_scale requires 2 <= shift <= 62.
func.func @rescale_shift_63(%x: tensor<4xi32>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<63> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %z8 = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  // expected-error@+1 {{'tosa.rescale' op shift 63 is outside [2, 62], which TOSA's apply_scale requires}}
  %y = tosa.rescale %x, %m, %s, %z32, %z8 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// Upstream's lowering read a dense_resource multiplier as an empty tensor,
// out of bounds: garbage that changed from run to run.
func.func @rescale_resource_multiplier(%x: tensor<8xi32>) -> tensor<8xi8> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %m = "tosa.const"() {values = dense_resource<mult> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<35> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  // expected-error@+1 {{'tosa.rescale' op multiplier is a dense_resource constant, which the TOSA lowering cannot read; give it as dense<...>}}
  %y = tosa.rescale %x, %m, %s, %z32, %zp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<8xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<8xi8>
  return %y : tensor<8xi8>
}
{-#
  dialect_resources: {
    builtin: {
      mult: "0x0400000000000040"
    }
  }
#-}

// -----

// A dense_resource blob of the wrong size (8 bytes for four i32) is
// reported before upstream's passes read it (it failed only in
// quant-translate, "raw data size does not match element type size").
func.func @resource_blob_wrong_size(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error@+1 {{'tosa.const' op attribute 'values' is dense_resource<short_blob> of type 'tensor<4xi32>', whose blob holds 8 bytes instead of 4 x 4 (elements x bytes each)}}
  %w = "tosa.const"() <{values = dense_resource<short_blob> : tensor<4xi32>}> : () -> tensor<4xi32>
  %r = tosa.add %x, %w : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
{-#
  dialect_resources: {
    builtin: {
      short_blob: "0x040000000100000002000000"
    }
  }
#-}

// -----

func.func @unsigned_tensor(%x: tensor<4xui8>) -> tensor<4xui8> {
  // expected-error@+1 {{'tosa.clamp' op operand #0 has the unsigned element type 'ui8'; TOSA 1.0 integers are signless (RESCALE's input_unsigned / output_unsigned read them as unsigned)}}
  %y = tosa.clamp %x {min_val = 0 : ui8, max_val = 100 : ui8} : (tensor<4xui8>) -> tensor<4xui8>
  return %y : tensor<4xui8>
}

// -----

func.func @conv_runtime_zero_point(%x: tensor<1x4x4x1xi8>, %zp: tensor<1xi8>) -> tensor<1x4x4x1xi32> {
  %b = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %w = "tosa.const"() {values = dense<1> : tensor<1x1x1x1xi8>} : () -> tensor<1x1x1x1xi8>
  // expected-error@+1 {{'tosa.conv2d' op input_zp must be a constant (tosa.const or arith.constant); the TOSA pipeline folds zero points at compile time}}
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x1xi8>, tensor<1x1x1x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x4x4x1xi32>
  return %y : tensor<1x4x4x1xi32>
}

// -----

// A 2^40 x 1 window ran for minutes (the loops walk all of it); the guard
// of the average's exactness wrapped for 2^31 x 2^31.
func.func @pool_kernel_above_level(%x: tensor<1x1x1x1xi8>) -> tensor<1x1x1x1xi8> {
  // expected-error@+1 {{'tosa.max_pool2d' op kernel, stride or padding above 8192, TOSA 1.0's level 8K limit (MAX_KERNEL, MAX_STRIDE)}}
  %y = tosa.max_pool2d %x {kernel = array<i64: 1099511627776, 1>, stride = array<i64: 1, 1>, pad = array<i64: 1099511627775, 0, 0, 0>} : (tensor<1x1x1x1xi8>) -> tensor<1x1x1x1xi8>
  return %y : tensor<1x1x1x1xi8>
}

// -----

func.func @control_flow(%x: tensor<4xi8>, %p: tensor<i1>) -> tensor<4xi8> {
  // expected-error@+1 {{'tosa.cond_if' op is TOSA control flow, which the TOSA pipeline does not compile; use scf.if / scf.while around TOSA ops}}
  %r = tosa.cond_if %p (%a = %x) : tensor<i1> (tensor<4xi8>) -> tensor<4xi8> {
  ^bb0(%a: tensor<4xi8>):
    tosa.yield %a : tensor<4xi8>
  } else {
  ^bb0(%a: tensor<4xi8>):
    tosa.yield %a : tensor<4xi8>
  }
  return %r : tensor<4xi8>
}
