#!/usr/bin/python3
"""Models whose tensors keep their data in another file (ONNX external data,
onnx/docs/ExternalData.md), for external-data.test.

  external_data.py good DIR   DIR/inline.onnx, and the same model as
                              DIR/model/model.onnx with every tensor's bytes
                              in DIR/model/weights/model.data (initializers,
                              a Constant node, tensors inside If branches)
  external_data.py bad DIR    DIR/NAME/model.onnx for each broken rule NAME
  external_data.py externalize MODEL DIR
                              DIR/model.onnx and DIR/model.onnx.data, as
                              ONNX Runtime's model builder writes them

The external files are written here, not with onnx.external_data_helper, so
that the offsets (unaligned, not in graph order) and keys are what the test
says.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

F32 = np.float32


def all_tensors(graph):
    """Every TensorProto of `graph`: initializers and attribute tensors, also
    inside subgraphs."""
    yield from graph.initializer
    for node in graph.node:
        for a in node.attribute:
            if a.HasField("t"):
                yield a.t
            yield from a.tensors
            if a.HasField("g"):
                yield from all_tensors(a.g)
            for sub in a.graphs:
                yield from all_tensors(sub)


def externalize(model, data_path, location):
    """Moves every tensor's raw bytes into data_path, last tensor first and
    each after a 3-byte gap, so that no offset is 0 or aligned."""
    tensors = list(all_tensors(model.graph))
    with open(data_path, "wb") as f:
        for t in reversed(tensors):
            raw = numpy_helper.to_array(t).tobytes()
            f.write(b"\xee" * 3)
            offset = f.tell()
            f.write(raw)
            t.ClearField("raw_data")
            for field in ("float_data", "int32_data", "int64_data",
                          "double_data"):
                t.ClearField(field)
            t.data_location = TensorProto.EXTERNAL
            for key, value in (("location", location),
                               ("offset", str(offset)),
                               ("length", str(len(raw)))):
                e = t.external_data.add()
                e.key, e.value = key, value


def good_model():
    rng = np.random.default_rng(7)
    w = rng.integers(-127, 128, size=(3, 2, 3, 3)).astype(np.int8)
    inits = [
        numpy_helper.from_array(np.array(0.05, F32), "x_s"),
        numpy_helper.from_array(np.array(128, np.uint8), "x_z"),
        numpy_helper.from_array(w, "w_q"),
        numpy_helper.from_array(np.array([0.01, 0.02, 0.015], F32), "w_s"),
        numpy_helper.from_array(np.zeros(3, np.int8), "w_z"),
        numpy_helper.from_array(np.array([100, -200, 300], np.int32), "b_q"),
        numpy_helper.from_array(np.array([0.0005, 0.001, 0.00075], F32),
                                "b_s"),
        numpy_helper.from_array(np.array(0.1, F32), "y_s"),
        numpy_helper.from_array(np.array(3, np.uint8), "y_z"),
        numpy_helper.from_array(np.array([1, 48], np.int64), "shape"),
        numpy_helper.from_array(
            np.array([[0.5, -1.25, 2.0, 4.0] * 12], F32), "m"),
        numpy_helper.from_array(np.array(0, F32), "zero"),
    ]
    then_g = helper.make_graph(
        [helper.make_node("Constant", [], ["t"], value=numpy_helper.from_array(
            np.array([[1.5, -2.5] * 24], F32), "t_value"))],
        "then", [], [helper.make_tensor_value_info("t", TensorProto.FLOAT,
                                                   [1, 48])])
    else_g = helper.make_graph(
        [], "else", [],
        [helper.make_tensor_value_info("e", TensorProto.FLOAT, [1, 48])],
        [numpy_helper.from_array(np.array([[-8.0, 0.125] * 24], F32), "e")])
    nodes = [
        helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["x_q"]),
        helper.make_node("DequantizeLinear", ["x_q", "x_s", "x_z"], ["x_d"]),
        helper.make_node("DequantizeLinear", ["w_q", "w_s", "w_z"], ["w_d"],
                         axis=0),
        helper.make_node("DequantizeLinear", ["b_q", "b_s"], ["b_d"], axis=0),
        helper.make_node("Conv", ["x_d", "w_d", "b_d"], ["conv"], pads=[1] * 4),
        helper.make_node("QuantizeLinear", ["conv", "y_s", "y_z"], ["c_q"]),
        helper.make_node("DequantizeLinear", ["c_q", "y_s", "y_z"], ["c_d"]),
        helper.make_node("Reshape", ["c_d", "shape"], ["flat"]),
        helper.make_node("Mul", ["flat", "m"], ["mm"]),
        helper.make_node("Constant", [], ["k"], value=numpy_helper.from_array(
            np.array([0.25, -0.75] * 24, F32), "k_value")),
        helper.make_node("Add", ["mm", "k"], ["mk"]),
        helper.make_node("Greater", ["c", "zero"], ["cond"]),
        helper.make_node("If", ["cond"], ["branch"], then_branch=then_g,
                         else_branch=else_g),
        helper.make_node("Add", ["mk", "branch"], ["y"]),
    ]
    g = helper.make_graph(
        nodes, "external_data",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 4, 4]),
         helper.make_tensor_value_info("c", TensorProto.FLOAT, [])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 48])],
        inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def write_good(out):
    model = good_model()
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "inline.onnx"))
    os.makedirs(os.path.join(out, "model", "weights"), exist_ok=True)
    externalize(model, os.path.join(out, "model", "weights", "model.data"),
                "weights/model.data")
    with open(os.path.join(out, "model", "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())


def one_tensor_model(dtype=TensorProto.FLOAT, rows=3):
    """y = Concat(x, W), x 3 x 4 and W external, rows x 4 (by default 12
    floats, 48 bytes)."""
    w = TensorProto(name="W", data_type=dtype, dims=[rows, 4],
                    data_location=TensorProto.EXTERNAL)
    g = helper.make_graph(
        [helper.make_node("Concat", ["x", "W"], ["y"], axis=0)], "bad",
        [helper.make_tensor_value_info("x", dtype, [3, 4])],
        [helper.make_tensor_value_info("y", dtype, [3 + rows, 4])], [w])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])


def write_bad(out):
    def case(name, entries, data=b"\0" * 48, model=None, setup=None):
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        m = model or one_tensor_model()
        t = m.graph.initializer[0] if m.graph.initializer else None
        for key, value in entries:
            e = t.external_data.add()
            e.key, e.value = key, value
        if data is not None:
            with open(os.path.join(d, "w.data"), "wb") as f:
                f.write(data)
        if setup:
            setup(d)
        with open(os.path.join(d, "model.onnx"), "wb") as f:
            f.write(m.SerializeToString())

    loc = ("location", "w.data")
    case("absolute", [("location", os.path.join(out, "absolute", "w.data"))])
    # The file exists: the rule, not a missing file, refuses it.
    case("dotdot", [("location", "sub/../../dotdot/w.data")],
         setup=lambda d: os.makedirs(os.path.join(d, "sub"), exist_ok=True))
    case("missing", [("location", "nothing.data")])
    case("no_location", [("offset", "0")])
    case("empty_location", [("location", "")])
    case("directory", [("location", "dir")],
         setup=lambda d: os.makedirs(os.path.join(d, "dir"), exist_ok=True))
    # Reading a FIFO would block until a writer comes.
    case("fifo", [("location", "pipe")],
         setup=lambda d: os.path.exists(os.path.join(d, "pipe")) or
         os.mkfifo(os.path.join(d, "pipe")))
    case("short_file", [loc], data=b"\0" * 40)
    case("past_end", [loc, ("offset", "8")])
    case("huge_offset", [loc, ("offset", "9223372036854775807")])
    case("length", [loc, ("length", "44")])
    case("negative_offset", [loc, ("offset", "-4")])
    case("offset_text", [loc, ("offset", "12abc")])
    case("offset_overflow", [loc, ("offset", "99999999999999999999")])
    case("unknown_key", [loc, ("basepath", "/tmp")])
    case("duplicate_key", [loc, ("location", "other.data")])
    both = one_tensor_model()
    both.graph.initializer[0].raw_data = b"\0" * 48
    case("also_inline", [loc], model=both)
    case("float16", [loc], data=b"\0" * 24,
         model=one_tensor_model(TensorProto.FLOAT16))
    case("nul", [("location", "w.data\0junk")])
    case("string", [loc], data=b"\0" * 48,
         model=one_tensor_model(TensorProto.STRING))

    # Symbolic links: followed inside the model's directory, refused out of
    # it (a downloaded archive could hold `root -> /`).
    def link(name, target):
        def setup(d):
            if not os.path.lexists(os.path.join(d, name)):
                os.symlink(target, os.path.join(d, name))
        return setup
    os.makedirs(os.path.join(out, "elsewhere"), exist_ok=True)
    with open(os.path.join(out, "elsewhere", "w.data"), "wb") as f:
        f.write(b"\0" * 48)
    case("link_inside", [("location", "alias.data")],
         setup=link("alias.data", "w.data"))
    case("link_outside", [("location", "up/w.data")],
         setup=link("up", os.path.join("..", "elsewhere")))

    # A sparse initializer (never imported) whose values are external: the
    # same diagnostic from any current directory.
    sparse = one_tensor_model()
    values = TensorProto(name="W", data_type=TensorProto.FLOAT, dims=[1],
                         data_location=TensorProto.EXTERNAL)
    e = values.external_data.add()
    e.key, e.value = "location", "w.data"
    indices = numpy_helper.from_array(np.array([0], np.int64), "W_indices")
    sparse.graph.sparse_initializer.append(
        helper.make_sparse_tensor(values, indices, [3, 4]))
    del sparse.graph.initializer[:]
    case("sparse", [], model=sparse)

    # Offset 48 + length 0 of an empty tensor: allowed, at the very end.
    case("empty_tensor", [loc, ("offset", "48"), ("length", "0")],
         model=one_tensor_model(rows=0))


def write_externalized(model_path, out):
    model = onnx.load(model_path)
    os.makedirs(out, exist_ok=True)
    externalize(model, os.path.join(out, "model.onnx.data"),
                "model.onnx.data")
    with open(os.path.join(out, "model.onnx"), "wb") as f:
        f.write(model.SerializeToString())


if __name__ == "__main__":
    {"good": write_good, "bad": write_bad,
     "externalize": write_externalized}[sys.argv[1]](*sys.argv[2:])
