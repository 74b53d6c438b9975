//===- Normalization.cpp - Layer, Instance and BatchNormalization ---------===//
//
// Normalizations whose statistics come from the data at run time: f32 on
// the dequantized input, in the order of operations ONNX defines (its
// function body for LayerNormalization, the reference implementation for
// InstanceNormalization). torch exports nn.LayerNorm as LayerNormalization
// from opset 17, nn.GroupNorm and nn.InstanceNorm2d as InstanceNormalization;
// and BatchNormalization left unfolded, whose statistics are constants.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// The f32 value of a Scale / B operand in logical layout, of the rank of
/// `shape`, to which it must broadcast (numpy style, ranks aligned on the
/// right); else a failure naming `what`.
static FailureOr<Value> broadcastOperand(Importer &im, ImportedValue &v,
                                         ArrayRef<int64_t> shape,
                                         StringRef what) {
  auto joined = broadcastShapes(shape, v.shape);
  if (!joined || ArrayRef<int64_t>(*joined) != shape)
    return im.fail(what + " does not broadcast to the input's shape");
  if (v.holdsIntegers())
    return im.fail(what + " is an integer tensor");
  auto f = im.floatValue(v, /*nhwc=*/false);
  if (failed(f) || v.shape.size() == shape.size())
    return f;
  // Leading 1s up to the input's rank.
  SmallVector<int64_t> s(shape.size() - v.shape.size(), 1);
  s.append(v.shape.begin(), v.shape.end());
  return im.reshape(*f, s);
}

/// The statistics over `axes` of `x`: {x - mean, sqrt(var + epsilon)}, the
/// latter with the reduced dimensions of size 1; var is the mean of the
/// squared deviations.
static std::pair<Value, Value>
standardize(Importer &im, Value x, ArrayRef<int64_t> axes, float epsilon) {
  ArrayRef<int64_t> shape = cast<RankedTensorType>(x.getType()).getShape();
  Value mean = meanAlong(im, x, axes);
  Value d = elementwise(im, {x, mean}, shape,
                        [](OpBuilder &nb, Location l, ValueRange a) {
                          return arith::SubFOp::create(nb, l, a[0], a[1]);
                        });
  Value dd =
      elementwise(im, {d}, shape, [](OpBuilder &nb, Location l, ValueRange a) {
        return arith::MulFOp::create(nb, l, a[0], a[0]);
      });
  Value var = meanAlong(im, dd, axes);
  Value stddev = elementwise(
      im, {var}, cast<RankedTensorType>(var.getType()).getShape(),
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value eps =
            arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(epsilon));
        return math::SqrtOp::create(nb, l,
                                    arith::AddFOp::create(nb, l, a[0], eps));
      });
  return {d, stddev};
}

/// Input 0 of a normalization: a real (not integer) tensor of rank
/// `minRank` or more.
static FailureOr<ImportedValue *> normalizedInput(Importer &im,
                                                  int64_t minRank) {
  StringRef op = im.node->op_type();
  auto in = im.input(0);
  if (failed(in))
    return failure();
  if (int64_t((*in)->shape.size()) < minRank)
    return im.fail(op + " needs an input of rank " + Twine(minRank) +
                   " or more");
  if ((*in)->holdsIntegers())
    return im.fail(op + " of an integer tensor");
  return *in;
}

static FailureOr<float> epsilonAttr(Importer &im) {
  float epsilon = im.attrFloat("epsilon").value_or(1e-5f);
  if (!std::isfinite(epsilon))
    return im.fail("epsilon must be finite");
  return epsilon;
}

FailureOr<SmallVector<Value>>
Importer::channelConstants(unsigned first, unsigned count, int64_t channels,
                           int64_t rank, bool nhwc, StringRef what) {
  // Shape [1, C, 1, ...], or [1, 1, 1, C] in NHWC.
  SmallVector<int64_t> shape(rank, 1);
  shape[nhwc ? 3 : 1] = channels;
  auto type = RankedTensorType::get(shape, Float32Type::get(ctx));
  SmallVector<Value> params;
  for (unsigned k = first; k < first + count; ++k) {
    auto p = input(k);
    if (failed(p))
      return failure();
    if ((*p)->kind != Kind::Const || (*p)->f.empty() ||
        (*p)->numElements() != channels)
      return fail(what + " must be compile-time float tensors of one value "
                         "per channel");
    SmallVector<float> data((*p)->f.begin(), (*p)->f.end());
    params.push_back(arith::ConstantOp::create(
        b, loc, type, DenseElementsAttr::get(type, ArrayRef<float>(data))));
  }
  return params;
}

LogicalResult Importer::importFloatBatchNorm() {
  if (failed(checkAttrs({"epsilon", "momentum", "spatial", "training_mode"})))
    return failure();
  if (attrInt("training_mode").value_or(0) != 0)
    return fail("BatchNormalization in training mode is not supported");
  if (attrInt("spatial").value_or(1) == 0)
    return fail("spatial = 0 (statistics per element) is not supported");
  if (node->output_size() > 1)
    return fail("the running mean and variance outputs are not supported");
  float epsilon = attrFloat("epsilon").value_or(1e-5f);
  if (!std::isfinite(epsilon))
    return fail("epsilon must be finite");
  auto in = normalizedInput(*this, 2);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  // scale, B, mean, var: constants of one value per channel.
  bool nhwc = v.nhwc && v.shape.size() == 4;
  auto params = channelConstants(1, 4, v.shape[1], v.shape.size(), nhwc,
                                 "scale, B, mean and var");
  if (failed(params))
    return failure();
  auto x = floatValue(v, nhwc);
  if (failed(x))
    return failure();
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  out.nhwc = nhwc;
  // (x - mean) / sqrt(var + epsilon) * scale + B, in f32 as ONNX writes it.
  out.value = elementwise(
      *this, {*x, (*params)[0], (*params)[1], (*params)[2], (*params)[3]},
      cast<RankedTensorType>(x->getType()).getShape(),
      [&](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value eps =
            arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(epsilon));
        Value centered = arith::SubFOp::create(nb, l, a[0], a[3]);
        Value stddev = math::SqrtOp::create(
            nb, l, arith::AddFOp::create(nb, l, a[4], eps));
        Value normalized = arith::DivFOp::create(nb, l, centered, stddev);
        return arith::AddFOp::create(
            nb, l, arith::MulFOp::create(nb, l, normalized, a[1]), a[2]);
      });
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importLayerNorm() {
  if (failed(checkAttrs({"axis", "epsilon", "stash_type"})))
    return failure();
  // stash_type 1: the statistics in f32, which is all this importer
  // computes in.
  if (int64_t stash = attrInt("stash_type").value_or(1); stash != 1)
    return fail("stash_type " + Twine(stash) +
                " is not supported (only 1, float)");
  for (int i = 1; i < node->output_size(); ++i)
    if (!node->output(i).empty())
      return fail("the Mean and InvStdDev outputs are not supported");
  auto epsilon = epsilonAttr(*this);
  if (failed(epsilon))
    return failure();
  auto in = normalizedInput(*this, 1);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  int64_t rank = v.shape.size();
  int64_t axis = attrInt("axis").value_or(-1);
  if (axis < -rank || axis >= rank)
    return fail("axis " + Twine(axis) + " out of range");
  if (axis < 0)
    axis += rank;
  auto x = floatValue(v, /*nhwc=*/false);
  if (failed(x))
    return failure();
  auto scale = input(1);
  if (failed(scale))
    return failure();
  auto s = broadcastOperand(*this, **scale, v.shape, "Scale");
  if (failed(s))
    return failure();
  SmallVector<Value> operands;
  if (hasInput(2)) {
    auto bias = input(2);
    if (failed(bias))
      return failure();
    auto bv = broadcastOperand(*this, **bias, v.shape, "B");
    if (failed(bv))
      return failure();
    operands.push_back(*bv);
  }
  SmallVector<int64_t> axes;
  for (int64_t d = axis; d < rank; ++d)
    axes.push_back(d);
  auto [d, stddev] = standardize(*this, *x, axes, *epsilon);
  Value inv = elementwise(
      *this, {stddev}, cast<RankedTensorType>(stddev.getType()).getShape(),
      [](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value one = arith::ConstantOp::create(nb, l, nb.getF32FloatAttr(1.0f));
        return arith::DivFOp::create(nb, l, one, a[0]);
      });
  SmallVector<Value> ins = {d, inv, *s};
  ins.append(operands);
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  // Normalized = D * InvStdDev; Y = Normalized * Scale + B.
  out.value =
      elementwise(*this, ins, v.shape,
                  [](OpBuilder &nb, Location l, ValueRange a) -> Value {
                    Value y = arith::MulFOp::create(
                        nb, l, arith::MulFOp::create(nb, l, a[0], a[1]), a[2]);
                    if (a.size() > 3)
                      y = arith::AddFOp::create(nb, l, y, a[3]);
                    return y;
                  });
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importInstanceNorm() {
  if (failed(checkAttrs({"epsilon"})))
    return failure();
  auto epsilon = epsilonAttr(*this);
  if (failed(epsilon))
    return failure();
  auto in = normalizedInput(*this, 3);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  int64_t rank = v.shape.size();
  // Per image and channel over the spatial axes, in the layout the value
  // has (a conv result stays NHWC).
  bool nhwc = v.nhwc && rank == 4;
  auto params =
      channelConstants(1, 2, v.shape[1], rank, nhwc, "scale and B");
  if (failed(params))
    return failure();
  auto x = floatValue(v, nhwc);
  if (failed(x))
    return failure();
  SmallVector<int64_t> axes;
  if (nhwc)
    axes = {1, 2};
  else
    for (int64_t d = 2; d < rank; ++d)
      axes.push_back(d);
  auto [d, stddev] = standardize(*this, *x, axes, *epsilon);
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = v.shape;
  out.nhwc = nhwc;
  // scale * (x - mean) / sqrt(var + epsilon) + B, left to right as ONNX
  // writes it.
  out.value = elementwise(
      *this, {d, stddev, (*params)[0], (*params)[1]},
      cast<RankedTensorType>(x->getType()).getShape(),
      [](OpBuilder &nb, Location l, ValueRange a) -> Value {
        Value scaled = arith::MulFOp::create(nb, l, a[2], a[0]);
        return arith::AddFOp::create(
            nb, l, arith::DivFOp::create(nb, l, scaled, a[1]), a[3]);
      });
  setOutput(0, std::move(out));
  return success();
}
