//===- Importer.cpp - graph walk, boundary and shared helpers -------------===//
//
// Walks the (topologically sorted) ONNX graph once, dispatching each node to
// its op family, and builds one func.func whose arguments and results are
// the graph's inputs and outputs in their ONNX (NCHW) layout. Rank-4 values
// inside are NHWC where the qnt ops need it; the layout is tracked per value
// and changed only where an op needs the other one.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import;
using namespace quantopt::onnx_import::detail;

Importer::Importer(MLIRContext *ctx, const ImportOptions &options,
                   StringRef fileName)
    : ctx(ctx), options(options), b(ctx),
      loc(FileLineColLoc::get(ctx, fileName, 0, 0)),
      fileLoc(FileLineColLoc::get(ctx, fileName, 0, 0)), fileName(fileName) {}

InFlightDiagnostic Importer::error() {
  InFlightDiagnostic diag = emitError(loc);
  if (node) {
    if (node->name().empty())
      diag << "node #" << nodeIndex;
    else
      diag << "node '" << node->name() << "'";
    diag << " (";
    if (expandedFrom)
      diag << expandedFrom->op_type() << ": ";
    diag << node->op_type() << "): ";
  }
  return diag;
}

LogicalResult Importer::fail(const Twine &msg) {
  error() << msg;
  return failure();
}

LogicalResult Importer::verifyAtNode(Operation *op) {
  std::string rule;
  LogicalResult verified = success();
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (rule.empty())
        rule = diag.str();
      return success();
    });
    verified = mlir::verify(op);
  }
  if (succeeded(verified))
    return success();
  op->erase();
  return fail(rule);
}

bool Importer::hasInput(unsigned idx) const {
  return node && idx < unsigned(node->input_size()) &&
         !node->input(idx).empty();
}

FailureOr<ImportedValue *> Importer::input(unsigned idx) {
  if (!hasInput(idx))
    return fail("missing input " + Twine(idx));
  auto it = values.find(node->input(idx));
  if (it == values.end())
    return fail("input '" + node->input(idx) +
                "' is not defined before its use");
  StringRef op = node->op_type();
  if (it->second.kind == Kind::Sequence && !op.starts_with("Sequence") &&
      op != "ConcatFromSequence" && op != "Identity" && op != "Loop")
    return fail("input '" + node->input(idx) + "' is a sequence, which " + op +
                " does not take");
  return &it->second;
}

FailureOr<const ImportedValue *> Importer::scalarInput(unsigned idx,
                                                       StringRef what) {
  auto v = input(idx);
  if (failed(v))
    return failure();
  const ImportedValue &c = **v;
  if (c.kind != Kind::Const || c.numElements() != 1 ||
      (c.i.empty() && c.f.empty()))
    return fail(what + " (input " + Twine(idx) +
                ") must be a compile-time scalar");
  return &c;
}

void Importer::setOutput(unsigned idx, ImportedValue v) {
  if (idx < unsigned(node->output_size()) && !node->output(idx).empty())
    values[node->output(idx)] = std::move(v);
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

static const onnx::AttributeProto *findAttr(const onnx::NodeProto *n,
                                            StringRef name) {
  for (const auto &a : n->attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

std::optional<int64_t> Importer::attrInt(StringRef name) const {
  if (const auto *a = findAttr(node, name))
    if (a->type() == onnx::AttributeProto::INT)
      return a->i();
  return std::nullopt;
}

std::optional<float> Importer::attrFloat(StringRef name) const {
  if (const auto *a = findAttr(node, name))
    if (a->type() == onnx::AttributeProto::FLOAT)
      return a->f();
  return std::nullopt;
}

std::optional<std::vector<int64_t>> Importer::attrInts(StringRef name) const {
  if (const auto *a = findAttr(node, name))
    if (a->type() == onnx::AttributeProto::INTS)
      return std::vector<int64_t>(a->ints().begin(), a->ints().end());
  return std::nullopt;
}

std::optional<std::vector<double>> Importer::attrFloats(StringRef name) const {
  if (const auto *a = findAttr(node, name))
    if (a->type() == onnx::AttributeProto::FLOATS)
      return std::vector<double>(a->floats().begin(), a->floats().end());
  return std::nullopt;
}

std::optional<std::string> Importer::attrString(StringRef name) const {
  if (const auto *a = findAttr(node, name))
    if (a->type() == onnx::AttributeProto::STRING)
      return a->s();
  return std::nullopt;
}

const onnx::TensorProto *Importer::attrTensor(StringRef name) const {
  if (const auto *a = findAttr(node, name))
    if (a->type() == onnx::AttributeProto::TENSOR)
      return &a->t();
  return nullptr;
}

const onnx::GraphProto *Importer::attrGraph(StringRef name) const {
  if (const auto *a = findAttr(node, name))
    if (a->type() == onnx::AttributeProto::GRAPH)
      return &a->g();
  return nullptr;
}

LogicalResult Importer::checkArity(int inputs, int outputs) {
  if (node->input_size() > inputs || node->output_size() > outputs)
    return fail(node->op_type() + " takes at most " + Twine(inputs) + " input" +
                (inputs == 1 ? "" : "s") + " and " + Twine(outputs) +
                " output" + (outputs == 1 ? "" : "s") + ", the node has " +
                Twine(node->input_size()) + " and " +
                Twine(node->output_size()));
  if (inputs > 0 && !hasInput(0))
    return fail("input 0 is required");
  return success();
}

LogicalResult Importer::checkAttrs(ArrayRef<StringRef> known) {
  for (const auto &a : node->attribute())
    if (!llvm::is_contained(known, StringRef(a.name())))
      return fail("unsupported attribute '" + a.name() + "'");
  return success();
}

LogicalResult Importer::checkAttrTypes(ArrayRef<TypedAttr> known,
                                       bool rejectOthers) {
  for (const auto &a : node->attribute()) {
    const auto *it = llvm::find_if(
        known, [&](const TypedAttr &k) { return k.first == a.name(); });
    if (it == known.end()) {
      if (rejectOthers)
        return fail("unsupported attribute '" + a.name() + "'");
      continue;
    }
    if (a.type() != it->second)
      return fail("attribute '" + a.name() + "' must be of type " +
                  onnx::AttributeProto::AttributeType_Name(it->second) +
                  ", not " +
                  onnx::AttributeProto::AttributeType_Name(a.type()));
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Types and layout
//===----------------------------------------------------------------------===//

Type Importer::storageIntType(const QParams &q) const {
  return IntegerType::get(ctx, q.width);
}

Value Importer::storageCode(const QParams &q, int64_t code) {
  Type elem = storageIntType(q);
  return arith::ConstantOp::create(
      b, loc,
      b.getIntegerAttr(elem, APInt(elem.getIntOrFloatBitWidth(), uint64_t(code),
                                   /*isSigned=*/true,
                                   /*implicitTrunc=*/true)));
}

FailureOr<int64_t> Importer::normalizedAxis(int64_t axis, int64_t rank) {
  if (axis < -rank || axis >= rank)
    return fail("axis " + Twine(axis) + " out of range");
  return axis < 0 ? axis + rank : axis;
}

Type Importer::quantElementType(const QParams &q, int64_t physAxis) const {
  unsigned flags = q.isSigned ? quant::QuantizationFlags::Signed : 0;
  Type f32 = Float32Type::get(ctx);
  if (q.perAxis())
    return quant::UniformQuantizedPerAxisType::get(
        flags, storageIntType(q), f32, q.scales, q.zeroPoints, physAxis,
        q.qmin(), q.qmax());
  return quant::UniformQuantizedType::get(flags, storageIntType(q), f32,
                                          q.scales[0], q.zeroPoints[0],
                                          q.qmin(), q.qmax());
}

SmallVector<int64_t> Importer::physicalShape(const ImportedValue &v) const {
  if (v.nhwc && v.shape.size() == 4)
    return {v.shape[0], v.shape[2], v.shape[3], v.shape[1]};
  return v.shape;
}

int64_t Importer::physicalAxis(const ImportedValue &v) const {
  if (!v.q.perAxis() || !v.nhwc || v.shape.size() != 4)
    return v.q.axis;
  static const int64_t toNhwc[4] = {0, 3, 1, 2};
  return toNhwc[v.q.axis];
}

RankedTensorType Importer::quantTensorType(const ImportedValue &v) const {
  return RankedTensorType::get(physicalShape(v),
                               quantElementType(v.q, physicalAxis(v)));
}

static const int64_t kToNhwc[] = {0, 2, 3, 1};
static const int64_t kToNchw[] = {0, 3, 1, 2};

Value Importer::transpose(Value value, ArrayRef<int64_t> perm) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape;
  for (int64_t p : perm)
    shape.push_back(type.getDimSize(p));
  // Moving only size-1 dimensions keeps the element order: a reshape, which
  // every consumer (the reference model included) understands.
  // A per-axis type names its channel dimension, which moves too (a
  // reshape through the flat vector would lose it).
  Type elem = type.getElementType();
  auto perAxis = dyn_cast<quant::UniformQuantizedPerAxisType>(elem);
  SmallVector<int64_t> nonUnit;
  for (int64_t p : perm)
    if (type.getDimSize(p) != 1)
      nonUnit.push_back(p);
  if (llvm::is_sorted(nonUnit) && !perAxis)
    return reshape(value, shape);
  Type resultElem = elem;
  if (perAxis) {
    int32_t axis =
        llvm::find(perm, perAxis.getQuantizedDimension()) - perm.begin();
    resultElem = quant::UniformQuantizedPerAxisType::get(
        perAxis.getFlags(), perAxis.getStorageType(),
        perAxis.getExpressedType(), perAxis.getScales(),
        perAxis.getZeroPoints(), axis, perAxis.getStorageTypeMin(),
        perAxis.getStorageTypeMax());
  }
  // linalg.transpose on the raw codes (quant.scast in and out), since not
  // every pass looks through region ops on quantized element types.
  auto qtype = dyn_cast<quant::QuantizedType>(elem);
  Value src = value;
  if (qtype)
    src = quant::StorageCastOp::create(
        b, loc, RankedTensorType::get(type.getShape(), qtype.getStorageType()),
        value);
  Type srcElem = cast<RankedTensorType>(src.getType()).getElementType();
  Value init = tensor::EmptyOp::create(b, loc, shape, srcElem);
  Value result =
      linalg::TransposeOp::create(b, loc, src, init, perm).getResult()[0];
  if (qtype)
    result = quant::StorageCastOp::create(
        b, loc, RankedTensorType::get(shape, resultElem), result);
  return result;
}

Value Importer::reshape(Value value, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getShape() == shape)
    return value;
  Type elem = type.getElementType();
  // A scalar to or from a shape of ones (one element): no dimension groups.
  if (type.getRank() == 0)
    return tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get(shape, elem), value,
        ArrayRef<ReassociationIndices>{});
  if (shape.empty())
    return tensor::CollapseShapeOp::create(b, loc, value,
                                           ArrayRef<ReassociationIndices>{});
  // Otherwise through the flat vector: one group of every dimension.
  auto allDims = [](int64_t rank) {
    ReassociationIndices all;
    for (int64_t d = 0; d < rank; ++d)
      all.push_back(d);
    return SmallVector<ReassociationIndices>{all};
  };
  Value flat = value;
  if (type.getRank() != 1)
    flat =
        tensor::CollapseShapeOp::create(b, loc, value, allDims(type.getRank()));
  if (shape.size() == 1)
    return flat;
  return tensor::ExpandShapeOp::create(
      b, loc, RankedTensorType::get(shape, elem), flat, allDims(shape.size()));
}

static std::vector<int64_t> permuteData(const std::vector<int64_t> &data,
                                        ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> perm) {
  // out[idx] = in[idx permuted back]; generic rank.
  size_t rank = shape.size();
  SmallVector<int64_t> outShape, inStrides(rank, 1);
  for (int64_t p : perm)
    outShape.push_back(shape[p]);
  for (int64_t d = int64_t(rank) - 2; d >= 0; --d)
    inStrides[d] = inStrides[d + 1] * shape[d + 1];
  std::vector<int64_t> out(data.size());
  SmallVector<int64_t> idx(rank, 0);
  for (size_t n = 0; n < data.size(); ++n) {
    int64_t src = 0;
    for (size_t d = 0; d < rank; ++d)
      src += idx[d] * inStrides[perm[d]];
    out[n] = data[src];
    for (int64_t d = int64_t(rank) - 1; d >= 0; --d) {
      if (++idx[d] < outShape[d])
        break;
      idx[d] = 0;
    }
  }
  return out;
}

FailureOr<Value> Importer::quantValue(ImportedValue &v, bool nhwc) {
  if (!v.isQuantized())
    return fail("expected a quantized value");
  bool want = nhwc && v.shape.size() == 4;
  if (v.codes) {
    ImportedValue tmp = v;
    tmp.nhwc = want;
    std::vector<int64_t> data = *v.codes;
    if (want)
      data = permuteData(data, v.shape, kToNhwc);
    auto type = quantTensorType(tmp);
    auto qtype = cast<quant::QuantizedType>(type.getElementType());
    std::vector<int32_t> codes(data.begin(), data.end());
    return qnt::ConstantOp::create(
               b, loc, type, qnt::buildCodesAttr(type.getShape(), qtype, codes))
        .getResult();
  }
  if (!v.value)
    return fail("quantized value has no definition");
  if (v.isFlattenedNhwc()) {
    // Logical order needed after all: NHWC rows back to NCHW.
    ArrayRef<int64_t> s = v.flattenedFromNhwc;
    Value t = reshape(v.value, {s[0], s[2], s[3], s[1]});
    t = transpose(t, kToNchw);
    v.value = reshape(t, v.shape);
    v.flattenedFromNhwc.clear();
  }
  bool have = v.nhwc && v.shape.size() == 4;
  if (have == want)
    return v.value;
  Value t = transpose(v.value, want ? kToNhwc : kToNchw);
  // Remember the other layout: most values are read in one layout only.
  v.value = t;
  v.nhwc = want;
  return t;
}

FailureOr<Value> Importer::dequantizeInt32(ImportedValue &v, bool nhwc) {
  // qnt.dequantize takes 8- and 16-bit codes only (the contract); int32
  // codes (a bias, an integer accumulator) feeding float ops are dequantized
  // as ONNX defines it: f32(x - z) * s, in f32.
  Type f32 = Float32Type::get(ctx);
  int64_t rank = v.shape.size();
  int64_t inner = 1, channels = 1;
  if (v.q.perAxis()) {
    channels = v.shape[v.q.axis];
    for (int64_t d = v.q.axis + 1; d < rank; ++d)
      inner *= v.shape[d];
  }
  if (v.codes) {
    // The f32 values, as a float constant (which floatValue lays out).
    ImportedValue real;
    real.kind = Kind::Const;
    real.shape = v.shape;
    real.f.resize(v.codes->size());
    for (size_t n = 0; n < real.f.size(); ++n) {
      size_t c = v.q.perAxis() ? (n / inner) % channels : 0;
      // The difference is exact in int64 and rounded once to f32, as the
      // int32 difference converted in ONNX Runtime (which cannot wrap
      // for codes and a zero point of int32).
      float diff = float((*v.codes)[n] - v.q.zeroPoints[c]);
      real.f[n] = diff * float(v.q.scales[c]);
    }
    return floatValue(real, nhwc);
  }
  // Run-time codes: qnt.dequantize_dynamic computes (f32(x) - f32(z)) * s,
  // which is ONNX's f32(x - z) * s when z is 0 (and beyond 2^24 otherwise
  // not), so only a zero zero point is taken.
  if (llvm::any_of(v.q.zeroPoints, [](int64_t z) { return z != 0; }))
    return fail("DequantizeLinear of run-time int32 values with a nonzero "
                "zero point is not supported");
  auto q = quantValue(v, false);
  if (failed(q))
    return failure();
  Value raw = quant::StorageCastOp::create(
      b, loc, RankedTensorType::get(v.shape, b.getI32Type()), *q);
  SmallVector<int64_t> paramShape(rank, 1);
  SmallVector<float> scales(v.q.scales.begin(), v.q.scales.end());
  if (v.q.perAxis())
    paramShape[v.q.axis] = channels;
  auto paramType = RankedTensorType::get(paramShape, f32);
  Value scale = arith::ConstantOp::create(
      b, loc, paramType,
      DenseElementsAttr::get(paramType, ArrayRef<float>(scales)));
  Value offset = arith::ConstantOp::create(
      b, loc, paramType, DenseElementsAttr::get(paramType, 0.0f));
  Value real = qnt::DequantizeDynamicOp::create(
      b, loc, RankedTensorType::get(v.shape, f32), raw, scale, offset);
  return nhwc && rank == 4 ? transpose(real, kToNhwc) : real;
}

FailureOr<Value> Importer::floatValue(ImportedValue &v, bool nhwc) {
  bool want = nhwc && v.shape.size() == 4;
  Type f32 = Float32Type::get(ctx);
  switch (v.kind) {
  case Kind::Const: {
    if (v.f.empty() && !v.i.empty())
      return fail("expected a float tensor, got integers");
    ImportedValue tmp = v;
    tmp.nhwc = want;
    SmallVector<float> data(v.f.begin(), v.f.end());
    if (want) {
      std::vector<int64_t> idx(v.f.size());
      for (size_t n = 0; n < idx.size(); ++n)
        idx[n] = n;
      idx = permuteData(idx, v.shape, kToNhwc);
      for (size_t n = 0; n < idx.size(); ++n)
        data[n] = float(v.f[idx[n]]);
    }
    auto type = RankedTensorType::get(physicalShape(tmp), f32);
    return arith::ConstantOp::create(
               b, loc, type,
               DenseElementsAttr::get(type, ArrayRef<float>(data)))
        .getResult();
  }
  case Kind::Quant:
  case Kind::Dequant: {
    if (v.q.width == 32)
      return dequantizeInt32(v, want);
    auto q = quantValue(v, want);
    if (failed(q))
      return failure();
    auto type = cast<RankedTensorType>(q->getType());
    return qnt::DequantizeOp::create(
               b, loc, RankedTensorType::get(type.getShape(), f32), *q)
        .getResult();
  }
  case Kind::Float: {
    bool have = v.nhwc && v.shape.size() == 4;
    if (have == want)
      return v.value;
    return transpose(v.value, want ? kToNhwc : kToNchw);
  }
  case Kind::Int:
    return fail("integer tensor where a float tensor is expected (no "
                "DequantizeLinear or Cast before it)");
  case Kind::Sequence:
    return fail("a sequence where a float tensor is expected");
  case Kind::Pending: {
    if (succeeded(settle(v)))
      return floatValue(v, nhwc);
    // No QuantizeLinear closes it: the op runs in float.
    auto f = emitFloat(v);
    if (failed(f))
      return failure();
    v = std::move(*f);
    return floatValue(v, nhwc);
  }
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Graph walk
//===----------------------------------------------------------------------===//

static std::optional<Type> elementTypeFor(MLIRContext *ctx, int32_t dtype) {
  switch (dtype) {
  case onnx::TensorProto::FLOAT:
    return Float32Type::get(ctx);
  case onnx::TensorProto::INT8:
  case onnx::TensorProto::UINT8:
    return IntegerType::get(ctx, 8);
  case onnx::TensorProto::INT16:
  case onnx::TensorProto::UINT16:
    return IntegerType::get(ctx, 16);
  case onnx::TensorProto::INT32:
    return IntegerType::get(ctx, 32);
  case onnx::TensorProto::INT64: // token ids for Gather
    return IntegerType::get(ctx, 64);
  case onnx::TensorProto::BOOL: // a padding or attention mask
    return IntegerType::get(ctx, 1);
  default:
    return std::nullopt;
  }
}

LogicalResult Importer::importNode(const onnx::NodeProto &n) {
  if (failed(dispatchNode(n)))
    return failure();
  // The pipeline rejects a tensor of 2^63 bytes or more; shapes that
  // multiply up to one (a MatMul of a 2^50-row input) are diagnosed here,
  // at the node, rather than accepted. 4-byte elements (f32, i32 codes) but
  // for int64 and double data.
  node = &n;
  for (const std::string &name : n.output()) {
    auto it = values.find(name);
    if (name.empty() || it == values.end() || it->second.kind == Kind::Sequence)
      continue;
    const ImportedValue &v = it->second;
    int64_t bytes = v.dtype == onnx::TensorProto::INT64 ||
                            v.dtype == onnx::TensorProto::DOUBLE
                        ? 8
                        : 4;
    for (int64_t d : v.shape)
      if (d > 0 && llvm::MulOverflow(bytes, d, bytes))
        return fail("output '" + name + "' would hold 2^63 bytes or more");
  }
  return success();
}

LogicalResult Importer::checkFourBitUse(const onnx::NodeProto &n) {
  // 4-bit values are read as 8-bit ones (Constants.cpp): an op may take
  // them where its result keeps their values (DequantizeLinear, Cast to a
  // wider type, the ops that move elements); one that computes new 4-bit
  // values (arithmetic, a Cast to 4 bits) would need to clamp them into 4
  // bits, which nothing here does.
  // (QuantizeLinear diagnoses a 4-bit zero point itself.)
  static const llvm::StringSet<> kReadsFourBit = {
      "DequantizeLinear", "QuantizeLinear", "Cast",    "CastLike",
      "Reshape",          "Transpose",      "Squeeze", "Unsqueeze",
      "Flatten",          "Identity",       "Shape",   "Size"};
  auto isFourBit = [&](const std::string &name) {
    auto it = values.find(name);
    return !name.empty() && it != values.end() &&
           isFourBitType(it->second.dtype);
  };
  bool standard = n.domain().empty() || n.domain() == "ai.onnx";
  if (!(standard && kReadsFourBit.contains(n.op_type())))
    for (const std::string &in : n.input())
      if (isFourBit(in))
        return fail("input '" + in + "' is int4 / uint4, which only " +
                    "DequantizeLinear, Cast and the ops that move elements "
                    "(Reshape, Transpose, ...) take");
  if (standard && n.op_type() == "Cast")
    if (std::optional<int64_t> to = attrInt("to"); to && isFourBitType(*to))
      return fail("Cast to int4 / uint4 is not supported");
  if (standard && n.op_type() == "CastLike" && n.input_size() > 1 &&
      isFourBit(n.input(1)))
    return fail("CastLike to int4 / uint4 is not supported");
  return success();
}

LogicalResult Importer::dispatchNode(const onnx::NodeProto &n) {
  node = &n;
  // The ops a node becomes carry its name, so that verifier messages and
  // debug locations point back to the graph.
  std::string name = n.name().empty()
                         ? n.op_type() + "#" + std::to_string(nodeIndex)
                         : n.name();
  loc = NameLoc::get(b.getStringAttr(name), fileLoc);
  if (n.output_size() == 0)
    return fail("node has no outputs");
  if (failed(checkFourBitUse(n)))
    return failure();
  if (n.domain() == "com.microsoft")
    return importMicrosoftNode(n);
  if (!n.domain().empty() && n.domain() != "ai.onnx")
    return fail("unsupported operator domain '" + n.domain() + "'");
  StringRef op = n.op_type();
  if (hasLegacyBroadcast(n))
    return importLegacyBroadcast();
  if (op == "Constant")
    return importConstantOp();
  if (op == "Identity")
    return importIdentity();
  if (op == "Dropout")
    return importDropout();
  if (op == "Shape")
    return importShapeOp();
  if (op == "Gather")
    return importGatherOp();
  if (op == "Unsqueeze")
    return importUnsqueezeOp();
  if (op == "Range")
    return importRangeOp();
  if (op == "Cast" || op == "CastLike")
    return importCastOp();
  if (op == "Size")
    return importSizeOp();
  if (op == "EyeLike")
    return importEyeLikeOp();
  if (op == "IsNaN" || op == "IsInf")
    return importIsNaNOrInf();
  if (op == "ConstantOfShape")
    return importConstantOfShapeOp();
  if (op == "QuantizeLinear")
    return importQuantizeLinear();
  if (op == "DequantizeLinear")
    return importDequantizeLinear();
  if (op == "DynamicQuantizeLinear")
    return importDynamicQuantizeLinear();
  if (op == "Conv")
    return importConv();
  if (op == "Gemm")
    return importGemm();
  if (op == "MatMul")
    return importMatMul();
  if (op == "QLinearConv")
    return importQLinearConv();
  if (op == "QLinearMatMul")
    return importQLinearMatMul();
  if (op == "ConvInteger")
    return importIntegerContraction(/*isConv=*/true);
  if (op == "MatMulInteger")
    return importIntegerContraction(/*isConv=*/false);
  if (op == "ArgMax" || op == "ArgMin")
    return importArgMax(/*isMax=*/op == "ArgMax");
  if (op == "Einsum")
    return importEinsum();
  if (op.starts_with("Sequence") || op == "ConcatFromSequence" ||
      op == "SplitToSequence")
    return importSequenceOp();
  if (op == "If")
    return importIf();
  if (op == "Loop")
    return importLoop();
  if (op == "Scan")
    return importScan();
  if (op == "LSTM" || op == "GRU" || op == "RNN")
    return importRecurrent();
  if (op == "CumSum")
    return importCumSum();
  if (op == "TopK")
    return importTopK();
  if (op == "GatherElements")
    return importGatherElements();
  if (op == "OneHot")
    return importOneHot();
  if (op == "GatherND")
    return importGatherND();
  if (op == "ScatterND")
    return importScatterND();
  if (op == "ScatterElements" || op == "Scatter")
    return importScatterElements();
  if (op == "NonZero")
    return importNonZero();
  if (op == "MeanVarianceNormalization")
    return importMeanVarianceNormalization();
  if (op == "LpNormalization")
    return importLpNormalization();
  if (op == "Hardmax")
    return importHardmax();
  if (op == "LpPool")
    return importLpPool();
  if (op == "GlobalLpPool")
    return importGlobalLpPool();
  if (op == "ReverseSequence")
    return importReverseSequence();
  if (op == "Compress")
    return importCompress();
  if (op == "DepthToSpace" || op == "SpaceToDepth")
    return importDepthToSpace(/*toSpace=*/op == "DepthToSpace");
  if (op == "ConvTranspose")
    return importConvTranspose();
  if (op == "Relu")
    return importRelu();
  if (op == "Clip")
    return importClip();
  if (op == "Reshape")
    return importReshape(/*isFlatten=*/false);
  if (op == "Flatten")
    return importReshape(/*isFlatten=*/true);
  if (op == "Transpose")
    return importTranspose();
  if (op == "Slice")
    return importSlice();
  if (op == "Squeeze")
    return importSqueeze();
  if (op == "Split")
    return importSplit();
  if (op == "GridSample")
    return importGridSample();
  if (op == "RoiAlign")
    return importRoiAlign();
  if (op == "Resize")
    return importResize();
  if (op == "Upsample")
    return importUpsample();
  if (op == "Pad")
    return importPad();
  if (op == "Trilu")
    return importTrilu();
  if (op == "MaxUnpool")
    return importMaxUnpool();
  if ((op == "MaxPool" || op == "GlobalMaxPool" || op == "AveragePool" ||
       op == "GlobalAveragePool") &&
      hasInput(0)) {
    auto x = input(0);
    if (succeeded(x) && (*x)->shape.size() == 3)
      return importPool1D();
    if (succeeded(x) && (*x)->shape.size() == 5)
      return importPool3D();
  }
  if (op == "MaxPool")
    return importMaxPool(/*global=*/false);
  if (op == "GlobalMaxPool")
    return importMaxPool(/*global=*/true);
  if (op == "Concat")
    return importConcat();
  if (op == "Add")
    return importAdd();
  if (op == "Sum" || op == "Mean" ||
      ((op == "Max" || op == "Min") && n.input_size() > 2))
    return importVariadic();
  if (op == "Mul" || op == "Sub" || op == "Div" || op == "Max" || op == "Min" ||
      op == "PRelu")
    return importFloatArithmetic();
  if (op == "Mod")
    return importMod();
  if (op == "Expand" || op == "Tile")
    return importExpandOrTile();
  if (op == "Equal" || op == "Greater" || op == "Less" ||
      op == "GreaterOrEqual" || op == "LessOrEqual" || op == "Not" ||
      op == "And" || op == "Or" || op == "Xor")
    return importCompareOp();
  if (op == "Where")
    return importWhere();
  if (op == "BitShift" || op == "BitwiseAnd" || op == "BitwiseOr" ||
      op == "BitwiseXor" || op == "BitwiseNot")
    return importBitwiseOp();
  if (op == "HannWindow" || op == "HammingWindow" || op == "BlackmanWindow")
    return importWindow();
  if (op == "MelWeightMatrix")
    return importMelWeightMatrix();
  if (op == "DFT")
    return importDFT();
  if (op == "STFT")
    return importSTFT();
  if (op == "LayerNormalization")
    return importLayerNorm();
  // ONNX Runtime registers its RMS norm in the standard domain.
  if (op == "SimplifiedLayerNormalization")
    return importTransformerOp(n);
  // ONNX's own LLM ops (LlmOps.cpp; the checker refuses them before their
  // opsets, 23 and 24).
  if (op == "RMSNormalization")
    return importRMSNormalization();
  if (op == "RotaryEmbedding")
    return importStandardRotaryEmbedding();
  if (op == "Swish")
    return importSwish();
  if (op == "Attention")
    return importStandardAttention();
  if (op == "TensorScatter")
    return importTensorScatter();
  if (op == "InstanceNormalization")
    return importInstanceNorm();
  if (op == "Sigmoid" || op == "Tanh" || op == "HardSigmoid" ||
      op == "HardSwish" || op == "LeakyRelu" || op == "Erf" || op == "Sqrt" ||
      op == "Exp" || op == "Log" || op == "Neg" || op == "Abs" ||
      op == "Reciprocal" || op == "Elu" || op == "Softplus" || op == "Selu" ||
      op == "Celu" || op == "Softsign" || op == "ThresholdedRelu" ||
      op == "Shrink" || op == "Gelu" || op == "Floor" || op == "Ceil" ||
      op == "Round" || op == "Sign" || op == "Sin" || op == "Cos" ||
      op == "Tan" || op == "Asin" || op == "Acos" || op == "Atan" ||
      op == "Sinh" || op == "Cosh" || op == "Asinh" || op == "Acosh" ||
      op == "Atanh" || op == "Mish")
    return importFloatActivation();
  if (op == "GroupNormalization")
    return importGroupNormalization();
  if (op == "Pow")
    return importFloatPow();
  if (op == "LRN")
    return importFloatLRN();
  if (op == "BatchNormalization")
    return importFloatBatchNorm();
  if (op == "Softmax" || op == "LogSoftmax")
    return importFloatSoftmax();
  if (op == "AveragePool")
    return importAveragePool(/*global=*/false);
  if (op == "GlobalAveragePool")
    return importAveragePool(/*global=*/true);
  if (op == "ReduceMean" || op == "ReduceSum" || op == "ReduceMax" ||
      op == "ReduceMin" || op == "ReduceL1" || op == "ReduceL2" ||
      op == "ReduceSumSquare" || op == "ReduceLogSum" ||
      op == "ReduceLogSumExp" || op == "ReduceProd")
    return importReduce();
  return fail("unsupported operator");
}

/// The ONNX type name of a TensorProto element type ("float", "int64").
std::string quantopt::onnx_import::detail::elementTypeName(int32_t type) {
  std::string name = onnx::TensorProto::DataType_Name(
      static_cast<onnx::TensorProto::DataType>(type));
  if (name.empty())
    return "type " + std::to_string(type);
  return StringRef(name).lower();
}

int32_t
quantopt::onnx_import::detail::graphElementType(const ImportedValue &v) {
  if (v.kind == Kind::Quant)
    return codeElementType(v.q);
  if (v.kind == Kind::Int || (v.kind == Kind::Const && v.holdsIntegers()))
    return v.dtype;
  return onnx::TensorProto::FLOAT;
}

LogicalResult Importer::checkDeclaredOutput(const onnx::ValueInfoProto &out,
                                            const ImportedValue &v) {
  // ONNX Runtime refuses a model whose output type differs from the one its
  // graph computes; a declared static shape must match as well, since the
  // compiled function's result has the computed one.
  if (!out.type().has_tensor_type()) {
    if (out.type().value_case() == onnx::TypeProto::VALUE_NOT_SET)
      return success();
    emitError(loc) << "graph output '" << out.name()
                   << "' is declared as a non-tensor type";
    return failure();
  }
  const auto &declared = out.type().tensor_type();
  if (isFourBitType(declared.elem_type()) || isFourBitType(v.dtype)) {
    emitError(loc) << "graph output '" << out.name()
                   << "' is int4 / uint4, which is read only as "
                      "DequantizeLinear's input";
    return failure();
  }
  int32_t computed = graphElementType(v);
  if (declared.elem_type() != onnx::TensorProto::UNDEFINED &&
      declared.elem_type() != computed) {
    emitError(loc) << "graph output '" << out.name() << "' is declared as "
                   << elementTypeName(declared.elem_type())
                   << ", but the graph computes " << elementTypeName(computed);
    return failure();
  }
  if (!declared.has_shape())
    return success();
  const auto &dims = declared.shape().dim();
  bool same = dims.size() == int(v.shape.size());
  for (int i = 0; same && i < dims.size(); ++i)
    same = !dims[i].has_dim_value() || dims[i].dim_value() == v.shape[i];
  if (same)
    return success();
  std::string want;
  for (const auto &d : dims)
    want += (want.empty() ? "" : "x") +
            (d.has_dim_value() ? std::to_string(d.dim_value()) : "?");
  emitError(loc) << "graph output '" << out.name()
                 << "' is declared with shape [" << want
                 << "], but the graph computes [" << joinedDims(v.shape) << "]";
  return failure();
}

/// Every value name `g` and its subgraphs (If branches, Loop and Scan
/// bodies) mention.
static void collectGraphNames(const onnx::GraphProto &g,
                              llvm::StringSet<> &names) {
  for (const auto &in : g.input())
    names.insert(in.name());
  for (const auto &t : g.initializer())
    names.insert(t.name());
  for (const auto &n : g.node()) {
    for (const std::string &name : n.input())
      names.insert(name);
    for (const std::string &name : n.output())
      names.insert(name);
    for (const auto &a : n.attribute()) {
      if (a.has_g())
        collectGraphNames(a.g(), names);
      for (const auto &sub : a.graphs())
        collectGraphNames(sub, names);
    }
  }
  for (const auto &out : g.output())
    names.insert(out.name());
}

OwningOpRef<ModuleOp> Importer::run(const onnx::ModelProto &model) {
  opset = standardOpset(model);
  const onnx::GraphProto &graph = model.graph();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  b.setInsertionPointToEnd(module->getBody());

  collectGraphNames(graph, graphNames);

  if (graph.sparse_initializer_size() != 0) {
    (void)fail("the graph has sparse initializers, which are not supported");
    return nullptr;
  }
  // Initializers first: they are the compile-time constants.
  for (const auto &t : graph.initializer()) {
    auto v = readTensor(t);
    if (failed(v))
      return nullptr;
    values[t.name()] = std::move(*v);
  }

  // Function signature from the graph inputs that are not initializers.
  SmallVector<Type> argTypes;
  std::vector<std::pair<std::string, ImportedValue>> args;
  llvm::StringSet<> graphInputs;
  for (const auto &in : graph.input())
    if (!values.count(in.name()))
      graphInputs.insert(in.name());
  for (const auto &entry : options.inputShapes)
    if (!graphInputs.count(entry.getKey())) {
      emitError(loc) << "--input-shape names '" << entry.getKey()
                     << "', which is not a graph input";
      return nullptr;
    }
  for (const auto &in : graph.input()) {
    if (values.count(in.name()))
      continue;
    if (!in.type().has_tensor_type()) {
      emitError(loc) << "graph input '" << in.name() << "' is not a tensor";
      return nullptr;
    }
    const auto &tt = in.type().tensor_type();
    auto elem = elementTypeFor(ctx, tt.elem_type());
    if (!elem) {
      emitError(loc) << "graph input '" << in.name()
                     << "' has an unsupported element type (" << tt.elem_type()
                     << ")";
      return nullptr;
    }
    ImportedValue v;
    v.dtype = tt.elem_type();
    v.kind =
        tt.elem_type() == onnx::TensorProto::FLOAT ? Kind::Float : Kind::Int;
    auto it = options.inputShapes.find(in.name());
    if (it != options.inputShapes.end()) {
      v.shape.assign(it->second.begin(), it->second.end());
      if (tt.has_shape() && tt.shape().dim_size() != int(v.shape.size())) {
        emitError(loc) << "--input-shape for '" << in.name() << "' has rank "
                       << v.shape.size() << ", the graph declares rank "
                       << tt.shape().dim_size();
        return nullptr;
      }
    } else {
      if (!tt.has_shape()) {
        emitError(loc) << "graph input '" << in.name()
                       << "' has no shape; give one with --input-shape";
        return nullptr;
      }
      for (const auto &d : tt.shape().dim()) {
        if (d.has_dim_value() && d.dim_value() <= 0) {
          emitError(loc) << "graph input '" << in.name()
                         << "' has a dimension of " << d.dim_value()
                         << ": graph inputs must have positive dimensions";
          return nullptr;
        }
        if (!d.has_dim_value()) {
          emitError(loc) << "graph input '" << in.name()
                         << "' has a dynamic dimension"
                         << (d.has_dim_param() ? " '" + d.dim_param() + "'"
                                               : std::string())
                         << "; fix it with --input-shape " << in.name()
                         << "=D0xD1x...";
          return nullptr;
        }
        v.shape.push_back(d.dim_value());
      }
    }
    for (int64_t d : v.shape)
      if (d <= 0) {
        emitError(loc) << "input '" << in.name()
                       << "': dimensions must be positive";
        return nullptr;
      }
    // The pipeline rejects any value of 2^63 bytes or more; the f32 and i32
    // tensors computed from an input have 4-byte elements (8 for int64).
    int64_t bytes = v.dtype == onnx::TensorProto::INT64 ? 8 : 4;
    for (int64_t d : v.shape)
      if (llvm::MulOverflow(bytes, d, bytes)) {
        emitError(loc) << "input '" << in.name()
                       << "' is too large: the tensors computed from it "
                          "would hold 2^63 bytes or more";
        return nullptr;
      }
    argTypes.push_back(RankedTensorType::get(v.shape, *elem));
    args.push_back({in.name(), v});
  }

  auto func = func::FuncOp::create(b, loc, options.entry,
                                   b.getFunctionType(argTypes, {}));
  Block *body = func.addEntryBlock();
  b.setInsertionPointToStart(body);
  for (auto [idx, arg] : llvm::enumerate(args)) {
    arg.second.value = body->getArgument(idx);
    values[arg.first] = arg.second;
  }

  for (const auto &n : graph.node()) {
    if (failed(importNode(n)))
      return nullptr;
    ++nodeIndex;
  }
  node = nullptr;
  loc = fileLoc;

  // Results in the graph's layout and element types.
  SmallVector<Value> results;
  SmallVector<Type> resultTypes;
  for (const auto &out : graph.output()) {
    auto it = values.find(out.name());
    if (it == values.end()) {
      emitError(loc) << "graph output '" << out.name() << "' is never defined";
      return nullptr;
    }
    ImportedValue &v = it->second;
    if (v.kind == Kind::Sequence) {
      emitError(loc) << "graph output '" << out.name()
                     << "' is a sequence, which the compiled function cannot "
                        "return";
      return nullptr;
    }
    if (failed(checkDeclaredOutput(out, v)))
      return nullptr;
    Value r;
    if (v.kind == Kind::Quant) {
      auto q = quantValue(v, false);
      if (failed(q))
        return nullptr;
      auto qt = cast<quant::QuantizedType>(
          cast<RankedTensorType>(q->getType()).getElementType());
      r = quant::StorageCastOp::create(
          b, loc, RankedTensorType::get(v.shape, qt.getStorageType()), *q);
    } else if (v.kind == Kind::Int) {
      r = v.nhwc && v.shape.size() == 4 ? transpose(v.value, kToNchw) : v.value;
    } else if (v.kind == Kind::Const && v.holdsIntegers()) {
      // Integers folded at import (shape arithmetic, a Range).
      r = intConstant(*this, v, integerElementType(*this, v));
    } else {
      auto f = floatValue(v, false);
      if (failed(f)) {
        emitError(loc) << "graph output '" << out.name()
                       << "' cannot be computed";
        return nullptr;
      }
      r = *f;
    }
    results.push_back(r);
    resultTypes.push_back(r.getType());
  }
  func::ReturnOp::create(b, loc, results);
  func.setFunctionType(b.getFunctionType(argTypes, resultTypes));
  if (failed(verify(*module))) {
    emitError(loc) << "the imported module does not verify (see above)";
    return nullptr;
  }
  return module;
}
