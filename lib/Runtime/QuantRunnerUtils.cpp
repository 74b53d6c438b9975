//===- QuantRunnerUtils.cpp - printMemrefI8 / printMemrefU8 ----------------===//
//
// The dialect contract prints 8-bit results through `printMemrefI8`, which
// LLVM 22's libmlir_runner_utils does not ship. This library adds it (and
// `printMemrefU8`, for u8 codes stored in signless i8, and `printMemrefI16`) in upstream's exact
// output format: elements are widened to i32 and printed by the same
// `impl::printMemRef` template that `printMemrefI32` uses, so that 8-bit
// codes print as numbers rather than characters. Load it with
// `mlir-runner -shared-libs=.../libquant_runner_utils.so`.
//
//===----------------------------------------------------------------------===//

#include "mlir/ExecutionEngine/RunnerUtils.h"

#include <cstdint>
#include <cstring>
#include <vector>

namespace {
template <typename Code>
void printWidened(int64_t rank, void *ptr) {
  UnrankedMemRefType<Code> unranked = {rank, ptr};
  DynamicMemRefType<Code> source(unranked);

  int64_t count = 1;
  for (int64_t i = 0; i < rank; ++i)
    count *= source.sizes[i];
  std::vector<int32_t> values;
  values.reserve(count);
  // Row-major walk honouring the source strides and offset.
  std::vector<int64_t> index(rank, 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t linear = source.offset;
    for (int64_t d = 0; d < rank; ++d)
      linear += index[d] * source.strides[d];
    values.push_back(static_cast<int32_t>(source.data[linear]));
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < source.sizes[d])
        break;
      index[d] = 0;
    }
  }

  // A descriptor {allocated, aligned, offset, sizes[rank], strides[rank]}.
  std::vector<int64_t> descriptor(3 + 2 * rank);
  auto *data = values.data();
  static_assert(sizeof(int64_t) == sizeof(void *), "64-bit hosts only");
  std::memcpy(&descriptor[0], &data, sizeof(data));
  std::memcpy(&descriptor[1], &data, sizeof(data));
  descriptor[2] = 0;
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    descriptor[3 + d] = source.sizes[d];
    descriptor[3 + rank + d] = stride;
    stride *= source.sizes[d];
  }
  UnrankedMemRefType<int32_t> widened = {rank, descriptor.data()};
  std::cout << "Unranked Memref ";
  if (count == 0) {
    // Upstream's printer reads the first element even of an empty memref
    // (a null pointer here). No elements print as [], as in
    // qnt_print_runtime.c.
    printMemRefMetaData(std::cout, DynamicMemRefType<int32_t>(widened));
    std::cout << " data = \n[]\n" << std::flush;
    return;
  }
  impl::printMemRef(DynamicMemRefType<int32_t>(widened));
}
} // namespace

extern "C" MLIR_RUNNERUTILS_EXPORT void printMemrefI8(int64_t rank,
                                                      void *ptr) {
  printWidened<int8_t>(rank, ptr);
}

extern "C" MLIR_RUNNERUTILS_EXPORT void printMemrefI16(int64_t rank,
                                                       void *ptr) {
  printWidened<int16_t>(rank, ptr);
}

extern "C" MLIR_RUNNERUTILS_EXPORT void printMemrefU8(int64_t rank,
                                                      void *ptr) {
  printWidened<uint8_t>(rank, ptr);
}
