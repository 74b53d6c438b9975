//===- ContractionToQnt.cpp - TOSA conv / matmul into qnt -----------------===//
//
// TOSA's integer conv2d, depthwise_conv2d and matmul compute
// sum (x - zx) (w - zw) (+ bias) exactly in i32, and padded positions count
// as real 0: that is qnt.conv2d / qnt.matmul on quantized types whose zero
// points are TOSA's. TOSA has no scales, so every type gets scale 1.0 (the
// accumulator's S_X * S_W is then 1 as well); the integer passes, the
// zero-point folding and the target kernels then apply unchanged.
//
//===----------------------------------------------------------------------===//

#include "TosaToQntUtils.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

#include "llvm/Support/MathExtras.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::tosa_to_qnt;

/// Reinterprets raw codes as `!quant.uniform<iN:f32, 1.0:zeroPoint>`.
static Value castToUnitScale(OpBuilder &builder, Location loc, Value codes,
                             int64_t zeroPoint) {
  auto type = cast<RankedTensorType>(codes.getType());
  auto quantType = getUnitScaleType(builder.getContext(),
                                    type.getElementTypeBitWidth(), zeroPoint);
  return quant::StorageCastOp::create(builder, loc, type.clone(quantType),
                                      codes);
}

/// An i8 zero point of TOSA, if `zp` is one.
static bool isI8ZeroPoint(FailureOr<int64_t> zp) {
  return succeeded(zp) && *zp >= -128 && *zp <= 127;
}

/// The largest |bias| if the bias is constant (0 otherwise, as for the qnt
/// verifiers: a run-time bias is added with saturation); failure for a bias
/// that would need a run-time broadcast to `channels` elements.
static FailureOr<uint64_t> biasMagnitude(Value bias, int64_t channels) {
  auto type = cast<RankedTensorType>(bias.getType());
  std::optional<DenseIntElementsAttr> constant = getConstantAttr(bias);
  if (type.getDimSize(0) != channels && (type.getDimSize(0) != 1 || !constant))
    return failure();
  uint64_t maxBias = 0;
  if (constant)
    for (const APInt &v : constant->getValues<APInt>())
      maxBias = std::max<uint64_t>(maxBias, std::abs(v.getSExtValue()));
  return maxBias;
}

/// The bias as an F-element i32 tensor (TOSA also allows one element for
/// all channels, which biasMagnitude accepted only as a constant). Creates
/// IR: call it once the pattern is sure to succeed.
static Value prepareBias(OpBuilder &builder, Location loc, Value bias,
                         int64_t channels) {
  auto type = cast<RankedTensorType>(bias.getType());
  if (type.getDimSize(0) == channels)
    return bias;
  DenseIntElementsAttr constant = *getConstantAttr(bias);
  auto full = RankedTensorType::get({channels}, builder.getI32Type());
  return arith::ConstantOp::create(
      builder, loc,
      DenseIntElementsAttr::get(full, constant.getValues<APInt>()[0]));
}

/// floor((in + pads - dilated kernel) / stride) + 1, the qnt.conv2d rule.
static int64_t convOutputSize(int64_t in, int64_t padBefore, int64_t padAfter,
                              int64_t kernel, int64_t stride,
                              int64_t dilation) {
  int64_t extent = (kernel - 1) * dilation + 1;
  int64_t span = in + padBefore + padAfter - extent;
  return span < 0 ? 0 : span / stride + 1;
}

namespace {

/// conv2d (weights OHWI) and depthwise_conv2d (weights HWCM) share all but
/// the weight layout.
template <typename OpTy>
struct ConvConverter : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  static constexpr bool kDepthwise =
      std::is_same_v<OpTy, tosa::DepthwiseConv2DOp>;

  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isStaticSignlessIntTensor(op.getInput().getType(), {8}) ||
        !isStaticSignlessIntTensor(op.getWeight().getType(), {8}) ||
        !isStaticSignlessIntTensor(op.getBias().getType(), {32}) ||
        !isStaticSignlessIntTensor(op.getType(), {32}) ||
        !op.getAccType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not an i8 x i8 -> i32 conv");
    FailureOr<int64_t> inputZp = op.getInputZeroPoint();
    FailureOr<int64_t> weightZp = op.getWeightZeroPoint();
    if (!isI8ZeroPoint(inputZp) || !isI8ZeroPoint(weightZp))
      return rewriter.notifyMatchFailure(op, "zero points not constant i8");

    auto inType = cast<RankedTensorType>(op.getInput().getType());
    auto wType = cast<RankedTensorType>(op.getWeight().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> w = wType.getShape();
    int64_t channels = inType.getDimSize(3);
    // HWCF filter shape and group count of the equivalent qnt.conv2d.
    SmallVector<int64_t> hwcf;
    int64_t groups = 1;
    if constexpr (kDepthwise) {
      if (w[2] != channels)
        return failure();
      hwcf = {w[0], w[1], 1, w[2] * w[3]};
      groups = channels;
    } else {
      if (w[3] != channels)
        return failure();
      hwcf = {w[1], w[2], w[3], w[0]};
    }
    int64_t filters = hwcf[3];
    ArrayRef<int64_t> pad = op.getPad(), stride = op.getStride(),
                      dilation = op.getDilation();
    for (int d = 0; d < 2; ++d)
      if (stride[d] < 1 || dilation[d] < 1 || pad[2 * d] < 0 ||
          pad[2 * d + 1] < 0 ||
          outType.getDimSize(1 + d) !=
              convOutputSize(inType.getDimSize(1 + d), pad[2 * d],
                             pad[2 * d + 1], hwcf[d], stride[d], dilation[d]))
        return rewriter.notifyMatchFailure(op, "unsupported geometry");
    if (outType.getDimSize(0) != inType.getDimSize(0) ||
        outType.getDimSize(3) != filters)
      return failure();

    // Nothing is created before the last check: a pattern that fails after
    // changing the IR made the greedy driver fail the pass with no message.
    FailureOr<uint64_t> maxBias = biasMagnitude(op.getBias(), filters);
    if (failed(maxBias))
      return rewriter.notifyMatchFailure(op, "run-time bias to broadcast");
    int64_t taps;
    if (llvm::MulOverflow(hwcf[0], hwcf[1], taps) ||
        llvm::MulOverflow(taps, hwcf[2], taps) ||
        !accumulatorFitsI32(taps, *inputZp, *weightZp, *maxBias))
      return rewriter.notifyMatchFailure(op, "accumulator could leave i32");

    // The filter in HWCF: at compile time when constant.
    auto hwcfType = wType.clone(hwcf);
    Value filter;
    if (std::optional<DenseIntElementsAttr> constant =
            getConstantAttr(op.getWeight())) {
      DenseIntElementsAttr data =
          kDepthwise ? cast<DenseIntElementsAttr>(constant->reshape(hwcfType))
                     : transposeConstant(*constant, {1, 2, 3, 0});
      filter = arith::ConstantOp::create(rewriter, loc, data);
    } else if constexpr (kDepthwise) {
      // [KH, KW, C, M] and [KH, KW, 1, C*M] are the same row-major data.
      auto flat = RankedTensorType::get({w[0] * w[1] * w[2] * w[3]},
                                        wType.getElementType());
      Value collapsed = tensor::CollapseShapeOp::create(
          rewriter, loc, flat, op.getWeight(),
          ArrayRef<ReassociationIndices>{{0, 1, 2, 3}});
      filter = tensor::ExpandShapeOp::create(
          rewriter, loc, hwcfType, collapsed,
          ArrayRef<ReassociationIndices>{{0, 1, 2, 3}});
    } else {
      Value init = tensor::EmptyOp::create(rewriter, loc, hwcf,
                                           wType.getElementType());
      filter = linalg::TransposeOp::create(rewriter, loc, op.getWeight(), init,
                                           ArrayRef<int64_t>{1, 2, 3, 0})
                   ->getResult(0);
    }

    Value x = castToUnitScale(rewriter, loc, op.getInput(), *inputZp);
    Value wq = castToUnitScale(rewriter, loc, filter, *weightZp);
    Value b = castToUnitScale(
        rewriter, loc, prepareBias(rewriter, loc, op.getBias(), filters), 0);
    auto accType =
        outType.clone(getUnitScaleType(rewriter.getContext(), 32, 0));
    Value acc = Conv2DOp::create(
        rewriter, loc, accType, x, wq, b, rewriter.getDenseI64ArrayAttr(stride),
        rewriter.getDenseI64ArrayAttr(dilation),
        rewriter.getDenseI64ArrayAttr(pad), rewriter.getI64IntegerAttr(groups));
    rewriter.replaceOpWithNewOp<quant::StorageCastOp>(op, outType, acc);
    return success();
  }
};

/// tosa.matmul [N, H, C] x [N, C, W] -> [N, H, W] as N qnt.matmul of
/// H x C times C x W.
struct MatMulConverter : OpRewritePattern<tosa::MatMulOp> {
  using OpRewritePattern::OpRewritePattern;
  /// Batches unrolled at most; larger batches stay TOSA.
  static constexpr int64_t kMaxBatch = 64;

  LogicalResult matchAndRewrite(tosa::MatMulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!isStaticSignlessIntTensor(op.getA().getType(), {8}) ||
        !isStaticSignlessIntTensor(op.getB().getType(), {8}) ||
        !isStaticSignlessIntTensor(op.getType(), {32}))
      return rewriter.notifyMatchFailure(op, "not an i8 x i8 -> i32 matmul");
    FailureOr<int64_t> aZp = op.getAZeroPoint(), bZp = op.getBZeroPoint();
    if (!isI8ZeroPoint(aZp) || !isI8ZeroPoint(bZp))
      return rewriter.notifyMatchFailure(op, "zero points not constant i8");
    auto aType = cast<RankedTensorType>(op.getA().getType());
    auto bType = cast<RankedTensorType>(op.getB().getType());
    auto outType = cast<RankedTensorType>(op.getType());
    int64_t batch = aType.getDimSize(0), m = aType.getDimSize(1),
            k = aType.getDimSize(2), n = bType.getDimSize(2);
    if (bType.getDimSize(0) != batch || bType.getDimSize(1) != k ||
        outType.getShape() != ArrayRef<int64_t>{batch, m, n} ||
        batch > kMaxBatch)
      return rewriter.notifyMatchFailure(op, "unsupported shapes");
    if (!accumulatorFitsI32(k, *aZp, *bZp, 0))
      return rewriter.notifyMatchFailure(op, "accumulator could leave i32");

    Type i8 = rewriter.getI8Type();
    std::optional<DenseIntElementsAttr> bConstant = getConstantAttr(op.getB());
    SmallVector<APInt> bValues;
    if (bConstant && !bConstant->isSplat())
      bValues.assign(bConstant->getValues<APInt>().begin(),
                     bConstant->getValues<APInt>().end());
    auto accType = RankedTensorType::get(
        {m, n}, getUnitScaleType(rewriter.getContext(), 32, 0));
    auto slice2d = [&](Value source, int64_t b, int64_t rows, int64_t cols) {
      SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(b),
                                           rewriter.getIndexAttr(0),
                                           rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1),
                                         rewriter.getIndexAttr(rows),
                                         rewriter.getIndexAttr(cols)};
      SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
      return tensor::ExtractSliceOp::create(
                 rewriter, loc, RankedTensorType::get({rows, cols}, i8),
                 source, offsets, sizes, strides)
          .getResult();
    };

    // One batch needs no copy: A and the result are reshaped in place.
    SmallVector<ReassociationIndices> dropBatch = {{0, 1}, {2}};
    Value result;
    if (batch != 1)
      result = tensor::EmptyOp::create(rewriter, loc, outType.getShape(),
                                       outType.getElementType());
    for (int64_t b = 0; b < batch; ++b) {
      Value a = batch == 1 ? tensor::CollapseShapeOp::create(
                                 rewriter, loc, op.getA(), dropBatch)
                                 .getResult()
                           : slice2d(op.getA(), b, m, k);
      Value weights;
      if (bConstant) {
        auto type = RankedTensorType::get({k, n}, i8);
        DenseIntElementsAttr data =
            bConstant->isSplat()
                ? DenseIntElementsAttr::get(type,
                                            bConstant->getSplatValue<APInt>())
                : DenseIntElementsAttr::get(
                      type, ArrayRef<APInt>(bValues).slice(b * k * n, k * n));
        weights = arith::ConstantOp::create(rewriter, loc, data);
      } else {
        weights = batch == 1 ? tensor::CollapseShapeOp::create(
                                   rewriter, loc, op.getB(), dropBatch)
                                   .getResult()
                             : slice2d(op.getB(), b, k, n);
      }
      Value acc = MatmulOp::create(
          rewriter, loc, accType, castToUnitScale(rewriter, loc, a, *aZp),
          castToUnitScale(rewriter, loc, weights, *bZp), Value());
      Value codes = quant::StorageCastOp::create(
          rewriter, loc, RankedTensorType::get({m, n}, rewriter.getI32Type()),
          acc);
      if (batch == 1) {
        result = tensor::ExpandShapeOp::create(rewriter, loc, outType, codes,
                                               dropBatch);
        break;
      }
      SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(b),
                                           rewriter.getIndexAttr(0),
                                           rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> sizes = {rewriter.getIndexAttr(1),
                                         rewriter.getIndexAttr(m),
                                         rewriter.getIndexAttr(n)};
      SmallVector<OpFoldResult> strides(3, rewriter.getIndexAttr(1));
      result = tensor::InsertSliceOp::create(rewriter, loc, codes, result,
                                             offsets, sizes, strides);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void mlir::qnt::populateTosaContractionToQntPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConvConverter<tosa::Conv2DOp>,
               ConvConverter<tosa::DepthwiseConv2DOp>, MatMulConverter>(
      patterns.getContext());
}
