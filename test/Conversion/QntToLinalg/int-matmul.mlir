// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// u8 x i8 with an input zero point and per-channel weight zero points: the
// bias is the initial accumulator, the body extends each operand by its own
// signedness and subtracts both zero points before the multiply.
// CHECK-DAG: #[[$X:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[$N:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-DAG: #[[$ACC:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @zero_points
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi8>, %[[W:.*]]: tensor<3x4xi8>, %[[B:.*]]: tensor<4xi32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x4xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xi32>) outs(%[[INIT]] : tensor<2x4xi32>) dimensions = [0]
// CHECK: %[[ZW:.*]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$X]], #[[$W]], #[[$N]], #[[$ACC]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]], %[[W]], %[[ZW]] : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32>) outs(%[[BIAS]] : tensor<2x4xi32>)
// CHECK: ^bb0(%[[XV:.*]]: i8, %[[WV:.*]]: i8, %[[ZWV:.*]]: i32, %[[ACCV:.*]]: i32):
// CHECK: %[[XE:.*]] = arith.extui %[[XV]] : i8 to i32
// CHECK: %[[WE:.*]] = arith.extsi %[[WV]] : i8 to i32
// CHECK: %[[ZX:.*]] = arith.constant 3 : i32
// CHECK: %[[XS:.*]] = arith.subi %[[XE]], %[[ZX]] : i32
// CHECK: %[[WS:.*]] = arith.subi %[[WE]], %[[ZWV]] : i32
// CHECK: %[[P:.*]] = arith.muli %[[XS]], %[[WS]] : i32
// CHECK: %[[S:.*]] = arith.addi %[[ACCV]], %[[P]] : i32
// CHECK: linalg.yield %[[S]] : i32
// CHECK: return %[[R]]
func.func @zero_points(%x: tensor<2x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 3 : i32, weight_zero_points = array<i32: 1, 2, 3, 4>, x_unsigned}
       : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}

// -----

// A per-tensor weight zero point is a constant in the body, not an operand.
// CHECK-LABEL: func.func @per_tensor_weight_zero_point
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %{{.*}} : tensor<1x2xi8>, tensor<2x1xi8>)
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[ZW:.*]] = arith.constant -7 : i32
// CHECK-NEXT: %[[XE:.*]] = arith.extsi
// CHECK-NEXT: %[[WE:.*]] = arith.extsi
// CHECK-NEXT: %[[WS:.*]] = arith.subi %[[WE]], %[[ZW]] : i32
// CHECK: arith.muli %[[XE]], %[[WS]] : i32
func.func @per_tensor_weight_zero_point(%x: tensor<1x2xi8>, %w: tensor<2x1xi8>, %b: tensor<1xi32>) -> tensor<1x1xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: -7>}
       : tensor<1x2xi8>, tensor<2x1xi8>, tensor<1xi32> -> tensor<1x1xi32>
  return %a : tensor<1x1xi32>
}

// -----

// Without zero points and with one signedness, a named linalg.matmul does the
// extension itself: cast_unsigned for u8 x u8.
// CHECK-LABEL: func.func @unsigned_no_zero_points
// CHECK-SAME: %[[X:.*]]: tensor<?x3xi8>, %[[W:.*]]: tensor<3x4xi8>, %[[B:.*]]: tensor<4xi32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[M:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xi8>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[M]]) : tensor<?x4xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xi32>) outs(%[[INIT]] : tensor<?x4xi32>) dimensions = [0]
// CHECK: linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%[[X]], %[[W]] : tensor<?x3xi8>, tensor<3x4xi8>) outs(%[[BIAS]] : tensor<?x4xi32>) -> tensor<?x4xi32>
func.func @unsigned_no_zero_points(%x: tensor<?x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<?x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned, w_unsigned}
       : tensor<?x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<?x4xi32>
  return %a : tensor<?x4xi32>
}

// -----

// i8 x i8: linalg.matmul's default signed cast.
// CHECK-LABEL: func.func @signed_no_zero_points
// CHECK: linalg.matmul ins(
// CHECK-NOT: linalg.generic
func.func @signed_no_zero_points(%x: tensor<2x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0, 0, 0, 0>}
       : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}

// -----

// u8 x i8 without zero points still needs the generic: linalg.matmul has one
// cast for both operands.
// CHECK-LABEL: func.func @mixed_signedness
// CHECK-NOT: linalg.matmul
// CHECK: linalg.generic
// CHECK: arith.extui %{{.*}} : i8 to i32
// CHECK: arith.extsi %{{.*}} : i8 to i32
// CHECK-NOT: arith.subi
// CHECK: arith.muli
// CHECK: arith.addi
func.func @mixed_signedness(%x: tensor<2x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}
