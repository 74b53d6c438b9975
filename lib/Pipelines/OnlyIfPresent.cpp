//===- OnlyIfPresent.cpp - run a pass only where it has input -------------===//

#include "OnlyIfPresent.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

namespace {
struct OnlyIfPresentPass
    : PassWrapper<OnlyIfPresentPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(OnlyIfPresentPass)

  OnlyIfPresentPass(OpPassManager pipeline,
                    std::function<bool(Operation *)> isInput)
      : pipeline(std::move(pipeline)), isInput(std::move(isInput)) {}
  OnlyIfPresentPass(const OnlyIfPresentPass &other)
      : PassWrapper(other), pipeline(other.pipeline), isInput(other.isInput) {}

  StringRef getName() const final { return "OnlyIfPresent"; }
  StringRef getArgument() const final { return "qnt-only-if-present"; }
  StringRef getDescription() const final {
    return "Run a pipeline only when the module holds an op it rewrites";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    pipeline.getDependentDialects(registry);
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    WalkResult found = module.walk([&](Operation *op) {
      return isInput(op) ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (!found.wasInterrupted())
      return markAllAnalysesPreserved();
    if (failed(runPipeline(pipeline, module)))
      signalPassFailure();
  }

  OpPassManager pipeline;
  std::function<bool(Operation *)> isInput;
};
} // namespace

std::unique_ptr<Pass> quantopt::createOnlyIfPresentPass(
    llvm::function_ref<void(OpPassManager &)> build,
    std::function<bool(Operation *)> isInput) {
  OpPassManager pipeline(ModuleOp::getOperationName());
  build(pipeline);
  return std::make_unique<OnlyIfPresentPass>(std::move(pipeline),
                                             std::move(isInput));
}
