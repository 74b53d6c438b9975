//===- FixedPoint.h - Integer rescaling primitives --------------*- C++ -*-===//
//
// The exact integer semantics of `qnt.requantize`, `qnt.quantize` and
// `qnt.dequantize` (docs: the public dialect contract), written with the C++
// standard library only so that the compiler's folders, the lowering's
// generated code and the tests all agree on one bit-exact model.
//
// A real multiplier M >= 0 is held as a Q31 significand and a power of two:
//
//   M ~= multiplier * 2^-31 * 2^-rightShift
//
// and applied to an int32 value x with one of five rounding rules, each of
// which reproduces one runtime bit for bit:
//
//   Double    TFLite reference kernels / gemmlowp / TOSA DOUBLE_ROUND:
//             saturating rounding doubling high multiply (ties toward +inf),
//             then a rounding divide by 2^rightShift (ties away from zero).
//   Single    TFLite TFLITE_SINGLE_ROUNDING, ruy, TOSA SINGLE_ROUND, TVM
//             UPWARD: one exact 64-bit product, one rounding shift with ties
//             toward +inf.
//   Away      TVM TONEAREST: the same product, ties away from zero.
//   HalfEven  the same product, ties to even (no runtime offers it; it is the
//             unbiased choice).
//   Float     ONNX Runtime's CPU kernels: f32(x) * f32 multiplier, rounded
//             half to even in f32.
//
// Everything here is header-only and free of undefined behaviour for every
// int32 input: where a runtime would overflow (TFLite's `x * (1 << shift)`
// for M >= 1) we saturate instead, as the contract says.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_REFERENCE_FIXEDPOINT_H
#define QUANTOPT_REFERENCE_FIXEDPOINT_H

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>

namespace quantopt::ref {

//===----------------------------------------------------------------------===//
// Rounding modes
//===----------------------------------------------------------------------===//

enum class RoundingMode { Double, Single, Away, HalfEven, Float };

/// Parses the `rounding` attribute spelling; nullopt for unknown names so that
/// the verifier can name the bad value.
inline std::optional<RoundingMode> parseRoundingMode(std::string_view name) {
  if (name == "double")
    return RoundingMode::Double;
  if (name == "single")
    return RoundingMode::Single;
  if (name == "away")
    return RoundingMode::Away;
  if (name == "half_even")
    return RoundingMode::HalfEven;
  if (name == "float")
    return RoundingMode::Float;
  return std::nullopt;
}

inline std::string_view stringifyRoundingMode(RoundingMode mode) {
  switch (mode) {
  case RoundingMode::Double:
    return "double";
  case RoundingMode::Single:
    return "single";
  case RoundingMode::Away:
    return "away";
  case RoundingMode::HalfEven:
    return "half_even";
  case RoundingMode::Float:
    return "float";
  }
  // Only reachable through a value cast from outside the enumerators.
  return "double";
}

//===----------------------------------------------------------------------===//
// Quantized multipliers
//===----------------------------------------------------------------------===//

/// M ~= multiplier * 2^-31 * 2^-rightShift. rightShift > 0 divides; < 0 is a
/// left shift (M >= 1). quantizeMultiplier yields multiplier 0 (with
/// rightShift 0) or multiplier in [2^30, 2^31 - 1] with rightShift in
/// [-30, 31].
struct QuantizedMultiplier {
  int32_t multiplier;
  int32_t rightShift;
};

inline bool operator==(const QuantizedMultiplier &a,
                       const QuantizedMultiplier &b) {
  return a.multiplier == b.multiplier && a.rightShift == b.rightShift;
}
inline bool operator!=(const QuantizedMultiplier &a,
                       const QuantizedMultiplier &b) {
  return !(a == b);
}

/// TFLite's QuantizeMultiplier (quantization_util.cc), the single-rounding
/// build, which is the one every mode can share:
///  - m == 0 gives {0, 0}.
///  - frexp splits m = q * 2^exp with q in [0.5, 1); the significand is
///    round-half-away(q * 2^31) (std::round, as TfLiteRound). q * 2^31 is exact
///    in double, so this is the only rounding.
///  - q >= 1 - 2^-32 rounds up to 2^31, which does not fit: it is halved to
///    2^30 and the exponent bumped, i.e. rightShift decreases by one.
///  - exp < -31 (m < 2^-32) is flushed to {0, 0}. This is exact for every
///    nearest rounding: |x * m| < 2^31 * 2^-32 = 0.5 for any int32 x. m in
///    [2^-32, 2^-31) keeps rightShift 31, the largest gemmlowp's
///    RoundingDivideByPOT accepts.
///  - exp > 30 (m >= 2^30 up to rounding) is clamped to {INT32_MAX, -30}, the
///    single-rounding limit (TFLite's double-rounding build does not clamp,
///    but then overflows `x * (1 << 31)`). The clamped multiplier still maps
///    every nonzero int32 x to |x * M| > 2^29, which saturates any output of
///    16 bits or fewer exactly as the unclamped value would, so final outputs
///    do not change.
/// m must be finite and >= 0; as a safety net NaN and negative values give
/// {0, 0} and +inf clamps like any m >= 2^30.
inline QuantizedMultiplier quantizeMultiplier(double m) {
  if (!(m > 0.0))
    return {0, 0};
  if (std::isinf(m))
    return {std::numeric_limits<int32_t>::max(), -30};
  int exp = 0;
  double q = std::frexp(m, &exp);
  auto qFixed = static_cast<int64_t>(std::round(q * 2147483648.0));
  if (qFixed == (int64_t(1) << 31)) {
    qFixed /= 2;
    ++exp;
  }
  if (exp < -31)
    return {0, 0};
  if (exp > 30)
    return {std::numeric_limits<int32_t>::max(), -30};
  return {static_cast<int32_t>(qFixed), -exp};
}

//===----------------------------------------------------------------------===//
// gemmlowp primitives
//===----------------------------------------------------------------------===//

/// gemmlowp's SaturatingRoundingDoublingHighMul: round(a * b / 2^31) with
/// ties toward +inf. The nudge is +2^30 for a non-negative product and
/// 1 - 2^30 for a negative one, followed by a division that truncates toward
/// zero; together they round halves up. The only product that does not fit
/// int32 is INT32_MIN * INT32_MIN (= 2^62, i.e. exactly +1.0 in Q31), which
/// saturates to INT32_MAX.
inline int32_t saturatingRoundingDoublingHighMul(int32_t a, int32_t b) {
  if (a == std::numeric_limits<int32_t>::min() && a == b)
    return std::numeric_limits<int32_t>::max();
  int64_t ab = int64_t(a) * int64_t(b);
  int64_t nudge = ab >= 0 ? (int64_t(1) << 30) : (1 - (int64_t(1) << 30));
  return static_cast<int32_t>((ab + nudge) / (int64_t(1) << 31));
}

/// gemmlowp's RoundingDivideByPOT: x / 2^exponent rounded to nearest with
/// ties away from zero (the threshold is half the divisor, one more for
/// negative x). exponent must be in [0, 31]; values outside are clamped so
/// that no shift is undefined (exponent 31 already maps every int32 to -1, 0
/// or 1, so larger exponents would only differ at exact ties).
inline int32_t roundingDivideByPOT(int32_t x, int32_t exponent) {
  exponent = std::clamp(exponent, 0, 31);
  // Work in uint32 for the mask so that exponent 31 (mask 2^31 - 1) and the
  // bit pattern of negative x are well defined.
  uint32_t mask = (uint32_t(1) << exponent) - 1;
  uint32_t remainder = uint32_t(x) & mask;
  uint32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  // Arithmetic right shift of a negative value is implementation-defined
  // before C++20 but arithmetic on every compiler we support.
  int32_t quotient = x >> exponent;
  return quotient + (remainder > threshold ? 1 : 0);
}

namespace detail {

/// Saturates an int64 to int32.
inline int32_t saturateToInt32(int64_t v) {
  return static_cast<int32_t>(
      std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
}

/// Rounds p / 2^shift (shift in [1, 62], |p| < 2^62) to nearest, with the
/// tie rule of `mode` (Single: toward +inf; Away: away from zero; anything
/// else: to even).
inline int64_t roundingShiftRight(int64_t p, int shift, RoundingMode mode) {
  const int64_t half = int64_t(1) << (shift - 1);
  switch (mode) {
  case RoundingMode::Single:
    // Adding half and shifting arithmetically is floor(v + 1/2).
    return (p + half) >> shift;
  case RoundingMode::Away:
    // TVM's TONEAREST: half for a non-negative product, half - 1 for a
    // negative one, then the same floor shift.
    return (p + (p >= 0 ? half : half - 1)) >> shift;
  case RoundingMode::Double:
  case RoundingMode::HalfEven:
  case RoundingMode::Float:
    break;
  }
  int64_t floorQuotient = p >> shift;
  int64_t remainder = p - floorQuotient * (int64_t(1) << shift);
  if (remainder > half || (remainder == half && (floorQuotient & 1) != 0))
    return floorQuotient + 1;
  return floorQuotient;
}

/// Round half to even of a float, independent of the floating-point
/// environment's rounding mode. v is only floored and compared, never used
/// in arithmetic, so a compiler that contracts `a * b - c` into an FMA (GCC
/// does by default on AArch64 and RISC-V) cannot round a caller's product
/// differently from the f32 product the contract specifies.
inline float roundHalfEvenFloat(float v) {
  if (!std::isfinite(v))
    return v;
  float lower = std::floor(v);
  // Integers, which include every |v| >= 2^23.
  if (lower == v)
    return v;
  // Exact: here |lower| <= 2^23, where f32 still has halves.
  float middle = lower + 0.5f;
  if (v > middle)
    return lower + 1.0f;
  if (v < middle)
    return lower;
  return std::fmod(lower, 2.0f) == 0.0f ? lower : lower + 1.0f;
}

/// f32 value v (already scaled), rounded half to even, plus zeroPoint,
/// clamped to [lo, hi]. The clamp happens in double before any conversion to
/// an integer type, so infinities and huge values never hit an undefined
/// float-to-int conversion; NaN maps to the zero point (real 0).
inline int32_t roundAddZeroPointClamp(float v, int32_t zeroPoint, int32_t lo,
                                      int32_t hi) {
  int64_t result;
  if (std::isnan(v)) {
    result = zeroPoint;
  } else {
    double rounded = double(roundHalfEvenFloat(v)) + double(zeroPoint);
    if (rounded <= double(lo))
      return lo;
    if (rounded >= double(hi))
      return hi;
    result = static_cast<int64_t>(rounded);
  }
  return static_cast<int32_t>(std::clamp<int64_t>(result, lo, hi));
}

} // namespace detail

//===----------------------------------------------------------------------===//
// Rescaling
//===----------------------------------------------------------------------===//

/// Rescales x by qm in an integer rounding mode and returns the rescaled
/// value before the output zero point is added. The result is an int64
/// because the single-product modes can exceed int32 for M >= 1 (applyRescale
/// saturates it).
///
///  - Double: x is first shifted left by max(-rightShift, 0) and saturated to
///    int32 (TFLite computes `x * (1 << left_shift)` in int32 and overflows;
///    we saturate instead, as the contract requires), then
///    roundingDivideByPOT(saturatingRoundingDoublingHighMul(x', multiplier),
///    max(rightShift, 0)). Two roundings: the high multiply rounds halves
///    toward +inf, the divide rounds halves away from zero, so e.g. 1 * 0.25
///    gives 1 (0.5 -> 1, then 0.5 -> 1). The saturated left shift keeps
///    |result| >= 2^30 for any x it saturates, so every output of 16 bits or
///    fewer still saturates; a 32-bit output would see 2^30-ish instead of
///    INT32_MAX.
///  - Single / Away / HalfEven: the exact product x * multiplier (|.| < 2^62)
///    is divided by 2^(31 + rightShift) with one rounding. For a total shift
///    of 0 or less (rightShift <= -31, which quantizeMultiplier never yields)
///    the product is shifted left, saturating at the int64 range; for a total
///    shift >= 63 the quotient is below one half and rounds to 0.
///  - Float is not an integer mode; as a fallback it multiplies f32(x) by
///    f32(multiplier * 2^(-31 - rightShift)) and rounds half to even in f32.
///    The real Float rescale (makeRescale/applyRescale) uses the f32 ratio of
///    the scales instead.
/// multiplier must be >= 0 (quantizeMultiplier never yields a negative one).
/// multiplier 0 gives 0 in every mode.
inline int64_t multiplyByQuantizedMultiplier(int32_t x, QuantizedMultiplier qm,
                                             RoundingMode mode) {
  if (qm.multiplier == 0 || x == 0)
    return 0;
  switch (mode) {
  case RoundingMode::Double: {
    int32_t shifted = x;
    if (qm.rightShift < 0) {
      int leftShift = -int64_t(qm.rightShift) >= 31 ? 31 : -qm.rightShift;
      // |x| * 2^31 >= 2^31 for any nonzero x, so shifts of 31 or more
      // saturate (x = -1 << 31 is exactly INT32_MIN, also the saturated
      // value); below that the int64 shift is exact.
      shifted =
          leftShift >= 31
              ? (x > 0 ? std::numeric_limits<int32_t>::max()
                       : std::numeric_limits<int32_t>::min())
              : detail::saturateToInt32(int64_t(x) * (int64_t(1) << leftShift));
    }
    int32_t high = saturatingRoundingDoublingHighMul(shifted, qm.multiplier);
    if (qm.rightShift <= 0)
      return high;
    if (qm.rightShift <= 31)
      return roundingDivideByPOT(high, qm.rightShift);
    // Beyond gemmlowp's range: |high| <= 2^31, so the quotient is at most one
    // half, a tie only for high == INT32_MIN at shift 32 (rounded away from
    // zero, as roundingDivideByPOT would).
    return (qm.rightShift == 32 && high == std::numeric_limits<int32_t>::min())
               ? -1
               : 0;
  }
  case RoundingMode::Single:
  case RoundingMode::Away:
  case RoundingMode::HalfEven: {
    int64_t product = int64_t(x) * int64_t(qm.multiplier);
    int64_t totalShift = 31 + int64_t(qm.rightShift);
    if (totalShift >= 63)
      return 0;
    if (totalShift >= 1)
      return detail::roundingShiftRight(product, int(totalShift), mode);
    int64_t leftShift = -totalShift;
    int64_t limit = leftShift >= 62
                        ? 0
                        : (std::numeric_limits<int64_t>::max() >> leftShift);
    if (product > limit)
      return std::numeric_limits<int64_t>::max();
    if (product < -limit)
      return std::numeric_limits<int64_t>::min();
    return product * (int64_t(1) << leftShift);
  }
  case RoundingMode::Float:
    break;
  }
  // The clamp keeps ldexp's exponent sane; f32 under- or overflows long
  // before +-200 anyway.
  int exponent = -31 - std::clamp(qm.rightShift, -200, 200);
  auto m = static_cast<float>(std::ldexp(double(qm.multiplier), exponent));
  float v = detail::roundHalfEvenFloat(float(x) * m);
  // A large multiplier can push v past the int64 range (or to inf): saturate
  // before converting.
  if (!(std::fabs(v) < 9.2e18f))
    return v > 0 ? std::numeric_limits<int64_t>::max()
                 : std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(v);
}

/// A rescale by S_in / S_out in one rounding mode. Both representations are
/// always filled in (qm from the double ratio, floatMultiplier from the f32
/// ratio) so that passes can print either; applyRescale reads only the one
/// its mode uses.
struct Rescale {
  RoundingMode mode;
  QuantizedMultiplier qm;
  float floatMultiplier;
};

/// Integer modes: qm = quantizeMultiplier(scaleIn / scaleOut), the ratio taken
/// in double as TFLite does. Float: floatMultiplier = f32(scaleIn) /
/// f32(scaleOut) in f32, as ONNX Runtime computes it.
inline Rescale makeRescale(double scaleIn, double scaleOut, RoundingMode mode) {
  Rescale r;
  r.mode = mode;
  r.qm = quantizeMultiplier(scaleIn / scaleOut);
  r.floatMultiplier =
      static_cast<float>(scaleIn) / static_cast<float>(scaleOut);
  return r;
}

/// Requantizes one element: x is (q - z_in) as int32. Returns
/// clamp(rescale(x) + zpOut, lo, hi), computed so that nothing wraps: the
/// zero point is added in int64 to a value already clamped to a range no
/// int32 bound can escape. In Float mode f32(x) * floatMultiplier is rounded
/// half to even in f32 (the result ONNX Runtime gets from its magic-number
/// add or cvtps), the zero point added and the sum saturated; a NaN product
/// (only possible for a NaN/inf multiplier from degenerate scales) counts as
/// real 0, i.e. zpOut. lo <= hi.
inline int32_t applyRescale(const Rescale &r, int32_t x, int32_t zpOut,
                            int32_t lo, int32_t hi) {
  if (r.mode == RoundingMode::Float)
    return detail::roundAddZeroPointClamp(float(x) * r.floatMultiplier, zpOut,
                                          lo, hi);
  int64_t scaled = multiplyByQuantizedMultiplier(x, r.qm, r.mode);
  constexpr int64_t kBound = int64_t(1) << 40;
  scaled = std::clamp(scaled, -kBound, kBound);
  return static_cast<int32_t>(std::clamp<int64_t>(scaled + zpOut, lo, hi));
}

//===----------------------------------------------------------------------===//
// Quantize / dequantize
//===----------------------------------------------------------------------===//

/// clamp(round_half_even(x / f32(scale)) + zeroPoint, qmin, qmax), the
/// division in f32. NaN gives the zero point (clamped), +inf qmax, -inf qmin;
/// finite values whose quotient is huge (or overflows f32 to inf) clamp too,
/// never through an undefined float-to-int conversion. Ties: 2.5 -> 2,
/// 3.5 -> 4, -2.5 -> -2.
inline int32_t quantizeValue(float x, double scale, int32_t zeroPoint,
                             int32_t qmin, int32_t qmax) {
  if (std::isnan(x))
    return std::clamp(zeroPoint, qmin, qmax);
  return detail::roundAddZeroPointClamp(x / static_cast<float>(scale),
                                        zeroPoint, qmin, qmax);
}

/// (f32(q) - f32(z)) * f32(scale), in f32 and in that order (a fused or
/// reordered form rounds differently for large codes).
inline float dequantizeValue(int32_t q, double scale, int32_t zeroPoint) {
  float centered = static_cast<float>(q) - static_cast<float>(zeroPoint);
  return centered * static_cast<float>(scale);
}

} // namespace quantopt::ref

#endif // QUANTOPT_REFERENCE_FIXEDPOINT_H
