//===- NetworkKernels.h - Reference kernels of whole-network ops -*- C++ -*-===//
//
// Reference implementations of `qnt.add`, `qnt.max_pool2d`, `qnt.avg_pool2d`
// and `qnt.concat` (contract "Version 2 additions", docs/NetworkOps.md) over
// flat row-major arrays, in the style of Kernels.h: codes are int32_t whatever
// the storage type, the loops are the literal formulas, and a broken invariant
// (a shape, parameter or attribute the verifier would reject) prints a message
// to stderr and aborts instead of returning a wrong answer.
//
// Standard library only, like the rest of the reference model.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_REFERENCE_NETWORKKERNELS_H
#define QUANTOPT_REFERENCE_NETWORKKERNELS_H

#include "QuantOpt/Reference/Kernels.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace quantopt::ref {

//===----------------------------------------------------------------------===//
// Add
//===----------------------------------------------------------------------===//

/// TFLite's `left_shift` (tensorflow/lite/kernels/add.cc): 20 for an 8-bit
/// result, 15 for a 16-bit one. Aborts for any other width.
int32_t addLeftShift(unsigned resultStorageBits);

/// The fixed-point parameters of an integer-mode add (add.cc, Prepare):
/// twice_max = 2 * max(S_a, S_b), M_a = S_a / twice_max, M_b = S_b /
/// twice_max, M_out = twice_max / (2^leftShift * S_y), all in double, each
/// quantized by quantizeMultiplier.
struct AddMultipliers {
  int32_t leftShift;
  QuantizedMultiplier a, b, out;
};
AddMultipliers makeAddMultipliers(double scaleA, double scaleB, double scaleY,
                                  unsigned resultStorageBits);

/// y = a + b in real values, numpy broadcasting on equal ranks (each dim of
/// a and b is the result's or 1). Per-tensor parameters only.
///
/// Integer modes (Double, Single, Away, HalfEven), TFLite's integer add with
/// the rounding of `mode` at each multiply:
///   a1 = (a - z_a) << leftShift                 (saturated to int32)
///   sa = multiplyByQuantizedMultiplier(a1, Q(M_a), mode), sb likewise
///   y  = clamp(rescale(sa + sb, Q(M_out)) + z_y, lo, hi)   (as applyRescale)
/// The shift is exact whenever the operands are no wider than the result
/// (|a - z_a| < 2^16 and leftShift 15, or < 2^9 and 20); it saturates only
/// for a 16-bit operand feeding an 8-bit result, where |a1| >= 2^31 - 1 means
/// a real value far outside any 8-bit output, so the output still saturates.
///
/// Float (ONNX Runtime QLinearAdd): r_a = f32(S_a) / f32(S_y), r_b likewise,
/// v = f32(a - z_a) * r_a + f32(b - z_b) * r_b in f32 (no FMA), y =
/// clamp(round_half_even(v) + z_y, lo, hi).
///
/// [lo, hi] is y's storage range narrowed by `clamp` (output codes).
std::vector<int32_t>
add(const std::vector<int32_t> &a, const std::vector<int64_t> &aShape,
    const QuantParams &pa, const std::vector<int32_t> &b,
    const std::vector<int64_t> &bShape, const QuantParams &pb,
    const std::vector<int64_t> &yShape, const QuantParams &py,
    unsigned resultStorageBits, RoundingMode mode,
    std::optional<std::pair<int32_t, int32_t>> clamp = std::nullopt);

//===----------------------------------------------------------------------===//
// Pooling (NHWC)
//===----------------------------------------------------------------------===//

/// Geometry of a 2-D pooling window over an NHWC tensor (padding = [top,
/// bottom, left, right]). Every pad must be smaller than the dilated kernel
/// extent of its dimension, so that every window holds a real element.
struct Pool2DShape {
  int64_t batch, inH, inW, channels, kernelH, kernelW;
  int64_t strideH = 1, strideW = 1, dilationH = 1, dilationW = 1;
  int64_t padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;

  /// windowOutputSize of each dimension; nullopt for invalid geometry.
  std::optional<int64_t> outH() const;
  std::optional<int64_t> outW() const;
};

/// True when the geometry is valid and every output window holds at least
/// one input element. With dilations, pads smaller than the dilated extent
/// are not enough (kernel 2, dilation 5, padTop 2 over 3 rows taps rows -2
/// and 3 only), so callers that do not trust a verifier check this.
bool everyWindowHasInput(const Pool2DShape &s);

/// Max over the real (non-padded) codes of each window. The result has the
/// input's type, so no parameters are involved; padded positions are skipped,
/// never compared, so they cannot win even in an all-negative window.
std::vector<int32_t> maxPool2d(const Pool2DShape &s,
                               const std::vector<int32_t> &x);

/// y = z + round_half_away_from_zero(sum(q - z) / count), clamped to the
/// storage range, by exact int64 division. count is the number of window
/// positions inside the input, or kernelH * kernelW when countIncludePad
/// (padded positions then add q - z = 0). p is per tensor or per axis on
/// dimension 3 (z of the element's channel). Dilations must be 1.
/// `ties` is RoundingMode::Away (TFLite's rule) or RoundingMode::HalfEven
/// (a tie of the quotient goes to the even neighbour); other modes are a
/// fatal error, as they round no exact quotient.
std::vector<int32_t> avgPool2d(const Pool2DShape &s,
                               const std::vector<int32_t> &x,
                               const QuantParams &p, bool countIncludePad,
                               RoundingMode ties = RoundingMode::Away);

//===----------------------------------------------------------------------===//
// Concat
//===----------------------------------------------------------------------===//

/// Concatenation along `axis`. All inputs have the result's rank and dims
/// except along axis, whose result size is the sum. Inputs share the
/// result's storage type (width and signedness; QuantParams only holds the
/// range, so the caller checks it; narrow and full ranges may mix). An input whose (per
/// tensor) scale or zero point differs from the result's is requantized to
/// it exactly as `requantize` does (rounding `mode`, storage range, no
/// clamp); the others are copied bit for bit.
std::vector<int32_t>
concat(const std::vector<std::vector<int32_t>> &inputs,
       const std::vector<std::vector<int64_t>> &shapes,
       const std::vector<QuantParams> &params, int64_t axis,
       const QuantParams &result, RoundingMode mode);

} // namespace quantopt::ref

#endif // QUANTOPT_REFERENCE_NETWORKKERNELS_H
