//===- SafeCanonicalizerTest.cpp - the left-out patterns exist -----------===//
//
// The safe canonicalizer filters patterns by debug name. A name that no
// longer matches (a renamed pattern, another compiler's spelling of the
// anonymous namespace) would silently let the miscompile back in; this
// test fails instead.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Pipelines/SafeCanonicalizer.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/STLExtras.h"

#include "gtest/gtest.h"

using namespace mlir;

TEST(SafeCanonicalizer, LeavesOutFoldInsertPadIntoFill) {
  MLIRContext context;
  context.loadDialect<linalg::LinalgDialect>();
  RewritePatternSet patterns(&context);
  linalg::FillOp::getCanonicalizationPatterns(patterns, &context);
  int found = 0;
  for (const auto &pattern : patterns.getNativePatterns()) {
    StringRef name = pattern->getDebugName();
    if (!name.ends_with("FoldInsertPadIntoFill"))
      continue;
    ++found;
    EXPECT_TRUE(llvm::is_contained(
        quantopt::miscompilingCanonicalizationPatterns(), name.str()))
        << "the pattern is named '" << name.str() << "'";
  }
  EXPECT_EQ(found, 1);
}
