// oneDNN peers of the benchmark's kernels (bench/onednn.cpp).
//
// Each function builds an int8 oneDNN primitive for the same function as
// ours: y = saturate_i8(round(scale * (sum (x - zx) * w + bias)) + zy), with
// x s8 (or, for the u8s8s8 variant, the same values as u8 x + 128 with zero
// point zx + 128), weights s8 and an s32 bias. Weights are reordered to the
// layout the primitive asks for outside the timed region, unless
// `reorderWeightsEachCall` (run-time weights). `y` receives the result.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

struct OnednnResult {
  double seconds = 0; // per call; 0 when not run
  std::string error;  // why not, when the primitive is unavailable
};

/// Seconds per call of `f` (the driver's timer).
using OnednnTimer = std::function<double(const std::function<void()> &)>;

/// x: M x K row-major, w: K x N row-major.
OnednnResult onednnMatmul(int m, int k, int n, bool u8Src, const int8_t *x,
                          int32_t zx, const int8_t *w, const int32_t *bias,
                          float scale, int32_t zy, int8_t *y,
                          bool reorderWeightsEachCall,
                          const OnednnTimer &timer);

/// x: 1 x H x W x C (NHWC), w: KH x KW x (C/groups) x F (HWCF), stride 1,
/// symmetric padding `pad`; y: 1 x OH x OW x F (NHWC).
OnednnResult onednnConv(int h, int w, int c, int kh, int kw, int f, int pad,
                        int groups, bool u8Src, const int8_t *x, int32_t zx,
                        const int8_t *wt, const int32_t *bias, float scale,
                        int32_t zy, int8_t *y, const OnednnTimer &timer);

/// The oneDNN version and CPU ISA it dispatches to, for the report.
std::string onednnDescription();
