#!/usr/bin/python3
"""Small ONNX graphs for the importer tests, each with an independent numpy
model of the ONNX operators it uses.

  onnx_cases.py build CASE PREFIX   writes PREFIX.onnx and PREFIX.npz (inputs,
                                    expected outputs, output parameters)
  onnx_cases.py driver PREFIX       PREFIX.mlir (imported, @model) ->
                                    PREFIX.run.mlir with a @main that feeds
                                    the inputs and prints every output
  onnx_cases.py compare PREFIX OUT  compares a printMemref transcript with
                                    the numpy model; prints a summary, exit 1
                                    on any difference

The numpy models follow the ONNX operator definitions (docs/Operators.md)
and ONNX Runtime's CPU kernels: QuantizeLinear rounds x / scale half to even
in f32 and saturates; QLinearConv / QLinearMatMul accumulate exactly in
int32 and requantize with the f32 multiplier f32(S_x * S_w) / f32(S_y) and
round half to even; a float bias in a QDQ graph is quantized as ONNX
Runtime's quantizer does, round_half_even(f32(b) / f32(S_x * S_w)).
"""
import math
import re
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from transcript import printed_tensors

F32 = np.float32
MS = "com.microsoft"


# ---------------------------------------------------------------------------
# numpy models of the ONNX operators
# ---------------------------------------------------------------------------
def qrange(dtype):
    info = np.iinfo(dtype)
    return int(info.min), int(info.max)


def quantize(x, s, z, dtype, axis=None):
    s = np.asarray(s, F32)
    z = np.asarray(z, np.int64)
    if axis is not None:
        shape = [1] * x.ndim
        shape[axis] = -1
        s, z = s.reshape(shape), z.reshape(shape)
    q = np.round(x.astype(F32) / s) + z  # np.round: half to even
    lo, hi = qrange(dtype)
    return np.clip(q, lo, hi).astype(np.int64)


def dequantize(q, s, z, axis=None):
    s = np.asarray(s, F32)
    z = np.asarray(z, np.int64)
    if axis is not None:
        shape = [1] * q.ndim
        shape[axis] = -1
        s, z = s.reshape(shape), z.reshape(shape)
    return ((q - z).astype(F32) * s).astype(F32)


def conv_int(x, w, xz, wz, strides=(1, 1), pads=(0, 0, 0, 0), group=1,
             dilations=(1, 1)):
    """Exact integer NCHW convolution of (x - xz) and (w - wz[f]); padding
    holds real zero, i.e. x's zero point."""
    n, c, h, wd = x.shape
    f, cg, kh, kw = w.shape
    xp = np.full((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]), xz,
                 np.int64)
    xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
    xp = xp - xz
    wz = np.broadcast_to(np.asarray(wz, np.int64), (f,))
    wc = w.astype(np.int64) - wz.reshape(f, 1, 1, 1)
    oh = (xp.shape[2] - ((kh - 1) * dilations[0] + 1)) // strides[0] + 1
    ow = (xp.shape[3] - ((kw - 1) * dilations[1] + 1)) // strides[1] + 1
    out = np.zeros((n, f, oh, ow), np.int64)
    fpg = f // group
    for fo in range(f):
        g = fo // fpg
        for y in range(oh):
            for xx in range(ow):
                win = xp[:, g * cg:(g + 1) * cg,
                         y * strides[0]:y * strides[0] + (kh - 1) * dilations[0] + 1:dilations[0],
                         xx * strides[1]:xx * strides[1] + (kw - 1) * dilations[1] + 1:dilations[1]]
                out[:, fo, y, xx] = (win * wc[fo]).sum(axis=(1, 2, 3))
    return out


def requantize(acc, s_in, s_out, z_out, dtype, lo=None, hi=None, axis=1):
    """ONNX Runtime's rule: f32 multiplier, f32 product, half to even."""
    s_in = np.asarray(s_in, np.float64)
    m = (s_in.astype(F32) / F32(s_out)).astype(F32)
    if m.ndim:
        shape = [1] * acc.ndim
        shape[axis] = -1
        m = m.reshape(shape)
    y = np.round(acc.astype(F32) * m) + z_out
    qlo, qhi = qrange(dtype)
    return np.clip(y, qlo if lo is None else lo, qhi if hi is None else hi).astype(np.int64)


def bias_codes(b, sx, sw):
    """ONNX Runtime's quantizer: round_half_even(f32(b) / f32(S_x * S_w))."""
    scale = (F32(sx) * np.asarray(sw, F32)).astype(F32)
    return np.round(b.astype(F32) / scale).astype(np.int64)


# ---------------------------------------------------------------------------
# graph building
# ---------------------------------------------------------------------------
def init(name, arr, dtype=None):
    arr = np.asarray(arr)
    if dtype is not None:
        arr = arr.astype(dtype)
    return numpy_helper.from_array(arr, name)


def model(nodes, inputs, outputs, inits, opset=13, microsoft=False):
    g = helper.make_graph(nodes, "case", inputs, outputs, inits)
    opsets = [helper.make_opsetid("", opset)]
    if microsoft:  # ONNX Runtime's contrib ops (QOperator format)
        opsets.append(helper.make_opsetid(MS, 1))
    m = helper.make_model(g, opset_imports=opsets)
    m.ir_version = 8
    # This ONNX (Debian 12's 1.12) checks opsets up to 17; the importer
    # checks newer models itself (ModelImporter.cpp).
    if opset <= 17:
        onnx.checker.check_model(m)
    return m


def tin(name, shape, t=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, t, shape)


def rng(seed):
    return np.random.default_rng(seed)


# Every case returns (model, inputs, expected) where expected maps each
# output to ("codes", codes, scale, zero_point) for dequantized float
# outputs or ("ints", array) for integer outputs.

def case_qlinear_matmul():
    r = rng(1)
    a = r.integers(0, 256, (3, 5)).astype(np.uint8)
    b = r.integers(-128, 128, (5, 4)).astype(np.int8)
    a_s, a_z, b_s, b_z, y_s, y_z = 0.05, 120, 0.02, 0, 0.07, 100
    nodes = [helper.make_node("QLinearMatMul", ["a", "a_s", "a_z", "b", "b_s",
                                                "b_z", "y_s", "y_z"], ["yq"]),
             helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"])]
    inits = [init("a_s", F32(a_s)), init("a_z", np.uint8(a_z)), init("b", b),
             init("b_s", F32(b_s)), init("b_z", np.int8(b_z)),
             init("y_s", F32(y_s)), init("y_z", np.uint8(y_z))]
    m = model(nodes, [tin("a", [3, 5], TensorProto.UINT8)], [tin("y", [3, 4])],
              inits)
    acc = (a.astype(np.int64) - a_z) @ (b.astype(np.int64) - b_z)
    y = requantize(acc, F32(a_s) * F32(b_s), y_s, y_z, np.uint8, axis=1)
    return m, {"a": a}, {"y": ("codes", y, y_s, y_z)}


def case_qlinear_conv():
    r = rng(2)
    x = r.integers(0, 256, (1, 3, 6, 6)).astype(np.uint8)
    w = r.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    w_s = np.array([0.01, 0.02, 0.015, 0.03], F32)
    bias = r.integers(-500, 500, (4,)).astype(np.int32)
    x_s, x_z, y_s, y_z = 0.04, 128, 0.25, 10
    nodes = [helper.make_node("QLinearConv", ["x", "x_s", "x_z", "w", "w_s",
                                              "w_z", "y_s", "y_z", "B"], ["yq"],
                              pads=[1, 0, 1, 2], strides=[1, 2]),
             helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"])]
    inits = [init("x_s", F32(x_s)), init("x_z", np.uint8(x_z)), init("w", w),
             init("w_s", w_s), init("w_z", np.zeros(4, np.int8)),
             init("y_s", F32(y_s)), init("y_z", np.uint8(y_z)), init("B", bias)]
    acc = conv_int(x, w, x_z, 0, strides=(1, 2), pads=(1, 0, 1, 2))
    acc = acc + bias.reshape(1, 4, 1, 1)
    y = requantize(acc, F32(x_s) * w_s, y_s, y_z, np.uint8, axis=1)
    m = model(nodes, [tin("x", [1, 3, 6, 6], TensorProto.UINT8)],
              [tin("y", list(y.shape))], inits)
    return m, {"x": x}, {"y": ("codes", y, y_s, y_z)}


def case_qdq_conv_relu():
    """torch's QDQ form: Q/DQ on the input, Q/DQ on float per-channel
    weights, float bias, Conv -> Relu -> Q -> DQ."""
    r = rng(3)
    x = r.uniform(-1, 1, (2, 2, 5, 5)).astype(F32)
    wf = r.uniform(-0.5, 0.5, (3, 2, 3, 3)).astype(F32)
    bf = r.uniform(-0.2, 0.2, (3,)).astype(F32)
    x_s, x_z = 2.0 / 255, 128
    w_s = (np.abs(wf).reshape(3, -1).max(1) / 127).astype(F32)
    y_s, y_z = 0.03, 10
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
        helper.make_node("QuantizeLinear", ["w", "w_s", "w_z"], ["wq"], axis=0),
        helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["wd"], axis=0),
        helper.make_node("Conv", ["xd", "wd", "b"], ["c"], pads=[1, 1, 1, 1],
                         kernel_shape=[3, 3]),
        helper.make_node("Relu", ["c"], ["r"]),
        helper.make_node("QuantizeLinear", ["r", "y_s", "y_z"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
    ]
    inits = [init("x_s", F32(x_s)), init("x_z", np.uint8(x_z)), init("w", wf),
             init("w_s", w_s), init("w_z", np.zeros(3, np.int8)), init("b", bf),
             init("y_s", F32(y_s)), init("y_z", np.uint8(y_z))]
    m = model(nodes, [tin("x", [2, 2, 5, 5])], [tin("y", [2, 3, 5, 5])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    wq = quantize(wf, w_s, np.zeros(3), np.int8, axis=0)
    acc = conv_int(xq, wq, x_z, 0, pads=(1, 1, 1, 1))
    acc = acc + bias_codes(bf, x_s, w_s).reshape(1, 3, 1, 1)
    y = requantize(acc, F32(x_s) * w_s, y_s, y_z, np.uint8, lo=y_z, axis=1)
    return m, {"x": x}, {"y": ("codes", y, y_s, y_z)}


def case_qdq_gemm_clip():
    """Signed activations: Flatten -> Gemm(transB) -> Clip(-1, 1) -> Q."""
    r = rng(4)
    x = r.uniform(-1, 1, (4, 2, 3)).astype(F32)
    wf = r.uniform(-0.6, 0.6, (5, 6)).astype(F32)
    bf = r.uniform(-0.3, 0.3, (5,)).astype(F32)
    x_s, x_z = 1.0 / 127, -3
    w_s = F32(np.abs(wf).max() / 127)
    y_s, y_z = 1.0 / 100, 5
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
        helper.make_node("Flatten", ["xd"], ["xf"], axis=1),
        helper.make_node("QuantizeLinear", ["w", "w_s", "w_z"], ["wq"]),
        helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["wd"]),
        helper.make_node("Gemm", ["xf", "wd", "b"], ["g"], transB=1),
        helper.make_node("Constant", [], ["lo"], value=init("lo", F32(-1.0))),
        helper.make_node("Constant", [], ["hi"], value=init("hi", F32(1.0))),
        helper.make_node("Clip", ["g", "lo", "hi"], ["c"]),
        helper.make_node("QuantizeLinear", ["c", "y_s", "y_z"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
    ]
    inits = [init("x_s", F32(x_s)), init("x_z", np.int8(x_z)), init("w", wf),
             init("w_s", w_s), init("w_z", np.int8(0)), init("b", bf),
             init("y_s", F32(y_s)), init("y_z", np.int8(y_z))]
    m = model(nodes, [tin("x", [4, 2, 3])], [tin("y", [4, 5])], inits)
    xq = quantize(x, x_s, x_z, np.int8).reshape(4, 6)
    wq = quantize(wf, w_s, 0, np.int8)
    acc = (xq - x_z) @ wq.T + bias_codes(bf, x_s, w_s)
    lo = int(np.round(F32(-1.0) / F32(y_s))) + y_z
    hi = int(np.round(F32(1.0) / F32(y_s))) + y_z
    y = requantize(acc, F32(x_s) * F32(w_s), y_s, y_z, np.int8, lo=lo, hi=hi)
    return m, {"x": x}, {"y": ("codes", y, y_s, y_z)}


def case_matmul_integer():
    r = rng(5)
    a = r.integers(0, 256, (2, 7)).astype(np.uint8)
    b = r.integers(-128, 128, (7, 3)).astype(np.int8)
    nodes = [helper.make_node("MatMulInteger", ["a", "b", "a_z", "b_z"], ["y"])]
    inits = [init("b", b), init("a_z", np.uint8(77)), init("b_z", np.int8(-2))]
    m = model(nodes, [tin("a", [2, 7], TensorProto.UINT8)],
              [tin("y", [2, 3], TensorProto.INT32)], inits)
    y = (a.astype(np.int64) - 77) @ (b.astype(np.int64) + 2)
    return m, {"a": a}, {"y": ("ints", y)}


def case_conv_integer():
    r = rng(6)
    x = r.integers(-128, 128, (1, 2, 4, 4)).astype(np.int8)
    w = r.integers(-128, 128, (2, 1, 2, 2)).astype(np.int8)
    nodes = [helper.make_node("ConvInteger", ["x", "w", "x_z"], ["y"],
                              group=2, strides=[2, 2])]
    inits = [init("w", w), init("x_z", np.int8(3))]
    y = conv_int(x, w, 3, 0, strides=(2, 2), group=2)
    m = model(nodes, [tin("x", [1, 2, 4, 4], TensorProto.INT8)],
              [tin("y", list(y.shape), TensorProto.INT32)], inits)
    return m, {"x": x}, {"y": ("ints", y)}


def case_int32_codes():
    """int32 codes where the importer once wrote modules that do not verify
    (found by a differential fuzzer). MatMul + Add(DequantizeLinear of int32
    bias codes at S_X * S_W) -> Q, as tf2onnx writes a FullyConnected: the
    bias folds into the matmul like Gemm's. MatMulInteger ->
    DequantizeLinear(int32) -> Relu -> Add(DequantizeLinear of constant
    int32 codes): f32 values, ONNX's f32(x - z) * s (dyadic scales: exact)."""
    r = rng(53)
    x = (r.integers(0, 21, (2, 3)) * 0.5).astype(F32)
    w = r.integers(-128, 128, (3, 2)).astype(np.int8)
    b = np.array([8, -8], np.int32)
    sx, sw, sy, zy = F32(0.5), F32(0.25), F32(1.0), 10
    # Small codes: the printed f32 (6 digits) stays exact.
    a = r.integers(0, 21, (2, 3)).astype(np.uint8)
    w2 = r.integers(-4, 5, (3, 2)).astype(np.int8)
    c = np.array([3, -5], np.int32)
    nodes = [helper.make_node("QuantizeLinear", ["x", "sx", "zx"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "sx", "zx"], ["xd"]),
             helper.make_node("DequantizeLinear", ["w", "sw", "zw"], ["wd"]),
             helper.make_node("DequantizeLinear", ["b", "sb", "zb"], ["bd"]),
             helper.make_node("MatMul", ["xd", "wd"], ["mm"], name="mm"),
             helper.make_node("Add", ["mm", "bd"], ["s"], name="bias"),
             helper.make_node("QuantizeLinear", ["s", "sy", "zy"], ["yq"]),
             helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"]),
             helper.make_node("MatMulInteger", ["a", "w2"], ["acc"]),
             helper.make_node("DequantizeLinear", ["acc", "sa"], ["accd"]),
             helper.make_node("Relu", ["accd"], ["accr"]),
             helper.make_node("DequantizeLinear", ["c", "sc"], ["cd"]),
             helper.make_node("Add", ["accr", "cd"], ["f"])]
    inits = [init("sx", sx), init("zx", np.uint8(0)), init("w", w),
             init("sw", sw), init("zw", np.int8(0)), init("b", b),
             init("sb", F32(sx * sw)), init("zb", np.int32(0)),
             init("sy", sy), init("zy", np.uint8(zy)), init("w2", w2),
             init("sa", F32(0.5)), init("c", c), init("sc", F32(0.25))]
    m = model(nodes, [tin("x", [2, 3]), tin("a", [2, 3], TensorProto.UINT8)],
              [tin("y", [2, 2]), tin("f", [2, 2])], inits)
    xq = quantize(x, sx, 0, np.uint8)
    acc = xq @ w.astype(np.int64) + b
    y = requantize(acc, sx * sw, sy, zy, np.uint8)
    acc2 = a.astype(np.int64) @ w2.astype(np.int64)
    f = (np.maximum(acc2.astype(F32) * F32(0.5), F32(0)) +
         c.astype(F32) * F32(0.25)).astype(F32)
    return m, {"x": x, "a": a}, {"y": ("codes", y, sy, zy), "f": ("float", f)}


def case_subnormal_bias_scale():
    """Gemm with an int32 bias whose scale, S_X * S_W rounded to f32, is
    subnormal: f32(2^-70 * 1.3 * 2^-75) = 21 * 2^-149, 3% from the exact
    product, so the importer's 1e-5 scale match rejected it ("mismatched
    scales", found by utils/onnx-diff-fuzz.py). ONNX Runtime's quantizer
    writes exactly this f32 product, and its rule (requantize) computes the
    multiplier from the same f32 S_in."""
    r = rng(61)
    sx, sw = F32(2.0 ** -70), F32(1.3 * 2.0 ** -75)
    sb = (sx * sw).astype(F32)
    assert sb == F32(21 * 2.0 ** -149)
    sy, zy = F32(2.0 ** -136), 3
    x = r.integers(-100, 101, (3, 4)).astype(np.int8)
    w = r.integers(-127, 128, (5, 4)).astype(np.int8)
    b = r.integers(-2000, 2001, (5,)).astype(np.int32)
    nodes = [helper.make_node("DequantizeLinear", ["x", "sx"], ["xd"]),
             helper.make_node("DequantizeLinear", ["w", "sw"], ["wd"]),
             helper.make_node("DequantizeLinear", ["b", "sb"], ["bd"]),
             helper.make_node("Gemm", ["xd", "wd", "bd"], ["g"], transB=1,
                              name="fc"),
             helper.make_node("QuantizeLinear", ["g", "sy", "zy"], ["yq"]),
             helper.make_node("DequantizeLinear", ["yq", "sy", "zy"], ["y"])]
    inits = [init("sx", sx), init("w", w), init("sw", sw), init("b", b),
             init("sb", sb), init("sy", sy), init("zy", np.int8(zy))]
    m = model(nodes, [tin("x", [3, 4], TensorProto.INT8)], [tin("y", [3, 5])],
              inits)
    acc = x.astype(np.int64) @ w.astype(np.int64).T + b
    y = requantize(acc, sb, sy, zy, np.int8)
    return m, {"x": x}, {"y": ("codes", y, sy, zy)}


def case_dynamic_batch():
    """torch's dynamic batch: Shape -> Gather -> Unsqueeze -> Concat ->
    Reshape, folded once --input-shape fixes the batch."""
    r = rng(7)
    x = r.uniform(0, 1, (3, 2, 2, 2)).astype(F32)
    wf = r.uniform(-0.5, 0.5, (2, 8)).astype(F32)
    x_s, y_s = 1.0 / 255, 0.02
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
        helper.make_node("Shape", ["xd"], ["shp"]),
        helper.make_node("Constant", [], ["zero"], value=init("zero", np.int64(0))),
        helper.make_node("Gather", ["shp", "zero"], ["n"], axis=0),
        helper.make_node("Unsqueeze", ["n", "ax"], ["n1"]),
        helper.make_node("Concat", ["n1", "minus1"], ["newshape"], axis=0),
        helper.make_node("Reshape", ["xd", "newshape"], ["xf"]),
        helper.make_node("QuantizeLinear", ["w", "w_s", "w_z"], ["wq"]),
        helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["wd"]),
        helper.make_node("Transpose", ["wd"], ["wt"], perm=[1, 0]),
        helper.make_node("MatMul", ["xf", "wt"], ["mm"]),
        helper.make_node("QuantizeLinear", ["mm", "y_s", "y_z"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
    ]
    w_s = F32(0.004)
    inits = [init("x_s", F32(x_s)), init("x_z", np.uint8(0)), init("w", wf),
             init("w_s", w_s), init("w_z", np.int8(0)), init("ax", np.array([0], np.int64)),
             init("minus1", np.array([-1], np.int64)),
             init("y_s", F32(y_s)), init("y_z", np.uint8(128))]
    m = model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                    ["batch", 2, 2, 2])],
              [helper.make_tensor_value_info("y", TensorProto.FLOAT,
                                             ["batch", 2])], inits)
    xq = quantize(x, x_s, 0, np.uint8).reshape(3, 8)
    wq = quantize(wf, w_s, 0, np.int8)
    acc = xq @ wq.T
    y = requantize(acc, F32(x_s) * F32(w_s), y_s, 128, np.uint8)
    return m, {"x": x}, {"y": ("codes", y, y_s, 128)}


def conv_then_flatten():
    """x (2x1x4x3) -> Q/DQ -> Conv (3 filters, 2x2; NHWC inside the
    importer) -> Q/DQ (0.01, 3) -> Flatten into "f": the input, nodes,
    initializers and the numpy model's conv codes h (NCHW)."""
    r = rng(8)
    x = r.uniform(0, 1, (2, 1, 4, 3)).astype(F32)
    w1 = r.uniform(-0.5, 0.5, (3, 1, 2, 2)).astype(F32)
    x_s, h_s, h_z = 1.0 / 255, 0.01, 3
    w1_s = F32(0.004)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
        helper.make_node("QuantizeLinear", ["w1", "w1_s", "w_z"], ["w1q"]),
        helper.make_node("DequantizeLinear", ["w1q", "w1_s", "w_z"], ["w1d"]),
        helper.make_node("Conv", ["xd", "w1d"], ["c"]),
        helper.make_node("QuantizeLinear", ["c", "h_s", "h_z"], ["hq"]),
        helper.make_node("DequantizeLinear", ["hq", "h_s", "h_z"], ["hd"]),
        helper.make_node("Flatten", ["hd"], ["f"]),
    ]
    inits = [init("x_s", F32(x_s)), init("x_z", np.uint8(0)), init("w1", w1),
             init("w1_s", w1_s), init("w_z", np.int8(0)), init("h_s", F32(h_s)),
             init("h_z", np.uint8(h_z))]
    xq = quantize(x, x_s, 0, np.uint8)
    acc1 = conv_int(xq, quantize(w1, w1_s, 0, np.int8), 0, 0)
    h = requantize(acc1, F32(x_s) * w1_s, h_s, h_z, np.uint8)
    return x, nodes, inits, h


def case_conv_flatten_gemm():
    """Conv (NHWC inside) -> Q/DQ -> Flatten -> Gemm: the flattened NHWC
    codes feed the matmul with permuted weight rows; the flattened
    activations are also a graph output (in NCHW order)."""
    x, nodes, inits, h = conv_then_flatten()
    h_s, h_z, y_s, y_z = 0.01, 3, 0.02, 120
    w2 = rng(81).uniform(-0.5, 0.5, (4, 18)).astype(F32)
    w2_s = F32(0.0041)
    nodes += [
        helper.make_node("QuantizeLinear", ["w2", "w2_s", "w_z"], ["w2q"]),
        helper.make_node("DequantizeLinear", ["w2q", "w2_s", "w_z"], ["w2d"]),
        helper.make_node("Gemm", ["f", "w2d"], ["g"], transB=1),
        helper.make_node("QuantizeLinear", ["g", "y_s", "y_z"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
    ]
    inits += [init("w2", w2), init("w2_s", w2_s), init("y_s", F32(y_s)),
              init("y_z", np.uint8(y_z))]
    m = model(nodes, [tin("x", [2, 1, 4, 3])], [tin("y", [2, 4]), tin("f", [2, 18])],
              inits)
    f = h.reshape(2, 18)
    acc2 = (f - h_z) @ quantize(w2, w2_s, 0, np.int8).T
    y = requantize(acc2, F32(h_s) * w2_s, y_s, y_z, np.uint8)
    return m, {"x": x}, {"y": ("codes", y, y_s, y_z), "f": ("codes", f, h_s, h_z)}


def case_flatten_nhwc_consumers():
    """Conv (NHWC inside) -> Q/DQ -> Flatten, read by ops that keep the
    codes (Relu, Reshape, Transpose) and by a QuantizeLinear to another
    grid. The flattened codes are in NHWC row order inside the importer;
    each consumer must see them in ONNX's (NCHW) order exactly once.
    (A copy of the flattened value once kept the mark after it had been put
    back in NCHW order, and was reordered a second time.)"""
    x, nodes, inits, h = conv_then_flatten()
    h_s, h_z = 0.01, 3
    nodes += [
        helper.make_node("Relu", ["f"], ["fr"]),
        helper.make_node("Reshape", ["f", "shape"], ["ft"]),
        helper.make_node("Transpose", ["f"], ["fp"], perm=[1, 0]),
    ]
    inits.append(init("shape", np.array([2, 6, 3], np.int64)))
    qdq_out(nodes, inits, "fr", "relu", h_s, h_z)
    qdq_out(nodes, inits, "ft", "reshaped", h_s, h_z)
    qdq_out(nodes, inits, "fp", "transposed", h_s, h_z)
    # Half the scale: every code maps to 2 (f - h_z), no tie to round.
    qdq_out(nodes, inits, "f", "regrid", h_s / 2, 0)
    m = model(nodes, [tin("x", [2, 1, 4, 3])],
              [tin("relu", [2, 18]), tin("reshaped", [2, 6, 3]),
               tin("transposed", [18, 2]), tin("regrid", [2, 18])], inits)
    f = h.reshape(2, 18)  # ONNX's Flatten of NCHW
    regrid = np.clip(2 * (f.astype(np.int64) - h_z), 0, 255).astype(np.uint8)
    return m, {"x": x}, {
        "relu": ("codes", np.maximum(f, h_z), h_s, h_z),
        "reshaped": ("codes", f.reshape(2, 6, 3), h_s, h_z),
        "transposed": ("codes", f.T.copy(), h_s, h_z),
        "regrid": ("codes", regrid, h_s / 2, 0)}


def case_pad_codes():
    """Pad of the codes a QuantizeLinear wrote (the tensor is int8 / uint8):
    constant_value is a code of that type, the default 0 code 0. The
    importer once read it as a real value and padded with its quantization
    (the zero point for the default; found by a differential fuzzer)."""
    x = np.array([[1.0, -1.0]], F32)
    xu = np.array([[0.5, -0.75]], F32)
    pads = np.array([0, 1, 0, 1], np.int64)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
        helper.make_node("Pad", ["q", "pads"], ["p_default"]),
        helper.make_node("Pad", ["q", "pads", "cv4"], ["p_four"]),
        helper.make_node("DequantizeLinear", ["p_default", "s", "z"],
                         ["y_default"]),
        helper.make_node("DequantizeLinear", ["p_four", "s", "z"], ["y_four"]),
        helper.make_node("QuantizeLinear", ["xu", "su", "zu"], ["qu"]),
        helper.make_node("Pad", ["qu", "pads", "zu"], ["p_zp"]),
        helper.make_node("DequantizeLinear", ["p_zp", "su", "zu"], ["y_zp"])]
    inits = [init("s", F32(0.5)), init("z", np.asarray(3, np.int8)),
             init("cv4", np.asarray(4, np.int8)), init("pads", pads),
             init("su", F32(0.25)), init("zu", np.asarray(128, np.uint8))]
    m = model(nodes, [tin("x", [1, 2]), tin("xu", [1, 2])],
              [tin("y_default", [1, 4]), tin("y_four", [1, 4]),
               tin("y_zp", [1, 4])], inits)
    q = quantize(x, 0.5, 3, np.int8)
    qu = quantize(xu, 0.25, 128, np.uint8)
    pad = lambda c, v: np.pad(c, ((0, 0), (1, 1)), constant_values=v)
    return m, {"x": x, "xu": xu}, {
        "y_default": ("float", dequantize(pad(q, 0), 0.5, 3)),
        "y_four": ("float", dequantize(pad(q, 4), 0.5, 3)),
        "y_zp": ("float", dequantize(pad(qu, 128), 0.25, 128))}


def case_concat_codes():
    """Concat of the int8 codes QuantizeLinear wrote, on one grid: ONNX
    copies the codes, and the result is codes (an int8 graph output here).
    The importer took the result for dequantized values: as a graph output
    it was rejected ("declared as int8, but the graph computes float"), and
    a Relu after it clamped at the zero point (found by a differential
    fuzzer)."""
    x = np.array([[-2.5, 1.0]], F32)
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
             helper.make_node("Concat", ["q", "q"], ["c"], axis=1)]
    inits = [init("s", F32(0.5)), init("z", np.asarray(10, np.int8))]
    m = model(nodes, [tin("x", [1, 2])], [tin("c", [1, 4], TensorProto.INT8)],
              inits)
    q = quantize(x, 0.5, 10, np.int8)
    return m, {"x": x}, {"c": ("ints", np.concatenate([q, q], axis=1))}


def case_concat_codes_two_grids():
    """Concat of int8 codes on two grids: ONNX copies the codes, which then
    have no one scale and zero point; diagnosed."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"]),
             helper.make_node("QuantizeLinear", ["x", "s2", "z"], ["q2"]),
             helper.make_node("Concat", ["q", "q2"], ["c"], axis=1)]
    inits = [init("s", F32(0.5)), init("s2", F32(0.25)),
             init("z", np.asarray(10, np.int8))]
    m = model(nodes, [tin("x", [1, 2])], [tin("c", [1, 4], TensorProto.INT8)],
              inits)
    return m, {}, {}


def case_bad_int16_avgpool_rescale():
    """int16 codes (ONNX Runtime's com.microsoft Q / DQ) -> GlobalAveragePool
    -> QuantizeLinear onto another scale: the exact sum would be a conv of
    16-bit codes, and the importer wrote a module that did not verify
    (found by a differential fuzzer); now the mean runs in f32."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"],
                              domain=MS),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["d"],
                              domain=MS),
             helper.make_node("GlobalAveragePool", ["d"], ["p"]),
             helper.make_node("QuantizeLinear", ["p", "s2", "z2"], ["y"],
                              domain=MS)]
    inits = [init("s", F32(0.01)), init("z", np.asarray(0, np.int16)),
             init("s2", F32(0.02)), init("z2", np.asarray(0, np.int16))]
    m = model(nodes, [tin("x", [1, 1, 2, 2])],
              [tin("y", [1, 1, 1, 1], TensorProto.INT16)], inits,
              microsoft=True)
    return m, {}, {}


def case_clip_chains():
    """Relu -> Clip and Clip -> Clip on dequantized codes, with ranges that
    overlap and that do not: the composition of the clamps, as ONNX applies
    them one after the other (a disjoint pair once became an empty clamp
    range, a module that does not verify; found by a differential fuzzer)."""
    codes = np.array([[0, 100, 126, 127, 128, 129, 130, 140, 200, 255]],
                     np.int64)
    s, z = 1.0, 128
    x = dequantize(codes, s, z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", s, z)
    nodes += [helper.make_node("Relu", ["xd"], ["r"]),
              helper.make_node("Clip", ["r", "m5", "m2"], ["disjoint"]),
              helper.make_node("Clip", ["xd", "m5", "p10"], ["c1"]),
              helper.make_node("Clip", ["c1", "p2", "p50"], ["overlap"]),
              helper.make_node("Clip", ["xd", "z0", "p10"], ["c2"]),
              helper.make_node("Clip", ["c2", "m5", "m2"], ["below"])]
    inits += [init("m5", F32(-5)), init("m2", F32(-2)), init("p10", F32(10)),
              init("p2", F32(2)), init("p50", F32(50)), init("z0", F32(0))]
    for name in ("disjoint", "overlap", "below"):
        qdq_out(nodes, inits, name, "y_" + name, s, z)
    m = model(nodes, [tin("x", [1, 10])],
              [tin("y_" + n, [1, 10]) for n in ("disjoint", "overlap", "below")],
              inits)
    clip = lambda v, lo, hi: np.minimum(np.maximum(v, F32(lo)), F32(hi))
    disjoint = clip(np.maximum(x, F32(0)), -5, -2)      # always -2
    overlap = clip(clip(x, -5, 10), 2, 50)              # [2, 10]
    below = clip(clip(x, 0, 10), -5, -2)                # always -2
    q = lambda v: ("codes", quantize(v, s, z, np.uint8), s, z)
    return m, {"x": x}, {"y_disjoint": q(disjoint), "y_overlap": q(overlap),
                         "y_below": q(below)}


def case_regrid_definition():
    """DequantizeLinear -> QuantizeLinear to another grid, directly and with
    a Relu between: every uint8 code, computed as ONNX defines the pair (the
    f32 product, then the f32 quotient, rounded half to even). With these
    scales code 252 lies next to a tie: 240 * S_x / S_y is 186.50002 in
    f32, while one multiply by the f32 ratio S_x / S_y gives exactly 186.5,
    which rounds to even (found by a differential fuzzer)."""
    sx, zx = 0.03561730310320854, 12
    sy, zy = 0.04583459720015526, 61
    codes = np.arange(256, dtype=np.int64).reshape(1, 256)
    x = dequantize(codes, sx, zx)
    nodes, inits = [], []
    qdq(nodes, inits, "x", sx, zx)
    nodes.append(helper.make_node("Relu", ["xd"], ["xr"]))
    qdq_out(nodes, inits, "xd", "y", sy, zy)
    qdq_out(nodes, inits, "xr", "yr", sy, zy)
    m = model(nodes, [tin("x", [1, 256])],
              [tin("y", [1, 256]), tin("yr", [1, 256])], inits)
    assert (quantize(x, sx, zx, np.uint8) == codes).all()
    y = quantize(x, sy, zy, np.uint8)
    yr = quantize(np.maximum(x, F32(0)), sy, zy, np.uint8)
    assert y[0, 252] == 248  # the tie the f32 ratio gets wrong (247)
    return m, {"x": x}, {"y": ("codes", y, sy, zy), "yr": ("codes", yr, sy, zy)}


def qdq(nodes, inits, name, s, z, dtype=np.uint8):
    """Q -> DQ of graph input `name` with its own parameters."""
    nodes += [helper.make_node("QuantizeLinear", [name, name + "_s", name + "_z"], [name + "q"]),
              helper.make_node("DequantizeLinear", [name + "q", name + "_s", name + "_z"], [name + "d"])]
    inits += [init(name + "_s", F32(s)), init(name + "_z", np.asarray(z, dtype))]


def qdq_conv(w, w_s, c_s, c_z):
    """The nodes and initializers of a quantized conv on the dequantized
    input "xd": DQ(w) -> Conv -> Q -> DQ into "cd" (uint8 output)."""
    nodes = [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
             helper.make_node("Conv", ["xd", "wd"], ["c"]),
             helper.make_node("QuantizeLinear", ["c", "c_s", "c_z"], ["cq"]),
             helper.make_node("DequantizeLinear", ["cq", "c_s", "c_z"], ["cd"])]
    inits = [init("w", w), init("w_s", F32(w_s)), init("c_s", F32(c_s)),
             init("c_z", np.uint8(c_z))]
    return nodes, inits


def conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z):
    """The codes qdq_conv's "cd" holds for input codes xq (unpadded)."""
    return requantize(conv_int(xq, w, x_z, 0), F32(x_s) * F32(w_s), c_s, c_z,
                      np.uint8)


def qdq_out(nodes, inits, src, name, s, z, dtype=np.uint8):
    nodes += [helper.make_node("QuantizeLinear", [src, name + "_s", name + "_z"], [name + "q"]),
              helper.make_node("DequantizeLinear", [name + "q", name + "_s", name + "_z"], [name])]
    inits += [init(name + "_s", F32(s)), init(name + "_z", np.asarray(z, dtype))]


def case_add_relu():
    """DQ(a) + DQ(b) (b broadcast over H, W) -> Relu -> Q: qnt.add with
    ONNX Runtime's QLinearAdd rule and the ReLU as clamp."""
    r = rng(9)
    a = r.uniform(-1, 1, (1, 3, 4, 4)).astype(F32)
    bb = r.uniform(-2, 2, (1, 3, 1, 1)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "a", 0.01, 100)
    qdq(nodes, inits, "b", 0.02, 128)
    nodes += [helper.make_node("Add", ["ad", "bd"], ["s"]),
              helper.make_node("Relu", ["s"], ["r"])]
    y_s, y_z = 0.015, 20
    qdq_out(nodes, inits, "r", "y", y_s, y_z)
    m = model(nodes, [tin("a", [1, 3, 4, 4]), tin("b", [1, 3, 1, 1])],
              [tin("y", [1, 3, 4, 4])], inits)
    aq = quantize(a, 0.01, 100, np.uint8) - 100
    bq = quantize(bb, 0.02, 128, np.uint8) - 128
    ma = (F32(0.01) / F32(y_s)).astype(F32)
    mb = (F32(0.02) / F32(y_s)).astype(F32)
    v = (aq.astype(F32) * ma).astype(F32) + (bq.astype(F32) * mb).astype(F32)
    y = np.clip(np.round(v.astype(F32)) + y_z, y_z, 255).astype(np.int64)
    return m, {"a": a, "b": bb}, {"y": ("codes", y, y_s, y_z)}


def case_maxpool_gap():
    """MaxPool (padded, stride 2) keeps the codes; GlobalAveragePool -> Q
    to another grid sums exactly and requantizes once."""
    r = rng(10)
    x = r.uniform(-1, 1, (2, 3, 5, 5)).astype(F32)
    nodes, inits = [], []
    x_s, x_z = 0.01, 120
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [helper.make_node("MaxPool", ["xd"], ["mp"], kernel_shape=[3, 3],
                               strides=[2, 2], pads=[1, 1, 1, 1]),
              helper.make_node("GlobalAveragePool", ["mp"], ["g"])]
    g_s, g_z = 0.003, 10
    qdq_out(nodes, inits, "g", "y", g_s, g_z)
    nodes.append(helper.make_node("Identity", ["mp"], ["m"]))
    m = model(nodes, [tin("x", [2, 3, 5, 5])],
              [tin("y", [2, 3, 1, 1]), tin("m", [2, 3, 3, 3])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    xp = np.full((2, 3, 7, 7), -1, np.int64)
    xp[:, :, 1:6, 1:6] = xq
    mp = np.zeros((2, 3, 3, 3), np.int64)
    for i in range(3):
        for j in range(3):
            mp[:, :, i, j] = xp[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3].max(axis=(2, 3))
    sums = (mp - x_z).sum(axis=(2, 3), keepdims=True)
    y = requantize(sums, np.float64(F32(x_s)) / 9, g_s, g_z, np.uint8)
    return m, {"x": x}, {"y": ("codes", y, g_s, g_z), "m": ("codes", mp, x_s, x_z)}


def case_avgpool_pad():
    """AveragePool with padding and count_include_pad = 0 (a count that
    differs between windows) onto other scales, coarser and finer: ONNX's
    QuantizeLinear of the f32 mean of the dequantized window, rounded once
    (rounding the mean on the input grid first put codes two steps off on
    the finer grid); and with ceil_mode = 1 (the last window's overrun
    uncounted). Input steps of 1/8, so every window sum is exact in f32."""
    r = rng(11)
    x = r.uniform(-4, 4, (1, 2, 5, 5)).astype(F32)
    nodes, inits = [], []
    x_s, x_z = 0.125, 130
    qdq(nodes, inits, "x", x_s, x_z)
    nodes.append(helper.make_node("AveragePool", ["xd"], ["p"], kernel_shape=[3, 3],
                                  pads=[1, 1, 1, 1], strides=[1, 1]))
    nodes.append(helper.make_node("AveragePool", ["xd"], ["pc"], kernel_shape=[2, 2],
                                  strides=[2, 2], ceil_mode=1))
    y_s, y_z, f_s, f_z = 0.3, 128, 0.03, 120
    qdq_out(nodes, inits, "p", "y", y_s, y_z)
    qdq_out(nodes, inits, "p", "y_fine", f_s, f_z)
    qdq_out(nodes, inits, "pc", "y_ceil", f_s, f_z)
    m = model(nodes, [tin("x", [1, 2, 5, 5])],
              [tin("y", [1, 2, 5, 5]), tin("y_fine", [1, 2, 5, 5]),
               tin("y_ceil", [1, 2, 3, 3])], inits)
    xd = ((quantize(x, x_s, x_z, np.uint8) - x_z) * F32(x_s)).astype(F32)

    def mean(kernel, stride, pad, out):
        avg = np.zeros((1, 2, out, out), F32)
        for i in range(out):
            for j in range(out):
                r0, c0 = i * stride - pad, j * stride - pad
                win = xd[:, :, max(r0, 0):r0 + kernel, max(c0, 0):c0 + kernel]
                avg[:, :, i, j] = win.sum(axis=(2, 3)) / F32(win.shape[2] * win.shape[3])
        return avg
    p3, p2 = mean(3, 1, 1, 5), mean(2, 2, 0, 3)
    return m, {"x": x}, {
        "y": ("codes", quantize(p3, y_s, y_z, np.uint8), y_s, y_z),
        "y_fine": ("codes", quantize(p3, f_s, f_z, np.uint8), f_s, f_z),
        "y_ceil": ("codes", quantize(p2, f_s, f_z, np.uint8), f_s, f_z)}


def mean_half_even(total, count):
    """round_half_even(total / count) of integers, exactly."""
    total = np.asarray(total, np.int64)
    floor = total // count  # numpy floors toward -inf
    twice_rest = 2 * (total - floor * count)
    up = (twice_rest > count) | ((twice_rest == count) & (floor % 2 == 1))
    return floor + up


def case_avgpool_ties():
    """Average pools whose output keeps the input's scale: ONNX's
    QuantizeLinear rounds the exact mean's ties half to even. The codes are
    built so that half the 6x6 global means (count 36) are exact ties; the
    expected codes are exact rational means rounded half to even (the
    definition, with no multiplier). The padded 2x2 pool (counts 1, 2, 4)
    keeps the input grid; the global one moves the zero point."""
    r = rng(31)
    x_s, x_z = 0.05, 128
    q = r.integers(100, 157, (2, 8, 6, 6)).astype(np.int64)
    for n in range(2):
        for c in range(0, 8, 2):  # every other channel: sum = 36 k + 18
            rest = (int((q[n, c] - x_z).sum()) - 18) % 36
            q[n, c, 5, 5] -= rest
    x = dequantize(q, x_s, x_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [helper.make_node("GlobalAveragePool", ["xd"], ["g"]),
              helper.make_node("AveragePool", ["xd"], ["p"], kernel_shape=[2, 2],
                               pads=[1, 1, 0, 0], strides=[1, 1])]
    g_z = 120
    qdq_out(nodes, inits, "g", "y", x_s, g_z)
    qdq_out(nodes, inits, "p", "a", x_s, x_z)
    m = model(nodes, [tin("x", [2, 8, 6, 6])],
              [tin("y", [2, 8, 1, 1]), tin("a", [2, 8, 6, 6])], inits)
    assert (quantize(x, x_s, x_z, np.uint8) == q).all()
    d = q - x_z
    y = np.clip(mean_half_even(d.sum(axis=(2, 3), keepdims=True), 36) + g_z,
                0, 255)
    a = np.zeros_like(q)
    for i in range(6):
        for j in range(6):
            win = d[:, :, max(i - 1, 0):i + 1, max(j - 1, 0):j + 1]
            count = win.shape[2] * win.shape[3]
            a[:, :, i, j] = mean_half_even(win.sum(axis=(2, 3)), count) + x_z
    return m, {"x": x}, {"y": ("codes", y, x_s, g_z), "a": ("codes", a, x_s, x_z)}


def case_concat_mixed():
    """Concat on channels of two inputs with different parameters -> Q:
    the operand whose grid differs is dequantized and quantized again, as
    ONNX defines DQ -> Concat -> Q (and ONNX Runtime's QLinearConcat
    computes its tables)."""
    r = rng(12)
    a = r.uniform(-1, 1, (1, 2, 2, 3)).astype(F32)
    bb = r.uniform(-1, 1, (1, 1, 2, 3)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "a", 0.01, 128)
    qdq(nodes, inits, "b", 0.013, 120)
    nodes.append(helper.make_node("Concat", ["ad", "bd"], ["c"], axis=1))
    qdq_out(nodes, inits, "c", "y", 0.01, 128)
    m = model(nodes, [tin("a", [1, 2, 2, 3]), tin("b", [1, 1, 2, 3])],
              [tin("y", [1, 3, 2, 3])], inits)
    aq = quantize(a, 0.01, 128, np.uint8)
    bq = quantize(dequantize(quantize(bb, 0.013, 120, np.uint8), 0.013, 120),
                  0.01, 128, np.uint8)
    y = np.concatenate([aq, bq], axis=1)
    return m, {"a": a, "b": bb}, {"y": ("codes", y, 0.01, 128)}


def case_concat_mixed_sign():
    """Concat of a uint8 branch and an int8 branch -> uint8 Q: the int8
    operand is moved to the output's grid (DequantizeLinear, then
    QuantizeLinear) before qnt.concat, which takes operands of one storage
    type."""
    r = rng(31)
    a = r.uniform(-1, 1, (1, 2, 2, 3)).astype(F32)
    bb = r.uniform(-1, 1, (1, 2, 2, 3)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "a", 0.01, 128)
    qdq(nodes, inits, "b", 0.013, -5, dtype=np.int8)
    nodes.append(helper.make_node("Concat", ["ad", "bd"], ["c"], axis=1))
    qdq_out(nodes, inits, "c", "y", 0.01, 128)
    m = model(nodes, [tin("a", [1, 2, 2, 3]), tin("b", [1, 2, 2, 3])],
              [tin("y", [1, 4, 2, 3])], inits)
    aq = quantize(a, 0.01, 128, np.uint8)
    bq = quantize(dequantize(quantize(bb, 0.013, -5, np.int8), 0.013, -5),
                  0.01, 128, np.uint8)
    y = np.concatenate([aq, bq], axis=1)
    return m, {"a": a, "b": bb}, {"y": ("codes", y, 0.01, 128)}


def case_float_island():
    """torch's eager QAT without a stub after the pool: GlobalAveragePool ->
    Flatten -> Gemm -> Relu run in float between the DQ and the Q. Values
    are dyadic (scales 1/16, 1/64, 1/32), so the float model is exact."""
    r = rng(13)
    x = (r.integers(0, 32, (2, 3, 2, 2)) / 16.0).astype(F32)
    wf = (r.integers(-64, 64, (4, 3)) / 64.0).astype(F32)
    bf = (r.integers(-32, 32, (4,)) / 64.0).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 16, 0)
    nodes += [
        helper.make_node("GlobalAveragePool", ["xd"], ["p"]),
        helper.make_node("Flatten", ["p"], ["f"]),
        helper.make_node("QuantizeLinear", ["w", "w_s", "w_z"], ["wq"]),
        helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["wd"]),
        helper.make_node("Gemm", ["f", "wd", "b"], ["g"], transB=1),
        helper.make_node("Relu", ["g"], ["r"]),
    ]
    inits += [init("w", wf), init("w_s", F32(1.0 / 64)), init("w_z", np.int8(0)),
              init("b", bf)]
    qdq_out(nodes, inits, "r", "y", 1.0 / 32, 0)
    m = model(nodes, [tin("x", [2, 3, 2, 2])], [tin("y", [2, 4])], inits)
    xd = dequantize(quantize(x, 1.0 / 16, 0, np.uint8), 1.0 / 16, 0)
    f = xd.mean(axis=(2, 3), dtype=np.float64)
    g = f @ wf.astype(np.float64).T + bf
    y = quantize(np.maximum(g, 0).astype(F32), 1.0 / 32, 0, np.uint8)
    return m, {"x": x}, {"y": ("codes", y, 1.0 / 32, 0)}


def case_float_activations():
    """Activations with no quantized form (SiLU = x * Sigmoid(x), HardSwish,
    Tanh, LeakyRelu, HardSigmoid) and Sub / Div by constants, between a DQ
    and a Q: f32 on the dequantized codes, then QuantizeLinear. The numpy
    model evaluates the ONNX definitions in f32."""
    r = rng(21)
    x = r.uniform(-4, 4, (1, 3, 4, 5)).astype(F32)
    c = r.uniform(-1, 1, (1, 3, 1, 1)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    nodes += [
        helper.make_node("Sigmoid", ["xd"], ["sg"]),
        helper.make_node("Mul", ["xd", "sg"], ["silu"]),
        helper.make_node("HardSwish", ["xd"], ["hs"]),
        helper.make_node("Tanh", ["xd"], ["th"]),
        helper.make_node("LeakyRelu", ["xd"], ["lr"], alpha=0.1),
        helper.make_node("HardSigmoid", ["xd"], ["hsg"], alpha=0.25, beta=0.4),
        helper.make_node("Sub", ["xd", "c"], ["sb"]),
        helper.make_node("Div", ["sb", "two"], ["dv"]),
    ]
    inits += [init("c", c), init("two", F32(2.0))]
    outs = [("silu", "y1", 0.03, 10), ("hs", "y2", 0.03, 20),
            ("th", "y3", 1.0 / 128, 128), ("lr", "y4", 0.04, 100),
            ("hsg", "y5", 1.0 / 256, 0), ("dv", "y6", 0.05, 128)]
    for src, name, sc, zp in outs:
        qdq_out(nodes, inits, src, name, sc, zp)
    m = model(nodes, [tin("x", [1, 3, 4, 5])],
              [tin(name, [1, 3, 4, 5]) for _, name, _, _ in outs], inits, opset=14)
    xd = dequantize(quantize(x, 0.05, 128, np.uint8), 0.05, 128)
    one = F32(1)
    sg = (one / (one + np.exp(-xd))).astype(F32)
    hsg = lambda v, a, b: np.maximum(F32(0), np.minimum(one, F32(a) * v + F32(b)))
    vals = {
        "silu": xd * sg,
        "hs": xd * hsg(xd, F32(1.0 / 6), 0.5),
        "th": np.tanh(xd),
        "lr": np.where(xd < 0, xd * F32(0.1), xd),
        "hsg": hsg(xd, 0.25, 0.4),
        "dv": (xd - c) / F32(2.0),
    }
    expected = {}
    for src, name, sc, zp in outs:
        assert vals[src].dtype == F32, src
        expected[name] = ("codes", quantize(vals[src], sc, zp, np.uint8), sc, zp)
    return m, {"x": x}, expected


def case_float_trig():
    """Tan, Asin, Acos, Atan, Sinh, Cosh, Asinh, Acosh (on 2 + x) and Atanh
    on dequantized codes in (-1, 1), then QuantizeLinear at 1/64. libm's
    f32 results are not numpy's bit for bit, so the model computes each in
    float64 and asserts that every exact value lies well inside its output
    step: one f32 rounding cannot change the code."""
    r = rng(96)
    x = r.uniform(-0.95, 0.95, (4, 6)).astype(F32)
    s_x, s_y = 1.0 / 128, 1.0 / 64
    nodes, inits = [], []
    qdq(nodes, inits, "x", s_x, 0, np.int8)
    xd = dequantize(quantize(x, s_x, 0, np.int8), s_x, 0)
    ops = [("Tan", np.tan), ("Asin", np.arcsin), ("Acos", np.arccos),
           ("Atan", np.arctan), ("Sinh", np.sinh), ("Cosh", np.cosh),
           ("Asinh", np.arcsinh), ("Acosh", np.arccosh), ("Atanh", np.arctanh)]
    nodes.append(helper.make_node("Add", ["xd", "two"], ["xp2"]))
    inits.append(init("two", F32(2)))
    expected, outs = {}, []
    for op, fn in ops:
        src = "xp2" if op == "Acosh" else "xd"
        arg = (xd + F32(2)) if op == "Acosh" else xd
        nodes.append(helper.make_node(op, [src], [op.lower()]))
        y = fn(arg.astype(np.float64))
        steps = y / s_y
        margin = np.abs(steps - np.floor(steps) - 0.5)
        assert np.all(margin > 0.002), (op, margin.min())
        name = "y_" + op.lower()
        qdq_out(nodes, inits, op.lower(), name, s_y, 0, np.int8)
        expected[name] = ("codes", quantize(y, s_y, 0, np.int8), s_y, 0)
        outs.append(tin(name, [4, 6]))
    m = model(nodes, [tin("x", [4, 6])], outs, inits)
    return m, {"x": x}, expected


def case_casts_and_masks():
    """CastLike, Size, EyeLike, IsNaN, IsInf and Cast of run-time floats to
    signed integers: x / Size(x) with Size cast like x (torch's x.numel());
    torch's nan_to_num(g, 0) as Where(IsNaN(g), 0, g); IsInf with
    detect_negative = 0; Cast of h to int32, int64 and int8 toward zero,
    saturated beyond the type's range, NaN to 0 (ONNX leaves those
    undefined; docs/ONNXImport.md); f + EyeLike(f, k = 1)."""
    f = np.array([[1.0, 2.0, 3.0, -0.5], [4.0, 5.0, 7.0, 8.0]], F32)
    nan, inf = F32(np.nan), F32(np.inf)
    g = np.array([1.5, nan, -inf, inf, -0.0, nan], F32)
    h = np.array([2.7, -2.7, 1e10, -1e10, nan, 0.5, -0.0, 2147483520.0, 300.0,
                  -300.0, 1e19, -1e19, 127.9, -128.9], F32)
    nodes = [helper.make_node("Size", ["f"], ["size"]),
             helper.make_node("CastLike", ["size", "f"], ["sizef"]),
             helper.make_node("Div", ["f", "sizef"], ["mean_part"]),
             helper.make_node("IsNaN", ["g"], ["isnan"]),
             helper.make_node("Where", ["isnan", "zero", "g"], ["clean"]),
             helper.make_node("IsInf", ["g"], ["isposinf"], detect_negative=0),
             helper.make_node("Cast", ["isposinf"], ["posinf"], to=TensorProto.INT64),
             helper.make_node("Cast", ["h"], ["h32"], to=TensorProto.INT32),
             helper.make_node("Cast", ["h"], ["h64"], to=TensorProto.INT64),
             helper.make_node("Cast", ["h"], ["h8"], to=TensorProto.INT8),
             helper.make_node("EyeLike", ["f"], ["eye"], k=1),
             helper.make_node("Add", ["f", "eye"], ["f_eye"])]
    inits = [init("zero", F32(0))]
    m = model(nodes, [tin("f", [2, 4]), tin("g", [6]), tin("h", [14])],
              [tin("mean_part", [2, 4]), tin("clean", [6]),
               tin("posinf", [6], TensorProto.INT64),
               tin("h32", [14], TensorProto.INT32),
               tin("h64", [14], TensorProto.INT64),
               tin("h8", [14], TensorProto.INT8), tin("f_eye", [2, 4])],
              inits, opset=15)

    def to_int(v, bits):
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        return np.array([0 if np.isnan(e) else
                         max(lo, min(hi, int(np.trunc(np.float64(e))))) for e in v],
                        np.int64)

    eye = np.eye(2, 4, k=1, dtype=F32)
    return m, {"f": f, "g": g, "h": h}, {
        "mean_part": ("float", f / F32(8)),
        "clean": ("float", np.where(np.isnan(g), F32(0), g)),
        "posinf": ("int", (g == inf).astype(np.int64)),
        "h32": ("int", to_int(h, 32)), "h64": ("int", to_int(h, 64)),
        "h8": ("int", to_int(h, 8)), "f_eye": ("float", f + eye)}


def case_float_unary():
    """The remaining elementwise float ops of the ONNX standard up to opset
    17 (Selu, Celu, Softsign, ThresholdedRelu, Shrink, Floor, Ceil, Round,
    Sign, Sin, Cos) and ONNX Runtime's fused com.microsoft Gelu on
    dequantized codes, then QuantizeLinear. The input grid is 1/8, so Round
    meets exact halves (ties to even). numpy evaluates the ONNX reference
    formulas in f32 (erf in float64, rounded to f32)."""
    import math
    r = rng(62)
    x = r.uniform(-4, 4, (1, 3, 4, 5)).astype(F32)
    x[0, 0, 0, :] = [0.5, -0.5, 1.5, -2.5, 0]
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 8, 128)
    ops = [("gelu", "Gelu", {"domain": MS}), ("selu", "Selu", {}),
           ("celu", "Celu", {"alpha": 2.0}), ("softsign", "Softsign", {}),
           ("trelu", "ThresholdedRelu", {"alpha": 1.5}),
           ("shrink", "Shrink", {"lambd": 1.0, "bias": 0.5}),
           ("floor", "Floor", {}), ("ceil", "Ceil", {}), ("round", "Round", {}),
           ("sign", "Sign", {}), ("sin", "Sin", {}), ("cos", "Cos", {})]
    scales = {"gelu": 1.0 / 32, "selu": 1.0 / 16, "celu": 1.0 / 32,
              "softsign": 1.0 / 128, "trelu": 1.0 / 32, "shrink": 1.0 / 32,
              "floor": 1.0, "ceil": 1.0, "round": 1.0, "sign": 1.0,
              "sin": 1.0 / 64, "cos": 1.0 / 64}
    for name, op, attrs in ops:
        nodes.append(helper.make_node(op, ["xd"], [name], **attrs))
        qdq_out(nodes, inits, name, "y_" + name, scales[name], 0, np.int8)
    m = model(nodes, [tin("x", [1, 3, 4, 5])],
              [tin("y_" + name, [1, 3, 4, 5]) for name, _, _ in ops], inits,
              opset=17, microsoft=True)
    xd = dequantize(quantize(x, 1.0 / 8, 128, np.uint8), 1.0 / 8, 128)
    f = F32
    erf = np.vectorize(lambda v: f(math.erf(float(v))))
    alpha, gamma = f(1.67326319217681884765625), f(1.05070102214813232421875)
    vals = {
        "gelu": f(0.5) * xd * (f(1) + erf(xd / f(math.sqrt(2)))),
        "selu": np.where(xd > 0, xd, np.exp(xd) * alpha - alpha) * gamma,
        "celu": np.maximum(f(0), xd) + np.minimum(f(0), f(2) * (np.exp(xd / f(2)) - f(1))),
        "softsign": xd / (f(1) + np.abs(xd)),
        "trelu": np.where(xd > f(1.5), xd, f(0)),
        "shrink": np.where(xd < f(-1), xd + f(0.5), np.where(xd > f(1), xd - f(0.5), f(0))),
        "floor": np.floor(xd), "ceil": np.ceil(xd), "round": np.round(xd),
        "sign": np.sign(xd), "sin": np.sin(xd), "cos": np.cos(xd),
    }
    expected = {}
    for name, _, _ in ops:
        v = np.asarray(vals[name])
        assert v.dtype == F32, name
        expected["y_" + name] = ("codes", quantize(v, scales[name], 0, np.int8),
                                 scales[name], 0)
    return m, {"x": x}, expected


def case_slice():
    """Slice of quantized codes (rows 1..4, every second column) under a
    ReLU on the same grid, and of a float value (channels 1..2 of a
    Sigmoid), with constant starts / ends / axes / steps."""
    r = rng(22)
    x = r.uniform(-3, 3, (1, 3, 6, 8)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    nodes += [
        helper.make_node("Slice", ["xd", "st", "en", "ax", "sp"], ["sl"]),
        helper.make_node("Relu", ["sl"], ["r"]),
        helper.make_node("Sigmoid", ["xd"], ["sg"]),
        helper.make_node("Slice", ["sg", "st2", "en2", "ax2"], ["sl2"]),
    ]
    inits += [init("st", np.array([1, 0], np.int64)), init("en", np.array([5, -1], np.int64)),
              init("ax", np.array([2, 3], np.int64)), init("sp", np.array([1, 2], np.int64)),
              init("st2", np.array([1], np.int64)),
              # torch writes INT64_MAX for "to the end".
              init("en2", np.array([np.iinfo(np.int64).max], np.int64)),
              init("ax2", np.array([-3], np.int64))]
    qdq_out(nodes, inits, "r", "y1", 0.05, 128)
    qdq_out(nodes, inits, "sl2", "y2", 1.0 / 256, 0)
    m = model(nodes, [tin("x", [1, 3, 6, 8])],
              [tin("y1", [1, 3, 4, 4]), tin("y2", [1, 2, 6, 8])], inits)
    xq = quantize(x, 0.05, 128, np.uint8)
    y1 = np.maximum(xq[:, :, 1:5, 0:7:2], 128)
    xd = dequantize(xq, 0.05, 128)
    sg = (F32(1) / (F32(1) + np.exp(-xd))).astype(F32)
    y2 = quantize(sg[:, 1:, :, :], 1.0 / 256, 0, np.uint8)
    return m, {"x": x}, {"y1": ("codes", y1, 0.05, 128), "y2": ("codes", y2, 1.0 / 256, 0)}


def case_slice_backward():
    """Slice with negative steps (torch's flip, and the pads list F.pad
    reverses on compile-time data): quantized codes flipped along W and
    every second row backwards from the last, a float value with a step of
    -3 from a start beyond the end to an end before the beginning, run-time
    int64 ids flipped, and torch's F.pad(x, (2, 1)) export (Slice -1 of
    the pads list, then Pad). Python's slices follow the same clamping
    rules, so numpy's x[start:end:step] is the model."""
    r = rng(23)
    x = r.uniform(-3, 3, (1, 3, 6, 8)).astype(F32)
    ids = r.integers(-100, 100, (2, 5)).astype(np.int64)
    big = np.iinfo(np.int64)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    ints = lambda v: np.array(v, np.int64)
    nodes += [
        helper.make_node("Slice", ["xd", "st", "en", "ax", "sp"], ["sl"], name="flip"),
        helper.make_node("Sigmoid", ["xd"], ["sg"]),
        helper.make_node("Slice", ["sg", "st2", "en2", "ax2", "sp2"], ["sl2"]),
        helper.make_node("Slice", ["ids", "st3", "en3", "ax3", "sp3"], ["y3"]),
        # torch's F.pad(x, (2, 1)): the pads list [2, 1] for the last axis,
        # padded to [0, 0, 0, 0, 0, 0, 2, 1]... as torch builds it: the
        # (begin, end) pairs from the last axis, reversed, transposed.
        helper.make_node("Slice", ["tpads", "st4", "en4", "ax4", "sp4"], ["rev"]),
        helper.make_node("Transpose", ["rev"], ["revt"], perm=[1, 0]),
        helper.make_node("Reshape", ["revt", "flat"], ["pads"]),
        helper.make_node("Pad", ["sg", "pads"], ["padded"]),
    ]
    inits += [init("st", ints([-1, big.max])), init("en", ints([big.min, big.min])),
              init("ax", ints([2, 3])), init("sp", ints([-2, -1])),
              init("st2", ints([100])), init("en2", ints([-100])),
              init("ax2", ints([3])), init("sp2", ints([-3])),
              init("st3", ints([-2])), init("en3", ints([0])),
              init("ax3", ints([1])), init("sp3", ints([-1])),
              # rows: (begin, end) of axes 3, 2, 1, 0 as torch lists them
              # reversed: [[0, 0], [0, 0], [0, 0], [2, 1]] read backwards.
              init("tpads", ints([[2, 1], [0, 0], [0, 0], [0, 0]])),
              init("st4", ints([-1])), init("en4", ints([big.min])),
              init("ax4", ints([0])), init("sp4", ints([-1])),
              init("flat", ints([-1]))]
    qdq_out(nodes, inits, "sl", "y1", 0.05, 128)
    qdq_out(nodes, inits, "sl2", "y2", 1.0 / 256, 0)
    qdq_out(nodes, inits, "padded", "y4", 1.0 / 256, 0)
    m = model(nodes, [tin("x", [1, 3, 6, 8]), tin("ids", [2, 5], TensorProto.INT64)],
              [tin("y1", [1, 3, 3, 8]), tin("y2", [1, 3, 6, 3]),
               tin("y3", [2, 3], TensorProto.INT64), tin("y4", [1, 3, 6, 11])],
              inits)
    xq = quantize(x, 0.05, 128, np.uint8)
    xd = dequantize(xq, 0.05, 128)
    sg = (F32(1) / (F32(1) + np.exp(-xd))).astype(F32)
    y1 = xq[:, :, -1:big.min:-2, big.max:big.min:-1]
    y2 = quantize(sg[:, :, :, 100:-100:-3], 1.0 / 256, 0, np.uint8)
    y4 = quantize(np.pad(sg, [(0, 0), (0, 0), (0, 0), (2, 1)]), 1.0 / 256, 0,
                  np.uint8)
    return m, {"x": x, "ids": ids}, {
        "y1": ("codes", y1, 0.05, 128), "y2": ("codes", y2, 1.0 / 256, 0),
        "y3": ("ints", ids[:, -2:0:-1]), "y4": ("codes", y4, 1.0 / 256, 0)}


def case_a16w8():
    """ONNX Runtime's 16-bit activations (A16W8 QDQ: com.microsoft int16
    Q / DQ) into Conv (int8 per-channel weights), MatMul, Gemm and
    ConvTranspose (int8 weights), and a GlobalAveragePool onto another
    scale: qnt.conv2d /
    qnt.matmul take 8-bit codes, so these run in f32 on the dequantized
    values, the QDQ graph's definition. Dyadic
    values keep every f32 sum exact."""
    r = rng(24)
    x = (r.integers(-128, 128, (1, 2, 4, 4)) / 64.0).astype(F32)
    a = (r.integers(-128, 128, (3, 8)) / 64.0).astype(F32)
    w = r.integers(-127, 128, (3, 2, 3, 3)).astype(np.int8)
    w_s = np.array([1 / 64, 1 / 32, 1 / 128], F32)
    m8 = r.integers(-127, 128, (8, 4)).astype(np.int8)
    wt = r.integers(-127, 128, (2, 3, 2, 2)).astype(np.int8)
    x_s, y_s = 1.0 / 1024, 1.0 / 64
    q16 = lambda inp, out, s, z: [
        helper.make_node("QuantizeLinear", [inp, s, z], [out + "q"], domain=MS),
        helper.make_node("DequantizeLinear", [out + "q", s, z], [out], domain=MS)]
    nodes = (q16("x", "xd", "x_s", "x_z") + q16("a", "ad", "x_s", "x_z") + [
        helper.make_node("DequantizeLinear", ["w", "w_s", "w_z"], ["wd"], axis=0),
        helper.make_node("Conv", ["xd", "wd"], ["c"], pads=[1, 1, 1, 1], name="conv16"),
        helper.make_node("DequantizeLinear", ["m8", "m_s"], ["md"]),
        helper.make_node("MatMul", ["ad", "md"], ["mm"], name="matmul16"),
        helper.make_node("DequantizeLinear", ["m8t", "m_s"], ["mdt"]),
        helper.make_node("Gemm", ["ad", "mdt"], ["gm"], transB=1, name="gemm16"),
        helper.make_node("GlobalAveragePool", ["xd"], ["gap"]),
        helper.make_node("DequantizeLinear", ["wt", "m_s"], ["wtd"]),
        helper.make_node("ConvTranspose", ["xd", "wtd"], ["ct"], strides=[2, 2],
                         name="convtranspose16")] +
        q16("c", "y1", "y_s", "y_z") + q16("mm", "y2", "y_s", "y_z") +
        q16("gm", "y3", "y_s", "y_z") + q16("gap", "y4", "y_s", "y_z") +
        q16("ct", "y5", "y_s", "y_z"))
    inits = [init("x_s", F32(x_s)), init("x_z", np.int16(0)), init("w", w),
             init("w_s", w_s), init("w_z", np.zeros(3, np.int8)), init("m8", m8),
             init("m8t", m8.T.copy()), init("m_s", F32(1 / 64)),
             init("y_s", F32(y_s)), init("y_z", np.int16(0)), init("wt", wt)]
    m = model(nodes, [tin("x", [1, 2, 4, 4]), tin("a", [3, 8])],
              [tin("y1", [1, 3, 4, 4]), tin("y2", [3, 4]), tin("y3", [3, 4]),
               tin("y4", [1, 2, 1, 1]), tin("y2q", [3, 4], TensorProto.INT16),
               tin("y5", [1, 3, 8, 8])],
              inits, microsoft=True)
    xd = dequantize(quantize(x, x_s, 0, np.int16), x_s, 0).astype(np.float64)
    ad = dequantize(quantize(a, x_s, 0, np.int16), x_s, 0).astype(np.float64)
    wd = w.astype(np.float64) * w_s.astype(np.float64).reshape(3, 1, 1, 1)
    xp = np.pad(xd, [(0, 0), (0, 0), (1, 1), (1, 1)])
    c = np.zeros((1, 3, 4, 4))
    for f in range(3):
        for i in range(4):
            for j in range(4):
                c[0, f, i, j] = (xp[0, :, i:i + 3, j:j + 3] * wd[f]).sum()
    mm = ad @ (m8.astype(np.float64) / 64)
    q = lambda v: quantize(v.astype(F32), y_s, 0, np.int16)
    return m, {"x": x, "a": a}, {"y1": ("codes", q(c), y_s, 0),
                                 "y2": ("codes", q(mm), y_s, 0),
                                 "y3": ("codes", q(mm), y_s, 0),
                                 "y4": ("codes", q(xd.mean(axis=(2, 3), keepdims=True)),
                                        y_s, 0),
                                 "y2q": ("ints", q(mm)),
                                 "y5": ("codes", q(conv_transpose(
                                     xd, wt.astype(np.float64) / 64, strides=(2, 2))),
                                        y_s, 0)}


def softmax_f32(x, axis):
    """ONNX Softmax in f32: exp(x - max) / sum, summed in index order."""
    e = np.exp(x - x.max(axis=axis, keepdims=True)).astype(F32)
    total = np.zeros_like(np.take(e, [0], axis=axis))
    for i in range(e.shape[axis]):
        total = (total + np.take(e, [i], axis=axis)).astype(F32)
    return (e / total).astype(F32)


def log_softmax_f32(x, axis):
    """ONNX LogSoftmax in f32 as its reference computes it: (x - max) -
    log(sum(exp(x - max))), summed in index order."""
    d = (x - x.max(axis=axis, keepdims=True)).astype(F32)
    e = np.exp(d).astype(F32)
    total = np.zeros_like(np.take(e, [0], axis=axis))
    for i in range(e.shape[axis]):
        total = (total + np.take(e, [i], axis=axis)).astype(F32)
    return (d - np.log(total)).astype(F32)


def case_softmax():
    """Softmax over the classes of a (2, 10) score matrix and over the
    channels of an NCHW map, between a DQ and a Q (scale 1/256, as ONNX
    Runtime quantizes it): f32 exp(x - max) / sum."""
    r = rng(23)
    a = r.uniform(-4, 4, (2, 10)).astype(F32)
    c = r.uniform(-4, 4, (1, 5, 3, 3)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "a", 0.05, 128)
    qdq(nodes, inits, "c", 0.05, 128)
    nodes += [helper.make_node("Softmax", ["ad"], ["sa"]),
              helper.make_node("Softmax", ["cd"], ["sc"], axis=1),
              helper.make_node("LogSoftmax", ["ad"], ["la"]),
              helper.make_node("LogSoftmax", ["cd"], ["lc"], axis=1)]
    qdq_out(nodes, inits, "sa", "y1", 1.0 / 256, 0)
    qdq_out(nodes, inits, "sc", "y2", 1.0 / 256, 0)
    qdq_out(nodes, inits, "la", "y3", 1.0 / 16, 127, np.int8)
    qdq_out(nodes, inits, "lc", "y4", 1.0 / 16, 127, np.int8)
    m = model(nodes, [tin("a", [2, 10]), tin("c", [1, 5, 3, 3])],
              [tin("y1", [2, 10]), tin("y2", [1, 5, 3, 3]),
               tin("y3", [2, 10]), tin("y4", [1, 5, 3, 3])], inits)
    ad = dequantize(quantize(a, 0.05, 128, np.uint8), 0.05, 128)
    cd = dequantize(quantize(c, 0.05, 128, np.uint8), 0.05, 128)
    y1 = quantize(softmax_f32(ad, 1), 1.0 / 256, 0, np.uint8)
    y2 = quantize(softmax_f32(cd, 1), 1.0 / 256, 0, np.uint8)
    y3 = quantize(log_softmax_f32(ad, 1), 1.0 / 16, 127, np.int8)
    y4 = quantize(log_softmax_f32(cd, 1), 1.0 / 16, 127, np.int8)
    return m, {"a": a, "c": c}, {"y1": ("codes", y1, 1.0 / 256, 0),
                                 "y2": ("codes", y2, 1.0 / 256, 0),
                                 "y3": ("codes", y3, 1.0 / 16, 127),
                                 "y4": ("codes", y4, 1.0 / 16, 127)}


def case_squeeze():
    """Squeeze of quantized codes (axes 1 and 3, then a ReLU on the same
    grid) and of a float value (no axes: every size-1 dimension)."""
    r = rng(24)
    x = r.uniform(-3, 3, (2, 1, 4, 1)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    nodes += [helper.make_node("Squeeze", ["xd", "axes"], ["sq"]),
              helper.make_node("Relu", ["sq"], ["r"]),
              helper.make_node("Sigmoid", ["xd"], ["sg"]),
              helper.make_node("Squeeze", ["sg"], ["sq2"])]
    inits.append(init("axes", np.array([1, -1], np.int64)))
    qdq_out(nodes, inits, "r", "y1", 0.05, 128)
    qdq_out(nodes, inits, "sq2", "y2", 1.0 / 256, 0)
    m = model(nodes, [tin("x", [2, 1, 4, 1])], [tin("y1", [2, 4]), tin("y2", [2, 4])], inits)
    xq = quantize(x, 0.05, 128, np.uint8)
    xd = dequantize(xq, 0.05, 128)
    sg = (F32(1) / (F32(1) + np.exp(-xd))).astype(F32)
    return m, {"x": x}, {"y1": ("codes", np.maximum(xq, 128).reshape(2, 4), 0.05, 128),
                         "y2": ("codes", quantize(sg, 1.0 / 256, 0, np.uint8).reshape(2, 4),
                                1.0 / 256, 0)}


def case_resize():
    """Nearest upsampling as detection and segmentation heads export it: by
    (2, 3) with ONNX's defaults (half_pixel, round_prefer_floor) on the
    codes, and to given sizes with torch's asymmetric / floor on a float
    value. Each element repeats (a floordiv indexing map)."""
    r = rng(25)
    x = r.uniform(-3, 3, (1, 2, 3, 4)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    nodes += [helper.make_node("Resize", ["xd", "", "scales"], ["up"], mode="nearest"),
              helper.make_node("Sigmoid", ["xd"], ["sg"]),
              helper.make_node("Resize", ["sg", "", "", "sizes"], ["up2"], mode="nearest",
                               coordinate_transformation_mode="asymmetric",
                               nearest_mode="floor")]
    inits += [init("scales", np.array([1, 1, 2, 3], F32)),
              init("sizes", np.array([1, 2, 6, 8], np.int64))]
    qdq_out(nodes, inits, "up", "y1", 0.05, 128)
    qdq_out(nodes, inits, "up2", "y2", 1.0 / 256, 0)
    m = model(nodes, [tin("x", [1, 2, 3, 4])], [tin("y1", [1, 2, 6, 12]), tin("y2", [1, 2, 6, 8])],
              inits)
    xq = quantize(x, 0.05, 128, np.uint8)
    xd = dequantize(xq, 0.05, 128)
    sg = (F32(1) / (F32(1) + np.exp(-xd))).astype(F32)
    y1 = xq.repeat(2, axis=2).repeat(3, axis=3)
    y2 = quantize(sg.repeat(2, axis=2).repeat(2, axis=3), 1.0 / 256, 0, np.uint8)
    return m, {"x": x}, {"y1": ("codes", y1, 0.05, 128), "y2": ("codes", y2, 1.0 / 256, 0)}


def ort_nearest_sources(in_len, out_len, scale, transform, rounding):
    """The input index ONNX Runtime's nearest Resize reads per output index
    along an axis, in f32 as its upsample kernel computes: the coordinate
    transform, the nearest mode (round_prefer_floor: a .5 goes down; the
    others as C's floor, ceil, round), the clamp to the input. `scale` is
    the f32 scale (sizes: float(out) / float(in))."""
    f = np.float32
    scale = f(scale)
    out = []
    for x in range(out_len):
        xr = f(x)
        if transform == "half_pixel":
            xo = (xr + f(0.5)) / scale - f(0.5)
        elif transform == "pytorch_half_pixel":
            xo = (xr + f(0.5)) / scale - f(0.5) if out_len > 1 else f(0)
        elif transform == "asymmetric":
            xo = xr / scale
        elif transform == "align_corners":
            xo = xr * f(in_len - 1) / f(out_len - 1) if out_len > 1 else f(0)
        else:
            raise ValueError(transform)
        xo = f(xo)
        if rounding == "floor":
            src = math.floor(xo)
        elif rounding == "ceil":
            src = math.ceil(xo)
        elif rounding == "round_prefer_floor":
            src = math.floor(xo) if xo - math.floor(xo) == 0.5 else math.floor(xo + 0.5)
        else:  # round_prefer_ceil: C's round, halves away from zero
            src = int(math.copysign(math.floor(abs(xo) + 0.5), xo))
        out.append(min(max(src, 0), in_len - 1))
    return np.array(out)


def case_resize_nearest_any():
    """Nearest Resize by factors that do not repeat each element: FPN's
    top-down path at odd sizes (torch's F.interpolate(size=...):
    asymmetric / floor, 13 x 7 -> 25 x 13) on a conv result (NHWC), ONNX's
    defaults (half_pixel / round_prefer_floor) by 1.5 on codes, a
    downsampling by 0.5 with align_corners / round_prefer_ceil, and
    asymmetric / round_prefer_ceil by 3 (which reads the next element).
    Against a loop-by-loop f32 model of ONNX Runtime's index mapping."""
    r = rng(174)
    x = r.uniform(-1, 1, (1, 2, 13, 7)).astype(F32)
    w = r.integers(-127, 128, (3, 2, 1, 1)).astype(np.int8)
    x_s, x_z, c_s, c_z, w_s = 0.01, 120, 0.02, 10, 0.005
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += conv_nodes + [
        helper.make_node("Resize", ["cd", "", "", "sizes1"], ["r1"], name="fpn",
                         mode="nearest", coordinate_transformation_mode="asymmetric",
                         nearest_mode="floor"),
        helper.make_node("Resize", ["xd", "", "scales2"], ["r2"], name="by1_5",
                         mode="nearest"),
        helper.make_node("Resize", ["xd", "", "scales3"], ["r3"], name="down",
                         mode="nearest", coordinate_transformation_mode="align_corners",
                         nearest_mode="round_prefer_ceil"),
        helper.make_node("Resize", ["xd", "", "scales4"], ["r4"], name="ceil3",
                         mode="nearest", coordinate_transformation_mode="asymmetric",
                         nearest_mode="round_prefer_ceil")]
    inits += conv_inits + [
        init("sizes1", np.array([1, 3, 25, 13], np.int64)),
        init("scales2", np.array([1, 1, 1.5, 1.5], F32)),
        init("scales3", np.array([1, 1, 0.5, 0.5], F32)),
        init("scales4", np.array([1, 1, 1, 3], F32))]
    xq = quantize(x, x_s, x_z, np.uint8)
    cq = conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z)

    def resized(codes, out_hw, scales, transform, rounding):
        rows = ort_nearest_sources(codes.shape[2], out_hw[0], scales[0], transform, rounding)
        cols = ort_nearest_sources(codes.shape[3], out_hw[1], scales[1], transform, rounding)
        return codes[:, :, rows][:, :, :, cols]

    f = np.float32
    want = {
        "r1": (resized(cq, (25, 13), (f(25) / f(13), f(13) / f(7)), "asymmetric", "floor"),
               c_s, c_z),
        "r2": (resized(xq, (19, 10), (1.5, 1.5), "half_pixel", "round_prefer_floor"),
               x_s, x_z),
        "r3": (resized(xq, (6, 3), (0.5, 0.5), "align_corners", "round_prefer_ceil"),
               x_s, x_z),
        "r4": (resized(xq, (13, 21), (1, 3), "asymmetric", "round_prefer_ceil"),
               x_s, x_z),
    }
    expected, outs = {}, []
    for src, (y, s, z) in want.items():
        qdq_out(nodes, inits, src, "y_" + src, s, z)
        expected["y_" + src] = ("codes", y, s, z)
        outs.append(tin("y_" + src, list(y.shape)))
    m = model(nodes, [tin("x", [1, 2, 13, 7])], outs, inits)
    return m, {"x": x}, expected


def case_conv_resize():
    """case_qdq_conv_relu's conv, then nearest Resize by 2 of its NHWC codes
    and a Q on the same grid: the codes repeat, no transpose."""
    m, inputs, expected = case_qdq_conv_relu()
    g = m.graph
    y_s, y_z = 0.03, 10
    g.output[0].name = "up_y"
    g.output[0].type.tensor_type.shape.dim[2].dim_value = 10
    g.output[0].type.tensor_type.shape.dim[3].dim_value = 10
    g.node.extend([
        helper.make_node("Resize", ["y", "", "up_scales"], ["up"], mode="nearest"),
        helper.make_node("QuantizeLinear", ["up", "y_s", "y_z"], ["upq"]),
        helper.make_node("DequantizeLinear", ["upq", "y_s", "y_z"], ["up_y"])])
    g.initializer.append(init("up_scales", np.array([1, 1, 2, 2], F32)))
    onnx.checker.check_model(m)
    y = expected["y"][1].repeat(2, axis=2).repeat(2, axis=3)
    return m, inputs, {"up_y": ("codes", y, y_s, y_z)}


def depth_to_space(x, b, mode):
    """ONNX DepthToSpace by its index formula: output (c, h * b + i,
    w * b + j) reads input channel (i * b + j) * C' + c (DCR) or
    c * b * b + i * b + j (CRD), C' = C / b^2."""
    n, c, h, w = x.shape
    co = c // (b * b)
    y = np.zeros((n, co, h * b, w * b), x.dtype)
    for ch in range(co):
        for i in range(b):
            for j in range(b):
                src = (i * b + j) * co + ch if mode == "DCR" else ch * b * b + i * b + j
                y[:, ch, i::b, j::b] = x[:, src]
    return y


def space_to_depth(x, b):
    """ONNX SpaceToDepth: output channel (i * b + j) * C + c holds input
    (c, h * b + i, w * b + j)."""
    n, c, h, w = x.shape
    y = np.zeros((n, c * b * b, h // b, w // b), x.dtype)
    for ch in range(c):
        for i in range(b):
            for j in range(b):
                y[:, (i * b + j) * c + ch] = x[:, ch, i::b, j::b]
    return y


def case_depth_to_space():
    """DepthToSpace in both modes and SpaceToDepth: on dequantized codes
    (DCR, blocksize 2, then a Q on the same grid: the codes move), on the
    NHWC codes of a conv (CRD, torch's PixelShuffle, blocksize 2) and on a
    float graph input (SpaceToDepth, blocksize 2; values print exactly)."""
    m, inputs, expected = case_qdq_conv_relu()  # y: 2 x 3 x 5 x 5 codes
    g = m.graph
    r = rng(63)
    a = r.uniform(-1, 1, (1, 8, 2, 3)).astype(F32)
    f = (r.integers(-16, 16, (1, 2, 4, 6)) / 4.0).astype(F32)
    a_s, a_z = 0.01, 100
    y_s, y_z = 0.03, 10
    nodes, inits = [], []
    qdq(nodes, inits, "a", a_s, a_z)
    nodes += [
        helper.make_node("DepthToSpace", ["ad"], ["d1"], blocksize=2),
        helper.make_node("QuantizeLinear", ["d1", "a_s", "a_z"], ["d1q"]),
        helper.make_node("DequantizeLinear", ["d1q", "a_s", "a_z"], ["y_dcr"]),
        # case_qdq_conv_relu's 2 x 3 x 5 x 5 output codes, tiled to 12 channels.
        helper.make_node("Concat", ["y", "y", "y", "y"], ["y4"], axis=1),
        helper.make_node("DepthToSpace", ["y4"], ["d2"], blocksize=2, mode="CRD"),
        helper.make_node("QuantizeLinear", ["d2", "y_s", "y_z"], ["d2q"]),
        helper.make_node("DequantizeLinear", ["d2q", "y_s", "y_z"], ["y_crd"]),
        helper.make_node("SpaceToDepth", ["f"], ["y_s2d"], blocksize=2),
    ]
    g.node.extend(nodes)
    g.initializer.extend(inits)
    g.input.extend([tin("a", [1, 8, 2, 3]), tin("f", [1, 2, 4, 6])])
    del g.output[:]
    g.output.extend([tin("y_dcr", [1, 2, 4, 6]), tin("y_crd", [2, 3, 10, 10]),
                     tin("y_s2d", [1, 8, 2, 3])])
    onnx.checker.check_model(m)
    aq = quantize(a, a_s, a_z, np.uint8)
    yc = np.concatenate([expected["y"][1]] * 4, axis=1)
    inputs.update({"a": a, "f": f})
    return m, inputs, {
        "y_dcr": ("codes", depth_to_space(aq, 2, "DCR"), a_s, a_z),
        "y_crd": ("codes", depth_to_space(yc, 2, "CRD"), y_s, y_z),
        "y_s2d": ("float", space_to_depth(f, 2))}


def case_bad_depth_to_space_channels():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("DepthToSpace", ["xd"], ["y"], name="d2s",
                                  blocksize=2))
    return model(nodes, [tin("x", [1, 6, 2, 2])], [tin("y", [1, 1, 4, 4])], inits,
                 opset=11), {}, {}


def case_argmax():
    """ArgMax / ArgMin on dequantized codes (a coarse grid: many ties, the
    first index wins, the last with select_last_index) and on the f32 Log of
    a float input (log of a negative number is NaN, of 0 -inf: the first
    NaN wins, the last with select_last_index). numpy's argmax / argmin are
    the ONNX reference's."""
    r = rng(64)
    a = r.uniform(-1, 1, (1, 5, 3, 4)).astype(F32)
    f = np.array([[-1, 0, 2, 5, 5, -3], [1, 4, 4, 0, 3, 2]], F32)
    nodes, inits = [], []
    qdq(nodes, inits, "a", 0.25, 128)
    nodes += [
        helper.make_node("ArgMax", ["ad"], ["y1"], axis=1),
        helper.make_node("ArgMin", ["ad"], ["y2"], axis=-1, keepdims=0,
                         select_last_index=1),
        helper.make_node("Log", ["f"], ["lf"]),
        helper.make_node("ArgMax", ["lf"], ["y3"], axis=1, keepdims=0),
        helper.make_node("ArgMax", ["lf"], ["y4"], axis=1, keepdims=0,
                         select_last_index=1),
        helper.make_node("ArgMin", ["lf"], ["y5"]),
    ]
    i64 = TensorProto.INT64
    m = model(nodes, [tin("a", [1, 5, 3, 4]), tin("f", [2, 6])],
              [tin("y1", [1, 1, 3, 4], i64), tin("y2", [1, 5, 3], i64),
               tin("y3", [2], i64), tin("y4", [2], i64), tin("y5", [1, 6], i64)],
              inits)
    ad = dequantize(quantize(a, 0.25, 128, np.uint8), 0.25, 128)
    with np.errstate(divide="ignore", invalid="ignore"):
        lf = np.log(f)

    def last(fn, x, axis):
        flipped = np.flip(x, axis)
        return x.shape[axis] - fn(flipped, axis=axis) - 1

    return m, {"a": a, "f": f}, {
        "y1": ("int", np.argmax(ad, axis=1)[:, None]),
        "y2": ("int", last(np.argmin, ad, 3)),
        "y3": ("int", np.argmax(lf, axis=1)),
        "y4": ("int", last(np.argmax, lf, 1)),
        "y5": ("int", np.argmin(lf, axis=0)[None])}


def conv1d(x, w, xz=0, wz=0, stride=1, pads=(0, 0), dilation=1, group=1):
    """ONNX Conv over one spatial axis (N x C x L, weights F x C/group x K):
    the exact sum of (x - xz)(w - wz[f]) over each window, padding holding
    real zero. Integers in int64, floats in float64."""
    n, c, length = x.shape
    f, cg, k = w.shape
    dt = np.int64 if np.issubdtype(x.dtype, np.integer) else np.float64
    xp = np.full((n, c, length + pads[0] + pads[1]), xz, dt)
    xp[:, :, pads[0]:pads[0] + length] = x
    xp = xp - xz
    wz = np.broadcast_to(np.asarray(wz, dt), (f,))
    wc = w.astype(dt) - wz.reshape(f, 1, 1)
    span = (k - 1) * dilation + 1
    ol = (xp.shape[2] - span) // stride + 1
    out = np.zeros((n, f, ol), dt)
    for fo in range(f):
        g = fo // (f // group)
        for o in range(ol):
            win = xp[:, g * cg:(g + 1) * cg, o * stride:o * stride + span:dilation]
            out[:, fo, o] = (win * wc[fo]).sum(axis=(1, 2))
    return out


def case_conv1d():
    """1-D convolutions (N x C x L), imported as the 2-D conv of height 1:
    torch's QDQ form (per-channel weights, float bias, stride 2, dilation 2,
    pads [1, 2], Relu), a depthwise one with auto_pad SAME_UPPER, ConvInteger
    on uint8 codes, and a float Conv (dyadic values: exact f32 sums)."""
    r = rng(65)
    x = r.uniform(-1, 1, (2, 3, 10)).astype(F32)
    x_s, x_z = 2.0 / 255, 128
    w1f = r.uniform(-0.5, 0.5, (4, 3, 3)).astype(F32)
    b1f = r.uniform(-0.2, 0.2, (4,)).astype(F32)
    w1_s = (np.abs(w1f).reshape(4, -1).max(1) / 127).astype(F32)
    w2 = r.integers(-127, 128, (3, 1, 5)).astype(np.int8)
    w3 = r.integers(-127, 128, (2, 3, 2)).astype(np.int8)
    xc = r.integers(0, 256, (1, 3, 7)).astype(np.uint8)
    f = (r.integers(-8, 8, (1, 2, 6)) / 4.0).astype(F32)
    w4 = (r.integers(-4, 4, (3, 2, 3)) / 2.0).astype(F32)
    y1_s, y1_z, y2_s = 0.02, 5, 0.05
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("QuantizeLinear", ["w1", "w1_s", "w1_z"], ["w1q"], axis=0),
        helper.make_node("DequantizeLinear", ["w1q", "w1_s", "w1_z"], ["w1d"], axis=0),
        helper.make_node("Conv", ["xd", "w1d", "b1"], ["c1"], strides=[2],
                         dilations=[2], pads=[1, 2], kernel_shape=[3]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("DequantizeLinear", ["w2", "w2_s"], ["w2d"]),
        helper.make_node("Conv", ["xd", "w2d"], ["c2"], group=3, auto_pad="SAME_UPPER"),
        helper.make_node("ConvInteger", ["xc", "w3", "xc_z"], ["y3"]),
        helper.make_node("Conv", ["f", "w4"], ["y4"], pads=[1, 1]),
    ]
    inits += [init("w1", w1f), init("w1_s", w1_s), init("w1_z", np.zeros(4, np.int8)),
              init("b1", b1f), init("w2", w2), init("w2_s", F32(0.01)),
              init("w3", w3), init("xc_z", np.uint8(100)), init("w4", w4)]
    qdq_out(nodes, inits, "r1", "y1", y1_s, y1_z)
    qdq_out(nodes, inits, "c2", "y2", y2_s, 0, np.int8)
    m = model(nodes, [tin("x", [2, 3, 10]), tin("xc", [1, 3, 7], TensorProto.UINT8),
                      tin("f", [1, 2, 6])],
              [tin("y1", [2, 4, 5]), tin("y2", [2, 3, 10]),
               tin("y3", [1, 2, 6], TensorProto.INT32), tin("y4", [1, 3, 6])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    w1q = quantize(w1f, w1_s, np.zeros(4), np.int8, axis=0)
    acc1 = conv1d(xq, w1q, x_z, 0, stride=2, pads=(1, 2), dilation=2)
    acc1 = acc1 + bias_codes(b1f, x_s, w1_s).reshape(1, 4, 1)
    y1 = requantize(acc1, F32(x_s) * w1_s, y1_s, y1_z, np.uint8, lo=y1_z, axis=1)
    # SAME_UPPER, kernel 5, stride 1: 4 padded, 2 at each end.
    acc2 = conv1d(xq, w2.astype(np.int64), x_z, 0, pads=(2, 2), group=3)
    y2 = requantize(acc2, F32(x_s) * F32(0.01), y2_s, 0, np.int8)
    y3 = conv1d(xc.astype(np.int64), w3.astype(np.int64), 100, 0)
    y4 = conv1d(f, w4, pads=(1, 1)).astype(F32)
    return m, {"x": x, "xc": xc, "f": f}, {
        "y1": ("codes", y1, y1_s, y1_z), "y2": ("codes", y2, y2_s, 0),
        "y3": ("int", y3), "y4": ("float", y4)}


def conv3d(x, w, xz=0, wz=0, strides=(1, 1, 1), pads=(0,) * 6,
           dilations=(1, 1, 1), group=1):
    """ONNX Conv over three spatial axes (N x C x D x H x W, weights
    F x C/group x kD x kH x kW; pads [D, H, W begin, D, H, W end]): the exact
    sum of (x - xz)(w - wz[f]) over each window, padding holding real zero.
    Integers in int64, floats in float64."""
    n, c = x.shape[:2]
    f, cg = w.shape[:2]
    k = w.shape[2:]
    dt = np.int64 if np.issubdtype(x.dtype, np.integer) else np.float64
    size = [x.shape[2 + d] + pads[d] + pads[d + 3] for d in range(3)]
    xp = np.full((n, c, *size), xz, dt)
    xp[:, :, pads[0]:pads[0] + x.shape[2], pads[1]:pads[1] + x.shape[3],
       pads[2]:pads[2] + x.shape[4]] = x
    xp = xp - xz
    wz = np.broadcast_to(np.asarray(wz, dt), (f,))
    wc = w.astype(dt) - wz.reshape(f, 1, 1, 1, 1)
    span = [(k[d] - 1) * dilations[d] + 1 for d in range(3)]
    out_size = [(size[d] - span[d]) // strides[d] + 1 for d in range(3)]
    out = np.zeros((n, f, *out_size), dt)
    for fo in range(f):
        g = fo // (f // group)
        for od in range(out_size[0]):
            for oh in range(out_size[1]):
                for ow in range(out_size[2]):
                    o = (od, oh, ow)
                    win = xp[:, g * cg:(g + 1) * cg,
                             *[slice(o[d] * strides[d],
                                     o[d] * strides[d] + span[d], dilations[d])
                               for d in range(3)]]
                    out[:, fo, od, oh, ow] = (win * wc[fo]).sum(axis=(1, 2, 3, 4))
    return out


def case_conv3d():
    """3-D convolutions (N x C x D x H x W), imported as one 2-D conv of the
    depth-stacked input (lib/Import/ONNX/Conv3D.cpp): torch's QDQ form
    (per-channel weights, float bias, strides (2, 1, 2), dilations
    (2, 1, 1), uneven pads, Relu) followed by a second quantized 3-D conv on
    its codes, a grouped one with auto_pad SAME_UPPER and int8 output, and
    a float Conv3D with bias (dyadic values: exact f32 sums)."""
    r = rng(66)
    x = r.uniform(-1, 1, (2, 4, 7, 5, 6)).astype(F32)
    x_s, x_z = 2.0 / 255, 128
    w1f = r.uniform(-0.5, 0.5, (3, 4, 3, 2, 3)).astype(F32)
    b1f = r.uniform(-0.2, 0.2, (3,)).astype(F32)
    w1_s = (np.abs(w1f).reshape(3, -1).max(1) / 127).astype(F32)
    w2 = r.integers(-127, 128, (4, 2, 2, 3, 3)).astype(np.int8)
    w5 = r.integers(-127, 128, (2, 3, 2, 1, 1)).astype(np.int8)
    f = (r.integers(-8, 8, (1, 2, 4, 3, 5)) / 4.0).astype(F32)
    w4 = (r.integers(-4, 4, (3, 2, 2, 2, 3)) / 2.0).astype(F32)
    b4 = np.array([0.5, -1.25, 2.0], F32)
    y1_s, y1_z, y2_s, y5_s, y5_z = 0.02, 5, 0.05, 0.1, 120
    pads1 = [1, 0, 1, 2, 1, 0]
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("QuantizeLinear", ["w1", "w1_s", "w1_z"], ["w1q"], axis=0),
        helper.make_node("DequantizeLinear", ["w1q", "w1_s", "w1_z"], ["w1d"], axis=0),
        helper.make_node("Conv", ["xd", "w1d", "b1"], ["c1"], strides=[2, 1, 2],
                         dilations=[2, 1, 1], pads=pads1, kernel_shape=[3, 2, 3]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("DequantizeLinear", ["w2", "w2_s"], ["w2d"]),
        helper.make_node("Conv", ["xd", "w2d"], ["c2"], group=2, auto_pad="SAME_UPPER"),
        helper.make_node("Conv", ["f", "w4", "b4"], ["y4"], pads=[0, 1, 0, 1, 0, 1]),
    ]
    inits += [init("w1", w1f), init("w1_s", w1_s), init("w1_z", np.zeros(3, np.int8)),
              init("b1", b1f), init("w2", w2), init("w2_s", F32(0.01)),
              init("w5", w5), init("w5_s", F32(0.02)), init("w4", w4), init("b4", b4)]
    qdq_out(nodes, inits, "r1", "y1", y1_s, y1_z)
    qdq_out(nodes, inits, "c2", "y2", y2_s, 0, np.int8)
    nodes += [helper.make_node("DequantizeLinear", ["w5", "w5_s"], ["w5d"]),
              helper.make_node("Conv", ["y1", "w5d"], ["c5"])]
    qdq_out(nodes, inits, "c5", "y5", y5_s, y5_z)
    xq = quantize(x, x_s, x_z, np.uint8)
    w1q = quantize(w1f, w1_s, np.zeros(3), np.int8, axis=0)
    acc1 = conv3d(xq, w1q, x_z, 0, strides=(2, 1, 2), pads=pads1, dilations=(2, 1, 1))
    acc1 = acc1 + bias_codes(b1f, x_s, w1_s).reshape(1, 3, 1, 1, 1)
    y1 = requantize(acc1, F32(x_s) * w1_s, y1_s, y1_z, np.uint8, lo=y1_z, axis=1)
    # SAME_UPPER, stride 1: kernel 2 pads (0, 1), kernel 3 pads (1, 1).
    acc2 = conv3d(xq, w2.astype(np.int64), x_z, 0, pads=(0, 1, 1, 1, 1, 1), group=2)
    y2 = requantize(acc2, F32(x_s) * F32(0.01), y2_s, 0, np.int8)
    acc5 = conv3d(y1, w5.astype(np.int64), y1_z, 0)
    y5 = requantize(acc5, F32(y1_s) * F32(0.02), y5_s, y5_z, np.uint8)
    y4 = conv3d(f, w4, pads=(0, 1, 0, 1, 0, 1)) + b4.reshape(1, 3, 1, 1, 1)
    m = model(nodes, [tin("x", list(x.shape)), tin("f", list(f.shape))],
              [tin("y1", list(y1.shape)), tin("y2", list(y2.shape)),
               tin("y5", list(y5.shape)), tin("y4", list(y4.shape))], inits)
    return m, {"x": x, "f": f}, {
        "y1": ("codes", y1, y1_s, y1_z), "y2": ("codes", y2, y2_s, 0),
        "y5": ("codes", y5, y5_s, y5_z), "y4": ("float", y4.astype(F32))}


def pool3d(x, kernel, strides=(1, 1, 1), pads=(0,) * 6, dilations=(1, 1, 1),
           ceil_mode=False, count_include_pad=False, kind="max"):
    """ONNX MaxPool / AveragePool over N x C x D x H x W, in float64 on the
    whole 3-D window at once: padding never wins the max; the average
    divides by the taps inside the input (count_include_pad: inside the
    padded input). With ceil_mode the last window may run past the padded
    end, those taps counted nowhere."""
    x = x.astype(np.float64)
    size, out = [], []
    for d in range(3):
        padded = x.shape[2 + d] + pads[d] + pads[d + 3]
        span = (kernel[d] - 1) * dilations[d] + 1
        o = (padded - span) / strides[d]
        o = (math.ceil(o) if ceil_mode else math.floor(o)) + 1
        size.append(padded)
        out.append(o)
    res = np.zeros(x.shape[:2] + tuple(out))
    for idx in np.ndindex(*out):
        taps, inside = [], 0
        for k in np.ndindex(*kernel):
            p = [idx[d] * strides[d] + k[d] * dilations[d] - pads[d] for d in range(3)]
            if any(p[d] + pads[d] >= size[d] for d in range(3)):
                continue  # past the padded end (ceil_mode)
            inside += 1
            if all(0 <= p[d] < x.shape[2 + d] for d in range(3)):
                taps.append(x[:, :, p[0], p[1], p[2]])
        if kind == "max":
            res[(slice(None), slice(None)) + idx] = np.max(taps, axis=0)
        else:
            count = inside if count_include_pad else len(taps)
            res[(slice(None), slice(None)) + idx] = np.sum(taps, axis=0) / count
    return res


def case_pool3d():
    """Pools over N x C x D x H x W (lib/Import/ONNX/NetworkOps.cpp,
    importPool3D: two 2-D pools, (kD, 1) over D then (kH, kW) over H x W):
    MaxPool on codes with dilations, uneven pads and ceil_mode; AveragePool
    on codes and in f32, with and without count_include_pad; GlobalMaxPool
    and GlobalAveragePool. Against the whole 3-D window in numpy."""
    r = rng(67)
    x = r.uniform(-1, 1, (2, 3, 6, 7, 5)).astype(F32)
    f = (r.integers(-16, 16, (1, 2, 5, 4, 6)) / 8.0).astype(F32)
    x_s, x_z = 2.0 / 255, 128
    a_s, a_z, g_s, g_z = 0.006, 120, 0.004, 128
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    max_attrs = dict(kernel_shape=[2, 3, 2], strides=[2, 2, 1], pads=[1, 1, 0, 0, 1, 1],
                     dilations=[1, 2, 1])
    ceil_attrs = dict(kernel_shape=[3, 2, 2], strides=[2, 2, 2], ceil_mode=1)
    avg_attrs = dict(kernel_shape=[3, 2, 3], strides=[1, 2, 2], pads=[1, 0, 1, 1, 1, 0])
    favg_attrs = dict(kernel_shape=[2, 3, 2], strides=[2, 1, 2], pads=[0, 1, 1, 1, 1, 0],
                      count_include_pad=1)
    nodes += [helper.make_node("MaxPool", ["xd"], ["m1"], **max_attrs),
              helper.make_node("MaxPool", ["xd"], ["m2"], **ceil_attrs),
              helper.make_node("AveragePool", ["xd"], ["a1"], **avg_attrs),
              helper.make_node("AveragePool", ["f"], ["y4"], **favg_attrs),
              helper.make_node("GlobalMaxPool", ["xd"], ["g1"]),
              helper.make_node("GlobalAveragePool", ["xd"], ["g2"])]
    qdq_out(nodes, inits, "m1", "y1", x_s, x_z)
    qdq_out(nodes, inits, "m2", "y2", x_s, x_z)
    qdq_out(nodes, inits, "a1", "y3", a_s, a_z)
    qdq_out(nodes, inits, "g1", "y5", x_s, x_z)
    qdq_out(nodes, inits, "g2", "y6", g_s, g_z)
    xq = quantize(x, x_s, x_z, np.uint8)
    xr = dequantize(xq, x_s, x_z).astype(np.float64)
    m1 = pool3d(xr, **{k: v for k, v in max_attrs.items() if k != "kernel_shape"},
                kernel=max_attrs["kernel_shape"])
    m2 = pool3d(xr, kernel=[3, 2, 2], strides=[2, 2, 2], ceil_mode=True)
    a1 = pool3d(xr, kernel=[3, 2, 3], strides=[1, 2, 2], pads=[1, 0, 1, 1, 1, 0],
                kind="avg")
    y4 = pool3d(f, kernel=[2, 3, 2], strides=[2, 1, 2], pads=[0, 1, 1, 1, 1, 0],
                count_include_pad=True, kind="avg")
    y1 = quantize(m1, x_s, x_z, np.uint8)
    y2 = quantize(m2, x_s, x_z, np.uint8)
    y5 = quantize(xr.max(axis=(2, 3, 4), keepdims=True), x_s, x_z, np.uint8)
    # The averages: the exact mean, quantized; the importer's two f32
    # averages may land one step off at a tie, hence the tolerance.
    y3 = dequantize(quantize(a1, a_s, a_z, np.uint8), a_s, a_z)
    y6 = dequantize(quantize(xr.mean(axis=(2, 3, 4), keepdims=True), g_s, g_z,
                             np.uint8), g_s, g_z)
    m = model(nodes, [tin("x", list(x.shape)), tin("f", list(f.shape))],
              [tin("y1", list(y1.shape)), tin("y2", list(y2.shape)),
               tin("y3", list(y3.shape)), tin("y4", list(y4.shape)),
               tin("y5", list(y5.shape)), tin("y6", list(y6.shape))], inits)
    return m, {"x": x, "f": f}, {
        "y1": ("codes", y1, x_s, x_z), "y2": ("codes", y2, x_s, x_z),
        "y3": ("approx", y3, np.full(y3.shape, a_s * 1.001)),
        "y4": ("approx", y4.astype(F32), 1e-6 * (1 + np.abs(y4))),
        "y5": ("codes", y5, x_s, x_z),
        "y6": ("approx", y6, np.full(y6.shape, g_s * 1.001))}


def case_conv3d_integer():
    """The QOperator and integer forms of a 3-D conv (Conv3D.cpp through
    readConvWindow): QLinearConv (per-channel weights, int32 bias, strides
    (1, 2, 1), pads) and ConvInteger (uint8 codes with zero point 100, the
    raw int32 sums)."""
    r = rng(68)
    x = r.integers(0, 256, (1, 3, 5, 4, 6)).astype(np.uint8)
    w = r.integers(-127, 128, (4, 3, 2, 3, 2)).astype(np.int8)
    w_s = np.array([0.01, 0.02, 0.015, 0.03], F32)
    bias = r.integers(-500, 500, (4,)).astype(np.int32)
    x_s, x_z, y_s, y_z = 0.04, 128, 0.25, 10
    pads = [1, 0, 1, 0, 2, 0]
    wc = r.integers(-127, 128, (2, 3, 3, 2, 2)).astype(np.int8)
    nodes = [helper.make_node("QLinearConv", ["x", "x_s", "x_z", "w", "w_s",
                                              "w_z", "y_s", "y_z", "B"], ["yq"],
                              pads=pads, strides=[1, 2, 1]),
             helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
             helper.make_node("ConvInteger", ["x", "wc", "xc_z"], ["yc"],
                              dilations=[2, 1, 1])]
    inits = [init("x_s", F32(x_s)), init("x_z", np.uint8(x_z)), init("w", w),
             init("w_s", w_s), init("w_z", np.zeros(4, np.int8)),
             init("y_s", F32(y_s)), init("y_z", np.uint8(y_z)), init("B", bias),
             init("wc", wc), init("xc_z", np.uint8(100))]
    acc = conv3d(x, w, x_z, 0, strides=(1, 2, 1), pads=pads)
    acc = acc + bias.reshape(1, 4, 1, 1, 1)
    y = requantize(acc, F32(x_s) * w_s, y_s, y_z, np.uint8, axis=1)
    yc = conv3d(x, wc, 100, 0, dilations=(2, 1, 1))
    m = model(nodes, [tin("x", list(x.shape), TensorProto.UINT8)],
              [tin("y", list(y.shape)), tin("yc", list(yc.shape), TensorProto.INT32)],
              inits)
    return m, {"x": x}, {"y": ("codes", y, y_s, y_z), "yc": ("int", yc)}


def conv_transpose3d(x, w, xz=0, strides=(1, 1, 1), pads=(0,) * 6,
                     output_padding=(0, 0, 0), group=1, dilations=(1, 1, 1)):
    """ONNX ConvTranspose over three spatial axes (x N x C x D x H x W, w
    C x M/group x kD x kH x kW; pads [D, H, W begin, D, H, W end]), as its
    definition's scatter: input element i adds x * w[k] to output
    i * s + k * d of the full result, then cropped by pads and extended by
    output_padding. Codes (x - xz, w zero point 0) in int64, floats in
    float64."""
    n, c = x.shape[:2]
    mg = w.shape[1]
    k = w.shape[2:]
    dt = np.int64 if np.issubdtype(x.dtype, np.integer) else np.float64
    xs = x.astype(dt) - xz
    wc = w.astype(dt)
    full = [(x.shape[2 + d] - 1) * strides[d] + (k[d] - 1) * dilations[d] + 1 +
            output_padding[d] for d in range(3)]
    y = np.zeros((n, mg * group, *full), dt)
    cg = c // group
    for g in range(group):
        xg = xs[:, g * cg:(g + 1) * cg]
        for kk in np.ndindex(*k):
            contrib = np.einsum("ncdhw,cm->nmdhw", xg,
                                wc[g * cg:(g + 1) * cg, :, kk[0], kk[1], kk[2]])
            sl = tuple(slice(kk[d] * dilations[d],
                             kk[d] * dilations[d] + (x.shape[2 + d] - 1) * strides[d] + 1,
                             strides[d]) for d in range(3))
            y[(slice(None), slice(g * mg, (g + 1) * mg)) + sl] += contrib
    return y[:, :, pads[0]:full[0] - pads[3], pads[1]:full[1] - pads[4],
             pads[2]:full[2] - pads[5]]


def case_conv_transpose3d():
    """3-D ConvTranspose (ConvTranspose.cpp, importConvTranspose3D): the
    stride-1 3-D conv of the input with its elements `stride` apart (real
    zero between them), the kernel flipped and its channels swapped per
    group. torch's QDQ form (per-channel weights on axis 1, float bias,
    strides (2, 1, 2), dilations (1, 2, 1), pads and output_padding), a
    grouped quantized one (an upsampling kernel = stride, no padding), and
    a float one with bias."""
    r = rng(69)
    x = r.uniform(-1, 1, (2, 4, 3, 4, 3)).astype(F32)
    x_s, x_z = 2.0 / 255, 128
    w1f = r.uniform(-0.5, 0.5, (4, 3, 2, 3, 2)).astype(F32)
    w1_s = (np.abs(w1f).transpose(1, 0, 2, 3, 4).reshape(3, -1).max(1) / 127).astype(F32)
    b1f = r.uniform(-0.2, 0.2, (3,)).astype(F32)
    w2 = r.integers(-127, 128, (4, 1, 2, 2, 2)).astype(np.int8)
    f = (r.integers(-8, 8, (1, 2, 2, 3, 2)) / 4.0).astype(F32)
    w3 = (r.integers(-4, 4, (2, 3, 2, 2, 3)) / 2.0).astype(F32)
    b3 = np.array([0.5, -1.0, 0.25], F32)
    y1_s, y1_z, y2_s = 0.02, 100, 0.05
    pads1, outpad1 = [1, 0, 1, 0, 2, 0], [1, 0, 1]
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("QuantizeLinear", ["w1", "w1_s", "w1_z"], ["w1q"], axis=1),
        helper.make_node("DequantizeLinear", ["w1q", "w1_s", "w1_z"], ["w1d"], axis=1),
        helper.make_node("ConvTranspose", ["xd", "w1d", "b1"], ["c1"], strides=[2, 1, 2],
                         dilations=[1, 2, 1], pads=pads1, output_padding=outpad1),
        helper.make_node("DequantizeLinear", ["w2", "w2_s"], ["w2d"]),
        helper.make_node("ConvTranspose", ["xd", "w2d"], ["c2"], group=4,
                         strides=[2, 2, 2]),
        helper.make_node("ConvTranspose", ["f", "w3", "b3"], ["y3"], pads=[0, 1, 0, 0, 0, 1]),
    ]
    inits += [init("w1", w1f), init("w1_s", w1_s), init("w1_z", np.zeros(3, np.int8)),
              init("b1", b1f), init("w2", w2), init("w2_s", F32(0.01)),
              init("w3", w3), init("b3", b3)]
    qdq_out(nodes, inits, "c1", "y1", y1_s, y1_z)
    qdq_out(nodes, inits, "c2", "y2", y2_s, 0, np.int8)
    xq = quantize(x, x_s, x_z, np.uint8)
    w1q = quantize(w1f, w1_s, np.zeros(3), np.int8, axis=1)
    acc1 = conv_transpose3d(xq, w1q, x_z, strides=(2, 1, 2), pads=pads1,
                            output_padding=outpad1, dilations=(1, 2, 1))
    acc1 = acc1 + bias_codes(b1f, x_s, w1_s).reshape(1, 3, 1, 1, 1)
    y1 = requantize(acc1, F32(x_s) * w1_s, y1_s, y1_z, np.uint8, axis=1)
    acc2 = conv_transpose3d(xq, w2.astype(np.int64), x_z, strides=(2, 2, 2), group=4)
    y2 = requantize(acc2, F32(x_s) * F32(0.01), y2_s, 0, np.int8)
    y3 = conv_transpose3d(f, w3, pads=(0, 1, 0, 0, 0, 1)) + b3.reshape(1, 3, 1, 1, 1)
    m = model(nodes, [tin("x", list(x.shape)), tin("f", list(f.shape))],
              [tin("y1", list(y1.shape)), tin("y2", list(y2.shape)),
               tin("y3", list(y3.shape))], inits)
    return m, {"x": x, "f": f}, {
        "y1": ("codes", y1, y1_s, y1_z), "y2": ("codes", y2, y2_s, 0),
        "y3": ("float", y3.astype(F32))}


def case_float_conv_runtime_bias():
    """Float Conv, ConvTranspose and 3-D ConvTranspose whose bias is a graph
    input (a computed bias: it was refused as "non-constant weights").
    Inputs and weights are multiples of 1/4 and 1/2, so the sums are exact
    in f32 and the integer models give the expected values."""
    r = rng(147)
    xi = r.integers(-8, 8, (1, 2, 4, 5))
    wc = r.integers(-4, 4, (3, 2, 3, 3))
    wt = r.integers(-4, 4, (2, 3, 2, 3))
    x3 = r.integers(-8, 8, (1, 2, 2, 3, 2))
    w3 = r.integers(-4, 4, (2, 3, 2, 2, 2))
    bc = np.array([0.5, -1.25, 2.0], F32)
    bt = np.array([-0.75, 0.25, 1.5], F32)
    b3 = np.array([1.0, -0.5, 0.125], F32)
    x, x3f = (xi / 4.0).astype(F32), (x3 / 4.0).astype(F32)
    nodes = [
        helper.make_node("Conv", ["x", "wc", "bc"], ["yc"], pads=[1, 0, 1, 2]),
        helper.make_node("ConvTranspose", ["x", "wt", "bt"], ["yt"], strides=[2, 1]),
        helper.make_node("ConvTranspose", ["x3", "w3", "b3"], ["y3"]),
    ]
    inits = [init("wc", (wc / 2.0).astype(F32)), init("wt", (wt / 2.0).astype(F32)),
             init("w3", (w3 / 2.0).astype(F32))]
    yc = conv_int(xi, wc, 0, 0, pads=(1, 0, 1, 2)) / 8.0 + bc.reshape(1, 3, 1, 1)
    yt = conv_transpose(xi, wt, strides=(2, 1)) / 8.0 + bt.reshape(1, 3, 1, 1)
    y3 = conv_transpose3d(x3, w3) / 8.0 + b3.reshape(1, 3, 1, 1, 1)
    inputs = {"x": x, "x3": x3f, "bc": bc, "bt": bt, "b3": b3}
    want = {"yc": ("float", yc.astype(F32)), "yt": ("float", yt.astype(F32)),
            "y3": ("float", y3.astype(F32))}
    m = model(nodes, [tin(k, list(v.shape)) for k, v in inputs.items()],
              [tin(k, list(v[1].shape)) for k, v in want.items()], inits)
    return m, inputs, want


def case_bad_conv3d_pads():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
              helper.make_node("Conv", ["xd", "wd"], ["y"], name="conv3d",
                               pads=[1, 1, 1, 1])]
    inits += [init("w", np.ones((2, 3, 2, 2, 2), np.int8)), init("w_s", F32(0.1))]
    return model(nodes, [tin("x", [1, 3, 4, 4, 4])], [tin("y", list("abcde"))], inits), {}, {}


def case_bad_conv3d_kernel_zero():
    """A kernel depth of 0 (it crashed the depth stacking)."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
              helper.make_node("Conv", ["xd", "wd"], ["y"], name="conv3d")]
    inits += [init("w", np.ones((2, 3, 0, 1, 1), np.int8)), init("w_s", F32(0.1))]
    return model(nodes, [tin("x", [1, 3, 4, 4, 4])], [tin("y", list("abcde"))], inits), {}, {}


def case_bad_conv2d_weight_zero():
    """0 output channels: accepted before (an empty result), and a 0-high
    kernel was blamed on the QuantizeLinear after the conv."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
              helper.make_node("Conv", ["xd", "wd"], ["c"], name="conv")]
    inits += [init("w", np.ones((0, 3, 1, 1), np.int8)), init("w_s", F32(0.1))]
    qdq_out(nodes, inits, "c", "y", 0.5, 0, np.int8)
    return model(nodes, [tin("x", [1, 3, 4, 4])], [tin("y", list("abcd"))], inits), {}, {}


def case_conv3d_deep_kernel():
    """A kernel 4096 deep: the depth stacking is one copy, whatever kD."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
              helper.make_node("Conv", ["xd", "wd"], ["c"], name="conv3d")]
    inits += [init("w", np.ones((1, 1, 4096, 1, 1), np.int8)), init("w_s", F32(0.1))]
    qdq_out(nodes, inits, "c", "y", 0.5, 0, np.int8)
    return model(nodes, [tin("x", [1, 1, 4100, 1, 1])], [tin("y", [1, 1, 5, 1, 1])],
                 inits), {}, {}


def case_bad_conv_transpose3d_pads():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
              helper.make_node("ConvTranspose", ["xd", "wd"], ["y"], name="deconv3d",
                               pads=[1, 1, 1, 1])]
    inits += [init("w", np.ones((3, 2, 2, 2, 2), np.int8)), init("w_s", F32(0.1))]
    return model(nodes, [tin("x", [1, 3, 4, 4, 4])], [tin("y", list("abcde"))], inits), {}, {}


def case_bad_pool3d_indices():
    """Column-major Indices (storage_order = 1) of a 3-D MaxPool."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("MaxPool", ["xd"], ["y", "i"], name="pool3d",
                                  kernel_shape=[2, 2, 2], storage_order=1))
    return model(nodes, [tin("x", [1, 3, 4, 4, 4])],
                 [tin("y", list("abcde")), tin("i", list("abcde"), TensorProto.INT64)], inits), {}, {}


def case_bad_pool3d_kernel():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("AveragePool", ["xd"], ["y"], name="pool3d",
                                  kernel_shape=[2, 2]))
    return model(nodes, [tin("x", [1, 3, 4, 4, 4])], [tin("y", list("abcde"))], inits), {}, {}


def case_bad_resize_linear():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Resize", ["xd", "", "scales"], ["y"], name="bilinear",
                                  mode="linear"))
    inits.append(init("scales", np.array([1, 2], F32)))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 8])], inits), {}, {}


def case_bad_resize_huge():
    """2 x 10^9 output elements along one axis: rejected at once, before the
    per-index check could visit them."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Resize", ["xd", "", "", "sizes"], ["y"], name="huge",
                                  mode="nearest"))
    inits.append(init("sizes", np.array([1, 2000000000], np.int64)))
    return model(nodes, [tin("x", [1, 4])], [tin("y", ["n", "m"])], inits), {}, {}


def case_reduce_mean():
    """ReduceMean over H and W (torch's x.mean((2, 3)), TF converters' global
    pooling): with keepdims the integer global average (an exact sum,
    requantized once, as case_maxpool_gap); without, the same mean in f32
    on the dequantized input, then the Q."""
    r = rng(26)
    x = r.uniform(-1, 1, (2, 3, 4, 5)).astype(F32)
    nodes, inits = [], []
    x_s, x_z = 0.01, 120
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [helper.make_node("ReduceMean", ["xd"], ["m1"], axes=[2, 3]),
              helper.make_node("ReduceMean", ["xd"], ["m2"], axes=[-1, -2], keepdims=0)]
    g_s, g_z = 0.003, 10
    qdq_out(nodes, inits, "m1", "y1", g_s, g_z)
    qdq_out(nodes, inits, "m2", "y2", g_s, g_z)
    m = model(nodes, [tin("x", [2, 3, 4, 5])], [tin("y1", [2, 3, 1, 1]), tin("y2", [2, 3])],
              inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    sums = (xq - x_z).sum(axis=(2, 3), keepdims=True)
    y1 = requantize(sums, np.float64(F32(x_s)) / 20, g_s, g_z, np.uint8)
    # f32: the dequantized values summed in index order, divided by 20.
    xd = dequantize(xq, x_s, x_z).reshape(2, 3, 20)
    total = np.zeros((2, 3), F32)
    for i in range(20):
        total = (total + xd[:, :, i]).astype(F32)
    y2 = quantize((total / F32(20)).astype(F32), g_s, g_z, np.uint8)
    return m, {"x": x}, {"y1": ("codes", y1, g_s, g_z), "y2": ("codes", y2, g_s, g_z)}


def pow2_scale(y):
    """A power-of-two int8 scale that holds y: y / s is exact in f32."""
    return float(2.0 ** np.ceil(np.log2(max(np.abs(y).max(), 1e-3) / 127)))


def case_einsum():
    """Einsum of one to three operands: attention's bhqd,bhkd->bhqk, the
    implicit output of ij,jk, a weight transposed (ij,kj->ik, int8 codes
    into the integer matmul), an ellipsis, an outer product, sums over
    labels of one operand only (ijk->ki, ij,jk->i), a batched matrix-vector
    product, an output order that interleaves the operands' labels and a
    chain of three operands (ij,jk,k->i, two at a time from the left), and
    chains of three with ellipses (of one or two dimensions, right-aligned:
    ...ij,jk,...k->...i and ...ij,...jk,k->...i), and ellipses that
    broadcast as numpy's do (a dimension of 1 against 3, of two operands
    and of three, and against a dimension the other operand lacks). The
    float operands are codes on a grid of 1/8 below 4 in magnitude, so
    every product and partial sum is exact in f32 and numpy's float64
    einsum is the exact result; the weight's results are the integer
    accumulators requantized."""
    r = rng(71)
    grid, gz = 1.0 / 8, 128
    shapes = {"q": (2, 3, 4, 5), "k": (2, 3, 6, 5), "a": (4, 5),
              "e1": (2, 4, 5), "e2": (2, 5, 3), "u": (4,), "v": (3,),
              "t": (3, 4, 5), "b2": (5, 3), "m3": (2, 4, 5), "v2": (2, 5),
              "t3": (2, 3, 4), "r": (4, 5), "e3": (2, 3), "m4": (3, 2, 4, 5),
              "f1": (1, 4, 5), "f2": (3, 5, 2), "f3": (2, 1, 4, 5),
              "f5": (3, 1, 5)}
    xs = {n: r.uniform(-4, 4, sh).astype(F32) for n, sh in shapes.items()}
    nodes, inits = [], []
    d = {}
    for n in shapes:
        qdq(nodes, inits, n, grid, gz)
        d[n] = dequantize(quantize(xs[n], grid, gz, np.uint8), grid, gz)
    equations = [("scores", "bhqd,bhkd->bhqk", ["q", "k"]),
                 ("ellipsis", "...ij,...jk->...ik", ["e1", "e2"]),
                 ("outer", "i,j->ij", ["u", "v"]),
                 ("summed", "ijk->ki", ["t"]),
                 ("rowsum", "ij,jk->i", ["a", "b2"]),
                 ("matvec", "bij,bj->bi", ["m3", "v2"]),
                 ("mixed", "abc,cd->dba", ["t3", "r"]),
                 ("chain", "ij,jk,k->i", ["a", "b2", "v"]),
                 ("chain_ellipsis", "...ij,jk,...k->...i", ["e1", "b2", "e3"]),
                 ("chain_ellipsis2", "...ij,...jk,k->...i", ["m4", "e2", "v"]),
                 ("bcast", "...ij,...jk->...ik", ["f1", "f2"]),
                 ("bcast2", "...ij,...jk->...ik", ["f3", "f2"]),
                 ("bcast_chain", "...ij,jk,...k->...i", ["f1", "b2", "e3"]),
                 ("bcast_implicit", "...j,...j", ["f3", "f5"])]
    expected, outs = {}, []
    for name, eq, operands in equations:
        nodes.append(helper.make_node("Einsum", [o + "d" for o in operands],
                                      [name], equation=eq))
        y = np.einsum(eq, *[d[o].astype(np.float64) for o in operands])
        y = y.astype(F32)
        s = pow2_scale(y)
        qdq_out(nodes, inits, name, "y_" + name, s, 0, np.int8)
        expected["y_" + name] = ("codes", quantize(y, s, 0, np.int8), s, 0)
        outs.append(tin("y_" + name, list(y.shape)))
    # Int8 weights: the implicit output of ij,jk, and ij,kj->ik.
    w = r.integers(-127, 128, (5, 3))
    w_s = 0.02
    inits += [init("w", w, np.int8), init("wt", w.T.copy(), np.int8),
              init("w_s", F32(w_s))]
    nodes += [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
              helper.make_node("DequantizeLinear", ["wt", "w_s"], ["wtd"]),
              helper.make_node("Einsum", ["ad", "wd"], ["lin"], equation="ij,jk"),
              helper.make_node("Einsum", ["ad", "wtd"], ["lint"],
                               equation="ij,kj->ik")]
    aq = quantize(xs["a"], grid, gz, np.uint8)
    acc = (aq - gz) @ w
    y_s, y_z = 0.15, 3
    codes = requantize(acc, F32(grid) * F32(w_s), y_s, y_z, np.int8)
    for name in ("lin", "lint"):
        qdq_out(nodes, inits, name, "y_" + name, y_s, y_z, np.int8)
        expected["y_" + name] = ("codes", codes, y_s, y_z)
        outs.append(tin("y_" + name, [4, 3]))
    m = model(nodes, [tin(n, list(sh)) for n, sh in shapes.items()], outs, inits)
    return m, xs, expected


def case_variadic():
    """Sum, Mean, Max and Min of three inputs that broadcast (2x3, 3, 2x1)
    and Sum of one input, on codes of a grid of 1/8: the sums are exact,
    Mean rounds the exact sum / 3 once in f32 (ONNX Runtime divides the sum
    by the count)."""
    r = rng(72)
    shapes = {"a": (2, 3), "b": (3,), "c": (2, 1)}
    xs = {n: r.uniform(-4, 4, sh).astype(F32) for n, sh in shapes.items()}
    nodes, inits, d = [], [], {}
    for n in shapes:
        qdq(nodes, inits, n, 1.0 / 8, 128)
        d[n] = dequantize(quantize(xs[n], 1.0 / 8, 128, np.uint8), 1.0 / 8, 128)
    three = ["ad", "bd", "cd"]
    total = (d["a"] + d["b"] + d["c"]).astype(F32)
    vals = {"sum": total, "mean": (total / F32(3)).astype(F32),
            "max": np.maximum(np.maximum(d["a"], d["b"]), d["c"]),
            "min": np.minimum(np.minimum(d["a"], d["b"]), d["c"]),
            "one": d["a"]}
    nodes += [helper.make_node("Sum", three, ["sum"]),
              helper.make_node("Mean", three, ["mean"]),
              helper.make_node("Max", three, ["max"]),
              helper.make_node("Min", three, ["min"]),
              helper.make_node("Sum", ["ad"], ["one"])]
    expected, outs = {}, []
    for name, y in vals.items():
        s = 1.0 / 64
        qdq_out(nodes, inits, name, "y_" + name, s, 0, np.int8)
        expected["y_" + name] = ("codes", quantize(y, s, 0, np.int8), s, 0)
        outs.append(tin("y_" + name, [2, 3]))
    m = model(nodes, [tin(n, list(sh)) for n, sh in shapes.items()], outs, inits)
    return m, xs, expected


def case_range():
    """Range folded at import. f32: 0, 0.1, ... accumulated in f32 (ONNX's
    function body adds delta to the previous value; ONNX Runtime does the
    same), minus x = f32(k * 0.1), quantized with a scale of 2^-24 so that
    the drift of the accumulation shows in the codes; 30 elements (ceil of
    f32(3.0 - 0) / 0.1). int64: 10, 7, 4 (a negative delta, limit 1
    excluded), cast to float and added to z."""
    x = np.array([np.float64(k) * np.float64(F32(0.1)) for k in range(30)], F32)
    z = np.array([0.5, -1.0, 2.0], F32)
    nodes = [helper.make_node("Range", ["start", "limit", "delta"], ["rf"]),
             helper.make_node("Sub", ["rf", "x"], ["diff"]),
             helper.make_node("Range", ["i0", "i1", "di"], ["ri"]),
             helper.make_node("Cast", ["ri"], ["rif"], to=TensorProto.FLOAT),
             helper.make_node("Add", ["rif", "z"], ["sum"])]
    inits = [init("start", F32(0)), init("limit", F32(3.0)),
             init("delta", F32(0.1)), init("i0", np.int64(10)),
             init("i1", np.int64(1)), init("di", np.int64(-3))]
    s_d, s_s = 2.0 ** -24, 1.0 / 8
    qdq_out(nodes, inits, "diff", "y_diff", s_d, 0, np.int8)
    qdq_out(nodes, inits, "sum", "y_sum", s_s, 0, np.int8)
    m = model(nodes, [tin("x", [30]), tin("z", [3])],
              [tin("y_diff", [30]), tin("y_sum", [3])], inits)
    acc, v = [], F32(0)
    for _ in range(30):
        acc.append(v)
        v = F32(v + F32(0.1))
    diff = (np.array(acc, F32) - x).astype(F32)
    total = (np.array([10, 7, 4], F32) + z).astype(F32)
    return m, {"x": x, "z": z}, {
        "y_diff": ("codes", quantize(diff, s_d, 0, np.int8), s_d, 0),
        "y_sum": ("codes", quantize(total, s_s, 0, np.int8), s_s, 0)}


def case_reduce_norms():
    """ReduceL1, ReduceL2, ReduceSumSquare, ReduceLogSum and ReduceProd
    (opset 13: axes an attribute) on codes of a grid of 1/8 below 2 in
    magnitude: the sums and products are exact in f32, so numpy's are the
    exact values; sqrt and log round once (log of a sum of |x|)."""
    r = rng(73)
    x = r.uniform(-2, 2, (2, 3, 4)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 8, 128)
    xd = dequantize(quantize(x, 1.0 / 8, 128, np.uint8), 1.0 / 8, 128)
    nodes += [helper.make_node("ReduceL1", ["xd"], ["l1"], axes=[1]),
              helper.make_node("ReduceL2", ["xd"], ["l2"], axes=[2], keepdims=0),
              helper.make_node("ReduceSumSquare", ["xd"], ["ss"], axes=[1, 2]),
              helper.make_node("Abs", ["xd"], ["ax"]),
              helper.make_node("ReduceLogSum", ["ax"], ["ls"], axes=[-1]),
              helper.make_node("ReduceProd", ["xd"], ["pr"], axes=[2], keepdims=0)]
    f = F32
    vals = {"l1": np.abs(xd).sum(axis=1, keepdims=True).astype(f),
            "l2": np.sqrt((xd * xd).sum(axis=2).astype(f)),
            "ss": (xd * xd).sum(axis=(1, 2), keepdims=True).astype(f),
            "ls": np.log(np.abs(xd).sum(axis=-1, keepdims=True).astype(f)),
            "pr": np.prod(xd.astype(np.float64), axis=2).astype(f)}
    expected, outs = {}, []
    for name, y in vals.items():
        assert y.dtype == F32, name
        s = pow2_scale(y)
        qdq_out(nodes, inits, name, "y_" + name, s, 0, np.int8)
        expected["y_" + name] = ("codes", quantize(y, s, 0, np.int8), s, 0)
        outs.append(tin("y_" + name, list(y.shape)))
    m = model(nodes, [tin("x", [2, 3, 4])], outs, inits)
    return m, {"x": x}, expected


def case_reduce_log_sum_exp():
    """ReduceLogSumExp in ONNX Runtime's form, m + log(sum(exp(x - m))) with
    m the largest finite element: of a float input whose rows reach 100
    (ONNX's function body log(sum(exp(x))) overflows to inf there; this is
    the finite value), hold an infinity (the result is inf) or are all -inf
    (-inf); of dequantized codes over two axes. exp and log are not
    correctly rounded, so the outputs go through a QuantizeLinear whose
    steps are far coarser than their error, and the model asserts that each
    exact value lies well inside its step."""
    inf = np.inf
    f = np.array([[100.0, 100.5, 99.0, -3.0], [0.25, -1.0, 2.0, 0.5],
                  [-inf, -inf, -inf, -inf], [1.0, inf, 2.0, 3.0]], F32)
    x = rng(79).uniform(-2, 2, (2, 3, 4)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 8, 128)
    xd = dequantize(quantize(x, 1.0 / 8, 128, np.uint8), 1.0 / 8, 128)
    nodes += [helper.make_node("ReduceLogSumExp", ["f"], ["lf"], axes=[1], keepdims=0),
              helper.make_node("ReduceLogSumExp", ["xd"], ["lx"], axes=[1, 2])]

    def logsumexp(v, axis, keepdims):
        v = v.astype(np.float64)
        finite = np.where(np.isfinite(v), v, -inf)
        m = finite.max(axis=axis, keepdims=True)
        m = np.where(np.isfinite(m), m, 0.0)
        with np.errstate(divide="ignore"):
            y = np.log(np.exp(v - m).sum(axis=axis, keepdims=True)) + m
        return y if keepdims else y.squeeze(axis)

    expected = {}
    for name, y, sy, zy in (("lf", logsumexp(f, 1, False), 1.0, -100),
                            ("lx", logsumexp(xd, (1, 2), True), 1.0 / 8, 0)):
        steps = y[np.isfinite(y)] / sy
        frac = np.abs(steps - np.floor(steps) - 0.5)
        assert np.all(frac > 0.01), (name, steps)  # far from a rounding tie
        qdq_out(nodes, inits, name, "y_" + name, sy, zy, np.int8)
        expected["y_" + name] = ("codes", quantize(y, sy, zy, np.int8), sy, zy)
    m = model(nodes, [tin("f", [4, 4]), tin("x", [2, 3, 4])],
              [tin("y_lf", [4]), tin("y_lx", [2, 1, 1])], inits)
    return m, {"f": f, "x": x}, expected


def case_gather_const():
    """Gather of compile-time indices from run-time data: torch's x[:, 0]
    (a class token: a scalar index drops the axis) on codes, requantized by
    the Q after it; indices [[-1, 1], [0, 2]] along the last axis of a float
    input (negative counts from the end), then Q; indices [-1, 0] of int64
    token ids. numpy's take is ONNX's reference."""
    r = rng(74)
    x = r.uniform(-1, 1, (2, 4, 6)).astype(F32)
    f = r.uniform(-2, 2, (3, 5)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 64, 128)
    idx = np.array([[-1, 1], [0, 2]], np.int64)
    ids = r.integers(0, 1000, (2, 4)).astype(np.int64)
    nodes += [helper.make_node("Constant", [], ["zero"], value=init("zero", np.int64(0))),
              helper.make_node("Gather", ["xd", "zero"], ["cls"], axis=1),
              helper.make_node("Gather", ["f", "idx"], ["cols"], axis=-1),
              helper.make_node("Gather", ["ids", "last"], ["first"], axis=1)]
    inits.append(init("last", np.array([-1, 0], np.int64)))
    inits.append(init("idx", idx))
    y_s, y_z = 1.0 / 32, 3
    f_s = 1.0 / 16
    qdq_out(nodes, inits, "cls", "y_cls", y_s, y_z, np.int8)
    qdq_out(nodes, inits, "cols", "y_cols", f_s, 0, np.int8)
    m = model(nodes, [tin("x", [2, 4, 6]), tin("f", [3, 5]),
                      tin("ids", [2, 4], TensorProto.INT64)],
              [tin("y_cls", [2, 6]), tin("y_cols", [3, 2, 2]),
               tin("first", [2, 2], TensorProto.INT64)], inits)
    xd = dequantize(quantize(x, 1.0 / 64, 128, np.uint8), 1.0 / 64, 128)
    cls = np.take(xd, 0, axis=1)
    cols = np.take(f, idx, axis=-1)
    return m, {"x": x, "f": f, "ids": ids}, {
        "y_cls": ("codes", quantize(cls, y_s, y_z, np.int8), y_s, y_z),
        "y_cols": ("codes", quantize(cols, f_s, 0, np.int8), f_s, 0),
        "first": ("int", np.take(ids, [-1, 0], axis=1))}


def case_bad_gather_const_index():
    return bad_op17("Gather", ("xd", "i"), axis=1,
                    extra=[init("i", np.array([4], np.int64))])


def case_trilu():
    """Trilu (opset 14; numpy's triu / tril over the last two dimensions are
    ONNX's reference): a causal mask from constants (folded) times a float
    input; the lower triangle (k = -1) of dequantized codes, whose zeros are
    the zero point; the upper triangle of raw codes (a QuantizeLinear
    output), whose zeros are code 0, i.e. -zp * s once dequantized; and k = 2
    from an input on a float tensor."""
    r = rng(75)
    f = r.uniform(-2, 2, (2, 4, 4)).astype(F32)
    x = r.uniform(-1, 1, (2, 3, 5)).astype(F32)
    g = r.uniform(-2, 2, (3, 5)).astype(F32)
    x_s, x_z = 1.0 / 64, 100
    nodes = [helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
             helper.make_node("Trilu", ["ones", "one"], ["mask"]),
             helper.make_node("Mul", ["f", "mask"], ["masked"]),
             helper.make_node("Trilu", ["xd", "minus_one"], ["lower"], upper=0),
             helper.make_node("Trilu", ["xq"], ["upper_codes"]),
             helper.make_node("DequantizeLinear", ["upper_codes", "x_s", "x_z"],
                              ["upper"]),
             helper.make_node("Trilu", ["g", "two"], ["g2"])]
    inits = [init("x_s", F32(x_s)), init("x_z", np.uint8(x_z)),
             init("ones", np.ones((4, 4), F32)), init("one", np.int64(1)),
             init("minus_one", np.int64(-1)), init("two", np.int64(2))]
    s1, s2 = 1.0 / 32, 1.0 / 64
    qdq_out(nodes, inits, "masked", "y_masked", s1, 0, np.int8)
    qdq_out(nodes, inits, "lower", "y_lower", s2, 5, np.int8)
    qdq_out(nodes, inits, "upper", "y_upper", s2, 5, np.int8)
    qdq_out(nodes, inits, "g2", "y_g2", s1, 0, np.int8)
    m = model(nodes, [tin("f", [2, 4, 4]), tin("x", [2, 3, 5]), tin("g", [3, 5])],
              [tin("y_masked", [2, 4, 4]), tin("y_lower", [2, 3, 5]),
               tin("y_upper", [2, 3, 5]), tin("y_g2", [3, 5])], inits, opset=14)
    xq = quantize(x, x_s, x_z, np.uint8)
    xd = dequantize(xq, x_s, x_z)
    masked = (f * np.triu(np.ones((4, 4), F32), 1)).astype(F32)
    upper = dequantize(np.triu(xq), x_s, x_z)
    return m, {"f": f, "x": x, "g": g}, {
        "y_masked": ("codes", quantize(masked, s1, 0, np.int8), s1, 0),
        "y_lower": ("codes", quantize(np.tril(xd, -1), s2, 5, np.int8), s2, 5),
        "y_upper": ("codes", quantize(upper, s2, 5, np.int8), s2, 5),
        "y_g2": ("codes", quantize(np.triu(g, 2), s1, 0, np.int8), s1, 0)}


def case_bad_trilu_rank():
    return bad_op17("Trilu", ("xd",), x_shape=(4,))


def dot_seq(a, w):
    """a [M, K] times w [N, K]^T in f32, each sum from 0 over k in order."""
    acc = np.zeros((a.shape[0], w.shape[0]), F32)
    for k in range(a.shape[1]):
        acc = (acc + (a[:, k:k + 1] * w[None, :, k]).astype(F32)).astype(F32)
    return acc


def sigmoid_f32(x):
    return (F32(1) / (F32(1) + np.exp(-x))).astype(F32)


def rnn_activation(name, alpha=None, beta=None):
    """An activation of ONNX's recurrent ops in f32, as the ONNX op of that
    name computes it (Affine: alpha x + beta; ScaledTanh: alpha tanh(beta x))."""
    a = F32(alpha) if alpha is not None else None
    b = F32(beta) if beta is not None else None
    z, one = F32(0), F32(1)
    fns = {
        "Sigmoid": sigmoid_f32,
        "Tanh": np.tanh,
        "Relu": lambda x: np.maximum(x, z),
        "Affine": lambda x: a * x + b,
        "LeakyRelu": lambda x: np.where(x < z, a * x, x),
        "ThresholdedRelu": lambda x: np.where(x > a, x, z),
        "ScaledTanh": lambda x: a * np.tanh(b * x),
        "HardSigmoid": lambda x: np.maximum(z, np.minimum(one, a * x + b)),
        "Elu": lambda x: np.where(x < z, a * (np.exp(x) - one), x),
        "Softsign": lambda x: x / (one + np.abs(x)),
        # ln(exp(x) + 1) without exp's overflow beyond 88, as the importer
        # evaluates Softplus (docs/ONNXImport.md).
        "Softplus": lambda x: np.where(x > z, x + np.log1p(np.exp(-np.abs(x))),
                                       np.log1p(np.exp(np.minimum(x, z)))),
    }
    fn = fns[name]
    return lambda x: np.asarray(fn(x)).astype(F32)


def lstm_f32(x, w, r, b, reverse=False, h=None, c=None, acts=None, p=None):
    """One direction of ONNX's LSTM (gates i, o, f, c; peepholes p = p_i,
    p_o, p_f) in f32, the steps of ONNX's reference
    (backend/test/case/node/lstm.py) left to right."""
    hidden = r.shape[1]
    f_, g_, h_ = acts or (sigmoid_f32, np.tanh, np.tanh)
    h = np.zeros((x.shape[1], hidden), F32) if h is None else h
    c = np.zeros((x.shape[1], hidden), F32) if c is None else c
    bias = (b[:4 * hidden] + b[4 * hidden:]).astype(F32)
    ys = [None] * x.shape[0]
    for t in (reversed(range(x.shape[0])) if reverse else range(x.shape[0])):
        g = ((dot_seq(x[t], w) + dot_seq(h, r)).astype(F32) + bias).astype(F32)
        i, o, f, cc = np.split(g, 4, axis=1)
        if p is not None:
            pi, po, pf = np.split(p, 3)
            i = (i + (pi * c).astype(F32)).astype(F32)
            f = (f + (pf * c).astype(F32)).astype(F32)
        c = (f_(f) * c + f_(i) * g_(cc)).astype(F32)
        if p is not None:
            o = (o + (po * c).astype(F32)).astype(F32)
        h = (f_(o) * h_(c)).astype(F32)
        ys[t] = h
    return np.stack(ys), h, c


def rnn_f32(x, w, r, b, act, reverse=False, h=None):
    """One direction of ONNX's RNN in f32: H = f((x W^T + h R^T) + (Wb + Rb))
    (backend/test/case/node/rnn.py)."""
    hidden = r.shape[1]
    h = np.zeros((x.shape[1], hidden), F32) if h is None else h
    bias = (b[:hidden] + b[hidden:]).astype(F32)
    ys = [None] * x.shape[0]
    for t in (reversed(range(x.shape[0])) if reverse else range(x.shape[0])):
        h = act(((dot_seq(x[t], w) + dot_seq(h, r)).astype(F32) + bias).astype(F32))
        ys[t] = h
    return np.stack(ys), h


def gru_f32(x, w, r, b, lbr, reverse=False, h=None, acts=None):
    """One direction of ONNX's GRU (gates z, r, h) in f32, ONNX's reference
    (backend/test/case/node/gru.py) left to right."""
    f_, g_ = acts or (sigmoid_f32, np.tanh)
    hidden = r.shape[1]
    h = np.zeros((x.shape[1], hidden), F32) if h is None else h
    wb, rb = b[:3 * hidden], b[3 * hidden:]
    bzr = (wb[:2 * hidden] + rb[:2 * hidden]).astype(F32)
    ys = [None] * x.shape[0]
    for t in (reversed(range(x.shape[0])) if reverse else range(x.shape[0])):
        zr = f_(((dot_seq(x[t], w[:2 * hidden]) +
                           dot_seq(h, r[:2 * hidden])).astype(F32) + bzr).astype(F32))
        z, rr = zr[:, :hidden], zr[:, hidden:]
        xh = dot_seq(x[t], w[2 * hidden:])
        if lbr:
            inner = (dot_seq(h, r[2 * hidden:]) + rb[2 * hidden:]).astype(F32)
            n = g_(((xh + (rr * inner).astype(F32)).astype(F32) +
                         wb[2 * hidden:]).astype(F32))
        else:
            rh = dot_seq((rr * h).astype(F32), r[2 * hidden:])
            n = g_((((xh + rh).astype(F32) + wb[2 * hidden:]).astype(F32) +
                         rb[2 * hidden:]).astype(F32))
        h = (((F32(1) - z) * n).astype(F32) + (z * h).astype(F32)).astype(F32)
        ys[t] = h
    return np.stack(ys), h


def case_recurrent():
    """LSTM and GRU (torch's nn.LSTM / nn.GRU) in f32 on dequantized codes:
    a bidirectional LSTM with biases and its explicit default activations
    (Y, Y_h, Y_c); a forward GRU with linear_before_reset = 1 (torch's),
    int8 weights through DequantizeLinear and an initial state from an
    input; a reverse GRU with linear_before_reset = 0, no bias, Y_h only.
    numpy models in f32 from ONNX's reference, each dot product summed in
    index order."""
    r = rng(76)
    seq, batch, inp, hid = 5, 2, 3, 4
    x = r.uniform(-1, 1, (seq, batch, inp)).astype(F32)
    h0 = r.uniform(-0.5, 0.5, (1, batch, hid)).astype(F32)
    lw = r.uniform(-0.5, 0.5, (2, 4 * hid, inp)).astype(F32)
    lr = r.uniform(-0.5, 0.5, (2, 4 * hid, hid)).astype(F32)
    lb = r.uniform(-0.2, 0.2, (2, 8 * hid)).astype(F32)
    gwq = r.integers(-100, 101, (1, 3 * hid, inp))
    gw_s = 0.005
    gr = r.uniform(-0.5, 0.5, (1, 3 * hid, hid)).astype(F32)
    gb = r.uniform(-0.2, 0.2, (1, 6 * hid)).astype(F32)
    g2w = r.uniform(-0.5, 0.5, (1, 3 * hid, inp)).astype(F32)
    g2r = r.uniform(-0.5, 0.5, (1, 3 * hid, hid)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 64, 128)
    nodes += [
        helper.make_node("LSTM", ["xd", "lw", "lr", "lb"], ["ly", "lh", "lc"],
                         hidden_size=hid, direction="bidirectional",
                         activations=["Sigmoid", "Tanh", "Tanh"] * 2),
        helper.make_node("DequantizeLinear", ["gwq", "gw_s"], ["gw"]),
        helper.make_node("GRU", ["xd", "gw", "gr", "gb", "", "h0"], ["gy", "gh"],
                         hidden_size=hid, linear_before_reset=1),
        helper.make_node("GRU", ["xd", "g2w", "g2r"], ["", "g2h"],
                         hidden_size=hid, direction="reverse")]
    inits += [init("lw", lw), init("lr", lr), init("lb", lb),
              init("gwq", gwq, np.int8), init("gw_s", F32(gw_s)),
              init("gr", gr), init("gb", gb), init("g2w", g2w), init("g2r", g2r)]
    xd = dequantize(quantize(x, 1.0 / 64, 128, np.uint8), 1.0 / 64, 128)
    fy, fh, fc = lstm_f32(xd, lw[0], lr[0], lb[0])
    by, bh, bc = lstm_f32(xd, lw[1], lr[1], lb[1], reverse=True)
    gw = dequantize(gwq, gw_s, 0)
    gy, gh = gru_f32(xd, gw[0], gr[0], gb[0], lbr=1, h=h0[0])
    _, g2h = gru_f32(xd, g2w[0], g2r[0], np.zeros(6 * hid, F32), lbr=0,
                     reverse=True)
    vals = {"ly": np.stack([fy, by], axis=1), "lh": np.stack([fh, bh]),
            "lc": np.stack([fc, bc]), "gy": gy[:, None], "gh": gh[None],
            "g2h": g2h[None]}
    expected, outs = {}, []
    for name, y in vals.items():
        sc = 1.0 / 64 if name == "lc" else 1.0 / 128
        qdq_out(nodes, inits, name, "y_" + name, sc, 0, np.int8)
        expected["y_" + name] = ("codes", quantize(y, sc, 0, np.int8), sc, 0)
        outs.append(tin("y_" + name, list(y.shape)))
    m = model(nodes, [tin("x", [seq, batch, inp]), tin("h0", [1, batch, hid])],
              outs, inits)
    return m, {"x": x, "h0": h0}, expected


def case_recurrent_activations():
    """The rest of ONNX's recurrent ops: a bidirectional RNN (torch's
    nn.RNN; Relu forward, Tanh in reverse) with biases; a forward RNN with
    Affine (alpha, beta from the attributes); an LSTM with peepholes and
    HardSigmoid / LeakyRelu / Softsign (alpha and beta consumed in order by
    the activations that take them); a reverse GRU with ThresholdedRelu
    and ScaledTanh; an RNN with Elu (its default alpha) and one
    with Softplus. numpy models in f32 from ONNX's reference."""
    r = rng(84)
    seq, batch, inp, hid = 4, 2, 3, 3
    x = r.uniform(-1, 1, (seq, batch, inp)).astype(F32)
    u = lambda *shape: r.uniform(-0.6, 0.6, shape).astype(F32)
    rw, rr, rb = u(2, hid, inp), u(2, hid, hid), u(2, 2 * hid)
    aw, ar = u(1, hid, inp), u(1, hid, hid)
    lw, lr, lb, lp = u(1, 4 * hid, inp), u(1, 4 * hid, hid), u(1, 8 * hid), u(1, 3 * hid)
    gw, gr, gb = u(1, 3 * hid, inp), u(1, 3 * hid, hid), u(1, 6 * hid)
    ew, er, sw, sr = u(1, hid, inp), u(1, hid, hid), u(1, hid, inp), u(1, hid, hid)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 64, 128)
    nodes += [
        helper.make_node("RNN", ["xd", "rw", "rr", "rb"], ["ry", "rh"],
                         hidden_size=hid, direction="bidirectional",
                         activations=["Relu", "Tanh"]),
        helper.make_node("RNN", ["xd", "aw", "ar"], ["", "ah"], hidden_size=hid,
                         activations=["Affine"], activation_alpha=[0.5],
                         activation_beta=[0.125]),
        helper.make_node("LSTM", ["xd", "lw", "lr", "lb", "", "", "", "lp"],
                         ["ly", "lh", "lc"], hidden_size=hid,
                         activations=["HardSigmoid", "LeakyRelu", "Softsign"],
                         activation_alpha=[0.25, 0.1], activation_beta=[0.4]),
        helper.make_node("GRU", ["xd", "gw", "gr", "gb"], ["gy", "gh"],
                         hidden_size=hid, direction="reverse",
                         activations=["ThresholdedRelu", "ScaledTanh"],
                         activation_alpha=[0.25, 1.5], activation_beta=[0.5]),
        helper.make_node("RNN", ["xd", "ew", "er"], ["ey", ""], hidden_size=hid,
                         activations=["Elu"]),
        helper.make_node("RNN", ["xd", "sw", "sr"], ["sy", ""], hidden_size=hid,
                         activations=["Softplus"])]
    for name, v in (("rw", rw), ("rr", rr), ("rb", rb), ("aw", aw), ("ar", ar),
                    ("lw", lw), ("lr", lr), ("lb", lb), ("lp", lp), ("gw", gw),
                    ("gr", gr), ("gb", gb), ("ew", ew), ("er", er), ("sw", sw),
                    ("sr", sr)):
        inits.append(init(name, v))
    xd = dequantize(quantize(x, 1.0 / 64, 128, np.uint8), 1.0 / 64, 128)
    act = rnn_activation
    zero = lambda n: np.zeros(n, F32)
    fy, fh = rnn_f32(xd, rw[0], rr[0], rb[0], act("Relu"))
    by, bh = rnn_f32(xd, rw[1], rr[1], rb[1], act("Tanh"), reverse=True)
    _, ah = rnn_f32(xd, aw[0], ar[0], zero(2 * hid), act("Affine", 0.5, 0.125))
    ly, lh, lc = lstm_f32(xd, lw[0], lr[0], lb[0], p=lp[0],
                          acts=(act("HardSigmoid", 0.25, 0.4), act("LeakyRelu", 0.1),
                                act("Softsign")))
    gy, gh = gru_f32(xd, gw[0], gr[0], gb[0], lbr=0, reverse=True,
                     acts=(act("ThresholdedRelu", 0.25), act("ScaledTanh", 1.5, 0.5)))
    ey, _ = rnn_f32(xd, ew[0], er[0], zero(2 * hid), act("Elu", 1.0))
    sy, _ = rnn_f32(xd, sw[0], sr[0], zero(2 * hid), act("Softplus"))
    vals = {"ry": np.stack([fy, by], axis=1), "rh": np.stack([fh, bh]),
            "ah": ah[None], "ly": ly[:, None], "lh": lh[None], "lc": lc[None],
            "gy": gy[:, None], "gh": gh[None], "ey": ey[:, None], "sy": sy[:, None]}
    expected, outs = {}, []
    for name, y in vals.items():
        sc = 1.0 / 64
        qdq_out(nodes, inits, name, "y_" + name, sc, 0, np.int8)
        expected["y_" + name] = ("codes", quantize(y, sc, 0, np.int8), sc, 0)
        outs.append(tin("y_" + name, list(y.shape)))
    m = model(nodes, [tin("x", [seq, batch, inp])], outs, inits)
    return m, {"x": x}, expected


def case_bad_lstm_activations():
    return bad_op17("LSTM", ("xd", "w", "r"), x_shape=(2, 1, 4), hidden_size=1,
                    activations=["Sigmoid", "ThresholdedRelu", "Tanh"],
                    extra=[init("w", np.zeros((1, 4, 4), F32)),
                           init("r", np.zeros((1, 4, 1), F32))])


def case_bad_gru_sequence_lens():
    return bad_op17("GRU", ("xd", "w", "r", "", "lens"), x_shape=(2, 1, 4),
                    hidden_size=1,
                    extra=[init("w", np.zeros((1, 3, 4), F32)),
                           init("r", np.zeros((1, 3, 1), F32)),
                           init("lens", np.array([1], np.int32))])


def case_runtime_masks():
    """Masks computed at run time, as Hugging Face exports an attention
    mask: Unsqueeze of an int64 input, Cast to float, 1 - m, Cast to bool,
    Where (masked_fill) with a constant; a float comparison with a
    constant, Not and And of masks, Where with a constant 0; an int64
    Equal and Less, Xor, Cast back to int64 (a graph output). numpy's
    comparisons and logical ops are ONNX's reference."""
    r = rng(77)
    scores = r.uniform(-1, 1, (2, 1, 3, 5)).astype(F32)
    mask = r.integers(0, 3, (2, 5)).astype(np.int64)
    nodes = [helper.make_node("Unsqueeze", ["mask", "axes"], ["m4"]),
             helper.make_node("Cast", ["m4"], ["mf"], to=TensorProto.FLOAT),
             helper.make_node("Sub", ["one_f", "mf"], ["inv"]),
             helper.make_node("Cast", ["inv"], ["cond"], to=TensorProto.BOOL),
             helper.make_node("Where", ["cond", "fill", "scores"], ["y1"]),
             helper.make_node("Greater", ["scores", "quarter"], ["gt"]),
             helper.make_node("Not", ["cond"], ["keep"]),
             helper.make_node("And", ["gt", "keep"], ["both"]),
             helper.make_node("Where", ["both", "scores", "zero_f"], ["y2"]),
             helper.make_node("Equal", ["mask", "one_i"], ["eq"]),
             helper.make_node("Less", ["mask", "one_i"], ["lt"]),
             helper.make_node("Xor", ["eq", "lt"], ["x"]),
             helper.make_node("Cast", ["x"], ["y3"], to=TensorProto.INT64)]
    inits = [init("axes", np.array([1, 2], np.int64)), init("one_f", F32(1)),
             init("fill", F32(-8)), init("quarter", F32(0.25)),
             init("zero_f", F32(0)), init("one_i", np.int64(1))]
    s1 = 1.0 / 16
    qdq_out(nodes, inits, "y1", "q1", s1, 0, np.int8)
    qdq_out(nodes, inits, "y2", "q2", s1, 0, np.int8)
    m = model(nodes, [tin("scores", [2, 1, 3, 5]), tin("mask", [2, 5], TensorProto.INT64)],
              [tin("q1", [2, 1, 3, 5]), tin("q2", [2, 1, 3, 5]),
               tin("y3", [2, 5], TensorProto.INT64)], inits)
    m4 = mask[:, None, None, :]
    inv = (F32(1) - m4.astype(F32)).astype(F32)
    cond = inv != 0
    y1 = np.where(cond, F32(-8), scores).astype(F32)
    both = (scores > F32(0.25)) & ~cond
    y2 = np.where(both, scores, F32(0)).astype(F32)
    y3 = ((mask == 1) ^ (mask < 1)).astype(np.int64)
    return m, {"scores": scores, "mask": mask}, {
        "q1": ("codes", quantize(y1, s1, 0, np.int8), s1, 0),
        "q2": ("codes", quantize(y2, s1, 0, np.int8), s1, 0),
        "y3": ("int", y3)}


def case_cumsum():
    """RoBERTa's position ids from run-time token ids (padding id 1):
    mask = Not(ids == 1) cast to int32, CumSum along the sequence, times
    the mask, cast to int64, plus 1 (integer Add / Mul of run-time
    tensors); and CumSum of a float input, inclusive along axis 1 and
    exclusive in reverse along axis 0, then Q. numpy's cumsum adds in
    order, as ONNX Runtime's loop does."""
    r = rng(78)
    ids = r.integers(0, 5, (2, 6)).astype(np.int64)
    ids[:, -2:] = 1
    f = r.uniform(-1, 1, (3, 5)).astype(F32)
    nodes = [helper.make_node("Equal", ["ids", "pad"], ["is_pad"]),
             helper.make_node("Not", ["is_pad"], ["keep"]),
             helper.make_node("Cast", ["keep"], ["mi"], to=TensorProto.INT32),
             helper.make_node("CumSum", ["mi", "one"], ["cs"]),
             helper.make_node("Mul", ["cs", "mi"], ["inc"]),
             helper.make_node("Cast", ["inc"], ["inc64"], to=TensorProto.INT64),
             helper.make_node("Add", ["inc64", "pad"], ["pos"]),
             helper.make_node("CumSum", ["f", "one"], ["c1"]),
             helper.make_node("CumSum", ["f", "zero"], ["c2"], exclusive=1,
                              reverse=1)]
    inits = [init("pad", np.int64(1)), init("one", np.int64(1)),
             init("zero", np.int64(0))]
    s1 = 1.0 / 32
    qdq_out(nodes, inits, "c1", "y1", s1, 0, np.int8)
    qdq_out(nodes, inits, "c2", "y2", s1, 0, np.int8)
    m = model(nodes, [tin("ids", [2, 6], TensorProto.INT64), tin("f", [3, 5])],
              [tin("pos", [2, 6], TensorProto.INT64), tin("y1", [3, 5]),
               tin("y2", [3, 5])], inits)
    mi = (ids != 1).astype(np.int32)
    pos = (np.cumsum(mi, axis=1, dtype=np.int32) * mi).astype(np.int64) + 1
    c1 = np.cumsum(f, axis=1, dtype=F32)
    flipped = np.flip(f, axis=0)
    c2 = np.flip(np.concatenate([np.zeros((1, 5), F32),
                                 np.cumsum(flipped, axis=0, dtype=F32)[:-1]]),
                 axis=0)
    return m, {"ids": ids, "f": f}, {
        "pos": ("int", pos),
        "y1": ("codes", quantize(c1, s1, 0, np.int8), s1, 0),
        "y2": ("codes", quantize(c2, s1, 0, np.int8), s1, 0)}


def topk_reference(x, k, axis, largest):
    """ONNX's reference TopK: a stable sort of -X (largest) or X by value,
    the lower index first among equal values; numpy sorts NaN last."""
    x = np.moveaxis(x, axis, -1)
    index = np.indices(x.shape)[-1]
    order = np.lexsort((index, -x if largest else x), axis=-1)[..., :k]
    values = np.take_along_axis(x, order, -1)
    return np.moveaxis(values, -1, axis), np.moveaxis(order, -1, axis).astype(np.int64)


def case_topk():
    """TopK of an f32 tensor with ties (+0.0 and -0.0 are equal, the lower
    index first) and NaNs (after every number, largest and smallest alike):
    the 4 largest along axis 1, the 3 smallest along the last axis, all 3
    along axis 0 (a NaN taken last; only its indices are read); of int8
    codes through DequantizeLinear (the values stay codes); of int64
    integers with negative values."""
    nan = F32(np.nan)
    x = np.array([[0.5, -0.0, 2.0, 0.0, -1.5, 2.0, 1.0, -3.0],
                  [1.0, nan, 3.0, -2.0, nan, 3.0, 0.25, -0.5],
                  [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]], F32)
    q = np.array([[5, -7, 5, 127, -128, 0], [3, 3, -1, 2, 3, 4]], np.int8)
    ids = np.array([[4, -9, 4, 0, 7], [-2, -2, -3, -1, -2]], np.int64)
    nodes = [helper.make_node("TopK", ["x", "k4"], ["v1", "i1"], axis=1),
             helper.make_node("TopK", ["x", "k3"], ["v2", "i2"], axis=-1,
                              largest=0),
             helper.make_node("TopK", ["x", "k3"], ["v3", "i3"], axis=0),
             helper.make_node("DequantizeLinear", ["q", "qs", "qz"], ["qd"]),
             helper.make_node("TopK", ["qd", "k2"], ["v4", "i4"], axis=1),
             helper.make_node("TopK", ["ids", "k2"], ["v5", "i5"], sorted=0)]
    inits = [init("k4", np.array([4], np.int64)), init("k3", np.array([3], np.int64)),
             init("k2", np.array([2], np.int64)), init("qs", F32(0.5)),
             init("qz", np.int8(3))]
    m = model(nodes, [tin("x", [3, 8]), tin("q", [2, 6], TensorProto.INT8),
                      tin("ids", [2, 5], TensorProto.INT64)],
              [tin("v1", [3, 4]), tin("i1", [3, 4], TensorProto.INT64),
               tin("v2", [3, 3]), tin("i2", [3, 3], TensorProto.INT64),
               tin("i3", [3, 8], TensorProto.INT64),
               tin("v4", [2, 2]), tin("i4", [2, 2], TensorProto.INT64),
               tin("v5", [2, 2], TensorProto.INT64),
               tin("i5", [2, 2], TensorProto.INT64)], inits)
    v1, i1 = topk_reference(x, 4, 1, True)
    v2, i2 = topk_reference(x, 3, 1, False)
    _, i3 = topk_reference(x, 3, 0, True)
    v4, i4 = topk_reference(dequantize(q.astype(np.int64), 0.5, 3), 2, 1, True)
    v5, i5 = topk_reference(ids, 2, 1, True)
    return m, {"x": x, "q": q, "ids": ids}, {
        "v1": ("float", v1), "i1": ("int", i1), "v2": ("float", v2),
        "i2": ("int", i2), "i3": ("int", i3), "v4": ("float", v4),
        "i4": ("int", i4), "v5": ("int", v5), "i5": ("int", i5)}


def case_bad_topk_k():
    return bad_op17("TopK", ("xd", "k"), outputs=("y", "yi"),
                    extra=[init("k", np.array([5], np.int64))])


def case_gather_elements_one_hot():
    """GatherElements (torch.gather) of f32 data along axis 0 with run-time
    int64 indices (negative ones count from the end), of int8 codes through
    DequantizeLinear along axis 1 with compile-time indices (the result is
    codes on the same grid), of int64 data with run-time int32 indices;
    OneHot of run-time int64 indices with depth 4 along the last axis (f32
    values) and along axis 0 (int32 values): an index in [-depth, depth)
    sets its position (negative from the end), any other sets none, as the
    operator's definition says."""
    r = rng(83)
    x = r.uniform(-4, 4, (3, 4)).astype(F32)
    x = (np.round(x * 8) / 8).astype(F32)
    xi = np.array([[0, -1, 2, 1], [-3, 2, 0, -2]], np.int64)
    q = r.integers(-128, 128, (2, 5)).astype(np.int8)
    qi = np.array([[4, 0, -1], [1, 1, 3]], np.int64)
    ids = np.array([[10, 20, 30], [-5, -6, -7]], np.int64)
    ii = np.array([[2, 0], [1, -1]], np.int32)
    hot = np.array([[0, 3, -1], [5, -4, -5]], np.int64)
    nodes = [helper.make_node("GatherElements", ["x", "xi"], ["gx"]),
             helper.make_node("DequantizeLinear", ["q", "qs", "qz"], ["qd"]),
             helper.make_node("GatherElements", ["qd", "qi"], ["gq"], axis=1),
             helper.make_node("GatherElements", ["ids", "ii"], ["gi"], axis=-1),
             helper.make_node("OneHot", ["hot", "depth", "fvals"], ["h1"]),
             helper.make_node("OneHot", ["hot", "depth", "ivals"], ["h2"], axis=0)]
    inits = [init("qi", qi), init("qs", F32(0.25)), init("qz", np.int8(-3)),
             init("depth", np.array([4], np.int64)),
             init("fvals", np.array([0.0, 1.0], F32)),
             init("ivals", np.array([-1, 7], np.int32))]
    m = model(nodes, [tin("x", [3, 4]), tin("xi", [2, 4], TensorProto.INT64),
                      tin("q", [2, 5], TensorProto.INT8),
                      tin("ids", [2, 3], TensorProto.INT64),
                      tin("ii", [2, 2], TensorProto.INT32),
                      tin("hot", [2, 3], TensorProto.INT64)],
              [tin("gx", [2, 4]), tin("gq", [2, 3]),
               tin("gi", [2, 2], TensorProto.INT64), tin("h1", [2, 3, 4]),
               tin("h2", [4, 2, 3], TensorProto.INT32)], inits)

    def take(data, idx, axis):
        idx = np.where(idx < 0, idx + data.shape[axis], idx)
        sl = tuple(slice(0, n) for n in idx.shape)
        view = [slice(None)] * data.ndim
        for d in range(data.ndim):
            if d != axis:
                view[d] = sl[d]
        return np.take_along_axis(data[tuple(view)], idx.astype(np.int64), axis)

    def one_hot(idx, depth, axis, off, on):
        idx = np.where(idx < 0, idx + depth, idx)
        pos = np.arange(depth).reshape([-1 if d == axis else 1
                                        for d in range(idx.ndim + 1)])
        return np.where(np.expand_dims(idx, axis) == pos, on, off)

    qd = dequantize(q.astype(np.int64), 0.25, -3)
    return m, {"x": x, "xi": xi, "q": q, "ids": ids, "ii": ii, "hot": hot}, {
        "gx": ("float", take(x, xi, 0)), "gq": ("float", take(qd, qi, 1)),
        "gi": ("int", take(ids, ii, 1)),
        "h1": ("float", one_hot(hot, 4, 2, F32(0), F32(1)).astype(F32)),
        "h2": ("int", one_hot(hot, 4, 0, -1, 7))}


def case_gather_scatter_nd():
    """GatherND (batch_dims 0) of f32 with run-time int64 index pairs
    (negative from the end) and of int8 codes through DequantizeLinear with
    compile-time index triples (codes stay codes); ScatterND with
    compile-time indices: whole rows of a run-time f32 tensor (index 2
    twice: the later update wins, as ONNX's reference and ONNX Runtime apply
    them in order), rows of codes on one grid, and YOLO-style single
    elements (y[..., 0:2] = ...). numpy loops of ONNX's reference."""
    r = rng(85)
    grid = lambda *shape: (np.round(r.uniform(-4, 4, shape) * 8) / 8).astype(F32)
    f = grid(2, 3, 4)
    fi = np.array([[0, -1], [1, 0]], np.int64)
    q = r.integers(-128, 128, (2, 3, 4)).astype(np.int8)
    qi = np.array([[1, 2, 3], [0, 0, -1], [-2, 1, 0]], np.int64)
    d = grid(4, 3)
    u = grid(3, 3)
    di = np.array([[2], [0], [2]], np.int64)
    dq = r.integers(-128, 128, (4, 3)).astype(np.int8)
    uq = r.integers(-128, 128, (2, 3)).astype(np.int8)
    dqi = np.array([[3], [1]], np.int64)
    y = grid(1, 3, 4)
    yu = grid(1, 3, 2)
    yi = np.array([[[[0, a, b] for b in range(2)] for a in range(3)]], np.int64)
    nodes = [helper.make_node("GatherND", ["f", "fi"], ["g1"]),
             helper.make_node("DequantizeLinear", ["q", "s", "z"], ["qd"]),
             helper.make_node("GatherND", ["qd", "qi"], ["g2"]),
             helper.make_node("ScatterND", ["d", "di", "u"], ["s1"]),
             helper.make_node("DequantizeLinear", ["dq", "s", "z"], ["dqd"]),
             helper.make_node("DequantizeLinear", ["uq", "s", "z"], ["uqd"]),
             helper.make_node("ScatterND", ["dqd", "dqi", "uqd"], ["s2"]),
             helper.make_node("ScatterND", ["y", "yi", "yu"], ["s3"])]
    inits = [init("qi", qi), init("s", F32(0.5)), init("z", np.int8(1)),
             init("di", di), init("dqi", dqi), init("yi", yi)]
    m = model(nodes, [tin("f", [2, 3, 4]), tin("fi", [2, 2], TensorProto.INT64),
                      tin("q", [2, 3, 4], TensorProto.INT8), tin("d", [4, 3]),
                      tin("u", [3, 3]), tin("dq", [4, 3], TensorProto.INT8),
                      tin("uq", [2, 3], TensorProto.INT8), tin("y", [1, 3, 4]),
                      tin("yu", [1, 3, 2])],
              [tin("g1", [2, 4]), tin("g2", [3]), tin("s1", [4, 3]),
               tin("s2", [4, 3]), tin("s3", [1, 3, 4])], inits)

    def gather_nd(data, idx):
        out = [data[tuple(idx[p])] for p in np.ndindex(idx.shape[:-1])]
        return np.stack(out).reshape(idx.shape[:-1] + data.shape[idx.shape[-1]:])

    def scatter_nd(data, idx, upd):
        out = data.copy()
        for p in np.ndindex(idx.shape[:-1]):
            out[tuple(idx[p])] = upd[p]
        return out

    deq = lambda c: dequantize(c.astype(np.int64), 0.5, 1)
    return m, {"f": f, "fi": fi, "q": q, "d": d, "u": u, "dq": dq, "uq": uq,
               "y": y, "yu": yu}, {
        "g1": ("float", gather_nd(f, fi)), "g2": ("float", gather_nd(deq(q), qi)),
        "s1": ("float", scatter_nd(d, di, u)),
        "s2": ("float", scatter_nd(deq(dq), dqi, deq(uq))),
        "s3": ("float", scatter_nd(y, yi, yu))}


def case_bad_scatter_nd_int32_indices():
    """ScatterND's indices are int64 (its schema); the checker does not see
    a run-time input's type against it."""
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.1, 128)
    nodes.append(helper.make_node("ScatterND", ["xd", "idx", "upd"], ["y"],
                                  name="norm"))
    return model(nodes, [tin("x", [4, 2]), tin("idx", [1, 1], TensorProto.INT32),
                         tin("upd", [1, 2])], [tin("y", [4, 2])], inits), {}, {}


def case_runtime_scatter():
    """ScatterND and ScatterElements with indices known only at run time
    (a KV cache's write position, torch's index_put_ / scatter_): the
    updates are written in order, so the later of duplicates wins (ONNX
    Runtime's order); negative indices count from the end; a tuple outside
    the data writes nothing (docs/ONNXImport.md). Rows of f32 data, single
    elements (k = rank), rows of codes on one grid (they stay codes), and
    ScatterElements along axis 1 with int32 indices."""
    r = rng(115)
    d = (r.integers(-8, 8, (4, 3)) / 4).astype(F32)
    u = (r.integers(-8, 8, (4, 3)) / 4).astype(F32)
    rows = np.array([[1], [-1], [7], [1]], np.int64)  # 7: outside, skipped
    e = (r.integers(-8, 8, (2, 3)) / 4).astype(F32)
    eu = np.array([5.0, -5.0, 6.0], F32)
    cells = np.array([[0, 2], [1, -1], [0, 2]], np.int64)
    q = r.uniform(-1, 1, (3, 4)).astype(F32)
    qu = r.uniform(-1, 1, (1, 4)).astype(F32)
    qrow = np.array([[2]], np.int64)
    x = (r.integers(-8, 8, (2, 4)) / 4).astype(F32)
    xi = np.array([[3, 0], [-1, -1]], np.int32)
    xu = np.array([[1.5, 2.5], [3.5, -3.5]], F32)
    N = helper.make_node
    nodes, inits = [], []
    qdq(nodes, inits, "q", 0.05, 0, np.int8)
    qdq(nodes, inits, "qu", 0.05, 0, np.int8)
    nodes += [N("ScatterND", ["d", "rows", "u"], ["s_rows"]),
              N("ScatterND", ["e", "cells", "eu"], ["s_cells"]),
              N("ScatterND", ["qd", "qrow", "qud"], ["s_codes"]),
              N("ScatterElements", ["x", "xi", "xu"], ["s_elems"], axis=1)]
    qdq_out(nodes, inits, "s_codes", "y_codes", 0.05, 0, np.int8)
    I64, I32 = TensorProto.INT64, TensorProto.INT32
    m = model(nodes, [tin("d", [4, 3]), tin("rows", [4, 1], I64),
                      tin("u", [4, 3]), tin("e", [2, 3]),
                      tin("cells", [3, 2], I64), tin("eu", [3]),
                      tin("q", [3, 4]), tin("qu", [1, 4]),
                      tin("qrow", [1, 1], I64), tin("x", [2, 4]),
                      tin("xi", [2, 2], I32), tin("xu", [2, 2])],
              [tin("s_rows", [4, 3]), tin("s_cells", [2, 3]),
               tin("y_codes", [3, 4]), tin("s_elems", [2, 4])], inits)

    def scatter_nd(data, idx, upd):
        out = data.copy()
        for p in np.ndindex(idx.shape[:-1]):
            t = tuple(idx[p])
            if all(-n <= v < n for v, n in zip(t, data.shape)):
                out[t] = upd[p]
        return out
    qc = quantize(q, 0.05, 0, np.int8)
    quc = quantize(qu, 0.05, 0, np.int8)
    return m, {"d": d, "rows": rows, "u": u, "e": e, "cells": cells, "eu": eu,
               "q": q, "qu": qu, "qrow": qrow, "x": x, "xi": xi, "xu": xu}, {
        "s_rows": ("float", scatter_nd(d, rows, u)),
        "s_cells": ("float", scatter_nd(e, cells, eu)),
        "y_codes": ("codes", scatter_nd(qc, qrow, quc), 0.05, 0),
        "s_elems": ("float", scatter_elements_ref(x, xi.astype(np.int64), xu, 1))}


def graph(name, nodes, inputs, outputs, inits=()):
    return helper.make_graph(nodes, name, inputs, outputs, list(inits))


def case_if_static():
    """If over a shape: the batch size (Shape -> Gather -> Equal) folds, so
    only the then_branch (Relu of the outer x) is imported; a second If on
    a constant false takes its else_branch (x * 2, the 2 an initializer of
    the branch). Both branches of each If name their output alike."""
    x = (rng(91).integers(-8, 8, (2, 4)) / 4).astype(F32)
    then1 = graph("then1", [helper.make_node("Relu", ["x"], ["b"])], [],
                  [tin("b", [2, 4])])
    else1 = graph("else1", [helper.make_node("Neg", ["x"], ["b"])], [],
                  [tin("b", [2, 4])])
    then2 = graph("then2", [helper.make_node("Neg", ["x"], ["b"])], [],
                  [tin("b", [2, 4])])
    else2 = graph("else2", [helper.make_node("Mul", ["x", "two"], ["b"])], [],
                  [tin("b", [2, 4])], [init("two", F32(2))])
    nodes = [helper.make_node("Shape", ["x"], ["shape"]),
             helper.make_node("Gather", ["shape", "zero"], ["batch"], axis=0),
             helper.make_node("Equal", ["batch", "two_i"], ["is2"]),
             helper.make_node("If", ["is2"], ["r1"], then_branch=then1,
                              else_branch=else1),
             helper.make_node("If", ["no"], ["r2"], then_branch=then2,
                              else_branch=else2)]
    inits = [init("zero", np.int64(0)), init("two_i", np.int64(2)),
             init("no", np.array(False))]
    s = 0.25
    qdq_out(nodes, inits, "r1", "y1", s, 0, np.int8)
    qdq_out(nodes, inits, "r2", "y2", s, 0, np.int8)
    m = model(nodes, [tin("x", [2, 4])], [tin("y1", [2, 4]), tin("y2", [2, 4])],
              inits)
    return m, {"x": x}, {
        "y1": ("codes", quantize(np.maximum(x, 0), s, 0, np.int8), s, 0),
        "y2": ("codes", quantize(x * 2, s, 0, np.int8), s, 0)}


def case_if_runtime():
    """If on a run-time condition (sum(x) > 0) and on its negation: both
    branches run and each output picks its branch's value. Outputs: f32
    (x * 2 or x - 1), int64 (a constant or ArgMax) and uint8 codes on one
    grid (Q(x) or Q(-x)), which stay codes."""
    x = np.array([[0.5, -1.25, 2.0], [1.5, -0.75, 0.25]], F32)
    assert x.sum() > 0

    def branches(flip):
        def g(name, f, i, q):
            return graph(name, f + i + q, [],
                         [tin("f", [2, 3]), tin("i", [2], TensorProto.INT64),
                          tin("q", [2, 3], TensorProto.UINT8)])
        then = g("then" + flip,
                 [helper.make_node("Mul", ["x", "two"], ["f"])],
                 [helper.make_node("Constant", [], ["i"],
                                   value=numpy_helper.from_array(
                                       np.array([7, 8], np.int64)))],
                 [helper.make_node("QuantizeLinear", ["x", "qs", "qz"], ["q"])])
        other = g("else" + flip,
                  [helper.make_node("Sub", ["x", "one"], ["f"])],
                  [helper.make_node("ArgMax", ["x"], ["i"], axis=1,
                                    keepdims=0)],
                  [helper.make_node("Neg", ["x"], ["nx"]),
                   helper.make_node("QuantizeLinear", ["nx", "qs", "qz"],
                                    ["q"])])
        return then, other

    t1, e1 = branches("1")
    t2, e2 = branches("2")
    nodes = [helper.make_node("ReduceSum", ["x"], ["sum"], keepdims=0),
             helper.make_node("Greater", ["sum", "zero"], ["pos"]),
             helper.make_node("Not", ["pos"], ["neg"]),
             helper.make_node("If", ["pos"], ["f1", "i1", "q1"],
                              then_branch=t1, else_branch=e1),
             helper.make_node("If", ["neg"], ["f2", "i2", "q2"],
                              then_branch=t2, else_branch=e2)]
    inits = [init("zero", F32(0)), init("one", F32(1)), init("two", F32(2)),
             init("qs", F32(0.25)), init("qz", np.uint8(128))]
    s = 0.25
    qdq_out(nodes, inits, "f1", "y1", s, 0, np.int8)
    qdq_out(nodes, inits, "f2", "y2", s, 0, np.int8)
    m = model(nodes, [tin("x", [2, 3])],
              [tin("y1", [2, 3]), tin("i1", [2], TensorProto.INT64),
               tin("q1", [2, 3], TensorProto.UINT8), tin("y2", [2, 3]),
               tin("i2", [2], TensorProto.INT64),
               tin("q2", [2, 3], TensorProto.UINT8)], inits)
    return m, {"x": x}, {
        "y1": ("codes", quantize(x * 2, s, 0, np.int8), s, 0),
        "i1": ("ints", np.array([7, 8], np.int64)),
        "q1": ("ints", quantize(x, 0.25, 128, np.uint8).astype(np.uint8)),
        "y2": ("codes", quantize(x - 1, s, 0, np.int8), s, 0),
        "i2": ("ints", np.argmax(x, axis=1).astype(np.int64)),
        "q2": ("ints", quantize(-x, 0.25, 128, np.uint8).astype(np.uint8))}


def onnx_loop(m, cond, state, body):
    """ONNX's Loop: while i < m and cond, state, cond = body(i, state)."""
    i = 0
    while i < m and cond:
        cond, state = body(i, state)
        i += 1
    return state


def case_loop_runtime_condition():
    """Loops whose condition depends on the input (a tf2onnx while loop
    with a bound): M = 6 iterations of x = 2 * x and k = k + 1 while
    sum(x) < 10, over two inputs that stop after different counts; and a
    loop whose initial condition is computed at run time (sum(a) > 100,
    false: the state stays the input). Unrolled M times, each iteration's state selected
    by whether the loop still runs."""
    body = graph("body", [
        helper.make_node("Mul", ["x", "two"], ["x2"]),
        helper.make_node("ReduceSum", ["x2"], ["total"], keepdims=0),
        helper.make_node("Less", ["total", "ten"], ["c_out"]),
        helper.make_node("Add", ["k", "one"], ["k2"])],
        [tin("i", [], TensorProto.INT64), tin("c", [], TensorProto.BOOL),
         tin("x", [3]), tin("k", [], TensorProto.INT64)],
        [tin("c_out", [], TensorProto.BOOL), tin("x2", [3]),
         tin("k2", [], TensorProto.INT64)],
        [init("two", F32(2)), init("ten", F32(10)), init("one", np.int64(1))])
    nodes = [helper.make_node("ReduceSum", ["a"], ["sum_a"], keepdims=0),
             helper.make_node("Greater", ["sum_a", "hundred"], ["go"]),
             helper.make_node("Loop", ["m", "yes", "a", "zero"],
                              ["a_out", "a_k"], body=body),
             helper.make_node("Loop", ["m", "yes", "b", "zero"],
                              ["b_out", "b_k"], body=body),
             helper.make_node("Loop", ["m", "go", "a", "zero"],
                              ["c_out", "c_k"], body=body)]
    inits = [init("m", np.int64(6)), init("yes", np.array(True)),
             init("zero", np.int64(0)), init("hundred", F32(100))]
    a = np.array([0.5, 0.25, 0.25], F32)   # sum 1: stops at 16 (4 steps)
    b = np.array([-1.0, 0.5, 0.25], F32)   # sum < 0: runs all 6 steps
    I64 = TensorProto.INT64
    m = model(nodes, [tin("a", [3]), tin("b", [3])],
              [tin("a_out", [3]), tin("a_k", [], I64), tin("b_out", [3]),
               tin("b_k", [], I64), tin("c_out", [3]), tin("c_k", [], I64)],
              inits)

    def step(i, state):
        x, k = state
        x2 = x * F32(2)
        return bool(x2.sum() < 10), (x2, k + 1)
    want = {}
    for name, x0, c0 in (("a", a, True), ("b", b, True), ("c", a, False)):
        x, k = onnx_loop(6, c0, (x0, 0), step)
        want[name + "_out"] = ("float", x)
        want[name + "_k"] = ("int", np.array(k, np.int64))
    return m, {"a": a, "b": b}, want


def case_loop_unrolled():
    """Loop with a trip count (M = 3): acc = 2 * acc + float(i), the
    factor 2 read from the enclosing graph, every acc also a scan output
    (stacked to [3, 2, 3]); and a Loop without M whose body stops it
    (cond_out = i < 2, which folds per iteration): three iterations of
    acc = acc + 1."""
    x = (rng(92).integers(-8, 8, (2, 3)) / 4).astype(F32)
    body1 = graph("body1", [
        helper.make_node("Cast", ["i"], ["fi"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["acc", "two"], ["acc2"]),
        helper.make_node("Add", ["acc2", "fi"], ["acc_out"]),
        helper.make_node("Identity", ["c"], ["c_out"]),
        helper.make_node("Identity", ["acc_out"], ["scan"])],
        [tin("i", [], TensorProto.INT64), tin("c", [], TensorProto.BOOL),
         tin("acc", [2, 3])],
        [tin("c_out", [], TensorProto.BOOL), tin("acc_out", [2, 3]),
         tin("scan", [2, 3])])
    body2 = graph("body2", [
        helper.make_node("Less", ["i", "two_i"], ["c_out"]),
        helper.make_node("Add", ["acc", "one"], ["acc_out"])],
        [tin("i", [], TensorProto.INT64), tin("c", [], TensorProto.BOOL),
         tin("acc", [2, 3])],
        [tin("c_out", [], TensorProto.BOOL), tin("acc_out", [2, 3])],
        [init("one", F32(1)), init("two_i", np.int64(2))])
    nodes = [helper.make_node("Loop", ["m", "yes", "x"], ["final", "steps"],
                              body=body1),
             helper.make_node("Loop", ["", "yes", "x"], ["counted"],
                              body=body2)]
    inits = [init("m", np.int64(3)), init("yes", np.array(True)),
             init("two", F32(2))]
    s = 0.25
    qdq_out(nodes, inits, "final", "y1", s, 0, np.int8)
    qdq_out(nodes, inits, "steps", "y2", s, 0, np.int8)
    qdq_out(nodes, inits, "counted", "y3", s, 0, np.int8)
    acc, steps = x, []
    for i in range(3):
        acc = acc * 2 + F32(i)
        steps.append(acc)
    m = model(nodes, [tin("x", [2, 3])],
              [tin("y1", [2, 3]), tin("y2", [3, 2, 3]), tin("y3", [2, 3])],
              inits)
    return m, {"x": x}, {
        "y1": ("codes", quantize(acc, s, 0, np.int8), s, 0),
        "y2": ("codes", quantize(np.stack(steps), s, 0, np.int8), s, 0),
        "y3": ("codes", quantize(x + 3, s, 0, np.int8), s, 0)}


def case_scan_unrolled():
    """Scan: running sums over the rows of x (axis 0), the state and the
    stacked sums; then over the columns (scan_input_axes = 1) in reverse,
    the sums stacked along axis 1 in reverse order as well."""
    x = (rng(93).integers(-8, 8, (4, 3)) / 4).astype(F32)
    body = graph("body", [helper.make_node("Add", ["s", "row"], ["s_out"]),
                          helper.make_node("Identity", ["s_out"], ["part"])],
                 [tin("s", [3]), tin("row", [3])],
                 [tin("s_out", [3]), tin("part", [3])])
    body_cols = graph("body_cols",
                      [helper.make_node("Add", ["s", "col"], ["s_out"]),
                       helper.make_node("Identity", ["s_out"], ["part"])],
                      [tin("s", [4]), tin("col", [4])],
                      [tin("s_out", [4]), tin("part", [4])])
    nodes = [helper.make_node("Scan", ["z3", "x"], ["total", "sums"],
                              body=body, num_scan_inputs=1),
             helper.make_node("Scan", ["z4", "x"], ["total_c", "sums_c"],
                              body=body_cols, num_scan_inputs=1,
                              scan_input_axes=[1], scan_input_directions=[1],
                              scan_output_axes=[1],
                              scan_output_directions=[1])]
    inits = [init("z3", np.zeros(3, F32)), init("z4", np.zeros(4, F32))]
    s = 0.25
    for src, name in (("total", "y1"), ("sums", "y2"), ("total_c", "y3"),
                      ("sums_c", "y4")):
        qdq_out(nodes, inits, src, name, s, 0, np.int8)
    sums = np.cumsum(x, axis=0)
    # Reverse over columns: step t reads column 2 - t; the outputs are
    # stacked in reverse, so column k of the result is the sum of columns
    # k..2.
    sums_c = np.flip(np.cumsum(np.flip(x, axis=1), axis=1), axis=1)
    m = model(nodes, [tin("x", [4, 3])],
              [tin("y1", [3]), tin("y2", [4, 3]), tin("y3", [4]),
               tin("y4", [4, 3])], inits)
    return m, {"x": x}, {
        "y1": ("codes", quantize(sums[-1], s, 0, np.int8), s, 0),
        "y2": ("codes", quantize(sums, s, 0, np.int8), s, 0),
        "y3": ("codes", quantize(sums_c[:, 0], s, 0, np.int8), s, 0),
        "y4": ("codes", quantize(sums_c, s, 0, np.int8), s, 0)}


def case_bad_loop_runtime_cond():
    """A Loop without a trip count whose body computes its condition from
    run-time data: nothing bounds the unrolling."""
    body = graph("body", [
        helper.make_node("ReduceSum", ["acc"], ["sum"], keepdims=0),
        helper.make_node("Less", ["sum", "ten"], ["c_out"]),
        helper.make_node("Add", ["acc", "ten"], ["acc_out"])],
        [tin("i", [], TensorProto.INT64), tin("c", [], TensorProto.BOOL),
         tin("acc", [2])],
        [tin("c_out", [], TensorProto.BOOL), tin("acc_out", [2])],
        [init("ten", F32(10))])
    nodes = [helper.make_node("Loop", ["", "", "x"], ["y"], body=body,
                              name="norm")]
    return model(nodes, [tin("x", [2])], [tin("y", [2])], []), {}, {}


def case_bad_loop_runtime_scan():
    """A scan output of a Loop whose condition is computed at run time:
    its length would be known only at run time."""
    body = graph("body", [
        helper.make_node("ReduceSum", ["acc"], ["sum"], keepdims=0),
        helper.make_node("Less", ["sum", "ten"], ["c_out"]),
        helper.make_node("Add", ["acc", "ten"], ["acc_out"]),
        helper.make_node("Identity", ["acc_out"], ["scan"])],
        [tin("i", [], TensorProto.INT64), tin("c", [], TensorProto.BOOL),
         tin("acc", [2])],
        [tin("c_out", [], TensorProto.BOOL), tin("acc_out", [2]),
         tin("scan", [2])],
        [init("ten", F32(10))])
    nodes = [helper.make_node("Loop", ["m", "", "x"], ["y", "steps"],
                              body=body, name="norm")]
    return model(nodes, [tin("x", [2])], [tin("y", [2]), tin("steps", [4, 2])],
                 [init("m", np.int64(4))]), {}, {}


def case_bad_loop_unbounded():
    """A Loop without M whose condition stays true: the unrolling bound."""
    body = graph("body", [helper.make_node("Identity", ["c"], ["c_out"]),
                          helper.make_node("Identity", ["acc"], ["acc_out"])],
                 [tin("i", [], TensorProto.INT64),
                  tin("c", [], TensorProto.BOOL), tin("acc", [2])],
                 [tin("c_out", [], TensorProto.BOOL), tin("acc_out", [2])])
    nodes = [helper.make_node("Loop", ["", "yes", "x"], ["y"], body=body,
                              name="norm")]
    return model(nodes, [tin("x", [2])], [tin("y", [2])],
                 [init("yes", np.array(True))]), {}, {}


def case_bad_if_shapes():
    """A run-time If whose branches give different shapes."""
    then = graph("then", [helper.make_node("Identity", ["x"], ["b"])], [],
                 [tin("b", [2, 3])])
    other = graph("else", [helper.make_node("ReduceSum", ["x"], ["b"],
                                            keepdims=1)], [],
                  [tin("b", [1, 1])])
    nodes = [helper.make_node("ReduceSum", ["x"], ["sum"], keepdims=0),
             helper.make_node("Greater", ["sum", "zero"], ["pos"]),
             helper.make_node("If", ["pos"], ["y"], then_branch=then,
                              else_branch=other, name="norm")]
    return model(nodes, [tin("x", [2, 3])], [tin("y", [2, 3])],
                 [init("zero", F32(0))]), {}, {}


def scatter_elements_ref(data, indices, updates, axis):
    """ONNX's ScatterElements, element by element (later duplicates win)."""
    out = data.copy()
    for pos in np.ndindex(*indices.shape):
        target = list(pos)
        target[axis] = indices[pos] % data.shape[axis]
        out[tuple(target)] = updates[pos]
    return out


def scatter_reduce_ref(data, indices, updates, axis, reduction):
    """ONNX's ScatterElements with a reduction, element by element in index
    order (each update combined with what the earlier ones left)."""
    out = data.copy()
    combine = {"add": lambda a, b: a + b, "mul": lambda a, b: a * b,
               "max": max, "min": min}[reduction]
    for pos in np.ndindex(*indices.shape):
        target = list(pos)
        target[axis] = indices[pos] % data.shape[axis]
        out[tuple(target)] = combine(out[tuple(target)], updates[pos])
    return out


def case_scatter_reductions():
    """ScatterElements and ScatterND with reduction add, mul (opset 16),
    max and min (opset 18): a GNN's scatter_add of messages into nodes
    (duplicate indices accumulate), on f32, on dequantized codes (computed
    on the values) and on int64 counts; ScatterND add with run-time
    indices. Dyadic values keep every f32 result exact."""
    r = rng(177)
    x = (r.integers(-8, 8, (4, 3)) / 4).astype(F32)
    u = (r.integers(-8, 8, (5, 3)) / 4).astype(F32)
    idx = np.array([[1, 0, 2], [3, 1, 1], [1, 0, 2], [0, 3, 1], [1, 1, 0]], np.int64)
    cnt = r.integers(0, 5, (4, 3)).astype(np.int64)
    ones = np.ones((5, 3), np.int64)
    nd_idx = np.array([[2], [0], [2]], np.int64)
    nodes, inits = [], []
    qdq(nodes, inits, "q", 1.0 / 4, 0, np.int8)
    se = lambda data, upd, out, red: helper.make_node(
        "ScatterElements", [data, "idx", upd], [out], axis=0, reduction=red)
    nodes += [se("x", "u", "y_add", "add"), se("x", "u", "y_mul", "mul"),
              se("x", "u", "y_max", "max"), se("x", "u", "y_min", "min"),
              se("qd", "u", "qs", "add"), se("cnt", "ones", "y_cnt", "add"),
              helper.make_node("ScatterND", ["x", "nd_idx", "nd_u"], ["y_nd"],
                               reduction="add")]
    qdq_out(nodes, inits, "qs", "y_q", 1.0 / 4, 0, np.int8)
    nd_u = (r.integers(-8, 8, (3, 3)) / 4).astype(F32)
    inits += [init("idx", idx), init("u", u), init("ones", ones)]
    want = {k: scatter_reduce_ref(x.astype(np.float64), idx, u, 0, k[2:])
            for k in ("y_add", "y_mul", "y_max", "y_min")}
    qd = dequantize(quantize(x, 1.0 / 4, 0, np.int8), 1.0 / 4, 0)
    y_q = quantize(scatter_reduce_ref(qd.astype(np.float64), idx, u, 0, "add").astype(F32),
                   1.0 / 4, 0, np.int8)
    nd = x.astype(np.float64).copy()
    for i, row in zip(nd_idx[:, 0], nd_u):
        nd[i] += row
    expected = {k: ("approx", v, np.zeros_like(v)) for k, v in want.items()}
    expected["y_q"] = ("codes", y_q, 1.0 / 4, 0)
    expected["y_cnt"] = ("ints", scatter_reduce_ref(cnt, idx, ones, 0, "add"))
    expected["y_nd"] = ("approx", nd, np.zeros_like(nd))
    outs = [tin(k, [4, 3]) for k in want] + [
        tin("y_q", [4, 3]), tin("y_cnt", [4, 3], TensorProto.INT64), tin("y_nd", [4, 3])]
    m = model(nodes, [tin("x", [4, 3]), tin("q", [4, 3]),
                      tin("nd_idx", [3, 1], TensorProto.INT64), tin("nd_u", [3, 3]),
                      tin("cnt", [4, 3], TensorProto.INT64)],
              outs, inits, opset=18)
    return m, {"x": x, "q": x, "nd_idx": nd_idx, "nd_u": nd_u, "cnt": cnt}, expected


def case_bad_scatter_max_opset16():
    nodes = [helper.make_node("ScatterND", ["x", "i", "u"], ["y"], name="scatter",
                              reduction="max")]
    inits = [init("i", np.array([[1]], np.int64)), init("u", np.ones((1, 2), F32))]
    return model(nodes, [tin("x", [3, 2])], [tin("y", [3, 2])], inits,
                 opset=16), {}, {}


def case_integer_unary():
    """Integer Abs, Neg, Sign, Min, Max, ArgMax and ArgMin (T5's
    relative-position buckets: |memory - context| clamped with Min;
    DeBERTa's clamps; CLIP's pooling at input_ids.argmax(-1)): on run-time
    int64 and int32 tensors (Abs and Neg wrap around at the type's minimum,
    as ONNX Runtime's C++ does), and folded at import on compile-time
    int64 data (a Range's positions) feeding a run-time Add."""
    r = rng(178)
    t = r.integers(-50, 50, (3, 5)).astype(np.int64)
    t[0, 0] = np.iinfo(np.int64).min
    s32 = r.integers(-9, 9, (3, 5)).astype(np.int32)
    u = r.integers(-50, 50, (3, 5)).astype(np.int64)
    pos = np.arange(5, dtype=np.int64)
    rel = pos[None, :] - pos[:, None]  # 5 x 5, compile-time
    nodes = [helper.make_node("Abs", ["t"], ["y_abs"]),
             helper.make_node("Neg", ["t"], ["y_neg"]),
             helper.make_node("Sign", ["t"], ["y_sign"]),
             helper.make_node("Abs", ["s32"], ["y_abs32"]),
             helper.make_node("Max", ["t", "u"], ["y_max"]),
             helper.make_node("Min", ["t", "lim"], ["y_min"]),
             helper.make_node("Abs", ["rel"], ["rel_abs"]),
             helper.make_node("Min", ["rel_abs", "three"], ["rel_min"]),
             helper.make_node("Neg", ["rel_min"], ["rel_neg"]),
             helper.make_node("Add", ["rel_neg", "b5"], ["y_rel"]),
             # CLIP's pooling: input_ids.argmax(-1), compared as integers.
             helper.make_node("ArgMax", ["t"], ["y_argmax"], axis=1, keepdims=0),
             helper.make_node("ArgMax", ["s32"], ["y_argmax32"], axis=1),
             helper.make_node("ArgMin", ["s32"], ["y_argmin_last"], axis=0,
                              select_last_index=1),
             # DeBERTa's torch.clamp on long; Relu of integers.
             helper.make_node("Clip", ["t", "lo", "hi"], ["y_clip"]),
             helper.make_node("Clip", ["s32", "", "hi32"], ["y_clip32"]),
             helper.make_node("Relu", ["u"], ["y_relu"]),
             helper.make_node("Clip", ["rel", "lo", "hi"], ["rel_clip"]),
             helper.make_node("Add", ["rel_clip", "b5"], ["y_relclip"])]
    inits = [init("lim", np.int64(7)), init("rel", rel), init("three", np.int64(3)),
             init("lo", np.int64(-2)), init("hi", np.int64(20)),
             init("hi32", np.int32(4))]
    wrap = lambda v: v.astype(np.int64)  # numpy's int64 arithmetic wraps too
    with np.errstate(over="ignore"):
        want = {"y_abs": np.abs(t), "y_neg": -t, "y_sign": np.sign(t),
                "y_abs32": np.abs(s32), "y_max": np.maximum(t, u),
                "y_min": np.minimum(t, 7)}
    b5 = r.integers(-3, 3, (5, 5)).astype(np.int64)
    want["y_rel"] = -np.minimum(np.abs(rel), 3) + b5
    want["y_argmax"] = np.argmax(t, axis=1)
    want["y_argmax32"] = np.argmax(s32, axis=1)[:, None]
    # The last minimum: numpy's first on the reversed axis.
    want["y_argmin_last"] = (2 - np.argmin(s32[::-1], axis=0))[None, :]
    want["y_clip"] = np.clip(t, -2, 20)
    want["y_clip32"] = np.minimum(s32, 4)
    want["y_relu"] = np.maximum(u, 0)
    want["y_relclip"] = np.clip(rel, -2, 20) + b5
    types = {k: TensorProto.INT32 if k in ("y_abs32", "y_clip32") else TensorProto.INT64
             for k in want}
    m = model(nodes, [tin("t", [3, 5], TensorProto.INT64),
                      tin("s32", [3, 5], TensorProto.INT32),
                      tin("u", [3, 5], TensorProto.INT64),
                      tin("b5", [5, 5], TensorProto.INT64)],
              [tin(k, list(v.shape), types[k]) for k, v in want.items()], inits)
    return m, {"t": t, "s32": s32, "u": u, "b5": b5}, {
        k: ("ints", wrap(v)) for k, v in want.items()}


def case_const_nd_folds():
    """Ops on compile-time N-D data, folded at import (the second
    real-architecture campaign's refusals): RAFT's coordinate grid, a
    Concat of two compile-time 1 x 1 x 3 x 4 planes along the channels,
    added to a run-time flow; Split of compile-time int64 data into three
    parts; Split of run-time int64 ids; TopK of compile-time int64 (ties
    to the lower index) and f32 data (smallest first, a NaN after every
    number, -0.0 and +0.0 tied); CumSum of compile-time int32 data (wrapping
    around, exclusive and reversed) and f32 data. Expected values from
    Python's own sort and sums, not numpy's kernels."""
    r = rng(181)
    gy = np.repeat(np.arange(3, dtype=F32)[:, None], 4, axis=1)[None, None]
    gx = np.repeat(np.arange(4, dtype=F32)[None, :], 3, axis=0)[None, None]
    flow = (r.integers(-8, 8, (1, 2, 3, 4)) / 4).astype(F32)
    table = r.integers(-9, 9, (2, 6)).astype(np.int64)
    ids = r.integers(0, 50, (2, 6)).astype(np.int64)
    b2 = r.integers(-3, 3, (2, 6)).astype(np.int64)
    scores = np.array([[3, 7, 7, -2, 7], [0, -5, 4, 4, 1]], np.int64)
    fl = np.array([[0.5, np.nan, -0.0, 0.0, -1.5, 0.5]], F32)
    counts = np.array([[2147483647, 1, 5], [-3, 4, -2147483648]], np.int32)
    steps = np.array([1e8, 1, 1, -1e8], F32)  # in f32: 1e8 + 1 is 1e8
    nodes = [helper.make_node("Concat", ["gy", "gx"], ["grid"], axis=1),
             helper.make_node("Add", ["grid", "flow"], ["y_coords"]),
             helper.make_node("Split", ["table", "sizes"],
                              ["t0", "t1", "t2"], axis=1),
             helper.make_node("Concat", ["t2", "t0", "t1"], ["t_perm"], axis=1),
             helper.make_node("Add", ["t_perm", "b2"], ["y_split"]),
             helper.make_node("Split", ["ids"], ["y_ids0", "y_ids1"], axis=0),
             helper.make_node("TopK", ["scores", "k3"], ["tv", "ti"], axis=1),
             helper.make_node("Add", ["tv", "b3"], ["y_topk"]),
             helper.make_node("Add", ["ti", "b3"], ["y_topk_idx"]),
             helper.make_node("TopK", ["fl", "k4"], ["fv", "fi"], axis=-1,
                              largest=0),
             helper.make_node("Add", ["fv", "zero4"], ["y_topk_f"]),
             helper.make_node("Add", ["fi", "zero4i"], ["y_topk_fi"]),
             helper.make_node("CumSum", ["counts", "ax1"], ["cs"]),
             helper.make_node("Add", ["cs", "c0"], ["y_cumsum"]),
             helper.make_node("CumSum", ["counts", "ax1"], ["cse"],
                              exclusive=1, reverse=1),
             helper.make_node("Add", ["cse", "c0"], ["y_cumsum_er"]),
             helper.make_node("CumSum", ["steps", "ax0"], ["fs"]),
             helper.make_node("Add", ["fs", "zero4f"], ["y_cumsum_f"]),
             # Resizes of compile-time and run-time integer data.
             helper.make_node("Resize", ["gy", "", "up2"], ["gy2"],
                              mode="nearest"),
             helper.make_node("Add", ["gy2", "zero68"], ["y_resize_nearest"]),
             helper.make_node("Resize", ["gx", "", "up2"], ["gx2"],
                              mode="linear"),
             helper.make_node("Add", ["gx2", "zero68"], ["y_resize_linear"]),
             helper.make_node("Resize", ["ids4", "", "up2"], ["y_resize_ids"],
                              mode="nearest"),
             helper.make_node("Resize", ["table4", "", "up2"], ["t4"],
                              mode="nearest"),
             helper.make_node("Add", ["t4", "zero_t4"], ["y_resize_table"])]
    inits = [init("gy", gy), init("gx", gx), init("table", table),
             init("sizes", np.array([1, 2, 3], np.int64)),
             init("scores", scores), init("k3", np.array([3], np.int64)),
             init("fl", fl), init("k4", np.array([4], np.int64)),
             init("counts", counts), init("ax1", np.int64(1)),
             init("ax0", np.int64(0)), init("steps", steps),
             init("up2", np.array([1, 1, 2, 2], F32)),
             init("table4", table.reshape(1, 1, 2, 6))]
    ids4 = ids.reshape(1, 1, 2, 6)
    zero68 = np.zeros((1, 1, 6, 8), F32)
    zero_t4 = np.zeros((1, 1, 4, 12), np.int64)
    b3 = r.integers(-3, 3, (2, 3)).astype(np.int64)
    zero4 = np.zeros((1, 4), F32)
    zero4i = np.zeros((1, 4), np.int64)
    c0 = np.zeros((2, 3), np.int32)
    zero4f = np.zeros(4, F32)
    want = {}
    want["y_coords"] = ("approx", np.concatenate([gy, gx], 1) + flow, 0.0)
    parts = [table[:, :1], table[:, 1:3], table[:, 3:]]
    want["y_split"] = ("ints", np.concatenate([parts[2], parts[0], parts[1]], 1)
                       + b2)
    want["y_ids0"] = ("ints", ids[:1])
    want["y_ids1"] = ("ints", ids[1:])

    def topk(row, k, largest):
        # A total order: numbers by value (the sign of a zero ignored), a
        # NaN after them; equal keys by the lower index.
        def key(j):
            x = float(row[j])
            if math.isnan(x):
                return (1, 0.0, j)
            return (0, -x if largest else x, j)
        order = sorted(range(len(row)), key=key)[:k]
        return [row[j] for j in order], order
    tv = np.array([topk(list(sr), 3, True)[0] for sr in scores], np.int64)
    ti = np.array([topk(list(sr), 3, True)[1] for sr in scores], np.int64)
    want["y_topk"] = ("ints", tv + b3)
    want["y_topk_idx"] = ("ints", ti + b3)
    fv, fi = topk(list(fl[0]), 4, False)
    want["y_topk_f"] = ("approx", np.array([fv], F32), 0.0)
    want["y_topk_fi"] = ("ints", np.array([fi], np.int64))

    def wrap32(v):
        return (v + 2**31) % 2**32 - 2**31
    cs = [[wrap32(sum(int(v) for v in row[:j + 1])) for j in range(3)]
          for row in counts]
    cse = [[wrap32(sum(int(v) for v in row[j + 1:])) for j in range(3)]
           for row in counts]
    want["y_cumsum"] = ("ints", np.array(cs, np.int64))
    want["y_cumsum_er"] = ("ints", np.array(cse, np.int64))
    acc, fs = F32(0), []
    for v in steps:
        acc = F32(acc + v)  # f32 sums in order, as ONNX Runtime's loop
        fs.append(acc)
    want["y_cumsum_f"] = ("approx", np.array(fs, F32), 0.0)
    # Nearest by 2 (half_pixel, round_prefer_floor: each element twice).
    up = lambda a: a.repeat(2, axis=2).repeat(2, axis=3)
    want["y_resize_nearest"] = ("approx", up(gy), 0.0)
    want["y_resize_linear"] = ("approx", resize_linear_f32(gx, 6, 8,
                                                           "half_pixel"), 0.0)
    want["y_resize_ids"] = ("ints", up(ids4))
    want["y_resize_table"] = ("ints", up(table.reshape(1, 1, 2, 6)))
    types = {"y_coords": TensorProto.FLOAT, "y_topk_f": TensorProto.FLOAT,
             "y_cumsum_f": TensorProto.FLOAT, "y_resize_nearest": TensorProto.FLOAT,
             "y_resize_linear": TensorProto.FLOAT, "y_cumsum": TensorProto.INT32,
             "y_cumsum_er": TensorProto.INT32}
    m = model(nodes, [tin("flow", [1, 2, 3, 4]),
                      tin("b2", [2, 6], TensorProto.INT64),
                      tin("ids", [2, 6], TensorProto.INT64),
                      tin("b3", [2, 3], TensorProto.INT64),
                      tin("zero4", [1, 4]),
                      tin("zero4i", [1, 4], TensorProto.INT64),
                      tin("c0", [2, 3], TensorProto.INT32),
                      tin("zero4f", [4]),
                      tin("ids4", [1, 1, 2, 6], TensorProto.INT64),
                      tin("zero68", [1, 1, 6, 8]),
                      tin("zero_t4", [1, 1, 4, 12], TensorProto.INT64)],
              [tin(k, list(v[1].shape), types.get(k, TensorProto.INT64))
               for k, v in want.items()], inits)
    expected = {}
    for k, v in want.items():
        if v[0] == "approx":
            expected[k] = ("approx", v[1], np.zeros(v[1].shape))
        else:
            expected[k] = v
    return m, {"flow": flow, "b2": b2, "ids": ids, "b3": b3, "zero4": zero4,
               "zero4i": zero4i, "c0": c0, "zero4f": zero4f, "ids4": ids4,
               "zero68": zero68, "zero_t4": zero_t4}, expected


def case_integer_pow():
    """Pow of an int32 / int64 base: run-time int64 by a compile-time
    scalar 3 (only its bits multiplied in); run-time int32 by a run-time
    int64 exponent row (0 .. 7, negative ones truncating toward zero, 0 to
    a negative power the type's minimum, powers past int32 wrapping
    around); compile-time 2 ** arange(10) (a positional table) and int64
    [4, 9, 10] ** 0.5 (std::pow, truncated), folded at import into a
    run-time Add. Expected values from Python's integers."""
    r = rng(182)
    t = r.integers(-20, 20, (3, 4)).astype(np.int64)
    base = np.array([[0, 1, -1, 2, -3, 7, 0, 5]] * 2, np.int32)
    base[1] = [3, -2, 2, 1, -1, 0, 46341, -7]
    expo = np.array([[3, -1, -3, 7, 5, 20, -2, 0],
                     [2, 9, -1, -4, 6, 0, 2, 13]], np.int64)
    b10 = r.integers(-3, 3, (10,)).astype(np.int64)
    b3 = r.integers(-3, 3, (3,)).astype(np.int64)
    nodes = [helper.make_node("Pow", ["t", "three"], ["y_cube"]),
             helper.make_node("Pow", ["base", "expo"], ["y_pow"]),
             helper.make_node("Pow", ["two", "r10"], ["p10"]),
             helper.make_node("Add", ["p10", "b10"], ["y_table"]),
             helper.make_node("Pow", ["sq", "half"], ["roots"]),
             helper.make_node("Add", ["roots", "b3"], ["y_roots"])]
    inits = [init("three", np.int64(3)), init("two", np.int64(2)),
             init("r10", np.arange(10, dtype=np.int64)),
             init("sq", np.array([4, 9, 10], np.int64)),
             init("half", np.float32(0.5))]

    def ipow(x, e, bits):
        x, e = int(x), int(e)
        if e < 0:
            if x == 0:
                return -2**(bits - 1)
            # Truncated toward zero: only 1 and -1 keep a nonzero power.
            return x**e if abs(x) == 1 else 0
        v = x**e % 2**bits
        return v - 2**bits if v >= 2**(bits - 1) else v
    want = {"y_cube": np.vectorize(lambda x: ipow(x, 3, 64))(t).astype(np.int64),
            "y_pow": np.array([[ipow(x, e, 32) for x, e in zip(bx, be)]
                               for bx, be in zip(base, expo)], np.int64),
            "y_table": np.array([2**k for k in range(10)], np.int64) + b10,
            "y_roots": np.array([2, 3, 3], np.int64) + b3}
    types = {"y_pow": TensorProto.INT32}
    m = model(nodes, [tin("t", [3, 4], TensorProto.INT64),
                      tin("base", [2, 8], TensorProto.INT32),
                      tin("expo", [2, 8], TensorProto.INT64),
                      tin("b10", [10], TensorProto.INT64),
                      tin("b3", [3], TensorProto.INT64)],
              [tin(k, list(v.shape), types.get(k, TensorProto.INT64))
               for k, v in want.items()], inits)
    return m, {"t": t, "base": base, "expo": expo, "b10": b10, "b3": b3}, {
        k: ("ints", v) for k, v in want.items()}


def case_code_clamps():
    """Relu and Clip of the integer codes a QuantizeLinear wrote (ONNX
    defines them on the integers: max(q, 0), not a Relu of the reals when
    the zero point is not 0): int8 codes with zero point 10 (Relu), the
    NHWC int8 result of a conv re-quantized onto its input's grid (Clip to
    [-5, 40]), uint8 codes (Clip to [100, 200], bounds of the codes' type)
    and compile-time codes (Relu, folded) feeding a float Add. Each ends in
    a DequantizeLinear. Expected codes from numpy's integer clip."""
    r = rng(184)
    x = r.uniform(-3, 3, (1, 3, 4, 5)).astype(F32)
    u = r.uniform(-3, 3, (1, 3, 4, 5)).astype(F32)
    c = (r.integers(-16, 16, (3, 4)) / 8).astype(F32)
    add = (r.integers(-16, 16, (3, 4)) / 8).astype(F32)
    eye = np.eye(3, dtype=np.int8).reshape(3, 3, 1, 1)
    N = helper.make_node
    nodes = [N("QuantizeLinear", ["x", "s", "z"], ["xq"]),
             N("Relu", ["xq"], ["xq_relu"]),
             N("DequantizeLinear", ["xq_relu", "s", "z"], ["y_relu"]),
             # A 1 x 1 conv by the identity: its result is x's codes again.
             N("DequantizeLinear", ["xq", "s", "z"], ["xd"]),
             N("DequantizeLinear", ["eye", "one", "zero8"], ["eye_d"]),
             N("Conv", ["xd", "eye_d"], ["conv"]),
             N("QuantizeLinear", ["conv", "s", "z"], ["conv_q"]),
             N("Clip", ["conv_q", "lo8", "hi8"], ["conv_clip"]),
             N("DequantizeLinear", ["conv_clip", "s", "z"], ["y_conv_clip"]),
             N("QuantizeLinear", ["u", "su", "zu"], ["uq"]),
             N("Clip", ["uq", "lo_u8", "hi_u8"], ["uq_clip"]),
             N("DequantizeLinear", ["uq_clip", "su", "zu"], ["y_u8_clip"]),
             N("QuantizeLinear", ["c", "sc", "zc"], ["cq"]),
             N("Relu", ["cq"], ["cq_relu"]),
             N("DequantizeLinear", ["cq_relu", "sc", "zc"], ["cd"]),
             N("Add", ["cd", "add"], ["y_const"])]
    inits = [init("s", F32(0.05)), init("z", np.int8(10)),
             init("eye", eye), init("one", F32(1.0)), init("zero8", np.int8(0)),
             init("lo8", np.int8(-5)), init("hi8", np.int8(40)),
             init("su", F32(0.03)), init("zu", np.uint8(128)),
             init("lo_u8", np.uint8(100)), init("hi_u8", np.uint8(200)),
             init("c", c), init("sc", F32(0.125)), init("zc", np.int8(-3))]

    def q(v, scale, zp, lo, hi):
        return np.clip(np.round(v / F32(scale)) + zp, lo, hi).astype(np.int64)
    xq = q(x, 0.05, 10, -128, 127)
    uq = q(u, 0.03, 128, 0, 255)
    cq = q(c, 0.125, -3, -128, 127)
    want = {"y_relu": ("codes", np.maximum(xq, 0), 0.05, 10),
            "y_conv_clip": ("codes", np.clip(xq, -5, 40), 0.05, 10),
            "y_u8_clip": ("codes", np.clip(uq, 100, 200), 0.03, 128)}
    y_const = ((np.maximum(cq, 0) + 3) * F32(0.125)).astype(F32) + add
    m = model(nodes, [tin("x", [1, 3, 4, 5]), tin("u", [1, 3, 4, 5]),
                      tin("add", [3, 4])],
              [tin(k, [1, 3, 4, 5]) for k in want] + [tin("y_const", [3, 4])],
              inits)
    want["y_const"] = ("approx", y_const, np.zeros(y_const.shape))
    return m, {"x": x, "u": u, "add": add}, want


def case_float_pow_tensors():
    """Pow of floats by tensors of exponents: GeM pooling's per-channel p
    (a compile-time 1 x C x 1 x 1 tensor) on positive values,
    a run-time exponent tensor broadcast along a row, and two compile-time
    tensors folded at import (powf) into a run-time Add. Against numpy's
    float32 power, within the printed precision (six digits)."""
    r = rng(185)
    x = r.uniform(0.1, 3, (1, 3, 2, 4)).astype(F32)
    p = np.array([1.5, 3.0, 0.5], F32).reshape(1, 3, 1, 1)
    b = r.uniform(0.5, 2, (2, 4)).astype(F32)
    e = r.uniform(-2, 2, (4,)).astype(F32)
    cb = np.array([2.0, 10.0, 0.25], F32)
    ce = np.array([0.5, -1.5, 3.0], F32)
    add = r.uniform(-1, 1, (3,)).astype(F32)
    nodes = [helper.make_node("Pow", ["x", "p"], ["y_gem"]),
             helper.make_node("Pow", ["b", "e"], ["y_runtime"]),
             helper.make_node("Pow", ["cb", "ce"], ["folded"]),
             helper.make_node("Add", ["folded", "add"], ["y_folded"])]
    inits = [init("p", p), init("cb", cb), init("ce", ce)]
    want = {"y_gem": np.power(x, p), "y_runtime": np.power(b, e),
            "y_folded": (np.power(cb, ce) + add).astype(F32)}
    m = model(nodes, [tin("x", [1, 3, 2, 4]), tin("b", [2, 4]), tin("e", [4]),
                      tin("add", [3])],
              [tin(k, list(v.shape)) for k, v in want.items()], inits)
    return m, {"x": x, "b": b, "e": e, "add": add}, {
        k: ("approx", v, 6e-6 * np.abs(v)) for k, v in want.items()}


def ort_roi_align(x, rois, batch, oh, ow, ratio, scale, mode, half_pixel):
    """ONNX Runtime's RoiAlign CPU kernel, loop by loop in float32: per
    region the bins' sampling points, each the bilinear interpolation of
    four neighbours (pre_calc_for_bilinear_interpolate), then the points'
    average (their weighted sum added up, divided by the count) or, for
    `max`, the largest weighted neighbour of the largest point."""
    f = np.float32
    n_, c_, h, w = x.shape
    out = np.zeros((len(rois), c_, oh, ow), F32)
    for r, box in enumerate(rois):
        off = f(0.5) if half_pixel else f(0)
        sw, sh, ew, eh = [f(v) * f(scale) - off for v in box]
        rw, rh = f(ew - sw), f(eh - sh)
        if not half_pixel:
            rw, rh = max(rw, f(1)), max(rh, f(1))
        bh, bw = f(rh / f(oh)), f(rw / f(ow))
        pts = {}
        for ph in range(oh):
            for pw in range(ow):
                for iy in range(ratio):
                    yy = f(f(sh + f(ph) * bh) + f(f(f(iy) + f(0.5)) * bh) / f(ratio))
                    for ix in range(ratio):
                        xx = f(f(sw + f(pw) * bw) + f(f(f(ix) + f(0.5)) * bw) / f(ratio))
                        yv, xv = yy, xx
                        if yv < -1.0 or yv > h or xv < -1.0 or xv > w:
                            pts[ph, pw, iy, ix] = (0, 0, 0, 0, f(0), f(0), f(0), f(0))
                            continue
                        yv = f(0) if yv <= 0 else yv
                        xv = f(0) if xv <= 0 else xv
                        yl, xl = int(yv), int(xv)
                        if yl >= h - 1:
                            yl = yh = h - 1
                            yv = f(yl)
                        else:
                            yh = yl + 1
                        if xl >= w - 1:
                            xl = xh = w - 1
                            xv = f(xl)
                        else:
                            xh = xl + 1
                        ly, lx = f(yv - f(yl)), f(xv - f(xl))
                        hy, hx = f(f(1) - ly), f(f(1) - lx)
                        pts[ph, pw, iy, ix] = (yl, yh, xl, xh, f(hy * hx), f(hy * lx),
                                               f(ly * hx), f(ly * lx))
        img = x[batch[r]]
        for c in range(c_):
            for ph in range(oh):
                for pw in range(ow):
                    acc = f(0)
                    for iy in range(ratio):
                        for ix in range(ratio):
                            yl, yh, xl, xh, w1, w2, w3, w4 = pts[ph, pw, iy, ix]
                            t = [f(w1 * img[c, yl, xl]), f(w2 * img[c, yl, xh]),
                                 f(w3 * img[c, yh, xl]), f(w4 * img[c, yh, xh])]
                            if mode == "avg":
                                acc = f(acc + f(f(f(t[0] + t[1]) + t[2]) + t[3]))
                            else:
                                v = t[0]
                                for q in t[1:]:
                                    v = q if v < q else v
                                acc = v if iy == 0 and ix == 0 else (v if acc < v else acc)
                    out[r, c, ph, pw] = f(acc / f(ratio * ratio)) if mode == "avg" else acc
    return out


def case_roi_align():
    """RoiAlign (torchvision's MultiScaleRoIAlign in Faster / Mask R-CNN:
    sampling_ratio 2): avg with half_pixel over boxes inside, across and
    outside the feature map (a point below -1 or past the image weighs 0;
    the last row / column read alone) on two images, with spatial_scale
    1/4; max mode; an opset-10 model (output_half_pixel: boxes at least
    1 x 1) on dequantized features. Against a float32 loop model of ONNX
    Runtime's kernel."""
    r = rng(186)
    x = r.uniform(-2, 2, (2, 3, 6, 7)).astype(F32)
    rois = np.array([[0, 0, 12, 8], [4.5, 2.25, 26, 22], [-10, -6, 3, 30],
                     [20, 18, 40, 40], [5, 5, 5.5, 5.25]], F32)
    batch = np.array([0, 1, 1, 0, 1], np.int64)
    N = helper.make_node
    nodes = [N("RoiAlign", ["x", "rois", "batch"], ["y_avg"], output_height=2,
               output_width=3, sampling_ratio=2, spatial_scale=0.25),
             N("RoiAlign", ["x", "rois", "batch"], ["y_max"], mode="max",
               output_height=3, output_width=2, sampling_ratio=3,
               spatial_scale=0.25)]
    y_avg = ort_roi_align(x, rois / 1, batch, 2, 3, 2, 0.25, "avg", True)
    y_max = ort_roi_align(x, rois, batch, 3, 2, 3, 0.25, "max", True)
    m = model(nodes, [tin("x", list(x.shape)), tin("rois", [5, 4]),
                      tin("batch", [5], TensorProto.INT64)],
              [tin("y_avg", list(y_avg.shape)), tin("y_max", list(y_max.shape))],
              [], opset=16)
    tol = lambda v: 6e-6 * (1 + np.abs(v))  # the printed six digits
    return m, {"x": x, "rois": rois, "batch": batch}, {
        "y_avg": ("approx", y_avg, tol(y_avg)),
        "y_max": ("approx", y_max, tol(y_max))}


def case_roi_align_opset10():
    """RoiAlign-10 (output_half_pixel, boxes at least 1 x 1) on dequantized
    features, sampling_ratio 1, a box smaller than a pixel."""
    r = rng(187)
    x = r.uniform(-1, 1, (1, 2, 5, 5)).astype(F32)
    rois = np.array([[0.5, 0.5, 3.5, 4.0], [2.0, 1.0, 2.2, 1.1],
                     [1.0, 0.0, 4.75, 4.75]], F32)
    batch = np.array([0, 0, 0], np.int64)
    nodes, inits = [], []
    qdq_out(nodes, inits, "x", "xd", 0.0625, 0, np.int8)
    nodes.append(helper.make_node("RoiAlign", ["xd", "rois", "batch"], ["y"],
                                  output_height=2, output_width=2,
                                  sampling_ratio=1))
    xd = (np.clip(np.round(x / F32(0.0625)), -128, 127) * F32(0.0625)).astype(F32)
    y = ort_roi_align(xd, rois, batch, 2, 2, 1, 1.0, "avg", False)
    m = model(nodes, [tin("x", list(x.shape)), tin("rois", [3, 4]),
                      tin("batch", [3], TensorProto.INT64)],
              [tin("y", list(y.shape))], inits, opset=10)
    return m, {"x": x, "rois": rois, "batch": batch}, {
        "y": ("approx", y, 6e-6 * (1 + np.abs(y)))}


def case_legacy_broadcast():
    """Binary ops before opset 7 (old Caffe2 conversions): B broadcasts only
    with broadcast = 1, its dimensions aligned with A's from `axis` on (a
    bias of C values added along the channels, not along W), by default
    the trailing ones; without broadcast the shapes are equal. Opset 6
    (before QuantizeLinear). Against numpy with B reshaped as the opset-6
    definition says."""
    r = rng(188)
    x = r.uniform(-2, 2, (1, 3, 4, 4)).astype(F32)
    bias_c = np.array([10, 20, 30], F32)
    bias_h = np.array([1, 2, 3, 4], F32)
    tail = r.uniform(-1, 1, (4, 4)).astype(F32)
    same = r.uniform(1, 2, (1, 3, 4, 4)).astype(F32)
    N = helper.make_node
    nodes = [N("Add", ["x", "bias_c"], ["y_add_c"], broadcast=1, axis=1),
             N("Mul", ["x", "bias_h"], ["y_mul_h"], broadcast=1, axis=2),
             N("Sub", ["x", "tail"], ["y_sub_tail"], broadcast=1),
             N("Div", ["x", "same"], ["y_div"])]
    inits = [init("bias_c", bias_c), init("bias_h", bias_h), init("tail", tail)]
    want = {"y_add_c": x + bias_c.reshape(1, 3, 1, 1),
            "y_mul_h": x * bias_h.reshape(1, 1, 4, 1),
            "y_sub_tail": x - tail,
            "y_div": x / same}
    m = model(nodes, [tin("x", [1, 3, 4, 4]), tin("same", [1, 3, 4, 4])],
              [tin(k, [1, 3, 4, 4]) for k in want], inits, opset=6)
    return m, {"x": x, "same": same}, {
        k: ("approx", v.astype(F32), 1e-6 * (1 + np.abs(v)) + 6e-6 * np.abs(v))
        for k, v in want.items()}


def case_softmax_legacy_axis():
    """Softmax and LogSoftmax before opset 13 over an axis that is not the
    last: ONNX then flattens the input to 2-D at the axis and normalizes
    each row of the flattened input (Softmax-11 axis 1 of 2 x 3 x 4
    normalizes over 12 values, not 3). Opset 11, against numpy in float64
    (exp and log in f32 within 1e-6)."""
    r = rng(189)
    x = r.uniform(-3, 3, (2, 3, 4)).astype(F32)
    nodes = [helper.make_node("Softmax", ["x"], ["y_soft"], axis=1),
             helper.make_node("LogSoftmax", ["x"], ["y_log"], axis=0)]

    def flat_softmax(v, axis, log):
        rows = v.reshape(int(np.prod(v.shape[:axis])), -1).astype(np.float64)
        shifted = rows - rows.max(axis=1, keepdims=True)
        lse = np.log(np.exp(shifted).sum(axis=1, keepdims=True))
        out = shifted - lse if log else np.exp(shifted - lse)
        return out.reshape(v.shape)
    want = {"y_soft": flat_softmax(x, 1, False), "y_log": flat_softmax(x, 0, True)}
    m = model(nodes, [tin("x", [2, 3, 4])], [tin(k, [2, 3, 4]) for k in want],
              [], opset=11)
    return m, {"x": x}, {k: ("approx", v.astype(F32), 1e-6 + 6e-6 * np.abs(v))
                         for k, v in want.items()}


def case_bool_input():
    """A boolean graph input (a key-padding mask as torch exports it): an
    i1 tensor argument, read by Where (masked_fill), Not / And with a
    computed mask and Cast to float. Against numpy."""
    r = rng(190)
    x = r.uniform(-2, 2, (2, 5)).astype(F32)
    mask = r.random((2, 5)) < 0.5
    N = helper.make_node
    nodes = [N("Where", ["mask", "x", "neg"], ["y_fill"]),
             N("Greater", ["x", "zero"], ["pos"]),
             N("Not", ["mask"], ["keep"]),
             N("And", ["keep", "pos"], ["both"]),
             N("Cast", ["both"], ["y_both"], to=TensorProto.FLOAT),
             N("Cast", ["mask"], ["y_mask"], to=TensorProto.FLOAT)]
    inits = [init("neg", np.float32(-1e4)), init("zero", np.float32(0))]
    want = {"y_fill": np.where(mask, x, F32(-1e4)),
            "y_both": ((~mask) & (x > 0)).astype(F32),
            "y_mask": mask.astype(F32)}
    m = model(nodes, [tin("x", [2, 5]), tin("mask", [2, 5], TensorProto.BOOL)],
              [tin(k, [2, 5]) for k in want], inits)
    return m, {"x": x, "mask": mask}, {  # tolerance: the printed six digits
        k: ("approx", v.astype(F32), 6e-6 * np.abs(v)) for k, v in want.items()}


def case_gemm_general():
    """Gemm outside the fused form, as the MatMul, Mul and Add it stands
    for: a quantized A and weights with C of [M, N] (one value per
    element) and of [M, 1] (one per row: with M = N it must not be read as
    one per column), then Q; a float Gemm with transA, alpha and beta.
    Values on power-of-two grids, so every product and sum is exact in
    f32 and the expected codes are exact."""
    r = rng(191)
    M, K, N = 4, 6, 4
    a = (r.integers(-8, 8, (M, K)) * 0.125).astype(F32)
    wq = r.integers(-6, 6, (K, N)).astype(np.int8)
    c_mn = (r.integers(-16, 16, (M, N)) / 32).astype(F32)
    c_m1 = (r.integers(-16, 16, (M, 1)) / 32).astype(F32)
    at = (r.integers(-8, 8, (K, M)) * 0.5).astype(F32)
    bf = (r.integers(-8, 8, (K, N)) * 0.25).astype(F32)
    cf = (r.integers(-8, 8, (M, 1)) * 0.5).astype(F32)
    N_ = helper.make_node
    nodes, inits = [], [init("wq", wq), init("ws", F32(0.25)),
                        init("wz", np.int8(0)), init("c_mn", c_mn),
                        init("c_m1", c_m1), init("bf", bf), init("cf", cf)]
    qdq(nodes, inits, "a", 0.125, 0, np.int8)
    nodes += [N_("DequantizeLinear", ["wq", "ws", "wz"], ["wd"]),
              N_("Gemm", ["ad", "wd", "c_mn"], ["g_mn"]),
              N_("Gemm", ["ad", "wd", "c_m1"], ["g_m1"]),
              N_("Gemm", ["at", "bf", "cf"], ["y_float"], transA=1, alpha=0.5,
                 beta=2.0)]
    qdq_out(nodes, inits, "g_mn", "y_mn", 0.0625, 0, np.int8)
    qdq_out(nodes, inits, "g_m1", "y_m1", 0.0625, 0, np.int8)
    prod = a @ (wq.astype(F32) * F32(0.25))
    want_mn = quantize(prod + c_mn, 0.0625, 0, np.int8)
    want_m1 = quantize(prod + c_m1, 0.0625, 0, np.int8)
    y_float = (F32(0.5) * (at.T @ bf) + F32(2.0) * cf).astype(F32)
    m = model(nodes, [tin("a", [M, K]), tin("at", [K, M])],
              [tin("y_mn", [M, N]), tin("y_m1", [M, N]), tin("y_float", [M, N])],
              inits)
    return m, {"a": a, "at": at}, {
        "y_mn": ("codes", want_mn, 0.0625, 0),
        "y_m1": ("codes", want_m1, 0.0625, 0),
        "y_float": ("approx", y_float, 6e-6 * np.abs(y_float))}


def case_float_bias_coarse():
    """A QDQ Conv and Gemm whose bias is a float initializer, where the
    int32 bias at S_X * S_W (S_X = 1: an input whose range collapsed) would
    move the result by more than half an output step (S_Y = 0.001): the
    contraction and the float bias in f32, quantized once, as the QDQ
    graph defines them. Far from ties; against float64."""
    x = np.array([0, 1, -1, 2, 3, 0, -2, 1], F32).reshape(1, 2, 2, 2)
    w = np.array([1, 2, -3, 4, 5, -6, 7, 8], np.int8).reshape(4, 2, 1, 1)
    bias = np.array([0.0513, -0.0377, 0.0219, 0.0971], F32)
    a = np.array([[1, -2], [0, 3]], F32)
    wg = np.array([[2, -1, 3], [1, 4, -2]], np.int8)
    bg = np.array([0.0123, -0.0456, 0.0789], F32)
    N = helper.make_node
    nodes, inits = [], [init("w", w), init("ws", F32(0.004)), init("wz", np.int8(0)),
                        init("bias", bias), init("wg", wg), init("bg", bg)]
    qdq(nodes, inits, "x", 1.0, 0, np.int8)
    qdq(nodes, inits, "a", 1.0, 0, np.int8)
    nodes += [N("DequantizeLinear", ["w", "ws", "wz"], ["wd"]),
              N("Conv", ["xd", "wd", "bias"], ["c"], kernel_shape=[1, 1]),
              N("DequantizeLinear", ["wg", "ws", "wz"], ["wgd"]),
              N("Gemm", ["ad", "wgd", "bg"], ["g"])]
    qdq_out(nodes, inits, "c", "y_conv", 0.001, 0, np.int8)
    qdq_out(nodes, inits, "g", "y_gemm", 0.001, 0, np.int8)
    wr = w.astype(np.float64) * float(F32(0.004))
    conv = np.einsum("nchw,oc->nohw", x.astype(np.float64), wr[:, :, 0, 0]) + \
        bias.astype(np.float64).reshape(1, 4, 1, 1)
    gemm = a.astype(np.float64) @ (wg.astype(np.float64) * float(F32(0.004))) + bg
    q = lambda v: np.clip(np.rint(v / float(F32(0.001))), -128, 127).astype(np.int64)
    m = model(nodes, [tin("x", [1, 2, 2, 2]), tin("a", [2, 2])],
              [tin("y_conv", [1, 4, 2, 2]), tin("y_gemm", [2, 3])], inits)
    return m, {"x": x, "a": a}, {"y_conv": ("codes", q(conv), 0.001, 0),
                                 "y_gemm": ("codes", q(gemm), 0.001, 0)}


def case_selection_ops():
    """Ops whose result depends on which elements are set, over
    compile-time masks and indices: ScatterElements along axis 0 (run-time
    updates, a duplicate index: the later update wins) and along axis 1
    (negative indices, constant updates); NonZero of a constant mask as
    Gather indices (after Squeeze); Compress along axis 1 and, without an
    axis, of the flattened input with a condition shorter than it."""
    r = rng(94)
    x = (r.integers(-8, 8, (3, 4)) / 4).astype(F32)
    u = (r.integers(-8, 8, (2, 4)) / 4).astype(F32)
    idx0 = np.array([[1, 0, 2, 1], [1, 2, 0, 0]], np.int64)
    idx1 = np.array([[-1, 0], [2, -4], [1, 1]], np.int64)
    u1 = np.array([[3.0, -3.0], [2.5, -2.5], [1.0, 1.5]], F32)
    mask = np.array([0, 1, 0, 1], np.int64)
    keep = np.array([True, False, True, True])
    keep_flat = np.array([False, True, True, False, False, True])
    nodes = [helper.make_node("ScatterElements", ["x", "idx0", "u"], ["s0"],
                              axis=0),
             helper.make_node("ScatterElements", ["x", "idx1", "u1"], ["s1"],
                              axis=1),
             helper.make_node("NonZero", ["mask"], ["nz"]),
             helper.make_node("Squeeze", ["nz", "zero1"], ["cols"]),
             helper.make_node("Gather", ["x", "cols"], ["g"], axis=1),
             helper.make_node("Compress", ["x", "keep"], ["c1"], axis=1),
             helper.make_node("Compress", ["x", "keep_flat"], ["c2"])]
    inits = [init("idx0", idx0), init("idx1", idx1), init("u1", u1),
             init("mask", mask), init("zero1", np.array([0], np.int64)),
             init("keep", keep), init("keep_flat", keep_flat)]
    s = 0.25
    for src, name in (("s0", "y0"), ("s1", "y1"), ("g", "y2"), ("c1", "y3"),
                      ("c2", "y4")):
        qdq_out(nodes, inits, src, name, s, 0, np.int8)
    s0 = scatter_elements_ref(x, idx0, u, 0)
    s1 = scatter_elements_ref(x, idx1, u1, 1)
    g = x[:, np.nonzero(mask)[0]]
    c1 = np.compress(keep, x, axis=1)
    c2 = np.compress(keep_flat, x)
    m = model(nodes, [tin("x", [3, 4]), tin("u", [2, 4])],
              [tin("y0", [3, 4]), tin("y1", [3, 4]), tin("y2", [3, 2]),
               tin("y3", [3, 3]), tin("y4", [3])], inits)
    return m, {"x": x, "u": u}, {
        name: ("codes", quantize(v, s, 0, np.int8), s, 0)
        for name, v in (("y0", s0), ("y1", s1), ("y2", g), ("y3", c1),
                        ("y4", c2))}


def case_scatter_opset10():
    """Scatter, ScatterElements' name before opset 11."""
    x = np.arange(6, dtype=F32).reshape(2, 3) / 4
    idx = np.array([[2, 0]], np.int64)
    u = np.array([[-1.0, -2.0]], F32)
    nodes = [helper.make_node("Scatter", ["x", "idx", "u"], ["s"], axis=1)]
    inits = [init("idx", idx), init("u", u)]
    qdq_out(nodes, inits, "s", "y", 0.25, 0, np.int8)
    m = model(nodes, [tin("x", [2, 3])], [tin("y", [2, 3])], inits, opset=10)
    want = scatter_elements_ref(x, idx, u, 1)
    return m, {"x": x}, {"y": ("codes", quantize(want, 0.25, 0, np.int8),
                               0.25, 0)}


def case_bad_compress_runtime():
    nodes = [helper.make_node("Greater", ["x", "zero"], ["pos"]),
             helper.make_node("Compress", ["x", "pos"], ["y"], name="norm")]
    return model(nodes, [tin("x", [4])], [tin("y", [4])],
                 [init("zero", F32(0))]), {}, {}


def f32_sum(values):
    """Sum of f32 values in index order, in f32."""
    acc = F32(0)
    for v in np.asarray(values, F32).reshape(-1):
        acc = F32(acc + v)
    return acc


def case_composed_ops():
    """Ops imported as the nodes they are defined by: MeanVarianceNormalization
    (ONNX's function body: axes 0, 2, 3); LpNormalization p = 2 along axis 1
    and p = 1 along axis 0 (ONNX Runtime's kernel: a zero norm gives zeros,
    values divided by the largest magnitude first, so 3e30 and 4e30 do not
    overflow); Hardmax along the last axis (the first maximum wins a tie);
    GlobalLpPool with p = 2 and p = 3; ReverseSequence (time axis 0, batch
    axis 1). The numpy models follow the same definitions, in f32, sums in
    index order."""
    r = rng(95)
    x = (r.integers(-8, 8, (2, 3, 2, 2)) / 4).astype(F32)
    m = np.array([[3e30, 4e30, 0, 0], [0, 0, 0, 0], [1, -2, 2, 0.5]], F32)
    h = (r.integers(-3, 3, (2, 3, 4)) / 2).astype(F32)
    h[0, 0] = [1.0, 2.0, 2.0, -1.0]  # a tie
    sq = (r.integers(-8, 8, (4, 2, 3)) / 4).astype(F32)
    nodes = [helper.make_node("MeanVarianceNormalization", ["x"], ["mvn"]),
             helper.make_node("LpNormalization", ["m"], ["l2"], axis=1, p=2),
             helper.make_node("LpNormalization", ["m"], ["l1"], axis=0, p=1),
             helper.make_node("Hardmax", ["h"], ["hm"]),
             helper.make_node("GlobalLpPool", ["x"], ["gp2"]),
             helper.make_node("GlobalLpPool", ["x"], ["gp3"], p=3),
             helper.make_node("ReverseSequence", ["sq", "lens"], ["rev"],
                              time_axis=0, batch_axis=1)]
    inits = [init("lens", np.array([4, 2], np.int64))]
    outs = (("mvn", "y0", 1 / 32), ("l2", "y1", 1 / 64), ("l1", "y2", 1 / 64),
            ("hm", "y3", 1.0), ("gp2", "y4", 1 / 16), ("gp3", "y5", 1 / 16),
            ("rev", "y6", 0.25))
    for src, name, s in outs:
        qdq_out(nodes, inits, src, name, s, 0, np.int8)

    # MeanVarianceNormalization: ONNX's function body.
    count = F32(2 * 2 * 2)
    mean = np.zeros((1, 3, 1, 1), F32)
    mean_sq = np.zeros((1, 3, 1, 1), F32)
    for c in range(3):
        mean[0, c] = F32(f32_sum(x[:, c]) / count)
        mean_sq[0, c] = F32(f32_sum(x[:, c] * x[:, c]) / count)
    std = np.sqrt(mean_sq - mean * mean)
    mvn = (x - mean) / (std + F32(1e-9))

    def lp(a, p):
        out = np.zeros_like(a)
        for i, row in enumerate(a):
            scale = np.max(np.abs(row))
            if scale == 0:
                continue
            y = row / scale
            n = f32_sum(np.abs(y)) if p == 1 else np.sqrt(f32_sum(y * y))
            out[i] = y / n
        return out

    l2 = lp(m, 2)
    l1 = lp(m.T, 1).T
    hm = np.zeros_like(h)
    for pos in np.ndindex(*h.shape[:-1]):
        hm[pos + (int(np.argmax(h[pos])),)] = 1
    gp2 = np.zeros((2, 3, 1, 1), F32)
    gp3 = np.zeros((2, 3, 1, 1), F32)
    for n_, c in np.ndindex(2, 3):
        v = x[n_, c]
        gp2[n_, c] = np.sqrt(f32_sum(v * v))
        gp3[n_, c] = np.power(f32_sum(np.power(np.abs(v), F32(3))),
                              F32(1.0 / 3.0))
    rev = sq.copy()
    for b, n_ in enumerate([4, 2]):
        rev[:n_, b] = sq[:n_, b][::-1]
    model_ = model(nodes, [tin("x", [2, 3, 2, 2]), tin("m", [3, 4]),
                           tin("h", [2, 3, 4]), tin("sq", [4, 2, 3])],
                   [tin(name, list(v.shape)) for (_, name, _), v in
                    zip(outs, (mvn, l2, l1, hm, gp2, gp3, rev))], inits)
    return model_, {"x": x, "m": m, "h": h, "sq": sq}, {
        name: ("codes", quantize(v, s, 0, np.int8), s, 0)
        for (_, name, s), v in zip(outs, (mvn, l2, l1, hm, gp2, gp3, rev))}


def case_hardmax_opset11():
    """Hardmax before opset 13: over the input flattened to 2-D at axis 1."""
    h = np.array([[[1, 5], [2, 5], [0, -1]], [[3, 3], [-1, 0], [3, 2]]], F32)
    nodes = [helper.make_node("Hardmax", ["h"], ["hm"], axis=1)]
    inits = []
    qdq_out(nodes, inits, "hm", "y", 1.0, 0, np.int8)
    m = model(nodes, [tin("h", [2, 3, 2])], [tin("y", [2, 3, 2])], inits,
              opset=11)
    flat = h.reshape(2, 6)
    want = np.zeros_like(flat)
    want[np.arange(2), np.argmax(flat, axis=1)] = 1
    return m, {"h": h}, {"y": ("codes", want.reshape(2, 3, 2).astype(np.int64),
                               1.0, 0)}


def case_bad_reverse_sequence_lens():
    nodes = [helper.make_node("ReverseSequence", ["x", "lens"], ["y"],
                              name="norm")]
    return model(nodes, [tin("x", [3, 2]), tin("lens", [2], TensorProto.INT64)],
                 [tin("y", [3, 2])], []), {}, {}


def case_bad_lp_normalization_p():
    nodes = [helper.make_node("LpNormalization", ["x"], ["y"], p=3,
                              name="norm")]
    return model(nodes, [tin("x", [3, 2])], [tin("y", [3, 2])], []), {}, {}


def group_norm_ref(x, groups, scale_c, bias_c, eps):
    """ONNX's GroupNormalization function body in f32, sums in index order."""
    n_, c = x.shape[:2]
    g = x.reshape(n_, groups, -1)
    out = np.zeros_like(g)
    count = F32(g.shape[2])
    for i, j in np.ndindex(n_, groups):
        mean = F32(f32_sum(g[i, j]) / count)
        d = g[i, j] - mean
        var = F32(f32_sum(d * d) / count)
        out[i, j] = d / np.sqrt(var + F32(eps))
    shape = [c] + [1] * (x.ndim - 2)
    return (out.reshape(x.shape) * scale_c.reshape(shape) +
            bias_c.reshape(shape))


def case_opset18_ops():
    """A model of opset 18, newer than this ONNX's checker: the importer
    checks it with the ops whose schema changed since opset 17 left to
    itself. ReduceMean with axes as an input, Split by num_outputs (5 into
    3 + 2), Mish, and GroupNormalization-18 (scale and bias per group)."""
    r = rng(96)
    x = (r.integers(-8, 8, (2, 5)) / 4).astype(F32)
    g = (r.integers(-8, 8, (2, 4, 2, 2)) / 4).astype(F32)
    gs = np.array([1.5, -0.5], F32)
    gb = np.array([0.25, -1.0], F32)
    nodes = [helper.make_node("ReduceMean", ["x", "axes"], ["mean"]),
             helper.make_node("Split", ["x"], ["p0", "p1"], axis=1,
                              num_outputs=2),
             helper.make_node("Mish", ["x"], ["mish"]),
             helper.make_node("GroupNormalization", ["g", "gs", "gb"], ["gn"],
                              num_groups=2)]
    inits = [init("axes", np.array([1], np.int64)), init("gs", gs),
             init("gb", gb)]
    outs = (("mean", "y0", 1 / 16), ("p0", "y1", 0.25), ("p1", "y2", 0.25),
            ("mish", "y3", 1 / 16), ("gn", "y4", 1 / 16))
    for src, name, sc in outs:
        qdq_out(nodes, inits, src, name, sc, 0, np.int8)
    mean = np.array([[f32_sum(row) / F32(5)] for row in x], F32)
    sp = np.where(x > 0, x + np.log1p(np.exp(-x)), np.log1p(np.exp(x)))
    mish = x * np.tanh(sp)
    gn = group_norm_ref(g, 2, np.repeat(gs, 2), np.repeat(gb, 2), 1e-5)
    values = (mean, x[:, :3], x[:, 3:], mish, gn)
    m = model(nodes, [tin("x", [2, 5]), tin("g", [2, 4, 2, 2])],
              [tin(name, list(v.shape)) for (_, name, _), v in
               zip(outs, values)], inits, opset=18)
    return m, {"x": x, "g": g}, {
        name: ("codes", quantize(v, sc, 0, np.int8), sc, 0)
        for (_, name, sc), v in zip(outs, values)}


def case_opset21_ops():
    """Opset 21: GroupNormalization with a scale and bias per channel, and
    Gelu (opset 20) exact and with the tanh approximation."""
    r = rng(97)
    g = (r.integers(-8, 8, (1, 4, 3)) / 4).astype(F32)
    gs = np.array([1.0, -2.0, 0.5, 1.5], F32)
    gb = np.array([0.0, 0.5, -0.25, 1.0], F32)
    x = (r.integers(-12, 12, (2, 6)) / 4).astype(F32)
    nodes = [helper.make_node("GroupNormalization", ["g", "gs", "gb"], ["gn"],
                              num_groups=2, epsilon=1e-3),
             helper.make_node("Gelu", ["x"], ["gelu"]),
             helper.make_node("Gelu", ["x"], ["gelu_tanh"],
                              approximate="tanh")]
    inits = [init("gs", gs), init("gb", gb)]
    outs = (("gn", "y0", 1 / 16), ("gelu", "y1", 1 / 32),
            ("gelu_tanh", "y2", 1 / 32))
    for src, name, sc in outs:
        qdq_out(nodes, inits, src, name, sc, 0, np.int8)
    gn = group_norm_ref(g, 2, gs, gb, 1e-3)
    xd = x.astype(np.float64)
    gelu = 0.5 * xd * (1 + np.vectorize(math.erf)(xd / math.sqrt(2)))
    gelu_tanh = 0.5 * xd * (1 + np.tanh(math.sqrt(2 / math.pi) *
                                         (xd + 0.044715 * xd ** 3)))
    values = (gn, gelu, gelu_tanh)
    m = model(nodes, [tin("g", [1, 4, 3]), tin("x", [2, 6])],
              [tin(name, list(v.shape)) for (_, name, _), v in
               zip(outs, values)], inits, opset=21)
    return m, {"g": g, "x": x}, {
        name: ("codes", quantize(np.asarray(v, F32), sc, 0, np.int8), sc, 0)
        for (_, name, sc), v in zip(outs, values)}


def case_bad_opset25():
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    return model(nodes, [tin("x", [2])], [tin("y", [2])], [], opset=25), {}, {}


def onnx_rotary(x, cos, sin, rotary, interleaved):
    """ONNX's RotaryEmbedding-23 (its reference, onnx/reference/ops/
    op_rotary_embedding.py) on x of B x N x S x H with per-position caches
    cos / sin of B x S x R/2: the first R channels rotated, the rest kept."""
    x = x.astype(np.float64)
    c = cos.astype(np.float64)[:, None]
    s_ = sin.astype(np.float64)[:, None]
    out = x.copy()
    rot = x[..., :rotary]
    if interleaved:
        x1, x2 = rot[..., 0::2], rot[..., 1::2]
        out[..., 0:rotary:2] = x1 * c - x2 * s_
        out[..., 1:rotary:2] = x2 * c + x1 * s_
    else:
        x1, x2 = rot[..., :rotary // 2], rot[..., rotary // 2:]
        out[..., :rotary // 2] = x1 * c - x2 * s_
        out[..., rotary // 2:rotary] = x2 * c + x1 * s_
    return out


def onnx_attention(q, k, v, mask=None, past_k=None, past_v=None, nonpad=None,
                   scale=None, causal=False, q_heads=None, kv_heads=None,
                   softcap=0.0):
    """ONNX's Attention (23, 24) in float64, from its definition: 3-D inputs
    split into heads; present = past ++ new; Q and K each times sqrt(scale);
    the mask (bool: True attends) padded to the keys as masked; causal: key
    j <= i + offset (the past's length, else nonpad[b] - S_q, else 0); keys
    j >= nonpad[b] masked; KV heads repeated h0, h0, h1, h1, ...; softcap
    before the mask; softmax; times V. Returns (Y, present_k, present_v)."""
    d = lambda a: a.astype(np.float64)
    three = q.ndim == 3
    if three:
        split = lambda a, h: d(a).reshape(a.shape[0], a.shape[1], h, -1).transpose(0, 2, 1, 3)
        q, k, v = split(q, q_heads), split(k, kv_heads), split(v, kv_heads)
    else:
        q, k, v = d(q), d(k), d(v)
    b, hq, sq, hd = q.shape
    if past_k is not None:
        k = np.concatenate([d(past_k), k], axis=2)
        v = np.concatenate([d(past_v), v], axis=2)
    pk, pv = k, v
    t = k.shape[2]
    bias = np.zeros((b, hq, sq, t))
    if mask is not None:
        m = mask
        pad = t - m.shape[-1]
        if m.dtype == np.bool_:
            m = np.where(m, 0.0, -np.inf)
        m = np.concatenate([d(m), np.full(m.shape[:-1] + (pad,), -np.inf)], axis=-1)
        bias = bias + m
    for bi in range(b):
        for i in range(sq):
            for j in range(t):
                if causal:
                    off = (past_k.shape[2] if past_k is not None else
                           (int(nonpad[bi]) - sq if nonpad is not None else 0))
                    if j > i + off:
                        bias[bi, :, i, j] = -np.inf
                if nonpad is not None and j >= nonpad[bi]:
                    bias[bi, :, i, j] = -np.inf
    reps = hq // k.shape[1]
    k, v = np.repeat(k, reps, axis=1), np.repeat(v, reps, axis=1)
    sc = np.sqrt(scale if scale is not None else 1 / np.sqrt(np.float32(hd)))
    qk = (q * sc) @ (k * sc).transpose(0, 1, 3, 2)
    if softcap > 0:
        qk = softcap * np.tanh(qk / softcap)
    qk = qk + bias
    e_ = np.exp(qk - qk.max(axis=-1, keepdims=True))
    y = (e_ / e_.sum(axis=-1, keepdims=True)) @ v
    if three:
        y = y.transpose(0, 2, 1, 3).reshape(b, sq, -1)
    return y, pk, pv


def case_onnx_attention():
    """ONNX's Attention (LlmOps.cpp) against onnx_attention: 4-D grouped
    (4 query heads over 2 kv heads) with a past of 2, causal, a float mask
    of S_q x T and softcap, with its present outputs; 3-D with a bool mask
    shorter than the keys (padded as masked) and a scale; opset 24's
    nonpad_kv_seqlen with causal over a static cache."""
    r = rng(142)
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    N = helper.make_node
    q, k, v = U(2, 4, 3, 8), U(2, 2, 3, 8), U(2, 2, 3, 6)
    pk, pv = U(2, 2, 2, 8), U(2, 2, 2, 6)
    fmask = U(3, 5)
    q3, k3, v3 = U(2, 3, 16), U(2, 4, 16), U(2, 4, 16)
    bmask = np.array([[[[True, False, True]]], [[[True, True, True]]]])
    qc, kc, vc = U(2, 2, 2, 8), U(2, 2, 6, 8), U(2, 2, 6, 8)
    nonpad = np.array([4, 6], np.int64)
    nodes = [
        N("Attention", ["q", "k", "v", "fmask", "pk", "pv"], ["a1", "a1_k", "a1_v"],
          is_causal=1, softcap=2.0),
        N("Attention", ["q3", "k3", "v3", "bmask"], ["a2"], q_num_heads=2,
          kv_num_heads=2, scale=0.3),
        N("Attention", ["qc", "kc", "vc", "", "", "", "nonpad"], ["a3"], is_causal=1),
    ]
    inputs = {"q": q, "k": k, "v": v, "pk": pk, "pv": pv, "fmask": fmask,
              "q3": q3, "k3": k3, "v3": v3, "qc": qc, "kc": kc, "vc": vc,
              "nonpad": nonpad}
    inits = [init("bmask", bmask)]
    a1 = onnx_attention(q, k, v, fmask, pk, pv, causal=True, softcap=2.0)
    a2 = onnx_attention(q3, k3, v3, bmask, scale=0.3, q_heads=2, kv_heads=2)
    a3 = onnx_attention(qc, kc, vc, nonpad=nonpad, causal=True)
    want = {"a1": approx(a1[0]), "a1_k": approx(a1[1]), "a1_v": approx(a1[2]),
            "a2": approx(a2[0]), "a3": approx(a3[0])}
    ins = [tin(name, list(a.shape), TensorProto.INT64 if a.dtype == np.int64 else
               TensorProto.FLOAT) for name, a in inputs.items()]
    outs = [tin(name, list(w[1].shape)) for name, w in want.items()]
    return model(nodes, ins, outs, inits, opset=24), inputs, want


def llm_bad(node, shapes, inits=()):
    return model([node], [tin(k, list(v)) for k, v in shapes],
                 [tin("y", list("abcd")[:len(shapes[0][1])])],
                 list(inits), opset=24), {}, {}


def case_bad_rms_stash():
    return llm_bad(helper.make_node("RMSNormalization", ["x", "g"], ["y"], name="rms",
                                    stash_type=11),
                   [("x", (2, 8))], [init("g", np.ones(8, F32))])


def case_bad_rms_scale():
    return llm_bad(helper.make_node("RMSNormalization", ["x", "g"], ["y"], name="rms"),
                   [("x", (2, 8))], [init("g", np.ones(3, F32))])


def case_bad_rope_heads():
    return llm_bad(helper.make_node("RotaryEmbedding", ["x", "c", "s", "p"], ["y"],
                                    name="rope"),
                   [("x", (1, 2, 16))],
                   [init("c", np.ones((4, 8), F32)), init("s", np.ones((4, 8), F32)),
                    init("p", np.zeros((1, 2), np.int64))])


def case_bad_rope_caches():
    return llm_bad(helper.make_node("RotaryEmbedding", ["x", "c", "s"], ["y"],
                                    name="rope"),
                   [("x", (1, 2, 3, 8))],
                   [init("c", np.ones((4, 4), F32)), init("s", np.ones((4, 4), F32))])


def case_bad_attention_qk():
    return llm_bad(helper.make_node("Attention", ["q", "k", "v"], ["y", "", "", "qk"],
                                    name="attn"),
                   [("q", (1, 2, 3, 8)), ("k", (1, 2, 3, 8)), ("v", (1, 2, 3, 8))])


def case_bad_attention_precision():
    return llm_bad(helper.make_node("Attention", ["q", "k", "v"], ["y"], name="attn",
                                    softmax_precision=10),
                   [("q", (1, 2, 3, 8)), ("k", (1, 2, 3, 8)), ("v", (1, 2, 3, 8))])


def case_bad_attention_heads():
    return llm_bad(helper.make_node("Attention", ["q", "k", "v"], ["y"], name="attn"),
                   [("q", (1, 3, 16)), ("k", (1, 3, 16)), ("v", (1, 3, 16))])


def case_swish_scalar():
    """Swish keeps a rank-0 input rank 0 (a [1] alpha made it [1])."""
    return model([helper.make_node("Swish", ["x"], ["y"], alpha=2.0)],
                 [tin("x", [])], [tin("y", [])], [], opset=24), {}, {}


def case_bad_swish_arity():
    return model([helper.make_node("Swish", ["x", "x"], ["y"], name="swish")],
                 [tin("x", [2])], [tin("y", [2])], [], opset=24), {}, {}


def case_bad_attention_mask_empty():
    """A compile-time mask of 0 keys (it divided by zero)."""
    return llm_bad(helper.make_node("Attention", ["q", "k", "v", "m"], ["y"],
                                    name="attn"),
                   [("q", (1, 2, 3, 8)), ("k", (1, 2, 3, 8)), ("v", (1, 2, 3, 8))],
                   [init("m", np.zeros((3, 0), F32))])


def case_opset24_llm_ops():
    """ONNX's own LLM ops (LlmOps.cpp) in an opset-24 model: RMSNormalization
    over the last axis and over the axes from 1 (a broadcast scale),
    RotaryEmbedding with position_ids (3-D input, interleaved) and without
    (4-D input, per-sequence caches, a partial rotary dim), Swish; and a QDQ
    MatMul, whose ops are older than the model's opset."""
    r = rng(141)
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    N = helper.make_node
    x = U(2, 3, 8)
    g1, g2 = U(8), U(1, 8)
    q3 = U(2, 3, 16)  # 2 heads of 8
    pos = np.array([[4, 0, 7], [1, 2, 3]], np.int64)
    ang = lambda rows, w: np.outer(np.arange(rows), 10000.0 ** (-np.arange(w) / w))
    cos10, sin10 = np.cos(ang(10, 4)).astype(F32), np.sin(ang(10, 4)).astype(F32)
    q4 = U(2, 2, 3, 8)  # B x N x S x H, rotary dim 4 of 8
    cb, sb = U(2, 3, 2), U(2, 3, 2)
    w = r.integers(-127, 128, (8, 5)).astype(np.int8)
    nodes = [
        N("RMSNormalization", ["x", "g1"], ["n1"], epsilon=1e-3),
        N("RMSNormalization", ["x", "g2"], ["n2"], axis=1),
        N("RotaryEmbedding", ["q3", "cos10", "sin10", "pos"], ["r1"], num_heads=2,
          interleaved=1),
        N("RotaryEmbedding", ["q4", "cb", "sb"], ["r2"], rotary_embedding_dim=4),
        N("Swish", ["x"], ["s1"], alpha=0.5),
        N("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        N("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
        N("DequantizeLinear", ["w", "w_s"], ["wd"]),
        N("MatMul", ["xd", "wd"], ["mm"]),
        N("QuantizeLinear", ["mm", "y_s", "y_z"], ["mq"]),
        N("DequantizeLinear", ["mq", "y_s", "y_z"], ["m1"]),
    ]
    inits = [init("g1", g1), init("g2", g2), init("cos10", cos10), init("sin10", sin10),
             init("w", w), init("w_s", F32(0.01)), init("x_s", F32(2 / 255)),
             init("x_z", np.uint8(128)), init("y_s", F32(0.05)), init("y_z", np.uint8(128))]
    xd = x.astype(np.float64)

    def rms(v, g, axes, eps):
        return v / np.sqrt((v * v).mean(axis=axes, keepdims=True) + eps) * g
    # Rotations: position_ids gather the caches' rows; 3-D input as heads.
    cpos, spos = cos10[pos], sin10[pos]
    r1 = onnx_rotary(q3.reshape(2, 3, 2, 8).transpose(0, 2, 1, 3), cpos, spos, 8,
                     True).transpose(0, 2, 1, 3).reshape(2, 3, 16)
    r2 = onnx_rotary(q4, cb, sb, 4, False)
    xq = quantize(x, 2 / 255, 128, np.uint8)
    acc = (xq - 128).reshape(6, 8) @ w.astype(np.int64)
    mcodes = requantize(acc, F32(2 / 255) * F32(0.01), 0.05, 128, np.uint8)
    want = {"n1": approx(rms(xd, g1, -1, 1e-3)),
            "n2": approx(rms(xd, g2, (1, 2), 1e-5)),
            "r1": approx(r1), "r2": approx(r2),
            "s1": approx(xd / (1 + np.exp(-0.5 * xd))),
            "m1": ("codes", mcodes.reshape(2, 3, 5), 0.05, 128)}
    inputs = {"x": x, "q3": q3, "pos": pos, "q4": q4, "cb": cb, "sb": sb}
    ins = [tin(k, list(v.shape), TensorProto.INT64 if v.dtype == np.int64 else
               TensorProto.FLOAT) for k, v in inputs.items()]
    outs = [tin(k, list(v[1].shape)) for k, v in want.items()]
    return model(nodes, ins, outs, inits, opset=24), inputs, want


def tensor_scatter_model(past, upd, w, axis, circular):
    """TensorScatter as ONNX Runtime's kernel (tensorscatter.cc) writes it:
    update position s of batch row b at w[b] + s (linear) or (w[b] + s) mod
    the cache length (circular). A run-time index the kernel rejects
    (negative; linear: w + L past the end) writes nothing here (quant-opt's
    documented rule: there is no run-time error)."""
    out = past.copy()
    view, uview = np.moveaxis(out, axis, 1), np.moveaxis(upd, axis, 1)
    C, L = past.shape[axis], upd.shape[axis]
    for b in range(past.shape[0]):
        wi = int(w[b])
        if wi < 0 or (not circular and wi + L > C):
            continue
        for j in range(L):
            view[b, (wi + j) % C if circular else wi + j] = uview[b, j]
    return out


def case_tensor_scatter():
    """TensorScatter (opset 24): linear and circular, run-time and
    compile-time write_indices, none (all 0), axis 1 and the default -2,
    run-time indices the kernel rejects, and a QDQ cache whose codes stay
    codes."""
    r = rng(143)
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    N = helper.make_node
    past4, upd4 = U(2, 2, 6, 3), U(2, 2, 2, 3)
    past3, upd3 = U(2, 5, 4), U(2, 3, 4)
    w_lin = np.array([1, 4], np.int64)
    w_circ = np.array([5, 7], np.int64)
    w_bad = np.array([5, -1], np.int64)
    w_const = np.array([0, 2], np.int64)
    nodes = [
        N("TensorScatter", ["past4", "upd4", "w_lin"], ["t1"]),
        N("TensorScatter", ["past4", "upd4", "w_circ"], ["t2"], mode="circular"),
        N("TensorScatter", ["past3", "upd3", "w_const"], ["t3"], axis=1),
        N("TensorScatter", ["past3", "upd3"], ["t4"], axis=-2, mode="linear"),
        N("TensorScatter", ["past4", "upd4", "w_bad"], ["t5"]),
        N("TensorScatter", ["past4", "upd4", "w_bad"], ["t6"], mode="circular"),
        N("QuantizeLinear", ["past4", "s", "z"], ["pq"]),
        N("DequantizeLinear", ["pq", "s", "z"], ["pd"]),
        N("QuantizeLinear", ["upd4", "s", "z"], ["uq"]),
        N("DequantizeLinear", ["uq", "s", "z"], ["ud"]),
        N("TensorScatter", ["pd", "ud", "w_circ"], ["tq"], mode="circular"),
        N("QuantizeLinear", ["tq", "s", "z"], ["tqq"]),
        N("DequantizeLinear", ["tqq", "s", "z"], ["t7"]),
    ]
    inits = [init("w_const", w_const), init("s", F32(2 / 255)), init("z", np.int8(3))]
    pq = quantize(past4, 2 / 255, 3, np.int8)
    uq = quantize(upd4, 2 / 255, 3, np.int8)
    want = {
        "t1": approx(tensor_scatter_model(past4, upd4, w_lin, 2, False)),
        "t2": approx(tensor_scatter_model(past4, upd4, w_circ, 2, True)),
        "t3": approx(tensor_scatter_model(past3, upd3, w_const, 1, False)),
        "t4": approx(tensor_scatter_model(past3, upd3, np.zeros(2, np.int64), 1,
                                          False)),
        "t5": approx(tensor_scatter_model(past4, upd4, w_bad, 2, False)),
        "t6": approx(tensor_scatter_model(past4, upd4, w_bad, 2, True)),
        "t7": ("codes", tensor_scatter_model(pq, uq, w_circ, 2, True), 2 / 255, 3),
    }
    inputs = {"past4": past4, "upd4": upd4, "past3": past3, "upd3": upd3,
              "w_lin": w_lin, "w_circ": w_circ, "w_bad": w_bad}
    ins = [tin(k, list(v.shape), TensorProto.INT64 if v.dtype == np.int64 else
               TensorProto.FLOAT) for k, v in inputs.items()]
    outs = [tin(k, list(v[1].shape)) for k, v in want.items()]
    return model(nodes, ins, outs, inits, opset=24), inputs, want


def case_tensor_scatter_ints():
    """TensorScatter of integers, as ONNX types them: an int8 cache given as
    codes (a graph input) with QuantizeLinear's int8 codes as the update, an
    int64 compile-time cache with a run-time update, two QuantizeLinear
    results of one type on different grids (codes moved as they are, then
    read on the DequantizeLinear's grid), and an empty update (the cache
    as it is)."""
    r = rng(153)
    N = helper.make_node
    c8 = r.integers(-128, 128, (2, 4, 3)).astype(np.int8)
    u = r.uniform(-1, 1, (2, 2, 3)).astype(F32)
    w = np.array([3, 1], np.int64)
    c64 = r.integers(-1000, 1000, (2, 4, 3)).astype(np.int64)
    u64 = r.integers(-5, 5, (2, 2, 3)).astype(np.int64)
    p = r.uniform(-1, 1, (2, 4, 3)).astype(F32)
    nodes = [
        N("QuantizeLinear", ["u", "s1", "z1"], ["uq"]),
        N("TensorScatter", ["c8", "uq", "w"], ["i1"], mode="circular"),
        N("TensorScatter", ["c64", "u64", "w"], ["i2"], mode="circular"),
        N("QuantizeLinear", ["p", "s2", "z2"], ["pq"]),
        N("TensorScatter", ["pq", "uq", "w"], ["tq"], mode="circular"),
        N("DequantizeLinear", ["tq", "s2", "z2"], ["d3"]),
        N("QuantizeLinear", ["d3", "s2", "z2"], ["d3q"]),
        N("DequantizeLinear", ["d3q", "s2", "z2"], ["i3"]),
        N("TensorScatter", ["p", "empty"], ["i4"], axis=1),
    ]
    inits = [init("s1", F32(0.02)), init("z1", np.int8(3)), init("s2", F32(0.05)),
             init("z2", np.int8(-2)), init("c64", c64),
             init("empty", np.zeros((2, 0, 3), F32))]
    uq = quantize(u, 0.02, 3, np.int8)
    pq = quantize(p, 0.05, -2, np.int8)
    want = {
        "i1": ("ints", tensor_scatter_model(c8.astype(np.int64), uq, w, 1, True)),
        "i2": ("ints", tensor_scatter_model(c64, u64, w, 1, True)),
        "i3": ("codes", tensor_scatter_model(pq, uq, w, 1, True), 0.05, -2),
        "i4": approx(p.astype(np.float64)),
    }
    inputs = {"c8": c8, "u": u, "w": w, "u64": u64, "p": p}
    types = {np.dtype(np.int8): TensorProto.INT8, np.dtype(np.int64): TensorProto.INT64,
             np.dtype(F32): TensorProto.FLOAT}
    ins = [tin(k, list(v.shape), types[v.dtype]) for k, v in inputs.items()]
    outs = [tin("i1", [2, 4, 3], TensorProto.INT8), tin("i2", [2, 4, 3], TensorProto.INT64),
            tin("i3", [2, 4, 3]), tin("i4", [2, 4, 3])]
    return model(nodes, ins, outs, inits, opset=24), inputs, want


def case_bad_tensor_scatter_types():
    """int8 and uint8 codes: ONNX types them apart."""
    N = helper.make_node
    return model([N("QuantizeLinear", ["p", "s", "z8"], ["pq"]),
                  N("QuantizeLinear", ["u", "s", "zu8"], ["uq"]),
                  N("TensorScatter", ["pq", "uq"], ["y"], name="ts")],
                 [tin("p", [2, 4, 3]), tin("u", [2, 2, 3])],
                 [tin("y", [2, 4, 3], TensorProto.INT8)],
                 [init("s", F32(0.1)), init("z8", np.int8(0)), init("zu8", np.uint8(0))],
                 opset=24), {}, {}


def case_bad_tensor_scatter_opset23():
    """An op of opset 24 in an opset-23 model."""
    return model([helper.make_node("TensorScatter", ["p", "u"], ["y"], name="ts")],
                 [tin("p", [2, 4, 3]), tin("u", [2, 2, 3])], [tin("y", [2, 4, 3])],
                 [], opset=23), {}, {}


def case_bad_undefined_input():
    """The checker's message names the node on a line of its own (opset 18:
    the case builder runs no checker there)."""
    return model([helper.make_node("Relu", ["nosuch"], ["y"], name="r")],
                 [tin("x", [2])], [tin("y", [2])], [], opset=18), {}, {}


def case_bad_tensor_scatter_axis():
    return llm_bad(helper.make_node("TensorScatter", ["p", "u"], ["y"], name="ts",
                                    axis=0),
                   [("p", (2, 6, 3)), ("u", (2, 6, 3))])


def case_bad_tensor_scatter_linear():
    """A compile-time write index whose update runs past the cache."""
    return llm_bad(helper.make_node("TensorScatter", ["p", "u", "w"], ["y"],
                                    name="ts"),
                   [("p", (2, 6, 3)), ("u", (2, 2, 3))],
                   [init("w", np.array([4, 5], np.int64))])


def case_bad_tensor_scatter_shape():
    return llm_bad(helper.make_node("TensorScatter", ["p", "u"], ["y"], name="ts",
                                    mode="circular"),
                   [("p", (2, 6, 3)), ("u", (2, 2, 4))])


def case_bad_tensor_scatter_mode():
    return llm_bad(helper.make_node("TensorScatter", ["p", "u"], ["y"], name="ts",
                                    mode="ring"),
                   [("p", (2, 6, 3)), ("u", (2, 2, 3))])


def int4_init(name, codes, unsigned=False, int32_data=False):
    """An INT4 (22) / UINT4 (21) initializer, which ONNX 1.12's helpers do
    not write: two elements to a byte, the first in the low nibble, in
    raw_data or one byte per int32_data element."""
    t = onnx.TensorProto()
    t.name = name
    t.data_type = 21 if unsigned else 22
    t.dims.extend(codes.shape)
    flat = np.asarray(codes, np.int64).flatten()
    nib = (flat & 0xF).astype(np.uint8)
    if nib.size % 2:
        nib = np.append(nib, np.uint8(0))
    packed = nib[0::2] | (nib[1::2] << 4)
    if int32_data:
        t.int32_data.extend(int(b) for b in packed)
    else:
        t.raw_data = packed.astype(np.uint8).tobytes()
    return t


def case_int4_weights():
    """4-bit weights (opset 21): DequantizeLinear of INT4 / UINT4 constants
    is read as 8-bit codes with the same values, so the integer kernels take
    them exactly: an int4 MatMul weight per column (raw_data, odd count),
    a uint4 one with per-column uint4 zero points (int32_data), an int4
    Conv filter per output channel. Against the integer model."""
    r = rng(149)
    x_s, x_z = 2.0 / 255, 128
    x = r.uniform(-1, 1, (3, 5)).astype(F32)
    w1 = r.integers(-8, 8, (5, 3))
    w1_s = np.array([0.05, 0.1, 0.02], F32)
    w2 = r.integers(0, 16, (5, 4))
    w2_z = r.integers(0, 16, (4,))
    w2_s = np.array([0.03, 0.01, 0.04, 0.02], F32)
    xc = r.uniform(-1, 1, (1, 2, 4, 4)).astype(F32)
    w3 = r.integers(-8, 8, (3, 2, 3, 3))
    w3_s = np.array([0.02, 0.05, 0.03], F32)
    y_s, y_z = 0.05, 0
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    qdq(nodes, inits, "xc", x_s, x_z)
    nodes += [
        helper.make_node("DequantizeLinear", ["w1", "w1_s"], ["w1d"], axis=1),
        helper.make_node("MatMul", ["xd", "w1d"], ["m1"]),
        helper.make_node("DequantizeLinear", ["w2", "w2_s", "w2_z"], ["w2d"], axis=1),
        helper.make_node("MatMul", ["xd", "w2d"], ["m2"]),
        helper.make_node("DequantizeLinear", ["w3", "w3_s"], ["w3d"], axis=0),
        helper.make_node("Conv", ["xcd", "w3d"], ["c3"], pads=[1, 1, 1, 1]),
    ]
    w2_zt = int4_init("w2_z", w2_z, unsigned=True, int32_data=True)
    inits += [int4_init("w1", w1), init("w1_s", w1_s),
              int4_init("w2", w2, unsigned=True, int32_data=True), w2_zt,
              init("w2_s", w2_s), int4_init("w3", w3), init("w3_s", w3_s)]
    for name in ("m1", "m2", "c3"):
        qdq_out(nodes, inits, name, "y_" + name, y_s, y_z, np.int8)
    xq = quantize(x, x_s, x_z, np.uint8)
    xcq = quantize(xc, x_s, x_z, np.uint8)
    acc1 = (xq - x_z) @ w1
    acc2 = (xq - x_z) @ (w2 - w2_z)
    acc3 = conv_int(xcq, w3, x_z, 0, pads=(1, 1, 1, 1))
    want = {
        "y_m1": ("codes", requantize(acc1, F32(x_s) * w1_s, y_s, y_z, np.int8), y_s, y_z),
        "y_m2": ("codes", requantize(acc2, F32(x_s) * w2_s, y_s, y_z, np.int8), y_s, y_z),
        "y_c3": ("codes", requantize(acc3, F32(x_s) * w3_s, y_s, y_z, np.int8), y_s, y_z),
    }
    m = model(nodes, [tin("x", [3, 5]), tin("xc", [1, 2, 4, 4])],
              [tin(k, list(v[1].shape)) for k, v in want.items()], inits, opset=21)
    return m, {"x": x, "xc": xc}, want


def block_dequantize(q, s, z, axis, block):
    """ONNX's blocked DequantizeLinear: (q - z) * s of q's block along axis,
    the difference exact, the product in f32."""
    idx = np.arange(q.shape[axis]) // block
    sb = np.take(s, idx, axis=axis).astype(F32)
    zb = np.take(z, idx, axis=axis)
    return ((q - zb).astype(F32) * sb).astype(F32)


def case_block_dequantize():
    """Block quantization (opset 21's block_size): int4 MatMul weights in
    blocks of 16 along K with int4 zero points (ONNX Runtime's QDQ 4-bit
    MatMul, K = 40: a short last block), and int8 Gemm-style weights in
    blocks of 2 along N without zero points. Their real values are
    computed at import; the products are float MatMuls."""
    r = rng(151)
    x = r.uniform(-1, 1, (3, 40)).astype(F32)
    q1 = r.integers(-8, 8, (40, 6))
    s1 = r.uniform(0.01, 0.1, (3, 6)).astype(F32)
    z1 = r.integers(-2, 3, (3, 6))
    x2 = r.uniform(-1, 1, (2, 5)).astype(F32)
    q2 = r.integers(-128, 128, (5, 6))
    s2 = r.uniform(0.001, 0.01, (5, 3)).astype(F32)
    nodes = [
        helper.make_node("DequantizeLinear", ["q1", "s1", "z1"], ["w1"], axis=0,
                         block_size=16),
        helper.make_node("MatMul", ["x", "w1"], ["y1"]),
        helper.make_node("DequantizeLinear", ["q2", "s2"], ["w2"], axis=1,
                         block_size=2),
        helper.make_node("MatMul", ["x2", "w2"], ["y2"]),
    ]
    inits = [int4_init("q1", q1), init("s1", s1), int4_init("z1", z1),
             init("q2", q2, np.int8), init("s2", s2)]
    w1 = block_dequantize(q1, s1, z1, 0, 16).astype(np.float64)
    w2 = block_dequantize(q2, s2, np.zeros_like(s2, np.int64), 1, 2).astype(np.float64)
    want = {"y1": approx(x.astype(np.float64) @ w1),
            "y2": approx(x2.astype(np.float64) @ w2)}
    m = model(nodes, [tin("x", [3, 40]), tin("x2", [2, 5])],
              [tin(k, list(v[1].shape)) for k, v in want.items()], inits, opset=21)
    return m, {"x": x, "x2": x2}, want


def int4_bad(nodes, inits, shape=(2, 4), out_shape=(2, 4)):
    return model(nodes, [tin("x", list(shape))], [tin("y", list(out_shape))],
                 inits, opset=21), {}, {}


def case_bad_int4_quantize():
    """QuantizeLinear to int4 would produce codes outside [-8, 7]."""
    return int4_bad([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["y"],
                                      name="q")],
                    [init("s", F32(0.1)), int4_init("z", np.array(0))])


def case_bad_int4_zero_point_type():
    return int4_bad([helper.make_node("DequantizeLinear", ["w", "s", "z"], ["y"],
                                      name="dq")],
                    [int4_init("w", np.array([1, 2, 3])), init("s", F32(0.1)),
                     init("z", np.int8(0))], out_shape=(3,))


def case_bad_int4_cast():
    """Cast to 4 bits would need a clamp into [-8, 7] (it folded as an 8-bit
    cast: 100 stayed 100)."""
    return int4_bad([helper.make_node("Cast", ["c"], ["y"], name="cast", to=22)],
                    [init("c", np.array([100, -100, 3, 4], np.int64))],
                    out_shape=(4,))


def case_bad_int4_add():
    """Arithmetic on 4-bit constants (it folded to 8-bit values)."""
    return int4_bad([helper.make_node("Add", ["w", "w"], ["a"], name="add"),
                     helper.make_node("DequantizeLinear", ["a", "s"], ["y"])],
                    [int4_init("w", np.array([7, -8, 3, 4])), init("s", F32(0.5))],
                    out_shape=(4,))


def case_bad_int4_output():
    m = model([helper.make_node("Identity", ["w"], ["y"])], [tin("x", [2])],
              [tin("y", [4], 22)], [int4_init("w", np.array([1, 2, 3, 4]))],
              opset=21)
    return m, {}, {}


def case_bad_int4_both_fields():
    t = int4_init("w", np.array([1, 2, 3, 4]))
    t.int32_data.extend([0x21, 0x43])
    return int4_bad([helper.make_node("DequantizeLinear", ["w", "s"], ["y"],
                                      name="dq")], [t, init("s", F32(0.5))],
                    out_shape=(4,))


def case_int4_edge_blocks():
    """A block longer than any int64 sum (block_size 2^63 - 1: one block),
    and an empty int4 initializer (no data field at all)."""
    q = np.array([[1, -2, 3, -4], [5, 6, -7, -8]])
    s = np.array([[0.5, 0.25, 2.0, 1.0]], F32)
    empty = onnx.TensorProto()
    empty.name, empty.data_type = "e", 22
    empty.dims.extend([0, 4])
    nodes = [helper.make_node("DequantizeLinear", ["q", "s"], ["w"], axis=0,
                              block_size=(1 << 63) - 1),
             helper.make_node("MatMul", ["x", "w"], ["y"]),
             helper.make_node("DequantizeLinear", ["e", "se"], ["ed"], axis=1),
             helper.make_node("Concat", ["x0", "ed"], ["y2"], axis=0)]
    inits = [int4_init("q", q), init("s", s), empty,
             init("se", np.ones(4, F32))]
    x = np.array([[1.0, -1.0], [0.5, 2.0], [3.0, 0.0]], F32)
    x0 = np.array([[1.0, 2.0, 3.0, 4.0]], F32)
    w = (q * s).astype(np.float64)
    want = {"y": approx(x.astype(np.float64) @ w), "y2": approx(x0.astype(np.float64))}
    m = model(nodes, [tin("x", [3, 2]), tin("x0", [1, 4])],
              [tin("y", [3, 4]), tin("y2", [1, 4])], inits, opset=21)
    return m, {"x": x, "x0": x0}, want


def case_bad_block_scale_shape():
    return int4_bad([helper.make_node("DequantizeLinear", ["w", "s"], ["y"],
                                      name="dq", axis=0, block_size=4)],
                    [int4_init("w", np.zeros((10, 3), np.int64)),
                     init("s", np.ones((2, 3), F32))], out_shape=(10, 3))


def case_bad_block_runtime():
    return int4_bad([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"]),
                     helper.make_node("DequantizeLinear", ["xq", "s2"], ["y"],
                                      name="dq", axis=1, block_size=2)],
                    [init("s", F32(0.1)), init("z", np.int8(0)),
                     init("s2", np.ones((2, 2), F32))])


def case_bad_opset18_split():
    """Opset 18's Split node is left to the importer's own checks."""
    nodes = [helper.make_node("Split", ["x"], ["a", "b"], axis=1,
                              num_outputs=3, name="norm")]
    return model(nodes, [tin("x", [2, 6])], [tin("a", [2, 3]),
                                             tin("b", [2, 3])], [],
                 opset=18), {}, {}


def case_bad_opset18_relu_attr():
    """In a model of opset 18 the checker still verifies the ops whose
    schema did not change since 17."""
    nodes = [helper.make_node("Relu", ["x"], ["y"], bogus=1)]
    return model(nodes, [tin("x", [2])], [tin("y", [2])], [], opset=18), {}, {}


def case_bad_opset18_attr_type():
    """A mistyped attribute of an op the checker cannot verify at opset 18
    is diagnosed, not read as absent."""
    nodes = [helper.make_node("ReduceMean", ["x", "axes"], ["y"], keepdims=0.0,
                              name="norm")]
    return model(nodes, [tin("x", [2, 3])], [tin("y", [2])],
                 [init("axes", np.array([1], np.int64))], opset=18), {}, {}


def case_sequences():
    """Sequences of tensors, as scripted exports write Python lists: a list
    grown in a Loop (SequenceEmpty, SequenceInsert of x * (i + 1)), its
    length (SequenceLength), an element (SequenceAt -2), the list without
    its last element concatenated (SequenceErase, ConcatFromSequence along
    axis 0) and all of it stacked (new_axis = 1, axis 1);
    SplitToSequence into columns (keepdims = 0) and into chunks of 2 (a
    scalar split, the last chunk smaller), concatenated again;
    SequenceConstruct then SequenceAt."""
    x = (rng(98).integers(-8, 8, (2, 3)) / 4).astype(F32)
    body = graph("body", [
        helper.make_node("Cast", ["i"], ["fi"], to=TensorProto.FLOAT),
        helper.make_node("Add", ["fi", "one"], ["k"]),
        helper.make_node("Mul", ["x", "k"], ["t"]),
        helper.make_node("SequenceInsert", ["s", "t"], ["s_out"]),
        helper.make_node("Identity", ["c"], ["c_out"])],
        [tin("i", [], TensorProto.INT64), tin("c", [], TensorProto.BOOL),
         helper.make_tensor_sequence_value_info("s", TensorProto.FLOAT, None)],
        [tin("c_out", [], TensorProto.BOOL),
         helper.make_tensor_sequence_value_info("s_out", TensorProto.FLOAT,
                                                None)])
    nodes = [helper.make_node("SequenceEmpty", [], ["empty"],
                              dtype=TensorProto.FLOAT),
             helper.make_node("Loop", ["m", "yes", "empty"], ["seq"],
                              body=body),
             helper.make_node("SequenceLength", ["seq"], ["len"]),
             helper.make_node("Cast", ["len"], ["flen"], to=TensorProto.FLOAT),
             helper.make_node("Mul", ["x", "flen"], ["scaled"]),
             helper.make_node("SequenceAt", ["seq", "minus2"], ["at"]),
             helper.make_node("SequenceErase", ["seq"], ["erased"]),
             helper.make_node("ConcatFromSequence", ["erased"], ["cat"],
                              axis=0),
             helper.make_node("ConcatFromSequence", ["seq"], ["stack"],
                              axis=1, new_axis=1),
             helper.make_node("SplitToSequence", ["x"], ["cols"], axis=1,
                              keepdims=0),
             helper.make_node("ConcatFromSequence", ["cols"], ["flat"],
                              axis=0),
             helper.make_node("SplitToSequence", ["x", "two"], ["chunks"],
                              axis=1),
             helper.make_node("ConcatFromSequence", ["chunks"], ["again"],
                              axis=1),
             helper.make_node("SequenceConstruct", ["x", "scaled"], ["pair"]),
             helper.make_node("SequenceAt", ["pair", "one_i"], ["second"])]
    inits = [init("m", np.int64(3)), init("yes", np.array(True)),
             init("one", F32(1)), init("minus2", np.int64(-2)),
             init("two", np.int64(2)), init("one_i", np.int64(1))]
    parts = [x * F32(k) for k in (1, 2, 3)]
    values = (x * 3, parts[1], np.concatenate(parts[:2], axis=0),
              np.stack(parts, axis=1), x.T.reshape(-1), x, x * 3)
    names = ("scaled", "at", "cat", "stack", "flat", "again", "second")
    outs = [(src, "y%d" % k, 0.25) for k, src in enumerate(names)]
    for src, name, sc in outs:
        qdq_out(nodes, inits, src, name, sc, 0, np.int8)
    m = model(nodes, [tin("x", [2, 3])],
              [tin(name, list(v.shape)) for (_, name, _), v in
               zip(outs, values)], inits)
    return m, {"x": x}, {
        name: ("codes", quantize(v, sc, 0, np.int8), sc, 0)
        for (_, name, sc), v in zip(outs, values)}


def case_bad_sequence_output():
    nodes = [helper.make_node("SequenceConstruct", ["x", "x"], ["s"]),
             helper.make_node("Relu", ["s"], ["y"], name="norm")]
    return model(nodes, [tin("x", [2])], [tin("y", [2])], []), {}, {}


def case_where_integers():
    """Where on a run-time mask between integers, in their own type:
    position ids that keep the padding id (1) where the token is padding
    and count from 10 elsewhere (int64, Hugging Face's masked ids), and an
    int32 choice between two constants."""
    ids = np.array([[5, 1, 7, 1, 0], [1, 1, 2, 3, 4]], np.int64)
    nodes = [helper.make_node("Equal", ["ids", "pad"], ["is_pad"]),
             helper.make_node("Add", ["ids", "ten"], ["shifted"]),
             helper.make_node("Where", ["is_pad", "pad", "shifted"], ["pos"]),
             helper.make_node("Where", ["is_pad", "a", "b"], ["pick"])]
    inits = [init("pad", np.int64(1)), init("ten", np.int64(10)),
             init("a", np.array([-7, 8, -9, 10, 11], np.int32)),
             init("b", np.int32(3))]
    m = model(nodes, [tin("ids", [2, 5], TensorProto.INT64)],
              [tin("pos", [2, 5], TensorProto.INT64),
               tin("pick", [2, 5], TensorProto.INT32)], inits)
    is_pad = ids == 1
    pos = np.where(is_pad, 1, ids + 10).astype(np.int64)
    pick = np.where(is_pad, np.array([-7, 8, -9, 10, 11], np.int32),
                    np.int32(3)).astype(np.int32)
    return m, {"ids": ids}, {"pos": ("ints", pos), "pick": ("ints", pick)}


def case_bad_one_hot_huge():
    """2^32 indices x depth 2: the result's element count is diagnosed (the
    indices alone are a valid input)."""
    nodes = [helper.make_node("OneHot", ["idx", "depth", "vals"], ["y"],
                              name="norm")]
    inits = [init("depth", np.array([2], np.int64)),
             init("vals", np.array([0.0, 1.0], np.float32))]
    return model(nodes, [tin("idx", [65536, 65536], TensorProto.INT64)],
                 [tin("y", [65536, 65536, 2])], inits), {}, {}


def case_bad_gather_elements_index():
    return bad_op17("GatherElements", ("xd", "idx"),
                    extra=[init("idx", np.array([[0, 4, 1, 2]], np.int64))],
                    axis=1)


def case_int_div_mod():
    """Div and Mod of run-time integers by compile-time divisors: Div
    toward zero, Mod with fmod = 0 taking the divisor's sign (Python's %)
    and with fmod = 1 the dividend's (C's %); the int64 minimum divided by
    -1 wraps around (0 - x; remainder 0), which C leaves undefined. Mod of
    f32 with fmod = 1 is C's fmod. Mod of two constants (7 mod -3 = -2)
    folds at import and is added to the ids."""
    lo = np.iinfo(np.int64).min
    ids = np.array([[7, -7, 7, -7], [lo, lo, 13, -13]], np.int64)
    dv = np.array([3, -1, -2, 5], np.int64)
    small = np.array([5, -5, 0, 9], np.int32)
    f = np.array([5.5, -5.5, 0.625, -0.0, 3.0, -1.25], F32)
    nodes = [helper.make_node("Div", ["ids", "dv"], ["q"]),
             helper.make_node("Mod", ["ids", "dv"], ["m0"]),
             helper.make_node("Mod", ["ids", "dv"], ["m1"], fmod=1),
             helper.make_node("Div", ["small", "two"], ["h"]),
             helper.make_node("Mod", ["f", "quarter3"], ["fm"], fmod=1),
             helper.make_node("Mod", ["seven", "mthree"], ["k"]),
             helper.make_node("Add", ["ids", "k"], ["shifted"])]
    inits = [init("dv", dv), init("two", np.int32(2)),
             init("quarter3", F32(0.75)), init("seven", np.int64(7)),
             init("mthree", np.int64(-3))]
    m = model(nodes, [tin("ids", [2, 4], TensorProto.INT64),
                      tin("small", [4], TensorProto.INT32), tin("f", [6])],
              [tin("q", [2, 4], TensorProto.INT64), tin("m0", [2, 4], TensorProto.INT64),
               tin("m1", [2, 4], TensorProto.INT64), tin("h", [4], TensorProto.INT32),
               tin("fm", [6]), tin("shifted", [2, 4], TensorProto.INT64)], inits)

    def wrap(v):
        return (v + (1 << 63)) % (1 << 64) - (1 << 63)

    def tdiv(x, y):
        q = abs(x) // abs(y)
        return wrap(q if (x < 0) == (y < 0) else -q)

    def cmod(x, y):
        return wrap(x - y * tdiv(x, y)) if y != -1 else 0

    def pymod(x, y):
        return x % y

    pairs = [(int(x), int(y)) for x, y in zip(ids.reshape(-1), np.tile(dv, 2))]
    grid = lambda fn: np.array([fn(x, y) for x, y in pairs], np.int64).reshape(2, 4)
    return m, {"ids": ids, "small": small, "f": f}, {
        "q": ("int", grid(tdiv)), "m0": ("int", grid(pymod)),
        "m1": ("int", grid(cmod)),
        "h": ("int", np.array([tdiv(int(v), 2) for v in small], np.int64)),
        "fm": ("float", np.fmod(f, F32(0.75))),
        "shifted": ("int", np.array([[wrap(int(v) - 2) for v in row] for row in ids], np.int64))}


def case_int_reduce():
    """ReduceSum / ReduceProd / ReduceMax / ReduceMin of integers in their
    element type: an int64 attention mask summed per row (then - 1 and
    Cast to int32: GroupQueryAttention's seqlens_k as ONNX Runtime's model
    builder computes it); int8 sums that wrap around (100 + 100 = -56);
    uint8 Max / Min compared unsigned (200 > 100); int32 Max / Min over
    two axes, keepdims; a ReduceProd of the input's compile-time shape
    slice (folded) added to the row sums; a ReduceSum of int32 constants
    over axis 0 (folded). Against Python's integer arithmetic."""
    r = rng(151)
    mask = (r.integers(0, 4, (3, 6)) > 0).astype(np.int64)
    i8 = np.array([[100, 100, 5], [-128, -1, 7]], np.int8)
    u8 = np.array([[200, 100, 3], [0, 255, 17]], np.uint8)
    i32 = r.integers(-1000, 1000, (2, 3, 4)).astype(np.int32)
    cst = np.array([[1, 2, 3], [40, 50, 60]], np.int32)
    N = helper.make_node
    nodes = [
        N("ReduceSum", ["mask", "ax1"], ["rows"], keepdims=0),
        N("Sub", ["rows", "one"], ["rows1"]),
        N("Cast", ["rows1"], ["seqlens"], to=TensorProto.INT32),
        N("ReduceSum", ["i8", "ax1"], ["s8"], keepdims=1),
        N("ReduceMax", ["u8"], ["mx8"], axes=[1], keepdims=0),
        N("ReduceMin", ["u8"], ["mn8"], axes=[0], keepdims=0),
        N("ReduceMax", ["i32"], ["mx32"], axes=[0, 2], keepdims=1),
        N("ReduceMin", ["i32"], ["mn32"], axes=[1, 2], keepdims=0),
        N("Shape", ["mask"], ["shp"]),
        N("ReduceProd", ["shp"], ["count"], keepdims=0),
        N("Add", ["rows", "count"], ["rows_plus"]),
        N("ReduceSum", ["cst", "ax0"], ["csum"], keepdims=0),
    ]
    inits = [init("ax1", np.array([1], np.int64)),
             init("ax0", np.array([0], np.int64)),
             init("one", np.array(1, np.int64)), init("cst", cst)]
    I64, I32 = TensorProto.INT64, TensorProto.INT32
    m = model(nodes, [tin("mask", [3, 6], I64), tin("i8", [2, 3], TensorProto.INT8),
                      tin("u8", [2, 3], TensorProto.UINT8),
                      tin("i32", [2, 3, 4], I32)],
              [tin("seqlens", [3], I32), tin("s8", [2, 1], TensorProto.INT8),
               tin("mx8", [2], TensorProto.UINT8), tin("mn8", [3], TensorProto.UINT8),
               tin("mx32", [1, 3, 1], I32), tin("mn32", [2], I32),
               tin("rows_plus", [3], I64), tin("csum", [3], I32)], inits)
    wrap8 = lambda v: (v + 128) % 256 - 128
    rows = [int(sum(int(v) for v in row)) for row in mask]
    want = {
        "seqlens": np.array([x - 1 for x in rows], np.int64),
        "s8": np.array([[wrap8(sum(int(v) for v in row))] for row in i8], np.int64),
        # uint8 (the driver prints bytes signed; compare reads them mod 256)
        "mx8": np.array([max(int(v) for v in row) for row in u8], np.uint8),
        "mn8": np.array([min(int(u8[0, c]), int(u8[1, c])) for c in range(3)],
                        np.uint8),
        "mx32": np.array([[[max(int(i32[a, b, c]) for a in range(2) for c in range(4))]
                           for b in range(3)]], np.int64),
        "mn32": np.array([min(int(v) for v in i32[a].reshape(-1)) for a in range(2)],
                         np.int64),
        "rows_plus": np.array([x + 18 for x in rows], np.int64),
        "csum": np.array([int(cst[0, c]) + int(cst[1, c]) for c in range(3)], np.int64),
    }
    return m, {"mask": mask, "i8": i8, "u8": u8, "i32": i32}, {
        k: ("int", v) for k, v in want.items()}


def case_bad_int_reduce_mean():
    nodes = [helper.make_node("ReduceMean", ["x"], ["y"], name="mean",
                              axes=[1], keepdims=0)]
    return model(nodes, [tin("x", [2, 3], TensorProto.INT64)],
                 [tin("y", [2], TensorProto.INT64)], []), {}, {}


def ort_max_pool_indices(x, kernel, strides, pads, dilations, one_dim=False):
    """ONNX Runtime's MaxPool Indices, loop by loop: each window scanned row
    by row from the lowest float, a strictly larger element taking over;
    positions outside the input skipped; where nothing exceeds the lowest
    float the kernel's row and column stay -1, so the index is c H W - W - 1
    (1-D: c L - 1) for the window's plane c = n C + c. pads = (top, left,
    bottom, right)."""
    n_, c_, h, w = x.shape
    oh = (h + pads[0] + pads[2] - ((kernel[0] - 1) * dilations[0] + 1)) // strides[0] + 1
    ow = (w + pads[1] + pads[3] - ((kernel[1] - 1) * dilations[1] + 1)) // strides[1] + 1
    out = np.full((n_, c_, oh, ow), -1, np.int64)
    lowest = np.finfo(np.float32).min
    for n in range(n_):
        for c in range(c_):
            for i in range(oh):
                for j in range(ow):
                    best, at = lowest, None
                    for kh in range(kernel[0]):
                        r = i * strides[0] - pads[0] + kh * dilations[0]
                        if not 0 <= r < h:
                            continue
                        for kw in range(kernel[1]):
                            q = j * strides[1] - pads[1] + kw * dilations[1]
                            if 0 <= q < w and x[n, c, r, q] > best:
                                best, at = x[n, c, r, q], ((n * c_ + c) * h + r) * w + q
                    plane = n * c_ + c
                    if at is None:
                        at = plane * w - 1 if one_dim else plane * h * w - w - 1
                    out[n, c, i, j] = at
    return out


def case_max_pool_indices():
    """MaxPool's Indices output (SegNet): float input with padding, strides,
    dilations, ties (the first maximum wins), -inf and NaN entries and a
    window of only -inf (the kernel's row and column -1: plane H W - W - 1);
    the same on dequantized codes (QDQ); a 1-D MaxPool with padding and an
    all -inf window (plane L - 1). Against a loop by loop model of ONNX
    Runtime's kernel."""
    r = rng(157)
    x = r.integers(-3, 4, (2, 3, 6, 7)).astype(F32)  # small ints: many ties
    x[0, 0, 0, :3] = -np.inf
    x[0, 0, 1, :3] = -np.inf
    x[1, 2, 3, 3] = np.nan
    xq = r.uniform(-1, 1, (1, 2, 5, 5)).astype(F32)
    x1 = r.integers(-2, 3, (2, 2, 9)).astype(F32)
    x1[1, 1, :2] = -np.inf  # a 1-D window of only -inf
    N = helper.make_node
    nodes = [
        N("MaxPool", ["x"], ["y", "idx"], kernel_shape=[2, 3], strides=[2, 2],
          pads=[1, 1, 0, 1]),
        N("MaxPool", ["x"], ["y_d", "idx_d"], kernel_shape=[2, 2],
          dilations=[2, 2], strides=[1, 2]),
        N("QuantizeLinear", ["xq", "s", "z"], ["xq_q"]),
        N("DequantizeLinear", ["xq_q", "s", "z"], ["xq_dq"]),
        N("MaxPool", ["xq_dq"], ["yq", "idx_q"], kernel_shape=[3, 3],
          strides=[2, 2], pads=[1, 1, 1, 1]),
        N("MaxPool", ["x1"], ["y1", "idx_1d"], kernel_shape=[3], strides=[2],
          pads=[1, 1]),
    ]
    inits = [init("s", np.array(0.05, F32)), init("z", np.array(3, np.uint8))]
    idx = ort_max_pool_indices(x, [2, 3], [2, 2], [1, 1, 0, 1], [1, 1])
    idx_d = ort_max_pool_indices(x, [2, 2], [1, 2], [0, 0, 0, 0], [2, 2])
    codes = np.clip(np.round(xq / F32(0.05)) + 3, 0, 255)
    idx_q = ort_max_pool_indices((codes - 3).astype(F32), [3, 3], [2, 2],
                                 [1, 1, 1, 1], [1, 1])
    idx_1d = ort_max_pool_indices(x1[:, :, None, :], [1, 3], [1, 2],
                                  [0, 1, 0, 1], [1, 1], one_dim=True)[:, :, 0, :]
    I64 = TensorProto.INT64
    m = model(nodes, [tin("x", list(x.shape)), tin("xq", list(xq.shape)),
                      tin("x1", list(x1.shape))],
              [tin("idx", list(idx.shape), I64), tin("idx_d", list(idx_d.shape), I64),
               tin("idx_q", list(idx_q.shape), I64),
               tin("idx_1d", list(idx_1d.shape), I64)], inits)
    return m, {"x": x, "xq": xq, "x1": x1}, {
        "idx": ("int", idx), "idx_d": ("int", idx_d), "idx_q": ("int", idx_q),
        "idx_1d": ("int", idx_1d)}


def ort_max_pool3d_indices(x, kernel, strides, pads, dilations, ceil=False):
    """ONNX Runtime's MaxPool3DTask Indices, loop by loop: each window
    scanned along D, then H, then W from the lowest float, a strictly
    larger element taking over; positions outside the input skipped; where
    nothing wins d, h and w stay -1, so the index is c D H W - H W - W - 1
    for the window's plane c = n C + c. pads = (d, h, w begins, then
    ends)."""
    n_, c_ = x.shape[:2]
    size = x.shape[2:]
    outs = []
    for a in range(3):
        span = size[a] + pads[a] + pads[a + 3] - ((kernel[a] - 1) * dilations[a] + 1)
        outs.append((-(-span // strides[a]) if ceil else span // strides[a]) + 1)
    out = np.full((n_, c_) + tuple(outs), -1, np.int64)
    lowest = np.finfo(np.float32).min
    for n in range(n_):
        for c in range(c_):
            for o in np.ndindex(*outs):
                best, at = lowest, None
                for k in np.ndindex(*kernel):
                    pos = [o[a] * strides[a] - pads[a] + k[a] * dilations[a]
                           for a in range(3)]
                    if all(0 <= pos[a] < size[a] for a in range(3)):
                        v = x[n, c, pos[0], pos[1], pos[2]]
                        if v > best:
                            best = v
                            at = (((n * c_ + c) * size[0] + pos[0]) * size[1]
                                  + pos[1]) * size[2] + pos[2]
                if at is None:
                    plane = n * c_ + c
                    at = (plane * size[0] * size[1] * size[2] - size[1] * size[2]
                          - size[2] - 1)
                out[(n, c) + o] = at
    return out


def case_max_pool3d_indices():
    """A 3-D MaxPool's Indices output (V-Net / 3-D SegNet encoders), then
    MaxUnpool back: float input with padding, strides, ties (the first
    maximum in D, H, W order wins: small integers), -inf and NaN entries
    and a window of only -inf (d = h = w = -1: plane D H W - H W - W - 1);
    dilations with ceil_mode; on dequantized codes (QDQ). Against a loop
    by loop model of ONNX Runtime's MaxPool3DTask."""
    r = rng(183)
    x = r.integers(-3, 4, (2, 2, 4, 5, 5)).astype(F32)
    x[0, 0, :2, :3, :3] = -np.inf  # the first windows: only -inf
    x[1, 1, 2, 3, 3] = np.nan
    xq = r.uniform(-1, 1, (1, 2, 3, 4, 4)).astype(F32)
    # Unpooled: finite values (a window of only -inf has an index outside
    # the input, which MaxUnpool refuses in ONNX Runtime).
    xu = r.integers(-3, 4, (2, 2, 4, 5, 5)).astype(F32)
    N = helper.make_node
    nodes = [
        N("MaxPool", ["x"], ["y", "idx"], kernel_shape=[2, 2, 3],
          strides=[2, 2, 2], pads=[1, 1, 0, 0, 0, 1]),
        N("MaxPool", ["x"], ["y_c", "idx_c"], kernel_shape=[2, 2, 2],
          dilations=[1, 2, 1], strides=[2, 1, 2], ceil_mode=1),
        N("QuantizeLinear", ["xq", "s", "z"], ["xq_q"]),
        N("DequantizeLinear", ["xq_q", "s", "z"], ["xq_dq"]),
        N("MaxPool", ["xq_dq"], ["yq", "idx_q"], kernel_shape=[3, 3, 3],
          strides=[1, 2, 2], pads=[1, 1, 1, 1, 1, 1]),
        N("MaxPool", ["xu"], ["y_u", "idx_u"], kernel_shape=[2, 2, 2],
          strides=[2, 2, 2]),
        N("MaxUnpool", ["y_u", "idx_u", "x_shape"], ["unpooled"],
          kernel_shape=[2, 2, 2], strides=[2, 2, 2]),
    ]
    inits = [init("s", np.array(0.05, F32)), init("z", np.array(3, np.uint8)),
             init("x_shape", np.array(x.shape, np.int64))]
    idx = ort_max_pool3d_indices(x, [2, 2, 3], [2, 2, 2], [1, 1, 0, 0, 0, 1],
                                 [1, 1, 1])
    idx_c = ort_max_pool3d_indices(x, [2, 2, 2], [2, 1, 2], [0] * 6, [1, 2, 1],
                                   ceil=True)
    codes = np.clip(np.round(xq / F32(0.05)) + 3, 0, 255)
    idx_q = ort_max_pool3d_indices((codes - 3).astype(F32), [3, 3, 3],
                                   [1, 2, 2], [1] * 6, [1, 1, 1])
    idx_u = ort_max_pool3d_indices(xu, [2, 2, 2], [2, 2, 2], [0] * 6, [1, 1, 1])
    # MaxUnpool to the input's shape: zeros, each window's max written at
    # its index (the input's element there).
    flat = xu.reshape(-1)
    unpooled = ort_max_unpool(flat[idx_u.reshape(-1)], idx_u, xu.shape)
    I64 = TensorProto.INT64
    m = model(nodes, [tin("x", list(x.shape)), tin("xq", list(xq.shape)),
                      tin("xu", list(xu.shape))],
              [tin("idx", list(idx.shape), I64),
               tin("idx_c", list(idx_c.shape), I64),
               tin("idx_q", list(idx_q.shape), I64),
               tin("unpooled", list(unpooled.shape))], inits)
    return m, {"x": x, "xq": xq, "xu": xu}, {
        "idx": ("int", idx), "idx_c": ("int", idx_c), "idx_q": ("int", idx_q),
        "unpooled": ("approx", unpooled.astype(F32),
                     np.zeros(unpooled.shape))}


def ort_max_unpool(x, idx, shape):
    """ONNX Runtime's MaxUnpool: zeros, then Y[I[i]] = X[i] in order."""
    y = np.zeros(int(np.prod(shape)))
    for v, i in zip(np.asarray(x, np.float64).reshape(-1), idx.reshape(-1)):
        y[i] = v
    return y.reshape(shape)


def case_max_unpool():
    """SegNet's pool / unpool pair: MaxPool (2 x 2, stride 2) with Indices,
    then MaxUnpool back to the input's size (the default shape), and with
    an output_shape one larger (7 x 9, as after an odd input); MaxUnpool of
    given indices with a repeated index (the later write wins) on 1-D
    data; the pair on dequantized codes (QDQ: the zeros are real zeros). Against ONNX Runtime's loop Y[I[i]] = X[i]."""
    r = rng(163)
    x = r.uniform(-2, 2, (1, 2, 6, 8)).astype(F32)
    v = np.array([[[1.5, -2.0, 3.25]]], F32)
    vi = np.array([[[4, 1, 4]]], np.int64)
    N = helper.make_node
    nodes = [
        N("MaxPool", ["x"], ["p", "i"], kernel_shape=[2, 2], strides=[2, 2]),
        N("MaxUnpool", ["p", "i"], ["u"], kernel_shape=[2, 2], strides=[2, 2]),
        N("MaxUnpool", ["p", "i", "big"], ["u_big"], kernel_shape=[2, 2],
          strides=[2, 2]),
        N("MaxUnpool", ["v", "vi"], ["u1"], kernel_shape=[2], strides=[2]),
        N("QuantizeLinear", ["x", "s", "z"], ["xq"]),
        N("DequantizeLinear", ["xq", "s", "z"], ["xdq"]),
        N("MaxPool", ["xdq"], ["pq", "iq"], kernel_shape=[2, 2], strides=[2, 2]),
        N("MaxUnpool", ["pq", "iq"], ["u_q"], kernel_shape=[2, 2],
          strides=[2, 2]),
    ]
    inits = [init("big", np.array([1, 2, 7, 9], np.int64)), init("vi", vi),
             init("s", np.array(0.02, F32)), init("z", np.array(128, np.uint8))]
    p = x.reshape(1, 2, 3, 2, 4, 2).max(axis=(3, 5))
    idx = ort_max_pool_indices(x, [2, 2], [2, 2], [0, 0, 0, 0], [1, 1])
    m = model(nodes, [tin("x", list(x.shape)), tin("v", [1, 1, 3])],
              [tin("u", [1, 2, 6, 8]), tin("u_big", [1, 2, 7, 9]),
               tin("u1", [1, 1, 6]), tin("u_q", [1, 2, 6, 8])], inits)
    xr = ((np.clip(np.round(x / F32(0.02)) + 128, 0, 255) - 128) *
          np.float64(F32(0.02)))
    pr = xr.reshape(1, 2, 3, 2, 4, 2).max(axis=(3, 5))
    idx_q = ort_max_pool_indices(xr, [2, 2], [2, 2], [0, 0, 0, 0], [1, 1])
    return m, {"x": x, "v": v}, {
        "u": approx(ort_max_unpool(p, idx, (1, 2, 6, 8))),
        "u_big": approx(ort_max_unpool(p, idx, (1, 2, 7, 9))),
        "u1": approx(ort_max_unpool(v, vi, (1, 1, 6))),
        "u_q": approx(ort_max_unpool(pr, idx_q, (1, 2, 6, 8)))}


def case_bad_max_unpool_indices():
    nodes = [helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="unpool",
                              kernel_shape=[2, 2])]
    return model(nodes, [tin("x", [1, 1, 2, 2])], [tin("y", [1, 1, 3, 3])],
                 [init("i", np.zeros((1, 1, 2, 2), np.int32))]), {}, {}


def case_bad_max_unpool_shape():
    nodes = [helper.make_node("MaxUnpool", ["x", "i", "s"], ["y"], name="unpool",
                              kernel_shape=[2, 2])]
    return model(nodes, [tin("x", [1, 1, 2, 2])], [tin("y", [1, 2, 3, 3])],
                 [init("i", np.zeros((1, 1, 2, 2), np.int64)),
                  init("s", np.array([1, 2, 3, 3], np.int64))]), {}, {}


def case_bad_max_unpool_pads():
    nodes = [helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="unpool",
                              kernel_shape=[2, 2], strides=[2, 2],
                              pads=[(1 << 63) - 1] * 4)]
    return model(nodes, [tin("x", [1, 1, 2, 2])], [tin("y", [1, 1, 6, 6])],
                 [init("i", np.zeros((1, 1, 2, 2), np.int64))]), {}, {}


def case_bad_max_unpool_small_shape():
    nodes = [helper.make_node("MaxUnpool", ["x", "i", "s"], ["y"], name="unpool",
                              kernel_shape=[2, 2], strides=[2, 2])]
    return model(nodes, [tin("x", [1, 1, 2, 2])], [tin("y", [1, 1, 3, 3])],
                 [init("i", np.zeros((1, 1, 2, 2), np.int64)),
                  init("s", np.array([1, 1, 3, 3], np.int64))]), {}, {}


def case_bad_max_unpool_index():
    nodes = [helper.make_node("MaxUnpool", ["x", "i"], ["y"], name="unpool",
                              kernel_shape=[2, 2], strides=[2, 2])]
    return model(nodes, [tin("x", [1, 1, 2, 2])], [tin("y", [1, 1, 4, 4])],
                 [init("i", np.array([[[[0, 3], [-1, 9]]]], np.int64))]), {}, {}


def case_bit_ops():
    """BitShift (uint8, run-time values by constant and by run-time
    amounts, some of the width or more) and the opset-18 Bitwise ops on
    int32 and int8; BitwiseAnd of two int64 constants folds and is added to
    the ids. Expected values from numpy, whose shifts by the width or more
    give 0 (as ONNX's reference implementation, which uses them)."""
    x = np.array([[1, 200, 255, 17], [128, 3, 0, 96]], np.uint8)
    amounts = np.array([[0, 1, 7, 8], [9, 255, 2, 5]], np.uint8)
    k = np.array([3, 0, 1, 8], np.uint8)
    a = np.array([5, -6, 0x7FFFFFFF, -2147483648, 12345], np.int32)
    c = np.array([3, 10, -1, 1, -4096], np.int32)
    b8 = np.array([0, -1, 127, -128, 85, -86], np.int8)
    ids = np.array([10, -10, 1 << 40], np.int64)
    m1 = np.array([0x0F0F, -1, 255], np.int64)
    m2 = np.array([0x00FF, 0x1234, -256], np.int64)
    nodes = [helper.make_node("BitShift", ["x", "k"], ["left"], direction="LEFT"),
             helper.make_node("BitShift", ["x", "k"], ["right"], direction="RIGHT"),
             helper.make_node("BitShift", ["x", "amounts"], ["left_rt"],
                              direction="LEFT"),
             helper.make_node("BitShift", ["x", "amounts"], ["right_rt"],
                              direction="RIGHT"),
             helper.make_node("BitwiseAnd", ["a", "c"], ["and"]),
             helper.make_node("BitwiseOr", ["a", "c"], ["or"]),
             helper.make_node("BitwiseXor", ["a", "c"], ["xor"]),
             helper.make_node("BitwiseNot", ["b8"], ["not"]),
             helper.make_node("BitwiseAnd", ["m1", "m2"], ["mask"]),
             helper.make_node("Add", ["ids", "mask"], ["masked_ids"])]
    inits = [init("k", k), init("c", c), init("m1", m1), init("m2", m2)]
    U8, I32 = TensorProto.UINT8, TensorProto.INT32
    m = model(nodes, [tin("x", [2, 4], U8), tin("amounts", [2, 4], U8),
                      tin("a", [5], I32), tin("b8", [6], TensorProto.INT8),
                      tin("ids", [3], TensorProto.INT64)],
              [tin("left", [2, 4], U8), tin("right", [2, 4], U8),
               tin("left_rt", [2, 4], U8), tin("right_rt", [2, 4], U8),
               tin("and", [5], I32), tin("or", [5], I32), tin("xor", [5], I32),
               tin("not", [6], TensorProto.INT8),
               tin("masked_ids", [3], TensorProto.INT64)], inits, opset=18)
    return m, {"x": x, "amounts": amounts, "a": a, "b8": b8, "ids": ids}, {
        "left": ("int", np.left_shift(x, k)),
        "right": ("int", np.right_shift(x, k)),
        "left_rt": ("int", np.left_shift(x, amounts)),
        "right_rt": ("int", np.right_shift(x, amounts)),
        "and": ("int", np.bitwise_and(a, c)), "or": ("int", np.bitwise_or(a, c)),
        "xor": ("int", np.bitwise_xor(a, c)), "not": ("int", np.invert(b8)),
        "masked_ids": ("int", ids + np.bitwise_and(m1, m2))}


def case_windows():
    """HannWindow, HammingWindow and BlackmanWindow, periodic and
    symmetric, folded at import; one multiplies a run-time frame. Expected
    values: the ops' function bodies in ONNX's defs (opset 17) evaluated in
    float64, within approx()'s tolerance."""
    def window(kind, n, periodic):
        a0, a1, a2 = {"Hann": (0.5, 0.5, 0.0), "Hamming": (25 / 46, 21 / 46, 0.0),
                      "Blackman": (0.42, 0.5, 0.08)}[kind]
        span = n if periodic else n - 1
        x = np.arange(n) * (2 * np.pi / span)
        return a0 - a1 * np.cos(x) + a2 * np.cos(2 * x)
    cases = [("Hann", 8, 1), ("Hann", 7, 0), ("Hamming", 10, 1),
             ("Hamming", 5, 0), ("Blackman", 16, 1), ("Blackman", 9, 0)]
    nodes, inits, outs, expected = [], [], [], {}
    for k, (kind, n, periodic) in enumerate(cases):
        name = "w%d" % k
        inits.append(init("n%d" % k, np.int64(n) if k % 2 else np.int32(n)))
        nodes.append(helper.make_node(kind + "Window", ["n%d" % k], [name],
                                      periodic=periodic))
        outs.append(tin(name, [n]))
        expected[name] = approx(window(kind, n, periodic))
    frame = rng(41).standard_normal(8).astype(F32)
    nodes.append(helper.make_node("Mul", ["frame", "w0"], ["windowed"]))
    outs.append(tin("windowed", [8]))
    expected["windowed"] = approx(frame.astype(np.float64) * window("Hann", 8, 1))
    m = model(nodes, [tin("frame", [8])], outs, inits, opset=17)
    return m, {"frame": frame}, expected


def mel_weight_matrix(mels, dft, rate, lo, hi):
    """The MelWeightMatrix of ONNX's definition (its reference evaluator's
    steps), in float64."""
    bins = dft // 2 + 1
    mel = lambda hz: 2595 * np.log10(1 + hz / 700)
    step = (mel(hi) - mel(lo)) / (mels + 2)
    pts = np.arange(mels + 2) * step + mel(lo)
    corner = np.floor((dft + 1) * (700 * (10 ** (pts / 2595) - 1)) / rate)
    corner = corner.astype(np.int64)
    out = np.zeros((bins, mels))
    for i in range(mels):
        left, center, right = corner[i], corner[i + 1], corner[i + 2]
        if center == left:
            out[center, i] = 1
        else:
            for j in range(left, center + 1):
                out[j, i] = (j - left) / (center - left)
        for j in range(center, right):
            out[j, i] = (right - j) / (right - center)
    return out


def case_mel_weight_matrix():
    """MelWeightMatrix folded at import: ONNX's backend-test configuration
    (8 bands, dft_length 16, 8192 Hz, 0 to 4096 Hz) and a speech front end's
    (40 bands over the 257 bins of a 512-point DFT at 16 kHz, 20 to 7600
    Hz), the latter applied to a run-time power spectrum."""
    spec = rng(55).uniform(0, 4, (3, 257)).astype(F32)
    nodes = [helper.make_node("MelWeightMatrix", ["m8", "d16", "r8192", "lo0",
                                                  "hi4096"], ["small"]),
             helper.make_node("MelWeightMatrix", ["m40", "d512", "r16000",
                                                  "lo20", "hi7600"], ["speech"]),
             helper.make_node("MatMul", ["spec", "speech"], ["mel_spec"])]
    inits = [init("m8", np.int32(8)), init("d16", np.int32(16)),
             init("r8192", np.int32(8192)), init("lo0", F32(0)),
             init("hi4096", F32(4096)), init("m40", np.int64(40)),
             init("d512", np.int64(512)), init("r16000", np.int64(16000)),
             init("lo20", F32(20)), init("hi7600", F32(7600))]
    m = model(nodes, [tin("spec", [3, 257])],
              [tin("small", [9, 8]), tin("mel_spec", [3, 40])], inits, opset=17)
    small = mel_weight_matrix(8, 16, 8192, 0.0, 4096.0)
    speech = mel_weight_matrix(40, 512, 16000, 20.0, 7600.0)
    return m, {"spec": spec}, {
        "small": approx(small),
        "mel_spec": approx(spec.astype(np.float64) @ speech)}


def case_bad_mel_edges():
    nodes = [helper.make_node("MelWeightMatrix", ["m", "d", "r", "lo", "hi"],
                              ["y"], name="mel")]
    inits = [init("m", np.int64(8)), init("d", np.int64(16)),
             init("r", np.int64(8000)), init("lo", F32(0)), init("hi", F32(20000))]
    return model(nodes, [], [tin("y", [9, 8])], inits, opset=17), {}, {}


def case_bad_window_runtime_size():
    nodes = [helper.make_node("HannWindow", ["n"], ["y"], name="window")]
    return model(nodes, [tin("n", [], TensorProto.INT64)], [tin("y", [4])],
                 [], opset=17), {}, {}


def case_bad_window_huge():
    nodes = [helper.make_node("BlackmanWindow", ["n"], ["y"], name="window")]
    return model(nodes, [], [tin("y", [1 << 40])],
                 [init("n", np.int64(1 << 40))], opset=17), {}, {}


def complex_pairs(z):
    """A complex array as ONNX's [..., 2] (real, imaginary) pairs."""
    return np.stack([z.real, z.imag], axis=-1)


def case_signal_ops():
    """DFT of a real signal; of a real one zero-padded to dft_length 10,
    onesided; the inverse of a complex one; of a complex one along axis 2
    of four dimensions, cut to dft_length 4. STFT of a real signal with a
    Hann window from HannWindow (onesided), and of a complex one without a
    window (frame_length 8). Expected values: numpy's FFTs in float64."""
    r = rng(53)
    real = r.standard_normal((2, 8, 1)).astype(F32)
    cplx = r.standard_normal((2, 6, 2)).astype(F32)
    cplx4 = r.standard_normal((2, 3, 5, 2)).astype(F32)
    sig = r.standard_normal((1, 32, 1)).astype(F32)
    csig = r.standard_normal((1, 20, 2)).astype(F32)
    N = helper.make_node
    nodes = [N("DFT", ["real"], ["full"]),
             N("DFT", ["real", "ten"], ["half"], onesided=1),
             N("DFT", ["cplx"], ["inv"], inverse=1),
             N("DFT", ["cplx4", "four"], ["cut"], axis=2),
             N("HannWindow", ["sixteen"], ["hann"]),
             N("STFT", ["sig", "eight", "hann"], ["spec"]),
             N("STFT", ["csig", "four", "", "eight"], ["cspec"], onesided=0)]
    inits = [init("ten", np.int64(10)), init("four", np.int64(4)),
             init("sixteen", np.int64(16)), init("eight", np.int64(8))]
    m = model(nodes, [tin("real", [2, 8, 1]), tin("cplx", [2, 6, 2]),
                      tin("cplx4", [2, 3, 5, 2]), tin("sig", [1, 32, 1]),
                      tin("csig", [1, 20, 2])],
              [tin("full", [2, 8, 2]), tin("half", [2, 6, 2]),
               tin("inv", [2, 6, 2]), tin("cut", [2, 3, 4, 2]),
               tin("spec", [1, 3, 9, 2]), tin("cspec", [1, 4, 8, 2])],
              inits, opset=17)
    d = lambda a: a.astype(np.float64)
    z = lambda a: d(a[..., 0]) + 1j * d(a[..., 1])
    hann = 0.5 - 0.5 * np.cos(2 * np.pi * np.arange(16) / 16)
    frames = np.stack([d(sig[0, 8 * f:8 * f + 16, 0]) for f in range(3)])
    cframes = np.stack([z(csig[0, 4 * f:4 * f + 8]) for f in range(4)])
    want = {"full": complex_pairs(np.fft.fft(d(real[..., 0]), axis=1)),
            "half": complex_pairs(np.fft.rfft(d(real[..., 0]), n=10, axis=1)),
            "inv": complex_pairs(np.fft.ifft(z(cplx), axis=1)),
            "cut": complex_pairs(np.fft.fft(z(cplx4)[:, :, :4], axis=2)),
            "spec": complex_pairs(np.fft.rfft(frames * hann, axis=1))[None],
            "cspec": complex_pairs(np.fft.fft(cframes, axis=1))[None]}
    return m, {"real": real, "cplx": cplx, "cplx4": cplx4, "sig": sig,
               "csig": csig}, {k: approx(v) for k, v in want.items()}


def case_dft_opset20():
    """DFT-20 takes the axis as an input (default -2, the last signal
    axis): along axis 1 of [2, 4, 3, 1] given, and the default."""
    x = rng(54).standard_normal((2, 4, 3, 1)).astype(F32)
    nodes = [helper.make_node("DFT", ["x", "", "one"], ["a1"]),
             helper.make_node("DFT", ["x"], ["alast"], inverse=1)]
    m = model(nodes, [tin("x", [2, 4, 3, 1])],
              [tin("a1", [2, 4, 3, 2]), tin("alast", [2, 4, 3, 2])],
              [init("one", np.int64(1))], opset=20)
    xd = x[..., 0].astype(np.float64)
    return m, {"x": x}, {
        "a1": approx(complex_pairs(np.fft.fft(xd, axis=1))),
        "alast": approx(complex_pairs(np.fft.ifft(xd, axis=2)))}


def case_bad_dft_axis():
    nodes = [helper.make_node("DFT", ["x"], ["y"], name="dft", axis=2)]
    return model(nodes, [tin("x", [1, 4, 1])], [tin("y", [1, 4, 2])], [],
                 opset=17), {}, {}


def case_bad_dft_huge():
    nodes = [helper.make_node("DFT", ["x", "n"], ["y"], name="dft")]
    return model(nodes, [tin("x", [1, 4, 1])], [tin("y", [1, 1 << 40, 2])],
                 [init("n", np.int64(1 << 40))], opset=17), {}, {}


def case_bad_dft_matrix():
    nodes = [helper.make_node("DFT", ["c"], ["z"], name="dft")]
    return model(nodes, [tin("c", [1, 4096, 2])], [tin("z", [1, 4096, 2])],
                 [], opset=17), {}, {}


def case_bad_stft_frame():
    nodes = [helper.make_node("STFT", ["x", "step", "", "n"], ["y"],
                              name="stft")]
    return model(nodes, [tin("x", [1, 8, 1])], [tin("y", [1, 1, 9, 2])],
                 [init("step", np.int64(4)), init("n", np.int64(16))],
                 opset=17), {}, {}


def case_bad_bitshift_signed():
    nodes = [helper.make_node("BitShift", ["a", "a"], ["y"], name="shift",
                              direction="LEFT")]
    return model(nodes, [tin("a", [3], TensorProto.INT32)],
                 [tin("y", [3], TensorProto.INT32)], [], opset=18), {}, {}


def case_bad_bitshift_direction():
    nodes = [helper.make_node("BitShift", ["a", "a"], ["y"], name="shift",
                              direction="UP")]
    return model(nodes, [tin("a", [3], TensorProto.UINT8)],
                 [tin("y", [3], TensorProto.UINT8)], [], opset=18), {}, {}


def case_bad_bitwise_float():
    nodes = [helper.make_node("BitwiseXor", ["a", "a"], ["y"], name="xor")]
    return model(nodes, [tin("a", [3])], [tin("y", [3])], [], opset=18), {}, {}


def case_bad_int_div_runtime():
    nodes = [helper.make_node("Div", ["a", "b"], ["y"], name="div")]
    return model(nodes, [tin("a", [3], TensorProto.INT64), tin("b", [3], TensorProto.INT64)],
                 [tin("y", [3], TensorProto.INT64)], []), {}, {}


def case_bad_cumsum_axis():
    return bad_op17("CumSum", ("xd", "axis"), extra=[init("axis", np.int64(2))])


def case_bad_einsum_diagonal():
    return bad_op17("Einsum", ("xd",), x_shape=(4, 4), outputs=("y",),
                    equation="ii->i")


def case_bad_einsum_sizes():
    return bad_op17("Einsum", ("xd", "xd"), x_shape=(2, 4), equation="ij,jk->ik")


def case_bad_einsum_ellipsis():
    # The ellipses stand for (2) and (4): neither is 1, so they do not
    # broadcast.
    return bad_op17("Einsum", ("xd", "xd"), x_shape=(2, 4),
                    equation="...j,k...->...")


def case_bad_range_huge():
    return bad_op17("Range", ("s", "l", "d"), x_shape=(1,), extra=[
        init("s", np.int64(0)), init("l", np.int64(1 << 20)), init("d", np.int64(1))])


def case_bad_range_zero_delta():
    return bad_op17("Range", ("s", "l", "d"), x_shape=(1,), extra=[
        init("s", F32(0)), init("l", F32(1)), init("d", F32(0))])


def case_bad_reduce_mean_axes():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("ReduceMean", ["xd"], ["y"], name="rows",
                                  axes=[1, -1]))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 1])], inits), {}, {}


def case_shape_arithmetic():
    """Reshape to (N, C * H) computed in the graph, as torch writes
    x.view(x.size(0), -1) with sizes multiplied: Shape -> Gather -> Mul ->
    Unsqueeze -> Concat, all folded at import; and a float scale computed as
    Div of two constants, applied with Mul."""
    r = rng(27)
    x = r.uniform(-2, 2, (2, 3, 4)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    nodes += [helper.make_node("Shape", ["xd"], ["sh"]),
              helper.make_node("Gather", ["sh", "i0"], ["n"]),
              helper.make_node("Gather", ["sh", "i1"], ["c"]),
              helper.make_node("Gather", ["sh", "i2"], ["h"]),
              helper.make_node("Mul", ["c", "h"], ["ch"]),
              helper.make_node("Unsqueeze", ["n", "ax0"], ["n1"]),
              helper.make_node("Unsqueeze", ["ch", "ax0"], ["ch1"]),
              helper.make_node("Concat", ["n1", "ch1"], ["newshape"], axis=0),
              helper.make_node("Reshape", ["xd", "newshape"], ["flat"]),
              helper.make_node("Div", ["three", "four"], ["k"]),
              helper.make_node("Mul", ["flat", "k"], ["scaled"])]
    inits += [init("i0", np.int64(0)), init("i1", np.int64(1)), init("i2", np.int64(2)),
              init("ax0", np.array([0], np.int64)), init("three", F32(3)),
              init("four", F32(4))]
    qdq_out(nodes, inits, "flat", "y1", 0.05, 128)
    qdq_out(nodes, inits, "scaled", "y2", 0.05, 128)
    m = model(nodes, [tin("x", [2, 3, 4])], [tin("y1", [2, 12]), tin("y2", [2, 12])], inits)
    xq = quantize(x, 0.05, 128, np.uint8)
    xd = dequantize(xq, 0.05, 128)
    y2 = quantize((xd * F32(0.75)).astype(F32), 0.05, 128, np.uint8)
    return m, {"x": x}, {"y1": ("codes", xq.reshape(2, 12), 0.05, 128),
                         "y2": ("codes", y2.reshape(2, 12), 0.05, 128)}


def case_shape_division():
    """ShuffleNetV2's channel shuffle as torch exports it: the group size
    channels // groups is Shape -> Gather -> Div (int64) -> Unsqueeze ->
    Concat into a 5-D Reshape, a Transpose of the two channel axes, and a
    Reshape back; the integer Div folds at import (ONNX divides integers
    truncating toward zero)."""
    r = rng(31)
    x = r.uniform(-2, 2, (1, 4, 2, 2)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    nodes += [helper.make_node("Shape", ["xd"], ["sh"]),
              helper.make_node("Gather", ["sh", "i1"], ["c"]),
              helper.make_node("Div", ["c", "two"], ["cg"]),
              helper.make_node("Unsqueeze", ["cg", "ax0"], ["cg1"]),
              helper.make_node("Concat", ["one", "two1", "cg1", "hw"], ["s5"], axis=0),
              helper.make_node("Reshape", ["xd", "s5"], ["x5"]),
              helper.make_node("Transpose", ["x5"], ["t5"], perm=[0, 2, 1, 3, 4]),
              helper.make_node("Reshape", ["t5", "s4"], ["shuffled"])]
    inits += [init("i1", np.int64(1)), init("two", np.int64(2)),
              init("ax0", np.array([0], np.int64)),
              init("one", np.array([1], np.int64)), init("two1", np.array([2], np.int64)),
              init("hw", np.array([2, 2], np.int64)),
              init("s4", np.array([1, 4, 2, 2], np.int64))]
    qdq_out(nodes, inits, "shuffled", "y", 0.05, 128)
    m = model(nodes, [tin("x", [1, 4, 2, 2])], [tin("y", [1, 4, 2, 2])], inits)
    xq = quantize(x, 0.05, 128, np.uint8)
    y = xq.reshape(1, 2, 2, 2, 2).transpose(0, 2, 1, 3, 4).reshape(1, 4, 2, 2)
    return m, {"x": x}, {"y": ("codes", y, 0.05, 128)}


def case_bad_shape_division():
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.05, 128)
    nodes += [helper.make_node("Shape", ["xd"], ["sh"]),
              helper.make_node("Div", ["sh", "zero"], ["q"], name="div0"),
              helper.make_node("Reshape", ["xd", "q"], ["y"])]
    inits += [init("zero", np.array([1, 0], np.int64))]
    return model(nodes, [tin("x", [2, 3])], [tin("y", [2, 3])], inits), {}, {}


def case_bad_slice_step():
    """A step of 0 (ONNX: "cannot be 0")."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Slice", ["xd", "st", "en", "ax", "sp"], ["y"], name="rev"))
    inits += [init("st", np.array([3], np.int64)), init("en", np.array([0], np.int64)),
              init("ax", np.array([1], np.int64)), init("sp", np.array([0], np.int64))]
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 3])], inits), {}, {}


def case_ort_qdq_conv():
    """ONNX Runtime's static quantizer writes weights as int8 initializers
    through DequantizeLinear (axis 0) and the bias as int32 codes at
    S_x * S_w through DequantizeLinear."""
    r = rng(14)
    x = r.uniform(0, 1, (1, 2, 4, 4)).astype(F32)
    wq = r.integers(-127, 128, (3, 2, 3, 3)).astype(np.int8)
    w_s = np.array([0.01, 0.02, 0.005], F32)
    x_s = F32(1.0 / 255)
    b_s = (x_s * w_s).astype(F32)
    bq = r.integers(-2000, 2000, (3,)).astype(np.int32)
    y_s, y_z = 0.02, 128
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, 0)
    nodes += [
        helper.make_node("DequantizeLinear", ["w", "w_s", "w_z"], ["wd"], axis=0),
        helper.make_node("DequantizeLinear", ["b", "b_s", "b_z"], ["bd"], axis=0),
        helper.make_node("Conv", ["xd", "wd", "bd"], ["c"], pads=[1, 1, 1, 1],
                         strides=[2, 2]),
    ]
    inits += [init("w", wq), init("w_s", w_s), init("w_z", np.zeros(3, np.int8)),
              init("b", bq), init("b_s", b_s), init("b_z", np.zeros(3, np.int32))]
    qdq_out(nodes, inits, "c", "y", y_s, y_z)
    xq = quantize(x, x_s, 0, np.uint8)
    acc = conv_int(xq, wq, 0, 0, strides=(2, 2), pads=(1, 1, 1, 1)) + bq.reshape(1, 3, 1, 1)
    y = requantize(acc, x_s * w_s, y_s, y_z, np.uint8)
    m = model(nodes, [tin("x", [1, 2, 4, 4])], [tin("y", list(y.shape))], inits)
    return m, {"x": x}, {"y": ("codes", y, y_s, y_z)}


def case_grid_ops():
    """Transpose, Reshape (0 and -1), Concat of equal parameters and
    Identity move codes without leaving integers."""
    r = rng(15)
    x = r.uniform(-1, 1, (2, 3, 2, 2)).astype(F32)
    nodes, inits = [], []
    x_s, x_z = 0.01, 5
    qdq(nodes, inits, "x", x_s, x_z, np.int8)
    nodes += [
        helper.make_node("Transpose", ["xd"], ["t"], perm=[0, 2, 3, 1]),
        helper.make_node("Reshape", ["t", "shape"], ["rs"]),
        helper.make_node("Identity", ["rs"], ["id"]),
        helper.make_node("Concat", ["id", "rs"], ["cat"], axis=1),
    ]
    inits.append(init("shape", np.array([0, -1, 3], np.int64)))
    qdq_out(nodes, inits, "cat", "y", x_s, x_z, np.int8)
    m = model(nodes, [tin("x", [2, 3, 2, 2])], [tin("y", [2, 8, 3])], inits)
    xq = quantize(x, x_s, x_z, np.int8)
    t = xq.transpose(0, 2, 3, 1).reshape(2, 4, 3)
    y = np.concatenate([t, t], axis=1)
    return m, {"x": x}, {"y": ("codes", y, x_s, x_z)}


def case_float_transpose():
    """Add -> Transpose -> Q: the Transpose between the Add and its Q makes
    the Add a float island (dyadic values: exact)."""
    r = rng(16)
    a = (r.integers(-16, 16, (2, 3)) / 16.0).astype(F32)
    bb = (r.integers(-16, 16, (2, 3)) / 16.0).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "a", 1.0 / 16, 0, np.int8)
    qdq(nodes, inits, "b", 1.0 / 16, 0, np.int8)
    nodes += [helper.make_node("Add", ["ad", "bd"], ["s"]),
              helper.make_node("Transpose", ["s"], ["t"], perm=[1, 0])]
    qdq_out(nodes, inits, "t", "y", 1.0 / 8, 0, np.int8)
    m = model(nodes, [tin("a", [2, 3]), tin("b", [2, 3])], [tin("y", [3, 2])], inits)
    y = quantize((a + bb).T, 1.0 / 8, 0, np.int8)
    return m, {"a": a, "b": bb}, {"y": ("codes", y, 1.0 / 8, 0)}


# Bad models: each must be rejected with a diagnostic naming the node.
def qdq_input(nodes, inits, name="x"):
    nodes += [helper.make_node("QuantizeLinear", [name, "x_s", "x_z"], [name + "q"]),
              helper.make_node("DequantizeLinear", [name + "q", "x_s", "x_z"], [name + "d"])]
    inits += [init("x_s", F32(0.1)), init("x_z", np.uint8(128))]


def case_bad_unsupported_op():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Unique", ["xd"], ["y"], name="the_unique"))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits), {}, {}


def case_bad_qlinear_matmul_zero_point_type():
    """int8 B with a uint8 zero point: ONNX constrains them to one type
    (read as uint8, B = -1 would have been 255)."""
    nodes = [helper.make_node("QLinearMatMul", ["a", "a_s", "a_z", "b", "b_s",
                                                "b_z", "y_s", "y_z"], ["y"],
                              name="qmm")]
    inits = [init("a_s", F32(1)), init("a_z", np.uint8(0)),
             init("b", np.array([[-1]], np.int8)), init("b_s", F32(1)),
             init("b_z", np.uint8(0)), init("y_s", F32(1)),
             init("y_z", np.uint8(128))]
    return model(nodes, [tin("a", [1, 1], TensorProto.UINT8)],
                 [tin("y", [1, 1], TensorProto.UINT8)], inits), {}, {}


def case_bad_qlinear_conv_zero_point_type():
    """uint8 x with an int8 zero point (x = 200 would have been -56)."""
    nodes = [helper.make_node("QLinearConv", ["x", "x_s", "x_z", "w", "w_s",
                                              "w_z", "y_s", "y_z"], ["y"],
                              name="qconv")]
    inits = [init("x_s", F32(1)), init("x_z", np.int8(0)),
             init("w", np.ones((1, 1, 1, 1), np.int8)), init("w_s", F32(1)),
             init("w_z", np.int8(0)), init("y_s", F32(1)),
             init("y_z", np.uint8(0))]
    return model(nodes, [tin("x", [1, 1, 1, 1], TensorProto.UINT8)],
                 [tin("y", [1, 1, 1, 1], TensorProto.UINT8)], inits), {}, {}


def case_bad_qlinear_matmul_scale_length():
    """A per-column b_scale with one element per row of B instead."""
    nodes = [helper.make_node("QLinearMatMul", ["a", "a_s", "a_z", "b", "b_s",
                                                "b_z", "y_s", "y_z"], ["y"],
                              name="qmm")]
    inits = [init("a_s", F32(1)), init("a_z", np.uint8(0)),
             init("b", np.ones((2, 3), np.int8)),
             init("b_s", np.array([0.5, 0.5], F32)),
             init("b_z", np.zeros(2, np.int8)), init("y_s", F32(1)),
             init("y_z", np.uint8(0))]
    return model(nodes, [tin("a", [1, 2], TensorProto.UINT8)],
                 [tin("y", [1, 3], TensorProto.UINT8)], inits), {}, {}


def case_bad_dequantize_int32_runtime_scale_zero_point():
    """int32 codes, a run-time scale and a nonzero zero point: ONNX computes
    x - z exactly, the run-time-scale op converts x and z to f32 first."""
    nodes = [helper.make_node("DequantizeLinear", ["x", "s", "z"], ["y"],
                              name="dq32")]
    inits = [init("z", np.int32(2147483520))]
    return model(nodes, [tin("x", [1, 2], TensorProto.INT32), tin("s", [])],
                 [tin("y", [1, 2])], inits), {}, {}


def case_bad_qdq_add_float_overflow():
    """DQ -> Add -> Q where S_a / S_y = S_b / S_y = 3e36: 128 * 3e36
    overflows f32 in ONNX Runtime's QLinearAdd arithmetic."""
    nodes = [helper.make_node("DequantizeLinear", ["a", "s", "z"], ["ad"]),
             helper.make_node("DequantizeLinear", ["b", "s", "z"], ["bd"]),
             helper.make_node("Add", ["ad", "bd"], ["sum"], name="add"),
             helper.make_node("QuantizeLinear", ["sum", "sy", "zy"], ["y"],
                              name="q")]
    inits = [init("s", F32(3e26)), init("z", np.uint8(128)),
             init("sy", F32(1e-10)), init("zy", np.uint8(120))]
    return model(nodes, [tin("a", [1, 2], TensorProto.UINT8),
                         tin("b", [1, 2], TensorProto.UINT8)],
                 [tin("y", [1, 2], TensorProto.UINT8)], inits), {}, {}


def case_bad_qlinear_conv_bias_overflow():
    """An int32 bias of 2^31 - 1 with one tap of u8 x around 128 and w = 1:
    1 * 128 * 128 + 2147483647 can overflow the i32 accumulator."""
    nodes = [helper.make_node("QLinearConv", ["x", "x_s", "x_z", "w", "w_s",
                                              "w_z", "y_s", "y_z", "B"],
                              ["y"], name="qconvb")]
    inits = [init("x_s", F32(1)), init("x_z", np.uint8(128)),
             init("w", np.ones((1, 1, 1, 1), np.int8)), init("w_s", F32(1)),
             init("w_z", np.int8(0)), init("y_s", F32(1)),
             init("y_z", np.uint8(0)),
             init("B", np.array([2147483647], np.int32))]
    return model(nodes, [tin("x", [1, 1, 1, 1], TensorProto.UINT8)],
                 [tin("y", [1, 1, 1, 1], TensorProto.UINT8)], inits), {}, {}


# ---------------------------------------------------------------------------
# model-local functions (ModelProto.functions: torch's dynamo exporter,
# onnxscript), inlined at import
# ---------------------------------------------------------------------------
LOCAL = "pkg.local"


def ref_attr(name, ref, attr_type):
    """An attribute of a function body's node that refers to the function's
    attribute `ref`."""
    a = onnx.AttributeProto()
    a.name, a.ref_attr_name, a.type = name, ref, attr_type
    return a


def local_model(nodes, inputs, outputs, inits, functions, opset=13):
    g = helper.make_graph(nodes, "case", inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset),
                                            helper.make_opsetid(LOCAL, 1)],
                          functions=functions)
    m.ir_version = 8
    onnx.checker.check_model(m)
    return m


def local_functions():
    """The functions of case_local_functions: Linear (a QDQ Gemm whose
    weight scale is a Constant of the body, then Clamp; its second output is
    its input), Clamp (Clip between Constants whose values are the
    attributes lo and hi), Act (LeakyRelu, alpha from the call or
    LeakyRelu's own default) and Pick (an If whose branches read the
    function's input; its condition a Constant of the attribute flag)."""
    opsets = [helper.make_opsetid("", 13), helper.make_opsetid(LOCAL, 1)]
    clamp_lo = helper.make_node("Constant", [], ["lo_t"])
    clamp_lo.attribute.append(ref_attr("value_float", "lo",
                                       onnx.AttributeProto.FLOAT))
    clamp_hi = helper.make_node("Constant", [], ["hi_t"])
    clamp_hi.attribute.append(ref_attr("value_float", "hi",
                                       onnx.AttributeProto.FLOAT))
    clamp = helper.make_function(
        LOCAL, "Clamp", ["t"], ["u"],
        [clamp_lo, clamp_hi, helper.make_node("Clip", ["t", "lo_t", "hi_t"], ["u"])],
        opsets, ["lo", "hi"])
    call_clamp = helper.make_node("Clamp", ["g"], ["c"], domain=LOCAL)
    call_clamp.attribute.append(ref_attr("lo", "lo", onnx.AttributeProto.FLOAT))
    call_clamp.attribute.append(ref_attr("hi", "hi", onnx.AttributeProto.FLOAT))
    linear = helper.make_function(
        LOCAL, "Linear", ["x", "w", "b"], ["y", "x"],
        [helper.make_node("Constant", [], ["w_s"], value=init("w_s", F32(LOCAL_W_S))),
         helper.make_node("Constant", [], ["w_z"], value=init("w_z", np.int8(0))),
         helper.make_node("QuantizeLinear", ["w", "w_s", "w_z"], ["wq"]),
         helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["wd"]),
         helper.make_node("Gemm", ["x", "wd", "b"], ["g"], transB=1),
         call_clamp,
         helper.make_node("Constant", [], ["y_s"], value=init("y_s", F32(0.01))),
         helper.make_node("Constant", [], ["y_z"], value=init("y_z", np.int8(5))),
         helper.make_node("QuantizeLinear", ["c", "y_s", "y_z"], ["yq"]),
         helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"])],
        opsets, ["lo", "hi"])
    leaky = helper.make_node("LeakyRelu", ["t"], ["u"])
    leaky.attribute.append(ref_attr("alpha", "alpha", onnx.AttributeProto.FLOAT))
    act = helper.make_function(LOCAL, "Act", ["t"], ["u"], [leaky], opsets,
                               ["alpha"])
    flag = helper.make_node("Constant", [], ["flag_i"])
    flag.attribute.append(ref_attr("value_int", "flag", onnx.AttributeProto.INT))
    then_g = helper.make_graph([helper.make_node("Neg", ["x"], ["neg"])], "then",
                               [], [tin("neg", [4, 6])])
    else_g = helper.make_graph([helper.make_node("Abs", ["x"], ["abs"])], "else",
                               [], [tin("abs", [4, 6])])
    pick = helper.make_function(
        LOCAL, "Pick", ["x"], ["p"],
        [flag, helper.make_node("Cast", ["flag_i"], ["cond"], to=TensorProto.BOOL),
         helper.make_node("If", ["cond"], ["p"], then_branch=then_g,
                          else_branch=else_g)],
        opsets, ["flag"])
    # Act with a default for alpha: FunctionProto.attribute_proto (field 11,
    # IR version 9) is newer than this ONNX, so its bytes are appended.
    leaky_d = helper.make_node("LeakyRelu", ["t"], ["u"])
    leaky_d.attribute.append(ref_attr("alpha", "alpha", onnx.AttributeProto.FLOAT))
    act_d = helper.make_function(LOCAL, "ActD", ["t"], ["u"], [leaky_d], opsets)
    default = helper.make_attribute("alpha", 0.25).SerializeToString()
    act_d = onnx.FunctionProto.FromString(
        act_d.SerializeToString() + bytes([11 << 3 | 2, len(default)]) + default)
    # Choose: an If whose branches are graphs the call passes (attribute
    # references of type GRAPH). Its input "xd" is the name the caller's
    # graphs read in the caller's scope, and r0 a name they define.
    choose = helper.make_function(
        LOCAL, "Choose", ["c", "xd"], ["r"],
        [helper.make_node("If", ["c"], ["r0"]),
         helper.make_node("Add", ["r0", "xd"], ["r"])],
        opsets, ["on_true", "on_false"])
    choose.node[0].attribute.extend([
        ref_attr("then_branch", "on_true", onnx.AttributeProto.GRAPH),
        ref_attr("else_branch", "on_false", onnx.AttributeProto.GRAPH)])
    return [linear, clamp, act, pick, act_d, choose]


def choose_branches():
    """The graphs case_local_functions passes to Choose: -xd and |xd| of the
    caller's xd, each defining r0."""
    neg = helper.make_graph([helper.make_node("Neg", ["xd"], ["r0"])], "neg",
                            [], [tin("r0", [4, 6])])
    mag = helper.make_graph([helper.make_node("Abs", ["xd"], ["r0"])], "mag",
                            [], [tin("r0", [4, 6])])
    return neg, mag


LOCAL_W_S = 0.6 / 127


def case_local_functions():
    """A QDQ network whose layers are model-local functions, as torch's
    dynamo exporter writes them: Linear called twice with other clamp
    bounds (the attributes reach a nested function's Constants), its
    passthrough output, Act with and without its attribute, Pick with an
    If in its body."""
    r = rng(4)
    x = r.uniform(-1, 1, (4, 6)).astype(F32)
    wf = r.uniform(-0.6, 0.6, (5, 6)).astype(F32)
    bf = r.uniform(-0.3, 0.3, (5,)).astype(F32)
    x_s, x_z = 1.0 / 127, -3
    y_s, y_z = 0.01, 5
    neg, mag = choose_branches()
    lin1 = helper.make_node("Linear", ["xd", "w", "b"], ["y1", "xo"],
                            domain=LOCAL, name="lin1", lo=-1.0, hi=1.0)
    lin2 = helper.make_node("Linear", ["xd", "w", "b"], ["y2"],
                            domain=LOCAL, name="lin2", lo=-0.5, hi=0.25)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"]),
        lin1, lin2,
        helper.make_node("Act", ["xd"], ["a1"], domain=LOCAL, alpha=0.5),
        helper.make_node("Act", ["xd"], ["a2"], domain=LOCAL),
        helper.make_node("Pick", ["xd"], ["p1"], domain=LOCAL, flag=1),
        helper.make_node("Pick", ["xd"], ["p0"], domain=LOCAL, flag=0),
        helper.make_node("ActD", ["xd"], ["d1"], domain=LOCAL),
        helper.make_node("ActD", ["xd"], ["d2"], domain=LOCAL, alpha=0.5),
        # Choose's input xd is |xd| here; its branches read the caller's xd.
        helper.make_node("Abs", ["xd"], ["xa"]),
        helper.make_node("Choose", ["yes", "xa"], ["r1"], domain=LOCAL,
                         on_true=neg, on_false=mag),
        helper.make_node("Choose", ["no", "xa"], ["r2"], domain=LOCAL,
                         on_true=neg, on_false=mag),
    ]
    inits = [init("x_s", F32(x_s)), init("x_z", np.int8(x_z)), init("w", wf),
             init("b", bf), init("yes", np.array(True)),
             init("no", np.array(False))]
    outs = [("y1", [4, 5]), ("xo", [4, 6]), ("y2", [4, 5]), ("a1", [4, 6]),
            ("a2", [4, 6]), ("p1", [4, 6]), ("p0", [4, 6]), ("d1", [4, 6]),
            ("d2", [4, 6]), ("r1", [4, 6]), ("r2", [4, 6])]
    m = local_model(nodes, [tin("x", [4, 6])], [tin(n, s) for n, s in outs],
                    inits, local_functions())
    # What onnx >= 1.14 writes (the importer checks it as IR 8).
    m.ir_version = 9
    xq = quantize(x, x_s, x_z, np.int8)
    xd = dequantize(xq, x_s, x_z)
    wq = quantize(wf, LOCAL_W_S, 0, np.int8)
    acc = (xq - x_z) @ wq.T + bias_codes(bf, x_s, LOCAL_W_S)

    def clamped(lo, hi):
        qlo = int(np.round(F32(lo) / F32(y_s))) + y_z
        qhi = int(np.round(F32(hi) / F32(y_s))) + y_z
        return requantize(acc, F32(x_s) * F32(LOCAL_W_S), y_s, y_z, np.int8,
                          lo=qlo, hi=qhi)

    def leaky(alpha):
        return np.where(xd < 0, xd * F32(alpha), xd).astype(F32)

    def printed(want):  # f32 values, printed with 6 digits
        want = np.asarray(want, np.float64)
        return ("approx", want, 1e-5 * np.abs(want))

    return m, {"x": x}, {
        "y1": ("codes", clamped(-1.0, 1.0), y_s, y_z), "xo": printed(xd),
        "y2": ("codes", clamped(-0.5, 0.25), y_s, y_z),
        "a1": printed(leaky(0.5)), "a2": printed(leaky(0.01)),
        "p1": printed(-xd), "p0": printed(np.abs(xd)),
        "d1": printed(leaky(0.25)), "d2": printed(leaky(0.5)),
        "r1": printed(-xd + np.abs(xd)), "r2": printed(2 * np.abs(xd))}


def case_bad_local_recursion():
    """A local function that calls itself."""
    f = helper.make_function(LOCAL, "Loopy", ["t"], ["u"],
                             [helper.make_node("Loopy", ["t"], ["u"], domain=LOCAL)],
                             [helper.make_opsetid("", 13), helper.make_opsetid(LOCAL, 1)])
    return local_model([helper.make_node("Loopy", ["x"], ["y"], domain=LOCAL,
                                         name="rec")],
                       [tin("x", [2])], [tin("y", [2])], [], [f]), {}, {}


def case_bad_local_attribute():
    """A call with an attribute the function does not declare."""
    f = helper.make_function(LOCAL, "Act", ["t"], ["u"],
                             [helper.make_node("Relu", ["t"], ["u"])],
                             [helper.make_opsetid("", 13)], [])
    return local_model([helper.make_node("Act", ["x"], ["y"], domain=LOCAL,
                                         name="act", alpha=0.5)],
                       [tin("x", [2])], [tin("y", [2])], [], [f]), {}, {}


def case_bad_local_opset():
    """A function importing opset 14 of the standard domain in a model of
    opset 13 (the checker lets it pass: Abs is the same in both), whose
    body the importer would read as opset 13."""
    f = helper.make_function(LOCAL, "Act", ["t"], ["u"],
                             [helper.make_node("Abs", ["t"], ["u"])],
                             [helper.make_opsetid("", 14)], [])
    m = helper.make_model(
        helper.make_graph([helper.make_node("Act", ["x"], ["y"], domain=LOCAL)],
                          "case", [tin("x", [2])], [tin("y", [2])]),
        opset_imports=[helper.make_opsetid("", 13), helper.make_opsetid(LOCAL, 1)],
        functions=[f])
    m.ir_version = 8
    return m, {}, {}


def case_bad_local_fanout():
    """Functions that call the next one twice, 24 levels deep: 2^24 nodes
    after inlining."""
    fs = []
    for k in range(24):
        body = ([helper.make_node("F%d" % (k + 1), ["t"], ["a"], domain=LOCAL),
                 helper.make_node("F%d" % (k + 1), ["a"], ["u"], domain=LOCAL)]
                if k < 23 else [helper.make_node("Neg", ["t"], ["u"])])
        fs.append(helper.make_function(LOCAL, "F%d" % k, ["t"], ["u"], body,
                                       [helper.make_opsetid("", 13),
                                        helper.make_opsetid(LOCAL, 1)]))
    return local_model([helper.make_node("F0", ["x"], ["y"], domain=LOCAL)],
                       [tin("x", [2])], [tin("y", [2])], [], fs), {}, {}


def case_ir_version_10():
    """case_qdq_gemm_clip saved as onnx 1.16 saves it (IR version 10 for
    opset 13), newer than Debian 12's checker."""
    m, inputs, expected = case_qdq_gemm_clip()
    m.ir_version = 10
    return m, inputs, expected


def case_bad_ir_version():
    """IR version 13 (onnx 1.20's): newer than the importer knows."""
    m, _, _ = case_qdq_gemm_clip()
    m.ir_version = 13
    return m, {}, {}


def case_bad_local_body():
    """A bad node inside a function (a [1, 1] scale): the diagnostic names
    it by the call and its own name."""
    f = helper.make_function(
        LOCAL, "Quant", ["t"], ["u"],
        [helper.make_node("Constant", [], ["s"],
                          value=init("s", np.full([1, 1], 0.5, F32))),
         helper.make_node("Constant", [], ["z"], value=init("z", np.uint8(3))),
         helper.make_node("QuantizeLinear", ["t", "s", "z"], ["q"], name="q2d"),
         helper.make_node("DequantizeLinear", ["q", "s", "z"], ["u"])],
        [helper.make_opsetid("", 13)])
    return local_model([helper.make_node("Quant", ["x"], ["y"], domain=LOCAL,
                                         name="blk")],
                       [tin("x", [2])], [tin("y", [2])], [], [f]), {}, {}


def case_bad_local_depth():
    """300 local functions, each calling the next."""
    fs = [helper.make_function(
        LOCAL, "F%d" % k, ["t"], ["u"],
        [helper.make_node("F%d" % (k + 1), ["t"], ["u"], domain=LOCAL)
         if k < 299 else helper.make_node("Neg", ["t"], ["u"])],
        [helper.make_opsetid("", 13), helper.make_opsetid(LOCAL, 1)])
        for k in range(300)]
    return local_model([helper.make_node("F0", ["x"], ["y"], domain=LOCAL)],
                       [tin("x", [2])], [tin("y", [2])], [], fs), {}, {}


def case_bad_double_scale():
    """A float64 scale initializer (1e-300, which no f32 holds): ONNX's scale
    is float (float16 and bfloat16 from opset 19); ONNX Runtime refuses a
    double one."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"],
                              name="q64"),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["y"])]
    inits = [init("s", np.float64(1e-300)), init("z", np.uint8(3))]
    return model(nodes, [tin("x", [1, 2])], [tin("y", [1, 2])], inits), {}, {}


def case_bad_scale_rank():
    """A [1, 1] scale: ONNX's scale is a scalar or 1-D (ONNX Runtime reads a
    rank-2 one as a per-axis scale of the wrong rank and refuses it)."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"],
                              name="q2d"),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["y"])]
    inits = [init("s", np.full([1, 1], 0.5, F32)), init("z", np.uint8(3))]
    return model(nodes, [tin("x", [1, 2])], [tin("y", [1, 2])], inits), {}, {}


def case_bad_zero_point_rank():
    """A [1, 4] zero point beside a [4] per-axis scale: same element count,
    but ONNX wants the zero point's shape to be the scale's."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"],
                              axis=1, name="qzp"),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["y"],
                              axis=1)]
    inits = [init("s", np.full([4], 0.5, F32)),
             init("z", np.full([1, 4], 3, np.uint8))]
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits), {}, {}


def case_bad_int32_data_range():
    """A uint8 zero point of 300 stored in int32_data (the non-raw form):
    outside the element type, so rejected rather than read as 300 mod 256."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"]),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["y"])]
    inits = [init("s", F32(0.5)),
             helper.make_tensor("z", TensorProto.UINT8, [], [300])]
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits), {}, {}


def case_bad_weights_int32_data_range():
    """int8 weights of 1000 and -1000 in int32_data."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["w", "ws"], ["wd"]),
              helper.make_node("MatMul", ["xd", "wd"], ["y"], name="mm")]
    inits += [helper.make_tensor("w", TensorProto.INT8, [4, 2],
                                 [1000, -1000, 3, 4, 5, 6, 7, 8]),
              init("ws", F32(0.01))]
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 2])], inits), {}, {}


def case_bad_uint16_codes():
    """uint16 Q/DQ (opset 13 allows no uint16 zero point; the zero point's
    type names it all the same): no qnt storage type holds uint16."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "s", "z"], ["xq"], name="q16"),
             helper.make_node("DequantizeLinear", ["xq", "s", "z"], ["y"])]
    inits = [init("s", F32(0.5)), init("z", np.uint16(7))]
    g = helper.make_graph(nodes, "case", [tin("x", [1, 4])], [tin("y", [1, 4])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m, {}, {}


def case_bad_matmul_integer_zero_points():
    """MatMulInteger with 3 zero points of B for 4 output columns."""
    nodes = [helper.make_node("MatMulInteger", ["a", "b", "", "bz"], ["y"], name="mmi")]
    inits = [init("b", np.ones((5, 4), np.int8)), init("bz", np.zeros(3, np.int8))]
    return model(nodes, [tin("a", [2, 5], TensorProto.INT8)],
                 [tin("y", [2, 4], TensorProto.INT32)], inits), {}, {}


def case_bad_huge_input():
    """An input of 2^31 x 2^31 x 4 elements: no buffer can hold it."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Identity", ["xd"], ["y"]))
    shape = [2 ** 31, 2 ** 31, 4]
    return model(nodes, [tin("x", shape)], [tin("y", shape)], inits), {}, {}


def case_bad_constant_two_values():
    """A Constant node with value_float and value_int: ONNX allows one."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    c = helper.make_node("Constant", [], ["c"], name="two", value_float=2.0)
    c.attribute.append(helper.make_attribute("value_int", 3))
    nodes += [c, helper.make_node("Mul", ["xd", "c"], ["y"])]
    # Built without model(): the ONNX checker rejects two values too.
    g = helper.make_graph(nodes, "case", [tin("x", [1, 4])], [tin("y", [1, 4])], inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    return m, {}, {}


def case_constant_value_floats():
    """Constant value_floats (a 1-D float tensor) times a dequantized input,
    back to codes: y = Q(DQ(x) * [0.5, 2, 1, -1])."""
    r = rng(32)
    x = r.uniform(-1, 1, (1, 4)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 64, 0, dtype=np.int8)
    nodes += [helper.make_node("Constant", [], ["c"], value_floats=[0.5, 2.0, 1.0, -1.0]),
              helper.make_node("Mul", ["xd", "c"], ["p"])]
    qdq_out(nodes, inits, "p", "y", 1.0 / 32, 0, dtype=np.int8)
    m = model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits)
    xq = quantize(x, 1.0 / 64, 0, np.int8)
    y = quantize(dequantize(xq, 1.0 / 64, 0) * np.array([0.5, 2, 1, -1], F32),
                 1.0 / 32, 0, np.int8)
    return m, {"x": x}, {"y": ("codes", y, 1.0 / 32, 0)}


def case_bad_mul_shapes():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Mul", ["xd", "c"], ["y"], name="mul"))
    inits.append(init("c", np.ones((1, 3), F32)))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits), {}, {}


def case_bad_runtime_weights():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    qdq_input(nodes, [], "w")
    nodes.append(helper.make_node("Gemm", ["xd", "wd"], ["y"], name="mm"))
    return model(nodes, [tin("x", [1, 4]), tin("w", [4, 2])], [tin("y", [1, 2])],
                 inits), {}, {}


def case_bad_bias_scale():
    """An int32 bias whose scale is not S_X * S_W (0.1 * 0.5 = 0.05)."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [
        helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
        helper.make_node("DequantizeLinear", ["b", "b_s"], ["bd"]),
        helper.make_node("Gemm", ["xd", "wd", "bd"], ["g"], name="fc"),
        helper.make_node("QuantizeLinear", ["g", "x_s", "x_z"], ["y"]),
    ]
    inits += [init("w", np.ones((4, 2), np.int8)), init("w_s", F32(0.5)),
              init("b", np.zeros(2, np.int32)), init("b_s", F32(0.07))]
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 2], TensorProto.UINT8)],
                 inits), {}, {}


def case_bad_accumulator_scale():
    """Both scales are positive finite f32, but S_X * S_W = 2^-149 * 2^-10
    is below the smallest f32 (found by utils/onnx-mutate-fuzz.py)."""
    nodes = [helper.make_node("QLinearMatMul", ["a", "a_s", "a_z", "b", "b_s",
                                                "b_z", "y_s", "y_z"], ["y"],
                              name="tiny")]
    inits = [init("a_s", F32(2.0 ** -149)), init("a_z", np.uint8(0)),
             init("b", np.ones((5, 4), np.int8)), init("b_s", F32(2.0 ** -10)),
             init("b_z", np.int8(0)), init("y_s", F32(0.07)),
             init("y_z", np.uint8(0))]
    return model(nodes, [tin("a", [3, 5], TensorProto.UINT8)],
                 [tin("y", [3, 4], TensorProto.UINT8)], inits), {}, {}


def case_bad_pool_sum_scale():
    """AveragePool to another grid sums as a conv at scale S_X / count:
    with S_X = 2^-149 (the smallest f32) that is below f32's range (found
    by utils/onnx-mutate-fuzz.py)."""
    nodes, inits = [], []
    qdq(nodes, inits, "x", 2.0 ** -149, 130)
    nodes.append(helper.make_node("AveragePool", ["xd"], ["p"], name="avg",
                                  kernel_shape=[3, 3], strides=[1, 1]))
    qdq_out(nodes, inits, "p", "y", 0.03, 128)
    return model(nodes, [tin("x", [1, 2, 4, 4])], [tin("y", [1, 2, 2, 2])],
                 inits), {}, {}


def case_bad_float_conv():
    """A float Conv whose weights are a graph input (not compile-time)."""
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name="float_conv")]
    return model(nodes, [tin("x", [1, 1, 2, 2]), tin("w", [1, 1, 1, 1])],
                 [tin("y", [1, 1, 2, 2])], []), {}, {}


def case_float_conv():
    """Conv in f32: a layer left out of quantization (float weights on
    dequantized codes, grouped, strided, padded, with a bias) and a conv on
    a float graph input with int8 weights through DequantizeLinear; MatMul,
    Gemm (a bias) and Einsum of dequantized codes by float constants. Values
    are dyadic, so the f32 sums are exact in any order."""
    r = rng(56)
    x = (r.integers(-16, 16, (1, 4, 5, 5)) / 16.0).astype(F32)
    wf = (r.integers(-8, 8, (6, 2, 3, 3)) / 8.0).astype(F32)
    bf = (r.integers(-8, 8, (6,)) / 4.0).astype(F32)
    wq = r.integers(-127, 128, (3, 4, 1, 1)).astype(np.int8)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 16, 0, np.int8)
    nodes += [helper.make_node("Conv", ["xd", "wf", "bf"], ["c1"], group=2,
                               strides=[2, 1], pads=[1, 0, 1, 2]),
              helper.make_node("DequantizeLinear", ["wq", "w_s"], ["wd"]),
              helper.make_node("Conv", ["f", "wd"], ["c2"])]
    inits += [init("wf", wf), init("bf", bf), init("wq", wq),
              init("w_s", F32(1.0 / 64))]
    qdq_out(nodes, inits, "c1", "y1", 1.0 / 4, 0, np.int8)
    qdq_out(nodes, inits, "c2", "y2", 1.0 / 4, 0, np.int8)
    # MatMul, Gemm and Einsum of dequantized codes by float constant
    # weights (a MoE router or head left out of quantization).
    m_a = (r.integers(-16, 16, (2, 3, 4)) / 16.0).astype(F32)
    mb = (r.integers(-8, 8, (4, 5)) / 8.0).astype(F32)
    gb = (r.integers(-8, 8, (3,)) / 4.0).astype(F32)
    qdq(nodes, inits, "ma", 1.0 / 16, 0, np.int8)
    nodes += [helper.make_node("MatMul", ["mad", "mb"], ["mm"]),
              helper.make_node("Flatten", ["mad"], ["maf"], axis=1),
              helper.make_node("Gemm", ["maf", "gw", "gb"], ["gm"], transB=1),
              helper.make_node("Einsum", ["mad", "mb"], ["es"], equation="bij,jk->bik")]
    gw = (r.integers(-8, 8, (3, 12)) / 8.0).astype(F32)
    inits += [init("mb", mb), init("gw", gw), init("gb", gb)]
    for src, name in (("mm", "y3"), ("gm", "y4"), ("es", "y5")):
        qdq_out(nodes, inits, src, name, 1.0 / 4, 0, np.int8)
    f = (r.integers(-16, 16, (1, 4, 2, 3)) / 16.0).astype(F32)
    m = model(nodes, [tin("x", [1, 4, 5, 5]), tin("f", [1, 4, 2, 3]),
                      tin("ma", [2, 3, 4])],
              [tin("y1", [1, 6, 3, 5]), tin("y2", [1, 3, 2, 3]),
               tin("y3", [2, 3, 5]), tin("y4", [2, 3]), tin("y5", [2, 3, 5])],
              inits)
    xd = dequantize(quantize(x, 1.0 / 16, 0, np.int8), 1.0 / 16, 0)

    def conv_f64(x, w, strides=(1, 1), pads=(0, 0, 0, 0), group=1):
        n, c, h, wd = x.shape
        fo, cg, kh, kw = w.shape
        xp = np.zeros((n, c, h + pads[0] + pads[2], wd + pads[1] + pads[3]))
        xp[:, :, pads[0]:pads[0] + h, pads[1]:pads[1] + wd] = x
        oh = (xp.shape[2] - kh) // strides[0] + 1
        ow = (xp.shape[3] - kw) // strides[1] + 1
        out = np.zeros((n, fo, oh, ow))
        fpg = fo // group
        for o in range(fo):
            g = o // fpg
            for i in range(oh):
                for j in range(ow):
                    win = xp[:, g * cg:(g + 1) * cg, i * strides[0]:i * strides[0] + kh,
                             j * strides[1]:j * strides[1] + kw]
                    out[:, o, i, j] = (win * w[o]).sum(axis=(1, 2, 3))
        return out

    c1 = conv_f64(xd.astype(np.float64), wf.astype(np.float64), (2, 1),
                  (1, 0, 1, 2), 2) + bf.reshape(1, 6, 1, 1)
    c2 = conv_f64(f.astype(np.float64), wq.astype(np.float64) / 64)
    mad = dequantize(quantize(m_a, 1.0 / 16, 0, np.int8), 1.0 / 16, 0).astype(np.float64)
    mm = mad @ mb.astype(np.float64)
    gm = mad.reshape(2, 12) @ gw.astype(np.float64).T + gb
    q4 = lambda v: ("codes", quantize(v.astype(F32), 1.0 / 4, 0, np.int8), 1.0 / 4, 0)
    return m, {"x": x, "f": f, "ma": m_a}, {
        "y1": q4(c1), "y2": q4(c2), "y3": q4(mm), "y4": q4(gm), "y5": q4(mm)}


def case_bad_dynamic():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Relu", ["xd"], ["y"]))
    return model(nodes, [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                       ["batch", 4])],
                 [tin("y", ["batch", 4])], inits), {}, {}


def case_dynamic_quantize_linear():
    # DynamicQuantizeLinear then DequantizeLinear with its run-time scale and
    # zero point (docs/RuntimeScales.md); numpy model: ONNX's definition.
    r = rng(11)
    x = r.uniform(-3.0, 2.0, (2, 5)).astype(F32)
    x[0, 0] = 0.0
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["y", "ys", "yz"]),
             helper.make_node("DequantizeLinear", ["y", "ys", "yz"], ["r"])]
    m = model(nodes, [tin("x", [2, 5])], [tin("r", [2, 5])], [])
    lo, hi = min(F32(0), x.min()), max(F32(0), x.max())
    scale = F32(hi - lo) / F32(255)
    zp = int(np.clip(np.rint(F32(0) - lo / scale), 0, 255))
    y = np.clip(np.rint(x / scale) + zp, 0, 255).astype(np.int64)
    return m, {"x": x}, {"r": ("codes", y, float(scale), zp)}


def case_dequantize_int32_runtime_scale():
    # int32 accumulators dequantized per column with a run-time scale.
    r = rng(12)
    acc = r.integers(-5000, 5000, (2, 3)).astype(np.int32)
    s = np.array([0.5, 0.25, 2.0], F32)
    nodes = [helper.make_node("DequantizeLinear", ["acc", "s"], ["r"], axis=1)]
    m = model(nodes, [tin("acc", [2, 3], TensorProto.INT32), tin("s", [3])],
              [tin("r", [2, 3])], [])
    return m, {"acc": acc, "s": s}, {"r": ("ints", acc.astype(F32) * s)}


def dynamic_quantize_linear(x):
    """ONNX DynamicQuantizeLinear (docs/RuntimeScales.md), finite input."""
    lo, hi = min(F32(0), x.min()), max(F32(0), x.max())
    scale = F32(1) if hi == lo else F32(hi - lo) / F32(255)
    zp = int(np.clip(np.rint(F32(0) - lo / scale), 0, 255))
    codes = np.clip(np.rint(x / scale) + zp, 0, 255).astype(np.int64)
    return codes, scale, zp


def case_matmul_integer_runtime_zero_point():
    # ONNX Runtime's dynamic quantization of a MatMul: DynamicQuantizeLinear
    # gives u8 codes and a run-time zero point, MatMulInteger takes both with
    # constant s8 weights and per-column weight zero points.
    r = rng(13)
    x = r.uniform(-1.0, 3.0, (3, 8)).astype(F32)
    b = r.integers(-128, 128, (8, 4)).astype(np.int8)
    bz = np.array([0, -3, 5, 127], np.int8)
    nodes = [helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
             helper.make_node("MatMulInteger", ["xq", "b", "xz", "b_z"], ["y"])]
    inits = [init("b", b), init("b_z", bz)]
    m = model(nodes, [tin("x", [3, 8])], [tin("y", [3, 4], TensorProto.INT32)],
              inits)
    codes, _, zp = dynamic_quantize_linear(x)
    assert zp not in (0, 255)  # a zero point that matters
    y = (codes - zp) @ (b.astype(np.int64) - bz.astype(np.int64))
    return m, {"x": x}, {"y": ("ints", y)}


def case_matmul_integer_input_zero_point():
    # MatMulInteger with A's zero point a graph input (s8 codes).
    r = rng(14)
    a = r.integers(-128, 128, (2, 5)).astype(np.int8)
    b = r.integers(-128, 128, (5, 3)).astype(np.int8)
    nodes = [helper.make_node("MatMulInteger", ["a", "b", "a_z"], ["y"])]
    m = model(nodes, [tin("a", [2, 5], TensorProto.INT8),
                      tin("a_z", [], TensorProto.INT8)],
              [tin("y", [2, 3], TensorProto.INT32)], [init("b", b)])
    az = np.int8(-100)
    y = (a.astype(np.int64) - int(az)) @ b.astype(np.int64)
    return m, {"a": a, "a_z": np.array(az)}, {"y": ("ints", y)}


def case_bad_conv_integer_runtime_zero_point():
    x = tin("x", [1, 1, 3, 3], TensorProto.UINT8)
    nodes = [helper.make_node("ConvInteger", ["x", "w", "x_z"], ["y"])]
    inits = [init("w", np.ones((1, 1, 2, 2), np.int8))]
    return model(nodes, [x, tin("x_z", [], TensorProto.UINT8)],
                 [tin("y", [1, 1, 2, 2], TensorProto.INT32)], inits), {}, {}


# ---------------------------------------------------------------------------
# ONNX Runtime's QOperator format (com.microsoft ops)
# ---------------------------------------------------------------------------
def ort_qlinear_add(a, sa, za, b, sb, zb, sc, zc, dtype):
    """QLinearAdd as ONNX Runtime's reference computes it: the two ratios
    S_a / S_c and S_b / S_c in f32, the scaled terms and their sum in f32,
    round half to even, then the zero point, saturated."""
    ma = (F32(sa) / F32(sc)).astype(F32)
    mb = (F32(sb) / F32(sc)).astype(F32)
    v = ((a - za).astype(F32) * ma).astype(F32) + ((b - zb).astype(F32) * mb).astype(F32)
    lo, hi = qrange(dtype)
    return np.clip(np.round(v.astype(F32)) + zc, lo, hi).astype(np.int64)


def ort_global_average_pool(x, sx, zx, sy, zy, dtype):
    """MLAS's QLinearGlobalAveragePool: the exact integer sum minus
    zx * N, times the f32 scale S_x / (S_y * N), round half to even."""
    n = x.shape[2] * x.shape[3]
    acc = x.astype(np.int64).sum(axis=(2, 3), keepdims=True) - zx * n
    scale = (F32(sx) / (F32(sy) * F32(n)).astype(F32)).astype(F32)
    lo, hi = qrange(dtype)
    return np.clip(np.round((acc.astype(F32) * scale).astype(F32)) + zy, lo,
                   hi).astype(np.int64)


def ort_requantize_table(x, sx, zx, sy, zy, dtype):
    """QLinearConcat's table for an input on another grid:
    quantize(dequantize(x)), i.e. round_half_even(f32((x - zx) * sx) / sy)."""
    d = ((x - zx).astype(F32) * F32(sx)).astype(F32)
    return quantize(d, sy, zy, dtype)


def case_qoperator_net():
    """A small residual network as ONNX Runtime's quantizer writes it in the
    QOperator format: QuantizeLinear, QLinearConv (per-channel weights),
    QLinearAdd, MaxPool on the codes, QLinearGlobalAveragePool, Flatten,
    Dropout (inference: nothing), QGemm (transB, int32 bias),
    DequantizeLinear. The numpy model follows
    ONNX Runtime's kernels op by op."""
    r = rng(40)
    x = r.uniform(-1, 1, (1, 3, 6, 6)).astype(F32)
    x_s, x_z = 0.008, 128
    w1 = r.integers(-127, 128, (4, 3, 3, 3)).astype(np.int8)
    w1_s = np.array([0.004, 0.006, 0.005, 0.007], F32)
    b1 = r.integers(-300, 300, (4,)).astype(np.int32)
    w2 = r.integers(-127, 128, (4, 4, 3, 3)).astype(np.int8)
    w2_s = np.array([0.003, 0.004, 0.002, 0.005], F32)
    c1_s, c1_z, c2_s, c2_z = 0.02, 100, 0.025, 130
    a_s, a_z, g_s, g_z = 0.03, 90, 0.01, 70
    fw = r.integers(-127, 128, (3, 4)).astype(np.int8)  # N x K (transB)
    fw_s, fb = F32(0.02), r.integers(-200, 200, (3,)).astype(np.int32)
    y_s, y_z = 0.05, 128
    zeros4 = np.zeros(4, np.int8)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("QLinearConv", ["xq", "x_s", "x_z", "w1", "w1_s", "w_z",
                                         "c1_s", "c1_z", "b1"], ["c1"],
                         pads=[1, 1, 1, 1], name="conv1"),
        helper.make_node("QLinearConv", ["c1", "c1_s", "c1_z", "w2", "w2_s",
                                         "w_z", "c2_s", "c2_z"], ["c2"],
                         pads=[1, 1, 1, 1], name="conv2"),
        helper.make_node("QLinearAdd", ["c2", "c2_s", "c2_z", "c1", "c1_s",
                                        "c1_z", "a_s", "a_z"], ["a"],
                         domain=MS, name="add"),
        helper.make_node("MaxPool", ["a"], ["mp"], kernel_shape=[2, 2],
                         strides=[2, 2]),
        helper.make_node("QLinearGlobalAveragePool", ["mp", "a_s", "a_z", "g_s",
                                                      "g_z"], ["g"],
                         domain=MS, channels_last=0, name="gap"),
        helper.make_node("Flatten", ["g"], ["f0"]),
        # Inference graphs of the model zoo keep their Dropout nodes.
        helper.make_node("Dropout", ["f0", "ratio"], ["f"]),
        helper.make_node("QGemm", ["f", "g_s", "g_z", "fw", "fw_s", "fw_z", "fb",
                                   "y_s", "y_z"], ["yq"],
                         domain=MS, transB=1, name="fc"),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["y"]),
    ]
    inits = [init("x_s", F32(x_s)), init("x_z", np.uint8(x_z)),
             init("w1", w1), init("w1_s", w1_s), init("w_z", zeros4),
             init("b1", b1), init("w2", w2), init("w2_s", w2_s),
             init("c1_s", F32(c1_s)), init("c1_z", np.uint8(c1_z)),
             init("c2_s", F32(c2_s)), init("c2_z", np.uint8(c2_z)),
             init("a_s", F32(a_s)), init("a_z", np.uint8(a_z)),
             init("g_s", F32(g_s)), init("g_z", np.uint8(g_z)),
             init("fw", fw), init("fw_s", fw_s), init("fw_z", np.int8(0)),
             init("fb", fb), init("y_s", F32(y_s)), init("y_z", np.uint8(y_z)),
             init("ratio", F32(0.5))]
    m = model(nodes, [tin("x", [1, 3, 6, 6])], [tin("y", [1, 3])], inits,
              microsoft=True)
    xq = quantize(x, x_s, x_z, np.uint8)
    acc1 = conv_int(xq, w1, x_z, 0, pads=(1, 1, 1, 1)) + b1.reshape(1, 4, 1, 1)
    c1 = requantize(acc1, F32(x_s) * w1_s, c1_s, c1_z, np.uint8)
    acc2 = conv_int(c1, w2, c1_z, 0, pads=(1, 1, 1, 1))
    c2 = requantize(acc2, F32(c1_s) * w2_s, c2_s, c2_z, np.uint8)
    a = ort_qlinear_add(c2, c2_s, c2_z, c1, c1_s, c1_z, a_s, a_z, np.uint8)
    mp = a.reshape(1, 4, 3, 2, 3, 2).max(axis=(3, 5))
    g = ort_global_average_pool(mp, a_s, a_z, g_s, g_z, np.uint8)
    acc = (g.reshape(1, 4) - g_z) @ fw.astype(np.int64).T + fb
    y = requantize(acc, F32(g_s) * fw_s, y_s, y_z, np.uint8)
    return m, {"x": x}, {"y": ("codes", y, y_s, y_z)}


def case_qoperator_ops():
    """The other com.microsoft QOperator ops on int8 codes: QLinearConcat
    (one input on the output's grid, copied; one on another, through
    quantize(dequantize(x))), QLinearAveragePool, QLinearSigmoid,
    QLinearLeakyRelu and QLinearMul (f32 on the dequantized codes, as
    ONNX Runtime's lookup tables and the QDQ graphs define them),
    QLinearReduceMean, QLinearSoftmax (its `opset` attribute picks the
    Softmax definition), and zero points left out (0, of the input's
    type)."""
    r = rng(41)
    x = r.uniform(-1, 1, (1, 1, 4, 4)).astype(F32)
    u = r.uniform(-2, 2, (1, 3, 4, 4)).astype(F32)
    x_s, x_z, u_s, u_z = 0.01, -5, 0.02, 3
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
        helper.make_node("QuantizeLinear", ["u", "u_s", "u_z"], ["uq"]),
        helper.make_node("QLinearConcat", ["x_s", "x_z", "xq", "x_s", "x_z",
                                           "uq", "u_s", "u_z"], ["cat"],
                         domain=MS, axis=1, name="cat"),
        helper.make_node("QLinearAveragePool", ["xq", "x_s", "x_z", "p_s", "p_z"],
                         ["pool"], domain=MS, kernel_shape=[3, 3],
                         strides=[1, 1], name="pool"),
        helper.make_node("QLinearSigmoid", ["uq", "u_s", "u_z", "sg_s", "sg_z"],
                         ["sg"], domain=MS, name="sigmoid"),
        helper.make_node("QLinearLeakyRelu", ["uq", "u_s", "u_z", "lr_s"],
                         ["lr"], domain=MS, alpha=0.2, name="leaky"),
        helper.make_node("QLinearMul", ["xq", "x_s", "x_z", "uq", "u_s", "u_z",
                                        "ml_s", "ml_z"], ["ml"],
                         domain=MS, name="mul"),
        helper.make_node("QLinearReduceMean", ["uq", "u_s", "u_z", "rm_s", "rm_z"],
                         ["rm"], domain=MS, axes=[2, 3], keepdims=1, name="mean"),
        helper.make_node("QLinearSoftmax", ["uq", "u_s", "u_z", "sm_s", "sm_z"],
                         ["sm"], domain=MS, axis=1, opset=13, name="softmax"),
    ]
    outs = [("cat", [1, 4, 4, 4], x_s, x_z), ("pool", [1, 1, 2, 2], 0.004, 2),
            ("sg", [1, 3, 4, 4], 1.0 / 256, -128), ("lr", [1, 3, 4, 4], 0.015, 0),
            ("ml", [1, 3, 4, 4], 0.01, 1), ("rm", [1, 3, 1, 1], 0.002, -3),
            ("sm", [1, 3, 4, 4], 1.0 / 256, -128)]
    names = {"pool": "p", "sg": "sg", "lr": "lr", "ml": "ml", "rm": "rm",
             "sm": "sm"}
    inits = [init("x_s", F32(x_s)), init("x_z", np.int8(x_z)),
             init("u_s", F32(u_s)), init("u_z", np.int8(u_z))]
    for out, _, sc, zp in outs[1:]:
        inits.append(init(names[out] + "_s", F32(sc)))
        if out != "lr":  # QLinearLeakyRelu without Y_zero_point: 0, int8
            inits.append(init(names[out] + "_z", np.int8(zp)))
    for out, _, sc, zp in outs:
        nodes.append(helper.make_node("DequantizeLinear",
                                      [out, "o_s_" + out, "o_z_" + out],
                                      ["y_" + out]))
        inits += [init("o_s_" + out, F32(sc)), init("o_z_" + out, np.int8(zp))]
    m = model(nodes, [tin("x", [1, 1, 4, 4]), tin("u", [1, 3, 4, 4])],
              [tin("y_" + out, shape) for out, shape, _, _ in outs], inits,
              microsoft=True)
    xq = quantize(x, x_s, x_z, np.int8)
    uq = quantize(u, u_s, u_z, np.int8)
    xd, ud = dequantize(xq, x_s, x_z), dequantize(uq, u_s, u_z)
    cat = np.concatenate(
        [xq, ort_requantize_table(uq, u_s, u_z, x_s, x_z, np.int8)], axis=1)
    # QLinearAveragePool and QLinearReduceMean: the mean of the dequantized
    # codes, rounded once to the output grid (an exact integer sum times
    # the f32 multiplier f32(S_x / count) / f32(S_y), as case_reduce_mean).
    # ONNX Runtime's kernels sum dequantized f32 values and may round
    # differently near a tie: for channel 2 of "rm" the exact mean is
    # 67.4999953 output steps (code 64), and an f32 sum reaches 67.5 (65).
    pool = np.zeros((1, 1, 2, 2), np.int64)
    for i in range(2):
        for j in range(2):
            pool[:, :, i, j] = (xq - x_z)[:, :, i:i + 3, j:j + 3].sum(axis=(2, 3))
    pool = requantize(pool, np.float64(F32(x_s)) / 9, 0.004, 2, np.int8)
    mean = requantize((uq - u_z).sum(axis=(2, 3), keepdims=True),
                      np.float64(F32(u_s)) / 16, 0.002, -3, np.int8)
    one = F32(1)
    vals = {
        "sg": (one / (one + np.exp(-ud))).astype(F32),
        "lr": np.where(ud < 0, ud * F32(0.2), ud).astype(F32),
        "ml": (xd * ud).astype(F32),
        "sm": softmax_f32(ud, 1),
    }
    codes = {"cat": cat, "pool": pool, "rm": mean}
    for out, _, sc, zp in outs:
        if out not in codes:
            codes[out] = quantize(vals[out], sc, zp, np.int8)
    expected = {"y_" + out: ("codes", codes[out], sc, zp)
                for out, _, sc, zp in outs}
    return m, {"x": x, "u": u}, expected


def case_qoperator_qgemm_float():
    """QGemm without y_scale: the f32 result, with per-column b_scale on
    transB weights and an int32 bias at scale a_scale * b_scale. Scales are
    powers of two, so every f32 step is exact."""
    r = rng(42)
    x = (r.integers(0, 64, (2, 4)) / 16.0).astype(F32)
    w = r.integers(-127, 128, (3, 4)).astype(np.int8)
    w_s = np.array([1.0 / 64, 1.0 / 32, 1.0 / 128], F32)
    bias = r.integers(-500, 500, (3,)).astype(np.int32)
    nodes = [helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
             helper.make_node("QGemm", ["xq", "x_s", "x_z", "w", "w_s", "w_z",
                                        "b"], ["y"], domain=MS, transB=1,
                              name="fc")]
    inits = [init("x_s", F32(1.0 / 16)), init("x_z", np.uint8(8)), init("w", w),
             init("w_s", w_s), init("w_z", np.zeros(3, np.int8)),
             init("b", bias)]
    m = model(nodes, [tin("x", [2, 4])], [tin("y", [2, 3])], inits,
              microsoft=True)
    xq = quantize(x, 1.0 / 16, 8, np.uint8)
    acc = (xq - 8) @ w.astype(np.int64).T + bias
    # y = acc * S_x * S_w[n], exact in float64; as codes of scale 2^-11.
    y = np.rint(acc * (1.0 / 16) * w_s.astype(np.float64) * 2048).astype(np.int64)
    return m, {"x": x}, {"y": ("codes", y, 1.0 / 2048, 0)}


def case_bad_constant_of_shape_huge():
    """ConstantOfShape folds at import: a shape of 2^40 elements is
    diagnosed, not allocated."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("ConstantOfShape", ["shape"], ["zeros"],
                               name="fill"),
              helper.make_node("Reshape", ["xd", "zeros"], ["y"])]
    inits.append(init("shape", np.array([1 << 20, 1 << 20], np.int64)))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits), {}, {}


def case_bad_cast_nan():
    """Cast of a NaN constant to an integer type (undefined in C++)."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("Cast", ["c"], ["ci"], to=TensorProto.INT64,
                               name="cast"),
              helper.make_node("Reshape", ["xd", "ci"], ["y"])]
    inits.append(init("c", np.array([np.nan, 4.0], F32)))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits), {}, {}


def case_bad_cast_codes():
    """Cast of uint8 codes to int8: a reinterpretation, not supported."""
    nodes, inits = [], []
    nodes += [helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
              helper.make_node("Cast", ["xq"], ["y"], to=TensorProto.INT8,
                               name="cast")]
    inits += [init("x_s", F32(0.1)), init("x_z", np.uint8(128))]
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4], TensorProto.INT8)],
                 inits), {}, {}


def case_pad():
    """Pad (constant mode) on dequantized codes: the codes padded with the
    code of the pad value (0 -> the zero point; 0.5 is on the grid too), on
    a graph input (NCHW) and on a conv result (NHWC, no transpose), then
    into a conv; and a float tensor padded in f32."""
    r = rng(43)
    x = r.uniform(-1, 1, (1, 2, 3, 4)).astype(F32)
    w = r.integers(-127, 128, (3, 2, 1, 1)).astype(np.int8)
    x_s, x_z, c_s, c_z, w_s = 0.01, 120, 0.02, 10, 0.005
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("Pad", ["xd", "pads1", "half"], ["p1"], name="pad1"),
        *conv_nodes,
        helper.make_node("Pad", ["cd", "pads2"], ["p2"], name="pad2"),
        helper.make_node("Conv", ["p2", "wd2"], ["c2"]),
    ]
    w2 = r.integers(-127, 128, (2, 3, 2, 2)).astype(np.int8)
    inits += [init("pads1", np.array([0, 0, 1, 2, 0, 0, 2, 1], np.int64)),
              init("half", F32(0.5)),
              *conv_inits,
              init("pads2", np.array([0, 0, 0, 1, 0, 0, 2, 0], np.int64)),
              init("w2q", w2), init("w2_s", F32(0.01))]
    nodes.insert(-1, helper.make_node("DequantizeLinear", ["w2q", "w2_s"], ["wd2"]))
    qdq_out(nodes, inits, "p1", "y1", x_s, x_z)
    y2_s, y2_z = 0.05, 128
    qdq_out(nodes, inits, "c2", "y2", y2_s, y2_z)
    # A float tensor (no DQ) padded with 1.5 in f32, then quantized.
    nodes.append(helper.make_node("Pad", ["f", "pads3", "v3"], ["p3"], name="pad3"))
    inits += [init("pads3", np.array([0, 1, 0, 0], np.int64)), init("v3", F32(1.5))]
    qdq_out(nodes, inits, "p3", "y3", 1.0 / 16, 0, np.int8)
    m = model(nodes, [tin("x", [1, 2, 3, 4]), tin("f", [2, 3])],
              [tin("y1", [1, 2, 6, 7]), tin("y2", [1, 2, 4, 4]), tin("y3", [2, 4])],
              inits)
    f = (r.integers(-32, 32, (2, 3)) / 16.0).astype(F32)
    xq = quantize(x, x_s, x_z, np.uint8)
    y1 = np.pad(xq, ((0, 0), (0, 0), (1, 2), (2, 1)), constant_values=x_z + 50)
    cq = conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z)
    p2 = np.pad(cq, ((0, 0), (0, 0), (0, 2), (1, 0)), constant_values=c_z)
    y2 = requantize(conv_int(p2, w2, c_z, 0), F32(c_s) * F32(0.01), y2_s, y2_z,
                    np.uint8)
    y3 = quantize(np.pad(f, ((0, 0), (1, 0)), constant_values=1.5), 1.0 / 16, 0,
                  np.int8)
    return m, {"x": x, "f": f}, {"y1": ("codes", y1, x_s, x_z),
                                 "y2": ("codes", y2, y2_s, y2_z),
                                 "y3": ("codes", y3, 1.0 / 16, 0)}


def case_pad_modes():
    """Pad's other modes (opset 19) against numpy's np.pad, which is ONNX's
    reference: reflect on dequantized codes (NCHW) and on a conv result
    (NHWC, then into a conv), edge (also of a one-element axis), reflect
    and wrap as long as the axis allows, the axes input (opset 18,
    negative axes), negative pads (a crop, as ONNX Runtime applies them
    before padding) in constant and reflect modes, and HiFi-GAN's
    ReflectionPad1d on N x C x L. Codes move as codes; the float tensors
    are multiples of 1/16, exact on the output grid."""
    r = rng(173)
    x = r.uniform(-1, 1, (1, 2, 3, 4)).astype(F32)
    w = r.integers(-127, 128, (3, 2, 1, 1)).astype(np.int8)
    x_s, x_z, c_s, c_z, w_s = 0.01, 120, 0.02, 10, 0.005
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    w2 = r.integers(-127, 128, (2, 3, 2, 2)).astype(np.int8)
    f = (r.integers(-32, 32, (2, 3)) / 16.0).astype(F32)
    g = (r.integers(-32, 32, (3, 1)) / 16.0).astype(F32)
    a = (r.integers(-32, 32, (1, 2, 8)) / 16.0).astype(F32)
    P = lambda *v: np.array(v, np.int64)
    pad = lambda name, ins, out, mode: helper.make_node(
        "Pad", ins, [out], name=name, mode=mode)
    nodes += [
        pad("reflect_x", ["xd", "pads1"], "p1", "reflect"),
        *conv_nodes,
        pad("reflect_c", ["cd", "pads2"], "p2", "reflect"),
        helper.make_node("DequantizeLinear", ["w2q", "w2_s"], ["wd2"]),
        helper.make_node("Conv", ["p2", "wd2"], ["c2"]),
        pad("edge_x", ["xd", "pads3"], "p3", "edge"),
        pad("reflect_long", ["f", "pads4"], "p4", "reflect"),
        pad("one_edge", ["g", "pads5"], "p6", "edge"),
        pad("wrap", ["f", "pads7"], "p7", "wrap"),
        pad("wrap_axes", ["f", "pads8", "", "axes8"], "p8", "wrap"),
        pad("crop", ["f", "pads9", "v9"], "p9", "constant"),
        pad("crop_reflect", ["xd", "pads10", "", "axes10"], "p10", "reflect"),
        pad("reflect_1d", ["a", "pads11"], "p11", "reflect"),
    ]
    inits += [init("pads1", P(0, 0, 2, 1, 0, 0, 1, 3)), *conv_inits,
              init("pads2", P(0, 0, 1, 0, 0, 0, 0, 2)),
              init("w2q", w2), init("w2_s", F32(0.01)),
              init("pads3", P(0, 1, 2, 0, 0, 0, 1, 3)),
              init("pads4", P(1, 2, 0, 1)), init("pads5", P(0, 2, 0, 3)),
              init("pads7", P(1, 2, 0, 3)),
              init("pads8", P(2, 1)), init("axes8", P(-2)),
              init("pads9", P(0, -1, 0, 2)), init("v9", F32(1.5)),
              init("pads10", P(-1, 1, 1, -2)), init("axes10", P(2, 3)),
              init("pads11", P(0, 0, 3, 0, 0, 3))]
    xq = quantize(x, x_s, x_z, np.uint8)
    cq = conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z)
    p2 = np.pad(cq, ((0, 0), (0, 0), (1, 0), (0, 2)), mode="reflect")
    want = {
        "p1": ("x", np.pad(xq, ((0, 0), (0, 0), (2, 1), (1, 3)), mode="reflect")),
        "c2": ("y2", requantize(conv_int(p2, w2, c_z, 0), F32(c_s) * F32(0.01),
                                0.05, 128, np.uint8)),
        "p3": ("x", np.pad(xq, ((0, 0), (1, 0), (2, 1), (0, 3)), mode="edge")),
        "p4": ("f", np.pad(f, ((1, 0), (2, 1)), mode="reflect")),
        "p6": ("f", np.pad(g, ((0, 0), (2, 3)), mode="edge")),
        "p7": ("f", np.pad(f, ((1, 0), (2, 3)), mode="wrap")),
        "p8": ("f", np.pad(f, ((2, 1), (0, 0)), mode="wrap")),
        "p9": ("f", np.pad(f[:, 1:], ((0, 0), (0, 2)), constant_values=1.5)),
        "p10": ("x", np.pad(xq[:, :, 1:, :2], ((0, 0), (0, 0), (0, 1), (1, 0)),
                            mode="reflect")),
        "p11": ("f", np.pad(a, ((0, 0), (0, 0), (3, 3)), mode="reflect")),
    }
    expected, outs = {}, []
    for src, (grid, y) in want.items():
        name = "y_" + src
        if grid == "x":
            qdq_out(nodes, inits, src, name, x_s, x_z)
            expected[name] = ("codes", y, x_s, x_z)
        elif grid == "y2":
            qdq_out(nodes, inits, src, name, 0.05, 128)
            expected[name] = ("codes", y, 0.05, 128)
        else:
            qdq_out(nodes, inits, src, name, 1.0 / 16, 0, np.int8)
            expected[name] = ("codes", quantize(y, 1.0 / 16, 0, np.int8),
                              1.0 / 16, 0)
        outs.append(tin(name, list(y.shape)))
    m = model(nodes, [tin("x", [1, 2, 3, 4]), tin("f", [2, 3]), tin("g", [3, 1]),
                      tin("a", [1, 2, 8])], outs, inits, opset=19)
    return m, {"x": x, "f": f, "g": g, "a": a}, expected


def case_pad_offgrid_value():
    """QDQ Pad with a constant value off the input's grid: ONNX pads the
    reals, and the QuantizeLinear after the Pad quantizes them, the padding
    included (0.7 on a grid of 0.1 with zero point 128 is code 135; 0.05 is
    a tie, code 128). Onto the same grid and onto another one."""
    r = rng(192)
    x = r.uniform(-3, 3, (1, 2, 3)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.1, 128)
    nodes += [helper.make_node("Pad", ["xd", "pads", "v07"], ["p07"]),
              helper.make_node("Pad", ["xd", "pads", "v005"], ["p005"])]
    inits += [init("pads", np.array([0, 0, 1, 0, 1, 2], np.int64)),
              init("v07", F32(0.7)), init("v005", F32(0.05))]
    qdq_out(nodes, inits, "p07", "y_same", 0.1, 128)
    qdq_out(nodes, inits, "p005", "y_other", 0.04, 100)
    xd = ((quantize(x, 0.1, 128, np.uint8) - 128) * F32(0.1)).astype(F32)
    pad = lambda v: np.pad(xd, [(0, 0), (0, 1), (1, 2)], constant_values=F32(v))
    want = {"y_same": ("codes", quantize(pad(0.7), 0.1, 128, np.uint8), 0.1, 128),
            "y_other": ("codes", quantize(pad(0.05), 0.04, 100, np.uint8), 0.04, 100)}
    m = model(nodes, [tin("x", [1, 2, 3])],
              [tin("y_same", [1, 3, 6]), tin("y_other", [1, 3, 6])], inits)
    return m, {"x": x}, want


def bad_pad(pads, x_len, y_len, mode=None, opset=13):
    """A Pad named "pad" of a dequantized [1, x_len] input by `pads`."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    attrs = {"mode": mode} if mode else {}
    nodes.append(helper.make_node("Pad", ["xd", "pads"], ["y"], name="pad", **attrs))
    inits.append(init("pads", np.array(pads, np.int64)))
    return model(nodes, [tin("x", [1, x_len])], [tin("y", [1, y_len])], inits,
                 opset=opset), {}, {}


def case_bad_pad_mode():
    return bad_pad([0, 1, 0, 1], 4, 6, "circular")


def case_bad_pad_wrap_opset18():
    return bad_pad([0, 1, 0, 1], 4, 6, "wrap", opset=18)


def case_bad_pad_crop():
    return bad_pad([0, -3, 0, -2], 4, 1)


def case_bad_pad_reflect_long():
    return bad_pad([0, 1, 0, 4], 4, 9, "reflect")


def case_bad_pad_wrap_long():
    return bad_pad([0, 5, 0, 0], 4, 9, "wrap", opset=19)


def case_bad_pad_reflect_empty():
    return bad_pad([0, -2, 0, 1], 2, 1, "reflect")


def case_matmul_3d():
    """MatMul of a 3-D A (batch x tokens x features, as transformers export
    their linear layers) by a constant 2-D B: one matmul over the rows,
    viewed back. QDQ MatMul + Add(bias) -> Q; QLinearMatMul; and ONNX
    Runtime's dynamic quantization (DynamicQuantizeLinear -> MatMulInteger
    with a run-time zero point)."""
    r = rng(44)
    x = r.uniform(-1, 2, (2, 3, 8)).astype(F32)
    w = r.uniform(-1, 1, (8, 5)).astype(F32)
    bias = r.uniform(-0.5, 0.5, (5,)).astype(F32)
    w_s = (np.abs(w).max(axis=0) / 127).astype(F32)
    x_s, x_z, y_s, y_z = 0.015, 70, 0.02, 128
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("QuantizeLinear", ["w", "w_s", "w_z"], ["wq"], axis=1),
        helper.make_node("DequantizeLinear", ["wq", "w_s", "w_z"], ["wd"], axis=1),
        helper.make_node("MatMul", ["xd", "wd"], ["mm"]),
        helper.make_node("Add", ["mm", "bias"], ["mmb"]),
        helper.make_node("QLinearMatMul", ["xq", "x_s", "x_z", "wq", "w_s", "w_z",
                                           "y_s", "y_z"], ["ql"]),
        helper.make_node("DynamicQuantizeLinear", ["x"], ["dq", "ds", "dz"]),
        helper.make_node("MatMulInteger", ["dq", "wq", "dz"], ["mi"]),
    ]
    inits += [init("w", w), init("w_s", w_s), init("w_z", np.zeros(5, np.int8)),
              init("bias", bias.reshape(1, 1, 5)), init("y_s", F32(y_s)),
              init("y_z", np.uint8(y_z))]
    qdq_out(nodes, inits, "mmb", "y1", y_s, y_z)
    nodes.append(helper.make_node("DequantizeLinear", ["ql", "y_s", "y_z"], ["y2"]))
    m = model(nodes, [tin("x", [2, 3, 8])],
              [tin("y1", [2, 3, 5]), tin("y2", [2, 3, 5]),
               tin("mi", [2, 3, 5], TensorProto.INT32)], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    wq = quantize(w, w_s, 0, np.int8, axis=1)
    acc = (xq - x_z) @ wq
    y2 = requantize(acc, F32(x_s) * w_s, y_s, y_z, np.uint8, axis=2)
    y1 = requantize(acc + bias_codes(bias, x_s, w_s), F32(x_s) * w_s, y_s, y_z,
                    np.uint8, axis=2)
    codes, _, zp = dynamic_quantize_linear(x)
    mi = (codes - zp) @ wq
    return m, {"x": x}, {"y1": ("codes", y1, y_s, y_z),
                         "y2": ("codes", y2, y_s, y_z), "mi": ("ints", mi)}


def case_ort_dynamic_matmul():
    """ONNX Runtime's quantize_dynamic of a transformer linear layer:
    DynamicQuantizeLinear -> MatMulInteger (3-D A, run-time zero point) ->
    Cast(float) -> Mul by x_scale * w_scale (a Mul of the run-time scale and
    the constant) -> Add(bias); quantized at the end so that the f32 values
    compare exactly. The numpy model follows the graph in f32."""
    r = rng(45)
    x = r.uniform(-1, 2, (2, 3, 8)).astype(F32)
    wq = r.integers(-127, 128, (8, 5)).astype(np.int8)
    w_s = F32(0.0123)
    bias = r.uniform(-0.5, 0.5, (5,)).astype(F32)
    nodes = [
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
        helper.make_node("MatMulInteger", ["xq", "wq", "xz"], ["acc"]),
        helper.make_node("Cast", ["acc"], ["accf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["xs", "w_s"], ["scale"]),
        helper.make_node("Mul", ["accf", "scale"], ["mm"]),
        helper.make_node("Add", ["mm", "bias"], ["y"]),
        helper.make_node("QuantizeLinear", ["y", "y_s", "y_z"], ["yq"]),
        helper.make_node("DequantizeLinear", ["yq", "y_s", "y_z"], ["yd"]),
    ]
    inits = [init("wq", wq), init("w_s", w_s), init("bias", bias),
             init("y_s", F32(0.1)), init("y_z", np.int8(0))]
    m = model(nodes, [tin("x", [2, 3, 8])], [tin("yd", [2, 3, 5])],
              inits)
    codes, xs, zp = dynamic_quantize_linear(x)
    acc = (codes - zp) @ wq.astype(np.int64)
    y = (acc.astype(F32) * (F32(xs) * w_s).astype(F32)).astype(F32) + bias
    return m, {"x": x}, {"yd": ("codes", quantize(y.astype(F32), 0.1, 0, np.int8),
                                0.1, 0)}


def case_split():
    """Split of a conv result along the channels (sizes [1, 3], in NHWC:
    no transpose) and of dequantized codes along H into equal parts (no
    split input): an extract_slice of the codes per output."""
    r = rng(46)
    x = r.uniform(-1, 1, (1, 2, 4, 4)).astype(F32)
    w = r.integers(-127, 128, (4, 2, 1, 1)).astype(np.int8)
    x_s, x_z, c_s, c_z, w_s = 0.01, 120, 0.02, 10, 0.005
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        *conv_nodes,
        helper.make_node("Split", ["cd", "sizes"], ["s1", "s2"], axis=1, name="split"),
        helper.make_node("Split", ["xd"], ["h1", "h2"], axis=-2, name="halves"),
        # Unsqueeze of a pending Relu on the codes: it settles on the grid.
        helper.make_node("Relu", ["xd"], ["rx"]),
        helper.make_node("Unsqueeze", ["rx", "ax"], ["u"]),
    ]
    inits += [*conv_inits, init("sizes", np.array([1, 3], np.int64)),
              init("ax", np.array([0], np.int64))]
    m = model(nodes, [tin("x", [1, 2, 4, 4])],
              [tin("s1", [1, 1, 4, 4]), tin("s2", [1, 3, 4, 4]),
               tin("h1", [1, 2, 2, 4]), tin("h2", [1, 2, 2, 4]),
               tin("u", [1, 1, 2, 4, 4])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    cq = conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z)
    return m, {"x": x}, {"s1": ("codes", cq[:, :1], c_s, c_z),
                         "s2": ("codes", cq[:, 1:], c_s, c_z),
                         "h1": ("codes", xq[:, :, :2], x_s, x_z),
                         "h2": ("codes", xq[:, :, 2:], x_s, x_z),
                         "u": ("codes", np.maximum(xq, x_z)[None], x_s, x_z)}


def case_bad_split_sizes():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Split", ["xd", "sizes"], ["a", "b"], axis=1,
                                  name="split"))
    inits.append(init("sizes", np.array([1, 2], np.int64)))
    return model(nodes, [tin("x", [1, 4])], [tin("a", [1, 1]), tin("b", [1, 2])],
                 inits), {}, {}


def const_node_model(op, inputs, out_shape, out_type, attrs=None):
    """A node `op` named "n" of compile-time initializers `inputs` (name ->
    array), its output "y" a graph output."""
    nodes = [helper.make_node(op, [k for k, _ in inputs], ["y"], name="n",
                              **(attrs or {}))]
    return model(nodes, [], [tin("y", out_shape, out_type)],
                 [init(k, v) for k, v in inputs]), {}, {}


def case_bad_concat_const_types():
    return const_node_model(
        "Concat", [("a", np.zeros((2, 2), np.int64)),
                   ("b", np.zeros((2, 2), np.int32))], [4, 2],
        TensorProto.INT64, {"axis": 0})


def case_bad_concat_const_huge():
    # One 2^20-element initializer listed five times: 2^22 + 2^20 elements.
    big = np.zeros(1 << 20, np.int8)
    nodes = [helper.make_node("Concat", ["big"] * 5, ["y"], name="n", axis=0)]
    return model(nodes, [], [tin("y", [5 << 20], TensorProto.INT8)],
                 [init("big", big)]), {}, {}


def case_bad_clip_int_attrs():
    """Clip-6's float attributes on an int64 tensor (Clip-6 takes floats
    only): not silently ignored."""
    nodes = [helper.make_node("Clip", ["x"], ["y"], name="n", min=0.0, max=5.0)]
    return model(nodes, [tin("x", [3], TensorProto.INT64)],
                 [tin("y", [3], TensorProto.INT64)], [], opset=6), {}, {}


def case_bad_roi_align_adaptive():
    """RoiAlign's default sampling_ratio 0: the point count depends on the
    run-time boxes."""
    nodes = [helper.make_node("RoiAlign", ["x", "rois", "batch"], ["y"],
                              name="n")]
    return model(nodes, [tin("x", [1, 2, 4, 4]), tin("rois", [3, 4]),
                         tin("batch", [3], TensorProto.INT64)],
                 [tin("y", [3, 2, 1, 1])], [], opset=16), {}, {}


def case_bad_legacy_broadcast():
    """Opset-6 Add of different shapes without broadcast = 1."""
    nodes = [helper.make_node("Add", ["x", "b"], ["y"], name="n")]
    return model(nodes, [tin("x", [2, 3]), tin("b", [3])], [tin("y", [2, 3])],
                 [], opset=6), {}, {}


def case_bad_legacy_broadcast_axis():
    """Opset-6 Mul with an axis that puts B past A's last dimension."""
    nodes = [helper.make_node("Mul", ["x", "b"], ["y"], name="n", broadcast=1,
                              axis=2)]
    return model(nodes, [tin("x", [2, 3]), tin("b", [3])], [tin("y", [2, 3])],
                 [], opset=6), {}, {}


def case_bad_pow_const_overflow():
    return const_node_model(
        "Pow", [("a", np.array([2, 3], np.int32)), ("e", np.int64(31))], [2],
        TensorProto.INT32)


def case_bad_pow_fraction():
    nodes = [helper.make_node("Pow", ["x", "e"], ["y"], name="n")]
    return model(nodes, [tin("x", [3], TensorProto.INT64)],
                 [tin("y", [3], TensorProto.INT64)],
                 [init("e", np.float32(0.5))]), {}, {}


def case_bad_pow_base_type():
    nodes = [helper.make_node("Pow", ["x", "e"], ["y"], name="n")]
    return model(nodes, [tin("x", [3], TensorProto.INT16)],
                 [tin("y", [3], TensorProto.INT16)],
                 [init("e", np.int64(2))]), {}, {}


def case_float_math():
    """The float ops of transformer graphs on dequantized codes (Erf, Sqrt,
    Exp, Log, Neg, Abs, Reciprocal, Pow by 2 and by 3) and ReduceMean over
    the last axis in f32 (summed in index order), then QuantizeLinear.
    numpy evaluates them in f32 (erf in float64, rounded to f32)."""
    import math
    r = rng(47)
    x = r.uniform(-2, 2, (2, 3, 8)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.02, 128)
    nodes += [
        helper.make_node("Erf", ["xd"], ["erf"]),
        helper.make_node("Abs", ["xd"], ["abs"]),
        helper.make_node("Sqrt", ["abs"], ["sqrt"]),
        helper.make_node("Exp", ["xd"], ["exp"]),
        helper.make_node("Add", ["abs", "one"], ["abs1"]),
        helper.make_node("Log", ["abs1"], ["log"]),
        helper.make_node("Neg", ["xd"], ["neg"]),
        helper.make_node("Add", ["abs", "half"], ["absh"]),
        helper.make_node("Reciprocal", ["absh"], ["rcp"]),
        helper.make_node("Pow", ["xd", "two"], ["sq"]),
        helper.make_node("Pow", ["xd", "three"], ["cube"]),
        helper.make_node("ReduceMean", ["xd"], ["mean"], axes=[-1]),
        helper.make_node("ReduceMean", ["xd"], ["mean0"], axes=[1, 2], keepdims=0),
    ]
    inits += [init("one", F32(1)), init("half", F32(0.5)), init("two", F32(2)),
              init("three", F32(3))]
    outs = [("erf", [2, 3, 8], 1.0 / 128, 0), ("sqrt", [2, 3, 8], 1.0 / 128, -128),
            ("exp", [2, 3, 8], 0.05, -128), ("log", [2, 3, 8], 1.0 / 128, -128),
            ("neg", [2, 3, 8], 0.02, 0), ("rcp", [2, 3, 8], 1.0 / 64, -128),
            ("sq", [2, 3, 8], 1.0 / 32, -128), ("cube", [2, 3, 8], 1.0 / 16, 0),
            ("mean", [2, 3, 1], 1.0 / 128, 0), ("mean0", [2], 1.0 / 128, 0)]
    for src, _, sc, zp in outs:
        qdq_out(nodes, inits, src, "y_" + src, sc, zp, np.int8)
    m = model(nodes, [tin("x", [2, 3, 8])],
              [tin("y_" + src, shape) for src, shape, _, _ in outs], inits)
    xd = dequantize(quantize(x, 0.02, 128, np.uint8), 0.02, 128)
    ad = np.abs(xd)

    def mean_last(v):
        total = np.zeros(v.shape[:-1], F32)
        for i in range(v.shape[-1]):
            total = (total + v[..., i]).astype(F32)
        return total

    # axes (1, 2): the sum over axis 1, then over axis 2, in index order.
    part = np.zeros((2, 8), F32)
    for i in range(3):
        part = (part + xd[:, i, :]).astype(F32)
    mean0 = (mean_last(part) / F32(24)).astype(F32)
    vals = {
        "erf": np.vectorize(lambda v: F32(math.erf(float(v))))(xd).astype(F32),
        "sqrt": np.sqrt(ad),
        "exp": np.exp(xd),
        "log": np.log((ad + F32(1)).astype(F32)),
        "neg": -xd,
        "rcp": (F32(1) / (ad + F32(0.5)).astype(F32)).astype(F32),
        "sq": (xd * xd).astype(F32),
        "cube": np.power(xd, F32(3)).astype(F32),
        "mean": (mean_last(xd) / F32(8)).astype(F32).reshape(2, 3, 1),
        "mean0": mean0,
    }
    expected = {}
    for src, _, sc, zp in outs:
        assert vals[src].dtype == F32, src
        expected["y_" + src] = ("codes", quantize(vals[src], sc, zp, np.int8), sc, zp)
    return m, {"x": x}, expected


def case_float_batch_matmul():
    """MatMul of two run-time tensors (attention's Q K^T and P V), 4-D with
    a broadcast batch dimension, on dequantized codes: f32 as the QDQ graph
    defines it, then QuantizeLinear. Values are multiples of 1/16 and 1/8
    with short sums, so f32 is exact in any order."""
    r = rng(48)
    q = (r.integers(-16, 16, (2, 3, 4, 5)) / 16.0).astype(F32)
    k = (r.integers(-8, 8, (1, 3, 5, 6)) / 8.0).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "q", 1.0 / 16, 0, np.int8)
    qdq(nodes, inits, "k", 1.0 / 8, 0, np.int8)
    nodes.append(helper.make_node("MatMul", ["qd", "kd"], ["s"], name="scores"))
    qdq_out(nodes, inits, "s", "y", 1.0 / 16, 0, np.int8)
    # A float 3-D A by a constant B: the same batched f32 matmul.
    nodes.append(helper.make_node("MatMul", ["f", "wc"], ["fw"], name="float_a"))
    inits.append(init("wc", (r.integers(-8, 8, (5, 2)) / 8.0).astype(F32)))
    qdq_out(nodes, inits, "fw", "y2", 1.0 / 16, 0, np.int8)
    m = model(nodes, [tin("q", [2, 3, 4, 5]), tin("k", [1, 3, 5, 6]), tin("f", [2, 3, 5])],
              [tin("y", [2, 3, 4, 6]), tin("y2", [2, 3, 2])], inits)
    s = np.matmul(q.astype(np.float64), k.astype(np.float64)).astype(F32)
    y = quantize(s, 1.0 / 16, 0, np.int8)
    assert (np.abs(y) < 127).mean() > 0.9  # mostly unsaturated
    f = (r.integers(-16, 16, (2, 3, 5)) / 16.0).astype(F32)
    wc = numpy_helper.to_array([i for i in inits if i.name == "wc"][0])
    fw = np.matmul(f.astype(np.float64), wc.astype(np.float64)).astype(F32)
    return m, {"q": q, "k": k, "f": f}, {
        "y": ("codes", y, 1.0 / 16, 0),
        "y2": ("codes", quantize(fw, 1.0 / 16, 0, np.int8), 1.0 / 16, 0)}


def case_pool_ceil():
    """ceil_mode = 1 (SqueezeNet, GoogLeNet as torch exports them): the last
    window runs past the input. MaxPool takes the max of the positions
    inside; AveragePool (count_include_pad = 1, no explicit padding, as
    torch's default) averages them only, as ONNX Runtime and PyTorch do:
    qnt.avg_pool2d on the input grid, the exact mean rounded half to even
    as QuantizeLinear rounds it."""
    r = rng(49)
    x = r.uniform(-1, 1, (1, 2, 8, 7)).astype(F32)
    nodes, inits = [], []
    x_s, x_z = 0.01, 120
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [helper.make_node("MaxPool", ["xd"], ["mp"], kernel_shape=[3, 3],
                               strides=[2, 2], ceil_mode=1),
              helper.make_node("AveragePool", ["xd"], ["ap"], kernel_shape=[3, 2],
                               strides=[2, 2], ceil_mode=1, count_include_pad=1)]
    qdq_out(nodes, inits, "mp", "y1", x_s, x_z)
    qdq_out(nodes, inits, "ap", "y2", x_s, x_z)
    m = model(nodes, [tin("x", [1, 2, 8, 7])],
              [tin("y1", [1, 2, 4, 3]), tin("y2", [1, 2, 4, 4])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    y1 = np.zeros((1, 2, 4, 3), np.int64)
    for i in range(4):
        for j in range(3):
            y1[:, :, i, j] = xq[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 3].max(axis=(2, 3))
    y2 = np.zeros((1, 2, 4, 4), np.int64)
    for i in range(4):
        for j in range(4):
            win = xq[:, :, 2 * i:2 * i + 3, 2 * j:2 * j + 2] - x_z
            total, count = win.sum(axis=(2, 3)), win.shape[2] * win.shape[3]
            y2[:, :, i, j] = x_z + mean_half_even(total, count)
    return m, {"x": x}, {"y1": ("codes", y1, x_s, x_z), "y2": ("codes", y2, x_s, x_z)}


def case_bad_pool_ceil_padding():
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.01, 120)
    nodes.append(helper.make_node("AveragePool", ["xd"], ["y"], kernel_shape=[3, 3],
                                  strides=[2, 2], pads=[1, 1, 1, 1], ceil_mode=1,
                                  count_include_pad=1, name="avg"))
    return model(nodes, [tin("x", [1, 1, 6, 6])], [tin("y", [1, 1, 4, 4])],
                 inits), {}, {}


def case_ms_dynamic_matmul():
    """ONNX Runtime's fused dynamic-quantization ops (com.microsoft):
    DynamicQuantizeMatMul (A in f32, quantized per tensor at run time) and
    MatMulIntegerToFloat (codes, run-time scale and zero point), with
    per-column weight scales and a bias; both are (A - a_zp) (B - b_zp) *
    a_scale * b_scale + bias in f32. Quantized at the end so that the f32
    values compare exactly."""
    r = rng(50)
    x = r.uniform(-1, 2, (2, 3, 8)).astype(F32)
    wq = r.integers(-127, 128, (8, 5)).astype(np.int8)
    w_s = r.uniform(0.005, 0.02, (5,)).astype(F32)
    bias = r.uniform(-0.5, 0.5, (5,)).astype(F32)
    nodes = [
        helper.make_node("DynamicQuantizeMatMul", ["x", "wq", "w_s", "", "bias"],
                         ["y1"], domain=MS, name="dqmm"),
        helper.make_node("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
        helper.make_node("MatMulIntegerToFloat", ["xq", "wq", "xs", "w_s", "xz"],
                         ["y2"], domain=MS, name="mmitf"),
    ]
    inits = [init("wq", wq), init("w_s", w_s), init("bias", bias)]
    outs = []
    for src in ("y1", "y2"):
        nodes += [helper.make_node("QuantizeLinear", [src, "o_s", "o_z"], [src + "q"]),
                  helper.make_node("DequantizeLinear", [src + "q", "o_s", "o_z"],
                                   [src + "d"])]
        outs.append(tin(src + "d", [2, 3, 5]))
    inits += [init("o_s", F32(0.1)), init("o_z", np.int8(0))]
    m = model(nodes, [tin("x", [2, 3, 8])], outs, inits, microsoft=True)
    codes, xs, zp = dynamic_quantize_linear(x)
    acc = (codes - zp) @ wq.astype(np.int64)
    scaled = (acc.astype(F32) * (F32(xs) * w_s).astype(F32)).astype(F32)
    y1 = quantize((scaled + bias).astype(F32), 0.1, 0, np.int8)
    y2 = quantize(scaled, 0.1, 0, np.int8)
    return m, {"x": x}, {"y1d": ("codes", y1, 0.1, 0), "y2d": ("codes", y2, 0.1, 0)}


def lrn_f32(x, size, alpha, beta, bias, axis=1):
    """ONNX LRN in f32: the squares of the channels in the window, summed in
    ascending order, x / (bias + alpha / size * sum) ** beta."""
    sq = (x * x).astype(F32)
    c = x.shape[axis]
    total = np.zeros_like(x)
    lo, hi = (size - 1) // 2, size // 2
    for k in range(c):
        acc = np.zeros_like(np.take(x, k, axis=axis))
        for j in range(k - lo, k + hi + 1):
            if 0 <= j < c:
                acc = (acc + np.take(sq, j, axis=axis)).astype(F32)
        idx = [slice(None)] * x.ndim
        idx[axis] = k
        total[tuple(idx)] = acc
    base = (F32(bias) + (F32(alpha) / F32(size)).astype(F32) * total).astype(F32)
    return (x / np.power(base, F32(beta))).astype(F32)


def case_lrn():
    """LRN (AlexNet, GoogLeNet) between a DQ and a Q: f32 across the
    channels, on a conv result (NHWC) and on dequantized codes (NCHW);
    7 channels, so the window is clipped at both ends."""
    r = rng(51)
    x = r.uniform(-1, 1, (1, 7, 3, 3)).astype(F32)
    w = r.integers(-127, 128, (7, 7, 1, 1)).astype(np.int8)
    x_s, x_z, c_s, c_z, w_s = 0.01, 120, 0.02, 10, 0.01
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("LRN", ["xd"], ["l1"], size=5, alpha=0.5, beta=0.75,
                         bias=1.0),
        *conv_nodes,
        helper.make_node("LRN", ["cd"], ["l2"], size=3, alpha=0.3, beta=0.5,
                         bias=2.0),
    ]
    inits += conv_inits
    qdq_out(nodes, inits, "l1", "y1", 1.0 / 128, 0, np.int8)
    qdq_out(nodes, inits, "l2", "y2", 1.0 / 64, 0, np.int8)
    m = model(nodes, [tin("x", [1, 7, 3, 3])],
              [tin("y1", [1, 7, 3, 3]), tin("y2", [1, 7, 3, 3])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    cq = conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z)
    l1 = lrn_f32(dequantize(xq, x_s, x_z), 5, 0.5, 0.75, 1.0)
    l2 = lrn_f32(dequantize(cq, c_s, c_z), 3, 0.3, 0.5, 2.0)
    return m, {"x": x}, {"y1": ("codes", quantize(l1, 1.0 / 128, 0, np.int8), 1.0 / 128, 0),
                         "y2": ("codes", quantize(l2, 1.0 / 64, 0, np.int8), 1.0 / 64, 0)}


def case_bad_lrn_size():
    """LRN unrolls its window: a huge size is diagnosed, not unrolled."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("LRN", ["xd"], ["y"], size=1 << 30, name="lrn"))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4])], inits), {}, {}


def case_bad_dropout_mask():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("Dropout", ["xd"], ["y", "mask"], name="drop"))
    return model(nodes, [tin("x", [1, 4])], [tin("y", [1, 4]),
                 tin("mask", [1, 4], TensorProto.BOOL)], inits), {}, {}


def bad_op17(op, inputs, x_shape=(1, 4), outputs=("y",), extra=(),
                      **attrs):
    """One opset-17 `op` node named 'norm' on the dequantized input "xd"."""
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.1, 128)
    nodes.append(helper.make_node(op, list(inputs), list(outputs), name="norm",
                                  **attrs))
    return model(nodes, [tin("x", list(x_shape))],
                 [tin(o, list(x_shape)) for o in outputs], inits + list(extra),
                 opset=17), {}, {}


def case_bad_layer_norm_stash():
    return bad_op17("LayerNormalization", ("xd", "g"), stash_type=0,
                             extra=[init("g", np.ones(4, F32))])


def case_bad_layer_norm_outputs():
    return bad_op17("LayerNormalization", ("xd", "g"), outputs=("y", "mean"),
                             extra=[init("g", np.ones(4, F32))])


def case_bad_layer_norm_scale():
    return bad_op17("LayerNormalization", ("xd", "g"),
                             extra=[init("g", np.ones(3, F32))])


def case_bad_instance_norm_scale():
    return bad_op17("InstanceNormalization", ("xd", "g", "b"),
                             x_shape=(1, 2, 3),
                             extra=[init("g", np.ones(3, F32)), init("b", np.ones(3, F32))])


def case_bad_prelu_slope():
    return bad_op17("PRelu", ("xd", "slope"),
                             extra=[init("slope", np.ones((2, 4), F32))])


def case_bad_sum_missing_input():
    return bad_op17("Sum", ("xd", "", "xd"))


def case_bad_greater_runtime():
    # A float compared with an integer: ONNX's type constraint, which the
    # checker leaves to the importer.
    return bad_op17("Greater", ("xd", "zero"), extra=[init("zero", np.int64(0))])


def case_bad_where_runtime():
    return bad_op17("Where", ("xq", "xd", "xd"))


def case_bad_expand_huge():
    return bad_op17("Expand", ("xd", "big"), outputs=("y",),
                    extra=[init("big", np.array([1 << 20, 1 << 12, 4], np.int64))])


def case_bad_tile_repeats():
    return bad_op17("Tile", ("xd", "reps"), extra=[init("reps", np.array([2], np.int64))])


def case_gather():
    """Gather with run-time indices (a transformer's token embedding): from
    a float table (int64 ids, negative ones counting from the end, out of
    range ones clamped), from
    int8 codes through DequantizeLinear (the codes gathered, still on their
    grid), and along axis 1 of a run-time tensor (int32 indices). The
    codes gathered first and dequantized after, as ONNX Runtime's
    quantize_dynamic writes an embedding (GatherQuant: uint8 codes with a
    zero point), and an int64 lookup table gathered by run-time ids."""
    r = rng(52)
    table = (r.integers(-32, 32, (10, 4)) / 16.0).astype(F32)
    codes = r.integers(-127, 128, (10, 4)).astype(np.int8)
    # 12 and -11 are out of range: ONNX Runtime stops with an error; here
    # they read the nearest end of the table (a defined read).
    ids = np.array([[0, 9, -1], [12, -11, -10]], np.int64)
    at = np.clip(np.where(ids < 0, ids + 10, ids), 0, 9)
    cols = np.array([4, 0], np.int32)
    x = (r.integers(-32, 32, (3, 5)) / 16.0).astype(F32)
    nodes = [
        helper.make_node("Gather", ["table", "ids"], ["e1"], name="embed"),
        helper.make_node("DequantizeLinear", ["codes", "c_s"], ["cd"]),
        helper.make_node("Gather", ["cd", "ids"], ["e2"], name="embed_q"),
        helper.make_node("QuantizeLinear", ["e2", "c_s", "c_z"], ["e2q"]),
        helper.make_node("DequantizeLinear", ["e2q", "c_s", "c_z"], ["y2"]),
        helper.make_node("Gather", ["x", "cols"], ["e3"], axis=1, name="pick"),
        helper.make_node("Gather", ["ucodes", "ids"], ["g4"], name="embed_gq"),
        helper.make_node("DequantizeLinear", ["g4", "u_s", "u_z"], ["y4"]),
        helper.make_node("Gather", ["lut", "ids"], ["y5"], name="lookup"),
    ]
    ucodes = r.integers(0, 256, (10, 4)).astype(np.uint8)
    lut = r.integers(-2**40, 2**40, (10,)).astype(np.int64)
    inits = [init("table", table), init("codes", codes), init("c_s", F32(0.05)),
             init("c_z", np.int8(0)), init("ucodes", ucodes),
             init("u_s", F32(1.0 / 16)), init("u_z", np.uint8(128)),
             init("lut", lut)]
    qdq_out(nodes, inits, "e1", "y1", 1.0 / 16, 0, np.int8)
    qdq_out(nodes, inits, "e3", "y3", 1.0 / 16, 0, np.int8)
    m = model(nodes, [tin("ids", [2, 3], TensorProto.INT64),
                      tin("cols", [2], TensorProto.INT32), tin("x", [3, 5])],
              [tin("y1", [2, 3, 4]), tin("y2", [2, 3, 4]), tin("y3", [3, 2]),
               tin("y4", [2, 3, 4]), tin("y5", [2, 3], TensorProto.INT64)],
              inits)
    y1 = quantize(table[at], 1.0 / 16, 0, np.int8)
    y3 = quantize(x[:, cols], 1.0 / 16, 0, np.int8)
    return m, {"ids": ids, "cols": cols, "x": x}, {
        "y1": ("codes", y1, 1.0 / 16, 0),
        "y2": ("codes", codes[at].astype(np.int64), 0.05, 0),
        "y3": ("codes", y3, 1.0 / 16, 0),
        "y4": ("codes", ucodes[at].astype(np.int64), 1.0 / 16, 128),
        "y5": ("ints", lut[at])}


def case_float_concat():
    """Concat with a float operand runs in f32 (tensor.concat of the
    dequantized values); so does a Concat of codes on different grids that
    no QuantizeLinear follows (a float graph output). Dyadic scales, so the
    printed floats compare exactly."""
    r = rng(53)
    f = (r.integers(-16, 16, (1, 2, 3)) / 8.0).astype(F32)
    x = r.uniform(-1, 1, (1, 1, 3)).astype(F32)
    a = r.uniform(-1, 1, (1, 2, 2)).astype(F32)
    bb = r.uniform(-1, 1, (1, 1, 2)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 16, 3, np.int8)
    qdq(nodes, inits, "a", 1.0 / 32, 0, np.int8)
    qdq(nodes, inits, "b", 1.0 / 8, -2, np.int8)
    nodes += [helper.make_node("Concat", ["f", "xd"], ["c1"], axis=1),
              helper.make_node("Concat", ["ad", "bd"], ["y2"], axis=-2)]
    qdq_out(nodes, inits, "c1", "y1", 1.0 / 16, 0, np.int8)
    m = model(nodes, [tin("f", [1, 2, 3]), tin("x", [1, 1, 3]), tin("a", [1, 2, 2]),
                      tin("b", [1, 1, 2])], [tin("y1", [1, 3, 3]), tin("y2", [1, 3, 2])],
              inits)
    xd = dequantize(quantize(x, 1.0 / 16, 3, np.int8), 1.0 / 16, 3)
    y1 = quantize(np.concatenate([f, xd], axis=1), 1.0 / 16, 0, np.int8)
    y2 = np.concatenate([dequantize(quantize(a, 1.0 / 32, 0, np.int8), 1.0 / 32, 0),
                         dequantize(quantize(bb, 1.0 / 8, -2, np.int8), 1.0 / 8, -2)],
                        axis=1)
    return m, {"f": f, "x": x, "a": a, "b": bb}, {"y1": ("codes", y1, 1.0 / 16, 0),
                                                  "y2": ("ints", y2)}


def batch_norm_f32(x, scale, bias, mean, var, eps):
    """ONNX BatchNormalization (inference) in f32, in its written order."""
    shape = [1, -1] + [1] * (x.ndim - 2)
    p = [np.asarray(t, F32).reshape(shape) for t in (scale, bias, mean, var)]
    std = np.sqrt((p[3] + F32(eps)).astype(F32))
    return ((((x - p[2]).astype(F32) / std).astype(F32) * p[0]).astype(F32)
            + p[1]).astype(F32)


def case_batch_norm():
    """BatchNormalization left unfolded (an exporter that did not fuse it):
    f32 per channel on a dequantized conv result (NHWC) and on a float
    rank-3 input, then QuantizeLinear."""
    r = rng(54)
    x = r.uniform(-1, 1, (1, 2, 3, 3)).astype(F32)
    w = r.integers(-127, 128, (3, 2, 1, 1)).astype(np.int8)
    f = r.uniform(-2, 2, (2, 3, 4)).astype(F32)
    bn = [r.uniform(0.5, 1.5, 3).astype(F32), r.uniform(-0.5, 0.5, 3).astype(F32),
          r.uniform(-0.2, 0.2, 3).astype(F32), r.uniform(0.5, 2, 3).astype(F32)]
    x_s, x_z, c_s, c_z, w_s = 0.01, 120, 0.02, 10, 0.01
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        *conv_nodes,
        helper.make_node("BatchNormalization", ["cd", "g", "b", "m", "v"], ["n1"],
                         epsilon=1e-3),
        helper.make_node("BatchNormalization", ["f", "g", "b", "m", "v"], ["n2"]),
    ]
    inits += [*conv_inits, init("g", bn[0]), init("b", bn[1]),
              init("m", bn[2]), init("v", bn[3])]
    qdq_out(nodes, inits, "n1", "y1", 1.0 / 32, 0, np.int8)
    qdq_out(nodes, inits, "n2", "y2", 1.0 / 32, 0, np.int8)
    m = model(nodes, [tin("x", [1, 2, 3, 3]), tin("f", [2, 3, 4])],
              [tin("y1", [1, 3, 3, 3]), tin("y2", [2, 3, 4])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    cq = conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z)
    n1 = batch_norm_f32(dequantize(cq, c_s, c_z), *bn, 1e-3)
    n2 = batch_norm_f32(f, *bn, 1e-5)
    return m, {"x": x, "f": f}, {
        "y1": ("codes", quantize(n1, 1.0 / 32, 0, np.int8), 1.0 / 32, 0),
        "y2": ("codes", quantize(n2, 1.0 / 32, 0, np.int8), 1.0 / 32, 0)}


def seq_sum(v, axis):
    """The f32 sum along `axis` in index order (kept with size 1)."""
    return np.cumsum(v, axis=axis, dtype=F32).take([-1], axis=axis)


def mean_axes(v, axes):
    """The importer's f32 mean: the sum along each axis in turn, one
    division by the count."""
    total, count = v, 1
    for a in axes:
        total = seq_sum(total, a)
        count *= v.shape[a]
    return (total / F32(count)).astype(F32)


def standardize_f32(x, axes, eps):
    """x - mean and sqrt(var + eps) over `axes`, var the mean of the squared
    deviations (ONNX LayerNormalization's function)."""
    d = (x - mean_axes(x, axes)).astype(F32)
    var = mean_axes((d * d).astype(F32), axes)
    return d, np.sqrt((var + F32(eps)).astype(F32))


def layer_norm_f32(x, scale, bias, axis, eps=1e-5):
    """ONNX LayerNormalization: Normalized = D * Reciprocal(StdDev),
    Y = Normalized * Scale + B, each step rounded to f32."""
    d, std = standardize_f32(x, list(range(axis % x.ndim, x.ndim)), eps)
    y = ((d * (F32(1) / std).astype(F32)).astype(F32) * scale).astype(F32)
    return y if bias is None else (y + bias).astype(F32)


def instance_norm_f32(x, scale, bias, eps=1e-5):
    """ONNX InstanceNormalization, scale * (x - mean) / sqrt(var + eps) + B
    left to right, per image and channel over the spatial axes."""
    shape = [1, -1] + [1] * (x.ndim - 2)
    d, std = standardize_f32(x, list(range(2, x.ndim)), eps)
    s, b = np.asarray(scale, F32).reshape(shape), np.asarray(bias, F32).reshape(shape)
    return ((((s * d).astype(F32)) / std).astype(F32) + b).astype(F32)


def case_normalization():
    """Opset 17 as torch exports nn.LayerNorm, nn.GroupNorm / InstanceNorm2d,
    nn.PReLU, torch.maximum / minimum and x.sum / amax / amin:
    LayerNormalization (last axis with B, two axes without), InstanceNormalization
    (on a conv result in NHWC, on a float rank-3 input), PRelu (per-channel
    slope on the conv result, a slope over the last axis), Max / Min,
    ReduceSum (axes as an input), ReduceMax, ReduceMin; f32 on the
    dequantized values, then QuantizeLinear. Compared with numpy models of
    the ONNX definitions in f32, sums in index order."""
    r = rng(57)
    t = r.uniform(-2, 2, (2, 5, 8)).astype(F32)
    u = r.uniform(-1, 1, (1, 5, 8)).astype(F32)
    x = r.uniform(-1, 1, (1, 2, 4, 4)).astype(F32)
    f = r.uniform(-3, 3, (2, 3, 4)).astype(F32)
    w = r.integers(-127, 128, (3, 2, 1, 1)).astype(np.int8)
    g8, b8 = r.uniform(0.5, 1.5, 8).astype(F32), r.uniform(-0.5, 0.5, 8).astype(F32)
    g58 = r.uniform(0.5, 1.5, (5, 8)).astype(F32)
    s3, b3 = r.uniform(0.5, 1.5, 3).astype(F32), r.uniform(-0.5, 0.5, 3).astype(F32)
    slope3 = np.array([0.25, -0.5, 0.1], F32).reshape(3, 1, 1)
    slope8 = r.uniform(0, 0.5, 8).astype(F32)
    cmax = r.uniform(-1, 1, 8).astype(F32)
    t_s, t_z, x_s, x_z, c_s, c_z, w_s = 0.02, 128, 0.01, 120, 0.02, 100, 0.01
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "t", t_s, t_z)
    qdq(nodes, inits, "x", x_s, x_z)
    N = helper.make_node
    nodes += [
        *conv_nodes,
        N("LayerNormalization", ["td", "g8", "b8"], ["ln1"]),
        N("LayerNormalization", ["td", "g58"], ["ln2"], axis=1, epsilon=1e-3),
        N("InstanceNormalization", ["cd", "s3", "b3"], ["in1"]),
        N("InstanceNormalization", ["f", "s3", "b3"], ["in2"], epsilon=1e-3),
        N("PRelu", ["cd", "slope3"], ["pr1"]),
        N("PRelu", ["td", "slope8"], ["pr2"]),
        N("Max", ["td", "u"], ["mx"]),
        N("Min", ["td", "cmax"], ["mn"]),
        N("ReduceSum", ["td", "axes1"], ["rsum"]),
        N("ReduceMax", ["td"], ["rmax"], axes=[2], keepdims=0),
        N("ReduceMin", ["td"], ["rmin"], axes=[0, 2]),
    ]
    inits += [*conv_inits, init("g8", g8), init("b8", b8), init("g58", g58),
              init("s3", s3), init("b3", b3), init("slope3", slope3),
              init("slope8", slope8), init("cmax", cmax),
              init("axes1", np.array([1], np.int64))]
    outs = [("ln1", [2, 5, 8], 1.0 / 32, 0), ("ln2", [2, 5, 8], 1.0 / 32, 0),
            ("in1", [1, 3, 4, 4], 1.0 / 32, 0), ("in2", [2, 3, 4], 1.0 / 32, 0),
            ("pr1", [1, 3, 4, 4], 0.02, 0), ("pr2", [2, 5, 8], 0.02, 0),
            ("mx", [2, 5, 8], 0.02, 0), ("mn", [2, 5, 8], 0.02, 0),
            ("rsum", [2, 1, 8], 0.05, 0), ("rmax", [2, 5], 0.02, 0),
            ("rmin", [1, 5, 1], 0.02, 0)]
    for src, _, sc, zp in outs:
        qdq_out(nodes, inits, src, "y_" + src, sc, zp, np.int8)
    m = model(nodes, [tin("t", [2, 5, 8]), tin("u", [1, 5, 8]), tin("x", [1, 2, 4, 4]),
                      tin("f", [2, 3, 4])],
              [tin("y_" + src, shape) for src, shape, _, _ in outs], inits, opset=17)
    td = dequantize(quantize(t, t_s, t_z, np.uint8), t_s, t_z)
    cd = dequantize(conv_codes(quantize(x, x_s, x_z, np.uint8), w, x_s, x_z, w_s,
                               c_s, c_z), c_s, c_z)

    def prelu(v, slope):
        return np.where(v < 0, (slope * v).astype(F32), v).astype(F32)

    vals = {
        "ln1": layer_norm_f32(td, g8, b8, -1),
        "ln2": layer_norm_f32(td, g58, None, 1, 1e-3),
        "in1": instance_norm_f32(cd, s3, b3),
        "in2": instance_norm_f32(f, s3, b3, 1e-3),
        "pr1": prelu(cd, slope3),
        "pr2": prelu(td, slope8),
        "mx": np.maximum(td, u),
        "mn": np.minimum(td, cmax),
        "rsum": seq_sum(td, 1),
        "rmax": td.max(axis=2),
        "rmin": td.min(axis=(0, 2), keepdims=True),
    }
    expected = {}
    for src, shape, sc, zp in outs:
        assert vals[src].dtype == F32 and list(vals[src].shape) == shape, src
        q = quantize(vals[src], sc, zp, np.int8)
        assert (np.abs(q) < 127).mean() > 0.9, src  # mostly unsaturated
        expected["y_" + src] = ("codes", q, sc, zp)
    return m, {"t": t, "u": u, "x": x, "f": f}, expected


def case_masks_and_shapes():
    """What torch exports for masks and broadcasts at opset 17: a causal
    mask folded at import (Equal / Not on a constant lower triangle, its
    fill value an Expand of a scalar) applied by Where to run-time scores;
    Expand and Tile of quantized codes (copied, no requantization) and of
    a float input; Elu, Softplus and Mish (x * tanh(softplus(x))) in f32.
    Compared with numpy models of the ONNX definitions."""
    r = rng(58)
    t = r.uniform(-3, 3, (2, 5, 8)).astype(F32)
    u = r.uniform(-1, 1, (5, 1)).astype(F32)
    f = r.uniform(-1, 1, (3, 1)).astype(F32)
    tri = np.tril(np.ones((5, 8), np.int64))
    t_s, t_z, u_s, u_z = 0.025, 128, 0.01, 120
    nodes, inits = [], []
    qdq(nodes, inits, "t", t_s, t_z)
    qdq(nodes, inits, "u", u_s, u_z)
    N = helper.make_node
    nodes += [
        N("Equal", ["tri", "zero"], ["masked"]),
        N("Not", ["masked"], ["keep"]),
        N("Expand", ["fill", "shape58"], ["fills"]),
        N("Where", ["keep", "td", "fills"], ["wh"]),
        N("Expand", ["ud", "shape258"], ["ex"]),
        N("Tile", ["td", "reps"], ["ti"]),
        N("Expand", ["f", "shape234"], ["fex"]),
        N("Elu", ["td"], ["elu"], alpha=0.5),
        N("Softplus", ["td"], ["sp"]),
        N("Tanh", ["sp"], ["tsp"]),
        N("Mul", ["td", "tsp"], ["mish"]),
    ]
    inits += [init("tri", tri), init("zero", np.int64(0)), init("fill", F32(-2.0)),
              init("shape58", np.array([5, 8], np.int64)),
              init("shape258", np.array([2, 5, 8], np.int64)),
              init("reps", np.array([1, 2, 1], np.int64)),
              init("shape234", np.array([2, 3, 4], np.int64))]
    outs = [("wh", [2, 5, 8], t_s, 0), ("ex", [2, 5, 8], u_s, u_z - 128),
            ("ti", [2, 10, 8], t_s, 0), ("fex", [2, 3, 4], 1.0 / 128, 0),
            ("elu", [2, 5, 8], 0.025, 0), ("sp", [2, 5, 8], 0.025, -128),
            ("mish", [2, 5, 8], 0.025, 0)]
    for src, _, sc, zp in outs:
        qdq_out(nodes, inits, src, "y_" + src, sc, zp, np.int8)
    m = model(nodes, [tin("t", [2, 5, 8]), tin("u", [5, 1]), tin("f", [3, 1])],
              [tin("y_" + src, shape) for src, shape, _, _ in outs], inits, opset=17)
    td = dequantize(quantize(t, t_s, t_z, np.uint8), t_s, t_z)
    ud = dequantize(quantize(u, u_s, u_z, np.uint8), u_s, u_z)
    pos = td > 0
    lp = np.log1p(np.exp(np.where(pos, -td, td))).astype(F32)
    sp = np.where(pos, (td + lp).astype(F32), lp)
    vals = {
        "wh": np.where(tri != 0, td, F32(-2.0)),
        "ex": np.broadcast_to(ud, (2, 5, 8)),
        "ti": np.tile(td, (1, 2, 1)),
        "fex": np.broadcast_to(f, (2, 3, 4)),
        "elu": np.where(td < 0, (F32(0.5) * (np.exp(td) - F32(1)).astype(F32)).astype(F32), td),
        "sp": sp,
        "mish": (td * np.tanh(sp)).astype(F32),
    }
    expected = {}
    for src, shape, sc, zp in outs:
        v = vals[src]
        assert v.dtype == F32 and list(v.shape) == shape, src
        q = quantize(v, sc, zp, np.int8)
        assert (np.abs(q) < 127).mean() > 0.8, src  # mostly unsaturated
        expected["y_" + src] = ("codes", q, sc, zp)
    return m, {"t": t, "u": u, "f": f}, expected


def case_attention_mask():
    """A BERT-style attention mask from an int64 graph input, as torch
    exports `(1.0 - mask[:, None, None, :].float()) * -10000.0` added to the
    scores before Softmax: Cast of run-time int64 to float (sitofp), Sub,
    Mul, Unsqueeze, Add and Softmax in f32, then QuantizeLinear. Compared
    with a numpy model of the ONNX definitions."""
    r = rng(59)
    scores = (r.integers(-32, 32, (2, 2, 3, 4)) / 16.0).astype(F32)
    mask = np.array([[1, 1, 1, 0], [1, 1, 0, 0]], np.int64)
    nodes, inits = [], []
    N = helper.make_node
    nodes += [
        N("Cast", ["mask"], ["maskf"], to=TensorProto.FLOAT),
        N("Sub", ["one", "maskf"], ["inv"]),
        N("Mul", ["inv", "big"], ["bias"]),
        N("Unsqueeze", ["bias", "axes12"], ["bias4"]),
        N("Add", ["scores", "bias4"], ["masked"]),
        N("Softmax", ["masked"], ["p"], axis=-1),
    ]
    inits += [init("one", F32(1.0)), init("big", F32(-10000.0)),
              init("axes12", np.array([1, 2], np.int64))]
    qdq_out(nodes, inits, "p", "y", 1.0 / 255, 0, np.uint8)
    m = model(nodes, [tin("scores", [2, 2, 3, 4]), tin("mask", [2, 4], TensorProto.INT64)],
              [tin("y", [2, 2, 3, 4])], inits)
    bias = ((F32(1.0) - mask.astype(F32)) * F32(-10000.0)).astype(F32)
    masked = (scores + bias[:, None, None, :]).astype(F32)
    e = np.exp((masked - masked.max(axis=-1, keepdims=True)).astype(F32)).astype(F32)
    p = (e / seq_sum(e, 3)).astype(F32)
    y = quantize(p, 1.0 / 255, 0, np.uint8)
    assert (y[..., 3] == 0).all() and (y[..., 0] > 0).any()  # masked keys get 0
    return m, {"scores": scores, "mask": mask}, {"y": ("codes", y, 1.0 / 255, 0)}


def case_global_max_pool():
    """GlobalMaxPool (tf2onnx and keras2onnx write it for global max
    pooling): on quantized codes a qnt.max_pool2d whose window is all of H
    and W (codes copied), on a float input the max in f32."""
    r = rng(60)
    x = r.uniform(-1, 1, (2, 3, 4, 5)).astype(F32)
    f = r.uniform(-2, 2, (1, 2, 3, 3)).astype(F32)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.01, 120)
    nodes += [helper.make_node("GlobalMaxPool", ["xd"], ["m1"]),
              helper.make_node("GlobalMaxPool", ["f"], ["m2"])]
    qdq_out(nodes, inits, "m1", "y1", 0.01, 120)
    qdq_out(nodes, inits, "m2", "y2", 1.0 / 64, 0, np.int8)
    m = model(nodes, [tin("x", [2, 3, 4, 5]), tin("f", [1, 2, 3, 3])],
              [tin("y1", [2, 3, 1, 1]), tin("y2", [1, 2, 1, 1])], inits)
    xq = quantize(x, 0.01, 120, np.uint8)
    y1 = xq.max(axis=(2, 3), keepdims=True)
    y2 = quantize(f.max(axis=(2, 3), keepdims=True), 1.0 / 64, 0, np.int8)
    return m, {"x": x, "f": f}, {"y1": ("codes", y1, 0.01, 120),
                                 "y2": ("codes", y2, 1.0 / 64, 0)}


def resize_source(o, in_len, out_len, scale, transform):
    """The input coordinate of output index `o` along an axis, by ONNX
    Resize's coordinate transformation, in float64."""
    if transform == "half_pixel":
        return (o + 0.5) / scale - 0.5
    if transform == "pytorch_half_pixel":
        return (o + 0.5) / scale - 0.5 if out_len > 1 else 0.0
    if transform == "align_corners":
        return o * (in_len - 1) / (out_len - 1) if out_len > 1 else 0.0
    if transform == "asymmetric":
        return o / scale
    raise ValueError(transform)


def resize_linear_f32(x, out_h, out_w, transform, scales=None):
    """Bilinear Resize over H, W in f32: the source coordinate (ONNX's
    transformation with the given scale, else out / in, in float64) clamped
    to the input, two taps per axis with weights rounded to f32, along W in
    each row, then along H."""
    def taps(in_len, out_len, scale):
        scale = scale or out_len / in_len
        lo, hi, w_lo, w_hi = [], [], [], []
        for o in range(out_len):
            c = resize_source(o, in_len, out_len, scale, transform)
            c = min(max(c, 0.0), in_len - 1)
            f = np.floor(c)
            lo.append(int(f))
            hi.append(int(min(f + 1, in_len - 1)))
            w_hi.append(F32(c - f))
            w_lo.append(F32(1.0 - (c - f)))
        return lo, hi, np.array(w_lo, F32), np.array(w_hi, F32)

    sh, sw = scales or (None, None)
    h0, h1, wy0, wy1 = taps(x.shape[2], out_h, sh)
    c0, c1, wx0, wx1 = taps(x.shape[3], out_w, sw)
    rows = lambda r: ((x[:, :, r][:, :, :, c0] * wx0).astype(F32) +
                      (x[:, :, r][:, :, :, c1] * wx1).astype(F32)).astype(F32)
    top, bottom = rows(h0), rows(h1)
    return ((top * wy0[:, None]).astype(F32) +
            (bottom * wy1[:, None]).astype(F32)).astype(F32)


def case_resize_linear():
    """Resize, mode linear (bilinear upsampling of FPN and segmentation
    heads): f32 on the dequantized values; by 2 with half_pixel on a conv
    result (NHWC), to 5 x 7 with align_corners and by 1.5 asymmetric on
    dequantized codes (NCHW), then QuantizeLinear."""
    r = rng(55)
    x = r.uniform(-1, 1, (1, 2, 3, 4)).astype(F32)
    w = r.integers(-127, 128, (2, 2, 1, 1)).astype(np.int8)
    x_s, x_z, c_s, c_z, w_s = 0.01, 120, 0.02, 10, 0.01
    conv_nodes, conv_inits = qdq_conv(w, w_s, c_s, c_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        *conv_nodes,
        helper.make_node("Resize", ["cd", "", "s2"], ["r1"], mode="linear"),
        helper.make_node("Resize", ["xd", "", "", "sizes"], ["r2"], mode="linear",
                         coordinate_transformation_mode="align_corners"),
        helper.make_node("Resize", ["xd", "", "s3"], ["r3"], mode="linear",
                         coordinate_transformation_mode="asymmetric"),
    ]
    inits += [*conv_inits,
              init("s2", np.array([1, 1, 2, 2], F32)),
              init("sizes", np.array([1, 2, 5, 7], np.int64)),
              init("s3", np.array([1, 1, 1.5, 1.5], F32))]
    for src, name in (("r1", "y1"), ("r2", "y2"), ("r3", "y3")):
        qdq_out(nodes, inits, src, name, 1.0 / 128, 0, np.int8)
    m = model(nodes, [tin("x", [1, 2, 3, 4])],
              [tin("y1", [1, 2, 6, 8]), tin("y2", [1, 2, 5, 7]),
               tin("y3", [1, 2, 4, 6])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    cq = conv_codes(xq, w, x_s, x_z, w_s, c_s, c_z)
    xd, cd = dequantize(xq, x_s, x_z), dequantize(cq, c_s, c_z)
    outs = {"y1": resize_linear_f32(cd, 6, 8, "half_pixel"),
            "y2": resize_linear_f32(xd, 5, 7, "align_corners"),
            "y3": resize_linear_f32(xd, 4, 6, "asymmetric", (1.5, 1.5))}
    return m, {"x": x}, {k: ("codes", quantize(v, 1.0 / 128, 0, np.int8), 1.0 / 128, 0)
                         for k, v in outs.items()}


def linear_resize_f64(x, axis, out_len, transform, scale=None):
    """ONNX's linear Resize along one axis in float64: the source coordinate
    of each output index (the transform with the given scale, else out /
    in), clamped to the input, the two neighbours weighted by distance.
    Multilinear resizes are this along each axis in turn (exactly, in real
    arithmetic)."""
    in_len = x.shape[axis]
    scale = scale or out_len / in_len
    x = np.moveaxis(x.astype(np.float64), axis, -1)
    out = np.empty(x.shape[:-1] + (out_len,))
    for o in range(out_len):
        c = resize_source(o, in_len, out_len, scale, transform)
        c = min(max(c, 0.0), in_len - 1)
        lo = int(np.floor(c))
        hi = min(lo + 1, in_len - 1)
        out[..., o] = x[..., lo] * (1 - (c - lo)) + x[..., hi] * (c - lo)
    return np.moveaxis(out, -1, axis)


def case_resize_linear_nd():
    """Linear Resize of N x C x L (torch's interpolate(mode="linear"): by 2
    with half_pixel on a float input, to 12 with align_corners on
    dequantized codes) and trilinear of N x C x D x H x W (by 2 with
    half_pixel; to sizes with asymmetric, H shrinking), imported as the
    rank-4 resize over planes. Against ONNX's definition in float64, to the
    six digits the driver prints."""
    r = rng(175)
    a = r.uniform(-2, 2, (1, 2, 9)).astype(F32)
    b = r.uniform(-1, 1, (1, 3, 7)).astype(F32)
    v = r.uniform(-2, 2, (1, 2, 3, 4, 5)).astype(F32)
    b_s, b_z = 1.0 / 128, 3
    nodes, inits = [], []
    qdq(nodes, inits, "b", b_s, b_z, np.int8)
    qdq(nodes, inits, "v", 1.0 / 64, 0, np.int8)
    nodes += [
        helper.make_node("Resize", ["a", "", "sa"], ["ya"], mode="linear"),
        helper.make_node("Resize", ["bd", "", "", "sizes_b"], ["yb"], mode="linear",
                         coordinate_transformation_mode="align_corners"),
        helper.make_node("Resize", ["v", "", "sv"], ["yv"], mode="linear"),
        helper.make_node("Resize", ["vd", "", "", "sizes_v"], ["yw"], mode="linear",
                         coordinate_transformation_mode="asymmetric")]
    inits += [init("sa", np.array([1, 1, 2], F32)),
              init("sizes_b", np.array([1, 3, 12], np.int64)),
              init("sv", np.array([1, 1, 2, 2, 2], F32)),
              init("sizes_v", np.array([1, 2, 5, 3, 7], np.int64))]
    bd = dequantize(quantize(b, b_s, b_z, np.int8), b_s, b_z)
    vd = dequantize(quantize(v, 1.0 / 64, 0, np.int8), 1.0 / 64, 0)
    want = {"ya": linear_resize_f64(a, 2, 18, "half_pixel", 2.0),
            "yb": linear_resize_f64(bd, 2, 12, "align_corners")}
    yv = v
    for axis, n in ((2, 6), (3, 8), (4, 10)):
        yv = linear_resize_f64(yv, axis, n, "half_pixel", 2.0)
    yw = vd
    for axis, n in ((2, 5), (3, 3), (4, 7)):
        yw = linear_resize_f64(yw, axis, n, "asymmetric")
    want.update(yv=yv, yw=yw)
    m = model(nodes, [tin("a", [1, 2, 9]), tin("b", [1, 3, 7]),
                      tin("v", [1, 2, 3, 4, 5])],
              [tin(k, list(y.shape)) for k, y in want.items()], inits)
    return m, {"a": a, "b": b, "v": v}, {
        k: ("approx", y, 1e-5 * (1 + np.abs(y))) for k, y in want.items()}


def cubic_resize_f64(x, axis, out_len, transform, scale=None, a=-0.75,
                     exclude_outside=False):
    """ONNX's cubic Resize along one axis in float64, as its reference
    (onnx/reference/ops/op_resize.py) computes it: the source coordinate,
    the four nearest indices of the input padded with its edge values by
    two (ties to the lower index), Keys' coefficients of the fractional
    part (1 for an integer coordinate), with exclude_outside those outside
    the input set to 0 and the rest renormalized."""
    in_len = x.shape[axis]
    scale = scale or out_len / in_len
    x = np.moveaxis(x.astype(np.float64), axis, -1)
    padded = np.concatenate([x[..., :1], x[..., :1], x, x[..., -1:], x[..., -1:]],
                            axis=-1)
    out = np.empty(x.shape[:-1] + (out_len,))
    A = a
    for o in range(out_len):
        c = resize_source(o, in_len, out_len, scale, transform)
        r = 1.0 if c == int(np.floor(c)) else c - np.floor(c)
        coeffs = np.array([
            ((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
            ((A + 2) * r - (A + 3)) * r * r + 1,
            ((A + 2) * (1 - r) - (A + 3)) * (1 - r) * (1 - r) + 1,
            ((A * ((1 - r) + 1) - 5 * A) * ((1 - r) + 1) + 8 * A) * ((1 - r) + 1) - 4 * A])
        cp = c + 2
        idx = sorted(sorted(range(in_len + 4), key=lambda i: (abs(cp - i), i))[:4])
        src = np.array(idx) - 2
        if exclude_outside:
            coeffs = np.where((src < 0) | (src >= in_len), 0.0, coeffs)
            coeffs = coeffs / coeffs.sum()
        out[..., o] = padded[..., idx] @ coeffs
    return np.moveaxis(out, -1, axis)


def case_resize_cubic():
    """Cubic Resize (torch's bicubic interpolate: cubic_coeff_a -0.75,
    pytorch_half_pixel, by 2 on a float input; TensorFlow's: -0.5 with
    exclude_outside, half_pixel, to sizes that shrink W, on dequantized
    codes; align_corners over the L of N x C x L). Against ONNX's reference
    algorithm in float64, to the six digits the driver prints."""
    r = rng(176)
    a = r.uniform(-2, 2, (1, 2, 4, 5)).astype(F32)
    b = r.uniform(-1, 1, (1, 3, 5, 6)).astype(F32)
    c = r.uniform(-2, 2, (1, 2, 6)).astype(F32)
    b_s, b_z = 1.0 / 128, -5
    nodes, inits = [], []
    qdq(nodes, inits, "b", b_s, b_z, np.int8)
    nodes += [
        helper.make_node("Resize", ["a", "", "sa"], ["ya"], mode="cubic",
                         cubic_coeff_a=-0.75,
                         coordinate_transformation_mode="pytorch_half_pixel"),
        helper.make_node("Resize", ["bd", "", "", "sizes_b"], ["yb"], mode="cubic",
                         cubic_coeff_a=-0.5, exclude_outside=1),
        helper.make_node("Resize", ["c", "", "", "sizes_c"], ["yc"], mode="cubic",
                         coordinate_transformation_mode="align_corners")]
    inits += [init("sa", np.array([1, 1, 2, 2], F32)),
              init("sizes_b", np.array([1, 3, 7, 4], np.int64)),
              init("sizes_c", np.array([1, 2, 11], np.int64))]
    bd = dequantize(quantize(b, b_s, b_z, np.int8), b_s, b_z)
    ya = cubic_resize_f64(a, 2, 8, "pytorch_half_pixel", 2.0)
    ya = cubic_resize_f64(ya, 3, 10, "pytorch_half_pixel", 2.0)
    yb = cubic_resize_f64(bd, 2, 7, "half_pixel", a=-0.5, exclude_outside=True)
    yb = cubic_resize_f64(yb, 3, 4, "half_pixel", a=-0.5, exclude_outside=True)
    yc = cubic_resize_f64(c, 2, 11, "align_corners")
    want = {"ya": ya, "yb": yb, "yc": yc}
    m = model(nodes, [tin("a", [1, 2, 4, 5]), tin("b", [1, 3, 5, 6]),
                      tin("c", [1, 2, 6])],
              [tin(k, list(y.shape)) for k, y in want.items()], inits)
    return m, {"a": a, "b": b, "c": c}, {
        k: ("approx", y, 1e-5 * (1 + np.abs(y))) for k, y in want.items()}


def case_upsample():
    """Upsample at opset 9 (older exports: YOLOv3), the Resize of
    asymmetric / floor coordinates: nearest by (2, 3) on codes (ONNX
    Runtime's com.microsoft Q / DQ, the quantized ops of opsets before 10:
    the codes repeat) and linear by 2 on a float input (dyadic values:
    the f32 interpolation is exact and prints exactly)."""
    r = rng(66)
    x = r.uniform(-4, 4, (1, 2, 3, 2)).astype(F32)
    f = (r.integers(-8, 8, (1, 1, 2, 3)) / 4.0).astype(F32)
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"], domain=MS),
        helper.make_node("DequantizeLinear", ["xq", "x_s", "x_z"], ["xd"], domain=MS),
        helper.make_node("Upsample", ["xd", "s1"], ["y1"]),
        helper.make_node("Upsample", ["f", "s2"], ["y2"], mode="linear"),
    ]
    inits = [init("x_s", F32(0.25)), init("x_z", np.uint8(128)),
             init("s1", np.array([1, 1, 2, 3], F32)),
             init("s2", np.array([1, 1, 2, 2], F32))]
    m = model(nodes, [tin("x", [1, 2, 3, 2]), tin("f", [1, 1, 2, 3])],
              [tin("y1", [1, 2, 6, 6]), tin("y2", [1, 1, 4, 6])], inits,
              opset=9, microsoft=True)
    xd = dequantize(quantize(x, 0.25, 128, np.uint8), 0.25, 128)
    y1 = xd.repeat(2, axis=2).repeat(3, axis=3)
    y2 = resize_linear_f32(f, 4, 6, "asymmetric", (2.0, 2.0))
    return m, {"x": x, "f": f}, {"y1": ("float", y1), "y2": ("float", y2)}


def case_upsample7():
    """Upsample-7: the scales are an attribute."""
    f = (np.arange(6).reshape(1, 1, 2, 3) / 4.0 - 0.5).astype(F32)
    nodes = [helper.make_node("Upsample", ["f"], ["y"], scales=[1.0, 1.0, 3.0, 2.0])]
    m = model(nodes, [tin("f", [1, 1, 2, 3])], [tin("y", [1, 1, 6, 6])], [], opset=7)
    return m, {"f": f}, {"y": ("float", f.repeat(3, axis=2).repeat(2, axis=3))}


def conv_transpose(x, w, xz=0, wz=0, strides=(1, 1), pads=(0, 0, 0, 0),
                   output_padding=(0, 0), group=1, dilations=(1, 1)):
    """ONNX ConvTranspose on NCHW x and (C x M/group x kH x kW) w, written
    as its definition's scatter: input pixel (i, j) adds x * w[ki, kj] to
    output (i * s + ki * d, j * s + kj * d) of the full result, which is
    then cropped by pads (begin, end) and extended by output_padding.
    Integer codes sum exactly in int64 (x - xz, w - wz[m]); floats in
    float64."""
    n, c, h, wd = x.shape
    _, mg, kh, kw = w.shape
    exact = np.issubdtype(x.dtype, np.integer)
    dt = np.int64 if exact else np.float64
    xs = x.astype(dt) - xz
    wz = np.broadcast_to(np.asarray(wz, dt), (mg,))
    wc = w.astype(dt) - wz.reshape(1, mg, 1, 1)
    full = [(h - 1) * strides[0] + (kh - 1) * dilations[0] + 1 + output_padding[0],
            (wd - 1) * strides[1] + (kw - 1) * dilations[1] + 1 + output_padding[1]]
    y = np.zeros((n, mg * group, full[0], full[1]), dt)
    cg = c // group
    for g in range(group):
        xg = xs[:, g * cg:(g + 1) * cg]
        for ki in range(kh):
            for kj in range(kw):
                contrib = np.einsum("nchw,cm->nmhw", xg, wc[g * cg:(g + 1) * cg, :, ki, kj])
                r0, c0 = ki * dilations[0], kj * dilations[1]
                y[:, g * mg:(g + 1) * mg,
                  r0:r0 + (h - 1) * strides[0] + 1:strides[0],
                  c0:c0 + (wd - 1) * strides[1] + 1:strides[1]] += contrib
    return y[:, :, pads[0]:full[0] - pads[2], pads[1]:full[1] - pads[3]]


def case_conv_transpose():
    """ConvTranspose three ways: torch's QDQ form (per-channel weights on
    ONNX's axis 1, float bias, stride 2, padding 1, output_padding 1, Relu);
    grouped and dilated int8 codes through DequantizeLinear with a weight
    zero point, padding larger than the kernel's span on one side (the
    result is cropped) and stride 3 with output_padding 2; and a float
    ConvTranspose of a float graph input (dyadic values: the f32 sums are
    exact). The numpy model is the definition's scatter-add, not the
    importer's stride-1 conv."""
    r = rng(61)
    x = r.uniform(-1, 1, (1, 3, 4, 5)).astype(F32)
    x_s, x_z = 2.0 / 255, 128
    w1f = r.uniform(-0.5, 0.5, (3, 4, 3, 3)).astype(F32)
    b1f = r.uniform(-0.2, 0.2, (4,)).astype(F32)
    w1_s = (np.abs(w1f).transpose(1, 0, 2, 3).reshape(4, -1).max(1) / 127).astype(F32)
    w2 = r.integers(-100, 100, (3, 2, 2, 3)).astype(np.int8)
    w2_s, w2_z = 0.01, 3
    # Eighths below 64 print exactly in printMemrefF32's six digits.
    w3 = (r.integers(-4, 4, (2, 3, 3, 3)) / 2.0).astype(F32)
    b3 = (r.integers(-4, 4, (3,)) / 2.0).astype(F32)
    f = (r.integers(-8, 8, (1, 2, 3, 3)) / 4.0).astype(F32)
    y1_s, y1_z, y2_s, y2_z = 0.02, 5, 0.05, 0
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("QuantizeLinear", ["w1", "w1_s", "w1_z"], ["w1q"], axis=1),
        helper.make_node("DequantizeLinear", ["w1q", "w1_s", "w1_z"], ["w1d"], axis=1),
        helper.make_node("ConvTranspose", ["xd", "w1d", "b1"], ["t1"],
                         strides=[2, 2], pads=[1, 1, 1, 1],
                         output_padding=[1, 1], kernel_shape=[3, 3]),
        helper.make_node("Relu", ["t1"], ["r1"]),
        helper.make_node("DequantizeLinear", ["w2", "w2_s", "w2_z"], ["w2d"]),
        helper.make_node("ConvTranspose", ["xd", "w2d"], ["t2"], group=3,
                         dilations=[2, 1], strides=[1, 3], pads=[3, 0, 0, 3],
                         output_padding=[0, 2]),
        helper.make_node("ConvTranspose", ["f", "w3", "b3"], ["y3"],
                         strides=[2, 2]),
    ]
    inits += [init("w1", w1f), init("w1_s", w1_s), init("w1_z", np.zeros(4, np.int8)),
              init("b1", b1f), init("w2", w2), init("w2_s", F32(w2_s)),
              init("w2_z", np.int8(w2_z)), init("w3", w3), init("b3", b3)]
    qdq_out(nodes, inits, "r1", "y1", y1_s, y1_z)
    qdq_out(nodes, inits, "t2", "y2", y2_s, y2_z, np.int8)
    m = model(nodes, [tin("x", [1, 3, 4, 5]), tin("f", [1, 2, 3, 3])],
              [tin("y1", [1, 4, 8, 10]), tin("y2", [1, 6, 3, 14]),
               tin("y3", [1, 3, 7, 7])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    w1q = quantize(w1f, w1_s, np.zeros(4), np.int8, axis=1)
    acc1 = conv_transpose(xq, w1q, x_z, 0, strides=(2, 2), pads=(1, 1, 1, 1),
                          output_padding=(1, 1))
    acc1 = acc1 + bias_codes(b1f, x_s, w1_s).reshape(1, 4, 1, 1)
    y1 = requantize(acc1, F32(x_s) * w1_s, y1_s, y1_z, np.uint8, lo=y1_z, axis=1)
    acc2 = conv_transpose(xq, w2.astype(np.int64), x_z, w2_z, strides=(1, 3),
                          pads=(3, 0, 0, 3), output_padding=(0, 2), group=3,
                          dilations=(2, 1))
    y2 = requantize(acc2, F32(x_s) * F32(w2_s), y2_s, y2_z, np.int8)
    y3 = conv_transpose(f, w3, strides=(2, 2)) + b3.astype(np.float64).reshape(1, 3, 1, 1)
    assert y1.shape == (1, 4, 8, 10) and y2.shape == (1, 6, 3, 14)
    assert y3.shape == (1, 3, 7, 7)
    return m, {"x": x, "f": f}, {"y1": ("codes", y1, y1_s, y1_z),
                                 "y2": ("codes", y2, y2_s, y2_z),
                                 "y3": ("float", y3.astype(F32))}


def case_conv_transpose1d():
    """1-D ConvTranspose (audio decoders), quantized (per-channel weights on
    axis 1, stride 4, padding 2 and 1, output_padding 3, Relu) and in f32
    (grouped, dilation 2; dyadic values). The numpy model is the 2-D
    scatter-add with a height of 1."""
    r = rng(67)
    x = r.uniform(-1, 1, (2, 4, 5)).astype(F32)
    x_s, x_z = 2.0 / 255, 100
    w1f = r.uniform(-0.5, 0.5, (4, 3, 5)).astype(F32)
    w1_s = (np.abs(w1f).transpose(1, 0, 2).reshape(3, -1).max(1) / 127).astype(F32)
    f = (r.integers(-8, 8, (1, 4, 3)) / 4.0).astype(F32)
    w2 = (r.integers(-4, 4, (4, 1, 3)) / 2.0).astype(F32)
    y1_s, y1_z = 0.02, 3
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [
        helper.make_node("QuantizeLinear", ["w1", "w1_s", "w1_z"], ["w1q"], axis=1),
        helper.make_node("DequantizeLinear", ["w1q", "w1_s", "w1_z"], ["w1d"], axis=1),
        helper.make_node("ConvTranspose", ["xd", "w1d"], ["t1"], strides=[4],
                         pads=[2, 1], output_padding=[3]),
        helper.make_node("Relu", ["t1"], ["r1"]),
        helper.make_node("ConvTranspose", ["f", "w2"], ["y2"], group=2, dilations=[2]),
    ]
    inits += [init("w1", w1f), init("w1_s", w1_s), init("w1_z", np.zeros(3, np.int8)),
              init("w2", w2)]
    qdq_out(nodes, inits, "r1", "y1", y1_s, y1_z)
    # 4 * (5 - 1) + 3 + 4 + 1 - 3 = 21; 3 - 1 + 4 + 1 = 7.
    m = model(nodes, [tin("x", [2, 4, 5]), tin("f", [1, 4, 3])],
              [tin("y1", [2, 3, 21]), tin("y2", [1, 2, 7])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    w1q = quantize(w1f, w1_s, np.zeros(3), np.int8, axis=1)
    acc1 = conv_transpose(xq[:, :, None, :], w1q[:, :, None, :], x_z, 0, strides=(1, 4),
                          pads=(0, 2, 0, 1), output_padding=(0, 3))[:, :, 0, :]
    y1 = requantize(acc1, F32(x_s) * w1_s, y1_s, y1_z, np.uint8, lo=y1_z, axis=1)
    y2 = conv_transpose(f[:, :, None, :], w2[:, :, None, :], group=2,
                        dilations=(1, 2))[:, :, 0, :]
    return m, {"x": x, "f": f}, {"y1": ("codes", y1, y1_s, y1_z),
                                 "y2": ("float", y2.astype(F32))}


def bad_op_model(op, attrs, shape=(1, 4, 2, 2), out_shape=(1, 4, 2, 2), extra=(),
                 opset=13):
    nodes, inits = [], []
    qdq_input(nodes, inits)
    ins = ["xd"] + [name for name, _ in extra]
    nodes.append(helper.make_node(op, ins, ["y"], name="bad", **attrs))
    inits += [init(name, arr) for name, arr in extra]
    return model(nodes, [tin("x", list(shape))], [tin("y", list(out_shape))], inits,
                 opset=opset), {}, {}


def case_bad_conv_transpose_stride():
    return bad_op_model("ConvTranspose", {"strides": [0, 1]},
                        extra=[("w", np.ones((4, 1, 1, 1), F32))])


# Hostile shapes and attributes found by a generated corpus (2026-12-07):
# each imports quickly or is diagnosed (hostile-shapes.test).
def case_conv_transpose_stride_huge():
    """A quantized ConvTranspose at stride 2^20 with a 1 x 1 kernel on a
    1 x 1 input: its sub-pixel phase table would hold 2^40 codes; the
    stuffed form is one pixel. Output [1, 1, 1, 1], the input times w."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["wq", "w_s"], ["wd"]),
              helper.make_node("ConvTranspose", ["xd", "wd"], ["t"], name="up",
                               strides=[1 << 20, 1 << 20]),
              helper.make_node("QuantizeLinear", ["t", "x_s", "x_z"], ["y"])]
    inits += [init("wq", np.full((1, 1, 1, 1), 2, np.int8)), init("w_s", F32(0.5))]
    x = np.array([[[[1.5]]]], F32)
    # x on its grid (1.5 = code 143), times 2 * 0.5, requantized: 143.
    return model(nodes, [tin("x", [1, 1, 1, 1])],
                 [tin("y", [1, 1, 1, 1], TensorProto.UINT8)], inits), \
        {"x": x}, {"y": ("int", np.array([[[[143]]]], np.uint8))}


def case_avg_pool_kernel_huge():
    """AveragePool over 2^40 positions of a float input (declared, never
    allocated at import): its count table is computed in closed form."""
    nodes = [helper.make_node("AveragePool", ["x"], ["y"], name="pool",
                              kernel_shape=[1 << 40])]
    return model(nodes, [tin("x", [1, 1, 1 << 40])], [tin("y", [1, 1, 1])], [],
                 opset=17), {}, {}


def case_bad_max_pool_extent():
    nodes = [helper.make_node("MaxPool", ["x"], ["y"], name="pool",
                              kernel_shape=[1 << 30, 2], dilations=[1 << 30, 1])]
    return model(nodes, [tin("x", [1, 1, 7, 7])], [tin("y", [1, 1, 1, 1])], [],
                 opset=17), {}, {}


def case_bad_conv_transpose_empty_kernel():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes += [helper.make_node("DequantizeLinear", ["wq", "w_s"], ["wd"]),
              helper.make_node("ConvTranspose", ["xd", "wd"], ["y"], name="up",
                               strides=[2, 2])]
    inits += [init("wq", np.zeros((1, 1, 0, 1), np.int8)), init("w_s", F32(0.5))]
    return model(nodes, [tin("x", [1, 1, 2, 2])], [tin("y", [1, 1, 2, 2])],
                 inits), {}, {}


def case_bad_grid_sample_empty():
    nodes = [helper.make_node("GridSample", ["img", "g"], ["y"], name="gs",
                              padding_mode="border")]
    return model(nodes, [tin("g", [1, 2, 2, 2])], [tin("y", [1, 1, 2, 2])],
                 [init("img", np.zeros((1, 1, 0, 4), F32))], opset=16), {}, {}


def ms_node_model(op, inputs, shapes, inits=(), out_shape=(1, 2, 4), **attrs):
    """One com.microsoft `op` node named 'ms' on float graph inputs."""
    nodes = [helper.make_node(op, list(inputs), ["y"], name="ms", domain=MS,
                              **attrs)]
    return model(nodes, [tin(n, list(sh)) for n, sh in shapes],
                 [tin("y", list(out_shape))], list(inits), opset=13,
                 microsoft=True), {}, {}


def case_bad_skip_norm_shape():
    return ms_node_model("SkipLayerNormalization", ["x", "skip", "g"],
                         [("x", (1, 2, 4)), ("skip", (3, 1, 2, 4))],
                         [init("g", np.ones(4, F32))])


def case_bad_skip_norm_epsilon():
    return ms_node_model("SkipSimplifiedLayerNormalization", ["x", "x", "g"],
                         [("x", (1, 2, 4))], [init("g", np.ones(4, F32))],
                         epsilon=float("nan"))


def case_bad_quick_gelu_inputs():
    return ms_node_model("QuickGelu", ["x", "x"], [("x", (1, 2, 4))])


def case_bad_embed_mask_shape():
    nodes = [helper.make_node("EmbedLayerNormalization",
                              ["ids", "", "word", "pos", "", "g", "b", "mask"],
                              ["y", "mask_index"], name="ms", domain=MS)]
    I32 = TensorProto.INT32
    inits = [init("word", np.ones((5, 4), F32)), init("pos", np.ones((3, 4), F32)),
             init("g", np.ones(4, F32)), init("b", np.zeros(4, F32))]
    return model(nodes, [tin("ids", [1, 3], I32), tin("mask", [1, 5, 3], I32)],
                 [tin("y", [1, 3, 4]), tin("mask_index", [1], I32)], inits,
                 opset=13, microsoft=True), {}, {}


def case_zero_size_broadcast():
    """numpy broadcasting of a size-0 dimension against size 1 gives 0 (it
    gave 1, reading an empty constant); folded integer results as graph
    outputs (emitted as integer constants)."""
    I32 = TensorProto.INT32
    nodes = [helper.make_node("BitwiseAnd", ["a", "empty"], ["none"]),
             helper.make_node("BitwiseAnd", ["m1", "m2"], ["folded"])]
    inits = [init("empty", np.zeros((0,), np.int32)),
             init("m1", np.array([12, -1], np.int32)),
             init("m2", np.array([10, 7], np.int32))]
    return model(nodes, [tin("a", [1], I32)],
                 [tin("none", [0], I32), tin("folded", [2], I32)], inits,
                 opset=18), {}, {}


def case_causal_long():
    """A causal MultiHeadAttention over 300 positions: its S x T mask (90,000
    entries) is one compile-time table (a folded comparison stopped at 2^16
    entries)."""
    return ms_node_model("MultiHeadAttention", ["x", "x", "x"],
                         [("x", (1, 300, 8))], out_shape=(1, 300, 8),
                         num_heads=2, unidirectional=1)


def case_bad_mha_bias_shape():
    return ms_node_model("MultiHeadAttention", ["x", "x", "x", "", "", "ab"],
                         [("x", (1, 2, 4)), ("ab", (1, 1, 1, 2, 2))],
                         num_heads=2)


def case_bad_mha_unidirectional():
    return ms_node_model("MultiHeadAttention", ["x", "x", "x"],
                         [("x", (1, 2, 4))], num_heads=2, unidirectional=2)


def case_bad_dft_quantized():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("DFT", ["xd"], ["y"], name="dft"))
    return model(nodes, [tin("x", [1, 4, 1])], [tin("y", [1, 4, 2])], inits,
                 opset=17), {}, {}


def case_bad_mel_float_count():
    nodes = [helper.make_node("MelWeightMatrix", ["m", "d", "r", "lo", "hi"],
                              ["y"], name="mel")]
    inits = [init("m", F32(2.5)), init("d", np.int64(16)),
             init("r", np.int64(8000)), init("lo", F32(0)), init("hi", F32(3000))]
    return model(nodes, [], [tin("y", [9, 2])], inits, opset=17), {}, {}


def case_bad_depth_to_space_blocksize():
    return bad_op_model("DepthToSpace", {"blocksize": 0})


def case_bad_depth_to_space_mode():
    return bad_op_model("DepthToSpace", {"blocksize": 2, "mode": "XYZ"})


def case_bad_argmax_axis():
    return bad_op_model("ArgMax", {"axis": 4})


def case_bad_celu_alpha():
    return bad_op_model("Celu", {"alpha": 0.0})


def case_bad_upsample_mode():
    # Opset 9 has no QuantizeLinear: a float input.
    nodes = [helper.make_node("Upsample", ["x", "s"], ["y"], name="bad", mode="cubic")]
    return model(nodes, [tin("x", [1, 4, 2, 2])], [tin("y", [1, 4, 4, 4])],
                 [init("s", np.array([1, 1, 2, 2], F32))], opset=9), {}, {}


def case_conv_transpose_blocks():
    """ConvTranspose whose kernel equals its stride (U-Net upsampling,
    torch's ConvTranspose2d(c, m, 2, stride=2)): a 1 x 1 conv whose
    channels are spread over non-overlapping output blocks. Per-channel
    weights and a float bias with Relu; the same conv into a per-channel
    output (its parameters repeat per block position); a 3 x 1 block; a
    1-D one; and one with no Q after it (its float result: small dyadic
    values print exactly)."""
    r = rng(68)
    x = r.uniform(-1, 1, (1, 3, 2, 3)).astype(F32)
    x_s, x_z = 1.0 / 16, 128
    w1 = r.integers(-127, 128, (3, 4, 2, 2)).astype(np.int8)
    w1_s = np.array([1 / 64, 1 / 32, 1 / 64, 1 / 128], F32)
    b1 = np.array([0.5, -0.25, 0, 1], F32)
    w2 = r.integers(-127, 128, (3, 2, 3, 1)).astype(np.int8)
    x1 = r.uniform(-1, 1, (2, 2, 3)).astype(F32)
    w3 = r.integers(-127, 128, (2, 3, 3)).astype(np.int8)
    xs = r.uniform(-1, 1, (1, 3, 2, 2)).astype(F32)
    w4 = r.integers(-3, 4, (3, 2, 2, 2)).astype(np.int8)
    b4 = np.array([0.25, -0.5], F32)
    y_s, y_z = 0.05, 5
    ya_s = np.array([0.05, 0.04, 0.03, 0.02], F32)
    ya_z = np.array([0, 1, -1, 2], np.int8)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    qdq(nodes, inits, "x1", x_s, x_z)
    qdq(nodes, inits, "xs", 0.25, 128)
    nodes += [
        helper.make_node("DequantizeLinear", ["w1", "w1_s", "w1_z"], ["w1d"], axis=1),
        helper.make_node("ConvTranspose", ["xd", "w1d", "b1"], ["t1"], strides=[2, 2]),
        helper.make_node("Relu", ["t1"], ["r1"]),
        helper.make_node("ConvTranspose", ["xd", "w1d", "b1"], ["t2"], strides=[2, 2],
                         kernel_shape=[2, 2]),
        helper.make_node("QuantizeLinear", ["t2", "ya_s", "ya_z"], ["y2"], axis=1),
        helper.make_node("DequantizeLinear", ["w2", "w_s"], ["w2d"]),
        helper.make_node("ConvTranspose", ["xd", "w2d"], ["t3"], strides=[3, 1]),
        helper.make_node("DequantizeLinear", ["w3", "w_s"], ["w3d"]),
        helper.make_node("ConvTranspose", ["x1d", "w3d"], ["t4"], strides=[3]),
        helper.make_node("DequantizeLinear", ["w4", "w4_s"], ["w4d"]),
        helper.make_node("ConvTranspose", ["xsd", "w4d", "b4"], ["y5"], strides=[2, 2]),
    ]
    inits += [init("w1", w1), init("w1_s", w1_s), init("w1_z", np.zeros(4, np.int8)),
              init("b1", b1), init("ya_s", ya_s), init("ya_z", ya_z),
              init("w2", w2), init("w3", w3), init("w_s", F32(0.01)),
              init("w4", w4), init("w4_s", F32(0.25)), init("b4", b4)]
    qdq_out(nodes, inits, "r1", "y1", y_s, y_z)
    qdq_out(nodes, inits, "t3", "y3", y_s, y_z)
    qdq_out(nodes, inits, "t4", "y4", y_s, y_z)
    m = model(nodes, [tin("x", [1, 3, 2, 3]), tin("x1", [2, 2, 3]), tin("xs", [1, 3, 2, 2])],
              [tin("y1", [1, 4, 4, 6]), tin("y2", [1, 4, 4, 6], TensorProto.INT8),
               tin("y3", [1, 2, 6, 3]),
               tin("y4", [2, 3, 9]), tin("y5", [1, 2, 4, 4])], inits)
    xq = quantize(x, x_s, x_z, np.uint8)
    acc1 = conv_transpose(xq, w1.astype(np.int64), x_z, 0, strides=(2, 2))
    acc1 = acc1 + bias_codes(b1, x_s, w1_s).reshape(1, 4, 1, 1)
    s1 = F32(x_s) * w1_s
    y1 = requantize(acc1, s1, y_s, y_z, np.uint8, lo=y_z, axis=1)
    # Per-channel output: f32(S_in[m]) / f32(S_y[m]), half to even, + z[m].
    mult = (s1.astype(F32) / ya_s).astype(F32).reshape(1, 4, 1, 1)
    y2 = np.clip(np.round(acc1.astype(F32) * mult) + ya_z.astype(np.int64).reshape(1, 4, 1, 1),
                 -128, 127).astype(np.int64)
    acc3 = conv_transpose(xq, w2.astype(np.int64), x_z, 0, strides=(3, 1))
    y3 = requantize(acc3, F32(x_s) * F32(0.01), y_s, y_z, np.uint8)
    x1q = quantize(x1, x_s, x_z, np.uint8)
    acc4 = conv_transpose(x1q[:, :, None, :], w3[:, :, None, :].astype(np.int64), x_z, 0,
                          strides=(1, 3))[:, :, 0, :]
    y4 = requantize(acc4, F32(x_s) * F32(0.01), y_s, y_z, np.uint8)
    xsq = quantize(xs, 0.25, 128, np.uint8)
    acc5 = conv_transpose(xsq, w4.astype(np.int64), 128, 0, strides=(2, 2))
    y5 = (acc5.astype(F32) * F32(0.25 * 0.25)).astype(F32) + b4.reshape(1, 2, 1, 1)
    return m, {"x": x, "x1": x1, "xs": xs}, {
        "y1": ("codes", y1, y_s, y_z), "y2": ("int", y2), "y3": ("codes", y3, y_s, y_z),
        "y4": ("codes", y4, y_s, y_z), "y5": ("float", y5.astype(F32))}


def case_conv_per_axis_output():
    """A conv's QuantizeLinear per output channel (axis 1) as a graph
    output: the NHWC codes go back to NCHW, and the per-axis type's channel
    dimension with them (the module did not verify)."""
    r = rng(69)
    x = r.uniform(-1, 1, (1, 3, 2, 3)).astype(F32)
    w = r.integers(-127, 128, (4, 3, 1, 1)).astype(np.int8)
    ya_s = np.array([0.05, 0.04, 0.03, 0.02], F32)
    ya_z = np.array([0, 1, -1, 2], np.int8)
    nodes, inits = [], []
    qdq(nodes, inits, "x", 1.0 / 16, 128)
    nodes += [helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"]),
              helper.make_node("Conv", ["xd", "wd"], ["c"]),
              helper.make_node("QuantizeLinear", ["c", "ya_s", "ya_z"], ["y"], axis=1)]
    inits += [init("w", w), init("w_s", F32(0.01)), init("ya_s", ya_s), init("ya_z", ya_z)]
    m = model(nodes, [tin("x", [1, 3, 2, 3])], [tin("y", [1, 4, 2, 3], TensorProto.INT8)], inits)
    xq = quantize(x, 1.0 / 16, 128, np.uint8)
    acc = conv_int(xq, w, 128, 0)
    mult = ((F32(1.0 / 16) * F32(0.01)) / ya_s).astype(F32).reshape(1, 4, 1, 1)
    y = np.clip(np.round(acc.astype(F32) * mult) + ya_z.astype(np.int64).reshape(1, 4, 1, 1),
                -128, 127).astype(np.int64)
    return m, {"x": x}, {"y": ("int", y)}


def case_bad_conv_transpose_output_shape():
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("ConvTranspose", ["xd", "w"], ["y"], name="up",
                                  strides=[2, 2], output_shape=[8, 8]))
    inits.append(init("w", np.ones((1, 1, 2, 2), F32)))
    return model(nodes, [tin("x", [1, 1, 4, 4])], [tin("y", [1, 1, 8, 8])], inits), {}, {}


def case_bad_conv_transpose_weight_axis():
    """Per-axis weight scales on ONNX's axis 0 (the input channels) cannot
    be output-channel scales of the accumulator."""
    nodes, inits = [], []
    qdq_input(nodes, inits)
    nodes.append(helper.make_node("DequantizeLinear", ["w", "w_s"], ["wd"], axis=0,
                                  name="dqw"))
    nodes.append(helper.make_node("ConvTranspose", ["xd", "wd"], ["y"], name="up"))
    inits += [init("w", np.ones((2, 1, 1, 1), np.int8)), init("w_s", np.array([0.5, 0.25], F32))]
    return model(nodes, [tin("x", [1, 2, 3, 3])], [tin("y", [1, 1, 3, 3])], inits), {}, {}


def case_conv_float_output():
    """A conv with no QuantizeLinear after it (TensorRT-style explicit
    quantization puts Q/DQ on conv inputs only; here the graph output):
    its result is float, the exact int32 sum of the codes times S_x * S_w
    in f32, plus the float bias in f32. The first conv is closed by Relu
    and the next conv's QuantizeLinear, the usual integer path. Scales and
    biases are powers of two, so every f32 step is exact."""
    r = rng(57)
    x = r.uniform(-1, 1, (1, 2, 4, 4)).astype(F32)
    w1 = r.integers(-127, 128, (3, 2, 3, 3)).astype(np.int8)
    b1 = (r.integers(-16, 16, (3,)) / 16.0).astype(F32)
    w2 = r.integers(-127, 128, (2, 3, 1, 1)).astype(np.int8)
    b2 = (r.integers(-16, 16, (2,)) / 8.0).astype(F32)
    x_s, w_s, a_s = 1.0 / 16, 1.0 / 64, 1.0 / 8
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, 0, np.int8)
    nodes += [
        helper.make_node("DequantizeLinear", ["w1", "w_s"], ["w1d"]),
        helper.make_node("Conv", ["xd", "w1d", "b1"], ["c1"], pads=[1, 1, 1, 1]),
        helper.make_node("Relu", ["c1"], ["r1"]),
        helper.make_node("QuantizeLinear", ["r1", "a_s", "a_z"], ["aq"]),
        helper.make_node("DequantizeLinear", ["aq", "a_s", "a_z"], ["ad"]),
        helper.make_node("DequantizeLinear", ["w2", "w_s"], ["w2d"]),
        helper.make_node("Conv", ["ad", "w2d", "b2"], ["y"]),
    ]
    inits += [init("w1", w1), init("w_s", F32(w_s)), init("b1", b1),
              init("a_s", F32(a_s)), init("a_z", np.int8(0)), init("w2", w2),
              init("b2", b2)]
    m = model(nodes, [tin("x", [1, 2, 4, 4])], [tin("y", [1, 2, 4, 4])], inits)
    xq = quantize(x, x_s, 0, np.int8)
    c1 = (conv_int(xq, w1, 0, 0, pads=(1, 1, 1, 1)).astype(F32) * F32(x_s * w_s)
          + b1.reshape(1, 3, 1, 1)).astype(F32)
    aq = quantize(np.maximum(c1, F32(0)), a_s, 0, np.int8)
    y = (conv_int(aq, w2, 0, 0).astype(F32) * F32(a_s * w_s)
         + b2.reshape(1, 2, 1, 1)).astype(F32)
    # As codes of 2^-10 (exact multiples), robust to the printed digits.
    return m, {"x": x}, {"y": ("codes", np.rint(y * 1024).astype(np.int64),
                               1.0 / 1024, 0)}


def pool_f64(x, kernel, strides, pads, mode, count_include_pad=False):
    """Max / average pooling of NCHW x in float64 (pads: t, l, b, r as
    ONNX orders them); the average counts the taps inside the input unless
    count_include_pad."""
    n, c, h, w = x.shape
    oh = (h + pads[0] + pads[2] - kernel[0]) // strides[0] + 1
    ow = (w + pads[1] + pads[3] - kernel[1]) // strides[1] + 1
    out = np.zeros((n, c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * strides[0] - pads[0], j * strides[1] - pads[1]
            rs = [r for r in range(r0, r0 + kernel[0]) if 0 <= r < h]
            cs = [q for q in range(c0, c0 + kernel[1]) if 0 <= q < w]
            win = x[:, :, rs][:, :, :, cs].astype(np.float64)
            if mode == "max":
                out[:, :, i, j] = win.max(axis=(2, 3))
            else:
                count = kernel[0] * kernel[1] if count_include_pad else len(rs) * len(cs)
                out[:, :, i, j] = win.sum(axis=(2, 3)) / count
    return out


def case_float_pool():
    """Windowed pools on float values (after a conv with no Q, or on a
    float graph input): MaxPool (padded; padding never wins) and
    AveragePool with and without count_include_pad, and GlobalAveragePool,
    in f32. Values are multiples of 1/16, so the sums are exact and the one
    division by the count rounds as numpy's float64 quotient rounded to
    f32 does."""
    r = rng(58)
    f = (r.integers(-16, 16, (1, 2, 5, 5)) / 16.0).astype(F32)
    nodes = [
        helper.make_node("MaxPool", ["f"], ["m"], kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("AveragePool", ["f"], ["a0"], kernel_shape=[3, 3],
                         strides=[2, 2], pads=[1, 1, 1, 1]),
        helper.make_node("AveragePool", ["f"], ["a1"], kernel_shape=[2, 2],
                         strides=[1, 1], pads=[1, 0, 0, 1], count_include_pad=1),
        helper.make_node("GlobalAveragePool", ["f"], ["g"]),
    ]
    inits = []
    for src, name in (("m", "y1"), ("a0", "y2"), ("a1", "y3"), ("g", "y4")):
        qdq_out(nodes, inits, src, name, 1.0 / 128, 0, np.int8)
    m = model(nodes, [tin("f", [1, 2, 5, 5])],
              [tin("y1", [1, 2, 3, 3]), tin("y2", [1, 2, 3, 3]),
               tin("y3", [1, 2, 5, 5]), tin("y4", [1, 2, 1, 1])], inits)
    outs = {"y1": pool_f64(f, (3, 3), (2, 2), (1, 1, 1, 1), "max"),
            "y2": pool_f64(f, (3, 3), (2, 2), (1, 1, 1, 1), "avg"),
            "y3": pool_f64(f, (2, 2), (1, 1), (1, 0, 0, 1), "avg", True),
            "y4": pool_f64(f, (5, 5), (1, 1), (0, 0, 0, 0), "avg")}
    return m, {"f": f}, {k: ("codes", quantize(v.astype(F32), 1.0 / 128, 0,
                                               np.int8), 1.0 / 128, 0)
                         for k, v in outs.items()}


def case_float_avgpool_pending():
    """Inception's pool branch under eager QAT: DQ -> AveragePool (3x3,
    stride 1, padding 1, count_include_pad = 0) with no QuantizeLinear
    after it; a float Mul consumes it, so the average runs in f32 on the
    dequantized codes (each window's count a compile-time table). Codes
    are multiples of 1/16, so the sums are exact and the one division by
    the count rounds as numpy's float64 quotient rounded to f32 does."""
    r = rng(59)
    x_s, x_z = 1.0 / 16, 10
    q = r.integers(0, 256, (1, 3, 5, 5)).astype(np.int64)
    x = dequantize(q, x_s, x_z)
    nodes, inits = [], []
    qdq(nodes, inits, "x", x_s, x_z)
    nodes += [helper.make_node("AveragePool", ["xd"], ["p"], kernel_shape=[3, 3],
                               strides=[1, 1], pads=[1, 1, 1, 1]),
              helper.make_node("Mul", ["p", "half"], ["h"])]
    inits.append(init("half", F32(0.5)))
    y_s = 1.0 / 128
    qdq_out(nodes, inits, "h", "y", y_s, 0, np.int8)
    m = model(nodes, [tin("x", [1, 3, 5, 5])], [tin("y", [1, 3, 5, 5])], inits)
    mean = pool_f64(dequantize(q, x_s, x_z), (3, 3), (1, 1), (1, 1, 1, 1),
                    "avg").astype(F32)
    y = quantize((mean * F32(0.5)).astype(F32), y_s, 0, np.int8)
    return m, {"x": x}, {"y": ("codes", y, y_s, 0)}


def case_bad_pool_huge_channels():
    """A global average pool to another grid sums with a constant of ones
    per position and channel; 2^31 channels (a hostile shape, found by
    utils/onnx-mutate-fuzz.py) are diagnosed, not allocated."""
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.01, 128)
    nodes.append(helper.make_node("GlobalAveragePool", ["xd"], ["p"], name="gap"))
    qdq_out(nodes, inits, "p", "y", 0.02, 128)
    return model(nodes, [tin("x", [1, 1 << 31, 4, 4])],
                 [tin("y", [1, 1 << 31, 1, 1])], inits), {}, {}


def ms_bad(node, x_shape=(1, 2, 4, 4), extra=()):
    """One com.microsoft node on the codes of input x (uint8, scale 0.1,
    zero point 128) and its scale / zero point."""
    nodes = [helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["xq"]),
             node]
    inits = [init("x_s", F32(0.1)), init("x_z", np.uint8(128))] + list(extra)
    return model(nodes, [tin("x", list(x_shape))],
                 [tin("y", [1], TensorProto.UINT8)], inits,
                 microsoft=True), {}, {}


def case_bad_ms_unsupported():
    return ms_bad(helper.make_node("DecoderMaskedMultiHeadAttention", ["xq", "x_s"], ["y"],
                                   domain=MS, name="attn", num_heads=1))


def case_bad_ms_channels_last():
    return ms_bad(helper.make_node("QLinearGlobalAveragePool",
                                   ["xq", "x_s", "x_z", "x_s", "x_z"], ["y"],
                                   domain=MS, name="gap", channels_last=1))


def case_bad_ms_concat_inputs():
    return ms_bad(helper.make_node("QLinearConcat", ["x_s", "x_z", "xq", "x_s"],
                                   ["y"], domain=MS, name="cat", axis=1))


def case_bad_ms_add_shapes():
    """The expanded Add reports the error under the QLinearAdd's name."""
    return ms_bad(helper.make_node("QLinearAdd", ["xq", "x_s", "x_z", "c", "x_s",
                                                  "x_z", "x_s", "x_z"], ["y"],
                                   domain=MS, name="add"),
                  extra=[init("c", np.zeros((3, 1, 1), np.uint8))])


def case_bad_ms_qgemm_output():
    return ms_bad(helper.make_node("QGemm", ["xq", "x_s", "x_z", "w", "x_s",
                                             "w_z", "", "x_s"], ["y"],
                                   domain=MS, name="fc", transB=1),
                  x_shape=(1, 4),
                  extra=[init("w", np.ones((2, 4), np.int8)),
                         init("w_z", np.int8(0))])


def case_bad_ms_attr_type():
    """The ONNX checker has no schema for com.microsoft ops: a mistyped
    attribute (strides as a string) was read as absent, i.e. stride 1."""
    return ms_bad(helper.make_node("QLinearAveragePool",
                                   ["xq", "x_s", "x_z", "x_s", "x_z"], ["y"],
                                   domain=MS, name="pool", kernel_shape=[2, 2],
                                   strides="2,2"))


def declared_output_case(elem, shape):
    """Dequantize(Quantize(x)) of a 1 x 4 float x, its graph output declared
    with element type `elem` and `shape`."""
    nodes, inits = [], []
    qdq(nodes, inits, "x", 0.1, 128)
    nodes.append(helper.make_node("Identity", ["xd"], ["y"], name="out"))
    return model(nodes, [tin("x", [1, 4])], [tin("y", shape, elem)],
                 inits), {}, {}


def case_bad_output_type():
    return declared_output_case(TensorProto.INT64, [1, 4])


def case_bad_output_shape():
    return declared_output_case(TensorProto.FLOAT, [1, 5])


def case_output_symbolic_dim():
    """A symbolic dimension in the declared output matches any size."""
    return declared_output_case(TensorProto.FLOAT, ["batch", 4])


def case_ms_name_collision():
    """A graph value named like the values the importer's expansion of a
    com.microsoft node makes ("<output>/qnt.dq.0") keeps its own meaning:
    the expansion used to overwrite it (found by a hostile-input hunt).
    y2 is -x; y1 is QLinearAdd(a, a) on scale 0.1, zero point 0, which
    ONNX Runtime's rule makes round_half_even(2 a) = 2 a, saturated."""
    # Printed exactly in 6 digits; 2 a = -150 saturates.
    x = np.array([[-7.5, 5.5, -2.0, 3.0]], F32)
    nodes = [
        helper.make_node("Neg", ["x"], ["c/qnt.dq.0"], name="user_neg"),
        helper.make_node("QuantizeLinear", ["x", "s", "z"], ["a"], name="q"),
        helper.make_node("QLinearAdd", ["a", "s", "z", "a", "s", "z", "s", "z"],
                         ["c"], domain=MS, name="qadd"),
        helper.make_node("Identity", ["c/qnt.dq.0"], ["y2"], name="use_neg"),
        helper.make_node("DequantizeLinear", ["c", "s", "z"], ["y1"],
                         name="dq"),
    ]
    inits = [init("s", F32(0.1)), init("z", np.int8(0))]
    m = model(nodes, [tin("x", [1, 4])], [tin("y1", [1, 4]), tin("y2", [1, 4])],
              inits, microsoft=True)
    a = quantize(x, 0.1, 0, np.int8).astype(np.int64)
    y1 = np.clip(2 * a, -128, 127)
    return m, {"x": x}, {"y1": ("codes", y1, 0.1, 0), "y2": ("float", -x)}


# ---------------------------------------------------------------------------
# ONNX Runtime's fused transformer ops (com.microsoft), against float64
# numpy models of its CPU kernels; outputs compared within a tolerance
# ("approx": the f32 result and the printout's 6 digits).
# ---------------------------------------------------------------------------
def approx(want):
    want = np.asarray(want, np.float64)
    return ("approx", want, 1e-4 * (1 + np.abs(want)))


def approx_of_scale(want, rel=1e-5):
    """Within `rel` of the tensor's largest magnitude: for results of deep
    f32 chains (a decoder layer's logits), where a value near 0 is the
    cancellation of terms of that magnitude."""
    want = np.asarray(want, np.float64)
    return ("approx", want, np.full(want.shape, rel * np.abs(want).max()))


def gelu_erf(x):
    import math
    erf = np.vectorize(math.erf)
    x = np.asarray(x, np.float64)
    return 0.5 * x * (1 + erf(x / math.sqrt(2)))


def gelu_tanh(x):
    x = np.asarray(x, np.float64)
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def case_ms_fused_ops():
    """FastGelu (with bias), BiasGelu, QuickGelu (alpha 1.5),
    SkipLayerNormalization (with beta and bias; its output 3, the sum),
    SkipSimplifiedLayerNormalization (RMS norm of input + skip, times
    gamma) and FusedMatMul (transB, alpha 0.5), as ONNX Runtime's
    ContribOperators define them."""
    r = rng(111)
    x = r.uniform(-3, 3, (2, 3, 8)).astype(F32)
    skip = r.uniform(-2, 2, (2, 3, 8)).astype(F32)
    bias = r.uniform(-1, 1, (8,)).astype(F32)
    gamma = r.uniform(0.5, 1.5, (8,)).astype(F32)
    beta = r.uniform(-0.5, 0.5, (8,)).astype(F32)
    a = r.uniform(-1, 1, (2, 3, 4)).astype(F32)
    b = r.uniform(-1, 1, (2, 5, 4)).astype(F32)
    N = helper.make_node
    nodes = [
        N("FastGelu", ["x", "bias"], ["fast"], domain=MS),
        N("BiasGelu", ["x", "bias"], ["bgelu"], domain=MS),
        N("QuickGelu", ["x"], ["quick"], domain=MS, alpha=1.5),
        N("SkipLayerNormalization", ["x", "skip", "gamma", "beta", "bias"],
          ["sln", "", "", "sum"], domain=MS, epsilon=1e-5),
        N("SkipSimplifiedLayerNormalization", ["x", "skip", "gamma"],
          ["rms"], domain=MS, epsilon=1e-6),
        N("FusedMatMul", ["a", "b"], ["fmm"], domain=MS, transB=1,
          alpha=0.5),
    ]
    inits = [init("bias", bias), init("gamma", gamma), init("beta", beta)]
    outs = ["fast", "bgelu", "quick", "sln", "sum", "rms", "fmm"]
    shapes = {o: [2, 3, 8] for o in outs}
    shapes["fmm"] = [2, 3, 5]
    m = model(nodes, [tin("x", [2, 3, 8]), tin("skip", [2, 3, 8]),
                      tin("a", [2, 3, 4]), tin("b", [2, 5, 4])],
              [tin(o, shapes[o]) for o in outs], inits, opset=17,
              microsoft=True)
    xd, sd = x.astype(np.float64), skip.astype(np.float64)
    total = xd + sd + bias
    mean = total.mean(-1, keepdims=True)
    var = ((total - mean) ** 2).mean(-1, keepdims=True)
    sln = (total - mean) / np.sqrt(var + 1e-5) * gamma + beta
    plain = xd + sd
    rms = plain / np.sqrt((plain * plain).mean(-1, keepdims=True) + 1e-6) * gamma
    fmm = 0.5 * (a.astype(np.float64) @ np.swapaxes(b, 1, 2))
    want = {"fast": gelu_tanh(xd + bias), "bgelu": gelu_erf(xd + bias),
            "quick": xd / (1 + np.exp(-1.5 * xd)), "sln": sln, "sum": total,
            "rms": rms, "fmm": fmm}
    return m, {"x": x, "skip": skip, "a": a, "b": b}, {
        o: approx(want[o]) for o in outs}


def ort_attention(qkv, heads, sizes, scale, mask_add):
    """ONNX Runtime's attention from the projected B x S x (Dq + Dk + Dv):
    Softmax(scale * Q K^T + mask) V per head, heads joined."""
    bsz, seq = qkv.shape[:2]
    dq, dk, dv = sizes
    q, k, v = (qkv[..., :dq], qkv[..., dq:dq + dk], qkv[..., dq + dk:])

    def split(t, d):
        return t.reshape(bsz, seq, heads, d // heads).transpose(0, 2, 1, 3)
    q, k, v = split(q, dq), split(k, dk), split(v, dv)
    scores = scale * (q @ np.swapaxes(k, 2, 3)) + mask_add
    scores = scores - scores.max(-1, keepdims=True)
    probs = np.exp(scores)
    probs /= probs.sum(-1, keepdims=True)
    return (probs @ v).transpose(0, 2, 1, 3).reshape(bsz, seq, dv)


def ort_mask(mask, bsz, seq, filt, causal):
    """ONNX Runtime's PrepareMask: B x 1 x S x S additive mask."""
    out = np.zeros((bsz, 1, seq, seq))
    if mask is not None:
        mask = np.asarray(mask)
        for b in range(bsz):
            if mask.ndim == 1:
                end = mask[b]
                start = mask[b + bsz] if mask.size == 2 * bsz else 0
                for t in range(seq):
                    if t >= end or t < start:
                        out[b, 0, :, t] = filt
            elif mask.ndim == 2 and mask.shape[1] == seq:
                for t in range(seq):
                    if mask[b, t] <= 0:
                        out[b, 0, :, t] = filt
            elif mask.ndim == 3:
                for s in range(seq):
                    for t in range(seq):
                        if mask[b, s, t] <= 0:
                            out[b, 0, s, t] = filt
    if causal:
        for s in range(seq):
            for t in range(s + 1, seq):
                out[:, 0, s, t] += filt
    return out


def case_ms_attention():
    """com.microsoft Attention (2 heads, hidden 8): a raw 2-D padding mask
    (run-time int32), a unidirectional one with end positions (B), one
    with qkv_hidden_sizes (8, 8, 4), a 3-D mask, mask_filter_value -1000
    and scale 0.3, and one with end and start positions (2B) and an
    attention bias."""
    r = rng(112)
    bsz, seq, hid = 2, 4, 8
    x = r.uniform(-1, 1, (bsz, seq, hid)).astype(F32)
    w = r.uniform(-1, 1, (hid, 3 * hid)).astype(F32)
    bias = r.uniform(-0.5, 0.5, (3 * hid,)).astype(F32)
    w2 = r.uniform(-1, 1, (hid, 20)).astype(F32)
    bias2 = r.uniform(-0.5, 0.5, (20,)).astype(F32)
    attn_bias = r.uniform(-1, 1, (1, 2, seq, seq)).astype(F32)
    raw = np.array([[1, 1, 1, 0], [1, 1, 0, 0]], np.int32)
    ends = np.array([3, 2], np.int32)
    mask3 = r.integers(0, 2, (bsz, seq, seq)).astype(np.int32)
    mask3[:, :, 0] = 1
    ends_starts = np.array([4, 3, 1, 0], np.int32)
    N = helper.make_node
    nodes = [
        N("Attention", ["x", "w", "bias", "raw"], ["a_raw"], domain=MS,
          num_heads=2),
        N("Attention", ["x", "w", "bias", "ends"], ["a_causal"], domain=MS,
          num_heads=2, unidirectional=1),
        N("Attention", ["x", "w2", "bias2", "mask3"], ["a_sizes"], domain=MS,
          num_heads=2, qkv_hidden_sizes=[8, 8, 4], mask_filter_value=-1000.0,
          scale=0.3),
        N("Attention", ["x", "w", "bias", "ends_starts", "", "attn_bias"],
          ["a_bias"], domain=MS, num_heads=2),
    ]
    inits = [init("w", w), init("bias", bias), init("w2", w2),
             init("bias2", bias2), init("attn_bias", attn_bias)]
    I32 = TensorProto.INT32
    m = model(nodes, [tin("x", [bsz, seq, hid]), tin("raw", [bsz, seq], I32),
                      tin("ends", [bsz], I32), tin("mask3", [bsz, seq, seq], I32),
                      tin("ends_starts", [2 * bsz], I32)],
              [tin("a_raw", [bsz, seq, hid]), tin("a_causal", [bsz, seq, hid]),
               tin("a_sizes", [bsz, seq, 4]), tin("a_bias", [bsz, seq, hid])],
              inits, opset=13, microsoft=True)
    xd = x.astype(np.float64)
    qkv = xd @ w + bias
    qkv2 = xd @ w2 + bias2
    sc = 1 / np.sqrt(4.0)
    want = {
        "a_raw": ort_attention(qkv, 2, (8, 8, 8), sc,
                               ort_mask(raw, bsz, seq, -10000.0, False)),
        "a_causal": ort_attention(qkv, 2, (8, 8, 8), sc,
                                  ort_mask(ends, bsz, seq, -10000.0, True)),
        "a_sizes": ort_attention(qkv2, 2, (8, 8, 4), 0.3,
                                 ort_mask(mask3, bsz, seq, -1000.0, False)),
        "a_bias": ort_attention(qkv, 2, (8, 8, 8), sc,
                                ort_mask(ends_starts, bsz, seq, -10000.0,
                                         False) + attn_bias),
    }
    return m, {"x": x, "raw": raw, "ends": ends, "mask3": mask3,
               "ends_starts": ends_starts}, {k: approx(v) for k, v in want.items()}


def ort_key_mask(mask, bsz, seq, total, past, filt, causal):
    """ONNX Runtime's PrepareMask for MultiHeadAttention's key_padding_mask:
    a B x 1 x S x T additive mask (T = past + L keys), from end positions
    (B), a raw B x T mask or a raw B x S x T one; causal: key t > past + s
    gets filt once more."""
    out = np.zeros((bsz, 1, seq, total))
    if mask is not None:
        for b in range(bsz):
            for s in range(seq):
                for t in range(total):
                    keep = (t < mask[b] if mask.ndim == 1 else
                            mask[b, t] > 0 if mask.ndim == 2 else
                            mask[b, s, t] > 0)
                    if not keep:
                        out[b, 0, s, t] = filt
    if causal:
        for s in range(seq):
            for t in range(total):
                if t > past + s:
                    out[:, 0, s, t] += filt
    return out


def heads_of(t, heads):
    """B x L x D -> B x N x L x D/N."""
    bsz, length, d = t.shape
    return t.reshape(bsz, length, heads, d // heads).transpose(0, 2, 1, 3)


def ort_heads_attention(q, k, v, scale, mask_add):
    """Softmax(scale * Q K^T + mask) V over B x N x S x H heads, joined
    into B x S x N*Hv."""
    scores = scale * (q @ np.swapaxes(k, 2, 3)) + mask_add
    scores = scores - scores.max(-1, keepdims=True)
    probs = np.exp(scores)
    probs /= probs.sum(-1, keepdims=True)
    out = probs @ v
    bsz, heads, seq, hv = out.shape
    return out.transpose(0, 2, 1, 3).reshape(bsz, seq, heads * hv)


def case_ms_multi_head_attention():
    """com.microsoft MultiHeadAttention (2 heads, hidden 8): cross
    attention of 4 queries over 6 keys with a value hidden size of 4, the
    packed bias and a raw key padding mask; self attention, causal, with
    end positions, scale 0.3 and mask_filter_value -1000; past keys and
    values (3 of them) before 2 new ones, causal from the past's end, an
    attention bias, and the present_key / present_value outputs; keys and
    values already split into heads (B x N x L x H) with a 3-D mask."""
    r = rng(117)
    bsz, seq, kv, past, hid, heads = 2, 4, 6, 3, 8, 2
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    x, mem, val4 = U(bsz, seq, hid), U(bsz, kv, hid), U(bsz, kv, 4)
    bias = r.uniform(-0.5, 0.5, (20,)).astype(F32)
    raw = np.array([[1, 1, 1, 1, 0, 0], [1, 0, 1, 1, 1, 1]], np.int32)
    ends = np.array([3, 4], np.int32)
    k2, v2 = U(bsz, 2, hid), U(bsz, 2, hid)
    pk, pv = U(bsz, heads, past, 4), U(bsz, heads, past, 4)
    ab = U(1, heads, seq, past + 2)
    k4, v4 = U(bsz, heads, kv, 4), U(bsz, heads, kv, 4)
    mask3 = r.integers(0, 2, (bsz, seq, kv)).astype(np.int32)
    mask3[:, :, 0] = 1
    N = helper.make_node
    nodes = [
        N("MultiHeadAttention", ["x", "mem", "val4", "bias", "raw"], ["m_cross"],
          domain=MS, num_heads=2),
        N("MultiHeadAttention", ["x", "x", "x", "", "ends"], ["m_causal"],
          domain=MS, num_heads=2, unidirectional=1, scale=0.3,
          mask_filter_value=-1000.0),
        N("MultiHeadAttention", ["x", "k2", "v2", "", "", "ab", "pk", "pv"],
          ["m_past", "present_k", "present_v"], domain=MS, num_heads=2,
          unidirectional=1),
        N("MultiHeadAttention", ["x", "k4", "v4", "", "mask3"], ["m_bnsh"],
          domain=MS, num_heads=2),
    ]
    inits = [init("bias", bias), init("ab", ab), init("k4", k4)]
    I32 = TensorProto.INT32
    m = model(nodes, [tin("x", [bsz, seq, hid]), tin("mem", [bsz, kv, hid]),
                      tin("val4", [bsz, kv, 4]), tin("raw", [bsz, kv], I32),
                      tin("ends", [bsz], I32), tin("k2", [bsz, 2, hid]),
                      tin("v2", [bsz, 2, hid]), tin("pk", [bsz, heads, past, 4]),
                      tin("pv", [bsz, heads, past, 4]),
                      tin("v4", [bsz, heads, kv, 4]),
                      tin("mask3", [bsz, seq, kv], I32)],
              [tin("m_cross", [bsz, seq, 4]), tin("m_causal", [bsz, seq, hid]),
               tin("m_past", [bsz, seq, hid]),
               tin("present_k", [bsz, heads, past + 2, 4]),
               tin("present_v", [bsz, heads, past + 2, 4]),
               tin("m_bnsh", [bsz, seq, hid])],
              inits, opset=13, microsoft=True)
    d = lambda a: a.astype(np.float64)
    sc = 1 / np.sqrt(4.0)
    b64 = d(bias)
    q = heads_of(d(x) + b64[:8], 2)
    k = heads_of(d(mem) + b64[8:16], 2)
    v = heads_of(d(val4) + b64[16:], 2)
    xh = heads_of(d(x), 2)
    keys = np.concatenate([d(pk), heads_of(d(k2), 2)], axis=2)
    values = np.concatenate([d(pv), heads_of(d(v2), 2)], axis=2)
    want = {
        "m_cross": ort_heads_attention(
            q, k, v, sc, ort_key_mask(raw, bsz, seq, kv, 0, -10000.0, False)),
        "m_causal": ort_heads_attention(
            xh, xh, xh, 0.3, ort_key_mask(ends, bsz, seq, seq, 0, -1000.0, True)),
        "m_past": ort_heads_attention(
            xh, keys, values, sc,
            ort_key_mask(None, bsz, seq, past + 2, past, -10000.0, True) + d(ab)),
        "present_k": keys, "present_v": values,
        "m_bnsh": ort_heads_attention(
            xh, d(k4), d(v4), sc,
            ort_key_mask(mask3, bsz, seq, kv, 0, -10000.0, False)),
    }
    return m, {"x": x, "mem": mem, "val4": val4, "raw": raw, "ends": ends,
               "k2": k2, "v2": v2, "pk": pk, "pv": pv, "v4": v4,
               "mask3": mask3}, {k: approx(v) for k, v in want.items()}


def case_bad_mha_packed_qkv():
    nodes = [helper.make_node("MultiHeadAttention", ["q"], ["y"], name="mha",
                              domain=MS, num_heads=2)]
    return model(nodes, [tin("q", [1, 4, 2, 3, 4])], [tin("y", [1, 4, 8])], [],
                 opset=13, microsoft=True), {}, {}


def case_bad_mha_mask():
    nodes = [helper.make_node("MultiHeadAttention", ["q", "q", "q", "", "m"],
                              ["y"], name="mha", domain=MS, num_heads=2)]
    return model(nodes, [tin("q", [1, 4, 8]), tin("m", [2], TensorProto.INT32)],
                 [tin("y", [1, 4, 8])], [], opset=13, microsoft=True), {}, {}


def case_bad_mha_long():
    nodes = [helper.make_node("MultiHeadAttention", ["q", "k", "k"], ["y"],
                              name="mha", domain=MS, num_heads=2)]
    return model(nodes, [tin("q", [1, 4, 8]), tin("k", [1, 1 << 40, 8])],
                 [tin("y", [1, 4, 8])], [], opset=13, microsoft=True), {}, {}


def ort_rotary(x, pos, cos, sin, heads, rotary, interleaved):
    """ONNX Runtime's RotaryEmbedding kernel (contrib_ops/cpu/bert), element
    by element in float64: x of B x S x hidden or B x N x S x H, pos of B x
    S or a start position (one element); each head's first `rotary` values
    out[i] = x[i] cos[p, c] + sign x[j] sin[p, c], the rest copied."""
    x = np.asarray(x, np.float64)
    cos, sin = np.asarray(cos, np.float64), np.asarray(sin, np.float64)
    split = x.ndim == 4
    bsz, seq = x.shape[0], x.shape[2] if split else x.shape[1]
    out = x.copy()
    xv = x if split else x.reshape(bsz, seq, heads, -1).transpose(0, 2, 1, 3)
    ov = out if split else np.zeros_like(xv)
    if not split:
        ov[...] = xv
    half = rotary // 2
    pos = np.asarray(pos).reshape(-1)
    for b in range(bsz):
        for s in range(seq):
            p = int(pos[0]) + s if pos.size == 1 else int(pos[b * seq + s])
            for n in range(xv.shape[1]):
                for i in range(rotary):
                    if interleaved:
                        c, sign, j = i // 2, -1 if i % 2 == 0 else 1, i ^ 1
                    else:
                        c = i % half
                        sign = -1 if i < half else 1
                        j = (i + half) % rotary
                    ov[b, n, s, i] = (xv[b, n, s, i] * cos[p, c] +
                                      sign * xv[b, n, s, j] * sin[p, c])
    if not split:
        out = ov.transpose(0, 2, 1, 3).reshape(x.shape)
    return out


def rotary_caches(positions, half, base=10000.0):
    """LLaMA's cos / sin caches: angle p * base^(-2c / (2 half))."""
    freq = base ** (-np.arange(half) / half)
    angles = np.outer(np.arange(positions), freq)
    return np.cos(angles).astype(F32), np.sin(angles).astype(F32)


def case_ms_rotary_embedding():
    """com.microsoft RotaryEmbedding: B x S x hidden with run-time B x S
    position ids (half-split, 2 heads of 8); the same interleaved with
    compile-time ids; B x N x S x H heads with a run-time start position and
    rotary_embedding_dim 4 of 8 (the rest copied); interleaved partial
    rotation of 3-D input from a compile-time start position."""
    r = rng(131)
    bsz, seq, hid, heads = 2, 3, 16, 2
    U = lambda *shape: r.uniform(-2, 2, shape).astype(F32)
    x3, x4 = U(bsz, seq, hid), U(bsz, heads, seq, 8)
    cos8, sin8 = rotary_caches(12, 4)
    cos4, sin4 = rotary_caches(12, 2)
    ids = r.integers(0, 12, (bsz, seq)).astype(np.int64)
    ids_c = r.integers(0, 12, (bsz, seq)).astype(np.int64)
    start = np.array([5], np.int64)
    N = helper.make_node
    nodes = [
        N("RotaryEmbedding", ["x3", "ids", "cos8", "sin8"], ["r_half"],
          domain=MS),
        N("RotaryEmbedding", ["x3", "ids_c", "cos8", "sin8"], ["r_pairs"],
          domain=MS, interleaved=1, num_heads=2),
        N("RotaryEmbedding", ["x4", "start", "cos4", "sin4"], ["r_partial"],
          domain=MS, num_heads=2, rotary_embedding_dim=4),
        N("RotaryEmbedding", ["x3", "start_c", "cos4", "sin4"],
          ["r_pairs_partial"], domain=MS, interleaved=1, num_heads=2,
          rotary_embedding_dim=4),
    ]
    inits = [init("cos8", cos8), init("sin8", sin8), init("cos4", cos4),
             init("sin4", sin4), init("ids_c", ids_c),
             init("start_c", np.array([2], np.int64))]
    I64 = TensorProto.INT64
    m = model(nodes, [tin("x3", [bsz, seq, hid]), tin("x4", [bsz, heads, seq, 8]),
                      tin("ids", [bsz, seq], I64), tin("start", [1], I64)],
              [tin("r_half", [bsz, seq, hid]), tin("r_pairs", [bsz, seq, hid]),
               tin("r_partial", [bsz, heads, seq, 8]),
               tin("r_pairs_partial", [bsz, seq, hid])],
              inits, opset=13, microsoft=True)
    want = {
        "r_half": ort_rotary(x3, ids, cos8, sin8, 2, 8, False),
        "r_pairs": ort_rotary(x3, ids_c, cos8, sin8, 2, 8, True),
        "r_partial": ort_rotary(x4, start, cos4, sin4, 2, 4, False),
        "r_pairs_partial": ort_rotary(x3, [2], cos4, sin4, 2, 4, True),
    }
    return m, {"x3": x3, "x4": x4, "ids": ids, "start": start}, {
        k: approx(v) for k, v in want.items()}


def rotary_bad(inputs, shapes, inits, out_shape=(1, 2, 8), **attrs):
    return ms_node_model("RotaryEmbedding", inputs, shapes, inits, out_shape,
                         **attrs)


def case_bad_rotary_position_type():
    c = np.zeros((4, 4), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8))],
                      [init("c", c), init("p", np.zeros((1, 2), np.int32))])


def case_bad_rotary_cache_width():
    c = np.zeros((4, 3), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8))],
                      [init("c", c), init("p", np.zeros((1, 2), np.int64))],
                      num_heads=2, rotary_embedding_dim=4)


def case_bad_rotary_odd():
    c = np.zeros((4, 1), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8))],
                      [init("c", c), init("p", np.zeros((1, 2), np.int64))],
                      num_heads=2, rotary_embedding_dim=3)


def case_bad_rotary_position():
    c = np.zeros((4, 4), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8))],
                      [init("c", c), init("p", np.array([[0, 4]], np.int64))])


def case_bad_rotary_position_shape():
    c = np.zeros((4, 4), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8))],
                      [init("c", c), init("p", np.zeros((2, 2), np.int64))])


def case_bad_rotary_packed():
    c = np.zeros((4, 4), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8))],
                      [init("c", c), init("p", np.zeros((1, 2), np.int64))],
                      is_packed_batching=1)


def case_bad_rotary_long():
    c = np.zeros((4, 4), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 1 << 40, 8))],
                      [init("c", c), init("p", np.zeros((1,), np.int64))],
                      out_shape=(1, 1 << 40, 8))


def case_bad_rotary_wide_cache():
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8)), ("c", (4, 5))],
                      [init("p", np.zeros((1,), np.int64))])


def pack_codes(codes, bits):
    """Codes (..., count) of `bits` bits packed low bits first, 8 / bits to
    a byte (count a multiple of 8 / bits)."""
    per = 8 // bits
    c = codes.reshape(codes.shape[:-1] + (-1, per)).astype(np.int64)
    return (c << (np.arange(per) * bits)).sum(-1).astype(np.uint8)


def nbits_weights(r, k, n, bits, block, zp_kind):
    """Random MatMulNBits weights: (B, scales, zero_points or None, the K x N
    float64 matrix they stand for). The last block's padding codes and the
    zero points' padding bits are random (they must be ignored)."""
    blocks = -(-k // block)
    q = r.integers(0, 1 << bits, (n, blocks * block))
    s = r.uniform(0.01, 0.2, (n, blocks)).astype(F32)
    if zp_kind == "packed":
        zp = r.integers(0, 1 << bits, (n, blocks))
        per = 8 // bits
        padded = np.concatenate(
            [zp, r.integers(0, 1 << bits, (n, -(-blocks // per) * per - blocks))],
            axis=1)
        zp_t = pack_codes(padded, bits).reshape(-1)
    elif zp_kind == "float":
        zp = r.uniform(0, (1 << bits) - 1, (n, blocks)).astype(F32)
        zp_t = zp.reshape(-1)
    else:
        zp, zp_t = np.full((n, blocks), 1 << (bits - 1)), None
    b = pack_codes(q, bits).reshape(n, blocks, block * bits // 8)
    deq = (q - np.repeat(np.asarray(zp, np.float64), block, axis=1)) * \
        np.repeat(s.astype(np.float64), block, axis=1)
    return b, s.reshape(-1), zp_t, deq[:, :k].T


def case_ms_matmul_nbits():
    """com.microsoft MatMulNBits: 4 bits over K = 40 in blocks of 16 (the
    last block padded) with packed zero points and a bias, on B x S x K;
    4 bits without zero points (8) on a 2-D A; 8 bits with float zero
    points; 2 bits with packed zero points. Against A @ the dequantized
    weights in float64 (the operator's definition)."""
    r = rng(137)
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    a3, a2, a8, a1 = U(2, 3, 40), U(3, 32), U(2, 48), U(40)
    w1 = nbits_weights(r, 40, 6, 4, 16, "packed")
    w2 = nbits_weights(r, 32, 5, 4, 32, None)
    w3 = nbits_weights(r, 48, 4, 8, 16, "float")
    w4 = nbits_weights(r, 48, 3, 2, 16, "packed")
    bias = U(6)
    N = helper.make_node
    inits = [init("bias", bias)]
    nodes = []
    for name, a, (b, s, zp, _), bits, block, k, n, with_bias in (
            ("y4", "a3", w1, 4, 16, 40, 6, True),
            ("y1d", "a1", w1, 4, 16, 40, 6, True),
            ("y4_default", "a2", w2, 4, 32, 32, 5, False),
            ("y8", "a8", w3, 8, 16, 48, 4, False),
            ("y2", "a8", w4, 2, 16, 48, 3, False)):
        inits += [init(name + "_b", b), init(name + "_s", s)]
        ins = [a, name + "_b", name + "_s"]
        if zp is not None:
            inits.append(init(name + "_zp", zp))
            ins.append(name + "_zp")
        if with_bias:
            ins += ["", "bias"] if zp is not None else ["", "", "bias"]
        nodes.append(N("MatMulNBits", ins, [name], domain=MS, K=k, N=n,
                       bits=bits, block_size=block))
    m = model(nodes, [tin("a3", [2, 3, 40]), tin("a2", [3, 32]),
                      tin("a8", [2, 48]), tin("a1", [40])],
              [tin("y4", [2, 3, 6]), tin("y1d", [6]), tin("y4_default", [3, 5]),
               tin("y8", [2, 4]), tin("y2", [2, 3])],
              inits, opset=13, microsoft=True)
    d = lambda x: x.astype(np.float64)
    want = {"y4": d(a3) @ w1[3] + d(bias), "y1d": d(a1) @ w1[3] + d(bias),
            "y4_default": d(a2) @ w2[3],
            "y8": d(a8) @ w3[3], "y2": d(a8) @ w4[3]}
    return m, {"a3": a3, "a2": a2, "a8": a8, "a1": a1}, {
        k: approx(v) for k, v in want.items()}


def nbits_bad(inputs, shapes, inits, **attrs):
    base = dict(K=32, N=2, bits=4, block_size=16)
    base.update(attrs)
    return ms_node_model("MatMulNBits", inputs, shapes, inits, (1, 2), **base)


def nbits_inits(blob=8):
    return [init("b", np.zeros((2, 2, blob), np.uint8)),
            init("s", np.ones(4, F32))]


def case_bad_nbits_bits():
    return nbits_bad(["a", "b", "s"], [("a", (1, 32))], nbits_inits(), bits=3)


def case_bad_nbits_block():
    return nbits_bad(["a", "b", "s"], [("a", (1, 32))], nbits_inits(),
                     block_size=24)


def case_bad_nbits_shape():
    return nbits_bad(["a", "b", "s"], [("a", (1, 32))], nbits_inits(blob=4))


def case_bad_nbits_runtime():
    return nbits_bad(["a", "b", "s"], [("a", (1, 32)), ("b", (2, 2, 8))],
                     [init("s", np.ones(4, F32))])


def case_bad_nbits_k():
    return nbits_bad(["a", "b", "s"], [("a", (1, 16))], nbits_inits())


def case_bad_nbits_g_idx():
    return nbits_bad(["a", "b", "s", "", "g"], [("a", (1, 32))],
                     nbits_inits() + [init("g", np.zeros(32, np.int32))])


def case_bad_nbits_zero_points():
    return nbits_bad(["a", "b", "s", "zp"], [("a", (1, 32))],
                     nbits_inits() + [init("zp", np.zeros(3, np.uint8))])


def case_bad_nbits_huge():
    return nbits_bad(["a", "b", "s"], [("a", (1, 32))], nbits_inits(),
                     N=1 << 40)


def ort_gqa(q, k, v, past_k, past_v, seqlens, total, heads, kv_heads,
            scale=0.0, softcap=0.0, window=-1, cos=None, sin=None,
            interleaved=False, position_ids=None, bias=None, sink=None):
    """ONNX Runtime's GroupQueryAttention CPU kernel (GQAAttentionBase) in
    float64, loop by loop: Q, K, V of B x S x heads * H; the present
    buffers of max(total, P) rows per kv head (the past's first `past`
    rows, the new ones, zeros); query row s over keys (past + s - window,
    past + s]: `window` keys, the current one included (ONNX Runtime's
    rule since its PR 25927). position_ids replace the rotary positions (its flat data as
    B x S rows; in a first prompt element 0 plus s); attention_bias (B or 1
    x N or 1 x S x total) is added after the softcap; `sink` (one logit per
    head, zeros for smooth_softmax) joins the softmax's max and sum.
    Returns (output, present_k, present_v)."""
    bsz, seq, hid = q.shape
    head = hid // heads
    plen = 0 if past_k is None else past_k.shape[2]
    tlen = max(total, plen)
    first = seq == total
    qh = q.astype(np.float64).reshape(bsz, seq, heads, head).transpose(0, 2, 1, 3)
    kh = k.astype(np.float64).reshape(bsz, seq, kv_heads, head).transpose(0, 2, 1, 3)
    vh = v.astype(np.float64).reshape(bsz, seq, kv_heads, head).transpose(0, 2, 1, 3)
    if cos is not None:
        rot = cos.shape[1] * 2
        pos = np.zeros((bsz, seq), np.int64)
        for b in range(bsz):
            tot = int(seqlens[b]) + 1
            for s_ in range(seq):
                if position_ids is not None:
                    flat = position_ids.reshape(-1)
                    pos[b, s_] = flat[0] + s_ if first else flat[b * seq + s_]
                else:
                    pos[b, s_] = (s_ if s_ < tot else 1) if first else tot - seq + s_
        qh = ort_rotary(qh, pos, cos, sin, heads, rot, interleaved)
        kh = ort_rotary(kh, pos, cos, sin, kv_heads, rot, interleaved)
    alpha = scale if scale != 0 else 1 / np.sqrt(np.float32(head))
    pk = np.zeros((bsz, kv_heads, tlen, head))
    pv = np.zeros((bsz, kv_heads, tlen, head))
    out = np.zeros((bsz, seq, heads, head))
    group = heads // kv_heads
    for b in range(bsz):
        tot = int(seqlens[b]) + 1
        past = 0 if first else tot - seq
        for kvh in range(kv_heads):
            if past:
                pk[b, kvh, :past] = past_k[b, kvh, :past]
                pv[b, kvh, :past] = past_v[b, kvh, :past]
            pk[b, kvh, past:past + seq] = kh[b, kvh]
            pv[b, kvh, past:past + seq] = vh[b, kvh]
        for h in range(heads):
            kvh = h // group
            # Over every buffer row: a row s attends to [.., past + s], within
            # the sequence's tot keys except on the padding rows of a first
            # prompt (s >= tot), which ONNX Runtime leaves unspecified and
            # the import computes causally.
            sc = alpha * (qh[b, h] @ pk[b, kvh].T)
            for s_ in range(seq):
                length = past + s_ + 1
                lo = length - window if 0 < window < length else 0
                row = sc[s_, lo:length]
                if softcap > 0:
                    row = softcap * np.tanh(row / softcap)
                if bias is not None:
                    row = row + bias[b % bias.shape[0], h % bias.shape[1], s_,
                                     lo:length].astype(np.float64)
                top = row.max() if sink is None else max(row.max(), float(sink[h]))
                e_ = np.exp(row - top)
                denom = e_.sum() + (0 if sink is None else np.exp(float(sink[h]) - top))
                probs = np.zeros(tlen)
                probs[lo:length] = e_ / denom
                out[b, s_, h] = probs @ pv[b, kvh]
    return out.reshape(bsz, seq, hid), pk, pv


def case_ms_group_query_attention():
    """com.microsoft GroupQueryAttention: a first prompt (4 query heads over
    2 kv heads, S = T = 4) with its present outputs; the same with a local
    window of 2 and softcap; token generation (S = 1) over a past buffer of
    5 with seqlens_k 3 and 5 (T = 6: each sequence's past, its new key,
    zeros); a subsequent prompt of batch 1 (S = 2 after 3 past tokens); the
    last two again with compile-time seqlens_k; a packed-QKV first prompt
    with rotary embeddings (interleaved; one padding row, rotated at
    position 1) and token generation with rotary embeddings (half-split,
    rotary dim 16 of 32) and a window of 3."""
    r = rng(139)
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    I32 = TensorProto.INT32
    N = helper.make_node
    bsz, heads, kvh, head = 2, 4, 2, 8
    q4, k4, v4 = U(bsz, 4, 32), U(bsz, 4, 16), U(bsz, 4, 16)
    q1, k1, v1 = U(bsz, 1, 32), U(bsz, 1, 16), U(bsz, 1, 16)
    pk, pv = U(bsz, kvh, 5, head), U(bsz, kvh, 5, head)
    qs, ks, vs = U(1, 2, 32), U(1, 2, 16), U(1, 2, 16)
    pks, pvs = U(1, kvh, 4, head), U(1, kvh, 4, head)
    # Rotary: 2 query heads over 1 kv head, caches of 8 rows x 8 (R = 16):
    # all of a head of 16, half of a head of 32.
    qkv = U(bsz, 3, 64)
    qr, kr, vr = U(bsz, 1, 64), U(bsz, 1, 32), U(bsz, 1, 32)
    pkr, pvr = U(bsz, 1, 6, 32), U(bsz, 1, 6, 32)
    ang = lambda w: np.outer(np.arange(8), 10000.0 ** (-np.arange(w) / w))
    cos8, sin8 = np.cos(ang(8)).astype(F32), np.sin(ang(8)).astype(F32)
    lens_prompt = np.array([3, 3], np.int32)
    lens_gen = np.array([3, 5], np.int32)
    lens_sub = np.array([4], np.int32)
    lens_rot = np.array([2, 1], np.int32)  # batch 1: one padding row
    lens_rot_gen = np.array([4, 6], np.int32)
    total = lambda name, t: init(name, np.array([t], np.int32))
    nodes = [
        N("GroupQueryAttention", ["q4", "k4", "v4", "", "", "lens_prompt", "t4"],
          ["g_prompt", "g_pk", "g_pv"], domain=MS, num_heads=4, kv_num_heads=2),
        N("GroupQueryAttention", ["q4", "k4", "v4", "", "", "lens_prompt", "t4"],
          ["g_window"], domain=MS, num_heads=4, kv_num_heads=2,
          local_window_size=2, softcap=2.0, scale=0.5),
        N("GroupQueryAttention", ["q1", "k1", "v1", "pk", "pv", "lens_gen", "t6"],
          ["g_gen", "g_gen_pk", "g_gen_pv"], domain=MS, num_heads=4,
          kv_num_heads=2),
        N("GroupQueryAttention", ["qs", "ks", "vs", "pks", "pvs", "lens_sub", "t5"],
          ["g_sub", "g_sub_pk"], domain=MS, num_heads=4, kv_num_heads=2),
        N("GroupQueryAttention", ["qs", "ks", "vs", "pks", "pvs", "lens_sub_c",
                                  "t5"],
          ["g_sub_c"], domain=MS, num_heads=4, kv_num_heads=2),
        N("GroupQueryAttention", ["q1", "k1", "v1", "pk", "pv", "lens_gen_c",
                                  "t6"],
          ["g_gen_c"], domain=MS, num_heads=4, kv_num_heads=2),
        N("GroupQueryAttention", ["qkv", "", "", "", "", "lens_rot", "t3", "cos8",
                                  "sin8"],
          ["g_rot", "g_rot_pk"], domain=MS, num_heads=2, kv_num_heads=1,
          do_rotary=1, rotary_interleaved=1),
        N("GroupQueryAttention", ["qr", "kr", "vr", "pkr", "pvr", "lens_rot_gen",
                                  "t7", "cos8", "sin8"],
          ["g_rot_gen"], domain=MS, num_heads=2, kv_num_heads=1, do_rotary=1,
          local_window_size=3),
    ]
    inits = [total("t4", 4), total("t6", 6), total("t5", 5), total("t3", 3),
             total("t7", 7), init("cos8", cos8), init("sin8", sin8),
             init("lens_sub_c", lens_sub), init("lens_gen_c", lens_gen)]
    inputs = {"q4": q4, "k4": k4, "v4": v4, "q1": q1, "k1": k1, "v1": v1,
              "pk": pk, "pv": pv, "qs": qs, "ks": ks, "vs": vs, "pks": pks,
              "pvs": pvs, "qkv": qkv, "qr": qr, "kr": kr, "vr": vr,
              "pkr": pkr, "pvr": pvr, "lens_prompt": lens_prompt,
              "lens_gen": lens_gen, "lens_sub": lens_sub, "lens_rot": lens_rot,
              "lens_rot_gen": lens_rot_gen}
    ins = [tin(name, list(a.shape), I32 if a.dtype == np.int32 else
               TensorProto.FLOAT) for name, a in inputs.items()]
    prompt = ort_gqa(q4, k4, v4, None, None, lens_prompt, 4, 4, 2)
    win = ort_gqa(q4, k4, v4, None, None, lens_prompt, 4, 4, 2, scale=0.5,
                  softcap=2.0, window=2)
    gen = ort_gqa(q1, k1, v1, pk, pv, lens_gen, 6, 4, 2)
    sub = ort_gqa(qs, ks, vs, pks, pvs, lens_sub, 5, 4, 2)
    rot = ort_gqa(qkv[..., :32], qkv[..., 32:48], qkv[..., 48:], None, None,
                  lens_rot, 3, 2, 1, cos=cos8, sin=sin8, interleaved=True)
    rot_gen = ort_gqa(qr, kr, vr, pkr, pvr, lens_rot_gen, 7, 2, 1, window=3,
                      cos=cos8, sin=sin8)
    want = {"g_prompt": prompt[0], "g_pk": prompt[1], "g_pv": prompt[2],
            "g_window": win[0], "g_gen": gen[0], "g_gen_pk": gen[1],
            "g_gen_pv": gen[2], "g_sub": sub[0], "g_sub_pk": sub[1],
            "g_sub_c": sub[0], "g_gen_c": gen[0],
            "g_rot": rot[0], "g_rot_pk": rot[1], "g_rot_gen": rot_gen[0]}
    outs = [tin(name, list(a.shape)) for name, a in want.items()]
    m = model(nodes, ins, outs, inits, opset=13, microsoft=True)
    return m, inputs, {k: approx(v) for k, v in want.items()}


def case_gqa_sinks_bias():
    """GroupQueryAttention's newer inputs (ONNX Runtime's
    CheckCustomAttentionInputs and GQAAttentionBase): head_sink (one logit
    per head in the softmax's max and sum: gpt-oss), smooth_softmax (a sink
    of 0), attention_bias (added after the softcap; broadcast over batch or
    heads; a past buffer longer than total_sequence_length), and
    position_ids for the rotary embedding (token generation: B x S rows of
    its flat data, here B x 3 of which the first S are read; first prompt:
    element 0 is every sequence's start)."""
    r = rng(140)
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    I32 = TensorProto.INT32
    N = helper.make_node
    bsz, heads, kvh, head = 2, 4, 2, 8
    q4, k4, v4 = U(bsz, 4, 32), U(bsz, 4, 16), U(bsz, 4, 16)
    q1, k1, v1 = U(bsz, 1, 32), U(bsz, 1, 16), U(bsz, 1, 16)
    pk, pv = U(bsz, kvh, 7, head), U(bsz, kvh, 7, head)
    sinks = np.array([0.5, -1.0, 2.0, 0.0], F32)
    bias4 = U(bsz, 1, 4, 4) * 2
    bias1 = U(1, heads, 1, 6) * 2
    qr, kr, vr = U(bsz, 1, 64), U(bsz, 1, 32), U(bsz, 1, 32)
    pkr, pvr = U(bsz, 1, 6, 32), U(bsz, 1, 6, 32)
    q3, k3, v3 = U(bsz, 3, 32), U(bsz, 3, 32), U(bsz, 3, 32)
    ang = lambda w: np.outer(np.arange(12), 10000.0 ** (-np.arange(w) / w))
    cos12, sin12 = np.cos(ang(8)).astype(F32), np.sin(ang(8)).astype(F32)
    lens_prompt = np.array([3, 3], np.int32)
    lens_gen = np.array([3, 5], np.int32)
    lens_rot = np.array([4, 6], np.int32)
    lens_rot_prompt = np.array([2, 2], np.int32)
    pos_gen = np.array([[9, 0, 0], [2, 0, 0]], np.int64)
    pos_prompt = np.array([[5, 1, 1], [7, 7, 7]], np.int64)
    total = lambda name, t: init(name, np.array([t], np.int32))
    nodes = [
        N("GroupQueryAttention", ["q4", "k4", "v4", "", "", "lens_prompt", "t4",
                                  "", "", "", "bias4", "sinks"],
          ["g_sink"], domain=MS, num_heads=4, kv_num_heads=2, softcap=3.0),
        N("GroupQueryAttention", ["q1", "k1", "v1", "pk", "pv", "lens_gen", "t6",
                                  "", "", "", "bias1"],
          ["g_smooth"], domain=MS, num_heads=4, kv_num_heads=2,
          smooth_softmax=1, local_window_size=2),
        N("GroupQueryAttention", ["qr", "kr", "vr", "pkr", "pvr", "lens_rot", "t7",
                                  "cos12", "sin12", "pos_gen"],
          ["g_pos"], domain=MS, num_heads=2, kv_num_heads=1, do_rotary=1),
        N("GroupQueryAttention", ["q3", "k3", "v3", "", "", "lens_rot_prompt",
                                  "t3", "cos12", "sin12", "pos_prompt"],
          ["g_pos_prompt"], domain=MS, num_heads=1, kv_num_heads=1,
          do_rotary=1, rotary_interleaved=1),
    ]
    inits = [total("t4", 4), total("t6", 6), total("t7", 7), total("t3", 3),
             init("cos12", cos12), init("sin12", sin12), init("sinks", sinks),
             init("bias1", bias1), init("pos_prompt", pos_prompt)]
    inputs = {"q4": q4, "k4": k4, "v4": v4, "q1": q1, "k1": k1, "v1": v1,
              "pk": pk, "pv": pv, "bias4": bias4, "qr": qr, "kr": kr,
              "vr": vr, "pkr": pkr, "pvr": pvr, "q3": q3, "k3": k3, "v3": v3,
              "lens_prompt": lens_prompt, "lens_gen": lens_gen,
              "lens_rot": lens_rot, "lens_rot_prompt": lens_rot_prompt,
              "pos_gen": pos_gen}
    types = {np.dtype(np.int32): I32, np.dtype(np.int64): TensorProto.INT64}
    ins = [tin(name, list(a.shape), types.get(a.dtype, TensorProto.FLOAT))
           for name, a in inputs.items()]
    want = {
        "g_sink": ort_gqa(q4, k4, v4, None, None, lens_prompt, 4, 4, 2,
                          softcap=3.0, bias=bias4, sink=sinks)[0],
        "g_smooth": ort_gqa(q1, k1, v1, pk, pv, lens_gen, 6, 4, 2, window=2,
                            bias=bias1, sink=np.zeros(4))[0],
        "g_pos": ort_gqa(qr, kr, vr, pkr, pvr, lens_rot, 7, 2, 1, cos=cos12,
                         sin=sin12, position_ids=pos_gen)[0],
        "g_pos_prompt": ort_gqa(q3, k3, v3, None, None, lens_rot_prompt, 3, 1,
                                1, cos=cos12, sin=sin12, interleaved=True,
                                position_ids=pos_prompt)[0]}
    outs = [tin(name, list(a.shape)) for name, a in want.items()]
    m = model(nodes, ins, outs, inits, opset=13, microsoft=True)
    return m, inputs, {k: approx(v) for k, v in want.items()}


def gqa_bad(inputs, shapes, inits=(), out_shape=(1, 2, 16), **attrs):
    """One GroupQueryAttention node 'ms' (2 heads over 1 kv head of 8 by
    default) on float graph inputs; seqlens_k "lens" and a total length "t"
    are added as int32 initializers unless given."""
    base = dict(num_heads=2, kv_num_heads=1)
    base.update(attrs)
    names = {i.name for i in inits}
    inits = list(inits)
    if "lens" not in names and "lens" not in [n for n, _ in shapes]:
        inits.append(init("lens", np.array([1], np.int32)))
    if "t" not in names and "t" not in [n for n, _ in shapes]:
        inits.append(init("t", np.array([2], np.int32)))
    nodes = [helper.make_node("GroupQueryAttention", list(inputs), ["y"],
                              name="ms", domain=MS, **base)]
    ins = [tin(n, list(sh), TensorProto.INT32 if n in ("lens", "t") else
               TensorProto.FLOAT) for n, sh in shapes]
    return model(nodes, ins, [tin("y", list(out_shape))], inits, opset=13,
                 microsoft=True), {}, {}


QKV = [("q", (1, 2, 16)), ("k", (1, 2, 8)), ("v", (1, 2, 8))]


def case_bad_gqa_total_runtime():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t"], QKV + [("t", (1,))])


def case_bad_gqa_smooth():
    """A head_sink with smooth_softmax = 1 (ONNX Runtime refuses it)."""
    return gqa_bad(["q", "k", "v", "", "", "lens", "t", "", "", "", "", "h"],
                   QKV, [init("h", np.zeros(2, F32))], smooth_softmax=1)


def case_bad_gqa_position_ids():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t", "", "", "p"], QKV,
                   [init("p", np.zeros((1, 1), np.int64))])


def case_bad_gqa_window_zero():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t"], QKV,
                   local_window_size=0)


def case_bad_gqa_bias_shape():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t", "", "", "", "b"], QKV,
                   [init("b", np.zeros((1, 1, 2, 3), F32))])


def case_bad_gqa_sink_shape():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t", "", "", "", "", "h"],
                   QKV, [init("h", np.zeros(3, F32))])


def case_bad_gqa_head_size():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t"],
                   [("q", (1, 2, 12)), ("k", (1, 2, 6)), ("v", (1, 2, 6))])


def case_bad_gqa_heads():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t"], QKV, num_heads=3,
                   kv_num_heads=2)


def case_bad_gqa_subsequent_batch():
    qkv = [("q", (2, 2, 16)), ("k", (2, 2, 8)), ("v", (2, 2, 8)),
           ("pk", (2, 1, 4, 8)), ("pv", (2, 1, 4, 8))]
    return gqa_bad(["q", "k", "v", "pk", "pv", "lens", "t"], qkv,
                   [init("lens", np.array([4, 4], np.int32)),
                    init("t", np.array([5], np.int32))], out_shape=(2, 2, 16))


def case_bad_gqa_seqlens_type():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t"], QKV,
                   [init("lens", np.array([1], np.int64))])


def case_bad_gqa_past_shape():
    return gqa_bad(["q", "k", "v", "pk", "pv", "lens", "t"],
                   QKV + [("pk", (1, 2, 4, 8)), ("pv", (1, 2, 4, 8))])


def case_bad_gqa_total_huge():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t"], QKV,
                   [init("t", np.array([1 << 30], np.int32))])


def case_bad_gqa_rotary_cache():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t", "c", "c"],
                   [("q", (1, 2, 32)), ("k", (1, 2, 16)), ("v", (1, 2, 16))],
                   [init("c", np.zeros((4, 4), F32))], out_shape=(1, 2, 32),
                   do_rotary=1)


def case_llama_decoder_step():
    """One LLaMA-style decoder layer as ONNX Runtime's model builder writes
    it, on a token-generation step: token embedding (Gather), RMS norm
    (SimplifiedLayerNormalization, ONNX Runtime's op of the standard
    domain), seqlens_k and total_sequence_length from the int64 attention
    mask (ReduceSum, Sub, Cast; Shape, Gather, Cast), 4-bit MatMulNBits projections (block 16), GroupQueryAttention
    with rotary embeddings over a past of 4 (2 query heads of 16 over 1 kv
    head), the output projection, SkipSimplifiedLayerNormalization (its
    residual sum as output 3), a SwiGLU MLP (gate * Sigmoid(gate) * up) and
    the residual, then the LM head. Against float64 numpy (the same weights
    dequantized, ort_gqa, RMS norms)."""
    r = rng(149)
    d, heads, kvh, head, ff, vocab, past = 32, 2, 1, 16, 64, 50, 4
    U = lambda *shape: r.uniform(-1, 1, shape).astype(F32)
    embed = U(vocab, d)
    g1, g2 = r.uniform(0.5, 1.5, d).astype(F32), r.uniform(0.5, 1.5, d).astype(F32)
    pk, pv = U(1, kvh, past, head), U(1, kvh, past, head)
    ids = np.array([[17]], np.int64)
    lens = np.array([past], np.int32)
    ang = np.outer(np.arange(16), 10000.0 ** (-np.arange(8) / 8))
    cos, sin = np.cos(ang).astype(F32), np.sin(ang).astype(F32)
    weights = {}
    inits = [init("embed", embed), init("g1", g1), init("g2", g2),
             init("cos", cos), init("sin", sin), init("ax1", np.array([1], np.int64)),
             init("one", np.array(1, np.int64)), init("idx1", np.array(1, np.int64))]
    N = helper.make_node
    # seqlens_k and total_sequence_length from the attention mask, as the
    # model builder computes them: ReduceSum - 1 (run-time), the mask's
    # static length (folds).
    nodes = [N("ReduceSum", ["attention_mask", "ax1"], ["mask_sum"], keepdims=0),
             N("Sub", ["mask_sum", "one"], ["mask_sum1"]),
             N("Cast", ["mask_sum1"], ["lens"], to=TensorProto.INT32),
             N("Shape", ["attention_mask"], ["mask_shape"]),
             N("Gather", ["mask_shape", "idx1"], ["mask_len"], axis=0),
             N("Cast", ["mask_len"], ["total"], to=TensorProto.INT32),
             N("Gather", ["embed", "ids"], ["x"]),
             N("SimplifiedLayerNormalization", ["x", "g1"], ["h"],
               epsilon=1e-6)]

    def nbits(name, a, k, n, out):
        b, sc, zp, deq = nbits_weights(r, k, n, 4, 16, "packed")
        weights[name] = deq
        inits.extend([init(name + "_b", b), init(name + "_s", sc),
                      init(name + "_zp", zp)])
        nodes.append(N("MatMulNBits", [a, name + "_b", name + "_s", name + "_zp"],
                       [out], domain=MS, K=k, N=n, bits=4, block_size=16))

    nbits("wq", "h", d, heads * head, "q")
    nbits("wk", "h", d, kvh * head, "k")
    nbits("wv", "h", d, kvh * head, "v")
    nodes.append(N("GroupQueryAttention", ["q", "k", "v", "past_k", "past_v",
                                           "lens", "total", "cos", "sin"],
                   ["attn", "present_k", "present_v"], domain=MS,
                   num_heads=heads, kv_num_heads=kvh, do_rotary=1))
    nbits("wo", "attn", heads * head, d, "o")
    nodes.append(N("SkipSimplifiedLayerNormalization", ["o", "x", "g2"],
                   ["h2", "", "", "resid"], domain=MS, epsilon=1e-6))
    nbits("wg", "h2", d, ff, "gate")
    nbits("wu", "h2", d, ff, "up")
    nodes += [N("Sigmoid", ["gate"], ["sg"]), N("Mul", ["gate", "sg"], ["silu"]),
              N("Mul", ["silu", "up"], ["mlp_in"])]
    nbits("wd", "mlp_in", ff, d, "down")
    nodes.append(N("Add", ["down", "resid"], ["y"]))
    nbits("wl", "y", d, vocab, "logits")
    m = model(nodes, [tin("ids", [1, 1], TensorProto.INT64),
                      tin("attention_mask", [1, past + 1], TensorProto.INT64),
                      tin("past_k", [1, kvh, past, head]),
                      tin("past_v", [1, kvh, past, head])],
              [tin("logits", [1, 1, vocab]),
               tin("present_k", [1, kvh, past + 1, head]),
               tin("present_v", [1, kvh, past + 1, head])],
              inits, opset=18, microsoft=True)

    f = lambda a: np.asarray(a, np.float64)
    rms = lambda t, g: t / np.sqrt((t * t).mean(-1, keepdims=True) + 1e-6) * f(g)
    x = f(embed)[ids]
    h = rms(x, g1)
    q, k, v = h @ weights["wq"], h @ weights["wk"], h @ weights["wv"]
    attn, pres_k, pres_v = ort_gqa(q, k, v, pk, pv, lens, past + 1, heads, kvh,
                                   cos=cos, sin=sin)
    resid = attn @ weights["wo"] + x
    h2 = rms(resid, g2)
    gate, up = h2 @ weights["wg"], h2 @ weights["wu"]
    y = (gate / (1 + np.exp(-gate)) * up) @ weights["wd"] + resid
    mask = np.ones((1, past + 1), np.int64)
    return m, {"ids": ids, "attention_mask": mask, "past_k": pk, "past_v": pv}, {
        "logits": approx_of_scale(y @ weights["wl"]),
        "present_k": approx(pres_k), "present_v": approx(pres_v)}


def case_bad_rotary_seq_beyond_cache():
    c = np.zeros((4, 4), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 6, 8))],
                      [init("c", c), init("p", np.zeros((1, 6), np.int64))],
                      out_shape=(1, 6, 8))


def case_bad_rotary_negative_start():
    c = np.zeros((4, 4), F32)
    return rotary_bad(["x", "p", "c", "c"], [("x", (1, 2, 8))],
                      [init("c", c), init("p", np.array([-1], np.int64))])


def case_bad_rotary_qdq_input():
    c = np.zeros((4, 4), F32)
    nodes = [helper.make_node("DequantizeLinear", ["xq", "s"], ["x"]),
             helper.make_node("RotaryEmbedding", ["x", "p", "c", "c"], ["y"],
                              name="ms", domain=MS)]
    return model(nodes, [tin("xq", [1, 2, 8], TensorProto.UINT8)],
                 [tin("y", [1, 2, 8])],
                 [init("s", np.array(0.1, F32)), init("c", c),
                  init("p", np.zeros((1,), np.int64))], opset=13,
                 microsoft=True), {}, {}


def case_bad_nbits_bias_shape():
    return nbits_bad(["a", "b", "s", "", "", "bias"], [("a", (1, 32))],
                     nbits_inits() + [init("bias", np.zeros((3, 2), F32))])


def case_bad_nbits_scales_shape():
    return nbits_bad(["a", "b", "s"], [("a", (1, 32))],
                     [init("b", np.zeros((2, 2, 8), np.uint8)),
                      init("s", np.ones((1, 4), F32))])


def case_bad_nbits_scales_f64():
    return nbits_bad(["a", "b", "s"], [("a", (1, 32))],
                     [init("b", np.zeros((2, 2, 8), np.uint8)),
                      init("s", np.ones(4, np.float64))])


def case_bad_nbits_output_huge():
    return ms_node_model(
        "MatMulNBits", ["a", "b", "s"], [("a", (1 << 55, 32))],
        [init("b", np.zeros((64, 2, 8), np.uint8)),
         init("s", np.ones(128, F32))], (1 << 55, 64), K=32, N=64, bits=4,
        block_size=16)


def case_gqa_decode_wide_batch():
    """Token generation over a batch of 2^22: the present buffers' padding
    (past 3 rows, T = 4) is a Pad, not a constant of the buffer's size (the
    import ran out of memory)."""
    b = 1 << 22
    return gqa_bad(["q", "k", "v", "pk", "pv", "lens", "t"],
                   [("q", (b, 1, 16)), ("k", (b, 1, 8)), ("v", (b, 1, 8)),
                    ("pk", (b, 1, 3, 8)), ("pv", (b, 1, 3, 8)), ("lens", (b,))],
                   [init("t", np.array([4], np.int32))], out_shape=(b, 1, 16))


def case_gqa_const_past():
    """A compile-time past buffer that needs padding (P = 2 < T = 3) and
    smooth_softmax = 2 (ONNX Runtime reads flags as on for 1 only)."""
    return gqa_bad(["q", "k", "v", "pk", "pk", "lens", "t"],
                   [("q", (1, 1, 16)), ("k", (1, 1, 8)), ("v", (1, 1, 8))],
                   [init("pk", np.ones((1, 1, 2, 8), F32)),
                    init("lens", np.array([2], np.int32)),
                    init("t", np.array([3], np.int32))], out_shape=(1, 1, 16),
                   smooth_softmax=2)


def case_bad_gqa_seqlens_range():
    qkv = [("q", (1, 1, 16)), ("k", (1, 1, 8)), ("v", (1, 1, 8)),
           ("pk", (1, 1, 4, 8)), ("pv", (1, 1, 4, 8))]
    return gqa_bad(["q", "k", "v", "pk", "pv", "lens", "t"], qkv,
                   [init("lens", np.array([7], np.int32)),
                    init("t", np.array([5], np.int32))])


def case_bad_gqa_no_past():
    return gqa_bad(["q", "k", "v", "", "", "lens", "t"],
                   [("q", (1, 1, 16)), ("k", (1, 1, 8)), ("v", (1, 1, 8))],
                   [init("t", np.array([4], np.int32))], out_shape=(1, 1, 16))


def case_cast_wraps_shape():
    """Shape arithmetic through an int64 -> int32 Cast wraps as ONNX Runtime
    casts: 2^32 + 2 is 2, so x of 16 reshapes to 2 x 8 (the fold kept
    2^32 + 2)."""
    N = helper.make_node
    nodes = [N("Cast", ["big"], ["small"], to=TensorProto.INT32),
             N("Cast", ["small"], ["shape"], to=TensorProto.INT64),
             N("Reshape", ["x", "shape"], ["y"])]
    return model(nodes, [tin("x", [16])], [tin("y", [2, 8])],
                 [init("big", np.array([(1 << 32) + 2, 8], np.int64))]), {}, {}


def case_reduce_keepdims_two():
    """keepdims = 2: ONNX Runtime keeps dimensions for 1 only."""
    nodes = [helper.make_node("ReduceMax", ["x"], ["y"], axes=[1], keepdims=2)]
    return model(nodes, [tin("x", [3, 4, 5])], [tin("y", [3, 5])], []), {}, {}


def case_bad_rms_norm_scale():
    nodes = [helper.make_node("SimplifiedLayerNormalization", ["x", "g"], ["y"],
                              name="rms")]
    return model(nodes, [tin("x", [2, 4, 16])], [tin("y", [2, 4, 16])],
                 [init("g", np.ones((4, 16), F32))], opset=18), {}, {}


def case_bad_rms_norm_domain():
    nodes = [helper.make_node("SimplifiedLayerNormalization", ["x", "g"], ["y"],
                              name="rms", domain=MS)]
    return model(nodes, [tin("x", [2, 16])], [tin("y", [2, 16])],
                 [init("g", np.ones(16, F32))], opset=13, microsoft=True), {}, {}


def case_bad_reduce_bool():
    nodes = [helper.make_node("ReduceMax", ["x"], ["y"], name="any", axes=[1],
                              keepdims=0)]
    return model(nodes, [], [tin("y", [2], TensorProto.BOOL)],
                 [init("x", np.array([[1, 0, 1], [0, 0, 0]], bool))]), {}, {}


def case_bad_input_zero_dim():
    nodes = [helper.make_node("Relu", ["x"], ["y"])]
    return model(nodes, [tin("x", [0, 3])], [tin("y", [0, 3])], []), {}, {}


def case_ms_qattention():
    """ONNX Runtime's dynamically quantized attention: DynamicQuantizeLinear
    of the input, then QAttention with int8 weights (per-column scales),
    input_scale and the uint8 input's run-time zero point, a raw padding
    mask. The projection is exact integers dequantized in f32 (x_scale *
    w_scale, then + bias), as ORT's kernel computes it; the rest float64."""
    r = rng(113)
    bsz, seq, hid = 2, 4, 8
    x = r.uniform(-1, 2, (bsz, seq, hid)).astype(F32)
    wq = r.integers(-127, 128, (hid, 3 * hid)).astype(np.int8)
    w_s = r.uniform(0.005, 0.02, (3 * hid,)).astype(F32)
    bias = r.uniform(-0.5, 0.5, (3 * hid,)).astype(F32)
    raw = np.array([[1, 1, 1, 1], [1, 1, 1, 0]], np.int32)
    N = helper.make_node
    nodes = [
        N("DynamicQuantizeLinear", ["x"], ["xq", "xs", "xz"]),
        N("QAttention", ["xq", "wq", "bias", "xs", "w_s", "raw", "xz"],
          ["y"], domain=MS, num_heads=2),
    ]
    inits = [init("wq", wq), init("w_s", w_s), init("bias", bias)]
    m = model(nodes, [tin("x", [bsz, seq, hid]),
                      tin("raw", [bsz, seq], TensorProto.INT32)],
              [tin("y", [bsz, seq, hid])], inits, opset=13, microsoft=True)
    codes, xs, zp = dynamic_quantize_linear(x)
    acc = (codes - zp) @ wq.astype(np.int64)
    qkv = (acc.astype(F32) * (F32(xs) * w_s).astype(F32)).astype(F32) + bias
    want = ort_attention(qkv.astype(np.float64), 2, (8, 8, 8), 0.5,
                         ort_mask(raw, bsz, seq, -10000.0, False))
    return m, {"x": x, "raw": raw}, {"y": approx(want)}


def ort_layer_norm(v, gamma, beta, eps):
    mean = v.mean(-1, keepdims=True)
    var = ((v - mean) ** 2).mean(-1, keepdims=True)
    return (v - mean) / np.sqrt(var + eps) * gamma + beta


def case_ms_bert_layer():
    """One BERT layer as ONNX Runtime's transformer optimizer writes it:
    EmbedLayerNormalization (word + position + segment embeddings, its
    mask_index output: the ones of each mask row) -> Attention on that
    mask_index -> MatMul -> SkipLayerNormalization (bias) -> MatMul ->
    BiasGelu -> MatMul -> SkipLayerNormalization. Token ids, segment ids
    and the mask are run-time int32 inputs."""
    r = rng(114)
    bsz, seq, hid, ff = 2, 5, 8, 16

    def u(*shape, lo=-1.0, hi=1.0):
        return r.uniform(lo, hi, shape).astype(F32)
    word, pos, seg = u(20, hid), u(6, hid), u(2, hid)
    gammas = [u(hid, lo=0.5, hi=1.5) for _ in range(3)]
    betas = [u(hid, lo=-0.2, hi=0.2) for _ in range(3)]
    wqkv, bqkv, wo, bo = u(hid, 3 * hid), u(3 * hid), u(hid, hid), u(hid)
    w1, b1, w2, b2 = u(hid, ff), u(ff), u(ff, hid), u(hid)
    ids = r.integers(0, 20, (bsz, seq)).astype(np.int32)
    segs = np.array([[0, 0, 1, 1, 1], [0, 1, 1, 0, 0]], np.int32)
    mask = np.array([[1, 1, 1, 1, 0], [1, 1, 1, 0, 0]], np.int32)
    N = helper.make_node
    nodes = [
        N("EmbedLayerNormalization", ["ids", "segs", "word", "pos", "seg",
                                      "g0", "b0", "mask"],
          ["emb", "mask_index"], domain=MS, epsilon=1e-12),
        N("Attention", ["emb", "wqkv", "bqkv", "mask_index"], ["att"],
          domain=MS, num_heads=2),
        N("MatMul", ["att", "wo"], ["ao"]),
        N("SkipLayerNormalization", ["ao", "emb", "g1", "b1", "bo"], ["h1"],
          domain=MS, epsilon=1e-12),
        N("MatMul", ["h1", "w1"], ["f1"]),
        N("BiasGelu", ["f1", "bf1"], ["g"], domain=MS),
        N("MatMul", ["g", "w2"], ["f2"]),
        N("SkipLayerNormalization", ["f2", "h1", "g2", "b2", "bf2"], ["out"],
          domain=MS, epsilon=1e-12),
    ]
    inits = [init("word", word), init("pos", pos), init("seg", seg),
             init("wqkv", wqkv), init("bqkv", bqkv), init("wo", wo),
             init("bo", bo), init("w1", w1), init("bf1", b1), init("w2", w2),
             init("bf2", b2)]
    for i in range(3):
        inits += [init("g%d" % i, gammas[i]), init("b%d" % i, betas[i])]
    I32 = TensorProto.INT32
    m = model(nodes, [tin("ids", [bsz, seq], I32), tin("segs", [bsz, seq], I32),
                      tin("mask", [bsz, seq], I32)],
              [tin("out", [bsz, seq, hid]), tin("mask_index", [bsz], I32)],
              inits, opset=13, microsoft=True)
    f = np.float64
    emb = (word.astype(f)[ids] + pos.astype(f)[np.arange(seq)] +
           seg.astype(f)[segs])
    emb = ort_layer_norm(emb, gammas[0], betas[0], 1e-12)
    mask_index = (mask == 1).sum(1)
    att = ort_attention(emb @ wqkv + bqkv, 2, (8, 8, 8), 0.5,
                        ort_mask(mask_index, bsz, seq, -10000.0, False))
    h1 = ort_layer_norm(att @ wo + emb + bo, gammas[1], betas[1], 1e-12)
    g = gelu_erf(h1 @ w1 + b1)
    out = ort_layer_norm(g @ w2 + h1 + b2, gammas[2], betas[2], 1e-12)
    return m, {"ids": ids, "segs": segs, "mask": mask}, {
        "out": approx(out), "mask_index": ("int", mask_index.astype(np.int64))}


def case_ms_qembed_layer_norm():
    """QEmbedLayerNormalization (ONNX Runtime's dynamic quantization of the
    embeddings): uint8 word, position and segment tables, gamma and beta,
    each with its scale and zero point, dequantized in f32, then as
    EmbedLayerNormalization; its mask_index counts the ones per row."""
    r = rng(116)
    bsz, seq, hid = 2, 4, 8
    tables = {"word": (12, hid), "pos": (5, hid), "seg": (2, hid),
              "gamma": (hid,), "beta": (hid,)}
    quant, inits, deq = {}, [], {}
    for i, (name, shape) in enumerate(tables.items()):
        q = r.integers(0, 256, shape).astype(np.uint8)
        sc, zp = F32(0.01 * (i + 1)), np.uint8(100 + 5 * i)
        inits += [init(name + "_q", q), init(name + "_s", sc),
                  init(name + "_z", zp)]
        deq[name] = ((q.astype(np.int64) - int(zp)).astype(F32) * sc).astype(F32)
    ids = r.integers(0, 12, (bsz, seq)).astype(np.int32)
    segs = np.array([[0, 0, 1, 1], [0, 1, 1, 1]], np.int32)
    mask = np.array([[1, 1, 1, 0], [1, 1, 1, 1]], np.int32)
    node = helper.make_node(
        "QEmbedLayerNormalization",
        ["ids", "segs", "word_q", "pos_q", "seg_q", "gamma_q", "beta_q", "mask",
         "word_s", "pos_s", "seg_s", "gamma_s", "beta_s",
         "word_z", "pos_z", "seg_z", "gamma_z", "beta_z"],
        ["out", "mask_index"], domain=MS, epsilon=1e-12)
    I32 = TensorProto.INT32
    m = model([node], [tin("ids", [bsz, seq], I32), tin("segs", [bsz, seq], I32),
                       tin("mask", [bsz, seq], I32)],
              [tin("out", [bsz, seq, hid]), tin("mask_index", [bsz], I32)],
              inits, opset=13, microsoft=True)
    f = np.float64
    emb = (deq["word"].astype(f)[ids] + deq["pos"].astype(f)[np.arange(seq)] +
           deq["seg"].astype(f)[segs])
    out = ort_layer_norm(emb, deq["gamma"], deq["beta"], 1e-12)
    return m, {"ids": ids, "segs": segs, "mask": mask}, {
        "out": approx(out),
        "mask_index": ("int", (mask == 1).sum(1).astype(np.int64))}


def grid_sample_ref(X, grid, mode, padding, align):
    """ONNX's GridSample (2-D), in float64: each grid coordinate
    denormalized, rounded half to even for nearest, moved into the image
    when outside [lo, hi] (border: clamped to [0, size - 1]; reflection:
    mirrored at lo and hi), then interpolated from 1, 2 or 4 pixels per
    axis (x first, then y), pixels outside read by the padding rule."""
    N, C, H, W = X.shape
    _, Ho, Wo, _ = grid.shape
    out = np.zeros((N, C, Ho, Wo))

    def bounds(size):
        return (0.0, size - 1.0) if align else (-0.5, size - 0.5)

    def denorm(g, size):
        return (g + 1) / 2 * (size - 1) if align else ((g + 1) * size - 1) / 2

    def reflect(v, a, b):
        span = b - a
        if v < a:
            k, r = divmod(a - v, span)
            return a + r if k % 2 == 0 else b - r
        if v > b:
            k, r = divmod(v - b, span)
            return b - r if k % 2 == 0 else a + r
        return v

    def into(v, size):
        a, b = bounds(size)
        if a <= v <= b:
            return v
        if padding == "border":
            return min(max(v, 0.0), size - 1.0)
        if padding == "reflection":
            return reflect(v, a, b)
        return v

    def pix(n, c, r, col):
        if padding == "zeros":
            return X[n, c, r, col] if 0 <= r < H and 0 <= col < W else 0.0
        if padding == "border":
            return X[n, c, min(max(r, 0), H - 1), min(max(col, 0), W - 1)]
        return X[n, c, int(reflect(r, *bounds(H))), int(reflect(col, *bounds(W)))]

    def cubic(t):
        a = -0.75
        outer = lambda d: ((a * d - 5 * a) * d + 8 * a) * d - 4 * a
        inner = lambda d: ((a + 2) * d - (a + 3)) * d * d + 1
        return [outer(t + 1), inner(t), inner(1 - t), outer(2 - t)]

    for n, oy, ox in np.ndindex(N, Ho, Wo):
        x = denorm(float(grid[n, oy, ox, 0]), W)
        y = denorm(float(grid[n, oy, ox, 1]), H)
        if mode == "nearest":
            x, y = float(np.rint(x)), float(np.rint(y))
        x, y = into(x, W), into(y, H)
        for c in range(C):
            if mode == "nearest":
                out[n, c, oy, ox] = pix(n, c, int(y), int(x))
                continue
            x0, y0 = int(np.floor(x)), int(np.floor(y))
            tx, ty = x - x0, y - y0
            if mode == "linear":
                offs, wx, wy = [0, 1], [1 - tx, tx], [1 - ty, ty]
            else:
                offs, wx, wy = [-1, 0, 1, 2], cubic(tx), cubic(ty)
            out[n, c, oy, ox] = sum(
                wy[j] * sum(wx[i] * pix(n, c, y0 + offs[j], x0 + offs[i])
                            for i in range(len(offs)))
                for j in range(len(offs)))
    return out


def grid_sample_case(opset, names):
    r = rng(117)
    X = r.uniform(-2, 2, (1, 2, 4, 5)).astype(F32)
    grid = r.uniform(-1.4, 1.4, (1, 3, 4, 2)).astype(F32)
    # Exact halves for nearest with align_corners (x = 2 (g + 1) on W = 5):
    # 1.5 and 2.5 round to 2.
    grid[0, 0, 0] = [-0.25, 0.5]
    grid[0, 0, 1] = [0.25, -1.0]
    nodes, outs, want = [], [], {}
    for mode, name in zip(("linear", "nearest", "cubic"), names):
        for padding in ("zeros", "border", "reflection"):
            for align in (0, 1):
                out = "gs_%s_%s_%d" % (mode, padding, align)
                nodes.append(helper.make_node(
                    "GridSample", ["x", "grid"], [out], mode=name,
                    padding_mode=padding, align_corners=align))
                outs.append(tin(out, [1, 2, 3, 4]))
                want[out] = approx(grid_sample_ref(
                    X.astype(np.float64), grid.astype(np.float64), mode,
                    padding, align))
    m = model(nodes, [tin("x", [1, 2, 4, 5]), tin("grid", [1, 3, 4, 2])],
              outs, [], opset=opset)
    return m, {"x": X, "grid": grid}, want


def case_grid_sample():
    """GridSample (opset 16: bilinear, nearest, bicubic) with every
    padding mode and align_corners 0 and 1, on a grid reaching outside the
    image, against a float64 model of ONNX's reference."""
    return grid_sample_case(16, ("bilinear", "nearest", "bicubic"))


def case_grid_sample_opset20():
    """GridSample's opset-20 mode names (linear, nearest, cubic)."""
    return grid_sample_case(20, ("linear", "nearest", "cubic"))


def case_grid_sample_nonfinite():
    """Non-finite grid coordinates (ONNX leaves them undefined;
    docs/ONNXImport.md): NaN gives NaN in every mode; an infinity with
    zeros padding NaN when interpolating (its weights) and 0 for nearest
    (outside the image), and the clamped edge with border padding; the
    finite coordinates around them are unaffected."""
    X = np.arange(12, dtype=F32).reshape(1, 1, 3, 4)
    nan, inf = np.nan, np.inf
    grid = np.array([[[[nan, 0.0], [0.0, nan], [inf, 0.0], [0.5, -0.5]]]], F32)
    nodes = [helper.make_node("GridSample", ["x", "grid"], ["lin"]),
             helper.make_node("GridSample", ["x", "grid"], ["near"],
                              mode="nearest"),
             helper.make_node("GridSample", ["x", "grid"], ["border"],
                              padding_mode="border", align_corners=1)]
    m = model(nodes, [tin("x", [1, 1, 3, 4]), tin("grid", [1, 1, 4, 2])],
              [tin(o, [1, 1, 1, 4]) for o in ("lin", "near", "border")], [],
              opset=16)
    finite = grid[0, 0, 3:4].reshape(1, 1, 1, 2).astype(np.float64)
    Xd = X.astype(np.float64)
    lin = grid_sample_ref(Xd, finite, "linear", "zeros", 0)[0, 0, 0, 0]
    near = grid_sample_ref(Xd, finite, "nearest", "zeros", 0)[0, 0, 0, 0]
    border = grid_sample_ref(Xd, finite, "linear", "border", 1)[0, 0, 0, 0]
    # x = +inf clamps to the last column (3) at y = 0 -> the row's centre
    # pixel 1 (align_corners: y = (0 + 1) / 2 * 2 = 1): X[0, 0, 1, 3] = 7.
    return m, {"x": X, "grid": grid}, {
        "lin": approx(np.array([nan, nan, nan, lin])),
        "near": approx(np.array([nan, nan, 0.0, near])),
        "border": approx(np.array([nan, nan, 7.0, border]))}


def case_bad_grid_sample_3d():
    nodes = [helper.make_node("GridSample", ["x", "grid"], ["y"], name="gs")]
    return model(nodes, [tin("x", [1, 1, 2, 3, 4]), tin("grid", [1, 2, 3, 4, 3])],
                 [tin("y", [1, 1, 2, 3, 4])], [], opset=20), {}, {}


def case_pools_1d():
    """Pools over N x C x L (audio and sequence models): MaxPool (kernel 3,
    stride 2, pads 1) and AveragePool (kernel 3, stride 3) on codes,
    GlobalAveragePool and GlobalMaxPool on codes, and a float AveragePool
    with count_include_pad = 1 and padding; outputs on the input's grid
    (the averages: exact means of the codes, never a tie with 3 or 9
    values)."""
    r = rng(118)
    x = r.uniform(-3, 3, (2, 3, 9)).astype(F32)
    y = r.uniform(-1, 1, (2, 3, 8)).astype(F32)
    s, z = 0.05, 128
    N = helper.make_node
    nodes, inits = [], []
    qdq(nodes, inits, "x", s, z)
    nodes += [N("MaxPool", ["xd"], ["mp"], kernel_shape=[3], strides=[2],
                pads=[1, 1]),
              N("AveragePool", ["xd"], ["ap"], kernel_shape=[3], strides=[3]),
              N("GlobalAveragePool", ["xd"], ["gap"]),
              N("GlobalMaxPool", ["xd"], ["gmp"]),
              N("AveragePool", ["y"], ["fap"], kernel_shape=[3], pads=[1, 1],
                count_include_pad=1)]
    for src in ("mp", "ap", "gap", "gmp"):
        qdq_out(nodes, inits, src, "y_" + src, s, z)
    m = model(nodes, [tin("x", [2, 3, 9]), tin("y", [2, 3, 8])],
              [tin("y_mp", [2, 3, 5]), tin("y_ap", [2, 3, 3]),
               tin("y_gap", [2, 3, 1]), tin("y_gmp", [2, 3, 1]),
               tin("fap", [2, 3, 8])], inits)
    q = quantize(x, s, z, np.uint8)
    padded = np.pad(q, ((0, 0), (0, 0), (1, 1)), constant_values=-1)
    mp = np.stack([padded[..., 2 * i:2 * i + 3].max(-1) for i in range(5)], -1)
    ap = np.stack([np.round(q[..., 3 * i:3 * i + 3].sum(-1) / 3)
                   for i in range(3)], -1).astype(np.int64)
    gap = np.round(q.sum(-1, keepdims=True) / 9).astype(np.int64)
    gmp = q.max(-1, keepdims=True)
    yp = np.pad(y.astype(np.float64), ((0, 0), (0, 0), (1, 1)))
    fap = np.stack([yp[..., i:i + 3].sum(-1) / 3 for i in range(8)], -1)
    return m, {"x": x, "y": y}, {
        "y_mp": ("codes", mp, s, z), "y_ap": ("codes", ap, s, z),
        "y_gap": ("codes", gap, s, z), "y_gmp": ("codes", gmp, s, z),
        "fap": approx(fap)}


def case_bad_pool_1d_kernel():
    nodes = [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[2, 2],
                              name="pool")]
    return model(nodes, [tin("x", [1, 2, 8])], [tin("y", [1, 2, 7])], [],
                 opset=13), {}, {}


def case_ms_dynamic_quantize_lstm():
    """ONNX Runtime's DynamicQuantizeLSTM (quantize_dynamic of an LSTM): a
    bidirectional LSTM whose uint8 W (input x 4 hidden, per-row scales and
    zero points) and int8 R (per-direction scales) are dequantized, then
    ONNX's LSTM on f32 activations (ONNX Runtime would also quantize X and
    H at each step; docs/ONNXImport.md)."""
    r = rng(119)
    seq, batch, inp, hid = 4, 2, 3, 5
    x = r.uniform(-1, 1, (seq, batch, inp)).astype(F32)
    wq = r.integers(0, 256, (2, inp, 4 * hid)).astype(np.uint8)
    w_s = r.uniform(0.002, 0.006, (2, 4 * hid)).astype(F32)
    w_z = r.integers(100, 156, (2, 4 * hid)).astype(np.uint8)
    rq = r.integers(-127, 128, (2, hid, 4 * hid)).astype(np.int8)
    r_s = np.array([0.004, 0.003], F32)
    r_z = np.zeros(2, np.int8)
    b = r.uniform(-0.2, 0.2, (2, 8 * hid)).astype(F32)
    node = helper.make_node(
        "DynamicQuantizeLSTM",
        ["x", "wq", "rq", "b", "", "", "", "", "w_s", "w_z", "r_s", "r_z"],
        ["y", "y_h", "y_c"], domain=MS, hidden_size=hid,
        direction="bidirectional")
    inits = [init("wq", wq), init("w_s", w_s), init("w_z", w_z),
             init("rq", rq), init("r_s", r_s), init("r_z", r_z), init("b", b)]
    m = model([node], [tin("x", [seq, batch, inp])],
              [tin("y", [seq, 2, batch, hid]), tin("y_h", [2, batch, hid]),
               tin("y_c", [2, batch, hid])], inits, microsoft=True)
    w = ((wq.astype(np.int64) - w_z[:, None, :]).astype(F32) *
         w_s[:, None, :]).astype(F32).transpose(0, 2, 1)
    rr = ((rq.astype(np.int64)).astype(F32) *
          r_s[:, None, None]).astype(F32).transpose(0, 2, 1)
    fy, fh, fc = lstm_f32(x, w[0], rr[0], b[0])
    by, bh, bc = lstm_f32(x, w[1], rr[1], b[1], reverse=True)
    return m, {"x": x}, {"y": approx(np.stack([fy, by], axis=1)),
                         "y_h": approx(np.stack([fh, bh])),
                         "y_c": approx(np.stack([fc, bc]))}


def case_qlinear_where():
    """com.microsoft QLinearWhere: the Where of the dequantized X and Y on
    a run-time condition, quantized to z's grid (ONNX Runtime's QOperator
    form of DQ -> Where -> Q)."""
    r = rng(120)
    a = r.uniform(-2, 2, (2, 6)).astype(F32)
    bb = r.uniform(-2, 2, (2, 6)).astype(F32)
    c = r.uniform(-1, 1, (2, 6)).astype(F32)
    N = helper.make_node
    nodes = [N("QuantizeLinear", ["a", "a_s", "a_z"], ["aq"]),
             N("QuantizeLinear", ["b", "b_s", "b_z"], ["bq"]),
             N("Greater", ["c", "zero"], ["cond"]),
             N("QLinearWhere", ["cond", "aq", "a_s", "a_z", "bq", "b_s", "b_z",
                                "z_s", "z_z"], ["zq"], domain=MS)]
    inits = [init("a_s", F32(0.02)), init("a_z", np.uint8(120)),
             init("b_s", F32(0.03)), init("b_z", np.uint8(130)),
             init("z_s", F32(0.025)), init("z_z", np.uint8(128)),
             init("zero", F32(0))]
    m = model(nodes, [tin("a", [2, 6]), tin("b", [2, 6]), tin("c", [2, 6])],
              [tin("zq", [2, 6], TensorProto.UINT8)], inits, microsoft=True)
    ad = dequantize(quantize(a, 0.02, 120, np.uint8), 0.02, 120)
    bd = dequantize(quantize(bb, 0.03, 130, np.uint8), 0.03, 130)
    z = quantize(np.where(c > 0, ad, bd), 0.025, 128, np.uint8)
    return m, {"a": a, "b": bb, "c": c}, {"zq": ("ints", z.astype(np.uint8))}


def lp_pool_ref(x, p, kernel, strides, pads, dilations=None):
    """ONNX's LpPool: (sum over the window of |x|^p)^(1/p), padding zeros,
    in float64 (N, C, spatial...)."""
    nd = len(kernel)
    dilations = dilations or [1] * nd
    xp = np.pad(np.abs(x.astype(np.float64)) ** p,
                [(0, 0), (0, 0)] + [(pads[i], pads[i + nd]) for i in range(nd)])
    out_shape = [(xp.shape[2 + i] - ((kernel[i] - 1) * dilations[i] + 1)) //
                 strides[i] + 1 for i in range(nd)]
    out = np.zeros(x.shape[:2] + tuple(out_shape))
    for pos in np.ndindex(*out_shape):
        window = tuple(slice(pos[i] * strides[i],
                             pos[i] * strides[i] + (kernel[i] - 1) * dilations[i] + 1,
                             dilations[i]) for i in range(nd))
        out[(slice(None), slice(None)) + pos] = \
            xp[(slice(None), slice(None)) + window].sum(axis=tuple(range(2, 2 + nd)))
    return out ** (1.0 / p)


def case_lp_pool():
    """LpPool (p = 2 with asymmetric padding, p = 1, p = 3 over a 1-D
    input) against ONNX's definition; opset 18's dilations in
    lp_pool_opset18."""
    r = rng(121)
    x = r.uniform(-2, 2, (1, 2, 5, 6)).astype(F32)
    z = r.uniform(-2, 2, (1, 2, 7)).astype(F32)
    N = helper.make_node
    nodes = [N("LpPool", ["x"], ["l2"], p=2, kernel_shape=[2, 3],
               strides=[1, 2], pads=[1, 0, 0, 1]),
             N("LpPool", ["x"], ["l1"], p=1, kernel_shape=[3, 3],
               strides=[2, 2]),
             N("LpPool", ["z"], ["l3"], p=3, kernel_shape=[3], strides=[2],
               pads=[1, 1])]
    want = {"l2": lp_pool_ref(x, 2, [2, 3], [1, 2], [1, 0, 0, 1]),
            "l1": lp_pool_ref(x, 1, [3, 3], [2, 2], [0, 0, 0, 0]),
            "l3": lp_pool_ref(z, 3, [3], [2], [1, 1])}
    m = model(nodes, [tin("x", [1, 2, 5, 6]), tin("z", [1, 2, 7])],
              [tin(k, list(v.shape)) for k, v in want.items()], [])
    return m, {"x": x, "z": z}, {k: approx(v) for k, v in want.items()}


def case_lp_pool_opset18():
    """LpPool at opset 18 (its ceil_mode and dilations are newer than the
    checker), dilations of 1 written out."""
    x = rng(122).uniform(-2, 2, (1, 2, 6, 5)).astype(F32)
    want = lp_pool_ref(x, 2, [2, 2], [1, 1], [0, 0, 0, 0])
    m = model([helper.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2],
                                dilations=[1, 1], ceil_mode=0)],
              [tin("x", [1, 2, 6, 5])], [tin("y", list(want.shape))], [],
              opset=18)
    return m, {"x": x}, {"y": approx(want)}


def case_bad_lp_pool_dilations():
    nodes = [helper.make_node("LpPool", ["x"], ["y"], kernel_shape=[2, 2],
                              dilations=[2, 1], name="lp")]
    return model(nodes, [tin("x", [1, 2, 6, 5])], [tin("y", [1, 2, 4, 4])], [],
                 opset=18), {}, {}


def case_bad_ms_attention_past():
    nodes = [helper.make_node("Attention", ["x", "w", "b", "", "past"], ["y"],
                              domain=MS, num_heads=2, name="attn")]
    inits = [init("w", np.zeros((8, 24), F32)), init("b", np.zeros(24, F32))]
    return model(nodes, [tin("x", [1, 4, 8]), tin("past", [2, 1, 2, 1, 4])],
                 [tin("y", [1, 4, 8])], inits, microsoft=True), {}, {}


def case_bad_ms_attention_heads():
    nodes = [helper.make_node("Attention", ["x", "w", "b"], ["y"],
                              domain=MS, num_heads=3, name="attn")]
    inits = [init("w", np.zeros((8, 24), F32)), init("b", np.zeros(24, F32))]
    return model(nodes, [tin("x", [1, 4, 8])], [tin("y", [1, 4, 8])], inits,
                 microsoft=True), {}, {}


def case_bad_ms_attention_long():
    """A hostile sequence length: diagnosed before any table of it is
    built (it crashed the importer allocating 2^40 positions)."""
    nodes = [helper.make_node("Attention", ["x", "w", "b", "m"], ["y"],
                              domain=MS, num_heads=2, unidirectional=1,
                              name="attn")]
    inits = [init("w", np.zeros((8, 24), F32)), init("b", np.zeros(24, F32))]
    return model(nodes, [tin("x", [1, 1 << 40, 8]),
                         tin("m", [1], TensorProto.INT32)],
                 [tin("y", [1, 1 << 40, 8])], inits, microsoft=True), {}, {}


def case_bad_ms_attention_mask4d():
    nodes = [helper.make_node("Attention", ["x", "w", "b", "m"], ["y"],
                              domain=MS, num_heads=2, name="attn")]
    inits = [init("w", np.zeros((8, 24), F32)), init("b", np.zeros(24, F32))]
    return model(nodes, [tin("x", [1, 4, 8]),
                         tin("m", [1, 1, 4, 4], TensorProto.INT32)],
                 [tin("y", [1, 4, 8])], inits, microsoft=True), {}, {}


def case_bad_ms_skip_layernorm_mean():
    nodes = [helper.make_node("SkipLayerNormalization", ["x", "s", "g"],
                              ["y", "mean"], domain=MS, name="sln")]
    inits = [init("g", np.ones(8, F32))]
    return model(nodes, [tin("x", [1, 4, 8]), tin("s", [1, 4, 8])],
                 [tin("y", [1, 4, 8]), tin("mean", [1, 4, 1])], inits,
                 microsoft=True), {}, {}


CASES = {name[5:]: fn for name, fn in globals().items() if name.startswith("case_")}


# ---------------------------------------------------------------------------
# driver and comparison
# ---------------------------------------------------------------------------
def mlir_elem(arr):
    return {np.dtype(np.float32): "f32", np.dtype(np.int8): "i8",
            np.dtype(np.uint8): "i8", np.dtype(np.int32): "i32"}[arr.dtype]


def dense(arr):
    if arr.dtype == np.uint8:
        arr = arr.astype(np.int8)  # graph inputs carry u8 codes as i8 bits
    if arr.dtype == np.float32 and not np.isfinite(arr).all():
        # MLIR spells a NaN or an infinity as its bits.
        def element(v):
            if np.isnan(v):
                return "0x7FC00000"
            if np.isinf(v):
                return "0x7F800000" if v > 0 else "0xFF800000"
            return repr(float(v))
        body = np.array2string(arr, separator=",", threshold=sys.maxsize,
                               max_line_width=sys.maxsize,
                               formatter={"float_kind": element})
    elif arr.dtype == np.float32:
        body = np.array2string(arr, separator=",", threshold=sys.maxsize,
                               floatmode="unique", max_line_width=sys.maxsize)
    elif arr.dtype == np.bool_:
        body = np.array2string(arr.astype(np.int64), separator=",",
                               threshold=sys.maxsize, max_line_width=sys.maxsize)
        body = body.replace("1", "true").replace("0", "false")
    else:
        body = np.array2string(arr, separator=",", threshold=sys.maxsize,
                               max_line_width=sys.maxsize)
    return body.replace("\n", "")


def build(name, prefix):
    m, inputs, expected = CASES[name]()
    onnx.save(m, prefix + ".onnx")
    if not expected:
        return
    arrays = {}
    for k, v in inputs.items():
        arrays["in_" + k] = v
    for k, e in expected.items():
        arrays["out_" + k] = e[1]
        if e[0] == "codes":
            arrays["scale_" + k] = np.float64(e[2])
            arrays["zp_" + k] = np.int64(e[3])
        elif e[0] == "approx":
            arrays["tol_" + k] = e[2]
    np.savez(prefix + ".npz", inputs=np.array(list(inputs)),
             outputs=np.array(list(expected)), **arrays)


def driver(prefix):
    data = np.load(prefix + ".npz")
    text = open(prefix + ".mlir").read()
    sig = re.search(r"func\.func @model\(([^)]*)\) -> \(?([^{]*?)\)? \{", text)
    arg_types = re.findall(r"tensor<[^>]*>", sig.group(1))
    res_types = re.findall(r"tensor<[^>]*>", sig.group(2))
    lines = ["  func.func private @printMemrefF32(memref<*xf32>)",
             "  func.func private @printMemrefI32(memref<*xi32>)",
             "  func.func private @printMemrefI8(memref<*xi8>)",
             "  func.func private @printMemrefI16(memref<*xi16>)",
             "  func.func private @printMemrefI64(memref<*xi64>)",
             "  func.func @main() {"]
    args = []
    for i, (name, ty) in enumerate(zip(data["inputs"], arg_types)):
        lines.append("    %%a%d = arith.constant dense<%s> : %s" %
                     (i, dense(data["in_" + str(name)]), ty))
        args.append("%%a%d" % i)
    lines.append("    %s = call @model(%s) : (%s) -> (%s)" % (
        ", ".join("%%r%d" % i for i in range(len(res_types))), ", ".join(args),
        ", ".join(arg_types), ", ".join(res_types)))
    for i, ty in enumerate(res_types):
        m = re.match(r"tensor<((?:[0-9]+x)*)(\w+)>", ty)
        shape, elem = m.group(1), m.group(2)  # shape: "2x3x" or "" (rank 0)
        fn = {"f32": "F32", "i32": "I32", "i8": "I8", "i16": "I16",
              "i64": "I64"}[elem]
        lines.append("    %%m%d = bufferization.to_buffer %%r%d : %s to memref<%s%s>" %
                     (i, i, ty, shape, elem))
        lines.append("    %%u%d = memref.cast %%m%d : memref<%s%s> to memref<*x%s>" %
                     (i, i, shape, elem, elem))
        lines.append("    call @printMemref%s(%%u%d) : (memref<*x%s>) -> ()" %
                     (fn, i, elem))
    lines += ["    return", "  }"]
    body = text.rstrip()
    assert body.endswith("}")
    with open(prefix + ".run.mlir", "w") as f:
        f.write(body[:-1] + "\n".join(lines) + "\n}\n")


def compare(prefix, transcript):
    data = np.load(prefix + ".npz")
    printed = printed_tensors(transcript)
    outputs = list(data["outputs"])
    if len(printed) != len(outputs):
        print("FAIL: printed %d tensors, expected %d" % (len(printed), len(outputs)))
        return 1
    bad = 0
    for name, got in zip(outputs, printed):
        want = data["out_" + str(name)]
        if ("scale_" + str(name)) in data:
            s, z = float(data["scale_" + str(name)]), int(data["zp_" + str(name)])
            got = np.round(got / s) + z
        elif want.dtype == np.uint8:
            got = np.mod(got, 256)  # the driver prints bytes as signed
        want = want.reshape(-1).astype(np.float64)
        if got.shape != want.shape:
            print("FAIL %s: %d values, expected %d" % (name, got.size, want.size))
            return 1
        if ("tol_" + str(name)) in data:
            tol = data["tol_" + str(name)].reshape(-1)
            far = ~((np.abs(got - want) <= tol) |
                    (np.isnan(got) & np.isnan(want)))
            diff = int(far.sum())
            bad += diff
            print("%s: %d/%d within tolerance of the numpy model" %
                  (name, want.size - diff, want.size))
            if diff:
                idx = np.nonzero(far)[0][:8]
                print("  first differences at %s: got %s want %s" %
                      (list(idx), list(got[idx]), list(want[idx])))
            continue
        diff = int((got != want).sum())
        bad += diff
        print("%s: %d/%d equal to the numpy model" % (name, want.size - diff,
                                                     want.size))
        if diff:
            idx = np.nonzero(got != want)[0][:8]
            print("  first differences at %s: got %s want %s" %
                  (list(idx), list(got[idx]), list(want[idx])))
    return 1 if bad else 0


def main():
    cmd = sys.argv[1]
    if cmd == "build":
        build(sys.argv[2], sys.argv[3])
    elif cmd == "build-many":  # NAME=PREFIX ...: one Python start for many
        for arg in sys.argv[2:]:
            name, prefix = arg.split("=", 1)
            build(name, prefix)
    elif cmd == "driver":
        driver(sys.argv[2])
    elif cmd == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
