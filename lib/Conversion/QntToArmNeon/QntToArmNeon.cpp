//===- QntToArmNeon.cpp - int8 contractions on AArch64 dot instructions ---===//
//
// Rewrites `qnt.int_matmul` (constant or run-time weights) and
// `qnt.int_conv2d` (constant weights, groups 1) into a data-tiled GEMM in
// linalg.mmt4d's shape (Planning.h): the activations are packed at run time
// in row tiles of M0 rows, [Kp/kStep][M0][kStep] each (a conv packs its
// im2col rows, K running over (kh, kw, c) with C padded to kStep, or dense
// when C is below kStep; the last
// tile holds only the rows left, RowTiles), the weights into
// [Np/N0][Kp/kStep][N0][kStep] (at compile time when constant), and an
// M0 x N0 register tile loops over K with one instruction kind:
//   +i8mm     `arm_neon.intr.smmla` / `ummla` / `usmmla`, 12 x 8: each
//             16-byte operand is 2 rows x 8 k, 24 instructions per K step
//             of 8;
//   +dotprod  `arm_neon.intr.sdot` by element, 8 x 8: each weight vector is
//             4 columns x 4 k, the activation vector's 32-bit lane r is
//             row r's 4 k, broadcast (LLVM folds the broadcast into
//             `sdot v.4s, v.16b, v.4b[r]`), 16 instructions per K step of 4;
//   NEON      `arm_neon.intr.smull` + `qnt_kernel.aarch64.saddlp`, 4 x 4:
//             each operand vector is one row's or one column's 16 k, the
//             8-byte halves multiply into i16 (`smull`, `smull2`) and their
//             pairs add into the output's own 4-lane accumulator (`sadalp`),
//             64 instructions per K step of 16; after the K loop the four
//             accumulators of a row and 4 columns reduce with `addp`.
// The result is an Mp x Np i32 tensor; its M x N corner is the op's result
// (a conv's reshaped to NHWF). A `qnt.int_requantize` that is the only user
// of the result is applied to each row of 4 accumulators before the store
// (VectorRequantize), and the tensor holds the codes instead.
//
// Signedness (planDot): with i8mm every pair has its instruction (s8 x u8
// weights: usmmla with the weights first, i.e. the transposed tile); sdot
// and smull take s8 x s8, u8 activations are flipped, x = (x ^ 0x80) + 128, and
// the 128 * sum_k w' term joins the bias, as does -zx * sum_k w' when the input
// zero point is not 0 (constant weights only). Weight zero points are
// folded into the constant weights (w' = w - zw[n]); run-time weights must
// have none left (qnt-symmetric-weights); an input zero point left on them
// becomes -zx * sum_k w[k, n], summed at run time.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToArmNeon/QntToArmNeon.h"

#include "../KernelEpilogue/VectorRequantize.h"
#include "QuantOpt/Conversion/QntToArmNeon/Planning.h"
#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/KernelLoops.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <array>
#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::qnt;
using namespace quantopt::armneon;

namespace {

/// Packing rewrites every weight; a large splat is left to the generic
/// lowering, which keeps it a splat.
constexpr int64_t kMaxPackedSplatElements = int64_t(1) << 20;

/// `v ^ 0x80` on every byte when `flip`.
Value maybeFlip(OpBuilder &b, Location loc, Value v, bool flip) {
  if (!flip)
    return v;
  auto type = cast<VectorType>(v.getType());
  Value bit = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getI8IntegerAttr(-128)));
  return arith::XOrIOp::create(b, loc, v, bit);
}

/// `v` in the leading corner of a zero tensor of `shape`: remainders read
/// in bounds (an out-of-bounds transfer would need masks, which the
/// pipeline lowers only after arith is gone).
Value padWithZeros(OpBuilder &b, Location loc, Value v,
                   ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(v.getType());
  if (type.getShape() == shape)
    return v;
  Value zero = arith::ConstantOp::create(
      b, loc, b.getIntegerAttr(type.getElementType(), 0));
  Value init =
      tensor::EmptyOp::create(b, loc, shape, type.getElementType());
  Value filled = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  SmallVector<OpFoldResult> offsets(shape.size(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(shape.size(), b.getIndexAttr(1));
  SmallVector<OpFoldResult> sizes;
  for (int64_t d : type.getShape())
    sizes.push_back(b.getIndexAttr(d));
  return tensor::InsertSliceOp::create(b, loc, v, filled, offsets, sizes,
                                       strides);
}

/// Writes one kStep-byte row chunk of the packed activations.
Value writeChunk(OpBuilder &b, Location loc, Value chunk, Value dest,
                 Value offset) {
  return vector::TransferWriteOp::create(b, loc, chunk, dest, offset,
                                         ArrayRef<bool>{true})
      .getResult();
}

/// Runs `body(builder, tile index, rows of the tile, value)` over the row
/// tiles of `tiles`, threading `init`: the full tiles in a loop marked
/// qnt.parallel_tiles, then the remainder tile, if any, once.
Value forRowTiles(
    OpBuilder &b, Location loc, const RowTiles &tiles, Value init,
    llvm::function_ref<Value(OpBuilder &, Value, int64_t, Value)> body) {
  IndexBuilder ib{b, loc};
  Value acc = init;
  if (tiles.full > 0) {
    auto loop = scf::ForOp::create(
        b, loc, ib.c(0), ib.c(tiles.full), ib.c(1), ValueRange{acc},
        [&](OpBuilder &lb, Location, Value mb, ValueRange args) {
          scf::YieldOp::create(lb, loc, body(lb, mb, tiles.rows, args[0]));
        });
    acc = markParallelTiles(loop)[0];
  }
  if (tiles.lastRows)
    acc = body(b, ib.c(tiles.full), tiles.lastRows, acc);
  return acc;
}

/// The M x K activations packed in row tiles (RowTiles): [Kp/kStep][rows]
/// [kStep] per tile. Rows past M repeat row M - 1 (their outputs are
/// dropped); K past kSize reads 0.
Value packMatmulActivations(OpBuilder &b, Location loc, Value x,
                            const DotPlan &plan, const RowTiles &tiles,
                            int64_t m, int64_t kSize) {
  int64_t ks = plan.kStep, kp = roundUp(kSize, ks), groups = kp / ks;
  Type i8 = b.getI8Type();
  Value init = tensor::EmptyOp::create(
      b, loc, SmallVector<int64_t>{tiles.paddedRows() * kp}, i8);
  Value zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  auto chunkType = VectorType::get({ks}, i8);
  x = padWithZeros(b, loc, x, {m, kp});
  return forRowTiles(
      b, loc, tiles, init,
      [&](OpBuilder &ob, Value mb, int64_t rows, Value outerAcc) -> Value {
        IndexBuilder o{ob, loc};
        Value row0 = o.mul(mb, tiles.rows);
        Value base = o.mul(row0, kp);
        auto inner = scf::ForOp::create(
            ob, loc, o.c(0), o.c(groups), o.c(1), ValueRange{outerAcc},
            [&](OpBuilder &nb, Location, Value g, ValueRange args) {
              IndexBuilder n{nb, loc};
              Value acc = args[0];
              Value tileBase = n.add(base, n.mul(g, rows * ks));
              for (int64_t r = 0; r < rows; ++r) {
                Value row = n.add(row0, r);
                if (m % tiles.rows)
                  row = arith::MinSIOp::create(nb, loc, row, n.c(m - 1));
                Value chunk = vector::TransferReadOp::create(
                    nb, loc, chunkType, x, ValueRange{row, n.mul(g, ks)},
                    zero, ArrayRef<bool>{true});
                chunk = maybeFlip(nb, loc, chunk, plan.flipX);
                acc = writeChunk(nb, loc, chunk, acc, n.add(tileBase, r * ks));
              }
              scf::YieldOp::create(nb, loc, acc);
            });
        return inner.getResult(0);
      });
}

struct ConvShape {
  int64_t n, h, w, c, kh, kw, oh, ow;
  int64_t sh, sw, dh, dw, padTop, padLeft;
};

/// Where output row `row` (n, oh, ow) of a conv starts its window.
struct WindowRow {
  Value img, ohBase, owBase;
};

WindowRow windowRow(IndexBuilder &q, const ConvShape &s, Value row) {
  Value pix = q.rem(row, s.oh * s.ow);
  return {q.div(row, s.oh * s.ow),
          q.add(q.mul(q.div(pix, s.ow), s.sh), -s.padTop),
          q.add(q.mul(q.rem(pix, s.ow), s.sw), -s.padLeft)};
}

/// Tap `tap` (kh * kw + kw) of that window: the input position clamped into
/// the input, and whether it lies inside (else the tap reads padding).
struct WindowTap {
  Value ih, iw, inside;
};

WindowTap windowTap(OpBuilder &tb, Location loc, const ConvShape &s,
                    const WindowRow &w, Value tap) {
  IndexBuilder t{tb, loc};
  Value ih = t.add(w.ohBase, t.mul(t.div(tap, s.kw), s.dh));
  Value iw = t.add(w.owBase, t.mul(t.rem(tap, s.kw), s.dw));
  Value inside;
  auto clamp = [&](Value v, int64_t size) {
    Value lo =
        arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::sge, v, t.c(0));
    Value hi =
        arith::CmpIOp::create(tb, loc, arith::CmpIPredicate::slt, v, t.c(size));
    Value in = arith::AndIOp::create(tb, loc, lo, hi);
    inside =
        inside ? arith::AndIOp::create(tb, loc, inside, in).getResult() : in;
    return arith::MinSIOp::create(
        tb, loc, arith::MaxSIOp::create(tb, loc, v, t.c(0)), t.c(size - 1));
  };
  Value ihc = clamp(ih, s.h);
  Value iwc = clamp(iw, s.w);
  return {ihc, iwc, inside};
}

/// The loops of a conv's activation packing: each row tile, each of its
/// rows (rows past M repeat row M - 1), each tap of the row's window; `body`
/// writes the tap into the packed tensor it is given and returns it.
/// `rowBase` is where the row's first kStep bytes go: tile mb holds M0 rows
/// of `kp` bytes, as [Kp/kStep][rows][kStep].
Value forConvTaps(
    OpBuilder &b, Location loc, const RowTiles &tiles, const ConvShape &s,
    int64_t kp, int64_t ks, Value init,
    llvm::function_ref<Value(OpBuilder &, int64_t rows, Value rowBase,
                             const WindowRow &, const WindowTap &, Value tap,
                             Value acc)>
        body) {
  int64_t m = s.n * s.oh * s.ow, taps = s.kh * s.kw;
  return forRowTiles(
      b, loc, tiles, init,
      [&](OpBuilder &ob, Value mb, int64_t rows, Value outerAcc) -> Value {
        IndexBuilder o{ob, loc};
        Value base = o.mul(mb, tiles.rows * kp);
        auto rowLoop = scf::ForOp::create(
            ob, loc, o.c(0), o.c(rows), o.c(1), ValueRange{outerAcc},
            [&](OpBuilder &rb, Location, Value r, ValueRange rowArgs) {
              IndexBuilder q{rb, loc};
              Value row = q.add(q.mul(mb, tiles.rows), r);
              if (m % tiles.rows)
                row = arith::MinSIOp::create(rb, loc, row, q.c(m - 1));
              WindowRow window = windowRow(q, s, row);
              Value rowBase = q.add(base, q.mul(r, ks));
              auto tapLoop = scf::ForOp::create(
                  rb, loc, q.c(0), q.c(taps), q.c(1), rowArgs,
                  [&](OpBuilder &tb, Location, Value tap, ValueRange args) {
                    WindowTap at = windowTap(tb, loc, s, window, tap);
                    scf::YieldOp::create(
                        tb, loc,
                        body(tb, rows, rowBase, window, at, tap, args[0]));
                  });
              scf::YieldOp::create(rb, loc, tapLoop.getResult(0));
            });
        return rowLoop.getResult(0);
      });
}

/// The im2col rows of an NHWC conv, packed as for a matmul with
/// K = (kh, kw, c) and C padded to kStep; positions in the padding hold
/// `padCode` (as fed). Loops over the tile's rows and taps (no unrolled
/// chain of branches: one-shot bufferization walks each scf.if's branches
/// for every use of its result, exponentially along such a chain) and reads
/// a window position outside the input at a clamped index, then selects the
/// padding chunk.
Value packConvActivations(OpBuilder &b, Location loc, Value x,
                          const DotPlan &plan, const RowTiles &tiles,
                          const ConvShape &s, int8_t padCode) {
  int64_t ks = plan.kStep, mp = tiles.paddedRows();
  int64_t cGroups = roundUp(s.c, ks) / ks, groups = s.kh * s.kw * cGroups;
  Type i8 = b.getI8Type();
  Value init = tensor::EmptyOp::create(
      b, loc, SmallVector<int64_t>{mp * groups * ks}, i8);
  Value zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  auto chunkType = VectorType::get({ks}, i8);
  Value padChunk = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          chunkType, b.getI8IntegerAttr(static_cast<int8_t>(
                         plan.flipX ? (padCode ^ 0x80) : padCode))));
  x = padWithZeros(b, loc, x, {s.n, s.h, s.w, cGroups * ks});
  return forConvTaps(
      b, loc, tiles, s, groups * ks, ks, init,
      [&](OpBuilder &tb, int64_t rows, Value rowBase, const WindowRow &window,
          const WindowTap &at, Value tap, Value acc) -> Value {
        IndexBuilder t{tb, loc};
        auto chunkLoop = scf::ForOp::create(
            tb, loc, t.c(0), t.c(cGroups), t.c(1), ValueRange{acc},
            [&](OpBuilder &lb, Location, Value cg, ValueRange a) {
              IndexBuilder l{lb, loc};
              Value chunk = vector::TransferReadOp::create(
                  lb, loc, chunkType, x,
                  ValueRange{window.img, at.ih, at.iw, l.mul(cg, ks)}, zero,
                  ArrayRef<bool>{true});
              chunk = maybeFlip(lb, loc, chunk, plan.flipX);
              chunk =
                  arith::SelectOp::create(lb, loc, at.inside, chunk, padChunk);
              Value g = l.add(l.mul(tap, cGroups), cg);
              Value offset = l.add(rowBase, l.mul(g, rows * ks));
              scf::YieldOp::create(lb, loc,
                                   writeChunk(lb, loc, chunk, a[0], offset));
            });
        return chunkLoop.getResult(0);
      });
}

/// The same rows with K = (kh, kw, c) dense, for a conv whose C is below the
/// K step (an RGB first layer: C = 3 would otherwise pad every tap to kStep,
/// 16 / 3 times the work on plain NEON); only K's end is padded, with 0.
/// A tap's C bytes may straddle two K groups, so they are written one by
/// one; this packing is O(M K), the GEMM O(M K N).
Value packConvActivationsDense(OpBuilder &b, Location loc, Value x,
                               const DotPlan &plan, const RowTiles &tiles,
                               const ConvShape &s, int8_t padCode) {
  int64_t ks = plan.kStep, mp = tiles.paddedRows();
  int64_t kp = roundUp(s.kh * s.kw * s.c, ks);
  Type i8 = b.getI8Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  Value init =
      linalg::FillOp::create(
          b, loc, zero,
          tensor::EmptyOp::create(b, loc, SmallVector<int64_t>{mp * kp}, i8)
              .getResult())
          .getResult(0);
  Value pad =
      arith::ConstantOp::create(b, loc,
                                b.getI8IntegerAttr(static_cast<int8_t>(
                                    plan.flipX ? (padCode ^ 0x80) : padCode)));
  Value flipBit = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(-128));
  return forConvTaps(
      b, loc, tiles, s, kp, ks, init,
      [&](OpBuilder &tb, int64_t rows, Value rowBase, const WindowRow &window,
          const WindowTap &at, Value tap, Value acc) -> Value {
        IndexBuilder t{tb, loc};
        auto channelLoop = scf::ForOp::create(
            tb, loc, t.c(0), t.c(s.c), t.c(1), ValueRange{acc},
            [&](OpBuilder &lb, Location, Value ch, ValueRange a) {
              IndexBuilder l{lb, loc};
              Value v = tensor::ExtractOp::create(
                  lb, loc, x, ValueRange{window.img, at.ih, at.iw, ch});
              if (plan.flipX)
                v = arith::XOrIOp::create(lb, loc, v, flipBit);
              v = arith::SelectOp::create(lb, loc, at.inside, v, pad);
              // Byte k of the row: group k / kStep, lane k % kStep of this
              // row's kStep bytes.
              Value k = l.add(l.mul(tap, s.c), ch);
              Value offset = l.add(
                  rowBase, l.add(l.mul(l.div(k, ks), rows * ks), l.rem(k, ks)));
              scf::YieldOp::create(
                  lb, loc,
                  tensor::InsertOp::create(lb, loc, v, a[0], ValueRange{offset})
                      .getResult());
            });
        return channelLoop.getResult(0);
      });
}

/// [Np/8][Kp/kStep][8][kStep] from K x N run-time weights: kStep x 8
/// blocks, transposed.
Value packRuntimeWeights(OpBuilder &b, Location loc, Value w,
                         const DotPlan &plan, int64_t kSize, int64_t n) {
  IndexBuilder ib{b, loc};
  int64_t ks = plan.kStep, nc = plan.tileCols, np = roundUp(n, nc),
          kp = roundUp(kSize, ks), groups = kp / ks;
  Type i8 = b.getI8Type();
  Value init = tensor::EmptyOp::create(b, loc, SmallVector<int64_t>{np * kp}, i8);
  Value zero = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  auto rowType = VectorType::get({nc}, i8);
  w = padWithZeros(b, loc, w, {kp, np});
  auto outer = scf::ForOp::create(
      b, loc, ib.c(0), ib.c(np / nc), ib.c(1), ValueRange{init},
      [&](OpBuilder &ob, Location, Value nb, ValueRange outerArgs) {
        IndexBuilder o{ob, loc};
        auto inner = scf::ForOp::create(
            ob, loc, o.c(0), o.c(groups), o.c(1), outerArgs,
            [&](OpBuilder &gb, Location, Value g, ValueRange args) {
              IndexBuilder t{gb, loc};
              // kStep rows of N0 bytes, concatenated, then one shuffle
              // that transposes them (LLVM makes tbl lookups of it).
              SmallVector<Value> parts;
              for (int64_t r = 0; r < ks; ++r)
                parts.push_back(vector::TransferReadOp::create(
                    gb, loc, rowType, w,
                    ValueRange{t.add(t.mul(g, ks), r), t.mul(nb, nc)}, zero,
                    ArrayRef<bool>{true}));
              while (parts.size() > 1) {
                SmallVector<Value> next;
                for (size_t i = 0; i < parts.size(); i += 2) {
                  int64_t len = cast<VectorType>(parts[i].getType()).getNumElements();
                  SmallVector<int64_t> mask;
                  for (int64_t e = 0; e < 2 * len; ++e)
                    mask.push_back(e);
                  next.push_back(vector::ShuffleOp::create(
                      gb, loc, parts[i], parts[i + 1], mask));
                }
                parts = std::move(next);
              }
              SmallVector<int64_t> transpose;
              for (int64_t c = 0; c < nc; ++c)
                for (int64_t k = 0; k < ks; ++k)
                  transpose.push_back(k * nc + c);
              Value flat = vector::ShuffleOp::create(gb, loc, parts[0],
                                                     parts[0], transpose);
              Value offset =
                  t.mul(t.add(t.mul(nb, groups), g), nc * ks);
              scf::YieldOp::create(gb, loc,
                                   writeChunk(gb, loc, flat, args[0], offset));
            });
        scf::YieldOp::create(ob, loc, inner.getResult(0));
      });
  return markParallelTiles(outer)[0];
}

/// The register tile loops: returns the Mp x Np i32 result, or with
/// `requant` the Mp x Np codes, requantized in registers before the stores.
Value emitGemm(OpBuilder &b, Location loc, const DotPlan &plan, Value a,
               Value w, Value bias, const RowTiles &tiles, int64_t np,
               int64_t groups, const VectorRequantize *requant) {
  int64_t ks = plan.kStep, nc = plan.tileCols, mp = tiles.paddedRows();
  int64_t wBytes = nc * ks;
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  auto bytes = VectorType::get({16}, i8);
  auto quad = VectorType::get({4}, i32);
  auto biasType = VectorType::get({nc}, i32);
  Value zero32 = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value zero8 = arith::ConstantOp::create(b, loc, b.getI8IntegerAttr(0));
  Value init = tensor::EmptyOp::create(b, loc, SmallVector<int64_t>{mp, np},
                                       requant ? requant->getStorage() : i32);
  bool transposed = plan.kind == DotKind::UsmmlaTransposed;
  // Accumulators: mmla, 2 x 2 blocks [row pair i][column pair j]; sdot,
  // 1 x 4 rows [row r][column quad j]; smull, 4 partial sums of the one
  // output [row r][column j].
  int64_t colsOf = plan.isMmla() ? nc / 2 : plan.isSmull() ? nc : nc / 4;
  auto products = VectorType::get({8}, b.getI16Type());

  auto shuffle = [&](OpBuilder &sb, Value x, Value y,
                     ArrayRef<int64_t> mask) -> Value {
    return vector::ShuffleOp::create(sb, loc, x, y, mask);
  };

  return forRowTiles(
      b, loc, tiles, init,
      [&](OpBuilder &ob, Value mb, int64_t rows, Value outerAcc) -> Value {
        IndexBuilder o{ob, loc};
        int64_t rowsOf = plan.isMmla() ? rows / 2 : rows;
        int64_t aBytes = rows * ks;
        // Tile mb's packed activations start after mb full tiles.
        Value aTile = o.mul(mb, tiles.rows * groups * ks);
        auto cols = scf::ForOp::create(
            ob, loc, o.c(0), o.c(np / nc), o.c(1), ValueRange{outerAcc},
            [&](OpBuilder &nb, Location, Value nt, ValueRange args) {
              IndexBuilder n{nb, loc};
              Value col0 = n.mul(nt, nc);
              Value biasVec = vector::TransferReadOp::create(
                  nb, loc, biasType, bias, ValueRange{col0}, zero32,
                  ArrayRef<bool>{true});
              // Accumulators start at the bias, in each instruction's
              // element order (smull's at 0: the bias joins their sum).
              SmallVector<Value> accs;
              Value zeroQuad = arith::ConstantOp::create(
                  nb, loc,
                  DenseElementsAttr::get(quad, nb.getI32IntegerAttr(0)));
              for (int64_t i = 0; i < rowsOf; ++i)
                for (int64_t j = 0; j < colsOf; ++j) {
                  if (plan.isSmull()) {
                    accs.push_back(zeroQuad);
                    continue;
                  }
                  SmallVector<int64_t> mask;
                  if (!plan.isMmla())
                    mask = {4 * j, 4 * j + 1, 4 * j + 2, 4 * j + 3};
                  else if (transposed)
                    mask = {2 * j, 2 * j, 2 * j + 1, 2 * j + 1};
                  else
                    mask = {2 * j, 2 * j + 1, 2 * j, 2 * j + 1};
                  accs.push_back(shuffle(nb, biasVec, biasVec, mask));
                }
              Value wTile = n.mul(nt, groups);
              // mmla: up to four K steps per iteration as K allows, so that
              // the loop's counter and pointer updates cost less per smmla.
              int64_t unroll = 1;
              for (int64_t u : {4, 2})
                if (plan.isMmla() && groups % u == 0) {
                  unroll = u;
                  break;
                }
              auto kLoop = scf::ForOp::create(
                  nb, loc, n.c(0), n.c(groups / unroll), n.c(1), accs,
                  [&](OpBuilder &kb, Location, Value gu, ValueRange in) {
                    IndexBuilder k{kb, loc};
                    SmallVector<Value> out(in.begin(), in.end());
                    for (int64_t step = 0; step < unroll; ++step) {
                    Value g = k.add(k.mul(gu, unroll), step);
                    Value aBase = k.add(aTile, k.mul(g, aBytes));
                    Value wBase = k.mul(k.add(wTile, g), wBytes);
                    auto load = [&](Value src, Value base, int64_t v) {
                      return vector::TransferReadOp::create(
                                 kb, loc, bytes, src,
                                 ValueRange{k.add(base, 16 * v)}, zero8,
                                 ArrayRef<bool>{true})
                          .getResult();
                    };
                    SmallVector<Value> av;
                    for (int64_t v = 0; v < aBytes / 16; ++v)
                      av.push_back(load(a, aBase, v));
                    // smull multiplies 8-byte halves; LLVM reads the high
                    // halves in place (smull2).
                    auto half = [&](Value v, int64_t h) -> Value {
                      return shuffle(kb, v, v,
                                     {8 * h, 8 * h + 1, 8 * h + 2, 8 * h + 3,
                                      8 * h + 4, 8 * h + 5, 8 * h + 6,
                                      8 * h + 7});
                    };
                    SmallVector<std::array<Value, 2>> avHalves;
                    if (plan.isSmull())
                      for (Value v : av)
                        avHalves.push_back({half(v, 0), half(v, 1)});
                    // One weight vector at a time, used by every row.
                    for (int64_t j = 0; j < colsOf; ++j) {
                      Value wv = load(w, wBase, j);
                      std::array<Value, 2> wHalves;
                      if (plan.isSmull())
                        wHalves = {half(wv, 0), half(wv, 1)};
                      for (int64_t i = 0; i < rowsOf; ++i) {
                        Value &acc = out[i * colsOf + j];
                        switch (plan.kind) {
                        case DotKind::Smmla:
                          acc = arm_neon::SmmlaOp::create(kb, loc, quad, acc,
                                                          av[i], wv);
                          break;
                        case DotKind::Ummla:
                          acc = arm_neon::UmmlaOp::create(kb, loc, quad, acc,
                                                          av[i], wv);
                          break;
                        case DotKind::Usmmla:
                          acc = arm_neon::UsmmlaOp::create(kb, loc, quad, acc,
                                                           av[i], wv);
                          break;
                        case DotKind::UsmmlaTransposed:
                          // The weights are the unsigned operand.
                          acc = arm_neon::UsmmlaOp::create(kb, loc, quad, acc,
                                                           wv, av[i]);
                          break;
                        case DotKind::Sdot: {
                          // Row i's 4 bytes, broadcast: sdot by element.
                          Value lanes = vector::BitCastOp::create(
                              kb, loc, quad, av[i / 4]);
                          int64_t l = i % 4;
                          Value row = vector::BitCastOp::create(
                              kb, loc, bytes,
                              shuffle(kb, lanes, lanes, {l, l, l, l}));
                          acc = arm_neon::SdotOp::create(kb, loc, quad, acc,
                                                         wv, row);
                          break;
                        }
                        case DotKind::Smull:
                          // acc += pairs of (a * w) in i16: each lane is one
                          // s8 x s8 product, at most 2^14, so i16 is exact.
                          for (int64_t h = 0; h < 2; ++h) {
                            Value p = arm_neon::SMullOp::create(
                                kb, loc, products, avHalves[i][h], wHalves[h]);
                            acc = arith::AddIOp::create(
                                kb, loc, acc,
                                qnt_kernel::Aarch64PairwiseAddLongOp::create(
                                    kb, loc, quad, p));
                          }
                          break;
                        }
                      }
                    }
                    }
                    scf::YieldOp::create(kb, loc, out);
                  });
              // Store the tile: rows of 4 columns.
              Value c = args[0];
              Value row0 = n.mul(mb, tiles.rows);
              auto store = [&](Value v, int64_t r, int64_t c4) {
                Value col = n.add(col0, 4 * c4);
                if (requant)
                  v = requant->apply(nb, loc, v, col);
                c = vector::TransferWriteOp::create(
                        nb, loc, v, c, ValueRange{n.add(row0, r), col},
                        ArrayRef<bool>{true})
                        .getResult();
              };
              ValueRange res = kLoop.getResults();
              if (plan.isMmla()) {
                // Two 2 x 2 blocks side by side give two rows of 4.
                SmallVector<int64_t> even =
                    transposed ? SmallVector<int64_t>{0, 2, 4, 6}
                               : SmallVector<int64_t>{0, 1, 4, 5};
                SmallVector<int64_t> odd =
                    transposed ? SmallVector<int64_t>{1, 3, 5, 7}
                               : SmallVector<int64_t>{2, 3, 6, 7};
                for (int64_t i = 0; i < rowsOf; ++i)
                  for (int64_t h = 0; h < nc / 4; ++h) {
                    Value p = res[i * colsOf + 2 * h];
                    Value q = res[i * colsOf + 2 * h + 1];
                    store(shuffle(nb, p, q, even), 2 * i, h);
                    store(shuffle(nb, p, q, odd), 2 * i + 1, h);
                  }
              } else if (plan.isSmull()) {
                // Sum each accumulator across: pairwise adds of even and odd
                // lanes (addp), twice, give 4 columns' sums in one vector.
                auto addPairs = [&](Value x, Value y) -> Value {
                  return arith::AddIOp::create(nb, loc,
                                               shuffle(nb, x, y, {0, 2, 4, 6}),
                                               shuffle(nb, x, y, {1, 3, 5, 7}));
                };
                for (int64_t r = 0; r < rows; ++r)
                  for (int64_t q = 0; q < nc / 4; ++q) {
                    ValueRange o = res.slice(r * colsOf + 4 * q, 4);
                    Value sums =
                        addPairs(addPairs(o[0], o[1]), addPairs(o[2], o[3]));
                    Value biasQuad =
                        shuffle(nb, biasVec, biasVec,
                                {4 * q, 4 * q + 1, 4 * q + 2, 4 * q + 3});
                    store(arith::AddIOp::create(nb, loc, sums, biasQuad), r, q);
                  }
              } else {
                for (int64_t r = 0; r < rows; ++r)
                  for (int64_t j = 0; j < colsOf; ++j)
                    store(res[r * colsOf + j], r, j);
              }
              scf::YieldOp::create(nb, loc, c);
            });
        return cols.getResult(0);
      });
}

/// -zx * sum_k w[k, n] for run-time weights, as an N-vector of i32 (wraps
/// like the accumulator).
Value runtimeZeroPointTerm(OpBuilder &b, Location loc, Value w,
                           bool wUnsigned, int64_t n, int32_t zx) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  auto type = RankedTensorType::get({n}, i32);
  Value zero = arith::ConstantOp::create(b, loc, b.getI32IntegerAttr(0));
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), i32);
  Value filled = linalg::FillOp::create(b, loc, zero, init).getResult(0);
  AffineMap id = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap col = AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx);
  auto sums = linalg::GenericOp::create(
      b, loc, TypeRange{type}, ValueRange{w}, ValueRange{filled},
      ArrayRef<AffineMap>{id, col},
      ArrayRef<utils::IteratorType>{utils::IteratorType::reduction,
                                    utils::IteratorType::parallel},
      [&](OpBuilder &gb, Location l, ValueRange args) {
        Value ext = wUnsigned
                        ? arith::ExtUIOp::create(gb, l, i32, args[0]).getResult()
                        : arith::ExtSIOp::create(gb, l, i32, args[0]).getResult();
        linalg::YieldOp::create(
            gb, l, ValueRange{arith::AddIOp::create(gb, l, ext, args[1])});
      });
  Value factor = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, b.getI32IntegerAttr(-zx)));
  return arith::MulIOp::create(b, loc, sums.getResult(0), factor);
}

/// The bias padded to Np columns, plus a constant per-column correction.
Value paddedBias(OpBuilder &b, Location loc, Value bias, int64_t n,
                 int64_t np, ArrayRef<int64_t> correction) {
  auto type = RankedTensorType::get({np}, b.getI32Type());
  if (std::optional<std::vector<int64_t>> values =
          getConstantInts(bias, 32, /*isUnsigned=*/false,
                          kMaxPackedSplatElements)) {
    SmallVector<int32_t> folded(np, 0);
    for (int64_t col = 0; col < n; ++col)
      folded[col] = static_cast<int32_t>(static_cast<uint32_t>(
          (*values)[col] + (correction.empty() ? 0 : correction[col])));
    return arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(type, ArrayRef(folded)));
  }
  // Without a correction the base is a zero splat: a run-time bias of a
  // huge splat (10^9 columns) must not become a 4 GB vector here.
  DenseIntElementsAttr baseAttr;
  if (correction.empty()) {
    baseAttr = cast<DenseIntElementsAttr>(
        DenseElementsAttr::get(type, b.getI32IntegerAttr(0)));
  } else {
    SmallVector<int32_t> extra(np, 0);
    for (int64_t col = 0; col < int64_t(correction.size()); ++col)
      extra[col] = static_cast<int32_t>(correction[col]);
    baseAttr = DenseIntElementsAttr::get(type, ArrayRef(extra));
  }
  Value base = arith::ConstantOp::create(b, loc, baseAttr);
  // base[0:n] += bias, on tensors (the pipeline makes it a linalg op).
  Value head = tensor::ExtractSliceOp::create(
      b, loc, base, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
  Value sum = arith::AddIOp::create(b, loc, head, bias);
  return tensor::InsertSliceOp::create(
      b, loc, sum, base, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(n)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// The M x N corner of the padded result.
Value corner(OpBuilder &b, Location loc, Value c, int64_t m, int64_t n) {
  auto type = cast<RankedTensorType>(c.getType());
  if (type.getDimSize(0) == m && type.getDimSize(1) == n)
    return c;
  return tensor::ExtractSliceOp::create(
      b, loc, c, ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(m), b.getIndexAttr(n)},
      ArrayRef<OpFoldResult>{b.getIndexAttr(1), b.getIndexAttr(1)});
}

/// Column sums and range of w' = w - zw[col] over a row-major K x N view.
struct Weights {
  std::vector<int64_t> values; ///< w', K x N
  int64_t min = INT64_MAX, max = INT64_MIN;
  SmallVector<int64_t> sums;
};

Weights adjustWeights(const std::vector<int64_t> &codes, ArrayRef<int32_t> zw,
                      int64_t kSize, int64_t n) {
  Weights w;
  w.values.resize(codes.size());
  w.sums.assign(n, 0);
  for (int64_t k = 0; k < kSize; ++k)
    for (int64_t col = 0; col < n; ++col) {
      int64_t v = codes[k * n + col] - zw[zw.size() == 1 ? 0 : col];
      w.values[k * n + col] = v;
      w.min = std::min(w.min, v);
      w.max = std::max(w.max, v);
      w.sums[col] += v;
    }
  return w;
}

struct MatmulPattern : OpRewritePattern<IntMatmulOp> {
  MatmulPattern(MLIRContext *ctx, ArmIsa isa)
      : OpRewritePattern(ctx), isa(isa) {}

  LogicalResult matchAndRewrite(IntMatmulOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType xType = op.getX().getType(), wType = op.getW().getType();
    if (!xType.hasStaticShape() || !wType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shape");
    int64_t m = xType.getDimSize(0), kSize = xType.getDimSize(1),
            n = wType.getDimSize(1);
    if (m == 0 || kSize == 0 || n == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    int32_t zx = op.getInputZeroPoint();
    ArrayRef<int32_t> zw = op.getWeightZeroPoints();
    std::optional<std::vector<int64_t>> codes =
        getConstantInts(op.getW(), 8, op.getWUnsigned(),
                        kMaxPackedSplatElements);
    std::optional<DotPlan> plan;
    std::optional<Weights> weights;
    if (codes) {
      weights = adjustWeights(*codes, zw, kSize, n);
      plan = planDot(isa, op.getXUnsigned(), weights->min, weights->max, true);
    } else if (llvm::all_of(zw, [](int32_t z) { return z == 0; }) &&
               !isa_and_nonnull<arith::ConstantOp>(op.getW().getDefiningOp())) {
      plan = op.getWUnsigned()
                 ? planDot(isa, op.getXUnsigned(), 0, 255, false)
                 : planDot(isa, op.getXUnsigned(), -128, 127, false);
    }
    if (!plan)
      return rewriter.notifyMatchFailure(op, "no dot plan");

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    RowTiles tiles = planRowTiles(*plan, m);
    int64_t ks = plan->kStep, np = roundUp(n, plan->tileCols),
            groups = roundUp(kSize, ks) / ks;
    Value wPacked;
    SmallVector<int64_t> correction;
    if (weights) {
      std::vector<int8_t> packed =
          packWeights(kSize, n, ks, plan->tileCols, [&](int64_t k, int64_t col) {
            return weights->values[k * n + col];
          });
      auto type =
          RankedTensorType::get({int64_t(packed.size())}, b.getI8Type());
      wPacked = arith::ConstantOp::create(
          b, loc, DenseIntElementsAttr::get(type, ArrayRef(packed)));
      correction = columnCorrection(weights->sums, plan->offset, zx);
    } else {
      wPacked = packRuntimeWeights(b, loc, op.getW(), *plan, kSize, n);
    }
    Value biasN = op.getBias();
    if (!weights && zx != 0)
      biasN = arith::AddIOp::create(
          b, loc, biasN,
          runtimeZeroPointTerm(b, loc, op.getW(), op.getWUnsigned(), n, zx));
    Value bias = paddedBias(b, loc, biasN, n, np, correction);
    Value a = packMatmulActivations(b, loc, op.getX(), *plan, tiles, m, kSize);
    std::optional<VectorRequantize> fused =
        VectorRequantize::fuseSingleUser(b, loc, op.getResult(), n, np);
    Value c = emitGemm(b, loc, *plan, a, wPacked, bias, tiles, np, groups,
                       fused ? &*fused : nullptr);
    VectorRequantize::replaceResult(rewriter, op, fused,
                                    corner(b, loc, c, m, n));
    return success();
  }

  ArmIsa isa;
};

struct ConvPattern : OpRewritePattern<IntConv2DOp> {
  ConvPattern(MLIRContext *ctx, ArmIsa isa) : OpRewritePattern(ctx), isa(isa) {}

  LogicalResult matchAndRewrite(IntConv2DOp op,
                                PatternRewriter &rewriter) const override {
    auto xType = cast<RankedTensorType>(op.getX().getType());
    auto wType = cast<RankedTensorType>(op.getW().getType());
    auto yType = cast<RankedTensorType>(op.getResult().getType());
    if (!xType.hasStaticShape() || !wType.hasStaticShape() ||
        !yType.hasStaticShape() || op.getGroups() != 1)
      return rewriter.notifyMatchFailure(op, "dynamic shape or groups");
    ConvShape s;
    s.n = xType.getDimSize(0);
    s.h = xType.getDimSize(1);
    s.w = xType.getDimSize(2);
    s.c = xType.getDimSize(3);
    s.kh = wType.getDimSize(0);
    s.kw = wType.getDimSize(1);
    s.oh = yType.getDimSize(1);
    s.ow = yType.getDimSize(2);
    int64_t f = wType.getDimSize(3);
    ArrayRef<int64_t> strides = op.getStrides(), dil = op.getDilations(),
                      pad = op.getPadding();
    s.sh = strides[0];
    s.sw = strides[1];
    s.dh = dil[0];
    s.dw = dil[1];
    s.padTop = pad[0];
    s.padLeft = pad[2];
    int64_t m = s.n * s.oh * s.ow;
    // An empty input (H or W of 0) still has outputs made of padding only:
    // the generic lowering computes them.
    if (m == 0 || f == 0 || s.c == 0 || s.kh * s.kw == 0 || s.h == 0 ||
        s.w == 0)
      return rewriter.notifyMatchFailure(op, "empty");
    int64_t kSize = s.kh * s.kw * s.c;
    std::optional<std::vector<int64_t>> codes =
        getConstantInts(op.getW(), 8, op.getWUnsigned(),
                        kMaxPackedSplatElements);
    if (!codes)
      return rewriter.notifyMatchFailure(op, "run-time filter");
    Weights weights =
        adjustWeights(*codes, op.getWeightZeroPoints(), kSize, f);
    std::optional<DotPlan> plan =
        planDot(isa, op.getXUnsigned(), weights.min, weights.max, true);
    if (!plan)
      return rewriter.notifyMatchFailure(op, "no dot plan");

    Location loc = op.getLoc();
    OpBuilder &b = rewriter;
    int64_t ks = plan->kStep;
    // C below the K step: K dense over (kh, kw, c), padded at its end only;
    // else each tap's C padded to the K step (whole-chunk reads).
    bool denseK = s.c < ks;
    int64_t cp = denseK ? s.c : roundUp(s.c, ks);
    int64_t kPadded = roundUp(s.kh * s.kw * cp, ks),
            np = roundUp(f, plan->tileCols);
    RowTiles tiles = planRowTiles(*plan, m);
    // K index (tap, c) with C padded: padded channels get zero weights.
    std::vector<int8_t> packed =
        packWeights(kPadded, f, ks, plan->tileCols,
                    [&](int64_t k, int64_t col) -> int64_t {
          int64_t tap = k / cp, ch = k % cp;
          return tap < s.kh * s.kw && ch < s.c
                     ? weights.values[(tap * s.c + ch) * f + col]
                     : 0;
        });
    auto packedType =
        RankedTensorType::get({int64_t(packed.size())}, b.getI8Type());
    Value wPacked = arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(packedType, ArrayRef(packed)));
    SmallVector<int64_t> correction =
        columnCorrection(weights.sums, plan->offset, op.getInputZeroPoint());
    Value bias = paddedBias(b, loc, op.getBias(), f, np, correction);
    Value a = (denseK ? packConvActivationsDense : packConvActivations)(
        b, loc, op.getX(), *plan, tiles, s,
        static_cast<int8_t>(op.getPadValue()));
    std::optional<VectorRequantize> fused =
        VectorRequantize::fuseSingleUser(b, loc, op.getResult(), f, np);
    Value c = emitGemm(b, loc, *plan, a, wPacked, bias, tiles, np,
                       kPadded / ks, fused ? &*fused : nullptr);
    Value flat = corner(b, loc, c, m, f);
    Value result = tensor::ExpandShapeOp::create(
        b, loc, fused ? fused->getOp().getOutput().getType() : yType, flat,
        ArrayRef<ReassociationIndices>{{0, 1, 2}, {3}});
    VectorRequantize::replaceResult(rewriter, op, fused, result);
    return success();
  }

  ArmIsa isa;
};

} // namespace

void mlir::qnt::populateQntToArmNeonPatterns(RewritePatternSet &patterns,
                                             ArmIsa isa) {
  patterns.add<MatmulPattern, ConvPattern>(patterns.getContext(), isa);
}
