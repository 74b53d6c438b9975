//===- FusedElementwise.cpp - an elementwise body in a kernel's epilogue --===//

#include "FusedElementwise.h"

#include "KernelEmitter.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::qnt::x86vnni;

namespace {

bool isScalar(Type t) { return t.isIntOrFloat(); }

/// Whether a vector of `t` has the layout of consecutive tensor elements:
/// a vector<16 x i1> (or i24) is bit-packed, a tensor's elements are not.
bool isStorableElement(Type t) {
  if (!t.isIntOrFloat())
    return false;
  unsigned width = t.getIntOrFloatBitWidth();
  return width >= 8 && llvm::isPowerOf2_32(width);
}

/// Whether `o` may run on every lane of a vector, padding lanes included.
bool isVectorizableScalarOp(Operation &o) {
  if (o.getNumRegions() != 0 || !isMemoryEffectFree(&o))
    return false;
  if (!llvm::all_of(o.getOperandTypes(), isScalar) ||
      !llvm::all_of(o.getResultTypes(), isScalar))
    return false;
  if (isa<arith::ConstantOp>(o))
    return true;
  // LLVM's powi takes a scalar exponent: a vector one does not lower.
  if (isa<math::FPowIOp>(o))
    return false;
  // An integer division traps on a zero divisor, which a padding lane may
  // hold even when no real element does (math.ipowi divides too, for a
  // negative exponent of 0).
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp,
          math::IPowIOp>(o))
    return false;
  return o.hasTrait<OpTrait::Elementwise>() &&
         o.hasTrait<OpTrait::Vectorizable>();
}

/// Whether input `operand` is read at loop dimensions in order (the column,
/// d1, last) or at constants within its shape, with each dimension's size
/// the loop's.
bool isSupportedAccess(OpOperand &operand, AffineMap map,
                       ArrayRef<int64_t> loops) {
  auto type = dyn_cast<RankedTensorType>(operand.get().getType());
  if (!type)
    return isScalar(operand.get().getType());
  if (!type.hasStaticShape() || !isStorableElement(type.getElementType()))
    return false;
  int64_t lastDim = -1;
  for (auto [pos, e] : llvm::enumerate(map.getResults())) {
    int64_t size = type.getDimSize(pos);
    if (auto d = dyn_cast<AffineDimExpr>(e)) {
      int64_t dim = d.getPosition();
      if (dim <= lastDim || size != loops[dim])
        return false;
      if (dim == 1 && pos + 1 != map.getNumResults())
        return false;
      lastDim = dim;
    } else if (auto c = dyn_cast<AffineConstantExpr>(e)) {
      if (c.getValue() < 0 || c.getValue() >= size)
        return false;
    } else {
      return false;
    }
  }
  return true;
}

} // namespace

std::optional<FusedElementwise> FusedElementwise::plan(Value acc) {
  if (!acc.hasOneUse())
    return std::nullopt;
  OpOperand &use = *acc.use_begin();
  auto op = dyn_cast<linalg::GenericOp>(use.getOwner());
  // In another block (a loop body, say) the kernel would move there with it.
  if (!op || op->getBlock() != acc.getParentBlock() || op.getNumLoops() != 2 ||
      op.getNumParallelLoops() != 2 || op.getNumDpsInits() != 1 ||
      op.getNumResults() != 1 || !op.isDpsInput(&use))
    return std::nullopt;
  auto resultType = dyn_cast<RankedTensorType>(op.getResult(0).getType());
  auto accType = cast<RankedTensorType>(acc.getType());
  if (!resultType || resultType.getShape() != accType.getShape() ||
      !isStorableElement(resultType.getElementType()))
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  if (!op.getMatchingIndexingMap(init).isIdentity() ||
      op.payloadUsesValueFromOperand(init) ||
      !op.getMatchingIndexingMap(&use).isIdentity())
    return std::nullopt;
  SmallVector<int64_t> loops(accType.getShape());
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isSupportedAccess(*input, op.getMatchingIndexingMap(input), loops))
      return std::nullopt;
  Block &body = op.getRegion().front();
  for (Operation &o : body.without_terminator()) {
    if (!isVectorizableScalarOp(o))
      return std::nullopt;
    // Values from above are broadcast.
    for (Value v : o.getOperands())
      if (v.getParentRegion() != &op.getRegion() && !isScalar(v.getType()))
        return std::nullopt;
  }
  for (Value v : body.getTerminator()->getOperands())
    if (v.getParentRegion() != &op.getRegion())
      return std::nullopt;
  return FusedElementwise(op, use.getOperandNumber());
}

Type FusedElementwise::getResultElementType() const {
  linalg::GenericOp generic = op;
  return cast<RankedTensorType>(generic.getResult(0).getType())
      .getElementType();
}

Value FusedElementwise::apply(OpBuilder &b, Location loc, Value acc, Value row,
                              Value col, int64_t len) const {
  auto vectorOf = [&](Type t) { return VectorType::get({kLanes}, t); };
  auto broadcast = [&](Value scalar) -> Value {
    if (auto c = scalar.getDefiningOp<arith::ConstantOp>())
      return arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(vectorOf(scalar.getType()), c.getValue()));
    return vector::BroadcastOp::create(b, loc, vectorOf(scalar.getType()),
                                       scalar);
  };
  linalg::GenericOp generic = op; // op handles are not const-correct
  Block &body = generic.getRegion().front();
  IRMapping lanes;
  for (OpOperand *input : generic.getDpsInputOperands()) {
    BlockArgument arg = body.getArgument(input->getOperandNumber());
    if (input->getOperandNumber() == accInput) {
      lanes.map(arg, acc);
      continue;
    }
    Value src = input->get();
    if (!isa<RankedTensorType>(src.getType())) {
      lanes.map(arg, broadcast(src));
      continue;
    }
    SmallVector<Value> indices;
    bool perColumn = false;
    for (AffineExpr e : generic.getMatchingIndexingMap(input).getResults()) {
      if (auto d = dyn_cast<AffineDimExpr>(e)) {
        perColumn |= d.getPosition() == 1;
        indices.push_back(d.getPosition() == 0 ? row : col);
      } else {
        indices.push_back(arith::ConstantIndexOp::create(
            b, loc, cast<AffineConstantExpr>(e).getValue()));
      }
    }
    if (perColumn)
      lanes.map(arg, readPadded(b, loc, src, indices, len, kLanes));
    else
      lanes.map(arg,
                broadcast(tensor::ExtractOp::create(b, loc, src, indices)));
  }
  for (Operation &o : body.without_terminator()) {
    if (auto c = dyn_cast<arith::ConstantOp>(o)) {
      lanes.map(c.getResult(), broadcast(c.getResult()));
      continue;
    }
    OperationState state(loc, o.getName());
    for (Value v : o.getOperands())
      state.addOperands(lanes.contains(v) ? lanes.lookup(v) : broadcast(v));
    state.addAttributes(o.getAttrs());
    for (Type t : o.getResultTypes())
      state.addTypes(vectorOf(t));
    Operation *vectorOp = b.create(state);
    lanes.map(o.getResults(), vectorOp->getResults());
  }
  return lanes.lookup(body.getTerminator()->getOperand(0));
}
