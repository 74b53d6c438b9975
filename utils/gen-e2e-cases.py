#!/usr/bin/env python3
"""Generates random end-to-end cases for the qnt pipeline from a fixed seed.

Writes one MLIR module whose @main calls every case and prints each result
through printMemref*, plus a labels file naming every printed tensor. The
module is run twice by the tests: compiled (quant-opt --qnt-to-llvm |
mlir-runner) and on the reference model (quant-ref-run); the two transcripts
must agree bit for bit (utils/compare-outputs.py --labels ...). The golden
output values come from the reference model; the generator itself only
derives, from exact rationals, the fixed-point multipliers the compiler must
pick (--multipliers, checked by utils/check-multipliers.py) and counts the
ties and saturations its cases reach (--stats).

Two case families, chosen with --ops (a seed's output never changes with
the other family's code):

layers (default): matmul and conv2d (padding, stride, dilation, groups, depthwise),
per-tensor and per-channel weights, u8 and i8 inputs, symmetric and
asymmetric weights, weights given as codes, as float constants (folded by
qnt.quantize) or at run time, bias none / constant / run time, fused clamps,
i8 / u8 / i16 outputs, and all five rounding modes, plus requantize-only
cases on extreme accumulators (INT32_MIN, INT32_MAX, ties, M >= 1, tiny M)
and quantize / dequantize round trips printed as raw bits.

network: qnt.add in all five rounding modes with numpy broadcasting of
size-1 dims on equal ranks, clamps, u8 / i8 / i16 operands and results
mixed, scale ratios that are powers of two or small fractions (ties) or
tiny output scales (M_out >= 1, saturation); max_pool2d with kernel /
stride / dilation / padding, avg_pool2d with count_include_pad, global
average pooling, per tensor or per axis on the channels; concat of 1-4
operands along any axis, each equal to the result's parameters or
requantized, in every rounding mode; and conv -> requantize (ReLU) ->
residual add -> max / global average pool chains.

dynamic: the runtime-scale ops (docs/RuntimeScales.md):
qnt.dequantize_dynamic on i8 / ui8 / i16 / i32 codes (i32 beyond 2^24) and
qnt.quantize_dynamic to i8 / ui8 / i16, with scale and offset broadcast
per row, per column, per tensor or in any numpy pattern, scales that are
ordinary, negative, zero, tiny, huge or NaN, inputs with ties, infinities
and NaN; qnt.dynamic_quantize in mode "onnx" and "symmetric" (any axis),
with all-zero slices and infinities. f32 results print as their bits. No
case makes an operation create a NaN (0 * inf, inf - inf): a created NaN's
sign differs between targets, an input NaN's bits do not.

Importers (utils/diff-fuzz.py) call generate(seed, cases, ops) or any
gen_*(rng, mod, index) one-case generator on a Module.
"""
import argparse
import json
import math
import random
import re
from fractions import Fraction

from mlir_literals import shape_str, nested, bits

ROUNDINGS = ["double", "single", "away", "half_even", "float"]
RANGES = {"u8": (0, 255), "i8": (-128, 127), "i16": (-32768, 32767)}


def fmt(x):
    return repr(float(x))


class Storage:
    def __init__(self, name, lo=None, hi=None):
        self.name = name
        dlo, dhi = RANGES[name]
        self.lo = dlo if lo is None else lo
        self.hi = dhi if hi is None else hi
        self.width = 16 if name == "i16" else 8

    def spelling(self):
        dlo, dhi = RANGES[self.name]
        if (self.lo, self.hi) == (dlo, dhi):
            return self.name
        return "%s<%d:%d>" % (self.name, self.lo, self.hi)


def per_tensor(storage, scale, zp):
    return "!quant.uniform<%s:f32, %s:%d>" % (storage.spelling(), fmt(scale), zp)


def per_axis(storage, axis, scales, zps):
    params = ", ".join("%s:%d" % (fmt(s), z) for s, z in zip(scales, zps))
    return "!quant.uniform<%s:f32:%d, {%s}>" % (storage.spelling(), axis, params)


def acc_type(scales, axis):
    if axis is None:
        return "!quant.uniform<i32:f32, %s>" % fmt(scales[0])
    return "!quant.uniform<i32:f32:%d, {%s}>" % (
        axis, ", ".join(fmt(s) for s in scales))


class Module:
    def __init__(self, seed):
        self.seed = seed
        self.funcs = []
        self.main = []
        self.labels = []
        self.multipliers = []
        self.stats = {}
        self.counter = 0

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def const_codes(self, codes, shape, storage, qtype):
        """A quantized tensor built in @main from raw codes via quant.scast."""
        raw, cast = self.fresh(), self.fresh()
        width = storage.width if storage else 32
        lit = nested([bits(c, width) for c in codes], shape)
        self.main.append("  %s = arith.constant dense<%s> : tensor<%sxi%d>"
                         % (raw, lit, shape_str(shape), width))
        self.main.append("  %s = quant.scast %s : tensor<%sxi%d> to tensor<%sx%s>"
                         % (cast, raw, shape_str(shape), width, shape_str(shape), qtype))
        return cast

    def print_codes(self, value, shape, qtype, storage_name, label):
        width = {"u8": 8, "i8": 8, "i16": 16, "i32": 32}[storage_name]
        printer = {"u8": "printMemrefU8", "i8": "printMemrefI8",
                   "i16": "printMemrefI16", "i32": "printMemrefI32"}[storage_name]
        raw, buf, unranked = self.fresh(), self.fresh(), self.fresh()
        s = shape_str(shape)
        self.main.append("  %s = quant.scast %s : tensor<%sx%s> to tensor<%sxi%d>"
                         % (raw, value, s, qtype, s, width))
        self.print_raw(raw, shape, width, printer)
        self.labels.append(label)

    def print_raw(self, raw, shape, width, printer):
        buf, unranked = self.fresh(), self.fresh()
        s = shape_str(shape)
        self.main.append("  %s = bufferization.to_buffer %s : tensor<%sxi%d> to memref<%sxi%d>"
                         % (buf, raw, s, width, s, width))
        self.main.append("  %s = memref.cast %s : memref<%sxi%d> to memref<*xi%d>"
                         % (unranked, buf, s, width, width))
        self.main.append("  call @%s(%s) : (memref<*xi%d>) -> ()" % (printer, unranked, width))

    def text(self):
        head = [
            "// Generated by utils/gen-e2e-cases.py --seed %d; do not edit." % self.seed,
            "func.func private @printMemrefI8(memref<*xi8>)",
            "func.func private @printMemrefU8(memref<*xi8>)",
            "func.func private @printMemrefI16(memref<*xi16>)",
            "func.func private @printMemrefI32(memref<*xi32>)",
            "",
        ]
        return "\n".join(head + self.funcs + ["func.func @main() {"] + self.main
                         + ["  return", "}", ""])


def random_storage(rng, kinds):
    name = rng.choice(kinds)
    if name == "i8" and rng.random() < 0.25:
        return Storage("i8", -127, 127)      # narrow range
    return Storage(name)


def random_codes(rng, n, storage):
    return [rng.randint(storage.lo, storage.hi) for _ in range(n)]


def random_output(rng, acc_scale_typical, rounding_bias=None):
    """Output storage, scale from a random multiplier, zero point, clamp."""
    storage = random_storage(rng, ["u8", "i8", "i8", "i16"])
    mode = rng.choice(ROUNDINGS)
    r = rng.random()
    if r < 0.05:
        m = rng.uniform(1.0, 4.0)           # M >= 1: left shift
    elif r < 0.08:
        m = 2.0 ** rng.uniform(-40, -31)     # tiny multipliers
    else:
        m = 10 ** rng.uniform(-4.5, -0.5)
    zp = rng.randint(max(storage.lo, -50), min(storage.hi, 50)) if storage.name != "u8" \
        else rng.randint(0, 255)
    clamp = None
    if rng.random() < 0.3:
        lo = rng.randint(storage.lo, zp)
        hi = rng.randint(zp, storage.hi)
        clamp = (lo, hi)
    return storage, m, zp, mode, clamp


def requantize_text(acc_value, acc_t, out_t, shape, mode, clamp):
    attrs = ['rounding = "%s"' % mode]
    if clamp:
        attrs.append("clamp = array<i64: %d, %d>" % clamp)
    s = shape_str(shape)
    return ("  %%y = qnt.requantize %s {%s} : tensor<%sx%s> -> tensor<%sx%s>"
            % (acc_value, ", ".join(attrs), s, acc_t, s, out_t))


def weight_value(rng, lines, args, params, codes, shape, storage, qtype, scales, zps, axis):
    """Emits the weight operand in one of three forms; returns its SSA name."""
    form = rng.choice(["codes", "float", "runtime"])
    s = shape_str(shape)
    if form == "codes":
        if storage.name == "u8":
            lines.append("  %%w = qnt.constant dense<%s> : tensor<%sxui8> -> tensor<%sx%s>"
                         % (nested(codes, shape), s, s, qtype))
        else:
            lines.append("  %%w = qnt.constant dense<%s> : tensor<%sxi8> -> tensor<%sx%s>"
                         % (nested(codes, shape), s, s, qtype))
    elif form == "float":
        # Real values near the codes' grid, with some exact ties, so the
        # compile-time quantize (round half to even) is exercised.
        vals = []
        strides = [1] * len(shape)
        for d in range(len(shape) - 2, -1, -1):
            strides[d] = strides[d + 1] * shape[d + 1]
        for i, c in enumerate(codes):
            ch = (i // strides[axis]) % shape[axis] if axis is not None else 0
            jitter = rng.choice([0.0, 0.5, -0.5, rng.uniform(-0.49, 0.49)])
            vals.append(fmt((c - zps[ch] + jitter) * scales[ch]))
        lines.append("  %%wf = arith.constant dense<%s> : tensor<%sxf32>"
                     % (nested(vals, shape), s))
        lines.append("  %%w = qnt.quantize %%wf : tensor<%sxf32> -> tensor<%sx%s>" % (s, s, qtype))
    else:
        args.append("%%w: tensor<%sx%s>" % (s, qtype))
        params.append(("w", codes, shape, storage, qtype))
    return form


def gen_layer(rng, mod, index, kind, large=False, fused=False):
    """`large`: shapes that fill the kernels' blocks and leave tails (x86:
    4-row tiles, 64-column tiles of 16-lane vectors, K in steps of 4 and
    blocks; AArch64: 12 x 8 tiles; depthwise: 16 channels per vector).
    `fused`: the layer returns only the requantized codes, so that the
    requantize is the accumulator's only user and the kernels fuse it into
    their epilogue (otherwise the accumulator is returned and printed too)."""
    x_st = random_storage(rng, ["u8", "i8"])
    w_st = random_storage(rng, ["i8", "i8", "u8"])
    sx = round(rng.uniform(0.005, 0.1), 6)
    zx = rng.randint(x_st.lo, x_st.hi) if rng.random() < 0.8 else 0
    if kind == "matmul":
        if large:
            m, k, n = rng.randint(1, 40), rng.randint(1, 300), rng.randint(1, 150)
        else:
            m, k, n = rng.randint(1, 6), rng.randint(1, 24), rng.randint(1, 9)
        x_shape, w_shape, acc_shape = [m, k], [k, n], [m, n]
        channels, w_axis, acc_axis = n, 1, 1
        geometry = "M=%d K=%d N=%d" % (m, k, n)
    else:
        groups_kind = rng.choice(["dense", "grouped", "depthwise"])
        if large:
            c = rng.randint(1, 80) if groups_kind == "dense" else 2 * rng.randint(1, 40)
        else:
            c = rng.choice([1, 2, 3, 4, 6]) if groups_kind == "dense" else rng.choice([2, 4, 6])
        groups = 1 if groups_kind == "dense" else (c if groups_kind == "depthwise" else 2)
        f = groups * rng.randint(1, 3) if not large or groups > 2 else \
            groups * rng.randint(1, 80 // groups)
        kh, kw = rng.randint(1, 3), rng.randint(1, 3)
        sh, sw = rng.randint(1, 2), rng.randint(1, 2)
        dh, dw = rng.randint(1, 2), rng.randint(1, 2)
        pads = [rng.randint(0, 2) for _ in range(4)]
        nb = rng.randint(1, 2)
        # Fused layers also get the taller images whose lines the x86 conv
        # pipelines (8 or more lines of 2-16 register tiles).
        h = rng.randint(max(1, dh * (kh - 1) + 1 - pads[0] - pads[1]),
                        (20 if fused else 12) if large else 7)
        w = rng.randint(max(1, dw * (kw - 1) + 1 - pads[2] - pads[3]), 20 if large else 7)
        oh = (h + pads[0] + pads[1] - dh * (kh - 1) - 1) // sh + 1
        ow = (w + pads[2] + pads[3] - dw * (kw - 1) - 1) // sw + 1
        x_shape, w_shape, acc_shape = [nb, h, w, c], [kh, kw, c // groups, f], [nb, oh, ow, f]
        channels, w_axis, acc_axis = f, 3, 3
        geometry = ("N=%d H=%d W=%d C=%d KHxKW=%dx%d F=%d stride=%d,%d dilation=%d,%d "
                    "padding=%s groups=%d" % (nb, h, w, c, kh, kw, f, sh, sw, dh, dw, pads, groups))

    per_channel = rng.random() < 0.5
    symmetric = rng.random() < 0.5
    if per_channel:
        w_scales = [round(rng.uniform(0.002, 0.05), 6) for _ in range(channels)]
        w_zps = [0 if symmetric else rng.randint(w_st.lo, w_st.hi) for _ in range(channels)]
        w_t = per_axis(w_st, w_axis, w_scales, w_zps)
        a_scales = [sx * s for s in w_scales]
        a_t = acc_type(a_scales, acc_axis)
        b_t = acc_type(a_scales, 0)
        axis = w_axis
    else:
        w_scales = [round(rng.uniform(0.002, 0.05), 6)]
        w_zps = [0 if symmetric else rng.randint(w_st.lo, w_st.hi)]
        w_t = per_tensor(w_st, w_scales[0], w_zps[0])
        a_scales = [sx * w_scales[0]]
        a_t = acc_type(a_scales, None)
        b_t = a_t
        axis = None
    x_t = per_tensor(x_st, sx, zx)

    lines, args, params = [], [], []
    args.append("%%x: tensor<%sx%s>" % (shape_str(x_shape), x_t))
    x_codes = random_codes(rng, math.prod(x_shape), x_st)
    w_codes = random_codes(rng, math.prod(w_shape), w_st)
    w_form = weight_value(rng, lines, args, params, w_codes, w_shape, w_st, w_t,
                          w_scales if per_channel else w_scales * channels,
                          w_zps if per_channel else w_zps * channels, w_axis)

    bias_kind = rng.choice(["none", "const", "runtime"])
    bias_codes = [rng.randint(-(1 << 20), 1 << 20) for _ in range(channels)]
    if bias_kind == "const":
        lines.append("  %%b = qnt.constant dense<%s> : tensor<%dxi32> -> tensor<%dx%s>"
                     % (nested(bias_codes, [channels]), channels, channels, b_t))
    elif bias_kind == "runtime":
        args.append("%%b: tensor<%dx%s>" % (channels, b_t))
    operands = "%x, %w" + (", %b" if bias_kind != "none" else "")
    types = "tensor<%sx%s>, tensor<%sx%s>" % (shape_str(x_shape), x_t, shape_str(w_shape), w_t)
    if bias_kind != "none":
        types += ", tensor<%dx%s>" % (channels, b_t)
    acc_s = shape_str(acc_shape)
    if kind == "matmul":
        lines.append("  %%a = qnt.matmul %s : %s -> tensor<%sx%s>" % (operands, types, acc_s, a_t))
    else:
        attrs = ("{strides = array<i64: %d, %d>, dilations = array<i64: %d, %d>, "
                 "padding = array<i64: %d, %d, %d, %d>, groups = %d : i64}"
                 % (sh, sw, dh, dw, pads[0], pads[1], pads[2], pads[3], groups))
        lines.append("  %%a = qnt.conv2d %s %s : %s -> tensor<%sx%s>"
                     % (operands, attrs, types, acc_s, a_t))

    out_st, m, zy, mode, clamp = random_output(rng, a_scales[0])
    sy = a_scales[0] / m
    y_t = per_tensor(out_st, sy, zy)
    mod.multipliers.append(rescale_entry("case_%d" % index, "requantize", a_scales, [sy]))
    lines.append(requantize_text("%a", a_t, y_t, acc_shape, mode, clamp))

    name = "case_%d" % index
    results = [("%a", "tensor<%sx%s>" % (acc_s, a_t))] if not fused else []
    results.append(("%y", "tensor<%sx%s>" % (acc_s, y_t)))
    mod.funcs.append("func.func @%s(%s) -> (%s) {"
                     % (name, ", ".join(args), ", ".join(t for _, t in results)))
    mod.funcs += lines
    mod.funcs.append("  return %s : %s" % (", ".join(v for v, _ in results),
                                           ", ".join(t for _, t in results)))
    mod.funcs.append("}")
    mod.funcs.append("")

    call_args = [mod.const_codes(x_codes, x_shape, x_st, x_t)]
    call_types = ["tensor<%sx%s>" % (shape_str(x_shape), x_t)]
    if w_form == "runtime":
        call_args.append(mod.const_codes(w_codes, w_shape, w_st, w_t))
        call_types.append("tensor<%sx%s>" % (shape_str(w_shape), w_t))
    if bias_kind == "runtime":
        call_args.append(mod.const_codes(bias_codes, [channels], None, b_t))
        call_types.append("tensor<%dx%s>" % (channels, b_t))
    values = [mod.fresh() for _ in results]
    mod.main.append("  %s = call @%s(%s) : (%s) -> (%s)"
                    % (", ".join(values), name, ", ".join(call_args), ", ".join(call_types),
                       ", ".join(t for _, t in results)))
    y_v = values[-1]
    desc = ("seed %d case %d: %s %s, x %s z=%d, w %s %s %s (%s), bias %s, out %s z=%d "
            "M=%.6g rounding=%s clamp=%s" % (
                mod.seed, index, kind, geometry, x_st.spelling(), zx, w_st.spelling(),
                "per-channel" if per_channel else "per-tensor",
                "symmetric" if symmetric else "asymmetric", w_form, bias_kind,
                out_st.spelling(), zy, m, mode, clamp))
    if not fused:
        mod.print_codes(values[0], acc_shape, a_t, "i32", desc + " [accumulator]")
    mod.print_codes(y_v, acc_shape, y_t, out_st.name, desc + " [requantized]")


def gen_requantize(rng, mod, index):
    """Requantize of run-time accumulators with extreme values and ties."""
    n = 16
    in_scale = round(rng.uniform(0.0001, 0.01), 7)
    out_st, m, zy, mode, clamp = random_output(rng, in_scale)
    edge_m = rng.choice([None, 0.5, 0.25, 2.0 ** -31.5, 2.0 ** -33, 1.0, 3.0, 1.0 - 2.0 ** -33])
    if edge_m is not None:
        m = edge_m
    out_scale = in_scale / m
    a_t = acc_type([in_scale], None)
    y_t = per_tensor(out_st, out_scale, zy)
    mod.multipliers.append(rescale_entry("case_%d" % index, "requantize", [in_scale], [out_scale]))
    specials = [-(1 << 31), (1 << 31) - 1, 0, 1, -1, 2, -2, 3, -3, 5, -5, 10, -10]
    codes = specials + [rng.randint(-(1 << 31), (1 << 31) - 1) for _ in range(n - len(specials))]
    name = "case_%d" % index
    mod.funcs.append("func.func @%s(%%a: tensor<%dx%s>) -> tensor<%dx%s> {"
                     % (name, n, a_t, n, y_t))
    mod.funcs.append(requantize_text("%a", a_t, y_t, [n], mode, clamp))
    mod.funcs.append("  return %%y : tensor<%dx%s>" % (n, y_t))
    mod.funcs.append("}")
    mod.funcs.append("")
    arg = mod.const_codes(codes, [n], None, a_t)
    y_v = mod.fresh()
    mod.main.append("  %s = call @%s(%s) : (tensor<%dx%s>) -> tensor<%dx%s>"
                    % (y_v, name, arg, n, a_t, n, y_t))
    mod.print_codes(y_v, [n], y_t, out_st.name,
                    "seed %d case %d: requantize of extreme accumulators, out %s z=%d "
                    "M=%.6g rounding=%s clamp=%s" % (mod.seed, index, out_st.spelling(),
                                                       zy, m, mode, clamp))


def gen_quantize_roundtrip(rng, mod, index):
    """quantize / dequantize on run-time floats, results printed as raw bits."""
    n = 12
    st = random_storage(rng, ["u8", "i8", "i16"])
    scale = round(10 ** rng.uniform(-3, 0), 6)
    zp = rng.randint(max(st.lo, -100), min(st.hi, 100)) if st.name != "u8" else rng.randint(0, 255)
    t = per_tensor(st, scale, zp)
    # Ties (k + 0.5) * scale, huge values, infinities, NaN, signed zeros.
    vals = ["0x7FC00000", "0x7F800000", "0xFF800000", "0x80000000", "1.0e30", "-1.0e30"]
    vals += [fmt((rng.randint(-300, 300) + 0.5) * scale) for _ in range(3)]
    vals += [fmt(rng.uniform(-200, 200) * scale) for _ in range(n - len(vals))]
    name = "case_%d" % index
    mod.funcs.append("func.func @%s(%%x: tensor<%dxf32>) -> (tensor<%dx%s>, tensor<%dxf32>) {"
                     % (name, n, n, t, n))
    mod.funcs.append("  %%q = qnt.quantize %%x : tensor<%dxf32> -> tensor<%dx%s>" % (n, n, t))
    mod.funcs.append("  %%r = qnt.dequantize %%q : tensor<%dx%s> -> tensor<%dxf32>" % (n, t, n))
    mod.funcs.append("  return %%q, %%r : tensor<%dx%s>, tensor<%dxf32>" % (n, t, n))
    mod.funcs.append("}")
    mod.funcs.append("")
    xv, qv, rv, rb = mod.fresh(), mod.fresh(), mod.fresh(), mod.fresh()
    mod.main.append("  %s = arith.constant dense<[%s]> : tensor<%dxf32>" % (xv, ", ".join(vals), n))
    mod.main.append("  %s, %s = call @%s(%s) : (tensor<%dxf32>) -> (tensor<%dx%s>, tensor<%dxf32>)"
                    % (qv, rv, name, xv, n, n, t, n))
    desc = "seed %d case %d: quantize/dequantize %s s=%s z=%d" % (mod.seed, index, st.spelling(), scale, zp)
    mod.print_codes(qv, [n], t, st.name, desc + " [codes]")
    mod.main.append("  %s = arith.bitcast %s : tensor<%dxf32> to tensor<%dxi32>" % (rb, rv, n, n))
    mod.print_raw(rb, [n], 32, "printMemrefI32")
    mod.labels.append(desc + " [dequantized f32 bits]")


# ---------------------------------------------------------------------------
# Expected fixed-point multipliers, from exact rationals.
#
# The compiler and the reference model share quantopt::ref::quantizeMultiplier;
# a bug there would hide on both sides of the bit-for-bit comparison. So the
# generator derives M0 and the shift of every rescale it emits on its own,
# from the contract's rules (TFLite's QuantizeMultiplier), with Fractions:
#  - the ratio of two scales is one IEEE double division (TFLite computes it
#    in double): the exact quotient rounded once to the nearest double;
#  - frexp: m = q * 2^e, q in [1/2, 1); M0 = round_half_away(q * 2^31);
#  - M0 == 2^31 (q rounds up to 1) is halved and e bumped;
#  - e < -31 (m < 2^-32) flushes to (0, 0); e > 30 clamps to (2^31 - 1, -30);
#  - shift = -e (> 0 divides, < 0 shifts left), m == 0 gives (0, 0).
# The float mode's multipliers are f32(S_in) / f32(S_out), one f32 division:
# the exact quotient of the two f32 values rounded once to f32.

INT32_MAX = (1 << 31) - 1


def double_quotient(num, den):
    """num / den for doubles, rounded once to the nearest double (exact int
    true division in CPython is correctly rounded)."""
    q = Fraction(num) / Fraction(den)
    return Fraction(q.numerator / q.denominator)


def frexp_exponent(m):
    """e with 2^(e-1) <= m < 2^e for a positive Fraction m."""
    e = m.numerator.bit_length() - m.denominator.bit_length()
    while m >= Fraction(2) ** e:
        e += 1
    while m < Fraction(2) ** (e - 1):
        e -= 1
    return e


def quantize_multiplier(m):
    """(M0, shift) for a non-negative Fraction m, by the rules above."""
    if m <= 0:
        return 0, 0
    e = frexp_exponent(m)
    t = m / Fraction(2) ** e * (1 << 31)
    fixed = math.floor(t + Fraction(1, 2))     # ties away from zero (t > 0)
    if fixed == 1 << 31:
        fixed //= 2
        e += 1
    if e < -31:
        return 0, 0
    if e > 30:
        return INT32_MAX, -30
    return fixed, -e


def round_to_f32(x):
    """Fraction x rounded to the nearest f32 (ties to even), as a Fraction."""
    if x == 0:
        return Fraction(0)
    sign = 1 if x > 0 else -1
    x = abs(x)
    e = max(frexp_exponent(x) - 1, -126)       # 2^e <= x < 2^(e+1), normals
    ulp = Fraction(2) ** (e - 23)
    q = x / ulp
    n = math.floor(q)
    rest = q - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    return sign * n * ulp


def f32_quotient(num, den):
    """f32(num) / f32(den) in f32 arithmetic, as a Python float."""
    return float(round_to_f32(round_to_f32(Fraction(num)) / round_to_f32(Fraction(den))))


def rescale_entry(func, kind, scales_in, scales_out):
    """The expected int_requantize-style parameters of one rescale: one
    channel per pair (a per-tensor side is repeated)."""
    n = max(len(scales_in), len(scales_out))
    ins = scales_in * n if len(scales_in) == 1 else scales_in
    outs = scales_out * n if len(scales_out) == 1 else scales_out
    qms = [quantize_multiplier(double_quotient(a, b)) for a, b in zip(ins, outs)]
    return {"func": func, "kind": kind,
            "multipliers": [m for m, _ in qms], "shifts": [s for _, s in qms],
            "float_multipliers": [f32_quotient(a, b) for a, b in zip(ins, outs)]}


def add_entry(func, sa, sb, sy, out_width):
    """TFLite's add parameters: left_shift, and M_a, M_b, M_out as (M0, shift),
    each ratio one double operation on the type's scales."""
    left_shift = 20 if out_width == 8 else 15
    twice_max = 2 * max(Fraction(sa), Fraction(sb))     # exact in double
    ma = quantize_multiplier(double_quotient(sa, twice_max))
    mb = quantize_multiplier(double_quotient(sb, twice_max))
    # 2^left_shift * S_y is exact in double, so M_out is one rounding too.
    mo = quantize_multiplier(double_quotient(twice_max, (1 << left_shift) * Fraction(sy)))
    return {"func": func, "kind": "add", "left_shift": left_shift,
            "multipliers": [ma[0], mb[0], mo[0]], "shifts": [ma[1], mb[1], mo[1]],
            "float_multipliers": [f32_quotient(sa, sy), f32_quotient(sb, sy)]}


def describe_entry(entry):
    parts = ["M0=%d n=%d" % (m, s) for m, s in zip(entry["multipliers"], entry["shifts"])]
    if entry["kind"] == "add":
        return "left_shift=%d M_a: %s, M_b: %s, M_out: %s" % (
            entry["left_shift"], parts[0], parts[1], parts[2])
    return "Q31 " + ", ".join(parts[:4]) + (" ..." if len(parts) > 4 else "")


# ---------------------------------------------------------------------------
# Whole-network ops (--ops network): add, max / avg pooling, concat, chains.

def net_storage(rng, kinds=("u8", "i8", "i8", "i16")):
    name = rng.choice(kinds)
    if name == "i8" and rng.random() < 0.2:
        return Storage("i8", -127, 127)      # narrow range
    return Storage(name)


def net_zero_point(rng, st):
    if rng.random() < 0.2:
        return 0 if st.lo <= 0 else st.lo
    if st.name == "i16":
        return rng.randint(-100, 100)
    return rng.randint(st.lo, st.hi)


def net_codes(rng, n, st):
    """Random codes with the storage extremes mixed in (saturation)."""
    return [rng.choice([st.lo, st.hi]) if rng.random() < 0.15 else rng.randint(st.lo, st.hi)
            for _ in range(n)]


def tensor_t(shape, qtype):
    return "tensor<%sx%s>" % (shape_str(shape), qtype)


def emit_case(mod, index, inputs, body, results, desc):
    """One @case_N over run-time inputs [(ssa, codes, shape, storage, qtype)]
    returning results [(ssa, shape, qtype, storage, label)], called from @main
    on constant codes and each result printed."""
    name = "case_%d" % index
    args = ", ".join("%s: %s" % (v, tensor_t(sh, t)) for v, _, sh, _, t in inputs)
    rtypes = ", ".join(tensor_t(sh, t) for _, sh, t, _, _ in results)
    mod.funcs.append("func.func @%s(%s) -> (%s) {" % (name, args, rtypes))
    mod.funcs += body
    mod.funcs.append("  return %s : %s" % (", ".join(r[0] for r in results), rtypes))
    mod.funcs.append("}")
    mod.funcs.append("")
    call_args = [mod.const_codes(c, sh, st, t) for _, c, sh, st, t in inputs]
    outs = [mod.fresh() for _ in results]
    mod.main.append("  %s = call @%s(%s) : (%s) -> (%s)" % (
        ", ".join(outs), name, ", ".join(call_args),
        ", ".join(tensor_t(sh, t) for _, _, sh, _, t in inputs), rtypes))
    for v, (_, sh, t, st, label) in zip(outs, results):
        mod.print_codes(v, sh, t, st.name, "seed %d case %d: %s [%s]" % (mod.seed, index, desc, label))


def add_scales(rng):
    """(S_a, S_b, S_y): power-of-two and small-integer ratios make the
    rescales exact, so that ties really occur; random ones exercise general
    multipliers; a tiny S_y gives M_out >= 1 (saturation)."""
    style = rng.choice(["pow2", "pow2", "ratio", "random", "random", "tiny_out"])
    base = rng.choice([0.5 ** rng.randint(3, 9), round(rng.uniform(0.002, 0.2), 6)])
    if style == "pow2":
        sa, sb, sy = (base * 2.0 ** rng.randint(-2, 2), base * 2.0 ** rng.randint(-2, 2),
                      base * 2.0 ** rng.randint(0, 3))
    elif style == "ratio":
        sa = base
        sb = base * rng.choice([1.0, 1.5, 0.75, 3.0, 0.5])
        sy = base * rng.choice([1.0, 1.5, 2.0, 3.0, 0.25, 4.0])
    elif style == "random":
        sa, sb = round(10 ** rng.uniform(-3, -0.5), 7), round(10 ** rng.uniform(-3, -0.5), 7)
        sy = round(max(sa, sb) * 10 ** rng.uniform(-0.3, 1), 7)
    else:
        sa, sb = base, base * rng.choice([1.0, 0.5, 2.0])
        sy = max(sa, sb) * 2.0 ** -20 * rng.choice([1.0, 0.5, 1.5])
    return sa, sb, sy, style


def large_shape(rng, rank):
    """A `large` shape: the innermost dimension up to 150, the others up to
    9, so that vector code runs full vectors and leaves tails."""
    return [rng.randint(1, 9) for _ in range(rank - 1)] + [rng.randint(1, 150)]


def large_hwc(rng):
    """A `large` pooling input's H, W and C (C innermost, up to 150)."""
    return rng.randint(1, 12), rng.randint(1, 20), rng.randint(1, 150)


def broadcast_shapes(rng, large=False):
    """`large`: large_shape()."""
    rank = rng.randint(1, 4)
    out = [rng.randint(1, 5) for _ in range(rank)]
    if large:
        out = large_shape(rng, rank)
    a, b = list(out), list(out)
    for d in range(rank):
        if out[d] > 1 and rng.random() < 0.4:
            if rng.random() < 0.5:
                a[d] = 1
            else:
                b[d] = 1
    return a, b, out



# Tie and saturation counts (--stats), so that a suite can show its cases
# really reach the rounding ties and the saturation it is meant to test. They
# look at exact rational values, not at any implementation's bits: a tie is
# an exact rescaled value with fractional part 1/2 at the final rounding, a
# saturation a real result that lies outside the output range (clamp
# included) by more than one code.

HALF = Fraction(1, 2)


def qm_value(entry, i):
    """The exact multiplier M0 * 2^-(31 + shift) of entry's i-th rescale."""
    return Fraction(entry["multipliers"][i]) / Fraction(2) ** (31 + entry["shifts"][i])


def is_tie(v):
    return v - math.floor(v) == HALF


def tally(mod, op, ties, saturated, elements):
    st = mod.stats.setdefault(op, [0, 0, 0])
    st[0] += ties
    st[1] += saturated
    st[2] += elements


def add_stats(mod, entry, mode, a, a_shape, za, sa, b, b_shape, zb, sb, y_shape, zy, sy, lo, hi):
    """Final-rounding ties of the add's rescale and saturated elements."""
    ties = saturated = 0
    rank = len(y_shape)
    strides = lambda sh: [math.prod(sh[d + 1:]) for d in range(rank)]
    sa_s, sb_s, sy_s = strides(a_shape), strides(b_shape), strides(y_shape)
    fa, fb = Fraction(entry["float_multipliers"][0]), Fraction(entry["float_multipliers"][1])
    for i in range(math.prod(y_shape)):
        idx = [(i // sy_s[d]) % y_shape[d] for d in range(rank)]
        qa = a[sum((idx[d] if a_shape[d] > 1 else 0) * sa_s[d] for d in range(rank))]
        qb = b[sum((idx[d] if b_shape[d] > 1 else 0) * sb_s[d] for d in range(rank))]
        if mode == "float":
            v = (qa - za) * fa + (qb - zb) * fb
        else:
            shift = entry["left_shift"]
            raw = (((qa - za) << shift) * qm_value(entry, 0)
                   + ((qb - zb) << shift) * qm_value(entry, 1))
            v = round(raw) * qm_value(entry, 2)
        ties += is_tie(v)
        real = ((qa - za) * Fraction(sa) + (qb - zb) * Fraction(sb)) / Fraction(sy) + zy
        saturated += real < lo - 1 or real > hi + 1
    tally(mod, "add", ties, saturated, math.prod(y_shape))

def gen_add(rng, mod, index, large=False):
    sta, stb, sty = net_storage(rng), net_storage(rng), net_storage(rng)
    mode = rng.choice(ROUNDINGS)
    # An i16 operand shifted left by 20 (the 8-bit result's left_shift)
    # overflows i32, which the verifier rejects in the integer modes: such
    # operands go with an i16 result or the float mode.
    if "i16" in (sta.name, stb.name) and sty.width == 8 and mode != "float":
        if rng.random() < 0.5:
            sty = Storage("i16")
        else:
            mode = "float"
    sa, sb, sy, style = add_scales(rng)
    za, zb, zy = net_zero_point(rng, sta), net_zero_point(rng, stb), net_zero_point(rng, sty)
    clamp = None
    if rng.random() < 0.3:
        clamp = (rng.randint(sty.lo, zy), rng.randint(zy, sty.hi))
    a_shape, b_shape, y_shape = broadcast_shapes(rng, large)
    ta, tb, ty = per_tensor(sta, sa, za), per_tensor(stb, sb, zb), per_tensor(sty, sy, zy)
    attrs = []
    if mode != "double" or rng.random() < 0.5:
        attrs.append('rounding = "%s"' % mode)
    if clamp:
        attrs.append("clamp = array<i64: %d, %d>" % clamp)
    body = ["  %%y = qnt.add %%a, %%b%s : %s, %s -> %s" % (
        " {%s}" % ", ".join(attrs) if attrs else "",
        tensor_t(a_shape, ta), tensor_t(b_shape, tb), tensor_t(y_shape, ty))]
    name = "case_%d" % index
    entry = add_entry(name, sa, sb, sy, sty.width)
    mod.multipliers.append(entry)
    desc = ("add %s + %s -> %s, a %s s=%s z=%d, b %s s=%s z=%d, out %s s=%s z=%d, "
            "scales %s, rounding=%s clamp=%s; expected %s" % (
                a_shape, b_shape, y_shape, sta.spelling(), fmt(sa), za, stb.spelling(),
                fmt(sb), zb, sty.spelling(), fmt(sy), zy, style, mode, clamp,
                describe_entry(entry)))
    inputs = [("%a", net_codes(rng, math.prod(a_shape), sta), a_shape, sta, ta),
              ("%b", net_codes(rng, math.prod(b_shape), stb), b_shape, stb, tb)]
    lo, hi = clamp if clamp else (sty.lo, sty.hi)
    add_stats(mod, entry, mode, inputs[0][1], a_shape, za, sa, inputs[1][1], b_shape, zb, sb,
              y_shape, zy, sy, lo, hi)
    emit_case(mod, index, inputs, body, [("%y", y_shape, ty, sty, "sum")], desc)


def pool_input_type(rng, st, channels):
    """Per-tensor, or per-axis on the channel dimension (3)."""
    if rng.random() < 0.35:
        scales = [round(rng.uniform(0.005, 0.2), 6) for _ in range(channels)]
        zps = [net_zero_point(rng, st) for _ in range(channels)]
        return per_axis(st, 3, scales, zps), "per-axis"
    return per_tensor(st, round(rng.uniform(0.005, 0.2), 6), net_zero_point(rng, st)), "per-tensor"


def window_ok(size, pad_before, kernel, stride, dilation, out):
    """Every window holds at least one real (non-padded) position."""
    for o in range(out):
        start = o * stride - pad_before
        if not any(0 <= start + k * dilation < size for k in range(kernel)):
            return False
    return True


def pool_geometry(rng, with_dilation, large=False):
    while True:
        n, h, w, c = rng.randint(1, 2), rng.randint(1, 7), rng.randint(1, 7), rng.randint(1, 5)
        if large:
            h, w, c = large_hwc(rng)
        kernel = [rng.randint(1, 3), rng.randint(1, 3)]
        strides = [rng.randint(1, 3), rng.randint(1, 3)]
        dil = [rng.randint(1, 2), rng.randint(1, 2)] if with_dilation else [1, 1]
        ext = [dil[i] * (kernel[i] - 1) + 1 for i in range(2)]
        pads = [rng.randint(0, ext[0] - 1) if rng.random() < 0.6 else 0 for _ in range(2)] + \
               [rng.randint(0, ext[1] - 1) if rng.random() < 0.6 else 0 for _ in range(2)]
        oh = (h + pads[0] + pads[1] - ext[0]) // strides[0] + 1
        ow = (w + pads[2] + pads[3] - ext[1]) // strides[1] + 1
        if h + pads[0] + pads[1] < ext[0] or w + pads[2] + pads[3] < ext[1]:
            continue
        if not (window_ok(h, pads[0], kernel[0], strides[0], dil[0], oh)
                and window_ok(w, pads[2], kernel[1], strides[1], dil[1], ow)):
            continue
        return [n, h, w, c], kernel, strides, dil, pads, [n, oh, ow, c]


def pool_stats(mod, codes, x_shape, qtype, st, kernel, strides, pads, cip, y_shape,
               half_even):
    """Averages that are exact halves (ties, rounded away from zero or, with
    rounding = "half_even", to even: counted apart)."""
    zps = [int(z) for z in re.findall(r":(-?\d+)(?=[,}>])", qtype.split(",", 1)[1])]
    n, h, w, c = x_shape
    ties = 0
    for b in range(n):
        for oy in range(y_shape[1]):
            for ox in range(y_shape[2]):
                for ch in range(c):
                    z = zps[ch] if len(zps) > 1 else zps[0]
                    total = cnt = 0
                    for ky in range(kernel[0]):
                        for kx in range(kernel[1]):
                            iy = oy * strides[0] - pads[0] + ky
                            ix = ox * strides[1] - pads[2] + kx
                            if 0 <= iy < h and 0 <= ix < w:
                                total += codes[((b * h + iy) * w + ix) * c + ch] - z
                                cnt += 1
                    ties += is_tie(Fraction(total, kernel[0] * kernel[1] if cip else cnt))
    tally(mod, "avg_pool2d half_even" if half_even else "avg_pool2d", ties, 0,
          math.prod(y_shape))


def gen_pool(rng, mod, index, kind, large=False):
    st = net_storage(rng)
    if kind == "global_avg":
        n, h, w, c = rng.randint(1, 2), rng.randint(1, 8), rng.randint(1, 8), rng.randint(1, 6)
        if large:
            h, w, c = large_hwc(rng)
        x_shape, kernel, strides, dil, pads = [n, h, w, c], [h, w], [1, 1], [1, 1], [0, 0, 0, 0]
        y_shape = [n, 1, 1, c]
    else:
        x_shape, kernel, strides, dil, pads, y_shape = pool_geometry(rng, kind == "max", large)
    t, layout = pool_input_type(rng, st, x_shape[3])
    attrs = ["kernel = array<i64: %d, %d>" % tuple(kernel)]
    if strides != [1, 1] or rng.random() < 0.3:
        attrs.append("strides = array<i64: %d, %d>" % tuple(strides))
    if kind == "max" and (dil != [1, 1] or rng.random() < 0.3):
        attrs.append("dilations = array<i64: %d, %d>" % tuple(dil))
    if pads != [0, 0, 0, 0] or rng.random() < 0.3:
        attrs.append("padding = array<i64: %d, %d, %d, %d>" % tuple(pads))
    cip = None
    half_even = False
    if kind != "max":
        cip = rng.random() < 0.5
        if cip or rng.random() < 0.3:
            attrs.append("count_include_pad = %s" % ("true" if cip else "false"))
        # The average's ties: away from zero (default) or, every other
        # case, to even (no draw, so the cases' random data stay as they were).
        half_even = index % 2 == 0
        if half_even:
            attrs.append('rounding = "half_even"')
    op = "qnt.max_pool2d" if kind == "max" else "qnt.avg_pool2d"
    body = ["  %%y = %s %%x {%s} : %s -> %s" % (op, ", ".join(attrs), tensor_t(x_shape, t),
                                               tensor_t(y_shape, t))]
    desc = ("%s %s -> %s, %s %s kernel=%s strides=%s dilations=%s padding=%s "
            "count_include_pad=%s%s" % (kind + "_pool2d" if kind != "global_avg" else
                                        "global avg_pool2d", x_shape, y_shape, st.spelling(),
                                        layout, kernel, strides, dil, pads, cip,
                                        " half_even" if half_even else ""))
    # Avg pooling of codes near one value makes sums land on halves (ties).
    if kind != "max" and rng.random() < 0.4:
        mid = rng.randint(st.lo, st.hi - 1)
        codes = [rng.choice([mid, mid + 1]) for _ in range(math.prod(x_shape))]
    else:
        codes = net_codes(rng, math.prod(x_shape), st)
    if kind != "max":
        pool_stats(mod, codes, x_shape, t, st, kernel, strides, pads, cip, y_shape,
                   half_even)
    emit_case(mod, index, [("%x", codes, x_shape, st, t)], body,
              [("%y", y_shape, t, st, "pooled")], desc)


def gen_concat(rng, mod, index):
    st = net_storage(rng, ("u8", "i8", "i16"))
    rank = rng.randint(1, 4)
    axis = rng.randrange(rank)
    count = rng.randint(1, 4)
    base = [rng.randint(1, 4) for _ in range(rank)]
    shapes = []
    for _ in range(count):
        s = list(base)
        s[axis] = rng.randint(1, 4)
        shapes.append(s)
    y_shape = list(base)
    y_shape[axis] = sum(s[axis] for s in shapes)
    sy = rng.choice([0.5 ** rng.randint(3, 8), round(rng.uniform(0.005, 0.2), 6)])
    zy = net_zero_point(rng, st)
    ty = per_tensor(st, sy, zy)
    mode = rng.choice(ROUNDINGS)
    name = "case_%d" % index
    inputs, kinds = [], []
    for i, s in enumerate(shapes):
        r = rng.random()
        # A lone operand equal to the result makes @case_N return its
        # argument unchanged (test/Integration/identity-function.mlir).
        if r < 0.35:
            so, zo, kind = sy, zy, "same"
        else:
            # Scale ratios 2^k and 3/2 give exact ties; random ones general M.
            so = sy * rng.choice([2.0, 0.5, 1.5, 3.0, 0.75, 4.0, 0.25, 1.0]) \
                if rng.random() < 0.7 else round(sy * 10 ** rng.uniform(-1, 1), 7)
            zo = net_zero_point(rng, st) if rng.random() < 0.6 else zy
            kind = "requantized"
            if so == sy and zo == zy:
                kind = "same"
            if kind != "same":
                mod.multipliers.append(rescale_entry(name, "concat operand %d" % i, [so], [sy]))
        kinds.append("%s s=%s z=%d" % (kind, fmt(so), zo))
        inputs.append(("%%x%d" % i, net_codes(rng, math.prod(s), st), s, st,
                       per_tensor(st, so, zo)))
        if kind != "same":
            e = mod.multipliers[-1]
            m = Fraction(e["float_multipliers"][0]) if mode == "float" else qm_value(e, 0)
            vals = [(q - zo) * m for q in inputs[-1][1]]
            real = [(q - zo) * Fraction(so) / Fraction(sy) + zy for q in inputs[-1][1]]
            tally(mod, "concat", sum(map(is_tie, vals)),
                  sum(r < st.lo - 1 or r > st.hi + 1 for r in real), len(vals))
    attrs = ["axis = %d : i64" % axis]
    if mode != "double" or rng.random() < 0.5:
        attrs.append('rounding = "%s"' % mode)
    body = ["  %%y = qnt.concat %s {%s} : %s -> %s" % (
        ", ".join(v for v, _, _, _, _ in inputs), ", ".join(attrs),
        ", ".join(tensor_t(sh, t) for _, _, sh, _, t in inputs), tensor_t(y_shape, ty))]
    desc = ("concat axis=%d of %s -> %s, %s out s=%s z=%d rounding=%s, operands: %s" % (
        axis, shapes, y_shape, st.spelling(), fmt(sy), zy, mode, "; ".join(kinds)))
    emit_case(mod, index, inputs, body, [("%y", y_shape, ty, st, "concatenated")], desc)


def gen_chain(rng, mod, index):
    """conv -> requantize (ReLU clamp) -> add of the skip -> max or avg pool."""
    st_x = net_storage(rng, ("u8", "i8"))
    n, h, w, c = 1, rng.randint(2, 6), rng.randint(2, 6), rng.randint(1, 4)
    sx, zx = round(rng.uniform(0.01, 0.1), 6), net_zero_point(rng, st_x)
    tx = per_tensor(st_x, sx, zx)
    sw = round(rng.uniform(0.005, 0.05), 6)
    tw = per_tensor(Storage("i8", -127, 127), sw, 0)
    sa = sx * sw
    ta = acc_type([sa], None)
    st_h = net_storage(rng, ("u8", "i8"))
    sh = round(sa * 10 ** rng.uniform(0.5, 2.0), 7)
    zh = net_zero_point(rng, st_h)
    th = per_tensor(st_h, sh, zh)
    st_y = net_storage(rng, ("u8", "i8", "i16"))
    sy = rng.choice([sx, sh, round(max(sx, sh) * rng.uniform(0.5, 3), 7)])
    zy = net_zero_point(rng, st_y)
    ty = per_tensor(st_y, sy, zy)
    mode = rng.choice(ROUNDINGS)
    add_mode = rng.choice(ROUNDINGS)
    shape = [n, h, w, c]
    wcodes = [rng.randint(-127, 127) for _ in range(9 * c * c)]
    name = "case_%d" % index
    body = [
        "  %%w = qnt.constant dense<%s> : tensor<3x3x%dx%dxi8> -> %s" % (
            nested(wcodes, [3, 3, c, c]), c, c, tensor_t([3, 3, c, c], tw)),
        "  %%acc = qnt.conv2d %%x, %%w {padding = array<i64: 1, 1, 1, 1>} : %s, %s -> %s" % (
            tensor_t(shape, tx), tensor_t([3, 3, c, c], tw), tensor_t(shape, ta)),
        "  %%h = qnt.requantize %%acc {rounding = \"%s\", clamp = array<i64: %d, %d>} : %s -> %s" % (
            mode, zh, st_h.hi, tensor_t(shape, ta), tensor_t(shape, th)),
        "  %%s = qnt.add %%h, %%x {rounding = \"%s\"} : %s, %s -> %s" % (
            add_mode, tensor_t(shape, th), tensor_t(shape, tx), tensor_t(shape, ty)),
    ]
    mod.multipliers.append(rescale_entry(name, "requantize", [sa], [sh]))
    mod.multipliers.append(add_entry(name, sh, sx, sy, st_y.width))
    if rng.random() < 0.5:
        kind = "max_pool2d 2x2 stride 2 (padding bottom/right for odd sizes)"
        oh, ow = (h + 1) // 2, (w + 1) // 2
        body.append("  %%p = qnt.max_pool2d %%s {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, "
                    "padding = array<i64: 0, %d, 0, %d>} : %s -> %s" % (
                        h % 2, w % 2, tensor_t(shape, ty), tensor_t([n, oh, ow, c], ty)))
    else:
        kind = "global avg_pool2d"
        oh, ow = 1, 1
        body.append("  %%p = qnt.avg_pool2d %%s {kernel = array<i64: %d, %d>} : %s -> %s" % (
            h, w, tensor_t(shape, ty), tensor_t([n, 1, 1, c], ty)))
    desc = ("chain conv3x3 %s -> requantize(%s, ReLU) -> add skip (%s) -> %s; x %s, h %s, y %s" % (
        shape, mode, add_mode, kind, tx, th, ty))
    emit_case(mod, index, [("%x", net_codes(rng, math.prod(shape), st_x), shape, st_x, tx)], body,
              [("%s", shape, ty, st_y, "residual sum"), ("%p", [n, oh, ow, c], ty, st_y, "pooled")],
              desc)


# One-case generators with the (rng, mod, index) signature that importers
# (utils/diff-fuzz.py picks up every gen_*(rng, mod, index)) can call.
def gen_max_pool(rng, mod, index, large=False):
    gen_pool(rng, mod, index, "max", large)


def gen_avg_pool(rng, mod, index, large=False):
    gen_pool(rng, mod, index, "avg", large)


def gen_global_avg_pool(rng, mod, index, large=False):
    gen_pool(rng, mod, index, "global_avg", large)


# ---------------------------------------------------------------------------
# Runtime-scale ops (--ops dynamic).

def _dyn_shape(rng, large=False):
    rank = rng.randint(1, 3)
    if large:
        return large_shape(rng, rank)
    return [rng.randint(1, 5) for _ in range(rank)]


def _dyn_param_shape(rng, shape):
    """A shape that broadcasts to `shape`: per row, per column, per tensor or
    any numpy pattern of 1s."""
    pattern = rng.choice(["row", "column", "tensor", "any", "full"])
    if pattern == "row":
        return [shape[0]] + [1] * (len(shape) - 1)
    if pattern == "column":
        return [1] * (len(shape) - 1) + [shape[-1]]
    if pattern == "tensor":
        return [1] * len(shape)
    if pattern == "full":
        return list(shape)
    return [d if rng.random() < 0.5 else 1 for d in shape]


def _f32_literal(v):
    if v != v:
        return "0x7FC00000"
    if v == float("inf"):
        return "0x7F800000"
    if v == -float("inf"):
        return "0xFF800000"
    text = fmt(v)
    # MLIR's float literals need a '.' before an exponent (1.0e-30).
    if "e" in text and "." not in text:
        text = text.replace("e", ".0e")
    return text


def _dyn_tensor_literal(values, shape):
    return nested([_f32_literal(v) for v in values], shape)


def _dyn_print_f32(mod, value, shape, label):
    raw = mod.fresh()
    s = shape_str(shape) + "x" if shape else ""
    mod.main.append("  %s = arith.bitcast %s : tensor<%sf32> to tensor<%si32>"
                    % (raw, value, s, s))
    _dyn_print(mod, raw, shape, "i32", "printMemrefI32", label)


def _dyn_print(mod, raw, shape, elem, printer, label):
    buf, unranked = mod.fresh(), mod.fresh()
    s = shape_str(shape) + "x" if shape else ""
    width = elem[1:]
    mod.main.append("  %s = bufferization.to_buffer %s : tensor<%s%s> to memref<%s%s>"
                    % (buf, raw, s, elem, s, elem))
    mod.main.append("  %s = memref.cast %s : memref<%s%s> to memref<*xi%s>"
                    % (unranked, buf, s, elem, width))
    mod.main.append("  call @%s(%s) : (memref<*xi%s>) -> ()" % (printer, unranked, width))
    mod.labels.append(label)


def _dyn_print_codes(mod, value, shape, elem, label):
    """Prints i8 / ui8 / i16 codes (ui8 through a bitcast to i8)."""
    s = shape_str(shape) + "x" if shape else ""
    if elem == "ui8":
        raw = mod.fresh()
        mod.main.append("  %s = tensor.bitcast %s : tensor<%sui8> to tensor<%si8>"
                        % (raw, value, s, s))
        _dyn_print(mod, raw, shape, "i8", "printMemrefU8", label)
    else:
        _dyn_print(mod, value, shape, elem,
                   {"i8": "printMemrefI8", "i16": "printMemrefI16"}[elem], label)


def _dyn_scales(rng, n, allow_nan=True):
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.06 and allow_nan:
            out.append(float("nan"))
        elif r < 0.12:
            out.append(0.0)
        elif r < 0.2:
            out.append(-(10 ** rng.uniform(-3, 0)))
        elif r < 0.24:
            out.append(1.0e-30)
        elif r < 0.28:
            out.append(1.0e30)
        else:
            out.append(round(10 ** rng.uniform(-3, 0.5), 7))
    return out


def gen_dequantize_dynamic(rng, mod, index, large=False):
    shape = _dyn_shape(rng, large)
    elem = rng.choice(["i8", "ui8", "i16", "i32"])
    lo, hi = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-32768, 32767),
              "i32": (-2 ** 31, 2 ** 31 - 1)}[elem]
    n = 1
    for d in shape:
        n *= d
    codes = []
    for _ in range(n):
        r = rng.random()
        if elem == "i32" and r < 0.4:
            # Beyond 2^24, where f32(code) rounds (ties included).
            codes.append(rng.choice([1, -1]) * (2 ** rng.randint(24, 30) + rng.randint(-3, 3)))
        elif r < 0.5:
            codes.append(rng.choice([lo, hi, 0]))
        else:
            codes.append(rng.randint(lo, hi))
    sshape, oshape = _dyn_param_shape(rng, shape), _dyn_param_shape(rng, shape)
    sn = oshape_n = 1
    for d in sshape:
        sn *= d
    for d in oshape:
        oshape_n *= d
    # No infinite scale: (q - offset) * inf with q == offset creates a NaN.
    scales = _dyn_scales(rng, sn)
    offsets = [float(rng.randint(lo, hi)) if elem != "i32" and rng.random() < 0.8
               else round(rng.uniform(-300, 300), 3) for _ in range(oshape_n)]
    t = lambda sh, e: "tensor<%sx%s>" % (shape_str(sh), e)
    name = "case_%d" % index
    mod.funcs.append("func.func @%s(%%s: %s, %%a: %s, %%b: %s) -> %s {" % (
        name, t(shape, elem), t(sshape, "f32"), t(oshape, "f32"), t(shape, "f32")))
    mod.funcs.append("  %%r = qnt.dequantize_dynamic %%s, %%a, %%b : %s, %s, %s -> %s" % (
        t(shape, elem), t(sshape, "f32"), t(oshape, "f32"), t(shape, "f32")))
    mod.funcs.append("  return %%r : %s" % t(shape, "f32"))
    mod.funcs.append("}")
    mod.funcs.append("")
    sv, av, bv, rv = mod.fresh(), mod.fresh(), mod.fresh(), mod.fresh()
    mod.main.append("  %s = arith.constant dense<%s> : %s" % (sv, nested(codes, shape), t(shape, elem)))
    mod.main.append("  %s = arith.constant dense<%s> : %s" % (av, _dyn_tensor_literal(scales, sshape), t(sshape, "f32")))
    mod.main.append("  %s = arith.constant dense<%s> : %s" % (bv, _dyn_tensor_literal(offsets, oshape), t(oshape, "f32")))
    mod.main.append("  %s = call @%s(%s, %s, %s) : (%s, %s, %s) -> %s" % (
        rv, name, sv, av, bv, t(shape, elem), t(sshape, "f32"), t(oshape, "f32"), t(shape, "f32")))
    _dyn_print_f32(mod, rv, shape, "seed %d case %d: dequantize_dynamic %s %s scale %s offset %s [f32 bits]"
                   % (mod.seed, index, elem, shape, sshape, oshape))


def gen_quantize_dynamic(rng, mod, index, large=False):
    shape = _dyn_shape(rng, large)
    elem = rng.choice(["i8", "ui8", "i16"])
    lo, hi = {"i8": (-128, 127), "ui8": (0, 255), "i16": (-32768, 32767)}[elem]
    sshape, oshape = _dyn_param_shape(rng, shape), _dyn_param_shape(rng, shape)
    n = sn = on = 1
    for d in shape:
        n *= d
    for d in sshape:
        sn *= d
    for d in oshape:
        on *= d
    scales = _dyn_scales(rng, sn)
    offsets = [float(rng.randint(lo - 10, hi + 10)) for _ in range(on)]
    xs = []
    for _ in range(n):
        r = rng.random()
        if r < 0.05:
            xs.append(float("nan"))
        elif r < 0.1:
            xs.append(rng.choice([float("inf"), -float("inf")]))
        elif r < 0.3:
            xs.append(rng.randint(-300, 300) + 0.5)      # ties for scale 1 or 0.5
        else:
            xs.append(round(rng.uniform(-300, 300), 4))
    t = lambda sh, e: "tensor<%sx%s>" % (shape_str(sh), e)
    name = "case_%d" % index
    mod.funcs.append("func.func @%s(%%x: %s, %%a: %s, %%b: %s) -> %s {" % (
        name, t(shape, "f32"), t(sshape, "f32"), t(oshape, "f32"), t(shape, elem)))
    mod.funcs.append("  %%q = qnt.quantize_dynamic %%x, %%a, %%b : %s, %s, %s -> %s" % (
        t(shape, "f32"), t(sshape, "f32"), t(oshape, "f32"), t(shape, elem)))
    mod.funcs.append("  return %%q : %s" % t(shape, elem))
    mod.funcs.append("}")
    mod.funcs.append("")
    xv, av, bv, qv = mod.fresh(), mod.fresh(), mod.fresh(), mod.fresh()
    mod.main.append("  %s = arith.constant dense<%s> : %s" % (xv, _dyn_tensor_literal(xs, shape), t(shape, "f32")))
    mod.main.append("  %s = arith.constant dense<%s> : %s" % (av, _dyn_tensor_literal(scales, sshape), t(sshape, "f32")))
    mod.main.append("  %s = arith.constant dense<%s> : %s" % (bv, _dyn_tensor_literal(offsets, oshape), t(oshape, "f32")))
    mod.main.append("  %s = call @%s(%s, %s, %s) : (%s, %s, %s) -> %s" % (
        qv, name, xv, av, bv, t(shape, "f32"), t(sshape, "f32"), t(oshape, "f32"), t(shape, elem)))
    _dyn_print_codes(mod, qv, shape, elem, "seed %d case %d: quantize_dynamic %s %s scale %s offset %s"
                     % (mod.seed, index, elem, shape, sshape, oshape))


def gen_dynamic_quantize(rng, mod, index, large=False):
    shape = _dyn_shape(rng, large)
    mode = rng.choice(["onnx", "symmetric"])
    n = 1
    for d in shape:
        n *= d
    kind = rng.random()
    xs = []
    for _ in range(n):
        r = rng.random()
        if kind < 0.15:
            xs.append(0.0)                                   # all zero
        elif r < 0.03:
            xs.append(rng.choice([float("inf"), -float("inf")]))
        elif r < 0.15:
            xs.append(0.0)
        else:
            xs.append(round(rng.uniform(-20, 20) * rng.choice([1, 0.01, 100]), 4))
    t = lambda sh, e: "tensor<%sx%s>" % (shape_str(sh), e) if sh else "tensor<%s>" % e
    name = "case_%d" % index
    if mode == "onnx":
        attrs, types = '{mode = "onnx"}', [t(shape, "ui8"), "tensor<f32>", "tensor<ui8>"]
        pshape = []
    else:
        axis = rng.randrange(len(shape))
        attrs = '{mode = "symmetric", axis = %d : i64}' % axis
        pshape = [shape[axis]]
        types = [t(shape, "i8"), t(pshape, "f32"), t(pshape, "i8")]
    mod.funcs.append("func.func @%s(%%x: %s) -> (%s) {" % (name, t(shape, "f32"), ", ".join(types)))
    mod.funcs.append("  %%c, %%s, %%z = qnt.dynamic_quantize %%x %s : %s -> %s"
                     % (attrs, t(shape, "f32"), ", ".join(types)))
    mod.funcs.append("  return %%c, %%s, %%z : %s" % ", ".join(types))
    mod.funcs.append("}")
    mod.funcs.append("")
    xv, cv, sv, zv = mod.fresh(), mod.fresh(), mod.fresh(), mod.fresh()
    mod.main.append("  %s = arith.constant dense<%s> : %s" % (xv, _dyn_tensor_literal(xs, shape), t(shape, "f32")))
    mod.main.append("  %s, %s, %s = call @%s(%s) : (%s) -> (%s)"
                    % (cv, sv, zv, name, xv, t(shape, "f32"), ", ".join(types)))
    desc = "seed %d case %d: dynamic_quantize %s %s" % (mod.seed, index, attrs, shape)
    code_elem = "ui8" if mode == "onnx" else "i8"
    _dyn_print_codes(mod, cv, shape, code_elem, desc + " [codes]")
    _dyn_print_f32(mod, sv, pshape, desc + " [scale f32 bits]")
    _dyn_print_codes(mod, zv, pshape, code_elem, desc + " [zero point]")


def dynamic_case(rng, mod, index):
    r = rng.random()
    if r < 0.35:
        gen_dequantize_dynamic(rng, mod, index)
    elif r < 0.7:
        gen_quantize_dynamic(rng, mod, index)
    else:
        gen_dynamic_quantize(rng, mod, index)


def network_case(rng, mod, index):
    r = rng.random()
    if r < 0.35:
        gen_add(rng, mod, index)
    elif r < 0.5:
        gen_max_pool(rng, mod, index)
    elif r < 0.62:
        gen_avg_pool(rng, mod, index)
    elif r < 0.68:
        gen_global_avg_pool(rng, mod, index)
    elif r < 0.88:
        gen_concat(rng, mod, index)
    else:
        gen_chain(rng, mod, index)


def layers_case(rng, mod, index):
    r = rng.random()
    if r < 0.4:
        gen_layer(rng, mod, index, "matmul")
    elif r < 0.8:
        gen_layer(rng, mod, index, "conv2d")
    elif r < 0.9:
        gen_requantize(rng, mod, index)
    else:
        gen_quantize_roundtrip(rng, mod, index)


def generate(seed, cases, ops="layers"):
    """The module for a seed: `cases` cases of the chosen family."""
    rng = random.Random(seed)
    mod = Module(seed)
    gen = {"network": network_case, "dynamic": dynamic_case}.get(ops, layers_case)
    for i in range(cases):
        gen(rng, mod, i)
    return mod

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--module", required=True, help="output .mlir")
    parser.add_argument("--labels", required=True, help="output labels .json")
    parser.add_argument("--ops", choices=["layers", "network", "dynamic"], default="layers",
                        help="case family: matmul / conv2d / requantize / quantize "
                        "(default), add / pools / concat / chains, or the "
                        "runtime-scale ops")
    parser.add_argument("--stats", action="store_true", help="print per op how many "
                        "elements hit an exact rounding tie or saturate")
    parser.add_argument("--multipliers", help="output .json: the expected M0 and "
                        "shift of every rescale, in module order (check-multipliers.py)")
    args = parser.parse_args()
    mod = generate(args.seed, args.cases, args.ops)
    with open(args.module, "w") as f:
        f.write(mod.text())
    with open(args.labels, "w") as f:
        json.dump(mod.labels, f, indent=0)
    if args.stats:
        for op, (ties, saturated, elements) in sorted(mod.stats.items()):
            print("%s: %d elements, %d ties, %d saturated" % (op, elements, ties, saturated))
    if args.multipliers:
        with open(args.multipliers, "w") as f:
            json.dump(mod.multipliers, f, indent=0)


if __name__ == "__main__":
    main()
