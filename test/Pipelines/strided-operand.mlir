// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm="threads=2 parallel-min-work=0" | FileCheck %s --check-prefix=LOWERED
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64 | FileCheck %s --check-prefix=LOWERED
// RUN: quant-opt %s --qnt-to-llvm=target=riscv64 | FileCheck %s --check-prefix=LOWERED

// Operands sliced with a step (a memref whose last dimension is strided
// after bufferization): the kernels read them with 1-D transfers, which
// convert-vector-to-llvm cannot lower; convert-vector-to-scf turns them into
// loops. They used to stay in the output (vector.transfer_read, ub.poison),
// which mlir-runner then refused. Here a matmul bias, and a per-column
// scale of the generic the x86 kernel applies in its epilogue.
// LOWERED-NOT: vector.transfer_read
// LOWERED-NOT: ub.poison
// LOWERED: llvm.func @main

// acc = x w + bias, x = [[1, 2, 3, 4], [-1, -2, -3, -4]]:
// x w = [[-10, 76, 66], [10, -76, -66]], bias = [100, -200, 300].
// CHECK: [90,   -124,   366]
// CHECK: [110,   -276,   234]
// y = acc * [1, 2, 4]:
// CHECK: [90,   -248,   1464]
// CHECK: [110,   -552,   936]
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @strided(%x: tensor<2x4xi8>, %big: tensor<6xf32>, %bigBias: tensor<6xi32>)
    -> (tensor<2x3xi32>, tensor<2x3xf32>) {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = tensor.extract_slice %bigBias[0] [3] [2] : tensor<6xi32> to tensor<3xi32>
  %acc = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %b2 = arith.constant dense<[100, -200, 300]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b2 {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %cs = tensor.extract_slice %big[0] [3] [2] : tensor<6xf32> to tensor<3xf32>
  %init = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %cs : tensor<2x3xi32>, tensor<3xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: i32, %c: f32, %o: f32):
    %f = arith.sitofp %in : i32 to f32
    %d = arith.mulf %f, %c : f32
    linalg.yield %d : f32
  } -> tensor<2x3xf32>
  return %acc, %y : tensor<2x3xi32>, tensor<2x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1, 2, 3, 4], [-1, -2, -3, -4]]> : tensor<2x4xi8>
  %big = arith.constant dense<[1.0, 99.0, 2.0, 99.0, 4.0, 99.0]> : tensor<6xf32>
  %bigBias = arith.constant dense<[100, 7, -200, 7, 300, 7]> : tensor<6xi32>
  %acc, %y = call @strided(%x, %big, %bigBias)
      : (tensor<2x4xi8>, tensor<6xf32>, tensor<6xi32>) -> (tensor<2x3xi32>, tensor<2x3xf32>)
  %m = bufferization.to_buffer %acc : tensor<2x3xi32> to memref<2x3xi32>
  %u = memref.cast %m : memref<2x3xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  %my = bufferization.to_buffer %y : tensor<2x3xf32> to memref<2x3xf32>
  %uy = memref.cast %my : memref<2x3xf32> to memref<*xf32>
  call @printMemrefF32(%uy) : (memref<*xf32>) -> ()
  return
}
