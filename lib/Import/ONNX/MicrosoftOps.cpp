//===- MicrosoftOps.cpp - ONNX Runtime's com.microsoft QOperator ops ------===//
//
// ONNX Runtime's QOperator format (its quantizer's `QuantFormat.QOperator`,
// and the int8 models of the ONNX Model Zoo) writes quantized ops of the
// com.microsoft domain: QLinearAdd, QLinearGlobalAveragePool, QLinearConcat,
// QGemm, ... Each is defined as, and ONNX Runtime converts its QDQ graphs
// into them from, DequantizeLinear of every quantized input, the float op,
// and QuantizeLinear of the result. The importer expands such a node into
// exactly those standard nodes and imports them, so a QOperator graph and
// its QDQ twin become the same qnt ops (and get the same diagnostics, which
// name the original node).
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// X, X_scale, X_zero_point, Y_scale, Y_zero_point -> DQ, `op`, Q.
static LogicalResult expandUnary(Expansion &e, StringRef op,
                                 ArrayRef<StringRef> attrs) {
  if (!e.has(0) || !e.has(1) || !e.has(3))
    return e.im.fail("needs X, X_scale and Y_scale (inputs 0, 1, 3)");
  std::string out = e.fresh(op);
  onnx::NodeProto &node = e.add(op, {e.dequantize(0, 1, 2)}, out);
  for (StringRef a : attrs)
    e.copyAttr(node, a);
  return e.quantize(out, 3, 4, /*like=*/0);
}

/// A, A_scale, A_zero_point, B, B_scale, B_zero_point, C_scale,
/// C_zero_point -> DQ(A), DQ(B), `op`, Q.
static LogicalResult expandBinary(Expansion &e, StringRef op) {
  if (!e.has(0) || !e.has(1) || !e.has(3) || !e.has(4) || !e.has(6))
    return e.im.fail("needs A, A_scale, B, B_scale and C_scale (inputs 0, 1, "
                     "3, 4, 6)");
  std::string a = e.dequantize(0, 1, 2), b = e.dequantize(3, 4, 5);
  std::string out = e.fresh(op);
  e.add(op, {a, b}, out);
  return e.quantize(out, 6, 7, /*like=*/0);
}

/// Y_scale, Y_zero_point, then (X, X_scale, X_zero_point) per input.
static LogicalResult expandConcat(Expansion &e) {
  int n = e.n.input_size();
  if (n < 5 || (n - 2) % 3 != 0 || !e.has(0))
    return e.im.fail("expects Y_scale, Y_zero_point and then (X, X_scale, "
                     "X_zero_point) per input, got " +
                     Twine(n) + " inputs");
  std::vector<std::string> parts;
  for (int i = 2; i < n; i += 3) {
    if (!e.has(i) || !e.has(i + 1))
      return e.im.fail("input " + Twine(i) + " or its scale is missing");
    parts.push_back(e.dequantize(i, i + 1, i + 2));
  }
  std::string out = e.fresh("Concat");
  e.copyAttr(e.add("Concat", parts, out), "axis");
  return e.quantize(out, 0, 1, /*like=*/2);
}

/// A, a_scale, a_zero_point, B, b_scale, b_zero_point, C (int32 at scale
/// a_scale * b_scale), y_scale, y_zero_point; without y_scale the output is
/// f32.
static LogicalResult expandQGemm(Expansion &e) {
  Importer &im = e.im;
  if (!e.has(0) || !e.has(1) || !e.has(3) || !e.has(4))
    return im.fail("needs A, a_scale, B and b_scale (inputs 0, 1, 3, 4)");
  if (e.has(7) != e.has(8))
    return im.fail("y_scale and y_zero_point must be given together (a "
                   "float output has neither)");
  auto as = im.input(1);
  auto bs = failed(as) ? FailureOr<ImportedValue *>(failure()) : im.input(4);
  if (failed(as) || failed(bs))
    return failure();
  if ((*as)->kind != Kind::Const || (*as)->f.size() != 1)
    return im.fail("a_scale must be a compile-time float scalar");
  if ((*bs)->kind != Kind::Const || (*bs)->f.empty())
    return im.fail("b_scale must be a compile-time float tensor");
  bool transB = im.attrInt("transB").value_or(0) != 0;
  bool perColumn = (*bs)->f.size() > 1;
  // b_scale runs along B's columns: axis 1 of K x N, axis 0 of N x K.
  std::optional<int64_t> bAxis;
  if (perColumn)
    bAxis = transB ? 0 : 1;
  std::vector<std::string> gemmInputs = {e.dequantize(0, 1, 2),
                                         e.dequantize(3, 4, 5, bAxis)};
  if (e.has(6)) {
    // C's scale is implicit: a_scale * b_scale per column, zero point 0.
    auto c = im.input(6);
    if (failed(c))
      return failure();
    ImportedValue scale;
    scale.kind = Kind::Const;
    scale.dtype = onnx::TensorProto::FLOAT;
    for (double s : (*bs)->f)
      scale.f.push_back((*as)->f[0] * s);
    scale.shape = {int64_t(scale.f.size())};
    if (!perColumn)
      scale.shape.clear();
    std::string scaleName = e.fresh("c_scale");
    im.values[scaleName] = std::move(scale);
    std::string dq = e.fresh("dq");
    onnx::NodeProto &node =
        e.add("DequantizeLinear", {e.n.input(6), scaleName}, dq);
    if (perColumn)
      Expansion::setInt(node, "axis", int64_t((*c)->shape.size()) - 1);
    gemmInputs.push_back(dq);
  }
  std::string out = e.has(7) ? e.fresh("Gemm") : e.n.output(0);
  onnx::NodeProto &gemm = e.add("Gemm", gemmInputs, out);
  for (StringRef a : {"alpha", "transA", "transB"})
    e.copyAttr(gemm, a);
  if (!e.has(7))
    return success();
  return e.quantize(out, 7, 8, /*like=*/0);
}

void quantopt::onnx_import::detail::addIntegerMatmulToFloat(
    Expansion &e, const std::string &a, const std::string &b,
    const std::string &aScale, const std::string &bScale,
    const std::string &aZero, const std::string &bZero, const std::string &bias,
    const std::string &out) {
  std::string acc = e.fresh("acc"), accF = e.fresh("accf"),
              scale = e.fresh("scale");
  e.add("MatMulInteger", {a, b, aZero, bZero}, acc);
  Expansion::setInt(e.add("Cast", {acc}, accF), "to", onnx::TensorProto::FLOAT);
  e.add("Mul", {aScale, bScale}, scale);
  if (bias.empty()) {
    e.add("Mul", {accF, scale}, out);
    return;
  }
  std::string scaled = e.fresh("scaled");
  e.add("Mul", {accF, scale}, scaled);
  e.add("Add", {scaled, bias}, out);
}

/// The input's name, or "" when absent.
static std::string optionalInput(const Expansion &e, int idx) {
  return e.has(idx) ? e.n.input(idx) : std::string();
}

/// data, data_scale, data_zero_point, reduced_scale, reduced_zero_point
/// -> DQ, ReduceMean, Q.
static LogicalResult expandReduceMean(Expansion &e) {
  Importer &im = e.im;
  auto axes = im.attrInts("axes");
  if (!axes)
    return im.fail("ReduceMean over all axes is not supported (no 'axes')");
  if (!e.has(0) || !e.has(1) || !e.has(3))
    return im.fail("needs data, data_scale and reduced_scale (inputs 0, 1, "
                   "3)");
  std::string out = e.fresh("ReduceMean");
  onnx::NodeProto &mean = e.add("ReduceMean", {e.dequantize(0, 1, 2)}, out);
  e.copyAttr(mean, "keepdims");
  e.addInts(mean, "axes", *axes, reduceAxesInputOpset("ReduceMean"));
  return e.quantize(out, 3, 4, /*like=*/0);
}

/// The f32 [dirs, rows, cols] weights of DynamicQuantizeLSTM's quantized
/// [dirs, cols, rows] input `idx` (W: cols = input size, R: hidden size;
/// rows = 4 x hidden) with its scale and zero point (per direction, or per
/// direction and row), dequantized as DequantizeLinear does it:
/// f32(q - zp) * scale.
static FailureOr<std::string> dequantizedLSTMWeight(Expansion &e, int idx,
                                                    int scaleIdx, int zeroIdx,
                                                    StringRef what) {
  Importer &im = e.im;
  auto q = im.input(idx);
  auto s = failed(q) ? q : im.input(scaleIdx);
  auto z = failed(s) ? s : im.input(zeroIdx);
  if (failed(z))
    return failure();
  const ImportedValue &codes = **q, &scale = **s, &zero = **z;
  if (codes.kind != Kind::Const || !codes.f.empty() ||
      codes.shape.size() != 3 ||
      (codes.dtype != onnx::TensorProto::INT8 &&
       codes.dtype != onnx::TensorProto::UINT8))
    return im.fail(what + " must be compile-time int8 or uint8 codes of "
                          "rank 3");
  int64_t dirs = codes.shape[0], cols = codes.shape[1], rows = codes.shape[2];
  bool perRow = scale.shape.size() == 2;
  SmallVector<int64_t, 2> expected = {dirs};
  if (perRow)
    expected.push_back(rows);
  if (scale.kind != Kind::Const || scale.f.empty() ||
      ArrayRef<int64_t>(scale.shape) != ArrayRef<int64_t>(expected) ||
      zero.kind != Kind::Const || !zero.f.empty() ||
      ArrayRef<int64_t>(zero.shape) != ArrayRef<int64_t>(expected) ||
      zero.dtype != codes.dtype)
    return im.fail(what +
                   "'s scale and zero point must be compile-time, of "
                   "shape [" +
                   Twine(dirs) + "] or [" + Twine(dirs) + ", " + Twine(rows) +
                   "], the zero point of the codes' type");
  ImportedValue w;
  w.kind = Kind::Const;
  w.shape = {dirs, rows, cols};
  w.f.resize(dirs * rows * cols);
  for (int64_t d = 0; d < dirs; ++d)
    for (int64_t r = 0; r < rows; ++r) {
      int64_t p = perRow ? d * rows + r : d;
      float sc = float(scale.f[p]);
      if (!std::isfinite(sc) || sc <= 0)
        return im.fail(what + "'s scale must be positive and finite");
      for (int64_t c = 0; c < cols; ++c)
        w.f[(d * rows + r) * cols + c] =
            float(codes.i[(d * cols + c) * rows + r] - zero.i[p]) * sc;
    }
  return e.bind(what, std::move(w));
}

/// ONNX Runtime's dynamically quantized LSTM as the LSTM of its dequantized
/// weights: X, W, R, B, sequence_lens, initial_h, initial_c, P, then the
/// scales and zero points of W (8, 9) and R (10, 11). ONNX Runtime also
/// quantizes X and the hidden state at each step; here they stay f32
/// (docs/ONNXImport.md).
static LogicalResult expandDynamicQuantizeLSTM(Expansion &e) {
  const onnx::NodeProto &n = e.n;
  for (int idx : {0, 1, 2, 8, 9, 10, 11})
    if (!e.has(idx))
      return e.im.fail("input " + Twine(idx) +
                       " is missing (X, W, R and the scales and zero points "
                       "of W and R are required)");
  auto w = dequantizedLSTMWeight(e, 1, 8, 9, "W");
  auto r = failed(w) ? w : dequantizedLSTMWeight(e, 2, 10, 11, "R");
  if (failed(r))
    return failure();
  std::vector<std::string> inputs = {n.input(0), *w, *r};
  for (int idx = 3; idx < 8; ++idx)
    inputs.push_back(e.has(idx) ? n.input(idx) : "");
  while (!inputs.empty() && inputs.back().empty())
    inputs.pop_back();
  onnx::NodeProto &lstm = e.add("LSTM", inputs, n.output(0));
  for (int k = 1; k < n.output_size(); ++k)
    lstm.add_output(n.output(k));
  for (const onnx::AttributeProto &a : n.attribute())
    *lstm.add_attribute() = a;
  return success();
}

LogicalResult Importer::importMicrosoftNode(const onnx::NodeProto &n) {
  // The attribute types are those of ONNX Runtime's contrib op schemas.
  using onnx::AttributeProto;
  StringRef op = n.op_type();
  if (n.output(0).empty())
    return fail("output 0 has no name");
  Expansion e(*this, n);
  // The pools' NHWC variant would need another logical layout.
  auto channelsFirst = [&]() -> LogicalResult {
    if (attrInt("channels_last").value_or(0) != 0)
      return fail("channels_last = 1 is not supported");
    return success();
  };
  LogicalResult built = failure();
  if (op == "QuantizeLinear" || op == "DequantizeLinear") {
    // Version 1 of the standard ops, from before ONNX had them.
    if (failed(checkAttrTypes({{"axis", AttributeProto::INT}},
                              /*rejectOthers=*/false)))
      return failure();
    onnx::NodeProto &copy = e.nodes.emplace_back(n);
    copy.clear_domain();
    built = success();
  } else if (op == "Gelu") {
    // ONNX Runtime's fusion of Div -> Erf -> Add -> Mul -> Mul: the standard
    // Gelu of opset 20, exact form.
    if (failed(checkAttrs({})))
      return failure();
    onnx::NodeProto &copy = e.nodes.emplace_back(n);
    copy.clear_domain();
    built = success();
  } else if (op == "QLinearAdd" || op == "QLinearMul") {
    if (failed(checkAttrs({})))
      return failure();
    built = expandBinary(e, op == "QLinearAdd" ? "Add" : "Mul");
  } else if (op == "QLinearWhere") {
    // condition, X, x_scale, x_zp, Y, y_scale, y_zp, z_scale, z_zp.
    if (failed(checkAttrs({})))
      return failure();
    if (!e.has(0) || !e.has(1) || !e.has(2) || !e.has(4) || !e.has(5) ||
        !e.has(7))
      return fail("needs condition, X, x_scale, Y, y_scale and z_scale "
                  "(inputs 0, 1, 2, 4, 5, 7)");
    std::string out = e.fresh("Where");
    e.add("Where", {n.input(0), e.dequantize(1, 2, 3), e.dequantize(4, 5, 6)},
          out);
    built = e.quantize(out, 7, 8, /*like=*/1);
  } else if (op == "QLinearSigmoid") {
    if (failed(checkAttrs({})))
      return failure();
    built = expandUnary(e, "Sigmoid", {});
  } else if (op == "QLinearLeakyRelu") {
    if (failed(checkAttrTypes({{"alpha", AttributeProto::FLOAT}})))
      return failure();
    built = expandUnary(e, "LeakyRelu", {"alpha"});
  } else if (op == "QLinearSoftmax") {
    // `opset` names the Softmax definition (the axis rule changed in 13).
    if (failed(checkAttrTypes(
            {{"axis", AttributeProto::INT}, {"opset", AttributeProto::INT}})))
      return failure();
    if (!attrInt("opset"))
      return fail("the required attribute 'opset' is missing");
    built = expandUnary(e, "Softmax", {"axis"});
  } else if (op == "QLinearGlobalAveragePool") {
    if (failed(checkAttrTypes({{"channels_last", AttributeProto::INT}})) ||
        failed(channelsFirst()))
      return failure();
    built = expandUnary(e, "GlobalAveragePool", {});
  } else if (op == "QLinearAveragePool") {
    // The pool's own attributes are copied to the AveragePool it becomes;
    // channels_last is the com.microsoft op's.
    SmallVector<TypedAttr> typed = {{"auto_pad", AttributeProto::STRING},
                                    {"ceil_mode", AttributeProto::INT},
                                    {"count_include_pad", AttributeProto::INT},
                                    {"kernel_shape", AttributeProto::INTS},
                                    {"pads", AttributeProto::INTS},
                                    {"strides", AttributeProto::INTS}};
    SmallVector<StringRef> poolAttrs = llvm::to_vector(
        llvm::map_range(typed, [](const TypedAttr &a) { return a.first; }));
    typed.push_back({"channels_last", AttributeProto::INT});
    if (failed(checkAttrTypes(typed)) || failed(channelsFirst()))
      return failure();
    built = expandUnary(e, "AveragePool", poolAttrs);
  } else if (op == "QLinearReduceMean") {
    if (failed(checkAttrTypes({{"axes", AttributeProto::INTS},
                               {"keepdims", AttributeProto::INT}})))
      return failure();
    built = expandReduceMean(e);
  } else if (op == "QLinearConcat") {
    if (failed(checkAttrTypes({{"axis", AttributeProto::INT}})))
      return failure();
    built = expandConcat(e);
  } else if (op == "MatMulIntegerToFloat") {
    // A, B, a_scale, b_scale, a_zero_point, b_zero_point, bias.
    if (failed(checkAttrs({})))
      return failure();
    if (!e.has(0) || !e.has(1) || !e.has(2) || !e.has(3))
      return fail("needs A, B, a_scale and b_scale (inputs 0-3)");
    addIntegerMatmulToFloat(e, n.input(0), n.input(1), n.input(2), n.input(3),
                            optionalInput(e, 4), optionalInput(e, 5),
                            optionalInput(e, 6), n.output(0));
    built = success();
  } else if (op == "DynamicQuantizeMatMul") {
    // A (f32), B, b_scale, b_zero_point, bias: A quantized per tensor at run
    // time (DynamicQuantizeLinear), then MatMulIntegerToFloat.
    if (failed(checkAttrs({})))
      return failure();
    if (!e.has(0) || !e.has(1) || !e.has(2))
      return fail("needs A, B and b_scale (inputs 0-2)");
    std::string codes = e.fresh("a_codes"), scale = e.fresh("a_scale"),
                zero = e.fresh("a_zero_point");
    onnx::NodeProto &dq = e.add("DynamicQuantizeLinear", {n.input(0)}, codes);
    dq.add_output(scale);
    dq.add_output(zero);
    addIntegerMatmulToFloat(e, codes, n.input(1), scale, n.input(2), zero,
                            optionalInput(e, 3), optionalInput(e, 4),
                            n.output(0));
    built = success();
  } else if (op == "DynamicQuantizeLSTM") {
    if (failed(checkAttrTypes({{"activation_alpha", AttributeProto::FLOATS},
                               {"activation_beta", AttributeProto::FLOATS},
                               {"activations", AttributeProto::STRINGS},
                               {"clip", AttributeProto::FLOAT},
                               {"direction", AttributeProto::STRING},
                               {"hidden_size", AttributeProto::INT},
                               {"input_forget", AttributeProto::INT}})))
      return failure();
    built = expandDynamicQuantizeLSTM(e);
  } else if (op == "QGemm") {
    if (failed(checkAttrTypes({{"alpha", AttributeProto::FLOAT},
                               {"transA", AttributeProto::INT},
                               {"transB", AttributeProto::INT}})))
      return failure();
    built = expandQGemm(e);
  } else if (isTransformerOp(op)) {
    return importTransformerOp(n);
  } else {
    return fail("unsupported com.microsoft operator");
  }
  if (failed(built))
    return failure();

  std::optional<int64_t> savedOpset;
  if (op == "QLinearSoftmax") {
    savedOpset = opset;
    opset = *attrInt("opset");
  }
  LogicalResult result = importExpansion(n, e.nodes);
  if (savedOpset)
    opset = *savedOpset;
  return result;
}

LogicalResult Importer::importExpansion(const onnx::NodeProto &n,
                                        ArrayRef<onnx::NodeProto> nodes) {
  // Diagnostics name the original node (the outermost, for an expansion
  // inside another: GroupQueryAttention's RotaryEmbedding).
  const onnx::NodeProto *outer = expandedFrom;
  if (!outer)
    expandedFrom = &n;
  LogicalResult result = success();
  for (const onnx::NodeProto &part : nodes)
    if (failed(importNode(part))) {
      result = failure();
      break;
    }
  expandedFrom = outer;
  node = &n;
  return result;
}
