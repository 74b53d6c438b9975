//===- TranslateMain.h - the quant-translate driver -------------*- C++ -*-===//
//
// quant-translate's whole driver, callable from another main: the product
// tool passes no hook; the test-only quant-translate-qemu passes a rewrite
// that works around an emulator bug.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TOOLS_QUANT_TRANSLATE_TRANSLATEMAIN_H
#define QUANTOPT_TOOLS_QUANT_TRANSLATE_TRANSLATEMAIN_H

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class Module;
class Triple;
namespace cl {
class OptionCategory;
} // namespace cl
} // namespace llvm

namespace quantopt {

/// Runs on the optimized module, before verification and code generation.
using PostOptimizeHook =
    llvm::function_ref<void(llvm::Module &, const llvm::Triple &)>;

/// The options quant-translate shows; a driver adds its own to it.
llvm::cl::OptionCategory &getQuantTranslateCategory();

/// Parses the command line, translates, optimizes and emits; the exit code.
int quantTranslateMain(int argc, char **argv,
                       PostOptimizeHook postOptimize = nullptr);

} // namespace quantopt

#endif // QUANTOPT_TOOLS_QUANT_TRANSLATE_TRANSLATEMAIN_H
