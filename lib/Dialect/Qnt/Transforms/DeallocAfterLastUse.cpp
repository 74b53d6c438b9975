//===- DeallocAfterLastUse.cpp - free each buffer after its last use ------===//
//
// Ownership-based deallocation frees a block's buffers at the block's end.
// Moving each dealloc of a buffer allocated in the same block to right
// after the last op that uses the buffer (or a value derived from it) makes
// a network's peak memory the largest set of buffers alive together, and
// keeps the pointers' live ranges short for the code generator.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTDEALLOCAFTERLASTUSE
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;

namespace {

/// Whether `user` lets the value `operand` escape the analysis: passes it
/// to a call or to LLVM dialect code (which may keep or rebuild the
/// pointer), frees it, or writes it to memory as data. A memref operand is
/// an address, whose data the op reads or writes; any other derived value
/// (the pointer as an index, ...) escapes into an op that may write memory.
bool escapes(Operation *user, Value operand) {
  if (isa<CallOpInterface, memref::DeallocOp>(user) ||
      isa_and_present<LLVM::LLVMDialect>(user->getDialect()))
    return true;
  if (isa<MemRefType>(operand.getType())) {
    auto store = dyn_cast<memref::StoreOp>(user);
    return store && store.getValueToStore() == operand;
  }
  return !isMemoryEffectFree(user);
}

/// Whether the results of `user` are data it read through `operand` (a
/// load): they hold no pointer, since a pointer stored as data escapes.
bool readsData(Operation *user, Value operand) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(user);
  return effects &&
         effects.getEffectOnValue<MemoryEffects::Read>(operand).has_value() &&
         llvm::none_of(user->getResultTypes(), llvm::IsaPred<MemRefType>);
}

/// The op of `block` after which `dealloc` (of a buffer allocated by
/// `alloc` in `block`) can go, or null where a value derived from the
/// buffer leaves the analysis. `position` numbers the ops of `block`.
Operation *lastUser(memref::AllocOp alloc, memref::DeallocOp dealloc,
                    Block *block,
                    const DenseMap<Operation *, unsigned> &position) {
  Operation *last = alloc;
  SmallVector<Value> worklist{alloc.getResult()};
  DenseSet<Value> derived{alloc.getResult()};
  auto derive = [&](Value value) {
    if (derived.insert(value).second)
      worklist.push_back(value);
  };
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      if (user == dealloc)
        continue;
      Operation *top = block->findAncestorOpInBlock(*user);
      if (!top || top->hasTrait<OpTrait::IsTerminator>() ||
          escapes(user, value))
        return nullptr;
      if (position.lookup(top) > position.lookup(last))
        last = top;
      if (!readsData(user, value))
        for (Value result : user->getResults())
          derive(result);
      for (Region &region : user->getRegions())
        for (Block &nested : region)
          for (BlockArgument argument : nested.getArguments())
            derive(argument);
    }
  }
  return last;
}

struct QntDeallocAfterLastUse
    : qnt::impl::QntDeallocAfterLastUseBase<QntDeallocAfterLastUse> {
  using Base::Base;

  void runOnOperation() final {
    bool changed = false;
    getOperation().walk([&](Block *block) {
      // Numbered once; the moves come after every decision, so moving one
      // dealloc never renumbers the block for the next.
      DenseMap<Operation *, unsigned> position;
      for (auto [index, op] : llvm::enumerate(*block))
        position[&op] = index;
      SmallVector<std::pair<memref::DeallocOp, Operation *>> moves;
      for (Operation &op : *block) {
        auto dealloc = dyn_cast<memref::DeallocOp>(op);
        if (!dealloc)
          continue;
        auto alloc = dealloc.getMemref().getDefiningOp<memref::AllocOp>();
        if (!alloc || alloc->getBlock() != block)
          continue;
        Operation *last = lastUser(alloc, dealloc, block, position);
        if (last && position.lookup(last) + 1 < position.lookup(dealloc))
          moves.emplace_back(dealloc, last);
      }
      // Deallocs moved after the same op keep their order.
      for (auto [dealloc, last] : llvm::reverse(moves))
        dealloc->moveAfter(last);
      changed |= !moves.empty();
    });
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
