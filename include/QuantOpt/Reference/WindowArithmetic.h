//===- WindowArithmetic.h - checked shape math for sliding windows -*- C++ -*-===//
//
// The one place where convolution and pooling geometry is computed. Every
// step is checked in int64: a shape whose arithmetic overflows, or a window
// that does not fit its padded input, yields nullopt instead of a wrapped
// number, so that the verifiers, the reference kernels and the lowerings
// agree and none of them can be fooled by a dilation of 2^62.
//
// Standard library only (the reference model links no MLIR).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_REFERENCE_WINDOWARITHMETIC_H
#define QUANTOPT_REFERENCE_WINDOWARITHMETIC_H

#include <cstdint>
#include <initializer_list>
#include <optional>

namespace quantopt::ref {

inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_add_overflow(a, b, &result))
    return std::nullopt;
  return result;
}

inline std::optional<int64_t> checkedSub(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_sub_overflow(a, b, &result))
    return std::nullopt;
  return result;
}

inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_mul_overflow(a, b, &result))
    return std::nullopt;
  return result;
}

/// Product of sizes (e.g. a tensor's element count); nullopt when a factor
/// is negative or the product overflows int64.
inline std::optional<int64_t>
checkedProduct(std::initializer_list<int64_t> sizes) {
  int64_t result = 1;
  for (int64_t size : sizes) {
    std::optional<int64_t> next =
        size < 0 ? std::nullopt : checkedMul(result, size);
    if (!next)
      return std::nullopt;
    result = *next;
  }
  return result;
}

/// Extent of a dilated kernel: dilation * (kernel - 1) + 1. nullopt when
/// kernel < 1, dilation < 1 or on overflow.
inline std::optional<int64_t> dilatedKernelExtent(int64_t kernel,
                                                  int64_t dilation) {
  if (kernel < 1 || dilation < 1)
    return std::nullopt;
  std::optional<int64_t> span = checkedMul(dilation, kernel - 1);
  return span ? checkedAdd(*span, 1) : std::nullopt;
}

/// Output size of one sliding-window dimension:
///   (in + padBefore + padAfter - dilation * (kernel - 1) - 1) / stride + 1.
/// nullopt when an argument is out of range (in < 0, negative padding,
/// kernel, stride or dilation < 1), when a step overflows int64, or when
/// the dilated kernel does not fit the padded input (no output position).
inline std::optional<int64_t> windowOutputSize(int64_t in, int64_t padBefore,
                                               int64_t padAfter, int64_t kernel,
                                               int64_t stride,
                                               int64_t dilation) {
  if (in < 0 || padBefore < 0 || padAfter < 0 || stride < 1)
    return std::nullopt;
  std::optional<int64_t> extent = dilatedKernelExtent(kernel, dilation);
  std::optional<int64_t> padded = checkedAdd(in, padBefore);
  if (padded)
    padded = checkedAdd(*padded, padAfter);
  if (!extent || !padded || *padded < *extent)
    return std::nullopt;
  return (*padded - *extent) / stride + 1;
}

} // namespace quantopt::ref

#endif // QUANTOPT_REFERENCE_WINDOWARITHMETIC_H
