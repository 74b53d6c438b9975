//===- EraseEmptyResults.cpp - qnt ops with no element to compute ---------===//
//
// A qnt op whose results all have a zero-sized dimension computes nothing:
// it is replaced by tensor.empty, so that no later rewrite or lowering has
// to handle empty shapes (slices into an empty buffer are out of bounds).
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTERASEEMPTYRESULTS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
/// Any qnt op but constants (which are already values) whose results are
/// all statically shaped tensors without elements.
struct EmptyResultToTensorEmpty : RewritePattern {
  EmptyResultToTensorEmpty(MLIRContext *ctx)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, ctx) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa_and_present<QntDialect>(op->getDialect()) || isa<ConstantOp>(op) ||
        op->getNumResults() == 0 || op->getNumRegions() != 0)
      return failure();
    SmallVector<Value> empties;
    for (Type type : op->getResultTypes()) {
      auto tensor = dyn_cast<RankedTensorType>(type);
      if (!tensor || !tensor.hasStaticShape() || tensor.getNumElements() != 0)
        return failure();
      empties.push_back(tensor::EmptyOp::create(rewriter, op->getLoc(),
                                                tensor.getShape(),
                                                tensor.getElementType()));
    }
    rewriter.replaceOp(op, empties);
    return success();
  }
};

struct QntEraseEmptyResultsPass
    : qnt::impl::QntEraseEmptyResultsBase<QntEraseEmptyResultsPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EmptyResultToTensorEmpty>(&getContext());
    GreedyRewriteConfig config;
    config.enableFolding(false);
    // Merging blocks is the canonicalizer's job; this driver's default
    // (aggressive) merged branches that each read a quantized value into one
    // block with a quantized argument, which nothing can lower.
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
