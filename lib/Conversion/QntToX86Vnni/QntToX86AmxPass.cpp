//===- QntToX86AmxPass.cpp - the qnt-x86-amx pass -------------------------===//
//
// Applies populateQntToX86AmxPatterns to every function when the module's
// target has AMX-INT8, then adds the module's AMX permission request if a
// kernel was emitted. The index arithmetic the rewrites leave is for the
// pipeline's canonicalize and cse.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Amx.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Target/TargetInfo.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Rewrite/FrozenRewritePatternSet.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTTOX86AMX
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {

/// AMX-INT8 as the module's llvm.target says; without one, scheduling the
/// pass is the caller's claim that the target has it.
bool targetHasAmx(ModuleOp module) {
  auto target = module->getAttrOfType<LLVM::TargetAttr>(
      LLVM::LLVMDialect::getTargetAttrName());
  if (!target)
    return true;
  quantopt::TargetInfo info{target.getTriple().str(), target.getChip().str(),
                            target.getFeatures()
                                ? target.getFeatures().getFeaturesString()
                                : std::string(),
                            ""};
  return info.hasAmxInt8();
}

struct QntToX86AmxPass : qnt::impl::QntToX86AmxBase<QntToX86AmxPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (minRows < 0) {
      module.emitError("qnt-x86-amx: min-rows must be at least 0, got ")
          << static_cast<int64_t>(minRows);
      return signalPassFailure();
    }
    if (!targetHasAmx(module))
      return;
    RewritePatternSet patterns(&getContext());
    qnt::populateQntToX86AmxPatterns(patterns, minRows);
    FrozenRewritePatternSet frozen(std::move(patterns));
    bool emitted = false;
    for (auto func : module.getOps<func::FuncOp>()) {
      walkAndApplyPatterns(func, frozen);
      func.walk([&](amx::TileMulIOp) {
        emitted = true;
        return WalkResult::interrupt();
      });
    }
    if (emitted)
      qnt::addAmxPermissionRequest(module);
  }
};

} // namespace
