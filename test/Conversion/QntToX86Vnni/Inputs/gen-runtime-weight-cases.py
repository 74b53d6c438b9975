#!/usr/bin/env python3
"""Matmuls whose weights are a run-time argument, for the VNNI kernel that
packs them at run time.

Public ops only; the golden values come from the reference model. Shapes hit
the packing's remainders: K not a multiple of 4 (a last group with 1 to 3
real rows), N not a multiple of 16 or 64 (a tail tile of 1 to 3 vectors, a
partial last vector), K long enough for several K blocks. Activations are s8
or u8 with zero points at the ends of their range (the run-time column-sum
correction), weights s8 (the s8 operand), u8 with zero point 0 (the u8
operand) or with nonzero, per-channel zero points (moved out by
qnt-symmetric-weights, then packed as the u8 operand), codes at the ends of
their range, bias constant, run-time or absent.

The module's @main prints every accumulator with printMemrefI32.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "utils"))
from mlir_literals import nested, bits8  # noqa: E402

SHAPES = [  # M, K, N
    (1, 1, 1), (3, 5, 7), (4, 64, 64), (7, 13, 70), (9, 130, 130),
    (5, 600, 20), (2, 1030, 48), (6, 3, 200), (16, 256, 256), (1, 1024, 33),
]


def gen_case(rng, index, shape, funcs, main):
    m, k, n = shape
    x_unsigned = index % 2 == 1
    xlo, xhi = (0, 255) if x_unsigned else (-128, 127)
    zx = rng.choice([xlo, xhi, rng.randint(xlo, xhi)])
    x_t = "!quant.uniform<%s:f32, 5.000000e-01:%d>" % (
        "u8" if x_unsigned else "i8", zx)
    kind = rng.choice(["s8", "u8", "u8-zp"])
    per_channel = kind == "u8-zp" and rng.random() < 0.5
    if kind == "s8":
        storage, wlo, whi, zws = rng.choice(["i8", "i8<-127:127>"]), -128, 127, [0]
        if storage.startswith("i8<"):
            wlo = -127
    elif kind == "u8":
        storage, wlo, whi, zws = "u8", 0, 255, [0]
    else:
        storage, wlo, whi = "u8", 0, 255
        zws = ([rng.choice([1, 128, 255]) for _ in range(n)] if per_channel
               else [rng.choice([1, 128, 255])])
    if per_channel:
        w_t = "!quant.uniform<u8:f32:1, {%s}>" % ", ".join(
            "2.500000e-01:%d" % z for z in zws)
        a_t = "!quant.uniform<i32:f32:1, {%s}>" % ", ".join(["1.250000e-01"] * n)
        b_t = "!quant.uniform<i32:f32:0, {%s}>" % ", ".join(["1.250000e-01"] * n)
    else:
        w_t = "!quant.uniform<%s:f32, 2.500000e-01:%d>" % (storage, zws[0])
        a_t = b_t = "!quant.uniform<i32:f32, 1.250000e-01>"
    bias_kind = rng.choice(["const", "runtime", "none"])
    name = "case_%d" % index
    args = ["%%x: tensor<%dx%dx%s>" % (m, k, x_t), "%%w: tensor<%dx%dx%s>" % (k, n, w_t)]
    if bias_kind == "runtime":
        args.append("%%b: tensor<%dx%s>" % (n, b_t))
    lines = ["func.func @%s(%s) -> tensor<%dx%dx%s> {" % (name, ", ".join(args), m, n, a_t)]
    bias = [rng.randint(-100000, 100000) for _ in range(n)]
    if bias_kind == "const":
        lines.append("  %%b = qnt.constant dense<%s> : tensor<%dxi32> -> tensor<%dx%s>"
                     % (nested(bias, [n]), n, n, b_t))
    operands = "%x, %w" + (", %b" if bias_kind != "none" else "")
    types = "tensor<%dx%dx%s>, tensor<%dx%dx%s>" % (m, k, x_t, k, n, w_t)
    if bias_kind != "none":
        types += ", tensor<%dx%s>" % (n, b_t)
    lines.append("  %%a = qnt.matmul %s : %s -> tensor<%dx%dx%s>" % (operands, types, m, n, a_t))
    lines += ["  return %%a : tensor<%dx%dx%s>" % (m, n, a_t), "}", ""]
    funcs.append("\n".join(lines))

    xv = [rng.randint(xlo, xhi) for _ in range(m * k)]
    xv[0], xv[-1] = xlo, xhi
    wv = [rng.randint(wlo, whi) for _ in range(k * n)]
    wv[0], wv[-1] = wlo, whi
    v = "%%v%d_" % index
    main.append("  %sxr = arith.constant dense<%s> : tensor<%dx%dxi8>"
                % (v, nested([bits8(t) for t in xv], [m, k]), m, k))
    main.append("  %sx = quant.scast %sxr : tensor<%dx%dxi8> to tensor<%dx%dx%s>"
                % (v, v, m, k, m, k, x_t))
    main.append("  %swr = arith.constant dense<%s> : tensor<%dx%dxi8>"
                % (v, nested([bits8(t) for t in wv], [k, n]), k, n))
    main.append("  %sw = quant.scast %swr : tensor<%dx%dxi8> to tensor<%dx%dx%s>"
                % (v, v, k, n, k, n, w_t))
    call_args = ["%sx" % v, "%sw" % v]
    call_types = ["tensor<%dx%dx%s>" % (m, k, x_t), "tensor<%dx%dx%s>" % (k, n, w_t)]
    if bias_kind == "runtime":
        main.append("  %sbr = arith.constant dense<%s> : tensor<%dxi32>"
                    % (v, nested(bias, [n]), n))
        main.append("  %sb = quant.scast %sbr : tensor<%dxi32> to tensor<%dx%s>"
                    % (v, v, n, n, b_t))
        call_args.append("%sb" % v)
        call_types.append("tensor<%dx%s>" % (n, b_t))
    main.append("  %sa = call @%s(%s) : (%s) -> tensor<%dx%dx%s>"
                % (v, name, ", ".join(call_args), ", ".join(call_types), m, n, a_t))
    main.append("  %sai = quant.scast %sa : tensor<%dx%dx%s> to tensor<%dx%dxi32>"
                % (v, v, m, n, a_t, m, n))
    main.append("  %sam = bufferization.to_buffer %sai : tensor<%dx%dxi32> to memref<%dx%dxi32>"
                % (v, v, m, n, m, n))
    main.append("  %sau = memref.cast %sam : memref<%dx%dxi32> to memref<*xi32>"
                % (v, v, m, n))
    main.append("  call @printMemrefI32(%sau) : (memref<*xi32>) -> ()" % v)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--module", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    funcs, body = [], []
    for index, shape in enumerate(SHAPES + SHAPES):
        gen_case(rng, index, shape, funcs, body)
    head = ["// Generated by gen-runtime-weight-cases.py; do not edit.",
            "func.func private @printMemrefI32(memref<*xi32>)", ""]
    with open(args.module, "w") as f:
        f.write("\n".join(head + funcs + ["func.func @main() {"] + body
                          + ["  return", "}", ""]))


if __name__ == "__main__":
    main()
