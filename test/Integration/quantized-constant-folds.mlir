// Quantized constants reshaped, sliced and transposed by upstream tensor and
// linalg ops, folded by -canonicalize first (these folds used to crash:
// upstream folders took the storage codes for the quantized value). The
// reference model runs the module as written; the compiled run must print the
// same codes.
// RUN: %quant_ref_run %s | FileCheck %s
// RUN: quant-opt %s -canonicalize --qnt-to-llvm | %mlir_runner_cmd > %t.compiled
// RUN: FileCheck %s < %t.compiled
// RUN: %quant_ref_run %s > %t.reference
// RUN: %compare_outputs %t.reference %t.compiled

!I = !quant.uniform<i8:f32, 0.5>

func.func private @printMemrefI8(memref<*xi8>)

func.func @main() {
  // [[1.0, 2.5], [-3.0, 0.0]] / 0.5 = codes [[2, 5], [-6, 0]].
  %f = arith.constant dense<[[1.0, 2.5], [-3.0, 0.0]]> : tensor<2x2xf32>
  %c = qnt.quantize %f : tensor<2x2xf32> -> tensor<2x2x!I>
  %e = tensor.collapse_shape %c [[0, 1]] : tensor<2x2x!I> into tensor<4x!I>
  %t0 = tensor.empty() : tensor<2x2x!I>
  %t = linalg.transpose ins(%c : tensor<2x2x!I>) outs(%t0 : tensor<2x2x!I>) permutation = [1, 0]
  %s = tensor.extract_slice %t[0, 0] [1, 2] [1, 1] : tensor<2x2x!I> to tensor<1x2x!I>
  %k = qnt.constant dense<7> : tensor<4xi8> -> tensor<4x!I>
  %ks = tensor.extract_slice %k[1] [2] [1] : tensor<4x!I> to tensor<2x!I>
  %kx = tensor.expand_shape %ks [[0, 1]] output_shape [1, 2] : tensor<2x!I> into tensor<1x2x!I>
  %ei = quant.scast %e : tensor<4x!I> to tensor<4xi8>
  %em = bufferization.to_buffer %ei : tensor<4xi8> to memref<4xi8>
  %eu = memref.cast %em : memref<4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [2,  5,  -6,  0]
  call @printMemrefI8(%eu) : (memref<*xi8>) -> ()
  %si = quant.scast %s : tensor<1x2x!I> to tensor<1x2xi8>
  %sm = bufferization.to_buffer %si : tensor<1x2xi8> to memref<1x2xi8>
  %su = memref.cast %sm : memref<1x2xi8> to memref<*xi8>
  // Row 0 of the transpose: [2, -6].
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[2,   -6]]
  call @printMemrefI8(%su) : (memref<*xi8>) -> ()
  %ki = quant.scast %kx : tensor<1x2x!I> to tensor<1x2xi8>
  %km = bufferization.to_buffer %ki : tensor<1x2xi8> to memref<1x2xi8>
  %ku = memref.cast %km : memref<1x2xi8> to memref<*xi8>
  // Two elements of the splat 7.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[7,   7]]
  call @printMemrefI8(%ku) : (memref<*xi8>) -> ()
  return
}
