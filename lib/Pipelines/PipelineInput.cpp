//===- PipelineInput.cpp - what --qnt-to-llvm accepts as input ------------===//

#include "PipelineInput.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace mlir;

/// Bytes per element of `type` as a buffer stores it, or nullopt for
/// element types that are not stored by value here.
static std::optional<int64_t> elementBytes(Type type) {
  if (auto quantized = dyn_cast<quant::QuantizedType>(type))
    type = quantized.getStorageType();
  if (isa<IndexType>(type))
    return 8;
  if (type.isIntOrFloat())
    return (static_cast<int64_t>(type.getIntOrFloatBitWidth()) + 7) / 8;
  return std::nullopt;
}

/// Whether a value of `type` fits a buffer whose size int64 counts (its
/// dynamic dimensions taken as 1).
static bool sizeFitsInt64(ShapedType type) {
  if (!type.hasRank())
    return true;
  std::optional<int64_t> bytes = elementBytes(type.getElementType());
  if (!bytes)
    return true;
  int64_t total = *bytes;
  for (int64_t dim : type.getShape())
    if (!ShapedType::isDynamic(dim) && llvm::MulOverflow(total, dim, total))
      return false;
  return true;
}

/// The largest rank the pipeline takes (numpy's limit before 2.0). Each
/// dimension becomes one loop of a nest, and upstream's region
/// simplification recurses once per loop: a rank in the thousands overflowed
/// the stack.
static constexpr int64_t kMaxRank = 32;

static LogicalResult verifySizes(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    auto tooLarge = [&](Value value, StringRef role, unsigned index) {
      auto type = dyn_cast<ShapedType>(value.getType());
      if (!type)
        return false;
      if (type.hasRank() && type.getRank() > kMaxRank) {
        op->emitOpError() << role << " #" << index << " has rank "
                          << type.getRank() << ": qnt-to-llvm takes ranks up "
                          << "to " << kMaxRank;
        return true;
      }
      if (sizeFitsInt64(type))
        return false;
      op->emitOpError() << role << " #" << index << " of type " << type
                        << " holds more than 2^63 - 1 bytes: no buffer can "
                           "hold it";
      return true;
    };
    for (auto [i, result] : llvm::enumerate(op->getResults()))
      if (tooLarge(result, "result", i))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (auto [i, argument] : llvm::enumerate(block.getArguments()))
          if (tooLarge(argument, "block argument", i))
            return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// The quantized element type `type` holds (itself, or the elements of a
/// shaped type) when it is not one the pipeline lowers: `!quant.uniform`
/// per tensor or per axis.
static quant::QuantizedType unsupportedQuantizedType(Type type) {
  if (auto shaped = dyn_cast<ShapedType>(type))
    type = shaped.getElementType();
  auto quantized = dyn_cast<quant::QuantizedType>(type);
  if (!quantized || isa<quant::UniformQuantizedType,
                        quant::UniformQuantizedPerAxisType>(quantized))
    return {};
  return quantized;
}

/// `!quant.calibrated` (no storage type at all), `!quant.any` and sub-channel
/// types have no codes the pipeline can lower: a calibrated tensor crashed
/// it, a tensor of `!quant.any` came out half lowered with exit code 0.
static LogicalResult verifyQuantizedTypes(ModuleOp module) {
  auto report = [](Operation *op, Type type, StringRef role, unsigned index) {
    quant::QuantizedType element = unsupportedQuantizedType(type);
    if (!element)
      return false;
    op->emitOpError() << role << " #" << index << " has type " << type
                      << " of quantized element type " << element
                      << ": qnt-to-llvm lowers !quant.uniform types, per "
                         "tensor or per axis, only";
    return true;
  };
  WalkResult walk = module.walk([&](Operation *op) {
    for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
      if (report(op, type, "operand", i))
        return WalkResult::interrupt();
    for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
      if (report(op, type, "result", i))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (auto [i, argument] : llvm::enumerate(block.getArguments()))
          if (report(op, argument.getType(), "block argument", i))
            return WalkResult::interrupt();
    if (auto function = dyn_cast<FunctionOpInterface>(op)) {
      for (auto [i, type] : llvm::enumerate(function.getArgumentTypes()))
        if (report(op, type, "argument", i))
          return WalkResult::interrupt();
      for (auto [i, type] : llvm::enumerate(function.getResultTypes()))
        if (report(op, type, "function result", i))
          return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// Upstream ops on tensors that no bufferization interface lowers (on any
/// element type): reported by name rather than as bufferization's "op was
/// not bufferized" (gather / scatter, linalg.pack / unpack, an affine.for
/// carrying a tensor).
static LogicalResult verifyBufferizable(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (isa<tensor::GatherOp, tensor::ScatterOp>(op)) {
      op->emitOpError("is not supported by qnt-to-llvm: bufferization has no "
                      "lowering for it; index single elements with "
                      "tensor.extract / tensor.insert, or move blocks with "
                      "tensor.extract_slice / tensor.insert_slice");
      found = true;
    } else if (isa<linalg::PackOp, linalg::UnPackOp>(op) &&
               isa<RankedTensorType>(op->getResult(0).getType())) {
      op->emitOpError("on tensors is not supported by qnt-to-llvm: "
                      "bufferization has no lowering for it; the kernels "
                      "pack their operands themselves");
      found = true;
    } else if (auto loop = dyn_cast<affine::AffineForOp>(op);
               loop &&
               llvm::any_of(loop.getResultTypes(), llvm::IsaPred<TensorType>)) {
      op->emitOpError("carries a tensor, which bufferization does not "
                      "lower; carry it through scf.for");
      found = true;
    }
  });
  return failure(found);
}

/// TOSA ops have no lowering here, and the canonicalizations that run
/// first (upstream's, for tosa.clamp on an unranked tensor) may crash on
/// them: they are --tosa-to-llvm's input.
static LogicalResult verifyNoTosa(ModuleOp module) {
  WalkResult result = module.walk([](Operation *op) {
    if (op->getName().getDialectNamespace() != "tosa")
      return WalkResult::advance();
    op->emitOpError("is a TOSA op, which qnt-to-llvm does not lower; compile "
                    "TOSA input with --tosa-to-llvm");
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// A module whose functions are already llvm.func definitions was lowered
/// for the target recorded on it.
static LogicalResult verifyNotLoweredElsewhere(ModuleOp module,
                                               LLVM::TargetAttr target) {
  auto recorded = module->getAttrOfType<LLVM::TargetAttr>(
      LLVM::LLVMDialect::getTargetAttrName());
  if (!recorded || recorded == target)
    return success();
  bool lowered = llvm::any_of(module.getOps<LLVM::LLVMFuncOp>(),
                              [](LLVM::LLVMFuncOp f) { return !f.isExternal(); });
  if (!lowered)
    return success();
  return module.emitError("qnt-to-llvm: the module holds code already "
                          "lowered for ")
         << recorded
         << ", whose kernels cannot run on the requested target " << target
         << "; lower the original module for that target instead";
}

/// The pipeline lowers the functions of one module; a nested module would
/// pass through untouched, and its qnt ops reach the LLVM translation.
static LogicalResult verifyNoNestedModules(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations())
    if (auto nested = dyn_cast<ModuleOp>(op))
      return nested.emitError("qnt-to-llvm lowers the functions of one "
                              "module: a nested 'builtin.module' is not "
                              "supported; lower it as a module of its own");
  return success();
}

namespace {
/// A symbol name the lowered code calls.
struct ReservedName {
  StringRef role;
  /// Whether a declaration breaks it too: the lowering renames its own
  /// allocator calls away from any func.func of that name, to a symbol
  /// nothing defines. A declaration of any other name is the library's.
  bool declarationsToo;
};
} // namespace

/// What the lowered code calls by name: the C allocator (memref
/// allocations), the C math library (math ops without an LLVM intrinsic,
/// which upstream's conversion calls through whatever function of that name
/// the module already holds), the OpenMP runtime (threads != 1), the C
/// interface wrappers and our own helpers.
static std::optional<ReservedName> reservedName(StringRef name) {
  static const llvm::StringSet<> allocator = {"malloc", "free",
                                              "aligned_alloc"};
  static const llvm::StringSet<> libm = [] {
    llvm::StringSet<> names;
    for (StringRef fn :
         {"acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt",
          "ceil", "cos", "cosh", "erf", "erfc", "exp", "exp2", "expm1",
          "floor", "fma", "log", "log10", "log1p", "log2", "pow", "rint",
          "round", "roundeven", "sin", "sinh", "sqrt", "tan", "tanh",
          "trunc"}) {
      names.insert(fn);
      names.insert((fn + "f").str());
    }
    return names;
  }();
  if (allocator.contains(name))
    return ReservedName{"the C allocator the lowered code calls", true};
  if (libm.contains(name))
    return ReservedName{"the C math function the lowered math ops call",
                        false};
  if (name.starts_with("__kmpc_") || name.starts_with("omp_"))
    return ReservedName{"the OpenMP runtime that threads != 1 calls", false};
  if (name.starts_with("_mlir_ciface_"))
    return ReservedName{"the C interface wrappers the lowering adds", false};
  if (name.starts_with("__qnt_"))
    return ReservedName{"quant-opt's own generated helpers", false};
  return std::nullopt;
}

/// A function defined under a reserved name would take the library's
/// place.
static LogicalResult verifyNoReservedNames(ModuleOp module) {
  for (auto func : module.getOps<func::FuncOp>()) {
    std::optional<ReservedName> reserved = reservedName(func.getSymName());
    if (!reserved || (func.isDeclaration() && !reserved->declarationsToo))
      continue;
    return func.emitError("qnt-to-llvm: function name '")
           << func.getSymName() << "' is reserved for " << reserved->role
           << "; a function of that name would take its place (rename it)";
  }
  return success();
}

/// The deepest region nesting the pipeline takes. Real models nest a few
/// loops; 20000 nested scf.if took two minutes to compile (several passes
/// walk the nest once per level).
static constexpr int64_t kMaxRegionDepth = 1000;

static LogicalResult verifyRegionDepth(ModuleOp module) {
  llvm::DenseMap<Operation *, int64_t> depth;
  depth[module] = 0;
  WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == module.getOperation())
      return WalkResult::advance();
    Operation *parent = op->getParentOp();
    int64_t level = depth.lookup(parent) + 1;
    depth[op] = level;
    if (level <= kMaxRegionDepth)
      return WalkResult::advance();
    op->emitOpError() << "is nested " << level
                      << " regions deep: qnt-to-llvm takes at most "
                      << kMaxRegionDepth;
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// The int32 bias of a contraction (the user's, the folded zero-point
/// terms, or zeros) is a compile-time constant with one element per output
/// channel, and quant-translate takes globals of up to 2^32 bytes: a matmul
/// with 2^40 columns compiled, and its object could not be written.
static LogicalResult verifyBiasSizes(ModuleOp module) {
  constexpr int64_t kMaxChannels = int64_t(1) << 30;
  WalkResult walk = module.walk([&](Operation *op) {
    if (!isa<qnt::MatmulOp, qnt::Conv2DOp, qnt::IntMatmulOp, qnt::IntConv2DOp>(
            op))
      return WalkResult::advance();
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type || type.getRank() == 0)
      return WalkResult::advance();
    int64_t channels = type.getShape().back();
    if (ShapedType::isDynamic(channels) || channels <= kMaxChannels)
      return WalkResult::advance();
    op->emitOpError() << "has " << channels
                      << " output channels: its int32 bias (one constant "
                         "per channel) would take more than the 2^32 bytes "
                         "a global may hold";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

/// The pipeline converts quantized types on the ops and structured regions
/// it knows; a quantized block argument of a non-entry block (unstructured
/// control flow: cf.br carrying a quantized tensor) failed to legalize with
/// an internal error.
static LogicalResult verifyQuantizedBlockArguments(ModuleOp module) {
  WalkResult walk = module.walk([](Block *block) {
    if (block->isEntryBlock())
      return WalkResult::advance();
    for (BlockArgument argument : block->getArguments()) {
      Type type = argument.getType();
      if (auto shaped = dyn_cast<ShapedType>(type))
        type = shaped.getElementType();
      if (!isa<quant::QuantizedType>(type))
        continue;
      emitError(argument.getLoc())
          << "qnt-to-llvm: block argument #" << argument.getArgNumber()
          << " of a non-entry block has quantized type " << argument.getType()
          << ": unstructured control flow may not carry quantized values; "
             "use scf.if / scf.for, or branch on the raw codes "
             "(quant.scast)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// A `dense_resource` constant is read from its blob with no check that the
/// blob holds the type's bytes: upstream's translation took the first four
/// bytes of a seven-byte blob for a tensor<4xi8> (exit code 0), failed with
/// "raw data size does not match element type size" for others, and the
/// compile-time folds and range checks skip a blob they cannot read.
LogicalResult quantopt::verifyResourceConstants(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    for (NamedAttribute named : op->getAttrs()) {
      WalkResult attrWalk =
          named.getValue().walk([&](DenseResourceElementsAttr resource) {
            StringRef key = resource.getRawHandle().getKey();
            AsmResourceBlob *blob = resource.getRawHandle().getBlob();
            if (!blob) {
              op->emitOpError() << "attribute '" << named.getName().getValue()
                                << "' is dense_resource<" << key
                                << ">, which the module's dialect_resources "
                                   "section does not define";
              return WalkResult::interrupt();
            }
            ShapedType type = resource.getType();
            if (qnt::getResourceElementData(resource) ||
                !type.hasStaticShape() || !type.getElementType().isIntOrFloat())
              return WalkResult::advance();
            op->emitOpError()
                << "attribute '" << named.getName().getValue()
                << "' is dense_resource<" << key << "> of type " << type
                << ", whose blob holds " << blob->getData().size()
                << " bytes instead of " << type.getNumElements() << " x "
                << (type.getElementTypeBitWidth() + 7) / 8
                << " (elements x bytes each)";
            return WalkResult::interrupt();
          });
      if (attrWalk.wasInterrupted())
        return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// qnt ops are lowered inside functions; one at the module's top level
/// (a verifier-valid qnt.constant there) reached bufferization as an
/// unexplained legalization failure.
static LogicalResult verifyQntOpsInFunctions(ModuleOp module) {
  for (Operation &op : module.getBody()->getOperations())
    if (op.getName().getDialectNamespace() == "qnt")
      return op.emitOpError("is at the module's top level: qnt-to-llvm "
                            "lowers qnt ops inside functions");
  return success();
}

LogicalResult quantopt::verifyQntToLLVMInput(ModuleOp module,
                                             LLVM::TargetAttr target) {
  if (failed(verifyRegionDepth(module)) ||
      failed(verifyNoNestedModules(module)) || failed(verifyNoTosa(module)) ||
      failed(verifyNoReservedNames(module)) ||
      failed(verifyNotLoweredElsewhere(module, target)) ||
      failed(verifyQntOpsInFunctions(module)) ||
      failed(verifyQuantizedTypes(module)) || failed(verifySizes(module)) ||
      failed(verifyBiasSizes(module)) ||
      failed(quantopt::verifyResourceConstants(module)) ||
      failed(verifyQuantizedBlockArguments(module)) ||
      failed(verifyBufferizable(module)))
    return failure();
  return success();
}
