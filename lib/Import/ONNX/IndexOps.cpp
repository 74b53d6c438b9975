//===- IndexOps.cpp - GatherElements and OneHot ---------------------------===//
//
// Ops that read or write along one axis at run-time positions:
// GatherElements (torch.gather) reads data[..., index[i, j, ...], ...] per
// output element; OneHot writes `on` where the position along the new axis
// equals the index, `off` elsewhere. Both are one linalg.generic over the
// output. Negative indices count from the end, as ONNX defines. An index
// outside the axis is an error in ONNX: compile-time ones are diagnosed
// here; a run-time one reads the nearest end of the axis in GatherElements
// (a defined read, as in run-time Gather) and sets no position in OneHot
// (ONNX Runtime's behaviour).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// Run-time int32 / int64 indices, or compile-time ones checked against
/// `dim` (ONNX: an index outside [-dim, dim) is an error) and materialized
/// as an i64 constant. Null after a diagnostic.
static Value indexTensor(Importer &im, const ImportedValue &indices,
                         int64_t dim) {
  if (indices.kind == Kind::Int) {
    if (indices.dtype != onnx::TensorProto::INT64 &&
        indices.dtype != onnx::TensorProto::INT32) {
      (void)im.fail("indices must be int32 or int64");
      return nullptr;
    }
    if (indices.nhwc && indices.shape.size() == 4) {
      (void)im.fail("NHWC indices are not supported");
      return nullptr;
    }
    return indices.value;
  }
  if (indices.kind != Kind::Const || !indices.f.empty()) {
    (void)im.fail("indices must be an int32 or int64 tensor");
    return nullptr;
  }
  for (int64_t k : indices.i)
    if (k < -dim || k >= dim) {
      (void)im.fail("index " + Twine(k) + " out of range for a dimension of " +
                    Twine(dim));
      return nullptr;
    }
  return intConstant(im, indices, im.b.getI64Type());
}

/// `i` (an integer of any width) as an index into an axis of `dim`:
/// negative counts from the end, then clamped to [0, dim).
static Value normalizedIndex(OpBuilder &b, Location loc, Value i, int64_t dim) {
  i = arith::IndexCastOp::create(b, loc, b.getIndexType(), i);
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value negative =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, i, index(0));
  i = arith::SelectOp::create(b, loc, negative,
                              arith::AddIOp::create(b, loc, i, index(dim)), i);
  i = arith::MaxSIOp::create(b, loc, i, index(0));
  return arith::MinSIOp::create(b, loc, i, index(dim - 1));
}

LogicalResult Importer::importGatherElements() {
  if (failed(checkAttrs({"axis"})))
    return failure();
  auto in = input(0);
  auto idx = failed(in) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(in) || failed(idx))
    return failure();
  ImportedValue &data = **in;
  const ImportedValue &indices = **idx;
  int64_t rank = data.shape.size();
  if (rank == 0)
    return fail("GatherElements from a scalar");
  if (int64_t(indices.shape.size()) != rank)
    return fail("the indices must have the data's rank");
  auto normalized = normalizedAxis(attrInt("axis").value_or(0), rank);
  if (failed(normalized))
    return failure();
  int64_t axis = *normalized;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && indices.shape[d] > data.shape[d])
      return fail("the indices' dimension " + Twine(d) + " (" +
                  Twine(indices.shape[d]) + ") exceeds the data's (" +
                  Twine(data.shape[d]) + ")");
  int64_t dim = data.shape[axis];
  if (dim == 0)
    return fail("GatherElements along an empty axis");
  Value index = indexTensor(*this, indices, dim);
  if (!index)
    return failure();
  if (failed(settleOrFloat(*this, data)))
    return failure();
  if (data.isQuantized() && data.q.perAxis())
    return fail("GatherElements from a per-axis quantized tensor is not "
                "supported");
  // The table in logical layout: codes as storage integers, f32 or
  // run-time integers.
  FailureOr<Value> table = failure();
  if (data.isQuantized())
    table = storageInts(*this, data, /*nhwc=*/false);
  else if (data.kind == Kind::Float ||
           (data.kind == Kind::Const && !data.f.empty()))
    table = floatValue(data, /*nhwc=*/false);
  else if (data.kind == Kind::Int)
    table = logicalIntegers(*this, data, Type());
  else
    return fail("GatherElements needs float, quantized or run-time integer "
                "data");
  if (failed(table))
    return failure();
  Type elem = cast<RankedTensorType>(table->getType()).getElementType();
  SmallVector<AffineMap> maps(2, AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, indices.shape, elem);
  Value gathered =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{index},
          ValueRange{init}, maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            SmallVector<Value> coords;
            for (int64_t d = 0; d < rank; ++d)
              coords.push_back(d == axis ? normalizedIndex(nb, l, args[0], dim)
                                         : linalg::IndexOp::create(nb, l, d));
            Value element = tensor::ExtractOp::create(nb, l, *table, coords);
            linalg::YieldOp::create(nb, l, element);
          })
          .getResult(0);
  ImportedValue out = data;
  out.shape = indices.shape;
  out.nhwc = false;
  out.flattenedFromNhwc.clear();
  out.codes.reset();
  out.i.clear();
  out.f.clear();
  if (data.isQuantized()) {
    out.value =
        quant::StorageCastOp::create(b, loc, quantTensorType(out), gathered);
  } else if (data.kind == Kind::Int) {
    out.value = gathered;
  } else {
    out.kind = Kind::Float;
    out.dtype = onnx::TensorProto::FLOAT;
    out.value = gathered;
  }
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importOneHot() {
  if (failed(checkAttrs({"axis"})))
    return failure();
  auto in = input(0);
  auto valuesIn = failed(in) ? FailureOr<ImportedValue *>(failure()) : input(2);
  if (failed(in) || failed(valuesIn))
    return failure();
  const ImportedValue &indices = **in;
  const ImportedValue &values = **valuesIn;
  auto depthValue = constInts(1);
  if (failed(depthValue))
    return failure();
  if (depthValue->size() != 1)
    return fail("depth must be one value");
  int64_t depth = (*depthValue)[0];
  constexpr int64_t kMaxDepth = int64_t(1) << 24;
  if (depth < 1 || depth > kMaxDepth)
    return fail("depth " + Twine(depth) + " outside [1, " + Twine(kMaxDepth) +
                "]");
  if (values.kind != Kind::Const || values.numElements() != 2)
    return fail("the values [off, on] must be a compile-time tensor of two "
                "elements");
  int64_t rank = indices.shape.size() + 1;
  auto normalized = normalizedAxis(attrInt("axis").value_or(-1), rank);
  if (failed(normalized))
    return failure();
  int64_t axis = *normalized;
  // Indices of any numeric type; floats are truncated toward zero (ONNX's
  // reference casts them to int64).
  Value index;
  bool unsignedIndices = indices.kind == Kind::Int &&
                         (indices.dtype == onnx::TensorProto::UINT8 ||
                          indices.dtype == onnx::TensorProto::UINT16 ||
                          indices.dtype == onnx::TensorProto::UINT32);
  if (indices.kind == Kind::Int && indices.dtype != onnx::TensorProto::BOOL &&
      !(indices.nhwc && indices.shape.size() == 4)) {
    index = indices.value;
  } else if (indices.kind == Kind::Const && indices.f.empty()) {
    index = intConstant(*this, indices, b.getI64Type());
  } else {
    return fail("OneHot needs int32 or int64 indices");
  }
  ImportedValue out;
  out.shape.assign(indices.shape.begin(), indices.shape.end());
  out.shape.insert(out.shape.begin() + axis, depth);
  bool floats = !values.f.empty();
  Type elem;
  if (floats) {
    out.kind = Kind::Float;
    out.dtype = onnx::TensorProto::FLOAT;
    elem = b.getF32Type();
  } else {
    out.kind = Kind::Int;
    out.dtype = values.dtype;
    switch (values.dtype) {
    case onnx::TensorProto::INT8:
    case onnx::TensorProto::UINT8:
      elem = b.getI8Type();
      break;
    case onnx::TensorProto::INT16:
      elem = b.getI16Type();
      break;
    case onnx::TensorProto::INT32:
      elem = b.getI32Type();
      break;
    case onnx::TensorProto::INT64:
      elem = b.getI64Type();
      break;
    default:
      return fail("OneHot values of this element type are not supported");
    }
  }
  auto constant = [&](OpBuilder &nb, Location l, int k) -> Value {
    if (floats)
      return arith::ConstantOp::create(nb, l,
                                       nb.getF32FloatAttr(float(values.f[k])));
    unsigned width = elem.getIntOrFloatBitWidth();
    return arith::ConstantOp::create(
        nb, l,
        nb.getIntegerAttr(elem, APInt(width, uint64_t(values.i[k]),
                                      /*isSigned=*/true,
                                      /*implicitTrunc=*/true)));
  };
  SmallVector<AffineExpr> read;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      read.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = {AffineMap::get(rank, 0, read, ctx),
                                 AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, out.shape, elem);
  out.value =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{index},
          ValueRange{init}, maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            // In i64: negative indices count from the end; any other value
            // outside [0, depth) matches no position.
            Value i = args[0];
            if (i.getType() != nb.getI64Type())
              i = unsignedIndices
                      ? arith::ExtUIOp::create(nb, l, nb.getI64Type(), i)
                            .getResult()
                      : arith::ExtSIOp::create(nb, l, nb.getI64Type(), i)
                            .getResult();
            Value d =
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(depth));
            Value zero =
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(0));
            Value negative = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::slt, i, zero);
            i = arith::SelectOp::create(nb, l, negative,
                                        arith::AddIOp::create(nb, l, i, d), i);
            Value here = arith::IndexCastOp::create(
                nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
            Value hit =
                arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, i, here);
            linalg::YieldOp::create(nb, l,
                                    arith::SelectOp::create(nb, l, hit,
                                                            constant(nb, l, 1),
                                                            constant(nb, l, 0))
                                        .getResult());
          })
          .getResult(0);
  setOutput(0, std::move(out));
  return success();
}
