//===- Passes.h - qnt conversion passes -------------------------*- C++ -*-===//

#ifndef QUANTOPT_CONVERSION_PASSES_H
#define QUANTOPT_CONVERSION_PASSES_H

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"
#include "QuantOpt/Conversion/TosaToQnt/TosaToQnt.h"
#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::qnt {

#define GEN_PASS_DECL_QNTTOARMNEON
#define GEN_PASS_DECL_QNTTORISCVV
#define GEN_PASS_DECL_QNTTOX86AMX
#define GEN_PASS_DECL_QNTTOX86VNNI
#define GEN_PASS_DECL_TOSATOQNT
#include "QuantOpt/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "QuantOpt/Conversion/Passes.h.inc"

} // namespace mlir::qnt

#endif // QUANTOPT_CONVERSION_PASSES_H
