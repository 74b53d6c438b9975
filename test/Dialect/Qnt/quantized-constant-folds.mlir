// Upstream folders of tensor/linalg ops fed by a quantized constant. The fold
// value of qnt.constant (and of a folded qnt.quantize / qnt.requantize) is a
// #qnt.codes attribute, which upstream folders do not take for dense
// elements; they used to reshape or splat the bare storage codes into the
// quantized type and crash. The codes must survive -canonicalize untouched,
// static reshapes and splat slices of a per-tensor constant become a
// qnt.constant of the codes worked out by hand below (our canonicalization);
// the rest must survive -canonicalize, and after qnt-strip-quant-types the
// integer folders must produce the same codes.
// RUN: quant-opt %s -canonicalize | FileCheck %s
// RUN: quant-opt %s -canonicalize --qnt-strip-quant-types -canonicalize | FileCheck %s --check-prefix=STRIP
// RUN: quant-opt %s -canonicalize --qnt-to-llvm | FileCheck %s --check-prefix=LLVM

!I = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.25>

// CHECK-LABEL: func.func @expand
// CHECK-NEXT: %[[C:.*]] = qnt.constant dense<{{\[}}[1, 2]]> : tensor<1x2xi8>
// CHECK-NEXT: return %[[C]]
// STRIP-LABEL: func.func @expand
// STRIP: arith.constant dense<{{\[}}[1, 2]]> : tensor<1x2xi8>
// LLVM-DAG: llvm.mlir.global private constant @{{.*}}(dense<{{\[}}[1, 2]]> : tensor<1x2xi8>)
// LLVM-DAG: llvm.func @expand()
func.func @expand() -> tensor<1x2x!I> {
  %c = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<2x!I>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [1, 2] : tensor<2x!I> into tensor<1x2x!I>
  return %e : tensor<1x2x!I>
}

// CHECK-LABEL: func.func @collapse
// CHECK-NEXT: %[[C:.*]] = qnt.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK-NEXT: return %[[C]]
// STRIP-LABEL: func.func @collapse
// STRIP: arith.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
// LLVM-DAG: llvm.func @collapse()
func.func @collapse() -> tensor<4x!I> {
  %c = qnt.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8> -> tensor<2x2x!I>
  %e = tensor.collapse_shape %c [[0, 1]] : tensor<2x2x!I> into tensor<4x!I>
  return %e : tensor<4x!I>
}

// A splat slice folded through resizeSplat into the quantized type before
// the fix.
// CHECK-LABEL: func.func @splat_slice
// CHECK-NEXT: %[[C:.*]] = qnt.constant dense<7> : tensor<2xi8>
// CHECK-NEXT: return %[[C]]
// STRIP-LABEL: func.func @splat_slice
// STRIP: arith.constant dense<7> : tensor<2xi8>
// LLVM-DAG: llvm.mlir.global private constant @{{.*}}(dense<7> : tensor<2xi8>)
// LLVM-DAG: llvm.func @splat_slice()
func.func @splat_slice() -> tensor<2x!I> {
  %c = qnt.constant dense<7> : tensor<4xi8> -> tensor<4x!I>
  %s = tensor.extract_slice %c[1] [2] [1] : tensor<4x!I> to tensor<2x!I>
  return %s : tensor<2x!I>
}

// CHECK-LABEL: func.func @slice
// CHECK: %[[C:.*]] = qnt.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
// CHECK: tensor.extract_slice %[[C]][1] [2] [1]
// STRIP-LABEL: func.func @slice
// STRIP: %[[C:.*]] = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi8>
// STRIP: tensor.extract_slice %[[C]][1] [2] [1]
// LLVM-DAG: llvm.func @slice()
func.func @slice() -> tensor<2x!I> {
  %c = qnt.constant dense<[1, 2, 3, 4]> : tensor<4xi8> -> tensor<4x!I>
  %s = tensor.extract_slice %c[1] [2] [1] : tensor<4x!I> to tensor<2x!I>
  return %s : tensor<2x!I>
}

// CHECK-LABEL: func.func @cast
// CHECK: %[[C:.*]] = qnt.constant dense<[1, 2]> : tensor<2xi8>
// CHECK: tensor.cast %[[C]]
// STRIP-LABEL: func.func @cast
// STRIP: %[[C:.*]] = arith.constant dense<[1, 2]> : tensor<2xi8>
// STRIP: tensor.cast %[[C]] : tensor<2xi8> to tensor<?xi8>
// LLVM-DAG: llvm.func @cast()
func.func @cast() -> tensor<?x!I> {
  %c = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<2x!I>
  %s = tensor.cast %c : tensor<2x!I> to tensor<?x!I>
  return %s : tensor<?x!I>
}

// CHECK-LABEL: func.func @transpose
// CHECK: %[[C:.*]] = qnt.constant dense<{{\[}}[1, 2]]> : tensor<1x2xi8>
// CHECK: linalg.transpose ins(%[[C]]
// STRIP-LABEL: func.func @transpose
// STRIP: %[[C:.*]] = arith.constant dense<{{\[}}[1, 2]]> : tensor<1x2xi8>
// STRIP: linalg.transpose ins(%[[C]] : tensor<1x2xi8>)
// LLVM-DAG: llvm.func @transpose()
func.func @transpose() -> tensor<2x1x!I> {
  %c = qnt.constant dense<[[1, 2]]> : tensor<1x2xi8> -> tensor<1x2x!I>
  %init = tensor.empty() : tensor<2x1x!I>
  %t = linalg.transpose ins(%c : tensor<1x2x!I>) outs(%init : tensor<2x1x!I>) permutation = [1, 0]
  return %t : tensor<2x1x!I>
}

// CHECK-LABEL: func.func @concat
// CHECK-DAG: %[[A:.*]] = qnt.constant dense<[1, 2]> : tensor<2xi8>
// CHECK-DAG: %[[B:.*]] = qnt.constant dense<3> : tensor<2xi8>
// CHECK: tensor.concat dim(0) %[[A]], %[[B]]
// STRIP-LABEL: func.func @concat
// STRIP: tensor.concat dim(0)
// LLVM-DAG: llvm.mlir.global private constant @{{.*}}(dense<3> : tensor<2xi8>)
// LLVM-DAG: llvm.func @concat()
func.func @concat() -> tensor<4x!I> {
  %a = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<2x!I>
  %b = qnt.constant dense<3> : tensor<2xi8> -> tensor<2x!I>
  %t = tensor.concat dim(0) %a, %b : (tensor<2x!I>, tensor<2x!I>) -> tensor<4x!I>
  return %t : tensor<4x!I>
}

// qnt.quantize of an f32 constant folds to codes [1.0, 2.5, -3.0] / 0.5 =
// [2, 5, -6], then reshaped.
// CHECK-LABEL: func.func @quantize_expand
// CHECK-NEXT: %[[C:.*]] = qnt.constant dense<{{\[}}[2, 5, -6]]> : tensor<1x3xi8>
// CHECK-NEXT: return %[[C]]
// STRIP-LABEL: func.func @quantize_expand
// STRIP: arith.constant dense<{{\[}}[2, 5, -6]]> : tensor<1x3xi8>
// LLVM-DAG: llvm.func @quantize_expand()
func.func @quantize_expand() -> tensor<1x3x!I> {
  %f = arith.constant dense<[1.0, 2.5, -3.0]> : tensor<3xf32>
  %c = qnt.quantize %f : tensor<3xf32> -> tensor<3x!I>
  %e = tensor.expand_shape %c [[0, 1]] output_shape [1, 3] : tensor<3x!I> into tensor<1x3x!I>
  return %e : tensor<1x3x!I>
}

// qnt.requantize of a constant: codes [4, -6, 8] at 0.25 are 1.0, -1.5, 2.0,
// codes [2, -3, 4] at 0.5 (no ties).
// CHECK-LABEL: func.func @requantize_collapse
// CHECK-NEXT: %[[C:.*]] = qnt.constant dense<[2, -3, 4]> : tensor<3xi8>
// CHECK-NEXT: return %[[C]]
// STRIP-LABEL: func.func @requantize_collapse
// STRIP: arith.constant dense<[2, -3, 4]> : tensor<3xi8>
// LLVM-DAG: llvm.func @requantize_collapse()
func.func @requantize_collapse() -> tensor<3x!I> {
  %c = qnt.constant dense<[[4, -6, 8]]> : tensor<1x3xi32> -> tensor<1x3x!A>
  %r = qnt.requantize %c : tensor<1x3x!A> -> tensor<1x3x!I>
  %e = tensor.collapse_shape %r [[0, 1]] : tensor<1x3x!I> into tensor<3x!I>
  return %e : tensor<3x!I>
}

// The dequantize folder still reads the codes of a constant: [2, -3] * 0.5.
// CHECK-LABEL: func.func @dequantize
// CHECK: arith.constant dense<[1.000000e+00, -1.500000e+00]> : tensor<2xf32>
// CHECK-NOT: qnt.dequantize
// STRIP-LABEL: func.func @dequantize
// STRIP: arith.constant dense<[1.000000e+00, -1.500000e+00]> : tensor<2xf32>
// LLVM-DAG: llvm.func @dequantize()
func.func @dequantize() -> tensor<2xf32> {
  %c = qnt.constant dense<[2, -3]> : tensor<2xi8> -> tensor<2x!I>
  %r = qnt.dequantize %c : tensor<2x!I> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// tensor.extract of a constant used to fold to a bare i8 attribute for a
// quantized scalar result; now it stays an extract of the codes.
// CHECK-LABEL: func.func @extract
// CHECK: %[[C:.*]] = qnt.constant dense<[1, 2]> : tensor<2xi8>
// CHECK: tensor.extract %[[C]]
// STRIP-LABEL: func.func @extract
// STRIP: arith.constant 2 : i8
// LLVM-DAG: llvm.func @extract()
func.func @extract() -> !I {
  %i = arith.constant 1 : index
  %c = qnt.constant dense<[1, 2]> : tensor<2xi8> -> tensor<2x!I>
  %s = tensor.extract %c[%i] : tensor<2x!I>
  return %s : !I
}
