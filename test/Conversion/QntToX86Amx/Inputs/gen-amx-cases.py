#!/usr/bin/env python3
"""Integer matmul cases for the AMX kernel tests (qnt.int_matmul).

Shapes hit every tail of the AMX kernel: M, N and K below, at and above
whole 16 x 16 C tiles and 64-byte K steps, odd numbers of tile rows and
columns (1 x 2, 2 x 1, 1 x 1 blocks), and K long enough for the chunk loop
(more than 16 K steps) plus a tail chunk. Every case runs with s8 and u8
activations; weights take every plan (s8, u8 above 127, u8 with zero point
near 128, and a range no plan fits); input zero points include the ends of
their range; bias is constant or given at run time. Some cases use extreme
codes only (every x and w at a range end) to reach the largest sums.

The golden values come from the generic qnt-to-linalg lowering of the same
module (no AMX involved). @main prints every accumulator with
printMemrefI32.
"""
import argparse
import random

MATMULS = [  # M, K, N
    (2, 1, 1), (2, 3, 2), (15, 63, 15), (16, 64, 16), (17, 65, 17),
    (32, 64, 32), (33, 130, 33), (48, 128, 48), (3, 2245, 5),
    (20, 1100, 40), (64, 256, 64), (2, 64, 100), (31, 200, 47),
]


def shape_str(shape):
    return "x".join(str(d) for d in shape)


def nested(values, shape):
    if len(shape) == 1:
        return "[" + ", ".join(str(v) for v in values) + "]"
    step = len(values) // shape[0]
    return "[" + ", ".join(nested(values[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def bits8(v):
    v &= 0xFF
    return v - 256 if v >= 128 else v


def weights(rng, k, n, extreme):
    kind = rng.choice(["s8", "u8-high", "u8-low", "unhandled"])
    if kind == "s8":
        lo, hi, zw, unsigned = -128, 127, [0], False
    elif kind == "u8-high":  # w - zw in [0, 255]: weights as the u8 operand
        zw = [rng.randint(0, 3) for _ in range(n)] if rng.random() < 0.5 \
            else [rng.randint(0, 3)]
        lo, hi, unsigned = max(zw), 255, True
    elif kind == "u8-low":  # u8 codes around zero point 128: w - zw fits s8
        zw = [128] if rng.random() < 0.5 else \
            [rng.randint(120, 130) for _ in range(n)]
        lo, hi, unsigned = max(zw) - 128 + 0, 127 + min(zw), True
        lo = max(lo, 0)
    else:  # w - zw fits neither s8 nor u8: left to the generic lowering
        lo, hi, zw, unsigned = -128, 127, [rng.choice([-5, 5])], False
    if extreme:
        w = [rng.choice([lo, hi]) for _ in range(k * n)]
    else:
        w = [rng.randint(lo, hi) for _ in range(k * n)]
    if kind == "unhandled":
        w[0], w[-1] = -128, 127
    return w, zw, unsigned


def gen_case(rng, funcs, main, counter, index, shape, x_unsigned):
    m, k, n = shape
    extreme = rng.random() < 0.25
    w, zw, w_unsigned = weights(rng, k, n, extreme)
    xr = (0, 255) if x_unsigned else (-128, 127)
    zx = rng.choice([xr[0], xr[1], 0, rng.randint(*xr)])
    bias_kind = rng.choice(["const", "runtime"])
    bias = [rng.randint(-100000, 100000) for _ in range(n)]
    attrs = ["input_zero_point = %d : i32" % zx,
             "weight_zero_points = array<i32: %s>" % ", ".join(map(str, zw))]
    if x_unsigned:
        attrs.append("x_unsigned")
    if w_unsigned:
        attrs.append("w_unsigned")
    name = "case_%d" % index
    args = ["%%x: tensor<%dx%dxi8>" % (m, k)]
    if bias_kind == "runtime":
        args.append("%%b: tensor<%dxi32>" % n)
    lines = ["func.func @%s(%s) -> tensor<%dx%dxi32> {" % (name, ", ".join(args), m, n),
             "  %%w = arith.constant dense<%s> : tensor<%dx%dxi8>"
             % (nested([bits8(v) for v in w], [k, n]), k, n)]
    if bias_kind == "const":
        lines.append("  %%b = arith.constant dense<%s> : tensor<%dxi32>"
                     % (nested(bias, [n]), n))
    lines.append("  %%a = qnt.int_matmul %%x, %%w, %%b {%s} : tensor<%dx%dxi8>, "
                 "tensor<%dx%dxi8>, tensor<%dxi32> -> tensor<%dx%dxi32>"
                 % (", ".join(attrs), m, k, k, n, n, m, n))
    lines += ["  return %%a : tensor<%dx%dxi32>" % (m, n), "}", ""]
    funcs.append("\n".join(lines))

    def fresh():
        counter[0] += 1
        return "%%v%d" % counter[0]

    if extreme:
        xs = [rng.choice(xr) for _ in range(m * k)]
    else:
        xs = [rng.randint(*xr) for _ in range(m * k)]
    xv = fresh()
    main.append("  %s = arith.constant dense<%s> : tensor<%dx%dxi8>"
                % (xv, nested([bits8(v) for v in xs], [m, k]), m, k))
    call_args, call_types = [xv], ["tensor<%dx%dxi8>" % (m, k)]
    if bias_kind == "runtime":
        bv = fresh()
        main.append("  %s = arith.constant dense<%s> : tensor<%dxi32>"
                    % (bv, nested(bias, [n]), n))
        call_args.append(bv)
        call_types.append("tensor<%dxi32>" % n)
    r, buf, cast = fresh(), fresh(), fresh()
    main.append("  %s = call @%s(%s) : (%s) -> tensor<%dx%dxi32>"
                % (r, name, ", ".join(call_args), ", ".join(call_types), m, n))
    main.append("  %s = bufferization.to_buffer %s : tensor<%dx%dxi32> to memref<%dx%dxi32>"
                % (buf, r, m, n, m, n))
    main.append("  %s = memref.cast %s : memref<%dx%dxi32> to memref<*xi32>"
                % (cast, buf, m, n))
    main.append("  call @printMemrefI32(%s) : (memref<*xi32>) -> ()" % cast)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--module", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    funcs, body, counter = [], [], [0]
    index = 0
    for shape in MATMULS:
        for x_unsigned in (False, True):
            gen_case(rng, funcs, body, counter, index, shape, x_unsigned)
            index += 1
    head = ["// Generated by gen-amx-cases.py; do not edit.",
            "func.func private @printMemrefI32(memref<*xi32>)", ""]
    with open(args.module, "w") as f:
        f.write("\n".join(head + funcs + ["func.func @main() {"] + body
                          + ["  return", "}", ""]))


if __name__ == "__main__":
    main()
