//===- QntToX86Vnni.cpp - int8 contractions on AVX-512 VNNI
//----------------===//
//
// Rewrites `qnt.int_matmul` and `qnt.int_conv2d` with constant weights into
// register-blocked loops whose inner step is the 512-bit `vpdpbusd`
// (u8 x s8 -> i32, four products per i32 lane), emitted on tensors as
// scf.for + vector ops + `llvm.call_intrinsic`.
//
// The contraction is seen as a GEMM: rows are output pixels (matmul rows, or
// conv output positions), columns are output channels, and K runs over
// groups of 4 reduction indices (a vpdpbusd lane). For conv, K is
// (kh, kw, c/4) over an input padded explicitly: an implicit GEMM.
//
// Signedness is a zero-point problem. vpdpbusd multiplies a u8 operand by an
// s8 one. With w' = w - zw[n] (exact integers, computed at compile time):
//   * if every w' fits s8, the weights are the s8 operand and the
//     activations the u8 one ("u8 activations");
//   * else if every w' fits u8, the weights are the u8 operand and the
//     activations the s8 one ("u8 weights");
//   * else the op is left to qnt-to-linalg.
// Activations whose signedness differs from the operand they feed are
// flipped, a = x ^ 0x80, i.e. x = a + o with o = -128 (s8 into u8) or
// o = +128 (u8 into s8). Then, exactly, in i32 wrap-around arithmetic:
//   acc[m,n] = sum_k (x - zx) w' + b[n]
//            = sum_k a w'  +  (b[n] + (o - zx) * sum_k w'[k,n])
// and the second term is a constant per column folded into the bias. Conv
// padding holds pad_value (flipped like the data), so it contributes
// (pad_value - zx) w' exactly like the reference.
//
// Layouts:
//   packed weights: [tile][K1][N0][4] (flat i8 constant; N0 = 16 * vectors
//     of the tile; K and N padded with zero weights, so whatever the
//     activation padding holds contributes 0);
//   activations: read in place when nothing needs changing, else copied by a
//     vectorized pre-pass into a padded buffer ([M][K4] for matmul,
//     [N][Hp][Wp][C4] for conv, K4/C4 rounded up to 4) with the flip applied;
//   accumulators: M0 x N0 (4 x 64 by default) vector<16xi32> loop-carried
//     values, written straight into the M x N (N*OH*OW x F) result.
// Matmul K is blocked so that one panel of packed weights stays in L1.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Vnni.h"

#include "QuantOpt/Conversion/Passes.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/CSE.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

#include <optional>
#include <vector>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTTOX86VNNI
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

constexpr llvm::StringLiteral kVpdpbusd = "llvm.x86.avx512.vpdpbusd.512";

/// i32 lanes per zmm register.
constexpr int64_t kLanes = 16;
/// Bytes per zmm register.
constexpr int64_t kBytes = 64;

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// An I32Attr as the signed value it holds.
int32_t getI32(IntegerAttr attr) { return static_cast<int32_t>(attr.getInt()); }

/// How the 8-bit operands meet vpdpbusd.
struct OperandPlan {
  /// The weights are the u8 operand (register) and the activations the s8
  /// one; otherwise the reverse.
  bool weightsUnsigned = false;
  /// Activations are fed as x ^ 0x80.
  bool flipX = false;
  /// x = fed + offset (-128, 0 or +128).
  int32_t offset = 0;
};

/// Chooses the operand roles from the range of w' = w - zw[n]; nullopt when
/// w' fits neither s8 nor u8.
std::optional<OperandPlan> planOperands(int64_t minW, int64_t maxW,
                                        bool xUnsigned) {
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

/// Range and per-column sums of w' = w - zw[col] over constant weights viewed
/// as a row-major K x N matrix (HWCF filters flatten to (KH*KW*C/groups) x F).
struct WeightStats {
  int64_t min = INT64_MAX, max = INT64_MIN;
  SmallVector<int64_t> columnSums;
};

WeightStats scanWeights(ArrayRef<int64_t> codes, ArrayRef<int32_t> zw,
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

/// Output columns split into register tiles: `full` tiles of `nv` vectors
/// (N0 = 16 * nv columns), then one tile of `nvTail` vectors (0: none).
struct ColumnTiling {
  int64_t n = 0;
  int64_t nv = 0;
  int64_t full = 0;
  int64_t nvTail = 0;

  explicit ColumnTiling(int64_t n) : n(n) {
    nv = std::min<int64_t>(4, ceilDiv(n, kLanes));
    full = n / (kLanes * nv);
    nvTail = ceilDiv(n - full * kLanes * nv, kLanes);
  }
  int64_t paddedN() const { return (full * nv + nvTail) * kLanes; }
  /// Rows per register tile for a tile of `vectors` vectors: at least 8
  /// independent accumulators where the register file allows.
  static int64_t rowsPerTile(int64_t vectors) { return vectors >= 3 ? 4 : 8; }
};

/// Packs w'(kk, q, col) into [tile][K1][N0][4]; columns past N are 0. The
/// callback returns w' of reduction index 4 * kk + q (0 for K padding).
std::vector<int8_t> packWeights(
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
                 int64_t len, int64_t width) {
  Type elt = cast<ShapedType>(src.getType()).getElementType();
  auto full = VectorType::get({width}, elt);
  if (len == width)
    return vector::TransferReadOp::create(b, loc, full, src, indices,
                                          std::nullopt, ArrayRef<bool>{true});
  Value part = vector::TransferReadOp::create(
      b, loc, VectorType::get({len}, elt), src, indices, std::nullopt,
      ArrayRef<bool>{true});
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(full, b.getZeroAttr(elt)));
  return vector::InsertStridedSliceOp::create(
      b, loc, part, zero, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1});
}

/// Writes the first `len` lanes of `v` into `dest` at `indices`, in bounds.
Value writePrefix(OpBuilder &b, Location loc, Value v, Value dest,
                  ValueRange indices, int64_t len) {
  auto type = cast<VectorType>(v.getType());
  if (len != type.getDimSize(0))
    v = vector::ExtractStridedSliceOp::create(b, loc, v, ArrayRef<int64_t>{0},
                                              ArrayRef<int64_t>{len},
                                              ArrayRef<int64_t>{1});
  return vector::TransferWriteOp::create(b, loc, v, dest, indices,
                                         ArrayRef<bool>{true})
      .getResult();
}

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
  int64_t k1 = 0;
  ColumnTiling tiling{1};
  /// Conv groups: the group being emitted and the activation bytes between
  /// consecutive groups of one pixel. Each group has its own packed weights,
  /// its own padded slice of the bias constants and its own n columns.
  Value group; ///< index; null for a single group
  int64_t xGroupStride = 0;

  /// group * `stride`, as an index value.
  Value groupOffset(OpBuilder &nb, int64_t stride) {
    if (!group)
      return arith::ConstantIndexOp::create(nb, loc, 0);
    return mul(nb, group, stride);
  }

  int64_t packedGroupSize() const { return tiling.paddedN() * k1 * 4; }

  Value add(OpBuilder &nb, Value a, Value c) {
    return nb.createOrFold<arith::AddIOp>(loc, a, c);
  }
  Value mul(OpBuilder &nb, Value a, int64_t c) {
    if (c == 1)
      return a;
    return nb.createOrFold<arith::MulIOp>(
        loc, a, arith::ConstantIndexOp::create(nb, loc, c));
  }

  /// The bias vector of columns [col, col + 16), `len` of them real.
  Value readBias(OpBuilder &nb, Value col, int64_t len) {
    Value paddedCol = add(nb, col, groupOffset(nb, tiling.paddedN()));
    if (biasFolded)
      return readPadded(nb, loc, biasFolded, ValueRange{paddedCol}, kLanes,
                        kLanes);
    Value realCol = add(nb, col, groupOffset(nb, tiling.n));
    Value v =
        readPadded(nb, loc, biasRuntime, ValueRange{realCol}, len, kLanes);
    if (correction)
      v = arith::AddIOp::create(nb, loc, v,
                                readPadded(nb, loc, correction,
                                           ValueRange{paddedCol}, kLanes,
                                           kLanes));
    return v;
  }

  /// The 4 activation bytes at `offset`, broadcast to every lane.
  Value broadcastX(OpBuilder &nb, Value offset) {
    Value bytes = vector::TransferReadOp::create(
        nb, loc, VectorType::get({4}, nb.getI8Type()), xFlat,
        ValueRange{offset}, std::nullopt, ArrayRef<bool>{true});
    Value word = vector::BitCastOp::create(
        nb, loc, VectorType::get({1}, nb.getI32Type()), bytes);
    Value scalar =
        vector::ExtractOp::create(nb, loc, word, ArrayRef<int64_t>{0});
    Value splat = vector::BroadcastOp::create(
        nb, loc, VectorType::get({kLanes}, nb.getI32Type()), scalar);
    return vector::BitCastOp::create(
        nb, loc, VectorType::get({kBytes}, nb.getI8Type()), splat);
  }

  /// One K group: acc[i][v] += x_i . w_v for `rows` x `nv` accumulators.
  SmallVector<Value> emitStep(OpBuilder &nb, ArrayRef<Value> xOffsets,
                              Value wOffset, int64_t nv, ValueRange accs) {
    auto byteVec = VectorType::get({kBytes}, nb.getI8Type());
    auto accVec = VectorType::get({kLanes}, nb.getI32Type());
    SmallVector<Value> w;
    for (int64_t v = 0; v < nv; ++v)
      w.push_back(vector::TransferReadOp::create(
          nb, loc, byteVec, wPacked,
          ValueRange{add(nb, wOffset,
                         arith::ConstantIndexOp::create(nb, loc, v * kBytes))},
          std::nullopt, ArrayRef<bool>{true}));
    SmallVector<Value> result;
    StringAttr name = nb.getStringAttr(kVpdpbusd);
    for (auto [i, xOffset] : llvm::enumerate(xOffsets)) {
      Value x = broadcastX(nb, xOffset);
      for (int64_t v = 0; v < nv; ++v) {
        Value acc = accs[i * nv + v];
        Value u8 = weightsUnsigned ? w[v] : x;
        Value s8 = weightsUnsigned ? x : w[v];
        result.push_back(LLVM::CallIntrinsicOp::create(nb, loc, accVec, name,
                                                       ValueRange{acc, u8, s8})
                             .getResult(0));
      }
    }
    return result;
  }

  /// The reduction loop nest from dimension `d` on.
  SmallVector<Value> emitKLoops(OpBuilder &nb, ArrayRef<KDim> dims,
                                ArrayRef<Value> xOffsets, Value wOffset,
                                int64_t nv, ValueRange accs) {
    if (dims.empty())
      return emitStep(nb, xOffsets, wOffset, nv, accs);
    const KDim &dim = dims.front();
    Value lb = dim.lb ? dim.lb : arith::ConstantIndexOp::create(nb, loc, 0);
    Value ub =
        dim.ub ? dim.ub : arith::ConstantIndexOp::create(nb, loc, dim.extent);
    Value one = arith::ConstantIndexOp::create(nb, loc, 1);
    int64_t wStride = dim.wGroupStride * nv * kLanes * 4;
    auto loop = scf::ForOp::create(
        nb, loc, lb, ub, one, accs,
        [&](OpBuilder &lb2, Location, Value iv, ValueRange iters) {
          SmallVector<Value> xs;
          for (Value x : xOffsets)
            xs.push_back(add(lb2, x, mul(lb2, iv, dim.xStride)));
          Value w = add(lb2, wOffset, mul(lb2, iv, wStride));
          SmallVector<Value> next =
              emitKLoops(lb2, dims.drop_front(), xs, w, nv, iters);
          scf::YieldOp::create(lb2, loc, next);
        });
    return SmallVector<Value>(loop.getResults());
  }

  /// One register tile of `rows` output rows from `row0` (activations at
  /// `xBase0` + i * `pixStride`) and `nv` vectors of columns from `col`.
  /// `firstBlock` (i1) selects the bias over the partial sums in `out` when
  /// K is blocked; null when it is not.
  Value emitTile(OpBuilder &nb, Value out, Value row0, Value xBase0,
                 int64_t pixStride, int64_t rows, Value col, Value wBase,
                 ArrayRef<int64_t> lens, ArrayRef<KDim> dims,
                 Value firstBlock) {
    int64_t nv = lens.size();
    // colIdx: within the group (bias); outCol: in the result.
    SmallVector<Value> rowIdx, xOffsets, colIdx, outCol;
    Value xGroup = add(nb, xBase0, groupOffset(nb, xGroupStride));
    for (int64_t i = 0; i < rows; ++i) {
      rowIdx.push_back(
          add(nb, row0, arith::ConstantIndexOp::create(nb, loc, i)));
      xOffsets.push_back(add(
          nb, xGroup, arith::ConstantIndexOp::create(nb, loc, i * pixStride)));
    }
    for (int64_t v = 0; v < nv; ++v) {
      colIdx.push_back(
          add(nb, col, arith::ConstantIndexOp::create(nb, loc, v * kLanes)));
      outCol.push_back(add(nb, colIdx.back(), groupOffset(nb, tiling.n)));
    }

    auto biasInit = [&](OpBuilder &ib) {
      SmallVector<Value> bias, accs;
      for (int64_t v = 0; v < nv; ++v)
        bias.push_back(readBias(ib, colIdx[v], lens[v]));
      for (int64_t i = 0; i < rows; ++i)
        llvm::append_range(accs, bias);
      return accs;
    };
    SmallVector<Value> accs;
    if (!firstBlock) {
      accs = biasInit(nb);
    } else {
      auto ifOp = scf::IfOp::create(
          nb, loc, firstBlock,
          [&](OpBuilder &tb, Location) {
            scf::YieldOp::create(tb, loc, biasInit(tb));
          },
          [&](OpBuilder &eb, Location) {
            SmallVector<Value> partial;
            for (int64_t i = 0; i < rows; ++i)
              for (int64_t v = 0; v < nv; ++v)
                partial.push_back(readPadded(eb, loc, out,
                                             ValueRange{rowIdx[i], outCol[v]},
                                             lens[v], kLanes));
            scf::YieldOp::create(eb, loc, partial);
          });
      accs = SmallVector<Value>(ifOp.getResults());
    }

    SmallVector<Value> result = emitKLoops(nb, dims, xOffsets, wBase, nv, accs);
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t v = 0; v < nv; ++v)
        out = writePrefix(nb, loc, result[i * nv + v], out,
                          ValueRange{rowIdx[i], outCol[v]}, lens[v]);
    return out;
  }

  /// All tiles of one column tile over the rows: `lines` lines of `pixels`
  /// rows each; `lineXBase(l)` gives the activation offset of line l's first
  /// row, consecutive rows are `pixStride` bytes apart.
  Value emitColumnTile(OpBuilder &nb, Value out, int64_t lines, int64_t pixels,
                       llvm::function_ref<Value(OpBuilder &, Value)> lineXBase,
                       int64_t pixStride, Value col, Value wBase,
                       ArrayRef<int64_t> lens, ArrayRef<KDim> dims,
                       Value firstBlock) {
    int64_t m0 = ColumnTiling::rowsPerTile(lens.size());
    int64_t fullTiles = pixels / m0, rest = pixels % m0;
    auto lineBody = [&](OpBuilder &lb, Value l, Value acc) {
      Value xLine = lineXBase(lb, l);
      Value rowLine = mul(lb, l, pixels);
      if (fullTiles > 0) {
        auto loop = scf::ForOp::create(
            lb, loc, arith::ConstantIndexOp::create(lb, loc, 0),
            arith::ConstantIndexOp::create(lb, loc, fullTiles),
            arith::ConstantIndexOp::create(lb, loc, 1), ValueRange{acc},
            [&](OpBuilder &tb, Location, Value t, ValueRange iters) {
              Value p = mul(tb, t, m0);
              Value next =
                  emitTile(tb, iters[0], add(tb, rowLine, p),
                           add(tb, xLine, mul(tb, p, pixStride)), pixStride, m0,
                           col, wBase, lens, dims, firstBlock);
              scf::YieldOp::create(tb, loc, next);
            });
        acc = loop.getResult(0);
      }
      if (rest > 0) {
        Value p = arith::ConstantIndexOp::create(lb, loc, fullTiles * m0);
        acc = emitTile(lb, acc, add(lb, rowLine, p),
                       add(lb, xLine, mul(lb, p, pixStride)), pixStride, rest,
                       col, wBase, lens, dims, firstBlock);
      }
      return acc;
    };
    if (lines == 1)
      return lineBody(nb, arith::ConstantIndexOp::create(nb, loc, 0), out);
    auto loop = scf::ForOp::create(
        nb, loc, arith::ConstantIndexOp::create(nb, loc, 0),
        arith::ConstantIndexOp::create(nb, loc, lines),
        arith::ConstantIndexOp::create(nb, loc, 1), ValueRange{out},
        [&](OpBuilder &lb, Location, Value l, ValueRange iters) {
          scf::YieldOp::create(lb, loc, lineBody(lb, l, iters[0]));
        });
    return loop.getResult(0);
  }

  /// Every column tile, full ones in a loop, then the tail.
  Value emitColumns(OpBuilder &nb, Value out, int64_t lines, int64_t pixels,
                    llvm::function_ref<Value(OpBuilder &, Value)> lineXBase,
                    int64_t pixStride, ArrayRef<KDim> dims, Value firstBlock) {
    int64_t n0 = tiling.nv * kLanes;
    if (tiling.full > 0) {
      auto loop = scf::ForOp::create(
          nb, loc, arith::ConstantIndexOp::create(nb, loc, 0),
          arith::ConstantIndexOp::create(nb, loc, tiling.full),
          arith::ConstantIndexOp::create(nb, loc, 1), ValueRange{out},
          [&](OpBuilder &tb, Location, Value t, ValueRange iters) {
            Value next = emitColumnTile(tb, iters[0], lines, pixels, lineXBase,
                                        pixStride, mul(tb, t, n0),
                                        add(tb, mul(tb, t, k1 * n0 * 4),
                                            groupOffset(tb, packedGroupSize())),
                                        SmallVector<int64_t>(tiling.nv, kLanes),
                                        dims, firstBlock);
            scf::YieldOp::create(tb, loc, next);
          });
      out = loop.getResult(0);
    }
    if (tiling.nvTail > 0) {
      int64_t col0 = tiling.full * n0;
      SmallVector<int64_t> lens;
      for (int64_t v = 0; v < tiling.nvTail; ++v)
        lens.push_back(std::min(kLanes, tiling.n - col0 - v * kLanes));
      out = emitColumnTile(nb, out, lines, pixels, lineXBase, pixStride,
                           arith::ConstantIndexOp::create(nb, loc, col0),
                           add(nb, groupOffset(nb, packedGroupSize()),
                               arith::ConstantIndexOp::create(
                                   nb, loc, tiling.full * k1 * n0 * 4)),
                           lens, dims, firstBlock);
    }
    return out;
  }

private:
  Location loc;
};

/// Packing rewrites every weight; a splat is O(1) in the IR but would be
/// expanded here (10^8 elements took 4 GB and 20 s). Large splats are left
/// to the generic linalg lowering, which keeps them splats.
constexpr int64_t kMaxPackedSplatElements = int64_t(1) << 20;

bool isLargeSplat(Value value) {
  DenseElementsAttr attr;
  return matchPattern(value, m_Constant(&attr)) && attr.isSplat() &&
         attr.getNumElements() > kMaxPackedSplatElements;
}

/// The elements of a constant integer tensor of `bitWidth`-bit elements
/// (dense or dense_resource), sign- or zero-extended; nullopt otherwise.
std::optional<std::vector<int64_t>>
getConstantInts(Value value, unsigned bitWidth, bool isUnsigned) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  Attribute attr;
  if (!type || !type.getElementType().isInteger(bitWidth) ||
      !type.hasStaticShape() || !matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  auto extend = [&](const APInt &v) {
    return isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue();
  };
  std::vector<int64_t> result;
  result.reserve(type.getNumElements());
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    for (const APInt &v : dense.getValues<APInt>())
      result.push_back(extend(v));
    return result;
  }
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    ArrayRef<char> data = blob->getData();
    size_t bytes = bitWidth / 8;
    if (data.size() != size_t(type.getNumElements()) * bytes)
      return std::nullopt;
    for (size_t i = 0; i < data.size(); i += bytes) {
      uint64_t raw = 0; // little endian, as DenseElementsAttr stores it
      for (size_t j = 0; j < bytes; ++j)
        raw |= uint64_t(uint8_t(data[i + j])) << (8 * j);
      result.push_back(extend(APInt(bitWidth, raw)));
    }
    return result;
  }
  return std::nullopt;
}

/// The bias operand: folded with `correction` into one constant when the
/// bias is constant, else kept at run time with the correction beside it.
/// Constants are laid out [group][paddedN], zero past each group's n.
void setBias(OpBuilder &b, Location loc, KernelEmitter &k, Value bias,
             ArrayRef<int64_t> correction) {
  int64_t n = k.tiling.n, padded = k.tiling.paddedN();
  int64_t groups = correction.size() / n;
  auto paddedType = RankedTensorType::get({groups * padded}, b.getI32Type());
  auto spread = [&](auto value) {
    SmallVector<int32_t> result(groups * padded, 0);
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t j = 0; j < n; ++j)
        result[g * padded + j] = static_cast<int32_t>(
            static_cast<uint32_t>(static_cast<uint64_t>(value(g * n + j))));
    return result;
  };
  if (std::optional<std::vector<int64_t>> biasValues =
          getConstantInts(bias, 32, /*isUnsigned=*/false)) {
    SmallVector<int32_t> folded = spread(
        [&](int64_t col) { return (*biasValues)[col] + correction[col]; });
    k.biasFolded = arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(paddedType, ArrayRef(folded)));
    return;
  }
  k.biasRuntime = bias;
  if (llvm::all_of(correction, [](int64_t c) { return c == 0; }))
    return;
  SmallVector<int32_t> values =
      spread([&](int64_t col) { return correction[col]; });
  k.correction = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(paddedType, ArrayRef(values)));
}

/// The per-column correction (o - zx) * sum_k w'[k, n], modulo 2^32.
SmallVector<int64_t> columnCorrection(ArrayRef<int64_t> weightSums,
                                      int32_t offset, int32_t inputZeroPoint) {
  SmallVector<int64_t> result;
  int64_t factor = int64_t(offset) - inputZeroPoint;
  for (int64_t s : weightSums)
    result.push_back(static_cast<int32_t>(
        static_cast<uint32_t>(static_cast<uint64_t>(s * factor))));
  return result;
}

/// Writes `length` bytes of `code` into `dest` from `indices` + `offset`
/// (innermost dimension varying), in bounds.
Value fillRow(OpBuilder &b, Location loc, Value dest, ValueRange indices,
              int64_t offset, int64_t length, int8_t code) {
  auto at = [&](OpBuilder &nb, Value off) {
    SmallVector<Value> result(indices);
    result.back() = nb.createOrFold<arith::AddIOp>(loc, result.back(), off);
    return result;
  };
  auto fill = [&](OpBuilder &nb, Value acc, Value off, int64_t len) {
    auto type = VectorType::get({len}, nb.getI8Type());
    Value v = arith::ConstantOp::create(
        nb, loc, DenseElementsAttr::get(type, nb.getI8IntegerAttr(code)));
    return vector::TransferWriteOp::create(nb, loc, v, acc, at(nb, off),
                                           ArrayRef<bool>{true})
        .getResult();
  };
  int64_t chunks = length / kBytes, tail = length % kBytes;
  if (chunks > 0) {
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, offset),
        arith::ConstantIndexOp::create(b, loc, offset + chunks * kBytes),
        arith::ConstantIndexOp::create(b, loc, kBytes), ValueRange{dest},
        [&](OpBuilder &nb, Location, Value c0, ValueRange iters) {
          scf::YieldOp::create(nb, loc, fill(nb, iters[0], c0, kBytes));
        });
    dest = loop.getResult(0);
  }
  if (tail > 0)
    dest = fill(
        b, dest,
        arith::ConstantIndexOp::create(b, loc, offset + chunks * kBytes), tail);
  return dest;
}

/// Copies the `length` bytes of `src` at `srcIndices` (innermost dimension
/// varying) to `dest` at `destIndices`, flipped when asked, then writes
/// `padLength` bytes of `padCode` after them. Full 64-byte chunks in a loop,
/// then one static-size tail: every access is in bounds.
Value copyRow(OpBuilder &b, Location loc, Value src, ValueRange srcIndices,
              Value dest, ValueRange destIndices, int64_t length, bool flip,
              int64_t padLength, int8_t padCode) {
  auto at = [&](OpBuilder &nb, ValueRange indices, Value offset) {
    SmallVector<Value> result(indices);
    result.back() = nb.createOrFold<arith::AddIOp>(loc, result.back(), offset);
    return result;
  };
  auto copy = [&](OpBuilder &nb, Value acc, Value offset, int64_t len) {
    auto type = VectorType::get({len}, nb.getI8Type());
    Value v = vector::TransferReadOp::create(
        nb, loc, type, src, at(nb, srcIndices, offset), std::nullopt,
        ArrayRef<bool>{true});
    if (flip)
      v = arith::XOrIOp::create(
          nb, loc, v,
          arith::ConstantOp::create(
              nb, loc,
              DenseElementsAttr::get(type, nb.getI8IntegerAttr(-128))));
    return vector::TransferWriteOp::create(nb, loc, v, acc,
                                           at(nb, destIndices, offset),
                                           ArrayRef<bool>{true})
        .getResult();
  };
  int64_t chunks = length / kBytes, tail = length % kBytes;
  if (chunks > 0) {
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, chunks * kBytes),
        arith::ConstantIndexOp::create(b, loc, kBytes), ValueRange{dest},
        [&](OpBuilder &nb, Location, Value c0, ValueRange iters) {
          scf::YieldOp::create(nb, loc, copy(nb, iters[0], c0, kBytes));
        });
    dest = loop.getResult(0);
  }
  if (tail > 0)
    dest = copy(b, dest,
                arith::ConstantIndexOp::create(b, loc, chunks * kBytes), tail);
  return fillRow(b, loc, dest, destIndices, length, padLength, padCode);
}

Value collapseToFlat(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(
      b, loc,
      RankedTensorType::get({type.getNumElements()}, type.getElementType()), t,
      SmallVector<ReassociationIndices>{all});
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

LogicalResult rewriteMatmul(IRRewriter &rewriter, IntMatmulOp op,
                            int64_t kBlock) {
  RankedTensorType xType = op.getX().getType(), wType = op.getW().getType();
  if (!xType.hasStaticShape() || !wType.hasStaticShape())
    return failure();
  int64_t m = xType.getDimSize(0), kSize = xType.getDimSize(1),
          n = wType.getDimSize(1);
  if (m == 0 || kSize == 0 || n == 0)
    return failure();
  bool wUnsigned = op.getWUnsigned(), xUnsigned = op.getXUnsigned();
  if (isLargeSplat(op.getW()))
    return failure();
  std::optional<std::vector<int64_t>> codes =
      getConstantInts(op.getW(), 8, wUnsigned);
  if (!codes)
    return failure();

  ArrayRef<int32_t> zw = op.getWeightZeroPoints();
  auto weight = [&](int64_t k, int64_t col) {
    return (*codes)[k * n + col] - zw[zw.size() == 1 ? 0 : col];
  };
  WeightStats stats = scanWeights(*codes, zw, kSize, n);
  std::optional<OperandPlan> plan =
      planOperands(stats.min, stats.max, xUnsigned);
  if (!plan)
    return failure();

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  OpBuilder &b = rewriter;
  KernelEmitter k(loc);
  k.tiling = ColumnTiling(n);
  k.k1 = ceilDiv(kSize, 4);
  k.weightsUnsigned = plan->weightsUnsigned;
  int64_t kPadded = k.k1 * 4;

  std::vector<int8_t> packed =
      packWeights(k.tiling, k.k1, [&](int64_t kk, int64_t q, int64_t col) {
        int64_t kIdx = kk * 4 + q;
        return kIdx < kSize ? weight(kIdx, col) : 0;
      });
  auto packedType =
      RankedTensorType::get({int64_t(packed.size())}, b.getI8Type());
  k.wPacked = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(packedType, ArrayRef(packed)));
  setBias(
      b, loc, k, op.getBias(),
      columnCorrection(stats.columnSums, plan->offset,
                       getI32(op.getInputZeroPointAttr())));

  // Activations: in place, or flipped / padded to K4 by a pre-pass.
  Value x = op.getX();
  if (plan->flipX || kPadded != kSize) {
    Value xp = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{m, kPadded},
                                       b.getI8Type());
    auto rows = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, m),
        arith::ConstantIndexOp::create(b, loc, 1), ValueRange{xp},
        [&](OpBuilder &nb, Location, Value row, ValueRange iters) {
          Value zero = arith::ConstantIndexOp::create(nb, loc, 0);
          Value next = copyRow(nb, loc, x, ValueRange{row, zero}, iters[0],
                               ValueRange{row, zero}, kSize, plan->flipX,
                               kPadded - kSize, 0);
          scf::YieldOp::create(nb, loc, next);
        });
    x = rows.getResult(0);
  }
  k.xFlat = collapseToFlat(b, loc, x);

  Value out =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{m, n}, b.getI32Type());
  auto lineBase = [&](OpBuilder &nb, Value) {
    return (Value)arith::ConstantIndexOp::create(nb, loc, 0);
  };
  int64_t blocks = kBlock > 0 ? ceilDiv(k.k1, kBlock) : 1;
  int64_t blockSize = ceilDiv(k.k1, blocks);
  if (blocks == 1) {
    KDim dim;
    dim.extent = k.k1;
    dim.xStride = 4;
    dim.wGroupStride = 1;
    out = k.emitColumns(b, out, 1, m, lineBase, kPadded, {dim}, Value());
  } else {
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, blocks),
        arith::ConstantIndexOp::create(b, loc, 1), ValueRange{out},
        [&](OpBuilder &nb, Location, Value kb, ValueRange iters) {
          KDim dim;
          dim.lb = k.mul(nb, kb, blockSize);
          dim.ub = arith::MinSIOp::create(
              nb, loc,
              k.add(nb, dim.lb,
                    arith::ConstantIndexOp::create(nb, loc, blockSize)),
              arith::ConstantIndexOp::create(nb, loc, k.k1));
          dim.xStride = 4;
          dim.wGroupStride = 1;
          Value first =
              arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq, kb,
                                    arith::ConstantIndexOp::create(nb, loc, 0));
          Value next = k.emitColumns(nb, iters[0], 1, m, lineBase, kPadded,
                                     {dim}, first);
          scf::YieldOp::create(nb, loc, next);
        });
    out = loop.getResult(0);
  }
  rewriter.replaceOp(op, out);
  return success();
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

LogicalResult rewriteConv(IRRewriter &rewriter, IntConv2DOp op) {
  RankedTensorType xType = op.getX().getType(), wType = op.getW().getType(),
                   resultType = op.getResult().getType();
  if (!xType.hasStaticShape() || !wType.hasStaticShape() ||
      !resultType.hasStaticShape())
    return failure();
  ArrayRef<int64_t> strideAttr = op.getStrides(),
                    dilationAttr = op.getDilations(), padding = op.getPadding();
  if (llvm::any_of(padding, [](int64_t p) { return p < 0; }) ||
      llvm::any_of(strideAttr, [](int64_t s) { return s <= 0; }) ||
      llvm::any_of(dilationAttr, [](int64_t d) { return d <= 0; }))
    return failure();
  int64_t batch = xType.getDimSize(0), h = xType.getDimSize(1),
          wIn = xType.getDimSize(2), c = xType.getDimSize(3);
  int64_t kh = wType.getDimSize(0), kw = wType.getDimSize(1),
          cg = wType.getDimSize(2), f = wType.getDimSize(3);
  int64_t groups = op.getGroups();
  if (groups <= 0 || f % groups != 0 || cg * groups != c)
    return failure();
  int64_t fg = f / groups;
  int64_t oh = resultType.getDimSize(1), ow = resultType.getDimSize(2);
  // Checked window math (WindowArithmetic.h); after it the padded sizes fit.
  if (quantopt::ref::windowOutputSize(h, padding[0], padding[1], kh,
                                      strideAttr[0], dilationAttr[0]) != oh ||
      quantopt::ref::windowOutputSize(wIn, padding[2], padding[3], kw,
                                      strideAttr[1], dilationAttr[1]) != ow)
    return failure();
  int64_t hp = h + padding[0] + padding[1], wp = wIn + padding[2] + padding[3];
  if (batch * oh * ow == 0 || fg == 0 || cg == 0 || kh == 0 || kw == 0)
    return failure();
  // The byte offsets below multiply strides and dilations by padded row and
  // pixel sizes (channels padded to 4 per group). A stride of one output and
  // a dilation of one tap never move, so they count as 1; if an offset could
  // still leave int64, the generic lowering takes the op.
  SmallVector<int64_t, 2> strides = {oh == 1 ? 1 : op.getStrides()[0],
                                     ow == 1 ? 1 : op.getStrides()[1]};
  SmallVector<int64_t, 2> dilations = {kh == 1 ? 1 : op.getDilations()[0],
                                       kw == 1 ? 1 : op.getDilations()[1]};
  std::optional<int64_t> cPaddedBound =
      quantopt::ref::checkedProduct({groups, cg + 3});
  if (!cPaddedBound ||
      !quantopt::ref::checkedProduct({batch, hp, wp, *cPaddedBound}) ||
      !quantopt::ref::checkedProduct(
          {std::max(strides[0], dilations[0]), wp, *cPaddedBound}) ||
      !quantopt::ref::checkedProduct(
          {std::max(strides[1], dilations[1]), *cPaddedBound}))
    return failure();

  bool wUnsigned = op.getWUnsigned(), xUnsigned = op.getXUnsigned();
  if (isLargeSplat(op.getW()))
    return failure();
  std::optional<std::vector<int64_t>> codes =
      getConstantInts(op.getW(), 8, wUnsigned);
  if (!codes)
    return failure();
  ArrayRef<int32_t> zw = op.getWeightZeroPoints();
  // w'[i][j][ch][col] of HWCF weights (ch within the group, col global).
  auto weight = [&](int64_t i, int64_t j, int64_t ch, int64_t col) {
    return (*codes)[((i * kw + j) * cg + ch) * f + col] -
           zw[zw.size() == 1 ? 0 : col];
  };
  WeightStats stats = scanWeights(*codes, zw, kh * kw * cg, f);
  std::optional<OperandPlan> plan =
      planOperands(stats.min, stats.max, xUnsigned);
  if (!plan)
    return failure();

  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  OpBuilder &b = rewriter;
  KernelEmitter k(loc);
  k.tiling = ColumnTiling(fg);
  int64_t c4 = ceilDiv(cg, 4), cgPadded = c4 * 4;
  k.k1 = kh * kw * c4;
  k.weightsUnsigned = plan->weightsUnsigned;

  // Packed weights, one [tile][K1][N0][4] block per group, K = (kh, kw, c4).
  std::vector<int8_t> packed;
  for (int64_t g = 0; g < groups; ++g) {
    std::vector<int8_t> part =
        packWeights(k.tiling, k.k1, [&](int64_t kk, int64_t q, int64_t col) {
          int64_t ch = (kk % c4) * 4 + q, tap = kk / c4;
          return ch < cg ? weight(tap / kw, tap % kw, ch, g * fg + col) : 0;
        });
    packed.insert(packed.end(), part.begin(), part.end());
  }
  auto packedType =
      RankedTensorType::get({int64_t(packed.size())}, b.getI8Type());
  k.wPacked = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(packedType, ArrayRef(packed)));
  setBias(
      b, loc, k, op.getBias(),
      columnCorrection(stats.columnSums, plan->offset,
                       getI32(op.getInputZeroPointAttr())));

  // Activations: in place, or copied by a pre-pass into [N][Hp][Wp][G*Cg4]:
  // padded spatially with pad_value (flipped like the data) and each group's
  // channels to a multiple of 4.
  Value x = op.getX();
  bool padded = llvm::any_of(padding, [](int64_t p) { return p != 0; });
  int64_t cPadded = groups * cgPadded;
  if (plan->flipX || padded || cgPadded != cg) {
    int8_t padCode = static_cast<int8_t>(getI32(op.getPadValueAttr()) & 0xff);
    if (plan->flipX)
      padCode = static_cast<int8_t>(padCode ^ 0x80);
    Value xp = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{batch, hp, wp, cPadded}, b.getI8Type());
    auto forLoop =
        [&](OpBuilder &nb, int64_t extent, Value init,
            llvm::function_ref<Value(OpBuilder &, Value, Value)> body) {
          return scf::ForOp::create(
                     nb, loc, arith::ConstantIndexOp::create(nb, loc, 0),
                     arith::ConstantIndexOp::create(nb, loc, extent),
                     arith::ConstantIndexOp::create(nb, loc, 1),
                     ValueRange{init},
                     [&](OpBuilder &lb, Location, Value iv, ValueRange iters) {
                       scf::YieldOp::create(lb, loc, body(lb, iv, iters[0]));
                     })
              .getResult(0);
        };
    auto inRange = [&](OpBuilder &nb, Value iv, int64_t lo, int64_t size) {
      // Unsigned compare: negative differences are out of range too.
      Value shifted = arith::SubIOp::create(
          nb, loc, iv, arith::ConstantIndexOp::create(nb, loc, lo));
      return arith::CmpIOp::create(
          nb, loc, arith::CmpIPredicate::ult, shifted,
          arith::ConstantIndexOp::create(nb, loc, size));
    };
    x = forLoop(b, batch, xp, [&](OpBuilder &b1, Value ni, Value t1) {
      return forLoop(b1, hp, t1, [&](OpBuilder &b2, Value hi, Value t2) {
        return forLoop(b2, wp, t2, [&](OpBuilder &b3, Value wi, Value t3) {
          Value inside =
              arith::AndIOp::create(b3, loc, inRange(b3, hi, padding[0], h),
                                    inRange(b3, wi, padding[2], wIn));
          auto ifOp = scf::IfOp::create(
              b3, loc, inside,
              [&](OpBuilder &tb, Location) {
                Value hs = arith::SubIOp::create(
                    tb, loc, hi,
                    arith::ConstantIndexOp::create(tb, loc, padding[0]));
                Value ws = arith::SubIOp::create(
                    tb, loc, wi,
                    arith::ConstantIndexOp::create(tb, loc, padding[2]));
                auto copyGroup = [&](OpBuilder &gb, Value g, Value acc) {
                  return copyRow(gb, loc, op.getX(),
                                 ValueRange{ni, hs, ws, k.mul(gb, g, cg)}, acc,
                                 ValueRange{ni, hi, wi, k.mul(gb, g, cgPadded)},
                                 cg, plan->flipX, cgPadded - cg, 0);
                };
                Value acc =
                    groups == 1
                        ? copyGroup(tb,
                                    arith::ConstantIndexOp::create(tb, loc, 0),
                                    t3)
                        : forLoop(tb, groups, t3, copyGroup);
                scf::YieldOp::create(tb, loc, acc);
              },
              [&](OpBuilder &eb, Location) {
                scf::YieldOp::create(
                    eb, loc,
                    fillRow(
                        eb, loc, t3,
                        ValueRange{ni, hi, wi,
                                   arith::ConstantIndexOp::create(eb, loc, 0)},
                        0, cPadded, padCode));
              });
          return ifOp.getResult(0);
        });
      });
    });
  } else {
    hp = h;
    wp = wIn;
  }
  k.xFlat = collapseToFlat(b, loc, x);
  k.xGroupStride = cgPadded;

  // Rows are output pixels (n, oh, ow); a line is one output row (n, oh).
  int64_t rows = batch * oh * ow;
  Value out = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{rows, f},
                                      b.getI32Type());
  auto lineBase = [&](OpBuilder &nb, Value l) -> Value {
    // (n * Hp + oh * sh) * Wp * C4 with n = l / OH, oh = l % OH.
    Value ohs = arith::ConstantIndexOp::create(nb, loc, oh);
    Value ni = nb.createOrFold<arith::DivUIOp>(loc, l, ohs);
    Value oi = nb.createOrFold<arith::RemUIOp>(loc, l, ohs);
    Value hRow = k.add(nb, k.mul(nb, ni, hp), k.mul(nb, oi, strides[0]));
    return k.mul(nb, hRow, wp * cPadded);
  };
  SmallVector<KDim> dims;
  // Loops of one step vanish; a loop whose strides are those of the loop
  // inside it times that loop's extent merges with it ((kw, c4) with unit
  // dilation is one run of KW * C4 contiguous groups).
  auto addDim = [&](int64_t extent, int64_t xStride, int64_t wStride) {
    if (extent == 1)
      return;
    if (!dims.empty()) {
      KDim &outer = dims.back();
      if (outer.xStride == extent * xStride &&
          outer.wGroupStride == extent * wStride) {
        outer.extent *= extent;
        outer.xStride = xStride;
        outer.wGroupStride = wStride;
        return;
      }
    }
    KDim d;
    d.extent = extent;
    d.xStride = xStride;
    d.wGroupStride = wStride;
    dims.push_back(d);
  };
  addDim(kh, dilations[0] * wp * cPadded, kw * c4);
  addDim(kw, dilations[1] * cPadded, c4);
  addDim(c4, 4, 1);
  if (dims.empty())
    dims.push_back(KDim{1, Value(), Value(), 4, 1});
  if (groups == 1) {
    out = k.emitColumns(b, out, batch * oh, ow, lineBase, strides[1] * cPadded,
                        dims, Value());
  } else {
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, groups),
        arith::ConstantIndexOp::create(b, loc, 1), ValueRange{out},
        [&](OpBuilder &nb, Location, Value g, ValueRange iters) {
          k.group = g;
          scf::YieldOp::create(nb, loc,
                               k.emitColumns(nb, iters[0], batch * oh, ow,
                                             lineBase, strides[1] * cPadded,
                                             dims, Value()));
        });
    out = loop.getResult(0);
  }
  Value result = tensor::ExpandShapeOp::create(
      b, loc, resultType, out,
      SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  rewriter.replaceOp(op, result);
  return success();
}

//===----------------------------------------------------------------------===//
// Memory effects of llvm.call_intrinsic
//===----------------------------------------------------------------------===//

/// `llvm.call_intrinsic` declares no memory effects, so the buffer
/// deallocation pipeline rejects it ("ops with unknown memory side effects
/// are not supported") even though vpdpbusd only computes on registers. This
/// model states what is known: no effect for the register-only intrinsics
/// below, and for any other intrinsic a read and a write of unknown memory
/// (the most an intrinsic without a memref operand can do).
struct CallIntrinsicEffects
    : MemoryEffectOpInterface::ExternalModel<CallIntrinsicEffects,
                                             LLVM::CallIntrinsicOp> {
  void
  getEffects(Operation *op,
             SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
                 &effects) const {
    StringRef name = cast<LLVM::CallIntrinsicOp>(op).getIntrin();
    if (name == kVpdpbusd)
      return;
    effects.emplace_back(MemoryEffects::Read::get());
    effects.emplace_back(MemoryEffects::Write::get());
  }
};

void attachCallIntrinsicEffects(MLIRContext *ctx, LLVM::LLVMDialect *) {
  std::optional<RegisteredOperationName> info = RegisteredOperationName::lookup(
      LLVM::CallIntrinsicOp::getOperationName(), ctx);
  if (info && !info->hasInterface<MemoryEffectOpInterface>())
    LLVM::CallIntrinsicOp::attachInterface<CallIntrinsicEffects>(*ctx);
}

struct QntToX86VnniPass : qnt::impl::QntToX86VnniBase<QntToX86VnniPass> {
  using Base::Base;

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    qnt::registerX86VnniExternalModels(registry);
  }

  void runOnOperation() override {
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<IntMatmulOp, IntConv2DOp>(op))
        candidates.push_back(op);
    });
    // Every op the rewrites create, for the clean-up below.
    struct Collector : OpBuilder::Listener {
      void notifyOperationInserted(Operation *op,
                                   OpBuilder::InsertPoint) override {
        created.push_back(op);
      }
      SmallVector<Operation *> created;
    } collector;
    IRRewriter rewriter(&getContext(), &collector);
    for (Operation *op : candidates) {
      if (auto matmul = dyn_cast<IntMatmulOp>(op))
        (void)rewriteMatmul(rewriter, matmul, kBlock);
      else if (auto conv = dyn_cast<IntConv2DOp>(op))
        (void)rewriteConv(rewriter, conv);
    }
    if (collector.created.empty())
      return;
    // Fold the new index arithmetic and drop what is dead, then share the
    // duplicated constants and offsets.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    (void)applyOpPatternsGreedily(collector.created, FrozenRewritePatternSet(),
                                  config);
    IRRewriter cseRewriter(&getContext());
    DominanceInfo dominance(getOperation());
    eliminateCommonSubExpressions(cseRewriter, dominance, getOperation());
  }
};

} // namespace

void mlir::qnt::registerX86VnniExternalModels(DialectRegistry &registry) {
  registry.addExtension(&attachCallIntrinsicEffects);
}
