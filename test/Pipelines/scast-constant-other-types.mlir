// quant.scast of an integer constant into a quantized type that no qnt op
// takes (i4 storage, a bf16 expressed type) stays a quant.scast: the
// canonicalization into qnt.constant made a constant whose verifier
// rejected the type, an error about an op the input never had. Such codes
// only move, and come out as they went in.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

// CHECK: [1,  -2,  7,  -8,  3]
// CHECK: [1,  -2,  7,  -8,  3]
!Q4 = !quant.uniform<i4:f32, 0.5:1>
!QB = !quant.uniform<i8:bf16, 0.5:1>
func.func private @printMemrefI8(memref<*xi8>)
func.func @i4_storage() -> tensor<5xi8> {
  %raw = arith.constant dense<[1, -2, 7, -8, 3]> : tensor<5xi4>
  %x = quant.scast %raw : tensor<5xi4> to tensor<5x!Q4>
  %y = quant.scast %x : tensor<5x!Q4> to tensor<5xi4>
  %w = arith.extsi %y : tensor<5xi4> to tensor<5xi8>
  return %w : tensor<5xi8>
}
func.func @bf16_expressed() -> tensor<5xi8> {
  %raw = arith.constant dense<[1, -2, 7, -8, 3]> : tensor<5xi8>
  %x = quant.scast %raw : tensor<5xi8> to tensor<5x!QB>
  %e = tensor.extract_slice %x[0] [5] [1] : tensor<5x!QB> to tensor<5x!QB>
  %y = quant.scast %e : tensor<5x!QB> to tensor<5xi8>
  return %y : tensor<5xi8>
}
func.func @main() {
  %a = call @i4_storage() : () -> tensor<5xi8>
  %am = bufferization.to_buffer %a : tensor<5xi8> to memref<5xi8>
  %au = memref.cast %am : memref<5xi8> to memref<*xi8>
  call @printMemrefI8(%au) : (memref<*xi8>) -> ()
  %b = call @bf16_expressed() : () -> tensor<5xi8>
  %bm = bufferization.to_buffer %b : tensor<5xi8> to memref<5xi8>
  %bu = memref.cast %bm : memref<5xi8> to memref<*xi8>
  call @printMemrefI8(%bu) : (memref<*xi8>) -> ()
  return
}
