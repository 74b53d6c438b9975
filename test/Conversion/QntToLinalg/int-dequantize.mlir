// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// (f32(q) - f32(z)) * s in that order; u8 codes convert as unsigned.
// CHECK-LABEL: func.func @per_tensor_u8
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<2xi8>) outs(%{{.*}} : tensor<2xf32>)
// CHECK: ^bb0(%[[Q:.*]]: i8, %{{.*}}: f32):
// CHECK: %[[S:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: %[[QF:.*]] = arith.uitofp %[[Q]] : i8 to f32
// CHECK: %[[ZF:.*]] = arith.constant 1.280000e+02 : f32
// CHECK: %[[C:.*]] = arith.subf %[[QF]], %[[ZF]] : f32
// CHECK: %[[R:.*]] = arith.mulf %[[C]], %[[S]] : f32
// CHECK: linalg.yield %[[R]] : f32
func.func @per_tensor_u8(%q: tensor<2xi8>) -> tensor<2xf32> {
  %r = qnt.int_dequantize %q {scales = array<f32: 0.25>, zero_points = array<i32: 128>, input_unsigned}
       : tensor<2xi8> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// Per channel on the last axis of i16 codes: signed conversion, the zero
// point converted per element.
// CHECK-DAG: #[[$CH:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @per_channel_i16
// CHECK: %[[S:.*]] = arith.constant dense<[1.000000e-01, 2.000000e-01, 3.000000e-01]> : tensor<3xf32>
// CHECK: %[[Z:.*]] = arith.constant dense<[-1, 0, 1]> : tensor<3xi32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$CH]], #[[$CH]], #{{.*}}]
// CHECK: ^bb0(%[[Q:.*]]: i16, %[[SV:.*]]: f32, %[[ZV:.*]]: i32, %{{.*}}: f32):
// CHECK: %[[QF:.*]] = arith.sitofp %[[Q]] : i16 to f32
// CHECK: %[[ZF:.*]] = arith.sitofp %[[ZV]] : i32 to f32
// CHECK: %[[C:.*]] = arith.subf %[[QF]], %[[ZF]] : f32
// CHECK: arith.mulf %[[C]], %[[SV]] : f32
func.func @per_channel_i16(%q: tensor<4x3xi16>) -> tensor<4x3xf32> {
  %r = qnt.int_dequantize %q {scales = array<f32: 0.1, 0.2, 0.3>, zero_points = array<i32: -1, 0, 1>, axis = 1}
       : tensor<4x3xi16> -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
