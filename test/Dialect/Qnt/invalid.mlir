// Every bad-input rule of the dialect contract, one case per split.
// RUN: quant-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// Scales and zero points
//===----------------------------------------------------------------------===//

func.func @negative_scale(%x: tensor<2xf32>) {
  // Non-positive scales are already rejected by the upstream quant type.
  // expected-error@+1 {{scale -5.000000e-01 out of expressed type range}}
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<i8:f32, -0.5>>
  return
}

// -----

func.func @zero_scale(%x: tensor<2xf32>) {
  // expected-error@+1 {{scale 0.000000e+00 out of expressed type range}}
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<i8:f32, 0.0>>
  return
}

// -----

func.func @zero_point_out_of_range(%x: tensor<2xf32>) {
  // expected-error@+1 {{'qnt.quantize' op 'output' zero point 300 is outside the storage range [0, 255]}}
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<u8:f32, 0.5:300>>
  return
}

// -----

func.func @zero_point_outside_narrow_range(%x: tensor<2xf32>) {
  // expected-error@+1 {{'output' zero point -128 is outside the storage range [-127, 127]}}
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<i8<-127:127>:f32, 0.5:-128>>
  return
}

// -----

func.func @per_axis_zero_point_out_of_range(%q: tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:200}>>) {
  // expected-error@+1 {{'input' zero point 200 is outside the storage range [-128, 127]}}
  %r = qnt.dequantize %q : tensor<2x2x!quant.uniform<i8:f32:1, {0.5:0, 0.25:200}>> -> tensor<2x2xf32>
  return
}

// -----

func.func @expressed_not_f32(%x: tensor<2xf32>) {
  // expected-error@+1 {{'output' must have expressed type f32, got 'f16'}}
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<u8:f16, 0.5:3>>
  return
}

// -----

func.func @quantize_to_i32(%x: tensor<2xf32>) {
  // expected-error@+1 {{'output' storage must be i8, u8 or i16, got i32}}
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<i32:f32, 0.5>>
  return
}

// -----

func.func @quantize_shape_mismatch(%x: tensor<3xf32>) {
  // expected-error@+1 {{result shape [2] must equal the 'input' shape [3]}}
  %q = qnt.quantize %x : tensor<3xf32> -> tensor<2x!quant.uniform<u8:f32, 0.5:3>>
  return
}

// -----

func.func @quantize_from_f16(%x: tensor<2xf16>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of 32-bit float values}}
  %q = qnt.quantize %x : tensor<2xf16> -> tensor<2x!quant.uniform<u8:f32, 0.5:3>>
  return
}

// -----

func.func @per_axis_count(%q: tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) {
  // expected-error@+1 {{'input' has 2 per-axis scales but dimension 1 has size 3}}
  %r = qnt.dequantize %q : tensor<2x3x!quant.uniform<i8:f32:1, {0.5, 0.25}>> -> tensor<2x3xf32>
  return
}

// -----

func.func @per_axis_out_of_rank(%q: tensor<2x!quant.uniform<i8:f32:1, {0.5, 0.25}>>) {
  // expected-error@+1 {{'input' per-axis dimension 1 is out of range for rank 1}}
  %r = qnt.dequantize %q : tensor<2x!quant.uniform<i8:f32:1, {0.5, 0.25}>> -> tensor<2xf32>
  return
}

// -----

func.func @dequantize_not_quantized(%q: tensor<2xi8>) {
  // expected-error@+1 {{operand #0 must be ranked tensor of uniform quantized type (per tensor or per axis) values}}
  %r = qnt.dequantize %q : tensor<2xi8> -> tensor<2xf32>
  return
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_k_mismatch(%x: tensor<1x3x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'w' must have K = 3 rows to match 'x' (M x K), got 2}}
  %a = qnt.matmul %x, %w : tensor<1x3x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_result_shape(%x: tensor<1x2x!X>, %w: tensor<2x3x!W>) {
  // expected-error@+1 {{result must have shape [1, 3] (M x N)}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x3x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_rank(%x: tensor<2x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'x' must have rank 2}}
  %a = qnt.matmul %x, %w : tensor<2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_dynamic(%x: tensor<?x2x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'x' must have a static shape}}
  %a = qnt.matmul %x, %w : tensor<?x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<i16:f32, 0.25>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_i16_activation(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'x' storage must be i8 or u8, got i16}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.1>
func.func @matmul_accumulator_scale(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'result' scale 1.000000e-01 must equal S_X * S_W = 1.250000e-01}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125:1>
func.func @matmul_accumulator_zero_point(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'result' must have zero point 0 (accumulator), got 1}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i16:f32, 0.125>
func.func @matmul_accumulator_storage(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'result' must have i32 storage (accumulator), got i16}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32:0, {0.5, 0.25}>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_weight_axis(%x: tensor<1x2x!X>, %w: tensor<2x2x!W>) {
  // expected-error@+1 {{'w' per-axis dimension must be the output-channel dimension 1, got 0}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x2x!W> -> tensor<1x2x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32:1, {0.5, 0.25}>
!A = !quant.uniform<i32:f32:0, {0.125, 0.0625}>
func.func @matmul_accumulator_axis(%x: tensor<2x2x!X>, %w: tensor<2x2x!W>) {
  // expected-error@+1 {{'result' per-axis dimension must be the output-channel dimension 1, got 0}}
  %a = qnt.matmul %x, %w : tensor<2x2x!X>, tensor<2x2x!W> -> tensor<2x2x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32:1, {0.5, 0.25}>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_per_axis_needs_per_axis_accumulator(%x: tensor<1x2x!X>, %w: tensor<2x2x!W>) {
  // expected-error@+1 {{'result' must be per axis like the weights 'w'}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x2x!W> -> tensor<1x2x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32:1, {0.5, 0.25}>
!A = !quant.uniform<i32:f32:1, {0.125, 0.125}>
func.func @matmul_per_channel_scale(%x: tensor<1x2x!X>, %w: tensor<2x2x!W>) {
  // expected-error@+1 {{'result' scale 1.250000e-01 of channel 1 must equal S_X * S_W = 6.250000e-02}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x2x!W> -> tensor<1x2x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32:1, {0.25:128, 0.5:128}>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_per_axis_activation(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) {
  // expected-error@+1 {{'x' must be quantized per tensor}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
!B = !quant.uniform<i32:f32, 0.125:3>
func.func @matmul_bias_zero_point(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>, %b: tensor<1x!B>) {
  // expected-error@+1 {{'bias' must have zero point 0 (accumulator), got 3}}
  %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x1x!W>, tensor<1x!B> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
!B = !quant.uniform<i8:f32, 0.125>
func.func @matmul_bias_not_i32(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>, %b: tensor<1x!B>) {
  // expected-error@+1 {{'bias' must have i32 storage (accumulator), got i8}}
  %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x1x!W>, tensor<1x!B> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
!B = !quant.uniform<i32:f32, 0.5>
func.func @matmul_bias_scale(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>, %b: tensor<1x!B>) {
  // expected-error@+1 {{'bias' scale 5.000000e-01 must equal S_X * S_W = 1.250000e-01}}
  %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x1x!W>, tensor<1x!B> -> tensor<1x1x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_bias_shape(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>, %b: tensor<2x!A>) {
  // expected-error@+1 {{'bias' must have shape [1] (one per output channel)}}
  %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x1x!W>, tensor<2x!A> -> tensor<1x1x!A>
  return
}

// -----

// Static overflow rule: u8 activations (|x - z| <= 128 with z = 128) and i8
// weights (|w - z| <= 128 with z = 0): 131073 * 128 * 128 = 2147500032 > 2^31 - 1.
!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_overflow(%x: tensor<1x131073x!X>, %w: tensor<131073x1x!W>) {
  // expected-error@+1 {{worst-case accumulator can overflow i32: K * max|x - z_x| * max|w - z_w| = 131073 * 128 * 128 = 2147500032 exceeds 2147483647}}
  %a = qnt.matmul %x, %w : tensor<1x131073x!X>, tensor<131073x1x!W> -> tensor<1x1x!A>
  return
}

// -----

// One K fewer fits: 131072 * 128 * 128 = 2^31 ... which is still one too many.
// 131071 * 128 * 128 = 2147467264 fits.
!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_largest_k(%x: tensor<1x131071x!X>, %w: tensor<131071x1x!W>) {
  %a = qnt.matmul %x, %w : tensor<1x131071x!X>, tensor<131071x1x!W> -> tensor<1x1x!A>
  return
}

// -----

// A constant bias counts toward the bound: 131071 * 128 * 128 + 20000 > 2^31 - 1.
!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_overflow_with_bias(%x: tensor<1x131071x!X>, %w: tensor<131071x1x!W>) {
  %b = qnt.constant dense<[-20000]> : tensor<1xi32> -> tensor<1x!A>
  // expected-error@+1 {{K * max|x - z_x| * max|w - z_w| + max|bias| = 131071 * 128 * 128 + 20000 = 2147487264 exceeds 2147483647}}
  %a = qnt.matmul %x, %w, %b : tensor<1x131071x!X>, tensor<131071x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
  return
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_zero_stride(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{'strides' must be two positive values (zero stride is invalid), got [0, 1]}}
  %a = qnt.conv2d %x, %w {strides = array<i64: 0, 1>} : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_negative_padding(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{'padding' must be four non-negative values [top, bottom, left, right], got [1, -1, 0, 0]}}
  %a = qnt.conv2d %x, %w {padding = array<i64: 1, -1, 0, 0>} : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_padding_arity(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{'padding' must be four non-negative values}}
  %a = qnt.conv2d %x, %w {padding = array<i64: 1, 1>} : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_zero_dilation(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{'dilations' must be two positive values, got [1, 0]}}
  %a = qnt.conv2d %x, %w {dilations = array<i64: 1, 0>} : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_groups(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x1x4x!W>) {
  // expected-error@+1 {{'x' channels 3 must be divisible by groups = 2}}
  %a = qnt.conv2d %x, %w {groups = 2 : i64} : tensor<1x8x8x3x!X>, tensor<3x3x1x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_zero_groups(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{'groups' must be positive, got 0}}
  %a = qnt.conv2d %x, %w {groups = 0 : i64} : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_filter_channels(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x2x4x!W>) {
  // expected-error@+1 {{'w' dimension 2 must be C / groups = 3 (HWCF layout), got 2}}
  %a = qnt.conv2d %x, %w : tensor<1x8x8x3x!X>, tensor<3x3x2x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_result_shape(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{result must have shape [1, 6, 6, 4] (N x OH x OW x F)}}
  %a = qnt.conv2d %x, %w : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x8x8x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_kernel_too_large(%x: tensor<1x2x2x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{dilated kernel 3x3 does not fit the padded input 2x2}}
  %a = qnt.conv2d %x, %w : tensor<1x2x2x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x1x1x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32:0, {0.5, 0.5, 0.5}>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_weight_axis(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>) {
  // expected-error@+1 {{'w' per-axis dimension must be the output-channel dimension 3 (F of HWCF), got 0}}
  %a = qnt.conv2d %x, %w : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W> -> tensor<1x6x6x4x!A>
  return
}

// -----

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
!B = !quant.uniform<i32:f32, 0.125>
func.func @conv_bias_shape(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>, %b: tensor<3x!B>) {
  // expected-error@+1 {{'bias' must have shape [4] (one per output channel)}}
  %a = qnt.conv2d %x, %w, %b : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W>, tensor<3x!B> -> tensor<1x6x6x4x!A>
  return
}

// -----

// K = 3 * 3 * 14564 = 131076; 131076 * 128 * 128 > 2^31 - 1.
!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @conv_overflow(%x: tensor<1x3x3x14564x!X>, %w: tensor<3x3x14564x1x!W>) {
  // expected-error@+1 {{= 131076 * 128 * 128 = 2147549184 exceeds 2147483647}}
  %a = qnt.conv2d %x, %w : tensor<1x3x3x14564x!X>, tensor<3x3x14564x1x!W> -> tensor<1x1x1x1x!A>
  return
}

//===----------------------------------------------------------------------===//
// requantize
//===----------------------------------------------------------------------===//

// -----

!A = !quant.uniform<i32:f32, 0.125>
!Y = !quant.uniform<i8:f32, 0.25:-5>
func.func @unknown_rounding(%a: tensor<4x!A>) {
  // expected-error@+1 {{unknown rounding "nearest"; expected one of "double", "single", "away", "half_even", "float"}}
  %y = qnt.requantize %a {rounding = "nearest"} : tensor<4x!A> -> tensor<4x!Y>
  return
}

// -----

!A = !quant.uniform<i32:f32, 0.125>
!Y = !quant.uniform<i8:f32, 0.25:-5>
func.func @clamp_order(%a: tensor<4x!A>) {
  // expected-error@+1 {{'clamp' lower bound 10 must not exceed the upper bound 5}}
  %y = qnt.requantize %a {clamp = array<i64: 10, 5>} : tensor<4x!A> -> tensor<4x!Y>
  return
}

// -----

!A = !quant.uniform<i32:f32, 0.125>
!Y = !quant.uniform<i8:f32, 0.25:-5>
func.func @clamp_range(%a: tensor<4x!A>) {
  // expected-error@+1 {{'clamp' [-5, 200] must lie within the result storage range [-128, 127]}}
  %y = qnt.requantize %a {clamp = array<i64: -5, 200>} : tensor<4x!A> -> tensor<4x!Y>
  return
}

// -----

!A = !quant.uniform<i32:f32, 0.125>
!Y = !quant.uniform<i8:f32, 0.25:-5>
func.func @clamp_arity(%a: tensor<4x!A>) {
  // expected-error@+1 {{'clamp' must be [lo, hi] in output codes, got 3 values}}
  %y = qnt.requantize %a {clamp = array<i64: -5, 0, 5>} : tensor<4x!A> -> tensor<4x!Y>
  return
}

// -----

!A = !quant.uniform<i32:f32, 0.125>
!Y = !quant.uniform<i32:f32, 0.25>
func.func @requantize_to_i32(%a: tensor<4x!A>) {
  // expected-error@+1 {{'output' storage must be i8, u8 or i16, got i32}}
  %y = qnt.requantize %a : tensor<4x!A> -> tensor<4x!Y>
  return
}

// -----

!A = !quant.uniform<i32:f32, 0.125:7>
!Y = !quant.uniform<i8:f32, 0.25>
func.func @requantize_accumulator_zero_point(%a: tensor<4x!A>) {
  // expected-error@+1 {{'input' with i32 storage (an accumulator) must have zero point 0}}
  %y = qnt.requantize %a : tensor<4x!A> -> tensor<4x!Y>
  return
}

// -----

!A = !quant.uniform<i32:f32, 0.125>
!Y = !quant.uniform<i8:f32, 0.25>
func.func @requantize_shape(%a: tensor<4x!A>) {
  // expected-error@+1 {{result shape [2, 2] must equal the 'input' shape [4]}}
  %y = qnt.requantize %a : tensor<4x!A> -> tensor<2x2x!Y>
  return
}

// -----

!A = !quant.uniform<i32:f32:0, {0.125, 0.25}>
!Y = !quant.uniform<i8:f32:1, {0.25, 0.5}>
func.func @requantize_axes(%a: tensor<2x2x!A>) {
  // expected-error@+1 {{'input' and result per-axis dimensions must match, got 0 and 1}}
  %y = qnt.requantize %a : tensor<2x2x!A> -> tensor<2x2x!Y>
  return
}

//===----------------------------------------------------------------------===//
// constant (internal)
//===----------------------------------------------------------------------===//

// -----

func.func @constant_signedness() {
  // expected-error@+1 {{'value' element type must be 'ui8'}}
  %c = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<2x!quant.uniform<u8:f32, 0.25:128>>
  return
}

// -----

func.func @constant_narrow_range() {
  // expected-error@+1 {{'value' code -128 is outside the storage range [-127, 127]}}
  %c = qnt.constant dense<[-128, 2]> : tensor<2xi8> -> tensor<2x!quant.uniform<i8<-127:127>:f32, 0.25>>
  return
}

// -----

func.func @constant_shape() {
  // expected-error@+1 {{'value' shape [2] must equal the result shape [3]}}
  %c = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<3x!quant.uniform<i8:f32, 0.25>>
  return
}

// -----

func.func @storage_u9(%q: tensor<2x!quant.uniform<u9:f32, 0.5>>) {
  // expected-error@+1 {{'input' storage must be i8, u8 or i16, got u9}}
  %r = qnt.dequantize %q : tensor<2x!quant.uniform<u9:f32, 0.5>> -> tensor<2xf32>
  return
}
