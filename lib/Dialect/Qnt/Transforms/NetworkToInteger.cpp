//===- NetworkToInteger.cpp - the qnt-network-to-integer pass -------------===//
//
// Applies the add, pool and concat rewrites (NetworkOpsPatterns.h). Concat
// leaves qnt.requantize ops behind, so the pass runs before
// qnt-fixed-point-multiplier.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "NetworkOpsPatterns.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTNETWORKTOINTEGER
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct QntNetworkToIntegerPass
    : qnt::impl::QntNetworkToIntegerBase<QntNetworkToIntegerPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateQntAddToIntegerPatterns(patterns);
    populateQntPoolToIntegerPatterns(patterns);
    populateQntConcatDecompositionPatterns(patterns);
    // Only the rewrites: folding other ops is the canonicalizer's job.
    GreedyRewriteConfig config;
    config.enableFolding(false);
    // No block merging: it could give a block a quantized argument.
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    // Every pattern always applies, so a leftover op means a bug.
    WalkResult left = getOperation().walk([](Operation *op) {
      if (!isa<AddOp, MaxPool2DOp, AvgPool2DOp, ConcatOp>(op))
        return WalkResult::advance();
      op->emitOpError("could not be rewritten into integer IR");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
