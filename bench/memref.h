// The C view of a ranked memref (MLIR's C interface, `_mlir_ciface_*`), shared
// by the benchmark drivers.
#pragma once

#include <cstdint>
#include <initializer_list>

template <typename T, int N> struct Memref {
  T *allocated;
  T *aligned;
  int64_t offset;
  int64_t sizes[N];
  int64_t strides[N];
};

/// A row-major view of `data` with `shape`.
template <typename T, int N>
Memref<T, N> view(T *data, std::initializer_list<int64_t> shape) {
  Memref<T, N> m{};
  m.allocated = m.aligned = data;
  int i = 0;
  for (int64_t s : shape)
    m.sizes[i++] = s;
  int64_t stride = 1;
  for (int d = N - 1; d >= 0; --d) {
    m.strides[d] = stride;
    stride *= m.sizes[d];
  }
  return m;
}
