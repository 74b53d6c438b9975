//===- QntEnums.h - qnt dialect enums ---------------------------*- C++ -*-===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTENUMS_H
#define QUANTOPT_DIALECT_QNT_IR_QNTENUMS_H

#include "QuantOpt/Reference/FixedPoint.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringRef.h"

#include "QuantOpt/Dialect/Qnt/IR/QntEnums.h.inc"

namespace mlir::qnt {

/// The mode a `rounding` attribute names. The op verifiers reject unknown
/// names (verifyRoundingName); unverified IR trips the assertion.
inline RoundingMode getRoundingMode(StringAttr name) {
  std::optional<RoundingMode> mode = symbolizeRoundingMode(name.getValue());
  assert(mode && "unknown rounding name in unverified IR");
  return mode.value_or(RoundingMode::Double);
}

/// The verifier rule every op with a `rounding` attribute shares.
LogicalResult verifyRoundingName(Operation *op, StringAttr name);

/// The average pools' rule: an exact division rounds only its ties, so the
/// mode must be "away" or "half_even".
LogicalResult verifyTieRounding(Operation *op, StringAttr name);

/// The reference model's name for the same mode (the reference library links
/// no MLIR, so it keeps its own enum).
inline quantopt::ref::RoundingMode toReferenceRounding(RoundingMode mode) {
  switch (mode) {
  case RoundingMode::Double:
    return quantopt::ref::RoundingMode::Double;
  case RoundingMode::Single:
    return quantopt::ref::RoundingMode::Single;
  case RoundingMode::Away:
    return quantopt::ref::RoundingMode::Away;
  case RoundingMode::HalfEven:
    return quantopt::ref::RoundingMode::HalfEven;
  case RoundingMode::Float:
    return quantopt::ref::RoundingMode::Float;
  }
  llvm_unreachable("unknown qnt::RoundingMode");
}

} // namespace mlir::qnt

#endif // QUANTOPT_DIALECT_QNT_IR_QNTENUMS_H
