// Imports an ONNX model through the installed QuantOptONNXImport library and
// prints the module: a compiler that embeds the importer, as a user would.
#include "QuantOpt/Import/ONNX/ModelImporter.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  auto file = llvm::MemoryBuffer::getFile(argv[1]);
  if (!file)
    return 1;
  mlir::DialectRegistry registry;
  quantopt::onnx_import::registerImportDialects(registry);
  mlir::MLIRContext context(registry);
  quantopt::onnx_import::ImportOptions options;
  std::string error;
  if (!quantopt::onnx_import::parseInputShape("input=1x1x8x8", options, error))
    return 1;
  auto module = quantopt::onnx_import::importModel(
      &context, (*file)->getBuffer(), argv[1], options);
  if (!module)
    return 1;
  module->print(llvm::outs());
  return 0;
}
