//===- quant-opt.cpp - the quant-opt driver --------------------------------===//
//
// mlir-opt with the qnt dialect and passes added: every upstream dialect and
// pass is registered too, so one tool runs a whole pipeline.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/InitAll.h"
#include "QuantOpt/Tools/LargeStack.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  quantopt::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  quantopt::registerAllDialects(registry);

  // Signal handlers (and their alternate stack) belong to the main thread:
  // set up on the worker, ASan's thread teardown aborted on that stack.
  llvm::InitLLVM initLLVM(argc, argv);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "quant-opt: the qnt dialect optimizer driver\n", registry);
  // Deeply nested input must not overflow the main thread's stack.
  return quantopt::runOnLargeStack([&] {
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  });
}
