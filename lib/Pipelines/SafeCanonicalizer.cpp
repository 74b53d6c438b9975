//===- SafeCanonicalizer.cpp - canonicalize without known miscompiles -----===//

#include "QuantOpt/Pipelines/SafeCanonicalizer.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

llvm::ArrayRef<std::string> quantopt::miscompilingCanonicalizationPatterns() {
  // llvm::getTypeName spells an anonymous namespace as clang and GCC do.
  static const std::string names[] = {
      "(anonymous namespace)::FoldInsertPadIntoFill",
      "{anonymous}::FoldInsertPadIntoFill"};
  return names;
}

std::unique_ptr<Pass> quantopt::createSafeCanonicalizerPass() {
  return createCanonicalizerPass(GreedyRewriteConfig(),
                                 miscompilingCanonicalizationPatterns());
}
