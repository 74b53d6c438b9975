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

/// The smallest and largest code of a constant operand of `type`: a
/// qnt.constant or quant.scast of a dense constant, of a sparse one (its
/// stored codes, and 0 where an element is not stored) or of a
/// dense_resource blob (read when present); nullopt for anything else, or
/// when empty.
static std::optional<CodeRange> constantCodeRange(Value value,
                                                  quant::QuantizedType type) {
  unsigned width = type.getStorageTypeIntegralWidth();
  if (std::optional<DenseIntElementsAttr> codes =
          matchQuantizedConstant(value)) {
    if (codes->getElementType().getIntOrFloatBitWidth() != width ||
        codes->getNumElements() == 0)
      return std::nullopt;
    return getCodeRange(*codes, type);
  }
  auto storageCast = value.getDefiningOp<quant::StorageCastOp>();
  if (!storageCast)
    return std::nullopt;
  SparseElementsAttr sparse;
  if (matchPattern(storageCast.getInput(), m_Constant(&sparse))) {
    auto stored = dyn_cast<DenseIntElementsAttr>(sparse.getValues());
    if (!stored || stored.getElementType().getIntOrFloatBitWidth() != width ||
        sparse.getNumElements() == 0)
      return std::nullopt;
    // Never expanded: a sparse constant may stand for 2^40 elements.
    CodeRange range = stored.getNumElements() ? getCodeRange(stored, type)
                                              : CodeRange{};
    if (stored.getNumElements() < sparse.getNumElements())
      range = {std::min<int64_t>(range.min, 0),
               std::max<int64_t>(range.max, 0)};
    return range;
  }
  // Dense constants were matched above, so only resource blobs remain; a
  // splat is never expanded.
  std::optional<std::vector<int64_t>> codes =
      getConstantInts(storageCast.getInput(), width, !type.isSigned(),
                      /*maxSplatElements=*/0);
  if (!codes || codes->empty())
    return std::nullopt;
  auto [min, max] = std::minmax_element(codes->begin(), codes->end());
  return CodeRange{*min, *max};
}

LogicalResult mlir::qnt::detail::verifyConstantCodesInRange(Operation *op) {
  for (OpOperand &operand : op->getOpOperands()) {
    quant::QuantizedType type = getUniformElementType(operand.get().getType());
    if (!type || !isa<RankedTensorType>(operand.get().getType()))
      continue;
    std::optional<CodeRange> range = constantCodeRange(operand.get(), type);
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
