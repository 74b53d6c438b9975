//===- QntToLinalgPass.cpp - qnt integer ops to linalg --------------------===//

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTTOLINALG
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct QntToLinalgPass : qnt::impl::QntToLinalgBase<QntToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    // Public qnt ops are the qnt passes' job; say so rather than report a
    // bare legalization failure.
    WalkResult publicOps = getOperation().walk([](Operation *op) {
      if (!isa<QntDialect>(op->getDialect()) ||
          isa<IntMatmulOp, IntConv2DOp, IntRequantizeOp, IntQuantizeOp,
              IntDequantizeOp>(op))
        return WalkResult::advance();
      op->emitOpError("must be rewritten to explicit integer ops (the qnt "
                      "passes up to qnt-strip-quant-types) before "
                      "qnt-to-linalg");
      return WalkResult::interrupt();
    });
    if (publicOps.wasInterrupted())
      return signalPassFailure();

    MLIRContext &ctx = getContext();
    ConversionTarget target(ctx);
    target.addLegalDialect<arith::ArithDialect, linalg::LinalgDialect,
                           math::MathDialect, tensor::TensorDialect>();
    target.addIllegalDialect<QntDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    RewritePatternSet patterns(&ctx);
    populateQntToLinalgConversionPatterns(patterns);
    if (failed(
            applyFullConversion(getOperation(), target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
