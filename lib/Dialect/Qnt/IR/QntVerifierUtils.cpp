//===- QntVerifierUtils.cpp - rules shared by the qnt op verifiers --------===//
//
// The bad-input rules that several qnt ops share (QntVerifierUtils.h).
//
//===----------------------------------------------------------------------===//

#include "QntVerifierUtils.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/IR/Diagnostics.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::qnt;

StringRef mlir::qnt::describe(StorageRule rule) {
  switch (rule) {
  case kActivationOrWeight:
    return "i8 or u8";
  case kIoStorage:
    return "i8, u8 or i16";
  case kRequantizeInput:
    return "i8, u8, i16 or i32";
  }
  llvm_unreachable("unknown storage rule");
}

bool mlir::qnt::allows(StorageRule rule, quant::QuantizedType type) {
  unsigned width = type.getStorageTypeIntegralWidth();
  switch (rule) {
  case kActivationOrWeight:
    return width == 8;
  case kIoStorage:
    return width == 8 || (width == 16 && type.isSigned());
  case kRequantizeInput:
    return width == 8 || (width == 16 && type.isSigned()) ||
           (width == 32 && type.isSigned());
  }
  llvm_unreachable("unknown storage rule");
}

std::string mlir::qnt::storageName(quant::QuantizedType type) {
  return (Twine(type.isSigned() ? "i" : "u") +
          Twine(type.getStorageTypeIntegralWidth()))
      .str();
}

/// Checks one quantized operand or result: f32 expressed type, storage width,
/// positive finite scales, zero points inside the storage range, and per-axis
/// scale counts that match the tensor.
LogicalResult mlir::qnt::verifyQuantizedValue(Operation *op, StringRef name,
                                              RankedTensorType tensorType,
                                              StorageRule rule) {
  return verifyQuantizedValue([op] { return op->emitOpError(); }, name,
                              tensorType, rule);
}

LogicalResult
mlir::qnt::verifyQuantizedValue(function_ref<InFlightDiagnostic()> emitError,
                                StringRef name, RankedTensorType tensorType,
                                StorageRule rule) {
  quant::QuantizedType type = getUniformElementType(tensorType);
  if (!type) {
    emitError() << "'" << name
                << "' must have a !quant.uniform element type, got "
                << tensorType;
    return failure();
  }
  if (!type.getExpressedType().isF32()) {
    emitError() << "'" << name << "' must have expressed type f32, got "
                << type.getExpressedType();
    return failure();
  }
  if (!allows(rule, type)) {
    emitError() << "'" << name << "' storage must be " << describe(rule)
                << ", got " << storageName(type);
    return failure();
  }

  // Zero points are int64 in the type: check them before getQuantParams
  // narrows them to int32 (2^32 must not pass as 0).
  int64_t storageMin = type.getStorageTypeMin(),
          storageMax = type.getStorageTypeMax();
  for (int64_t zeroPoint : getZeroPoints(type))
    if (zeroPoint < storageMin || zeroPoint > storageMax) {
      emitError() << "'" << name << "' zero point " << zeroPoint
                  << " is outside the storage range [" << storageMin << ", "
                  << storageMax << "]";
      return failure();
    }
  quantopt::ref::QuantParams params = getQuantParams(type);
  for (double scale : params.scales)
    if (!(scale > 0.0) || !std::isfinite(scale)) {
      emitError() << "'" << name << "' scale must be positive and finite, got "
                  << scale;
      return failure();
    }

  if (params.axis >= 0) {
    if (params.axis >= tensorType.getRank()) {
      emitError() << "'" << name << "' per-axis dimension " << params.axis
                  << " is out of range for rank " << tensorType.getRank();
      return failure();
    }
    int64_t dim = tensorType.getDimSize(params.axis);
    // One scale per slice needs a known slice count; a dynamic size would
    // only fail later inside a lowering.
    if (ShapedType::isDynamic(dim)) {
      emitError() << "'" << name << "' per-axis dimension " << params.axis
                  << " must have a static size (one scale per slice), got "
                  << tensorType;
      return failure();
    }
    if (dim != static_cast<int64_t>(params.scales.size())) {
      emitError() << "'" << name << "' has " << params.scales.size()
                  << " per-axis scales but dimension " << params.axis
                  << " has size " << dim;
      return failure();
    }
  }
  return success();
}

LogicalResult mlir::qnt::verifySameShape(Operation *op, RankedTensorType input,
                                         RankedTensorType output) {
  if (input.getShape() != output.getShape())
    return op->emitOpError("result shape [")
           << output.getShape() << "] must equal the 'input' shape ["
           << input.getShape() << "]";
  return success();
}

LogicalResult mlir::qnt::verifyStaticShape(Operation *op, StringRef name,
                                           RankedTensorType type,
                                           int64_t rank) {
  if (type.getRank() != rank)
    return op->emitOpError("'")
           << name << "' must have rank " << rank << ", got " << type;
  if (!type.hasStaticShape())
    return op->emitOpError("'")
           << name << "' must have a static shape, got " << type;
  return success();
}

/// The i32 accumulator rules shared by matmul and conv2d: result storage i32,
/// zero point 0, scale S_X * S_W (per channel on `channelDim` when the
/// weights are per axis), and the same for the bias on dimension 0.
LogicalResult mlir::qnt::verifyAccumulatorType(
    Operation *op, StringRef name, RankedTensorType tensorType,
    int32_t channelDim, double scaleX, const quantopt::ref::QuantParams &w,
    int64_t channels) {
  quant::QuantizedType type = getUniformElementType(tensorType);
  if (!type.getExpressedType().isF32())
    return op->emitOpError("'")
           << name << "' must have expressed type f32, got "
           << type.getExpressedType();
  if (type.getStorageTypeIntegralWidth() != 32 || !type.isSigned())
    return op->emitOpError("'")
           << name << "' must have i32 storage (accumulator), got "
           << storageName(type);
  for (int64_t zeroPoint : getZeroPoints(type))
    if (zeroPoint != 0)
      return op->emitOpError("'")
             << name << "' must have zero point 0 (accumulator), got "
             << zeroPoint;
  quantopt::ref::QuantParams acc = getQuantParams(type);
  bool weightsPerAxis = w.axis >= 0;
  if (weightsPerAxis != (acc.axis >= 0))
    return op->emitOpError("'") << name << "' must be "
                                << (weightsPerAxis ? "per axis" : "per tensor")
                                << " like the weights 'w'";
  if (weightsPerAxis) {
    if (acc.axis != channelDim)
      return op->emitOpError("'")
             << name << "' per-axis dimension must be the output-channel "
             << "dimension " << channelDim << ", got " << acc.axis;
    if (static_cast<int64_t>(acc.scales.size()) != channels)
      return op->emitOpError("'") << name << "' has " << acc.scales.size()
                                  << " per-axis scales but there are "
                                  << channels << " output channels";
  }
  for (size_t i = 0, e = acc.scales.size(); i < e; ++i) {
    double expected = scaleX * w.scale(static_cast<int64_t>(i));
    if (!(acc.scales[i] > 0.0) || !std::isfinite(acc.scales[i]))
      return op->emitOpError("'")
             << name << "' scale must be positive and finite, got "
             << acc.scales[i];
    if (!scalesMatch(acc.scales[i], expected))
      return op->emitOpError("'")
             << name << "' scale " << acc.scales[i]
             << (weightsPerAxis ? (" of channel " + Twine(i)).str() : "")
             << " must equal S_X * S_W = " << expected;
  }
  return success();
}

/// Emits the bound failure: `what` = `factors` (+ max|bias|) = ... exceeds.
static LogicalResult checkBound(Operation *op, StringRef what,
                                StringRef factors, int64_t k, uint64_t a,
                                uint64_t b, uint64_t maxBias) {
  std::optional<uint64_t> bound = getAccumulatorBound(k, a, b, maxBias);
  constexpr uint64_t kMax = std::numeric_limits<int32_t>::max();
  if (bound && *bound <= kMax)
    return success();
  InFlightDiagnostic diag = op->emitOpError(what) << ": " << factors;
  if (maxBias)
    diag << " + max|bias|";
  diag << " = " << k << " * " << a << " * " << b;
  if (maxBias)
    diag << " + " << maxBias;
  diag << " = " << (bound ? Twine(*bound).str() : "more than 2^64")
       << " exceeds " << kMax;
  return diag;
}

/// |sum_k (x - z_x)(w - z_w)| <= K * max|x - z_x| * max|w - z_w| must fit in
/// i32 together with the largest constant bias magnitude. The folded form
/// sum_k x (w - z_w) + [b - z_x sum_k (w - z_w)] needs the bracket in i32
/// too: |z_x| can exceed max|x - z_x| when the range excludes 0.
static LogicalResult verifyBound(Operation *op, int64_t k, uint64_t maxX,
                                 uint64_t maxW, int64_t zeroPointX,
                                 uint64_t maxBias) {
  if (failed(checkBound(op, "worst-case accumulator can overflow i32",
                        "K * max|x - z_x| * max|w - z_w|", k, maxX, maxW,
                        maxBias)))
    return failure();
  return checkBound(op, "zero-point correction can overflow i32",
                    "K * |z_x| * max|w - z_w|", k,
                    static_cast<uint64_t>(std::abs(zeroPointX)), maxW, maxBias);
}

LogicalResult mlir::qnt::verifyAccumulatorBound(Operation *op, int64_t k,
                                                quant::QuantizedType x,
                                                quant::QuantizedType w,
                                                Value bias) {
  return verifyBound(op, k, getMaxAbsOffsetOfStorageBits(x),
                     getMaxAbsOffsetOfStorageBits(w), getZeroPoints(x).front(),
                     getMaxConstantBias(bias));
}

LogicalResult mlir::qnt::verifyAccumulatorBound(Operation *op, int64_t k,
                                                Value x, Value w, Value bias) {
  // The declared range holds where it is proven: checked constants, and
  // quantize / requantize, which clamp to it. Anything else (arguments,
  // quant.scast of run-time data) may carry every bit pattern.
  auto maxAbsOffset = [](Value value) {
    quant::QuantizedType type = getUniformElementType(value.getType());
    bool clamped = isa_and_present<QuantizeOp, RequantizeOp>(
                       value.getDefiningOp()) ||
                   matchQuantizedConstant(value);
    return clamped ? getMaxAbsOffset(type) : getMaxAbsOffsetOfStorageBits(type);
  };
  return verifyBound(op, k, maxAbsOffset(x), maxAbsOffset(w),
                     getZeroPoints(getUniformElementType(x.getType())).front(),
                     getMaxConstantBias(bias));
}

/// Bias: rank 1 with `channels` entries and the accumulator's own type rules.
LogicalResult mlir::qnt::verifyBias(Operation *op, Value bias, double scaleX,
                                    const quantopt::ref::QuantParams &w,
                                    int64_t channels) {
  auto type = cast<RankedTensorType>(bias.getType());
  if (type.getRank() != 1 || type.getDimSize(0) != channels)
    return op->emitOpError("'bias' must have shape [")
           << channels << "] (one per output channel), got " << type;
  return verifyAccumulatorType(op, "bias", type, /*channelDim=*/0, scaleX, w,
                               channels);
}
