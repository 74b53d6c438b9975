//===- TransformUtils.h - helpers shared by the qnt passes ------*- C++ -*-===//
//
// Small builders the integer-IR passes share: the signless storage view of a
// quantized tensor and the `quant.scast` in and out of it.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_DIALECT_QNT_TRANSFORMS_TRANSFORMUTILS_H
#define QUANTOPT_LIB_DIALECT_QNT_TRANSFORMS_TRANSFORMUTILS_H

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/Builders.h"

namespace mlir::qnt {

/// The signless integer of the storage width of `type`: i8 for u8 too, since
/// the explicit integer ops carry the signedness as a unit attribute.
inline IntegerType getSignlessStorageType(quant::QuantizedType type) {
  return IntegerType::get(type.getContext(),
                          type.getStorageTypeIntegralWidth());
}

/// `tensor<...x!quant.uniform<...>>` -> `tensor<...xiN>`; other types are
/// returned unchanged.
inline Type getStorageTensorType(Type type) {
  quant::QuantizedType quantType = getUniformElementType(type);
  auto shaped = dyn_cast<ShapedType>(type);
  if (!quantType || !shaped)
    return type;
  return shaped.clone(getSignlessStorageType(quantType));
}

/// Reinterprets a quantized tensor as its raw storage codes.
inline Value castToStorage(OpBuilder &builder, Location loc, Value value) {
  return quant::StorageCastOp::create(
      builder, loc, getStorageTensorType(value.getType()), value);
}

} // namespace mlir::qnt

#endif // QUANTOPT_LIB_DIALECT_QNT_TRANSFORMS_TRANSFORMUTILS_H
