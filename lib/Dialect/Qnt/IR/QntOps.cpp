//===- QntOps.cpp - qnt op verifiers ---------------------------------------===//
//
// Every bad-input rule of the dialect contract is checked here, with a
// message that names the operand and the rule. Folders live in
// QntCanonicalization.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

#include "QntVerifierUtils.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>
#include <tuple>

using namespace mlir;
using namespace mlir::qnt;

//===----------------------------------------------------------------------===//
// QuantizeOp / DequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeOp::verify() {
  if (failed(verifySameShape(*this, getInput().getType(),
                             getOutput().getType())))
    return failure();
  return verifyQuantizedValue(*this, "output", getOutput().getType(),
                              kIoStorage);
}

LogicalResult DequantizeOp::verify() {
  if (failed(verifySameShape(*this, getInput().getType(),
                             getOutput().getType())))
    return failure();
  return verifyQuantizedValue(*this, "input", getInput().getType(),
                              kIoStorage);
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::verify() {
  RankedTensorType xType = getX().getType(), wType = getW().getType(),
                   resultType = getResult().getType();
  if (failed(verifyStaticShape(*this, "x", xType, 2)) ||
      failed(verifyStaticShape(*this, "w", wType, 2)) ||
      failed(verifyStaticShape(*this, "result", resultType, 2)))
    return failure();
  if (failed(verifyQuantizedValue(*this, "x", xType, kActivationOrWeight)) ||
      failed(verifyQuantizedValue(*this, "w", wType, kActivationOrWeight)))
    return failure();

  int64_t m = xType.getDimSize(0), k = xType.getDimSize(1);
  int64_t n = wType.getDimSize(1);
  if (wType.getDimSize(0) != k)
    return emitOpError("'w' must have K = ")
           << k << " rows to match 'x' (M x K), got " << wType.getDimSize(0);
  if (resultType.getShape() != ArrayRef<int64_t>{m, n})
    return emitOpError("result must have shape [")
           << m << ", " << n << "] (M x N), got " << resultType;

  quant::QuantizedType x = getUniformElementType(xType);
  quant::QuantizedType w = getUniformElementType(wType);
  if (isPerAxis(x))
    return emitOpError("'x' must be quantized per tensor");
  quantopt::ref::QuantParams wParams = getQuantParams(w);
  if (wParams.axis >= 0 && wParams.axis != 1)
    return emitOpError("'w' per-axis dimension must be the output-channel "
                       "dimension 1, got ")
           << wParams.axis;
  if (!getUniformElementType(resultType))
    return emitOpError("result must have a !quant.uniform element type");
  double scaleX = getQuantParams(x).scales.front();
  if (failed(verifyAccumulatorType(*this, "result", resultType,
                                   /*channelDim=*/1, scaleX, wParams, n)))
    return failure();
  if (getBias() && failed(verifyBias(*this, getBias(), scaleX, wParams, n)))
    return failure();
  return verifyAccumulatorBound(*this, k, getX(), getW(), getBias());
}

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

LogicalResult Conv2DOp::verify() {
  RankedTensorType xType = getX().getType(), wType = getW().getType(),
                   resultType = getResult().getType();
  if (failed(verifyStaticShape(*this, "x", xType, 4)) ||
      failed(verifyStaticShape(*this, "w", wType, 4)) ||
      failed(verifyStaticShape(*this, "result", resultType, 4)))
    return failure();
  if (failed(verifyQuantizedValue(*this, "x", xType, kActivationOrWeight)) ||
      failed(verifyQuantizedValue(*this, "w", wType, kActivationOrWeight)))
    return failure();

  ArrayRef<int64_t> strides = getStrides(), dilations = getDilations(),
                    padding = getPadding();
  int64_t groups = getGroups();
  if (strides.size() != 2 || llvm::any_of(strides, [](int64_t s) {
        return s <= 0;
      }))
    return emitOpError("'strides' must be two positive values (zero stride "
                       "is invalid), got [")
           << strides << "]";
  if (dilations.size() != 2 || llvm::any_of(dilations, [](int64_t d) {
        return d <= 0;
      }))
    return emitOpError("'dilations' must be two positive values, got [")
           << dilations << "]";
  if (padding.size() != 4 || llvm::any_of(padding, [](int64_t p) {
        return p < 0;
      }))
    return emitOpError("'padding' must be four non-negative values [top, "
                       "bottom, left, right], got [")
           << padding << "]";
  if (groups <= 0)
    return emitOpError("'groups' must be positive, got ") << groups;

  int64_t n = xType.getDimSize(0), h = xType.getDimSize(1),
          wIn = xType.getDimSize(2), c = xType.getDimSize(3);
  int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1),
          cPerGroup = wType.getDimSize(2), f = wType.getDimSize(3);
  if (c % groups != 0)
    return emitOpError("'x' channels ")
           << c << " must be divisible by groups = " << groups;
  if (f % groups != 0)
    return emitOpError("'w' filters ")
           << f << " must be divisible by groups = " << groups;
  if (cPerGroup != c / groups)
    return emitOpError("'w' dimension 2 must be C / groups = ")
           << c / groups << " (HWCF layout), got " << cPerGroup;

  quantopt::ref::Conv2DShape shape;
  shape.batch = n, shape.inH = h, shape.inW = wIn, shape.inC = c;
  shape.kernelH = kh, shape.kernelW = kw, shape.outC = f;
  shape.strideH = strides[0], shape.strideW = strides[1];
  shape.dilationH = dilations[0], shape.dilationW = dilations[1];
  shape.padTop = padding[0], shape.padBottom = padding[1];
  shape.padLeft = padding[2], shape.padRight = padding[3];
  shape.groups = groups;
  if (kh < 1 || kw < 1)
    return emitOpError("'w' kernel must be at least 1x1 (HWCF), got ")
           << kh << "x" << kw;
  // Checked int64 window math (WindowArithmetic.h): a dilation of 2^62 or a
  // padding of INT64_MAX must not wrap into a plausible size.
  int64_t extent[2], padded[2];
  for (auto [dim, in, before, after, k, d] :
       {std::tuple(0, h, padding[0], padding[1], kh, dilations[0]),
        std::tuple(1, wIn, padding[2], padding[3], kw, dilations[1])}) {
    std::optional<int64_t> e = quantopt::ref::dilatedKernelExtent(k, d);
    std::optional<int64_t> p = quantopt::ref::checkedAdd(in, before);
    if (p)
      p = quantopt::ref::checkedAdd(*p, after);
    if (!e || !p)
      return emitOpError("window ")
             << (dim == 0 ? "height" : "width")
             << " overflows int64: input " << in << ", padding " << before
             << " + " << after << ", kernel " << k << ", dilation " << d;
    extent[dim] = *e, padded[dim] = *p;
  }
  if (padded[0] < extent[0] || padded[1] < extent[1])
    return emitOpError("dilated kernel ")
           << extent[0] << "x" << extent[1] << " does not fit the padded input "
           << padded[0] << "x" << padded[1];
  std::optional<int64_t> outH = shape.checkedOutH(), outW = shape.checkedOutW();
  if (!outH || !outW)
    return emitOpError("window arithmetic overflows int64");
  // The lowering materializes the padded input and the result, addressed in
  // 64-bit index arithmetic: their element counts must fit int64.
  if (!quantopt::ref::checkedProduct({n, padded[0], padded[1], c}))
    return emitOpError("padded input ")
           << n << "x" << padded[0] << "x" << padded[1] << "x" << c
           << " has more elements than int64 can count";
  if (!quantopt::ref::checkedProduct({n, *outH, *outW, f}))
    return emitOpError("result ")
           << n << "x" << *outH << "x" << *outW << "x" << f
           << " has more elements than int64 can count";
  SmallVector<int64_t> expected = {n, *outH, *outW, f};
  if (resultType.getShape() != ArrayRef<int64_t>(expected))
    return emitOpError("result must have shape [")
           << ArrayRef<int64_t>(expected) << "] (N x OH x OW x F), got "
           << resultType;

  quant::QuantizedType x = getUniformElementType(xType);
  quant::QuantizedType w = getUniformElementType(wType);
  if (isPerAxis(x))
    return emitOpError("'x' must be quantized per tensor");
  quantopt::ref::QuantParams wParams = getQuantParams(w);
  if (wParams.axis >= 0 && wParams.axis != 3)
    return emitOpError("'w' per-axis dimension must be the output-channel "
                       "dimension 3 (F of HWCF), got ")
           << wParams.axis;
  if (!getUniformElementType(resultType))
    return emitOpError("result must have a !quant.uniform element type");
  double scaleX = getQuantParams(x).scales.front();
  if (failed(verifyAccumulatorType(*this, "result", resultType,
                                   /*channelDim=*/3, scaleX, wParams, f)))
    return failure();
  if (getBias() && failed(verifyBias(*this, getBias(), scaleX, wParams, f)))
    return failure();
  return verifyAccumulatorBound(*this, kh * kw * cPerGroup, getX(), getW(),
                                getBias());
}

//===----------------------------------------------------------------------===//
// RequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult RequantizeOp::verify() {
  RankedTensorType inType = getInput().getType(),
                   outType = getOutput().getType();
  if (failed(verifySameShape(*this, inType, outType)) ||
      failed(verifyQuantizedValue(*this, "input", inType, kRequantizeInput)) ||
      failed(verifyQuantizedValue(*this, "output", outType, kIoStorage)) ||
      failed(verifyRoundingName(*this, getRoundingAttr())))
    return failure();

  quantopt::ref::QuantParams in = getQuantParams(getUniformElementType(inType));
  quantopt::ref::QuantParams out =
      getQuantParams(getUniformElementType(outType));
  // (q - z_in) must be an exact i32 for every rounding mode.
  if (getUniformElementType(inType).getStorageTypeIntegralWidth() == 32 &&
      llvm::any_of(in.zeroPoints, [](int32_t z) { return z != 0; }))
    return emitOpError("'input' with i32 storage (an accumulator) must have "
                       "zero point 0");
  if (in.axis >= 0 && out.axis >= 0 && in.axis != out.axis)
    return emitOpError("'input' and result per-axis dimensions must match, "
                       "got ")
           << in.axis << " and " << out.axis;

  if (std::optional<ArrayRef<int64_t>> clamp = getClamp()) {
    if (clamp->size() != 2)
      return emitOpError("'clamp' must be [lo, hi] in output codes, got ")
             << clamp->size() << " values";
    int64_t lo = (*clamp)[0], hi = (*clamp)[1];
    if (lo > hi)
      return emitOpError("'clamp' lower bound ")
             << lo << " must not exceed the upper bound " << hi;
    if (lo < out.storageMin || hi > out.storageMax)
      return emitOpError("'clamp' [")
             << lo << ", " << hi << "] must lie within the result storage "
             << "range [" << out.storageMin << ", " << out.storageMax << "]";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  RankedTensorType outType = getOutput().getType();
  auto valueType = cast<ShapedType>(getValue().getType());
  if (valueType.getShape() != outType.getShape())
    return emitOpError("'value' shape [")
           << valueType.getShape() << "] must equal the result shape ["
           << outType.getShape() << "]";
  // The same type rules as every other op's operands (f32 expressed type,
  // zero points in range, per-axis counts); any storage an op may consume.
  if (failed(verifyQuantizedValue(*this, "output", outType, kRequantizeInput)))
    return failure();
  quant::QuantizedType type = getUniformElementType(outType);
  IntegerType codeType = getCodeType(type);
  if (valueType.getElementType() != codeType)
    return emitOpError("'value' element type must be ")
           << codeType << " (the storage codes of " << type << "), got "
           << valueType.getElementType();
  // One read for a splat: a 2^62-element splat must verify instantly.
  int64_t lo = type.getStorageTypeMin(), hi = type.getStorageTypeMax();
  CodeRange range = getCodeRange(getValue(), type);
  if (valueType.getNumElements() != 0 && (range.min < lo || range.max > hi))
    return emitOpError("'value' code ")
           << (range.min < lo ? range.min : range.max)
           << " is outside the storage range [" << lo << ", " << hi << "]";
  return success();
}

#define GET_OP_CLASSES
#include "QuantOpt/Dialect/Qnt/IR/QntOps.cpp.inc"
