// An average pool whose rows are longer than the compile-time count tables
// (2^16 outputs): the window counts along W are computed in the loop. A
// 2^20 x 2^20 pool used to build a table of 2^40 counts and ran out of
// memory (found by a hostile-input review). Codes 7, zero point 5, 1x3
// windows padded by one on each side: the edge windows hold two real
// positions, sum(q - z) = 4, so y = 5 + round(4 / 2) = 7 without the
// padding counted and 5 + round(4 / 3) = 6 with it; inner windows give
// 5 + 6 / 3 = 7 either way. A wrong edge count (3) gives 5 in both modes.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd > %t.compiled
// RUN: FileCheck %s < %t.compiled
// RUN: %quant_ref_run %s > %t.reference
// RUN: %compare_outputs %t.reference %t.compiled

!X = !quant.uniform<i8:f32, 0.5:5>

func.func private @printMemrefI8(memref<*xi8>)

func.func @print(%t: tensor<1x1x70000x1x!X>) {
  %first = tensor.extract_slice %t[0, 0, 0, 0] [1, 1, 3, 1] [1, 1, 1, 1] : tensor<1x1x70000x1x!X> to tensor<3x!X>
  %last = tensor.extract_slice %t[0, 0, 69997, 0] [1, 1, 3, 1] [1, 1, 1, 1] : tensor<1x1x70000x1x!X> to tensor<3x!X>
  %a = quant.scast %first : tensor<3x!X> to tensor<3xi8>
  %b = quant.scast %last : tensor<3x!X> to tensor<3xi8>
  %ma = bufferization.to_buffer %a : tensor<3xi8> to memref<3xi8>
  %mb = bufferization.to_buffer %b : tensor<3xi8> to memref<3xi8>
  %ua = memref.cast %ma : memref<3xi8> to memref<*xi8>
  %ub = memref.cast %mb : memref<3xi8> to memref<*xi8>
  call @printMemrefI8(%ua) : (memref<*xi8>) -> ()
  call @printMemrefI8(%ub) : (memref<*xi8>) -> ()
  return
}

func.func @main() {
  %x = qnt.constant dense<7> : tensor<1x1x70000x1xi8> -> tensor<1x1x70000x1x!X>
  %p = qnt.avg_pool2d %x {kernel = array<i64: 1, 3>, padding = array<i64: 0, 0, 1, 1>}
     : tensor<1x1x70000x1x!X> -> tensor<1x1x70000x1x!X>
  %q = qnt.avg_pool2d %x {kernel = array<i64: 1, 3>, padding = array<i64: 0, 0, 1, 1>, count_include_pad = true}
     : tensor<1x1x70000x1x!X> -> tensor<1x1x70000x1x!X>
  call @print(%p) : (tensor<1x1x70000x1x!X>) -> ()
  call @print(%q) : (tensor<1x1x70000x1x!X>) -> ()
  return
}

// CHECK: [7,  7,  7]
// CHECK: [7,  7,  7]
// CHECK: [6,  7,  7]
// CHECK: [7,  7,  6]
