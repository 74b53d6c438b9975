//===- Kernels.cpp - Reference quantized kernels --------------------------===//
//
// See Kernels.h. Loops are written in the most literal form of each formula;
// every check that can fail is an invariant the verifier already enforces, so
// failing one is a bug in the caller and aborts with a message.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/Kernels.h"

#include "KernelSupport.h"
#include "QuantOpt/Reference/WindowArithmetic.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>

using namespace quantopt::ref;
using namespace quantopt::ref::support;

namespace {

void checkParams(const char *kernel, const QuantParams &p,
                 const std::vector<int64_t> &shape) {
  if (p.scales.empty() || p.scales.size() != p.zeroPoints.size())
    fatal(kernel, str(p.scales.size()) + " scales but " +
                      str(p.zeroPoints.size()) + " zero points");
  if (p.storageMin > p.storageMax)
    fatal(kernel, "storage range [" + str(p.storageMin) + ", " +
                      str(p.storageMax) + "] is empty");
  if (!p.isPerAxis()) {
    if (p.scales.size() != 1)
      fatal(kernel,
            "per-tensor parameters with " + str(p.scales.size()) + " scales");
    return;
  }
  if (p.axis >= (int64_t)shape.size())
    fatal(kernel, "axis " + str(p.axis) + " out of range for rank " +
                      str(shape.size()));
  if ((int64_t)p.scales.size() != shape[p.axis])
    fatal(kernel, str(p.scales.size()) + " per-axis scales for dimension " +
                      str(p.axis) + " of size " + str(shape[p.axis]));
}

/// Maps a flat row-major index to its coordinate along one axis: the
/// channel that selects per-axis parameters.
struct ChannelOf {
  int64_t inner = 1; // Product of the dimensions after the axis.
  int64_t size = 1;  // Size of the axis (1 when per tensor).

  ChannelOf(const std::vector<int64_t> &shape, int32_t axis) {
    if (axis < 0)
      return;
    size = shape[axis];
    for (size_t d = size_t(axis) + 1; d < shape.size(); ++d)
      inner *= shape[d];
  }
  int64_t operator()(int64_t index) const {
    return size <= 1 ? 0 : (index / inner) % size;
  }
};

int32_t checkedAccumulator(const char *kernel, int64_t value,
                           int64_t flatIndex) {
  if (value < std::numeric_limits<int32_t>::min() ||
      value > std::numeric_limits<int32_t>::max())
    fatal(kernel, "accumulator overflow: element " + str(flatIndex) +
                      " (flat row-major index) sums to " + str(value) +
                      ", outside i32");
  return static_cast<int32_t>(value);
}

/// The bias is added after the exact product sum, saturating: a constant
/// bias never saturates (the verifier's static bound includes it), and a
/// runtime bias that would leave i32 clamps instead of wrapping
/// (docs/Semantics.md, "Accumulator range").
int32_t addBias(int32_t products, const std::vector<int32_t> &bias,
                int64_t channel) {
  if (bias.empty())
    return products;
  int64_t sum = int64_t(products) + bias[channel];
  return static_cast<int32_t>(
      std::clamp<int64_t>(sum, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
}

} // namespace

//===----------------------------------------------------------------------===//
// QuantParams
//===----------------------------------------------------------------------===//

QuantParams QuantParams::perTensor(double scale, int32_t zeroPoint,
                                   int32_t storageMin, int32_t storageMax) {
  QuantParams p;
  p.scales = {scale};
  p.zeroPoints = {zeroPoint};
  p.axis = -1;
  p.storageMin = storageMin;
  p.storageMax = storageMax;
  return p;
}

QuantParams QuantParams::perAxis(int32_t axis, std::vector<double> scales,
                                 std::vector<int32_t> zeroPoints,
                                 int32_t storageMin, int32_t storageMax) {
  QuantParams p;
  p.scales = std::move(scales);
  p.zeroPoints = std::move(zeroPoints);
  p.axis = axis;
  p.storageMin = storageMin;
  p.storageMax = storageMax;
  return p;
}

double QuantParams::scale(int64_t channel) const {
  return isPerAxis() ? scales.at(channel) : scales.at(0);
}

int32_t QuantParams::zeroPoint(int64_t channel) const {
  return isPerAxis() ? zeroPoints.at(channel) : zeroPoints.at(0);
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

std::vector<int32_t> quantopt::ref::quantize(const std::vector<float> &x,
                                             const std::vector<int64_t> &shape,
                                             const QuantParams &p) {
  int64_t count = numElements("quantize", shape);
  checkSize("quantize", "input", x.size(), count);
  checkParams("quantize", p, shape);
  ChannelOf channelOf(shape, p.axis);
  std::vector<int32_t> result(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t c = channelOf(i);
    result[i] = quantizeValue(x[i], p.scale(c), p.zeroPoint(c), p.storageMin,
                              p.storageMax);
  }
  return result;
}

std::vector<float> quantopt::ref::dequantize(const std::vector<int32_t> &q,
                                             const std::vector<int64_t> &shape,
                                             const QuantParams &p) {
  int64_t count = numElements("dequantize", shape);
  checkSize("dequantize", "input", q.size(), count);
  checkParams("dequantize", p, shape);
  ChannelOf channelOf(shape, p.axis);
  std::vector<float> result(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t c = channelOf(i);
    result[i] = dequantizeValue(q[i], p.scale(c), p.zeroPoint(c));
  }
  return result;
}

std::vector<int32_t> quantopt::ref::requantize(
    const std::vector<int32_t> &q, const std::vector<int64_t> &shape,
    const QuantParams &in, const QuantParams &out, RoundingMode mode,
    std::optional<std::pair<int32_t, int32_t>> clamp) {
  int64_t count = numElements("requantize", shape);
  checkSize("requantize", "input", q.size(), count);
  checkParams("requantize", in, shape);
  checkParams("requantize", out, shape);
  if (in.isPerAxis() && out.isPerAxis() && in.axis != out.axis)
    fatal("requantize", "input axis " + str(in.axis) +
                            " differs from output axis " + str(out.axis));
  int32_t axis = in.isPerAxis() ? in.axis : out.axis;

  int32_t lo = out.storageMin, hi = out.storageMax;
  if (clamp) {
    lo = std::max(lo, clamp->first);
    hi = std::min(hi, clamp->second);
    if (lo > hi)
      fatal("requantize", "clamp [" + str(clamp->first) + ", " +
                              str(clamp->second) + "] leaves no output code");
  }

  // One rescale per channel, computed once: the multiplier depends on the
  // channel only.
  int64_t numChannels = axis >= 0 ? shape[axis] : 1;
  std::vector<Rescale> rescales;
  rescales.reserve(numChannels);
  for (int64_t c = 0; c < numChannels; ++c)
    rescales.push_back(makeRescale(in.scale(c), out.scale(c), mode));

  ChannelOf channelOf(shape, axis);
  std::vector<int32_t> result(count);
  for (int64_t i = 0; i < count; ++i) {
    int64_t c = channelOf(i);
    int32_t centered =
        detail::saturateToInt32(int64_t(q[i]) - int64_t(in.zeroPoint(c)));
    result[i] = applyRescale(rescales[c], centered, out.zeroPoint(c), lo, hi);
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Matmul and convolution
//===----------------------------------------------------------------------===//

std::vector<int32_t> quantopt::ref::matmul(int64_t m, int64_t k, int64_t n,
                                           const std::vector<int32_t> &x,
                                           int32_t zx,
                                           const std::vector<int32_t> &w,
                                           const std::vector<int32_t> &zw,
                                           const std::vector<int32_t> &bias) {
  if (m < 0 || k < 0 || n < 0)
    fatal("matmul",
          "negative dimension in " + str(m) + " x " + str(k) + " x " + str(n));
  checkSize("matmul", "x", x.size(), m * k);
  checkSize("matmul", "w", w.size(), k * n);
  if (zw.size() != 1 && (int64_t)zw.size() != n)
    fatal("matmul",
          str(zw.size()) + " weight zero points for " + str(n) + " columns");
  if (!bias.empty() && (int64_t)bias.size() != n)
    fatal("matmul",
          str(bias.size()) + " bias entries for " + str(n) + " columns");

  std::vector<int32_t> result(m * n);
  for (int64_t row = 0; row < m; ++row) {
    for (int64_t col = 0; col < n; ++col) {
      int64_t zwCol = zw.size() == 1 ? zw[0] : zw[col];
      int64_t sum = 0;
      for (int64_t i = 0; i < k; ++i)
        sum +=
            (int64_t(x[row * k + i]) - zx) * (int64_t(w[i * n + col]) - zwCol);
      result[row * n + col] = addBias(
          checkedAccumulator("matmul", sum, row * n + col), bias, col);
    }
  }
  return result;
}

// A dilated kernel that does not fit in the padded input yields no output
// positions (0); arithmetic that leaves int64 or an invalid argument yields
// nullopt. All steps go through WindowArithmetic.h, like the verifier's.
static std::optional<int64_t> convOutSize(int64_t in, int64_t padBefore,
                                          int64_t padAfter, int64_t kernel,
                                          int64_t dilation, int64_t stride) {
  std::optional<int64_t> extent = dilatedKernelExtent(kernel, dilation);
  std::optional<int64_t> padded = checkedAdd(in, padBefore);
  if (padded)
    padded = checkedAdd(*padded, padAfter);
  if (!extent || !padded || in < 0 || padBefore < 0 || padAfter < 0 ||
      stride < 1)
    return std::nullopt;
  if (*padded < *extent)
    return 0;
  return windowOutputSize(in, padBefore, padAfter, kernel, stride, dilation);
}

std::optional<int64_t> Conv2DShape::checkedOutH() const {
  return convOutSize(inH, padTop, padBottom, kernelH, dilationH, strideH);
}

std::optional<int64_t> Conv2DShape::checkedOutW() const {
  return convOutSize(inW, padLeft, padRight, kernelW, dilationW, strideW);
}

int64_t Conv2DShape::outH() const { return checkedOutH().value_or(0); }

int64_t Conv2DShape::outW() const { return checkedOutW().value_or(0); }

std::vector<int32_t> quantopt::ref::conv2d(const Conv2DShape &s,
                                           const std::vector<int32_t> &x,
                                           int32_t zx,
                                           const std::vector<int32_t> &w,
                                           const std::vector<int32_t> &zw,
                                           const std::vector<int32_t> &bias) {
  if (s.batch < 0 || s.inH < 0 || s.inW < 0 || s.inC < 0 || s.kernelH < 1 ||
      s.kernelW < 1 || s.outC < 0)
    fatal("conv2d", "negative dimension or empty kernel");
  if (s.strideH < 1 || s.strideW < 1 || s.dilationH < 1 || s.dilationW < 1)
    fatal("conv2d", "strides and dilations must be >= 1");
  if (s.padTop < 0 || s.padBottom < 0 || s.padLeft < 0 || s.padRight < 0)
    fatal("conv2d", "negative padding");
  if (s.groups < 1 || s.inC % s.groups != 0 || s.outC % s.groups != 0)
    fatal("conv2d", str(s.groups) + " groups do not divide " + str(s.inC) +
                        " input / " + str(s.outC) + " output channels");
  const int64_t groupC = s.inC / s.groups;
  const int64_t groupF = s.outC / s.groups;
  checkSize("conv2d", "x", x.size(), s.batch * s.inH * s.inW * s.inC);
  checkSize("conv2d", "w", w.size(), s.kernelH * s.kernelW * groupC * s.outC);
  if (zw.size() != 1 && (int64_t)zw.size() != s.outC)
    fatal("conv2d", str(zw.size()) + " weight zero points for " + str(s.outC) +
                        " filters");
  if (!bias.empty() && (int64_t)bias.size() != s.outC)
    fatal("conv2d",
          str(bias.size()) + " bias entries for " + str(s.outC) + " filters");

  std::optional<int64_t> checkedH = s.checkedOutH(), checkedW = s.checkedOutW();
  if (!checkedH || !checkedW)
    fatal("conv2d", "window arithmetic overflows int64");
  const int64_t outH = *checkedH, outW = *checkedW;
  std::optional<int64_t> resultSize = checkedMul(s.batch, outH);
  if (resultSize)
    resultSize = checkedMul(*resultSize, outW);
  if (resultSize)
    resultSize = checkedMul(*resultSize, s.outC);
  if (!resultSize)
    fatal("conv2d", "result size overflows int64");
  std::vector<int32_t> result(*resultSize);
  for (int64_t b = 0; b < s.batch; ++b) {
    for (int64_t oh = 0; oh < outH; ++oh) {
      for (int64_t ow = 0; ow < outW; ++ow) {
        for (int64_t f = 0; f < s.outC; ++f) {
          const int64_t group = f / groupF;
          const int64_t zwF = zw.size() == 1 ? zw[0] : zw[f];
          int64_t sum = 0;
          for (int64_t kh = 0; kh < s.kernelH; ++kh) {
            const int64_t ih = oh * s.strideH - s.padTop + kh * s.dilationH;
            // Padding is real 0: (zx - zx) * w = 0, so skipping it is the
            // same as reading zx there.
            if (ih < 0 || ih >= s.inH)
              continue;
            for (int64_t kw = 0; kw < s.kernelW; ++kw) {
              const int64_t iw = ow * s.strideW - s.padLeft + kw * s.dilationW;
              if (iw < 0 || iw >= s.inW)
                continue;
              for (int64_t c = 0; c < groupC; ++c) {
                const int64_t inChannel = group * groupC + c;
                const int64_t xv =
                    x[((b * s.inH + ih) * s.inW + iw) * s.inC + inChannel];
                const int64_t wv =
                    w[((kh * s.kernelW + kw) * groupC + c) * s.outC + f];
                sum += (xv - zx) * (wv - zwF);
              }
            }
          }
          const int64_t index = ((b * outH + oh) * outW + ow) * s.outC + f;
          result[index] =
              addBias(checkedAccumulator("conv2d", sum, index), bias, f);
        }
      }
    }
  }
  return result;
}
