//===- TosaToQntPass.cpp - the tosa-to-qnt pass ---------------------------===//
//
// Applies populateTosaToQntConversionPatterns greedily: a partial conversion
// by design, since whatever does not convert exactly stays TOSA for
// upstream's lowering.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/TosaToQnt/TosaToQnt.h"

#include "QuantOpt/Conversion/Passes.h"
#include "TosaToQntUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_TOSATOQNT
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

void mlir::qnt::populateTosaToQntConversionPatterns(
    RewritePatternSet &patterns) {
  populateTosaContractionToQntPatterns(patterns);
  populateTosaRescaleToQntPatterns(patterns);
  populateTosaPoolToQntPatterns(patterns);
  populateTosaDataMovementToQntPatterns(patterns);
}

namespace {

struct TosaToQntPass : qnt::impl::TosaToQntBase<TosaToQntPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    qnt::populateTosaToQntConversionPatterns(patterns);
    // No folding: a folder could rewrite TOSA ops we leave for upstream, and
    // our results are already in final form.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    // No block merging: it could give a block a quantized argument.
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns),
                                     config)))
      return signalPassFailure();
  }
};

} // namespace
