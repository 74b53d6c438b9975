//===- FoldZeroPoints.cpp - fold Z_X into the int32 bias ------------------===//
//
// Rewrites qnt.matmul / qnt.conv2d into qnt.int_matmul / qnt.int_conv2d on
// raw codes. With constant weights the input zero point leaves the inner loop
// (Jacob et al. 2018, eq. 7):
//
//   sum_k (x - Z_X) * (w - Z_W[n]) + b[n]
//     = sum_k x * (w - Z_W[n]) + (b[n] - Z_X * sum_k w + K * Z_X * Z_W[n])
//
// and the bracket is computed here, exactly, in int64. For conv2d, k runs over
// the KH x KW x C/groups window of one filter; padded positions keep holding
// Z_X (pad_value), so the identity also holds at the borders.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "TransformUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTFOLDZEROPOINTS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

/// Weights written in float reach this pass as `qnt.quantize` of an
/// `arith.constant` when -canonicalize has not run: fold that one op in place
/// (through its own folder, so the codes are the reference model's) rather
/// than canonicalizing the whole function. Returns the value to use instead.
static Value foldQuantizedConstant(RewriterBase &rewriter, Value value) {
  auto quantize = value.getDefiningOp<QuantizeOp>();
  if (!quantize || !matchPattern(quantize.getInput(), m_Constant()))
    return value;
  Operation *input = quantize.getInput().getDefiningOp();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(quantize);
  SmallVector<Value> results;
  if (failed(rewriter.tryFold(quantize, results)) || results.size() != 1)
    return value;
  rewriter.replaceOp(quantize, results);
  if (input && isOpTriviallyDead(input))
    rewriter.eraseOp(input);
  return results.front();
}

static Value createI32Constant(OpBuilder &builder, Location loc,
                               ArrayRef<int32_t> values) {
  auto type = RankedTensorType::get({static_cast<int64_t>(values.size())},
                                    builder.getI32Type());
  return arith::ConstantOp::create(builder, loc,
                                   DenseIntElementsAttr::get(type, values));
}

namespace {
/// What matmul and conv2d share: operands, the reduction length K and the
/// output-channel count N (F for conv2d).
struct Contraction {
  Operation *op;
  Value x, w, bias;
  int64_t k, n;
};

/// The operands of the integer op: codes, bias and input zero point.
struct IntegerOperands {
  Value x, w, bias;
  /// A bias known only at run time, added after the integer op with i32
  /// saturation (docs/Semantics.md, "Accumulator range").
  Value runtimeBias;
  int32_t inputZeroPoint;
  SmallVector<int32_t> weightZeroPoints;
  bool xUnsigned, wUnsigned;
};
} // namespace

/// Checks that every entry fits i32; `what` names the quantity.
static FailureOr<SmallVector<int32_t>>
narrowToI32(Operation *op, ArrayRef<int64_t> values, StringRef what) {
  SmallVector<int32_t> result;
  for (auto [ch, value] : llvm::enumerate(values)) {
    if (value < std::numeric_limits<int32_t>::min() ||
        value > std::numeric_limits<int32_t>::max())
      return op->emitOpError()
             << what << " of output channel " << ch << " is " << value
             << ", outside i32; folding Z_X into the bias would wrap";
    result.push_back(static_cast<int32_t>(value));
  }
  return result;
}

/// Builds the operands of the integer op, folding the input zero point into
/// the bias when the weights are constant. Fails with a diagnostic, before
/// creating any op, if the folded bias would leave i32 or if constant weights
/// are required but absent.
static FailureOr<IntegerOperands>
buildIntegerOperands(RewriterBase &rewriter, Contraction c,
                     bool requireConstantWeights) {
  Location loc = c.op->getLoc();
  quant::QuantizedType xType = getUniformElementType(c.x.getType());
  quant::QuantizedType wType = getUniformElementType(c.w.getType());
  int32_t zx = getQuantParams(xType).zeroPoints.front();
  quantopt::ref::QuantParams wParams = getQuantParams(wType);

  IntegerOperands result;
  result.xUnsigned = !xType.isSigned();
  result.wUnsigned = !wType.isSigned();
  result.weightZeroPoints.assign(wParams.zeroPoints.begin(),
                                 wParams.zeroPoints.end());

  c.w = foldQuantizedConstant(rewriter, c.w);
  std::optional<DenseIntElementsAttr> wCodes = matchQuantizedConstant(c.w);
  if (!wCodes) {
    if (requireConstantWeights)
      return c.op->emitOpError(
          "'w' must be a compile-time constant for qnt-fold-zero-points "
          "(require-constant-weights)");
    // The integer op subtracts Z_X at run time.
    result.inputZeroPoint = zx;
    result.x = castToStorage(rewriter, loc, c.x);
    result.w = castToStorage(rewriter, loc, c.w);
    // A splat: N may be huge, and zeros need no storage.
    auto biasTensor = RankedTensorType::get({c.n}, rewriter.getI32Type());
    result.bias = arith::ConstantOp::create(
        rewriter, loc, DenseIntElementsAttr::get(biasTensor, int32_t(0)));
    if (!c.bias)
      return result;
    // A constant bias goes into the integer op, so that a kernel can fuse
    // the requantize that follows, when no accumulator can leave i32: then
    // the saturating add below would never clamp.
    std::optional<DenseIntElementsAttr> biasCodes =
        matchQuantizedConstant(c.bias);
    quant::QuantizedType biasType = getUniformElementType(c.bias.getType());
    // The verifier's bound, over every bit pattern of x and w.
    std::optional<uint64_t> bound = getAccumulatorBound(
        c.k, getMaxAbsOffsetOfStorageBits(xType),
        getMaxAbsOffsetOfStorageBits(wType), getMaxConstantBias(c.bias));
    if (biasCodes && bound &&
        *bound <= uint64_t(std::numeric_limits<int32_t>::max())) {
      if (biasCodes->isSplat())
        result.bias = arith::ConstantOp::create(
            rewriter, loc,
            DenseIntElementsAttr::get(
                biasTensor, int32_t(readCode(biasCodes->getSplatValue<APInt>(),
                                             biasType))));
      else
        result.bias = createI32Constant(rewriter, loc,
                                        readCodes(*biasCodes, biasType));
      return result;
    }
    result.runtimeBias = castToStorage(rewriter, loc, c.bias);
    return result;
  }

  std::optional<DenseIntElementsAttr> biasCodes;
  if (c.bias)
    biasCodes = matchQuantizedConstant(c.bias);
  bool runtimeBias = c.bias && !biasCodes;
  quant::QuantizedType biasType =
      c.bias ? getUniformElementType(c.bias.getType()) : nullptr;

  // Splat weights, one zero point and a splat (or no) bias give one
  // correction for every channel: build a splat instead of expanding 10^8
  // weights. The verifier's bound keeps the value inside i32.
  if (wCodes->isSplat() && wParams.zeroPoints.size() == 1 &&
      (!biasCodes || biasCodes->isSplat())) {
    int64_t code = readCode(wCodes->getSplatValue<APInt>(), wType);
    int64_t correction = c.k * int64_t(zx) * (wParams.zeroPoint(0) - code);
    // With no output channel an empty splat bias holds no value to read.
    if (biasCodes && c.n > 0)
      correction += readCode(biasCodes->getSplatValue<APInt>(), biasType);
    FailureOr<SmallVector<int32_t>> folded =
        narrowToI32(c.op, {correction},
                    runtimeBias ? "zero-point correction" : "folded bias");
    if (failed(folded))
      return failure();
    result.inputZeroPoint = 0;
    result.x = castToStorage(rewriter, loc, c.x);
    result.w = castToStorage(rewriter, loc, c.w);
    auto biasTensor = RankedTensorType::get({c.n}, rewriter.getI32Type());
    result.bias = arith::ConstantOp::create(
        rewriter, loc,
        DenseIntElementsAttr::get(biasTensor, folded->front()));
    if (runtimeBias)
      result.runtimeBias = castToStorage(rewriter, loc, c.bias);
    return result;
  }

  // Weights are K x N row-major in both layouts (HWCF flattens to
  // (KH * KW * C/groups) x F), so w[k, n] is codes[k * N + n].
  std::vector<int32_t> codes = readCodes(*wCodes, wType);
  SmallVector<int64_t> correction(c.n, 0);
  for (int64_t ch = 0; ch < c.n; ++ch) {
    int64_t sumW = 0;
    for (int64_t i = 0; i < c.k; ++i)
      sumW += codes[i * c.n + ch];
    correction[ch] = -int64_t(zx) * sumW +
                     c.k * int64_t(zx) * int64_t(wParams.zeroPoint(ch));
  }

  if (biasCodes) {
    std::vector<int32_t> bias = readCodes(*biasCodes, biasType);
    for (int64_t ch = 0; ch < c.n; ++ch)
      correction[ch] += bias[ch];
  }
  FailureOr<SmallVector<int32_t>> folded = narrowToI32(
      c.op, correction, runtimeBias ? "zero-point correction" : "folded bias");
  if (failed(folded))
    return failure();

  result.inputZeroPoint = 0;
  result.x = castToStorage(rewriter, loc, c.x);
  result.w = castToStorage(rewriter, loc, c.w);
  if (!runtimeBias) {
    result.bias = createI32Constant(rewriter, loc, *folded);
    return result;
  }
  // Only the correction is known: it goes into the op, and the runtime bias
  // is added to the exact sum afterwards, saturating.
  result.bias = createI32Constant(rewriter, loc, *folded);
  result.runtimeBias = castToStorage(rewriter, loc, c.bias);
  return result;
}

/// A constant bias that was folded into a new one is usually dead now, and so
/// may be the constant feeding its `quant.scast`.
static void eraseIfDead(RewriterBase &rewriter, Value value) {
  while (value) {
    Operation *def = value.getDefiningOp();
    if (!isa_and_present<ConstantOp, quant::StorageCastOp, arith::ConstantOp>(
            def) ||
        !isOpTriviallyDead(def))
      return;
    value = def->getNumOperands() == 1 ? def->getOperand(0) : Value();
    rewriter.eraseOp(def);
  }
}

/// acc[..., c] = sat_i32(acc[..., c] + bias[c]) over the last dimension: the
/// contract's "never wrapped" for a bias that is only known at run time. The
/// sum is formed in i64, where it cannot overflow, and clamped.
static Value addBiasSaturating(OpBuilder &builder, Location loc, Value acc,
                               Value bias) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t rank = accType.getRank();
  MLIRContext *ctx = builder.getContext();
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, ctx),
      AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx)),
      AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(builder, loc, accType.getShape(),
                                       accType.getElementType());
  auto generic = linalg::GenericOp::create(
      builder, loc, accType, ValueRange{acc, bias}, ValueRange{init}, maps,
      iterators, [](OpBuilder &b, Location loc, ValueRange args) {
        Type i64 = b.getI64Type();
        Value sum = arith::AddIOp::create(
            b, loc, arith::ExtSIOp::create(b, loc, i64, args[0]),
            arith::ExtSIOp::create(b, loc, i64, args[1]));
        Value lo = arith::ConstantIntOp::create(
            b, loc, i64, std::numeric_limits<int32_t>::min());
        Value hi = arith::ConstantIntOp::create(
            b, loc, i64, std::numeric_limits<int32_t>::max());
        Value clamped = arith::MinSIOp::create(
            b, loc, arith::MaxSIOp::create(b, loc, sum, lo), hi);
        linalg::YieldOp::create(
            b, loc,
            ValueRange{arith::TruncIOp::create(b, loc, b.getI32Type(),
                                               clamped)});
      });
  return generic.getResult(0);
}

/// Replaces the public op by `quant.scast(intResult [+sat runtime bias])`
/// and drops the constant bias it folded, if nothing else uses it.
static void replaceWithAccumulator(RewriterBase &rewriter, Operation *op,
                                   Value oldBias, Value intResult,
                                   Value runtimeBias) {
  Value acc = intResult;
  if (runtimeBias)
    acc = addBiasSaturating(rewriter, op->getLoc(), acc, runtimeBias);
  // Back to the accumulator type: qnt.requantize still reads its scale.
  rewriter.replaceOpWithNewOp<quant::StorageCastOp>(
      op, op->getResult(0).getType(), acc);
  eraseIfDead(rewriter, oldBias);
}

static UnitAttr unitIf(OpBuilder &builder, bool set) {
  return set ? builder.getUnitAttr() : UnitAttr();
}

static LogicalResult rewriteMatmul(RewriterBase &rewriter, MatmulOp op,
                                   bool requireConstantWeights) {
  rewriter.setInsertionPoint(op);
  RankedTensorType wType = op.getW().getType();
  int64_t k = wType.getDimSize(0), n = wType.getDimSize(1);
  Contraction c{op, op.getX(), op.getW(), op.getBias(), k, n};
  FailureOr<IntegerOperands> operands =
      buildIntegerOperands(rewriter, c, requireConstantWeights);
  if (failed(operands))
    return failure();
  Location loc = op.getLoc();
  auto intOp = IntMatmulOp::create(
      rewriter, loc, getStorageTensorType(op.getType()), operands->x,
      operands->w, operands->bias,
      rewriter.getI32IntegerAttr(operands->inputZeroPoint),
      rewriter.getDenseI32ArrayAttr(operands->weightZeroPoints),
      unitIf(rewriter, operands->xUnsigned),
      unitIf(rewriter, operands->wUnsigned));
  replaceWithAccumulator(rewriter, op, op.getBias(), intOp.getResult(),
                         operands->runtimeBias);
  return success();
}

static LogicalResult rewriteConv2D(RewriterBase &rewriter, Conv2DOp op,
                                   bool requireConstantWeights) {
  rewriter.setInsertionPoint(op);
  RankedTensorType wType = op.getW().getType();
  // One filter spans KH x KW x C/groups codes.
  int64_t k = wType.getDimSize(0) * wType.getDimSize(1) * wType.getDimSize(2);
  Contraction c{op, op.getX(), op.getW(), op.getBias(), k, wType.getDimSize(3)};
  FailureOr<IntegerOperands> operands =
      buildIntegerOperands(rewriter, c, requireConstantWeights);
  if (failed(operands))
    return failure();
  Location loc = op.getLoc();
  // Padding must stay real 0 (code Z_X) whatever input_zero_point became.
  int32_t zx = getQuantParams(getUniformElementType(op.getX().getType()))
                   .zeroPoints.front();
  auto intOp = IntConv2DOp::create(
      rewriter, loc, getStorageTensorType(op.getType()), operands->x,
      operands->w, operands->bias,
      rewriter.getI32IntegerAttr(operands->inputZeroPoint),
      rewriter.getDenseI32ArrayAttr(operands->weightZeroPoints),
      rewriter.getI32IntegerAttr(zx),
      rewriter.getDenseI64ArrayAttr(op.getStrides()),
      rewriter.getDenseI64ArrayAttr(op.getDilations()),
      rewriter.getDenseI64ArrayAttr(op.getPadding()),
      rewriter.getI64IntegerAttr(op.getGroups()),
      unitIf(rewriter, operands->xUnsigned),
      unitIf(rewriter, operands->wUnsigned));
  replaceWithAccumulator(rewriter, op, op.getBias(), intOp.getResult(),
                         operands->runtimeBias);
  return success();
}

namespace {
struct QntFoldZeroPointsPass
    : qnt::impl::QntFoldZeroPointsBase<QntFoldZeroPointsPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<MatmulOp, Conv2DOp>(op))
        ops.push_back(op);
    });
    IRRewriter rewriter(&getContext());
    bool failedAny = false;
    for (Operation *op : ops) {
      LogicalResult result = isa<MatmulOp>(op)
                                 ? rewriteMatmul(rewriter, cast<MatmulOp>(op),
                                                 requireConstantWeights)
                                 : rewriteConv2D(rewriter, cast<Conv2DOp>(op),
                                                 requireConstantWeights);
      failedAny |= failed(result);
    }
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
