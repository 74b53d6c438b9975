//===- ConcatDecomposition.cpp - qnt.concat -> requantize + tensor.concat -===//
//
// An operand whose scale or zero point differs from the result's is
// requantized to the result type with the concat's rounding (and no clamp
// beyond the storage range); the others are used as they are, so their codes
// are copied bit for bit. The operands then share the result's quant type
// and upstream tensor.concat joins them; qnt-strip-quant-types turns it into
// a concat of storage integers.
//
//===----------------------------------------------------------------------===//

#include "NetworkOpsPatterns.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "TransformUtils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct ConcatDecomposition : OpRewritePattern<ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(ConcatOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType yType = op.getResult().getType();
    quantopt::ref::QuantParams y = getQuantParams(getUniformElementType(yType));
    SmallVector<Value> operands;
    for (Value input : op.getInputs()) {
      auto type = cast<RankedTensorType>(input.getType());
      // An operand without elements contributes nothing, and a slice of it
      // at the end of the result would start out of bounds.
      if (type.getNumElements() == 0)
        continue;
      quantopt::ref::QuantParams in =
          getQuantParams(getUniformElementType(type));
      auto target = type.clone(yType.getElementType());
      // Exact comparison of the scales the types hold.
      if (in.scales.front() != y.scales.front() ||
          in.zeroPoints.front() != y.zeroPoints.front()) {
        operands.push_back(RequantizeOp::create(rewriter, op.getLoc(), target,
                                                input, op.getRoundingAttr(),
                                                /*clamp=*/nullptr));
        continue;
      }
      // Equal parameters: the codes are copied. Only a narrower storage
      // range (which the verifier keeps inside the result's) can make the
      // types differ; reinterpret the bits.
      if (type != target) {
        Value codes = quant::StorageCastOp::create(
            rewriter, op.getLoc(), getStorageTensorType(type), input);
        input =
            quant::StorageCastOp::create(rewriter, op.getLoc(), target, codes);
      }
      operands.push_back(input);
    }
    if (operands.empty()) {
      rewriter.replaceOpWithNewOp<tensor::EmptyOp>(op, yType.getShape(),
                                                   yType.getElementType());
      return success();
    }
    if (operands.size() == 1) {
      rewriter.replaceOp(op, operands.front());
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, yType, op.getAxis(),
                                                  operands);
    return success();
  }
};
} // namespace

void mlir::qnt::populateQntConcatDecompositionPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConcatDecomposition>(patterns.getContext());
}
