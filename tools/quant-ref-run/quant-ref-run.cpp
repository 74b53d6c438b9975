//===- quant-ref-run.cpp - run a qnt module on the reference model ---------===//
//
// Interprets the entry function of a module with the MLIR-free reference
// model (QuantOpt/Reference): the golden side of every end-to-end check.
// Output uses upstream's printMemref format, so that it can be compared line
// by line with `mlir-runner` running the compiled module.
//
// Independence from the compiler (docs/ReferenceModel.md): this tool links
// the reference library and upstream MLIR only, never the qnt dialect, its
// verifiers or its utilities. It registers upstream dialects (func, arith,
// tensor, linalg, math, quant, bufferization, memref), allows unregistered
// dialects, and reads `qnt` ops in MLIR's generic form by name, operands and
// attributes, e.g.
//
//   %y = "qnt.add"(%a, %b) <{rounding = "double"}> : (...) -> ...
//
// Quantization parameters come from the upstream `!quant.uniform` types,
// constant codes from the attributes, and every rule the op's semantics
// depend on is checked here again. The custom syntax of qnt ops needs the
// compiler's parser: convert a module with
//
//   quant-opt --mlir-print-op-generic FILE | quant-ref-run -
//
// which is what utils/quant-ref-run.py and lit's `%quant_ref_run FILE` do.
//
// Supported: func.func/call/return, arith.constant, arith.bitcast (f32 to
// i32), quant.scast, tensor.bitcast, tensor.empty,
// qnt.{constant,quantize,dequantize,requantize,matmul,conv2d,add,max_pool2d,
// avg_pool2d,concat}, tensor.{collapse_shape,expand_shape,extract_slice,
// extract,pad}, linalg.{transpose,fill}, linalg.softmax (f32),
// bufferization.to_buffer, memref.cast and calls to
// printMemref{I8,U8,I16,I32,F32}.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "QuantOpt/Tools/InputLimits.h"
#include "QuantOpt/Tools/LargeStack.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<input>"),
                                                llvm::cl::Required);
static llvm::cl::opt<std::string>
    entryPoint("e", llvm::cl::desc("Function to run (no arguments)"),
               llvm::cl::init("main"));

static int refRunMain(int argc, char **argv) {
  const quantopt::InputLimits &limits = quantopt::declareInputLimitOptions();
  llvm::cl::ParseCommandLineOptions(
      argc, argv,
      "run a qnt module (generic form) on the reference model\n");
  DialectRegistry registry;
  registry.insert<func::FuncDialect, arith::ArithDialect,
                  tensor::TensorDialect, linalg::LinalgDialect,
                  math::MathDialect, quant::QuantDialect,
                  bufferization::BufferizationDialect,
                  memref::MemRefDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();
  // qnt ops stay unregistered: the compiler's dialect is not linked.
  context.allowUnregisteredDialects();

  llvm::SourceMgr sourceMgr;
  std::string errorMessage;
  auto file =
      quantopt::openLimitedInputFile(inputFilename, limits, &errorMessage);
  if (!file) {
    llvm::errs() << "quant-ref-run: " << errorMessage << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  // Registered after the printer, so it runs first: a custom-syntax qnt op
  // gets a note saying how to convert it, then the printer shows both.
  context.getDiagEngine().registerHandler([](Diagnostic &diag) {
    std::string message = diag.str();
    if (StringRef(message).contains("custom op 'qnt."))
      diag.attachNote()
          << "quant-ref-run reads qnt ops in MLIR's generic form only; "
             "convert the module with `quant-opt --mlir-print-op-generic "
             "FILE | quant-ref-run -` (utils/quant-ref-run.py does this)";
    return failure(); // Let the source manager handler print it.
  });
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  auto entry = module->lookupSymbol<func::FuncOp>(entryPoint);
  if (!entry || entry.getNumArguments() != 0) {
    llvm::errs() << "quant-ref-run: no function @" << entryPoint
                 << " without arguments\n";
    return 1;
  }
  quantrefrun::Interpreter interpreter(*module);
  SmallVector<quantrefrun::Tensor> results;
  return failed(interpreter.run(entry, {}, results)) ? 1 : 0;
}

int main(int argc, char **argv) {
  // Deeply nested input must not overflow the main thread's stack.
  return quantopt::runToolOnLargeStack(argc, argv,
                                       [&] { return refRunMain(argc, argv); });
}
