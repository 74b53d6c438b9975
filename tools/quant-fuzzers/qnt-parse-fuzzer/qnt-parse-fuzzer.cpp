//===- qnt-parse-fuzzer.cpp - fuzz parse + verify + qnt-to-llvm -----------===//
//
// Treats each input as MLIR text: parses and verifies it, then runs the
// qnt-to-llvm pipeline (target x86_64). Diagnostics are fine; a crash, hang,
// sanitizer report or out-of-memory is a finding. Seeded from test/ (target
// qnt-fuzz-seed-corpus).
//
//===----------------------------------------------------------------------===//

#include "FuzzerHarness.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  quantopt::fuzz::addDefaultFuzzerFlags(argc, argv);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  quantopt::fuzz::compileModule(text, quantopt::fuzz::Expectation::NoCrash);
  return 0;
}
