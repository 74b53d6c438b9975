//===- TosaToQntUtils.cpp - helpers of the TOSA to qnt patterns -----------===//

#include "TosaToQntUtils.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>
#include <limits>

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::tosa_to_qnt;

Attribute tosa_to_qnt::getRoundingAttr(Builder &builder,
                                       quantopt::ref::RoundingMode mode) {
  return builder.getStringAttr(quantopt::ref::stringifyRoundingMode(mode));
}

std::optional<DenseIntElementsAttr> tosa_to_qnt::getConstantAttr(Value value) {
  DenseIntElementsAttr attr;
  if (!value || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  return attr;
}

std::optional<SmallVector<int64_t>> tosa_to_qnt::getConstantInts(Value value) {
  std::optional<DenseIntElementsAttr> attr = getConstantAttr(value);
  if (!attr)
    return std::nullopt;
  SmallVector<int64_t> result;
  result.reserve(attr->getNumElements());
  for (const APInt &v : attr->getValues<APInt>())
    result.push_back(v.getSExtValue());
  return result;
}

bool tosa_to_qnt::isStaticSignlessIntTensor(Type type,
                                            ArrayRef<unsigned> widths) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.hasStaticShape())
    return false;
  auto element = dyn_cast<IntegerType>(tensor.getElementType());
  return element && element.isSignless() &&
         llvm::is_contained(widths, element.getWidth());
}

std::pair<int64_t, int64_t> tosa_to_qnt::getCodeRange(unsigned width,
                                                      bool isUnsigned) {
  if (isUnsigned)
    return {0, (int64_t(1) << width) - 1};
  return {-(int64_t(1) << (width - 1)), (int64_t(1) << (width - 1)) - 1};
}

quant::UniformQuantizedType
tosa_to_qnt::getUnitScaleType(MLIRContext *context, unsigned width,
                              int64_t zeroPoint) {
  auto [min, max] = getCodeRange(width, /*isUnsigned=*/false);
  return quant::UniformQuantizedType::get(
      quant::QuantizationFlags::Signed, IntegerType::get(context, width),
      Float32Type::get(context), 1.0, zeroPoint, min, max);
}

DenseIntElementsAttr tosa_to_qnt::transposeConstant(DenseIntElementsAttr source,
                                                    ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(source.getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = type.getRank();
  SmallVector<int64_t> resultShape(rank);
  for (int64_t i = 0; i < rank; ++i)
    resultShape[i] = shape[perm[i]];
  auto resultType = type.clone(resultShape);
  if (source.isSplat())
    return cast<DenseIntElementsAttr>(source.reshape(resultType));

  SmallVector<int64_t> sourceStrides(rank, 1);
  for (int64_t i = rank - 2; i >= 0; --i)
    sourceStrides[i] = sourceStrides[i + 1] * shape[i + 1];
  SmallVector<APInt> values(source.getValues<APInt>());
  SmallVector<APInt> result;
  result.reserve(values.size());
  SmallVector<int64_t> index(rank, 0);
  for (int64_t n = 0, e = type.getNumElements(); n < e; ++n) {
    int64_t offset = 0;
    for (int64_t i = 0; i < rank; ++i)
      offset += index[i] * sourceStrides[perm[i]];
    result.push_back(values[offset]);
    for (int64_t i = rank - 1; i >= 0; --i) {
      if (++index[i] < resultShape[i])
        break;
      index[i] = 0;
    }
  }
  return DenseIntElementsAttr::get(resultType, result);
}

bool tosa_to_qnt::accumulatorFitsI32(int64_t k, int64_t inputZeroPoint,
                                     int64_t weightZeroPoint,
                                     uint64_t maxBias) {
  auto maxOffset = [](int64_t zeroPoint) -> uint64_t {
    return std::max(std::abs(127 - zeroPoint), std::abs(-128 - zeroPoint));
  };
  uint64_t maxW = maxOffset(weightZeroPoint);
  constexpr uint64_t kMax = std::numeric_limits<int32_t>::max();
  for (uint64_t maxX : {maxOffset(inputZeroPoint),
                        static_cast<uint64_t>(std::abs(inputZeroPoint))}) {
    bool overflow = false;
    uint64_t bound = llvm::SaturatingAdd(
        llvm::SaturatingMultiply(
            llvm::SaturatingMultiply(static_cast<uint64_t>(k), maxX, &overflow),
            maxW, &overflow),
        maxBias, &overflow);
    if (overflow || bound > kMax)
      return false;
  }
  return true;
}

Value tosa_to_qnt::createIntRequantize(OpBuilder &builder, Location loc,
                                       Type resultType, Value input,
                                       const RequantizeParams &params) {
  OperationState state(loc, IntRequantizeOp::getOperationName());
  OperationName name = state.name;
  state.addOperands(input);
  state.addTypes(resultType);
  SmallVector<float> floatMultipliers(params.multipliers.size(), 1.0f);
  state.addAttribute(IntRequantizeOp::getInputZeroPointsAttrName(name),
                     builder.getDenseI32ArrayAttr(params.inputZeroPoints));
  state.addAttribute(IntRequantizeOp::getMultipliersAttrName(name),
                     builder.getDenseI32ArrayAttr(params.multipliers));
  state.addAttribute(IntRequantizeOp::getShiftsAttrName(name),
                     builder.getDenseI32ArrayAttr(params.shifts));
  state.addAttribute(IntRequantizeOp::getFloatMultipliersAttrName(name),
                     builder.getDenseF32ArrayAttr(floatMultipliers));
  state.addAttribute(IntRequantizeOp::getOutputZeroPointsAttrName(name),
                     builder.getDenseI32ArrayAttr(params.outputZeroPoints));
  state.addAttribute(IntRequantizeOp::getMinAttrName(name),
                     builder.getI32IntegerAttr(params.min));
  state.addAttribute(IntRequantizeOp::getMaxAttrName(name),
                     builder.getI32IntegerAttr(params.max));
  state.addAttribute(IntRequantizeOp::getRoundingAttrName(name),
                     getRoundingAttr(builder, params.rounding));
  state.addAttribute(IntRequantizeOp::getAxisAttrName(name),
                     builder.getI64IntegerAttr(params.axis));
  if (params.inputUnsigned)
    state.addAttribute(IntRequantizeOp::getInputUnsignedAttrName(name),
                       builder.getUnitAttr());
  if (params.outputUnsigned)
    state.addAttribute(IntRequantizeOp::getOutputUnsignedAttrName(name),
                       builder.getUnitAttr());
  return builder.create(state)->getResult(0);
}

RequantizeParams tosa_to_qnt::getIdentityParams(int64_t inputZeroPoint,
                                                int64_t outputZeroPoint,
                                                int64_t min, int64_t max) {
  RequantizeParams params;
  params.inputZeroPoints = {static_cast<int32_t>(inputZeroPoint)};
  // (x * 2^30 + 2^29) >> 30 == x for every int32 x.
  params.multipliers = {int32_t(1) << 30};
  params.shifts = {-1};
  params.outputZeroPoints = {static_cast<int32_t>(outputZeroPoint)};
  params.min = min;
  params.max = max;
  params.rounding = quantopt::ref::RoundingMode::Single;
  return params;
}
