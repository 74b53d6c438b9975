#!/usr/bin/python3
"""A small convolutional network with the float activations torch's eager
QAT leaves between a DeQuantStub and a QuantStub (SiLU, Hardswish, nearest
upsampling, Softmax), exported as QDQ ONNX, and torch's fake-quant outputs
for a few inputs: the reference for torch-float-ops.test.

  torch_float_ops.py build OUTDIR
      writes OUTDIR/torch_float_ops.onnx and OUTDIR/torch_float_ops.npz
      (needs Debian's python3-torch 1.13; the checked-in files next to this
      script were written by it, so the test needs no torch)
  torch_float_ops.py compare NPZ TRANSCRIPT
      compares a printMemref transcript of the compiled model with torch's
      probabilities (numpy only)

Weights are random (seeded), observers calibrated on random inputs.
"""
import os
import sys


import numpy as np

from transcript import printed_tensors

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    import torch.ao.quantization as tq
except ImportError:  # compare needs numpy only
    torch = None


class Net(nn.Module if torch else object):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.dq1 = tq.DeQuantStub()
        self.q1 = tq.QuantStub()
        self.conv2 = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.dq2 = tq.DeQuantStub()
        self.q2 = tq.QuantStub()
        self.conv3 = nn.Conv2d(8, 4, 1)
        self.dq3 = tq.DeQuantStub()

    def forward(self, x):
        x = self.conv1(self.quant(x))
        x = self.q1(F.silu(self.dq1(x)))                   # Sigmoid, Mul
        x = self.conv2(x)
        x = F.interpolate(F.hardswish(self.dq2(x)), scale_factor=2,
                          mode="nearest")                  # HardSigmoid, Mul, Resize
        x = self.conv3(self.q2(x))
        return F.softmax(self.dq3(x), dim=1)                # Softmax over channels


def qat_qconfig():
    """Eager QAT: u8 per-tensor activations, s8 symmetric per-channel
    weights (axis 0), moving-average observers."""
    act = tq.FakeQuantize.with_args(
        observer=tq.MovingAverageMinMaxObserver, quant_min=0, quant_max=255,
        dtype=torch.quint8, qscheme=torch.per_tensor_affine)
    weight = tq.FakeQuantize.with_args(
        observer=tq.MovingAveragePerChannelMinMaxObserver, quant_min=-128,
        quant_max=127, dtype=torch.qint8, qscheme=torch.per_channel_symmetric,
        ch_axis=0)
    return tq.QConfig(activation=act, weight=weight)


def build(outdir):
    torch.manual_seed(0)
    torch.backends.quantized.engine = "qnnpack"
    model = Net()
    model.qconfig = qat_qconfig()
    model.train()
    tq.prepare_qat(model, inplace=True)
    with torch.no_grad():
        for _ in range(20):
            model(torch.rand(8, 1, 8, 8) * 2 - 1)
    model.apply(tq.disable_observer)
    model.eval()
    x = torch.rand(4, 1, 8, 8) * 2 - 1
    with torch.no_grad():
        y = model(x)
    path = os.path.join(outdir, "torch_float_ops.onnx")
    torch.onnx.export(model, x, path, opset_version=13, input_names=["input"],
                      output_names=["probs"])
    # In the layout of onnx_cases.py's driver: input names, in_<name>.
    np.savez_compressed(os.path.join(outdir, "torch_float_ops.npz"),
                        inputs=np.array(["input"]), outputs=np.array(["probs"]),
                        in_input=x.numpy(), out_probs=y.numpy())
    print("wrote", path)


def compare(npz, transcript):
    """The compiled model against torch's fake-quant model. Both quantize
    the same way except where a requantization lands on a rounding tie
    (integer arithmetic here, float in torch), so a few logits may differ by
    a step: the bar is torch's class everywhere, every probability within
    0.005 and at least 80% of them equal to f32 precision (1e-6)."""
    want = np.load(npz)["out_probs"]
    got = printed_tensors(transcript)[0]
    if got.size != want.size:
        print("FAIL: %d values, expected %d" % (got.size, want.size))
        return 1
    got = got.reshape(want.shape)
    diff = np.abs(got - want)
    same_class = float((got.argmax(1) == want.argmax(1)).mean())
    close = float((diff <= 1e-6).mean())
    print("probabilities: max |ours - torch| %.2g, %.1f%% within 1e-6, "
          "torch's class at %.1f%% of pixels" % (diff.max(), 100 * close,
                                                 100 * same_class))
    ok = same_class == 1.0 and diff.max() <= 0.005 and close >= 0.8
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2])
    elif sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3]))
    else:
        sys.exit("usage: torch_float_ops.py build OUTDIR | compare NPZ TRANSCRIPT")
