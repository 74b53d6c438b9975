//===- FusedRequantize.cpp - requantize in a kernel's epilogue ------------===//

#include "FusedRequantize.h"

#include "../QntToLinalg/FixedPointBuilder.h"
#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::x86vnni;
using RefRounding = quantopt::ref::RoundingMode;

namespace {

template <typename OpTy>
Value fold(OpBuilder &b, Location loc, Value l, Value r) {
  return b.createOrFold<OpTy>(loc, l, r);
}

} // namespace

std::optional<FusedRequantize> FusedRequantize::plan(IntRequantizeOp op,
                                                     int64_t channels) {
  std::optional<EpiloguePlan> p = EpiloguePlan::get(op, channels);
  if (!p)
    return std::nullopt;
  FusedRequantize f(*p);
  if (llvm::all_equal(op.getShifts()))
    f.uniformShift = op.getShifts()[0];
  f.minShift = *llvm::min_element(op.getShifts());
  return f;
}

void FusedRequantize::materialize(OpBuilder &b, Location loc,
                                  int64_t tableSize) {
  materializeParams(b, loc, tableSize);
  if (mode != RefRounding::Double && mode != RefRounding::Single)
    return;
  // lo - z and hi - z for "double" and "single" (the even/odd form's clamp).
  if (!materializeBoundsMinusZeroPoint(b, loc, tableSize))
    return;
  // Differing shifts take variable 64-bit shifts, whose odd lanes need
  // 31 + s >= 32.
  if (minShift < (mode == RefRounding::Double || !uniformShift ? 1 : 0))
    return;
  evenOdd = true;
  if (!uniformShift) {
    SmallVector<int32_t> totals, units;
    for (int32_t s : op.getShifts()) {
      totals.push_back(31 + s);
      uint32_t unit = uint32_t(1) << s;
      units.push_back(int32_t(mode == RefRounding::Double ? unit - 1 : unit));
    }
    totalShift = makeChannelParam(b, loc, ArrayRef<int32_t>(totals), tableSize);
    addendUnits = makeChannelParam(b, loc, ArrayRef<int32_t>(units), tableSize);
  }
  // With a shift >= 1, |q| <= 2^30 (|x * M| < 2^62 over 2^32), so q + z
  // fits i32 for any zero point of a 16-bit code. Then clamping q + z to
  // the storage range and truncating is the signed (unsigned) saturating
  // narrowing x86 has as one instruction (vpmovsdb / vpmovusdb, ...).
  unsigned width = storage.getIntOrFloatBitWidth();
  bool isUnsigned = op.getOutputUnsigned();
  int64_t typeMin = isUnsigned ? 0 : -(int64_t(1) << (width - 1));
  int64_t typeMax =
      isUnsigned ? (int64_t(1) << width) - 1 : (int64_t(1) << (width - 1)) - 1;
  // q + z from the 64-bit sum when it stays below 2^63 (Planning.h).
  if (uniformShift && zpOut.splat && *uniformShift >= 1) {
    auto z = static_cast<int32_t>(cast<IntegerAttr>(zpOut.splat).getInt());
    if (quantopt::x86vnni::planOneSumRescale(mode == RefRounding::Double,
                                             *uniformShift, z))
      foldedZeroPoint = z;
  }
  saturatingNarrow =
      minShift >= 1 && width <= 16 && min == typeMin && max == typeMax &&
      llvm::all_of(op.getOutputZeroPoints(),
                   [](int32_t z) { return std::abs(int64_t(z)) <= 65536; });
}

Value FusedRequantize::param(OpBuilder &b, Location loc, const ChannelParam &p,
                             VectorType type, Value c0) const {
  if (p.table)
    return vector::TransferReadOp::create(b, loc, type, p.table, ValueRange{c0},
                                          std::nullopt, ArrayRef<bool>{true});
  return arith::ConstantOp::create(b, loc,
                                   DenseElementsAttr::get(type, p.splat));
}

Value FusedRequantize::rescaleEvenOdd(OpBuilder &b, Location loc, Value x,
                                      Value multiplier, int64_t zeroPoint,
                                      Value c0) const {
  // The reference rescale of x by M = multiplier * 2^-31 * 2^-s, with one
  // rounding shift of a 64-bit sum (p = x * multiplier, exact):
  //
  // "single": floor((p + 2^(30 + s)) / 2^(31 + s)), its definition.
  //
  // "double", s >= 1: high = floor((p + 2^30) / 2^31) (the rounding high
  // multiply; the product INT32_MIN * INT32_MIN that saturates it needs a
  // negative multiplier, which the verifier rejects), then
  // roundingDivideByPOT(high, s) = floor(high / 2^s) + [r >= 2^(s-1) + n]
  // with r = high mod 2^s and n = [high < 0], i.e.
  // floor((high + 2^(s-1) - n) / 2^s) (0 <= 2^(s-1) - n < 2^s). n may be
  // taken as [x < 0]: multiplier >= 0, so x >= 0 gives high >= 0, and
  // x < 0 gives high <= 0, where high = 0 rounds to 0 with either n. As
  // floor(floor(y / a) / b) = floor(y / (a b)) and 2^(s-1) - n is an
  // integer:
  //   q = floor((p + 2^30 + (2^(s-1) - n) 2^31) / 2^(31 + s))
  //     = (p + (2^30 + 2^(30+s) - 2^31) + (~x & 2^31)) >> (31 + s),
  // (1 - n) 2^31 being bit 31 of ~x. |p| < 2^62 and the addend is below
  // 2^61 + 2^31, so nothing wraps, and |q| < 2^31.
  //
  // With s >= 1, q + z = floor((sum + z 2^(31 + s)) / 2^(31 + s)): a
  // folded output zero point z is one more constant in the addend.
  //
  // Each 64-bit lane of x (and of the multiplier) holds an even element in
  // its low half and an odd one in its high half. The even products take
  // the sign-extended low halves (x86: vpmuldq reads them directly), the
  // odd ones a copy of x with each odd element duplicated into the low
  // half (a shuffle, which leaves the vector shift units to vpdpbusd). q of
  // an even lane is the low half of its shifted sum; an odd lane's sum is
  // shifted by 32 less (or left by 1 when 31 + s = 31), which leaves q in
  // the high half, and one blend joins the two.
  auto narrowType = cast<VectorType>(x.getType());
  int64_t n = narrowType.getDimSize(0);
  auto wideType = VectorType::get({n / 2}, b.getI64Type());
  auto wide = [&](int64_t v) -> Value {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(wideType, b.getI64IntegerAttr(v)));
  };
  auto shrs = [&](Value l, Value r) {
    return fold<arith::ShRSIOp>(b, loc, l, r);
  };
  auto shl = [&](Value l, Value r) {
    return fold<arith::ShLIOp>(b, loc, l, r);
  };
  auto mul = [&](Value l, Value r) {
    return fold<arith::MulIOp>(b, loc, l, r);
  };
  auto add = [&](Value l, Value r) {
    return fold<arith::AddIOp>(b, loc, l, r);
  };
  auto andi = [&](Value l, Value r) {
    return fold<arith::AndIOp>(b, loc, l, r);
  };
  auto xori = [&](Value l, Value r) {
    return fold<arith::XOrIOp>(b, loc, l, r);
  };
  Value c32 = wide(32);
  Value xl = vector::BitCastOp::create(b, loc, wideType, x);
  Value ml = vector::BitCastOp::create(b, loc, wideType, multiplier);
  auto low = [&](Value v) { return shrs(shl(v, c32), c32); };
  SmallVector<int64_t> oddMask;
  for (int64_t i = 0; i < n; ++i)
    oddMask.push_back(i | 1);
  auto oddLow = [&](Value v) -> Value {
    return vector::BitCastOp::create(
        b, loc, wideType, vector::ShuffleOp::create(b, loc, v, v, oddMask));
  };
  Value xOdd = oddLow(x);
  Value even = mul(low(xl), low(ml));
  Value odd = mul(low(xOdd), low(oddLow(multiplier)));
  if (mode == RefRounding::Double) {
    // Bit 31 of ~x: bit 31 of the lane for the even element, of the
    // duplicated lane for the odd one (x86: vpandnq).
    Value bit31 = wide(int64_t(1) << 31), ones = wide(-1);
    even = add(even, andi(xori(xl, ones), bit31));
    odd = add(odd, andi(xori(xOdd, ones), bit31));
  }
  if (uniformShift) {
    // The addend and shift of the scalar form, which the unit tests check
    // against the reference (X86VnniPlanningTest).
    std::optional<quantopt::x86vnni::OneSumRescale> plan =
        quantopt::x86vnni::planOneSumRescale(mode == RefRounding::Double,
                                             *uniformShift, zeroPoint);
    assert(plan && "materialize checked the form");
    int64_t addend = plan->addend, total = plan->shift;
    even = shrs(add(even, wide(addend)), wide(total));
    odd = add(odd, wide(addend));
    if (total == 31)
      odd = shl(odd, wide(1));
    else if (total > 32)
      odd = shrs(odd, wide(total - 32));
  } else {
    // The same per channel (every s >= 1): the even lanes take the low
    // halves of the tables' 64-bit lanes, the odd ones the high halves, as
    // variable shifts (x86: vpsravq).
    auto shru = [&](Value l, Value r) {
      return fold<arith::ShRUIOp>(b, loc, l, r);
    };
    auto sub = [&](Value l, Value r) {
      return fold<arith::SubIOp>(b, loc, l, r);
    };
    VectorType i32s = narrowType;
    Value totals = vector::BitCastOp::create(
        b, loc, wideType, param(b, loc, totalShift, i32s, c0));
    Value units = vector::BitCastOp::create(
        b, loc, wideType, param(b, loc, addendUnits, i32s, c0));
    Value lowHalf = wide(0xffffffffLL), c30 = wide(30);
    even = add(even, shl(andi(units, lowHalf), c30));
    odd = add(odd, shl(shru(units, c32), c30));
    even = shrs(even, andi(totals, lowHalf));
    odd = shrs(odd, sub(shru(totals, c32), c32));
  }
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < n; ++i)
    mask.push_back(i % 2 == 0 ? i : n + i);
  return vector::ShuffleOp::create(
      b, loc, vector::BitCastOp::create(b, loc, narrowType, even),
      vector::BitCastOp::create(b, loc, narrowType, odd), mask);
}

Value FusedRequantize::apply(OpBuilder &b, Location loc, Value acc,
                             Value c0) const {
  auto accType = cast<VectorType>(acc.getType());
  ArrayRef<int64_t> shape = accType.getShape();
  auto read = [&](const ChannelParam &p, VectorType type) {
    return param(b, loc, p, type, c0);
  };
  FixedPointBuilder fp(b, loc, shape);
  Value result = subtractInputZeroPoint(b, loc, fp, acc, read);
  Value zp = read(zpOut, accType);
  if (evenOdd && shape.size() == 1 && shape[0] % 2 == 0) {
    Value m = read(multiplier, accType);
    if (foldedZeroPoint) {
      // clamp(q + z, min, max), q + z from the 64-bit sum.
      result = arith::MinSIOp::create(
          b, loc,
          arith::MaxSIOp::create(
              b, loc, rescaleEvenOdd(b, loc, result, m, *foldedZeroPoint, c0),
              fp.i32Const(min)),
          fp.i32Const(max));
      return narrowToStorage(b, loc, result);
    }
    Value q = rescaleEvenOdd(b, loc, result, m, 0, c0);
    if (saturatingNarrow) {
      // clamp(q + z, min, max) with [min, max] the storage range: the
      // saturating narrowing (plan: q + z cannot wrap).
      result = arith::MinSIOp::create(
          b, loc,
          arith::MaxSIOp::create(b, loc, arith::AddIOp::create(b, loc, q, zp),
                                 fp.i32Const(min)),
          fp.i32Const(max));
    } else {
      // clamp(q + z, lo, hi) = clamp(q, lo - z, hi - z) + z, exactly.
      Value clamped = arith::MinSIOp::create(
          b, loc,
          arith::MaxSIOp::create(b, loc, q, read(loMinusZp, accType)),
          read(hiMinusZp, accType));
      result = arith::AddIOp::create(b, loc, clamped, zp);
    }
    return narrowToStorage(b, loc, result);
  }
  RescaleOperands rescale = readRescaleOperands(b, accType, read);
  return narrowToStorage(
      b, loc, rescaleAndClamp(b, loc, fp, result, rescale, zp, read));
}
