#!/usr/bin/env bash
# Compile-time row: `quant-opt --qnt-to-llvm=target=x86_64` on N-layer conv
# networks (bench/gen-layers.py). Time should grow linearly with N; the
# goal is 200 layers in under 5 s. Wall-clock seconds, best of 2 runs.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-build}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

echo "| layers | --qnt-to-llvm seconds | ms per layer |"
echo "|---|---|---|"
for n in ${COMPILE_TIME_LAYERS:-25 50 100 200}; do
  python3 "$HERE/gen-layers.py" "$n" > "$WORK/net.mlir"
  python3 - "$BUILD/bin/quant-opt" "$WORK/net.mlir" "$n" <<'PY'
import subprocess, sys, time
tool, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
best = None
for _ in range(2):
    start = time.perf_counter()
    subprocess.run([tool, "--qnt-to-llvm=target=x86_64", path, "-o", "/dev/null"],
                   check=True)
    t = time.perf_counter() - start
    best = t if best is None else min(best, t)
print(f"| {n} | {best:.2f} | {1000 * best / n:.1f} |")
PY
done
