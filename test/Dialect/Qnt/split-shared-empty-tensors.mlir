// RUN: quant-opt %s --qnt-split-shared-empty-tensors | FileCheck %s

// Two layers writing into one (CSE-merged) empty tensor get one each, so
// bufferization analyses them apart.
// CHECK-LABEL: func.func @shared
// CHECK-DAG: %[[E0:.*]] = tensor.empty() : tensor<4xi32>
// CHECK-DAG: %[[E1:.*]] = tensor.empty() : tensor<4xi32>
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%[[E0]] : tensor<4xi32>)
// CHECK: linalg.fill ins(%{{.*}} : i32) outs(%[[E1]] : tensor<4xi32>)
// CHECK-NOT: tensor.empty
func.func @shared(%c0: i32, %c1: i32) -> (tensor<4xi32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4xi32>
  %a = linalg.fill ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  %b = linalg.fill ins(%c1 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
  return %a, %b : tensor<4xi32>, tensor<4xi32>
}

// Dynamic sizes: the clones reuse the size operand, which dominates them.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[N:.*]]: index
// CHECK-COUNT-3: tensor.empty(%[[N]]) : tensor<?xi8>
// CHECK-NOT: tensor.empty
func.func @dynamic(%n: index, %v: i8) -> (tensor<?xi8>, tensor<?xi8>, tensor<?xi8>) {
  %e = tensor.empty(%n) : tensor<?xi8>
  %a = linalg.fill ins(%v : i8) outs(%e : tensor<?xi8>) -> tensor<?xi8>
  %b = linalg.fill ins(%v : i8) outs(%e : tensor<?xi8>) -> tensor<?xi8>
  %c = linalg.fill ins(%v : i8) outs(%e : tensor<?xi8>) -> tensor<?xi8>
  return %a, %b, %c : tensor<?xi8>, tensor<?xi8>, tensor<?xi8>
}

// A single use is left alone.
// CHECK-LABEL: func.func @single
// CHECK-COUNT-1: tensor.empty
// CHECK-NOT: tensor.empty
func.func @single(%v: i8) -> tensor<2xi8> {
  %e = tensor.empty() : tensor<2xi8>
  %a = linalg.fill ins(%v : i8) outs(%e : tensor<2xi8>) -> tensor<2xi8>
  return %a : tensor<2xi8>
}
