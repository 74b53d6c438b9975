//===- RotaryEmbedding.cpp - ONNX Runtime's RotaryEmbedding ---------------===//
//
// com.microsoft RotaryEmbedding (LLaMA / Phi / Mistral exports of ONNX
// Runtime's transformer optimizer and model builder): rotary position
// embeddings of query or key heads, as ONNX Runtime's CPU kernel computes
// them. Each head's first R = rotary_embedding_dim values are rotated in
// pairs by the angle of the position's cache row:
//
//   out[i] = x[i] * cos[p, c] + sign * x[j] * sin[p, c]
//
// with, for the half-split (GPT-NeoX) form, c = i mod R/2, j = (i + R/2)
// mod R, sign -1 on the first half; for the interleaved (GPT-J) form c =
// i / 2, j = i xor 1, sign -1 on even i. A product by -1 is exact, so each
// output is one f32 product plus or minus another, which the expansion
// computes as Mul, Mul, Sub / Add (bit for bit the kernel's result). The
// values past R are copied, as ONNX Runtime's newer kernels and ONNX's
// RotaryEmbedding do.
//
// Positions p: position_ids of B x S, or one start position (shape 1 or a
// scalar) followed by p + 1, ..., p + S - 1 along the sequence. Compile-time
// positions outside the caches are diagnosed, as is a sequence longer than
// the caches (ONNX Runtime fails on it). The cache rows are gathered with
// Gather's rules, so a run-time position past the caches reads the last
// row and a negative one counts from the end (ONNX Runtime reads outside
// its buffer).
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
using onnx::AttributeProto;

/// The dimensions of `shape` joined by 'x' ("()" for a scalar).
std::string shapeText(ArrayRef<int64_t> shape) {
  std::string s = joinedDims(shape);
  return s.empty() ? "()" : s;
}
} // namespace

LogicalResult
quantopt::onnx_import::detail::expandRotaryEmbedding(Importer &im,
                                                     Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"interleaved", AttributeProto::INT},
                                {"num_heads", AttributeProto::INT},
                                {"rotary_embedding_dim", AttributeProto::INT},
                                {"is_packed_batching", AttributeProto::INT},
                                {"scale", AttributeProto::FLOAT}})))
    return failure();
  if (im.opset < 10)
    return im.fail("needs a standard opset >= 10 (the model imports " +
                   Twine(im.opset) + ")");
  if (n.input_size() != 4 || n.output_size() != 1)
    return im.fail("RotaryEmbedding takes 4 inputs (input, position_ids, "
                   "cos_cache, sin_cache) and 1 output");
  ImportedValue *in[4];
  const char *names[] = {"the input", "position_ids", "cos_cache", "sin_cache"};
  for (int k = 0; k < 4; ++k) {
    auto v = k == 1 ? im.input(k) : im.floatInput(k, names[k]);
    if (failed(v))
      return failure();
    in[k] = *v;
  }
  if (in[1]->dtype != onnx::TensorProto::INT64)
    return im.fail("position_ids must be int64");
  int64_t interleaved = im.attrInt("interleaved").value_or(0);
  if (interleaved != 0 && interleaved != 1)
    return im.fail("interleaved must be 0 or 1");
  if (int64_t packedBatching = im.attrInt("is_packed_batching").value_or(0))
    return im.fail("is_packed_batching = " + Twine(packedBatching) +
                   " is not supported (only 0)");
  int64_t heads = im.attrInt("num_heads").value_or(0);
  int64_t rotaryAttr = im.attrInt("rotary_embedding_dim").value_or(0);
  int64_t rotary = rotaryAttr;
  if (heads < 0 || rotary < 0)
    return im.fail("num_heads and rotary_embedding_dim must not be negative");
  if (rotary > 0 && heads == 0)
    return im.fail("rotary_embedding_dim needs num_heads");

  // input: B x S x hidden, or B x N x S x H (heads split).
  ArrayRef<int64_t> xs = in[0]->shape;
  if (xs.size() != 3 && xs.size() != 4)
    return im.fail("input of shape " + Twine(shapeText(xs)) +
                   " (needs B x S x hidden or B x N x S x head size)");
  if (llvm::any_of(xs, [](int64_t d) { return d <= 0; }))
    return im.fail("input's dimensions must be positive");
  ArrayRef<int64_t> cs = in[2]->shape;
  if (cs.size() != 2 || in[3]->shape != cs || cs[0] <= 0 || cs[1] <= 0)
    return im.fail("cos_cache and sin_cache must both be max positions x "
                   "R / 2 (shapes " +
                   Twine(shapeText(cs)) + ", " +
                   Twine(shapeText(in[3]->shape)) + ")");
  bool split = xs.size() == 4;
  int64_t batch = xs[0], seq = split ? xs[2] : xs[1];
  int64_t hidden;
  if (llvm::MulOverflow(xs.back(), split ? xs[1] : 1, hidden) ||
      cs[1] > hidden / 2)
    return im.fail("the caches' width " + Twine(cs[1]) +
                   " exceeds half the hidden size");
  // The head size: the input's (4-D), the hidden size over num_heads, or
  // without them twice the cache's width.
  int64_t head = split ? xs[3] : heads > 0 ? hidden / heads : 2 * cs[1];
  if (!split && heads > 0 && hidden % heads != 0)
    return im.fail("hidden size " + Twine(hidden) +
                   " is not a multiple of num_heads = " + Twine(heads));
  if (split && heads > 0 && heads != xs[1])
    return im.fail("num_heads = " + Twine(heads) + " but the input has " +
                   Twine(xs[1]) + " heads");
  if (hidden % head != 0)
    return im.fail("hidden size " + Twine(hidden) +
                   " is not a multiple of the head size " + Twine(head) +
                   " (twice the cache's width)");
  int64_t nHeads = hidden / head;
  if (rotaryAttr == 0) {
    // The whole head rotates: its size must be even, the caches half as
    // wide.
    if (head % 2 != 0 || cs[1] != head / 2)
      return im.fail("the caches' width " + Twine(cs[1]) +
                     " must be half the head size " + Twine(head) +
                     " (without rotary_embedding_dim the whole head rotates)");
    rotary = head;
  }
  if (rotary > head || rotary % 2 != 0)
    return im.fail("rotary_embedding_dim = " + Twine(rotary) +
                   " must be even and at most the head size " + Twine(head));
  int64_t half = rotary / 2;
  if (cs[1] != half)
    return im.fail("the caches' width " + Twine(cs[1]) +
                   " is not rotary_embedding_dim / 2 = " + Twine(half));
  // ONNX Runtime fails on a sequence longer than the caches (it would have
  // to extend them); such a model has no result to reproduce.
  if (seq > cs[0])
    return im.fail("sequence length " + Twine(seq) + " exceeds the caches' " +
                   Twine(cs[0]) + " positions");

  // The positions, B x S or 1 x S.
  ArrayRef<int64_t> ps = in[1]->shape;
  std::string pos;
  int64_t posBatch = batch;
  bool known = in[1]->kind == Kind::Const;
  if (in[1]->numElements() == 1 && ps.size() <= 1) {
    // A start position, then one per step (a table of S positions).
    constexpr int64_t kMaxSteps = int64_t(1) << 22;
    if (seq > kMaxSteps)
      return im.fail("sequence length " + Twine(seq) +
                     " exceeds 2^22 (the positions after a start position "
                     "are a table)");
    int64_t start = known ? in[1]->i[0] : 0;
    std::vector<int64_t> steps(seq);
    for (int64_t s = 0; s < seq; ++s)
      steps[s] = start + s;
    if (known && (start < 0 || start > cs[0] - seq))
      return im.fail("positions " + Twine(start) + " to " +
                     Twine(start + seq - 1) + " are outside the caches' " +
                     Twine(cs[0]) + " rows");
    pos = e.bind("steps", int64Constant({1, seq}, std::move(steps)));
    if (!known)
      pos = e.op("Add", {e.reshape(n.input(1), {1, 1}), pos});
    posBatch = 1;
  } else if (ps.size() == 2 && ps[0] == batch && ps[1] == seq) {
    // Compile-time positions are checked here (Gather would take a
    // negative one from the end).
    if (known)
      for (int64_t p : in[1]->i)
        if (p < 0 || p >= cs[0])
          return im.fail("position " + Twine(p) + " is outside the caches' " +
                         Twine(cs[0]) + " rows");
    pos = n.input(1);
  } else {
    return im.fail("position_ids of shape " + Twine(shapeText(ps)) +
                   " (needs 1 or B x S with B = " + Twine(batch) +
                   ", S = " + Twine(seq) + ")");
  }

  // x as B x S x N x H (3-D) or B x N x S x H, the cache rows broadcast
  // over the heads' axis.
  std::string x =
      split ? n.input(0) : e.reshape(n.input(0), {batch, seq, nHeads, head});
  SmallVector<int64_t> rowShape =
      split ? SmallVector<int64_t>{posBatch, 1, seq, half}
            : SmallVector<int64_t>{posBatch, seq, 1, half};
  std::string cos = e.reshape(e.op("Gather", {n.input(2), pos}), rowShape);
  std::string sin = e.reshape(e.op("Gather", {n.input(3), pos}), rowShape);

  std::string rotated;
  if (interleaved) {
    // Pairs (x[2c], x[2c + 1]) as the last axis of ... x R/2 x 2.
    SmallVector<int64_t> pairs(
        split ? ArrayRef<int64_t>(xs)
              : ArrayRef<int64_t>{batch, seq, nHeads, head});
    pairs.back() = half;
    pairs.push_back(2);
    SmallVector<int64_t> pairRows(rowShape);
    pairRows.push_back(1);
    std::string c = e.reshape(cos, pairRows), s = e.reshape(sin, pairRows);
    std::string xr =
        e.reshape(rotary < head ? e.slice(x, 3, 0, rotary) : x, pairs);
    std::string even = e.slice(xr, 4, 0, 1), odd = e.slice(xr, 4, 1, 2);
    std::string first =
        e.op("Sub", {e.op("Mul", {even, c}), e.op("Mul", {odd, s})});
    std::string second =
        e.op("Add", {e.op("Mul", {odd, c}), e.op("Mul", {even, s})});
    std::string joined = e.fresh("pairs");
    Expansion::setInt(e.add("Concat", {first, second}, joined), "axis", 4);
    pairs.pop_back();
    pairs.back() = rotary;
    rotated = e.reshape(joined, pairs);
  } else {
    std::string x1 = e.slice(x, 3, 0, half), x2 = e.slice(x, 3, half, rotary);
    std::string first =
        e.op("Sub", {e.op("Mul", {x1, cos}), e.op("Mul", {x2, sin})});
    std::string second =
        e.op("Add", {e.op("Mul", {x2, cos}), e.op("Mul", {x1, sin})});
    rotated = e.fresh("halves");
    Expansion::setInt(e.add("Concat", {first, second}, rotated), "axis", 3);
  }
  std::string out = rotated;
  if (rotary < head) {
    out = e.fresh("with_rest");
    Expansion::setInt(
        e.add("Concat", {rotated, e.slice(x, 3, rotary, head)}, out), "axis",
        3);
  }
  if (split)
    e.op("Identity", {out}, n.output(0));
  else
    e.op("Reshape", {out, e.constInts("shape", xs)}, n.output(0));
  return success();
}
