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
//   SimplifiedLayerNormalization (in ONNX Runtime's standard domain) is
//   that RMS norm alone.
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
// - MultiHeadAttention: the same attention of Q, K and V projected
//   outside the op (cross attention: L keys for S queries; K and V may come
//   split into heads), past keys and values concatenated before them.
// - EmbedLayerNormalization: LayerNormalization of word + position (+
//   segment) embeddings, gathered by the run-time ids (positions 0..S-1
//   without position_ids); its mask_index output counts the ones of each
//   mask row, as Attention's 1-D mask_index takes it. QEmbedLayer-
//   Normalization is the same of its dequantized tables.
// - RotaryEmbedding: RotaryEmbedding.cpp; MatMulNBits: MatMulNBits.cpp;
//   GroupQueryAttention: GroupQueryAttention.cpp.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

void quantopt::onnx_import::detail::rmsNormalize(
    Expansion &e, const std::string &x, const std::string &gamma,
    ArrayRef<int64_t> axes, float epsilon, const std::string &out) {
  std::string meanSquare = e.reduce("ReduceMean", e.op("Mul", {x, x}), axes);
  std::string rms =
      e.op("Sqrt", {e.op("Add", {meanSquare, e.scalar(epsilon)})});
  e.op("Mul", {e.op("Div", {x, rms}), gamma}, out);
}

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
  int maxInputs = op == "QuickGelu" ? 1 : 2;
  if (n.input_size() > maxInputs)
    return im.fail(op + " takes at most " + Twine(maxInputs) + " input" +
                   (maxInputs == 1 ? "" : "s") + ", got " +
                   Twine(n.input_size()));
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
  if (auto eps = im.attrFloat("epsilon");
      eps && !(std::isfinite(*eps) && *eps >= 0))
    return im.fail("epsilon must be finite and non-negative");
  // ONNX Runtime's skip is B x S x H, 1 x S x H or S x H: it broadcasts to
  // the input, never the input to it.
  auto input = inputShape(im, 0);
  auto skip = failed(input) ? input : inputShape(im, 1);
  if (failed(skip))
    return failure();
  auto sum = broadcastShapes(*input, *skip);
  if (!sum || ArrayRef<int64_t>(*sum) != ArrayRef<int64_t>(*input))
    return im.fail("skip must broadcast to the input's shape (not the input "
                   "to skip's)");
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
  rmsNormalize(e, skipSum(e, /*biasIdx=*/3), n.input(2), {-1}, epsilon,
               n.output(0));
  return success();
}

/// SimplifiedLayerNormalization (ONNX Runtime's RMS norm, an op of the
/// standard domain there): x / sqrt(mean(x^2) + epsilon) * scale over the
/// axes from `axis` on.
LogicalResult expandSimplifiedLayerNorm(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"axis", AttributeProto::INT},
                                {"epsilon", AttributeProto::FLOAT},
                                {"stash_type", AttributeProto::INT}})) ||
      failed(rejectOutputs(im, n, {1}, "inv_std_var")))
    return failure();
  // ONNX Runtime registers it in the standard domain only.
  if (n.domain() == "com.microsoft")
    return im.fail("SimplifiedLayerNormalization is an op of the standard "
                   "domain, not com.microsoft");
  if (!e.has(0) || !e.has(1) || n.input_size() > 2)
    return im.fail("needs X and scale (inputs 0, 1) and no other input");
  auto eps = im.attrFloat("epsilon");
  if (eps && !(std::isfinite(*eps) && *eps >= 0))
    return im.fail("epsilon must be finite and non-negative");
  auto x = im.floatInput(0, "X");
  auto scale = failed(x) ? x : im.floatInput(1, "scale");
  if (failed(scale))
    return failure();
  ArrayRef<int64_t> shape = (*x)->shape;
  int64_t rank = shape.size();
  int64_t axis = im.attrInt("axis").value_or(-1);
  if (rank == 0 || axis < -rank || axis >= rank)
    return im.fail("axis " + Twine(axis) + " is out of range for rank " +
                   Twine(rank));
  if (axis < 0)
    axis += rank;
  // The scale holds one value per normalized element, as ONNX Runtime
  // checks it (it does not broadcast).
  ArrayRef<int64_t> normalized = shape.drop_front(axis);
  int64_t count = 1;
  for (int64_t d : normalized)
    count *= d;
  if ((*scale)->numElements() != count ||
      (*scale)->shape.size() > normalized.size())
    return im.fail("scale must hold the " + Twine(count) +
                   " normalized elements (the dimensions from axis " +
                   Twine(axis) + " on)");
  std::vector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.push_back(d);
  std::string gamma = (*scale)->shape == normalized
                          ? n.input(1)
                          : e.reshape(n.input(1), normalized);
  rmsNormalize(e, n.input(0), gamma, axes, eps.value_or(1e-5f), n.output(0));
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

/// Scaled dot-product attention over heads, as ONNX Runtime's CPU kernels
/// (AttentionCPUBase) compute it: Q, K and V split into heads (B x N x S x
/// H, B x N x T x H with T = past + L), Softmax(scale * Q K^T + mask (+
/// attention bias)) V, the heads joined into `output` (B x S x N*Hv).
struct AttentionHeads {
  std::string q, k, v;
  int64_t batch, qSeq, totalSeq, pastSeq, heads, qkHead, vHead;
};

/// The largest query or key sequence: the mask's position tables hold that
/// many values (and the scores B x N x S x T), so a hostile shape is
/// diagnosed, not allocated.
constexpr int64_t kMaxSequence = int64_t(1) << 16;

LogicalResult checkSequence(Importer &im, int64_t seq) {
  if (seq > kMaxSequence)
    return im.fail("sequence length " + Twine(seq) + " exceeds " +
                   Twine(kMaxSequence));
  return success();
}

/// The attention of `h` into `output`. `maskIdx` names the mask input
/// (`maskName` in diagnostics: 1-D
/// end positions (2B: and starts, with `attentionForms`), 2-D raw B x T
/// (B x 1 and 1 x 1 with `attentionForms`: ONNX Runtime's dummy mask, no
/// mask), 3-D raw B x S x T); `biasIdx` the attention bias (-1: none).
LogicalResult attendHeads(Importer &im, Expansion &e, const AttentionHeads &h,
                          int maskIdx, StringRef maskName, int biasIdx,
                          bool attentionForms, const std::string &output) {
  const onnx::NodeProto &n = e.n;
  if (im.opset < 10)
    return im.fail("needs a standard opset >= 10 (the model imports " +
                   Twine(im.opset) + ")");
  if (failed(checkSequence(im, h.qSeq)) ||
      failed(checkSequence(im, h.totalSeq)))
    return failure();
  float filter = im.attrFloat("mask_filter_value").value_or(-10000.0f);
  float scale = im.attrFloat("scale").value_or(0.0f);
  if (scale == 0.0f)
    scale = 1.0f / std::sqrt(static_cast<float>(h.qkHead));
  int64_t batch = h.batch, seq = h.qSeq, total = h.totalSeq;
  std::string kT = e.transpose(h.k, {0, 1, 3, 2});
  std::string scores =
      e.op("Mul", {e.op("MatMul", {h.q, kT}), e.scalar(scale)});

  // The additive mask, B x 1 x S x T or B x 1 x 1 x T.
  std::string mask;
  if (e.has(maskIdx)) {
    auto m = im.input(maskIdx);
    if (failed(m))
      return failure();
    if ((*m)->dtype != onnx::TensorProto::INT32)
      return im.fail(maskName + " must be int32");
    ArrayRef<int64_t> ms = (*m)->shape;
    std::string in = n.input(maskIdx);
    if (ms.size() == 1 &&
        (ms[0] == batch || (attentionForms && ms[0] == 2 * batch))) {
      std::string pos = e.int32s({1, total}, positions(total));
      std::string end = e.reshape(e.slice(in, 0, 0, batch), {batch, 1});
      std::string valid = e.op("Less", {pos, end});
      if (ms[0] == 2 * batch) {
        std::string start =
            e.reshape(e.slice(in, 0, batch, 2 * batch), {batch, 1});
        valid = e.op("And", {valid, e.op("Not", {e.op("Less", {pos, start})})});
      }
      mask = e.reshape(additiveMask(e, valid, filter), {batch, 1, 1, total});
    } else if (attentionForms && ms.size() == 2 &&
               (ms[0] == batch || ms[0] == 1) && ms[1] == 1) {
      // ONNX Runtime's dummy mask: no mask.
    } else if (ms.size() == 2 && ms[0] == batch && ms[1] == total) {
      std::string valid = e.op("Greater", {in, e.int32s({}, {0})});
      mask = e.reshape(additiveMask(e, valid, filter), {batch, 1, 1, total});
    } else if (ms.size() == 3 && ms[0] == batch && ms[1] == seq &&
               ms[2] == total) {
      std::string valid = e.op("Greater", {in, e.int32s({}, {0})});
      mask = e.reshape(additiveMask(e, valid, filter), {batch, 1, seq, total});
    } else {
      std::string shape = joinedDims(ms);
      std::string forms =
          attentionForms
              ? "B, 2B, B x S, B x 1, 1 x 1 or B x S x S with B = " +
                    std::to_string(batch) + ", S = " + std::to_string(seq)
              : "B, B x T or B x S x T with B = " + std::to_string(batch) +
                    ", S = " + std::to_string(seq) +
                    ", T = " + std::to_string(total);
      return im.fail(maskName + " of shape " +
                     Twine(shape.empty() ? "()" : shape) +
                     " is not supported (" + forms + ")");
    }
  }
  int64_t causal = im.attrInt("unidirectional").value_or(0);
  if (causal != 0 && causal != 1)
    return im.fail("unidirectional must be 0 or 1");
  if (causal) {
    // mask_filter_value where key position t > past + query position s: an
    // S x T constant (the importer folds no larger comparison).
    constexpr int64_t kMaxCausal = int64_t(1) << 22;
    if (seq > kMaxCausal / total)
      return im.fail("a causal mask of " + Twine(seq) + " x " + Twine(total) +
                     " positions exceeds 2^22");
    ImportedValue above;
    above.kind = Kind::Const;
    above.shape = {seq, total};
    above.f.reserve(seq * total);
    for (int64_t r = 0; r < seq; ++r)
      for (int64_t t = 0; t < total; ++t)
        above.f.push_back(t > h.pastSeq + r ? double(filter) : 0.0);
    std::string table = e.bind("causal", std::move(above));
    mask = mask.empty() ? table : e.op("Add", {mask, table});
  }
  if (biasIdx >= 0 && e.has(biasIdx)) {
    // (B or 1) x (N or 1) x S x T, as ONNX Runtime checks it.
    auto bias = im.input(biasIdx);
    if (failed(bias))
      return failure();
    ArrayRef<int64_t> bs = (*bias)->shape;
    if (bs.size() != 4 || (bs[0] != batch && bs[0] != 1) ||
        (bs[1] != h.heads && bs[1] != 1) || bs[2] != seq || bs[3] != total)
      return im.fail("the attention bias (input " + Twine(biasIdx) +
                     ") must be (B or 1) x (N or 1) x S x T with B = " +
                     Twine(batch) + ", N = " + Twine(h.heads) +
                     ", S = " + Twine(seq) + ", T = " + Twine(total));
  }
  if (!mask.empty())
    scores = e.op("Add", {scores, mask});
  if (biasIdx >= 0 && e.has(biasIdx))
    scores = e.op("Add", {scores, n.input(biasIdx)});
  std::string probs = e.fresh("probs");
  Expansion::setInt(e.add("Softmax", {scores}, probs), "axis", -1);
  std::string context = e.transpose(e.op("MatMul", {probs, h.v}), {0, 2, 1, 3});
  e.op("Reshape",
       {context, e.constInts("shape", {batch, seq, h.heads * h.vHead})},
       output);
  return success();
}

/// `x` (B x S x N*H) split into heads, B x N x S x H.
std::string splitHeads(Expansion &e, const std::string &x, int64_t batch,
                       int64_t seq, int64_t heads, int64_t head) {
  return e.transpose(e.reshape(x, {batch, seq, heads, head}), {0, 2, 1, 3});
}

/// The shared part of Attention and QAttention, from the projected
/// `qkv` (B x S x (Dq + Dk + Dv)). `maskIdx` names the mask_index input,
/// `biasIdx` the attention bias (-1: none in this op).
LogicalResult expandAttentionCore(Importer &im, Expansion &e,
                                  const std::string &qkv, int64_t batch,
                                  int64_t seq, int64_t width, int maskIdx,
                                  int biasIdx) {
  const onnx::NodeProto &n = e.n;
  if (failed(checkSequence(im, seq)))
    return failure();
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
  AttentionHeads h;
  h.batch = batch;
  h.qSeq = h.totalSeq = seq;
  h.pastSeq = 0;
  h.heads = *heads;
  h.qkHead = sizes[0] / *heads;
  h.vHead = sizes[2] / *heads;
  h.q =
      splitHeads(e, e.slice(qkv, 2, 0, sizes[0]), batch, seq, *heads, h.qkHead);
  h.k = splitHeads(e, e.slice(qkv, 2, sizes[0], sizes[0] + sizes[1]), batch,
                   seq, *heads, h.qkHead);
  h.v = splitHeads(e, e.slice(qkv, 2, sizes[0] + sizes[1], width), batch, seq,
                   *heads, h.vHead);
  return attendHeads(im, e, h, maskIdx, "mask_index", biasIdx,
                     /*attentionForms=*/true, n.output(0));
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
/// MultiHeadAttention: query (B x S x D), key and value already projected,
/// (B x L x D and B x L x Dv, the bias of D + D + Dv added to Q, K and V
/// before the heads split) or split into heads (B x N x L x H: a decoder's
/// cross attention over cached keys; no bias). past_key / past_value (B x
/// N x P x H) go before K and V; present_key / present_value are the keys
/// and values attended over. Packed QKV / KV layouts (5-D), which ONNX
/// Runtime's CPU kernel rejects too, and DecoderMaskedMultiHeadAttention's
/// inputs are diagnosed.
LogicalResult expandMultiHeadAttention(Importer &im, Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"num_heads", AttributeProto::INT},
                                {"unidirectional", AttributeProto::INT},
                                {"mask_filter_value", AttributeProto::FLOAT},
                                {"scale", AttributeProto::FLOAT}})) ||
      failed(rejectOutputs(im, n, {3}, "qk")))
    return failure();
  if (n.input_size() > 10 || n.output_size() > 4)
    return im.fail("MultiHeadAttention takes at most 10 inputs and 4 outputs");
  for (int idx : {8, 9})
    if (e.has(idx))
      return im.fail(
          "input " + Twine(idx) +
          (idx == 8 ? " (past_sequence_length)" : " (cache_indirection)") +
          " is not supported");
  auto heads = im.attrInt("num_heads");
  if (!heads)
    return im.fail("the required attribute 'num_heads' is missing");
  if (*heads <= 0)
    return im.fail("num_heads = " + Twine(*heads) + " (must be positive)");
  if (!e.has(0))
    return im.fail("input 0 (query) is missing");
  auto query = inputShape(im, 0);
  if (failed(query))
    return failure();
  if (query->size() == 5)
    return im.fail("packed QKV (a 5-D query) is not supported");
  if (query->size() != 3)
    return im.fail("query has rank " + Twine(query->size()) +
                   " (needs batch x sequence x hidden)");
  if (!e.has(1) || !e.has(2))
    return im.fail("needs key and value (inputs 1, 2; packed QKV is not "
                   "supported)");
  auto key = inputShape(im, 1);
  auto value = failed(key) ? key : inputShape(im, 2);
  if (failed(value))
    return failure();
  int64_t batch = (*query)[0], seq = (*query)[1], hidden = (*query)[2];
  int64_t nHeads = *heads;
  if (batch <= 0 || seq <= 0 || hidden <= 0)
    return im.fail("query's dimensions must be positive");
  if (hidden % nHeads != 0)
    return im.fail("hidden size " + Twine(hidden) +
                   " is not a multiple of num_heads = " + Twine(nHeads));
  int64_t qkHead = hidden / nHeads;
  if (key->size() == 5)
    return im.fail("packed KV (a 5-D key) is not supported");
  bool split = key->size() == 4;
  if ((key->size() != 3 && !split) || value->size() != key->size())
    return im.fail("key and value must both be B x L x hidden or both B x "
                   "N x L x head size (ranks " +
                   Twine(key->size()) + ", " + Twine(value->size()) + ")");
  int64_t kvSeq = split ? (*key)[2] : (*key)[1];
  int64_t vHidden = split ? (*value)[1] * (*value)[3] : (*value)[2];
  bool keyOk =
      split ? (*key)[0] == batch && (*key)[1] == nHeads && (*key)[3] == qkHead
            : (*key)[0] == batch && (*key)[2] == hidden;
  bool valueOk = split ? (*value)[0] == batch && (*value)[1] == nHeads &&
                             (*value)[2] == kvSeq
                       : (*value)[0] == batch && (*value)[1] == kvSeq;
  if (!keyOk || !valueOk)
    return im.fail(
        Twine("key or value does not match the query (") +
        (split ? "B x N x L x H" : "B x L x D") + " with B = " + Twine(batch) +
        ", N = " + Twine(nHeads) +
        (split ? ", H = " + Twine(qkHead) : ", D = " + Twine(hidden)) + ")");
  if (vHidden <= 0 || vHidden % nHeads != 0)
    return im.fail(
        "value hidden size " + Twine(vHidden) +
        " is not a positive multiple of num_heads = " + Twine(nHeads));
  AttentionHeads h;
  h.batch = batch;
  h.qSeq = seq;
  h.heads = nHeads;
  h.qkHead = qkHead;
  h.vHead = vHidden / nHeads;
  h.pastSeq = 0;
  if (failed(checkSequence(im, seq)) || failed(checkSequence(im, kvSeq)))
    return failure();

  std::string q = n.input(0), k = n.input(1), v = n.input(2);
  if (e.has(3)) {
    if (split)
      return im.fail("bias (input 3) with a 4-D key and value is not "
                     "supported (ONNX Runtime rejects it)");
    auto bias = inputShape(im, 3);
    if (failed(bias))
      return failure();
    if (bias->size() != 1 || (*bias)[0] != 2 * hidden + vHidden)
      return im.fail("bias must hold " + Twine(2 * hidden + vHidden) +
                     " values (Q, K and V hidden sizes)");
    std::string b = n.input(3);
    q = e.op("Add", {q, e.slice(b, 0, 0, hidden)});
    k = e.op("Add", {k, e.slice(b, 0, hidden, 2 * hidden)});
    v = e.op("Add", {v, e.slice(b, 0, 2 * hidden, 2 * hidden + vHidden)});
  }
  h.q = splitHeads(e, q, batch, seq, nHeads, qkHead);
  h.k = split ? k : splitHeads(e, k, batch, kvSeq, nHeads, qkHead);
  h.v = split ? v : splitHeads(e, v, batch, kvSeq, nHeads, h.vHead);
  if (e.has(6) != e.has(7))
    return im.fail("past_key and past_value (inputs 6, 7) must be given "
                   "together");
  if (e.has(6)) {
    if (split)
      return im.fail("past_key / past_value with a 4-D key and value");
    auto pastKey = inputShape(im, 6);
    auto pastValue = failed(pastKey) ? pastKey : inputShape(im, 7);
    if (failed(pastValue))
      return failure();
    if (pastKey->size() != 4 || pastValue->size() != 4 ||
        (*pastKey)[0] != batch || (*pastKey)[1] != nHeads ||
        (*pastKey)[3] != qkHead || (*pastValue)[0] != batch ||
        (*pastValue)[1] != nHeads || (*pastValue)[3] != h.vHead ||
        (*pastValue)[2] != (*pastKey)[2])
      return im.fail(
          "past_key and past_value must be B x N x P x H (B = " + Twine(batch) +
          ", N = " + Twine(nHeads) + ", H = " + Twine(qkHead) + " and " +
          Twine(h.vHead) + ", one P)");
    h.pastSeq = (*pastKey)[2];
    std::string keys = e.outputOr(1, "keys"), values = e.outputOr(2, "values");
    Expansion::setInt(e.add("Concat", {n.input(6), h.k}, keys), "axis", 2);
    Expansion::setInt(e.add("Concat", {n.input(7), h.v}, values), "axis", 2);
    h.k = keys;
    h.v = values;
  } else {
    if (n.output_size() > 1 && !n.output(1).empty())
      h.k = e.op("Identity", {h.k}, n.output(1));
    if (n.output_size() > 2 && !n.output(2).empty())
      h.v = e.op("Identity", {h.v}, n.output(2));
  }
  h.totalSeq = h.pastSeq + kvSeq;
  return attendHeads(im, e, h, /*maskIdx=*/4, "key_padding_mask",
                     /*biasIdx=*/5, /*attentionForms=*/false, n.output(0));
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
    auto mask = inputShape(im, 7);
    if (failed(mask))
      return failure();
    if (ArrayRef<int64_t>(*mask) != ArrayRef<int64_t>(*ids))
      return im.fail("the mask (input 7) must have input_ids' shape, batch "
                     "x sequence");
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
    {"SimplifiedLayerNormalization", expandSimplifiedLayerNorm},
    {"FusedMatMul", expandFusedMatMul},
    {"Attention", expandAttention},
    {"QAttention", expandQAttention},
    {"MultiHeadAttention", expandMultiHeadAttention},
    {"RotaryEmbedding", expandRotaryEmbedding},
    {"MatMulNBits", expandMatMulNBits},
    {"GroupQueryAttention", expandGroupQueryAttention},
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
