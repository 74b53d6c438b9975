//===- QntKernelDialect.h - qnt_kernel dialect ------------------*- C++ -*-===//

#ifndef QUANTOPT_DIALECT_QNTKERNEL_IR_QNTKERNELDIALECT_H
#define QUANTOPT_DIALECT_QNTKERNEL_IR_QNTKERNELDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "QuantOpt/Dialect/QntKernel/IR/QntKernelOpsDialect.h.inc"

#define GET_OP_CLASSES
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelOps.h.inc"

#endif // QUANTOPT_DIALECT_QNTKERNEL_IR_QNTKERNELDIALECT_H
