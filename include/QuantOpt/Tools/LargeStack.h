//===- LargeStack.h - run a tool's main on a large stack -------*- C++ -*-===//
//
// MLIR's parser, verifier and walks recurse once per nested region: 5000
// nested scf.if overflowed the 8 MB stack of the main thread (a crash on
// hostile input). The tools that read MLIR text run their main on a thread
// whose stack is reserved large; pages are only touched as deep as the
// input nests. LLVM's signal handling stays on the main thread: set up on
// the worker, its alternate signal stack replaced ASan's there, and ASan's
// thread teardown aborted unmapping it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TOOLS_LARGESTACK_H
#define QUANTOPT_TOOLS_LARGESTACK_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/thread.h"

#include <optional>

namespace quantopt {

/// The stack reserved for a tool's main thread.
inline constexpr unsigned kToolStackBytes = 1u << 30;

/// Sets up LLVM for a tool (InitLLVM, on the calling thread), then runs
/// `body` on a thread with a kToolStackBytes stack and returns its result
/// (the tool's exit code). `body` must not call InitLLVM again.
inline int runToolOnLargeStack(int &argc, char **&argv,
                               llvm::function_ref<int()> body) {
  llvm::InitLLVM initLLVM(argc, argv);
  int result = 1;
  llvm::thread worker(std::optional<unsigned>(kToolStackBytes),
                      [&] { result = body(); });
  worker.join();
  return result;
}

} // namespace quantopt

#endif // QUANTOPT_TOOLS_LARGESTACK_H
