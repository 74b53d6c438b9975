//===- LinalgToTileLoops.cpp - linalg to loops, parallel dims marked ------===//
//
// The generic path's kernels (quantize, dequantize, requantize, add, pools,
// and contractions without a target microkernel) are linalg ops. Lowered to
// loops here, the loops of their leading parallel dimensions get
// `qnt.parallel_tiles`, the mark qnt-parallelize-tiles looks for.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTLINALGTOTILELOOPS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

struct QntLinalgToTileLoops
    : qnt::impl::QntLinalgToTileLoopsBase<QntLinalgToTileLoops> {
  using Base::Base;

  void runOnOperation() final {
    SmallVector<linalg::LinalgOp> ops;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureBufferSemantics())
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    auto mark = UnitAttr::get(&getContext());
    for (linalg::LinalgOp op : ops) {
      SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
      rewriter.setInsertionPoint(op);
      FailureOr<linalg::LinalgLoops> loops =
          linalg::linalgOpToLoops(rewriter, op);
      // What this cannot lower, convert-linalg-to-loops reports.
      if (failed(loops))
        continue;
      // One loop per dimension, outermost first; stop at the first
      // reduction, whose loop and those inside it must stay serial.
      for (auto [loop, iterator] : llvm::zip(*loops, iterators)) {
        if (iterator != utils::IteratorType::parallel || !isa<scf::ForOp>(loop))
          break;
        loop->setAttr(QntDialect::ParallelTilesAttrHelper::getNameStr(), mark);
      }
      rewriter.eraseOp(op);
    }
  }
};

} // namespace
