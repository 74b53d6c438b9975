#!/bin/bash
# A/B of two compiler builds on the benchmark's GEMM and conv kernels, in
# one process (bench/ab.cpp): which of two quant-opt binaries emits the
# faster kernels, measured so that a shared machine disturbs it less than
# comparing two bench/run-bench.sh runs.
#
#   bench/ab-kernels.sh <quant-opt A> <quant-opt B> [rounds, default 11]
#
# Both compile bench.mlir (gen-bench.py) with --qnt-to-llvm (target host);
# the functions are renamed A_* / B_*, linked together and timed in
# alternation on CPU BENCH_CPU (default 0). KEEP=1 keeps the work directory.
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 <quant-opt A> <quant-opt B> [rounds]" >&2
  exit 2
fi
QA=$(realpath "$1")
QB=$(realpath "$2")
ROUNDS=${3:-11}
HERE=$(cd "$(dirname "$0")" && pwd)
LLVM=${LLVM_DIR:-/usr/lib/llvm-22/bin}
CC=${CC:-clang-22}
CXX=${CXX:-clang++-22}
WORK=$(mktemp -d /tmp/quant-opt-ab.XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then
  echo "work dir: $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
cd "$WORK"
python3 "$HERE/gen-bench.py" --module bench.mlir --header bench.h
for side in A B; do
  q=$QA
  [ "$side" = B ] && q=$QB
  "$q" bench.mlir --qnt-to-llvm > "$side.llvm.mlir"
  # Every function of the module gets the prefix (C interface included).
  "$LLVM/mlir-translate" --mlir-to-llvmir "$side.llvm.mlir" |
    sed -E "s/@(_mlir_ciface_)?(mm_|conv|add|maxpool|quantize|dequantize)/@${side}_\1\2/g" \
      > "$side.ll"
  "$CC" -O3 -march=native -c "$side.ll" -o "$side.o"
done
"$CXX" -O2 -std=c++17 -I"$HERE" -I. "$HERE/ab.cpp" A.o B.o -o ab
echo "A: $QA"
echo "B: $QB"
uptime
taskset -c "${BENCH_CPU:-0}" ./ab "$ROUNDS"
