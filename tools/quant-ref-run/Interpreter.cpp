//===- Interpreter.cpp - function bodies, calls and printing --------------===//

#include "Interpreter.h"

#include "mlir/ExecutionEngine/RunnerUtils.h"

#include <cstring>
#include <iostream>

using namespace mlir;
using namespace quantrefrun;

/// Nested calls deeper than this are reported (recursion would otherwise
/// exhaust the stack).
static constexpr unsigned kMaxCallDepth = 64;

const Tensor *Interpreter::lookup(Operation *user, Value v) {
  auto it = values.find(v);
  if (it != values.end())
    return &it->second;
  user->emitError("quant-ref-run: an operand has no value (defined in an "
                  "unsupported position)");
  return nullptr;
}

LogicalResult Interpreter::run(func::FuncOp func, ArrayRef<Tensor> args,
                               SmallVectorImpl<Tensor> &results) {
  if (func.isExternal())
    return func.emitError("quant-ref-run: cannot run an external function");
  if (!func.getBody().hasOneBlock())
    return func.emitError("quant-ref-run: only single-block functions");
  Block &block = func.getBody().front();
  if (block.getNumArguments() != args.size())
    return func.emitError("quant-ref-run: called with ")
           << args.size() << " arguments";
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    values[arg] = value;
  bool returned = false;
  for (Operation &op : block) {
    if (failed(step(&op, &results, returned)))
      return failure();
    if (returned)
      return success();
  }
  return func.emitError("quant-ref-run: missing return");
}

LogicalResult Interpreter::step(Operation *op, SmallVectorImpl<Tensor> *results,
                                bool &returned) {
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (Value v : ret.getOperands()) {
      const Tensor *t = lookup(op, v);
      if (!t)
        return failure();
      results->push_back(*t);
    }
    returned = true;
    return success();
  }
  if (auto callOp = dyn_cast<func::CallOp>(op))
    return call(callOp);
  if (op->getName().getDialectNamespace() == "qnt") {
    if (op->isRegistered())
      return op->emitError("quant-ref-run: internal error: qnt is registered");
    return evalQnt(op);
  }
  bool handled = false;
  if (failed(evalUpstream(op, handled)))
    return failure();
  if (handled)
    return success();
  return op->emitError("quant-ref-run: unsupported op '")
         << op->getName() << "'";
}

LogicalResult Interpreter::call(func::CallOp callOp) {
  if (callOp.getCallee().starts_with("printMemref"))
    return print(callOp);
  auto callee = module.lookupSymbol<func::FuncOp>(callOp.getCallee());
  if (!callee)
    return callOp.emitError("quant-ref-run: unknown callee");
  if (depth >= kMaxCallDepth)
    return callOp.emitError("quant-ref-run: calls nested deeper than ")
           << kMaxCallDepth;
  SmallVector<Tensor> args, results;
  for (Value v : callOp.getOperands()) {
    const Tensor *t = lookup(callOp, v);
    if (!t)
      return failure();
    args.push_back(*t);
  }
  Interpreter nested(module, depth + 1);
  if (failed(nested.run(callee, args, results)))
    return failure();
  if (results.size() != callOp.getNumResults())
    return callOp.emitError("quant-ref-run: callee returned ")
           << results.size() << " values";
  for (auto [result, value] : llvm::zip(callOp.getResults(), results))
    values[result] = value;
  return success();
}

/// Re-reads the low `width` bits of `code` with the given signedness.
static int32_t reinterpret(int32_t code, unsigned width, bool isSigned) {
  if (width >= 32)
    return code;
  uint32_t mask = (1u << width) - 1;
  uint32_t bits = static_cast<uint32_t>(code) & mask;
  if (isSigned && (bits >> (width - 1)))
    return static_cast<int32_t>(bits | ~mask);
  return static_cast<int32_t>(bits);
}

/// Prints like upstream printMemrefI32 / printMemrefF32 (the same template),
/// including the 'Unranked Memref' header line.
template <typename T>
static void printLikeUpstream(const std::vector<int64_t> &shape,
                              std::vector<T> data) {
  int64_t rank = shape.size();
  std::vector<int64_t> descriptor(3 + 2 * rank);
  T *ptr = data.data();
  std::memcpy(&descriptor[0], &ptr, sizeof(ptr));
  std::memcpy(&descriptor[1], &ptr, sizeof(ptr));
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    descriptor[3 + d] = shape[d];
    descriptor[3 + rank + d] = stride;
    stride *= shape[d];
  }
  ::UnrankedMemRefType<T> unranked = {rank, descriptor.data()};
  std::cout << "Unranked Memref ";
  ::impl::printMemRef(::DynamicMemRefType<T>(unranked));
}

LogicalResult Interpreter::print(func::CallOp call) {
  if (call.getNumOperands() != 1)
    return call.emitError("quant-ref-run: print takes one memref");
  const Tensor *t = lookup(call, call.getOperand(0));
  if (!t)
    return failure();
  StringRef name = call.getCallee();
  int64_t count = numElements(t->shape);
  size_t size = name == "printMemrefF32" ? t->floats.size() : t->codes.size();
  if (static_cast<int64_t>(size) != count)
    return call.emitError("quant-ref-run: ")
           << name << " of a tensor holding " << size << " values of the "
           << "printed kind for " << count << " elements";
  // Upstream's printer (and lib/Runtime's, which matches it) prints each
  // dimension's first element unconditionally, so it reads out of bounds on
  // an empty tensor: there is no output to be compared with.
  if (count == 0)
    return call.emitError("quant-ref-run: ")
           << name << " of a tensor with no elements (shape has a 0 "
           << "dimension): upstream's printMemref reads its first element";
  if (name == "printMemrefF32") {
    printLikeUpstream<float>(t->shape, t->floats);
    return success();
  }
  // 8-bit codes are printed widened to i32 (lib/Runtime does the same for
  // the compiled side); the reinterpretation follows the callee's name.
  std::vector<int32_t> codes = t->codes;
  if (name == "printMemrefI8" || name == "printMemrefU8")
    for (int32_t &code : codes)
      code = reinterpret(code, 8, name == "printMemrefI8");
  else if (name == "printMemrefI16")
    for (int32_t &code : codes)
      code = reinterpret(code, 16, /*isSigned=*/true);
  else if (name != "printMemrefI32")
    return call.emitError("quant-ref-run: unsupported printer ") << name;
  printLikeUpstream<int32_t>(t->shape, codes);
  return success();
}
