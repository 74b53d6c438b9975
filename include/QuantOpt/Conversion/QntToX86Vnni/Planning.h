//===- Planning.h - tile plans and weight packing for VNNI ------*- C++ -*-===//
//
// The decisions of the AVX-512 VNNI kernels that do not need IR: which
// operand is unsigned, how output columns split into register tiles, how
// the reduction loops nest, and the packed weight layout. Plain C++ (LLVM
// ADT only), unit-tested on its own; the rewrite patterns turn a plan into
// IR.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOX86VNNI_PLANNING_H
#define QUANTOPT_CONVERSION_QNTTOX86VNNI_PLANNING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace quantopt::x86vnni {

/// i32 lanes per zmm register.
constexpr int64_t kLanes = 16;
/// Bytes per zmm register.
constexpr int64_t kBytes = 64;

inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// The instructions a contraction kernel's dot-product step is built from.
/// Either way the step is the same function of the same packed bytes (a
/// vpdpbusd on 16 i32 lanes), so everything but the step and the register
/// budget is shared.
enum class DotIsa {
  /// AVX-512 VNNI: one 512-bit vpdpbusd; 32 vector registers.
  Avx512Vnni,
  /// AVX-VNNI without AVX-512 (Alder Lake and later client cores): the
  /// 256-bit VEX vpdpbusd, twice per step; 16 vector registers.
  AvxVnni,
  /// AVX-512 BW without VNNI (Skylake-SP): the step emulated as below, by
  /// two 512-bit vpmaddwd; 32 vector registers.
  Avx512Bw,
  /// AVX2 without VNNI: the even and the odd bytes of each 16-bit lane
  /// widened to 16 bits and multiplied by two vpmaddwd per 256 bits, whose
  /// pair sums (at most 2 * 255 * 128) add to the accumulator exactly;
  /// 16 vector registers.
  Avx2,
};

/// How the 8-bit operands meet vpdpbusd (u8 x s8).
struct OperandPlan {
  /// The weights are the u8 operand and the activations the s8 one;
  /// otherwise the reverse.
  bool weightsUnsigned = false;
  /// Activations are fed as x ^ 0x80.
  bool flipX = false;
  /// x = fed + offset (-128, 0 or +128).
  int32_t offset = 0;
};

/// Chooses the operand roles from the range [minW, maxW] of
/// w' = w - zw[n]: s8 weights when w' fits s8, else u8 weights when it fits
/// u8, else nullopt (the op is left to the generic lowering).
std::optional<OperandPlan> planOperands(int64_t minW, int64_t maxW,
                                        bool xUnsigned);

/// Range and per-column sums of w' = w - zw[col] over weights viewed as a
/// row-major K x N matrix (HWCF filters flatten to (KH*KW*C/groups) x F).
struct WeightStats {
  int64_t min = INT64_MAX, max = INT64_MIN;
  llvm::SmallVector<int64_t> columnSums;
};

/// `zw` holds one zero point, or one per column.
WeightStats scanWeights(llvm::ArrayRef<int64_t> codes,
                        llvm::ArrayRef<int32_t> zw, int64_t kSize, int64_t n);

/// The per-column bias correction (offset - zx) * sum_k w'[k, n], as the i32
/// it wraps to (sign-extended).
llvm::SmallVector<int64_t> columnCorrection(llvm::ArrayRef<int64_t> sums,
                                            int32_t offset,
                                            int32_t inputZeroPoint);

/// Output columns split into register tiles: `full` tiles of `nv` vectors
/// (N0 = 16 * nv columns), then one tile of `nvTail` vectors (0: none).
struct ColumnTiling {
  int64_t n = 0;
  int64_t nv = 0;
  int64_t full = 0;
  int64_t nvTail = 0;
  DotIsa isa = DotIsa::Avx512Vnni;

  /// Tiles of up to 4 vectors (64 columns) with AVX-512, of 1 with AVX2
  /// or AVX-VNNI, whose 16 ymm registers hold 4 x 2 accumulators and (AVX2)
  /// the widened weights (4) and activations (2) of one step.
  explicit ColumnTiling(int64_t n, DotIsa isa = DotIsa::Avx512Vnni);
  /// AVX2 and AVX-VNNI have 16 ymm registers, AVX-512 32 zmm ones.
  bool hasSixteenRegisters() const {
    return isa == DotIsa::Avx2 || isa == DotIsa::AvxVnni;
  }
  /// Columns of the packed weights and padded bias: N rounded up to tiles.
  int64_t paddedN() const { return (full * nv + nvTail) * kLanes; }
  /// Rows per register tile for a tile of `vectors` vectors: at least 8
  /// independent accumulators where the vector registers allow.
  int64_t rowsPerTile(int64_t vectors) const {
    if (hasSixteenRegisters())
      return 4;
    return vectors >= 3 ? 4 : 8;
  }
  /// Whether a kernel of `rows` output rows reads its operands widened to
  /// 16 bits ahead (the ISAs that emulate vpdpbusd, with at least two
  /// register tiles of rows): the weights once when they are packed, the
  /// activations once per row by a pre-pass, instead of in every register
  /// tile. That doubles the weights' bytes, which a few rows do not pay
  /// for: 768 x 3072 (W8A8) took 1.3x less time at 32 and 128 rows and
  /// 1.2x more at 1 row (bench/run-w8a8-bench.sh, Zen 3).
  bool widensAhead(int64_t rows) const {
    return (isa == DotIsa::Avx2 || isa == DotIsa::Avx512Bw) &&
           rows >= 2 * rowsPerTile(nv);
  }
};

/// The least number of iterations qnt-parallelize-tiles wants from an
/// outer loop before it looks at the loops inside (its `min-trips`).
constexpr int64_t kMinParallelTrips = 8;

/// Whether a matmul of `rows` rows (one K block) runs its register tiles of
/// rows in the outer loop and the column tiles inside: when there are fewer
/// column tiles than kMinParallelTrips but enough row tiles. Then threads
/// split rows in one parallel region, instead of forking once per column
/// tile (256^3: 4 column tiles, 64 row tiles); one thread measured the
/// same, while with many column tiles rows outside was 7% slower (each
/// row tile cycles through every weight panel).
bool rowsOutside(const ColumnTiling &tiling, int64_t rows);

/// Packs w' into [tile][K1][N0][4] bytes (N0 the tile's columns); K and N
/// padding is 0. `weight(kk, q, col)` returns w' of reduction index
/// 4 * kk + q (0 for K padding) and column `col` < n.
std::vector<int8_t>
packWeights(const ColumnTiling &tiling, int64_t k1,
            llvm::function_ref<int32_t(int64_t kk, int64_t q, int64_t col)>
                weight);

/// The packed weights of the emulated ISAs (Avx2, Avx512Bw), widened at
/// compile time so that a step reads the vpmaddwd operands directly: each
/// 64-byte vector of a step (16 columns x 4 bytes q0..q3) becomes 32
/// 16-bit "even" lanes (q0, q2 of each column) and then 32 "odd" ones
/// (q1, q3), zero- or sign-extended. The 64 lanes sit at the element
/// offset of the 64 bytes they replace, so the byte layout's offsets hold.
std::vector<int16_t> widenPackedWeights(llvm::ArrayRef<int8_t> packed,
                                        bool isUnsigned);

/// The byte of a 64-byte packed vector that widened lane `lane` (0..63)
/// takes: the layout widenPackedWeights writes, which the run-time packing
/// of weights builds with the same shuffle.
int64_t widenedLaneSource(int64_t lane);

/// One reduction loop of the microkernel: `extent` steps, each advancing
/// the activations by `xStride` bytes and the packed weights by
/// `wGroupStride` groups of 4 x N0 bytes.
struct ReductionLoop {
  int64_t extent = 0;
  int64_t xStride = 0;
  int64_t wGroupStride = 0;
};

/// The reduction loops of an implicit-GEMM conv over an activation buffer
/// [N][Hp][Wp][C] (C = cPadded bytes per pixel, c4 = groups of 4 channels
/// per conv group), outermost first. Loops of one step vanish, and a loop
/// whose strides are the inner loop's times its extent merges with it: with
/// unit dilation (kw, c4) is one run of KW * C4 contiguous groups. Never
/// empty.
llvm::SmallVector<ReductionLoop> planConvReduction(int64_t kh, int64_t kw,
                                                   int64_t c4,
                                                   int64_t dilationH,
                                                   int64_t dilationW,
                                                   int64_t wp, int64_t cPadded);

/// Matmul K blocking: `blocks` blocks of at most `blockSize` groups of 4
/// (the last may be shorter). kBlock <= 0 disables blocking.
struct KBlocking {
  int64_t blocks = 1;
  int64_t blockSize = 0;
};
KBlocking planKBlocks(int64_t k1, int64_t kBlock);

//===----------------------------------------------------------------------===//
// Requantize epilogue as one rounding shift
//===----------------------------------------------------------------------===//

/// The rescale of the fused epilogue's even/odd form: with p = x * M exact,
///   q + z = (p + addend + (signTerm ? (~x & 2^31) : 0)) >> shift,
/// equal to the reference's multiplyByQuantizedMultiplier(x, {M, s}) + z in
/// mode "double" (signTerm) or "single", for every int32 x and every
/// multiplier M >= 0, without overflowing int64. The kernel emits the same
/// sum on 64-bit vector lanes (FusedRequantize.cpp, which has the algebra).
struct OneSumRescale {
  int64_t addend = 0;
  int64_t shift = 0;
  bool signTerm = false;
};

/// nullopt where the form does not hold: "double" needs rightShift >= 1,
/// "single" >= 0; a zero point z != 0 needs rightShift >= 1 (|q| <= 2^30,
/// so q + z fits int32 for |z| < 2^30) and |z| * 2^(31 + s) <= 2^60 (the
/// sum stays below 2^63).
std::optional<OneSumRescale>
planOneSumRescale(bool doubleRounding, int32_t rightShift, int32_t zeroPoint);

/// The scalar value of one lane: q + z as above.
int64_t applyOneSumRescale(const OneSumRescale &plan, int32_t x,
                           int32_t multiplier);

//===----------------------------------------------------------------------===//
// Depthwise convolution (groups == channels), vectorized along channels
//===----------------------------------------------------------------------===//

/// The outputs [lo, hi) of one spatial dimension whose whole window lies
/// inside the input, i.e. that read no padding; lo == hi when none does.
struct OutputRange {
  int64_t lo = 0, hi = 0;
};
OutputRange interiorOutputs(int64_t inSize, int64_t outSize, int64_t padLow,
                            int64_t kernel, int64_t stride, int64_t dilation);

/// How the depthwise kernel splits its work: `lanes` channels per vector
/// (i32 lanes: 16 on AVX-512, 8 on AVX2), `fullVectors` of them then one
/// vector of `tailLanes` channels (0: none), and register tiles of `tileW`
/// output pixels along W.
struct DepthwisePlan {
  int64_t lanes = 16;
  int64_t fullVectors = 0;
  int64_t tailLanes = 0;
  int64_t tileW = 1;
  /// Channels padded to whole vectors: the length of the per-channel tables.
  int64_t paddedChannels() const {
    return (fullVectors + (tailLanes ? 1 : 0)) * lanes;
  }
};

/// `lanes` is 16 or 8. The tile holds `tileW` accumulators, the `kernelW`
/// weights of one filter row and the inputs they read within the vector
/// registers (32 with AVX-512, 16 with AVX2).
DepthwisePlan planDepthwise(int64_t channels, int64_t lanes, int64_t kernelW,
                            int64_t stride, int64_t dilation);

/// The input columns, relative to the first one, that a tile of `pixels`
/// outputs reads: every j * stride + t * dilation (j < pixels, t < kernelW),
/// sorted and distinct. The kernel loads each once per filter row.
llvm::SmallVector<int64_t> tileInputColumns(int64_t pixels, int64_t kernelW,
                                            int64_t stride, int64_t dilation);

} // namespace quantopt::x86vnni

#endif // QUANTOPT_CONVERSION_QNTTOX86VNNI_PLANNING_H
