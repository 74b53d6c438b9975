// The W8A8 transformer MLP block (tokens x 768 -> 3072 -> GELU -> 768,
// utils/gen-w8a8-mlp.py) timed three ways on one thread
// (bench/run-w8a8-bench.sh):
//   ours  the W8A8 block compiled by quant-opt --qnt-to-llvm (per-token
//         qnt.dynamic_quantize, i8 GEMM on the VNNI kernel, dequantize with
//         row x column scale, GELU, the same again for the second layer);
//   oneDNN the same math with oneDNN's s8s8 -> f32 matmul: the per-token
//         quantization and the row-scale multiply in C (clang -O3,
//         vectorized), the column scales as output scales (at creation or
//         at run time: both timed, the faster is the peer), GELU by an
//         eltwise gelu_tanh primitive; weights reordered outside the timed
//         region (OnednnLinear says why the row scale is not a post-op);
//   f32   the same block in f32 through our pipeline (linalg.generic
//         matmuls, loops m, k, n; the same GELU); and, for scale,
//         oneDNN's f32 matmuls (GELU as a post-op) on the same block.
// Every timed call quantizes its activations and computes GELU. Ours must
// equal the exact model of utils/gen-w8a8-mlp.py bit for bit; the other two
// are compared with it (max error relative to the output's largest value).
#include "memref.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

using F2 = Memref<float, 2>;

#define DECLARE(T)                                                             \
  extern "C" void _mlir_ciface_mlp_w8a8_t##T(F2 *, F2 *);                      \
  extern "C" void _mlir_ciface_mlp_f32_t##T(F2 *, F2 *);
DECLARE(1)
DECLARE(32)
DECLARE(128)

namespace {

constexpr int kDim = 768, kHidden = 3072;

struct Entry {
  int tokens;
  void (*w8a8)(F2 *, F2 *);
  void (*f32)(F2 *, F2 *);
};
const Entry kEntries[] = {
    {1, _mlir_ciface_mlp_w8a8_t1, _mlir_ciface_mlp_f32_t1},
    {32, _mlir_ciface_mlp_w8a8_t32, _mlir_ciface_mlp_f32_t32},
    {128, _mlir_ciface_mlp_w8a8_t128, _mlir_ciface_mlp_f32_t128},
};

double now() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/// Best of 10 batches; a batch runs at least `budget` / 10 seconds.
double timeBest(const std::function<void()> &body, double budget) {
  body();
  double t0 = now();
  body();
  double once = std::max(now() - t0, 1e-7);
  int reps = std::max(1, int(budget / 10 / once));
  double best = 1e30;
  for (int b = 0; b < 10; ++b) {
    double s = now();
    for (int i = 0; i < reps; ++i)
      body();
    best = std::min(best, (now() - s) / reps);
  }
  return best;
}

std::vector<char> readFile(const std::string &path) {
  FILE *f = fopen(path.c_str(), "rb");
  if (!f) {
    perror(path.c_str());
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  std::vector<char> bytes(ftell(f));
  fseek(f, 0, SEEK_SET);
  if (fread(bytes.data(), 1, bytes.size(), f) != bytes.size())
    exit(1);
  fclose(f);
  return bytes;
}

/// Largest |a - b| over the largest |b|.
double relError(const float *a, const float *b, size_t n) {
  double err = 0, mag = 0;
  for (size_t i = 0; i < n; ++i) {
    err = std::max(err, std::fabs(double(a[i]) - double(b[i])));
    mag = std::max(mag, std::fabs(double(b[i])));
  }
  return err / mag;
}

/// Per-token symmetric quantization as the contract defines it (divide by
/// max|row| / 127, round half to even, saturate); clang vectorizes both
/// loops. NaN handling is not needed for the benchmark's data.
void quantizeRows(const float *x, int rows, int cols, int8_t *codes,
                  float *scales) {
  for (int r = 0; r < rows; ++r) {
    const float *row = x + size_t(r) * cols;
    float m = 0;
    for (int c = 0; c < cols; ++c)
      m = std::max(m, std::fabs(row[c]));
    float s = m == 0 ? 1.0f : m / 127.0f;
    scales[r] = s;
    int8_t *out = codes + size_t(r) * cols;
    for (int c = 0; c < cols; ++c) {
      float q = std::nearbyint(row[c] / s);
      out[c] = int8_t(std::min(127.0f, std::max(-128.0f, q)));
    }
  }
}

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

/// One W8A8 linear layer in oneDNN 2.6: s8 x s8 -> f32 with the column
/// scales as output scales, then the row scales by a C loop and optionally
/// GELU (tanh form) by an eltwise primitive, in place. oneDNN 2.6's matmul
/// takes no per-row scale: the output-scale mask allows columns only, and a
/// binary-multiply post-op by an M x 1 tensor falls back to `ref_int8`
/// (1.5 s for 32 tokens). `runtimeScales` passes the column scales at run
/// time (DNNL_RUNTIME_F32_VAL; oneDNN then picks `gemm:jit`) instead of at
/// creation (`brg:avx512_core_vnni`).
struct OnednnLinear {
  matmul prim;
  memory src, weights, dst, colScales;
  eltwise_forward gelu;
  bool hasGelu, runtimeScales;
  float *rowScales, *out;
  int m, n;
  std::string impl;

  OnednnLinear(engine &eng, stream &s, int m, int k, int n, const int8_t *w,
               const float *cs, bool withGelu, bool runtimeScales,
               int8_t *srcData, float *rowData, float *dstData)
      : hasGelu(withGelu), runtimeScales(runtimeScales), rowScales(rowData),
        out(dstData), m(m), n(n) {
    memory::desc srcMd({m, k}, dt::s8, tag::ab);
    memory::desc wMd({k, n}, dt::s8, tag::any);
    memory::desc dstMd({m, n}, dt::f32, tag::ab);
    primitive_attr attr;
    if (runtimeScales)
      attr.set_output_scales(1 << 1, {DNNL_RUNTIME_F32_VAL});
    else
      attr.set_output_scales(1 << 1, std::vector<float>(cs, cs + n));
    matmul::primitive_desc pd(matmul::desc(srcMd, wMd, dstMd), attr, eng);
    impl = pd.impl_info_str();
    src = memory(srcMd, eng, srcData);
    memory wUser({{k, n}, dt::s8, tag::ab}, eng, const_cast<int8_t *>(w));
    weights = memory(pd.weights_desc(), eng);
    reorder(wUser, weights).execute(s, wUser, weights);
    s.wait();
    dst = memory(dstMd, eng, dstData);
    colScales = memory({{n}, dt::f32, tag::x}, eng, const_cast<float *>(cs));
    prim = matmul(pd);
    if (withGelu) {
      eltwise_forward::primitive_desc gpd(
          eltwise_forward::desc(prop_kind::forward_inference,
                                algorithm::eltwise_gelu_tanh, dstMd, 0.f, 0.f),
          eng);
      impl += " + eltwise " + std::string(gpd.impl_info_str());
      gelu = eltwise_forward(gpd);
    }
  }

  void run(stream &s) {
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}};
    if (runtimeScales)
      args[DNNL_ARG_ATTR_OUTPUT_SCALES] = colScales;
    prim.execute(s, args);
    s.wait();
    for (int r = 0; r < m; ++r) {
      float rs = rowScales[r];
      float *row = out + size_t(r) * n;
      for (int c = 0; c < n; ++c)
        row[c] *= rs;
    }
    if (hasGelu) {
      gelu.execute(s, {{DNNL_ARG_SRC, dst}, {DNNL_ARG_DST, dst}});
      s.wait();
    }
  }
};

/// oneDNN's f32 block, for scale: x W1 with GELU as an eltwise post-op,
/// then W2, on the dequantized weights (codes x column scale), reordered
/// outside the timed region.
struct OnednnF32Block {
  matmul mm1, mm2;
  memory x, w1, h, w2, y;
  std::string impl;

  OnednnF32Block(engine &eng, stream &s, int t, const int8_t *q1,
                 const float *cs1, const int8_t *q2, const float *cs2,
                 float *xData, float *hData, float *yData) {
    auto weights = [&](const int8_t *q, const float *cs, int k, int n) {
      std::vector<float> w(size_t(k) * n);
      for (int r = 0; r < k; ++r)
        for (int c = 0; c < n; ++c)
          w[size_t(r) * n + c] = float(q[size_t(r) * n + c]) * cs[c];
      return w;
    };
    auto make = [&](int m, int k, int n, bool gelu, std::vector<float> wv,
                    memory &wMem) {
      memory::desc srcMd({m, k}, dt::f32, tag::ab);
      memory::desc wMd({k, n}, dt::f32, tag::any);
      memory::desc dstMd({m, n}, dt::f32, tag::ab);
      primitive_attr attr;
      if (gelu) {
        post_ops ops;
        ops.append_eltwise(1.0f, algorithm::eltwise_gelu_tanh, 0.f, 0.f);
        attr.set_post_ops(ops);
      }
      matmul::primitive_desc pd(matmul::desc(srcMd, wMd, dstMd), attr, eng);
      memory wUser({{k, n}, dt::f32, tag::ab}, eng, wv.data());
      wMem = memory(pd.weights_desc(), eng);
      reorder(wUser, wMem).execute(s, wUser, wMem);
      s.wait();
      impl += (impl.empty() ? "" : " / ") + std::string(pd.impl_info_str());
      return matmul(pd);
    };
    mm1 = make(t, kDim, kHidden, true, weights(q1, cs1, kDim, kHidden), w1);
    mm2 = make(t, kHidden, kDim, false, weights(q2, cs2, kHidden, kDim), w2);
    x = memory({{t, kDim}, dt::f32, tag::ab}, eng, xData);
    h = memory({{t, kHidden}, dt::f32, tag::ab}, eng, hData);
    y = memory({{t, kDim}, dt::f32, tag::ab}, eng, yData);
  }

  void run(stream &s) {
    mm1.execute(s, {{DNNL_ARG_SRC, x}, {DNNL_ARG_WEIGHTS, w1}, {DNNL_ARG_DST, h}});
    mm2.execute(s, {{DNNL_ARG_SRC, h}, {DNNL_ARG_WEIGHTS, w2}, {DNNL_ARG_DST, y}});
    s.wait();
  }
};

} // namespace

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DATA_DIR [seconds per timing]\n", argv[0]);
    return 2;
  }
  std::string dir = argv[1];
  double budget = argc > 2 ? atof(argv[2]) : 1.0;
  std::vector<char> wb = readFile(dir + "/weights.bin");
  const int8_t *q1 = reinterpret_cast<const int8_t *>(wb.data());
  const float *cs1 = reinterpret_cast<const float *>(q1 + size_t(kDim) * kHidden);
  const int8_t *q2 = reinterpret_cast<const int8_t *>(cs1 + kHidden);
  const float *cs2 = reinterpret_cast<const float *>(q2 + size_t(kHidden) * kDim);

  engine eng(engine::kind::cpu, 0);
  stream s(eng);

  printf("\nW8A8 MLP block: tokens x %d -> %d -> GELU (tanh) -> %d, one "
         "thread; times best of 10 batches (thread CPU time)\n",
         kDim, kHidden, kDim);
  printf("%7s %10s %10s %10s %8s %8s %9s %11s %10s\n", "tokens", "ours ms",
         "oneDNN ms", "f32 ms", "GOPS", "vs oDNN", "vs f32", "ours exact",
         "oDNN err");
  bool allExact = true;
  std::string impls, f32Impl;
  for (const Entry &e : kEntries) {
    int t = e.tokens;
    std::vector<char> io = readFile(dir + "/io_t" + std::to_string(t) + ".bin");
    float *x = reinterpret_cast<float *>(io.data());
    const float *want = x + size_t(t) * kDim;
    size_t outCount = size_t(t) * kDim;

    F2 xView = view<float, 2>(x, {t, kDim}), out;
    e.w8a8(&out, &xView);
    bool exact = memcmp(out.aligned, want, outCount * sizeof(float)) == 0;
    allExact &= exact;
    free(out.allocated);
    e.f32(&out, &xView);
    double f32Err = relError(out.aligned, want, outCount);
    free(out.allocated);

    // oneDNN: buffers allocated once, as a runtime would; two variants
    // (column scales given at creation or at run time), the faster is the
    // peer.
    std::vector<int8_t> c1(size_t(t) * kDim), c2(size_t(t) * kHidden);
    std::vector<float> s1(t), s2(t), h(size_t(t) * kHidden), y(outCount);
    double tOnednn = 1e30, onednnErr = 0;
    std::string impl;
    for (bool runtimeScales : {false, true}) {
      OnednnLinear l1(eng, s, t, kDim, kHidden, q1, cs1, /*withGelu=*/true,
                      runtimeScales, c1.data(), s1.data(), h.data());
      OnednnLinear l2(eng, s, t, kHidden, kDim, q2, cs2, /*withGelu=*/false,
                      runtimeScales, c2.data(), s2.data(), y.data());
      auto onednnBlock = [&] {
        quantizeRows(x, t, kDim, c1.data(), s1.data());
        l1.run(s);
        quantizeRows(h.data(), t, kHidden, c2.data(), s2.data());
        l2.run(s);
      };
      onednnBlock();
      double err = relError(y.data(), want, outCount);
      double time = timeBest(onednnBlock, budget);
      impls += "  tokens " + std::to_string(t) +
               (runtimeScales ? ", run-time column scales: "
                              : ", column scales at creation: ") +
               l1.impl + " / " + l2.impl + ": " + std::to_string(1e3 * time) +
               " ms\n";
      if (time < tOnednn) {
        tOnednn = time;
        onednnErr = err;
      }
    }

    double tOurs = timeBest([&] {
      e.w8a8(&out, &xView);
      free(out.allocated);
    }, budget);
    double tF32 = timeBest([&] {
      e.f32(&out, &xView);
      free(out.allocated);
    }, budget / 4);
    OnednnF32Block f32Peer(eng, s, t, q1, cs1, q2, cs2, x, h.data(), y.data());
    double tF32Onednn = timeBest([&] { f32Peer.run(s); }, budget);
    if (t == kEntries[0].tokens)
      f32Impl = f32Peer.impl;
    double ops = 2.0 * 2.0 * t * kDim * kHidden;
    printf("%7d %10.3f %10.3f %10.3f %8.1f %7.2fx %8.2fx %11s %10.2g\n", t,
           1e3 * tOurs, 1e3 * tOnednn, 1e3 * tF32, ops / tOurs / 1e9,
           tOnednn / tOurs, tF32 / tOurs, exact ? "yes" : "NO", onednnErr);
    fflush(stdout);
    (void)f32Err;
    printf("%7s f32 block vs the W8A8 model: max error / max |y| = %.3g; "
           "oneDNN's f32 block %.3f ms (%.2fx ours)\n", "", f32Err,
           1e3 * tF32Onednn, tF32Onednn / tOurs);
  }
  printf("vs oDNN = oneDNN time / ours (above 1: ours faster); vs f32 = our "
         "f32 block's time / ours.\n");
  printf("oneDNN variants (layer 1 / layer 2), the faster is the peer:\n%s",
         impls.c_str());
  printf("oneDNN's f32 block (matmul + eltwise post-op, no quantization): "
         "%s\n", f32Impl.c_str());
  printf("ours exact: equal bit for bit to utils/gen-w8a8-mlp.py's exact "
         "model; oDNN err: max |y - model| / max |model|\n");
  return allExact ? 0 : 1;
}
