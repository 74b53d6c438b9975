// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-riscv-v,canonicalize,cse))" | FileCheck %s

// A requantize that is the only user of the kernel's result is applied to
// the scalable accumulators in registers and the kernel stores i8 codes.
// Per-channel parameters are tables of N entries: full column chunks read
// them as they are, the last, partial chunk under the chunk's mask. Output
// zero point -5 and clamp [-128, 127] ("double" mode): lo - z = -123,
// hi - z = 132.
// CHECK-LABEL: func.func @per_channel
// CHECK-DAG: %[[MULT:.*]] = arith.constant dense<[1073741824, 1610612736]> : tensor<2xi32>
// CHECK-DAG: arith.constant dense<-123> : vector<[16]xi32>
// CHECK-DAG: arith.constant dense<132> : vector<[16]xi32>
// CHECK-NOT: qnt.int_requantize
// CHECK: vector.transfer_read %[[MULT]][%{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2xi32>, vector<[16]xi32>
// CHECK: vector.transfer_write {{.*}} : vector<[16]xi8>, tensor<2x2xi8>
// CHECK: %[[MASK:.*]] = vector.create_mask {{.*}} : vector<[16]xi1>
// CHECK: vector.transfer_read %[[MULT]][%{{.*}}], %{{.*}}, %[[MASK]] {in_bounds = [true]} : tensor<2xi32>, vector<[16]xi32>
// CHECK: vector.transfer_write {{.*}}, %[[MASK]] {in_bounds = [true]} : vector<[16]xi8>, tensor<2x2xi8>
// CHECK-NOT: qnt.int_requantize
// CHECK: return {{.*}} : tensor<2x2xi8>
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
// CHECK: vector.transfer_write {{.*}} : vector<[16]xi32>, tensor<2x2xi32>
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
