//===- Support.cpp - checked readers of types and attributes --------------===//
//
// quant-ref-run does not link the compiler's dialect, so it cannot rely on
// the qnt verifier: everything an op's semantics depends on is read and
// checked here, with a diagnostic that names the attribute or operand.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <cmath>

using namespace mlir;
using namespace quantrefrun;
using quantopt::ref::QuantParams;
using quantopt::ref::RoundingMode;

FailureOr<std::vector<int64_t>>
quantrefrun::readShape(Operation *op, StringRef what, Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank() || !shaped.hasStaticShape())
    return op->emitError("quant-ref-run: ")
           << what << " must be a statically shaped tensor, got " << type;
  int64_t count = 1;
  for (int64_t dim : shaped.getShape()) {
    std::optional<int64_t> next = quantopt::ref::checkedMul(count, dim);
    if (!next || *next > kMaxElements)
      return op->emitError("quant-ref-run: ")
             << what << " of type " << type << " has more than "
             << kMaxElements << " elements";
    count = *next;
  }
  return std::vector<int64_t>(shaped.getShape().begin(),
                              shaped.getShape().end());
}

int64_t quantrefrun::numElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

FailureOr<QuantParams> quantrefrun::readQuantParams(Operation *op,
                                                    StringRef what,
                                                    Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  Type element = shaped ? shaped.getElementType() : type;
  auto quantType = dyn_cast<quant::QuantizedType>(element);
  if (!quantType || !isa<quant::UniformQuantizedType,
                         quant::UniformQuantizedPerAxisType>(quantType))
    return op->emitError("quant-ref-run: ")
           << what << " must have !quant.uniform elements, got " << type;
  if (quantType.getStorageTypeIntegralWidth() > 32)
    return op->emitError("quant-ref-run: ")
           << what << " has storage wider than 32 bits";
  // The contract's quantized types express f32 values.
  if (!quantType.getExpressedType().isF32())
    return op->emitError("quant-ref-run: ")
           << what << " must have expressed type f32, got "
           << quantType.getExpressedType();
  const int64_t min = quantType.getStorageTypeMin();
  const int64_t max = quantType.getStorageTypeMax();
  auto checkScaleAndZeroPoint = [&](double scale,
                                    int64_t zeroPoint) -> LogicalResult {
    if (!(scale > 0.0) || !std::isfinite(scale))
      return op->emitError("quant-ref-run: ")
             << what << " scale " << scale << " must be positive and finite";
    if (zeroPoint < min || zeroPoint > max)
      return op->emitError("quant-ref-run: ")
             << what << " zero point " << zeroPoint
             << " lies outside the storage range [" << min << ", " << max
             << "]";
    return success();
  };
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(quantType)) {
    const int32_t axis = perAxis.getQuantizedDimension();
    if (!shaped || !shaped.hasRank() || axis < 0 || axis >= shaped.getRank())
      return op->emitError("quant-ref-run: ")
             << what << " per-axis dimension " << axis
             << " is outside the tensor rank";
    ArrayRef<double> scales = perAxis.getScales();
    ArrayRef<int64_t> zeroPoints = perAxis.getZeroPoints();
    if (shaped.isDynamicDim(axis) ||
        int64_t(scales.size()) != shaped.getDimSize(axis) ||
        scales.size() != zeroPoints.size())
      return op->emitError("quant-ref-run: ")
             << what << " has " << scales.size()
             << " per-axis scales for dimension " << axis << " of " << type;
    for (auto [scale, zeroPoint] : llvm::zip(scales, zeroPoints))
      if (failed(checkScaleAndZeroPoint(scale, zeroPoint)))
        return failure();
    return QuantParams::perAxis(
        axis, std::vector<double>(scales.begin(), scales.end()),
        std::vector<int32_t>(zeroPoints.begin(), zeroPoints.end()),
        int32_t(min), int32_t(max));
  }
  auto uniform = cast<quant::UniformQuantizedType>(quantType);
  if (failed(checkScaleAndZeroPoint(uniform.getScale(),
                                    uniform.getZeroPoint())))
    return failure();
  return QuantParams::perTensor(uniform.getScale(),
                                int32_t(uniform.getZeroPoint()), int32_t(min),
                                int32_t(max));
}

FailureOr<Storage> quantrefrun::readStorage(Operation *op, StringRef what,
                                            Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  Type element = shaped ? shaped.getElementType() : type;
  if (auto quantType = dyn_cast<quant::QuantizedType>(element))
    return Storage{quantType.getStorageTypeIntegralWidth(),
                   quantType.isSigned()};
  if (auto integer = dyn_cast<IntegerType>(element);
      integer && integer.getWidth() <= 32)
    return Storage{integer.getWidth(), !integer.isUnsigned()};
  return op->emitError("quant-ref-run: ")
         << what << " must hold integer codes of at most 32 bits, got "
         << type;
}

Attribute quantrefrun::getGenericAttr(Operation *op, StringRef name) {
  // An unregistered op keeps its `<{...}>` properties as one dictionary.
  if (auto properties =
          dyn_cast_or_null<DictionaryAttr>(op->getPropertiesAsAttribute()))
    if (Attribute attr = properties.get(name))
      return attr;
  return op->getDiscardableAttr(name);
}

LogicalResult quantrefrun::checkAttributeNames(Operation *op,
                                               ArrayRef<StringRef> allowed) {
  auto check = [&](DictionaryAttr dict) -> LogicalResult {
    if (!dict)
      return success();
    for (NamedAttribute attr : dict)
      if (!llvm::is_contained(allowed, attr.getName().getValue()))
        return op->emitError("quant-ref-run: unknown attribute '")
               << attr.getName().getValue() << "' on '" << op->getName()
               << "'";
    return success();
  };
  return failure(
      failed(check(dyn_cast_or_null<DictionaryAttr>(
          op->getPropertiesAsAttribute()))) ||
      failed(check(op->getDiscardableAttrDictionary())));
}

FailureOr<std::vector<int64_t>>
quantrefrun::readI64Array(Operation *op, StringRef name, size_t size,
                          std::vector<int64_t> defaultValue, int64_t minimum) {
  Attribute attr = getGenericAttr(op, name);
  if (!attr)
    return defaultValue;
  auto array = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!array || array.size() != int64_t(size))
    return op->emitError("quant-ref-run: '")
           << name << "' must be array<i64> with " << size
           << " values, got " << attr;
  for (int64_t v : array.asArrayRef())
    if (v < minimum)
      return op->emitError("quant-ref-run: '")
             << name << "' values must be >= " << minimum << ", got " << attr;
  return std::vector<int64_t>(array.asArrayRef().begin(),
                              array.asArrayRef().end());
}

FailureOr<RoundingMode> quantrefrun::readRounding(Operation *op) {
  Attribute attr = getGenericAttr(op, "rounding");
  if (!attr)
    return RoundingMode::Double;
  auto name = dyn_cast<StringAttr>(attr);
  std::optional<RoundingMode> mode =
      name ? quantopt::ref::parseRoundingMode(name.getValue().str())
           : std::nullopt;
  if (!mode)
    return op->emitError("quant-ref-run: 'rounding' must be one of "
                         "\"double\", \"single\", \"away\", \"half_even\", "
                         "\"float\"; got ")
           << attr;
  return *mode;
}

FailureOr<std::optional<std::pair<int32_t, int32_t>>>
quantrefrun::readClamp(Operation *op, const QuantParams &out) {
  Attribute attr = getGenericAttr(op, "clamp");
  if (!attr)
    return std::optional<std::pair<int32_t, int32_t>>();
  auto array = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!array || array.size() != 2)
    return op->emitError("quant-ref-run: 'clamp' must be array<i64: lo, hi> "
                         "in output codes, got ")
           << attr;
  int64_t lo = array[0], hi = array[1];
  if (lo > hi || lo < out.storageMin || hi > out.storageMax)
    return op->emitError("quant-ref-run: 'clamp' [")
           << lo << ", " << hi << "] must satisfy lo <= hi inside the result "
           << "storage range [" << out.storageMin << ", " << out.storageMax
           << "]";
  return std::optional<std::pair<int32_t, int32_t>>(
      std::make_pair(int32_t(lo), int32_t(hi)));
}
