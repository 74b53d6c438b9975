#!/usr/bin/env bash
# The main command: installs what is missing and builds, then
#  1. imports the three quantized digits networks of examples/models/ (QDQ
#     ONNX exported by torch) with quant-import-onnx, compiles them for the
#     host and for every target this machine can run (x86_64 natively on an
#     AVX-512 VNNI host, x86_64-avx2 on an AVX2 one, aarch64 and riscv64
#     under qemu-user), runs them on
#     the 360 held-out digits and prints the accuracy table
#     (examples/models/evaluate.py --check: fails unless every row meets the
#     bar of docs/ONNXImport.md);
#  2. compiles a hand-written qnt module (default examples/tiny-cnn.mlir) with
#     quant-opt, runs it, runs it on the reference model and prints both with
#     the agreement count, then one agreement line per target.
# `scripts/run-example.sh FILE.mlir` runs step 2 only, on FILE.mlir.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
export BUILD_DIR
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
MODEL=${1:-$ROOT/examples/tiny-cnn.mlir}
# Debian's interpreter: python3-numpy and python3-onnx are installed for it.
PYTHON=${PYTHON:-/usr/bin/python3}

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"

if [ $# -eq 0 ]; then
  echo "== digits networks: import (quant-import-onnx), compile, run on the held-out digits"
  "$PYTHON" "$ROOT/examples/models/evaluate.py" --build-dir "$BUILD_DIR" \
    --targets auto --check
  echo
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== compiling $MODEL with quant-opt --qnt-to-llvm"
"$BUILD_DIR/bin/quant-opt" "$MODEL" --qnt-to-llvm -o "$work/model.llvm.mlir"
echo "== running the compiled model (mlir-runner)"
"$LLVM_PREFIX/bin/mlir-runner" "$work/model.llvm.mlir" -e main \
  -entry-point-result=void \
  -shared-libs="$LLVM_PREFIX/lib/libmlir_runner_utils.so,$LLVM_PREFIX/lib/libmlir_c_runner_utils.so,$BUILD_DIR/lib/libquant_runner_utils.so" \
  > "$work/compiled.txt"
echo "== running the reference model (utils/quant-ref-run.py: generic form, quant-ref-run)"
python3 "$ROOT/utils/quant-ref-run.py" --tools-dir "$BUILD_DIR/bin" "$MODEL" \
  > "$work/reference.txt"
python3 "$ROOT/utils/compare-outputs.py" --side-by-side "$work/reference.txt" "$work/compiled.txt"

# Native code for the named targets: quant-opt --qnt-to-llvm=target=T,
# quant-translate --emit=obj, linked with lib/Runtime/qnt_print_runtime.c.
echo "== running the example compiled for each target (utils/run-on-target.py)"
status=0
cross_target() { # name, description, run-on-target arguments...
  local name=$1 what=$2
  shift 2
  local line
  if python3 "$ROOT/utils/run-on-target.py" --tools-dir "$BUILD_DIR/bin" \
      "$@" "$MODEL" -o "$work/$name.txt" 2> "$work/$name.err" &&
     line=$(python3 "$ROOT/utils/compare-outputs.py" "$work/reference.txt" \
              "$work/$name.txt" | tail -n 1); then
    printf '%-11s %-36s %s\n' "$name" "($what)" "$line"
  else
    printf '%-11s %-36s FAILED\n' "$name" "($what)"
    sed 's/^/    /' "$work/$name.err" "$work/$name.txt" 2>/dev/null | tail -n 20
    status=1
  fi
}
skip() { printf '%-11s %-36s skipped: %s\n' "$1" "($2)" "$3"; }

vnni_flags="avx512f avx512bw avx512cd avx512dq avx512vl avx512_vnni"
host_flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null || true)
have_vnni=yes
for f in $vnni_flags; do
  [[ " $host_flags " == *" $f "* ]] || have_vnni=no
done
if [ "$(uname -m)" = x86_64 ] && [ $have_vnni = yes ]; then
  cross_target x86_64 "native, x86-64-v4 + AVX-512 VNNI" --target x86_64
else
  skip x86_64 "x86-64-v4 + AVX-512 VNNI" "this CPU has no AVX-512 VNNI"
fi
have_v3=yes
for f in avx avx2 fma bmi1 bmi2 f16c abm movbe xsave; do
  [[ " $host_flags " == *" $f "* ]] || have_v3=no
done
if [ "$(uname -m)" = x86_64 ] && [ $have_v3 = yes ]; then
  cross_target x86_64-avx2 "native, x86-64-v3 (AVX2)" --target x86_64-avx2
else
  skip x86_64-avx2 "x86-64-v3 (AVX2)" "this CPU has no AVX2"
fi
if command -v qemu-aarch64 > /dev/null && [ -d /usr/aarch64-linux-gnu/lib ]; then
  cross_target aarch64 "qemu -cpu max, NEON dotprod i8mm" --target aarch64
else
  skip aarch64 "NEON dotprod i8mm" "qemu-aarch64 or the arm64 sysroot is missing"
fi
if command -v qemu-riscv64 > /dev/null && [ -d /usr/riscv64-linux-gnu/lib ]; then
  cross_target riscv64 "qemu, RVV VLEN 128" --target riscv64 --vlen 128
else
  skip riscv64 "RVV" "qemu-riscv64 or the riscv64 sysroot is missing"
fi
exit $status
