//===- KernelLoops.cpp - small builders for kernel loop nests -------------===//

#include "QuantOpt/Dialect/Qnt/Utils/KernelLoops.h"

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;
using namespace mlir::qnt;

ValueRange mlir::qnt::markParallelTiles(Operation *loop) {
  loop->setAttr(QntDialect::ParallelTilesAttrHelper::getNameStr(),
                UnitAttr::get(loop->getContext()));
  return loop->getResults();
}

Value IndexBuilder::c(int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

Value IndexBuilder::add(Value x, Value y) {
  return arith::AddIOp::create(b, loc, x, y);
}

Value IndexBuilder::add(Value x, int64_t y) { return y ? add(x, c(y)) : x; }

Value IndexBuilder::mul(Value x, int64_t y) {
  return y == 1 ? x : arith::MulIOp::create(b, loc, x, c(y)).getResult();
}

Value IndexBuilder::div(Value x, int64_t y) {
  return y == 1 ? x : arith::DivUIOp::create(b, loc, x, c(y)).getResult();
}

Value IndexBuilder::rem(Value x, int64_t y) {
  return arith::RemUIOp::create(b, loc, x, c(y));
}
