// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// u8 (s = 0.25, z = 128): x / s in f32 (a division, not a reciprocal
// multiply), round half to even, NaN to the zero point, clamp in f32 to
// [0 - 128, 255 - 128] before fptosi, add z, keep the low 8 bits.
// CHECK-LABEL: func.func @per_tensor_u8
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2xi8>
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<2xf32>) outs(%[[INIT]] : tensor<2xi8>)
// CHECK: ^bb0(%[[X:.*]]: f32, %{{.*}}: i8):
// CHECK: %[[S:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[Z:.*]] = arith.constant 128 : i32
// CHECK: %[[V:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[R:.*]] = math.roundeven %[[V]] : f32
// CHECK: %[[SEL:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[R]] : f32
// CHECK: %[[LO:.*]] = arith.constant -1.280000e+02 : f32
// CHECK: %[[HI:.*]] = arith.constant 1.270000e+02 : f32
// CHECK: %[[C1:.*]] = arith.maxnumf %[[SEL]], %[[LO]] : f32
// CHECK: %[[C2:.*]] = arith.minnumf %[[C1]], %[[HI]] : f32
// CHECK: %[[I:.*]] = arith.fptosi %[[C2]] : f32 to i32
// CHECK: %[[Q:.*]] = arith.addi %[[I]], %[[Z]] : i32
// CHECK: %[[Q8:.*]] = arith.trunci %[[Q]] : i32 to i8
// CHECK: linalg.yield %[[Q8]] : i8
func.func @per_tensor_u8(%x: tensor<2xf32>) -> tensor<2xi8> {
  %q = qnt.int_quantize %x {scales = array<f32: 0.25>, zero_points = array<i32: 128>, min = 0 : i32, max = 255 : i32, output_unsigned}
       : tensor<2xf32> -> tensor<2xi8>
  return %q : tensor<2xi8>
}

// -----

// Per channel on axis 0 of a dynamically shaped tensor, narrow range: the
// scales and zero points are read per row and the f32 bounds computed from
// each row's zero point.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$ROW:.*]] = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @per_channel
// CHECK-SAME: %[[ARG:.*]]: tensor<2x?xf32>
// CHECK: %[[S:.*]] = arith.constant dense<[5.000000e-01, 2.500000e-01]> : tensor<2xf32>
// CHECK: %[[Z:.*]] = arith.constant dense<[0, 3]> : tensor<2xi32>
// CHECK: %[[DIM:.*]] = tensor.dim %[[ARG]], %{{.*}} : tensor<2x?xf32>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[DIM]]) : tensor<2x?xi8>
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$ROW]], #[[$ROW]], #[[$ID]]]
// CHECK-SAME: ins(%[[ARG]], %[[S]], %[[Z]] : tensor<2x?xf32>, tensor<2xf32>, tensor<2xi32>) outs(%[[INIT]] : tensor<2x?xi8>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[SV:.*]]: f32, %[[ZV:.*]]: i32, %{{.*}}: i8):
// CHECK: arith.divf %[[X]], %[[SV]] : f32
// CHECK: %[[LOI:.*]] = arith.subi %{{.*}}, %[[ZV]] : i32
// CHECK: %[[LO:.*]] = arith.sitofp %[[LOI]] : i32 to f32
// CHECK: %[[HII:.*]] = arith.subi %{{.*}}, %[[ZV]] : i32
// CHECK: %[[HI:.*]] = arith.sitofp %[[HII]] : i32 to f32
// CHECK: arith.maxnumf %{{.*}}, %[[LO]] : f32
// CHECK: arith.minnumf %{{.*}}, %[[HI]] : f32
// CHECK: %[[I:.*]] = arith.fptosi %{{.*}} : f32 to i32
// CHECK: arith.addi %[[I]], %[[ZV]] : i32
func.func @per_channel(%x: tensor<2x?xf32>) -> tensor<2x?xi8> {
  %q = qnt.int_quantize %x {scales = array<f32: 0.5, 0.25>, zero_points = array<i32: 0, 3>, min = -127 : i32, max = 127 : i32, axis = 0}
       : tensor<2x?xf32> -> tensor<2x?xi8>
  return %q : tensor<2x?xi8>
}
