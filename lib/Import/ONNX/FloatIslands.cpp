//===- FloatIslands.cpp - float ops between a dequantize and a quantize ---===//
//
// Where the graph computes in float (torch's eager QAT leaves
// GlobalAveragePool -> Flatten -> Gemm unquantized), the importer keeps it
// float rather than invent a quantization step: the inputs are dequantized,
// the op runs on f32 with linalg, and a later QuantizeLinear becomes
// qnt.quantize. Float weights of a Gemm / MatMul are the dequantized codes
// (or the float initializer), computed at compile time.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

int64_t quantopt::onnx_import::detail::broadcastSource(ArrayRef<int64_t> from,
                                                       ArrayRef<int64_t> to,
                                                       int64_t n) {
  size_t rank = to.size();
  int64_t flat = 0, stride = 1;
  for (size_t d = rank; d-- > 0;) {
    int64_t coord = n % to[d];
    n /= to[d];
    size_t vd = d + from.size();
    if (vd < rank)
      continue;
    int64_t size = from[vd - rank];
    flat += (size == 1 ? 0 : coord) * stride;
    stride *= size;
  }
  return flat;
}

Value quantopt::onnx_import::detail::elementwise(
    Importer &im, ArrayRef<Value> inputs, ArrayRef<int64_t> shape,
    function_ref<Value(OpBuilder &, Location, ValueRange)> body,
    Type resultElement) {
  MLIRContext *ctx = im.ctx;
  int64_t rank = shape.size();
  SmallVector<AffineMap> maps;
  for (Value in : inputs) {
    auto type = cast<RankedTensorType>(in.getType());
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(type.getDimSize(d) == 1 && shape[d] != 1
                          ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(d, ctx));
    maps.push_back(AffineMap::get(rank, 0, exprs, ctx));
  }
  maps.push_back(AffineMap::getMultiDimIdentityMap(rank, ctx));
  Type elem = resultElement ? resultElement : Float32Type::get(ctx);
  Value init = tensor::EmptyOp::create(im.b, im.loc, shape, elem);
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             im.b, im.loc, TypeRange{init.getType()}, inputs, ValueRange{init},
             maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value r = body(nb, l, args.drop_back());
               linalg::YieldOp::create(nb, l, r);
             })
      .getResult(0);
}

static Value clampFloat(Importer &im, Value v, double lo, double hi) {
  if (!std::isfinite(lo) && !std::isfinite(hi))
    return v;
  auto type = cast<RankedTensorType>(v.getType());
  return elementwise(
      im, {v}, type.getShape(), [&](OpBuilder &nb, Location l, ValueRange a) {
        Value x = a[0];
        if (std::isfinite(lo))
          x = arith::MaximumFOp::create(
              nb, l, x,
              arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(float(lo))));
        if (std::isfinite(hi))
          x = arith::MinimumFOp::create(
              nb, l, x,
              arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(float(hi))));
        return x;
      });
}

/// Real values of a constant weight: dequantized codes or float data.
static FailureOr<std::vector<float>> weightReals(Importer &im,
                                                 const ImportedValue &w) {
  std::vector<float> out;
  if (w.kind == Kind::Const && !w.f.empty()) {
    out.assign(w.f.begin(), w.f.end());
    return out;
  }
  if (!w.codes)
    return im.fail("non-constant weights: the weight must be a compile-time "
                   "tensor");
  int64_t inner = 1, channels = 1;
  if (w.q.perAxis()) {
    channels = w.shape[w.q.axis];
    for (size_t d = w.q.axis + 1; d < w.shape.size(); ++d)
      inner *= w.shape[d];
  }
  for (size_t n = 0; n < w.codes->size(); ++n) {
    size_t c = w.q.perAxis() ? (n / inner) % channels : 0;
    out.push_back(float((*w.codes)[n] - w.q.zeroPoints[c]) *
                  float(w.q.scales[c]));
  }
  return out;
}

/// Float matmul: x (M x K, f32) times constant w (K x N) plus bias.
static FailureOr<Value>
floatMatmul(Importer &im, Value x, const ImportedValue &w,
            const std::optional<std::vector<double>> &bias) {
  auto reals = weightReals(im, w);
  if (failed(reals))
    return failure();
  Type f32 = Float32Type::get(im.ctx);
  auto wType = RankedTensorType::get({w.shape[0], w.shape[1]}, f32);
  Value wv = arith::ConstantOp::create(
      im.b, im.loc, wType,
      DenseElementsAttr::get(wType, ArrayRef<float>(*reals)));
  int64_t m = cast<RankedTensorType>(x.getType()).getDimSize(0);
  SmallVector<int64_t> shape = {m, w.shape[1]};
  Value zero = arith::ConstantOp::create(im.b, im.loc, im.b.getF32FloatAttr(0));
  Value init = tensor::EmptyOp::create(im.b, im.loc, shape, f32);
  Value acc =
      linalg::FillOp::create(im.b, im.loc, ValueRange{zero}, ValueRange{init})
          .getResult(0);
  Value y = linalg::MatmulOp::create(im.b, im.loc, TypeRange{acc.getType()},
                                     ValueRange{x, wv}, ValueRange{acc})
                .getResult(0);
  if (bias) {
    SmallVector<float> data(bias->begin(), bias->end());
    auto bType = RankedTensorType::get({1, w.shape[1]}, f32);
    Value bv = arith::ConstantOp::create(
        im.b, im.loc, bType,
        DenseElementsAttr::get(bType, ArrayRef<float>(data)));
    y = elementwise(im, {y, bv}, shape,
                    [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                      return arith::AddFOp::create(nb, l, a[0], a[1]);
                    });
  }
  return y;
}

FailureOr<ImportedValue> Importer::emitFloat(ImportedValue &v) {
  PendingInfo &p = *v.pending;
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  Value result;
  switch (p.op) {
  case PendingOp::Contraction: {
    if (p.isConv) {
      // No QuantizeLinear after the conv (TensorRT-style QDQ puts them on
      // inputs only): the exact int32 sum of the codes, times S_x * S_w in
      // f32, plus a float bias in f32.
      PendingInfo sum = p;
      sum.floatBias.reset();
      sum.lo = -std::numeric_limits<double>::infinity();
      sum.hi = std::numeric_limits<double>::infinity();
      auto acc = emitContraction(sum, /*out=*/nullptr);
      if (failed(acc))
        return failure();
      const QParams &xq = p.operands[0].q, &wq = p.operands[1].q;
      int64_t channels = v.shape[1];
      SmallVector<float> scales, zeros(channels, 0.0f);
      for (int64_t c = 0; c < channels; ++c)
        scales.push_back(float(xq.scales[0] * wq.scales[wq.perAxis() ? c : 0]));
      // One value per channel: the last dimension of NHWC, the second of a
      // 1-D conv's N x F x L.
      int64_t rank = acc->shape.size();
      SmallVector<int64_t> paramShape(rank, 1);
      paramShape[acc->nhwc ? rank - 1 : 1] = channels;
      auto paramType = RankedTensorType::get(paramShape, Float32Type::get(ctx));
      auto param = [&](ArrayRef<float> data) -> Value {
        return arith::ConstantOp::create(
            b, loc, paramType, DenseElementsAttr::get(paramType, data));
      };
      auto accType = cast<RankedTensorType>(acc->value.getType());
      result = qnt::DequantizeDynamicOp::create(
          b, loc,
          RankedTensorType::get(accType.getShape(), Float32Type::get(ctx)),
          acc->value, param(scales), param(zeros));
      if (p.floatBias) {
        SmallVector<float> bias(p.floatBias->begin(), p.floatBias->end());
        result = elementwise(*this, {result, param(bias)}, accType.getShape(),
                             [](OpBuilder &nb, Location l, ValueRange a) {
                               return arith::AddFOp::create(nb, l, a[0], a[1]);
                             });
      }
      out.nhwc = acc->nhwc;
      break;
    }
    auto x = floatValue(p.operands[0], false);
    if (failed(x))
      return failure();
    std::optional<std::vector<double>> bias = p.floatBias;
    if (p.intBias) {
      const QParams &xq = p.operands[0].q, &wq = p.operands[1].q;
      std::vector<double> data;
      for (size_t c = 0; c < p.intBias->size(); ++c)
        data.push_back(double((*p.intBias)[c]) *
                       (xq.scales[0] * wq.scales[wq.perAxis() ? c : 0]));
      bias = data;
    }
    auto y = floatMatmul(*this, *x, p.operands[1], bias);
    if (failed(y))
      return failure();
    result = p.resultShape.empty() ? *y : reshape(*y, p.resultShape);
    break;
  }
  case PendingOp::Add: {
    SmallVector<Value> ins;
    for (ImportedValue &o : p.operands) {
      auto f = floatValue(o, false);
      if (failed(f))
        return failure();
      Value val = *f;
      if (o.shape.size() != v.shape.size()) {
        SmallVector<int64_t> s(v.shape.size() - o.shape.size(), 1);
        s.append(o.shape.begin(), o.shape.end());
        val = reshape(val, s);
      }
      ins.push_back(val);
    }
    result = elementwise(*this, ins, v.shape,
                         [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                           return arith::AddFOp::create(nb, l, a[0], a[1]);
                         });
    break;
  }
  case PendingOp::AvgPool: {
    // The f32 mean of each window of the dequantized codes (a global pool,
    // or Inception's padded 3x3 under eager QAT), as for a float input.
    PoolWindow w{p.kernel, p.strides, {1, 1}, p.padding, p.countIncludePad};
    auto pooled = floatPool(*this, p.operands[0], w, /*isMax=*/false);
    if (failed(pooled))
      return failure();
    result = pooled->value;
    out.nhwc = true;
    break;
  }
  case PendingOp::Clamp: {
    auto f = floatValue(p.operands[0], false);
    if (failed(f))
      return failure();
    result = *f;
    break;
  }
  case PendingOp::Concat: {
    auto f = floatConcat(p.operands, p.axis);
    if (failed(f))
      return failure();
    result = *f;
    break;
  }
  }
  out.value = clampFloat(*this, result, p.lo, p.hi);
  return out;
}

/// `op` ("Add", "Sub", "Mul", "Div", "Max", "Min", "PRelu") of two f32
/// values. Max and Min propagate NaN, as numpy's maximum / minimum do.
static Value binaryFloat(OpBuilder &nb, Location l, StringRef op, Value x,
                         Value y) {
  if (op == "Max")
    return arith::MaximumFOp::create(nb, l, x, y);
  if (op == "Min")
    return arith::MinimumFOp::create(nb, l, x, y);
  if (op == "PRelu") {
    // x < 0 ? slope * x : x (NaN is not < 0 and stays).
    Value zero = arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0.0f));
    Value negative =
        arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, x, zero);
    return arith::SelectOp::create(nb, l, negative,
                                   arith::MulFOp::create(nb, l, y, x), x);
  }
  if (op == "Add")
    return arith::AddFOp::create(nb, l, x, y);
  if (op == "Sub")
    return arith::SubFOp::create(nb, l, x, y);
  if (op == "Mul")
    return arith::MulFOp::create(nb, l, x, y);
  if (op == "Mod") // fmod = 1: C's fmod (LLVM's frem)
    return arith::RemFOp::create(nb, l, x, y);
  if (op == "Pow") // powf, as the fold below calls it
    return math::PowFOp::create(nb, l, x, y);
  return arith::DivFOp::create(nb, l, x, y);
}

static float binaryFloat(StringRef op, float x, float y) {
  if (std::isnan(x) || std::isnan(y))
    if (op == "Max" || op == "Min")
      return std::numeric_limits<float>::quiet_NaN();
  if (op == "Max")
    return std::max(x, y);
  if (op == "Min")
    return std::min(x, y);
  if (op == "PRelu")
    return x < 0 ? y * x : x;
  if (op == "Add")
    return x + y;
  if (op == "Sub")
    return x - y;
  if (op == "Mul")
    return x * y;
  if (op == "Mod")
    return std::fmod(x, y);
  if (op == "Pow")
    return std::pow(x, y);
  return x / y;
}

LogicalResult Importer::importFloatBinary(ImportedValue &a, ImportedValue &c,
                                          StringRef op) {
  auto shape = broadcastShapes(a.shape, c.shape);
  if (!shape)
    return fail("shapes do not broadcast");
  ImportedValue out;
  out.shape = *shape;
  // Two constants (a scale computed in the graph, shape arithmetic): folded
  // here, floats in f32, integers in int64 where no result overflows. Only
  // small results: a broadcast of two large constants runs at run time.
  std::optional<int64_t> count = foldableCount(*shape);
  bool floats = !a.f.empty() && !c.f.empty();
  bool ints = !a.i.empty() && !c.i.empty() &&
              (op == "Add" || op == "Sub" || op == "Mul" || op == "Div" ||
               op == "Mod" || op == "Max" || op == "Min");
  if (a.kind == Kind::Const && c.kind == Kind::Const && (floats || ints) &&
      count) {
    out.kind = Kind::Const;
    out.dtype = a.dtype;
    auto at = [&](const ImportedValue &v, int64_t n) {
      return broadcastSource(v.shape, *shape, n);
    };
    for (int64_t n = 0; n < *count; ++n) {
      if (floats) {
        out.f.push_back(binaryFloat(op, float(a.f[at(a, n)]),
                                    float(c.f[at(c, n)])));
        continue;
      }
      int64_t x = a.i[at(a, n)], y = c.i[at(c, n)], r;
      if (op == "Max" || op == "Min") {
        // T5's bucketing clamps relative positions; uint64 constants are
        // not read (ModelImporter), so signed order is the values' order.
        out.i.push_back(op == "Max" ? std::max(x, y) : std::min(x, y));
        continue;
      }
      if (op == "Div") {
        // Shape arithmetic (ShuffleNet's channels / groups): ONNX divides
        // integers truncating toward zero, as C++ does.
        if (y == 0)
          return fail("Div of integer constants divides by zero");
        if (x == std::numeric_limits<int64_t>::min() && y == -1)
          return fail("Div of integer constants overflows int64");
        out.i.push_back(x / y);
        continue;
      }
      if (op == "Mod") {
        if (y == 0)
          return fail("Mod of integer constants divides by zero");
        int64_t rem = y == -1 ? 0 : x % y;
        // fmod = 0: the remainder takes the divisor's sign.
        if (attrInt("fmod").value_or(0) == 0 && rem != 0 &&
            (rem < 0) != (y < 0))
          rem += y;
        out.i.push_back(rem);
        continue;
      }
      bool overflow = op == "Add"   ? llvm::AddOverflow(x, y, r)
                      : op == "Sub" ? llvm::SubOverflow(x, y, r)
                                    : llvm::MulOverflow(x, y, r);
      if (overflow)
        return fail(op + " of integer constants overflows int64");
      out.i.push_back(r);
    }
    setOutput(0, std::move(out));
    return success();
  }
  if (a.holdsIntegers() && c.holdsIntegers() &&
      (a.kind == Kind::Int || c.kind == Kind::Int))
    return importIntegerBinary(a, c, op, *shape);
  // Two rank-4 operands, one of them NHWC (a conv's result: SiLU's
  // x * Sigmoid(x), a squeeze-excitation scale): computed in NHWC, so that
  // no transpose goes to NCHW and back around the op.
  // A constant of lower rank (PRelu's slope [C, 1, 1]) takes the result's
  // rank: leading 1s do not move its data.
  ImportedValue ranked[2] = {a, c};
  for (ImportedValue &o : ranked)
    if (o.kind == Kind::Const && o.shape.size() < shape->size())
      o.shape.insert(o.shape.begin(), shape->size() - o.shape.size(), 1);
  out.nhwc = shape->size() == 4 && ranked[0].shape.size() == 4 &&
             ranked[1].shape.size() == 4 && (a.nhwc || c.nhwc);
  SmallVector<Value> ins;
  for (ImportedValue *o : {&ranked[0], &ranked[1]}) {
    auto f = floatValue(*o, out.nhwc);
    if (failed(f))
      return failure();
    Value val = *f;
    if (o->shape.size() != shape->size()) {
      SmallVector<int64_t> s(shape->size() - o->shape.size(), 1);
      s.append(o->shape.begin(), o->shape.end());
      val = reshape(val, s);
    }
    ins.push_back(val);
  }
  out.kind = Kind::Float;
  out.value = elementwise(*this, ins, physicalShape(out),
                          [&](OpBuilder &nb, Location l, ValueRange v) {
                            return binaryFloat(nb, l, op, v[0], v[1]);
                          });
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importIntegerBinary(ImportedValue &a, ImportedValue &c,
                                            StringRef op,
                                            ArrayRef<int64_t> shape) {
  // ONNX's integer Add, Sub and Mul wrap around in the element type (as
  // ONNX Runtime's C++ arithmetic does). Div and Mod need a compile-time
  // divisor without zeros: a zero has no defined result.
  bool division = op == "Div" || op == "Mod";
  bool extremum = op == "Max" || op == "Min";
  if (op != "Add" && op != "Sub" && op != "Mul" && !division && !extremum)
    return fail(op + " of run-time integer tensors is not supported");
  if (division &&
      (c.kind != Kind::Const || llvm::is_contained(c.i, int64_t(0))))
    return fail(op + " of run-time integers needs a compile-time divisor "
                     "without zeros (a zero has no defined result)");
  bool cMod = attrInt("fmod").value_or(0) != 0;
  Type elem;
  for (ImportedValue *v : {&a, &c}) {
    if (v->kind != Kind::Int)
      continue;
    if (v->dtype == onnx::TensorProto::BOOL)
      return fail(op + " of boolean tensors");
    Type t = cast<RankedTensorType>(v->value.getType()).getElementType();
    if (elem && t != elem)
      return fail(op + " of integer tensors of different types");
    elem = t;
  }
  int64_t rank = shape.size();
  SmallVector<Value> ins;
  for (ImportedValue *v : {&a, &c})
    ins.push_back(withLeadingOnes(*this, logicalIntegers(*this, *v, elem),
                                  v->shape, rank));
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = a.kind == Kind::Int ? a.dtype : c.dtype;
  out.shape.assign(shape.begin(), shape.end());
  out.value = elementwise(
      *this, ins, shape,
      [&](OpBuilder &nb, Location l, ValueRange v) -> Value {
        if (op == "Add")
          return arith::AddIOp::create(nb, l, v[0], v[1]);
        if (op == "Sub")
          return arith::SubIOp::create(nb, l, v[0], v[1]);
        if (op == "Mul")
          return arith::MulIOp::create(nb, l, v[0], v[1]);
        if (extremum) {
          bool isUnsigned = isUnsignedIntType(out.dtype);
          if (op == "Max")
            return isUnsigned
                       ? arith::MaxUIOp::create(nb, l, v[0], v[1]).getResult()
                       : arith::MaxSIOp::create(nb, l, v[0], v[1]).getResult();
          return isUnsigned
                     ? arith::MinUIOp::create(nb, l, v[0], v[1]).getResult()
                     : arith::MinSIOp::create(nb, l, v[0], v[1]).getResult();
        }
        // Toward zero (Div) and C's remainder, with the minimum divided by
        // -1 (undefined in C) defined by wrap-around: x / -1 = 0 - x,
        // x % -1 = 0.
        auto constant = [&](int64_t c) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getIntegerAttr(elem, c));
        };
        Value minusOne = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                               v[1], constant(-1));
        Value divisor =
            arith::SelectOp::create(nb, l, minusOne, constant(1), v[1]);
        if (op == "Div")
          return arith::SelectOp::create(
              nb, l, minusOne, arith::SubIOp::create(nb, l, constant(0), v[0]),
              arith::DivSIOp::create(nb, l, v[0], divisor));
        Value rem = arith::SelectOp::create(
            nb, l, minusOne, constant(0),
            arith::RemSIOp::create(nb, l, v[0], divisor));
        if (cMod)
          return rem;
        // fmod = 0: the remainder takes the divisor's sign (Python's %).
        Value remNegative = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::slt, rem, constant(0));
        Value divisorNegative = arith::CmpIOp::create(
            nb, l, arith::CmpIPredicate::slt, v[1], constant(0));
        Value nonzero = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ne,
                                              rem, constant(0));
        Value adjust = arith::AndIOp::create(
            nb, l, nonzero,
            arith::XOrIOp::create(nb, l, remNegative, divisorNegative));
        return arith::SelectOp::create(
            nb, l, adjust, arith::AddIOp::create(nb, l, rem, v[1]), rem);
      },
      elem);
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importMod() {
  if (failed(checkAttrs({"fmod"})))
    return failure();
  auto a = input(0);
  auto c = failed(a) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(a) || failed(c))
    return failure();
  int64_t fmod = attrInt("fmod").value_or(0);
  if (fmod != 0 && fmod != 1)
    return fail("fmod must be 0 or 1");
  // Floats take C's fmod only; ONNX calls fmod = 0 on floats an error.
  if (fmod == 0 && (!(*a)->holdsIntegers() || !(*c)->holdsIntegers()))
    return fail("Mod of floats needs fmod = 1");
  if ((*a)->holdsIntegers() != (*c)->holdsIntegers())
    return fail("Mod of an integer and a float tensor");
  return importFloatBinary(**a, **c, "Mod");
}

LogicalResult Importer::importFloatArithmetic() {
  if (failed(checkAttrs({})))
    return failure();
  StringRef op = node->op_type();
  // Max and Min take 1 to N inputs; one is the identity (more than two:
  // importVariadic).
  if ((op == "Max" || op == "Min") && node->input_size() == 1)
    return importIdentity();
  auto a = input(0);
  auto c = failed(a) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(a) || failed(c))
    return failure();
  if (op == "PRelu") {
    // The slope broadcasts to X, never X to the slope.
    auto shape = broadcastShapes((*a)->shape, (*c)->shape);
    if (shape && ArrayRef<int64_t>(*shape) != ArrayRef<int64_t>((*a)->shape))
      return fail("slope does not broadcast to X's shape");
  }
  return importFloatBinary(**a, **c, op);
}

LogicalResult quantopt::onnx_import::detail::setIntegerMap(
    Importer &im, const ImportedValue &v,
    function_ref<Value(OpBuilder &, Location, Value, Type)> body) {
  Value x = logicalIntegers(im, v, integerElementType(im, v));
  if (!x)
    return failure();
  Type elem = cast<RankedTensorType>(x.getType()).getElementType();
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = v.dtype;
  out.shape = v.shape;
  out.value = elementwise(
      im, {x}, v.shape,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        return body(nb, l, a[0], elem);
      },
      elem);
  im.setOutput(0, std::move(out));
  return success();
}

/// Abs, Neg and Sign of integers (T5's relative-position buckets): folded
/// for constants, elementwise for run-time tensors; Abs and Neg wrap
/// around as ONNX Runtime's C++ does (|INT_MIN| is INT_MIN).
static LogicalResult setIntegerUnary(Importer &im, ImportedValue &v,
                                     StringRef op) {
  bool isUnsigned = isUnsignedIntType(v.dtype);
  if (v.kind == Kind::Const) {
    ImportedValue out = v;
    for (int64_t &x : out.i) {
      if (op == "Sign") {
        x = x > 0 ? 1 : x < 0 ? -1 : 0;
        continue;
      }
      if (isUnsigned && op == "Abs")
        continue;
      if (x == std::numeric_limits<int64_t>::min() ||
          (op == "Neg" && isUnsigned && x != 0))
        return im.fail(op + " of integer constants overflows their type");
      x = op == "Neg" ? -x : std::abs(x);
    }
    if (v.dtype == onnx::TensorProto::INT8 ||
        v.dtype == onnx::TensorProto::INT16 ||
        v.dtype == onnx::TensorProto::INT32) {
      int bits = v.dtype == onnx::TensorProto::INT8    ? 8
                 : v.dtype == onnx::TensorProto::INT16 ? 16
                                                       : 32;
      for (int64_t x : out.i)
        if (x >= (int64_t(1) << (bits - 1)))
          return im.fail(op + " of integer constants overflows their type");
    }
    im.setOutput(0, std::move(out));
    return success();
  }
  return setIntegerMap(
      im, v, [&](OpBuilder &nb, Location l, Value value, Type elem) -> Value {
        auto constant = [&](int64_t c) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getIntegerAttr(elem, c));
        };
        Value zero = constant(0);
        Value negated = arith::SubIOp::create(nb, l, zero, value);
        if (op == "Neg")
          return negated;
        Value positive = arith::CmpIOp::create(
            nb, l,
            isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt,
            value, zero);
        Value negative =
            isUnsigned ? arith::ConstantOp::create(nb, l, nb.getBoolAttr(false))
                             .getResult()
                       : arith::CmpIOp::create(nb, l, arith::CmpIPredicate::slt,
                                               value, zero)
                             .getResult();
        if (op == "Abs")
          return arith::SelectOp::create(nb, l, negative, negated, value);
        return arith::SelectOp::create(
            nb, l, positive, constant(1),
            arith::SelectOp::create(nb, l, negative, constant(-1), zero));
      });
}

/// Output 0 of the current node: `body` applied elementwise in f32 to the
/// (dequantized) value `v`, in the layout `v` has.
static LogicalResult
setFloatUnary(Importer &im, ImportedValue &v, StringRef op,
              function_ref<Value(OpBuilder &, Location, Value)> body) {
  if (v.holdsIntegers() && (op == "Abs" || op == "Neg" || op == "Sign") &&
      (v.kind == Kind::Int || v.kind == Kind::Const) &&
      v.dtype != onnx::TensorProto::BOOL)
    return setIntegerUnary(im, v, op);
  if (v.holdsIntegers())
    return im.fail(op + " of an integer tensor");
  bool nhwc = v.nhwc && v.shape.size() == 4;
  auto f = im.floatValue(v, nhwc);
  if (failed(f))
    return failure();
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  out.nhwc = nhwc;
  out.value = elementwise(im, {*f},
                          cast<RankedTensorType>(f->getType()).getShape(),
                          [&](OpBuilder &nb, Location l, ValueRange a) {
                            return body(nb, l, a[0]);
                          });
  im.setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importFloatActivation() {
  StringRef op = node->op_type();
  // ONNX's defaults; HardSwish is HardSigmoid(alpha = 1/6, beta = 1/2)
  // times x.
  float alpha = 0, beta = 0;
  if (op == "HardSigmoid") {
    if (failed(checkAttrs({"alpha", "beta"})))
      return failure();
    alpha = attrFloat("alpha").value_or(0.2f);
    beta = attrFloat("beta").value_or(0.5f);
  } else if (op == "LeakyRelu" || op == "Elu" || op == "Celu" ||
             op == "ThresholdedRelu") {
    if (failed(checkAttrs({"alpha"})))
      return failure();
    alpha = attrFloat("alpha").value_or(op == "LeakyRelu" ? 0.01f : 1.0f);
    if (op == "Celu" && alpha == 0)
      return fail("Celu's alpha must not be 0 (it divides by it)");
  } else if (op == "Selu") {
    // beta is gamma here.
    if (failed(checkAttrs({"alpha", "gamma"})))
      return failure();
    alpha = attrFloat("alpha").value_or(1.67326319217681884765625f);
    beta = attrFloat("gamma").value_or(1.05070102214813232421875f);
  } else if (op == "Shrink") {
    // beta is bias, alpha lambd.
    if (failed(checkAttrs({"bias", "lambd"})))
      return failure();
    beta = attrFloat("bias").value_or(0.0f);
    alpha = attrFloat("lambd").value_or(0.5f);
  } else if (op == "Gelu") {
    if (failed(checkAttrs({"approximate"})))
      return failure();
    // ONNX Runtime's com.microsoft Gelu is the exact form; the standard op
    // (opset 20) is newer than the ONNX checker Debian 12 ships.
    std::string approximate = attrString("approximate").value_or("none");
    if (approximate == "tanh")
      op = "GeluTanh";
    else if (approximate != "none")
      return fail("Gelu with approximate = '" + approximate +
                  "' (ONNX allows 'none' and 'tanh')");
  } else {
    if (failed(checkAttrs({})))
      return failure();
    if (op == "HardSwish") {
      alpha = 1.0f / 6;
      beta = 0.5f;
    }
  }
  if (!std::isfinite(alpha) || !std::isfinite(beta))
    return fail("alpha and beta must be finite");
  auto in = input(0);
  if (failed(in))
    return failure();
  return setFloatUnary(*this, **in, op,
                       [&](OpBuilder &nb, Location l, Value x) -> Value {
                         return floatUnaryOp(nb, l, op, alpha, beta, x);
                       });
}

Value quantopt::onnx_import::detail::floatUnaryOp(OpBuilder &nb, Location l,
                                                  StringRef op, float alpha,
                                                  float beta, Value x) {
  auto constant = [&](float c) -> Value {
    return arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(c));
  };
  if (op == "Sigmoid") {
    // 1 / (1 + exp(-x)).
    Value e = math::ExpOp::create(nb, l, arith::NegFOp::create(nb, l, x));
    return arith::DivFOp::create(nb, l, constant(1),
                                 arith::AddFOp::create(nb, l, constant(1), e));
  }
  if (op == "Tanh")
    return math::TanhOp::create(nb, l, x);
  if (op == "Erf")
    return math::ErfOp::create(nb, l, x);
  if (op == "Sqrt")
    return math::SqrtOp::create(nb, l, x);
  if (op == "Exp")
    return math::ExpOp::create(nb, l, x);
  if (op == "Log")
    return math::LogOp::create(nb, l, x);
  if (op == "Neg")
    return arith::NegFOp::create(nb, l, x);
  if (op == "Abs")
    return math::AbsFOp::create(nb, l, x);
  if (op == "Reciprocal")
    return arith::DivFOp::create(nb, l, constant(1), x);
  if (op == "Elu") {
    // x < 0 ? alpha * (exp(x) - 1) : x.
    Value negative =
        arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, x, constant(0));
    Value em1 = arith::SubFOp::create(nb, l, math::ExpOp::create(nb, l, x),
                                      constant(1));
    return arith::SelectOp::create(
        nb, l, negative, arith::MulFOp::create(nb, l, constant(alpha), em1), x);
  }
  if (op == "Mish") // x * tanh(softplus(x)), ONNX's function body
    return arith::MulFOp::create(
        nb, l, x,
        math::TanhOp::create(nb, l,
                             floatUnaryOp(nb, l, "Softplus", alpha, beta, x)));
  if (op == "GeluTanh") {
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), x^3 as
    // x * x * x.
    Value cube =
        arith::MulFOp::create(nb, l, arith::MulFOp::create(nb, l, x, x), x);
    Value inner = arith::AddFOp::create(
        nb, l, x, arith::MulFOp::create(nb, l, constant(0.044715f), cube));
    Value t = math::TanhOp::create(
        nb, l,
        arith::MulFOp::create(
            nb, l, constant(float(std::sqrt(2.0 / llvm::numbers::pi))), inner));
    return arith::MulFOp::create(
        nb, l, arith::MulFOp::create(nb, l, constant(0.5f), x),
        arith::AddFOp::create(nb, l, constant(1), t));
  }
  if (op == "Softplus") {
    // ln(exp(x) + 1) as x + log1p(exp(-x)) for x > 0 and
    // log1p(exp(x)) otherwise: the same function, without exp's
    // overflow to infinity for x > 88 (torch and ONNX Runtime also
    // return about x there).
    Value positive =
        arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, x, constant(0));
    Value t = arith::SelectOp::create(nb, l, positive,
                                      arith::NegFOp::create(nb, l, x), x);
    Value lp = math::Log1pOp::create(nb, l, math::ExpOp::create(nb, l, t));
    return arith::SelectOp::create(nb, l, positive,
                                   arith::AddFOp::create(nb, l, x, lp), lp);
  }
  auto cmp = [&](arith::CmpFPredicate pred, Value a, Value b) {
    return arith::CmpFOp::create(nb, l, pred, a, b);
  };
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddFOp::create(nb, l, a, b);
  };
  auto sub = [&](Value a, Value b) -> Value {
    return arith::SubFOp::create(nb, l, a, b);
  };
  auto mul = [&](Value a, Value b) -> Value {
    return arith::MulFOp::create(nb, l, a, b);
  };
  auto select = [&](Value c, Value a, Value b) -> Value {
    return arith::SelectOp::create(nb, l, c, a, b);
  };
  if (op == "Floor")
    return math::FloorOp::create(nb, l, x);
  if (op == "Ceil")
    return math::CeilOp::create(nb, l, x);
  if (op == "Round") // half to even
    return math::RoundEvenOp::create(nb, l, x);
  if (op == "Sin")
    return math::SinOp::create(nb, l, x);
  if (op == "Cos")
    return math::CosOp::create(nb, l, x);
  if (op == "Tan")
    return math::TanOp::create(nb, l, x);
  if (op == "Asin")
    return math::AsinOp::create(nb, l, x);
  if (op == "Acos")
    return math::AcosOp::create(nb, l, x);
  if (op == "Atan")
    return math::AtanOp::create(nb, l, x);
  if (op == "Sinh")
    return math::SinhOp::create(nb, l, x);
  if (op == "Cosh")
    return math::CoshOp::create(nb, l, x);
  if (op == "Asinh")
    return math::AsinhOp::create(nb, l, x);
  if (op == "Acosh")
    return math::AcoshOp::create(nb, l, x);
  if (op == "Atanh")
    return math::AtanhOp::create(nb, l, x);
  if (op == "Sign") {
    // 1, -1, or x itself for +-0 and NaN (numpy's sign, the ONNX
    // reference's).
    return select(cmp(arith::CmpFPredicate::OGT, x, constant(0)), constant(1),
                  select(cmp(arith::CmpFPredicate::OLT, x, constant(0)),
                         constant(-1), x));
  }
  if (op == "Softsign") // x / (1 + |x|)
    return arith::DivFOp::create(
        nb, l, x, add(constant(1), math::AbsFOp::create(nb, l, x)));
  if (op == "ThresholdedRelu") // x > alpha ? x : 0
    return select(cmp(arith::CmpFPredicate::OGT, x, constant(alpha)), x,
                  constant(0));
  if (op == "Selu") // (x > 0 ? x : exp(x) * alpha - alpha) * gamma
    return mul(select(cmp(arith::CmpFPredicate::OGT, x, constant(0)), x,
                      sub(mul(math::ExpOp::create(nb, l, x), constant(alpha)),
                          constant(alpha))),
               constant(beta));
  if (op == "Celu") {
    // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
    Value e = math::ExpOp::create(
        nb, l, arith::DivFOp::create(nb, l, x, constant(alpha)));
    return add(
        arith::MaximumFOp::create(nb, l, constant(0), x),
        arith::MinimumFOp::create(nb, l, constant(0),
                                  mul(constant(alpha), sub(e, constant(1)))));
  }
  if (op == "Shrink") // x < -lambd ? x + bias : x > lambd ? x - bias : 0
    return select(cmp(arith::CmpFPredicate::OLT, x, constant(-alpha)),
                  add(x, constant(beta)),
                  select(cmp(arith::CmpFPredicate::OGT, x, constant(alpha)),
                         sub(x, constant(beta)), constant(0)));
  if (op == "Gelu") {
    // 0.5 * x * (1 + erf(x / sqrt(2)))
    Value inner = math::ErfOp::create(
        nb, l,
        arith::DivFOp::create(nb, l, x, constant(float(std::sqrt(2.0)))));
    return mul(mul(constant(0.5f), x), add(constant(1), inner));
  }
  if (op == "LeakyRelu") {
    Value negative =
        arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OLT, x, constant(0));
    return arith::SelectOp::create(
        nb, l, negative, arith::MulFOp::create(nb, l, x, constant(alpha)), x);
  }
  // max(0, min(1, alpha * x + beta)), times x for HardSwish.
  Value h = arith::AddFOp::create(
      nb, l, arith::MulFOp::create(nb, l, x, constant(alpha)), constant(beta));
  h = arith::MaximumFOp::create(
      nb, l, arith::MinimumFOp::create(nb, l, h, constant(1)), constant(0));
  return op == "HardSwish" ? arith::MulFOp::create(nb, l, x, h) : h;
}

bool Importer::isQuantizable(ImportedValue &v) {
  return v.isQuantized() || succeeded(settle(v));
}

FailureOr<ImportedValue *> Importer::floatInput(unsigned idx, StringRef what) {
  auto v = input(idx);
  if (failed(v))
    return failure();
  if (isQuantizable(**v))
    return fail(what + " (input " + Twine(idx) +
                ") is quantized (QDQ), which is not supported: " +
                node->op_type() + " runs in f32 on float data");
  if ((*v)->holdsIntegers() || (*v)->dtype == onnx::TensorProto::DOUBLE)
    return fail(what + " (input " + Twine(idx) +
                ") must be a float (f32) tensor");
  return *v;
}

LogicalResult Importer::importFloatContraction(ImportedValue &a,
                                               const ImportedValue &w,
                                               unsigned biasIdx) {
  if (a.shape.size() != 2 || w.shape.size() != 2 || a.shape[1] != w.shape[0])
    return fail("float Gemm / MatMul needs 2-D operands with matching inner "
                "dimensions");
  auto x = floatValue(a, false);
  if (failed(x))
    return failure();
  std::optional<std::vector<double>> bias;
  if (hasInput(biasIdx)) {
    auto in = input(biasIdx);
    if (failed(in))
      return failure();
    ImportedValue &bv = **in;
    std::vector<double> data;
    if (bv.kind == Kind::Const && !bv.f.empty()) {
      data = bv.f;
    } else if (bv.codes) {
      for (size_t c = 0; c < bv.codes->size(); ++c) {
        size_t k = bv.q.perAxis() ? c : 0;
        data.push_back(double(float((*bv.codes)[c] - bv.q.zeroPoints[k]) *
                              float(bv.q.scales[k])));
      }
    } else {
      return fail("the bias of a float Gemm must be a constant");
    }
    if (data.size() == 1)
      data.assign(w.shape[1], data[0]);
    if (int64_t(data.size()) != w.shape[1])
      return fail("bias has " + Twine(data.size()) + " elements, expected " +
                  Twine(w.shape[1]));
    bias = std::move(data);
  }
  auto y = floatMatmul(*this, *x, w, bias);
  if (failed(y))
    return failure();
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = {a.shape[0], w.shape[1]};
  out.value = *y;
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importFloatClamp(ImportedValue &v, double lo,
                                         double hi) {
  auto f = floatValue(v, v.nhwc);
  if (failed(f))
    return failure();
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  out.nhwc = v.nhwc && v.shape.size() == 4;
  out.value = clampFloat(*this, *f, lo, hi);
  setOutput(0, std::move(out));
  return success();
}

std::pair<AffineMap, SmallVector<utils::IteratorType>>
quantopt::onnx_import::detail::reductionOver(MLIRContext *ctx, int64_t rank,
                                             int64_t axis) {
  SmallVector<AffineExpr> outExprs;
  SmallVector<utils::IteratorType> iters;
  for (int64_t d = 0; d < rank; ++d) {
    outExprs.push_back(d == axis ? getAffineConstantExpr(0, ctx)
                                 : getAffineDimExpr(d, ctx));
    iters.push_back(d == axis ? utils::IteratorType::reduction
                              : utils::IteratorType::parallel);
  }
  return {AffineMap::get(rank, 0, outExprs, ctx), std::move(iters)};
}

Value quantopt::onnx_import::detail::reduceAlong(
    Importer &im, Value x, int64_t axis, float init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  return reduceAlong(im, x, axis, im.b.getF32FloatAttr(init), combine);
}

Value quantopt::onnx_import::detail::reduceAlong(
    Importer &im, Value x, int64_t axis, TypedAttr init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  MLIRContext *ctx = im.ctx;
  auto type = cast<RankedTensorType>(x.getType());
  int64_t rank = type.getRank();
  SmallVector<int64_t> shape(type.getShape());
  shape[axis] = 1;
  auto [outMap, iters] = reductionOver(ctx, rank, axis);
  SmallVector<AffineMap> maps = {AffineMap::getMultiDimIdentityMap(rank, ctx),
                                 outMap};
  Value start = arith::ConstantOp::create(im.b, im.loc, init);
  Value empty =
      tensor::EmptyOp::create(im.b, im.loc, shape, type.getElementType());
  Value acc =
      linalg::FillOp::create(im.b, im.loc, ValueRange{start}, ValueRange{empty})
          .getResult(0);
  return linalg::GenericOp::create(
             im.b, im.loc, TypeRange{acc.getType()}, ValueRange{x},
             ValueRange{acc}, maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange a) {
               linalg::YieldOp::create(nb, l, combine(nb, l, a[1], a[0]));
             })
      .getResult(0);
}

LogicalResult Importer::importFloatSoftmax() {
  if (failed(checkAttrs({"axis"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  StringRef op = node->op_type();
  bool logSoftmax = op == "LogSoftmax";
  int64_t rank = v.shape.size();
  if (rank == 0)
    return fail(op + " of a scalar");
  // Before opset 13 Softmax (and LogSoftmax) flattens the input to 2-D at
  // `axis` (default 1); that equals the per-axis form for the last axis,
  // and is that form over the flattened input for the others.
  int64_t axis = attrInt("axis").value_or(opset >= 13 ? -1 : 1);
  if (axis < -rank || axis >= rank)
    return fail("axis " + Twine(axis) + " out of range");
  if (axis < 0)
    axis += rank;
  if (opset < 13 && axis != rank - 1) {
    int64_t outer, inner;
    std::tie(outer, inner) = countsAroundAxis(v.shape, axis);
    Expansion e(*this, *node);
    std::string flat =
        e.reshape(node->input(0), {outer, v.shape[axis] * inner});
    std::string normalized = e.fresh(op.lower());
    Expansion::setInt(e.add(op, {flat}, normalized), "axis", 1);
    e.op("Reshape", {normalized, e.constInts("shape", v.shape)},
         node->output(0));
    return importExpansion(*node, e.nodes);
  }
  if (v.holdsIntegers())
    return fail(op + " of an integer tensor");
  auto x = floatValue(v, false);
  if (failed(x))
    return failure();
  // exp(x - max) / sum(exp(x - max)), in f32 as ONNX defines it; LogSoftmax
  // (x - max) - log(sum(exp(x - max))), as ONNX's reference computes it.
  ArrayRef<int64_t> shape = v.shape;
  Value max =
      reduceAlong(*this, *x, axis, -std::numeric_limits<float>::infinity(),
                  [](OpBuilder &nb, Location l, Value acc, Value e) {
                    return arith::MaximumFOp::create(nb, l, acc, e);
                  });
  Value exps = elementwise(
      *this, {*x, max}, shape, [](OpBuilder &nb, Location l, ValueRange a) {
        return math::ExpOp::create(nb, l,
                                   arith::SubFOp::create(nb, l, a[0], a[1]));
      });
  Value sum = reduceAlong(*this, exps, axis, 0.0f,
                          [](OpBuilder &nb, Location l, Value acc, Value e) {
                            return arith::AddFOp::create(nb, l, acc, e);
                          });
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  if (logSoftmax)
    out.value =
        elementwise(*this, {*x, max, sum}, shape,
                    [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                      Value shifted = arith::SubFOp::create(nb, l, a[0], a[1]);
                      return arith::SubFOp::create(
                          nb, l, shifted, math::LogOp::create(nb, l, a[2]));
                    });
  else
    out.value = elementwise(*this, {exps, sum}, shape,
                            [](OpBuilder &nb, Location l, ValueRange a) {
                              return arith::DivFOp::create(nb, l, a[0], a[1]);
                            });
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importFloatPow() {
  if (failed(checkAttrs({})))
    return failure();
  auto in = input(0);
  auto e = failed(in) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(in) || failed(e))
    return failure();
  ImportedValue &exponent = **e;
  if ((*in)->holdsIntegers())
    return importIntegerPow(**in, exponent);
  // A tensor of exponents (a learned per-channel p, a run-time one):
  // elementwise powf, broadcast as numpy.
  if (exponent.kind != Kind::Const || exponent.numElements() != 1) {
    if (exponent.kind == Kind::Int || exponent.kind == Kind::Quant)
      return fail("Pow of floats by run-time integer exponents is not "
                  "supported");
    return importFloatBinary(**in, exponent, "Pow");
  }
  double p = exponent.f.empty() ? double(exponent.i[0]) : exponent.f[0];
  return setFloatUnary(
      *this, **in, "Pow", [&](OpBuilder &nb, Location l, Value x) -> Value {
        // x^2 (torch's LayerNorm variance) as one correctly rounded
        // product; any other exponent through powf.
        if (p == 2.0)
          return arith::MulFOp::create(nb, l, x, x);
        Value c = arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(p));
        return math::PowFOp::create(nb, l, x, c);
      });
}

Value quantopt::onnx_import::detail::reduceAxes(
    Importer &im, Value x, ArrayRef<int64_t> axes, float init,
    function_ref<Value(OpBuilder &, Location, Value, Value)> combine) {
  for (int64_t axis : axes)
    x = reduceAlong(im, x, axis, init, combine);
  return x;
}

static Value addF(OpBuilder &nb, Location l, Value acc, Value e) {
  return arith::AddFOp::create(nb, l, acc, e);
}

Value quantopt::onnx_import::detail::meanAlong(Importer &im, Value x,
                                               ArrayRef<int64_t> axes) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
  int64_t count = 1;
  for (int64_t axis : axes)
    count *= shape[axis];
  Value sum = reduceAxes(im, x, axes, 0.0f, addF);
  float n = float(count);
  return elementwise(
      im, {sum}, cast<RankedTensorType>(sum.getType()).getShape(),
      [&](OpBuilder &nb, Location l, ValueRange a) {
        Value c = arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(n));
        return arith::DivFOp::create(nb, l, a[0], c);
      });
}

LogicalResult Importer::importFloatReduce(ImportedValue &v,
                                          ArrayRef<int64_t> axes,
                                          bool keepdims) {
  StringRef op = node->op_type();
  if (v.holdsIntegers())
    return fail(op + " of an integer tensor");
  auto f = floatValue(v, false);
  if (failed(f))
    return failure();
  // f32 steps before and after a sum, as ONNX's reference composes them:
  // ReduceL1 sum(|x|), ReduceL2 sqrt(sum(x * x)), ReduceSumSquare
  // sum(x * x), ReduceLogSum log(sum(x)).
  auto map = [&](Value v, auto body) {
    return elementwise(*this, {v},
                       cast<RankedTensorType>(v.getType()).getShape(),
                       [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
                         return body(nb, l, a[0]);
                       });
  };
  auto square = [](OpBuilder &nb, Location l, Value x) -> Value {
    return arith::MulFOp::create(nb, l, x, x);
  };
  Value reduced;
  if (op == "ReduceMean") {
    reduced = meanAlong(*this, *f, axes);
  } else if (op == "ReduceSum") {
    reduced = reduceAxes(*this, *f, axes, 0.0f, addF);
  } else if (op == "ReduceL1") {
    Value abs = map(*f, [](OpBuilder &nb, Location l, Value x) -> Value {
      return math::AbsFOp::create(nb, l, x);
    });
    reduced = reduceAxes(*this, abs, axes, 0.0f, addF);
  } else if (op == "ReduceL2" || op == "ReduceSumSquare") {
    reduced = reduceAxes(*this, map(*f, square), axes, 0.0f, addF);
    if (op == "ReduceL2")
      reduced = map(reduced, [](OpBuilder &nb, Location l, Value x) -> Value {
        return math::SqrtOp::create(nb, l, x);
      });
  } else if (op == "ReduceLogSum") {
    reduced = map(reduceAxes(*this, *f, axes, 0.0f, addF),
                  [](OpBuilder &nb, Location l, Value x) -> Value {
                    return math::LogOp::create(nb, l, x);
                  });
  } else if (op == "ReduceLogSumExp") {
    // ONNX Runtime's (and torch's logsumexp's) form, m + log(sum(exp(x -
    // m))) with m the largest finite element (0 if there is none): ONNX's
    // function body log(sum(exp(x))) up to rounding, without its overflow
    // to inf for x beyond 88.7. An infinity or NaN in x still reaches the
    // sum (exp(inf - m) = inf, exp(-inf - m) = 0).
    float inf = std::numeric_limits<float>::infinity();
    Value largest = reduceAxes(
        *this, *f, axes, -inf,
        [&](OpBuilder &nb, Location l, Value acc, Value e) -> Value {
          Value absE = math::AbsFOp::create(nb, l, e);
          Value finite = arith::CmpFOp::create(
              nb, l, arith::CmpFPredicate::OLT, absE,
              arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(inf)));
          Value larger =
              arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, e, acc);
          return arith::SelectOp::create(
              nb, l, arith::AndIOp::create(nb, l, finite, larger), e, acc);
        });
    Value m = map(largest, [&](OpBuilder &nb, Location l, Value x) -> Value {
      Value none = arith::CmpFOp::create(
          nb, l, arith::CmpFPredicate::OEQ, x,
          arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(-inf)));
      return arith::SelectOp::create(
          nb, l, none, arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0)),
          x);
    });
    ArrayRef<int64_t> shape = cast<RankedTensorType>(f->getType()).getShape();
    Value shifted =
        elementwise(*this, {*f, m}, shape,
                    [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                      return math::ExpOp::create(
                          nb, l, arith::SubFOp::create(nb, l, a[0], a[1]));
                    });
    Value sum = reduceAxes(*this, shifted, axes, 0.0f, addF);
    reduced = elementwise(*this, {sum, m},
                          cast<RankedTensorType>(sum.getType()).getShape(),
                          [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                            return arith::AddFOp::create(
                                nb, l, math::LogOp::create(nb, l, a[0]), a[1]);
                          });
  } else if (op == "ReduceProd") {
    reduced =
        reduceAxes(*this, *f, axes, 1.0f,
                   [](OpBuilder &nb, Location l, Value acc, Value e) -> Value {
                     return arith::MulFOp::create(nb, l, acc, e);
                   });
  } else {
    // NaN propagates (arith.maximumf / minimumf), as numpy's max does.
    bool max = op == "ReduceMax";
    float inf = std::numeric_limits<float>::infinity();
    reduced =
        reduceAxes(*this, *f, axes, max ? -inf : inf,
                   [&](OpBuilder &nb, Location l, Value acc, Value e) -> Value {
                     if (max)
                       return arith::MaximumFOp::create(nb, l, acc, e);
                     return arith::MinimumFOp::create(nb, l, acc, e);
                   });
  }
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape =
      llvm::to_vector(cast<RankedTensorType>(reduced.getType()).getShape());
  out.value = reduced;
  if (!keepdims) {
    SmallVector<int64_t> kept;
    for (int64_t d = 0; d < int64_t(out.shape.size()); ++d)
      if (!llvm::is_contained(axes, d))
        kept.push_back(out.shape[d]);
    out.value = reshape(out.value, kept);
    out.shape = kept;
  }
  setOutput(0, std::move(out));
  return success();
}

Value quantopt::onnx_import::detail::sumOfProducts(
    Importer &im, Value a, Value b, ArrayRef<AffineMap> maps,
    ArrayRef<utils::IteratorType> iters, ArrayRef<int64_t> shape) {
  Type f32 = Float32Type::get(im.ctx);
  Value zero =
      arith::ConstantOp::create(im.b, im.loc, im.b.getF32FloatAttr(0));
  Value init =
      linalg::FillOp::create(
          im.b, im.loc, ValueRange{zero},
          ValueRange{tensor::EmptyOp::create(im.b, im.loc, shape, f32)})
          .getResult(0);
  return linalg::GenericOp::create(
             im.b, im.loc, TypeRange{init.getType()}, ValueRange{a, b},
             ValueRange{init}, maps, iters,
             [](OpBuilder &nb, Location l, ValueRange args) {
               Value p = arith::MulFOp::create(nb, l, args[0], args[1]);
               Value sum = arith::AddFOp::create(nb, l, args[2], p);
               linalg::YieldOp::create(nb, l, sum);
             })
      .getResult(0);
}

LogicalResult Importer::importFloatBatchMatmul(ImportedValue &a,
                                               ImportedValue &c) {
  int64_t ra = a.shape.size(), rc = c.shape.size();
  if (ra < 2 || rc < 2)
    return fail("MatMul of 1-D operands is not supported");
  if (a.shape[ra - 1] != c.shape[rc - 2])
    return fail("inner dimensions differ: " + Twine(a.shape[ra - 1]) + " vs " +
                Twine(c.shape[rc - 2]));
  // numpy's matmul: the leading (batch) dimensions broadcast.
  auto batch = broadcastShapes(ArrayRef<int64_t>(a.shape).drop_back(2),
                               ArrayRef<int64_t>(c.shape).drop_back(2));
  if (!batch)
    return fail("batch dimensions do not broadcast");
  int64_t m = a.shape[ra - 2], n = c.shape[rc - 1];
  int64_t nb = batch->size(), rank = nb + 2;
  auto av = floatValue(a, false);
  auto cv = failed(av) ? FailureOr<Value>(failure()) : floatValue(c, false);
  if (failed(av) || failed(cv))
    return failure();
  // Loops (batch..., m, n, k); an operand's missing or size-1 batch
  // dimensions read index 0.
  auto operandMap = [&](const ImportedValue &v, AffineExpr row,
                        AffineExpr col) {
    int64_t r = v.shape.size();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < r - 2; ++d) {
      int64_t loop = d + nb - (r - 2);
      exprs.push_back(v.shape[d] == 1 && (*batch)[loop] != 1
                          ? getAffineConstantExpr(0, ctx)
                          : getAffineDimExpr(loop, ctx));
    }
    exprs.push_back(row);
    exprs.push_back(col);
    return AffineMap::get(rank + 1, 0, exprs, ctx);
  };
  AffineExpr dm = getAffineDimExpr(nb, ctx), dn = getAffineDimExpr(nb + 1, ctx),
             dk = getAffineDimExpr(nb + 2, ctx);
  SmallVector<AffineExpr> outExprs;
  for (int64_t d = 0; d < rank; ++d)
    outExprs.push_back(getAffineDimExpr(d, ctx));
  SmallVector<AffineMap> maps = {operandMap(a, dm, dk), operandMap(c, dk, dn),
                                 AffineMap::get(rank + 1, 0, outExprs, ctx)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  iters.push_back(utils::IteratorType::reduction);
  SmallVector<int64_t> shape(*batch);
  shape.push_back(m);
  shape.push_back(n);
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = shape;
  out.value = sumOfProducts(*this, *av, *cv, maps, iters, shape);
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importFloatLRN() {
  if (failed(checkAttrs({"alpha", "beta", "bias", "size"})))
    return failure();
  auto sizeAttr = attrInt("size");
  if (!sizeAttr)
    return fail("missing attribute 'size'");
  // The window is unrolled into one slice per tap.
  constexpr int64_t kMaxSize = 256;
  int64_t size = *sizeAttr;
  if (size < 1 || size > kMaxSize)
    return fail("size " + Twine(size) + " is not in [1, " + Twine(kMaxSize) +
                "]");
  float alpha = attrFloat("alpha").value_or(1e-4f);
  float beta = attrFloat("beta").value_or(0.75f);
  float bias = attrFloat("bias").value_or(1.0f);
  if (!std::isfinite(alpha) || !std::isfinite(beta) || !std::isfinite(bias))
    return fail("alpha, beta and bias must be finite");
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  if (v.shape.size() < 2)
    return fail("LRN needs an input of rank 2 or more");
  if (v.holdsIntegers())
    return fail("LRN of an integer tensor");
  // Across the channels, in the layout the value has.
  bool nhwc = v.nhwc && v.shape.size() == 4;
  auto x = floatValue(v, nhwc);
  if (failed(x))
    return failure();
  auto type = cast<RankedTensorType>(x->getType());
  ArrayRef<int64_t> shape = type.getShape();
  int64_t rank = shape.size(), axis = nhwc ? 3 : 1;
  Value squares = elementwise(*this, {*x}, shape,
                              [](OpBuilder &nb, Location l, ValueRange a) {
                                return arith::MulFOp::create(nb, l, a[0], a[0]);
                              });
  // square_sum[c] = sum of squares over [c - (size-1)/2, c + ceil((size-1)/2)]
  // clipped to the channels: zero padding, then the taps in ascending order.
  SmallVector<OpFoldResult> low(rank, b.getIndexAttr(0)),
      high(rank, b.getIndexAttr(0));
  low[axis] = b.getIndexAttr((size - 1) / 2);
  high[axis] = b.getIndexAttr(size / 2);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  SmallVector<int64_t> paddedShape(shape);
  paddedShape[axis] += size - 1;
  Value padded =
      tensor::PadOp::create(
          b, loc, RankedTensorType::get(paddedShape, type.getElementType()),
          squares, low, high, zero)
          .getResult();
  Value sum;
  for (int64_t tap = 0; tap < size; ++tap) {
    SmallVector<int64_t> offsets(rank, 0), strides(rank, 1);
    offsets[axis] = tap;
    Value slice = tensor::ExtractSliceOp::create(
        b, loc, type, padded, ValueRange{}, ValueRange{}, ValueRange{}, offsets,
        shape, strides);
    sum = !sum ? slice
               : elementwise(*this, {sum, slice}, shape,
                             [](OpBuilder &nb, Location l, ValueRange a) {
                               return arith::AddFOp::create(nb, l, a[0], a[1]);
                             });
  }
  // y = x / (bias + alpha / size * square_sum)^beta.
  float scale = alpha / float(size);
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  out.nhwc = nhwc;
  out.value = elementwise(
      *this, {*x, sum}, shape, [&](OpBuilder &nb, Location l, ValueRange a) {
        auto constant = [&](float c) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(c));
        };
        Value base = arith::AddFOp::create(
            nb, l, constant(bias),
            arith::MulFOp::create(nb, l, constant(scale), a[1]));
        return arith::DivFOp::create(
            nb, l, a[0], math::PowFOp::create(nb, l, base, constant(beta)));
      });
  setOutput(0, std::move(out));
  return success();
}

FailureOr<Value> Importer::floatConcat(MutableArrayRef<ImportedValue> operands,
                                       int64_t axis) {
  SmallVector<Value> values;
  for (ImportedValue &v : operands) {
    auto f = floatValue(v, /*nhwc=*/false);
    if (failed(f))
      return failure();
    values.push_back(*f);
  }
  return tensor::ConcatOp::create(b, loc, axis, nonEmptyParts(values, axis))
      .getResult();
}

LogicalResult Importer::importFloatConv(ImportedValue &x,
                                        const ImportedValue &w,
                                        const PendingInfo &p,
                                        unsigned biasIdx) {
  if (x.holdsIntegers())
    return fail("Conv of an integer tensor");
  auto reals = weightReals(*this, w);
  if (failed(reals))
    return failure();
  int64_t f = w.shape[0], cg = w.shape[1], kh = w.shape[2], kw = w.shape[3];
  int64_t groups = p.groups, fg = f / groups;
  // Weights HWCF (C the channels of one group), from OIHW.
  Type f32 = Float32Type::get(ctx);
  std::vector<float> hwcf(reals->size());
  for (int64_t o = 0; o < f; ++o)
    for (int64_t c = 0; c < cg; ++c)
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j)
          hwcf[((i * kw + j) * cg + c) * f + o] =
              (*reals)[((o * cg + c) * kh + i) * kw + j];
  // F = g * Fg + fg is the innermost dimension: the same data as
  // KH x KW x C x G x Fg, which keeps every loop a plain dimension.
  auto wType = RankedTensorType::get({kh, kw, cg, groups, fg}, f32);
  Value wv = arith::ConstantOp::create(
      b, loc, wType, DenseElementsAttr::get(wType, ArrayRef<float>(hwcf)));
  auto in = floatValue(x, /*nhwc=*/true);
  if (failed(in))
    return failure();
  // Real zero in the padding.
  Value src = padSpatialNhwc(*in, p.padding, 0.0f);
  int64_t oh = (x.shape[2] + p.padding[0] + p.padding[1] -
                ((kh - 1) * p.dilations[0] + 1)) /
                   p.strides[0] +
               1;
  int64_t ow = (x.shape[3] + p.padding[2] + p.padding[3] -
                ((kw - 1) * p.dilations[1] + 1)) /
                   p.strides[1] +
               1;
  // The input's channels as G x C (groups outermost, as ONNX orders them).
  {
    auto type = cast<RankedTensorType>(src.getType());
    src = reshape(src, {type.getDimSize(0), type.getDimSize(1),
                        type.getDimSize(2), groups, cg});
  }
  // Loops (n, oh, ow, g, fg, kh, kw, c): sums over the window and the
  // group's channels in that order, a product then an add.
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = {
      AffineMap::get(8, 0,
                     {d(0), d(1) * p.strides[0] + d(5) * p.dilations[0],
                      d(2) * p.strides[1] + d(6) * p.dilations[1], d(3), d(7)},
                     ctx),
      AffineMap::get(8, 0, {d(5), d(6), d(7), d(3), d(4)}, ctx),
      AffineMap::get(8, 0, {d(0), d(1), d(2), d(3), d(4)}, ctx)};
  SmallVector<utils::IteratorType> iters(5, utils::IteratorType::parallel);
  iters.append(3, utils::IteratorType::reduction);
  SmallVector<int64_t> shape = {x.shape[0], oh, ow, f};
  SmallVector<int64_t> groupedShape = {x.shape[0], oh, ow, groups, fg};
  Value y = sumOfProducts(*this, src, wv, maps, iters, groupedShape);
  y = reshape(y, shape);
  if (hasInput(biasIdx)) {
    auto bias = input(biasIdx);
    if (failed(bias))
      return failure();
    ImportedValue &bias1 = **bias;
    auto bType = RankedTensorType::get({1, 1, 1, f}, f32);
    Value bv;
    if (bias1.codes || (bias1.kind == Kind::Const && !bias1.f.empty())) {
      auto biasReals = weightReals(*this, bias1);
      if (failed(biasReals))
        return failure();
      if (int64_t(biasReals->size()) != f)
        return fail("bias has " + Twine(biasReals->size()) +
                    " elements, expected " + Twine(f));
      bv = arith::ConstantOp::create(
          b, loc, bType,
          DenseElementsAttr::get(bType, ArrayRef<float>(*biasReals)));
    } else {
      // A bias computed at run time (a float tensor of F values).
      if (bias1.holdsIntegers())
        return fail("the bias must be a float tensor");
      if (bias1.shape.size() != 1 || bias1.shape[0] != f)
        return fail("bias of shape " + joinedDims(bias1.shape) +
                    ", expected [" + Twine(f) + "]");
      auto run = floatValue(bias1, /*nhwc=*/false);
      if (failed(run))
        return failure();
      bv = reshape(*run, {1, 1, 1, f});
    }
    y = elementwise(*this, {y, bv}, shape,
                    [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                      return arith::AddFOp::create(nb, l, a[0], a[1]);
                    });
  }
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = {x.shape[0], f, oh, ow};
  out.nhwc = true;
  out.value = y;
  if (!p.resultShape.empty()) // a 1-D conv: N x F x L
    viewAs(out, p.resultShape);
  setOutput(0, std::move(out));
  return success();
}

Value Importer::padSpatialNhwc(Value nhwc, ArrayRef<int64_t> padding,
                               float value) {
  if (llvm::all_of(padding, [](int64_t v) { return v == 0; }))
    return nhwc;
  auto type = cast<RankedTensorType>(nhwc.getType());
  SmallVector<int64_t> padded(type.getShape());
  padded[1] += padding[0] + padding[1];
  padded[2] += padding[2] + padding[3];
  SmallVector<OpFoldResult> low = {b.getIndexAttr(0),
                                   b.getIndexAttr(padding[0]),
                                   b.getIndexAttr(padding[2]),
                                   b.getIndexAttr(0)},
                            high = {
                                b.getIndexAttr(0), b.getIndexAttr(padding[1]),
                                b.getIndexAttr(padding[3]), b.getIndexAttr(0)};
  Value pad = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
  return tensor::PadOp::create(
             b, loc, RankedTensorType::get(padded, type.getElementType()), nhwc,
             low, high, pad)
      .getResult();
}
