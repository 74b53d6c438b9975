//===- NetworkOpsToLinalg.cpp - int_add / int pools to linalg -------------===//
//
// qnt.int_add is one elementwise linalg.generic whose operand maps broadcast
// (a size-1 dimension reads index 0), so nothing is materialized; its body is
// the FixedPointBuilder transcription of the reference add.
//
// The pools are a parallel linalg.generic over (n, oh, ow, c) whose body
// folds the window with scf.for loops in registers: once LLVM unrolls the
// short window loops, the innermost loop walks contiguous NHWC channels and
// is vectorized. Padding is a tensor.pad with a value that cannot
// change the result: the smallest code for max (every window holds a real
// element, verified), code 0 for the average's raw sum (the real-position
// count times the zero point is subtracted afterwards).
//
//===----------------------------------------------------------------------===//

#include "NetworkOpsToLinalg.h"

#include "FixedPointBuilder.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <limits>

using namespace mlir;
using namespace mlir::qnt;

/// I32Attr values come back as uint32_t from ODS.
static int32_t asI32(uint32_t value) { return static_cast<int32_t>(value); }

/// Extends a code to `type` (i32 or i64), unsigned codes with zero extension.
static Value extendCode(OpBuilder &b, Location loc, Value code, Type type,
                        bool isUnsigned) {
  if (code.getType() == type)
    return code;
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, type, code);
  return arith::ExtSIOp::create(b, loc, type, code);
}

static Value truncateTo(OpBuilder &b, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return b.createOrFold<arith::TruncIOp>(loc, type, value);
}

/// Erases the constants FixedPointBuilder folded away inside a generic body.
/// Through the rewriter: the conversion driver tracks the ops a pattern
/// creates, and erasing one behind its back leaves it a dangling pointer.
static void eraseDeadBodyOps(RewriterBase &rewriter,
                             linalg::GenericOp generic) {
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(*generic.getBlock())))
    if (isOpTriviallyDead(&op))
      rewriter.eraseOp(&op);
}

/// The map of a broadcast operand of an elementwise op over `resultShape`:
/// a dimension of size 1 that the result stretches reads index 0.
static AffineMap getBroadcastMap(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                 ArrayRef<int64_t> resultShape) {
  SmallVector<AffineExpr> exprs;
  for (auto [d, size] : llvm::enumerate(shape))
    exprs.push_back(size == 1 && resultShape[d] != 1
                        ? getAffineConstantExpr(0, ctx)
                        : getAffineDimExpr(d, ctx));
  return AffineMap::get(resultShape.size(), 0, exprs, ctx);
}

/// The smallest code of a storage integer type.
static int64_t minCode(IntegerType type, bool isUnsigned) {
  return isUnsigned ? 0 : -(int64_t(1) << (type.getWidth() - 1));
}

/// A window reduction of the NHWC input into `init`: `combine(b, loc,
/// element, acc)` folded over each window, where a tap in the `padding`
/// (top, bottom, left, right) reads `padValue`. A parallel linalg.generic
/// over (n, oh, ow, c) whose body carries the accumulator in a register
/// through scf.for loops over (kh, kw), reading the input with
/// tensor.extract. LLVM fully unrolls the short window loops, which leaves
/// the channel loop innermost with plain loads and one store: the loop it
/// vectorizes along C. (A reduction iterator instead makes the innermost
/// loop a read-modify-write of the output, which LLVM fully unrolls for
/// 32 channels or fewer and then cannot vectorize, because the aligned
/// malloc lowering hides that the output aliases no input.)
///
/// Padding is not materialized (a padded copy of the input cost more than
/// the reduction: 3x3 / 2 max pool on 112x112x64 ran at 0.61x of a C
/// loop). A tap outside the input loads from row or column 0 instead, which
/// exists since every window holds a real element (verified), and the
/// loaded code is replaced by `padValue`: the conditions depend on
/// (oh, ow, kh, kw) only, so they stay out of the vectorized channel loop.
///
/// An `idempotent` combine (max) may read a real element of the window
/// twice: along an axis of dilation 1, a tap in the padding reads the
/// nearest row or column instead (clamped into the input), which lies in
/// the window because the window is an interval that holds a real element.
/// Then no select is needed. The select cost the max pool its
/// vectorization on x86: LLVM's loop unswitching turns a select on a
/// loop-invariant condition into a branch inside the channel loop (3x3 / 2
/// on 1x112x112x64: 0.10x of a C loop on Zen 3).
///
/// A sum (not idempotent, `padValue` 0) reads the nearest row or column
/// too and masks the code: `x & m`,
/// with m all ones or 0 read from a constant table per output row and
/// kernel row (and per output column and kernel column). LLVM sees no
/// condition to unswitch, and the mask is invariant in the channel loop.
/// Past kMaxMaskTable entries an axis keeps the select.
static Value buildWindowReduction(
    OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> padding,
    int64_t padValue, Value init, ArrayRef<int64_t> kernel,
    ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations, bool idempotent,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  auto type = cast<RankedTensorType>(init.getType());
  auto inputType = cast<RankedTensorType>(input.getType());
  bool rowsPadded = padding[0] != 0 || padding[1] != 0;
  bool colsPadded = padding[2] != 0 || padding[3] != 0;
  // The tap mask table of one axis (dimension `dim` of NHWC), or null.
  constexpr int64_t kMaxMaskTable = 1 << 16;
  auto maskTable = [&](int64_t dim, int64_t axis, int64_t padBefore) -> Value {
    int64_t out = type.getDimSize(dim), k = kernel[axis];
    int64_t in = inputType.getDimSize(dim);
    if (idempotent || padValue != 0 || out * k > kMaxMaskTable)
      return {};
    auto codeType = cast<IntegerType>(inputType.getElementType());
    unsigned width = codeType.getWidth();
    SmallVector<APInt> masks;
    for (int64_t o = 0; o < out; ++o)
      for (int64_t t = 0; t < k; ++t) {
        int64_t at = o * strides[axis] + t * dilations[axis] - padBefore;
        masks.push_back(at >= 0 && at < in ? APInt::getAllOnes(width)
                                           : APInt::getZero(width));
      }
    auto tableType = RankedTensorType::get({out, k}, codeType);
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(tableType, masks));
  };
  Value rowMasks = rowsPadded ? maskTable(1, 0, padding[0]) : Value();
  Value colMasks = colsPadded ? maskTable(2, 1, padding[2]) : Value();
  AffineMap identity = b.getMultiDimIdentityMap(4);
  SmallVector<utils::IteratorType> iterators(4, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, ValueRange{}, init, ArrayRef<AffineMap>{identity},
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        SmallVector<Value> idx;
        for (int64_t d = 0; d < 4; ++d)
          idx.push_back(linalg::IndexOp::create(nb, nloc, d));
        Value zero = arith::ConstantIndexOp::create(nb, nloc, 0);
        Value one = arith::ConstantIndexOp::create(nb, nloc, 1);
        // index * factor, folded when the factor is 1.
        auto scaled = [&](OpBuilder &ob, Value index, int64_t factor) {
          if (factor == 1)
            return index;
          return arith::MulIOp::create(
                     ob, nloc, index,
                     arith::ConstantIndexOp::create(ob, nloc, factor))
              .getResult();
        };
        auto bound = [&](int64_t v) -> Value {
          return arith::ConstantIndexOp::create(nb, nloc, v);
        };
        // The input position of a tap, minus the padding before it.
        auto position = [&](OpBuilder &ob, Value base, Value tap,
                            int64_t dilation, int64_t padBefore) {
          Value at = arith::AddIOp::create(ob, nloc, base,
                                           scaled(ob, tap, dilation));
          if (padBefore == 0)
            return at;
          return arith::SubIOp::create(
                     ob, nloc, at,
                     arith::ConstantIndexOp::create(ob, nloc, padBefore))
              .getResult();
        };
        // Whether `at` lies in [0, size) (unsigned: a negative index is
        // huge), and `at` or, outside, 0.
        auto clamp = [&](OpBuilder &ob, Value at,
                         int64_t size) -> std::pair<Value, Value> {
          Value inside = arith::CmpIOp::create(
              ob, nloc, arith::CmpIPredicate::ult, at,
              arith::ConstantIndexOp::create(ob, nloc, size));
          return {inside,
                  arith::SelectOp::create(ob, nloc, inside, at, zero)};
        };
        // `at` clamped into [0, size): the nearest row or column.
        auto nearest = [&](OpBuilder &ob, Value at, int64_t size) -> Value {
          Value up = arith::MaxSIOp::create(ob, nloc, at, zero);
          return arith::MinSIOp::create(
              ob, nloc, up, arith::ConstantIndexOp::create(ob, nloc, size - 1));
        };
        // A padded axis reads the nearest row / column where no select is
        // needed: the tap cannot change an idempotent combine, or its mask
        // zeroes it. Elsewhere it reads row / column 0 and selects padValue.
        bool rowsNearest =
            rowsPadded && ((idempotent && dilations[0] == 1) || rowMasks);
        bool colsNearest =
            colsPadded && ((idempotent && dilations[1] == 1) || colMasks);
        Value rowBase = scaled(nb, idx[1], strides[0]);
        Value colBase = scaled(nb, idx[2], strides[1]);
        Value kernelH = bound(kernel[0]), kernelW = bound(kernel[1]);
        auto outer = scf::ForOp::create(
            nb, nloc, zero, kernelH, one, ValueRange{args[0]},
            [&](OpBuilder &hb, Location, Value kh, ValueRange hArgs) {
              Value row = position(hb, rowBase, kh, dilations[0], padding[0]);
              Value rowInside, rowMask;
              if (rowsNearest)
                row = nearest(hb, row, inputType.getDimSize(1));
              else if (rowsPadded)
                std::tie(rowInside, row) =
                    clamp(hb, row, inputType.getDimSize(1));
              if (rowMasks)
                rowMask = tensor::ExtractOp::create(hb, nloc, rowMasks,
                                                    ValueRange{idx[1], kh});
              auto inner = scf::ForOp::create(
                  hb, nloc, zero, kernelW, one, hArgs,
                  [&](OpBuilder &wb, Location, Value kw, ValueRange wArgs) {
                    Value col =
                        position(wb, colBase, kw, dilations[1], padding[2]);
                    Value colInside;
                    if (colsNearest)
                      col = nearest(wb, col, inputType.getDimSize(2));
                    else if (colsPadded)
                      std::tie(colInside, col) =
                          clamp(wb, col, inputType.getDimSize(2));
                    Value x = tensor::ExtractOp::create(
                        wb, nloc, input, ValueRange{idx[0], row, col, idx[3]});
                    if (rowMask)
                      x = arith::AndIOp::create(wb, nloc, x, rowMask);
                    if (colMasks) {
                      Value colMask = tensor::ExtractOp::create(
                          wb, nloc, colMasks, ValueRange{idx[2], kw});
                      x = arith::AndIOp::create(wb, nloc, x, colMask);
                    }
                    Value inside = rowInside ? rowInside : colInside;
                    if (rowInside && colInside)
                      inside =
                          arith::AndIOp::create(wb, nloc, rowInside, colInside);
                    if (inside) {
                      Value pad = arith::ConstantOp::create(
                          wb, nloc,
                          wb.getIntegerAttr(inputType.getElementType(),
                                            padValue));
                      x = arith::SelectOp::create(wb, nloc, inside, x, pad);
                    }
                    scf::YieldOp::create(wb, nloc,
                                         combine(wb, nloc, x, wArgs.front()));
                  });
              scf::YieldOp::create(hb, nloc, inner.getResults());
            });
        linalg::YieldOp::create(nb, nloc, outer.getResults());
      });
  return generic.getResult(0);
}

namespace {

struct IntAddConverter : OpConversionPattern<IntAddOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntAddOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    quantopt::ref::RoundingMode mode = toReferenceRounding(op.getRounding());
    Location loc = op.getLoc();
    RankedTensorType aType = op.getA().getType(), bType = op.getB().getType(),
                     yType = op.getOutput().getType();
    MLIRContext *ctx = op.getContext();
    int64_t rank = yType.getRank();
    SmallVector<AffineMap> maps = {
        getBroadcastMap(ctx, aType.getShape(), yType.getShape()),
        getBroadcastMap(ctx, bType.getShape(), yType.getShape()),
        rewriter.getMultiDimIdentityMap(rank)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);

    int32_t za = asI32(op.getAZeroPoint()), zb = asI32(op.getBZeroPoint()),
            zy = asI32(op.getOutputZeroPoint());
    int32_t min = asI32(op.getMin()), max = asI32(op.getMax());
    bool exactF32Bounds = FixedPointBuilder::boundsExactInF32(min, max, {zy});
    bool aUnsigned = op.getAUnsigned(), bUnsigned = op.getBUnsigned();
    Type storageType = yType.getElementType();
    Value init =
        tensor::EmptyOp::create(rewriter, loc, yType.getShape(), storageType);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, yType, ValueRange{adaptor.getA(), adaptor.getB()}, init,
        maps, iterators, [&](OpBuilder &b, Location nloc, ValueRange args) {
          FixedPointBuilder fp(b, nloc);
          Type i32 = b.getI32Type();
          // (q - z) is exact in i32 for 8- and 16-bit codes.
          auto centered = [&](Value code, bool isUnsigned, int32_t z) {
            Value x = extendCode(b, nloc, code, i32, isUnsigned);
            return z == 0 ? x
                          : arith::SubIOp::create(b, nloc, x, fp.i32Const(z));
          };
          Value xa = centered(args[0], aUnsigned, za);
          Value xb = centered(args[1], bUnsigned, zb);
          Value y;
          if (mode == quantopt::ref::RoundingMode::Float) {
            // ONNX Runtime's QLinearAdd: two f32 products, one add.
            Type f32 = b.getF32Type();
            Value va = arith::MulFOp::create(
                b, nloc, arith::SIToFPOp::create(b, nloc, f32, xa),
                fp.f32Const(op.getAFloatMultiplier().convertToFloat()));
            Value vb = arith::MulFOp::create(
                b, nloc, arith::SIToFPOp::create(b, nloc, f32, xb),
                fp.f32Const(op.getBFloatMultiplier().convertToFloat()));
            y = fp.roundAddZeroPointClamp(
                arith::AddFOp::create(b, nloc, va, vb), fp.i32Const(zy),
                fp.i32Const(min), fp.i32Const(max), exactF32Bounds);
          } else {
            // TFLite: each input shifted up by left_shift (exact in i32, see
            // the qnt.add verifier) and scaled by M <= 1/2, so |sa|, |sb| <=
            // 2^30 and their sum is exact in i32.
            Value shift = fp.i32Const(asI32(op.getLeftShift()));
            auto scaled = [&](Value x, uint32_t multiplier, uint32_t rshift) {
              Value shifted = arith::ShLIOp::create(b, nloc, x, shift);
              Value s = fp.multiplyByQuantizedMultiplier(
                  shifted, fp.i32Const(asI32(multiplier)),
                  fp.i32Const(asI32(rshift)), mode);
              return truncateTo(b, nloc, s, i32);
            };
            Value sa = scaled(xa, op.getAMultiplier(), op.getAShift());
            Value sb = scaled(xb, op.getBMultiplier(), op.getBShift());
            Value raw = arith::AddIOp::create(b, nloc, sa, sb);
            RescaleOperands rescale;
            rescale.multiplier = fp.i32Const(asI32(op.getOutputMultiplier()));
            rescale.rightShift = fp.i32Const(asI32(op.getOutputShift()));
            y = fp.applyRescale(mode, rescale, raw, fp.i32Const(zy),
                                fp.i32Const(min), fp.i32Const(max),
                                exactF32Bounds);
          }
          linalg::YieldOp::create(b, nloc, truncateTo(b, nloc, y, storageType));
        });
    eraseDeadBodyOps(rewriter, generic);
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

struct IntMaxPool2DConverter : OpConversionPattern<IntMaxPool2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntMaxPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType yType = op.getOutput().getType();
    auto codeType = cast<IntegerType>(yType.getElementType());
    bool isUnsigned = op.getInputUnsigned();
    // The smallest code never beats a real element, and every window holds
    // one (verified), so padding and the initial value cannot win.
    int64_t lowest = minCode(codeType, isUnsigned);
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, yType.getShape(), codeType);
    Value lowestValue = arith::ConstantOp::create(
        rewriter, loc, rewriter.getIntegerAttr(codeType, lowest));
    Value init =
        linalg::FillOp::create(rewriter, loc, lowestValue, empty).getResult(0);
    Value result = buildWindowReduction(
        rewriter, loc, adaptor.getInput(), op.getPadding(), lowest, init,
        op.getKernel(), op.getStrides(), op.getDilations(),
        /*idempotent=*/true,
        [&](OpBuilder &b, Location nloc, Value x, Value acc) {
          if (isUnsigned)
            return arith::MaxUIOp::create(b, nloc, x, acc).getResult();
          return arith::MaxSIOp::create(b, nloc, x, acc).getResult();
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct IntAvgPool2DConverter : OpConversionPattern<IntAvgPool2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntAvgPool2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    RankedTensorType xType = op.getInput().getType(),
                     yType = op.getOutput().getType();
    auto codeType = cast<IntegerType>(yType.getElementType());
    bool isUnsigned = op.getInputUnsigned();
    ArrayRef<int64_t> kernel = op.getKernel(), strides = op.getStrides(),
                      padding = op.getPadding();
    ArrayRef<int32_t> zeroPoints = op.getZeroPoints();
    int64_t inH = xType.getDimSize(1), inW = xType.getDimSize(2);
    int64_t outH = yType.getDimSize(1), outW = yType.getDimSize(2);
    int64_t windowSize = kernel[0] * kernel[1];

    // Real positions per output row / column (no dilation); a window's
    // count is the product of its row's and its column's. Each axis is a
    // splat, a compile-time table, or (past kMaxCountTable outputs, where a
    // table would cost memory at compile time) computed in the loop.
    auto inside = [](int64_t o, int64_t stride, int64_t padBefore, int64_t k,
                     int64_t in) {
      int64_t start = o * stride - padBefore;
      return std::min(start + k, in) - std::max<int64_t>(start, 0);
    };
    struct AxisCounts {
      int64_t dim, out, stride, padBefore, k, in;
      SmallVector<int64_t> table; // empty: computed in the loop
      bool uniform() const { return table.size() == 1; }
    };
    constexpr int64_t kMaxCountTable = 1 << 16;
    SmallVector<AxisCounts, 2> axes = {
        {1, outH, strides[0], padding[0], kernel[0], inH, {}},
        {2, outW, strides[1], padding[2], kernel[1], inW, {}}};
    for (AxisCounts &axis : axes) {
      if (axis.out > kMaxCountTable)
        continue;
      for (int64_t o = 0; o < axis.out; ++o)
        axis.table.push_back(
            inside(o, axis.stride, axis.padBefore, axis.k, axis.in));
      if (llvm::all_equal(axis.table))
        axis.table.resize(1);
    }

    // Sum of raw codes; the accumulator widens to i64 only when the window
    // could overflow i32 (|code| + |z| <= 2^16 per element).
    uint64_t maxAbsCode = isUnsigned ? (uint64_t(1) << codeType.getWidth()) - 1
                                     : uint64_t(1) << (codeType.getWidth() - 1);
    uint64_t maxAbsZero = 0;
    for (int32_t z : zeroPoints)
      maxAbsZero = std::max<uint64_t>(maxAbsZero, std::abs(int64_t(z)));
    // Bounds |s +- d / 2| below (s = sum(q - z), d <= windowSize).
    uint64_t numeratorBound =
        (maxAbsCode + maxAbsZero + 1) * uint64_t(windowSize);
    bool wide = numeratorBound > uint64_t(std::numeric_limits<int32_t>::max());
    // The quotient truncated toward zero. x86 and AArch64 have no vector
    // integer division, so where it is exact the division is in floating
    // point (vectorized; the integer one cost the 3x3 / 2 average pool most
    // of its time): for |n| < 2^p (p = 24 for f32, 53 for f64) and d >= 1,
    // n and d convert exactly, a quotient that is not an integer lies at
    // least 1 / d from one, and the rounding error of n / d is at most
    // 2^-p |n| / d < 1 / d, so truncating the rounded quotient gives
    // trunc(n / d).
    Type divisionType;
    if (numeratorBound < (uint64_t(1) << 24))
      divisionType = rewriter.getF32Type();
    else if (numeratorBound < (uint64_t(1) << 53))
      divisionType = rewriter.getF64Type();
    auto divideTowardZero = [&](OpBuilder &b, Location nloc, Value n,
                                Value d) -> Value {
      if (!divisionType)
        return arith::DivSIOp::create(b, nloc, n, d);
      Value nf = arith::SIToFPOp::create(b, nloc, divisionType, n);
      Value df = arith::SIToFPOp::create(b, nloc, divisionType, d);
      Value qf = arith::DivFOp::create(b, nloc, nf, df);
      return arith::FPToSIOp::create(b, nloc, n.getType(), qf);
    };
    Type accType = wide ? rewriter.getI64Type() : rewriter.getI32Type();

    Value empty =
        tensor::EmptyOp::create(rewriter, loc, yType.getShape(), accType);
    Value zero = arith::ConstantOp::create(rewriter, loc,
                                           rewriter.getIntegerAttr(accType, 0));
    Value init =
        linalg::FillOp::create(rewriter, loc, zero, empty).getResult(0);
    static const int64_t kNoDilation[] = {1, 1};
    Value sums = buildWindowReduction(
        rewriter, loc, adaptor.getInput(), padding, /*padValue=*/0, init,
        kernel, strides, kNoDilation, /*idempotent=*/false,
        [&](OpBuilder &b, Location nloc, Value x, Value acc) -> Value {
          return arith::AddIOp::create(
              b, nloc, acc, extendCode(b, nloc, x, accType, isUnsigned));
        });

    // Finalize: s = sum - count * z, y = clamp(z + roundAway(s / d)).
    AffineMap identity = rewriter.getMultiDimIdentityMap(4);
    SmallVector<Value> inputs = {sums};
    SmallVector<AffineMap> maps = {identity};
    for (AxisCounts &axis : axes) {
      if (axis.table.size() < 2)
        continue;
      auto type = RankedTensorType::get({axis.out}, accType);
      SmallVector<APInt> values;
      for (int64_t c : axis.table)
        values.push_back(APInt(accType.getIntOrFloatBitWidth(), c));
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(type, values)));
      maps.push_back(
          AffineMap::get(4, 0, {getAffineDimExpr(axis.dim, ctx)}, ctx));
    }
    bool uniformZero = llvm::all_equal(zeroPoints);
    if (!uniformZero) {
      auto type = RankedTensorType::get({int64_t(zeroPoints.size())},
                                        rewriter.getI32Type());
      inputs.push_back(arith::ConstantOp::create(
          rewriter, loc, DenseElementsAttr::get(type, zeroPoints)));
      maps.push_back(AffineMap::get(4, 0, {getAffineDimExpr(3, ctx)}, ctx));
    }
    maps.push_back(identity);
    Value out =
        tensor::EmptyOp::create(rewriter, loc, yType.getShape(), codeType);
    int32_t min = asI32(op.getMin()), max = asI32(op.getMax());
    bool includePad = op.getCountIncludePad();
    bool tiesToEven = op.getRounding() == RoundingMode::HalfEven;
    SmallVector<utils::IteratorType> iterators(4,
                                               utils::IteratorType::parallel);
    auto generic = linalg::GenericOp::create(
        rewriter, loc, yType, inputs, out, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          auto accConst = [&](int64_t v) -> Value {
            return arith::ConstantOp::create(b, nloc,
                                             b.getIntegerAttr(accType, v));
          };
          unsigned next = 1;
          auto indexConst = [&](int64_t v) -> Value {
            return arith::ConstantIndexOp::create(b, nloc, v);
          };
          Value count;
          for (const AxisCounts &axis : axes) {
            Value c;
            if (axis.uniform()) {
              c = accConst(axis.table.front());
            } else if (!axis.table.empty()) {
              c = args[next++];
            } else {
              // min(start + k, in) - max(start, 0), start = o * stride - pad;
              // in index arithmetic, which the window sizes keep in range.
              Value o = linalg::IndexOp::create(b, nloc, axis.dim);
              Value start = arith::SubIOp::create(
                  b, nloc,
                  arith::MulIOp::create(b, nloc, o, indexConst(axis.stride)),
                  indexConst(axis.padBefore));
              Value end = arith::MinSIOp::create(
                  b, nloc,
                  arith::AddIOp::create(b, nloc, start, indexConst(axis.k)),
                  indexConst(axis.in));
              Value first = arith::MaxSIOp::create(b, nloc, start,
                                                   indexConst(0));
              c = arith::IndexCastOp::create(
                  b, nloc, accType,
                  arith::SubIOp::create(b, nloc, end, first));
            }
            count = count ? arith::MulIOp::create(b, nloc, count, c).getResult()
                          : c;
          }
          Value z32 = uniformZero ? arith::ConstantOp::create(
                                        b, nloc,
                                        b.getI32IntegerAttr(zeroPoints.front()))
                                        .getResult()
                                  : args[next++];
          Value z = extendCode(b, nloc, z32, accType, /*isUnsigned=*/false);
          Value s = arith::SubIOp::create(
              b, nloc, args[0], arith::MulIOp::create(b, nloc, count, z));
          Value divisor = includePad ? accConst(windowSize) : count;
          auto isNegative = [&] {
            return arith::CmpIOp::create(b, nloc, arith::CmpIPredicate::slt,
                                         s, accConst(0));
          };
          Value q;
          if (tiesToEven) {
            Value negative = isNegative();
            // Truncate, then step away from zero when the remainder is over
            // half the divisor, or exactly half and the quotient odd.
            Value t = divideTowardZero(b, nloc, s, divisor);
            Value r = arith::SubIOp::create(
                b, nloc, s, arith::MulIOp::create(b, nloc, t, divisor));
            // r has the sign of s.
            Value absR = arith::SelectOp::create(
                b, nloc, negative,
                arith::SubIOp::create(b, nloc, accConst(0), r), r);
            Value twiceAbsR =
                arith::ShLIOp::create(b, nloc, absR, accConst(1));
            Value over = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::sgt, twiceAbsR, divisor);
            Value tie = arith::CmpIOp::create(
                b, nloc, arith::CmpIPredicate::eq, twiceAbsR, divisor);
            Value odd = arith::TruncIOp::create(b, nloc, b.getI1Type(), t);
            Value up = arith::OrIOp::create(
                b, nloc, over, arith::AndIOp::create(b, nloc, tie, odd));
            Value step = arith::SelectOp::create(b, nloc, negative,
                                                 accConst(-1), accConst(1));
            q = arith::AddIOp::create(
                b, nloc, t,
                arith::SelectOp::create(b, nloc, up, step, accConst(0)));
          } else {
            // Round half away from zero: add +-floor(d / 2), divide toward 0.
            Value half = arith::DivSIOp::create(b, nloc, divisor, accConst(2));
            Value negative = isNegative();
            Value bias = arith::SelectOp::create(
                b, nloc, negative,
                arith::SubIOp::create(b, nloc, accConst(0), half), half);
            q = divideTowardZero(
                b, nloc, arith::AddIOp::create(b, nloc, s, bias), divisor);
          }
          Value y = arith::AddIOp::create(b, nloc, q, z);
          y = arith::MaxSIOp::create(b, nloc, y, accConst(min));
          y = arith::MinSIOp::create(b, nloc, y, accConst(max));
          linalg::YieldOp::create(b, nloc, truncateTo(b, nloc, y, codeType));
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

} // namespace

void mlir::qnt::populateQntNetworkOpsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<IntAddConverter, IntMaxPool2DConverter, IntAvgPool2DConverter>(
      patterns.getContext());
}
