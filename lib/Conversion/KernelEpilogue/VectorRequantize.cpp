//===- VectorRequantize.cpp - requantize in a kernel's epilogue -----------===//

#include "VectorRequantize.h"

#include "../QntToLinalg/FixedPointBuilder.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::qnt;
using RefRounding = quantopt::ref::RoundingMode;

std::optional<VectorRequantize> VectorRequantize::plan(IntRequantizeOp op,
                                                       int64_t channels) {
  std::optional<EpiloguePlan> p = EpiloguePlan::get(op, channels);
  if (!p)
    return std::nullopt;
  return VectorRequantize(*p);
}

std::optional<VectorRequantize>
VectorRequantize::fuseSingleUser(OpBuilder &b, Location loc, Value result,
                                 int64_t channels, int64_t tableSize) {
  IntRequantizeOp requant = soleRequantizeUser(result);
  if (!requant)
    return std::nullopt;
  std::optional<VectorRequantize> fused = plan(requant, channels);
  if (fused)
    fused->materialize(b, loc, tableSize);
  return fused;
}

void VectorRequantize::replaceResult(
    PatternRewriter &rewriter, Operation *op,
    const std::optional<VectorRequantize> &fused, Value value) {
  if (!fused) {
    rewriter.replaceOp(op, value);
    return;
  }
  rewriter.replaceAllUsesWith(fused->getOp().getOutput(), value);
}

void VectorRequantize::materialize(OpBuilder &b, Location loc,
                                   int64_t tableSize) {
  materializeParams(b, loc, tableSize);
  if (mode == RefRounding::Double)
    materializeBoundsMinusZeroPoint(b, loc, tableSize);
}

Value VectorRequantize::param(OpBuilder &b, Location loc,
                              const ChannelParam &p, VectorType type,
                              Value c0, Value mask) const {
  if (!p.table)
    return arith::ConstantOp::create(b, loc,
                                     DenseElementsAttr::get(type, p.splat));
  Type elt = type.getElementType();
  Value zero = arith::ConstantOp::create(
      b, loc, isa<FloatType>(elt) ? TypedAttr(b.getFloatAttr(elt, 0.0))
                                  : TypedAttr(b.getIntegerAttr(elt, 0)));
  auto identity = AffineMapAttr::get(
      AffineMap::getMinorIdentityMap(1, 1, b.getContext()));
  return vector::TransferReadOp::create(b, loc, type, p.table,
                                        ValueRange{c0}, identity, zero, mask,
                                        b.getBoolArrayAttr({true}));
}

Value VectorRequantize::apply(OpBuilder &b, Location loc, Value acc, Value c0,
                              Value mask) const {
  auto accType = cast<VectorType>(acc.getType());
  auto read = [&](const ChannelParam &p, VectorType type) {
    return param(b, loc, p, type, c0, mask);
  };
  FixedPointBuilder fp(b, loc, accType);
  Value result = subtractInputZeroPoint(b, loc, fp, acc, read);
  RescaleOperands rescale = readRescaleOperands(b, accType, read);
  Value zp = read(zpOut, accType);
  return narrowToStorage(
      b, loc, rescaleAndClamp(b, loc, fp, result, rescale, zp, read));
}
