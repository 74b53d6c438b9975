//===- PoolToInteger.cpp - qnt pools -> explicit integer pools ------------===//
//
// The pools keep their window attributes; the zero points (per channel for
// a per-axis input) and the storage range become attributes, and the
// signedness of 8-bit codes a unit attribute.
//
//===----------------------------------------------------------------------===//

#include "NetworkOpsPatterns.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "TransformUtils.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct MaxPoolToInteger : OpRewritePattern<MaxPool2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(MaxPool2DOp op,
                                PatternRewriter &rewriter) const override {
    quant::QuantizedType type = getUniformElementType(op.getInput().getType());
    Location loc = op.getLoc();
    auto intOp = IntMaxPool2DOp::create(
        rewriter, loc, getStorageTensorType(op.getType()),
        castToStorage(rewriter, loc, op.getInput()), op.getKernelAttr(),
        op.getStridesAttr(), op.getDilationsAttr(), op.getPaddingAttr(),
        type.isSigned() ? UnitAttr() : rewriter.getUnitAttr());
    rewriter.replaceOpWithNewOp<quant::StorageCastOp>(op, op.getType(),
                                                      intOp.getResult());
    return success();
  }
};

struct AvgPoolToInteger : OpRewritePattern<AvgPool2DOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(AvgPool2DOp op,
                                PatternRewriter &rewriter) const override {
    quant::QuantizedType type = getUniformElementType(op.getInput().getType());
    quantopt::ref::QuantParams params = getQuantParams(type);
    Location loc = op.getLoc();
    auto intOp = IntAvgPool2DOp::create(
        rewriter, loc, getStorageTensorType(op.getType()),
        castToStorage(rewriter, loc, op.getInput()), op.getKernelAttr(),
        op.getStridesAttr(), op.getPaddingAttr(),
        rewriter.getDenseI32ArrayAttr(params.zeroPoints),
        rewriter.getI32IntegerAttr(params.storageMin),
        rewriter.getI32IntegerAttr(params.storageMax),
        op.getCountIncludePad() ? rewriter.getUnitAttr() : UnitAttr(),
        type.isSigned() ? UnitAttr() : rewriter.getUnitAttr(),
        op.getRoundingAttr());
    rewriter.replaceOpWithNewOp<quant::StorageCastOp>(op, op.getType(),
                                                      intOp.getResult());
    return success();
  }
};
} // namespace

void mlir::qnt::populateQntPoolToIntegerPatterns(RewritePatternSet &patterns) {
  patterns.add<MaxPoolToInteger, AvgPoolToInteger>(patterns.getContext());
}
