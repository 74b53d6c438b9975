// The canonicalization of static reshapes and splat slices of qnt.constant
// into a reshaped qnt.constant (see quantized-constant-folds.mlir) applies
// to per-tensor types only: per-axis parameters follow an axis, and a
// constant with 2 scales on a size-1 axis 0 would not verify. These ops stay
// and no folder crashes on them (qnt-strip-quant-types then rejects them
// with its own diagnostic).
// RUN: quant-opt %s -canonicalize | FileCheck %s

!P = !quant.uniform<i8:f32:0, {0.5, 0.25}>
// CHECK-LABEL: func.func @per_axis_expand
// CHECK: %[[C:.*]] = qnt.constant dense<[1, 2]> : tensor<2xi8>
// CHECK: tensor.expand_shape %[[C]]
func.func @per_axis_expand() -> tensor<1x2x!P> {
  %c = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<2x!P>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [1, 2] : tensor<2x!P> into tensor<1x2x!P>
  return %e : tensor<1x2x!P>
}

// CHECK-LABEL: func.func @per_axis_splat_slice
// CHECK: %[[C:.*]] = qnt.constant dense<3> : tensor<2xi8>
// CHECK: tensor.extract_slice %[[C]][0] [1] [1]
func.func @per_axis_splat_slice() -> tensor<1x!P> {
  %c = qnt.constant dense<3> : tensor<2xi8> -> tensor<2x!P>
  %e = tensor.extract_slice %c[0] [1] [1] : tensor<2x!P> to tensor<1x!P>
  return %e : tensor<1x!P>
}
