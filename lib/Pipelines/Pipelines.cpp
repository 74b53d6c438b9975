//===- Pipelines.cpp - quant-opt pass pipelines ---------------------------===//

#include "QuantOpt/Pipelines/Pipelines.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <mutex>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// A target name of the `target` option, resolved to what LLVM needs: the
/// triple, the CPU and its features (as `llc -mtriple -mcpu -mattr` take
/// them) and, where the triple's default is not the one the Linux sysroot
/// uses, the ABI (`-target-abi`).
struct TargetSpec {
  std::string triple;
  std::string cpu;
  std::string features; // comma-separated, "+avx512vnni,+neon"
  std::string abi;      // empty: the triple's default
};

void initializeLLVMTargets() {
  static std::once_flag initTargets;
  std::call_once(initTargets, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
  });
}

/// The host's features (llvm::sys::getHostCPUFeatures, in LLVM's names)
/// that differ from what the host CPU name already implies, sorted:
/// `target-cpu` plus these is exactly the host, as with clang's
/// -march=native, without repeating a hundred implied names on every
/// function. Empty when LLVM knows the host CPU by name.
std::string hostFeatures(const std::string &triple, StringRef cpu) {
  initializeLLVMTargets();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error);
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      target ? target->createMCSubtargetInfo(triple, cpu, "") : nullptr);
  std::vector<std::string> features;
  for (const auto &entry : llvm::sys::getHostCPUFeatures()) {
    StringRef name = entry.getKey();
    std::string feature = (entry.getValue() ? "+" : "-") + name.str();
    bool known = subtarget && llvm::any_of(
                                  subtarget->getAllProcessorFeatures(),
                                  [&](const llvm::SubtargetFeatureKV &kv) {
                                    return name == kv.Key;
                                  });
    if (known && subtarget->checkFeatures(feature))
      continue; // the CPU name already says so
    features.push_back(std::move(feature));
  }
  llvm::sort(features, [](const std::string &a, const std::string &b) {
    return StringRef(a).drop_front() < StringRef(b).drop_front();
  });
  return llvm::join(features, ",");
}

/// Validates a `target` option value; nullopt for an unknown name.
///   x86_64   x86-64-v4 (AVX-512 F/BW/CD/DQ/VL) + VNNI: 512-bit vpdpbusd
///   aarch64  NEON + dot product (sdot/udot/usdot) + i8mm (smmla)
///   riscv64  RV64GC + V (RVV 1.0), the lp64d ABI of Debian's sysroot
///   host     the process triple, the host CPU and where the host differs
///            from that CPU (hostFeatures)
std::optional<TargetSpec> resolveTarget(StringRef name) {
  if (name == "host") {
    std::string triple = llvm::sys::getProcessTriple();
    // Debian's riscv64 userland is lp64d; LLVM's default for a bare triple
    // is not.
    std::string abi =
        llvm::Triple(triple).getArch() == llvm::Triple::riscv64 ? "lp64d" : "";
    std::string cpu = llvm::sys::getHostCPUName().str();
    return TargetSpec{triple, cpu, hostFeatures(triple, cpu), abi};
  }
  return llvm::StringSwitch<std::optional<TargetSpec>>(name)
      .Case("x86_64", TargetSpec{"x86_64-unknown-linux-gnu", "x86-64-v4",
                                 "+avx512vnni", ""})
      .Case("aarch64", TargetSpec{"aarch64-unknown-linux-gnu", "generic",
                                  "+neon,+dotprod,+i8mm", ""})
      .Case("riscv64", TargetSpec{"riscv64-unknown-linux-gnu", "generic-rv64",
                                  "+m,+a,+f,+d,+c,+v", "lp64d"})
      .Default(std::nullopt);
}

/// True when the target executes AVX-512 VNNI (`vpdpbusd`): the named
/// x86_64 target, or a host whose CPU has it.
bool hasAvx512Vnni(StringRef target) {
  if (target == "x86_64")
    return true;
  if (target != "host")
    return false;
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  return features.lookup("avx512vnni") && features.lookup("avx512bw");
}

std::string unknownTargetMessage(StringRef name) {
  return ("qnt-to-llvm: unknown target '" + name +
          "'; expected host, x86_64, aarch64 or riscv64")
      .str();
}

/// Records the target on the module: `llvm.target` (#llvm.target<triple,
/// chip, features>) for later passes and quant-translate, and
/// `llvm.target_triple` / `llvm.data_layout`, which the translation to LLVM
/// IR reads. The data layout comes from LLVM's own TargetMachine rather than
/// a table that could drift from it.
struct AttachTargetPass
    : PassWrapper<AttachTargetPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AttachTargetPass)

  explicit AttachTargetPass(std::string target) : target(std::move(target)) {}

  StringRef getArgument() const final { return "qnt-attach-target"; }
  StringRef getDescription() const final {
    return "Record the target triple, CPU, features and data layout on the "
           "module";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<LLVM::LLVMDialect>();
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    std::optional<TargetSpec> spec = resolveTarget(target);
    if (!spec) {
      module.emitError(unknownTargetMessage(target));
      return signalPassFailure();
    }
    initializeLLVMTargets();
    llvm::Triple triple(spec->triple);
    std::string error;
    const llvm::Target *llvmTarget =
        llvm::TargetRegistry::lookupTarget(triple, error);
    llvm::TargetOptions targetOptions;
    targetOptions.MCOptions.ABIName = spec->abi;
    std::unique_ptr<llvm::TargetMachine> machine(
        llvmTarget ? llvmTarget->createTargetMachine(triple, spec->cpu,
                                                     spec->features,
                                                     targetOptions,
                                                     std::nullopt)
                   : nullptr);
    if (!machine) {
      module.emitError("qnt-to-llvm: LLVM cannot target '")
          << spec->triple << "': " << error;
      return signalPassFailure();
    }

    MLIRContext *ctx = &getContext();
    auto str = [&](StringRef s) { return StringAttr::get(ctx, s); };
    LLVM::TargetFeaturesAttr features;
    if (!spec->features.empty())
      features = LLVM::TargetFeaturesAttr::get(ctx, StringRef(spec->features));
    module->setAttr(LLVM::LLVMDialect::getTargetAttrName(),
                    LLVM::TargetAttr::get(ctx, str(spec->triple),
                                          str(spec->cpu), features));
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    str(spec->triple));
    module->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    str(machine->createDataLayout().getStringRepresentation()));
  }

  std::string target;
};

/// Copies the module's `llvm.target` CPU and features onto every
/// `llvm.func` definition (`target_cpu` / `target_features`, translated to
/// the "target-cpu" / "target-features" function attributes, which is where
/// LLVM's code generators look for them), and records a non-default ABI as
/// the "target-abi" module flag (as clang does): with these, llc-22 and
/// clang-22 compile the translated IR for the target with no extra flag.
/// Runs last, once every function is an llvm.func.
struct AttachTargetToFunctionsPass
    : PassWrapper<AttachTargetToFunctionsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(AttachTargetToFunctionsPass)

  explicit AttachTargetToFunctionsPass(std::string target)
      : target(std::move(target)) {}

  StringRef getArgument() const final {
    return "qnt-attach-target-to-functions";
  }
  StringRef getDescription() const final {
    return "Put the module's target CPU and features on every llvm.func "
           "definition";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<LLVM::LLVMDialect>();
  }

  void runOnOperation() final {
    ModuleOp module = getOperation();
    auto targetAttr = module->getAttrOfType<LLVM::TargetAttr>(
        LLVM::LLVMDialect::getTargetAttrName());
    if (!targetAttr) {
      module.emitError("qnt-to-llvm: the module has no llvm.target");
      return signalPassFailure();
    }
    for (auto func : module.getOps<LLVM::LLVMFuncOp>()) {
      if (func.isExternal())
        continue;
      func.setTargetCpuAttr(targetAttr.getChip());
      if (!targetAttr.getFeatures().nullOrEmpty())
        func.setTargetFeaturesAttr(targetAttr.getFeatures());
    }

    std::optional<TargetSpec> spec = resolveTarget(target);
    if (!spec || spec->abi.empty())
      return;
    MLIRContext *ctx = &getContext();
    auto flag = LLVM::ModuleFlagAttr::get(
        ctx, LLVM::ModFlagBehavior::Error, StringAttr::get(ctx, "target-abi"),
        StringAttr::get(ctx, spec->abi));
    auto existing = module.getOps<LLVM::ModuleFlagsOp>();
    if (!existing.empty()) {
      LLVM::ModuleFlagsOp flagsOp = *existing.begin();
      SmallVector<Attribute> flags(flagsOp.getFlags().begin(),
                                   flagsOp.getFlags().end());
      flags.push_back(flag);
      flagsOp.setFlagsAttr(ArrayAttr::get(ctx, flags));
      return;
    }
    OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
    LLVM::ModuleFlagsOp::create(builder, module.getLoc(),
                                builder.getArrayAttr({flag}));
  }

  std::string target;
};

/// Makes every public function with a body callable from C through
/// `_mlir_ciface_<name>`. Declarations are left alone: the attribute would
/// redirect their calls to a `_mlir_ciface_` symbol nobody defines.
struct EmitCInterfacePass
    : PassWrapper<EmitCInterfacePass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EmitCInterfacePass)

  StringRef getArgument() const final { return "qnt-emit-c-interface"; }
  StringRef getDescription() const final {
    return "Attach llvm.emit_c_interface to public function definitions";
  }

  void runOnOperation() final {
    for (auto func : getOperation().getOps<func::FuncOp>())
      if (func.isPublic() && !func.isDeclaration())
        func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                      UnitAttr::get(&getContext()));
  }
};

/// Rewrites memref.copy as linalg.copy so that it becomes loops: the
/// strided copies bufferization makes (tensor.pad into a subview) would
/// otherwise lower to a call to `memrefCopy` from the MLIR runner library,
/// which compiled code does not link.
struct CopyToLinalgPass
    : PassWrapper<CopyToLinalgPass, OperationPass<func::FuncOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CopyToLinalgPass)

  StringRef getArgument() const final { return "qnt-copy-to-linalg"; }
  StringRef getDescription() const final {
    return "Rewrite ranked memref.copy as linalg.copy";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry.insert<linalg::LinalgDialect>();
  }

  void runOnOperation() final {
    getOperation().walk([](memref::CopyOp copy) {
      if (!isa<MemRefType>(copy.getSource().getType()) ||
          !isa<MemRefType>(copy.getTarget().getType()))
        return;
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
  }
};

} // namespace

void quantopt::buildQntToLLVMPipeline(OpPassManager &pm,
                                      const QuantOptPipelineOptions &options) {
  pm.addPass(std::make_unique<AttachTargetPass>(options.target));

  // Per-axis types must survive the shape ops before anything relies on
  // their axis.
  pm.addPass(qnt::createQntVerifyPerAxisShapes());

  // Public qnt ops to explicit integer IR.
  pm.addPass(createCanonicalizerPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(qnt::createQntNetworkToInteger());
  funcPm.addPass(qnt::createQntFoldZeroPoints());
  funcPm.addPass(qnt::createQntSymmetricWeights());
  funcPm.addPass(qnt::createQntFixedPointMultiplier());
  pm.addPass(qnt::createQntStripQuantTypes());
  pm.addPass(createCanonicalizerPass());

  // Target microkernels for the contractions they can take (the rest, and
  // every other integer op, go through the generic lowering below).
  if (hasAvx512Vnni(options.target))
    pm.addNestedPass<func::FuncOp>(qnt::createQntToX86Vnni());

  // Integer IR to linalg on tensors, then to buffers.
  pm.addNestedPass<func::FuncOp>(qnt::createQntToLinalg());
  // Float islands: linalg.softmax into linalg.generic, on tensors.
  pm.addNestedPass<func::FuncOp>(qnt::createQntDecomposeFloatIslands());
  // The qnt passes may leave elementwise arith on tensors (bias corrections),
  // which bufferization does not handle.
  pm.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
  pm.addPass(std::make_unique<EmitCInterfacePass>());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  bufferization::buildBufferDeallocationPipeline(pm);
  // Deallocation clones a returned function argument (bufferization.clone):
  // an alloc + memref.copy, which CopyToLinalgPass then makes a loop.
  pm.addPass(createConvertBufferizationToMemRefPass());

  // Loops, then the LLVM dialect.
  pm.addNestedPass<func::FuncOp>(std::make_unique<CopyToLinalgPass>());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertVectorToSCFPass());
  pm.addPass(createConvertMathToLLVMPass());
  // Math functions without an LLVM intrinsic (math.erf, ...) become libm
  // calls, which every target's static link resolves with -lm.
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(std::make_unique<AttachTargetToFunctionsPass>(options.target));
}

void quantopt::registerQuantOptPipelines() {
  // Registering a pipeline name twice is a fatal error; embedders may call
  // registerAllPasses more than once.
  static std::once_flag registered;
  std::call_once(registered, [] {
    // PassPipelineRegistration cannot reject an option value, so register
    // the builder directly: an unknown target is reported while the
    // pipeline is parsed, before any IR is touched.
    registerPassPipeline(
        "qnt-to-llvm", "Lower qnt ops on quantized tensors to the LLVM dialect",
        [](OpPassManager &pm, StringRef optionsStr,
           function_ref<LogicalResult(const Twine &)> errorHandler) {
          QuantOptPipelineOptions options;
          if (failed(options.parseFromString(optionsStr)))
            return failure();
          if (!resolveTarget(options.target))
            return errorHandler(unknownTargetMessage(options.target));
          buildQntToLLVMPipeline(pm, options);
          return success();
        },
        [](function_ref<void(const detail::PassOptions &)> optHandler) {
          optHandler(QuantOptPipelineOptions());
        });
  });
}
