//===- NetworkOps.cpp - MaxPool, Concat, Add, AveragePool -----------------===//
//
// The whole-network ops (qnt.max_pool2d, qnt.concat, qnt.add,
// qnt.avg_pool2d). Until those ops exist these nodes are rejected with a
// clear error.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importMaxPool() {
  return fail("unsupported operator (needs qnt.max_pool2d)");
}

LogicalResult Importer::importConcat() {
  bool allConst = true;
  for (int k = 0; k < node->input_size(); ++k) {
    auto in = input(k);
    if (failed(in))
      return failure();
    allConst &= (*in)->kind == Kind::Const;
  }
  if (allConst)
    return foldConstConcat();
  return fail("unsupported operator (needs qnt.concat)");
}

LogicalResult Importer::importAdd() {
  return fail("unsupported operator (needs qnt.add)");
}

LogicalResult Importer::importAveragePool(bool global) {
  return fail("unsupported operator (needs qnt.avg_pool2d)");
}

FailureOr<ImportedValue> Importer::emitAdd(PendingInfo &p,
                                           const QParams &out) {
  return fail("Add is not supported");
}

FailureOr<ImportedValue> Importer::emitAvgPool(PendingInfo &p,
                                               const QParams &out) {
  return fail("AveragePool is not supported");
}
