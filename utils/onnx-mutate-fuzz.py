#!/usr/bin/python3
"""Structure-aware fuzzer of quant-import-onnx (and of the pipeline after it).

Byte-level corruption (test/Import/ONNX/Inputs/mangle.py) mostly stops at
the protobuf parser. This one edits valid models the way a hostile or
broken exporter would: dimensions (0, negative, huge), element types,
initializer contents (scales 0 / negative / NaN / Inf / subnormal, zero
points out of range, truncated raw data, wrong element counts),
attributes (strides, pads, dilations, group, axis, kernel_shape, perm,
transB, alpha), node inputs (dropped, swapped, renamed to missing or to
other values), duplicated or deleted nodes, cycles, opset versions.

Seeds are the importer test cases (onnx_cases.py: every case_* function),
examples/models/*.onnx and the exported models in test/Import/ONNX/Inputs. Each mutant is imported; an imported module is
then compiled with `quant-opt --qnt-to-llvm` for a target picked per case.

A finding is: a signal (crash), a timeout, an importer exit code other
than 0 or 1, an exit code 1 without an "error:" line, or a module the
importer wrote that the pipeline rejects or crashes on (the importer must
only write modules that verify and compile). Findings are written to
--out with the command that reproduces them; the exit code is 1 if any.

  onnx-mutate-fuzz.py --build-dir build --cases 300 --seed 1 [--jobs 2]
  onnx-mutate-fuzz.py --build-dir build --seed 1 --case 17   # one case
"""
import argparse
import copy
import importlib.util
import math
import multiprocessing
import os
import random
import re
import subprocess
import sys
import tempfile

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper, shape_inference

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
TARGETS = ["x86_64", "x86_64-amx", "aarch64", "aarch64-dotprod",
           "aarch64-neon", "riscv64"]

DIMS = [0, -1, -7, 1, 2, 3, 1 << 20, (1 << 31) - 1, 1 << 31, (1 << 62)]
FLOATS = [0.0, -0.0, -1.0, 1e-45, 1e-38, 3.4e38, float("inf"),
          float("-inf"), float("nan"), 1e30, 2.0 ** -149]
INTS = [0, -1, 1, 2, -128, 127, 128, 255, 256, -129, 65535, -(1 << 31),
        (1 << 31) - 1, 1 << 40, -(1 << 62)]
DTYPES = [TensorProto.INT8, TensorProto.UINT8, TensorProto.INT16,
          TensorProto.UINT16, TensorProto.INT32, TensorProto.INT64,
          TensorProto.FLOAT, TensorProto.DOUBLE, TensorProto.FLOAT16,
          TensorProto.BOOL, TensorProto.STRING, 0, 99]


def load_cases():
    path = os.path.join(ROOT, "test/Import/ONNX/Inputs/onnx_cases.py")
    sys.path.insert(0, os.path.dirname(path))  # its helper modules
    spec = importlib.util.spec_from_file_location("onnx_cases", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    seeds = []
    for name in sorted(mod.CASES):
        try:
            seeds.append((name, mod.CASES[name]()[0]))
        except Exception as e:  # a seed that cannot be built is skipped
            print("seed %s: %s" % (name, e), file=sys.stderr)
    for models in (os.path.join(ROOT, "examples/models"),
                   os.path.join(ROOT, "test/Import/ONNX/Inputs")):
        for f in sorted(os.listdir(models)) if os.path.isdir(models) else []:
            if f.endswith(".onnx"):
                seeds.append((f, onnx.load(os.path.join(models, f))))
    return seeds


# ---------------------------------------------------------------------------
# mutations: each edits the model in place
# ---------------------------------------------------------------------------

def value_infos(m):
    g = m.graph
    return list(g.input) + list(g.output) + list(g.value_info)


def mut_dim(m, rnd):
    vis = [v for v in value_infos(m)
           if v.type.tensor_type.shape.dim]
    if not vis:
        return False
    dims = rnd.choice(vis).type.tensor_type.shape.dim
    d = rnd.choice(dims)
    if rnd.random() < 0.2:
        d.dim_param = rnd.choice(["n", "", "batch"])
    else:
        d.dim_value = max(rnd.choice(DIMS), 0) if rnd.random() < 0.5 \
            else rnd.choice([0, 1, 2, 3, 5, 64, 1 << 20])
    return True


def mut_rank(m, rnd):
    vis = [v for v in value_infos(m) if v.type.HasField("tensor_type")]
    if not vis:
        return False
    shape = rnd.choice(vis).type.tensor_type.shape
    if shape.dim and rnd.random() < 0.5:
        del shape.dim[rnd.randrange(len(shape.dim))]
    else:
        shape.dim.add().dim_value = rnd.choice([1, 2, 3])
    return True


def mut_elem_type(m, rnd):
    targets = [v.type.tensor_type for v in value_infos(m)
               if v.type.HasField("tensor_type")]
    targets += list(m.graph.initializer)
    if not targets:
        return False
    t = rnd.choice(targets)
    if isinstance(t, TensorProto):
        t.data_type = rnd.choice(DTYPES)
    else:
        t.elem_type = rnd.choice(DTYPES)
    return True


def mut_init_values(m, rnd):
    inits = list(m.graph.initializer)
    if not inits:
        return False
    t = rnd.choice(inits)
    try:
        arr = numpy_helper.to_array(t).copy()
    except Exception:
        return False
    if arr.size == 0:
        return False
    flat = arr.reshape(-1)
    for _ in range(rnd.choice([1, 1, 2, flat.size])):
        i = rnd.randrange(flat.size)
        if arr.dtype.kind == "f":
            flat[i] = rnd.choice(FLOATS)
        elif arr.dtype.kind in "iu":
            info = np.iinfo(arr.dtype)
            flat[i] = min(max(rnd.choice(INTS), info.min), info.max)
    new = numpy_helper.from_array(arr, t.name)
    t.CopyFrom(new)
    return True


def mut_init_shape(m, rnd):
    inits = list(m.graph.initializer)
    if not inits:
        return False
    t = rnd.choice(inits)
    choice = rnd.randrange(4)
    if choice == 0 and t.dims:
        t.dims[rnd.randrange(len(t.dims))] = rnd.choice(DIMS)
    elif choice == 1:
        t.dims.append(rnd.choice([0, 1, 2, 3]))
    elif choice == 2 and t.dims:
        del t.dims[rnd.randrange(len(t.dims))]
    else:  # truncate or extend the payload
        if t.raw_data:
            raw = t.raw_data
            t.raw_data = raw[:rnd.randrange(len(raw) + 1)] if \
                rnd.random() < 0.7 else raw + raw
        else:
            return False
    return True


def mut_attr(m, rnd):
    attrs = [(n, a) for n in m.graph.node for a in n.attribute]
    if not attrs:
        return False
    n, a = rnd.choice(attrs)
    if a.type == onnx.AttributeProto.INT:
        a.i = rnd.choice(INTS)
    elif a.type == onnx.AttributeProto.INTS:
        if a.ints and rnd.random() < 0.7:
            a.ints[rnd.randrange(len(a.ints))] = rnd.choice(INTS)
        elif a.ints and rnd.random() < 0.5:
            del a.ints[rnd.randrange(len(a.ints))]
        else:
            a.ints.append(rnd.choice(INTS))
    elif a.type == onnx.AttributeProto.FLOAT:
        a.f = rnd.choice(FLOATS)
    elif a.type == onnx.AttributeProto.STRING:
        a.s = rnd.choice([b"", b"SAME_UPPER", b"VALID", b"garbage",
                          b"NOTSET", b"SAME_LOWER"])
    elif a.type == onnx.AttributeProto.TENSOR:
        a.t.dims.append(rnd.choice([0, 2, 3]))
    else:
        return False
    return True


def mut_add_attr(m, rnd):
    if not m.graph.node:
        return False
    n = rnd.choice(m.graph.node)
    name = rnd.choice(["axis", "group", "strides", "pads", "dilations",
                       "kernel_shape", "transA", "transB", "perm",
                       "auto_pad", "ceil_mode", "count_include_pad",
                       "saturate", "block_size", "keepdims", "alpha"])
    for a in list(n.attribute):
        if a.name == name:
            n.attribute.remove(a)
    if name == "auto_pad":
        n.attribute.append(onnx.helper.make_attribute(
            name, rnd.choice(["SAME_UPPER", "SAME_LOWER", "VALID"])))
    elif name == "alpha":
        n.attribute.append(onnx.helper.make_attribute(
            name, rnd.choice(FLOATS)))
    elif name in ("strides", "pads", "dilations", "kernel_shape", "perm"):
        k = rnd.choice([0, 1, 2, 4, 5])
        n.attribute.append(onnx.helper.make_attribute(
            name, [rnd.choice(INTS + [1, 1, 2, 3]) for _ in range(k)]))
    else:
        n.attribute.append(onnx.helper.make_attribute(
            name, rnd.choice(INTS)))
    return True


def all_values(m):
    g = m.graph
    names = [v.name for v in g.input] + [t.name for t in g.initializer]
    for n in g.node:
        names += list(n.output)
    return [x for x in names if x]


def mut_input(m, rnd):
    nodes = [n for n in m.graph.node if n.input]
    if not nodes:
        return False
    n = rnd.choice(nodes)
    i = rnd.randrange(len(n.input))
    c = rnd.randrange(4)
    if c == 0:
        n.input[i] = "no_such_value"
    elif c == 1:
        n.input[i] = ""
    elif c == 2:
        n.input[i] = rnd.choice(all_values(m))
    else:
        del n.input[i]
    return True


def mut_node(m, rnd):
    g = m.graph
    if not g.node:
        return False
    c = rnd.randrange(4)
    i = rnd.randrange(len(g.node))
    if c == 0:  # delete
        del g.node[i]
    elif c == 1:  # duplicate (two producers of one name)
        g.node.insert(i, copy.deepcopy(g.node[i]))
    elif c == 2:  # a cycle: the node consumes its own output
        n = g.node[i]
        if n.input and n.output:
            n.input[0] = n.output[0]
    else:  # move it (topological order broken)
        n = copy.deepcopy(g.node[i])
        del g.node[i]
        g.node.insert(rnd.randrange(len(g.node) + 1), n)
    return True


MICROSOFT_OPS = ["QLinearAdd", "QLinearMul", "QLinearConcat",
                 "QLinearGlobalAveragePool", "QLinearAveragePool",
                 "QLinearReduceMean", "QLinearSigmoid", "QLinearLeakyRelu",
                 "QLinearSoftmax", "QGemm", "MatMulIntegerToFloat",
                 "DynamicQuantizeMatMul"]


def mut_op_type(m, rnd):
    if not m.graph.node:
        return False
    n = rnd.choice(m.graph.node)
    n.op_type = rnd.choice([n.op_type for n in m.graph.node] + [
        "QuantizeLinear", "DequantizeLinear", "QLinearConv", "QLinearMatMul",
        "MatMulInteger", "ConvInteger", "Conv", "Gemm", "MatMul", "Add",
        "Relu", "Clip", "MaxPool", "AveragePool", "GlobalAveragePool",
        "Concat", "Flatten", "Reshape", "Transpose", "Shape", "Gather",
        "Unsqueeze", "DynamicQuantizeLinear", "Identity", "Mul", "Sub", "Div",
        "Sigmoid", "Tanh", "HardSigmoid", "HardSwish", "LeakyRelu", "Slice",
        "Softmax", "Squeeze", "Resize", "ReduceMean", "Pad", "Split",
        "ConstantOfShape", "Cast", "Erf", "Sqrt", "Exp", "Log", "Neg", "Abs",
        "Reciprocal", "Pow", "LRN", "Dropout", "BatchNormalization",
        "LayerNormalization", "InstanceNormalization", "PRelu", "Max", "Min",
        "ReduceSum", "ReduceMax", "ReduceMin", "Expand", "Tile", "Where",
        "Equal", "Greater", "Less", "Not", "Elu", "Softplus", "GlobalMaxPool",
        "If", "Loop", "Scan"] +
        MICROSOFT_OPS)
    # ONNX Runtime's QOperator ops live in the com.microsoft domain.
    if n.op_type in MICROSOFT_OPS:
        n.domain = "com.microsoft"
        if not any(o.domain == "com.microsoft" for o in m.opset_import):
            m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    elif n.domain == "com.microsoft":
        n.domain = ""
    return True


def mut_output(m, rnd):
    g = m.graph
    c = rnd.randrange(3)
    if c == 0 and len(g.output) > 0:
        del g.output[rnd.randrange(len(g.output))]
    elif c == 1 and g.output:
        g.output[rnd.randrange(len(g.output))].name = rnd.choice(
            all_values(m) + ["missing"])
    elif g.input:
        g.output.append(copy.deepcopy(rnd.choice(g.input)))
    return True


def mut_opset(m, rnd):
    if not m.opset_import:
        return False
    m.opset_import[0].version = rnd.choice([1, 7, 10, 13, 18, 19, 20, 21, 22, 99, 0])
    return True


MUTATIONS = [mut_dim, mut_rank, mut_elem_type, mut_init_values,
             mut_init_values, mut_init_shape, mut_attr, mut_attr,
             mut_add_attr, mut_input, mut_node, mut_op_type, mut_output,
             mut_opset]


def infer_shapes_isolated(m):
    """onnx.shape_inference in a forked child: on hostile models it can
    divide by zero (SIGFPE) or throw. None when it does not succeed."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            data = shape_inference.infer_shapes(m).SerializeToString()
            with os.fdopen(w, "wb") as f:
                f.write(data)
            os._exit(0)
        except BaseException:
            os._exit(1)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        data = f.read()
    _, status = os.waitpid(pid, 0)
    if status != 0:
        return None
    return onnx.load_model_from_string(data)


def redeclare_outputs(m):
    """Declare each graph output with the shape ONNX's shape inference gives.

    The importer rejects a declared output that differs from what the graph
    computes (as ONNX Runtime does), and many mutations change the shape it
    computes, so without this most mutants would stop there, before the
    rest of the importer and the pipeline see them. Where inference fails or
    is silent the declaration stays."""
    probe = copy.deepcopy(m)
    for o in probe.graph.output:
        o.type.tensor_type.ClearField("shape")
    inferred = infer_shapes_isolated(probe)
    if inferred is None:
        return False
    changed = False
    for o, i in zip(m.graph.output, inferred.graph.output):
        it = i.type.tensor_type
        if (o.type.HasField("tensor_type") and it.HasField("shape") and
                o.type.tensor_type.shape != it.shape):
            o.type.tensor_type.shape.CopyFrom(it.shape)
            changed = True
    return changed


def subgraphs(g):
    """The If branches, Loop and Scan bodies under graph `g`, nested ones
    included."""
    for n in g.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.GRAPH:
                yield a.g
                yield from subgraphs(a.g)


class SubgraphView:
    """A model whose `graph` is one of its subgraphs: the mutations above
    then change that subgraph."""

    def __init__(self, model, graph):
        self.graph = graph
        self.opset_import = model.opset_import


class FunctionBody:
    """A local function's body seen as a graph: its nodes, and no inputs,
    outputs or initializers of its own (empty fields of a scratch graph)."""

    def __init__(self, fn):
        scratch = onnx.GraphProto()
        self.node = fn.node
        self.input, self.output = scratch.input, scratch.output
        self.value_info = scratch.value_info
        self.initializer = scratch.initializer
        self.sparse_initializer = scratch.sparse_initializer


def mutate(model, rnd):
    m = copy.deepcopy(model)
    applied = []
    inner = list(subgraphs(m.graph))
    for _ in range(rnd.choice([1, 1, 2, 3])):
        f = rnd.choice(MUTATIONS)
        # Models with control flow: half the mutations go into a subgraph;
        # with local functions, half into a function's body.
        target, where = m, ""
        if inner and rnd.random() < 0.5:
            target, where = SubgraphView(m, rnd.choice(inner)), "@subgraph"
        elif m.functions and rnd.random() < 0.5:
            target = SubgraphView(m, FunctionBody(rnd.choice(m.functions)))
            where = "@function"
        if f(target, rnd):
            applied.append(f.__name__[4:] + where)
    # A quarter of the mutants keep their declarations, so the check of
    # declared outputs is fuzzed too.
    if rnd.random() < 0.75 and redeclare_outputs(m):
        applied.append("redeclare_outputs")
    return m, applied


# ---------------------------------------------------------------------------
# running one case
# ---------------------------------------------------------------------------

def run(cmd, timeout):
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout, errors="replace")
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def check_case(args, seeds, index, work):
    rnd = random.Random("%d:%d" % (args.seed, index))
    name, seed_model = seeds[rnd.randrange(len(seeds))]
    model, applied = mutate(seed_model, rnd)
    target = rnd.choice(TARGETS)
    path = os.path.join(work, "case%d.onnx" % index)
    out = os.path.join(work, "case%d.mlir" % index)
    with open(path, "wb") as f:
        f.write(model.SerializeToString())
    bin_dir = os.path.join(args.build_dir, "bin")
    importer = [os.path.join(bin_dir, "quant-import-onnx"), path, "-o", out]
    what = "%s + %s" % (name, ",".join(applied) or "nothing")
    rc, err = run(importer, args.timeout)
    problem = None
    if rc == "timeout":
        problem = "importer timed out"
    elif rc < 0 or "PLEASE submit" in err or "Assertion" in err:
        problem = "importer crashed (rc %s)" % rc
    elif rc not in (0, 1):
        problem = "importer exit code %s" % rc
    elif rc == 1 and "error:" not in err:
        problem = "importer failed without an error: line"
    elif rc == 1 and os.path.exists(out) and os.path.getsize(out) > 0:
        problem = "importer failed but wrote an output file"
    if problem:
        return what, problem, importer, err
    if rc != 0:
        return what, None, None, None
    opt = [os.path.join(bin_dir, "quant-opt"), out,
           "--qnt-to-llvm=target=%s" % target, "-o", os.devnull]
    rc, err = run(opt, args.timeout)
    if rc == "timeout":
        problem = "quant-opt timed out on the imported module"
    elif rc != 0:
        problem = "quant-opt failed on the imported module (rc %s)" % rc
    if problem:
        return what, problem, opt, err
    return what, None, None, None


# A pool worker's copy of (args, seeds, work): set before the pool forks, so
# that each case is only an index (the models need not be pickled).
_WORKER = None


def run_indexed_case(index):
    """check_case for the pool: (index, what, problem, cmd, err, imported),
    the case's files removed unless --case keeps them."""
    args, seeds, work = _WORKER
    what, problem, cmd, err = check_case(args, seeds, index, work)
    out = os.path.join(work, "case%d.mlir" % index)
    imported = os.path.exists(out) and os.path.getsize(out) > 0
    if problem:
        os.makedirs(args.out, exist_ok=True)
        src = os.path.join(work, "case%d.onnx" % index)
        dst = os.path.join(args.out, "seed%d-case%d.onnx" % (args.seed, index))
        if os.path.abspath(src) != os.path.abspath(dst):
            with open(src, "rb") as f, open(dst, "wb") as g:
                g.write(f.read())
    if args.case is None:
        for ext in (".onnx", ".mlir"):
            p = os.path.join(work, "case%d%s" % (index, ext))
            if os.path.exists(p):
                os.remove(p)
    return index, what, problem, cmd, err, imported


def main():
    global _WORKER
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build-dir", default="build")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--case", type=int, default=None,
                    help="run only this case and keep its files")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="cases checked at once, in worker processes")
    ap.add_argument("--out", default="onnx-fuzz-findings")
    ap.add_argument("--seed-models", default=None, metavar="REGEX",
                    help="mutate only the seed models whose name matches "
                         "(e.g. 'if_|loop|scan' for control flow)")
    args = ap.parse_args()
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1 << 31)
    args.build_dir = os.path.abspath(args.build_dir)
    print("onnx-mutate-fuzz: seed %d" % args.seed, flush=True)
    seeds = load_cases()
    if args.seed_models:
        seeds = [(n, m) for n, m in seeds if re.search(args.seed_models, n)]
        if not seeds:
            ap.error("no seed model matches --seed-models")
    indices = [args.case] if args.case is not None else range(args.cases)
    findings = imported = 0
    with tempfile.TemporaryDirectory() as tmp:
        work = args.out if args.case is not None else tmp
        os.makedirs(work, exist_ok=True)
        _WORKER = (args, seeds, work)
        # Worker processes, not threads: check_case forks for ONNX's shape
        # inference, which is safe only from a single-threaded process.
        jobs = max(1, min(args.jobs, len(indices)))
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            for i, what, problem, cmd, err, ok in pool.imap(run_indexed_case, indices):
                imported += ok
                if problem:
                    findings += 1
                    print("FINDING case %d (%s): %s\n  %s\n%s" % (
                        i, what, problem, " ".join(cmd),
                        "\n".join(err.splitlines()[-15:])), flush=True)
    print("onnx-mutate-fuzz: %d cases, %d imported and compiled, "
          "%d findings (seed %d%s)" % (
              len(indices), imported, findings, args.seed,
              ", --seed-models '%s'" % args.seed_models if args.seed_models
              else ""))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
