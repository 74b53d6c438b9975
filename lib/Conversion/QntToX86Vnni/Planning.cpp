//===- Planning.cpp - tile plans and weight packing for VNNI --------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdlib>

using namespace quantopt::x86vnni;

std::optional<OperandPlan>
quantopt::x86vnni::planOperands(int64_t minW, int64_t maxW, bool xUnsigned) {
  OperandPlan plan;
  if (minW >= -128 && maxW <= 127) {
    plan.weightsUnsigned = false;
    plan.flipX = !xUnsigned;
    plan.offset = xUnsigned ? 0 : -128;
    return plan;
  }
  if (minW >= 0 && maxW <= 255) {
    plan.weightsUnsigned = true;
    plan.flipX = xUnsigned;
    plan.offset = xUnsigned ? 128 : 0;
    return plan;
  }
  return std::nullopt;
}

WeightStats quantopt::x86vnni::scanWeights(llvm::ArrayRef<int64_t> codes,
                                           llvm::ArrayRef<int32_t> zw,
                                           int64_t kSize, int64_t n) {
  WeightStats stats;
  stats.columnSums.assign(n, 0);
  for (int64_t k = 0; k < kSize; ++k)
    for (int64_t col = 0; col < n; ++col) {
      int64_t v = codes[k * n + col] - zw[zw.size() == 1 ? 0 : col];
      stats.min = std::min(stats.min, v);
      stats.max = std::max(stats.max, v);
      stats.columnSums[col] += v;
    }
  return stats;
}

llvm::SmallVector<int64_t>
quantopt::x86vnni::columnCorrection(llvm::ArrayRef<int64_t> sums,
                                    int32_t offset, int32_t inputZeroPoint) {
  llvm::SmallVector<int64_t> result;
  int64_t factor = int64_t(offset) - inputZeroPoint;
  // Unsigned multiply: the product wraps modulo 2^64 without UB, and only
  // its low 32 bits matter.
  for (int64_t s : sums)
    result.push_back(static_cast<int32_t>(static_cast<uint32_t>(
        static_cast<uint64_t>(s) * static_cast<uint64_t>(factor))));
  return result;
}

ColumnTiling::ColumnTiling(int64_t n, DotIsa isa) : n(n), isa(isa) {
  nv = std::min<int64_t>(hasSixteenRegisters() ? 1 : 4, ceilDiv(n, kLanes));
  full = n / (kLanes * nv);
  nvTail = ceilDiv(n - full * kLanes * nv, kLanes);
}

std::vector<int16_t>
quantopt::x86vnni::widenPackedWeights(llvm::ArrayRef<int8_t> packed,
                                      bool isUnsigned) {
  std::vector<int16_t> wide(packed.size(), 0);
  auto widen = [&](int8_t byte) -> int16_t {
    return isUnsigned ? int16_t(uint8_t(byte)) : int16_t(byte);
  };
  for (size_t base = 0; base + kBytes <= packed.size(); base += kBytes)
    for (int64_t lane = 0; lane < kBytes; ++lane)
      wide[base + lane] = widen(packed[base + widenedLaneSource(lane)]);
  return wide;
}

int64_t quantopt::x86vnni::widenedLaneSource(int64_t lane) {
  // Lanes 0..31 are the even bytes (q0 then q2 of each column), 32..63 the
  // odd ones (q1 then q3).
  int64_t odd = lane / 32, column = (lane % 32) / 2, half = lane % 2;
  return 4 * column + 2 * half + odd;
}

bool quantopt::x86vnni::rowsOutside(const ColumnTiling &tiling,
                                    int64_t rows) {
  int64_t columnTiles = tiling.full + (tiling.nvTail ? 1 : 0);
  int64_t vectors = tiling.full ? tiling.nv : tiling.nvTail;
  return columnTiles < kMinParallelTrips &&
         rows / tiling.rowsPerTile(vectors) >= kMinParallelTrips;
}

std::vector<int8_t> quantopt::x86vnni::packWeights(
    const ColumnTiling &tiling, int64_t k1,
    llvm::function_ref<int32_t(int64_t kk, int64_t q, int64_t col)> weight) {
  std::vector<int8_t> packed(tiling.paddedN() * k1 * 4, 0);
  auto packTile = [&](int64_t base, int64_t col0, int64_t n0) {
    for (int64_t kk = 0; kk < k1; ++kk)
      for (int64_t j = 0; j < n0; ++j) {
        int64_t col = col0 + j;
        if (col >= tiling.n)
          continue;
        for (int64_t q = 0; q < 4; ++q)
          packed[base + (kk * n0 + j) * 4 + q] =
              static_cast<int8_t>(weight(kk, q, col));
      }
  };
  int64_t n0 = tiling.nv * kLanes;
  for (int64_t t = 0; t < tiling.full; ++t)
    packTile(t * k1 * n0 * 4, t * n0, n0);
  if (tiling.nvTail)
    packTile(tiling.full * k1 * n0 * 4, tiling.full * n0,
             tiling.nvTail * kLanes);
  return packed;
}

std::optional<OneSumRescale>
quantopt::x86vnni::planOneSumRescale(bool doubleRounding, int32_t rightShift,
                                     int32_t zeroPoint) {
  if (rightShift < (doubleRounding ? 1 : 0) || rightShift > 31)
    return std::nullopt;
  OneSumRescale plan;
  plan.shift = 31 + int64_t(rightShift);
  plan.signTerm = doubleRounding;
  // (2^s - 1) 2^30 = 2^30 + 2^(30 + s) - 2^31 for "double" (the high
  // multiply's nudge, the divide's half, and the 2^31 that the sign term
  // gives back for x >= 0); 2^(30 + s) for "single".
  plan.addend = ((int64_t(1) << rightShift) - (doubleRounding ? 1 : 0)) << 30;
  if (zeroPoint != 0) {
    int64_t z = std::abs(int64_t(zeroPoint));
    if (rightShift < 1 || plan.shift > 60 || z >= (int64_t(1) << 30) ||
        z > (int64_t(1) << (60 - plan.shift)))
      return std::nullopt;
    plan.addend += int64_t(zeroPoint) * (int64_t(1) << plan.shift);
  }
  return plan;
}

int64_t quantopt::x86vnni::applyOneSumRescale(const OneSumRescale &plan,
                                              int32_t x, int32_t multiplier) {
  int64_t sum = int64_t(x) * multiplier + plan.addend;
  if (plan.signTerm)
    sum += int64_t(~uint32_t(x) & 0x80000000u);
  // Arithmetic shift of a negative value: arithmetic on every supported
  // compiler (and defined since C++20).
  return sum >> plan.shift;
}

llvm::SmallVector<ReductionLoop> quantopt::x86vnni::planConvReduction(
    int64_t kh, int64_t kw, int64_t c4, int64_t dilationH, int64_t dilationW,
    int64_t wp, int64_t cPadded) {
  llvm::SmallVector<ReductionLoop> loops;
  auto add = [&](int64_t extent, int64_t xStride, int64_t wStride) {
    if (extent == 1)
      return;
    if (!loops.empty()) {
      ReductionLoop &outer = loops.back();
      if (outer.xStride == extent * xStride &&
          outer.wGroupStride == extent * wStride) {
        outer.extent *= extent;
        outer.xStride = xStride;
        outer.wGroupStride = wStride;
        return;
      }
    }
    loops.push_back(ReductionLoop{extent, xStride, wStride});
  };
  add(kh, dilationH * wp * cPadded, kw * c4);
  add(kw, dilationW * cPadded, c4);
  add(c4, 4, 1);
  if (loops.empty())
    loops.push_back(ReductionLoop{1, 4, 1});
  return loops;
}

KBlocking quantopt::x86vnni::planKBlocks(int64_t k1, int64_t kBlock) {
  KBlocking plan;
  plan.blocks = kBlock > 0 ? ceilDiv(k1, kBlock) : 1;
  plan.blockSize = ceilDiv(k1, plan.blocks);
  return plan;
}

OutputRange quantopt::x86vnni::interiorOutputs(int64_t inSize, int64_t outSize,
                                               int64_t padLow, int64_t kernel,
                                               int64_t stride,
                                               int64_t dilation) {
  // Output o reads inputs o * stride - padLow + t * dilation, t < kernel:
  // inside when o * stride >= padLow and
  // o * stride <= inSize - 1 - (kernel - 1) * dilation + padLow.
  OutputRange range;
  range.lo = std::min(outSize, ceilDiv(padLow, stride));
  int64_t last = inSize - 1 - (kernel - 1) * dilation + padLow;
  range.hi = last < 0 ? 0 : std::min(outSize, last / stride + 1);
  range.hi = std::max(range.hi, range.lo);
  return range;
}

DepthwisePlan quantopt::x86vnni::planDepthwise(int64_t channels, int64_t lanes,
                                               int64_t kernelW, int64_t stride,
                                               int64_t dilation) {
  DepthwisePlan plan;
  plan.lanes = lanes;
  plan.fullVectors = channels / lanes;
  plan.tailLanes = channels % lanes;
  // Registers: tileW accumulators + kernelW weights + the inputs of one
  // filter row, (tileW - 1) * stride + (kernelW - 1) * dilation + 1 at most.
  int64_t registers = lanes == 16 ? 32 : 16;
  int64_t budget = registers - 2; // epilogue constants, addresses
  plan.tileW = 1;
  for (int64_t t = lanes == 16 ? 12 : 6; t > 1; --t) {
    int64_t inputs =
        std::min((t - 1) * stride + (kernelW - 1) * dilation + 1, t * kernelW);
    if (t + kernelW + inputs <= budget) {
      plan.tileW = t;
      break;
    }
  }
  return plan;
}

llvm::SmallVector<int64_t>
quantopt::x86vnni::tileInputColumns(int64_t pixels, int64_t kernelW,
                                    int64_t stride, int64_t dilation) {
  llvm::SmallVector<int64_t> columns;
  for (int64_t j = 0; j < pixels; ++j)
    for (int64_t t = 0; t < kernelW; ++t)
      columns.push_back(j * stride + t * dilation);
  llvm::sort(columns);
  columns.erase(std::unique(columns.begin(), columns.end()), columns.end());
  return columns;
}
