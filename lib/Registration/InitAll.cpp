//===- InitAll.cpp - register everything quant-opt provides ---------------===//

#include "QuantOpt/InitAll.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"
#include "QuantOpt/Pipelines/Pipelines.h"
#include "mlir/IR/DialectRegistry.h"

void quantopt::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<mlir::qnt::QntDialect, mlir::qnt_kernel::QntKernelDialect,
                  mlir::quant::QuantDialect, mlir::arith::ArithDialect>();
}

void quantopt::registerAllPasses() {
  mlir::qnt::registerQntPasses();
  mlir::qnt::registerQntConversionPasses();
  quantopt::registerQuantOptPipelines();
  quantopt::registerTosaPipelines();
}
