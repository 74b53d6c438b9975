//===- FixedPointBuilder.cpp - fixed-point rounding as arith --------------===//
//
// Each method mirrors the function of the same name in
// QuantOpt/Reference/FixedPoint.h; comments only explain where the IR form
// differs from the C++ one.
//
//===----------------------------------------------------------------------===//

#include "FixedPointBuilder.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"

#include <cstdint>
#include <cstdlib>
#include <limits>

using namespace mlir;
using namespace mlir::qnt;
using quantopt::ref::RoundingMode;

static constexpr int64_t kInt32Min = std::numeric_limits<int32_t>::min();
static constexpr int64_t kInt32Max = std::numeric_limits<int32_t>::max();

/// Whether `v` is a constant (scalar or elements) without INT32_MIN: a
/// high multiply by it cannot hit INT32_MIN * INT32_MIN, the one product
/// the reference saturates.
static bool isConstantWithoutInt32Min(Value v) {
  Attribute value;
  if (!matchPattern(v, m_Constant(&value)))
    return false;
  if (auto scalar = dyn_cast<IntegerAttr>(value))
    return !scalar.getValue().isMinSignedValue();
  auto elements = dyn_cast<DenseIntElementsAttr>(value);
  return elements &&
         llvm::none_of(elements.getValues<APInt>(),
                       [](const APInt &e) { return e.isMinSignedValue(); });
}

Type FixedPointBuilder::typeOf(Type scalar) const {
  if (shape.empty())
    return scalar;
  return VectorType::get(shape, scalar, scalableDims);
}

Value FixedPointBuilder::constant(Type scalar, TypedAttr value) {
  if (shape.empty())
    return arith::ConstantOp::create(b, value);
  return arith::ConstantOp::create(
      b, DenseElementsAttr::get(cast<ShapedType>(typeOf(scalar)), value));
}

Value FixedPointBuilder::i32Const(int64_t value) {
  return constant(b.getI32Type(), b.getI32IntegerAttr(value));
}

Value FixedPointBuilder::i64Const(int64_t value) {
  return constant(b.getI64Type(), b.getI64IntegerAttr(value));
}

Value FixedPointBuilder::f32Const(float value) {
  return constant(b.getF32Type(), b.getF32FloatAttr(value));
}

/// Clamps the signed integer v to [lo, hi] (same type).
Value FixedPointBuilder::clampInt(Value v, Value lo, Value hi) {
  return fold<arith::MinSIOp>(fold<arith::MaxSIOp>(v, lo), hi);
}

Value FixedPointBuilder::saturateToInt32(Value v) {
  Value clamped = clampInt(v, i64Const(kInt32Min), i64Const(kInt32Max));
  return fold<arith::TruncIOp>(typeOf(b.getI32Type()), clamped);
}

Value FixedPointBuilder::saturatingRoundingDoublingHighMul(Value a, Value bv,
                                                           bool referenceForm) {
  // (A scalable vector has no fixed lane pairs to shuffle.)
  if (shape.size() == 1 && shape[0] % 2 == 0 &&
      !llvm::is_contained(scalableDims, true))
    return highMulEvenOdd(a, bv);
  Type i64 = typeOf(b.getI64Type());
  Value ab = fold<arith::MulIOp>(fold<arith::ExtSIOp>(i64, a),
                                 fold<arith::ExtSIOp>(i64, bv));
  // gemmlowp's nudge (+2^30, or 1 - 2^30 for a negative product) and
  // truncating division by 2^31 are one floor shift of ab + 2^30, the same
  // bits: for ab < 0 the truncation is a ceiling, and ceil((ab + 1 - 2^30) /
  // 2^31) = floor((ab + 2^30) / 2^31). Half the instructions of the
  // reference's form, and no 64-bit compare or select, which AVX2 lacks
  // (qnt.add on 1x56x56x64 i8: 0.367 -> 0.162 ms on Zen 3; a 1x56x56x64
  // i32 -> i8 requantize 0.126 -> 0.070 ms). But where `a` is a value LLVM
  // can bound, such as a left-shifted small code, it folds the shift into
  // the multiplier and the floor shift by 31 into one by 32 (doubling the
  // multiplier): the constant leaves int32 and the product becomes a
  // 64 x 64 multiply (vpmullq, or scalar multiplies on AArch64) instead of
  // vpmuldq / smull. The reference's form blocks that fold.
  Value quotient;
  if (referenceForm) {
    Value nonNegative =
        fold<arith::CmpIOp>(arith::CmpIPredicate::sge, ab, i64Const(0));
    Value nudge =
        fold<arith::SelectOp>(nonNegative, i64Const(int64_t(1) << 30),
                              i64Const(1 - (int64_t(1) << 30)));
    // divsi truncates toward zero, as the C++ division does.
    quotient = fold<arith::DivSIOp>(fold<arith::AddIOp>(ab, nudge),
                                    i64Const(int64_t(1) << 31));
  } else {
    quotient = fold<arith::ShRSIOp>(
        fold<arith::AddIOp>(ab, i64Const(int64_t(1) << 30)), i64Const(31));
  }
  // The only quotient outside int32 is 2^31, from INT32_MIN * INT32_MIN: the
  // reference's saturation to INT32_MAX, without comparing the operands. A
  // constant operand without INT32_MIN (a multiplier) needs none.
  if (!isConstantWithoutInt32Min(a) && !isConstantWithoutInt32Min(bv))
    quotient = fold<arith::MinSIOp>(quotient, i64Const(kInt32Max));
  return fold<arith::TruncIOp>(typeOf(b.getI32Type()), quotient);
}

Value FixedPointBuilder::highMulEvenOdd(Value a, Value bv) {
  // The quotient floor((ab + 2^30) / 2^31) of the general form above, with
  // the products formed in place: each 64-bit lane of a and b holds an even
  // 32-bit element in its low half and an odd one in its high half, and a
  // 32 x 32 -> 64 multiply of sign-extended halves (x86 vpmuldq) reads the
  // low halves. No element is widened into a vector twice as long and
  // narrowed back. The low 32 bits of the quotient are bits 31..62 of
  // ab + 2^30: a right shift by 31 puts them in the low half of a lane, a
  // left shift by 1 in the high half, and a shuffle interleaves the two.
  int64_t n = shape[0];
  auto wideType = VectorType::get({n / 2}, b.getI64Type());
  auto narrowType = VectorType::get({n}, b.getI32Type());
  auto wideConst = [&](int64_t v) {
    return arith::ConstantOp::create(
        b, DenseElementsAttr::get(wideType, b.getI64IntegerAttr(v)));
  };
  Value c32 = wideConst(32);
  auto even = [&](Value v) {
    Value w = vector::BitCastOp::create(b, wideType, v);
    return fold<arith::ShRSIOp>(fold<arith::ShLIOp>(w, c32), c32);
  };
  auto odd = [&](Value v) {
    return fold<arith::ShRSIOp>(vector::BitCastOp::create(b, wideType, v),
                                c32);
  };
  Value nudge = wideConst(int64_t(1) << 30);
  Value evens = fold<arith::ShRUIOp>(
      fold<arith::AddIOp>(fold<arith::MulIOp>(even(a), even(bv)), nudge),
      wideConst(31));
  Value odds = fold<arith::ShLIOp>(
      fold<arith::AddIOp>(fold<arith::MulIOp>(odd(a), odd(bv)), nudge),
      wideConst(1));
  SmallVector<int64_t> mask;
  for (int64_t i = 0; i < n; ++i)
    mask.push_back(i % 2 == 0 ? i : n + i);
  Value result = vector::ShuffleOp::create(
      b, vector::BitCastOp::create(b, narrowType, evens),
      vector::BitCastOp::create(b, narrowType, odds), mask);
  // The one quotient outside int32, 2^31 from INT32_MIN * INT32_MIN, wraps
  // to INT32_MIN, which no other product yields (the least is
  // INT32_MIN * INT32_MAX, quotient -2^31 + 1): the reference's saturation
  // to INT32_MAX. A constant b without INT32_MIN needs no check.
  if (isConstantWithoutInt32Min(bv))
    return result;
  Value isMin =
      fold<arith::CmpIOp>(arith::CmpIPredicate::eq, result, i32Const(kInt32Min));
  return fold<arith::SelectOp>(isMin, i32Const(kInt32Max), result);
}

Value FixedPointBuilder::roundingDivideByPOT(Value x, Value exponent) {
  Type i32 = typeOf(b.getI32Type());
  exponent = clampInt(exponent, i32Const(0), i32Const(31));
  // i32 arithmetic wraps like the reference's uint32 mask: 1 << 31 minus 1
  // is 0x7fffffff.
  Value mask = fold<arith::SubIOp>(fold<arith::ShLIOp>(i32Const(1), exponent),
                                   i32Const(1));
  Value remainder = fold<arith::AndIOp>(x, mask);
  Value negative =
      fold<arith::CmpIOp>(arith::CmpIPredicate::slt, x, i32Const(0));
  Value threshold = fold<arith::AddIOp>(fold<arith::ShRUIOp>(mask, i32Const(1)),
                                        fold<arith::ExtUIOp>(i32, negative));
  Value quotient = fold<arith::ShRSIOp>(x, exponent);
  Value roundUp =
      fold<arith::CmpIOp>(arith::CmpIPredicate::ugt, remainder, threshold);
  return fold<arith::AddIOp>(quotient, fold<arith::ExtUIOp>(i32, roundUp));
}

Value FixedPointBuilder::roundingShiftRight(Value p, Value shift,
                                            RoundingMode mode) {
  Value one = i64Const(1);
  Value half = fold<arith::ShLIOp>(one, fold<arith::SubIOp>(shift, one));
  switch (mode) {
  case RoundingMode::Single:
    return fold<arith::ShRSIOp>(fold<arith::AddIOp>(p, half), shift);
  case RoundingMode::Away: {
    Value nonNegative =
        fold<arith::CmpIOp>(arith::CmpIPredicate::sge, p, i64Const(0));
    Value bias = fold<arith::SelectOp>(nonNegative, half,
                                       fold<arith::SubIOp>(half, one));
    return fold<arith::ShRSIOp>(fold<arith::AddIOp>(p, bias), shift);
  }
  case RoundingMode::Double:
  case RoundingMode::HalfEven:
  case RoundingMode::Float:
    break;
  }
  Value floorQuotient = fold<arith::ShRSIOp>(p, shift);
  Value remainder =
      fold<arith::SubIOp>(p, fold<arith::ShLIOp>(floorQuotient, shift));
  Value above = fold<arith::CmpIOp>(arith::CmpIPredicate::sgt, remainder, half);
  Value tie = fold<arith::CmpIOp>(arith::CmpIPredicate::eq, remainder, half);
  Value odd = fold<arith::TruncIOp>(typeOf(b.getI1Type()), floorQuotient);
  Value roundUp = fold<arith::OrIOp>(above, fold<arith::AndIOp>(tie, odd));
  return fold<arith::AddIOp>(
      floorQuotient, fold<arith::ExtUIOp>(typeOf(b.getI64Type()), roundUp));
}

Value FixedPointBuilder::multiplyByQuantizedMultiplier(Value x,
                                                       Value multiplier,
                                                       Value rightShift,
                                                       RoundingMode mode,
                                                       bool rightShiftNonNegative) {
  Type i64 = typeOf(b.getI64Type());
  if (mode == RoundingMode::Double) {
    // Saturating left shift for M >= 1. Clamping the amount at 31 matches
    // the reference's "shifts of 31 or more saturate": |x| * 2^31 already
    // leaves int32 for any nonzero x, and fits int64.
    Value leftShift = clampInt(fold<arith::SubIOp>(i32Const(0), rightShift),
                               i32Const(0), i32Const(31));
    Value shifted = x;
    bool mayShiftLeft =
        !rightShiftNonNegative && !matchPattern(leftShift, m_Zero());
    if (mayShiftLeft)
      shifted = saturateToInt32(fold<arith::ShLIOp>(
          fold<arith::ExtSIOp>(i64, x), fold<arith::ExtSIOp>(i64, leftShift)));
    Value high =
        saturatingRoundingDoublingHighMul(shifted, multiplier,
                                          /*referenceForm=*/mayShiftLeft);
    // roundingDivideByPOT by 0 is the identity, so a non-positive shift
    // needs no branch.
    Value exponent = fold<arith::MaxSIOp>(rightShift, i32Const(0));
    if (!matchPattern(exponent, m_Zero()))
      high = roundingDivideByPOT(high, exponent);
    return fold<arith::ExtSIOp>(i64, high);
  }
  // Single / Away / HalfEven: one exact product, one rounding shift by
  // 31 + rightShift, which is in [1, 62] here.
  Value product = fold<arith::MulIOp>(fold<arith::ExtSIOp>(i64, x),
                                      fold<arith::ExtSIOp>(i64, multiplier));
  Value totalShift =
      fold<arith::AddIOp>(i64Const(31), fold<arith::ExtSIOp>(i64, rightShift));
  return roundingShiftRight(product, totalShift, mode);
}

bool FixedPointBuilder::boundsExactInF32(int32_t lo, int32_t hi,
                                         ArrayRef<int32_t> zeroPoints) {
  constexpr int64_t kExact = int64_t(1) << 24;
  return llvm::all_of(zeroPoints, [&](int32_t z) {
    return std::abs(int64_t(lo) - z) <= kExact &&
           std::abs(int64_t(hi) - z) <= kExact;
  });
}

Value FixedPointBuilder::roundAddZeroPointClamp(Value v, Value zeroPoint,
                                                Value lo, Value hi,
                                                bool exactF32Bounds) {
  Type i32 = typeOf(b.getI32Type()), i64 = typeOf(b.getI64Type());
  // NaN counts as real 0, i.e. the zero point.
  Value isNaN = fold<arith::CmpFOp>(arith::CmpFPredicate::UNO, v, v);
  Value rounded =
      fold<arith::SelectOp>(isNaN, f32Const(0.0f), fold<math::RoundEvenOp>(v));
  // Clamp to [lo - z, hi - z] before converting, so that infinities and huge
  // values never reach fptosi; the bounds are integers, so clamping after
  // rounding equals the reference's clamp of the rounded sum. A bound f32
  // cannot hold could round inward and clamp too early: then clamp in f64,
  // which holds every int32 difference, as the reference does.
  if (exactF32Bounds) {
    Type f32 = typeOf(b.getF32Type());
    Value loF = fold<arith::SIToFPOp>(f32, fold<arith::SubIOp>(lo, zeroPoint));
    Value hiF = fold<arith::SIToFPOp>(f32, fold<arith::SubIOp>(hi, zeroPoint));
    rounded = fold<arith::MinNumFOp>(fold<arith::MaxNumFOp>(rounded, loF), hiF);
    return fold<arith::AddIOp>(fold<arith::FPToSIOp>(i32, rounded), zeroPoint);
  }
  Type f64 = typeOf(b.getF64Type());
  Value zp64 = fold<arith::ExtSIOp>(i64, zeroPoint);
  Value loD = fold<arith::SIToFPOp>(
      f64, fold<arith::SubIOp>(fold<arith::ExtSIOp>(i64, lo), zp64));
  Value hiD = fold<arith::SIToFPOp>(
      f64, fold<arith::SubIOp>(fold<arith::ExtSIOp>(i64, hi), zp64));
  Value wide = fold<arith::ExtFOp>(f64, rounded);
  wide = fold<arith::MinNumFOp>(fold<arith::MaxNumFOp>(wide, loD), hiD);
  Value result = fold<arith::AddIOp>(fold<arith::FPToSIOp>(i64, wide), zp64);
  return fold<arith::TruncIOp>(i32, result);
}

Value FixedPointBuilder::applyRescale(RoundingMode mode,
                                      const RescaleOperands &rescale, Value x,
                                      Value zpOut, Value lo, Value hi,
                                      bool exactF32Bounds) {
  Type i64 = typeOf(b.getI64Type());
  if (mode == RoundingMode::Float) {
    Value product =
        fold<arith::MulFOp>(fold<arith::SIToFPOp>(typeOf(b.getF32Type()), x),
                            rescale.floatMultiplier);
    return roundAddZeroPointClamp(product, zpOut, lo, hi, exactF32Bounds);
  }
  Value scaled =
      multiplyByQuantizedMultiplier(x, rescale.multiplier, rescale.rightShift,
                                    mode, rescale.rightShiftNonNegative);
  // The reference first clamps `scaled` to +-2^40; with rightShift in
  // [-30, 31], |scaled| < 2^61 and adding an int32 cannot overflow, so the
  // final clamp alone gives the same result.
  Value result = fold<arith::AddIOp>(scaled, fold<arith::ExtSIOp>(i64, zpOut));
  result = clampInt(result, fold<arith::ExtSIOp>(i64, lo),
                    fold<arith::ExtSIOp>(i64, hi));
  return fold<arith::TruncIOp>(typeOf(b.getI32Type()), result);
}

Value FixedPointBuilder::quantizeValue(Value x, Value scale, Value zeroPoint,
                                       Value qmin, Value qmax,
                                       bool exactF32Bounds) {
  // A true division in f32, not a multiply by the reciprocal, which rounds
  // differently.
  return roundAddZeroPointClamp(fold<arith::DivFOp>(x, scale), zeroPoint, qmin,
                                qmax, exactF32Bounds);
}

Value FixedPointBuilder::dequantizeValue(Value q, bool isUnsigned, Value scale,
                                         Value zeroPoint) {
  Type f32 = typeOf(b.getF32Type());
  Value code = isUnsigned ? fold<arith::UIToFPOp>(f32, q)
                          : fold<arith::SIToFPOp>(f32, q);
  Value centered =
      fold<arith::SubFOp>(code, fold<arith::SIToFPOp>(f32, zeroPoint));
  return fold<arith::MulFOp>(centered, scale);
}
