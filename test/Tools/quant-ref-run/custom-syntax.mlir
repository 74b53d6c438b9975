// quant-ref-run links no compiler library, so the custom syntax of qnt ops
// does not parse; the error says how to convert the module. The same module
// runs through %quant_ref_run (generic form first).
// RUN: not quant-ref-run %s 2>&1 | FileCheck %s --check-prefix=DIRECT
// RUN: %quant_ref_run %s | FileCheck %s --check-prefix=WRAPPED
// RUN: %quant_ref_run -e main %s | FileCheck %s --check-prefix=WRAPPED
// RUN: cat %s | %quant_ref_run - | FileCheck %s --check-prefix=WRAPPED

// DIRECT: error: Dialect `qnt' not found for custom op 'qnt.constant'
// DIRECT: note: quant-ref-run reads qnt ops in MLIR's generic form only; convert the module with `quant-opt --mlir-print-op-generic FILE | quant-ref-run -`

!I = !quant.uniform<i8:f32, 1.0>
func.func private @printMemrefI8(memref<*xi8>)
func.func @main() {
  %a = qnt.constant dense<[1, -2]> : tensor<2xi8> -> tensor<2x!I>
  %i = quant.scast %a : tensor<2x!I> to tensor<2xi8>
  %m = bufferization.to_buffer %i : tensor<2xi8> to memref<2xi8>
  %u = memref.cast %m : memref<2xi8> to memref<*xi8>
  // WRAPPED: data =
  // WRAPPED-NEXT: [1,  -2]
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()
  return
}
