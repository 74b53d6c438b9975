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

#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importIdentity() {
  auto in = input(0);
  if (failed(in))
    return failure();
  setOutput(0, **in);
  return success();
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
    out.pending->lo = std::max(out.pending->lo, lo);
    out.pending->hi = std::min(out.pending->hi, hi);
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

LogicalResult Importer::importRelu() {
  return importClamp(*this, 0.0, std::numeric_limits<double>::infinity());
}

LogicalResult Importer::importClip() {
  if (failed(checkAttrs({"min", "max"})))
    return failure();
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
  if (auto a = attrFloat("min"))
    lo = *a;
  if (auto a = attrFloat("max"))
    hi = *a;
  for (unsigned idx : {1u, 2u}) {
    if (!hasInput(idx))
      continue;
    auto bound = input(idx);
    if (failed(bound))
      return failure();
    if ((*bound)->kind != Kind::Const || (*bound)->f.size() != 1)
      return fail("Clip bounds must be compile-time float scalars");
    (idx == 1 ? lo : hi) = (*bound)->f[0];
  }
  return importClamp(*this, lo, hi);
}

/// Moves `v` to `shape` keeping the element order of the logical layout.
static LogicalResult reshapeTo(Importer &im, ImportedValue v,
                               SmallVector<int64_t> shape) {
  ImportedValue out = v;
  out.shape = shape;
  out.nhwc = false;
  switch (v.kind) {
  case Kind::Const:
    break;
  case Kind::Quant:
  case Kind::Dequant: {
    if (v.q.perAxis())
      return im.fail("reshaping a per-axis quantized tensor is not "
                     "supported");
    if (v.codes)
      break;
    if (v.nhwc && v.shape.size() == 4 && v.flattenedFromNhwc.empty() &&
        shape.size() == 2 && shape[0] == v.shape[0]) {
      // Flatten of NHWC codes: keep the NHWC order and let the consumer
      // (a MatMul permutes its weight rows) or quantValue deal with it.
      out.value = im.reshape(v.value, shape);
      out.flattenedFromNhwc.assign(v.shape.begin(), v.shape.end());
      break;
    }
    auto q = im.quantValue(v, false);
    if (failed(q))
      return failure();
    out.value = im.reshape(*q, shape);
    break;
  }
  case Kind::Float:
  case Kind::Int: {
    Value src = v.value;
    if (v.nhwc && v.shape.size() == 4)
      src = im.transpose(src, {0, 3, 1, 2});
    out.value = im.reshape(src, shape);
    break;
  }
  case Kind::Pending: {
    // Not closed by a QuantizeLinear and not on a grid: a float island.
    auto f = im.floatValue(v, false);
    if (failed(f))
      return failure();
    out.kind = Kind::Float;
    out.pending.reset();
    out.value = im.reshape(*f, shape);
    break;
  }
  }
  im.setOutput(0, std::move(out));
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
  return reshapeTo(*this, *v, shape);
}

LogicalResult Importer::importTranspose() {
  if (failed(checkAttrs({"perm"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  // A pending result either settles on its grid or runs as a float island.
  if (v->kind == Kind::Pending && failed(settle(*v)) &&
      failed(floatValue(*v, false)))
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
    if (v->kind == Kind::Const && !v->f.empty())
      return fail("Transpose of float constants is not supported");
    // Permute compile-time data.
    const std::vector<int64_t> &src = v->codes ? *v->codes : v->i;
    SmallVector<int64_t> strides(rank, 1);
    for (int64_t d = rank - 2; d >= 0; --d)
      strides[d] = strides[d + 1] * v->shape[d + 1];
    std::vector<int64_t> dst(src.size());
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
    if (v->codes)
      out.codes = std::move(dst);
    else
      out.i = std::move(dst);
    setOutput(0, std::move(out));
    return success();
  }
  Value src;
  if (v->isQuantized()) {
    auto q = quantValue(*v, false);
    if (failed(q))
      return failure();
    src = *q;
  } else if (v->kind == Kind::Float || v->kind == Kind::Int) {
    src = v->value;
    if (v->nhwc && rank == 4)
      src = transpose(src, {0, 3, 1, 2});
  }
  out.value = transpose(src, perm);
  setOutput(0, std::move(out));
  return success();
}
