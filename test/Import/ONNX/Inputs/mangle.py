#!/usr/bin/python3
"""Feeds truncated and corrupted copies of an ONNX file to quant-import-onnx.

Every run must end with exit code 0 (imported) or 1 (diagnosed, with an
"error:" line on stderr); a signal (crash) or any other code fails.
Usage: mangle.py MODEL.onnx TMPPREFIX TOOL
"""
import random
import subprocess
import sys


def main():
    model, prefix, tool = sys.argv[1:4]
    data = open(model, "rb").read()
    rnd = random.Random(9)
    variants = []
    for cut in sorted(set([0, 1, 2, 10, 100] +
                          [rnd.randrange(len(data)) for _ in range(40)])):
        variants.append(("truncated at %d" % cut, data[:cut]))
    for k in range(40):
        b = bytearray(data)
        for _ in range(rnd.choice([1, 4, 32])):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        variants.append(("corrupted #%d" % k, bytes(b)))
    diagnosed = imported = 0
    for what, blob in variants:
        path = prefix + ".onnx"
        with open(path, "wb") as f:
            f.write(blob)
        r = subprocess.run([tool, path, "--input-shape", "input=1x1x8x8",
                            "-o", prefix + ".mlir"], capture_output=True,
                           text=True, errors="replace", timeout=60)
        if r.returncode == 0:
            imported += 1
        elif r.returncode == 1 and "error:" in r.stderr:
            diagnosed += 1
        else:
            print("FAIL (%s): exit %d\n%s" % (what, r.returncode, r.stderr[-1000:]))
            sys.exit(1)
    print("%d variants: %d diagnosed, %d imported, no crash" %
          (len(variants), diagnosed, imported))


if __name__ == "__main__":
    main()
