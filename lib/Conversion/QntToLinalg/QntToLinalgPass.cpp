//===- QntToLinalgPass.cpp - qnt integer ops to linalg --------------------===//

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

  void getDependentDialects(DialectRegistry &registry) const override {
    Base::getDependentDialects(registry);
    // The contractions carry their sums through scf.for loops, with LLVM
    // loop annotations (#llvm.loop_annotation) on the innermost ones.
    registry.insert<scf::SCFDialect, LLVM::LLVMDialect>();
  }

  void runOnOperation() override {
    // Public qnt ops are the qnt passes' job; say so rather than report a
    // bare legalization failure.
    WalkResult publicOps = getOperation().walk([](Operation *op) {
      if (!isa_and_present<QntDialect>(op->getDialect()) ||
          isa<IntMatmulOp, IntConv2DOp, IntRequantizeOp, IntQuantizeOp,
              IntDequantizeOp, IntAddOp, IntMaxPool2DOp, IntAvgPool2DOp,
              DequantizeDynamicOp, QuantizeDynamicOp, DynamicQuantizeOp>(op))
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
                           math::MathDialect, scf::SCFDialect,
                           tensor::TensorDialect>();
    target.addIllegalDialect<QntDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });

    RewritePatternSet patterns(&ctx);
    populateQntToLinalgConversionPatterns(patterns);
    if (failed(
            applyFullConversion(getOperation(), target, std::move(patterns))))
      return signalPassFailure();

    // Constant weights were transposed at compile time into new constants;
    // drop the originals left unused, which bufferization would otherwise
    // turn into globals.
    getOperation().walk([](arith::ConstantOp constant) {
      if (constant.use_empty() && isa<RankedTensorType>(constant.getType()))
        constant.erase();
    });
  }
};
} // namespace
