// A/B timing of the GEMM / conv kernels of two builds of bench.mlir in one
// process (bench/ab-kernels.sh). The two builds' functions are renamed A_*
// and B_*; each round times A then B (best of `reps` calls each, thread CPU
// time), and the table shows the best times and the median of the per-round
// ratios, which a shared machine disturbs less than two separate runs.
// Outputs are compared bit for bit between A and B.
#include "bench.h"
#include "memref.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <malloc.h>
#include <vector>

using M2 = Memref<int8_t, 2>;
using M4 = Memref<int8_t, 4>;

extern "C" {
#define DECLARE(P)                                                             \
  void P##_mlir_ciface_mm_64x1024x1024(M2 *, M2 *);                            \
  void P##_mlir_ciface_mm_256x256x256(M2 *, M2 *);                             \
  void P##_mlir_ciface_mm_1024x1024x1024(M2 *, M2 *);                          \
  void P##_mlir_ciface_conv(M4 *, M4 *);
DECLARE(A_)
DECLARE(B_)
}

namespace {

double now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

double best(const std::function<void()> &f, int reps) {
  double b = 1e9;
  for (int i = 0; i < reps; ++i) {
    double t0 = now();
    f();
    b = std::min(b, now() - t0);
  }
  return b;
}

struct Kernel {
  const char *name;
  int reps;
  size_t outBytes;
  std::function<void(bool, int8_t *)> call; // false: A, true: B
};

} // namespace

int main(int argc, char **argv) {
  // Keep freed results mapped, as bench/driver.cpp does.
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  mallopt(M_MMAP_THRESHOLD, 1 << 30);
  int rounds = argc > 1 ? std::atoi(argv[1]) : 11;
  std::vector<int8_t> x(1024 * 1024), xc(size_t(BENCH_CONV_H) * BENCH_CONV_W *
                                         BENCH_CONV_C);
  uint32_t state = 1;
  for (auto *v : {&x, &xc})
    for (int8_t &e : *v)
      e = static_cast<int8_t>((state = state * 1664525u + 1013904223u) >> 24);
  auto mm = [&](int m, int k, int n, void (*a)(M2 *, M2 *),
                void (*b)(M2 *, M2 *)) {
    return [=, &x](bool useB, int8_t *copy) {
      auto in = view<int8_t, 2>(x.data(), {m, k});
      M2 out{};
      (useB ? b : a)(&out, &in);
      if (copy)
        std::memcpy(copy, out.aligned, size_t(m) * n);
      std::free(out.allocated);
    };
  };
  const int oh = BENCH_CONV_H + 2 * BENCH_CONV_PAD - BENCH_CONV_KH + 1,
            ow = BENCH_CONV_W + 2 * BENCH_CONV_PAD - BENCH_CONV_KW + 1;
  std::vector<Kernel> kernels = {
      {"64x1024x1024", 60, 64 * 1024,
       mm(64, 1024, 1024, A__mlir_ciface_mm_64x1024x1024,
          B__mlir_ciface_mm_64x1024x1024)},
      {"256^3", 200, 256 * 256,
       mm(256, 256, 256, A__mlir_ciface_mm_256x256x256,
          B__mlir_ciface_mm_256x256x256)},
      {"1024^3", 5, 1024 * 1024,
       mm(1024, 1024, 1024, A__mlir_ciface_mm_1024x1024x1024,
          B__mlir_ciface_mm_1024x1024x1024)},
      {"conv", 40, size_t(oh) * ow * BENCH_CONV_F,
       [&](bool useB, int8_t *copy) {
         auto in = view<int8_t, 4>(
             xc.data(), {1, BENCH_CONV_H, BENCH_CONV_W, BENCH_CONV_C});
         M4 out{};
         (useB ? B__mlir_ciface_conv : A__mlir_ciface_conv)(&out, &in);
         if (copy)
           std::memcpy(copy, out.aligned, size_t(oh) * ow * BENCH_CONV_F);
         std::free(out.allocated);
       }},
  };
  int status = 0;
  std::printf("%-14s %10s %10s %9s %11s  %s\n", "kernel", "A ms", "B ms",
              "best A/B", "median A/B", "same bits");
  for (Kernel &k : kernels) {
    std::vector<int8_t> ya(k.outBytes), yb(k.outBytes);
    k.call(false, ya.data());
    k.call(true, yb.data());
    bool same = ya == yb;
    status |= same ? 0 : 1;
    double ba = 1e9, bb = 1e9;
    std::vector<double> ratios;
    for (int r = 0; r < rounds; ++r) {
      double ta = best([&] { k.call(false, nullptr); }, k.reps);
      double tb = best([&] { k.call(true, nullptr); }, k.reps);
      ba = std::min(ba, ta);
      bb = std::min(bb, tb);
      ratios.push_back(ta / tb);
    }
    std::sort(ratios.begin(), ratios.end());
    std::printf("%-14s %10.4f %10.4f %9.3f %11.3f  %s\n", k.name, ba * 1e3,
                bb * 1e3, ba / bb, ratios[ratios.size() / 2],
                same ? "yes" : "NO");
  }
  std::printf("A/B > 1: B is faster.\n");
  return status;
}
