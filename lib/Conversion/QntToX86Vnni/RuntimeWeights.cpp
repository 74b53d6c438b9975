//===- RuntimeWeights.cpp - packing weights known only at run time --------===//
//
// A matmul whose weights are a run-time value runs the same microkernel as
// one with constant weights; only the packing moves to run time. The loops
// built here read W (K x N, i8) four rows at a time, interleave the rows
// byte by byte into the [tile][K1][N0][4] layout of Planning.h (two
// `vector.shuffle`s of 8-bit then 16-bit elements), and, in the same pass,
// accumulate the column sums sum_k w[k, n] with one `vpdpbusd` against a
// vector of ones per 16 columns. The bias correction that the constant path
// folds at compile time, (offset - zx) * sum_k w[k, n], is that sum times a
// constant, added to the bias when the tile starts.
//
// Only weights that need no zero point take this path: qnt-symmetric-weights
// has already moved nonzero weight zero points into a separate row-sum term,
// so w' = w and the operand plan follows from the storage type alone.
//
//===----------------------------------------------------------------------===//

#include "KernelEmitter.h"

#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"

#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

namespace mlir::qnt::x86vnni {

namespace {

/// (a[0], b[0], a[1], b[1], ...) of two vectors of n elements.
Value interleave(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  int64_t n = cast<VectorType>(lhs.getType()).getNumElements();
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < n; ++i) {
    mask.push_back(i);
    mask.push_back(n + i);
  }
  return vector::ShuffleOp::create(b, loc, lhs, rhs, mask);
}

/// Four rows of n0 bytes as n0 groups of 4: r0[j] r1[j] r2[j] r3[j].
Value interleaveRows(OpBuilder &b, Location loc, ArrayRef<Value> rows) {
  int64_t n0 = cast<VectorType>(rows[0].getType()).getNumElements();
  auto halves = VectorType::get({n0}, b.getI16Type());
  Value r01 = vector::BitCastOp::create(b, loc, halves,
                                        interleave(b, loc, rows[0], rows[1]));
  Value r23 = vector::BitCastOp::create(b, loc, halves,
                                        interleave(b, loc, rows[2], rows[3]));
  return vector::BitCastOp::create(b, loc,
                                   VectorType::get({4 * n0}, b.getI8Type()),
                                   interleave(b, loc, r01, r23));
}

struct Packer {
  OpBuilder &b;
  Location loc;
  const KernelEmitter &k;
  Value w;
  int64_t kSize;

  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }

  /// The packed bytes of `tile` as the 16-bit lanes of widenPackedWeights,
  /// each 64-byte vector reordered in place, for the emulated ISAs.
  Value widen(Value tile) {
    int64_t n = cast<VectorType>(tile.getType()).getNumElements();
    SmallVector<int64_t> order;
    for (int64_t base = 0; base < n; base += kBytes)
      for (int64_t lane = 0; lane < kBytes; ++lane)
        order.push_back(base + quantopt::x86vnni::widenedLaneSource(lane));
    Value shuffled = vector::ShuffleOp::create(b, loc, tile, tile, order);
    auto wide = VectorType::get({n}, b.getI16Type());
    if (k.weightsUnsigned)
      return arith::ExtUIOp::create(b, loc, wide, shuffled);
    return arith::ExtSIOp::create(b, loc, wide, shuffled);
  }

  /// One group of 4 reduction rows from `row0` (`rows` of them real) and
  /// columns [col0, col0 + len) padded to `vectors` * 16: written to
  /// `packed` at `offset`, its column sums added to `sums`.
  std::pair<Value, SmallVector<Value>> group(Value packed, ValueRange sums,
                                             Value row0, int64_t rows,
                                             Value col0, int64_t len,
                                             int64_t vectors, Value offset) {
    int64_t n0 = vectors * kLanes;
    auto rowType = VectorType::get({n0}, b.getI8Type());
    SmallVector<Value> r;
    for (int64_t q = 0; q < 4; ++q) {
      if (q >= rows) {
        r.push_back(arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(rowType, b.getI8IntegerAttr(0))));
        continue;
      }
      Value row = b.createOrFold<arith::AddIOp>(loc, row0, idx(q));
      r.push_back(readPadded(b, loc, w, ValueRange{row, col0}, len, n0));
    }
    Value tile = interleaveRows(b, loc, r);
    Value stored = k.widenedOperands ? widen(tile) : tile;
    packed = vector::TransferWriteOp::create(b, loc, stored, packed,
                                             ValueRange{offset},
                                             ArrayRef<bool>{true})
                 .getResult();
    auto bytes = VectorType::get({kBytes}, b.getI8Type());
    Value ones = arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(bytes, b.getI8IntegerAttr(1)));
    SmallVector<Value> next;
    for (int64_t v = 0; v < vectors; ++v) {
      Value part = vector::ExtractStridedSliceOp::create(
          b, loc, tile, ArrayRef<int64_t>{v * kBytes},
          ArrayRef<int64_t>{kBytes}, ArrayRef<int64_t>{1});
      Value u8 = k.weightsUnsigned ? part : ones;
      Value s8 = k.weightsUnsigned ? ones : part;
      next.push_back(createDotU8S8(b, loc, k.tiling.isa, sums[v], u8, s8));
    }
    return {packed, next};
  }

  /// One column tile: every group of 4 rows, then the scaled column sums.
  std::pair<Value, Value> tile(Value packed, Value corr, Value col0,
                               int64_t len, int64_t vectors, Value base,
                               int32_t factor) {
    int64_t n0 = vectors * kLanes, fullGroups = kSize / 4, rest = kSize % 4;
    auto accType = VectorType::get({kLanes}, b.getI32Type());
    SmallVector<Value> sums(
        vectors,
        arith::ConstantOp::create(
            b, loc, DenseElementsAttr::get(accType, b.getI32IntegerAttr(0))));
    if (fullGroups > 0) {
      SmallVector<Value> inits{packed};
      llvm::append_range(inits, sums);
      auto loop = scf::ForOp::create(
          b, loc, idx(0), idx(fullGroups), idx(1), inits,
          [&](OpBuilder &nb, Location, Value kk, ValueRange iters) {
            OpBuilder::InsertionGuard guard(b);
            b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
            Value offset = b.createOrFold<arith::AddIOp>(
                loc, base, b.createOrFold<arith::MulIOp>(loc, kk, idx(n0 * 4)));
            Value row0 = b.createOrFold<arith::MulIOp>(loc, kk, idx(4));
            auto [p, s] = group(iters[0], iters.drop_front(), row0, 4, col0,
                                len, vectors, offset);
            SmallVector<Value> yields{p};
            llvm::append_range(yields, s);
            scf::YieldOp::create(b, loc, yields);
          });
      packed = loop.getResult(0);
      sums = SmallVector<Value>(loop.getResults().drop_front());
    }
    if (rest > 0) {
      Value offset =
          b.createOrFold<arith::AddIOp>(loc, base, idx(fullGroups * n0 * 4));
      auto [p, s] = group(packed, sums, idx(fullGroups * 4), rest, col0, len,
                          vectors, offset);
      packed = p;
      sums = s;
    }
    if (corr) {
      Value scale = arith::ConstantOp::create(
          b, loc, DenseElementsAttr::get(accType, b.getI32IntegerAttr(factor)));
      for (int64_t v = 0; v < vectors; ++v) {
        Value scaled = arith::MulIOp::create(b, loc, sums[v], scale);
        Value at = b.createOrFold<arith::AddIOp>(loc, col0, idx(v * kLanes));
        corr = vector::TransferWriteOp::create(
                   b, loc, scaled, corr, ValueRange{at}, ArrayRef<bool>{true})
                   .getResult();
      }
    }
    return {packed, corr};
  }
};

} // namespace

void packRuntimeWeights(OpBuilder &b, Location loc, KernelEmitter &k, Value w,
                        int64_t kSize, int32_t factor) {
  const ColumnTiling &tiling = k.tiling;
  int64_t n0 = tiling.nv * kLanes;
  Value packed = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{k.packedGroupSize()},
      k.widenedOperands ? b.getI16Type() : b.getI8Type());
  Value corr;
  if (factor != 0)
    corr = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{tiling.paddedN()},
                                   b.getI32Type());
  Packer packer{b, loc, k, w, kSize};
  auto idx = [&](int64_t v) {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  if (tiling.full > 0) {
    SmallVector<Value> inits{packed};
    if (corr)
      inits.push_back(corr);
    auto loop = scf::ForOp::create(
        b, loc, idx(0), idx(tiling.full), idx(1), inits,
        [&](OpBuilder &nb, Location, Value t, ValueRange iters) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          Value col0 = b.createOrFold<arith::MulIOp>(loc, t, idx(n0));
          Value base =
              b.createOrFold<arith::MulIOp>(loc, t, idx(k.k1 * n0 * 4));
          auto [p, c] = packer.tile(iters[0], corr ? iters[1] : Value(), col0,
                                    n0, tiling.nv, base, factor);
          SmallVector<Value> yields{p};
          if (c)
            yields.push_back(c);
          scf::YieldOp::create(b, loc, yields);
        });
    // Column tiles are independent: the loop may be split across threads.
    markParallelTiles(loop);
    packed = loop.getResult(0);
    if (corr)
      corr = loop.getResult(1);
  }
  if (tiling.nvTail > 0) {
    int64_t col0 = tiling.full * n0;
    auto [p, c] =
        packer.tile(packed, corr, idx(col0), tiling.n - col0, tiling.nvTail,
                    idx(tiling.full * k.k1 * n0 * 4), factor);
    packed = p;
    corr = c;
  }
  k.wPacked = packed;
  k.correction = corr;
}

} // namespace mlir::qnt::x86vnni
