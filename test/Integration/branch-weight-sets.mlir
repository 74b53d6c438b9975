// Two matmuls of the same shape in the two arms of an scf.if (choosing
// between two weight sets): their kernels differ only in the buffers they
// read, and convert-vector-to-llvm's preprocessing merges such blocks into
// one that takes the buffers as arguments. The branches were already
// llvm.cond_br then, which cannot carry memrefs ("operand #1 must be
// variadic of LLVM dialect-compatible type, but got 'memref<16xi32>'", on
// every target); the pipeline now lowers cf after the vector conversion.
// x - z_x = [4, 5, 6, 7] sums to 22: 66 with the weights 3, 110 with 5.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// CHECK: [66,  66,  66,  66]
// CHECK: [110,  110,  110,  110]
!X = !quant.uniform<i8:f32, 0.03:-3>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 3.0e-4>
func.func private @printMemrefI32(memref<*xi32>)
func.func @run(%x: tensor<1x4x!X>, %c: i1) -> tensor<1x4xi32> {
  %n = scf.if %c -> tensor<1x4x!A> {
    %cw = arith.constant dense<3> : tensor<4x4xi8>
    %w = quant.scast %cw : tensor<4x4xi8> to tensor<4x4x!W>
    %r = qnt.matmul %x, %w : tensor<1x4x!X>, tensor<4x4x!W> -> tensor<1x4x!A>
    scf.yield %r : tensor<1x4x!A>
  } else {
    %cw = arith.constant dense<5> : tensor<4x4xi8>
    %w = quant.scast %cw : tensor<4x4xi8> to tensor<4x4x!W>
    %r = qnt.matmul %x, %w : tensor<1x4x!X>, tensor<4x4x!W> -> tensor<1x4x!A>
    scf.yield %r : tensor<1x4x!A>
  }
  %i = quant.scast %n : tensor<1x4x!A> to tensor<1x4xi32>
  return %i : tensor<1x4xi32>
}
func.func @main() {
  %raw = arith.constant dense<[[1, 2, 3, 4]]> : tensor<1x4xi8>
  %x = quant.scast %raw : tensor<1x4xi8> to tensor<1x4x!X>
  %t = arith.constant true
  %f = arith.constant false
  %a = call @run(%x, %t) : (tensor<1x4x!X>, i1) -> tensor<1x4xi32>
  %am = bufferization.to_buffer %a : tensor<1x4xi32> to memref<1x4xi32>
  %au = memref.cast %am : memref<1x4xi32> to memref<*xi32>
  call @printMemrefI32(%au) : (memref<*xi32>) -> ()
  %b = call @run(%x, %f) : (tensor<1x4x!X>, i1) -> tensor<1x4xi32>
  %bm = bufferization.to_buffer %b : tensor<1x4xi32> to memref<1x4xi32>
  %bu = memref.cast %bm : memref<1x4xi32> to memref<*xi32>
  call @printMemrefI32(%bu) : (memref<*xi32>) -> ()
  return
}
