//===- TosaToQnt.h - quantized TOSA into qnt --------------------*- C++ -*-===//
//
// The pass is declared in QuantOpt/Conversion/Passes.td (`tosa-to-qnt`);
// docs/TosaToQnt.md lists what converts, under which conditions, and why the
// result is bit-exact with upstream's TOSA lowering.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_TOSATOQNT_TOSATOQNT_H
#define QUANTOPT_CONVERSION_TOSATOQNT_TOSATOQNT_H

namespace mlir {
class RewritePatternSet;

namespace qnt {

/// Rewrites quantized TOSA 1.0 ops (conv2d, depthwise_conv2d, matmul,
/// rescale, clamp, add between rescales, avg_pool2d, max_pool2d, reshape,
/// transpose, concat, const) on signless integer tensors into `qnt` ops, the
/// explicit integer `qnt.int_*` ops and upstream tensor/linalg/arith ops.
/// TOSA's multipliers and shifts are kept exactly as given. A pattern fails
/// to match (the op stays TOSA) wherever the result could differ from
/// TOSA's: non-constant parameters, values outside TOSA's REQUIRE ranges,
/// accumulators that could leave i32, dynamic shapes.
void populateTosaToQntConversionPatterns(RewritePatternSet &patterns);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_TOSATOQNT_TOSATOQNT_H
