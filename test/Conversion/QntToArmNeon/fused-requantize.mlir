// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-arm-neon,canonicalize,cse))" | FileCheck %s

// A requantize that is the only user of the kernel's result is applied to
// the accumulators in registers: the kernel stores i8 codes (rows of 4
// columns), and the per-channel parameters become tables padded to the
// kernel's 8 columns (zero past N = 2). Its output zero point -5 and clamp
// [-128, 127] ("double" mode) become lo - z = -123, hi - z = 132.
// CHECK-LABEL: func.func @per_channel
// CHECK-DAG: arith.constant dense<[1073741824, 1610612736, 0, 0, 0, 0, 0, 0]> : tensor<8xi32>
// CHECK-DAG: arith.constant dense<[3, -1, 0, 0, 0, 0, 0, 0]> : tensor<8xi32>
// CHECK-DAG: arith.constant dense<-123> : vector<4xi32>
// CHECK-DAG: arith.constant dense<132> : vector<4xi32>
// CHECK-NOT: qnt.int_requantize
// CHECK: arm_neon.intr.smmla
// CHECK: vector.transfer_read {{.*}} : tensor<8xi32>, vector<4xi32>
// CHECK: arith.trunci {{.*}} : vector<4xi32> to vector<4xi8>
// CHECK: vector.transfer_write {{.*}} : vector<4xi8>, tensor<2x8xi8>
// CHECK-NOT: qnt.int_requantize
// CHECK: tensor.extract_slice {{.*}} : tensor<2x8xi8> to tensor<2x2xi8>
func.func @per_channel(%x: tensor<2x8xi8>, %w: tensor<8x2xi8>, %b: tensor<2xi32>) -> tensor<2x2xi8> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
      : tensor<2x8xi8>, tensor<8x2xi8>, tensor<2xi32> -> tensor<2x2xi32>
  %r = qnt.int_requantize %a {axis = 1 : i64, input_zero_points = array<i32: 0>,
      multipliers = array<i32: 1073741824, 1610612736>, shifts = array<i32: 3, -1>,
      float_multipliers = array<f32: 0.0>, output_zero_points = array<i32: -5>,
      min = -128 : i32, max = 127 : i32, rounding = "double"} : tensor<2x2xi32> -> tensor<2x2xi8>
  return %r : tensor<2x2xi8>
}

// -----

// The i32 result has a second user: the kernel stores i32, and the
// requantize stays.
// CHECK-LABEL: func.func @two_users
// CHECK: arm_neon.intr.smmla
// CHECK: vector.transfer_write {{.*}} : vector<4xi32>, tensor<2x8xi32>
// CHECK: qnt.int_requantize {{.*}} : tensor<2x2xi32> -> tensor<2x2xi8>
func.func @two_users(%x: tensor<2x8xi8>, %w: tensor<8x2xi8>, %b: tensor<2xi32>) -> (tensor<2x2xi8>, tensor<2x2xi32>) {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
      : tensor<2x8xi8>, tensor<8x2xi8>, tensor<2xi32> -> tensor<2x2xi32>
  %r = qnt.int_requantize %a {input_zero_points = array<i32: 0>,
      multipliers = array<i32: 1073741824>, shifts = array<i32: 3>,
      float_multipliers = array<f32: 0.0>, output_zero_points = array<i32: 0>,
      min = -128 : i32, max = 127 : i32, rounding = "double"} : tensor<2x2xi32> -> tensor<2x2xi8>
  return %r, %a : tensor<2x2xi8>, tensor<2x2xi32>
}

// -----

// A conv's requantize, u8 codes in mode "float": the f32 multiplier is a
// splat, and the codes go back to NHWC through the result's shape.
// CHECK-LABEL: func.func @conv_float
// CHECK-NOT: qnt.int_requantize
// CHECK: arith.constant dense<2.500000e-01> : vector<4xf32>
// CHECK: arm_neon.intr.smmla
// CHECK: vector.transfer_write {{.*}} : vector<4xi8>, tensor<4x8xi8>
// CHECK: tensor.expand_shape {{.*}} into tensor<1x2x2x3xi8>
func.func @conv_float(%x: tensor<1x2x2x4xi8>) -> tensor<1x2x2x3xi8> {
  %w = arith.constant dense<1> : tensor<1x1x4x3xi8>
  %b = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %a = qnt.int_conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64,
      input_zero_point = 0 : i32, pad_value = 0 : i32, padding = array<i64: 0, 0, 0, 0>,
      strides = array<i64: 1, 1>, weight_zero_points = array<i32: 0>}
      : tensor<1x2x2x4xi8>, tensor<1x1x4x3xi8>, tensor<3xi32> -> tensor<1x2x2x3xi32>
  %r = qnt.int_requantize %a {input_zero_points = array<i32: 0>,
      multipliers = array<i32: 0>, shifts = array<i32: 0>,
      float_multipliers = array<f32: 0.25>, output_zero_points = array<i32: 7>,
      min = 0 : i32, max = 255 : i32, rounding = "float", output_unsigned} : tensor<1x2x2x3xi32> -> tensor<1x2x2x3xi8>
  return %r : tensor<1x2x2x3xi8>
}
