#!/usr/bin/env python3
"""Compares two printMemref transcripts (reference vs compiled) value by value.

Header lines differ only in the buffer address, which is ignored. Prints one
line per printed tensor and a closing agreement count; exits 1 on any
mismatch, so lit fails and shows where.
"""
import json
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


def main():
    args = sys.argv[1:]
    side_by_side = "--side-by-side" in args
    args = [a for a in args if a != "--side-by-side"]
    labels = None
    if len(args) >= 2 and args[0] == "--labels":
        with open(args[1]) as f:
            labels = json.load(f)
        args = args[2:]
    if len(args) != 2:
        sys.exit("usage: compare-outputs.py [--side-by-side] [--labels FILE.json] "
                 "REFERENCE COMPILED")
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
        same = sum(a == b for a, b in zip(rv, gv))
        agree += same
        total += len(rv)
        mismatches = [(j, a, b) for j, (a, b) in enumerate(zip(rv, gv)) if a != b]
        if mismatches:
            name = labels[i] if labels and i < len(labels) else "tensor %d" % i
            print("MISMATCH in %s (%s):" % (name, rh.split(" offset")[0].strip()))
            for j, a, b in mismatches[:10]:
                print("  element %d: reference %s, compiled %s" % (j, a, b))
            if len(mismatches) > 10:
                print("  ... %d more" % (len(mismatches) - 10))
    print("agreement: %d/%d printed values identical" % (agree, total))
    sys.exit(0 if agree == total else 1)


if __name__ == "__main__":
    main()
