# -*- Python -*-
import os

import lit.formats
from lit.llvm import llvm_config

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
tools = ["quant-opt", "quant-ref-run", "mlir-opt", "mlir-runner",
         "mlir-translate", "llc"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

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
config.substitutions.append((
    "%compare_outputs",
    "%s %s" % (config.python_executable,
               os.path.join(config.quant_opt_src_root, "utils", "compare-outputs.py"))))
config.substitutions.append(("%python", config.python_executable))
config.substitutions.append((
    "%gen_e2e", os.path.join(config.quant_opt_src_root, "utils", "gen-e2e-cases.py")))
