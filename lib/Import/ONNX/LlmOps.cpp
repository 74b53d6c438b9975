//===- LlmOps.cpp - ONNX's own LLM ops of opsets 23 and 24 ----------------===//
//
// RMSNormalization (23), RotaryEmbedding (23) and Swish (24), as the nodes
// their definitions are made of:
// - RMSNormalization: its function body (ONNX's defs): x / sqrt(mean(x^2)
//   over the axes from `axis` on + epsilon) * scale, in f32 (stash_type 1).
// - RotaryEmbedding: ONNX Runtime's com.microsoft RotaryEmbedding computes
//   the same rotation (RotaryEmbedding.cpp). With position_ids the caches
//   are max positions x R / 2 and the node maps input for input; without,
//   they are B x S x R / 2, read as B S rows at positions b S + s.
// - Swish: x * Sigmoid(alpha x).
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;
using onnx::AttributeProto;

LogicalResult Importer::importRMSNormalization() {
  if (failed(checkAttrTypes({{"axis", AttributeProto::INT},
                             {"epsilon", AttributeProto::FLOAT},
                             {"stash_type", AttributeProto::INT}})))
    return failure();
  if (!hasInput(0) || !hasInput(1) || node->input_size() > 2)
    return fail("needs X and scale (inputs 0, 1) and no other input");
  if (int64_t stash = attrInt("stash_type").value_or(1);
      stash != onnx::TensorProto::FLOAT)
    return fail("stash_type = " + Twine(stash) +
                " is not supported (the norm is computed in f32: 1)");
  float epsilon = attrFloat("epsilon").value_or(1e-5f);
  if (!(std::isfinite(epsilon) && epsilon >= 0))
    return fail("epsilon must be finite and non-negative");
  auto x = floatInput(0, "X");
  auto scale = failed(x) ? x : floatInput(1, "scale");
  if (failed(scale))
    return failure();
  int64_t rank = (*x)->shape.size();
  if (rank == 0)
    return fail("X must have at least one dimension");
  auto axis = normalizedAxis(attrInt("axis").value_or(-1), rank);
  if (failed(axis))
    return failure();
  // The scale broadcasts to the normalized dimensions (a Mul).
  ArrayRef<int64_t> normalized =
      ArrayRef<int64_t>((*x)->shape).drop_front(*axis);
  ArrayRef<int64_t> ss = (*scale)->shape;
  bool broadcasts = ss.size() <= normalized.size();
  for (size_t k = 0; broadcasts && k < ss.size(); ++k) {
    int64_t want = normalized[normalized.size() - ss.size() + k];
    broadcasts = ss[k] == 1 || ss[k] == want;
  }
  if (!broadcasts)
    return fail("scale of shape " + joinedDims(ss) +
                " does not broadcast to the normalized dimensions " +
                joinedDims(normalized));
  std::vector<int64_t> axes;
  for (int64_t d = *axis; d < rank; ++d)
    axes.push_back(d);
  Expansion e(*this, *node);
  rmsNormalize(e, node->input(0), node->input(1), axes, epsilon,
               node->output(0));
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importStandardRotaryEmbedding() {
  if (failed(checkAttrTypes({{"interleaved", AttributeProto::INT},
                             {"num_heads", AttributeProto::INT},
                             {"rotary_embedding_dim", AttributeProto::INT}})))
    return failure();
  if (!hasInput(0) || !hasInput(1) || !hasInput(2) || node->input_size() > 4)
    return fail("needs X, cos_cache and sin_cache (inputs 0-2), and at most "
                "position_ids after them");
  auto x = floatInput(0, "X");
  auto cos = failed(x) ? x : floatInput(1, "cos_cache");
  auto sin = failed(cos) ? cos : floatInput(2, "sin_cache");
  if (failed(sin))
    return failure();
  ArrayRef<int64_t> xs = (*x)->shape;
  if (xs.size() == 3 && attrInt("num_heads").value_or(0) == 0)
    return fail("num_heads must be given for a 3-D input");
  Expansion e(*this, *node);
  std::string pos, cosRows = node->input(1), sinRows = node->input(2);
  if (hasInput(3)) {
    pos = node->input(3);
  } else {
    // Per-sequence caches B x S x R / 2: row b S + s of their B S rows.
    ArrayRef<int64_t> cs = (*cos)->shape;
    int64_t batch = xs.empty() ? 0 : xs[0];
    int64_t seq = xs.size() == 4 ? xs[2] : xs.size() == 3 ? xs[1] : 0;
    if ((xs.size() != 3 && xs.size() != 4) || cs.size() != 3 ||
        cs[0] != batch || cs[1] != seq || (*sin)->shape != cs)
      return fail("without position_ids, cos_cache and sin_cache must both "
                  "be B x S x R / 2 of the input's B and S");
    constexpr int64_t kMaxRows = int64_t(1) << 22;
    if (batch > kMaxRows / seq)
      return fail("B x S exceeds 2^22 (the positions are a table)");
    std::vector<int64_t> rows(batch * seq);
    for (int64_t r = 0; r < batch * seq; ++r)
      rows[r] = r;
    pos = e.bind("positions", int64Constant({batch, seq}, std::move(rows)));
    cosRows = e.reshape(node->input(1), {batch * seq, cs[2]});
    sinRows = e.reshape(node->input(2), {batch * seq, cs[2]});
  }
  onnx::NodeProto &rot =
      e.add("RotaryEmbedding", {node->input(0), pos, cosRows, sinRows},
            node->output(0));
  rot.set_domain("com.microsoft");
  for (StringRef name : {"interleaved", "rotary_embedding_dim"})
    e.copyAttr(rot, name);
  // A 4-D input names its heads itself.
  if (auto heads = attrInt("num_heads"))
    Expansion::setInt(rot, "num_heads", *heads);
  else if (xs.size() == 4)
    Expansion::setInt(rot, "num_heads", xs[1]);
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importSwish() {
  if (failed(checkAttrTypes({{"alpha", AttributeProto::FLOAT}})))
    return failure();
  float alpha = attrFloat("alpha").value_or(1.0f);
  Expansion e(*this, *node);
  std::string x = node->input(0);
  e.op("Mul", {x, e.op("Sigmoid", {e.op("Mul", {x, e.scalar(alpha)})})},
       node->output(0));
  return importExpansion(*node, e.nodes);
}
