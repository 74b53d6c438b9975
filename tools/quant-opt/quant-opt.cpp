//===- quant-opt.cpp - the quant-opt driver --------------------------------===//
//
// mlir-opt with the qnt dialect and passes added: every upstream dialect and
// pass is registered too, so one tool runs a whole pipeline.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/InitAll.h"
#include "QuantOpt/Tools/InputLimits.h"
#include "QuantOpt/Tools/LargeStack.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>

/// MlirOptMain's file-name entry point, reading the input under the tools'
/// input limits (QuantOpt/Tools/InputLimits.h).
static int optMain(int argc, char **argv, llvm::StringRef inputFilename,
                   llvm::StringRef outputFilename,
                   const quantopt::InputLimits &limits,
                   mlir::DialectRegistry &registry) {
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  // Listings read no input.
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));

  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      quantopt::openLimitedInputFile(inputFilename, limits, &errorMessage);
  if (!file) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &errorMessage);
  if (!output) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, config)))
    return 1;
  output->keep();
  return 0;
}

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
    const quantopt::InputLimits &limits = quantopt::declareInputLimitOptions();
    auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
        argc, argv, "quant-opt: the qnt dialect optimizer driver\n", registry);
    return optMain(argc, argv, inputFilename, outputFilename, limits, registry);
  });
}
