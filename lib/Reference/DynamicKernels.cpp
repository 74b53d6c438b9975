//===- DynamicKernels.cpp - Reference kernels of runtime-scale ops --------===//
//
// Straight from the formulas of include/QuantOpt/Reference/DynamicKernels.h
// (docs/RuntimeScales.md): one f32 operation per statement, so that no
// compiler can contract or reorder them.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/DynamicKernels.h"

#include "KernelSupport.h"
#include "QuantOpt/Reference/FixedPoint.h"

#include <cmath>
#include <limits>

using namespace quantopt::ref;
using support::fatal;
using support::str;

//===----------------------------------------------------------------------===//
// Scalar rules
//===----------------------------------------------------------------------===//

float quantopt::ref::dequantizeDynamicValue(int32_t code, float scale,
                                            float offset) {
  float value = static_cast<float>(code);
  float centered = value - offset;
  float result = centered * scale;
  return result;
}

int32_t quantopt::ref::quantizeDynamicValue(float x, float scale,
                                            float offset, int32_t qmin,
                                            int32_t qmax) {
  float quotient = x / scale;
  float rounded = detail::roundHalfEvenFloat(quotient);
  if (std::isnan(rounded))
    rounded = 0.0f;
  float sum = rounded + offset;
  if (std::isnan(sum))
    sum = 0.0f;
  // qmin and qmax (8 and 16 bits) are exact in f32.
  if (sum <= static_cast<float>(qmin))
    return qmin;
  if (sum >= static_cast<float>(qmax))
    return qmax;
  return static_cast<int32_t>(detail::roundHalfEvenFloat(sum));
}

float quantopt::ref::ieeeMinimum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

float quantopt::ref::ieeeMaximum(float a, float b) {
  if (std::isnan(a) || std::isnan(b))
    return std::numeric_limits<float>::quiet_NaN();
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

std::vector<int64_t>
quantopt::ref::broadcastIndices(const std::vector<int64_t> &shape,
                                const std::vector<int64_t> &paramShape) {
  const char *kernel = "broadcastIndices";
  if (paramShape.size() != shape.size())
    fatal(kernel, "parameter rank " + str(paramShape.size()) +
                      " differs from the data rank " + str(shape.size()));
  for (size_t d = 0; d < shape.size(); ++d)
    if (paramShape[d] != 1 && paramShape[d] != shape[d])
      fatal(kernel, "parameter dimension " + str(d) + " is " +
                        str(paramShape[d]) + ", expected 1 or " +
                        str(shape[d]));
  int64_t count = support::numElements(kernel, shape);
  std::vector<int64_t> indices(count);
  const size_t rank = shape.size();
  std::vector<int64_t> index(rank, 0);
  for (int64_t flat = 0; flat < count; ++flat) {
    int64_t param = 0;
    for (size_t d = 0; d < rank; ++d)
      param = param * paramShape[d] + (paramShape[d] == 1 ? 0 : index[d]);
    indices[flat] = param;
    // Row-major increment of the multi-index.
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
  return indices;
}

std::vector<float> quantopt::ref::dequantizeDynamic(
    const std::vector<int32_t> &src, const std::vector<int64_t> &shape,
    const std::vector<float> &scale, const std::vector<int64_t> &scaleShape,
    const std::vector<float> &offset, const std::vector<int64_t> &offsetShape) {
  const char *kernel = "dequantizeDynamic";
  support::checkSize(kernel, "src", src.size(),
                     support::numElements(kernel, shape));
  support::checkSize(kernel, "scale", scale.size(),
                     support::numElements(kernel, scaleShape));
  support::checkSize(kernel, "offset", offset.size(),
                     support::numElements(kernel, offsetShape));
  std::vector<int64_t> scaleAt = broadcastIndices(shape, scaleShape);
  std::vector<int64_t> offsetAt = broadcastIndices(shape, offsetShape);
  std::vector<float> result(src.size());
  for (size_t i = 0; i < src.size(); ++i)
    result[i] = dequantizeDynamicValue(src[i], scale[scaleAt[i]],
                                       offset[offsetAt[i]]);
  return result;
}

std::vector<int32_t> quantopt::ref::quantizeDynamic(
    const std::vector<float> &x, const std::vector<int64_t> &shape,
    const std::vector<float> &scale, const std::vector<int64_t> &scaleShape,
    const std::vector<float> &offset, const std::vector<int64_t> &offsetShape,
    int32_t qmin, int32_t qmax) {
  const char *kernel = "quantizeDynamic";
  support::checkSize(kernel, "x", x.size(),
                     support::numElements(kernel, shape));
  support::checkSize(kernel, "scale", scale.size(),
                     support::numElements(kernel, scaleShape));
  support::checkSize(kernel, "offset", offset.size(),
                     support::numElements(kernel, offsetShape));
  if (qmin > qmax)
    fatal(kernel, "empty range [" + str(qmin) + ", " + str(qmax) + "]");
  std::vector<int64_t> scaleAt = broadcastIndices(shape, scaleShape);
  std::vector<int64_t> offsetAt = broadcastIndices(shape, offsetShape);
  std::vector<int32_t> result(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    result[i] = quantizeDynamicValue(x[i], scale[scaleAt[i]],
                                     offset[offsetAt[i]], qmin, qmax);
  return result;
}

DynamicQuantized
quantopt::ref::dynamicQuantizeOnnx(const std::vector<float> &x) {
  float lo = 0.0f, hi = 0.0f;
  for (float v : x) {
    lo = ieeeMinimum(lo, v);
    hi = ieeeMaximum(hi, v);
  }
  float scale = 1.0f;
  if (!(hi == lo)) {
    float range = hi - lo;
    scale = range / 255.0f;
  }
  float ratio = lo / scale;
  float initialZeroPoint = 0.0f - ratio;
  // std::min(255, z) and std::max(0, .) as ONNX Runtime writes them: a NaN
  // z fails both comparisons and yields 255.
  float clamped = initialZeroPoint < 255.0f ? initialZeroPoint : 255.0f;
  clamped = 0.0f < clamped ? clamped : 0.0f;
  int32_t zeroPoint = static_cast<int32_t>(detail::roundHalfEvenFloat(clamped));

  DynamicQuantized result;
  result.scales = {scale};
  result.zeroPoints = {zeroPoint};
  result.codes.resize(x.size());
  const float low = static_cast<float>(-zeroPoint);
  const float high = static_cast<float>(255 - zeroPoint);
  for (size_t i = 0; i < x.size(); ++i) {
    float quotient = x[i] / scale;
    float rounded = detail::roundHalfEvenFloat(quotient);
    int32_t code;
    if (std::isnan(rounded) || rounded <= low)
      code = 0;
    else if (rounded >= high)
      code = 255;
    else
      code = static_cast<int32_t>(rounded) + zeroPoint;
    result.codes[i] = code;
  }
  return result;
}

DynamicQuantized
quantopt::ref::dynamicQuantizeSymmetric(const std::vector<float> &x,
                                        const std::vector<int64_t> &shape,
                                        int64_t axis) {
  const char *kernel = "dynamicQuantizeSymmetric";
  support::checkSize(kernel, "x", x.size(),
                     support::numElements(kernel, shape));
  if (axis < 0 || axis >= int64_t(shape.size()))
    fatal(kernel, "axis " + str(axis) + " out of range for rank " +
                      str(shape.size()));
  int64_t slices = shape[axis];
  int64_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  auto sliceOf = [&](size_t i) { return (int64_t(i) / inner) % slices; };

  std::vector<float> maxAbs(slices, 0.0f);
  for (size_t i = 0; i < x.size(); ++i) {
    float magnitude = std::fabs(x[i]);
    maxAbs[sliceOf(i)] = ieeeMaximum(maxAbs[sliceOf(i)], magnitude);
  }
  DynamicQuantized result;
  result.scales.resize(slices);
  result.zeroPoints.assign(slices, 0);
  for (int64_t s = 0; s < slices; ++s)
    result.scales[s] = maxAbs[s] == 0.0f ? 1.0f : maxAbs[s] / 127.0f;
  result.codes.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    result.codes[i] =
        quantizeDynamicValue(x[i], result.scales[sliceOf(i)], 0.0f, -128, 127);
  return result;
}
