//===- QntOps.h - qnt dialect ops -------------------------------*- C++ -*-===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTOPS_H
#define QUANTOPT_DIALECT_QNT_IR_QNTOPS_H

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "QuantOpt/Dialect/Qnt/IR/QntTraits.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

// The enum returned by qnt.dynamic_quantize's mode accessor.
#include "QuantOpt/Dialect/Qnt/IR/QntDynamicEnums.h.inc"

#define GET_OP_CLASSES
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h.inc"

#endif // QUANTOPT_DIALECT_QNT_IR_QNTOPS_H
