//===- Recurrent.cpp - RNN, LSTM and GRU in f32 ---------------------------===//
//
// ONNX's RNN, LSTM and GRU (speech, text and time-series models; torch's
// nn.RNN, nn.LSTM and nn.GRU) in f32 on the dequantized or float input. The
// input projection x * W^T of every time step is one matmul before the
// loop; the loop over time is an scf.for carrying H (and C) and the Y being
// filled, so the IR does not grow with the sequence.
//
// Each f32 step is ONNX's reference (onnx/backend/test/case/node/rnn.py,
// lstm.py, gru.py) left to right; every dot product sums from 0 in index
// order; f, g, h are the activations (defaults: RNN Tanh; LSTM Sigmoid,
// Tanh, Tanh; GRU Sigmoid, Tanh):
//   RNN:
//     H = f((x W^T + h R^T) + (Wb + Rb))      (Wb + Rb folded in f32)
//   LSTM (gates i, o, f, c; peepholes P = p_i, p_o, p_f, zero when absent):
//     g = (x W^T + h R^T) + (Wb + Rb)
//     C = f(g_f + p_f * C) * C + f(g_i + p_i * C) * g(g_c)
//     H = f(g_o + p_o * C) * h(C)
//   GRU (gates z, r, h):
//     z, r = f((x W_zr^T + h R_zr^T) + (Wb_zr + Rb_zr))
//     linear_before_reset = 0: n = g(((x W_h^T + (r * h) R_h^T) + Wb_h) + Rb_h)
//     linear_before_reset = 1: n = g((x W_h^T + r * (h R_h^T + Rb_h)) + Wb_h)
//     H = (1 - z) * n + z * H
// with Sigmoid(x) = 1 / (1 + exp(-x)) and the other activations as the ONNX
// ops of those names compute them (Affine alpha x + beta, ScaledTanh
// alpha tanh(beta x)).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

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

/// One of the activation functions ONNX's recurrent ops name.
struct Activation {
  std::string name;
  float alpha = 0, beta = 0;
};

enum class Cell { RNN, LSTM, GRU };

/// The recurrence's shapes and constants, one direction at a time.
struct Recurrence {
  Cell cell;
  bool linearBeforeReset = false;
  int64_t seq, batch, input, hidden, gates;
  /// f, g, h of the current direction (as many as the cell uses).
  SmallVector<Activation, 3> acts;
  /// LSTM peepholes p_i, p_o, p_f of the current direction, or empty.
  ArrayRef<float> peepholes;
};
} // namespace

/// Whether activation `name` reads alpha / beta, and their defaults where
/// the ONNX ops of those names and ONNX Runtime agree (NaN: none, the model
/// must give it: Affine and ScaledTanh have no op, and ThresholdedRelu's
/// default is 1.0 for the op but 0 in ONNX Runtime's recurrent kernels).
static bool usesAlpha(StringRef name) {
  return name == "Affine" || name == "LeakyRelu" || name == "ThresholdedRelu" ||
         name == "ScaledTanh" || name == "HardSigmoid" || name == "Elu";
}
static bool usesBeta(StringRef name) {
  return name == "Affine" || name == "ScaledTanh" || name == "HardSigmoid";
}
static float defaultAlpha(StringRef name) {
  return name == "LeakyRelu"     ? 0.01f
         : name == "HardSigmoid" ? 0.2f
         : name == "Elu"         ? 1.0f
                                 : NAN;
}
static float defaultBeta(StringRef name) {
  return name == "HardSigmoid" ? 0.5f : NAN;
}
static bool isKnownActivation(StringRef name) {
  return name == "Relu" || name == "Tanh" || name == "Sigmoid" ||
         name == "Softsign" || name == "Softplus" || usesAlpha(name);
}

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

/// `act` applied to x, as the ONNX op of that name computes it (the float
/// islands' floatUnaryOp); Relu, Affine and ScaledTanh are no such op here.
static Value activate(OpBuilder &nb, Location l, const Activation &act,
                      Value x) {
  auto constant = [&](float c) -> Value {
    return arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(c));
  };
  StringRef name = act.name;
  if (name == "Relu") // max(x, 0), NaN propagating as numpy's maximum
    return arith::MaximumFOp::create(nb, l, x, constant(0));
  if (name == "Affine")
    return arith::AddFOp::create(
        nb, l, arith::MulFOp::create(nb, l, constant(act.alpha), x),
        constant(act.beta));
  if (name == "ScaledTanh")
    return arith::MulFOp::create(
        nb, l, constant(act.alpha),
        math::TanhOp::create(
            nb, l, arith::MulFOp::create(nb, l, constant(act.beta), x)));
  return floatUnaryOp(nb, l, name, act.alpha, act.beta, x);
}

/// One direction: the x projection `xw` ([seq, batch, gates * hidden]), the
/// recurrent weights, the biases; returns Y [seq, batch, hidden], H and C.
static SmallVector<Value> runDirection(Importer &im, const Recurrence &rc,
                                       bool reverse, Value xw,
                                       ArrayRef<float> r, ArrayRef<float> bias,
                                       Value h0, Value c0) {
  int64_t H = rc.hidden, B = rc.batch, G = rc.gates;
  bool lstm = rc.cell == Cell::LSTM, gru = rc.cell == Cell::GRU;
  Value rAll = f32Constant(im, {G * H, H}, r);
  // RNN, LSTM: the whole Wb + Rb; GRU: Wb + Rb for z and r, then Wb_h and
  // Rb_h.
  std::vector<float> folded;
  int64_t foldedGates = gru ? 2 : G;
  for (int64_t k = 0; k < foldedGates * H; ++k)
    folded.push_back(bias[k] + bias[G * H + k]);
  Value bFolded = f32Constant(im, {1, foldedGates * H}, folded);
  Value wbH, rbH, rZR, rH;
  if (gru) {
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
  if (lstm)
    init.push_back(c0);
  Value peep[3];
  if (lstm && !rc.peepholes.empty())
    for (int k = 0; k < 3; ++k)
      peep[k] = f32Constant(im, {1, H}, rc.peepholes.slice(k * H, H));
  Activation f = rc.acts[0];
  Activation g = rc.acts.size() > 1 ? rc.acts[1] : Activation();
  Activation hAct = rc.acts.size() > 2 ? rc.acts[2] : Activation();
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
        auto gatesOf = [&](int64_t width) {
          // (x W^T + h R^T) + (Wb + Rb).
          Value hr = matmulTransposed(im, h, rAll);
          return elementwise(
              im, {xt, hr, bFolded}, {B, width},
              [](OpBuilder &b, Location l, ValueRange a) -> Value {
                return arith::AddFOp::create(
                    b, l, arith::AddFOp::create(b, l, a[0], a[1]), a[2]);
              });
        };
        if (rc.cell == Cell::RNN) {
          hNew = elementwise(im, {gatesOf(H)}, shape,
                             [&](OpBuilder &b, Location l, ValueRange a) {
                               return activate(b, l, f, a[0]);
                             });
        } else if (lstm) {
          // Gates i, o, f, c.
          Value gates = gatesOf(G * H);
          Value gi = columns(im, gates, 0, H), go = columns(im, gates, H, H),
                gf = columns(im, gates, 2 * H, H),
                gc = columns(im, gates, 3 * H, H);
          bool peepholes = !rc.peepholes.empty();
          // g + p * C where there are peepholes.
          auto withPeephole = [&](OpBuilder &b, Location l, Value gate, Value p,
                                  Value c) -> Value {
            if (!peepholes)
              return gate;
            return arith::AddFOp::create(b, l, gate,
                                         arith::MulFOp::create(b, l, p, c));
          };
          SmallVector<Value> cIns = {gf, carried[2], gi, gc};
          if (peepholes)
            cIns.append({peep[0], peep[2]});
          cNew = elementwise(
              im, cIns, shape,
              [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                Value pi = peepholes ? a[4] : Value(),
                      pf = peepholes ? a[5] : Value();
                Value fGate =
                    activate(b, l, f, withPeephole(b, l, a[0], pf, a[1]));
                Value iGate =
                    activate(b, l, f, withPeephole(b, l, a[2], pi, a[1]));
                Value keep = arith::MulFOp::create(b, l, fGate, a[1]);
                Value add =
                    arith::MulFOp::create(b, l, iGate, activate(b, l, g, a[3]));
                return arith::AddFOp::create(b, l, keep, add);
              });
          SmallVector<Value> hIns = {go, cNew};
          if (peepholes)
            hIns.push_back(peep[1]);
          hNew = elementwise(
              im, hIns, shape,
              [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                Value po = peepholes ? a[2] : Value();
                Value oGate =
                    activate(b, l, f, withPeephole(b, l, a[0], po, a[1]));
                return arith::MulFOp::create(b, l, oGate,
                                             activate(b, l, hAct, a[1]));
              });
        } else {
          Value hr = matmulTransposed(im, h, rZR);
          Value xzr = columns(im, xt, 0, 2 * H), xh = columns(im, xt, 2 * H, H);
          // z and r: f((x W^T + h R^T) + (Wb + Rb)).
          Value zr = elementwise(
              im, {xzr, hr, bFolded}, {B, 2 * H},
              [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                return activate(
                    b, l, f,
                    arith::AddFOp::create(
                        b, l, arith::AddFOp::create(b, l, a[0], a[1]), a[2]));
              });
          Value z = columns(im, zr, 0, H), r = columns(im, zr, H, H);
          Value n;
          if (rc.linearBeforeReset) {
            Value hrh = matmulTransposed(im, h, rH);
            n = elementwise(
                im, {xh, r, hrh, rbH, wbH}, shape,
                [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                  Value inner = arith::AddFOp::create(b, l, a[2], a[3]);
                  Value sum = arith::AddFOp::create(
                      b, l, a[0], arith::MulFOp::create(b, l, a[1], inner));
                  return activate(b, l, g,
                                  arith::AddFOp::create(b, l, sum, a[4]));
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
                [&](OpBuilder &b, Location l, ValueRange a) -> Value {
                  Value s = arith::AddFOp::create(b, l, a[0], a[1]);
                  s = arith::AddFOp::create(b, l, s, a[2]);
                  s = arith::AddFOp::create(b, l, s, a[3]);
                  return activate(b, l, g, s);
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
        if (lstm)
          next.push_back(cNew);
        scf::YieldOp::create(im.b, l, next);
      });
  return SmallVector<Value>(loop.getResults());
}

LogicalResult Importer::importRecurrent() {
  const onnx::NodeProto &n = *node;
  Cell cell = n.op_type() == "LSTM"  ? Cell::LSTM
              : n.op_type() == "GRU" ? Cell::GRU
                                     : Cell::RNN;
  bool lstm = cell == Cell::LSTM;
  SmallVector<StringRef> known = {
      "activation_alpha", "activation_beta", "activations", "clip",
      "direction",        "hidden_size",     "layout"};
  if (lstm)
    known.push_back("input_forget");
  if (cell == Cell::GRU)
    known.push_back("linear_before_reset");
  if (failed(checkAttrs(known)))
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
  int64_t lbr =
      cell == Cell::GRU ? attrInt("linear_before_reset").value_or(0) : 0;
  if (lbr != 0 && lbr != 1)
    return fail("linear_before_reset must be 0 or 1");
  // The activations, per direction (f, g, h of the first direction, then of
  // the second); alpha and beta are consumed in that order by the
  // activations that take them, defaults as the ONNX ops of those names.
  SmallVector<StringRef> defaults =
      lstm                ? SmallVector<StringRef>{"Sigmoid", "Tanh", "Tanh"}
      : cell == Cell::GRU ? SmallVector<StringRef>{"Sigmoid", "Tanh"}
                          : SmallVector<StringRef>{"Tanh"};
  std::vector<std::string> names;
  for (const auto &a : n.attribute())
    if (a.name() == "activations")
      for (const std::string &name : a.strings())
        names.push_back(name);
  if (names.empty())
    for (int64_t d = 0; d < dirs; ++d)
      names.insert(names.end(), defaults.begin(), defaults.end());
  if (int64_t(names.size()) != int64_t(defaults.size()) * dirs)
    return fail("activations must name " + Twine(defaults.size()) +
                " function(s) per direction, " + Twine(defaults.size() * dirs) +
                " in all");
  std::vector<double> alphas =
      attrFloats("activation_alpha").value_or(std::vector<double>{});
  std::vector<double> betas =
      attrFloats("activation_beta").value_or(std::vector<double>{});
  size_t nextAlpha = 0, nextBeta = 0;
  SmallVector<Activation> activations;
  for (const std::string &name : names) {
    if (!isKnownActivation(name))
      return fail("unknown activation '" + name + "'");
    Activation act;
    act.name = name;
    if (usesAlpha(name))
      act.alpha = nextAlpha < alphas.size() ? float(alphas[nextAlpha++])
                                            : defaultAlpha(name);
    if (usesBeta(name))
      act.beta = nextBeta < betas.size() ? float(betas[nextBeta++])
                                         : defaultBeta(name);
    if (std::isnan(act.alpha) || std::isnan(act.beta))
      return fail("activation " + name + " needs its activation_alpha" +
                  (usesBeta(name) ? " and activation_beta values" : " value") +
                  " (no default that ONNX and ONNX Runtime agree on)");
    activations.push_back(act);
  }
  if (nextAlpha != alphas.size() || nextBeta != betas.size())
    return fail("more activation_alpha / activation_beta values than the "
                "activations take");
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
  rc.cell = cell;
  rc.linearBeforeReset = lbr == 1;
  rc.gates = lstm ? 4 : cell == Cell::GRU ? 3 : 1;
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
  std::vector<float> pData;
  if (lstm) {
    c0 = initialState(6);
    if (failed(c0))
      return failure();
    if (hasInput(7)) {
      auto p = input(7);
      if (failed(p))
        return failure();
      if ((*p)->shape != SmallVector<int64_t>{dirs, 3 * H})
        return fail("P must have shape [" + Twine(dirs) + ", " + Twine(3 * H) +
                    "]");
      auto data = constReals(*this, **p, "P");
      if (failed(data))
        return failure();
      pData = *data;
    }
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
    rc.acts.assign(activations.begin() + d * defaults.size(),
                   activations.begin() + (d + 1) * defaults.size());
    rc.peepholes = pData.empty() ? ArrayRef<float>()
                                 : ArrayRef(pData).slice(d * 3 * H, 3 * H);
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
