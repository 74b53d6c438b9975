//===- Masks.cpp - comparisons, logic and Where ---------------------------===//
//
// Masks as exporters write them. A causal or padding mask compared and
// negated on compile-time data (torch's masked_fill(mask == 0, v) on a
// registered buffer) folds at import. A mask computed from run-time values
// (Hugging Face's attention mask: Cast of the float mask to bool, then
// masked_fill) is an i1 tensor (Kind::Int, ONNX type BOOL): comparisons in
// f32 or in the integers' type, Not / And / Or / Xor on booleans. Where
// selects in f32 under either kind of condition.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// The element count of a folded result of `shape`, or a failure when it
/// exceeds kMaxFoldedElements.
static FailureOr<int64_t> foldedCount(Importer &im, ArrayRef<int64_t> shape) {
  if (auto count = foldableCount(shape))
    return *count;
  return im.fail("folding a constant of more than " +
                 Twine(kMaxFoldedElements) + " elements is not supported");
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

Value quantopt::onnx_import::detail::intConstant(Importer &im,
                                                 const ImportedValue &v,
                                                 Type elem) {
  auto type = RankedTensorType::get(v.shape, elem);
  unsigned width = elem.getIntOrFloatBitWidth();
  SmallVector<APInt> data;
  for (int64_t x : v.i)
    data.push_back(width == 1 ? APInt(1, x != 0)
                              : APInt(width, uint64_t(x), /*isSigned=*/true,
                                      /*implicitTrunc=*/true));
  return arith::ConstantOp::create(im.b, im.loc, type,
                                   DenseElementsAttr::get(type, data));
}

Value quantopt::onnx_import::detail::withLeadingOnes(Importer &im, Value value,
                                                     ArrayRef<int64_t> shape,
                                                     int64_t rank) {
  if (int64_t(shape.size()) == rank)
    return value;
  SmallVector<int64_t> full(rank - shape.size(), 1);
  full.append(shape.begin(), shape.end());
  return im.reshape(value, full);
}

Type quantopt::onnx_import::detail::integerElementType(Importer &im,
                                                       const ImportedValue &v) {
  if (v.kind == Kind::Int)
    return cast<RankedTensorType>(v.value.getType()).getElementType();
  switch (v.dtype) {
  case onnx::TensorProto::BOOL:
    return im.b.getI1Type();
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return im.b.getI8Type();
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return im.b.getI16Type();
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::UINT32:
    return im.b.getI32Type();
  default:
    return im.b.getI64Type();
  }
}

Value quantopt::onnx_import::detail::logicalIntegers(Importer &im,
                                                     const ImportedValue &v,
                                                     Type elem) {
  if (v.kind == Kind::Const)
    return intConstant(im, v, elem);
  // A ConvInteger result is held NHWC.
  return v.nhwc && v.shape.size() == 4 ? im.transpose(v.value, {0, 3, 1, 2})
                                       : v.value;
}

/// A compile-time mask as an i1 constant.
static Value maskConstant(Importer &im, const ImportedValue &cond) {
  return intConstant(im, cond, im.b.getI1Type());
}

LogicalResult Importer::runtimeMaskOp(ArrayRef<ImportedValue *> operands,
                                      ArrayRef<int64_t> shape) {
  StringRef op = node->op_type();
  bool logical = op == "Not" || op == "And" || op == "Or" || op == "Xor";
  // Float-like operands compare in f32 (dequantized where quantized);
  // integers and booleans in the type of the run-time operand.
  bool floats = llvm::any_of(
      operands, [](ImportedValue *v) { return !v->holdsIntegers(); });
  if (floats && (logical || llvm::any_of(operands, [](ImportedValue *v) {
                   return v->holdsIntegers();
                 })))
    return fail(op + " of a float and an integer or boolean tensor");
  Type intType;
  for (ImportedValue *v : operands) {
    if (v->kind != Kind::Int)
      continue;
    Type t = cast<RankedTensorType>(v->value.getType()).getElementType();
    if (intType && t != intType)
      return fail(op + " of integer tensors of different types");
    intType = t;
  }
  if (logical && (!intType || !intType.isInteger(1) ||
                  !llvm::all_of(operands, [](ImportedValue *v) {
                    return v->dtype == onnx::TensorProto::BOOL;
                  })))
    return fail(op + " needs boolean tensors");
  int64_t rank = shape.size();
  SmallVector<Value> ins;
  for (ImportedValue *v : operands) {
    Value value;
    if (floats) {
      auto f = floatValue(*v, /*nhwc=*/false);
      if (failed(f))
        return failure();
      value = *f;
    } else {
      value = logicalIntegers(*this, *v, intType);
    }
    ins.push_back(withLeadingOnes(*this, value, v->shape, rank));
  }
  bool isBool = intType && intType.isInteger(1);
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = onnx::TensorProto::BOOL;
  out.shape.assign(shape.begin(), shape.end());
  out.value = elementwise(
      *this, ins, shape,
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        if (op == "Not") {
          Value one = arith::ConstantOp::create(nb, l, nb.getBoolAttr(true));
          return arith::XOrIOp::create(nb, l, a[0], one);
        }
        if (op == "And")
          return arith::AndIOp::create(nb, l, a[0], a[1]);
        if (op == "Or")
          return arith::OrIOp::create(nb, l, a[0], a[1]);
        if (op == "Xor")
          return arith::XOrIOp::create(nb, l, a[0], a[1]);
        if (floats) {
          // Ordered predicates: a NaN compares false, as in numpy.
          auto p = op == "Equal"            ? arith::CmpFPredicate::OEQ
                   : op == "Greater"        ? arith::CmpFPredicate::OGT
                   : op == "Less"           ? arith::CmpFPredicate::OLT
                   : op == "GreaterOrEqual" ? arith::CmpFPredicate::OGE
                                            : arith::CmpFPredicate::OLE;
          return arith::CmpFOp::create(nb, l, p, a[0], a[1]);
        }
        // Booleans order false < true (unsigned); integers are signed.
        auto p = op == "Equal"     ? arith::CmpIPredicate::eq
                 : op == "Greater" ? (isBool ? arith::CmpIPredicate::ugt
                                             : arith::CmpIPredicate::sgt)
                 : op == "Less"    ? (isBool ? arith::CmpIPredicate::ult
                                             : arith::CmpIPredicate::slt)
                 : op == "GreaterOrEqual"
                     ? (isBool ? arith::CmpIPredicate::uge
                               : arith::CmpIPredicate::sge)
                     : (isBool ? arith::CmpIPredicate::ule
                               : arith::CmpIPredicate::sle);
        return arith::CmpIOp::create(nb, l, p, a[0], a[1]);
      },
      b.getI1Type());
  setOutput(0, std::move(out));
  return success();
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
  auto shape = broadcastShapes((*a)->shape, c->shape);
  if (!shape)
    return fail("shapes do not broadcast");
  if (!isCompileTimeData(**a) || !isCompileTimeData(*c))
    return runtimeMaskOp(unary ? ArrayRef<ImportedValue *>{*a}
                               : ArrayRef<ImportedValue *>{*a, c},
                         *shape);
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
             : op == "And"            ? x != 0 && y != 0
             : op == "Or"             ? x != 0 || y != 0
             : op == "Xor"            ? (x != 0) != (y != 0)
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
  bool runtimeCond =
      cond.kind == Kind::Int && cond.dtype == onnx::TensorProto::BOOL;
  if (!runtimeCond && (cond.kind != Kind::Const || cond.i.empty()))
    return fail("the condition must be a boolean tensor (a compile-time mask "
                "or a run-time comparison, Not, And, Or, Xor or Cast)");
  auto xy = broadcastShapes(x.shape, y.shape);
  auto shape = xy ? broadcastShapes(cond.shape, *xy) : std::nullopt;
  if (!shape)
    return fail("shapes do not broadcast");
  int64_t rank = shape->size();
  if (!runtimeCond && isCompileTimeData(x) && isCompileTimeData(y)) {
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
    return withLeadingOnes(*this, v, s, rank);
  };
  Value c = runtimeCond ? cond.value : maskConstant(*this, cond);
  SmallVector<Value> ins = {ranked(c, cond.shape)};
  auto pick = [](OpBuilder &nb, Location l, ValueRange a) -> Value {
    return arith::SelectOp::create(nb, l, a[0], a[1], a[2]);
  };
  if (x.holdsIntegers() != y.holdsIntegers())
    return fail("Where of a float and an integer tensor");
  if (x.holdsIntegers()) {
    // Integers (a padding id, position ids) select in their own type.
    if (x.dtype != y.dtype)
      return fail("Where of integer tensors of different types");
    Type elem = integerElementType(*this, x.kind == Kind::Int ? x : y);
    for (ImportedValue *v : {&x, &y})
      ins.push_back(ranked(logicalIntegers(*this, *v, elem), v->shape));
    ImportedValue out;
    out.kind = Kind::Int;
    out.dtype = x.dtype;
    out.shape = *shape;
    out.value = elementwise(*this, ins, *shape, pick, elem);
    setOutput(0, std::move(out));
    return success();
  }
  for (ImportedValue *v : {&x, &y}) {
    auto f = floatValue(*v, /*nhwc=*/false);
    if (failed(f))
      return failure();
    ins.push_back(ranked(*f, v->shape));
  }
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = *shape;
  out.value = elementwise(*this, ins, *shape, pick);
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importIsNaNOrInf() {
  StringRef op = node->op_type();
  bool isInf = op == "IsInf";
  if (failed(isInf ? checkAttrs({"detect_negative", "detect_positive"})
                   : checkAttrs({})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  if (v.holdsIntegers())
    return fail(op + " of an integer tensor");
  bool negative = attrInt("detect_negative").value_or(1) != 0;
  bool positive = attrInt("detect_positive").value_or(1) != 0;
  ImportedValue out;
  out.dtype = onnx::TensorProto::BOOL;
  out.shape = v.shape;
  if (isCompileTimeData(v)) {
    out.kind = Kind::Const;
    for (double x : v.f)
      out.i.push_back(isInf ? std::isinf(x) && (x > 0 ? positive : negative)
                            : std::isnan(x));
    setOutput(0, std::move(out));
    return success();
  }
  auto f = floatValue(v, /*nhwc=*/false);
  if (failed(f))
    return failure();
  out.kind = Kind::Int;
  float inf = std::numeric_limits<float>::infinity();
  out.value = elementwise(
      *this, {*f}, v.shape,
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        auto is = [&](arith::CmpFPredicate p, Value y) -> Value {
          return arith::CmpFOp::create(nb, l, p, a[0], y);
        };
        if (!isInf)
          return is(arith::CmpFPredicate::UNO, a[0]);
        auto constant = [&](float c) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(c));
        };
        Value pos = is(arith::CmpFPredicate::OEQ, constant(inf));
        Value neg = is(arith::CmpFPredicate::OEQ, constant(-inf));
        if (positive && negative)
          return arith::OrIOp::create(nb, l, pos, neg);
        if (positive)
          return pos;
        if (negative)
          return neg;
        return arith::ConstantOp::create(nb, l, nb.getBoolAttr(false));
      },
      b.getI1Type());
  setOutput(0, std::move(out));
  return success();
}
