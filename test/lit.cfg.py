# -*- Python -*-
import os
import platform
import shutil
import sys

import lit.formats
from lit.llvm import llvm_config

sys.path.insert(0, os.path.join(config.quant_opt_src_root, "utils"))
import host_features  # noqa: E402

config.name = "QUANT_OPT"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir", ".test"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.quant_opt_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.md", "lit.cfg.py", "Install",
                   "lit.site.cfg.py", "Inputs"]

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()
# FileCheck, not and count live beside the LLVM 22 tools.
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))
config.substitutions.append(("%quant_opt_libs", config.quant_opt_lib_dir))
config.substitutions.append(("%mlir_lib_dir", config.llvm_lib_dir))

# Our tools first; stock MLIR tools (mlir-opt, mlir-runner, llc) come from the
# LLVM 22 installation.
tool_dirs = [config.quant_opt_tools_dir, config.llvm_tools_dir]
tools = ["quant-opt", "quant-ref-run", "quant-translate",
         "quant-translate-qemu", "quant-test-opt", "mlir-opt",
         "mlir-runner", "mlir-translate", "llc", "llvm-objdump", "llvm-readelf"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# The golden side of every end-to-end check. Tests call the reference model
# through this one substitution (`%quant_ref_run FILE`), so how it is invoked
# is decided here only: utils/quant-ref-run.py prints FILE in generic form
# with quant-opt (no pass) and pipes it into quant-ref-run, which links no
# compiler library (docs/ReferenceModel.md).
config.substitutions.append((
    "%quant_ref_run",
    "%s %s --tools-dir %s" % (
        config.python_executable,
        os.path.join(config.quant_opt_src_root, "utils", "quant-ref-run.py"),
        config.quant_opt_tools_dir)))

# Runs a module lowered by --qnt-to-llvm: upstream runner utils plus ours
# (printMemrefI8 / printMemrefU8).
runner_libs = ",".join([
    os.path.join(config.llvm_lib_dir, "libmlir_runner_utils.so"),
    os.path.join(config.llvm_lib_dir, "libmlir_c_runner_utils.so"),
    os.path.join(config.quant_opt_lib_dir, "libquant_runner_utils.so"),
])
config.substitutions.append((
    "%mlir_runner_cmd",
    os.path.join(config.llvm_tools_dir, "mlir-runner")
    + " -e main -entry-point-result=void -shared-libs=" + runner_libs))
# The same, for modules lowered with threads != 1: LLVM's OpenMP runtime
# (libomp-22-dev) provides the __kmpc_* entry points the code calls.
libomp = os.path.join(config.llvm_lib_dir, "libomp.so")
if os.path.exists(libomp):
    config.available_features.add("openmp")
config.substitutions.append((
    "%mlir_runner_omp_cmd",
    os.path.join(config.llvm_tools_dir, "mlir-runner")
    + " -e main -entry-point-result=void -shared-libs="
    + ",".join([libomp, runner_libs])))
config.substitutions.append((
    "%compare_outputs",
    "%s %s" % (config.python_executable,
               os.path.join(config.quant_opt_src_root, "utils", "compare-outputs.py"))))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append((
    "%gen_e2e", os.path.join(config.quant_opt_src_root, "utils", "gen-e2e-cases.py")))

# Native code for the named targets (utils/run-on-target.py): quant-opt
# --qnt-to-llvm=target=T, quant-translate --emit=obj, clang-22 + lld with
# lib/Runtime/qnt_print_runtime.c, then run natively or under qemu-user.
config.substitutions.append((
    "%run_on_target",
    "%s %s --tools-dir %s --llvm-bin %s" % (
        config.python_executable,
        os.path.join(config.quant_opt_src_root, "utils", "run-on-target.py"),
        config.quant_opt_tools_dir, config.llvm_tools_dir)))


def have_tools(*names):
    return all(os.access(os.path.join(config.llvm_tools_dir, n), os.X_OK)
               for n in names)


cross_tools = have_tools("clang", "ld.lld", "llvm-objcopy", "llvm-nm",
                         "llvm-objdump")

# Native x86 code runs only on a host with its features (utils/
# host_features.py); qemu-x86_64 cannot emulate AVX-512.
if (platform.machine() in ("x86_64", "AMD64") and cross_tools
        and not host_features.missing_features("x86_64-avx2")):
    config.available_features.add("x86-avx2")
    # AVX-VNNI (VEX-encoded 256-bit vpdpbusd: Alder Lake and later).
    if "avx_vnni" in host_features.cpu_flags():
        config.available_features.add("x86-avxvnni")
if (platform.machine() in ("x86_64", "AMD64") and cross_tools
        and not host_features.missing_features("x86_64")):
    config.available_features.add("x86-avx512vnni")
    # AMX-INT8 tiles (target=x86_64-amx, a Sapphire Rapids class CPU); the
    # generated code asks Linux for the tile state itself. qemu cannot
    # emulate AMX: without the feature, the kernels run through the
    # test-only emulation (quant-test-opt) instead.
    if {"amx_tile", "amx_int8"} <= host_features.cpu_flags():
        config.available_features.add("x86-amx")

# Tests that look at a program's system calls (the AMX permission request).
if shutil.which("strace"):
    config.available_features.add("strace")

# Cross runs: qemu-user plus the Debian cross sysroot (libc6-dev-*-cross,
# libgcc-12-dev-*-cross) for linking. `--param cross_runs=0` leaves them out
# (the sanitizer slice: its tools are instrumented, qemu and the code it runs
# are not, and the plain run has run them).
cross_runs = lit_config.params.get("cross_runs", "1") != "0"
for arch in ["aarch64", "riscv64"]:
    sysroot = "/usr/%s-linux-gnu" % arch
    if (cross_runs and cross_tools and shutil.which("qemu-" + arch)
            and os.path.isdir(os.path.join(sysroot, "lib"))
            and os.path.isdir("/usr/lib/gcc-cross/%s-linux-gnu" % arch)):
        config.available_features.add("qemu-" + arch)

# The ONNX importer's tests build their graphs with python3-onnx and compare
# with numpy: they need a Python that has both (Debian's /usr/bin/python3
# when the default python3 lacks them).
if os.path.exists(os.path.join(config.quant_opt_tools_dir, "quant-import-onnx")):
    config.available_features.add("onnx-importer")
    llvm_config.add_tool_substitutions(["quant-import-onnx"],
                                       [config.quant_opt_tools_dir])
for candidate in [config.python_executable, "/usr/bin/python3"]:
    import subprocess
    try:
        if subprocess.run([candidate, "-c", "import onnx, numpy"],
                          capture_output=True).returncode == 0:
            config.available_features.add("onnx-python")
            config.substitutions.append(("%onnx_python", candidate))
            break
    except OSError:
        pass
