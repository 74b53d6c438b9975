//===- QntDialect.cpp - qnt dialect registration ---------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"

using namespace mlir;
using namespace mlir::qnt;

#include "QuantOpt/Dialect/Qnt/IR/QntOpsDialect.cpp.inc"

void QntDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "QuantOpt/Dialect/Qnt/IR/QntOps.cpp.inc"
      >();
}

Operation *QntDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  // Quantized codes become `qnt.constant`; anything else (dequantized f32
  // values) is an ordinary arith constant.
  auto codes = dyn_cast<DenseIntElementsAttr>(value);
  if (codes && getUniformElementType(type))
    return ConstantOp::create(builder, loc, type, codes);
  return arith::ConstantOp::materialize(builder, value, type, loc);
}
