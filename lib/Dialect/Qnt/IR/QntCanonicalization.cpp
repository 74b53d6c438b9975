//===- QntCanonicalization.cpp - qnt folders and canonical patterns -------===//
//
// Folders evaluate constants with the reference model's own kernels
// (QuantOpt/Reference), so compile-time and golden arithmetic cannot drift.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

#include "QntVerifierUtils.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "QuantOpt/Reference/Kernels.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

/// A splat that cannot fold to a splat (per-axis parameters) would be
/// expanded to every element: beyond 2^26 elements (64 MiB of i8 codes) it
/// stays unfolded instead of exhausting memory. A non-splat constant already
/// holds its elements, so folding it costs memory in proportion.
/// The codes of a folded quantized operand: `qnt.constant` folds to a
/// `#qnt.codes` (never a bare dense attribute, see QntAttributes.td).
static DenseIntElementsAttr getCodes(Attribute attr) {
  if (auto codes = dyn_cast_if_present<CodesAttr>(attr))
    return codes.getCodes();
  return {};
}

static bool mayExpand(DenseElementsAttr attr) {
  return !attr.isSplat() || attr.getNumElements() <= (int64_t(1) << 26);
}

OpFoldResult QuantizeOp::fold(FoldAdaptor adaptor) {
  auto input = dyn_cast_if_present<DenseFPElementsAttr>(adaptor.getInput());
  if (!input)
    return {};
  RankedTensorType type = getOutput().getType();
  quant::QuantizedType quantType = getUniformElementType(type);
  // A splat folds to a splat: one element through the same kernel, never an
  // expansion (a 2^62-element splat must not allocate).
  if (input.isSplat() && !isPerAxis(quantType)) {
    std::vector<int32_t> code = quantopt::ref::quantize(
        {input.getSplatValue<float>()}, {1}, getQuantParams(quantType));
    return CodesAttr::get(
        type, buildSplatCodesAttr(type.getShape(), quantType, code.front()));
  }
  if (!mayExpand(input))
    return {};
  auto values = llvm::to_vector(input.getValues<float>());
  std::vector<int32_t> codes = quantopt::ref::quantize(
      std::vector<float>(values.begin(), values.end()),
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      getQuantParams(quantType));
  return CodesAttr::get(type,
                        buildCodesAttr(type.getShape(), quantType, codes));
}

OpFoldResult DequantizeOp::fold(FoldAdaptor adaptor) {
  DenseIntElementsAttr input = getCodes(adaptor.getInput());
  if (!input)
    return {};
  RankedTensorType type = getInput().getType();
  quant::QuantizedType quantType = getUniformElementType(type);
  if (input.isSplat() && !isPerAxis(quantType)) {
    std::vector<float> value = quantopt::ref::dequantize(
        {static_cast<int32_t>(readCode(input.getSplatValue<APInt>(),
                                       quantType))},
        {1}, getQuantParams(quantType));
    return DenseElementsAttr::get(getOutput().getType(), value.front());
  }
  if (!mayExpand(input))
    return {};
  std::vector<float> values = quantopt::ref::dequantize(
      readCodes(input, quantType),
      std::vector<int64_t>(type.getShape().begin(), type.getShape().end()),
      getQuantParams(quantType));
  return DenseElementsAttr::get(getOutput().getType(), ArrayRef(values));
}

OpFoldResult RequantizeOp::fold(FoldAdaptor adaptor) {
  DenseIntElementsAttr input = getCodes(adaptor.getInput());
  if (!input)
    return {};
  quantopt::ref::RoundingMode mode = toReferenceRounding(getRounding());
  RankedTensorType inType = getInput().getType();
  quant::QuantizedType inQuant = getUniformElementType(inType);
  quant::QuantizedType outQuant = getUniformElementType(getOutput().getType());
  std::optional<std::pair<int32_t, int32_t>> clamp;
  if (std::optional<ArrayRef<int64_t>> bounds = getClamp())
    clamp = std::make_pair(static_cast<int32_t>((*bounds)[0]),
                           static_cast<int32_t>((*bounds)[1]));
  if (input.isSplat() && !isPerAxis(inQuant) && !isPerAxis(outQuant)) {
    std::vector<int32_t> code = quantopt::ref::requantize(
        {static_cast<int32_t>(readCode(input.getSplatValue<APInt>(), inQuant))},
        {1}, getQuantParams(inQuant), getQuantParams(outQuant), mode, clamp);
    return CodesAttr::get(
        getOutput().getType(),
        buildSplatCodesAttr(inType.getShape(), outQuant, code.front()));
  }
  if (!mayExpand(input))
    return {};
  std::vector<int32_t> codes = quantopt::ref::requantize(
      readCodes(input, inQuant),
      std::vector<int64_t>(inType.getShape().begin(), inType.getShape().end()),
      getQuantParams(inQuant), getQuantParams(outQuant), mode, clamp);
  return CodesAttr::get(getOutput().getType(),
                        buildCodesAttr(inType.getShape(), outQuant, codes));
}

OpFoldResult ConstantOp::fold(FoldAdaptor) {
  return CodesAttr::get(getOutput().getType(), getValue());
}

namespace {
/// `quant.scast` of an integer constant is a quantized constant: rewriting it
/// to `qnt.constant` lets the folders above see through it.
struct StorageCastOfConstant : OpRewritePattern<quant::StorageCastOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(quant::StorageCastOp op,
                                PatternRewriter &rewriter) const override {
    auto resultType = dyn_cast<RankedTensorType>(op.getType());
    quant::QuantizedType quantType =
        resultType ? getUniformElementType(resultType) : nullptr;
    DenseIntElementsAttr codes;
    if (!quantType || !matchPattern(op.getInput(), m_Constant(&codes)))
      return failure();
    // Only a type qnt.constant takes (a zero point of 300, i4 storage, a bf16
    // expressed type stay quant.scast, for the pipeline's own rules to
    // name rather than a verifier error on an op the input never had).
    if (failed(verifyQuantizedValue([] { return InFlightDiagnostic(); },
                                    "output", resultType, kRequantizeInput)))
      return failure();
    IntegerType codeType = getCodeType(quantType);
    if (codes.getElementType().getIntOrFloatBitWidth() != codeType.getWidth())
      return failure();
    auto value = cast<DenseIntElementsAttr>(codes.bitcast(codeType));
    // Codes outside a narrowed storage range are not valid constants.
    int64_t min = quantType.getStorageTypeMin(),
            max = quantType.getStorageTypeMax();
    CodeRange range = getCodeRange(value, quantType);
    if (value.getNumElements() != 0 && (range.min < min || range.max > max))
      return failure();
    rewriter.replaceOpWithNewOp<ConstantOp>(op, resultType, value);
    return success();
  }
};

/// A static reshape of `qnt.constant` is a constant of the same codes in the
/// new shape. Upstream's own fold cannot do this (the fold value of a
/// quantized constant is `#qnt.codes`, see QntAttributes.td); doing it here
/// keeps reshaped weights visible to matchQuantizedConstant.
template <typename ReshapeOp>
struct ReshapeOfConstant : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern<ReshapeOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getSrc().template getDefiningOp<ConstantOp>();
    RankedTensorType resultType = op.getResultType();
    // Per-axis parameters follow an axis whose meaning a reshape changes:
    // those stay reshapes rather than become constants that fail to verify.
    if (!constant || !resultType.hasStaticShape() ||
        isPerAxis(getUniformElementType(resultType)))
      return failure();
    DenseIntElementsAttr codes = constant.getValue();
    auto codesType =
        RankedTensorType::get(resultType.getShape(), codes.getElementType());
    rewriter.replaceOpWithNewOp<ConstantOp>(
        op, resultType, cast<DenseIntElementsAttr>(codes.reshape(codesType)));
    return success();
  }
};

/// A static slice of a splat `qnt.constant` is a smaller splat (the same
/// fold upstream does for dense splats through resizeSplat).
struct SliceOfSplatConstant : OpRewritePattern<tensor::ExtractSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tensor::ExtractSliceOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getSource().getDefiningOp<ConstantOp>();
    RankedTensorType resultType = op.getResultType();
    if (!constant || !constant.getValue().isSplat() ||
        !resultType.hasStaticShape() ||
        isPerAxis(getUniformElementType(resultType)))
      return failure();
    DenseIntElementsAttr codes = constant.getValue();
    auto codesType =
        RankedTensorType::get(resultType.getShape(), codes.getElementType());
    rewriter.replaceOpWithNewOp<ConstantOp>(
        op, resultType,
        cast<DenseIntElementsAttr>(codes.resizeSplat(codesType)));
    return success();
  }
};
} // namespace

void QntDialect::getCanonicalizationPatterns(RewritePatternSet &results) const {
  results.add<StorageCastOfConstant, ReshapeOfConstant<tensor::ExpandShapeOp>,
              ReshapeOfConstant<tensor::CollapseShapeOp>, SliceOfSplatConstant>(
      getContext());
}
