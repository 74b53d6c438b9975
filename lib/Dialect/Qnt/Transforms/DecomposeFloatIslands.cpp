//===- DecomposeFloatIslands.cpp - linalg.softmax -> linalg.generic -------===//
//
// Float islands (softmax heads, sigmoid, GELU) stay in f32 between a
// qnt.dequantize and a qnt.quantize. Elementwise linalg/math/arith already
// lowers; aggregated ops such as linalg.softmax have no loop lowering, so
// they are decomposed on tensors into the linalg ops they stand for.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTDECOMPOSEFLOATISLANDS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct DecomposeAggregate
    : OpInterfaceRewritePattern<linalg::AggregatedOpInterface> {
  using OpInterfaceRewritePattern::OpInterfaceRewritePattern;

  LogicalResult matchAndRewrite(linalg::AggregatedOpInterface op,
                                PatternRewriter &rewriter) const override {
    // On buffers the decomposition would need destination handling; the
    // pass runs before bufferization.
    if (!llvm::all_of(op->getResultTypes(), llvm::IsaPred<RankedTensorType>) ||
        op->getNumResults() == 0)
      return rewriter.notifyMatchFailure(op, "not on tensors");
    FailureOr<SmallVector<Value>> values = op.decomposeOperation(rewriter);
    if (failed(values))
      return failure();
    rewriter.replaceOp(op, *values);
    return success();
  }
};

struct QntDecomposeFloatIslandsPass
    : qnt::impl::QntDecomposeFloatIslandsBase<QntDecomposeFloatIslandsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Without an aggregated op there is nothing to decompose: skip the
    // greedy driver's sweep (and the verification of an unchanged function).
    WalkResult found = getOperation().walk(
        [](linalg::AggregatedOpInterface) { return WalkResult::interrupt(); });
    if (!found.wasInterrupted())
      return markAllAnalysesPreserved();
    RewritePatternSet patterns(&getContext());
    patterns.add<DecomposeAggregate>(&getContext());
    // No block merging (canonicalize's job): it could give a block a
    // quantized argument.
    GreedyRewriteConfig config;
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(patterns), config)))
      return signalPassFailure();
    WalkResult left = getOperation().walk([](linalg::AggregatedOpInterface op) {
      op->emitOpError("could not be decomposed into linalg ops");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
