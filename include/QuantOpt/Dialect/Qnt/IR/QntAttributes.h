//===- QntAttributes.h - qnt dialect attributes -----------------*- C++ -*-===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTATTRIBUTES_H
#define QUANTOPT_DIALECT_QNT_IR_QNTATTRIBUTES_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#define GET_ATTRDEF_CLASSES
#include "QuantOpt/Dialect/Qnt/IR/QntAttributes.h.inc"

#endif // QUANTOPT_DIALECT_QNT_IR_QNTATTRIBUTES_H
