//===- FuzzerHarness.h - shared harness of the qnt fuzzers -------*- C++ -*-===//
//
// Parse, verify and run `--qnt-to-llvm="target=x86_64"` on one module, in
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
/// qnt-to-llvm pipeline for x86_64. With CompilesIfValid, a pipeline failure
/// on a verified module prints the module and the diagnostics and aborts.
/// The target an input compiles for: one of TargetInfo::fixedNames() (never
/// `host`), `selector` modulo their number, so that every kernel library is
/// fuzzed and a finding reproduces on any machine.
llvm::StringRef selectFuzzTarget(uint64_t selector);

/// Parses and verifies `text`, then runs --qnt-to-llvm="target=<target>".
Outcome compileModule(llvm::StringRef text, Expectation expectation,
                      llvm::StringRef target);

/// Prepends the harness defaults (-timeout, -max_len, -rss_limit_mb) and
/// `extra` to the libFuzzer command line; flags given by the user come later
/// and win.
void addDefaultFuzzerFlags(int *argc, char ***argv,
                           llvm::ArrayRef<const char *> extra = {});

} // namespace quantopt::fuzz

#endif // QUANTOPT_TOOLS_QUANTFUZZERS_FUZZERHARNESS_H
