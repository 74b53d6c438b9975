// Threads mode of the quant-opt benchmark (bench/run-bench.sh --threads).
//
// Links the benchmark module twice: compiled with --qnt-to-llvm="threads=1"
// (serial code, its symbols renamed serial_*) and with "threads=0" (OpenMP
// work-sharing loops, thread count chosen at run time). For every kernel it
// prints the wall-clock time of the serial code, of the parallel code on 1
// thread and on T threads (all cores, or OMP_NUM_THREADS), the speedup, and
// oneDNN's s8s8s8 primitive on 1 and on T threads in the same process. It
// checks that the parallel code gives the serial code's bits on 1, 2, 3 and
// T threads. One OpenMP runtime serves both: run-bench.sh puts LLVM's
// libgomp.so.1 (which is libomp) first, so oneDNN's OpenMP calls land in the
// same libomp as ours.

#include "bench.h"
#include "memref.h"
#include "onednn.h"

#include <link.h>
#include <malloc.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <limits>
#include <string>
#include <vector>

extern "C" {
#define DECLARE_MM(M, K, N, NAME, SEED)                                        \
  void _mlir_ciface_##NAME(Memref<int8_t, 2> *, Memref<int8_t, 2> *);          \
  void _mlir_ciface_serial_##NAME(Memref<int8_t, 2> *, Memref<int8_t, 2> *);
BENCH_MATMULS(DECLARE_MM)
#undef DECLARE_MM
#define DECLARE_BOTH(NAME, ...)                                                \
  void _mlir_ciface_##NAME(__VA_ARGS__);                                       \
  void _mlir_ciface_serial_##NAME(__VA_ARGS__);
DECLARE_BOTH(conv, Memref<int8_t, 4> *, Memref<int8_t, 4> *)
DECLARE_BOTH(conv_dw, Memref<int8_t, 4> *, Memref<int8_t, 4> *)
DECLARE_BOTH(mm_rt_256x256x256, Memref<int8_t, 2> *, Memref<int8_t, 2> *,
             Memref<int8_t, 2> *)
DECLARE_BOTH(quantize_i8, Memref<int8_t, 1> *, Memref<float, 1> *)
DECLARE_BOTH(dequantize_i8, Memref<float, 1> *, Memref<int8_t, 1> *)
DECLARE_BOTH(add, Memref<int8_t, 4> *, Memref<int8_t, 4> *,
             Memref<int8_t, 4> *)
DECLARE_BOTH(maxpool, Memref<int8_t, 4> *, Memref<int8_t, 4> *)
struct NetworkResult {
  Memref<int8_t, 2> logits;
  Memref<float, 2> real;
};
DECLARE_BOTH(forward, NetworkResult *, Memref<float, 4> *)
#undef DECLARE_BOTH
}

namespace {

constexpr int32_t kInputZeroPoint = 5, kOutputZeroPoint = -3;
constexpr float kOutputScale = 1.0f / 4096; // M = 2^-12 (gen-bench.py)

/// The LCG of gen-bench.py.
struct Lcg {
  uint32_t x;
  explicit Lcg(uint32_t seed) : x(seed) {}
  uint32_t next() { return x = 1664525u * x + 1013904223u; }
  int8_t weight() { return int8_t(int((next() >> 16) % 255) - 127); }
  int32_t bias() { return int32_t((next() >> 8) % 40001) - 20000; }
  int8_t code() { return int8_t(next() >> 24); }
};

/// Wall-clock time: with several threads, CPU time would add theirs up.
double now() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

/// The fastest of many single calls (`budget` seconds of them, at least
/// 20): on a shared machine, a call that ran while every thread had a core.
/// Upper bounds of what the code does on an idle machine.
double timeCall(const std::function<void()> &f, double budget) {
  f(); // warm up (first touch, caches, thread pool)
  double best = std::numeric_limits<double>::max(), total = 0;
  for (int calls = 0; calls < 20 || total < budget; ++calls) {
    double start = now();
    f();
    double t = now() - start;
    best = std::min(best, t);
    total += t;
  }
  return best;
}

template <typename T, int N> std::vector<char> bytesOf(const Memref<T, N> &m) {
  size_t count = 1;
  for (int d = 0; d < N; ++d)
    count *= size_t(m.sizes[d]);
  const char *p = reinterpret_cast<const char *>(m.aligned + m.offset);
  return std::vector<char>(p, p + count * sizeof(T));
}

/// One kernel: runs the serial or the parallel build, returning its output
/// bytes when `keep`.
struct Kernel {
  std::string name;
  double ops = 0; // 2 x MACs; 0 for memory-bound rows
  std::function<std::vector<char>(bool parallel, bool keep)> run;
  /// oneDNN's s8s8s8 peer on the same inputs, or empty.
  std::function<OnednnResult(const OnednnTimer &)> onednn;
};

template <typename T, int N, typename Call>
std::function<std::vector<char>(bool, bool)> runner(Call serial,
                                                    Call parallel) {
  return [=](bool par, bool keep) {
    Memref<T, N> out{};
    (par ? parallel : serial)(&out);
    std::vector<char> bytes;
    if (keep)
      bytes = bytesOf(out);
    std::free(out.allocated);
    return bytes;
  };
}

/// Data that must outlive the kernels' closures.
struct Inputs {
  std::vector<std::vector<int8_t>> i8;
  std::vector<std::vector<int32_t>> i32;
  std::vector<std::vector<float>> f32;
};

/// Whether the GNU OpenMP runtime (rather than libomp's libgomp.so.1) is
/// loaded: then oneDNN and ours would run two thread pools.
bool gnuOpenmpLoaded() {
  bool found = false;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *data) {
        char real[4096];
        if (info->dlpi_name && realpath(info->dlpi_name, real) &&
            std::strstr(real, "libgomp.so"))
          *static_cast<bool *>(data) = true;
        return 0;
      },
      &found);
  return found;
}

std::vector<Kernel> makeKernels(Inputs &in) {
  std::vector<Kernel> kernels;
  Lcg data(777);
  auto keepI8 = [&](std::vector<int8_t> v) -> std::vector<int8_t> & {
    in.i8.push_back(std::move(v));
    return in.i8.back();
  };
  in.i8.reserve(64);
  in.i32.reserve(64);
  in.f32.reserve(64);

  auto matmul = [&](const char *name, int m, int k, int n, uint32_t seed,
                    auto serial, auto parallel) {
    Lcg gen(seed);
    std::vector<int8_t> w(size_t(k) * n), x(size_t(m) * k);
    std::vector<int32_t> b(n);
    for (auto &v : w)
      v = gen.weight();
    for (auto &v : b)
      v = gen.bias();
    for (auto &v : x)
      v = data.code();
    int8_t *xs = keepI8(std::move(x)).data();
    int8_t *ws = keepI8(std::move(w)).data();
    in.i32.push_back(std::move(b));
    int32_t *bs = in.i32.back().data();
    Kernel kernel;
    kernel.name = name;
    kernel.ops = 2.0 * m * k * n;
    auto input = view<int8_t, 2>(xs, {m, k});
    kernel.run = runner<int8_t, 2>(
        std::function<void(Memref<int8_t, 2> *)>(
            [=](Memref<int8_t, 2> *o) mutable { serial(o, &input); }),
        std::function<void(Memref<int8_t, 2> *)>(
            [=](Memref<int8_t, 2> *o) mutable { parallel(o, &input); }));
    kernel.onednn = [=](const OnednnTimer &timer) {
      std::vector<int8_t> y(size_t(m) * n);
      return onednnMatmul(m, k, n, false, xs, kInputZeroPoint, ws, bs,
                          kOutputScale, kOutputZeroPoint, y.data(), false,
                          timer);
    };
    kernels.push_back(kernel);
  };
#define MM(M, K, N, NAME, SEED)                                                \
  matmul("matmul " #M "x" #K "x" #N, M, K, N, SEED, _mlir_ciface_serial_##NAME, \
         _mlir_ciface_##NAME);
  BENCH_MATMULS(MM)
#undef MM

  auto conv = [&](const char *name, int h, int wd, int c, int kh, int kw,
                  int f, int pad, int groups, uint32_t seed, auto serial,
                  auto parallel) {
    int oh = h + 2 * pad - kh + 1, ow = wd + 2 * pad - kw + 1;
    Lcg gen(seed);
    std::vector<int8_t> w(size_t(kh) * kw * (c / groups) * f),
        x(size_t(h) * wd * c);
    std::vector<int32_t> b(f);
    for (auto &v : w)
      v = gen.weight();
    for (auto &v : b)
      v = gen.bias();
    for (auto &v : x)
      v = data.code();
    int8_t *xs = keepI8(std::move(x)).data();
    int8_t *ws = keepI8(std::move(w)).data();
    in.i32.push_back(std::move(b));
    int32_t *bs = in.i32.back().data();
    Kernel kernel;
    kernel.name = name;
    kernel.ops = 2.0 * oh * ow * f * kh * kw * (c / groups);
    auto input = view<int8_t, 4>(xs, {1, h, wd, c});
    kernel.run = runner<int8_t, 4>(
        std::function<void(Memref<int8_t, 4> *)>(
            [=](Memref<int8_t, 4> *o) mutable { serial(o, &input); }),
        std::function<void(Memref<int8_t, 4> *)>(
            [=](Memref<int8_t, 4> *o) mutable { parallel(o, &input); }));
    kernel.onednn = [=](const OnednnTimer &timer) {
      std::vector<int8_t> y(size_t(oh) * ow * f);
      return onednnConv(h, wd, c, kh, kw, f, pad, groups, false, xs,
                        kInputZeroPoint, ws, bs, kOutputScale,
                        kOutputZeroPoint, y.data(), timer);
    };
    kernels.push_back(kernel);
  };
  conv("conv 56x56x64 3x3 -> 64", BENCH_CONV_H, BENCH_CONV_W, BENCH_CONV_C,
       BENCH_CONV_KH, BENCH_CONV_KW, BENCH_CONV_F, BENCH_CONV_PAD, 1,
       BENCH_CONV_SEED, _mlir_ciface_serial_conv, _mlir_ciface_conv);
  conv("depthwise 56x56x64 3x3", BENCH_DW_H, BENCH_DW_W, BENCH_DW_C,
       BENCH_DW_KH, BENCH_DW_KW, BENCH_DW_C, BENCH_DW_PAD, BENCH_DW_C,
       BENCH_DW_SEED, _mlir_ciface_serial_conv_dw, _mlir_ciface_conv_dw);

  {
    // Run-time weights: both operands are arguments.
    std::vector<int8_t> x(size_t(BENCH_RT_M) * BENCH_RT_K),
        w(size_t(BENCH_RT_K) * BENCH_RT_N);
    for (auto &v : w)
      v = data.weight();
    for (auto &v : x)
      v = data.code();
    auto xi = view<int8_t, 2>(keepI8(std::move(x)).data(),
                              {BENCH_RT_M, BENCH_RT_K});
    auto wi = view<int8_t, 2>(keepI8(std::move(w)).data(),
                              {BENCH_RT_K, BENCH_RT_N});
    Kernel kernel;
    kernel.name = "matmul 256^3, run-time weights";
    kernel.ops = 2.0 * BENCH_RT_M * BENCH_RT_K * BENCH_RT_N;
    kernel.run = runner<int8_t, 2>(
        std::function<void(Memref<int8_t, 2> *)>(
            [=](Memref<int8_t, 2> *o) mutable {
              _mlir_ciface_serial_mm_rt_256x256x256(o, &xi, &wi);
            }),
        std::function<void(Memref<int8_t, 2> *)>(
            [=](Memref<int8_t, 2> *o) mutable {
              _mlir_ciface_mm_rt_256x256x256(o, &xi, &wi);
            }));
    kernels.push_back(kernel);
  }

  const long n = BENCH_ELEMENTS;
  {
    std::vector<float> xf(n);
    for (long i = 0; i < n; ++i)
      xf[i] = (float(data.next() >> 8) / float(1 << 24) - 0.5f) * 16.0f;
    in.f32.push_back(std::move(xf));
    auto fin = view<float, 1>(in.f32.back().data(), {n});
    Kernel kernel;
    kernel.name = "quantize f32->i8 4Mi";
    kernel.run = runner<int8_t, 1>(
        std::function<void(Memref<int8_t, 1> *)>(
            [=](Memref<int8_t, 1> *o) mutable {
              _mlir_ciface_serial_quantize_i8(o, &fin);
            }),
        std::function<void(Memref<int8_t, 1> *)>(
            [=](Memref<int8_t, 1> *o) mutable {
              _mlir_ciface_quantize_i8(o, &fin);
            }));
    kernels.push_back(kernel);
  }
  {
    std::vector<int8_t> q(n);
    for (auto &v : q)
      v = data.code();
    auto qin = view<int8_t, 1>(keepI8(std::move(q)).data(), {n});
    Kernel kernel;
    kernel.name = "dequantize i8->f32 4Mi";
    kernel.run = runner<float, 1>(
        std::function<void(Memref<float, 1> *)>(
            [=](Memref<float, 1> *o) mutable {
              _mlir_ciface_serial_dequantize_i8(o, &qin);
            }),
        std::function<void(Memref<float, 1> *)>(
            [=](Memref<float, 1> *o) mutable {
              _mlir_ciface_dequantize_i8(o, &qin);
            }));
    kernels.push_back(kernel);
  }
  {
    const long count = long(BENCH_ADD_N) * BENCH_ADD_H * BENCH_ADD_W * BENCH_ADD_C;
    std::vector<int8_t> a(count), b(count);
    for (auto &v : a)
      v = data.code();
    for (auto &v : b)
      v = data.code();
    auto shape = {int64_t(BENCH_ADD_N), int64_t(BENCH_ADD_H),
                  int64_t(BENCH_ADD_W), int64_t(BENCH_ADD_C)};
    auto ia = view<int8_t, 4>(keepI8(std::move(a)).data(), shape);
    auto ib = view<int8_t, 4>(keepI8(std::move(b)).data(), shape);
    Kernel kernel;
    kernel.name = "add i8 1x56x56x64";
    kernel.run = runner<int8_t, 4>(
        std::function<void(Memref<int8_t, 4> *)>(
            [=](Memref<int8_t, 4> *o) mutable {
              _mlir_ciface_serial_add(o, &ia, &ib);
            }),
        std::function<void(Memref<int8_t, 4> *)>(
            [=](Memref<int8_t, 4> *o) mutable {
              _mlir_ciface_add(o, &ia, &ib);
            }));
    kernels.push_back(kernel);
  }
  {
    std::vector<int8_t> x(size_t(BENCH_POOL_H) * BENCH_POOL_W * BENCH_POOL_C);
    for (auto &v : x)
      v = data.code();
    auto xi = view<int8_t, 4>(keepI8(std::move(x)).data(),
                              {1, BENCH_POOL_H, BENCH_POOL_W, BENCH_POOL_C});
    Kernel kernel;
    kernel.name = "max_pool 3x3 s2 1x112x112x64";
    kernel.run = runner<int8_t, 4>(
        std::function<void(Memref<int8_t, 4> *)>(
            [=](Memref<int8_t, 4> *o) mutable {
              _mlir_ciface_serial_maxpool(o, &xi);
            }),
        std::function<void(Memref<int8_t, 4> *)>(
            [=](Memref<int8_t, 4> *o) mutable {
              _mlir_ciface_maxpool(o, &xi);
            }));
    kernels.push_back(kernel);
  }
  {
    // The example network (examples/tiny-cnn.mlir): small layers only.
    std::vector<float> input(1 * 6 * 6 * 2);
    for (auto &v : input)
      v = float(int(data.next() >> 24) - 128) / 128.0f;
    in.f32.push_back(std::move(input));
    auto xi = view<float, 4>(in.f32.back().data(), {1, 6, 6, 2});
    Kernel kernel;
    kernel.name = "example network (tiny-cnn)";
    kernel.run = [=](bool par, bool keep) mutable {
      NetworkResult r{};
      (par ? _mlir_ciface_forward : _mlir_ciface_serial_forward)(&r, &xi);
      std::vector<char> bytes;
      if (keep) {
        bytes = bytesOf(r.logits);
        std::vector<char> real = bytesOf(r.real);
        bytes.insert(bytes.end(), real.begin(), real.end());
      }
      std::free(r.logits.allocated);
      std::free(r.real.allocated);
      return bytes;
    };
    kernels.push_back(kernel);
  }
  return kernels;
}

/// Seconds per fork and join of an empty parallel region on the current
/// thread count: what qnt-parallelize-tiles' threshold must outweigh.
double forkJoinSeconds(double budget) {
  return timeCall(
      [] {
#pragma omp parallel
        { asm volatile(""); }
      },
      budget);
}

} // namespace

int main(int argc, char **argv) {
  double budget = argc > 1 ? std::atof(argv[1]) : 1.0; // seconds per timing
  // As in driver.cpp: keep freed blocks in the heap (no page faults per call).
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  const int all = omp_get_max_threads();
  Inputs inputs;
  std::vector<Kernel> kernels = makeKernels(inputs);
  OnednnTimer timer = [&](const std::function<void()> &f) {
    return timeCall(f, budget);
  };

  std::printf("Threads: T = %d (omp_get_max_threads: all cores unless "
              "OMP_NUM_THREADS); %s.\n",
              all,
              gnuOpenmpLoaded()
                  ? "WARNING: GNU libgomp is loaded too (two thread pools)"
                  : "one OpenMP runtime (LLVM libomp) for ours and oneDNN");
  std::printf("%s; wall clock, fastest single call.\n",
              onednnDescription().c_str());
  for (int t : {2, all}) {
    omp_set_num_threads(t);
    std::printf("fork + join of an empty parallel region on %d threads: "
                "%.2f us\n",
                t, forkJoinSeconds(budget) * 1e6);
  }
  std::printf("%-31s %9s %9s %9s %7s | %9s %9s %7s | %7s | %s\n", "kernel",
              "serial", "par 1thr", "par T", "speedup", "dnnl 1", "dnnl T",
              "speedup", "ours/", "same bits at");
  std::printf("%-31s %9s %9s %9s %7s | %9s %9s %7s | %7s | %s\n", "", "ms",
              "ms", "ms", "", "ms", "ms", "", "dnnl T", "1, 2, 3, T threads");
  std::printf("%s\n", std::string(128, '-').c_str());
  bool allSame = true;
  // BENCH_ONLY=<substring>: only the kernels whose name contains it (for
  // repeated runs of one row).
  const char *only = std::getenv("BENCH_ONLY");
  for (Kernel &k : kernels) {
    if (only && k.name.find(only) == std::string::npos)
      continue;
    omp_set_num_threads(1);
    std::vector<char> reference = k.run(false, true);
    std::string same;
    for (int t : {1, 2, 3, all}) {
      omp_set_num_threads(t);
      bool equal = k.run(true, true) == reference;
      allSame &= equal;
      same += equal ? "y" : "N";
    }
    omp_set_num_threads(1);
    double serial = timeCall([&] { k.run(false, false); }, budget);
    double par1 = timeCall([&] { k.run(true, false); }, budget);
    OnednnResult d1, dT;
    if (k.onednn)
      d1 = k.onednn(timer);
    omp_set_num_threads(all);
    double parT = timeCall([&] { k.run(true, false); }, budget);
    if (k.onednn)
      dT = k.onednn(timer);
    std::printf("%-31s %9.4f %9.4f %9.4f %6.2fx |", k.name.c_str(),
                serial * 1e3, par1 * 1e3, parT * 1e3, serial / parT);
    if (k.onednn && d1.error.empty() && dT.error.empty())
      std::printf(" %9.4f %9.4f %6.2fx | %6.2fx |", d1.seconds * 1e3,
                  dT.seconds * 1e3, d1.seconds / dT.seconds,
                  dT.seconds / parT);
    else
      std::printf(" %9s %9s %7s | %7s |", "-", "-", "-", "-");
    std::printf(" %s\n", same.c_str());
  }
  std::printf("speedup = serial (threads=1 build) / parallel build on T "
              "threads; ours/dnnl T > 1: ours is faster on T threads.\n");
  return allSame ? 0 : 1;
}
