//===- GridOps.cpp - ops that keep the quantization grid ------------------===//
//
// Identity, Reshape, Flatten and Transpose move codes without changing them,
// so on a dequantized value they act on the codes and the result is still
// the dequantization of codes. Relu and Clip narrow the range: on
// dequantized codes they stay pending until a QuantizeLinear gives the
// output grid, and become the clamp of that requantize (or of the
// contraction's requantize when they follow one).
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importIdentity() {
  auto in = input(0);
  if (failed(in))
    return failure();
  setOutput(0, **in);
  return success();
}

LogicalResult Importer::importDropout() {
  // Inference graphs (AlexNet, GoogLeNet from the model zoo) keep their
  // Dropout nodes; outside training they pass the input through.
  if (failed(checkAttrs({"is_test", "ratio", "seed"})))
    return failure();
  if (attrInt("is_test").value_or(1) == 0)
    return fail("Dropout in training mode (is_test = 0) is not supported");
  if (hasInput(2)) {
    auto training = input(2);
    if (failed(training))
      return failure();
    if ((*training)->kind != Kind::Const || (*training)->numElements() != 1 ||
        ((*training)->i.empty() ? (*training)->f[0] : (*training)->i[0]) != 0)
      return fail("Dropout in training mode (training_mode not a constant "
                  "false) is not supported");
  }
  if (node->output_size() > 1 && !node->output(1).empty())
    return fail("the mask output of Dropout is not supported");
  return importIdentity();
}

/// Relu / Clip with real bounds [lo, hi].
static LogicalResult importClamp(Importer &im, double lo, double hi) {
  auto in = im.input(0);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  if (lo > hi)
    return im.fail("min " + str(lo) + " is above max " + str(hi));
  ImportedValue out;
  switch (v.kind) {
  case Kind::Pending:
    out = v;
    out.pending = std::make_shared<PendingInfo>(*v.pending);
    // Clip after Clip is their composition, not the intersection of the
    // ranges: clamp(clamp(x, a, b), lo, hi) = clamp(x, clamp(a, lo, hi),
    // clamp(b, lo, hi)), which stays a valid range when the two are
    // disjoint (every value then becomes one of lo, hi).
    out.pending->lo = std::clamp(out.pending->lo, lo, hi);
    out.pending->hi = std::clamp(out.pending->hi, lo, hi);
    break;
  case Kind::Dequant: {
    if (v.q.perAxis())
      return im.fail("Relu / Clip on per-axis quantized values is not "
                     "supported");
    PendingInfo p;
    p.op = PendingOp::Clamp;
    p.operands.push_back(v);
    p.lo = lo;
    p.hi = hi;
    out.kind = Kind::Pending;
    out.shape = v.shape;
    out.nhwc = v.nhwc;
    out.pending = std::make_shared<PendingInfo>(std::move(p));
    break;
  }
  case Kind::Const:
    if (v.f.empty())
      return im.fail("Relu / Clip of an integer constant");
    out = v;
    for (double &x : out.f)
      x = std::min(std::max(x, lo), hi);
    break;
  case Kind::Float:
    return im.importFloatClamp(v, lo, hi);
  default:
    return im.fail("Relu / Clip of an integer tensor");
  }
  im.setOutput(0, std::move(out));
  return success();
}

/// `x` clamped to [lo, hi], an absent bound unbounded.
static int64_t clampInteger(int64_t x, std::optional<int64_t> lo,
                            std::optional<int64_t> hi) {
  if (lo)
    x = std::max(x, *lo);
  if (hi)
    x = std::min(x, *hi);
  return x;
}

/// The same on a run-time integer `r` of type `elem`, compared unsigned or
/// signed; the bounds must be values of `elem`.
static Value clampInteger(OpBuilder &nb, Location l, Value r, Type elem,
                          std::optional<int64_t> lo, std::optional<int64_t> hi,
                          bool isUnsigned) {
  auto constant = [&](int64_t c) -> Value {
    return arith::ConstantOp::create(nb, l, nb.getIntegerAttr(elem, c));
  };
  if (lo)
    r = isUnsigned ? Value(arith::MaxUIOp::create(nb, l, r, constant(*lo)))
                   : Value(arith::MaxSIOp::create(nb, l, r, constant(*lo)));
  if (hi)
    r = isUnsigned ? Value(arith::MinUIOp::create(nb, l, r, constant(*hi)))
                   : Value(arith::MinSIOp::create(nb, l, r, constant(*hi)));
  return r;
}

/// Relu / Clip of integers (DeBERTa's relative positions, torch.clamp on
/// long): bounds of the input's type, absent ones unbounded; folded for
/// constants, elementwise for run-time tensors.
static LogicalResult importIntegerClamp(Importer &im, ImportedValue &v,
                                        std::optional<int64_t> lo,
                                        std::optional<int64_t> hi) {
  if (v.kind == Kind::Const) {
    ImportedValue out = v;
    for (int64_t &x : out.i)
      x = clampInteger(x, lo, hi);
    im.setOutput(0, std::move(out));
    return success();
  }
  bool isUnsigned = isUnsignedIntType(v.dtype);
  return setIntegerMap(
      im, v, [&](OpBuilder &nb, Location l, Value r, Type elem) -> Value {
        return clampInteger(nb, l, r, elem, lo, hi, isUnsigned);
      });
}

/// Relu / Clip of the int8 / uint8 codes a QuantizeLinear wrote (ONNX
/// defines them on the integers: Relu is max(q, 0), not a Relu of the reals
/// unless the zero point is 0): the codes clamped, on the same grid, so a
/// DequantizeLinear after them reads them as it reads any codes.
static LogicalResult importCodeClamp(Importer &im, ImportedValue &v,
                                     std::optional<int64_t> lo,
                                     std::optional<int64_t> hi) {
  ImportedValue out = v;
  if (v.codes) {
    for (int64_t &x : *out.codes)
      x = clampInteger(x, lo, hi);
    out.value = {};
    im.setOutput(0, std::move(out));
    return success();
  }
  // Clamped in the value's own layout (a conv's NHWC result stays NHWC);
  // bounds outside the storage type clamp nothing or everything.
  out.nhwc = v.shape.size() == 4 && v.nhwc && !v.isFlattenedNhwc();
  auto ints = storageInts(im, v, out.nhwc);
  if (failed(ints))
    return failure();
  auto type = cast<RankedTensorType>(ints->getType());
  int64_t qmin = v.q.qmin(), qmax = v.q.qmax();
  std::optional<int64_t> storageLo, storageHi;
  if (lo && *lo > qmin)
    storageLo = std::min(*lo, qmax);
  if (hi && *hi < qmax)
    storageHi = std::max(*hi, qmin);
  Value clamped = elementwise(
      im, {*ints}, type.getShape(),
      [&](OpBuilder &nb, Location l, ValueRange a) {
        return clampInteger(nb, l, a[0], type.getElementType(), storageLo,
                            storageHi, !v.q.isSigned);
      },
      type.getElementType());
  out.flattenedFromNhwc.clear();
  out.value = quant::StorageCastOp::create(im.b, im.loc,
                                           im.quantTensorType(out), clamped);
  im.setOutput(0, std::move(out));
  return success();
}

/// Whether `v` is integer data Relu / Clip clamp as integers.
static bool clampsAsIntegers(const ImportedValue &v) {
  return (v.kind == Kind::Int || v.kind == Kind::Quant ||
          (v.kind == Kind::Const && v.f.empty())) &&
         v.dtype != onnx::TensorProto::BOOL;
}

LogicalResult Importer::importRelu() {
  auto in = input(0);
  if (failed(in))
    return failure();
  if ((*in)->kind == Kind::Quant)
    return importCodeClamp(*this, **in, int64_t(0), std::nullopt);
  if (clampsAsIntegers(**in))
    return importIntegerClamp(*this, **in, int64_t(0), std::nullopt);
  return importClamp(*this, 0.0, std::numeric_limits<double>::infinity());
}

LogicalResult Importer::importClip() {
  if (failed(checkAttrs({"min", "max"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  // min and max: inputs since opset 11 (integers since 12), attributes
  // before.
  const ImportedValue *bounds[2] = {nullptr, nullptr};
  for (unsigned idx : {1u, 2u}) {
    if (!hasInput(idx))
      continue;
    auto bound = input(idx);
    if (failed(bound))
      return failure();
    bounds[idx - 1] = *bound;
  }
  if (clampsAsIntegers(**in)) {
    // Clip-6's float attributes are defined on float tensors only.
    if (attrFloat("min") || attrFloat("max"))
      return fail("Clip of integers takes its bounds as inputs (opset 12)");
    std::optional<int64_t> lo, hi;
    for (int k = 0; k < 2; ++k) {
      if (!bounds[k])
        continue;
      if (bounds[k]->kind != Kind::Const || bounds[k]->i.size() != 1 ||
          !bounds[k]->f.empty())
        return fail("Clip bounds of an integer tensor must be compile-time "
                    "integer scalars");
      (k == 0 ? lo : hi) = bounds[k]->i[0];
    }
    if (lo && hi && *lo > *hi)
      return fail("min " + Twine(*lo) + " is above max " + Twine(*hi));
    if ((*in)->kind == Kind::Quant)
      return importCodeClamp(*this, **in, lo, hi);
    return importIntegerClamp(*this, **in, lo, hi);
  }
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  if (auto a = attrFloat("min"))
    lo = *a;
  if (auto a = attrFloat("max"))
    hi = *a;
  for (int k = 0; k < 2; ++k) {
    if (!bounds[k])
      continue;
    if (bounds[k]->kind != Kind::Const || bounds[k]->f.size() != 1)
      return fail("Clip bounds must be compile-time float scalars");
    (k == 0 ? lo : hi) = bounds[k]->f[0];
  }
  return importClamp(*this, lo, hi);
}

/// Moves `v` to `shape` keeping the element order of the logical layout.
LogicalResult Importer::setReshapedOutput(ImportedValue v,
                                          ArrayRef<int64_t> shape) {
  ImportedValue out = v;
  out.shape.assign(shape.begin(), shape.end());
  out.nhwc = false;
  out.flattenedFromNhwc.clear();
  switch (v.kind) {
  case Kind::Const:
    break;
  case Kind::Quant:
  case Kind::Dequant: {
    if (v.q.perAxis())
      return fail("reshaping a per-axis quantized tensor is not "
                  "supported");
    if (v.codes)
      break;
    if (v.nhwc && v.shape.size() == 4 && !v.isFlattenedNhwc() &&
        shape.size() == 2 && shape[0] == v.shape[0]) {
      // Flatten of NHWC codes: keep the NHWC order and let the consumer
      // (a MatMul permutes its weight rows) or quantValue deal with it.
      out.value = reshape(v.value, shape);
      out.flattenedFromNhwc.assign(v.shape.begin(), v.shape.end());
      out.flattenedValue = out.value;
      break;
    }
    auto q = quantValue(v, false);
    if (failed(q))
      return failure();
    out.value = reshape(*q, shape);
    break;
  }
  case Kind::Float:
  case Kind::Int: {
    Value src = v.value;
    if (v.nhwc && v.shape.size() == 4)
      src = transpose(src, {0, 3, 1, 2});
    out.value = reshape(src, shape);
    break;
  }
  case Kind::Pending: {
    // Not closed by a QuantizeLinear and not on a grid: a float island.
    auto f = floatValue(v, false);
    if (failed(f))
      return failure();
    out.kind = Kind::Float;
    out.pending.reset();
    out.value = reshape(*f, shape);
    break;
  }
  case Kind::Sequence:
    return fail("reshaping a sequence");
  }
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importReshape(bool isFlatten) {
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  (void)settle(*v);
  int64_t total = v->numElements();
  SmallVector<int64_t> shape;
  if (isFlatten) {
    if (failed(checkAttrs({"axis"})))
      return failure();
    int64_t rank = v->shape.size();
    int64_t axis = attrInt("axis").value_or(1);
    if (axis < -rank || axis > rank)
      return fail("axis out of range");
    if (axis < 0)
      axis += rank;
    int64_t outer = 1;
    for (int64_t d = 0; d < axis; ++d)
      outer *= v->shape[d];
    shape = {outer, outer ? total / outer : 0};
  } else {
    if (failed(checkAttrs({"allowzero"})))
      return failure();
    auto target = constInts(1);
    if (failed(target))
      return failure();
    bool allowZero = attrInt("allowzero").value_or(0) != 0;
    int64_t known = 1, inferAt = -1;
    for (auto [idx, d] : llvm::enumerate(*target)) {
      if (d == 0 && !allowZero) {
        if (idx >= v->shape.size())
          return fail("0 in the shape copies a dimension the input lacks");
        d = v->shape[idx];
      }
      if (d == -1) {
        if (inferAt >= 0)
          return fail("more than one -1 in the shape");
        inferAt = idx;
        shape.push_back(1);
        continue;
      }
      if (d <= 0)
        return fail("invalid dimension " + Twine(d) + " in the shape");
      known *= d;
      shape.push_back(d);
    }
    if (inferAt >= 0) {
      if (known == 0 || total % known)
        return fail("cannot infer the -1 dimension");
      shape[inferAt] = total / known;
      known *= shape[inferAt];
    }
    if (known != total)
      return fail("the shape has " + Twine(known) + " elements, the input " +
                  Twine(total));
  }
  return setReshapedOutput(*v, shape);
}

LogicalResult quantopt::onnx_import::detail::settleOrFloat(Importer &im,
                                                           ImportedValue &v) {
  if (v.kind == Kind::Pending && failed(im.settle(v)) &&
      failed(im.floatValue(v, false)))
    return failure();
  return success();
}

/// The value of `v` in logical (NCHW) layout: its codes when quantized, its
/// f32 or integer tensor otherwise; failure for anything else.
static FailureOr<Value> logicalValue(Importer &im, ImportedValue &v,
                                     StringRef op) {
  if (v.isQuantized())
    return im.quantValue(v, false);
  if (v.kind == Kind::Float || v.kind == Kind::Int) {
    if (v.nhwc && v.shape.size() == 4)
      return im.transpose(v.value, {0, 3, 1, 2});
    return v.value;
  }
  return im.fail("unsupported input to " + op);
}

FailureOr<Value> quantopt::onnx_import::detail::storageInts(Importer &im,
                                                            ImportedValue &v,
                                                            bool nhwc) {
  auto q = im.quantValue(v, nhwc);
  if (failed(q))
    return failure();
  return quant::StorageCastOp::create(
             im.b, im.loc,
             RankedTensorType::get(
                 cast<RankedTensorType>(q->getType()).getShape(),
                 im.storageIntType(v.q)),
             *q)
      .getResult();
}

FailureOr<Value> quantopt::onnx_import::detail::elementTable(Importer &im,
                                                             ImportedValue &v,
                                                             bool codes) {
  if (codes)
    return storageInts(im, v, /*nhwc=*/false);
  if (v.kind == Kind::Int)
    return logicalIntegers(im, v, Type());
  // A compile-time integer table read at run-time positions: ONNX Runtime's
  // quantize_dynamic stores an embedding as int8 codes, gathers them, then
  // dequantizes (its GatherQuant); lookup tables of int64 likewise.
  if (v.kind == Kind::Const && v.holdsIntegers() && !v.codes)
    return intConstant(im, v, integerElementType(im, v));
  if (v.isQuantized() || v.kind == Kind::Float ||
      (v.kind == Kind::Const && !v.f.empty()))
    return im.floatValue(v, /*nhwc=*/false);
  return im.fail(im.node->op_type() +
                 " needs float, quantized or run-time integer data");
}

ImportedValue quantopt::onnx_import::detail::resultLike(
    Importer &im, const ImportedValue &like, bool codes, Value value,
    ArrayRef<int64_t> shape) {
  ImportedValue out;
  out.shape.assign(shape.begin(), shape.end());
  if (codes) {
    out.kind = like.kind;
    out.dtype = like.dtype;
    out.q = like.q;
    out.value = quant::StorageCastOp::create(im.b, im.loc,
                                             im.quantTensorType(out), value);
  } else if (like.kind == Kind::Int ||
             (like.kind == Kind::Const && like.holdsIntegers())) {
    out.kind = Kind::Int;
    out.dtype = like.dtype;
    out.value = value;
  } else {
    out.kind = Kind::Float;
    out.dtype = onnx::TensorProto::FLOAT;
    out.value = value;
  }
  return out;
}

Value quantopt::onnx_import::detail::normalizedIndex(OpBuilder &b, Location loc,
                                                     Value i, int64_t dim) {
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

/// A new tensor of `shape` whose element at index d is `src`'s element at
/// `read(d)`: ops that only move elements (nearest Resize, Expand, Tile).
static Value copyThroughMap(Importer &im, Value src, ArrayRef<int64_t> shape,
                            ArrayRef<AffineExpr> read) {
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps = {
      AffineMap::get(rank, 0, read, im.ctx),
      AffineMap::getMultiDimIdentityMap(rank, im.ctx)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Type elem = cast<RankedTensorType>(src.getType()).getElementType();
  Value init = tensor::EmptyOp::create(im.b, im.loc, shape, elem);
  return linalg::GenericOp::create(
             im.b, im.loc, TypeRange{init.getType()}, ValueRange{src},
             ValueRange{init}, maps, iters,
             [](OpBuilder &nb, Location l, ValueRange a) {
               linalg::YieldOp::create(nb, l, a[0]);
             })
      .getResult(0);
}

/// A new tensor of `shape` whose element at index d reads `src` at
/// (sources[0][d0], sources[1][d1], ...): a nearest Resize by any factor.
/// An axis that keeps its length and reads itself needs no table.
static Value gatherThroughTables(Importer &im, Value src,
                                 ArrayRef<int64_t> shape,
                                 ArrayRef<SmallVector<int32_t>> sources) {
  OpBuilder &b = im.b;
  Location loc = im.loc;
  int64_t rank = shape.size();
  auto srcType = cast<RankedTensorType>(src.getType());
  SmallVector<Value> tables;
  SmallVector<int64_t> tableAxes;
  SmallVector<AffineMap> maps;
  for (int64_t d = 0; d < rank; ++d) {
    bool identity = shape[d] == srcType.getDimSize(d) &&
                    llvm::all_of(llvm::enumerate(sources[d]), [](auto e) {
                      return int64_t(e.value()) == int64_t(e.index());
                    });
    if (identity)
      continue;
    auto type = RankedTensorType::get({shape[d]}, b.getIntegerType(32));
    tables.push_back(arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef(sources[d]))));
    tableAxes.push_back(d);
    maps.push_back(AffineMap::get(rank, 0, getAffineDimExpr(d, im.ctx)));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, im.ctx));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, shape, srcType.getElementType());
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, tables, ValueRange{init}, maps,
             iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               SmallVector<Value> at;
               for (int64_t d = 0; d < rank; ++d) {
                 auto it = llvm::find(tableAxes, d);
                 if (it == tableAxes.end()) {
                   at.push_back(linalg::IndexOp::create(nb, l, d));
                   continue;
                 }
                 at.push_back(arith::IndexCastOp::create(
                     nb, l, nb.getIndexType(), args[it - tableAxes.begin()]));
               }
               linalg::YieldOp::create(
                   nb, l,
                   tensor::ExtractOp::create(nb, l, src, at).getResult());
             })
      .getResult(0);
}

LogicalResult Importer::importSqueeze() {
  // axes: an input since opset 13, an attribute before; none: every
  // dimension of size 1.
  if (failed(checkAttrs(opset >= 13 ? ArrayRef<StringRef>{}
                                    : ArrayRef<StringRef>{"axes"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  (void)settle(*v);
  int64_t rank = v->shape.size();
  std::optional<std::vector<int64_t>> axes;
  if (opset < 13) {
    axes = attrInts("axes");
  } else if (hasInput(1)) {
    auto c = constInts(1);
    if (failed(c))
      return failure();
    axes = std::move(*c);
  }
  SmallVector<bool> drop(rank, false);
  if (axes) {
    for (int64_t a : *axes) {
      if (a < -rank || a >= rank)
        return fail("axis " + Twine(a) + " out of range");
      if (a < 0)
        a += rank;
      if (v->shape[a] != 1)
        return fail("axis " + Twine(a) + " has size " + Twine(v->shape[a]) +
                    ", not 1");
      drop[a] = true;
    }
  } else {
    for (int64_t d = 0; d < rank; ++d)
      drop[d] = v->shape[d] == 1;
  }
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d)
    if (!drop[d])
      shape.push_back(v->shape[d]);
  return setReshapedOutput(*v, shape);
}

LogicalResult Importer::importTranspose() {
  if (failed(checkAttrs({"perm"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  // A pending result either settles on its grid or runs as a float island.
  if (failed(settleOrFloat(*this, *v)))
    return failure();
  int64_t rank = v->shape.size();
  std::vector<int64_t> perm;
  if (auto p = attrInts("perm")) {
    perm = *p;
  } else {
    for (int64_t d = rank - 1; d >= 0; --d)
      perm.push_back(d);
  }
  std::vector<int64_t> sorted = perm;
  llvm::sort(sorted);
  for (int64_t d = 0; d < rank; ++d)
    if (int64_t(sorted.size()) != rank || sorted[d] != d)
      return fail("perm is not a permutation of the dimensions");
  ImportedValue out = *v;
  out.shape.clear();
  for (int64_t p : perm)
    out.shape.push_back(v->shape[p]);
  out.nhwc = false;
  if (v->q.perAxis())
    out.q.axis = std::find(perm.begin(), perm.end(), v->q.axis) - perm.begin();
  if (v->kind == Kind::Const || v->codes) {
    // Permute compile-time data (codes, integers or floats).
    SmallVector<int64_t> strides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * v->shape[d + 1];
    auto permuted = [&](const auto &src) {
      std::decay_t<decltype(src)> dst(src.size());
      SmallVector<int64_t> idx(rank, 0);
      for (size_t n = 0; n < src.size(); ++n) {
        int64_t at = 0;
        for (int64_t d = 0; d < rank; ++d)
          at += idx[d] * strides[perm[d]];
        dst[n] = src[at];
        for (int64_t d = rank - 1; d >= 0; --d) {
          if (++idx[d] < out.shape[d])
            break;
          idx[d] = 0;
        }
      }
      return dst;
    };
    if (v->codes)
      out.codes = permuted(*v->codes);
    else if (!v->f.empty())
      out.f = permuted(v->f);
    else
      out.i = permuted(v->i);
    setOutput(0, std::move(out));
    return success();
  }
  auto src = logicalValue(*this, *v, "Transpose");
  if (failed(src))
    return failure();
  out.value = transpose(*src, perm);
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importSlice() {
  // starts / ends / axes / steps: inputs 1-4 since opset 10, attributes
  // before.
  bool asInputs = opset >= 10;
  if (failed(checkAttrs(asInputs
                            ? ArrayRef<StringRef>{}
                            : ArrayRef<StringRef>{"starts", "ends", "axes"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  int64_t rank = v->shape.size();
  auto param =
      [&](unsigned idx,
          StringRef attr) -> FailureOr<std::optional<std::vector<int64_t>>> {
    if (!asInputs)
      return attrInts(attr);
    if (!hasInput(idx))
      return std::optional<std::vector<int64_t>>();
    auto ints = constInts(idx);
    if (failed(ints))
      return failure();
    return std::optional<std::vector<int64_t>>(std::move(*ints));
  };
  auto starts = param(1, "starts"), ends = param(2, "ends");
  auto axes = param(3, "axes"), steps = param(4, "steps");
  if (failed(starts) || failed(ends) || failed(axes) || failed(steps))
    return failure();
  if (!*starts || !*ends || (*starts)->size() != (*ends)->size())
    return fail("starts and ends must be constants of equal length");
  size_t count = (*starts)->size();
  std::vector<int64_t> axisList(count), stepList(count, 1);
  for (size_t n = 0; n < count; ++n)
    axisList[n] = *axes ? (n < (*axes)->size() ? (**axes)[n] : -rank - 1) : n;
  if ((*axes && (*axes)->size() != count) ||
      (*steps && (*steps)->size() != count))
    return fail("axes and steps must have one entry per start");
  if (*steps)
    stepList = **steps;

  // Offsets, sizes and strides of the result, ONNX's clamping rules.
  SmallVector<int64_t> offsets(rank, 0), sizes(v->shape), strides(rank, 1);
  SmallVector<bool> seen(rank, false), reversed(rank, false);
  for (size_t n = 0; n < count; ++n) {
    int64_t axis = axisList[n];
    if (axis < -rank || axis >= rank)
      return fail("axis " + Twine(axis) + " out of range");
    if (axis < 0)
      axis += rank;
    if (seen[axis])
      return fail("axis " + Twine(axis) + " is sliced twice");
    seen[axis] = true;
    int64_t dim = v->shape[axis], step = stepList[n];
    if (step == 0)
      return fail("a step of 0 (axis " + Twine(axis) + ")");
    if (step < 0) {
      // Backward (torch's flip, and the pads list F.pad reverses): start
      // clamps to [0, dim - 1], end to [-1, dim - 1] (ONNX's rules).
      auto clampBackward = [&](int64_t x) {
        if (x < 0)
          x = x < -dim ? -1 : x + dim;
        return std::min(x, dim - 1);
      };
      int64_t start = std::max<int64_t>(clampBackward((**starts)[n]), 0);
      int64_t end = clampBackward((**ends)[n]);
      // |step| without overflow (INT64_MIN).
      uint64_t magnitude = uint64_t(0) - uint64_t(step);
      sizes[axis] =
          start > end ? 1 + int64_t(uint64_t(start - end - 1) / magnitude) : 0;
      // The elements start, start + step, ...: read upwards from the last
      // one, then reversed.
      int64_t stride = sizes[axis] > 1 ? int64_t(magnitude) : 1;
      offsets[axis] = start - (sizes[axis] - 1) * stride;
      strides[axis] = stride;
      reversed[axis] = sizes[axis] > 1;
      continue;
    }
    auto clampIndex = [&](int64_t x) {
      if (x < 0)
        x = x < -dim ? 0 : x + dim;
      return std::min(x, dim);
    };
    int64_t start = clampIndex((**starts)[n]), end = clampIndex((**ends)[n]);
    offsets[axis] = start;
    // Without overflow for any step (torch writes INT64_MAX for "to the
    // end").
    sizes[axis] = end > start ? 1 + (end - start - 1) / step : 0;
    // One element taken: any step means 1, and a huge step must not reach
    // the buffer's stride arithmetic. Otherwise step < dim.
    strides[axis] = sizes[axis] == 1 ? 1 : step;
  }
  bool anyReversed = llvm::is_contained(reversed, true);
  for (int64_t d = 0; d < rank; ++d)
    if (sizes[d] == 0)
      return fail("the slice is empty");

  // A pending result settles or becomes f32 first (constants never pend).
  if (failed(settleOrFloat(*this, *v)))
    return failure();
  ImportedValue out = *v;
  out.shape = sizes;
  out.nhwc = false;
  out.flattenedFromNhwc.clear();
  // Compile-time data (shape arithmetic, constant codes): sliced here.
  if (v->kind == Kind::Const || v->codes) {
    auto sliceData = [&](auto &data) {
      using T = typename std::decay_t<decltype(data)>::value_type;
      std::vector<T> result;
      SmallVector<int64_t> idx(rank, 0);
      int64_t total = out.numElements();
      for (int64_t n = 0; n < total; ++n) {
        int64_t at = 0;
        for (int64_t d = 0; d < rank; ++d)
          at = at * v->shape[d] + offsets[d] +
               (reversed[d] ? sizes[d] - 1 - idx[d] : idx[d]) * strides[d];
        result.push_back(data[at]);
        for (int64_t d = rank - 1; d >= 0; --d) {
          if (++idx[d] < sizes[d])
            break;
          idx[d] = 0;
        }
      }
      data = std::move(result);
    };
    if (v->q.perAxis())
      return fail("Slice of a per-axis quantized constant is not supported");
    if (out.codes)
      sliceData(*out.codes);
    else if (!out.f.empty())
      sliceData(out.f);
    else
      sliceData(out.i);
    setOutput(0, std::move(out));
    return success();
  }
  if (v->isQuantized() && v->q.perAxis())
    return fail("Slice of a per-axis quantized tensor is not supported");
  // Reversed axes move codes as storage integers (a linalg.generic copies
  // them backwards); the rest of the slice is one extract_slice.
  auto sliced = anyReversed && v->isQuantized()
                    ? storageInts(*this, *v, /*nhwc=*/false)
                    : logicalValue(*this, *v, "Slice");
  if (failed(sliced))
    return failure();
  Value src = *sliced;
  Value value = tensor::ExtractSliceOp::create(
      b, loc,
      RankedTensorType::get(
          sizes, cast<RankedTensorType>(src.getType()).getElementType()),
      src, ValueRange{}, ValueRange{}, ValueRange{}, offsets, sizes, strides);
  if (anyReversed) {
    SmallVector<AffineExpr> read;
    for (int64_t d = 0; d < rank; ++d)
      read.push_back(reversed[d] ? sizes[d] - 1 - getAffineDimExpr(d, ctx)
                                 : getAffineDimExpr(d, ctx));
    value = copyThroughMap(*this, value, sizes, read);
    if (v->isQuantized())
      value = quant::StorageCastOp::create(b, loc, quantTensorType(out), value);
  }
  out.value = value;
  setOutput(0, std::move(out));
  return success();
}

/// The input index that ONNX Resize (mode "nearest") reads for output index
/// `x` along an axis: the coordinate transform, then the nearest mode, then
/// the clamp to the input, in f32 as ONNX Runtime computes them (its
/// upsample kernel: the scale of `sizes` is float(out) / float(in)).
static std::optional<int64_t> nearestSource(int64_t x, float scale,
                                            int64_t outLen, int64_t inLen,
                                            StringRef transform,
                                            StringRef rounding) {
  float xr = float(x), xo;
  if (transform == "half_pixel")
    xo = (xr + 0.5f) / scale - 0.5f;
  else if (transform == "pytorch_half_pixel")
    xo = outLen > 1 ? (xr + 0.5f) / scale - 0.5f : 0.0f;
  else if (transform == "asymmetric")
    xo = xr / scale;
  else if (transform == "tf_half_pixel_for_nn")
    xo = (xr + 0.5f) / scale;
  else if (transform == "align_corners")
    xo = outLen > 1 ? xr * float(inLen - 1) / float(outLen - 1) : 0.0f;
  else
    return std::nullopt;
  float src;
  if (rounding == "floor")
    src = std::floor(xo);
  else if (rounding == "ceil")
    src = std::ceil(xo);
  else if (rounding == "round_prefer_floor")
    src = xo == float(int64_t(xo)) + 0.5f ? std::floor(xo) : std::round(xo);
  else if (rounding == "round_prefer_ceil")
    src = std::round(xo);
  else
    return std::nullopt;
  return std::clamp<int64_t>(int64_t(src), 0, inLen - 1);
}

LogicalResult Importer::importUpsample() {
  // Upsample (opsets 7 to 9, in older exports such as YOLOv3's) is Resize
  // with coordinate_transformation_mode "asymmetric" and nearest_mode
  // "floor" (Resize-10 is Upsample-9 renamed): imported as that node.
  if (failed(checkAttrs({"mode", "scales"})))
    return failure();
  std::string mode = attrString("mode").value_or("nearest");
  if (mode != "nearest" && mode != "linear")
    return fail("unknown mode '" + mode +
                "' (ONNX defines nearest and linear)");
  const onnx::NodeProto &n = *node;
  Expansion e(*this, n);
  std::string scales;
  if (auto attr = attrFloats("scales")) {
    // Upsample-7: the scales are an attribute.
    scales = e.constFloats("scales", *attr);
  } else if (e.has(1)) {
    scales = n.input(1);
  } else {
    return fail("the scales are missing (input 1, or the attribute before "
                "opset 9)");
  }
  bool inputs11 = opset >= 11;
  onnx::NodeProto &resize =
      e.add("Resize",
            inputs11 ? ArrayRef<std::string>{n.input(0), "", scales}
                     : ArrayRef<std::string>{n.input(0), scales},
            n.output(0));
  Expansion::setString(resize, "mode", mode);
  if (inputs11) {
    Expansion::setString(resize, "coordinate_transformation_mode",
                         "asymmetric");
    Expansion::setString(resize, "nearest_mode", "floor");
  }
  return importExpansion(n, e.nodes);
}

LogicalResult Importer::importResize() {
  if (failed(
          checkAttrs({"mode", "coordinate_transformation_mode", "nearest_mode",
                      "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                      "antialias", "keep_aspect_ratio_policy"})))
    return failure();
  std::string mode = attrString("mode").value_or("nearest");
  std::string transform =
      attrString("coordinate_transformation_mode")
          .value_or(opset >= 11 ? "half_pixel" : "asymmetric");
  std::string rounding =
      attrString("nearest_mode")
          .value_or(opset >= 11 ? "round_prefer_floor" : "floor");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    return fail("Resize mode '" + mode +
                "' is not one of nearest, linear and "
                "cubic");
  if (attrInt("antialias").value_or(0) != 0)
    return fail("Resize with antialias is not supported");
  if (attrString("keep_aspect_ratio_policy").value_or("stretch") != "stretch")
    return fail("Resize keep_aspect_ratio_policy other than stretch is not "
                "supported");
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  int64_t rank = v->shape.size();
  // scales: input 1 before opset 11, input 2 after; sizes: input 3.
  unsigned scalesIdx = opset >= 11 ? 2 : 1;
  SmallVector<int64_t> outShape(v->shape);
  SmallVector<double> scales(rank, 1.0);
  // The f32 scale ONNX Runtime's nearest mode divides by.
  SmallVector<float> nearestScales(rank, 1.0f);
  if (opset >= 11 && hasInput(3)) {
    auto sizes = constInts(3);
    if (failed(sizes))
      return failure();
    if (int64_t(sizes->size()) != rank)
      return fail("sizes must have one entry per dimension");
    for (int64_t d = 0; d < rank; ++d) {
      if ((*sizes)[d] <= 0 || v->shape[d] <= 0)
        return fail("sizes must be positive");
      outShape[d] = (*sizes)[d];
      scales[d] = double(outShape[d]) / double(v->shape[d]);
      nearestScales[d] = float(outShape[d]) / float(v->shape[d]);
    }
  } else if (hasInput(scalesIdx)) {
    auto sc = input(scalesIdx);
    if (failed(sc))
      return failure();
    if ((*sc)->kind != Kind::Const || int64_t((*sc)->f.size()) != rank)
      return fail("scales must be a constant float tensor with one entry per "
                  "dimension");
    for (int64_t d = 0; d < rank; ++d) {
      // The scale as ONNX reads it (f32), and the output length floor(in *
      // scale).
      double scale = float((*sc)->f[d]);
      if (!(scale > 0) || !std::isfinite(scale))
        return fail("scales must be positive and finite");
      double len = std::floor(double(v->shape[d]) * scale);
      if (len < 1 || len > double(std::numeric_limits<int32_t>::max()))
        return fail("the resized dimension " + Twine(d) +
                    " is empty or too large");
      scales[d] = scale;
      nearestScales[d] = float(scale);
      outShape[d] = int64_t(len);
    }
  } else {
    return fail("Resize needs scales or sizes");
  }
  // The check below visits every output index of each axis: bounded, so
  // that a hostile size cannot stall the import (real upsampling stays far
  // below).
  constexpr int64_t kMaxResizedLength = int64_t(1) << 24;
  for (int64_t d = 0; d < rank; ++d)
    if (outShape[d] > kMaxResizedLength)
      return fail("Resize to " + Twine(outShape[d]) +
                  " elements along dimension " + Twine(d) +
                  " is not supported (at most " + Twine(kMaxResizedLength) +
                  ")");

  if (mode != "nearest" && (rank == 3 || rank == 5) &&
      outShape[0] == v->shape[0] && outShape[1] == v->shape[1])
    return importResizeByPlanes(*v, outShape, scales);
  if (mode != "nearest")
    return importResizeInterpolated(*v, outShape, scales, transform, mode);

  // Each output index x along axis d reads input index src[d][x]. Where
  // that is floor(x / f) for an integer factor f (the usual upsampling by
  // 2, 3, ...), the read is an affine floordiv map; otherwise (FPN's 13 ->
  // 25, a downsampling) it comes from a compile-time table per axis.
  SmallVector<SmallVector<int32_t>> sources(rank);
  bool repeats = true;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t inLen = v->shape[d], outLen = outShape[d];
    for (int64_t x = 0; x < outLen; ++x) {
      std::optional<int64_t> src = nearestSource(x, nearestScales[d], outLen,
                                                 inLen, transform, rounding);
      if (!src)
        return fail("unknown coordinate_transformation_mode '" + transform +
                    "' or nearest_mode '" + rounding + "'");
      sources[d].push_back(int32_t(*src));
      repeats &= outLen % inLen == 0 && *src == x / (outLen / inLen);
    }
  }

  // The repeat, on the codes (as storage integers), the integers or the f32
  // value. Compile-time data (RAFT's coordinate grids) becomes a constant
  // tensor here.
  if (failed(settleOrFloat(*this, *v)))
    return failure();
  bool integers = !v->isQuantized() && v->holdsIntegers();
  ImportedValue out = *v;
  out.shape = outShape;
  // A rank-4 NHWC value (a conv's result) is resized in NHWC: no transpose
  // to NCHW and back.
  out.nhwc = rank == 4 && v->nhwc && !v->isFlattenedNhwc() && !integers;
  out.flattenedFromNhwc.clear();
  out.codes.reset();
  out.f.clear();
  out.i.clear();
  Value src;
  if (v->isQuantized()) {
    if (v->q.perAxis())
      return fail("Resize of a per-axis quantized tensor is not supported");
    auto ints = storageInts(*this, *v, out.nhwc);
    if (failed(ints))
      return failure();
    src = *ints;
  } else if (integers) {
    src = logicalIntegers(*this, *v, integerElementType(*this, *v));
    out.kind = Kind::Int;
  } else if (v->kind == Kind::Float || v->kind == Kind::Const) {
    auto f = floatValue(*v, out.nhwc);
    if (failed(f))
      return failure();
    src = *f;
    out.kind = Kind::Float;
    out.dtype = onnx::TensorProto::FLOAT;
  } else {
    return fail("unsupported input to Resize");
  }
  SmallVector<int64_t> physicalOut = physicalShape(out);
  ArrayRef<int64_t> physicalIn = cast<RankedTensorType>(src.getType()).getShape();
  if (out.nhwc)
    sources = {sources[0], sources[2], sources[3], sources[1]};
  Value result;
  if (repeats) {
    // Each physical dimension repeats by its output / input length.
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d) {
      int64_t factor = physicalOut[d] / physicalIn[d];
      AffineExpr e = getAffineDimExpr(d, ctx);
      exprs.push_back(factor == 1 ? e : e.floorDiv(factor));
    }
    result = copyThroughMap(*this, src, physicalOut, exprs);
  } else {
    result = gatherThroughTables(*this, src, physicalOut, sources);
  }
  out.value = v->isQuantized() ? quant::StorageCastOp::create(
                                      b, loc, quantTensorType(out), result)
                                : result;
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importTrilu() {
  if (failed(checkAttrs({"upper"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  int64_t rank = v->shape.size();
  if (rank < 2)
    return fail("the input must have rank 2 or more");
  int64_t k = 0;
  if (hasInput(1)) {
    auto c = constInts(1);
    if (failed(c))
      return failure();
    if (c->size() != 1)
      return fail("k must be one value");
    k = (*c)[0];
  }
  bool upper = attrInt("upper").value_or(1) != 0;
  int64_t rows = v->shape[rank - 2], cols = v->shape[rank - 1];
  // Kept: j - i >= k (upper) or j - i <= k (lower); |j - i| < 2^63.
  auto kept = [&](int64_t i, int64_t j) {
    return upper ? j - i >= k : j - i <= k;
  };
  if (v->kind == Kind::Const && (!v->f.empty() || !v->i.empty())) {
    // A causal mask built from constants (torch.triu(torch.ones(...))).
    ImportedValue out = *v;
    for (int64_t n = 0, e = v->numElements(); n < e; ++n) {
      if (kept((n / cols) % rows, n % cols))
        continue;
      if (!out.f.empty())
        out.f[n] = 0;
      else
        out.i[n] = 0;
    }
    setOutput(0, std::move(out));
    return success();
  }
  if (failed(settleOrFloat(*this, *v)))
    return failure();
  Value src, zero;
  if (v->isQuantized()) {
    // Zero is code 0 in a tensor of codes (a QuantizeLinear output), the
    // zero point's code in a dequantized one.
    if (v->kind == Kind::Dequant && v->q.perAxis())
      return fail("Trilu of a per-axis quantized tensor is not supported");
    int64_t code = v->kind == Kind::Quant ? 0 : v->q.zeroPoints[0];
    auto ints = storageInts(*this, *v, /*nhwc=*/false);
    if (failed(ints))
      return failure();
    src = *ints;
    zero = storageCode(v->q, code);
  } else if (v->kind == Kind::Float || v->kind == Kind::Int) {
    auto value = logicalValue(*this, *v, "Trilu");
    if (failed(value))
      return failure();
    src = *value;
    Type elem = cast<RankedTensorType>(src.getType()).getElementType();
    zero = arith::ConstantOp::create(b, loc, b.getZeroAttr(elem));
  } else {
    return fail("unsupported input to Trilu");
  }
  auto type = cast<RankedTensorType>(src.getType());
  SmallVector<AffineMap> maps(2, AffineMap::getMultiDimIdentityMap(rank, ctx));
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Value init =
      tensor::EmptyOp::create(b, loc, type.getShape(), type.getElementType());
  Value result =
      linalg::GenericOp::create(
          b, loc, TypeRange{type}, ValueRange{src}, ValueRange{init}, maps,
          iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            Value i = linalg::IndexOp::create(nb, l, rank - 2);
            Value j = linalg::IndexOp::create(nb, l, rank - 1);
            Value diff = arith::SubIOp::create(nb, l, j, i);
            // |j - i| < cols and rows, so a k beyond them keeps all or none.
            int64_t bound = std::max(rows, cols);
            Value kk = arith::ConstantIndexOp::create(
                nb, l, std::clamp<int64_t>(k, -bound, bound));
            Value keep = arith::CmpIOp::create(
                nb, l,
                upper ? arith::CmpIPredicate::sge : arith::CmpIPredicate::sle,
                diff, kk);
            linalg::YieldOp::create(
                nb, l,
                arith::SelectOp::create(nb, l, keep, args[0], zero)
                    .getResult());
          })
          .getResult(0);
  ImportedValue out = *v;
  out.nhwc = false;
  out.flattenedFromNhwc.clear();
  out.codes.reset();
  out.value =
      v->isQuantized()
          ? quant::StorageCastOp::create(b, loc, quantTensorType(out), result)
                .getResult()
          : result;
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importSplit() {
  // split: an input since opset 13, an attribute before; num_outputs since
  // opset 18.
  bool asInput = opset >= 13;
  if (failed(checkAttrs(opset >= 18 ? ArrayRef<StringRef>{"axis", "num_outputs"}
                        : asInput   ? ArrayRef<StringRef>{"axis"}
                                    : ArrayRef<StringRef>{"axis", "split"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  int64_t rank = v->shape.size();
  int64_t axis = attrInt("axis").value_or(0);
  if (axis < -rank || axis >= rank)
    return fail("axis " + Twine(axis) + " out of range");
  if (axis < 0)
    axis += rank;
  int64_t outputs = node->output_size();
  std::vector<int64_t> sizes;
  if (asInput && hasInput(1)) {
    auto c = constInts(1);
    if (failed(c))
      return failure();
    sizes = std::move(*c);
  } else if (auto a = attrInts("split"); !asInput && a) {
    sizes = std::move(*a);
  } else if (auto parts = attrInt("num_outputs")) {
    // Chunks of ceil(dim / num_outputs), the last one smaller.
    if (*parts != outputs)
      return fail("num_outputs = " + Twine(*parts) + " for " + Twine(outputs) +
                  " outputs");
    int64_t dim = v->shape[axis], chunk = (dim + outputs - 1) / outputs;
    for (int64_t k = 0; k < outputs; ++k)
      sizes.push_back(std::min(chunk, dim - k * chunk));
  } else {
    if (v->shape[axis] % outputs != 0)
      return fail("dimension " + Twine(v->shape[axis]) +
                  " does not split into " + Twine(outputs) + " equal parts");
    sizes.assign(outputs, v->shape[axis] / outputs);
  }
  if (int64_t(sizes.size()) != outputs)
    return fail("split has " + Twine(sizes.size()) + " sizes for " +
                Twine(outputs) + " outputs");
  int64_t total = 0;
  for (int64_t s : sizes) {
    if (s <= 0 || s > v->shape[axis])
      return fail("split sizes must be positive and fit the axis");
    total += s;
  }
  if (total != v->shape[axis])
    return fail("split sizes add up to " + Twine(total) + ", the axis has " +
                Twine(v->shape[axis]));

  if (failed(settleOrFloat(*this, *v)))
    return failure();
  if (v->isQuantized() && v->q.perAxis())
    return fail("Split of a per-axis quantized tensor is not supported");
  // Compile-time data (RAFT's coordinate grids, constant codes): each part
  // copied here, for each index before the axis its run of sizes[k] x (the
  // elements after the axis).
  if (v->kind == Kind::Const || v->codes) {
    int64_t outer, inner;
    std::tie(outer, inner) = countsAroundAxis(v->shape, axis);
    int64_t row = v->shape[axis] * inner, offset = 0;
    for (int64_t k = 0; k < outputs; ++k) {
      ImportedValue out = *v;
      out.shape[axis] = sizes[k];
      auto part = [&](auto &data) {
        std::decay_t<decltype(data)> result;
        result.reserve(outer * sizes[k] * inner);
        for (int64_t o = 0; o < outer; ++o)
          result.insert(result.end(), data.begin() + o * row + offset * inner,
                        data.begin() + o * row + (offset + sizes[k]) * inner);
        data = std::move(result);
      };
      if (out.codes)
        part(*out.codes);
      else if (!out.f.empty())
        part(out.f);
      else
        part(out.i);
      offset += sizes[k];
      setOutput(k, std::move(out));
    }
    return success();
  }
  // Sliced in the value's own layout: an NHWC conv result stays NHWC.
  bool nhwc = rank == 4 && v->nhwc && !v->isFlattenedNhwc();
  FailureOr<Value> src = failure();
  if (v->isQuantized())
    src = quantValue(*v, nhwc);
  else if (v->kind == Kind::Float)
    src = floatValue(*v, nhwc);
  else if (v->kind == Kind::Int && v->nhwc == nhwc)
    src = v->value;
  else
    return fail("unsupported input to Split");
  if (failed(src))
    return failure();
  static const int64_t toNhwc[] = {0, 3, 1, 2};
  int64_t physAxis = nhwc ? toNhwc[axis] : axis;
  auto srcType = cast<RankedTensorType>(src->getType());
  int64_t offset = 0;
  for (int64_t k = 0; k < outputs; ++k) {
    ImportedValue out = *v;
    out.shape[axis] = sizes[k];
    out.nhwc = nhwc;
    out.flattenedFromNhwc.clear();
    SmallVector<int64_t> offsets(rank, 0), shape(srcType.getShape()),
        strides(rank, 1);
    offsets[physAxis] = offset;
    shape[physAxis] = sizes[k];
    out.value = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(shape, srcType.getElementType()), *src,
        ValueRange{}, ValueRange{}, ValueRange{}, offsets, shape, strides);
    offset += sizes[k];
    setOutput(k, std::move(out));
  }
  return success();
}

LogicalResult Importer::importRuntimeGather(ImportedValue &data,
                                            ImportedValue &indices) {
  if (indices.dtype != onnx::TensorProto::INT64 &&
      indices.dtype != onnx::TensorProto::INT32)
    return fail("run-time indices must be int32 or int64");
  int64_t rank = data.shape.size(), q = indices.shape.size();
  if (rank == 0)
    return fail("Gather from a scalar");
  auto normalized = normalizedAxis(attrInt("axis").value_or(0), rank);
  if (failed(normalized))
    return failure();
  int64_t axis = *normalized;
  if (indices.nhwc && q == 4)
    return fail("Gather with NHWC indices is not supported");
  if (failed(settleOrFloat(*this, data)))
    return failure();
  if (data.isQuantized() && data.q.perAxis())
    return fail("Gather from a per-axis quantized tensor is not supported");
  // The table in logical layout: the codes as storage integers, f32, or
  // run-time integers (token ids, masks).
  auto table = elementTable(*this, data, data.isQuantized());
  if (failed(table))
    return failure();
  Type elem = cast<RankedTensorType>(table->getType()).getElementType();

  SmallVector<int64_t> shape(data.shape.begin(), data.shape.begin() + axis);
  shape.append(indices.shape.begin(), indices.shape.end());
  shape.append(data.shape.begin() + axis + 1, data.shape.end());
  int64_t outRank = shape.size();
  SmallVector<AffineExpr> idxExprs;
  for (int64_t d = 0; d < q; ++d)
    idxExprs.push_back(getAffineDimExpr(axis + d, ctx));
  SmallVector<AffineMap> maps = {
      AffineMap::get(outRank, 0, idxExprs, ctx),
      AffineMap::getMultiDimIdentityMap(outRank, ctx)};
  SmallVector<utils::IteratorType> iters(outRank,
                                         utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, shape, elem);
  int64_t dim = data.shape[axis];
  Value gathered =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{indices.value},
          ValueRange{init}, maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            // ONNX's negative indices count from the end. Out-of-range ones
            // are an error at run time in ONNX Runtime; here they clamp to
            // the table (a defined read, never out of bounds).
            Value i = normalizedIndex(nb, l, args[0], dim);
            SmallVector<Value> coords;
            for (int64_t d = 0; d < axis; ++d)
              coords.push_back(linalg::IndexOp::create(nb, l, d));
            coords.push_back(i);
            for (int64_t d = axis + q; d < outRank; ++d)
              coords.push_back(linalg::IndexOp::create(nb, l, d));
            Value v = tensor::ExtractOp::create(nb, l, *table, coords);
            linalg::YieldOp::create(nb, l, v);
          })
          .getResult(0);
  setOutput(0, resultLike(*this, data, data.isQuantized(), gathered, shape));
  return success();
}

/// The source coordinate of output index `x` along an axis under ONNX's
/// coordinate transformation `transform`; nullopt for an unknown one.
static std::optional<double> sourceCoordinate(int64_t x, double scale,
                                              int64_t outLen, int64_t inLen,
                                              StringRef transform) {
  if (transform == "half_pixel")
    return (x + 0.5) / scale - 0.5;
  if (transform == "pytorch_half_pixel")
    return outLen > 1 ? (x + 0.5) / scale - 0.5 : 0.0;
  if (transform == "asymmetric")
    return x / scale;
  if (transform == "align_corners")
    return outLen > 1 ? double(x) * (inLen - 1) / (outLen - 1) : 0.0;
  return std::nullopt;
}

/// Linear or cubic Resize of N x C x L (torch's `interpolate(mode=
/// "linear")`) and of N x C x D x H x W (trilinear, tricubic) as the rank-4
/// one over planes, which is separable: L as the W of N x C x 1 x L; H and
/// W of N x (C D) x H x W, then D as the H of N x C x D x (H' W'). Each
/// inner Resize keeps the node's attributes and gets the scales (or sizes)
/// of its axes.
LogicalResult Importer::importResizeByPlanes(ImportedValue &v,
                                             ArrayRef<int64_t> outShape,
                                             ArrayRef<double> scales) {
  const onnx::NodeProto &n = *node;
  Expansion e(*this, n);
  bool bySizes = opset >= 11 && hasInput(3);
  // A rank-4 Resize of `x` to `to`, with scales `by` (or sizes `to`).
  auto resize = [&](const std::string &x, ArrayRef<int64_t> to,
                    ArrayRef<double> by) {
    std::string out = e.fresh("resized");
    std::vector<std::string> inputs = {x};
    if (opset >= 11)
      inputs.push_back("");
    if (bySizes) {
      inputs.push_back("");
      inputs.push_back(e.constInts("sizes", to));
    } else {
      inputs.push_back(e.constFloats("scales", by));
    }
    onnx::NodeProto &r = e.add("Resize", inputs, out);
    for (const onnx::AttributeProto &a : n.attribute())
      *r.add_attribute() = a;
    return out;
  };
  ArrayRef<int64_t> in = v.shape;
  int64_t batch = in[0], c = in[1];
  if (in.size() == 3) {
    std::string planes = e.reshape(n.input(0), {batch, c, 1, in[2]});
    std::string r =
        resize(planes, {batch, c, 1, outShape[2]}, {1.0, 1.0, 1.0, scales[2]});
    e.op("Reshape", {r, e.constInts("shape", outShape)}, n.output(0));
    return importExpansion(n, e.nodes);
  }
  std::string planes = e.reshape(n.input(0), {batch, c * in[2], in[3], in[4]});
  std::string hw = resize(planes, {batch, c * in[2], outShape[3], outShape[4]},
                          {1.0, 1.0, scales[3], scales[4]});
  std::string rows =
      e.reshape(hw, {batch, c, in[2], outShape[3] * outShape[4]});
  std::string d =
      resize(rows, {batch, c, outShape[2], outShape[3] * outShape[4]},
             {1.0, 1.0, scales[2], 1.0});
  e.op("Reshape", {d, e.constInts("shape", outShape)}, n.output(0));
  return importExpansion(n, e.nodes);
}

/// Keys' cubic convolution kernel with coefficient `a` at distance `t`, as
/// ONNX's Resize weighs the four neighbours.
static double cubicWeight(double t, double a) {
  t = std::abs(t);
  if (t <= 1)
    return ((a + 2) * t - (a + 3)) * t * t + 1;
  if (t < 2)
    return ((a * t - 5 * a) * t + 8 * a) * t - 4 * a;
  return 0;
}

LogicalResult Importer::importResizeInterpolated(ImportedValue &v,
                                                 ArrayRef<int64_t> outShape,
                                                 ArrayRef<double> scales,
                                                 StringRef transform,
                                                 StringRef mode) {
  int64_t rank = v.shape.size();
  if (rank != 4 || outShape[0] != v.shape[0] || outShape[1] != v.shape[1])
    return fail(mode +
                " Resize is supported over L of N x C x L, H and W of "
                "N x C x H x W and D, H and W of N x C x D x H x W only");
  // One table entry per output row and column.
  constexpr int64_t kMaxLinearLength = int64_t(1) << 16;
  if (outShape[2] > kMaxLinearLength || outShape[3] > kMaxLinearLength)
    return fail(mode + " Resize to more than " + Twine(kMaxLinearLength) +
                " rows or columns is not supported");
  if (failed(settleOrFloat(*this, v)))
    return failure();
  if (v.holdsIntegers())
    return fail("Resize of an integer tensor");
  bool cubic = mode == "cubic";
  int numTaps = cubic ? 4 : 2;
  double coeffA = attrFloat("cubic_coeff_a").value_or(-0.75f);
  bool excludeOutside = attrInt("exclude_outside").value_or(0) != 0;
  if (!std::isfinite(coeffA))
    return fail("cubic_coeff_a must be finite");
  // Per output row / column: the source indices (clamped to the input,
  // which is ONNX's edge padding) and their f32 weights. Linear: the two
  // neighbours of the clamped coordinate. Cubic: the four around the
  // coordinate, weighted by Keys' kernel; with exclude_outside, those
  // outside the input get 0 and the others are renormalized.
  struct Taps {
    SmallVector<int32_t> at[4];
    SmallVector<float> weight[4];
  };
  Taps taps[2];
  for (int axis = 0; axis < 2; ++axis) {
    int64_t inLen = v.shape[2 + axis], outLen = outShape[2 + axis];
    for (int64_t x = 0; x < outLen; ++x) {
      std::optional<double> c =
          sourceCoordinate(x, scales[2 + axis], outLen, inLen, transform);
      if (!c)
        return fail("coordinate_transformation_mode '" + transform +
                    "' is not supported for " + mode + " Resize");
      if (!cubic) {
        double clamped = std::clamp(*c, 0.0, double(inLen - 1));
        double lo = std::floor(clamped);
        taps[axis].at[0].push_back(int32_t(lo));
        taps[axis].at[1].push_back(
            int32_t(std::min<double>(lo + 1, inLen - 1)));
        taps[axis].weight[0].push_back(float(1.0 - (clamped - lo)));
        taps[axis].weight[1].push_back(float(clamped - lo));
        continue;
      }
      double lo = std::floor(*c), ratio = *c - lo;
      double w[4], total = 0;
      for (int k = 0; k < 4; ++k) {
        double at = lo - 1 + k;
        bool outside = at < 0 || at > double(inLen - 1);
        w[k] = excludeOutside && outside ? 0.0
                                         : cubicWeight(ratio + 1 - k, coeffA);
        total += w[k];
        taps[axis].at[k].push_back(
            int32_t(std::clamp(at, 0.0, double(inLen - 1))));
      }
      for (int k = 0; k < 4; ++k)
        taps[axis].weight[k].push_back(
            float(excludeOutside && total != 0 ? w[k] / total : w[k]));
    }
  }
  // In the value's own layout: an NHWC conv result stays NHWC.
  bool nhwc = v.nhwc && !v.isFlattenedNhwc();
  auto x = floatValue(v, nhwc);
  if (failed(x))
    return failure();
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape.assign(outShape.begin(), outShape.end());
  out.nhwc = nhwc;
  SmallVector<int64_t> physical = physicalShape(out);
  int64_t hDim = nhwc ? 1 : 2, wDim = nhwc ? 2 : 3;
  auto table = [&](auto data) -> Value {
    using T = typename decltype(data)::value_type;
    Type elem = std::is_same_v<T, float> ? Type(Float32Type::get(ctx))
                                         : Type(b.getIntegerType(32));
    auto type = RankedTensorType::get({int64_t(data.size())}, elem);
    return arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<T>(data)));
  };
  Value atTables[2][4], weightTables[2][4];
  for (int axis = 0; axis < 2; ++axis)
    for (int k = 0; k < numTaps; ++k) {
      atTables[axis][k] = table(taps[axis].at[k]);
      weightTables[axis][k] = table(taps[axis].weight[k]);
    }
  Value init = tensor::EmptyOp::create(b, loc, physical, Float32Type::get(ctx));
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(4, ctx)};
  SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
  out.value =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
          maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange) {
            SmallVector<Value> idx;
            for (int64_t d = 0; d < 4; ++d)
              idx.push_back(linalg::IndexOp::create(nb, l, d));
            // Source index and weight k of this output row (axis 0) or
            // column (axis 1).
            auto sourceAt = [&](int axis, int k) -> Value {
              Value at = idx[axis == 0 ? hDim : wDim];
              Value t = tensor::ExtractOp::create(nb, l, atTables[axis][k], at);
              return arith::IndexCastOp::create(nb, l, nb.getIndexType(), t);
            };
            auto weight = [&](int axis, int k) -> Value {
              Value at = idx[axis == 0 ? hDim : wDim];
              return tensor::ExtractOp::create(nb, l, weightTables[axis][k],
                                               at);
            };
            auto read = [&](Value h, Value w) -> Value {
              SmallVector<Value> at(idx);
              at[hDim] = h;
              at[wDim] = w;
              return tensor::ExtractOp::create(nb, l, *x, at);
            };
            // sum_k values[k] * weights[k], in order.
            auto weighted = [&](ArrayRef<Value> values,
                                ArrayRef<Value> weights) -> Value {
              Value sum = arith::MulFOp::create(nb, l, values[0], weights[0]);
              for (size_t k = 1; k < values.size(); ++k)
                sum = arith::AddFOp::create(
                    nb, l, sum,
                    arith::MulFOp::create(nb, l, values[k], weights[k]));
              return sum;
            };
            SmallVector<Value> cols, wx, wy, rows;
            for (int k = 0; k < numTaps; ++k) {
              cols.push_back(sourceAt(1, k));
              wx.push_back(weight(1, k));
              wy.push_back(weight(0, k));
            }
            // Along W in each source row, then along H.
            for (int j = 0; j < numTaps; ++j) {
              Value row = sourceAt(0, j);
              SmallVector<Value> values;
              for (int k = 0; k < numTaps; ++k)
                values.push_back(read(row, cols[k]));
              rows.push_back(weighted(values, wx));
            }
            linalg::YieldOp::create(nb, l, weighted(rows, wy));
          })
          .getResult(0);
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importExpandOrTile() {
  if (failed(checkAttrs({})))
    return failure();
  bool tile = node->op_type() == "Tile";
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  auto arg = constInts(1);
  if (failed(arg))
    return failure();
  int64_t rank = v->shape.size();
  // Each output dimension reads input dimension `from[o]` (-1: none, a
  // dimension Expand prepends) at index 0 (broadcast), d (kept) or
  // d mod size (tiled).
  enum class Read { Index, Zero, Modulo };
  SmallVector<int64_t> shape, from;
  SmallVector<Read> reads;
  if (tile) {
    if (int64_t(arg->size()) != rank)
      return fail("repeats has " + Twine(arg->size()) + " entries, expected " +
                  Twine(rank));
    for (int64_t d = 0; d < rank; ++d) {
      int64_t r = (*arg)[d], size = v->shape[d];
      if (r < 0)
        return fail("negative repeats are not supported");
      int64_t total;
      if (llvm::MulOverflow(size, r, total))
        return fail("the result's size overflows int64");
      shape.push_back(total);
      from.push_back(d);
      reads.push_back(r == 1 || size == 0 ? Read::Index : Read::Modulo);
    }
  } else {
    for (int64_t s : *arg)
      if (s < 0)
        return fail("negative sizes in the shape input");
    auto joined = broadcastShapes(v->shape, *arg);
    if (!joined)
      return fail("the input does not broadcast to the shape input");
    shape = *joined;
    int64_t lead = shape.size() - rank;
    for (int64_t o = 0; o < int64_t(shape.size()); ++o) {
      int64_t d = o - lead;
      from.push_back(d);
      reads.push_back(d < 0 || (v->shape[d] == 1 && shape[o] != 1)
                          ? Read::Zero
                          : Read::Index);
    }
  }
  // The result is materialized: bound it like the other tables.
  constexpr int64_t kMaxElements = int64_t(1) << 31;
  int64_t count = 1;
  for (int64_t s : shape) {
    if (s != 0 && count > kMaxElements / s)
      return fail("the result would have more than 2^31 elements");
    count *= s;
  }
  // The input element an output element reads (flat, row-major); only
  // called on compile-time data, which has at least one element per
  // output element's source.
  auto source = [&](int64_t n) {
    int64_t flat = 0, stride = 1;
    for (int64_t o = shape.size(); o-- > 0;) {
      int64_t coord = n % shape[o];
      n /= shape[o];
      int64_t d = from[o];
      if (d < 0)
        continue;
      int64_t at = reads[o] == Read::Zero     ? 0
                   : reads[o] == Read::Modulo ? coord % v->shape[d]
                                              : coord;
      flat += at * stride;
      stride *= v->shape[d];
    }
    return flat;
  };

  if (failed(settleOrFloat(*this, *v)))
    return failure();
  ImportedValue out = *v;
  out.shape = shape;
  out.nhwc = false;
  out.flattenedFromNhwc.clear();
  if (v->q.perAxis())
    return fail(node->op_type() + " of a per-axis quantized tensor is not "
                                  "supported");
  if (v->kind == Kind::Const || v->codes) {
    // Compile-time data (shape arithmetic, a mask): folded when small.
    if (count > kMaxFoldedElements)
      return fail("folding a constant of more than " +
                  Twine(kMaxFoldedElements) + " elements is not supported");
    auto gather = [&](const auto &src) {
      std::decay_t<decltype(src)> dst;
      for (int64_t n = 0; n < count; ++n)
        dst.push_back(src[source(n)]);
      return dst;
    };
    if (v->codes)
      out.codes = gather(*v->codes);
    if (!v->f.empty())
      out.f = gather(v->f);
    if (!v->i.empty())
      out.i = gather(v->i);
    setOutput(0, std::move(out));
    return success();
  }
  Value src;
  if (v->isQuantized()) {
    auto ints = storageInts(*this, *v, /*nhwc=*/false);
    if (failed(ints))
      return failure();
    src = *ints;
  } else {
    auto value = logicalValue(*this, *v, node->op_type());
    if (failed(value))
      return failure();
    src = *value;
  }
  SmallVector<AffineExpr> exprs;
  for (int64_t o = 0; o < int64_t(shape.size()); ++o) {
    if (from[o] < 0)
      continue;
    AffineExpr d = getAffineDimExpr(o, ctx);
    exprs.push_back(reads[o] == Read::Zero     ? getAffineConstantExpr(0, ctx)
                    : reads[o] == Read::Modulo ? d % v->shape[from[o]]
                                               : d);
  }
  Value result = copyThroughMap(*this, src, shape, exprs);
  out.value =
      v->isQuantized()
          ? quant::StorageCastOp::create(b, loc, quantTensorType(out), result)
                .getResult()
          : result;
  setOutput(0, std::move(out));
  return success();
}
