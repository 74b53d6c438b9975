//===- PipelineInput.cpp - what --qnt-to-llvm accepts as input ------------===//

#include "PipelineInput.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
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

static LogicalResult verifySizes(ModuleOp module) {
  WalkResult walk = module.walk([](Operation *op) {
    auto tooLarge = [&](Value value, StringRef role, unsigned index) {
      auto type = dyn_cast<ShapedType>(value.getType());
      if (!type || sizeFitsInt64(type))
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

/// Upstream ops on tensors that no bufferization interface lowers (on any
/// element type): reported by name rather than as bufferization's "op was
/// not bufferized".
static LogicalResult verifyBufferizable(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (!isa<tensor::GatherOp, tensor::ScatterOp>(op))
      return;
    op->emitOpError("is not supported by qnt-to-llvm: bufferization has no "
                    "lowering for it; index single elements with "
                    "tensor.extract / tensor.insert, or move blocks with "
                    "tensor.extract_slice / tensor.insert_slice");
    found = true;
  });
  return failure(found);
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

LogicalResult quantopt::verifyQntToLLVMInput(ModuleOp module,
                                             LLVM::TargetAttr target) {
  if (failed(verifyNotLoweredElsewhere(module, target)) ||
      failed(verifySizes(module)) || failed(verifyBufferizable(module)))
    return failure();
  return success();
}
