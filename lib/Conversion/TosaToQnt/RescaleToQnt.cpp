//===- RescaleToQnt.cpp - tosa.rescale / clamp / add into qnt -------------===//
//
// TOSA's apply_scale_32 / apply_scale_16 (shift s in [2, 62], multiplier m
// >= 0, |value| < 2^(s-1)) are qnt's integer rescales with `shifts = s - 31`:
//
//   SINGLE_ROUND  (v * m + 2^(s-1)) >> s                        = `single`
//   DOUBLE_ROUND  the same, +-2^30 more when s > 31             = `double`
//
// `double` computes roundingDivideByPOT(SRDHM(v << max(31-s, 0), m), s-31);
// writing both roundings as floors shows that it is the same expression for
// every v in TOSA's range (docs/TosaToQnt.md has the derivation), and the
// left shift cannot saturate there. INEXACT_ROUND lets an implementation
// pick its rounding; we pick `single`.
//
//===----------------------------------------------------------------------===//

#include "TosaToQntUtils.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::tosa_to_qnt;
using RefRounding = quantopt::ref::RoundingMode;

namespace {

/// A tosa.rescale read into qnt's terms.
struct RescaleInfo {
  RequantizeParams params;
  /// Per channel: the rounding that matters. `double` and `single` agree
  /// wherever the shift is at most 31, so only shifts above 31 pin it.
  std::optional<RefRounding> requiredRounding;
  unsigned inputWidth, outputWidth;
};

} // namespace

/// Reads `op` if it converts exactly: integer i8/i16/i32 tensors of static
/// shape, constant parameters inside TOSA's REQUIRE ranges.
static FailureOr<RescaleInfo> readRescale(tosa::RescaleOp op) {
  Type inType = op.getInput().getType(), outType = op.getOutput().getType();
  if (!isStaticSignlessIntTensor(inType, {8, 16, 32}) ||
      !isStaticSignlessIntTensor(outType, {8, 16, 32}))
    return failure();
  auto tensorType = cast<RankedTensorType>(inType);
  RescaleInfo info;
  info.inputWidth = tensorType.getElementTypeBitWidth();
  info.outputWidth =
      cast<RankedTensorType>(outType).getElementTypeBitWidth();

  std::optional<SmallVector<int64_t>> multipliers =
      getConstantInts(op.getMultiplier());
  std::optional<SmallVector<int64_t>> shifts = getConstantInts(op.getShift());
  FailureOr<int64_t> inputZp = op.getInputZeroPoint();
  FailureOr<int64_t> outputZp = op.getOutputZeroPoint();
  if (!multipliers || !shifts || failed(inputZp) || failed(outputZp) ||
      multipliers->size() != shifts->size() || multipliers->empty())
    return failure();

  bool inUnsigned = op.getInputUnsigned(), outUnsigned = op.getOutputUnsigned();
  // Unsigned codes exist for 8 and 16 bits only.
  if ((inUnsigned && info.inputWidth == 32) ||
      (outUnsigned && info.outputWidth == 32))
    return failure();
  auto [inMin, inMax] = getCodeRange(info.inputWidth, inUnsigned);
  auto [outMin, outMax] = getCodeRange(info.outputWidth, outUnsigned);
  if (*inputZp < inMin || *inputZp > inMax || *outputZp < outMin ||
      *outputZp > outMax)
    return failure();

  int64_t channels = 1;
  if (op.getPerChannel()) {
    if (tensorType.getRank() == 0)
      return failure();
    channels = tensorType.getShape().back();
    info.params.axis = tensorType.getRank() - 1;
  }
  if (static_cast<int64_t>(multipliers->size()) != channels)
    return failure();

  RefRounding mode = op.getRoundingMode() == tosa::RoundingMode::DOUBLE_ROUND
                          ? RefRounding::Double
                          : RefRounding::Single;
  if (mode == RefRounding::Double && !op.getScale32())
    return failure();
  int64_t multiplierLimit = op.getScale32() ? INT32_MAX : INT16_MAX;
  for (auto [m, s] : llvm::zip(*multipliers, *shifts)) {
    if (m < 0 || m > multiplierLimit || s < 2 || s > 62)
      return failure();
    info.params.multipliers.push_back(static_cast<int32_t>(m));
    info.params.shifts.push_back(static_cast<int32_t>(s - 31));
    if (s > 31)
      info.requiredRounding = mode;
  }
  info.params.rounding = mode;
  info.params.inputZeroPoints = {static_cast<int32_t>(*inputZp)};
  info.params.outputZeroPoints = {static_cast<int32_t>(*outputZp)};
  if (channels > 1) {
    info.params.inputZeroPoints.assign(channels, *inputZp);
    info.params.outputZeroPoints.assign(channels, *outputZp);
  }
  info.params.min = outMin;
  info.params.max = outMax;
  info.params.inputUnsigned = inUnsigned;
  info.params.outputUnsigned = outUnsigned;
  return info;
}

//===----------------------------------------------------------------------===//
// add between rescales
//===----------------------------------------------------------------------===//

namespace {
/// `rescale(add(rescale(a), rescale(b)))` with 8/16-bit a, b and result, as
/// TFLite's TOSA legalization writes a quantized add.
struct AddChain {
  tosa::RescaleOp lhs, rhs, output;
  tosa::AddOp add;
  RescaleInfo lhsInfo, rhsInfo, outputInfo;
  RefRounding rounding;
};
} // namespace

/// Reads a per-tensor rescale of the chain; `toI32` selects the input side
/// (8/16 bits to i32 with output zero point 0) or the output side (i32 with
/// input zero point 0 to 8/16 bits).
static FailureOr<RescaleInfo> readChainRescale(tosa::RescaleOp op, bool toI32) {
  FailureOr<RescaleInfo> info = readRescale(op);
  if (failed(info) || op.getPerChannel())
    return failure();
  if (toI32 ? (info->inputWidth == 32 || info->outputWidth != 32 ||
               info->params.outputZeroPoints.front() != 0)
            : (info->inputWidth != 32 || info->outputWidth == 32 ||
               info->params.inputZeroPoints.front() != 0))
    return failure();
  return info;
}

static FailureOr<AddChain> matchAddChain(tosa::AddOp add) {
  if (!add->hasOneUse() ||
      !isStaticSignlessIntTensor(add.getType(), {32}))
    return failure();
  AddChain chain;
  chain.add = add;
  chain.output = dyn_cast<tosa::RescaleOp>(*add->getUsers().begin());
  chain.lhs = add.getInput1().getDefiningOp<tosa::RescaleOp>();
  chain.rhs = add.getInput2().getDefiningOp<tosa::RescaleOp>();
  if (!chain.output || !chain.lhs || !chain.rhs || chain.lhs == chain.rhs ||
      !chain.lhs->hasOneUse() || !chain.rhs->hasOneUse())
    return failure();
  // TOSA's RESCALE keeps the shape; only then is the chain an add.
  for (tosa::RescaleOp rescale : {chain.lhs, chain.rhs, chain.output})
    if (cast<ShapedType>(rescale.getInput().getType()).getShape() !=
        cast<ShapedType>(rescale.getType()).getShape())
      return failure();
  FailureOr<RescaleInfo> lhs = readChainRescale(chain.lhs, true);
  FailureOr<RescaleInfo> rhs = readChainRescale(chain.rhs, true);
  FailureOr<RescaleInfo> out = readChainRescale(chain.output, false);
  if (failed(lhs) || failed(rhs) || failed(out))
    return failure();
  chain.lhsInfo = *lhs;
  chain.rhsInfo = *rhs;
  chain.outputInfo = *out;
  // qnt.int_add has one rounding for its three rescales.
  std::optional<RefRounding> rounding;
  for (const RescaleInfo *info : {&*lhs, &*rhs, &*out}) {
    if (!info->requiredRounding)
      continue;
    if (rounding && *rounding != *info->requiredRounding)
      return failure();
    rounding = info->requiredRounding;
  }
  chain.rounding = rounding.value_or(RefRounding::Single);
  return chain;
}

/// Whether `op` is an input rescale of an add chain, which the chain pattern
/// converts as a whole.
static bool feedsAddChain(tosa::RescaleOp op) {
  if (!op->hasOneUse())
    return false;
  auto add = dyn_cast<tosa::AddOp>(*op->getUsers().begin());
  return add && succeeded(matchAddChain(add));
}

namespace {

struct RescaleConverter : OpRewritePattern<tosa::RescaleOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::RescaleOp op,
                                PatternRewriter &rewriter) const override {
    if (feedsAddChain(op))
      return rewriter.notifyMatchFailure(op, "converted with its add");
    if (auto add = op.getInput().getDefiningOp<tosa::AddOp>())
      if (succeeded(matchAddChain(add)))
        return rewriter.notifyMatchFailure(op, "converted with its add");
    FailureOr<RescaleInfo> info = readRescale(op);
    if (failed(info))
      return rewriter.notifyMatchFailure(op, "not an exact integer rescale");
    rewriter.replaceOp(op, createIntRequantize(rewriter, op.getLoc(),
                                               op.getType(), op.getInput(),
                                               info->params));
    return success();
  }
};

struct AddChainConverter : OpRewritePattern<tosa::AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::AddOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<AddChain> chain = matchAddChain(op);
    if (failed(chain))
      return rewriter.notifyMatchFailure(op, "not rescale(add(rescale, rescale))");
    const RequantizeParams &a = chain->lhsInfo.params,
                           &b = chain->rhsInfo.params,
                           &y = chain->outputInfo.params;
    OperationState state(chain->output.getLoc(), IntAddOp::getOperationName());
    OperationName name = state.name;
    state.addOperands({chain->lhs.getInput(), chain->rhs.getInput()});
    state.addTypes(chain->output.getType());
    auto i32 = [&](int64_t v) { return rewriter.getI32IntegerAttr(v); };
    state.addAttribute(IntAddOp::getAZeroPointAttrName(name),
                       i32(a.inputZeroPoints.front()));
    state.addAttribute(IntAddOp::getBZeroPointAttrName(name),
                       i32(b.inputZeroPoints.front()));
    state.addAttribute(IntAddOp::getOutputZeroPointAttrName(name),
                       i32(y.outputZeroPoints.front()));
    state.addAttribute(IntAddOp::getLeftShiftAttrName(name), i32(0));
    state.addAttribute(IntAddOp::getAMultiplierAttrName(name),
                       i32(a.multipliers.front()));
    state.addAttribute(IntAddOp::getAShiftAttrName(name),
                       i32(a.shifts.front()));
    state.addAttribute(IntAddOp::getBMultiplierAttrName(name),
                       i32(b.multipliers.front()));
    state.addAttribute(IntAddOp::getBShiftAttrName(name),
                       i32(b.shifts.front()));
    state.addAttribute(IntAddOp::getOutputMultiplierAttrName(name),
                       i32(y.multipliers.front()));
    state.addAttribute(IntAddOp::getOutputShiftAttrName(name),
                       i32(y.shifts.front()));
    state.addAttribute(IntAddOp::getAFloatMultiplierAttrName(name),
                       rewriter.getF32FloatAttr(1.0f));
    state.addAttribute(IntAddOp::getBFloatMultiplierAttrName(name),
                       rewriter.getF32FloatAttr(1.0f));
    state.addAttribute(IntAddOp::getMinAttrName(name), i32(y.min));
    state.addAttribute(IntAddOp::getMaxAttrName(name), i32(y.max));
    state.addAttribute(IntAddOp::getRoundingAttrName(name),
                       getRoundingAttr(rewriter, chain->rounding));
    if (a.inputUnsigned)
      state.addAttribute(IntAddOp::getAUnsignedAttrName(name),
                         rewriter.getUnitAttr());
    if (b.inputUnsigned)
      state.addAttribute(IntAddOp::getBUnsignedAttrName(name),
                         rewriter.getUnitAttr());
    if (y.outputUnsigned)
      state.addAttribute(IntAddOp::getOutputUnsignedAttrName(name),
                         rewriter.getUnitAttr());
    Operation *add = rewriter.create(state);
    tosa::RescaleOp output = chain->output;
    rewriter.replaceOp(output, add->getResults());
    rewriter.eraseOp(op);
    rewriter.eraseOp(chain->lhs);
    rewriter.eraseOp(chain->rhs);
    return success();
  }
};

/// tosa.clamp on integer codes: narrows the [min, max] of the requantize or
/// add that produces its input, or else becomes an identity requantize with
/// those bounds.
struct ClampConverter : OpRewritePattern<tosa::ClampOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::ClampOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStaticSignlessIntTensor(op.getType(), {8, 16, 32}))
      return rewriter.notifyMatchFailure(op, "not an integer clamp");
    auto minAttr = dyn_cast<IntegerAttr>(op.getMinValAttr());
    auto maxAttr = dyn_cast<IntegerAttr>(op.getMaxValAttr());
    if (!minAttr || !maxAttr)
      return rewriter.notifyMatchFailure(op, "non-integer bounds");
    int64_t lo = minAttr.getValue().getSExtValue();
    int64_t hi = maxAttr.getValue().getSExtValue();
    if (lo > hi)
      return rewriter.notifyMatchFailure(op, "min above max");

    // A rescale that converts is narrowed once it has: wait for it.
    if (auto rescale = op.getInput().getDefiningOp<tosa::RescaleOp>()) {
      auto add = rescale.getInput().getDefiningOp<tosa::AddOp>();
      if (succeeded(readRescale(rescale)) ||
          (add && succeeded(matchAddChain(add))))
        return rewriter.notifyMatchFailure(op, "producer converts first");
    }

    // tosa.clamp compares signed values; a producer with unsigned output
    // codes orders them differently, so it is not narrowed.
    Operation *producer = op.getInput().getDefiningOp();
    if (producer && producer->hasOneUse() &&
        isa<IntRequantizeOp, IntAddOp>(producer) &&
        !producer->hasAttr("output_unsigned")) {
      auto narrow = [&](StringRef attrName, bool isMin) {
        auto current = producer->getAttrOfType<IntegerAttr>(attrName);
        int64_t value = static_cast<int32_t>(current.getInt());
        value = isMin ? std::max(value, lo) : std::min(value, hi);
        return rewriter.getI32IntegerAttr(value);
      };
      IntegerAttr newMin = narrow("min", true), newMax = narrow("max", false);
      // Disjoint ranges: every output is the clamp's bound nearest to the
      // producer's range, which narrowing to an empty range cannot say.
      if (newMin.getInt() <= newMax.getInt()) {
        rewriter.modifyOpInPlace(producer, [&] {
          producer->setAttr("min", newMin);
          producer->setAttr("max", newMax);
        });
        rewriter.replaceOp(op, producer->getResults());
        return success();
      }
    }
    RequantizeParams params = getIdentityParams(0, 0, lo, hi);
    rewriter.replaceOp(op, createIntRequantize(rewriter, op.getLoc(),
                                               op.getType(), op.getInput(),
                                               params));
    return success();
  }
};

} // namespace

void mlir::qnt::populateTosaRescaleToQntPatterns(RewritePatternSet &patterns) {
  patterns.add<RescaleConverter, AddChainConverter, ClampConverter>(
      patterns.getContext());
}
