// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

// A function with an i1 argument, called with a constant: the ownership-based
// deallocation created a second `true` constant beside the caller's, and
// buffer-deallocation-simplification then segfaulted in
// BufferOriginAnalysis::isSameAllocation. --qnt-to-llvm now canonicalizes
// between the two passes, as upstream's buffer-deallocation-pipeline does.
// (Found by a hostile-input hunt; the i1 is a scalar input of a generic.)

// y = f32(flag ? x w : -(x w)), x w = [[-10, 76, 66]], printed as bits:
// -10.0 = 0xC1200000, 76.0 = 0x42980000, 66.0 = 0x42840000.
// CHECK: [-1054867456,   1117257728,   1115947008]
func.func private @printMemrefI32(memref<*xi32>)

func.func @case(%x: tensor<1x4xi8>, %flag: i1) -> tensor<1x3xf32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<1x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<1x3xi32>
  %init = tensor.empty() : tensor<1x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %flag : tensor<1x3xi32>, i1) outs(%init : tensor<1x3xf32>) {
  ^bb0(%in: i32, %f: i1, %o: f32):
    %zero = arith.constant 0 : i32
    %n = arith.subi %zero, %in : i32
    %r = arith.select %f, %in, %n : i32
    %v = arith.sitofp %r : i32 to f32
    linalg.yield %v : f32
  } -> tensor<1x3xf32>
  return %y : tensor<1x3xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1, 2, 3, 4]]> : tensor<1x4xi8>
  %t = arith.constant true
  %y = call @case(%x, %t) : (tensor<1x4xi8>, i1) -> tensor<1x3xf32>
  %bits = arith.bitcast %y : tensor<1x3xf32> to tensor<1x3xi32>
  %m = bufferization.to_buffer %bits : tensor<1x3xi32> to memref<1x3xi32>
  %u = memref.cast %m : memref<1x3xi32> to memref<*xi32>
  call @printMemrefI32(%u) : (memref<*xi32>) -> ()
  return
}
