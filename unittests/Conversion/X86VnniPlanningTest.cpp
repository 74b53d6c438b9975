//===- X86VnniPlanningTest.cpp - VNNI tile plans and packing --------------===//
//
// Expected values are worked by hand from the layout rules in Planning.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"
#include "QuantOpt/Reference/FixedPoint.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <vector>

using namespace quantopt::x86vnni;

namespace {

TEST(X86VnniPlanningTest, OperandRoles) {
  // w' in s8: weights are the s8 operand; s8 activations flip (+128), which
  // the bias pays back with offset -128.
  std::optional<OperandPlan> s8 = planOperands(-128, 127, false);
  ASSERT_TRUE(s8);
  EXPECT_FALSE(s8->weightsUnsigned);
  EXPECT_TRUE(s8->flipX);
  EXPECT_EQ(s8->offset, -128);
  std::optional<OperandPlan> s8u = planOperands(-3, 3, true);
  ASSERT_TRUE(s8u);
  EXPECT_FALSE(s8u->flipX);
  EXPECT_EQ(s8u->offset, 0);
  // w' in u8 only: weights are the u8 operand; u8 activations flip.
  std::optional<OperandPlan> u8 = planOperands(0, 255, true);
  ASSERT_TRUE(u8);
  EXPECT_TRUE(u8->weightsUnsigned);
  EXPECT_TRUE(u8->flipX);
  EXPECT_EQ(u8->offset, 128);
  // Neither: left to the generic lowering.
  EXPECT_FALSE(planOperands(-1, 128, false));
  EXPECT_FALSE(planOperands(-129, 0, false));
  EXPECT_FALSE(planOperands(0, 256, true));
}

TEST(X86VnniPlanningTest, WeightStatsAndCorrection) {
  // 2 x 2 weights, per-column zero points {1, -1}: w' = {{0, 3}, {2, 5}}.
  std::vector<int64_t> codes = {1, 2, 3, 4};
  std::vector<int32_t> zw = {1, -1};
  WeightStats stats = scanWeights(codes, zw, 2, 2);
  EXPECT_EQ(stats.min, 0);
  EXPECT_EQ(stats.max, 5);
  ASSERT_EQ(stats.columnSums.size(), 2u);
  EXPECT_EQ(stats.columnSums[0], 2);
  EXPECT_EQ(stats.columnSums[1], 8);
  // (offset - zx) * sum: (-128 - 3) * {2, 8}.
  llvm::SmallVector<int64_t> c = columnCorrection(stats.columnSums, -128, 3);
  EXPECT_EQ(c[0], -262);
  EXPECT_EQ(c[1], -1048);
  // Wraps modulo 2^32: 2^31 * 1 is INT32_MIN.
  EXPECT_EQ(columnCorrection({int64_t(1) << 31}, 1, 0)[0], INT32_MIN);
}

TEST(X86VnniPlanningTest, ColumnTiles) {
  // 3 columns: one tail tile of one vector, padded to 16.
  ColumnTiling narrow(3);
  EXPECT_EQ(narrow.nv, 1);
  EXPECT_EQ(narrow.full, 0);
  EXPECT_EQ(narrow.nvTail, 1);
  EXPECT_EQ(narrow.paddedN(), 16);
  // 64 columns: one full tile of 4 vectors.
  ColumnTiling exact(64);
  EXPECT_EQ(exact.nv, 4);
  EXPECT_EQ(exact.full, 1);
  EXPECT_EQ(exact.nvTail, 0);
  EXPECT_EQ(exact.paddedN(), 64);
  // 100 columns: one full tile (64), then 36 in a tail of 3 vectors.
  ColumnTiling wide(100);
  EXPECT_EQ(wide.full, 1);
  EXPECT_EQ(wide.nvTail, 3);
  EXPECT_EQ(wide.paddedN(), 112);
  // 40 columns: tiles of 3 vectors (48), none full.
  ColumnTiling mid(40);
  EXPECT_EQ(mid.nv, 3);
  EXPECT_EQ(mid.full, 0);
  EXPECT_EQ(mid.nvTail, 3);
  // 4 x 64 or 8 x {16, 32} accumulators.
  EXPECT_EQ(exact.rowsPerTile(4), 4);
  EXPECT_EQ(exact.rowsPerTile(3), 4);
  EXPECT_EQ(exact.rowsPerTile(2), 8);
  EXPECT_EQ(exact.rowsPerTile(1), 8);
}

// One step of 16 columns: column c holds bytes q0..q3 = 4c .. 4c + 3, the
// even lanes (q0, q2) come first, then the odd ones (q1, q3); byte 0x80 is
// -128 signed and 128 unsigned.
TEST(X86VnniPlanningTest, WidenPackedWeights) {
  std::vector<int8_t> packed(64);
  for (int i = 0; i < 64; ++i)
    packed[i] = int8_t(i);
  packed[6] = int8_t(0x80); // column 1, q2
  std::vector<int16_t> s = widenPackedWeights(packed, /*isUnsigned=*/false);
  ASSERT_EQ(s.size(), 64u);
  EXPECT_EQ(s[0], 0); // column 0 even: q0 = 0, q2 = 2
  EXPECT_EQ(s[1], 2);
  EXPECT_EQ(s[2], 4); // column 1 even: q0 = 4, q2 = 0x80
  EXPECT_EQ(s[3], -128);
  EXPECT_EQ(s[30], 60); // column 15 even: 60, 62
  EXPECT_EQ(s[31], 62);
  EXPECT_EQ(s[32], 1); // column 0 odd: q1 = 1, q3 = 3
  EXPECT_EQ(s[33], 3);
  EXPECT_EQ(s[62], 61); // column 15 odd: 61, 63
  EXPECT_EQ(s[63], 63);
  std::vector<int16_t> u = widenPackedWeights(packed, /*isUnsigned=*/true);
  EXPECT_EQ(u[3], 128);
  EXPECT_EQ(u[2], 4);
}

TEST(X86VnniPlanningTest, Avx2ColumnTiles) {
  // 16 ymm registers: tiles of one 16-column vector (two ymm halves), 4
  // rows: 8 accumulator registers.
  ColumnTiling wide(100, DotIsa::Avx2);
  EXPECT_EQ(wide.nv, 1);
  EXPECT_EQ(wide.full, 6);
  EXPECT_EQ(wide.nvTail, 1);
  EXPECT_EQ(wide.paddedN(), 112);
  EXPECT_EQ(wide.rowsPerTile(1), 4);
  ColumnTiling exact(64, DotIsa::Avx2);
  EXPECT_EQ(exact.full, 4);
  EXPECT_EQ(exact.nvTail, 0);
  EXPECT_EQ(exact.paddedN(), 64);
  // AVX-VNNI has the same 16 registers; AVX-512 BW the 32 of VNNI.
  ColumnTiling vex(64, DotIsa::AvxVnni);
  EXPECT_EQ(vex.nv, 1);
  EXPECT_EQ(vex.rowsPerTile(1), 4);
  ColumnTiling bw(64, DotIsa::Avx512Bw);
  EXPECT_EQ(bw.nv, 4);
  EXPECT_EQ(bw.rowsPerTile(4), 4);
  EXPECT_EQ(bw.rowsPerTile(1), 8);
}

// K = 5 x N = 3 weights w[k][n] = 3k + n + 1, packed [tile][K1][N0][4] with
// K1 = 2, N0 = 16: group kk of column j holds w[4kk .. 4kk+3][j], K padded
// with zeros, columns 3..15 zero.
TEST(X86VnniPlanningTest, PackSmallMatmul) {
  ColumnTiling tiling(3);
  std::vector<int8_t> packed =
      packWeights(tiling, 2, [](int64_t kk, int64_t q, int64_t col) {
        int64_t k = kk * 4 + q;
        return k < 5 ? int32_t(3 * k + col + 1) : 0;
      });
  std::vector<int8_t> expected(128, 0);
  const int8_t group0[12] = {1, 4, 7, 10, 2, 5, 8, 11, 3, 6, 9, 12};
  for (int i = 0; i < 12; ++i)
    expected[i] = group0[i];
  expected[64] = 13; // kk = 1, column 0: w[4][0], then K padding
  expected[68] = 14;
  expected[72] = 15;
  EXPECT_EQ(packed, expected);
}

// 20 columns, K = 4: tiles of 2 vectors (nv = 2, N0 = 32), none full, so a
// single tail tile of 2 vectors holds all 20 columns, padded to 32.
TEST(X86VnniPlanningTest, PackTailTile) {
  ColumnTiling tiling(20);
  ASSERT_EQ(tiling.full, 0);
  ASSERT_EQ(tiling.nvTail, 2);
  std::vector<int8_t> packed =
      packWeights(tiling, 1, [](int64_t, int64_t q, int64_t col) {
        return int32_t(col * 4 + q);
      });
  ASSERT_EQ(packed.size(), 32u * 4u);
  for (int64_t col = 0; col < 32; ++col)
    for (int64_t q = 0; q < 4; ++q)
      EXPECT_EQ(packed[col * 4 + q], col < 20 ? col * 4 + q : 0)
          << "col " << col << " q " << q;
}

// 80 columns, K = 4: one full tile of 64 columns, then a tail tile of 16
// at byte 64 * 4.
TEST(X86VnniPlanningTest, PackFullThenTail) {
  ColumnTiling tiling(80);
  ASSERT_EQ(tiling.full, 1);
  ASSERT_EQ(tiling.nvTail, 1);
  std::vector<int8_t> packed =
      packWeights(tiling, 1, [](int64_t, int64_t q, int64_t col) {
        return int32_t((col + q) % 100);
      });
  ASSERT_EQ(packed.size(), 80u * 4u);
  EXPECT_EQ(packed[63 * 4 + 3], 66);       // tile 0, column 63, q 3
  EXPECT_EQ(packed[256 + 0 * 4 + 0], 64);  // tail, column 64
  EXPECT_EQ(packed[256 + 15 * 4 + 2], 81); // tail, column 79, q 2
}

TEST(X86VnniPlanningTest, ConvReductionLoops) {
  // 3x3, unit dilation, 4 channels (c4 = 1), padded row of 5 pixels: the kw
  // and c4 loops merge into one run of 3 groups; kh steps a padded row.
  llvm::SmallVector<ReductionLoop> loops =
      planConvReduction(3, 3, 1, 1, 1, /*wp=*/5, /*cPadded=*/4);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0].extent, 3);
  EXPECT_EQ(loops[0].xStride, 20);
  EXPECT_EQ(loops[0].wGroupStride, 3);
  EXPECT_EQ(loops[1].extent, 3);
  EXPECT_EQ(loops[1].xStride, 4);
  EXPECT_EQ(loops[1].wGroupStride, 1);
  // Dilation 2 in w keeps kw and c4 apart.
  loops = planConvReduction(1, 3, 2, 1, 2, 9, 8);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(loops[0].extent, 3);
  EXPECT_EQ(loops[0].xStride, 16);
  EXPECT_EQ(loops[1].extent, 2);
  // A 1x1 conv with 4 channels: one step.
  loops = planConvReduction(1, 1, 1, 1, 1, 7, 4);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].extent, 1);
  EXPECT_EQ(loops[0].xStride, 4);
  // A 1-row image where kh's stride equals the merged run: all three merge.
  loops = planConvReduction(2, 3, 1, 1, 1, /*wp=*/3, /*cPadded=*/4);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].extent, 6);
}

TEST(X86VnniPlanningTest, KBlocks) {
  KBlocking none = planKBlocks(300, 0);
  EXPECT_EQ(none.blocks, 1);
  EXPECT_EQ(none.blockSize, 300);
  // 300 groups in blocks of at most 128: 3 even blocks of 100.
  KBlocking three = planKBlocks(300, 128);
  EXPECT_EQ(three.blocks, 3);
  EXPECT_EQ(three.blockSize, 100);
  KBlocking one = planKBlocks(128, 128);
  EXPECT_EQ(one.blocks, 1);
}

TEST(X86VnniPlanningTest, RowsOutside) {
  // 256^3: 4 column tiles of 64, 256 / 4 = 64 row tiles.
  EXPECT_TRUE(rowsOutside(ColumnTiling(256), 256));
  // 1024 columns: 16 column tiles, enough for the outer loop.
  EXPECT_FALSE(rowsOutside(ColumnTiling(1024), 1024));
  // 40 columns: one tail tile of 3 vectors (4-row tiles): 31 rows are 7
  // row tiles, 32 rows 8.
  EXPECT_FALSE(rowsOutside(ColumnTiling(40), 31));
  EXPECT_TRUE(rowsOutside(ColumnTiling(40), 32));
  // 20 columns: 2 vectors, 8-row tiles: 64 rows are 8 of them.
  EXPECT_FALSE(rowsOutside(ColumnTiling(20), 63));
  EXPECT_TRUE(rowsOutside(ColumnTiling(20), 64));
  // 7 column tiles of 64 (448 columns) still take rows outside; 8 do not.
  EXPECT_TRUE(rowsOutside(ColumnTiling(448), 64));
  EXPECT_FALSE(rowsOutside(ColumnTiling(512), 64));
}

TEST(X86VnniPlanningTest, DepthwiseInteriorOutputs) {
  // 56 wide, 3 taps, padding 1: outputs 0 and 55 read the padding.
  OutputRange same = interiorOutputs(56, 56, 1, 3, 1, 1);
  EXPECT_EQ(same.lo, 1);
  EXPECT_EQ(same.hi, 55);
  // Stride 2 over 112 (56 outputs): output 55 reads 109..111, inside.
  OutputRange strided = interiorOutputs(112, 56, 1, 3, 2, 1);
  EXPECT_EQ(strided.lo, 1);
  EXPECT_EQ(strided.hi, 56);
  // No padding: every output is inside.
  OutputRange valid = interiorOutputs(5, 3, 0, 3, 1, 1);
  EXPECT_EQ(valid.lo, 0);
  EXPECT_EQ(valid.hi, 3);
  // Dilation 2, padding 2 over 10: output 7 reads 5, 7, 9; output 8 reads 10.
  OutputRange dilated = interiorOutputs(10, 10, 2, 3, 1, 2);
  EXPECT_EQ(dilated.lo, 2);
  EXPECT_EQ(dilated.hi, 8);
  // A window wider than the input: no output is inside.
  OutputRange none = interiorOutputs(2, 2, 2, 5, 1, 1);
  EXPECT_EQ(none.lo, none.hi);
}

TEST(X86VnniPlanningTest, DepthwiseTiles) {
  // AVX-512, 3 taps, stride 1: 12 accumulators + 3 weights + 14 inputs
  // fit the 30 registers left; 13 + 3 + 15 would not.
  DepthwisePlan zmm = planDepthwise(64, 16, 3, 1, 1);
  EXPECT_EQ(zmm.fullVectors, 4);
  EXPECT_EQ(zmm.tailLanes, 0);
  EXPECT_EQ(zmm.tileW, 12);
  // Stride 2: 8 + 3 + 17 = 28; 9 + 3 + 19 = 31.
  EXPECT_EQ(planDepthwise(64, 16, 3, 2, 1).tileW, 8);
  EXPECT_EQ(zmm.paddedChannels(), 64);
  // AVX2, 20 channels: two vectors of 8 and a tail of 4; 4 + 3 + 6 <= 14,
  // 5 + 3 + 7 > 14.
  DepthwisePlan ymm = planDepthwise(20, 8, 3, 1, 1);
  EXPECT_EQ(ymm.fullVectors, 2);
  EXPECT_EQ(ymm.tailLanes, 4);
  EXPECT_EQ(ymm.tileW, 4);
  EXPECT_EQ(ymm.paddedChannels(), 24);
  // AVX2, 7 taps: even 2 pixels (2 + 7 + 8 registers) do not fit.
  EXPECT_EQ(planDepthwise(64, 8, 7, 1, 1).tileW, 1);
}

TEST(X86VnniPlanningTest, DepthwiseTileColumns) {
  EXPECT_EQ(tileInputColumns(8, 3, 1, 1),
            (llvm::SmallVector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
  EXPECT_EQ(tileInputColumns(4, 3, 2, 1),
            (llvm::SmallVector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(tileInputColumns(3, 3, 1, 2),
            (llvm::SmallVector<int64_t>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(tileInputColumns(2, 2, 3, 1),
            (llvm::SmallVector<int64_t>{0, 1, 3, 4}));
}

TEST(X86VnniPlanningTest, OneSumRescalePlan) {
  // "double", s = 11: (2^11 - 1) 2^30, shift 42; with z = -3, minus 3 * 2^42.
  std::optional<OneSumRescale> d = planOneSumRescale(true, 11, 0);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->addend, 2197949513728);
  EXPECT_EQ(d->shift, 42);
  EXPECT_TRUE(d->signTerm);
  std::optional<OneSumRescale> dz = planOneSumRescale(true, 11, -3);
  ASSERT_TRUE(dz);
  EXPECT_EQ(dz->addend, -10996190019584);
  // "single", s = 11: 2^41, no sign term.
  std::optional<OneSumRescale> sg = planOneSumRescale(false, 11, 0);
  ASSERT_TRUE(sg);
  EXPECT_EQ(sg->addend, 2199023255552);
  EXPECT_FALSE(sg->signTerm);
  // Where the form does not hold.
  EXPECT_FALSE(planOneSumRescale(true, 0, 0));
  EXPECT_FALSE(planOneSumRescale(true, -1, 0));
  EXPECT_FALSE(planOneSumRescale(false, -1, 0));
  EXPECT_TRUE(planOneSumRescale(false, 0, 0));
  EXPECT_FALSE(planOneSumRescale(false, 0, 5)); // q + z might wrap
  EXPECT_FALSE(planOneSumRescale(true, 30, 1)); // 2^61 > 2^60
  EXPECT_TRUE(planOneSumRescale(true, 29, 1));
  EXPECT_FALSE(planOneSumRescale(true, 29, 2));
  EXPECT_FALSE(planOneSumRescale(true, 32, 0));
}

/// Every accumulator class the epilogue must get right: the int32 ends,
/// 0 and +-1, windows around the ties of both roundings of x * M, and
/// pseudo-random values.
std::vector<int32_t> adversarialInputs(int32_t m, int32_t s, uint64_t &seed) {
  constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> xs;
  auto push = [&](int64_t v) {
    if (v >= kMin && v <= kMax)
      xs.push_back(static_cast<int32_t>(v));
  };
  for (int64_t v : {kMin, kMin + 1, kMin + 2, int64_t(-2), int64_t(-1),
                    int64_t(0), int64_t(1), int64_t(2), kMax - 1, kMax})
    push(v);
  if (m > 0) {
    // x * M near an odd multiple of 2^30 (the high multiply's tie) and of
    // 2^(30 + s) (the final one), for small and large multiples.
    for (int64_t unit : {int64_t(1) << 30, int64_t(1) << (30 + s)})
      for (int64_t j : {0, 1, 2, 3, 7, 100, 12345, 1 << 20, 1 << 28})
        for (int64_t sign : {1, -1}) {
          __int128 target = __int128(sign) * (2 * j + 1) * unit;
          __int128 center = target / m;
          if (center < kMin || center > kMax)
            continue;
          for (int64_t d = -3; d <= 3; ++d)
            push(int64_t(center) + d);
        }
  }
  for (int i = 0; i < 2000; ++i) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    int64_t r = static_cast<int32_t>(seed >> 32);
    // Small, medium and full-range magnitudes.
    push(i % 3 == 0 ? r >> 20 : i % 3 == 1 ? r >> 8 : r);
  }
  return xs;
}

TEST(X86VnniPlanningTest, OneSumRescaleMatchesReference) {
  // Expected values: the reference model (QuantOpt/Reference/FixedPoint.h).
  using quantopt::ref::RoundingMode;
  uint64_t seed = 1;
  int64_t checked = 0;
  for (int32_t m : {0, 1, 2, 3, 1 << 30, (1 << 30) + 1, 1518500250,
                    2147483646, 2147483647, 1234567891})
    for (bool dbl : {true, false})
      for (int32_t s = 0; s <= 31; ++s)
        for (int32_t z : {0, 1, -1, -3, 127, -128, 255, 65535, -65536,
                          1 << 20})
          if (std::optional<OneSumRescale> plan =
                  planOneSumRescale(dbl, s, z)) {
            for (int32_t x : adversarialInputs(m, s, seed)) {
              int64_t want = quantopt::ref::multiplyByQuantizedMultiplier(
                                 x, {m, s},
                                 dbl ? RoundingMode::Double
                                     : RoundingMode::Single) +
                             z;
              ASSERT_EQ(applyOneSumRescale(*plan, x, m), want)
                  << (dbl ? "double" : "single") << " x=" << x << " M=" << m
                  << " s=" << s << " z=" << z;
              ++checked;
            }
          }
  EXPECT_GT(checked, 1000000);
}

} // namespace
