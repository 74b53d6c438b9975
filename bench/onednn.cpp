// oneDNN (Debian's libdnnl, v2 API) peers of the benchmark's kernels; see
// onednn.h.

#include "onednn.h"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstring>
#include <unordered_map>
#include <vector>

using namespace dnnl;
using dt = memory::data_type;
using tag = memory::format_tag;

namespace {

engine &cpuEngine() {
  static engine eng(engine::kind::cpu, 0);
  return eng;
}

/// The source as the primitive reads it: s8 as is, or u8 = x + 128.
std::vector<uint8_t> sourceBytes(const int8_t *x, size_t count, bool u8Src) {
  std::vector<uint8_t> bytes(count);
  for (size_t i = 0; i < count; ++i)
    bytes[i] = u8Src ? uint8_t(int(x[i]) + 128) : uint8_t(x[i]);
  return bytes;
}

primitive_attr int8Attr(float scale) {
  primitive_attr attr;
  attr.set_output_scales(0, {scale});
  attr.set_zero_points(DNNL_ARG_SRC, 0, {DNNL_RUNTIME_S32_VAL});
  attr.set_zero_points(DNNL_ARG_DST, 0, {DNNL_RUNTIME_S32_VAL});
  return attr;
}

} // namespace

OnednnResult onednnMatmul(int m, int k, int n, bool u8Src, const int8_t *x,
                          int32_t zx, const int8_t *w, const int32_t *bias,
                          float scale, int32_t zy, int8_t *y,
                          bool reorderWeightsEachCall,
                          const OnednnTimer &timer) {
  OnednnResult result;
  try {
    engine &eng = cpuEngine();
    stream s(eng);
    memory::desc srcMd({m, k}, u8Src ? dt::u8 : dt::s8, tag::ab);
    memory::desc wMd({k, n}, dt::s8, tag::any);
    memory::desc biasMd({1, n}, dt::s32, tag::ab);
    memory::desc dstMd({m, n}, dt::s8, tag::ab);
    matmul::primitive_desc pd(matmul::desc(srcMd, wMd, biasMd, dstMd),
                              int8Attr(scale), eng);
    std::vector<uint8_t> src = sourceBytes(x, size_t(m) * k, u8Src);
    int32_t zpSrc = u8Src ? zx + 128 : zx, zpDst = zy;
    memory srcMem(pd.src_desc(), eng, src.data());
    memory wUser({{k, n}, dt::s8, tag::ab}, eng, const_cast<int8_t *>(w));
    memory wMem(pd.weights_desc(), eng);
    reorder toPacked(wUser, wMem);
    toPacked.execute(s, wUser, wMem);
    memory biasMem(biasMd, eng, const_cast<int32_t *>(bias));
    memory dstMem(pd.dst_desc(), eng, y);
    memory zpSrcMem({{1}, dt::s32, tag::x}, eng, &zpSrc);
    memory zpDstMem({{1}, dt::s32, tag::x}, eng, &zpDst);
    matmul prim(pd);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, srcMem},
        {DNNL_ARG_WEIGHTS, wMem},
        {DNNL_ARG_BIAS, biasMem},
        {DNNL_ARG_DST, dstMem},
        {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, zpSrcMem},
        {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, zpDstMem}};
    prim.execute(s, args);
    s.wait();
    result.seconds = timer([&] {
      if (reorderWeightsEachCall)
        toPacked.execute(s, wUser, wMem);
      prim.execute(s, args);
      s.wait();
    });
  } catch (const dnnl::error &e) {
    result.error = e.what();
  }
  return result;
}

OnednnResult onednnConv(int h, int w, int c, int kh, int kw, int f, int pad,
                        int groups, bool u8Src, const int8_t *x, int32_t zx,
                        const int8_t *wt, const int32_t *bias, float scale,
                        int32_t zy, int8_t *y, const OnednnTimer &timer) {
  OnednnResult result;
  try {
    engine &eng = cpuEngine();
    stream s(eng);
    int oh = h + 2 * pad - kh + 1, ow = w + 2 * pad - kw + 1;
    memory::desc srcMd({1, c, h, w}, u8Src ? dt::u8 : dt::s8, tag::nhwc);
    memory::dims wDims =
        groups == 1 ? memory::dims{f, c, kh, kw}
                    : memory::dims{groups, f / groups, c / groups, kh, kw};
    memory::desc wMd(wDims, dt::s8, tag::any);
    memory::desc biasMd({f}, dt::s32, tag::x);
    memory::desc dstMd({1, f, oh, ow}, dt::s8, tag::nhwc);
    convolution_forward::desc d(prop_kind::forward_inference,
                                algorithm::convolution_direct, srcMd, wMd,
                                biasMd, dstMd, {1, 1}, {pad, pad}, {pad, pad});
    convolution_forward::primitive_desc pd(d, int8Attr(scale), eng);
    std::vector<uint8_t> src = sourceBytes(x, size_t(h) * w * c, u8Src);
    int32_t zpSrc = u8Src ? zx + 128 : zx, zpDst = zy;
    memory srcMem(pd.src_desc(), eng, src.data());
    // HWCF is hwio, or hwigo with groups (F = g * F/groups + o).
    memory wUser({wDims, dt::s8, groups == 1 ? tag::hwio : tag::hwigo}, eng,
                 const_cast<int8_t *>(wt));
    memory wMem(pd.weights_desc(), eng);
    reorder(wUser, wMem).execute(s, wUser, wMem);
    memory biasMem(biasMd, eng, const_cast<int32_t *>(bias));
    memory dstMem(pd.dst_desc(), eng, y);
    memory zpSrcMem({{1}, dt::s32, tag::x}, eng, &zpSrc);
    memory zpDstMem({{1}, dt::s32, tag::x}, eng, &zpDst);
    convolution_forward prim(pd);
    std::unordered_map<int, memory> args = {
        {DNNL_ARG_SRC, srcMem},
        {DNNL_ARG_WEIGHTS, wMem},
        {DNNL_ARG_BIAS, biasMem},
        {DNNL_ARG_DST, dstMem},
        {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_SRC, zpSrcMem},
        {DNNL_ARG_ATTR_ZERO_POINTS | DNNL_ARG_DST, zpDstMem}};
    prim.execute(s, args);
    s.wait();
    result.seconds = timer([&] {
      prim.execute(s, args);
      s.wait();
    });
  } catch (const dnnl::error &e) {
    result.error = e.what();
  }
  return result;
}

std::string onednnDescription() {
  const dnnl_version_t *v = dnnl_version();
  std::string isa;
  switch (get_effective_cpu_isa()) {
  case cpu_isa::avx512_core_amx:
    isa = "avx512_core_amx";
    break;
  case cpu_isa::avx512_core_bf16:
    isa = "avx512_core_bf16";
    break;
  case cpu_isa::avx512_core_vnni:
    isa = "avx512_core_vnni";
    break;
  case cpu_isa::avx512_core:
    isa = "avx512_core";
    break;
  case cpu_isa::avx2_vnni:
    isa = "avx2_vnni";
    break;
  case cpu_isa::avx2:
    isa = "avx2";
    break;
  default:
    isa = "other";
    break;
  }
  return "oneDNN " + std::to_string(v->major) + "." +
         std::to_string(v->minor) + "." + std::to_string(v->patch) +
         ", ISA " + isa;
}
