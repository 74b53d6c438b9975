//===- Pipelines.h - quant-opt pass pipelines -------------------*- C++ -*-===//
//
// The end-to-end pipeline from the public qnt ops to the LLVM dialect, in the
// shape of upstream's sparse-tensor pipelines: an options struct, a builder
// that fills an OpPassManager, and a registration for textual pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_PIPELINES_PIPELINES_H
#define QUANTOPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace quantopt {

/// Options of `--qnt-to-llvm`.
struct QuantOptPipelineOptions
    : public mlir::PassPipelineOptions<QuantOptPipelineOptions> {
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Machine to compile for: host, x86_64, aarch64 or "
                     "riscv64"),
      llvm::cl::init("host")};
};

/// Lowers a module of qnt ops on quantized tensors (plus func, arith, tensor
/// and quant.scast) to the LLVM dialect: the qnt passes, qnt-to-linalg,
/// bufferization and the upstream conversions to LLVM. Public functions get
/// the C interface. An unknown target makes the pipeline fail when it runs
/// (registerQuantOptPipelines rejects it earlier, while parsing options).
void buildQntToLLVMPipeline(mlir::OpPassManager &pm,
                            const QuantOptPipelineOptions &options);

/// Registers `qnt-to-llvm` for textual pipelines and command-line tools.
void registerQuantOptPipelines();

} // namespace quantopt

#endif // QUANTOPT_PIPELINES_PIPELINES_H
