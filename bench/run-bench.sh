#!/bin/bash
# Builds and runs the quant-opt benchmark (not a test; CI does not run it).
#
#   bench/run-bench.sh [--threads] <quant-opt build dir> [seconds per timing, default 1]
#
# Compiles the module written by gen-bench.py with
#   quant-opt --qnt-to-llvm | mlir-translate --mlir-to-llvmir | clang-22 -O3 -march=native -c
# and the plain C loops of baseline.c with clang-22 -O3 -march=native, links
# both with the timing driver and runs it on one thread. Everything is built
# in a temporary directory (kept, and printed, with KEEP=1).
#
# --threads: the threads mode (bench/threads.cpp). The module is compiled
# twice, with --qnt-to-llvm="threads=1" (serial) and "threads=0" (OpenMP,
# thread count chosen at run time), and each kernel is timed (wall clock) on
# 1 thread and on all cores next to oneDNN on the same thread counts, with
# the outputs checked bit for bit at 1, 2, 3 and all threads. OMP_NUM_THREADS
# sets "all cores".
set -euo pipefail

MODE=single
if [ "${1:-}" = "--threads" ]; then
  MODE=threads
  shift
fi
if [ $# -lt 1 ]; then
  echo "usage: $0 [--threads] <quant-opt build dir> [seconds per timing]" >&2
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

WORK=$(mktemp -d /tmp/quant-opt-bench.XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then
  echo "work dir: $WORK"
else
  trap 'rm -rf "$WORK"' EXIT
fi
cd "$WORK"

python3 "$HERE/gen-bench.py" --module bench.mlir --header bench.h
# The example network, end to end (its @main, which prints, left out).
python3 - "$HERE/../examples/tiny-cnn.mlir" > network.mlir <<'PY'
import sys
for line in open(sys.argv[1]):
    if line.startswith("func.func @main("):
        break
    if "@printMemref" not in line:
        sys.stdout.write(line)
PY
"$CXX" -O3 -march=native -std=c++17 -c "$HERE/onednn.cpp" -I"$HERE" \
  -o onednn.o

if [ "$MODE" = threads ]; then
  # compile <module> <threads> <object>
  compile() {
    local opts="threads=$2"
    # PARALLEL_MIN_WORK: the threshold of the parallel build (sweeps).
    if [ "$2" != 1 ] && [ -n "${PARALLEL_MIN_WORK:-}" ]; then
      opts="$opts parallel-min-work=$PARALLEL_MIN_WORK"
    fi
    "$QUANT_OPT" "$1" --qnt-to-llvm="$opts" > "$3.llvm.mlir"
    "$LLVM/mlir-translate" --mlir-to-llvmir "$3.llvm.mlir" > "$3.ll"
    "$CC" -O3 -march=native -c "$3.ll" -o "$3"
  }
  compile bench.mlir 0 bench.o
  compile network.mlir 0 network.o
  compile bench.mlir 1 serial.o
  compile network.mlir 1 serial-network.o
  # The serial build's functions become serial_* (C interface included).
  for obj in serial.o serial-network.o; do
    "$LLVM/llvm-nm" --defined-only --extern-only --format=just-symbols "$obj" |
      awk '{ s = $1; sub(/^_mlir_ciface_/, "", s);
             p = ($1 ~ /^_mlir_ciface_/) ? "_mlir_ciface_" : "";
             print $1, p "serial_" s }' > "$obj.syms"
    "$LLVM/llvm-objcopy" --redefine-syms="$obj.syms" "$obj"
  done
  "$CXX" -O3 -march=native -std=c++17 -fopenmp -c "$HERE/threads.cpp" \
    -I"$HERE" -I. -o threads.o
  "$CXX" -fuse-ld=lld threads.o bench.o network.o serial.o serial-network.o \
    onednn.o -L/usr/lib/llvm-22/lib -Wl,-rpath,/usr/lib/llvm-22/lib -lomp \
    -ldnnl -lm -o bench-threads
  # oneDNN links GNU libgomp.so.1; LLVM's libgomp.so.1 is libomp, so with it
  # first both use one OpenMP runtime (one thread pool).
  uptime
  LD_LIBRARY_PATH=/usr/lib/llvm-22/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} \
    ./bench-threads "$BUDGET"
  exit $?
fi
"$QUANT_OPT" bench.mlir --qnt-to-llvm > bench.llvm.mlir
"$LLVM/mlir-translate" --mlir-to-llvmir bench.llvm.mlir > bench.ll
"$CC" -O3 -march=native -c bench.ll -o bench.o
"$CC" -O3 -march=native -c "$HERE/baseline.c" -I"$HERE" -o baseline.o
"$CXX" -O3 -march=native -std=c++17 -c "$HERE/driver.cpp" -I"$HERE" -I. \
  -o driver.o
"$QUANT_OPT" network.mlir --qnt-to-llvm > network.llvm.mlir
"$LLVM/mlir-translate" --mlir-to-llvmir network.llvm.mlir > network.ll
"$CC" -O3 -march=native -c network.ll -o network.o
"$CXX" -fuse-ld=lld driver.o bench.o baseline.o onednn.o network.o -ldnnl -lm \
  -o bench

# Are the compiled loops vectorized? Count the instructions on zmm / ymm /
# xmm registers in each function (the body; its C wrapper only forwards).
# MLIR emits the quantize / dequantize loops as scalar scf loops; any zmm or
# ymm here comes from clang's loop vectorizer.
"$LLVM/llvm-objdump" -d --no-show-raw-insn bench.o > bench.s
"$LLVM/llvm-objdump" -d --no-show-raw-insn baseline.o > baseline.s
body() { # file symbol
  awk -v sym="<$2>:" '$2 == sym {on = 1; next} /^$/ {on = 0} on' "$1"
}
count() { # file symbol pattern
  body "$1" "$2" | grep -c "$3" || true
}
report() { # label file symbol
  local z y x v t a
  z=$(count "$2" "$3" '%zmm'); y=$(count "$2" "$3" '%ymm')
  x=$(count "$2" "$3" '%xmm'); v=$(count "$2" "$3" 'vpdpbusd')
  # AMX tile multiplies (tdpbssd / tdpbsud / tdpbusd / tdpbuud): nonzero
  # only where target=host has AMX-INT8 (qnt-x86-amx).
  t=$(count "$2" "$3" 'tdpb[su][su]d')
  # "vectorized" needs arithmetic on ymm / zmm: moves, zeroing and
  # broadcasts alone come from an inlined memset or fill (a scalar max pool
  # once passed with those).
  a=$(body "$2" "$3" | grep '%[yz]mm' |
      grep -cvE '\s(vmov[a-z0-9]*|vpxor[dq]?|vxorp[sd]|v?p?broadcast[a-z0-9]*|vzeroupper|vinsert[a-z0-9]*|vextract[a-z0-9]*)\s' || true)
  printf "  %-4s %-24s %5s %5s %5s %9s %6s   %s\n" "$1" "$3" "$z" "$y" "$x" \
    "$v" "$t" "$([ $((a + t)) -gt 0 ] && echo yes || echo NO)"
}
echo "Instructions on vector registers per function:"
printf "  %-29s %5s %5s %5s %9s %6s   %s\n" "" zmm ymm xmm vpdpbusd tdpb vectorized
for f in mm_1x1024x1024 mm_64x1024x1024 mm_256x256x256 mm_1024x1024x1024 conv \
         quantize_i8 quantize_u8 dequantize_i8 dequantize_i16 add maxpool avgpool \
         mm_rt_256x256x256 conv_dw; do
  report ours bench.s "$f"
done
for f in baseline_matmul baseline_conv baseline_quantize_i8 \
         baseline_quantize_u8 baseline_dequantize_i8 baseline_dequantize_i16 \
         baseline_add baseline_maxpool baseline_avgpool; do
  report C baseline.s "$f"
done
echo

# One thread, pinned (BENCH_CPU, default 0) when taskset is available. The
# exit status is nonzero when some output differs from the C loops'.
if command -v taskset > /dev/null; then
  taskset -c "${BENCH_CPU:-0}" ./bench "$BUDGET"
else
  ./bench "$BUDGET"
fi

# The runtime-scale row (qnt.dequantize_dynamic vs memcpy), its own driver.
"$HERE/run-runtime-scales-bench.sh" "$BUILD"

# The W8A8 MLP block vs oneDNN and our f32 block (W8A8_ROWS=0 skips it).
if [ "${W8A8_ROWS:-1}" = 1 ]; then
  "$HERE/run-w8a8-bench.sh" "$BUILD" "$BUDGET"
fi

# The TOSA rows: upstream's TOSA pipeline vs --tosa-to-llvm (TOSA_ROWS=0
# skips them).
if [ "${TOSA_ROWS:-1}" = 1 ]; then
  echo
  "$HERE/tosa-bench.sh" "$BUILD" "$BUDGET"
fi

# Compile time against the layer count (COMPILE_TIME_ROWS=0 skips it).
if [ "${COMPILE_TIME_ROWS:-1}" = 1 ]; then
  echo
  "$HERE/compile-time.sh" "$BUILD"
fi
