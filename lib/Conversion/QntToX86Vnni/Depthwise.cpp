//===- Depthwise.cpp - depthwise conv vectorized along channels -----------===//
//
// Rewrites a depthwise `qnt.int_conv2d` (groups == C == F) with constant
// weights, and the `qnt.int_requantize` that consumes it when there is one,
// into loops over NHWC pixels whose vectors run along the channels, which
// NHWC keeps contiguous. Every channel has its own filter, so there is no
// reduction across lanes: a tap is one multiply-accumulate per lane.
//
// The multiply-accumulate is a 16-bit one. x (u8 or s8) is widened to i32,
// so that its low 16 bits hold x as an s16; the weight table holds
// w' = w - zw[c] in the low 16 bits of each i32 lane and 0 in the high ones.
// `vpdpwssd` (VNNI) or `vpmaddwd` + add then computes
//   acc + x * w' + high16(x) * 0 = acc + x * w'
// exactly (|x| <= 255, |w'| <= 255), with no flip and no correction.
// The input zero point folds into the bias (b - zx * sum_t w'[t, c]); padded
// taps read pad_value, which contributes (pad_value - zx) * w' as the
// reference does.
//
// Work split (Planning.h, planDepthwise): rows (n, oh); along W, register
// tiles of tileW pixels that load each input column once per filter row and
// reuse it for every tap that reads it. Rows and columns whose window lies
// inside the input (interiorOutputs) take those tiles without any bounds
// check; the border pixels take a one-pixel path that loads from a clamped
// address and selects pad_value for a tap outside the input. The epilogue is
// the requantization of FixedPointBuilder (the code of qnt-to-linalg, so the
// same bits) on vectors, then one store of the narrow codes per pixel.
//
//===----------------------------------------------------------------------===//

#include "Depthwise.h"

#include "FusedRequantize.h"
#include "KernelEmitter.h"
#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::x86vnni;
using quantopt::x86vnni::DepthwisePlan;
using quantopt::x86vnni::OutputRange;

namespace {

struct DepthwiseEmitter {
  DepthwiseEmitter(OpBuilder &b, Location loc) : b(b), loc(loc) {}

  OpBuilder &b;
  Location loc;
  DepthwisePlan plan;
  bool dotI16 = true; // vpdpwssd, else vpmaddwd + add
  bool xUnsigned = false;
  int64_t batch = 0, h = 0, w = 0, c = 0, kh = 0, kw = 0, oh = 0, ow = 0;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padLeft = 0;
  Value x;             ///< tensor<N x H x W x C x i8>
  Value weights;       ///< tensor<KH*KW*Cp x i32>, w' in the low 16 bits
  Value biasTable;     ///< tensor<Cp x i32> bias + correction, or null
  Value biasRuntime;   ///< tensor<C x i32>, when biasTable is null
  Value correction;    ///< tensor<Cp x i32> or null (all zero)
  int32_t padCode = 0; ///< pad_value as the widened code
  std::optional<FusedRequantize> epilogue;

  VectorType vec(Type elt) const { return VectorType::get({plan.lanes}, elt); }
  Value idx(int64_t v) { return arith::ConstantIndexOp::create(b, loc, v); }
  Value add(Value a, Value c) {
    return b.createOrFold<arith::AddIOp>(loc, a, c);
  }
  Value addc(Value a, int64_t v) { return v == 0 ? a : add(a, idx(v)); }
  Value mulc(Value a, int64_t v) {
    return v == 1 ? a : b.createOrFold<arith::MulIOp>(loc, a, idx(v));
  }

  /// The widened input vector of `len` channels from c0 at (n, ih, iw).
  Value loadX(Value n, Value ih, Value iw, Value c0, int64_t len) {
    Value bytes =
        readPadded(b, loc, x, ValueRange{n, ih, iw, c0}, len, plan.lanes);
    Type i32v = vec(b.getI32Type());
    if (xUnsigned)
      return arith::ExtUIOp::create(b, loc, i32v, bytes);
    return arith::ExtSIOp::create(b, loc, i32v, bytes);
  }

  Value readTable(Value table, Value offset) {
    auto type = cast<ShapedType>(table.getType());
    return vector::TransferReadOp::create(b, loc, vec(type.getElementType()),
                                          table, ValueRange{offset},
                                          std::nullopt, ArrayRef<bool>{true});
  }

  Value weight(int64_t i, int64_t j, Value c0) {
    return readTable(weights, addc(c0, (i * kw + j) * plan.paddedChannels()));
  }

  /// acc + x * w' per lane (both i32 vectors, w' in the low 16 bits).
  Value mac(Value acc, Value xv, Value wv) {
    auto pairs = VectorType::get({plan.lanes * 2}, b.getI16Type());
    Value xs = vector::BitCastOp::create(b, loc, pairs, xv);
    Value ws = vector::BitCastOp::create(b, loc, pairs, wv);
    if (dotI16)
      return qnt_kernel::X86DotI16Op::create(b, loc, acc.getType(), acc, xs,
                                             ws);
    Value prod =
        qnt_kernel::X86MaddI16Op::create(b, loc, acc.getType(), xs, ws);
    return arith::AddIOp::create(b, loc, acc, prod);
  }

  Value initAcc(Value c0, int64_t len) {
    if (biasTable)
      return readTable(biasTable, c0);
    Value v = readPadded(b, loc, biasRuntime, ValueRange{c0}, len, plan.lanes);
    if (correction)
      v = arith::AddIOp::create(b, loc, v, readTable(correction, c0));
    return v;
  }

  /// Requantizes (when fused) and stores one pixel's `len` channels.
  Value store(Value out, Value acc, Value n, Value ohv, Value owv, Value c0,
              int64_t len) {
    Value result = epilogue ? epilogue->apply(b, loc, acc, c0) : acc;
    return writePrefix(b, loc, result, out, ValueRange{n, ohv, owv, c0}, len);
  }

  /// A register tile of `pixels` outputs from ow0 whose windows are inside
  /// the input: each input column of a filter row is loaded once.
  Value emitTile(Value out, Value n, Value ohv, Value ow0, int64_t pixels,
                 Value c0, int64_t len) {
    SmallVector<Value> accs(pixels, initAcc(c0, len));
    Value ihBase = addc(mulc(ohv, strideH), -padTop);
    Value iwBase = addc(mulc(ow0, strideW), -padLeft);
    SmallVector<int64_t> columns =
        quantopt::x86vnni::tileInputColumns(pixels, kw, strideW, dilationW);
    for (int64_t i = 0; i < kh; ++i) {
      Value ih = addc(ihBase, i * dilationH);
      llvm::DenseMap<int64_t, Value> xs;
      for (int64_t col : columns)
        xs[col] = loadX(n, ih, addc(iwBase, col), c0, len);
      for (int64_t j = 0; j < kw; ++j) {
        Value wv = weight(i, j, c0);
        for (int64_t p = 0; p < pixels; ++p)
          accs[p] = mac(accs[p], xs[p * strideW + j * dilationW], wv);
      }
    }
    for (int64_t p = 0; p < pixels; ++p)
      out = store(out, accs[p], n, ohv, addc(ow0, p), c0, len);
    return out;
  }

  /// One output pixel whose window may leave the input: clamped loads, and
  /// pad_value for the taps outside.
  Value emitBorderPixel(Value out, Value n, Value ohv, Value owv, Value c0,
                        int64_t len) {
    Value acc = initAcc(c0, len);
    Value pad = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(vec(b.getI32Type()),
                               b.getI32IntegerAttr(padCode)));
    auto inside = [&](Value v, int64_t size) {
      // Unsigned compare: negative indices are outside too.
      return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, v,
                                   idx(size));
    };
    auto clampTo = [&](Value v, int64_t size) {
      return arith::MinSIOp::create(
          b, loc, arith::MaxSIOp::create(b, loc, v, idx(0)), idx(size - 1));
    };
    Value ihBase = addc(mulc(ohv, strideH), -padTop);
    Value iwBase = addc(mulc(owv, strideW), -padLeft);
    for (int64_t i = 0; i < kh; ++i) {
      Value ih = addc(ihBase, i * dilationH);
      Value rowInside = inside(ih, h);
      Value ihc = clampTo(ih, h);
      for (int64_t j = 0; j < kw; ++j) {
        Value iw = addc(iwBase, j * dilationW);
        Value ok = arith::AndIOp::create(b, loc, rowInside, inside(iw, w));
        Value xv = loadX(n, ihc, clampTo(iw, w), c0, len);
        xv = arith::SelectOp::create(b, loc, ok, xv, pad);
        acc = mac(acc, xv, weight(i, j, c0));
      }
    }
    return store(out, acc, n, ohv, owv, c0, len);
  }

  /// `scf.for iv in [lo, hi)` carrying the output tensor; `body` returns the
  /// next value. Loops of no step vanish, loops of one step are inlined.
  Value forRange(Value out, int64_t lo, int64_t hi, int64_t step,
                 llvm::function_ref<Value(Value, Value)> body,
                 bool parallelTiles = false) {
    if (hi <= lo)
      return out;
    if (hi - lo <= step)
      return body(idx(lo), out);
    auto loop = scf::ForOp::create(
        b, loc, idx(lo), idx(hi), idx(step), ValueRange{out},
        [&](OpBuilder &nb, Location, Value iv, ValueRange iters) {
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
          scf::YieldOp::create(b, loc, body(iv, iters[0]));
        });
    if (parallelTiles)
      markParallelTiles(loop);
    return loop.getResult(0);
  }

  /// Every channel vector of one output row.
  Value emitRow(Value out, Value n, Value ohv, bool rowInside,
                OutputRange cols) {
    auto channels = [&](Value c0, Value acc, int64_t len) {
      auto border = [&](Value owv, Value o) {
        return emitBorderPixel(o, n, ohv, owv, c0, len);
      };
      if (!rowInside)
        return forRange(acc, 0, ow, 1, border);
      acc = forRange(acc, 0, cols.lo, 1, border);
      int64_t tile = plan.tileW, count = cols.hi - cols.lo;
      int64_t fullEnd = cols.lo + count / tile * tile;
      acc = forRange(acc, cols.lo, fullEnd, tile, [&](Value ow0, Value o) {
        return emitTile(o, n, ohv, ow0, tile, c0, len);
      });
      if (fullEnd < cols.hi)
        acc = emitTile(acc, n, ohv, idx(fullEnd), cols.hi - fullEnd, c0, len);
      return forRange(acc, cols.hi, ow, 1, border);
    };
    out = forRange(
        out, 0, plan.fullVectors * plan.lanes, plan.lanes,
        [&](Value c0, Value o) { return channels(c0, o, plan.lanes); });
    if (plan.tailLanes)
      out = channels(idx(plan.fullVectors * plan.lanes), out, plan.tailLanes);
    return out;
  }

  Value emit(Value out) {
    OutputRange rows = quantopt::x86vnni::interiorOutputs(h, oh, padTop, kh,
                                                          strideH, dilationH);
    OutputRange cols = quantopt::x86vnni::interiorOutputs(w, ow, padLeft, kw,
                                                          strideW, dilationW);
    return forRange(out, 0, batch, 1, [&](Value n, Value o) {
      auto rowLoop = [&](Value acc, int64_t lo, int64_t hi, bool inside) {
        return forRange(
            acc, lo, hi, 1,
            [&](Value ohv, Value a) {
              return emitRow(a, n, ohv, inside, cols);
            },
            /*parallelTiles=*/true);
      };
      o = rowLoop(o, 0, rows.lo, false);
      o = rowLoop(o, rows.lo, rows.hi, cols.lo < cols.hi);
      return rowLoop(o, rows.hi, oh, false);
    });
  }
};

/// Whether `conv` is a depthwise conv this kernel takes (shape checks only).
bool isDepthwise(IntConv2DOp conv) {
  RankedTensorType xType = conv.getX().getType(), wType = conv.getW().getType(),
                   resultType = conv.getResult().getType();
  if (!xType.hasStaticShape() || !wType.hasStaticShape() ||
      !resultType.hasStaticShape())
    return false;
  int64_t c = xType.getDimSize(3);
  return c > 0 && static_cast<int64_t>(conv.getGroups()) == c &&
         wType.getDimSize(2) == 1 && wType.getDimSize(3) == c;
}

/// The single int_requantize consuming `conv`, if any.
IntRequantizeOp fusableRequantize(IntConv2DOp conv) {
  return FusedRequantize::singleUser(conv.getResult(),
                                     conv.getX().getType().getDimSize(3));
}

LogicalResult rewriteDepthwise(PatternRewriter &rewriter, IntConv2DOp conv,
                               IntRequantizeOp requant,
                               const DepthwiseIsa &isa) {
  if (!isDepthwise(conv))
    return failure();
  RankedTensorType xType = conv.getX().getType(), wType = conv.getW().getType(),
                   resultType = conv.getResult().getType();
  ArrayRef<int64_t> strides = conv.getStrides(),
                    dilations = conv.getDilations(),
                    padding = conv.getPadding();
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }) ||
      llvm::any_of(strides, [](int64_t s) { return s <= 0; }) ||
      llvm::any_of(dilations, [](int64_t d) { return d <= 0; }))
    return failure();
  int64_t batch = xType.getDimSize(0), h = xType.getDimSize(1),
          w = xType.getDimSize(2), c = xType.getDimSize(3);
  int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1);
  int64_t oh = resultType.getDimSize(1), ow = resultType.getDimSize(2);
  if (batch * oh * ow == 0 || kh == 0 || kw == 0 || h == 0 || w == 0)
    return failure();
  if (quantopt::ref::windowOutputSize(h, padding[0], padding[1], kh, strides[0],
                                      dilations[0]) != oh ||
      quantopt::ref::windowOutputSize(w, padding[2], padding[3], kw, strides[1],
                                      dilations[1]) != ow)
    return failure();
  // Index arithmetic stays far inside int64: the products below bound every
  // offset the loops form.
  if (!quantopt::ref::checkedProduct(
          {batch, h + kh * dilations[0], w + kw * dilations[1], c + 16}) ||
      !quantopt::ref::checkedProduct({oh + 1, strides[0]}) ||
      !quantopt::ref::checkedProduct({ow + 16, strides[1]}) ||
      !quantopt::ref::checkedProduct({kh * kw + 1, c + 16}))
    return failure();

  bool wUnsigned = conv.getWUnsigned();
  std::optional<std::vector<int64_t>> codes =
      getConstantInts(conv.getW(), 8, wUnsigned);
  if (!codes)
    return failure();
  ArrayRef<int32_t> zw = conv.getWeightZeroPoints();
  std::optional<FusedRequantize> epilogue;
  if (requant) {
    epilogue = FusedRequantize::plan(requant, c);
    if (!epilogue)
      return failure();
  }

  Location loc = requant ? requant.getLoc() : conv.getLoc();
  rewriter.setInsertionPoint(requant ? requant.getOperation()
                                     : conv.getOperation());
  OpBuilder &b = rewriter;
  DepthwiseEmitter e(b, loc);
  e.plan = quantopt::x86vnni::planDepthwise(c, isa.lanes, kw, strides[1],
                                            dilations[1]);
  e.dotI16 = isa.dotI16;
  e.xUnsigned = conv.getXUnsigned();
  e.batch = batch, e.h = h, e.w = w, e.c = c, e.kh = kh, e.kw = kw;
  e.oh = oh, e.ow = ow;
  e.strideH = oh == 1 ? 1 : strides[0];
  e.strideW = ow == 1 ? 1 : strides[1];
  e.dilationH = dilations[0], e.dilationW = dilations[1];
  e.padTop = padding[0], e.padLeft = padding[2];
  e.x = conv.getX();
  e.epilogue = epilogue;
  int64_t cp = e.plan.paddedChannels();

  // w' = w - zw[c] per tap and channel (HWCF with C/groups = 1, F = C: a
  // (KH*KW) x C matrix), in the low 16 bits of each lane.
  quantopt::x86vnni::WeightStats stats =
      quantopt::x86vnni::scanWeights(*codes, zw, kh * kw, c);
  SmallVector<int32_t> table(kh * kw * cp, 0);
  for (int64_t t = 0; t < kh * kw; ++t)
    for (int64_t ch = 0; ch < c; ++ch)
      table[t * cp + ch] = int32_t(
          ((*codes)[t * c + ch] - zw[zw.size() == 1 ? 0 : ch]) & 0xffff);
  e.weights = arith::ConstantOp::create(
      b, loc,
      DenseIntElementsAttr::get(
          RankedTensorType::get({kh * kw * cp}, b.getI32Type()),
          ArrayRef<int32_t>(table)));

  // Bias + (0 - zx) * sum_t w'[t, c], wrapping to i32 as the accumulator does.
  SmallVector<int64_t> corr = quantopt::x86vnni::columnCorrection(
      stats.columnSums, 0, static_cast<int32_t>(conv.getInputZeroPoint()));
  auto paddedI32 = [&](auto value) {
    SmallVector<int32_t> v(cp, 0);
    for (int64_t ch = 0; ch < c; ++ch)
      v[ch] = static_cast<int32_t>(
          static_cast<uint32_t>(static_cast<uint64_t>(value(ch))));
    return arith::ConstantOp::create(
        b, loc,
        DenseIntElementsAttr::get(RankedTensorType::get({cp}, b.getI32Type()),
                                  ArrayRef<int32_t>(v)));
  };
  if (std::optional<std::vector<int64_t>> bias =
          getConstantInts(conv.getBias(), 32, /*isUnsigned=*/false)) {
    e.biasTable = paddedI32([&](int64_t ch) { return (*bias)[ch] + corr[ch]; });
  } else {
    e.biasRuntime = conv.getBias();
    if (llvm::any_of(corr, [](int64_t v) { return v != 0; }))
      e.correction = paddedI32([&](int64_t ch) { return corr[ch]; });
  }
  int32_t padByte = static_cast<int32_t>(conv.getPadValue()) & 0xff;
  e.padCode = e.xUnsigned ? padByte : int32_t(int8_t(padByte));

  if (e.epilogue)
    e.epilogue->materialize(b, loc, cp);

  Type outElt = epilogue ? epilogue->getStorage() : b.getI32Type();
  Value out = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{batch, oh, ow, c}, outElt);
  out = e.emit(out);
  if (requant) {
    // The conv is dead now; the walk may still visit it, so it is left for
    // the pipeline's clean-up instead of being erased here.
    rewriter.replaceOp(requant, out);
  } else {
    rewriter.replaceOp(conv, out);
  }
  return success();
}

struct DepthwiseRequantizeToX86 : OpRewritePattern<IntRequantizeOp> {
  DepthwiseRequantizeToX86(MLIRContext *ctx, DepthwiseIsa isa)
      : OpRewritePattern(ctx, /*benefit=*/2), isa(isa) {}
  LogicalResult matchAndRewrite(IntRequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto conv = op.getInput().getDefiningOp<IntConv2DOp>();
    if (!conv || fusableRequantize(conv) != op)
      return failure();
    return rewriteDepthwise(rewriter, conv, op, isa);
  }
  DepthwiseIsa isa;
};

struct DepthwiseToX86 : OpRewritePattern<IntConv2DOp> {
  DepthwiseToX86(MLIRContext *ctx, DepthwiseIsa isa)
      : OpRewritePattern(ctx, /*benefit=*/2), isa(isa) {}
  LogicalResult matchAndRewrite(IntConv2DOp op,
                                PatternRewriter &rewriter) const override {
    // Left for the requantize pattern, which fuses the two; a conv it has
    // already replaced has no use left.
    if (op->use_empty() || fusableRequantize(op))
      return failure();
    return rewriteDepthwise(rewriter, op, IntRequantizeOp(), isa);
  }
  DepthwiseIsa isa;
};

} // namespace

bool mlir::qnt::x86vnni::isFusedDepthwise(IntConv2DOp conv) {
  return isDepthwise(conv) && fusableRequantize(conv);
}

void mlir::qnt::populateQntToX86DepthwisePatterns(RewritePatternSet &patterns,
                                                  const DepthwiseIsa &isa) {
  patterns.add<DepthwiseRequantizeToX86, DepthwiseToX86>(patterns.getContext(),
                                                         isa);
}
