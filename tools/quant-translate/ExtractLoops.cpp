//===- ExtractLoops.cpp - loops of very long functions into their own -----===//

#include "ExtractLoops.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/CodeExtractor.h"

#include <iterator>

using namespace llvm;

unsigned quantopt::extractLoopsOfLongFunctions(Module &module,
                                               unsigned maxLoops) {
  SmallVector<Function *> longFunctions;
  for (Function &function : module) {
    if (function.isDeclaration() ||
        function.hasFnAttribute(Attribute::OptimizeNone))
      continue;
    // Counting blocks first keeps the common case free of analyses: a
    // top-level loop has at least one block of its own.
    if (function.size() > maxLoops)
      longFunctions.push_back(&function);
  }

  unsigned extracted = 0;
  for (Function *function : longFunctions) {
    DominatorTree dominators(*function);
    LoopInfo loops(dominators);
    if (static_cast<unsigned>(std::distance(loops.begin(), loops.end())) <=
        maxLoops)
      continue;
    // The loops' blocks are disjoint, so extracting one leaves the others'
    // block lists valid; the extractor keeps the dominator tree and the
    // cache up to date.
    SmallVector<SmallVector<BasicBlock *>> loopBlocks;
    for (Loop *loop : loops)
      loopBlocks.emplace_back(loop->getBlocks().begin(),
                              loop->getBlocks().end());
    CodeExtractorAnalysisCache cache(*function);
    for (ArrayRef<BasicBlock *> blocks : loopBlocks) {
      CodeExtractor extractor(blocks, &dominators);
      if (!extractor.isEligible())
        continue;
      if (Function *outlined = extractor.extractCodeRegion(cache)) {
        outlined->addFnAttr(Attribute::NoInline);
        ++extracted;
      }
    }
  }
  return extracted;
}
