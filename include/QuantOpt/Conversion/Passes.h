//===- Passes.h - qnt conversion passes -------------------------*- C++ -*-===//

#ifndef QUANTOPT_CONVERSION_PASSES_H
#define QUANTOPT_CONVERSION_PASSES_H

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::qnt {

#define GEN_PASS_DECL_QNTTOX86VNNI
#include "QuantOpt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QuantOpt/Conversion/Passes.h.inc"

} // namespace mlir::qnt

#endif // QUANTOPT_CONVERSION_PASSES_H
