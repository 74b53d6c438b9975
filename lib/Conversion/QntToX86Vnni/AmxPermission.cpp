//===- AmxPermission.cpp - the arch_prctl that enables AMX tiles ----------===//
//
// Linux (5.16+) keeps the AMX tile data state (XTILEDATA, 8 KiB per thread)
// disabled until the process asks for it; the first tile instruction of a
// process that did not ask dies with SIGILL. The request is per process
// and idempotent, so the module carries an internal constructor that makes
// it at load time: callers (C code, mlir-runner, a host program that
// dlopens the object) need not know. The system calls are issued with
// inline assembly rather than through libc, so the object has no new
// external dependency. When Linux refuses (a CPU or kernel without AMX, a
// seccomp filter), the constructor writes one line saying so to stderr and
// returns: the process may never call a kernel, but if it does, the SIGILL
// that follows is no longer a mystery.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Amx.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;

namespace {
// <asm/prctl.h> and <asm/unistd_64.h>, x86-64.
constexpr int64_t kSysWrite = 1;
constexpr int64_t kSysArchPrctl = 158;
constexpr int64_t kStderr = 2;
constexpr int64_t kArchReqXcompPerm = 0x1023;
constexpr int64_t kXFeatureXTileData = 18;
// The first priority free for programs (0-100 are the implementation's).
constexpr int32_t kCtorPriority = 101;

constexpr llvm::StringLiteral kRefusedMessage =
    "quant-opt: Linux refused the AMX tile state "
    "(arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) failed): this code "
    "was compiled for an AMX target and dies of SIGILL at its first tile "
    "instruction; compile it for target=x86_64 (or target=host) to run here\n";

/// `syscall` with the number in rax and up to three arguments in rdi, rsi,
/// rdx; returns rax. The instruction clobbers rcx and r11.
Value emitSyscall(OpBuilder &b, Location loc, ValueRange numberAndArgs) {
  static constexpr const char *kArgRegisters[] = {"{rax}", "{rdi}", "{rsi}",
                                                  "{rdx}"};
  std::string constraints = "={rax}";
  for (size_t i = 0; i < numberAndArgs.size(); ++i)
    constraints += std::string(",") + kArgRegisters[i];
  constraints += ",~{rcx},~{r11},~{memory}";
  return LLVM::InlineAsmOp::create(
             b, loc, b.getI64Type(), numberAndArgs, "syscall", constraints,
             /*has_side_effects=*/true, /*is_align_stack=*/false,
             LLVM::TailCallKind::None,
             LLVM::AsmDialectAttr::get(b.getContext(), LLVM::AsmDialect::AD_ATT),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}
} // namespace

void mlir::qnt::addAmxPermissionRequest(ModuleOp module) {
  if (module.lookupSymbol(kAmxPermissionFunction))
    return;
  MLIRContext *ctx = module.getContext();
  Location loc = module.getLoc();
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto voidType = LLVM::LLVMVoidType::get(ctx);
  // The message, a private constant (no terminating NUL: write takes a
  // length).
  auto messageType = LLVM::LLVMArrayType::get(IntegerType::get(ctx, 8),
                                              kRefusedMessage.size());
  auto message = LLVM::GlobalOp::create(
      b, loc, messageType, /*isConstant=*/true, LLVM::Linkage::Private,
      std::string(kAmxPermissionFunction) + ".refused",
      b.getStringAttr(kRefusedMessage));
  b.setInsertionPointAfter(message);
  auto func = LLVM::LLVMFuncOp::create(
      b, loc, kAmxPermissionFunction, LLVM::LLVMFunctionType::get(voidType, {}),
      LLVM::Linkage::Internal);
  Block *entry = func.addEntryBlock(b);
  Block *refused = new Block(), *done = new Block();
  func.getBody().push_back(refused);
  func.getBody().push_back(done);
  OpBuilder body = OpBuilder::atBlockBegin(entry);
  auto i64 = body.getI64Type();
  auto cst = [&](int64_t v) {
    return LLVM::ConstantOp::create(body, loc, i64, body.getI64IntegerAttr(v))
        .getResult();
  };
  // arch_prctl returns 0, or -errno.
  Value result =
      emitSyscall(body, loc,
                  {cst(kSysArchPrctl), cst(kArchReqXcompPerm),
                   cst(kXFeatureXTileData)});
  Value failed = LLVM::ICmpOp::create(body, loc, LLVM::ICmpPredicate::ne,
                                      result, cst(0));
  LLVM::CondBrOp::create(body, loc, failed, refused, done);
  body.setInsertionPointToStart(refused);
  Value text = LLVM::AddressOfOp::create(body, loc, message);
  Value textAsInt =
      LLVM::PtrToIntOp::create(body, loc, i64, text);
  emitSyscall(body, loc,
              {cst(kSysWrite), cst(kStderr), textAsInt,
               cst(static_cast<int64_t>(kRefusedMessage.size()))});
  LLVM::BrOp::create(body, loc, ValueRange(), done);
  body.setInsertionPointToStart(done);
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
