//===- RuntimeOracleTest.cpp - Bit-exactness against runtime models -------===//
//
// Each rounding mode claims to reproduce one runtime bit for bit. This file
// checks that claim against independent models of those runtimes:
//
//  - gemmlowp's own SaturatingRoundingDoublingHighMul / RoundingDivideByPOT,
//    from the installed fixedpoint.h (Debian libgemmlowp-dev), when present.
//  - Transcriptions, written here from the runtimes' sources, of TFLite's
//    QuantizeMultiplier (quantization_util.cc) and
//    MultiplyByQuantizedMultiplier (common.cc, both TFLITE_SINGLE_ROUNDING
//    branches), TVM's GetFixedPointMultiplierShift / FixedPointMultiply
//    (src/relay/qnn/utils.cc, UPWARD and TONEAREST, int64 arithmetic) and ONNX
//    Runtime's portable MlasRequantizeOutput / MlasQuantizeLinear (mlas/lib/
//    quantize.cpp), plus a half-to-even oracle using exact __int128
//    division.
//
// The runtimes are only compared where they are themselves well defined:
// TFLite's `x * (1 << left_shift)` must not overflow int32 and its DCHECKs
// must hold, TVM's int64 products must not overflow and its int32 cast must
// not wrap. Everything uses fixed seeds; a failure prints the seed and the
// inputs (multipliers as hex floats) so that it can be replayed.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/FixedPoint.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <utility>
#include <vector>

#if __has_include(<gemmlowp/fixedpoint/fixedpoint.h>)
#include <gemmlowp/fixedpoint/fixedpoint.h>
#define QUANTOPT_HAVE_GEMMLOWP 1
#else
#define QUANTOPT_HAVE_GEMMLOWP 0
#endif

using namespace quantopt::ref;

namespace {

constexpr int32_t kMin = std::numeric_limits<int32_t>::min();
constexpr int32_t kMax = std::numeric_limits<int32_t>::max();

bool fitsInt32(int64_t v) { return v >= kMin && v <= kMax; }

//===----------------------------------------------------------------------===//
// TFLite model (quantization_util.cc, common.cc)
//===----------------------------------------------------------------------===//

namespace tflite_model {

/// QuantizeMultiplier. `singleRounding` selects the TFLITE_SINGLE_ROUNDING
/// build, which additionally saturates shifts above 30. `shift` is TFLite's:
/// positive means a left shift.
void QuantizeMultiplier(double double_multiplier, int32_t *quantized_multiplier,
                        int *shift, bool singleRounding) {
  if (double_multiplier == 0.) {
    *quantized_multiplier = 0;
    *shift = 0;
    return;
  }
  const double q = std::frexp(double_multiplier, shift);
  // TfLiteRound is std::round: halves away from zero.
  auto q_fixed = static_cast<int64_t>(std::round(q * (1LL << 31)));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++*shift;
  }
  // Shifts below -31 would shift every bit out: flush to zero.
  if (*shift < -31) {
    *shift = 0;
    q_fixed = 0;
  }
  if (singleRounding && *shift > 30) {
    *shift = 30;
    q_fixed = (1LL << 31) - 1;
  }
  *quantized_multiplier = static_cast<int32_t>(q_fixed);
}

#if QUANTOPT_HAVE_GEMMLOWP
/// The double-rounding MultiplyByQuantizedMultiplier(int32_t, ...). Returns
/// nullopt where TFLite's int32 `x * (1 << left_shift)` overflows.
std::optional<int32_t>
MultiplyByQuantizedMultiplierDouble(int32_t x, int32_t quantized_multiplier,
                                    int shift) {
  int left_shift = shift > 0 ? shift : 0;
  int right_shift = shift > 0 ? 0 : -shift;
  if (left_shift > 30)
    return std::nullopt; // `1 << 31` itself overflows int.
  int64_t shifted = int64_t(x) * (int64_t(1) << left_shift);
  if (!fitsInt32(shifted))
    return std::nullopt;
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(static_cast<int32_t>(shifted),
                                                  quantized_multiplier),
      right_shift);
}
#endif

/// The single-rounding MultiplyByQuantizedMultiplier(int32_t, ...). Returns
/// nullopt where one of its DCHECKs would fire (shift range, int32 result).
std::optional<int32_t>
MultiplyByQuantizedMultiplierSingle(int32_t x, int32_t quantized_multiplier,
                                    int shift) {
  if (quantized_multiplier < 0 || shift < -31 || shift > 30)
    return std::nullopt;
  const int64_t total_shift = 31 - shift;
  const int64_t round = static_cast<int64_t>(1) << (total_shift - 1);
  int64_t result = x * static_cast<int64_t>(quantized_multiplier) + round;
  result = result >> total_shift;
  if (!fitsInt32(result))
    return std::nullopt;
  return static_cast<int32_t>(result);
}

} // namespace tflite_model

//===----------------------------------------------------------------------===//
// TVM model (src/relay/qnn/utils.cc)
//===----------------------------------------------------------------------===//

namespace tvm_model {

/// GetFixedPointMultiplierShift: frexp, round, the 2^31 fix-up; no flush and
/// no clamp. `exponent` is positive for left shifts.
std::pair<int32_t, int32_t>
GetFixedPointMultiplierShift(double double_multiplier) {
  int32_t significand, exponent;
  if (double_multiplier == 0.)
    return {0, 0};
  double significand_d = std::frexp(double_multiplier, &exponent);
  significand_d = std::round(significand_d * (1ll << 31));
  auto significand_int64 = static_cast<int64_t>(significand_d);
  if (significand_int64 == (1ll << 31)) {
    significand_int64 /= 2;
    ++exponent;
  }
  significand = static_cast<int32_t>(significand_int64);
  return {significand, exponent};
}

/// FixedPointMultiply on one element, in the int64 "high precision" type:
/// left shift, multiply, add the rounding scalar (UPWARD: always the
/// positive one; TONEAREST: 2^(s-1) for a non-negative product, 2^(s-1) - 1
/// otherwise), arithmetic right shift, cast to int32. nullopt where an int64
/// step overflows or the int32 cast would wrap.
std::optional<int32_t> FixedPointMultiply(int32_t x, double multiplier,
                                          bool toNearest) {
  auto [fixed_point_multiplier, shift] =
      GetFixedPointMultiplierShift(multiplier);
  int left_shift = shift > 0 ? shift : 0;
  int right_shift = shift > 0 ? 0 : -shift;
  int64_t tensor = x;
  if (left_shift != 0 &&
      __builtin_mul_overflow(tensor, int64_t(1) << left_shift, &tensor))
    return std::nullopt;
  if (__builtin_mul_overflow(tensor, int64_t(fixed_point_multiplier), &tensor))
    return std::nullopt;
  int total_right_shift = right_shift + 31;
  if (total_right_shift > 62)
    return std::nullopt;
  int64_t pos_rounding_value = (1ll << (total_right_shift - 1));
  int64_t round_scalar = pos_rounding_value;
  if (toNearest && tensor < 0)
    round_scalar = pos_rounding_value - 1;
  if (__builtin_add_overflow(tensor, round_scalar, &tensor))
    return std::nullopt;
  tensor = tensor >> total_right_shift;
  if (!fitsInt32(tensor))
    return std::nullopt;
  return static_cast<int32_t>(tensor);
}

} // namespace tvm_model

//===----------------------------------------------------------------------===//
// Half-to-even oracle: exact rational arithmetic with __int128.
//===----------------------------------------------------------------------===//

// __extension__ keeps -pedantic (which LLVM's build enables) quiet about
// the GNU type.
__extension__ typedef __int128 Int128;

/// round_half_even(x * multiplier / 2^(31 + rightShift)), by floor division
/// and an explicit comparison of twice the remainder with the divisor.
int64_t halfEvenOracle(int32_t x, int32_t multiplier, int32_t rightShift) {
  Int128 numerator = Int128(x) * multiplier;
  int shift = 31 + rightShift;
  if (shift <= 0)
    return static_cast<int64_t>(numerator * (Int128(1) << -shift));
  Int128 divisor = Int128(1) << shift;
  Int128 quotient = numerator / divisor; // Truncates toward zero.
  Int128 remainder = numerator % divisor;
  if (remainder < 0) { // Make it a floor division.
    quotient -= 1;
    remainder += divisor;
  }
  if (2 * remainder > divisor ||
      (2 * remainder == divisor && quotient % 2 != 0))
    quotient += 1;
  return static_cast<int64_t>(quotient);
}

//===----------------------------------------------------------------------===//
// ONNX Runtime model (onnxruntime/core/mlas/lib/quantize.cpp, portable path)
//===----------------------------------------------------------------------===//

namespace ort_model {

constexpr float kRoundingBiasMagic = 12582912.f; // 1.5 * 2^23
constexpr int32_t kRoundingBiasMagicBits = 0x4B400000;

uint32_t bitsOfFp32(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}

/// MlasRequantizeOutput for one element, without bias, for an output type
/// with range [lo, hi]: scale in f32, clamp in f32 to the range shifted by
/// the zero point, round half to even by adding 1.5 * 2^23 and reading the
/// mantissa bits, then add the zero point.
int32_t RequantizeOutput(int32_t input, float scale, int32_t zeroPoint,
                         int32_t lo, int32_t hi) {
  const float minimumValue = float(lo - zeroPoint);
  const float maximumValue = float(hi - zeroPoint);
  // volatile keeps the product rounded to f32 (no contraction into an FMA
  // with the magic-number add on targets that have one).
  volatile float product = float(input) * scale;
  float floatValue = product;
  floatValue = std::max(floatValue, minimumValue);
  floatValue = std::min(floatValue, maximumValue);
  volatile float biased = floatValue + kRoundingBiasMagic;
  int32_t integerValue = int32_t(bitsOfFp32(biased)) - kRoundingBiasMagicBits;
  return integerValue + zeroPoint;
}

/// The portable MlasQuantizeLinear for one element: nearbyintf(x / scale) +
/// zero point, clamped in f32, converted. NaN is undefined there (the clamp
/// passes it through to the int conversion), so callers skip it.
int32_t QuantizeLinear(float input, float scale, int32_t zeroPoint, int32_t lo,
                       int32_t hi) {
  float floatValue = std::nearbyintf(input / scale) + float(zeroPoint);
  floatValue = std::max(floatValue, float(lo));
  floatValue = std::min(floatValue, float(hi));
  return static_cast<int32_t>(floatValue);
}

} // namespace ort_model

//===----------------------------------------------------------------------===//
// Input generators (raw mt19937 bits only, so that the streams do not depend
// on the standard library's distribution algorithms).
//===----------------------------------------------------------------------===//

constexpr uint32_t kSeed = 0x5eed2024;

const int32_t kEdgeInputs[] = {kMin,
                               kMin + 1,
                               -(1 << 30) - 1,
                               -(1 << 30),
                               -65536,
                               -32769,
                               -256,
                               -5,
                               -3,
                               -2,
                               -1,
                               0,
                               1,
                               2,
                               3,
                               5,
                               255,
                               32767,
                               65535,
                               (1 << 30) - 1,
                               1 << 30,
                               kMax - 1,
                               kMax};

struct Generator {
  std::mt19937 rng;
  explicit Generator(uint32_t seed) : rng(seed) {}

  uint32_t bits() { return static_cast<uint32_t>(rng()); }
  uint64_t bits64() { return (uint64_t(bits()) << 32) | bits(); }
  /// Uniform in [lo, hi] (modulo bias is irrelevant here).
  int64_t range(int64_t lo, int64_t hi) {
    return lo + int64_t(bits64() % uint64_t(hi - lo + 1));
  }

  /// A mixture: full-range int32, small magnitudes, edge values.
  int32_t input() {
    switch (bits() % 4) {
    case 0:
    case 1:
      return static_cast<int32_t>(bits());
    case 2:
      return static_cast<int32_t>(range(-70000, 70000));
    default:
      return kEdgeInputs[bits() % (sizeof(kEdgeInputs) / sizeof(int32_t))];
    }
  }

  /// A multiplier in [2^-31, 2^30]: mostly log-uniform with a random 52-bit
  /// mantissa; one in four a short dyadic fraction a * 2^-e (a odd), where
  /// exact ties are frequent; a few exact powers of two and the endpoints.
  double multiplier() {
    uint32_t kind = bits() % 16;
    if (kind == 0)
      return std::ldexp(1.0, int(range(-31, 30)));
    if (kind < 5) {
      // Short denominators half the time: a tie needs x * a = 2^(e-1)
      // modulo 2^e, which a random x meets with probability about 2^-e.
      int e = int(bits() % 2 ? range(1, 12) : range(1, 40));
      double m = std::ldexp(double(2 * range(0, 127) + 1), -e);
      return std::clamp(m, std::ldexp(1.0, -31), std::ldexp(1.0, 30));
    }
    double mantissa = 1.0 + std::ldexp(double(bits64() >> 12), -52);
    return std::ldexp(mantissa, int(range(-31, 29)));
  }

  /// A random storage range and a zero point inside it.
  void outputRange(int32_t &lo, int32_t &hi, int32_t &zp) {
    switch (bits() % 4) {
    case 0:
      lo = 0, hi = 255;
      break;
    case 1:
      lo = -128, hi = 127;
      break;
    case 2:
      lo = -127, hi = 127;
      break;
    default:
      lo = -32768, hi = 32767;
      break;
    }
    zp = static_cast<int32_t>(range(lo, hi));
  }
};

int32_t clampOutput(int64_t v, int32_t zp, int32_t lo, int32_t hi) {
  return static_cast<int32_t>(std::clamp<int64_t>(v + zp, lo, hi));
}

/// Carries the test's seed into failure messages and stops a randomized test
/// from flooding the log after a few failures.
struct FailureBudget {
  uint32_t seed;
  int left = 10;
  bool exhausted() const { return left <= 0; }
  void spend() { --left; }
};

#define EXPECT_ORACLE_EQ(budget, actual, expected, context)                    \
  do {                                                                         \
    auto actualValue = (actual);                                               \
    auto expectedValue = (expected);                                           \
    if (actualValue != expectedValue) {                                        \
      ADD_FAILURE() << "seed 0x" << std::hex << (budget).seed << std::dec      \
                    << ": " << context << ": got " << actualValue              \
                    << ", oracle " << expectedValue;                           \
      (budget).spend();                                                        \
    }                                                                          \
  } while (false)

//===----------------------------------------------------------------------===//
// (1) gemmlowp primitives against the installed gemmlowp
//===----------------------------------------------------------------------===//

#if QUANTOPT_HAVE_GEMMLOWP

TEST(GemmlowpOracleTest, EdgeValues) {
  const int32_t values[] = {kMin,
                            kMin + 1,
                            -(1 << 30) - 1,
                            -(1 << 30),
                            -(1 << 30) + 1,
                            -3,
                            -2,
                            -1,
                            0,
                            1,
                            2,
                            3,
                            (1 << 30) - 1,
                            1 << 30,
                            (1 << 30) + 1,
                            kMax - 1,
                            kMax};
  for (int32_t a : values) {
    for (int32_t b : values)
      EXPECT_EQ(saturatingRoundingDoublingHighMul(a, b),
                gemmlowp::SaturatingRoundingDoublingHighMul(a, b))
          << "a=" << a << " b=" << b;
    for (int32_t e = 0; e <= 31; ++e)
      EXPECT_EQ(roundingDivideByPOT(a, e), gemmlowp::RoundingDivideByPOT(a, e))
          << "x=" << a << " exponent=" << e;
  }
}

TEST(GemmlowpOracleTest, RandomPairs) {
  Generator gen(kSeed);
  FailureBudget budget{kSeed};
  for (int i = 0; i < 150000 && !budget.exhausted(); ++i) {
    int32_t a = gen.input(), b = gen.input();
    EXPECT_ORACLE_EQ(budget, saturatingRoundingDoublingHighMul(a, b),
                     gemmlowp::SaturatingRoundingDoublingHighMul(a, b),
                     "iteration " << i << " SRDHM(" << a << ", " << b << ")");
    int32_t e = static_cast<int32_t>(gen.range(0, 31));
    EXPECT_ORACLE_EQ(budget, roundingDivideByPOT(a, e),
                     gemmlowp::RoundingDivideByPOT(a, e),
                     "iteration " << i << " RDBP(" << a << ", " << e << ")");
  }
}

#endif // QUANTOPT_HAVE_GEMMLOWP

//===----------------------------------------------------------------------===//
// (2) quantizeMultiplier against TFLite's QuantizeMultiplier
//===----------------------------------------------------------------------===//

TEST(TfliteOracleTest, QuantizeMultiplierMatchesSingleRoundingBuild) {
  Generator gen(kSeed ^ 1);
  FailureBudget budget{kSeed ^ 1};
  std::vector<double> multipliers = {0.0,
                                     std::ldexp(1.0, -40),
                                     std::ldexp(1.0, -33),
                                     std::nextafter(std::ldexp(1.0, -32), 0.0),
                                     std::ldexp(1.0, -32),
                                     std::ldexp(1.0, -31),
                                     1.0 - std::ldexp(1.0, -33),
                                     1.0,
                                     std::nextafter(std::ldexp(1.0, 30), 0.0),
                                     std::ldexp(1.0, 30),
                                     std::ldexp(1.0, 31),
                                     1e15};
  for (int i = 0; i < 20000; ++i)
    multipliers.push_back(gen.multiplier());
  // Beyond the usual range, both sides of the flush and the clamp.
  for (int i = 0; i < 2000; ++i)
    multipliers.push_back(std::ldexp(1.0 + std::ldexp(double(gen.bits()), -32),
                                     int(gen.range(-40, 40))));
  for (double m : multipliers) {
    if (budget.exhausted())
      break;
    int32_t multiplier;
    int shift;
    tflite_model::QuantizeMultiplier(m, &multiplier, &shift,
                                     /*singleRounding=*/true);
    QuantizedMultiplier ours = quantizeMultiplier(m);
    EXPECT_ORACLE_EQ(budget, ours.multiplier, multiplier,
                     "m=" << std::hexfloat << m << std::defaultfloat);
    EXPECT_ORACLE_EQ(budget, ours.rightShift, -shift,
                     "m=" << std::hexfloat << m << std::defaultfloat);
  }
}

//===----------------------------------------------------------------------===//
// (2) every integer mode against its runtime
//===----------------------------------------------------------------------===//

// For one (m, x), compares multiplyByQuantizedMultiplier with `oracle` where
// the runtime is defined, and applyRescale (random 8/16-bit output) with the
// oracle's value plus the zero point, saturated.
void checkMode(RoundingMode mode, double m, int32_t x,
               std::optional<int64_t> oracle, Generator &gen,
               FailureBudget &budget, bool compareRaw) {
  if (!oracle)
    return;
  QuantizedMultiplier qm = quantizeMultiplier(m);
  if (compareRaw)
    EXPECT_ORACLE_EQ(
        budget, multiplyByQuantizedMultiplier(x, qm, mode), *oracle,
        stringifyRoundingMode(mode)
            << " m=" << std::hexfloat << m << std::defaultfloat << " x=" << x);
  int32_t lo, hi, zp;
  gen.outputRange(lo, hi, zp);
  EXPECT_ORACLE_EQ(
      budget, applyRescale(makeRescale(m, 1.0, mode), x, zp, lo, hi),
      clampOutput(*oracle, zp, lo, hi),
      stringifyRoundingMode(mode)
          << " m=" << std::hexfloat << m << std::defaultfloat << " x=" << x
          << " zp=" << zp << " range [" << lo << ", " << hi << "]");
}

// Fixed edge multipliers crossed with edge inputs, then random pairs.
template <typename Fn> void forEachCase(uint32_t seed, Fn fn) {
  const double edgeMultipliers[] = {std::ldexp(1.0, -31),
                                    std::ldexp(0.75, -30),
                                    std::ldexp(1.0, -20),
                                    0.0072,
                                    0.25,
                                    0.5,
                                    1.0 - std::ldexp(1.0, -33),
                                    1.0,
                                    2.0,
                                    3.5,
                                    std::ldexp(1.0, 29),
                                    std::ldexp(1.0, 30) - 1.0,
                                    std::ldexp(1.0, 30)};
  Generator gen(seed);
  for (double m : edgeMultipliers)
    for (int32_t x : kEdgeInputs)
      fn(m, x, gen);
  for (int i = 0; i < 60000; ++i) {
    double m = gen.multiplier();
    int32_t x = gen.input();
    fn(m, x, gen);
  }
}

#if QUANTOPT_HAVE_GEMMLOWP
TEST(TfliteOracleTest, DoubleRoundingMatchesReferenceKernels) {
  FailureBudget budget{kSeed ^ 2};
  int compared = 0;
  forEachCase(kSeed ^ 2, [&](double m, int32_t x, Generator &gen) {
    if (budget.exhausted())
      return;
    int32_t multiplier;
    int shift;
    tflite_model::QuantizeMultiplier(m, &multiplier, &shift,
                                     /*singleRounding=*/false);
    std::optional<int32_t> oracle =
        tflite_model::MultiplyByQuantizedMultiplierDouble(x, multiplier, shift);
    compared += oracle.has_value();
    checkMode(RoundingMode::Double, m, x, oracle, gen, budget,
              /*compareRaw=*/true);
  });
  // Most inputs are in the runtime's domain; make sure the filter did not
  // silently skip everything.
  EXPECT_GT(compared, 35000);
}
#endif

TEST(TfliteOracleTest, SingleRoundingMatchesReferenceKernels) {
  FailureBudget budget{kSeed ^ 3};
  int compared = 0;
  forEachCase(kSeed ^ 3, [&](double m, int32_t x, Generator &gen) {
    if (budget.exhausted())
      return;
    int32_t multiplier;
    int shift;
    tflite_model::QuantizeMultiplier(m, &multiplier, &shift,
                                     /*singleRounding=*/true);
    std::optional<int32_t> oracle =
        tflite_model::MultiplyByQuantizedMultiplierSingle(x, multiplier, shift);
    compared += oracle.has_value();
    checkMode(RoundingMode::Single, m, x, oracle, gen, budget,
              /*compareRaw=*/true);
  });
  EXPECT_GT(compared, 35000);
}

// TVM never clamps the exponent: for m >= 2^30 (after rounding) it left
// shifts by 31 where quantizeMultiplier clamps to {INT32_MAX, -30}. The two
// then differ as raw values but agree on every 8/16-bit output, so the raw
// comparison is restricted to exponents <= 30.
bool tvmExponentInRange(double m) {
  return tvm_model::GetFixedPointMultiplierShift(m).second <= 30;
}

TEST(TvmOracleTest, UpwardMatchesSingle) {
  FailureBudget budget{kSeed ^ 4};
  int compared = 0;
  forEachCase(kSeed ^ 4, [&](double m, int32_t x, Generator &gen) {
    if (budget.exhausted())
      return;
    std::optional<int32_t> oracle =
        tvm_model::FixedPointMultiply(x, m, /*toNearest=*/false);
    compared += oracle.has_value();
    checkMode(RoundingMode::Single, m, x, oracle, gen, budget,
              tvmExponentInRange(m));
  });
  EXPECT_GT(compared, 35000);
}

TEST(TvmOracleTest, ToNearestMatchesAway) {
  FailureBudget budget{kSeed ^ 5};
  int compared = 0;
  forEachCase(kSeed ^ 5, [&](double m, int32_t x, Generator &gen) {
    if (budget.exhausted())
      return;
    std::optional<int32_t> oracle =
        tvm_model::FixedPointMultiply(x, m, /*toNearest=*/true);
    compared += oracle.has_value();
    checkMode(RoundingMode::Away, m, x, oracle, gen, budget,
              tvmExponentInRange(m));
  });
  EXPECT_GT(compared, 35000);
}

TEST(HalfEvenOracleTest, MatchesExactDivision) {
  FailureBudget budget{kSeed ^ 6};
  forEachCase(kSeed ^ 6, [&](double m, int32_t x, Generator &gen) {
    if (budget.exhausted())
      return;
    // The multiplier comes from the TFLite model, not from the code under
    // test (their equality is checked above).
    int32_t multiplier;
    int shift;
    tflite_model::QuantizeMultiplier(m, &multiplier, &shift,
                                     /*singleRounding=*/true);
    checkMode(RoundingMode::HalfEven, m, x,
              halfEvenOracle(x, multiplier, -shift), gen, budget,
              /*compareRaw=*/true);
  });
}

TEST(HalfEvenOracleTest, GeneratorsProduceTies) {
  // Sanity check of the generators: the dyadic multipliers must produce a
  // decent number of exact ties (Single and HalfEven differ exactly on ties
  // whose lower neighbour is even), or the tie rules above were not
  // exercised.
  int ties = 0;
  forEachCase(kSeed ^ 6, [&](double m, int32_t x, Generator &) {
    QuantizedMultiplier qm = quantizeMultiplier(m);
    int64_t single = multiplyByQuantizedMultiplier(x, qm, RoundingMode::Single);
    int64_t even = multiplyByQuantizedMultiplier(x, qm, RoundingMode::HalfEven);
    ties += single != even;
  });
  EXPECT_GT(ties, 400);
}

//===----------------------------------------------------------------------===//
// (2) float mode against ONNX Runtime
//===----------------------------------------------------------------------===//

TEST(OrtOracleTest, FloatRescaleMatchesRequantizeOutput) {
  Generator gen(kSeed ^ 7);
  FailureBudget budget{kSeed ^ 7};
  for (int i = 0; i < 100000 && !budget.exhausted(); ++i) {
    // Scales as a model would have them: accumulator scales around
    // 1e-6..1e-2, output scales around 1e-3..1; sometimes equal-ish so that
    // M is near 1, sometimes far apart.
    double scaleIn = std::ldexp(1.0 + std::ldexp(double(gen.bits()), -32),
                                int(gen.range(-30, 0)));
    double scaleOut = std::ldexp(1.0 + std::ldexp(double(gen.bits()), -32),
                                 int(gen.range(-20, 2)));
    int32_t x = gen.input();
    int32_t lo, hi, zp;
    gen.outputRange(lo, hi, zp);
    float scale = float(scaleIn) / float(scaleOut);
    EXPECT_ORACLE_EQ(
        budget,
        applyRescale(makeRescale(scaleIn, scaleOut, RoundingMode::Float), x, zp,
                     lo, hi),
        ort_model::RequantizeOutput(x, scale, zp, lo, hi),
        "iteration " << i << " S_in=" << std::hexfloat << scaleIn
                     << " S_out=" << scaleOut << std::defaultfloat << " x=" << x
                     << " zp=" << zp);
  }
}

TEST(OrtOracleTest, FloatRescaleTiesMatch) {
  // Exact f32 ties: x * 2^-k with small k.
  FailureBudget budget{/*seed=*/0}; // Deterministic inputs.
  for (int k = 1; k <= 4; ++k)
    for (int32_t x = -300; x <= 300; ++x) {
      double scaleIn = std::ldexp(1.0, -k);
      EXPECT_ORACLE_EQ(
          budget,
          applyRescale(makeRescale(scaleIn, 1.0, RoundingMode::Float), x, 3,
                       -128, 127),
          ort_model::RequantizeOutput(x, float(scaleIn), 3, -128, 127),
          "k=" << k << " x=" << x);
    }
}

TEST(OrtOracleTest, QuantizeMatchesQuantizeLinear) {
  Generator gen(kSeed ^ 8);
  FailureBudget budget{kSeed ^ 8};
  for (int i = 0; i < 100000 && !budget.exhausted(); ++i) {
    double scale = std::ldexp(1.0 + std::ldexp(double(gen.bits()), -32),
                              int(gen.range(-12, 2)));
    float x;
    switch (gen.bits() % 4) {
    case 0: {
      // Any finite or infinite bit pattern (NaN is skipped: undefined in the
      // portable runtime path).
      uint32_t raw = gen.bits();
      std::memcpy(&x, &raw, sizeof(x));
      if (std::isnan(x))
        continue;
      break;
    }
    case 1:
      // Exact ties: (n + 1/2) * scale, computed in f32.
      x = (float(gen.range(-40000, 40000)) + 0.5f) * float(scale);
      break;
    default:
      x = float(gen.range(-1000000, 1000000)) / 1000.0f;
      break;
    }
    int32_t lo, hi, zp;
    gen.outputRange(lo, hi, zp);
    EXPECT_ORACLE_EQ(budget, quantizeValue(x, scale, zp, lo, hi),
                     ort_model::QuantizeLinear(x, float(scale), zp, lo, hi),
                     "iteration " << i << " x=" << std::hexfloat << x
                                  << " scale=" << scale << std::defaultfloat
                                  << " zp=" << zp);
  }
}

} // namespace
