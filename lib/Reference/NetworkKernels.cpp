//===- NetworkKernels.cpp - Reference kernels of whole-network ops --------===//
//
// See NetworkKernels.h. The runtime lines each kernel models are named next
// to the code. As in Kernels.cpp, every check that can fail is an invariant
// the verifier enforces, so failing one aborts with a message.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/NetworkKernels.h"

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

void checkPerTensor(const char *kernel, const char *what,
                    const QuantParams &p) {
  if (p.isPerAxis())
    fatal(kernel, std::string(what) + ": per-axis is not supported");
  if (p.scales.size() != 1 || p.zeroPoints.size() != 1)
    fatal(kernel, std::string(what) + ": per-tensor parameters with " +
                      str(p.scales.size()) + " scales");
  if (p.storageMin > p.storageMax)
    fatal(kernel, std::string(what) + ": empty storage range");
}

/// Row-major strides of `shape`, with stride 0 on the broadcast (size-1)
/// dimensions of an operand whose result dimension is larger.
std::vector<int64_t> broadcastStrides(const char *kernel, const char *what,
                                      const std::vector<int64_t> &shape,
                                      const std::vector<int64_t> &result) {
  if (shape.size() != result.size())
    fatal(kernel, std::string(what) + " has rank " + str(shape.size()) +
                      ", result rank " + str(result.size()));
  std::vector<int64_t> strides(shape.size(), 0);
  int64_t stride = 1;
  for (size_t d = shape.size(); d-- > 0;) {
    if (shape[d] != result[d] && shape[d] != 1)
      fatal(kernel, std::string(what) + " dimension " + str(d) + " is " +
                        str(shape[d]) + ", result " + str(result[d]));
    strides[d] = shape[d] == result[d] ? stride : 0;
    stride *= shape[d];
  }
  return strides;
}

std::pair<int32_t, int32_t>
outputRange(const char *kernel, const QuantParams &p,
            std::optional<std::pair<int32_t, int32_t>> clamp) {
  int32_t lo = p.storageMin, hi = p.storageMax;
  if (clamp) {
    lo = std::max(lo, clamp->first);
    hi = std::min(hi, clamp->second);
    if (lo > hi)
      fatal(kernel, "clamp [" + str(clamp->first) + ", " +
                        str(clamp->second) + "] leaves no output code");
  }
  return {lo, hi};
}

} // namespace

//===----------------------------------------------------------------------===//
// Add
//===----------------------------------------------------------------------===//

int32_t quantopt::ref::addLeftShift(unsigned resultStorageBits) {
  // add.cc: `data->left_shift = output->type == kTfLiteInt16 ? 15 : 20;`
  if (resultStorageBits == 8)
    return 20;
  if (resultStorageBits == 16)
    return 15;
  fatal("add", "result storage of " + str(resultStorageBits) +
                   " bits (expected 8 or 16)");
}

AddMultipliers quantopt::ref::makeAddMultipliers(double scaleA, double scaleB,
                                                 double scaleY,
                                                 unsigned resultStorageBits) {
  // add.cc (Prepare, the quantized branch):
  //   twice_max_input_scale = 2 * std::max(input1 scale, input2 scale);
  //   real_input1_multiplier = input1 scale / twice_max_input_scale;
  //   real_output_multiplier = twice_max_input_scale /
  //                            ((1 << left_shift) * output scale);
  // then QuantizeMultiplierSmallerThanOneExp (quantization_util.cc) on each.
  AddMultipliers m;
  m.leftShift = addLeftShift(resultStorageBits);
  const double twiceMax = 2.0 * std::max(scaleA, scaleB);
  m.a = quantizeMultiplier(scaleA / twiceMax);
  m.b = quantizeMultiplier(scaleB / twiceMax);
  m.out = quantizeMultiplier(twiceMax /
                             (double(int64_t(1) << m.leftShift) * scaleY));
  return m;
}

std::vector<int32_t> quantopt::ref::add(
    const std::vector<int32_t> &a, const std::vector<int64_t> &aShape,
    const QuantParams &pa, const std::vector<int32_t> &b,
    const std::vector<int64_t> &bShape, const QuantParams &pb,
    const std::vector<int64_t> &yShape, const QuantParams &py,
    unsigned resultStorageBits, RoundingMode mode,
    std::optional<std::pair<int32_t, int32_t>> clamp) {
  checkSize("add", "a", a.size(), numElements("add", aShape));
  checkSize("add", "b", b.size(), numElements("add", bShape));
  checkPerTensor("add", "a", pa);
  checkPerTensor("add", "b", pb);
  checkPerTensor("add", "result", py);
  const int64_t count = numElements("add", yShape);
  const std::vector<int64_t> aStrides =
      broadcastStrides("add", "a", aShape, yShape);
  const std::vector<int64_t> bStrides =
      broadcastStrides("add", "b", bShape, yShape);
  const auto [lo, hi] = outputRange("add", py, clamp);
  const int32_t za = pa.zeroPoints[0], zb = pb.zeroPoints[0];
  const int32_t zy = py.zeroPoints[0];

  // ONNX Runtime's ratios (the contract's "float" add): f32 / f32 in f32.
  const float ratioA = float(pa.scales[0]) / float(py.scales[0]);
  const float ratioB = float(pb.scales[0]) / float(py.scales[0]);
  AddMultipliers m{};
  if (mode != RoundingMode::Float)
    m = makeAddMultipliers(pa.scales[0], pb.scales[0], py.scales[0],
                           resultStorageBits);
  const Rescale outRescale{mode, m.out, 0.0f};

  std::vector<int32_t> result(count);
  std::vector<int64_t> index(yShape.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t aOffset = 0, bOffset = 0;
    for (size_t d = 0; d < index.size(); ++d) {
      aOffset += index[d] * aStrides[d];
      bOffset += index[d] * bStrides[d];
    }
    const int32_t ca = a[aOffset] - za, cb = b[bOffset] - zb;
    if (mode == RoundingMode::Float) {
      // The contract's "float" add (after onnxruntime/core/mlas/lib/
      // qladd.cpp): two f32 products and one f32 add, each rounded. The
      // volatile stores keep a compiler that contracts across statements
      // (GCC's default -ffp-contract=fast) from fusing them into an FMA.
      volatile float productA = float(ca) * ratioA;
      volatile float productB = float(cb) * ratioB;
      const float sum = productA + productB;
      result[i] = detail::roundAddZeroPointClamp(sum, zy, lo, hi);
    } else {
      // reference/add.h, AddElementwise / BroadcastAdd4DSlow:
      //   shifted_input1_val = input1_val * (1 << left_shift);
      //   scaled_input1_val = MultiplyByQuantizedMultiplierSmallerThanOneExp(
      //       shifted_input1_val, input1_multiplier, input1_shift);
      //   raw_sum = scaled_input1_val + scaled_input2_val;
      //   raw_output = MultiplyByQuantizedMultiplierSmallerThanOneExp(
      //       raw_sum, output_multiplier, output_shift) + output_offset;
      // with the rounding of `mode` in each multiply.
      const int32_t a1 =
          detail::saturateToInt32(int64_t(ca) * (int64_t(1) << m.leftShift));
      const int32_t b1 =
          detail::saturateToInt32(int64_t(cb) * (int64_t(1) << m.leftShift));
      // M_a, M_b <= 1/2, so |sa|, |sb| <= 2^30 and the sum fits int32.
      const int64_t sa = multiplyByQuantizedMultiplier(a1, m.a, mode);
      const int64_t sb = multiplyByQuantizedMultiplier(b1, m.b, mode);
      const int32_t rawSum = detail::saturateToInt32(sa + sb);
      result[i] = applyRescale(outRescale, rawSum, zy, lo, hi);
    }
    // Next row-major index.
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < yShape[d])
        break;
      index[d] = 0;
    }
  }
  return result;
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

std::optional<int64_t> Pool2DShape::outH() const {
  return windowOutputSize(inH, padTop, padBottom, kernelH, strideH, dilationH);
}

std::optional<int64_t> Pool2DShape::outW() const {
  return windowOutputSize(inW, padLeft, padRight, kernelW, strideW, dilationW);
}

namespace {

/// Checks the geometry (the verifier's rules) and returns {outH, outW}.
std::pair<int64_t, int64_t> checkPool(const char *kernel, const Pool2DShape &s,
                                      size_t inputSize) {
  if (s.batch < 0 || s.channels < 0)
    fatal(kernel, "negative batch or channel count");
  std::optional<int64_t> outH = s.outH(), outW = s.outW();
  if (!outH || !outW)
    fatal(kernel, "invalid window: kernel " + str(s.kernelH) + "x" +
                      str(s.kernelW) + ", strides " + str(s.strideH) + "x" +
                      str(s.strideW) + ", dilations " + str(s.dilationH) +
                      "x" + str(s.dilationW) + " over a padded " +
                      str(s.inH) + "x" + str(s.inW) + " input");
  // A pad as large as the dilated kernel would give a window of padding only.
  std::optional<int64_t> extentH = dilatedKernelExtent(s.kernelH, s.dilationH);
  std::optional<int64_t> extentW = dilatedKernelExtent(s.kernelW, s.dilationW);
  if (s.padTop >= *extentH || s.padBottom >= *extentH ||
      s.padLeft >= *extentW || s.padRight >= *extentW)
    fatal(kernel, "a pad is not smaller than the dilated kernel extent");
  std::vector<int64_t> shape{s.batch, s.inH, s.inW, s.channels};
  checkSize(kernel, "x", inputSize, numElements(kernel, shape));
  numElements(kernel, {s.batch, *outH, *outW, s.channels});
  return {*outH, *outW};
}

} // namespace

bool quantopt::ref::everyWindowHasInput(const Pool2DShape &s) {
  std::optional<int64_t> outH = s.outH(), outW = s.outW();
  if (!outH || !outW)
    return false;
  auto hasTap = [](int64_t start, int64_t kernel, int64_t dilation,
                   int64_t in) {
    for (int64_t k = 0; k < kernel; ++k) {
      int64_t i = start + k * dilation;
      if (i >= 0 && i < in)
        return true;
      if (i >= in)
        return false;
    }
    return false;
  };
  for (int64_t oh = 0; oh < *outH; ++oh)
    if (!hasTap(oh * s.strideH - s.padTop, s.kernelH, s.dilationH, s.inH))
      return false;
  for (int64_t ow = 0; ow < *outW; ++ow)
    if (!hasTap(ow * s.strideW - s.padLeft, s.kernelW, s.dilationW, s.inW))
      return false;
  return true;
}

std::vector<int32_t> quantopt::ref::maxPool2d(const Pool2DShape &s,
                                              const std::vector<int32_t> &x) {
  const auto [outH, outW] = checkPool("maxPool2d", s, x.size());
  std::vector<int32_t> result(s.batch * outH * outW * s.channels);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t oh = 0; oh < outH; ++oh)
      for (int64_t ow = 0; ow < outW; ++ow)
        for (int64_t c = 0; c < s.channels; ++c) {
          std::optional<int32_t> best;
          for (int64_t kh = 0; kh < s.kernelH; ++kh) {
            const int64_t ih = oh * s.strideH - s.padTop + kh * s.dilationH;
            if (ih < 0 || ih >= s.inH)
              continue;
            for (int64_t kw = 0; kw < s.kernelW; ++kw) {
              const int64_t iw = ow * s.strideW - s.padLeft + kw * s.dilationW;
              if (iw < 0 || iw >= s.inW)
                continue;
              const int32_t v = x[((n * s.inH + ih) * s.inW + iw) * s.channels + c];
              best = best ? std::max(*best, v) : v;
            }
          }
          // Pads smaller than the extent do not suffice with dilations: taps
          // can straddle a small input (everyWindowHasInput checks this).
          if (!best)
            fatal("maxPool2d", "window at (" + str(oh) + ", " + str(ow) +
                                   ") holds no input element");
          result[((n * outH + oh) * outW + ow) * s.channels + c] = *best;
        }
  return result;
}

std::vector<int32_t> quantopt::ref::avgPool2d(const Pool2DShape &s,
                                              const std::vector<int32_t> &x,
                                              const QuantParams &p,
                                              bool countIncludePad,
                                              RoundingMode ties) {
  if (s.dilationH != 1 || s.dilationW != 1)
    fatal("avgPool2d", "dilations must be 1");
  if (ties != RoundingMode::Away && ties != RoundingMode::HalfEven)
    fatal("avgPool2d", "ties round away from zero or half to even");
  const auto [outH, outW] = checkPool("avgPool2d", s, x.size());
  if (p.storageMin > p.storageMax || p.zeroPoints.empty())
    fatal("avgPool2d", "invalid quantization parameters");
  if (p.isPerAxis() &&
      (p.axis != 3 || (int64_t)p.zeroPoints.size() != s.channels))
    fatal("avgPool2d", "per-axis parameters must be on dimension 3 with one "
                       "zero point per channel");
  std::vector<int32_t> result(s.batch * outH * outW * s.channels);
  for (int64_t n = 0; n < s.batch; ++n)
    for (int64_t oh = 0; oh < outH; ++oh)
      for (int64_t ow = 0; ow < outW; ++ow)
        for (int64_t c = 0; c < s.channels; ++c) {
          const int64_t z = p.zeroPoint(c);
          int64_t sum = 0, inside = 0;
          for (int64_t kh = 0; kh < s.kernelH; ++kh) {
            const int64_t ih = oh * s.strideH - s.padTop + kh;
            if (ih < 0 || ih >= s.inH)
              continue;
            for (int64_t kw = 0; kw < s.kernelW; ++kw) {
              const int64_t iw = ow * s.strideW - s.padLeft + kw;
              if (iw < 0 || iw >= s.inW)
                continue;
              sum += x[((n * s.inH + ih) * s.inW + iw) * s.channels + c] - z;
              ++inside;
            }
          }
          const int64_t count = countIncludePad ? s.kernelH * s.kernelW : inside;
          if (count == 0)
            fatal("avgPool2d", "empty window");
          // TFLite reference/integer_ops/pooling.h, AveragePool:
          //   acc = acc > 0 ? (acc + filter_count / 2) / filter_count
          //                 : (acc - filter_count / 2) / filter_count;
          // (C++ division truncates, so this rounds halves away from zero).
          // TFLite sums raw codes; the contract sums q - z, then adds z.
          int64_t rounded;
          if (ties == RoundingMode::HalfEven) {
            // ONNX QuantizeLinear of the mean on the same grid: floor, then
            // up past the half, or at the half when the floor is odd.
            const int64_t floor = sum >= 0 ? sum / count
                                           : -((-sum + count - 1) / count);
            const int64_t twiceRest = 2 * (sum - floor * count);
            rounded = floor + (twiceRest > count ||
                               (twiceRest == count && (floor & 1) != 0));
          } else {
            rounded = sum > 0 ? (sum + count / 2) / count
                              : (sum - count / 2) / count;
          }
          result[((n * outH + oh) * outW + ow) * s.channels + c] =
              static_cast<int32_t>(std::clamp<int64_t>(
                  z + rounded, p.storageMin, p.storageMax));
        }
  return result;
}

//===----------------------------------------------------------------------===//
// Concat
//===----------------------------------------------------------------------===//

std::vector<int32_t> quantopt::ref::concat(
    const std::vector<std::vector<int32_t>> &inputs,
    const std::vector<std::vector<int64_t>> &shapes,
    const std::vector<QuantParams> &params, int64_t axis,
    const QuantParams &result, RoundingMode mode) {
  if (inputs.empty() || inputs.size() != shapes.size() ||
      inputs.size() != params.size())
    fatal("concat", str(inputs.size()) + " inputs, " + str(shapes.size()) +
                        " shapes, " + str(params.size()) + " parameter sets");
  checkPerTensor("concat", "result", result);
  const std::vector<int64_t> &first = shapes.front();
  const int64_t rank = first.size();
  if (axis < 0 || axis >= rank)
    fatal("concat", "axis " + str(axis) + " out of range for rank " + str(rank));

  std::vector<int64_t> yShape = first;
  yShape[axis] = 0;
  std::vector<std::vector<int32_t>> converted(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const std::vector<int64_t> &shape = shapes[i];
    if ((int64_t)shape.size() != rank)
      fatal("concat", "input " + str(i) + " has rank " + str(shape.size()) +
                          ", expected " + str(rank));
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && shape[d] != first[d])
        fatal("concat", "input " + str(i) + " dimension " + str(d) + " is " +
                            str(shape[d]) + ", expected " + str(first[d]));
    checkSize("concat", "input", inputs[i].size(),
              numElements("concat", shape));
    checkPerTensor("concat", "input", params[i]);
    std::optional<int64_t> sum = checkedAdd(yShape[axis], shape[axis]);
    if (!sum)
      fatal("concat", "result size along the axis overflows");
    yShape[axis] = *sum;
    // Equal parameters: the same codes, bit for bit. Otherwise requantize,
    // storage range only.
    if (params[i].scales[0] == result.scales[0] &&
        params[i].zeroPoints[0] == result.zeroPoints[0])
      converted[i] = inputs[i];
    else
      converted[i] = requantize(inputs[i], shape, params[i], result, mode);
  }

  // outer = product of dims before axis; each input contributes contiguous
  // runs of shape[axis] * inner codes per outer index.
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d)
    outer *= first[d];
  for (int64_t d = axis + 1; d < rank; ++d)
    inner *= first[d];
  std::vector<int32_t> y;
  y.reserve(numElements("concat", yShape));
  for (int64_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < converted.size(); ++i) {
      const int64_t run = shapes[i][axis] * inner;
      y.insert(y.end(), converted[i].begin() + o * run,
               converted[i].begin() + (o + 1) * run);
    }
  return y;
}
