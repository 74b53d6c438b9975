// A function that returns its argument (here a one-operand qnt.concat with
// the result's parameters, which is the operand itself) compiles: the clone
// that buffer deallocation makes of the returned argument is lowered to an
// allocation and a copy.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm | FileCheck %s --check-prefix=IR
// IR-NOT: bufferization.

func.func private @printMemrefI8(memref<*xi8>)

!T = !quant.uniform<i8:f32, 0.5:1>
func.func @identity(%x: tensor<4x!T>) -> tensor<4x!T> {
  %y = qnt.concat %x {axis = 0 : i64} : tensor<4x!T> -> tensor<4x!T>
  return %y : tensor<4x!T>
}

func.func @main() {
  %raw = arith.constant dense<[3, -4, 127, -128]> : tensor<4xi8>
  %x = quant.scast %raw : tensor<4xi8> to tensor<4x!T>
  %y = call @identity(%x) : (tensor<4x!T>) -> tensor<4x!T>
  %yi = quant.scast %y : tensor<4x!T> to tensor<4xi8>
  %m = bufferization.to_buffer %yi : tensor<4xi8> to memref<4xi8>
  %u = memref.cast %m : memref<4xi8> to memref<*xi8>
  // CHECK: [3, -4, 127, -128]
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()
  return
}
