//===- DynamicKernelsTest.cpp - runtime-scale reference kernels -----------===//
//
// Hand-computed cases for the reference kernels of qnt.dequantize_dynamic,
// qnt.quantize_dynamic and qnt.dynamic_quantize (docs/RuntimeScales.md).
// The ONNX mode cases are ONNX's own backend test vectors
// (onnx/backend/test/case/node/dynamicquantizelinear.py); the others are
// worked out by hand in the comments.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/DynamicKernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

using namespace quantopt::ref;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

uint32_t bitsOf(float v) {
  uint32_t bits;
  std::memcpy(&bits, &v, sizeof(bits));
  return bits;
}

float floatOf(uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, sizeof(v));
  return v;
}

//===----------------------------------------------------------------------===//
// dequantize_dynamic
//===----------------------------------------------------------------------===//

TEST(DequantizeDynamic, Formula) {
  // (10 - 2) * 0.5 = 4; (255 - 128) * 0.25 = 31.75; negative scales are data.
  EXPECT_EQ(dequantizeDynamicValue(10, 0.5f, 2.0f), 4.0f);
  EXPECT_EQ(dequantizeDynamicValue(255, 0.25f, 128.0f), 31.75f);
  EXPECT_EQ(dequantizeDynamicValue(4, -0.5f, 2.0f), -1.0f);
  // A non-integral offset is subtracted as it is: (3 - 0.5) * 2 = 5.
  EXPECT_EQ(dequantizeDynamicValue(3, 2.0f, 0.5f), 5.0f);
}

TEST(DequantizeDynamic, Int32BeyondF32Precision) {
  // f32(2^24 + 1) ties between 2^24 and 2^24 + 2: to even, 2^24.
  EXPECT_EQ(dequantizeDynamicValue(16777217, 1.0f, 0.0f), 16777216.0f);
  // 2^24 + 3 ties between 2^24 + 2 (odd significand) and 2^24 + 4.
  EXPECT_EQ(dequantizeDynamicValue(16777219, 1.0f, 0.0f), 16777220.0f);
  // INT32_MAX converts to 2^31 first, then 2^31 - (2^31 - 128) = 128 (exact
  // integer arithmetic would give 127).
  EXPECT_EQ(dequantizeDynamicValue(2147483647, 1.0f, 2147483520.0f), 128.0f);
  // INT32_MIN is exact: (-2^31 - 0) * 2^-31 = -1.
  EXPECT_EQ(dequantizeDynamicValue(std::numeric_limits<int32_t>::min(),
                                   std::ldexp(1.0f, -31), 0.0f),
            -1.0f);
}

TEST(DequantizeDynamic, NaNAndInfinityPropagate) {
  EXPECT_TRUE(std::isnan(dequantizeDynamicValue(1, kNaN, 0.0f)));
  EXPECT_TRUE(std::isnan(dequantizeDynamicValue(1, 1.0f, kNaN)));
  // 0 * inf is NaN.
  EXPECT_TRUE(std::isnan(dequantizeDynamicValue(5, kInf, 5.0f)));
  EXPECT_EQ(dequantizeDynamicValue(6, kInf, 5.0f), kInf);
  EXPECT_EQ(dequantizeDynamicValue(4, kInf, 5.0f), -kInf);
  // (5 - inf) * 2 = -inf.
  EXPECT_EQ(dequantizeDynamicValue(5, 2.0f, kInf), -kInf);
  // Overflow: (127 - (-128)) * 3e38 = inf.
  EXPECT_EQ(dequantizeDynamicValue(127, 3e38f, -128.0f), kInf);
}

TEST(DequantizeDynamic, Broadcasting) {
  // 2x3 codes; per-row scale [[0.5], [2]], per-column offset [[0, 1, 2]].
  std::vector<float> r =
      dequantizeDynamic({4, 5, 6, 1, 2, 3}, {2, 3}, {0.5f, 2.0f}, {2, 1},
                        {0.0f, 1.0f, 2.0f}, {1, 3});
  // Row 0: (4-0)*.5, (5-1)*.5, (6-2)*.5; row 1: (1-0)*2, (2-1)*2, (3-2)*2.
  EXPECT_EQ(r, (std::vector<float>{2.0f, 2.0f, 2.0f, 2.0f, 2.0f, 2.0f}));
  // Per tensor (1x1).
  r = dequantizeDynamic({-3, 7}, {1, 2}, {0.25f}, {1, 1}, {1.0f}, {1, 1});
  EXPECT_EQ(r, (std::vector<float>{-1.0f, 1.5f}));
}

TEST(BroadcastIndices, NumpyRules) {
  EXPECT_EQ(broadcastIndices({2, 3}, {2, 1}),
            (std::vector<int64_t>{0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(broadcastIndices({2, 3}, {1, 3}),
            (std::vector<int64_t>{0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(broadcastIndices({2, 3}, {1, 1}),
            (std::vector<int64_t>{0, 0, 0, 0, 0, 0}));
  // 2x2x2 with a [2, 1, 2] parameter: index (i, j, k) -> i * 2 + k.
  EXPECT_EQ(broadcastIndices({2, 2, 2}, {2, 1, 2}),
            (std::vector<int64_t>{0, 1, 0, 1, 2, 3, 2, 3}));
}

TEST(BroadcastIndicesDeathTest, RejectsNonBroadcastable) {
  EXPECT_DEATH(broadcastIndices({2, 3}, {2, 2}), "parameter dimension 1");
  EXPECT_DEATH(broadcastIndices({2, 3}, {3}), "parameter rank");
}

//===----------------------------------------------------------------------===//
// quantize_dynamic
//===----------------------------------------------------------------------===//

TEST(QuantizeDynamic, TiesToEven) {
  EXPECT_EQ(quantizeDynamicValue(2.5f, 1.0f, 0.0f, -128, 127), 2);
  EXPECT_EQ(quantizeDynamicValue(3.5f, 1.0f, 0.0f, -128, 127), 4);
  EXPECT_EQ(quantizeDynamicValue(-2.5f, 1.0f, 0.0f, -128, 127), -2);
  EXPECT_EQ(quantizeDynamicValue(-0.5f, 1.0f, 0.0f, -128, 127), 0);
  // 5 / 2 = 2.5 -> 2, plus offset 3 -> 5 (the rounding comes before the
  // offset: round(2.5 + 3) would be 6).
  EXPECT_EQ(quantizeDynamicValue(5.0f, 2.0f, 3.0f, -128, 127), 5);
}

TEST(QuantizeDynamic, Saturation) {
  EXPECT_EQ(quantizeDynamicValue(1000.0f, 1.0f, 0.0f, -128, 127), 127);
  EXPECT_EQ(quantizeDynamicValue(-1000.0f, 1.0f, 0.0f, -128, 127), -128);
  EXPECT_EQ(quantizeDynamicValue(-200.0f, 1.0f, 128.0f, 0, 255), 0);
  EXPECT_EQ(quantizeDynamicValue(200.0f, 1.0f, 128.0f, 0, 255), 255);
  EXPECT_EQ(quantizeDynamicValue(40000.0f, 1.0f, 0.0f, -32768, 32767), 32767);
  // 1e10 / 1 + (-1e10) = 0: the f32 sum of integral values is exact.
  EXPECT_EQ(quantizeDynamicValue(1e10f, 1.0f, -1e10f, -128, 127), 0);
  // The offset saturates too: 0 + 300 -> 127.
  EXPECT_EQ(quantizeDynamicValue(0.0f, 1.0f, 300.0f, -128, 127), 127);
}

TEST(QuantizeDynamic, NaNAndInfinity) {
  // NaN gives the offset (saturated), as qnt.quantize gives the zero point.
  EXPECT_EQ(quantizeDynamicValue(kNaN, 1.0f, 7.0f, -128, 127), 7);
  EXPECT_EQ(quantizeDynamicValue(kNaN, 1.0f, 300.0f, -128, 127), 127);
  EXPECT_EQ(quantizeDynamicValue(1.0f, kNaN, 7.0f, -128, 127), 7);
  EXPECT_EQ(quantizeDynamicValue(kInf, 1.0f, 0.0f, -128, 127), 127);
  EXPECT_EQ(quantizeDynamicValue(-kInf, 1.0f, 0.0f, -128, 127), -128);
  // Scale 0: 1 / 0 = inf, -1 / 0 = -inf, 0 / 0 = NaN (the offset).
  EXPECT_EQ(quantizeDynamicValue(1.0f, 0.0f, 5.0f, 0, 255), 255);
  EXPECT_EQ(quantizeDynamicValue(-1.0f, 0.0f, 5.0f, 0, 255), 0);
  EXPECT_EQ(quantizeDynamicValue(0.0f, 0.0f, 5.0f, 0, 255), 5);
  // Scale inf: 3 / inf = 0.
  EXPECT_EQ(quantizeDynamicValue(3.0f, kInf, 5.0f, 0, 255), 5);
  // A NaN or infinite offset (outside the contract): NaN -> 0, inf saturates.
  EXPECT_EQ(quantizeDynamicValue(3.0f, 1.0f, kNaN, -128, 127), 0);
  EXPECT_EQ(quantizeDynamicValue(3.0f, 1.0f, -kInf, -128, 127), -128);
}

TEST(QuantizeDynamic, NonIntegralOffsetRoundsHalfEven) {
  // Outside the contract: 0 + 2.5 = 2.5 -> 2; 1 + 2.5 = 3.5 -> 4.
  EXPECT_EQ(quantizeDynamicValue(0.0f, 1.0f, 2.5f, -128, 127), 2);
  EXPECT_EQ(quantizeDynamicValue(1.0f, 1.0f, 2.5f, -128, 127), 4);
}

TEST(QuantizeDynamic, Broadcasting) {
  // Per row: scale [[1], [0.5]], offset [[0], [10]].
  std::vector<int32_t> q =
      quantizeDynamic({1.5f, -1.5f, 1.0f, -3.0f}, {2, 2}, {1.0f, 0.5f}, {2, 1},
                      {0.0f, 10.0f}, {2, 1}, -128, 127);
  // Row 0: 1.5 -> 2, -1.5 -> -2; row 1: 1/.5 = 2 + 10, -3/.5 = -6 + 10.
  EXPECT_EQ(q, (std::vector<int32_t>{2, -2, 12, 4}));
}

//===----------------------------------------------------------------------===//
// dynamic_quantize, mode "onnx"
//===----------------------------------------------------------------------===//

TEST(DynamicQuantizeOnnx, OnnxBackendVectors) {
  // test_dynamicquantizelinear: scale 5/255 (0x3CA0A0A1), zero point 153.
  DynamicQuantized r =
      dynamicQuantizeOnnx({0.0f, 2.0f, -3.0f, -2.5f, 1.34f, 0.5f});
  EXPECT_EQ(bitsOf(r.scales.at(0)), 0x3CA0A0A1u);
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{153}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{153, 255, 0, 26, 221, 179}));

  // test_dynamicquantizelinear_max_adjusted: scale 4/255 (0x3C808081), 255.
  r = dynamicQuantizeOnnx({-1.0f, -2.1f, -1.3f, -2.5f, -3.34f, -4.0f});
  EXPECT_EQ(bitsOf(r.scales.at(0)), 0x3C808081u);
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{255}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{191, 121, 172, 96, 42, 0}));

  // test_dynamicquantizelinear_min_adjusted: scale 4/255, zero point 0.
  r = dynamicQuantizeOnnx({1.0f, 2.1f, 1.3f, 2.5f, 3.34f, 4.0f, 1.5f, 2.6f,
                           3.9f, 4.0f, 3.0f, 2.345f});
  EXPECT_EQ(bitsOf(r.scales.at(0)), 0x3C808081u);
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{0}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{64, 134, 83, 159, 213, 255, 96, 166,
                                           249, 255, 191, 149}));
}

TEST(DynamicQuantizeOnnx, ZeroPointTiesToEven) {
  // [-1, 509]: scale 510 / 255 = 2, zero point 0 - (-1 / 2) = 0.5 -> 0;
  // codes -0.5 -> 0 (+0), 254.5 -> 254.
  DynamicQuantized r = dynamicQuantizeOnnx({-1.0f, 509.0f});
  EXPECT_EQ(r.scales, (std::vector<float>{2.0f}));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{0}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{0, 254}));
  // [-3, 507]: scale 2, zero point 1.5 -> 2; codes -1.5 -> -2 + 2 = 0,
  // 253.5 -> 254, clamped to 255 - 2 = 253, + 2 = 255.
  r = dynamicQuantizeOnnx({-3.0f, 507.0f});
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{2}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{0, 255}));
}

TEST(DynamicQuantizeOnnx, AllZeroAndEmpty) {
  // min == max == 0: ONNX Runtime's scale 1 (not 0 / 255), zero point 0.
  DynamicQuantized r = dynamicQuantizeOnnx({0.0f, -0.0f, 0.0f});
  EXPECT_EQ(r.scales, (std::vector<float>{1.0f}));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{0}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{0, 0, 0}));
  r = dynamicQuantizeOnnx({});
  EXPECT_EQ(r.scales, (std::vector<float>{1.0f}));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{0}));
  EXPECT_TRUE(r.codes.empty());
}

TEST(DynamicQuantizeOnnx, NaNInput) {
  // A NaN makes max (and min) NaN: scale NaN; 0 - min / scale is NaN, which
  // std::min(255, NaN) turns into 255; every quotient is NaN -> code 0.
  DynamicQuantized r = dynamicQuantizeOnnx({1.0f, kNaN, -2.0f});
  EXPECT_TRUE(std::isnan(r.scales.at(0)));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{255}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{0, 0, 0}));
}

TEST(DynamicQuantizeOnnx, Infinities) {
  // [inf, 1]: scale inf, zero point 0 - 0 / inf = 0; inf / inf = NaN -> 0,
  // 1 / inf = 0 -> 0.
  DynamicQuantized r = dynamicQuantizeOnnx({kInf, 1.0f});
  EXPECT_EQ(r.scales, (std::vector<float>{kInf}));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{0}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{0, 0}));
  // [-inf, 1]: scale inf, 0 - (-inf / inf) = NaN -> zero point 255;
  // -inf / inf = NaN -> 0; 1 / inf = 0, clamped to 255 - 255 = 0, + 255.
  r = dynamicQuantizeOnnx({-kInf, 1.0f});
  EXPECT_EQ(r.scales, (std::vector<float>{kInf}));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{255}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{0, 255}));
  // Finite range that overflows: 3e38 - (-3e38) = inf.
  r = dynamicQuantizeOnnx({3e38f, -3e38f});
  EXPECT_EQ(r.scales, (std::vector<float>{kInf}));
}

TEST(DynamicQuantizeOnnx, ScaleUnderflow) {
  // The smallest subnormal 2^-149: 2^-149 / 255 rounds to 0; zero point
  // 0 - 0 / 0 = NaN -> 255; 2^-149 / 0 = inf -> clamped to 0, + 255.
  float tiny = floatOf(1u);
  DynamicQuantized r = dynamicQuantizeOnnx({tiny, 0.0f});
  EXPECT_EQ(r.scales, (std::vector<float>{0.0f}));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{255}));
  // 0 / 0 = NaN -> code 0.
  EXPECT_EQ(r.codes, (std::vector<int32_t>{255, 0}));
}

//===----------------------------------------------------------------------===//
// dynamic_quantize, mode "symmetric"
//===----------------------------------------------------------------------===//

TEST(DynamicQuantizeSymmetric, PerRow) {
  // Row 0: max|x| = 127 -> scale 1; 127, -63.5 -> -64, 0.5 -> 0, -2.5 -> -2.
  // Row 1: max|x| = 254 -> scale 2; 254 -> 127, 3 -> 1.5 -> 2,
  //        -5 -> -2.5 -> -2, 1 -> 0.5 -> 0.
  // Row 2: all zero (one of them -0) -> scale 1, codes 0.
  DynamicQuantized r = dynamicQuantizeSymmetric(
      {127.0f, -63.5f, 0.5f, -2.5f, 254.0f, 3.0f, -5.0f, 1.0f, 0.0f, -0.0f,
       0.0f, 0.0f},
      {3, 4}, 0);
  EXPECT_EQ(r.scales, (std::vector<float>{1.0f, 2.0f, 1.0f}));
  EXPECT_EQ(r.zeroPoints, (std::vector<int32_t>{0, 0, 0}));
  EXPECT_EQ(r.codes,
            (std::vector<int32_t>{127, -64, 0, -2, 127, 2, -2, 0, 0, 0, 0, 0}));
}

TEST(DynamicQuantizeSymmetric, PerColumn) {
  // 2x2, axis 1: column 0 = [-127, 1.5] -> scale 1, codes -127, 2;
  // column 1 = [0, 0] -> scale 1, codes 0.
  DynamicQuantized r =
      dynamicQuantizeSymmetric({-127.0f, 0.0f, 1.5f, 0.0f}, {2, 2}, 1);
  EXPECT_EQ(r.scales, (std::vector<float>{1.0f, 1.0f}));
  EXPECT_EQ(r.codes, (std::vector<int32_t>{-127, 0, 2, 0}));
}

TEST(DynamicQuantizeSymmetric, ScaleIsMaxOver127InF32) {
  // max|x| = 2: scale = f32(2 / 127) = 0x3C810204.
  DynamicQuantized r = dynamicQuantizeSymmetric({2.0f, -1.0f}, {1, 2}, 0);
  EXPECT_EQ(bitsOf(r.scales.at(0)), 0x3C810204u);
  // 2 / scale rounds to 127. f32(2 / 127) lies 5.9e-11 below 2 / 127, and
  // f32(-1 / scale) is exactly -63.5 (checked with numpy float32): a tie,
  // which goes to the even -64.
  EXPECT_EQ(r.codes, (std::vector<int32_t>{127, -64}));
}

TEST(DynamicQuantizeSymmetric, NaNAndInfinityOnlyAffectTheirSlice) {
  // Row 0 holds a NaN: scale NaN, every quotient NaN -> 0.
  // Row 1 holds inf: scale inf; inf / inf = NaN -> 0, 5 / inf = 0.
  // Row 2 is ordinary: max 127 -> scale 1.
  DynamicQuantized r = dynamicQuantizeSymmetric(
      {kNaN, 5.0f, kInf, 5.0f, 127.0f, -3.0f}, {3, 2}, 0);
  EXPECT_TRUE(std::isnan(r.scales.at(0)));
  EXPECT_EQ(r.scales.at(1), kInf);
  EXPECT_EQ(r.scales.at(2), 1.0f);
  EXPECT_EQ(r.codes, (std::vector<int32_t>{0, 0, 0, 0, 127, -3}));
}

TEST(IeeeMinMax, NaNAndSignedZero) {
  EXPECT_TRUE(std::isnan(ieeeMaximum(kNaN, 1.0f)));
  EXPECT_TRUE(std::isnan(ieeeMaximum(1.0f, kNaN)));
  EXPECT_TRUE(std::isnan(ieeeMinimum(1.0f, kNaN)));
  EXPECT_FALSE(std::signbit(ieeeMaximum(-0.0f, 0.0f)));
  EXPECT_TRUE(std::signbit(ieeeMinimum(0.0f, -0.0f)));
  EXPECT_EQ(ieeeMaximum(-1.0f, 2.0f), 2.0f);
  EXPECT_EQ(ieeeMinimum(-1.0f, 2.0f), -1.0f);
}

} // namespace
