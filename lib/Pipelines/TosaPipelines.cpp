//===- TosaPipelines.cpp - quantized TOSA through quant-opt ---------------===//

#include "QuantOpt/Pipelines/Pipelines.h"
#include "QuantOpt/Pipelines/SafeCanonicalizer.h"

#include "TosaInput.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Target/TargetInfo.h"
#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

#include <mutex>
#include <optional>

using namespace mlir;

void quantopt::buildTosaToQntPipeline(OpPassManager &pm) {
  // What neither tosa-to-qnt nor upstream's lowering below checks (they
  // would crash on an unranked tensor, or fuse a shape-changing rescale).
  pm.addPass(createCheckTosaInputPass());
  pm.addNestedPass<func::FuncOp>(qnt::createTosaToQnt());
  // Upstream's own pipeline for the rest, without tosa-validate: a module
  // need not declare TOSA profiles and extensions (DOUBLE_ROUND needs one)
  // for us to compile it.
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions(),
                              TosaToLinalgNamedOptions(),
                              /*validationOptions=*/std::nullopt);
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
  TosaToArithPassOptions arithOptions;
  arithOptions.includeApplyRescale = true;
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass(arithOptions));
  pm.addNestedPass<func::FuncOp>(quantopt::createSafeCanonicalizerPass());
}

void quantopt::buildTosaToLLVMPipeline(OpPassManager &pm,
                                       const QuantOptPipelineOptions &options) {
  buildTosaToQntPipeline(pm);
  buildQntToLLVMPipeline(pm, options);
}

void quantopt::registerTosaPipelines() {
  static std::once_flag registered;
  std::call_once(registered, [] {
    PassPipelineRegistration<>(
        "tosa-to-qnt-pipeline",
        "Convert quantized TOSA to qnt and lower the rest of TOSA with "
        "upstream's passes",
        [](OpPassManager &pm) { buildTosaToQntPipeline(pm); });
    registerPassPipeline(
        "tosa-to-llvm",
        "Compile quantized TOSA to the LLVM dialect through qnt "
        "(tosa-to-qnt-pipeline, then qnt-to-llvm)",
        [](OpPassManager &pm, StringRef optionsStr,
           function_ref<LogicalResult(const Twine &)> errorHandler) {
          QuantOptPipelineOptions options;
          if (failed(options.parseFromString(optionsStr)))
            return failure();
          if (!quantopt::TargetInfo::resolve(options.target))
            return errorHandler("tosa-to-llvm: unknown target '" +
                                options.target + "'; expected " +
                                quantopt::TargetInfo::knownNames());
          buildTosaToLLVMPipeline(pm, options);
          return success();
        },
        [](function_ref<void(const detail::PassOptions &)> optHandler) {
          optHandler(QuantOptPipelineOptions());
        });
  });
}
