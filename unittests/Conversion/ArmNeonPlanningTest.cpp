//===- ArmNeonPlanningTest.cpp - AArch64 dot plans and packing ------------===//
//
// Expected values are worked by hand from the rules in Planning.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToArmNeon/Planning.h"

#include <gtest/gtest.h>

using namespace quantopt::armneon;

namespace {

TEST(ArmNeonPlanningTest, I8mmTakesEverySignedness) {
  ArmIsa isa{true, true};
  auto kind = [&](bool xUnsigned, int64_t lo, int64_t hi) {
    std::optional<DotPlan> plan = planDot(isa, xUnsigned, lo, hi, false);
    EXPECT_TRUE(plan);
    EXPECT_EQ(plan->kStep, 8);
    EXPECT_EQ(plan->tileRows, 12);
    EXPECT_EQ(plan->tileCols, 8);
    EXPECT_FALSE(plan->flipX);
    return plan->kind;
  };
  EXPECT_EQ(kind(false, -128, 127), DotKind::Smmla);
  EXPECT_EQ(kind(true, -128, 127), DotKind::Usmmla);
  EXPECT_EQ(kind(true, 0, 255), DotKind::Ummla);
  EXPECT_EQ(kind(false, 0, 255), DotKind::UsmmlaTransposed);
  // [0, 127] fits both: s8 weights.
  EXPECT_EQ(kind(false, 0, 127), DotKind::Smmla);
  // w' beyond both 8-bit ranges: generic lowering.
  EXPECT_FALSE(planDot(isa, false, -1, 128, true));
}

TEST(ArmNeonPlanningTest, DotprodFlipsUnsignedActivations) {
  ArmIsa isa{true, false};
  std::optional<DotPlan> s8 = planDot(isa, false, -127, 127, false);
  ASSERT_TRUE(s8);
  EXPECT_EQ(s8->kind, DotKind::Sdot);
  EXPECT_EQ(s8->kStep, 4);
  EXPECT_EQ(s8->tileCols, 8);
  EXPECT_FALSE(s8->flipX);
  // u8 activations: x = (x ^ 0x80) + 128, only with weights known now.
  std::optional<DotPlan> u8 = planDot(isa, true, -5, 5, true);
  ASSERT_TRUE(u8);
  EXPECT_TRUE(u8->flipX);
  EXPECT_EQ(u8->offset, 128);
  EXPECT_FALSE(planDot(isa, true, -5, 5, false));
  // u8 weights would need udot / usdot.
  EXPECT_FALSE(planDot(isa, false, 0, 255, true));
}

TEST(ArmNeonPlanningTest, PlainNeonMultipliesBytePairs) {
  // No dot product: smull (8 s8 x s8 products into i16) + sadalp, 4 x 4
  // outputs, each a row's and a column's 16 bytes per K step.
  std::optional<DotPlan> s8 = planDot(ArmIsa{}, false, -128, 127, false);
  ASSERT_TRUE(s8);
  EXPECT_EQ(s8->kind, DotKind::Smull);
  EXPECT_TRUE(s8->isSmull());
  EXPECT_FALSE(s8->isMmla());
  EXPECT_EQ(s8->kStep, 16);
  EXPECT_EQ(s8->tileRows, 4);
  EXPECT_EQ(s8->tileCols, 4);
  EXPECT_FALSE(s8->flipX);
  // s8 x s8 only, as sdot: u8 activations flip with weights known now.
  std::optional<DotPlan> u8 = planDot(ArmIsa{}, true, -5, 5, true);
  ASSERT_TRUE(u8);
  EXPECT_TRUE(u8->flipX);
  EXPECT_EQ(u8->offset, 128);
  EXPECT_FALSE(planDot(ArmIsa{}, true, -5, 5, false));
  EXPECT_FALSE(planDot(ArmIsa{}, false, 0, 255, true));
  // Each row is its own vector: a remainder tile has just its rows.
  RowTiles t = planRowTiles(*s8, 7);
  EXPECT_EQ(t.full, 1);
  EXPECT_EQ(t.lastRows, 3);
  EXPECT_EQ(t.paddedRows(), 7);
}

TEST(ArmNeonPlanningTest, RemainderRowsTakeTheirOwnTile) {
  DotPlan mmla = *planDot(ArmIsa{true, true}, false, -1, 1, true);
  // 64 rows: five 12-row tiles, then 4 rows (not 12: 64, not 72, rows).
  RowTiles t = planRowTiles(mmla, 64);
  EXPECT_EQ(t.rows, 12);
  EXPECT_EQ(t.full, 5);
  EXPECT_EQ(t.lastRows, 4);
  EXPECT_EQ(t.paddedRows(), 64);
  // An odd remainder rounds up to a row pair.
  t = planRowTiles(mmla, 3);
  EXPECT_EQ(t.full, 0);
  EXPECT_EQ(t.lastRows, 4);
  t = planRowTiles(mmla, 24);
  EXPECT_EQ(t.full, 2);
  EXPECT_EQ(t.lastRows, 0);
  // sdot keeps whole 8-row tiles.
  DotPlan sdot = *planDot(ArmIsa{true, false}, false, -1, 1, true);
  t = planRowTiles(sdot, 10);
  EXPECT_EQ(t.full, 1);
  EXPECT_EQ(t.lastRows, 8);
  EXPECT_EQ(t.paddedRows(), 16);
}

TEST(ArmNeonPlanningTest, PackedLayoutIsMmt4dRhs) {
  // K = 5, N = 9, kStep 4: Kp = 8, Np = 16; w(k, n) = 10 k + n.
  std::vector<int8_t> packed =
      packWeights(5, 9, 4, 8, [](int64_t k, int64_t n) { return 10 * k + n; });
  ASSERT_EQ(packed.size(), 8u * 16u);
  // [tile][group][lane][q]: tile 0, group 0, lane 2 holds w(0..3, 2).
  EXPECT_EQ(packed[(0 * 8 + 2) * 4 + 0], 2);
  EXPECT_EQ(packed[(0 * 8 + 2) * 4 + 3], 32);
  // Group 1 holds k = 4 and three zero pads.
  EXPECT_EQ(packed[((1 * 8) + 2) * 4 + 0], 42);
  EXPECT_EQ(packed[((1 * 8) + 2) * 4 + 1], 0);
  // Tile 1 (columns 8..15): column 8 is lane 0, columns 9..15 are zero.
  int64_t tile1 = 2 * 8 * 4;
  EXPECT_EQ(packed[tile1 + 1], 18);
  EXPECT_EQ(packed[tile1 + 4], 0);
  // 12 columns per tile, kStep 8: K = 3 -> 8, N = 13 -> 24.
  std::vector<int8_t> wide =
      packWeights(3, 13, 8, 12, [](int64_t k, int64_t n) { return k + 3 * n; });
  ASSERT_EQ(wide.size(), 8u * 24u);
  EXPECT_EQ(wide[11 * 8 + 2], 2 + 33); // tile 0, lane 11, k 2
  EXPECT_EQ(wide[12 * 8 + 0 * 8 + 1], 1 + 36); // tile 1, lane 0, k 1
  EXPECT_EQ(wide[12 * 8 + 1 * 8 + 0], 0);      // tile 1, lane 1: padding
}

TEST(ArmNeonPlanningTest, Correction) {
  // offset 128, zx 3: 125 * sums; wraps like i32.
  EXPECT_EQ(columnCorrection({1, -2}, 128, 3),
            (llvm::SmallVector<int64_t>{125, -250}));
  EXPECT_TRUE(columnCorrection({7}, 0, 0).empty());
  EXPECT_EQ(columnCorrection({int64_t(1) << 30}, 4, 0),
            (llvm::SmallVector<int64_t>{0}));
}

} // namespace
