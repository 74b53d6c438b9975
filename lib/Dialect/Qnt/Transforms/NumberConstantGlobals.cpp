//===- NumberConstantGlobals.cpp - deterministic constant globals ---------===//
//
// Makes the names and the order of bufferization's constant globals a
// function of the input alone: see the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTNUMBERCONSTANTGLOBALS
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

static constexpr StringLiteral kPrefix = "__constant_";

/// A global as bufferization creates it for a constant tensor.
static bool isBufferizationConstant(memref::GlobalOp global) {
  return global.getConstant() && global.isPrivate() &&
         global.getSymName().starts_with(kPrefix);
}

/// `__constant_4xi32` of `__constant_4xi32_7`: the name without the suffix
/// that made it unique (a shape never ends in `_<digits>`).
static StringRef baseName(StringRef name) {
  size_t underscore = name.rfind('_');
  StringRef suffix = name.substr(underscore + 1);
  if (underscore == StringRef::npos || underscore < kPrefix.size() ||
      suffix.empty() || !llvm::all_of(suffix, llvm::isDigit))
    return name;
  return name.take_front(underscore);
}

namespace {
struct QntNumberConstantGlobalsPass
    : qnt::impl::QntNumberConstantGlobalsBase<QntNumberConstantGlobalsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::GlobalOp> candidates;
    for (auto global : module.getOps<memref::GlobalOp>())
      if (isBufferizationConstant(global))
        candidates.push_back(global);
    if (candidates.empty())
      return markAllAnalysesPreserved();

    // Only globals that nothing but memref.get_global reads are renamed (or,
    // unread, erased): another kind of reference would be left dangling.
    SymbolTableCollection tables;
    SymbolUserMap users(tables, module);
    DenseMap<StringAttr, memref::GlobalOp> byName;
    for (memref::GlobalOp global : candidates)
      if (llvm::all_of(users.getUsers(global),
                       llvm::IsaPred<memref::GetGlobalOp>))
        byName[global.getSymNameAttr()] = global;

    // Every reader of each global, the globals in the order of first use.
    llvm::MapVector<memref::GlobalOp, SmallVector<memref::GetGlobalOp>> uses;
    module.walk([&](memref::GetGlobalOp get) {
      auto it = byName.find(get.getNameAttr().getAttr());
      if (it != byName.end())
        uses[it->second].push_back(get);
    });

    SymbolTable symbols(module);
    for (auto &[name, global] : byName) {
      symbols.remove(global);
      if (!uses.count(global))
        global.erase();
    }
    Block &body = *module.getBody();
    Operation *previous = nullptr;
    llvm::StringMap<unsigned> nextSuffix;
    for (auto &[global, readers] : uses) {
      StringRef base = baseName(global.getSymName());
      unsigned &suffix = nextSuffix[base];
      std::string name;
      do {
        name = suffix == 0 ? base.str() : (base + "_" + Twine(suffix)).str();
        ++suffix;
      } while (symbols.lookup(name));
      if (previous)
        global->moveAfter(previous);
      else
        global->moveBefore(&body, body.begin());
      previous = global;
      global.setSymName(name);
      symbols.insert(global, Block::iterator(global));
      auto ref = FlatSymbolRefAttr::get(global.getSymNameAttr());
      for (memref::GetGlobalOp reader : readers)
        reader.setNameAttr(ref);
    }
  }
};
} // namespace
