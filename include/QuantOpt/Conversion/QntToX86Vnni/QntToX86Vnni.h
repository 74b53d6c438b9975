//===- QntToX86Vnni.h - int8 contractions on AVX-512 VNNI -------*- C++ -*-===//
//
// The pass is declared in QuantOpt/Conversion/Passes.td (`qnt-x86-vnni`);
// the plans the patterns follow are in Planning.h.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H
#define QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H

#include <cstdint>

namespace mlir {
class RewritePatternSet;

namespace qnt {

/// Rewrites `qnt.int_matmul` and `qnt.int_conv2d` with static shapes and
/// constant weights into packed-weight loops of `qnt_kernel.x86.vpdpbusd`.
/// The caller checks that the target has AVX-512 VNNI. `kBlock` is the
/// matmul K block in groups of 4 (0: no blocking).
void populateQntToX86VnniPatterns(RewritePatternSet &patterns,
                                  int64_t kBlock = 128);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H
