//===- QuantizeOps.cpp - QuantizeLinear, DequantizeLinear
//------------------===//
//
// DequantizeLinear does not leave integers: its result is the same codes,
// read as reals (Kind::Dequant). QuantizeLinear decides what a pending
// float result becomes: its output type and clamp close a fused
// contraction / add / pool with one qnt.requantize (or the op's own output
// type). Q of a constant is computed here, at compile time, exactly as ONNX
// defines it.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Quant/IR/Quant.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

int32_t quantopt::onnx_import::detail::codeElementType(const QParams &q) {
  if (q.width == 32)
    return onnx::TensorProto::INT32;
  if (q.width == 16)
    return q.isSigned ? onnx::TensorProto::INT16 : onnx::TensorProto::UINT16;
  return q.isSigned ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
}

int64_t quantopt::onnx_import::detail::quantizeLinear(double x, double scale,
                                                      int64_t zp,
                                                      const QParams &q) {
  // ONNX Runtime divides in f32 and rounds half to even.
  float r = float(x) / float(scale);
  if (std::isnan(r))
    return std::clamp<int64_t>(zp, q.qmin(), q.qmax());
  double rounded = std::nearbyint(double(r)) + double(zp);
  if (rounded < double(q.qmin()))
    return q.qmin();
  if (rounded > double(q.qmax()))
    return q.qmax();
  return int64_t(rounded);
}

FailureOr<QParams> Importer::readQParams(unsigned scaleIdx, unsigned zpIdx,
                                         int64_t rank, int32_t defaultType,
                                         bool readsFourBit) {
  auto s = input(scaleIdx);
  if (failed(s))
    return failure();
  if ((*s)->kind != Kind::Const || (*s)->f.empty())
    return fail("the scale (input " + Twine(scaleIdx) +
                ") must be a compile-time float tensor");
  // ONNX's scale is float (float16 and bfloat16 from opset 19), a scalar
  // or a 1-D tensor; ONNX Runtime refuses a double scale and treats a
  // [1, 1] one as a per-axis scale of the wrong rank.
  int32_t scaleType = (*s)->dtype;
  if (scaleType != onnx::TensorProto::FLOAT &&
      scaleType != onnx::TensorProto::FLOAT16 &&
      scaleType != onnx::TensorProto::BFLOAT16)
    return fail("the scale (input " + Twine(scaleIdx) +
                ") must be float, float16 or bfloat16, not " +
                elementTypeName(scaleType));
  if ((*s)->shape.size() > 1)
    return fail("the scale (input " + Twine(scaleIdx) +
                ") must be a scalar or a 1-D tensor, not of rank " +
                Twine((*s)->shape.size()));
  QParams q;
  q.scales = (*s)->f;
  for (double x : q.scales) {
    if (!(x > 0) || !std::isfinite(x))
      return fail("scale " + str(x) + " is not positive and finite");
    // A float64 initializer can hold scales that no f32 type can.
    if (x < std::numeric_limits<float>::denorm_min() ||
        x > std::numeric_limits<float>::max())
      return fail("scale " + str(x) + " is outside the range of f32");
  }
  int32_t zpType = defaultType;
  if (hasInput(zpIdx)) {
    auto z = input(zpIdx);
    if (failed(z))
      return failure();
    if ((*z)->kind != Kind::Const || !(*z)->f.empty())
      return fail("the zero point (input " + Twine(zpIdx) +
                  ") must be a compile-time integer tensor");
    if ((*z)->shape.size() > 1)
      return fail("the zero point (input " + Twine(zpIdx) +
                  ") must be a scalar or a 1-D tensor, not of rank " +
                  Twine((*z)->shape.size()));
    zpType = (*z)->dtype;
    q.zeroPoints = (*z)->i;
  } else {
    q.zeroPoints.assign(q.scales.size(), 0);
  }
  if (isFourBitType(zpType) && !readsFourBit)
    return fail("int4 / uint4 codes are not produced (only read: "
                "DequantizeLinear of a 4-bit constant)");
  switch (zpType) {
  // 4-bit codes (in [-8, 7] or [0, 15]) on 8-bit storage: the same values.
  case kOnnxInt4:
  case onnx::TensorProto::INT8:
    q.width = 8, q.isSigned = true;
    break;
  case kOnnxUInt4:
  case onnx::TensorProto::UINT8:
    q.width = 8, q.isSigned = false;
    break;
  case onnx::TensorProto::INT16:
    q.width = 16, q.isSigned = true;
    break;
  case onnx::TensorProto::UINT16:
    // The contract's storage types are i8, u8 and i16 (and i32 for
    // accumulators): no qnt op produces or reads u16 codes.
    return fail("uint16 codes are not supported: quantized storage types "
                "are int8, uint8 and int16 (int32 for biases)");
  case onnx::TensorProto::INT32:
    q.width = 32, q.isSigned = true;
    break;
  default:
    return fail("unsupported zero-point element type " + Twine(zpType));
  }
  if (q.zeroPoints.size() != q.scales.size())
    return fail("scale and zero point have different sizes (" +
                Twine(q.scales.size()) + " vs " + Twine(q.zeroPoints.size()) +
                ")");
  for (int64_t z : q.zeroPoints)
    if (z < q.qmin() || z > q.qmax())
      return fail("zero point " + Twine(z) + " is outside the storage range");
  // A one-element scale is per tensor, as ONNX Runtime reads it.
  if (q.scales.size() > 1) {
    int64_t axis = attrInt("axis").value_or(1);
    if (axis < -rank || axis >= rank)
      return fail("axis " + Twine(axis) + " out of range for rank " +
                  Twine(rank));
    q.axis = axis < 0 ? axis + rank : axis;
  }
  return q;
}

std::pair<int64_t, int64_t> Importer::clampCodes(const PendingInfo &p,
                                                 const QParams &out) const {
  int64_t lo = out.qmin(), hi = out.qmax();
  // Rounding is monotone, so Q(clip(x, a, b)) = clip(Q(x), Q(a), Q(b)).
  if (std::isfinite(p.lo))
    lo = std::max(lo,
                  quantizeLinear(p.lo, out.scales[0], out.zeroPoints[0], out));
  if (std::isfinite(p.hi))
    hi = std::min(hi,
                  quantizeLinear(p.hi, out.scales[0], out.zeroPoints[0], out));
  return {lo, hi};
}

Value Importer::requantize(Value in, Type resultType, int64_t lo, int64_t hi,
                           const QParams &out) {
  DenseI64ArrayAttr clamp;
  if (lo != out.qmin() || hi != out.qmax())
    clamp = b.getDenseI64ArrayAttr({lo, hi});
  return qnt::RequantizeOp::create(b, loc, resultType, in,
                                   options.rounding, clamp)
      .getResult();
}

Value Importer::regrid(Value in, Type resultType, int64_t lo, int64_t hi,
                       const QParams &out) {
  if (options.rounding != qnt::RoundingMode::Float)
    return requantize(in, resultType, lo, hi, out);
  // A qnt.requantize by the f32 ratio S_in / S_out rounds once where the
  // graph rounds twice (the product, then the quotient): one step apart
  // near ties.
  auto inType = cast<RankedTensorType>(in.getType());
  Value real = qnt::DequantizeOp::create(
      b, loc, RankedTensorType::get(inType.getShape(), b.getF32Type()), in);
  Value codes = qnt::QuantizeOp::create(b, loc, resultType, real);
  if (lo == out.qmin() && hi == out.qmax())
    return codes;
  // Relu / Clip between the pair: quantization is monotone, so clamping
  // the codes to the quantized bounds is clamping the real value first
  // (a requantize by exactly 1 on the same grid).
  return requantize(codes, resultType, lo, hi, out);
}

/// Checks that `v` carries the codes of `q`'s storage type.
static bool sameStorage(const QParams &a, const QParams &b) {
  return a.width == b.width && a.isSigned == b.isSigned;
}

ImportedValue Importer::quantizeFloat(const ImportedValue &real,
                                      const QParams &out) {
  ImportedValue res = real;
  res.kind = Kind::Quant;
  res.q = out;
  res.dtype = codeElementType(out);
  res.value = qnt::QuantizeOp::create(b, loc, quantTensorType(res), real.value);
  return res;
}

bool Importer::floatBiasTooCoarse(const PendingInfo &p,
                                  const QParams &out) const {
  if (!p.floatBias || out.perAxis() || p.operands.size() != 2)
    return false;
  const QParams &xq = p.operands[0].q, &wq = p.operands[1].q;
  // Rounding the bias to S_X * S_W moves it by up to half that step.
  for (double sw : wq.scales)
    if (xq.scales[0] * sw >= out.scales[0])
      return true;
  return false;
}

FailureOr<ImportedValue> Importer::emitPending(ImportedValue &v,
                                               const QParams &out) {
  PendingInfo &p = *v.pending;
  if (out.perAxis() && (std::isfinite(p.lo) || std::isfinite(p.hi)))
    return fail("a per-axis QuantizeLinear after Relu / Clip is not "
                "supported");
  switch (p.op) {
  case PendingOp::Contraction:
    if (floatBiasTooCoarse(p, out)) {
      // The int32 bias at S_X * S_W would move the result by half an output
      // step or more (a layer whose input range collapsed to one value):
      // the contraction and its float bias in f32, quantized once, as the
      // QDQ graph defines them.
      auto real = emitFloat(v);
      if (failed(real))
        return failure();
      return quantizeFloat(*real, out);
    }
    return emitContraction(p, &out);
  case PendingOp::Add:
    return emitAdd(p, out);
  case PendingOp::AvgPool:
    return emitAvgPool(p, out);
  case PendingOp::Concat:
    return emitConcat(p, out);
  case PendingOp::Clamp: {
    ImportedValue &src = p.operands[0];
    ImportedValue res = src;
    res.kind = Kind::Quant;
    res.q = out;
    res.codes.reset();
    if (src.codes) {
      // Constant in, constant out.
      if (src.q.perAxis())
        return fail("Relu / Clip on per-axis constants is not supported");
      std::vector<int64_t> codes;
      auto [lo, hi] = clampCodes(p, out);
      for (int64_t c : *src.codes) {
        double real = double(c - src.q.zeroPoints[0]) * src.q.scales[0];
        codes.push_back(std::clamp(
            quantizeLinear(real, out.scales[0], out.zeroPoints[0], out), lo,
            hi));
      }
      res.codes = std::move(codes);
      return res;
    }
    auto in = quantValue(src, src.nhwc);
    if (failed(in))
      return failure();
    res.nhwc = src.nhwc;
    auto [lo, hi] = clampCodes(p, out);
    res.value = src.q == out
                    ? requantize(*in, quantTensorType(res), lo, hi, out)
                    : regrid(*in, quantTensorType(res), lo, hi, out);
    return res;
  }
  }
  return failure();
}

LogicalResult Importer::settle(ImportedValue &v) {
  if (v.kind != Kind::Pending || v.pending->op != PendingOp::Clamp)
    return failure();
  // Relu / Clip straight on dequantized codes keeps the grid when its
  // bounds are grid points (Relu: the zero point).
  ImportedValue &src = v.pending->operands[0];
  // int32 codes have no quantized activation type to stay on (a Relu on a
  // dequantized accumulator runs in float, or in the requantize of the
  // QuantizeLinear after it).
  if (src.q.perAxis() || src.q.width == 32)
    return failure();
  auto [lo, hi] = clampCodes(*v.pending, src.q);
  auto exact = [&](double bound, int64_t code) {
    return !std::isfinite(bound) ||
           double(code - src.q.zeroPoints[0]) * src.q.scales[0] == bound ||
           code == src.q.qmin() || code == src.q.qmax();
  };
  if (!exact(v.pending->lo, lo) || !exact(v.pending->hi, hi))
    return failure();
  QParams q = src.q;
  auto settled = emitPending(v, q);
  if (failed(settled))
    return failure();
  settled->kind = Kind::Dequant;
  v = std::move(*settled);
  return success();
}

FailureOr<ImportedValue *> Importer::requireQuantized(unsigned idx,
                                                      StringRef what) {
  auto in = input(idx);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  if (v.isQuantized() || succeeded(settle(v)))
    return &v;
  if (v.kind == Kind::Pending)
    return fail(what + " is a float result that no QuantizeLinear brings "
                       "back to integers (a float island, not supported); "
                       "add QuantizeLinear / DequantizeLinear before the "
                       "node");
  if (v.kind == Kind::Float)
    return fail(what + " is a float tensor without DequantizeLinear (a "
                       "float island, not supported)");
  if (v.kind == Kind::Const)
    return fail(what + " is a float constant without QuantizeLinear / "
                       "DequantizeLinear");
  return fail(what + " is a raw integer tensor");
}

LogicalResult Importer::importQuantizeLinear() {
  if (failed(checkAttrs({"axis", "saturate"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  ImportedValue &in = **x;
  auto q = readQParams(1, 2, in.shape.size());
  if (failed(q))
    return failure();
  if (q->width == 32)
    return fail("QuantizeLinear to int32 is not supported");
  if (q->perAxis() && q->scales.size() != size_t(in.shape[q->axis]))
    return fail("per-axis scale has " + Twine(q->scales.size()) +
                " elements, the axis has " + Twine(in.shape[q->axis]));
  ImportedValue out;
  out.kind = Kind::Quant;
  out.shape = in.shape;
  out.q = *q;
  out.dtype = q->isSigned ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
  switch (in.kind) {
  case Kind::Const: {
    if (in.f.empty())
      return fail("QuantizeLinear of an integer constant");
    std::vector<int64_t> codes(in.f.size());
    int64_t inner = 1, channels = 1;
    if (q->perAxis()) {
      channels = in.shape[q->axis];
      for (size_t d = q->axis + 1; d < in.shape.size(); ++d)
        inner *= in.shape[d];
    }
    for (size_t n = 0; n < codes.size(); ++n) {
      size_t c = q->perAxis() ? (n / inner) % channels : 0;
      codes[n] = quantizeLinear(in.f[n], q->scales[c], q->zeroPoints[c], *q);
    }
    out.codes = std::move(codes);
    break;
  }
  case Kind::Float: {
    out.nhwc = in.nhwc;
    auto f = floatValue(in, in.nhwc);
    if (failed(f))
      return failure();
    out.value =
        qnt::QuantizeOp::create(b, loc, quantTensorType(out), *f).getResult();
    break;
  }
  case Kind::Quant:
  case Kind::Dequant: {
    if (in.q == *q) {
      out = in;
      out.kind = Kind::Quant;
      break;
    }
    if (in.q.perAxis() || q->perAxis())
      return fail("requantizing between per-axis parameters is not "
                  "supported");
    PendingInfo p;
    p.op = PendingOp::Clamp;
    p.operands.push_back(in);
    ImportedValue pend;
    pend.kind = Kind::Pending;
    pend.pending = std::make_shared<PendingInfo>(std::move(p));
    auto r = emitPending(pend, *q);
    if (failed(r))
      return failure();
    out = std::move(*r);
    break;
  }
  case Kind::Pending: {
    auto r = emitPending(in, *q);
    if (failed(r))
      return failure();
    out = std::move(*r);
    out.kind = Kind::Quant;
    break;
  }
  case Kind::Int:
    return fail("QuantizeLinear of an integer tensor");
  case Kind::Sequence:
    return fail("QuantizeLinear of a sequence");
  }
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importDequantizeLinear() {
  if (failed(checkAttrs({"axis", "block_size"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  if (attrInt("block_size").value_or(0) != 0)
    return importBlockDequantizeLinear(**x);
  if (hasInput(1)) {
    auto scale = input(1);
    if (failed(scale))
      return failure();
    if ((*scale)->kind != Kind::Const)
      return importDequantizeLinearDynamic();
  }
  ImportedValue in = **x;
  int32_t inType = in.dtype;
  if (in.isQuantized())
    inType = codeElementType(in.q);
  // 4-bit codes read as 8-bit ones: the zero point must still have their
  // own type.
  if (hasInput(2)) {
    auto z = input(2);
    if (failed(z))
      return failure();
    if ((isFourBitType((*z)->dtype) || isFourBitType(inType)) &&
        (*z)->dtype != inType)
      return fail("the input's element type does not match the zero "
                  "point's");
  }
  auto q = readQParams(1, 2, in.shape.size(), inType, /*readsFourBit=*/true);
  if (failed(q))
    return failure();
  if (q->perAxis() && q->scales.size() != size_t(in.shape[q->axis]))
    return fail("per-axis scale has " + Twine(q->scales.size()) +
                " elements, the axis has " + Twine(in.shape[q->axis]));
  ImportedValue out = in;
  out.kind = Kind::Dequant;
  out.q = *q;
  out.dtype = onnx::TensorProto::FLOAT;
  switch (in.kind) {
  case Kind::Const: {
    if (!in.f.empty())
      return fail("DequantizeLinear of a float constant");
    int32_t codeType = in.dtype == kOnnxInt4    ? onnx::TensorProto::INT8
                       : in.dtype == kOnnxUInt4 ? onnx::TensorProto::UINT8
                                                : in.dtype;
    if (codeType != codeElementType(*q))
      return fail("the input's element type does not match the zero "
                  "point's");
    out.codes = in.i;
    out.i.clear();
    break;
  }
  case Kind::Quant:
  case Kind::Dequant: {
    if (!sameStorage(in.q, *q))
      return fail("the input's element type does not match the zero "
                  "point's");
    if (in.q == *q || in.codes)
      break;
    // Same codes, other parameters: relabel the storage.
    auto v = quantValue(in, in.nhwc);
    if (failed(v))
      return failure();
    auto raw = quant::StorageCastOp::create(
        b, loc, RankedTensorType::get(physicalShape(in), storageIntType(in.q)),
        *v);
    out.nhwc = in.nhwc;
    out.value = quant::StorageCastOp::create(b, loc, quantTensorType(out), raw);
    break;
  }
  case Kind::Int: {
    bool isSignedInput = in.dtype == onnx::TensorProto::INT8 ||
                         in.dtype == onnx::TensorProto::INT16 ||
                         in.dtype == onnx::TensorProto::INT32;
    auto type = cast<RankedTensorType>(in.value.getType());
    if (type.getElementType() != storageIntType(*q) ||
        isSignedInput != q->isSigned)
      return fail("the input's element type does not match the zero "
                  "point's");
    out.value =
        quant::StorageCastOp::create(b, loc, quantTensorType(out), in.value);
    break;
  }
  case Kind::Float:
  case Kind::Pending:
    return fail("DequantizeLinear of a float tensor");
  case Kind::Sequence:
    return fail("DequantizeLinear of a sequence");
  }
  setOutput(0, std::move(out));
  return success();
}

/// DequantizeLinear with `block_size` (opset 21) of a compile-time integer
/// tensor (block-quantized weights, int4 or int8): the real values, computed
/// here as the operator defines them, y = (x - zero_point) * scale of x's
/// block along `axis` (the difference exact, the product rounded once to
/// f32, ONNX Runtime's order). The result is a float constant: its
/// consumers take f32 weights (a float MatMul, Gemm or Conv), as
/// MatMulNBits' are.
LogicalResult Importer::importBlockDequantizeLinear(const ImportedValue &in) {
  constexpr int64_t kMaxBlockElements = int64_t(1) << 26;
  int64_t blockSize = *attrInt("block_size");
  if (blockSize < 0)
    return fail("block_size must be positive, not " + Twine(blockSize));
  if (in.kind != Kind::Const || !in.f.empty())
    return fail("block quantization (block_size) is supported for "
                "compile-time integer tensors (weights) only");
  int64_t rank = in.shape.size();
  if (rank == 0)
    return fail("block quantization needs an input of rank 1 or more");
  if (in.numElements() > kMaxBlockElements)
    return fail("more than 2^26 block-quantized elements");
  int64_t axis = attrInt("axis").value_or(1);
  if (axis < -rank || axis >= rank)
    return fail("axis " + Twine(axis) + " out of range for rank " +
                Twine(rank));
  if (axis < 0)
    axis += rank;
  SmallVector<int64_t> blockShape(in.shape);
  blockShape[axis] =
      in.shape[axis] / blockSize + (in.shape[axis] % blockSize != 0);
  auto s = input(1);
  if (failed(s))
    return failure();
  const ImportedValue &scale = **s;
  if (scale.kind != Kind::Const || scale.f.empty() ||
      ArrayRef<int64_t>(scale.shape) != ArrayRef<int64_t>(blockShape))
    return fail("the scale must be a compile-time float tensor of shape " +
                joinedDims(blockShape) + " (the input's, with " +
                Twine(blockShape[axis]) + " blocks of " + Twine(blockSize) +
                " along axis " + Twine(axis) + ")");
  for (double x : scale.f)
    if (!(x > 0) || !std::isfinite(x) ||
        x < std::numeric_limits<float>::denorm_min() ||
        x > std::numeric_limits<float>::max())
      return fail("scale " + str(x) + " is not a positive f32");
  std::vector<int64_t> zeroPoints(scale.f.size(), 0);
  if (hasInput(2)) {
    auto z = input(2);
    if (failed(z))
      return failure();
    if ((*z)->kind != Kind::Const || !(*z)->f.empty() ||
        (*z)->dtype != in.dtype ||
        ArrayRef<int64_t>((*z)->shape) != ArrayRef<int64_t>(blockShape))
      return fail("the zero point must be a compile-time tensor of the "
                  "input's element type and the scale's shape");
    zeroPoints = (*z)->i;
  }
  // Row-major walk: element e's block index replaces its axis coordinate
  // c by c / blockSize.
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= in.shape[d];
  int64_t axisSize = in.shape[axis], blocks = blockShape[axis];
  ImportedValue out;
  out.kind = Kind::Const;
  out.dtype = onnx::TensorProto::FLOAT;
  out.shape = in.shape;
  out.f.resize(in.i.size());
  for (size_t e = 0; e < in.i.size(); ++e) {
    int64_t outer = int64_t(e) / (axisSize * inner);
    int64_t c = int64_t(e) / inner % axisSize, rest = int64_t(e) % inner;
    size_t b = (outer * blocks + c / blockSize) * inner + rest;
    out.f[e] = double(float(in.i[e] - zeroPoints[b]) * float(scale.f[b]));
  }
  setOutput(0, std::move(out));
  return success();
}
