#!/bin/bash
# The TOSA rows of the benchmark (not a test): the same TOSA int8 matmul and
# conv compiled by upstream's TOSA pipeline and by quant-opt --tosa-to-llvm,
# timed in one run next to oneDNN (docs/TosaToQnt.md).
#
#   bench/tosa-bench.sh <quant-opt build dir> [seconds per timing, default 1]
#
# Upstream: mlir-opt tosa-to-linalg-pipeline, tosa-to-tensor, tosa-to-arith,
# one-shot-bufferize, convert-linalg-to-loops and the conversions to LLVM;
# then, like ours, mlir-translate and clang-22 -O3 -march=native (so LLVM's
# vectorizer sees both). The exit status is nonzero when the outputs differ.
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 <quant-opt build dir> [seconds per timing]" >&2
  exit 2
fi
BUILD=$(cd "$1" && pwd)
BUDGET=${2:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
LLVM=${LLVM_DIR:-/usr/lib/llvm-22/bin}
CC=${CC:-clang-22}
CXX=${CXX:-clang++-22}
QUANT_OPT=$BUILD/bin/quant-opt
[ -x "$QUANT_OPT" ] || { echo "no $QUANT_OPT" >&2; exit 2; }

WORK=$(mktemp -d /tmp/quant-opt-tosa-bench.XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then
  echo "work dir: $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
cd "$WORK"

python3 "$HERE/tosa-gen.py" --prefix up --module up.mlir --header tosa-bench.h
python3 "$HERE/tosa-gen.py" --prefix qo --module qo.mlir

UPSTREAM="builtin.module(tosa-attach-target{profiles=pro_int extensions=doubleround},tosa-to-linalg-pipeline,func.func(tosa-to-tensor,tosa-to-arith{include-apply-rescale=true}),one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},func.func(convert-linalg-to-loops),convert-scf-to-cf,convert-cf-to-llvm,expand-strided-metadata,lower-affine,finalize-memref-to-llvm,convert-math-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)"
"$LLVM/mlir-opt" up.mlir --pass-pipeline="$UPSTREAM" |
  sed -e 's/tosa.target_env = #tosa.target_env<[^>]*>//' > up.llvm.mlir
"$QUANT_OPT" qo.mlir --tosa-to-llvm > qo.llvm.mlir
for m in up qo; do
  "$LLVM/mlir-translate" --mlir-to-llvmir $m.llvm.mlir > $m.ll
  "$CC" -O3 -march=native -c $m.ll -o $m.o
done
"$CXX" -O3 -march=native -std=c++17 -c "$HERE/tosa-driver.cpp" -I"$HERE" -I. \
  -o tosa-driver.o
"$CXX" -O3 -march=native -std=c++17 -c "$HERE/onednn.cpp" -I"$HERE" \
  -o onednn.o
# Upstream's lowering copies the padded conv input with memrefCopy from
# MLIR's C runner library.
"$CXX" -fuse-ld=lld tosa-driver.o up.o qo.o onednn.o -ldnnl -lm \
  -L"$LLVM/../lib" -lmlir_c_runner_utils -Wl,-rpath,"$LLVM/../lib" \
  -o tosa-bench

if command -v taskset > /dev/null; then
  taskset -c "${BENCH_CPU:-0}" ./tosa-bench "$BUDGET"
else
  ./tosa-bench "$BUDGET"
fi
