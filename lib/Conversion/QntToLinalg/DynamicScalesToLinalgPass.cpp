//===- DynamicScalesToLinalgPass.cpp - runtime-scale ops to linalg --------===//

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTDYNAMICSCALESTOLINALG
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct QntDynamicScalesToLinalgPass
    : qnt::impl::QntDynamicScalesToLinalgBase<QntDynamicScalesToLinalgPass> {
  using Base::Base;

  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateQntDynamicScaleOpsToLinalgPatterns(patterns);
    // Each op is rewritten once; nothing else is touched (no folding).
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};
} // namespace
