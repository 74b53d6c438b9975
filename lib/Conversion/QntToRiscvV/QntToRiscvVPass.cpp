//===- QntToRiscvVPass.cpp - the qnt-riscv-v pass -------------------------===//
//
// Applies populateQntToRiscvVPatterns when the module's `llvm.target` is a
// RISC-V with the V extension. Without a target, scheduling the pass is
// the caller's claim of V.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToRiscvV/QntToRiscvV.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Target/TargetInfo.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTTORISCVV
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {

bool targetHasV(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<LLVM::TargetAttr>(
                             LLVM::LLVMDialect::getTargetAttrName())
                       : LLVM::TargetAttr();
  if (!target)
    return true;
  quantopt::TargetInfo info{
      target.getTriple().str(), target.getChip().str(),
      target.getFeatures() ? target.getFeatures().getFeaturesString()
                           : std::string(),
      ""};
  return llvm::Triple(info.triple).isRISCV64() && info.hasFeature("v");
}

struct QntToRiscvVPass : qnt::impl::QntToRiscvVBase<QntToRiscvVPass> {
  using Base::Base;

  void runOnOperation() override {
    if (!targetHasV(getOperation()))
      return;
    RewritePatternSet patterns(&getContext());
    qnt::populateQntToRiscvVPatterns(patterns);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
