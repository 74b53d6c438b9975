//===- QntIntegerOps.cpp - verifiers of the explicit integer ops ----------===//
//
// These ops are produced by the qnt passes, not written by users; their
// verifiers catch pass bugs early with messages that name the attribute.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

#include "QuantOpt/Reference/FixedPoint.h"
#include "QuantOpt/Reference/WindowArithmetic.h"

#include <cmath>
#include <tuple>

using namespace mlir;
using namespace mlir::qnt;

/// A per-channel array has one entry (per tensor) or one per channel.
static LogicalResult verifyChannelArray(Operation *op, StringRef name,
                                        size_t size, int64_t channels) {
  if (size == 1 || static_cast<int64_t>(size) == channels)
    return success();
  return op->emitOpError("'")
         << name << "' must have 1 or " << channels << " entries, got "
         << size;
}

static int64_t channelCount(ShapedType type, int64_t axis) {
  return axis < 0 ? 1 : type.getDimSize(axis);
}

static LogicalResult verifyAxis(Operation *op, ShapedType type,
                                int64_t axis) {
  if (axis < -1 || axis >= type.getRank())
    return op->emitOpError("'axis' ")
           << axis << " must be -1 (per tensor) or a dimension of rank "
           << type.getRank();
  return success();
}

/// `min` <= `max`, and both codes of `codes` (an N-bit integer type): the
/// clamp decides every result code, which the lowering then truncates to N
/// bits, so a bound outside the type would wrap. Signless codes hold signed
/// values ([-2^(N-1), 2^(N-1) - 1]) or unsigned ones ([0, 2^N - 1]).
static LogicalResult verifyClamp(Operation *op, int32_t min, int32_t max,
                                 Type codes) {
  if (min > max)
    return op->emitOpError("'min' must not exceed 'max'");
  unsigned bits = codes.getIntOrFloatBitWidth();
  if (bits >= 32)
    return success();
  int64_t signedMin = -(int64_t(1) << (bits - 1));
  int64_t signedMax = (int64_t(1) << (bits - 1)) - 1;
  int64_t unsignedMax = (int64_t(1) << bits) - 1;
  if ((min >= signedMin && max <= signedMax) || (min >= 0 && max <= unsignedMax))
    return success();
  return op->emitOpError("'min' and 'max' [")
         << min << ", " << max << "] must lie in the range of the " << bits
         << "-bit result codes, [" << signedMin << ", " << signedMax
         << "] or [0, " << unsignedMax << "]";
}

LogicalResult IntMatmulOp::verify() {
  RankedTensorType x = getX().getType(), w = getW().getType(),
                   acc = getResult().getType();
  if (x.getRank() != 2 || w.getRank() != 2 || acc.getRank() != 2 ||
      getBias().getType().getRank() != 1)
    return emitOpError("expects x: M x K, w: K x N, bias: N, result: M x N");
  if (x.getDimSize(1) != w.getDimSize(0) ||
      acc.getDimSize(0) != x.getDimSize(0) ||
      acc.getDimSize(1) != w.getDimSize(1) ||
      getBias().getType().getDimSize(0) != w.getDimSize(1))
    return emitOpError("operand shapes do not form an M x K by K x N matmul");
  return verifyChannelArray(*this, "weight_zero_points",
                            getWeightZeroPoints().size(), w.getDimSize(1));
}

LogicalResult IntConv2DOp::verify() {
  RankedTensorType x = getX().getType(), w = getW().getType(),
                   acc = getResult().getType();
  if (x.getRank() != 4 || w.getRank() != 4 || acc.getRank() != 4 ||
      getBias().getType().getRank() != 1)
    return emitOpError("expects x: NHWC, w: HWCF, bias: F, result: NHWF");
  int64_t groups = static_cast<int64_t>(getGroups());
  if (getStrides().size() != 2 || getDilations().size() != 2 ||
      getPadding().size() != 4 || groups <= 0)
    return emitOpError("expects 2 strides, 2 dilations, 4 paddings and "
                       "positive groups");
  int64_t f = w.getDimSize(3);
  if (acc.getDimSize(3) != f || getBias().getType().getDimSize(0) != f ||
      x.getDimSize(3) != w.getDimSize(2) * groups || f % groups != 0 ||
      acc.getDimSize(0) != x.getDimSize(0))
    return emitOpError("operand shapes do not form a grouped HWCF conv");
  // Every lowering (the generic one and each target's kernels) relies on
  // the result being the window arithmetic's output (WindowArithmetic.h).
  ArrayRef<int64_t> strides = getStrides(), dilations = getDilations(),
                    padding = getPadding();
  for (int d = 0; d < 2; ++d) {
    std::optional<int64_t> size = quantopt::ref::windowOutputSize(
        x.getDimSize(1 + d), padding[2 * d], padding[2 * d + 1],
        w.getDimSize(d), strides[d], dilations[d]);
    if (!size || *size != acc.getDimSize(1 + d))
      return emitOpError("result dimension ")
             << 1 + d << " must be the output size of the window over input "
             << x.getDimSize(1 + d) << " (padding " << padding[2 * d] << " + "
             << padding[2 * d + 1] << ", kernel " << w.getDimSize(d)
             << ", stride " << strides[d] << ", dilation " << dilations[d]
             << "), got " << acc.getDimSize(1 + d);
  }
  return verifyChannelArray(*this, "weight_zero_points",
                            getWeightZeroPoints().size(), f);
}

LogicalResult IntRequantizeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getOutput().getType();
  if (in.getShape() != out.getShape())
    return emitOpError("result shape must equal the input shape");
  if (failed(verifyAxis(*this, in, getAxis())) ||
      failed(verifyRoundingName(*this, getRoundingAttr())))
    return failure();
  int64_t channels = channelCount(in, getAxis());
  if (failed(verifyChannelArray(*this, "input_zero_points",
                                getInputZeroPoints().size(), channels)) ||
      failed(verifyChannelArray(*this, "output_zero_points",
                                getOutputZeroPoints().size(), channels)) ||
      failed(verifyChannelArray(*this, "multipliers", getMultipliers().size(),
                                channels)) ||
      failed(verifyChannelArray(*this, "shifts", getShifts().size(),
                                channels)) ||
      failed(verifyChannelArray(*this, "float_multipliers",
                                getFloatMultipliers().size(), channels)))
    return failure();
  for (int32_t multiplier : getMultipliers())
    if (multiplier < 0)
      return emitOpError("'multipliers' must be non-negative Q31 values");
  for (int32_t shift : getShifts())
    if (shift < -30 || shift > 31)
      return emitOpError("'shifts' must lie in [-30, 31], got ") << shift;
  return verifyClamp(*this, static_cast<int32_t>(getMin()),
                     static_cast<int32_t>(getMax()), out.getElementType());
}

/// Shared by int_quantize / int_dequantize: same shape, a valid axis, and
/// scales and zero points with 1 or one entry per channel.
static LogicalResult verifyAffineConversion(Operation *op,
                                            RankedTensorType in,
                                            RankedTensorType out, int64_t axis,
                                            size_t scales, size_t zeroPoints) {
  if (in.getShape() != out.getShape())
    return op->emitOpError("result shape must equal the input shape");
  if (failed(verifyAxis(op, in, axis)))
    return failure();
  int64_t channels = channelCount(in, axis);
  if (failed(verifyChannelArray(op, "scales", scales, channels)) ||
      failed(verifyChannelArray(op, "zero_points", zeroPoints, channels)))
    return failure();
  return success();
}

LogicalResult IntQuantizeOp::verify() {
  if (failed(verifyAffineConversion(*this, getInput().getType(),
                                    getOutput().getType(), getAxis(),
                                    getScales().size(),
                                    getZeroPoints().size())))
    return failure();
  return verifyClamp(*this, static_cast<int32_t>(getMin()),
                     static_cast<int32_t>(getMax()),
                     getOutput().getType().getElementType());
}

LogicalResult IntDequantizeOp::verify() {
  return verifyAffineConversion(*this, getInput().getType(),
                                getOutput().getType(), getAxis(),
                                getScales().size(), getZeroPoints().size());
}

//===----------------------------------------------------------------------===//
// Whole-network integer ops
//===----------------------------------------------------------------------===//

LogicalResult IntAddOp::verify() {
  RankedTensorType a = getA().getType(), b = getB().getType(),
                   y = getOutput().getType();
  if (!a.hasStaticShape() || !b.hasStaticShape() || !y.hasStaticShape() ||
      a.getRank() != y.getRank() || b.getRank() != y.getRank())
    return emitOpError("expects static operands of the result rank");
  for (int64_t d = 0, e = y.getRank(); d < e; ++d)
    for (int64_t size : {a.getDimSize(d), b.getDimSize(d)})
      if (size != 1 && size != y.getDimSize(d))
        return emitOpError("operand dimension ")
               << d << " of size " << size << " does not broadcast to "
               << y.getDimSize(d);
  if (failed(verifyRoundingName(*this, getRoundingAttr())))
    return failure();
  int32_t leftShift = static_cast<int32_t>(getLeftShift());
  if (leftShift < 0 || leftShift > 30)
    return emitOpError("'left_shift' must lie in [0, 30], got ") << leftShift;
  for (auto [name, multiplier, shift] :
       {std::tuple<StringRef, uint32_t, uint32_t>{"a", getAMultiplier(),
                                                  getAShift()},
        {"b", getBMultiplier(), getBShift()},
        {"output", getOutputMultiplier(), getOutputShift()}}) {
    if (static_cast<int32_t>(multiplier) < 0)
      return emitOpError("'") << name << "_multiplier' must be a non-negative "
                                         "Q31 value";
    int32_t s = static_cast<int32_t>(shift);
    if (s < -30 || s > 31)
      return emitOpError("'") << name << "_shift' must lie in [-30, 31], got "
                              << s;
  }
  if (getRounding() == RoundingMode::Float) {
    // f32(a - za) * a_float_multiplier + f32(b - zb) * b_float_multiplier
    // must stay finite: an infinite or NaN sum has no code to saturate to.
    // qnt.add's rule, with the same largest differences (the codes' range
    // from the zero point), so that every qnt.add it accepts lowers.
    float bound = 0.0f;
    for (auto [type, multiplier, zeroPoint, isUnsigned] :
         {std::tuple<RankedTensorType, float, int64_t, bool>{
              a, getAFloatMultiplier().convertToFloat(),
              static_cast<int32_t>(getAZeroPoint()), getAUnsigned()},
          {b, getBFloatMultiplier().convertToFloat(),
           static_cast<int32_t>(getBZeroPoint()), getBUnsigned()}}) {
      unsigned width = type.getElementTypeBitWidth();
      int64_t lo = isUnsigned ? 0 : -(int64_t(1) << (width - 1));
      int64_t hi = isUnsigned ? (int64_t(1) << width) - 1
                              : (int64_t(1) << (width - 1)) - 1;
      int64_t maxOffset = std::max(hi - zeroPoint, zeroPoint - lo);
      bound += static_cast<float>(maxOffset) * std::fabs(multiplier);
    }
    if (!std::isfinite(bound))
      return emitOpError("rounding = \"float\": the f32 sum of the "
                         "operands' differences times a_float_multiplier (")
             << getAFloatMultiplier().convertToFloat()
             << ") and b_float_multiplier ("
             << getBFloatMultiplier().convertToFloat() << ") can overflow f32";
  }
  return verifyClamp(*this, static_cast<int32_t>(getMin()),
                     static_cast<int32_t>(getMax()), y.getElementType());
}

/// Shared by the integer pools: NHWC, 2 kernel / stride / dilation values,
/// 4 paddings, and the result shape of the window arithmetic.
static LogicalResult verifyIntPool(Operation *op, RankedTensorType in,
                                   RankedTensorType out,
                                   ArrayRef<int64_t> kernel,
                                   ArrayRef<int64_t> strides,
                                   ArrayRef<int64_t> dilations,
                                   ArrayRef<int64_t> padding) {
  if (in.getRank() != 4 || out.getRank() != 4 || !in.hasStaticShape() ||
      !out.hasStaticShape())
    return op->emitOpError("expects static NHWC input and result");
  if (in.getElementType() != out.getElementType())
    return op->emitOpError("result element type must equal the input's");
  if (kernel.size() != 2 || strides.size() != 2 || dilations.size() != 2 ||
      padding.size() != 4)
    return op->emitOpError("expects 2 kernel sizes, 2 strides, 2 dilations "
                           "and 4 paddings");
  SmallVector<int64_t> expected = {in.getDimSize(0), 0, 0, in.getDimSize(3)};
  for (int d = 0; d < 2; ++d) {
    std::optional<int64_t> extent =
        quantopt::ref::dilatedKernelExtent(kernel[d], dilations[d]);
    std::optional<int64_t> size = quantopt::ref::windowOutputSize(
        in.getDimSize(1 + d), padding[2 * d], padding[2 * d + 1], kernel[d],
        strides[d], dilations[d]);
    if (!extent || !size || padding[2 * d] >= *extent ||
        padding[2 * d + 1] >= *extent)
      return op->emitOpError("invalid window geometry in dimension ")
             << 1 + d;
    expected[1 + d] = *size;
  }
  if (out.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError("result shape must be [")
           << ArrayRef<int64_t>(expected) << "]";
  return success();
}

LogicalResult IntMaxPool2DOp::verify() {
  return verifyIntPool(*this, getInput().getType(), getOutput().getType(),
                       getKernel(), getStrides(), getDilations(), getPadding());
}

LogicalResult IntAvgPool2DOp::verify() {
  static const int64_t kNoDilation[] = {1, 1};
  if (failed(verifyTieRounding(*this, getRoundingAttr())))
    return failure();
  RankedTensorType in = getInput().getType();
  if (failed(verifyIntPool(*this, in, getOutput().getType(), getKernel(),
                           getStrides(), kNoDilation, getPadding())))
    return failure();
  if (failed(verifyClamp(*this, static_cast<int32_t>(getMin()),
                     static_cast<int32_t>(getMax()), in.getElementType())))
    return failure();
  return verifyChannelArray(*this, "zero_points", getZeroPoints().size(),
                            in.getDimSize(3));
}
