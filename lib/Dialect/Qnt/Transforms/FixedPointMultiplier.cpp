//===- FixedPointMultiplier.cpp - M = S_in / S_out as Q31 and shift -------===//
//
// Rewrites qnt.requantize into qnt.int_requantize on raw codes. The real
// multiplier of each channel becomes M ~= M0 * 2^-31 * 2^-n through the
// reference model's quantizeMultiplier (via makeRescale, which also yields the
// f32 ratio of mode "float"), so the pass, the folders and the golden kernels
// share one rounding of M.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "TransformUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTFIXEDPOINTMULTIPLIER
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

static LogicalResult rewriteRequantize(RewriterBase &rewriter,
                                       RequantizeOp op) {
  quantopt::ref::RoundingMode mode = toReferenceRounding(op.getRounding());

  RankedTensorType inType = op.getInput().getType();
  RankedTensorType outType = op.getOutput().getType();
  quant::QuantizedType inQuant = getUniformElementType(inType);
  quant::QuantizedType outQuant = getUniformElementType(outType);
  quantopt::ref::QuantParams in = getQuantParams(inQuant);
  quantopt::ref::QuantParams out = getQuantParams(outQuant);

  // Per channel where either side is per axis (the verifier makes the axes
  // agree when both are).
  int64_t axis = in.isPerAxis() ? in.axis : out.axis;
  int64_t channels = axis < 0 ? 1 : inType.getDimSize(axis);
  SmallVector<int32_t> multipliers, shifts;
  SmallVector<float> floatMultipliers;
  for (int64_t c = 0; c < channels; ++c) {
    quantopt::ref::Rescale rescale =
        quantopt::ref::makeRescale(in.scale(c), out.scale(c), mode);
    multipliers.push_back(rescale.qm.multiplier);
    shifts.push_back(rescale.qm.rightShift);
    floatMultipliers.push_back(rescale.floatMultiplier);
  }

  int32_t min = out.storageMin, max = out.storageMax;
  if (std::optional<ArrayRef<int64_t>> clamp = op.getClamp()) {
    min = std::max<int64_t>(min, (*clamp)[0]);
    max = std::min<int64_t>(max, (*clamp)[1]);
  }

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  auto intOp = IntRequantizeOp::create(
      rewriter, loc, getStorageTensorType(outType),
      castToStorage(rewriter, loc, op.getInput()),
      rewriter.getDenseI32ArrayAttr(in.zeroPoints),
      rewriter.getDenseI32ArrayAttr(multipliers),
      rewriter.getDenseI32ArrayAttr(shifts),
      rewriter.getDenseF32ArrayAttr(floatMultipliers),
      rewriter.getDenseI32ArrayAttr(out.zeroPoints),
      rewriter.getI32IntegerAttr(min), rewriter.getI32IntegerAttr(max),
      op.getRoundingAttr(),
      rewriter.getI64IntegerAttr(axis),
      inQuant.isSigned() ? UnitAttr() : rewriter.getUnitAttr(),
      outQuant.isSigned() ? UnitAttr() : rewriter.getUnitAttr());
  rewriter.replaceOpWithNewOp<quant::StorageCastOp>(op, outType,
                                                    intOp.getResult());
  return success();
}

namespace {
struct QntFixedPointMultiplierPass
    : qnt::impl::QntFixedPointMultiplierBase<QntFixedPointMultiplierPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<RequantizeOp> ops;
    getOperation().walk([&](RequantizeOp op) { ops.push_back(op); });
    IRRewriter rewriter(&getContext());
    bool failedAny = false;
    for (RequantizeOp op : ops)
      failedAny |= failed(rewriteRequantize(rewriter, op));
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
