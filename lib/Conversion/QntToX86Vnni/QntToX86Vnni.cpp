//===- QntToX86Vnni.cpp - int8 contractions on AVX-512 VNNI ----------------===//

#include "QuantOpt/Conversion/Passes.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTTOX86VNNI
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {
struct QntToX86VnniPass : qnt::impl::QntToX86VnniBase<QntToX86VnniPass> {
  using Base::Base;
  // Leaves every op to qnt-to-linalg until the microkernels land.
  void runOnOperation() override {}
};
} // namespace
