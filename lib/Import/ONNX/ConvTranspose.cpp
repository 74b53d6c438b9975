//===- ConvTranspose.cpp - ConvTranspose as a stride-1 Conv ---------------===//
//
// ONNX's ConvTranspose (torch's ConvTranspose2d: decoders, U-Nets, GAN
// generators) is a Conv with stride 1 on the input with `stride - 1` zeros
// between its rows and columns, padded by `dilation * (kernel - 1)` less
// the ConvTranspose's own padding (cropped where that is negative; the end
// gains `output_padding`), with the kernel flipped and its two channel
// dimensions swapped group by group. Inserted zeros are real zeros: the
// zero point's code for quantized input, so the qnt.conv2d's exact integer
// sum is the ConvTranspose's, and everything after it (bias, requantize,
// fused clamp, float islands) is the Conv path's.
//
// The stuffed input holds stride_h * stride_w times the input's pixels, and
// the conv spends that much more work on zeros. A quantized ConvTranspose
// with one group and no dilation therefore takes the sub-pixel form
// instead (importSubPixelConvTranspose): one stride-1 conv of the input
// computing every output phase's taps as its own channels, spread over
// blocks and cropped; a kernel as large as the stride without padding (a
// U-Net's upsampling) is its simplest case, a 1 x 1 conv and no crop.
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <algorithm>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
/// The stride-1 Conv a ConvTranspose is, along H and W.
struct EquivalentConv {
  int64_t strides[2];
  /// Where input row / column 0 lands in the conv's input (negative: before
  /// it, cropped).
  int64_t offset[2];
  /// The conv's input size (stuffed, padded, cropped).
  int64_t size[2];
  /// The first input row / column that lands inside, and how many do.
  int64_t first[2], count[2];
};
} // namespace

/// The weight's quantization parameters for the equivalent conv's
/// `channels` output channels: per-axis ones (ONNX's axis 1, the output
/// channels of one group) repeated along them, on the conv weight's axis 0.
static FailureOr<QParams>
outputChannelParams(Importer &im, const ImportedValue &w, int64_t channels) {
  if (!w.q.perAxis())
    return w.q;
  if (w.q.axis != 1)
    return im.fail("per-axis weight scales of a ConvTranspose must run "
                   "along its output channels (axis 1)");
  QParams q = repeatChannels(w.q, channels);
  q.axis = 0;
  return q;
}

/// Sizes, strides, dilations and paddings are kept at most 2^20 so that
/// the sizes below cannot overflow.
static constexpr int64_t kLimit = int64_t(1) << 20;

/// A ConvTranspose's window over `n` spatial axes, as its attributes give
/// it (pads: the n beginnings, then the n ends).
struct TransposedWindow {
  int64_t groups;
  std::vector<int64_t> strides, dilations, outputPadding, pads;
};

/// Reads and checks the current ConvTranspose's attributes for input `x`
/// and weight `w` with `n` spatial axes.
static FailureOr<TransposedWindow> readTransposedWindow(Importer &im,
                                                        const ImportedValue &x,
                                                        const ImportedValue &w,
                                                        size_t n) {
  TransposedWindow t;
  t.groups = im.attrInt("group").value_or(1);
  if (t.groups <= 0 || x.shape[1] != w.shape[0] || w.shape[0] % t.groups != 0)
    return im.fail("input channels " + Twine(x.shape[1]) + ", weight " +
                   Twine(w.shape[0]) + "x" + Twine(w.shape[1]) + " and group " +
                   Twine(t.groups) + " do not fit together");
  t.strides = im.attrInts("strides").value_or(std::vector<int64_t>(n, 1));
  t.dilations = im.attrInts("dilations").value_or(std::vector<int64_t>(n, 1));
  t.outputPadding =
      im.attrInts("output_padding").value_or(std::vector<int64_t>(n, 0));
  t.pads = im.attrInts("pads").value_or(std::vector<int64_t>(2 * n, 0));
  if (t.strides.size() != n || t.dilations.size() != n ||
      t.outputPadding.size() != n || t.pads.size() != 2 * n)
    return im.fail("strides, dilations and output_padding need " + Twine(n) +
                   " value" + (n == 1 ? "" : "s") + ", pads " + Twine(2 * n));
  if (auto k = im.attrInts("kernel_shape"))
    if (*k != std::vector<int64_t>(w.shape.begin() + 2, w.shape.end()))
      return im.fail("kernel_shape does not match the weight's shape");
  for (auto *list : {&t.strides, &t.dilations})
    for (int64_t v : *list)
      if (v <= 0 || v > kLimit)
        return im.fail("strides and dilations must be in [1, 2^20]");
  for (auto *list : {&t.outputPadding, &t.pads})
    for (int64_t v : *list)
      if (v < 0 || v > kLimit)
        return im.fail("pads and output_padding must be in [0, 2^20]");
  // ONNX Runtime and the ONNX reference have disagreed on how auto_pad and
  // output_shape split the padding; explicit pads (what torch writes) have
  // one meaning.
  if (im.attrInts("output_shape"))
    return im.fail("output_shape is not supported; give pads and "
                   "output_padding instead");
  std::string autoPad = im.attrString("auto_pad").value_or("NOTSET");
  if (autoPad == "VALID")
    t.pads.assign(2 * n, 0);
  else if (autoPad != "NOTSET")
    return im.fail("auto_pad '" + autoPad +
                   "' is not supported; give pads explicitly");
  return t;
}

/// The operands as the conv on the stuffed input reads them, in `x` and
/// `w`: quantized (a pending Relu / Clip settled) or float. Returns whether
/// they are quantized.
static FailureOr<bool> transposedOperands(Importer &im, ImportedValue &x,
                                          ImportedValue &w) {
  bool floatWeights = w.kind == Kind::Const && !w.f.empty();
  // 16-bit activations or weights (ONNX Runtime's A16W8 models) run in f32
  // on the dequantized values, as Conv's do: qnt.conv2d takes 8-bit codes.
  auto wide = [](const ImportedValue &v) {
    return v.isQuantized() && v.q.width != 8;
  };
  if (floatWeights || !im.isQuantizable(**im.input(0)) || wide(x) || wide(w)) {
    if (x.holdsIntegers())
      return im.fail("ConvTranspose of an integer tensor");
    return false;
  }
  auto qx = im.requireQuantized(0, "input X");
  auto qw = failed(qx) ? FailureOr<ImportedValue *>(failure())
                       : im.requireQuantized(1, "weight W");
  if (failed(qw))
    return failure();
  x = **qx;
  w = **qw;
  return true;
}

/// One spatial axis of the stride-1 conv a ConvTranspose is: input index i
/// lands at `offset + i * stride` of the stuffed input of `size` (the
/// output's `out` plus the dilated kernel's span), whose indices `first` to
/// `first + count - 1` land inside it.
struct StuffedAxis {
  int64_t offset, size, first, count, out;
};

/// The axis of input size `in` and kernel size `k`, or a failure naming the
/// rule (sizes at most 2^20 so that nothing overflows; a non-empty output).
static FailureOr<StuffedAxis> stuffedAxis(Importer &im, int64_t in, int64_t k,
                                          int64_t stride, int64_t dilation,
                                          int64_t padBegin, int64_t padEnd,
                                          int64_t outputPadding) {
  if (in > kLimit || k > kLimit)
    return im.fail("input and kernel sizes must be at most 2^20");
  if (k <= 0)
    return im.fail("the kernel's spatial dimensions must be positive");
  int64_t span = (k - 1) * dilation;
  StuffedAxis a;
  // ONNX: s * (in - 1) + output_padding + span + 1 - pads_begin - pads_end.
  a.out = stride * (in - 1) + outputPadding + span + 1 - padBegin - padEnd;
  if (a.out <= 0)
    return im.fail("the output would be empty: the padding exceeds the "
                   "ConvTranspose's output");
  a.offset = span - padBegin;
  a.size = a.out + span;
  // Input rows landing at offset + i * s in [0, size).
  int64_t first = a.offset >= 0 ? 0 : (-a.offset + stride - 1) / stride;
  int64_t lastPos = a.size - 1 - a.offset;
  int64_t last = lastPos < 0 ? -1 : std::min(in - 1, lastPos / stride);
  a.first = std::min(first, in);
  a.count = std::max<int64_t>(0, last - a.first + 1);
  return a;
}

/// The ConvTranspose's weight (C x M/group x k...) as the equivalent Conv's
/// (M x C/group x k...): flipped along every spatial axis (the taps'
/// row-major order reversed), the channel dimensions swapped within each
/// group. Float constants or codes; per-axis scales (ONNX's axis 1, the
/// output channels of one group) become one per output channel.
static FailureOr<ImportedValue> convWeight(Importer &im, const ImportedValue &w,
                                           int64_t groups) {
  int64_t c = w.shape[0], mg = w.shape[1];
  int64_t cg = c / groups, m = mg * groups, taps = 1;
  for (int64_t k : ArrayRef<int64_t>(w.shape).drop_front(2))
    taps *= k;
  auto permute = [&](const auto &from) {
    std::decay_t<decltype(from)> to(from.size());
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t mi = 0; mi < mg; ++mi)
          for (int64_t t = 0; t < taps; ++t)
            to[((g * mg + mi) * cg + ci) * taps + t] =
                from[((g * cg + ci) * mg + mi) * taps + (taps - 1 - t)];
    return to;
  };
  ImportedValue out = w;
  out.shape[0] = m;
  out.shape[1] = cg;
  if (w.kind == Kind::Const && !w.f.empty()) {
    out.f = permute(w.f);
    return out;
  }
  if (!w.codes)
    return im.fail("non-constant weights: the weight must be a compile-time "
                   "tensor (initializer through QuantizeLinear / "
                   "DequantizeLinear)");
  out.codes = permute(*w.codes);
  auto q = outputChannelParams(im, w, m);
  if (failed(q))
    return failure();
  out.q = *q;
  return out;
}

/// The NHWC tensor `src` (N x H x W x C) placed into a new tensor of the
/// conv's input size filled with `fill`: input row i at `offset + i *
/// stride`, rows that land outside left out.
static Value stuff(Importer &im, Value src, const EquivalentConv &e,
                   Value fill) {
  OpBuilder &b = im.b;
  Location loc = im.loc;
  auto type = cast<RankedTensorType>(src.getType());
  int64_t n = type.getDimSize(0), c = type.getDimSize(3);
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{n, e.size[0], e.size[1], c},
      type.getElementType());
  Value dest = linalg::FillOp::create(b, loc, fill, init).getResult(0);
  if (e.count[0] == 0 || e.count[1] == 0)
    return dest;
  auto idx = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  SmallVector<OpFoldResult> sizes = {idx(n), idx(e.count[0]), idx(e.count[1]),
                                     idx(c)};
  if (e.count[0] != type.getDimSize(1) || e.count[1] != type.getDimSize(2))
    src = tensor::ExtractSliceOp::create(
        b, loc, src, {idx(0), idx(e.first[0]), idx(e.first[1]), idx(0)}, sizes,
        {idx(1), idx(1), idx(1), idx(1)});
  return tensor::InsertSliceOp::create(
      b, loc, src, dest,
      {idx(0), idx(e.offset[0] + e.first[0] * e.strides[0]),
       idx(e.offset[1] + e.first[1] * e.strides[1]), idx(0)},
      sizes, {idx(1), idx(e.strides[0]), idx(e.strides[1]), idx(1)});
}

/// The sub-pixel form of a quantized ConvTranspose with one group and no
/// dilation: output row s * q + a takes the kernel taps a, a + s, a + 2 s,
/// ... of the input rows q, q - 1, q - 2, ... So one stride-1 conv of the
/// input (padded by K' - 1, K' = ceil(K / s)) with s_h * s_w * M output
/// channels, channel (a, b, m) holding w[:, m, a + s_h j, b + s_w i]
/// flipped (taps past the kernel: the weight's zero point, i.e. real zero),
/// spread over s_h x s_w blocks (PendingInfo::blocks) and cropped to the
/// ConvTranspose's padding: the same exact sums as the stuffed conv without
/// multiplying the zeros between the pixels. Returns false (nothing
/// emitted) where it does not apply.
static FailureOr<bool> importSubPixelConvTranspose(
    Importer &im, const ImportedValue &x, const ImportedValue &w,
    int64_t groups, ArrayRef<int64_t> strides, ArrayRef<int64_t> dilations,
    ArrayRef<int64_t> pads, ArrayRef<int64_t> outputPadding, PendingInfo p) {
  if (groups != 1 || llvm::any_of(dilations, [](int64_t d) { return d != 1; }))
    return false;
  int64_t c = w.shape[0], m = w.shape[1];
  int64_t k[2] = {w.shape[2], w.shape[3]}, sub[2], out[2];
  for (int d = 0; d < 2; ++d) {
    int64_t in = x.shape[2 + d];
    sub[d] = (k[d] + strides[d] - 1) / strides[d];
    out[d] =
        strides[d] * (in - 1) + outputPadding[d] + k[d] - pads[d] - pads[d + 2];
    // The spread conv covers rows [0, s * (in + K' - 1)); output_padding
    // beyond it (which ONNX allows up to the stride) would need more.
    if (pads[d] + out[d] > strides[d] * (in + sub[d] - 1))
      return false;
  }
  int64_t sh = strides[0], sw = strides[1];
  int64_t f = sh * sw * m;
  // A stride much larger than the kernel makes the phase table (s_h * s_w
  // * M * C * K'^2 codes, mostly zero points) far larger than the weights:
  // the stuffed form is smaller there (a 1 x 1 kernel at stride 2^20 would
  // need a 2^40-entry table).
  double table = double(f) * double(c) * double(sub[0]) * double(sub[1]);
  if (table > 4.0 * double(m) * double(c) * double(k[0]) * double(k[1]) ||
      table > double(int64_t(1) << 24))
    return false;
  auto q = outputChannelParams(im, w, f);
  if (failed(q))
    return failure();
  ImportedValue cw = w;
  cw.q = *q;
  cw.shape = {f, c, sub[0], sub[1]};
  std::vector<int64_t> codes(f * c * sub[0] * sub[1]);
  for (int64_t a = 0; a < sh; ++a)
    for (int64_t bb = 0; bb < sw; ++bb)
      for (int64_t mi = 0; mi < m; ++mi) {
        int64_t channel = (a * sw + bb) * m + mi;
        // Real zero: the weight's zero point for this output channel.
        int64_t zero = w.q.zeroPoints[w.q.perAxis() ? mi : 0];
        for (int64_t ci = 0; ci < c; ++ci)
          for (int64_t ty = 0; ty < sub[0]; ++ty)
            for (int64_t tx = 0; tx < sub[1]; ++tx) {
              int64_t ky = a + sh * (sub[0] - 1 - ty);
              int64_t kx = bb + sw * (sub[1] - 1 - tx);
              codes[((channel * c + ci) * sub[0] + ty) * sub[1] + tx] =
                  ky < k[0] && kx < k[1]
                      ? (*w.codes)[((ci * m + mi) * k[0] + ky) * k[1] + kx]
                      : zero;
            }
      }
  cw.codes = std::move(codes);
  p.strides = {1, 1};
  p.dilations = {1, 1};
  p.padding = {sub[0] - 1, sub[0] - 1, sub[1] - 1, sub[1] - 1};
  p.blocks[0] = sh;
  p.blocks[1] = sw;
  // A kernel as large as the stride without padding (U-Net upsampling) is
  // a 1 x 1 conv whose blocks tile the output exactly: no crop.
  if (pads[0] || pads[1] || out[0] != sh * (x.shape[2] + sub[0] - 1) ||
      out[1] != sw * (x.shape[3] + sub[1] - 1)) {
    p.crop[0] = pads[0];
    p.crop[1] = pads[1];
    p.crop[2] = out[0];
    p.crop[3] = out[1];
  }
  if (!p.resultShape.empty()) // 1-D: N x M x L
    p.resultShape = {x.shape[0], m, out[1]};
  if (failed(im.setPendingConv(x, cw, std::move(p))))
    return failure();
  return true;
}

LogicalResult Importer::importConvTranspose() {
  if (failed(checkAttrs({"auto_pad", "dilations", "group", "kernel_shape",
                         "output_padding", "output_shape", "pads", "strides"})))
    return failure();
  auto xin = input(0);
  auto win = failed(xin) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(xin) || failed(win))
    return failure();
  const ImportedValue &x = **xin, &w = **win;
  if (x.shape.size() == 5)
    return importConvTranspose3D();
  // A 1-D ConvTranspose (N x C x L) is the 2-D one of height 1.
  bool oneD = x.shape.size() == 3 && w.shape.size() == 3;
  if (!oneD && (x.shape.size() != 4 || w.shape.size() != 4))
    return fail("only 1-D and 2-D ConvTranspose (input and weight of rank 3 "
                "or 4) are supported");
  auto window = readTransposedWindow(*this, x, w, oneD ? 1 : 2);
  if (failed(window))
    return failure();
  int64_t groups = window->groups;
  std::vector<int64_t> strides = window->strides, dilations = window->dilations,
                       outputPadding = window->outputPadding,
                       pads = window->pads;
  if (oneD) {
    strides.insert(strides.begin(), 1);
    dilations.insert(dilations.begin(), 1);
    outputPadding.insert(outputPadding.begin(), 0);
    pads = {0, pads[0], 0, pads[1]};
  }

  // The operands as the conv will read them; rank 4.
  ImportedValue x4 = x, w4 = w;
  auto quantized = transposedOperands(*this, x4, w4);
  if (failed(quantized))
    return failure();
  if (oneD && failed(liftToUnitHeight(*this, x4, w4)))
    return failure();

  EquivalentConv e;
  for (int d = 0; d < 2; ++d) {
    auto axis =
        stuffedAxis(*this, x4.shape[2 + d], w4.shape[2 + d], strides[d],
                    dilations[d], pads[d], pads[d + 2], outputPadding[d]);
    if (failed(axis))
      return failure();
    e.strides[d] = strides[d];
    e.offset[d] = axis->offset;
    e.size[d] = axis->size;
    e.first[d] = axis->first;
    e.count[d] = axis->count;
  }
  if (double(x4.shape[0]) * double(e.size[0]) * double(e.size[1]) *
          double(x4.shape[1]) >
      double(int64_t(1) << 31))
    return fail("the stuffed input would have more than 2^31 elements");

  // The stride-1 conv on the stuffed input.
  PendingInfo p;
  p.isConv = true;
  p.groups = groups;
  p.strides = {1, 1};
  p.dilations = dilations;
  p.padding = {0, 0, 0, 0};
  if (oneD) // the result's view back to N x M x L
    p.resultShape = {x4.shape[0], w4.shape[1] * groups,
                     e.size[1] - (w4.shape[3] - 1) * dilations[1]};

  if (!*quantized) {
    auto cw = convWeight(*this, w4, groups);
    auto f = failed(cw) ? FailureOr<Value>(failure())
                        : floatValue(x4, /*nhwc=*/true);
    if (failed(f))
      return failure();
    ImportedValue stuffed;
    stuffed.kind = Kind::Float;
    stuffed.shape = {x4.shape[0], x4.shape[1], e.size[0], e.size[1]};
    stuffed.nhwc = true;
    stuffed.value = stuff(
        *this, *f, e, arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0)));
    return importFloatConv(stuffed, *cw, p, /*biasIdx=*/2);
  }
  if (failed(requireConstWeight(*this, w4)))
    return failure();
  if (x4.q.perAxis())
    return fail("per-axis quantized activations are not supported as a "
                "contraction input");
  auto subPixel = importSubPixelConvTranspose(
      *this, x4, w4, groups, strides, dilations, pads, outputPadding, p);
  if (failed(subPixel) || *subPixel)
    return failure(failed(subPixel));
  auto cw = convWeight(*this, w4, groups);
  if (failed(cw))
    return failure();
  auto codes = quantValue(x4, /*nhwc=*/true);
  if (failed(codes))
    return failure();
  Type storage = storageIntType(x4.q);
  auto codesType = cast<RankedTensorType>(codes->getType());
  Value ints = quant::StorageCastOp::create(
      b, loc, RankedTensorType::get(codesType.getShape(), storage), *codes);
  // Real zero is the zero point's code.
  Value zero = storageCode(x4.q, x4.q.zeroPoints[0]);
  ImportedValue stuffed = x4;
  stuffed.codes.reset();
  stuffed.flattenedFromNhwc.clear();
  stuffed.shape = {x4.shape[0], x4.shape[1], e.size[0], e.size[1]};
  stuffed.nhwc = true;
  stuffed.value = quant::StorageCastOp::create(b, loc, quantTensorType(stuffed),
                                               stuff(*this, ints, e, zero));
  return setPendingConv(stuffed, *cw, std::move(p));
}

LogicalResult Importer::importConvTranspose3D() {
  ImportedValue x = **input(0), w = **input(1);
  if (w.shape.size() != 5)
    return fail("a 3-D ConvTranspose needs an input and a weight of rank 5, "
                "got 5 and " +
                Twine(w.shape.size()));
  if (llvm::any_of(w.shape, [](int64_t d) { return d <= 0; }))
    return fail("the weight's dimensions must be positive, got " +
                joinedDims(w.shape));
  if (llvm::any_of(x.shape, [](int64_t d) { return d <= 0; }))
    return fail("the input's dimensions must be positive, got " +
                joinedDims(x.shape));
  auto window3 = readTransposedWindow(*this, x, w, 3);
  if (failed(window3))
    return failure();
  int64_t groups = window3->groups;
  const std::vector<int64_t> &strides = window3->strides,
                             &dilations = window3->dilations,
                             &outputPadding = window3->outputPadding,
                             &pads = window3->pads;
  auto isQuantized = transposedOperands(*this, x, w);
  if (failed(isQuantized))
    return failure();
  bool quantized = *isQuantized;
  if (quantized && x.q.perAxis())
    return fail("per-axis quantized activations are not supported as a "
                "contraction input");

  // Per axis, as EquivalentConv: input index i lands at offset + i stride
  // of the stuffed input, whose stride-1 conv is the ConvTranspose.
  ConvWindow3D window;
  window.groups = groups;
  int64_t offset[3], size[3], first[3], count[3];
  double elements = double(x.shape[0]) * double(x.shape[1]);
  for (int d = 0; d < 3; ++d) {
    auto axis =
        stuffedAxis(*this, x.shape[2 + d], w.shape[2 + d], strides[d],
                    dilations[d], pads[d], pads[d + 3], outputPadding[d]);
    if (failed(axis))
      return failure();
    offset[d] = axis->offset;
    size[d] = axis->size;
    first[d] = axis->first;
    count[d] = axis->count;
    elements *= double(size[d]);
    window.kernel[d] = w.shape[2 + d];
    window.strides[d] = 1;
    window.dilations[d] = dilations[d];
    window.padBegin[d] = window.padEnd[d] = 0;
    window.out[d] = axis->out;
  }
  if (elements > double(int64_t(1) << 31))
    return fail("the stuffed input would have more than 2^31 elements");
  auto cw = convWeight(*this, w, groups);
  if (failed(cw))
    return failure();

  // The stuffed input, N x C x D' x H' x W': real zero (the zero point's
  // code, or 0.0) with the input's elements `stride` apart.
  FailureOr<Value> src =
      quantized ? quantValue(x, /*nhwc=*/false) : floatValue(x, /*nhwc=*/false);
  if (failed(src))
    return failure();
  Value values = *src, fill;
  if (quantized) {
    auto type = cast<RankedTensorType>(values.getType());
    values = quant::StorageCastOp::create(
        b, loc, RankedTensorType::get(type.getShape(), storageIntType(x.q)),
        values);
    fill = storageCode(x.q, x.q.zeroPoints[0]);
  } else {
    fill = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  }
  int64_t n = x.shape[0], c = x.shape[1];
  Type elem = cast<RankedTensorType>(values.getType()).getElementType();
  Value stuffed =
      linalg::FillOp::create(
          b, loc, fill,
          tensor::EmptyOp::create(
              b, loc, ArrayRef<int64_t>{n, c, size[0], size[1], size[2]}, elem)
              .getResult())
          .getResult(0);
  if (count[0] && count[1] && count[2]) {
    auto idx = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
    SmallVector<OpFoldResult> sizes = {idx(n), idx(c), idx(count[0]),
                                       idx(count[1]), idx(count[2])};
    SmallVector<OpFoldResult> one(5, idx(1));
    if (count[0] != x.shape[2] || count[1] != x.shape[3] ||
        count[2] != x.shape[4])
      values = tensor::ExtractSliceOp::create(
          b, loc, values,
          {idx(0), idx(0), idx(first[0]), idx(first[1]), idx(first[2])}, sizes,
          one);
    stuffed = tensor::InsertSliceOp::create(
        b, loc, values, stuffed,
        {idx(0), idx(0), idx(offset[0] + first[0] * strides[0]),
         idx(offset[1] + first[1] * strides[1]),
         idx(offset[2] + first[2] * strides[2])},
        sizes,
        {idx(1), idx(1), idx(strides[0]), idx(strides[1]), idx(strides[2])});
  }
  ImportedValue xs;
  xs.shape = {n, c, size[0], size[1], size[2]};
  xs.nhwc = false;
  if (quantized) {
    xs.kind = Kind::Dequant;
    xs.q = x.q;
    xs.dtype = x.dtype;
    xs.value =
        quant::StorageCastOp::create(b, loc, quantTensorType(xs), stuffed);
  } else {
    xs.kind = Kind::Float;
    xs.value = stuffed;
  }
  ImportedValue cw3 = *cw;
  PendingInfo p;
  if (failed(liftConv3D(p, xs, cw3, window)))
    return failure();
  if (!quantized)
    return importFloatConv(xs, cw3, p, /*biasIdx=*/2);
  return setPendingConv(xs, cw3, std::move(p));
}
