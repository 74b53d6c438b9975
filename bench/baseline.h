/* The plain C reference loops of the benchmark (bench/baseline.c). */
#ifndef QUANT_OPT_BENCH_BASELINE_H
#define QUANT_OPT_BENCH_BASELINE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* y = clamp(rescale(acc, M0 * 2^-shift) + zp, -128, 127), "double" rounding. */
struct requant {
  int32_t m0;
  int shift;
  int32_t zp;
};

/* y[m,n] = requant(bias[n] + sum_k (x[m,k] - zx) * w[k,n]); acc: n i32. */
void baseline_matmul(int m, int k, int n, const int8_t *x, int32_t zx,
                     const int8_t *w, const int32_t *bias,
                     const struct requant *rq, int8_t *y, int32_t *acc);

/* NHWC (batch 1) x HWCF, stride 1, symmetric padding holding zx; acc: f i32. */
void baseline_conv(int h, int w, int c, int kh, int kw, int f, int pad,
                   const int8_t *x, int32_t zx, const int8_t *wt,
                   const int32_t *bias, const struct requant *rq, int8_t *y,
                   int32_t *acc);

void baseline_quantize_i8(const float *x, int8_t *q, long n, float s, int z);
void baseline_quantize_u8(const float *x, uint8_t *q, long n, float s, int z);
void baseline_dequantize_i8(const int8_t *q, float *r, long n, float s, int z);
void baseline_dequantize_i16(const int16_t *q, float *r, long n, float s,
                             int z);

/* TFLite's integer add ("double" rounding, all multipliers < 1): each input
 * (q - z) << left_shift is rescaled by its own Q31 multiplier, the sum by the
 * output multiplier, then z_y is added and the result saturated to i8. */
struct add_params {
  int left_shift;
  int32_t m0_a, m0_b, m0_out;
  int shift_a, shift_b, shift_out;
  int32_t za, zb, zy;
};

void baseline_add(long n, const int8_t *a, const int8_t *b, int8_t *y,
                  const struct add_params *p);

/* NHWC (batch 1) max pool, k x k window, stride, symmetric padding that
 * never wins. */
void baseline_maxpool(int h, int w, int c, int k, int stride, int pad,
                      const int8_t *x, int8_t *y);

/* NHWC (batch 1) average pool over the real positions of each window
 * (count_include_pad = false), qnt.avg_pool2d's rounding "away":
 * y = clamp(z + round_half_away(sum(q - z) / count)); c <= 1024. */
void baseline_avgpool(int h, int w, int c, int k, int stride, int pad, int zp,
                      const int8_t *x, int8_t *y);

#ifdef __cplusplus
}
#endif

#endif
