// qnt-fixed-point-multiplier: M = S_in / S_out (in double) becomes
// M ~= M0 * 2^-31 * 2^-n with M0 = round(q * 2^31) for frexp(M) = q * 2^e,
// q in [0.5, 1), and n = -e (TFLite's QuantizeMultiplier). Every value below
// is derived by hand from that rule.
// RUN: quant-opt %s -qnt-fixed-point-multiplier -split-input-file | FileCheck %s

// The contract's worked example: M = 0.0072 / 1.0 = 0.9216 * 2^-7;
// 0.9216 * 2^31 = 1979120929.9968 -> M0 = 1979120930, n = 7.
// float_multipliers = f32(0.0072) / f32(1.0) = f32(0.0072).
// No clamp: [min, max] is the i8 storage range.
// CHECK-LABEL: func.func @seed_m0
// CHECK-SAME: (%[[A:.*]]: tensor<2x2x!quant.uniform<i32:f32, 7.200000e-03>>)
// CHECK: %[[AI:.*]] = quant.scast %[[A]] : tensor<2x2x!quant.uniform<i32:f32, 7.200000e-03>> to tensor<2x2xi32>
// CHECK: %[[Y:.*]] = qnt.int_requantize %[[AI]] {float_multipliers = array<f32: 7.200000e-03>, input_zero_points = array<i32: 0>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 1979120930>, output_zero_points = array<i32: 0>, rounding = "double", shifts = array<i32: 7>} : tensor<2x2xi32> -> tensor<2x2xi8>
// CHECK: %[[R:.*]] = quant.scast %[[Y]] : tensor<2x2xi8> to tensor<2x2x!quant.uniform<i8:f32, 1.000000e+00>>
// CHECK-NOT: qnt.requantize
// CHECK: return %[[R]]
func.func @seed_m0(%a: tensor<2x2x!quant.uniform<i32:f32, 0.0072>>) -> tensor<2x2x!quant.uniform<i8:f32, 1.0>> {
  %y = qnt.requantize %a : tensor<2x2x!quant.uniform<i32:f32, 0.0072>> -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
  return %y : tensor<2x2x!quant.uniform<i8:f32, 1.0>>
}

// -----

// M = 0.3 = 0.6 * 2^-1; 0.6 * 2^31 = 1288490188.8 -> M0 = 1288490189, n = 1.
// u8 output with Z = 10: the clamp [10, 70] (a fused ReLU in codes) narrows
// [0, 255]; the rounding name is copied.
// CHECK-LABEL: func.func @m_0_3_clamped
// CHECK: qnt.int_requantize %{{.*}} {float_multipliers = array<f32: 3.000000e-01>, input_zero_points = array<i32: 0>, max = 70 : i32, min = 10 : i32, multipliers = array<i32: 1288490189>, output_unsigned, output_zero_points = array<i32: 10>, rounding = "single", shifts = array<i32: 1>} : tensor<4xi32> -> tensor<4xi8>
// CHECK: quant.scast %{{.*}} : tensor<4xi8> to tensor<4x!quant.uniform<u8:f32, 1.000000e+00:10>>
func.func @m_0_3_clamped(%a: tensor<4x!quant.uniform<i32:f32, 0.3>>) -> tensor<4x!quant.uniform<u8:f32, 1.0:10>> {
  %y = qnt.requantize %a {rounding = "single", clamp = array<i64: 10, 70>} : tensor<4x!quant.uniform<i32:f32, 0.3>> -> tensor<4x!quant.uniform<u8:f32, 1.0:10>>
  return %y : tensor<4x!quant.uniform<u8:f32, 1.0:10>>
}

// -----

// M >= 1: M = 0.5 / 0.25 = 2.0 = 0.5 * 2^2, so M0 = 0.5 * 2^31 = 2^30 =
// 1073741824 and n = -2 (a left shift): 2^30 * 2^-31 * 2^2 = 2. An i8 input
// with zero point 3 into i16 storage: the input zero point and the i16 range
// are carried over.
// CHECK-LABEL: func.func @m_ge_one
// CHECK: qnt.int_requantize %{{.*}} {float_multipliers = array<f32: 2.000000e+00>, input_zero_points = array<i32: 3>, max = 32767 : i32, min = -32768 : i32, multipliers = array<i32: 1073741824>, output_zero_points = array<i32: 0>, rounding = "double", shifts = array<i32: -2>} : tensor<3xi8> -> tensor<3xi16>
func.func @m_ge_one(%a: tensor<3x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<3x!quant.uniform<i16:f32, 0.25>> {
  %y = qnt.requantize %a : tensor<3x!quant.uniform<i8:f32, 0.5:3>> -> tensor<3x!quant.uniform<i16:f32, 0.25>>
  return %y : tensor<3x!quant.uniform<i16:f32, 0.25>>
}

// -----

// Tiny multipliers. M = 1e-10 = 0.859 * 2^-33 is below 2^-32 (~2.33e-10):
// flushed to M0 = 0, n = 0, which is exact because |x * M| < 2^31 * 2^-32 =
// 0.5 rounds to 0 for every int32 x. M = 3e-10 lies in [2^-32, 2^-31) and
// is not flushed: 3e-10 = 0.644 * 2^-31, M0 = round(3e-10 * 2^62) =
// round(1383505805.53) = 1383505806, n = 31 (the largest shift gemmlowp's
// RoundingDivideByPOT accepts).
// CHECK-LABEL: func.func @tiny
// CHECK: qnt.int_requantize %{{.*}}multipliers = array<i32: 0>{{.*}}shifts = array<i32: 0>}
// CHECK: qnt.int_requantize %{{.*}}multipliers = array<i32: 1383505806>{{.*}}shifts = array<i32: 31>}
func.func @tiny(%a: tensor<2x!quant.uniform<i32:f32, 1.0e-10>>, %b: tensor<2x!quant.uniform<i32:f32, 3.0e-10>>)
    -> (tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i8:f32, 1.0>>) {
  %y = qnt.requantize %a : tensor<2x!quant.uniform<i32:f32, 1.0e-10>> -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  %z = qnt.requantize %b : tensor<2x!quant.uniform<i32:f32, 3.0e-10>> -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return %y, %z : tensor<2x!quant.uniform<i8:f32, 1.0>>, tensor<2x!quant.uniform<i8:f32, 1.0>>
}

// -----

// Per-channel input (axis 1, scales {0.0072, 0.3}) into a per-tensor output:
// one M per channel, the two cases above: M0 = [1979120930, 1288490189],
// n = [7, 1]; axis = 1.
// CHECK-LABEL: func.func @per_channel_input
// CHECK: qnt.int_requantize %{{.*}} {axis = 1 : i64, float_multipliers = array<f32: 7.200000e-03, 3.000000e-01>, input_zero_points = array<i32: 0, 0>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 1979120930, 1288490189>, output_zero_points = array<i32: 0>, rounding = "double", shifts = array<i32: 7, 1>} : tensor<3x2xi32> -> tensor<3x2xi8>
func.func @per_channel_input(%a: tensor<3x2x!quant.uniform<i32:f32:1, {0.0072, 0.3}>>) -> tensor<3x2x!quant.uniform<i8:f32, 1.0>> {
  %y = qnt.requantize %a : tensor<3x2x!quant.uniform<i32:f32:1, {0.0072, 0.3}>> -> tensor<3x2x!quant.uniform<i8:f32, 1.0>>
  return %y : tensor<3x2x!quant.uniform<i8:f32, 1.0>>
}

// -----

// Per-channel output (axis 0, scales {1.0, 0.25}, zero points {1, -2}) from a
// per-tensor input of scale 0.5: M = [0.5, 2.0] = [0.5 * 2^0, 0.5 * 2^2],
// so M0 = [2^30, 2^30] and n = [0, -2]; axis = 0.
// CHECK-LABEL: func.func @per_channel_output
// CHECK: qnt.int_requantize %{{.*}} {axis = 0 : i64, float_multipliers = array<f32: 5.000000e-01, 2.000000e+00>, input_zero_points = array<i32: 0>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 1073741824, 1073741824>, output_zero_points = array<i32: 1, -2>, rounding = "away", shifts = array<i32: 0, -2>} : tensor<2x3xi32> -> tensor<2x3xi8>
func.func @per_channel_output(%a: tensor<2x3x!quant.uniform<i32:f32, 0.5>>) -> tensor<2x3x!quant.uniform<i8:f32:0, {1.0:1, 0.25:-2}>> {
  %y = qnt.requantize %a {rounding = "away"} : tensor<2x3x!quant.uniform<i32:f32, 0.5>> -> tensor<2x3x!quant.uniform<i8:f32:0, {1.0:1, 0.25:-2}>>
  return %y : tensor<2x3x!quant.uniform<i8:f32:0, {1.0:1, 0.25:-2}>>
}

// -----

// Mode "float" reads float_multipliers = f32(0.1) / f32(0.3), divided in
// f32: 0.100000001 / 0.300000012 = 0.333333313 (not f32(1/3) = 0.333333343).
// The integer fields are still filled: M = 0.1 / 0.3 (double) =
// 0.6667 * 2^-1, 0.6667 * 2^31 = 1431655765.33 -> 1431655765, n = 1.
// CHECK-LABEL: func.func @float_mode
// CHECK: qnt.int_requantize %{{.*}} {float_multipliers = array<f32: 0.333333313>, {{.*}}multipliers = array<i32: 1431655765>, {{.*}}rounding = "float", shifts = array<i32: 1>}
func.func @float_mode(%a: tensor<2x!quant.uniform<i32:f32, 0.1>>) -> tensor<2x!quant.uniform<i8:f32, 0.3>> {
  %y = qnt.requantize %a {rounding = "float"} : tensor<2x!quant.uniform<i32:f32, 0.1>> -> tensor<2x!quant.uniform<i8:f32, 0.3>>
  return %y : tensor<2x!quant.uniform<i8:f32, 0.3>>
}
