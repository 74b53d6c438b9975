//===- DynamicScalesToLinalgPass.cpp - runtime-scale ops to linalg --------===//

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTDYNAMICSCALESTOLINALG
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// Records the linalg.generic each qnt.dequantize_dynamic became.
struct DequantizeListener : RewriterBase::Listener {
  SmallVector<linalg::GenericOp> generics;
  void notifyOperationReplaced(Operation *op, ValueRange values) override {
    if (isa<DequantizeDynamicOp>(op) && values.size() == 1)
      if (auto generic = values[0].getDefiningOp<linalg::GenericOp>())
        generics.push_back(generic);
  }
};

bool allParallel(linalg::GenericOp op) {
  return op.getNumParallelLoops() == op.getNumLoops();
}

/// Fuses `operand`'s producer into its owner (upstream's elementwise
/// fusion: the bodies are concatenated, every f32 step stays as it was, so
/// the bits do not change). Returns the fused op, or null.
linalg::GenericOp fuse(RewriterBase &rewriter, OpOperand &operand) {
  auto producer = operand.get().getDefiningOp<linalg::GenericOp>();
  if (!producer || !linalg::areElementwiseOpsFusable(&operand))
    return nullptr;
  Operation *consumer = operand.getOwner();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(consumer);
  FailureOr<linalg::ElementwiseOpFusionResult> fused =
      linalg::fuseElementwiseOps(rewriter, &operand);
  if (failed(fused))
    return nullptr;
  for (auto [original, replacement] : fused->replacements)
    rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
      return use.getOwner() != producer;
    });
  rewriter.eraseOp(consumer);
  if (producer->use_empty())
    rewriter.eraseOp(producer);
  return cast<linalg::GenericOp>(fused->fusedOp);
}

/// The runtime-scale matmul dequantizes its i32 accumulator with the product
/// of a row and a column scale (contract, "Runtime-scale matmul"), a tensor
/// the size of the output that an elementwise linalg.generic computes; an
/// elementwise epilogue (bias, GELU) usually follows. Fusing both into the
/// dequantization loop computes the product per element in registers and
/// writes only the epilogue's result (the W8A8 MLP: docs/W8A8.md).
/// Only single-use, all-parallel neighbours that meet the dequantization
/// element for element (no broadcast) are fused, so nothing is computed
/// twice; never another dequantization (`ours`), which keeps its own turn.
void fuseNeighbors(RewriterBase &rewriter, linalg::GenericOp generic,
                   const llvm::DenseSet<Operation *> &ours) {
  bool changed = true;
  while (changed) {
    changed = false;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto producer = input->get().getDefiningOp<linalg::GenericOp>();
      // A broadcast operand (a per-row scale read by every column) would
      // run the producer's body once per element instead of once per row.
      if (!producer || ours.contains(producer) || !allParallel(producer) ||
          !producer->hasOneUse() ||
          !generic.getMatchingIndexingMap(input).isPermutation())
        continue;
      if (linalg::GenericOp fused = fuse(rewriter, *input)) {
        generic = fused;
        changed = true;
        break;
      }
    }
  }
  if (generic->getNumResults() != 1 || !generic->hasOneUse())
    return;
  OpOperand &use = *generic->getUses().begin();
  auto consumer = dyn_cast<linalg::GenericOp>(use.getOwner());
  if (consumer && !ours.contains(consumer) && allParallel(consumer) &&
      consumer.getMatchingIndexingMap(&use).isPermutation())
    fuse(rewriter, use);
}

struct QntDynamicScalesToLinalgPass
    : qnt::impl::QntDynamicScalesToLinalgBase<QntDynamicScalesToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateQntDynamicScaleOpsToLinalgPatterns(patterns);
    // Each op is rewritten once; nothing else is touched (no folding).
    DequantizeListener listener;
    walkAndApplyPatterns(getOperation(), std::move(patterns), &listener);
    IRRewriter rewriter(&getContext());
    llvm::DenseSet<Operation *> ours;
    for (linalg::GenericOp generic : listener.generics)
      ours.insert(generic);
    for (linalg::GenericOp generic : listener.generics)
      fuseNeighbors(rewriter, generic, ours);
  }
};
} // namespace
