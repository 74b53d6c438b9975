//===- KernelEmitter.h - IR of the VNNI microkernels ------------*- C++ -*-===//
//
// Internal to the qnt-x86-vnni patterns: builds, on tensors, the loops of a
// planned kernel (Planning.h) around `qnt_kernel.x86.vpdpbusd` steps, and
// the activation pre-pass that flips and pads.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_QNTTOX86VNNI_KERNELEMITTER_H
#define LIB_CONVERSION_QNTTOX86VNNI_KERNELEMITTER_H

#include "FusedElementwise.h"
#include "FusedRequantize.h"
#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"
#include "QuantOpt/Dialect/Qnt/Utils/KernelLoops.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <vector>

namespace mlir::qnt::x86vnni {

using quantopt::x86vnni::ceilDiv;
using quantopt::x86vnni::ColumnTiling;
using quantopt::x86vnni::DotIsa;
using quantopt::x86vnni::kBytes;
using quantopt::x86vnni::kLanes;
using quantopt::x86vnni::kMinParallelTrips;

/// One reduction loop of the microkernel: `extent` steps (or [lb, ub) when
/// given), each advancing the activation offset by `xStride` bytes and the
/// weight offset by `wGroupStride` groups of 4 x N0 bytes.
struct KDim {
  int64_t extent = 0;
  Value lb, ub;
  int64_t xStride = 0;
  int64_t wGroupStride = 0;
};

/// Reads `len` elements (len <= width) of the innermost dimension of `src`
/// at `indices`, in bounds, as a vector<width> whose lanes past `len` are 0.
/// Every transfer emitted here is in bounds: no mask is ever materialized.
Value readPadded(OpBuilder &b, Location loc, Value src, ValueRange indices,
                 int64_t len, int64_t width);

/// `acc` plus, in each i32 lane, the four products of the lane's bytes of
/// `u8` (unsigned) and `s8` (signed), wrapping: vpdpbusd's function, built
/// from the instructions of `isa` (Planning.h says how for AVX2).
Value createDotU8S8(OpBuilder &b, Location loc, DotIsa isa, Value acc, Value u8,
                    Value s8);

/// The emulated step on operands already widened to 16 bits: `acc` plus
/// the vpmaddwd of the even lanes plus that of the odd lanes (16 i32 lanes,
/// 32 i16 ones per operand half).
Value createDotWidened(OpBuilder &b, Location loc, DotIsa isa, Value acc,
                       Value aEven, Value aOdd, Value bEven, Value bOdd);

/// Writes the first `len` lanes of `v` into `dest` at `indices`, in bounds.
Value writePrefix(OpBuilder &b, Location loc, Value v, Value dest,
                  ValueRange indices, int64_t len);

/// Software pipelining of register tiles (emitPipelinedTiles) applies to a
/// line of 2 to kMaxPipelinedTiles tiles (one chain; threads split the
/// lines, of which there must be kMinParallelTrips) whose reduction has at
/// most kMaxPipelinedSteps vpdpbusd steps. Measured (bench/run-bench.sh,
/// Zen 5): the 3x3 conv over 64 channels (144 steps) went from 93% to 95%
/// of the vpdpbusd peak; a 1024-deep matmul (256 steps), whose epilogue is
/// a smaller share, gained nothing, and lost 4% when its 256 tiles were cut
/// into chains of 8 (each chain's first and last tile unpipelined, and the
/// unrolled steps' loop-invariant loads spilled).
constexpr int64_t kMaxPipelinedTiles = 16;
constexpr int64_t kMaxPipelinedSteps = 192;

/// Emits the loops around and inside the register tiles of one op.
class KernelEmitter {
public:
  explicit KernelEmitter(Location loc) : loc(loc) {}

  // Operands, set by the caller.
  Value xFlat;       ///< tensor<?xi8> activations as fed to vpdpbusd
  Value wPacked;     ///< tensor<?xi8> packed weights
  Value biasFolded;  ///< tensor<Np x i32> bias + correction, or null
  Value biasRuntime; ///< tensor<N x i32>, when biasFolded is null
  Value correction;  ///< tensor<Np x i32> or null (all zero)
  bool weightsUnsigned = false;
  /// The activations are read as stored and flipped (x ^ 0x80) in
  /// registers, when no pre-pass copies them.
  bool flipX = false;
  /// Emulated ISAs: xFlat (tensor<?xi16>, copyRowWidened) and wPacked
  /// (tensor<?xi16>, widenPackedWeights) hold the operands widened to the
  /// vpmaddwd lanes, at the element offsets of the bytes they replace.
  bool widenedOperands = false;
  int64_t k1 = 0;
  ColumnTiling tiling{1};
  /// Conv groups: the group being emitted and the activation bytes between
  /// consecutive groups of one pixel. Each group has its own packed weights,
  /// its own padded slice of the bias constants and its own n columns.
  Value group; ///< index; null for a single group
  int64_t xGroupStride = 0;
  /// K blocking: the i32 partial sums of the earlier blocks, which the
  /// tiles start from instead of the bias; null for the first block.
  Value partials;
  /// The requantize applied before the tiles store, or null: the result
  /// then holds its codes instead of the i32 accumulators.
  const FusedRequantize *epilogue = nullptr;
  /// The elementwise body applied before the tiles store, or null (never
  /// with `epilogue`): the result then holds the body's values.
  const FusedElementwise *elementwise = nullptr;

  /// group * `stride`, as an index value.
  Value groupOffset(OpBuilder &nb, int64_t stride);

  int64_t packedGroupSize() const { return tiling.paddedN() * k1 * 4; }

  Value add(OpBuilder &nb, Value a, Value c);
  Value mul(OpBuilder &nb, Value a, int64_t c);

  /// The bias vector of columns [col, col + 16), `len` of them real.
  Value readBias(OpBuilder &nb, Value col, int64_t len);

  /// The 4 activation bytes at `offset`, broadcast to every lane (and
  /// flipped when `flipX`).
  Value broadcastX(OpBuilder &nb, Value offset);
  /// widenedOperands: the even and the odd words of the group at `offset`,
  /// each broadcast to vector<32xi16>.
  std::pair<Value, Value> broadcastWidenedX(OpBuilder &nb, Value offset);
  /// emitStep on widened operands.
  SmallVector<Value> emitWidenedStep(OpBuilder &nb, ArrayRef<Value> xOffsets,
                                     Value wOffset, int64_t nv,
                                     ValueRange accs);

  /// One K group: acc[i][v] += x_i . w_v for `rows` x `nv` accumulators.
  SmallVector<Value> emitStep(OpBuilder &nb, ArrayRef<Value> xOffsets,
                              Value wOffset, int64_t nv, ValueRange accs);

  /// The reduction loop nest from dimension `d` on.
  SmallVector<Value> emitKLoops(OpBuilder &nb, ArrayRef<KDim> dims,
                                ArrayRef<Value> xOffsets, Value wOffset,
                                int64_t nv, ValueRange accs);

  /// The index values of one register tile: its rows, the activation
  /// offset of each row, its columns within the group (bias) and in the
  /// result.
  struct TileCoords {
    SmallVector<Value> rowIdx, xOffsets, colIdx, outCol;
  };
  TileCoords tileCoords(OpBuilder &nb, Value row0, Value xBase0,
                        int64_t pixStride, int64_t rows, Value col,
                        ArrayRef<int64_t> lens);

  /// Accumulators of a tile starting from the bias.
  SmallVector<Value> biasAccumulators(OpBuilder &nb, const TileCoords &c,
                                      int64_t rows, ArrayRef<int64_t> lens);

  /// Stores accumulator (`i`, `v`) of a tile into `out`, requantized or
  /// through the elementwise body when one is fused.
  Value storeAccumulator(OpBuilder &nb, Value out, const TileCoords &c,
                         Value acc, int64_t i, int64_t v,
                         ArrayRef<int64_t> lens);

  /// emitKLoops with its first `slots` steps unrolled (the first steps of
  /// the innermost loop in the first iteration of the outer ones), each
  /// followed by `slot(s)`; slots past the unrolled steps run right after
  /// them. Every dimension must have a static extent.
  SmallVector<Value>
  emitKLoopsWithSlots(OpBuilder &nb, ArrayRef<KDim> dims,
                      ArrayRef<Value> xOffsets, Value wOffset, int64_t nv,
                      ValueRange accs, int64_t slots,
                      llvm::function_ref<void(OpBuilder &, int64_t)> slot);

  /// The first `count` >= 2 full register tiles of `rows` rows, tile t at
  /// `tileRow(t)` / `tileXBase(t)`, software pipelined: the requantize and
  /// store of each tile's accumulators run interleaved with the first K
  /// steps of the next tile, where the dot products leave execution ports
  /// free, instead of as a burst between the two. Same arithmetic, same
  /// results; the tiles form one serial chain.
  Value
  emitPipelinedTiles(OpBuilder &nb, Value out, int64_t count,
                     int64_t rows,
                     llvm::function_ref<Value(OpBuilder &, Value)> tileRow,
                     llvm::function_ref<Value(OpBuilder &, Value)> tileXBase,
                     int64_t pixStride, Value col, Value wBase,
                     ArrayRef<int64_t> lens, ArrayRef<KDim> dims);

  /// Whether emitPipelinedTiles applies: a fused epilogue (either kind) to
  /// interleave, one K block, static reduction extents.
  bool canPipelineTiles(ArrayRef<KDim> dims, Value firstBlock) const;

  /// One register tile of `rows` output rows from `row0` (activations at
  /// `xBase0` + i * `pixStride`) and `nv` vectors of columns from `col`.
  /// `firstBlock` (i1) selects the bias over the partial sums in `out` when
  /// K is blocked; null when it is not.
  Value emitTile(OpBuilder &nb, Value out, Value row0, Value xBase0,
                 int64_t pixStride, int64_t rows, Value col, Value wBase,
                 ArrayRef<int64_t> lens, ArrayRef<KDim> dims,
                 Value firstBlock);

  /// All tiles of one column tile over the rows: `lines` lines of `pixels`
  /// rows each; `lineXBase(l)` gives the activation offset of line l's first
  /// row, consecutive rows are `pixStride` bytes apart.
  Value emitColumnTile(OpBuilder &nb, Value out, int64_t lines, int64_t pixels,
                       llvm::function_ref<Value(OpBuilder &, Value)> lineXBase,
                       int64_t pixStride, Value col, Value wBase,
                       ArrayRef<int64_t> lens, ArrayRef<KDim> dims,
                       Value firstBlock);

  /// A matmul (one line of `rows` rows, no groups, no K blocks) with the
  /// loops swapped: register tiles of rows outside, every column tile of
  /// them inside, so that the outer loop has rows / M0 iterations when
  /// there are few column tiles.
  Value emitRowsOutside(OpBuilder &nb, Value out, int64_t rows,
                        int64_t pixStride, ArrayRef<KDim> dims);

  /// Every column tile, full ones in a loop, then the tail.
  Value emitColumns(OpBuilder &nb, Value out, int64_t lines, int64_t pixels,
                    llvm::function_ref<Value(OpBuilder &, Value)> lineXBase,
                    int64_t pixStride, ArrayRef<KDim> dims, Value firstBlock);

private:
  Location loc;
};


/// The bias operand: folded with `correction` into one constant when the
/// bias is constant, else kept at run time with the correction beside it.
/// Constants are laid out [group][paddedN], zero past each group's n.
void setBias(OpBuilder &b, Location loc, KernelEmitter &k, Value bias,
             ArrayRef<int64_t> correction);

/// Writes `length` elements of `code` (of dest's integer element type) into
/// `dest` from `indices` + `offset` (innermost dimension varying), in
/// bounds.
Value fillRow(OpBuilder &b, Location loc, Value dest, ValueRange indices,
              int64_t offset, int64_t length, int64_t code);

/// Copies the `length` bytes of `src` at `srcIndices` (innermost dimension
/// varying) to `dest` at `destIndices`, flipped when asked, then writes
/// `padLength` bytes of `padCode` after them. Full 64-byte chunks in a loop,
/// then one static-size tail: every access is in bounds.
Value copyRow(OpBuilder &b, Location loc, Value src, ValueRange srcIndices,
              Value dest, ValueRange destIndices, int64_t length, bool flip,
              int64_t padLength, int8_t padCode);

/// Copies `length` bytes (flipped when `flip`) from `src` to the i16
/// tensor `dest`, each group of 4 bytes q0..q3 as the 16-bit lanes q0, q2,
/// q1, q3 (the even then the odd pair of a vpmaddwd step), zero-extended
/// when `isUnsigned`, else sign-extended; a last partial group is padded
/// with zeros (the weights there are 0).
Value copyRowWidened(OpBuilder &b, Location loc, Value src,
                     ValueRange srcIndices, Value dest, ValueRange destIndices,
                     int64_t length, bool flip, bool isUnsigned);

Value collapseToFlat(OpBuilder &b, Location loc, Value t);

/// Packs the run-time weights `w` (K x N, i8, no zero point) into
/// `k.wPacked` with the layout of the constant path, and sets
/// `k.correction` to `factor * sum_k w[k, n]` per padded column (null when
/// `factor` is 0). `k.tiling`, `k.k1` and `k.weightsUnsigned` must be set.
void packRuntimeWeights(OpBuilder &b, Location loc, KernelEmitter &k, Value w,
                        int64_t kSize, int32_t factor);

} // namespace mlir::qnt::x86vnni

#endif // LIB_CONVERSION_QNTTOX86VNNI_KERNELEMITTER_H
