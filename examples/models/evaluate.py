#!/usr/bin/python3
"""Imports each digits model, compiles it, runs it on the held-out digits
and compares with torch and with the reference model. No torch needed.

For each model (digits_*.onnx next to this script):
  quant-import-onnx MODEL --input-shape input=Nx1x8x8 --entry model
  + a @main that feeds the N held-out images and prints the logits
  host:   quant-opt --qnt-to-llvm | mlir-runner
  others: utils/run-on-target.py --target T (qemu for aarch64 / riscv64)
  quant-ref-run on the same module (the reference model)

Prints per model and target: torch float accuracy, torch fake-quant accuracy
(digits.json), our int8 accuracy, the share of logits equal to the reference
model's, and the largest distance to torch's fake-quant logits in output
steps (and the share within one step).

Usage: examples/models/evaluate.py [--build-dir build] [--targets host,aarch64]
       [--models cnn,resnet,mlp] [--limit N]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed:\n%s" % (" ".join(cmd[:2]),
                                               r.stderr[-2000:]))
    return r.stdout


def driver(module_text, pixels):
    """Appends a @main that calls @model on the images and prints logits."""
    x = pixels.astype(np.float32).reshape(-1, 1, 8, 8) / 16.0
    n = x.shape[0]
    m = re.search(r"func\.func @model\([^)]*\) -> (tensor<[^>]*>)", module_text)
    out_type = m.group(1)
    shape = re.match(r"tensor<([0-9x]+)xf32>", out_type).group(1)
    dense = "[" + ",".join(
        "[[[" + "],[".join(",".join("%.6f" % v for v in row) for row in img[0]) + "]]]"
        for img in x) + "]"
    main = """
  func.func private @printMemrefF32(memref<*xf32>)
  func.func @main() {
    %%x = arith.constant dense<%s> : tensor<%dx1x8x8xf32>
    %%y = call @model(%%x) : (tensor<%dx1x8x8xf32>) -> %s
    %%m = bufferization.to_buffer %%y : %s to memref<%sxf32>
    %%u = memref.cast %%m : memref<%sxf32> to memref<*xf32>
    call @printMemrefF32(%%u) : (memref<*xf32>) -> ()
    return
  }
""" % (dense, n, n, out_type, out_type, shape, shape)
    body = module_text.rstrip()
    assert body.endswith("}")
    return body[:-1] + main + "}\n"


def logits(transcript, n):
    data = transcript.partition("data =")[2]
    vals = re.findall(r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)
    return np.array([float(v) for v in vals], dtype=np.float64).reshape(n, -1)


def output_scale(module_text):
    """Scale of the quantized logits (the last qnt.dequantize)."""
    m = re.findall(r"qnt\.dequantize %\S+ : tensor<[0-9x]+x!quant\.uniform<[^:]+:f32, ([^:>]+)(?::(-?\d+))?>>",
                   module_text)
    return float(m[-1][0])


def auto_targets():
    import platform
    import shutil
    targets = ["host"]
    try:
        flags = open("/proc/cpuinfo").read()
    except OSError:
        flags = ""
    if platform.machine() == "x86_64" and all(
            f in flags for f in ["avx512f", "avx512bw", "avx512cd", "avx512dq",
                                 "avx512vl", "avx512_vnni"]):
        targets.append("x86_64")
    if platform.machine() == "x86_64" and all(
            f in flags.split() for f in ["avx", "avx2", "fma", "bmi1", "bmi2",
                                         "f16c", "abm", "movbe", "xsave"]):
        targets.append("x86_64-avx2")
    for arch in ["aarch64", "riscv64"]:
        if shutil.which("qemu-" + arch) and os.path.isdir("/usr/%s-linux-gnu/lib" % arch):
            targets.append(arch)
    return targets


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    ap.add_argument("--targets", default="host",
                    help="comma-separated: host, x86_64, x86_64-avx2, "
                         "aarch64, riscv64, "
                         "or 'auto' (host plus every target this machine "
                         "can run: x86_64 natively with AVX-512 VNNI, "
                         "x86_64-avx2 with AVX2, "
                         "aarch64 / riscv64 under qemu-user)")
    ap.add_argument("--models", default="cnn,resnet,mlp")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--ref-run", default=None,
                    help="reference model binary (default: BUILD/bin/quant-ref-run)")
    ap.add_argument("--rounding", default="float")
    ap.add_argument("--check", action="store_true",
                    help="exit 1 unless every row meets the issue's bar: "
                         "int8 accuracy within 0.5 points of torch's "
                         "fake-quant accuracy, 100%% equal to the reference "
                         "model, >= 99%% of logits within one step of torch")
    args = ap.parse_args()
    bindir = os.path.join(args.build_dir, "bin")
    if args.targets == "auto":
        args.targets = ",".join(auto_targets())
    with open(os.path.join(HERE, "digits.json")) as f:
        report = json.load(f)
    held = np.load(os.path.join(HERE, "digits_heldout.npz"))
    pixels, labels = held["pixels"], held["labels"]
    if args.limit:
        pixels, labels = pixels[:args.limit], labels[:args.limit]
    n = len(labels)
    runner_libs = ",".join([
        os.path.join(LLVM_LIB, "libmlir_runner_utils.so"),
        os.path.join(LLVM_LIB, "libmlir_c_runner_utils.so"),
        os.path.join(args.build_dir, "lib", "libquant_runner_utils.so")])

    rows = []
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.models.split(","):
            info = report["models"][name]
            fq = held["fq_logits_" + name][:n].astype(np.float64)
            imported = run([os.path.join(bindir, "quant-import-onnx"),
                            os.path.join(HERE, info["file"]),
                            "--input-shape", "input=%dx1x8x8" % n,
                            "--entry", "model", "--rounding", args.rounding])
            scale = output_scale(imported)
            path = os.path.join(tmp, name + ".mlir")
            with open(path, "w") as f:
                f.write(driver(imported, pixels))
            try:
                # The reference model reads the generic op form (it does not
                # link the compiler's dialect libraries).
                generic = path + ".generic.mlir"
                run([os.path.join(bindir, "quant-opt"), path,
                     "--mlir-print-op-generic", "-o", generic])
                ref = logits(run([args.ref_run or os.path.join(bindir, "quant-ref-run"),
                                  generic]), n)
            except RuntimeError as e:
                ref = None
                print("%s: reference model: %s" % (name, str(e).splitlines()[-1]),
                      file=sys.stderr)
            for target in args.targets.split(","):
                if target == "host":
                    lowered = run([os.path.join(bindir, "quant-opt"), path,
                                   "--qnt-to-llvm"])
                    out = run([os.path.join(LLVM_BIN, "mlir-runner"), "-e", "main",
                               "-entry-point-result=void",
                               "-shared-libs=" + runner_libs], input=lowered)
                else:
                    out = run([sys.executable,
                               os.path.join(ROOT, "utils", "run-on-target.py"),
                               "--tools-dir", bindir, "--llvm-bin", LLVM_BIN,
                               "--target", target, path])
                ours = logits(out, n)
                acc = float((ours.argmax(1) == labels).mean())
                same = float((ours == ref).mean()) if ref is not None else float("nan")
                steps = np.abs(ours - fq) / scale
                rows.append((name, target, info["float_accuracy"],
                             info["fake_quant_accuracy"], acc, same,
                             float(steps.max()), float((steps <= 1.0 + 1e-3).mean())))
                if ref is not None and same != 1.0:
                    failed = True
                if args.check and (abs(acc - info["fake_quant_accuracy"]) > 0.005
                                   or (ref is not None and same != 1.0)
                                   or rows[-1][7] < 0.99):
                    failed = True

    print("%-7s %-11s %8s %8s %8s %9s %10s %9s" % (
        "model", "target", "float", "fq", "int8", "=ref", "max steps", "<=1 step"))
    for r in rows:
        same = "n/a" if r[5] != r[5] else "%.2f%%" % (100 * r[5])
        print("%-7s %-11s %7.2f%% %7.2f%% %7.2f%% %9s %10.2f %8.2f%%" % (
            r[0], r[1], 100 * r[2], 100 * r[3], 100 * r[4], same, r[6],
            100 * r[7]))
    print("(%d held-out digits; steps are output quantization steps of the "
          "logits)" % n)
    if any(r[5] != r[5] for r in rows):
        print("n/a: the reference model (quant-ref-run) could not run the "
              "module (see above)")
    if args.check:
        print("check: %s" % ("FAILED" if failed else "all rows meet the bar"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
