//===- DynamicScaleOpsToLinalg.cpp - runtime-scale ops to linalg ----------===//
//
// qnt.dequantize_dynamic, qnt.quantize_dynamic and qnt.dynamic_quantize as
// linalg.generic on tensors. Each body is the reference kernel of
// QuantOpt/Reference/DynamicKernels.h written as arith/math ops, one op per
// f32 step in the same order and without fast-math flags, so compiled code
// is bit-exact with the reference model (NaN payloads aside:
// docs/RuntimeScales.md).
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A tensor of signless integers: ui8 codes are bitcast to i8 (the bits stay;
/// the bodies read them with extui / uitofp).
Value toSignless(OpBuilder &b, Location loc, Value tensor) {
  auto type = cast<RankedTensorType>(tensor.getType());
  auto integer = dyn_cast<IntegerType>(type.getElementType());
  if (!integer || integer.isSignless())
    return tensor;
  return tensor::BitcastOp::create(
      b, loc, type.clone(IntegerType::get(b.getContext(), integer.getWidth())),
      tensor);
}

/// The inverse of toSignless for a result of type `type`.
Value fromSignless(OpBuilder &b, Location loc, Value tensor,
                   RankedTensorType type) {
  if (tensor.getType() == type)
    return tensor;
  return tensor::BitcastOp::create(b, loc, type, tensor);
}

RankedTensorType signlessType(RankedTensorType type) {
  auto integer = dyn_cast<IntegerType>(type.getElementType());
  if (!integer || integer.isSignless())
    return type;
  return type.clone(IntegerType::get(type.getContext(), integer.getWidth()));
}

Value emptyLike(OpBuilder &b, Location loc, RankedTensorType type) {
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType());
}

Value filled(OpBuilder &b, Location loc, RankedTensorType type,
             Attribute value) {
  Value init = emptyLike(b, loc, type);
  Value constant =
      arith::ConstantOp::create(b, loc, cast<TypedAttr>(value));
  return linalg::FillOp::create(b, loc, constant, init).getResult(0);
}

/// The indexing map that reads a parameter of `paramType` broadcast to a
/// tensor of rank `rank`: a size-1 dimension reads index 0 unless the data
/// dimension is 1 too.
AffineMap broadcastMap(MLIRContext *ctx, RankedTensorType paramType,
                       RankedTensorType dataType) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d = 0; d < dataType.getRank(); ++d)
    exprs.push_back(paramType.getDimSize(d) == 1 && dataType.getDimSize(d) != 1
                        ? getAffineConstantExpr(0, ctx)
                        : getAffineDimExpr(d, ctx));
  return AffineMap::get(dataType.getRank(), 0, exprs, ctx);
}

Value f32Const(OpBuilder &b, Location loc, float value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

/// NaN -> 0, the rest unchanged.
Value nanToZero(OpBuilder &b, Location loc, Value v) {
  Value isNaN =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  return arith::SelectOp::create(b, loc, isNaN, f32Const(b, loc, 0.0f), v);
}

/// quantizeDynamicValue of DynamicKernels.h: f32 x, scale, offset -> a code
/// of `codeType` (i8 or i16) whose bits are the code in [qmin, qmax].
Value quantizeDynamicValue(OpBuilder &b, Location loc, Value x, Value scale,
                           Value offset, int32_t qmin, int32_t qmax,
                           Type codeType) {
  Value quotient = arith::DivFOp::create(b, loc, x, scale);
  Value rounded = nanToZero(b, loc, math::RoundEvenOp::create(b, loc, quotient));
  Value sum = nanToZero(b, loc, arith::AddFOp::create(b, loc, rounded, offset));
  // No NaN is left: maxnumf / minnumf are plain comparisons here.
  Value clamped = arith::MinNumFOp::create(
      b, loc,
      arith::MaxNumFOp::create(b, loc, sum, f32Const(b, loc, float(qmin))),
      f32Const(b, loc, float(qmax)));
  // Integral for an integral offset; rounds a non-integral one.
  Value integral = math::RoundEvenOp::create(b, loc, clamped);
  // Through i32: a ui8 code (up to 255) does not fit a signed i8 fptosi.
  Value code = arith::FPToSIOp::create(b, loc, b.getI32Type(), integral);
  return arith::TruncIOp::create(b, loc, codeType, code);
}

/// Partial ranges of minimumMaximum: 4 KiB of f32 each, so that both stay in
/// L1 while the inner loop over them runs long enough to vectorize.
constexpr int64_t kRangeLanes = 1024;

/// (minimum(init, x...), maximum(init, x...)) over every element of `x`,
/// as 0-d tensors; `init` is a 0-d f32 tensor.
///
/// IEEE minimum / maximum are associative and commutative on every input
/// (NaN propagates, -0 < +0), so the order of the reduction does not change
/// the result (NaN payloads aside). When the element count allows, the
/// elements go first into kRangeLanes partial ranges: a loop whose inner
/// dimension is parallel, which LLVM vectorizes (vminps / vmaxps on x86).
/// LLVM 22 left the plain reduction of every element into the two 0-d
/// accumulators as scalar code, about 37x slower on 4M elements.
std::pair<Value, Value> minimumMaximum(OpBuilder &b, Location loc, Value x,
                                       Value init) {
  MLIRContext *ctx = b.getContext();
  auto xType = cast<RankedTensorType>(x.getType());
  auto scalarType = cast<RankedTensorType>(init.getType());
  int64_t count = xType.getNumElements();
  auto minMaxBody = [](OpBuilder &b, Location loc, ValueRange args) {
    linalg::YieldOp::create(
        b, loc,
        ValueRange{arith::MinimumFOp::create(b, loc, args[1], args[0]),
                   arith::MaximumFOp::create(b, loc, args[2], args[0])});
  };
  auto reduceAll = [&](Value data) {
    auto type = cast<RankedTensorType>(data.getType());
    int64_t rank = type.getRank();
    auto generic = linalg::GenericOp::create(
        b, loc, TypeRange{scalarType, scalarType}, ValueRange{data},
        ValueRange{init, init},
        ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(rank, ctx),
                            AffineMap::get(rank, 0, {}, ctx),
                            AffineMap::get(rank, 0, {}, ctx)},
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::reduction),
        minMaxBody);
    return std::make_pair(generic.getResult(0), generic.getResult(1));
  };
  if (count < 2 * kRangeLanes || count % kRangeLanes != 0)
    return reduceAll(x);

  // x as a (count / lanes) x lanes matrix, reduced along its rows into
  // `lanes` partial ranges that start from `init`.
  Type f32 = b.getF32Type();
  Value flat = x;
  if (xType.getRank() != 1) {
    ReassociationIndices all;
    for (int64_t d = 0; d < xType.getRank(); ++d)
      all.push_back(d);
    flat = tensor::CollapseShapeOp::create(b, loc, x, {all});
  }
  auto matrixType =
      RankedTensorType::get({count / kRangeLanes, kRangeLanes}, f32);
  Value matrix = tensor::ExpandShapeOp::create(
      b, loc, matrixType, flat, ArrayRef<ReassociationIndices>{{0, 1}});
  auto lanesType = RankedTensorType::get({kRangeLanes}, f32);
  Value lanesInit =
      linalg::BroadcastOp::create(b, loc, init, emptyLike(b, loc, lanesType),
                                  ArrayRef<int64_t>{0})
          .getResult()[0];
  AffineMap matrixMap = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap laneMap = AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx);
  auto partials = linalg::GenericOp::create(
      b, loc, TypeRange{lanesType, lanesType}, ValueRange{matrix},
      ValueRange{lanesInit, lanesInit},
      ArrayRef<AffineMap>{matrixMap, laneMap, laneMap},
      ArrayRef<utils::IteratorType>{utils::IteratorType::reduction,
                                    utils::IteratorType::parallel},
      minMaxBody);
  // The partials already hold `init`; combining them from `init` again
  // changes nothing (minimum(a, a) == a).
  AffineMap laneIdentity = AffineMap::getMultiDimIdentityMap(1, ctx);
  AffineMap toScalar = AffineMap::get(1, 0, {}, ctx);
  auto reduceLanes = [&](Value lanes, auto combine) {
    return linalg::GenericOp::create(
               b, loc, TypeRange{scalarType}, ValueRange{lanes},
               ValueRange{init}, ArrayRef<AffineMap>{laneIdentity, toScalar},
               ArrayRef<utils::IteratorType>{utils::IteratorType::reduction},
               [&](OpBuilder &b, Location loc, ValueRange args) {
                 linalg::YieldOp::create(
                     b, loc, ValueRange{combine(b, loc, args[1], args[0])});
               })
        .getResult(0);
  };
  Value lo = reduceLanes(partials.getResult(0),
                         [](OpBuilder &b, Location loc, Value x, Value y) {
                           return arith::MinimumFOp::create(b, loc, x, y)
                               .getResult();
                         });
  Value hi = reduceLanes(partials.getResult(1),
                         [](OpBuilder &b, Location loc, Value x, Value y) {
                           return arith::MaximumFOp::create(b, loc, x, y)
                               .getResult();
                         });
  return {lo, hi};
}

std::pair<int32_t, int32_t> codeRange(IntegerType type) {
  unsigned width = type.getWidth();
  if (type.isUnsigned())
    return {0, int32_t((int64_t(1) << width) - 1)};
  return {int32_t(-(int64_t(1) << (width - 1))),
          int32_t((int64_t(1) << (width - 1)) - 1)};
}

SmallVector<utils::IteratorType> parallelLoops(int64_t rank) {
  return SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel);
}

//===----------------------------------------------------------------------===//
// dequantize_dynamic
//===----------------------------------------------------------------------===//

struct DequantizeDynamicLowering : OpRewritePattern<DequantizeDynamicOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DequantizeDynamicOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto srcType = cast<RankedTensorType>(op.getSrc().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    bool isUnsigned = srcType.getElementType().isUnsignedInteger();
    Value src = toSignless(rewriter, loc, op.getSrc());
    int64_t rank = srcType.getRank();
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, ctx),
        broadcastMap(ctx, cast<RankedTensorType>(op.getScale().getType()),
                     srcType),
        broadcastMap(ctx, cast<RankedTensorType>(op.getOffset().getType()),
                     srcType),
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType,
        ValueRange{src, op.getScale(), op.getOffset()},
        ValueRange{emptyLike(rewriter, loc, resultType)}, maps,
        parallelLoops(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Type f32 = b.getF32Type();
          Value value =
              isUnsigned
                  ? Value(arith::UIToFPOp::create(b, nloc, f32, args[0]))
                  : Value(arith::SIToFPOp::create(b, nloc, f32, args[0]));
          Value centered = arith::SubFOp::create(b, nloc, value, args[2]);
          Value result = arith::MulFOp::create(b, nloc, centered, args[1]);
          linalg::YieldOp::create(b, nloc, result);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// quantize_dynamic
//===----------------------------------------------------------------------===//

struct QuantizeDynamicLowering : OpRewritePattern<QuantizeDynamicOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(QuantizeDynamicOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    std::pair<int32_t, int32_t> range =
        codeRange(cast<IntegerType>(resultType.getElementType()));
    int32_t qmin = range.first, qmax = range.second;
    RankedTensorType codesType = signlessType(resultType);
    int64_t rank = xType.getRank();
    SmallVector<AffineMap> maps = {
        AffineMap::getMultiDimIdentityMap(rank, ctx),
        broadcastMap(ctx, cast<RankedTensorType>(op.getScale().getType()),
                     xType),
        broadcastMap(ctx, cast<RankedTensorType>(op.getOffset().getType()),
                     xType),
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    auto generic = linalg::GenericOp::create(
        rewriter, loc, codesType, ValueRange{op.getX(), op.getScale(),
                                             op.getOffset()},
        ValueRange{emptyLike(rewriter, loc, codesType)}, maps,
        parallelLoops(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          linalg::YieldOp::create(
              b, nloc,
              quantizeDynamicValue(b, nloc, args[0], args[1], args[2], qmin,
                                   qmax, codesType.getElementType()));
        });
    rewriter.replaceOp(
        op, fromSignless(rewriter, loc, generic.getResult(0), resultType));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// dynamic_quantize
//===----------------------------------------------------------------------===//

struct DynamicQuantizeLowering : OpRewritePattern<DynamicQuantizeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(DynamicQuantizeOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getMode() == DynamicQuantizeMode::Onnx)
      return lowerOnnx(op, rewriter);
    return lowerSymmetric(op, rewriter);
  }

private:
  /// ONNX Runtime's GetQuantizationParameter + MlasQuantizeLinear.
  static LogicalResult lowerOnnx(DynamicQuantizeOp op,
                                 PatternRewriter &rewriter) {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    int64_t rank = xType.getRank();
    Type f32 = rewriter.getF32Type(), i8 = rewriter.getI8Type();
    auto scalarF32 = RankedTensorType::get({}, f32);
    auto scalarI8 = RankedTensorType::get({}, i8);
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap toScalar = AffineMap::get(rank, 0, {}, ctx);

    // lo = minimum(0, x...), hi = maximum(0, x...): NaN propagates.
    Value zero = filled(rewriter, loc, scalarF32, rewriter.getF32FloatAttr(0));
    std::pair<Value, Value> range = minimumMaximum(rewriter, loc, op.getX(),
                                                   zero);

    // Scale and zero point, once.
    AffineMap scalar = AffineMap::get(0, 0, {}, ctx);
    auto params = linalg::GenericOp::create(
        rewriter, loc, TypeRange{scalarF32, scalarI8},
        ValueRange{range.first, range.second},
        ValueRange{emptyLike(rewriter, loc, scalarF32),
                   emptyLike(rewriter, loc, scalarI8)},
        ArrayRef<AffineMap>{scalar, scalar, scalar, scalar},
        ArrayRef<utils::IteratorType>{},
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value lo = args[0], hi = args[1];
          Value same =
              arith::CmpFOp::create(b, nloc, arith::CmpFPredicate::OEQ, hi, lo);
          Value width = arith::SubFOp::create(b, nloc, hi, lo);
          Value ratio255 =
              arith::DivFOp::create(b, nloc, width, f32Const(b, nloc, 255.0f));
          Value scale = arith::SelectOp::create(
              b, nloc, same, f32Const(b, nloc, 1.0f), ratio255);
          Value ratio = arith::DivFOp::create(b, nloc, lo, scale);
          Value initial =
              arith::SubFOp::create(b, nloc, f32Const(b, nloc, 0.0f), ratio);
          // std::min(255, z) then std::max(0, .): a NaN z gives 255.
          Value c255 = f32Const(b, nloc, 255.0f);
          Value below = arith::CmpFOp::create(
              b, nloc, arith::CmpFPredicate::OLT, initial, c255);
          Value upper = arith::SelectOp::create(b, nloc, below, initial, c255);
          Value c0 = f32Const(b, nloc, 0.0f);
          Value above = arith::CmpFOp::create(
              b, nloc, arith::CmpFPredicate::OLT, c0, upper);
          Value clamped = arith::SelectOp::create(b, nloc, above, upper, c0);
          Value rounded = math::RoundEvenOp::create(b, nloc, clamped);
          Value zp = arith::TruncIOp::create(
              b, nloc, b.getI8Type(),
              arith::FPToSIOp::create(b, nloc, b.getI32Type(), rounded));
          linalg::YieldOp::create(b, nloc, ValueRange{scale, zp});
        });
    Value scale = params.getResult(0), zeroPoint = params.getResult(1);

    // code = clamp(round_half_even(x / scale), -zp, 255 - zp) + zp; a NaN
    // quotient gives -zp.
    RankedTensorType codesType =
        signlessType(cast<RankedTensorType>(op.getCodes().getType()));
    auto codes = linalg::GenericOp::create(
        rewriter, loc, codesType, ValueRange{op.getX(), scale, zeroPoint},
        ValueRange{emptyLike(rewriter, loc, codesType)},
        ArrayRef<AffineMap>{identity, toScalar, toScalar, identity},
        parallelLoops(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Type i32 = b.getI32Type();
          Value zp = arith::ExtUIOp::create(b, nloc, i32, args[2]);
          Value zpF = arith::SIToFPOp::create(b, nloc, b.getF32Type(), zp);
          Value low = arith::SubFOp::create(b, nloc, f32Const(b, nloc, 0.0f),
                                            zpF);
          Value high = arith::SubFOp::create(
              b, nloc, f32Const(b, nloc, 255.0f), zpF);
          Value quotient = arith::DivFOp::create(b, nloc, args[0], args[1]);
          Value rounded = math::RoundEvenOp::create(b, nloc, quotient);
          Value isNaN = arith::CmpFOp::create(
              b, nloc, arith::CmpFPredicate::UNO, rounded, rounded);
          Value value = arith::SelectOp::create(b, nloc, isNaN, low, rounded);
          value = arith::MinNumFOp::create(
              b, nloc, arith::MaxNumFOp::create(b, nloc, value, low), high);
          Value code = arith::AddIOp::create(
              b, nloc, arith::FPToSIOp::create(b, nloc, i32, value), zp);
          linalg::YieldOp::create(
              b, nloc,
              ValueRange{arith::TruncIOp::create(b, nloc, b.getI8Type(), code)
                             .getResult()});
        });

    rewriter.replaceOp(
        op, {fromSignless(rewriter, loc, codes.getResult(0),
                          cast<RankedTensorType>(op.getCodes().getType())),
             scale,
             fromSignless(rewriter, loc, zeroPoint,
                          cast<RankedTensorType>(op.getZeroPoint().getType()))});
    return success();
  }

  /// Per slice along `axis`: scale = max|x| / 127 (1 for an all-zero slice).
  static LogicalResult lowerSymmetric(DynamicQuantizeOp op,
                                      PatternRewriter &rewriter) {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    auto xType = cast<RankedTensorType>(op.getX().getType());
    int64_t rank = xType.getRank();
    int64_t axis = *op.getAxis();
    auto scaleType = cast<RankedTensorType>(op.getScale().getType());
    auto zeroPointType = cast<RankedTensorType>(op.getZeroPoint().getType());
    AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
    AffineMap toSlice =
        AffineMap::get(rank, 0, {getAffineDimExpr(axis, ctx)}, ctx);
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::reduction);
    iterators[axis] = utils::IteratorType::parallel;

    // m = maximum(0, |x|...) per slice: NaN propagates.
    Value zero = filled(rewriter, loc, scaleType, rewriter.getF32FloatAttr(0));
    auto maxAbs = linalg::GenericOp::create(
        rewriter, loc, scaleType, ValueRange{op.getX()}, ValueRange{zero},
        ArrayRef<AffineMap>{identity, toSlice}, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value magnitude = math::AbsFOp::create(b, nloc, args[0]);
          linalg::YieldOp::create(
              b, nloc,
              ValueRange{arith::MaximumFOp::create(b, nloc, args[1], magnitude)
                             .getResult()});
        });

    AffineMap vector = AffineMap::getMultiDimIdentityMap(1, ctx);
    auto scales = linalg::GenericOp::create(
        rewriter, loc, scaleType, ValueRange{maxAbs.getResult(0)},
        ValueRange{emptyLike(rewriter, loc, scaleType)},
        ArrayRef<AffineMap>{vector, vector}, parallelLoops(1),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value isZero = arith::CmpFOp::create(
              b, nloc, arith::CmpFPredicate::OEQ, args[0],
              f32Const(b, nloc, 0.0f));
          Value scale = arith::DivFOp::create(b, nloc, args[0],
                                              f32Const(b, nloc, 127.0f));
          linalg::YieldOp::create(
              b, nloc,
              arith::SelectOp::create(b, nloc, isZero, f32Const(b, nloc, 1.0f),
                                      scale)
                  .getResult());
        });
    Value scale = scales.getResult(0);

    auto codesType = cast<RankedTensorType>(op.getCodes().getType());
    auto codes = linalg::GenericOp::create(
        rewriter, loc, codesType, ValueRange{op.getX(), scale},
        ValueRange{emptyLike(rewriter, loc, codesType)},
        ArrayRef<AffineMap>{identity, toSlice, identity}, parallelLoops(rank),
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          linalg::YieldOp::create(
              b, nloc,
              quantizeDynamicValue(b, nloc, args[0], args[1],
                                   f32Const(b, nloc, 0.0f), -128, 127,
                                   b.getI8Type()));
        });
    Value zeroPoints =
        filled(rewriter, loc, zeroPointType, rewriter.getI8IntegerAttr(0));
    rewriter.replaceOp(op, {codes.getResult(0), scale, zeroPoints});
    return success();
  }
};

} // namespace

void mlir::qnt::populateQntDynamicScaleOpsToLinalgPatterns(
    RewritePatternSet &patterns) {
  patterns.add<DequantizeDynamicLowering, QuantizeDynamicLowering,
               DynamicQuantizeLowering>(patterns.getContext());
}
