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

With --requantize, every contraction (plus a few convolutions, groups = 1,
with padding, strides and dilations) feeds one qnt.int_requantize, which
the AMX kernels fuse into their epilogue: per tensor or per output channel,
all five rounding modes, multipliers below and above 1, nonzero input zero
points, i8 / u8 / i16 codes, narrowed clamps. The codes are widened back to
i32 (arith.extsi / extui) for printing.

The golden values come from the generic qnt-to-linalg lowering of the same
module (no AMX involved). @main prints every result with printMemrefI32.
"""
import argparse
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "utils"))
from mlir_literals import shape_str, nested, bits8, out_size  # noqa: E402

MATMULS = [  # M, K, N
    (2, 1, 1), (2, 3, 2), (15, 63, 15), (16, 64, 16), (17, 65, 17),
    (32, 64, 32), (33, 130, 33), (48, 128, 48), (3, 2245, 5),
    (20, 1100, 40), (64, 256, 64), (2, 64, 100), (31, 200, 47),
]


CONVS = [  # N, H, W, C, KH, KW, F, strides, dilations, padding
    (1, 6, 7, 5, 3, 3, 20, (1, 1), (1, 1), (1, 1, 1, 1)),
    (2, 9, 18, 16, 3, 2, 33, (2, 1), (1, 2), (0, 1, 2, 0)),
    (1, 5, 20, 64, 1, 1, 16, (1, 2), (1, 1), (0, 0, 0, 0)),
]
ROUNDINGS = ["double", "single", "away", "half_even", "float"]


def requant_attrs(rng, channels, axis):
    """A valid qnt.int_requantize attribute dictionary and its storage."""
    per_channel = rng.random() < 0.5
    count = channels if per_channel else 1
    mults, shifts, floats = [], [], []
    for _ in range(count):
        real = math.exp(rng.uniform(math.log(2.0 ** -16), math.log(4.0)))
        frac, exp = math.frexp(real)
        m0 = int(round(frac * 2 ** 31))
        if m0 == 2 ** 31:
            m0 //= 2
            exp += 1
        mults.append(m0)
        shifts.append(-exp)
        floats.append(real)
    storage = rng.choice(["i8", "u8", "i16"])
    lo, hi = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767)}[storage]
    zp_out = [rng.randint(lo, hi) // 4 for _ in range(count)]
    zp_in = [rng.choice([0, 0, rng.randint(-1000, 1000)]) for _ in range(count)]
    if rng.random() < 0.3:
        lo, hi = lo + (hi - lo) // 3, hi - (hi - lo) // 5
    attrs = ["input_zero_points = array<i32: %s>" % ", ".join(map(str, zp_in)),
             "multipliers = array<i32: %s>" % ", ".join(map(str, mults)),
             "shifts = array<i32: %s>" % ", ".join(map(str, shifts)),
             "float_multipliers = array<f32: %s>"
             % ", ".join(repr(float(f)) for f in floats),
             "output_zero_points = array<i32: %s>" % ", ".join(map(str, zp_out)),
             "min = %d : i32" % lo, "max = %d : i32" % hi,
             'rounding = "%s"' % rng.choice(ROUNDINGS)]
    if per_channel:
        attrs.append("axis = %d : i64" % axis)
    if storage == "u8":
        attrs.append("output_unsigned")
    return "{" + ", ".join(attrs) + "}", storage


def requant_lines(rng, result, shape, channels, axis):
    """Lines requantizing `result` (tensor<shape x i32>) and widening back."""
    attrs, storage = requant_attrs(rng, channels, axis)
    s = shape_str(shape)
    narrow = "i16" if storage == "i16" else "i8"
    ext = "arith.extui" if storage == "u8" else "arith.extsi"
    return ["  %%q = qnt.int_requantize %s %s : tensor<%sxi32> -> tensor<%sx%s>"
            % (result, attrs, s, s, narrow),
            "  %%r = %s %%q : tensor<%sx%s> to tensor<%sxi32>" % (ext, s, narrow, s)]


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


def gen_case(rng, funcs, main, counter, index, shape, x_unsigned, requant):
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
    if requant:
        lines += requant_lines(rng, "%a", [m, n], n, 1)
        lines += ["  return %%r : tensor<%dx%dxi32>" % (m, n), "}", ""]
    else:
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


def gen_conv(rng, funcs, main, counter, index, shape, x_unsigned):
    b, h, w_, c, kh, kw, f, strides, dils, pad = shape
    oh = out_size(h, kh, strides[0], dils[0], pad[0], pad[1])
    ow = out_size(w_, kw, strides[1], dils[1], pad[2], pad[3])
    xs, ws, os_ = [b, h, w_, c], [kh, kw, c, f], [b, oh, ow, f]
    w, zw, w_unsigned = weights(rng, kh * kw * c, f, False)
    xr = (0, 255) if x_unsigned else (-128, 127)
    zx = rng.choice([xr[0], xr[1], rng.randint(*xr)])
    pad_value = rng.choice([zx, rng.randint(*xr)])
    bias = [rng.randint(-100000, 100000) for _ in range(f)]
    attrs = ["input_zero_point = %d : i32" % zx,
             "weight_zero_points = array<i32: %s>" % ", ".join(map(str, zw)),
             "pad_value = %d : i32" % pad_value,
             "strides = array<i64: %d, %d>" % strides,
             "dilations = array<i64: %d, %d>" % dils,
             "padding = array<i64: %d, %d, %d, %d>" % pad, "groups = 1 : i64"]
    if x_unsigned:
        attrs.append("x_unsigned")
    if w_unsigned:
        attrs.append("w_unsigned")
    name = "case_%d" % index
    lines = ["func.func @%s(%%x: tensor<%sxi8>) -> tensor<%sxi32> {"
             % (name, shape_str(xs), shape_str(os_)),
             "  %%w = arith.constant dense<%s> : tensor<%sxi8>"
             % (nested([bits8(v) for v in w], ws), shape_str(ws)),
             "  %%b = arith.constant dense<%s> : tensor<%dxi32>" % (nested(bias, [f]), f),
             "  %%a = qnt.int_conv2d %%x, %%w, %%b {%s} : tensor<%sxi8>, tensor<%sxi8>, "
             "tensor<%dxi32> -> tensor<%sxi32>"
             % (", ".join(attrs), shape_str(xs), shape_str(ws), f, shape_str(os_))]
    lines += requant_lines(rng, "%a", os_, f, 3)
    lines += ["  return %%r : tensor<%sxi32>" % shape_str(os_), "}", ""]
    funcs.append("\n".join(lines))
    counter[0] += 1
    xv = "%%v%d" % counter[0]
    n_x = b * h * w_ * c
    main.append("  %s = arith.constant dense<%s> : tensor<%sxi8>"
                % (xv, nested([bits8(rng.randint(*xr)) for _ in range(n_x)], xs),
                   shape_str(xs)))
    counter[0] += 3
    r, buf, cast = ("%%v%d" % (counter[0] - 2), "%%v%d" % (counter[0] - 1),
                    "%%v%d" % counter[0])
    s = shape_str(os_)
    main.append("  %s = call @%s(%s) : (tensor<%sxi8>) -> tensor<%sxi32>"
                % (r, name, xv, shape_str(xs), s))
    main.append("  %s = bufferization.to_buffer %s : tensor<%sxi32> to memref<%sxi32>"
                % (buf, r, s, s))
    main.append("  %s = memref.cast %s : memref<%sxi32> to memref<*xi32>" % (cast, buf, s))
    main.append("  call @printMemrefI32(%s) : (memref<*xi32>) -> ()" % cast)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--module", required=True)
    parser.add_argument("--requantize", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    funcs, body, counter = [], [], [0]
    index = 0
    for shape in MATMULS:
        for x_unsigned in (False, True):
            gen_case(rng, funcs, body, counter, index, shape, x_unsigned,
                     args.requantize)
            index += 1
    if args.requantize:
        for shape in CONVS:
            for x_unsigned in (False, True):
                gen_conv(rng, funcs, body, counter, index, shape, x_unsigned)
                index += 1
    head = ["// Generated by gen-amx-cases.py; do not edit.",
            "func.func private @printMemrefI32(memref<*xi32>)", ""]
    with open(args.module, "w") as f:
        f.write("\n".join(head + funcs + ["func.func @main() {"] + body
                          + ["  return", "}", ""]))


if __name__ == "__main__":
    main()
