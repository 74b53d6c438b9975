//===- QntToArmNeonPass.cpp - the qnt-arm-neon pass -----------------------===//
//
// Applies populateQntToArmNeonPatterns with the int8 extensions of the
// module's AArch64 `llvm.target` (i8mm, dotprod, or plain NEON). Without a
// target, scheduling the pass is the caller's claim of i8mm (as for
// qnt-x86-vnni).
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToArmNeon/QntToArmNeon.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"
#include "QuantOpt/Target/TargetInfo.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ArmNeon/ArmNeonDialect.h"
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
#define GEN_PASS_DEF_QNTTOARMNEON
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using quantopt::armneon::ArmIsa;

namespace {

std::optional<ArmIsa> selectIsa(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<LLVM::TargetAttr>(
                             LLVM::LLVMDialect::getTargetAttrName())
                       : LLVM::TargetAttr();
  if (!target)
    return ArmIsa{true, true};
  quantopt::TargetInfo info{
      target.getTriple().str(), target.getChip().str(),
      target.getFeatures() ? target.getFeatures().getFeaturesString()
                           : std::string(),
      ""};
  if (!llvm::Triple(info.triple).isAArch64())
    return std::nullopt;
  ArmIsa isa{info.hasFeature("dotprod"), info.hasFeature("i8mm")};
  // Without either extension the kernel is smull + sadalp, which needs NEON
  // (a target may turn it off with -neon).
  if (!isa.dotprod && !isa.i8mm && !info.hasFeature("neon"))
    return std::nullopt;
  return isa;
}

struct QntToArmNeonPass : qnt::impl::QntToArmNeonBase<QntToArmNeonPass> {
  using Base::Base;

  void runOnOperation() override {
    std::optional<ArmIsa> isa = selectIsa(getOperation());
    if (!isa)
      return;
    RewritePatternSet patterns(&getContext());
    qnt::populateQntToArmNeonPatterns(patterns, *isa);
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
