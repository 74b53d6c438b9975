//===- VerifyPerAxisShapes.cpp - per-axis types through shape ops ---------===//
//
// A per-axis type names its quantized dimension by index. Upstream shape ops
// keep the element type unchanged, so the index stays while the dimensions
// move: this pass reports every shape op after which that index no longer
// names the same dimension with the same size. Everything else passes.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

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
/// shape, so a shape op may carry one whose quantized dimension does not
/// exist or has another number of entries than the type has scales.
static LogicalResult verifyAxisFits(Operation *op, Type shapedType,
                                    quant::UniformQuantizedPerAxisType type) {
  auto shaped = cast<ShapedType>(shapedType);
  int64_t axis = type.getQuantizedDimension();
  if (!shaped.hasRank())
    return success();
  if (axis < 0 || axis >= shaped.getRank())
    return op->emitOpError() << "source type " << shapedType
                             << " has no dimension " << axis
                             << ", the quantized axis of its per-axis type";
  int64_t size = shaped.getDimSize(axis);
  int64_t scales = static_cast<int64_t>(type.getScales().size());
  if (!ShapedType::isDynamic(size) && size != scales)
    return op->emitOpError()
           << "source type " << shapedType << " has size " << size
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

namespace {
struct QntVerifyPerAxisShapesPass
    : qnt::impl::QntVerifyPerAxisShapesBase<QntVerifyPerAxisShapesPass> {
  using Base::Base;

  void runOnOperation() override {
    bool failedAny = false;
    getOperation().walk([&](Operation *op) {
      if (!isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp,
               tensor::ExtractSliceOp, linalg::TransposeOp>(op))
        return;
      Value source = op->getOperand(0);
      quant::UniformQuantizedPerAxisType type =
          getPerAxisType(source.getType());
      if (!type)
        return;
      if (failed(verifyAxisFits(op, source.getType(), type))) {
        failedAny = true;
        return;
      }
      int64_t axis = type.getQuantizedDimension();
      std::optional<int64_t> mapped = mapAxis(op, axis);
      // Kept in place: upstream's own verifiers make the result's size in
      // that dimension equal the source's.
      if (mapped == axis)
        return;
      InFlightDiagnostic diag = op->emitOpError("changes dimension ")
                                << axis
                                << ", the quantized axis of the per-axis type "
                                << type << ": ";
      if (mapped)
        diag << "it would become dimension " << *mapped
             << " while the type still names " << axis;
      else
        diag << "it is merged, split, sliced or dropped";
      diag << "; shape ops on per-axis tensors must keep that dimension in "
              "place (or requantize to per tensor first)";
      failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }
};
} // namespace
