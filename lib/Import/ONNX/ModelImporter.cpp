//===- ModelImporter.cpp - parse, check and import an ONNX model ----------===//
//
// The library's entry point. Parsing and the ONNX checker run here; the
// checker reports through C++ exceptions, so this one file is built with
// -fexceptions and turns them into diagnostics: a bad file never crashes.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Import/ONNX/ModelImporter.h"
#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"

#include <onnx/checker.h>

#include <exception>

using namespace mlir;
using namespace quantopt::onnx_import;

bool quantopt::onnx_import::parseInputShape(StringRef spec,
                                            ImportOptions &options,
                                            std::string &error) {
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || dims.empty()) {
    error = "expected NAME=D0xD1x..., got '" + spec.str() + "'";
    return false;
  }
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  SmallVector<int64_t> shape;
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d <= 0 || d > (int64_t(1) << 31)) {
      error = "bad dimension '" + p.str() + "' in '" + spec.str() + "'";
      return false;
    }
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  return true;
}

void quantopt::onnx_import::registerImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  math::MathDialect, quant::QuantDialect, scf::SCFDialect,
                  tensor::TensorDialect, qnt::QntDialect>();
}

OwningOpRef<ModuleOp>
quantopt::onnx_import::importModel(MLIRContext *context, StringRef bytes,
                                   StringRef fileName,
                                   const ImportOptions &options) {
  Location loc = FileLineColLoc::get(context, fileName, 0, 0);
  if (options.entry.empty()) {
    emitError(loc) << "the entry function's name is empty";
    return nullptr;
  }
  DialectRegistry registry;
  registerImportDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();

  onnx::ModelProto model;
  if (bytes.size() > size_t(INT32_MAX) ||
      !model.ParseFromArray(bytes.data(), int(bytes.size()))) {
    emitError(loc) << "not a valid ONNX model (the protobuf does not parse: "
                      "truncated or corrupted file?)";
    return nullptr;
  }
  if (!model.has_graph()) {
    emitError(loc) << "not a valid ONNX model: no graph";
    return nullptr;
  }
  try {
    onnx::checker::check_model(model);
  } catch (const std::exception &e) {
    std::string what = e.what();
    // The checker appends its context on extra lines.
    emitError(loc) << "the ONNX checker rejects the model: "
                   << StringRef(what).split('\n').first;
    return nullptr;
  } catch (...) {
    emitError(loc) << "the ONNX checker rejects the model";
    return nullptr;
  }
  detail::Importer importer(context, options, fileName);
  return importer.run(model);
}
