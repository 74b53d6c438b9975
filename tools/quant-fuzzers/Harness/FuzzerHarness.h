//===- FuzzerHarness.h - shared harness of the qnt fuzzers ------*- C++ -*-===//
//
// Parse, verify and run `--qnt-to-llvm="target=..."` on one module, in
// process, with threading disabled, so that a finding reproduces on any host
// and libFuzzer sees a single thread.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TOOLS_QUANTFUZZERS_FUZZERHARNESS_H
#define QUANTOPT_TOOLS_QUANTFUZZERS_FUZZERHARNESS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace quantopt::fuzz {

/// Inputs longer than this are skipped: the parser and the passes are what
/// we fuzz, not the cost of huge constants. make-seed-corpus.py truncates
/// seeds to the same length.
constexpr size_t kMaxInputSize = 16384;

/// Seconds one input may take before libFuzzer calls it a hang.
constexpr unsigned kPerInputTimeoutSeconds = 20;

/// What a module that the verifier accepts must do.
enum class Expectation {
  /// Any diagnostic is fine, only a crash or sanitizer report is a finding
  /// (arbitrary text may use ops the pipeline does not take).
  NoCrash,
  /// The pipeline must succeed: a module that verifies and uses only the
  /// public ops compiles (the verifier is the single source of truth).
  CompilesIfValid,
};

/// What happened to one input.
enum class Outcome { Rejected, Compiled, PipelineFailed };

/// Parses `text` as a module (the parser verifies it), then runs the
/// qnt-to-llvm pipeline. With CompilesIfValid, a pipeline failure
/// on a verified module prints the module and the diagnostics and aborts.
/// The --qnt-to-llvm options an input compiles with.
struct PipelineChoice {
  llvm::StringRef target;
  /// 1 (serial), 0 (OpenMP, count at run time) or 3.
  int64_t threads = 1;
  /// With threads != 1: 0 (every marked loop parallel) or the default.
  bool everyLoopParallel = false;

  /// The option string, e.g. `target=x86_64 threads=0 parallel-min-work=0`.
  std::string options() const;
};

/// The options an input compiles with, from `selector`: the target is one
/// of TargetInfo::fixedNames() (never `host`), selector modulo their number,
/// so that every kernel library is fuzzed and a finding reproduces on any
/// machine; the quotient picks serial or OpenMP code (qnt-parallelize-tiles
/// and the OpenMP lowering run only in the latter).
PipelineChoice selectPipeline(uint64_t selector);

/// Parses and verifies `text`, then runs --qnt-to-llvm="<choice>".
Outcome compileModule(llvm::StringRef text, Expectation expectation,
                      const PipelineChoice &choice);

/// Prepends the harness defaults (-timeout, -max_len, -rss_limit_mb) and
/// `extra` to the libFuzzer command line; flags given by the user come later
/// and win.
void addDefaultFuzzerFlags(int *argc, char ***argv,
                           llvm::ArrayRef<const char *> extra = {});

} // namespace quantopt::fuzz

#endif // QUANTOPT_TOOLS_QUANTFUZZERS_FUZZERHARNESS_H
