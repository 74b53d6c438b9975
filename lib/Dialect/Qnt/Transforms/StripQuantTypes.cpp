//===- StripQuantTypes.cpp -------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSTRIPQUANTTYPES
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct QntStripQuantTypesPass : mlir::qnt::impl::QntStripQuantTypesBase<QntStripQuantTypesPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->emitError("qnt-pass not implemented yet");
    signalPassFailure();
  }
};
} // namespace
