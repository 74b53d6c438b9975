// The internal integer ops are parseable, so their verifiers guard what
// every lowering relies on (found by a hostile-input review: each of these
// compiled, and the codes wrapped or the conv wrote a wrong window).
// RUN: quant-opt %s -split-input-file -verify-diagnostics

// A clamp outside the result's 8 bits: 500 would have become -12.
func.func @requantize_clamp_wraps(%c: tensor<6xi32>) -> tensor<6xi8> {
  // expected-error@+1 {{'qnt.int_requantize' op 'min' and 'max' [-1000, 1000] must lie in the range of the 8-bit result codes, [-128, 127] or [0, 255]}}
  %y = qnt.int_requantize %c {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: -1>, float_multipliers = array<f32: 1.0>, output_zero_points = array<i32: 0>, min = -1000 : i32, max = 1000 : i32, rounding = "double"} : tensor<6xi32> -> tensor<6xi8>
  return %y : tensor<6xi8>
}

// -----

// Signed and unsigned halves mixed: [-1, 255] is neither i8 nor u8.
func.func @requantize_clamp_mixed(%c: tensor<6xi32>) -> tensor<6xi8> {
  // expected-error@+1 {{'qnt.int_requantize' op 'min' and 'max' [-1, 255] must lie in the range of the 8-bit result codes, [-128, 127] or [0, 255]}}
  %y = qnt.int_requantize %c {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: -1>, float_multipliers = array<f32: 1.0>, output_zero_points = array<i32: 0>, min = -1 : i32, max = 255 : i32, rounding = "double"} : tensor<6xi32> -> tensor<6xi8>
  return %y : tensor<6xi8>
}

// -----

func.func @quantize_clamp_wraps(%x: tensor<4xf32>) -> tensor<4xi16> {
  // expected-error@+1 {{'qnt.int_quantize' op 'min' and 'max' [-32768, 65536] must lie in the range of the 16-bit result codes, [-32768, 32767] or [0, 65535]}}
  %y = qnt.int_quantize %x {scales = array<f32: 1.0>, zero_points = array<i32: 0>, min = -32768 : i32, max = 65536 : i32} : tensor<4xf32> -> tensor<4xi16>
  return %y : tensor<4xi16>
}

// -----

func.func @add_clamp_wraps(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{'qnt.int_add' op 'min' and 'max' [-100000, 100000] must lie in the range of the 8-bit result codes, [-128, 127] or [0, 255]}}
  %y = qnt.int_add %a, %a {a_zero_point = 0 : i32, b_zero_point = 0 : i32, output_zero_point = 0 : i32, left_shift = 0 : i32, a_multiplier = 1073741824 : i32, a_shift = -1 : i32, b_multiplier = 1073741824 : i32, b_shift = -1 : i32, output_multiplier = 1073741824 : i32, output_shift = -1 : i32, a_float_multiplier = 1.0 : f32, b_float_multiplier = 1.0 : f32, min = -100000 : i32, max = 100000 : i32, rounding = "double"} : tensor<4xi8>, tensor<4xi8> -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// A 4x4 input through a 1x1 kernel cannot give 9x9 outputs.
func.func @conv_result_not_the_window(%x: tensor<1x4x4x64xi8>, %b: tensor<64xi32>) -> tensor<1x9x9x64xi32> {
  %w = arith.constant dense<1> : tensor<1x1x64x64xi8>
  // expected-error@+1 {{'qnt.int_conv2d' op result dimension 1 must be the output size of the window over input 4 (padding 0 + 0, kernel 1, stride 1, dilation 1), got 9}}
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<1x4x4x64xi8>, tensor<1x1x64x64xi8>, tensor<64xi32> -> tensor<1x9x9x64xi32>
  return %a : tensor<1x9x9x64xi32>
}

// -----

func.func @conv_zero_stride(%x: tensor<1x4x4x64xi8>, %b: tensor<64xi32>) -> tensor<1x4x4x64xi32> {
  %w = arith.constant dense<1> : tensor<1x1x64x64xi8>
  // expected-error@+1 {{'qnt.int_conv2d' op result dimension 1 must be the output size of the window over input 4 (padding 0 + 0, kernel 1, stride 0, dilation 1), got 4}}
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32, strides = array<i64: 0, 0>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<1x4x4x64xi8>, tensor<1x1x64x64xi8>, tensor<64xi32> -> tensor<1x4x4x64xi32>
  return %a : tensor<1x4x4x64xi32>
}

// -----

func.func @conv_negative_padding(%x: tensor<1x4x4x64xi8>, %b: tensor<64xi32>) -> tensor<1x3x4x64xi32> {
  %w = arith.constant dense<1> : tensor<1x1x64x64xi8>
  // expected-error@+1 {{'qnt.int_conv2d' op result dimension 1 must be the output size of the window over input 4 (padding -1 + 0, kernel 1, stride 1, dilation 1), got 3}}
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: -1, 0, 0, 0>, groups = 1 : i64} : tensor<1x4x4x64xi8>, tensor<1x1x64x64xi8>, tensor<64xi32> -> tensor<1x3x4x64xi32>
  return %a : tensor<1x3x4x64xi32>
}

// -----

func.func @conv_batch_differs(%x: tensor<1x4x4x64xi8>, %b: tensor<64xi32>) -> tensor<2x4x4x64xi32> {
  %w = arith.constant dense<1> : tensor<1x1x64x64xi8>
  // expected-error@+1 {{'qnt.int_conv2d' op operand shapes do not form a grouped HWCF conv}}
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32, strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64} : tensor<1x4x4x64xi8>, tensor<1x1x64x64xi8>, tensor<64xi32> -> tensor<2x4x4x64xi32>
  return %a : tensor<2x4x4x64xi32>
}

// -----

// Accepted: u8 codes in i8, the full i16 range, any i32 bounds, and a
// strided, padded, dilated window of the right size ((5 + 1 + 2 - 5) / 2 + 1 = 2).
func.func @accepted(%c: tensor<6xi32>, %x: tensor<1x5x5x8xi8>, %b: tensor<8xi32>) -> (tensor<6xi8>, tensor<6xi16>, tensor<6xi32>, tensor<1x2x5x8xi32>) {
  %u = qnt.int_requantize %c {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>, float_multipliers = array<f32: 1.0>, output_zero_points = array<i32: 128>, min = 0 : i32, max = 255 : i32, rounding = "double"} : tensor<6xi32> -> tensor<6xi8>
  %h = qnt.int_requantize %c {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>, float_multipliers = array<f32: 1.0>, output_zero_points = array<i32: 0>, min = -32768 : i32, max = 32767 : i32, rounding = "double"} : tensor<6xi32> -> tensor<6xi16>
  %i = qnt.int_requantize %c {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>, float_multipliers = array<f32: 1.0>, output_zero_points = array<i32: 0>, min = -2147483648 : i32, max = 2147483647 : i32, rounding = "double"} : tensor<6xi32> -> tensor<6xi32>
  %w = arith.constant dense<1> : tensor<3x1x8x8xi8>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32, strides = array<i64: 2, 1>, dilations = array<i64: 2, 1>, padding = array<i64: 1, 2, 0, 0>, groups = 1 : i64} : tensor<1x5x5x8xi8>, tensor<3x1x8x8xi8>, tensor<8xi32> -> tensor<1x2x5x8xi32>
  return %u, %h, %i, %a : tensor<6xi8>, tensor<6xi16>, tensor<6xi32>, tensor<1x2x5x8xi32>
}

// -----

// rounding = "float": the largest differences of signed i8 codes from zero
// point 0 are 128: 128 * 1e37 + 128 * 1e37 = 2.56e39 > FLT_MAX.
func.func @int_add_float_sum_overflows(%a: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{'qnt.int_add' op rounding = "float": the f32 sum of the operands' differences times a_float_multiplier (1.000000e+37) and b_float_multiplier (1.000000e+37) can overflow f32}}
  %y = qnt.int_add %a, %a {a_zero_point = 0 : i32, b_zero_point = 0 : i32, output_zero_point = 0 : i32, left_shift = 0 : i32, a_multiplier = 1073741824 : i32, a_shift = -1 : i32, b_multiplier = 1073741824 : i32, b_shift = -1 : i32, output_multiplier = 1073741824 : i32, output_shift = -1 : i32, a_float_multiplier = 1.0e37 : f32, b_float_multiplier = 1.0e37 : f32, min = -128 : i32, max = 127 : i32, rounding = "float"} : tensor<4xi8>, tensor<4xi8> -> tensor<4xi8>
  return %y : tensor<4xi8>
}
