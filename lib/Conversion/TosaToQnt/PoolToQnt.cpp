//===- PoolToQnt.cpp - TOSA integer pools into qnt ------------------------===//
//
// max_pool2d: the maximum of the real codes, padding never wins: exactly
// qnt.int_max_pool2d.
//
// avg_pool2d: TOSA divides the window sum s (of q - zp over the c positions
// inside the input) by c with reciprocal_scale: m = floor((2^30 + 1) 2^k / c),
// k = ceil(log2 c), and (s * m + 2^(29+k)) >> (30+k). qnt.int_avg_pool2d
// rounds s / c half away from zero by exact division. They agree whenever
// c * R < 2^29, R = max|q - zp| (docs/TosaToQnt.md): s * m / 2^(30+k) is
// s / c plus an error of the sign of s and below R / 2^30, which moves the
// result only where s / c + 1/2 lies within that error below an integer,
// i.e. never for non-ties (their distance is at least 1 / (2c)), and pushes
// ties away from zero, as qnt does. Larger windows stay TOSA.
//
//===----------------------------------------------------------------------===//

#include "TosaToQntUtils.h"

#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

#include <cstdlib>

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::tosa_to_qnt;

/// Whether TOSA's output shape is the floor rule of the qnt pools and the
/// padding stays below the kernel (both TOSA requirements).
static bool hasPoolGeometry(RankedTensorType in, RankedTensorType out,
                            ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                            ArrayRef<int64_t> pad) {
  if (out.getDimSize(0) != in.getDimSize(0) ||
      out.getDimSize(3) != in.getDimSize(3))
    return false;
  for (int d = 0; d < 2; ++d) {
    if (kernel[d] < 1 || stride[d] < 1 || pad[2 * d] < 0 ||
        pad[2 * d + 1] < 0 || pad[2 * d] >= kernel[d] ||
        pad[2 * d + 1] >= kernel[d])
      return false;
    int64_t span;
    if (llvm::AddOverflow(in.getDimSize(1 + d), pad[2 * d], span) ||
        llvm::AddOverflow(span, pad[2 * d + 1], span) ||
        llvm::SubOverflow(span, kernel[d], span) || span < 0 ||
        out.getDimSize(1 + d) != span / stride[d] + 1)
      return false;
  }
  return true;
}

namespace {

struct MaxPool2dConverter : OpRewritePattern<tosa::MaxPool2dOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::MaxPool2dOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStaticSignlessIntTensor(op.getInput().getType(), {8, 16}) ||
        !isStaticSignlessIntTensor(op.getType(), {8, 16}))
      return rewriter.notifyMatchFailure(op, "not an integer pool");
    auto in = cast<RankedTensorType>(op.getInput().getType());
    auto out = cast<RankedTensorType>(op.getType());
    if (in.getElementType() != out.getElementType() ||
        !hasPoolGeometry(in, out, op.getKernel(), op.getStride(),
                         op.getPad()))
      return rewriter.notifyMatchFailure(op, "unsupported geometry");
    rewriter.replaceOpWithNewOp<IntMaxPool2DOp>(
        op, out, op.getInput(), op.getKernel(), op.getStride(),
        ArrayRef<int64_t>{1, 1}, op.getPad(), /*input_unsigned=*/false);
    return success();
  }
};

struct AvgPool2dConverter : OpRewritePattern<tosa::AvgPool2dOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::AvgPool2dOp op,
                                PatternRewriter &rewriter) const override {
    if (!isStaticSignlessIntTensor(op.getInput().getType(), {8, 16}) ||
        !isStaticSignlessIntTensor(op.getType(), {8, 16}) ||
        !op.getAccType().isInteger(32))
      return rewriter.notifyMatchFailure(op, "not an integer pool");
    auto in = cast<RankedTensorType>(op.getInput().getType());
    auto out = cast<RankedTensorType>(op.getType());
    ArrayRef<int64_t> kernel = op.getKernel();
    if (in.getElementType() != out.getElementType() ||
        !hasPoolGeometry(in, out, kernel, op.getStride(), op.getPad()))
      return rewriter.notifyMatchFailure(op, "unsupported geometry");
    FailureOr<int64_t> inputZp = op.getInputZeroPoint();
    FailureOr<int64_t> outputZp = op.getOutputZeroPoint();
    auto [lo, hi] = getCodeRange(in.getElementTypeBitWidth(), false);
    if (failed(inputZp) || failed(outputZp) || *inputZp < lo ||
        *inputZp > hi || *outputZp < lo || *outputZp > hi)
      return rewriter.notifyMatchFailure(op, "zero points not constant");
    // Where reciprocal_scale provably equals exact division.
    int64_t range = std::max(std::abs(hi - *inputZp), std::abs(lo - *inputZp));
    // Checked: a hostile 2^31 x 2^31 window wrapped below the bound.
    int64_t bound;
    if (llvm::MulOverflow(kernel[0], kernel[1], bound) ||
        llvm::MulOverflow(bound, range, bound) || bound >= (int64_t(1) << 29))
      return rewriter.notifyMatchFailure(op, "window too large for exactness");

    Location loc = op.getLoc();
    // The average of in-range codes stays in range: no clamp happens here.
    Value average = IntAvgPool2DOp::create(
        rewriter, loc, out, op.getInput(), kernel, op.getStride(), op.getPad(),
        ArrayRef<int32_t>{static_cast<int32_t>(*inputZp)},
        static_cast<uint32_t>(lo), static_cast<uint32_t>(hi),
        /*count_include_pad=*/false, /*input_unsigned=*/false);
    if (*outputZp != *inputZp)
      average = createIntRequantize(
          rewriter, loc, out, average,
          getIdentityParams(*inputZp, *outputZp, lo, hi));
    rewriter.replaceOp(op, average);
    return success();
  }
};

} // namespace

void mlir::qnt::populateTosaPoolToQntPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPool2dConverter, AvgPool2dConverter>(patterns.getContext());
}
