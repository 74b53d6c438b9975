// The verifiers of qnt.int_add, qnt.int_max_pool2d and qnt.int_avg_pool2d
// (produced by qnt-network-to-integer; they catch pass bugs early).
// RUN: quant-opt %s -split-input-file -verify-diagnostics

func.func @add_broadcast(%a: tensor<2x3xi8>, %b: tensor<2x2xi8>) {
  // expected-error@+1 {{'qnt.int_add' op operand dimension 1 of size 2 does not broadcast to 3}}
  %y = qnt.int_add %a, %b {a_float_multiplier = 1.0 : f32, a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
         b_float_multiplier = 1.0 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 0 : i32,
         left_shift = 20 : i32, max = 127 : i32, min = -128 : i32, output_multiplier = 1073741824 : i32, output_shift = 19 : i32,
         output_zero_point = 0 : i32, rounding = "double"} : tensor<2x3xi8>, tensor<2x2xi8> -> tensor<2x3xi8>
  return
}

// -----

func.func @add_shift_range(%a: tensor<3xi8>) {
  // expected-error@+1 {{'qnt.int_add' op 'output_shift' must lie in [-30, 31], got 40}}
  %y = qnt.int_add %a, %a {a_float_multiplier = 1.0 : f32, a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
         b_float_multiplier = 1.0 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 0 : i32,
         left_shift = 20 : i32, max = 127 : i32, min = -128 : i32, output_multiplier = 1073741824 : i32, output_shift = 40 : i32,
         output_zero_point = 0 : i32, rounding = "double"} : tensor<3xi8>, tensor<3xi8> -> tensor<3xi8>
  return
}

// -----

func.func @add_left_shift(%a: tensor<3xi8>) {
  // expected-error@+1 {{'qnt.int_add' op 'left_shift' must lie in [0, 30], got 31}}
  %y = qnt.int_add %a, %a {a_float_multiplier = 1.0 : f32, a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
         b_float_multiplier = 1.0 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 0 : i32,
         left_shift = 31 : i32, max = 127 : i32, min = -128 : i32, output_multiplier = 1073741824 : i32, output_shift = 19 : i32,
         output_zero_point = 0 : i32, rounding = "double"} : tensor<3xi8>, tensor<3xi8> -> tensor<3xi8>
  return
}

// -----

func.func @add_negative_multiplier(%a: tensor<3xi8>) {
  // expected-error@+1 {{'qnt.int_add' op 'a_multiplier' must be a non-negative Q31 value}}
  %y = qnt.int_add %a, %a {a_float_multiplier = 1.0 : f32, a_multiplier = -5 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
         b_float_multiplier = 1.0 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 0 : i32,
         left_shift = 20 : i32, max = 127 : i32, min = -128 : i32, output_multiplier = 1073741824 : i32, output_shift = 19 : i32,
         output_zero_point = 0 : i32, rounding = "double"} : tensor<3xi8>, tensor<3xi8> -> tensor<3xi8>
  return
}

// -----

func.func @add_rounding(%a: tensor<3xi8>) {
  // expected-error@+1 {{'qnt.int_add' op unknown rounding "up"}}
  %y = qnt.int_add %a, %a {a_float_multiplier = 1.0 : f32, a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
         b_float_multiplier = 1.0 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 0 : i32,
         left_shift = 20 : i32, max = 127 : i32, min = -128 : i32, output_multiplier = 1073741824 : i32, output_shift = 19 : i32,
         output_zero_point = 0 : i32, rounding = "up"} : tensor<3xi8>, tensor<3xi8> -> tensor<3xi8>
  return
}

// -----

// A rounding that is not a string (the enum's number in a generic form) is
// rejected with the names the attribute takes.
func.func @add_rounding_number(%a: tensor<3xi8>) {
  // expected-error@+1 {{attribute 'rounding' failed to satisfy constraint: string naming a rounding mode ("double", "single", "away", "half_even" or "float")}}
  %y = qnt.int_add %a, %a {a_float_multiplier = 1.0 : f32, a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
         b_float_multiplier = 1.0 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 0 : i32,
         left_shift = 20 : i32, max = 127 : i32, min = -128 : i32, output_multiplier = 1073741824 : i32, output_shift = 19 : i32,
         output_zero_point = 0 : i32, rounding = 3 : i32} : tensor<3xi8>, tensor<3xi8> -> tensor<3xi8>
  return
}

// -----

func.func @max_pool_shape(%x: tensor<1x4x4x2xi8>) {
  // expected-error@+1 {{'qnt.int_max_pool2d' op result shape must be [1, 2, 2, 2]}}
  %y = qnt.int_max_pool2d %x {dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 2, 2>}
       : tensor<1x4x4x2xi8> -> tensor<1x3x3x2xi8>
  return
}

// -----

func.func @max_pool_padding(%x: tensor<1x4x4x2xi8>) {
  // expected-error@+1 {{'qnt.int_max_pool2d' op invalid window geometry in dimension 1}}
  %y = qnt.int_max_pool2d %x {dilations = array<i64: 1, 1>, kernel = array<i64: 2, 2>, padding = array<i64: 2, 0, 0, 0>, strides = array<i64: 1, 1>}
       : tensor<1x4x4x2xi8> -> tensor<1x5x3x2xi8>
  return
}

// -----

func.func @avg_pool_zero_points(%x: tensor<1x4x4x3xi8>) {
  // expected-error@+1 {{'qnt.int_avg_pool2d' op 'zero_points' must have 1 or 3 entries, got 2}}
  %y = qnt.int_avg_pool2d %x {kernel = array<i64: 4, 4>, max = 127 : i32, min = -128 : i32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, zero_points = array<i32: 1, 2>}
       : tensor<1x4x4x3xi8> -> tensor<1x1x1x3xi8>
  return
}

// -----

func.func @avg_pool_element_type(%x: tensor<1x4x4x3xi8>) {
  // expected-error@+1 {{'qnt.int_avg_pool2d' op result element type must equal the input's}}
  %y = qnt.int_avg_pool2d %x {kernel = array<i64: 4, 4>, max = 127 : i32, min = -128 : i32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, zero_points = array<i32: 1>}
       : tensor<1x4x4x3xi8> -> tensor<1x1x1x3xi16>
  return
}

// -----

func.func @avg_pool_rounding(%x: tensor<1x4x4x3xi8>) {
  // expected-error@+1 {{'qnt.int_avg_pool2d' op 'rounding' "float" does not apply to an exact average: it rounds only ties, "away" (from zero) or "half_even"}}
  %y = qnt.int_avg_pool2d %x {kernel = array<i64: 4, 4>, max = 127 : i32, min = -128 : i32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 1>, zero_points = array<i32: 1>, rounding = "float"}
       : tensor<1x4x4x3xi8> -> tensor<1x1x1x3xi8>
  return
}
