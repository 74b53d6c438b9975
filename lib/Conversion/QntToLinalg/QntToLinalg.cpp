//===- QntToLinalg.cpp - qnt integer ops to linalg ------------------------===//
//
// Patterns lowering the explicit integer qnt ops to linalg on tensors. The
// products accumulate in i32 without nsw/nuw flags: the verifiers bound the
// final sums to i32, so two's-complement wraparound of partial sums cancels
// and the result is exact.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

#include "FixedPointBuilder.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::qnt;
using quantopt::ref::RoundingMode;

namespace {

/// The per-channel attribute arrays of one linalg.generic. An array whose
/// entries all agree (always so per tensor) becomes a constant inside the
/// body; any other becomes a small constant tensor input indexed by the
/// channel, so that each element reads its own channel's entry.
class ChannelParams {
public:
  /// `channelMap` maps the generic's loops to the channel index; it may be
  /// null when every array is per tensor.
  ChannelParams(OpBuilder &b, Location loc, AffineMap channelMap)
      : builder(b), loc(loc), channelMap(channelMap) {}

  /// Adds an array and returns its handle for get() and isZero().
  unsigned add(ArrayRef<int32_t> values) {
    if (values.empty() || llvm::all_equal(values))
      return addScalar(
          builder.getI32IntegerAttr(values.empty() ? 0 : values.front()));
    auto type =
        RankedTensorType::get({int64_t(values.size())}, builder.getI32Type());
    return addTensor(DenseElementsAttr::get(type, values));
  }
  unsigned add(ArrayRef<float> values) {
    if (values.empty() || llvm::all_equal(values))
      return addScalar(
          builder.getF32FloatAttr(values.empty() ? 0.0f : values.front()));
    auto type =
        RankedTensorType::get({int64_t(values.size())}, builder.getF32Type());
    return addTensor(DenseElementsAttr::get(type, values));
  }

  /// Inputs to append after the op's own, with their indexing maps.
  ArrayRef<Value> getInputs() const { return inputs; }
  SmallVector<AffineMap> getMaps() const {
    return SmallVector<AffineMap>(inputs.size(), channelMap);
  }

  /// The entry of array `id` for the current element; `args` are the block
  /// arguments of the inputs added here.
  Value get(OpBuilder &b, unsigned id, ValueRange args) const {
    const Entry &entry = entries[id];
    if (entry.scalar)
      return arith::ConstantOp::create(b, loc, entry.scalar);
    return args[entry.input];
  }

  /// Whether array `id` is 0 on every channel (its subtraction is a no-op).
  bool isZero(unsigned id) const {
    auto attr = dyn_cast_or_null<IntegerAttr>(entries[id].scalar);
    return attr && attr.getValue().isZero();
  }

private:
  struct Entry {
    TypedAttr scalar;
    unsigned input = 0;
  };

  unsigned addScalar(TypedAttr scalar) {
    entries.push_back({scalar, 0});
    return entries.size() - 1;
  }
  unsigned addTensor(DenseElementsAttr values) {
    assert(channelMap && "per-channel values without a channel dimension");
    inputs.push_back(arith::ConstantOp::create(builder, loc, values));
    entries.push_back({nullptr, unsigned(inputs.size() - 1)});
    return entries.size() - 1;
  }

  OpBuilder &builder;
  Location loc;
  AffineMap channelMap;
  SmallVector<Entry> entries;
  SmallVector<Value> inputs;
};

} // namespace

/// The value of an I32Attr: ODS returns these as uint32_t, which would turn
/// negative bounds and zero points into large positive numbers.
static int32_t getI32(IntegerAttr attr) {
  return static_cast<int32_t>(attr.getInt());
}

/// Extends an integer code to i32, with zero extension for unsigned codes.
static Value extendToI32(OpBuilder &b, Location loc, Value code,
                         bool isUnsigned) {
  Type i32 = b.getI32Type();
  if (code.getType() == i32)
    return code;
  if (isUnsigned)
    return arith::ExtUIOp::create(b, loc, i32, code);
  return arith::ExtSIOp::create(b, loc, i32, code);
}

/// Truncates an i32 result to the storage element type (u8 codes keep their
/// bits in i8).
static Value truncateToStorage(OpBuilder &b, Location loc, Value value,
                               Type storageType) {
  if (value.getType() == storageType)
    return value;
  // Folds into the truncation that produced the i32, if any.
  return b.createOrFold<arith::TruncIOp>(loc, storageType, value);
}

/// A tensor.empty of `type`, taking dynamic sizes from `sizes`.
static Value createEmpty(OpBuilder &b, Location loc, RankedTensorType type,
                         ArrayRef<OpFoldResult> sizes) {
  SmallVector<Value> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(sizes))
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(getValueOrCreateConstantIndexOp(b, loc, size));
  return tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType(),
                                 dynamicSizes);
}

/// The map from a rank-`rank` elementwise iteration to channel `axis`, or
/// null per tensor.
static AffineMap getChannelMap(MLIRContext *ctx, int64_t rank, int64_t axis) {
  if (axis < 0)
    return {};
  return AffineMap::get(rank, 0, getAffineDimExpr(axis, ctx));
}

/// Builds an elementwise linalg.generic from `input` to `resultType` whose
/// body computes one element with `body(b, loc, element, paramArgs)`.
static Value buildElementwise(
    RewriterBase &b, Location loc, Value input, RankedTensorType resultType,
    const ChannelParams &params,
    function_ref<Value(OpBuilder &, Location, Value, ValueRange)> body) {
  int64_t rank = resultType.getRank();
  Value init =
      createEmpty(b, loc, resultType, tensor::getMixedSizes(b, loc, input));
  AffineMap identity = b.getMultiDimIdentityMap(rank);
  SmallVector<Value> inputs = {input};
  llvm::append_range(inputs, params.getInputs());
  SmallVector<AffineMap> maps = {identity};
  llvm::append_range(maps, params.getMaps());
  maps.push_back(identity);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value result =
            body(nb, nloc, args.front(), args.drop_front().drop_back());
        linalg::YieldOp::create(nb, nloc, result);
      });
  // FixedPointBuilder folds per-tensor parameters as it goes, which leaves
  // the constants it folded away unused.
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(*generic.getBlock())))
    if (isOpTriviallyDead(&op))
      b.eraseOp(&op);
  return generic.getResult(0);
}

/// The body shared by matmul and conv: acc + (x - zx) * (w - zw), with both
/// codes extended to i32 first.
static Value buildMultiplyAccumulate(OpBuilder &b, Location loc, Value x,
                                     Value w, Value acc, bool xUnsigned,
                                     bool wUnsigned, int32_t inputZeroPoint,
                                     Value weightZeroPoint) {
  Value xv = extendToI32(b, loc, x, xUnsigned);
  Value wv = extendToI32(b, loc, w, wUnsigned);
  if (inputZeroPoint != 0)
    xv = arith::SubIOp::create(
        b, loc, xv,
        arith::ConstantIntOp::create(b, loc, b.getI32Type(), inputZeroPoint));
  if (weightZeroPoint)
    wv = arith::SubIOp::create(b, loc, wv, weightZeroPoint);
  Value product = arith::MulIOp::create(b, loc, xv, wv);
  return arith::AddIOp::create(b, loc, acc, product);
}

namespace {

struct IntMatmulConverter : OpConversionPattern<IntMatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntMatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = adaptor.getX(), w = adaptor.getW();
    RankedTensorType resultType = op.getResult().getType();

    // The bias is the initial accumulator, one copy per row.
    SmallVector<OpFoldResult> sizes = {
        tensor::getMixedSize(rewriter, loc, x, 0),
        tensor::getMixedSize(rewriter, loc, w, 1)};
    Value init = createEmpty(rewriter, loc, resultType, sizes);
    Value acc = linalg::BroadcastOp::create(rewriter, loc, adaptor.getBias(),
                                            init, ArrayRef<int64_t>{0})
                    ->getResult(0);

    int32_t inputZeroPoint = getI32(op.getInputZeroPointAttr());
    ArrayRef<int32_t> weightZeroPoints = op.getWeightZeroPoints();
    bool xUnsigned = op.getXUnsigned(), wUnsigned = op.getWUnsigned();
    bool noZeroPoints =
        inputZeroPoint == 0 &&
        llvm::all_of(weightZeroPoints, [](int32_t z) { return z == 0; });

    // linalg.matmul extends both operands with one cast function, so it fits
    // only when their signedness agrees.
    if (noZeroPoints && xUnsigned == wUnsigned) {
      SmallVector<NamedAttribute> attrs;
      if (xUnsigned)
        attrs.push_back(rewriter.getNamedAttr(
            "cast",
            linalg::TypeFnAttr::get(ctx, linalg::TypeFn::cast_unsigned)));
      auto matmul = linalg::MatmulOp::create(rewriter, loc, resultType,
                                             ValueRange{x, w}, acc, attrs);
      rewriter.replaceOp(op, matmul->getResults());
      return success();
    }

    // Loops (m, n, k).
    AffineExpr m, n, k;
    bindDims(ctx, m, n, k);
    ChannelParams params(rewriter, loc, AffineMap::get(3, 0, n));
    unsigned zwId = params.add(weightZeroPoints);
    SmallVector<Value> inputs = {x, w};
    llvm::append_range(inputs, params.getInputs());
    SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, k}, ctx),
                                   AffineMap::get(3, 0, {k, n}, ctx)};
    llvm::append_range(maps, params.getMaps());
    maps.push_back(AffineMap::get(3, 0, {m, n}, ctx));
    SmallVector<utils::IteratorType> iterators = {
        utils::IteratorType::parallel, utils::IteratorType::parallel,
        utils::IteratorType::reduction};

    auto generic = linalg::GenericOp::create(
        rewriter, loc, resultType, inputs, acc, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value zw = params.isZero(zwId)
                         ? Value()
                         : params.get(b, zwId, args.drop_front(2));
          Value sum =
              buildMultiplyAccumulate(b, nloc, args[0], args[1], args.back(),
                                      xUnsigned, wUnsigned, inputZeroPoint, zw);
          linalg::YieldOp::create(b, nloc, sum);
        });
    rewriter.replaceOp(op, generic->getResults());
    return success();
  }
};

struct IntConv2DConverter : OpConversionPattern<IntConv2DOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntConv2DOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = op.getContext();
    Value x = adaptor.getX(), w = adaptor.getW();
    RankedTensorType xType = op.getX().getType(), wType = op.getW().getType(),
                     resultType = op.getResult().getType();
    if (!xType.hasStaticShape() || !wType.hasStaticShape() ||
        !resultType.hasStaticShape())
      return op.emitOpError("lowering needs static shapes");

    ArrayRef<int64_t> strides = op.getStrides(), dilations = op.getDilations(),
                      padding = op.getPadding();
    int64_t groups = op.getGroups();
    int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(3);
    int64_t kernelH = wType.getDimSize(0), kernelW = wType.getDimSize(1);
    int64_t filters = wType.getDimSize(3);
    if (filters % groups != 0)
      return op.emitOpError("filter count ")
             << filters << " is not a multiple of groups " << groups;
    if (llvm::any_of(padding, [](int64_t p) { return p < 0; }) ||
        llvm::any_of(strides, [](int64_t s) { return s <= 0; }) ||
        llvm::any_of(dilations, [](int64_t d) { return d <= 0; }))
      return op.emitOpError("needs non-negative padding and positive strides "
                            "and dilations");
    int64_t paddedH = xType.getDimSize(1) + padding[0] + padding[1];
    int64_t paddedW = xType.getDimSize(2) + padding[2] + padding[3];
    // Reference::Conv2DShape::outH / outW.
    auto outSize = [](int64_t in, int64_t k, int64_t s, int64_t d) {
      int64_t span = d * (k - 1) + 1;
      return in < span ? 0 : (in - span) / s + 1;
    };
    int64_t outH = resultType.getDimSize(1), outW = resultType.getDimSize(2);
    if (outSize(paddedH, kernelH, strides[0], dilations[0]) != outH ||
        outSize(paddedW, kernelW, strides[1], dilations[1]) != outW)
      return op.emitOpError("result spatial size ")
             << outH << "x" << outW
             << " does not match the padded input, kernel, strides and "
                "dilations";

    // Padded positions hold pad_value, the original input zero point, as a
    // storage code (low 8 bits for u8).
    if (llvm::any_of(padding, [](int64_t p) { return p != 0; })) {
      Type i8 = rewriter.getI8Type();
      APInt padBits = op.getPadValueAttr().getValue().trunc(8);
      Value padValue = arith::ConstantOp::create(
          rewriter, loc, rewriter.getIntegerAttr(i8, padBits));
      auto paddedType =
          RankedTensorType::get({batch, paddedH, paddedW, channels}, i8);
      SmallVector<OpFoldResult> low = {
          rewriter.getIndexAttr(0), rewriter.getIndexAttr(padding[0]),
          rewriter.getIndexAttr(padding[2]), rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> high = {
          rewriter.getIndexAttr(0), rewriter.getIndexAttr(padding[1]),
          rewriter.getIndexAttr(padding[3]), rewriter.getIndexAttr(0)};
      x = tensor::PadOp::create(rewriter, loc, paddedType, x, low, high,
                                padValue);
    }

    // Split the channels into groups: x [N,H,W,G,C/G], w [KH,KW,C/G,G,F/G],
    // bias [G,F/G]; filter f = g * F/G + fg reads channels of group g.
    int64_t groupChannels = channels / groups, groupFilters = filters / groups;
    SmallVector<ReassociationIndices> splitLast = {{0}, {1}, {2}, {3, 4}};
    auto xGrouped = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({batch, paddedH, paddedW, groups, groupChannels},
                              xType.getElementType()),
        x, splitLast);
    auto wGrouped = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get(
            {kernelH, kernelW, groupChannels, groups, groupFilters},
            wType.getElementType()),
        w, splitLast);
    Type i32 = rewriter.getI32Type();
    auto biasGrouped = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({groups, groupFilters}, i32),
        adaptor.getBias(), SmallVector<ReassociationIndices>{{0, 1}});
    auto groupedType =
        RankedTensorType::get({batch, outH, outW, groups, groupFilters}, i32);
    Value init =
        tensor::EmptyOp::create(rewriter, loc, groupedType.getShape(), i32);
    Value acc = linalg::BroadcastOp::create(rewriter, loc, biasGrouped, init,
                                            ArrayRef<int64_t>{0, 1, 2})
                    ->getResult(0);

    // Loops (n, oh, ow, g, fg, kh, kw, c).
    AffineExpr n, oh, ow, g, fg, kh, kw, c;
    bindDims(ctx, n, oh, ow, g, fg, kh, kw, c);
    ChannelParams params(rewriter, loc,
                         AffineMap::get(8, 0, g * groupFilters + fg));
    unsigned zwId = params.add(op.getWeightZeroPoints());
    SmallVector<Value> inputs = {xGrouped, wGrouped};
    llvm::append_range(inputs, params.getInputs());
    SmallVector<AffineMap> maps = {
        AffineMap::get(8, 0,
                       {n, oh * strides[0] + kh * dilations[0],
                        ow * strides[1] + kw * dilations[1], g, c},
                       ctx),
        AffineMap::get(8, 0, {kh, kw, c, g, fg}, ctx)};
    llvm::append_range(maps, params.getMaps());
    maps.push_back(AffineMap::get(8, 0, {n, oh, ow, g, fg}, ctx));
    SmallVector<utils::IteratorType> iterators(5,
                                               utils::IteratorType::parallel);
    iterators.append(3, utils::IteratorType::reduction);

    bool xUnsigned = op.getXUnsigned(), wUnsigned = op.getWUnsigned();
    int32_t inputZeroPoint = getI32(op.getInputZeroPointAttr());
    auto generic = linalg::GenericOp::create(
        rewriter, loc, groupedType, inputs, acc, maps, iterators,
        [&](OpBuilder &b, Location nloc, ValueRange args) {
          Value zw = params.isZero(zwId)
                         ? Value()
                         : params.get(b, zwId, args.drop_front(2));
          Value sum =
              buildMultiplyAccumulate(b, nloc, args[0], args[1], args.back(),
                                      xUnsigned, wUnsigned, inputZeroPoint, zw);
          linalg::YieldOp::create(b, nloc, sum);
        });
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(
        op, resultType, generic.getResult(0), splitLast);
    return success();
  }
};

struct IntRequantizeConverter : OpConversionPattern<IntRequantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntRequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType inType = op.getInput().getType(),
                     resultType = op.getOutput().getType();
    std::optional<RoundingMode> mode =
        quantopt::ref::parseRoundingMode(op.getRounding());
    if (!mode)
      return op.emitOpError("unknown rounding \"") << op.getRounding() << "\"";

    ChannelParams params(
        rewriter, loc,
        getChannelMap(op.getContext(), inType.getRank(), op.getAxis()));
    unsigned zpInId = params.add(op.getInputZeroPoints());
    unsigned zpOutId = params.add(op.getOutputZeroPoints());
    // Only the representation the mode reads becomes an operand.
    bool isFloat = *mode == RoundingMode::Float;
    std::optional<unsigned> multiplierId, shiftId, floatMultiplierId;
    if (isFloat) {
      floatMultiplierId = params.add(op.getFloatMultipliers());
    } else {
      multiplierId = params.add(op.getMultipliers());
      shiftId = params.add(op.getShifts());
    }

    bool inputUnsigned = op.getInputUnsigned();
    bool wideInput = inType.getElementTypeBitWidth() >= 32;
    int32_t min = getI32(op.getMinAttr()), max = getI32(op.getMaxAttr());
    bool exactF32Bounds =
        FixedPointBuilder::boundsExactInF32(min, max, op.getOutputZeroPoints());
    Type storageType = resultType.getElementType();
    Value result = buildElementwise(
        rewriter, loc, adaptor.getInput(), resultType, params,
        [&](OpBuilder &b, Location nloc, Value q, ValueRange args) {
          FixedPointBuilder fp(b, nloc);
          Value x = extendToI32(b, nloc, q, inputUnsigned);
          if (!params.isZero(zpInId)) {
            Value zpIn = params.get(b, zpInId, args);
            if (wideInput) {
              // q - z_in saturates, as in the reference kernel; it can only
              // leave i32 for an i32 input.
              Type i64 = b.getI64Type();
              x = fp.saturateToInt32(arith::SubIOp::create(
                  b, nloc, arith::ExtSIOp::create(b, nloc, i64, x),
                  arith::ExtSIOp::create(b, nloc, i64, zpIn)));
            } else {
              x = arith::SubIOp::create(b, nloc, x, zpIn);
            }
          }
          RescaleOperands rescale;
          if (isFloat) {
            rescale.floatMultiplier = params.get(b, *floatMultiplierId, args);
          } else {
            rescale.multiplier = params.get(b, *multiplierId, args);
            rescale.rightShift = params.get(b, *shiftId, args);
          }
          Value y = fp.applyRescale(
              *mode, rescale, x, params.get(b, zpOutId, args), fp.i32Const(min),
              fp.i32Const(max), exactF32Bounds);
          return truncateToStorage(b, nloc, y, storageType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct IntQuantizeConverter : OpConversionPattern<IntQuantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntQuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getOutput().getType();
    ChannelParams params(
        rewriter, loc,
        getChannelMap(op.getContext(), resultType.getRank(), op.getAxis()));
    unsigned scaleId = params.add(op.getScales());
    unsigned zpId = params.add(op.getZeroPoints());
    int32_t min = getI32(op.getMinAttr()), max = getI32(op.getMaxAttr());
    bool exactF32Bounds =
        FixedPointBuilder::boundsExactInF32(min, max, op.getZeroPoints());
    Type storageType = resultType.getElementType();
    Value result = buildElementwise(
        rewriter, loc, adaptor.getInput(), resultType, params,
        [&](OpBuilder &b, Location nloc, Value x, ValueRange args) {
          FixedPointBuilder fp(b, nloc);
          Value q = fp.quantizeValue(
              x, params.get(b, scaleId, args), params.get(b, zpId, args),
              fp.i32Const(min), fp.i32Const(max), exactF32Bounds);
          return truncateToStorage(b, nloc, q, storageType);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct IntDequantizeConverter : OpConversionPattern<IntDequantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(IntDequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = op.getOutput().getType();
    ChannelParams params(
        rewriter, loc,
        getChannelMap(op.getContext(), resultType.getRank(), op.getAxis()));
    unsigned scaleId = params.add(op.getScales());
    unsigned zpId = params.add(op.getZeroPoints());
    bool inputUnsigned = op.getInputUnsigned();
    Value result = buildElementwise(
        rewriter, loc, adaptor.getInput(), resultType, params,
        [&](OpBuilder &b, Location nloc, Value q, ValueRange args) {
          FixedPointBuilder fp(b, nloc);
          return fp.dequantizeValue(q, inputUnsigned,
                                    params.get(b, scaleId, args),
                                    params.get(b, zpId, args));
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::qnt::populateQntToLinalgConversionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<IntMatmulConverter, IntConv2DConverter, IntRequantizeConverter,
               IntQuantizeConverter, IntDequantizeConverter>(
      patterns.getContext());
}
