#!/usr/bin/env bash
# Static throughput of the contraction kernels on CPUs we cannot time:
# llvm-mca's cycles per inner-loop iteration next to the bound set by the
# core's dot-product throughput (bench/README.md, "Inner loops under
# llvm-mca").
#
#   bench/mca.sh <quant-opt build dir>
#
# For matmul 64x1024x1024 (constant and run-time weights) and the 56x56x64
# 3x3 -> 64 conv, each CPU model, and both the generic lowering
# (generic-contractions=1) and the target kernels: quant-opt --qnt-to-llvm,
# quant-translate --emit=asm with the function CPU set to the model, then
# bench/mca-loops.py finds each function's inner loop and runs llvm-mca.
# KEEP=1 keeps the temporary directory.
set -euo pipefail

BUILD=${1:?usage: bench/mca.sh <quant-opt build dir>}
BUILD=$(cd "$BUILD" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
LLVM_BIN=${LLVM_DIR:-/usr/lib/llvm-22}/bin
QUANT_OPT=$BUILD/bin/quant-opt
QUANT_TRANSLATE=$BUILD/bin/quant-translate
MCA=$LLVM_BIN/llvm-mca
for tool in "$QUANT_OPT" "$QUANT_TRANSLATE" "$MCA"; do
  [[ -x $tool ]] || { echo "mca.sh: $tool not found" >&2; exit 1; }
done

TMP=$(mktemp -d)
if [[ ${KEEP:-0} == 1 ]]; then
  echo "mca.sh: keeping $TMP"
else
  trap 'rm -rf "$TMP"' EXIT
fi

python3 "$HERE/gen-bench.py" --mca --module "$TMP/mca.mlir"

# name | quant-opt target | llvm-mca triple | features for the peak | VLEN
CPUS=(
  "neoverse-v2|aarch64|aarch64|+neon,+dotprod,+i8mm|0"
  "neoverse-n1|aarch64-dotprod|aarch64|+neon,+dotprod|0"
  "cortex-a76|aarch64-dotprod|aarch64|+neon,+dotprod|0"
  "cortex-a57|aarch64-neon|aarch64|+neon|0"
  "cortex-a72|aarch64-neon|aarch64|+neon|0"
  "cortex-a53|aarch64-neon|aarch64|+neon|0"
  "sifive-x280|riscv64|riscv64|+v|512"
)

printf "%-10s %-12s %-20s %8s %6s %8s %7s  %s\n" lowering cpu function \
  cyc/iter MACs bound ratio "loop"
for variant in generic kernels; do
  generic=0
  [[ $variant == generic ]] && generic=1
  for row in "${CPUS[@]}"; do
    IFS='|' read -r cpu target triple features vlen <<<"$row"
    arch=${triple%%-*}
    out=$TMP/$variant-$cpu
    "$QUANT_OPT" "$TMP/mca.mlir" \
      --qnt-to-llvm="target=$target generic-contractions=$generic" \
      -o "$out.llvm.mlir"
    # The functions carry the target's CPU; the model's CPU replaces it so
    # that LLVM schedules (and the vectorizer costs) for that core.
    sed -E -i "s/target_cpu = \"[^\"]*\"/target_cpu = \"$cpu\"/" \
      "$out.llvm.mlir"
    "$QUANT_TRANSLATE" "$out.llvm.mlir" --emit=asm --mcpu="$cpu" -o "$out.s"
    python3 "$HERE/mca-loops.py" "$out.s" --arch "$arch" --triple "$triple" \
      --cpu "$cpu" --features "$features" --vlen "$vlen" --mca "$MCA" \
      --label "$variant"
  done
done
