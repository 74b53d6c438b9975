// Times qnt.dequantize_dynamic per row (runtime-scales.mlir, compiled by
// quant-opt --qnt-to-llvm) against memcpy, memset and plain C loops, one
// thread, at two sizes: 1024 x 4096 (20 MB working set, inside the 32 MB L3
// of the development machine) and 4096 x 4096 (80 MB, beyond it).
//
// GB/s counts bytes read + bytes written, for every line alike: the kernel
// reads 1 code and writes 4 bytes of f32 per element (5 bytes; the per-row
// parameters are negligible). Two memcpy lines bracket it: one that moves
// the same read + write traffic (2.5 bytes copied per element), and one
// that writes the same output bytes (4 bytes copied per element, so it also
// reads 4). The memset line writes the output alone. The compiled output
// must equal the C loop's bit for bit.
//
// A memcpy's bandwidth is usually quoted as bytes copied per second (half
// its read + write traffic). The last line therefore also compares the
// kernel's read + write rate with that figure for a memcpy of the kernel's
// 5 bytes per element: the lenient reading of "the GB/s of a plain memcpy
// of its bytes" (issue #11), next to the strict one above.
#include <malloc.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

typedef struct {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} Memref2D;

typedef void (*Kernel)(Memref2D *, Memref2D *, Memref2D *, Memref2D *);
void _mlir_ciface_dequantize_dynamic_rows(Memref2D *result, Memref2D *src,
                                          Memref2D *scale, Memref2D *offset);
void _mlir_ciface_dequantize_dynamic_rows_large(Memref2D *result,
                                                Memref2D *src, Memref2D *scale,
                                                Memref2D *offset);

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
             float *out, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    float s = scale[r], o = offset[r];
    for (int c = 0; c < cols; ++c) {
      float centered = (float)q[(size_t)r * cols + c] - o;
      out[(size_t)r * cols + c] = centered * s;
    }
  }
}

#ifdef __AVX512F__
// The same loop with non-temporal stores (what the lowering would emit if
// it used them): no read of the output lines before they are written, but
// the lines go to memory, not to the cache. cols % 16 == 0, out 64-aligned.
static void __attribute__((noinline))
c_dequantize_nt(const int8_t *q, const float *scale, const float *offset,
                float *out, int rows, int cols) {
  for (int r = 0; r < rows; ++r) {
    __m512 s = _mm512_set1_ps(scale[r]), o = _mm512_set1_ps(offset[r]);
    for (int c = 0; c < cols; c += 16) {
      __m128i codes = _mm_loadu_si128((const __m128i *)(q + (size_t)r * cols + c));
      __m512 v = _mm512_cvtepi32_ps(_mm512_cvtepi8_epi32(codes));
      _mm512_stream_ps(out + (size_t)r * cols + c,
                       _mm512_mul_ps(_mm512_sub_ps(v, o), s));
    }
  }
  _mm_sfence();
}
#endif

// Best of 10 batches of `reps` calls.
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

static int run(int rows, int cols, Kernel kernel, int reps) {
  size_t n = (size_t)rows * cols;
  int8_t *q = malloc(n);
  float *scale = malloc(rows * sizeof(float));
  float *offset = malloc(rows * sizeof(float));
  float *ref = malloc(n * sizeof(float));
  float *dst = aligned_alloc(64, n * sizeof(float));
  size_t sameTraffic = 5 * n / 2, sameOutput = 4 * n, kernelBytes = 5 * n;
  // Each memcpy line gets buffers of exactly its size.
  unsigned char *copyFrom = malloc(sameTraffic), *copyTo = malloc(sameTraffic);
  unsigned char *outFrom = malloc(sameOutput), *outTo = malloc(sameOutput);
  unsigned char *allFrom = malloc(kernelBytes), *allTo = malloc(kernelBytes);
  srand(1);
  for (size_t i = 0; i < n; ++i)
    q[i] = (int8_t)(rand() & 0xFF);
  for (int r = 0; r < rows; ++r) {
    scale[r] = 0.001f * (float)(1 + rand() % 1000);
    offset[r] = (float)(rand() % 256 - 128);
  }
  memset(copyFrom, 1, sameTraffic);
  memset(copyTo, 0, sameTraffic);
  memset(outFrom, 1, sameOutput);
  memset(outTo, 0, sameOutput);
  memset(allFrom, 1, kernelBytes);
  memset(allTo, 0, kernelBytes);

  Memref2D src = view(q, rows, cols), s = view(scale, rows, 1),
           o = view(offset, rows, 1), out;
  c_dequantize(q, scale, offset, ref, rows, cols);
  kernel(&out, &src, &s, &o);
  int exact = memcmp(out.aligned, ref, n * sizeof(float)) == 0;
  free(out.allocated);

  double tOurs, tC, tNt = 0, tCopy, tCopyOut, tCopyAll, tSet;
  TIME(tOurs, reps, {
    kernel(&out, &src, &s, &o);
    free(out.allocated);
  });
  TIME(tC, reps, c_dequantize(q, scale, offset, dst, rows, cols));
#ifdef __AVX512F__
  c_dequantize_nt(q, scale, offset, dst, rows, cols);
  exact &= memcmp(dst, ref, n * sizeof(float)) == 0;
  TIME(tNt, reps, c_dequantize_nt(q, scale, offset, dst, rows, cols));
#endif
  TIME(tCopy, reps, {
    memcpy(copyTo, copyFrom, sameTraffic);
    __asm__ volatile("" : : "r"(copyTo) : "memory");
  });
  TIME(tCopyOut, reps, {
    memcpy(outTo, outFrom, sameOutput);
    __asm__ volatile("" : : "r"(outTo) : "memory");
  });
  TIME(tCopyAll, reps, {
    memcpy(allTo, allFrom, kernelBytes);
    __asm__ volatile("" : : "r"(allTo) : "memory");
  });
  TIME(tSet, reps, {
    memset(dst, 0, n * sizeof(float));
    __asm__ volatile("" : : "r"(dst) : "memory");
  });
  double bytes = 5.0 * n; // read + written

  printf("\nRuntime scales: qnt.dequantize_dynamic per row, i8 %dx%d -> f32, "
         "%.0f MB read + written (one thread)\n", rows, cols, bytes / 1e6);
  printf("  %-40s %9.3f ms %7.1f GB/s\n", "ours (qnt.dequantize_dynamic)",
         1e3 * tOurs, bytes / tOurs / 1e9);
  printf("  %-40s %9.3f ms %7.1f GB/s\n", "C loop (clang-22 -O3 -march=native)",
         1e3 * tC, bytes / tC / 1e9);
  if (tNt > 0)
    printf("  %-40s %9.3f ms %7.1f GB/s\n", "C loop, non-temporal stores",
           1e3 * tNt, bytes / tNt / 1e9);
  printf("  %-40s %9.3f ms %7.1f GB/s\n", "memcpy 2.5 B/elem (same r+w bytes)",
         1e3 * tCopy, bytes / tCopy / 1e9);
  printf("  %-40s %9.3f ms %7.1f GB/s\n", "memcpy 4 B/elem (same bytes written)",
         1e3 * tCopyOut, 8.0 * n / tCopyOut / 1e9);
  printf("  %-40s %9.3f ms %7.1f GB/s copied\n",
         "memcpy 5 B/elem (the kernel's bytes)", 1e3 * tCopyAll,
         bytes / tCopyAll / 1e9);
  printf("  %-40s %9.3f ms %7.1f GB/s\n", "memset of the f32 output (4 B/elem)",
         1e3 * tSet, 4.0 * n / tSet / 1e9);
  printf("  ours / memcpy throughput: %.2f (same r+w bytes), %.2f (same bytes "
         "written); ours / C loop %.2f; output %s the C loop's\n",
         tCopy / tOurs, (bytes / tOurs) / (8.0 * n / tCopyOut), tC / tOurs,
         exact ? "bit-identical to" : "DIFFERS from");
  printf("  ours (read + written) / memcpy of 5 B/elem (copied): %.2f\n",
         (bytes / tOurs) / (bytes / tCopyAll));
  free(q);
  free(scale);
  free(offset);
  free(ref);
  free(dst);
  free(copyFrom);
  free(copyTo);
  free(outFrom);
  free(outTo);
  free(allFrom);
  free(allTo);
  return exact;
}

int main(void) {
  // The compiled kernel allocates its 16 or 64 MB result on every call:
  // keep glibc from returning it to the kernel, or every call pays page
  // faults (as bench/driver.cpp does).
  mallopt(M_MMAP_THRESHOLD, 512 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  int exact = run(1024, 4096, _mlir_ciface_dequantize_dynamic_rows, 5);
  exact &= run(4096, 4096, _mlir_ciface_dequantize_dynamic_rows_large, 2);
  return exact ? 0 : 1;
}
