//===- quant-import-onnx.cpp - ONNX model to a qnt module -----------------===//
//
// quant-import-onnx MODEL.onnx -o OUT.mlir [--entry NAME]
//   [--input-shape NAME=D0xD1x...]... [--rounding MODE]
//   [--external-data-dir DIR]
//
// A thin driver over QuantOptONNXImport. Exit code 1 and a diagnostic that
// names the node and the reason on any bad or unsupported model.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Import/ONNX/ModelImporter.h"
#include "QuantOpt/Tools/InputLimits.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdint>
#include <limits>

using namespace llvm;

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<model.onnx>"), cl::Required);
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"));
static cl::opt<std::string>
    entry("entry", cl::desc("Name of the imported function"), cl::init("main"));
static cl::list<std::string>
    inputShapes("input-shape",
                cl::desc("Static shape of a graph input: NAME=D0xD1x..."));
static cl::opt<std::string>
    rounding("rounding",
             cl::desc("Requantize rounding: float (ONNX Runtime, default), "
                      "double, single, away, half_even"),
             cl::init("float"));

static cl::opt<std::string> externalDataDir(
    "external-data-dir",
    cl::desc("Directory that external tensor data locations are relative to "
             "(default: the model's directory; the current one for stdin)"),
    cl::value_desc("directory"));

int main(int argc, char **argv) {
  InitLLVM y(argc, argv);
  // --mlir-print-debuginfo shows each op's ONNX node name.
  mlir::registerAsmPrinterCLOptions();
  mlir::registerMLIRContextCLOptions();
  cl::ParseCommandLineOptions(argc, argv, "ONNX model importer\n");

  quantopt::onnx_import::ImportOptions options;
  options.entry = entry;
  std::optional<mlir::qnt::RoundingMode> mode =
      mlir::qnt::symbolizeRoundingMode(rounding);
  if (!mode) {
    errs() << "error: unknown rounding '" << rounding
           << "' (double, single, away, half_even or float)\n";
    return 1;
  }
  options.rounding = *mode;
  options.externalDataDir = externalDataDir;
  if (externalDataDir.getNumOccurrences() == 0) {
    StringRef dir = inputFilename == "-"
                        ? StringRef()
                        : sys::path::parent_path(inputFilename);
    options.externalDataDir = dir.empty() ? "." : dir.str();
  }
  for (const std::string &spec : inputShapes) {
    std::string error;
    if (!quantopt::onnx_import::parseInputShape(spec, options, error)) {
      errs() << "quant-import-onnx: --input-shape: " << error << "\n";
      return 1;
    }
  }

  // An endless input (/dev/zero, a pipe) stops at protobuf's own limit
  // instead of reading until memory runs out.
  quantopt::InputLimits limits;
  limits.maxBytes = std::numeric_limits<int32_t>::max();
  limits.maxBytesSource = "a protobuf message";
  limits.maxNesting = 0;
  std::string readError;
  std::unique_ptr<MemoryBuffer> file =
      quantopt::openLimitedInputFile(inputFilename, limits, &readError);
  if (!file) {
    errs() << "quant-import-onnx: " << readError << "\n";
    return 1;
  }
  mlir::MLIRContext context;
  SourceMgr sourceMgr;
  mlir::SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  auto module = quantopt::onnx_import::importModel(&context, file->getBuffer(),
                                                   inputFilename, options);
  if (!module)
    return 1;

  std::string error;
  auto output = mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    errs() << "quant-import-onnx: " << error << "\n";
    return 1;
  }
  module->print(output->os());
  output->os() << "\n";
  output->keep();
  return 0;
}
