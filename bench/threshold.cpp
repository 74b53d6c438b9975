// Driver of bench/threshold-sweep.sh: wall-clock time of each kernel of the
// sweep module, serial build (serial_*) next to the build whose every
// marked loop runs in parallel, on OMP_NUM_THREADS threads.

#include "memref.h"
#include "sweep.h"

#include <malloc.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <vector>

extern "C" {
#define DECLARE_MM(M, K, N)                                                    \
  void _mlir_ciface_mm_##M##_##K##_##N(Memref<int8_t, 2> *,                    \
                                       Memref<int8_t, 2> *);                   \
  void _mlir_ciface_serial_mm_##M##_##K##_##N(Memref<int8_t, 2> *,             \
                                              Memref<int8_t, 2> *);
MMS(DECLARE_MM)
#undef DECLARE_MM
#define DECLARE_Q(E)                                                           \
  void _mlir_ciface_q_##E(Memref<int8_t, 1> *, Memref<float, 1> *);            \
  void _mlir_ciface_serial_q_##E(Memref<int8_t, 1> *, Memref<float, 1> *);
QS(DECLARE_Q)
#undef DECLARE_Q
}

namespace {

double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

/// The fastest of many single calls (about 0.3 s of them, at least 20): on
/// a shared machine, a call that ran while every thread had a core.
double timeCall(const std::function<void()> &f) {
  f();
  double best = 1e9, total = 0;
  for (int calls = 0; calls < 20 || total < 0.3; ++calls) {
    double start = now();
    f();
    double t = now() - start;
    best = std::min(best, t);
    total += t;
  }
  return best;
}

void row(const char *name, double serial, double parallel) {
  std::printf("%-22s %10.2f %10.2f %8.2fx\n", name, serial * 1e6,
              parallel * 1e6, serial / parallel);
}

} // namespace

int main() {
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::printf("threads: %d; fork + join of an empty region: %.2f us\n",
              omp_get_max_threads(), 1e6 * timeCall([] {
#pragma omp parallel
                                { asm volatile(""); }
                              }));
  std::printf("%-22s %10s %10s %9s\n", "kernel", "serial us", "parallel us",
              "speedup");
  std::vector<int8_t> x(1 << 20, 3);
  std::vector<float> xf(1 << 20, 1.5f);
  char name[64];
#define RUN_MM(M, K, N)                                                        \
  {                                                                            \
    auto in = view<int8_t, 2>(x.data(), {M, K});                               \
    auto call = [&](auto f) {                                                  \
      return timeCall([&] {                                                    \
        Memref<int8_t, 2> o{};                                                 \
        f(&o, &in);                                                            \
        std::free(o.allocated);                                                \
      });                                                                      \
    };                                                                         \
    std::snprintf(name, sizeof name, "matmul %dx%dx%d", M, K, N);              \
    row(name, call(_mlir_ciface_serial_mm_##M##_##K##_##N),                    \
        call(_mlir_ciface_mm_##M##_##K##_##N));                                \
  }
  MMS(RUN_MM)
#undef RUN_MM
#define RUN_Q(E)                                                               \
  {                                                                            \
    auto in = view<float, 1>(xf.data(), {E});                                  \
    auto call = [&](auto f) {                                                  \
      return timeCall([&] {                                                    \
        Memref<int8_t, 1> o{};                                                 \
        f(&o, &in);                                                            \
        std::free(o.allocated);                                                \
      });                                                                      \
    };                                                                         \
    std::snprintf(name, sizeof name, "quantize %d", E);                        \
    row(name, call(_mlir_ciface_serial_q_##E), call(_mlir_ciface_q_##E));     \
  }
  QS(RUN_Q)
#undef RUN_Q
  return 0;
}
