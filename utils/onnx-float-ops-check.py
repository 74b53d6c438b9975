#!/usr/bin/env python3
"""Random Einsum, LSTM / GRU and TopK models through quant-import-onnx,
compiled and run, compared with numpy.

  onnx-float-ops-check.py --build-dir build --seeds 0 150 [--ops einsum rnn topk]

Einsum: one to four operands of ranks 0-3 over a few labels, with and
without an explicit output, with ellipses (one or two operands); operands on a grid of 1/8 below
2 in magnitude, so every f32 product and sum is exact and numpy's float64
einsum is the exact result. RNN / LSTM / GRU: random sizes, directions,
linear_before_reset, optional bias and initial states, random activations
(alpha / beta in their order) and LSTM peepholes, compared with the
f32 models of ONNX's reference in test/Import/ONNX/Inputs/onnx_cases.py.
TopK: f32 with ties, signed zeros and NaNs, int8 codes, int64 data, any
axis, K, largest and sorted, against ONNX's reference sort (exact).
mlir-runner prints six significant digits, so values are compared to a
relative 1e-5 (Einsum) and 6e-6 (recurrent: six digits of a value
beyond 1 are 5e-6 of it). Prints a line per failure and
a count per outcome; exits 1 on any failure. Needs numpy and onnx
(/usr/bin/python3).
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Import", "ONNX", "Inputs"))
import onnx_cases as oc  # noqa: E402

F32 = np.float32
LLVM_LIB = "/usr/lib/llvm-22/lib"


def save_model(nodes, inputs, outputs, inits, path, opset=14):
    g = helper.make_graph(nodes, "g", inputs, outputs, inits)
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.save(m, path)


def compile_and_run(build, prefix, names, arrays, expected, rtol):
    """Imports prefix.onnx, runs it on `arrays`; None or a failure text."""
    res = subprocess.run([os.path.join(build, "bin", "quant-import-onnx"),
                          prefix + ".onnx", "--entry", "model", "-o",
                          prefix + ".mlir"], capture_output=True, text=True)
    if res.returncode:
        return "import failed: " + res.stderr.strip()[:300]
    data = {"in_" + n: a for n, a in zip(names, arrays)}
    data.update({"out_" + k: v for k, v in expected.items()})
    np.savez(prefix + ".npz", inputs=np.array(names),
             outputs=np.array(list(expected)), **data)
    oc.driver(prefix)
    libs = ",".join([LLVM_LIB + "/libmlir_runner_utils.so",
                     LLVM_LIB + "/libmlir_c_runner_utils.so",
                     os.path.join(build, "lib", "libquant_runner_utils.so")])
    res = subprocess.run(
        "%s %s.run.mlir --qnt-to-llvm | %s/../bin/mlir-runner -e main "
        "-entry-point-result=void -shared-libs=%s" %
        (os.path.join(build, "bin", "quant-opt"), prefix, LLVM_LIB, libs),
        shell=True, capture_output=True, text=True)
    if res.returncode:
        return "run failed: " + res.stderr.strip()[:300]
    with open(prefix + ".out", "w") as f:
        f.write(res.stdout)
    got = oc.printed_tensors(prefix + ".out")
    for g, (k, v) in zip(got, expected.items()):
        v = v.reshape(-1).astype(np.float64)
        if (g.size != v.size or np.any(np.isnan(g) != np.isnan(v)) or
                np.any(np.abs(g - v) > rtol * np.maximum(1, np.abs(v)))):
            bad = int(np.argmax(np.where(np.isnan(g) != np.isnan(v), np.inf, np.abs(g - v) / np.maximum(1, np.abs(v)))))
            return "%s differs: at %d got %r want %r (%d values)" % (k, bad, g[bad], v[bad], v.size)
    return None


def einsum_case(seed, build, work):
    r = random.Random(seed)
    rs = np.random.default_rng(seed)
    letters = "abcde"
    size = {l: r.randint(1, 3) for l in letters}
    nops = r.choice([1, 2, 2, 2, 3, 4])
    ellipsis = r.random() < 0.3
    edims = [r.randint(1, 3) for _ in range(2)]
    terms, shapes = [], []
    for _ in range(nops):
        labels = r.sample(letters, r.randint(0, 3))
        term = "".join(labels)
        shape = [size[l] for l in labels]
        if ellipsis:
            pos, e = r.randint(0, len(labels)), r.randint(0, 2)
            term = term[:pos] + "..." + term[pos:]
            # Some dimensions 1: numpy broadcasts them against the others.
            dims = [1 if r.random() < 0.3 else d for d in edims[len(edims) - e:]]
            shape = shape[:pos] + dims + shape[pos:]
        terms.append(term)
        shapes.append(shape)
    equation = ",".join(terms)
    if r.random() >= 0.3:
        used = sorted(set(equation.replace(".", "").replace(",", "")))
        out = [l for l in used if r.random() < 0.6]
        r.shuffle(out)
        out = "".join(out)
        if ellipsis:
            pos = r.randint(0, len(out))
            out = out[:pos] + "..." + out[pos:]
        equation += "->" + out
    if any(len(s) == 0 for s in shapes):
        return "skip", ""  # the driver does not pass rank-0 inputs
    xs = [(rs.integers(-16, 17, s) / 8).astype(F32) for s in shapes]
    try:
        y = np.asarray(np.einsum(equation, *[x.astype(np.float64) for x in xs]))
    except ValueError:
        return "skip", ""
    if y.ndim == 0:
        return "skip", ""
    y = y.astype(F32)
    names = ["x%d" % i for i in range(nops)]
    prefix = os.path.join(work, "einsum%d" % seed)
    save_model([helper.make_node("Einsum", names, ["y"], equation=equation)],
               [helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
                for n, s in zip(names, shapes)],
               [helper.make_tensor_value_info("y", TensorProto.FLOAT, list(y.shape))],
               [], prefix + ".onnx", opset=13)
    problem = compile_and_run(build, prefix, names, xs, {"y": y}, 1e-5)
    return ("fail", "%s %s: %s" % (equation, shapes, problem)) if problem else ("ok", "")


def rnn_case(seed, build, work):
    r = random.Random(seed)
    rs = np.random.default_rng(seed)
    cell = r.choice(["LSTM", "GRU", "RNN"])
    lstm = cell == "LSTM"
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[cell]
    seq, batch, inp, hid = r.randint(1, 6), r.randint(1, 3), r.randint(1, 5), r.randint(1, 6)
    direction = r.choice(["forward", "reverse", "bidirectional"])
    dirs = 2 if direction == "bidirectional" else 1
    lbr = r.randint(0, 1)
    x = rs.uniform(-1, 1, (seq, batch, inp)).astype(F32)
    w = rs.uniform(-0.6, 0.6, (dirs, gates * hid, inp)).astype(F32)
    rr = rs.uniform(-0.6, 0.6, (dirs, gates * hid, hid)).astype(F32)
    has_b, has_h = r.random() < 0.6, r.random() < 0.5
    has_c = lstm and r.random() < 0.5
    b = (rs.uniform(-0.3, 0.3, (dirs, 2 * gates * hid)).astype(F32) if has_b
         else np.zeros((dirs, 2 * gates * hid), F32))
    h0 = rs.uniform(-0.5, 0.5, (dirs, batch, hid)).astype(F32)
    c0 = rs.uniform(-0.5, 0.5, (dirs, batch, hid)).astype(F32)
    ins = ["x", "w", "r", "b" if has_b else "", "", "h0" if has_h else ""]
    if lstm:
        ins.append("c0" if has_c else "")
    while ins[-1] == "":
        ins.pop()
    attrs = {"hidden_size": hid, "direction": direction}
    if cell == "GRU":
        attrs["linear_before_reset"] = lbr
    # Activations: the defaults, or random ones with alpha / beta lists in
    # the order the activations consume them.
    per_dir = {"LSTM": 3, "GRU": 2, "RNN": 1}[cell]
    acts = [None] * dirs
    if r.random() < 0.5:
        names, alphas, betas = [], [], []
        for d in range(dirs):
            fns = []
            for _ in range(per_dir):
                name = r.choice(["Relu", "Tanh", "Sigmoid", "Affine", "LeakyRelu",
                                 "ThresholdedRelu", "ScaledTanh", "HardSigmoid",
                                 "Elu", "Softsign", "Softplus"])
                a = bt = None
                if name in ("Affine", "LeakyRelu", "ThresholdedRelu", "ScaledTanh",
                            "HardSigmoid", "Elu"):
                    a = float(F32(r.uniform(0.1, 1.2)))
                    alphas.append(a)
                if name in ("Affine", "ScaledTanh", "HardSigmoid"):
                    bt = float(F32(r.uniform(-0.5, 0.5)))
                    betas.append(bt)
                names.append(name)
                fns.append(oc.rnn_activation(name, a, bt))
            acts[d] = fns
        attrs["activations"] = names
        if alphas:
            attrs["activation_alpha"] = alphas
        if betas:
            attrs["activation_beta"] = betas
    has_p = lstm and r.random() < 0.4
    p = rs.uniform(-0.5, 0.5, (dirs, 3 * hid)).astype(F32)
    if has_p:
        ins += [""] * (7 - len(ins)) + ["p"]
    ys, hs, cs = [], [], []
    for d in range(dirs):
        reverse = direction == "reverse" or d == 1
        h = h0[d] if has_h else None
        if lstm:
            y, h, c = oc.lstm_f32(x, w[d], rr[d], b[d], reverse=reverse, h=h,
                                  c=c0[d] if has_c else None, acts=acts[d],
                                  p=p[d] if has_p else None)
            cs.append(c)
        elif cell == "GRU":
            y, h = oc.gru_f32(x, w[d], rr[d], b[d], lbr, reverse=reverse, h=h,
                              acts=acts[d])
        else:
            y, h = oc.rnn_f32(x, w[d], rr[d], b[d], (acts[d] or [np.tanh])[0],
                              reverse=reverse, h=h)
        ys.append(y)
        hs.append(h)
    expected = {"y": np.stack(ys, axis=1), "yh": np.stack(hs)}
    if lstm:
        expected["yc"] = np.stack(cs)
    names, arrays = ["x"], [x]
    inputs = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [seq, batch, inp])]
    for flag, name, arr in ((has_h, "h0", h0), (has_c, "c0", c0)):
        if flag:
            names.append(name)
            arrays.append(arr)
            inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT,
                                                        [dirs, batch, hid]))
    inits = [numpy_helper.from_array(w, "w"), numpy_helper.from_array(rr, "r")]
    if has_b:
        inits.append(numpy_helper.from_array(b, "b"))
    if has_p:
        inits.append(numpy_helper.from_array(p, "p"))
    prefix = os.path.join(work, "rnn%d" % seed)
    save_model([helper.make_node(cell, ins, list(expected), **attrs)],
               inputs, [helper.make_tensor_value_info(k, TensorProto.FLOAT, list(v.shape))
                        for k, v in expected.items()], inits, prefix + ".onnx")
    problem = compile_and_run(build, prefix, names, arrays, expected, 6e-6)
    what = "%s %s lbr=%d seq=%d batch=%d input=%d hidden=%d %s%s" % (
        cell, direction, lbr, seq, batch, inp, hid,
        attrs.get("activations", "default activations"),
        " peepholes" if has_p else "")
    return ("fail", "%s: %s" % (what, problem)) if problem else ("ok", "")


def topk_case(seed, build, work):
    """TopK of f32 (ties, signed zeros, NaNs), of int8 codes through
    DequantizeLinear or of int64 data, random axis, K, largest and sorted,
    against ONNX's reference (onnx_cases.topk_reference); the indices
    exactly, the values exactly (NaN where the reference has one)."""
    r = random.Random(seed)
    rs = np.random.default_rng(seed)
    rank = r.randint(1, 4)
    shape = [r.randint(1, 4) for _ in range(rank)]
    axis = r.randrange(rank)
    shape[axis] = r.randint(1, 24)
    k = r.randint(1, shape[axis])
    largest, sort = r.randint(0, 1), r.randint(0, 1)
    kind = r.choice(["f32", "f32", "codes", "int64"])
    if kind == "f32":
        x = (rs.integers(-6, 7, shape) / 4).astype(F32)
        x[rs.random(shape) < 0.15] = -0.0
        x[rs.random(shape) < 0.1] = np.nan
        key, t = x, TensorProto.FLOAT
    elif kind == "codes":
        x = rs.integers(-128, 128, shape).astype(np.int8)
        key, t = oc.dequantize(x.astype(np.int64), 0.25, -5), TensorProto.INT8
    else:
        x = rs.integers(-4, 5, shape) * r.choice([1, 1 << 40])
        key, t = x, TensorProto.INT64
    values, indices = oc.topk_reference(key, k, axis, largest)
    out = list(values.shape)
    nodes = [helper.make_node("TopK", ["xd" if kind == "codes" else "x", "k"],
                              ["v", "i"], axis=axis - rank * r.randint(0, 1),
                              largest=largest, sorted=sort)]
    inits = [numpy_helper.from_array(np.array([k], np.int64), "k")]
    if kind == "codes":
        nodes.insert(0, helper.make_node("DequantizeLinear", ["x", "s", "z"], ["xd"]))
        inits += [numpy_helper.from_array(np.array(0.25, F32), "s"),
                  numpy_helper.from_array(np.array(-5, np.int8), "z")]
    prefix = os.path.join(work, "topk%d" % seed)
    vt = TensorProto.INT64 if kind == "int64" else TensorProto.FLOAT
    save_model(nodes, [helper.make_tensor_value_info("x", t, shape)],
               [helper.make_tensor_value_info("v", vt, out),
                helper.make_tensor_value_info("i", TensorProto.INT64, out)],
               inits, prefix + ".onnx", opset=13)
    problem = compile_and_run(build, prefix, ["x"], [x],
                              {"v": values, "i": indices}, 0)
    what = "%s %s axis %d k %d largest %d" % (kind, shape, axis, k, largest)
    return ("fail", "%s: %s" % (what, problem)) if problem else ("ok", "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--seeds", nargs=2, type=int, default=[0, 100])
    ap.add_argument("--ops", nargs="+", default=["einsum", "rnn", "topk"],
                    choices=["einsum", "rnn", "topk"])
    args = ap.parse_args()
    build = os.path.abspath(args.build_dir)
    counts, failed = Counter(), False
    with tempfile.TemporaryDirectory() as work:
        for op in args.ops:
            case = {"einsum": einsum_case, "rnn": rnn_case, "topk": topk_case}[op]
            for seed in range(*args.seeds):
                status, detail = case(seed, build, work)
                counts[op + " " + status] += 1
                if status == "fail":
                    failed = True
                    print("%s seed %d: %s" % (op, seed, detail), flush=True)
    print(", ".join("%s: %d" % kv for kv in sorted(counts.items())))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
