//===- QntToRiscvV.h - int8 contractions on RVV -----------------*- C++ -*-===//
//
// VLEN-agnostic kernels for `qnt.int_matmul` and `qnt.int_conv2d` on RISC-V
// V: scalable vectors whose inner step the backend selects as `vwmacc.vx`
// (docs/KernelLayer.md).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTORISCVV_QNTTORISCVV_H
#define QUANTOPT_CONVERSION_QNTTORISCVV_QNTTORISCVV_H

namespace mlir {
class RewritePatternSet;

namespace qnt {

/// Matmul (constant or run-time weights without zero points) and conv
/// (constant filter, one group) patterns.
void populateQntToRiscvVPatterns(RewritePatternSet &patterns);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_QNTTORISCVV_QNTTORISCVV_H
