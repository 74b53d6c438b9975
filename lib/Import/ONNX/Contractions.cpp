//===- Contractions.cpp - Conv, Gemm, MatMul and their QOperator forms ----===//
//
// QDQ: DQ(x) and DQ(constant codes) into a float Conv / Gemm / MatMul give a
// pending contraction; the QuantizeLinear after it (through Relu / Clip)
// emits qnt.conv2d / qnt.matmul with an i32 accumulator at S_X * S_W and one
// qnt.requantize. A float bias is quantized at compile time the way ONNX
// Runtime's quantizer does it: round_half_even(f32(b) / f32(S_X * S_W)).
// QLinearConv / QLinearMatMul map directly; ConvInteger / MatMulInteger give
// the raw i32 accumulator (scales 1); MatMulInteger's A may have a run-time
// zero point (ONNX Runtime's dynamic quantization), subtracted after the
// matmul as zx * (column sums of the weights).
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <optional>
#include <utility>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// Reads a bias operand: a float constant, or DequantizeLinear'd int32 codes
/// at scale S_X * S_W.
static LogicalResult readBias(Importer &im, unsigned idx, int64_t channels,
                              PendingInfo &p) {
  if (!im.hasInput(idx))
    return success();
  auto in = im.input(idx);
  if (failed(in))
    return failure();
  ImportedValue &v = **in;
  if (v.numElements() != channels && v.numElements() != 1)
    return im.fail("bias has " + Twine(v.numElements()) +
                   " elements, expected " + Twine(channels));
  return im.setContractionBias(v, channels, p);
}

LogicalResult Importer::setContractionBias(const ImportedValue &v,
                                           int64_t channels, PendingInfo &p) {
  auto broadcast = [&](auto &data) {
    auto copy = data;
    if (copy.size() == 1)
      copy.assign(channels, copy[0]);
    return copy;
  };
  if (v.kind == Kind::Const && !v.f.empty()) {
    p.floatBias = broadcast(v.f);
    return success();
  }
  if (v.kind == Kind::Dequant && v.codes && v.q.width == 32) {
    // Its scale must be S_X * S_W, channel by channel.
    const QParams &xq = p.operands[0].q, &wq = p.operands[1].q;
    for (int64_t c = 0; c < channels; ++c) {
      double want = xq.scales[0] * wq.scales[wq.perAxis() ? c : 0];
      double have = v.q.scales[v.q.perAxis() ? c : 0];
      if (!qnt::scalesMatch(have, want))
        return fail("mismatched scales: bias scale " + str(have) +
                    " is not S_X * S_W = " + str(want));
      if (v.q.zeroPoints[v.q.perAxis() ? c : 0] != 0)
        return fail("the bias zero point must be 0");
    }
    p.intBias = broadcast(*v.codes);
    return success();
  }
  if (v.kind == Kind::Const && !v.i.empty() &&
      v.dtype == onnx::TensorProto::INT32) {
    p.intBias = broadcast(v.i);
    return success();
  }
  return fail("bias must be a float constant or DequantizeLinear of "
              "int32 constant codes");
}

LogicalResult Importer::readConvAttrs(PendingInfo &p, const ImportedValue &x,
                                      const ImportedValue &w) {
  if (failed(checkAttrs({"auto_pad", "dilations", "group", "kernel_shape",
                         "pads", "strides"})))
    return failure();
  // A 1-D conv (N x C x L) is the 2-D conv of height 1 (liftConv1D).
  bool oneD = x.shape.size() == 3 && w.shape.size() == 3;
  if (!oneD && (x.shape.size() != 4 || w.shape.size() != 4))
    return fail("a convolution needs an input and a weight of the same "
                "rank, 3, 4 or 5; got " +
                Twine(x.shape.size()) + " and " + Twine(w.shape.size()));
  if (llvm::any_of(w.shape, [](int64_t d) { return d <= 0; }))
    return fail("the weight's dimensions must be positive, got " +
                joinedDims(w.shape));
  size_t n = oneD ? 1 : 2;
  // Spatial size `d` (0: H, 1: W) of an input or a weight.
  auto spatial = [&](const ImportedValue &v, int d) -> int64_t {
    return oneD ? (d == 0 ? 1 : v.shape[2]) : v.shape[2 + d];
  };
  p.isConv = true;
  p.groups = attrInt("group").value_or(1);
  p.strides = attrInts("strides").value_or(std::vector<int64_t>(n, 1));
  p.dilations = attrInts("dilations").value_or(std::vector<int64_t>(n, 1));
  if (p.strides.size() != n || p.dilations.size() != n)
    return fail("strides and dilations need " + Twine(n) + " value" +
                (n == 1 ? "" : "s"));
  if (oneD) {
    p.strides.insert(p.strides.begin(), 1);
    p.dilations.insert(p.dilations.begin(), 1);
  }
  for (int64_t s : p.strides)
    if (s <= 0)
      return fail("strides must be positive");
  for (int64_t d : p.dilations)
    if (d <= 0)
      return fail("dilations must be positive");
  if (auto k = attrInts("kernel_shape"))
    if (k->size() != n || (*k)[0] != w.shape[2] ||
        (!oneD && (*k)[1] != w.shape[3]))
      return fail("kernel_shape does not match the weight's shape");
  if (p.groups <= 0 || x.shape[1] != w.shape[1] * p.groups ||
      w.shape[0] % p.groups != 0)
    return fail("input channels " + Twine(x.shape[1]) + ", weight " +
                Twine(w.shape[0]) + "x" + Twine(w.shape[1]) + " and group " +
                Twine(p.groups) + " do not fit together");
  std::string autoPad = attrString("auto_pad").value_or("NOTSET");
  std::vector<int64_t> pads =
      attrInts("pads").value_or(std::vector<int64_t>(2 * n, 0));
  if (pads.size() != 2 * n)
    return fail("pads needs " + Twine(2 * n) + " values");
  if (oneD)
    pads = {0, pads[0], 0, pads[1]};
  for (int64_t v : pads)
    if (v < 0)
      return fail("negative padding");
  if (autoPad == "VALID") {
    pads = {0, 0, 0, 0};
  } else if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (int d = 0; d < 2; ++d) {
      int64_t k = (spatial(w, d) - 1) * p.dilations[d] + 1;
      std::tie(pads[d], pads[d + 2]) =
          samePadding(spatial(x, d), p.strides[d], k, autoPad == "SAME_UPPER");
    }
  } else if (autoPad != "NOTSET") {
    return fail("unsupported auto_pad '" + autoPad + "'");
  }
  // ONNX: [H_begin, W_begin, H_end, W_end]; qnt: [top, bottom, left, right].
  p.padding = {pads[0], pads[2], pads[1], pads[3]};
  for (int d = 0; d < 2; ++d) {
    int64_t k = (spatial(w, d) - 1) * p.dilations[d] + 1;
    if (spatial(x, d) + pads[d] + pads[d + 2] < k)
      return fail("the kernel is larger than the padded input");
  }
  return success();
}

/// The logical (NCHW) shape of conv `p`'s result.
static SmallVector<int64_t> convResultShape(const PendingInfo &p,
                                            const ImportedValue &x,
                                            const ImportedValue &w) {
  auto out = [&](int d) {
    return (x.shape[2 + d] + p.padding[2 * d] + p.padding[2 * d + 1] -
            ((w.shape[2 + d] - 1) * p.dilations[d] + 1)) /
               p.strides[d] +
           1;
  };
  return {x.shape[0], w.shape[0], out(0), out(1)};
}

/// A 1-D conv's input or weight (rank 3) as the 2-D one of height 1, in
/// logical layout.
static FailureOr<ImportedValue> withUnitHeight(Importer &im, ImportedValue v) {
  SmallVector<int64_t> shape(v.shape);
  shape.insert(shape.begin() + 2, 1);
  if (v.kind == Kind::Pending) {
    auto f = im.floatValue(v, /*nhwc=*/false);
    if (failed(f))
      return failure();
    ImportedValue floatValue;
    floatValue.kind = Kind::Float;
    floatValue.value = *f;
    v = std::move(floatValue);
  }
  // Compile-time data keeps its row-major order; a run-time value of rank 3
  // is never NHWC.
  if (v.value && !v.codes && v.kind != Kind::Const)
    v.value = im.reshape(v.value, shape);
  if (v.q.perAxis() && v.q.axis >= 2)
    ++v.q.axis;
  v.shape = shape;
  v.nhwc = false;
  return v;
}

LogicalResult
quantopt::onnx_import::detail::liftToUnitHeight(Importer &im, ImportedValue &x,
                                                ImportedValue &w) {
  auto x4 = withUnitHeight(im, x);
  auto w4 =
      failed(x4) ? FailureOr<ImportedValue>(failure()) : withUnitHeight(im, w);
  if (failed(w4))
    return failure();
  x = std::move(*x4);
  w = std::move(*w4);
  return success();
}

LogicalResult Importer::liftConv1D(PendingInfo &p, ImportedValue &x,
                                   ImportedValue &w) {
  if (x.shape.size() != 3)
    return success();
  if (failed(liftToUnitHeight(*this, x, w)))
    return failure();
  SmallVector<int64_t> shape = convResultShape(p, x, w);
  p.resultShape = {shape[0], shape[1], shape[3]};
  return success();
}

/// The weight as `qnt.constant` in the layout qnt wants: HWCF for conv,
/// K x N for matmul (ONNX gives OIHW and K x N).
static FailureOr<Value> buildWeight(Importer &im, const ImportedValue &w,
                                    bool isConv) {
  SmallVector<int64_t> shape;
  std::vector<int32_t> codes(w.codes->size());
  int64_t axis = -1;
  if (isConv) {
    int64_t o = w.shape[0], c = w.shape[1], kh = w.shape[2], kw = w.shape[3];
    shape = {kh, kw, c, o};
    for (int64_t f = 0; f < o; ++f)
      for (int64_t ci = 0; ci < c; ++ci)
        for (int64_t y = 0; y < kh; ++y)
          for (int64_t x = 0; x < kw; ++x)
            codes[((y * kw + x) * c + ci) * o + f] =
                (*w.codes)[((f * c + ci) * kh + y) * kw + x];
    axis = 3;
  } else {
    shape = {w.shape[0], w.shape[1]};
    codes.assign(w.codes->begin(), w.codes->end());
    axis = 1;
  }
  auto type = RankedTensorType::get(shape, im.quantElementType(w.q, axis));
  auto qtype = cast<quant::QuantizedType>(type.getElementType());
  return qnt::ConstantOp::create(im.b, im.loc, type,
                                 qnt::buildCodesAttr(shape, qtype, codes))
      .getResult();
}

void Importer::spreadBlocks(ImportedValue &v, const int64_t blocks[2]) {
  auto type = cast<RankedTensorType>(v.value.getType());
  int64_t n = type.getDimSize(0), h = type.getDimSize(1),
          w = type.getDimSize(2),
          m = type.getDimSize(3) / (blocks[0] * blocks[1]);
  // Codes move as storage integers: their type's per-channel parameters
  // (if any) are those of M channels afterwards.
  Value ints = v.value;
  if (v.kind == Kind::Quant)
    ints = quant::StorageCastOp::create(
        b, loc, RankedTensorType::get(type.getShape(), storageIntType(v.q)),
        v.value);
  Value t = reshape(ints, {n, h, w, blocks[0], blocks[1], m});
  t = transpose(t, {0, 1, 3, 2, 4, 5});
  v.shape = {n, m, h * blocks[0], w * blocks[1]};
  v.nhwc = true;
  t = reshape(t, {n, h * blocks[0], w * blocks[1], m});
  v.value = v.kind == Kind::Quant
                ? quant::StorageCastOp::create(b, loc, quantTensorType(v), t)
                      .getResult()
                : t;
}

void Importer::cropSpatial(ImportedValue &v, const int64_t crop[4]) {
  auto type = cast<RankedTensorType>(v.value.getType());
  int64_t n = type.getDimSize(0), c = type.getDimSize(3);
  auto idx = [&](int64_t x) -> OpFoldResult { return b.getIndexAttr(x); };
  v.value = tensor::ExtractSliceOp::create(
      b, loc, v.value, {idx(0), idx(crop[0]), idx(crop[1]), idx(0)},
      {idx(n), idx(crop[2]), idx(crop[3]), idx(c)},
      {idx(1), idx(1), idx(1), idx(1)});
  v.shape = {n, c, crop[2], crop[3]};
}

void Importer::viewAs(ImportedValue &v, ArrayRef<int64_t> shape) {
  if (v.nhwc && shape.size() == 5) {
    // A 3-D conv's (N Do) x Ho x Wo x F (Conv3D.cpp) as N x F x Do x Ho x
    // Wo. Codes move as storage integers: a per-axis type's channel
    // dimension moves with them.
    auto type = cast<RankedTensorType>(v.value.getType());
    auto qtype = dyn_cast<quant::QuantizedType>(type.getElementType());
    Value values = v.value;
    if (qtype)
      values = quant::StorageCastOp::create(
          b, loc,
          RankedTensorType::get(type.getShape(), qtype.getStorageType()),
          values);
    values =
        reshape(values, {shape[0], shape[2], shape[3], shape[4], shape[1]});
    values = transpose(values, {0, 4, 1, 2, 3});
    v.shape.assign(shape.begin(), shape.end());
    v.nhwc = false;
    v.value =
        qtype ? quant::StorageCastOp::create(b, loc, quantTensorType(v), values)
                    .getResult()
              : values;
    return;
  }
  if (v.nhwc) {
    v.value = transpose(v.value, {0, 3, 1, 2});
    v.nhwc = false;
  }
  v.shape.assign(shape.begin(), shape.end());
  v.value = reshape(v.value, v.shape);
}

QParams quantopt::onnx_import::detail::repeatChannels(const QParams &q,
                                                      int64_t channels) {
  if (!q.perAxis())
    return q;
  QParams out = q;
  out.scales.clear();
  out.zeroPoints.clear();
  for (int64_t c = 0; c < channels; ++c) {
    out.scales.push_back(q.scales[c % q.scales.size()]);
    out.zeroPoints.push_back(q.zeroPoints[c % q.scales.size()]);
  }
  return out;
}

FailureOr<ImportedValue> Importer::emitContraction(PendingInfo &p,
                                                   const QParams *out) {
  ImportedValue &x = p.operands[0];
  ImportedValue &w = p.operands[1];
  if (x.q.perAxis())
    return fail("per-axis quantized activations are not supported as a "
                "contraction input");
  int64_t channels = p.isConv ? w.shape[0] : w.shape[1];
  if (w.q.perAxis() && w.q.axis != (p.isConv ? 0 : 1))
    return fail("per-axis weight scales must run along the output channels");
  // Accumulator: i32 at S_X * S_W (per output channel with per-axis W).
  QParams acc;
  acc.width = 32;
  acc.isSigned = true;
  for (double sw : w.q.scales) {
    // Each scale is a positive finite f32, but their product may leave the
    // range a !quant.uniform scale can hold.
    double scale = x.q.scales[0] * sw;
    if (!isF32QuantScale(scale))
      return fail("the accumulator scale S_X * S_W = " + str(scale) +
                  " is outside the positive range of f32");
    acc.scales.push_back(scale);
  }
  acc.zeroPoints.assign(acc.scales.size(), 0);
  if (w.q.perAxis())
    acc.axis = 1; // Output channels: C of NCHW, N of M x N.

  FailureOr<Value> xv = failure();
  if (!p.isConv && x.isFlattenedNhwc() && !x.codes) {
    // x holds its K dimension in (h, w, c) order: permute the weight rows
    // to match at compile time instead of transposing x at run time.
    ArrayRef<int64_t> s = x.flattenedFromNhwc;
    int64_t c = s[1], h = s[2], wd = s[3], n = w.shape[1];
    std::vector<int64_t> rows(w.codes->size());
    for (int64_t hi = 0; hi < h; ++hi)
      for (int64_t wi = 0; wi < wd; ++wi)
        for (int64_t ci = 0; ci < c; ++ci) {
          int64_t kp = (hi * wd + wi) * c + ci, kl = (ci * h + hi) * wd + wi;
          std::copy_n(w.codes->begin() + kl * n, n, rows.begin() + kp * n);
        }
    w.codes = std::move(rows);
    xv = x.value;
  } else {
    xv = quantValue(x, /*nhwc=*/true);
  }
  auto wv = buildWeight(*this, w, p.isConv);
  if (failed(xv) || failed(wv))
    return failure();

  ImportedValue result;
  result.kind = Kind::Quant;
  result.q = acc;
  if (p.isConv) {
    result.shape = convResultShape(p, x, w);
    result.nhwc = true;
  } else {
    result.shape = {x.shape[0], channels};
  }
  RankedTensorType accType = quantTensorType(result);

  Value bias;
  if (p.floatBias || p.intBias) {
    // A block ConvTranspose's bias has one value per output channel m, for
    // conv channels (block, m).
    int64_t biasChannels =
        p.floatBias ? p.floatBias->size() : p.intBias->size();
    std::vector<int32_t> codes;
    for (int64_t c = 0; c < channels; ++c) {
      int64_t m = c % biasChannels;
      if (p.floatBias) {
        float s =
            float(x.q.scales[0]) * float(w.q.scales[w.q.perAxis() ? c : 0]);
        double r = std::nearbyint(double(float((*p.floatBias)[m]) / s));
        if (!(std::fabs(r) < 2147483647.0))
          return fail("bias " + str((*p.floatBias)[m]) +
                      " does not fit int32 at scale S_X * S_W");
        codes.push_back(int32_t(r));
      } else {
        int64_t v = (*p.intBias)[m];
        if (v < INT32_MIN || v > INT32_MAX)
          return fail("bias does not fit int32");
        codes.push_back(int32_t(v));
      }
    }
    QParams bq = acc;
    if (bq.perAxis())
      bq.axis = 0;
    auto type = RankedTensorType::get({channels}, quantElementType(bq, 0));
    bias = qnt::ConstantOp::create(
               b, loc, type,
               qnt::buildCodesAttr(
                   type.getShape(),
                   cast<quant::QuantizedType>(type.getElementType()), codes))
               .getResult();
  }

  Operation *contraction;
  if (p.isConv)
    contraction =
        qnt::Conv2DOp::create(b, loc, accType, *xv, *wv, bias, p.strides,
                              p.dilations, p.padding, uint64_t(p.groups));
  else
    contraction = qnt::MatmulOp::create(b, loc, accType, *xv, *wv, bias);
  // The accumulator bound depends on the weights, zero points and bias.
  if (failed(verifyAtNode(contraction)))
    return failure();
  Value accValue = contraction->getResult(0);

  // The rows of an A of rank > 2 take back its leading dimensions, a 1-D
  // conv's result its rank (from NCHW).
  auto viewBack = [&](ImportedValue &v) {
    if (p.blocks[0])
      spreadBlocks(v, p.blocks);
    if (p.crop[2])
      cropSpatial(v, p.crop);
    if (!p.resultShape.empty())
      viewAs(v, p.resultShape);
  };
  if (!out) {
    // Raw accumulator (ConvInteger / MatMulInteger): int32 codes.
    result.kind = Kind::Int;
    result.dtype = onnx::TensorProto::INT32;
    result.value = quant::StorageCastOp::create(
        b, loc, RankedTensorType::get(accType.getShape(), b.getIntegerType(32)),
        accValue);
    viewBack(result);
    return result;
  }
  ImportedValue y = result;
  y.q = *out;
  if (out->perAxis()) {
    if (out->axis != 1)
      return fail("a per-axis output must run along the channels");
    // A block ConvTranspose's channels are (block, m): its per-channel
    // parameters repeat for each block position.
    if (p.blocks[0])
      y.q = repeatChannels(*out, channels);
  }
  auto [lo, hi] = clampCodes(p, *out);
  y.value = requantize(accValue, quantTensorType(y), lo, hi, y.q);
  y.dtype = out->isSigned ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
  y.q = *out;
  viewBack(y);
  return y;
}

/// acc - zx * c[n] with c[n] = sum_k (w[k, n] - zw[n]), in i32 wrap-around
/// arithmetic: MatMulInteger's exact sums when A's zero point `zx` (a
/// scalar, 8-bit codes, signed or not) is only known at run time and the
/// matmul ran with zero point 0. One elementwise linalg.generic; c is a
/// compile-time constant.
static Value subtractRuntimeZeroPoint(Importer &im, Value acc,
                                      const ImportedValue &zx,
                                      ArrayRef<int64_t> weights,
                                      ArrayRef<int64_t> weightZeroPoints,
                                      bool zxSigned) {
  auto accType = cast<RankedTensorType>(acc.getType());
  int64_t k = static_cast<int64_t>(weights.size()) / accType.getDimSize(1),
          n = accType.getDimSize(1);
  SmallVector<int32_t> sums(n);
  for (int64_t col = 0; col < n; ++col) {
    int64_t zw = weightZeroPoints[weightZeroPoints.size() == 1 ? 0 : col];
    uint32_t sum = 0; // i32 wrap-around, as the generated code computes
    for (int64_t row = 0; row < k; ++row)
      sum += static_cast<uint32_t>(weights[row * n + col] - zw);
    sums[col] = static_cast<int32_t>(sum);
  }
  MLIRContext *ctx = im.ctx;
  OpBuilder &b = im.b;
  Location loc = im.loc;
  Type i32 = b.getIntegerType(32);
  auto sumType = RankedTensorType::get({n}, i32);
  Value sumConst = arith::ConstantOp::create(
      b, loc, sumType, DenseElementsAttr::get(sumType, ArrayRef(sums)));
  auto zxType = cast<RankedTensorType>(zx.value.getType());
  SmallVector<AffineExpr> zeros(zxType.getRank(), getAffineConstantExpr(0, ctx));
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(2, ctx),
      AffineMap::get(2, 0, zeros, ctx),
      AffineMap::get(2, 0, {getAffineDimExpr(1, ctx)}, ctx),
      AffineMap::getMultiDimIdentityMap(2, ctx)};
  Value init = tensor::EmptyOp::create(b, loc, accType.getShape(), i32);
  return linalg::GenericOp::create(
             b, loc, TypeRange{accType}, ValueRange{acc, zx.value, sumConst},
             ValueRange{init}, maps,
             SmallVector<utils::IteratorType>(2, utils::IteratorType::parallel),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               Value z = zxSigned
                             ? Value(arith::ExtSIOp::create(nb, l, i32, args[1]))
                             : Value(arith::ExtUIOp::create(nb, l, i32, args[1]));
               Value product = arith::MulIOp::create(nb, l, z, args[2]);
               linalg::YieldOp::create(
                   nb, l, Value(arith::SubIOp::create(nb, l, args[0], product)));
             })
      .getResult(0);
}

static ImportedValue makePending(PendingInfo p, SmallVector<int64_t> shape) {
  ImportedValue v;
  v.kind = Kind::Pending;
  v.shape = std::move(shape);
  v.pending = std::make_shared<PendingInfo>(std::move(p));
  return v;
}

/// A of a MatMul with rank > 2 as the 2-D matrix of its rows (the product
/// of the leading dimensions x K): ONNX's MatMul broadcasts a 2-D B over
/// the leading dimensions, which is one matmul on the rows.
static FailureOr<ImportedValue> rowsOf(Importer &im, ImportedValue a) {
  int64_t k = a.shape.back(), m = a.numElements() / k;
  Value v;
  if (!a.codes) {
    if (a.isQuantized()) {
      auto q = im.quantValue(a, /*nhwc=*/false);
      if (failed(q))
        return failure();
      v = *q;
    } else if (a.nhwc) {
      return im.fail("MatMul of an NHWC integer tensor is not supported");
    } else {
      v = a.value;
    }
  }
  a.shape = {m, k};
  a.nhwc = false;
  a.flattenedFromNhwc.clear();
  if (v)
    a.value = im.reshape(v, a.shape);
  return a;
}

/// Sets the operands of a MatMul-like contraction of A (rank >= 2) and a
/// 2-D B: A itself, or the rows of an A of rank > 2 with the result's shape
/// in `p.resultShape`.
static LogicalResult matmulOperands(Importer &im, const ImportedValue &a,
                                    const ImportedValue &w, PendingInfo &p) {
  if (a.shape.size() < 2 || w.shape.size() != 2)
    return im.fail("MatMul needs an A of rank 2 or more and a 2-D B");
  if (a.shape.back() != w.shape[0])
    return im.fail("inner dimensions differ: " + Twine(a.shape.back()) +
                   " vs " + Twine(w.shape[0]));
  if (a.shape.size() == 2) {
    p.operands = {a, w};
    return success();
  }
  auto rows = rowsOf(im, a);
  if (failed(rows))
    return failure();
  p.operands = {*rows, w};
  p.resultShape.assign(a.shape.begin(), a.shape.end());
  p.resultShape.back() = w.shape[1];
  return success();
}

LogicalResult
quantopt::onnx_import::detail::requireConstWeight(Importer &im,
                                                  const ImportedValue &w) {
  if (!w.codes)
    return im.fail("non-constant weights: the weight must be a compile-time "
                   "tensor (initializer through QuantizeLinear / "
                   "DequantizeLinear)");
  if (w.q.width != 8)
    return im.fail("weights must be 8-bit");
  return success();
}

/// Whether quantized `v` can feed qnt.conv2d / qnt.matmul, which take 8-bit
/// codes. 16-bit activations or weights (ONNX Runtime's A16W8 and A16W16
/// QDQ models) make the contraction run in f32 on the dequantized values
/// instead: the QDQ graph's own definition.
static bool eightBitCodes(const ImportedValue &v) {
  return !v.isQuantized() || v.q.width == 8;
}

LogicalResult Importer::importConv() {
  auto xin = input(0);
  auto win = failed(xin) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(xin) || failed(win))
    return failure();
  // A float input or float weights (a layer left out of quantization, e.g.
  // ONNX Runtime's nodes_to_exclude): the conv runs in f32.
  bool floatWeights = (*win)->kind == Kind::Const && !(*win)->f.empty();
  if (floatWeights || !isQuantizable(**xin) || !eightBitCodes(**xin) ||
      !eightBitCodes(**win)) {
    PendingInfo p;
    ImportedValue x = **xin, w = **win;
    if (failed(readConvWindow(p, x, w)))
      return failure();
    return importFloatConv(x, w, p, /*biasIdx=*/2);
  }
  auto xq = requireQuantized(0, "input X");
  if (failed(xq))
    return failure();
  auto wq = requireQuantized(1, "weight W");
  if (failed(wq) || failed(requireConstWeight(*this, **wq)))
    return failure();
  PendingInfo p;
  ImportedValue x = **xq, w = **wq;
  if (failed(readConvWindow(p, x, w)))
    return failure();
  return setPendingConv(x, w, std::move(p));
}

LogicalResult Importer::setPendingConv(const ImportedValue &x,
                                       const ImportedValue &w, PendingInfo p) {
  if (failed(requireConstWeight(*this, w)))
    return failure();
  p.op = PendingOp::Contraction;
  p.operands = {x, w};
  int64_t blockSize = p.blocks[0] ? p.blocks[0] * p.blocks[1] : 1;
  if (failed(readBias(*this, 2, w.shape[0] / blockSize, p)))
    return failure();
  // Shape for consumers (Relu, Q): the one emitContraction gives.
  bool oneD = !p.resultShape.empty();
  SmallVector<int64_t> shape =
      oneD ? SmallVector<int64_t>(p.resultShape.begin(), p.resultShape.end())
           : convResultShape(p, x, w);
  if (p.blocks[0] && !oneD)
    shape = {shape[0], shape[1] / blockSize, shape[2] * p.blocks[0],
             shape[3] * p.blocks[1]};
  if (p.crop[2] && !oneD) {
    shape[2] = p.crop[2];
    shape[3] = p.crop[3];
  }
  ImportedValue out = makePending(std::move(p), shape);
  out.nhwc = !oneD;
  setOutput(0, std::move(out));
  return success();
}

/// Transposes the codes of a 2-D weight (and its per-axis axis).
static ImportedValue transposed2D(const ImportedValue &w) {
  ImportedValue t = w;
  int64_t r = w.shape[0], c = w.shape[1];
  t.shape = {c, r};
  std::vector<int64_t> codes(w.codes->size());
  for (int64_t i = 0; i < r; ++i)
    for (int64_t j = 0; j < c; ++j)
      codes[j * r + i] = (*w.codes)[i * c + j];
  t.codes = std::move(codes);
  if (t.q.perAxis())
    t.q.axis = 1 - t.q.axis;
  return t;
}

/// Gemm as the nodes it is defined by: alpha * A' B' + beta * C, with A'
/// and B' transposed as transA / transB say. Used where the fused form (a
/// per-column bias, alpha = beta = 1, A as it is) does not apply: a C of
/// one value per row or element, transA, other alpha or beta.
LogicalResult Importer::importGemmAsMatMul() {
  Expansion e(*this, *node);
  auto operand = [&](int idx, StringRef transposeAttr) {
    std::string name = node->input(idx);
    return attrInt(transposeAttr).value_or(0) == 0 ? name
                                                   : e.transpose(name, {1, 0});
  };
  auto scaled = [&](std::string x, float by) {
    return by == 1.0f ? x : e.op("Mul", {x, e.scalar(by)});
  };
  bool withC = e.has(2);
  float alpha = attrFloat("alpha").value_or(1.0f);
  float beta = attrFloat("beta").value_or(1.0f);
  std::string product =
      e.op("MatMul", {operand(0, "transA"), operand(1, "transB")},
           withC || alpha != 1.0f ? std::string() : node->output(0));
  if (!withC) {
    if (alpha != 1.0f)
      e.op("Mul", {product, e.scalar(alpha)}, node->output(0));
    return importExpansion(*node, e.nodes);
  }
  e.op("Add", {scaled(product, alpha), scaled(node->input(2), beta)},
       node->output(0));
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importGemm() {
  if (failed(checkAttrs({"alpha", "beta", "transA", "transB"})))
    return failure();
  if (node->input_size() < 2)
    return fail("Gemm needs inputs A and B");
  // The fused form takes C broadcast along the rows: [N], [1, N] or one
  // value (the per-column bias). A C of [M, 1] or [M, N], transA, and
  // alpha or beta other than 1 are the MatMul, Mul and Add Gemm stands for.
  bool rowBias = true;
  if (hasInput(2)) {
    auto c = input(2);
    if (failed(c))
      return failure();
    ArrayRef<int64_t> cs = (*c)->shape;
    rowBias = cs.size() < 2 || (cs.size() == 2 && cs[0] == 1);
  }
  if (!rowBias || attrFloat("alpha").value_or(1.0f) != 1.0f ||
      attrFloat("beta").value_or(1.0f) != 1.0f ||
      attrInt("transA").value_or(0) != 0)
    return importGemmAsMatMul();
  auto ain = input(0);
  if (failed(ain))
    return failure();
  auto win = input(1);
  if (failed(win))
    return failure();
  bool floatB =
      (*win)->kind == Kind::Const && !(*win)->f.empty() && !(*win)->codes;
  if (floatB || !isQuantizable(**ain) || !eightBitCodes(**ain) ||
      !eightBitCodes(**win)) {
    // Float A (e.g. torch's GlobalAveragePool -> Flatten -> Gemm) or float
    // weights beside a quantized A (nodes_to_exclude): keep it float, with
    // the weights' real values.
    ImportedValue w = **win;
    if (w.shape.size() != 2 ||
        (!w.codes && (w.kind != Kind::Const || w.f.empty())))
      return fail("non-constant weights: the weight must be a compile-time "
                  "2-D tensor");
    if (attrInt("transB").value_or(0)) {
      if (w.codes) {
        w = transposed2D(w);
      } else {
        std::vector<double> t(w.f.size());
        for (int64_t i = 0; i < w.shape[0]; ++i)
          for (int64_t j = 0; j < w.shape[1]; ++j)
            t[j * w.shape[0] + i] = w.f[i * w.shape[1] + j];
        w.f = std::move(t);
        w.shape = {w.shape[1], w.shape[0]};
      }
    }
    return importFloatContraction(**ain, w, 2);
  }
  auto a = requireQuantized(0, "input A");
  if (failed(a))
    return failure();
  auto w = requireQuantized(1, "weight B");
  if (failed(w) || failed(requireConstWeight(*this, **w)))
    return failure();
  if ((*a)->shape.size() != 2 || (*w)->shape.size() != 2)
    return fail("Gemm needs 2-D operands");
  ImportedValue wt = attrInt("transB").value_or(0) ? transposed2D(**w) : **w;
  if ((*a)->shape[1] != wt.shape[0])
    return fail("inner dimensions differ: " + Twine((*a)->shape[1]) + " vs " +
                Twine(wt.shape[0]));
  PendingInfo p;
  p.op = PendingOp::Contraction;
  p.operands = {**a, wt};
  if (failed(readBias(*this, 2, wt.shape[1], p)))
    return failure();
  SmallVector<int64_t> shape = {(*a)->shape[0], wt.shape[1]};
  setOutput(0, makePending(std::move(p), shape));
  return success();
}

LogicalResult Importer::importMatMul() {
  auto ain = input(0);
  auto win = failed(ain) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(ain) || failed(win))
    return failure();
  // B computed at run time (attention's Q K^T and P V): f32, as ONNX's
  // QDQ graph defines it; there are no weights to pack.
  bool constantB =
      (*win)->codes || ((*win)->kind == Kind::Const && !(*win)->f.empty());
  if (!constantB)
    return importFloatBatchMatmul(**ain, **win);
  // A float constant B beside a quantized A (a layer left out of
  // quantization, ONNX Runtime's nodes_to_exclude) runs in f32 too.
  bool floatB = !(*win)->codes;
  if (floatB || !isQuantizable(**ain) || !eightBitCodes(**ain) ||
      !eightBitCodes(**win)) {
    // A float A: the 2-D contraction of a float island (its bias fuses), or
    // any other shape as a batched f32 matmul.
    if ((*win)->shape.size() == 2 && (*ain)->shape.size() == 2)
      return importFloatContraction(**ain, **win, ~0u);
    return importFloatBatchMatmul(**ain, **win);
  }
  auto a = requireQuantized(0, "input A");
  if (failed(a))
    return failure();
  auto w = requireQuantized(1, "weight B");
  if (failed(w) || failed(requireConstWeight(*this, **w)))
    return failure();
  PendingInfo p;
  p.op = PendingOp::Contraction;
  if (failed(matmulOperands(*this, **a, **w, p)))
    return failure();
  SmallVector<int64_t> shape = {p.operands[0].shape[0], (*w)->shape[1]};
  if (!p.resultShape.empty())
    shape.assign(p.resultShape.begin(), p.resultShape.end());
  setOutput(0, makePending(std::move(p), shape));
  return success();
}

/// Reads a QOperator activation operand (codes) with the parameters at
/// `scaleIdx` / `zpIdx`, relabelling raw integers.
static FailureOr<ImportedValue>
qoperatorInput(Importer &im, unsigned idx, unsigned scaleIdx, unsigned zpIdx) {
  auto in = im.input(idx);
  if (failed(in))
    return failure();
  ImportedValue v = **in;
  auto q = im.readQParams(scaleIdx, zpIdx, v.shape.size());
  if (failed(q))
    return failure();
  // ONNX constrains the codes and their zero point to one type; reading
  // int8 codes on a uint8 grid (or back) would reinterpret their bytes.
  // Raw codes say their type by dtype (checked against a zero point that is
  // there), quantized values by their parameters.
  std::optional<std::pair<unsigned, bool>> codeType;
  bool rawCodes = v.kind == Kind::Int || (v.kind == Kind::Const && v.f.empty());
  if (v.isQuantized())
    codeType = {v.q.width, v.q.isSigned};
  else if (rawCodes && im.hasInput(zpIdx) &&
           (v.dtype == onnx::TensorProto::INT8 ||
            v.dtype == onnx::TensorProto::UINT8))
    codeType = {8u, v.dtype == onnx::TensorProto::INT8};
  if (codeType && *codeType != std::make_pair(q->width, q->isSigned))
    return im.fail("input " + Twine(idx) +
                   " has another element type than its zero point");
  if (v.kind == Kind::Const && v.f.empty()) {
    v.codes = v.i;
    v.i.clear();
  } else if (v.kind == Kind::Int) {
    v.value = quant::StorageCastOp::create(
        im.b, im.loc,
        RankedTensorType::get(im.physicalShape(v), im.quantElementType(*q, -1)),
        v.value);
  } else if (v.isQuantized()) {
    if (v.q != *q && !v.codes) {
      auto val = im.quantValue(v, v.nhwc);
      if (failed(val))
        return failure();
      auto raw = quant::StorageCastOp::create(
          im.b, im.loc,
          RankedTensorType::get(im.physicalShape(v), im.storageIntType(v.q)),
          *val);
      ImportedValue tmp = v;
      tmp.q = *q;
      v.value = quant::StorageCastOp::create(im.b, im.loc,
                                             im.quantTensorType(tmp), raw);
    }
  } else {
    return im.fail("input " + Twine(idx) + " must be an integer tensor");
  }
  v.kind = Kind::Quant;
  v.q = *q;
  return v;
}

LogicalResult Importer::importQLinearConv() {
  auto x = qoperatorInput(*this, 0, 1, 2);
  auto w = failed(x) ? FailureOr<ImportedValue>(failure())
                     : qoperatorInput(*this, 3, 4, 5);
  if (failed(x) || failed(w))
    return failure();
  if (w->q.perAxis()) {
    w->q.axis = 0; // QLinearConv's w_scale runs along output channels.
    if (int64_t(w->q.scales.size()) != w->shape[0])
      return fail("per-axis w_scale has " + Twine(w->q.scales.size()) +
                  " elements, the weight has " + Twine(w->shape[0]) +
                  " output channels");
  }
  if (failed(requireConstWeight(*this, *w)))
    return failure();
  PendingInfo p;
  p.op = PendingOp::Contraction;
  if (failed(readConvWindow(p, *x, *w)))
    return failure();
  p.operands = {*x, *w};
  if (failed(readBias(*this, 8, w->shape[0], p)))
    return failure();
  auto out = readQParams(6, 7, 4);
  if (failed(out))
    return failure();
  if (out->perAxis())
    return fail("per-axis y_scale is not supported");
  auto y = emitContraction(p, &*out);
  if (failed(y))
    return failure();
  setOutput(0, std::move(*y));
  return success();
}

LogicalResult Importer::importQLinearMatMul() {
  auto a = qoperatorInput(*this, 0, 1, 2);
  auto w = failed(a) ? FailureOr<ImportedValue>(failure())
                     : qoperatorInput(*this, 3, 4, 5);
  if (failed(a) || failed(w) || failed(requireConstWeight(*this, *w)))
    return failure();
  if (w->q.perAxis() && w->shape.size() == 2 &&
      int64_t(w->q.scales.size()) != w->shape[1])
    return fail("per-axis b_scale has " + Twine(w->q.scales.size()) +
                " elements, B has " + Twine(w->shape[1]) + " columns");
  PendingInfo p;
  p.op = PendingOp::Contraction;
  if (failed(matmulOperands(*this, *a, *w, p)))
    return failure();
  auto out = readQParams(6, 7, 2);
  if (failed(out))
    return failure();
  if (out->perAxis())
    return fail("per-axis y_scale is not supported");
  auto y = emitContraction(p, &*out);
  if (failed(y))
    return failure();
  setOutput(0, std::move(*y));
  return success();
}

LogicalResult Importer::importIntegerContraction(bool isConv) {
  // Integer ops carry no scales: codes with scale 1 give the raw sums.
  auto in0 = input(0);
  auto in1 = failed(in0) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(in0) || failed(in1))
    return failure();
  ImportedValue *runtimeZeroPoint = nullptr;
  auto params = [&](ImportedValue &v, unsigned zpIdx,
                    bool perChannel) -> FailureOr<QParams> {
    QParams q;
    q.width = 8;
    int32_t dtype = v.dtype;
    if (v.isQuantized()) {
      q.isSigned = v.q.isSigned;
    } else if (dtype == onnx::TensorProto::INT8 ||
               dtype == onnx::TensorProto::UINT8) {
      q.isSigned = dtype == onnx::TensorProto::INT8;
    } else {
      return fail("operands must be int8 or uint8");
    }
    if (hasInput(zpIdx)) {
      auto z = input(zpIdx);
      if (failed(z))
        return failure();
      if ((*z)->kind == Kind::Int && zpIdx == 2 && !isConv) {
        // A run-time zero point of A (ONNX Runtime's dynamic quantization:
        // DynamicQuantizeLinear's zero point): the contraction runs with
        // zero point 0 and subtracts zx * sum_k (w - zw) afterwards.
        if ((*z)->numElements() != 1)
          return fail("a run-time zero point of A must be a scalar (per "
                      "tensor)");
        if ((*z)->dtype != dtype && !v.isQuantized())
          return fail("the zero point's element type does not match A's");
        runtimeZeroPoint = *z;
        q.zeroPoints = {0};
      } else if ((*z)->kind != Kind::Const || !(*z)->f.empty()) {
        return fail(zpIdx == 2 && isConv
                        ? "ConvInteger with a run-time zero point is not "
                          "supported (padding reads the zero point)"
                        : "zero points must be compile-time integers (a "
                          "run-time one is supported for A of MatMulInteger "
                          "only)");
      } else {
        q.zeroPoints = (*z)->i;
      }
    } else {
      q.zeroPoints = {0};
    }
    if (q.zeroPoints.size() > 1 && !perChannel)
      return fail("per-row zero points of A are not supported");
    if (q.zeroPoints.size() > 1) {
      // One per output channel: ConvInteger's w is [M, C, kH, kW],
      // MatMulInteger's B is [..., K, N].
      int64_t channels = 1;
      if (isConv && !v.shape.empty())
        channels = v.shape[0];
      else if (!isConv && v.shape.size() >= 2)
        channels = v.shape.back();
      if (int64_t(q.zeroPoints.size()) != channels)
        return fail("the zero point of " + Twine(isConv ? "w" : "B") +
                    " has " + Twine(q.zeroPoints.size()) +
                    " elements; it must have one, or one per output channel (" +
                    Twine(channels) + ")");
    }
    q.scales.assign(q.zeroPoints.size(), 1.0);
    for (int64_t z : q.zeroPoints)
      if (z < q.qmin() || z > q.qmax())
        return fail("zero point " + Twine(z) + " is outside the range");
    if (q.zeroPoints.size() > 1)
      q.axis = isConv ? 0 : 1;
    return q;
  };
  auto qa = params(**in0, 2, false);
  auto qb = failed(qa) ? FailureOr<QParams>(failure()) : params(**in1, 3, true);
  if (failed(qa) || failed(qb))
    return failure();
  ImportedValue a = **in0, w = **in1;
  if (a.kind == Kind::Int) {
    a.value = quant::StorageCastOp::create(
        b, loc,
        RankedTensorType::get(physicalShape(a), quantElementType(*qa, -1)),
        a.value);
  } else if (a.kind == Kind::Const && a.f.empty()) {
    a.codes = a.i;
  } else if (!a.isQuantized()) {
    return fail("input A must be an integer tensor");
  }
  a.kind = Kind::Quant;
  a.q = *qa;
  if (w.kind == Kind::Const && w.f.empty())
    w.codes = w.i;
  w.kind = Kind::Quant;
  w.q = *qb;
  if (failed(requireConstWeight(*this, w)))
    return failure();
  PendingInfo p;
  p.op = PendingOp::Contraction;
  if (isConv) {
    if (failed(readConvWindow(p, a, w)))
      return failure();
    p.operands = {a, w};
  } else if (failed(matmulOperands(*this, a, w, p))) {
    return failure();
  }
  // A matmul's rows are viewed back after the zero-point correction (a
  // conv's view back is emitContraction's).
  std::vector<int64_t> resultShape;
  if (!isConv)
    std::swap(resultShape, p.resultShape);
  auto y = emitContraction(p, nullptr);
  if (failed(y))
    return failure();
  if (runtimeZeroPoint)
    y->value = subtractRuntimeZeroPoint(*this, y->value, *runtimeZeroPoint,
                                        *w.codes, qb->zeroPoints,
                                        qa->isSigned);
  if (!resultShape.empty()) {
    y->shape.assign(resultShape.begin(), resultShape.end());
    y->value = reshape(y->value, y->shape);
  }
  setOutput(0, std::move(*y));
  return success();
}
