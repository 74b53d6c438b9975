#!/bin/bash
# The W8A8 MLP block at full size (768 -> 3072 -> 768; 8 tokens by default)
# compiled for each target and run (x86-64 natively, AArch64 and RISC-V
# under qemu, as test/Integration does), every stage checked against
# utils/gen-w8a8-mlp.py's models. The lit tests run the same at 64 -> 256.
#
#   utils/run-w8a8-targets.sh <quant-opt build dir> [tokens] [targets...]
#
# Exit status 1 if a run or a check fails.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
TOKENS=${2:-8}
shift $(( $# > 1 ? 2 : 1 ))
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(x86_64 aarch64 riscv64)
HERE=$(cd "$(dirname "$0")" && pwd)
LLVM_BIN=${LLVM_DIR:-/usr/lib/llvm-22}/bin
PYTHON=${PYTHON:-python3}
if ! "$PYTHON" -c "import numpy" 2> /dev/null; then
  PYTHON=/usr/bin/python3
fi
WORK=$(mktemp -d /tmp/quant-opt-w8a8-targets.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
SIZE=(--tokens "$TOKENS" --dim 768 --hidden 3072)
"$PYTHON" "$HERE/gen-w8a8-mlp.py" test "${SIZE[@]}" -o "$WORK/mlp.mlir"
status=0
for target in "${TARGETS[@]}"; do
  echo "== $target"
  if "$PYTHON" "$HERE/run-on-target.py" --tools-dir "$BUILD/bin" \
      --llvm-bin "$LLVM_BIN" --target "$target" "$WORK/mlp.mlir" \
      -o "$WORK/$target.out" &&
     "$PYTHON" "$HERE/gen-w8a8-mlp.py" check "${SIZE[@]}" "$WORK/$target.out"; then
    :
  else
    status=1
  fi
done
exit $status
