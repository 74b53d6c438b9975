//===- QntTraits.h - verifier traits every qnt op carries -------*- C++ -*-===//
//
// Native op traits that the `Qnt_Op` base class attaches to every op of the
// dialect, so that ops added later get the same bad-input rules:
//
// - NoUnknownAttributes: an attribute name the op does not declare is an
//   error (a misspelt `round = "float"` must not silently mean "double").
//   Names with a '.' are dialect-prefixed discardable attributes, which MLIR
//   allows on any op; they are kept unless they use our own `qnt.` prefix,
//   which declares no discardable attributes.
// - ConstantCodesInRange: a quantized operand whose value is a compile-time
//   constant (`qnt.constant`, or `quant.scast` of an integer constant) holds
//   only codes inside its declared storage range, so the static accumulator
//   bound can trust that range.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTTRAITS_H
#define QUANTOPT_DIALECT_QNT_IR_QNTTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::qnt {
namespace detail {
LogicalResult verifyNoUnknownAttributes(Operation *op);
LogicalResult verifyConstantCodesInRange(Operation *op);
} // namespace detail

template <typename ConcreteType>
class NoUnknownAttributes
    : public OpTrait::TraitBase<ConcreteType, NoUnknownAttributes> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return detail::verifyNoUnknownAttributes(op);
  }
};

template <typename ConcreteType>
class ConstantCodesInRange
    : public OpTrait::TraitBase<ConcreteType, ConstantCodesInRange> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return detail::verifyConstantCodesInRange(op);
  }
};

} // namespace mlir::qnt

#endif // QUANTOPT_DIALECT_QNT_IR_QNTTRAITS_H
