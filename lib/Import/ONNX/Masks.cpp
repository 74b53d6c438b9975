//===- Masks.cpp - comparisons, Not and Where -----------------------------===//
//
// Masks as exporters write them: a causal or padding mask compared and
// negated on compile-time data (torch's masked_fill(mask == 0, v) on a
// registered buffer), then Where between the scores and a fill value.
// Comparisons and Not fold at import; Where selects in f32 at run time
// under a compile-time condition. A condition computed from run-time
// values is diagnosed.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// Results of folding are bounded like the other folds.
static constexpr int64_t kMaxFolded = 1 << 16;

/// The element count of a folded result of `shape`, or a failure when it
/// exceeds kMaxFolded.
static FailureOr<int64_t> foldedCount(Importer &im, ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t d : shape)
    count = d > 0 && count <= kMaxFolded / d ? count * d : kMaxFolded + 1;
  if (count > kMaxFolded)
    return im.fail("folding a constant of more than " + Twine(kMaxFolded) +
                   " elements is not supported");
  return count;
}

/// The value of element `n` of a compile-time tensor as a double (floats
/// as stored, integers converted; int64 beyond 2^53 rounds, which no
/// comparison of shape arithmetic reaches).
static double elementAt(const ImportedValue &v, int64_t n) {
  return v.f.empty() ? double(v.i[n]) : v.f[n];
}

static bool isCompileTimeData(const ImportedValue &v) {
  return v.kind == Kind::Const && (!v.f.empty() || !v.i.empty());
}

LogicalResult Importer::importCompareOp() {
  if (failed(checkAttrs({})))
    return failure();
  StringRef op = node->op_type();
  bool unary = op == "Not";
  auto a = input(0);
  if (failed(a))
    return failure();
  ImportedValue *c = *a;
  if (!unary) {
    auto second = input(1);
    if (failed(second))
      return failure();
    c = *second;
  }
  if (!isCompileTimeData(**a) || !isCompileTimeData(*c))
    return fail(op + " of run-time values is not supported (only "
                     "compile-time data is folded)");
  auto shape = broadcastShapes((*a)->shape, c->shape);
  if (!shape)
    return fail("shapes do not broadcast");
  auto count = foldedCount(*this, *shape);
  if (failed(count))
    return failure();
  ImportedValue out;
  out.kind = Kind::Const;
  out.dtype = onnx::TensorProto::BOOL;
  out.shape = *shape;
  for (int64_t n = 0; n < *count; ++n) {
    double x = elementAt(**a, broadcastSource((*a)->shape, *shape, n));
    double y = elementAt(*c, broadcastSource(c->shape, *shape, n));
    bool r = op == "Not"              ? x == 0
             : op == "Equal"          ? x == y
             : op == "Greater"        ? x > y
             : op == "Less"           ? x < y
             : op == "GreaterOrEqual" ? x >= y
                                      : x <= y;
    out.i.push_back(r);
  }
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importWhere() {
  if (failed(checkAttrs({})))
    return failure();
  ImportedValue *in[3];
  for (unsigned k = 0; k < 3; ++k) {
    auto v = input(k);
    if (failed(v))
      return failure();
    in[k] = *v;
  }
  ImportedValue &cond = *in[0], &x = *in[1], &y = *in[2];
  if (cond.kind != Kind::Const || cond.i.empty())
    return fail("a condition computed at run time is not supported (only "
                "compile-time masks)");
  auto xy = broadcastShapes(x.shape, y.shape);
  auto shape = xy ? broadcastShapes(cond.shape, *xy) : std::nullopt;
  if (!shape)
    return fail("shapes do not broadcast");
  int64_t rank = shape->size();
  if (isCompileTimeData(x) && isCompileTimeData(y)) {
    auto count = foldedCount(*this, *shape);
    if (failed(count))
      return failure();
    bool floats = !x.f.empty() || !y.f.empty();
    ImportedValue out;
    out.kind = Kind::Const;
    out.dtype = x.dtype;
    out.shape = *shape;
    for (int64_t n = 0; n < *count; ++n) {
      const ImportedValue &pick =
          cond.i[broadcastSource(cond.shape, *shape, n)] ? x : y;
      int64_t at = broadcastSource(pick.shape, *shape, n);
      if (floats)
        out.f.push_back(elementAt(pick, at));
      else
        out.i.push_back(pick.i[at]);
    }
    setOutput(0, std::move(out));
    return success();
  }
  // The condition as an i1 constant, X and Y in f32 (dequantized where
  // quantized), all of the result's rank.
  auto ranked = [&](Value v, ArrayRef<int64_t> s) {
    if (int64_t(s.size()) == rank)
      return v;
    SmallVector<int64_t> full(rank - s.size(), 1);
    full.append(s.begin(), s.end());
    return reshape(v, full);
  };
  auto condType = RankedTensorType::get(cond.shape, b.getI1Type());
  SmallVector<bool> bits;
  for (int64_t bit : cond.i)
    bits.push_back(bit != 0);
  Value c = arith::ConstantOp::create(
      b, loc, condType, DenseElementsAttr::get(condType, ArrayRef<bool>(bits)));
  SmallVector<Value> ins = {ranked(c, cond.shape)};
  for (ImportedValue *v : {&x, &y}) {
    if (v->holdsIntegers())
      return fail("Where of integer tensors is supported on compile-time "
                  "data only");
    auto f = floatValue(*v, /*nhwc=*/false);
    if (failed(f))
      return failure();
    ins.push_back(ranked(*f, v->shape));
  }
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = *shape;
  out.value = elementwise(
      *this, ins, *shape, [](OpBuilder &nb, Location l, ValueRange a) {
        return arith::SelectOp::create(nb, l, a[0], a[1], a[2]);
      });
  setOutput(0, std::move(out));
  return success();
}
