// Registers quant-opt's dialects and passes, parses a qnt module, verifies
// it and runs the canonicalizer: the weight quantize folds to qnt.constant.
#include "QuantOpt/InitAll.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

static const char *kModule = R"mlir(
func.func @w() -> tensor<2x!quant.uniform<u8:f32, 0.25:128>> {
  %x = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<u8:f32, 0.25:128>>
  return %q : tensor<2x!quant.uniform<u8:f32, 0.25:128>>
}
)mlir";

int main() {
  mlir::DialectRegistry registry;
  quantopt::registerAllDialects(registry);
  registry.insert<mlir::func::FuncDialect>();
  quantopt::registerAllPasses();
  mlir::MLIRContext context(registry);
  auto module = mlir::parseSourceString<mlir::ModuleOp>(kModule, &context);
  if (!module)
    return 1;
  mlir::PassManager pm(&context);
  pm.addPass(mlir::createCanonicalizerPass());
  if (mlir::failed(pm.run(*module)))
    return 1;
  module->print(llvm::outs());
  return 0;
}
