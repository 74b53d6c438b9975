// qnt-network-to-integer: TFLite's add multipliers worked by hand from the
// scales, the pool attributes, and concat's requantize-then-concat.
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-network-to-integer))" | FileCheck %s

// S_a = 0.05, S_b = 0.1, S_y = 0.125, 8-bit result: left_shift = 20,
// twice_max = 0.2 (0.05, 0.1 and 0.2 share one significand in double, so
// the ratios are exact):
//   M_a = 0.05 / 0.2 = 0.25 = 0.5 * 2^-1  -> 2^30 = 1073741824, shift 1
//   M_b = 0.1 / 0.2 = 0.5                 -> 1073741824, shift 0
//   M_out = 0.2 / (2^20 * 0.125) = 0.8 * 2^-19 -> round(0.8 * 2^31) =
//           round(1717986918.4) = 1717986918, shift 19
// float: f32(0.05) / 0.125 = 0.4, f32(0.1) / 0.125 = 0.8 (divisions by a
// power of two are exact). The clamp becomes min / max.
// CHECK-LABEL: func.func @add_i8
// CHECK: %[[A:.*]] = quant.scast %arg0 : tensor<1x4x4x8x!quant.uniform<i8:f32, 5.000000e-02:-3>> to tensor<1x4x4x8xi8>
// CHECK: %[[B:.*]] = quant.scast %arg1 : tensor<1x1x1x8x!quant.uniform<u8:f32, 1.000000e-01:128>> to tensor<1x1x1x8xi8>
// CHECK: %[[Y:.*]] = qnt.int_add %[[A]], %[[B]] {a_float_multiplier = 4.000000e-01 : f32, a_multiplier = 1073741824 : i32, a_shift = 1 : i32, a_zero_point = -3 : i32,
// CHECK-SAME: b_float_multiplier = 8.000000e-01 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_unsigned, b_zero_point = 128 : i32,
// CHECK-SAME: left_shift = 20 : i32, max = 127 : i32, min = 0 : i32, output_multiplier = 1717986918 : i32, output_shift = 19 : i32, output_zero_point = -1 : i32, rounding = "double"}
// CHECK-SAME: : tensor<1x4x4x8xi8>, tensor<1x1x1x8xi8> -> tensor<1x4x4x8xi8>
// CHECK: quant.scast %[[Y]] : tensor<1x4x4x8xi8> to tensor<1x4x4x8x!quant.uniform<i8:f32, 1.250000e-01:-1>>
!A = !quant.uniform<i8:f32, 0.05:-3>
!B = !quant.uniform<u8:f32, 0.1:128>
!Y = !quant.uniform<i8:f32, 0.125:-1>
func.func @add_i8(%a: tensor<1x4x4x8x!A>, %b: tensor<1x1x1x8x!B>) -> tensor<1x4x4x8x!Y> {
  %y = qnt.add %a, %b {clamp = array<i64: 0, 127>} : tensor<1x4x4x8x!A>, tensor<1x1x1x8x!B> -> tensor<1x4x4x8x!Y>
  return %y : tensor<1x4x4x8x!Y>
}

// i16 everywhere at 0.001: left_shift = 15, twice_max = 0.002 (exactly
// 2 * 0.001), M_a = M_b = 0.5 -> 1073741824, shift 0;
// M_out = 0.002 / (2^15 * 0.001) = 2^-14 = 0.5 * 2^-13 -> 1073741824, shift 13;
// the u8-style result range is the i16 range.
// CHECK-LABEL: func.func @add_i16
// CHECK: qnt.int_add {{.*}}a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
// CHECK-SAME: b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 0 : i32,
// CHECK-SAME: left_shift = 15 : i32, max = 32767 : i32, min = -32768 : i32, output_multiplier = 1073741824 : i32, output_shift = 13 : i32, output_zero_point = 0 : i32, rounding = "single"}
!S = !quant.uniform<i16:f32, 0.001>
func.func @add_i16(%a: tensor<4x!S>, %b: tensor<4x!S>) -> tensor<4x!S> {
  %y = qnt.add %a, %b {rounding = "single"} : tensor<4x!S>, tensor<4x!S> -> tensor<4x!S>
  return %y : tensor<4x!S>
}

// S_a = 1, S_b = 0.25, S_y = 2^-25: twice_max = 2, M_a = 0.5 (shift 0),
// M_b = 0.125 = 0.5 * 2^-2 (shift 2), M_out = 2 / (2^20 * 2^-25) = 64 =
// 0.5 * 2^7: M_out >= 1 is kept, as a left shift of 7 (shift -7).
// CHECK-LABEL: func.func @add_tiny_output_scale
// CHECK: qnt.int_add {{.*}}a_multiplier = 1073741824 : i32, a_shift = 0 : i32,
// CHECK-SAME: b_multiplier = 1073741824 : i32, b_shift = 2 : i32,
// CHECK-SAME: output_multiplier = 1073741824 : i32, output_shift = -7 : i32
!T1 = !quant.uniform<u8:f32, 1.0:0>
!T2 = !quant.uniform<u8:f32, 0.25:0>
!TY = !quant.uniform<u8:f32, 2.98023223876953125E-8:0>
func.func @add_tiny_output_scale(%a: tensor<4x!T1>, %b: tensor<4x!T2>) -> tensor<4x!TY> {
  %y = qnt.add %a, %b : tensor<4x!T1>, tensor<4x!T2> -> tensor<4x!TY>
  return %y : tensor<4x!TY>
}

// CHECK-LABEL: func.func @pools
// CHECK: %[[X:.*]] = quant.scast %arg0 : {{.*}} to tensor<1x8x8x2xi8>
// CHECK: %[[M:.*]] = qnt.int_max_pool2d %[[X]] {dilations = array<i64: 2, 2>, input_unsigned, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>} : tensor<1x8x8x2xi8> -> tensor<1x6x6x2xi8>
// CHECK: quant.scast %[[M]]
// CHECK: %[[X2:.*]] = quant.scast %arg1 : {{.*}} to tensor<1x8x8x2xi8>
// CHECK: %[[P:.*]] = qnt.int_avg_pool2d %[[X2]] {count_include_pad, kernel = array<i64: 3, 3>, max = 127 : i32, min = -128 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, zero_points = array<i32: 1, -2>} : tensor<1x8x8x2xi8> -> tensor<1x4x4x2xi8>
// CHECK: quant.scast %[[P]]
!X = !quant.uniform<u8:f32, 0.25:128>
!XC = !quant.uniform<i8:f32:3, {0.5:1, 0.25:-2}>
func.func @pools(%x: tensor<1x8x8x2x!X>, %xc: tensor<1x8x8x2x!XC>) -> (tensor<1x6x6x2x!X>, tensor<1x4x4x2x!XC>) {
  %m = qnt.max_pool2d %x {kernel = array<i64: 3, 3>, dilations = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : tensor<1x8x8x2x!X> -> tensor<1x6x6x2x!X>
  %p = qnt.avg_pool2d %xc {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>, count_include_pad = true}
       : tensor<1x8x8x2x!XC> -> tensor<1x4x4x2x!XC>
  return %m, %p : tensor<1x6x6x2x!X>, tensor<1x4x4x2x!XC>
}

// Only %a (scale 0.05) is requantized, with the concat's rounding and no
// clamp; %b has the result's parameters and %n too (narrow storage, the bits
// are reinterpreted).
// CHECK-LABEL: func.func @concat
// CHECK: %[[RA:.*]] = qnt.requantize %arg0 {rounding = "away"} : tensor<1x4x!quant.uniform<i8:f32, 5.000000e-02:-3>> -> tensor<1x4x!quant.uniform<i8:f32, 1.250000e-01:-1>>
// CHECK: %[[NC:.*]] = quant.scast %arg2 : tensor<1x1x!quant.uniform<i8<-127:127>:f32, 1.250000e-01:-1>> to tensor<1x1xi8>
// CHECK: %[[N:.*]] = quant.scast %[[NC]] : tensor<1x1xi8> to tensor<1x1x!quant.uniform<i8:f32, 1.250000e-01:-1>>
// CHECK: tensor.concat dim(1) %[[RA]], %arg1, %[[N]] : (tensor<1x4x!quant.uniform<i8:f32, 1.250000e-01:-1>>, tensor<1x3x!quant.uniform<i8:f32, 1.250000e-01:-1>>, tensor<1x1x!quant.uniform<i8:f32, 1.250000e-01:-1>>) -> tensor<1x8x!quant.uniform<i8:f32, 1.250000e-01:-1>>
!N = !quant.uniform<i8<-127:127>:f32, 0.125:-1>
func.func @concat(%a: tensor<1x4x!A>, %b: tensor<1x3x!Y>, %n: tensor<1x1x!N>) -> tensor<1x8x!Y> {
  %c = qnt.concat %a, %b, %n {axis = 1 : i64, rounding = "away"} : tensor<1x4x!A>, tensor<1x3x!Y>, tensor<1x1x!N> -> tensor<1x8x!Y>
  return %c : tensor<1x8x!Y>
}

// A single operand with the result's parameters is the operand itself.
// CHECK-LABEL: func.func @concat_identity
// CHECK-NEXT: return %arg0
func.func @concat_identity(%b: tensor<1x3x!Y>) -> tensor<1x3x!Y> {
  %c = qnt.concat %b {axis = 0 : i64} : tensor<1x3x!Y> -> tensor<1x3x!Y>
  return %c : tensor<1x3x!Y>
}

// rounding = "float" near f32's limit (found by utils/onnx-diff-fuzz.py):
// S_y = 1e-35, so r_a = 11.3627 / 1e-35 = 1.13627e36 and r_b = 5.28285e35.
// qnt.add bounds the sum by the codes' largest differences from their zero
// points, max(127 - 15, 15 + 128) = 143 and max(127 + 34, -34 + 128) = 161:
// 143 * 1.13627e36 + 161 * 5.28285e35 = 2.46e38 < FLT_MAX = 3.40e38. The
// int_add it becomes must accept it too (it used 255 for both and rejected
// the module the importer had written, 4.24e38).
// CHECK-LABEL: func.func @add_float_near_f32_max
// CHECK: qnt.int_add {{.*}}rounding = "float"
!FA = !quant.uniform<i8:f32, 11.362707138061523:15>
!FB = !quant.uniform<i8:f32, 5.2828526496887207:-34>
!FY = !quant.uniform<i8:f32, 1.0e-35:-82>
func.func @add_float_near_f32_max(%a: tensor<4x!FA>, %b: tensor<4x!FB>) -> tensor<4x!FY> {
  %y = qnt.add %a, %b {rounding = "float"} : tensor<4x!FA>, tensor<4x!FB> -> tensor<4x!FY>
  return %y : tensor<4x!FY>
}
