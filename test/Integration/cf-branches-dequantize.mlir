// Two cf blocks that each dequantize a different tensor and branch to one
// join: the rewrite passes' greedy drivers merged them (their default block
// merging) into one block with a quantized argument, which no pass can
// lower ("failed to legalize operation 'func.func'"). Merging blocks is now
// left to canonicalize, which runs after the quantized types are gone.
// (c - 2) * 0.5: [10, 20, 30, 40] -> [4, 9, 14, 19]; [-2, -4, -6, -8] ->
// [-2, -3, -4, -5].
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// CHECK: [4,  9,  14,  19]
// CHECK: [-2,  -3,  -4,  -5]
!B = !quant.uniform<i8:f32, 0.5:2>
func.func private @printMemrefF32(memref<*xf32>)
func.func @pick(%qa: tensor<4x!B>, %qb: tensor<4x!B>, %c: i1) -> tensor<4xf32> {
  cf.cond_br %c, ^first, ^second
^first:
  %da = qnt.dequantize %qa : tensor<4x!B> -> tensor<4xf32>
  cf.br ^join(%da : tensor<4xf32>)
^second:
  %db = qnt.dequantize %qb : tensor<4x!B> -> tensor<4xf32>
  cf.br ^join(%db : tensor<4xf32>)
^join(%r: tensor<4xf32>):
  return %r : tensor<4xf32>
}
func.func @main() {
  %ra = arith.constant dense<[10, 20, 30, 40]> : tensor<4xi8>
  %rb = arith.constant dense<[-2, -4, -6, -8]> : tensor<4xi8>
  %qa = quant.scast %ra : tensor<4xi8> to tensor<4x!B>
  %qb = quant.scast %rb : tensor<4xi8> to tensor<4x!B>
  %t = arith.constant true
  %f = arith.constant false
  %a = call @pick(%qa, %qb, %t) : (tensor<4x!B>, tensor<4x!B>, i1) -> tensor<4xf32>
  %am = bufferization.to_buffer %a : tensor<4xf32> to memref<4xf32>
  %au = memref.cast %am : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%au) : (memref<*xf32>) -> ()
  %b = call @pick(%qa, %qb, %f) : (tensor<4x!B>, tensor<4x!B>, i1) -> tensor<4xf32>
  %bm = bufferization.to_buffer %b : tensor<4xf32> to memref<4xf32>
  %bu = memref.cast %bm : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%bu) : (memref<*xf32>) -> ()
  return
}
