//===- Conv3D.cpp - Conv over N x C x D x H x W as one 2-D conv -----------===//
//
// A 3-D convolution is the 2-D convolution of the depth-stacked input: for
// output depth d, the kD input slices d s_D + k d_D (k < kD, after padding D
// with the input's zero) side by side as channels, against the weight with
// its kD taps moved into the channels:
//
//   x2[(n Do + d), h, w, (g, k, c)] = x[n, (g, c), d s_D + k d_D - p_D, h, w]
//   w2[f, (k, c), kh, kw]           = w[f, c, k, kh, kw]
//
// so one qnt.conv2d (or float conv) sums the whole 3-D window in i32, and
// the requantization is the same single rounding as for 2-D. The result,
// (N Do) x Ho x Wo x F, is viewed back as N x F x Do x Ho x Wo (viewAs). The
// stacked input, one linalg.generic copy, holds kD / s_D times the input.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// Reads and checks the attributes of a Conv on rank-5 x and w.
static FailureOr<ConvWindow3D>
readWindow3D(Importer &im, const ImportedValue &x, const ImportedValue &w) {
  if (failed(im.checkAttrs({"auto_pad", "dilations", "group", "kernel_shape",
                            "pads", "strides"})))
    return failure();
  if (x.shape.size() != 5 || w.shape.size() != 5)
    return im.fail("a 3-D convolution needs an input and a weight of rank 5, "
                   "got " +
                   Twine(x.shape.size()) + " and " + Twine(w.shape.size()));
  if (llvm::any_of(w.shape, [](int64_t d) { return d <= 0; }))
    return im.fail("the weight's dimensions must be positive, got " +
                   joinedDims(w.shape));
  if (llvm::any_of(x.shape, [](int64_t d) { return d <= 0; }))
    return im.fail("the input's dimensions must be positive, got " +
                   joinedDims(x.shape));
  ConvWindow3D win;
  win.groups = im.attrInt("group").value_or(1);
  if (win.groups <= 0 || x.shape[1] != w.shape[1] * win.groups ||
      w.shape[0] % win.groups != 0)
    return im.fail("input channels " + Twine(x.shape[1]) + ", weight " +
                   Twine(w.shape[0]) + "x" + Twine(w.shape[1]) + " and group " +
                   Twine(win.groups) + " do not fit together");
  std::vector<int64_t> ones(3, 1), zeros(6, 0);
  std::vector<int64_t> strides = im.attrInts("strides").value_or(ones);
  std::vector<int64_t> dilations = im.attrInts("dilations").value_or(ones);
  std::vector<int64_t> pads = im.attrInts("pads").value_or(zeros);
  if (strides.size() != 3 || dilations.size() != 3 || pads.size() != 6)
    return im.fail("a 3-D convolution needs 3 strides, 3 dilations and 6 "
                   "pads");
  if (auto k = im.attrInts("kernel_shape"))
    if (*k != std::vector<int64_t>(w.shape.begin() + 2, w.shape.end()))
      return im.fail("kernel_shape does not match the weight's shape");
  std::string autoPad = im.attrString("auto_pad").value_or("NOTSET");
  if (autoPad != "NOTSET" && autoPad != "VALID" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER")
    return im.fail("unsupported auto_pad '" + autoPad + "'");
  // Bounded so that the window arithmetic cannot overflow.
  constexpr int64_t kMaxWindow = int64_t(1) << 40;
  for (int d = 0; d < 3; ++d) {
    int64_t in = x.shape[2 + d], k = w.shape[2 + d];
    int64_t s = strides[d], dil = dilations[d];
    if (s <= 0 || dil <= 0 || s > kMaxWindow || dil > kMaxWindow)
      return im.fail("strides and dilations must be in [1, 2^40]");
    int64_t pb = pads[d], pe = pads[d + 3];
    if (pb < 0 || pe < 0 || pb > kMaxWindow || pe > kMaxWindow)
      return im.fail("pads must be in [0, 2^40]");
    int64_t extent;
    if (llvm::MulOverflow(k - 1, dil, extent) || extent >= kMaxWindow)
      return im.fail("the dilated kernel spans more than 2^40 positions");
    ++extent;
    if (autoPad == "VALID") {
      pb = pe = 0;
    } else if (autoPad != "NOTSET") {
      std::tie(pb, pe) = samePadding(in, s, extent, autoPad == "SAME_UPPER");
    }
    if (in + pb + pe < extent)
      return im.fail("the kernel is larger than the padded input");
    win.kernel[d] = k;
    win.strides[d] = s;
    win.dilations[d] = dil;
    win.padBegin[d] = pb;
    win.padEnd[d] = pe;
    win.out[d] = (in + pb + pe - extent) / s + 1;
  }
  // The stacked input: N Do x H x W x C kD elements, each at most 4 bytes.
  int64_t stacked = 1;
  for (int64_t f : {x.shape[0], win.out[0], x.shape[3], x.shape[4], x.shape[1],
                    win.kernel[0]})
    if (llvm::MulOverflow(stacked, f, stacked) || stacked > (int64_t(1) << 60))
      return im.fail("the depth-stacked input of the 3-D convolution would "
                     "hold more than 2^60 elements");
  return win;
}

/// x (N x C x D x H x W, codes as storage integers or f32) padded along D
/// with `pad` and stacked as N Do x H x W x (G, kD, C / G).
static Value stackDepth(Importer &im, Value x, Value pad,
                        const ConvWindow3D &win) {
  OpBuilder &b = im.b;
  Location loc = im.loc;
  auto type = cast<RankedTensorType>(x.getType());
  int64_t n = type.getDimSize(0), c = type.getDimSize(1),
          h = type.getDimSize(3), w = type.getDimSize(4);
  int64_t kd = win.kernel[0], od = win.out[0], g = win.groups;
  auto idx = [&](int64_t v) -> OpFoldResult { return b.getIndexAttr(v); };
  if (win.padBegin[0] || win.padEnd[0]) {
    SmallVector<int64_t> padded(type.getShape());
    padded[2] += win.padBegin[0] + win.padEnd[0];
    x = tensor::PadOp::create(
            b, loc, RankedTensorType::get(padded, type.getElementType()), x,
            {idx(0), idx(0), idx(win.padBegin[0]), idx(0), idx(0)},
            {idx(0), idx(0), idx(win.padEnd[0]), idx(0), idx(0)}, pad)
            .getResult();
  }
  // One copy, its size independent of kD: element (n, d, h, w, g, k, c) of
  // N x Do x H x W x G x kD x C/G reads x[n, g C/G + c, d s_D + k d_D, h, w].
  MLIRContext *ctx = b.getContext();
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  int64_t cg = c / g;
  SmallVector<AffineMap> maps = {
      AffineMap::get(7, 0,
                     {dim(0), dim(4) * cg + dim(6),
                      dim(1) * win.strides[0] + dim(5) * win.dilations[0],
                      dim(2), dim(3)},
                     ctx),
      AffineMap::getMultiDimIdentityMap(7, ctx)};
  Type elem = type.getElementType();
  Value init = tensor::EmptyOp::create(
      b, loc, ArrayRef<int64_t>{n, od, h, w, g, kd, cg}, elem);
  Value stacked =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{x}, ValueRange{init},
          maps,
          SmallVector<utils::IteratorType>(7, utils::IteratorType::parallel),
          [](OpBuilder &nb, Location l, ValueRange args) {
            linalg::YieldOp::create(nb, l, args[0]);
          })
          .getResult(0);
  return im.reshape(stacked, {n * od, h, w, c * kd});
}

/// The weight F x C/G x kD x kH x kW as F x kD C/G x kH x kW (the taps
/// outermost in each group's channels, as stackDepth orders them).
template <typename T>
static std::vector<T> foldTaps(const std::vector<T> &data,
                               ArrayRef<int64_t> shape) {
  int64_t f = shape[0], c = shape[1], kd = shape[2],
          plane = shape[3] * shape[4];
  std::vector<T> out(data.size());
  for (int64_t o = 0; o < f; ++o)
    for (int64_t ci = 0; ci < c; ++ci)
      for (int64_t k = 0; k < kd; ++k)
        std::copy_n(data.begin() + ((o * c + ci) * kd + k) * plane, plane,
                    out.begin() + ((o * kd + k) * c + ci) * plane);
  return out;
}

LogicalResult Importer::liftConv3D(PendingInfo &p, ImportedValue &x,
                                   ImportedValue &w) {
  auto window = readWindow3D(*this, x, w);
  if (failed(window))
    return failure();
  return liftConv3D(p, x, w, *window);
}

LogicalResult Importer::liftConv3D(PendingInfo &p, ImportedValue &x,
                                   ImportedValue &w,
                                   const ConvWindow3D &window) {
  const ConvWindow3D *win = &window;
  if (w.q.perAxis() && w.q.axis != 0)
    return fail("per-axis weight scales must run along the output channels");
  if (!w.codes && w.f.empty())
    return fail("non-constant weights: the weight must be a compile-time "
                "tensor");
  ImportedValue w2 = w;
  w2.shape = {w.shape[0], w.shape[1] * w.shape[2], w.shape[3], w.shape[4]};
  if (w.codes)
    w2.codes = foldTaps(*w.codes, w.shape);
  else
    w2.f = foldTaps(w.f, w.shape);

  ImportedValue x2;
  x2.shape = {x.shape[0] * win->out[0], x.shape[1] * win->kernel[0], x.shape[3],
              x.shape[4]};
  x2.nhwc = true;
  if (!x.isQuantized()) {
    auto f = floatValue(x, /*nhwc=*/false);
    if (failed(f))
      return failure();
    Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    x2.kind = Kind::Float;
    x2.value = stackDepth(*this, *f, zero, *win);
  } else {
    if (x.q.perAxis())
      return fail("per-axis quantized activations are not supported as a "
                  "contraction input");
    auto q = quantValue(x, /*nhwc=*/false);
    if (failed(q))
      return failure();
    // Codes move as storage integers; padding is the zero point (real 0).
    auto qType = cast<RankedTensorType>(q->getType());
    Value ints = quant::StorageCastOp::create(
        b, loc, RankedTensorType::get(qType.getShape(), storageIntType(x.q)),
        *q);
    Value stacked =
        stackDepth(*this, ints, storageCode(x.q, x.q.zeroPoints[0]), *win);
    x2.kind = x.kind == Kind::Quant ? Kind::Quant : Kind::Dequant;
    x2.q = x.q;
    x2.dtype = x.dtype;
    x2.value =
        quant::StorageCastOp::create(b, loc, quantTensorType(x2), stacked);
  }
  x = std::move(x2);
  w = std::move(w2);

  p.isConv = true;
  p.groups = win->groups;
  p.strides = {win->strides[1], win->strides[2]};
  p.dilations = {win->dilations[1], win->dilations[2]};
  p.padding = {win->padBegin[1], win->padEnd[1], win->padBegin[2],
               win->padEnd[2]};
  p.resultShape = {x.shape[0] / win->out[0], w.shape[0], win->out[0],
                   win->out[1], win->out[2]};
  return success();
}

LogicalResult Importer::readConvWindow(PendingInfo &p, ImportedValue &x,
                                       ImportedValue &w) {
  if (x.shape.size() == 5)
    return liftConv3D(p, x, w);
  if (failed(readConvAttrs(p, x, w)))
    return failure();
  return liftConv1D(p, x, w);
}
