// Timing driver of the quant-opt benchmark (bench/run-bench.sh builds it).
//
// Calls the functions compiled by `quant-opt --qnt-to-llvm` through their C
// interface and the plain C loops of baseline.c on the same inputs, checks
// that both give the same bits, and prints one table. One thread. The
// machine's int8 peak is measured here: a tight loop of independent 512-bit
// vpdpbusd (64 MACs = 128 ops each).

#include "baseline.h"
#include "bench.h"
#include "memref.h"
#include "onednn.h"

#include <cpuid.h>
#include <immintrin.h>
#include <malloc.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
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
  void _mlir_ciface_##NAME(Memref<int8_t, 2> *, Memref<int8_t, 2> *);
BENCH_MATMULS(DECLARE_MM)
#undef DECLARE_MM
void _mlir_ciface_conv(Memref<int8_t, 4> *, Memref<int8_t, 4> *);
void _mlir_ciface_quantize_i8(Memref<int8_t, 1> *, Memref<float, 1> *);
void _mlir_ciface_quantize_u8(Memref<uint8_t, 1> *, Memref<float, 1> *);
void _mlir_ciface_dequantize_i8(Memref<float, 1> *, Memref<int8_t, 1> *);
void _mlir_ciface_dequantize_i16(Memref<float, 1> *, Memref<int16_t, 1> *);
void _mlir_ciface_add(Memref<int8_t, 4> *, Memref<int8_t, 4> *,
                      Memref<int8_t, 4> *);
void _mlir_ciface_maxpool(Memref<int8_t, 4> *, Memref<int8_t, 4> *);
void _mlir_ciface_avgpool(Memref<int8_t, 4> *, Memref<int8_t, 4> *);
}

namespace {

// Parameters baked into the module by gen-bench.py.
constexpr int32_t kInputZeroPoint = 5;
constexpr requant kRequant = {1 << 30, 11, -3}; // M = 2^-12, z_out = -3
constexpr float kQ8Scale = 0.05f, kQ16Scale = 0.001f;
constexpr int kQ8Zero = 3, kQU8Zero = 128, kQ16Zero = 7;

/// The LCG of gen-bench.py.
struct Lcg {
  uint32_t x;
  explicit Lcg(uint32_t seed) : x(seed) {}
  uint32_t next() { return x = 1664525u * x + 1013904223u; }
  int8_t weight() { return int8_t(int((next() >> 16) % 255) - 127); }
  int32_t bias() { return int32_t((next() >> 8) % 40001) - 20000; }
  int8_t code() { return int8_t(next() >> 24); }
};

/// CPU time of this thread: the machine is shared, and time spent while
/// another process holds the core must not count.
double now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

constexpr int kBatches = 10;

/// Seconds per call: the best of 10 batches, each about `budget` / 10 s.
double timeCall(const std::function<void()> &f, double budget) {
  f(); // warm up (first touch, caches)
  double t0 = now();
  f();
  double once = std::max(now() - t0, 1e-7);
  long reps = std::max(1L, long(budget / kBatches / once));
  double best = std::numeric_limits<double>::max();
  for (int batch = 0; batch < kBatches; ++batch) {
    double start = now();
    for (long r = 0; r < reps; ++r)
      f();
    best = std::min(best, (now() - start) / reps);
  }
  return best;
}

#if defined(__AVX512VNNI__)
/// What the int8 peak is a loop of (the instructions ours are built from).
const char *const kPeakLoop = "16 independent 512-bit vpdpbusd";

/// GOPS of independent 512-bit vpdpbusd: 16 accumulators, two per cycle
/// needed to hide the latency on any current core.
__attribute__((noinline)) double measurePeakGops() {
  __m512i acc[16];
  for (auto &a : acc)
    a = _mm512_setzero_si512();
  __m512i a = _mm512_set1_epi8(1), b = _mm512_set1_epi8(2);
  const long iters = 20'000'000;
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {
    double start = now();
    for (long i = 0; i < iters; ++i) {
      asm volatile("" : "+v"(a), "+v"(b));
#pragma clang loop unroll(full)
      for (int j = 0; j < 16; ++j)
        acc[j] = _mm512_dpbusd_epi32(acc[j], a, b);
    }
    double t = now() - start;
    best = std::max(best, double(iters) * 16 * 64 * 2 / t / 1e9);
  }
  __m512i sum = acc[0];
  for (int j = 1; j < 16; ++j)
    sum = _mm512_add_epi32(sum, acc[j]);
  volatile int sink = _mm512_reduce_add_epi32(sum);
  (void)sink;
  return best;
}
#else
const char *const kPeakLoop = "12 independent 256-bit vpmaddwd + vpaddd";

/// Without AVX-512 VNNI ours emulate each vpdpbusd exactly with vpmaddwd
/// on bytes widened to 16 bits plus an add (docs/KernelLayer.md): the
/// peak is that pair, 16 multiply-adds, on 12 independent accumulators.
/// Each vpmaddwd reads its accumulator (so that none is loop-invariant);
/// 12 chains of 4 cycles allow 3 pairs per cycle, more than any core
/// issues.
__attribute__((noinline)) double measurePeakGops() {
  __m256i acc[12];
  for (auto &a : acc)
    a = _mm256_setzero_si256();
  __m256i b = _mm256_set1_epi16(2);
  const long iters = 20'000'000;
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {
    double start = now();
    for (long i = 0; i < iters; ++i) {
      asm volatile("" : "+x"(b));
#pragma clang loop unroll(full)
      for (int j = 0; j < 12; ++j)
        acc[j] = _mm256_add_epi32(acc[j], _mm256_madd_epi16(acc[j], b));
    }
    double t = now() - start;
    best = std::max(best, double(iters) * 12 * 16 * 2 / t / 1e9);
  }
  __m256i sum = acc[0];
  for (int j = 1; j < 12; ++j)
    sum = _mm256_add_epi32(sum, acc[j]);
  alignas(32) int lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i *>(lanes), sum);
  volatile int sink = lanes[0];
  (void)sink;
  return best;
}
#endif

/// Core clock in GHz from a chain of dependent adds (1 cycle each).
__attribute__((noinline)) double measureGhz() {
  const long iters = 2'000'000;
  double best = 0;
  for (int rep = 0; rep < 3; ++rep) {
    uint64_t x = 0;
    double start = now();
    for (long i = 0; i < iters; ++i)
      asm volatile(".rept 200\n\taddq $1, %0\n\t.endr" : "+r"(x));
    double t = now() - start;
    best = std::max(best, double(iters) * 200 / t / 1e9);
  }
  return best;
}

struct Row {
  std::string name;
  double oursSec, cSec, work; // work: ops (GOPS rows) or bytes (GB/s rows)
  bool gbps, exact;
  double weightBytes = 0; // GEMV: weight bytes streamed per call
};

template <typename T> bool same(const T *a, const T *b, size_t n) {
  return std::memcmp(a, b, n * sizeof(T)) == 0;
}

} // namespace

extern "C" {
void _mlir_ciface_mm_rt_256x256x256(Memref<int8_t, 2> *, Memref<int8_t, 2> *,
                                    Memref<int8_t, 2> *);
void _mlir_ciface_conv_dw(Memref<int8_t, 4> *, Memref<int8_t, 4> *);
// examples/tiny-cnn.mlir: logits (i8 codes) and their dequantized values.
struct NetworkResult {
  Memref<int8_t, 2> logits;
  Memref<float, 2> real;
};
void _mlir_ciface_forward(NetworkResult *, Memref<float, 4> *);
}

namespace {

/// AMX-INT8 (CPUID.(7,0):EDX[25]).
bool hasAmxInt8() {
  unsigned a, b, c, d;
  return __get_cpuid_count(7, 0, &a, &b, &c, &d) && (d >> 25 & 1);
}

/// GOPS of tdpbusd (a 16 x 64 u8 tile times a 64 x 16 s8 tile into 16 x 16
/// i32: 16384 MACs) on 6 independent accumulator tiles, as the VNNI peak is
/// measured; 0 without AMX-INT8 or when Linux refuses the tile state. Inline
/// assembly, so the driver builds on any x86-64 compiler target.
__attribute__((noinline)) double measureAmxPeakGops() {
  if (!hasAmxInt8() ||
      syscall(SYS_arch_prctl, 0x1023 /*ARCH_REQ_XCOMP_PERM*/,
              18 /*XFEATURE_XTILEDATA*/) != 0)
    return 0;
  // Palette 1: every tile 16 rows of 64 bytes.
  alignas(64) uint8_t config[64] = {};
  config[0] = 1;
  for (int t = 0; t < 8; ++t) {
    config[16 + 2 * t] = 64;
    config[48 + t] = 16;
  }
  alignas(64) static int8_t a[16 * 64], b[16 * 64];
  std::memset(a, 1, sizeof a);
  std::memset(b, 2, sizeof b);
  long stride = 64;
  asm volatile("ldtilecfg (%0)" ::"r"(config) : "memory");
  asm volatile("tileloadd (%0,%2,1), %%tmm6\n\t"
               "tileloadd (%1,%2,1), %%tmm7\n\t"
               "tilezero %%tmm0\n\ttilezero %%tmm1\n\ttilezero %%tmm2\n\t"
               "tilezero %%tmm3\n\ttilezero %%tmm4\n\ttilezero %%tmm5" ::"r"(a),
               "r"(b), "r"(stride)
               : "memory");
  const long iters = 1'000'000;
  double best = 0;
  for (int rep = 0; rep < 4; ++rep) {
    double start = now();
    for (long i = 0; i < iters; ++i)
      asm volatile("tdpbusd %%tmm7, %%tmm6, %%tmm0\n\t"
                   "tdpbusd %%tmm7, %%tmm6, %%tmm1\n\t"
                   "tdpbusd %%tmm7, %%tmm6, %%tmm2\n\t"
                   "tdpbusd %%tmm7, %%tmm6, %%tmm3\n\t"
                   "tdpbusd %%tmm7, %%tmm6, %%tmm4\n\t"
                   "tdpbusd %%tmm7, %%tmm6, %%tmm5" ::
                       : "memory");
    double t = now() - start;
    best = std::max(best, double(iters) * 6 * 16384 * 2 / t / 1e9);
  }
  asm volatile("tilerelease" ::: "memory");
  return best;
}

struct PeerRow {
  std::string name;
  double ops, ours;
  OnednnResult s8, u8;
  long differ = 0; // outputs where oneDNN (s8s8s8) and ours differ
  int maxDiff = 0;
  size_t outputs = 0;
};

void compareOutputs(PeerRow &row, const int8_t *ours, const int8_t *theirs,
                    size_t n) {
  row.outputs = n;
  for (size_t i = 0; i < n; ++i) {
    int d = std::abs(int(ours[i]) - int(theirs[i]));
    row.differ += d != 0;
    row.maxDiff = std::max(row.maxDiff, d);
  }
}

/// Ours next to oneDNN's s8s8s8 and u8s8s8 primitives on the same inputs, in
/// the same process; prints its own table.
/// `amxPeak` (0 without AMX) replaces the VNNI peak in %peak when present.
void runOnednnPeers(double budget, double peak, double amxPeak) {
  if (amxPeak > 0)
    peak = amxPeak;
  OnednnTimer timer = [&](const std::function<void()> &f) {
    return timeCall(f, budget);
  };
  const float scale = 1.0f / 4096; // M = 2^-12 (gen-bench.py)
  std::vector<PeerRow> rows;
  Lcg data(777);

  auto matmulRow = [&](const char *name, int m, int k, int n, uint32_t seed,
                       bool runtimeWeights, auto &&callOurs) {
    Lcg gen(seed);
    std::vector<int8_t> w(size_t(k) * n), x(size_t(m) * k),
        yd(size_t(m) * n);
    std::vector<int32_t> b(n);
    // gen-bench.py draws the weights first, except for run-time weights.
    if (!runtimeWeights)
      for (auto &v : w)
        v = gen.weight();
    for (auto &v : b)
      v = gen.bias();
    if (runtimeWeights)
      for (auto &v : w)
        v = data.weight();
    for (auto &v : x)
      v = data.code();
    PeerRow row{name, 2.0 * m * k * n, 0, {}, {}};
    auto in = view<int8_t, 2>(x.data(), {m, k});
    auto win = view<int8_t, 2>(w.data(), {k, n});
    Memref<int8_t, 2> out{};
    callOurs(&out, &in, &win);
    row.ours = timeCall(
        [&] {
          Memref<int8_t, 2> o{};
          callOurs(&o, &in, &win);
          std::free(o.allocated);
        },
        budget);
    row.u8 = onednnMatmul(m, k, n, true, x.data(), kInputZeroPoint, w.data(),
                          b.data(), scale, kRequant.zp, yd.data(),
                          runtimeWeights, timer);
    row.s8 = onednnMatmul(m, k, n, false, x.data(), kInputZeroPoint, w.data(),
                          b.data(), scale, kRequant.zp, yd.data(),
                          runtimeWeights, timer);
    if (row.s8.error.empty())
      compareOutputs(row, out.aligned, yd.data(), yd.size());
    std::free(out.allocated);
    rows.push_back(row);
  };
#define PEER_MM(M, K, N, NAME, SEED)                                           \
  matmulRow("matmul " #M "x" #K "x" #N, M, K, N, SEED, false,                  \
            [](Memref<int8_t, 2> *o, Memref<int8_t, 2> *i,                     \
               Memref<int8_t, 2> *) { _mlir_ciface_##NAME(o, i); });
  BENCH_MATMULS(PEER_MM)
#undef PEER_MM
  matmulRow("matmul 256^3, run-time weights", BENCH_RT_M, BENCH_RT_K,
            BENCH_RT_N, BENCH_RT_SEED, true,
            [](Memref<int8_t, 2> *o, Memref<int8_t, 2> *i,
               Memref<int8_t, 2> *w) {
              _mlir_ciface_mm_rt_256x256x256(o, i, w);
            });

  auto convRow = [&](const char *name, int h, int wd, int c, int kh, int kw,
                     int f, int pad, int groups, uint32_t seed,
                     void (*callOurs)(Memref<int8_t, 4> *,
                                      Memref<int8_t, 4> *)) {
    const int oh = h + 2 * pad - kh + 1, ow = wd + 2 * pad - kw + 1;
    Lcg gen(seed);
    std::vector<int8_t> w(size_t(kh) * kw * (c / groups) * f),
        x(size_t(h) * wd * c), yd(size_t(oh) * ow * f);
    std::vector<int32_t> b(f);
    for (auto &v : w)
      v = gen.weight();
    for (auto &v : b)
      v = gen.bias();
    for (auto &v : x)
      v = data.code();
    PeerRow row{name, 2.0 * oh * ow * f * kh * kw * (c / groups), 0, {}, {}};
    auto in = view<int8_t, 4>(x.data(), {1, h, wd, c});
    Memref<int8_t, 4> out{};
    callOurs(&out, &in);
    row.ours = timeCall(
        [&] {
          Memref<int8_t, 4> o{};
          callOurs(&o, &in);
          std::free(o.allocated);
        },
        budget);
    row.u8 = onednnConv(h, wd, c, kh, kw, f, pad, groups, true, x.data(),
                        kInputZeroPoint, w.data(), b.data(), scale,
                        kRequant.zp, yd.data(), timer);
    row.s8 = onednnConv(h, wd, c, kh, kw, f, pad, groups, false, x.data(),
                        kInputZeroPoint, w.data(), b.data(), scale,
                        kRequant.zp, yd.data(), timer);
    if (row.s8.error.empty())
      compareOutputs(row, out.aligned, yd.data(), yd.size());
    std::free(out.allocated);
    rows.push_back(row);
  };
  convRow("conv 56x56x64 3x3 -> 64", BENCH_CONV_H, BENCH_CONV_W, BENCH_CONV_C,
          BENCH_CONV_KH, BENCH_CONV_KW, BENCH_CONV_F, BENCH_CONV_PAD, 1,
          BENCH_CONV_SEED, _mlir_ciface_conv);
  convRow("depthwise 56x56x64 3x3", BENCH_DW_H, BENCH_DW_W, BENCH_DW_C,
          BENCH_DW_KH, BENCH_DW_KW, BENCH_DW_C, BENCH_DW_PAD, BENCH_DW_C,
          BENCH_DW_SEED, _mlir_ciface_conv_dw);

  std::printf("\noneDNN peers (%s), same inputs, same process, one thread; "
              "weights reordered outside the timed region except for "
              "run-time weights. AMX: %s; %%peak against the measured %.0f "
              "GOPS (%s).\n",
              onednnDescription().c_str(),
              amxPeak > 0 ? "present, ours compiled for target=host runs the "
                            "AMX kernels"
                          : hasAmxInt8() ? "present, tile state refused"
                                         : "not on this CPU",
              peak,
              (amxPeak > 0 ? std::string("tight loop of 6 independent tdpbusd")
                           : "tight loop of " + std::string(kPeakLoop))
                  .c_str());
  std::printf("%-32s %9s %5s %6s | %9s %5s %6s %6s | %9s %5s %6s %6s | %s\n",
              "kernel", "ours ms", "GOPS", "%peak", "s8s8s8", "GOPS", "%peak",
              "ours/", "u8s8s8", "GOPS", "%peak", "ours/", "outputs differing");
  std::printf("%-32s %9s %5s %6s | %9s %5s %6s %6s | %9s %5s %6s %6s |\n", "",
              "", "", "", "ms", "", "", "dnnl", "ms", "", "", "dnnl");
  std::printf("%s\n", std::string(132, '-').c_str());
  auto gops = [](double ops, double sec) { return ops / sec / 1e9; };
  for (const PeerRow &r : rows) {
    double ours = gops(r.ops, r.ours);
    std::printf("%-32s %9.3f %5.0f %5.1f%% |", r.name.c_str(), r.ours * 1e3,
                ours, 100 * ours / peak);
    for (const OnednnResult *d : {&r.s8, &r.u8}) {
      if (!d->error.empty()) {
        std::printf(" %-31s |", "unsupported");
        continue;
      }
      double g = gops(r.ops, d->seconds);
      std::printf(" %9.3f %5.0f %5.1f%% %5.2fx |", d->seconds * 1e3, g,
                  100 * g / peak, ours / g);
    }
    if (r.outputs)
      std::printf(" %ld of %zu (max %d)\n", r.differ, r.outputs, r.maxDiff);
    else
      std::printf(" -\n");
    for (const OnednnResult *d : {&r.s8, &r.u8})
      if (!d->error.empty())
        std::printf("  oneDNN: %s\n", d->error.c_str());
  }
  {
    // The example network end to end (quantize, two convs, FC, requantize,
    // dequantize), ours only: oneDNN has no peer for the whole graph here.
    std::vector<float> input(1 * 6 * 6 * 2);
    for (auto &v : input)
      v = float(int(data.next() >> 24) - 128) / 128.0f;
    auto in = view<float, 4>(input.data(), {1, 6, 6, 2});
    double t = timeCall(
        [&] {
          NetworkResult r{};
          _mlir_ciface_forward(&r, &in);
          std::free(r.logits.allocated);
          std::free(r.real.allocated);
        },
        budget);
    std::printf("%-32s %9.4f ms per inference (examples/tiny-cnn.mlir, "
                "1x6x6x2 input)\n",
                "example network, end to end", t * 1e3);
  }
  std::printf("ours/dnnl > 1: ours is faster. Outputs differ where oneDNN "
              "rounds scale * acc half to even in f32 and ours rounds the "
              "exact Q31 product (\"double\"); max is in i8 codes.\n");
}

} // namespace

int main(int argc, char **argv) {
  double budget = argc > 1 ? std::atof(argv[1]) : 1.0; // seconds per timing
  // Keep freed blocks in the heap: the compiled code allocates its result
  // and its i32 accumulator on every call; without this, glibc maps and
  // unmaps every block above 128 KiB (page faults on each call).
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);

  // The peak is measured before and after the kernels (clocks move on a
  // shared machine); the higher one is the reference.
  double peak = measurePeakGops(), ghz = measureGhz();

  std::vector<Row> rows;
  Lcg data(12345);

#define RUN_MM(M, K, N, NAME, SEED)                                            \
  {                                                                            \
    Lcg gen(SEED);                                                             \
    std::vector<int8_t> w(size_t(K) * N), x(size_t(M) * K), yc(size_t(M) * N); \
    std::vector<int32_t> b(N), acc(N);                                         \
    for (auto &v : w)                                                          \
      v = gen.weight();                                                        \
    for (auto &v : b)                                                          \
      v = gen.bias();                                                          \
    for (auto &v : x)                                                          \
      v = data.code();                                                         \
    auto in = view<int8_t, 2>(x.data(), {M, K});                               \
    Memref<int8_t, 2> out{};                                                   \
    _mlir_ciface_##NAME(&out, &in);                                            \
    baseline_matmul(M, K, N, x.data(), kInputZeroPoint, w.data(), b.data(),    \
                    &kRequant, yc.data(), acc.data());                         \
    bool exact = same(out.aligned, yc.data(), yc.size());                      \
    std::free(out.allocated);                                                  \
    double tOurs = timeCall(                                                   \
        [&] {                                                                  \
          Memref<int8_t, 2> o{};                                               \
          _mlir_ciface_##NAME(&o, &in);                                        \
          std::free(o.allocated);                                              \
        },                                                                     \
        budget);                                                               \
    double tC = timeCall(                                                      \
        [&] {                                                                  \
          baseline_matmul(M, K, N, x.data(), kInputZeroPoint, w.data(),        \
                          b.data(), &kRequant, yc.data(), acc.data());         \
        },                                                                     \
        budget);                                                               \
    rows.push_back({"matmul " #M "x" #K "x" #N, tOurs, tC, 2.0 * M * K * N,    \
                    false, exact, M == 1 ? double(K) * N : 0.0});              \
  }
  BENCH_MATMULS(RUN_MM)
#undef RUN_MM

  {
    const int h = BENCH_CONV_H, wd = BENCH_CONV_W, c = BENCH_CONV_C,
              kh = BENCH_CONV_KH, kw = BENCH_CONV_KW, f = BENCH_CONV_F,
              pad = BENCH_CONV_PAD;
    const int oh = h + 2 * pad - kh + 1, ow = wd + 2 * pad - kw + 1;
    Lcg gen(BENCH_CONV_SEED);
    std::vector<int8_t> w(size_t(kh) * kw * c * f), x(size_t(h) * wd * c),
        yc(size_t(oh) * ow * f);
    std::vector<int32_t> b(f), acc(f);
    for (auto &v : w)
      v = gen.weight();
    for (auto &v : b)
      v = gen.bias();
    for (auto &v : x)
      v = data.code();
    auto in = view<int8_t, 4>(x.data(), {1, h, wd, c});
    Memref<int8_t, 4> out{};
    _mlir_ciface_conv(&out, &in);
    baseline_conv(h, wd, c, kh, kw, f, pad, x.data(), kInputZeroPoint, w.data(),
                  b.data(), &kRequant, yc.data(), acc.data());
    bool exact = same(out.aligned, yc.data(), yc.size());
    std::free(out.allocated);
    double tOurs = timeCall(
        [&] {
          Memref<int8_t, 4> o{};
          _mlir_ciface_conv(&o, &in);
          std::free(o.allocated);
        },
        budget);
    double tC = timeCall(
        [&] {
          baseline_conv(h, wd, c, kh, kw, f, pad, x.data(), kInputZeroPoint,
                        w.data(), b.data(), &kRequant, yc.data(), acc.data());
        },
        budget);
    char name[96];
    std::snprintf(name, sizeof name, "conv2d 1x%dx%dx%d %dx%d F%d pad%d", h, wd,
                  c, kh, kw, f, pad);
    rows.push_back(
        {name, tOurs, tC, 2.0 * oh * ow * f * kh * kw * c, false, exact});
  }

  // Elementwise conversions over 4 Mi elements; GB/s counts the bytes read
  // plus the bytes written.
  const long n = BENCH_ELEMENTS;
  std::vector<float> xf(n), rc(n);
  for (long i = 0; i < n; ++i)
    xf[i] = (float(data.next() >> 8) / float(1 << 24) - 0.5f) * 16.0f;
  xf[0] = NAN;
  xf[1] = INFINITY;
  xf[2] = -INFINITY;
  auto fin = view<float, 1>(xf.data(), {n});
  {
    std::vector<int8_t> qc(n);
    Memref<int8_t, 1> out{};
    _mlir_ciface_quantize_i8(&out, &fin);
    baseline_quantize_i8(xf.data(), qc.data(), n, kQ8Scale, kQ8Zero);
    bool exact = same(out.aligned, qc.data(), n);
    std::free(out.allocated);
    double tOurs = timeCall(
        [&] {
          Memref<int8_t, 1> o{};
          _mlir_ciface_quantize_i8(&o, &fin);
          std::free(o.allocated);
        },
        budget);
    double tC = timeCall(
        [&] {
          baseline_quantize_i8(xf.data(), qc.data(), n, kQ8Scale, kQ8Zero);
        },
        budget);
    rows.push_back({"quantize f32->i8 4Mi", tOurs, tC, 5.0 * n, true, exact});
  }
  {
    std::vector<uint8_t> qc(n);
    Memref<uint8_t, 1> out{};
    _mlir_ciface_quantize_u8(&out, &fin);
    baseline_quantize_u8(xf.data(), qc.data(), n, kQ8Scale, kQU8Zero);
    bool exact = same(out.aligned, qc.data(), n);
    std::free(out.allocated);
    double tOurs = timeCall(
        [&] {
          Memref<uint8_t, 1> o{};
          _mlir_ciface_quantize_u8(&o, &fin);
          std::free(o.allocated);
        },
        budget);
    double tC = timeCall(
        [&] {
          baseline_quantize_u8(xf.data(), qc.data(), n, kQ8Scale, kQU8Zero);
        },
        budget);
    rows.push_back({"quantize f32->u8 4Mi", tOurs, tC, 5.0 * n, true, exact});
  }
  {
    std::vector<int8_t> q(n);
    for (auto &v : q)
      v = data.code();
    auto qin = view<int8_t, 1>(q.data(), {n});
    Memref<float, 1> out{};
    _mlir_ciface_dequantize_i8(&out, &qin);
    baseline_dequantize_i8(q.data(), rc.data(), n, kQ8Scale, kQ8Zero);
    bool exact = same(out.aligned, rc.data(), n);
    std::free(out.allocated);
    double tOurs = timeCall(
        [&] {
          Memref<float, 1> o{};
          _mlir_ciface_dequantize_i8(&o, &qin);
          std::free(o.allocated);
        },
        budget);
    double tC = timeCall(
        [&] {
          baseline_dequantize_i8(q.data(), rc.data(), n, kQ8Scale, kQ8Zero);
        },
        budget);
    rows.push_back({"dequantize i8->f32 4Mi", tOurs, tC, 5.0 * n, true, exact});
  }
  {
    std::vector<int16_t> q(n);
    for (auto &v : q)
      v = int16_t(data.next() >> 16);
    auto qin = view<int16_t, 1>(q.data(), {n});
    Memref<float, 1> out{};
    _mlir_ciface_dequantize_i16(&out, &qin);
    baseline_dequantize_i16(q.data(), rc.data(), n, kQ16Scale, kQ16Zero);
    bool exact = same(out.aligned, rc.data(), n);
    std::free(out.allocated);
    double tOurs = timeCall(
        [&] {
          Memref<float, 1> o{};
          _mlir_ciface_dequantize_i16(&o, &qin);
          std::free(o.allocated);
        },
        budget);
    double tC = timeCall(
        [&] {
          baseline_dequantize_i16(q.data(), rc.data(), n, kQ16Scale, kQ16Zero);
        },
        budget);
    rows.push_back(
        {"dequantize i16->f32 4Mi", tOurs, tC, 6.0 * n, true, exact});
  }

  // Whole-network ops: GB/s = bytes read + written.
  {
    const int h = BENCH_ADD_H, wd = BENCH_ADD_W, c = BENCH_ADD_C;
    const long count = long(BENCH_ADD_N) * h * wd * c;
    const add_params params = {
        BENCH_ADD_LEFT_SHIFT, BENCH_ADD_M0_A, BENCH_ADD_M0_B, BENCH_ADD_M0_OUT,
        BENCH_ADD_SHIFT_A,    BENCH_ADD_SHIFT_B, BENCH_ADD_SHIFT_OUT,
        BENCH_ADD_ZA,         BENCH_ADD_ZB,      BENCH_ADD_ZY};
    std::vector<int8_t> a(count), b(count), yc(count);
    for (auto &v : a)
      v = data.code();
    for (auto &v : b)
      v = data.code();
    auto ia = view<int8_t, 4>(a.data(), {BENCH_ADD_N, h, wd, c});
    auto ib = view<int8_t, 4>(b.data(), {BENCH_ADD_N, h, wd, c});
    Memref<int8_t, 4> out{};
    _mlir_ciface_add(&out, &ia, &ib);
    baseline_add(count, a.data(), b.data(), yc.data(), &params);
    bool exact = same(out.aligned, yc.data(), count);
    std::free(out.allocated);
    double tOurs = timeCall(
        [&] {
          Memref<int8_t, 4> o{};
          _mlir_ciface_add(&o, &ia, &ib);
          std::free(o.allocated);
        },
        budget);
    double tC = timeCall(
        [&] { baseline_add(count, a.data(), b.data(), yc.data(), &params); },
        budget);
    char name[96];
    std::snprintf(name, sizeof name, "add i8 1x%dx%dx%d", h, wd, c);
    rows.push_back({name, tOurs, tC, 3.0 * count, true, exact});
  }
  {
    // The 3x3 / 2 pools of ResNet's stem: max, then average.
    const int h = BENCH_POOL_H, wd = BENCH_POOL_W, c = BENCH_POOL_C,
              k = BENCH_POOL_K, st = BENCH_POOL_STRIDE, pad = BENCH_POOL_PAD;
    const int oh = (h + 2 * pad - k) / st + 1, ow = (wd + 2 * pad - k) / st + 1;
    std::vector<int8_t> x(size_t(h) * wd * c), yc(size_t(oh) * ow * c);
    for (auto &v : x)
      v = data.code();
    auto in = view<int8_t, 4>(x.data(), {1, h, wd, c});
    auto benchPool = [&](const char *kind,
                         void (*ours)(Memref<int8_t, 4> *, Memref<int8_t, 4> *),
                         const std::function<void()> &baseline) {
      Memref<int8_t, 4> out{};
      ours(&out, &in);
      baseline();
      bool exact = same(out.aligned, yc.data(), yc.size());
      std::free(out.allocated);
      double tOurs = timeCall(
          [&] {
            Memref<int8_t, 4> o{};
            ours(&o, &in);
            std::free(o.allocated);
          },
          budget);
      double tC = timeCall(baseline, budget);
      char name[96];
      std::snprintf(name, sizeof name, "%s %dx%d s%d 1x%dx%dx%d", kind, k, k,
                    st, h, wd, c);
      rows.push_back(
          {name, tOurs, tC, double(x.size() + yc.size()), true, exact});
    };
    benchPool("max_pool", _mlir_ciface_maxpool, [&] {
      baseline_maxpool(h, wd, c, k, st, pad, x.data(), yc.data());
    });
    benchPool("avg_pool", _mlir_ciface_avgpool, [&] {
      baseline_avgpool(h, wd, c, k, st, pad, BENCH_POOL_ZP, x.data(),
                       yc.data());
    });
  }

  double peak2 = measurePeakGops(), ghz2 = measureGhz();
  std::printf("int8 peak (tight loop of %s): "
              "%.0f GOPS before, %.0f GOPS after the kernels;\n"
              "clock from a dependent add chain %.2f / %.2f GHz, i.e. "
              "%.0f / %.0f int8 MAC/cycle\n\n",
              kPeakLoop, peak, peak2, ghz, ghz2, peak / 2 / ghz,
              peak2 / 2 / ghz2);
  peak = std::max(peak, peak2);
  std::printf("%-30s %10s %9s %7s | %10s %9s %7s | %7s | %s\n", "kernel",
              "ours ms", "ours", "%peak", "C ms", "C", "%peak", "ours/C",
              "same bits");
  std::printf("%s\n", std::string(112, '-').c_str());
  for (const Row &r : rows) {
    double ours = r.work / r.oursSec / 1e9, c = r.work / r.cSec / 1e9;
    if (r.gbps)
      std::printf("%-30s %10.3f %6.1f GB/s %5s | %10.3f %6.1f GB/s %5s | "
                  "%6.2fx | %s\n",
                  r.name.c_str(), r.oursSec * 1e3, ours, "", r.cSec * 1e3, c,
                  "", ours / c, r.exact ? "yes" : "NO");
    else
      std::printf("%-30s %10.3f %4.0f GOPS %6.1f%% | %10.3f %4.0f GOPS "
                  "%6.1f%% | %6.2fx | %s\n",
                  r.name.c_str(), r.oursSec * 1e3, ours, 100 * ours / peak,
                  r.cSec * 1e3, c, 100 * c / peak, ours / c,
                  r.exact ? "yes" : "NO");
  }
  for (const Row &r : rows)
    if (r.weightBytes > 0)
      std::printf("%s is memory-bound (one MAC per weight byte): it streams "
                  "%.1f GB/s of weights (C: %.1f GB/s)\n",
                  r.name.c_str(), r.weightBytes / r.oursSec / 1e9,
                  r.weightBytes / r.cSec / 1e9);
  std::printf("\nGOPS = 2 x MACs / s (matmul and conv include the "
              "requantization to i8 and, for ours, the allocation of the "
              "result); %%peak against the measured %.0f GOPS. GB/s = bytes "
              "read + written / s. Times: best of %d batches, thread CPU "
              "time.\n",
              peak, kBatches);
  double amxPeak = measureAmxPeakGops();
  if (amxPeak > 0)
    std::printf("AMX int8 peak (tight loop of 6 independent tdpbusd, 16384 "
                "MACs each): %.0f GOPS\n",
                amxPeak);
  runOnednnPeers(budget, peak, amxPeak);
  bool allExact = std::all_of(rows.begin(), rows.end(),
                              [](const Row &r) { return r.exact; });
  return allExact ? 0 : 1;
}
