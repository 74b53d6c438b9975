#!/usr/bin/env python3
"""Matmul / conv + requantize cases for the fused VNNI epilogue.

Every case is a contraction whose only user is a requantize, so the VNNI
kernel requantizes its accumulators in registers and stores the codes. The
shapes hit every remainder of the microkernel (M not a multiple of the row
tile, enough rows for row tiles outside column tiles, N of 16 or 64, K of 4, K long enough for two and for three K blocks
of the default 1024,
conv padding, strides, dilations and groups); the quantization parameters hit
the edges of the epilogue.

  --mode public  qnt.matmul / qnt.conv2d + qnt.requantize on quantized
                 tensors; golden values from quant-ref-run (the reference
                 model). Zero points at the ends of their storage range,
                 per-channel weight scales (per-channel multipliers), output
                 scales from M ~ 2^-20 (long right shifts) to M ~ 6 (negative
                 shifts, saturation), every rounding mode, clamps.
  --mode int     qnt.int_matmul / qnt.int_conv2d + qnt.int_requantize with
                 explicit multipliers and shifts over the whole range the
                 verifier allows (-30 to 31), nonzero input zero points of
                 the requantize, i8, u8 and i16 codes; golden values from the
                 generic qnt-to-linalg lowering of the same module.

The module's @main prints every result (printMemrefI8 / U8 / I16 / I32).
"""
import argparse
import math
import os
import random
import sys
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "utils"))
from mlir_literals import shape_str, nested, bits, out_size  # noqa: E402

MATMULS = [  # M, K, N
    (1, 1, 1), (3, 5, 7), (7, 13, 70), (9, 64, 130), (5, 600, 20),
    (17, 257, 100), (2, 1030, 48), (12, 3, 1), (6, 40, 64), (10, 31, 17),
    (4, 520, 64), (3, 2100, 20), (70, 96, 40), (66, 36, 256),
]
CONVS = [  # N, H, W, C, KH, KW, F, strides, dilations, padding, groups
    (1, 5, 7, 3, 3, 3, 5, (1, 1), (1, 1), (1, 1, 1, 1), 1),
    (2, 6, 9, 8, 2, 3, 20, (2, 1), (1, 2), (0, 1, 2, 0), 1),
    (1, 8, 8, 16, 1, 1, 70, (1, 1), (1, 1), (0, 0, 0, 0), 1),
    (1, 7, 6, 12, 3, 3, 24, (1, 1), (1, 1), (1, 1, 1, 1), 3),
    (1, 9, 11, 4, 3, 3, 64, (1, 1), (2, 2), (2, 0, 1, 1), 1),
    (1, 4, 4, 2, 4, 4, 100, (1, 1), (1, 1), (3, 3, 3, 3), 2),
    # Lines of 2 to 16 register tiles with a short reduction: the tiles are
    # software pipelined (KernelEmitter::emitPipelinedTiles); a reduction
    # whose innermost loop is shorter (12) and longer (48) than the 16
    # interleaved stores, a row tail, groups.
    (1, 10, 12, 16, 3, 3, 64, (1, 1), (1, 1), (1, 1, 1, 1), 1),
    (2, 9, 20, 8, 3, 3, 20, (1, 1), (1, 1), (1, 1, 1, 1), 1),
    (1, 8, 16, 64, 3, 3, 32, (1, 1), (1, 1), (1, 1, 1, 1), 1),
    (1, 8, 16, 8, 3, 3, 16, (1, 1), (1, 1), (1, 1, 1, 1), 2),
]
MODES = ["double", "single", "away", "half_even", "float"]
W_SCALES = ["0.0123", "0.0371", "0.125", "0.00977", "0.0518", "0.2"]
# The output scale over the accumulator's typical real size: 1 about fills
# the codes; smaller factors saturate (down to M >= 1, negative shifts),
# larger ones round coarsely.
Y_FACTORS = [0.001, 0.1, 0.7, 1.0, 1.0, 1.5, 3.0, 40.0]


def prod(shape):
    r = 1
    for d in shape:
        r *= d
    return r


def zero_point(rng, unsigned):
    lo, hi = (0, 255) if unsigned else (-128, 127)
    return rng.choice([lo, hi, rng.randint(lo, hi)])


def spread(w_shape):
    """The typical size of an accumulator: about 74 * 74 * sqrt(K), K the
    reduction length (w_shape without its last dimension)."""
    return 74 * 74 * prod(w_shape[:-1]) ** 0.5


def shapes(kind, args):
    """x, w, out shapes and the channel count of a case."""
    if kind == "matmul":
        m, k, n = args
        return [m, k], [k, n], [m, n], n, 1
    b, h, w, c, kh, kw, f, strides, dils, pad, groups = args
    oh = out_size(h, kh, strides[0], dils[0], pad[0], pad[1])
    ow = out_size(w, kw, strides[1], dils[1], pad[2], pad[3])
    return [b, h, w, c], [kh, kw, c // groups, f], [b, oh, ow, f], f, 3


def conv_attrs(args):
    strides, dils, pad, groups = args[7], args[8], args[9], args[10]
    return ("strides = array<i64: %d, %d>, dilations = array<i64: %d, %d>, "
            "padding = array<i64: %d, %d, %d, %d>, groups = %d : i64"
            % (strides + dils + pad + (groups,)))


class Module:
    def __init__(self):
        self.funcs, self.main, self.counter = [], [], 0

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def constant(self, values, shape, width):
        name = self.fresh()
        self.main.append("  %s = arith.constant dense<%s> : tensor<%sxi%d>"
                         % (name, nested([bits(v, width) for v in values], shape),
                            shape_str(shape), width))
        return name

    def print(self, value, shape, width, unsigned):
        buf, cast = self.fresh(), self.fresh()
        s, t = shape_str(shape), "i%d" % width
        self.main.append("  %s = bufferization.to_buffer %s : tensor<%sx%s> to memref<%sx%s>"
                         % (buf, value, s, t, s, t))
        self.main.append("  %s = memref.cast %s : memref<%sx%s> to memref<*x%s>"
                         % (cast, buf, s, t, t))
        self.main.append("  call @printMemref%s%d(%s) : (memref<*x%s>) -> ()"
                         % ("U" if unsigned else "I", width, cast, t))

    def text(self):
        head = ["// Generated by gen-fused-cases.py; do not edit."]
        head += ["func.func private @printMemref%s(memref<*x%s>)" % (p, t)
                 for p, t in [("I8", "i8"), ("U8", "i8"), ("I16", "i16"),
                              ("I32", "i32")]]
        return "\n".join(head + [""] + self.funcs + ["func.func @main() {"]
                         + self.main + ["  return", "}", ""])


def gen_public(rng, mod, index, kind, args):
    x_shape, w_shape, out_shape, ch, axis = shapes(kind, args)
    x_unsigned = rng.random() < 0.5
    y_unsigned = rng.random() < 0.5
    zx = zero_point(rng, x_unsigned)
    x_t = "!quant.uniform<%s:f32, 5.000000e-01:%d>" % (
        "u8" if x_unsigned else "i8", zx)
    per_channel = rng.random() < 0.6
    scales = ([rng.choice(W_SCALES) for _ in range(ch)] if per_channel
              else [rng.choice(W_SCALES)])
    storage, wlo, whi = rng.choice([("i8", -128, 127), ("i8<-127:127>", -127, 127)])
    acc_scales = [str(Decimal(s) / 2) for s in scales]
    if per_channel:
        w_t = "!quant.uniform<%s:f32:%d, {%s}>" % (
            storage, len(w_shape) - 1, ", ".join(scales))
        a_t = "!quant.uniform<i32:f32:%d, {%s}>" % (axis, ", ".join(acc_scales))
        b_t = "!quant.uniform<i32:f32:0, {%s}>" % ", ".join(acc_scales)
    else:
        w_t = "!quant.uniform<%s:f32, %s>" % (storage, scales[0])
        a_t = b_t = "!quant.uniform<i32:f32, %s>" % acc_scales[0]
    typical = spread(w_shape) * float(max(Decimal(a) for a in acc_scales))
    sy = "%.4g" % (typical / 128 * rng.choice(Y_FACTORS))
    if "." not in sy and "e" not in sy:
        sy += ".0"
    zy = zero_point(rng, y_unsigned)
    y_t = "!quant.uniform<%s:f32, %s:%d>" % ("u8" if y_unsigned else "i8", sy, zy)
    mode = MODES[index % len(MODES)]
    clamp = ""
    if rng.random() < 0.3:
        hi = 200 if y_unsigned else 100
        lo = min(zy, hi) if rng.random() < 0.5 else (0 if y_unsigned else -128)
        clamp = ", clamp = array<i64: %d, %d>" % (lo, hi)
    bias_kind = rng.choice(["const", "runtime", "none"])

    xs, ws, os_ = shape_str(x_shape), shape_str(w_shape), shape_str(out_shape)
    name = "case_%d" % index
    args_ = ["%%x: tensor<%sx%s>" % (xs, x_t)]
    if bias_kind == "runtime":
        args_.append("%%b: tensor<%dx%s>" % (ch, b_t))
    wv = [rng.randint(wlo, whi) for _ in range(prod(w_shape))]
    wv[0], wv[-1] = wlo, whi
    lines = ["func.func @%s(%s) -> tensor<%sx%s> {" % (name, ", ".join(args_), os_, y_t),
             "  %%w = qnt.constant dense<%s> : tensor<%sxi8> -> tensor<%sx%s>"
             % (nested(wv, w_shape), ws, ws, w_t)]
    big = int(spread(w_shape))
    bias = [rng.randint(-big, big) for _ in range(ch)]
    if bias_kind == "const":
        lines.append("  %%b = qnt.constant dense<%s> : tensor<%dxi32> -> tensor<%dx%s>"
                     % (nested(bias, [ch]), ch, ch, b_t))
    operands = "%x, %w" + (", %b" if bias_kind != "none" else "")
    types = "tensor<%sx%s>, tensor<%sx%s>" % (xs, x_t, ws, w_t)
    if bias_kind != "none":
        types += ", tensor<%dx%s>" % (ch, b_t)
    if kind == "matmul":
        lines.append("  %%a = qnt.matmul %s : %s -> tensor<%sx%s>"
                     % (operands, types, os_, a_t))
    else:
        lines.append("  %%a = qnt.conv2d %s {%s} : %s -> tensor<%sx%s>"
                     % (operands, conv_attrs(args), types, os_, a_t))
    lines.append("  %%y = qnt.requantize %%a {rounding = \"%s\"%s} : tensor<%sx%s> -> tensor<%sx%s>"
                 % (mode, clamp, os_, a_t, os_, y_t))
    lines += ["  return %%y : tensor<%sx%s>" % (os_, y_t), "}", ""]
    mod.funcs.append("\n".join(lines))

    lo, hi = (0, 255) if x_unsigned else (-128, 127)
    xv = [rng.randint(lo, hi) for _ in range(prod(x_shape))]
    xv[0], xv[-1] = lo, hi
    raw = mod.constant(xv, x_shape, 8)
    x = mod.fresh()
    mod.main.append("  %s = quant.scast %s : tensor<%sxi8> to tensor<%sx%s>"
                    % (x, raw, xs, xs, x_t))
    call_args, call_types = [x], ["tensor<%sx%s>" % (xs, x_t)]
    if bias_kind == "runtime":
        braw, bq = mod.constant(bias, [ch], 32), mod.fresh()
        mod.main.append("  %s = quant.scast %s : tensor<%dxi32> to tensor<%dx%s>"
                        % (bq, braw, ch, ch, b_t))
        call_args.append(bq)
        call_types.append("tensor<%dx%s>" % (ch, b_t))
    y, yi = mod.fresh(), mod.fresh()
    mod.main.append("  %s = call @%s(%s) : (%s) -> tensor<%sx%s>"
                    % (y, name, ", ".join(call_args), ", ".join(call_types), os_, y_t))
    mod.main.append("  %s = quant.scast %s : tensor<%sx%s> to tensor<%sxi8>"
                    % (yi, y, os_, y_t, os_))
    mod.print(yi, out_shape, 8, y_unsigned)


def gen_int(rng, mod, index, kind, args):
    x_shape, w_shape, out_shape, ch, axis = shapes(kind, args)
    x_unsigned = rng.random() < 0.5
    zx = rng.choice([0, 0, zero_point(rng, x_unsigned)])
    w_unsigned = rng.random() < 0.3
    if w_unsigned:  # weights as the u8 operand
        wv = [rng.randint(0, 255) for _ in range(prod(w_shape))]
    else:
        wv = [rng.randint(-128, 127) for _ in range(prod(w_shape))]
    per_channel = rng.random() < 0.6
    count = ch if per_channel else 1
    out_kind = rng.choice(["i8", "u8", "i16", "i32"])
    width = {"i8": 8, "u8": 8, "i16": 16, "i32": 32}[out_kind]
    out_unsigned = out_kind == "u8"
    lo, hi = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767),
              "i32": (-2**31, 2**31 - 1)}[out_kind]
    if rng.random() < 0.3 and width < 32:
        lo, hi = lo + rng.randint(0, 20), hi - rng.randint(0, 20)
    mode = MODES[index % len(MODES)]
    big = int(spread(w_shape))
    zin = [rng.choice([0, 0, rng.randint(-big, big), rng.randint(-20, 20)])
           for _ in range(count)]
    if rng.random() < 0.1:  # saturating subtraction
        zin[0] = rng.choice([-2**31, 2**31 - 1])
    zout = [rng.choice([lo, hi, rng.randint(lo, hi)]) if width < 32 else
            rng.randint(-1000, 1000) for _ in range(count)]
    mult = [rng.choice([2**30, 2**31 - 1, rng.randint(2**30, 2**31 - 1)])
            for _ in range(count)]
    # M = mult * 2^-31 * 2^-shift: about (hi - lo) / 2 over the typical
    # accumulator, give or take a factor 4; now and then the ends of the
    # verifier's range (-30: left shifts that saturate, 31).
    fill = max(1.0, (hi - lo) / 2.0) / big
    base = int(round(-math.log2(fill)))
    shifts = [max(-30, min(31, base + rng.choice([-2, -1, 0, 0, 1, 2])))
              for _ in range(count)]
    for i in range(count):
        if rng.random() < 0.08:
            shifts[i] = rng.choice([-30, -1, 31])
    fmult = ["%.6e" % (fill * rng.choice([0.25, 0.5, 1.0, 2.0, 4.0]))
             for _ in range(count)]
    if rng.random() < 0.1:
        fmult[0] = "%.6e" % rng.choice([2.0**-30, 1000.0])

    def arr(kind_, values):
        return "array<%s: %s>" % (kind_, ", ".join(str(v) for v in values))

    attrs = ["input_zero_points = " + arr("i32", zin),
             "multipliers = " + arr("i32", mult if mode != "float" else [0]),
             "shifts = " + arr("i32", shifts if mode != "float" else [0]),
             "float_multipliers = " + arr("f32", fmult if mode == "float" else [0.0]),
             "output_zero_points = " + arr("i32", zout),
             "min = %d : i32" % lo, "max = %d : i32" % hi,
             "rounding = \"%s\"" % mode]
    if per_channel:
        attrs.append("axis = %d : i64" % axis)
    if out_unsigned:
        attrs.append("output_unsigned")
    t = "i%d" % width

    xs, ws, os_ = shape_str(x_shape), shape_str(w_shape), shape_str(out_shape)
    bias = [rng.randint(-big, big) for _ in range(ch)]
    name = "case_%d" % index
    lines = ["func.func @%s(%%x: tensor<%sxi8>) -> tensor<%sx%s> {" % (name, xs, os_, t),
             "  %%w = arith.constant dense<%s> : tensor<%sxi8>"
             % (nested([bits(v, 8) for v in wv], w_shape), ws),
             "  %%b = arith.constant dense<%s> : tensor<%dxi32>"
             % (nested(bias, [ch]), ch)]
    cattrs = ["input_zero_point = %d : i32" % zx,
              "weight_zero_points = array<i32: 0>"]
    if x_unsigned:
        cattrs.append("x_unsigned")
    if w_unsigned:
        cattrs.append("w_unsigned")
    op = "qnt.int_matmul"
    if kind == "conv":
        op = "qnt.int_conv2d"
        cattrs.append("pad_value = %d : i32" % rng.choice(
            [zx, rng.randint(0, 255) if x_unsigned else rng.randint(-128, 127)]))
        cattrs.append(conv_attrs(args))
    lines.append("  %%a = %s %%x, %%w, %%b {%s} : tensor<%sxi8>, tensor<%sxi8>, tensor<%dxi32> -> tensor<%sxi32>"
                 % (op, ", ".join(cattrs), xs, ws, ch, os_))
    lines.append("  %%y = qnt.int_requantize %%a {%s} : tensor<%sxi32> -> tensor<%sx%s>"
                 % (", ".join(attrs), os_, os_, t))
    lines += ["  return %%y : tensor<%sx%s>" % (os_, t), "}", ""]
    mod.funcs.append("\n".join(lines))
    xlo, xhi = (0, 255) if x_unsigned else (-128, 127)
    xv = [rng.randint(xlo, xhi) for _ in range(prod(x_shape))]
    xv[0], xv[-1] = xlo, xhi
    x = mod.constant(xv, x_shape, 8)
    y = mod.fresh()
    mod.main.append("  %s = call @%s(%s) : (tensor<%sxi8>) -> tensor<%sx%s>"
                    % (y, name, x, xs, os_, t))
    mod.print(y, out_shape, width, out_unsigned)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=["public", "int"], required=True)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--module", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    mod = Module()
    gen = gen_public if args.mode == "public" else gen_int
    index = 0
    for _ in range(2):
        for shape in MATMULS:
            gen(rng, mod, index, "matmul", shape)
            index += 1
        for shape in CONVS:
            gen(rng, mod, index, "conv", shape)
            index += 1
    with open(args.module, "w") as f:
        f.write(mod.text())


if __name__ == "__main__":
    main()
