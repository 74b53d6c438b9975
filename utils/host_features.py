#!/usr/bin/env python3
"""The CPU features the code of each native x86 target needs to run here.

One definition for test/lit.cfg.py (the x86-avx2 / x86-avx512vnni lit
features), utils/diff-fuzz.py (which refuses a target this host cannot run)
and scripts/run-tests.sh (which leaves such runs out of the diff slice).

  host_features.py TARGET   exit 0 if this host runs TARGET's code natively,
                            else exit 1 naming the missing features
"""
import sys

# x86-64-v4 + AVX-512 VNNI (target=x86_64, and x86_64-amx, whose kernels
# run through the SDM emulation on such a host); qemu-x86_64 cannot emulate
# AVX-512.
X86_64_V4_VNNI = {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl",
                  "avx512_vnni"}
# x86-64-v3 (target=x86_64-avx2: AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE).
X86_64_V3 = {"avx", "avx2", "fma", "bmi1", "bmi2", "f16c", "abm", "movbe",
             "xsave"}
NATIVE_X86_FEATURES = {
    "x86_64": X86_64_V4_VNNI,
    "x86_64-amx": X86_64_V4_VNNI,
    "x86_64-avx2": X86_64_V3,
}


def cpu_flags():
    """The `flags` of /proc/cpuinfo (empty where there are none)."""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def missing_features(target):
    """The features `target`'s native code needs and this host lacks,
    sorted; empty for targets that are not native x86 ones."""
    return sorted(NATIVE_X86_FEATURES.get(target, set()) - cpu_flags())


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in NATIVE_X86_FEATURES:
        sys.exit("usage: host_features.py {%s}"
                 % ",".join(sorted(NATIVE_X86_FEATURES)))
    missing = missing_features(sys.argv[1])
    if missing:
        print("this host lacks %s" % " ".join(missing))
        sys.exit(1)


if __name__ == "__main__":
    main()
