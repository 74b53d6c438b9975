//===- quant-plugin.cpp - qnt as an mlir-opt plugin ------------------------===//

#include "QuantOpt/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

/// Entry point for `--load-dialect-plugin`.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QuantOptPlugin", LLVM_VERSION_STRING,
          [](mlir::DialectRegistry *registry) {
            quantopt::registerAllDialects(*registry);
          }};
}

/// Entry point for `--load-pass-plugin`.
extern "C" LLVM_ATTRIBUTE_WEAK ::mlir::PassPluginLibraryInfo
mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "QuantOptPasses", LLVM_VERSION_STRING,
          []() { quantopt::registerAllPasses(); }};
}
