#!/bin/bash
# Measures where parallel code starts to pay: the data behind the default of
# --qnt-to-llvm's parallel-min-work (docs/Parallelism.md). Not a test.
#
#   bench/threshold-sweep.sh <quant-opt build dir> [threads, default 2]
#
# Compiles GEMVs / small matmuls and quantize loops of growing size twice:
# serially (threads=1, symbols renamed serial_*) and with every marked loop
# parallel (threads=N parallel-min-work=0), prints the estimated work of each
# parallel loop (qnt-parallelize-tiles' remarks) and the wall-clock time of
# both builds; the threshold belongs where the speedup crosses 1.
set -euo pipefail
BUILD=$(cd "$1" && pwd)
THREADS=${2:-2}
HERE=$(cd "$(dirname "$0")" && pwd)
LLVM=${LLVM_DIR:-/usr/lib/llvm-22/bin}
CC=${CC:-clang-22}
CXX=${CXX:-clang++-22}
QUANT_OPT=$BUILD/bin/quant-opt
WORK=$(mktemp -d /tmp/quant-opt-sweep.XXXXXX)
if [ "${KEEP:-0}" = 1 ]; then echo "work dir: $WORK"; else trap 'rm -rf "$WORK"' EXIT; fi
cd "$WORK"

python3 - "$HERE" <<'PY'
import importlib.util, os, sys
spec = importlib.util.spec_from_file_location(
    "gen_bench", os.path.join(sys.argv[1], "gen-bench.py"))
gb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gb)
mms = [(1, 128, 128), (1, 256, 256), (1, 512, 512), (1, 1024, 1024),
       (4, 256, 256), (16, 256, 256), (64, 256, 256)]
sizes = [1024, 4096, 16384, 65536, 262144, 1048576]
q8 = gb.Q8_T
out = []
for (m, k, n) in mms:
    out.append(gb.matmul(m, k, n, 7).replace(
        "@mm_%dx%dx%d" % (m, k, n), "@mm_%d_%d_%d" % (m, k, n)))
for e in sizes:
    out.append("func.func @q_%d(%%x: tensor<%dxf32>) -> tensor<%dx%s> {\n"
               "  %%q = qnt.quantize %%x : tensor<%dxf32> -> tensor<%dx%s>\n"
               "  return %%q : tensor<%dx%s>\n}" % (e, e, e, q8, e, e, q8, e, q8))
open("sweep.mlir", "w").write("\n".join(out) + "\n")
with open("sweep.h", "w") as f:
    f.write("#define MMS(X) " + " ".join("X(%d, %d, %d)" % t for t in mms) + "\n")
    f.write("#define QS(X) " + " ".join("X(%d)" % e for e in sizes) + "\n")
PY

"$QUANT_OPT" sweep.mlir \
  --qnt-to-llvm="threads=$THREADS parallel-min-work=0 parallel-report" \
  -o par.mlir 2> remarks.txt
"$QUANT_OPT" sweep.mlir --qnt-to-llvm > ser.mlir
for v in par ser; do
  "$LLVM/mlir-translate" --mlir-to-llvmir $v.mlir > $v.ll
  "$CC" -O3 -march=native -c $v.ll -o $v.o
done
"$LLVM/llvm-nm" --defined-only --extern-only --format=just-symbols ser.o |
  awk '{ s = $1; sub(/^_mlir_ciface_/, "", s);
         p = ($1 ~ /^_mlir_ciface_/) ? "_mlir_ciface_" : "";
         print $1, p "serial_" s }' > ser.syms
"$LLVM/llvm-objcopy" --redefine-syms=ser.syms ser.o
"$CXX" -O3 -march=native -std=c++17 -fopenmp -I"$HERE" -I. \
  -c "$HERE/threshold.cpp" -o threshold.o
"$CXX" -fuse-ld=lld threshold.o par.o ser.o -L/usr/lib/llvm-22/lib \
  -Wl,-rpath,/usr/lib/llvm-22/lib -lomp -o threshold

echo "Estimated work of each parallel loop (qnt-parallelize-tiles):"
python3 - <<'PY'
import re
funcs = []
for i, line in enumerate(open("sweep.mlir"), 1):
    m = re.match(r"func\.func @(\w+)\(", line)
    if m:
        funcs.append((i, m.group(1)))
per = {}
for line in open("remarks.txt", errors="replace"):
    m = re.search(r":(\d+):\d+: remark: qnt-parallelize-tiles: parallel "
                  r"\((\d+) trips, work (\d+)", line)
    if m:
        name = [f for (l, f) in funcs if l <= int(m.group(1))][-1]
        per.setdefault(name, []).append("%s trips: %s" % (m.group(2), m.group(3)))
for _, name in funcs:
    print("  %-16s %s" % (name, ", ".join(per.get(name, ["-"]))))
PY
uptime
OMP_NUM_THREADS=$THREADS ./threshold
