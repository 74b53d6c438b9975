//===- QuantUtils.cpp - quant types to plain integer parameters -----------===//

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::qnt;

quant::QuantizedType mlir::qnt::getUniformElementType(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  Type element = shaped ? shaped.getElementType() : type;
  if (isa<quant::UniformQuantizedType, quant::UniformQuantizedPerAxisType>(
          element))
    return cast<quant::QuantizedType>(element);
  return {};
}

bool mlir::qnt::isPerAxis(quant::QuantizedType type) {
  return isa<quant::UniformQuantizedPerAxisType>(type);
}

quantopt::ref::QuantParams mlir::qnt::getQuantParams(quant::QuantizedType type) {
  auto min = static_cast<int32_t>(type.getStorageTypeMin());
  auto max = static_cast<int32_t>(type.getStorageTypeMax());
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(type)) {
    std::vector<int32_t> zeroPoints(perAxis.getZeroPoints().begin(),
                                    perAxis.getZeroPoints().end());
    return quantopt::ref::QuantParams::perAxis(
        perAxis.getQuantizedDimension(),
        std::vector<double>(perAxis.getScales().begin(),
                            perAxis.getScales().end()),
        std::move(zeroPoints), min, max);
  }
  auto uniform = cast<quant::UniformQuantizedType>(type);
  return quantopt::ref::QuantParams::perTensor(
      uniform.getScale(), static_cast<int32_t>(uniform.getZeroPoint()), min,
      max);
}

SmallVector<int64_t> mlir::qnt::getZeroPoints(quant::QuantizedType type) {
  if (auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(type))
    return SmallVector<int64_t>(perAxis.getZeroPoints());
  return {cast<quant::UniformQuantizedType>(type).getZeroPoint()};
}

int64_t mlir::qnt::getMaxAbsOffset(quant::QuantizedType type) {
  quantopt::ref::QuantParams params = getQuantParams(type);
  int64_t result = 0;
  for (int32_t zeroPoint : params.zeroPoints)
    result = std::max({result, int64_t(params.storageMax) - zeroPoint,
                       int64_t(zeroPoint) - params.storageMin});
  return result;
}

int64_t mlir::qnt::getMaxAbsOffsetOfStorageBits(quant::QuantizedType type) {
  unsigned width = type.getStorageTypeIntegralWidth();
  int64_t lo = type.isSigned() ? -(int64_t(1) << (width - 1)) : 0;
  int64_t hi = type.isSigned() ? (int64_t(1) << (width - 1)) - 1
                               : (int64_t(1) << width) - 1;
  int64_t result = 0;
  for (int64_t zeroPoint : getZeroPoints(type))
    result = std::max({result, hi - zeroPoint, zeroPoint - lo});
  return result;
}

bool mlir::qnt::scalesMatch(double actual, double expected) {
  return std::fabs(actual - expected) <=
             kScaleRelativeTolerance * std::fabs(expected) ||
         static_cast<float>(actual) == static_cast<float>(expected);
}

IntegerType mlir::qnt::getCodeType(quant::QuantizedType type) {
  return IntegerType::get(type.getContext(),
                          type.getStorageTypeIntegralWidth(),
                          type.isSigned() ? IntegerType::Signless
                                          : IntegerType::Unsigned);
}

int64_t mlir::qnt::readCode(const APInt &bits, quant::QuantizedType type) {
  return type.isSigned() ? bits.getSExtValue()
                         : static_cast<int64_t>(bits.getZExtValue());
}

CodeRange mlir::qnt::getCodeRange(DenseIntElementsAttr attr,
                                  quant::QuantizedType type) {
  if (attr.getNumElements() == 0)
    return {};
  if (attr.isSplat()) {
    int64_t code = readCode(attr.getSplatValue<APInt>(), type);
    return {code, code};
  }
  CodeRange range{std::numeric_limits<int64_t>::max(),
                  std::numeric_limits<int64_t>::min()};
  for (const APInt &bits : attr.getValues<APInt>()) {
    int64_t code = readCode(bits, type);
    range.min = std::min(range.min, code);
    range.max = std::max(range.max, code);
  }
  return range;
}

std::vector<int32_t> mlir::qnt::readCodes(DenseIntElementsAttr attr,
                                          quant::QuantizedType type) {
  std::vector<int32_t> codes;
  codes.reserve(attr.getNumElements());
  bool isSigned = type.isSigned();
  for (const APInt &value : attr.getValues<APInt>())
    codes.push_back(static_cast<int32_t>(isSigned ? value.getSExtValue()
                                                  : value.getZExtValue()));
  return codes;
}

DenseIntElementsAttr mlir::qnt::buildCodesAttr(ArrayRef<int64_t> shape,
                                               quant::QuantizedType type,
                                               ArrayRef<int32_t> codes) {
  IntegerType codeType = getCodeType(type);
  unsigned width = codeType.getWidth();
  SmallVector<APInt> values;
  values.reserve(codes.size());
  for (int32_t code : codes)
    values.push_back(APInt(width, static_cast<uint64_t>(int64_t(code)),
                           /*isSigned=*/true, /*implicitTrunc=*/true));
  return DenseIntElementsAttr::get(RankedTensorType::get(shape, codeType),
                                   values);
}

DenseIntElementsAttr mlir::qnt::buildSplatCodesAttr(ArrayRef<int64_t> shape,
                                                    quant::QuantizedType type,
                                                    int32_t code) {
  IntegerType codeType = getCodeType(type);
  APInt bits(codeType.getWidth(), static_cast<uint64_t>(int64_t(code)),
             /*isSigned=*/true, /*implicitTrunc=*/true);
  return DenseIntElementsAttr::get(RankedTensorType::get(shape, codeType),
                                   bits);
}

std::optional<DenseIntElementsAttr>
mlir::qnt::matchQuantizedConstant(Value value) {
  if (auto constant = value.getDefiningOp<ConstantOp>())
    return constant.getValue();
  if (auto storageCast = value.getDefiningOp<quant::StorageCastOp>()) {
    DenseIntElementsAttr attr;
    if (matchPattern(storageCast.getInput(), m_Constant(&attr)))
      return attr;
  }
  return std::nullopt;
}

std::optional<CodeRange>
mlir::qnt::getConstantCodeRange(Value value, quant::QuantizedType type) {
  unsigned width = type.getStorageTypeIntegralWidth();
  if (std::optional<DenseIntElementsAttr> codes =
          matchQuantizedConstant(value)) {
    if (codes->getElementType().getIntOrFloatBitWidth() != width ||
        codes->getNumElements() == 0)
      return std::nullopt;
    return getCodeRange(*codes, type);
  }
  auto storageCast = value.getDefiningOp<quant::StorageCastOp>();
  if (!storageCast)
    return std::nullopt;
  SparseElementsAttr sparse;
  if (matchPattern(storageCast.getInput(), m_Constant(&sparse))) {
    auto stored = dyn_cast<DenseIntElementsAttr>(sparse.getValues());
    if (!stored || stored.getElementType().getIntOrFloatBitWidth() != width ||
        sparse.getNumElements() == 0)
      return std::nullopt;
    // Never expanded: a sparse constant may stand for 2^40 elements.
    CodeRange range = stored.getNumElements() ? getCodeRange(stored, type)
                                              : CodeRange{};
    if (stored.getNumElements() < sparse.getNumElements())
      range = {std::min<int64_t>(range.min, 0),
               std::max<int64_t>(range.max, 0)};
    return range;
  }
  // Dense constants were matched above, so only resource blobs remain; a
  // splat is never expanded.
  std::optional<std::vector<int64_t>> codes =
      getConstantInts(storageCast.getInput(), width, !type.isSigned(),
                      /*maxSplatElements=*/0);
  if (!codes || codes->empty())
    return std::nullopt;
  auto [min, max] = std::minmax_element(codes->begin(), codes->end());
  return CodeRange{*min, *max};
}

uint64_t mlir::qnt::getMaxConstantBias(Value bias) {
  if (!bias)
    return 0;
  quant::QuantizedType type = getUniformElementType(bias.getType());
  if (!type)
    return 0;
  std::optional<CodeRange> range = getConstantCodeRange(bias, type);
  if (!range)
    return 0;
  return std::max(static_cast<uint64_t>(std::abs(range->min)),
                  static_cast<uint64_t>(std::abs(range->max)));
}

std::optional<uint64_t> mlir::qnt::getAccumulatorBound(int64_t k,
                                                       uint64_t maxX,
                                                       uint64_t maxW,
                                                       uint64_t maxBias) {
  bool overflow = false;
  uint64_t products = llvm::SaturatingMultiply(
      llvm::SaturatingMultiply(static_cast<uint64_t>(k), maxX, &overflow),
      maxW, &overflow);
  uint64_t bound = llvm::SaturatingAdd(products, maxBias, &overflow);
  if (overflow)
    return std::nullopt;
  return bound;
}

std::optional<ArrayRef<char>>
mlir::qnt::getResourceElementData(DenseResourceElementsAttr resource) {
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  ShapedType type = resource.getType();
  Type element = type.getElementType();
  if (!blob || !type.hasStaticShape() || !element.isIntOrFloat())
    return std::nullopt;
  int64_t bytes = (element.getIntOrFloatBitWidth() + 7) / 8;
  int64_t expected = 0;
  if (llvm::MulOverflow(bytes, type.getNumElements(), expected) ||
      int64_t(blob->getData().size()) != expected)
    return std::nullopt;
  return blob->getData();
}

APInt mlir::qnt::readResourceElement(ArrayRef<char> data, unsigned bitWidth,
                                     int64_t index) {
  unsigned bytes = (bitWidth + 7) / 8;
  APInt bits(bytes * 8, 0);
  for (unsigned j = 0; j < bytes; ++j)
    bits.insertBits(uint64_t(uint8_t(data[index * bytes + j])), j * 8, 8);
  return bits.trunc(bitWidth);
}

std::optional<std::vector<int64_t>>
mlir::qnt::getConstantInts(Value value, unsigned bitWidth, bool isUnsigned,
                           int64_t maxSplatElements) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  Attribute attr;
  if (!type || !type.getElementType().isInteger(bitWidth) ||
      !type.hasStaticShape() || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  auto extend = [&](const APInt &v) {
    return isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue();
  };
  // Reserve only once the elements are known to exist in memory: a splat
  // may stand for 10^9 of them.
  std::vector<int64_t> result;
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    if (dense.isSplat() && dense.getNumElements() > maxSplatElements)
      return std::nullopt;
    result.reserve(dense.getNumElements());
    for (const APInt &v : dense.getValues<APInt>())
      result.push_back(extend(v));
    return result;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    std::optional<ArrayRef<char>> data = getResourceElementData(resource);
    if (!data)
      return std::nullopt;
    result.reserve(type.getNumElements());
    for (int64_t i = 0, e = type.getNumElements(); i < e; ++i)
      result.push_back(extend(readResourceElement(*data, bitWidth, i)));
    return result;
  }
  return std::nullopt;
}
