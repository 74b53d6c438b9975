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
                                                   int64_t tableSize) {
  SmallVector<int32_t> lo, hi;
  for (int32_t z : op.getOutputZeroPoints()) {
    int64_t l = int64_t(min) - z, h = int64_t(max) - z;
    if (l < INT32_MIN || l > INT32_MAX || h < INT32_MIN || h > INT32_MAX)
      return false;
    lo.push_back(int32_t(l));
    hi.push_back(int32_t(h));
  }
  loMinusZp = makeChannelParam(b, loc, ArrayRef<int32_t>(lo), tableSize);
  hiMinusZp = makeChannelParam(b, loc, ArrayRef<int32_t>(hi), tableSize);
  return true;
}

Value EpiloguePlan::subtractInputZeroPoint(OpBuilder &b, Location loc,
                                           FixedPointBuilder &fp, Value x,
                                           ParamReader read) const {
  if (!zpIn.table && cast<IntegerAttr>(zpIn.splat).getValue().isZero())
    return x;
  auto type = cast<VectorType>(x.getType());
  VectorType i64s = type.clone(b.getI64Type());
  Value z = read(zpIn, type);
  return fp.saturateToInt32(
      arith::SubIOp::create(b, loc, arith::ExtSIOp::create(b, loc, i64s, x),
                            arith::ExtSIOp::create(b, loc, i64s, z)));
}

RescaleOperands EpiloguePlan::readRescaleOperands(OpBuilder &b,
                                                  VectorType i32Type,
                                                  ParamReader read) const {
  RescaleOperands rescale;
  if (mode == RefRounding::Float) {
    rescale.floatMultiplier =
        read(floatMultiplier, i32Type.clone(b.getF32Type()));
  } else {
    rescale.multiplier = read(multiplier, i32Type);
    rescale.rightShift = read(shift, i32Type);
    // A per-channel table is a run-time read to the builder; its values
    // are known here.
    rescale.rightShiftNonNegative = shiftsNonNegative;
  }
  return rescale;
}

Value EpiloguePlan::rescaleAndClamp(OpBuilder &b, Location loc,
                                    FixedPointBuilder &fp, Value x,
                                    const RescaleOperands &rescale, Value zp,
                                    ParamReader read) const {
  if (mode != RefRounding::Double || (!loMinusZp.table && !loMinusZp.splat))
    return fp.applyRescale(mode, rescale, x, zp, fp.i32Const(min),
                           fp.i32Const(max), exactF32Bounds);
  // applyRescale's "double" steps with its final i64 add and clamp done in
  // i32, with lo - z and hi - z precomputed (they fit i32, checked in
  // materializeBoundsMinusZeroPoint). LLVM narrows the i64 form itself only
  // when it can bound h, i.e. with constant shifts, not with per-channel
  // ones.
  auto type = cast<VectorType>(x.getType());
  Value high = arith::TruncIOp::create(
      b, loc, type,
      fp.multiplyByQuantizedMultiplier(x, rescale.multiplier,
                                       rescale.rightShift, mode,
                                       rescale.rightShiftNonNegative));
  Value clamped = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, high, read(loMinusZp, type)),
      read(hiMinusZp, type));
  return arith::AddIOp::create(b, loc, clamped, zp);
}

Value EpiloguePlan::narrowToStorage(OpBuilder &b, Location loc,
                                    Value codes) const {
  if (storage == b.getI32Type())
    return codes;
  return arith::TruncIOp::create(
      b, loc, cast<VectorType>(codes.getType()).clone(storage), codes);
}
