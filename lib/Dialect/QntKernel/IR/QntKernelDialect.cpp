//===- QntKernelDialect.cpp - qnt_kernel dialect --------------------------===//

#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::qnt_kernel;

#include "QuantOpt/Dialect/QntKernel/IR/QntKernelOpsDialect.cpp.inc"

void QntKernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelOps.cpp.inc"
      >();
}

#define GET_OP_CLASSES
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelOps.cpp.inc"
