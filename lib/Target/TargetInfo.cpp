//===- TargetInfo.cpp - the machine quant-opt compiles for ----------------===//

#include "QuantOpt/Target/TargetInfo.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#include <mutex>
#include <vector>

using namespace quantopt;
using llvm::StringRef;

namespace {

void initializeLLVMTargets() {
  static std::once_flag initTargets;
  std::call_once(initTargets, [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
  });
}

const llvm::Target *lookupTarget(StringRef triple, std::string &error) {
  initializeLLVMTargets();
  return llvm::TargetRegistry::lookupTarget(llvm::Triple(triple), error);
}

std::unique_ptr<llvm::MCSubtargetInfo>
createSubtargetInfo(StringRef triple, StringRef cpu, StringRef features) {
  std::string error;
  const llvm::Target *target = lookupTarget(triple, error);
  if (!target)
    return nullptr;
  return std::unique_ptr<llvm::MCSubtargetInfo>(target->createMCSubtargetInfo(
      llvm::Triple(triple), cpu, features));
}

/// The host's features (llvm::sys::getHostCPUFeatures, in LLVM's names)
/// that differ from what the host CPU name already implies, sorted:
/// `target-cpu` plus these is exactly the host, as with clang's
/// -march=native, without repeating a hundred implied names on every
/// function. Empty when LLVM knows the host CPU by name.
std::string hostFeatures(StringRef triple, StringRef cpu) {
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget =
      createSubtargetInfo(triple, cpu, "");
  std::vector<std::string> features;
  for (const auto &entry : llvm::sys::getHostCPUFeatures()) {
    StringRef name = entry.getKey();
    std::string feature = (entry.getValue() ? "+" : "-") + name.str();
    bool known = subtarget && llvm::any_of(
                                  subtarget->getAllProcessorFeatures(),
                                  [&](const llvm::SubtargetFeatureKV &kv) {
                                    return name == kv.Key;
                                  });
    if (known && subtarget->checkFeatures(feature))
      continue; // the CPU name already says so
    features.push_back(std::move(feature));
  }
  llvm::sort(features, [](const std::string &a, const std::string &b) {
    return StringRef(a).drop_front() < StringRef(b).drop_front();
  });
  return llvm::join(features, ",");
}

} // namespace

llvm::ArrayRef<StringRef> TargetInfo::fixedNames() {
  static const StringRef names[] = {
      "x86_64",          "x86_64-amx",   "x86_64-avx2", "aarch64",
      "aarch64-dotprod", "aarch64-neon", "riscv64"};
  return names;
}

std::optional<TargetInfo::CacheLevel>
TargetInfo::decodeCpuidCacheLeaf(uint32_t eax, uint32_t ebx, uint32_t ecx) {
  // EAX[4:0]: 0 no more caches, 1 data, 2 instruction, 3 unified;
  // EAX[7:5]: the level. EBX: ways - 1 [31:22], partitions - 1 [21:12],
  // line size - 1 [11:0]; ECX: sets - 1.
  uint32_t type = eax & 0x1f;
  if (type != 1 && type != 3)
    return std::nullopt;
  uint64_t ways = (ebx >> 22) + 1, partitions = ((ebx >> 12) & 0x3ff) + 1,
           line = (ebx & 0xfff) + 1, sets = uint64_t(ecx) + 1;
  return CacheLevel{int((eax >> 5) & 0x7), ways * partitions * line * sets};
}

/// Linux's description of the caches of CPU 0: the size of the highest
/// level that holds data.
static std::optional<uint64_t> sysfsLastLevelCacheBytes() {
  std::optional<uint64_t> bytes;
  int64_t bestLevel = 0;
  for (int index = 0; index < 16; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    auto read = [&](StringRef file) -> std::string {
      auto buffer = llvm::MemoryBuffer::getFileAsStream(dir + "/" + file);
      return buffer ? (*buffer)->getBuffer().trim().str() : std::string();
    };
    std::string level = read("level"), type = read("type"), size = read("size");
    if (level.empty())
      break;
    int64_t levelNumber;
    StringRef sizeText(size);
    uint64_t multiplier = sizeText.consume_back("K")   ? 1024
                          : sizeText.consume_back("M") ? 1024 * 1024
                                                       : 1;
    uint64_t value;
    if (type == "Instruction" ||
        StringRef(level).getAsInteger(10, levelNumber) ||
        sizeText.getAsInteger(10, value) || value == 0 ||
        levelNumber < bestLevel)
      continue;
    bestLevel = levelNumber;
    bytes = value * multiplier;
  }
  return bytes;
}

/// The x86 CPU's own cache description, where sysfs has none (some
/// sandboxes and containers hide it): Intel's leaf 4, else AMD's leaf
/// 0x8000001D, each subleaf one cache instance (so one L3 slice).
static std::optional<uint64_t> cpuidLastLevelCacheBytes() {
#if defined(__x86_64__) || defined(__i386__)
  auto largest = [](unsigned leaf) -> std::optional<uint64_t> {
    std::optional<TargetInfo::CacheLevel> best;
    for (unsigned sub = 0; sub < 16; ++sub) {
      unsigned eax, ebx, ecx, edx;
      __cpuid_count(leaf, sub, eax, ebx, ecx, edx);
      if ((eax & 0x1f) == 0)
        break;
      auto level = TargetInfo::decodeCpuidCacheLeaf(eax, ebx, ecx);
      if (level && (!best || level->level >= best->level))
        best = level;
    }
    if (!best)
      return std::nullopt;
    return best->bytes;
  };
  if (__get_cpuid_max(0, nullptr) >= 4)
    if (auto bytes = largest(4))
      return bytes;
  unsigned eax, ebx, ecx, edx;
  // Leaf 0x8000001D exists where 0x80000001 ECX bit 22 (topology
  // extensions) is set.
  if (__get_cpuid_max(0x80000000, nullptr) >= 0x8000001d &&
      __get_cpuid(0x80000001, &eax, &ebx, &ecx, &edx) && (ecx & (1u << 22)))
    return largest(0x8000001d);
#endif
  return std::nullopt;
}

std::optional<uint64_t> TargetInfo::hostLastLevelCacheBytes() {
  if (std::optional<uint64_t> bytes = sysfsLastLevelCacheBytes())
    return bytes;
  return cpuidLastLevelCacheBytes();
}

std::optional<TargetInfo> TargetInfo::resolve(StringRef name) {
  if (name == "host") {
    std::string triple = llvm::sys::getProcessTriple();
    // Debian's riscv64 userland is lp64d; LLVM's default for a bare triple
    // is not.
    std::string abi =
        llvm::Triple(triple).getArch() == llvm::Triple::riscv64 ? "lp64d" : "";
    std::string cpu = llvm::sys::getHostCPUName().str();
    return TargetInfo{triple, cpu, hostFeatures(triple, cpu), abi};
  }
  return llvm::StringSwitch<std::optional<TargetInfo>>(name)
      .Case("x86_64", TargetInfo{"x86_64-unknown-linux-gnu", "x86-64-v4",
                                 "+avx512vnni", ""})
      .Case("x86_64-amx",
            TargetInfo{"x86_64-unknown-linux-gnu", "sapphirerapids", "", ""})
      // AVX2 without AVX-512 (Haswell to Comet Lake, Zen 1 to 3).
      .Case("x86_64-avx2",
            TargetInfo{"x86_64-unknown-linux-gnu", "x86-64-v3", "", ""})
      .Case("aarch64", TargetInfo{"aarch64-unknown-linux-gnu", "generic",
                                  "+neon,+dotprod,+i8mm", ""})
      // Narrower AArch64 cores, each with the CPU LLVM schedules for:
      // dotprod without i8mm, and plain NEON.
      .Case("aarch64-dotprod", TargetInfo{"aarch64-unknown-linux-gnu",
                                          "neoverse-n1", "+neon,+dotprod", ""})
      .Case("aarch64-neon",
            TargetInfo{"aarch64-unknown-linux-gnu", "cortex-a57", "+neon", ""})
      .Case("riscv64", TargetInfo{"riscv64-unknown-linux-gnu", "generic-rv64",
                                  "+m,+a,+f,+d,+c,+v", "lp64d"})
      .Default(std::nullopt);
}

bool TargetInfo::hasFeature(StringRef feature) const {
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget =
      createSubtargetInfo(triple, cpu, features);
  if (!subtarget)
    return false;
  // checkFeatures asserts on a name the target does not define.
  bool known = llvm::any_of(subtarget->getAllProcessorFeatures(),
                            [&](const llvm::SubtargetFeatureKV &kv) {
                              return feature == kv.Key;
                            });
  return known && subtarget->checkFeatures(("+" + feature).str());
}

bool TargetInfo::hasAvx512Vnni() const {
  if (!llvm::Triple(triple).isX86_64())
    return false;
  return hasFeature("avx512vnni") && hasFeature("avx512bw");
}

bool TargetInfo::hasAmxInt8() const {
  if (!llvm::Triple(triple).isX86_64())
    return false;
  return hasFeature("amx-tile") && hasFeature("amx-int8");
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
TargetInfo::createTargetMachine() const {
  std::string error;
  const llvm::Target *target = lookupTarget(triple, error);
  llvm::TargetOptions options;
  options.MCOptions.ABIName = abi;
  // Constructors in .init_array, as clang and llc emit them.
  options.UseInitArray = true;
  std::unique_ptr<llvm::TargetMachine> machine(
      target ? target->createTargetMachine(llvm::Triple(triple), cpu, features,
                                           options, std::nullopt)
             : nullptr);
  if (!machine)
    return llvm::createStringError("LLVM cannot target '" + triple +
                                   "': " + error);
  return machine;
}

llvm::Expected<std::string> TargetInfo::getDataLayout() const {
  llvm::Expected<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine();
  if (!machine)
    return machine.takeError();
  return (*machine)->createDataLayout().getStringRepresentation();
}
