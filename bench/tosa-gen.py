#!/usr/bin/env python3
"""The TOSA rows of the benchmark (bench/tosa-bench.sh).

Writes one TOSA module with an int8 matmul (64 x 1024 x 1024) and a 3x3
conv (1 x 56 x 56 x 64 -> 64, padding 1), each with constant weights and a
per-channel DOUBLE_ROUND rescale to i8, under the function names
PREFIX_matmul and PREFIX_conv, and writes the data the driver needs (inputs,
weights in oneDNN's layout, zero points) as a C header. The same module is
compiled by upstream's TOSA pipeline and by quant-opt --tosa-to-llvm.
"""
import argparse

M, K, N = 64, 1024, 1024
H, W, C, F = 56, 56, 64, 64
ZX, ZW, ZY = 5, 0, -3
SHIFT = 43  # |acc| up to ~2^22 -> ~2^10 * M0/2^31: saturates rarely


def lcg(seed):
    x = seed
    while True:
        x = (1664525 * x + 1013904223) & 0xFFFFFFFF
        yield x


def codes(n, seed, lo=-128, hi=127):
    g = lcg(seed)
    return [lo + next(g) % (hi - lo + 1) for _ in range(n)]


def hexdata(values, bytes_per):
    out = []
    for v in values:
        out.append((v & ((1 << (8 * bytes_per)) - 1)).to_bytes(bytes_per,
                                                             "little").hex())
    return '"0x' + "".join(out) + '"'


def tosa_const(name, values, shape, elem, bytes_per):
    shp = "x".join(map(str, shape))
    return ('  %%%s = "tosa.const"() {values = dense<%s> : tensor<%sx%s>} : '
            "() -> tensor<%sx%s>\n" % (name, hexdata(values, bytes_per), shp,
                                       elem, shp, elem))


def rescale(src, shape, channels, mults, prefix):
    shp = "x".join(map(str, shape))
    s = tosa_const("m", mults, [channels], "i32", 4)
    s += tosa_const("s", [SHIFT] * channels, [channels], "i8", 1)
    s += '  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>\n'
    s += ('  %%zy = "tosa.const"() {values = dense<%d> : tensor<1xi8>} : () -> '
          "tensor<1xi8>\n" % ZY)
    s += ("  %%y = tosa.rescale %s, %%m, %%s, %%z32, %%zy {scale32 = true, "
          "rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = "
          "false, output_unsigned = false} : (tensor<%sxi32>, tensor<%dxi32>, "
          "tensor<%dxi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<%sxi8>\n"
          % (src, shp, channels, channels, shp))
    return s


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--prefix", action="append", required=True)
    p.add_argument("--module", required=True)
    p.add_argument("--header")
    args = p.parse_args()

    wm = codes(K * N, 1)                        # B: K x N
    wc = codes(F * 3 * 3 * C, 2)                # OHWI
    bias = codes(F, 3, -20000, 20000)
    mults_m = [(1 << 30) + v for v in codes(N, 4, 0, (1 << 30) - 1)]
    mults_c = [(1 << 30) + v for v in codes(F, 5, 0, (1 << 30) - 1)]

    text = ""
    for prefix in args.prefix:
        text += ("func.func @%s_matmul(%%a: tensor<1x%dx%dxi8>) -> tensor<1x%dx%dxi8>"
                 " attributes {llvm.emit_c_interface} {\n" % (prefix, M, K, M, N))
        text += tosa_const("b", wm, [1, K, N], "i8", 1)
        text += ('  %%za = "tosa.const"() {values = dense<%d> : tensor<1xi8>} : () -> tensor<1xi8>\n' % ZX)
        text += ('  %%zb = "tosa.const"() {values = dense<%d> : tensor<1xi8>} : () -> tensor<1xi8>\n' % ZW)
        text += ("  %%acc = tosa.matmul %%a, %%b, %%za, %%zb : (tensor<1x%dx%dxi8>, "
                 "tensor<1x%dx%dxi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x%dx%dxi32>\n"
                 % (M, K, K, N, M, N))
        text += rescale("%acc", [1, M, N], N, mults_m, prefix)
        text += "  return %%y : tensor<1x%dx%dxi8>\n}\n\n" % (M, N)

        text += ("func.func @%s_conv(%%x: tensor<1x%dx%dx%dxi8>) -> "
                 "tensor<1x%dx%dx%dxi8> attributes {llvm.emit_c_interface} {\n"
                 % (prefix, H, W, C, H, W, F))
        text += tosa_const("w", wc, [F, 3, 3, C], "i8", 1)
        text += tosa_const("bias", bias, [F], "i32", 4)
        text += ('  %%zx = "tosa.const"() {values = dense<%d> : tensor<1xi8>} : () -> tensor<1xi8>\n' % ZX)
        text += ('  %%zw = "tosa.const"() {values = dense<%d> : tensor<1xi8>} : () -> tensor<1xi8>\n' % ZW)
        text += ("  %%acc = tosa.conv2d %%x, %%w, %%bias, %%zx, %%zw {acc_type = i32, "
                 "pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, "
                 "dilation = array<i64: 1, 1>} : (tensor<1x%dx%dx%dxi8>, "
                 "tensor<%dx3x3x%dxi8>, tensor<%dxi32>, tensor<1xi8>, tensor<1xi8>) "
                 "-> tensor<1x%dx%dx%dxi32>\n" % (H, W, C, F, C, F, H, W, F))
        text += rescale("%acc", [1, H, W, F], F, mults_c, prefix)
        text += "  return %%y : tensor<1x%dx%dx%dxi8>\n}\n\n" % (H, W, F)
    with open(args.module, "w") as f:
        f.write(text)

    if args.header:
        def arr(name, ctype, values):
            return "static const %s %s[%d] = {%s};\n" % (
                ctype, name, len(values), ",".join(map(str, values)))
        # Weights for oneDNN: matmul K x N as is; conv OHWI -> HWCF.
        hwcf = [0] * len(wc)
        for f_ in range(F):
            for kh in range(3):
                for kw in range(3):
                    for c in range(C):
                        hwcf[((kh * 3 + kw) * C + c) * F + f_] = \
                            wc[((f_ * 3 + kh) * 3 + kw) * C + c]
        with open(args.header, "w") as f:
            f.write("// Generated by bench/tosa-gen.py\n#pragma once\n#include <cstdint>\n")
            f.write("constexpr int kM = %d, kK = %d, kN = %d;\n" % (M, K, N))
            f.write("constexpr int kH = %d, kW = %d, kC = %d, kF = %d;\n" % (H, W, C, F))
            f.write("constexpr int32_t kZx = %d, kZy = %d, kShift = %d;\n" % (ZX, ZY, SHIFT))
            f.write(arr("kMatmulWeights", "int8_t", wm))
            f.write(arr("kConvWeightsHwcf", "int8_t", hwcf))
            f.write(arr("kConvBias", "int32_t", bias))
            f.write(arr("kMatmulMultipliers", "int32_t", mults_m))
            f.write(arr("kConvMultipliers", "int32_t", mults_c))


if __name__ == "__main__":
    main()
