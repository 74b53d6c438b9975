// A quantized tensor carried through an scf.for: each iteration
// dequantizes, adds 1.0 in f32 and quantizes again. Bufferization used to
// reject the loop ("Yield operand #0 is not equivalent to the
// corresponding iter bbArg"; found by a hostile-input review): every
// iteration yields a new buffer. Codes [1, 2, 3, 4] at scale 0.5 are
// 0.5 .. 2.0; three iterations give 3.5 .. 5.0, codes [7, 8, 9, 10].
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// CHECK: [7,  8,  9,  10]

!X = !quant.uniform<i8:f32, 0.5>

func.func private @printMemrefI8(memref<*xi8>)

func.func @step3(%x: tensor<4x!X>) -> tensor<4x!X> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant dense<1.0> : tensor<4xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<4x!X>) {
    %f = qnt.dequantize %acc : tensor<4x!X> -> tensor<4xf32>
    %g = arith.addf %f, %one : tensor<4xf32>
    %q = qnt.quantize %g : tensor<4xf32> -> tensor<4x!X>
    scf.yield %q : tensor<4x!X>
  }
  return %r : tensor<4x!X>
}

func.func @main() {
  %c = qnt.constant dense<[1, 2, 3, 4]> : tensor<4xi8> -> tensor<4x!X>
  %r = call @step3(%c) : (tensor<4x!X>) -> tensor<4x!X>
  %i = quant.scast %r : tensor<4x!X> to tensor<4xi8>
  %m = bufferization.to_buffer %i : tensor<4xi8> to memref<4xi8>
  %u = memref.cast %m : memref<4xi8> to memref<*xi8>
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()
  return
}
