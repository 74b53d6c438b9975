//===- FixedPointTest.cpp - Hand-derived tests of FixedPoint.h ------------===//
//
// Every expected value below comes from the contract's worked examples or
// from a derivation written next to it; none is produced by the code under
// test. Notation: Q31 significand M0, right shift n, M = M0 * 2^-31 * 2^-n.
// SRDHM = saturatingRoundingDoublingHighMul = round(a * b / 2^31), ties
// toward +inf; RDBP = roundingDivideByPOT, ties away from zero.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/FixedPoint.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <limits>

using namespace quantopt::ref;

namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();
constexpr int32_t kPow30 = 1 << 30;

constexpr RoundingMode kAllModes[] = {
    RoundingMode::Double, RoundingMode::Single, RoundingMode::Away,
    RoundingMode::HalfEven, RoundingMode::Float};

QuantizedMultiplier qm(int32_t multiplier, int32_t rightShift) {
  return {multiplier, rightShift};
}

::testing::AssertionResult sameQm(QuantizedMultiplier actual,
                                  QuantizedMultiplier expected) {
  if (actual == expected)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "got {" << actual.multiplier << ", " << actual.rightShift
         << "}, expected {" << expected.multiplier << ", "
         << expected.rightShift << "}";
}

//===----------------------------------------------------------------------===//
// Rounding mode names
//===----------------------------------------------------------------------===//

TEST(RoundingModeTest, ParseAndStringifyRoundTrip) {
  for (RoundingMode mode : kAllModes) {
    std::optional<RoundingMode> parsed =
        parseRoundingMode(stringifyRoundingMode(mode));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, mode);
  }
  EXPECT_EQ(stringifyRoundingMode(RoundingMode::Double), "double");
  EXPECT_EQ(stringifyRoundingMode(RoundingMode::Single), "single");
  EXPECT_EQ(stringifyRoundingMode(RoundingMode::Away), "away");
  EXPECT_EQ(stringifyRoundingMode(RoundingMode::HalfEven), "half_even");
  EXPECT_EQ(stringifyRoundingMode(RoundingMode::Float), "float");
}

TEST(RoundingModeTest, UnknownNamesAreRejected) {
  EXPECT_FALSE(parseRoundingMode("").has_value());
  EXPECT_FALSE(parseRoundingMode("Double").has_value());
  EXPECT_FALSE(parseRoundingMode("half-even").has_value());
  EXPECT_FALSE(parseRoundingMode("nearest").has_value());
  EXPECT_FALSE(parseRoundingMode("double ").has_value());
}

//===----------------------------------------------------------------------===//
// quantizeMultiplier
//===----------------------------------------------------------------------===//

TEST(QuantizeMultiplierTest, LectureSeeds) {
  // 0.0072 = 0.9216 * 2^-7; 0.9216 * 2^31 = 1979120929.5... -> 1979120930.
  EXPECT_TRUE(sameQm(quantizeMultiplier(0.0072), qm(1979120930, 7)));
  // 0.3 = 0.6 * 2^-1; 0.6 * 2^31 = 1288490188.8 -> 1288490189.
  EXPECT_TRUE(sameQm(quantizeMultiplier(0.3), qm(1288490189, 1)));
  // 0.045 = 0.72 * 2^-4; 0.72 * 2^31 = 1546188226.56 -> 1546188227.
  EXPECT_TRUE(sameQm(quantizeMultiplier(0.045), qm(1546188227, 4)));
}

TEST(QuantizeMultiplierTest, PowersOfTwoAndLeftShifts) {
  EXPECT_TRUE(sameQm(quantizeMultiplier(0.0), qm(0, 0)));
  // 0.5 = 0.5 * 2^0, 0.25 = 0.5 * 2^-1: M0 = 0.5 * 2^31 = 2^30.
  EXPECT_TRUE(sameQm(quantizeMultiplier(0.5), qm(kPow30, 0)));
  EXPECT_TRUE(sameQm(quantizeMultiplier(0.25), qm(kPow30, 1)));
  // M >= 1 is a left shift: 1 = 0.5 * 2^1, 2 = 0.5 * 2^2,
  // 3.5 = 0.875 * 2^2 with 0.875 * 2^31 = 1879048192.
  EXPECT_TRUE(sameQm(quantizeMultiplier(1.0), qm(kPow30, -1)));
  EXPECT_TRUE(sameQm(quantizeMultiplier(2.0), qm(kPow30, -2)));
  EXPECT_TRUE(sameQm(quantizeMultiplier(3.5), qm(1879048192, -2)));
}

TEST(QuantizeMultiplierTest, SignificandRoundingUpToTwoPow31IsHalved) {
  // 1 - 2^-33 is its own frexp significand (exp 0); times 2^31 it is
  // 2^31 - 1/4, which rounds to 2^31: halved to 2^30 with exp 1, so the
  // right shift is -1 instead of 0.
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(1.0 - std::ldexp(1.0, -33)), qm(kPow30, -1)));
  // The same significand scaled by 2^-5: naive right shift 5, one less after
  // the fix-up.
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(std::ldexp(1.0 - std::ldexp(1.0, -33), -5)),
             qm(kPow30, 4)));
  // 2^31 - 1/2 is an exact half: std::round goes away from zero, to 2^31.
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(1.0 - std::ldexp(1.0, -32)), qm(kPow30, -1)));
  // 1 - 2^-31 gives exactly 2^31 - 1: no fix-up.
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(1.0 - std::ldexp(1.0, -31)), qm(kMax, 0)));
}

TEST(QuantizeMultiplierTest, TinyMultipliersFlushOrKeepShift31) {
  // 2^-33 = 0.5 * 2^-32: exponent -32 < -31, flushed.
  EXPECT_TRUE(sameQm(quantizeMultiplier(std::ldexp(1.0, -33)), qm(0, 0)));
  EXPECT_TRUE(sameQm(quantizeMultiplier(1e-12), qm(0, 0)));
  EXPECT_TRUE(sameQm(quantizeMultiplier(std::ldexp(0.999, -32)), qm(0, 0)));
  // 2^-32 = 0.5 * 2^-31: exponent -31 is kept, right shift 31.
  EXPECT_TRUE(sameQm(quantizeMultiplier(std::ldexp(1.0, -32)), qm(kPow30, 31)));
  // The double just below 2^-32 has significand 1 - 2^-53 and exponent -32,
  // but the significand rounds up to 2^31 and the fix-up brings the exponent
  // back to -31 before the flush test (TFLite's order): not flushed.
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(std::nextafter(std::ldexp(1.0, -32), 0.0)),
             qm(kPow30, 31)));
  // 0.75 * 2^-31 = 0.75 * 2^-31: M0 = 0.75 * 2^31 = 1610612736, shift 31.
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(std::ldexp(0.75, -31)), qm(1610612736, 31)));
  // 2^-31 = 0.5 * 2^-30.
  EXPECT_TRUE(sameQm(quantizeMultiplier(std::ldexp(1.0, -31)), qm(kPow30, 30)));
}

TEST(QuantizeMultiplierTest, HugeMultipliersClampAtShiftThirty) {
  // 2^30 - 1 = (1 - 2^-30) * 2^30: M0 = 2^31 - 2, exponent 30, kept.
  EXPECT_TRUE(sameQm(quantizeMultiplier(std::ldexp(1.0, 30) - 1.0),
                     qm(2147483646, -30)));
  // 2^30 = 0.5 * 2^31: exponent 31 > 30, clamped to {INT32_MAX, -30}.
  EXPECT_TRUE(sameQm(quantizeMultiplier(std::ldexp(1.0, 30)), qm(kMax, -30)));
  // Just below 2^30 the significand rounds up and the fix-up reaches
  // exponent 31: clamped as well.
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(std::nextafter(std::ldexp(1.0, 30), 0.0)),
             qm(kMax, -30)));
  EXPECT_TRUE(sameQm(quantizeMultiplier(1e10), qm(kMax, -30)));
  EXPECT_TRUE(
      sameQm(quantizeMultiplier(std::numeric_limits<double>::infinity()),
             qm(kMax, -30)));
}

//===----------------------------------------------------------------------===//
// gemmlowp primitives
//===----------------------------------------------------------------------===//

TEST(SaturatingRoundingDoublingHighMulTest, Edges) {
  // The one overflow: (-1.0) * (-1.0) = +1.0 is not representable in Q31.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMin, kMin), kMax);
  // -2^31 * (2^31 - 1) / 2^31 = -(2^31 - 1), exact.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMin, kMax), -2147483647);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMax, kMin), -2147483647);
  // (2^31 - 1)^2 / 2^31 = 2^31 - 2 + 2^-31 -> 2^31 - 2.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMax, kMax), 2147483646);
  // -2^31 * 2^30 / 2^31 = -2^30; -2^31 * 1 / 2^31 = -1.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMin, kPow30), -kPow30);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMin, 1), -1);
  // (2^31 - 1) / 2^31 -> 1.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMax, 1), 1);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(0, kMin), 0);
  EXPECT_EQ(saturatingRoundingDoublingHighMul(12345, 0), 0);
}

TEST(SaturatingRoundingDoublingHighMulTest, TiesGoTowardPlusInfinity) {
  // b = 2^30 is 0.5 in Q31.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(1, kPow30), 1);   // 0.5
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-1, kPow30), 0);  // -0.5
  EXPECT_EQ(saturatingRoundingDoublingHighMul(3, kPow30), 2);   // 1.5
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-3, kPow30), -1); // -1.5
  EXPECT_EQ(saturatingRoundingDoublingHighMul(5, kPow30), 3);   // 2.5
  EXPECT_EQ(saturatingRoundingDoublingHighMul(-5, kPow30), -2); // -2.5
  // (2^31 - 1) / 2 = 2^30 - 1/2 -> 2^30.
  EXPECT_EQ(saturatingRoundingDoublingHighMul(kMax, kPow30), kPow30);
}

TEST(RoundingDivideByPOTTest, TiesGoAwayFromZero) {
  EXPECT_EQ(roundingDivideByPOT(5, 1), 3);   // 2.5
  EXPECT_EQ(roundingDivideByPOT(-5, 1), -3); // -2.5
  EXPECT_EQ(roundingDivideByPOT(4, 1), 2);
  EXPECT_EQ(roundingDivideByPOT(1, 1), 1);   // 0.5
  EXPECT_EQ(roundingDivideByPOT(-1, 1), -1); // -0.5
  EXPECT_EQ(roundingDivideByPOT(6, 2), 2);   // 1.5
  EXPECT_EQ(roundingDivideByPOT(-6, 2), -2); // -1.5
  EXPECT_EQ(roundingDivideByPOT(5, 2), 1);   // 1.25
  EXPECT_EQ(roundingDivideByPOT(-5, 2), -1); // -1.25
  EXPECT_EQ(roundingDivideByPOT(7, 2), 2);   // 1.75
}

TEST(RoundingDivideByPOTTest, ExponentZeroAndThirtyOne) {
  EXPECT_EQ(roundingDivideByPOT(7, 0), 7);
  EXPECT_EQ(roundingDivideByPOT(kMin, 0), kMin);
  EXPECT_EQ(roundingDivideByPOT(kMax, 0), kMax);
  // Exponent 31 maps everything to -1, 0 or 1.
  EXPECT_EQ(roundingDivideByPOT(kMin, 31), -1);       // -1.0
  EXPECT_EQ(roundingDivideByPOT(kMax, 31), 1);        // 1 - 2^-31
  EXPECT_EQ(roundingDivideByPOT(kPow30, 31), 1);      // 0.5
  EXPECT_EQ(roundingDivideByPOT(-kPow30, 31), -1);    // -0.5
  EXPECT_EQ(roundingDivideByPOT(kPow30 - 1, 31), 0);  // just below 0.5
  EXPECT_EQ(roundingDivideByPOT(-kPow30 + 1, 31), 0); // just above -0.5
  // (2^31 - 1) / 2 = 2^30 - 1/2 -> 2^30; -2^31 / 2 = -2^30.
  EXPECT_EQ(roundingDivideByPOT(kMax, 1), kPow30);
  EXPECT_EQ(roundingDivideByPOT(kMin, 1), -kPow30);
}

//===----------------------------------------------------------------------===//
// multiplyByQuantizedMultiplier / applyRescale in every mode
//===----------------------------------------------------------------------===//

// Expected result of rescale(x) in Double, Single, Away, HalfEven, Float.
struct ModeCase {
  double m;
  int32_t x;
  int64_t expected[5];
  const char *why;
};

// Derivations: Double = RDBP(SRDHM(sat32(x << left), M0), n); Single =
// floor(v + 1/2); Away = round half away; HalfEven = round half to even;
// Float = f32(x) * f32(m) rounded half to even (exact in f32 for all of these
// multipliers and inputs, except where noted).
const ModeCase kModeCases[] = {
    // M = 0.5: M0 = 2^30, n = 0, so the only rounding is SRDHM's (ties up).
    {0.5, 5, {3, 3, 3, 2, 2}, "2.5"},
    {0.5, -5, {-2, -2, -3, -2, -2}, "-2.5: SRDHM and single go up"},
    {0.5, 7, {4, 4, 4, 4, 4}, "3.5"},
    {0.5, -7, {-3, -3, -4, -4, -4}, "-3.5"},
    // M = 0.25: M0 = 2^30, n = 1: SRDHM(x, 2^30) = x/2 (ties up), then RDBP
    // by 1 (ties away from zero).
    {0.25, 2, {1, 1, 1, 0, 0}, "0.5: SRDHM exact 1, RDBP(1,1) = 1"},
    {0.25, -2, {-1, 0, -1, 0, 0}, "-0.5: SRDHM exact -1, RDBP(-1,1) = -1"},
    {0.25, 6, {2, 2, 2, 2, 2}, "1.5: SRDHM 3, RDBP(3,1) = 2"},
    {0.25, -6, {-2, -1, -2, -2, -2}, "-1.5: SRDHM -3, RDBP(-3,1) = -2"},
    {0.25, 10, {3, 3, 3, 2, 2}, "2.5: SRDHM 5, RDBP(5,1) = 3"},
    {0.25, -10, {-3, -2, -3, -2, -2}, "-2.5: SRDHM -5, RDBP(-5,1) = -3"},
    {0.25, 3, {1, 1, 1, 1, 1}, "0.75: SRDHM(1.5) = 2, RDBP(2,1) = 1"},
    {0.25, -3, {-1, -1, -1, -1, -1}, "-0.75: SRDHM(-1.5) = -1, RDBP = -1"},
    // Double rounding: both stages round a half up.
    {0.25, 1, {1, 0, 0, 0, 0}, "0.25: SRDHM(0.5) = 1, RDBP(1,1) = 1"},
    {0.25, -1, {0, 0, 0, 0, 0}, "-0.25: SRDHM(-0.5) = 0"},
    {0.25, 5, {2, 1, 1, 1, 1}, "1.25: SRDHM(2.5) = 3, RDBP(3,1) = 2"},
    // M >= 1 (left shifts). 2 = 2^30 * 2^-31 * 2^2; 3.5 = 1879048192 * 2^-31
    // * 2^2 (M0 = 0.875 in Q31).
    {2.0, 5, {10, 10, 10, 10, 10}, "exact"},
    {2.0, -7, {-14, -14, -14, -14, -14}, "exact"},
    {3.5, 5, {18, 18, 18, 18, 18}, "17.5: SRDHM(20, 0.875) = 17.5 -> 18"},
    {3.5, -5, {-17, -17, -18, -18, -18}, "-17.5: SRDHM(-20, .875) -> -17"},
    {3.5, 7, {25, 25, 25, 24, 24}, "24.5"},
    {3.5, -7, {-24, -24, -25, -24, -24}, "-24.5"},
    // M = 2^-32: M0 = 2^30, n = 31.
    {0x1p-32,
     kMin,
     {-1, 0, -1, 0, 0},
     "-0.5: SRDHM -2^30, RDBP(-2^30, 31) = -1; f32: -2^31 * 2^-32 = -0.5"},
    {0x1p-32,
     kMax,
     {1, 0, 0, 0, 0},
     "0.5 - 2^-32: SRDHM(2^31-1, 2^30) = 2^30 (tie up), RDBP(2^30, 31) = 1; "
     "f32(2^31 - 1) = 2^31, so float sees the tie 0.5 -> 0"},
    {0x1p-32, 1000, {0, 0, 0, 0, 0}, "2.3e-7"},
    // M = 0.75 * 2^-31: M0 = 1610612736, n = 31.
    {0x1.8p-32, kMin, {-1, -1, -1, -1, -1}, "-0.75"},
    {0x1.8p-32,
     kMax,
     {1, 1, 1, 1, 1},
     "0.75 - tiny: SRDHM = 1610612735, RDBP(., 31) = 1"},
    // Flushed multipliers (M < 2^-32): |x * M| < 0.5 for every int32 x, and
    // Float's f32 products are at most 2^31 * 2^-33 = 0.25.
    {0x1p-33, kMin, {0, 0, 0, 0, 0}, "flush"},
    {0x1p-33, kMax, {0, 0, 0, 0, 0}, "flush"},
    {1e-12, kMax, {0, 0, 0, 0, 0}, "flush"},
    {1e-12, kMin, {0, 0, 0, 0, 0}, "flush"},
    // Extreme accumulators with M = 0.25: -2^31 / 4 = -2^29 exactly;
    // (2^31 - 1) / 4 = 2^29 - 1/4 -> 2^29 (Double: SRDHM gives 2^30 - 1/2 ->
    // 2^30, RDBP by 1 gives 2^29; Float: f32(2^31 - 1) = 2^31).
    {0.25,
     kMin,
     {-536870912, -536870912, -536870912, -536870912, -536870912},
     "-2^29"},
    {0.25,
     kMax,
     {536870912, 536870912, 536870912, 536870912, 536870912},
     "2^29 - 1/4"},
    // (2^31 - 1) / 2 = 2^30 - 1/2: Single and Away go up; 2^30 is the even
    // neighbour; f32(2^31 - 1) = 2^31 gives 2^30 exactly.
    {0.5, kMax, {kPow30, kPow30, kPow30, kPow30, kPow30}, "2^30 - 1/2"},
    // The lecture seed: 5000 * 0.0072 = 36 (5000 * 1979120930 / 2^38 =
    // 36 + 16 / 2^38).
    {0.0072, 5000, {36, 36, 36, 36, 36}, "36 + tiny"},
};

constexpr size_t modeIndex(RoundingMode mode) {
  return static_cast<size_t>(mode);
}

TEST(RescaleTest, TiesAndEdgesInEveryMode) {
  for (const ModeCase &c : kModeCases) {
    for (RoundingMode mode : kAllModes) {
      SCOPED_TRACE(::testing::Message()
                   << "m=" << c.m << " x=" << c.x << " mode="
                   << stringifyRoundingMode(mode) << " (" << c.why << ")");
      int64_t expected = c.expected[modeIndex(mode)];
      // Scales chosen so that S_in / S_out == m exactly in double and in f32.
      Rescale r = makeRescale(c.m, 1.0, mode);
      EXPECT_EQ(applyRescale(r, c.x, 0, kMin, kMax), expected);
      if (mode != RoundingMode::Float) {
        EXPECT_EQ(
            multiplyByQuantizedMultiplier(c.x, quantizeMultiplier(c.m), mode),
            expected);
      }
    }
  }
}

TEST(RescaleTest, LeftShiftResultsBeyondInt32) {
  // 3.5 * (2^31 - 1) = 7516192764.5. Double first saturates x << 2 to
  // 2^31 - 1, then SRDHM(2^31 - 1, 0.875) = 1879048191.125 -> 1879048191.
  QuantizedMultiplier m35 = quantizeMultiplier(3.5);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kMax, m35, RoundingMode::Double),
            1879048191);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kMax, m35, RoundingMode::Single),
            7516192765LL);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kMax, m35, RoundingMode::Away),
            7516192765LL);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kMax, m35, RoundingMode::HalfEven),
            7516192764LL);
  // 3.5 * -2^31 = -7516192768 exactly; Double: x << 2 saturates to -2^31,
  // SRDHM(-2^31, 0.875) = -1879048192.
  EXPECT_EQ(multiplyByQuantizedMultiplier(kMin, m35, RoundingMode::Double),
            -1879048192);
  for (RoundingMode mode :
       {RoundingMode::Single, RoundingMode::Away, RoundingMode::HalfEven})
    EXPECT_EQ(multiplyByQuantizedMultiplier(kMin, m35, mode), -7516192768LL);

  // M = 1 is {2^30, -1}: -2^31 << 1 saturates, SRDHM(-2^31, 2^30) = -2^30.
  // The single-product modes see -2^31 * 2^30 / 2^30 = -2^31 exactly.
  QuantizedMultiplier one = quantizeMultiplier(1.0);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kMin, one, RoundingMode::Double),
            -kPow30);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kMin, one, RoundingMode::Single),
            kMin);
}

TEST(RescaleTest, LargeAccumulatorsSaturateUnderLeftShift) {
  // M = 2, x = +-2^30: the exact result +-2^31 leaves int32. Double: x << 2
  // saturates, SRDHM(2^31 - 1, 2^30) = 2^30, SRDHM(-2^31, 2^30) = -2^30.
  QuantizedMultiplier two = quantizeMultiplier(2.0);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kPow30, two, RoundingMode::Double),
            kPow30);
  EXPECT_EQ(multiplyByQuantizedMultiplier(-kPow30, two, RoundingMode::Double),
            -kPow30);
  EXPECT_EQ(multiplyByQuantizedMultiplier(kPow30, two, RoundingMode::Single),
            2147483648LL);
  EXPECT_EQ(multiplyByQuantizedMultiplier(-kPow30, two, RoundingMode::Away),
            -2147483648LL);
  for (RoundingMode mode : kAllModes) {
    SCOPED_TRACE(stringifyRoundingMode(mode));
    Rescale r = makeRescale(2.0, 1.0, mode);
    // Every i8 / i16 output saturates, in every mode.
    EXPECT_EQ(applyRescale(r, kPow30, 0, -128, 127), 127);
    EXPECT_EQ(applyRescale(r, -kPow30, 0, -128, 127), -128);
    EXPECT_EQ(applyRescale(r, kMax, 5, -32768, 32767), 32767);
    EXPECT_EQ(applyRescale(r, kMin, -5, -32768, 32767), -32768);
    EXPECT_EQ(applyRescale(r, 100000, 0, -128, 127), 127);
    EXPECT_EQ(applyRescale(r, -100000, 0, -128, 127), -128);
    // The largest multiplier (clamped to {INT32_MAX, -30}) saturates every
    // nonzero input and maps 0 to the zero point.
    Rescale huge = makeRescale(1e12, 1.0, mode);
    EXPECT_EQ(applyRescale(huge, 1, 3, -128, 127), 127);
    EXPECT_EQ(applyRescale(huge, -1, 3, -128, 127), -128);
    EXPECT_EQ(applyRescale(huge, kMin, 3, -32768, 32767), -32768);
    EXPECT_EQ(applyRescale(huge, 0, 3, -128, 127), 3);
  }
  // With the full int32 output range the single-product modes saturate to
  // INT32_MAX / INT32_MIN; Float: f32(2^30) * 2 = 2^31 clamps too.
  for (RoundingMode mode : {RoundingMode::Single, RoundingMode::Away,
                            RoundingMode::HalfEven, RoundingMode::Float}) {
    Rescale r = makeRescale(2.0, 1.0, mode);
    EXPECT_EQ(applyRescale(r, kPow30, 0, kMin, kMax), kMax);
    EXPECT_EQ(applyRescale(r, kMax, 0, kMin, kMax), kMax);
    EXPECT_EQ(applyRescale(r, kMin, 0, kMin, kMax), kMin);
  }
}

TEST(RescaleTest, ZeroMultiplierGivesTheZeroPoint) {
  EXPECT_TRUE(sameQm(makeRescale(0.0, 0.5, RoundingMode::Double).qm, qm(0, 0)));
  for (RoundingMode mode : kAllModes) {
    Rescale r = makeRescale(0.0, 0.5, mode);
    EXPECT_EQ(applyRescale(r, kMax, 7, -128, 127), 7);
    EXPECT_EQ(applyRescale(r, kMin, -7, -128, 127), -7);
    if (mode != RoundingMode::Float) {
      EXPECT_EQ(multiplyByQuantizedMultiplier(kMin, qm(0, 0), mode), 0);
    }
    // A flushed multiplier (2^-33) behaves the same way.
    Rescale tiny = makeRescale(0x1p-33, 1.0, mode);
    EXPECT_EQ(applyRescale(tiny, kMin, 9, 0, 255), 9);
    EXPECT_EQ(applyRescale(tiny, kMax, 9, 0, 255), 9);
  }
}

TEST(RescaleTest, MakeRescaleTakesTheRatioInDoubleAndInFloat) {
  // Integer modes: quantizeMultiplier(0.0005 / 0.1) = quantizeMultiplier
  // (0.005): 0.005 = 0.64 * 2^-7, 0.64 * 2^31 = 1374389534.72 -> 1374389535.
  Rescale r = makeRescale(0.0005, 0.1, RoundingMode::Single);
  EXPECT_EQ(r.mode, RoundingMode::Single);
  EXPECT_TRUE(sameQm(r.qm, qm(1374389535, 7)));
  // Float: f32(0.0005) / f32(0.1), both operands rounded to f32 first.
  Rescale f = makeRescale(0.0005, 0.1, RoundingMode::Float);
  EXPECT_EQ(f.floatMultiplier, 0.0005f / 0.1f);
}

TEST(RescaleTest, NarrowRangeAndZeroPointExtremes) {
  for (RoundingMode mode : kAllModes) {
    SCOPED_TRACE(stringifyRoundingMode(mode));
    Rescale half = makeRescale(0.5, 1.0, mode);
    // i8<-127:127>: -500 is below the range and clamps to -127, not -128.
    EXPECT_EQ(applyRescale(half, -1000, 0, -127, 127), -127);
    EXPECT_EQ(applyRescale(half, 1000, 0, -127, 127), 127);
    EXPECT_EQ(applyRescale(half, -254, 0, -127, 127), -127);
    // u8 with zero point 255: -10 * 0.5 = -5 -> 250; +5 -> 260 -> 255.
    EXPECT_EQ(applyRescale(half, -10, 255, 0, 255), 250);
    EXPECT_EQ(applyRescale(half, 10, 255, 0, 255), 255);
    // u8 with zero point 0: -5 -> 0; +5 -> 5.
    EXPECT_EQ(applyRescale(half, -10, 0, 0, 255), 0);
    EXPECT_EQ(applyRescale(half, 10, 0, 0, 255), 5);
    // i16 storage: 100000 * 0.5 = 50000 -> 32767; -100000 -> -32768.
    EXPECT_EQ(applyRescale(half, 100000, 0, -32768, 32767), 32767);
    EXPECT_EQ(applyRescale(half, -100000, 0, -32768, 32767), -32768);
    // Extreme accumulators to i8 and u8.
    EXPECT_EQ(applyRescale(half, kMax, 0, -128, 127), 127);
    EXPECT_EQ(applyRescale(half, kMin, 0, -128, 127), -128);
    EXPECT_EQ(applyRescale(half, kMax, 255, 0, 255), 255);
    EXPECT_EQ(applyRescale(half, kMin, 0, 0, 255), 0);
    // Zero point near INT32 limits with an i32 output: computed in int64,
    // saturated, never wrapped.
    EXPECT_EQ(applyRescale(half, kMax, kMax, kMin, kMax), kMax);
    EXPECT_EQ(applyRescale(half, kMin, kMin, kMin, kMax), kMin);
  }
}

TEST(RescaleTest, Int16Ties) {
  // 30001 * 0.5 = 15000.5: Double (SRDHM tie up), Single and Away -> 15001;
  // HalfEven and Float -> 15000 (even).
  const int32_t expected[5] = {15001, 15001, 15001, 15000, 15000};
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(
        applyRescale(makeRescale(0.5, 1.0, mode), 30001, 0, -32768, 32767),
        expected[modeIndex(mode)])
        << stringifyRoundingMode(mode);
}

//===----------------------------------------------------------------------===//
// quantizeValue / dequantizeValue
//===----------------------------------------------------------------------===//

TEST(QuantizeValueTest, LectureSeedsU8) {
  // u8, s = 0.25, z = 128.
  EXPECT_EQ(quantizeValue(0.0f, 0.25, 128, 0, 255), 128);
  EXPECT_EQ(quantizeValue(0.5f, 0.25, 128, 0, 255), 130);
  EXPECT_EQ(quantizeValue(-0.5f, 0.25, 128, 0, 255), 126);
  EXPECT_EQ(dequantizeValue(0, 0.25, 128), -32.0f);
  // 0.625 / 0.25 = 2.5, a tie: half to even gives 2, which dequantizes to
  // 0.5 (error -0.125).
  EXPECT_EQ(quantizeValue(0.625f, 0.25, 0, 0, 255), 2);
  EXPECT_EQ(dequantizeValue(2, 0.25, 0), 0.5f);
  EXPECT_EQ(dequantizeValue(2, 0.25, 0) - 0.625f, -0.125f);
}

TEST(QuantizeValueTest, TiesGoToEven) {
  // x / 1.0 exactly; z = 0, wide range.
  EXPECT_EQ(quantizeValue(2.5f, 1.0, 0, -100, 100), 2);
  EXPECT_EQ(quantizeValue(3.5f, 1.0, 0, -100, 100), 4);
  EXPECT_EQ(quantizeValue(-2.5f, 1.0, 0, -100, 100), -2);
  EXPECT_EQ(quantizeValue(-3.5f, 1.0, 0, -100, 100), -4);
  EXPECT_EQ(quantizeValue(0.5f, 1.0, 0, -100, 100), 0);
  EXPECT_EQ(quantizeValue(-0.5f, 1.0, 0, -100, 100), 0);
  EXPECT_EQ(quantizeValue(2.5000002f, 1.0, 0, -100, 100), 3);
  // The zero point is added after rounding: round(2.5) + 1 = 3, not
  // round(3.5) = 4.
  EXPECT_EQ(quantizeValue(2.5f, 1.0, 1, -100, 100), 3);
}

TEST(QuantizeValueTest, DivisionHappensInFloat) {
  // 0.27 at scale 0.0005 (the FC bias seed): f32(0.27) / f32(0.0005) =
  // 0.27000001 / 0.00050000002 = 540.0000 (within an ulp): 540.
  EXPECT_EQ(quantizeValue(0.27f, 0.0005, 0, kMin, kMax), 540);
  // f32(0.15) / f32(0.1) = 1.50000004..., which rounds to exactly 1.5f (the
  // excess is below half an ulp of 1.5f, 2^-24), a tie that goes to 2. In
  // double, 0.15 / 0.1 = 1.4999999999999998 would give 1.
  EXPECT_EQ(0.15f / 0.1f, 1.5f);
  EXPECT_EQ(quantizeValue(0.15f, 0.1, 0, -128, 127), 2);
}

TEST(QuantizeValueTest, NaNAndInfinities) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(quantizeValue(nan, 0.25, 128, 0, 255), 128);
  EXPECT_EQ(quantizeValue(-nan, 0.25, 128, 0, 255), 128);
  EXPECT_EQ(quantizeValue(nan, 0.05, -10, -128, 127), -10);
  EXPECT_EQ(quantizeValue(inf, 0.25, 128, 0, 255), 255);
  EXPECT_EQ(quantizeValue(-inf, 0.25, 128, 0, 255), 0);
  EXPECT_EQ(quantizeValue(inf, 0.01, 0, -127, 127), 127);
  EXPECT_EQ(quantizeValue(-inf, 0.01, 0, -127, 127), -127);
  EXPECT_EQ(quantizeValue(nan, 0.01, 0, -32768, 32767), 0);
  EXPECT_EQ(quantizeValue(inf, 1.0, 0, kMin, kMax), kMax);
  EXPECT_EQ(quantizeValue(-inf, 1.0, 0, kMin, kMax), kMin);
}

TEST(QuantizeValueTest, HugeFiniteValuesClamp) {
  const float maxF = std::numeric_limits<float>::max();
  // FLT_MAX / 0.25 overflows f32 to +inf: still qmax.
  EXPECT_EQ(quantizeValue(maxF, 0.25, 128, 0, 255), 255);
  EXPECT_EQ(quantizeValue(-maxF, 0.25, 128, 0, 255), 0);
  EXPECT_EQ(quantizeValue(1e30f, 1.0, 0, -128, 127), 127);
  EXPECT_EQ(quantizeValue(-1e30f, 1.0, 0, -128, 127), -128);
  // i32 storage: 3e9 and 2^31 are outside int32, where a plain
  // float-to-int conversion would be undefined.
  EXPECT_EQ(quantizeValue(3e9f, 1.0, 0, kMin, kMax), kMax);
  EXPECT_EQ(quantizeValue(2147483648.0f, 1.0, 0, kMin, kMax), kMax);
  EXPECT_EQ(quantizeValue(-3e9f, 1.0, 0, kMin, kMax), kMin);
  EXPECT_EQ(quantizeValue(-2147483648.0f, 1.0, 0, kMin, kMax), kMin);
  // The largest float below 2^31 is 2^31 - 128 = 2147483520: exact, and the
  // zero point is added without wrapping.
  EXPECT_EQ(quantizeValue(2147483520.0f, 1.0, 0, kMin, kMax), 2147483520);
  EXPECT_EQ(quantizeValue(2147483520.0f, 1.0, 5, kMin, kMax), 2147483525);
  EXPECT_EQ(quantizeValue(2147483520.0f, 1.0, 200, kMin, kMax), kMax);
}

TEST(QuantizeValueTest, NarrowRangeU8ZeroPointsAndInt16) {
  // i8<-127:127>.
  EXPECT_EQ(quantizeValue(-1000.0f, 0.01, 0, -127, 127), -127);
  EXPECT_EQ(quantizeValue(-1.28f, 0.01, 0, -127, 127), -127);
  EXPECT_EQ(quantizeValue(1.27f, 0.01, 0, -127, 127), 127);
  // u8, z = 0 (s = 0.5): -1 -> -2 -> 0; 1 -> 2; 200 -> 400 -> 255.
  EXPECT_EQ(quantizeValue(-1.0f, 0.5, 0, 0, 255), 0);
  EXPECT_EQ(quantizeValue(1.0f, 0.5, 0, 0, 255), 2);
  EXPECT_EQ(quantizeValue(200.0f, 0.5, 0, 0, 255), 255);
  // u8, z = 255: 0 -> 255; 1 -> 257 -> 255; -1 -> 253; -200 -> -145 -> 0.
  EXPECT_EQ(quantizeValue(0.0f, 0.5, 255, 0, 255), 255);
  EXPECT_EQ(quantizeValue(1.0f, 0.5, 255, 0, 255), 255);
  EXPECT_EQ(quantizeValue(-1.0f, 0.5, 255, 0, 255), 253);
  EXPECT_EQ(quantizeValue(-200.0f, 0.5, 255, 0, 255), 0);
  // i16: 1000 / 0.5 = 2000; 100000 / 0.5 = 200000 -> 32767;
  // 100.25 / 0.5 = 200.5 -> 200 (tie to even); -20000 -> -40000 -> -32768.
  EXPECT_EQ(quantizeValue(1000.0f, 0.5, 0, -32768, 32767), 2000);
  EXPECT_EQ(quantizeValue(100000.0f, 0.5, 0, -32768, 32767), 32767);
  EXPECT_EQ(quantizeValue(100.25f, 0.5, 0, -32768, 32767), 200);
  EXPECT_EQ(quantizeValue(-20000.0f, 0.5, 0, -32768, 32767), -32768);
  EXPECT_EQ(quantizeValue(-20000.0f, 0.5, 7, -32768, 32767), -32768);
}

TEST(DequantizeValueTest, SubtractsInFloatThenMultiplies) {
  // int8 scale 0.25 offset 0: -32 -> -8, -31 -> -7.75.
  EXPECT_EQ(dequantizeValue(-32, 0.25, 0), -8.0f);
  EXPECT_EQ(dequantizeValue(-31, 0.25, 0), -7.75f);
  EXPECT_EQ(dequantizeValue(130, 0.25, 128), 0.5f);
  EXPECT_EQ(dequantizeValue(255, 0.25, 128), 31.75f);
  // The order is f32(q) - f32(z), not f32(q - z): f32(2^24 + 1) = 2^24, so
  // the result is 2^24 - 1 = 16777215, while f32(2^24) would be 16777216.
  EXPECT_EQ(dequantizeValue(16777217, 1.0, 1), 16777215.0f);
  // Non-dyadic scales: the product is rounded once, in f32, so it equals the
  // same f32 expression written out.
  EXPECT_EQ(dequantizeValue(3, 0.1, 0), 3.0f * 0.1f);
  EXPECT_EQ(dequantizeValue(-5, 0.05, -10), 5.0f * 0.05f);
}

} // namespace
