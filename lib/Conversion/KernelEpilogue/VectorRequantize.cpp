//===- VectorRequantize.cpp - requantize in a kernel's epilogue -----------===//

#include "VectorRequantize.h"

#include "../QntToLinalg/FixedPointBuilder.h"
#include "QuantOpt/Dialect/Qnt/IR/QntEnums.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qnt;
using RefRounding = quantopt::ref::RoundingMode;

template <typename T>
VectorRequantize::ChannelParam
VectorRequantize::makeParam(OpBuilder &b, Location loc, ArrayRef<T> values,
                            int64_t tableSize, Type elt) {
  ChannelParam p;
  // Equal entries (e.g. per-channel input zero points, all 0) are a splat,
  // which folds.
  if (llvm::all_equal(values)) {
    if constexpr (std::is_same_v<T, float>)
      p.splat = b.getF32FloatAttr(values[0]);
    else
      p.splat = b.getI32IntegerAttr(values[0]);
    return p;
  }
  SmallVector<T> padded(values);
  padded.resize(tableSize, T(0));
  p.table = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(RankedTensorType::get({tableSize}, elt),
                             ArrayRef<T>(padded)));
  return p;
}

std::optional<VectorRequantize> VectorRequantize::plan(IntRequantizeOp op,
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
  VectorRequantize f;
  f.op = op;
  f.mode = mode;
  f.storage = outType.getElementType();
  f.shiftsNonNegative =
      llvm::all_of(op.getShifts(), [](int32_t s) { return s >= 0; });
  f.min = static_cast<int32_t>(op.getMin());
  f.max = static_cast<int32_t>(op.getMax());
  f.exactF32Bounds = FixedPointBuilder::boundsExactInF32(
      f.min, f.max, op.getOutputZeroPoints());
  return f;
}

IntRequantizeOp VectorRequantize::singleUser(Value result, int64_t channels) {
  if (!result.hasOneUse())
    return {};
  auto requant = dyn_cast<IntRequantizeOp>(*result.getUsers().begin());
  if (!requant || !plan(requant, channels))
    return {};
  return requant;
}

void VectorRequantize::materialize(OpBuilder &b, Location loc,
                                   int64_t tableSize) {
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  zpIn = makeParam(b, loc, op.getInputZeroPoints(), tableSize, i32);
  zpOut = makeParam(b, loc, op.getOutputZeroPoints(), tableSize, i32);
  if (mode == RefRounding::Float) {
    floatMultiplier =
        makeParam(b, loc, op.getFloatMultipliers(), tableSize, f32);
  } else {
    multiplier = makeParam(b, loc, op.getMultipliers(), tableSize, i32);
    shift = makeParam(b, loc, op.getShifts(), tableSize, i32);
  }
  if (mode == RefRounding::Double) {
    SmallVector<int32_t> lo, hi;
    for (int32_t z : op.getOutputZeroPoints()) {
      int64_t l = int64_t(min) - z, h = int64_t(max) - z;
      if (l < INT32_MIN || l > INT32_MAX || h < INT32_MIN || h > INT32_MAX)
        return;
      lo.push_back(int32_t(l));
      hi.push_back(int32_t(h));
    }
    loMinusZp = makeParam(b, loc, ArrayRef<int32_t>(lo), tableSize, i32);
    hiMinusZp = makeParam(b, loc, ArrayRef<int32_t>(hi), tableSize, i32);
  }
}

Value VectorRequantize::param(OpBuilder &b, Location loc,
                              const ChannelParam &p, VectorType type,
                              Value c0, Value mask) const {
  if (!p.table)
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, p.splat));
  Type elt = type.getElementType();
  Value zero = arith::ConstantOp::create(
      b, loc, isa<FloatType>(elt) ? TypedAttr(b.getFloatAttr(elt, 0.0))
                                  : TypedAttr(b.getIntegerAttr(elt, 0)));
  auto identity = AffineMapAttr::get(
      AffineMap::getMinorIdentityMap(1, 1, b.getContext()));
  return vector::TransferReadOp::create(b, loc, type, p.table,
                                        ValueRange{c0}, identity, zero, mask,
                                        b.getBoolArrayAttr({true}));
}

Value VectorRequantize::apply(OpBuilder &b, Location loc, Value acc, Value c0,
                              Value mask) const {
  auto accType = cast<VectorType>(acc.getType());
  auto vec = [&](Type elt) { return accType.clone(elt); };
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  FixedPointBuilder fp(b, loc, accType);
  Value result = acc;
  if (zpIn.table || !cast<IntegerAttr>(zpIn.splat).getValue().isZero()) {
    // acc - z_in saturates, as in the generic lowering.
    Value z = param(b, loc, zpIn, vec(i32), c0, mask);
    result = fp.saturateToInt32(arith::SubIOp::create(
        b, loc, arith::ExtSIOp::create(b, loc, vec(i64), result),
        arith::ExtSIOp::create(b, loc, vec(i64), z)));
  }
  RescaleOperands rescale;
  if (mode == RefRounding::Float) {
    rescale.floatMultiplier =
        param(b, loc, floatMultiplier, vec(b.getF32Type()), c0, mask);
  } else {
    rescale.multiplier = param(b, loc, multiplier, vec(i32), c0, mask);
    rescale.rightShift = param(b, loc, shift, vec(i32), c0, mask);
    // A per-channel table is a run-time read to the builder; its values
    // are known here.
    rescale.rightShiftNonNegative = shiftsNonNegative;
  }
  Value zp = param(b, loc, zpOut, vec(i32), c0, mask);
  if (loMinusZp.table || loMinusZp.splat) {
    // applyRescale's "double" steps with its final i64 add and clamp done
    // in i32: clamp(h + z, lo, hi) = clamp(h, lo - z, hi - z) + z, exactly,
    // with lo - z and hi - z precomputed (they fit i32, checked in
    // materialize).
    Value high = arith::TruncIOp::create(
        b, loc, vec(i32),
        fp.multiplyByQuantizedMultiplier(result, rescale.multiplier,
                                         rescale.rightShift, mode,
                                         rescale.rightShiftNonNegative));
    Value clamped = arith::MinSIOp::create(
        b, loc,
        arith::MaxSIOp::create(b, loc, high,
                               param(b, loc, loMinusZp, vec(i32), c0, mask)),
        param(b, loc, hiMinusZp, vec(i32), c0, mask));
    result = arith::AddIOp::create(b, loc, clamped, zp);
  } else {
    result = fp.applyRescale(mode, rescale, result, zp, fp.i32Const(min),
                             fp.i32Const(max), exactF32Bounds);
  }
  if (storage != i32)
    result = arith::TruncIOp::create(b, loc, vec(storage), result);
  return result;
}
