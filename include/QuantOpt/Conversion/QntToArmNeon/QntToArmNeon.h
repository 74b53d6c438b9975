//===- QntToArmNeon.h - int8 contractions on AArch64 ------------*- C++ -*-===//
//
// Data-tiled kernels for `qnt.int_matmul` and `qnt.int_conv2d` on AArch64:
// i8mm matrix multiplies (smmla / ummla / usmmla) or sdot, through
// upstream's `arm_neon` dialect (docs/KernelLayer.md).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOARMNEON_QNTTOARMNEON_H
#define QUANTOPT_CONVERSION_QNTTOARMNEON_QNTTOARMNEON_H

#include "QuantOpt/Conversion/QntToArmNeon/Planning.h"

namespace mlir {
class RewritePatternSet;

namespace qnt {

/// Matmul (constant or run-time weights) and conv (constant filter, one
/// group) patterns for a target with the extensions in `isa`; ops whose
/// operands no instruction of `isa` takes are left alone.
void populateQntToArmNeonPatterns(RewritePatternSet &patterns,
                                  quantopt::armneon::ArmIsa isa);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_QNTTOARMNEON_QNTTOARMNEON_H
