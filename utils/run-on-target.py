#!/usr/bin/env python3
"""Compiles a qnt module to a native program for a target and runs it there.

  quant-opt MODULE --qnt-to-llvm=target=T      -> LLVM dialect
  quant-translate --emit=obj (LLVM -O3)        -> model.o
  llvm-objcopy --redefine-sym main=qnt_main    (the module's `void main()`)
  clang-22 --target=... -fuse-ld=lld -static   + lib/Runtime/qnt_print_runtime.c
  run: x86_64 / host natively, aarch64 under qemu-aarch64 -cpu max,
       riscv64 under qemu-riscv64 -cpu rv64,v=true,vlen=N,vext_spec=v1.0

The program's stdout (printMemref transcripts, upstream's format) goes to
stdout or -o, ready for utils/compare-outputs.py against quant-ref-run.

--binary PATH keeps the linked program; --run PATH runs one built earlier
(no compile), e.g. the same riscv64 program at VLEN 128 and 512.
--qemu-cpu replaces the emulated CPU and --expect-signal SIGILL inverts the
check: the run must die of that signal. The runtime reports the faulting
address; this script names the function and instruction there and whether
that code came from the module, e.g.
  SIGILL in module function 'forward' at 0x4012a4: sdot v0.4s, v1.16b, v2.16b
so that a SIGILL proves the module's own dot-product / vector code ran.

qemu-riscv64 before 8.0 (Debian 12 ships 7.2) aborts with "decode_save_opc:
Assertion `ctx->insn_start != NULL' failed" when it translates a vfcvt.rtz.*
(vector fptosi) while its cached rounding mode is not the dynamic one, e.g. at
the start of a translation block (QEMU issue #1441). With such a qemu, riscv64
objects are built with the test-only quant-translate-qemu
--avoid-rvv-rtz-conversions (quant-translate plus that option), which
computes vector fptosi exactly from round-to-nearest conversions;
--no-qemu-workarounds turns that off.

Exit status: 0 on success; 1 on a failed step, a failed or crashed run, or
an --expect-signal run that did not die of that signal.
"""
import argparse
import os
import platform
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RUNTIME_C = os.path.join(ROOT, "lib", "Runtime", "qnt_print_runtime.c")

# target -> (clang triple, runtime -march (baseline ISA, so the runtime
# itself runs on the smallest CPU of the arch), sysroot for qemu -L)
TARGETS = {
    "x86_64": ("x86_64-linux-gnu", [], None),
    "aarch64": ("aarch64-linux-gnu", ["-march=armv8-a"], "/usr/aarch64-linux-gnu"),
    "riscv64": ("riscv64-linux-gnu", ["-march=rv64gc", "-mabi=lp64d"],
                "/usr/riscv64-linux-gnu"),
}


def die(message):
    sys.stderr.write("run-on-target: %s\n" % message)
    sys.exit(1)


def host_arch():
    machine = platform.machine()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)


def run_step(cmd, **kwargs):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            universal_newlines=True, **kwargs)
    if result.returncode != 0:
        sys.stderr.write(result.stdout + result.stderr)
        die("step failed (exit %d): %s" % (result.returncode, " ".join(cmd)))
    return result


def find_tool(name, dirs):
    for d in dirs:
        path = os.path.join(d, name)
        if d and os.access(path, os.X_OK):
            return path
    found = shutil.which(name)
    if not found:
        die("cannot find %s (searched %s and PATH)" % (name, ", ".join(dirs)))
    return found


def arch_of(target):
    if target == "host":
        return host_arch()
    # x86_64-amx / x86_64-avx2: the x86-64 toolchain, a Sapphire Rapids
    # class CPU or an AVX2 one;
    # aarch64-dotprod / aarch64-neon: narrower CPUs of the same arch.
    return target.split("-", 1)[0]


# The emulated CPU of a target name whose CPU lacks features of `max`.
QEMU_CPUS = {"aarch64-dotprod": "neoverse-n1", "aarch64-neon": "cortex-a57"}


def qemu_major(arch):
    qemu = shutil.which("qemu-" + arch)
    if not qemu:
        return None
    out = subprocess.run([qemu, "--version"], stdout=subprocess.PIPE,
                         universal_newlines=True).stdout
    m = re.search(r"version (\d+)\.", out)
    return int(m.group(1)) if m else None


def build(args, tools, work):
    arch = arch_of(args.target)
    if arch not in TARGETS:
        die("no cross toolchain for architecture '%s'" % arch)
    triple, march, sysroot = TARGETS[arch]
    llvm_mlir = os.path.join(work, "model.llvm.mlir")
    obj = os.path.join(work, "model.o")
    run_step([tools["quant-opt"], args.module,
              "--qnt-to-llvm=target=%s%s" % (
                  args.target, "".join(" " + o for o in args.pipeline_options)),
              "-o", llvm_mlir])
    translator = tools["quant-translate"]
    avoid_rtz = arch == "riscv64" and arch != host_arch() and \
        not args.no_qemu_workarounds and (qemu_major(arch) or 0) < 8
    if avoid_rtz:
        # The workaround is in the test-only build of the translator.
        translator = find_tool("quant-translate-qemu",
                               [os.path.dirname(translator)])
    translate = [translator, llvm_mlir, "--emit=obj",
                 "-O%d" % args.opt_level, "-o", obj]
    if avoid_rtz:
        translate.append("--avoid-rvv-rtz-conversions")
    run_step(translate)
    run_step([tools["llvm-objcopy"], "--redefine-sym", "main=qnt_main", obj])
    binary = args.binary or os.path.join(work, "model")
    cmd = [tools["clang"], "--target=" + triple, "-fuse-ld=lld", "-O2"] + march
    # Static when the sysroot has libc.a: qemu then needs no -L, and the
    # program does not depend on the host's dynamic loader setup.
    libc_a = os.path.join(sysroot, "lib", "libc.a") if sysroot \
        else "/usr/lib/%s/libc.a" % triple
    if os.path.exists(libc_a):
        cmd.append("-static")
    # -lm: float islands (softmax, sigmoid, GELU) call expf / erff / tanhf.
    cmd += [RUNTIME_C, obj, "-lm", "-o", binary]
    run_step(cmd)
    return binary, obj


def run_command(args, binary):
    arch = arch_of(args.target)
    if arch == host_arch() and not args.qemu_cpu:
        return [binary]
    _, _, sysroot = TARGETS[arch]
    qemu = shutil.which("qemu-" + arch)
    if not qemu:
        die("qemu-%s is not installed" % arch)
    cpu = args.qemu_cpu or QEMU_CPUS.get(args.target)
    if not cpu:
        if arch == "aarch64":
            cpu = "max"
        elif arch == "riscv64":
            cpu = "rv64,v=true,vlen=%d,vext_spec=v1.0" % args.vlen
        else:
            cpu = "max"
    return [qemu, "-L", sysroot or "/", "-cpu", cpu, binary]


def describe_fault(tools, binary, obj, address):
    """'module function F at 0x..: insn' for a faulting address."""
    symbols = []
    nm = subprocess.run([tools["llvm-nm"], "--defined-only", "-n", binary],
                        stdout=subprocess.PIPE, universal_newlines=True)
    for line in nm.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1].lower() == "t":
            symbols.append((int(parts[0], 16), parts[2]))
    function = None
    for start, name in symbols:
        if start <= address:
            function = name
    module_functions = set()
    if obj:
        nm = subprocess.run([tools["llvm-nm"], "--defined-only", obj],
                            stdout=subprocess.PIPE, universal_newlines=True)
        for line in nm.stdout.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1].lower() == "t":
                module_functions.add(parts[2])
    dump = subprocess.run(
        [tools["llvm-objdump"], "-d", "--no-show-raw-insn",
         "--start-address=0x%x" % address, "--stop-address=0x%x" % (address + 4),
         binary], stdout=subprocess.PIPE, universal_newlines=True)
    insn = "?"
    for line in dump.stdout.splitlines():
        m = re.match(r"\s*%x:\s*(.*)" % address, line)
        if m:
            insn = " ".join(m.group(1).split())
    where = "unknown function"
    if function:
        origin = "module function" if function in module_functions else \
            ("function" if not obj else "runtime/libc function")
        where = "%s '%s'" % (origin, function)
    return "%s at 0x%x: %s" % (where, address, insn)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("module", nargs="?", help="qnt module with @main")
    parser.add_argument("--target", default="host",
                        choices=["host", "x86_64", "x86_64-amx", "x86_64-avx2",
                                 "aarch64",
                                 "aarch64-dotprod", "aarch64-neon", "riscv64"])
    parser.add_argument("--pipeline-option", dest="pipeline_options",
                        action="append", default=[], metavar="NAME=VALUE",
                        help="another --qnt-to-llvm option (repeatable), "
                        "e.g. nontemporal-min-bytes=1")
    parser.add_argument("--vlen", type=int, default=128,
                        help="RISC-V vector length for qemu (default 128)")
    parser.add_argument("--qemu-cpu", help="qemu -cpu value (replaces the "
                        "default; forces qemu even for the host arch)")
    parser.add_argument("--expect-signal", choices=["SIGILL"],
                        help="the run must die of this signal")
    parser.add_argument("-O", dest="opt_level", type=int, default=3,
                        choices=[0, 1, 2, 3], help="quant-translate -O level")
    parser.add_argument("--no-qemu-workarounds", action="store_true",
                        help="compile exactly as for hardware even when the "
                        "installed qemu has known bugs (see above)")
    parser.add_argument("--binary", help="where to keep the linked program")
    parser.add_argument("--run", help="run this program (built earlier with "
                        "--binary) instead of compiling MODULE")
    parser.add_argument("--tools-dir", help="directory of quant-opt and "
                        "quant-translate (default $BUILD_DIR/bin or build/bin)")
    parser.add_argument("--llvm-bin", default="/usr/lib/llvm-22/bin",
                        help="clang, lld, llvm-objcopy/-nm/-objdump")
    parser.add_argument("--work-dir", help="keep intermediate files here")
    parser.add_argument("-o", dest="output", help="write the program's "
                        "stdout here (default stdout)")
    args = parser.parse_args()
    if not args.module and not args.run:
        parser.error("a MODULE or --run PROGRAM is required")

    tools_dir = args.tools_dir or os.path.join(
        os.environ.get("BUILD_DIR", os.path.join(ROOT, "build")), "bin")
    tools = {}
    for name in ["quant-opt", "quant-translate"]:
        tools[name] = find_tool(name, [tools_dir])
    for name, alt in [("clang", "clang-22"), ("llvm-objcopy", "llvm-objcopy-22"),
                      ("llvm-nm", "llvm-nm-22"), ("llvm-objdump", "llvm-objdump-22")]:
        tools[name] = find_tool(name, [args.llvm_bin]) \
            if os.access(os.path.join(args.llvm_bin, name), os.X_OK) \
            else find_tool(alt, [])

    work = args.work_dir or tempfile.mkdtemp(prefix="run-on-target-")
    os.makedirs(work, exist_ok=True)
    try:
        obj = None
        if args.run:
            binary = args.run
            obj = args.run + ".o" if os.path.exists(args.run + ".o") else None
        else:
            binary, obj = build(args, tools, work)
            if args.binary:
                shutil.copyfile(obj, args.binary + ".o")
        binary = os.path.abspath(binary)
        cmd = run_command(args, binary)
        # No core files from the expected crashes.
        limit_core = lambda: resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        result = subprocess.run(cmd, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, preexec_fn=limit_core)
        if args.output:
            with open(args.output, "wb") as f:
                f.write(result.stdout)
        elif not args.expect_signal:  # then stdout is the fault report
            sys.stdout.buffer.write(result.stdout)
            sys.stdout.flush()
        stderr = result.stderr.decode(errors="replace")
        code = result.returncode
        if args.expect_signal:
            expected = getattr(signal, args.expect_signal)
            if code != -expected:
                sys.stderr.write(stderr)
                die("expected %s from %s, got exit status %d"
                    % (args.expect_signal, " ".join(cmd), code))
            m = re.search(r"SIGILL at 0x([0-9a-f]+)", stderr)
            if not m:
                die("died of SIGILL, but the runtime did not report where")
            print("SIGILL in " + describe_fault(tools, binary, obj,
                                                int(m.group(1), 16)))
            return
        if code != 0:
            sys.stderr.write(stderr)
            if code < 0:
                die("%s died of signal %s" % (" ".join(cmd),
                                             signal.Signals(-code).name))
            die("%s exited with status %d" % (" ".join(cmd), code))
        sys.stderr.write(stderr)
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
