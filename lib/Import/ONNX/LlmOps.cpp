//===- LlmOps.cpp - ONNX's own LLM ops of opsets 23 and 24 ----------------===//
//
// RMSNormalization, RotaryEmbedding and Attention (23; Attention's
// nonpad_kv_seqlen 24) and Swish (24), as the nodes their definitions are
// made of, and TensorScatter (24) as one linalg.generic:
// - RMSNormalization: its function body (ONNX's defs): x / sqrt(mean(x^2)
//   over the axes from `axis` on + epsilon) * scale, in f32 (stash_type 1).
// - RotaryEmbedding: ONNX Runtime's com.microsoft RotaryEmbedding computes
//   the same rotation (RotaryEmbedding.cpp). With position_ids the caches
//   are max positions x R / 2 and the node maps input for input; without,
//   they are B x S x R / 2, read as B S rows at positions b S + s.
// - Swish: x * Sigmoid(alpha x).
// - TensorScatter: the KV-cache write of ONNX Runtime's kernel
//   (tensorscatter.cc): the update's positions along `axis` at
//   write_indices[b] (linear) or at (write_indices[b] + s) mod the cache
//   length (circular); each cache position reads the update where it was
//   written, else the past.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <limits>

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
  if (failed(checkArity(2, 1)))
    return failure();
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
  if (failed(checkArity(4, 1)))
    return failure();
  ArrayRef<int64_t> xs = (*x)->shape;
  for (ImportedValue *v : {*x, *cos, *sin})
    if (llvm::any_of(v->shape, [](int64_t d) { return d <= 0; }))
      return fail("X, cos_cache and sin_cache must have positive dimensions");
  if (xs.size() == 3 && attrInt("num_heads").value_or(0) == 0)
    return fail("num_heads must be given for a 3-D input");
  if (hasInput(3)) {
    auto ids = input(3);
    if (failed(ids))
      return failure();
    if ((*ids)->shape.size() != 2)
      return fail("position_ids must be B x S");
  }
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
  if (failed(checkAttrTypes({{"alpha", AttributeProto::FLOAT}})) ||
      failed(checkArity(1, 1)))
    return failure();
  float alpha = attrFloat("alpha").value_or(1.0f);
  Expansion e(*this, *node);
  std::string x = node->input(0);
  // A rank-0 alpha keeps a scalar input rank 0.
  ImportedValue a;
  a.kind = Kind::Const;
  a.f = {alpha};
  e.op("Mul",
       {x, e.op("Sigmoid", {e.op("Mul", {x, e.bind("alpha", std::move(a))})})},
       node->output(0));
  return importExpansion(*node, e.nodes);
}

/// TensorScatter (opset 24). ONNX Runtime's rules: axis in [1, rank) (0 is
/// the batch), the shapes equal except along it, the update no longer than
/// the cache, int64 write indices of shape [batch], each >= 0 and, in
/// linear mode, w + L <= the cache length. Compile-time indices that break
/// them are diagnosed; a run-time one writes nothing for its batch row (no
/// run-time error exists), as ScatterND's run-time tuples outside the data.
LogicalResult Importer::importTensorScatter() {
  if (failed(checkAttrTypes(
          {{"axis", AttributeProto::INT}, {"mode", AttributeProto::STRING}})) ||
      failed(checkArity(3, 1)))
    return failure();
  if (!hasInput(0) || !hasInput(1))
    return fail("needs past_cache and update (inputs 0, 1)");
  std::string mode = attrString("mode").value_or("linear");
  if (mode != "linear" && mode != "circular")
    return fail("mode must be 'linear' or 'circular', not '" + mode + "'");
  bool circular = mode == "circular";
  ImportedValue *in[2];
  for (unsigned n = 0; n < 2; ++n) {
    auto v = input(n);
    if (failed(v))
      return failure();
    in[n] = *v;
  }
  ImportedValue &past = *in[0], &update = *in[1];
  int64_t rank = past.shape.size();
  if (rank < 2 || int64_t(update.shape.size()) != rank)
    return fail("past_cache and update must have one rank, at least 2");
  int64_t axis = attrInt("axis").value_or(-2);
  if (axis < -rank || axis >= rank || (axis < 0 ? axis + rank : axis) == 0)
    return fail("axis " + Twine(axis) + " must name a dimension in [1, " +
                Twine(rank) + ") (0 is the batch)");
  if (axis < 0)
    axis += rank;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && past.shape[d] != update.shape[d])
      return fail("past_cache and update differ in dimension " + Twine(d) +
                  " (" + Twine(past.shape[d]) + " vs " +
                  Twine(update.shape[d]) + "); only the axis may differ");
  int64_t batch = past.shape[0], cacheLength = past.shape[axis],
          length = update.shape[axis];
  if (length > cacheLength)
    return fail("the update's " + Twine(length) +
                " positions exceed the cache's " + Twine(cacheLength));
  Value writeIndices;
  if (hasInput(2)) {
    auto w = input(2);
    if (failed(w))
      return failure();
    const ImportedValue &indices = **w;
    bool isInt64 = indices.kind == Kind::Int
                       ? indices.dtype == onnx::TensorProto::INT64
                       : indices.kind == Kind::Const && indices.f.empty() &&
                             indices.dtype == onnx::TensorProto::INT64;
    if (!isInt64)
      return fail("write_indices must be an int64 tensor");
    if (indices.shape.size() != 1 || indices.shape[0] != batch)
      return fail("write_indices must have shape [" + Twine(batch) +
                  "] (the batch)");
    if (indices.kind == Kind::Const)
      for (int64_t b = 0; b < batch; ++b) {
        int64_t w = indices.i[b];
        if (w < 0)
          return fail("write_indices[" + Twine(b) + "] = " + Twine(w) +
                      " is negative");
        if (!circular && w > cacheLength - length)
          return fail("write_indices[" + Twine(b) + "] = " + Twine(w) +
                      " plus the update's " + Twine(length) +
                      " positions exceeds the cache's " + Twine(cacheLength) +
                      " (linear mode)");
      }
    writeIndices = indices.kind == Kind::Int
                       ? indices.value
                       : intConstant(*this, indices, b.getI64Type());
  } else {
    writeIndices = arith::ConstantOp::create(
        b, loc,
        DenseElementsAttr::get(RankedTensorType::get({batch}, b.getI64Type()),
                               b.getI64IntegerAttr(0)));
  }
  // Nothing to write (and nothing to read the update at): the cache as it
  // is.
  if (update.numElements() == 0) {
    setOutput(0, past);
    return success();
  }
  // Codes stay codes on one per-tensor grid (as ScatterND's).
  auto tables = scatterTables(*this, past, update, "past_cache and update");
  if (failed(tables))
    return failure();
  bool codes = tables->codes;
  Value *pastTable = &tables->data;
  Type elem = cast<RankedTensorType>(pastTable->getType()).getElementType();
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, ctx),
      AffineMap::get(rank, 0, {getAffineDimExpr(0, ctx)}, ctx),
      AffineMap::getMultiDimIdentityMap(rank, ctx)};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  Value init = tensor::EmptyOp::create(b, loc, past.shape, elem);
  Value updateValues = tables->updates;
  Value present =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()},
          ValueRange{*pastTable, writeIndices}, ValueRange{init}, maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange args) {
            auto c64 = [&](int64_t v) {
              return arith::ConstantIntOp::create(nb, l, v, 64).getResult();
            };
            auto cmp = [&](arith::CmpIPredicate p, Value x, Value y) {
              return arith::CmpIOp::create(nb, l, p, x, y).getResult();
            };
            using P = arith::CmpIPredicate;
            Value w = args[1];
            Value s = arith::IndexCastOp::create(
                nb, l, nb.getI64Type(), linalg::IndexOp::create(nb, l, axis));
            Value valid = cmp(P::sge, w, c64(0));
            Value j;
            if (circular) {
              // s - (w mod C), brought into [0, C).
              Value wSafe = arith::SelectOp::create(nb, l, valid, w, c64(0));
              Value shifted = arith::SubIOp::create(
                  nb, l, s,
                  arith::RemUIOp::create(nb, l, wSafe, c64(cacheLength)));
              j = arith::SelectOp::create(
                  nb, l, cmp(P::slt, shifted, c64(0)),
                  arith::AddIOp::create(nb, l, shifted, c64(cacheLength)),
                  shifted);
            } else {
              valid = arith::AndIOp::create(
                  nb, l, valid, cmp(P::sle, w, c64(cacheLength - length)));
              j = arith::SubIOp::create(nb, l, s, w);
            }
            Value take = arith::AndIOp::create(
                nb, l, valid,
                arith::AndIOp::create(nb, l, cmp(P::sge, j, c64(0)),
                                      cmp(P::slt, j, c64(length))));
            // Position 0 where nothing is taken: in bounds, discarded.
            Value jIndex = arith::IndexCastOp::create(
                nb, l, nb.getIndexType(),
                arith::SelectOp::create(nb, l, take, j, c64(0)));
            SmallVector<Value> coords;
            for (int64_t d = 0; d < rank; ++d)
              coords.push_back(
                  d == axis ? jIndex
                            : linalg::IndexOp::create(nb, l, d).getResult());
            Value written =
                tensor::ExtractOp::create(nb, l, updateValues, coords);
            linalg::YieldOp::create(
                nb, l,
                arith::SelectOp::create(nb, l, take, written, args[0])
                    .getResult());
          })
          .getResult(0);
  setOutput(0, resultLike(*this, tables->like, codes, present, past.shape));
  return success();
}

/// ONNX's Attention (opsets 23 and 24) as the nodes of its reference
/// (onnx/reference/ops/op_attention.py): Q and K each times sqrt(scale),
/// Q K^T, soft-capped, plus the mask (a bool one as 0 / -inf, padded to
/// the keys with "masked"), the causal rule j <= i + offset (offset: the
/// past's length, else nonpad_kv_seqlen[b] - S_q, else 0), the padding rule
/// j < nonpad_kv_seqlen[b], softmax, times V. KV heads repeat for their
/// query heads (h0, h0, h1, h1, ...); present_key / present_value are the
/// past and the new keys / values.
LogicalResult Importer::importStandardAttention() {
  if (failed(checkAttrTypes({{"is_causal", AttributeProto::INT},
                             {"kv_num_heads", AttributeProto::INT},
                             {"q_num_heads", AttributeProto::INT},
                             {"qk_matmul_output_mode", AttributeProto::INT},
                             {"scale", AttributeProto::FLOAT},
                             {"softcap", AttributeProto::FLOAT},
                             {"softmax_precision", AttributeProto::INT}})))
    return failure();
  if (failed(checkArity(7, 4)))
    return failure();
  if (node->output_size() > 3 && !node->output(3).empty())
    return fail("output 3 (qk_matmul_output) is not supported");
  if (int64_t p = attrInt("softmax_precision").value_or(1);
      p != onnx::TensorProto::FLOAT)
    return fail("softmax_precision = " + Twine(p) +
                " is not supported (the softmax runs in f32: 1)");
  if (!hasInput(0) || !hasInput(1) || !hasInput(2) || node->input_size() > 7)
    return fail("needs Q, K and V (inputs 0-2) and at most attn_mask, "
                "past_key, past_value and nonpad_kv_seqlen after them");
  if (hasInput(4) != hasInput(5))
    return fail("past_key and past_value must both be given or both be "
                "absent");
  if (hasInput(6) && opset < 24)
    return fail("nonpad_kv_seqlen (input 6) needs opset 24");
  const char *names[] = {"Q", "K", "V"};
  ImportedValue *qkv[3];
  for (int k = 0; k < 3; ++k) {
    auto v = floatInput(k, names[k]);
    if (failed(v))
      return failure();
    qkv[k] = *v;
  }
  size_t rank = qkv[0]->shape.size();
  if ((rank != 3 && rank != 4) || qkv[1]->shape.size() != rank ||
      qkv[2]->shape.size() != rank)
    return fail("Q, K and V must all be 3-D (B x S x hidden) or all 4-D "
                "(B x heads x S x head size)");
  for (ImportedValue *v : qkv)
    if (llvm::any_of(v->shape, [](int64_t d) { return d <= 0; }))
      return fail("Q, K and V must have positive dimensions");
  int64_t qHeads = attrInt("q_num_heads").value_or(0);
  int64_t kvHeads = attrInt("kv_num_heads").value_or(0);
  ArrayRef<int64_t> qs = qkv[0]->shape, ks = qkv[1]->shape, vs = qkv[2]->shape;
  int64_t batch = qs[0], qSeq, kvSeq, qHead, kHead, vHead;
  if (rank == 3) {
    if (qHeads <= 0 || kvHeads <= 0)
      return fail("a 3-D Q, K, V needs q_num_heads and kv_num_heads");
    if (qs[2] % qHeads || ks[2] % kvHeads || vs[2] % kvHeads)
      return fail("the hidden sizes " + Twine(qs[2]) + ", " + Twine(ks[2]) +
                  ", " + Twine(vs[2]) +
                  " are not multiples of the head counts");
    qSeq = qs[1], kvSeq = ks[1];
    qHead = qs[2] / qHeads, kHead = ks[2] / kvHeads, vHead = vs[2] / kvHeads;
    if (vs[1] != kvSeq)
      return fail("K and V must have the same sequence length");
  } else {
    if ((qHeads && qHeads != qs[1]) || (kvHeads && kvHeads != ks[1]))
      return fail("q_num_heads / kv_num_heads differ from the inputs' heads");
    qHeads = qs[1], kvHeads = ks[1];
    qSeq = qs[2], kvSeq = ks[2], qHead = qs[3], kHead = ks[3], vHead = vs[3];
    if (vs[1] != kvHeads || vs[2] != kvSeq)
      return fail("K and V must have the same heads and sequence length");
  }
  if (ks[0] != batch || vs[0] != batch)
    return fail("Q, K and V must have the same batch size");
  if (qHead != kHead)
    return fail("Q's head size " + Twine(qHead) + " differs from K's " +
                Twine(kHead));
  if (qHeads % kvHeads != 0)
    return fail("q_num_heads = " + Twine(qHeads) +
                " is not a multiple of kv_num_heads = " + Twine(kvHeads));

  int64_t past = 0;
  if (hasInput(4)) {
    auto pk = floatInput(4, "past_key");
    auto pv = failed(pk) ? pk : floatInput(5, "past_value");
    if (failed(pv))
      return failure();
    ArrayRef<int64_t> pks = (*pk)->shape, pvs = (*pv)->shape;
    if (pks.size() != 4 || pvs.size() != 4 || pks[0] != batch ||
        pks[1] != kvHeads || pks[3] != kHead || pvs[0] != batch ||
        pvs[1] != kvHeads || pvs[2] != pks[2] || pvs[3] != vHead)
      return fail("past_key and past_value must be B x kv_num_heads x P x "
                  "head size, of K's and V's B, heads and head sizes");
    past = pks[2];
  }
  int64_t total = past + kvSeq;
  constexpr int64_t kMaxTable = int64_t(1) << 22;
  if (qSeq > kMaxTable / total)
    return fail("S_q x total sequence length exceeds 2^22 (the masks are "
                "tables)");
  if (hasInput(6)) {
    auto lens = input(6);
    if (failed(lens))
      return failure();
    if ((*lens)->dtype != onnx::TensorProto::INT64 ||
        (*lens)->shape != ArrayRef<int64_t>{batch})
      return fail("nonpad_kv_seqlen must be int64 of shape B = " +
                  Twine(batch));
  }

  Expansion e(*this, *node);
  // Everything as B x heads x S x head size.
  auto headsFirst = [&](int idx, int64_t heads, int64_t seq, int64_t size) {
    std::string x = node->input(idx);
    if (rank == 4)
      return x;
    return e.transpose(e.reshape(x, {batch, seq, heads, size}), {0, 2, 1, 3});
  };
  std::string q = headsFirst(0, qHeads, qSeq, qHead);
  std::string k = headsFirst(1, kvHeads, kvSeq, kHead);
  std::string v = headsFirst(2, kvHeads, kvSeq, vHead);
  auto concatPast = [&](int pastIdx, const std::string &x, int outIdx) {
    std::string joined = x;
    if (hasInput(pastIdx)) {
      joined = e.fresh("present");
      Expansion::setInt(e.add("Concat", {node->input(pastIdx), x}, joined),
                        "axis", 2);
    }
    if (node->output_size() > outIdx && !node->output(outIdx).empty())
      e.op("Identity", {joined}, node->output(outIdx));
    return joined;
  };
  k = concatPast(4, k, 1);
  v = concatPast(5, v, 2);
  if (qHeads != kvHeads) {
    int64_t reps = qHeads / kvHeads;
    auto repeat = [&](const std::string &x, int64_t size) {
      std::string five = e.reshape(x, {batch, kvHeads, 1, total, size});
      return e.reshape(
          e.op("Expand", {five, e.constInts("shape", {batch, kvHeads, reps,
                                                      total, size})}),
          {batch, qHeads, total, size});
    };
    k = repeat(k, kHead);
    v = repeat(v, vHead);
  }

  float scale =
      attrFloat("scale").value_or(1.0f / std::sqrt(static_cast<float>(qHead)));
  if (!(std::isfinite(scale) && scale > 0))
    return fail("scale must be finite and positive");
  std::string rootScale = e.scalar(std::sqrt(scale));
  std::string scores =
      e.op("MatMul", {e.op("Mul", {q, rootScale}),
                      e.transpose(e.op("Mul", {k, rootScale}), {0, 1, 3, 2})});
  float softcap = attrFloat("softcap").value_or(0.0f);
  if (!std::isfinite(softcap) || softcap < 0)
    return fail("softcap must be finite and not negative");
  if (softcap > 0)
    scores =
        e.op("Mul", {e.op("Tanh", {e.op("Div", {scores, e.scalar(softcap)})}),
                     e.scalar(softcap)});
  float negInf = -std::numeric_limits<float>::infinity();
  if (hasInput(3)) {
    auto mask = input(3);
    if (failed(mask))
      return failure();
    ArrayRef<int64_t> ms = (*mask)->shape;
    bool isBool = (*mask)->dtype == onnx::TensorProto::BOOL;
    if (!isBool && failed(floatInput(3, "attn_mask")))
      return failure();
    // Broadcast to B x q_num_heads x S_q x total, the keys padded.
    SmallVector<int64_t> target = {batch, qHeads, qSeq, total};
    bool fits = !ms.empty() && ms.size() <= 4 && ms.back() <= total &&
                llvm::all_of(ms, [](int64_t d) { return d > 0; });
    for (size_t d = 0; fits && d + 1 < ms.size(); ++d) {
      int64_t want = target[4 - ms.size() + d];
      fits = ms[d] == 1 || ms[d] == want;
    }
    if (!fits)
      return fail("attn_mask of shape " + joinedDims(ms) +
                  " does not broadcast to B x q_num_heads x S_q x total "
                  "sequence length = " +
                  joinedDims(target) +
                  " (its last dimension at most the "
                  "total, the rest padded)");
    std::string m = node->input(3);
    if ((*mask)->kind == Kind::Const) {
      // Compile-time (Concat takes run-time data): padded here.
      const ImportedValue &c = **mask;
      int64_t width = ms.back(), rows = c.numElements() / width;
      if (rows > kMaxTable / total)
        return fail("attn_mask padded to the keys exceeds 2^22 elements");
      ImportedValue padded;
      padded.kind = Kind::Const;
      padded.dtype = onnx::TensorProto::FLOAT;
      padded.shape.assign(ms.begin(), ms.end());
      padded.shape.back() = total;
      padded.f.assign(rows * total, negInf);
      for (int64_t r = 0; r < rows; ++r)
        for (int64_t j = 0; j < width; ++j)
          padded.f[r * total + j] =
              isBool ? (c.i[r * width + j] ? 0.0 : double(negInf))
                     : c.f[r * width + j];
      scores = e.op("Add", {scores, e.bind("mask", std::move(padded))});
    } else {
      if (isBool)
        m = e.op("Where", {m, e.scalar(0.0f), e.scalar(negInf)});
      if (ms.back() < total) {
        ImportedValue pad;
        pad.kind = Kind::Const;
        pad.dtype = onnx::TensorProto::FLOAT;
        pad.shape.assign(ms.begin(), ms.end());
        pad.shape.back() = total - ms.back();
        int64_t count = pad.numElements();
        if (count > kMaxTable)
          return fail("attn_mask padded to the keys exceeds 2^22 elements");
        pad.f.assign(count, negInf);
        std::string padded = e.fresh("mask");
        Expansion::setInt(
            e.add("Concat", {m, e.bind("masked", std::move(pad))}, padded),
            "axis", -1);
        m = padded;
      }
      scores = e.op("Add", {scores, m});
    }
  }
  bool causal = attrInt("is_causal").value_or(0) != 0;
  if (causal && (past || !hasInput(6))) {
    // j <= i + past.
    scores =
        e.op("Where",
             {e.boolTable({1, 1, qSeq, total}, qSeq, total,
                          [&](int64_t i, int64_t j) { return j <= i + past; }),
              scores, e.scalar(negInf)});
  } else if (causal) {
    // j - i <= nonpad_kv_seqlen[b] - S_q, per sequence.
    std::string offset =
        e.reshape(e.op("Sub", {node->input(6),
                               e.bind("q_len", int64Constant({}, {qSeq}))}),
                  {batch, 1, 1, 1});
    std::string diff = e.op(
        "Cast", {e.int32Table({1, 1, qSeq, total}, qSeq, total,
                              [](int64_t i, int64_t j) { return j - i; })});
    Expansion::setInt(e.nodes.back(), "to", onnx::TensorProto::INT64);
    scores = e.op("Where", {e.op("Not", {e.op("Greater", {diff, offset})}),
                            scores, e.scalar(negInf)});
  }
  if (hasInput(6)) {
    // Keys j < nonpad_kv_seqlen[b].
    std::vector<int64_t> steps(total);
    for (int64_t j = 0; j < total; ++j)
      steps[j] = j;
    std::string keys = e.bind("keys", int64Constant({1, 1, 1, total}, steps));
    scores =
        e.op("Where",
             {e.op("Less", {keys, e.reshape(node->input(6), {batch, 1, 1, 1})}),
              scores, e.scalar(negInf)});
  }
  std::string probs = e.fresh("probs");
  Expansion::setInt(e.add("Softmax", {scores}, probs), "axis", -1);
  std::string y = e.op("MatMul", {probs, v});
  if (rank == 4)
    e.op("Identity", {y}, node->output(0));
  else
    e.op("Reshape",
         {e.transpose(y, {0, 2, 1, 3}),
          e.constInts("shape", {batch, qSeq, qHeads * vHead})},
         node->output(0));
  return importExpansion(*node, e.nodes);
}
