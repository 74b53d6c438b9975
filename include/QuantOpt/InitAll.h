//===- InitAll.h - register everything quant-opt provides -------*- C++ -*-===//
//
// The two entry points for a compiler that embeds quant-opt: one call adds
// the dialects to a registry, one registers the passes and pipelines with the
// global pass registry (for textual pipelines and command-line tools).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_INITALL_H
#define QUANTOPT_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace quantopt {

/// Adds the `qnt` dialect and the dialects it builds on (quant, arith).
void registerAllDialects(mlir::DialectRegistry &registry);

/// Registers every quant-opt pass and pipeline.
void registerAllPasses();

} // namespace quantopt

#endif // QUANTOPT_INITALL_H
