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

// One-sided padding of 2^62 does not overflow the row count itself, but the
// padded 8-wide input has (2^62 + 8) * 8 elements: more than int64 counts.
func.func @padding_two_to_62_element_count(%x: tensor<1x8x8x1x!X>, %w: tensor<1x1x1x1x!W>) -> tensor<1x4611686018427387912x8x1x!A> {
  // expected-error@+1 {{padded input 1x4611686018427387912x8x1 has more elements than int64 can count}}
  %a = qnt.conv2d %x, %w {padding = array<i64: 4611686018427387904, 0, 0, 0>}
       : tensor<1x8x8x1x!X>, tensor<1x1x1x1x!W> -> tensor<1x4611686018427387912x8x1x!A>
  return %a : tensor<1x4611686018427387912x8x1x!A>
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

// -----

//===----------------------------------------------------------------------===//
// Constant codes outside a narrow storage range, and what a non-constant
// narrow operand may hold.
//===----------------------------------------------------------------------===//

!X = !quant.uniform<i8:f32, 1.000000e+00>
!W = !quant.uniform<i8<-1:1>:f32, 1.000000e+00>
!A = !quant.uniform<i32:f32, 1.000000e+00>

// The bound trusted [-1, 1] (100000 * 128 * 1), but the weights hold -128:
// the true worst case 100000 * 128 * 128 wraps i32.
func.func @constant_codes_outside_narrow_range(%x: tensor<1x100000x!X>) -> tensor<1x1x!A> {
  %c = arith.constant dense<-128> : tensor<100000x1xi8>
  %w = quant.scast %c : tensor<100000x1xi8> to tensor<100000x1x!W>
  // expected-error@+1 {{operand #1 is a constant with code -128 outside the storage range [-1, 1] of '!quant.uniform<i8<-1:1>:f32, 1.000000e+00>'}}
  %a = qnt.matmul %x, %w : tensor<1x100000x!X>, tensor<100000x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

func.func @constant_codes_outside_narrow_range_requantize() -> tensor<2x!quant.uniform<i8:f32, 1.000000e+00>> {
  %c = arith.constant dense<[0, 2]> : tensor<2xi8>
  %q = quant.scast %c : tensor<2xi8> to tensor<2x!quant.uniform<i8<-1:1>:f32, 1.000000e+00>>
  // expected-error@+1 {{operand #0 is a constant with code 2 outside the storage range [-1, 1]}}
  %r = qnt.requantize %q : tensor<2x!quant.uniform<i8<-1:1>:f32, 1.000000e+00>> -> tensor<2x!quant.uniform<i8:f32, 1.000000e+00>>
  return %r : tensor<2x!quant.uniform<i8:f32, 1.000000e+00>>
}

// -----

func.func @qnt_constant_splat_outside_range() {
  // expected-error@+1 {{'value' code -128 is outside the storage range [-127, 127]}}
  %q = qnt.constant dense<-128> : tensor<4611686018427387904xi8> -> tensor<4611686018427387904x!quant.uniform<i8<-127:127>:f32, 5.000000e-01>>
  return
}

// -----

!X = !quant.uniform<i8<-1:1>:f32, 1.000000e+00>
!W = !quant.uniform<i8:f32, 1.000000e+00>
!A = !quant.uniform<i32:f32, 1.000000e+00>

// A function argument is not clamped to its narrow range: any i8 bit pattern
// can arrive, so the bound uses [-128, 127] for it (200000 * 128 * 128).
func.func @runtime_narrow_operand_uses_storage_bits(%x: tensor<1x200000x!X>, %w: tensor<200000x1x!W>) -> tensor<1x1x!A> {
  // expected-error@+1 {{worst-case accumulator can overflow i32: K * max|x - z_x| * max|w - z_w| = 200000 * 128 * 128 = 3276800000 exceeds 2147483647}}
  %a = qnt.matmul %x, %w : tensor<1x200000x!X>, tensor<200000x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

!X = !quant.uniform<i8<-1:1>:f32, 1.000000e+00>
!W = !quant.uniform<i8:f32, 1.000000e+00>
!A = !quant.uniform<i32:f32, 1.000000e+00>

// The same shape is fine when x comes from qnt.quantize, which clamps to
// [-1, 1]: 200000 * 1 * 128 fits (no diagnostic expected).
func.func @quantized_narrow_operand_uses_declared_range(%f: tensor<1x200000xf32>, %w: tensor<200000x1x!W>) -> tensor<1x1x!A> {
  %x = qnt.quantize %f : tensor<1x200000xf32> -> tensor<1x200000x!X>
  %a = qnt.matmul %x, %w : tensor<1x200000x!X>, tensor<200000x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

!X = !quant.uniform<u8<100:101>:f32, 1.000000e+00:100>
!W = !quant.uniform<u8:f32, 1.000000e+00>
!A = !quant.uniform<i32:f32, 1.000000e+00>

// Constant x in [100, 101] with z_x = 100: the exact sum is at most
// 100000 * 1 * 255, but qnt-fold-zero-points folds -z_x * sum_k w =
// -100 * 100000 * 255 into the i32 bias, which used to fail only in the pass.
func.func @folded_bias_leaves_i32() -> tensor<1x1x!A> {
  %cx = arith.constant dense<100> : tensor<1x100000xi8>
  %x = quant.scast %cx : tensor<1x100000xi8> to tensor<1x100000x!X>
  %cw = arith.constant dense<-1> : tensor<100000x1xi8>
  %w = quant.scast %cw : tensor<100000x1xi8> to tensor<100000x1x!W>
  // expected-error@+1 {{zero-point correction can overflow i32: K * |z_x| * max|w - z_w| = 100000 * 100 * 255 = 2550000000 exceeds 2147483647}}
  %a = qnt.matmul %x, %w : tensor<1x100000x!X>, tensor<100000x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// A sparse constant: its stored codes are checked (never expanded)...
!W = !quant.uniform<i8<-127:127>:f32, 0.5>
!Y = !quant.uniform<i8:f32, 0.25>
func.func @sparse_code_outside_narrow_range() -> tensor<1099511627776x!Y> {
  %c = arith.constant sparse<[[7]], [-128]> : tensor<1099511627776xi8>
  %w = quant.scast %c : tensor<1099511627776xi8> to tensor<1099511627776x!W>
  // expected-error@+1 {{'qnt.requantize' op operand #0 is a constant with code -128 outside the storage range [-127, 127]}}
  %y = qnt.requantize %w : tensor<1099511627776x!W> -> tensor<1099511627776x!Y>
  return %y : tensor<1099511627776x!Y>
}

// -----

// ... and so are the elements it does not store, which hold code 0 (the
// stored -56 is u8 code 200, in range).
!W = !quant.uniform<u8<1:255>:f32, 0.5:128>
!Y = !quant.uniform<i8:f32, 0.25>
func.func @sparse_implicit_zero_outside_range() -> tensor<4x!Y> {
  %c = arith.constant sparse<[[1]], [-56]> : tensor<4xi8>
  %w = quant.scast %c : tensor<4xi8> to tensor<4x!W>
  // expected-error@+1 {{'qnt.requantize' op operand #0 is a constant with code 0 outside the storage range [1, 255]}}
  %y = qnt.requantize %w : tensor<4x!W> -> tensor<4x!Y>
  return %y : tensor<4x!Y>
}

// -----

// The same rule for weights in a dense_resource blob (as importers and
// torch-mlir write them), which the verifier did not read: the narrow type
// promises [-127, 127], the second code is 0x80 = -128.
!W = !quant.uniform<i8<-127:127>:f32, 0.5>
!Y = !quant.uniform<i8:f32, 0.25>
func.func @resource_code_outside_narrow_range() -> tensor<4x!Y> {
  %c = arith.constant dense_resource<narrow_weights> : tensor<4xi8>
  %w = quant.scast %c : tensor<4xi8> to tensor<4x!W>
  // expected-error@+1 {{'qnt.requantize' op operand #0 is a constant with code -128 outside the storage range [-127, 127]}}
  %y = qnt.requantize %w : tensor<4x!W> -> tensor<4x!Y>
  return %y : tensor<4x!Y>
}
{-#
  dialect_resources: {
    builtin: {
      narrow_weights: "0x010000007F807F00"
    }
  }
#-}

// -----

// A bias in a dense_resource blob counts toward the bound like a dense one
// (invalid.mlir, @matmul_overflow_with_bias): the blob holds -20000
// (0xFFFFB1E0, little-endian after the 4-byte alignment word).
!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @matmul_overflow_with_resource_bias(%x: tensor<1x131071x!X>, %w: tensor<131071x1x!W>) {
  %c = arith.constant dense_resource<bias_blob> : tensor<1xi32>
  %b = quant.scast %c : tensor<1xi32> to tensor<1x!A>
  // expected-error@+1 {{K * max|x - z_x| * max|w - z_w| + max|bias| = 131071 * 128 * 128 + 20000 = 2147487264 exceeds 2147483647}}
  %a = qnt.matmul %x, %w, %b : tensor<1x131071x!X>, tensor<131071x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
  return
}
{-#
  dialect_resources: {
    builtin: {
      bias_blob: "0x04000000E0B1FFFF"
    }
  }
#-}
