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
