//===- VectorRequantize.cpp - requantize in a kernel's epilogue -----------===//

#include "VectorRequantize.h"

#include "../QntToLinalg/FixedPointBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qnt;
using RefRounding = quantopt::ref::RoundingMode;

std::optional<VectorRequantize> VectorRequantize::plan(IntRequantizeOp op,
                                                       int64_t channels) {
  std::optional<EpiloguePlan> p = EpiloguePlan::get(op, channels);
  if (!p)
    return std::nullopt;
  return VectorRequantize(*p);
}

std::optional<VectorRequantize>
VectorRequantize::fuseSingleUser(OpBuilder &b, Location loc, Value result,
                                 int64_t channels, int64_t tableSize) {
  IntRequantizeOp requant = soleRequantizeUser(result);
  if (!requant)
    return std::nullopt;
  std::optional<VectorRequantize> fused = plan(requant, channels);
  if (fused)
    fused->materialize(b, loc, tableSize);
  return fused;
}

void VectorRequantize::replaceResult(
    PatternRewriter &rewriter, Operation *op,
    const std::optional<VectorRequantize> &fused, Value value) {
  if (!fused) {
    rewriter.replaceOp(op, value);
    return;
  }
  rewriter.replaceAllUsesWith(fused->getOp().getOutput(), value);
}

void VectorRequantize::materialize(OpBuilder &b, Location loc,
                                   int64_t tableSize) {
  materializeParams(b, loc, tableSize);
  if (mode == RefRounding::Double)
    materializeBoundsMinusZeroPoint(b, loc, tableSize, loMinusZp, hiMinusZp);
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
