#!/usr/bin/env bash
# Installs the build into a temporary prefix, then configures, builds and
# runs a consumer project that finds it with find_package(QuantOpt).
# Usage: check-install.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
cmake -G Ninja -S "$src/test/Install/consumer" -B "$work/consumer" \
  -DCMAKE_CXX_COMPILER="${CXX:-/usr/lib/llvm-22/bin/clang++}" \
  -DCMAKE_PREFIX_PATH="$work/prefix;/usr/lib/llvm-22" > "$work/configure.log" ||
  { cat "$work/configure.log"; exit 1; }
cmake --build "$work/consumer" > "$work/build.log" || { cat "$work/build.log"; exit 1; }
out=$("$work/consumer/consumer")
echo "$out"
# 0.5 / 0.25 + 128 = 130 and -0.5 / 0.25 + 128 = 126 (the contract's example).
grep -q 'qnt.constant dense<\[130, 126\]> : tensor<2xui8>' <<<"$out"
echo "install + find_package(QuantOpt): OK"
# The importer library, when the package has it: the digits MLP imports into
# one @main on qnt ops.
if [ -x "$work/consumer/onnx-consumer" ]; then
  out=$("$work/consumer/onnx-consumer" "$src/examples/models/digits_mlp.onnx")
  grep -q 'func.func @main' <<<"$out"
  grep -q 'qnt.matmul' <<<"$out"
  echo "install + QuantOpt::QuantOptONNXImport: OK"
fi

