//===- QntToLinalg.cpp - qnt integer ops to linalg ------------------------===//
//
// Patterns lowering the explicit integer qnt ops to linalg on tensors. The
// products accumulate in i32 without nsw/nuw flags: the verifiers bound the
// final sums to i32, so two's-complement wraparound of partial sums cancels
// and the result is exact.
//
// The contractions are laid out for the dot-product instructions of the
// targets (AArch64 sdot/usdot/udot, RISC-V V vwmacc*): the weights are
// transposed (N x K, filters [F][KH][KW][C/G]; constants at compile time) so
// that the reduction loop is innermost and reads both operands contiguously,
// and that loop carries its sum in a register (an scf.for inside a parallel
// linalg.generic), the `s += x[k] * w[k]` loop that LLVM's vectorizer turns
// into partial reductions.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

#include "FixedPointBuilder.h"
#include "NetworkOpsToLinalg.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

#include <cstring>
#include <functional>
#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::qnt;

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

/// The constant `attr` (dense or dense_resource), viewed with the shape of
/// `viewType` and permuted: dimension i of the result is dimension `perm[i]`
/// of the view, as in linalg.transpose. Null when the elements are not
/// byte-sized or there are none (the caller transposes at run time).
static DenseElementsAttr transposeConstant(Attribute attr,
                                           RankedTensorType viewType,
                                           ArrayRef<int64_t> perm) {
  ArrayRef<int64_t> shape = viewType.getShape();
  SmallVector<int64_t> resultShape = applyPermutation(shape, perm);
  auto resultType =
      RankedTensorType::get(resultShape, viewType.getElementType());
  unsigned bitWidth = viewType.getElementTypeBitWidth();
  int64_t count = viewType.getNumElements();
  if (bitWidth % 8 != 0 || count == 0)
    return {};
  ArrayRef<char> source;
  if (auto dense = dyn_cast<DenseIntOrFPElementsAttr>(attr)) {
    if (dense.getNumElements() != count)
      return {};
    if (dense.isSplat())
      return dense.resizeSplat(resultType);
    source = dense.getRawData();
  } else if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<char>> data = getResourceElementData(resource);
    if (!data)
      return {};
    source = *data;
  } else {
    return {};
  }
  size_t bytes = bitWidth / 8;
  if (source.size() != size_t(count) * bytes)
    return {};

  // Walk the result in row-major order; `offset` follows the source element
  // through the permuted source strides.
  SmallVector<int64_t> strides =
      applyPermutation(ArrayRef<int64_t>(computeStrides(shape)), perm);
  std::vector<char> result(source.size());
  SmallVector<int64_t> index(resultShape.size(), 0);
  int64_t offset = 0;
  for (int64_t element = 0; element < count; ++element) {
    std::memcpy(&result[element * bytes], &source[offset * bytes], bytes);
    for (int64_t dim = int64_t(resultShape.size()) - 1; dim >= 0; --dim) {
      offset += strides[dim];
      if (++index[dim] < resultShape[dim])
        break;
      offset -= strides[dim] * resultShape[dim];
      index[dim] = 0;
    }
  }
  return DenseElementsAttr::getFromRawBuffer(resultType, result);
}

/// `value` permuted like linalg.transpose with `perm`: a new constant when
/// `value` is one, a linalg.transpose otherwise.
static Value transposeOperand(OpBuilder &b, Location loc, Value value,
                              ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  Attribute constant;
  if (matchPattern(value, m_Constant(&constant)))
    if (DenseElementsAttr transposed = transposeConstant(constant, type, perm))
      return arith::ConstantOp::create(b, loc, transposed);
  SmallVector<OpFoldResult> sizes =
      applyPermutation(tensor::getMixedSizes(b, loc, value), perm);
  auto resultType = RankedTensorType::get(
      applyPermutation(type.getShape(), perm), type.getElementType());
  Value init = createEmpty(b, loc, resultType, sizes);
  return linalg::TransposeOp::create(b, loc, value, init, perm)->getResult(0);
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
/// codes extended to i32 first. Without zero points it is
/// acc + ext(x) * ext(w), the shape LLVM turns into dot-product instructions.
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

/// `sum_i values[i] * scales[i]` on indices, without multiplications by 1.
static Value linearIndex(OpBuilder &b, Location loc, ArrayRef<Value> values,
                         ArrayRef<int64_t> scales) {
  Value sum;
  for (auto [value, scale] : llvm::zip_equal(values, scales)) {
    Value term = value;
    if (scale != 1)
      term = arith::MulIOp::create(
          b, loc, value, arith::ConstantIndexOp::create(b, loc, scale));
    sum = sum ? arith::AddIOp::create(b, loc, sum, term).getResult() : term;
  }
  return sum;
}

/// Innermost contraction loops with fewer iterations are left to LLVM's
/// full unrolling: below one 8-byte dot product there is nothing to gain.
static constexpr int64_t kMinDotLoopTripCount = 8;

/// Asks LLVM to unroll the innermost contraction loop by 2
/// (`llvm.loop.unroll.count`) when it is long enough for dot products.
///
/// Without a hint, LLVM's full unrolling, which runs before the loop
/// vectorizer, flattens short constant loops (K = 24 or 48, e.g. a 3x3 conv
/// row of 16 channels) into straight-line code that the SLP vectorizer turns
/// into plain widening multiplies and horizontal adds, never into
/// sdot/usdot. A count of 2 keeps the loop out of full unrolling (the full
/// unroller does no partial unrolling) and, unlike `unroll.disable`, does not
/// turn off the vectorizer's interleaving (several independent accumulators).
/// scf-to-cf forwards an LLVM-dialect attribute of scf.for to the latch branch
/// and cf-to-llvm keeps it as the `loop_annotation` of llvm.br, which becomes
/// `!llvm.loop` metadata.
static void annotateDotLoop(scf::ForOp loop, OpFoldResult tripCount) {
  std::optional<int64_t> count = getConstantIntValue(tripCount);
  if (count && *count < kMinDotLoopTripCount)
    return;
  MLIRContext *ctx = loop.getContext();
  Builder b(ctx);
  auto unroll = LLVM::LoopUnrollAttr::get(
      ctx, /*disable=*/nullptr, /*count=*/b.getI32IntegerAttr(2),
      /*runtimeDisable=*/nullptr, /*full=*/nullptr,
      /*followupUnrolled=*/nullptr, /*followupRemainder=*/nullptr,
      /*followupAll=*/nullptr);
  auto annotation = LLVM::LoopAnnotationAttr::get(
      ctx, /*disableNonforced=*/nullptr, /*vectorize=*/nullptr,
      /*interleave=*/nullptr, unroll, /*unrollAndJam=*/nullptr,
      /*licm=*/nullptr, /*distribute=*/nullptr, /*pipeline=*/nullptr,
      /*peeled=*/nullptr, /*unswitch=*/nullptr, /*mustProgress=*/nullptr,
      /*isVectorized=*/nullptr, /*startLoc=*/nullptr, /*endLoc=*/nullptr,
      /*parallelAccesses=*/{});
  loop->setAttr("loop_annotation", annotation);
}

/// The body of one contraction step: returns `sum` plus the product at
/// output position `outer` and reduction position `inner`. `paramArgs` are
/// the block arguments of the ChannelParams inputs.
using ContractionStep =
    function_ref<Value(OpBuilder &b, Location loc, ValueRange outer,
                       ValueRange inner, ValueRange paramArgs, Value sum)>;

/// Builds `acc + sum over the reduction space of step(...)`: a linalg.generic
/// over the dimensions of `acc`, all parallel, whose body carries the sum
/// through nested scf.for loops with upper bounds `bounds` (outermost first)
/// and reads the operands with tensor.extract.
///
/// A reduction iterator of the generic would load and store the output
/// element in the innermost loop once lowered to loops, and LLVM turns such
/// a loop into dot-product instructions (partial reductions) only when it
/// proves that the output buffer aliases neither operand, which the
/// lowering of memref.alloc (malloc plus ptrtoint / inttoptr alignment)
/// hides. With the sum in a register the innermost loop only loads its two
/// operands, the loop clang vectorizes for `s += x[k] * w[k]`.
static Value buildContraction(RewriterBase &rewriter, Location loc, Value acc,
                              const ChannelParams &params,
                              ArrayRef<OpFoldResult> bounds,
                              ContractionStep step) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t rank = accType.getRank();
  AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
  SmallVector<AffineMap> maps = params.getMaps();
  maps.push_back(identity);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      rewriter, loc, accType, params.getInputs(), acc, maps, iterators,
      [&](OpBuilder &b, Location nloc, ValueRange args) {
        SmallVector<Value> outer;
        for (int64_t dim = 0; dim < rank; ++dim)
          outer.push_back(linalg::IndexOp::create(b, nloc, dim));
        ValueRange paramArgs = args.drop_back();
        Value zero = arith::ConstantIndexOp::create(b, nloc, 0);
        Value one = arith::ConstantIndexOp::create(b, nloc, 1);
        SmallVector<Value> upper;
        for (OpFoldResult bound : bounds)
          upper.push_back(getValueOrCreateConstantIndexOp(b, nloc, bound));
        SmallVector<Value> inner;
        std::function<Value(OpBuilder &, Value)> nest =
            [&](OpBuilder &lb, Value sum) -> Value {
          if (inner.size() == upper.size())
            return step(lb, nloc, outer, inner, paramArgs, sum);
          auto loop = scf::ForOp::create(
              lb, nloc, zero, upper[inner.size()], one, ValueRange{sum},
              [&](OpBuilder &fb, Location, Value iv, ValueRange iterArgs) {
                inner.push_back(iv);
                Value next = nest(fb, iterArgs.front());
                inner.pop_back();
                scf::YieldOp::create(fb, nloc, next);
              });
          if (inner.size() + 1 == upper.size())
            annotateDotLoop(loop, bounds.back());
          return loop.getResult(0);
        };
        linalg::YieldOp::create(b, nloc, nest(b, args.back()));
      });
  return generic.getResult(0);
}

/// The filter rearranged for the conv loops: `w` viewed as `viewType` (an
/// expand_shape by `expand`, or `w` itself when `expand` is empty), permuted
/// by `perm`, then collapsed to `resultType` by `collapse` (unless empty).
/// A constant filter is rearranged at compile time.
static Value packFilter(OpBuilder &b, Location loc, Value w,
                        ArrayRef<ReassociationIndices> expand,
                        RankedTensorType viewType, ArrayRef<int64_t> perm,
                        ArrayRef<ReassociationIndices> collapse,
                        RankedTensorType resultType) {
  Attribute constant;
  if (matchPattern(w, m_Constant(&constant)))
    if (DenseElementsAttr packed = transposeConstant(constant, viewType, perm))
      return arith::ConstantOp::create(b, loc, packed.reshape(resultType));
  Value view = w;
  if (!expand.empty())
    view = tensor::ExpandShapeOp::create(b, loc, viewType, w, expand);
  Value packed = transposeOperand(b, loc, view, perm);
  if (!collapse.empty())
    packed =
        tensor::CollapseShapeOp::create(b, loc, resultType, packed, collapse);
  return packed;
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

    // The weights as N x K, so that the k loop, innermost, reads x[m, k] and
    // wt[n, k] contiguously.
    Value wt = transposeOperand(rewriter, loc, w, {1, 0});

    // Output loops (m, n), then the k loop carrying the sum.
    ChannelParams params(rewriter, loc,
                         AffineMap::get(2, 0, getAffineDimExpr(1, ctx)));
    unsigned zwId = params.add(op.getWeightZeroPoints());
    bool xUnsigned = op.getXUnsigned(), wUnsigned = op.getWUnsigned();
    int32_t inputZeroPoint = getI32(op.getInputZeroPointAttr());
    Value result = buildContraction(
        rewriter, loc, acc, params, {tensor::getMixedSize(rewriter, loc, x, 1)},
        [&](OpBuilder &b, Location nloc, ValueRange mn, ValueRange k,
            ValueRange paramArgs, Value sum) {
          Value xv = tensor::ExtractOp::create(b, nloc, x, {mn[0], k[0]});
          Value wv = tensor::ExtractOp::create(b, nloc, wt, {mn[1], k[0]});
          Value zw =
              params.isZero(zwId) ? Value() : params.get(b, zwId, paramArgs);
          return buildMultiplyAccumulate(b, nloc, xv, wv, sum, xUnsigned,
                                         wUnsigned, inputZeroPoint, zw);
        });
    rewriter.replaceOp(op, result);
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

    ArrayRef<int64_t> strideAttr = op.getStrides(),
                      dilationAttr = op.getDilations(),
                      padding = op.getPadding();
    int64_t groups = op.getGroups();
    int64_t batch = xType.getDimSize(0), channels = xType.getDimSize(3);
    int64_t kernelH = wType.getDimSize(0), kernelW = wType.getDimSize(1);
    int64_t filters = wType.getDimSize(3);
    if (filters % groups != 0)
      return op.emitOpError("filter count ")
             << filters << " is not a multiple of groups " << groups;
    if (llvm::any_of(padding, [](int64_t p) { return p < 0; }) ||
        llvm::any_of(strideAttr, [](int64_t s) { return s <= 0; }) ||
        llvm::any_of(dilationAttr, [](int64_t d) { return d <= 0; }))
      return op.emitOpError("needs non-negative padding and positive strides "
                            "and dilations");
    // Checked window math shared with the verifier and the reference model
    // (WindowArithmetic.h): nothing here may wrap.
    int64_t outH = resultType.getDimSize(1), outW = resultType.getDimSize(2);
    std::optional<int64_t> expectedH = quantopt::ref::windowOutputSize(
        xType.getDimSize(1), padding[0], padding[1], kernelH, strideAttr[0],
        dilationAttr[0]);
    std::optional<int64_t> expectedW = quantopt::ref::windowOutputSize(
        xType.getDimSize(2), padding[2], padding[3], kernelW, strideAttr[1],
        dilationAttr[1]);
    if (expectedH != outH || expectedW != outW)
      return op.emitOpError("result spatial size ")
             << outH << "x" << outW
             << " does not match the padded input, kernel, strides and "
                "dilations";
    // Both fit int64: windowOutputSize checked these sums.
    int64_t paddedH = xType.getDimSize(1) + padding[0] + padding[1];
    int64_t paddedW = xType.getDimSize(2) + padding[2] + padding[3];
    // A single output position never moves by its stride, a one-tap kernel
    // never by its dilation: using 1 there bounds every offset product below
    // by the padded input size (a dilation of 2^62 on a 1x1 kernel must not
    // overflow `stride * channels`).
    SmallVector<int64_t, 2> strides = {outH == 1 ? 1 : strideAttr[0],
                                       outW == 1 ? 1 : strideAttr[1]};
    SmallVector<int64_t, 2> dilations = {kernelH == 1 ? 1 : dilationAttr[0],
                                         kernelW == 1 ? 1 : dilationAttr[1]};

    // Padded positions hold pad_value, the original input zero point, as a
    // storage code (low 8 bits for u8).
    Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();
    if (llvm::any_of(padding, [](int64_t p) { return p != 0; })) {
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
      if (xType.getNumElements() == 0) {
        // An empty input pads to all pad values; a tensor.pad of it would
        // bufferize to a memref.subview at an offset past its size, which
        // the subview verifier rejects.
        Value empty = tensor::EmptyOp::create(rewriter, loc,
                                              paddedType.getShape(), i8);
        x = linalg::FillOp::create(rewriter, loc, padValue, empty)
                .getResult(0);
      } else {
        x = tensor::PadOp::create(rewriter, loc, paddedType, x, low, high,
                                  padValue);
      }
    }

    bool xUnsigned = op.getXUnsigned(), wUnsigned = op.getWUnsigned();
    int32_t inputZeroPoint = getI32(op.getInputZeroPointAttr());
    int64_t groupChannels = channels / groups, groupFilters = filters / groups;
    SmallVector<ReassociationIndices> splitLast = {{0}, {1}, {2}, {3, 4}};

    // One group with unit horizontal dilation: a kernel row reads
    // KW * C consecutive codes of x (NHWC) and of the filter packed as
    // [F][KH][KW * C], so the innermost loop runs over KW * C.
    if (groups == 1 && dilations[1] == 1) {
      int64_t rowLength = kernelW * channels;
      SmallVector<ReassociationIndices> mergeLast = {{0}, {1}, {2, 3}};
      Value xRows = tensor::CollapseShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({batch, paddedH, paddedW * channels}, i8), x,
          mergeLast);
      Value wPacked =
          packFilter(rewriter, loc, w, {}, wType, {3, 0, 1, 2}, mergeLast,
                     RankedTensorType::get({filters, kernelH, rowLength}, i8));
      Value init =
          tensor::EmptyOp::create(rewriter, loc, resultType.getShape(), i32);
      Value acc = linalg::BroadcastOp::create(rewriter, loc, adaptor.getBias(),
                                              init, ArrayRef<int64_t>{0, 1, 2})
                      ->getResult(0);
      // Output loops (n, oh, ow, f); reduction loops (kh, j) with
      // j = kw * C + c.
      ChannelParams params(rewriter, loc,
                           AffineMap::get(4, 0, getAffineDimExpr(3, ctx)));
      unsigned zwId = params.add(op.getWeightZeroPoints());
      Value result = buildContraction(
          rewriter, loc, acc, params,
          {rewriter.getIndexAttr(kernelH), rewriter.getIndexAttr(rowLength)},
          [&](OpBuilder &b, Location nloc, ValueRange out, ValueRange red,
              ValueRange paramArgs, Value sum) {
            Value ih = linearIndex(b, nloc, {out[1], red[0]},
                                   {strides[0], dilations[0]});
            Value iwc = linearIndex(b, nloc, {out[2], red[1]},
                                    {strides[1] * channels, 1});
            Value xv =
                tensor::ExtractOp::create(b, nloc, xRows, {out[0], ih, iwc});
            Value wv = tensor::ExtractOp::create(b, nloc, wPacked,
                                                 {out[3], red[0], red[1]});
            Value zw =
                params.isZero(zwId) ? Value() : params.get(b, zwId, paramArgs);
            return buildMultiplyAccumulate(b, nloc, xv, wv, sum, xUnsigned,
                                           wUnsigned, inputZeroPoint, zw);
          });
      rewriter.replaceOp(op, result);
      return success();
    }

    // Split the channels into groups: x [N,H,W,G,C/G], the filter packed as
    // [G][F/G][KH][KW][C/G], bias [G,F/G]; filter f = g * F/G + fg reads the
    // channels of group g, and the innermost loop runs over them.
    Value xGrouped = tensor::ExpandShapeOp::create(
        rewriter, loc,
        RankedTensorType::get({batch, paddedH, paddedW, groups, groupChannels},
                              i8),
        x, splitLast);
    Value wPacked = packFilter(
        rewriter, loc, w, splitLast,
        RankedTensorType::get(
            {kernelH, kernelW, groupChannels, groups, groupFilters}, i8),
        {3, 4, 0, 1, 2}, {},
        RankedTensorType::get(
            {groups, groupFilters, kernelH, kernelW, groupChannels}, i8));
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

    // Output loops (n, oh, ow, g, fg); reduction loops (kh, kw, c).
    AffineExpr g = getAffineDimExpr(3, ctx), fg = getAffineDimExpr(4, ctx);
    ChannelParams params(rewriter, loc,
                         AffineMap::get(5, 0, g * groupFilters + fg));
    unsigned zwId = params.add(op.getWeightZeroPoints());
    Value result = buildContraction(
        rewriter, loc, acc, params,
        {rewriter.getIndexAttr(kernelH), rewriter.getIndexAttr(kernelW),
         rewriter.getIndexAttr(groupChannels)},
        [&](OpBuilder &b, Location nloc, ValueRange out, ValueRange red,
            ValueRange paramArgs, Value sum) {
          Value ih = linearIndex(b, nloc, {out[1], red[0]},
                                 {strides[0], dilations[0]});
          Value iw = linearIndex(b, nloc, {out[2], red[1]},
                                 {strides[1], dilations[1]});
          Value xv = tensor::ExtractOp::create(
              b, nloc, xGrouped, {out[0], ih, iw, out[3], red[2]});
          Value wv = tensor::ExtractOp::create(
              b, nloc, wPacked, {out[3], out[4], red[0], red[1], red[2]});
          Value zw =
              params.isZero(zwId) ? Value() : params.get(b, zwId, paramArgs);
          return buildMultiplyAccumulate(b, nloc, xv, wv, sum, xUnsigned,
                                         wUnsigned, inputZeroPoint, zw);
        });
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, resultType, result,
                                                         splitLast);
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
    quantopt::ref::RoundingMode mode = toReferenceRounding(op.getRounding());

    ChannelParams params(
        rewriter, loc,
        getChannelMap(op.getContext(), inType.getRank(), op.getAxis()));
    unsigned zpInId = params.add(op.getInputZeroPoints());
    unsigned zpOutId = params.add(op.getOutputZeroPoints());
    // Only the representation the mode reads becomes an operand.
    bool isFloat = mode == quantopt::ref::RoundingMode::Float;
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
              mode, rescale, x, params.get(b, zpOutId, args), fp.i32Const(min),
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
  populateQntNetworkOpsToLinalgPatterns(patterns);
  populateQntDynamicScaleOpsToLinalgPatterns(patterns);
}
