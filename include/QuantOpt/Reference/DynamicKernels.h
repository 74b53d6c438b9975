//===- DynamicKernels.h - Reference kernels of runtime-scale ops -*- C++ -*-===//
//
// Reference implementations of `qnt.dequantize_dynamic`,
// `qnt.quantize_dynamic` and `qnt.dynamic_quantize` (contract "Version 2
// additions", docs/RuntimeScales.md) over flat row-major arrays, in the
// style of Kernels.h: codes are int32_t whatever the element type, every f32
// step is one statement in the order the contract states, and a broken
// invariant (a shape the verifier would reject) prints a message to stderr
// and aborts.
//
// Standard library only, like the rest of the reference model.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_REFERENCE_DYNAMICKERNELS_H
#define QUANTOPT_REFERENCE_DYNAMICKERNELS_H

#include <cstdint>
#include <vector>

namespace quantopt::ref {

//===----------------------------------------------------------------------===//
// Scalar rules
//===----------------------------------------------------------------------===//

/// (f32(code) - offset) * scale, in f32 and in that order. f32(code) rounds
/// half to even (an i32 code beyond 2^24 may not be exact). NaN and
/// infinities propagate as IEEE arithmetic says.
float dequantizeDynamicValue(int32_t code, float scale, float offset);

/// saturate(round_half_even(x / scale) + offset) into [qmin, qmax], in f32:
///   t = x / scale                       (f32 division)
///   r = round_half_even(t); NaN -> 0    (so NaN gives the offset)
///   u = r + offset                      (f32 addition; exact for an
///                                        integral offset whenever the sum
///                                        lies in range)
///   u NaN (only for a NaN offset) -> 0; u clamped to [qmin, qmax];
///   q = round_half_even(u)              (the identity for an integral
///                                        offset; rounds a non-integral one)
/// Infinities saturate.
int32_t quantizeDynamicValue(float x, float scale, float offset, int32_t qmin,
                             int32_t qmax);

/// IEEE 754-2019 minimum / maximum: NaN if either operand is NaN, and
/// -0 < +0.
float ieeeMinimum(float a, float b);
float ieeeMaximum(float a, float b);

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Flat index into a tensor of `paramShape` (each dimension 1 or equal to
/// `shape`'s) for the element at flat index `index` of `shape`: numpy
/// broadcasting on equal ranks. Aborts on ranks or dimensions that do not
/// broadcast.
std::vector<int64_t> broadcastIndices(const std::vector<int64_t> &shape,
                                      const std::vector<int64_t> &paramShape);

/// qnt.dequantize_dynamic: dequantizeDynamicValue per element, `scale` and
/// `offset` broadcast to `shape`.
std::vector<float> dequantizeDynamic(const std::vector<int32_t> &src,
                                     const std::vector<int64_t> &shape,
                                     const std::vector<float> &scale,
                                     const std::vector<int64_t> &scaleShape,
                                     const std::vector<float> &offset,
                                     const std::vector<int64_t> &offsetShape);

/// qnt.quantize_dynamic: quantizeDynamicValue per element into [qmin, qmax]
/// (the result element type's range).
std::vector<int32_t> quantizeDynamic(const std::vector<float> &x,
                                     const std::vector<int64_t> &shape,
                                     const std::vector<float> &scale,
                                     const std::vector<int64_t> &scaleShape,
                                     const std::vector<float> &offset,
                                     const std::vector<int64_t> &offsetShape,
                                     int32_t qmin, int32_t qmax);

/// Results of qnt.dynamic_quantize: codes (shape of x), one scale and one
/// zero point per slice (a single one for mode onnx).
struct DynamicQuantized {
  std::vector<int32_t> codes;
  std::vector<float> scales;
  std::vector<int32_t> zeroPoints;
};

/// mode = "onnx": ONNX DynamicQuantizeLinear as ONNX Runtime computes it
/// (onnxruntime/core/util/qmath.h GetQuantizationParameter, then
/// core/mlas/lib/quantize.cpp MlasQuantizeLinear's vector kernel), u8:
///   lo = minimum(0, x...), hi = maximum(0, x...)     (NaN propagates)
///   scale = hi == lo ? 1 : (hi - lo) / 255
///   zf = 0 - lo / scale
///   zp = round_half_even(max(0, min(255, zf)))  with std::min/std::max
///        argument order, so a NaN zf gives 255
///   code = clamp(round_half_even(x / scale), -zp, 255 - zp) + zp, a NaN
///          quotient giving -zp (code 0), as MINPS/MAXPS and FMAXNM do.
DynamicQuantized dynamicQuantizeOnnx(const std::vector<float> &x);

/// mode = "symmetric": per slice along `axis` of `shape`,
///   m = maximum(0, |x|...)                              (NaN propagates)
///   scale = m == 0 ? 1 : m / 127
///   code = clamp(round_half_even(x / scale), -128, 127), NaN quotient -> 0
/// zero point 0.
DynamicQuantized dynamicQuantizeSymmetric(const std::vector<float> &x,
                                          const std::vector<int64_t> &shape,
                                          int64_t axis);

} // namespace quantopt::ref

#endif // QUANTOPT_REFERENCE_DYNAMICKERNELS_H
