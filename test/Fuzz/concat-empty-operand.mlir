// A concat whose last operand has no elements along the axis: its slice
// would start at the end of the result (out of bounds), so the operand is
// skipped. The other operand is copied (equal parameters) and requantized
// (different ones): [[1, 2, 3], [4, 5, 6]] at scale 1.0 into scale 0.5 is
// [[2, 4, 6], [8, 10, 12]] (exact, no rounding).
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: %quant_ref_run %s | FileCheck %s

!Q = !quant.uniform<i8:f32, 1.0>
!H = !quant.uniform<i8:f32, 0.5>

func.func private @printMemrefI8(memref<*xi8>)

func.func @main() {
  %a = qnt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8> -> tensor<2x3x!Q>
  %e = qnt.constant dense<0> : tensor<2x0xi8> -> tensor<2x0x!Q>
  %c = qnt.concat %a, %e {axis = 1 : i64} : tensor<2x3x!Q>, tensor<2x0x!Q> -> tensor<2x3x!H>
  %i = quant.scast %c : tensor<2x3x!H> to tensor<2x3xi8>
  %m = bufferization.to_buffer %i : tensor<2x3xi8> to memref<2x3xi8>
  %u = memref.cast %m : memref<2x3xi8> to memref<*xi8>
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()
  return
}
// CHECK: [2,   4,   6]
// CHECK: [8,   10,   12]
