//===- IndexOps.cpp - GatherElements, GatherND, ScatterND, OneHot ---------===//
//
// Ops that read or write at positions given by an index tensor:
// GatherElements (torch.gather) reads data[..., index[i, j, ...], ...] per
// output element; GatherND reads data[index[p, 0], ..., index[p, k-1], ...]
// per prefix p; ScatterND (in-place slice assignments as exporters write
// them) replaces those slices by the updates: through a table built at
// import for compile-time indices, one slice after the other in a loop for
// run-time ones (a tuple outside the data writes nothing); OneHot
// writes `on` where the position along the new axis equals the index,
// `off` elsewhere. Each is one linalg.generic over the output. Negative indices
// count from the end, as ONNX defines. An index outside the axis is an error in
// ONNX: compile-time ones are diagnosed here; a run-time one reads the nearest
// end of the axis in GatherElements (a defined read, as in run-time Gather) and
// sets no position in OneHot (ONNX Runtime's behaviour).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
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

LogicalResult quantopt::onnx_import::detail::checkElementIndices(
    Importer &im, ArrayRef<int64_t> indices, ArrayRef<int64_t> data,
    int64_t axis) {
  for (int64_t d = 0; d < int64_t(data.size()); ++d)
    if (d != axis && indices[d] > data[d])
      return im.fail("the indices' dimension " + Twine(d) + " (" +
                     Twine(indices[d]) + ") exceeds the data's (" +
                     Twine(data[d]) + ")");
  return success();
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
  if (failed(checkElementIndices(*this, indices.shape, data.shape, axis)))
    return failure();
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
  auto table = elementTable(*this, data, data.isQuantized());
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
  setOutput(
      0, resultLike(*this, data, data.isQuantized(), gathered, indices.shape));
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
  // As Expand and Tile: the result's element count stays below 2^31 (and
  // its product with the depth cannot overflow).
  constexpr int64_t kMaxElements = int64_t(1) << 31;
  if (indices.numElements() > kMaxElements / depth)
    return fail("the result would have more than 2^31 elements");
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

LogicalResult Importer::importGatherND() {
  if (failed(checkAttrs({"batch_dims"})))
    return failure();
  if (attrInt("batch_dims").value_or(0) != 0)
    return fail("batch_dims other than 0 is not supported");
  auto in = input(0);
  auto idx = failed(in) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(in) || failed(idx))
    return failure();
  ImportedValue &data = **in;
  const ImportedValue &indices = **idx;
  int64_t r = data.shape.size(), q = indices.shape.size();
  if (r == 0 || q == 0)
    return fail("GatherND needs data and indices of rank 1 or more");
  int64_t k = indices.shape[q - 1];
  if (k < 1 || k > r)
    return fail("the indices' last dimension (" + Twine(k) +
                ") must lie in [1, " + Twine(r) + "], the data's rank");
  // Compile-time indices: each checked against its own dimension.
  if (indices.kind == Kind::Const && indices.f.empty())
    for (size_t n = 0; n < indices.i.size(); ++n) {
      int64_t dim = data.shape[n % k], v = indices.i[n];
      if (v < -dim || v >= dim)
        return fail("index " + Twine(v) + " out of range for a dimension of " +
                    Twine(dim));
    }
  Value index = indexTensor(*this, indices, /*dim=*/INT64_MAX);
  if (!index)
    return failure();
  for (int64_t d = 0; d < k; ++d)
    if (data.shape[d] == 0)
      return fail("GatherND along an empty dimension");
  if (failed(settleOrFloat(*this, data)))
    return failure();
  bool codes = data.isQuantized() && !data.q.perAxis();
  auto table = elementTable(*this, data, codes);
  if (failed(table))
    return failure();
  Type elem = cast<RankedTensorType>(table->getType()).getElementType();
  SmallVector<int64_t> shape(indices.shape.begin(), indices.shape.end() - 1);
  shape.append(data.shape.begin() + k, data.shape.end());
  int64_t outRank = shape.size();
  SmallVector<utils::IteratorType> iters(outRank,
                                         utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, shape, elem);
  Value gathered =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
          SmallVector<AffineMap>{
              AffineMap::getMultiDimIdentityMap(outRank, ctx)},
          iters,
          [&](OpBuilder &nb, Location l, ValueRange) {
            SmallVector<Value> at, coords;
            for (int64_t d = 0; d < q - 1; ++d)
              at.push_back(linalg::IndexOp::create(nb, l, d));
            for (int64_t j = 0; j < k; ++j) {
              SmallVector<Value> where(at);
              where.push_back(arith::ConstantIndexOp::create(nb, l, j));
              Value i = tensor::ExtractOp::create(nb, l, index, where);
              coords.push_back(normalizedIndex(nb, l, i, data.shape[j]));
            }
            for (int64_t d = q - 1; d < outRank; ++d)
              coords.push_back(linalg::IndexOp::create(nb, l, d));
            Value element = tensor::ExtractOp::create(nb, l, *table, coords);
            linalg::YieldOp::create(nb, l, element);
          })
          .getResult(0);
  setOutput(0, resultLike(*this, data, codes, gathered, shape));
  return success();
}

FailureOr<ScatterTables>
quantopt::onnx_import::detail::scatterTables(Importer &im, ImportedValue &data,
                                             ImportedValue &updates,
                                             StringRef what, bool keepCodes) {
  if (failed(settleOrFloat(im, data)) || failed(settleOrFloat(im, updates)))
    return failure();
  int32_t dataType = graphElementType(data),
          updatesType = graphElementType(updates);
  if (dataType != updatesType)
    return im.fail(what + " must have one element type (" +
                   elementTypeName(dataType) + " vs " +
                   elementTypeName(updatesType) + ")");
  ScatterTables t;
  t.like = data;
  if (dataType == onnx::TensorProto::FLOAT) {
    // Floats: codes where both are one per-tensor grid's dequantization,
    // else f32.
    t.codes = keepCodes && data.isQuantized() && updates.isQuantized() &&
              !data.q.perAxis() && data.q == updates.q;
    auto dataTable = elementTable(im, data, t.codes);
    if (failed(dataTable))
      return failure();
    auto updateTable = elementTable(im, updates, t.codes);
    if (failed(updateTable))
      return failure();
    t.data = *dataTable;
    t.updates = *updateTable;
    return t;
  }
  if (data.kind == Kind::Quant && updates.kind == Kind::Quant) {
    // Codes of one type, moved as they are, on the data's parameters (a
    // DequantizeLinear after relabels them).
    t.codes = true;
    auto dataTable = storageInts(im, data, /*nhwc=*/false);
    if (failed(dataTable))
      return failure();
    auto updateTable = storageInts(im, updates, /*nhwc=*/false);
    if (failed(updateTable))
      return failure();
    t.data = *dataTable;
    t.updates = *updateTable;
    return t;
  }
  // Integers, run-time, compile-time or QuantizeLinear's codes.
  if (data.kind != Kind::Int && updates.kind != Kind::Int &&
      data.kind != Kind::Quant && updates.kind != Kind::Quant)
    return im.fail(im.node->op_type() +
                   " needs float, quantized or run-time integer data");
  auto integers = [&](ImportedValue &v) -> FailureOr<Value> {
    if (v.kind == Kind::Quant)
      return storageInts(im, v, /*nhwc=*/false);
    return logicalIntegers(im, v, integerElementType(im, v));
  };
  auto dataTable = integers(data);
  if (failed(dataTable))
    return failure();
  auto updateTable = integers(updates);
  if (failed(updateTable))
    return failure();
  t.data = *dataTable;
  t.updates = *updateTable;
  t.like = ImportedValue();
  t.like.kind = Kind::Int;
  t.like.dtype = dataType;
  return t;
}

/// `current` combined element by element with `update` by ONNX's scatter
/// reduction.
static Value combineSlices(OpBuilder &b, Location loc, Value current,
                           Value update, StringRef reduction, bool isUnsigned) {
  auto type = cast<RankedTensorType>(current.getType());
  int64_t rank = type.getRank();
  bool isFloat = isa<FloatType>(type.getElementType());
  SmallVector<AffineMap> maps(
      3, AffineMap::getMultiDimIdentityMap(rank, b.getContext()));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{current, update},
             ValueRange{init}, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               Value x = a[0], u = a[1], r;
               if (reduction == "add")
                 r = isFloat ? arith::AddFOp::create(nb, l, x, u).getResult()
                             : arith::AddIOp::create(nb, l, x, u).getResult();
               else if (reduction == "mul")
                 r = isFloat ? arith::MulFOp::create(nb, l, x, u).getResult()
                             : arith::MulIOp::create(nb, l, x, u).getResult();
               else if (reduction == "max")
                 r = isFloat
                         ? arith::MaximumFOp::create(nb, l, x, u).getResult()
                     : isUnsigned
                         ? arith::MaxUIOp::create(nb, l, x, u).getResult()
                         : arith::MaxSIOp::create(nb, l, x, u).getResult();
               else
                 r = isFloat
                         ? arith::MinimumFOp::create(nb, l, x, u).getResult()
                     : isUnsigned
                         ? arith::MinUIOp::create(nb, l, x, u).getResult()
                         : arith::MinSIOp::create(nb, l, x, u).getResult();
               linalg::YieldOp::create(nb, l, r);
             })
      .getResult(0);
}

Value quantopt::onnx_import::detail::scatterInOrder(Importer &im, Value data,
                                                    ArrayRef<int64_t> shape,
                                                    Value tuples, Value updates,
                                                    int64_t slices, int64_t k,
                                                    StringRef reduction,
                                                    bool isUnsigned) {
  OpBuilder &b = im.b;
  Location loc = im.loc;
  int64_t rank = shape.size();
  auto elem = cast<RankedTensorType>(data.getType()).getElementType();
  SmallVector<int64_t> rest(shape.begin() + k, shape.end());
  auto sliceType = RankedTensorType::get(rest, elem);
  Value lo = arith::ConstantIndexOp::create(b, loc, 0);
  Value hi = arith::ConstantIndexOp::create(b, loc, slices);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  auto loop = scf::ForOp::create(
      b, loc, lo, hi, one, ValueRange{data},
      [&](OpBuilder &nb, Location l, Value p, ValueRange carried) {
        Value zero64 = arith::ConstantIntOp::create(nb, l, 0, 64);
        Value inside = arith::ConstantIntOp::create(nb, l, 1, 1);
        SmallVector<OpFoldResult> offsets;
        for (int64_t j = 0; j < k; ++j) {
          Value jIdx = arith::ConstantIndexOp::create(nb, l, j);
          Value v =
              tensor::ExtractOp::create(nb, l, tuples, ValueRange{p, jIdx});
          Value dim = arith::ConstantIntOp::create(nb, l, shape[j], 64);
          Value negative = arith::CmpIOp::create(
              nb, l, arith::CmpIPredicate::slt, v, zero64);
          Value wrapped = arith::SelectOp::create(
              nb, l, negative, arith::AddIOp::create(nb, l, v, dim), v);
          Value ok = arith::AndIOp::create(
              nb, l,
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge, wrapped,
                                    zero64),
              arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, wrapped,
                                    dim));
          inside = arith::AndIOp::create(nb, l, inside, ok);
          // Out-of-range coordinates become 0 so that the (unused) slice
          // offsets stay inside.
          Value safe = arith::SelectOp::create(nb, l, ok, wrapped, zero64);
          offsets.push_back(
              arith::IndexCastOp::create(nb, l, nb.getIndexType(), safe)
                  .getResult());
        }
        auto write = scf::IfOp::create(
            nb, l, inside,
            [&](OpBuilder &tb, Location tl) {
              SmallVector<OpFoldResult> srcOffsets = {p};
              SmallVector<OpFoldResult> srcSizes = {tb.getIndexAttr(1)};
              SmallVector<OpFoldResult> dstSizes(k, tb.getIndexAttr(1));
              for (int64_t d : rest) {
                srcOffsets.push_back(tb.getIndexAttr(0));
                srcSizes.push_back(tb.getIndexAttr(d));
                dstSizes.push_back(tb.getIndexAttr(d));
              }
              SmallVector<OpFoldResult> dstOffsets = offsets;
              dstOffsets.append(rest.size(), tb.getIndexAttr(0));
              SmallVector<OpFoldResult> srcStrides(rest.size() + 1,
                                                   tb.getIndexAttr(1));
              SmallVector<OpFoldResult> dstStrides(rank, tb.getIndexAttr(1));
              Value slice = tensor::ExtractSliceOp::create(
                  tb, tl, sliceType, updates, srcOffsets, srcSizes, srcStrides);
              if (reduction != "none") {
                Value current = tensor::ExtractSliceOp::create(
                    tb, tl, sliceType, carried[0], dstOffsets, dstSizes,
                    dstStrides);
                slice = combineSlices(tb, tl, current, slice, reduction,
                                      isUnsigned);
              }
              Value next = tensor::InsertSliceOp::create(
                  tb, tl, slice, carried[0], dstOffsets, dstSizes, dstStrides);
              scf::YieldOp::create(tb, tl, next);
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el, carried[0]);
            });
        scf::YieldOp::create(nb, l, write.getResult(0));
      });
  return loop.getResult(0);
}

LogicalResult Importer::importScatterND() {
  if (failed(checkAttrs({"reduction"})))
    return failure();
  // add and mul since opset 16, max and min since 18.
  std::string reduction = attrString("reduction").value_or("none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      ((reduction != "max" && reduction != "min") || opset < 18))
    return fail("reduction '" + reduction + "' is not one of opset " +
                Twine(opset) + "'s: none, add, mul" +
                (opset >= 18 ? ", max, min" : ""));
  ImportedValue *in[3];
  for (unsigned n = 0; n < 3; ++n) {
    auto v = input(n);
    if (failed(v))
      return failure();
    in[n] = *v;
  }
  ImportedValue &data = *in[0], &updates = *in[2];
  const ImportedValue &indices = *in[1];
  bool runTime = indices.kind == Kind::Int;
  if (runTime && indices.dtype != onnx::TensorProto::INT64)
    return fail("ScatterND needs int64 indices");
  if (runTime && indices.nhwc)
    return fail("NHWC indices are not supported");
  if (!runTime && (indices.kind != Kind::Const || !indices.f.empty()))
    return fail("ScatterND needs int64 indices");
  int64_t r = data.shape.size(), q = indices.shape.size();
  if (r == 0 || q == 0)
    return fail("ScatterND needs data and indices of rank 1 or more");
  int64_t k = indices.shape[q - 1];
  if (k < 1 || k > r)
    return fail("the indices' last dimension (" + Twine(k) +
                ") must lie in [1, " + Twine(r) + "], the data's rank");
  SmallVector<int64_t> updatesShape(indices.shape.begin(),
                                    indices.shape.end() - 1);
  updatesShape.append(data.shape.begin() + k, data.shape.end());
  if (ArrayRef<int64_t>(updates.shape) != ArrayRef<int64_t>(updatesShape))
    return fail("the updates' shape must be the indices' without its last "
                "dimension, then the data's from dimension " +
                Twine(k));
  int64_t slices = 1;
  for (int64_t d = 0; d + 1 < q; ++d)
    slices *= indices.shape[d];
  if (slices >= (int64_t(1) << 31))
    return fail("too many index tuples");
  // Compile-time indices: which update slice each slice of data[:k] takes
  // (-1: none), built here, the later of duplicate indices winning (ONNX
  // leaves their order open; ONNX Runtime applies the updates in order).
  std::vector<int32_t> source;
  if (!runTime) {
    constexpr int64_t kMaxTable = int64_t(1) << 22;
    int64_t tableSize = 1;
    for (int64_t d = 0; d < k; ++d) {
      if (data.shape[d] > 0 && tableSize > kMaxTable / data.shape[d])
        return fail("more than " + Twine(kMaxTable) +
                    " indexed positions (the scatter table is built at "
                    "import)");
      tableSize *= data.shape[d];
    }
    source.assign(tableSize, -1);
    for (int64_t p = 0; p < slices; ++p) {
      int64_t flat = 0;
      for (int64_t j = 0; j < k; ++j) {
        int64_t dim = data.shape[j], v = indices.i[p * k + j];
        if (v < -dim || v >= dim)
          return fail("index " + Twine(v) +
                      " out of range for a dimension of " + Twine(dim));
        flat = flat * dim + (v < 0 ? v + dim : v);
      }
      source[flat] = int32_t(p);
    }
  }
  // A reduction computes on the values: dequantized data as f32.
  bool reduce = reduction != "none";
  auto tables = scatterTables(*this, data, updates, "data and updates",
                              /*keepCodes=*/!reduce);
  if (failed(tables))
    return failure();
  bool codes = tables->codes;
  Value *dataTable = &tables->data, *updateTable = &tables->updates;
  const ImportedValue &like = tables->like;
  // The updates as [slices, data.shape[k:]...].
  SmallVector<int64_t> flatUpdates = {slices};
  flatUpdates.append(data.shape.begin() + k, data.shape.end());
  Value flatUpdateTable = reshape(*updateTable, flatUpdates);
  if (runTime || reduce) {
    // In order, one update after the other (compile-time tuples as a
    // constant): each reduction combines with what the earlier ones left.
    Value tuples =
        runTime ? reshape(indices.value, {slices, k})
                : arith::ConstantOp::create(
                      b, loc,
                      DenseElementsAttr::get(
                          RankedTensorType::get({slices, k}, b.getI64Type()),
                          ArrayRef<int64_t>(indices.i)))
                      .getResult();
    int32_t dtype = graphElementType(data);
    bool isUnsigned = isUnsignedIntType(dtype);
    Value scattered =
        scatterInOrder(*this, *dataTable, data.shape, tuples, flatUpdateTable,
                       slices, k, reduction, isUnsigned);
    setOutput(0, resultLike(*this, like, codes, scattered, data.shape));
    return success();
  }
  SmallVector<int64_t> tableShape(data.shape.begin(), data.shape.begin() + k);
  auto tableType = RankedTensorType::get(tableShape, b.getI32Type());
  Value sourceTable = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(tableType, ArrayRef<int32_t>(source)));
  SmallVector<AffineExpr> prefix;
  for (int64_t d = 0; d < k; ++d)
    prefix.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(r, ctx),
                                 AffineMap::get(r, 0, prefix, ctx),
                                 AffineMap::getMultiDimIdentityMap(r, ctx)};
  SmallVector<utils::IteratorType> iters(r, utils::IteratorType::parallel);
  Type elem = cast<RankedTensorType>(dataTable->getType()).getElementType();
  Value init = tensor::EmptyOp::create(b, loc, data.shape, elem);
  Value scattered =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()},
          ValueRange{*dataTable, sourceTable}, ValueRange{init}, maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value p = args[1];
            Value zero =
                arith::ConstantOp::create(nb, l, nb.getI32IntegerAttr(0));
            Value none = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                               p, zero);
            // Read slice 0 where there is no update: in bounds, discarded.
            Value slice = arith::IndexCastOp::create(
                nb, l, nb.getIndexType(),
                arith::SelectOp::create(nb, l, none, zero, p));
            SmallVector<Value> coords = {slice};
            for (int64_t d = k; d < r; ++d)
              coords.push_back(linalg::IndexOp::create(nb, l, d));
            Value update =
                tensor::ExtractOp::create(nb, l, flatUpdateTable, coords);
            linalg::YieldOp::create(
                nb, l,
                arith::SelectOp::create(nb, l, none, args[0], update)
                    .getResult());
          })
          .getResult(0);
  setOutput(0, resultLike(*this, like, codes, scattered, data.shape));
  return success();
}
