//===- QntTraits.cpp - verifier traits every qnt op carries ---------------===//
//
// See include/QuantOpt/Dialect/Qnt/IR/QntTraits.h.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntTraits.h"

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Operation.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::qnt;

LogicalResult mlir::qnt::detail::verifyNoUnknownAttributes(Operation *op) {
  for (NamedAttribute attr : op->getDiscardableAttrs()) {
    StringRef name = attr.getName().strref();
    // Dialect-prefixed discardable attributes ("foo.bar") are MLIR's
    // convention for annotating any op; only our own prefix is ours to police.
    if (name.contains('.') && !name.starts_with("qnt."))
      continue;
    InFlightDiagnostic diag = op->emitOpError("unknown attribute '")
                              << name << "'; known attributes: ";
    std::optional<RegisteredOperationName> info = op->getRegisteredInfo();
    ArrayRef<StringAttr> known =
        info ? info->getAttributeNames() : ArrayRef<StringAttr>();
    if (known.empty())
      diag << "none";
    llvm::interleaveComma(known, diag, [&](StringAttr known) {
      diag << "'" << known.getValue() << "'";
    });
    return diag;
  }
  return success();
}

LogicalResult mlir::qnt::detail::verifyConstantCodesInRange(Operation *op) {
  for (OpOperand &operand : op->getOpOperands()) {
    quant::QuantizedType type = getUniformElementType(operand.get().getType());
    if (!type || !isa<RankedTensorType>(operand.get().getType()))
      continue;
    std::optional<CodeRange> range = getConstantCodeRange(operand.get(), type);
    int64_t lo = type.getStorageTypeMin(), hi = type.getStorageTypeMax();
    if (!range || (range->min >= lo && range->max <= hi))
      continue;
    return op->emitOpError("operand #")
           << operand.getOperandNumber() << " is a constant with code "
           << (range->min < lo ? range->min : range->max)
           << " outside the storage range [" << lo << ", " << hi << "] of "
           << type;
  }
  return success();
}
