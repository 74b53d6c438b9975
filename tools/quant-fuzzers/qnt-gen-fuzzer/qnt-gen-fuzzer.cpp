//===- qnt-gen-fuzzer.cpp - fuzz the pipeline with valid qnt modules ------===//
//
// The first input byte picks the target (one of TargetInfo::fixedNames(), so
// every kernel library is fuzzed) and serial or OpenMP code (selectPipeline);
// the rest builds a module over the public qnt ops (ModuleGenerator), which
// is parsed, verified and compiled with --qnt-to-llvm="target=<...> ...". A
// module the verifier rejects is fine; one it accepts must compile: a
// pipeline error aborts, so libFuzzer reports it.
// Set QNT_GEN_FUZZER_PRINT=1 to print each generated module (reproducing a
// crash: `qnt-gen-fuzzer crash-<hash>` prints the module to stderr), and
// QNT_GEN_FUZZER_STATS=1 to count at exit how many modules the verifier
// accepted (the generator is useful only if most of them pass).
//
//===----------------------------------------------------------------------===//

#include "FuzzerHarness.h"
#include "ModuleGenerator.h"
#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace quantopt::fuzz;

static bool printModules = false;
static unsigned long counts[3];

static void printStats() {
  llvm::errs() << "qnt-gen-fuzzer: " << counts[0] << " rejected, " << counts[1]
               << " compiled\n";
}

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  // Every byte is a choice: long inputs from the start (no length ramp),
  // but a few hundred bytes already give a module of kMaxUnits ops.
  addDefaultFuzzerFlags(argc, argv, {"-len_control=0", "-max_len=512"});
  printModules = std::getenv("QNT_GEN_FUZZER_PRINT") != nullptr;
  if (std::getenv("QNT_GEN_FUZZER_STATS"))
    std::atexit(printStats);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const AvailableOps ops = queryAvailableOps();
  if (size == 0)
    return 0;
  PipelineChoice choice = selectPipeline(data[0]);
  std::string text = generateModule(data + 1, size - 1, ops);
  if (printModules)
    llvm::errs() << "// ---- generated module, --qnt-to-llvm=\""
                 << choice.options() << "\" ----\n"
                 << text << "\n";
  ++counts[static_cast<int>(
      compileModule(text, Expectation::CompilesIfValid, choice))];
  return 0;
}
