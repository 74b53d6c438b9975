//===- TranslateMain.cpp - LLVM-dialect module to .ll / .s / .o -----------===//
//
// The back half of the compiler: reads a module in the LLVM dialect (the
// output of `quant-opt --qnt-to-llvm="target=..."`), translates it to LLVM
// IR, optimizes it with LLVM's default -O3 pipeline for the module's target
// and writes LLVM IR, assembly or an object file.
//
// The target comes from the module: the triple from `llvm.target_triple` (or
// `llvm.target`), CPU and features from `#llvm.target<triple, chip,
// features>`, the ABI from the "target-abi" module flag. The TargetMachine
// built from them drives both the optimizer (so that the loop vectorizer
// sees the real vector widths and dot-product instructions, e.g. partial
// reductions to AArch64 sdot/usdot) and code generation. --mtriple, --mcpu
// and --mattr override the module's values; --mcpu and --mattr also replace
// the "target-cpu" / "target-features" of every function definition, which
// qnt-to-llvm records there too and which LLVM prefers to the module's.
//
//   quant-translate model.llvm.mlir --emit=llvm -o model.ll
//   quant-translate model.llvm.mlir --emit=asm  -o model.s
//   quant-translate model.llvm.mlir --emit=obj  -o model.o   [-O0..-O3]
//
//===----------------------------------------------------------------------===//

#include "TranslateMain.h"
#include "ExtractLoops.h"

#include "QuantOpt/Tools/InputLimits.h"
#include "QuantOpt/Tools/LargeStack.h"

#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/DataLayoutInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/OptimizationLevel.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/StandardInstrumentations.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Signals.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

using namespace llvm;

namespace {
enum class EmitKind { LLVMIR, Assembly, Object };
} // namespace

static cl::OptionCategory category("quant-translate options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mlir>"),
                                          cl::init("-"), cl::cat(category));
static cl::opt<std::string> outputFilename("o", cl::desc("Output file"),
                                           cl::value_desc("filename"),
                                           cl::init("-"), cl::cat(category));
static cl::opt<EmitKind>
    emitKind("emit", cl::desc("What to write"), cl::init(EmitKind::LLVMIR),
             cl::values(clEnumValN(EmitKind::LLVMIR, "llvm",
                                   "LLVM IR, textual (.ll)"),
                        clEnumValN(EmitKind::Assembly, "asm",
                                   "assembly (.s)"),
                        clEnumValN(EmitKind::Object, "obj",
                                   "relocatable object file (.o)")),
             cl::cat(category));
static cl::opt<unsigned>
    optLevel("O", cl::desc("Optimization level, -O0 to -O3 (default 3)"),
             cl::Prefix, cl::init(3), cl::cat(category));
static cl::opt<std::string>
    tripleOverride("mtriple", cl::desc("Override the module's target triple"),
                   cl::cat(category));
static cl::opt<std::string>
    cpuOverride("mcpu",
                cl::desc("Override the target CPU of the module and of "
                         "every function"),
                cl::cat(category));
static cl::opt<std::string> featuresOverride(
    "mattr",
    cl::desc("Override the target features of the module and of every "
             "function (comma-separated, +feature / -feature)"),
    cl::cat(category));

static int fail(const Twine &message) {
  errs() << "quant-translate: error: " << message << "\n";
  return 1;
}

/// LLVM only warns about an unknown CPU or feature and then ignores it, so a
/// typo in --mcpu / --mattr silently produced code for a different machine.
/// Checks both against the target's own tables (`info`, built with no CPU
/// and no features so that it does not itself warn); an empty CPU is the
/// default one. Returns an error message; `cpuOrigin` and `featuresOrigin`
/// say where the values came from.
static std::optional<std::string>
checkCpuAndFeatures(const MCSubtargetInfo &info, const Triple &triple,
                    StringRef cpu, StringRef features, StringRef cpuOrigin,
                    StringRef featuresOrigin) {
  if (!cpu.empty() && cpu != "generic" && !info.isCPUStringValid(cpu))
    return ("unknown CPU '" + cpu + "' for target '" + triple.str() + "' (" +
            cpuOrigin + ")")
        .str();
  SmallVector<StringRef> entries;
  features.split(entries, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef entry : entries) {
    StringRef name = entry.trim();
    if (!name.consume_front("+"))
      name.consume_front("-");
    if (llvm::none_of(info.getAllProcessorFeatures(),
                      [&](const SubtargetFeatureKV &kv) {
                        return name == kv.Key;
                      }))
      return ("unknown target feature '" + name + "' for target '" +
              triple.str() + "' (" + featuresOrigin + ")")
          .str();
  }
  return std::nullopt;
}

/// Instruction selection aborts on another architecture's intrinsic (an
/// AArch64 one in an x86-64 module, say); names the first such call.
static std::optional<std::string> checkIntrinsics(const Module &module,
                                                  const Triple &triple) {
  // "x86", "aarch64", "riscv", ...: the second component of the names of
  // the intrinsics the target's backend implements.
  StringRef archPrefix = Triple::getArchTypePrefix(triple.getArch());
  if (archPrefix.empty())
    return std::nullopt;
  for (const Function &function : module) {
    for (const Instruction &inst : instructions(function)) {
      const auto *call = dyn_cast<CallBase>(&inst);
      const Function *callee = call ? call->getCalledFunction() : nullptr;
      if (!callee || !Intrinsic::isTargetIntrinsic(callee->getIntrinsicID()))
        continue;
      StringRef owner = Intrinsic::getBaseName(callee->getIntrinsicID());
      owner.consume_front("llvm.");
      owner = owner.split('.').first;
      if (owner != archPrefix)
        return ("function '" + function.getName() + "' calls the " + owner +
                " intrinsic '" + callee->getName() + "', which target '" +
                triple.str() + "' cannot compile")
            .str();
    }
  }
  return std::nullopt;
}

/// Globals larger than this are rejected before translation. Materializing
/// one takes as much memory as its size (a 2^40-byte splat ran out of
/// memory), and no object file can usefully hold it: the code models used
/// reach data only within +-2 GiB (x86-64 small, RISC-V medany) or +-4 GiB
/// (AArch64 small) of the code.
static constexpr uint64_t maxGlobalBytes = uint64_t(1) << 32;

/// The bytes a value of `type` occupies, counting elements but no padding
/// (a lower bound of LLVM's size); nullopt past 2^64.
static std::optional<uint64_t> minimumByteSize(mlir::Type type,
                                               const mlir::DataLayout &layout) {
  auto scalarBits = [&](mlir::Type scalar) -> uint64_t {
    if (scalar.isIntOrFloat())
      return scalar.getIntOrFloatBitWidth();
    if (isa<mlir::LLVM::LLVMPointerType>(scalar))
      return layout.getTypeSizeInBits(scalar).getKnownMinValue();
    return 0;
  };
  if (auto array = dyn_cast<mlir::LLVM::LLVMArrayType>(type)) {
    std::optional<uint64_t> element =
        minimumByteSize(array.getElementType(), layout);
    if (!element)
      return std::nullopt;
    return checkedMulUnsigned<uint64_t>(array.getNumElements(), *element);
  }
  if (auto structType = dyn_cast<mlir::LLVM::LLVMStructType>(type)) {
    std::optional<uint64_t> total = 0;
    for (mlir::Type field : structType.getBody()) {
      std::optional<uint64_t> size = minimumByteSize(field, layout);
      if (!size || !(total = checkedAddUnsigned(*total, *size)))
        return std::nullopt;
    }
    return total;
  }
  if (auto vector = dyn_cast<mlir::VectorType>(type)) {
    // Vector elements are bit-packed.
    std::optional<uint64_t> bits = scalarBits(vector.getElementType());
    for (int64_t dim : vector.getShape())
      if (bits)
        bits = checkedMulUnsigned<uint64_t>(*bits, dim);
    if (!bits)
      return std::nullopt;
    return divideCeil(*bits, 8);
  }
  return divideCeil(scalarBits(type), 8);
}

/// Rejects a global definition larger than maxGlobalBytes; a declaration
/// takes no room in the object.
static std::optional<std::string> checkGlobalSizes(mlir::ModuleOp module) {
  std::optional<std::string> message;
  module.walk([&](mlir::LLVM::GlobalOp global) {
    mlir::LLVM::Linkage linkage = global.getLinkage();
    if ((linkage == mlir::LLVM::Linkage::External ||
         linkage == mlir::LLVM::Linkage::ExternWeak) &&
        !global.getValueAttr() && global.getInitializer().empty())
      return mlir::WalkResult::advance();
    std::optional<uint64_t> size = minimumByteSize(
        global.getGlobalType(), mlir::DataLayout::closest(global));
    if (size && *size <= maxGlobalBytes)
      return mlir::WalkResult::advance();
    message = ("global '@" + global.getSymName() + "' takes " +
               (size ? Twine(*size) : Twine("more than 2^64")) +
               " bytes, more than the 2^32 bytes a global may take")
                  .str();
    return mlir::WalkResult::interrupt();
  });
  return message;
}

/// An error LLVM cannot recover from: one line, exit code 1, no output file.
[[noreturn]] static void exitOnLLVMError(StringRef triple, StringRef reason) {
  errs() << "quant-translate: error: LLVM cannot compile this module for "
         << triple << ": " << reason.split('\n').first.rtrim() << "\n";
  // Removes the partial output file, which ToolOutputFile registered.
  sys::RunInterruptHandlers();
  // Midway through a pass: run no destructors.
  sys::Process::Exit(1, /*NoCleanup=*/true);
}

/// LLVM reports what a backend cannot compile (an intrinsic without the
/// feature it needs, an operation it cannot legalize, ...) through
/// report_fatal_error, which aborts with a stack dump unless the handler
/// exits itself. `triple` is the target's name, a std::string.
static void exitOnFatalError(void *triple, const char *reason, bool) {
  exitOnLLVMError(*static_cast<const std::string *>(triple), reason);
}

namespace {
/// Without a handler, LLVMContext prints an error diagnostic (inline
/// assembly that does not assemble, say) and exits, leaving the output file.
struct ExitOnErrorDiagnostic : DiagnosticHandler {
  explicit ExitOnErrorDiagnostic(StringRef triple) : triple(triple) {}
  bool handleDiagnostics(const DiagnosticInfo &info) override {
    // Warnings and remarks: LLVMContext prints them.
    if (info.getSeverity() != DS_Error)
      return false;
    std::string message;
    raw_string_ostream os(message);
    DiagnosticPrinterRawOStream printer(os);
    info.print(printer);
    exitOnLLVMError(triple, message);
  }
  StringRef triple;
};
} // namespace

/// Triple, CPU and features recorded on the module by qnt-to-llvm.
struct ModuleTarget {
  std::string triple, cpu, features;
};

static ModuleTarget readTarget(mlir::ModuleOp module) {
  ModuleTarget target;
  if (auto attr = module->getAttrOfType<mlir::LLVM::TargetAttr>(
          mlir::LLVM::LLVMDialect::getTargetAttrName())) {
    target.triple = attr.getTriple().str();
    target.cpu = attr.getChip().str();
    if (!attr.getFeatures().nullOrEmpty())
      target.features = attr.getFeatures().getFeaturesString();
  }
  if (auto triple = module->getAttrOfType<mlir::StringAttr>(
          mlir::LLVM::LLVMDialect::getTargetTripleAttrName()))
    target.triple = triple.str();
  return target;
}

static std::optional<CodeGenOptLevel> codeGenLevel(unsigned level) {
  switch (level) {
  case 0:
    return CodeGenOptLevel::None;
  case 1:
    return CodeGenOptLevel::Less;
  case 2:
    return CodeGenOptLevel::Default;
  case 3:
    return CodeGenOptLevel::Aggressive;
  default:
    return std::nullopt;
  }
}

/// LLVM's default per-module pipeline at the given level, as `opt -O<n>` or
/// clang runs it, with the target machine's cost model.
static void optimize(Module &module, TargetMachine &machine, unsigned level) {
  PipelineTuningOptions tuning;
  tuning.LoopVectorization = level >= 2;
  tuning.SLPVectorization = level >= 2;
  tuning.LoopUnrolling = level >= 1;
  tuning.LoopInterleaving = level >= 1;

  LoopAnalysisManager lam;
  FunctionAnalysisManager fam;
  CGSCCAnalysisManager cgam;
  ModuleAnalysisManager mam;
  // Honours LLVM's -time-passes, -print-after=..., as opt does.
  PassInstrumentationCallbacks callbacks;
  StandardInstrumentations instrumentations(module.getContext(),
                                            /*DebugLogging=*/false);
  instrumentations.registerCallbacks(callbacks, &mam);
  PassBuilder builder(&machine, tuning, std::nullopt, &callbacks);
  builder.registerModuleAnalyses(mam);
  builder.registerCGSCCAnalyses(cgam);
  builder.registerFunctionAnalyses(fam);
  builder.registerLoopAnalyses(lam);
  builder.crossRegisterProxies(lam, fam, cgam, mam);

  // LLVM's loop passes are quadratic in the number of loops of a function.
  if (level >= 1)
    quantopt::extractLoopsOfLongFunctions(
        module, quantopt::kMaxTopLevelLoopsPerFunction);

  ModulePassManager mpm;
  if (level == 0) {
    mpm = builder.buildO0DefaultPipeline(OptimizationLevel::O0);
  } else {
    OptimizationLevel levels[] = {OptimizationLevel::O0, OptimizationLevel::O1,
                                  OptimizationLevel::O2, OptimizationLevel::O3};
    mpm = builder.buildPerModuleDefaultPipeline(levels[level]);
  }
  mpm.run(module, mam);
}

llvm::cl::OptionCategory &quantopt::getQuantTranslateCategory() {
  return category;
}

static int translateMain(int argc, char **argv,
                         quantopt::PostOptimizeHook postOptimize) {
  const quantopt::InputLimits &limits = quantopt::declareInputLimitOptions();
  cl::HideUnrelatedOptions(category);
  cl::ParseCommandLineOptions(
      argc, argv,
      "quant-translate: an LLVM-dialect module (quant-opt --qnt-to-llvm) to "
      "optimized LLVM IR, assembly or an object file\n");

  std::optional<CodeGenOptLevel> cgLevel = codeGenLevel(optLevel);
  if (!cgLevel)
    return fail("-O" + Twine(optLevel.getValue()) +
                ": expected -O0, -O1, -O2 or -O3");

  InitializeAllTargetInfos();
  InitializeAllTargets();
  InitializeAllTargetMCs();
  InitializeAllAsmPrinters();
  InitializeAllAsmParsers();

  // Parse the module: the LLVM dialect and everything that translates to
  // LLVM IR (ArmNeon, ArmSVE, ... intrinsics ops, DLTI).
  mlir::DialectRegistry registry;
  registry.insert<mlir::DLTIDialect, mlir::LLVM::LLVMDialect>();
  mlir::registerAllToLLVMIRTranslations(registry);
  mlir::MLIRContext context(registry);
  context.loadAllAvailableDialects();

  std::string error;
  std::unique_ptr<MemoryBuffer> input =
      quantopt::openLimitedInputFile(inputFilename, limits, &error);
  if (!input)
    return fail(error);
  auto sourceMgr = std::make_shared<SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(input), SMLoc());
  mlir::ParserConfig config(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (!module)
    return fail("cannot parse '" + inputFilename +
                "' (expected a module in the LLVM dialect, the output of "
                "quant-opt --qnt-to-llvm)");

  ModuleTarget target = readTarget(*module);
  if (!tripleOverride.empty())
    target.triple = tripleOverride;
  if (!cpuOverride.empty())
    target.cpu = cpuOverride;
  if (!featuresOverride.empty())
    target.features = featuresOverride;
  if (target.triple.empty())
    target.triple = sys::getDefaultTargetTriple();
  if (target.cpu.empty())
    target.cpu = "generic";
  ScopedFatalErrorHandler fatalErrorHandler(exitOnFatalError, &target.triple);

  // Before translation, which would materialize them.
  if (std::optional<std::string> message = checkGlobalSizes(*module))
    return fail(*message);

  LLVMContext llvmContext;
  std::unique_ptr<Module> llvmModule =
      mlir::translateModuleToLLVMIR(*module, llvmContext, inputFilename);
  if (!llvmModule)
    return fail("cannot translate '" + inputFilename + "' to LLVM IR");
  llvmContext.setDiagnosticHandler(
      std::make_unique<ExitOnErrorDiagnostic>(target.triple));

  Triple triple(target.triple);
  const Target *llvmTarget = TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget)
    return fail("no LLVM target for '" + target.triple + "': " + error);
  std::unique_ptr<MCSubtargetInfo> info(
      llvmTarget->createMCSubtargetInfo(triple, "", ""));
  if (!info)
    return fail("cannot read the CPU and feature tables of '" +
                target.triple + "'");
  if (std::optional<std::string> message = checkCpuAndFeatures(
          *info, triple, target.cpu, target.features,
          "--mcpu or the module's target", "--mattr or the module's target"))
    return fail(*message);
  // The functions' own attributes win over the target machine's, so the
  // flags replace them, and the values left are checked as the module's.
  for (Function &function : *llvmModule) {
    if (function.isDeclaration())
      continue;
    if (!cpuOverride.empty())
      function.addFnAttr("target-cpu", cpuOverride);
    if (!featuresOverride.empty())
      function.addFnAttr("target-features", featuresOverride);
    std::string name = function.getName().str();
    if (std::optional<std::string> message = checkCpuAndFeatures(
            *info, triple,
            function.getFnAttribute("target-cpu").getValueAsString(),
            function.getFnAttribute("target-features").getValueAsString(),
            "target_cpu of function '" + name + "'",
            "target_features of function '" + name + "'"))
      return fail(*message);
  }
  if (std::optional<std::string> message = checkIntrinsics(*llvmModule, triple))
    return fail(*message);
  TargetOptions options;
  // Constructors (e.g. the AMX kernels' tile permission request) go to
  // .init_array, as clang and llc emit them: glibc's start files and lld
  // do not run a .ctors section.
  options.UseInitArray = true;
  if (auto *abi = dyn_cast_or_null<MDString>(
          llvmModule->getModuleFlag("target-abi")))
    options.MCOptions.ABIName = abi->getString().str();
  // Position independent: the objects link into PIE executables, the
  // default of clang-22 and of Debian's gcc.
  std::unique_ptr<TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.cpu, target.features, options, Reloc::PIC_,
      std::nullopt, *cgLevel));
  if (!machine)
    return fail("cannot create a target machine for '" + target.triple +
                "' (cpu '" + target.cpu + "')");

  llvmModule->setTargetTriple(triple);
  std::string layout = machine->createDataLayout().getStringRepresentation();
  if (llvmModule->getDataLayoutStr().empty())
    llvmModule->setDataLayout(machine->createDataLayout());
  else if (llvmModule->getDataLayoutStr() != layout)
    return fail("the module's data layout '" +
                llvmModule->getDataLayoutStr() + "' is not " +
                target.triple + "'s '" + layout + "'");
  // Recorded as clang -fPIC does, so that llc compiles the .ll the same way.
  llvmModule->setPICLevel(PICLevel::BigPIC);

  optimize(*llvmModule, *machine, optLevel);
  if (postOptimize)
    postOptimize(*llvmModule, triple);
  if (verifyModule(*llvmModule, &errs()))
    return fail("the optimized module does not verify");

  std::unique_ptr<ToolOutputFile> output = mlir::openOutputFile(
      outputFilename, &error);
  if (!output)
    return fail(error);
  if (emitKind == EmitKind::LLVMIR) {
    llvmModule->print(output->os(), nullptr);
  } else {
    // Object writers seek back to patch headers; stdout may not seek.
    raw_pwrite_stream *os = &output->os();
    std::unique_ptr<buffer_ostream> buffered;
    if (!output->os().supportsSeeking()) {
      buffered = std::make_unique<buffer_ostream>(output->os());
      os = buffered.get();
    }
    legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, *os, nullptr,
                                     emitKind == EmitKind::Object
                                         ? CodeGenFileType::ObjectFile
                                         : CodeGenFileType::AssemblyFile))
      return fail("the target cannot emit this file type");
    codegen.run(*llvmModule);
  }
  output->keep();
  return 0;
}

int quantopt::quantTranslateMain(int argc, char **argv,
                                 PostOptimizeHook postOptimize) {
  // Deeply nested input must not overflow the main thread's stack.
  return runToolOnLargeStack(
      argc, argv, [&] { return translateMain(argc, argv, postOptimize); });
}
