//===- AmxKernels.cpp - int8 matmuls and convs on AMX-INT8 tiles ----------===//
//
// Rewrites `qnt.int_matmul` and `qnt.int_conv2d` (groups = 1, as an implicit
// GEMM: IntConv2DToAmx) with constant weights into loops of upstream `amx`
// ops. One `tdpb[su][su]d` multiplies a 16 x 64 byte A tile (16 rows of
// activations, 64 reduction indices) by a 16 x 64 byte B tile (16 groups of 4
// reduction indices x 16 columns, 4 bytes per column: the VNNI layout) into a
// 16 x 16 i32 C tile: 16384 MACs. The `zext` flags of `amx.tile_muli` say
// which operand is unsigned, so u8 and s8 activations meet s8 (or u8) weights
// directly: no flip, no 128 correction.
//
// With w' = w - zw[n] (exact, at compile time; the op is left alone unless
// every w' fits s8 or every w' fits u8):
//   acc[m, n] = sum_k x[m, k] w'[k, n] + (b[n] - zx * sum_k w'[k, n])
// and the second term, one i32 per column, is what the C tiles start from.
//
// Blocking: 2 x 2 C tiles (32 x 32 outputs) per block, 2 A + 2 B tile loads
// per K step: the 8 tile registers. Rows and columns of tiles that do not
// pair up take 1 x 2, 2 x 1 or 1 x 1 blocks. Tails: K and N padding of the
// packed weights is zero; activations whose M or K is not a whole number of
// tiles are copied into a zero-padded buffer first; the result is computed
// into a [Mp][Np] buffer whose M x N corner is returned.
//
// Where this sits in the pipeline: amx ops take memrefs, and tile values
// cannot cross blocks (the LLVM conversion of `cf` branches does not know
// the tile type). So the kernel is emitted on buffers from the start, next
// to the tensor code: `bufferization.to_buffer read_only` casts of its
// operands (One-Shot Bufferize replaces them with the operands' buffers,
// copying only where a layout cannot be cast), a fresh `memref.alloc` for
// the result handed back through `bufferization.to_tensor restrict
// writable`; and the K loop of each block is unrolled in chunks, partial
// sums going through the result buffer between chunks.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Amx.h"

#include "../KernelEpilogue/EpiloguePlan.h"
#include "../QntToLinalg/FixedPointBuilder.h"
#include "KernelEmitter.h"
#include "QuantOpt/Conversion/QntToX86Vnni/AmxPlanning.h"
#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::qnt;
using namespace quantopt::x86amx;

namespace {

/// As in the VNNI patterns: packing a large splat would expand it.
constexpr int64_t kMaxPackedSplatElements = int64_t(1) << 20;
/// The most output columns (matmul) or filters (conv) the AMX kernels
/// take: their bias rows are 16 x N i32, 64 MB here.
constexpr int64_t kMaxAmxColumns = int64_t(1) << 20;

/// A buffer type every tensor's buffer casts to without a copy as long as
/// its rows are contiguous (what `amx.tile_load` requires).
MemRefType rowStridedBuffer(MLIRContext *ctx, ArrayRef<int64_t> shape,
                            Type element) {
  auto layout = StridedLayoutAttr::get(ctx, ShapedType::kDynamic,
                                       {ShapedType::kDynamic, 1});
  return MemRefType::get(shape, element, layout);
}

/// The `qnt.int_requantize` fused into the kernel: after a block's last K
/// chunk has stored its C tiles, each row of 16 i32 is read back (hot in
/// L1), requantized by FixedPointBuilder on vectors (the code of
/// qnt-to-linalg, so the same bits) and stored as narrow codes. Which
/// requantize ops qualify and their tables are EpiloguePlan's.
struct AmxEpilogue : EpiloguePlan {
  explicit AmxEpilogue(const EpiloguePlan &plan) : EpiloguePlan(plan) {}

  Value read(OpBuilder &b, Location loc, const ChannelParam &p,
             Value col) const {
    if (p.table) {
      auto type = cast<ShapedType>(p.table.getType());
      return vector::TransferReadOp::create(
          b, loc, VectorType::get({kTileN}, type.getElementType()), p.table,
          ValueRange{col}, std::nullopt, ArrayRef<bool>{true});
    }
    return arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(VectorType::get({kTileN}, p.splat.getType()),
                               p.splat));
  }

  /// The codes of 16 accumulators of columns [col, col + 16).
  Value apply(OpBuilder &b, Location loc, Value acc, Value col) const {
    auto readAt = [&](const ChannelParam &p, VectorType) {
      return read(b, loc, p, col);
    };
    // The builder keeps the shape by reference.
    static constexpr int64_t kShape[] = {kTileN};
    FixedPointBuilder fp(b, loc, kShape);
    Value result = subtractInputZeroPoint(b, loc, fp, acc, readAt);
    // Not readRescaleOperands: the shifts' sign is not passed on here, so
    // the builder keeps its left-shift step (as it always has for AMX).
    RescaleOperands rescale;
    if (mode == quantopt::ref::RoundingMode::Float) {
      rescale.floatMultiplier = read(b, loc, floatMultiplier, col);
    } else {
      rescale.multiplier = read(b, loc, multiplier, col);
      rescale.rightShift = read(b, loc, shift, col);
    }
    return narrowToStorage(b, loc,
                           rescaleAndClamp(b, loc, fp, result, rescale,
                                           read(b, loc, zpOut, col), readAt));
  }
};

/// Whether `op` can be fused after a contraction whose `channels` output
/// channels are its last dimension.
std::optional<AmxEpilogue> planEpilogue(IntRequantizeOp op, int64_t channels) {
  std::optional<EpiloguePlan> plan = EpiloguePlan::get(op, channels);
  if (!plan)
    return std::nullopt;
  return AmxEpilogue(*plan);
}

/// Builds the loops of one planned matmul around the tile ops.
struct AmxEmitter {
  AmxEmitter(Location loc, const AmxPlan &plan) : loc(loc), plan(plan) {}

  Location loc;
  AmxPlan plan;
  bool xZext = false, wZext = false;
  /// The A tile of tile row `mt` (16 rows of the GEMM) and K step `kt`.
  std::function<Value(OpBuilder &, Value mt, Value kt)> loadA;
  Value wBuf;    ///< [packedRows][64] i8 packed weights
  Value biasBuf; ///< [16][Np] i32: the starting row of every C tile, 16 times
  Value outBuf;  ///< [Mp][Np] i32 result
  /// With a fused requantization: the codes, [Mp][Np] of its storage type.
  const AmxEpilogue *epilogue = nullptr;
  Value codesBuf;
  amx::TileType aTile, cTile;

  Value idx(OpBuilder &b, int64_t v) const {
    return arith::ConstantIndexOp::create(b, loc, v);
  }
  Value mulAdd(OpBuilder &b, Value v, int64_t scale, int64_t offset) const {
    Value r = arith::MulIOp::create(b, loc, v, idx(b, scale));
    return offset ? arith::AddIOp::create(b, loc, r, idx(b, offset)).getResult()
                  : r;
  }

  /// The C tiles of a rows x cols block at tile (mt, nt), from the bias rows
  /// or from the partial sums in the result.
  SmallVector<Value> loadAccs(OpBuilder &b, Value mt, Value nt, int64_t rows,
                              int64_t cols, bool fromBias) const {
    SmallVector<Value> accs;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j) {
        Value row = fromBias ? idx(b, 0) : mulAdd(b, mt, kTileRows, i * 16);
        Value col = mulAdd(b, nt, kTileN, j * kTileN);
        accs.push_back(amx::TileLoadOp::create(
            b, loc, cTile, fromBias ? biasBuf : outBuf, ValueRange{row, col}));
      }
    return accs;
  }

  void storeAccs(OpBuilder &b, Value mt, Value nt, int64_t rows, int64_t cols,
                 ArrayRef<Value> accs) const {
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t j = 0; j < cols; ++j)
        amx::TileStoreOp::create(
            b, loc, outBuf,
            ValueRange{mulAdd(b, mt, kTileRows, i * kTileRows),
                       mulAdd(b, nt, kTileN, j * kTileN)},
            accs[i * cols + j]);
  }

  /// `count` K steps from tile `ktBase`: per step, rows A and cols B tiles
  /// loaded, then rows x cols tile multiplies.
  void emitSteps(OpBuilder &b, Value mt, Value nt, int64_t rows, int64_t cols,
                 Value ktBase, int64_t count,
                 SmallVectorImpl<Value> &accs) const {
    for (int64_t s = 0; s < count; ++s) {
      Value kt = arith::AddIOp::create(b, loc, ktBase, idx(b, s));
      SmallVector<Value> as, bs;
      for (int64_t i = 0; i < rows; ++i)
        as.push_back(loadA(b, mulAdd(b, mt, 1, i), kt));
      for (int64_t j = 0; j < cols; ++j) {
        // First packed row of B tile (nt + j, kt).
        Value tile = arith::AddIOp::create(
            b, loc, mulAdd(b, nt, plan.kTiles, j * plan.kTiles), kt);
        bs.push_back(amx::TileLoadOp::create(
            b, loc, aTile, wBuf,
            ValueRange{mulAdd(b, tile, kTileRows, 0), idx(b, 0)}));
      }
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          auto mul = amx::TileMulIOp::create(b, loc, cTile, as[i], bs[j],
                                             accs[i * cols + j]);
          if (xZext)
            mul.setIsZextLhs(true);
          if (wZext)
            mul.setIsZextRhs(true);
          accs[i * cols + j] = mul;
        }
    }
  }

  /// One block of rows x cols C tiles at tile (mt, nt) over the whole K:
  /// the first chunk starts from the bias, later ones from the partial sums
  /// stored by the previous chunk.
  void emitBlock(OpBuilder &b, Value mt, Value nt, int64_t rows,
                 int64_t cols) const {
    int64_t first = std::min(plan.kChunk, plan.kTiles);
    SmallVector<Value> accs = loadAccs(b, mt, nt, rows, cols, true);
    emitSteps(b, mt, nt, rows, cols, idx(b, 0), first, accs);
    storeAccs(b, mt, nt, rows, cols, accs);

    int64_t rest = plan.kTiles - first;
    int64_t fullChunks = rest / plan.kChunk, tail = rest % plan.kChunk;
    if (fullChunks > 0) {
      scf::ForOp::create(
          b, loc, idx(b, 0), idx(b, fullChunks), idx(b, 1), ValueRange(),
          [&](OpBuilder &nb, Location, Value c, ValueRange) {
            SmallVector<Value> accs = loadAccs(nb, mt, nt, rows, cols, false);
            emitSteps(nb, mt, nt, rows, cols, mulAdd(nb, c, plan.kChunk, first),
                      plan.kChunk, accs);
            storeAccs(nb, mt, nt, rows, cols, accs);
            scf::YieldOp::create(nb, loc);
          });
    }
    if (tail > 0) {
      SmallVector<Value> accs = loadAccs(b, mt, nt, rows, cols, false);
      emitSteps(b, mt, nt, rows, cols, idx(b, first + fullChunks * plan.kChunk),
                tail, accs);
      storeAccs(b, mt, nt, rows, cols, accs);
    }
    if (epilogue)
      emitEpilogue(b, mt, nt, rows, cols);
  }

  /// Requantizes the block just stored: every row, 16 columns at a time.
  void emitEpilogue(OpBuilder &b, Value mt, Value nt, int64_t rows,
                    int64_t cols) const {
    Value row0 = mulAdd(b, mt, kTileRows, 0);
    scf::ForOp::create(
        b, loc, idx(b, 0), idx(b, rows * kTileRows), idx(b, 1), ValueRange(),
        [&](OpBuilder &nb, Location, Value r, ValueRange) {
          Value row = arith::AddIOp::create(nb, loc, row0, r);
          for (int64_t j = 0; j < cols; ++j) {
            Value col = mulAdd(nb, nt, kTileN, j * kTileN);
            Value acc = vector::LoadOp::create(
                nb, loc, VectorType::get({kTileN}, nb.getI32Type()), outBuf,
                ValueRange{row, col});
            vector::StoreOp::create(nb, loc, epilogue->apply(nb, loc, acc, col),
                                    codesBuf, ValueRange{row, col});
          }
          scf::YieldOp::create(nb, loc);
        });
  }

  /// Every block of `rows` tile rows from tile row `mt`: pairs of tile
  /// columns in a loop, then the odd one.
  void emitRowBlock(OpBuilder &b, Value mt, int64_t rows) const {
    int64_t pairs = plan.nTiles / 2;
    if (pairs > 0) {
      auto loop = scf::ForOp::create(
          b, loc, idx(b, 0), idx(b, pairs), idx(b, 1), ValueRange(),
          [&](OpBuilder &nb, Location, Value np, ValueRange) {
            emitBlock(nb, mt, mulAdd(nb, np, 2, 0), rows, 2);
            scf::YieldOp::create(nb, loc);
          });
      markParallelTiles(loop);
    }
    if (plan.nTiles % 2)
      emitBlock(b, mt, idx(b, plan.nTiles - 1), rows, 1);
  }

  void emit(OpBuilder &b) const {
    int64_t pairs = plan.mTiles / 2;
    if (pairs > 0) {
      auto loop = scf::ForOp::create(
          b, loc, idx(b, 0), idx(b, pairs), idx(b, 1), ValueRange(),
          [&](OpBuilder &nb, Location, Value mp, ValueRange) {
            emitRowBlock(nb, mulAdd(nb, mp, 2, 0), 2);
            scf::YieldOp::create(nb, loc);
          });
      markParallelTiles(loop);
    }
    if (plan.mTiles % 2)
      emitRowBlock(b, idx(b, plan.mTiles - 1), 1);
  }
};

/// Which operand role the weights take, and the bias correction, from the
/// weight codes viewed as a K x N matrix; nullopt when w - zw fits neither
/// s8 nor u8.
struct WeightPlan {
  bool wZext = false;
  SmallVector<int64_t> correction; ///< -zx * sum_k w'[k, n]
};

std::optional<WeightPlan> planWeights(ArrayRef<int64_t> codes,
                                      ArrayRef<int32_t> zw, int64_t kSize,
                                      int64_t n, int32_t zx) {
  quantopt::x86vnni::WeightStats stats =
      quantopt::x86vnni::scanWeights(codes, zw, kSize, n);
  WeightPlan plan;
  if (stats.min >= -128 && stats.max <= 127)
    plan.wZext = false;
  else if (stats.min >= 0 && stats.max <= 255)
    plan.wZext = true;
  else
    return std::nullopt;
  plan.correction =
      quantopt::x86vnni::columnCorrection(stats.columnSums, 0, zx);
  return plan;
}

bool isLargeSplat(Value value) {
  DenseElementsAttr splat;
  return matchPattern(value, m_Constant(&splat)) && splat.isSplat() &&
         splat.getNumElements() > kMaxPackedSplatElements;
}

int32_t wrap(int64_t v) {
  return static_cast<int32_t>(static_cast<uint32_t>(v));
}

/// The [16][np] i32 rows the C tiles start from: bias + correction, 0 past
/// n; a constant when the bias is one.
Value buildBiasRows(OpBuilder &b, Location loc, Value bias,
                    ArrayRef<int64_t> correction, int64_t n, int64_t np) {
  auto rowsType = RankedTensorType::get({kTileRows, np}, b.getI32Type());
  if (std::optional<std::vector<int64_t>> biasValues =
          getConstantInts(bias, 32, false)) {
    std::vector<int32_t> values(kTileRows * np, 0);
    for (int64_t r = 0; r < kTileRows; ++r)
      for (int64_t col = 0; col < n; ++col)
        values[r * np + col] = wrap((*biasValues)[col] + correction[col]);
    return arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(rowsType, ArrayRef(values)));
  }
  auto paddedType = RankedTensorType::get({np}, b.getI32Type());
  if (np != n)
    bias = tensor::createPadHighOp(
        paddedType, bias,
        arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0)),
        /*nofold=*/false, loc, b);
  if (llvm::any_of(correction, [](int64_t c) { return c != 0; })) {
    std::vector<int32_t> values(np, 0);
    for (int64_t col = 0; col < n; ++col)
      values[col] = wrap(correction[col]);
    Value corr = arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(paddedType, ArrayRef(values)));
    // Elementwise on tensors: the pipeline makes it a linalg.generic.
    bias = arith::AddIOp::create(b, loc, bias, corr);
  }
  Value init = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{kTileRows, np},
                                       b.getI32Type());
  return linalg::BroadcastOp::create(b, loc, bias, init, ArrayRef<int64_t>{0})
      .getResult()[0];
}

/// Sets up the emitter's weights ([packedRows][64] i8 tensor), bias rows
/// ([16][Np] i32 tensor) and result buffer, emits the loops and returns the
/// [Mp][Np] result (i32, or the codes of a fused requantization).
Value emitKernel(OpBuilder &b, AmxEmitter &e, Value packed, Value biasRows) {
  MLIRContext *ctx = b.getContext();
  Location loc = e.loc;
  const AmxPlan &plan = e.plan;
  int64_t mp = plan.paddedM(), np = plan.paddedN();
  e.aTile = amx::TileType::get({kTileRows, kTileBytes}, b.getI8Type());
  e.cTile = amx::TileType::get({kTileRows, kTileN}, b.getI32Type());
  e.wBuf = bufferization::ToBufferOp::create(
      b, loc,
      rowStridedBuffer(ctx, {plan.packedRows(), kTileBytes}, b.getI8Type()),
      packed, /*read_only=*/true);
  e.biasBuf = bufferization::ToBufferOp::create(
      b, loc, rowStridedBuffer(ctx, {kTileRows, np}, b.getI32Type()), biasRows,
      /*read_only=*/true);
  e.outBuf =
      memref::AllocOp::create(b, loc, MemRefType::get({mp, np}, b.getI32Type()),
                              ValueRange(), b.getI64IntegerAttr(64));
  Value result = e.outBuf;
  if (e.epilogue) {
    e.codesBuf = memref::AllocOp::create(
        b, loc, MemRefType::get({mp, np}, e.epilogue->storage), ValueRange(),
        b.getI64IntegerAttr(64));
    result = e.codesBuf;
  }
  e.emit(b);
  auto type = cast<MemRefType>(result.getType());
  return bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
      result, /*restrict=*/true, /*writable=*/true);
}

Value packedConstant(OpBuilder &b, Location loc, const AmxPlan &plan,
                     ArrayRef<int8_t> packed) {
  auto type =
      RankedTensorType::get({plan.packedRows(), kTileBytes}, b.getI8Type());
  return arith::ConstantOp::create(b, loc,
                                   DenseIntElementsAttr::get(type, packed));
}

SmallVector<OpFoldResult> indexAttrs(OpBuilder &b, ArrayRef<int64_t> values) {
  return llvm::map_to_vector(
      values, [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); });
}

/// Run-time weights (K x N, no zero point) packed into B tiles by tensor
/// ops: zero padded to [Kp][Np], viewed as [KT][16][4][NT][16] (k = 64 kt +
/// 4 r + q, n = 16 nt + c), transposed to [NT][KT][16][16][4] and flattened
/// to [NT * KT * 16][64]: the layout packAmxWeights gives constants.
Value packRuntimeWeights(OpBuilder &b, Location loc, const AmxPlan &plan,
                         Value w) {
  Type i8 = b.getI8Type();
  int64_t kp = plan.paddedK(), np = plan.paddedN();
  if (kp != plan.k || np != plan.n)
    w = tensor::createPadHighOp(
        RankedTensorType::get({kp, np}, i8), w,
        arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0)),
        /*nofold=*/false, loc, b);
  Value split = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({plan.kTiles, kTileRows, 4, plan.nTiles, kTileN},
                            i8),
      w, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{plan.nTiles, plan.kTiles, kTileRows, kTileN, 4},
      i8);
  Value tiles = linalg::TransposeOp::create(b, loc, split, init,
                                            ArrayRef<int64_t>{3, 0, 1, 4, 2})
                    .getResult()[0];
  return tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({plan.packedRows(), kTileBytes}, i8), tiles,
      ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
}

/// The bias rows for run-time weights: b[n] - zx * sum_k w[k, n] (i32
/// wrap-around), the column sums computed at run time.
Value runtimeBiasRows(OpBuilder &b, Location loc, const AmxPlan &plan, Value w,
                      bool wUnsigned, Value bias, int32_t zx) {
  Type i32 = b.getI32Type();
  int64_t n = plan.n, np = plan.paddedN();
  MLIRContext *ctx = b.getContext();
  if (zx != 0) {
    Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
    Value sums = linalg::FillOp::create(b, loc, zero,
                                        ValueRange{tensor::EmptyOp::create(
                                            b, loc, ArrayRef<int64_t>{n}, i32)})
                     .getResult(0);
    AffineExpr k = getAffineDimExpr(0, ctx), c = getAffineDimExpr(1, ctx);
    sums =
        linalg::GenericOp::create(
            b, loc, TypeRange{sums.getType()}, ValueRange{w}, ValueRange{sums},
            ArrayRef<AffineMap>{AffineMap::get(2, 0, {k, c}, ctx),
                                AffineMap::get(2, 0, {c}, ctx)},
            ArrayRef<utils::IteratorType>{utils::IteratorType::reduction,
                                          utils::IteratorType::parallel},
            [&](OpBuilder &nb, Location l, ValueRange args) {
              Value v =
                  wUnsigned
                      ? arith::ExtUIOp::create(nb, l, i32, args[0]).getResult()
                      : arith::ExtSIOp::create(nb, l, i32, args[0]).getResult();
              linalg::YieldOp::create(
                  nb, l, ValueRange{arith::AddIOp::create(nb, l, args[1], v)});
            })
            .getResult(0);
    // b - zx * sums, elementwise on tensors (made linalg by the pipeline).
    Value factor = arith::ConstantOp::create(
        b, loc,
        DenseIntElementsAttr::get(RankedTensorType::get({n}, i32),
                                  ArrayRef<int32_t>{-zx}));
    bias = arith::AddIOp::create(b, loc, bias,
                                 arith::MulIOp::create(b, loc, sums, factor));
  }
  return buildBiasRows(b, loc, bias, SmallVector<int64_t>(n, 0), n, np);
}

/// Rewrites `op` (and `requant`, its only user, when given) into the AMX
/// kernel; with `checkOnly`, only says whether it would.
LogicalResult rewriteMatmul(PatternRewriter &rewriter, IntMatmulOp op,
                            IntRequantizeOp requant, int64_t minRows,
                            bool checkOnly) {
  {
    RankedTensorType xType = op.getX().getType(), wType = op.getW().getType();
    if (!xType.hasStaticShape() || !wType.hasStaticShape())
      return failure();
    int64_t m = xType.getDimSize(0), kSize = xType.getDimSize(1),
            n = wType.getDimSize(1);
    // The C tiles start from a [16][N] table of bias rows, built at compile
    // time from a constant bias: a splat bias of 10^9 columns ran out of
    // memory. Such shapes are left to the generic lowering.
    if (m == 0 || kSize == 0 || n == 0 || m < minRows ||
        isLargeSplat(op.getW()) || isLargeSplat(op.getBias()) ||
        n > kMaxAmxColumns)
      return failure();
    int32_t zx = static_cast<int32_t>(op.getInputZeroPointAttr().getInt());
    ArrayRef<int32_t> zw = op.getWeightZeroPoints();
    std::optional<std::vector<int64_t>> codes =
        getConstantInts(op.getW(), 8, op.getWUnsigned());
    std::optional<WeightPlan> weights;
    if (codes) {
      weights = planWeights(*codes, zw, kSize, n, zx);
    } else if (llvm::all_of(zw, [](int32_t z) { return z == 0; })) {
      // Run-time weights (a nonzero zero point was moved out by
      // qnt-symmetric-weights): the storage type says the operand role.
      weights = WeightPlan{op.getWUnsigned(), {}};
    }
    if (!weights)
      return failure();
    std::optional<AmxEpilogue> epilogue;
    if (requant) {
      epilogue = planEpilogue(requant, n);
      if (!epilogue)
        return failure();
    }
    if (checkOnly)
      return success();

    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(requant ? requant.getOperation()
                                       : op.getOperation());
    OpBuilder &b = rewriter;
    AmxEmitter e(loc, planAmxMatmul(m, kSize, n));
    e.xZext = op.getXUnsigned();
    e.wZext = weights->wZext;
    const AmxPlan &plan = e.plan;
    int64_t mp = plan.paddedM(), kp = plan.paddedK(), np = plan.paddedN();

    Value packed, biasRows;
    if (codes) {
      packed = packedConstant(
          b, loc, plan, packAmxWeights(plan, [&](int64_t kIdx, int64_t col) {
            return int32_t((*codes)[kIdx * n + col] -
                           zw[zw.size() == 1 ? 0 : col]);
          }));
      biasRows = buildBiasRows(b, loc, op.getBias(), weights->correction, n,
                               plan.paddedN());
    } else {
      packed = packRuntimeWeights(b, loc, plan, op.getW());
      biasRows = runtimeBiasRows(b, loc, plan, op.getW(), op.getWUnsigned(),
                                 op.getBias(), zx);
    }

    // Activations, zero padded to whole tiles when they are not.
    Value x = op.getX();
    if (!plan.activationsInPlace())
      x = tensor::createPadHighOp(
          RankedTensorType::get({mp, kp}, b.getI8Type()), x,
          arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0)),
          /*nofold=*/false, loc, b);
    Value xBuf = bufferization::ToBufferOp::create(
        b, loc, rowStridedBuffer(ctx, {mp, kp}, b.getI8Type()), x,
        /*read_only=*/true);
    e.loadA = [&e, xBuf](OpBuilder &nb, Value mt, Value kt) -> Value {
      return amx::TileLoadOp::create(nb, e.loc, e.aTile, xBuf,
                                     ValueRange{e.mulAdd(nb, mt, kTileRows, 0),
                                                e.mulAdd(nb, kt, kTileK, 0)});
    };

    if (epilogue) {
      // Columns padded to Np; only a single entry is a splat (equal
      // per-column entries stay a table).
      epilogue->materializeParams(b, loc, plan.paddedN(),
                                  /*splatEqualEntries=*/false);
      e.epilogue = &*epilogue;
    }
    Value result = emitKernel(b, e, packed, biasRows);
    if (mp != m || np != n)
      result = tensor::ExtractSliceOp::create(
          b, loc, result, indexAttrs(b, {0, 0}), indexAttrs(b, {m, n}),
          indexAttrs(b, {1, 1}));
    if (requant) {
      rewriter.replaceOp(requant, result);
      rewriter.eraseOp(op);
    } else {
      rewriter.replaceOp(op, result);
    }
    return success();
  }
}

/// A conv with groups = 1 as a GEMM whose rows are output pixels: an A tile
/// is 16 consecutive output pixels of one output row, row r reading the 64
/// bytes of its reduction run at `stride_w * C` bytes from row r - 1 of an
/// input padded spatially (pad_value) and with the slack the last tiles
/// read into; the K steps walk the runs (AmxConvReduction). Output pixels
/// are padded to whole tiles along W only; the result buffer is
/// [N * OH * OWp][Np], whose [N][OH][OW][F] corner is the op's result.
LogicalResult rewriteConv(PatternRewriter &rewriter, IntConv2DOp op,
                          IntRequantizeOp requant, bool checkOnly) {
  {
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto wType = cast<RankedTensorType>(op.getW().getType());
    auto rType = cast<RankedTensorType>(op.getResult().getType());
    if (!xType.hasStaticShape() || !wType.hasStaticShape() ||
        !rType.hasStaticShape() || op.getGroups() != 1 ||
        isLargeSplat(op.getW()) || isLargeSplat(op.getBias()) ||
        rType.getDimSize(3) > kMaxAmxColumns)
      return failure();
    int64_t batch = xType.getDimSize(0), h = xType.getDimSize(1),
            wd = xType.getDimSize(2), c = xType.getDimSize(3);
    int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1),
            f = wType.getDimSize(3);
    int64_t oh = rType.getDimSize(1), ow = rType.getDimSize(2);
    if (batch == 0 || c == 0 || f == 0 || oh == 0 || ow == 0 ||
        wType.getDimSize(2) != c)
      return failure();
    ArrayRef<int64_t> pad = op.getPadding();
    // Checked window math (WindowArithmetic.h), as the VNNI conv does. A
    // stride of one output and a dilation of one tap never move, so they
    // count as 1. The last W tile reads OWp - OW more pixels at the stride:
    // if that padding, an offset or the padded input could leave int64 or
    // would blow the input up, the VNNI or generic lowering takes the op.
    if (quantopt::ref::windowOutputSize(h, pad[0], pad[1], kh,
                                        op.getStrides()[0],
                                        op.getDilations()[0]) != oh ||
        quantopt::ref::windowOutputSize(wd, pad[2], pad[3], kw,
                                        op.getStrides()[1],
                                        op.getDilations()[1]) != ow)
      return failure();
    SmallVector<int64_t, 2> strides = {oh == 1 ? 1 : op.getStrides()[0],
                                       ow == 1 ? 1 : op.getStrides()[1]};
    SmallVector<int64_t, 2> dils = {kh == 1 ? 1 : op.getDilations()[0],
                                    kw == 1 ? 1 : op.getDilations()[1]};
    {
      using quantopt::ref::checkedProduct;
      int64_t owp = (ow + kTileRows - 1) / kTileRows * kTileRows;
      std::optional<int64_t> spanW = checkedProduct({owp - 1, strides[1]});
      std::optional<int64_t> tapsW = checkedProduct({kw - 1, dils[1]});
      int64_t hp0 = h + pad[0] + pad[1], wp0 = wd + pad[2] + pad[3];
      std::optional<int64_t> plain = checkedProduct({batch, hp0, wp0, c});
      if (!spanW || !tapsW || !plain ||
          *spanW > std::numeric_limits<int64_t>::max() / 2 - *tapsW)
        return failure();
      int64_t wp = std::max(wp0, *spanW + *tapsW + 1);
      std::optional<int64_t> padded =
          checkedProduct({batch, hp0 + kTileK, wp, c});
      if (!padded || *padded > 2 * *plain + (int64_t(1) << 20) ||
          !checkedProduct({kTileRows, strides[1], c}) ||
          !checkedProduct({strides[0], wp, c}) ||
          !checkedProduct({dils[0], wp, c}))
        return failure();
    }
    std::optional<std::vector<int64_t>> codes =
        getConstantInts(op.getW(), 8, op.getWUnsigned());
    if (!codes)
      return failure();
    ArrayRef<int32_t> zw = op.getWeightZeroPoints();
    int64_t kSize = kh * kw * c;
    std::optional<WeightPlan> weights =
        planWeights(*codes, zw, kSize, f,
                    static_cast<int32_t>(op.getInputZeroPointAttr().getInt()));
    if (!weights)
      return failure();
    std::optional<AmxEpilogue> epilogue;
    if (requant) {
      epilogue = planEpilogue(requant, f);
      if (!epilogue)
        return failure();
    }
    if (checkOnly)
      return success();

    MLIRContext *ctx = op.getContext();
    Location loc = op.getLoc();
    rewriter.setInsertionPoint(requant ? requant.getOperation()
                                       : op.getOperation());
    OpBuilder &b = rewriter;
    AmxConvReduction red = planAmxConvReduction(kh, kw, c, dils[1]);
    int64_t owTiles = (ow + kTileRows - 1) / kTileRows;
    int64_t owp = owTiles * kTileRows;
    AmxEmitter e(loc,
                 planAmxMatmul(batch * oh * owp, red.kTiles() * kTileK, f));
    e.xZext = op.getXUnsigned();
    e.wZext = weights->wZext;
    const AmxPlan &plan = e.plan;

    std::vector<int8_t> packedBytes =
        packAmxWeights(plan, [&](int64_t kIdx, int64_t col) -> int32_t {
          int64_t kt = kIdx / kTileK;
          int64_t run = kt / red.tilesPerRun;
          int64_t byte = (kt % red.tilesPerRun) * kTileK + kIdx % kTileK;
          std::optional<AmxConvReduction::Tap> t = red.tap(run, byte, kw, c);
          if (!t)
            return 0;
          return int32_t((*codes)[((t->kh * kw + t->kw) * c + t->c) * f + col] -
                         zw[zw.size() == 1 ? 0 : col]);
        });

    // The input padded with pad_value: the conv's own padding, W columns
    // for the output pixels of the last tile past OW, and whole rows of
    // slack for the bytes the last K tile of a run reads past it.
    int64_t hp0 = h + pad[0] + pad[1], wp0 = wd + pad[2] + pad[3];
    int64_t needW = (owp - 1) * strides[1] + (kw - 1) * dils[1] + 1;
    int64_t wp = std::max(wp0, needW);
    int64_t slackRows = (kTileK + wp * c - 1) / (wp * c);
    int64_t hp = hp0 + slackRows;
    auto paddedType = RankedTensorType::get({batch, hp, wp, c}, b.getI8Type());
    Value padValue = arith::ConstantOp::create(
        b, loc, b.getI8IntegerAttr(static_cast<int8_t>(op.getPadValue())));
    Value xp = tensor::PadOp::create(
        b, loc, paddedType, op.getX(), indexAttrs(b, {0, pad[0], pad[2], 0}),
        indexAttrs(b, {0, pad[1] + slackRows, pad[3] + wp - wp0, 0}), padValue,
        /*nofold=*/false);
    int64_t total = batch * hp * wp * c;
    Value flat = tensor::CollapseShapeOp::create(
        b, loc, RankedTensorType::get({total}, b.getI8Type()), xp,
        ArrayRef<ReassociationIndices>{{0, 1, 2, 3}});
    auto flatLayout = StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {1});
    Value xBuf = bufferization::ToBufferOp::create(
        b, loc, MemRefType::get({total}, b.getI8Type(), flatLayout), flat,
        /*read_only=*/true);
    auto meta = memref::ExtractStridedMetadataOp::create(b, loc, xBuf);
    Value base = meta.getOffset();
    int64_t rowStride = strides[1] * c;
    auto viewType = MemRefType::get(
        {kTileRows, kTileK}, b.getI8Type(),
        StridedLayoutAttr::get(ctx, ShapedType::kDynamic, {rowStride, 1}));
    e.loadA = [&e, &red, xBuf, base, viewType, owTiles, oh, hp, wp, c, kw,
               rowStride, strides,
               dils](OpBuilder &nb, Value mt, Value kt) -> Value {
      Location l = e.loc;
      auto divC = [&](Value v, int64_t d) {
        return arith::DivUIOp::create(nb, l, v, e.idx(nb, d)).getResult();
      };
      auto remC = [&](Value v, int64_t d) {
        return arith::RemUIOp::create(nb, l, v, e.idx(nb, d)).getResult();
      };
      Value line = divC(mt, owTiles), owt = remC(mt, owTiles);
      Value img = divC(line, oh), row = remC(line, oh);
      Value run = divC(kt, red.tilesPerRun), t = remC(kt, red.tilesPerRun);
      Value tapH = red.runCoversRow ? run : divC(run, kw);
      Value ih = arith::AddIOp::create(nb, l, e.mulAdd(nb, row, strides[0], 0),
                                       e.mulAdd(nb, tapH, dils[0], 0));
      Value iw = e.mulAdd(nb, owt, kTileRows * strides[1], 0);
      if (!red.runCoversRow)
        iw = arith::AddIOp::create(nb, l, iw,
                                   e.mulAdd(nb, remC(run, kw), dils[1], 0));
      // ((img * hp + ih) * wp + iw) * c + t * 64 bytes from the buffer's
      // first element.
      Value pixel = arith::AddIOp::create(
          nb, l,
          e.mulAdd(nb,
                   arith::AddIOp::create(nb, l, e.mulAdd(nb, img, hp, 0), ih),
                   wp, 0),
          iw);
      Value offset = arith::AddIOp::create(
          nb, l, arith::AddIOp::create(nb, l, base, e.mulAdd(nb, pixel, c, 0)),
          e.mulAdd(nb, t, kTileK, 0));
      Value view = memref::ReinterpretCastOp::create(
          nb, l, viewType, xBuf, OpFoldResult(offset),
          indexAttrs(nb, {kTileRows, kTileK}), indexAttrs(nb, {rowStride, 1}));
      return amx::TileLoadOp::create(nb, l, e.aTile, view,
                                     ValueRange{e.idx(nb, 0), e.idx(nb, 0)});
    };

    if (epilogue) {
      // Columns padded to Np; only a single entry is a splat (equal
      // per-column entries stay a table).
      epilogue->materializeParams(b, loc, plan.paddedN(),
                                  /*splatEqualEntries=*/false);
      e.epilogue = &*epilogue;
    }
    Value result =
        emitKernel(b, e, packedConstant(b, loc, plan, packedBytes),
                   buildBiasRows(b, loc, op.getBias(), weights->correction, f,
                                 plan.paddedN()));
    int64_t np = plan.paddedN();
    result = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get(
            {batch, oh, owp, np},
            cast<RankedTensorType>(result.getType()).getElementType()),
        result, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    if (owp != ow || np != f)
      result = tensor::ExtractSliceOp::create(
          b, loc, result, indexAttrs(b, {0, 0, 0, 0}),
          indexAttrs(b, {batch, oh, ow, f}), indexAttrs(b, {1, 1, 1, 1}));
    if (requant) {
      rewriter.replaceOp(requant, result);
      rewriter.eraseOp(op);
    } else {
      rewriter.replaceOp(op, result);
    }
    return success();
  }
}

/// The single int_requantize consuming `op`, when the two can be fused.
IntRequantizeOp fusableRequantize(Operation *op, int64_t minRows,
                                  PatternRewriter &rewriter) {
  if (!op->hasOneUse())
    return {};
  auto requant = dyn_cast<IntRequantizeOp>(*op->getUsers().begin());
  if (!requant)
    return {};
  LogicalResult ok = failure();
  if (auto mm = dyn_cast<IntMatmulOp>(op))
    ok = rewriteMatmul(rewriter, mm, requant, minRows, /*checkOnly=*/true);
  else if (auto conv = dyn_cast<IntConv2DOp>(op))
    ok = rewriteConv(rewriter, conv, requant, /*checkOnly=*/true);
  return succeeded(ok) ? requant : IntRequantizeOp();
}

struct IntMatmulToAmx : OpRewritePattern<IntMatmulOp> {
  IntMatmulToAmx(MLIRContext *ctx, int64_t minRows)
      : OpRewritePattern(ctx, /*benefit=*/2), minRows(minRows) {}
  LogicalResult matchAndRewrite(IntMatmulOp op,
                                PatternRewriter &rewriter) const override {
    // Left for RequantizeToAmx, which fuses the two; a matmul it has
    // already replaced has no use left.
    if (op->use_empty() || fusableRequantize(op, minRows, rewriter))
      return failure();
    return rewriteMatmul(rewriter, op, {}, minRows, /*checkOnly=*/false);
  }
  int64_t minRows;
};

struct IntConv2DToAmx : OpRewritePattern<IntConv2DOp> {
  IntConv2DToAmx(MLIRContext *ctx) : OpRewritePattern(ctx, /*benefit=*/2) {}
  LogicalResult matchAndRewrite(IntConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op->use_empty() || fusableRequantize(op, 0, rewriter))
      return failure();
    return rewriteConv(rewriter, op, {}, /*checkOnly=*/false);
  }
};

/// A requantization of an AMX contraction's accumulators, fused into the
/// kernel's epilogue.
struct RequantizeToAmx : OpRewritePattern<IntRequantizeOp> {
  RequantizeToAmx(MLIRContext *ctx, int64_t minRows)
      : OpRewritePattern(ctx, /*benefit=*/2), minRows(minRows) {}
  LogicalResult matchAndRewrite(IntRequantizeOp op,
                                PatternRewriter &rewriter) const override {
    Operation *producer = op.getInput().getDefiningOp();
    if (!producer || fusableRequantize(producer, minRows, rewriter) != op)
      return failure();
    if (auto mm = dyn_cast<IntMatmulOp>(producer))
      return rewriteMatmul(rewriter, mm, op, minRows, /*checkOnly=*/false);
    return rewriteConv(rewriter, cast<IntConv2DOp>(producer), op,
                       /*checkOnly=*/false);
  }
  int64_t minRows;
};

} // namespace

void mlir::qnt::populateQntToX86AmxPatterns(RewritePatternSet &patterns,
                                            int64_t minRows) {
  patterns.add<IntMatmulToAmx, RequantizeToAmx>(patterns.getContext(), minRows);
  patterns.add<IntConv2DToAmx>(patterns.getContext());
}
