#!/usr/bin/env bash
# Compile-time row: `quant-opt --qnt-to-llvm=target=x86_64` on N-layer conv
# networks (bench/gen-layers.py). Time should grow linearly with N; the
# goal is 200 layers in under 5 s. Wall-clock seconds, best of 3 runs.
#
# COMPILE_TIME_LAYERS="25 50 100 200" sets the sizes. With
# COMPILE_TIME_CALLGRIND=1 (needs valgrind) each size is also run once under
# callgrind and the instructions executed are printed: unlike the time, that
# count does not depend on the load of a shared machine, so it is the number
# to compare between two builds.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-build}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
CALLGRIND=${COMPILE_TIME_CALLGRIND:-0}

if [ "$CALLGRIND" = 1 ]; then
  echo "| layers | --qnt-to-llvm seconds | ms per layer | instructions (G) | M instructions per layer |"
  echo "|---|---|---|---|---|"
else
  echo "| layers | --qnt-to-llvm seconds | ms per layer |"
  echo "|---|---|---|"
fi
for n in ${COMPILE_TIME_LAYERS:-25 50 100 200}; do
  python3 "$HERE/gen-layers.py" "$n" > "$WORK/net.mlir"
  python3 - "$BUILD/bin/quant-opt" "$WORK/net.mlir" "$n" "$CALLGRIND" \
    "$WORK" <<'PY'
import re, subprocess, sys, time
tool, path, n, callgrind, work = sys.argv[1], sys.argv[2], int(sys.argv[3]), \
    sys.argv[4] == "1", sys.argv[5]
cmd = [tool, "--qnt-to-llvm=target=x86_64", path, "-o", "/dev/null"]
best = None
for _ in range(3):
    start = time.perf_counter()
    subprocess.run(cmd, check=True)
    t = time.perf_counter() - start
    best = t if best is None else min(best, t)
row = f"| {n} | {best:.2f} | {1000 * best / n:.1f} |"
if callgrind:
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={work}/cg.out"]
        + cmd, check=True, capture_output=True, text=True).stderr
    refs = int(re.search(r"refs:\s+([\d,]+)", out).group(1).replace(",", ""))
    row += f" {refs / 1e9:.2f} | {refs / 1e6 / n:.0f} |"
print(row)
PY
done
