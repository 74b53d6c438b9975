//===- ArgMax.cpp - ArgMax and ArgMin -------------------------------------===//
//
// The index of the largest (smallest) element along one axis, as int64:
// one linalg.generic reduction carrying the best value and its index. The
// comparison runs on the f32 values (dequantized codes where the input is
// quantized, so per-axis scales and uint8 codes order as the reals do).
// Ties go to the first index, or the last with select_last_index; a NaN
// wins over every number, the first one (or the last) among several: the
// ONNX reference's numpy.argmax / argmin.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <limits>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importArgMax(bool isMax) {
  if (failed(checkAttrs({"axis", "keepdims", "select_last_index"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  int64_t rank = v.shape.size();
  StringRef op = node->op_type();
  if (rank == 0)
    return fail(op + " of a scalar");
  bool integers = v.holdsIntegers();
  if (integers && v.dtype == onnx::TensorProto::BOOL)
    return fail(op + " of a boolean tensor is not supported");
  int64_t axis = attrInt("axis").value_or(0);
  if (axis < -rank || axis >= rank)
    return fail("axis " + Twine(axis) + " out of range");
  if (axis < 0)
    axis += rank;
  bool keepdims = attrInt("keepdims").value_or(1) == 1;
  bool last = attrInt("select_last_index").value_or(0) != 0;
  if (v.shape[axis] == 0)
    return fail(op + " over an empty axis");
  SmallVector<int64_t> reduced(v.shape);
  reduced[axis] = 1;
  auto [outMap, iters] = reductionOver(ctx, rank, axis);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 outMap, outMap};
  Type i64 = b.getI64Type();
  // The data and the worst value to start from. Integers (CLIP's pooling
  // at input_ids.argmax(-1)) are compared as integers: an f32 copy would
  // tie large values.
  bool isUnsigned = integers && isUnsignedIntType(v.dtype);
  Value source;
  mlir::TypedAttr worst;
  if (integers) {
    source = logicalIntegers(*this, v, integerElementType(*this, v));
    if (!source)
      return failure();
    auto elem = cast<IntegerType>(
        cast<RankedTensorType>(source.getType()).getElementType());
    unsigned width = elem.getWidth();
    worst = b.getIntegerAttr(
        elem, isMax ? (isUnsigned ? APInt::getMinValue(width)
                                  : APInt::getSignedMinValue(width))
                    : (isUnsigned ? APInt::getMaxValue(width)
                                  : APInt::getSignedMaxValue(width)));
  } else {
    auto x = floatValue(v, /*nhwc=*/false);
    if (failed(x))
      return failure();
    source = *x;
    worst = b.getF32FloatAttr(isMax ? -std::numeric_limits<float>::infinity()
                                    : std::numeric_limits<float>::infinity());
  }
  // Whether element e takes over from best: strictly better, or as good
  // and later with select_last_index.
  auto better = [&](OpBuilder &nb, Location l, Value e, Value best) -> Value {
    if (integers) {
      using P = arith::CmpIPredicate;
      P predicate = isMax ? (last ? (isUnsigned ? P::uge : P::sge)
                                  : (isUnsigned ? P::ugt : P::sgt))
                          : (last ? (isUnsigned ? P::ule : P::sle)
                                  : (isUnsigned ? P::ult : P::slt));
      return arith::CmpIOp::create(nb, l, predicate, e, best);
    }
    auto cmp = [&](arith::CmpFPredicate p, Value lhs, Value rhs) -> Value {
      return arith::CmpFOp::create(nb, l, p, lhs, rhs);
    };
    using P = arith::CmpFPredicate;
    P predicate = isMax ? (last ? P::OGE : P::OGT) : (last ? P::OLE : P::OLT);
    Value eNaN = cmp(P::UNO, e, e), bestIsNumber = cmp(P::ORD, best, best);
    auto orOp = [&](Value p, Value q) -> Value {
      return arith::OrIOp::create(nb, l, p, q);
    };
    auto andOp = [&](Value p, Value q) -> Value {
      return arith::AndIOp::create(nb, l, p, q);
    };
    return last
               // A NaN always (the last one wins); a number over a number.
               ? orOp(eNaN, andOp(bestIsNumber, cmp(predicate, e, best)))
               // Nothing replaces a NaN (the first one wins).
               : andOp(bestIsNumber, orOp(eNaN, cmp(predicate, e, best)));
  };
  auto filled = [&](mlir::TypedAttr value) {
    return linalg::FillOp::create(b, loc,
                                  ValueRange{arith::ConstantOp::create(
                                      b, loc, value.getType(), value)},
                                  ValueRange{tensor::EmptyOp::create(
                                      b, loc, reduced, value.getType())})
        .getResult(0);
  };
  Value bestInit = filled(worst), indexInit = filled(b.getI64IntegerAttr(0));
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{bestInit.getType(), indexInit.getType()},
      ValueRange{source}, ValueRange{bestInit, indexInit}, maps, iters,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value e = a[0], best = a[1], index = a[2];
        Value take = better(nb, l, e, best);
        Value here = arith::IndexCastOp::create(
            nb, l, i64, linalg::IndexOp::create(nb, l, axis));
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, take, e, best),
                       arith::SelectOp::create(nb, l, take, here, index)});
      });
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = onnx::TensorProto::INT64;
  out.shape = reduced;
  out.value = generic.getResult(1);
  if (!keepdims) {
    out.shape.erase(out.shape.begin() + axis);
    out.value = reshape(out.value, out.shape);
  }
  setOutput(0, std::move(out));
  return success();
}
