#!/bin/bash
# Runtime-scale row of the benchmark (not a test): qnt.dequantize_dynamic per
# row, compiled by quant-opt --qnt-to-llvm, against memcpy and a C loop.
#
#   bench/run-runtime-scales-bench.sh <quant-opt build dir>
#
# NONTEMPORAL_MIN_BYTES=N passes --qnt-to-llvm's nontemporal-min-bytes (by
# default the host's last-level cache, where sysfs or CPUID says it).
# run-bench.sh calls it at its end; it also runs alone.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-clang-22}
WORK=$(mktemp -d /tmp/quant-opt-bench-rs.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
PIPELINE=--qnt-to-llvm
if [ -n "${NONTEMPORAL_MIN_BYTES:-}" ]; then
  PIPELINE="--qnt-to-llvm=nontemporal-min-bytes=$NONTEMPORAL_MIN_BYTES"
fi
"$BUILD/bin/quant-opt" "$HERE/runtime-scales.mlir" "$PIPELINE" \
  -o "$WORK/k.llvm.mlir"
"$BUILD/bin/quant-translate" "$WORK/k.llvm.mlir" --emit=obj -o "$WORK/k.o"
"$CC" -O3 -march=native "$HERE/runtime-scales.c" "$WORK/k.o" -fuse-ld=lld \
  -o "$WORK/bench"
if command -v taskset > /dev/null; then
  taskset -c "${BENCH_CPU:-0}" "$WORK/bench"
else
  "$WORK/bench"
fi
