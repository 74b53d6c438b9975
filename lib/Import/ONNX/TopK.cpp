//===- TopK.cpp - TopK ----------------------------------------------------===//
//
// ONNX's TopK (a classifier's top-5, a detector's best boxes): the K
// largest (or smallest) elements along one axis and their int64 indices,
// always in sorted order (with `sorted = 0` ONNX leaves the order open).
//
// The order is a total one, so that the result is defined for every input:
// by value, an equal value (+0.0 and -0.0 are equal) by the lower index as
// ONNX specifies, and a NaN after every number (largest and smallest alike,
// the lower index first among NaNs), which is where ONNX's reference puts
// it (a stable numpy sort of -X or X). Two linalg.generic ops compute it:
// the rank of each element (how many elements of its slice come before
// it), then for each output position r the element whose rank is r. The
// comparison runs on f32 (dequantized codes where the input is quantized,
// so per-axis scales and uint8 codes order as the reals do) or on the
// integers themselves; the values are the elements themselves (codes stay
// on their grid). The cost is quadratic in the axis length, which is
// bounded. Compile-time data folds in the same order.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// The rank computation compares every pair of a slice: bounded.
static constexpr int64_t kMaxAxis = 1 << 14;

/// Whether key `other` (at `otherIndex`) comes before key `self` (at
/// `selfIndex`) in the order above.
static Value comesBefore(OpBuilder &b, Location loc, Value other, Value self,
                         Value otherIndex, Value selfIndex, bool largest,
                         bool isUnsignedInt) {
  Value lowerIndex = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           otherIndex, selfIndex);
  Value beats, ties;
  if (isa<FloatType>(other.getType())) {
    using P = arith::CmpFPredicate;
    // Ordered comparisons: false where either is a NaN.
    Value better =
        arith::CmpFOp::create(b, loc, largest ? P::OGT : P::OLT, other, self);
    Value selfNaN = arith::CmpFOp::create(b, loc, P::UNO, self, self);
    Value otherNaN = arith::CmpFOp::create(b, loc, P::UNO, other, other);
    Value otherNumber = arith::CmpFOp::create(b, loc, P::ORD, other, other);
    beats = arith::OrIOp::create(
        b, loc, better, arith::AndIOp::create(b, loc, selfNaN, otherNumber));
    ties = arith::OrIOp::create(
        b, loc, arith::CmpFOp::create(b, loc, P::OEQ, other, self),
        arith::AndIOp::create(b, loc, selfNaN, otherNaN));
  } else {
    using P = arith::CmpIPredicate;
    P better = largest ? (isUnsignedInt ? P::ugt : P::sgt)
                       : (isUnsignedInt ? P::ult : P::slt);
    beats = arith::CmpIOp::create(b, loc, better, other, self);
    ties = arith::CmpIOp::create(b, loc, P::eq, other, self);
  }
  return arith::OrIOp::create(b, loc, beats,
                              arith::AndIOp::create(b, loc, ties, lowerIndex));
}

LogicalResult Importer::foldTopK(const ImportedValue &v, int64_t axis,
                                 int64_t k, bool largest, bool unsignedInts) {
  int64_t n = v.shape[axis];
  int64_t outer, inner;
  std::tie(outer, inner) = countsAroundAxis(v.shape, axis);
  bool floats = !v.holdsIntegers();
  // Whether element a of a slice comes strictly before element b by its
  // key: the order of the run-time ranking (comesBefore).
  auto before = [&](int64_t a, int64_t b) {
    if (floats) {
      double x = v.f[a], y = v.f[b];
      if (std::isnan(x) || std::isnan(y))
        return !std::isnan(x) && std::isnan(y);
      return largest ? x > y : x < y;
    }
    if (unsignedInts) {
      uint64_t x = v.i[a], y = v.i[b];
      return largest ? x > y : x < y;
    }
    return largest ? v.i[a] > v.i[b] : v.i[a] < v.i[b];
  };
  SmallVector<int64_t> outShape(v.shape);
  outShape[axis] = k;
  ImportedValue values;
  values.kind = Kind::Const;
  values.dtype = v.dtype;
  values.shape = outShape;
  int64_t count = outer * k * inner;
  if (floats)
    values.f.resize(count);
  else
    values.i.resize(count);
  std::vector<int64_t> indices(count);
  SmallVector<int64_t> order(n);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      int64_t base = o * n * inner + in;
      for (int64_t j = 0; j < n; ++j)
        order[j] = j;
      // Equal keys by the lower index: a total order, so std::sort is
      // deterministic.
      std::sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        int64_t x = base + a * inner, y = base + b * inner;
        return before(x, y) || (!before(y, x) && a < b);
      });
      for (int64_t r = 0; r < k; ++r) {
        int64_t at = (o * k + r) * inner + in, from = base + order[r] * inner;
        if (floats)
          values.f[at] = v.f[from];
        else
          values.i[at] = v.i[from];
        indices[at] = order[r];
      }
    }
  }
  setOutput(0, std::move(values));
  setOutput(1, int64Constant(outShape, std::move(indices)));
  return success();
}

LogicalResult Importer::importTopK() {
  bool withK = opset < 10;
  if (failed(withK ? checkAttrs({"axis", "k"})
                   : checkAttrs({"axis", "largest", "sorted"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  int64_t rank = v.shape.size();
  if (rank == 0)
    return fail("TopK of a scalar");
  auto normalized = normalizedAxis(attrInt("axis").value_or(-1), rank);
  if (failed(normalized))
    return failure();
  int64_t axis = *normalized;
  int64_t k;
  if (withK) {
    auto attr = attrInt("k");
    if (!attr)
      return fail("TopK-1 needs the attribute k");
    k = *attr;
  } else {
    auto kValue = constInts(1);
    if (failed(kValue))
      return failure();
    if (kValue->size() != 1)
      return fail("K must be one value");
    k = (*kValue)[0];
  }
  int64_t n = v.shape[axis];
  if (k < 1 || k > n)
    return fail("K = " + Twine(k) + " must lie in [1, " + Twine(n) +
                "], the axis length");
  if (n > kMaxAxis)
    return fail("an axis of more than " + Twine(kMaxAxis) +
                " elements (the ranking is quadratic in it)");
  bool largest = attrInt("largest").value_or(1) != 0;
  if (failed(settleOrFloat(*this, v)))
    return failure();

  bool integers = v.holdsIntegers();
  if (integers && v.dtype == onnx::TensorProto::BOOL)
    return fail("TopK of a boolean tensor");
  if (v.kind == Kind::Quant && v.q.perAxis())
    return fail("TopK of per-axis quantized codes is not supported");
  if (v.kind != Kind::Int && !v.isQuantized() && v.kind != Kind::Float &&
      v.kind != Kind::Const)
    return fail("TopK needs float, quantized or integer data");
  bool unsignedInts = integers && isUnsignedIntType(v.dtype);
  if (v.kind == Kind::Const && foldableCount(v.shape))
    return foldTopK(v, axis, k, largest, unsignedInts);
  // The comparison keys (integers, or f32 reals), and the elements the values
  // are taken from: the codes themselves where they share one grid, so the
  // values stay on the input's grid.
  bool codes = v.isQuantized() && !v.q.perAxis();
  auto keys = elementTable(*this, v, /*codes=*/false);
  auto elements =
      failed(keys) || !codes ? keys : elementTable(*this, v, /*codes=*/true);
  if (failed(elements))
    return failure();

  // The rank of each element: loops d0..d(rank-1) over the elements,
  // d(rank) = j over the other elements of the slice.
  Type i64 = b.getI64Type();
  SmallVector<AffineExpr> other;
  for (int64_t d = 0; d < rank; ++d)
    other.push_back(getAffineDimExpr(d, ctx));
  other[axis] = getAffineDimExpr(rank, ctx);
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank + 1, ctx);
  AffineMap outer = identity.getMajorSubMap(rank);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.push_back(utils::IteratorType::reduction);
  auto filled = [&](ArrayRef<int64_t> shape, Type elem, mlir::TypedAttr value) {
    return linalg::FillOp::create(
               b, loc, ValueRange{arith::ConstantOp::create(b, loc, value)},
               ValueRange{tensor::EmptyOp::create(b, loc, shape, elem)})
        .getResult(0);
  };
  Value rankInit = filled(v.shape, i64, b.getI64IntegerAttr(0));
  Value ranks =
      linalg::GenericOp::create(
          b, loc, TypeRange{rankInit.getType()}, ValueRange{*keys, *keys},
          ValueRange{rankInit},
          SmallVector<AffineMap>{outer, AffineMap::get(rank + 1, 0, other, ctx),
                                 outer},
          iters,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value self = linalg::IndexOp::create(nb, l, axis);
            Value j = linalg::IndexOp::create(nb, l, rank);
            Value before =
                comesBefore(nb, l, a[1], a[0], j, self, largest, unsignedInts);
            Value count = arith::AddIOp::create(
                nb, l, a[2], arith::ExtUIOp::create(nb, l, i64, before));
            linalg::YieldOp::create(nb, l, count);
          })
          .getResult(0);

  // Output position r (loop d(axis)) takes the element of rank r: loops
  // d0..d(rank-1) over the outputs, d(rank) = i over the slice.
  SmallVector<int64_t> outShape(v.shape);
  outShape[axis] = k;
  AffineMap source = AffineMap::get(rank + 1, 0, other, ctx);
  Type elem = cast<RankedTensorType>(elements->getType()).getElementType();
  Value valueInit =
      filled(outShape, elem, cast<mlir::TypedAttr>(b.getZeroAttr(elem)));
  Value indexInit = filled(outShape, i64, b.getI64IntegerAttr(0));
  auto select = linalg::GenericOp::create(
      b, loc, TypeRange{valueInit.getType(), indexInit.getType()},
      ValueRange{ranks, *elements}, ValueRange{valueInit, indexInit},
      SmallVector<AffineMap>{source, source, outer, outer}, iters,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value r = arith::IndexCastOp::create(
            nb, l, i64, linalg::IndexOp::create(nb, l, axis));
        Value i = arith::IndexCastOp::create(
            nb, l, i64, linalg::IndexOp::create(nb, l, rank));
        Value here =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, a[0], r);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, here, a[1], a[2]),
                       arith::SelectOp::create(nb, l, here, i, a[3])});
      });

  setOutput(0, resultLike(*this, v, codes, select.getResult(0), outShape));
  ImportedValue indices;
  indices.kind = Kind::Int;
  indices.dtype = onnx::TensorProto::INT64;
  indices.shape = outShape;
  indices.value = select.getResult(1);
  setOutput(1, std::move(indices));
  return success();
}
