#!/bin/bash
# W8A8 row of the benchmark (not a test): the transformer MLP block of
# utils/gen-w8a8-mlp.py (tokens x 768 -> 3072 -> GELU -> 768, tokens 1, 32,
# 128) compiled by quant-opt --qnt-to-llvm, next to oneDNN's s8s8 matmul with
# run-time scales and our f32 block (bench/w8a8.cpp says what each does).
#
#   bench/run-w8a8-bench.sh <quant-opt build dir> [seconds per timing]
#
# run-bench.sh calls it at its end (W8A8_ROWS=0 skips it); it also runs
# alone. Needs numpy (/usr/bin/python3 has it) and libdnnl-dev.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
BUDGET=${2:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
CXX=${CXX:-clang++-22}
LLVM_BIN=${LLVM_DIR:-/usr/lib/llvm-22}/bin
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c "import numpy" 2> /dev/null; then
  PYTHON=/usr/bin/python3
fi
WORK=$(mktemp -d /tmp/quant-opt-bench-w8a8.XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then
  echo "W8A8 bench files kept in $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
"$PYTHON" "$HERE/../utils/gen-w8a8-mlp.py" bench --dim 768 --hidden 3072 \
  --token-counts 1 32 128 -o "$WORK"
OBJS=()
for m in "$WORK"/w8a8_t*.mlir "$WORK"/f32_t*.mlir; do
  base=${m%.mlir}
  "$BUILD/bin/quant-opt" "$m" --qnt-to-llvm -o "$base.llvm.mlir"
  "$BUILD/bin/quant-translate" "$base.llvm.mlir" --emit=obj -o "$base.o"
  # Every module defines the deallocation helper; keep each one private.
  "$LLVM_BIN/llvm-objcopy" --localize-symbol=dealloc_helper "$base.o"
  rm -f "$m" "$base.llvm.mlir"
  OBJS+=("$base.o")
done
"$CXX" -O3 -march=native -std=c++17 -I"$HERE" "$HERE/w8a8.cpp" "${OBJS[@]}" \
  -fuse-ld=lld -ldnnl -lm -o "$WORK/bench"
echo
echo "uptime: $(uptime)"
if command -v taskset > /dev/null; then
  taskset -c "${BENCH_CPU:-0}" "$WORK/bench" "$WORK" "$BUDGET"
else
  "$WORK/bench" "$WORK" "$BUDGET"
fi
