//===- quant-test-opt.cpp - quant-opt plus the test-only passes -----------===//
//
// TEST ONLY (not installed): quant-opt's passes and pipelines plus those of
// test/lib, and
//   test-qnt-to-llvm-amx-emulated   --qnt-to-llvm with test-amx-emulate
//                                   between the kernels and the rest
//   test-qnt-to-kernels             the first half only (to inspect which
//                                   kernels were chosen)
// which runs the AMX kernels on a machine without AMX.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/InitAll.h"
#include "QuantOpt/Pipelines/Pipelines.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

namespace quantopt::test {
void registerTestAmxEmulationPass();
std::unique_ptr<mlir::Pass> createTestAmxEmulationPass();
} // namespace quantopt::test

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  quantopt::registerAllPasses();
  quantopt::test::registerTestAmxEmulationPass();
  mlir::PassPipelineRegistration<quantopt::QuantOptPipelineOptions>(
      "test-qnt-to-kernels",
      "TEST ONLY: --qnt-to-llvm up to and including the target kernels",
      [](mlir::OpPassManager &pm,
         const quantopt::QuantOptPipelineOptions &options) {
        quantopt::buildQntToKernelsPipeline(pm, options);
      });
  mlir::PassPipelineRegistration<quantopt::QuantOptPipelineOptions>(
      "test-qnt-to-llvm-amx-emulated",
      "TEST ONLY: --qnt-to-llvm with the amx ops emulated by plain loops",
      [](mlir::OpPassManager &pm,
         const quantopt::QuantOptPipelineOptions &options) {
        quantopt::buildQntToKernelsPipeline(pm, options);
        pm.addNestedPass<mlir::func::FuncOp>(
            quantopt::test::createTestAmxEmulationPass());
        quantopt::buildQntKernelsToLLVMPipeline(pm, options);
      });

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  quantopt::registerAllDialects(registry);

  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "quant-test-opt: quant-opt plus test-only passes\n",
      registry));
}
