#!/usr/bin/env bash
# The test command: installs what is missing, builds, then runs every test
# (lit regression tests, then the GoogleTest units through ctest).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
export BUILD_DIR

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"

status=0
echo "== lit =="
/usr/lib/llvm-22/bin/lit -sv "$BUILD_DIR/test" || status=1
echo "== ctest =="
ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" || status=1
exit $status
