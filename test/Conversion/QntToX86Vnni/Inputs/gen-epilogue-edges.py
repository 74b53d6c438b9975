#!/usr/bin/env python3
"""Adversarial accumulators for the fused requantize epilogue of the VNNI
kernels, with expected codes from an independent model.

Every case is `qnt.int_matmul` (256 x 4 times a constant 4 x N) followed by
`qnt.int_requantize`. Row r of X is (r - 128, 0, 0, 0) and row 0 of W is all
ones, so column n of the accumulator is the 256 consecutive values
bias[n] - 128 ... bias[n] + 127. The biases put those windows on INT32_MIN,
INT32_MAX, 0 and on the rounding ties of each column's multiplier and
shift: (2j + 1) * 2^(30 + s) / M, where the exact product x * M is an odd
multiple of half the final divisor (both roundings of "double" meet a tie
there, and the single rounding of the other modes). Multipliers include 0,
1, 2^30, 2^30 + 1, 2^31 - 2 and 2^31 - 1 (per channel or per tensor); right
shifts from -30 to 31, one for all channels or one per channel (all >= 1,
with 0, with negative ones); every integer rounding mode; i8 / u8 / i16 /
i32 codes with and without a narrower clamp; output zero points per tensor
and per channel; input zero points that make the subtraction saturate.

  --module FILE      writes the module (its @main prints every result)
  --check FILE       compares a printMemref transcript of that module with
                     the model below, a line-by-line port of
                     include/QuantOpt/Reference/FixedPoint.h (the reference
                     model) in Python integers; exits 1 on any difference.
"""
import argparse
import random
import re
import sys

I32_MIN, I32_MAX = -2**31, 2**31 - 1
MODES = ["double", "single", "away", "half_even"]
SHIFTS = [-30, -3, -1, 0, 1, 2, 3, 7, 11, 16, 22, 27, 30, 31]
MULTIPLIERS = [2**30, 2**31 - 1, 2**30 + 1, 2**31 - 2, 1, 0, 3 * 2**28 + 7]
OUT_KINDS = [("i8", -128, 127, False), ("u8", 0, 255, True),
             ("i16", -32768, 32767, False), ("i32", I32_MIN, I32_MAX, False),
             ("i8", -100, 90, False), ("u8", 3, 250, True)]
ROWS, N = 256, 40


# --- The reference model (FixedPoint.h), in Python integers -------------

def sat32(v):
    return max(I32_MIN, min(I32_MAX, v))


def trunc_div(n, d):
    q = abs(n) // d
    return q if n >= 0 else -q


def srdhm(a, b):
    if a == I32_MIN and b == I32_MIN:
        return I32_MAX
    ab = a * b
    nudge = 2**30 if ab >= 0 else 1 - 2**30
    return trunc_div(ab + nudge, 2**31)


def rdbp(x, exponent):
    exponent = max(0, min(31, exponent))
    mask = (1 << exponent) - 1
    remainder = x & mask
    threshold = (mask >> 1) + (1 if x < 0 else 0)
    return (x >> exponent) + (1 if remainder > threshold else 0)


def rounding_shift_right(p, shift, mode):
    half = 1 << (shift - 1)
    if mode == "single":
        return (p + half) >> shift
    if mode == "away":
        return (p + (half if p >= 0 else half - 1)) >> shift
    floor_q = p >> shift
    rem = p - floor_q * (1 << shift)
    if rem > half or (rem == half and floor_q & 1):
        return floor_q + 1
    return floor_q


def multiply_by_quantized_multiplier(x, m, s, mode):
    if m == 0 or x == 0:
        return 0
    if mode == "double":
        shifted = x
        if s < 0:
            left = min(-s, 31)
            if left >= 31:
                shifted = I32_MAX if x > 0 else I32_MIN
            else:
                shifted = sat32(x * (1 << left))
        high = srdhm(shifted, m)
        if s <= 0:
            return high
        if s <= 31:
            return rdbp(high, s)
        return -1 if s == 32 and high == I32_MIN else 0
    product = x * m
    total = 31 + s
    if total >= 63:
        return 0
    if total >= 1:
        return rounding_shift_right(product, total, mode)
    raise AssertionError("shift outside the verifier's range")


def requantize(acc, zin, m, s, mode, zout, lo, hi):
    x = sat32(acc - zin)
    scaled = multiply_by_quantized_multiplier(x, m, s, mode)
    scaled = max(-2**40, min(2**40, scaled))
    return max(lo, min(hi, scaled + zout))


# --- Cases ---------------------------------------------------------------

def shift_sets():
    """(mode, shift per column or one for all, per channel)."""
    for mode in MODES:
        for s in SHIFTS:
            for per_channel in (True, False):
                if per_channel or s in (-3, 0, 1, 11, 31):
                    yield mode, [s], per_channel
    # Shifts that differ per channel: all >= 1 (1 to 31), with 0, and with
    # negative ones.
    varied = [[1 + (7 * i) % 31 for i in range(N)],
              [(5 * i) % 13 for i in range(N)],
              [-2 + (3 * i) % 15 for i in range(N)]]
    for mode in MODES:
        for shifts in varied:
            yield mode, shifts, True


def cases(seed):
    rng = random.Random(seed)
    index = 0
    for mode, shift_list, per_channel in shift_sets():
        kind = OUT_KINDS[index % len(OUT_KINDS)]
        if per_channel:
            mults = [MULTIPLIERS[i % len(MULTIPLIERS)]
                     if i < 2 * len(MULTIPLIERS)
                     else rng.randint(2**30, 2**31 - 1)
                     for i in range(N)]
        else:
            mults = [MULTIPLIERS[index % len(MULTIPLIERS)]]
        zin = [0, 0, 0, 37, I32_MIN, I32_MAX][index % 6]
        name, lo, hi, unsigned = kind
        if name == "i32":
            zout = [rng.choice([0, 1000000, -1000000])]
        else:
            zout = [rng.choice([lo, hi, rng.randint(lo, hi)])]
        if len(shift_list) > 1:  # per-channel output zero points too
            zout = [rng.randint(max(lo, -1000), min(hi, 1000))
                    for _ in range(N)]
        biases = []
        for n in range(N):
            m = mults[n if per_channel else 0]
            s = shift_list[n % len(shift_list)]
            if n == 0:
                center = I32_MIN + 128
            elif n == 1:
                center = I32_MAX - 127
            elif n == 2 or m == 0:
                center = rng.randint(-1000, 1000)
            else:
                j = rng.choice([0, -1, 1, -2, 7, -8, 1000, -1001,
                                rng.randint(-2**20, 2**20)])
                # The exact product is an odd multiple of
                # 2^(30 + s): a tie of the final rounding.
                center = ((2 * j + 1) << (30 + s)) // m
            biases.append(max(I32_MIN + 128, min(I32_MAX - 127, center)))
        shifts = ([shift_list[n % len(shift_list)] for n in range(N)]
                  if per_channel else shift_list)
        yield dict(index=index, mode=mode, shifts=shifts, mults=mults,
                   zin=zin, zout=zout, kind=kind, biases=biases)
        index += 1


def arr(t, values):
    return "array<%s: %s>" % (t, ", ".join(str(v) for v in values))


def module_text(seed):
    funcs, main, prints = [], [], 0
    xs = [[r - 128, 0, 0, 0] for r in range(ROWS)]
    w = [[1] * N] + [[0] * N for _ in range(3)]
    main.append("  %%x = arith.constant dense<%s> : tensor<%dx4xi8>"
                % (xs, ROWS))
    for c in cases(seed):
        name, lo, hi, unsigned = c["kind"]
        width = int(name[1:])
        t = "i%d" % width
        axis = ", axis = 1 : i64" if len(c["mults"]) > 1 else ""
        shifts = c["shifts"]
        attrs = ", ".join([
            "input_zero_points = " + arr("i32", [c["zin"]]),
            "multipliers = " + arr("i32", c["mults"]),
            "shifts = " + arr("i32", shifts),
            "float_multipliers = array<f32: 0.0>",
            "output_zero_points = " + arr("i32", c["zout"]),
            "min = %d : i32" % lo, "max = %d : i32" % hi,
            "rounding = \"%s\"" % c["mode"]]) + axis + (
                ", output_unsigned" if unsigned else "")
        f = "case_%d" % c["index"]
        funcs.append("\n".join([
            "func.func @%s(%%x: tensor<%dx4xi8>) -> tensor<%dx%dx%s> {"
            % (f, ROWS, ROWS, N, t),
            "  %%w = arith.constant dense<%s> : tensor<4x%dxi8>" % (w, N),
            "  %%b = arith.constant dense<%s> : tensor<%dxi32>"
            % (c["biases"], N),
            "  %%a = qnt.int_matmul %%x, %%w, %%b {input_zero_point = 0 : i32, "
            "weight_zero_points = array<i32: 0>} : tensor<%dx4xi8>, "
            "tensor<4x%dxi8>, tensor<%dxi32> -> tensor<%dx%dxi32>"
            % (ROWS, N, N, ROWS, N),
            "  %%y = qnt.int_requantize %%a {%s} : tensor<%dx%dxi32> -> "
            "tensor<%dx%dx%s>" % (attrs, ROWS, N, ROWS, N, t),
            "  return %%y : tensor<%dx%dx%s>" % (ROWS, N, t), "}", ""]))
        y, buf, cast = "%%y%d" % prints, "%%m%d" % prints, "%%u%d" % prints
        prints += 1
        shape = "%dx%dx%s" % (ROWS, N, t)
        main += [
            "  %s = call @%s(%%x) : (tensor<%dx4xi8>) -> tensor<%s>"
            % (y, f, ROWS, shape),
            "  %s = bufferization.to_buffer %s : tensor<%s> to memref<%s>"
            % (buf, y, shape, shape),
            "  %s = memref.cast %s : memref<%s> to memref<*x%s>"
            % (cast, buf, shape, t),
            "  call @printMemref%s%d(%s) : (memref<*x%s>) -> ()"
            % ("U" if unsigned else "I", width, cast, t)]
    head = ["// Generated by gen-epilogue-edges.py; do not edit."]
    head += ["func.func private @printMemref%s(memref<*x%s>)" % (p, t)
             for p, t in [("I8", "i8"), ("U8", "i8"), ("I16", "i16"),
                          ("I32", "i32")]]
    return "\n".join(head + [""] + funcs + ["func.func @main() {"] + main
                     + ["  return", "}", ""])


def expected(c):
    name, lo, hi, unsigned = c["kind"]
    out = []
    for r in range(ROWS):
        for n in range(N):
            k = n if len(c["mults"]) > 1 else 0
            acc = c["biases"][n] + (r - 128)
            z = c["zout"][n if len(c["zout"]) > 1 else 0]
            out.append(requantize(acc, c["zin"], c["mults"][k], c["shifts"][k],
                                  c["mode"], z, lo, hi))
    return out


def check(seed, transcript):
    blocks = open(transcript).read().split("Unranked Memref")[1:]
    all_cases = list(cases(seed))
    if len(blocks) != len(all_cases):
        print("expected %d results, got %d" % (len(all_cases), len(blocks)))
        return 1
    bad = 0
    for c, block in zip(all_cases, blocks):
        got = [int(v) for v in re.findall(r"-?\d+", block.partition("data =")[2])]
        want = expected(c)
        wrong = [i for i, (g, e) in enumerate(zip(got, want)) if g != e]
        if len(got) != len(want) or wrong:
            bad += 1
            i = wrong[0] if wrong else 0
            r, n = divmod(i, N)
            print("case_%d (%s, shift %d, %s): %d of %d differ; first at "
                  "row %d col %d (acc %d, M %d): got %s, expected %d"
                  % (c["index"], c["mode"],
                     c["shifts"][n if len(c["shifts"]) > 1 else 0], c["kind"][0],
                     len(wrong), len(want), r, n, c["biases"][n] + r - 128,
                     c["mults"][n if len(c["mults"]) > 1 else 0],
                     got[i] if i < len(got) else "nothing", want[i]))
    print("%d of %d cases agree with the model" % (len(all_cases) - bad,
                                                  len(all_cases)))
    return 1 if bad else 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--module")
    parser.add_argument("--check")
    args = parser.parse_args()
    if args.module:
        with open(args.module, "w") as f:
            f.write(module_text(args.seed))
    if args.check:
        sys.exit(check(args.seed, args.check))


if __name__ == "__main__":
    main()
