// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64 -o /dev/null

// A padded tensor inserted with stride 2 into a fill of the pad value (what
// the ONNX importer's ConvTranspose builds when its input was padded).
// Upstream's FoldInsertPadIntoFill canonicalization folds the pad away and
// inserts x at offset + low padding, 0 + 1, where x's first element belongs
// at offset + low * stride = 2: the values landed in the wrong places
// ([0, 1, 0, 2, 0, 0, 0], found by utils/onnx-diff-fuzz.py). The pipelines
// run the canonicalizer without that pattern
// (include/QuantOpt/Pipelines/SafeCanonicalizer.h).

// pad([1, 2], low 1, high 1, 0) = [0, 1, 2, 0], at 0, 2, 4 and 6 of seven
// zeros:
// CHECK: [0,  0,  1,  0,  2,  0,  0]
// The same with stride 3 into ten 7s, padded with 7: [7, 5, 6, 7] at 0, 3,
// 6 and 9:
// CHECK: [7,  7,  7,  5,  7,  7,  6,  7,  7,  7]
func.func private @printMemrefI32(memref<*xi32>)

func.func @main() {
  %x = arith.constant dense<[1, 2]> : tensor<2xi32>
  %y = arith.constant dense<[5, 6]> : tensor<2xi32>
  %zero = arith.constant 0 : i32
  %seven = arith.constant 7 : i32

  %p0 = tensor.pad %x low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %zero : i32
  } : tensor<2xi32> to tensor<4xi32>
  %e0 = tensor.empty() : tensor<7xi32>
  %f0 = linalg.fill ins(%zero : i32) outs(%e0 : tensor<7xi32>) -> tensor<7xi32>
  %r0 = tensor.insert_slice %p0 into %f0[0] [4] [2] : tensor<4xi32> into tensor<7xi32>

  %p1 = tensor.pad %y low[1] high[1] {
  ^bb0(%i: index):
    tensor.yield %seven : i32
  } : tensor<2xi32> to tensor<4xi32>
  %e1 = tensor.empty() : tensor<10xi32>
  %f1 = linalg.fill ins(%seven : i32) outs(%e1 : tensor<10xi32>) -> tensor<10xi32>
  %r1 = tensor.insert_slice %p1 into %f1[0] [4] [3] : tensor<4xi32> into tensor<10xi32>

  %m0 = bufferization.to_buffer %r0 : tensor<7xi32> to memref<7xi32>
  %u0 = memref.cast %m0 : memref<7xi32> to memref<*xi32>
  call @printMemrefI32(%u0) : (memref<*xi32>) -> ()
  %m1 = bufferization.to_buffer %r1 : tensor<10xi32> to memref<10xi32>
  %u1 = memref.cast %m1 : memref<10xi32> to memref<*xi32>
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  return
}
