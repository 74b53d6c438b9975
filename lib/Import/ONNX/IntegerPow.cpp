//===- IntegerPow.cpp - Pow of an integer base ----------------------------===//
//
// ONNX's Pow of an int32 / int64 base (a positional table's 2 ** i, shape
// arithmetic). ONNX Runtime computes static_cast<T>(std::pow(x, y)) in
// double (x * x and x * x * x for a scalar exponent 2 and 3). Within the
// type that is the exact power (for int64 wherever double holds it, up to
// 2^53), which this computes by squaring in the element type. Beyond the
// type the C++ cast is undefined; here the power wraps around as integer
// products do (as ONNX Runtime's x * x does). A negative exponent
// truncates toward zero: 1 and -1 keep their powers, |x| >= 2 gives 0 and 0
// gives the type's minimum (ONNX Runtime's cast of +inf on x86-64).
//
// Compile-time data folds, and there a power outside the type and 0 to a
// negative power are diagnosed; a folded exponent may be any float
// (std::pow in double, truncated, as ONNX Runtime). At run time the
// exponent holds integers: a compile-time scalar (only its bits are
// multiplied in) or a tensor of any integer type, broadcast.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// x^e exactly for an integer exponent, nullopt outside [lo, hi] (or 0 to a
/// negative power).
static std::optional<int64_t> exactPower(int64_t x, int64_t e, int64_t lo,
                                         int64_t hi) {
  if (e < 0) {
    if (x == 0)
      return std::nullopt;
    if (x == 1)
      return 1;
    if (x == -1)
      return e % 2 ? -1 : 1;
    return 0;
  }
  if (e == 0)
    return 1;
  if (x == 0 || x == 1)
    return x;
  if (x == -1)
    return e % 2 ? -1 : 1;
  // |x| >= 2: at most 63 factors fit in int64.
  if (e >= 64)
    return std::nullopt;
  __int128 r = 1;
  for (int64_t k = 0; k < e; ++k) {
    r *= x;
    if (r < lo || r > hi)
      return std::nullopt;
  }
  return int64_t(r);
}

LogicalResult Importer::importIntegerPow(ImportedValue &base,
                                         ImportedValue &exponent) {
  using onnx::TensorProto;
  if (base.dtype != TensorProto::INT32 && base.dtype != TensorProto::INT64)
    return fail("Pow of integers needs an int32 or int64 base (ONNX's types)");
  if (base.isQuantized())
    return fail("Pow of quantized codes is not supported");
  if (exponent.holdsIntegers() && exponent.dtype == TensorProto::BOOL)
    return fail("Pow by a boolean exponent");
  if (exponent.isQuantized())
    return fail("Pow of integers by a quantized exponent is not supported");
  auto shape = broadcastShapes(base.shape, exponent.shape);
  if (!shape)
    return fail("shapes do not broadcast");
  bool is32 = base.dtype == TensorProto::INT32;
  int64_t lo = is32 ? INT32_MIN : INT64_MIN, hi = is32 ? INT32_MAX : INT64_MAX;

  if (base.kind == Kind::Const && exponent.kind == Kind::Const) {
    auto count = foldableCount(*shape);
    if (!count)
      return fail("folding a constant of more than " +
                  Twine(kMaxFoldedElements) + " elements is not supported");
    ImportedValue out;
    out.kind = Kind::Const;
    out.dtype = base.dtype;
    out.shape = *shape;
    for (int64_t n = 0; n < *count; ++n) {
      int64_t x = base.i[broadcastSource(base.shape, *shape, n)];
      int64_t at = broadcastSource(exponent.shape, *shape, n);
      std::optional<int64_t> r;
      if (exponent.holdsIntegers()) {
        r = exactPower(x, exponent.i[at], lo, hi);
      } else {
        double p = std::pow(double(x), exponent.f[at]);
        if (std::isfinite(p) && std::trunc(p) >= double(lo) &&
            std::trunc(p) < -double(lo))
          r = int64_t(std::trunc(p));
      }
      if (!r)
        return fail("Pow of integer constants: " + std::to_string(x) +
                    " to the power " +
                    (exponent.holdsIntegers() ? std::to_string(exponent.i[at])
                                              : str(exponent.f[at])) +
                    " is not an " + (is32 ? "int32" : "int64"));
      out.i.push_back(*r);
    }
    setOutput(0, std::move(out));
    return success();
  }

  // A compile-time scalar exponent: the run-time form multiplies in only its
  // bits. An integral float counts as its integer.
  std::optional<int64_t> known;
  if (exponent.kind == Kind::Const && exponent.numElements() == 1) {
    double e = exponent.holdsIntegers() ? double(exponent.i[0]) : exponent.f[0];
    if (!exponent.holdsIntegers() &&
        (std::trunc(e) != e || !(std::fabs(e) < 0x1p62)))
      return fail("Pow of run-time integers needs an integral exponent");
    known = exponent.holdsIntegers() ? exponent.i[0] : int64_t(e);
  } else if (!exponent.holdsIntegers()) {
    return fail("Pow of run-time integers needs an integral exponent");
  } else if (exponent.dtype == TensorProto::UINT64) {
    return fail("Pow by a uint64 exponent is not supported");
  }

  Type elem = integerElementType(*this, base);
  int64_t rank = shape->size();
  SmallVector<Value> ins = {withLeadingOnes(
      *this, logicalIntegers(*this, base, elem), base.shape, rank)};
  Type i64 = b.getI64Type();
  if (!known)
    ins.push_back(withLeadingOnes(
        *this,
        logicalIntegers(*this, exponent, integerElementType(*this, exponent)),
        exponent.shape, rank));
  bool unsignedExponent = isUnsignedIntType(exponent.dtype);
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = base.dtype;
  out.shape = *shape;
  out.value = elementwise(
      *this, ins, *shape,
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        auto constant = [&](Type t, int64_t c) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getIntegerAttr(t, c));
        };
        auto eq = [&](Value x, Value y) -> Value {
          return arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq, x, y);
        };
        Value x = a[0];
        // x^e for e < 0, truncated toward zero; `odd` is e's parity.
        auto negativePower = [&](Value odd) -> Value {
          Value one = constant(elem, 1), minusOne = constant(elem, -1);
          Value signOfMinusOne =
              arith::SelectOp::create(nb, l, odd, minusOne, one);
          Value r =
              arith::SelectOp::create(nb, l, eq(x, constant(elem, 0)),
                                      constant(elem, lo), constant(elem, 0));
          r = arith::SelectOp::create(nb, l, eq(x, minusOne), signOfMinusOne,
                                      r);
          return arith::SelectOp::create(nb, l, eq(x, one), one, r);
        };
        if (known && *known < 0)
          return negativePower(
              arith::ConstantOp::create(nb, l, nb.getBoolAttr(*known % 2)));
        // Squaring: the product of x^(2^k) over the set bits k of e.
        Value square = x;
        if (known) {
          Value result;
          for (uint64_t bits = *known; bits; bits >>= 1) {
            if (bits & 1)
              result = result ? arith::MulIOp::create(nb, l, result, square)
                              : square;
            if (bits > 1)
              square = arith::MulIOp::create(nb, l, square, square);
          }
          return result ? result : constant(elem, 1);
        }
        Value result = constant(elem, 1);
        Value e = a[1];
        unsigned width = e.getType().getIntOrFloatBitWidth();
        if (width < 64)
          e = unsignedExponent ? Value(arith::ExtUIOp::create(nb, l, i64, e))
                               : Value(arith::ExtSIOp::create(nb, l, i64, e));
        Value zero64 = constant(i64, 0), one64 = constant(i64, 1);
        // Bits 0..62 of a non-negative int64 (bit 63 is the sign).
        for (int64_t k = 0; k < 63; ++k) {
          Value bit = arith::AndIOp::create(
              nb, l, arith::ShRUIOp::create(nb, l, e, constant(i64, k)), one64);
          Value set = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ne,
                                            bit, zero64);
          result = arith::SelectOp::create(
              nb, l, set, arith::MulIOp::create(nb, l, result, square), result);
          if (k + 1 < 63)
            square = arith::MulIOp::create(nb, l, square, square);
        }
        Value negative =
            arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt, e, zero64);
        Value odd = arith::TruncIOp::create(nb, l, nb.getI1Type(), e);
        return arith::SelectOp::create(nb, l, negative, negativePower(odd),
                                       result);
      },
      elem);
  setOutput(0, std::move(out));
  return success();
}
