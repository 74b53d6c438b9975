// Timing driver of the TOSA rows (bench/tosa-bench.sh builds it).
//
// The same TOSA matmul and conv compiled twice, by upstream's TOSA pipeline
// (up_*) and by quant-opt --tosa-to-llvm (qo_*), called through their C
// interface on the same inputs; both must give the same bits. oneDNN runs
// the same shapes (one f32 output scale instead of TOSA's per-channel
// multipliers, so only its time is compared). One thread.

#include "memref.h"
#include "onednn.h"
#include "tosa-bench.h"

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

extern "C" {
void _mlir_ciface_up_matmul(Memref<int8_t, 3> *, Memref<int8_t, 3> *);
void _mlir_ciface_qo_matmul(Memref<int8_t, 3> *, Memref<int8_t, 3> *);
void _mlir_ciface_up_conv(Memref<int8_t, 4> *, Memref<int8_t, 4> *);
void _mlir_ciface_qo_conv(Memref<int8_t, 4> *, Memref<int8_t, 4> *);
}

namespace {

double budget = 1.0;

/// Seconds per call: the best of repeated runs within the budget.
double timeIt(const std::function<void()> &f) {
  using clock = std::chrono::steady_clock;
  f();
  double best = 1e30;
  auto start = clock::now();
  int calls = 0;
  do {
    auto t0 = clock::now();
    f();
    double s = std::chrono::duration<double>(clock::now() - t0).count();
    best = s < best ? s : best;
    ++calls;
  } while (calls < 3 ||
           std::chrono::duration<double>(clock::now() - start).count() <
               budget);
  return best;
}

/// Calls a compiled function, copies its result out and frees it (the C
/// interface hands the caller a fresh allocation).
template <int N, typename Fn>
void callAndCopy(Fn fn, int8_t *input, std::initializer_list<int64_t> inShape,
                 int8_t *out, size_t outSize) {
  Memref<int8_t, N> in = view<int8_t, N>(input, inShape);
  Memref<int8_t, N> result{};
  fn(&result, &in);
  if (out)
    std::memcpy(out, result.aligned + result.offset, outSize);
  std::free(result.allocated);
}

void row(const char *name, double ops, double up, double qo, double dnnl,
         const std::string &dnnlError, size_t mismatches) {
  std::printf("%-26s %9.1f %9.1f %9.1f %8.1fx %8.2fx   %s\n", name,
              ops / up * 1e-9, ops / qo * 1e-9,
              dnnl > 0 ? ops / dnnl * 1e-9 : 0.0, up / qo,
              dnnl > 0 ? dnnl / qo : 0.0,
              mismatches ? "OUTPUTS DIFFER" : "identical");
  if (!dnnlError.empty())
    std::printf("  (oneDNN: %s)\n", dnnlError.c_str());
}

} // namespace

int main(int argc, char **argv) {
  if (argc > 1)
    budget = std::atof(argv[1]);
  uint32_t state = 12345;
  auto next = [&] { return state = 1664525u * state + 1013904223u; };
  OnednnTimer timer = [](const std::function<void()> &f) { return timeIt(f); };
  size_t failures = 0;

  std::printf("TOSA in (one thread; %s)\n", onednnDescription().c_str());
  std::printf("%-26s %9s %9s %9s %9s %9s\n", "kernel", "upstream", "ours",
              "oneDNN", "ours/up", "ours/dnnl");
  std::printf("%-26s %9s %9s %9s\n", "", "GOPS", "GOPS", "GOPS");

  {
    std::vector<int8_t> a(size_t(kM) * kK), up(size_t(kM) * kN),
        qo(size_t(kM) * kN), dn(size_t(kM) * kN);
    for (int8_t &v : a)
      v = int8_t(next() >> 24);
    auto runUp = [&](int8_t *out) {
      callAndCopy<3>(_mlir_ciface_up_matmul, a.data(), {1, kM, kK}, out,
                     up.size());
    };
    auto runQo = [&](int8_t *out) {
      callAndCopy<3>(_mlir_ciface_qo_matmul, a.data(), {1, kM, kK}, out,
                     qo.size());
    };
    runUp(up.data());
    runQo(qo.data());
    size_t mismatches = 0;
    for (size_t i = 0; i < up.size(); ++i)
      mismatches += up[i] != qo[i];
    failures += mismatches;
    double tUp = timeIt([&] { runUp(nullptr); });
    double tQo = timeIt([&] { runQo(nullptr); });
    std::vector<int32_t> zeroBias(kN, 0);
    OnednnResult d = onednnMatmul(kM, kK, kN, false, a.data(), kZx,
                                  kMatmulWeights, zeroBias.data(),
                                  1.0f / float(1 << 12), kZy, dn.data(),
                                  false, timer);
    row("matmul 64x1024x1024", 2.0 * kM * kK * kN, tUp, tQo, d.seconds,
        d.error, mismatches);
  }
  {
    size_t inSize = size_t(kH) * kW * kC, outSize = size_t(kH) * kW * kF;
    std::vector<int8_t> x(inSize), up(outSize), qo(outSize), dn(outSize);
    for (int8_t &v : x)
      v = int8_t(next() >> 24);
    auto runUp = [&](int8_t *out) {
      callAndCopy<4>(_mlir_ciface_up_conv, x.data(), {1, kH, kW, kC}, out,
                     outSize);
    };
    auto runQo = [&](int8_t *out) {
      callAndCopy<4>(_mlir_ciface_qo_conv, x.data(), {1, kH, kW, kC}, out,
                     outSize);
    };
    runUp(up.data());
    runQo(qo.data());
    size_t mismatches = 0;
    for (size_t i = 0; i < outSize; ++i)
      mismatches += up[i] != qo[i];
    failures += mismatches;
    double tUp = timeIt([&] { runUp(nullptr); });
    double tQo = timeIt([&] { runQo(nullptr); });
    OnednnResult d =
        onednnConv(kH, kW, kC, 3, 3, kF, 1, 1, false, x.data(), kZx,
                   kConvWeightsHwcf, kConvBias, 1.0f / float(1 << 12), kZy,
                   dn.data(), timer);
    row("conv 56x56x64 3x3 -> 64", 2.0 * kH * kW * kF * 9 * kC, tUp, tQo,
        d.seconds, d.error, mismatches);
  }
  return failures ? 1 : 0;
}
