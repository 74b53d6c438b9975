//===- Planning.h - data-tiled int8 GEMM plans for AArch64 ------*- C++ -*-===//
//
// The decisions of the AArch64 contraction kernels that need no IR: which
// dot instruction multiplies which operand, whether the activations are
// flipped, and the packed layouts. Plain C++, unit-tested on its own
// (unittests/Conversion/ArmNeonPlanningTest.cpp).
//
// The layouts are linalg.mmt4d's: with a register tile of M0 x N0 outputs
// and a K step of `kStep` (i8mm: 12 x 8 outputs, K step 8, the 2x8 . 8x2
// matrix multiplies; sdot: 8 x 8, K step 4; plain NEON: 4 x 4, K step 16),
//   packed activations  [Mp/M0][Kp/kStep][M0][kStep]  (linalg.pack of X;
//                       the last tile may have fewer rows, RowTiles)
//   packed weights      [Np/N0][Kp/kStep][N0][kStep]  (linalg.pack of W^T)
// with M, N and K rounded up to whole tiles. Padded weights are 0, so
// whatever the padded activations hold adds nothing.
//
// Tile sizes: under llvm-mca's Neoverse V2 model a 128-bit ldp costs 3
// uops of a 6-wide dispatch, so an 8 x 8 i8mm tile (16 smmla, 8 loads)
// dispatches in 4.7+ cycles against 4 for the smmla. 12 x 8 (24 smmla, 10
// loads, 24 + 6 + 2 registers) models at 1.13x of the smmla bound, 8 x 12
// (the same counts, but a weight pair loaded between every 8 smmla) at
// 1.17x: fewer loads interleave with the smmla, and 6-wide dispatch groups
// split less often; the two are equal (1.00x) on Neoverse N2 / Cortex-A710
// (2 smmla per cycle). sdot issues 2 per cycle on Neoverse N1 / Cortex-A76,
// so 8 x 8 (16 sdot, 4 loads) is enough. Plain NEON has no dot product:
// `smull` multiplies 8 byte pairs into i16 and `sadalp` adds the i16 pairs
// into 4 i32 lanes, so each output owns a 4-lane accumulator, summed across
// once after the K loop; 4 x 4 outputs are 16 accumulators plus 4 + 4
// operand registers, 32 smull and 32 sadalp per 16-byte K step (the two
// run on different pipes of a Cortex-A57: 8 MACs per cycle).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOARMNEON_PLANNING_H
#define QUANTOPT_CONVERSION_QNTTOARMNEON_PLANNING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace quantopt::armneon {

inline int64_t roundUp(int64_t a, int64_t b) { return (a + b - 1) / b * b; }

/// The int8 extensions of the target; neither means plain NEON (smull).
struct ArmIsa {
  bool dotprod = false;
  bool i8mm = false;
};

/// The instruction of the inner loop.
enum class DotKind {
  Smmla,  ///< s8 x s8, 2x8 . (2x8)^T
  Ummla,  ///< u8 x u8
  Usmmla, ///< u8 activations x s8 weights
  /// s8 activations x u8 weights: usmmla with the weights as its first
  /// (unsigned) operand, so each 2x2 accumulator holds the transposed tile.
  UsmmlaTransposed,
  Sdot, ///< s8 x s8, 4-byte groups, by element
  /// s8 x s8 without a dot product: smull into i16, sadalp into i32, one
  /// 4-lane accumulator per output.
  Smull,
};

struct DotPlan {
  DotKind kind = DotKind::Sdot;
  /// Reduction indices per packed group: 8 (mmla), 4 (sdot) or 16 (smull).
  int64_t kStep = 4;
  /// Output rows and columns of one register tile.
  int64_t tileRows = 8;
  int64_t tileCols = 8;
  /// Activations are fed as x ^ 0x80, i.e. x = fed + offset.
  bool flipX = false;
  int32_t offset = 0;

  bool isMmla() const { return kStep == 8; }
  bool isSmull() const { return kind == DotKind::Smull; }
};

/// The M rows of a GEMM in register tiles: `full` tiles of `rows` rows,
/// then, for the remainder, one tile of `lastRows` (0: none), rounded up
/// only to what the instruction needs (a row pair for mmla), so that a
/// 12-row tile costs no 12-row padding. Packed activations hold the tiles
/// one after the other, each [Kp/kStep][its rows][kStep].
struct RowTiles {
  int64_t rows = 8;
  int64_t full = 0;
  int64_t lastRows = 0;

  int64_t paddedRows() const { return full * rows + lastRows; }
};

RowTiles planRowTiles(const DotPlan &plan, int64_t m);

/// Chooses the instruction from the target, the activations' storage type
/// and the range [minW, maxW] of the weights w' = w - zw[n] as they will be
/// packed (for run-time weights: their storage range). A flip needs the
/// column sums of w' at compile time (`constantWeights`). nullopt: the op is
/// left to the generic lowering.
std::optional<DotPlan> planDot(ArmIsa isa, bool xUnsigned, int64_t minW,
                               int64_t maxW, bool constantWeights);

/// Packs weights given as `weight(k, n)` (already w - zw, 0 outside K x N)
/// into [Np/N0][Kp/kStep][N0][kStep], N0 = `tileCols`.
std::vector<int8_t>
packWeights(int64_t kSize, int64_t n, int64_t kStep, int64_t tileCols,
            llvm::function_ref<int64_t(int64_t, int64_t)> weight);

/// The per-column bias correction (offset - zx) * sum_k w'[k, n], as the i32
/// it wraps to; empty when it is all zero.
llvm::SmallVector<int64_t> columnCorrection(llvm::ArrayRef<int64_t> sums,
                                            int32_t offset,
                                            int32_t inputZeroPoint);

} // namespace quantopt::armneon

#endif // QUANTOPT_CONVERSION_QNTTOARMNEON_PLANNING_H
