//===- QntToX86Vnni.h - int8 contractions on AVX-512 VNNI -------*- C++ -*-===//
//
// The pass itself is declared in QuantOpt/Conversion/Passes.td
// (`qnt-x86-vnni`, createQntToX86Vnni()).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H
#define QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H

namespace mlir {
class DialectRegistry;

namespace qnt {

/// Registers the memory-effect model that `qnt-x86-vnni` gives
/// `llvm.call_intrinsic` (none for the register-only vpdpbusd intrinsic, a
/// read and a write of unknown memory for any other), without which the
/// buffer deallocation pipeline rejects the op. The pass adds it to the
/// context itself; a tool that bufferizes the pass's output in a separate
/// invocation registers it with its dialects.
void registerX86VnniExternalModels(DialectRegistry &registry);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H
