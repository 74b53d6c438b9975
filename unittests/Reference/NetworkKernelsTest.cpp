//===- NetworkKernelsTest.cpp - Tests of the whole-network kernels --------===//
//
// Hand-computed cases for add, max/avg pooling and concat. Every expected
// value is derived in the comment next to it from the contract's formulas,
// never from the kernel under test. The runtime oracles (TFLite's add, ONNX
// Runtime's QLinearAdd) live in NetworkOracleTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/NetworkKernels.h"

#include "gtest/gtest.h"

#include <cstdint>
#include <vector>

using namespace quantopt::ref;

namespace {

using Codes = std::vector<int32_t>;

QuantParams u8(double scale, int32_t zeroPoint) {
  return QuantParams::perTensor(scale, zeroPoint, 0, 255);
}
QuantParams i8(double scale, int32_t zeroPoint) {
  return QuantParams::perTensor(scale, zeroPoint, -128, 127);
}
QuantParams i16(double scale, int32_t zeroPoint) {
  return QuantParams::perTensor(scale, zeroPoint, -32768, 32767);
}

constexpr RoundingMode kAllModes[] = {
    RoundingMode::Double, RoundingMode::Single, RoundingMode::Away,
    RoundingMode::HalfEven, RoundingMode::Float};

//===----------------------------------------------------------------------===//
// Add: multipliers
//===----------------------------------------------------------------------===//

TEST(NetworkAdd, MultipliersFollowTFLitePrepare) {
  // S_a = 0.5, S_b = 0.25, S_y = 0.5, 8-bit result: left_shift 20,
  // twice_max = 1.0, M_a = 0.5 = 0.5 * 2^0 -> {2^30, 0},
  // M_b = 0.25 = 0.5 * 2^-1 -> {2^30, 1},
  // M_out = 1 / (2^20 * 0.5) = 2^-19 = 0.5 * 2^-18 -> {2^30, 18}.
  AddMultipliers m = makeAddMultipliers(0.5, 0.25, 0.5, 8);
  EXPECT_EQ(m.leftShift, 20);
  EXPECT_EQ(m.a, (QuantizedMultiplier{1 << 30, 0}));
  EXPECT_EQ(m.b, (QuantizedMultiplier{1 << 30, 1}));
  EXPECT_EQ(m.out, (QuantizedMultiplier{1 << 30, 18}));
  // 16-bit result: left_shift 15; M_out = 1 / (2^15 * 0.5) = 2^-14
  // = 0.5 * 2^-13.
  m = makeAddMultipliers(0.5, 0.25, 0.5, 16);
  EXPECT_EQ(m.leftShift, 15);
  EXPECT_EQ(m.out, (QuantizedMultiplier{1 << 30, 13}));
}

//===----------------------------------------------------------------------===//
// Add: values
//===----------------------------------------------------------------------===//

TEST(NetworkAdd, ExactSumAgreesInEveryMode) {
  // u8 (0.5, 128) everywhere. a = 130 is real 1.0, b = 131 is 1.5; y = 2.5
  // is code 128 + 5 = 133. Integer path: a1 = 2 << 20, sa = 2^20;
  // b1 = 3 << 20, sb = 1.5 * 2^20; raw = 2.5 * 2^20, times 2^-19 = 5, exact.
  // Float path: r = 1, v = 2 + 3 = 5.
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(add({130}, {1}, u8(0.5, 128), {131}, {1}, u8(0.5, 128), {1},
                  u8(0.5, 128), 8, mode),
              Codes{133})
        << stringifyRoundingMode(mode);
}

TEST(NetworkAdd, TiesInEachMode) {
  // S_a = S_b = 1 (i8, z = 0), S_y = 2 (i8, z = 10); b = 0, so y = a / 2:
  // a in {1, -1, 3, -3} is real {0.5, -0.5, 1.5, -1.5}, all ties.
  // Integer path: twice_max = 2, M_a = 0.5 -> {2^30, 0}, so sa = a * 2^19
  // exactly; M_out = 2 / (2^20 * 2) = 2^-20 -> {2^30, 19}.
  //  - double: high mul (a * 2^19 * 2^30 / 2^31 = a * 2^18, exact), then
  //    divide by 2^19 with ties away from zero: {1, -1, 2, -2}.
  //  - single: floor(a / 2 + 1/2): {1, 0, 2, -1}.
  //  - away: {1, -1, 2, -2}.
  //  - half_even: {0, 0, 2, -2}.
  //  - float: r_a = 1/2 in f32, v = a * 0.5, half to even: {0, 0, 2, -2}.
  const Codes a{1, -1, 3, -3}, b{0};
  const QuantParams in = i8(1.0, 0), out = i8(2.0, 10);
  auto run = [&](RoundingMode mode) {
    return add(a, {4}, in, b, {1}, in, {4}, out, 8, mode);
  };
  EXPECT_EQ(run(RoundingMode::Double), (Codes{11, 9, 12, 8}));
  EXPECT_EQ(run(RoundingMode::Single), (Codes{11, 10, 12, 9}));
  EXPECT_EQ(run(RoundingMode::Away), (Codes{11, 9, 12, 8}));
  EXPECT_EQ(run(RoundingMode::HalfEven), (Codes{10, 10, 12, 8}));
  EXPECT_EQ(run(RoundingMode::Float), (Codes{10, 10, 12, 8}));
}

TEST(NetworkAdd, HalfEvenDiffersFromDoubleAtAQuarterScale) {
  // S_a = S_b = 1, S_y = 4 (i8, z = 0): y = (a + b) / 4. a = 1, b = 0:
  // real 0.25. twice_max = 2, M_a = 0.5: sa = 2^19; M_out = 2 / (2^20 * 4)
  // = 2^-21 -> {2^30, 20}. Double: high mul of 2^19 by 2^30 is 2^18 (exact),
  // divide by 2^20: 0.25 -> 0. Every mode gives 0 here; now a = 3, b = -1
  // (real 2 / 4 = 0.5): raw = 3 * 2^19 - 2^19 = 2^20, high mul 2^19, divide
  // by 2^20: 0.5 -> 1 (away). Single: (2^20 * 2^30 + 2^50) >> 51 = 1.
  // Half-even: 0.5 -> 0.
  const QuantParams in = i8(1.0, 0), out = i8(4.0, 0);
  EXPECT_EQ(add({1, 3}, {2}, in, {0, -1}, {2}, in, {2}, out, 8,
                RoundingMode::Double),
            (Codes{0, 1}));
  EXPECT_EQ(add({1, 3}, {2}, in, {0, -1}, {2}, in, {2}, out, 8,
                RoundingMode::HalfEven),
            (Codes{0, 0}));
}

TEST(NetworkAdd, MixedStorageTypes) {
  // a: u8 (0.5, 128), code 140 = real 6. b: i8 (0.25, -10), code 2 = real 3.
  // y: i8 (0.5, 0): real 9 = code 18.
  // Integer path: twice_max = 1, M_a = 0.5 {2^30, 0}, M_b = 0.25 {2^30, 1},
  // M_out = 2^-19 {2^30, 18}. a1 = 12 * 2^20, sa = 6 * 2^20; b1 = 12 * 2^20,
  // high mul 6 * 2^20, divided by 2: sb = 3 * 2^20; raw = 9 * 2^20, high mul
  // 9 * 2^19, divided by 2^18: 18. Float: r_a = 1, r_b = 0.5, v = 12 + 6.
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(add({140}, {1}, u8(0.5, 128), {2}, {1}, i8(0.25, -10), {1},
                  i8(0.5, 0), 8, mode),
              Codes{18})
        << stringifyRoundingMode(mode);
}

TEST(NetworkAdd, SaturatesAndClamps) {
  // u8 (1, 0) + u8 (1, 0) -> u8 (0.01, 0): 100 + 100 = 200 real = code
  // 20000, saturated to 255; 0 + 0 = 0.
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(add({100, 0}, {2}, u8(1, 0), {100, 0}, {2}, u8(1, 0), {2},
                  u8(0.01, 0), 8, mode),
              (Codes{255, 0}))
        << stringifyRoundingMode(mode);
  // i8 (1, 0) operands into i8 (1, 0): -100 + -100 = -200 -> -128.
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(add({-100}, {1}, i8(1, 0), {-100}, {1}, i8(1, 0), {1}, i8(1, 0),
                  8, mode),
              Codes{-128})
        << stringifyRoundingMode(mode);
  // The ExactSum case (133) with clamp [130, 132] -> 132, and with
  // [134, 140] -> 134.
  for (RoundingMode mode : kAllModes) {
    EXPECT_EQ(add({130}, {1}, u8(0.5, 128), {131}, {1}, u8(0.5, 128), {1},
                  u8(0.5, 128), 8, mode, std::make_pair(130, 132)),
              Codes{132});
    EXPECT_EQ(add({130}, {1}, u8(0.5, 128), {131}, {1}, u8(0.5, 128), {1},
                  u8(0.5, 128), 8, mode, std::make_pair(134, 140)),
              Codes{134});
  }
}

TEST(NetworkAdd, TinyOutputScaleTakesTheLeftShiftPath) {
  // S_a = S_b = 1, S_y = 2^-25: M_out = 2 / (2^20 * 2^-25) = 64 >= 1
  // (TFLite refuses it; we left-shift and saturate). 1 + 0 is real 1 =
  // code 2^25 -> 127; -1 + 0 -> -128; 0 + 0 -> z = 3.
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(add({1, -1, 0}, {3}, i8(1, 0), {0}, {1}, i8(1, 0), {3},
                  i8(1.0 / (1 << 25), 3), 8, mode),
              (Codes{127, -128, 3}))
        << stringifyRoundingMode(mode);
}

TEST(NetworkAdd, Int16) {
  // i16 (1, 0) everywhere, left_shift 15: M_a = 0.5 {2^30, 0}, M_out =
  // 2 / 2^15 = 2^-14 {2^30, 13}. a1 = 20000 * 2^15 = 655360000 < 2^31.
  // 1000 + -250 = 750; 20000 + 20000 = 40000 -> 32767;
  // -20000 + -20000 -> -32768.
  for (RoundingMode mode : kAllModes)
    EXPECT_EQ(add({1000, 20000, -20000}, {3}, i16(1, 0), {-250, 20000, -20000},
                  {3}, i16(1, 0), {3}, i16(1, 0), 16, mode),
              (Codes{750, 32767, -32768}))
        << stringifyRoundingMode(mode);
}

// Scales 1 and zero points 0 make the integer path exact (sa = a * 2^19,
// raw * 2^-19 = a + b), so y = a + b by hand.
TEST(NetworkAdd, BroadcastPerRowPerColumnAndChannels) {
  const QuantParams p = i8(1, 0);
  const Codes a{1, 2, 3, 4, 5, 6}; // 2x3
  for (RoundingMode mode : kAllModes) {
    // Per row, b is 2x1 = [10, 20]: [1+10, 2+10, 3+10, 4+20, 5+20, 6+20].
    EXPECT_EQ(add(a, {2, 3}, p, {10, 20}, {2, 1}, p, {2, 3}, p, 8, mode),
              (Codes{11, 12, 13, 24, 25, 26}));
    // Per column, b is 1x3 = [10, 20, 30].
    EXPECT_EQ(add(a, {2, 3}, p, {10, 20, 30}, {1, 3}, p, {2, 3}, p, 8, mode),
              (Codes{11, 22, 33, 14, 25, 36}));
    // Both broadcast: 2x1 [1, 2] + 1x3 [10, 20, 30] is an outer sum.
    EXPECT_EQ(add({1, 2}, {2, 1}, p, {10, 20, 30}, {1, 3}, p, {2, 3}, p, 8,
                  mode),
              (Codes{11, 21, 31, 12, 22, 32}));
    // Scalar-like 1x1x1xC bias on NHWC: a is 1x2x2x2 = [1..8], b = [100,
    // -100] per channel.
    EXPECT_EQ(add({1, 2, 3, 4, 5, 6, 7, 8}, {1, 2, 2, 2}, p, {100, -100},
                  {1, 1, 1, 2}, p, {1, 2, 2, 2}, p, 8, mode),
              (Codes{101, -98, 103, -96, 105, -94, 107, -92}));
  }
}

TEST(NetworkAddDeathTest, RejectsBrokenInvariants) {
  const QuantParams p = i8(1, 0);
  EXPECT_DEATH(add({1, 2}, {2}, p, {1, 2, 3}, {3}, p, {2}, p, 8,
                   RoundingMode::Double),
               "b dimension 0 is 3, result 2");
  EXPECT_DEATH(add({1}, {1}, QuantParams::perAxis(0, {1.0}, {0}, -128, 127),
                   {1}, {1}, p, {1}, p, 8, RoundingMode::Double),
               "per-axis is not supported");
  EXPECT_DEATH(add({1}, {1}, p, {1}, {1}, p, {1}, p, 32, RoundingMode::Double),
               "32 bits");
}

//===----------------------------------------------------------------------===//
// Max pooling
//===----------------------------------------------------------------------===//

Pool2DShape pool(int64_t n, int64_t h, int64_t w, int64_t c, int64_t kh,
                 int64_t kw) {
  Pool2DShape s;
  s.batch = n, s.inH = h, s.inW = w, s.channels = c;
  s.kernelH = kh, s.kernelW = kw;
  return s;
}

TEST(NetworkMaxPool, PaddingNeverWinsInAllNegativeWindows) {
  // 1x2x2x1 input [[-5, -3], [-7, -9]], kernel 2x2, stride 1, padding 1 on
  // every side: output 3x3 ((2 + 2 - 2) / 1 + 1). Window (oh, ow) covers
  // rows oh-1..oh and columns ow-1..ow:
  //   (0,0): {-5}          -> -5   (0,1): {-5, -3}     -> -3
  //   (0,2): {-3}          -> -3   (1,0): {-5, -7}     -> -5
  //   (1,1): all four      -> -3   (1,2): {-3, -9}     -> -3
  //   (2,0): {-7}          -> -7   (2,1): {-7, -9}     -> -7
  //   (2,2): {-9}          -> -9
  // A padded 0 (or zero point) winning would show up as 0.
  Pool2DShape s = pool(1, 2, 2, 1, 2, 2);
  s.padTop = s.padBottom = s.padLeft = s.padRight = 1;
  EXPECT_EQ(maxPool2d(s, {-5, -3, -7, -9}),
            (Codes{-5, -3, -3, -5, -3, -3, -7, -7, -9}));
}

TEST(NetworkMaxPool, StridesChannelsAndDilations) {
  // 1x2x4x2, kernel 2x2, stride 2: two windows per channel.
  // channel 0 rows [1 5 2 0; 3 4 9 8]: max(1,5,3,4) = 5, max(2,0,9,8) = 9.
  // channel 1 is channel 0 + 100 except one 200: [101 105 102 200; ...].
  Pool2DShape s = pool(1, 2, 4, 2, 2, 2);
  s.strideH = s.strideW = 2;
  const Codes x{1, 101, 5, 105, 2, 102, 0, 200, //
                3, 103, 4, 104, 9, 109, 8, 108};
  EXPECT_EQ(maxPool2d(s, x), (Codes{5, 105, 9, 200}));
  // 3x3 input, kernel 2x2 with dilation 2 reads the four corners only:
  // [1 9 2; 9 9 9; 3 9 4] -> max(1, 2, 3, 4) = 4.
  Pool2DShape d = pool(1, 3, 3, 1, 2, 2);
  d.dilationH = d.dilationW = 2;
  EXPECT_EQ(maxPool2d(d, {1, 9, 2, 9, 9, 9, 3, 9, 4}), Codes{4});
}

TEST(NetworkMaxPool, WindowsWithoutInputAreDetected) {
  // kernel 2, dilation 5 (extent 6), padTop 2 < 6 over 3 rows, padBottom 1:
  // the only window taps rows -2 and 3, both outside.
  Pool2DShape s = pool(1, 3, 1, 1, 2, 1);
  s.dilationH = 5, s.padTop = 2, s.padBottom = 1;
  EXPECT_FALSE(everyWindowHasInput(s));
  EXPECT_DEATH(maxPool2d(s, {1, 2, 3}), "holds no input element");
  s.padTop = 0, s.padBottom = 3; // taps rows 0 and 5: row 0 is real.
  EXPECT_TRUE(everyWindowHasInput(s));
}

TEST(NetworkMaxPoolDeathTest, RejectsPadsAsLargeAsTheKernel) {
  Pool2DShape s = pool(1, 2, 2, 1, 2, 2);
  s.padLeft = 2; // the window at ow = 0 would be padding only.
  EXPECT_DEATH(maxPool2d(s, {1, 2, 3, 4}), "not smaller than the dilated");
  Pool2DShape z = pool(1, 2, 2, 1, 3, 3); // 3x3 kernel over 2x2: no output.
  EXPECT_DEATH(maxPool2d(z, {1, 2, 3, 4}), "invalid window");
}

//===----------------------------------------------------------------------===//
// Average pooling
//===----------------------------------------------------------------------===//

TEST(NetworkAvgPool, RoundsHalvesAwayFromZero) {
  // i8, z = 0, kernel 1x2 over 1x1x4x1 with stride 2: windows {-2, -3}
  // (sum -5, -2.5 -> -3) and {2, 3} (2.5 -> 3).
  Pool2DShape s = pool(1, 1, 4, 1, 1, 2);
  s.strideW = 2;
  EXPECT_EQ(avgPool2d(s, {-2, -3, 2, 3}, i8(0.1, 0), false), (Codes{-3, 3}));
  // z = 10: codes {8, 7} are q - z = {-2, -3} -> -3 -> code 7; {12, 13}
  // -> 3 -> 13. (TFLite's raw-code rule would give round(7.5) = 8.)
  EXPECT_EQ(avgPool2d(s, {8, 7, 12, 13}, i8(0.1, 10), false), (Codes{7, 13}));
  // Thirds: kernel 1x3, {1, 1, 0} = 2/3 -> 1; {1, 0, 0} = 1/3 -> 0;
  // {-1, -1, 0} -> -1.
  Pool2DShape t = pool(1, 1, 9, 1, 1, 3);
  t.strideW = 3;
  EXPECT_EQ(avgPool2d(t, {1, 1, 0, 1, 0, 0, -1, -1, 0}, i8(0.1, 0), false),
            (Codes{1, 0, -1}));
}

TEST(NetworkAvgPool, CountIncludePadOnBorders) {
  // u8, z = 100: 1x2x2x1 codes [104, 108; 112, 116] are q - z = [4, 8;
  // 12, 16]. Kernel 2x2, stride 1, padding top 1, left 1: output 2x2.
  //   (0,0): {4}              exclude 4/1 = 4 -> 104   include 4/4 = 1 -> 101
  //   (0,1): {4, 8}           12/2 = 6 -> 106          12/4 = 3 -> 103
  //   (1,0): {4, 12}          16/2 = 8 -> 108          16/4 = 4 -> 104
  //   (1,1): all              40/4 = 10 -> 110         40/4 -> 110
  Pool2DShape s = pool(1, 2, 2, 1, 2, 2);
  s.padTop = s.padLeft = 1;
  const Codes x{104, 108, 112, 116};
  EXPECT_EQ(avgPool2d(s, x, u8(0.5, 100), false),
            (Codes{104, 106, 108, 110}));
  EXPECT_EQ(avgPool2d(s, x, u8(0.5, 100), true), (Codes{101, 103, 104, 110}));
}

TEST(NetworkAvgPool, GlobalAndPerAxis) {
  // Global 2x2 over 1x2x2x2 (NHWC): channel 0 {1, 2, 3, 4} sum 10 / 4 = 2.5
  // -> 3; channel 1 {-1, -2, -3, -4} -> -2.5 -> -3.
  Pool2DShape s = pool(1, 2, 2, 2, 2, 2);
  const Codes x{1, -1, 2, -2, 3, -3, 4, -4};
  EXPECT_EQ(avgPool2d(s, x, i8(0.1, 0), false), (Codes{3, -3}));
  // Per axis on dim 3, zero points {0, 10}: channel 1 codes {10, 11, 12,
  // 13} are q - z = {0, 1, 2, 3}, sum 6 / 4 = 1.5 -> 2 -> code 12.
  QuantParams perAxis =
      QuantParams::perAxis(3, {0.1, 0.2}, {0, 10}, -128, 127);
  EXPECT_EQ(avgPool2d(s, {1, 10, 2, 11, 3, 12, 4, 13}, perAxis, false),
            (Codes{3, 12}));
}

TEST(NetworkAvgPool, TiesToEven) {
  // Pairs (kernel 1x2, stride 2), z = 0: {0, 1} 0.5 -> 0; {1, 2} 1.5 -> 2;
  // {2, 3} 2.5 -> 2; {-1, 0} -0.5 -> 0; {-1, -2} -1.5 -> -2; {-2, -3}
  // -2.5 -> -2; {4, 4} 4 -> 4; {0, -4} -2 -> -2.
  Pool2DShape s = pool(1, 1, 16, 1, 1, 2);
  s.strideW = 2;
  const Codes x{0, 1, 1, 2, 2, 3, -1, 0, -1, -2, -2, -3, 4, 4, 0, -4};
  EXPECT_EQ(avgPool2d(s, x, i8(0.1, 0), false, RoundingMode::HalfEven),
            (Codes{0, 2, 2, 0, -2, -2, 4, -2}));
  // The same pairs away from zero (the default) differ on every odd tie.
  EXPECT_EQ(avgPool2d(s, x, i8(0.1, 0), false),
            (Codes{1, 2, 3, -1, -2, -3, 4, -2}));
  // z = -5 (codes are q - z + z): the tie is of q - z, not of the code.
  Codes shifted;
  for (int32_t c : x)
    shifted.push_back(c - 5);
  EXPECT_EQ(avgPool2d(s, shifted, i8(0.1, -5), false, RoundingMode::HalfEven),
            (Codes{-5, -3, -3, -5, -7, -7, -1, -7}));
  // Count 36 (6x6 global): 18 x 2 + 18 x 3 = 90, 2.5 -> 2; 18 x -3 + 18 x
  // -2 = -90, -2.5 -> -2; 18 x 3 + 18 x 4 = 126, 3.5 -> 4.
  Pool2DShape g = pool(1, 6, 6, 3, 6, 6);
  Codes gx;
  for (int i = 0; i < 36; ++i) {
    gx.push_back(i < 18 ? 2 : 3);
    gx.push_back(i < 18 ? -3 : -2);
    gx.push_back(i < 18 ? 3 : 4);
  }
  EXPECT_EQ(avgPool2d(g, gx, i8(0.1, 0), false, RoundingMode::HalfEven),
            (Codes{2, -2, 4}));
  EXPECT_EQ(avgPool2d(g, gx, i8(0.1, 0), false), (Codes{3, -3, 4}));
}

TEST(NetworkAvgPoolDeathTest, RejectsMultiplierModes) {
  Pool2DShape s = pool(1, 1, 2, 1, 1, 2);
  EXPECT_DEATH(avgPool2d(s, {1, 2}, i8(0.1, 0), false, RoundingMode::Double),
               "ties round away from zero or half to even");
}

//===----------------------------------------------------------------------===//
// Concat
//===----------------------------------------------------------------------===//

TEST(NetworkConcat, CopiesEqualParameters) {
  const QuantParams p = i8(0.5, 3);
  // axis 1: 2x2 [1 2; 3 4] ++ 2x1 [5; 6] -> [1 2 5; 3 4 6].
  EXPECT_EQ(concat({{1, 2, 3, 4}, {5, 6}}, {{2, 2}, {2, 1}}, {p, p}, 1, p,
                   RoundingMode::Double),
            (Codes{1, 2, 5, 3, 4, 6}));
  // axis 0: 2x2 ++ 1x2 [5 6] -> rows appended.
  EXPECT_EQ(concat({{1, 2, 3, 4}, {5, 6}}, {{2, 2}, {1, 2}}, {p, p}, 0, p,
                   RoundingMode::Double),
            (Codes{1, 2, 3, 4, 5, 6}));
  // Extreme codes survive untouched.
  EXPECT_EQ(concat({{-128}, {127}}, {{1}, {1}}, {p, p}, 0, p,
                   RoundingMode::Float),
            (Codes{-128, 127}));
}

TEST(NetworkConcat, RequantizesDifferingOperands) {
  const QuantParams y = i8(0.25, 0);
  // b has scale 0.125: M = 0.5 = {2^30, 0}. Codes {1, -3} are {0.5, -1.5}
  // result codes.
  //  - double: only the high multiply rounds (ties toward +inf): {1, -1}.
  //  - single: floor(v + 1/2): {1, -1}.
  //  - away: {1, -2}.   half_even: {0, -2}.   float: {0, -2}.
  const QuantParams b = i8(0.125, 0);
  auto run = [&](RoundingMode mode) {
    return concat({{7}, {1, -3}}, {{1}, {2}}, {y, b}, 0, y, mode);
  };
  EXPECT_EQ(run(RoundingMode::Double), (Codes{7, 1, -1}));
  EXPECT_EQ(run(RoundingMode::Single), (Codes{7, 1, -1}));
  EXPECT_EQ(run(RoundingMode::Away), (Codes{7, 1, -2}));
  EXPECT_EQ(run(RoundingMode::HalfEven), (Codes{7, 0, -2}));
  EXPECT_EQ(run(RoundingMode::Float), (Codes{7, 0, -2}));
  // Same scale, zero point 5 instead of 0: codes shift by -5 exactly.
  EXPECT_EQ(concat({{10, 3}}, {{2}}, {i8(0.25, 5)}, 0, y, RoundingMode::Double),
            (Codes{5, -2}));
  // Scale 1 into 0.25: M = 4, code 100 -> 400 -> saturates to 127,
  // -100 -> -128, 3 -> 12.
  EXPECT_EQ(concat({{100, -100, 3}}, {{3}}, {i8(1, 0)}, 0, y,
                   RoundingMode::Double),
            (Codes{127, -128, 12}));
}

TEST(NetworkConcatDeathTest, RejectsMismatchedShapes) {
  const QuantParams p = i8(1, 0);
  EXPECT_DEATH(concat({{1, 2}, {3, 4, 5}}, {{1, 2}, {3, 1}}, {p, p}, 1, p,
                      RoundingMode::Double),
               "input 1 dimension 0 is 3, expected 1");
  EXPECT_DEATH(concat({{1}}, {{1}}, {p}, 1, p, RoundingMode::Double),
               "axis 1 out of range");
  EXPECT_DEATH(concat({{1}, {1}}, {{1}, {1}},
                      {p, QuantParams::perAxis(0, {1.0}, {0}, -128, 127)}, 0,
                      p, RoundingMode::Double),
               "per-axis is not supported");
}

} // namespace
