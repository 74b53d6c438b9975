//===- Pipelines.cpp - quant-opt pass pipelines ---------------------------===//

#include "QuantOpt/Pipelines/Pipelines.h"
#include "QuantOpt/Pipelines/SafeCanonicalizer.h"

#include "OnlyIfPresent.h"
#include "PipelineInput.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"
#include "QuantOpt/Target/TargetInfo.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/Error.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <limits>
#include <mutex>
#include <optional>
#include <string>

using namespace mlir;

namespace {

/// The largest `threads=`: OpenMP's num_threads clause is an i32.
constexpr int64_t kMaxThreads = std::numeric_limits<int32_t>::max();

bool validThreads(int64_t threads) {
  return threads >= 0 && threads <= kMaxThreads;
}

std::string badThreadsMessage(int64_t threads) {
  return "qnt-to-llvm: threads=" + std::to_string(threads) +
         " is out of range; expected 1 (serial), 0 (chosen at run time) or a "
         "thread count up to " +
         std::to_string(kMaxThreads);
}

std::string unknownTargetMessage(StringRef name) {
  return ("qnt-to-llvm: unknown target '" + name + "'; expected " +
          quantopt::TargetInfo::knownNames())
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

  AttachTargetPass(std::string target, int64_t threads)
      : target(std::move(target)), threads(threads) {}

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
    // The pipeline's option checks, for a pipeline built directly.
    if (!validThreads(threads)) {
      module.emitError(badThreadsMessage(threads));
      return signalPassFailure();
    }
    std::optional<quantopt::TargetInfo> spec =
        quantopt::TargetInfo::resolve(target);
    if (!spec) {
      module.emitError(unknownTargetMessage(target));
      return signalPassFailure();
    }
    llvm::Expected<std::string> dataLayout = spec->getDataLayout();
    if (!dataLayout) {
      module.emitError("qnt-to-llvm: ")
          << llvm::toString(dataLayout.takeError());
      return signalPassFailure();
    }

    MLIRContext *ctx = &getContext();
    auto str = [&](StringRef s) { return StringAttr::get(ctx, s); };
    LLVM::TargetFeaturesAttr features;
    if (!spec->features.empty())
      features = LLVM::TargetFeaturesAttr::get(ctx, StringRef(spec->features));
    auto targetAttr =
        LLVM::TargetAttr::get(ctx, str(spec->triple), str(spec->cpu), features);
    if (failed(quantopt::verifyQntToLLVMInput(module, targetAttr)))
      return signalPassFailure();
    module->setAttr(LLVM::LLVMDialect::getTargetAttrName(), targetAttr);
    module->setAttr(LLVM::LLVMDialect::getTargetTripleAttrName(),
                    str(spec->triple));
    module->setAttr(LLVM::LLVMDialect::getDataLayoutAttrName(),
                    str(*dataLayout));
  }

  std::string target;
  int64_t threads;
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

    std::optional<quantopt::TargetInfo> spec =
        quantopt::TargetInfo::resolve(target);
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
      // Already there when the module was lowered before.
      if (llvm::is_contained(flags, flag))
        return;
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
    bool changed = false;
    getOperation().walk([&](memref::CopyOp copy) {
      if (!isa<MemRefType>(copy.getSource().getType()) ||
          !isa<MemRefType>(copy.getTarget().getType()))
        return;
      changed = true;
      OpBuilder builder(copy);
      linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                             copy.getTarget());
      copy.erase();
    });
    // Unchanged IR needs no new verification of the whole function.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

/// The architectures whose kernel passes `target=` can use. An unknown name
/// (reported by AttachTargetPass) schedules every kernel pass.
struct KernelArchs {
  bool x86 = true, aarch64 = true, riscv = true;
};

KernelArchs kernelArchs(StringRef target) {
  std::optional<quantopt::TargetInfo> spec =
      quantopt::TargetInfo::resolve(target);
  if (!spec)
    return {};
  llvm::Triple triple(spec->triple);
  KernelArchs archs;
  archs.x86 = triple.isX86();
  archs.aarch64 = triple.isAArch64();
  archs.riscv = triple.isRISCV();
  return archs;
}

/// Upstream's buffer deallocation pipeline with every pass that may rewrite
/// code nested on func.func, as LLVM's main branch now has it (LLVM 22 runs
/// its canonicalize and cse on the whole module): llvm.func bodies, e.g. of
/// an already lowered module, stay exactly as they are.
void addBufferDeallocationPasses(OpPassManager &pm) {
  pm.addPass(quantopt::createOnlyIfPresentPass(
      [](OpPassManager &m) {
        memref::ExpandReallocPassOptions expandOptions;
        expandOptions.emitDeallocs = false;
        m.addNestedPass<func::FuncOp>(
            memref::createExpandReallocPass(expandOptions));
      },
      [](Operation *op) { return isa<memref::ReallocOp>(op); }));
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  funcPm.addPass(quantopt::createSafeCanonicalizerPass());
  funcPm.addPass(bufferization::createOwnershipBasedBufferDeallocationPass());
  // As upstream's buffer-deallocation-pipeline: without this canonicalize,
  // buffer-deallocation-simplification segfaulted (in BufferOriginAnalysis)
  // on a call taking an i1 constant that the ownership pass had created twice
  // (test/Pipelines/dealloc-i1-call.mlir).
  funcPm.addPass(quantopt::createSafeCanonicalizerPass());
  // The simplification compares a dealloc's memrefs pair by pair; one
  // dealloc per block frees all its buffers, so a long function was
  // quadratic there. Fresh buffers never alias: split such deallocs first.
  funcPm.addPass(qnt::createQntSplitLargeDeallocs());
  funcPm.addPass(bufferization::createBufferDeallocationSimplificationPass());
  pm.addPass(bufferization::createLowerDeallocationsPass());
  OpPassManager &cleanupPm = pm.nest<func::FuncOp>();
  cleanupPm.addPass(createCSEPass());
  cleanupPm.addPass(quantopt::createSafeCanonicalizerPass());
  // Deallocation frees a block's buffers at its end: all of a network's
  // buffers were alive at once.
  cleanupPm.addPass(qnt::createQntDeallocAfterLastUse());
}

} // namespace

void quantopt::buildQntToLLVMPipeline(OpPassManager &pm,
                                      const QuantOptPipelineOptions &options) {
  buildQntToKernelsPipeline(pm, options);
  buildQntKernelsToLLVMPipeline(pm, options);
}

void quantopt::buildQntToKernelsPipeline(
    OpPassManager &pm, const QuantOptPipelineOptions &options) {
  pm.addPass(std::make_unique<AttachTargetPass>(options.target,
                                                options.threads));

  // Per-axis types must survive the shape ops before anything relies on
  // their axis.
  pm.addPass(qnt::createQntVerifyPerAxisShapes());

  // Public qnt ops to explicit integer IR. Clean-ups run on func.func only:
  // llvm.func bodies of an already lowered module pass through unchanged.
  pm.addNestedPass<func::FuncOp>(quantopt::createSafeCanonicalizerPass());
  OpPassManager &funcPm = pm.nest<func::FuncOp>();
  // Runtime-scale ops first: qnt-strip-quant-types erases the signedness of
  // the ui8 tensors they read and write.
  funcPm.addPass(qnt::createQntDynamicScalesToLinalg());
  funcPm.addPass(qnt::createQntEraseEmptyResults());
  funcPm.addPass(qnt::createQntNetworkToInteger());
  funcPm.addPass(qnt::createQntFoldZeroPoints());
  funcPm.addPass(qnt::createQntSymmetricWeights());
  funcPm.addPass(qnt::createQntFixedPointMultiplier());
  pm.addPass(qnt::createQntStripQuantTypes());
  pm.addNestedPass<func::FuncOp>(quantopt::createSafeCanonicalizerPass());

  // Target microkernels for the contractions they can take (the rest, and
  // every other integer op, go through the generic lowering below).
  // Each pass itself checks the module's llvm.target (attached above from
  // the same `target=`); only the passes of the target's architecture are
  // scheduled, because a pass that returns without changing anything still
  // costs a verification of the whole function. Their rewrites leave foldable
  // index arithmetic and repeated constants: the clean-up is the pipeline's.
  // AMX-INT8 first (it takes the matmuls it can where the target has AMX),
  // then AVX-512 VNNI for the rest.
  KernelArchs archs = kernelArchs(options.target);
  if (archs.x86) {
    pm.addPass(qnt::createQntToX86Amx());
    pm.addNestedPass<func::FuncOp>(qnt::createQntToX86Vnni());
  }
  if (!options.genericContractions) {
    if (archs.aarch64)
      pm.addNestedPass<func::FuncOp>(qnt::createQntToArmNeon());
    if (archs.riscv)
      pm.addNestedPass<func::FuncOp>(qnt::createQntToRiscvV());
  }
  // No CSE here: the layers' top-level loops share their operands (constants,
  // tensor.empty), so CSE would compare every layer's loop nest with every
  // other's (quadratic in the layer count). The CSE after bufferization
  // merges the same index arithmetic once the loops have memory effects.
  pm.addNestedPass<func::FuncOp>(quantopt::createSafeCanonicalizerPass());
}

/// The `nontemporal-min-bytes` option resolved: 0 when no op is to use
/// non-temporal stores.
static int64_t
nontemporalMinBytes(const quantopt::QuantOptPipelineOptions &options) {
  if (options.nontemporalMinBytes >= 0)
    return options.nontemporalMinBytes;
  if (options.target != "host" ||
      !llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    return 0;
  std::optional<uint64_t> cache =
      quantopt::TargetInfo::hostLastLevelCacheBytes();
  // Cloud VMs often hide both cache descriptions; ordinary stores then lost
  // a third beyond the cache (docs/RuntimeScales.md). 32 MiB is one CCD's
  // L3 on AMD Zen 2 to 5, where such VMs were measured.
  constexpr int64_t kHiddenCacheBytes = int64_t(32) << 20;
  return cache ? static_cast<int64_t>(*cache) : kHiddenCacheBytes;
}

void quantopt::buildQntKernelsToLLVMPipeline(
    OpPassManager &pm, const QuantOptPipelineOptions &options) {

  // Each lowering that may find nothing to lower (every contraction taken by
  // a kernel, no math, no affine, ...) runs only if its input is there
  // (OnlyIfPresent.h): an idle pass still costs a walk and a verification of
  // the whole module, a large share of the compile time of a deep network.
  // Integer IR to linalg on tensors, then to buffers.
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) {
        m.addNestedPass<func::FuncOp>(qnt::createQntToLinalg());
      },
      opsOfDialect<qnt::QntDialect>()));
  // Float islands: linalg.softmax into linalg.generic, on tensors.
  pm.addNestedPass<func::FuncOp>(qnt::createQntDecomposeFloatIslands());
  // The qnt passes may leave elementwise arith on tensors (bias corrections),
  // which bufferization does not handle.
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) {
        m.addNestedPass<func::FuncOp>(createConvertElementwiseToLinalgPass());
      },
      [](Operation *op) {
        // The pass's own criterion (ElementwiseToLinalg.cpp).
        return OpTrait::hasElementwiseMappableTraits(op) &&
               llvm::any_of(op->getOperandTypes(),
                            llvm::IsaPred<RankedTensorType>);
      }));
  pm.addPass(std::make_unique<EmitCInterfacePass>());
  // A tensor.empty shared by several layers (the pipeline runs no CSE on
  // tensors, but the input may have one) is split so that bufferization's
  // analysis stays per layer (linear time).
  pm.addNestedPass<func::FuncOp>(qnt::createQntSplitSharedEmptyTensors());
  bufferization::OneShotBufferizePassOptions bufferizeOptions;
  bufferizeOptions.bufferizeFunctionBoundaries = true;
  bufferizeOptions.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // A tensor carried through scf.for / scf.while gets a new buffer in each
  // iteration (anything but an in-place update); ownership-based
  // deallocation frees the old one.
  bufferizeOptions.allowReturnAllocsFromLoops = true;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferizeOptions));
  // Bufferization names its constant globals in an order that changes from
  // run to run; the output must not.
  pm.addPass(qnt::createQntNumberConstantGlobals());
  addBufferDeallocationPasses(pm);
  // Deallocation clones a returned function argument (bufferization.clone):
  // an alloc + memref.copy, which CopyToLinalgPass then makes a loop.
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) {
        m.addPass(createConvertBufferizationToMemRefPass());
      },
      opsOfDialect<bufferization::BufferizationDialect>()));

  // Loops, then the LLVM dialect.
  pm.addNestedPass<func::FuncOp>(std::make_unique<CopyToLinalgPass>());
  if (int64_t minBytes = nontemporalMinBytes(options); minBytes > 0) {
    qnt::QntNontemporalStoresOptions nontemporal;
    nontemporal.minBytes = minBytes;
    pm.addPass(createOnlyIfPresentPass(
        [&](OpPassManager &m) {
          m.addNestedPass<func::FuncOp>(
              qnt::createQntNontemporalStores(nontemporal));
        },
        opsOfDialect<linalg::LinalgDialect>()));
  }
  bool parallel = options.threads != 1;
  pm.addPass(createOnlyIfPresentPass(
      [&](OpPassManager &m) {
        if (parallel)
          m.addNestedPass<func::FuncOp>(qnt::createQntLinalgToTileLoops());
        m.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
      },
      opsOfDialect<linalg::LinalgDialect>()));
  if (parallel) {
    // One output-tile loop per kernel becomes scf.parallel, then an OpenMP
    // work-sharing loop (docs/Parallelism.md).
    qnt::QntParallelizeTilesOptions tiles;
    tiles.minTrips = std::max<int64_t>(8, 2 * options.threads);
    tiles.minWork = options.parallelMinWork;
    tiles.report = options.parallelReport;
    pm.addNestedPass<func::FuncOp>(qnt::createQntParallelizeTiles(tiles));
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = static_cast<unsigned>(options.threads);
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
    // The conversion wraps each loop body in memref.alloca_scope; the
    // kernels allocate nothing there, and canonicalization inlines such
    // scopes, which must go before scf-to-cf makes the bodies multi-block.
    pm.addNestedPass<func::FuncOp>(quantopt::createSafeCanonicalizerPass());
  }
  pm.addPass(memref::createExpandStridedMetadataPass());
  // Only transfers that convert-vector-to-llvm cannot take (not 1-D,
  // permuted or broadcast maps, masks, a memref whose last dimension is
  // strided, e.g. a kernel operand sliced with a step) and vector.print
  // need it; the kernels' 1-D minor-identity transfers lower directly. Its
  // loops (scf.for) and index arithmetic (affine.apply) lower below.
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) { m.addPass(createConvertVectorToSCFPass()); },
      [](Operation *op) {
        if (isa<vector::PrintOp>(op))
          return true;
        auto transfer = dyn_cast<VectorTransferOpInterface>(op);
        if (!transfer)
          return false;
        auto memref = dyn_cast<MemRefType>(transfer.getShapedType());
        return transfer.getVectorType().getRank() != 1 ||
               !transfer.getPermutationMap().isMinorIdentity() ||
               transfer.getMask() || (memref && !memref.isLastDimUnitStride());
      }));
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) { m.addPass(createLowerAffinePass()); },
      opsOfDialect<affine::AffineDialect>()));
  // Top-level loops in blocks of their own: scf-to-cf then splits each
  // block in linear total time (a long function was quadratic there).
  pm.addNestedPass<func::FuncOp>(qnt::createQntSplitBlocksAtRegions());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) {
        m.addPass(createConvertMathToLLVMPass());
        // Math functions without an LLVM intrinsic (math.erf, ...) become
        // libm calls, which every target's static link resolves with -lm.
        m.addPass(createConvertMathToLibmPass());
      },
      opsOfDialect<math::MathDialect>()));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // The kernels' qnt_kernel ops implement upstream's X86IntrinsicOpInterface
  // and become intrinsic calls with the x86vector patterns.
  ConvertVectorToLLVMPassOptions vectorToLLVM;
  vectorToLLVM.x86Vector = true;
  // The AMX kernels' amx.tile_* ops (qnt-x86-amx).
  vectorToLLVM.amx = true;
  pm.addPass(createConvertVectorToLLVMPass(vectorToLLVM));
  // Masks of the scalable RISC-V kernels lower through arith (vector.step,
  // compares), after the arith conversion above.
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) { m.addPass(createArithToLLVMConversionPass()); },
      opsOfDialect<arith::ArithDialect>()));
  // Branches lower after the vector conversion: its greedy preprocessing
  // merges blocks that have become identical (the two arms of an scf.if
  // whose kernels read different buffers) into one that takes the buffers
  // as arguments, which cf-to-llvm then converts like any other; lowered
  // before, the merged llvm.cond_br carried memrefs and failed to verify.
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) { m.addPass(createConvertIndexToLLVMPass()); },
      opsOfDialect<index::IndexDialect>()));
  // The padding (ub.poison) of a transfer that convert-vector-to-scf
  // turned into a loop.
  pm.addPass(createOnlyIfPresentPass(
      [](OpPassManager &m) { m.addPass(createUBToLLVMConversionPass()); },
      opsOfDialect<ub::UBDialect>()));
  if (parallel)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // Canonical output: module-level passes with a greedy driver
  // (bufferization-lower-deallocations, expand-strided-metadata) fold every
  // op of the module, so lowering an already lowered module again changes
  // nothing only if what it holds is already folded.
  // One canonicalize + CSE reaches that fixed point: a second canonicalize
  // after the CSE changed nothing on any test input (relower.mlir checks it).
  OpPassManager &llvmFuncPm = pm.nest<LLVM::LLVMFuncOp>();
  llvmFuncPm.addPass(quantopt::createSafeCanonicalizerPass());
  llvmFuncPm.addPass(createCSEPass());
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
          if (!quantopt::TargetInfo::resolve(options.target))
            return errorHandler(unknownTargetMessage(options.target));
          if (!validThreads(options.threads))
            return errorHandler(badThreadsMessage(options.threads));
          if (options.parallelMinWork < 0)
            return errorHandler("qnt-to-llvm: parallel-min-work must be at "
                                "least 0");
          if (options.nontemporalMinBytes < -1)
            return errorHandler("qnt-to-llvm: nontemporal-min-bytes must be "
                                "-1 (from the target), 0 (never) or a size "
                                "in bytes");
          buildQntToLLVMPipeline(pm, options);
          return success();
        },
        [](function_ref<void(const detail::PassOptions &)> optHandler) {
          optHandler(QuantOptPipelineOptions());
        });
  });
}
