//===- SplitLargeDeallocs.cpp - deallocs of many fresh buffers, chunked ---===//
//
// buffer-deallocation-simplification compares the memrefs of a dealloc pair
// by pair. A dealloc of fresh allocations only (which never alias each
// other) can be split into small ones without changing what is freed, which
// keeps that comparison linear in the number of buffers.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSPLITLARGEDEALLOCS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {

/// True when every memref of `op` is the result of a memref.alloc of its
/// own: no two of them can alias.
bool freesFreshBuffersOnly(bufferization::DeallocOp op) {
  llvm::SmallPtrSet<Operation *, 32> allocs;
  for (Value memref : op.getMemrefs()) {
    auto alloc = memref.getDefiningOp<memref::AllocOp>();
    if (!alloc || !allocs.insert(alloc).second)
      return false;
  }
  return true;
}

void split(bufferization::DeallocOp op, int64_t chunk) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  ValueRange memrefs = op.getMemrefs(), conditions = op.getConditions();
  SmallVector<Value> updated;
  for (size_t begin = 0; begin < memrefs.size(); begin += chunk) {
    size_t size = std::min<size_t>(chunk, memrefs.size() - begin);
    auto piece = bufferization::DeallocOp::create(
        b, loc, memrefs.slice(begin, size), conditions.slice(begin, size),
        op.getRetained());
    if (updated.empty()) {
      updated.assign(piece.getResults().begin(), piece.getResults().end());
      continue;
    }
    for (auto [sum, next] : llvm::zip(updated, piece.getResults()))
      sum = arith::OrIOp::create(b, loc, sum, next);
  }
  op.replaceAllUsesWith(updated);
  op.erase();
}

struct QntSplitLargeDeallocs
    : qnt::impl::QntSplitLargeDeallocsBase<QntSplitLargeDeallocs> {
  using Base::Base;

  void runOnOperation() final {
    if (chunk < 1) {
      getOperation().emitError("qnt-split-large-deallocs: chunk must be at "
                               "least 1");
      return signalPassFailure();
    }
    SmallVector<bufferization::DeallocOp> ops;
    getOperation().walk([&](bufferization::DeallocOp op) {
      if (static_cast<int64_t>(op.getMemrefs().size()) > chunk &&
          freesFreshBuffersOnly(op))
        ops.push_back(op);
    });
    if (ops.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    for (bufferization::DeallocOp op : ops)
      split(op, chunk);
  }
};

} // namespace
