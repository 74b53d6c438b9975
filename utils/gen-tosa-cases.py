#!/usr/bin/env python3
"""Random quantized TOSA 1.0 layers for the differential suite.

Writes one module: a function @case_N per layer (the layer's activations are
its arguments, weights and parameters are tosa.const) and a @main that calls
each with constant inputs and prints the result with printMemrefI8 / I16 /
I32. The same module is compiled by upstream's TOSA lowering
(tosa-to-linalg-pipeline, tosa-to-tensor, tosa-to-arith) and by
`quant-opt --tosa-to-llvm`; the two transcripts must be identical
(test/Conversion/TosaToQnt/differential-*.test).

Layers: conv2d / depthwise_conv2d / matmul followed by a rescale (per tensor
or per channel, SINGLE_ROUND or DOUBLE_ROUND, i8 output), an optional clamp,
u8 inputs and outputs through input_unsigned / output_unsigned rescales;
TFLite-style adds (rescale to i32, add, rescale back); avg_pool2d and
max_pool2d; reshape / transpose / concat; standalone 16-bit-multiplier
rescales between i8, i16 and i32. Every value stays inside TOSA's REQUIRE
ranges (|value| < 2^(shift-1) at each rescale), where TOSA defines the
result: outside them upstream wraps and we saturate.

--labels writes one label per printed tensor for utils/compare-outputs.py.
"""
import argparse
import json
import random
import sys

I8 = (-128, 127)
U8 = (0, 255)


def dense(values, shape, elem):
    """A dense literal of `values` (flat list) with `shape`."""
    def nest(vals, dims):
        if not dims:
            return str(vals[0])
        step = len(vals) // dims[0] if dims[0] else 0
        return "[" + ", ".join(nest(vals[i * step:(i + 1) * step], dims[1:])
                               for i in range(dims[0])) + "]"
    return "dense<%s> : %s" % (nest(values, list(shape)), ttype(shape, elem))


def wrap(value, elem):
    """`value` as the signed number with the same `elem` bit pattern."""
    bits = int(elem[1:])
    return value - (1 << bits) if value >= (1 << (bits - 1)) else value


def ttype(shape, elem):
    return "tensor<%s%s>" % ("".join("%dx" % d for d in shape), elem)


def prod(shape):
    p = 1
    for d in shape:
        p *= d
    return p


class Layer:
    """Builds the body of one @case function."""

    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.n = 0

    def fresh(self):
        self.n += 1
        return "%%v%d" % self.n

    def const(self, values, shape, elem):
        v = self.fresh()
        self.lines.append('%s = "tosa.const"() {values = %s} : () -> %s'
                          % (v, dense(values, shape, elem), ttype(shape, elem)))
        return v

    def op(self, text, result_type):
        v = self.fresh()
        self.lines.append("%s = %s -> %s" % (v, text, result_type))
        return v

    def rescale(self, x, shape, in_elem, out_elem, mults, shifts, izp, ozp,
                mode, per_channel, in_unsigned=False, out_unsigned=False,
                scale32=True):
        m = self.const(mults, [len(mults)], "i32" if scale32 else "i16")
        s = self.const(shifts, [len(shifts)], "i8")
        # Unsigned zero points are written as their signless bit pattern;
        # TOSA zero-extends them (input_unsigned / output_unsigned).
        zi = self.const([wrap(izp, in_elem)], [1], in_elem)
        zo = self.const([wrap(ozp, out_elem)], [1], out_elem)
        attrs = ("scale32 = %s, rounding_mode = %s, per_channel = %s, "
                 "input_unsigned = %s, output_unsigned = %s" % (
                     str(scale32).lower(), mode, str(per_channel).lower(),
                     str(in_unsigned).lower(), str(out_unsigned).lower()))
        return self.op(
            "tosa.rescale %s, %s, %s, %s, %s {%s} : (%s, %s, %s, %s, %s)" % (
                x, m, s, zi, zo, attrs, ttype(shape, in_elem),
                ttype([len(mults)], "i32" if scale32 else "i16"),
                ttype([len(shifts)], "i8"), ttype([1], in_elem),
                ttype([1], out_elem)),
            ttype(shape, out_elem))

    def clamp(self, x, shape, elem, lo, hi):
        return self.op(
            "tosa.clamp %s {min_val = %d : %s, max_val = %d : %s} : (%s)" % (
                x, lo, elem, hi, elem, ttype(shape, elem)),
            ttype(shape, elem))


def random_codes(rng, n, lo, hi):
    return [rng.randint(lo, hi) for _ in range(n)]


def pick_mode(rng):
    return rng.choice(["SINGLE_ROUND", "DOUBLE_ROUND"])


def requant_params(rng, channels, typical):
    """Q31 multipliers and shifts (> 31) that map |acc| ~ typical to ~64."""
    mults, shifts = [], []
    for _ in range(channels):
        target = 64.0 / max(typical, 1) * rng.uniform(0.5, 2.0)
        shift = 31
        m = target
        while m < 0.5 and shift < 62:
            m *= 2
            shift += 1
        r = rng.random()
        if r < 0.3:
            # 2^30 (or 3 * 2^28): products hit exact halves, where SINGLE_ROUND
            # and DOUBLE_ROUND part (ties of both signs).
            mults.append(rng.choice([1 << 30, 3 << 28]))
        elif r < 0.35:
            mults.append(rng.randint(0, 2 ** 31 - 1))
        else:
            mults.append(min(int(m * 2 ** 31), 2 ** 31 - 1))
        shifts.append(max(shift, 32))
    return mults, shifts


def u8_input_to_i8(layer, x, shape):
    """A u8 input (codes in an i8 tensor) moved to i8 by TOSA's
    'unsigned 8 to signed 8' rescale with M = 1."""
    rng = layer.rng
    izp = rng.randint(0, 255)
    ozp = rng.randint(-20, 20)
    return layer.rescale(x, shape, "i8", "i8", [1 << 30], [30], izp, ozp,
                         pick_mode(rng), False, in_unsigned=True)


def finish_i8(layer, y, shape, ozp, case):
    """Optional ReLU-style clamp and optional u8 output."""
    rng = layer.rng
    if rng.random() < 0.4:
        lo = rng.randint(-128, max(-128, min(ozp, 127)))
        hi = rng.randint(max(lo, 0), 127)
        y = layer.clamp(y, shape, "i8", lo, hi)
        case["clamp"] = [lo, hi]
    if rng.random() < 0.25:
        y = layer.rescale(y, shape, "i8", "i8", [1 << 30], [30], ozp,
                          rng.randint(100, 155), pick_mode(rng), False,
                          out_unsigned=True)
        case["u8_output"] = True
    return y


def gen_conv(rng, depthwise):
    layer = Layer(rng)
    n = rng.choice([1, 1, 2])
    c = rng.randint(1, 6)
    kh, kw = rng.randint(1, 3), rng.randint(1, 3)
    sh, sw = rng.randint(1, 2), rng.randint(1, 2)
    dh, dw = rng.choice([1, 1, 2]), rng.choice([1, 1, 2])
    pad = [rng.randint(0, kh - 1), rng.randint(0, kh - 1),
           rng.randint(0, kw - 1), rng.randint(0, kw - 1)]
    # Input sizes for which TOSA's output size divides exactly.
    def size(k, d, s, pa, pb):
        ext = (k - 1) * d + 1
        for _ in range(100):
            i = rng.randint(max(1, ext - pa - pb), 9)
            if (i + pa + pb - ext) % s == 0:
                return i, (i + pa + pb - ext) // s + 1
        return ext, 1
    ih, oh = size(kh, dh, sh, pad[0], pad[1])
    iw, ow = size(kw, dw, sw, pad[2], pad[3])
    if depthwise:
        mult = rng.randint(1, 3)
        wshape = [kh, kw, c, mult]
        f = c * mult
    else:
        f = rng.randint(1, 6)
        wshape = [f, kh, kw, c]
    xshape = [n, ih, iw, c]
    oshape = [n, oh, ow, f]
    unsigned_in = rng.random() < 0.3
    izp = rng.randint(-128, 127)
    wzp = 0 if rng.random() < 0.6 else rng.randint(-128, 127)
    case = {"op": "depthwise_conv2d" if depthwise else "conv2d",
            "input": xshape, "weight": wshape, "pad": pad,
            "stride": [sh, sw], "dilation": [dh, dw], "input_zp": izp,
            "weight_zp": wzp, "u8_input": unsigned_in}
    x = "%x"
    if unsigned_in:
        x = u8_input_to_i8(layer, x, xshape)
    w = layer.const(random_codes(rng, prod(wshape), -128, 127), wshape, "i8")
    b = layer.const(random_codes(rng, f, -5000, 5000), [f], "i32")
    zi = layer.const([izp], [1], "i8")
    zw = layer.const([wzp], [1], "i8")
    name = "tosa.depthwise_conv2d" if depthwise else "tosa.conv2d"
    acc = layer.op(
        "%s %s, %s, %s, %s, %s {acc_type = i32, pad = array<i64: %s>, "
        "stride = array<i64: %d, %d>, dilation = array<i64: %d, %d>} : "
        "(%s, %s, %s, %s, %s)" % (
            name, x, w, b, zi, zw, ", ".join(map(str, pad)), sh, sw, dh, dw,
            ttype(xshape, "i8"), ttype(wshape, "i8"), ttype([f], "i32"),
            ttype([1], "i8"), ttype([1], "i8")),
        ttype(oshape, "i32"))
    k = kh * kw * (1 if depthwise else c)
    per_channel = rng.random() < 0.5
    mults, shifts = requant_params(rng, f if per_channel else 1,
                                   (k ** 0.5) * 70 * 70)
    ozp = rng.randint(-30, 30)
    mode = pick_mode(rng)
    case.update(per_channel=per_channel, rounding=mode, output_zp=ozp)
    y = layer.rescale(acc, oshape, "i32", "i8", mults, shifts, 0, ozp, mode,
                      per_channel)
    y = finish_i8(layer, y, oshape, ozp, case)
    return layer, [(xshape, "i8", (U8 if unsigned_in else I8))], \
        (oshape, "i8"), case


def gen_matmul(rng):
    layer = Layer(rng)
    n, h, c, w = rng.randint(1, 2), rng.randint(1, 6), rng.randint(1, 24), \
        rng.randint(1, 8)
    azp = rng.randint(-128, 127)
    bzp = 0 if rng.random() < 0.6 else rng.randint(-128, 127)
    case = {"op": "matmul", "a": [n, h, c], "b": [n, c, w], "a_zp": azp,
            "b_zp": bzp}
    bconst = layer.const(random_codes(rng, n * c * w, -128, 127), [n, c, w],
                         "i8")
    za = layer.const([azp], [1], "i8")
    zb = layer.const([bzp], [1], "i8")
    acc = layer.op("tosa.matmul %%a, %s, %s, %s : (%s, %s, %s, %s)" % (
        bconst, za, zb, ttype([n, h, c], "i8"), ttype([n, c, w], "i8"),
        ttype([1], "i8"), ttype([1], "i8")), ttype([n, h, w], "i32"))
    per_channel = rng.random() < 0.5
    mults, shifts = requant_params(rng, w if per_channel else 1,
                                   (c ** 0.5) * 70 * 70)
    ozp = rng.randint(-30, 30)
    mode = pick_mode(rng)
    case.update(per_channel=per_channel, rounding=mode, output_zp=ozp)
    y = layer.rescale(acc, [n, h, w], "i32", "i8", mults, shifts, 0, ozp,
                      mode, per_channel)
    y = finish_i8(layer, y, [n, h, w], ozp, case)
    return layer, [([n, h, c], "i8", I8)], ([n, h, w], "i8"), case


def gen_add(rng):
    """TFLite's TOSA legalization of a quantized add."""
    layer = Layer(rng)
    shape = [1, rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 8)]
    bshape = list(shape) if rng.random() < 0.6 else [1, 1, 1, shape[3]]
    fused = rng.random() < 0.8
    mode = pick_mode(rng)
    modes = [mode] * 3 if fused else [pick_mode(rng) for _ in range(3)]
    case = {"op": "add", "a": shape, "b": bshape, "rounding": modes,
            "fused": fused}
    xs = []
    for name, shp, m in (("%a", shape, modes[0]), ("%b", bshape, modes[1])):
        unsigned = rng.random() < 0.2
        zp = rng.randint(0, 255) if unsigned else rng.randint(-128, 127)
        # value * mult / 2^s with s in [11, 22]: |.| < 2^29. Unfused: shifts
        # above 31 with independent roundings, which one qnt.int_add cannot
        # take: the rescales convert, the i32 tosa.add stays for upstream's
        # lowering in the same module.
        s = rng.randint(11, 22) if fused else rng.randint(32, 35)
        mult = rng.choice([1 << 30, rng.randint(1 << 30, (1 << 31) - 1)])
        xs.append(layer.rescale(name, shp, "i8", "i32", [mult], [s], zp, 0, m,
                                False, in_unsigned=unsigned))
        case.setdefault("inputs", []).append(
            {"zp": zp, "multiplier": mult, "shift": s, "u8": unsigned})
    total = layer.op("tosa.add %s, %s : (%s, %s)" % (
        xs[0], xs[1], ttype(shape, "i32"), ttype(bshape, "i32")),
        ttype(shape, "i32"))
    sum_shift = max(i["shift"] for i in case["inputs"])
    so = (rng.randint(sum_shift + 19, min(sum_shift + 24, 62)) if fused
          else rng.randint(29, 33))
    mo = rng.choice([1 << 30, rng.randint(1 << 30, (1 << 31) - 1)])
    ozp = rng.randint(-20, 20)
    out_unsigned = rng.random() < 0.2
    if out_unsigned:
        ozp = rng.randint(100, 155)
    case.update(output_multiplier=mo, output_shift=so, output_zp=ozp,
                u8_output=out_unsigned)
    y = layer.rescale(total, shape, "i32", "i8", [mo], [so], 0, ozp, modes[2],
                      False, out_unsigned=out_unsigned)
    return layer, [(shape, "i8", I8), (bshape, "i8", I8)], (shape, "i8"), case


def gen_pool(rng, average):
    layer = Layer(rng)
    c = rng.randint(1, 8)
    k = [rng.randint(1, 3), rng.randint(1, 3)]
    s = [rng.randint(1, 2), rng.randint(1, 2)]
    pad = [rng.randint(0, k[0] - 1), rng.randint(0, k[0] - 1),
           rng.randint(0, k[1] - 1), rng.randint(0, k[1] - 1)]
    dims = []
    for d in range(2):
        for _ in range(100):
            i = rng.randint(max(1, k[d] - pad[2 * d] - pad[2 * d + 1]), 9)
            if (i + pad[2 * d] + pad[2 * d + 1] - k[d]) % s[d] == 0:
                break
        dims.append((i, (i + pad[2 * d] + pad[2 * d + 1] - k[d]) // s[d] + 1))
    xshape = [1, dims[0][0], dims[1][0], c]
    oshape = [1, dims[0][1], dims[1][1], c]
    attrs = "kernel = array<i64: %d, %d>, stride = array<i64: %d, %d>, " \
            "pad = array<i64: %s>" % (k[0], k[1], s[0], s[1],
                                       ", ".join(map(str, pad)))
    case = {"op": "avg_pool2d" if average else "max_pool2d",
            "input": xshape, "kernel": k, "stride": s, "pad": pad}
    if average:
        izp, ozp = rng.randint(-128, 127), rng.randint(-128, 127)
        if rng.random() < 0.3:
            ozp = izp
        zi = layer.const([izp], [1], "i8")
        zo = layer.const([ozp], [1], "i8")
        layer.op("tosa.avg_pool2d %%x, %s, %s {%s, acc_type = i32} : "
                 "(%s, %s, %s)" % (zi, zo, attrs, ttype(xshape, "i8"),
                                   ttype([1], "i8"), ttype([1], "i8")),
                 ttype(oshape, "i8"))
        case.update(input_zp=izp, output_zp=ozp)
    else:
        layer.op("tosa.max_pool2d %%x {%s} : (%s)" % (attrs,
                                                      ttype(xshape, "i8")),
                 ttype(oshape, "i8"))
    return layer, [(xshape, "i8", I8)], (oshape, "i8"), case


def gen_shapes(rng):
    """transpose -> reshape -> concat with a constant."""
    layer = Layer(rng)
    shape = [rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)]
    perm = list(range(3))
    rng.shuffle(perm)
    tshape = [shape[p] for p in perm]
    t = layer.op("tosa.transpose %%x {perms = array<i32: %s>} : (%s)" % (
        ", ".join(map(str, perm)), ttype(shape, "i8")), ttype(tshape, "i8"))
    total = prod(shape)
    rshape = [total // tshape[2], tshape[2]]
    sh = layer.fresh()
    layer.lines.append("%s = tosa.const_shape {values = dense<[%d, %d]> : "
                       "tensor<2xindex>} : () -> !tosa.shape<2>"
                       % (sh, rshape[0], rshape[1]))
    r = layer.op("tosa.reshape %s, %s : (%s, !tosa.shape<2>)" % (
        t, sh, ttype(tshape, "i8")), ttype(rshape, "i8"))
    extra = rng.randint(1, 3)
    cshape = [extra, rshape[1]]
    k = layer.const(random_codes(rng, prod(cshape), -128, 127), cshape, "i8")
    layer.op("tosa.concat %s, %s {axis = 0 : i32} : (%s, %s)" % (
        r, k, ttype(rshape, "i8"), ttype(cshape, "i8")),
        ttype([rshape[0] + extra, rshape[1]], "i8"))
    case = {"op": "transpose+reshape+concat", "input": shape, "perm": perm}
    return layer, [(shape, "i8", I8)], ([rshape[0] + extra, rshape[1]], "i8"), \
        case


def gen_rescale16(rng):
    """Rescales with a 16-bit multiplier (scale32 = false, SINGLE_ROUND)
    between i8, i16 and i32; inputs inside |v| < 2^(shift-1)."""
    layer = Layer(rng)
    in_elem, out_elem = rng.choice([("i8", "i16"), ("i16", "i8"),
                                    ("i16", "i16"), ("i32", "i16"),
                                    ("i8", "i32")])
    shape = [rng.randint(1, 3), rng.randint(1, 8)]
    per_channel = rng.random() < 0.5
    ch = shape[-1] if per_channel else 1
    in_range = {"i8": I8, "i16": (-32768, 32767),
                "i32": (-(1 << 24), 1 << 24)}[in_elem]
    izp = rng.randint(-100, 100) if in_elem == "i8" else 0
    mults = [rng.randint(0, 32767) for _ in range(ch)]
    # Keep the result near the output range and the input inside
    # |v| < 2^(s-1).
    out_bits = {"i8": 8, "i16": 16, "i32": 31}[out_elem]
    in_bits = {"i8": 9, "i16": 16, "i32": 25}[in_elem]
    shifts = [max(in_bits + 1, min(62, 15 + in_bits - out_bits +
                                   rng.randint(-2, 3))) for _ in range(ch)]
    ozp = rng.randint(-50, 50) if out_elem == "i8" else 0
    case = {"op": "rescale16", "in": in_elem, "out": out_elem,
            "multipliers": mults, "shifts": shifts, "input_zp": izp,
            "output_zp": ozp}
    layer.rescale("%x", shape, in_elem, out_elem, mults, shifts, izp, ozp,
                  "SINGLE_ROUND", per_channel, scale32=False)
    return layer, [(shape, in_elem, in_range)], (shape, out_elem), case


def gen_rescale_ties(rng):
    """An i32 rescale with M = 2^-(k+1), k in [2, 6]: one value in 2^(k+1) is an
    exact tie, where SINGLE_ROUND (ties up) and DOUBLE_ROUND (ties away from
    zero) part for negative values."""
    layer = Layer(rng)
    shape = [1, 16]
    k = rng.randint(2, 6)
    mode = pick_mode(rng)
    ozp = rng.randint(-20, 20)
    case = {"op": "rescale_ties", "shift": 30 + k + 1, "rounding": mode,
            "output_zp": ozp}
    layer.rescale("%x", shape, "i32", "i8", [1 << 30], [31 + k], 0, ozp, mode,
                  False)
    return layer, [(shape, "i32", (-(100 << k), 100 << k))], (shape, "i8"), \
        case


GENERATORS = [
    (gen_rescale_ties, 1),
    (lambda r: gen_conv(r, False), 4),
    (lambda r: gen_conv(r, True), 2),
    (gen_matmul, 3),
    (gen_add, 3),
    (lambda r: gen_pool(r, True), 2),
    (lambda r: gen_pool(r, False), 1),
    (gen_shapes, 1),
    (gen_rescale16, 2),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cases", type=int, default=20)
    parser.add_argument("--module", required=True)
    parser.add_argument("--labels")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    funcs, calls, labels = [], [], []
    printers = set()
    weighted = [g for g, w in GENERATORS for _ in range(w)]
    arg_names = {1: ["%x"], 2: ["%a", "%b"]}
    for i in range(args.cases):
        layer, inputs, (oshape, oelem), case = rng.choice(weighted)(rng)
        names = arg_names[len(inputs)]
        if case["op"] == "matmul":
            names = ["%a"]
        params = ", ".join("%s: %s" % (nm, ttype(s, e))
                           for nm, (s, e, _) in zip(names, inputs))
        result = layer.lines[-1].split(" = ")[0]
        funcs.append("func.func @case_%d(%s) -> %s {\n  %s\n  return %s : %s\n}"
                     % (i, params, ttype(oshape, oelem),
                        "\n  ".join(layer.lines), result,
                        ttype(oshape, oelem)))
        operands = []
        for j, (s, e, (lo, hi)) in enumerate(inputs):
            vals = random_codes(rng, prod(s), lo, hi)
            if e == "i8":
                vals = [v - 256 if v > 127 else v for v in vals]
            calls.append("%%in%d_%d = arith.constant %s" % (i, j,
                                                          dense(vals, s, e)))
            operands.append("%%in%d_%d" % (i, j))
        calls.append("%%out%d = call @case_%d(%s) : (%s) -> %s" % (
            i, i, ", ".join(operands), ", ".join(ttype(s, e)
                                                 for s, e, _ in inputs),
            ttype(oshape, oelem)))
        printer = {"i8": "printMemrefI8", "i16": "printMemrefI16",
                   "i32": "printMemrefI32"}[oelem]
        printers.add((printer, oelem))
        calls.append("%%u%d = tensor.cast %%out%d : %s to tensor<*x%s>" % (
            i, i, ttype(oshape, oelem), oelem))
        calls.append("call @%s(%%u%d) : (tensor<*x%s>) -> ()" % (printer, i,
                                                                oelem))
        case["seed"] = args.seed
        case["case"] = i
        labels.append(json.dumps(case, sort_keys=True))

    with open(args.module, "w") as f:
        f.write("// Generated by utils/gen-tosa-cases.py --seed %d --cases %d\n"
                % (args.seed, args.cases))
        f.write("\n\n".join(funcs))
        f.write("\n\nfunc.func @main() {\n  %s\n  return\n}\n" % "\n  ".join(
            calls))
        for printer, elem in sorted(printers):
            f.write("func.func private @%s(tensor<*x%s>)\n" % (printer, elem))
    if args.labels:
        with open(args.labels, "w") as f:
            json.dump(labels, f, indent=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
