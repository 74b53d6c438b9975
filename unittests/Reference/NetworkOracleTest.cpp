//===- NetworkOracleTest.cpp - qnt.add against runtime transcriptions -----===//
//
// The reference `add` claims to reproduce TFLite's integer add ("double" and
// "single") and to follow ONNX Runtime's QLinearAdd ("float"). This file
// checks those claims on fixed-seed random inputs against models written
// here from the runtimes' sources:
//
//  - TFLite: tensorflow/lite/kernels/add.cc (Prepare: left_shift,
//    twice_max_input_scale, QuantizeMultiplierSmallerThanOneExp),
//    kernels/internal/reference/add.h (AddElementwise), kernels/internal/
//    common.h (MultiplyByQuantizedMultiplierSmallerThanOneExp, both the
//    gemmlowp build and the TFLITE_SINGLE_ROUNDING build) and
//    quantization_util.cc (QuantizeMultiplier). The double-rounding build
//    uses gemmlowp's own fixedpoint.h when installed (libgemmlowp-dev).
//  - ONNX Runtime: onnxruntime/core/mlas/lib/qladd.cpp,
//    MlasQLinearAddKernelRawHelper (the portable scalar path).
//  - The contract's "float" formula, evaluated in double with an explicit
//    rounding to f32 after each operation (exact emulation of f32 +, *, /,
//    since double has more than 2 * 24 + 2 bits) and std::nearbyint.
//
// TFLite is only compared where it is itself defined: multipliers below 1
// (its CHECK in QuantizeMultiplierSmallerThanOneExp) and shifted inputs that
// fit int32.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/NetworkKernels.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <random>
#include <vector>

#if __has_include(<gemmlowp/fixedpoint/fixedpoint.h>)
#include <gemmlowp/fixedpoint/fixedpoint.h>
#define QUANTOPT_HAVE_GEMMLOWP 1
#else
#define QUANTOPT_HAVE_GEMMLOWP 0
#endif

using namespace quantopt::ref;

namespace {

//===----------------------------------------------------------------------===//
// TFLite integer add
//===----------------------------------------------------------------------===//

namespace tflite_add {

/// quantization_util.cc QuantizeMultiplier followed by the
/// SmallerThanOneExp CHECK (shift <= 0); nullopt where TFLite would abort.
std::optional<std::pair<int32_t, int>>
QuantizeMultiplierSmallerThanOneExp(double double_multiplier) {
  if (double_multiplier == 0.)
    return std::make_pair(0, 0);
  int shift;
  const double q = std::frexp(double_multiplier, &shift);
  auto q_fixed = static_cast<int64_t>(std::round(q * (1LL << 31)));
  if (q_fixed == (1LL << 31)) {
    q_fixed /= 2;
    ++shift;
  }
  if (shift < -31) {
    shift = 0;
    q_fixed = 0;
  }
  if (shift > 0)
    return std::nullopt;
  return std::make_pair(static_cast<int32_t>(q_fixed), shift);
}

struct ArithmeticParams {
  int32_t input1_offset, input2_offset, output_offset;
  int left_shift;
  int32_t input1_multiplier, output_multiplier, input2_multiplier;
  int input1_shift, input2_shift, output_shift;
  int32_t quantized_activation_min, quantized_activation_max;
};

/// add.cc Prepare for quantized types (scales are TfLite floats, promoted
/// to double as in the source).
std::optional<ArithmeticParams> Prepare(float s1, int32_t z1, float s2,
                                        int32_t z2, float so, int32_t zo,
                                        bool int16Output, int32_t actMin,
                                        int32_t actMax) {
  ArithmeticParams p;
  p.input1_offset = -z1;
  p.input2_offset = -z2;
  p.output_offset = zo;
  p.left_shift = int16Output ? 15 : 20;
  const double twice_max_input_scale = 2 * std::max(s1, s2);
  const double real_input1_multiplier = s1 / twice_max_input_scale;
  const double real_input2_multiplier = s2 / twice_max_input_scale;
  const double real_output_multiplier =
      twice_max_input_scale / ((1 << p.left_shift) * double(so));
  auto m1 = QuantizeMultiplierSmallerThanOneExp(real_input1_multiplier);
  auto m2 = QuantizeMultiplierSmallerThanOneExp(real_input2_multiplier);
  auto mo = QuantizeMultiplierSmallerThanOneExp(real_output_multiplier);
  if (!m1 || !m2 || !mo)
    return std::nullopt;
  std::tie(p.input1_multiplier, p.input1_shift) = *m1;
  std::tie(p.input2_multiplier, p.input2_shift) = *m2;
  std::tie(p.output_multiplier, p.output_shift) = *mo;
  p.quantized_activation_min = actMin;
  p.quantized_activation_max = actMax;
  return p;
}

/// common.h, TFLITE_SINGLE_ROUNDING: MultiplyByQuantizedMultiplier.
int32_t MulSingle(int32_t x, int32_t quantized_multiplier, int shift) {
  const int64_t total_shift = 31 - shift;
  const int64_t round = static_cast<int64_t>(1) << (total_shift - 1);
  int64_t result = x * static_cast<int64_t>(quantized_multiplier) + round;
  result = result >> total_shift;
  return static_cast<int32_t>(result);
}

#if QUANTOPT_HAVE_GEMMLOWP
/// common.h, default build: gemmlowp's two roundings.
int32_t MulDouble(int32_t x, int32_t quantized_multiplier, int left_shift) {
  return gemmlowp::RoundingDivideByPOT(
      gemmlowp::SaturatingRoundingDoublingHighMul(x, quantized_multiplier),
      -left_shift);
}
#endif

/// reference/add.h AddElementwise, one element.
template <typename Mul>
int32_t AddElement(const ArithmeticParams &params, int32_t in1, int32_t in2,
                   Mul mul) {
  const int32_t input1_val = params.input1_offset + in1;
  const int32_t input2_val = params.input2_offset + in2;
  const int32_t shifted_input1_val = input1_val * (1 << params.left_shift);
  const int32_t shifted_input2_val = input2_val * (1 << params.left_shift);
  const int32_t scaled_input1_val =
      mul(shifted_input1_val, params.input1_multiplier, params.input1_shift);
  const int32_t scaled_input2_val =
      mul(shifted_input2_val, params.input2_multiplier, params.input2_shift);
  const int32_t raw_sum = scaled_input1_val + scaled_input2_val;
  const int32_t raw_output =
      mul(raw_sum, params.output_multiplier, params.output_shift) +
      params.output_offset;
  return std::min(params.quantized_activation_max,
                  std::max(params.quantized_activation_min, raw_output));
}

} // namespace tflite_add

//===----------------------------------------------------------------------===//
// ONNX Runtime QLinearAdd, scalar path
//===----------------------------------------------------------------------===//

/// qladd.cpp MlasQLinearAddKernelRawHelper, one element, for a storage type
/// with range [minimum, maximum].
int32_t ortQLinearAddScalar(int32_t a, float ScaleA, int32_t ZeroPointA,
                            int32_t b, float ScaleB, int32_t ZeroPointB,
                            float ScaleC, int32_t ZeroPointC, int32_t minimum,
                            int32_t maximum) {
  const float MinimumValue = (float)(minimum - ZeroPointC);
  const float MaximumValue = (float)(maximum - ZeroPointC);
  float ValueA = ScaleA * (a - ZeroPointA);
  float ValueB = ScaleB * (b - ZeroPointB);
  float ValueC = (ValueA + ValueB) / ScaleC;
  ValueC = std::min(std::max(ValueC, MinimumValue), MaximumValue);
  return (int32_t)std::nearbyintf(ValueC + ZeroPointC);
}

/// The contract's "float" add, emulated in double: each f32 operation is
/// computed in double and rounded to f32 once (correct for +, * and /).
int32_t contractFloatAdd(int32_t a, double sa, int32_t za, int32_t b,
                         double sb, int32_t zb, double sy, int32_t zy,
                         int32_t lo, int32_t hi) {
  auto f32 = [](double v) { return double(static_cast<float>(v)); };
  const double ra = f32(f32(sa) / f32(sy));
  const double rb = f32(f32(sb) / f32(sy));
  const double v = f32(f32(double(a - za) * ra) + f32(double(b - zb) * rb));
  const double rounded = std::nearbyint(v) + zy; // ties to even
  return static_cast<int32_t>(std::clamp(rounded, double(lo), double(hi)));
}

//===----------------------------------------------------------------------===//
// Random cases
//===----------------------------------------------------------------------===//

struct Storage {
  int32_t min, max;
  unsigned bits;
};
constexpr Storage kI8{-128, 127, 8}, kU8{0, 255, 8}, kI16{-32768, 32767, 16};

struct Generator {
  std::mt19937 rng;
  explicit Generator(uint32_t seed) : rng(seed) {}
  uint32_t bits() { return static_cast<uint32_t>(rng()); }
  int32_t range(int32_t lo, int32_t hi) {
    return lo + int32_t(bits() % uint32_t(int64_t(hi) - lo + 1));
  }
  /// An f32 scale: random 23-bit mantissa times 2^[-12, 0], or one in four
  /// a short dyadic value (frequent exact ties).
  float scale() {
    if (bits() % 4 == 0)
      return std::ldexp(float(range(1, 15)), -range(1, 10));
    float mantissa = 1.0f + std::ldexp(float(bits() >> 9), -23);
    return std::ldexp(mantissa, -range(0, 12));
  }
};

struct Case {
  Storage sa, sb, sy;
  float scaleA, scaleB, scaleY;
  int32_t za, zb, zy;
  std::vector<int32_t> a, b;
};

Case randomCase(Generator &g, Storage sa, Storage sb, Storage sy, int n) {
  Case c{sa, sb, sy, g.scale(), g.scale(), g.scale(), 0, 0, 0, {}, {}};
  c.za = g.range(sa.min, sa.max);
  c.zb = g.range(sb.min, sb.max);
  c.zy = g.range(sy.min, sy.max);
  for (int i = 0; i < n; ++i) {
    c.a.push_back(g.range(sa.min, sa.max));
    c.b.push_back(g.range(sb.min, sb.max));
  }
  return c;
}

std::vector<int32_t> runKernel(const Case &c, RoundingMode mode) {
  const std::vector<int64_t> shape{int64_t(c.a.size())};
  return add(c.a, shape,
             QuantParams::perTensor(c.scaleA, c.za, c.sa.min, c.sa.max), c.b,
             shape, QuantParams::perTensor(c.scaleB, c.zb, c.sb.min, c.sb.max),
             shape, QuantParams::perTensor(c.scaleY, c.zy, c.sy.min, c.sy.max),
             c.sy.bits, mode);
}

constexpr uint32_t kSeed = 0xadd2026;
constexpr int kCases = 400, kElements = 64;

/// TFLite's int8/uint8 add takes 8-bit inputs with an 8-bit output and its
/// general int16 add 16-bit ones with a 16-bit output (add.cc).
const Storage kTfliteTypes[][3] = {
    {kI8, kI8, kI8}, {kU8, kU8, kU8}, {kI16, kI16, kI16}};

#if QUANTOPT_HAVE_GEMMLOWP
TEST(NetworkOracle, DoubleMatchesTFLiteReferenceAdd) {
  Generator g(kSeed);
  int compared = 0;
  for (const auto &types : kTfliteTypes)
    for (int i = 0; i < kCases; ++i) {
      Case c = randomCase(g, types[0], types[1], types[2], kElements);
      auto params = tflite_add::Prepare(c.scaleA, c.za, c.scaleB, c.zb,
                                        c.scaleY, c.zy, c.sy.bits == 16,
                                        c.sy.min, c.sy.max);
      if (!params)
        continue; // M_out >= 1: TFLite refuses the model.
      std::vector<int32_t> got = runKernel(c, RoundingMode::Double);
      for (size_t e = 0; e < c.a.size(); ++e, ++compared)
        ASSERT_EQ(got[e], tflite_add::AddElement(*params, c.a[e], c.b[e],
                                                 tflite_add::MulDouble))
            << "seed " << kSeed << " case " << i << " element " << e
            << ": a=" << c.a[e] << " b=" << c.b[e] << " scales "
            << c.scaleA << " " << c.scaleB << " " << c.scaleY;
    }
  // Almost every case has M_out < 1 with these scales.
  EXPECT_GT(compared, 3 * kCases * kElements * 9 / 10);
}
#endif

TEST(NetworkOracle, SingleMatchesTFLiteSingleRoundingAdd) {
  Generator g(kSeed + 1);
  int compared = 0;
  for (const auto &types : kTfliteTypes)
    for (int i = 0; i < kCases; ++i) {
      Case c = randomCase(g, types[0], types[1], types[2], kElements);
      auto params = tflite_add::Prepare(c.scaleA, c.za, c.scaleB, c.zb,
                                        c.scaleY, c.zy, c.sy.bits == 16,
                                        c.sy.min, c.sy.max);
      if (!params)
        continue;
      std::vector<int32_t> got = runKernel(c, RoundingMode::Single);
      for (size_t e = 0; e < c.a.size(); ++e, ++compared)
        ASSERT_EQ(got[e], tflite_add::AddElement(*params, c.a[e], c.b[e],
                                                 tflite_add::MulSingle))
            << "seed " << kSeed + 1 << " case " << i << " element " << e;
    }
  EXPECT_GT(compared, 3 * kCases * kElements * 9 / 10);
}

/// Mixed storage types as well: the contract allows them for qnt.add.
const Storage kAllTypes[][3] = {{kI8, kI8, kI8},   {kU8, kU8, kU8},
                                {kI16, kI16, kI16}, {kU8, kI8, kI8},
                                {kI8, kU8, kU8},   {kI8, kI8, kI16}};

TEST(NetworkOracle, FloatMatchesTheContractFormula) {
  Generator g(kSeed + 2);
  for (const auto &types : kAllTypes)
    for (int i = 0; i < kCases; ++i) {
      Case c = randomCase(g, types[0], types[1], types[2], kElements);
      std::vector<int32_t> got = runKernel(c, RoundingMode::Float);
      for (size_t e = 0; e < c.a.size(); ++e)
        ASSERT_EQ(got[e],
                  contractFloatAdd(c.a[e], c.scaleA, c.za, c.b[e], c.scaleB,
                                   c.zb, c.scaleY, c.zy, c.sy.min, c.sy.max))
            << "seed " << kSeed + 2 << " case " << i << " element " << e;
    }
}

// ONNX Runtime's scalar helper evaluates (S_a * (a - z_a) + S_b * (b - z_b))
// / S_c and rounds after adding z_c; the contract multiplies by the f32
// ratios S/S_c (as ORT's vector kernels do) and rounds before. The two can
// differ by one code near a tie; this test pins how often, so that a change
// in either formula shows up.
TEST(NetworkOracle, FloatIsWithinOneCodeOfOrtScalarQLinearAdd) {
  Generator g(kSeed + 3);
  int compared = 0, differing = 0;
  const Storage types[][3] = {{kI8, kI8, kI8}, {kU8, kU8, kU8}};
  for (const auto &t : types)
    for (int i = 0; i < kCases; ++i) {
      Case c = randomCase(g, t[0], t[1], t[2], kElements);
      std::vector<int32_t> got = runKernel(c, RoundingMode::Float);
      for (size_t e = 0; e < c.a.size(); ++e, ++compared) {
        int32_t ort = ortQLinearAddScalar(c.a[e], c.scaleA, c.za, c.b[e],
                                          c.scaleB, c.zb, c.scaleY, c.zy,
                                          c.sy.min, c.sy.max);
        ASSERT_LE(std::abs(got[e] - ort), 1)
            << "seed " << kSeed + 3 << " case " << i << " element " << e;
        differing += got[e] != ort;
      }
    }
  // Measured with this seed: 10 of 51200 elements differ (by one code).
  EXPECT_LT(differing * 1000, compared) << differing << " of " << compared;
}

} // namespace
