#!/usr/bin/env bash
# The test command: installs what is missing, builds, then runs every test
# (lit regression tests, then the GoogleTest units through ctest).
#
# Then the robustness slices (docs/Fuzzing.md), each with its own summary:
#   asan      the whole project built with ASan + UBSan (and the fuzzers) in
#             ${BUILD_DIR}-asan; every unit test and every lit test but the
#             random-seed end-to-end runs (ASAN_LIT_FILTER_OUT) runs there
#   fuzz      each libFuzzer target for FUZZ_SECONDS (default 45), libFuzzer
#             seed FUZZ_SEED (default 1, so a CI failure reproduces)
#   diff      utils/diff-fuzz.py: DIFF_FUZZ_CASES (default 1200) random cases,
#             compiled vs the reference model, then a quarter as many as
#             OpenMP code on 3 threads (every loop parallel) and on 2, for
#             aarch64 and riscv64 under qemu and for the emulated AMX kernels
#   onnx-fuzz utils/onnx-mutate-fuzz.py: ONNX_FUZZ_CASES (default 300) mutated
#             ONNX models through the ASan importer and pipeline, seed
#             ONNX_FUZZ_SEED (default 1)
#   onnx-diff utils/onnx-diff-fuzz.py: ONNX_DIFF_FUZZ_CASES (default 200)
#             random quantized ONNX graphs against a numpy model of the ONNX
#             definitions on the host, a fifth as many each for aarch64 and
#             riscv64 under qemu, seed ONNX_DIFF_FUZZ_SEED (default 1)
# QUANT_OPT_QUICK=1 skips the slices for a quick local run; with CI=true they
# always run.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD_DIR=${BUILD_DIR:-$ROOT/build}
ASAN_BUILD_DIR=${ASAN_BUILD_DIR:-$BUILD_DIR-asan}
LLVM_PREFIX=${LLVM_PREFIX:-/usr/lib/llvm-22}
FUZZ_SECONDS=${FUZZ_SECONDS:-45}
FUZZ_SEED=${FUZZ_SEED:-1}
DIFF_FUZZ_CASES=${DIFF_FUZZ_CASES:-1200}
DIFF_FUZZ_SEED=${DIFF_FUZZ_SEED:-1}
ONNX_FUZZ_CASES=${ONNX_FUZZ_CASES:-300}
ONNX_FUZZ_SEED=${ONNX_FUZZ_SEED:-1}
ONNX_DIFF_FUZZ_CASES=${ONNX_DIFF_FUZZ_CASES:-200}
ONNX_DIFF_FUZZ_SEED=${ONNX_DIFF_FUZZ_SEED:-1}
export BUILD_DIR

script_start=$(date +%s)
status=0
summary=()
last_rc=

# step NAME COMMAND...: runs one step, records PASS/FAIL and its wall time.
step() {
  local name=$1 start rc
  shift
  echo "== $name =="
  start=$(date +%s)
  if "$@"; then rc=PASS; else rc=FAIL; status=1; fi
  last_rc=$rc
  summary+=("$(printf '%-10s %s  %4d s' "$name" "$rc" $(( $(date +%s) - start )))")
  echo "== $name: $rc =="
}

"$ROOT/scripts/install-deps.sh"
"$ROOT/scripts/build.sh"

run_slices=1
if [ "${QUANT_OPT_QUICK:-0}" = 1 ] && [ "${CI:-}" != true ]; then
  run_slices=0
fi

# With the slices, the lit run leaves out the random suites
# (Integration/*/random-seeds-*.test): they run the diff slice's generator
# on a few seeds per configuration (target, VLEN, thread count), and the
# diff slice draws over a thousand more of those configurations: 330 s of
# test time on a 2-core Zen 5 VM.
# amx-emulated.test is that generator's suite for the emulated AMX kernels,
# which the diff slice runs on 300 cases (--amx-emulated). Integration/
# Random/seed-N.test (60 cases each, JIT on the host) are the diff slice's
# first run, which draws 1,200 such cases.
LIT_SLICE_FILTER_OUT=${LIT_SLICE_FILTER_OUT:-'Integration/(aarch64|riscv64|x86_64|Threads)/random-seeds-[0-9-]+\.test|Integration/x86_64/amx-emulated\.test|Integration/Random/seed-[0-9]+\.test'}
lit_args=(-sv)
if [ $run_slices = 1 ]; then
  lit_args+=(--filter-out "$LIT_SLICE_FILTER_OUT")
fi
step lit "$LLVM_PREFIX/bin/lit" "${lit_args[@]}" "$BUILD_DIR/test"
step ctest ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)"

# Sanitizer build: ASan + UBSan over every library and tool, plus the
# fuzzers (coverage instrumentation costs little and saves a third build).
build_asan() {
  if [ ! -f "$ASAN_BUILD_DIR/build.ninja" ]; then
    local launcher=()
    if command -v ccache >/dev/null; then
      launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
    fi
    cmake -G Ninja -S "$ROOT" -B "$ASAN_BUILD_DIR" "${launcher[@]}" \
      -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_C_COMPILER="$LLVM_PREFIX/bin/clang" \
      -DCMAKE_CXX_COMPILER="$LLVM_PREFIX/bin/clang++" \
      -DLLVM_USE_LINKER=lld \
      -DMLIR_DIR="$LLVM_PREFIX/lib/cmake/mlir" \
      -DLLVM_EXTERNAL_LIT="$LLVM_PREFIX/bin/lit" \
      -DLLVM_USE_SANITIZER="Address;Undefined" \
      -DQUANT_OPT_ENABLE_FUZZERS=ON || return 1
  fi
  cmake --build "$ASAN_BUILD_DIR" --target all
}

# Leaks are findings too; UBSan stops at the first report (the build uses
# -fno-sanitize-recover=all) and prints a stack.
# allow_user_poisoning=0: LLVM's BumpPtrAllocator poisons its slabs in our
# instrumented copies of that header template, while the uninstrumented
# libMLIR.so allocates from the same slabs without unpoisoning them; ASan
# would report those allocations as use-after-poison (docs/Fuzzing.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:detect_odr_violation=0:allow_user_poisoning=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# The random-seed end-to-end tests (Integration/*/*-seeds*.test) spend
# their time in qemu and the JIT, which ASan does not instrument, on cases
# of the generator the diff slice draws thousands of; the plain lit run has
# run them already. So do the long kernel runs under qemu and the AMX
# emulator (AArch64 / RISC-V fused-requantize, kernel-cases, kernel-vlens;
# the emulated AMX runs): under the sanitizers they took 527 s of the 1,774
# s of test time on a 2-core Zen 5 VM, and the patterns they compile are
# the ones test/Conversion/QntTo{ArmNeon,RiscvV,X86Amx} check under the
# sanitizers. Likewise the TOSA differential runs for AArch64 and RISC-V
# (73 s): the TOSA import is the host run's, the rest the kernels above.
# The same holds for the VNNI kernels' native runs
# (Conversion/QntToX86Vnni/*run.test, 156 s under the sanitizers against
# 60 s without): their patterns are checked instrumented by the .mlir tests
# beside them, and the plain lit run executes them.
# Of the random suites on the host (Integration/Random/seed-N.test) seed 1
# runs instrumented: each seed draws from the same generator, and the
# libFuzzer gen target drives the instrumented passes with far more cases.
# Also left to the plain run: amx-permission.test (what it checks is the
# compiled program's constructor and SIGILL, uninstrumented code) and
# Fuzz/onnx-diff-fuzz.test (the fuzzer's self-test; the onnx-fuzz slice
# runs the instrumented importer on hundreds of mutants).
# Every other lit test runs under the sanitizers, without its cross runs
# under qemu (`cross_runs=0`: the runs execute uninstrumented code on an
# emulator, and a third of the sanitizer slice's test time went there; the
# AArch64 and RISC-V lowerings still run instrumented in the Conversion tests).
ASAN_LIT_FILTER_OUT=${ASAN_LIT_FILTER_OUT:-'Integration/.*-seeds(-[0-9-]+)?\.test|Integration/(aarch64|riscv64)/(fused-requantize|kernel-cases|kernel-vlens)\.test|QntToX86Amx/emulated-run\.test|Integration/x86_64/amx-emulated\.test|TosaToQnt/differential-(aarch64|riscv64)\.test|Conversion/QntToX86Vnni/[a-z0-9-]*run\.test|Integration/Random/seed-([2-9]|10)\.test|Integration/x86_64/amx-permission\.test|Fuzz/onnx-diff-fuzz\.test'}

test_asan() {
  local rc=0
  "$LLVM_PREFIX/bin/lit" -sv --filter-out "$ASAN_LIT_FILTER_OUT" \
    --param cross_runs=0 "$ASAN_BUILD_DIR/test" || rc=1
  # The install test builds a downstream project against the installed,
  # instrumented libraries: it needs the same sanitizer flags.
  local san=-fsanitize=address,undefined,fuzzer-no-link
  CXXFLAGS=$san LDFLAGS=$san \
    ctest --test-dir "$ASAN_BUILD_DIR" --output-on-failure -j"$(nproc)" || rc=1
  return $rc
}

# Each fuzzer for FUZZ_SECONDS on its corpus (kept in the build dir, so
# local reruns continue where they stopped), both at once (each libFuzzer
# process is single-threaded). Findings land in $ASAN_BUILD_DIR/fuzz-findings
# as crash-*/timeout-*/oom-* files.
fuzz_smoke() {
  local bin=$ASAN_BUILD_DIR/bin
  local corpus=$ASAN_BUILD_DIR/tools/quant-fuzzers/corpus
  local findings=$ASAN_BUILD_DIR/fuzz-findings
  local rc=0 fuzzer
  local -A pids
  mkdir -p "$corpus/parse" "$corpus/gen" "$findings"
  for fuzzer in parse gen; do
    echo "-- qnt-$fuzzer-fuzzer, ${FUZZ_SECONDS} s --"
    "$bin/qnt-$fuzzer-fuzzer" -max_total_time="$FUZZ_SECONDS" -seed="$FUZZ_SEED" \
      -print_final_stats=1 -artifact_prefix="$findings/$fuzzer-" \
      "$corpus/$fuzzer" > "$findings/$fuzzer.log" 2>&1 &
    pids[$fuzzer]=$!
  done
  for fuzzer in parse gen; do
    if ! wait "${pids[$fuzzer]}"; then
      rc=1
      echo "qnt-$fuzzer-fuzzer found a problem (tail of $findings/$fuzzer.log):"
      tail -n 60 "$findings/$fuzzer.log"
    fi
    echo "-- qnt-$fuzzer-fuzzer --"
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|Done [0-9]+ runs" \
      "$findings/$fuzzer.log" || true
  done
  return $rc
}

# Whether this host runs native code of x86 target $1 (utils/host_features.py,
# the sets lit's x86-* features and diff-fuzz.py use).
host_runs() {
  python3 "$ROOT/utils/host_features.py" "$1" > /dev/null
}

diff_slice() {
  local rc=0 options
  # Serial code for the host, then OpenMP code, which must give the
  # reference model's bits at any thread count: on 3 threads with every
  # marked loop parallel, and on 2 threads with the default threshold
  # (which the large cases cross). Then the other kernel libraries: AArch64
  # (i8mm) and RISC-V (VLEN 256) under qemu-user, the AMX kernels
  # through the SDM emulation, and the AVX2 kernels natively (on an AVX2
  # host the serial host run takes them already; x86_64-avx2 makes an
  # AVX-512 host run them too).
  local runs=(
    "$DIFF_FUZZ_SEED $DIFF_FUZZ_CASES"
    "$DIFF_FUZZ_SEED $((DIFF_FUZZ_CASES / 4)) --threads 3 --parallel-min-work 0"
    "$((DIFF_FUZZ_SEED + 1)) $((DIFF_FUZZ_CASES / 4)) --threads 2"
    "$((DIFF_FUZZ_SEED + 2)) $((DIFF_FUZZ_CASES / 4)) --target aarch64"
    "$((DIFF_FUZZ_SEED + 2)) $((DIFF_FUZZ_CASES / 4)) --target riscv64 --vlen 256"
  )
  # The emulated AMX kernels are AVX-512 VNNI code (x86_64-amx): they run on
  # such hosts only, as the lit feature x86-avx512vnni says.
  if host_runs x86_64-amx; then
    runs+=("$((DIFF_FUZZ_SEED + 2)) $((DIFF_FUZZ_CASES / 4)) --amx-emulated")
  else
    echo "diff: the emulated AMX run needs an AVX-512 VNNI host; skipped"
  fi
  if host_runs x86_64-avx2; then
    runs+=("$((DIFF_FUZZ_SEED + 3)) $((DIFF_FUZZ_CASES / 4)) --target x86_64-avx2")
  fi
  for options in "${runs[@]}"; do
    local seed cases rest
    read -r seed cases rest <<< "$options"
    # shellcheck disable=SC2086 # $rest holds separate options
    python3 "$ROOT/utils/diff-fuzz.py" --build-dir "$BUILD_DIR" \
      --seed "$seed" --cases "$cases" $rest \
      --out "$BUILD_DIR/diff-fuzz-findings" || rc=1
  done
  return $rc
}

# Random quantized ONNX graphs imported, compiled and run against a numpy
# model of the ONNX definitions (utils/onnx-diff-fuzz.py), on the host and
# under qemu for AArch64 and RISC-V.
onnx_diff_slice() {
  local rc=0 python3_onnx=python3 options seed cases rest
  python3 -c "import onnx, numpy" 2> /dev/null || python3_onnx=/usr/bin/python3
  for options in "$ONNX_DIFF_FUZZ_SEED $ONNX_DIFF_FUZZ_CASES" \
      "$((ONNX_DIFF_FUZZ_SEED + 1)) $((ONNX_DIFF_FUZZ_CASES / 5)) --target aarch64" \
      "$((ONNX_DIFF_FUZZ_SEED + 2)) $((ONNX_DIFF_FUZZ_CASES / 5)) --target riscv64"; do
    read -r seed cases rest <<< "$options"
    # shellcheck disable=SC2086 # $rest holds separate options
    "$python3_onnx" "$ROOT/utils/onnx-diff-fuzz.py" --build-dir "$BUILD_DIR" \
      --seed "$seed" --cases "$cases" $rest \
      --out "$BUILD_DIR/onnx-diff-fuzz-findings" || rc=1
  done
  return $rc
}

# Structure-aware ONNX mutants through quant-import-onnx and, when it
# imports them, quant-opt: the sanitizer build's tools (Debian's python3 has
# the onnx module).
onnx_fuzz_slice() {
  python3_onnx=python3
  python3 -c "import onnx, numpy" 2> /dev/null || python3_onnx=/usr/bin/python3
  "$python3_onnx" "$ROOT/utils/onnx-mutate-fuzz.py" --build-dir "$1" \
    --seed "$ONNX_FUZZ_SEED" --cases "$ONNX_FUZZ_CASES" \
    --out "$BUILD_DIR/onnx-fuzz-findings"
}

if [ $run_slices = 1 ]; then
  step asan-build build_asan
  if [ "$last_rc" = PASS ]; then
    step asan-test test_asan
    step fuzz fuzz_smoke
    step onnx-fuzz onnx_fuzz_slice "$ASAN_BUILD_DIR"
  fi
  step diff diff_slice
  step onnx-diff onnx_diff_slice
else
  echo "== QUANT_OPT_QUICK=1: sanitizer, fuzzer and differential slices skipped =="
fi

echo "== summary =="
printf '%s\n' "${summary[@]}"
echo "run-tests: $([ $status = 0 ] && echo PASS || echo FAIL) in $(( $(date +%s) - script_start )) s"
exit $status
