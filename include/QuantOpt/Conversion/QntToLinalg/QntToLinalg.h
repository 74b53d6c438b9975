//===- QntToLinalg.h - qnt integer ops to linalg ----------------*- C++ -*-===//
//
// Lowers the explicit integer qnt ops to linalg/arith/math/tensor on signless
// integer tensors.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOLINALG_QNTTOLINALG_H
#define QUANTOPT_CONVERSION_QNTTOLINALG_QNTTOLINALG_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace qnt {

#define GEN_PASS_DECL_QNTTOLINALG
#define GEN_PASS_DECL_QNTDYNAMICSCALESTOLINALG
#include "QuantOpt/Conversion/Passes.h.inc"

/// Adds the patterns that lower qnt.int_matmul, int_conv2d, int_requantize,
/// int_quantize and int_dequantize. They need no type converter: the
/// operands already are signless integer (or f32) tensors.
///
/// The contractions become a parallel linalg.generic over the output whose
/// body sums over the reduction with scf.for loops (the innermost one
/// annotated with #llvm.loop_annotation), reading the operands with
/// tensor.extract from x and the transposed weights; besides the arith,
/// linalg, math and tensor dialects, the scf and llvm dialects must be
/// loaded.
void populateQntToLinalgConversionPatterns(RewritePatternSet &patterns);

/// Adds the patterns that lower the runtime-scale ops qnt.dequantize_dynamic,
/// qnt.quantize_dynamic and qnt.dynamic_quantize to linalg.generic on
/// tensors (docs/RuntimeScales.md); ui8 operands and results pass through
/// tensor.bitcast to and from i8. Also part of
/// populateQntToLinalgConversionPatterns.
void populateQntDynamicScaleOpsToLinalgPatterns(RewritePatternSet &patterns);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_QNTTOLINALG_QNTTOLINALG_H
