//===- ModuleGenerator.h - random qnt modules from fuzzer bytes --*- C++ -*-===//
//
// Turns libFuzzer's bytes into the text of one module over the public qnt
// ops, so that most inputs pass the verifier and reach the passes: per-tensor
// and per-axis types, i8/u8/i16/i32 storage, narrow ranges, extreme scales
// and zero points, extreme (and a few invalid) shapes under a size cap, every
// attribute and rounding mode. Now and then a rule is broken on purpose so
// that the verifier's side of the contract is fuzzed too.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TOOLS_QUANTFUZZERS_MODULEGENERATOR_H
#define QUANTOPT_TOOLS_QUANTFUZZERS_MODULEGENERATOR_H

#include <cstddef>
#include <cstdint>
#include <string>

namespace quantopt::fuzz {

/// Which of the ops that are newer than the first contract version exist in
/// this build (the generator emits them only then).
struct AvailableOps {
  bool add = false;
  bool maxPool2d = false;
  bool avgPool2d = false;
  bool concat = false;
};

/// Returns AvailableOps for the qnt dialect linked into this binary.
AvailableOps queryAvailableOps();

/// Builds a module from `data`; the same bytes always give the same text.
std::string generateModule(const uint8_t *data, size_t size,
                           const AvailableOps &ops);

} // namespace quantopt::fuzz

#endif // QUANTOPT_TOOLS_QUANTFUZZERS_MODULEGENERATOR_H
