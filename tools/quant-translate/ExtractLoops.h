//===- ExtractLoops.h - loops of very long functions into their own -------===//
//
// LLVM's loop passes take time quadratic in the number of loops of one
// function: rotating a loop updates the dominator tree's levels of every
// block below it, and ScalarEvolution walks the chain of blocks above it for
// loop guards. A module of 1000 quantize / dequantize pairs (2000 loop nests
// in one function) spent 61 s in -O3, 500 pairs 17 s. Functions with that
// many loops get each top-level loop moved into a function of its own first.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TOOLS_QUANTTRANSLATE_EXTRACTLOOPS_H
#define QUANTOPT_TOOLS_QUANTTRANSLATE_EXTRACTLOOPS_H

namespace llvm {
class Module;
} // namespace llvm

namespace quantopt {

/// Functions with more top-level loops than this are split.
inline constexpr unsigned kMaxTopLevelLoopsPerFunction = 512;

/// Moves every top-level loop of each function of `module` that has more
/// than `maxLoops` of them into a new internal, never-inlined function (the
/// inliner would otherwise put them back). Returns the number of loops moved.
unsigned extractLoopsOfLongFunctions(llvm::Module &module, unsigned maxLoops);

} // namespace quantopt

#endif // QUANTOPT_TOOLS_QUANTTRANSLATE_EXTRACTLOOPS_H
