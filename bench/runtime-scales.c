// Times qnt.dequantize_dynamic per row (runtime-scales.mlir, compiled by
// quant-opt --qnt-to-llvm) against a memcpy that moves as many bytes and a
// plain C loop, one thread. GB/s counts bytes read + bytes written, for every
// line alike: the kernel reads 1 code and writes 4 bytes of f32 per element
// (5 bytes; the per-row parameters are negligible), so the memcpy copies 2.5
// bytes per element (2.5 read + 2.5 written). The compiled output must equal
// the C loop's bit for bit.
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kRows = 1024, kCols = 4096 };

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

void _mlir_ciface_dequantize_dynamic_rows(Memref2D *result, Memref2D *src,
                                          Memref2D *scale, Memref2D *offset);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static Memref2D view(void *data, int64_t rows, int64_t cols) {
  Memref2D m = {data, data, 0, {rows, cols}, {cols, 1}};
  return m;
}

// The C loop, in the contract's order: (f32(q) - offset) * scale.
static void __attribute__((noinline))
c_dequantize(const int8_t *q, const float *scale, const float *offset,
             float *out) {
  for (int r = 0; r < kRows; ++r) {
    float s = scale[r], o = offset[r];
    for (int c = 0; c < kCols; ++c) {
      float centered = (float)q[(size_t)r * kCols + c] - o;
      out[(size_t)r * kCols + c] = centered * s;
    }
  }
}

// Best of `batches` timings of `reps` calls.
#define TIME(best, reps, body)                                                 \
  do {                                                                         \
    best = 1e30;                                                               \
    for (int b = 0; b < 10; ++b) {                                             \
      double t0 = now();                                                       \
      for (int i = 0; i < (reps); ++i) {                                       \
        body;                                                                  \
      }                                                                        \
      double t = (now() - t0) / (reps);                                        \
      if (t < best)                                                            \
        best = t;                                                              \
    }                                                                          \
  } while (0)

int main(void) {
  size_t n = (size_t)kRows * kCols;
  int8_t *q = malloc(n);
  float *scale = malloc(kRows * sizeof(float));
  float *offset = malloc(kRows * sizeof(float));
  float *ref = malloc(n * sizeof(float));
  float *dst = malloc(n * sizeof(float));
  // Same read + write traffic as the kernel: 2.5 bytes copied per element.
  size_t copyBytes = 5 * n / 2;
  unsigned char *copyFrom = malloc(copyBytes), *copyTo = malloc(copyBytes);
  srand(1);
  for (size_t i = 0; i < n; ++i)
    q[i] = (int8_t)(rand() & 0xFF);
  for (int r = 0; r < kRows; ++r) {
    scale[r] = 0.001f * (float)(1 + rand() % 1000);
    offset[r] = (float)(rand() % 256 - 128);
  }
  memset(copyFrom, 1, copyBytes);
  memset(copyTo, 0, copyBytes);

  Memref2D src = view(q, kRows, kCols), s = view(scale, kRows, 1),
           o = view(offset, kRows, 1), out;
  c_dequantize(q, scale, offset, ref);
  _mlir_ciface_dequantize_dynamic_rows(&out, &src, &s, &o);
  int exact = memcmp(out.aligned, ref, n * sizeof(float)) == 0;
  free(out.allocated);

  double tOurs, tC, tCopy, tSet;
  TIME(tOurs, 5, {
    _mlir_ciface_dequantize_dynamic_rows(&out, &src, &s, &o);
    free(out.allocated);
  });
  TIME(tC, 5, c_dequantize(q, scale, offset, dst));
  TIME(tCopy, 5, {
    memcpy(copyTo, copyFrom, copyBytes);
    __asm__ volatile("" : : "r"(copyTo) : "memory");
  });
  // Writing the output alone: 4 bytes per element, nothing read.
  TIME(tSet, 5, {
    memset(dst, 0, n * sizeof(float));
    __asm__ volatile("" : : "r"(dst) : "memory");
  });
  double bytes = 5.0 * n; // read + written

  printf("\nRuntime scales: qnt.dequantize_dynamic per row, i8 %dx%d -> f32 "
         "(one thread)\n", kRows, kCols);
  printf("  %-36s %9.3f ms %7.1f GB/s\n", "ours (qnt.dequantize_dynamic)",
         1e3 * tOurs, bytes / tOurs / 1e9);
  printf("  %-36s %9.3f ms %7.1f GB/s\n", "C loop (clang-22 -O3 -march=native)",
         1e3 * tC, bytes / tC / 1e9);
  printf("  %-36s %9.3f ms %7.1f GB/s\n", "memcpy, 2.5 B/elem (same r+w bytes)",
         1e3 * tCopy, bytes / tCopy / 1e9);
  printf("  %-36s %9.3f ms %7.1f GB/s\n", "memset of the f32 output (4 B/elem)",
         1e3 * tSet, 4.0 * n / tSet / 1e9);
  printf("  ours / memcpy throughput %.2f, ours / C loop %.2f; output %s the "
         "C loop's\n", tCopy / tOurs, tC / tOurs,
         exact ? "bit-identical to" : "DIFFERS from");
  return exact ? 0 : 1;
}
