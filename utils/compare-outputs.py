#!/usr/bin/env python3
"""Compares two printMemref transcripts (reference vs compiled) value by value.

Header lines differ only in the buffer address, which is ignored. Prints one
line per printed tensor and a closing agreement count; exits 1 on any
mismatch, so lit fails and shows where.

Every value must match exactly, except in tensors named by the opt-in
`--tolerance INDEX:REL` (repeatable; INDEX counts printed tensors from 0):
there two printed floats agree when |a - b| <= REL * max(|a|, |b|) (NaN only
matches NaN, an infinity only itself). Meant for f32 results of float
islands such as a softmax, whose exp comes from the target's libm; integer
results are never compared with a tolerance.

`--f32-bits INDEX` (repeatable) says that tensor INDEX holds f32 results
printed as their bits (arith.bitcast to i32): its values must be identical,
except that any NaN bit pattern matches any other (the payload and sign of
a NaN that an operation generates differ between x86, AArch64 and RISC-V;
docs/RuntimeScales.md).
"""
import json
import math
import re
import sys


def tensors(path):
    """Returns [(metadata, [values...])] from a printMemref transcript."""
    out = []
    with open(path) as f:
        text = f.read()
    for block in text.split("Unranked Memref")[1:]:
        header, _, data = block.partition("data =")
        header = re.sub(r"base@ = 0x[0-9a-f]+", "", header).strip()
        values = re.findall(r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)", data)
        out.append((header, values))
    return out


def close(a, b, rel):
    """Printed values a and b agree within the relative tolerance rel."""
    if a == b:
        return True
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or math.isinf(y):
        return False
    return abs(x - y) <= rel * max(abs(x), abs(y))


def is_nan_bits(text):
    """Whether a printed i32 is the bit pattern of an f32 NaN."""
    try:
        bits = int(text) & 0xFFFFFFFF
    except ValueError:
        return False
    return (bits & 0x7F800000) == 0x7F800000 and (bits & 0x007FFFFF) != 0


def main():
    args = sys.argv[1:]
    side_by_side = "--side-by-side" in args
    args = [a for a in args if a != "--side-by-side"]
    tolerances = {}
    while "--tolerance" in args:
        i = args.index("--tolerance")
        if i + 1 >= len(args) or ":" not in args[i + 1]:
            sys.exit("--tolerance takes INDEX:REL, e.g. 3:1e-6")
        index, rel = args[i + 1].split(":", 1)
        tolerances[int(index)] = float(rel)
        del args[i:i + 2]
    nan_bits = set()
    while "--f32-bits" in args:
        i = args.index("--f32-bits")
        if i + 1 >= len(args):
            sys.exit("--f32-bits takes a printed tensor INDEX")
        nan_bits.add(int(args[i + 1]))
        del args[i:i + 2]
    labels = None
    if len(args) >= 2 and args[0] == "--labels":
        with open(args[1]) as f:
            labels = json.load(f)
        args = args[2:]
    if len(args) != 2:
        sys.exit("usage: compare-outputs.py [--side-by-side] [--tolerance INDEX:REL]... "
                 "[--f32-bits INDEX]... [--labels FILE.json] REFERENCE COMPILED")
    ref, got = tensors(args[0]), tensors(args[1])
    if len(ref) != len(got):
        print("printed %d tensors, reference printed %d" % (len(got), len(ref)))
        sys.exit(1)
    agree = total = 0
    for i, ((rh, rv), (gh, gv)) in enumerate(zip(ref, got)):
        if rh != gh or len(rv) != len(gv):
            print("tensor %d: shape differs: %s vs %s" % (i, rh, gh))
            sys.exit(1)
        if side_by_side:
            print("tensor %d (%s)" % (i, re.search(r"sizes = \[[^]]*\]", rh).group(0)))
            print("  compiled : " + " ".join("%6s" % v for v in gv))
            print("  reference: " + " ".join("%6s" % v for v in rv))
        rel = tolerances.get(i)
        if rel is None:
            mismatches = [(j, a, b) for j, (a, b) in enumerate(zip(rv, gv))
                          if a != b and not (i in nan_bits and is_nan_bits(a)
                                             and is_nan_bits(b))]
        else:
            mismatches = [(j, a, b) for j, (a, b) in enumerate(zip(rv, gv))
                          if not close(a, b, rel)]
            worst = max([abs(float(a) - float(b)) / max(abs(float(a)), abs(float(b)))
                         for a, b in zip(rv, gv) if a != b and close(a, b, rel)] or [0.0])
            print("tensor %d compared within relative tolerance %g: largest relative "
                  "difference %.3g" % (i, rel, worst))
        same = len(rv) - len(mismatches)
        agree += same
        total += len(rv)
        if mismatches:
            name = labels[i] if labels and i < len(labels) else "tensor %d" % i
            print("MISMATCH in %s (%s):" % (name, rh.split(" offset")[0].strip()))
            for j, a, b in mismatches[:10]:
                print("  element %d: reference %s, compiled %s" % (j, a, b))
            if len(mismatches) > 10:
                print("  ... %d more" % (len(mismatches) - 10))
    print("agreement: %d/%d printed values %s" % (
        agree, total, "identical" if not tolerances else
        "identical (tensors %s within tolerance)" % ", ".join(map(str, sorted(tolerances)))))
    sys.exit(0 if agree == total else 1)


if __name__ == "__main__":
    main()
