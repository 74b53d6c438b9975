//===- QntToRiscvV.cpp - int8 contractions on RVV, any VLEN ---------------===//
//
// Rewrites `qnt.int_matmul` (constant or run-time weights) and
// `qnt.int_conv2d` (constant filter, groups 1) into a VLEN-agnostic GEMM on
// scalable vectors: output rows in register tiles of kRows, columns in
// chunks of one scalable vector (vscale x 16 i32 lanes: LMUL 8 at every
// VLEN), and an inner loop over K whose step is, per row,
//   acc[r] += sext(x[r, k] - zx) * sext(w'[k, n0 .. n0 + vl))
// on i16 operands, which the RISC-V backend selects as `vwmacc.vx` at SEW
// 16 (i16 x i16 -> i32). RVV 1.0 has no 8-bit dot product into 32 bits: an
// e8 vwmacc sums in 16 bits and would overflow, so every product is one e16
// widening MAC.
//
// Every zero point is exact in 16 bits (x - zx and w - zw lie in
// [-383, 383]), so none needs a correction term: constant weights are
// stored as w' = w - zw[n] in i16, run-time weights (no zero point left)
// are sign- or zero-extended to i16 by one elementwise pass, and x - zx is
// formed per scalar. A conv reads an input padded with `pad_value` (an
// implicit GEMM, K = (kh, kw, c), the HWCF filter's own row order).
//
// VLEN-agnostic: the column loop steps by vscale x 16 and masks the last
// chunk (loads and stores); rows past M repeat row M - 1 inside the last
// tile, which stores identical values.
//
// Tile: 3 rows of LMUL-8 accumulators (24 registers) and two LMUL-4 weight
// vectors (the K loop is software-pipelined). Each vwmacc then covers
// VLEN / 4 columns: under llvm-mca's SiFive X280 model a vwmacc costs a
// fixed issue overhead besides its LMUL-proportional occupancy, which
// LMUL 2 (4 or 6 rows) left at 1.46x of the dot bound and LMUL 4 brings to
// 1.06-1.14x (bench/mca.sh).
//
// A `qnt.int_requantize` that is the only user of the result is applied to
// the accumulators before the stores (VectorRequantize, shared with the
// AArch64 kernels), and the kernel stores the codes.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToRiscvV/QntToRiscvV.h"

#include "../KernelEpilogue/VectorRequantize.h"
#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/KernelLoops.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// Output rows per register tile: kRows accumulators of LMUL 8 plus two
/// LMUL-4 weight vectors fill the 32 vector registers.
constexpr int64_t kRows = 3;
/// i32 lanes per scalable accumulator: vscale x 16 (vscale = VLEN / 64).
constexpr int64_t kLanes = 16;

constexpr int64_t kMaxPackedSplatElements = int64_t(1) << 20;

/// How one output row finds its activations: matmul rows read x[row, k];
/// conv rows read xp[img, ih0 + kh * dh, iw0 + kw * dw, c].
struct RowSource {
  bool conv = false;
  int64_t oh = 1, ow = 1, sh = 1, sw = 1, dh = 1, dw = 1, kh = 1, kw = 1,
          c = 0;
};

/// acc + sext(x - zx) * w32 on i32 lanes, from i16 operands: the RISC-V
/// backend's widening multiply-accumulate (vwmacc.vx at SEW 16).
Value mac(OpBuilder &b, Location loc, Value acc, Value w32, Value code,
          bool xUnsigned, int32_t zx, VectorType accType) {
  Type i16 = b.getI16Type();
  Value x16 = xUnsigned ? arith::ExtUIOp::create(b, loc, i16, code).getResult()
                        : arith::ExtSIOp::create(b, loc, i16, code).getResult();
  if (zx)
    x16 = arith::SubIOp::create(
        b, loc, x16,
        arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(zx)));
  Value splat = vector::BroadcastOp::create(
      b, loc, VectorType::get({kLanes}, i16, {true}), x16);
  Value x32 = arith::ExtSIOp::create(b, loc, accType, splat);
  Value prod = arith::MulIOp::create(b, loc, x32, w32);
  return arith::AddIOp::create(b, loc, acc, prod);
}

/// The GEMM: x (matmul M x K, or the padded NHWC input), w16 (K x N i16),
/// bias (N i32) -> M x N i32, or with `requant` the M x N codes,
/// requantized in registers before the (masked) stores. w16 has K + 1 rows,
/// the last zero.
Value emitGemm(OpBuilder &b, Location loc, Value x, bool xUnsigned,
               int32_t zx, Value w16, Value bias, int64_t m, int64_t kSize,
               int64_t n, const RowSource &src,
               const VectorRequantize *requant) {
  IndexBuilder ib{b, loc};
  Type i16 = b.getI16Type(), i32 = b.getI32Type();
  auto accType = VectorType::get({kLanes}, i32, {true});
  auto wType = VectorType::get({kLanes}, i16, {true});
  auto maskType = VectorType::get({kLanes}, b.getI1Type(), {true});
  MLIRContext *ctx = b.getContext();
  auto minor = AffineMapAttr::get(AffineMap::getMinorIdentityMap(
      2, 1, ctx)); // (d0, d1) -> (d1)
  auto minor1 = AffineMapAttr::get(AffineMap::getMinorIdentityMap(1, 1, ctx));
  ArrayAttr inBounds = b.getBoolArrayAttr({true});
  Value zero16 = arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(0));
  Value zero32 = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value init = tensor::EmptyOp::create(b, loc, SmallVector<int64_t>{m, n},
                                       requant ? requant->getStorage() : i32);
  Value vl = ib.mul(vector::VectorScaleOp::create(b, loc), kLanes);
  int64_t tiles = (m + kRows - 1) / kRows;

  auto outer = scf::ForOp::create(
      b, loc, ib.c(0), ib.c(tiles), ib.c(1), ValueRange{init},
      [&](OpBuilder &ob, Location, Value mt, ValueRange outerArgs) {
        IndexBuilder o{ob, loc};
        // Row coordinates, clamped into the last row.
        SmallVector<SmallVector<Value>> rowIdx;
        SmallVector<Value> rows;
        for (int64_t r = 0; r < kRows; ++r) {
          Value row = o.add(o.mul(mt, kRows), r);
          if (m % kRows)
            row = arith::MinSIOp::create(ob, loc, row, o.c(m - 1));
          rows.push_back(row);
          if (src.conv) {
            Value img = o.div(row, src.oh * src.ow);
            Value pix = o.rem(row, src.oh * src.ow);
            rowIdx.push_back({img, o.mul(o.div(pix, src.ow), src.sh),
                              o.mul(o.rem(pix, src.ow), src.sw)});
          }
        }
        // One chunk of columns from n0: `masked` for the last, partial one
        // (full chunks load without a mask, so that no merge copy or
        // vsetvli change lands in the K loop).
        auto chunk = [&](OpBuilder &nb, Value n0, Value out,
                         bool masked) -> Value {
          IndexBuilder c{nb, loc};
          Value mask;
          if (masked) {
            Value left = arith::SubIOp::create(nb, loc, c.c(n), n0);
            mask = vector::CreateMaskOp::create(nb, loc, maskType,
                                                ValueRange{left});
          }
          Value biasVec = vector::TransferReadOp::create(
              nb, loc, accType, bias, ValueRange{n0}, minor1, zero32, mask,
              inBounds);
          SmallVector<Value> accs(kRows, biasVec);
          auto readW = [&](OpBuilder &kb, Value k) -> Value {
            return vector::TransferReadOp::create(kb, loc, wType, w16,
                                                  ValueRange{k, n0}, minor,
                                                  zero16, mask, inBounds);
          };
          // Loops over k in [0, extent) (row base + k of w16), `unroll` K
          // steps per trip, software-pipelined: each trip loads the weight
          // vector of the next trip's first step (w16 has one zero row past
          // K for the last), so that the in-order vector unit never waits
          // for a load right before its MACs.
          auto kLoop = [&](OpBuilder &lb, Value base, int64_t extent,
                           ValueRange init,
                           llvm::function_ref<Value(OpBuilder &, Value,
                                                    int64_t)>
                               code) -> SmallVector<Value> {
            IndexBuilder l{lb, loc};
            int64_t unroll = extent % 2 == 0 ? 2 : 1;
            Value row0 = base ? base : l.c(0);
            SmallVector<Value> iter(init.begin(), init.end());
            iter.push_back(readW(lb, row0));
            auto loop = scf::ForOp::create(
                lb, loc, l.c(0), l.c(extent / unroll), l.c(1), iter,
                [&](OpBuilder &kb, Location, Value ku, ValueRange in) {
                  IndexBuilder t{kb, loc};
                  SmallVector<Value> ks;
                  for (int64_t u = 0; u < unroll; ++u)
                    ks.push_back(t.add(row0, t.add(t.mul(ku, unroll), u)));
                  Value next = readW(kb, t.add(ks.back(), 1));
                  SmallVector<Value> wv = {in.back()};
                  for (int64_t u = 1; u < unroll; ++u)
                    wv.push_back(readW(kb, ks[u]));
                  SmallVector<SmallVector<Value>> codes;
                  for (Value k : ks) {
                    codes.emplace_back();
                    for (int64_t r = 0; r < kRows; ++r)
                      codes.back().push_back(code(kb, k, r));
                  }
                  SmallVector<Value> out(in.drop_back());
                  for (int64_t u = 0; u < unroll; ++u) {
                    Value w32 = arith::ExtSIOp::create(kb, loc, accType, wv[u]);
                    for (int64_t r = 0; r < kRows; ++r)
                      out[r] = mac(kb, loc, out[r], w32, codes[u][r],
                                   xUnsigned, zx, accType);
                  }
                  out.push_back(next);
                  scf::YieldOp::create(kb, loc, out);
                });
            SmallVector<Value> res(loop.getResults().drop_back());
            return res;
          };
          SmallVector<Value> res;
          if (!src.conv) {
            res = kLoop(nb, Value(), kSize, accs,
                        [&](OpBuilder &xb, Value k, int64_t r) -> Value {
                          return tensor::ExtractOp::create(
                              xb, loc, x, ValueRange{rows[r], k});
                        });
          } else {
            // kh, kw, then the channels innermost.
            auto khLoop = scf::ForOp::create(
                nb, loc, c.c(0), c.c(src.kh), c.c(1), accs,
                [&](OpBuilder &hb, Location, Value kh, ValueRange hIn) {
                  IndexBuilder h{hb, loc};
                  auto kwLoop = scf::ForOp::create(
                      hb, loc, h.c(0), h.c(src.kw), h.c(1), hIn,
                      [&](OpBuilder &wb, Location, Value kw, ValueRange wIn) {
                        IndexBuilder t{wb, loc};
                        Value tapRow =
                            t.mul(t.add(t.mul(kh, src.kw), kw), src.c);
                        SmallVector<Value> ih, iw;
                        for (int64_t r = 0; r < kRows; ++r) {
                          ih.push_back(t.add(rowIdx[r][1], t.mul(kh, src.dh)));
                          iw.push_back(t.add(rowIdx[r][2], t.mul(kw, src.dw)));
                        }
                        SmallVector<Value> cRes = kLoop(
                            wb, tapRow, src.c, wIn,
                            [&](OpBuilder &xb, Value k, int64_t r) -> Value {
                              Value ch =
                                  arith::SubIOp::create(xb, loc, k, tapRow);
                              return tensor::ExtractOp::create(
                                  xb, loc, x,
                                  ValueRange{rowIdx[r][0], ih[r], iw[r], ch});
                            });
                        scf::YieldOp::create(wb, loc, cRes);
                      });
                  scf::YieldOp::create(hb, loc, kwLoop.getResults());
                });
            res.assign(khLoop.getResults().begin(), khLoop.getResults().end());
          }
          for (int64_t r = 0; r < kRows; ++r)
            out = vector::TransferWriteOp::create(
                      nb, loc,
                      requant ? requant->apply(nb, loc, res[r], n0, mask)
                              : res[r],
                      out, ValueRange{rows[r], n0}, minor, mask, inBounds)
                      .getResult();
          return out;
        };
        Value nFull = arith::DivUIOp::create(ob, loc, o.c(n), vl);
        nFull = arith::MulIOp::create(ob, loc, nFull, vl);
        auto cols = scf::ForOp::create(
            ob, loc, o.c(0), nFull, vl, outerArgs,
            [&](OpBuilder &nb, Location, Value n0, ValueRange args) {
              scf::YieldOp::create(nb, loc, chunk(nb, n0, args[0], false));
            });
        Value partial = arith::CmpIOp::create(
            ob, loc, arith::CmpIPredicate::ult, nFull, o.c(n));
        auto tail = scf::IfOp::create(
            ob, loc, partial,
            [&](OpBuilder &tb, Location) {
              scf::YieldOp::create(
                  tb, loc, chunk(tb, nFull, cols.getResult(0), true));
            },
            [&](OpBuilder &eb, Location) {
              scf::YieldOp::create(eb, loc, cols.getResult(0));
            });
        scf::YieldOp::create(ob, loc, tail.getResult(0));
      });
  return markParallelTiles(outer)[0];
}

/// w' = w - zw[col] as an i16 K x N constant.
Value constantWeights16(OpBuilder &b, Location loc,
                        const std::vector<int64_t> &codes,
                        ArrayRef<int32_t> zw, int64_t kSize, int64_t n) {
  // One zero row past K: the software-pipelined K loop reads it last.
  SmallVector<int16_t> values((kSize + 1) * n, 0);
  for (int64_t k = 0; k < kSize; ++k)
    for (int64_t col = 0; col < n; ++col)
      values[k * n + col] = static_cast<int16_t>(
          codes[k * n + col] - zw[zw.size() == 1 ? 0 : col]);
  auto type = RankedTensorType::get({kSize + 1, n}, b.getI16Type());
  return arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(type, ArrayRef(values)));
}

struct MatmulPattern : OpRewritePattern<IntMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IntMatmulOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getX().getType(), wType = op.getW().getType();
    if (!xType.hasStaticShape() || !wType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t m = xType.getDimSize(0), kSize = xType.getDimSize(1),
            n = wType.getDimSize(1);
    if (m == 0 || kSize == 0 || n == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    ArrayRef<int32_t> zw = op.getWeightZeroPoints();
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value w16;
    if (std::optional<std::vector<int64_t>> codes =
            getConstantInts(op.getW(), 8, op.getWUnsigned(),
                        kMaxPackedSplatElements)) {
      w16 = constantWeights16(b, loc, *codes, zw, kSize, n);
    } else {
      if (!llvm::all_of(zw, [](int32_t z) { return z == 0; }) ||
          isa_and_nonnull<arith::ConstantOp>(op.getW().getDefiningOp()))
        return rewriter.notifyMatchFailure(op, "run-time weight zero points");
      auto type = RankedTensorType::get({kSize, n}, b.getI16Type());
      Value wide =
          op.getWUnsigned()
              ? arith::ExtUIOp::create(b, loc, type, op.getW()).getResult()
              : arith::ExtSIOp::create(b, loc, type, op.getW()).getResult();
      // Plus the zero row past K that the pipelined K loop reads last.
      Value zero = arith::ConstantOp::create(b, loc, b.getI16IntegerAttr(0));
      Value init = tensor::EmptyOp::create(
          b, loc, SmallVector<int64_t>{kSize + 1, n}, b.getI16Type());
      Value filled = linalg::FillOp::create(b, loc, zero, init).getResult(0);
      w16 = tensor::InsertSliceOp::create(
          b, loc, wide, filled,
          ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(kSize), b.getIndexAttr(n)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
    }
    // Tables of n entries: the last, partial column chunk reads them under
    // its mask.
    std::optional<VectorRequantize> fused =
        VectorRequantize::fuseSingleUser(b, loc, op.getResult(), n, n);
    Value c = emitGemm(b, loc, op.getX(), op.getXUnsigned(),
                       op.getInputZeroPoint(), w16, op.getBias(), m, kSize, n,
                       RowSource{}, fused ? &*fused : nullptr);
    VectorRequantize::replaceResult(rewriter, op, fused, c);
    return success();
  }
};

struct ConvPattern : OpRewritePattern<IntConv2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(IntConv2DOp op,
                                PatternRewriter &rewriter) const override {
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto wType = cast<RankedTensorType>(op.getW().getType());
    auto yType = cast<RankedTensorType>(op.getResult().getType());
    if (!xType.hasStaticShape() || !wType.hasStaticShape() ||
        !yType.hasStaticShape() || op.getGroups() != 1)
      return rewriter.notifyMatchFailure(op, "dynamic shape or groups");
    std::optional<std::vector<int64_t>> codes =
        getConstantInts(op.getW(), 8, op.getWUnsigned(),
                        kMaxPackedSplatElements);
    if (!codes)
      return rewriter.notifyMatchFailure(op, "run-time filter");
    RowSource src;
    src.conv = true;
    src.kh = wType.getDimSize(0);
    src.kw = wType.getDimSize(1);
    src.c = wType.getDimSize(2);
    src.oh = yType.getDimSize(1);
    src.ow = yType.getDimSize(2);
    src.sh = op.getStrides()[0];
    src.sw = op.getStrides()[1];
    src.dh = op.getDilations()[0];
    src.dw = op.getDilations()[1];
    int64_t f = wType.getDimSize(3);
    int64_t m = yType.getDimSize(0) * src.oh * src.ow;
    int64_t kSize = src.kh * src.kw * src.c;
    // An empty input (H or W of 0) still has outputs made of padding only:
    // the generic lowering computes them.
    auto xShape = cast<RankedTensorType>(op.getX().getType()).getShape();
    if (m == 0 || f == 0 || kSize == 0 || xShape[1] == 0 || xShape[2] == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    Value w16 = constantWeights16(b, loc, *codes, op.getWeightZeroPoints(),
                                  kSize, f);
    // The input padded with pad_value: the window never leaves it.
    ArrayRef<int64_t> pad = op.getPadding();
    Value x = op.getX();
    if (llvm::any_of(pad, [](int64_t p) { return p != 0; })) {
      SmallVector<int64_t> shape = {xType.getDimSize(0),
                                    xType.getDimSize(1) + pad[0] + pad[1],
                                    xType.getDimSize(2) + pad[2] + pad[3],
                                    xType.getDimSize(3)};
      Value padCode = arith::ConstantOp::create(
          b, loc,
          b.getI8IntegerAttr(static_cast<int8_t>(op.getPadValue())));
      Value init = tensor::EmptyOp::create(b, loc, shape, b.getI8Type());
      Value filled = linalg::FillOp::create(b, loc, padCode, init).getResult(0);
      x = tensor::InsertSliceOp::create(
          b, loc, x, filled,
          ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(pad[0]),
                                 b.getIndexAttr(pad[2]), b.getIndexAttr(0)},
          ArrayRef<OpFoldResult>{b.getIndexAttr(xType.getDimSize(0)),
                                 b.getIndexAttr(xType.getDimSize(1)),
                                 b.getIndexAttr(xType.getDimSize(2)),
                                 b.getIndexAttr(xType.getDimSize(3))},
          SmallVector<OpFoldResult>(4, b.getIndexAttr(1)));
    }
    std::optional<VectorRequantize> fused =
        VectorRequantize::fuseSingleUser(b, loc, op.getResult(), f, f);
    Value c = emitGemm(b, loc, x, op.getXUnsigned(), op.getInputZeroPoint(),
                       w16, op.getBias(), m, kSize, f, src,
                       fused ? &*fused : nullptr);
    Value result = tensor::ExpandShapeOp::create(
        b, loc, fused ? fused->getOp().getOutput().getType() : yType, c,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    VectorRequantize::replaceResult(rewriter, op, fused, result);
    return success();
  }
};

} // namespace

void mlir::qnt::populateQntToRiscvVPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulPattern, ConvPattern>(patterns.getContext());
}
