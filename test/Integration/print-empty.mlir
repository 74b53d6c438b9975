// Printing a tensor with a zero-size dimension: upstream's printMemref*
// reads the first element even then, so printMemrefI8 of the runner library
// dereferenced a null pointer (SIGSEGV) and the native runtime
// (qnt_print_runtime.c) printed a value read out of bounds. Both print the
// metadata and [] for no elements. (mlir-runner's printMemrefF32 and
// printMemrefI32 are upstream's, which still read out of bounds there.)
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: %run_on_target --target host %s -o %t.native
// RUN: FileCheck %s < %t.native
// CHECK:      rank = 2 offset = 0 sizes = [3, 0] strides = [0, 1] data =
// CHECK-NEXT: []
// CHECK:      rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [7,  -3]
func.func private @printMemrefI8(memref<*xi8>)
func.func @main() {
  %e = arith.constant dense<1> : tensor<3x0xi8>
  %m = bufferization.to_buffer %e : tensor<3x0xi8> to memref<3x0xi8>
  %u = memref.cast %m : memref<3x0xi8> to memref<*xi8>
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()
  %n = arith.constant dense<[7, -3]> : tensor<2xi8>
  %nm = bufferization.to_buffer %n : tensor<2xi8> to memref<2xi8>
  %nu = memref.cast %nm : memref<2xi8> to memref<*xi8>
  call @printMemrefI8(%nu) : (memref<*xi8>) -> ()
  return
}
