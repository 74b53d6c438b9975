//===- SymmetricWeights.cpp - remove weight zero points -------------------===//
//
// With Z_W != 0 the accumulator of an integer matmul / conv2d splits as
//
//   sum_k (x - Z_X) * (w - Z_W[n]) + bias[n]
//     = sum_k (x - Z_X) * w + bias[n] - Z_W[n] * sum_k (x - Z_X)
//
// The last sum depends only on the input (a row sum for matmul, a window sum
// over the padded input for conv2d), so one reduction per output pixel serves
// every output channel. It is computed by the same integer op with an all-ones
// filter, which reuses its padding, strides, dilations and input zero point
// exactly, and subtracted with a linalg.generic. Symmetric weights (all
// Z_W = 0) need nothing.
//
// All arithmetic is i32 and may wrap in between (the Z_W-free accumulator can
// exceed the verifier's bound for unsigned weights); it is exact anyway
// because the integer ops accumulate modulo 2^32 and the final value, the
// original accumulator, is in i32 range.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSYMMETRICWEIGHTS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

static bool hasZeroWeightZeroPoints(ArrayRef<int32_t> zeroPoints) {
  return llvm::all_of(zeroPoints, [](int32_t z) { return z == 0; });
}

static Value createSplat(OpBuilder &builder, Location loc,
                         ArrayRef<int64_t> shape, Type elementType,
                         int64_t value) {
  auto type = RankedTensorType::get(shape, elementType);
  return arith::ConstantOp::create(
      builder, loc,
      DenseElementsAttr::get(type, builder.getIntegerAttr(elementType, value)));
}

/// Z_W as one i32 per output channel (a splat when per tensor).
static Value createZeroPointTensor(OpBuilder &builder, Location loc,
                                   ArrayRef<int32_t> zeroPoints,
                                   int64_t channels) {
  SmallVector<int32_t> values(channels, zeroPoints.front());
  if (static_cast<int64_t>(zeroPoints.size()) == channels)
    values.assign(zeroPoints.begin(), zeroPoints.end());
  auto type = RankedTensorType::get({channels}, builder.getI32Type());
  return arith::ConstantOp::create(builder, loc,
                                   DenseIntElementsAttr::get(type, values));
}

/// acc[i..., c] - zw[c] * sums[sumIndex(i..., c)]: `sumsMap` and `zwMap`
/// broadcast over the all-parallel iteration space of `acc`.
static Value subtractScaledSums(OpBuilder &builder, Location loc, Value acc,
                                Value sums, AffineMap sumsMap, Value zw,
                                AffineMap zwMap) {
  auto accType = cast<RankedTensorType>(acc.getType());
  unsigned rank = accType.getRank();
  SmallVector<AffineMap> maps = {sumsMap, zwMap,
                                 builder.getMultiDimIdentityMap(rank)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      builder, loc, TypeRange{accType}, ValueRange{sums, zw}, ValueRange{acc},
      maps, iterators, [](OpBuilder &b, Location l, ValueRange args) {
        Value product = arith::MulIOp::create(b, l, args[1], args[0]);
        Value result = arith::SubIOp::create(b, l, args[2], product);
        linalg::YieldOp::create(b, l, result);
      });
  return generic.getResult(0);
}

static void rewriteMatmul(RewriterBase &rewriter, IntMatmulOp op) {
  ArrayRef<int32_t> zeroPoints = op.getWeightZeroPoints();
  if (hasZeroWeightZeroPoints(zeroPoints))
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  RankedTensorType xType = op.getX().getType();
  int64_t m = xType.getDimSize(0), k = xType.getDimSize(1);
  int64_t n = op.getW().getType().getDimSize(1);
  Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();

  // r[m] = sum_k (x[m, k] - input_zero_point), as an M x 1 matmul by ones.
  auto rowSums = IntMatmulOp::create(
      rewriter, loc, RankedTensorType::get({m, 1}, i32), op.getX(),
      createSplat(rewriter, loc, {k, 1}, i8, 1),
      createSplat(rewriter, loc, {1}, i32, 0), op.getInputZeroPointAttr(),
      rewriter.getDenseI32ArrayAttr({0}), op.getXUnsignedAttr(),
      /*w_unsigned=*/UnitAttr());
  auto symmetric = IntMatmulOp::create(
      rewriter, loc, op.getType(), op.getX(), op.getW(), op.getBias(),
      op.getInputZeroPointAttr(), rewriter.getDenseI32ArrayAttr({0}),
      op.getXUnsignedAttr(), op.getWUnsignedAttr());

  // acc[m, n] -= Z_W[n] * r[m]; r is reshaped to M so that both operand
  // maps are projected permutations.
  MLIRContext *ctx = rewriter.getContext();
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx);
  Value r = tensor::CollapseShapeOp::create(
      rewriter, loc, rowSums.getResult(),
      SmallVector<ReassociationIndices>{{0, 1}});
  Value result = subtractScaledSums(
      rewriter, loc, symmetric.getResult(), r, AffineMap::get(2, 0, {d0}, ctx),
      createZeroPointTensor(rewriter, loc, zeroPoints, n),
      AffineMap::get(2, 0, {d1}, ctx));
  rewriter.replaceOp(op, result);
}

static void rewriteConv2D(RewriterBase &rewriter, IntConv2DOp op) {
  ArrayRef<int32_t> zeroPoints = op.getWeightZeroPoints();
  if (hasZeroWeightZeroPoints(zeroPoints))
    return;
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  RankedTensorType wType = op.getW().getType();
  RankedTensorType accType = op.getType();
  int64_t groups = op.getGroups();
  int64_t f = wType.getDimSize(3);
  Type i8 = rewriter.getI8Type(), i32 = rewriter.getI32Type();

  // s[n, oh, ow, g] = sum over the window and the channels of group g of
  // (xp - input_zero_point): the same conv with one all-ones filter per
  // group, so padding, strides and dilations cannot drift.
  SmallVector<int64_t> sumsShape(accType.getShape());
  sumsShape.back() = groups;
  auto windowSums = IntConv2DOp::create(
      rewriter, loc, RankedTensorType::get(sumsShape, i32), op.getX(),
      createSplat(rewriter, loc,
                  {wType.getDimSize(0), wType.getDimSize(1),
                   wType.getDimSize(2), groups},
                  i8, 1),
      createSplat(rewriter, loc, {groups}, i32, 0), op.getInputZeroPointAttr(),
      rewriter.getDenseI32ArrayAttr({0}), op.getPadValueAttr(),
      op.getStridesAttr(), op.getDilationsAttr(), op.getPaddingAttr(),
      op.getGroupsAttr(), op.getXUnsignedAttr(), /*w_unsigned=*/UnitAttr());
  auto symmetric = IntConv2DOp::create(
      rewriter, loc, accType, op.getX(), op.getW(), op.getBias(),
      op.getInputZeroPointAttr(), rewriter.getDenseI32ArrayAttr({0}),
      op.getPadValueAttr(), op.getStridesAttr(), op.getDilationsAttr(),
      op.getPaddingAttr(), op.getGroupsAttr(), op.getXUnsignedAttr(),
      op.getWUnsignedAttr());

  // acc[.., f] -= Z_W[f] * s[.., f / (F / groups)], with f / (F / groups)
  // written as a plain broadcast (no floordiv in indexing maps).
  MLIRContext *ctx = rewriter.getContext();
  Value zw = createZeroPointTensor(rewriter, loc, zeroPoints, f);
  SmallVector<AffineExpr> d;
  for (unsigned i = 0; i < 5; ++i)
    d.push_back(getAffineDimExpr(i, ctx));
  Value result;
  int64_t perGroup = f / groups;
  if (groups == 1) {
    // One sum per pixel, shared by every filter.
    Value sums = tensor::CollapseShapeOp::create(
        rewriter, loc, windowSums.getResult(),
        SmallVector<ReassociationIndices>{{0}, {1}, {2, 3}});
    result = subtractScaledSums(rewriter, loc, symmetric.getResult(), sums,
                                AffineMap::get(4, 0, {d[0], d[1], d[2]}, ctx),
                                zw, AffineMap::get(4, 0, {d[3]}, ctx));
  } else if (perGroup == 1) {
    // Depthwise-like: filter f is alone in group f.
    result = subtractScaledSums(rewriter, loc, symmetric.getResult(),
                                windowSums.getResult(),
                                rewriter.getMultiDimIdentityMap(4), zw,
                                AffineMap::get(4, 0, {d[3]}, ctx));
  } else {
    // Split F into (group, filter in group) so both maps are broadcasts.
    SmallVector<ReassociationIndices> accGroups = {{0}, {1}, {2}, {3, 4}};
    SmallVector<int64_t> splitShape(accType.getShape());
    splitShape.back() = groups;
    splitShape.push_back(perGroup);
    auto splitType = RankedTensorType::get(splitShape, i32);
    Value acc = tensor::ExpandShapeOp::create(rewriter, loc, splitType,
                                              symmetric.getResult(), accGroups);
    Value zwSplit = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get({groups, perGroup}, i32), zw,
        SmallVector<ReassociationIndices>{{0, 1}});
    Value split =
        subtractScaledSums(rewriter, loc, acc, windowSums.getResult(),
                           AffineMap::get(5, 0, {d[0], d[1], d[2], d[3]}, ctx),
                           zwSplit, AffineMap::get(5, 0, {d[3], d[4]}, ctx));
    result = tensor::CollapseShapeOp::create(rewriter, loc, accType, split,
                                             accGroups);
  }
  rewriter.replaceOp(op, result);
}

namespace {
struct QntSymmetricWeightsPass
    : qnt::impl::QntSymmetricWeightsBase<QntSymmetricWeightsPass> {
  using Base::Base;

  void runOnOperation() override {
    // Collect first: the rewrite creates integer ops with Z_W = 0 that must
    // not be visited again.
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<IntMatmulOp, IntConv2DOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    for (Operation *op : ops) {
      if (auto matmul = dyn_cast<IntMatmulOp>(op))
        rewriteMatmul(rewriter, matmul);
      else
        rewriteConv2D(rewriter, cast<IntConv2DOp>(op));
    }
  }
};
} // namespace
