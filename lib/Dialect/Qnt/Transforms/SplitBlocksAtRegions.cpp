//===- SplitBlocksAtRegions.cpp - one block per top-level region op -------===//
//
// Splitting a block moves every op after the split point. convert-scf-to-cf
// splits once per loop, first loop first, so a function of many loops in one
// block costs quadratic time there; splitting beforehand, last loop first,
// moves each op once.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSPLITBLOCKSATREGIONS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {

/// Splits `block` before each op with regions but the first op, last
/// first, chaining the pieces with unconditional branches.
void splitAtRegionOps(Block *block) {
  SmallVector<Operation *> points;
  for (Operation &op : *block)
    if (op.getNumRegions() != 0 && &op != &block->front())
      points.push_back(&op);
  for (Operation *op : llvm::reverse(points)) {
    Block *rest = block->splitBlock(op);
    OpBuilder b = OpBuilder::atBlockEnd(block);
    cf::BranchOp::create(b, op->getLoc(), rest);
  }
}

struct QntSplitBlocksAtRegions
    : qnt::impl::QntSplitBlocksAtRegionsBase<QntSplitBlocksAtRegions> {
  using Base::Base;

  void runOnOperation() final {
    func::FuncOp func = getOperation();
    if (func.isExternal()) {
      markAllAnalysesPreserved();
      return;
    }
    // The function body's blocks only: a loop body must stay one block, and
    // it holds few loops (a kernel's nest), where the split is cheap.
    Region &body = func.getBody();
    size_t before = body.getBlocks().size();
    SmallVector<Block *> blocks =
        llvm::map_to_vector(body, [](Block &block) { return &block; });
    for (Block *block : blocks)
      splitAtRegionOps(block);
    bool changed = body.getBlocks().size() != before;
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
