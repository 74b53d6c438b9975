#!/usr/bin/env python3
"""Generates random end-to-end cases for the qnt pipeline from a fixed seed.

Writes one MLIR module whose @main calls every case and prints each result
through printMemref*, plus a labels file naming every printed tensor. The
module is run twice by the tests: compiled (quant-opt --qnt-to-llvm |
mlir-runner) and on the reference model (quant-ref-run); the two transcripts
must agree bit for bit (utils/compare-outputs.py --labels ...). Nothing here
computes an expected value: the golden values come from the reference model.

Cases cover matmul and conv2d (padding, stride, dilation, groups, depthwise),
per-tensor and per-channel weights, u8 and i8 inputs, symmetric and
asymmetric weights, weights given as codes, as float constants (folded by
qnt.quantize) or at run time, bias none / constant / run time, fused clamps,
i8 / u8 / i16 outputs, and all five rounding modes, plus requantize-only
cases on extreme accumulators (INT32_MIN, INT32_MAX, ties, M >= 1, tiny M)
and quantize / dequantize round trips printed as raw bits.
"""
import argparse
import json
import math
import random

ROUNDINGS = ["double", "single", "away", "half_even", "float"]
RANGES = {"u8": (0, 255), "i8": (-128, 127), "i16": (-32768, 32767)}


def fmt(x):
    return repr(float(x))


def nested(values, shape):
    """Formats a flat list as a nested dense literal."""
    if not shape:
        return str(values[0])
    if len(shape) == 1:
        return "[" + ", ".join(str(v) for v in values) + "]"
    step = len(values) // shape[0]
    return "[" + ", ".join(nested(values[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def shape_str(shape):
    return "x".join(str(d) for d in shape)


def bits(code, width):
    """Two's complement bits of a code as a signed value of `width` bits."""
    code &= (1 << width) - 1
    return code - (1 << width) if code >= 1 << (width - 1) else code


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


def gen_layer(rng, mod, index, kind):
    x_st = random_storage(rng, ["u8", "i8"])
    w_st = random_storage(rng, ["i8", "i8", "u8"])
    sx = round(rng.uniform(0.005, 0.1), 6)
    zx = rng.randint(x_st.lo, x_st.hi) if rng.random() < 0.8 else 0
    if kind == "matmul":
        m, k, n = rng.randint(1, 6), rng.randint(1, 24), rng.randint(1, 9)
        x_shape, w_shape, acc_shape = [m, k], [k, n], [m, n]
        channels, w_axis, acc_axis = n, 1, 1
        geometry = "M=%d K=%d N=%d" % (m, k, n)
    else:
        groups_kind = rng.choice(["dense", "grouped", "depthwise"])
        c = rng.choice([1, 2, 3, 4, 6]) if groups_kind == "dense" else rng.choice([2, 4, 6])
        groups = 1 if groups_kind == "dense" else (c if groups_kind == "depthwise" else 2)
        f = groups * rng.randint(1, 3)
        kh, kw = rng.randint(1, 3), rng.randint(1, 3)
        sh, sw = rng.randint(1, 2), rng.randint(1, 2)
        dh, dw = rng.randint(1, 2), rng.randint(1, 2)
        pads = [rng.randint(0, 2) for _ in range(4)]
        nb = rng.randint(1, 2)
        h = rng.randint(max(1, dh * (kh - 1) + 1 - pads[0] - pads[1]), 7)
        w = rng.randint(max(1, dw * (kw - 1) + 1 - pads[2] - pads[3]), 7)
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
    lines.append(requantize_text("%a", a_t, y_t, acc_shape, mode, clamp))

    name = "case_%d" % index
    mod.funcs.append("func.func @%s(%s) -> (tensor<%sx%s>, tensor<%sx%s>) {"
                     % (name, ", ".join(args), acc_s, a_t, acc_s, y_t))
    mod.funcs += lines
    mod.funcs.append("  return %%a, %%y : tensor<%sx%s>, tensor<%sx%s>" % (acc_s, a_t, acc_s, y_t))
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
    acc_v, y_v = mod.fresh(), mod.fresh()
    mod.main.append("  %s, %s = call @%s(%s) : (%s) -> (tensor<%sx%s>, tensor<%sx%s>)"
                    % (acc_v, y_v, name, ", ".join(call_args), ", ".join(call_types),
                       acc_s, a_t, acc_s, y_t))
    desc = ("seed %d case %d: %s %s, x %s z=%d, w %s %s %s (%s), bias %s, out %s z=%d "
            "M=%.6g rounding=%s clamp=%s" % (
                mod.seed, index, kind, geometry, x_st.spelling(), zx, w_st.spelling(),
                "per-channel" if per_channel else "per-tensor",
                "symmetric" if symmetric else "asymmetric", w_form, bias_kind,
                out_st.spelling(), zy, m, mode, clamp))
    mod.print_codes(acc_v, acc_shape, a_t, "i32", desc + " [accumulator]")
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


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--cases", type=int, default=50)
    parser.add_argument("--module", required=True, help="output .mlir")
    parser.add_argument("--labels", required=True, help="output labels .json")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    mod = Module(args.seed)
    for i in range(args.cases):
        r = rng.random()
        if r < 0.4:
            gen_layer(rng, mod, i, "matmul")
        elif r < 0.8:
            gen_layer(rng, mod, i, "conv2d")
        elif r < 0.9:
            gen_requantize(rng, mod, i)
        else:
            gen_quantize_roundtrip(rng, mod, i)
    with open(args.module, "w") as f:
        f.write(mod.text())
    with open(args.labels, "w") as f:
        json.dump(mod.labels, f, indent=0)


if __name__ == "__main__":
    main()
