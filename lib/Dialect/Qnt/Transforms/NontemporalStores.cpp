//===- NontemporalStores.cpp - large elementwise outputs, streamed --------===//
//
// An elementwise linalg.generic whose output exceeds the last-level cache is
// rewritten into vector loops that write the output with non-temporal,
// 64-byte aligned stores (no read-for-ownership of lines that are evicted
// anyway). The body's ops are applied to vectors in their order, so each
// element gets the same operations, and the same bits, as in the scalar loop.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/TargetParser/Triple.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTNONTEMPORALSTORES
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

/// Bytes of one vector store: a cache line on every target quant-opt knows,
/// and the alignment the stores are given.
constexpr int64_t kLineBytes = 64;

bool isScalarIntOrFloat(Type type) {
  return isa<IntegerType, FloatType>(type) &&
         type.getIntOrFloatBitWidth() % 8 == 0;
}

/// A value the body may compute on: any integer (i1 conditions included) or
/// float.
bool isScalar(Type type) { return isa<IntegerType, FloatType>(type); }

bool isContiguous(MemRefType type) {
  return type.hasStaticShape() && type.getLayout().isIdentity();
}

/// How many output elements one vector holds, or nullopt when `op` does not
/// qualify (the conditions of the pass description).
std::optional<int64_t> vectorLength(linalg::GenericOp op, int64_t minBytes) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInits() != 1 ||
      op.hasIndexSemantics() || op.getNumLoops() == 0 ||
      op.getNumParallelLoops() != op.getNumLoops())
    return std::nullopt;
  OpOperand *init = op.getDpsInitOperand(0);
  auto outType = dyn_cast<MemRefType>(init->get().getType());
  if (!outType || !isContiguous(outType) ||
      !isScalarIntOrFloat(outType.getElementType()) ||
      !op.getMatchingIndexingMap(init).isIdentity() ||
      !op.getMatchingBlockArgument(init).use_empty())
    return std::nullopt;
  auto alloc = init->get().getDefiningOp<memref::AllocOp>();
  if (!alloc || alloc.getAlignment().value_or(0) < kLineBytes)
    return std::nullopt;
  int64_t elementBytes = outType.getElementTypeBitWidth() / 8;
  int64_t rowBytes = outType.getShape().back() * elementBytes;
  if (kLineBytes % elementBytes != 0 || rowBytes == 0 ||
      rowBytes % kLineBytes != 0 ||
      outType.getNumElements() * elementBytes < minBytes)
    return std::nullopt;

  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    Type type = input->get().getType();
    if (isScalarIntOrFloat(type))
      continue;
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || !isContiguous(memref) ||
        !isScalarIntOrFloat(memref.getElementType()))
      return std::nullopt;
    AffineMap map = op.getMatchingIndexingMap(input);
    for (auto [i, expr] : llvm::enumerate(map.getResults())) {
      auto constant = dyn_cast<AffineConstantExpr>(expr);
      if (constant && constant.getValue() == 0)
        continue;
      auto dim = dyn_cast<AffineDimExpr>(expr);
      if (!dim)
        return std::nullopt;
      // The innermost loop may only move along the operand's last index.
      if (dim.getPosition() == innermost && i + 1 != map.getNumResults())
        return std::nullopt;
    }
  }
  for (Operation &bodyOp : op.getBody()->without_terminator()) {
    if (isa<arith::ConstantOp>(bodyOp))
      continue;
    // arith.select is not marked elementwise (its condition may be a
    // scalar), but with every operand a vector it is.
    bool elementwise =
        bodyOp.hasTrait<OpTrait::Elementwise>() || isa<arith::SelectOp>(bodyOp);
    if (!elementwise || !isMemoryEffectFree(&bodyOp) ||
        bodyOp.getNumRegions() != 0 || bodyOp.getNumResults() != 1 ||
        !llvm::all_of(bodyOp.getOperandTypes(), isScalar) ||
        !llvm::all_of(bodyOp.getResultTypes(), isScalar))
      return std::nullopt;
  }
  return kLineBytes / elementBytes;
}

/// The operand's indices at the loop position `ivs`.
SmallVector<Value> operandIndices(OpBuilder &b, Location loc, AffineMap map,
                                  ValueRange ivs) {
  SmallVector<Value> indices;
  for (AffineExpr expr : map.getResults()) {
    if (auto dim = dyn_cast<AffineDimExpr>(expr))
      indices.push_back(ivs[dim.getPosition()]);
    else
      indices.push_back(arith::ConstantIndexOp::create(b, loc, 0));
  }
  return indices;
}

void rewrite(linalg::GenericOp op, int64_t length, bool fence) {
  OpBuilder b(op);
  Location loc = op.getLoc();
  auto outType = cast<MemRefType>(op.getDpsInitOperand(0)->get().getType());
  auto vectorOf = [&](Type scalar) {
    return VectorType::get({length}, scalar);
  };
  auto broadcast = [&](Value scalar) -> Value {
    return vector::BroadcastOp::create(b, loc, vectorOf(scalar.getType()),
                                       scalar);
  };

  // Loops: one per leading dimension, then the innermost one in vectors.
  SmallVector<Value> ivs;
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  ArrayRef<int64_t> shape = outType.getShape();
  auto mark = UnitAttr::get(op.getContext());
  Operation *outermost = nullptr;
  for (int64_t size : shape.drop_back()) {
    auto loop = scf::ForOp::create(
        b, loc, zero, arith::ConstantIndexOp::create(b, loc, size), one);
    loop->setAttr(QntDialect::ParallelTilesAttrHelper::getNameStr(), mark);
    if (!outermost)
      outermost = loop;
    ivs.push_back(loop.getInductionVar());
    b.setInsertionPoint(loop.getBody()->getTerminator());
  }
  auto inner = scf::ForOp::create(
      b, loc, zero, arith::ConstantIndexOp::create(b, loc, shape.back()),
      arith::ConstantIndexOp::create(b, loc, length));
  if (!outermost)
    outermost = inner;
  ivs.push_back(inner.getInductionVar());
  b.setInsertionPoint(inner.getBody()->getTerminator());

  // Inputs: a vector along the innermost dimension, or a broadcast scalar.
  IRMapping mapping;
  unsigned innermost = op.getNumLoops() - 1;
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument arg = op.getMatchingBlockArgument(input);
    Value source = input->get();
    if (!isa<MemRefType>(source.getType())) {
      mapping.map(arg, broadcast(source));
      continue;
    }
    AffineMap map = op.getMatchingIndexingMap(input);
    SmallVector<Value> indices = operandIndices(b, loc, map, ivs);
    if (map.isFunctionOfDim(innermost)) {
      mapping.map(arg, vector::LoadOp::create(b, loc, vectorOf(arg.getType()),
                                              source, indices));
    } else {
      mapping.map(arg,
                  broadcast(memref::LoadOp::create(b, loc, source, indices)));
    }
  }

  // The body, op by op on vectors; values from above become broadcasts.
  auto vectorized = [&](Value value) -> Value {
    if (Value mapped = mapping.lookupOrNull(value))
      return mapped;
    Value splat = broadcast(value);
    mapping.map(value, splat);
    return splat;
  };
  for (Operation &bodyOp : op.getBody()->without_terminator()) {
    if (isa<arith::ConstantOp>(bodyOp)) {
      mapping.map(bodyOp.getResult(0),
                  broadcast(b.clone(bodyOp)->getResult(0)));
      continue;
    }
    OperationState state(bodyOp.getLoc(), bodyOp.getName());
    for (Value operand : bodyOp.getOperands())
      state.operands.push_back(vectorized(operand));
    state.types.push_back(vectorOf(bodyOp.getResult(0).getType()));
    state.attributes = bodyOp.getAttrs();
    mapping.map(bodyOp.getResult(0), b.create(state)->getResult(0));
  }
  Value result = vectorized(op.getBody()->getTerminator()->getOperand(0));
  vector::StoreOp::create(b, loc, result, op.getDpsInitOperand(0)->get(), ivs,
                          /*nontemporal=*/true, llvm::MaybeAlign(kLineBytes));

  if (fence) {
    // x86's non-temporal stores are weakly ordered: without the fence a
    // later ordinary store (say, a flag another thread waits on) could
    // become visible before them.
    b.setInsertionPointAfter(outermost);
    LLVM::CallIntrinsicOp::create(
        b, loc, b.getStringAttr("llvm.x86.sse.sfence"), ValueRange());
  }
  op.erase();
}

struct QntNontemporalStores
    : qnt::impl::QntNontemporalStoresBase<QntNontemporalStores> {
  using Base::Base;

  void runOnOperation() final {
    auto module = getOperation()->getParentOfType<ModuleOp>();
    auto target = module ? module->getAttrOfType<LLVM::TargetAttr>(
                               LLVM::LLVMDialect::getTargetAttrName())
                         : LLVM::TargetAttr();
    if (!target) {
      markAllAnalysesPreserved();
      return;
    }
    bool fence = llvm::Triple(target.getTriple().str()).isX86();
    SmallVector<std::pair<linalg::GenericOp, int64_t>> ops;
    getOperation()->walk([&](linalg::GenericOp op) {
      if (std::optional<int64_t> length = vectorLength(op, minBytes))
        ops.emplace_back(op, *length);
    });
    if (ops.empty()) {
      markAllAnalysesPreserved();
      return;
    }
    for (auto [op, length] : ops)
      rewrite(op, length, fence);
  }
};

} // namespace
