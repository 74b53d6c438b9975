#!/usr/bin/env python3
"""The W8A8 transformer MLP block as qnt IR, and its numpy models.

  y = GELU(x W1) W2,   x: T x D f32,  W1: D x H,  W2: H x D

W8A8: before each matmul the activations are quantized per token (row) at
run time with `qnt.dynamic_quantize {mode = "symmetric", axis = 0}` (i8
codes, scale max|row| / 127); the weights are int8 constants quantized per
output channel, symmetric (codes in [-127, 127], scale max|column| / 127);
`qnt.matmul` on the raw codes accumulates in i32 (the VNNI kernel on x86);
the accumulator is dequantized with `qnt.dequantize_dynamic` whose scale is
the product of the row and the column scale (the contract's runtime-scale
matmul); GELU stays f32. docs/W8A8.md has the design and the numbers.

GELU is the tanh form, 0.5 a (1 + tanh(k (a + 0.044715 a^3))), with tanh
computed by the rational approximation of MLIR's math polynomial
approximation (Eigen's: clamp to +-7.99881172, odd degree-13 numerator over
even degree-6 denominator, identity below 4e-4), written as plain f32
multiplies, adds and one divide. So the block has no libm call, vectorizes,
and every f32 step can be reproduced exactly in numpy float32: no fused
multiply-add is formed (no fast-math or contraction flag in the pipeline).

Weights and inputs come from numpy's default_rng(seed), in this order: W1 ~
N(0, 1/D), W2 ~ N(0, 1/H), x ~ N(0, 1).

Subcommands:
  test  -o FILE.mlir     module with @mlp (every stage returned) and a @main that prints every
                         stage (codes, scales, accumulators, h, y; f32 as
                         bits) for run-on-target / mlir-runner
  check TRANSCRIPT       compares a transcript of `test` with the models:
                         the exact f32 model (every printed value bit for
                         bit), the float64 evaluation of the same quantized
                         math (tolerances), the float block (error report)
  bench -o DIR           for bench/run-w8a8-bench.sh, per token count T:
                         w8a8_tT.mlir (@mlp_w8a8_tT, y only), f32_tT.mlir
                         (@mlp_f32_tT, the float block in f32), io_tT.bin
                         (x, the exact model's y); weights.bin (codes and
                         column scales) for the C driver's oneDNN peer
  accuracy               the exact model against the float64 evaluation and
                         the float block, per token count (use --dim 768
                         --hidden 3072 for the benchmark's size)
"""
import argparse
import os
import re
import sys

import numpy as np

F32 = np.float32

# GELU tanh form.
GELU_K = F32(0.7978845608028654)   # sqrt(2 / pi)
GELU_C = F32(0.044715)
# tanh(u) ~ u P(u^2) / Q(u^2) on [-c, c] (mlir/lib/Dialect/Math/Transforms/
# PolynomialApproximation.cpp, TanhApproximation; Eigen's float tanh).
TANH_CLAMP = F32(7.99881172180175781)
TANH_TINY = F32(0.0004)
TANH_ALPHA = [F32(v) for v in (  # alpha_13 first
    -2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11,
    5.12229709037114e-08, 1.48572235717979e-05, 6.37261928875436e-04,
    4.89352455891786e-03)]
TANH_BETA = [F32(v) for v in (  # beta_6 first
    1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03,
    4.89352518554385e-03)]


def f32_hex(v):
    return "0x%08X" % int(np.array(v, dtype=F32).view(np.uint32))


def dense_hex(array):
    """A dense<"0x..."> literal: the raw little-endian bytes."""
    return 'dense<"0x%s">' % np.ascontiguousarray(array).tobytes().hex().upper()


#===----------------------------------------------------------------------===#
# Data
#===----------------------------------------------------------------------===#

class Block:
    def __init__(self, tokens, dim, hidden, seed):
        rng = np.random.default_rng(seed)
        self.t, self.d, self.h = tokens, dim, hidden
        # Weights first: they do not depend on the token count.
        self.w1 = (rng.standard_normal((dim, hidden)) / np.sqrt(dim)).astype(F32)
        self.w2 = (rng.standard_normal((hidden, dim)) / np.sqrt(hidden)).astype(F32)
        self.x = rng.standard_normal((tokens, dim)).astype(F32)
        self.q1, self.cs1 = quantize_weights(self.w1)
        self.q2, self.cs2 = quantize_weights(self.w2)


def quantize_weights(w):
    """Per output channel (column), symmetric: codes in [-127, 127]."""
    m = np.max(np.abs(w.astype(np.float64)), axis=0)
    scale = np.where(m == 0, 1.0, m / 127.0).astype(F32)
    codes = np.clip(np.rint(w / scale.astype(np.float64)), -127, 127)
    return codes.astype(np.int8), scale


#===----------------------------------------------------------------------===#
# Models
#===----------------------------------------------------------------------===#

def dynamic_quantize_rows(x):
    """qnt.dynamic_quantize {mode = "symmetric", axis = 0} in f32, as the
    contract and docs/RuntimeScales.md define it."""
    with np.errstate(invalid="ignore", divide="ignore"):
        m = np.maximum(F32(0), np.max(np.abs(x), axis=1))
        scale = np.where(m == 0, F32(1), m / F32(127)).astype(F32)
        t = (x / scale[:, None]).astype(F32)
        r = np.rint(t)
        r = np.where(np.isnan(r), F32(0), r)
        codes = np.clip(r, -128, 127).astype(np.int8)
    return codes, scale


def int_matmul(codes, weights):
    acc = codes.astype(np.int64) @ weights.astype(np.int64)
    assert np.all(np.abs(acc) < 2**31)
    return acc.astype(np.int32)


def dequantize_f32(acc, rs, cs):
    """qnt.dequantize_dynamic %acc, rs x cs, 0: (f32(acc) - 0) * (rs * cs)."""
    scale = (rs[:, None] * cs[None, :]).astype(F32)
    return ((acc.astype(F32) - F32(0)) * scale).astype(F32)


def tanh_f32(u):
    """The rational tanh of the IR, step by step in f32."""
    uc = np.maximum(np.minimum(u, TANH_CLAMP), -TANH_CLAMP)
    x2 = uc * uc
    p = x2 * TANH_ALPHA[0] + TANH_ALPHA[1]
    for a in TANH_ALPHA[2:]:
        p = x2 * p + a
    p = uc * p
    q = x2 * TANH_BETA[0] + TANH_BETA[1]
    for b in TANH_BETA[2:]:
        q = x2 * q + b
    return np.where(np.abs(u) < TANH_TINY, u, p / q).astype(F32)


def gelu_f32(a):
    """The IR's GELU, step by step in f32 (same order)."""
    a3 = (a * a) * a
    u = GELU_K * (a + a3 * GELU_C)
    return ((a * F32(0.5)) * (F32(1) + tanh_f32(u))).astype(F32)


def gelu_f64(a):
    a = a.astype(np.float64)
    return 0.5 * a * (1.0 + np.tanh(np.sqrt(2.0 / np.pi) * (a + 0.044715 * a**3)))


def exact_model(b):
    """Every stage as the compiled code computes it (f32 bit for bit)."""
    c1, s1 = dynamic_quantize_rows(b.x)
    a1 = int_matmul(c1, b.q1)
    h = gelu_f32(dequantize_f32(a1, s1, b.cs1))
    c2, s2 = dynamic_quantize_rows(h)
    a2 = int_matmul(c2, b.q2)
    y = dequantize_f32(a2, s2, b.cs2)
    return dict(c1=c1, s1=s1, a1=a1, h=h, c2=c2, s2=s2, a2=a2, y=y)


#===----------------------------------------------------------------------===#
# IR
#===----------------------------------------------------------------------===#

def ir_linear(tag, x, t, k, n, weights, col_scales):
    """One W8A8 linear layer on %{x}: defines %c{tag} (codes), %s{tag} (row
    scales), %a{tag} (i32 accumulator) and %d{tag} (f32 result)."""
    return f"""
  // W8A8 linear {t}x{k} -> {n}: per-token dynamic quantization, i8 x i8 -> i32
  // on the raw codes, dequantized with row scale x column scale.
  %c{tag}, %s{tag}, %z{tag} = qnt.dynamic_quantize %{x} {{axis = 0 : i64, mode = "symmetric"}}
      : tensor<{t}x{k}xf32> -> tensor<{t}x{k}xi8>, tensor<{t}xf32>, tensor<{t}xi8>
  %cq{tag} = quant.scast %c{tag} : tensor<{t}x{k}xi8> to tensor<{t}x{k}x!Raw8>
  %w{tag} = arith.constant {dense_hex(weights)} : tensor<{k}x{n}xi8>
  %wq{tag} = quant.scast %w{tag} : tensor<{k}x{n}xi8> to tensor<{k}x{n}x!Raw8>
  %aq{tag} = qnt.matmul %cq{tag}, %wq{tag} : tensor<{t}x{k}x!Raw8>, tensor<{k}x{n}x!Raw8> -> tensor<{t}x{n}x!Raw32>
  %a{tag} = quant.scast %aq{tag} : tensor<{t}x{n}x!Raw32> to tensor<{t}x{n}xi32>
  %cs{tag} = arith.constant {dense_hex(col_scales)} : tensor<{n}xf32>
  %se{tag} = tensor.empty() : tensor<{t}x{n}xf32>
  %scale{tag} = linalg.generic {{indexing_maps = [#row, #col, #id],
                                iterator_types = ["parallel", "parallel"]}}
      ins(%s{tag}, %cs{tag} : tensor<{t}xf32>, tensor<{n}xf32>) outs(%se{tag} : tensor<{t}x{n}xf32>) {{
  ^bb0(%rs: f32, %csv: f32, %o: f32):
    %p = arith.mulf %rs, %csv : f32
    linalg.yield %p : f32
  }} -> tensor<{t}x{n}xf32>
  %zero{tag} = arith.constant dense<0.0> : tensor<1x1xf32>
  %d{tag} = qnt.dequantize_dynamic %a{tag}, %scale{tag}, %zero{tag}
      : tensor<{t}x{n}xi32>, tensor<{t}x{n}xf32>, tensor<1x1xf32> -> tensor<{t}x{n}xf32>
"""


def ir_gelu_body(indent):
    """The GELU region body on %a, yielding the result."""
    k = f32_hex
    lines = [
        f"%a2 = arith.mulf %a, %a : f32",
        f"%a3 = arith.mulf %a2, %a : f32",
        f"%cst_c = arith.constant {k(GELU_C)} : f32",
        f"%ca3 = arith.mulf %a3, %cst_c : f32",
        f"%in = arith.addf %a, %ca3 : f32",
        f"%cst_k = arith.constant {k(GELU_K)} : f32",
        f"%u = arith.mulf %cst_k, %in : f32",
        f"%hi = arith.constant {k(TANH_CLAMP)} : f32",
        f"%lo = arith.constant {k(-TANH_CLAMP)} : f32",
        f"%u0 = arith.minimumf %u, %hi : f32",
        f"%uc = arith.maximumf %u0, %lo : f32",
        f"%x2 = arith.mulf %uc, %uc : f32",
    ]
    alpha = [f"%al{i} = arith.constant {k(v)} : f32" for i, v in enumerate(TANH_ALPHA)]
    beta = [f"%be{i} = arith.constant {k(v)} : f32" for i, v in enumerate(TANH_BETA)]
    lines += alpha + beta
    lines += ["%p0m = arith.mulf %x2, %al0 : f32", "%p0 = arith.addf %p0m, %al1 : f32"]
    for i in range(2, len(TANH_ALPHA)):
        lines += [f"%p{i - 1}m = arith.mulf %x2, %p{i - 2} : f32",
                  f"%p{i - 1} = arith.addf %p{i - 1}m, %al{i} : f32"]
    last = len(TANH_ALPHA) - 2
    lines += [f"%p = arith.mulf %uc, %p{last} : f32"]
    lines += ["%q0m = arith.mulf %x2, %be0 : f32", "%q0 = arith.addf %q0m, %be1 : f32"]
    for i in range(2, len(TANH_BETA)):
        lines += [f"%q{i - 1}m = arith.mulf %x2, %q{i - 2} : f32",
                  f"%q{i - 1} = arith.addf %q{i - 1}m, %be{i} : f32"]
    lastq = len(TANH_BETA) - 2
    lines += [
        f"%ratio = arith.divf %p, %q{lastq} : f32",
        f"%au = math.absf %u : f32",
        f"%tiny = arith.constant {k(TANH_TINY)} : f32",
        f"%small = arith.cmpf olt, %au, %tiny : f32",
        f"%th = arith.select %small, %u, %ratio : f32",
        f"%half = arith.constant 0.5 : f32",
        f"%one = arith.constant 1.0 : f32",
        f"%ha = arith.mulf %a, %half : f32",
        f"%onep = arith.addf %one, %th : f32",
        f"%g = arith.mulf %ha, %onep : f32",
        f"linalg.yield %g : f32",
    ]
    # Prefixed names: the body sits inside functions that use short names.
    return "\n".join(indent + re.sub(r"%(\w+)", r"%g_\1", l) for l in lines)


def ir_gelu(v, result, t, n):
    """%{result} = GELU(%{v}), tanh form, f32 (a rational tanh: no libm)."""
    return f"""
  // GELU, tanh form, f32.
  %ge = tensor.empty() : tensor<{t}x{n}xf32>
  %{result} = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%{v} : tensor<{t}x{n}xf32>) outs(%ge : tensor<{t}x{n}xf32>) {{
  ^bb0(%g_a: f32, %g_o: f32):
{ir_gelu_body("    ")}
  }} -> tensor<{t}x{n}xf32>
"""


PRELUDE = """!Raw8 = !quant.uniform<i8:f32, 1.0>
!Raw32 = !quant.uniform<i32:f32, 1.0>
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
"""


STAGE_VALUES = {"c1": "%c1", "s1": "%s1", "a1": "%a1", "h": "%h", "c2": "%c2",
                "s2": "%s2", "a2": "%a2", "y": "%d2"}


def stage_shapes(b):
    t, d, h = b.t, b.d, b.h
    return {"c1": (f"{t}x{d}", "i8"), "s1": (f"{t}", "f32"), "a1": (f"{t}x{h}", "i32"),
            "h": (f"{t}x{h}", "f32"), "c2": (f"{t}x{h}", "i8"), "s2": (f"{t}", "f32"),
            "a2": (f"{t}x{d}", "i32"), "y": (f"{t}x{d}", "f32")}


def stage_types(b, stages):
    shapes = stage_shapes(b)
    return ", ".join(f"tensor<{shapes[s][0]}x{shapes[s][1]}>" for s in stages)


def ir_mlp(b, name, stages):
    """@{name}: the block in one function (so that nothing stops the
    lowering from fusing across layers); returns the given stages."""
    t, d, h = b.t, b.d, b.h
    results = stage_types(b, stages)
    values = ", ".join(STAGE_VALUES[s] for s in stages) + " : " + results
    return (f"\nfunc.func @{name}(%x: tensor<{t}x{d}xf32>) -> ({results}) {{"
            + ir_linear("1", "x", t, d, h, b.q1, b.cs1)
            + ir_gelu("d1", "h", t, h)
            + ir_linear("2", "h", t, h, d, b.q2, b.cs2)
            + f"  return {values}\n}}\n")


def ir_print(value, shape, elem):
    """Prints a tensor; f32 as its bits through printMemrefI32."""
    global _print_id
    _print_id += 1
    i = _print_id
    if elem == "f32":
        lines = [f"  %pb{i} = arith.bitcast {value} : tensor<{shape}xf32> to tensor<{shape}xi32>"]
        value, elem = f"%pb{i}", "i32"
    else:
        lines = []
    fn = {"i8": "printMemrefI8", "i32": "printMemrefI32"}[elem]
    lines += [
        f"  %pm{i} = bufferization.to_buffer {value} : tensor<{shape}x{elem}> to memref<{shape}x{elem}>",
        f"  %pu{i} = memref.cast %pm{i} : memref<{shape}x{elem}> to memref<*x{elem}>",
        f"  call @{fn}(%pu{i}) : (memref<*x{elem}>) -> ()",
    ]
    return "\n".join(lines) + "\n"


_print_id = 0
STAGES = ["c1", "s1", "a1", "h", "c2", "s2", "a2", "y"]


# Without the accumulators the kernel may apply the dequantization and GELU
# in its epilogue: an accumulator with a second user (the return) stays an
# i32 tensor.
FUSED_STAGES = ["c1", "s1", "h", "c2", "s2", "y"]


def test_stages(args):
    return FUSED_STAGES if args.no_accumulators else STAGES


def emit_test(b, args):
    t, d, h = b.t, b.d, b.h
    stages = test_stages(args)
    out = [f"// Generated by utils/gen-w8a8-mlp.py test --tokens {t} --dim {d} "
           f"--hidden {h} --seed {args.seed}"
           + (" --no-accumulators" if args.no_accumulators else "") + ".\n", PRELUDE]
    out.append("func.func private @printMemrefI8(memref<*xi8>)\n"
               "func.func private @printMemrefI32(memref<*xi32>)\n")
    out.append(ir_mlp(b, "mlp", stages))
    types = stage_types(b, stages)
    names = ", ".join("%" + s for s in stages)
    body = [f"func.func @main() {{\n  %x = arith.constant {dense_hex(b.x)} : tensor<{t}x{d}xf32>\n",
            f"  {names} = call @mlp(%x) : (tensor<{t}x{d}xf32>) -> ({types})\n"]
    shapes = stage_shapes(b)
    for s in stages:
        body.append(ir_print("%" + s, *shapes[s]))
    body.append("  return\n}\n")
    out += body
    with open(args.output, "w") as f:
        f.write("".join(out))


#===----------------------------------------------------------------------===#
# check
#===----------------------------------------------------------------------===#

def parse_transcript(path):
    with open(path) as f:
        text = f.read()
    blocks = text.split("Unranked Memref")[1:]
    return [np.array([int(v) for v in re.findall(r"-?\d+", blk.partition("data =")[2])],
                     dtype=np.int64) for blk in blocks]


def as_bits(a):
    return np.asarray(a, dtype=F32).view(np.int32).astype(np.int64).ravel()


def check(b, args):
    stages = test_stages(args)
    got = parse_transcript(args.transcript)
    if len(got) != len(stages):
        sys.exit("check: expected %d printed tensors, got %d" % (len(stages), len(got)))
    got = dict(zip(stages, got))
    model = exact_model(b)
    ok = True
    # 1. The exact model: integer parts and f32 parts bit for bit.
    for s in stages:
        want = model[s]
        want = as_bits(want) if want.dtype == F32 else want.astype(np.int64).ravel()
        same = int(np.sum(want == got[s]))
        print("exact %-2s: %d/%d identical" % (s, same, want.size))
        ok &= same == want.size
    # The compiled values from here on (bits back to f32).
    c1 = got["c1"].reshape(b.t, b.d).astype(np.int8)
    c2 = got["c2"].reshape(b.t, b.h).astype(np.int8)
    if args.no_accumulators:
        # Not printed: the exact products of the printed codes.
        print("float64: accumulators not printed; taken as codes x weights")
        got["a1"] = c1.astype(np.int64) @ b.q1.astype(np.int64)
        got["a2"] = c2.astype(np.int64) @ b.q2.astype(np.int64)
    a1 = got["a1"].reshape(b.t, b.h)
    a2 = got["a2"].reshape(b.t, b.d)
    s1 = got["s1"].astype(np.int32).view(F32)
    s2 = got["s2"].astype(np.int32).view(F32)
    h = got["h"].astype(np.int32).view(F32).reshape(b.t, b.h)
    y = got["y"].astype(np.int32).view(F32).reshape(b.t, b.d)
    # 2. float64 evaluation of the same quantized math, layer by layer from
    # the compiled integer parts: the accumulators are exact integer
    # products of the printed codes, the float parts within f32 tolerances.
    ok &= bool(np.array_equal(a1, c1.astype(np.int64) @ b.q1.astype(np.int64)))
    ok &= bool(np.array_equal(a2, c2.astype(np.int64) @ b.q2.astype(np.int64)))
    print("float64: accumulators = codes x weights exactly: %s" %
          ("yes" if ok else "NO"))
    h64 = gelu_f64(a1 * (s1.astype(np.float64)[:, None] * b.cs1.astype(np.float64)[None, :]))
    y64 = a2 * (s2.astype(np.float64)[:, None] * b.cs2.astype(np.float64)[None, :])
    # Tolerances relative to each row's largest magnitude (the quantity the
    # next quantization divides by): dequantization is 3 f32 roundings
    # (|err| <= 3 * 2^-24 of the row maximum); GELU adds about 15 roundings
    # and the rational tanh's error (measured below, < 2^-21 absolute).
    def row_rel(a, ref):
        m = np.max(np.abs(ref), axis=1, keepdims=True)
        return float(np.max(np.abs(a - ref) / np.where(m == 0, 1, m)))
    eh, ey = row_rel(h, h64), row_rel(y, y64)
    tol_h, tol_y = 2.0**-18, 4 * 2.0**-24
    print("float64: h max error / row max %.3g (tolerance 2^-18 = %.3g): %s" %
          (eh, tol_h, "ok" if eh <= tol_h else "FAIL"))
    print("float64: y max error / row max %.3g (tolerance 2^-22 = %.3g): %s" %
          (ey, tol_y, "ok" if ey <= tol_y else "FAIL"))
    ok &= eh <= tol_h and ey <= tol_y
    # Second-layer codes from the float64 h: a code may differ by one where
    # h64 / scale lies within the f32 error of a rounding boundary.
    c2_64, _ = dynamic_quantize_rows(h64.astype(F32))
    diff = np.abs(c2_64.astype(int) - c2.astype(int))
    print("float64: layer-2 codes from float64 h: %d of %d differ (max by %d)" %
          (int(np.sum(diff != 0)), diff.size, int(diff.max())))
    ok &= int(diff.max()) <= 1
    # 3. The float block (no quantization), float64.
    yf = gelu_f64(b.x.astype(np.float64) @ b.w1.astype(np.float64)) @ b.w2.astype(np.float64)
    rel = np.linalg.norm(y - yf) / np.linalg.norm(yf)
    print("float block: relative error ||y - y_float|| / ||y_float|| = %.4f, "
          "max |y - y_float| = %.4f (max |y_float| = %.3f)" %
          (rel, np.max(np.abs(y - yf)), np.max(np.abs(yf))))
    ok &= rel < args.max_block_error
    print("tanh approximation: max |error| on [-10, 10] = %.3g" % tanh_error())
    print("check: %s" % ("PASS" if ok else "FAIL"))
    sys.exit(0 if ok else 1)


def tanh_error():
    u = np.linspace(-10, 10, 200001).astype(F32)
    return float(np.max(np.abs(tanh_f32(u).astype(np.float64) - np.tanh(u.astype(np.float64)))))


#===----------------------------------------------------------------------===#
# bench
#===----------------------------------------------------------------------===#

def ir_f32_mlp(b, name):
    """The same block in f32: matmuls as linalg.generic with the output
    column innermost (loops m, k, n), so that LLVM vectorizes along n without
    reassociating the f32 sums."""
    t, d, h = b.t, b.d, b.h
    def mm(x, w, k, n, tag):
        return f"""  %w{tag} = arith.constant {dense_hex(w)} : tensor<{k}x{n}xf32>
  %z{tag} = arith.constant 0.0 : f32
  %e{tag} = tensor.empty() : tensor<{t}x{n}xf32>
  %f{tag} = linalg.fill ins(%z{tag} : f32) outs(%e{tag} : tensor<{t}x{n}xf32>) -> tensor<{t}x{n}xf32>
  %m{tag} = linalg.generic {{indexing_maps = [#mk, #kn, #mn],
                            iterator_types = ["parallel", "reduction", "parallel"]}}
      ins({x}, %w{tag} : tensor<{t}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%f{tag} : tensor<{t}x{n}xf32>) {{
  ^bb0(%xa: f32, %wb: f32, %acc: f32):
    %pr = arith.mulf %xa, %wb : f32
    %su = arith.addf %acc, %pr : f32
    linalg.yield %su : f32
  }} -> tensor<{t}x{n}xf32>
"""
    return f"""
func.func @{name}(%x: tensor<{t}x{d}xf32>) -> tensor<{t}x{d}xf32> {{
{mm("%x", b.w1, d, h, "1")}  %eg = tensor.empty() : tensor<{t}x{h}xf32>
  %g = linalg.generic {{indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}}
      ins(%m1 : tensor<{t}x{h}xf32>) outs(%eg : tensor<{t}x{h}xf32>) {{
  ^bb0(%g_a: f32, %g_o: f32):
{ir_gelu_body("    ")}
  }} -> tensor<{t}x{h}xf32>
{mm("%g", b.w2, h, d, "2")}  return %m2 : tensor<{t}x{d}xf32>
}}
"""


def emit_bench(args):
    os.makedirs(args.output, exist_ok=True)
    for t in args.token_counts:
        b = Block(t, args.dim, args.hidden, args.seed)
        with open(os.path.join(args.output, "w8a8_t%d.mlir" % t), "w") as f:
            f.write(PRELUDE + ir_mlp(b, "mlp_w8a8_t%d" % t, ["y"]))
        with open(os.path.join(args.output, "f32_t%d.mlir" % t), "w") as f:
            f.write(PRELUDE + "#mk = affine_map<(m, k, n) -> (m, k)>\n"
                    "#kn = affine_map<(m, k, n) -> (k, n)>\n"
                    "#mn = affine_map<(m, k, n) -> (m, n)>\n" + ir_f32_mlp(b, "mlp_f32_t%d" % t))
        # Inputs and the exact model's output, for the driver's checks.
        with open(os.path.join(args.output, "io_t%d.bin" % t), "wb") as f:
            f.write(b.x.tobytes())
            f.write(exact_model(b)["y"].tobytes())
    # The weights do not depend on the token count.
    b = Block(args.token_counts[0], args.dim, args.hidden, args.seed)
    with open(os.path.join(args.output, "weights.bin"), "wb") as f:
        for a in (b.q1, b.cs1, b.q2, b.cs2):
            f.write(np.ascontiguousarray(a).tobytes())


def accuracy(args):
    """The full-size numbers of docs/W8A8.md: the exact model (which the
    benchmark checks the compiled block against bit for bit) against the
    float64 evaluation of the same quantized math and the float block."""
    for t in args.token_counts:
        b = Block(t, args.dim, args.hidden, args.seed)
        m = exact_model(b)
        h64 = gelu_f64(m["a1"] * (m["s1"].astype(np.float64)[:, None] *
                                  b.cs1.astype(np.float64)[None, :]))
        c2_64, _ = dynamic_quantize_rows(h64.astype(F32))
        flips = int(np.sum(c2_64 != m["c2"]))
        rowmax = np.max(np.abs(h64), axis=1, keepdims=True)
        yf = gelu_f64(b.x.astype(np.float64) @ b.w1.astype(np.float64)) @ b.w2.astype(np.float64)
        y = m["y"].astype(np.float64)
        print("tokens %d: ||y - y_float|| / ||y_float|| = %.4f; max |h - h64| / "
              "row max = %.3g; layer-2 codes from float64 h differ in %d of %d" %
              (t, np.linalg.norm(y - yf) / np.linalg.norm(yf),
               np.max(np.abs(m["h"] - h64) / rowmax), flips, m["c2"].size))


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("command", choices=["test", "check", "bench", "accuracy"])
    p.add_argument("transcript", nargs="?")
    p.add_argument("--tokens", type=int, default=4)
    p.add_argument("--token-counts", type=int, nargs="+", default=[1, 32, 128])
    p.add_argument("--dim", type=int, default=64)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-block-error", type=float, default=0.05,
                   help="check: bound on the relative error against the float block")
    p.add_argument("--no-accumulators", action="store_true",
                   help="test, check: @mlp does not return (and @main does not print) "
                        "the i32 accumulators, so that the kernel may fuse the "
                        "dequantization and GELU into its epilogue")
    p.add_argument("-o", "--output")
    args = p.parse_intermixed_args()
    if args.command == "test":
        emit_test(Block(args.tokens, args.dim, args.hidden, args.seed), args)
    elif args.command == "check":
        check(Block(args.tokens, args.dim, args.hidden, args.seed), args)
    elif args.command == "accuracy":
        accuracy(args)
    else:
        emit_bench(args)


if __name__ == "__main__":
    main()
