//===- QntToX86Vnni.cpp - int8 contractions on AVX-512 VNNI ---------------===//
//
// Rewrites `qnt.int_matmul` and `qnt.int_conv2d` with constant weights into
// register-blocked loops whose inner step is the 512-bit `vpdpbusd`
// (u8 x s8 -> i32, four products per i32 lane), emitted on tensors as
// scf.for + vector ops + `qnt_kernel.x86.vpdpbusd`. The plans (operand
// roles, tiles, packed layout) are in Planning.cpp, the IR builders in
// KernelEmitter.cpp; this file holds the rewrite patterns.
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
//   activations: read in place when no padding is needed (a flip is then
//     applied in registers to each broadcast group of 4 bytes, an xor on an
//     otherwise idle vector port), else copied by a vectorized pre-pass into
//     a padded buffer ([M][K4] for matmul, [N][Hp][Wp][C4] for conv, K4/C4
//     rounded up to 4) with the flip applied;
//   accumulators: M0 x N0 (4 x 64 by default) vector<16xi32> loop-carried
//     values, written straight into the M x N (N*OH*OW x F) result, or
//     requantized first when the result's only user is a requantize
//     (FusedRequantize.h), or for a matmul passed through the body of an
//     elementwise linalg.generic that is its only user
//     (FusedElementwise.h); the kernel then replaces that user.
// Matmul K is blocked (k-block: by default 1024, so that a 64-column panel
// of packed weights, at most 64 KiB, streams from L2) when it is longer; the
// blocks but the last leave i32 partial sums, which the last one completes.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Vnni.h"

#include "Depthwise.h"
#include "FusedElementwise.h"
#include "FusedRequantize.h"
#include "KernelEmitter.h"
#include "QuantOpt/Conversion/QntToX86Vnni/Planning.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::x86vnni;
using quantopt::x86vnni::columnCorrection;
using quantopt::x86vnni::DotIsa;
using quantopt::x86vnni::OperandPlan;
using quantopt::x86vnni::packWeights;
using quantopt::x86vnni::planOperands;
using quantopt::x86vnni::scanWeights;
using quantopt::x86vnni::WeightStats;
using quantopt::x86vnni::widenPackedWeights;

namespace {

/// What the matmul patterns are built with.
struct ContractionOptions {
  int64_t kBlock = 256;
  DotIsa isa = DotIsa::Avx512Vnni;
};

/// An I32Attr as the signed value it holds.
int32_t getI32(IntegerAttr attr) { return static_cast<int32_t>(attr.getInt()); }

/// Packing rewrites every weight; a splat is O(1) in the IR but would be
/// expanded here (10^8 elements took 4 GB and 20 s). Large splats are left
/// to the generic linalg lowering, which keeps them splats.
constexpr int64_t kMaxPackedSplatElements = int64_t(1) << 20;

bool isLargeSplat(Value value) {
  DenseElementsAttr attr;
  return matchPattern(value, m_Constant(&attr)) && attr.isSplat() &&
         attr.getNumElements() > kMaxPackedSplatElements;
}

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// Sets `k.wPacked` to the packed constant weights, widened to 16 bits when
/// `k.widenedOperands` (`k.weightsUnsigned` says how).
void setConstantWeights(OpBuilder &b, Location loc, KernelEmitter &k,
                        ArrayRef<int8_t> packed) {
  if (k.widenedOperands) {
    std::vector<int16_t> wide = widenPackedWeights(packed, k.weightsUnsigned);
    auto wideType =
        RankedTensorType::get({int64_t(wide.size())}, b.getI16Type());
    k.wPacked = arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(wideType, ArrayRef(wide)));
    return;
  }
  auto packedType =
      RankedTensorType::get({int64_t(packed.size())}, b.getI8Type());
  k.wPacked = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(packedType, packed));
}

/// Rewrites `op`, and `requant` (its single user, or null) with it: then
/// the tiles store the requantized codes and `requant` is replaced. Or, with
/// `elementwise` (its single user, or null), the tiles store the body's
/// values and the generic is replaced.
LogicalResult rewriteMatmul(PatternRewriter &rewriter, IntMatmulOp op,
                            IntRequantizeOp requant,
                            const ContractionOptions &options,
                            const FusedElementwise *elementwise = nullptr) {
  int64_t kBlock = options.kBlock;
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
  ArrayRef<int32_t> zw = op.getWeightZeroPoints();
  std::optional<OperandPlan> plan;
  WeightStats stats;
  if (codes) {
    stats = scanWeights(*codes, zw, kSize, n);
    plan = planOperands(stats.min, stats.max, xUnsigned);
  } else if (llvm::all_of(zw, [](int32_t z) { return z == 0; })) {
    // Run-time weights (RuntimeWeights.cpp): w' = w, so the storage type
    // alone says which operand they can be.
    plan = wUnsigned ? planOperands(0, 255, xUnsigned)
                     : planOperands(-128, 127, xUnsigned);
  }
  if (!plan)
    return failure();

  Location loc = op.getLoc();
  // The body reads the generic's other operands, which may be defined
  // after the matmul; every operand of both dominates the generic.
  if (elementwise)
    rewriter.setInsertionPoint(elementwise->getOp());
  else
    rewriter.setInsertionPoint(op);
  OpBuilder &b = rewriter;
  KernelEmitter k(loc);
  k.tiling = ColumnTiling(n, options.isa);
  k.k1 = ceilDiv(kSize, 4);
  k.weightsUnsigned = plan->weightsUnsigned;
  int64_t kPadded = k.k1 * 4;

  // Widened weights: constant ones here, run-time ones by the packing
  // loops; the activations by the pre-pass below.
  k.widenedOperands = k.tiling.widensAhead(m);
  if (codes) {
    auto weight = [&](int64_t kIdx, int64_t col) {
      return (*codes)[kIdx * n + col] - zw[zw.size() == 1 ? 0 : col];
    };
    std::vector<int8_t> packed =
        packWeights(k.tiling, k.k1, [&](int64_t kk, int64_t q, int64_t col) {
          int64_t kIdx = kk * 4 + q;
          return kIdx < kSize ? weight(kIdx, col) : 0;
        });
    setConstantWeights(b, loc, k, packed);
    setBias(b, loc, k, op.getBias(),
            columnCorrection(stats.columnSums, plan->offset,
                             getI32(op.getInputZeroPointAttr())));
  } else {
    // (offset - zx) * sum_k w, the factor of columnCorrection, wrapping.
    int32_t factor = static_cast<int32_t>(static_cast<uint32_t>(
        int64_t(plan->offset) - getI32(op.getInputZeroPointAttr())));
    packRuntimeWeights(b, loc, k, op.getW(), kSize, factor);
    k.biasRuntime = op.getBias();
  }

  // Activations: in place (flipped in registers when needed), or flipped
  // and padded to K4 by a pre-pass; widened by it for the emulated ISAs
  // (zero-extended when they feed the u8 side of the product).
  Value x = op.getX();
  // A pre-pass: `copy(builder, row, zero, dest)` for every row of a fresh
  // [m][kPadded] buffer of `element`.
  auto copyRows =
      [&](Type element,
          llvm::function_ref<Value(OpBuilder &, Value, Value, Value)> copy)
      -> Value {
    Value xp =
        tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{m, kPadded}, element);
    auto rows = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, m),
        arith::ConstantIndexOp::create(b, loc, 1), ValueRange{xp},
        [&](OpBuilder &nb, Location, Value row, ValueRange iters) {
          Value zero = arith::ConstantIndexOp::create(nb, loc, 0);
          scf::YieldOp::create(nb, loc, copy(nb, row, zero, iters[0]));
        });
    return markParallelTiles(rows)[0];
  };
  if (k.widenedOperands) {
    x = copyRows(
        b.getI16Type(), [&](OpBuilder &nb, Value row, Value zero, Value dest) {
          return copyRowWidened(nb, loc, x, ValueRange{row, zero}, dest,
                                ValueRange{row, zero}, kSize, plan->flipX,
                                /*isUnsigned=*/!plan->weightsUnsigned);
        });
  } else if (kPadded == kSize) {
    k.flipX = plan->flipX;
  } else {
    x = copyRows(b.getI8Type(),
                 [&](OpBuilder &nb, Value row, Value zero, Value dest) {
                   return copyRow(nb, loc, x, ValueRange{row, zero}, dest,
                                  ValueRange{row, zero}, kSize, plan->flipX,
                                  kPadded - kSize, 0);
                 });
  }
  k.xFlat = collapseToFlat(b, loc, x);

  std::optional<FusedRequantize> fused;
  if (requant) {
    fused = FusedRequantize::plan(requant, n);
    fused->materialize(b, loc, n + kLanes);
  }
  auto lineBase = [&](OpBuilder &nb, Value) {
    return (Value)arith::ConstantIndexOp::create(nb, loc, 0);
  };
  auto kDim = [&](OpBuilder &nb, int64_t lb, int64_t ub) {
    KDim dim;
    dim.extent = ub - lb;
    if (lb != 0) {
      dim.lb = arith::ConstantIndexOp::create(nb, loc, lb);
      dim.ub = arith::ConstantIndexOp::create(nb, loc, ub);
    }
    dim.xStride = 4;
    dim.wGroupStride = 1;
    return dim;
  };
  // K blocks: every block but the last accumulates i32 partial sums, which
  // the last one reads back, completes, requantizes (when fused) and stores.
  quantopt::x86vnni::KBlocking kBlocking =
      quantopt::x86vnni::planKBlocks(k.k1, kBlock);
  int64_t blockSize = kBlocking.blockSize;
  // Every block but the last is full.
  int64_t blocks = ceilDiv(k.k1, blockSize);
  int64_t lastLb = (blocks - 1) * blockSize;
  if (blocks == 2) {
    Value scratch = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{m, n},
                                            b.getI32Type());
    k.partials = k.emitColumns(b, scratch, 1, m, lineBase, kPadded,
                               {kDim(b, 0, lastLb)}, Value());
  } else if (blocks > 2) {
    Value scratch = tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{m, n},
                                            b.getI32Type());
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, 0),
        arith::ConstantIndexOp::create(b, loc, blocks - 1),
        arith::ConstantIndexOp::create(b, loc, 1), ValueRange{scratch},
        [&](OpBuilder &nb, Location, Value kb, ValueRange iters) {
          KDim dim;
          dim.lb = k.mul(nb, kb, blockSize);
          dim.ub = k.add(nb, dim.lb,
                         arith::ConstantIndexOp::create(nb, loc, blockSize));
          dim.xStride = 4;
          dim.wGroupStride = 1;
          Value first =
              arith::CmpIOp::create(nb, loc, arith::CmpIPredicate::eq, kb,
                                    arith::ConstantIndexOp::create(nb, loc, 0));
          Value next = k.emitColumns(nb, iters[0], 1, m, lineBase, kPadded,
                                     {dim}, first);
          scf::YieldOp::create(nb, loc, next);
        });
    k.partials = loop.getResult(0);
  }
  k.epilogue = fused ? &*fused : nullptr;
  k.elementwise = elementwise;
  Type outElement = b.getI32Type();
  if (fused)
    outElement = fused->getStorage();
  else if (elementwise)
    outElement = elementwise->getResultElementType();
  Value out =
      tensor::EmptyOp::create(b, loc, ArrayRef<int64_t>{m, n}, outElement);
  if (blocks == 1 && quantopt::x86vnni::rowsOutside(k.tiling, m))
    out = k.emitRowsOutside(b, out, m, kPadded, {kDim(b, 0, k.k1)});
  else
    out = k.emitColumns(b, out, 1, m, lineBase, kPadded,
                        {kDim(b, lastLb, k.k1)}, Value());
  if (requant) {
    rewriter.replaceOp(requant, out);
  } else if (elementwise) {
    rewriter.replaceOp(elementwise->getOp(), out);
    rewriter.eraseOp(op);
  } else {
    rewriter.replaceOp(op, out);
  }
  return success();
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

/// As rewriteMatmul: `requant`, when not null, is fused.
LogicalResult rewriteConv(PatternRewriter &rewriter, IntConv2DOp op,
                          IntRequantizeOp requant, DotIsa isa) {
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
  // The depthwise kernel takes it with its requantize.
  if (isFusedDepthwise(op))
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
  k.tiling = ColumnTiling(fg, isa);
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
  // Rows are output pixels (n, oh, ow); a line is one output row (n, oh).
  int64_t rows = batch * oh * ow;
  // Widened weights here, the activations by the padding pre-pass below
  // (each input pixel feeds kh * kw taps of every column tile).
  k.widenedOperands = k.tiling.widensAhead(rows);
  setConstantWeights(b, loc, k, packed);
  setBias(
      b, loc, k, op.getBias(),
      columnCorrection(stats.columnSums, plan->offset,
                       getI32(op.getInputZeroPointAttr())));

  // Activations: in place (flipped in registers when needed), or copied by
  // a pre-pass into [N][Hp][Wp][G*Cg4]:
  // padded spatially with pad_value (flipped like the data) and each group's
  // channels to a multiple of 4; widened to 16 bits for the emulated ISAs
  // (zero-extended when they feed the u8 side of the product).
  Value x = op.getX();
  bool padded = llvm::any_of(padding, [](int64_t p) { return p != 0; });
  int64_t cPadded = groups * cgPadded;
  if (padded || cgPadded != cg || k.widenedOperands) {
    int8_t padCode = static_cast<int8_t>(getI32(op.getPadValueAttr()) & 0xff);
    if (plan->flipX)
      padCode = static_cast<int8_t>(padCode ^ 0x80);
    bool xZeroExtended = !plan->weightsUnsigned;
    int64_t padElement = padCode;
    if (k.widenedOperands && xZeroExtended)
      padElement = static_cast<uint8_t>(padCode);
    Value xp = tensor::EmptyOp::create(
        b, loc, ArrayRef<int64_t>{batch, hp, wp, cPadded},
        k.widenedOperands ? b.getI16Type() : b.getI8Type());
    auto forLoop =
        [&](OpBuilder &nb, int64_t extent, Value init,
            llvm::function_ref<Value(OpBuilder &, Value, Value)> body) {
          // Every loop of the pre-pass runs over distinct output positions.
          return markParallelTiles(scf::ForOp::create(
              nb, loc, arith::ConstantIndexOp::create(nb, loc, 0),
              arith::ConstantIndexOp::create(nb, loc, extent),
              arith::ConstantIndexOp::create(nb, loc, 1), ValueRange{init},
              [&](OpBuilder &lb, Location, Value iv, ValueRange iters) {
                scf::YieldOp::create(lb, loc, body(lb, iv, iters[0]));
              }))[0];
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
                  SmallVector<Value, 4> from{ni, hs, ws, k.mul(gb, g, cg)};
                  SmallVector<Value, 4> to{ni, hi, wi, k.mul(gb, g, cgPadded)};
                  if (k.widenedOperands)
                    return copyRowWidened(gb, loc, op.getX(), from, acc, to, cg,
                                          plan->flipX, xZeroExtended);
                  return copyRow(gb, loc, op.getX(), from, acc, to, cg,
                                 plan->flipX, cgPadded - cg, 0);
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
                        0, cPadded, padElement));
              });
          return ifOp.getResult(0);
        });
      });
    });
  } else {
    hp = h;
    wp = wIn;
    k.flipX = plan->flipX;
  }
  k.xFlat = collapseToFlat(b, loc, x);
  k.xGroupStride = cgPadded;

  std::optional<FusedRequantize> fused;
  if (requant) {
    fused = FusedRequantize::plan(requant, f);
    fused->materialize(b, loc, f + kLanes);
    k.epilogue = &*fused;
  }
  Value out = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{rows, f},
      fused ? fused->getStorage() : b.getI32Type());
  auto lineBase = [&](OpBuilder &nb, Value l) -> Value {
    // (n * Hp + oh * sh) * Wp * C4 with n = l / OH, oh = l % OH.
    Value ohs = arith::ConstantIndexOp::create(nb, loc, oh);
    Value ni = nb.createOrFold<arith::DivUIOp>(loc, l, ohs);
    Value oi = nb.createOrFold<arith::RemUIOp>(loc, l, ohs);
    Value hRow = k.add(nb, k.mul(nb, ni, hp), k.mul(nb, oi, strides[0]));
    return k.mul(nb, hRow, wp * cPadded);
  };
  SmallVector<KDim> dims;
  for (quantopt::x86vnni::ReductionLoop loop :
       quantopt::x86vnni::planConvReduction(kh, kw, c4, dilations[0],
                                            dilations[1], wp, cPadded)) {
    KDim dim;
    dim.extent = loop.extent;
    dim.xStride = loop.xStride;
    dim.wGroupStride = loop.wGroupStride;
    dims.push_back(dim);
  }
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
    // Each group writes its own columns.
    out = markParallelTiles(loop)[0];
  }
  Value result = tensor::ExpandShapeOp::create(
      b, loc,
      requant ? requant.getOutput().getType() : resultType, out,
      SmallVector<ReassociationIndices>{{0, 1, 2}, {3}});
  if (requant)
    rewriter.replaceOp(requant, result);
  else
    rewriter.replaceOp(op, result);
  return success();
}

/// The int_requantize the kernel of `op` fuses, if any.
IntRequantizeOp fusedRequantize(IntMatmulOp op) {
  return FusedRequantize::singleUser(op.getResult(),
                                     op.getW().getType().getDimSize(1));
}
IntRequantizeOp fusedRequantize(IntConv2DOp op) {
  if (isFusedDepthwise(op))
    return {};
  return FusedRequantize::singleUser(op.getResult(),
                                     op.getW().getType().getDimSize(3));
}

struct IntMatmulToVnni : OpRewritePattern<IntMatmulOp> {
  IntMatmulToVnni(MLIRContext *ctx, ContractionOptions options)
      : OpRewritePattern(ctx), options(options) {}
  LogicalResult matchAndRewrite(IntMatmulOp op,
                                PatternRewriter &rewriter) const override {
    // Left for RequantizedMatmulToVnni or ElementwiseMatmulToVnni, which
    // fuse the two; a matmul they have already replaced has no use left.
    if (op->use_empty() || fusedRequantize(op) ||
        FusedElementwise::plan(op.getResult()))
      return failure();
    return rewriteMatmul(rewriter, op, IntRequantizeOp(), options);
  }
  ContractionOptions options;
};

/// A matmul whose accumulators only feed an elementwise linalg.generic
/// (FusedElementwise.h): the kernel applies the body before it stores.
struct ElementwiseMatmulToVnni : OpRewritePattern<linalg::GenericOp> {
  ElementwiseMatmulToVnni(MLIRContext *ctx, ContractionOptions options)
      : OpRewritePattern(ctx), options(options) {}
  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (Value input : op.getDpsInputs()) {
      auto matmul = input.getDefiningOp<IntMatmulOp>();
      if (!matmul)
        continue;
      std::optional<FusedElementwise> elementwise =
          FusedElementwise::plan(matmul.getResult());
      if (!elementwise || elementwise->getOp() != op)
        continue;
      return rewriteMatmul(rewriter, matmul, IntRequantizeOp(), options,
                           &*elementwise);
    }
    return failure();
  }
  ContractionOptions options;
};

struct RequantizedMatmulToVnni : OpRewritePattern<IntRequantizeOp> {
  RequantizedMatmulToVnni(MLIRContext *ctx, ContractionOptions options)
      : OpRewritePattern(ctx), options(options) {}
  LogicalResult matchAndRewrite(IntRequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto matmul = op.getInput().getDefiningOp<IntMatmulOp>();
    if (!matmul || fusedRequantize(matmul) != op)
      return failure();
    return rewriteMatmul(rewriter, matmul, op, options);
  }
  ContractionOptions options;
};

struct IntConv2DToVnni : OpRewritePattern<IntConv2DOp> {
  IntConv2DToVnni(MLIRContext *ctx, DotIsa isa)
      : OpRewritePattern(ctx), isa(isa) {}
  LogicalResult matchAndRewrite(IntConv2DOp op,
                                PatternRewriter &rewriter) const override {
    if (op->use_empty() || fusedRequantize(op))
      return failure();
    return rewriteConv(rewriter, op, IntRequantizeOp(), isa);
  }
  DotIsa isa;
};

struct RequantizedConv2DToVnni : OpRewritePattern<IntRequantizeOp> {
  RequantizedConv2DToVnni(MLIRContext *ctx, DotIsa isa)
      : OpRewritePattern(ctx), isa(isa) {}
  LogicalResult matchAndRewrite(IntRequantizeOp op,
                                PatternRewriter &rewriter) const override {
    auto conv = op.getInput().getDefiningOp<IntConv2DOp>();
    if (!conv || fusedRequantize(conv) != op)
      return failure();
    return rewriteConv(rewriter, conv, op, isa);
  }
  DotIsa isa;
};

} // namespace

void mlir::qnt::populateQntToX86VnniPatterns(RewritePatternSet &patterns,
                                             int64_t kBlock, DotIsa isa) {
  patterns
      .add<IntMatmulToVnni, RequantizedMatmulToVnni, ElementwiseMatmulToVnni>(
          patterns.getContext(), ContractionOptions{kBlock, isa});
  patterns.add<IntConv2DToVnni, RequantizedConv2DToVnni>(patterns.getContext(),
                                                         isa);
}
