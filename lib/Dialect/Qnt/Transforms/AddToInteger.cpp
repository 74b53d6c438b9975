//===- AddToInteger.cpp - qnt.add -> qnt.int_add --------------------------===//
//
// TFLite's integer add (kernels/add.cc PrepareGeneralSubgraph /
// reference/add.h): both inputs are brought to a common scale 2 max(S_a, S_b)
// with `left_shift` bits of headroom, summed exactly and rescaled to S_y.
// The multipliers come from the reference model's quantizeMultiplier, in
// double on the scales the types hold, so the compiled code and the
// reference kernel use the same M0 and shifts.
//
//===----------------------------------------------------------------------===//

#include "NetworkOpsPatterns.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "TransformUtils.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct AddToInteger : OpRewritePattern<AddOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AddOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType yType = op.getResult().getType();
    quant::QuantizedType aQuant = getUniformElementType(op.getA().getType());
    quant::QuantizedType bQuant = getUniformElementType(op.getB().getType());
    quant::QuantizedType yQuant = getUniformElementType(yType);
    quantopt::ref::QuantParams a = getQuantParams(aQuant);
    quantopt::ref::QuantParams b = getQuantParams(bQuant);
    quantopt::ref::QuantParams y = getQuantParams(yQuant);
    double sa = a.scales.front(), sb = b.scales.front(), sy = y.scales.front();

    int32_t leftShift = yQuant.getStorageTypeIntegralWidth() == 8 ? 20 : 15;
    double twiceMax = 2.0 * std::max(sa, sb);
    quantopt::ref::QuantizedMultiplier qa =
        quantopt::ref::quantizeMultiplier(sa / twiceMax);
    quantopt::ref::QuantizedMultiplier qb =
        quantopt::ref::quantizeMultiplier(sb / twiceMax);
    quantopt::ref::QuantizedMultiplier qy = quantopt::ref::quantizeMultiplier(
        twiceMax / (std::ldexp(1.0, leftShift) * sy));
    // ONNX Runtime's QLinearAdd ratios, in f32.
    float fa = static_cast<float>(sa) / static_cast<float>(sy);
    float fb = static_cast<float>(sb) / static_cast<float>(sy);

    int32_t min = y.storageMin, max = y.storageMax;
    if (std::optional<ArrayRef<int64_t>> clamp = op.getClamp()) {
      min = std::max<int64_t>(min, (*clamp)[0]);
      max = std::min<int64_t>(max, (*clamp)[1]);
    }

    Location loc = op.getLoc();
    auto i32 = [&](int32_t v) { return rewriter.getI32IntegerAttr(v); };
    auto unit = [&](quant::QuantizedType t) {
      return t.isSigned() ? UnitAttr() : rewriter.getUnitAttr();
    };
    auto intOp = IntAddOp::create(
        rewriter, loc, getStorageTensorType(yType),
        castToStorage(rewriter, loc, op.getA()),
        castToStorage(rewriter, loc, op.getB()), i32(a.zeroPoints.front()),
        i32(b.zeroPoints.front()), i32(y.zeroPoints.front()), i32(leftShift),
        i32(qa.multiplier), i32(qa.rightShift), i32(qb.multiplier),
        i32(qb.rightShift), i32(qy.multiplier), i32(qy.rightShift),
        rewriter.getF32FloatAttr(fa), rewriter.getF32FloatAttr(fb), i32(min),
        i32(max), op.getRoundingAttr(), unit(aQuant),
        unit(bQuant), unit(yQuant));
    rewriter.replaceOpWithNewOp<quant::StorageCastOp>(op, yType,
                                                      intOp.getResult());
    return success();
  }
};
} // namespace

void mlir::qnt::populateQntAddToIntegerPatterns(RewritePatternSet &patterns) {
  patterns.add<AddToInteger>(patterns.getContext());
}
