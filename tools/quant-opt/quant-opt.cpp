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

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  quantopt::registerAllPasses();

  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  quantopt::registerAllDialects(registry);

  // Deeply nested input must not overflow the main thread's stack. The
  // tool's InitLLVM is the helper's: MlirOptMain with file names skips it.
  return quantopt::runToolOnLargeStack(argc, argv, [&] {
    auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
        argc, argv, "quant-opt: the qnt dialect optimizer driver\n", registry);
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  });
}
