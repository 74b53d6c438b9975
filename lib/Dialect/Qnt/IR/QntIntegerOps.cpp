//===- QntIntegerOps.cpp - verifiers of the explicit integer ops ----------===//
//
// These ops are produced by the qnt passes, not written by users; their
// verifiers catch pass bugs early with messages that name the attribute.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

#include "QuantOpt/Reference/FixedPoint.h"

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
  if (getStrides().size() != 2 || getDilations().size() != 2 ||
      getPadding().size() != 4 || getGroups() <= 0)
    return emitOpError("expects 2 strides, 2 dilations, 4 paddings and "
                       "positive groups");
  int64_t f = w.getDimSize(3);
  if (acc.getDimSize(3) != f || getBias().getType().getDimSize(0) != f ||
      x.getDimSize(3) != w.getDimSize(2) * getGroups())
    return emitOpError("operand shapes do not form a grouped HWCF conv");
  return verifyChannelArray(*this, "weight_zero_points",
                            getWeightZeroPoints().size(), f);
}

LogicalResult IntRequantizeOp::verify() {
  RankedTensorType in = getInput().getType(), out = getOutput().getType();
  if (in.getShape() != out.getShape())
    return emitOpError("result shape must equal the input shape");
  if (failed(verifyAxis(*this, in, getAxis())))
    return failure();
  std::optional<quantopt::ref::RoundingMode> mode =
      quantopt::ref::parseRoundingMode(getRounding());
  if (!mode)
    return emitOpError("unknown rounding \"") << getRounding() << "\"";
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
  if (static_cast<int32_t>(getMin()) > static_cast<int32_t>(getMax()))
    return emitOpError("'min' must not exceed 'max'");
  return success();
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
  if (static_cast<int32_t>(getMin()) > static_cast<int32_t>(getMax()))
    return emitOpError("'min' must not exceed 'max'");
  return success();
}

LogicalResult IntDequantizeOp::verify() {
  return verifyAffineConversion(*this, getInput().getType(),
                                getOutput().getType(), getAxis(),
                                getScales().size(), getZeroPoints().size());
}
