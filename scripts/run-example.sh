#!/usr/bin/env bash
# The main command: installs what is missing, builds, compiles the example
# network (examples/tiny-cnn.mlir) to native code with quant-opt, runs it,
# runs the same module on the reference model, and prints both with the
# agreement count.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
export BUILD_DIR
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
MODEL=${1:-$ROOT/examples/tiny-cnn.mlir}

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== compiling $MODEL with quant-opt --qnt-to-llvm"
"$BUILD_DIR/bin/quant-opt" "$MODEL" --qnt-to-llvm -o "$work/model.llvm.mlir"
echo "== running the compiled model (mlir-runner)"
"$LLVM_PREFIX/bin/mlir-runner" "$work/model.llvm.mlir" -e main \
  -entry-point-result=void \
  -shared-libs="$LLVM_PREFIX/lib/libmlir_runner_utils.so,$LLVM_PREFIX/lib/libmlir_c_runner_utils.so,$BUILD_DIR/lib/libquant_runner_utils.so" \
  > "$work/compiled.txt"
echo "== running the reference model (quant-ref-run)"
"$BUILD_DIR/bin/quant-ref-run" "$MODEL" > "$work/reference.txt"
python3 "$ROOT/utils/compare-outputs.py" --side-by-side "$work/reference.txt" "$work/compiled.txt"
