//===- DataMovementToQnt.cpp - TOSA shape ops and constants ---------------===//
//
// reshape, transpose, concat and const on integer tensors move codes without
// changing them; they become upstream tensor / linalg / arith ops, which
// --qnt-to-llvm compiles, and constant transposes happen at compile time so
// that weights reach the contractions as constants.
//
//===----------------------------------------------------------------------===//

#include "TosaToQntUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::qnt;
using namespace mlir::qnt::tosa_to_qnt;

static bool isIntegerTensor(Type type) {
  return isStaticSignlessIntTensor(type, {8, 16, 32});
}

namespace {

/// Once nothing of TOSA reads it: TOSA ops whose zero points or shifts it
/// holds may be left for upstream's lowering, which expects tosa.const.
struct ConstConverter : OpRewritePattern<tosa::ConstOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::ConstOp op,
                                PatternRewriter &rewriter) const override {
    if (!isIntegerTensor(op.getType()))
      return rewriter.notifyMatchFailure(op, "not an integer tensor");
    for (Operation *user : op->getUsers())
      if (isa_and_present<tosa::TosaDialect>(user->getDialect()))
        return rewriter.notifyMatchFailure(op, "a TOSA op reads it");
    auto values = dyn_cast<TypedAttr>(op.getValues());
    if (!values || values.getType() != op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, values);
    return success();
  }
};

/// Any static reshape is a collapse to one dimension and an expansion.
struct ReshapeConverter : OpRewritePattern<tosa::ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto in = dyn_cast<RankedTensorType>(op.getInput1().getType());
    auto out = dyn_cast<RankedTensorType>(op.getType());
    if (!isIntegerTensor(in) || !isIntegerTensor(out) || in.getRank() == 0 ||
        out.getRank() == 0 || in.getNumElements() != out.getNumElements())
      return rewriter.notifyMatchFailure(op, "not a static integer reshape");
    Location loc = op.getLoc();
    auto all = [](int64_t rank) {
      ReassociationIndices indices;
      for (int64_t i = 0; i < rank; ++i)
        indices.push_back(i);
      return SmallVector<ReassociationIndices>{indices};
    };
    Value value = op.getInput1();
    if (in.getRank() != 1)
      value = tensor::CollapseShapeOp::create(
          rewriter, loc,
          RankedTensorType::get({in.getNumElements()}, in.getElementType()),
          value, all(in.getRank()));
    if (out.getRank() != 1)
      value = tensor::ExpandShapeOp::create(rewriter, loc, out, value,
                                            all(out.getRank()));
    rewriter.replaceOp(op, value);
    return success();
  }
};

struct TransposeConverter : OpRewritePattern<tosa::TransposeOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto out = dyn_cast<RankedTensorType>(op.getType());
    if (!isIntegerTensor(op.getInput1().getType()) || !isIntegerTensor(out))
      return rewriter.notifyMatchFailure(op, "not a static integer tensor");
    SmallVector<int64_t> perm(op.getPerms().begin(), op.getPerms().end());
    if (std::optional<DenseIntElementsAttr> constant =
            getConstantAttr(op.getInput1())) {
      rewriter.replaceOpWithNewOp<arith::ConstantOp>(
          op, transposeConstant(*constant, perm));
      return success();
    }
    Value init = tensor::EmptyOp::create(rewriter, op.getLoc(),
                                         out.getShape(), out.getElementType());
    rewriter.replaceOpWithNewOp<linalg::TransposeOp>(op, op.getInput1(), init,
                                                     perm);
    return success();
  }
};

struct ConcatConverter : OpRewritePattern<tosa::ConcatOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(tosa::ConcatOp op,
                                PatternRewriter &rewriter) const override {
    if (!isIntegerTensor(op.getType()) ||
        !llvm::all_of(op.getInput1().getTypes(), isIntegerTensor))
      return rewriter.notifyMatchFailure(op, "not static integer tensors");
    rewriter.replaceOpWithNewOp<tensor::ConcatOp>(op, op.getType(),
                                                  op.getAxis(),
                                                  op.getInput1());
    return success();
  }
};

} // namespace

void mlir::qnt::populateTosaDataMovementToQntPatterns(
    RewritePatternSet &patterns) {
  patterns.add<ConstConverter, ReshapeConverter, TransposeConverter,
               ConcatConverter>(patterns.getContext());
}
