// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// u8 x i8 with an input zero point and per-channel weight zero points: the
// bias is the initial accumulator, one copy per row. The weights are
// transposed to N x K and a parallel linalg.generic over (m, n) carries the
// sum through an scf.for over k, innermost, which reads x[m, k] and wt[n, k]
// contiguously. The body extends each operand by its own signedness and
// subtracts both zero points before the multiply; the per-channel weight
// zero point is an input of the generic, indexed by n.
// CHECK-DAG: #[[$N:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[$ACC:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @zero_points
// CHECK-SAME: %[[X:.*]]: tensor<2x3xi8>, %[[W:.*]]: tensor<3x4xi8>, %[[B:.*]]: tensor<4xi32>
// CHECK: %[[INIT:.*]] = tensor.empty() : tensor<2x4xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xi32>) outs(%[[INIT]] : tensor<2x4xi32>) dimensions = [0]
// CHECK: %[[WTINIT:.*]] = tensor.empty() : tensor<4x3xi8>
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<3x4xi8>) outs(%[[WTINIT]] : tensor<4x3xi8>) permutation = [1, 0]
// CHECK: %[[ZW:.*]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
// CHECK: %[[R:.*]] = linalg.generic {indexing_maps = [#[[$N]], #[[$ACC]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[ZW]] : tensor<4xi32>) outs(%[[BIAS]] : tensor<2x4xi32>)
// CHECK: ^bb0(%[[ZWV:.*]]: i32, %[[ACCV:.*]]: i32):
// CHECK: %[[M:.*]] = linalg.index 0 : index
// CHECK: %[[NI:.*]] = linalg.index 1 : index
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[C1:.*]] = arith.constant 1 : index
// CHECK: %[[K:.*]] = arith.constant 3 : index
// CHECK: %[[SUM:.*]] = scf.for %[[KI:.*]] = %[[C0]] to %[[K]] step %[[C1]] iter_args(%[[S:.*]] = %[[ACCV]]) -> (i32) {
// CHECK: %[[XV:.*]] = tensor.extract %[[X]][%[[M]], %[[KI]]] : tensor<2x3xi8>
// CHECK: %[[WV:.*]] = tensor.extract %[[WT]][%[[NI]], %[[KI]]] : tensor<4x3xi8>
// CHECK: %[[XE:.*]] = arith.extui %[[XV]] : i8 to i32
// CHECK: %[[WE:.*]] = arith.extsi %[[WV]] : i8 to i32
// CHECK: %[[ZX:.*]] = arith.constant 3 : i32
// CHECK: %[[XS:.*]] = arith.subi %[[XE]], %[[ZX]] : i32
// CHECK: %[[WS:.*]] = arith.subi %[[WE]], %[[ZWV]] : i32
// CHECK: %[[P:.*]] = arith.muli %[[XS]], %[[WS]] : i32
// CHECK: %[[NEXT:.*]] = arith.addi %[[S]], %[[P]] : i32
// CHECK: scf.yield %[[NEXT]] : i32
// CHECK-NEXT: }{{$}}
// CHECK: linalg.yield %[[SUM]] : i32
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
// CHECK-SAME: outs(%{{.*}} : tensor<1x1xi32>)
// CHECK-NEXT: ^bb0(%{{.*}}: i32):
// CHECK: scf.for
// CHECK: %[[ZW:.*]] = arith.constant -7 : i32
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

// Without zero points the body is ext(x) * ext(w) + acc, the dot-product
// shape: zero extension for u8 x u8, and a dynamic M.
// CHECK-LABEL: func.func @unsigned_no_zero_points
// CHECK-SAME: %[[X:.*]]: tensor<?x3xi8>, %[[W:.*]]: tensor<3x4xi8>, %[[B:.*]]: tensor<4xi32>
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[M:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xi8>
// CHECK: %[[INIT:.*]] = tensor.empty(%[[M]]) : tensor<?x4xi32>
// CHECK: %[[BIAS:.*]] = linalg.broadcast ins(%[[B]] : tensor<4xi32>) outs(%[[INIT]] : tensor<?x4xi32>) dimensions = [0]
// CHECK: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<3x4xi8>)
// CHECK: linalg.generic {{.*}} outs(%[[BIAS]] : tensor<?x4xi32>)
// CHECK: scf.for
// CHECK: tensor.extract %[[X]]{{\[}}
// CHECK: tensor.extract %[[WT]]{{\[}}
// CHECK: %[[XE:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK-NEXT: %[[WE:.*]] = arith.extui %{{.*}} : i8 to i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[XE]], %[[WE]] : i32
// CHECK-NEXT: arith.addi %{{.*}}, %[[P]] : i32
// CHECK-NEXT: scf.yield
// CHECK: -> tensor<?x4xi32>
func.func @unsigned_no_zero_points(%x: tensor<?x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<?x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned, w_unsigned}
       : tensor<?x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<?x4xi32>
  return %a : tensor<?x4xi32>
}

// -----

// i8 x i8: sign extension of both, no subtraction.
// CHECK-LABEL: func.func @signed_no_zero_points
// CHECK-NOT: linalg.matmul
// CHECK: scf.for
// CHECK: %[[XE:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT: %[[WE:.*]] = arith.extsi %{{.*}} : i8 to i32
// CHECK-NEXT: %[[P:.*]] = arith.muli %[[XE]], %[[WE]] : i32
// CHECK-NEXT: arith.addi %{{.*}}, %[[P]] : i32
func.func @signed_no_zero_points(%x: tensor<2x3xi8>, %w: tensor<3x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0, 0, 0, 0>}
       : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}

// -----

// u8 x i8 without zero points: each operand keeps its own extension.
// CHECK-LABEL: func.func @mixed_signedness
// CHECK-NOT: linalg.matmul
// CHECK: scf.for
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

// -----

// Constant weights are transposed at compile time (no linalg.transpose, and
// the original constant is gone); a splat stays a splat.
// CHECK-LABEL: func.func @constant_weights
// CHECK-NOT: linalg.transpose
// CHECK-NOT: dense<{{\[\[}}1, 2]
// CHECK: %[[WT:.*]] = arith.constant dense<{{\[\[}}1, 3, 5], [2, 4, 6]]> : tensor<2x3xi8>
// CHECK: tensor.extract %[[WT]]{{\[}}
// CHECK: %[[ONES:.*]] = arith.constant dense<1> : tensor<1x3xi8>
// CHECK: tensor.extract %[[ONES]]{{\[}}
func.func @constant_weights(%x: tensor<4x3xi8>, %b: tensor<2xi32>, %b1: tensor<1xi32>) -> (tensor<4x2xi32>, tensor<4x1xi32>) {
  %w = arith.constant dense<[[1, 2], [3, 4], [5, 6]]> : tensor<3x2xi8>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<4x3xi8>, tensor<3x2xi8>, tensor<2xi32> -> tensor<4x2xi32>
  %ones = arith.constant dense<1> : tensor<3x1xi8>
  %s = qnt.int_matmul %x, %ones, %b1 {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<4x3xi8>, tensor<3x1xi8>, tensor<1xi32> -> tensor<4x1xi32>
  return %a, %s : tensor<4x2xi32>, tensor<4x1xi32>
}

// -----

// A k loop of 8 or more iterations asks LLVM to unroll it by 2, which keeps
// it out of LLVM's full unrolling so that the loop vectorizer turns it into
// dot products. Shorter loops are left to LLVM.
// CHECK-DAG: #[[$ANN:.*]] = #llvm.loop_annotation<unroll = #[[$UNROLL:.*]]>
// CHECK-DAG: #[[$UNROLL]] = #llvm.loop_unroll<count = 2 : i32>
// CHECK-LABEL: func.func @long_k
// CHECK: %[[K:.*]] = arith.constant 8 : index
// CHECK: scf.for %{{.*}} to %[[K]]
// CHECK: } {loop_annotation = #[[$ANN]]}
func.func @long_k(%x: tensor<2x8xi8>, %w: tensor<8x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x8xi8>, tensor<8x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}
// CHECK-LABEL: func.func @short_k
// CHECK: scf.for
// CHECK-NOT: loop_annotation
// CHECK: return
func.func @short_k(%x: tensor<2x7xi8>, %w: tensor<7x4xi8>, %b: tensor<4xi32>) -> tensor<2x4xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x7xi8>, tensor<7x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
  return %a : tensor<2x4xi32>
}

// -----

// Weights in a dense_resource blob are transposed at compile time too.
// CHECK-LABEL: func.func @resource_weights
// CHECK-NOT: linalg.transpose
// CHECK-NOT: dense_resource
// CHECK: %[[WT:.*]] = arith.constant dense<{{\[\[}}1, 3, 5], [2, 4, 6]]> : tensor<2x3xi8>
// CHECK: tensor.extract %[[WT]]{{\[}}
func.func @resource_weights(%x: tensor<4x3xi8>, %b: tensor<2xi32>) -> tensor<4x2xi32> {
  %w = arith.constant dense_resource<weights> : tensor<3x2xi8>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<4x3xi8>, tensor<3x2xi8>, tensor<2xi32> -> tensor<4x2xi32>
  return %a : tensor<4x2xi32>
}

{-#
  dialect_resources: {
    builtin: {
      weights: "0x01000000010203040506"
    }
  }
#-}
