// Hostile inputs from the robustness issue: each used to be accepted (and
// then miscompiled or rejected late); each must now be a verifier error that
// names the rule.
// RUN: quant-opt %s -split-input-file -verify-diagnostics

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

// 4 * (2^62 + 1) wraps to 4 in int64, which made a 5-tap kernel look 5 rows
// tall and gave an output height of 4.
func.func @dilation_overflow(%x: tensor<1x8x8x1x!X>, %w: tensor<5x1x1x1x!W>) -> tensor<1x4x8x1x!A> {
  // expected-error@+1 {{window height overflows int64: input 8, padding 0 + 0, kernel 5, dilation 4611686018427387905}}
  %a = qnt.conv2d %x, %w {dilations = array<i64: 4611686018427387905, 1>}
       : tensor<1x8x8x1x!X>, tensor<5x1x1x1x!W> -> tensor<1x4x8x1x!A>
  return %a : tensor<1x4x8x1x!A>
}

// -----

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

func.func @padding_int64_max(%x: tensor<1x8x8x1x!X>, %w: tensor<1x1x1x1x!W>) -> tensor<1x8x8x1x!A> {
  // expected-error@+1 {{window width overflows int64: input 8, padding 9223372036854775807 + 0}}
  %a = qnt.conv2d %x, %w {padding = array<i64: 0, 0, 9223372036854775807, 0>}
       : tensor<1x8x8x1x!X>, tensor<1x1x1x1x!W> -> tensor<1x8x8x1x!A>
  return %a : tensor<1x8x8x1x!A>
}

// -----

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

// 8 + 2^62 + 2^62 = 2^63 + 8 wraps negative.
func.func @padding_two_to_62(%x: tensor<1x8x8x1x!X>, %w: tensor<1x1x1x1x!W>) -> tensor<1x8x8x1x!A> {
  // expected-error@+1 {{window height overflows int64: input 8, padding 4611686018427387904 + 4611686018427387904}}
  %a = qnt.conv2d %x, %w {padding = array<i64: 4611686018427387904, 4611686018427387904, 0, 0>}
       : tensor<1x8x8x1x!X>, tensor<1x1x1x1x!W> -> tensor<1x8x8x1x!A>
  return %a : tensor<1x8x8x1x!A>
}

// -----

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

// A 0-row kernel made the output (8 - 0 + 1 = 9 rows) taller than the input.
func.func @zero_kernel_rows(%x: tensor<1x8x8x1x!X>, %w: tensor<0x1x1x1x!W>) -> tensor<1x9x8x1x!A> {
  // expected-error@+1 {{'w' kernel must be at least 1x1 (HWCF), got 0x1}}
  %a = qnt.conv2d %x, %w : tensor<1x8x8x1x!X>, tensor<0x1x1x1x!W> -> tensor<1x9x8x1x!A>
  return %a : tensor<1x9x8x1x!A>
}

// -----

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

func.func @kernel_taller_than_input(%x: tensor<1x4x8x1x!X>, %w: tensor<3x1x1x1x!W>) -> tensor<1x1x8x1x!A> {
  // expected-error@+1 {{dilated kernel 5x1 does not fit the padded input 4x8}}
  %a = qnt.conv2d %x, %w {dilations = array<i64: 2, 1>}
       : tensor<1x4x8x1x!X>, tensor<3x1x1x1x!W> -> tensor<1x1x8x1x!A>
  return %a : tensor<1x1x8x1x!A>
}

// -----

//===----------------------------------------------------------------------===//
// Zero points are int64 in the type: 2^32 must not be read as 0.
//===----------------------------------------------------------------------===//

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01:4294967296>

func.func @accumulator_zero_point_two_to_32(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) -> tensor<1x1x!A> {
  // expected-error@+1 {{'result' must have zero point 0 (accumulator), got 4294967296}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>
!B = !quant.uniform<i32:f32, 2.500000e-01:-4294967296>

func.func @bias_zero_point_minus_two_to_32(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>, %b: tensor<1x!B>) -> tensor<1x1x!A> {
  // expected-error@+1 {{'bias' must have zero point 0 (accumulator), got -4294967296}}
  %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x1x!W>, tensor<1x!B> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// 2^32 + 1 truncates to 1, which is inside [-128, 127].
func.func @zero_point_wraps_into_range(%x: tensor<2xf32>) {
  // expected-error@+1 {{'output' zero point 4294967297 is outside the storage range [-128, 127]}}
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<i8:f32, 0.5:4294967297>>
  return
}

// -----

func.func @requantize_i32_zero_point_two_to_32(%a: tensor<2x!quant.uniform<i32:f32, 0.5:4294967296>>) {
  // expected-error@+1 {{'input' zero point 4294967296 is outside the storage range [-2147483648, 2147483647]}}
  %y = qnt.requantize %a : tensor<2x!quant.uniform<i32:f32, 0.5:4294967296>> -> tensor<2x!quant.uniform<i8:f32, 0.5>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// Per-axis types need a static slice count.
//===----------------------------------------------------------------------===//

func.func @per_axis_on_dynamic_dim(%x: tensor<?x2xf32>) {
  // expected-error@+1 {{'output' per-axis dimension 0 must have a static size (one scale per slice)}}
  %q = qnt.quantize %x : tensor<?x2xf32> -> tensor<?x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  return
}

// -----

//===----------------------------------------------------------------------===//
// qnt.constant runs the same type checks as every other op.
//===----------------------------------------------------------------------===//

func.func @constant_per_axis_count() {
  // expected-error@+1 {{'output' has 2 per-axis scales but dimension 0 has size 3}}
  %q = qnt.constant dense<[1, 2, 3]> : tensor<3xi8> -> tensor<3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  return
}

// -----

func.func @constant_zero_point_out_of_range() {
  // expected-error@+1 {{'output' zero point 300 is outside the storage range [0, 255]}}
  %q = qnt.constant dense<[1, 2]> : tensor<2xui8> -> tensor<2x!quant.uniform<u8:f32, 0.5:300>>
  return
}

// -----

func.func @constant_expressed_f16() {
  // expected-error@+1 {{'output' must have expressed type f32, got 'f16'}}
  %q = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<2x!quant.uniform<i8:f16, 0.5>>
  return
}
