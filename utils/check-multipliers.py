#!/usr/bin/env python3
"""Checks the compiler's fixed-point multipliers against the generator's own.

  check-multipliers.py EXPECTED.json LOWERED.mlir

EXPECTED.json is written by `gen-e2e-cases.py --multipliers`: for every
rescale of the module (requantize, requantized concat operand, add), in
module order, the Q31 multipliers M0, the shifts and the f32 multipliers that
the generator derived from the scales it chose with exact rationals (never
from the compiler or the reference model's C++). LOWERED.mlir is the module
after `quant-opt --qnt-network-to-integer --qnt-fixed-point-multiplier` (or
any later stage that still shows the integer ops' attributes): requantizes
appear as `qnt.int_requantize` (multipliers / shifts / float_multipliers
arrays), adds as `qnt.int_add` (a_/b_/output_multiplier and _shift,
a_/b_float_multiplier, left_shift). For each function @case_N the rescale
ops are listed in order and compared entry by entry; a difference names the
case, the op and both values. Exit 1 on any difference or missing op.
"""
import json
import re
import struct
import sys

FUNC = re.compile(r"func\.func (?:public |private )?@(\w+)")
ARRAY = r"%s = array<(?:i32|f32)(?:: ([^>]*))?>"


def f32(x):
    return struct.unpack("f", struct.pack("f", float(x)))[0]


def array(attrs, name, cast):
    m = re.search(ARRAY % name, attrs)
    if not m:
        return None
    return [cast(v) for v in m.group(1).split(",")] if m.group(1) else []


def scalar(attrs, name, cast):
    """`name = VALUE : type`; f32 values may be printed as hex bit patterns."""
    m = re.search(r"(?<![\w])%s = ([^ ,}]+) : [if]\d+" % name, attrs)
    if not m:
        return None
    v = m.group(1)
    if v.startswith("0x"):
        return struct.unpack("f", struct.pack("I", int(v, 16)))[0]
    return cast(v)


def rescale_ops(text):
    """{func: [(op, {multipliers, shifts, float_multipliers, ...})]}."""
    ops = {}
    func = None
    for line in text.splitlines():
        fm = FUNC.search(line)
        if fm:
            func = fm.group(1)
            continue
        om = re.search(r"(qnt\.int_\w+)[^{]*\{(.*)\}", line)
        if not om:
            continue
        attrs = om.group(2)
        entry = {"op": om.group(1)}
        if om.group(1) == "qnt.int_add":
            # Scalar attributes: one multiplier / shift per input and output.
            entry["multipliers"] = [scalar(attrs, p + "_multiplier", int)
                                    for p in ("a", "b", "output")]
            entry["shifts"] = [scalar(attrs, p + "_shift", int)
                               for p in ("a", "b", "output")]
            entry["float_multipliers"] = [scalar(attrs, p + "_float_multiplier", f32)
                                          for p in ("a", "b")]
            entry["left_shift"] = scalar(attrs, "left_shift", int)
        elif "multipliers = array" in attrs:
            for name, cast in (("multipliers", int), ("shifts", int),
                               ("float_multipliers", f32)):
                entry[name] = array(attrs, r"(?<![\w])" + name, cast)
        else:
            continue
        ops.setdefault(func, []).append(entry)
    return ops


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check-multipliers.py EXPECTED.json LOWERED.mlir")
    with open(sys.argv[1]) as f:
        expected = json.load(f)
    with open(sys.argv[2]) as f:
        actual = rescale_ops(f.read())
    by_func = {}
    for e in expected:
        by_func.setdefault(e["func"], []).append(e)
    errors = checked = 0
    for func, entries in by_func.items():
        got = actual.get(func, [])
        if len(got) != len(entries):
            print("%s: expected %d rescale ops (%s), found %d (%s)" % (
                func, len(entries), ", ".join(e["kind"] for e in entries), len(got),
                ", ".join(g["op"] for g in got)))
            errors += 1
            continue
        for e, g in zip(entries, got):
            checked += 1
            for key in ("multipliers", "shifts", "float_multipliers", "left_shift"):
                if key not in e:
                    continue
                want = e[key] if key != "float_multipliers" else [f32(v) for v in e[key]]
                if g.get(key) != want:
                    print("%s %s (%s): %s = %s, expected %s" % (
                        func, e["kind"], g["op"], key, g.get(key), want))
                    errors += 1
    extra = sorted(set(actual) - set(by_func))
    for func in extra:
        print("%s: %d rescale ops the generator did not emit" % (func, len(actual[func])))
        errors += 1
    print("checked %d rescales in %d functions: %d difference(s)" % (
        checked, len(by_func), errors))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
