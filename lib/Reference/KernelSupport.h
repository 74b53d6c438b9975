//===- KernelSupport.h - invariant checks of the reference kernels -*- C++ -*-===//
//
// Internal to lib/Reference: how a kernel reports a broken invariant and the
// size checks every kernel runs first. The library has no exceptions (it
// links into LLVM tools built with -fno-exceptions) and must not return
// wrong numbers, so a broken invariant prints a message and aborts.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_REFERENCE_KERNELSUPPORT_H
#define QUANTOPT_LIB_REFERENCE_KERNELSUPPORT_H

#include "QuantOpt/Reference/WindowArithmetic.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace quantopt::ref::support {

[[noreturn]] inline void fatal(const char *kernel, const std::string &message) {
  std::fprintf(stderr, "quantopt::ref::%s: %s\n", kernel, message.c_str());
  std::fflush(stderr);
  std::abort();
}

inline std::string str(int64_t v) { return std::to_string(v); }

/// The element count of `shape`; aborts on a negative dimension or a count
/// that overflows int64.
inline int64_t numElements(const char *kernel,
                           const std::vector<int64_t> &shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      fatal(kernel, "negative dimension " + str(dim));
    std::optional<int64_t> next = checkedMul(count, dim);
    if (!next)
      fatal(kernel, "element count overflows int64");
    count = *next;
  }
  return count;
}

inline void checkSize(const char *kernel, const char *what, size_t actual,
                      int64_t expected) {
  if ((int64_t)actual != expected)
    fatal(kernel, std::string(what) + " has " + str(actual) +
                      " elements, expected " + str(expected));
}

} // namespace quantopt::ref::support

#endif // QUANTOPT_LIB_REFERENCE_KERNELSUPPORT_H
