//===- SafeCanonicalizer.h - canonicalize without known miscompiles -*- C++
//-*-===//
//
// The canonicalizer the pipelines run: upstream's, with the canonicalization
// patterns of LLVM 22 that produce wrong code left out.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_PIPELINES_SAFECANONICALIZER_H
#define QUANTOPT_PIPELINES_SAFECANONICALIZER_H

#include "llvm/ADT/ArrayRef.h"

#include <memory>
#include <string>

namespace mlir {
class Pass;
} // namespace mlir

namespace quantopt {

/// Debug names (as RewritePatternSet gives them, the type name of each
/// pattern under the compilers that build LLVM) of upstream canonicalization
/// patterns that miscompile:
///  - linalg's FoldInsertPadIntoFill folds tensor.insert_slice(tensor.pad(x),
///    linalg.fill) into an insert of x at offset + low padding, where an
///    insert with non-unit strides puts x at offset + low * stride (the
///    values land in the wrong rows;
///    test/Pipelines/strided-insert-of-pad.mlir).
llvm::ArrayRef<std::string> miscompilingCanonicalizationPatterns();

/// Upstream's canonicalizer without those patterns.
std::unique_ptr<mlir::Pass> createSafeCanonicalizerPass();

} // namespace quantopt

#endif // QUANTOPT_PIPELINES_SAFECANONICALIZER_H
