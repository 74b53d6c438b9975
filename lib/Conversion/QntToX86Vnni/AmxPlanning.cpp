//===- AmxPlanning.cpp - tile plans and weight packing for AMX ------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/AmxPlanning.h"

#include <algorithm>

using namespace quantopt::x86amx;

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

AmxPlan quantopt::x86amx::planAmxMatmul(int64_t m, int64_t k, int64_t n,
                                        int64_t kChunk) {
  AmxPlan plan;
  plan.m = m;
  plan.k = k;
  plan.n = n;
  plan.mTiles = ceilDiv(m, kTileRows);
  plan.kTiles = ceilDiv(k, kTileK);
  plan.nTiles = ceilDiv(n, kTileN);
  plan.kChunk = std::max<int64_t>(1, kChunk);
  return plan;
}

std::vector<int8_t> quantopt::x86amx::packAmxWeights(
    const AmxPlan &plan,
    llvm::function_ref<int32_t(int64_t kIdx, int64_t col)> weight) {
  std::vector<int8_t> packed(plan.packedRows() * kTileBytes, 0);
  for (int64_t nt = 0; nt < plan.nTiles; ++nt)
    for (int64_t kt = 0; kt < plan.kTiles; ++kt)
      for (int64_t r = 0; r < kTileRows; ++r)
        for (int64_t c = 0; c < kTileN; ++c)
          for (int64_t q = 0; q < 4; ++q) {
            int64_t kIdx = kt * kTileK + 4 * r + q, col = nt * kTileN + c;
            if (kIdx >= plan.k || col >= plan.n)
              continue;
            packed[(plan.packedRow(nt, kt) + r) * kTileBytes + 4 * c + q] =
                static_cast<int8_t>(weight(kIdx, col));
          }
  return packed;
}

AmxConvReduction quantopt::x86amx::planAmxConvReduction(int64_t kh, int64_t kw,
                                                        int64_t c,
                                                        int64_t dilationW) {
  AmxConvReduction r;
  r.runCoversRow = dilationW == 1;
  r.runs = r.runCoversRow ? kh : kh * kw;
  r.runBytes = r.runCoversRow ? kw * c : c;
  r.tilesPerRun = ceilDiv(r.runBytes, kTileK);
  return r;
}

std::optional<AmxConvReduction::Tap>
AmxConvReduction::tap(int64_t run, int64_t byte, int64_t kw, int64_t c) const {
  if (byte >= runBytes)
    return std::nullopt;
  if (runCoversRow)
    return Tap{run, byte / c, byte % c};
  return Tap{run / kw, run % kw, byte};
}
