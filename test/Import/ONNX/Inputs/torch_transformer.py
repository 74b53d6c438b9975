#!/usr/bin/python3
"""A transformer layer (self-attention with 2 heads, feed-forward network,
post-norm) quantized by torch's eager QAT (the six Linear layers int8
between QuantStubs and DeQuantStubs; attention scores, Softmax, GELU and
LayerNorm in float), exported to ONNX at opset 13 on a 3-D (batch x tokens
x features) input, and torch's fake-quant outputs for it: the reference for
torch-transformer.test.

  torch_transformer.py build OUTDIR
      writes OUTDIR/torch_transformer.onnx and .npz (needs Debian's
      python3-torch 1.13; the checked-in files next to this script were
      written by it, so the test needs no torch)
  torch_transformer.py compare NPZ TRANSCRIPT
      compares a printMemref transcript of the compiled model with torch's
      outputs (numpy only)

torch exports the Linear layers on 3-D inputs as MatMul + Add, the heads
as Reshape and Transpose, Q K^T and P V as MatMul of two run-time tensors,
GELU as x * 0.5 * (1 + Erf(x / sqrt 2)) and LayerNorm (before opset 17) as
ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add.
Weights are random (seeded), observers calibrated on random inputs.
"""
import os
import sys

import numpy as np

from transcript import printed_tensors
from torch_float_ops import qat_qconfig

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    import torch.ao.quantization as tq
except ImportError:  # compare needs numpy only
    torch = None


def _stubbed(layer):
    """A Linear between a QuantStub and a DeQuantStub: int8 in eager QAT."""
    return nn.Sequential(tq.QuantStub(), layer, tq.DeQuantStub())


class Block(nn.Module if torch else object):
    """A post-norm transformer layer: self-attention (2 heads) and a
    feed-forward network, each followed by a residual Add and LayerNorm."""

    def __init__(self, dim=16, heads=2, hidden=48):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (_stubbed(nn.Linear(dim, dim))
                                          for _ in range(4))
        self.norm1 = nn.LayerNorm(dim)
        self.fc1 = _stubbed(nn.Linear(dim, hidden))
        self.fc2 = _stubbed(nn.Linear(hidden, dim))
        self.norm2 = nn.LayerNorm(dim)

    def forward(self, x):
        b, t, d = x.shape
        split = lambda y: y.reshape(b, t, self.heads, -1).transpose(1, 2)
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        att = torch.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5,
                            dim=-1)
        a = self.o((att @ v).transpose(1, 2).reshape(b, t, d))
        x = self.norm1(x + a)
        return self.norm2(x + self.fc2(F.gelu(self.fc1(x))))


def build(outdir, opset=13):
    torch.manual_seed(0)
    torch.backends.quantized.engine = "qnnpack"
    model = Block()
    model.qconfig = qat_qconfig()
    model.norm1.qconfig = model.norm2.qconfig = None
    model.train()
    tq.prepare_qat(model, inplace=True)
    with torch.no_grad():
        for _ in range(20):
            model(torch.randn(4, 6, 16))
    model.apply(tq.disable_observer)
    model.eval()
    x = torch.randn(2, 6, 16)
    with torch.no_grad():
        y = model(x)
        # The same layer without quantization: the scale of int8's error.
        model.apply(tq.disable_fake_quant)
        y_float = model(x)
        model.apply(tq.enable_fake_quant)
    # From opset 17 nn.LayerNorm exports as one LayerNormalization node.
    name = "torch_transformer%s.onnx" % ("" if opset == 13 else "_opset%d" % opset)
    path = os.path.join(outdir, name)
    torch.onnx.export(model, x, path, opset_version=opset, input_names=["input"],
                      output_names=["out"])
    if opset != 13:
        print("wrote", path)
        return  # the same layer and input: torch_transformer.npz holds its outputs
    # In the layout of onnx_cases.py's driver: input names, in_<name>.
    np.savez_compressed(os.path.join(outdir, "torch_transformer.npz"),
                        inputs=np.array(["input"]), outputs=np.array(["out"]),
                        in_input=x.numpy(), out_out=y.numpy(),
                        float_out=y_float.numpy())
    print("wrote", path)


def compare(npz, transcript):
    """The compiled layer against torch's fake-quant layer. torch simulates
    the int8 layers in float (f32 sums, then rounding to the grid); the
    compiled layer sums exactly in int32, and its float parts (Softmax, GELU,
    LayerNorm) round in another order. Where the two land on opposite sides
    of a rounding boundary, a code differs by one step, and attention and
    LayerNorm spread that over the tokens. The bar: the distance to torch's
    fake-quant outputs at most half the quantization error itself
    (fake-quant against the float layer), in max and in mean."""
    data = np.load(npz)
    want, ref = data["out_out"], data["float_out"]
    got = printed_tensors(transcript)[0]
    if got.size != want.size:
        print("FAIL: %d values, expected %d" % (got.size, want.size))
        return 1
    diff = np.abs(got.reshape(want.shape) - want)
    qerr = np.abs(want - ref)
    print("outputs: |ours - torch fake-quant| max %.2g mean %.2g; "
          "|fake-quant - float| max %.2g mean %.2g" %
          (diff.max(), diff.mean(), qerr.max(), qerr.mean()))
    ok = diff.max() <= qerr.max() / 2 and diff.mean() <= qerr.mean() / 2
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 13)
    elif sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: torch_transformer.py build OUTDIR [OPSET] | compare NPZ TRANSCRIPT")
