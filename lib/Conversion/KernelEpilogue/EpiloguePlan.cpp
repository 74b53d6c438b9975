//===- EpiloguePlan.cpp - what a fused requantize epilogue needs ----------===//

#include "EpiloguePlan.h"

#include "../QntToLinalg/FixedPointBuilder.h"
#include "QuantOpt/Dialect/Qnt/IR/QntEnums.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::qnt;
using RefRounding = quantopt::ref::RoundingMode;

template <typename T>
ChannelParam mlir::qnt::makeChannelParam(OpBuilder &b, Location loc,
                                         ArrayRef<T> values, int64_t tableSize,
                                         bool splatEqualEntries) {
  static_assert(std::is_same_v<T, int32_t> || std::is_same_v<T, float>);
  ChannelParam p;
  if (values.size() == 1 || (splatEqualEntries && llvm::all_equal(values))) {
    if constexpr (std::is_same_v<T, float>)
      p.splat = b.getF32FloatAttr(values[0]);
    else
      p.splat = b.getI32IntegerAttr(values[0]);
    return p;
  }
  Type elt = std::is_same_v<T, float> ? Type(b.getF32Type())
                                      : Type(b.getI32Type());
  SmallVector<T> padded(values);
  padded.resize(tableSize, T(0));
  p.table = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({tableSize}, elt),
                             ArrayRef<T>(padded)));
  return p;
}

template ChannelParam mlir::qnt::makeChannelParam<int32_t>(OpBuilder &,
                                                           Location,
                                                           ArrayRef<int32_t>,
                                                           int64_t, bool);
template ChannelParam mlir::qnt::makeChannelParam<float>(OpBuilder &, Location,
                                                         ArrayRef<float>,
                                                         int64_t, bool);

std::optional<EpiloguePlan> EpiloguePlan::get(IntRequantizeOp op,
                                              int64_t channels) {
  auto inType = cast<RankedTensorType>(op.getInput().getType());
  auto outType = cast<RankedTensorType>(op.getOutput().getType());
  if (!inType.getElementType().isInteger(32) ||
      outType.getElementTypeBitWidth() > 32 || inType.getRank() == 0)
    return std::nullopt;
  auto fits = [&](size_t size) {
    return size == 1 || int64_t(size) == channels;
  };
  bool perChannel =
      op.getInputZeroPoints().size() > 1 || op.getMultipliers().size() > 1 ||
      op.getShifts().size() > 1 || op.getFloatMultipliers().size() > 1 ||
      op.getOutputZeroPoints().size() > 1;
  if (perChannel && int64_t(op.getAxis()) != inType.getRank() - 1)
    return std::nullopt;
  RefRounding mode = toReferenceRounding(op.getRounding());
  if (!fits(op.getInputZeroPoints().size()) ||
      !fits(op.getOutputZeroPoints().size()))
    return std::nullopt;
  if (mode == RefRounding::Float
          ? !fits(op.getFloatMultipliers().size())
          : !fits(op.getMultipliers().size()) || !fits(op.getShifts().size()))
    return std::nullopt;
  EpiloguePlan p;
  p.op = op;
  p.mode = mode;
  p.storage = outType.getElementType();
  p.shiftsNonNegative =
      llvm::all_of(op.getShifts(), [](int32_t s) { return s >= 0; });
  p.min = static_cast<int32_t>(op.getMin());
  p.max = static_cast<int32_t>(op.getMax());
  p.exactF32Bounds = FixedPointBuilder::boundsExactInF32(
      p.min, p.max, op.getOutputZeroPoints());
  return p;
}

IntRequantizeOp EpiloguePlan::soleRequantizeUser(Value result) {
  if (!result.hasOneUse())
    return {};
  return dyn_cast<IntRequantizeOp>(*result.getUsers().begin());
}

IntRequantizeOp EpiloguePlan::singleUser(Value result, int64_t channels) {
  IntRequantizeOp requant = soleRequantizeUser(result);
  if (!requant || !get(requant, channels))
    return {};
  return requant;
}

void EpiloguePlan::materializeParams(OpBuilder &b, Location loc,
                                     int64_t tableSize,
                                     bool splatEqualEntries) {
  auto make = [&](auto values) {
    return makeChannelParam(b, loc, values, tableSize, splatEqualEntries);
  };
  zpIn = make(op.getInputZeroPoints());
  zpOut = make(op.getOutputZeroPoints());
  if (mode == RefRounding::Float) {
    floatMultiplier = make(op.getFloatMultipliers());
  } else {
    multiplier = make(op.getMultipliers());
    shift = make(op.getShifts());
  }
}

bool EpiloguePlan::materializeBoundsMinusZeroPoint(OpBuilder &b, Location loc,
                                                   int64_t tableSize,
                                                   ChannelParam &lo,
                                                   ChannelParam &hi) const {
  IntRequantizeOp requant = op; // op accessors are not const
  SmallVector<int32_t> los, his;
  for (int32_t z : requant.getOutputZeroPoints()) {
    int64_t l = int64_t(min) - z, h = int64_t(max) - z;
    if (l < INT32_MIN || l > INT32_MAX || h < INT32_MIN || h > INT32_MAX)
      return false;
    los.push_back(int32_t(l));
    his.push_back(int32_t(h));
  }
  lo = makeChannelParam(b, loc, ArrayRef<int32_t>(los), tableSize);
  hi = makeChannelParam(b, loc, ArrayRef<int32_t>(his), tableSize);
  return true;
}
