//===- QntToX86Vnni.h - int8 contractions on AVX-512 VNNI -------*- C++ -*-===//
//
// The pass is declared in QuantOpt/Conversion/Passes.td (`qnt-x86-vnni`);
// the plans the patterns follow are in Planning.h.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H
#define QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H

#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"

#include <cstdint>

namespace mlir {
class RewritePatternSet;

namespace qnt {

/// Rewrites `qnt.int_matmul` and `qnt.int_conv2d` with static shapes and
/// constant weights into packed-weight loops of `qnt_kernel.x86.vpdpbusd`
/// (`isa` AVX-512 VNNI), or of the same step emulated exactly with
/// `qnt_kernel.x86.vpmaddwd` on 256-bit vectors (`isa` AVX2). The caller
/// checks that the target has the ISA. `kBlock` is the matmul K block in
/// groups of 4 (0: no blocking).
void populateQntToX86VnniPatterns(
    RewritePatternSet &patterns, int64_t kBlock = 256,
    quantopt::x86vnni::DotIsa isa = quantopt::x86vnni::DotIsa::Avx512Vnni);

/// The x86 vectors the depthwise kernel uses: `lanes` i32 lanes (16:
/// AVX-512 BW, 8: AVX2) and whether `vpdpwssd` exists at that width
/// (AVX-512 VNNI, or AVX-VNNI for 8 lanes); else `vpmaddwd` + add.
struct DepthwiseIsa {
  int64_t lanes = 16;
  bool dotI16 = true;
};

/// Rewrites depthwise `qnt.int_conv2d` (groups == C == F) with constant
/// weights, fused with the `qnt.int_requantize` that consumes it when there
/// is one, into loops vectorized along the channels. Takes precedence over
/// the VNNI conv pattern. The caller checks that the target has the ISA.
void populateQntToX86DepthwisePatterns(RewritePatternSet &patterns,
                                       const DepthwiseIsa &isa);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86VNNI_H
