//===- OnlyIfPresent.h - run a pass only where it has input ----*- C++ -*-===//
//
// A lowering pass with nothing to lower still walks the whole module, and,
// since it does not report the IR unchanged, the pass manager verifies the
// whole module after it. On a many-layer network that is most of such a
// pass's cost. The wrapper looks for the ops the pass rewrites first and
// skips the pass (preserving every analysis) when there are none.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_PIPELINES_ONLYIFPRESENT_H
#define QUANTOPT_LIB_PIPELINES_ONLYIFPRESENT_H

#include "mlir/Pass/Pass.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <functional>
#include <memory>

namespace quantopt {

/// A module pass that runs the pipeline `build` fills (on builtin.module)
/// when some op nested in the module satisfies `isInput`, and otherwise
/// leaves the module untouched. `isInput` must hold for every op the
/// pipeline would rewrite: only then is skipping it exact.
std::unique_ptr<mlir::Pass>
createOnlyIfPresentPass(llvm::function_ref<void(mlir::OpPassManager &)> build,
                        std::function<bool(mlir::Operation *)> isInput);

/// `isInput` for the ops of dialect `Dialect`.
template <typename Dialect>
std::function<bool(mlir::Operation *)> opsOfDialect() {
  return [](mlir::Operation *op) {
    return llvm::isa_and_present<Dialect>(op->getDialect());
  };
}

} // namespace quantopt

#endif // QUANTOPT_LIB_PIPELINES_ONLYIFPRESENT_H
