//===- Passes.h - qnt transformation passes ---------------------*- C++ -*-===//

#ifndef QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_H
#define QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_H

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::qnt {

#define GEN_PASS_DECL
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"

} // namespace mlir::qnt

#endif // QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_H
