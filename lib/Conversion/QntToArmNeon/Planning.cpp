//===- Planning.cpp - data-tiled int8 GEMM plans for AArch64 ---------------===//

#include "QuantOpt/Conversion/QntToArmNeon/Planning.h"

#include "llvm/ADT/STLExtras.h"

using namespace quantopt::armneon;

std::optional<DotPlan> quantopt::armneon::planDot(ArmIsa isa, bool xUnsigned,
                                                  int64_t minW, int64_t maxW,
                                                  bool constantWeights) {
  bool fitsS8 = minW >= -128 && maxW <= 127;
  bool fitsU8 = minW >= 0 && maxW <= 255;
  if (!fitsS8 && !fitsU8)
    return std::nullopt;
  DotPlan plan;
  if (isa.i8mm) {
    // Every signedness pair has its matrix multiply; prefer s8 weights when
    // both fit (w' in [0, 127]) so that s8 activations take smmla. The tile
    // is 12 x 8 on every i8mm core (Planning.h).
    plan.kStep = 8;
    plan.tileRows = 12;
    plan.tileCols = 8;
    bool wUnsigned = !fitsS8;
    if (xUnsigned)
      plan.kind = wUnsigned ? DotKind::Ummla : DotKind::Usmmla;
    else
      plan.kind = wUnsigned ? DotKind::UsmmlaTransposed : DotKind::Smmla;
    return plan;
  }
  // sdot, and smull on plain NEON, multiply s8 x s8 only (no udot / usdot
  // plan).
  if (!fitsS8)
    return std::nullopt;
  if (isa.dotprod) {
    plan.kind = DotKind::Sdot;
    plan.kStep = 4;
  } else {
    plan.kind = DotKind::Smull;
    plan.kStep = 16;
    plan.tileRows = 4;
    plan.tileCols = 4;
  }
  if (xUnsigned) {
    // x = (x ^ 0x80) + 128 with the fed value read as s8; the 128 * sum w'
    // term folds into the bias, which needs the weights now.
    if (!constantWeights)
      return std::nullopt;
    plan.flipX = true;
    plan.offset = 128;
  }
  return plan;
}

RowTiles quantopt::armneon::planRowTiles(const DotPlan &plan, int64_t m) {
  RowTiles t;
  t.rows = plan.tileRows;
  t.full = m / t.rows;
  int64_t rest = m % t.rows;
  // sdot's activation vectors hold 4 rows, and its tile code all 8; an
  // smull tile reads one vector per row.
  int64_t granule = plan.isMmla() ? 2 : plan.isSmull() ? 1 : t.rows;
  t.lastRows = rest ? roundUp(rest, granule) : 0;
  return t;
}

std::vector<int8_t> quantopt::armneon::packWeights(
    int64_t kSize, int64_t n, int64_t kStep, int64_t tileCols,
    llvm::function_ref<int64_t(int64_t, int64_t)> weight) {
  int64_t kPadded = roundUp(kSize, kStep), nPadded = roundUp(n, tileCols);
  std::vector<int8_t> packed(kPadded * nPadded, 0);
  int64_t groups = kPadded / kStep;
  for (int64_t col = 0; col < n; ++col)
    for (int64_t k = 0; k < kSize; ++k) {
      int64_t tile = col / tileCols, lane = col % tileCols;
      int64_t index =
          ((tile * groups + k / kStep) * tileCols + lane) * kStep + k % kStep;
      packed[index] = static_cast<int8_t>(weight(k, col));
    }
  return packed;
}

llvm::SmallVector<int64_t>
quantopt::armneon::columnCorrection(llvm::ArrayRef<int64_t> sums,
                                    int32_t offset, int32_t inputZeroPoint) {
  llvm::SmallVector<int64_t> correction;
  int64_t factor = int64_t(offset) - inputZeroPoint;
  if (factor == 0)
    return correction;
  for (int64_t sum : sums)
    // Two's complement wrap, as the i32 accumulator does.
    correction.push_back(static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<uint64_t>(factor * sum))));
  return correction;
}
