#!/usr/bin/python3
"""A transformer feed-forward block with its LayerNorm, quantized by torch's
eager QAT (the two Linear layers int8, GELU and LayerNorm in float between
a DeQuantStub and a QuantStub), exported to ONNX at opset 13 on a 3-D
(batch x tokens x features) input, and torch's fake-quant outputs for it:
the reference for torch-transformer.test.

  torch_transformer.py build OUTDIR
      writes OUTDIR/torch_transformer.onnx and .npz (needs Debian's
      python3-torch 1.13; the checked-in files next to this script were
      written by it, so the test needs no torch)
  torch_transformer.py compare NPZ TRANSCRIPT
      compares a printMemref transcript of the compiled model with torch's
      outputs (numpy only)

torch exports the Linear layers on 3-D inputs as MatMul + Add, GELU as
x * 0.5 * (1 + Erf(x / sqrt 2)) and LayerNorm (before opset 17) as
ReduceMean, Sub, Pow, ReduceMean, Add, Sqrt, Div, Mul, Add.
Weights are random (seeded), observers calibrated on random inputs.
"""
import os
import re
import sys

import numpy as np

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    import torch.ao.quantization as tq
except ImportError:  # compare needs numpy only
    torch = None


class Block(nn.Module if torch else object):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.fc1 = nn.Linear(16, 48)
        self.dq1 = tq.DeQuantStub()
        self.q2 = tq.QuantStub()
        self.fc2 = nn.Linear(48, 16)
        self.dq2 = tq.DeQuantStub()
        self.norm = nn.LayerNorm(16)

    def forward(self, x):
        h = F.gelu(self.dq1(self.fc1(self.quant(x))))
        y = self.dq2(self.fc2(self.q2(h)))
        return self.norm(x + y)


def build(outdir):
    torch.manual_seed(0)
    torch.backends.quantized.engine = "qnnpack"
    model = Block()
    act = tq.FakeQuantize.with_args(
        observer=tq.MovingAverageMinMaxObserver, quant_min=0, quant_max=255,
        dtype=torch.quint8, qscheme=torch.per_tensor_affine)
    weight = tq.FakeQuantize.with_args(
        observer=tq.MovingAveragePerChannelMinMaxObserver, quant_min=-128,
        quant_max=127, dtype=torch.qint8, qscheme=torch.per_channel_symmetric,
        ch_axis=0)
    model.qconfig = tq.QConfig(activation=act, weight=weight)
    model.norm.qconfig = None
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
    path = os.path.join(outdir, "torch_transformer.onnx")
    torch.onnx.export(model, x, path, opset_version=13, input_names=["input"],
                      output_names=["out"])
    # In the layout of onnx_cases.py's driver: input names, in_<name>.
    np.savez_compressed(os.path.join(outdir, "torch_transformer.npz"),
                        inputs=np.array(["input"]), outputs=np.array(["out"]),
                        in_input=x.numpy(), out_out=y.numpy())
    print("wrote", path)


def compare(npz, transcript):
    """The compiled block against torch's fake-quant block, token by token.
    torch simulates the int8 layers in float (f32 sums, then rounding to
    the grid); the compiled block sums exactly in int32. Where the two land
    on opposite sides of a rounding boundary, a code of the hidden layer
    differs by one step, and the LayerNorm spreads that over the token's 16
    outputs (a few 1e-3); every other token agrees to f32 precision. The
    bar: every output within 0.02 of torch's, and at least half of the
    tokens equal to 1e-5."""
    want = np.load(npz)["out_out"]
    block = open(transcript).read().split("Unranked Memref")[1]
    got = np.array([float(v) for v in re.findall(
        r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)",
        block.partition("data =")[2])])
    if got.size != want.size:
        print("FAIL: %d values, expected %d" % (got.size, want.size))
        return 1
    diff = np.abs(got.reshape(want.shape) - want)
    tokens = diff.reshape(-1, want.shape[-1]).max(axis=1)
    same = int((tokens <= 1e-5).sum())
    print("outputs: max |ours - torch| %.2g; %d of %d tokens equal to 1e-5" %
          (diff.max(), same, tokens.size))
    ok = diff.max() <= 0.02 and 2 * same >= tokens.size
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    elif sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: torch_transformer.py build OUTDIR | compare NPZ TRANSCRIPT")
