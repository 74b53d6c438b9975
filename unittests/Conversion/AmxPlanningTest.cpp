//===- AmxPlanningTest.cpp - AMX tile plan and B-tile packing -------------===//
//
// Expected values are worked out by hand from the tile layout: a B tile is
// 16 rows of 64 bytes, row r holding reduction indices 4r..4r+3 of 16
// columns, 4 bytes per column.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/AmxPlanning.h"

#include <gtest/gtest.h>

using namespace quantopt::x86amx;

namespace {

TEST(AmxPlanningTest, TilesPadEveryDimension) {
  AmxPlan plan = planAmxMatmul(/*m=*/17, /*k=*/65, /*n=*/1);
  EXPECT_EQ(plan.mTiles, 2);
  EXPECT_EQ(plan.kTiles, 2);
  EXPECT_EQ(plan.nTiles, 1);
  EXPECT_EQ(plan.paddedM(), 32);
  EXPECT_EQ(plan.paddedK(), 128);
  EXPECT_EQ(plan.paddedN(), 16);
  EXPECT_EQ(plan.packedRows(), 32);
  EXPECT_FALSE(plan.activationsInPlace());
  EXPECT_TRUE(planAmxMatmul(32, 128, 5).activationsInPlace());
  EXPECT_EQ(planAmxMatmul(1, 1, 1, /*kChunk=*/0).kChunk, 1);
}

TEST(AmxPlanningTest, PackedRowOrdersTilesByColumnThenK) {
  AmxPlan plan = planAmxMatmul(16, 192, 48); // 3 K tiles, 3 N tiles
  EXPECT_EQ(plan.packedRow(0, 0), 0);
  EXPECT_EQ(plan.packedRow(0, 2), 32);
  EXPECT_EQ(plan.packedRow(1, 0), 48);
  EXPECT_EQ(plan.packedRow(2, 1), (2 * 3 + 1) * 16);
}

// w(k, n) = 10 * k + n for K = 6, N = 2: tile (0, 0), row 0 holds k = 0..3,
// row 1 k = 4, 5 and K padding; bytes 4c + q of a row are column c.
TEST(AmxPlanningTest, PacksVnniLayoutWithZeroPadding) {
  AmxPlan plan = planAmxMatmul(1, 6, 2);
  std::vector<int8_t> packed = packAmxWeights(
      plan, [](int64_t k, int64_t n) { return int32_t(10 * k + n); });
  ASSERT_EQ(packed.size(), size_t(16 * 64));
  std::vector<int8_t> row0(packed.begin(), packed.begin() + 8);
  EXPECT_EQ(row0, (std::vector<int8_t>{0, 10, 20, 30, 1, 11, 21, 31}));
  std::vector<int8_t> row1(packed.begin() + 64, packed.begin() + 72);
  EXPECT_EQ(row1, (std::vector<int8_t>{40, 50, 0, 0, 41, 51, 0, 0}));
  // Columns 2..15 and rows 2..15 are padding.
  for (size_t i = 8; i < 64; ++i)
    EXPECT_EQ(packed[i], 0) << i;
  for (size_t i = 128; i < packed.size(); ++i)
    EXPECT_EQ(packed[i], 0) << i;
}

// u8 weights above 127 keep their bits; the second N tile and K tile land
// where packedRow says.
TEST(AmxPlanningTest, SecondTilesAndUnsignedBits) {
  AmxPlan plan = planAmxMatmul(1, 65, 17); // 2 K tiles, 2 N tiles
  std::vector<int8_t> packed = packAmxWeights(
      plan, [](int64_t k, int64_t n) { return k == 64 && n == 16 ? 200 : 0; });
  // k = 64 is K tile 1, row 0, q 0; n = 16 is N tile 1, column 0.
  size_t at = size_t(plan.packedRow(1, 1)) * 64;
  EXPECT_EQ(uint8_t(packed[at]), 200);
  size_t nonzero = 0;
  for (int8_t v : packed)
    nonzero += v != 0;
  EXPECT_EQ(nonzero, 1u);
}

// 3x3 over C = 64 with W dilation 1: one run of 3 * 64 = 192 bytes per
// filter row, 3 K tiles each; byte 130 of run 2 is tap (2, 2), channel 2.
TEST(AmxPlanningTest, ConvRunPerFilterRow) {
  AmxConvReduction r = planAmxConvReduction(3, 3, 64, 1);
  EXPECT_TRUE(r.runCoversRow);
  EXPECT_EQ(r.runs, 3);
  EXPECT_EQ(r.runBytes, 192);
  EXPECT_EQ(r.tilesPerRun, 3);
  EXPECT_EQ(r.kTiles(), 9);
  auto t = r.tap(2, 130, 3, 64);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kh, 2);
  EXPECT_EQ(t->kw, 2);
  EXPECT_EQ(t->c, 2);
  EXPECT_FALSE(r.tap(0, 192, 3, 64)); // past the run: zero weights
}

// W dilation 2: the taps of a row are not adjacent, one run per tap of C
// bytes; C = 3 leaves 61 zero bytes in each K tile.
TEST(AmxPlanningTest, ConvRunPerTapWhenDilated) {
  AmxConvReduction r = planAmxConvReduction(2, 3, 3, 2);
  EXPECT_FALSE(r.runCoversRow);
  EXPECT_EQ(r.runs, 6);
  EXPECT_EQ(r.runBytes, 3);
  EXPECT_EQ(r.tilesPerRun, 1);
  auto t = r.tap(4, 1, 3, 3); // run 4 = tap (1, 1)
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kh, 1);
  EXPECT_EQ(t->kw, 1);
  EXPECT_EQ(t->c, 1);
  EXPECT_FALSE(r.tap(4, 3, 3, 3));
}

} // namespace
