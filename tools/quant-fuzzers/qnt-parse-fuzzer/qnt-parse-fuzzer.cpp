//===- qnt-parse-fuzzer.cpp - fuzz parse + verify + qnt-to-llvm -----------===//
//
// Treats each input as MLIR text: parses and verifies it, then runs the
// qnt-to-llvm pipeline for a target, and serial or OpenMP code, picked by a
// hash of the text (selectPipeline: one of TargetInfo::fixedNames(), so that
// a mutation may move an input to another kernel library and a finding
// reproduces anywhere). Diagnostics are fine; a crash, hang, sanitizer report
// or out-of-memory is a finding. Seeded from test/ (target
// qnt-fuzz-seed-corpus).
//
//===----------------------------------------------------------------------===//

#include "FuzzerHarness.h"
#include "llvm/Support/xxhash.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  quantopt::fuzz::addDefaultFuzzerFlags(argc, argv);
  return 0;
}

/// Debian's MLIR 22 crashes parsing a malformed array attribute of these ops
/// (upstream `parseDenseI64ArrayAttr` in LinalgOps.cpp stores the null
/// attribute of a failed parse, e.g. `permutation = [1,$0]`; stock mlir-opt
/// crashes the same way). That is not code of ours and cannot be fixed
/// here, so inputs that spell them are skipped (docs/Fuzzing.md).
static bool hitsUpstreamLinalgParserCrash(llvm::StringRef text) {
  return text.contains("linalg.transpose") ||
         text.contains("linalg.broadcast") || text.contains("linalg.reduce");
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  if (hitsUpstreamLinalgParserCrash(text))
    return 0;
  quantopt::fuzz::compileModule(
      text, quantopt::fuzz::Expectation::NoCrash,
      quantopt::fuzz::selectPipeline(llvm::xxh3_64bits(text)));
  return 0;
}
