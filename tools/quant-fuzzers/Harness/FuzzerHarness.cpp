//===- FuzzerHarness.cpp - shared harness of the qnt fuzzers --------------===//

#include "FuzzerHarness.h"

#include "QuantOpt/InitAll.h"
#include "QuantOpt/Pipelines/Pipelines.h"
#include "QuantOpt/Target/TargetInfo.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// The registry quant-opt uses: every upstream dialect and extension (the
/// bufferization and LLVM interfaces the pipeline needs) plus qnt.
const DialectRegistry &getRegistry() {
  static const DialectRegistry *registry = [] {
    auto *r = new DialectRegistry();
    registerAllDialects(*r);
    registerAllExtensions(*r);
    quantopt::registerAllDialects(*r);
    return r;
  }();
  return *registry;
}

} // namespace

std::string quantopt::fuzz::PipelineChoice::options() const {
  std::string text = "target=" + target.str();
  if (threads != 1)
    text += " threads=" + std::to_string(threads);
  if (threads != 1 && everyLoopParallel)
    text += " parallel-min-work=0";
  return text;
}

quantopt::fuzz::PipelineChoice
quantopt::fuzz::selectPipeline(uint64_t selector) {
  llvm::ArrayRef<llvm::StringRef> targets = quantopt::TargetInfo::fixedNames();
  PipelineChoice choice;
  choice.target = targets[selector % targets.size()];
  selector /= targets.size();
  // Half serial (the default), half OpenMP code.
  static const int64_t threadCounts[] = {1, 1, 0, 3};
  choice.threads = threadCounts[selector % 4];
  choice.everyLoopParallel = (selector / 4) % 2;
  return choice;
}

quantopt::fuzz::Outcome
quantopt::fuzz::compileModule(llvm::StringRef text, Expectation expectation,
                              const PipelineChoice &choice) {
  if (text.size() > kMaxInputSize)
    return Outcome::Rejected;

  MLIRContext context(getRegistry(), MLIRContext::Threading::DISABLED);
  // Keep diagnostics: they are printed only when the input is a finding.
  std::string diagnostics;
  llvm::raw_string_ostream diagOs(diagnostics);
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    diagOs << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  // The tools parse null-terminated file buffers and the lexer may look at
  // the terminator; libFuzzer's input has none, so copy it. parseSourceString
  // runs the verifier on the whole module.
  std::string source = text.str();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      source, ParserConfig(&context), /*sourceName=*/"fuzz-input");
  if (!module)
    return Outcome::Rejected;

  PassManager pm(&context);
  QuantOptPipelineOptions options;
  // A fixed name, never `host`: results must not depend on the machine.
  options.target = choice.target.str();
  options.threads = choice.threads;
  if (choice.threads != 1 && choice.everyLoopParallel)
    options.parallelMinWork = 0;
  buildQntToLLVMPipeline(pm, options);
  if (succeeded(pm.run(*module)))
    return Outcome::Compiled;
  if (expectation == Expectation::NoCrash)
    return Outcome::PipelineFailed;

  llvm::errs() << "=== FINDING: the verifier accepted this module but "
                  "--qnt-to-llvm=\""
               << choice.options() << "\" failed ===\n"
               << text << "\n=== diagnostics ===\n"
               << diagnostics << "=== end ===\n";
  llvm::errs().flush();
  std::abort();
}

void quantopt::fuzz::addDefaultFuzzerFlags(int *argc, char ***argv,
                                           llvm::ArrayRef<const char *> extra) {
  // libFuzzer parses flags after LLVMFuzzerInitialize and the last value of
  // a flag wins, so defaults go right after argv[0]. The array must outlive
  // the fuzzer: it is leaked on purpose.
  static const std::string defaults[] = {
      "-timeout=" + std::to_string(kPerInputTimeoutSeconds),
      "-max_len=" + std::to_string(kMaxInputSize),
      "-rss_limit_mb=4096",
  };
  static std::vector<char *> args;
  args.push_back((*argv)[0]);
  for (const std::string &flag : defaults)
    args.push_back(const_cast<char *>(flag.c_str()));
  for (const char *flag : extra)
    args.push_back(const_cast<char *>(flag));
  for (int i = 1; i < *argc; ++i)
    args.push_back((*argv)[i]);
  args.push_back(nullptr);
  *argc = static_cast<int>(args.size()) - 1;
  *argv = args.data();
}
