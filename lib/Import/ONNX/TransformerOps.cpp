//===- TransformerOps.cpp - ONNX Runtime's fused transformer ops ----------===//
//
// ONNX Runtime's transformer optimizer (onnxruntime.transformers) fuses the
// subgraphs of BERT- and GPT-style models into com.microsoft ops, and its
// dynamic quantizer turns the fused Attention into QAttention. Each is
// imported as the standard nodes ONNX Runtime's CPU kernel computes
// (Expansion.h), so an optimized graph and its unfused twin become the same
// IR:
//
// - FastGelu (X + bias, tanh form), BiasGelu (A + B, erf form), QuickGelu
//   (x * Sigmoid(alpha * x)).
// - SkipLayerNormalization: LayerNormalization of input + skip (+ bias)
//   over the last axis; SkipSimplifiedLayerNormalization: the same sum
//   divided by its root mean square, times gamma. Output 3 is the sum.
// - FusedMatMul: alpha * op(A) x op(B), op transposing the last two axes.
// - Attention and QAttention: the QKV projection (QAttention's in integers,
//   as MatMulInteger dequantized with input_scale * weight_scale, plus the
//   bias), split into heads; Softmax(scale * Q K^T + mask) V, heads joined.
//   The mask is ONNX Runtime's: every position a mask excludes gets
//   mask_filter_value (-10000 by default), and a unidirectional (causal)
//   one adds it once more above the diagonal. mask_index may be absent, a
//   1-D end position per batch (or end and start positions, 2B values), a
//   2-D raw 0/1 mask of B x S (B x 1 and 1 x 1: no mask) or a 3-D raw
//   mask of B x S x S. Past state, rotary embeddings and 4-D masks are
//   rejected.
// - EmbedLayerNormalization: LayerNormalization of word + position (+
//   segment) embeddings, gathered by the run-time ids (positions 0..S-1
//   without position_ids); its mask_index output counts the ones of each
//   mask row, as Attention's 1-D mask_index takes it. QEmbedLayer-
//   Normalization is the same of its dequantized tables.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
using onnx::AttributeProto;

/// The shape of input `idx`, or a failure naming `what` when absent.
FailureOr<SmallVector<int64_t>> inputShape(Importer &im, unsigned idx) {
  auto v = im.input(idx);
  if (failed(v))
    return failure();
  return SmallVector<int64_t>((*v)->shape);
}

/// Fails on a named output among `outputs` (ones the expansion cannot
/// produce, such as a LayerNormalization's saved mean).
LogicalResult rejectOutputs(Importer &im, const onnx::NodeProto &n,
                            llvm::ArrayRef<int> outputs, llvm::StringRef what) {
  for (int idx : outputs)
    if (idx < n.output_size() && !n.output(idx).empty())
      return im.fail("output " + Twine(idx) + " (" + what +
                     ") is not supported");
  return success();
}

LogicalResult expandGelu(Importer &im, Expansion &e, llvm::StringRef op) {
  const onnx::NodeProto &n = e.n;
  SmallVector<Importer::TypedAttr> typed;
  if (op == "QuickGelu")
    typed.push_back({"alpha", AttributeProto::FLOAT});
  if (failed(im.checkAttrTypes(typed)))
    return failure();
  if (!e.has(0))
    return im.fail("input 0 is missing");
  std::string x = n.input(0);
  if (op == "QuickGelu") {
    float alpha = im.attrFloat("alpha").value_or(1.702f);
    std::string gate = e.op("Sigmoid", {e.op("Mul", {x, e.scalar(alpha)})});
    e.op("Mul", {x, gate}, n.output(0));
    return success();
  }
  if (op == "BiasGelu" && !e.has(1))
    return im.fail("input 1 (B) is missing");
  if (e.has(1))
    x = e.op("Add", {x, n.input(1)});
  onnx::NodeProto &gelu = e.add("Gelu", {x}, n.output(0));
  if (op == "FastGelu")
    Expansion::setString(gelu, "approximate", "tanh");
  return success();
}

/// input + skip (+ bias), as ONNX Runtime adds them; named output 3 when
/// the node names it.
std::string skipSum(Expansion &e, int biasIdx) {
  const onnx::NodeProto &n = e.n;
  bool bias = e.has(biasIdx);
  std::string sum = e.op("Add", {n.input(0), n.input(1)},
                         bias ? std::string() : e.outputOr(3, "sum"));
  if (bias)
    sum = e.op("Add", {sum, n.input(biasIdx)}, e.outputOr(3, "sum"));
  return sum;
}

/// The inputs and attributes both skip normalizations take.
LogicalResult checkSkipNorm(Importer &im, Expansion &e) {
  if (failed(im.checkAttrTypes({{"epsilon", AttributeProto::FLOAT}})) ||
      failed(rejectOutputs(im, e.n, {1, 2}, "mean, inv_std_var")))
    return failure();
  if (!e.has(0) || !e.has(1) || !e.has(2))
    return im.fail("needs input, skip and gamma (inputs 0-2)");
  return success();
}

LogicalResult expandSkipLayerNorm(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(checkSkipNorm(im, e)))
    return failure();
  std::string sum = skipSum(e, /*biasIdx=*/4);
  std::vector<std::string> inputs = {sum, n.input(2)};
  if (e.has(3))
    inputs.push_back(n.input(3));
  onnx::NodeProto &norm = e.add("LayerNormalization", inputs, n.output(0));
  Expansion::setInt(norm, "axis", -1);
  e.copyAttr(norm, "epsilon");
  return success();
}

LogicalResult expandSkipSimplifiedLayerNorm(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(checkSkipNorm(im, e)))
    return failure();
  float epsilon = im.attrFloat("epsilon").value_or(1e-5f);
  std::string sum = skipSum(e, /*biasIdx=*/3);
  std::string meanSquare =
      e.reduce("ReduceMean", e.op("Mul", {sum, sum}), {-1});
  std::string rms =
      e.op("Sqrt", {e.op("Add", {meanSquare, e.scalar(epsilon)})});
  e.op("Mul", {e.op("Div", {sum, rms}), n.input(2)}, n.output(0));
  return success();
}

/// The permutation swapping the last two of `rank` axes.
std::vector<int64_t> swapLastTwo(int64_t rank) {
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    perm.push_back(d);
  std::swap(perm[rank - 2], perm[rank - 1]);
  return perm;
}

LogicalResult expandFusedMatMul(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"alpha", AttributeProto::FLOAT},
                                {"transA", AttributeProto::INT},
                                {"transB", AttributeProto::INT},
                                {"transBatchA", AttributeProto::INT},
                                {"transBatchB", AttributeProto::INT}})))
    return failure();
  if (im.attrInt("transBatchA").value_or(0) ||
      im.attrInt("transBatchB").value_or(0))
    return im.fail("transBatchA / transBatchB = 1 is not supported");
  if (!e.has(0) || !e.has(1))
    return im.fail("needs A and B (inputs 0, 1)");
  std::string operands[2] = {n.input(0), n.input(1)};
  const char *trans[2] = {"transA", "transB"};
  for (int i = 0; i < 2; ++i) {
    if (!im.attrInt(trans[i]).value_or(0))
      continue;
    auto shape = inputShape(im, i);
    if (failed(shape))
      return failure();
    if (shape->size() < 2)
      return im.fail(Twine(trans[i]) + " = 1 on an operand of rank " +
                     Twine(shape->size()) + " (needs rank >= 2)");
    operands[i] = e.transpose(operands[i], swapLastTwo(shape->size()));
  }
  float alpha = im.attrFloat("alpha").value_or(1.0f);
  if (alpha == 1.0f) {
    e.op("MatMul", {operands[0], operands[1]}, n.output(0));
    return success();
  }
  e.op("Mul", {e.op("MatMul", {operands[0], operands[1]}), e.scalar(alpha)},
       n.output(0));
  return success();
}

/// 0, 1, ..., n - 1.
std::vector<int64_t> positions(int64_t n) {
  std::vector<int64_t> v(n);
  for (int64_t p = 0; p < n; ++p)
    v[p] = p;
  return v;
}

/// Where `valid` holds 0, elsewhere `filter`: ONNX Runtime's additive mask.
std::string additiveMask(Expansion &e, const std::string &valid, float filter) {
  return e.op("Where", {valid, e.scalar(0.0f), e.scalar(filter)});
}

/// The shared part of Attention and QAttention, from the projected
/// `qkv` (B x S x (Dq + Dk + Dv)). `maskIdx` names the mask_index input,
/// `biasIdx` the attention bias (-1: none in this op).
LogicalResult expandAttentionCore(Importer &im, Expansion &e,
                                  const std::string &qkv, int64_t batch,
                                  int64_t seq, int64_t width, int maskIdx,
                                  int biasIdx) {
  const onnx::NodeProto &n = e.n;
  if (im.opset < 10)
    return im.fail("needs a standard opset >= 10 (the model imports " +
                   Twine(im.opset) + ")");
  // The mask's position tables hold S values (and the scores B x N x S x
  // S): bounded, so that a hostile shape is diagnosed, not allocated.
  constexpr int64_t kMaxSequence = int64_t(1) << 16;
  if (seq > kMaxSequence)
    return im.fail("sequence length " + Twine(seq) + " exceeds " +
                   Twine(kMaxSequence));
  auto heads = im.attrInt("num_heads");
  if (!heads)
    return im.fail("the required attribute 'num_heads' is missing");
  if (*heads <= 0)
    return im.fail("num_heads = " + Twine(*heads) + " (must be positive)");
  auto given = im.attrInts("qkv_hidden_sizes");
  if (!given && width % 3 != 0)
    return im.fail("the weights' " + Twine(width) +
                   " columns are not a multiple of 3 (and no "
                   "qkv_hidden_sizes)");
  std::vector<int64_t> sizes =
      given.value_or(std::vector<int64_t>(3, width / 3));
  if (sizes.size() != 3)
    return im.fail("qkv_hidden_sizes has " + Twine(sizes.size()) +
                   " values (needs 3)");
  auto sizesText = [&] {
    return "(" + std::to_string(sizes[0]) + ", " + std::to_string(sizes[1]) +
           ", " + std::to_string(sizes[2]) + ")";
  };
  if (llvm::any_of(sizes, [&](int64_t d) { return d <= 0 || d > width; }) ||
      sizes[0] + sizes[1] + sizes[2] != width)
    return im.fail("the weights' " + Twine(width) +
                   " columns are not the Q, K and V hidden sizes " +
                   sizesText());
  if (sizes[0] != sizes[1])
    return im.fail("Q and K hidden sizes differ (" + Twine(sizes[0]) + ", " +
                   Twine(sizes[1]) + ")");
  for (int64_t d : sizes)
    if (d % *heads != 0)
      return im.fail("hidden size " + Twine(d) + " is not a multiple of " +
                     "num_heads = " + Twine(*heads));
  int64_t qkHead = sizes[0] / *heads, vHead = sizes[2] / *heads;
  float filter = im.attrFloat("mask_filter_value").value_or(-10000.0f);
  float scale = im.attrFloat("scale").value_or(0.0f);
  if (scale == 0.0f)
    scale = 1.0f / std::sqrt(static_cast<float>(qkHead));

  std::string q = e.slice(qkv, 2, 0, sizes[0]);
  std::string k = e.slice(qkv, 2, sizes[0], sizes[0] + sizes[1]);
  std::string v = e.slice(qkv, 2, sizes[0] + sizes[1], width);
  q = e.transpose(e.reshape(q, {batch, seq, *heads, qkHead}), {0, 2, 1, 3});
  k = e.transpose(e.reshape(k, {batch, seq, *heads, qkHead}), {0, 2, 3, 1});
  v = e.transpose(e.reshape(v, {batch, seq, *heads, vHead}), {0, 2, 1, 3});
  std::string scores = e.op("Mul", {e.op("MatMul", {q, k}), e.scalar(scale)});

  // The additive mask, (B x 1 x) S x S or B x 1 x 1 x S.
  std::string mask;
  if (e.has(maskIdx)) {
    auto m = im.input(maskIdx);
    if (failed(m))
      return failure();
    if ((*m)->dtype != onnx::TensorProto::INT32)
      return im.fail("mask_index must be int32");
    ArrayRef<int64_t> ms = (*m)->shape;
    std::string in = n.input(maskIdx);
    if (ms.size() == 1 && (ms[0] == batch || ms[0] == 2 * batch)) {
      std::string pos = e.int32s({1, seq}, positions(seq));
      std::string end = e.reshape(e.slice(in, 0, 0, batch), {batch, 1});
      std::string valid = e.op("Less", {pos, end});
      if (ms[0] == 2 * batch) {
        std::string start =
            e.reshape(e.slice(in, 0, batch, 2 * batch), {batch, 1});
        valid = e.op("And", {valid, e.op("Not", {e.op("Less", {pos, start})})});
      }
      mask = e.reshape(additiveMask(e, valid, filter), {batch, 1, 1, seq});
    } else if (ms.size() == 2 && (ms[0] == batch || ms[0] == 1) && ms[1] == 1) {
      // ONNX Runtime's dummy mask: no mask.
    } else if (ms.size() == 2 && ms[0] == batch && ms[1] == seq) {
      std::string valid = e.op("Greater", {in, e.int32s({}, {0})});
      mask = e.reshape(additiveMask(e, valid, filter), {batch, 1, 1, seq});
    } else if (ms.size() == 3 && ms[0] == batch && ms[1] == seq &&
               ms[2] == seq) {
      std::string valid = e.op("Greater", {in, e.int32s({}, {0})});
      mask = e.reshape(additiveMask(e, valid, filter), {batch, 1, seq, seq});
    } else {
      std::string shape;
      for (int64_t d : ms)
        shape += (shape.empty() ? "" : "x") + std::to_string(d);
      return im.fail("mask_index of shape " +
                     Twine(shape.empty() ? "()" : shape) +
                     " is not supported (B, 2B, B x S, B x 1, 1 x 1 or B x S x "
                     "S with B = " +
                     Twine(batch) + ", S = " + Twine(seq) + ")");
    }
  }
  if (im.attrInt("unidirectional").value_or(0)) {
    // Key position t > query position s, compared rather than tabulated
    // (S x S constants for long sequences).
    std::string rows = e.int32s({seq, 1}, positions(seq));
    std::string cols = e.int32s({1, seq}, positions(seq));
    std::string above = e.op("Where", {e.op("Greater", {cols, rows}),
                                       e.scalar(filter), e.scalar(0.0f)});
    mask = mask.empty() ? above : e.op("Add", {mask, above});
  }
  if (!mask.empty())
    scores = e.op("Add", {scores, mask});
  if (biasIdx >= 0 && e.has(biasIdx))
    scores = e.op("Add", {scores, n.input(biasIdx)});
  std::string probs = e.fresh("probs");
  Expansion::setInt(e.add("Softmax", {scores}, probs), "axis", -1);
  std::string context = e.transpose(e.op("MatMul", {probs, v}), {0, 2, 1, 3});
  e.op("Reshape", {context, e.constInts("shape", {batch, seq, sizes[2]})},
       n.output(0));
  return success();
}

/// The attributes Attention and QAttention share, checked; past state and
/// rotary embeddings rejected.
LogicalResult checkAttentionAttrs(Importer &im, const onnx::NodeProto &n,
                                  int pastIdx, bool quantized) {
  SmallVector<Importer::TypedAttr> typed = {
      {"num_heads", AttributeProto::INT},
      {"unidirectional", AttributeProto::INT},
      {"mask_filter_value", AttributeProto::FLOAT},
      {"scale", AttributeProto::FLOAT},
      {"do_rotary", AttributeProto::INT},
      {"past_present_share_buffer", AttributeProto::INT}};
  if (!quantized) {
    typed.push_back({"qkv_hidden_sizes", AttributeProto::INTS});
    typed.push_back({"rotary_embedding_dim", AttributeProto::INT});
  }
  if (failed(im.checkAttrTypes(typed)))
    return failure();
  if (im.attrInt("do_rotary").value_or(0))
    return im.fail("do_rotary = 1 is not supported");
  if (pastIdx < n.input_size() && !n.input(pastIdx).empty())
    return im.fail("past state (input " + Twine(pastIdx) +
                   ") is not supported");
  return rejectOutputs(im, n, {1}, "present");
}

/// B x S x hidden input and hidden x W weights: B, S and W.
FailureOr<std::array<int64_t, 3>> projectionShape(Importer &im) {
  auto in = inputShape(im, 0);
  if (failed(in))
    return failure();
  auto w = inputShape(im, 1);
  if (failed(w))
    return failure();
  if (in->size() != 3)
    return im.fail("input has rank " + Twine(in->size()) +
                   " (needs batch x sequence x hidden)");
  if (w->size() != 2 || (*w)[0] != (*in)[2])
    return im.fail("weights must be hidden x (Q + K + V) with hidden = " +
                   Twine((*in)[2]));
  return std::array<int64_t, 3>{(*in)[0], (*in)[1], (*w)[1]};
}

LogicalResult expandAttention(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(checkAttentionAttrs(im, n, /*pastIdx=*/4, /*quantized=*/false)))
    return failure();
  if (im.attrInt("rotary_embedding_dim").value_or(0))
    return im.fail("rotary_embedding_dim is not supported");
  if (e.has(6))
    return im.fail("past_sequence_length (input 6) is not supported");
  if (!e.has(0) || !e.has(1))
    return im.fail("needs input and weights (inputs 0, 1)");
  auto shape = projectionShape(im);
  if (failed(shape))
    return failure();
  auto [batch, seq, width] = *shape;
  std::string qkv = e.op("MatMul", {n.input(0), n.input(1)});
  if (e.has(2))
    qkv = e.op("Add", {qkv, n.input(2)});
  return expandAttentionCore(im, e, qkv, batch, seq, width, /*maskIdx=*/3,
                             /*biasIdx=*/5);
}

LogicalResult expandQAttention(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(checkAttentionAttrs(im, n, /*pastIdx=*/8, /*quantized=*/true)))
    return failure();
  if (!e.has(0) || !e.has(1) || !e.has(2) || !e.has(3) || !e.has(4))
    return im.fail("needs input, weight, bias, input_scale and weight_scale "
                   "(inputs 0-4)");
  auto shape = projectionShape(im);
  if (failed(shape))
    return failure();
  auto [batch, seq, width] = *shape;
  std::string qkv = e.fresh("qkv");
  addIntegerMatmulToFloat(e, n.input(0), n.input(1), n.input(3), n.input(4),
                          e.has(6) ? n.input(6) : std::string(),
                          e.has(7) ? n.input(7) : std::string(), n.input(2),
                          qkv);
  return expandAttentionCore(im, e, qkv, batch, seq, width, /*maskIdx=*/5,
                             /*biasIdx=*/-1);
}
LogicalResult expandEmbedLayerNorm(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"epsilon", AttributeProto::FLOAT},
                                {"mask_index_type", AttributeProto::INT}})))
    return failure();
  // input_ids, segment_ids, word_embedding, position_embedding,
  // segment_embedding, gamma, beta, mask, position_ids.
  if (!e.has(0) || !e.has(2) || !e.has(3) || !e.has(5))
    return im.fail("needs input_ids, word_embedding, position_embedding and "
                   "gamma (inputs 0, 2, 3, 5)");
  if (e.has(1) != e.has(4))
    return im.fail("segment_ids and segment_embedding (inputs 1, 4) must be "
                   "given together");
  auto ids = inputShape(im, 0);
  if (failed(ids))
    return failure();
  if (ids->size() != 2)
    return im.fail("input_ids must be batch x sequence");
  int64_t seq = (*ids)[1];
  auto positions = inputShape(im, 3);
  if (failed(positions))
    return failure();
  if (positions->size() != 2 || (*positions)[0] < seq)
    return im.fail("position_embedding must have at least " + Twine(seq) +
                   " rows (one per position)");
  std::string sum = e.op("Gather", {n.input(2), n.input(0)});
  std::string position = e.has(8) ? e.op("Gather", {n.input(3), n.input(8)})
                                  : e.slice(n.input(3), 0, 0, seq);
  sum = e.op("Add", {sum, position});
  if (e.has(1))
    sum = e.op("Add", {sum, e.op("Gather", {n.input(4), n.input(1)})},
               e.outputOr(2, "sum"));
  else if (n.output_size() > 2 && !n.output(2).empty())
    sum = e.op("Identity", {sum}, n.output(2));
  std::vector<std::string> normInputs = {sum, n.input(5)};
  if (e.has(6))
    normInputs.push_back(n.input(6));
  onnx::NodeProto &norm = e.add("LayerNormalization", normInputs, n.output(0));
  Expansion::setInt(norm, "axis", -1);
  Expansion::setFloat(norm, "epsilon",
                      im.attrFloat("epsilon").value_or(1e-12f));
  if (n.output_size() > 1 && !n.output(1).empty()) {
    // mask_index: the number of ones in each row of the mask.
    if (!e.has(7))
      return im.fail("output 1 (mask_index) needs the mask (input 7)");
    if (im.attrInt("mask_index_type").value_or(1) != 1)
      return im.fail("output 1 (mask_index) with mask_index_type != 1");
    std::string ones = e.fresh("ones");
    Expansion::setInt(
        e.add("Cast", {e.op("Equal", {n.input(7), e.int32s({}, {1})})}, ones),
        "to", onnx::TensorProto::FLOAT);
    std::string count = e.reduce("ReduceSum", ones, {1}, /*keepdims=*/false);
    Expansion::setInt(e.add("Cast", {count}, n.output(1)), "to",
                      onnx::TensorProto::INT32);
  }
  return success();
}
/// EmbedLayerNormalization of the dequantized tables (ONNX Runtime's
/// dynamic quantization of the embeddings): inputs 0-7 as there, then the
/// scales (8-12) and zero points (13-17) of the quantized inputs 2-6.
LogicalResult expandQEmbedLayerNorm(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"epsilon", AttributeProto::FLOAT}})))
    return failure();
  for (int idx : {0, 2, 3, 5, 6, 8, 9, 11, 12, 13, 14, 16, 17})
    if (!e.has(idx))
      return im.fail("input " + Twine(idx) + " is missing (QEmbedLayer" +
                     "Normalization needs ids, the quantized word and "
                     "position tables, gamma and beta with their scales and "
                     "zero points)");
  if (e.has(1) != e.has(4) || e.has(4) != e.has(10))
    return im.fail("segment_ids, segment_embedding and its scale (inputs 1, "
                   "4, 10) must be given together");
  auto optional = [&](int idx) { return e.has(idx) ? n.input(idx) : ""; };
  std::vector<std::string> inputs = {n.input(0),
                                     optional(1),
                                     e.dequantize(2, 8, 13),
                                     e.dequantize(3, 9, 14),
                                     e.has(4) ? e.dequantize(4, 10, 15) : "",
                                     e.dequantize(5, 11, 16),
                                     e.dequantize(6, 12, 17),
                                     optional(7)};
  onnx::NodeProto &embed =
      e.add("EmbedLayerNormalization", inputs, n.output(0));
  embed.set_domain("com.microsoft");
  if (n.output_size() > 1)
    embed.add_output(n.output(1));
  e.copyAttr(embed, "epsilon");
  return success();
}
} // namespace

namespace {
using ExpandFn = LogicalResult (*)(Importer &, Expansion &);

/// The op each expansion stands for: the one list importTransformerOp and
/// isTransformerOp read.
const std::pair<StringRef, ExpandFn> kTransformerOps[] = {
    {"FastGelu",
     [](Importer &im, Expansion &e) { return expandGelu(im, e, "FastGelu"); }},
    {"BiasGelu",
     [](Importer &im, Expansion &e) { return expandGelu(im, e, "BiasGelu"); }},
    {"QuickGelu",
     [](Importer &im, Expansion &e) { return expandGelu(im, e, "QuickGelu"); }},
    {"SkipLayerNormalization", expandSkipLayerNorm},
    {"SkipSimplifiedLayerNormalization", expandSkipSimplifiedLayerNorm},
    {"FusedMatMul", expandFusedMatMul},
    {"Attention", expandAttention},
    {"QAttention", expandQAttention},
    {"EmbedLayerNormalization", expandEmbedLayerNorm},
    {"QEmbedLayerNormalization", expandQEmbedLayerNorm},
};

ExpandFn transformerExpansion(StringRef op) {
  for (const auto &[name, fn] : kTransformerOps)
    if (name == op)
      return fn;
  return nullptr;
}
} // namespace

bool quantopt::onnx_import::detail::isTransformerOp(llvm::StringRef op) {
  return transformerExpansion(op) != nullptr;
}

LogicalResult Importer::importTransformerOp(const onnx::NodeProto &n) {
  ExpandFn expand = transformerExpansion(n.op_type());
  if (!expand)
    return fail("unsupported com.microsoft operator");
  Expansion e(*this, n);
  if (failed(expand(*this, e)))
    return failure();
  return importExpansion(n, e.nodes);
}
