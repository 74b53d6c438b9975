//===- AmxPlanning.h - tile plans and weight packing for AMX ----*- C++ -*-===//
//
// The decisions of the AMX-INT8 matmul kernel that do not need IR: how M, N
// and K split into tiles, how the K loop is chunked, and the packed B-tile
// layout of the weights. Plain C++ (LLVM ADT only), unit-tested on its own.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOX86VNNI_AMXPLANNING_H
#define QUANTOPT_CONVERSION_QNTTOX86VNNI_AMXPLANNING_H

#include "llvm/ADT/STLFunctionalExtras.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace quantopt::x86amx {

/// Rows of every tile (the AMX maximum).
constexpr int64_t kTileRows = 16;
/// Bytes per tile row (the AMX maximum): 64 reduction indices of an A tile,
/// 16 groups of 4 of a B tile, 16 i32 of a C tile.
constexpr int64_t kTileBytes = 64;
/// Reduction indices per A tile / per K step.
constexpr int64_t kTileK = kTileBytes;
/// Output columns per B / C tile.
constexpr int64_t kTileN = kTileBytes / 4;

/// A matmul M x K x N cut into 16 x 64 A tiles, 16 x 64 B tiles (16 K
/// groups of 4 x 16 columns) and 16 x 16 i32 C tiles, every dimension
/// padded up to whole tiles. The K steps of one accumulator block are
/// emitted in chunks of at most `kChunk` steps.
struct AmxPlan {
  int64_t m = 0, k = 0, n = 0;
  int64_t mTiles = 0, kTiles = 0, nTiles = 0;
  int64_t kChunk = 1;

  int64_t paddedM() const { return mTiles * kTileRows; }
  int64_t paddedK() const { return kTiles * kTileK; }
  int64_t paddedN() const { return nTiles * kTileN; }
  /// Rows of the packed weights viewed as [rows][64] bytes.
  int64_t packedRows() const { return nTiles * kTiles * kTileRows; }
  /// First packed row of B tile (nt, kt).
  int64_t packedRow(int64_t nt, int64_t kt) const {
    return (nt * kTiles + kt) * kTileRows;
  }
  /// The activations can be tile-loaded in place: no M or K padding.
  bool activationsInPlace() const { return paddedM() == m && paddedK() == k; }
};

/// kChunk <= 0 is taken as 1.
AmxPlan planAmxMatmul(int64_t m, int64_t k, int64_t n, int64_t kChunk = 16);

/// Packs w' (K x N, each value in s8 or u8 range, stored as its low byte)
/// into B tiles, [nTiles][kTiles][16 rows][16 columns][4]: byte
/// 4 c + q of row r of tile (nt, kt) is w'(64 kt + 4 r + q, 16 nt + c),
/// 0 past K or N. `weight(kIdx, col)` is called only inside K x N.
std::vector<int8_t>
packAmxWeights(const AmxPlan &plan,
               llvm::function_ref<int32_t(int64_t kIdx, int64_t col)> weight);

/// The reduction of a conv (KH x KW x C, groups = 1) as AMX K tiles over an
/// NHWC input padded spatially: the bytes one output pixel reads form
/// `runs` contiguous runs of `runBytes` bytes (per filter row: the KW * C
/// bytes of KW adjacent pixels when the W dilation is 1; else per tap: C
/// bytes), each cut into `tilesPerRun` K tiles of 64 bytes. The last tile
/// of a run may read up to 63 bytes past it: the packed weights are 0 there.
struct AmxConvReduction {
  int64_t runs = 0;
  int64_t runBytes = 0;
  int64_t tilesPerRun = 0;
  bool runCoversRow = false; ///< one run per filter row (W dilation 1)
  int64_t kTiles() const { return runs * tilesPerRun; }
  /// The filter position of byte `byte` (< 64 * tilesPerRun) of run `run`:
  /// (kh, kw, c), or nullopt past the run.
  struct Tap {
    int64_t kh, kw, c;
  };
  std::optional<Tap> tap(int64_t run, int64_t byte, int64_t kw,
                         int64_t c) const;
};

AmxConvReduction planAmxConvReduction(int64_t kh, int64_t kw, int64_t c,
                                      int64_t dilationW);

} // namespace quantopt::x86amx

#endif // QUANTOPT_CONVERSION_QNTTOX86VNNI_AMXPLANNING_H
