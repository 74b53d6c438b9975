// Every bad-input rule of qnt.add, qnt.max_pool2d, qnt.avg_pool2d and
// qnt.concat, one case per split.
// RUN: quant-opt %s -split-input-file -verify-diagnostics

!I8 = !quant.uniform<i8:f32, 0.5:1>
!I32 = !quant.uniform<i32:f32, 0.5>
func.func @add_storage(%a: tensor<4x!I32>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'a' storage must be i8, u8 or i16, got i32}}
  %y = qnt.add %a, %b : tensor<4x!I32>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
!U16 = !quant.uniform<u16:f32, 0.5:1>
func.func @add_unsigned_16(%a: tensor<4x!I8>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'result' storage must be i8, u8 or i16, got u16}}
  %y = qnt.add %a, %b : tensor<4x!I8>, tensor<4x!I8> -> tensor<4x!U16>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
!F16 = !quant.uniform<i8:f16, 0.5:1>
func.func @add_expressed(%a: tensor<4x!F16>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'a' must have expressed type f32, got 'f16'}}
  %y = qnt.add %a, %b : tensor<4x!F16>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
!PA = !quant.uniform<i8:f32:0, {0.5, 0.25}>
func.func @add_per_axis(%a: tensor<2x!I8>, %b: tensor<2x!PA>) {
  // expected-error@+1 {{'qnt.add' op 'b': per-axis quantization is not supported by qnt.add; use per-tensor scales}}
  %y = qnt.add %a, %b : tensor<2x!I8>, tensor<2x!PA> -> tensor<2x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_rank(%a: tensor<2x3x!I8>, %b: tensor<3x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'a', 'b' and the result must have equal ranks (broadcasting only stretches size-1 dimensions), got 2, 1 and 2}}
  %y = qnt.add %a, %b : tensor<2x3x!I8>, tensor<3x!I8> -> tensor<2x3x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_broadcast(%a: tensor<2x3x!I8>, %b: tensor<2x2x!I8>) {
  // expected-error@+1 {{'qnt.add' op dimension 1: 'a' size 3 and 'b' size 2 do not broadcast to the result size 3 (each must equal it or be 1)}}
  %y = qnt.add %a, %b : tensor<2x3x!I8>, tensor<2x2x!I8> -> tensor<2x3x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_result_shape(%a: tensor<2x1x!I8>, %b: tensor<1x3x!I8>) {
  // expected-error@+1 {{'qnt.add' op dimension 1: 'a' size 1 and 'b' size 3 do not broadcast to the result size 1 (each must equal it or be 1)}}
  %y = qnt.add %a, %b : tensor<2x1x!I8>, tensor<1x3x!I8> -> tensor<2x1x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_dynamic(%a: tensor<?x!I8>, %b: tensor<?x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'a' must have a static shape, got 'tensor<?x!quant.uniform<i8:f32, 5.000000e-01:1>>'}}
  %y = qnt.add %a, %b : tensor<?x!I8>, tensor<?x!I8> -> tensor<?x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_rounding(%a: tensor<4x!I8>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op unknown rounding "nearest"; expected one of "double", "single", "away", "half_even", "float"}}
  %y = qnt.add %a, %b {rounding = "nearest"} : tensor<4x!I8>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_clamp_range(%a: tensor<4x!I8>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'clamp' [0, 200] must lie within the result storage range [-128, 127]}}
  %y = qnt.add %a, %b {clamp = array<i64: 0, 200>} : tensor<4x!I8>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_clamp_order(%a: tensor<4x!I8>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'clamp' lower bound 6 must not exceed the upper bound 0}}
  %y = qnt.add %a, %b {clamp = array<i64: 6, 0>} : tensor<4x!I8>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @add_clamp_size(%a: tensor<4x!I8>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'clamp' must be [lo, hi] in output codes, got 3 values}}
  %y = qnt.add %a, %b {clamp = array<i64: 0, 1, 2>} : tensor<4x!I8>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

// (q - z) << 20 leaves i32 for an i16 input feeding an 8-bit result:
// max|q - z| = 32767 + 100 = 32867. The narrow range of the second case does
// not help: run-time data may hold any i16 code.
!I8 = !quant.uniform<i8:f32, 0.5:1>
!I16 = !quant.uniform<i16:f32, 0.001:-100>
func.func @add_left_shift_overflow(%a: tensor<4x!I16>, %b: tensor<4x!I8>) {
  // expected-error@+1 {{'qnt.add' op 'a': max|q - z| = 32867 over the i16 codes, shifted left by 20 (the integer add's left_shift for a 8-bit result), overflows i32; use an i16 result or rounding = "float"}}
  %y = qnt.add %a, %b : tensor<4x!I16>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
!N16 = !quant.uniform<i16<-1000:1000>:f32, 0.001>
func.func @add_left_shift_overflow_narrow(%a: tensor<4x!I8>, %b: tensor<4x!N16>) {
  // expected-error@+1 {{'qnt.add' op 'b': max|q - z| = 32768 over the i16 codes, shifted left by 20}}
  %y = qnt.add %a, %b : tensor<4x!I8>, tensor<4x!N16> -> tensor<4x!I8>
  return
}

// -----

// The float mode has no left shift: accepted.
!I8 = !quant.uniform<i8:f32, 0.5:1>
!I16 = !quant.uniform<i16:f32, 0.001:-100>
func.func @add_i16_to_i8_float(%a: tensor<4x!I16>, %b: tensor<4x!I8>) {
  %y = qnt.add %a, %b {rounding = "float"} : tensor<4x!I16>, tensor<4x!I8> -> tensor<4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_rank(%x: tensor<8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'input' must have rank 4, got 'tensor<8x8x4x!quant.uniform<i8:f32, 5.000000e-01:1>>'}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>} : tensor<8x8x4x!I8> -> tensor<7x7x4x!I8>
  return
}

// -----

!I32 = !quant.uniform<i32:f32, 0.5>
func.func @max_pool_storage(%x: tensor<1x8x8x4x!I32>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'input' storage must be i8, u8 or i16, got i32}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>} : tensor<1x8x8x4x!I32> -> tensor<1x7x7x4x!I32>
  return
}

// -----

!PA = !quant.uniform<i8:f32:1, {0.5, 0.25}>
func.func @max_pool_per_axis(%x: tensor<1x2x2x4x!PA>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'input' per-axis dimension must be the channel dimension 3 (C of NHWC), got 1}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 1, 1>} : tensor<1x2x2x4x!PA> -> tensor<1x2x2x4x!PA>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
!Y = !quant.uniform<i8:f32, 0.25:1>
func.func @max_pool_result_type(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op result element type must equal the input type '!quant.uniform<i8:f32, 5.000000e-01:1>' (a scale change is a following qnt.requantize), got '!quant.uniform<i8:f32, 2.500000e-01:1>'}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>} : tensor<1x8x8x4x!I8> -> tensor<1x7x7x4x!Y>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_kernel(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'kernel' must be two values >= 1, got [0, 2]}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 0, 2>} : tensor<1x8x8x4x!I8> -> tensor<1x8x7x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_kernel_size(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'kernel' must be two values >= 1, got [2]}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2>} : tensor<1x8x8x4x!I8> -> tensor<1x7x7x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_stride(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'strides' must be two values >= 1 (zero stride is invalid), got [1, 0]}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 0>} : tensor<1x8x8x4x!I8> -> tensor<1x7x7x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_dilation(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'dilations' must be two values >= 1, got [0, 1]}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, dilations = array<i64: 0, 1>} : tensor<1x8x8x4x!I8> -> tensor<1x7x7x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_negative_padding(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'padding' must be four non-negative values [top, bottom, left, right], got [0, -1, 0, 0]}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 0, -1, 0, 0>} : tensor<1x8x8x4x!I8> -> tensor<1x7x7x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_padding_size(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'padding' must be four non-negative values [top, bottom, left, right], got [1, 1]}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1>} : tensor<1x8x8x4x!I8> -> tensor<1x7x7x4x!I8>
  return
}

// -----

// A 2x2 window (extent 2) with 2 rows of padding would hold only padding.
!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_pad_ge_kernel(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'padding' 2 on the start of H must be smaller than the dilated kernel extent 2 (every window must hold a real element)}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 2, 0, 0, 0>} : tensor<1x8x8x4x!I8> -> tensor<1x9x7x4x!I8>
  return
}

// -----

// With dilation 2 a 2x2 kernel spans 3, so padding 2 is allowed; 3 is not.
!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_pad_ge_dilated_kernel(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op 'padding' 3 on the end of W must be smaller than the dilated kernel extent 3 (every window must hold a real element)}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, dilations = array<i64: 2, 2>, padding = array<i64: 2, 2, 0, 3>} : tensor<1x8x8x4x!I8> -> tensor<1x10x9x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_kernel_too_big(%x: tensor<1x3x3x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op dilated kernel extent 5 does not fit the padded input H = 3 + 1 + 0}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 5, 1>, padding = array<i64: 1, 0, 0, 0>} : tensor<1x3x3x4x!I8> -> tensor<1x1x3x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_huge_dilation(%x: tensor<1x3x3x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op dilated kernel extent overflows in W}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 1, 3>, dilations = array<i64: 1, 4611686018427387904>} : tensor<1x3x3x4x!I8> -> tensor<1x3x1x4x!I8>
  return
}

// -----

// (8 + 1 + 0 - 3) / 2 + 1 = 4 rows, (8 - 3) / 2 + 1 = 3 columns.
!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_output_shape(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op result must have shape [1, 4, 3, 4] (N x OH x OW x C), got 'tensor<1x4x4x4x!quant.uniform<i8:f32, 5.000000e-01:1>>'}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 0, 0>} : tensor<1x8x8x4x!I8> -> tensor<1x4x4x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @avg_pool_output_shape(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.avg_pool2d' op result must have shape [1, 1, 1, 4] (N x OH x OW x C), got 'tensor<1x1x1x1x!quant.uniform<i8:f32, 5.000000e-01:1>>'}}
  %y = qnt.avg_pool2d %x {kernel = array<i64: 8, 8>} : tensor<1x8x8x4x!I8> -> tensor<1x1x1x1x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @avg_pool_pad_ge_kernel(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.avg_pool2d' op 'padding' 3 on the end of H must be smaller than the dilated kernel extent 3 (every window must hold a real element)}}
  %y = qnt.avg_pool2d %x {kernel = array<i64: 3, 3>, padding = array<i64: 0, 3, 0, 0>, count_include_pad = true} : tensor<1x8x8x4x!I8> -> tensor<1x9x6x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @avg_pool_rounding_mode(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.avg_pool2d' op 'rounding' "double" does not apply to an exact average: it rounds only ties, "away" (from zero) or "half_even"}}
  %y = qnt.avg_pool2d %x {kernel = array<i64: 8, 8>, rounding = "double"} : tensor<1x8x8x4x!I8> -> tensor<1x1x1x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @avg_pool_rounding_unknown(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.avg_pool2d' op unknown rounding "even"; expected one of "double", "single", "away", "half_even", "float"}}
  %y = qnt.avg_pool2d %x {kernel = array<i64: 8, 8>, rounding = "even"} : tensor<1x8x8x4x!I8> -> tensor<1x1x1x4x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @avg_pool_stride(%x: tensor<1x8x8x4x!I8>) {
  // expected-error@+1 {{'qnt.avg_pool2d' op 'strides' must be two values >= 1 (zero stride is invalid), got [0, 0]}}
  %y = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 0, 0>} : tensor<1x8x8x4x!I8> -> tensor<1x7x7x4x!I8>
  return
}

// -----

!PA = !quant.uniform<i8:f32:0, {0.5}>
func.func @avg_pool_per_axis(%x: tensor<1x2x2x4x!PA>) {
  // expected-error@+1 {{'qnt.avg_pool2d' op 'input' per-axis dimension must be the channel dimension 3 (C of NHWC), got 0}}
  %y = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>} : tensor<1x2x2x4x!PA> -> tensor<1x1x1x4x!PA>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
func.func @concat_axis(%a: tensor<2x3x!A>) {
  // expected-error@+1 {{'qnt.concat' op 'axis' 2 must lie in [0, 2) (the result rank)}}
  %c = qnt.concat %a, %a {axis = 2 : i64} : tensor<2x3x!A>, tensor<2x3x!A> -> tensor<2x6x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
func.func @concat_negative_axis(%a: tensor<2x3x!A>) {
  // expected-error@+1 {{'qnt.concat' op 'axis' -1 must lie in [0, 2) (the result rank)}}
  %c = qnt.concat %a, %a {axis = -1 : i64} : tensor<2x3x!A>, tensor<2x3x!A> -> tensor<2x6x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
func.func @concat_dims(%a: tensor<2x3x!A>, %b: tensor<3x3x!A>) {
  // expected-error@+1 {{'qnt.concat' op 'operand #1' dimension 0 has size 3 but the result has 2 (only 'axis' 1 may differ)}}
  %c = qnt.concat %a, %b {axis = 1 : i64} : tensor<2x3x!A>, tensor<3x3x!A> -> tensor<2x6x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
func.func @concat_rank(%a: tensor<2x3x!A>, %b: tensor<6x!A>) {
  // expected-error@+1 {{'qnt.concat' op 'operand #1' must have the result rank 2, got 'tensor<6x!quant.uniform<i8:f32, 5.000000e-01:1>>'}}
  %c = qnt.concat %a, %b {axis = 1 : i64} : tensor<2x3x!A>, tensor<6x!A> -> tensor<2x6x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
func.func @concat_sum(%a: tensor<2x3x!A>) {
  // expected-error@+1 {{'qnt.concat' op result dimension 1 must be the sum of the operand sizes 6, got 5}}
  %c = qnt.concat %a, %a {axis = 1 : i64} : tensor<2x3x!A>, tensor<2x3x!A> -> tensor<2x5x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
!B = !quant.uniform<u8:f32, 0.5:128>
func.func @concat_storage(%a: tensor<2x3x!A>, %b: tensor<2x3x!B>) {
  // expected-error@+1 {{'qnt.concat' op 'operand #1' storage u8 must equal the result storage i8 (concat requantizes scales, not storage types)}}
  %c = qnt.concat %a, %b {axis = 1 : i64} : tensor<2x3x!A>, tensor<2x3x!B> -> tensor<2x6x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
!PA = !quant.uniform<i8:f32:1, {0.5, 0.5, 0.5}>
func.func @concat_per_axis(%a: tensor<2x3x!A>, %b: tensor<2x3x!PA>) {
  // expected-error@+1 {{'qnt.concat' op 'operand #1': per-axis quantization is not supported by qnt.concat; use per-tensor scales}}
  %c = qnt.concat %a, %b {axis = 0 : i64} : tensor<2x3x!A>, tensor<2x3x!PA> -> tensor<4x3x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
func.func @concat_rounding(%a: tensor<2x3x!A>) {
  // expected-error@+1 {{'qnt.concat' op unknown rounding "up"; expected one of "double", "single", "away", "half_even", "float"}}
  %c = qnt.concat %a, %a {axis = 0 : i64, rounding = "up"} : tensor<2x3x!A>, tensor<2x3x!A> -> tensor<4x3x!A>
  return
}

// -----

!A = !quant.uniform<i8:f32, 0.5:1>
func.func @concat_empty() {
  // expected-error@+1 {{'qnt.concat' op expects at least one operand}}
  %c = "qnt.concat"() {axis = 0 : i64} : () -> tensor<4x3x!A>
  return
}

// -----

// in = 1, kernel 2, dilation 3 (extent 4), padding 2 before and after: the
// taps of window 0 are at -2 and 1, on both sides of the single row.
!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_window_steps_over_input(%x: tensor<1x1x4x1x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op window 0 along H holds only padding: its taps step over the input H = 1 (dilation 3); every window must hold a real element}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 1>, dilations = array<i64: 3, 1>, padding = array<i64: 2, 2, 0, 0>} : tensor<1x1x4x1x!I8> -> tensor<1x2x4x1x!I8>
  return
}

// -----

!I8 = !quant.uniform<i8:f32, 0.5:1>
func.func @max_pool_too_many_dilated_windows(%x: tensor<1x1x4x1x!I8>) {
  // expected-error@+1 {{'qnt.max_pool2d' op dilation 4194304 exceeds the input H = 1 with 4194305 output positions: too many windows to check that each holds a real element}}
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 1>, dilations = array<i64: 4194304, 1>, padding = array<i64: 4194304, 4194304, 0, 0>} : tensor<1x1x4x1x!I8> -> tensor<1x4194306x4x1x!I8>
  return
}

// -----

// rounding = "float" computes f32(a - z_a) * S_a/S_y + f32(b - z_b) * S_b/S_y:
// with S_a/S_y = S_b/S_y = 3e26 / 1e-10 = 3e36 and max|q - z| = 128 for u8
// codes around 128, the worst case is 256 * 3e36 = 7.7e38 > FLT_MAX.
!U = !quant.uniform<u8:f32, 3.0e26:128>
!Y = !quant.uniform<u8:f32, 1.0e-10:120>
func.func @add_float_sum_overflows(%a: tensor<2x!U>, %b: tensor<2x!U>) {
  // expected-error@+1 {{'qnt.add' op rounding = "float": max|a - z_a| * S_a/S_y + max|b - z_b| * S_b/S_y = 128 * 3.000000e+36 + 128 * 3.000000e+36 overflows f32}}
  %y = qnt.add %a, %b {rounding = "float"} : tensor<2x!U>, tensor<2x!U> -> tensor<2x!Y>
  return
}

// -----

// A ratio that is itself infinite: 0.1 / 1e-42 (a subnormal f32) > FLT_MAX.
!A = !quant.uniform<u8:f32, 0.1:128>
!Y = !quant.uniform<u8:f32, 1.0e-42:120>
func.func @add_float_ratio_overflows(%a: tensor<2x!A>) {
  // expected-error@+1 {{'qnt.add' op rounding = "float": max|a - z_a| * S_a/S_y + max|b - z_b| * S_b/S_y = 128 * INF + 128 * INF overflows f32}}
  %y = qnt.add %a, %a {rounding = "float"} : tensor<2x!A>, tensor<2x!A> -> tensor<2x!Y>
  return
}

// -----

// Just inside: 3e25 / 1e-10 = 3e35, 256 * 3e35 = 7.7e37 < FLT_MAX.
!U = !quant.uniform<u8:f32, 3.0e25:128>
!Y = !quant.uniform<u8:f32, 1.0e-10:120>
func.func @add_float_sum_fits(%a: tensor<2x!U>, %b: tensor<2x!U>) -> tensor<2x!Y> {
  %y = qnt.add %a, %b {rounding = "float"} : tensor<2x!U>, tensor<2x!U> -> tensor<2x!Y>
  return %y : tensor<2x!Y>
}
