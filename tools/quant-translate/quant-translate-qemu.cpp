//===- quant-translate-qemu.cpp - quant-translate for old emulators -------===//
//
// Test-only: quant-translate plus --avoid-rvv-rtz-conversions, which
// utils/run-on-target.py passes when the RISC-V binary runs on
// qemu-riscv64 before 8.0 (Debian 12 ships 7.2). That qemu aborts
// ("decode_save_opc: Assertion `ctx->insn_start != NULL' failed", QEMU issue
// #1441) translating a vfcvt.rtz.* while its cached rounding mode is not the
// dynamic one, e.g. at the start of a translation block. Not installed: the
// product tool never changes the code it emits for an emulator's sake.
//
//===----------------------------------------------------------------------===//

#include "TranslateMain.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/TargetParser/Triple.h"

#include <algorithm>

using namespace llvm;

static cl::opt<bool> avoidRvvRtz(
    "avoid-rvv-rtz-conversions",
    cl::desc("RISC-V: compute vector fptosi with round-to-nearest "
             "conversions plus an exact correction, so that no vfcvt.rtz.* "
             "is emitted (qemu-riscv64 7.2 aborts on some)"),
    cl::init(false), cl::cat(quantopt::getQuantTranslateCategory()));

/// Replaces every vector `fptosi x` by lrint(x) (vfcvt.x.f.v, dynamic
/// rounding mode, round to nearest even by default) corrected towards zero:
/// r - 1 where x >= 0 and r > x, r + 1 where x < 0 and r < x. Exact for every
/// x where fptosi is defined: a non-integral x has |x| < 2^23 so r converts
/// back exactly, and an integral x gives r == x.
static void rewriteVectorFPToSI(Module &module) {
  SmallVector<FPToSIInst *> conversions;
  for (Function &function : module)
    for (BasicBlock &block : function)
      for (Instruction &inst : block)
        if (auto *conversion = dyn_cast<FPToSIInst>(&inst))
          if (conversion->getType()->isVectorTy())
            conversions.push_back(conversion);
  for (FPToSIInst *conversion : conversions) {
    IRBuilder<> builder(conversion);
    Value *x = conversion->getOperand(0);
    auto *floatTy = cast<VectorType>(x->getType());
    auto *resultTy = cast<VectorType>(conversion->getType());
    unsigned width = std::max(floatTy->getScalarSizeInBits(),
                              resultTy->getScalarSizeInBits());
    auto *wideTy = VectorType::get(builder.getIntNTy(width),
                                   floatTy->getElementCount());
    Value *nearest =
        builder.CreateIntrinsic(Intrinsic::lrint, {wideTy, floatTy}, {x});
    Value *back = builder.CreateSIToFP(nearest, floatTy);
    Value *nonNegative =
        builder.CreateFCmpOGE(x, Constant::getNullValue(floatTy));
    Value *down =
        builder.CreateAnd(nonNegative, builder.CreateFCmpOGT(back, x));
    Value *up = builder.CreateAnd(builder.CreateNot(nonNegative),
                                  builder.CreateFCmpOLT(back, x));
    Value *result = builder.CreateAdd(
        builder.CreateSub(nearest, builder.CreateZExt(down, wideTy)),
        builder.CreateZExt(up, wideTy));
    result = builder.CreateSExtOrTrunc(result, resultTy);
    result->takeName(conversion);
    conversion->replaceAllUsesWith(result);
    conversion->eraseFromParent();
  }
}

int main(int argc, char **argv) {
  return quantopt::quantTranslateMain(
      argc, argv, [](Module &module, const Triple &triple) {
        if (avoidRvvRtz && triple.isRISCV())
          rewriteVectorFPToSI(module);
      });
}
