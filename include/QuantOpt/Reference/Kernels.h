//===- Kernels.h - Reference quantized kernels ------------------*- C++ -*-===//
//
// Straightforward, obviously-correct implementations of the public `qnt` ops
// over flat row-major arrays. The constant folders evaluate ops with them and
// the tests use them as the oracle for compiled code, so they favour clarity
// over speed and accumulate in int64.
//
// Codes are held in int32_t whatever the storage type (i8, u8, i16, i32).
// Inputs that break an op's invariants (mismatched sizes, an accumulator that
// leaves int32) are programming errors: the verifier rejects such IR before
// it reaches these functions, so the kernels print a message naming the
// problem to stderr and abort rather than return a wrong answer.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_REFERENCE_KERNELS_H
#define QUANTOPT_REFERENCE_KERNELS_H

#include "QuantOpt/Reference/FixedPoint.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace quantopt::ref {

/// Quantization parameters of one tensor, per tensor or per axis.
struct QuantParams {
  /// 1 (per tensor) or dim(axis) entries.
  std::vector<double> scales;
  /// Same count as scales.
  std::vector<int32_t> zeroPoints;
  /// -1: per tensor.
  int32_t axis = -1;
  /// Storage range (narrow ranges included), e.g. [-127, 127].
  int32_t storageMin = 0, storageMax = 0;

  static QuantParams perTensor(double scale, int32_t zeroPoint,
                               int32_t storageMin, int32_t storageMax);
  static QuantParams perAxis(int32_t axis, std::vector<double> scales,
                             std::vector<int32_t> zeroPoints,
                             int32_t storageMin, int32_t storageMax);

  bool isPerAxis() const { return axis >= 0; }
  /// The channel is ignored per tensor.
  double scale(int64_t channel) const;
  int32_t zeroPoint(int64_t channel) const;
};

/// q = clamp(round_half_even(x / s) + z, storageMin, storageMax) per element
/// (see quantizeValue), with s and z of the element's channel along p.axis.
std::vector<int32_t> quantize(const std::vector<float> &x,
                              const std::vector<int64_t> &shape,
                              const QuantParams &p);

/// r = (f32(q) - f32(z)) * f32(s) per element (see dequantizeValue).
std::vector<float> dequantize(const std::vector<int32_t> &q,
                              const std::vector<int64_t> &shape,
                              const QuantParams &p);

/// y = clamp(rescale(q - z_in, S_in / S_out) + z_out, lo, hi), per channel
/// where either side is per axis (both on the same axis if both are).
/// [lo, hi] is out's storage range, narrowed by `clamp` (output codes, e.g.
/// a fused ReLU6). q - z_in saturates to int32 (it can only leave int32 for
/// an i32 input with a nonzero zero point, which the contract excludes).
std::vector<int32_t>
requantize(const std::vector<int32_t> &q, const std::vector<int64_t> &shape,
           const QuantParams &in, const QuantParams &out, RoundingMode mode,
           std::optional<std::pair<int32_t, int32_t>> clamp = std::nullopt);

/// acc[m,n] = sum_k (x[m,k] - zx) * (w[k,n] - zw[n]) + bias[n].
/// x is m x k, w is k x n; zw has 1 or n entries; bias is empty or has n
/// entries. The product sum is exact (int64); a product sum outside int32 is
/// an invariant violation (the verifier rejects shapes whose worst case
/// overflows): it prints the element to stderr and aborts. The bias is then
/// added with i32 saturation, which only a runtime (non-constant) bias can
/// reach, since the verifier's bound includes a constant bias.
std::vector<int32_t> matmul(int64_t m, int64_t k, int64_t n,
                            const std::vector<int32_t> &x, int32_t zx,
                            const std::vector<int32_t> &w,
                            const std::vector<int32_t> &zw,
                            const std::vector<int32_t> &bias);

/// Geometry of a 2-D convolution (padding = [top, bottom, left, right]).
struct Conv2DShape {
  int64_t batch, inH, inW, inC, kernelH, kernelW, outC;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0, groups = 1;

  /// (in + pads - dilation * (k - 1) - 1) / stride + 1, or 0 when the
  /// dilated kernel does not fit in the padded input (also 0 when the
  /// arithmetic leaves int64 or an argument is invalid).
  int64_t outH() const;
  int64_t outW() const;
  /// The same, but nullopt when a step overflows int64 or an argument is out
  /// of range (kernel, stride or dilation < 1, negative size or padding).
  std::optional<int64_t> checkedOutH() const;
  std::optional<int64_t> checkedOutW() const;
};

/// Direct convolution. X is NHWC (batch x inH x inW x inC), W is HWCF
/// (kernelH x kernelW x inC/groups x outC), the result NHWF (batch x outH x
/// outW x outC). Filter f belongs to group f / (outC / groups) and reads input
/// channels [g * inC/groups, (g + 1) * inC/groups); depthwise is groups ==
/// inC. Padded positions hold real 0, i.e. the code zx, so they contribute
/// nothing (never raw code 0). zw has 1 or outC entries; bias is empty or has
/// outC entries. Overflow and the bias follow matmul's rules.
std::vector<int32_t> conv2d(const Conv2DShape &s, const std::vector<int32_t> &x,
                            int32_t zx, const std::vector<int32_t> &w,
                            const std::vector<int32_t> &zw,
                            const std::vector<int32_t> &bias);

} // namespace quantopt::ref

#endif // QUANTOPT_REFERENCE_KERNELS_H
