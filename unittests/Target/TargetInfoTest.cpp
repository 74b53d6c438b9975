//===- TargetInfoTest.cpp - target names and feature queries --------------===//
//
// Kernel choice comes from {triple, cpu, features} alone: none of these
// expectations depends on the machine running the test.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Target/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

using quantopt::TargetInfo;

namespace {

TEST(TargetInfoTest, NamedTargetsResolve) {
  std::optional<TargetInfo> x86 = TargetInfo::resolve("x86_64");
  ASSERT_TRUE(x86);
  EXPECT_EQ(x86->triple, "x86_64-unknown-linux-gnu");
  EXPECT_EQ(x86->cpu, "x86-64-v4");
  std::optional<TargetInfo> rv = TargetInfo::resolve("riscv64");
  ASSERT_TRUE(rv);
  EXPECT_EQ(rv->abi, "lp64d");
  EXPECT_FALSE(TargetInfo::resolve("x86"));
  EXPECT_FALSE(TargetInfo::resolve(""));
}

// Where Linux describes the caches, the host's last level is read, in bytes
// ("32768K" in sysfs): no data cache that holds a last level is below 64 KiB.
// (Without sysfs, x86 falls back on CPUID, which a VM may hide as well.)
TEST(TargetInfoTest, HostCacheSizeIsReadInBytes) {
  if (!llvm::sys::fs::exists("/sys/devices/system/cpu/cpu0/cache/index0/size"))
    GTEST_SKIP() << "no sysfs cache description";
  std::optional<uint64_t> bytes = TargetInfo::hostLastLevelCacheBytes();
  ASSERT_TRUE(bytes);
  EXPECT_GE(*bytes, 64u * 1024);
}

// CPUID leaf 4 / 0x8000001D subleaves, encoded by hand from the layout in
// Intel's SDM (vol. 2A, CPUID leaf 04H) and AMD's APM (Fn8000_001D).
TEST(TargetInfoTest, DecodesCpuidCacheLeaves) {
  // A 32 MiB L3 (one Zen 4 CCD): unified (3), level 3, 16 ways, one
  // partition, 64-byte lines, 32768 sets.
  uint32_t eax = 3 | (3 << 5), ebx = (15u << 22) | (0u << 12) | 63, ecx = 32767;
  auto l3 = TargetInfo::decodeCpuidCacheLeaf(eax, ebx, ecx);
  ASSERT_TRUE(l3);
  EXPECT_EQ(l3->level, 3);
  EXPECT_EQ(l3->bytes, 32u * 1024 * 1024);
  // A 48 KiB L1 data cache (1), 12 ways, 64 sets.
  auto l1 =
      TargetInfo::decodeCpuidCacheLeaf(1 | (1 << 5), (11u << 22) | 63, 63);
  ASSERT_TRUE(l1);
  EXPECT_EQ(l1->level, 1);
  EXPECT_EQ(l1->bytes, 48u * 1024);
  // Instruction caches and the end of the list are not data caches.
  EXPECT_FALSE(TargetInfo::decodeCpuidCacheLeaf(2 | (1 << 5), ebx, ecx));
  EXPECT_FALSE(TargetInfo::decodeCpuidCacheLeaf(0, 0, 0));
}

// The fixed names are the documented list (knownNames) minus `host`, each
// resolves, and the list names each target once.
TEST(TargetInfoTest, FixedNamesAreTheKnownNamesBesidesHost) {
  llvm::ArrayRef<llvm::StringRef> names = TargetInfo::fixedNames();
  // knownNames() reads "host, a, b or c".
  llvm::SmallVector<llvm::StringRef> listed;
  for (llvm::StringRef part : llvm::split(TargetInfo::knownNames(), ", "))
    for (llvm::StringRef name : llvm::split(part, " or "))
      listed.push_back(name);
  EXPECT_EQ(listed.size(), names.size() + 1);
  for (llvm::StringRef name : names) {
    EXPECT_NE(name, "host");
    EXPECT_TRUE(TargetInfo::resolve(name)) << name.str();
    EXPECT_TRUE(llvm::is_contained(listed, name)) << name.str();
    EXPECT_EQ(llvm::count(names, name), 1) << name.str();
  }
  EXPECT_TRUE(llvm::is_contained(listed, "host"));
}

TEST(TargetInfoTest, X86_64HasVnni) {
  EXPECT_TRUE(TargetInfo::resolve("x86_64")->hasAvx512Vnni());
}

// x86-64-v4 implies AVX-512 BW but not VNNI.
TEST(TargetInfoTest, X86_64V4WithoutVnniFeatureHasNoVnni) {
  TargetInfo info{"x86_64-unknown-linux-gnu", "x86-64-v4", "", ""};
  EXPECT_TRUE(info.hasFeature("avx512bw"));
  EXPECT_FALSE(info.hasAvx512Vnni());
}

TEST(TargetInfoTest, PlainX86_64CpuHasNoVnni) {
  TargetInfo info{"x86_64-unknown-linux-gnu", "x86-64", "", ""};
  EXPECT_FALSE(info.hasFeature("avx512bw"));
  EXPECT_FALSE(info.hasAvx512Vnni());
}

// A CPU name implies the feature: Ice Lake server has VNNI with no +attr.
TEST(TargetInfoTest, CpuImpliesVnni) {
  TargetInfo info{"x86_64-unknown-linux-gnu", "icelake-server", "", ""};
  EXPECT_TRUE(info.hasAvx512Vnni());
  TargetInfo minus{"x86_64-unknown-linux-gnu", "icelake-server",
                   "-avx512vnni", ""};
  EXPECT_FALSE(minus.hasAvx512Vnni());
}

TEST(TargetInfoTest, X86_64AmxHasAmxAndVnni) {
  std::optional<TargetInfo> amx = TargetInfo::resolve("x86_64-amx");
  ASSERT_TRUE(amx);
  EXPECT_EQ(amx->triple, "x86_64-unknown-linux-gnu");
  EXPECT_EQ(amx->cpu, "sapphirerapids");
  EXPECT_TRUE(amx->hasAmxInt8());
  EXPECT_TRUE(amx->hasAvx512Vnni());
}

// AMX is never assumed: not on the VNNI target, not on a pre-AMX server CPU,
// not when the feature string takes it away, not on another triple.
TEST(TargetInfoTest, AmxOnlyWhereTheTargetSaysSo) {
  EXPECT_FALSE(TargetInfo::resolve("x86_64")->hasAmxInt8());
  TargetInfo icx{"x86_64-unknown-linux-gnu", "icelake-server", "", ""};
  EXPECT_FALSE(icx.hasAmxInt8());
  TargetInfo added{"x86_64-unknown-linux-gnu", "x86-64-v4",
                   "+avx512vnni,+amx-tile,+amx-int8", ""};
  EXPECT_TRUE(added.hasAmxInt8());
  TargetInfo minus{"x86_64-unknown-linux-gnu", "sapphirerapids", "-amx-int8",
                   ""};
  EXPECT_FALSE(minus.hasAmxInt8());
  EXPECT_FALSE(TargetInfo::resolve("aarch64")->hasAmxInt8());
  TargetInfo i686{"i686-unknown-linux-gnu", "sapphirerapids", "", ""};
  EXPECT_FALSE(i686.hasAmxInt8());
}

TEST(TargetInfoTest, AArch64HasNoVnni) {
  std::optional<TargetInfo> arm = TargetInfo::resolve("aarch64");
  ASSERT_TRUE(arm);
  EXPECT_FALSE(arm->hasAvx512Vnni());
  EXPECT_TRUE(arm->hasFeature("i8mm"));
  // An x86 feature name on another triple is unknown, not a crash.
  EXPECT_FALSE(arm->hasFeature("avx512vnni"));
}

// The narrower AArch64 names: Neoverse N1 has dotprod but no i8mm (Arm
// Neoverse N1 TRM: Armv8.2-A with the dot product extension), Cortex-A57
// (Armv8.0-A) neither.
TEST(TargetInfoTest, AArch64CpuNames) {
  std::optional<TargetInfo> n1 = TargetInfo::resolve("aarch64-dotprod");
  ASSERT_TRUE(n1);
  EXPECT_EQ(n1->cpu, "neoverse-n1");
  EXPECT_TRUE(n1->hasFeature("dotprod"));
  EXPECT_FALSE(n1->hasFeature("i8mm"));
  std::optional<TargetInfo> a57 = TargetInfo::resolve("aarch64-neon");
  ASSERT_TRUE(a57);
  EXPECT_EQ(a57->cpu, "cortex-a57");
  EXPECT_TRUE(a57->hasFeature("neon"));
  EXPECT_FALSE(a57->hasFeature("dotprod"));
  EXPECT_FALSE(a57->hasFeature("i8mm"));
  // Same triple, same data layout as `aarch64`.
  llvm::Expected<std::string> a = TargetInfo::resolve("aarch64")->getDataLayout();
  llvm::Expected<std::string> b = a57->getDataLayout();
  ASSERT_TRUE(a && b);
  EXPECT_EQ(*a, *b);
}

TEST(TargetInfoTest, UnknownTripleHasNoFeatures) {
  TargetInfo info{"nonsense-unknown-none", "", "+avx512vnni", ""};
  EXPECT_FALSE(info.hasAvx512Vnni());
  llvm::Expected<std::string> layout = info.getDataLayout();
  EXPECT_FALSE(static_cast<bool>(layout));
  llvm::consumeError(layout.takeError());
}

// The data layouts LLVM 22 uses for these triples (clang -### prints them).
TEST(TargetInfoTest, DataLayoutFromTargetMachine) {
  llvm::Expected<std::string> x86 =
      TargetInfo::resolve("x86_64")->getDataLayout();
  ASSERT_TRUE(static_cast<bool>(x86));
  EXPECT_EQ(*x86, "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-"
                  "f80:128-n8:16:32:64-S128");
  llvm::Expected<std::string> rv =
      TargetInfo::resolve("riscv64")->getDataLayout();
  ASSERT_TRUE(static_cast<bool>(rv));
  EXPECT_EQ(*rv, "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128");
}

TEST(TargetInfoTest, HostResolvesToProcessTriple) {
  std::optional<TargetInfo> host = TargetInfo::resolve("host");
  ASSERT_TRUE(host);
  EXPECT_FALSE(host->triple.empty());
  EXPECT_FALSE(host->cpu.empty());
}

} // namespace
