#!/usr/bin/env python3
"""Checks that the IR of an N-layer network grows linearly with N.

Takes `--print-op-stats` outputs for networks of n, 2n and 4n identical
layers (bench/gen-layers.py). Every layer lowers to the same code, so each
op count must be an affine function of the layer count: the growth from 2n
to 4n layers is exactly twice the growth from n to 2n, op by op. Anything
else means some stage's output depends on the number of layers (a
superlinear pass result, or code shared or duplicated across layers), which
is also what made compile time superlinear. No time is measured.
"""
import re
import sys


def read_counts(path):
    counts = {}
    for line in open(path):
        match = re.match(r"\s*([\w.]+)\s*,\s*(\d+)\s*$", line)
        if match:
            counts[match.group(1)] = int(match.group(2))
    if not counts:
        sys.exit(f"{path}: no --print-op-stats table")
    return counts


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: check-linear-op-counts.py N.stats 2N.stats 4N.stats")
    c1, c2, c4 = (read_counts(p) for p in sys.argv[1:])
    failures = []
    for name in sorted(set(c1) | set(c2) | set(c4)):
        a, b, c = c1.get(name, 0), c2.get(name, 0), c4.get(name, 0)
        if c - b != 2 * (b - a):
            failures.append(f"{name}: {a}, {b}, {c} ops for N, 2N, 4N layers "
                            f"(growth {b - a} then {c - b}, expected "
                            f"{2 * (b - a)})")
    growth = sum(c2.values()) - sum(c1.values())
    if growth <= 0:
        failures.append("the IR does not grow with the number of layers")
    if failures:
        print("op counts are not linear in the number of layers:")
        print("\n".join(failures))
        sys.exit(1)
    print(f"linear: {growth} ops per N layers")


if __name__ == "__main__":
    main()
