//===- AmxPermission.cpp - the arch_prctl that enables AMX tiles ----------===//
//
// Linux (5.16+) keeps the AMX tile data state (XTILEDATA, 8 KiB per thread)
// disabled until the process asks for it; the first tile instruction of a
// process that did not ask dies with SIGILL. The request is per process
// and idempotent, so the module carries an internal constructor that makes
// it at load time: callers (C code, mlir-runner, a host program that
// dlopens the object) need not know. The system call is issued with inline
// assembly rather than through libc's `syscall()`, so the object has no new
// external dependency; its result is ignored: a kernel without AMX support
// fails the request, and such a machine cannot run the kernels anyway.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Amx.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace {
// <asm/prctl.h> and <asm/unistd_64.h>, x86-64.
constexpr int64_t kSysArchPrctl = 158;
constexpr int64_t kArchReqXcompPerm = 0x1023;
constexpr int64_t kXFeatureXTileData = 18;
// The first priority free for programs (0-100 are the implementation's).
constexpr int32_t kCtorPriority = 101;
} // namespace

void mlir::qnt::addAmxPermissionRequest(ModuleOp module) {
  if (module.lookupSymbol(kAmxPermissionFunction))
    return;
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, kAmxPermissionFunction, LLVM::LLVMFunctionType::get(voidType, {}),
      LLVM::Linkage::Internal);
  OpBuilder body = OpBuilder::atBlockBegin(func.addEntryBlock(b));
  auto i64 = body.getI64Type();
  auto cst = [&](int64_t v) {
    return LLVM::ConstantOp::create(body, loc, i64, body.getI64IntegerAttr(v))
        .getResult();
  };
  // rax = syscall number and result; rdi, rsi the arguments; the syscall
  // instruction clobbers rcx and r11.
  LLVM::InlineAsmOp::create(
      body, loc, i64,
      ValueRange{cst(kSysArchPrctl), cst(kArchReqXcompPerm),
                 cst(kXFeatureXTileData)},
      "syscall", "={rax},{rax},{rdi},{rsi},~{rcx},~{r11},~{memory}",
      /*has_side_effects=*/true, /*is_align_stack=*/false,
      LLVM::TailCallKind::None,
      LLVM::AsmDialectAttr::get(ctx, LLVM::AsmDialect::AD_ATT),
      /*operand_attrs=*/ArrayAttr());
  LLVM::ReturnOp::create(body, loc, ValueRange());

  // LLVM IR has one llvm.global_ctors: join a list the module already has.
  SmallVector<Attribute> ctors{FlatSymbolRefAttr::get(func)};
  SmallVector<int32_t> priorities{kCtorPriority};
  SmallVector<Attribute> data{LLVM::ZeroAttr::get(ctx)};
  auto existing = module.getOps<LLVM::GlobalCtorsOp>();
  if (!existing.empty()) {
    LLVM::GlobalCtorsOp old = *existing.begin();
    ctors.append(old.getCtors().begin(), old.getCtors().end());
    for (Attribute p : old.getPriorities())
      priorities.push_back(cast<IntegerAttr>(p).getInt());
    data.append(old.getData().begin(), old.getData().end());
    old.erase();
  }
  LLVM::GlobalCtorsOp::create(b, loc, b.getArrayAttr(ctors),
                              b.getI32ArrayAttr(priorities),
                              b.getArrayAttr(data));
}
