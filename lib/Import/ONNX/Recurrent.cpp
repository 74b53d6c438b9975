//===- Recurrent.cpp - LSTM and GRU in f32
//---------------------------------===//
//
// ONNX's LSTM and GRU (speech, text and time-series models; torch's nn.LSTM
// and nn.GRU) with the default activations, in f32 on the dequantized or
// float input. The input projection x * W^T of every time step is one
// matmul before the loop; the loop over time is an scf.for carrying H (and
// C) and the Y being filled, so the IR does not grow with the sequence.
//
// Each f32 step is ONNX's reference (onnx/backend/test/case/node/lstm.py,
// gru.py) left to right; every dot product sums from 0 in index order:
//   LSTM (gates i, o, f, c):
//     g = (x W^T + h R^T) + (Wb + Rb)          (Wb + Rb folded in f32)
//     C = sigmoid(g_f) * C + sigmoid(g_i) * tanh(g_c)
//     H = sigmoid(g_o) * tanh(C)
//   GRU (gates z, r, h):
//     z, r = sigmoid((x W_zr^T + h R_zr^T) + (Wb_zr + Rb_zr))
//     linear_before_reset = 0: n = tanh(((x W_h^T + (r * h) R_h^T) + Wb_h) +
//     Rb_h) linear_before_reset = 1: n = tanh((x W_h^T + r * (h R_h^T + Rb_h))
//     + Wb_h) H = (1 - z) * n + z * H
// with sigmoid(x) = 1 / (1 + exp(-x)), as the Sigmoid op.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
/// The f32 reals of a compile-time tensor: float data, or codes dequantized
/// as DequantizeLinear defines it (f32(q - z) * s).
FailureOr<std::vector<float>> constReals(Importer &im, const ImportedValue &v,
                                         StringRef what) {
  std::vector<float> out;
  if (v.kind == Kind::Const && !v.f.empty()) {
    out.assign(v.f.begin(), v.f.end());
    return out;
  }
  if (v.isQuantized() && v.codes) {
    int64_t n = v.codes->size();
    // Per-axis parameters repeat with this period and block length.
    int64_t inner = 1;
    if (v.q.perAxis())
      for (int64_t d = v.q.axis + 1; d < int64_t(v.shape.size()); ++d)
        inner *= v.shape[d];
    int64_t channels = v.q.scales.size();
    for (int64_t k = 0; k < n; ++k) {
      int64_t c = v.q.perAxis() ? (k / inner) % channels : 0;
      out.push_back(float((*v.codes)[k] - v.q.zeroPoints[c]) *
                    float(v.q.scales[c]));
    }
    return out;
  }
  return im.fail(what + " must be a compile-time float tensor (or the "
                        "DequantizeLinear of constant codes)");
}

/// The recurrence's shapes and constants, one direction at a time.
struct Recurrence {
  bool lstm;
  bool linearBeforeReset = false;
  int64_t seq, batch, input, hidden, gates;
};
} // namespace

/// a [M, K] times w^T, w [N, K]: an f32 [M, N] summed from 0 over k in
/// order, each step a product then an add.
static Value matmulTransposed(Importer &im, Value a, Value w) {
  auto aType = cast<RankedTensorType>(a.getType());
  auto wType = cast<RankedTensorType>(w.getType());
  int64_t m = aType.getDimSize(0), n = wType.getDimSize(0);
  MLIRContext *ctx = im.ctx;
  AffineExpr d0 = getAffineDimExpr(0, ctx), d1 = getAffineDimExpr(1, ctx),
             d2 = getAffineDimExpr(2, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {d0, d2}, ctx),
                                 AffineMap::get(3, 0, {d1, d2}, ctx),
                                 AffineMap::get(3, 0, {d0, d1}, ctx)};
  SmallVector<utils::IteratorType> iters = {utils::IteratorType::parallel,
                                            utils::IteratorType::parallel,
                                            utils::IteratorType::reduction};
  return sumOfProducts(im, a, w, maps, iters, {m, n});
}

/// Columns [first, first + count) of a 2-D tensor.
static Value columns(Importer &im, Value v, int64_t first, int64_t count) {
  auto type = cast<RankedTensorType>(v.getType());
  int64_t rows = type.getDimSize(0);
  return tensor::ExtractSliceOp::create(
      im.b, im.loc, RankedTensorType::get({rows, count}, type.getElementType()),
      v, ValueRange{}, ValueRange{}, ValueRange{},
      im.b.getDenseI64ArrayAttr({0, first}),
      im.b.getDenseI64ArrayAttr({rows, count}),
      im.b.getDenseI64ArrayAttr({1, 1}));
}

/// An f32 constant of `shape` holding `data`.
static Value f32Constant(Importer &im, ArrayRef<int64_t> shape,
                         ArrayRef<float> data) {
  auto type = RankedTensorType::get(shape, Float32Type::get(im.ctx));
  return arith::ConstantOp::create(im.b, im.loc, type,
                                   DenseElementsAttr::get(type, data));
}

static Value sigmoid(OpBuilder &nb, Location l, Value x) {
  Value one = arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(1));
  Value e = math::ExpOp::create(nb, l, arith::NegFOp::create(nb, l, x));
  return arith::DivFOp::create(nb, l, one,
                               arith::AddFOp::create(nb, l, one, e));
}

/// One direction: the x projection `xw` ([seq, batch, gates * hidden]), the
/// recurrent weights, the biases; returns Y [seq, batch, hidden], H and C.
static SmallVector<Value> runDirection(Importer &im, const Recurrence &rc,
                                       bool reverse, Value xw,
                                       ArrayRef<float> r, ArrayRef<float> bias,
                                       Value h0, Value c0) {
  int64_t H = rc.hidden, B = rc.batch, G = rc.gates;
  Value rAll = f32Constant(im, {G * H, H}, r);
  // LSTM: the whole Wb + Rb; GRU: Wb + Rb for z and r, then Wb_h and Rb_h.
  std::vector<float> folded;
  int64_t foldedGates = rc.lstm ? G : 2;
  for (int64_t k = 0; k < foldedGates * H; ++k)
    folded.push_back(bias[k] + bias[G * H + k]);
  Value bFolded = f32Constant(im, {1, foldedGates * H}, folded);
  Value wbH, rbH, rZR, rH;
  if (!rc.lstm) {
    wbH = f32Constant(im, {1, H}, bias.slice(2 * H, H));
    rbH = f32Constant(im, {1, H}, bias.slice(G * H + 2 * H, H));
    rZR = f32Constant(im, {2 * H, H}, r.take_front(2 * H * H));
    rH = f32Constant(im, {H, H}, r.drop_front(2 * H * H));
  }
  Type f32 = Float32Type::get(im.ctx);
  Value y0 = tensor::EmptyOp::create(im.b, im.loc, {rc.seq, B, H}, f32);
  Value lo = arith::ConstantIndexOp::create(im.b, im.loc, 0);
  Value hi = arith::ConstantIndexOp::create(im.b, im.loc, rc.seq);
  Value step = arith::ConstantIndexOp::create(im.b, im.loc, 1);
  SmallVector<Value> init = {y0, h0};
  if (rc.lstm)
    init.push_back(c0);
  auto loop = scf::ForOp::create(
      im.b, im.loc, lo, hi, step, init,
      [&](OpBuilder &nb, Location l, Value t, ValueRange carried) {
        // The importer's helpers build at im.b: point it into the body.
        OpBuilder::InsertionGuard guard(im.b);
        im.b.setInsertionPoint(nb.getInsertionBlock(), nb.getInsertionPoint());
        Value at = t;
        if (reverse)
          at = arith::SubIOp::create(
              im.b, l, arith::ConstantIndexOp::create(im.b, l, rc.seq - 1), t);
        Value y = carried[0], h = carried[1];
        auto xwType = cast<RankedTensorType>(xw.getType());
        int64_t width = xwType.getDimSize(2);
        Value xt = tensor::ExtractSliceOp::create(
            im.b, l, RankedTensorType::get({B, width}, f32), xw, ValueRange{at},
            ValueRange{}, ValueRange{},
            im.b.getDenseI64ArrayAttr({ShapedType::kDynamic, 0, 0}),
            im.b.getDenseI64ArrayAttr({1, B, width}),
            im.b.getDenseI64ArrayAttr({1, 1, 1}));
        SmallVector<int64_t> shape = {B, H};
        Value hNew, cNew;
        if (rc.lstm) {
          Value hr = matmulTransposed(im, h, rAll);
          // (x W^T + h R^T) + (Wb + Rb), gates i, o, f, c.
          Value g = elementwise(
              im, {xt, hr, bFolded}, {B, G * H},
              [](OpBuilder &b, Location l, ValueRange a) -> Value {
                return arith::AddFOp::create(
                    b, l, arith::AddFOp::create(b, l, a[0], a[1]), a[2]);
              });
          Value gi = columns(im, g, 0, H), go = columns(im, g, H, H),
                gf = columns(im, g, 2 * H, H), gc = columns(im, g, 3 * H, H);
          cNew = elementwise(
              im, {gf, carried[2], gi, gc}, shape,
              [](OpBuilder &b, Location l, ValueRange a) -> Value {
                Value keep =
                    arith::MulFOp::create(b, l, sigmoid(b, l, a[0]), a[1]);
                Value add =
                    arith::MulFOp::create(b, l, sigmoid(b, l, a[2]),
                                          math::TanhOp::create(b, l, a[3]));
                return arith::AddFOp::create(b, l, keep, add);
              });
          hNew = elementwise(
              im, {go, cNew}, shape,
              [](OpBuilder &b, Location l, ValueRange a) -> Value {
                return arith::MulFOp::create(b, l, sigmoid(b, l, a[0]),
                                             math::TanhOp::create(b, l, a[1]));
              });
        } else {
          Value hr = matmulTransposed(im, h, rZR);
          Value xzr = columns(im, xt, 0, 2 * H), xh = columns(im, xt, 2 * H, H);
          // z and r: sigmoid((x W^T + h R^T) + (Wb + Rb)).
          Value zr = elementwise(
              im, {xzr, hr, bFolded}, {B, 2 * H},
              [](OpBuilder &b, Location l, ValueRange a) -> Value {
                return sigmoid(
                    b, l,
                    arith::AddFOp::create(
                        b, l, arith::AddFOp::create(b, l, a[0], a[1]), a[2]));
              });
          Value z = columns(im, zr, 0, H), r = columns(im, zr, H, H);
          Value n;
          if (rc.linearBeforeReset) {
            Value hrh = matmulTransposed(im, h, rH);
            n = elementwise(
                im, {xh, r, hrh, rbH, wbH}, shape,
                [](OpBuilder &b, Location l, ValueRange a) -> Value {
                  Value inner = arith::AddFOp::create(b, l, a[2], a[3]);
                  Value sum = arith::AddFOp::create(
                      b, l, a[0], arith::MulFOp::create(b, l, a[1], inner));
                  return math::TanhOp::create(
                      b, l, arith::AddFOp::create(b, l, sum, a[4]));
                });
          } else {
            Value rh = elementwise(
                im, {r, h}, shape,
                [](OpBuilder &b, Location l, ValueRange a) -> Value {
                  return arith::MulFOp::create(b, l, a[0], a[1]);
                });
            Value rhr = matmulTransposed(im, rh, rH);
            n = elementwise(
                im, {xh, rhr, wbH, rbH}, shape,
                [](OpBuilder &b, Location l, ValueRange a) -> Value {
                  Value s = arith::AddFOp::create(b, l, a[0], a[1]);
                  s = arith::AddFOp::create(b, l, s, a[2]);
                  s = arith::AddFOp::create(b, l, s, a[3]);
                  return math::TanhOp::create(b, l, s);
                });
          }
          hNew = elementwise(
              im, {z, n, h}, shape,
              [](OpBuilder &b, Location l, ValueRange a) -> Value {
                Value one =
                    arith::ConstantOp::create(b, l, b.getF32FloatAttr(1));
                Value fresh = arith::MulFOp::create(
                    b, l, arith::SubFOp::create(b, l, one, a[0]), a[1]);
                Value kept = arith::MulFOp::create(b, l, a[0], a[2]);
                return arith::AddFOp::create(b, l, fresh, kept);
              });
        }
        Value yNew = tensor::InsertSliceOp::create(
            im.b, l, hNew, y, ValueRange{at}, ValueRange{}, ValueRange{},
            im.b.getDenseI64ArrayAttr({ShapedType::kDynamic, 0, 0}),
            im.b.getDenseI64ArrayAttr({1, B, H}),
            im.b.getDenseI64ArrayAttr({1, 1, 1}));
        SmallVector<Value> next = {yNew, hNew};
        if (rc.lstm)
          next.push_back(cNew);
        scf::YieldOp::create(im.b, l, next);
      });
  return SmallVector<Value>(loop.getResults());
}

LogicalResult Importer::importRecurrent() {
  const onnx::NodeProto &n = *node;
  bool lstm = n.op_type() == "LSTM";
  if (failed(checkAttrs(
          lstm ? ArrayRef<StringRef>{"activation_alpha", "activation_beta",
                                     "activations", "clip", "direction",
                                     "hidden_size", "input_forget", "layout"}
               : ArrayRef<StringRef>{"activation_alpha", "activation_beta",
                                     "activations", "clip", "direction",
                                     "hidden_size", "layout",
                                     "linear_before_reset"})))
    return failure();
  std::string direction = attrString("direction").value_or("forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    return fail("unknown direction '" + direction + "'");
  int64_t dirs = direction == "bidirectional" ? 2 : 1;
  if (attrInt("layout").value_or(0) != 0)
    return fail("layout = 1 (batch first) is not supported");
  if (attrFloat("clip"))
    return fail("clip is not supported");
  if (lstm && attrInt("input_forget").value_or(0) != 0)
    return fail("input_forget = 1 is not supported");
  int64_t lbr = lstm ? 0 : attrInt("linear_before_reset").value_or(0);
  if (lbr != 0 && lbr != 1)
    return fail("linear_before_reset must be 0 or 1");
  // Only the default activations, which ONNX writes per direction.
  for (const auto &a : n.attribute()) {
    if (a.name() == "activation_alpha" || a.name() == "activation_beta")
      return fail(a.name() + " is not supported (only the default "
                             "activations)");
    if (a.name() != "activations")
      continue;
    std::vector<std::string> want =
        lstm ? std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"}
             : std::vector<std::string>{"Sigmoid", "Tanh"};
    bool ok = a.type() == onnx::AttributeProto::STRINGS &&
              a.strings_size() == int(want.size() * dirs);
    for (int k = 0; ok && k < a.strings_size(); ++k)
      ok = a.strings(k) == want[k % want.size()];
    if (!ok)
      return fail("only the default activations are supported (" +
                  Twine(lstm ? "Sigmoid, Tanh, Tanh" : "Sigmoid, Tanh") +
                  " per direction)");
  }
  unsigned outputs = lstm ? 3 : 2;
  for (int k = outputs; k < n.output_size(); ++k)
    if (!n.output(k).empty())
      return fail("unexpected output " + Twine(k));

  auto xin = input(0);
  if (failed(xin))
    return failure();
  ImportedValue &x = **xin;
  if (x.shape.size() != 3)
    return fail("X must have rank 3 (sequence, batch, input)");
  Recurrence rc;
  rc.lstm = lstm;
  rc.linearBeforeReset = lbr == 1;
  rc.gates = lstm ? 4 : 3;
  rc.seq = x.shape[0];
  rc.batch = x.shape[1];
  rc.input = x.shape[2];
  auto w = input(1);
  auto r = failed(w) ? FailureOr<ImportedValue *>(failure()) : input(2);
  if (failed(w) || failed(r))
    return failure();
  if ((*r)->shape.size() != 3)
    return fail("R must have rank 3");
  rc.hidden = (*r)->shape[2];
  int64_t G = rc.gates, H = rc.hidden;
  if (auto hs = attrInt("hidden_size"); hs && *hs != H)
    return fail("hidden_size " + Twine(*hs) + " does not match R's " +
                Twine(H));
  if (rc.seq < 1 || rc.batch < 1 || H < 1)
    return fail("empty sequence, batch or hidden state");
  if ((*w)->shape != SmallVector<int64_t>{dirs, G * H, rc.input})
    return fail("W must have shape [" + Twine(dirs) + ", " + Twine(G * H) +
                ", " + Twine(rc.input) + "]");
  if ((*r)->shape != SmallVector<int64_t>{dirs, G * H, H})
    return fail("R must have shape [" + Twine(dirs) + ", " + Twine(G * H) +
                ", " + Twine(H) + "]");
  auto wData = constReals(*this, **w, "W");
  if (failed(wData))
    return failure();
  auto rData = constReals(*this, **r, "R");
  if (failed(rData))
    return failure();
  std::vector<float> bData(dirs * 2 * G * H, 0.0f);
  if (hasInput(3)) {
    auto bias = input(3);
    if (failed(bias))
      return failure();
    if ((*bias)->shape != SmallVector<int64_t>{dirs, 2 * G * H})
      return fail("B must have shape [" + Twine(dirs) + ", " +
                  Twine(2 * G * H) + "]");
    auto data = constReals(*this, **bias, "B");
    if (failed(data))
      return failure();
    bData = *data;
  }
  if (hasInput(4)) {
    // sequence_lens: only the full length for every batch entry.
    auto lens = constInts(4);
    if (failed(lens))
      return failure();
    if (llvm::any_of(*lens, [&](int64_t v) { return v != rc.seq; }))
      return fail("sequence_lens other than the full sequence length are "
                  "not supported");
  }
  Type f32 = Float32Type::get(ctx);
  // Initial H and C: [dirs, batch, hidden], zero when absent.
  auto initialState = [&](unsigned idx) -> FailureOr<Value> {
    SmallVector<int64_t> shape = {dirs, rc.batch, H};
    if (!hasInput(idx)) {
      Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
      return linalg::FillOp::create(
                 b, loc, ValueRange{zero},
                 ValueRange{tensor::EmptyOp::create(b, loc, shape, f32)})
          .getResult(0);
    }
    auto v = input(idx);
    if (failed(v))
      return failure();
    if ((*v)->shape != shape)
      return fail("initial state " + Twine(idx) + " must have shape [" +
                  Twine(dirs) + ", " + Twine(rc.batch) + ", " + Twine(H) + "]");
    if ((*v)->holdsIntegers())
      return fail("initial state " + Twine(idx) + " must be float");
    return floatValue(**v, /*nhwc=*/false);
  };
  auto h0 = initialState(5);
  if (failed(h0))
    return failure();
  FailureOr<Value> c0 = Value();
  if (lstm) {
    if (hasInput(7))
      return fail("peepholes (P) are not supported");
    c0 = initialState(6);
    if (failed(c0))
      return failure();
  }
  if (x.holdsIntegers())
    return fail("X must be float (or dequantized codes)");
  auto xf = floatValue(x, /*nhwc=*/false);
  if (failed(xf))
    return failure();
  Value xRows = reshape(*xf, {rc.seq * rc.batch, rc.input});

  SmallVector<Value> ys, hs, cs;
  for (int64_t d = 0; d < dirs; ++d) {
    ArrayRef<float> wd =
        ArrayRef(*wData).slice(d * G * H * rc.input, G * H * rc.input);
    Value xw = matmulTransposed(*this, xRows,
                                f32Constant(*this, {G * H, rc.input}, wd));
    xw = reshape(xw, {rc.seq, rc.batch, G * H});
    auto stateOf = [&](Value all) -> Value {
      if (!all)
        return all;
      return tensor::ExtractSliceOp::create(
                 b, loc, RankedTensorType::get({rc.batch, H}, f32), all,
                 ValueRange{}, ValueRange{}, ValueRange{},
                 b.getDenseI64ArrayAttr({d, 0, 0}),
                 b.getDenseI64ArrayAttr({1, rc.batch, H}),
                 b.getDenseI64ArrayAttr({1, 1, 1}))
          .getResult();
    };
    bool reverse = direction == "reverse" || d == 1;
    SmallVector<Value> res =
        runDirection(*this, rc, reverse, xw,
                     ArrayRef(*rData).slice(d * G * H * H, G * H * H),
                     ArrayRef(bData).slice(d * 2 * G * H, 2 * G * H),
                     stateOf(*h0), stateOf(*c0));
    ys.push_back(reshape(res[0], {rc.seq, 1, rc.batch, H}));
    hs.push_back(reshape(res[1], {1, rc.batch, H}));
    if (lstm)
      cs.push_back(reshape(res[2], {1, rc.batch, H}));
  }
  auto joined = [&](ArrayRef<Value> parts, int64_t dim) -> Value {
    if (parts.size() == 1)
      return parts[0];
    return tensor::ConcatOp::create(b, loc, dim, parts).getResult();
  };
  auto floatOut = [&](Value v) {
    ImportedValue out;
    out.kind = Kind::Float;
    out.dtype = onnx::TensorProto::FLOAT;
    out.shape = llvm::to_vector(cast<RankedTensorType>(v.getType()).getShape());
    out.value = v;
    return out;
  };
  setOutput(0, floatOut(joined(ys, 1)));
  setOutput(1, floatOut(joined(hs, 0)));
  if (lstm)
    setOutput(2, floatOut(joined(cs, 0)));
  return success();
}
