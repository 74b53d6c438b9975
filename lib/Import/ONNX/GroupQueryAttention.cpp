//===- GroupQueryAttention.cpp - ONNX Runtime's GQA for LLM decoders ------===//
//
// com.microsoft GroupQueryAttention (the attention of LLaMA / Mistral / Phi
// / Qwen exports of ONNX Runtime's model builder), as its CPU kernel
// (GQAAttentionBase) computes it: N query heads share kv_num_heads key and
// value heads (query head i reads kv head i / (N / kv_num_heads)).
//
// Per batch entry b the run-time seqlens_k[b] + 1 is the sequence's total
// length; its past is 0 in the first prompt (S = total_sequence_length)
// and total - S otherwise (token generation, S = 1, or a subsequent prompt
// of batch 1). The present key / value buffers (B x kv_num_heads x T x H,
// T = max(total_sequence_length, past buffer length)) hold the past's first
// `past` rows, the new keys / values after them, zeros after those. Query
// row s attends to keys t <= past + s (and, with a window of W =
// local_window_size keys, the current one included as ONNX Runtime counts
// them since its PR 25927 of September 2025, t > past + s - W): Softmax(scale *
// Q K^T), optionally soft-capped (softcap * tanh(x / softcap)) first, then plus
// attention_bias, keys outside the range excluded (-inf), then times V. A
// head_sink logit (0 for smooth_softmax) joins each row's softmax without being
// attended. With do_rotary, Q and K get RotaryEmbedding at positions past + s
// (in the first prompt s, or 1 on padding rows, as the kernel writes them), or
// from position_ids, before K enters the buffer.
//
// total_sequence_length must be compile-time data (it sets the present
// outputs' shape; the model builder's graphs compute it from the attention
// mask's static shape). Rows past a sequence's length in a padded first
// prompt are padding: ONNX Runtime leaves them unspecified (its softmax
// reads scores it never wrote), and so does this import (they attend
// causally). seqlens_k outside [S - 1, T - 1] is likewise unspecified
// there (the kernel reads and writes outside its buffers); here such a
// batch entry reads the nearest keys, never outside memory.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
using onnx::AttributeProto;

/// The largest key buffer or query sequence: the masks and scores are
/// B x N x S x T, the compile-time tables S x T.
constexpr int64_t kMaxSequence = int64_t(1) << 16;
constexpr int64_t kMaxTable = int64_t(1) << 22;

/// `x` (B x S x heads*head) as B x heads x S x head.
std::string headsFirst(Expansion &e, const std::string &x, int64_t batch,
                       int64_t seq, int64_t heads, int64_t head) {
  return e.transpose(e.reshape(x, {batch, seq, heads, head}), {0, 2, 1, 3});
}

} // namespace

LogicalResult
quantopt::onnx_import::detail::expandGroupQueryAttention(Importer &im,
                                                         Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"num_heads", AttributeProto::INT},
                                {"kv_num_heads", AttributeProto::INT},
                                {"scale", AttributeProto::FLOAT},
                                {"softcap", AttributeProto::FLOAT},
                                {"local_window_size", AttributeProto::INT},
                                {"do_rotary", AttributeProto::INT},
                                {"rotary_interleaved", AttributeProto::INT},
                                {"smooth_softmax", AttributeProto::INT},
                                {"qk_output", AttributeProto::INT}})))
    return failure();
  if (im.opset < 13)
    return im.fail("needs a standard opset >= 13 (the model imports " +
                   Twine(im.opset) + ")");
  if (n.output_size() > 3)
    return im.fail("output 3 (output_qk) is not supported");
  if (n.input_size() > 12)
    return im.fail("GroupQueryAttention takes at most 12 inputs");
  // Flags as ONNX Runtime reads them: on for 1 only.
  auto flag = [&](StringRef name) { return im.attrInt(name).value_or(0) == 1; };
  bool smooth = flag("smooth_softmax");
  if (im.attrInt("qk_output").value_or(0) != 0)
    return im.fail("qk_output is not supported");
  auto heads = im.attrInt("num_heads"), kvHeads = im.attrInt("kv_num_heads");
  if (!heads || !kvHeads)
    return im.fail("the required attributes num_heads and kv_num_heads must "
                   "be set");
  int64_t nHeads = *heads, nKv = *kvHeads;
  constexpr int64_t kMaxHeads = int64_t(1) << 20;
  if (nHeads <= 0 || nKv <= 0 || nHeads % nKv != 0 || nHeads > kMaxHeads)
    return im.fail("num_heads = " + Twine(nHeads) +
                   " must be a positive multiple of kv_num_heads = " +
                   Twine(nKv) + ", at most 2^20");
  bool doRotary = flag("do_rotary");
  int64_t interleaved = flag("rotary_interleaved");
  // ONNX Runtime reads the window as an int; a negative one is none.
  int64_t windowAttr = im.attrInt("local_window_size").value_or(-1);
  int64_t window = int32_t(windowAttr);
  if (window == 0)
    return im.fail("local_window_size = " + Twine(windowAttr) +
                   (windowAttr != 0 ? " (0 as an int)" : "") +
                   " attends to no key");
  float softcap = im.attrFloat("softcap").value_or(0.0f);
  if (!std::isfinite(softcap) || softcap < 0)
    return im.fail("softcap must be finite and not negative");

  // Q, K, V: B x S x N*H (or packed B x S x (N + 2 kv_num_heads) H).
  if (!e.has(0) || !e.has(5) || !e.has(6))
    return im.fail("needs query, seqlens_k and total_sequence_length "
                   "(inputs 0, 5, 6)");
  if (e.has(1) != e.has(2))
    return im.fail("key and value must both be given, or both absent "
                   "(packed QKV)");
  bool packed = !e.has(1);
  if (failed(im.floatInput(0, "query")) ||
      (!packed &&
       (failed(im.floatInput(1, "key")) || failed(im.floatInput(2, "value")))))
    return failure();
  ArrayRef<int64_t> qs = (*im.input(0))->shape;
  if (qs.size() != 3 || llvm::any_of(qs, [](int64_t d) { return d <= 0; }))
    return im.fail("query must be B x S x hidden with positive dimensions");
  int64_t batch = qs[0], seq = qs[1];
  int64_t groups = packed ? nHeads + 2 * nKv : nHeads;
  if (qs[2] % groups != 0)
    return im.fail("query's hidden size " + Twine(qs[2]) +
                   " is not a multiple of " + Twine(groups) +
                   (packed ? " (num_heads + 2 kv_num_heads)" : " (num_heads)"));
  int64_t head = qs[2] / groups;
  if (head % 8 != 0)
    return im.fail("the head size " + Twine(head) +
                   " must be a multiple of 8 (ONNX Runtime's rule)");
  if (!packed) {
    ArrayRef<int64_t> ks = (*im.input(1))->shape, vs = (*im.input(2))->shape;
    SmallVector<int64_t> want = {batch, seq, nKv * head};
    if (ks != ArrayRef<int64_t>(want) || vs != ArrayRef<int64_t>(want))
      return im.fail("key and value must be B x S x kv_num_heads * head size "
                     "= " +
                     Twine(batch) + "x" + Twine(seq) + "x" + Twine(nKv * head));
  }

  // The past buffers, B x kv_num_heads x P x H.
  if (e.has(3) != e.has(4))
    return im.fail("past_key and past_value must both be given or both be "
                   "absent");
  int64_t pastLen = 0;
  if (e.has(3)) {
    if (failed(im.floatInput(3, "past_key")) ||
        failed(im.floatInput(4, "past_value")))
      return failure();
    ArrayRef<int64_t> pk = (*im.input(3))->shape, pv = (*im.input(4))->shape;
    if (pk.size() != 4 || pk != pv || pk[0] != batch || pk[1] != nKv ||
        pk[3] != head || pk[2] < 0)
      return im.fail("past_key and past_value must both be B x kv_num_heads "
                     "x P x head size with B = " +
                     Twine(batch) + ", kv_num_heads = " + Twine(nKv) +
                     ", head size = " + Twine(head));
    pastLen = pk[2];
  }

  // seqlens_k: int32, one per batch entry; total_sequence_length: a
  // compile-time int32 scalar.
  auto lens = im.input(5);
  if (failed(lens))
    return failure();
  if ((*lens)->dtype != onnx::TensorProto::INT32 ||
      (*lens)->shape != ArrayRef<int64_t>{batch})
    return im.fail("seqlens_k must be int32 of shape B = " + Twine(batch));
  auto totalIn = im.scalarInput(6, "total_sequence_length");
  if (failed(totalIn))
    return failure();
  if ((*totalIn)->dtype != onnx::TensorProto::INT32 ||
      (*totalIn)->shape.size() > 1)
    return im.fail("total_sequence_length must be an int32 scalar or "
                   "1-element vector");
  int64_t total = (*totalIn)->i[0];
  if (total < seq || total > kMaxSequence || pastLen > kMaxSequence)
    return im.fail("total_sequence_length = " + Twine(total) +
                   " must be at least S = " + Twine(seq) +
                   ", it and the past length at most 2^16");
  int64_t keys = std::max(total, pastLen);
  if (seq * keys > kMaxTable)
    return im.fail("S x T = " + Twine(seq) + " x " + Twine(keys) +
                   " exceeds 2^22 (the masks are tables)");
  bool subsequent = seq > 1 && seq != total;
  if (subsequent && batch != 1)
    return im.fail("a prompt after past context (S = " + Twine(seq) +
                   " < total_sequence_length = " + Twine(total) +
                   ") needs batch size 1");
  bool firstPrompt = !subsequent && seq == total;
  if (!firstPrompt && !e.has(3))
    return im.fail("S = " + Twine(seq) +
                   " < total_sequence_length = " + Twine(total) +
                   " (past context) needs past_key and "
                   "past_value");
  // Compile-time lengths are checked: out of range, ONNX Runtime reads and
  // writes outside its buffers (first prompt: up to S; otherwise the past,
  // seqlens_k + 1 - S, within the past buffer and the new rows within T).
  bool knownLengths = (*lens)->kind == Kind::Const;
  if (knownLengths) {
    int64_t lo = firstPrompt ? 0 : seq - 1;
    int64_t hi = firstPrompt ? seq - 1 : std::min(keys, pastLen + seq) - 1;
    for (auto [b, len] : llvm::enumerate((*lens)->i))
      if (len < lo || len > hi)
        return im.fail("seqlens_k[" + Twine(b) + "] = " + Twine(len) +
                       " is outside [" + Twine(lo) + ", " + Twine(hi) + "]");
  }

  // Rotary caches: max positions x R / 2, R / 2 a multiple of 8 and at
  // most H / 2 (H a multiple of 16), at least total_sequence_length rows.
  if (e.has(7) != e.has(8) || (doRotary && !e.has(7)))
    return im.fail("cos_cache and sin_cache must both be given (with "
                   "do_rotary = 1) or both be absent");
  int64_t rotaryHalf = 0;
  // ONNX Runtime checks the caches whenever they are given.
  if (e.has(7)) {
    if (failed(im.floatInput(7, "cos_cache")) ||
        failed(im.floatInput(8, "sin_cache")))
      return failure();
    ArrayRef<int64_t> cs = (*im.input(7))->shape;
    if (cs.size() != 2 || (*im.input(8))->shape != cs || head % 16 != 0 ||
        cs[1] <= 0 || cs[1] % 8 != 0 || cs[1] > head / 2 || cs[0] < total)
      return im.fail("the rotary caches must both be at least "
                     "total_sequence_length rows by a multiple of 8 up to "
                     "head size / 2 (a multiple of 16; ONNX Runtime's rules)");
    rotaryHalf = cs[1];
  }

  // position_ids (int64 B x >= S; only the rotary embedding reads them),
  // attention_bias (B or 1 x N or 1 x S x total_sequence_length) and
  // head_sink (N), checked as ONNX Runtime's CheckCustomAttentionInputs.
  if (e.has(9)) {
    auto ids = im.input(9);
    if (failed(ids))
      return failure();
    ArrayRef<int64_t> ps = (*ids)->shape;
    if ((*ids)->dtype != onnx::TensorProto::INT64 || !(*ids)->holdsIntegers() ||
        ps.size() != 2 || ps[0] != batch || ps[1] < seq)
      return im.fail("position_ids must be int64 of B x (at least S) = " +
                     Twine(batch) + " x " + Twine(seq));
  }
  if (e.has(10)) {
    if (failed(im.floatInput(10, "attention_bias")))
      return failure();
    ArrayRef<int64_t> bs = (*im.input(10))->shape;
    if (bs.size() != 4 || (bs[0] != batch && bs[0] != 1) ||
        (bs[1] != nHeads && bs[1] != 1) || bs[2] != seq || bs[3] != total)
      return im.fail("attention_bias must be (B or 1) x (num_heads or 1) x "
                     "S x total_sequence_length with B = " +
                     Twine(batch) + ", num_heads = " + Twine(nHeads) +
                     ", S = " + Twine(seq) +
                     ", total_sequence_length = " + Twine(total));
  }
  if (e.has(11)) {
    if (smooth)
      return im.fail("head_sink must not be given with smooth_softmax = 1 "
                     "(ONNX Runtime's rule)");
    if (failed(im.floatInput(11, "head_sink")))
      return failure();
    if ((*im.input(11))->shape != ArrayRef<int64_t>{nHeads})
      return im.fail("head_sink must be 1-D of num_heads = " + Twine(nHeads));
  }

  std::string q, k, v;
  if (packed) {
    std::string x = n.input(0);
    q = e.slice(x, 2, 0, nHeads * head);
    k = e.slice(x, 2, nHeads * head, (nHeads + nKv) * head);
    v = e.slice(x, 2, (nHeads + nKv) * head, (nHeads + 2 * nKv) * head);
  } else {
    q = n.input(0), k = n.input(1), v = n.input(2);
  }
  q = headsFirst(e, q, batch, seq, nHeads, head);
  k = headsFirst(e, k, batch, seq, nKv, head);
  v = headsFirst(e, v, batch, seq, nKv, head);

  // past[b] = seqlens_k[b] + 1 - S as B x 1 x 1 x 1 (run-time), 0 in the
  // first prompt.
  std::string past;
  if (!firstPrompt)
    past = e.reshape(e.op("Add", {n.input(5), e.int32s({}, {1 - seq})}),
                     {batch, 1, 1, 1});

  if (doRotary) {
    // Positions B x S (int64): past + s, or in the first prompt s where s
    // < seqlens_k + 1 and 1 on the padding rows.
    std::vector<int64_t> steps(seq);
    for (int64_t s = 0; s < seq; ++s)
      steps[s] = s;
    std::string stepRow = e.bind("steps", int64Constant({1, seq}, steps));
    std::string pos;
    if (e.has(9)) {
      // ONNX Runtime reads position_ids as B x S rows of its flat data; in
      // the first prompt only element 0, as the start of every sequence.
      std::string flat = e.reshape(n.input(9), {-1});
      pos = firstPrompt
                ? e.slice(flat, 0, 0, 1)
                : e.reshape(e.slice(flat, 0, 0, batch * seq), {batch, seq});
    } else if (firstPrompt) {
      std::string inside =
          e.op("Less", {e.int32s({1, seq}, std::vector<int64_t>(steps)),
                        e.reshape(e.op("Add", {n.input(5), e.int32s({}, {1})}),
                                  {batch, 1})});
      pos = e.op("Where",
                 {inside, stepRow, e.bind("one", int64Constant({}, {1}))});
    } else {
      std::string wide = e.fresh("cast");
      Expansion::setInt(e.add("Cast", {e.reshape(past, {batch, 1})}, wide),
                        "to", onnx::TensorProto::INT64);
      pos = e.op("Add", {wide, stepRow});
    }
    auto rotate = [&](const std::string &x, int64_t xHeads) {
      std::string out = e.fresh("rotated");
      onnx::NodeProto &rot =
          e.add("RotaryEmbedding", {x, pos, n.input(7), n.input(8)}, out);
      rot.set_domain("com.microsoft");
      Expansion::setInt(rot, "interleaved", interleaved);
      Expansion::setInt(rot, "num_heads", xHeads);
      Expansion::setInt(rot, "rotary_embedding_dim", 2 * rotaryHalf);
      return out;
    };
    q = rotate(q, nHeads);
    k = rotate(k, nKv);
  }

  // `x` (B x kv_num_heads x L x H) followed by `rows` rows of zeros: a Pad
  // (no constant of the buffer's size; 0 times a row would turn an infinite
  // key into NaN).
  auto zeroPadded = [&](const std::string &x,
                        int64_t rows) -> FailureOr<std::string> {
    auto it = im.values.find(x);
    if (it == im.values.end() || it->second.kind != Kind::Const)
      return e.op("Pad", {x, e.constInts("pads", {0, 0, 0, 0, 0, 0, rows, 0})});
    // A compile-time past buffer (Pad takes run-time data): padded here,
    // bounded like the other tables.
    const ImportedValue &c = it->second;
    int64_t len = c.shape[2], total = len + rows;
    if (batch * nKv > kMaxTable / (total * head))
      return im.fail("a compile-time past buffer padded to " + Twine(total) +
                     " rows exceeds 2^22 elements");
    ImportedValue padded;
    padded.kind = Kind::Const;
    padded.dtype = onnx::TensorProto::FLOAT;
    padded.shape = {batch, nKv, total, head};
    padded.f.assign(batch * nKv * total * head, 0.0);
    for (int64_t bh = 0; bh < batch * nKv; ++bh)
      std::copy_n(c.f.begin() + bh * len * head, len * head,
                  padded.f.begin() + bh * total * head);
    return e.bind("padded", std::move(padded));
  };

  // The present buffers, B x kv_num_heads x T x H.
  auto present = [&](const std::string &fresh, int pastIdx) {
    if (firstPrompt) {
      if (keys == seq)
        return FailureOr<std::string>(fresh);
      return zeroPadded(fresh, keys - seq);
    }
    // Row t: past[t] for t < past, the new row t - past below past + S,
    // else 0.
    std::string old = n.input(pastIdx);
    if (seq > 1 && knownLengths) {
      // A prompt after a known past p (batch 1): past[:p], the new rows,
      // zeros.
      int64_t p = (*lens)->i[0] + 1 - seq;
      std::string joined = fresh;
      if (p > 0) {
        joined = e.fresh("present");
        Expansion::setInt(
            e.add("Concat", {e.slice(old, 2, 0, p), fresh}, joined), "axis", 2);
      }
      if (p + seq < keys)
        return zeroPadded(joined, keys - p - seq);
      return FailureOr<std::string>(joined);
    }
    std::string rows = e.int32Table({1, 1, keys, 1}, keys, 1,
                                    [](int64_t t, int64_t) { return t; });
    std::string newRows = fresh;
    if (seq > 1) {
      // A prompt after past context (batch 1): row t - past of the new
      // ones, read where t - past is in [0, S) (the nearest row elsewhere,
      // where the result is not taken).
      std::string index =
          e.op("Expand", {e.op("Sub", {rows, past}),
                          e.constInts("shape", {batch, nKv, keys, head})});
      newRows = e.fresh("new_rows");
      Expansion::setInt(e.add("GatherElements", {fresh, index}, newRows),
                        "axis", 2);
    }
    // (S = 1: the one new row, broadcast over T, is taken at t = past.)
    if (pastLen < keys) {
      auto padded = zeroPadded(old, keys - pastLen);
      if (failed(padded))
        return padded;
      old = *padded;
    }
    std::string isPast = e.op("Less", {rows, past});
    std::string isNew =
        e.op("Less", {rows, e.op("Add", {past, e.int32s({}, {seq})})});
    return FailureOr<std::string>(
        e.op("Where",
             {isPast, old, e.op("Where", {isNew, newRows, e.scalar(0.0f)})}));
  };
  auto presentKOr = present(k, 3);
  auto presentVOr = failed(presentKOr) ? presentKOr : present(v, 4);
  if (failed(presentVOr))
    return failure();
  std::string presentK = *presentKOr, presentV = *presentVOr;
  if (n.output_size() > 1 && !n.output(1).empty())
    e.op("Identity", {presentK}, n.output(1));
  if (n.output_size() > 2 && !n.output(2).empty())
    e.op("Identity", {presentV}, n.output(2));

  // Each kv head repeated for its num_heads / kv_num_heads query heads.
  int64_t group = nHeads / nKv;
  auto repeatHeads = [&](const std::string &x) {
    if (group == 1)
      return x;
    std::string five = e.reshape(x, {batch, nKv, 1, keys, head});
    std::string wide =
        e.op("Expand",
             {five, e.constInts("shape", {batch, nKv, group, keys, head})});
    return e.reshape(wide, {batch, nHeads, keys, head});
  };
  std::string allK = repeatHeads(presentK), allV = repeatHeads(presentV);

  float scale = im.attrFloat("scale").value_or(0.0f);
  if (scale == 0.0f)
    scale = 1.0f / std::sqrt(static_cast<float>(head));
  std::string scores =
      e.op("Mul", {e.op("MatMul", {q, e.transpose(allK, {0, 1, 3, 2})}),
                   e.scalar(scale)});
  if (softcap > 0)
    scores =
        e.op("Mul", {e.op("Tanh", {e.op("Div", {scores, e.scalar(softcap)})}),
                     e.scalar(softcap)});
  if (e.has(10)) {
    // After the softcap; keys past total_sequence_length (a longer past
    // buffer) are masked below, their bias 0.
    std::string bias = n.input(10);
    if (keys > total) {
      const ImportedValue &given = **im.input(10);
      ArrayRef<int64_t> bs = given.shape;
      int64_t rows = bs[0] * bs[1] * seq;
      if (rows > kMaxTable / keys)
        return im.fail("attention_bias widened to the key buffer exceeds "
                       "2^22 elements");
      ImportedValue wide;
      wide.kind = Kind::Const;
      wide.dtype = onnx::TensorProto::FLOAT;
      wide.shape = {bs[0], bs[1], seq, keys - total};
      wide.f.assign(rows * (keys - total), 0.0);
      if (given.kind == Kind::Const) {
        // Compile-time (Concat takes run-time data): widened here.
        wide.shape[3] = keys;
        wide.f.assign(rows * keys, 0.0);
        for (int64_t r = 0; r < rows; ++r)
          std::copy_n(given.f.begin() + r * total, total,
                      wide.f.begin() + r * keys);
        bias = e.bind("bias", std::move(wide));
      } else {
        bias = e.fresh("bias");
        Expansion::setInt(e.add("Concat",
                                {n.input(10), e.bind("zeros", std::move(wide))},
                                bias),
                          "axis", 3);
      }
    }
    scores = e.op("Add", {scores, bias});
  }

  // Keys past + s - window < t <= past + s of query row s.
  std::string valid;
  if (firstPrompt) {
    valid =
        e.boolTable({1, 1, seq, keys}, seq, keys, [&](int64_t s, int64_t t) {
          return t <= s && (window < 0 || t > s - window);
        });
  } else {
    // t - s against past, B x 1 x S x T.
    std::string offset =
        e.int32Table({1, 1, seq, keys}, seq, keys,
                     [](int64_t s, int64_t t) { return t - s; });
    valid = e.op("Not", {e.op("Greater", {offset, past})});
    if (window > 0) { // t - s + window - 1 >= past
      std::string shifted =
          e.int32Table({1, 1, seq, keys}, seq, keys, [&](int64_t s, int64_t t) {
            return t - s + window - 1;
          });
      valid =
          e.op("And", {valid, e.op("Not", {e.op("Less", {shifted, past})})});
    }
  }
  scores = e.op("Where", {valid, scores,
                          e.scalar(-std::numeric_limits<float>::infinity())});
  std::string probs = e.fresh("probs");
  if (smooth || e.has(11)) {
    // A sink logit per head (0 for smooth_softmax) in the softmax's max and
    // denominator, never attended: the softmax over the keys and the sink,
    // the sink's column dropped.
    std::string sink =
        smooth ? e.scalar(0.0f) : e.reshape(n.input(11), {1, nHeads, 1, 1});
    std::string sinks =
        e.op("Expand", {sink, e.constInts("shape", {batch, nHeads, seq, 1})});
    std::string withSink = e.fresh("with_sink");
    Expansion::setInt(e.add("Concat", {scores, sinks}, withSink), "axis", 3);
    std::string all = e.fresh("probs_with_sink");
    Expansion::setInt(e.add("Softmax", {withSink}, all), "axis", -1);
    probs = e.slice(all, 3, 0, keys);
  } else {
    Expansion::setInt(e.add("Softmax", {scores}, probs), "axis", -1);
  }
  std::string context =
      e.transpose(e.op("MatMul", {probs, allV}), {0, 2, 1, 3});
  e.op("Reshape", {context, e.constInts("shape", {batch, seq, nHeads * head})},
       n.output(0));
  return success();
}
