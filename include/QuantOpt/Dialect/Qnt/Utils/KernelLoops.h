//===- KernelLoops.h - small builders for kernel loop nests -----*- C++ -*-===//
//
// Helpers the target kernel libraries share when they build their tile
// loops: index arithmetic that folds the trivial cases, and the
// `qnt.parallel_tiles` mark on outer output-tile loops (docs/Parallelism.md).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_UTILS_KERNELLOOPS_H
#define QUANTOPT_DIALECT_QNT_UTILS_KERNELLOOPS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

namespace mlir::qnt {

/// Marks `loop` (a loop over output tiles: its iterations write disjoint
/// parts of the result and read nothing another iteration writes) with
/// `qnt.parallel_tiles`, so that `qnt-parallelize-tiles` may run it on
/// several threads. Returns the loop's results.
ValueRange markParallelTiles(Operation *loop);

/// Index arithmetic at one insertion point; multiplications and divisions
/// by 1 and additions of 0 build nothing.
struct IndexBuilder {
  OpBuilder &b;
  Location loc;

  Value c(int64_t v);
  Value add(Value x, Value y);
  Value add(Value x, int64_t y);
  Value mul(Value x, int64_t y);
  /// Unsigned: every index these kernels divide is non-negative.
  Value div(Value x, int64_t y);
  Value rem(Value x, int64_t y);
};

} // namespace mlir::qnt

#endif // QUANTOPT_DIALECT_QNT_UTILS_KERNELLOOPS_H
