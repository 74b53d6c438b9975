//===- QntDynamicOps.cpp - verifiers of the runtime-scale ops -------------===//
//
// The bad-input rules of qnt.dequantize_dynamic, qnt.quantize_dynamic and
// qnt.dynamic_quantize (docs/RuntimeScales.md). Every message names the
// operand, result or attribute and the rule it breaks.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include <cmath>

using namespace mlir;
using namespace mlir::qnt;

#include "QuantOpt/Dialect/Qnt/IR/QntDynamicEnums.cpp.inc"

namespace {

/// Raw code element types, as the contract names them.
bool isSignless(Type type, unsigned width) {
  return type.isSignlessInteger(width);
}
bool isUnsigned8(Type type) { return type.isUnsignedInteger(8); }

LogicalResult verifyStaticTensor(Operation *op, StringRef name,
                                 RankedTensorType type) {
  if (!type.hasStaticShape())
    return op->emitOpError("'")
           << name << "' must have a static shape, got " << type;
  return success();
}

LogicalResult verifyF32Tensor(Operation *op, StringRef name,
                              RankedTensorType type) {
  if (!type.getElementType().isF32())
    return op->emitOpError("'")
           << name << "' must be a tensor of f32, got " << type;
  return verifyStaticTensor(op, name, type);
}

/// `param` (scale or offset) broadcasts to `data` numpy-style on equal
/// ranks: every dimension is 1 or that of `data`.
LogicalResult verifyBroadcast(Operation *op, StringRef name,
                              RankedTensorType param, StringRef dataName,
                              RankedTensorType data) {
  if (failed(verifyF32Tensor(op, name, param)))
    return failure();
  if (param.getRank() != data.getRank())
    return op->emitOpError("'")
           << name << "' must have the rank of '" << dataName << "' ("
           << data.getRank() << "; use 1 for a broadcast dimension), got "
           << param;
  for (int64_t d = 0; d < data.getRank(); ++d) {
    int64_t size = param.getDimSize(d);
    if (size != 1 && size != data.getDimSize(d))
      return op->emitOpError("'")
             << name << "' dimension " << d << " is " << size
             << "; it must be 1 or " << data.getDimSize(d) << " (that of '"
             << dataName << "') to broadcast";
  }
  return success();
}

LogicalResult verifyResultShape(Operation *op, StringRef name,
                                RankedTensorType result,
                                RankedTensorType input, StringRef inputName) {
  if (result.getShape() != input.getShape())
    return op->emitOpError(name)
           << " shape must equal the shape of '" << inputName << "', got "
           << result << " for " << input;
  return success();
}

} // namespace

//===----------------------------------------------------------------------===//
// DequantizeDynamicOp
//===----------------------------------------------------------------------===//

LogicalResult DequantizeDynamicOp::verify() {
  Operation *op = getOperation();
  auto src = cast<RankedTensorType>(getSrc().getType());
  Type element = src.getElementType();
  if (!isSignless(element, 8) && !isUnsigned8(element) &&
      !isSignless(element, 16) && !isSignless(element, 32))
    return emitOpError("'src' must hold raw codes of element type i8, ui8, "
                       "i16 or i32 (signless is signed), got ")
           << src;
  auto result = cast<RankedTensorType>(getResult().getType());
  if (failed(verifyStaticTensor(op, "src", src)) ||
      failed(verifyBroadcast(op, "scale",
                             cast<RankedTensorType>(getScale().getType()),
                             "src", src)) ||
      failed(verifyBroadcast(op, "offset",
                             cast<RankedTensorType>(getOffset().getType()),
                             "src", src)))
    return failure();
  if (!result.getElementType().isF32())
    return emitOpError("result must be a tensor of f32, got ") << result;
  return verifyResultShape(op, "result", result, src, "src");
}

//===----------------------------------------------------------------------===//
// QuantizeDynamicOp
//===----------------------------------------------------------------------===//

LogicalResult QuantizeDynamicOp::verify() {
  Operation *op = getOperation();
  auto x = cast<RankedTensorType>(getX().getType());
  auto result = cast<RankedTensorType>(getResult().getType());
  if (failed(verifyF32Tensor(op, "x", x)) ||
      failed(verifyBroadcast(op, "scale",
                             cast<RankedTensorType>(getScale().getType()), "x",
                             x)) ||
      failed(verifyBroadcast(op, "offset",
                             cast<RankedTensorType>(getOffset().getType()),
                             "x", x)))
    return failure();
  Type element = result.getElementType();
  if (!isSignless(element, 8) && !isUnsigned8(element) &&
      !isSignless(element, 16))
    return emitOpError("result must hold raw codes of element type i8, ui8 "
                       "or i16 (signless is signed), got ")
           << result;
  if (failed(verifyResultShape(op, "result", result, x, "x")))
    return failure();
  // The contract's offset is integral; a constant one can be checked here.
  Attribute offsets;
  if (!matchPattern(getOffset(), m_Constant(&offsets)))
    return success();
  auto check = [&](const APFloat &value) -> LogicalResult {
    if (value.isFinite() && value.isInteger())
      return success();
    SmallString<16> text;
    value.toString(text);
    return emitOpError("'offset' must be integral (a zero point in codes), "
                       "got ")
           << text;
  };
  if (auto dense = dyn_cast<DenseFPElementsAttr>(offsets)) {
    // A splat is checked once, never expanded.
    if (dense.isSplat())
      return check(dense.getSplatValue<APFloat>());
    for (APFloat value : dense.getValues<APFloat>())
      if (failed(check(value)))
        return failure();
    return success();
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(offsets)) {
    std::optional<ArrayRef<char>> data = getResourceElementData(resource);
    if (!data || !resource.getElementType().isF32())
      return success();
    for (int64_t i = 0, e = resource.getNumElements(); i < e; ++i)
      if (failed(check(APFloat(APFloat::IEEEsingle(),
                               readResourceElement(*data, 32, i)))))
        return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// DynamicQuantizeOp
//===----------------------------------------------------------------------===//

LogicalResult DynamicQuantizeOp::verify() {
  Operation *op = getOperation();
  auto x = cast<RankedTensorType>(getX().getType());
  auto codes = cast<RankedTensorType>(getCodes().getType());
  auto scale = cast<RankedTensorType>(getScale().getType());
  auto zeroPoint = cast<RankedTensorType>(getZeroPoint().getType());
  if (failed(verifyF32Tensor(op, "x", x)) ||
      failed(verifyResultShape(op, "'codes'", codes, x, "x")))
    return failure();
  MLIRContext *ctx = getContext();
  Type f32 = Float32Type::get(ctx);

  if (getMode() == DynamicQuantizeMode::Onnx) {
    if (getAxis())
      return emitOpError("mode \"onnx\" is per tensor and takes no 'axis'");
    Type ui8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
    if (codes.getElementType() != ui8)
      return emitOpError("mode \"onnx\" gives ui8 'codes' (ONNX "
                         "DynamicQuantizeLinear), got ")
             << codes;
    if (scale != RankedTensorType::get({}, f32))
      return emitOpError("mode \"onnx\" gives a per-tensor 'scale' of type "
                         "tensor<f32>, got ")
             << scale;
    if (zeroPoint != RankedTensorType::get({}, ui8))
      return emitOpError("mode \"onnx\" gives a per-tensor 'zero_point' of "
                         "type tensor<ui8>, got ")
             << zeroPoint;
    return success();
  }

  // Symmetric.
  std::optional<int64_t> axis = getAxis();
  if (!axis)
    return emitOpError("mode \"symmetric\" requires 'axis' (the dimension "
                       "with one scale per slice)");
  if (*axis < 0 || *axis >= x.getRank())
    return emitOpError("'axis' ")
           << *axis << " is out of range for 'x' of rank " << x.getRank();
  Type i8 = IntegerType::get(ctx, 8);
  if (codes.getElementType() != i8)
    return emitOpError("mode \"symmetric\" gives i8 'codes', got ") << codes;
  int64_t slices = x.getDimSize(*axis);
  auto expectedScale = RankedTensorType::get({slices}, f32);
  if (scale != expectedScale)
    return emitOpError("mode \"symmetric\" gives one scale per slice along "
                       "'axis': 'scale' must be ")
           << expectedScale << ", got " << scale;
  auto expectedZeroPoint = RankedTensorType::get({slices}, i8);
  if (zeroPoint != expectedZeroPoint)
    return emitOpError("mode \"symmetric\" gives one zero point (0) per "
                       "slice along 'axis': 'zero_point' must be ")
           << expectedZeroPoint << ", got " << zeroPoint;
  return success();
}
