#!/usr/bin/env python3
"""Differential fuzzer: compiled code against the reference model.

Draws random cases with the generators of utils/gen-e2e-cases.py (every op,
storage type, per-axis parameters and rounding mode it knows), each from its
own seed derived from (--seed, case index), so any case can be rebuilt
alone. Cases run in batches: one module per batch is compiled with
`quant-opt --qnt-to-llvm` and run under `mlir-runner` (as the Random lit
tests do) and also run on the reference model (`quant-ref-run`); the two
transcripts must agree bit for bit.

On a mismatch or a failure, the failing case is rebuilt as a standalone
module (the single case, its @main and its prints), checked again on its own
and written to --out together with the command that reproduces it:

    utils/diff-fuzz.py --build-dir build --seed 7 --case 1234

Examples:
    utils/diff-fuzz.py --build-dir build --cases 200            # a CI slice
    utils/diff-fuzz.py --build-dir build --cases 10000 --jobs 2 # a long run
    utils/diff-fuzz.py --build-dir build --threads 3 --parallel-min-work 0
                                   # OpenMP code, every marked loop parallel
"""
import argparse
import concurrent.futures
import importlib.util
import inspect
import os
import shlex
import subprocess
import sys
import tempfile
import time

from host_features import missing_features

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"


def load(name, filename):
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, filename))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = load("gen_e2e_cases", "gen-e2e-cases.py")
compare = load("compare_outputs", "compare-outputs.py")


def case_kinds():
    """(name, weight, callable(rng, mod, index)) for every generator.

    gen_layer(rng, mod, index, kind) gives matmul and conv2d; any other
    gen_*(rng, mod, index) in gen-e2e-cases.py is picked up as it appears.
    """
    kinds = []
    for name, fn in sorted(vars(gen).items()):
        if not name.startswith("gen_") or not callable(fn):
            continue
        params = list(inspect.signature(fn).parameters)
        if name == "gen_layer":
            for kind in ("matmul", "conv2d"):
                kinds.append((kind, 3, lambda r, m, i, k=kind: gen.gen_layer(r, m, i, k)))
                # Shapes that fill the microkernels' blocks and leave tails.
                kinds.append((kind + "-large", 1, lambda r, m, i, k=kind:
                              gen.gen_layer(r, m, i, k, large=True)))
                # The same with the requantize as the accumulator's only
                # user: the kernels' fused epilogues (and the x86 conv's
                # software-pipelined tiles).
                kinds.append((kind + "-fused", 1, lambda r, m, i, k=kind:
                              gen.gen_layer(r, m, i, k, large=True, fused=True)))
        elif params[:3] == ["rng", "mod", "index"] and len(params) == 3:
            kinds.append((name[4:], 1, fn))
        elif params == ["rng", "mod", "index", "large"]:
            kinds.append((name[4:], 1, fn))
            # Shapes whose vector code runs full vectors and leaves tails.
            kinds.append((name[4:] + "-large", 1,
                          lambda r, m, i, fn=fn: fn(r, m, i, large=True)))
    return kinds


KINDS = case_kinds()


def case_rng(seed, index):
    # String seeds hash deterministically (SHA-512) in every Python 3.
    return gen.random.Random("diff-fuzz:%d:%d" % (seed, index))


def add_case(mod, seed, index):
    """Adds case `index` of `seed` to `mod`; returns (kind, label count)."""
    rng = case_rng(seed, index)
    total = sum(w for _, w, _ in KINDS)
    r = rng.randrange(total)
    for kind, weight, fn in KINDS:
        if r < weight:
            break
        r -= weight
    before = len(mod.labels)
    fn(rng, mod, index)
    return kind, len(mod.labels) - before


# Targets whose code runs under qemu-user through utils/run-on-target.py
# (static programs, no OpenMP runtime for them in Debian 12).
CROSS_TARGETS = ("aarch64", "aarch64-dotprod", "aarch64-neon", "riscv64")


class Tools:
    def __init__(self, build_dir, target, threads=1, parallel_min_work=None,
                 vlen=None, amx_emulated=False):
        bin_dir = os.path.join(build_dir, "bin")
        # Cross targets: compiled, linked and run by run-on-target.py.
        self.cross = None
        if target in CROSS_TARGETS:
            self.cross = [sys.executable, os.path.join(HERE, "run-on-target.py"),
                          "--target", target, "--tools-dir", bin_dir]
            if vlen:
                self.cross += ["--vlen", str(vlen)]
        self.quant_opt = os.path.join(bin_dir, "quant-opt")
        self.ref_run = os.path.join(bin_dir, "quant-ref-run")
        self.target = target
        options = ["target=%s" % target] if target else []
        libs = [os.path.join(LLVM_LIB, "libmlir_runner_utils.so"),
                os.path.join(LLVM_LIB, "libmlir_c_runner_utils.so"),
                os.path.join(build_dir, "lib", "libquant_runner_utils.so")]
        if threads != 1:
            # OpenMP code (docs/Parallelism.md): libomp at run time, the
            # thread count fixed in the code.
            options.append("threads=%d" % threads)
            if parallel_min_work is not None:
                options.append("parallel-min-work=%d" % parallel_min_work)
            libs.append(os.path.join(LLVM_LIB, "libomp.so"))
        self.pipeline = "--qnt-to-llvm" + ("=" + " ".join(options) if options else "")
        # The compiler: quant-opt, or for AMX kernels on a machine without
        # AMX the test tool whose pipeline rewrites every amx op into loops
        # written from the Intel SDM (docs/KernelLayer.md).
        self.compiler = self.quant_opt
        if amx_emulated:
            self.compiler = os.path.join(bin_dir, "quant-test-opt")
            self.pipeline = self.pipeline.replace(
                "--qnt-to-llvm", "--test-qnt-to-llvm-amx-emulated", 1)
        # What the reproduce line repeats of this run's command line.
        self.flags = (" --amx-emulated" if amx_emulated else
                      " --target " + target if target else "") + (
            " --vlen %d" % vlen if vlen else "") + (
            " --threads %d" % threads if threads != 1 else "") + (
            " --parallel-min-work %d" % parallel_min_work
            if parallel_min_work is not None else "")
        self.runner = [os.path.join(LLVM_BIN, "mlir-runner"), "-e", "main",
                       "-entry-point-result=void", "-shared-libs=" + ",".join(libs)]
        for tool in (self.quant_opt, self.compiler, self.ref_run, self.runner[0]):
            if not os.access(tool, os.X_OK):
                sys.exit("diff-fuzz: missing tool %s (build first)" % tool)

    def commands(self, path):
        ref = ("%s %s --mlir-print-op-generic | %s - > ref.txt"
               % (self.quant_opt, path, self.ref_run))
        if self.cross:
            return ref, "%s %s > compiled.txt" % (
                " ".join(shlex.quote(a) for a in self.cross), path)
        return ref, "%s %s %s | %s > compiled.txt" % (
            self.compiler, path, shlex.quote(self.pipeline), " ".join(self.runner))

    def run(self, path, timeout):
        """Returns (reference, compiled, error): transcripts or a message."""
        def call(cmd, stdin=None):
            p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=timeout)
            if p.returncode != 0:
                raise RuntimeError("%s exited with %d:\n%s" % (
                    os.path.basename(cmd[0]), p.returncode,
                    p.stderr.decode(errors="replace")[-3000:]))
            return p.stdout
        try:
            # quant-ref-run reads qnt ops in generic form only
            # (docs/ReferenceModel.md): a parse/print round trip, no pass.
            generic = call([self.quant_opt, path, "--mlir-print-op-generic"])
            ref = call([self.ref_run, "-"], stdin=generic)
            if self.cross:
                got = call(self.cross + [path])
            else:
                llvm = call([self.compiler, path, self.pipeline])
                got = call(self.runner, stdin=llvm)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            return None, None, str(e)
        return ref.decode(), got.decode(), None


def transcript_tensors(text):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        return compare.tensors(f.name)
    finally:
        os.unlink(f.name)


def mismatching_tensors(ref, got):
    """Indices of printed tensors that differ (all of them if the counts do)."""
    rt, gt = transcript_tensors(ref), transcript_tensors(got)
    if len(rt) != len(gt):
        return list(range(max(len(rt), len(gt))))
    return [i for i, (a, b) in enumerate(zip(rt, gt)) if a != b]


def run_batch(tools, seed, indices, workdir, timeout):
    """Runs cases `indices` in one module; returns the failing case indices."""
    mod = gen.Module(seed)
    owner = []  # printed tensor -> case index
    for index in indices:
        _, printed = add_case(mod, seed, index)
        owner += [index] * printed
    path = os.path.join(workdir, "batch-%d-%d.mlir" % (seed, indices[0]))
    with open(path, "w") as f:
        f.write(mod.text())
    ref, got, error = tools.run(path, timeout)
    if error is None:
        bad = sorted({owner[i] for i in mismatching_tensors(ref, got) if i < len(owner)})
        if not bad and len(transcript_tensors(ref)) == len(owner):
            os.unlink(path)
            return []
        if bad:
            return bad
    # A tool failed (or the transcript is garbled): find the cases alone.
    return [i for i in indices if single_case(tools, seed, i, workdir, timeout)[0]]


def single_case(tools, seed, index, workdir, timeout):
    """Runs one case alone; returns (failed, module text, kind, detail)."""
    mod = gen.Module(seed)
    kind, _ = add_case(mod, seed, index)
    text = mod.text()
    path = os.path.join(workdir, "case-%d-%d.mlir" % (seed, index))
    with open(path, "w") as f:
        f.write(text)
    ref, got, error = tools.run(path, timeout)
    if error is not None:
        return True, text, kind, error
    bad = mismatching_tensors(ref, got)
    if not bad:
        os.unlink(path)
        return False, text, kind, ""
    rt, gt = transcript_tensors(ref), transcript_tensors(got)
    lines = []
    for i in bad:
        label = mod.labels[i] if i < len(mod.labels) else "tensor %d" % i
        lines.append("MISMATCH in %s" % label)
        if i < len(rt) and i < len(gt):
            for j, (a, b) in enumerate(zip(rt[i][1], gt[i][1])):
                if a != b:
                    lines.append("  element %d: reference %s, compiled %s" % (j, a, b))
    return True, text, kind, "\n".join(lines[:40])


def report(tools, seed, index, out_dir, workdir, timeout):
    failed, text, kind, detail = single_case(tools, seed, index, workdir, timeout)
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, "diff-fuzz-seed%d-case%d.mlir" % (seed, index))
    ref_cmd, got_cmd = tools.commands(path)
    header = ["// diff-fuzz finding: seed %d case %d (%s)" % (seed, index, kind),
              "// reproduce: utils/diff-fuzz.py --seed %d --case %d%s" % (
                  seed, index, tools.flags),
              "// reference: %s" % ref_cmd,
              "// compiled:  %s" % got_cmd]
    if not failed:
        header.append("// NOTE: passed when run alone (fails only inside its batch)")
    with open(path, "w") as f:
        f.write("\n".join(header) + "\n" + text)
    print("=" * 72)
    print("\n".join(header))
    print(detail)
    print("--- standalone reproducer (%s) ---" % path)
    print(text)
    return failed


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--build-dir", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--seed", type=int, default=None,
                        help="run seed (default: from the clock, printed)")
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="first case index")
    parser.add_argument("--case", type=int, default=None,
                        help="run and print only this case (reproduce a finding)")
    parser.add_argument("--batch", type=int, default=40, help="cases per module")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--target", default=None,
                        help="--qnt-to-llvm target (default: host). x86 targets "
                             "run under mlir-runner on this machine; %s are "
                             "built and run under qemu-user by "
                             "utils/run-on-target.py" % ", ".join(CROSS_TARGETS))
    parser.add_argument("--amx-emulated", action="store_true",
                        help="target x86_64-amx, its tile ops emulated in loops "
                             "(quant-test-opt --test-qnt-to-llvm-amx-emulated): "
                             "the AMX kernels' packing, blocking and tails on a "
                             "machine without AMX")
    parser.add_argument("--vlen", type=int, default=None,
                        help="with --target riscv64: the RVV vector length qemu "
                             "emulates (run-on-target.py's default: 128)")
    parser.add_argument("--threads", type=int, default=1,
                        help="--qnt-to-llvm threads=N (default 1: serial code); "
                             "the output must still equal the reference model's")
    parser.add_argument("--parallel-min-work", type=int, default=None,
                        help="with --threads: parallel-min-work=W (0: every "
                             "marked loop runs in parallel)")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per tool call")
    parser.add_argument("--out", default="diff-fuzz-findings",
                        help="directory for reproducers")
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else int(time.time()) % 1000000
    if args.threads < 0 or (args.threads == 1 and args.parallel_min_work is not None):
        parser.error("--threads must be at least 0, and --parallel-min-work "
                     "needs --threads other than 1")
    if args.target in CROSS_TARGETS and args.threads != 1:
        parser.error("--threads needs a target that runs on this machine")
    if args.vlen is not None and args.target != "riscv64":
        parser.error("--vlen needs --target riscv64")
    if args.amx_emulated:
        if args.target not in (None, "x86_64-amx"):
            parser.error("--amx-emulated compiles for x86_64-amx")
        args.target = "x86_64-amx"
    missing = missing_features(args.target)
    if missing:
        parser.error("target %s runs natively and this host lacks %s (the "
                     "JIT would abort in instruction selection)"
                     % (args.target, " ".join(missing)))
    tools = Tools(os.path.abspath(args.build_dir), args.target, args.threads,
                  args.parallel_min_work, args.vlen, args.amx_emulated)
    workdir = tempfile.mkdtemp(prefix="diff-fuzz-")
    if args.case is not None:
        failed = report(tools, seed, args.case, args.out, workdir, args.timeout)
        print("diff-fuzz: seed %d case %d %s" % (seed, args.case,
                                                 "FAILS" if failed else "passes"))
        return 1 if failed else 0

    start = time.time()
    indices = list(range(args.first, args.first + args.cases))
    batches = [indices[i:i + args.batch] for i in range(0, len(indices), args.batch)]
    print("diff-fuzz: seed %d, cases %d..%d, %d batches, %d jobs, generators: %s"
          % (seed, indices[0], indices[-1], len(batches), args.jobs,
             ", ".join(k for k, _, _ in KINDS)), flush=True)
    failing = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(run_batch, tools, seed, b, workdir, args.timeout)
                   for b in batches]
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            failing += future.result()
            if done % 10 == 0 or done == len(futures):
                print("diff-fuzz: %d/%d batches, %d failing cases, %.0f s"
                      % (done, len(futures), len(failing), time.time() - start),
                      flush=True)
    for index in sorted(failing):
        report(tools, seed, index, args.out, workdir, args.timeout)
    print("diff-fuzz: seed %d%s: %d cases, %d failing%s, %.0f s" % (
        seed, tools.flags, len(indices), len(failing),
        (" (" + ", ".join(map(str, sorted(failing))) + ")") if failing else "",
        time.time() - start))
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main())
