//===- VerifyPerAxisShapes.cpp - per-axis types through shape ops ---------===//
//
// A per-axis type names its quantized dimension by index. Upstream shape ops
// keep the element type unchanged, so the index stays while the dimensions
// move: this pass reports every shape op after which that index no longer
// names the same dimension with the same size, and every value whose type
// has no such dimension or another number of entries than scales (what a
// concat or insert_slice along the axis makes), and every tensor.pad of such
// a value along the axis. Everything else passes.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTVERIFYPERAXISSHAPES
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

/// The per-axis element type of a shaped value, or null.
static quant::UniformQuantizedPerAxisType getPerAxisType(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped)
    return {};
  return dyn_cast<quant::UniformQuantizedPerAxisType>(shaped.getElementType());
}

/// Builtin tensor types do not check a per-axis element type against their
/// shape, so any op may carry one whose quantized dimension does not exist
/// or has another number of entries than the type has scales (a
/// tensor.concat or tensor.pad along the axis, a result type written so).
/// `role` names the value in the message ("source", "result #0", ...).
static LogicalResult verifyAxisFits(Operation *op, Type shapedType,
                                    quant::UniformQuantizedPerAxisType type,
                                    const Twine &role) {
  auto shaped = cast<ShapedType>(shapedType);
  int64_t axis = type.getQuantizedDimension();
  if (!shaped.hasRank())
    return success();
  if (axis < 0 || axis >= shaped.getRank())
    return op->emitOpError() << role << " type " << shapedType
                             << " has no dimension " << axis
                             << ", the quantized axis of its per-axis type";
  int64_t size = shaped.getDimSize(axis);
  int64_t scales = static_cast<int64_t>(type.getScales().size());
  if (!ShapedType::isDynamic(size) && size != scales)
    return op->emitOpError()
           << role << " type " << shapedType << " has size " << size
           << " in dimension " << axis << " but its per-axis type has "
           << scales << " scales";
  return success();
}

/// Whether, within one reassociation group, every dimension other than
/// `keep` has static size 1 (so the group is the quantized dimension alone).
static bool othersAreUnit(ArrayRef<int64_t> group, int64_t keep,
                          ArrayRef<int64_t> shape) {
  return llvm::all_of(group,
                      [&](int64_t d) { return d == keep || shape[d] == 1; });
}

/// The index the quantized dimension `axis` of the source has in the
/// result, or nullopt when the op merges, splits, cuts or drops it.
static std::optional<int64_t> mapAxis(Operation *op, int64_t axis) {
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    ArrayRef<int64_t> shape = collapse.getSrcType().getShape();
    for (auto [g, group] : llvm::enumerate(collapse.getReassociationIndices()))
      if (llvm::is_contained(group, axis))
        return othersAreUnit(group, axis, shape) ? std::optional<int64_t>(g)
                                                 : std::nullopt;
    return std::nullopt;
  }
  if (auto expand = dyn_cast<tensor::ExpandShapeOp>(op)) {
    ArrayRef<int64_t> shape = expand.getResultType().getShape();
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    if (axis >= static_cast<int64_t>(groups.size()))
      return std::nullopt;
    // The one non-unit result dimension of the group carries the axis.
    ArrayRef<int64_t> group = groups[axis];
    std::optional<int64_t> carrier;
    for (int64_t d : group)
      if (shape[d] != 1) {
        if (carrier)
          return std::nullopt;
        carrier = d;
      }
    return carrier ? carrier : std::optional<int64_t>(group.front());
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    int64_t size = slice.getSourceType().getDimSize(axis);
    std::optional<int64_t> offset =
        getConstantIntValue(slice.getMixedOffsets()[axis]);
    std::optional<int64_t> length =
        getConstantIntValue(slice.getMixedSizes()[axis]);
    std::optional<int64_t> stride =
        getConstantIntValue(slice.getMixedStrides()[axis]);
    llvm::SmallBitVector dropped = slice.getDroppedDims();
    if (offset != 0 || length != size || stride != 1 || dropped.test(axis))
      return std::nullopt;
    int64_t before = 0;
    for (int64_t d = 0; d < axis; ++d)
      before += dropped.test(d);
    return axis - before;
  }
  if (auto reshape = dyn_cast<tensor::ReshapeOp>(op)) {
    // The axis survives where a result dimension of the same size starts
    // after as many elements as it did in the source (static shapes only);
    // the axis's own index is preferred where unit dimensions make several
    // candidates.
    auto source = cast<ShapedType>(reshape.getSource().getType());
    auto result = cast<ShapedType>(reshape.getResult().getType());
    if (!source.hasStaticShape() || !result.hasStaticShape())
      return std::nullopt;
    ArrayRef<int64_t> in = source.getShape(), out = result.getShape();
    auto product = [](ArrayRef<int64_t> dims) -> std::optional<int64_t> {
      int64_t p = 1;
      for (int64_t d : dims)
        if (llvm::MulOverflow(p, d, p))
          return std::nullopt;
      return p;
    };
    std::optional<int64_t> before = product(in.take_front(axis));
    if (!before)
      return std::nullopt;
    std::optional<int64_t> found;
    for (int64_t j = 0, e = static_cast<int64_t>(out.size()); j < e; ++j) {
      std::optional<int64_t> prefix = product(out.take_front(j));
      if (!prefix || *prefix > *before)
        break;
      if (*prefix == *before && out[j] == in[axis] && (!found || j == axis))
        found = j;
    }
    return found;
  }
  if (auto insert = dyn_cast<tensor::InsertSliceOp>(op)) {
    // The source's dimensions are the destination's minus the unit ones a
    // rank-reducing insert drops; the axis must fill its destination
    // dimension from offset 0 with stride 1 to keep every entry's scale.
    ArrayRef<int64_t> sizes = insert.getStaticSizes();
    std::optional<llvm::SmallDenseSet<unsigned>> dropped =
        computeRankReductionMask(sizes, insert.getSourceType().getShape());
    if (!dropped)
      return std::nullopt;
    int64_t seen = -1;
    for (int64_t d = 0, e = static_cast<int64_t>(sizes.size()); d < e; ++d) {
      if (dropped->contains(d) || ++seen != axis)
        continue;
      if (!isConstantIntValue(insert.getMixedOffsets()[d], 0) ||
          !isConstantIntValue(insert.getMixedStrides()[d], 1) ||
          sizes[d] != insert.getDestType().getDimSize(d))
        return std::nullopt;
      return d;
    }
    return std::nullopt;
  }
  if (auto broadcast = dyn_cast<linalg::BroadcastOp>(op)) {
    // Input dimension i is the i-th result dimension not in `dimensions`.
    ArrayRef<int64_t> added = broadcast.getDimensions();
    int64_t seen = -1;
    for (int64_t d = 0, e = broadcast.getInit().getType().getRank(); d < e;
         ++d)
      if (!llvm::is_contained(added, d) && ++seen == axis)
        return d;
    return std::nullopt;
  }
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    // Result dimension i is input dimension perm[i].
    ArrayRef<int64_t> perm = transpose.getPermutation();
    for (auto [i, source] : llvm::enumerate(perm))
      if (source == axis)
        return static_cast<int64_t>(i);
    return std::nullopt;
  }
  return axis;
}

/// Reports a tensor.pad that may add entries to the quantized axis: they
/// would have no scale. Padding the other dimensions keeps the axis.
static LogicalResult checkPad(tensor::PadOp pad,
                              quant::UniformQuantizedPerAxisType type) {
  int64_t axis = type.getQuantizedDimension();
  auto isZero = [](OpFoldResult amount) {
    return isConstantIntValue(amount, 0);
  };
  if (isZero(pad.getMixedLowPad()[axis]) && isZero(pad.getMixedHighPad()[axis]))
    return success();
  return pad.emitOpError("pads dimension ")
         << axis << ", the quantized axis of the per-axis type " << type
         << ": the padded entries would have no scale; pad only the other "
            "dimensions of a per-axis tensor (or requantize to per tensor "
            "first)";
}

/// Reports a shape op after which the quantized axis of its (fitting)
/// per-axis source is no longer the same dimension of the same size.
static LogicalResult checkShapeOp(Operation *op) {
  Value source = op->getOperand(0);
  quant::UniformQuantizedPerAxisType type = getPerAxisType(source.getType());
  if (!type)
    return success();
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return checkPad(pad, type);
  int64_t axis = type.getQuantizedDimension();
  std::optional<int64_t> mapped = mapAxis(op, axis);
  // Kept in place: upstream's own verifiers make the result's size in
  // that dimension equal the source's.
  if (mapped == axis)
    return success();
  InFlightDiagnostic diag =
      op->emitOpError("changes dimension ")
      << axis << ", the quantized axis of the per-axis type " << type << ": ";
  if (mapped)
    diag << "it would become dimension " << *mapped
         << " while the type still names " << axis;
  else if (isa<tensor::ReshapeOp>(op) &&
           !cast<ShapedType>(op->getResult(0).getType()).hasStaticShape())
    diag << "a tensor.reshape to a dynamic shape cannot show where it "
            "goes";
  else
    diag << "it is merged, split, sliced or dropped";
  diag << "; shape ops on per-axis tensors must keep that dimension in "
          "place (or requantize to per tensor first)";
  return failure();
}

namespace {
struct QntVerifyPerAxisShapesPass
    : qnt::impl::QntVerifyPerAxisShapesBase<QntVerifyPerAxisShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    // Each ill-fitting value is reported once, at its definition or (for
    // a block argument) at its first user.
    llvm::DenseSet<Value> reported;
    auto fits = [&](Operation *op, Value value, const Twine &role) {
      quant::UniformQuantizedPerAxisType type =
          getPerAxisType(value.getType());
      if (!type || reported.contains(value))
        return true;
      if (succeeded(verifyAxisFits(op, value.getType(), type, role)))
        return true;
      reported.insert(value);
      failedAny = true;
      return false;
    };
    getOperation().walk([&](Operation *op) {
      // A shape op's source is checked here and its result by where the
      // axis goes; the result of an ill-placed axis does not fit either,
      // and that message would hide why.
      if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
              tensor::ExtractSliceOp, tensor::InsertSliceOp,
              tensor::ReshapeOp, tensor::PadOp, linalg::TransposeOp,
              linalg::BroadcastOp>(op)) {
        auto insert = dyn_cast<tensor::InsertSliceOp>(op);
        if (fits(op, op->getOperand(0), "source") &&
            (!insert || fits(op, insert.getDest(), "operand #1")) &&
            succeeded(checkShapeOp(op)))
          return;
        failedAny = true;
        reported.insert(op->result_begin(), op->result_end());
        return;
      }
      // One message per op, none for what it computes from a bad value.
      // A tensor.empty has no contents: its users check its type.
      for (auto [i, operand] : llvm::enumerate(op->getOperands()))
        if (!fits(op, operand, Twine("operand #") + Twine(i))) {
          reported.insert(op->result_begin(), op->result_end());
          return;
        }
      if (isa<tensor::EmptyOp>(op))
        return;
      for (auto [i, result] : llvm::enumerate(op->getResults()))
        if (!fits(op, result, Twine("result #") + Twine(i)))
          return;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
