//===- DynamicOps.cpp - runtime-scale qnt ops on the reference model ------===//
//
// qnt.dequantize_dynamic, qnt.quantize_dynamic and qnt.dynamic_quantize in
// generic form, checked again here (element types, numpy broadcasting of
// scale and offset, mode and axis, result types) and evaluated with the
// reference kernels of QuantOpt/Reference/DynamicKernels.h.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "QuantOpt/Reference/DynamicKernels.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace quantrefrun;
namespace ref = quantopt::ref;

namespace {

LogicalResult checkShape(Operation *op, unsigned operands, unsigned results) {
  if (op->getNumOperands() != operands || op->getNumResults() != results ||
      op->getNumRegions() != 0)
    return op->emitError("quant-ref-run: '")
           << op->getName() << "' expects " << operands << " operand(s), "
           << results << " result(s) and no region";
  return success();
}

/// The element type of a tensor type, or null.
Type elementOf(Type type) {
  auto shaped = dyn_cast<RankedTensorType>(type);
  return shaped ? shaped.getElementType() : Type();
}

bool isRawCode(Type element, ArrayRef<unsigned> signlessWidths,
               bool allowUi8) {
  if (!element)
    return false;
  if (allowUi8 && element.isUnsignedInteger(8))
    return true;
  return llvm::any_of(signlessWidths, [&](unsigned width) {
    return element.isSignlessInteger(width);
  });
}

/// An f32 operand that broadcasts to `shape` on equal ranks.
FailureOr<std::vector<int64_t>> readParamShape(Operation *op, StringRef what,
                                               Type type,
                                               ArrayRef<int64_t> shape) {
  Type element = elementOf(type);
  if (!element || !element.isF32())
    return op->emitError("quant-ref-run: ")
           << what << " must be a tensor of f32, got " << type;
  FailureOr<std::vector<int64_t>> paramShape = readShape(op, what, type);
  if (failed(paramShape))
    return failure();
  if (paramShape->size() != shape.size())
    return op->emitError("quant-ref-run: ")
           << what << " must have rank " << shape.size() << ", got " << type;
  for (size_t d = 0; d < shape.size(); ++d)
    if ((*paramShape)[d] != 1 && (*paramShape)[d] != shape[d])
      return op->emitError("quant-ref-run: ")
             << what << " dimension " << d << " must be 1 or " << shape[d]
             << ", got " << type;
  return paramShape;
}

/// The f32 values of an operand with the expected element count.
const Tensor *floatsOf(Operation *op, const Tensor *t, StringRef what) {
  if (!t)
    return nullptr;
  if (int64_t(t->floats.size()) != numElements(t->shape)) {
    op->emitError("quant-ref-run: ") << what << " holds no f32 values";
    return nullptr;
  }
  return t;
}

} // namespace

LogicalResult Interpreter::evalDequantizeDynamic(Operation *op) {
  if (failed(checkShape(op, 3, 1)) || failed(checkAttributeNames(op, {})))
    return failure();
  Type srcType = op->getOperand(0).getType();
  Type resultType = op->getResult(0).getType();
  if (!isRawCode(elementOf(srcType), {8, 16, 32}, /*allowUi8=*/true))
    return op->emitError("quant-ref-run: 'src' must be a tensor of i8, ui8, "
                         "i16 or i32, got ")
           << srcType;
  FailureOr<std::vector<int64_t>> shape = readShape(op, "'src'", srcType);
  if (failed(shape))
    return failure();
  FailureOr<std::vector<int64_t>> scaleShape =
      readParamShape(op, "'scale'", op->getOperand(1).getType(), *shape);
  FailureOr<std::vector<int64_t>> offsetShape =
      readParamShape(op, "'offset'", op->getOperand(2).getType(), *shape);
  FailureOr<std::vector<int64_t>> outShape =
      readShape(op, "result", resultType);
  if (failed(scaleShape) || failed(offsetShape) || failed(outShape))
    return failure();
  if (!elementOf(resultType).isF32() || *outShape != *shape)
    return op->emitError("quant-ref-run: result must be an f32 tensor of the "
                         "shape of 'src', got ")
           << resultType;
  const Tensor *src = lookup(op, op->getOperand(0));
  const Tensor *scale =
      floatsOf(op, lookup(op, op->getOperand(1)), "'scale'");
  const Tensor *offset =
      floatsOf(op, lookup(op, op->getOperand(2)), "'offset'");
  if (!src || !scale || !offset)
    return failure();
  if (int64_t(src->codes.size()) != numElements(*shape))
    return op->emitError("quant-ref-run: 'src' holds no integer codes");
  Tensor t;
  t.shape = *shape;
  t.floats = ref::dequantizeDynamic(src->codes, *shape, scale->floats,
                                    *scaleShape, offset->floats, *offsetShape);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalQuantizeDynamic(Operation *op) {
  if (failed(checkShape(op, 3, 1)) || failed(checkAttributeNames(op, {})))
    return failure();
  Type xType = op->getOperand(0).getType();
  Type resultType = op->getResult(0).getType();
  if (!elementOf(xType) || !elementOf(xType).isF32())
    return op->emitError("quant-ref-run: 'x' must be a tensor of f32, got ")
           << xType;
  if (!isRawCode(elementOf(resultType), {8, 16}, /*allowUi8=*/true))
    return op->emitError("quant-ref-run: result must be a tensor of i8, ui8 "
                         "or i16, got ")
           << resultType;
  FailureOr<std::vector<int64_t>> shape = readShape(op, "'x'", xType);
  if (failed(shape))
    return failure();
  FailureOr<std::vector<int64_t>> scaleShape =
      readParamShape(op, "'scale'", op->getOperand(1).getType(), *shape);
  FailureOr<std::vector<int64_t>> offsetShape =
      readParamShape(op, "'offset'", op->getOperand(2).getType(), *shape);
  FailureOr<std::vector<int64_t>> outShape =
      readShape(op, "result", resultType);
  if (failed(scaleShape) || failed(offsetShape) || failed(outShape))
    return failure();
  if (*outShape != *shape)
    return op->emitError("quant-ref-run: result shape must equal 'x''s");
  FailureOr<Storage> storage = readStorage(op, "result", resultType);
  if (failed(storage))
    return failure();
  int32_t qmin = storage->isSigned ? -(1 << (storage->width - 1)) : 0;
  int32_t qmax = storage->isSigned ? (1 << (storage->width - 1)) - 1
                                   : (1 << storage->width) - 1;
  const Tensor *x = floatsOf(op, lookup(op, op->getOperand(0)), "'x'");
  const Tensor *scale =
      floatsOf(op, lookup(op, op->getOperand(1)), "'scale'");
  const Tensor *offset =
      floatsOf(op, lookup(op, op->getOperand(2)), "'offset'");
  if (!x || !scale || !offset)
    return failure();
  // The contract's offset is integral. A constant one is checked, as the
  // verifier does; a computed one that is not is outside the contract, and
  // the kernel rounds the sum half to even (docs/RuntimeScales.md), as
  // compiled code does.
  if (isa_and_present<arith::ConstantOp>(op->getOperand(2).getDefiningOp()))
    for (double value : offset->floats)
      if (!std::isfinite(value) || value != std::nearbyint(value))
        return op->emitError("quant-ref-run: 'offset' must be integral (a "
                             "zero point in codes), got ")
               << value;
  Tensor t;
  t.shape = *shape;
  t.codes = ref::quantizeDynamic(x->floats, *shape, scale->floats, *scaleShape,
                                 offset->floats, *offsetShape, qmin, qmax);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalDynamicQuantize(Operation *op) {
  if (failed(checkShape(op, 1, 3)) ||
      failed(checkAttributeNames(op, {"mode", "axis"})))
    return failure();
  Type xType = op->getOperand(0).getType();
  if (!elementOf(xType) || !elementOf(xType).isF32())
    return op->emitError("quant-ref-run: 'x' must be a tensor of f32, got ")
           << xType;
  FailureOr<std::vector<int64_t>> shape = readShape(op, "'x'", xType);
  if (failed(shape))
    return failure();
  auto mode = dyn_cast_or_null<StringAttr>(getGenericAttr(op, "mode"));
  Attribute axisAttr = getGenericAttr(op, "axis");
  if (!mode || (mode.getValue() != "onnx" && mode.getValue() != "symmetric"))
    return op->emitError("quant-ref-run: 'mode' must be \"onnx\" or "
                         "\"symmetric\"");
  MLIRContext *ctx = op->getContext();
  Type f32 = Float32Type::get(ctx);
  std::vector<Type> expected;
  ref::DynamicQuantized result;
  const Tensor *x = floatsOf(op, lookup(op, op->getOperand(0)), "'x'");
  if (!x)
    return failure();
  std::vector<int64_t> paramShape;
  if (mode.getValue() == "onnx") {
    if (axisAttr)
      return op->emitError("quant-ref-run: mode \"onnx\" takes no 'axis'");
    Type ui8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
    expected = {RankedTensorType::get(*shape, ui8), RankedTensorType::get({}, f32),
                RankedTensorType::get({}, ui8)};
    result = ref::dynamicQuantizeOnnx(x->floats);
  } else {
    auto axis = dyn_cast_or_null<IntegerAttr>(axisAttr);
    if (!axis || axis.getInt() < 0 || axis.getInt() >= int64_t(shape->size()))
      return op->emitError("quant-ref-run: mode \"symmetric\" needs an 'axis' "
                           "inside the rank of 'x'");
    Type i8 = IntegerType::get(ctx, 8);
    int64_t slices = (*shape)[axis.getInt()];
    paramShape = {slices};
    expected = {RankedTensorType::get(*shape, i8),
                RankedTensorType::get({slices}, f32),
                RankedTensorType::get({slices}, i8)};
    result = ref::dynamicQuantizeSymmetric(x->floats, *shape, axis.getInt());
  }
  for (unsigned i = 0; i < 3; ++i)
    if (op->getResult(i).getType() != expected[i])
      return op->emitError("quant-ref-run: result #")
             << i << " must be " << expected[i] << " for mode \""
             << mode.getValue() << "\", got " << op->getResult(i).getType();
  Tensor codes, scales, zeroPoints;
  codes.shape = *shape;
  codes.codes = std::move(result.codes);
  scales.shape = paramShape;
  scales.floats = std::move(result.scales);
  zeroPoints.shape = paramShape;
  zeroPoints.codes = std::move(result.zeroPoints);
  set(op->getResult(0), std::move(codes));
  set(op->getResult(1), std::move(scales));
  set(op->getResult(2), std::move(zeroPoints));
  return success();
}
