//===- ModelImporter.h - ONNX models to the qnt dialect ---------*- C++ -*-===//
//
// Turns a serialized ONNX ModelProto (QDQ or QOperator form) into a module
// with one func.func on `qnt` ops. The ONNX headers stay private to the
// library: callers pass the file's bytes.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_IMPORT_ONNX_MODELIMPORTER_H
#define QUANTOPT_IMPORT_ONNX_MODELIMPORTER_H

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace quantopt::onnx_import {

struct ImportOptions {
  /// Name of the func.func that holds the graph.
  std::string entry = "main";
  /// Static shapes for graph inputs: fixes dynamic dimensions (a dynamic
  /// batch) or overrides the declared ones.
  llvm::StringMap<llvm::SmallVector<int64_t>> inputShapes;
  /// Rounding of every qnt.requantize / qnt.add the importer emits. ONNX
  /// Runtime's CPU rule ("float") is what ONNX models are validated against.
  mlir::qnt::RoundingMode rounding = mlir::qnt::RoundingMode::Float;
  /// The directory that the locations of external tensor data are relative
  /// to: the model file's. Empty: a model with external data is refused.
  std::string externalDataDir;
};

/// Parses `NAME=D0xD1x...` (e.g. `input=360x1x8x8`) into `options`. Returns
/// false and sets `error` on malformed text.
bool parseInputShape(llvm::StringRef spec, ImportOptions &options,
                     std::string &error);

/// Adds the dialects the imported module uses.
void registerImportDialects(mlir::DialectRegistry &registry);

/// Imports the serialized ModelProto in `bytes` (`fileName` only names it in
/// diagnostics). On a malformed or unsupported model, emits an error that
/// names the node and the reason on `context` and returns null.
mlir::OwningOpRef<mlir::ModuleOp> importModel(mlir::MLIRContext *context,
                                              llvm::StringRef bytes,
                                              llvm::StringRef fileName,
                                              const ImportOptions &options);

} // namespace quantopt::onnx_import

#endif // QUANTOPT_IMPORT_ONNX_MODELIMPORTER_H
