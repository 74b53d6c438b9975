//===- KernelsTest.cpp - Tests of the reference kernels -------------------===//
//
// Expected values come from the contract's worked examples, from hand
// derivations in the comments, or (for random convolutions) from an
// independent oracle in this file that materializes the zero-point padding
// and lowers the convolution to explicit patches.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/Kernels.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

using namespace quantopt::ref;

namespace {

constexpr int32_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int32_t kI32Max = std::numeric_limits<int32_t>::max();

constexpr RoundingMode kAllModes[] = {
    RoundingMode::Double, RoundingMode::Single, RoundingMode::Away,
    RoundingMode::HalfEven, RoundingMode::Float};

QuantParams u8(double scale, int32_t zeroPoint) {
  return QuantParams::perTensor(scale, zeroPoint, 0, 255);
}
QuantParams i8(double scale, int32_t zeroPoint) {
  return QuantParams::perTensor(scale, zeroPoint, -128, 127);
}
QuantParams i32(double scale) {
  return QuantParams::perTensor(scale, 0, kI32Min, kI32Max);
}

//===----------------------------------------------------------------------===//
// QuantParams
//===----------------------------------------------------------------------===//

TEST(QuantParamsTest, PerTensorIgnoresTheChannel) {
  QuantParams p = QuantParams::perTensor(0.25, 128, 0, 255);
  EXPECT_EQ(p.axis, -1);
  EXPECT_EQ(p.storageMin, 0);
  EXPECT_EQ(p.storageMax, 255);
  EXPECT_EQ(p.scale(0), 0.25);
  EXPECT_EQ(p.scale(5), 0.25);
  EXPECT_EQ(p.zeroPoint(3), 128);
}

TEST(QuantParamsTest, PerAxisIndexesByChannel) {
  QuantParams p = QuantParams::perAxis(3, {0.5, 0.25}, {1, -2}, -127, 127);
  EXPECT_EQ(p.axis, 3);
  EXPECT_EQ(p.scale(0), 0.5);
  EXPECT_EQ(p.scale(1), 0.25);
  EXPECT_EQ(p.zeroPoint(0), 1);
  EXPECT_EQ(p.zeroPoint(1), -2);
  EXPECT_EQ(p.storageMin, -127);
  EXPECT_EQ(p.storageMax, 127);
}

//===----------------------------------------------------------------------===//
// quantize / dequantize
//===----------------------------------------------------------------------===//

TEST(QuantizeTest, LectureSeedsU8) {
  // u8 s = 0.25 z = 128: 0 -> 128, 0.5 -> 130, -0.5 -> 126.
  EXPECT_EQ(quantize({0.0f, 0.5f, -0.5f}, {3}, u8(0.25, 128)),
            (std::vector<int32_t>{128, 130, 126}));
  // Raw code 0 dequantizes to (0 - 128) * 0.25 = -32.
  EXPECT_EQ(dequantize({0}, {1}, u8(0.25, 128)), (std::vector<float>{-32.0f}));
  // 0.625 / 0.25 = 2.5 rounds to even 2 (z = 0), which reads back as 0.5.
  std::vector<int32_t> tie = quantize({0.625f}, {1}, u8(0.25, 0));
  EXPECT_EQ(tie, (std::vector<int32_t>{2}));
  EXPECT_EQ(dequantize(tie, {1}, u8(0.25, 0)), (std::vector<float>{0.5f}));
}

TEST(QuantizeTest, DequantizeInt8Seed) {
  // int8, scale 0.25, offset 0: [-32, -31, -1, 0, 1, 127] ->
  // [-8, -7.75, -0.25, 0, 0.25, 31.75].
  EXPECT_EQ(dequantize({-32, -31, -1, 0, 1, 127}, {2, 3}, i8(0.25, 0)),
            (std::vector<float>{-8.0f, -7.75f, -0.25f, 0.0f, 0.25f, 31.75f}));
}

TEST(QuantizeTest, PerAxisUsesTheChannelOfEachElement) {
  // Shape [2, 3], axis 0: row 0 has s = 0.5 z = 0, row 1 s = 0.25 z = 10.
  // 1.0 -> 2 in row 0 and 4 + 10 = 14 in row 1.
  QuantParams rows = QuantParams::perAxis(0, {0.5, 0.25}, {0, 10}, -128, 127);
  EXPECT_EQ(quantize({1, 1, 1, 1, 1, 1}, {2, 3}, rows),
            (std::vector<int32_t>{2, 2, 2, 14, 14, 14}));
  // Axis 1 (the innermost): columns alternate through 3 channels.
  QuantParams cols =
      QuantParams::perAxis(1, {1.0, 0.5, 0.25}, {0, 0, 0}, -128, 127);
  EXPECT_EQ(quantize({1, 1, 1, -1, -1, -1}, {2, 3}, cols),
            (std::vector<int32_t>{1, 2, 4, -1, -2, -4}));
  EXPECT_EQ(dequantize({1, 2, 4, -1, -2, -4}, {2, 3}, cols),
            (std::vector<float>{1, 1, 1, -1, -1, -1}));
  // A middle axis of a rank-3 shape [2, 2, 2], axis 1: the channel is
  // (index / 2) % 2.
  QuantParams mid = QuantParams::perAxis(1, {1.0, 0.5}, {0, 100}, -128, 127);
  EXPECT_EQ(quantize({1, 1, 1, 1, 1, 1, 1, 1}, {2, 2, 2}, mid),
            (std::vector<int32_t>{1, 1, 102, 102, 1, 1, 102, 102}));
}

TEST(QuantizeTest, SpecialValuesAndStorageTypes) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(quantize({nan, inf, -inf, 1e30f, -1e30f}, {5}, u8(0.25, 128)),
            (std::vector<int32_t>{128, 255, 0, 255, 0}));
  // Narrow range i8<-127:127>.
  QuantParams narrow = QuantParams::perTensor(0.01, 0, -127, 127);
  EXPECT_EQ(quantize({-2.0f, -inf, 2.0f}, {3}, narrow),
            (std::vector<int32_t>{-127, -127, 127}));
  // i16: 1000 / 0.5 = 2000, 20000 / 0.5 = 40000 -> 32767.
  QuantParams i16 = QuantParams::perTensor(0.5, 0, -32768, 32767);
  EXPECT_EQ(quantize({1000.0f, 20000.0f, -20000.0f}, {3}, i16),
            (std::vector<int32_t>{2000, 32767, -32768}));
}

TEST(QuantizeTest, PerChannelAccumulatorDequantizes) {
  // Accumulator 10 with weight scales 0.5 and 0.25 (S_X = 0.25): accumulator
  // scales 0.125 and 0.0625, so 10 reads as 1.25 and 0.625.
  QuantParams acc =
      QuantParams::perAxis(1, {0.125, 0.0625}, {0, 0}, kI32Min, kI32Max);
  EXPECT_EQ(dequantize({10, 10}, {1, 2}, acc),
            (std::vector<float>{1.25f, 0.625f}));
}

//===----------------------------------------------------------------------===//
// matmul + requantize: the lecture examples
//===----------------------------------------------------------------------===//

TEST(MatmulTest, LectureSeedDotProduct) {
  // X = [130, 126] (u8, z = 128, s = 0.25), W = [3, -2] (K = 2, N = 1,
  // s = 0.5, z = 0): (130 - 128) * 3 + (126 - 128) * (-2) = 6 + 4 = 10,
  // i.e. 1.25 at scale 0.25 * 0.5 = 0.125.
  std::vector<int32_t> acc = matmul(1, 2, 1, {130, 126}, 128, {3, -2}, {0}, {});
  ASSERT_EQ(acc, (std::vector<int32_t>{10}));
  EXPECT_EQ(dequantize(acc, {1, 1}, i32(0.125)), (std::vector<float>{1.25f}));
  // Requantized to (s = 0.25, z = 128, u8): M = 0.125 / 0.25 = 0.5,
  // 10 * 0.5 = 5 exactly, + 128 = 133, in every mode.
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(requantize(acc, {1, 1}, i32(0.125), u8(0.25, 128), mode),
              (std::vector<int32_t>{133}))
        << stringifyRoundingMode(mode);
}

TEST(MatmulTest, LectureSeedPerChannelRequantize) {
  // The accumulator [10, 10] with per-channel scales 0.125 and 0.0625,
  // requantized to u8 (s = 0.25, z = 128): channel 0 has M = 0.5 -> 5 ->
  // 133; channel 1 has M = 0.25 -> 2.5, a tie: Double (SRDHM(10, 0.5) = 5,
  // RDBP(5, 1) = 3), Single and Away give 3 -> 131; HalfEven and Float 2 ->
  // 130.
  QuantParams acc =
      QuantParams::perAxis(1, {0.125, 0.0625}, {0, 0}, kI32Min, kI32Max);
  const int32_t second[5] = {131, 131, 131, 130, 130};
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(requantize({10, 10}, {1, 2}, acc, u8(0.25, 128), mode),
              (std::vector<int32_t>{133, second[static_cast<int>(mode)]}))
        << stringifyRoundingMode(mode);
}

TEST(MatmulTest, LectureSeedFullyConnectedNeuron) {
  // S_X = 0.05 Z_X = -10 (i8), S_W = 0.01 Z_W = 0 (i8), S_Y = 0.1 Z_Y = -5
  // (i8). q_W = [50, -30, 20], q_X = [30, 10, 70], bias 0.27.
  // q_b = quantize(0.27, S_X * S_W = 0.0005) = 540.
  QuantParams biasParams = i32(0.0005);
  std::vector<int32_t> qb = quantize({0.27f}, {1}, biasParams);
  ASSERT_EQ(qb, (std::vector<int32_t>{540}));
  // sum_k (x - Z_X) * w + q_b = 40 * 50 + 20 * (-30) + 80 * 20 + 540
  //                           = 2000 - 600 + 1600 + 540 = 3540.
  std::vector<int32_t> acc =
      matmul(1, 3, 1, {30, 10, 70}, -10, {50, -30, 20}, {0}, qb);
  ASSERT_EQ(acc, (std::vector<int32_t>{3540}));
  // The folded form: q_bias = 540 - Z_X * sum(q_W) = 540 + 10 * 40 = 940,
  // and sum q_X * q_W + 940 = 1500 - 300 + 1400 + 940 = 3540.
  EXPECT_EQ(matmul(1, 3, 1, {30, 10, 70}, 0, {50, -30, 20}, {0}, {940}),
            (std::vector<int32_t>{3540}));
  // M = 0.0005 / 0.1 = 0.005; 3540 * 0.005 = 17.7 -> 18; + Z_Y = 13 (not a
  // tie, so every mode agrees).
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(requantize(acc, {1, 1}, biasParams, i8(0.1, -5), mode),
              (std::vector<int32_t>{13}))
        << stringifyRoundingMode(mode);
}

TEST(MatmulTest, LectureSeedAsymmetricTwoByTwo) {
  // The seed "q_W = [[3,1],[4,2]], q_X = [[5,1],[3,6]], Z_W = 1, Z_X = 2 ->
  // [[6,-2],[10,1]]" is W * X with W as the M x K left operand:
  //   (3-1)(5-2) + (1-1)(3-2) = 6     (3-1)(1-2) + (1-1)(6-2) = -2
  //   (4-1)(5-2) + (2-1)(3-2) = 10    (4-1)(1-2) + (2-1)(6-2) = 1
  // so matmul gets the W codes as its x operand (zero point 1) and the X
  // codes as its K x N w operand (zero point 2).
  EXPECT_EQ(matmul(2, 2, 2, {3, 1, 4, 2}, 1, {5, 1, 3, 6}, {2}, {}),
            (std::vector<int32_t>{6, -2, 10, 1}));
}

TEST(MatmulTest, PerColumnZeroPointsAndBias) {
  // x = [[1, 2, 3]] (zx = 1 -> [0, 1, 2]); w is 3 x 2 = [[1, 2], [3, 4],
  // [5, 6]] with zw = [1, 2] -> columns [0, 2, 4] and [0, 2, 4];
  // col 0: 0*0 + 1*2 + 2*4 = 10, + 5; col 1: the same 10, - 7.
  EXPECT_EQ(matmul(1, 3, 2, {1, 2, 3}, 1, {1, 2, 3, 4, 5, 6}, {1, 2}, {5, -7}),
            (std::vector<int32_t>{15, 3}));
  // K = 0: only the bias remains.
  EXPECT_EQ(matmul(2, 0, 2, {}, 3, {}, {0}, {4, -4}),
            (std::vector<int32_t>{4, -4, 4, -4}));
}

TEST(MatmulTest, ExtremeButInRangeSums) {
  // u8 codes 255 with zx = 0 and i8 weights -128 with zw = 127:
  // 255 * (-255) = -65025 per term, times 3 = -195075.
  EXPECT_EQ(matmul(1, 3, 1, {255, 255, 255}, 0, {-128, -128, -128}, {127}, {}),
            (std::vector<int32_t>{-195075}));
  // Sums next to the int32 limits are fine: 255 * 127 = 32385 on top of a
  // bias of INT32_MIN, and -32385 on top of INT32_MAX.
  EXPECT_EQ(matmul(1, 1, 1, {255}, 0, {127}, {0}, {kI32Min}),
            (std::vector<int32_t>{kI32Min + 32385}));
  EXPECT_EQ(matmul(1, 1, 1, {255}, 0, {-127}, {0}, {kI32Max}),
            (std::vector<int32_t>{kI32Max - 32385}));
}

TEST(MatmulDeathTest, OverflowAbortsNamingTheElement) {
  // 2 * (2^30 * 1) + ... : two terms of 2^30 each sum to 2^31 > INT32_MAX.
  // (Codes this large only occur in tests; the verifier rejects such shapes
  // for real storage types.)
  const int32_t big = 1 << 30;
  EXPECT_DEATH(matmul(1, 2, 1, {big, big}, 0, {1, 1}, {0}, {}),
               "matmul: accumulator overflow: element 0");
}

TEST(MatmulTest, RuntimeBiasSaturatesInsteadOfWrapping) {
  // Products 1 on top of INT32_MAX would wrap to INT32_MIN; the contract says
  // saturate. -1 on top of INT32_MIN likewise stays at INT32_MIN.
  EXPECT_EQ(matmul(1, 1, 2, {1}, 0, {0, 1}, {0}, {0, kI32Max}),
            (std::vector<int32_t>{0, kI32Max}));
  EXPECT_EQ(matmul(1, 1, 1, {1}, 0, {-1}, {0}, {kI32Min}),
            (std::vector<int32_t>{kI32Min}));
}

//===----------------------------------------------------------------------===//
// requantize
//===----------------------------------------------------------------------===//

TEST(RequantizeTest, ClampNarrowsTheOutputRange) {
  // u8 z = 128, M = 0.5: accumulators [-100, -2, 0, 2, 100, 1000] ->
  // [78, 127, 128, 129, 178, 255]. A fused ReLU (clamp [128, 255]) lifts
  // the negatives to 128; ReLU6 at s = 0.25 is codes [128, 152].
  std::vector<int32_t> acc = {-100, -2, 0, 2, 100, 1000};
  QuantParams in = i32(0.125);
  QuantParams out = u8(0.25, 128);
  EXPECT_EQ(requantize(acc, {6}, in, out, RoundingMode::Double),
            (std::vector<int32_t>{78, 127, 128, 129, 178, 255}));
  EXPECT_EQ(requantize(acc, {6}, in, out, RoundingMode::Double,
                       std::make_pair(128, 255)),
            (std::vector<int32_t>{128, 128, 128, 129, 178, 255}));
  EXPECT_EQ(requantize(acc, {6}, in, out, RoundingMode::Double,
                       std::make_pair(128, 152)),
            (std::vector<int32_t>{128, 128, 128, 129, 152, 152}));
  // A clamp wider than the storage range does not widen it.
  EXPECT_EQ(requantize(acc, {6}, in, out, RoundingMode::Single,
                       std::make_pair(-1000, 1000)),
            (std::vector<int32_t>{78, 127, 128, 129, 178, 255}));
}

TEST(RequantizeTest, InputZeroPointIsSubtractedFirst) {
  // u8 (s = 0.5, z = 100) to i8 (s = 0.25, z = -3): M = 2;
  // (110 - 100) * 2 - 3 = 17; (0 - 100) * 2 - 3 = -203 -> -128;
  // (255 - 100) * 2 - 3 = 307 -> 127.
  EXPECT_EQ(requantize({110, 0, 255, 100}, {4}, u8(0.5, 100), i8(0.25, -3),
                       RoundingMode::HalfEven),
            (std::vector<int32_t>{17, -128, 127, -3}));
}

TEST(RequantizeTest, PerAxisOutputWithPerTensorInput) {
  // Input per tensor (s = 1, z = 0), output per axis 0 with s = {0.5, 4} and
  // z = {0, 1}: row 0 scales by 2, row 1 by 0.25 (+1).
  // [[3, -3], [6, -6]] -> [[6, -6], [1.5 -> per mode, -1.5 -> per mode]].
  QuantParams out = QuantParams::perAxis(0, {0.5, 4.0}, {0, 1}, -128, 127);
  QuantParams in = QuantParams::perTensor(1.0, 0, -128, 127);
  // Row 1: 6 * 0.25 = 1.5 -> 2 in every mode (Double: SRDHM(6, 2^30) = 3,
  // RDBP(3, 1) = 2); -1.5: Double -2, Single -1, Away -2, HalfEven -2,
  // Float -2; then + 1.
  const int32_t last[5] = {-1, 0, -1, -1, -1};
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(requantize({3, -3, 6, -6}, {2, 2}, in, out, mode),
              (std::vector<int32_t>{6, -6, 3, last[static_cast<int>(mode)]}))
        << stringifyRoundingMode(mode);
}

TEST(RequantizeTest, Int16AndNarrowOutputs) {
  QuantParams i16 = QuantParams::perTensor(1.0, 0, -32768, 32767);
  QuantParams narrow = QuantParams::perTensor(1.0, 0, -127, 127);
  // M = 0.5 from s = 0.5 to s = 1.
  for (RoundingMode mode : kAllModes) {
    EXPECT_EQ(requantize({100000, -100000, 4000}, {3}, i32(0.5), i16, mode),
              (std::vector<int32_t>{32767, -32768, 2000}));
    EXPECT_EQ(
        requantize({kI32Min, kI32Max, -254, 254}, {4}, i32(0.5), narrow, mode),
        (std::vector<int32_t>{-127, 127, -127, 127}));
  }
}

TEST(RequantizeDeathTest, EmptyClampAborts) {
  EXPECT_DEATH(requantize({1}, {1}, i32(1.0), u8(1.0, 0), RoundingMode::Double,
                          std::make_pair(300, 400)),
               "requantize: clamp");
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

Conv2DShape makeShape(int64_t batch, int64_t inH, int64_t inW, int64_t inC,
                      int64_t kernelH, int64_t kernelW, int64_t outC) {
  Conv2DShape s;
  s.batch = batch;
  s.inH = inH;
  s.inW = inW;
  s.inC = inC;
  s.kernelH = kernelH;
  s.kernelW = kernelW;
  s.outC = outC;
  return s;
}

TEST(Conv2DTest, OutputSizeFormula) {
  Conv2DShape s = makeShape(1, 8, 8, 3, 3, 3, 4);
  s.padTop = s.padBottom = s.padLeft = s.padRight = 1;
  EXPECT_EQ(s.outH(), 8); // (8 + 2 - 2 - 1) / 1 + 1
  EXPECT_EQ(s.outW(), 8);
  s.strideH = 2;
  s.dilationW = 2;
  s.padRight = 0;
  EXPECT_EQ(s.outH(), 4); // (8 + 2 - 2 - 1) / 2 + 1 = 3 + 1
  EXPECT_EQ(s.outW(), 5); // (8 + 1 - 4 - 1) / 1 + 1
  // A kernel larger than the (padded) input has no valid position.
  Conv2DShape big = makeShape(1, 2, 2, 1, 3, 3, 1);
  EXPECT_EQ(big.outH(), 0);
  EXPECT_EQ(big.outW(), 0);
  EXPECT_TRUE(conv2d(big, {0, 0, 0, 0}, 0, std::vector<int32_t>(9, 1), {0}, {})
                  .empty());
}

TEST(Conv2DTest, PaddingHoldsTheZeroPointNotCodeZero) {
  // 3x3 input of code 6 with zx = 5 (real value 1 everywhere), 3x3 kernel of
  // ones (zw = 0), padding 1: each output counts the in-bounds taps: 4 at
  // corners, 6 on edges, 9 in the middle. Padding with raw code 0 would add
  // (0 - 5) per padded tap instead, e.g. 4 - 25 = -21 at a corner.
  Conv2DShape s = makeShape(1, 3, 3, 1, 3, 3, 1);
  s.padTop = s.padBottom = s.padLeft = s.padRight = 1;
  EXPECT_EQ(conv2d(s, std::vector<int32_t>(9, 6), 5, std::vector<int32_t>(9, 1),
                   {0}, {}),
            (std::vector<int32_t>{4, 6, 4, 6, 9, 6, 4, 6, 4}));
}

TEST(Conv2DTest, StrideAndDilation) {
  // x[r][c] = 5r + c on a 5x5 input (zx = 0); 2x2 kernel [[1, 2], [3, 4]],
  // dilation 2, stride 2, no padding: outH = (5 - 2 - 1) / 2 + 1 = 2.
  // out(oh, ow) = x[2oh][2ow] + 2 x[2oh][2ow+2] + 3 x[2oh+2][2ow] +
  //               4 x[2oh+2][2ow+2]:
  //   (0,0): 0 + 2*2 + 3*10 + 4*12 = 82     (0,1): 2 + 2*4 + 3*12 + 4*14 = 102
  //   (1,0): 10 + 2*12 + 3*20 + 4*22 = 182  (1,1): 12 + 2*14 + 3*22 + 4*24 =
  //   202.
  Conv2DShape s = makeShape(1, 5, 5, 1, 2, 2, 1);
  s.strideH = s.strideW = 2;
  s.dilationH = s.dilationW = 2;
  std::vector<int32_t> x(25);
  for (int i = 0; i < 25; ++i)
    x[i] = i;
  EXPECT_EQ(conv2d(s, x, 0, {1, 2, 3, 4}, {0}, {}),
            (std::vector<int32_t>{82, 102, 182, 202}));
}

TEST(Conv2DTest, GroupsSplitInputChannels) {
  // 1x1 kernel, inC = 4, outC = 2, groups = 2: W is 1x1x2x2 (HWCF) with
  // flat [w(c0,f0), w(c0,f1), w(c1,f0), w(c1,f1)] = [10, 100, 20, 200].
  // Filter 0 (group 0) reads input channels 0 and 1: 1*10 + 2*20 = 50.
  // Filter 1 (group 1) reads channels 2 and 3: 3*100 + 4*200 = 1100.
  Conv2DShape s = makeShape(1, 1, 1, 4, 1, 1, 2);
  s.groups = 2;
  EXPECT_EQ(conv2d(s, {1, 2, 3, 4}, 0, {10, 100, 20, 200}, {0}, {}),
            (std::vector<int32_t>{50, 1100}));
}

TEST(Conv2DTest, DepthwiseWithChannelMultiplier) {
  // groups == inC == 2, outC = 4: filters 0, 1 read channel 0, filters 2, 3
  // read channel 1. x = [5, 7] with zx = 1 -> [4, 6]; W (1x1x1x4) =
  // [1, 2, 3, 4] -> [4*1, 4*2, 6*3, 6*4].
  Conv2DShape s = makeShape(1, 1, 1, 2, 1, 1, 4);
  s.groups = 2;
  EXPECT_EQ(conv2d(s, {5, 7}, 1, {1, 2, 3, 4}, {0}, {}),
            (std::vector<int32_t>{4, 8, 18, 24}));
}

TEST(Conv2DTest, PerFilterZeroPointsAndBias) {
  // x = 10 (zx = 2 -> 8); filters w = [5, 5] with zw = [1, 3] -> [4, 2];
  // bias [100, -100]: 8*4 + 100 = 132, 8*2 - 100 = -84.
  Conv2DShape s = makeShape(1, 1, 1, 1, 1, 1, 2);
  EXPECT_EQ(conv2d(s, {10}, 2, {5, 5}, {1, 3}, {100, -100}),
            (std::vector<int32_t>{132, -84}));
}

TEST(Conv2DDeathTest, OverflowAborts) {
  Conv2DShape s = makeShape(1, 1, 2, 1, 1, 2, 1);
  EXPECT_DEATH(conv2d(s, {1 << 30, 1 << 30}, 0, {1, 1}, {0}, {}),
               "conv2d: accumulator overflow: element 0");
}

// Independent oracle: copy the input into an explicitly padded buffer filled
// with zx, then for every output position gather the dilated patch of the
// filter's group into a vector and take its dot product with the filter.
std::vector<int32_t> conv2dOracle(const Conv2DShape &s,
                                  const std::vector<int32_t> &x, int32_t zx,
                                  const std::vector<int32_t> &w,
                                  const std::vector<int32_t> &zw,
                                  const std::vector<int32_t> &bias) {
  const int64_t ph = s.inH + s.padTop + s.padBottom;
  const int64_t pw = s.inW + s.padLeft + s.padRight;
  std::vector<int32_t> padded(s.batch * ph * pw * s.inC, zx);
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t h = 0; h < s.inH; ++h)
      for (int64_t v = 0; v < s.inW; ++v)
        for (int64_t c = 0; c < s.inC; ++c)
          padded[((b * ph + h + s.padTop) * pw + v + s.padLeft) * s.inC + c] =
              x[((b * s.inH + h) * s.inW + v) * s.inC + c];
  const int64_t cg = s.inC / s.groups, fg = s.outC / s.groups;
  const int64_t oh = (ph - s.dilationH * (s.kernelH - 1) - 1) / s.strideH + 1;
  const int64_t ow = (pw - s.dilationW * (s.kernelW - 1) - 1) / s.strideW + 1;
  std::vector<int32_t> out;
  for (int64_t b = 0; b < s.batch; ++b)
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j)
        for (int64_t f = 0; f < s.outC; ++f) {
          std::vector<int64_t> patch, filter;
          for (int64_t kh = 0; kh < s.kernelH; ++kh)
            for (int64_t kw = 0; kw < s.kernelW; ++kw)
              for (int64_t c = 0; c < cg; ++c) {
                int64_t row = i * s.strideH + kh * s.dilationH;
                int64_t col = j * s.strideW + kw * s.dilationW;
                patch.push_back(padded[((b * ph + row) * pw + col) * s.inC +
                                       (f / fg) * cg + c]);
                filter.push_back(
                    w[((kh * s.kernelW + kw) * cg + c) * s.outC + f]);
              }
          int64_t acc = bias.empty() ? 0 : bias[f];
          int64_t zwF = zw.size() == 1 ? zw[0] : zw[f];
          for (size_t t = 0; t < patch.size(); ++t)
            acc += (patch[t] - zx) * (filter[t] - zwF);
          out.push_back(static_cast<int32_t>(acc));
        }
  return out;
}

TEST(Conv2DTest, RandomShapesMatchThePaddedPatchOracle) {
  const uint32_t seed = 20240611;
  std::mt19937 rng(seed);
  auto pick = [&](int lo, int hi) {
    return lo + static_cast<int>(rng() % uint32_t(hi - lo + 1));
  };
  for (int trial = 0; trial < 300; ++trial) {
    Conv2DShape s = makeShape(pick(1, 2), pick(1, 7), pick(1, 7), 0, pick(1, 3),
                              pick(1, 3), 0);
    s.groups = pick(1, 3);
    s.inC = s.groups * pick(1, 3);
    s.outC = s.groups * pick(1, 3);
    s.strideH = pick(1, 3);
    s.strideW = pick(1, 3);
    s.dilationH = pick(1, 2);
    s.dilationW = pick(1, 2);
    s.padTop = pick(0, 2);
    s.padBottom = pick(0, 2);
    s.padLeft = pick(0, 2);
    s.padRight = pick(0, 2);
    if (s.outH() < 1 || s.outW() < 1)
      continue;
    // u8 activations, i8 weights (per filter zero points half the time).
    int32_t zx = pick(0, 255);
    std::vector<int32_t> x(s.batch * s.inH * s.inW * s.inC);
    for (int32_t &v : x)
      v = pick(0, 255);
    std::vector<int32_t> w(s.kernelH * s.kernelW * (s.inC / s.groups) * s.outC);
    for (int32_t &v : w)
      v = pick(-128, 127);
    std::vector<int32_t> zw(trial % 2 ? s.outC : 1);
    for (int32_t &v : zw)
      v = pick(-128, 127);
    std::vector<int32_t> bias;
    if (trial % 3)
      for (int64_t f = 0; f < s.outC; ++f)
        bias.push_back(pick(-100000, 100000));
    ASSERT_EQ(conv2d(s, x, zx, w, zw, bias),
              conv2dOracle(s, x, zx, w, zw, bias))
        << "seed " << seed << " trial " << trial;
  }
}

} // namespace
