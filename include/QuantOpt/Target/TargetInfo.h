//===- TargetInfo.h - the machine quant-opt compiles for --------*- C++ -*-===//
//
// One place for what depends on the target: the `target=` names, `host`,
// LLVM's TargetMachine and data layout, and the feature queries that choose
// kernels. Everything is computed from {triple, cpu, features} through LLVM's
// MC layer; only `resolve("host")` looks at the running machine.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TARGET_TARGETINFO_H
#define QUANTOPT_TARGET_TARGETINFO_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <optional>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace quantopt {

/// A machine as LLVM's code generators take it (`llc -mtriple -mcpu -mattr
/// -target-abi`).
struct TargetInfo {
  std::string triple;
  std::string cpu;
  /// Comma-separated, in LLVM's names: "+avx512vnni,+neon".
  std::string features;
  /// Empty: the triple's default.
  std::string abi;

  /// Resolves a `target=` name:
  ///   x86_64   x86-64-v4 (AVX-512 F/BW/CD/DQ/VL) + VNNI
  ///   x86_64-amx  Sapphire Rapids: AVX-512 VNNI plus AMX-INT8 tiles
  ///   x86_64-avx2 x86-64-v3: AVX2, FMA, BMI2, no AVX-512 (Haswell, Zen 3)
  ///   aarch64  NEON + dot product + i8mm
  ///   aarch64-dotprod  Neoverse N1: NEON + dot product, no i8mm
  ///   aarch64-neon     Cortex-A57: NEON only
  ///   riscv64  RV64GC + V, the lp64d ABI of Debian's sysroot
  ///   host     the process triple and host CPU, plus the host features the
  ///            CPU name does not imply
  /// nullopt for any other name.
  static std::optional<TargetInfo> resolve(llvm::StringRef name);

  /// Bytes of the largest data cache one core of the running machine uses
  /// (one L3 slice on AMD's chiplets), from Linux's sysfs, else (x86) from
  /// the CPU's cache descriptors (CPUID leaf 4 or 0x8000001D); nullopt where
  /// neither says. Only for `target=host`: a named target says nothing
  /// about the machine that will run the code.
  static std::optional<uint64_t> hostLastLevelCacheBytes();

  /// One cache instance as an x86 deterministic cache parameters leaf
  /// (CPUID 4, AMD 0x8000001D) describes it.
  struct CacheLevel {
    int level;
    uint64_t bytes;
  };
  /// Decodes one subleaf of those leaves; nullopt for an instruction cache
  /// or the end of the list.
  static std::optional<CacheLevel>
  decodeCpuidCacheLeaf(uint32_t eax, uint32_t ebx, uint32_t ecx);

  /// The names `resolve` accepts other than `host`: each means the same
  /// target on every machine (the fuzzers compile for all of them).
  static llvm::ArrayRef<llvm::StringRef> fixedNames();

  /// The names `resolve` accepts, for diagnostics.
  static llvm::StringRef knownNames() {
    return "host, x86_64, x86_64-amx, x86_64-avx2, aarch64, aarch64-dotprod, "
           "aarch64-neon or riscv64";
  }

  /// True when the CPU plus the feature string enable `feature` (LLVM's name,
  /// without sign), as the target's MCSubtargetInfo computes it (implied
  /// features included). False for an unknown triple or feature.
  bool hasFeature(llvm::StringRef feature) const;

  /// 512-bit `vpdpbusd`: an x86-64 triple with AVX-512 BW and VNNI.
  bool hasAvx512Vnni() const;

  /// AMX-INT8 tile multiplies (`tdpb[su][su]d`): an x86-64 triple with
  /// amx-tile and amx-int8.
  bool hasAmxInt8() const;

  /// LLVM's TargetMachine for this target, or an error naming the triple.
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine() const;

  /// The data layout string of `createTargetMachine()`.
  llvm::Expected<std::string> getDataLayout() const;
};

} // namespace quantopt

#endif // QUANTOPT_TARGET_TARGETINFO_H
