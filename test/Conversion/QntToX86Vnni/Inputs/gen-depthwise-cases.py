#!/usr/bin/env python3
"""Depthwise conv + requantize cases for the x86 depthwise kernel.

Public ops only (qnt.conv2d with groups = C, then qnt.requantize); the golden
values come from the reference model (quant-ref-run). The shapes hit every
part of the kernel: channel counts that are not a multiple of 16 or 8 (a tail
vector, or only a partial one), rows and columns that read the padding on one
side, both or neither, W tiles with remainders, strides, dilations, batches,
and windows larger than the input. The quantization parameters hit the edge
values: input and output zero points at the ends of their storage range,
per-channel weight scales and zero points (per-channel multipliers), output
scales that make M >= 1 (saturation), every rounding mode and a clamp.

The module's @main prints every result with printMemrefI8 / printMemrefU8.
"""
import argparse
import os
import random
import sys
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "utils"))
from mlir_literals import shape_str, nested, bits8, out_size  # noqa: E402

CASES = [  # N, H, W, C, KH, KW, strides, dilations, padding
    (1, 10, 20, 16, 3, 3, (1, 1), (1, 1), (1, 1, 1, 1)),
    (1, 9, 13, 20, 3, 3, (1, 1), (1, 1), (1, 1, 1, 1)),
    (2, 7, 11, 3, 3, 3, (2, 2), (1, 1), (1, 1, 1, 1)),
    (1, 8, 17, 33, 5, 5, (1, 1), (1, 1), (2, 2, 2, 2)),
    (1, 9, 9, 8, 3, 3, (1, 2), (2, 1), (2, 0, 0, 1)),
    (1, 3, 4, 17, 5, 5, (1, 1), (1, 1), (2, 2, 2, 2)),
    (1, 6, 30, 64, 3, 3, (1, 1), (1, 1), (0, 0, 0, 0)),
    (1, 12, 12, 24, 1, 1, (1, 1), (1, 1), (0, 0, 0, 0)),
    (1, 5, 19, 1, 3, 2, (1, 3), (1, 1), (1, 0, 1, 2)),
    (1, 14, 14, 48, 3, 3, (2, 2), (1, 1), (0, 1, 0, 1)),
]
MODES = ["double", "single", "away", "half_even", "float"]
W_SCALES = ["0.0123", "0.0371", "0.125", "0.00977", "0.0518", "0.2"]


def zero_point(rng, unsigned):
    lo, hi = (0, 255) if unsigned else (-128, 127)
    return rng.choice([lo, hi, rng.randint(lo, hi)])


def gen_case(rng, index, case, funcs, main):
    b, h, w, c, kh, kw, strides, dils, pad = case
    oh = out_size(h, kh, strides[0], dils[0], pad[0], pad[1])
    ow = out_size(w, kw, strides[1], dils[1], pad[2], pad[3])
    x_unsigned = rng.random() < 0.5
    y_unsigned = rng.random() < 0.5
    zx = zero_point(rng, x_unsigned)
    x_t = "!quant.uniform<%s:f32, 5.000000e-01:%d>" % (
        "u8" if x_unsigned else "i8", zx)
    per_channel = rng.random() < 0.6
    w_unsigned = rng.random() < 0.3
    scales = ([rng.choice(W_SCALES) for _ in range(c)] if per_channel
              else [rng.choice(W_SCALES)])
    if w_unsigned:
        zws = [rng.choice([0, 255, rng.randint(0, 255)]) for _ in scales]
        storage, wlo, whi = "u8", 0, 255
    else:
        zws = [0] * len(scales)
        storage, wlo, whi = rng.choice([("i8", -128, 127),
                                        ("i8<-127:127>", -127, 127)])
    acc_scales = [str(Decimal(s) / 2) for s in scales]
    if per_channel:
        w_t = "!quant.uniform<%s:f32:3, {%s}>" % (
            storage, ", ".join("%s:%d" % (s, z) for s, z in zip(scales, zws)))
        a_t = "!quant.uniform<i32:f32:3, {%s}>" % ", ".join(acc_scales)
        b_t = "!quant.uniform<i32:f32:0, {%s}>" % ", ".join(acc_scales)
    else:
        w_t = "!quant.uniform<%s:f32, %s:%d>" % (storage, scales[0], zws[0])
        a_t = b_t = "!quant.uniform<i32:f32, %s>" % acc_scales[0]
    # Output scale: M from about 0.001 (fine rounding) to about 3 (most
    # results saturate).
    sy = rng.choice(["0.0021", "0.0173", "0.05", "0.25", "0.8"])
    zy = zero_point(rng, y_unsigned)
    y_t = "!quant.uniform<%s:f32, %s:%d>" % ("u8" if y_unsigned else "i8", sy, zy)
    mode = MODES[index % len(MODES)]
    clamp = ""
    if rng.random() < 0.3:
        hi = 200 if y_unsigned else 100
        lo = min(zy, hi) if rng.random() < 0.5 else (0 if y_unsigned else -128)
        clamp = ", clamp = array<i64: %d, %d>" % (lo, hi)
    bias_kind = rng.choice(["const", "runtime", "none"])

    xs, os_ = shape_str([b, h, w, c]), shape_str([b, oh, ow, c])
    ws = shape_str([kh, kw, 1, c])
    name = "case_%d" % index
    args = ["%%x: tensor<%sx%s>" % (xs, x_t)]
    if bias_kind == "runtime":
        args.append("%%b: tensor<%dx%s>" % (c, b_t))
    wv = [rng.randint(wlo, whi) for _ in range(kh * kw * c)]
    # Extreme weights somewhere, so that |w - zw| reaches 255.
    wv[0], wv[-1] = wlo, whi
    lines = ["func.func @%s(%s) -> tensor<%sx%s> {" % (name, ", ".join(args), os_, y_t),
             "  %%w = qnt.constant dense<%s> : tensor<%sx%s> -> tensor<%sx%s>"
             % (nested(wv, [kh, kw, 1, c]), ws, "ui8" if w_unsigned else "i8", ws, w_t)]
    bias = [rng.randint(-200000, 200000) for _ in range(c)]
    if bias_kind == "const":
        lines.append("  %%b = qnt.constant dense<%s> : tensor<%dxi32> -> tensor<%dx%s>"
                     % (nested(bias, [c]), c, c, b_t))
    operands = "%x, %w" + (", %b" if bias_kind != "none" else "")
    types = "tensor<%sx%s>, tensor<%sx%s>" % (xs, x_t, ws, w_t)
    if bias_kind != "none":
        types += ", tensor<%dx%s>" % (c, b_t)
    attrs = ("{strides = array<i64: %d, %d>, dilations = array<i64: %d, %d>, "
             "padding = array<i64: %d, %d, %d, %d>, groups = %d : i64}"
             % (strides + dils + pad + (c,)))
    lines.append("  %%a = qnt.conv2d %s %s : %s -> tensor<%sx%s>"
                 % (operands, attrs, types, os_, a_t))
    lines.append("  %%y = qnt.requantize %%a {rounding = \"%s\"%s} : tensor<%sx%s> -> tensor<%sx%s>"
                 % (mode, clamp, os_, a_t, os_, y_t))
    lines += ["  return %%y : tensor<%sx%s>" % (os_, y_t), "}", ""]
    funcs.append("\n".join(lines))

    lo, hi = (0, 255) if x_unsigned else (-128, 127)
    xv = [rng.randint(lo, hi) for _ in range(b * h * w * c)]
    xv[0], xv[-1] = lo, hi
    v = "%%v%d_" % index
    main.append("  %sxr = arith.constant dense<%s> : tensor<%sxi8>"
                % (v, nested([bits8(t) for t in xv], [b, h, w, c]), xs))
    main.append("  %sx = quant.scast %sxr : tensor<%sxi8> to tensor<%sx%s>"
                % (v, v, xs, xs, x_t))
    call_args, call_types = ["%sx" % v], ["tensor<%sx%s>" % (xs, x_t)]
    if bias_kind == "runtime":
        main.append("  %sbr = arith.constant dense<%s> : tensor<%dxi32>"
                    % (v, nested(bias, [c]), c))
        main.append("  %sb = quant.scast %sbr : tensor<%dxi32> to tensor<%dx%s>"
                    % (v, v, c, c, b_t))
        call_args.append("%sb" % v)
        call_types.append("tensor<%dx%s>" % (c, b_t))
    main.append("  %sy = call @%s(%s) : (%s) -> tensor<%sx%s>"
                % (v, name, ", ".join(call_args), ", ".join(call_types), os_, y_t))
    main.append("  %syi = quant.scast %sy : tensor<%sx%s> to tensor<%sxi8>"
                % (v, v, os_, y_t, os_))
    main.append("  %sym = bufferization.to_buffer %syi : tensor<%sxi8> to memref<%sxi8>"
                % (v, v, os_, os_))
    main.append("  %syu = memref.cast %sym : memref<%sxi8> to memref<*xi8>"
                % (v, v, os_))
    main.append("  call @printMemref%s(%syu) : (memref<*xi8>) -> ()"
                % ("U8" if y_unsigned else "I8", v))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--module", required=True)
    parser.add_argument("--target-chip", default=None,
                        help="wrap the functions in a module whose llvm.target "
                        "is x86_64-unknown-linux-gnu with this CPU")
    parser.add_argument("--target-features", default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    funcs, body = [], []
    index = 0
    for repeat in range(2):
        for case in CASES:
            gen_case(rng, index, case, funcs, body)
            index += 1
    head = ["// Generated by gen-depthwise-cases.py; do not edit.",
            "func.func private @printMemrefI8(memref<*xi8>)",
            "func.func private @printMemrefU8(memref<*xi8>)", ""]
    text = "\n".join(head + funcs + ["func.func @main() {"] + body
                     + ["  return", "}", ""])
    if args.target_chip:
        target = 'triple = "x86_64-unknown-linux-gnu", chip = "%s"' % args.target_chip
        if args.target_features:
            target += ', features = <["%s"]>' % args.target_features
        text = ("module attributes {llvm.target = #llvm.target<%s>} {\n%s}\n"
                % (target, text))
    with open(args.module, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
