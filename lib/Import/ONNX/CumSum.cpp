//===- CumSum.cpp - CumSum ------------------------------------------------===//
//
// ONNX's CumSum (RoBERTa's position ids: cumsum of the non-padding mask)
// on f32 (dequantized where quantized) or integer tensors. Each output
// element is a reduction over the axis that adds the elements its prefix
// (or suffix, `reverse`) holds, in the order ONNX Runtime's loop adds them:
// from the first element of the prefix on, or from the last one of the
// suffix down (`reverse`: the tensor flipped along the axis, summed
// forward, flipped back). The accumulator skips the elements outside and
// starts, for floats, at -0.0 (-0 + x is x for every x: ONNX Runtime's first
// output is x itself) or, exclusive, at +0.0 (its first output is 0), so every
// f32 result equals the sequential sum; integers wrap around in their type. The
// cost is quadratic in the axis length, which is small in the models that use
// it (a sequence of tokens). Compile-time data folds in the same order.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// The quadratic reduction reads axis^2 elements per row: bounded.
static constexpr int64_t kMaxAxis = 1 << 14;

LogicalResult Importer::foldCumSum(const ImportedValue &v, int64_t axis,
                                   bool exclusive, bool reverse) {
  int64_t n = v.shape[axis];
  int64_t outer, inner;
  std::tie(outer, inner) = countsAroundAxis(v.shape, axis);
  ImportedValue out = v;
  bool floats = !v.holdsIntegers();
  // ONNX Runtime adds in the element type: f32 for float, double for
  // double, integers wrapping around.
  bool f32 = v.dtype == onnx::TensorProto::FLOAT;
  unsigned width =
      floats ? 0 : integerElementType(*this, v).getIntOrFloatBitWidth();
  bool isUnsigned = isUnsignedIntType(v.dtype);
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t in = 0; in < inner; ++in) {
      // As the run-time form: from -0.0 (+0.0 when exclusive), so that the
      // first inclusive output is the element itself.
      double facc = exclusive ? 0.0 : -0.0;
      uint64_t iacc = 0;
      for (int64_t step = 0; step < n; ++step) {
        int64_t j = reverse ? n - 1 - step : step;
        int64_t at = (o * n + j) * inner + in;
        auto add = [&]() {
          if (floats)
            facc = f32 ? double(float(facc) + float(v.f[at])) : facc + v.f[at];
          else
            iacc = uint64_t(
                wrapToWidth(iacc + uint64_t(v.i[at]), width, isUnsigned));
        };
        if (!exclusive)
          add();
        if (floats)
          out.f[at] = facc;
        else
          out.i[at] = int64_t(iacc);
        if (exclusive)
          add();
      }
    }
  }
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importCumSum() {
  if (failed(checkAttrs({"exclusive", "reverse"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  auto axisValue = constInts(1);
  if (failed(axisValue))
    return failure();
  if (axisValue->size() != 1)
    return fail("axis must be one value");
  int64_t rank = v.shape.size();
  if (rank == 0)
    return fail("CumSum of a scalar");
  auto normalized = normalizedAxis((*axisValue)[0], rank);
  if (failed(normalized))
    return failure();
  int64_t axis = *normalized;
  int64_t n = v.shape[axis];
  if (n > kMaxAxis)
    return fail("an axis of more than " + Twine(kMaxAxis) +
                " elements (the sum is quadratic in it)");
  bool exclusive = attrInt("exclusive").value_or(0) != 0;
  bool reverse = attrInt("reverse").value_or(0) != 0;
  if (v.holdsIntegers() && v.dtype == onnx::TensorProto::BOOL)
    return fail("CumSum of a boolean tensor");
  if (v.kind == Kind::Const && foldableCount(v.shape))
    return foldCumSum(v, axis, exclusive, reverse);
  Value src;
  ImportedValue out;
  out.shape = v.shape;
  if (v.holdsIntegers()) {
    // Compile-time integers here are too many to fold.
    src = logicalIntegers(*this, v, integerElementType(*this, v));
    out.kind = Kind::Int;
    out.dtype = v.dtype;
  } else {
    auto f = floatValue(v, /*nhwc=*/false);
    if (failed(f))
      return failure();
    src = *f;
    out.kind = Kind::Float;
  }
  Type elem = cast<RankedTensorType>(src.getType()).getElementType();
  bool isFloat = isa<FloatType>(elem);
  // Reverse: the forward sum of the tensor flipped along the axis, flipped
  // back, adds each suffix from its last element down.
  auto flip = [&](Value t) {
    SmallVector<AffineExpr> read;
    for (int64_t d = 0; d < rank; ++d)
      read.push_back(d == axis ? n - 1 - getAffineDimExpr(d, ctx)
                               : getAffineDimExpr(d, ctx));
    SmallVector<AffineMap> maps = {
        AffineMap::get(rank, 0, read, ctx),
        AffineMap::getMultiDimIdentityMap(rank, ctx)};
    SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
    Value empty = tensor::EmptyOp::create(b, loc, v.shape, elem);
    return linalg::GenericOp::create(
               b, loc, TypeRange{empty.getType()}, ValueRange{t},
               ValueRange{empty}, maps, iters,
               [](OpBuilder &nb, Location l, ValueRange args) {
                 linalg::YieldOp::create(nb, l, args[0]);
               })
        .getResult(0);
  };
  if (reverse)
    src = flip(src);
  // Loops d0..d(rank-1) over the output, d(rank) = j over the axis.
  SmallVector<AffineExpr> read;
  for (int64_t d = 0; d < rank; ++d)
    read.push_back(getAffineDimExpr(d, ctx));
  read[axis] = getAffineDimExpr(rank, ctx);
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank + 1, 0, read, ctx),
      AffineMap::getMultiDimIdentityMap(rank + 1, ctx).getMajorSubMap(rank)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.push_back(utils::IteratorType::reduction);
  Value start = arith::ConstantOp::create(
      b, loc,
      isFloat ? mlir::TypedAttr(b.getFloatAttr(elem, exclusive ? 0.0 : -0.0))
              : mlir::TypedAttr(b.getIntegerAttr(elem, 0)));
  Value init = linalg::FillOp::create(
                   b, loc, ValueRange{start},
                   ValueRange{tensor::EmptyOp::create(b, loc, v.shape, elem)})
                   .getResult(0);
  out.value =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{src}, ValueRange{init},
          maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value i = linalg::IndexOp::create(nb, l, axis);
            Value k = linalg::IndexOp::create(nb, l, rank);
            // The prefix: k <= i, or k < i when exclusive.
            auto pred = exclusive ? arith::CmpIPredicate::slt
                                  : arith::CmpIPredicate::sle;
            Value inside = arith::CmpIOp::create(nb, l, pred, k, i);
            Value sum =
                isFloat
                    ? arith::AddFOp::create(nb, l, args[1], args[0]).getResult()
                    : arith::AddIOp::create(nb, l, args[1], args[0])
                          .getResult();
            linalg::YieldOp::create(
                nb, l,
                arith::SelectOp::create(nb, l, inside, sum, args[1])
                    .getResult());
          })
          .getResult(0);
  if (reverse)
    out.value = flip(out.value);
  setOutput(0, std::move(out));
  return success();
}
