//===- QntDialect.cpp - qnt dialect registration ---------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::qnt;

#include "QuantOpt/Dialect/Qnt/IR/QntOpsDialect.cpp.inc"

#include "QuantOpt/Dialect/Qnt/IR/QntEnums.cpp.inc"

LogicalResult mlir::qnt::verifyRoundingName(Operation *op, StringAttr name) {
  if (symbolizeRoundingMode(name.getValue()))
    return success();
  return op->emitOpError("unknown rounding \"")
         << name.getValue()
         << "\"; expected one of \"double\", \"single\", \"away\", "
            "\"half_even\", \"float\"";
}

LogicalResult mlir::qnt::verifyTieRounding(Operation *op, StringAttr name) {
  if (failed(verifyRoundingName(op, name)))
    return failure();
  RoundingMode mode = getRoundingMode(name);
  if (mode == RoundingMode::Away || mode == RoundingMode::HalfEven)
    return success();
  return op->emitOpError("'rounding' \"")
         << name.getValue()
         << "\" does not apply to an exact average: it rounds only ties, "
            "\"away\" (from zero) or \"half_even\"";
}

#define GET_ATTRDEF_CLASSES
#include "QuantOpt/Dialect/Qnt/IR/QntAttributes.cpp.inc"

LogicalResult CodesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                RankedTensorType type,
                                DenseIntElementsAttr codes) {
  quant::QuantizedType quantType = getUniformElementType(type);
  if (!quantType)
    return emitError() << "#qnt.codes type must have a uniform quantized "
                          "element type, got "
                       << type;
  auto codesType = cast<ShapedType>(codes.getType());
  if (codesType.getShape() != type.getShape())
    return emitError() << "#qnt.codes shape [" << codesType.getShape()
                       << "] must equal the type's shape [" << type.getShape()
                       << "]";
  IntegerType codeType = getCodeType(quantType);
  if (codesType.getElementType() != codeType)
    return emitError() << "#qnt.codes element type must be " << codeType
                       << " (the storage codes of " << quantType << "), got "
                       << codesType.getElementType();
  return success();
}

void QntDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "QuantOpt/Dialect/Qnt/IR/QntAttributes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "QuantOpt/Dialect/Qnt/IR/QntOps.cpp.inc"
      >();
}

Operation *QntDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  // Quantized codes become `qnt.constant`; anything else (dequantized f32
  // values) is an ordinary arith constant. Codes only ever materialize at
  // their own type: an upstream folder forwarding them to another type (a
  // cast) gets no constant rather than a mistyped one.
  if (auto codes = dyn_cast<CodesAttr>(value)) {
    if (codes.getType() != type)
      return nullptr;
    return ConstantOp::create(builder, loc, codes.getType(), codes.getCodes());
  }
  // A quantized type never takes a bare dense attribute (its element type
  // would differ from the result's).
  if (getUniformElementType(type))
    return nullptr;
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
