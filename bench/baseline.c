/* Plain C loops for the same functions as the compiled module, built with
 * clang-22 -O3 -march=native: the "what the C compiler does by itself"
 * reference. Written the way one would naturally write them, with the loop
 * order that lets the auto-vectorizer work (n innermost over contiguous
 * weights, i32 accumulator row), and no intrinsics. */
#include <math.h>
#include <stdint.h>

#include "baseline.h"

/* gemmlowp / TFLite "double" rounding: saturating rounding doubling high
 * multiply by M0 (Q31), then a rounding divide by 2^shift. */
static inline int32_t requantize_double(int32_t acc, int32_t m0, int shift,
                                        int32_t zp) {
  int32_t high;
  if (acc == INT32_MIN && m0 == INT32_MIN) {
    high = INT32_MAX;
  } else {
    int64_t ab = (int64_t)acc * m0;
    int64_t nudge = ab >= 0 ? (1ll << 30) : 1 - (1ll << 30);
    high = (int32_t)((ab + nudge) / (1ll << 31));
  }
  int32_t mask = (int32_t)((1u << shift) - 1);
  int32_t remainder = high & mask;
  int32_t threshold = (mask >> 1) + (high < 0 ? 1 : 0);
  int32_t y = (high >> shift) + (remainder > threshold ? 1 : 0) + zp;
  return y < -128 ? -128 : (y > 127 ? 127 : y);
}

void baseline_matmul(int m, int k, int n, const int8_t *x, int32_t zx,
                     const int8_t *w, const int32_t *bias,
                     const struct requant *rq, int8_t *y, int32_t *acc) {
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j)
      acc[j] = bias[j];
    for (int p = 0; p < k; ++p) {
      int32_t xv = x[(long)i * k + p] - zx;
      const int8_t *row = w + (long)p * n;
      for (int j = 0; j < n; ++j)
        acc[j] += xv * row[j];
    }
    for (int j = 0; j < n; ++j)
      y[(long)i * n + j] =
          (int8_t)requantize_double(acc[j], rq->m0, rq->shift, rq->zp);
  }
}

void baseline_conv(int h, int wd, int c, int kh, int kw, int f, int pad,
                   const int8_t *x, int32_t zx, const int8_t *w,
                   const int32_t *bias, const struct requant *rq, int8_t *y,
                   int32_t *acc) {
  int oh = h + 2 * pad - kh + 1, ow = wd + 2 * pad - kw + 1;
  for (int r = 0; r < oh; ++r)
    for (int s = 0; s < ow; ++s) {
      for (int j = 0; j < f; ++j)
        acc[j] = bias[j];
      for (int u = 0; u < kh; ++u) {
        int ih = r + u - pad;
        if (ih < 0 || ih >= h)
          continue; /* padding holds zx: (zx - zx) * w = 0 */
        for (int v = 0; v < kw; ++v) {
          int iw = s + v - pad;
          if (iw < 0 || iw >= wd)
            continue;
          const int8_t *px = x + ((long)ih * wd + iw) * c;
          for (int ch = 0; ch < c; ++ch) {
            int32_t xv = px[ch] - zx;
            const int8_t *row = w + (((long)u * kw + v) * c + ch) * f;
            for (int j = 0; j < f; ++j)
              acc[j] += xv * row[j];
          }
        }
      }
      int8_t *out = y + ((long)r * ow + s) * f;
      for (int j = 0; j < f; ++j)
        out[j] = (int8_t)requantize_double(acc[j], rq->m0, rq->shift, rq->zp);
    }
}

/* q = clamp(round_half_even(x / s) + z, lo, hi); NaN gives z. */
void baseline_quantize_i8(const float *x, int8_t *q, long n, float s, int z) {
  for (long i = 0; i < n; ++i) {
    float r = nearbyintf(x[i] / s) + (float)z;
    r = r < -128.0f ? -128.0f : r;
    r = r > 127.0f ? 127.0f : r;
    q[i] = r == r ? (int8_t)r : (int8_t)z;
  }
}

void baseline_quantize_u8(const float *x, uint8_t *q, long n, float s, int z) {
  for (long i = 0; i < n; ++i) {
    float r = nearbyintf(x[i] / s) + (float)z;
    r = r < 0.0f ? 0.0f : r;
    r = r > 255.0f ? 255.0f : r;
    q[i] = r == r ? (uint8_t)r : (uint8_t)z;
  }
}

/* r = (f32(q) - f32(z)) * s */
void baseline_dequantize_i8(const int8_t *q, float *r, long n, float s, int z) {
  for (long i = 0; i < n; ++i)
    r[i] = ((float)q[i] - (float)z) * s;
}

void baseline_dequantize_i16(const int16_t *q, float *r, long n, float s,
                             int z) {
  for (long i = 0; i < n; ++i)
    r[i] = ((float)q[i] - (float)z) * s;
}

/* gemmlowp's SaturatingRoundingDoublingHighMul and RoundingDivideByPOT. */
static inline int32_t high_mul(int32_t a, int32_t b) {
  if (a == INT32_MIN && b == INT32_MIN)
    return INT32_MAX;
  int64_t ab = (int64_t)a * b;
  int64_t nudge = ab >= 0 ? (1ll << 30) : 1 - (1ll << 30);
  return (int32_t)((ab + nudge) / (1ll << 31));
}

static inline int32_t divide_by_pot(int32_t x, int shift) {
  int32_t mask = (int32_t)((1u << shift) - 1);
  int32_t remainder = x & mask;
  int32_t threshold = (mask >> 1) + (x < 0 ? 1 : 0);
  return (x >> shift) + (remainder > threshold ? 1 : 0);
}

void baseline_add(long n, const int8_t *a, const int8_t *b, int8_t *y,
                  const struct add_params *p) {
  for (long i = 0; i < n; ++i) {
    int32_t a1 = (a[i] - p->za) * (1 << p->left_shift);
    int32_t b1 = (b[i] - p->zb) * (1 << p->left_shift);
    int32_t sa = divide_by_pot(high_mul(a1, p->m0_a), p->shift_a);
    int32_t sb = divide_by_pot(high_mul(b1, p->m0_b), p->shift_b);
    int32_t v =
        divide_by_pot(high_mul(sa + sb, p->m0_out), p->shift_out) + p->zy;
    y[i] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
  }
}

void baseline_maxpool(int h, int w, int c, int k, int stride, int pad,
                      const int8_t *x, int8_t *y) {
  int oh = (h + 2 * pad - k) / stride + 1, ow = (w + 2 * pad - k) / stride + 1;
  for (int r = 0; r < oh; ++r)
    for (int s = 0; s < ow; ++s) {
      int8_t *out = y + ((long)r * ow + s) * c;
      for (int ch = 0; ch < c; ++ch)
        out[ch] = -128;
      for (int u = 0; u < k; ++u) {
        int ih = r * stride + u - pad;
        if (ih < 0 || ih >= h)
          continue;
        for (int v = 0; v < k; ++v) {
          int iw = s * stride + v - pad;
          if (iw < 0 || iw >= w)
            continue;
          const int8_t *px = x + ((long)ih * w + iw) * c;
          for (int ch = 0; ch < c; ++ch)
            out[ch] = px[ch] > out[ch] ? px[ch] : out[ch];
        }
      }
    }
}

void baseline_avgpool(int h, int w, int c, int k, int stride, int pad, int zp,
                      const int8_t *x, int8_t *y) {
  int oh = (h + 2 * pad - k) / stride + 1, ow = (w + 2 * pad - k) / stride + 1;
  int32_t acc[1024];
  for (int r = 0; r < oh; ++r)
    for (int s = 0; s < ow; ++s) {
      int count = 0;
      for (int ch = 0; ch < c; ++ch)
        acc[ch] = 0;
      for (int u = 0; u < k; ++u) {
        int ih = r * stride + u - pad;
        if (ih < 0 || ih >= h)
          continue;
        for (int v = 0; v < k; ++v) {
          int iw = s * stride + v - pad;
          if (iw < 0 || iw >= w)
            continue;
          ++count;
          const int8_t *px = x + ((long)ih * w + iw) * c;
          for (int ch = 0; ch < c; ++ch)
            acc[ch] += px[ch];
        }
      }
      int8_t *out = y + ((long)r * ow + s) * c;
      for (int ch = 0; ch < c; ++ch) {
        int32_t d = acc[ch] - count * zp;
        int32_t q = (d >= 0 ? d + count / 2 : d - count / 2) / count;
        int32_t v = zp + q;
        out[ch] = (int8_t)(v < -128 ? -128 : (v > 127 ? 127 : v));
      }
    }
}
