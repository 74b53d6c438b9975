#!/usr/bin/python3
"""Differential fuzzer of random quantized ONNX graphs against a numpy model.

Each case is a random, valid ONNX model (onnx.checker with strict shape
inference): a chain of 2-6 quantized ops (sometimes a motif that puts
layout-changing ops after convs, or a residual add), in ONNX's QDQ form
(QuantizeLinear / DequantizeLinear around float ops, int8 weights through
DequantizeLinear or float weights through Q -> DQ, int32 biases through
DequantizeLinear at S_x * S_w) or in ONNX Runtime's QOperator form
(QLinearConv, QLinearMatMul, com.microsoft QLinearAdd / QLinearMul /
QLinearConcat / QLinearAveragePool / QLinearGlobalAveragePool /
QLinearReduceMean / QGemm), mixed per op. Ops: Conv (1-D and 2-D, groups, depthwise,
strides, dilations, pads, auto_pad SAME_UPPER / SAME_LOWER / VALID),
ConvTranspose (1-D and 2-D, groups, strides, dilations, pads beyond the
kernel's span, output_padding; QDQ only), MatMul
(2-D and 3-D A, + Add of a bias) / Gemm (transB, bias [N], [1, N] or one
element), Add / Mul / Sub (numpy broadcasting), MaxPool / AveragePool
(dilations, count_include_pad, ceil_mode), GlobalAveragePool / ReduceMean
over H and W / GlobalMaxPool, Concat, Relu / Clip, DQ -> Q to another grid,
DQ with other parameters, Reshape / Flatten / Transpose / Squeeze /
Unsqueeze / Slice / Pad / DepthToSpace / SpaceToDepth / TopK /
GatherElements / GatherND / ScatterND on floats and on the codes themselves; int8, uint8
and (through com.microsoft Q / DQ, ONNX Runtime's 16-bit QDQ) int16
activations, per-tensor or per-channel weights (nonzero zero points, uint8
now and then), scales from subnormal to huge, zero points anywhere in range,
a symbolic batch dimension now and then (--input-shape). Outputs are
integer codes (compared exactly) or f32 values whose ONNX definition is
exact f32 arithmetic (DequantizeLinear, float Add / Mul / Sub / Concat of
dequantized values; contractions and averages without a QuantizeLinear only
where every scale is a power of two, so the float sums are exact), compared
bit for bit (+0 and -0 equal).

The expected outputs come from a numpy model written from the ONNX operator
definitions (onnx/docs/Operators.md) and, for the com.microsoft ops, from
ONNX Runtime's definitions; where docs/ONNXImport.md documents a deliberate
deviation of the project from the float definition (the f32-ratio Add, the
pools' exact sums, a float bias quantized at import), the model follows the
documented behaviour and says so in a comment. It does not call project
code: it is the independent side.

Each case is imported with `quant-import-onnx --entry model`, given a @main
that feeds the inputs as constants and prints every output
(printMemrefI8 / U8 / I16, f32 results as their bits with printMemrefI32),
compiled with `quant-opt --qnt-to-llvm[=target=T]` and run under
mlir-runner, or for aarch64 / riscv64 built and run under qemu-user by
utils/run-on-target.py. --jobs cases (default 2) run at once.

A finding is: a wrong output; a crash, a signal or a timeout of any tool; a
module the importer wrote that the pipeline rejects; an import diagnostic on
a generated model (the generator only builds what docs/ONNXImport.md says is
supported, except for the diagnostics in DOCUMENTED_LIMITS below, which are
counted and printed, not findings). Findings go to --out (the model, the
imported module, a note with the graph, the differences and the commands
that reproduce them); the exit code is 1 if there is any. --exclude leaves
out op generators (see Case.OPS) or the features int16 / extreme (scales):
the way to run past a known, not yet fixed finding.

  onnx-diff-fuzz.py --build-dir build --seed 1 --cases 300
  onnx-diff-fuzz.py --build-dir build --seed 1 --cases 50 --target aarch64
  onnx-diff-fuzz.py --build-dir build --seed 1 --case 17        # one case
  onnx-diff-fuzz.py --build-dir build --seed 1 --case 17 --minimize
  onnx-diff-fuzz.py --build-dir build --seed 1 --cases 200 --exclude pad_codes,int16
  onnx-diff-fuzz.py --build-dir build --seed 1 --cases 2 --self-test
         # every case passes, and a value planted one step off is reported
"""
import argparse
import concurrent.futures
import copy
import importlib.util
import math
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM_BIN = "/usr/lib/llvm-22/bin"
LLVM_LIB = "/usr/lib/llvm-22/lib"
MS = "com.microsoft"
F32 = np.float32
# f32 arithmetic of the model over- and underflows on purpose (extreme
# scales): IEEE results, no warnings.
np.seterr(all="ignore")
CROSS_TARGETS = ("aarch64", "aarch64-dotprod", "aarch64-neon", "riscv64")
EXTREME_SCALES = [1.4e-45, 1e-42, 1e-39, 1.1754944e-38, 1e-35, 1e30, 1e36, 3.4e38]

# Import diagnostics that docs/ONNXImport.md documents as limits of what is
# supported; the generator avoids them, but a model that hits one anyway is
# not a finding. (Everything else the generator builds is supported.)
DOCUMENTED_LIMITS = [
    # docs/ONNXImport.md "Never invented, never silent": an f32 add sum or a
    # contraction accumulator that can overflow is diagnosed.
    r"can overflow",
    r"overflow",
    # A product of two f32 scales outside f32's range (an accumulator's,
    # or QGemm's implicit bias scale a_scale * b_scale).
    r"outside the positive range of f32",
    r"scale \S+ is outside the range of f32",
    # docs/ONNXImport.md: Concat of int8 / uint8 codes on two grids (ONNX
    # copies codes that then share no scale).
    r"code tensors quantized with different parameters",
]


# ---------------------------------------------------------------------------
# The numpy model: ONNX's operator definitions, in f32 where ONNX says f32.
# Codes are int64 arrays in logical (ONNX) layout.
# ---------------------------------------------------------------------------
QRANGE = {"i8": (-128, 127), "u8": (0, 255), "i16": (-32768, 32767)}
NP_TYPE = {"i8": np.int8, "u8": np.uint8, "i16": np.int16}
ONNX_TYPE = {"i8": TensorProto.INT8, "u8": TensorProto.UINT8, "i16": TensorProto.INT16}


def per_axis(a, ndim, axis):
    """A per-channel parameter shaped to broadcast along `axis`."""
    a = np.asarray(a)
    if a.ndim == 0 or a.size == 1 and axis is None:
        return a.reshape(())
    shape = [1] * ndim
    shape[axis] = -1
    return a.reshape(shape)


def quantize_linear(x, s, z, dt, axis=None):
    """QuantizeLinear: saturate(round_half_even(x / y_scale) + y_zero_point),
    the division in f32 (x and the scale are f32)."""
    x = np.asarray(x, F32)
    s = per_axis(np.asarray(s, F32), x.ndim, axis)
    z = per_axis(np.asarray(z, np.int64), x.ndim, axis)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        r = (x / s).astype(F32)
    q = np.rint(r.astype(np.float64)) + z  # np.rint: half to even
    lo, hi = QRANGE[dt]
    return np.clip(q, lo, hi).astype(np.int64)


def dequantize_linear(q, s, z, axis=None):
    """DequantizeLinear: (x - x_zero_point) * x_scale in f32."""
    q = np.asarray(q, np.int64)
    s = per_axis(np.asarray(s, F32), q.ndim, axis)
    z = per_axis(np.asarray(z, np.int64), q.ndim, axis)
    with np.errstate(over="ignore"):
        return ((q - z).astype(F32) * s).astype(F32)


def requantize_f32(acc, s_in, s_out, z_out, dt, lo=None, hi=None, axis=1):
    """An exact int32 accumulator at scale s_in (f32, per channel along
    `axis`) to codes of (s_out, z_out), ONNX Runtime's CPU rule, which is
    what QLinearConv / QLinearMatMul / QGemm compute and what the project
    documents for the QDQ Conv / MatMul / Gemm -> Q (docs/ONNXImport.md,
    "Rounding": M = f32(S_in) / f32(S_out) in f32, round_half_even(f32(acc)
    * M), plus the zero point, saturated; Relu / Clip are the clamp
    [Q(lo), Q(hi)], exact since rounding is monotone). The float graph would
    compute the conv in f32 and divide by S_y: not exactly defined (f32
    summation order), so the integer rule is the reference."""
    acc = np.asarray(acc, np.int64)
    s_in = np.asarray(s_in, F32)
    m = (s_in / F32(s_out)).astype(F32)
    m = per_axis(m, acc.ndim, axis) if m.size > 1 else m.reshape(())
    with np.errstate(over="ignore", invalid="ignore"):
        v = (acc.astype(F32) * m).astype(F32)
    # A NaN (0 * an infinite multiplier) is real 0: the zero point.
    y = np.rint(np.nan_to_num(v.astype(np.float64), nan=0.0, posinf=np.inf, neginf=-np.inf)) + z_out
    qlo, qhi = QRANGE[dt]
    return np.clip(y, qlo if lo is None else lo, qhi if hi is None else hi).astype(np.int64)


def round_div_half_even(num, den):
    """Exact num / den (integers, den > 0) rounded half to even."""
    num = np.asarray(num, np.int64)
    den = np.asarray(den, np.int64)
    q = np.floor_divide(num, den)
    r = num - q * den
    up = (2 * r > den) | ((2 * r == den) & (q % 2 != 0))
    return q + up


def conv_acc(x, zx, w, zw, strides, pads, dilations, group):
    """Exact integer NCHW convolution of (x - zx) and (w - zw[f]); the
    padding holds real zero (x's zero point). pads: ONNX order
    [h_begin, w_begin, h_end, w_end]."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.zeros((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]), np.int64)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x - zx
    wc = w.astype(np.int64) - np.broadcast_to(np.asarray(zw, np.int64), (f,)).reshape(f, 1, 1, 1)
    oh = (xp.shape[2] - ((kh - 1) * dilations[0] + 1)) // strides[0] + 1
    ow = (xp.shape[3] - ((kw - 1) * dilations[1] + 1)) // strides[1] + 1
    out = np.zeros((n, f, oh, ow), np.int64)
    fg = f // group
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dilations[0], j * dilations[1]
            patch = xp[:, :, r0:r0 + strides[0] * (oh - 1) + 1:strides[0],
                       c0:c0 + strides[1] * (ow - 1) + 1:strides[1]]
            for g in range(group):
                out[:, g * fg:(g + 1) * fg] += np.einsum(
                    "nchw,fc->nfhw", patch[:, g * cg:(g + 1) * cg],
                    wc[g * fg:(g + 1) * fg, :, i, j])
    return out


def conv_transpose_acc(x, zx, w, zw, strides, pads, output_padding, dilations, group):
    """Exact integer ConvTranspose of (x - zx) and (w[c, m] - zw[m]) (w:
    C x M/group x kH x kW), by its definition's scatter: input (i, j) adds
    to output (i * s + ki * d, j * s + kj * d) of the full result, which
    pads then crop (ONNX order [h_begin, w_begin, h_end, w_end]) and
    output_padding extends at the end."""
    n, c, h, wd = x.shape
    _, mg, kh, kw = w.shape
    xs = x.astype(np.int64) - zx
    wc = w.astype(np.int64) - np.broadcast_to(np.asarray(zw, np.int64), (mg,)).reshape(1, mg, 1, 1)
    full = [(h - 1) * strides[0] + (kh - 1) * dilations[0] + 1 + output_padding[0],
            (wd - 1) * strides[1] + (kw - 1) * dilations[1] + 1 + output_padding[1]]
    y = np.zeros((n, mg * group, full[0], full[1]), np.int64)
    cg = c // group
    for g in range(group):
        for i in range(kh):
            for j in range(kw):
                r0, c0 = i * dilations[0], j * dilations[1]
                y[:, g * mg:(g + 1) * mg, r0:r0 + (h - 1) * strides[0] + 1:strides[0],
                  c0:c0 + (wd - 1) * strides[1] + 1:strides[1]] += np.einsum(
                      "nchw,cm->nmhw", xs[:, g * cg:(g + 1) * cg], wc[g * cg:(g + 1) * cg, :, i, j])
    return y[:, :, pads[0]:full[0] - pads[2], pads[1]:full[1] - pads[3]]


def conv_abs_bound(x, zx, w, zw, strides, pads, dilations, group):
    """sum |terms| per output: bounds every partial sum of the conv."""
    return conv_acc(np.abs(x - zx), 0, np.abs(
        w.astype(np.int64) - np.broadcast_to(np.asarray(zw, np.int64), (w.shape[0],)).reshape(-1, 1, 1, 1)),
        0, strides, pads, dilations, group)


def pool_geometry(in_len, k, s, pb, pe, d, ceil):
    """ONNX's output length and, per output, the tap positions (input
    coordinates, may be outside) of one spatial axis."""
    ext = (k - 1) * d + 1
    span = in_len + pb + pe - ext
    out = (-(-span // s) if ceil else span // s) + 1
    taps = [[o * s - pb + t * d for t in range(k)] for o in range(out)]
    return out, taps


def pool_windows(h, w, kernel, strides, pads, dilations, ceil):
    oh, th = pool_geometry(h, kernel[0], strides[0], pads[0], pads[2], dilations[0], ceil)
    ow, tw = pool_geometry(w, kernel[1], strides[1], pads[1], pads[3], dilations[1], ceil)
    return oh, ow, th, tw


def max_pool_ref(x, kernel, strides, pads, dilations, ceil):
    """MaxPool on codes: the max of the real (not padded) positions; the
    scale is positive, so the max of the codes is the code of the max."""
    n, c, h, w = x.shape
    oh, ow, th, tw = pool_windows(h, w, kernel, strides, pads, dilations, ceil)
    y = np.zeros((n, c, oh, ow), np.int64)
    for i in range(oh):
        rows = [r for r in th[i] if 0 <= r < h]
        for j in range(ow):
            cols = [q for q in tw[j] if 0 <= q < w]
            y[:, :, i, j] = x[:, :, rows][:, :, :, cols].max(axis=(2, 3))
    return y


def avg_pool_sums(x, zx, kernel, strides, pads, ceil, cip):
    """Per output: the exact sum of (x - zx) over the window's real
    positions, and the ONNX count: the positions inside the input, or with
    count_include_pad those inside the explicitly padded input (ceil_mode's
    overrun past the padding is never counted: ONNX Runtime and PyTorch)."""
    n, c, h, w = x.shape
    oh, ow, th, tw = pool_windows(h, w, kernel, strides, pads, (1, 1), ceil)
    sums = np.zeros((n, c, oh, ow), np.int64)
    counts = np.zeros((oh, ow), np.int64)
    for i in range(oh):
        rows = [r for r in th[i] if 0 <= r < h]
        prow = [r for r in th[i] if -pads[0] <= r < h + pads[2]]
        for j in range(ow):
            cols = [q for q in tw[j] if 0 <= q < w]
            pcol = [q for q in tw[j] if -pads[1] <= q < w + pads[3]]
            sums[:, :, i, j] = (x[:, :, rows][:, :, :, cols] - zx).sum(axis=(2, 3))
            counts[i, j] = len(prow) * len(pcol) if cip else len(rows) * len(cols)
    return sums, counts


def avg_pool_f32(x, zx, sx, kernel, strides, pads, ceil, counts):
    """The f32 mean of the dequantized window ((x - zx) * sx, each rounded
    to f32), its real positions added in row-major order from 0.0 (padding
    adds +0.0), divided by the ONNX count: the QDQ graph's AveragePool as
    the importer computes it where counts differ between windows."""
    n, c, h, w = x.shape
    oh, ow, th, tw = pool_windows(h, w, kernel, strides, pads, (1, 1), ceil)
    real = ((x - zx).astype(F32) * F32(sx)).astype(F32)
    y = np.zeros((n, c, oh, ow), F32)
    for i in range(oh):
        for j in range(ow):
            acc = np.zeros((n, c), F32)
            for r in th[i]:
                for q in tw[j]:
                    if 0 <= r < h and 0 <= q < w:
                        acc = (acc + real[:, :, r, q]).astype(F32)
            y[:, :, i, j] = (acc / F32(counts[i, j])).astype(F32)
    return y


def pool_extra(in_len, k, s, pb, pe, ceil):
    """ceil_mode's overrun past the end padding of one axis."""
    ext = k
    out, _ = pool_geometry(in_len, k, s, pb, pe, 1, ceil)
    return max(0, (out - 1) * s + ext - (in_len + pb + pe))


# ---------------------------------------------------------------------------
# Graph building
# ---------------------------------------------------------------------------
class Val:
    """A tensor of the graph and its exact value.

    form 'q': an int8 / uint8 tensor of codes (a QuantizeLinear output, a
    QLinear op's output, a graph input of codes);
    form 'd': an f32 tensor that is exactly the dequantization of codes (a
    DequantizeLinear output, or MaxPool / Reshape / ... of one);
    form 'f': a plain f32 tensor (`f` holds its value).
    """

    def __init__(self, name, form, codes=None, dt=None, s=None, z=None, f=None):
        self.name, self.form, self.codes, self.dt = name, form, codes, dt
        self.s = None if s is None else F32(s)
        self.z = None if z is None else int(z)
        self.f = f
        # Codes of a graph input, only moved since: the importer sees a raw
        # integer tensor (no parameters until a DequantizeLinear or QLinear
        # op), on which it diagnoses MaxPool and Pad ("integer tensor where
        # a float tensor is expected"): such values are dequantized first.
        self.raw = False

    @property
    def shape(self):
        return tuple((self.codes if self.form != "f" else self.f).shape)

    @property
    def rank(self):
        return len(self.shape)

    def real(self):
        if self.form == "f":
            return self.f.astype(np.float64)
        return (self.codes - self.z).astype(np.float64) * float(self.s)

    def same_params(self, other):
        return (self.dt, float(self.s), self.z) == (other.dt, float(other.s), other.z)


class Skip(Exception):
    """The drawn op does not apply to the current value: draw another."""


class Case:
    def __init__(self, seed, index, max_ops=None, exclude=(), large=False):
        self.r = random.Random("onnx-diff-fuzz:%d:%d" % (seed, index))
        self.nr = np.random.default_rng(self.r.getrandbits(64))
        self.seed, self.index = seed, index
        self.max_ops = max_ops
        self.exclude = set(exclude)
        self.nodes, self.inits, self.inputs = [], [], []
        self.feeds = {}        # input name -> array
        self.expected = []     # (output name, 'i8' / 'u8' / 'f32', array)
        self.counter = 0
        self.ms = False
        self.log = []          # one line per op, for the report
        self.history = []      # values an op may take as a second operand
        self.opset = self.r.choice([13, 13, 14, 17, 17])
        # Power-of-two scales everywhere: float results of contractions
        # and averages are then exact f32 arithmetic and can be outputs.
        self.pow2 = self.r.random() < 0.15
        self.qop_bias = self.r.choice([0.0, 0.3, 0.5, 0.8, 1.0])
        # Larger shapes now and then: kernel blocks and their tails.
        self.large = self.r.random() < 0.15 or large
        self.force_other = None
        self.int16 = self.r.choice([0.0, 0.0, 0.1, 0.3])
        if "int16" in self.exclude:
            self.int16 = 0.0
        self.dynamic = []      # --input-shape NAME=D0x... for symbolic inputs

    # -- names and initializers ------------------------------------------
    def fresh(self, base):
        self.counter += 1
        return "%s_%d" % (base, self.counter)

    def init(self, arr, base):
        name = self.fresh(base)
        self.inits.append(numpy_helper.from_array(np.asarray(arr), name))
        return name

    def node(self, op, inputs, base=None, domain=None, outputs=None, **attrs):
        outs = outputs or [self.fresh(base or op.lower())]
        kw = {k: v for k, v in attrs.items() if v is not None}
        self.nodes.append(helper.make_node(op, inputs, outs, domain=domain,
                                           name=self.fresh("n_" + op), **kw))
        if domain == MS:
            self.ms = True
        return outs[0]

    def scale_init(self, s):
        s = np.asarray(s, F32)
        if s.ndim == 0 and self.r.random() < 0.15:
            s = s.reshape(1)  # a 1-element tensor: per tensor, as ORT reads it
        return self.init(s, "scale")

    def zp_init(self, z, dt, shape1=False):
        z = np.asarray(z).astype(NP_TYPE[dt])
        if shape1:
            z = z.reshape(1)
        return self.init(z, "zp")

    def params(self, v):
        s = np.asarray(v.s, F32)
        one = self.r.random() < 0.15
        return (self.init(s.reshape(1) if one else s, "scale"),
                self.zp_init(v.z, v.dt, one))

    # -- random draws ----------------------------------------------------
    def chance(self, p):
        return self.r.random() < p

    def qop(self, v=None):
        """QOperator form for this op? (Its ops take 8-bit codes only.)"""
        return self.r.random() < self.qop_bias and (v is None or v.dt != "i16")

    def act_dt(self, allow16=True):
        """An activation type: int8, uint8, or (QDQ only) int16, which
        needs ONNX Runtime's com.microsoft QuantizeLinear /
        DequantizeLinear at opset 13-17."""
        if allow16 and self.r.random() < self.int16:
            return "i16"
        return self.r.choice(["i8", "u8"])

    def qdq_node(self, op, ins, base, dt, **attrs):
        return self.node(op, ins, base, domain=MS if dt == "i16" else None, **attrs)

    def pick_scale(self, base, spread=1.5):
        """A positive f32 scale near `base` (log-uniform, sometimes far)."""
        r = self.r
        if r.random() < 0.015 and not self.pow2 and "extreme" not in self.exclude:
            # The ends of f32: subnormal (down to 2^-149) and huge scales,
            # where multipliers and dequantized values overflow to inf.
            return F32(r.choice(EXTREME_SCALES))
        u = r.random()
        if u < 0.03:
            s = base * 10 ** r.uniform(-4, -1.5)    # tiny: most codes saturate
        elif u < 0.06:
            s = base * 10 ** r.uniform(1.5, 4)      # large: few codes
        else:
            s = base * 2 ** r.uniform(-spread, spread)
        s = min(max(s, 1e-30), 1e30)
        if self.pow2:
            s = 2.0 ** max(-14, min(6, round(math.log2(s))))
        return F32(s)

    def pick_zp(self, dt, s, lo_real, hi_real):
        qlo, qhi = QRANGE[dt]
        if self.chance(0.15):
            return self.r.randint(qlo, qhi)
        if self.chance(0.05):
            return self.r.choice([qlo, qhi, 0 if dt == "i8" else 128])
        z = qlo - lo_real / float(s) + self.r.uniform(-10, 10)
        if not np.isfinite(z):
            z = 0
        return int(min(max(round(z), qlo), qhi))

    def pick_out(self, real, dt=None, ties=(), allow16=True):
        """Output parameters for an op whose real results are about `real`
        (float64): a zero point (centred, or anywhere in range), then a
        scale that about fits the results on the grid (sometimes a
        power-of-two multiple of `ties`, where exact ties occur; now and
        then far too small or too large)."""
        r = self.r
        dt = dt or self.act_dt(allow16)
        qlo, qhi = QRANGE[dt]
        real = np.asarray(real, np.float64).reshape(-1)
        real = real[np.isfinite(real)]
        lo = float(real.min()) if real.size else -1.0
        hi = float(real.max()) if real.size else 1.0
        lo, hi = min(lo, 0.0), max(hi, 0.0)
        if not hi - lo > 0:
            hi = 1e-3 if lo == 0 else hi
            lo = -1e-3 if lo == 0 else lo
        u = r.random()
        if u < 0.6:
            z = int(round(qlo + (qhi - qlo) * (-lo) / (hi - lo)))
        elif u < 0.9:
            z = r.randint(qlo, qhi)
        else:
            z = r.choice([qlo, qhi, 0 if dt == "i8" else 128])
        z = min(max(z + (r.randint(-3, 3) if u < 0.6 else 0), qlo), qhi)
        need = 0.0
        if hi > 0 and z < qhi:
            need = max(need, hi / (qhi - z))
        if lo < 0 and z > qlo:
            need = max(need, -lo / (z - qlo))
        if not need > 0:
            need = (hi - lo) / 255
        ties = [t for t in ties if t > 0]  # an input scale that underflowed
        if ties and r.random() < 0.25:
            # A power-of-two multiple of an input scale near the need: the
            # multiplier is then a power of two and exact ties occur.
            t = float(r.choice(ties))
            s = F32(t * 2.0 ** (round(math.log2(need / t)) + r.randint(-1, 1)))
            if not (1e-30 < s < 1e30):
                s = self.pick_scale(need)
        else:
            s = self.pick_scale(need * 2 ** r.uniform(-0.7, 0.3), spread=0.3)
        return s, z, dt

    def input_codes(self, shape, dt, z=None):
        lo, hi = QRANGE[dt]
        u = self.r.random()
        if u < 0.15 and z is not None:       # narrow, around the zero point
            a = self.nr.integers(max(lo, z - 6), min(hi, z + 6) + 1, shape)
        elif u < 0.25:                       # extremes
            a = self.nr.choice([lo, lo + 1, hi - 1, hi], shape)
        else:
            a = self.nr.integers(lo, hi + 1, shape)
        return a.astype(np.int64)

    # -- Q / DQ ----------------------------------------------------------
    def dq(self, v):
        """The float (dequantized) form of v."""
        if v.form != "q":
            return v
        s, z = self.params(v)
        # The zero point is optional (0 of the codes' type).
        ins = [v.name, s] + ([] if v.z == 0 and self.chance(0.3) else [z])
        name = self.qdq_node("DequantizeLinear", ins, "dq", v.dt)
        return Val(name, "d", v.codes, v.dt, v.s, v.z)

    def q_same(self, v):
        """The codes form of v (a QuantizeLinear on its own grid is exact)."""
        if v.form == "q":
            return v
        assert v.form == "d"
        s, z = self.params(v)
        name = self.qdq_node("QuantizeLinear", [v.name, s, z], "q", v.dt)
        return Val(name, "q", v.codes, v.dt, v.s, v.z)

    def quantize(self, fname, codes, s, z, dt):
        """QuantizeLinear of a float tensor whose codes are known."""
        sn = self.scale_init(np.asarray(s, F32))
        zn = self.zp_init(z, dt)
        name = self.qdq_node("QuantizeLinear", [fname, sn, zn], "q", dt)
        return Val(name, "q", codes, dt, s, z)

    def clamp_nodes(self, fname, real, s_out, z_out, dt):
        """Maybe Relu / Clip on a float result before its QuantizeLinear.
        Returns (name, lo_code, hi_code, description)."""
        lo_c, hi_c = QRANGE[dt]
        u = self.r.random()
        if u < 0.55:
            return fname, lo_c, hi_c, ""
        real = np.asarray(real, np.float64).reshape(-1)
        desc = []
        bounds = []
        if u < 0.75:
            fname = self.node("Relu", [fname], "relu")
            bounds.append((F32(0), None))
            desc.append("Relu")
        else:
            a = F32(np.quantile(real, self.r.uniform(0, 0.5))) if real.size else F32(-1)
            b = F32(np.quantile(real, self.r.uniform(0.5, 1))) if real.size else F32(1)
            if self.chance(0.2):
                a = F32(self.r.choice([0.0, -1.0, -6.0]))
                b = F32(self.r.choice([6.0, 1.0, float(b)]))
            if a > b:
                a, b = b, a
            which = self.r.choice(["both", "both", "min", "max"])
            ins = [fname, self.init(a, "clip_min") if which != "max" else "",
                   self.init(b, "clip_max") if which != "min" else ""]
            while ins[-1] == "":
                ins.pop()
            fname = self.node("Clip", ins, "clip")
            bounds.append((a if which != "max" else None, b if which != "min" else None))
            desc.append("Clip(%s, %s)" % (a if which != "max" else "-", b if which != "min" else "-"))
            if self.chance(0.2):
                fname = self.node("Relu", [fname], "relu")
                bounds.append((F32(0), None))
                desc.append("Relu")
        # The clamps compose: clip(clip(x, a, b), c, d) = clip(x, clip(a,c,d),
        # clip(b,c,d)); Q is monotone, so Q(clip(x, a, b)) = clip(Q(x), Q(a), Q(b)).
        lo_r, hi_r = -np.inf, np.inf
        for a, b in bounds:
            lo_n = -np.inf if a is None else float(a)
            hi_n = np.inf if b is None else float(b)
            lo_r, hi_r = min(max(lo_r, lo_n), hi_n), min(max(hi_r, lo_n), hi_n)
        if np.isfinite(lo_r):
            lo_c = max(lo_c, int(quantize_linear(F32(lo_r), s_out, z_out, dt)))
        if np.isfinite(hi_r):
            hi_c = min(hi_c, int(quantize_linear(F32(hi_r), s_out, z_out, dt)))
        return fname, lo_c, hi_c, " -> ".join(desc)

    # -- graph inputs ----------------------------------------------------
    def near(self, like):
        """A base scale: near like's scale, or anywhere."""
        if like is None or self.chance(0.15):
            return 10 ** self.r.uniform(-4, 1)
        return float(like.s) * 2 ** self.r.uniform(-3, 3)

    def graph_input(self, shape, kind, base=None, dt=None):
        """A new graph input: 'float' (then QuantizeLinear) or codes."""
        name = self.fresh("x")
        if base is None:
            base = 10 ** self.r.uniform(-4, 1)
        if kind == "float":
            dt = dt or self.act_dt()
            s = self.pick_scale(base)
            z = self.pick_zp(dt, s, -100 * float(s), 100 * float(s))
            lo, hi = QRANGE[dt]
            codes = self.nr.integers(lo - 20, hi + 21, shape)
            x = ((codes - z) * float(s)).astype(F32)
            u = self.r.random()
            if u < 0.4 or self.pow2:
                # Exact ties (k + 1/2) s where representable, else a hair off.
                half = ((codes - z) + 0.5) * float(s)
                mask = self.nr.random(shape) < 0.5
                x = np.where(mask, half, x).astype(F32)
            noise = self.nr.uniform(-0.5, 0.5, shape) * float(s)
            mask = self.nr.random(shape) < 0.3
            x = np.where(mask, x + noise, x).astype(F32)
            self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape)))
            self.feeds[name] = x
            codes = quantize_linear(x, s, z, dt)
            v = self.quantize(name, codes, s, z, dt)
            self.log.append("input %s f32%s -> QuantizeLinear(%s, %g, %d)" % (name, list(shape), dt, s, z))
            return v
        dt = dt or self.act_dt()
        s = self.pick_scale(base)
        z = self.r.randint(*QRANGE[dt])
        codes = self.input_codes(shape, dt, z)
        self.inputs.append(helper.make_tensor_value_info(name, ONNX_TYPE[dt], list(shape)))
        self.feeds[name] = codes.astype(NP_TYPE[dt])
        self.log.append("input %s %s%s (scale %g, zero point %d)" % (name, dt, list(shape), s, z))
        v = Val(name, "q", codes, dt, s, z)
        v.raw = True
        return v

    def operand_like(self, shape, dt=None, like=None):
        """A second operand of `shape`: an earlier value, constant codes or a
        new graph input, its scale near like's (when given)."""
        cands = [h for h in self.history if h.shape == tuple(shape)
                 and (dt is None or h.dt == dt)]
        if cands and self.chance(0.4):
            return self.r.choice(cands)
        if self.chance(0.25):
            # Constant codes through DequantizeLinear (or a QOperator input).
            dt = dt or self.act_dt()
            s = self.pick_scale(self.near(like))
            z = self.r.randint(*QRANGE[dt])
            codes = self.input_codes(shape, dt, z)
            name = self.init(codes.astype(NP_TYPE[dt]), "const")
            return Val(name, "q", codes, dt, s, z)
        return self.graph_input(shape, "codes" if self.chance(0.5) else "float",
                                self.near(like), dt)

    # -- weights ---------------------------------------------------------
    def weights(self, shape, axis, qop):
        """Constant weight codes (int8, sometimes uint8), per tensor or per
        channel along `axis`: (name of the float or code tensor for the op,
        codes, scales (array per channel or scalar), zero points, axis)."""
        r = self.r
        dt = "u8" if r.random() < 0.1 else "i8"
        channels = shape[axis]
        per_channel = channels > 1 and r.random() < 0.5
        nsc = channels if per_channel else 1
        base = 10 ** r.uniform(-4, 0)
        scales = np.array([self.pick_scale(base) if r.random() < 0.7 else F32(base)
                           for _ in range(nsc)], F32)
        if self.pow2:
            scales = np.array([2.0 ** max(-14, min(4, round(math.log2(float(x))))) for x in scales], F32)
        lo, hi = QRANGE[dt]
        if dt == "u8" or r.random() < 0.2:
            zps = np.array([r.randint(lo, hi) for _ in range(nsc)], np.int64)
        else:
            zps = np.zeros(nsc, np.int64)
        codes = self.nr.integers(lo if r.random() < 0.5 else lo + 1, hi + 1, shape).astype(np.int64)
        if r.random() < 0.1:
            codes = self.nr.choice([lo, hi, 0 if dt == "i8" else 128], shape).astype(np.int64)
        sc = scales if per_channel else scales[0]
        zp = zps if per_channel else zps[0]
        if qop:
            return (self.init(codes.astype(NP_TYPE[dt]), "w"), codes, sc, zp, dt, per_channel)
        ax = axis if per_channel else None
        if per_channel and r.random() < 0.2:
            ax = axis - len(shape)  # a negative axis
        if r.random() < 0.3:
            # Float weights through QuantizeLinear -> DequantizeLinear (torch's
            # QAT export): Q of a constant is computed at import.
            wf = dequantize_linear(codes, sc, zp, axis if per_channel else None)
            noise = self.nr.uniform(-0.49, 0.49, shape) * np.asarray(
                per_axis(sc, len(shape), axis) if per_channel else sc, np.float64)
            wf = (wf + noise).astype(F32)
            codes = quantize_linear(wf, sc, zp, dt, axis if per_channel else None)
            wn = self.init(wf, "wf")
            sn, zn = self.init(np.asarray(sc, F32), "w_scale"), self.init(np.asarray(zp).astype(NP_TYPE[dt]), "w_zp")
            qn = self.node("QuantizeLinear", [wn, sn, zn], "wq", axis=ax)
            name = self.node("DequantizeLinear", [qn, sn, zn], "wdq", axis=ax)
        else:
            wn = self.init(codes.astype(NP_TYPE[dt]), "w")
            sn = self.init(np.asarray(sc, F32), "w_scale")
            ins = [wn, sn]
            if np.any(zps != 0) or dt == "u8" or r.random() < 0.7:
                ins.append(self.init(np.asarray(zp).astype(NP_TYPE[dt]), "w_zp"))
            name = self.node("DequantizeLinear", ins, "wdq", axis=ax)
        return (name, codes, sc, zp, dt, per_channel)

    def bias(self, channels, sx, sw, per_channel, qop, row=False):
        """An int32 bias at S_x * S_w (per channel), through
        DequantizeLinear in QDQ form; or, rarely, a float bias (QDQ), which
        the project quantizes at import as ONNX Runtime's quantizer does:
        round_half_even(f32(b) / f32(S_x * S_w)) (docs/ONNXImport.md,
        "Supported operators"; a deliberate rule, modelled as documented).
        row: a Gemm / MatMul bias, which ONNX broadcasts: sometimes [1, N],
        or one element for all columns (per-tensor weights)."""
        r = self.r
        mag = r.choice([0, 10, 1000, 100000, 3000000])
        codes = self.nr.integers(-mag, mag + 1, channels).astype(np.int64)
        sws = np.broadcast_to(np.asarray(sw, F32), (channels,))
        bscale = (F32(sx) * sws).astype(F32)
        if not np.all(bscale > 0) or not np.all(np.isfinite(bscale)):
            raise Skip  # S_x * S_w outside f32: no valid bias scale
        if qop:
            return self.init(codes.astype(np.int32), "bias"), codes, "int32 bias"
        if not self.pow2 and r.random() < 0.15:
            bf = ((codes.astype(np.float64) + self.nr.uniform(-0.5, 0.5, channels))
                  * bscale.astype(np.float64)).astype(F32)
            if not np.all(np.isfinite(bf)):
                raise Skip  # beyond f32 (huge scales): the importer refuses it
            codes = np.rint((bf / bscale).astype(F32).astype(np.float64)).astype(np.int64)
            return self.init(bf, "bias_f"), codes, "float bias"
        shape = (channels,)
        if row and r.random() < 0.3:
            shape = (1, channels)
        elif row and not per_channel and r.random() < 0.2:
            codes = np.full(channels, codes[0], np.int64)
            shape = (1,) if r.random() < 0.5 else ()
        ins = [self.init(codes[:int(np.prod(shape))].reshape(shape).astype(np.int32), "bias")]
        if per_channel:
            ins.append(self.init(bscale, "bias_scale"))
            if r.random() < 0.5:
                ins.append(self.init(np.zeros(channels, np.int32), "bias_zp"))
            return (self.node("DequantizeLinear", ins, "bias_dq", axis=len(shape) - 1), codes,
                    "int32 bias%s (per channel)" % list(shape))
        ins.append(self.init(bscale[0], "bias_scale"))
        if r.random() < 0.5:
            ins.append(self.init(np.int32(0), "bias_zp"))
        return self.node("DequantizeLinear", ins, "bias_dq"), codes, "int32 bias%s" % list(shape)

    # -- the ops -----------------------------------------------------------
    # Each takes the current value and whether it is the chain's last op,
    # adds its nodes and returns the new value (raises Skip if it does not
    # apply). A value of form 'f' ends the chain.

    def finish_contraction(self, fname, acc, s_in, axis, desc):
        """QDQ: [Relu / Clip] -> QuantizeLinear of a pending contraction
        whose exact accumulator (bias included) is `acc` at scale s_in
        (f32, per channel along `axis`)."""
        real = acc * per_axis(s_in.astype(np.float64), acc.ndim, axis) \
            if s_in.size > 1 else acc * float(s_in)
        s, z, dt = self.pick_out(real, ties=[s_in.reshape(-1)[0]] if s_in.size == 1 else ())
        if "float bias" in desc and s <= float(s_in.max()):
            # Where the float bias's int32 rounding could move the result by
            # half an output step, the importer adds it in f32 (its f32
            # contraction's summation order is not modelled here): a
            # coarser output grid keeps the modelled integer rule.
            s = float(F32(2 * float(s_in.max())))
        fname, lo, hi, cdesc = self.clamp_nodes(fname, real, s, z, dt)
        y = requantize_f32(acc, s_in, s, z, dt, lo, hi, axis)
        out = self.quantize(fname, y, s, z, dt)
        self.log.append("%s%s -> Q(%s, %g, %d) %s" % (
            desc, (" -> " + cdesc) if cdesc else "", dt, s, z, list(y.shape)))
        return out

    def float_tail_ok(self, last, bound):
        """A contraction / average without QuantizeLinear is exact f32
        arithmetic when every scale is a power of two and every partial sum
        stays below 2^24 units."""
        return last and self.pow2 and bound < 2 ** 24 and self.chance(0.5)

    def float_out(self, fname, value, desc):
        if self.chance(0.3):
            fname = self.node("Relu", [fname], "relu")
            value = np.maximum(value, F32(0)).astype(F32)
            desc += " -> Relu"
        self.log.append("%s -> f32 output %s" % (desc, list(value.shape)))
        return Val(fname, "f", f=value.astype(F32))

    def op_conv(self, v, last, keep_shape=False):
        if v.dt == "i16":
            raise Skip  # conv / matmul inputs are 8-bit (docs/Semantics.md)
        if v.rank not in (3, 4):
            raise Skip
        r = self.r
        # A rank-3 input: a 1-D conv, modelled as the 2-D one of height 1.
        one_d = v.rank == 3
        n, c, h, w = (v.shape[0], v.shape[1], 1, v.shape[2]) if one_d else v.shape
        x4 = v.codes.reshape(n, c, h, w)
        u = r.random()
        divs = [g for g in range(1, c + 1) if c % g == 0]
        g = 1 if u < 0.5 else (c if u < 0.75 else r.choice(divs))
        if g > 16 and not self.large:
            g = 1
        f = g * r.choice([1, 1, 2, 3]) if g > 1 else r.randint(1, 48 if self.large else 16)
        if f > (64 if self.large else 24):
            f = g
        if keep_shape:
            f = c  # a residual block's conv: same shape out
        for _ in range(20):
            k = [r.choice([1, 1, 2, 3, 3, 4, 5]) for _ in range(2)]
            d = [r.choice([1, 1, 1, 2, 3]) for _ in range(2)] if r.random() < 0.3 else [1, 1]
            s = [r.choice([1, 1, 1, 2, 3]) for _ in range(2)]
            if one_d:
                k[0], d[0], s[0] = 1, 1, 1
            ext = [(k[i] - 1) * d[i] + 1 for i in range(2)]
            auto = r.choice(["NOTSET"] * 6 + ["SAME_UPPER", "SAME_LOWER", "VALID"])
            if keep_shape:
                s = [1, 1]
                auto = r.choice(["NOTSET", "SAME_UPPER", "SAME_LOWER"])
            if auto == "NOTSET":
                pads = [r.randint(0, ext[i % 2]) if r.random() < 0.6 else 0 for i in range(4)]
                if keep_shape:
                    pads = [0, 0, 0, 0]
                    for i in range(2):
                        pads[i] = r.randint(0, ext[i] - 1)
                        pads[i + 2] = ext[i] - 1 - pads[i]
            elif auto == "VALID":
                pads = [0, 0, 0, 0]
            else:
                pads = [0, 0, 0, 0]
                for i, size in enumerate((h, w)):
                    total = max(0, (-(-size // s[i]) - 1) * s[i] + ext[i] - size)
                    small = total // 2
                    pads[i] = small if auto == "SAME_UPPER" else total - small
                    pads[i + 2] = total - pads[i]
            if one_d:
                pads[0] = pads[2] = 0
            if all(size + pads[i] + pads[i + 2] >= ext[i] for i, size in enumerate((h, w))):
                break
        else:
            raise Skip
        qop = self.qop(v)
        x = self.q_same(v) if qop else self.dq(v)
        wshape = (f, c // g, k[1]) if one_d else (f, c // g, k[0], k[1])
        wname, wc, sw, zw, wdt, pc = self.weights(wshape, 0, qop)
        wc = wc.reshape(f, c // g, k[0], k[1])
        acc = conv_acc(x4, v.z, wc, zw, s, pads, d, g)

        def result(a):  # N x F x L for a 1-D conv
            return a.reshape(n, f, -1) if one_d else a
        s_in = (F32(v.s) * np.asarray(sw, F32).reshape(-1)).astype(F32)
        has_bias = r.random() < 0.6
        dims = slice(1, 2) if one_d else slice(0, 2)
        attrs = dict(group=g if g > 1 or r.random() < 0.3 else None,
                     strides=s[dims] if s != [1, 1] or r.random() < 0.3 else None,
                     dilations=d[dims] if d != [1, 1] else None,
                     kernel_shape=k[dims] if r.random() < 0.5 else None)
        if auto == "NOTSET":
            onnx_pads = [pads[1], pads[3]] if one_d else pads
            attrs["pads"] = onnx_pads if any(pads) or r.random() < 0.3 else None
        else:
            attrs["auto_pad"] = auto
        desc = "Conv%s%s k%s s%s d%s g%d pads%s %s-w%s%s" % (
            "(QLinearConv)" if qop else "", " 1-D" if one_d else "", k, s, d, g, pads if auto == "NOTSET" else auto,
            wdt, " per-channel" if pc else "", "")
        if qop:
            ins = [x.name, *self.params(x), wname,
                   self.init(np.asarray(sw, F32), "w_scale"),
                   self.init(np.asarray(zw).astype(NP_TYPE[wdt]), "w_zp")]
            bname = None
            if has_bias:
                bname, bc, bdesc = self.bias(f, v.s, sw, pc, True)
                acc = acc + bc.reshape(1, f, 1, 1)
                desc += " +" + bdesc
            real = acc * s_in.astype(np.float64).reshape(1, -1, 1, 1)
            so, zo, dto = self.pick_out(real, ties=[s_in[0]] if s_in.size == 1 else (), allow16=False)
            ins += [self.init(so, "y_scale"), self.zp_init(zo, dto)]
            if bname:
                ins.append(bname)
            name = self.node("QLinearConv", ins, "qconv", **attrs)
            y = requantize_f32(result(acc), s_in, so, zo, dto, axis=1)
            self.log.append("%s -> (%s, %g, %d) %s" % (desc, dto, so, zo, list(y.shape)))
            return Val(name, "q", y, dto, so, zo)
        ins = [x.name, wname]
        if has_bias:
            bname, bc, bdesc = self.bias(f, v.s, sw, pc, False)
            acc = acc + bc.reshape(1, f, 1, 1)
            ins.append(bname)
            desc += " +" + bdesc
        fname = self.node("Conv", ins, "conv", **attrs)
        bound = conv_abs_bound(x4, v.z, wc, zw, s, pads, d, g).max(initial=0) + (
            np.abs(bc).max() if has_bias else 0)
        if self.float_tail_ok(last, bound) and "float bias" not in desc:
            # Exact: power-of-two scales, every partial sum below 2^24 units.
            val = (acc.astype(F32) * s_in.reshape(1, -1, 1, 1)).astype(F32)
            return self.float_out(fname, result(val), desc)
        return self.finish_contraction(fname, result(acc), s_in, 1, desc)

    def op_conv_transpose(self, v, last):
        """QDQ ConvTranspose (torch's ConvTranspose2d): groups, strides,
        dilations, padding up to one past the kernel's span (the importer
        crops), output_padding below the stride or dilation."""
        if v.dt == "i16" or v.rank not in (3, 4):
            raise Skip
        r = self.r
        # A rank-3 input: 1-D, modelled as the 2-D one of height 1.
        one_d = v.rank == 3
        n, c, h, w = (v.shape[0], v.shape[1], 1, v.shape[2]) if one_d else v.shape
        x4 = v.codes.reshape(n, c, h, w)
        divs = [g for g in range(1, c + 1) if c % g == 0]
        g = 1 if r.random() < 0.6 else r.choice(divs)
        mg = r.randint(1, 6)
        k = [r.choice([1, 2, 3, 3, 4]) for _ in range(2)]
        d = [r.choice([1, 1, 1, 2]) for _ in range(2)]
        s = [r.choice([1, 2, 2, 3]) for _ in range(2)]
        span = [(k[i] - 1) * d[i] for i in range(2)]
        pads = [r.randint(0, span[i % 2] + 1) if r.random() < 0.6 else 0 for i in range(4)]
        op = [r.randint(0, max(s[i], d[i]) - 1) if r.random() < 0.3 else 0 for i in range(2)]
        if r.random() < 0.25:
            # The kernel as large as the stride, no padding (U-Net
            # upsampling): the importer's block form.
            g, k, d, pads, op = 1, list(s), [1, 1], [0, 0, 0, 0], [0, 0]
            span = [(k[i] - 1) * d[i] for i in range(2)]
        if one_d:
            k[0], d[0], s[0], op[0] = 1, 1, 1, 0
            span[0] = pads[0] = pads[2] = 0
        out = [s[i] * (size - 1) + op[i] + span[i] + 1 - pads[i] - pads[i + 2]
               for i, size in enumerate((h, w))]
        if min(out) < 1 or n * mg * g * out[0] * out[1] > 20000:
            raise Skip
        x = self.dq(v)
        wshape = (c, mg, k[1]) if one_d else (c, mg, k[0], k[1])
        wname, wc, sw, zw, wdt, pc = self.weights(wshape, 1, False)
        wc = wc.reshape(c, mg, k[0], k[1])
        acc = conv_transpose_acc(x4, v.z, wc, zw, s, pads, op, d, g)

        def result(a):  # N x M x L for a 1-D ConvTranspose
            return a.reshape(n, a.shape[1], -1) if one_d else a
        f = mg * g
        sw_f = np.tile(np.asarray(sw, F32).reshape(-1), g) if pc else np.asarray(sw, F32)
        s_in = (F32(v.s) * sw_f.reshape(-1)).astype(F32)
        dims = slice(1, 2) if one_d else slice(0, 2)
        attrs = dict(group=g if g > 1 else None,
                     strides=s[dims] if s != [1, 1] or r.random() < 0.3 else None,
                     dilations=d[dims] if d != [1, 1] else None,
                     pads=([pads[1], pads[3]] if one_d else pads)
                     if any(pads) or r.random() < 0.3 else None,
                     output_padding=op[dims] if any(op) or r.random() < 0.2 else None,
                     kernel_shape=k[dims] if r.random() < 0.5 else None)
        desc = ("ConvTranspose 1-D" if one_d else "ConvTranspose") + " k%s s%s d%s g%d pads%s out_pad%s %s-w%s" % (
            k, s, d, g, pads, op, wdt, " per-channel" if pc else "")
        ins = [x.name, wname]
        has_bias = r.random() < 0.6
        if has_bias:
            bname, bc, bdesc = self.bias(f, v.s, sw_f if pc else sw, pc, False)
            acc = acc + bc.reshape(1, f, 1, 1)
            ins.append(bname)
            desc += " +" + bdesc
        fname = self.node("ConvTranspose", ins, "convt", **attrs)
        bound = conv_transpose_acc(np.abs(x4 - v.z), 0, np.abs(
            wc.astype(np.int64) - np.broadcast_to(np.asarray(zw, np.int64), (mg,)).reshape(1, mg, 1, 1)),
            0, s, pads, op, d, g).max(initial=0) + (np.abs(bc).max() if has_bias else 0)
        if self.float_tail_ok(last, bound) and "float bias" not in desc:
            val = (acc.astype(F32) * s_in.reshape(1, -1, 1, 1)).astype(F32)
            return self.float_out(fname, result(val), desc)
        return self.finish_contraction(fname, result(acc), s_in, 1, desc)

    def op_matmul(self, v, last):
        if v.dt == "i16":
            raise Skip  # conv / matmul inputs are 8-bit (docs/Semantics.md)
        if v.rank not in (2, 3):
            raise Skip
        r = self.r
        kdim = v.shape[-1]
        ncols = r.randint(1, 20)
        qop = self.qop(v)
        x = self.q_same(v) if qop else self.dq(v)
        wname, wc, sw, zw, wdt, pc = self.weights((kdim, ncols), 1, qop)
        acc = (v.codes - v.z) @ (wc - np.asarray(zw, np.int64))
        s_in = (F32(v.s) * np.asarray(sw, F32).reshape(-1)).astype(F32)
        desc = "MatMul%s %s x [%d, %d] %s-w%s" % (
            "(QLinearMatMul)" if qop else "", list(v.shape), kdim, ncols, wdt,
            " per-column" if pc else "")
        if qop:
            real = acc * s_in.astype(np.float64)
            so, zo, dto = self.pick_out(real, ties=[s_in[0]] if s_in.size == 1 else (), allow16=False)
            ins = [x.name, *self.params(x), wname, self.init(np.asarray(sw, F32), "b_scale"),
                   self.init(np.asarray(zw).astype(NP_TYPE[wdt]), "b_zp"),
                   self.init(so, "y_scale"), self.zp_init(zo, dto)]
            name = self.node("QLinearMatMul", ins, "qmatmul")
            y = requantize_f32(acc, s_in, so, zo, dto, axis=-1)
            self.log.append("%s -> (%s, %g, %d) %s" % (desc, dto, so, zo, list(y.shape)))
            return Val(name, "q", y, dto, so, zo)
        fname = self.node("MatMul", [x.name, wname], "matmul")
        bc = None
        if r.random() < 0.4:
            # MatMul + Add of an int32 bias through DequantizeLinear (tf2onnx).
            bname, bc, bdesc = self.bias(ncols, v.s, sw, pc, False, row=True)
            acc = acc + bc
            ins = [fname, bname] if r.random() < 0.7 else [bname, fname]
            fname = self.node("Add", ins, "bias_add")
            desc += " + Add(" + bdesc + ")"
        return self.finish_matmul_like(fname, v, wc, zw, bc, acc, s_in, last, desc)

    def finish_matmul_like(self, fname, v, w, zw, bc, acc, s_in, last, desc):
        """The end of MatMul and Gemm: an exact f32 tail where the
        accumulator's bound allows it, else the quantized contraction."""
        bound = (np.abs(v.codes - v.z) @ np.abs(w - np.asarray(zw, np.int64))).max(initial=0) + (
            np.abs(bc).max() if bc is not None else 0)
        if self.float_tail_ok(last, bound) and "float bias" not in desc:
            val = (acc.astype(F32) * s_in).astype(F32)
            return self.float_out(fname, val, desc)
        return self.finish_contraction(fname, acc, s_in, -1, desc)

    def op_gemm(self, v, last):
        if v.dt == "i16":
            raise Skip  # conv / matmul inputs are 8-bit (docs/Semantics.md)
        if v.rank != 2:
            raise Skip
        r = self.r
        m, kdim = v.shape
        ncols = r.randint(1, 20)
        trans_b = r.random() < 0.5
        qop = self.qop(v)
        x = self.q_same(v) if qop else self.dq(v)
        wshape = (ncols, kdim) if trans_b else (kdim, ncols)
        wname, wc, sw, zw, wdt, pc = self.weights(wshape, 0 if trans_b else 1, qop)
        wkn = wc.T if trans_b else wc
        acc = (v.codes - v.z) @ (wkn - np.asarray(zw, np.int64))
        s_in = (F32(v.s) * np.asarray(sw, F32).reshape(-1)).astype(F32)
        has_bias = r.random() < 0.6
        desc = "Gemm%s transB=%d %s x %s %s-w%s" % (
            "(QGemm)" if qop else "", trans_b, list(v.shape), list(wshape), wdt,
            " per-column" if pc else "")
        attrs = dict(transB=1 if trans_b else (0 if r.random() < 0.3 else None))
        if qop:
            ins = [x.name, *self.params(x), wname, self.init(np.asarray(sw, F32), "b_scale"),
                   self.init(np.asarray(zw).astype(NP_TYPE[wdt]), "b_zp")]
            if has_bias:
                bname, bc, bdesc = self.bias(ncols, v.s, sw, pc, True)
                acc = acc + bc
                ins.append(bname)
                desc += " +" + bdesc
            else:
                ins.append("")
            real = acc * s_in.astype(np.float64)
            so, zo, dto = self.pick_out(real, ties=[s_in[0]] if s_in.size == 1 else (), allow16=False)
            ins += [self.init(so, "y_scale"), self.zp_init(zo, dto)]
            name = self.node("QGemm", ins, "qgemm", domain=MS, alpha=1.0 if r.random() < 0.5 else None,
                             **attrs)
            y = requantize_f32(acc, s_in, so, zo, dto, axis=-1)
            self.log.append("%s -> (%s, %g, %d) %s" % (desc, dto, so, zo, list(y.shape)))
            return Val(name, "q", y, dto, so, zo)
        ins = [x.name, wname]
        bc = None
        if has_bias:
            bname, bc, bdesc = self.bias(ncols, v.s, sw, pc, False, row=True)
            acc = acc + bc
            ins.append(bname)
            desc += " +" + bdesc
        fname = self.node("Gemm", ins, "gemm", **attrs)
        return self.finish_matmul_like(fname, v, wkn, zw, bc, acc, s_in, last, desc)

    def broadcast_shape(self, shape):
        """A shape that broadcasts to `shape` (numpy rules)."""
        r = self.r
        u = r.random()
        if u < 0.5:
            return tuple(shape)
        if u < 0.8:
            return tuple(1 if r.random() < 0.5 else d for d in shape)
        k = r.randint(1, len(shape))
        return tuple(1 if r.random() < 0.3 else d for d in shape[len(shape) - k:])

    def binary_operands(self, v, same_dt):
        oshape = self.broadcast_shape(v.shape)
        other = getattr(self, "force_other", None)
        if other is not None:
            if same_dt and other.dt != v.dt:
                raise Skip
        else:
            other = self.operand_like(oshape, dt=v.dt if same_dt else None, like=v)
        a, b = (v, other) if self.chance(0.7) else (other, v)
        return a, b

    def op_add(self, v, last, op="Add"):
        qop = self.qop(v) and op in ("Add", "Mul")
        a, b = self.binary_operands(v, qop)
        if np.broadcast_shapes(a.shape, b.shape) != v.shape:
            raise Skip
        fa = dequantize_linear(a.codes, a.s, a.z)
        fb = dequantize_linear(b.codes, b.s, b.z)
        with np.errstate(over="ignore", invalid="ignore"):
            exact = {"Add": fa + fb, "Mul": fa * fb, "Sub": fa - fb}[op].astype(F32)
        if not np.all(np.isfinite(exact)):
            raise Skip
        desc = "%s%s %s %s" % (op, "(QLinear%s)" % op if qop else "", list(a.shape), list(b.shape))
        if qop:
            dto = v.dt
            so, zo, _ = self.pick_out(exact, dt=dto, ties=[a.s, b.s])
            qa, qb = self.q_same(a), self.q_same(b)
            ins = [qa.name, *self.params(qa), qb.name, *self.params(qb),
                   self.init(so, "c_scale"), self.zp_init(zo, dto)]
            name = self.node("QLinear" + op, ins, "q" + op.lower(), domain=MS)
            lo, hi = QRANGE[dto]
        else:
            da, db = self.dq(a), self.dq(b)
            fname = self.node(op, [da.name, db.name], op.lower())
            if last and self.chance(0.25 if not self.pow2 else 0.4):
                # DQ -> Add / Mul -> (no Q): exactly one f32 operation.
                return self.float_out(fname, exact, desc)
            so, zo, dto = self.pick_out(exact, ties=[a.s, b.s])
            fname, lo, hi, cdesc = self.clamp_nodes(fname, exact, so, zo, dto)
            if cdesc:
                desc += " -> " + cdesc
            name = self.qdq_node("QuantizeLinear", [fname, self.scale_init(so), self.zp_init(zo, dto)], "q", dto)
        if op == "Add":
            # docs/ONNXImport.md ("Not followed yet"): DQ -> Add -> Q and
            # QLinearAdd are qnt.add {rounding = "float"}, ONNX Runtime's
            # MLAS rule: each operand's codes times the f32 ratio S / S_y,
            # the two products added in f32, rounded once. The float
            # definition would divide the f32 sum of the dequantized values
            # by S_y (one step apart near ties); modelled as documented.
            ra = (F32(a.s) / F32(so)).astype(F32)
            rb = (F32(b.s) / F32(so)).astype(F32)
            pa = ((a.codes - a.z).astype(F32) * ra).astype(F32)
            pb = ((b.codes - b.z).astype(F32) * rb).astype(F32)
            with np.errstate(over="ignore", invalid="ignore"):
                val = (pa + pb).astype(F32)
            y = np.clip(np.rint(val.astype(np.float64)) + zo, lo, hi)
            y = np.clip(y, *QRANGE[dto]).astype(np.int64)
        else:
            # Mul / Sub (and QLinearMul, expanded to DQ -> Mul -> Q): f32 on
            # the dequantized operands, then QuantizeLinear, as ONNX defines
            # them (docs/ONNXImport.md: QLinearMul follows the definition).
            y = np.clip(quantize_linear(exact, so, zo, dto), lo, hi)
        self.log.append("%s -> (%s, %g, %d) %s" % (desc, dto, so, zo, list(y.shape)))
        return Val(name, "q", y, dto, so, zo)

    def op_add_residual(self, v, last):
        """Add of v and an earlier value of the same shape (a residual
        block), or of v and itself."""
        cands = [h for h in self.history if h.shape == v.shape and h is not v]
        if not cands:
            raise Skip
        self.force_other = self.r.choice(cands)
        try:
            return self.op_add(v, last)
        finally:
            self.force_other = None

    def op_conv_same(self, v, last):
        return self.op_conv(v, last, keep_shape=True)

    def op_mul(self, v, last):
        return self.op_add(v, last, "Mul")

    def op_sub(self, v, last):
        return self.op_add(v, last, "Sub")

    def pool_window(self, v, avg, global_pool=False):
        """Random valid pool attributes for v (rank 4), within what the
        importer documents (pads smaller than the kernel; ceil_mode only
        where the last window starts inside the input or its begin padding,
        and not with count_include_pad = 1 and explicit padding; every
        window holds a real element)."""
        r = self.r
        n, c, h, w = v.shape
        if global_pool:
            return dict(kernel=[h, w], strides=[1, 1], pads=[0, 0, 0, 0], dil=[1, 1],
                        ceil=False, cip=False, auto="NOTSET")
        for _ in range(30):
            k = [r.randint(1, min(4, size + 1)) for size in (h, w)]
            s = [r.choice([1, 1, 2, 2, 3]) for _ in range(2)]
            d = [1, 1] if avg or r.random() < 0.75 else [r.choice([1, 2, 3]) for _ in range(2)]
            auto = "VALID" if r.random() < 0.1 else "NOTSET"
            pads = [0, 0, 0, 0]
            if auto == "NOTSET" and r.random() < 0.5:
                pads = [r.randint(0, k[i % 2] - 1) for i in range(4)]
            ceil = r.random() < 0.3
            cip = avg and r.random() < 0.4
            ext = [(k[i] - 1) * d[i] + 1 for i in range(2)]
            ok = True
            for i, size in enumerate((h, w)):
                if size + pads[i] + pads[i + 2] < ext[i]:
                    ok = False
                    break
                out, taps = pool_geometry(size, k[i], s[i], pads[i], pads[i + 2], d[i], ceil)
                if ceil:
                    if (out - 1) * s[i] >= size + pads[i]:
                        ok = False
                    extra = (out - 1) * s[i] + ext[i] - (size + pads[i] + pads[i + 2])
                    if extra > 0 and (pads[i + 2] + extra >= k[i] or (cip and any(pads))):
                        ok = False
                if any(not any(0 <= t < size for t in tap) for tap in taps):
                    ok = False
            if ok:
                return dict(kernel=k, strides=s, pads=pads, dil=d, ceil=ceil, cip=cip, auto=auto)
        raise Skip

    def pool_attrs(self, pw, avg):
        r = self.r
        a = dict(kernel_shape=pw["kernel"],
                 strides=pw["strides"] if pw["strides"] != [1, 1] or r.random() < 0.3 else None)
        if pw["auto"] == "VALID":
            a["auto_pad"] = "VALID"
        elif any(pw["pads"]) or r.random() < 0.2:
            a["pads"] = pw["pads"]
        if pw["ceil"]:
            a["ceil_mode"] = 1
        if avg and (pw["cip"] or r.random() < 0.2):
            a["count_include_pad"] = int(pw["cip"])
        if not avg and pw["dil"] != [1, 1]:
            a["dilations"] = pw["dil"]
        return a

    def op_maxpool(self, v, last, global_pool=False):
        if v.rank != 4:
            raise Skip
        pw = self.pool_window(v, False, global_pool)
        y = max_pool_ref(v.codes, pw["kernel"], pw["strides"], pw["pads"], pw["dil"], pw["ceil"])
        # MaxPool on int8 / uint8 codes is valid ONNX (opset 12+), as
        # ONNX Runtime's QOperator graphs write it; or on the DQ'd floats.
        if global_pool:
            x = self.dq(v)   # GlobalMaxPool is defined on floats only
        else:
            x = v if (v.form == "q" and not v.raw and self.chance(0.5)) or v.form == "d" else self.dq(v)
            if x.form == "q" and v.dt == "i16":
                x = self.dq(v)  # ONNX's MaxPool takes 8-bit integers only
            if x.form == "d" and self.chance(0.2) and v.dt != "i16":
                x = self.q_same(x)
        if global_pool:
            name = self.node("GlobalMaxPool", [x.name], "gmaxpool")
        else:
            name = self.node("MaxPool", [x.name], "maxpool", **self.pool_attrs(pw, False))
        self.log.append("%s%s on %s %s -> %s" % (
            "GlobalMaxPool" if global_pool else "MaxPool",
            "" if global_pool else " k%s s%s d%s pads%s ceil=%d" % (
                pw["kernel"], pw["strides"], pw["dil"], pw["pads"] if pw["auto"] != "VALID" else "VALID",
                pw["ceil"]), "codes" if x.form == "q" else "floats", list(v.shape), list(y.shape)))
        return Val(name, x.form, y, v.dt, v.s, v.z)

    def op_gmaxpool(self, v, last):
        return self.op_maxpool(v, last, True)

    def op_avgpool(self, v, last, global_pool=False):
        if v.rank != 4:
            raise Skip
        r = self.r
        pw = self.pool_window(v, True, global_pool)
        sums, counts = avg_pool_sums(v.codes, v.z, pw["kernel"], pw["strides"], pw["pads"],
                                     pw["ceil"], pw["cip"])
        real = sums.astype(np.float64) / counts * float(v.s)
        qop = self.qop(v)
        attrs = {} if global_pool else self.pool_attrs(pw, True)
        opname = "GlobalAveragePool" if global_pool else "AveragePool"
        if global_pool and r.random() < 0.3:
            # ReduceMean over H and W with keepdims (QLinearReduceMean in
            # QOperator form): the same global average.
            opname = "ReduceMean"
            attrs = dict(axes=r.choice([[2, 3], [3, 2], [-2, -1], [2, -1]]),
                         keepdims=1 if r.random() < 0.5 else None)
        desc = "%s%s%s on %s" % (
            opname, "(QLinear)" if qop else "",
            (" axes %s" % attrs["axes"] if opname == "ReduceMean" else "") if global_pool else " k%s s%s pads%s ceil=%d cip=%d" % (
                pw["kernel"], pw["strides"], pw["pads"] if pw["auto"] != "VALID" else "VALID",
                pw["ceil"], pw["cip"]), list(v.shape))
        if not qop:
            x = self.dq(v)
            fname = self.node(opname, [x.name], "avgpool", **attrs)
            bound = np.abs(v.codes - v.z).sum() if v.codes.size else 0
            if self.float_tail_ok(last, bound):
                # The f32 mean: an exact sum (power-of-two scale), divided by
                # the window's count in f32: one rounding, as ONNX defines it.
                val = ((sums.astype(F32) * F32(v.s)).astype(F32) / counts.astype(F32)).astype(F32)
                return self.float_out(fname, val, desc)
        # Output grid: mostly the input's scale (torch's export), often
        # another zero point or storage type. int16 codes onto another
        # scale average in f32 (docs/ONNXImport.md, "16-bit activations"),
        # whose summation order this model does not follow: not drawn.
        if r.random() < 0.5 or (v.dt == "i16" and not qop):
            so = v.s
            dto = v.dt if r.random() < 0.8 else self.act_dt(not qop)
            zo = v.z if (dto == v.dt and r.random() < 0.6) else self.pick_zp(
                dto, so, real.min(initial=0), real.max(initial=0))
        else:
            so, zo, dto = self.pick_out(real, ties=[v.s], allow16=not qop)
        lo, hi = QRANGE[dto]
        if qop:
            x = self.q_same(v)
            name = self.node("QLinear" + opname, [x.name, *self.params(x), self.init(so, "y_scale"),
                                                  self.zp_init(zo, dto)],
                             "qavgpool", domain=MS,
                             channels_last=0 if r.random() < 0.2 and opname != "ReduceMean" else None,
                             **attrs)
        else:
            fname, lo, hi, cdesc = self.clamp_nodes(fname, real, so, zo, dto)
            if cdesc:
                desc += " -> " + cdesc
            name = self.qdq_node("QuantizeLinear", [fname, self.scale_init(so), self.zp_init(zo, dto)], "q", dto)
        # The project's documented averages (docs/ONNXImport.md, the
        # AveragePool row and "Limits"), which differ from a float mean only
        # near ties: on the input's scale the exact mean rounded half to
        # even; on another scale, unpadded (or count_include_pad with
        # explicit pads), the exact sum requantized once by
        # M = f32(f32(S_x / count) / S_y); otherwise (padded,
        # count_include_pad = 0, or ceil_mode's overrun: counts that differ)
        # the f32 mean of the dequantized window, quantized once.
        extra = any(pool_extra(size, pw["kernel"][i], pw["strides"][i], pw["pads"][i],
                               pw["pads"][i + 2], pw["ceil"]) for i, size in enumerate(v.shape[2:]))
        padded = any(pw["pads"]) or extra
        if float(so) == float(v.s):
            y = round_div_half_even(sums, counts) + zo
        elif not padded or (pw["cip"] and not extra):
            count = pw["kernel"][0] * pw["kernel"][1]
            s_sum = F32(float(v.s) / count)  # the double quotient, then f32
            y = requantize_f32(sums, np.array([s_sum], F32), so, zo, dto)
        else:
            mean = avg_pool_f32(v.codes, v.z, v.s, pw["kernel"], pw["strides"],
                                pw["pads"], pw["ceil"], counts)
            y = quantize_linear(mean, so, zo, dto)
        y = np.clip(y, lo, hi).astype(np.int64)
        self.log.append("%s -> (%s, %g, %d) %s" % (desc, dto, so, zo, list(y.shape)))
        return Val(name, "q", y, dto, so, zo)

    def op_gavgpool(self, v, last):
        return self.op_avgpool(v, last, True)

    def op_concat(self, v, last):
        r = self.r
        rank = v.rank
        axis = r.randrange(rank)
        qop = self.qop(v)
        same_all = r.random() < 0.3
        parts = [v]
        for _ in range(r.choice([1, 1, 2])):
            shape = list(v.shape)
            shape[axis] = r.randint(1, 4)
            if r.random() < 0.2:
                shape[axis] = v.shape[axis]
            o = self.operand_like(shape, dt=v.dt if (qop or same_all) else None, like=v)
            if same_all and not o.same_params(v):
                # Relabel a fresh input / constant onto v's grid.
                if o.form == "q" and (o.name in self.feeds or o.name in [i.name for i in self.inits]):
                    raw = o.raw
                    o = Val(o.name, "q", o.codes, v.dt, v.s, v.z)
                    o.raw = raw
                    self.log.append("  (%s read with scale %g, zero point %d)" % (o.name, v.s, v.z))
                else:
                    same_all = False
            parts.append(o)
        if r.random() < 0.5:
            r.shuffle(parts)
        codes_out = [p.codes for p in parts]
        real = np.concatenate([p.real() for p in parts], axis)
        neg_axis = axis - rank if r.random() < 0.3 else axis
        shapes = " ".join(str(list(p.shape)) for p in parts)
        all_same = all(p.same_params(parts[0]) for p in parts)
        if not qop and all_same and r.random() < 0.5:
            # Equal parameters and no QuantizeLinear: still dequantized codes.
            ds = [self.dq(p) for p in parts]
            name = self.node("Concat", [d.name for d in ds], "concat", axis=neg_axis)
            y = np.concatenate(codes_out, axis)
            self.log.append("Concat axis %d of %s (equal parameters) -> %s" % (neg_axis, shapes, list(y.shape)))
            return Val(name, "d", y, parts[0].dt, parts[0].s, parts[0].z)
        if all_same and r.random() < 0.5:
            so, zo, dto = parts[0].s, parts[0].z, parts[0].dt
        else:
            so, zo, dto = self.pick_out(real, dt=v.dt if qop else None, ties=[p.s for p in parts])
        lo, hi = QRANGE[dto]
        if qop:
            ins = [self.init(so, "y_scale"), self.zp_init(zo, dto)]
            for p in parts:
                qp = self.q_same(p)
                ins += [qp.name, *self.params(qp)]
            name = self.node("QLinearConcat", ins, "qconcat", domain=MS, axis=neg_axis)
            desc = "QLinearConcat"
        else:
            ds = [self.dq(p) for p in parts]
            fname = self.node("Concat", [d.name for d in ds], "concat", axis=neg_axis)
            if last and self.chance(0.15):
                return self.float_out(fname, np.concatenate([dequantize_linear(p.codes, p.s, p.z)
                                                             for p in parts], axis),
                                      "Concat axis %d of %s (f32)" % (neg_axis, shapes))
            fname, lo, hi, cdesc = self.clamp_nodes(fname, real, so, zo, dto)
            name = self.qdq_node("QuantizeLinear", [fname, self.scale_init(so), self.zp_init(zo, dto)], "q", dto)
            desc = "Concat" + (" -> " + cdesc if cdesc else "")
        # Each operand: its codes where its grid is the output's, else
        # QuantizeLinear(DequantizeLinear(x)) in f32 (the graph's definition,
        # and ONNX Runtime's QLinearConcat tables).
        moved = [p.codes if p.same_params(Val("", "q", None, dto, so, zo))
                 else quantize_linear(dequantize_linear(p.codes, p.s, p.z), so, zo, dto)
                 for p in parts]
        y = np.clip(np.concatenate(moved, axis), lo, hi).astype(np.int64)
        self.log.append("%s axis %d of %s -> (%s, %g, %d) %s" % (desc, neg_axis, shapes, dto, so, zo,
                                                                list(y.shape)))
        return Val(name, "q", y, dto, so, zo)

    def op_requant(self, v, last):
        """DequantizeLinear -> [Relu / Clip] -> QuantizeLinear to another
        grid: quantize(dequantize(q)) in f32, as ONNX defines the pair."""
        x = self.dq(v)
        real = dequantize_linear(v.codes, v.s, v.z)
        so, zo, dto = self.pick_out(real, ties=[v.s])
        if self.chance(0.1):
            so = v.s
        fname, lo, hi, cdesc = self.clamp_nodes(x.name, real, so, zo, dto)
        if fname == x.name and so == v.s and zo == v.z and dto == v.dt:
            zo = (zo + 1) if zo < QRANGE[dto][1] else zo - 1
        name = self.qdq_node("QuantizeLinear", [fname, self.scale_init(so), self.zp_init(zo, dto)], "q", dto)
        y = np.clip(quantize_linear(real, so, zo, dto), lo, hi).astype(np.int64)
        self.log.append("DQ%s -> Q(%s, %g, %d) %s" % (" -> " + cdesc if cdesc else "", dto, so, zo,
                                                      list(y.shape)))
        return Val(name, "q", y, dto, so, zo)

    def op_relabel(self, v, last):
        """Codes dequantized with other parameters of the same type: the
        same codes read on another grid."""
        q = self.q_same(v)
        s = self.pick_scale(float(v.s))
        z = self.r.randint(*QRANGE[v.dt])
        nv = Val(q.name, "q", v.codes, v.dt, s, z)
        d = self.dq(nv)
        self.log.append("DequantizeLinear with other parameters (%g, %d)" % (s, z))
        return d

    def op_relu_codes(self, v, last):
        """Relu on the int8 / int16 codes themselves (ONNX's Relu takes
        int8 and int16 from opset 14): max(q, 0), whatever the zero
        point; the importer clamps the codes on their grid."""
        if self.opset < 14 or v.dt == "u8":
            raise Skip
        x = self.q_same(self.dq(v) if v.raw else v)
        name = self.node("Relu", [x.name], "relu")
        y = np.maximum(v.codes, 0)
        self.log.append("Relu on codes (max(q, 0)) %s" % list(v.shape))
        return Val(name, "q", y, v.dt, v.s, v.z)

    def op_concat_codes(self, v, last):
        """Concat of code tensors of one type and equal parameters (a
        Concat on int8 / uint8 tensors concatenates the codes)."""
        r = self.r
        axis = r.randrange(v.rank)
        parts = [self.q_same(self.dq(v) if v.raw else v)]
        for _ in range(r.choice([1, 1, 2])):
            shape = list(v.shape)
            shape[axis] = r.randint(1, 4)
            cands = [h for h in self.history if h.form == "q" and not h.raw and h.same_params(v)
                     and h.rank == v.rank
                     and all(h.shape[i] == v.shape[i] for i in range(v.rank) if i != axis)]
            if cands and r.random() < 0.5:
                parts.append(r.choice(cands))
                continue
            # A new float input through QuantizeLinear. (Constant codes, an
            # int8 initializer, are read as a raw integer constant and
            # diagnosed: "expected a float tensor, got integers".)
            codes = self.input_codes(tuple(shape), v.dt, v.z)
            x = self.fresh("x")
            self.inputs.append(helper.make_tensor_value_info(x, TensorProto.FLOAT, shape))
            f = dequantize_linear(codes, v.s, v.z)
            self.feeds[x] = f
            parts.append(self.quantize(x, quantize_linear(f, v.s, v.z, v.dt), v.s, v.z, v.dt))
        if r.random() < 0.5:
            r.shuffle(parts)
        name = self.node("Concat", [p.name for p in parts], "concat",
                         axis=axis - v.rank if r.random() < 0.3 else axis)
        y = np.concatenate([p.codes for p in parts], axis)
        self.log.append("Concat axis %d of codes %s (equal parameters) -> %s" % (
            axis, " ".join(str(list(p.shape)) for p in parts), list(y.shape)))
        return Val(name, "q", y, v.dt, v.s, v.z)

    def op_relu(self, v, last):
        """Relu on dequantized codes: max(q, z) on the same grid."""
        x = self.dq(v)
        name = self.node("Relu", [x.name], "relu")
        y = np.maximum(v.codes, v.z)
        self.log.append("Relu on floats (same grid) %s" % list(v.shape))
        return Val(name, "d", y, v.dt, v.s, v.z)

    # -- shape ops (on codes or on dequantized floats) ---------------------
    def shape_input(self, v):
        """v in the form a shape op takes: codes or floats, either is valid."""
        if v.form == "q" and self.chance(0.5):
            return self.dq(v)
        if v.form == "d" and self.chance(0.2):
            return self.q_same(v)
        return v

    def moved(self, x, name, codes, what):
        self.log.append("%s on %s -> %s" % (what, "codes" if x.form == "q" else "floats",
                                            list(codes.shape)))
        v = Val(name, x.form, codes, x.dt, x.s, x.z)
        v.raw = x.raw and x.form == "q"
        return v

    def op_reshape(self, v, last):
        r = self.r
        total = v.codes.size
        # A random factorization of the element count, rank 1-4 (rank 4
        # more often, so that convs and pools can follow).
        rank = r.choice([1, 2, 2, 3, 4, 4])
        dims = []
        left = total
        for i in range(rank - 1):
            divs = [d for d in range(1, left + 1) if left % d == 0]
            d = r.choice(divs)
            dims.append(d)
            left //= d
        dims.append(left)
        r.shuffle(dims)
        spec = list(dims)
        if r.random() < 0.3:
            spec[r.randrange(rank)] = -1
        for i in range(min(rank, v.rank)):
            if spec[i] == v.shape[i] and r.random() < 0.3:
                spec[i] = 0  # copies the input's dimension
        x = self.shape_input(v)
        name = self.node("Reshape", [x.name, self.init(np.array(spec, np.int64), "shape")], "reshape")
        return self.moved(x, name, v.codes.reshape(dims), "Reshape %s" % spec)

    def op_flatten(self, v, last):
        axis = self.r.randint(-v.rank, v.rank)
        a = axis % v.rank if axis < 0 else axis
        outer = int(np.prod(v.shape[:a])) if a else 1
        if a == v.rank:
            outer = v.codes.size
        x = self.shape_input(v)
        name = self.node("Flatten", [x.name], "flatten", axis=axis if axis != 1 or self.chance(0.3) else None)
        return self.moved(x, name, v.codes.reshape(outer, -1), "Flatten axis %d" % axis)

    def op_transpose(self, v, last):
        if v.rank < 2:
            raise Skip
        perm = list(range(v.rank))
        self.r.shuffle(perm)
        explicit = self.chance(0.85)
        if not explicit:
            perm = list(reversed(range(v.rank)))
        x = self.shape_input(v)
        name = self.node("Transpose", [x.name], "transpose", perm=perm if explicit else None)
        return self.moved(x, name, v.codes.transpose(perm), "Transpose %s" % perm)

    def op_depth_to_space(self, v, last):
        """DepthToSpace (DCR / CRD) or SpaceToDepth of codes or floats, by
        the ops' index formulas."""
        if v.rank != 4:
            raise Skip
        r = self.r
        n, c, h, w = v.shape
        fits = [(op, b) for b in (2, 3) for op, ok in
                (("d2s", c % (b * b) == 0), ("s2d", h % b == 0 and w % b == 0)) if ok]
        if not fits:
            raise Skip
        op, b = r.choice(fits)
        x = self.shape_input(v)
        if op == "d2s":
            mode = r.choice(["DCR", "CRD"])
            co = c // (b * b)
            y = np.zeros((n, co, h * b, w * b), np.int64)
            for ch in range(co):
                for i in range(b):
                    for j in range(b):
                        src = (i * b + j) * co + ch if mode == "DCR" else ch * b * b + i * b + j
                        y[:, ch, i::b, j::b] = v.codes[:, src]
            name = self.node("DepthToSpace", [x.name], "d2s", blocksize=b,
                             mode=mode if mode == "CRD" or self.chance(0.3) else None)
            return self.moved(x, name, y, "DepthToSpace %s b%d" % (mode, b))
        y = np.zeros((n, c * b * b, h // b, w // b), np.int64)
        for ch in range(c):
            for i in range(b):
                for j in range(b):
                    y[:, (i * b + j) * c + ch] = v.codes[:, ch, i::b, j::b]
        name = self.node("SpaceToDepth", [x.name], "s2d", blocksize=b)
        return self.moved(x, name, y, "SpaceToDepth b%d" % b)

    def op_index_codes(self, v, last):
        """Ops that pick elements by position, on codes or floats (the
        values move on their grid): TopK's values (a stable sort by value,
        the lower index first among equals: the values do not depend on
        it), GatherElements and GatherND with compile-time indices,
        ScatterND of a GatherND of the same tensor and ScatterElements of a
        GatherElements of it (compile-time indices; the later of repeated
        positions wins), Compress by a constant condition."""
        r = self.r
        x = self.shape_input(v)
        codes = v.codes
        rank = v.rank
        op = r.choice(["topk", "gather_elements", "gather_nd", "scatter_nd",
                       "scatter_elements", "compress"])
        if op == "topk":
            axis = r.randrange(rank)
            n = codes.shape[axis]
            k = r.randint(1, n)
            largest = r.randint(0, 1)
            moved = np.moveaxis(codes, axis, -1)
            index = np.indices(moved.shape)[-1]
            order = np.lexsort((index, -moved if largest else moved), axis=-1)[..., :k]
            y = np.moveaxis(np.take_along_axis(moved, order, -1), -1, axis)
            kname = self.init(np.array([k], np.int64), "k")
            spec = axis - rank if self.chance(0.3) else axis
            name = self.node("TopK", [x.name, kname], "topk",
                             outputs=[self.fresh("topk"), self.fresh("topk_i")],
                             axis=spec, largest=None if largest else 0)
            return self.moved(x, name, y, "TopK axis %d k %d largest %d" % (spec, k, largest))
        if op == "gather_elements":
            axis = r.randrange(rank)
            shape = [r.randint(1, d) if a != axis else r.randint(1, 4)
                     for a, d in enumerate(codes.shape)]
            dim = codes.shape[axis]
            idx = self.nr.integers(-dim, dim, shape).astype(np.int64)
            y = np.take_along_axis(codes[tuple(slice(0, s) if a != axis else slice(None)
                                               for a, s in enumerate(shape))],
                                   np.where(idx < 0, idx + dim, idx), axis)
            name = self.node("GatherElements", [x.name, self.init(idx, "idx")],
                             "gather_el", axis=axis - rank if self.chance(0.3) else axis)
            return self.moved(x, name, y, "GatherElements axis %d indices %s" % (axis, shape))
        if op == "scatter_elements":
            # Updates gathered from the same tensor (so on its grid) by
            # GatherElements, scattered back at other positions.
            axis = r.randrange(rank)
            dim = codes.shape[axis]
            shape = [r.randint(1, d) if a != axis else r.randint(1, 4)
                     for a, d in enumerate(codes.shape)]
            src = self.nr.integers(-dim, dim, shape).astype(np.int64)
            dst = self.nr.integers(-dim, dim, shape).astype(np.int64)
            spec = axis - rank if self.chance(0.3) else axis
            upd = self.node("GatherElements", [x.name, self.init(src, "idx")],
                            "upd", axis=spec)
            name = self.node("ScatterElements", [x.name, self.init(dst, "idx"), upd],
                             "scatter_el", axis=spec)
            part = codes[tuple(slice(0, s) if a != axis else slice(None)
                               for a, s in enumerate(shape))]
            slices = np.take_along_axis(part, src % dim, axis)
            y = codes.copy()
            for pos in np.ndindex(*shape):
                target = list(pos)
                target[axis] = dst[pos] % dim
                y[tuple(target)] = slices[pos]
            return self.moved(x, name, y, "ScatterElements axis %d indices %s" % (spec, shape))
        if op == "compress":
            flat = self.chance(0.3)
            axis = None if flat else r.randrange(rank)
            length = codes.size if flat else codes.shape[axis]
            cond = self.nr.random(r.randint(1, length)) < 0.6
            if not cond.any():
                cond[r.randrange(cond.size)] = True
            name = self.node("Compress", [x.name, self.init(cond, "cond")], "compress",
                             axis=axis)
            y = np.compress(cond, codes, axis=axis)
            return self.moved(x, name, y, "Compress axis %s of %d" % (axis, cond.size))
        kk = r.randint(1, rank)

        def tuples(count):
            t = np.stack([self.nr.integers(-codes.shape[j], codes.shape[j], count)
                          for j in range(kk)], axis=-1).astype(np.int64)
            return t

        def gather_nd(idx):
            norm = np.where(idx < 0, idx + np.array(codes.shape[:kk]), idx)
            out = [codes[tuple(norm[p])] for p in np.ndindex(idx.shape[:-1])]
            return np.stack(out).reshape(idx.shape[:-1] + codes.shape[kk:])

        if op == "gather_nd":
            lead = [r.randint(1, 3) for _ in range(r.randint(1, 2))]
            idx = tuples(int(np.prod(lead))).reshape(lead + [kk])
            if np.prod(lead) * np.prod(codes.shape[kk:]) > 4000:
                raise Skip
            name = self.node("GatherND", [x.name, self.init(idx, "idx")], "gather_nd")
            return self.moved(x, name, gather_nd(idx), "GatherND k %d indices %s" % (kk, lead))
        m = r.randint(1, 4)
        src, dst = tuples(m), tuples(m)
        upd = self.node("GatherND", [x.name, self.init(src, "idx")], "upd")
        name = self.node("ScatterND", [x.name, self.init(dst, "idx"), upd], "scatter_nd")
        y = codes.copy()
        slices = gather_nd(src)
        norm = np.where(dst < 0, dst + np.array(codes.shape[:kk]), dst)
        for p in range(m):
            y[tuple(norm[p])] = slices[p]
        return self.moved(x, name, y, "ScatterND k %d of %d slices" % (kk, m))

    def op_squeeze(self, v, last):
        ones = [i for i, d in enumerate(v.shape) if d == 1]
        if not ones or len(ones) == v.rank:
            raise Skip
        axes = sorted(self.r.sample(ones, self.r.randint(1, len(ones))))
        spec = [a - v.rank if self.chance(0.3) else a for a in axes]
        x = self.shape_input(v)
        if self.opset >= 13:
            name = self.node("Squeeze", [x.name, self.init(np.array(spec, np.int64), "axes")], "squeeze")
        else:
            name = self.node("Squeeze", [x.name], "squeeze", axes=spec)
        return self.moved(x, name, np.squeeze(v.codes, tuple(axes)), "Squeeze %s" % spec)

    def op_unsqueeze(self, v, last):
        if v.rank >= 4:
            raise Skip
        k = self.r.randint(1, 4 - v.rank)
        out_rank = v.rank + k
        axes = sorted(self.r.sample(range(out_rank), k))
        spec = [a - out_rank if self.chance(0.3) else a for a in axes]
        x = self.shape_input(v)
        name = self.node("Unsqueeze", [x.name, self.init(np.array(spec, np.int64), "axes")], "unsqueeze")
        codes = v.codes
        for a in axes:
            codes = np.expand_dims(codes, a)
        return self.moved(x, name, codes, "Unsqueeze %s" % spec)

    def op_slice(self, v, last):
        r = self.r
        axes = sorted(r.sample(range(v.rank), r.randint(1, v.rank)))
        starts, ends, steps, index = [], [], [], [slice(None)] * v.rank
        for a in axes:
            dim = v.shape[a]
            step = r.choice([1, 1, 1, 2, 3])
            st = r.randrange(dim)
            en = r.randint(st + 1, dim)
            s_spec = st - dim if r.random() < 0.3 else st
            e_spec = en - dim if (r.random() < 0.3 and en < dim) else en
            if en == dim and r.random() < 0.3:
                e_spec = r.choice([2 ** 63 - 1, dim + 5])
            starts.append(s_spec)
            ends.append(e_spec)
            steps.append(step)
            index[a] = slice(st, en, step)
        x = self.shape_input(v)
        ins = [x.name, self.init(np.array(starts, np.int64), "starts"),
               self.init(np.array(ends, np.int64), "ends")]
        spec_axes = [a - v.rank if r.random() < 0.3 else a for a in axes]
        if spec_axes != list(range(len(axes))) or any(s != 1 for s in steps) or r.random() < 0.5:
            ins.append(self.init(np.array(spec_axes, np.int64), "axes"))
            if any(s != 1 for s in steps) or r.random() < 0.5:
                ins.append(self.init(np.array(steps, np.int64), "steps"))
        name = self.node("Slice", ins, "slice")
        return self.moved(x, name, v.codes[tuple(index)],
                          "Slice axes %s starts %s ends %s steps %s" % (spec_axes, starts, ends, steps))

    def pad_spec(self, v):
        r = self.r
        pads = [0] * (2 * v.rank)
        for a in r.sample(range(v.rank), r.randint(1, v.rank)):
            pads[a] = r.randint(0, 2)
            pads[a + v.rank] = r.randint(0, 2)
        if not any(pads):
            pads[v.rank - 1] = 1
        return pads

    def op_pad(self, v, last):
        """Pad of dequantized floats with a value on the grid (0 is the zero
        point): padded positions hold that real value's code. Now and then
        reflect or edge instead (codes move as codes; reflect pads at most
        the axis's length - 1), drawn from a stream of its own after the
        constant pad's draws, so that the graphs of earlier seeds are
        unchanged."""
        x = self.dq(v)
        pads = self.pad_spec(v)
        lo, hi = QRANGE[v.dt]
        u = self.r.random()
        code = v.z if u < 0.6 else self.r.randint(lo, hi)
        explicit_mode = self.chance(0.3)
        mode_r = random.Random("pad-mode:%d:%d:%d" % (self.seed, self.index,
                                                      len(self.nodes)))
        mode = mode_r.choice(["constant", "constant", "reflect", "edge"])
        if mode == "reflect":
            pads = [min(p, v.codes.shape[a % v.rank] - 1)
                    for a, p in enumerate(pads)]
        width = [(pads[a], pads[a + v.rank]) for a in range(v.rank)]
        ins = [x.name, self.init(np.array(pads, np.int64), "pads")]
        if mode != "constant":
            name = self.node("Pad", ins, "pad", mode=mode)
            y = np.pad(v.codes, width, mode=mode)
            self.log.append("Pad %s mode %s on floats -> %s" % (
                pads, mode, list(y.shape)))
            return Val(name, "d", y, v.dt, v.s, v.z)
        if 0.4 <= u < 0.6:
            ins.append(self.init(F32(0), "pad_value"))
        elif u >= 0.6:
            ins.append(self.init(dequantize_linear(np.int64(code), v.s, v.z), "pad_value"))
        name = self.node("Pad", ins, "pad", mode="constant" if explicit_mode else None)
        y = np.pad(v.codes, width, constant_values=code)
        self.log.append("Pad %s value code %d on floats -> %s" % (pads, code, list(y.shape)))
        return Val(name, "d", y, v.dt, v.s, v.z)

    def op_pad_codes(self, v, last):
        """Pad of the int8 / uint8 codes themselves (ONNX Runtime's QOperator
        format pads uint8 tensors, with constant_value = the zero point):
        ONNX pads with constant_value, a code (default 0)."""
        x = self.q_same(self.dq(v) if v.raw else v)
        pads = self.pad_spec(v)
        ins = [x.name, self.init(np.array(pads, np.int64), "pads")]
        u = self.r.random()
        if u < 0.4:
            code = 0
        else:
            code = v.z if u < 0.8 else self.r.randint(*QRANGE[v.dt])
            ins.append(self.init(np.array(code).astype(NP_TYPE[v.dt]), "pad_code"))
        name = self.node("Pad", ins, "pad")
        width = [(pads[a], pads[a + v.rank]) for a in range(v.rank)]
        y = np.pad(v.codes, width, constant_values=code)
        self.log.append("Pad %s of codes with code %d%s -> %s" % (
            pads, code, " (default)" if u < 0.4 else "", list(y.shape)))
        return Val(name, "q", y, v.dt, v.s, v.z)

    # -- control flow --------------------------------------------------------
    def wrap_in_control_flow(self, outs):
        """Now and then moves the nodes from a random point on into an If
        branch or a Loop body, which must give the same outputs: an If on a
        compile-time condition (only the branch taken is imported), an If
        on a run-time one (max(x) == max(x), true but known only at run
        time: both branches are imported, here two copies of the nodes, and
        each output selected), or a Loop of one iteration whose scan outputs
        are squeezed back. Draws from its own stream, so the graphs of
        earlier seeds are unchanged."""
        r = random.Random("control-flow:%d:%d" % (self.seed, self.index))
        if not self.nodes or r.random() >= 0.12:
            return
        k = r.randrange(len(self.nodes))
        moved = self.nodes[k:]
        defined = {o for n in moved for o in n.output if o}
        escaping = [o for o in outs if o.name in defined]
        if not escaping:
            return
        del self.nodes[k:]

        def subgraph(suffix, inputs, extra_nodes, extra_outputs):
            nodes = []
            for n in moved:
                c = copy.deepcopy(n)
                c.name += suffix
                for i, name in enumerate(c.input):
                    if name in defined:
                        c.input[i] = name + suffix
                for i, name in enumerate(c.output):
                    if name in defined:
                        c.output[i] = name + suffix
                nodes.append(c)
            results = []
            for o in escaping:
                vi = copy.deepcopy(o)
                vi.name += suffix
                results.append(vi)
            return helper.make_graph(nodes + extra_nodes, "cf" + suffix, inputs,
                                     extra_outputs + results)

        kind = r.choice(["if_static", "if_runtime", "loop"])
        if kind == "loop":
            body = subgraph("_body", [
                helper.make_tensor_value_info("cf_i", TensorProto.INT64, []),
                helper.make_tensor_value_info("cf_c", TensorProto.BOOL, [])],
                [helper.make_node("Identity", ["cf_c"], ["cf_c_out"])],
                [helper.make_tensor_value_info("cf_c_out", TensorProto.BOOL, [])])
            stacked = [self.fresh(o.name + "_stacked") for o in escaping]
            self.node("Loop", [self.init(np.int64(1), "trip_count"), ""], "loop",
                      outputs=stacked, body=body)
            for o, st in zip(escaping, stacked):
                if self.opset >= 13:
                    self.node("Squeeze", [st, self.init(np.array([0], np.int64), "axes")],
                              outputs=[o.name])
                else:
                    self.node("Squeeze", [st], outputs=[o.name], axes=[0])
            self.log.append("the last %d nodes in the body of a Loop of one "
                            "iteration (scan outputs squeezed)" % len(moved))
            return
        taken = r.random() < 0.5
        if kind == "if_static":
            cond = self.init(np.array(taken), "cond")
        else:
            first = self.inputs[0].name
            f = self.node("Cast", [first], "cf_float", to=TensorProto.FLOAT)
            m = self.node("ReduceMax", [f], "cf_max", keepdims=0)
            cond = self.node("Equal", [m, m], "cf_cond")
            if not taken:
                cond = self.node("Not", [cond], "cf_not")
        real = subgraph("_taken", [], [], [])
        other = subgraph("_other", [], [], [])
        self.node("If", [cond], "if", outputs=[o.name for o in escaping],
                  then_branch=real if taken else other,
                  else_branch=other if taken else real)
        self.log.append("the last %d nodes in both branches of an If on a %s "
                        "condition (%s)" % (
                            len(moved), "compile-time" if kind == "if_static"
                            else "run-time", "true" if taken else "false"))

    # -- the whole graph ---------------------------------------------------
    OPS = [("conv", 4), ("matmul", 2), ("gemm", 2), ("add", 3), ("mul", 1), ("sub", 0.4),
           ("avgpool", 2.5), ("gavgpool", 1), ("maxpool", 2), ("gmaxpool", 0.4),
           ("concat", 2), ("requant", 1.5), ("relabel", 0.3), ("relu", 0.8),
           ("reshape", 1.5), ("flatten", 1), ("transpose", 1), ("squeeze", 0.6),
           ("unsqueeze", 0.6), ("slice", 1), ("pad", 1), ("pad_codes", 0.6),
           ("concat_codes", 0.6), ("relu_codes", 0.6), ("conv_transpose", 1.2),
           ("depth_to_space", 1), ("index_codes", 1)]
    GROWING = ("pad", "pad_codes", "concat", "conv", "unsqueeze", "conv_transpose")

    def snapshot(self):
        return (len(self.nodes), len(self.inits), len(self.inputs), dict(self.feeds),
                len(self.log), self.ms)

    def restore(self, snap):
        n, i, x, feeds, log, ms = snap
        del self.nodes[n:], self.inits[i:], self.inputs[x:], self.log[log:]
        self.feeds, self.ms = feeds, ms

    # Sequences that put ops where the importer's layout and fusion rules
    # meet (NHWC conv results into Flatten / Reshape / Transpose / MatMul,
    # residual adds, pools between convs); ops that do not apply are
    # replaced by random ones.
    MOTIFS = [["conv", "flatten", "gemm"], ["conv", "maxpool", "conv"],
              ["conv", "gavgpool", "flatten", "gemm"], ["conv", "reshape", "matmul"],
              ["gemm", "reshape", "conv"], ["conv", "transpose", "requant"],
              ["conv", "concat", "conv"], ["conv_same", "add_residual"],
              ["conv", "relu", "maxpool", "conv_same", "add_residual"],
              ["conv", "slice", "concat"], ["conv", "pad", "avgpool"],
              ["conv", "flatten", "requant"], ["avgpool", "flatten", "matmul"],
              ["conv", "flatten", "add"], ["conv", "flatten", "concat"],
              ["conv", "reshape", "transpose", "reshape", "conv"],
              ["conv_same", "relu", "conv_same", "add_residual", "gavgpool"],
              ["matmul", "add", "matmul"], ["conv", "transpose", "flatten", "gemm"],
              ["maxpool", "conv", "squeeze"], ["conv", "avgpool", "conv", "concat"],
              ["concat_codes", "relu_codes", "reshape"], ["concat_codes", "maxpool", "conv"],
              ["conv", "conv_transpose", "add"], ["conv", "depth_to_space", "conv"],
              ["conv_transpose", "relu", "conv_transpose"],
              ["conv", "index_codes", "conv"], ["conv", "index_codes", "flatten", "gemm"]]

    MOTIF_BASE = {"conv_same": "conv", "add_residual": "add"}

    def build(self):
        """Draws the graph: returns the ONNX model; fills feeds/expected."""
        r = self.r
        u = r.random()
        big = 3 if self.large else 1
        if u < 0.6:
            shape = (r.choice([1, 1, 1, 2]), r.randint(1, 8 * big + (8 if self.large else 0)),
                     r.randint(1, 9 + 5 * (big > 1)), r.randint(1, 9 + 5 * (big > 1)))
        elif u < 0.85:
            shape = (r.randint(1, 5), r.randint(1, 32 * big * big))
        else:
            shape = (r.randint(1, 3), r.randint(1, 5), r.randint(1, 16 * big))
        v = self.graph_input(shape, "float" if r.random() < 0.5 else "codes")
        self.history.append(v)
        n_ops = r.randint(2, 6)
        plan = []
        if r.random() < 0.4:
            plan = [o for o in r.choice(self.MOTIFS)
                    if o not in self.exclude and self.MOTIF_BASE.get(o) not in self.exclude]
            n_ops = max(n_ops, len(plan))
        if self.max_ops is not None:
            n_ops = min(n_ops, self.max_ops)
        ops = [(n, w) for n, w in self.OPS if n not in self.exclude]
        total = sum(w for _, w in ops)
        for step in range(n_ops):
            last = step == n_ops - 1
            for attempt in range(40):
                if step < len(plan) and attempt < 3:
                    name = plan[step]
                else:
                    pick = r.uniform(0, total)
                    for name, w in ops:
                        pick -= w
                        if pick <= 0:
                            break
                if name in self.GROWING and v.codes.size > 3000 * big:
                    continue
                snap = self.snapshot()
                try:
                    nv = getattr(self, "op_" + name)(v, last)
                except Skip:
                    self.restore(snap)
                    continue
                if nv.form != "f" and nv.codes.size > 20000 * big:
                    self.restore(snap)
                    continue
                v = nv
                break
            if v.form == "f":
                break
            self.history.append(v)
        outs = []
        declared = set()

        def add_output(o):
            if o.form == "q" and self.chance(0.2):
                o = self.dq(o)
            elif o.form == "d" and self.chance(0.3):
                o = self.q_same(o)
            if o.name in declared or o.name in self.feeds:
                return
            declared.add(o.name)
            if o.form == "q":
                outs.append(helper.make_tensor_value_info(o.name, ONNX_TYPE[o.dt], list(o.shape)))
                self.expected.append((o.name, o.dt, o.codes))
            else:
                val = o.f if o.form == "f" else dequantize_linear(o.codes, o.s, o.z)
                outs.append(helper.make_tensor_value_info(o.name, TensorProto.FLOAT, list(val.shape)))
                self.expected.append((o.name, "f32", val))

        add_output(v)
        mids = [h for h in self.history[1:-1] if h.name not in self.feeds]
        if mids and r.random() < 0.2:
            add_output(r.choice(mids))
        if "control_flow" not in self.exclude:
            self.wrap_in_control_flow(outs)
        graph = helper.make_graph(self.nodes, "onnx_diff_fuzz", self.inputs, outs, self.inits)
        opsets = [helper.make_opsetid("", self.opset)]
        if self.ms:
            opsets.append(helper.make_opsetid(MS, 1))
        m = helper.make_model(graph, opset_imports=opsets, producer_name="onnx-diff-fuzz")
        m.ir_version = 8
        onnx.checker.check_model(m, full_check=True)
        if self.inputs and len(self.inputs[0].type.tensor_type.shape.dim) >= 2 and r.random() < 0.1:
            # A symbolic batch dimension (torch's dynamic_axes), fixed at
            # import with --input-shape.
            first = m.graph.input[0]
            dims = list(self.feeds[first.name].shape)
            first.type.tensor_type.shape.dim[0].dim_param = "N"
            try:
                onnx.checker.check_model(m, full_check=True)
                self.dynamic.append("%s=%s" % (first.name, "x".join(map(str, dims))))
                self.log.append("input %s declared with a symbolic batch: --input-shape %s"
                                % (first.name, self.dynamic[-1]))
            except Exception:
                first.type.tensor_type.shape.dim[0].dim_value = dims[0]
        return m


# ---------------------------------------------------------------------------
# Running a case
# ---------------------------------------------------------------------------
def load_compare():
    spec = importlib.util.spec_from_file_location(
        "compare_outputs", os.path.join(HERE, "compare-outputs.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COMPARE = load_compare()


def mlir_type(shape, elem):
    return "tensor<%sx%s>" % ("x".join(str(d) for d in shape), elem) if shape else "tensor<%s>" % elem


def elem_of(kind):
    """The MLIR element type of an input array's dtype or an output kind
    (uint8 codes travel as i8 bits)."""
    return {"f32": "f32", "i16": "i16"}.get(kind, "i8")


def array_kind(a):
    return "f32" if a.dtype == F32 else "i16" if a.dtype == np.int16 else "i8"


def hex_dense(arr, shape, elem):
    return 'dense<"0x%s"> : %s' % (np.ascontiguousarray(arr).tobytes().hex().upper(),
                                   mlir_type(shape, elem))


def driver_module(text, case):
    """The imported module with a @main that feeds the inputs and prints
    every output: codes with printMemrefI8 / printMemrefU8, f32 values as
    their bits (arith.bitcast) with printMemrefI32."""
    args, arg_types = [], []
    lines = ["  func.func private @printMemrefI8(memref<*xi8>)",
             "  func.func private @printMemrefU8(memref<*xi8>)",
             "  func.func private @printMemrefI16(memref<*xi16>)",
             "  func.func private @printMemrefI32(memref<*xi32>)",
             "  func.func @main() {"]
    for i, inp in enumerate(case.inputs):
        a = case.feeds[inp.name]
        elem = elem_of(array_kind(a))
        data = a.view(np.int8) if a.dtype == np.uint8 else a
        ty = mlir_type(a.shape, elem)
        lines.append("    %%a%d = arith.constant %s" % (i, hex_dense(data, a.shape, elem)))
        args.append("%%a%d" % i)
        arg_types.append(ty)
    res_types = [mlir_type(arr.shape, elem_of(kind)) for _, kind, arr in case.expected]
    results = ["%%r%d" % i for i in range(len(res_types))]
    lines.append("    %s = call @model(%s) : (%s) -> (%s)" % (
        ", ".join(results), ", ".join(args), ", ".join(arg_types), ", ".join(res_types)))
    for i, (_, kind, arr) in enumerate(case.expected):
        shape = "x".join(str(d) for d in arr.shape)
        val, elem = "%%r%d" % i, elem_of(kind)
        fn = {"i8": "I8", "u8": "U8", "i16": "I16"}.get(kind, "I32")
        if kind == "f32":
            lines.append("    %%b%d = arith.bitcast %%r%d : %s to %s" % (
                i, i, res_types[i], mlir_type(arr.shape, "i32")))
            val, elem = "%%b%d" % i, "i32"
        lines.append("    %%m%d = bufferization.to_buffer %s : %s to memref<%sx%s>" % (
            i, val, mlir_type(arr.shape, elem), shape, elem))
        lines.append("    %%u%d = memref.cast %%m%d : memref<%sx%s> to memref<*x%s>" % (
            i, i, shape, elem, elem))
        lines.append("    call @printMemref%s(%%u%d) : (memref<*x%s>) -> ()" % (fn, i, elem))
    lines += ["    return", "  }"]
    cut = text.find("\n{-#")
    head, tail = (text[:cut], text[cut:]) if cut >= 0 else (text, "")
    head = head.rstrip()
    if not head.endswith("}"):
        raise RuntimeError("cannot find the end of the imported module")
    return head[:-1] + "\n".join(lines) + "\n}\n" + tail


def signature_problem(text, case):
    """Whether @model's signature is what the graph declares."""
    m = re.search(r"func\.func @model\(([^)]*)\)\s*->\s*\(?([^{]*?)\)?\s*(attributes.*)?\{", text)
    if not m:
        return "no func.func @model in the imported module"
    got_args = re.findall(r"tensor<[^>]*>", m.group(1))
    got_res = re.findall(r"tensor<[^>]*>", m.group(2))
    want_args = [mlir_type(case.feeds[i.name].shape, elem_of(array_kind(case.feeds[i.name])))
                 for i in case.inputs]
    want_res = [mlir_type(arr.shape, elem_of(k)) for _, k, arr in case.expected]
    if got_args != want_args or got_res != want_res:
        return "@model is %s -> %s, the graph declares %s -> %s" % (
            got_args, got_res, want_args, want_res)
    return None


def printed_values(text, case):
    """The printed outputs, as arrays shaped like the expected ones."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write(text)
    try:
        tensors = COMPARE.tensors(f.name)
    finally:
        os.unlink(f.name)
    if len(tensors) != len(case.expected):
        raise ValueError("printed %d tensors, expected %d" % (len(tensors), len(case.expected)))
    out = []
    for (_, kind, want), (_, values) in zip(case.expected, tensors):
        ints = np.array([int(x) for x in values], np.int64)
        if ints.size != want.size:
            raise ValueError("printed %d values, expected %d" % (ints.size, want.size))
        if kind == "f32":
            out.append((ints & 0xFFFFFFFF).astype(np.uint32).view(F32).reshape(want.shape))
        else:
            out.append(ints.reshape(want.shape))
    return out


def differences(case, got):
    """Lines describing every output that differs from the numpy model."""
    lines = []
    for (name, kind, want), g in zip(case.expected, got):
        if kind == "f32":
            bad = ~((g == want) | (np.isnan(g) & np.isnan(want)))
        else:
            bad = g != want
        if not bad.any():
            continue
        idx = np.argwhere(bad)
        lines.append("MISMATCH in output %s (%s%s): %d of %d values differ" % (
            name, kind, list(want.shape), len(idx), want.size))
        for i in idx[:12]:
            t = tuple(int(x) for x in i)
            if kind == "f32":
                lines.append("  %s: got %r (0x%08x), expected %r (0x%08x)" % (
                    list(t), float(g[t]), int(np.asarray(g[t], F32).view(np.uint32)),
                    float(want[t]), int(np.asarray(want[t], F32).view(np.uint32))))
            else:
                lines.append("  %s: got %d, expected %d" % (list(t), g[t], want[t]))
    return lines


class Tools:
    def __init__(self, build_dir, target, timeout, vlen=None):
        self.bin = os.path.join(build_dir, "bin")
        self.importer = os.path.join(self.bin, "quant-import-onnx")
        self.quant_opt = os.path.join(self.bin, "quant-opt")
        self.target = target
        self.timeout = timeout
        self.pipeline = "--qnt-to-llvm" + ("=target=%s" % target if target else "")
        self.cross = None
        if target in CROSS_TARGETS:
            self.cross = [sys.executable, os.path.join(HERE, "run-on-target.py"),
                          "--target", target, "--tools-dir", self.bin, "--llvm-bin", LLVM_BIN]
            if vlen:
                self.cross += ["--vlen", str(vlen)]
        libs = [os.path.join(LLVM_LIB, "libmlir_runner_utils.so"),
                os.path.join(LLVM_LIB, "libmlir_c_runner_utils.so"),
                os.path.join(build_dir, "lib", "libquant_runner_utils.so")]
        self.runner = [os.path.join(LLVM_BIN, "mlir-runner"), "-e", "main",
                       "-entry-point-result=void", "-shared-libs=" + ",".join(libs)]
        for tool in (self.importer, self.quant_opt, self.runner[0]):
            if not os.access(tool, os.X_OK):
                sys.exit("onnx-diff-fuzz: missing tool %s (build first)" % tool)

    def commands(self, onnx_path, mlir_path, run_path, case=None):
        q = shlex.quote
        shapes = "".join(" --input-shape " + d for d in (case.dynamic if case else []))
        cmds = ["%s %s --entry model%s -o %s" % (q(self.importer), q(onnx_path), shapes,
                                                 q(mlir_path))]
        if self.cross:
            cmds.append("%s %s" % (" ".join(q(a) for a in self.cross), q(run_path)))
        else:
            cmds.append("%s %s %s | %s" % (q(self.quant_opt), q(run_path), q(self.pipeline),
                                          " ".join(q(a) for a in self.runner)))
        return cmds

    def call(self, cmd, stdin=None):
        """(returncode, stdout, stderr); returncode None on a timeout."""
        try:
            p = subprocess.run(cmd, input=stdin, capture_output=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return None, b"", b"timeout after %d s" % self.timeout
        return p.returncode, p.stdout, p.stderr

    def step(self, cmd, tool, finding, stdin=None):
        """(stdout, None), or (None, the run's result) when `tool` timed out or
        exited nonzero (status `finding`)."""
        rc, out, err = self.call(cmd, stdin=stdin)
        if rc is None:
            return None, ("timeout", [tool + ": " + err.decode()], None)
        if rc != 0:
            return None, (finding, ["%s exited with %d" % (tool, rc),
                                    err.decode(errors="replace")[-3000:]], None)
        return out, None

    def run(self, model, case, work):
        """Runs one model: returns (status, detail lines, got arrays).
        status: 'pass', 'limit' (a documented diagnostic), or a finding:
        'import-error', 'import-crash', 'compile-error', 'run-error',
        'timeout', 'mismatch', 'signature'."""
        onnx_path = os.path.join(work, "model.onnx")
        mlir_path = os.path.join(work, "model.mlir")
        run_path = os.path.join(work, "model.run.mlir")
        onnx.save(model, onnx_path)
        shapes = [a for d in case.dynamic for a in ("--input-shape", d)]
        rc, out, err = self.call([self.importer, onnx_path, "--entry", "model", "-o", mlir_path]
                                 + shapes)
        err = err.decode(errors="replace")
        if rc is None:
            return "timeout", ["quant-import-onnx: " + err], None
        if rc != 0:
            if rc == 1 and "error:" in err:
                if any(re.search(p, err) for p in DOCUMENTED_LIMITS):
                    return "limit", [err.strip()], None
                return "import-error", [err.strip()], None
            return "import-crash", ["quant-import-onnx exited with %d" % rc, err[-3000:]], None
        text = open(mlir_path).read()
        problem = signature_problem(text, case)
        if problem:
            return "signature", [problem], None
        with open(run_path, "w") as f:
            f.write(driver_module(text, case))
        if self.cross:
            out, failed = self.step(self.cross + [run_path], "run-on-target", "run-error")
        else:
            llvm, failed = self.step([self.quant_opt, run_path, self.pipeline],
                                     "quant-opt", "compile-error")
            if not failed:
                out, failed = self.step(self.runner, "mlir-runner", "run-error", stdin=llvm)
        if failed:
            return failed
        try:
            got = printed_values(out.decode(errors="replace"), case)
        except ValueError as e:
            return "run-error", ["transcript: %s" % e, out.decode(errors="replace")[-2000:]], None
        diff = differences(case, got)
        return ("mismatch" if diff else "pass"), diff, got


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------
FINDINGS = ("import-error", "import-crash", "signature", "compile-error", "run-error",
            "timeout", "mismatch", "generator")


def failure_kind(status, detail):
    """What a minimized case must keep: the status and, for a diagnostic,
    its message without numbers and names."""
    if status not in ("import-error", "compile-error") or not detail:
        return status
    msg = detail[0].split("error: ", 1)[-1].splitlines()[0]
    return status + ":" + re.sub(r"'[^']*'|[-+0-9.e]+", "_", msg)


def run_case(tools, args, index, workroot, max_ops=None):
    """(status, detail, case, model, work directory)."""
    work = os.path.join(workroot, "case-%d" % index)
    os.makedirs(work, exist_ok=True)
    try:
        case = Case(args.seed, index, max_ops, args.exclude, args.large)
        model = case.build()
    except Exception:  # a bug of the generator, not of the compiler
        import traceback
        return "generator", [traceback.format_exc()], None, None, work
    status, detail, got = tools.run(model, case, work)
    case.got = got
    return status, detail, case, model, work


def reproduce_line(args, index, max_ops=None):
    line = "utils/onnx-diff-fuzz.py --build-dir %s --seed %d --case %d" % (
        shlex.quote(args.build_dir), args.seed, index)
    if max_ops is not None:
        line += " --max-ops %d" % max_ops
    if args.target:
        line += " --target %s" % args.target
    if args.vlen:
        line += " --vlen %d" % args.vlen
    if args.exclude:
        line += " --exclude %s" % ",".join(sorted(args.exclude))
    if args.large:
        line += " --large"
    return line


def report(tools, args, index, status, detail, case, model, work, max_ops=None):
    """Prints a finding and writes it to --out."""
    os.makedirs(args.out, exist_ok=True)
    stem = "onnx-diff-seed%d-case%d%s" % (args.seed, index,
                                          "" if max_ops is None else "-ops%d" % max_ops)
    lines = ["# onnx-diff-fuzz finding: seed %d case %d: %s" % (args.seed, index, status),
             "# reproduce: " + reproduce_line(args, index, max_ops)]
    if model is not None:
        onnx_path = os.path.join(args.out, stem + ".onnx")
        onnx.save(model, onnx_path)
        mlir_path = os.path.join(args.out, stem + ".mlir")
        run_path = os.path.join(args.out, stem + ".run.mlir")
        for src, dst in (("model.mlir", mlir_path), ("model.run.mlir", run_path)):
            if os.path.exists(os.path.join(work, src)):
                shutil.copy(os.path.join(work, src), dst)
        lines.append("# model: " + onnx_path)
        for cmd in tools.commands(onnx_path, mlir_path, run_path, case):
            lines.append("#   " + cmd)
        lines.append("# graph (opset %d%s):" % (case.opset, ", com.microsoft" if case.ms else ""))
        lines += ["#   " + l for l in case.log]
    lines += detail
    text = "\n".join(lines)
    with open(os.path.join(args.out, stem + ".txt"), "w") as f:
        f.write(text + "\n")
    print("=" * 72)
    print(text, flush=True)


def self_test(tools, args, workroot):
    """Each case must pass; then one printed code is made wrong and the
    comparison must report exactly that value."""
    ok = True
    for index in range(args.first, args.first + args.cases):
        status, detail, case, model, work = run_case(tools, args, index, workroot)
        if status != "pass":
            report(tools, args, index, status, detail, case, model, work)
            print("onnx-diff-fuzz: self-test: case %d did not pass unplanted" % index)
            ok = False
            continue
        k = case.r.randrange(len(case.expected))
        name, kind, want = case.expected[k]
        got = [g.copy() for g in case.got]
        flat = got[k].reshape(-1)
        at = case.r.randrange(flat.size)
        if kind == "f32":
            flat[at] = np.nextafter(flat[at], F32(np.inf), dtype=F32)
        else:
            flat[at] = flat[at] + 1 if flat[at] < QRANGE[kind][1] else flat[at] - 1
        diff = differences(case, got)
        caught = len(diff) == 2 and diff[0].startswith("MISMATCH in output %s" % name)
        print("onnx-diff-fuzz: self-test: case %d: planted a wrong value in output %s "
              "element %d: %s" % (index, name, at, "caught" if caught else "NOT CAUGHT"))
        for line in diff:
            print("  " + line)
        ok &= caught
    print("onnx-diff-fuzz: self-test %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    parser.add_argument("--build-dir", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--seed", type=int, default=None,
                        help="run seed (default: from the clock, printed)")
    parser.add_argument("--cases", type=int, default=100)
    parser.add_argument("--first", type=int, default=0, help="first case index")
    parser.add_argument("--case", type=int, default=None,
                        help="run only this case and print its graph (reproduce a finding)")
    parser.add_argument("--max-ops", type=int, default=None,
                        help="stop each chain after this many ops (a shorter "
                             "variant of the same case)")
    parser.add_argument("--minimize", action="store_true",
                        help="with --case: find the shortest chain (--max-ops) "
                             "that still fails the same way")
    parser.add_argument("--exclude", default="",
                        help="comma-separated op generators to leave out "
                             "(e.g. pad_codes; see Case.OPS), int16 (no int16 "
                             "activations) or extreme (no subnormal or huge f32 "
                             "scales)")
    parser.add_argument("--large", action="store_true",
                        help="larger shapes in every case (channels, features and "
                             "spatial sizes that fill the kernels' blocks)")
    parser.add_argument("--target", default=None,
                        help="--qnt-to-llvm target (default: host, mlir-runner); "
                             "%s run under qemu-user through utils/run-on-target.py"
                             % ", ".join(CROSS_TARGETS))
    parser.add_argument("--vlen", type=int, default=None,
                        help="with --target riscv64: the RVV vector length qemu emulates")
    parser.add_argument("--timeout", type=int, default=300, help="seconds per tool call")
    parser.add_argument("--out", default="onnx-diff-fuzz-findings",
                        help="directory for findings")
    parser.add_argument("--keep", default=None,
                        help="keep every case's files in this directory")
    parser.add_argument("--verbose", action="store_true", help="print every case's graph")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="cases run at once (each in its own directory; "
                             "results are printed in case order)")
    parser.add_argument("--self-test", action="store_true",
                        help="check the checker: every case must pass, and a "
                             "planted wrong value in each must be reported")
    args = parser.parse_args()
    args.exclude = set(x for x in args.exclude.split(",") if x)
    known = set(n for n, _ in Case.OPS) | {"int16", "extreme"}
    if args.exclude - known:
        parser.error("unknown op generators: %s (known: %s)" % (
            ", ".join(sorted(args.exclude - known)), ", ".join(sorted(known))))
    if args.seed is None:
        args.seed = int(time.time()) % 1000000
    if args.vlen is not None and args.target != "riscv64":
        parser.error("--vlen needs --target riscv64")
    if args.minimize and args.case is None:
        parser.error("--minimize needs --case")
    if args.target and args.target not in CROSS_TARGETS:
        sys.path.insert(0, HERE)
        from host_features import missing_features
        missing = missing_features(args.target)
        if missing:
            parser.error("target %s runs natively and this host lacks %s"
                         % (args.target, " ".join(missing)))
    args.build_dir = os.path.abspath(args.build_dir)
    tools = Tools(args.build_dir, args.target, args.timeout, args.vlen)
    workroot = args.keep or tempfile.mkdtemp(prefix="onnx-diff-fuzz-")
    os.makedirs(workroot, exist_ok=True)
    flags = (" --target " + args.target if args.target else "")
    try:
        if args.self_test:
            return self_test(tools, args, workroot)
        if args.case is not None:
            status, detail, case, model, work = run_case(tools, args, args.case, workroot,
                                                         args.max_ops)
            if case is not None:
                print("onnx-diff-fuzz: seed %d case %d (opset %d%s):" % (
                    args.seed, args.case, case.opset, ", com.microsoft" if case.ms else ""))
                for line in case.log:
                    print("  " + line)
            failed = status in FINDINGS
            if failed:
                report(tools, args, args.case, status, detail, case, model, work, args.max_ops)
            if failed and args.minimize:
                n = len(case.log)
                for ops in range(1, n + 1):
                    st, det, c2, m2, w2 = run_case(tools, args, args.case,
                                                   os.path.join(workroot, "min-%d" % ops), ops)
                    if failure_kind(st, det) == failure_kind(status, detail):
                        print("onnx-diff-fuzz: minimized: the first %d op(s) fail the same way" % ops)
                        report(tools, args, args.case, st, det, c2, m2, w2, ops)
                        break
            print("onnx-diff-fuzz: seed %d case %d%s %s (%s)" % (
                args.seed, args.case, flags, "FAILS" if failed else "passes", status))
            return 1 if failed else 0

        start = time.time()
        indices = range(args.first, args.first + args.cases)
        print("onnx-diff-fuzz: seed %d%s, cases %d..%d" % (args.seed, flags, indices[0],
                                                          indices[-1]), flush=True)
        failing, limits, op_counts = [], 0, {}
        # Cases are independent (each seeds its own generators from the seed
        # and its index), and their time goes to the tools' processes, so
        # threads suffice; map() hands the results back in case order.
        pool = concurrent.futures.ThreadPoolExecutor(max(1, args.jobs))
        results = pool.map(lambda index: (index,) + run_case(tools, args, index, workroot),
                           indices)
        for done, (index, status, detail, case, model, work) in enumerate(results, 1):
            if model is not None:
                for n in model.graph.node:
                    op_counts[n.op_type] = op_counts.get(n.op_type, 0) + 1
            if args.verbose and case is not None:
                print("case %d: %s" % (index, status))
                for line in case.log:
                    print("  " + line)
            if status == "limit":
                limits += 1
                print("onnx-diff-fuzz: case %d: documented limit or unsupported: %s" % (
                    index, detail[0].splitlines()[0].split("error: ", 1)[-1]))
            elif status in FINDINGS:
                failing.append(index)
                report(tools, args, index, status, detail, case, model, work)
            if not args.keep:
                shutil.rmtree(work, ignore_errors=True)
            if done % 50 == 0:
                print("onnx-diff-fuzz: %d/%d cases, %d failing, %.0f s" % (
                    done, len(indices), len(failing), time.time() - start), flush=True)
        pool.shutdown()
        print("onnx-diff-fuzz: ops: " + ", ".join(
            "%s %d" % kv for kv in sorted(op_counts.items())))
        print("onnx-diff-fuzz: seed %d%s: %d cases, %d failing%s, %d documented limits, %.0f s" % (
            args.seed, flags, len(indices), len(failing),
            (" (" + ", ".join(map(str, failing)) + ")") if failing else "", limits,
            time.time() - start))
        return 1 if failing else 0
    finally:
        if not args.keep:
            shutil.rmtree(workroot, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
