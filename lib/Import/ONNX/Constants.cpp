//===- Constants.cpp - initializers, Constant and shape arithmetic --------===//
//
// Compile-time tensors. torch writes a dynamic batch as a shape subgraph
// (Shape -> Gather -> Unsqueeze -> Concat -> Reshape); once the input shapes
// are fixed, these fold here and never reach the IR.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

static bool isFloatType(int32_t t) {
  return t == onnx::TensorProto::FLOAT || t == onnx::TensorProto::DOUBLE;
}

/// Bytes per element of the element types readTensor reads; 0 for others.
static int64_t elementBytes(int32_t type) {
  switch (type) {
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::BOOL:
    return 1;
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return 2;
  case onnx::TensorProto::FLOAT:
  case onnx::TensorProto::INT32:
    return 4;
  case onnx::TensorProto::DOUBLE:
  case onnx::TensorProto::INT64:
    return 8;
  default:
    return 0;
  }
}

/// Reads `n` little-endian values of type T from `raw` straight into `out`
/// (no intermediate vector: external tensors can be large).
template <typename T, typename Out>
static bool readRaw(llvm::StringRef raw, int64_t n, std::vector<Out> &out) {
  if (int64_t(raw.size()) != n * int64_t(sizeof(T)))
    return false;
  out.resize(n);
  for (int64_t i = 0; i < n; ++i) {
    T value;
    std::memcpy(&value, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = value;
  }
  return true;
}

FailureOr<ImportedValue> Importer::readTensor(const onnx::TensorProto &t) {
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = t.data_type();
  int64_t n = 1;
  for (int64_t d : t.dims()) {
    if (d < 0 || d > (int64_t(1) << 31))
      return fail("tensor '" + t.name() + "' has an invalid dimension");
    v.shape.push_back(d);
    n *= d;
    if (n > (int64_t(1) << 31))
      return fail("tensor '" + t.name() + "' is too large");
  }
  // External data (ExternalData.cpp) is raw_data kept in another file.
  bool external = t.data_location() == onnx::TensorProto::EXTERNAL;
  bool fourBit = isFourBitType(t.data_type());
  std::unique_ptr<llvm::MemoryBuffer> externalBytes;
  if (int64_t size = elementBytes(t.data_type());
      external && (size || fourBit)) {
    auto read = readExternalData(t, fourBit ? (n + 1) / 2 : n * size);
    if (failed(read))
      return failure();
    externalBytes = std::move(*read);
  }
  bool raw = external || t.has_raw_data();
  llvm::StringRef bytes = !external       ? llvm::StringRef(t.raw_data())
                          : externalBytes ? externalBytes->getBuffer()
                                          : llvm::StringRef();
  auto bad = [&]() {
    return fail("tensor '" + t.name() + "' holds " +
                "a different number of elements than its shape says");
  };
  switch (t.data_type()) {
  case onnx::TensorProto::FLOAT: {
    if (raw) {
      if (!readRaw<float>(bytes, n, v.f))
        return bad();
    } else {
      v.f.assign(t.float_data().begin(), t.float_data().end());
    }
    if (int64_t(v.f.size()) != n)
      return bad();
    return v;
  }
  case onnx::TensorProto::DOUBLE: {
    if (raw) {
      if (!readRaw<double>(bytes, n, v.f))
        return bad();
    } else {
      v.f.assign(t.double_data().begin(), t.double_data().end());
    }
    if (int64_t(v.f.size()) != n)
      return bad();
    return v;
  }
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
  case onnx::TensorProto::INT32:
  case onnx::TensorProto::BOOL: {
    if (raw) {
      bool ok;
      switch (t.data_type()) {
      case onnx::TensorProto::INT8:
        ok = readRaw<int8_t>(bytes, n, v.i);
        break;
      case onnx::TensorProto::UINT8:
      case onnx::TensorProto::BOOL:
        ok = readRaw<uint8_t>(bytes, n, v.i);
        break;
      case onnx::TensorProto::INT16:
        ok = readRaw<int16_t>(bytes, n, v.i);
        break;
      case onnx::TensorProto::UINT16:
        ok = readRaw<uint16_t>(bytes, n, v.i);
        break;
      default:
        ok = readRaw<int32_t>(bytes, n, v.i);
        break;
      }
      if (!ok)
        return bad();
    } else {
      // int32_data holds every type of 32 bits or less, one value per
      // int32. A value outside the element type's range is a malformed
      // tensor: narrowing it would silently give another number (300 as a
      // uint8 zero point would become 44).
      int64_t lo = INT32_MIN, hi = INT32_MAX;
      StringRef typeName = "int32";
      switch (t.data_type()) {
      case onnx::TensorProto::INT8:
        lo = INT8_MIN, hi = INT8_MAX, typeName = "int8";
        break;
      case onnx::TensorProto::UINT8:
        lo = 0, hi = UINT8_MAX, typeName = "uint8";
        break;
      case onnx::TensorProto::BOOL:
        lo = 0, hi = 1, typeName = "bool";
        break;
      case onnx::TensorProto::INT16:
        lo = INT16_MIN, hi = INT16_MAX, typeName = "int16";
        break;
      case onnx::TensorProto::UINT16:
        lo = 0, hi = UINT16_MAX, typeName = "uint16";
        break;
      default:
        break;
      }
      for (int32_t x : t.int32_data()) {
        if (x < lo || x > hi)
          return fail("tensor '" + t.name() + "' (" + typeName + ") holds " +
                      Twine(x) + " in int32_data, outside the type's range [" +
                      Twine(lo) + ", " + Twine(hi) + "]");
        v.i.push_back(x);
      }
    }
    if (int64_t(v.i.size()) != n)
      return bad();
    return v;
  }
  case kOnnxInt4:
  case kOnnxUInt4: {
    // Two elements to a byte, the first in the low nibble: raw_data, or
    // one byte per int32_data element.
    int64_t packedBytes = (n + 1) / 2;
    if (t.has_raw_data() && t.int32_data_size())
      return fail("tensor '" + t.name() +
                  "' holds both raw_data and int32_data");
    std::vector<uint8_t> packed;
    if (raw) {
      if (int64_t(bytes.size()) != packedBytes)
        return bad();
      packed.assign(bytes.bytes_begin(), bytes.bytes_end());
    } else {
      for (int32_t x : t.int32_data()) {
        if (x < INT8_MIN || x > UINT8_MAX)
          return fail("tensor '" + t.name() + "' (4-bit) holds " + Twine(x) +
                      " in int32_data, which is not a byte of two packed "
                      "elements");
        packed.push_back(uint8_t(x));
      }
      if (int64_t(packed.size()) != packedBytes)
        return bad();
    }
    bool isUnsigned = t.data_type() == kOnnxUInt4;
    v.i.reserve(n);
    for (int64_t k = 0; k < n; ++k)
      v.i.push_back(
          wrapToWidth((packed[k / 2] >> (4 * (k % 2))) & 0xF, 4, isUnsigned));
    return v;
  }
  case onnx::TensorProto::INT64: {
    if (raw) {
      if (!readRaw<int64_t>(bytes, n, v.i))
        return bad();
    } else {
      v.i.assign(t.int64_data().begin(), t.int64_data().end());
    }
    if (int64_t(v.i.size()) != n)
      return bad();
    return v;
  }
  default:
    return fail("tensor '" + t.name() + "' has unsupported element type " +
                Twine(t.data_type()));
  }
}

LogicalResult Importer::importConstantOp() {
  // ONNX: exactly one of value, value_float(s), value_int(s), ...
  if (node->attribute_size() != 1)
    return fail("a Constant node must have exactly one value attribute, it "
                "has " +
                Twine(node->attribute_size()));
  const onnx::TensorProto *t = attrTensor("value");
  if (!t) {
    if (auto x = attrFloat("value_float")) {
      ImportedValue v;
      v.kind = Kind::Const;
      v.f = {*x};
      setOutput(0, v);
      return success();
    }
    if (auto x = attrInt("value_int")) {
      ImportedValue v;
      v.kind = Kind::Const;
      v.dtype = onnx::TensorProto::INT64;
      v.i = {*x};
      setOutput(0, v);
      return success();
    }
    if (auto xs = attrInts("value_ints")) {
      ImportedValue v;
      v.kind = Kind::Const;
      v.dtype = onnx::TensorProto::INT64;
      v.i = *xs;
      v.shape = {int64_t(xs->size())};
      setOutput(0, v);
      return success();
    }
    if (auto xs = attrFloats("value_floats")) {
      ImportedValue v;
      v.kind = Kind::Const;
      v.f = *xs;
      v.shape = {int64_t(v.f.size())};
      setOutput(0, v);
      return success();
    }
    return fail("only tensor, float(s) and int(s) constants are supported");
  }
  auto v = readTensor(*t);
  if (failed(v))
    return failure();
  setOutput(0, std::move(*v));
  return success();
}

FailureOr<std::vector<int64_t>> Importer::constInts(unsigned idx) {
  auto in = input(idx);
  if (failed(in))
    return failure();
  if ((*in)->kind != Kind::Const || isFloatType((*in)->dtype))
    return fail("input " + Twine(idx) +
                " must be a compile-time integer tensor");
  return (*in)->i;
}

LogicalResult Importer::importShapeOp() {
  if (failed(checkAttrs({"start", "end"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  int64_t rank = (*in)->shape.size();
  int64_t start = attrInt("start").value_or(0);
  int64_t end = attrInt("end").value_or(rank);
  if (start < 0)
    start += rank;
  if (end < 0)
    end += rank;
  start = std::clamp<int64_t>(start, 0, rank);
  end = std::clamp<int64_t>(end, start, rank);
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = onnx::TensorProto::INT64;
  v.i.assign((*in)->shape.begin() + start, (*in)->shape.begin() + end);
  v.shape = {end - start};
  setOutput(0, v);
  return success();
}

LogicalResult Importer::importGatherOp() {
  if (failed(checkAttrs({"axis"})))
    return failure();
  auto data = input(0);
  auto indices =
      failed(data) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(data) || failed(indices))
    return failure();
  if ((*indices)->kind == Kind::Int)
    return importRuntimeGather(**data, **indices);
  auto idx = constInts(1);
  if (failed(idx))
    return failure();
  ImportedValue &d = **data;
  if (d.kind != Kind::Const || d.shape.size() != 1 ||
      attrInt("axis").value_or(0) != 0)
    return importConstIndexGather(d, **indices, *idx);
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = d.dtype;
  int64_t n = d.shape[0];
  for (int64_t k : *idx) {
    if (k < -n || k >= n)
      return fail("index " + Twine(k) + " out of range");
    int64_t at = k < 0 ? k + n : k;
    if (d.f.empty())
      v.i.push_back(d.i[at]);
    else
      v.f.push_back(d.f[at]);
  }
  v.shape = (*input(1))->shape;
  setOutput(0, v);
  return success();
}

/// Gather of compile-time indices from a tensor that is not 1-D shape data
/// (torch's `x[:, 0]`, a transformer's class token): the indices are
/// checked against the axis here, where ONNX calls an out-of-range one an
/// error, and the gather is the run-time one reading a constant.
LogicalResult Importer::importConstIndexGather(ImportedValue &data,
                                               const ImportedValue &indices,
                                               ArrayRef<int64_t> idx) {
  int64_t rank = data.shape.size();
  if (rank == 0)
    return fail("Gather from a scalar");
  auto axis = normalizedAxis(attrInt("axis").value_or(0), rank);
  if (failed(axis))
    return failure();
  int64_t n = data.shape[*axis];
  SmallVector<int64_t> at;
  for (int64_t k : idx) {
    if (k < -n || k >= n)
      return fail("index " + Twine(k) + " out of range for a dimension of " +
                  Twine(n));
    at.push_back(k < 0 ? k + n : k);
  }
  auto type = RankedTensorType::get(indices.shape, b.getI64Type());
  ImportedValue constant;
  constant.kind = Kind::Int;
  constant.dtype = onnx::TensorProto::INT64;
  constant.shape = indices.shape;
  constant.value = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(type, ArrayRef<int64_t>(at)));
  return importRuntimeGather(data, constant);
}

LogicalResult Importer::importUnsqueezeOp() {
  if (failed(checkAttrs({"axes"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  std::vector<int64_t> axes;
  if (auto a = attrInts("axes")) {
    axes = *a;
  } else {
    auto c = constInts(1);
    if (failed(c))
      return failure();
    axes = *c;
  }
  ImportedValue v = **in;
  int64_t rank = v.shape.size() + axes.size();
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank)
      return fail("axis out of range");
    if (a < 0)
      a += rank;
  }
  llvm::sort(axes);
  for (int64_t a : axes)
    v.shape.insert(v.shape.begin() + a, 1);
  if (v.kind == Kind::Const) {
    setOutput(0, v);
    return success();
  }
  // A reshape of the codes or the f32 value; a pending result settles on
  // its grid or runs in f32.
  (void)settle(**in);
  return setReshapedOutput(**in, v.shape);
}

/// The ONNX element type a value holds: its codes' type when quantized.
static int32_t elementTypeOf(const ImportedValue &v) {
  if (v.kind == Kind::Quant)
    return codeElementType(v.q);
  if (v.kind == Kind::Dequant || v.kind == Kind::Pending)
    return onnx::TensorProto::FLOAT;
  return v.dtype;
}

/// A run-time f32 tensor converted to a signed integer type of `width`
/// bits as C converts (toward zero), with the cases C leaves undefined
/// defined: beyond the type's range saturated, NaN 0.
static Value floatToSignedInt(Importer &im, Value x, ArrayRef<int64_t> shape,
                              unsigned width) {
  Type elem = im.b.getIntegerType(width);
  // Clamped to [-2^(width-1), the largest f32 below 2^(width-1)], both
  // exact in f32 and in the type, every clamped value converts; from
  // 2^(width-1) up the result is the type's maximum (which f32 cannot hold
  // for 32 and 64 bits).
  float limit = std::ldexp(1.0f, width - 1);
  float hi = width <= 16 ? limit - 1 : std::nextafter(limit, 0.0f);
  float lo = -limit;
  return elementwise(
      im, {x}, shape,
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        auto constant = [&](float c) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(c));
        };
        // maxnumf / minnumf return the number where x is NaN; the select
        // below makes that 0.
        Value clamped = arith::MinNumFOp::create(
            nb, l, arith::MaxNumFOp::create(nb, l, a[0], constant(lo)),
            constant(hi));
        Value converted = arith::FPToSIOp::create(nb, l, elem, clamped);
        Value beyond = arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGE,
                                             a[0], constant(limit));
        converted = arith::SelectOp::create(
            nb, l, beyond,
            arith::ConstantOp::create(
                nb, l,
                nb.getIntegerAttr(elem, APInt::getSignedMaxValue(width))),
            converted);
        Value isNaN =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNO, a[0], a[0]);
        return arith::SelectOp::create(
            nb, l, isNaN,
            arith::ConstantOp::create(nb, l, nb.getIntegerAttr(elem, 0)),
            converted);
      },
      elem);
}

LogicalResult Importer::importSizeOp() {
  if (failed(checkAttrs({})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = onnx::TensorProto::INT64;
  v.i = {(*in)->numElements()};
  setOutput(0, std::move(v));
  return success();
}

LogicalResult Importer::importEyeLikeOp() {
  if (failed(checkAttrs({"dtype", "k"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  const ImportedValue &like = **in;
  if (like.shape.size() != 2)
    return fail("EyeLike needs a 2-D input");
  int64_t rows = like.shape[0], cols = like.shape[1];
  if (rows > 0 && cols > kMaxFoldedElements / rows)
    return fail("more than " + Twine(kMaxFoldedElements) +
                " elements (EyeLike folds at import)");
  int64_t k = attrInt("k").value_or(0);
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = attrInt("dtype").value_or(elementTypeOf(like));
  if (v.dtype == onnx::TensorProto::STRING)
    return fail("EyeLike of strings");
  v.shape = {rows, cols};
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      // c - r == k without overflow for any k.
      bool one = k >= -cols && k <= cols && c - r == k;
      if (isFloatType(v.dtype))
        v.f.push_back(one);
      else
        v.i.push_back(one);
    }
  setOutput(0, std::move(v));
  return success();
}

LogicalResult Importer::importCastOp() {
  bool like = node->op_type() == "CastLike";
  if (failed(like ? checkAttrs({"saturate"}) : checkAttrs({"saturate", "to"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  std::optional<int64_t> to;
  if (like) {
    // CastLike (opset 15): Cast to the element type of the second input.
    auto target = input(1);
    if (failed(target))
      return failure();
    to = elementTypeOf(**target);
  } else {
    to = attrInt("to");
  }
  if (!to)
    return fail("missing attribute 'to'");
  ImportedValue v = **in;
  if (v.kind != Kind::Const) {
    // torch exports QuantizeLinear -> Cast(uint8) -> DequantizeLinear: a
    // cast to the type a value already has moves nothing.
    if (elementTypeOf(v) == *to) {
      setOutput(0, std::move(v));
      return success();
    }
    if (*to == onnx::TensorProto::BOOL || v.dtype == onnx::TensorProto::BOOL)
      return runtimeBoolCast(v, *to);
    // Between integer types (RoBERTa's position ids, int32 -> int64):
    // sign-extended or truncated, as C's conversions of ONNX Runtime do.
    using onnx::TensorProto;
    if (v.kind == Kind::Int &&
        (*to == TensorProto::INT8 || *to == TensorProto::INT16 ||
         *to == TensorProto::INT32 || *to == TensorProto::INT64)) {
      Type from = cast<RankedTensorType>(v.value.getType()).getElementType();
      Type elem = b.getIntegerType(*to == TensorProto::INT64   ? 64
                                   : *to == TensorProto::INT32 ? 32
                                   : *to == TensorProto::INT16 ? 16
                                                               : 8);
      // uint8 values are held as i8 bits: they would need a zero extension.
      if (v.dtype != TensorProto::INT8 && v.dtype != TensorProto::INT16 &&
          v.dtype != TensorProto::INT32 && v.dtype != TensorProto::INT64)
        return fail("Cast of this run-time integer type is not supported");
      ImportedValue out = v;
      out.dtype = *to;
      out.value = elementwise(
          *this, {v.value}, physicalShape(v),
          [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
            unsigned have = from.getIntOrFloatBitWidth(),
                     want = elem.getIntOrFloatBitWidth();
            if (have < want)
              return arith::ExtSIOp::create(nb, l, elem, a[0]);
            if (have > want)
              return arith::TruncIOp::create(nb, l, elem, a[0]);
            return a[0];
          },
          elem);
      setOutput(0, std::move(out));
      return success();
    }
    // ONNX Runtime's dynamic quantization: MatMulInteger -> Cast(float).
    if (v.kind == Kind::Int && *to == onnx::TensorProto::FLOAT) {
      auto f = runtimeIntToF32(v);
      if (failed(f))
        return failure();
      ImportedValue out;
      out.kind = Kind::Float;
      out.dtype = onnx::TensorProto::FLOAT;
      out.shape = v.shape;
      out.value = *f;
      setOutput(0, std::move(out));
      return success();
    }
    // A run-time float to a signed integer (torch's x.long()). Not codes
    // (Kind::Quant): ONNX holds those as integers, not as their reals.
    if ((v.kind == Kind::Float || v.kind == Kind::Dequant ||
         v.kind == Kind::Pending) &&
        (*to == TensorProto::INT8 || *to == TensorProto::INT16 ||
         *to == TensorProto::INT32 || *to == TensorProto::INT64)) {
      auto f = floatValue(v, /*nhwc=*/false);
      if (failed(f))
        return failure();
      ImportedValue out;
      out.kind = Kind::Int;
      out.dtype = *to;
      out.shape = v.shape;
      unsigned width = *to == TensorProto::INT64   ? 64
                       : *to == TensorProto::INT32 ? 32
                       : *to == TensorProto::INT16 ? 16
                                                   : 8;
      out.value = floatToSignedInt(*this, *f, v.shape, width);
      setOutput(0, std::move(out));
      return success();
    }
    return fail("Cast to another element type is supported on compile-time "
                "tensors, from run-time integers to float and from run-time "
                "floats to signed integers only");
  }
  using onnx::TensorProto;
  bool toFloat = isFloatType(*to);
  if (toFloat && v.f.empty())
    v.f.assign(v.i.begin(), v.i.end());
  if (!toFloat && !v.f.empty()) {
    v.i.clear();
    for (double x : v.f) {
      // To bool: nonzero (NaN included) is true.
      if (*to == TensorProto::BOOL) {
        v.i.push_back(x != 0);
        continue;
      }
      // Converting a NaN or an out-of-range double is undefined in C++.
      if (!(std::fabs(x) < 0x1p63))
        return fail("Cast of " + str(x) + " to an integer type");
      v.i.push_back(int64_t(x));
    }
  }
  if (toFloat) {
    v.i.clear();
  } else {
    v.f.clear();
    // Wrapped to the target type, as C's conversions (and ONNX Runtime's)
    // truncate: int64 2^32 + 4 is int32 4, which shape arithmetic after the
    // Cast must see too.
    unsigned width =
        *to == TensorProto::INT8 || *to == TensorProto::UINT8     ? 8
        : *to == TensorProto::INT16 || *to == TensorProto::UINT16 ? 16
        : *to == TensorProto::INT32 || *to == TensorProto::UINT32 ? 32
                                                                  : 64;
    for (int64_t &x : v.i)
      x = *to == TensorProto::BOOL
              ? x != 0
              : wrapToWidth(x, width, isUnsignedIntType(*to));
  }
  v.dtype = *to;
  setOutput(0, v);
  return success();
}

LogicalResult Importer::importRangeOp() {
  if (failed(checkAttrs({})))
    return failure();
  // start, limit, delta: compile-time scalars of one type.
  const char *names[] = {"start", "limit", "delta"};
  const ImportedValue *in[3];
  for (int k = 0; k < 3; ++k) {
    auto v = scalarInput(k, names[k]);
    if (failed(v))
      return failure();
    in[k] = *v;
  }
  int32_t dtype = in[0]->dtype;
  if (in[1]->dtype != dtype || in[2]->dtype != dtype)
    return fail("start, limit and delta must have one element type");
  using onnx::TensorProto;
  if (dtype != TensorProto::FLOAT && dtype != TensorProto::DOUBLE &&
      dtype != TensorProto::INT16 && dtype != TensorProto::INT32 &&
      dtype != TensorProto::INT64)
    return fail("Range of this element type is not supported (float, "
                "double, int16, int32, int64)");
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = dtype;
  if (isFloatType(dtype)) {
    // ONNX's function body (a Loop adding delta to the previous value) and
    // ONNX Runtime's kernel accumulate in the element type.
    bool f32 = dtype == TensorProto::FLOAT;
    double start = in[0]->f[0], limit = in[1]->f[0], delta = in[2]->f[0];
    if (!std::isfinite(start) || !std::isfinite(limit) || !std::isfinite(delta))
      return fail("start, limit and delta must be finite");
    if (delta == 0)
      return fail("delta must not be 0");
    double span = f32 ? double(float(limit) - float(start)) : limit - start;
    double count = std::ceil(span / delta);
    if (!(count <= double(kMaxFoldedElements)))
      return fail("more than " + Twine(kMaxFoldedElements) +
                  " elements (Range folds at import)");
    double value = start;
    for (int64_t k = 0; k < int64_t(count); ++k) {
      v.f.push_back(value);
      value = f32 ? double(float(value) + float(delta)) : value + delta;
    }
  } else {
    __int128 start = in[0]->i[0], limit = in[1]->i[0], delta = in[2]->i[0];
    if (delta == 0)
      return fail("delta must not be 0");
    // ceil((limit - start) / delta), exactly.
    __int128 span = limit - start;
    __int128 count =
        span / delta + ((span % delta != 0) && ((span > 0) == (delta > 0)));
    if (count > kMaxFoldedElements)
      return fail("more than " + Twine(kMaxFoldedElements) +
                  " elements (Range folds at import)");
    for (__int128 k = 0; k < count; ++k)
      v.i.push_back(int64_t(start + k * delta));
  }
  v.shape = {int64_t(isFloatType(dtype) ? v.f.size() : v.i.size())};
  setOutput(0, std::move(v));
  return success();
}

LogicalResult Importer::runtimeBoolCast(ImportedValue &v, int32_t to) {
  using onnx::TensorProto;
  bool fromBool = v.kind == Kind::Int && v.dtype == TensorProto::BOOL;
  ImportedValue out;
  out.kind = Kind::Int;
  out.shape = v.shape;
  if (to == TensorProto::BOOL) {
    // Nonzero is true (NaN too: it is not 0).
    out.dtype = TensorProto::BOOL;
    if (!v.holdsIntegers()) {
      auto f = floatValue(v, /*nhwc=*/false);
      if (failed(f))
        return failure();
      out.value = elementwise(
          *this, {*f}, v.shape,
          [](OpBuilder &nb, Location l, ValueRange a) -> Value {
            Value zero =
                arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(0));
            return arith::CmpFOp::create(nb, l, arith::CmpFPredicate::UNE, a[0],
                                         zero);
          },
          b.getI1Type());
    } else if (v.kind == Kind::Int && !v.nhwc) {
      out.value = elementwise(
          *this, {v.value}, v.shape,
          [](OpBuilder &nb, Location l, ValueRange a) -> Value {
            Value zero = arith::ConstantOp::create(
                nb, l, nb.getIntegerAttr(a[0].getType(), 0));
            return arith::CmpIOp::create(nb, l, arith::CmpIPredicate::ne, a[0],
                                         zero);
          },
          b.getI1Type());
    } else {
      return fail("Cast of this tensor to bool is not supported");
    }
    setOutput(0, std::move(out));
    return success();
  }
  if (!fromBool)
    return fail("Cast from bool of a tensor that is not a run-time mask");
  // true is 1, false 0.
  Type elem;
  if (to == TensorProto::FLOAT) {
    elem = b.getF32Type();
    out.kind = Kind::Float;
  } else if (to == TensorProto::INT32 || to == TensorProto::INT64 ||
             to == TensorProto::INT8 || to == TensorProto::INT16) {
    elem = b.getIntegerType(to == TensorProto::INT64   ? 64
                            : to == TensorProto::INT32 ? 32
                            : to == TensorProto::INT16 ? 16
                                                       : 8);
  } else {
    return fail("Cast of a mask to this element type is not supported "
                "(float, int8, int16, int32, int64)");
  }
  out.dtype = to;
  out.value = elementwise(
      *this, {v.value}, v.shape,
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        if (isa<FloatType>(elem))
          return arith::UIToFPOp::create(nb, l, elem, a[0]);
        return arith::ExtUIOp::create(nb, l, elem, a[0]);
      },
      elem);
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importConstantOfShapeOp() {
  if (failed(checkAttrs({"value"})))
    return failure();
  auto shape = constInts(0);
  if (failed(shape))
    return failure();
  int64_t count = 1;
  for (int64_t d : *shape) {
    if (d < 0)
      return fail("negative dimension " + Twine(d));
    if (d > 0 && count > kMaxFoldedElements / d)
      return fail("more than " + Twine(kMaxFoldedElements) +
                  " elements (ConstantOfShape folds at import)");
    count *= d;
  }
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = onnx::TensorProto::FLOAT;
  v.shape.assign(shape->begin(), shape->end());
  double f = 0;
  int64_t i = 0;
  if (const onnx::TensorProto *t = attrTensor("value")) {
    auto fill = readTensor(*t);
    if (failed(fill))
      return failure();
    if (fill->kind != Kind::Const || fill->numElements() != 1)
      return fail("'value' must be a one-element tensor");
    v.dtype = fill->dtype;
    if (!fill->f.empty())
      f = fill->f[0];
    else
      i = fill->i[0];
  }
  if (isFloatType(v.dtype))
    v.f.assign(count, f);
  else
    v.i.assign(count, i);
  setOutput(0, std::move(v));
  return success();
}

LogicalResult Importer::foldConstConcat() {
  SmallVector<const ImportedValue *> parts;
  for (int k = 0; k < node->input_size(); ++k) {
    auto in = input(k);
    if (failed(in))
      return failure();
    parts.push_back(*in);
  }
  const ImportedValue &first = *parts.front();
  int64_t rank = first.shape.size();
  if (rank == 0)
    return fail("Concat of scalars");
  // Shape arithmetic of opset-1 models may leave out the axis of 1-D data.
  auto axisAttr = attrInt("axis");
  if (!axisAttr && rank != 1)
    return fail("missing attribute 'axis'");
  auto normalized = normalizedAxis(axisAttr.value_or(0), rank);
  if (failed(normalized))
    return failure();
  int64_t axis = *normalized;
  SmallVector<int64_t> shape(first.shape);
  shape[axis] = 0;
  for (const ImportedValue *v : parts) {
    if (int64_t(v->shape.size()) != rank)
      return fail("inputs have different ranks");
    if (v->dtype != first.dtype)
      return fail("inputs have different element types");
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && v->shape[d] != first.shape[d])
        return fail("inputs differ outside the concatenation axis");
    shape[axis] += v->shape[axis];
  }
  // A copy, so more than the compute folds' bound; still bounded, since
  // one large initializer may be listed many times.
  constexpr int64_t kMaxConcatenated = int64_t(1) << 22;
  int64_t total = 1;
  for (int64_t d : shape) {
    if (d != 0 && total > kMaxConcatenated / d)
      return fail("Concat of compile-time data into more than " +
                  Twine(kMaxConcatenated) + " elements is not supported");
    total *= d;
  }
  // Row-major: for each index before the axis, each input's block of
  // (its axis length) x (the elements after the axis) in turn.
  int64_t outer, inner;
  std::tie(outer, inner) = countsAroundAxis(first.shape, axis);
  ImportedValue v;
  v.kind = Kind::Const;
  v.dtype = first.dtype;
  v.shape = shape;
  bool floats = !first.holdsIntegers();
  for (int64_t o = 0; o < outer; ++o) {
    for (const ImportedValue *part : parts) {
      int64_t block = part->shape[axis] * inner;
      if (floats)
        v.f.insert(v.f.end(), part->f.begin() + o * block,
                   part->f.begin() + (o + 1) * block);
      else
        v.i.insert(v.i.end(), part->i.begin() + o * block,
                   part->i.begin() + (o + 1) * block);
    }
  }
  setOutput(0, std::move(v));
  return success();
}
