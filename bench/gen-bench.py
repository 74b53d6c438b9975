#!/usr/bin/env python3
"""Writes the benchmark module (public qnt ops) and a header with its shapes.

The weights and biases come from the 32-bit LCG below; bench/driver.cpp runs
the same generator to build the inputs of its plain C loops, so both sides
compute the same function and their outputs are compared bit for bit.

Quantization parameters (all per tensor, powers of two so that the
requantization multiplier is exact: M = S_acc / S_y = 2^-12, i.e.
M0 = 2^30 in Q31 and a right shift of 11):
  activations  i8, scale 2^-4, zero point 5   (s8: flipped to u8 by VNNI)
  weights      i8<-127:127>, scale 2^-6, zero point 0
  accumulator  i32, scale 2^-10
  output       i8, scale 4, zero point -3, rounding "double"
"""
import argparse
import importlib.util
import os
import sys

# gen-e2e-cases.py imports its neighbours in utils/.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "utils"))
# The multipliers of the add row come from the e2e generator's exact-rational
# derivation (not from the compiler), so the C loop checks the compiler.
_spec = importlib.util.spec_from_file_location(
    "gen_e2e_cases", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                  "..", "utils", "gen-e2e-cases.py"))
gen_e2e = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_e2e)

X_T = "!quant.uniform<i8:f32, 0.0625:5>"
W_T = "!quant.uniform<i8<-127:127>:f32, 0.015625>"
A_T = "!quant.uniform<i32:f32, 0.0009765625>"
Y_T = "!quant.uniform<i8:f32, 4.0:-3>"
Q8_T = "!quant.uniform<i8:f32, 0.05:3>"
QU8_T = "!quant.uniform<u8:f32, 0.05:128>"
Q16_T = "!quant.uniform<i16:f32, 0.001:7>"

MATMULS = [(1, 1024, 1024), (64, 1024, 1024), (256, 256, 256),
           (1024, 1024, 1024)]
# NHWC input, HWCF filter, stride 1, padding 1.
CONV = dict(n=1, h=56, w=56, c=64, kh=3, kw=3, f=64, pad=1)
ELEMENTS = 4 * 1024 * 1024
# qnt.add of two NHWC tensors of one shape, i8 operands and result, "double"
# rounding (TFLite's integer add), scales with general multipliers.
ADD = dict(n=1, h=56, w=56, c=64)
ADD_A = (0.047, 3)
ADD_B = (0.089, -7)
ADD_Y = (0.131, 1)
# 3x3 max pool, stride 2, padding 1 (ResNet's stem), i8; the average pool
# of the same geometry (count_include_pad = false).
POOL = dict(n=1, h=112, w=112, c=64, k=3, stride=2, pad=1)
POOL_T = "!quant.uniform<i8:f32, 0.05:-2>"
# oneDNN peer rows only: a matmul whose weights are a run-time argument, and
# a depthwise 3x3 conv (groups = channels) on the CONV input shape.
RUNTIME_MATMUL = (256, 256, 256)
# bench/mca.sh only: the matmul shape it analyzes, with constant and with
# run-time weights.
MCA_MATMUL = (64, 1024, 1024)
DEPTHWISE = dict(n=1, h=56, w=56, c=64, kh=3, kw=3, pad=1)


class Lcg:
    """x' = 1664525 x + 1013904223 mod 2^32 (Numerical Recipes)."""

    def __init__(self, seed):
        self.x = seed & 0xFFFFFFFF

    def next(self):
        self.x = (1664525 * self.x + 1013904223) & 0xFFFFFFFF
        return self.x

    def weight(self):  # [-127, 127]
        return (self.next() >> 16) % 255 - 127

    def bias(self):  # [-20000, 20000]
        return (self.next() >> 8) % 40001 - 20000


def hex_i8(values):
    return '"0x' + "".join("%02X" % (v & 0xFF) for v in values) + '"'


def hex_i32(values):
    return '"0x' + "".join(
        "".join("%02X" % ((v >> (8 * i)) & 0xFF) for i in range(4))
        for v in values) + '"'


def matmul(m, k, n, seed):
    rng = Lcg(seed)
    w = [rng.weight() for _ in range(k * n)]
    b = [rng.bias() for _ in range(n)]
    name = "mm_%dx%dx%d" % (m, k, n)
    return f"""
func.func @{name}(%x: tensor<{m}x{k}x{X_T}>) -> tensor<{m}x{n}x{Y_T}> {{
  %w = qnt.constant dense<{hex_i8(w)}> : tensor<{k}x{n}xi8> -> tensor<{k}x{n}x{W_T}>
  %b = qnt.constant dense<{hex_i32(b)}> : tensor<{n}xi32> -> tensor<{n}x{A_T}>
  %a = qnt.matmul %x, %w, %b : tensor<{m}x{k}x{X_T}>, tensor<{k}x{n}x{W_T}>, tensor<{n}x{A_T}> -> tensor<{m}x{n}x{A_T}>
  %y = qnt.requantize %a : tensor<{m}x{n}x{A_T}> -> tensor<{m}x{n}x{Y_T}>
  return %y : tensor<{m}x{n}x{Y_T}>
}}
"""


def conv(seed):
    c = CONV
    rng = Lcg(seed)
    w = [rng.weight() for _ in range(c["kh"] * c["kw"] * c["c"] * c["f"])]
    b = [rng.bias() for _ in range(c["f"])]
    oh = c["h"] + 2 * c["pad"] - c["kh"] + 1
    ow = c["w"] + 2 * c["pad"] - c["kw"] + 1
    xs = "%dx%dx%dx%d" % (c["n"], c["h"], c["w"], c["c"])
    ws = "%dx%dx%dx%d" % (c["kh"], c["kw"], c["c"], c["f"])
    ys = "%dx%dx%dx%d" % (c["n"], oh, ow, c["f"])
    p = c["pad"]
    return f"""
func.func @conv(%x: tensor<{xs}x{X_T}>) -> tensor<{ys}x{Y_T}> {{
  %w = qnt.constant dense<{hex_i8(w)}> : tensor<{ws}xi8> -> tensor<{ws}x{W_T}>
  %b = qnt.constant dense<{hex_i32(b)}> : tensor<{c["f"]}xi32> -> tensor<{c["f"]}x{A_T}>
  %a = qnt.conv2d %x, %w, %b {{strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
         padding = array<i64: {p}, {p}, {p}, {p}>, groups = 1 : i64}}
       : tensor<{xs}x{X_T}>, tensor<{ws}x{W_T}>, tensor<{c["f"]}x{A_T}> -> tensor<{ys}x{A_T}>
  %y = qnt.requantize %a : tensor<{ys}x{A_T}> -> tensor<{ys}x{Y_T}>
  return %y : tensor<{ys}x{Y_T}>
}}
"""


def runtime_matmul(seed, shape=RUNTIME_MATMUL):
    m, k, n = shape
    rng = Lcg(seed)
    b = [rng.bias() for _ in range(n)]
    name = "mm_rt_%dx%dx%d" % (m, k, n)
    return f"""
func.func @{name}(%x: tensor<{m}x{k}x{X_T}>, %w: tensor<{k}x{n}x{W_T}>) -> tensor<{m}x{n}x{Y_T}> {{
  %b = qnt.constant dense<{hex_i32(b)}> : tensor<{n}xi32> -> tensor<{n}x{A_T}>
  %a = qnt.matmul %x, %w, %b : tensor<{m}x{k}x{X_T}>, tensor<{k}x{n}x{W_T}>, tensor<{n}x{A_T}> -> tensor<{m}x{n}x{A_T}>
  %y = qnt.requantize %a : tensor<{m}x{n}x{A_T}> -> tensor<{m}x{n}x{Y_T}>
  return %y : tensor<{m}x{n}x{Y_T}>
}}
"""


def depthwise(seed):
    c = DEPTHWISE
    rng = Lcg(seed)
    w = [rng.weight() for _ in range(c["kh"] * c["kw"] * c["c"])]
    b = [rng.bias() for _ in range(c["c"])]
    oh = c["h"] + 2 * c["pad"] - c["kh"] + 1
    ow = c["w"] + 2 * c["pad"] - c["kw"] + 1
    xs = "%dx%dx%dx%d" % (c["n"], c["h"], c["w"], c["c"])
    ws = "%dx%dx1x%d" % (c["kh"], c["kw"], c["c"])
    ys = "%dx%dx%dx%d" % (c["n"], oh, ow, c["c"])
    p = c["pad"]
    return f"""
func.func @conv_dw(%x: tensor<{xs}x{X_T}>) -> tensor<{ys}x{Y_T}> {{
  %w = qnt.constant dense<{hex_i8(w)}> : tensor<{ws}xi8> -> tensor<{ws}x{W_T}>
  %b = qnt.constant dense<{hex_i32(b)}> : tensor<{c["c"]}xi32> -> tensor<{c["c"]}x{A_T}>
  %a = qnt.conv2d %x, %w, %b {{strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
         padding = array<i64: {p}, {p}, {p}, {p}>, groups = {c["c"]} : i64}}
       : tensor<{xs}x{X_T}>, tensor<{ws}x{W_T}>, tensor<{c["c"]}x{A_T}> -> tensor<{ys}x{A_T}>
  %y = qnt.requantize %a : tensor<{ys}x{A_T}> -> tensor<{ys}x{Y_T}>
  return %y : tensor<{ys}x{Y_T}>
}}
"""


def elementwise():
    n = ELEMENTS
    return f"""
func.func @quantize_i8(%x: tensor<{n}xf32>) -> tensor<{n}x{Q8_T}> {{
  %q = qnt.quantize %x : tensor<{n}xf32> -> tensor<{n}x{Q8_T}>
  return %q : tensor<{n}x{Q8_T}>
}}

func.func @quantize_u8(%x: tensor<{n}xf32>) -> tensor<{n}x{QU8_T}> {{
  %q = qnt.quantize %x : tensor<{n}xf32> -> tensor<{n}x{QU8_T}>
  return %q : tensor<{n}x{QU8_T}>
}}

func.func @dequantize_i8(%q: tensor<{n}x{Q8_T}>) -> tensor<{n}xf32> {{
  %r = qnt.dequantize %q : tensor<{n}x{Q8_T}> -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}

func.func @dequantize_i16(%q: tensor<{n}x{Q16_T}>) -> tensor<{n}xf32> {{
  %r = qnt.dequantize %q : tensor<{n}x{Q16_T}> -> tensor<{n}xf32>
  return %r : tensor<{n}xf32>
}}
"""


def network_ops():
    a, y = ADD, POOL
    s = "%dx%dx%dx%d" % (a["n"], a["h"], a["w"], a["c"])
    ta = "!quant.uniform<i8:f32, %r:%d>" % ADD_A
    tb = "!quant.uniform<i8:f32, %r:%d>" % ADD_B
    ty = "!quant.uniform<i8:f32, %r:%d>" % ADD_Y
    ps = "%dx%dx%dx%d" % (y["n"], y["h"], y["w"], y["c"])
    oh = (y["h"] + 2 * y["pad"] - y["k"]) // y["stride"] + 1
    ow = (y["w"] + 2 * y["pad"] - y["k"]) // y["stride"] + 1
    os_ = "%dx%dx%dx%d" % (y["n"], oh, ow, y["c"])
    k, st, p = y["k"], y["stride"], y["pad"]
    return f"""
func.func @add(%a: tensor<{s}x{ta}>, %b: tensor<{s}x{tb}>) -> tensor<{s}x{ty}> {{
  %y = qnt.add %a, %b : tensor<{s}x{ta}>, tensor<{s}x{tb}> -> tensor<{s}x{ty}>
  return %y : tensor<{s}x{ty}>
}}

func.func @maxpool(%x: tensor<{ps}x{POOL_T}>) -> tensor<{os_}x{POOL_T}> {{
  %y = qnt.max_pool2d %x {{kernel = array<i64: {k}, {k}>, strides = array<i64: {st}, {st}>,
         padding = array<i64: {p}, {p}, {p}, {p}>}} : tensor<{ps}x{POOL_T}> -> tensor<{os_}x{POOL_T}>
  return %y : tensor<{os_}x{POOL_T}>
}}

func.func @avgpool(%x: tensor<{ps}x{POOL_T}>) -> tensor<{os_}x{POOL_T}> {{
  %y = qnt.avg_pool2d %x {{kernel = array<i64: {k}, {k}>, strides = array<i64: {st}, {st}>,
         padding = array<i64: {p}, {p}, {p}, {p}>}} : tensor<{ps}x{POOL_T}> -> tensor<{os_}x{POOL_T}>
  return %y : tensor<{os_}x{POOL_T}>
}}
"""


def add_params():
    """TFLite's add parameters for ADD_A + ADD_B -> ADD_Y (8-bit output)."""
    e = gen_e2e.add_entry("add", ADD_A[0], ADD_B[0], ADD_Y[0], 8)
    return e["left_shift"], list(zip(e["multipliers"], e["shifts"]))


def header():
    c = CONV
    lines = ["// Generated by bench/gen-bench.py; do not edit.",
             "#pragma once",
             "#define BENCH_ELEMENTS %d" % ELEMENTS,
             "#define BENCH_CONV_N %d" % c["n"], "#define BENCH_CONV_H %d" % c["h"],
             "#define BENCH_CONV_W %d" % c["w"], "#define BENCH_CONV_C %d" % c["c"],
             "#define BENCH_CONV_KH %d" % c["kh"], "#define BENCH_CONV_KW %d" % c["kw"],
             "#define BENCH_CONV_F %d" % c["f"], "#define BENCH_CONV_PAD %d" % c["pad"],
             "#define BENCH_MATMULS(X) \\"]
    for i, (m, k, n) in enumerate(MATMULS):
        lines.append("  X(%d, %d, %d, mm_%dx%dx%d, %d) \\" % (m, k, n, m, k, n, 100 + i))
    lines.append("")
    lines.append("#define BENCH_CONV_SEED 200")
    a, p = ADD, POOL
    lines += ["#define BENCH_ADD_N %d" % a["n"], "#define BENCH_ADD_H %d" % a["h"],
              "#define BENCH_ADD_W %d" % a["w"], "#define BENCH_ADD_C %d" % a["c"]]
    left_shift, qms = add_params()
    lines.append("#define BENCH_ADD_LEFT_SHIFT %d" % left_shift)
    for name, (m0, shift) in zip(("A", "B", "OUT"), qms):
        lines.append("#define BENCH_ADD_M0_%s %d" % (name, m0))
        lines.append("#define BENCH_ADD_SHIFT_%s %d" % (name, shift))
    lines += ["#define BENCH_ADD_ZA %d" % ADD_A[1], "#define BENCH_ADD_ZB %d" % ADD_B[1],
              "#define BENCH_ADD_ZY %d" % ADD_Y[1]]
    lines += ["#define BENCH_POOL_H %d" % p["h"], "#define BENCH_POOL_W %d" % p["w"],
              "#define BENCH_POOL_C %d" % p["c"], "#define BENCH_POOL_K %d" % p["k"],
              "#define BENCH_POOL_STRIDE %d" % p["stride"], "#define BENCH_POOL_PAD %d" % p["pad"],
              "#define BENCH_POOL_ZP %d" % int(POOL_T.rstrip(">").split(":")[-1])]
    lines.append("#define BENCH_RT_M %d\n#define BENCH_RT_K %d\n#define BENCH_RT_N %d"
                 % RUNTIME_MATMUL)
    lines.append("#define BENCH_RT_SEED 300")
    d = DEPTHWISE
    lines.append("#define BENCH_DW_H %d\n#define BENCH_DW_W %d\n#define BENCH_DW_C %d"
                 % (d["h"], d["w"], d["c"]))
    lines.append("#define BENCH_DW_KH %d\n#define BENCH_DW_KW %d\n#define BENCH_DW_PAD %d"
                 % (d["kh"], d["kw"], d["pad"]))
    lines.append("#define BENCH_DW_SEED 400")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--module", required=True)
    parser.add_argument("--header")
    parser.add_argument("--mca", action="store_true",
                        help="only the contractions bench/mca.sh analyzes: "
                        "matmul 64x1024x1024 with constant and with run-time "
                        "weights, and the 3x3 conv")
    args = parser.parse_args()
    parts = ["// Generated by bench/gen-bench.py; do not edit."]
    if args.mca:
        parts.append(matmul(*MCA_MATMUL, 101))
        parts.append(runtime_matmul(300, MCA_MATMUL))
        parts.append(conv(200))
        with open(args.module, "w") as f:
            f.write("\n".join(parts))
        return
    if not args.header:
        parser.error("--header is required without --mca")
    for i, (m, k, n) in enumerate(MATMULS):
        parts.append(matmul(m, k, n, 100 + i))
    parts.append(conv(200))
    parts.append(runtime_matmul(300))
    parts.append(depthwise(400))
    parts.append(elementwise())
    parts.append(network_ops())
    with open(args.module, "w") as f:
        f.write("\n".join(parts))
    with open(args.header, "w") as f:
        f.write(header())


if __name__ == "__main__":
    main()
