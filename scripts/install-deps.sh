#!/usr/bin/env bash
# Installs the Debian packages quant-opt needs, only those that are missing.
# Nothing else is downloaded: LLVM/MLIR 22, the cross sysroots and qemu all
# come from Debian's own repositories.
set -euo pipefail

PACKAGES=(
  cmake ninja-build python3
  clang-22 lld-22 llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools
  libclang-rt-22-dev libomp-22-dev
  libgtest-dev libgemmlowp-dev libdnnl-dev
  libonnx-dev libprotobuf-dev python3-onnx python3-numpy
  qemu-user libc6-dev-arm64-cross libc6-dev-riscv64-cross
  libgcc-12-dev-arm64-cross libgcc-12-dev-riscv64-cross
)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" ||
    missing+=("$pkg")
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
