//===- SplitSharedEmptyTensors.cpp - one tensor.empty per use -------------===//
//
// Keeps one-shot bufferization linear in the number of layers: see the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSPLITSHAREDEMPTYTENSORS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {
struct QntSplitSharedEmptyTensorsPass
    : qnt::impl::QntSplitSharedEmptyTensorsBase<
          QntSplitSharedEmptyTensorsPass> {
  void runOnOperation() override {
    bool changed = false;
    getOperation().walk([&](tensor::EmptyOp empty) {
      if (empty->hasOneUse() || empty->use_empty())
        return;
      changed = true;
      OpBuilder builder(empty);
      // The first use keeps the original; clones sit at the same place, so
      // their (dynamic size) operands still dominate them.
      SmallVector<OpOperand *> uses = llvm::map_to_vector(
          empty->getUses(), [](OpOperand &use) { return &use; });
      for (OpOperand *use : llvm::drop_begin(uses))
        use->set(builder.clone(*empty)->getResult(0));
    });
    // Unchanged IR needs no new verification of the whole function.
    if (!changed)
      markAllAnalysesPreserved();
  }
};
} // namespace
