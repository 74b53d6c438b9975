#!/usr/bin/python3
"""A small residual network quantized by torch's eager post-training
quantization (torch.ao.quantization.convert: real int8 modules run by the
oneDNN engine, Debian torch's x86 backend), exported to ONNX, and the int8
logits torch's engine computes for a few inputs: the reference for
torch-ptq.test.

  torch_ptq.py build OUTDIR [resnet|mobile]
      writes OUTDIR/torch_ptq.onnx and OUTDIR/torch_ptq.npz (the mobile
      net: torch_ptq_mobile.onnx / .npz) (needs Debian's
      python3-torch 1.13; the checked-in files next to this script were
      written by it, so the test needs no torch)
  torch_ptq.py compare NPZ TRANSCRIPT
      compares a printMemref transcript of the compiled model with torch's
      logits (numpy only)

torch exports a converted model as QDQ: QuantizeLinear -> Cast (to the
codes' own type) -> DequantizeLinear around float ops, int8 weights and
int32 biases through DequantizeLinear (with ConstantOfShape zero points).
Weights are random (seeded), observers calibrated on random inputs.
"""
import os
import sys

import numpy as np

from transcript import printed_tensors

try:
    import torch
    import torch.nn as nn
    import torch.ao.quantization as tq
except ImportError:  # compare needs numpy only
    torch = None


class Net(nn.Module if torch else object):
    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(3, 8, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.conv2 = nn.Conv2d(8, 8, 3, padding=1, groups=8)  # depthwise
        self.relu2 = nn.ReLU()
        self.add = nn.quantized.FloatFunctional()
        self.pool = nn.MaxPool2d(2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(8, 10)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        a = self.relu1(self.conv1(self.quant(x)))
        b = self.relu2(self.conv2(a))
        y = self.gap(self.pool(self.add.add(a, b)))
        return self.dequant(self.fc(torch.flatten(y, 1)))


class MobileNet(nn.Module if torch else object):
    """Mobile-style ops: conv + BN + ReLU and depthwise conv + BN + ReLU
    (folded by fuse_modules), a pointwise conv, a residual add, Hardswish,
    LeakyReLU, MaxPool, nearest upsampling, Sigmoid, a channel concat,
    AdaptiveAvgPool2d(1), Linear."""

    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(16)
        self.relu1 = nn.ReLU()
        self.dw = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.bn2 = nn.BatchNorm2d(16)
        self.relu2 = nn.ReLU()
        self.pw = nn.Conv2d(16, 16, 1)
        self.add = nn.quantized.FloatFunctional()
        self.hswish = nn.Hardswish()
        self.lrelu = nn.LeakyReLU(0.1)
        self.up = nn.Upsample(scale_factor=2, mode="nearest")
        self.sigmoid = nn.Sigmoid()
        self.cat = nn.quantized.FloatFunctional()
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        y = self.relu1(self.bn1(self.conv1(self.quant(x))))
        z = self.pw(self.relu2(self.bn2(self.dw(y))))
        z = self.lrelu(self.hswish(self.add.add(z, y)))
        w = self.sigmoid(self.up(torch.nn.functional.max_pool2d(z, 2)))
        c = self.cat.cat([z, w], dim=1)
        return self.dequant(self.fc(torch.flatten(self.gap(c), 1)))


# net: (module, file name, modules to fuse, torch's int8 engine). The
# residual net runs on oneDNN (per-channel weights), the mobile net on
# QNNPACK (per-tensor weights, the engine torch uses on phones). Debian's
# x86 torch has both; the two engines themselves differ by one step on
# about 1% of the mobile net's logits (Hardswish, Sigmoid, LeakyReLU and
# the add are each engine's own kernels).
NETS = {
    "resnet": (Net, "torch_ptq", [["conv1", "relu1"], ["conv2", "relu2"]],
               "onednn"),
    "mobile": (MobileNet, "torch_ptq_mobile",
               [["conv1", "bn1", "relu1"], ["dw", "bn2", "relu2"]], "qnnpack"),
}


def build(outdir, net="resnet"):
    cls, name, fuse, engine = NETS[net]
    torch.manual_seed(0)
    torch.backends.quantized.engine = engine
    model = cls().eval()
    model.qconfig = tq.get_default_qconfig(engine)
    tq.fuse_modules(model, fuse, inplace=True)
    tq.prepare(model, inplace=True)
    with torch.no_grad():
        for _ in range(8):
            model(torch.randn(4, 3, 16, 16))
    tq.convert(model, inplace=True)
    x = torch.randn(16, 3, 16, 16)
    with torch.no_grad():
        y = model(x)
    path = os.path.join(outdir, name + ".onnx")
    torch.onnx.export(model, x, path, opset_version=13, input_names=["input"],
                      output_names=["logits"])
    scale, zp = model.fc.scale, model.fc.zero_point
    codes = np.round(y.numpy() / np.float32(scale)).astype(np.int64) + zp
    # In the layout of onnx_cases.py's driver: input names, in_<name>.
    np.savez_compressed(os.path.join(outdir, name + ".npz"),
                        inputs=np.array(["input"]), outputs=np.array(["logits"]),
                        in_input=x.numpy(), out_logits=codes,
                        scale_logits=np.float64(scale),
                        zp_logits=np.int64(zp))
    print("wrote", path)


def compare(npz, transcript, min_equal=0.99):
    """The compiled model's logits against torch's int8 engine, in output
    steps. The ONNX graph differs from torch's modules in one place: it
    holds the bias as int32 codes at S_x * S_w, where torch's modules keep
    it in float, so a logit near a rounding tie can land one step away. The bar: at most one step anywhere, at least
    `min_equal` equal (99%; the QNNPACK net passes 95%, see
    torch-ptq-mobile.test), and torch's class for every input."""
    data = np.load(npz)
    want = data["out_logits"]
    s, z = float(data["scale_logits"]), int(data["zp_logits"])
    got = printed_tensors(transcript)[0]
    if got.size != want.size:
        print("FAIL: %d values, expected %d" % (got.size, want.size))
        return 1
    got = (np.round(got / s) + z).reshape(want.shape)
    steps = np.abs(got - want)
    equal = float((steps == 0).mean())
    same_class = float((got.argmax(1) == want.argmax(1)).mean())
    print("logits: %.1f%% equal to torch's, max %d step(s), torch's class "
          "for %.0f%% of inputs" % (100 * equal, steps.max(), 100 * same_class))
    ok = steps.max() <= 1 and equal >= min_equal and same_class == 1.0
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "build":
        build(sys.argv[2], sys.argv[3] if len(sys.argv) > 3 else "resnet")
    elif sys.argv[1] == "compare":
        sys.exit(compare(sys.argv[2], sys.argv[3],
                         float(sys.argv[4]) if len(sys.argv) > 4 else 0.99))
    else:
        sys.exit("usage: torch_ptq.py build OUTDIR [resnet|mobile] | compare NPZ TRANSCRIPT [MIN_EQUAL]")
