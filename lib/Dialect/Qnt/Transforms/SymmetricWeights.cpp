//===- SymmetricWeights.cpp -------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSYMMETRICWEIGHTS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {
struct QntSymmetricWeightsPass : mlir::qnt::impl::QntSymmetricWeightsBase<QntSymmetricWeightsPass> {
  using Base::Base;
  void runOnOperation() override {
    getOperation()->emitError("qnt-pass not implemented yet");
    signalPassFailure();
  }
};
} // namespace
