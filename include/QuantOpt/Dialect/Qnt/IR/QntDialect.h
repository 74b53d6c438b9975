//===- QntDialect.h - qnt dialect -------------------------------*- C++ -*-===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTDIALECT_H
#define QUANTOPT_DIALECT_QNT_IR_QNTDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/IR/Dialect.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOpsDialect.h.inc"

#include "QuantOpt/Dialect/Qnt/IR/QntAttributes.h"
#include "QuantOpt/Dialect/Qnt/IR/QntEnums.h"

#endif // QUANTOPT_DIALECT_QNT_IR_QNTDIALECT_H
