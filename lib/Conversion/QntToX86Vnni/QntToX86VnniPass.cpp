//===- QntToX86VnniPass.cpp - the qnt-x86-vnni pass -----------------------===//
//
// Applies populateQntToX86VnniPatterns when the module's target has AVX-512
// VNNI or AVX-VNNI, or AVX-512 BW or AVX2 (the same kernels with each
// vpdpbusd emulated exactly). The
// rewrites leave foldable index arithmetic and repeated constants behind;
// the pipeline's canonicalize and cse clean them up.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Vnni.h"

#include "QuantOpt/Conversion/Passes.h"
#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"
#include "QuantOpt/Target/TargetInfo.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/WalkPatternRewriteDriver.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTTOX86VNNI
#include "QuantOpt/Conversion/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {

/// The x86 kernels the module's `llvm.target` can run. Without one,
/// scheduling the pass is the caller's claim of AVX-512 VNNI.
struct X86Kernels {
  std::optional<quantopt::x86vnni::DotIsa> contractions;
  std::optional<qnt::DepthwiseIsa> depthwise;
};

X86Kernels selectKernels(Operation *op) {
  auto module = op->getParentOfType<ModuleOp>();
  auto target = module ? module->getAttrOfType<LLVM::TargetAttr>(
                             LLVM::LLVMDialect::getTargetAttrName())
                       : LLVM::TargetAttr();
  X86Kernels kernels;
  using quantopt::x86vnni::DotIsa;
  if (!target) {
    kernels.contractions = DotIsa::Avx512Vnni;
    kernels.depthwise = qnt::DepthwiseIsa{16, true};
    return kernels;
  }
  quantopt::TargetInfo info{
      target.getTriple().str(), target.getChip().str(),
      target.getFeatures() ? target.getFeatures().getFeaturesString()
                           : std::string(),
      ""};
  if (info.hasAvx512Vnni())
    kernels.contractions = DotIsa::Avx512Vnni;
  else if (info.hasFeature("avxvnni"))
    kernels.contractions = DotIsa::AvxVnni;
  else if (info.hasFeature("avx512bw"))
    kernels.contractions = DotIsa::Avx512Bw;
  else if (info.hasFeature("avx2"))
    kernels.contractions = DotIsa::Avx2;
  if (info.hasFeature("avx512bw"))
    kernels.depthwise = qnt::DepthwiseIsa{16, info.hasAvx512Vnni()};
  else if (info.hasFeature("avx2"))
    kernels.depthwise = qnt::DepthwiseIsa{8, info.hasFeature("avxvnni")};
  return kernels;
}

struct QntToX86VnniPass : qnt::impl::QntToX86VnniBase<QntToX86VnniPass> {
  using Base::Base;

  /// Checked once per run, not once per function.
  LogicalResult initialize(MLIRContext *context) override {
    if (kBlock >= 0)
      return success();
    return emitError(UnknownLoc::get(context),
                     "qnt-x86-vnni: k-block must be at least 0 (0 disables K "
                     "blocking), got ")
           << static_cast<int64_t>(kBlock);
  }

  void runOnOperation() override {
    X86Kernels kernels = selectKernels(getOperation());
    if (!kernels.contractions && !kernels.depthwise)
      return;
    RewritePatternSet patterns(&getContext());
    if (kernels.contractions)
      qnt::populateQntToX86VnniPatterns(patterns, kBlock,
                                        *kernels.contractions);
    if (kernels.depthwise)
      qnt::populateQntToX86DepthwisePatterns(patterns, *kernels.depthwise);
    // One walk, no folding: what the rewrites create is left as built.
    walkAndApplyPatterns(getOperation(), std::move(patterns));
  }
};

} // namespace
