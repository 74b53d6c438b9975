#!/usr/bin/env python3
"""Trains three small networks on scikit-learn's 8x8 digits and exports them
as QDQ ONNX models.

Needs Debian's python3-torch (1.13), python3-sklearn, python3-onnx and
python3-numpy; nothing is downloaded (the digits ship with scikit-learn).
Torch is needed only to regenerate the checked-in files:

  digits_cnn.onnx     plain CNN, per-channel int8 weights, u8 activations
  digits_resnet.onnx  residual net: depthwise conv, add, max pool, global
                      average pool, per-channel int8 weights
  digits_mlp.onnx     MLP with signed (i8) activations, Hardtanh (Clip),
                      per-tensor int8 weights
  digits.json         torch float and fake-quant accuracies on the held-out set
  digits_heldout.npz  the held-out set (raw 0..16 pixels, labels) and torch's
                      fake-quant logits per model, so evaluation needs no torch

Everything is seeded; the split is sklearn's train_test_split with
test_size=0.2, random_state=0, stratified.

Usage: /usr/bin/python3 examples/models/train_digits.py [OUTDIR]
"""
import json
import os
import sys
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.ao.quantization as tq
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

SEED = 0
OPSET = 13  # per-channel QuantizeLinear / DequantizeLinear need 13


def load_split():
    digits = load_digits()
    pixels = digits.images.astype(np.uint8)  # 0..16
    return train_test_split(pixels, digits.target.astype(np.int64),
                            test_size=0.2, random_state=SEED,
                            stratify=digits.target)


def to_input(pixels):
    """Raw 0..16 pixels -> float NCHW input in [0, 1]."""
    return torch.from_numpy(pixels.astype(np.float32) / 16.0).unsqueeze(1)


def qconfig(signed_act, per_channel):
    """FakeQuantize + moving-average observers: these export as Q/DQ pairs
    (the default QAT qconfig's fused observer does not)."""
    if signed_act:
        act = tq.FakeQuantize.with_args(
            observer=tq.MovingAverageMinMaxObserver, quant_min=-128,
            quant_max=127, dtype=torch.qint8, qscheme=torch.per_tensor_affine)
    else:
        act = tq.FakeQuantize.with_args(
            observer=tq.MovingAverageMinMaxObserver, quant_min=0,
            quant_max=255, dtype=torch.quint8, qscheme=torch.per_tensor_affine)
    if per_channel:
        weight = tq.FakeQuantize.with_args(
            observer=tq.MovingAveragePerChannelMinMaxObserver, quant_min=-128,
            quant_max=127, dtype=torch.qint8,
            qscheme=torch.per_channel_symmetric, ch_axis=0)
    else:
        weight = tq.FakeQuantize.with_args(
            observer=tq.MovingAverageMinMaxObserver, quant_min=-128,
            quant_max=127, dtype=torch.qint8,
            qscheme=torch.per_tensor_symmetric)
    return tq.QConfig(activation=act, weight=weight)


class CNN(nn.Module):
    """conv3x3(8)+relu -> maxpool -> conv3x3(16)+relu -> maxpool -> flatten
    -> linear(10)."""

    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.conv1 = nn.Conv2d(1, 8, 3, padding=1)
        self.relu1 = nn.ReLU()
        self.pool1 = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(8, 16, 3, padding=1)
        self.relu2 = nn.ReLU()
        self.pool2 = nn.MaxPool2d(2)
        self.fc = nn.Linear(16 * 2 * 2, 10)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = self.pool1(self.relu1(self.conv1(x)))
        x = self.pool2(self.relu2(self.conv2(x)))
        x = torch.flatten(x, 1)
        return self.dequant(self.fc(x))

    def fuse(self):
        tq.fuse_modules(self, [["conv1", "relu1"], ["conv2", "relu2"]],
                        inplace=True)


class ResNet(nn.Module):
    """conv3x3(16)+relu -> [depthwise3x3+relu -> conv1x1] + skip, relu ->
    maxpool -> conv3x3(32)+relu -> global average pool -> linear(10)."""

    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.stem = nn.Conv2d(1, 16, 3, padding=1)
        self.stem_relu = nn.ReLU()
        self.dw = nn.Conv2d(16, 16, 3, padding=1, groups=16)
        self.dw_relu = nn.ReLU()
        self.pw = nn.Conv2d(16, 16, 1)
        self.skip = nn.quantized.FloatFunctional()
        self.pool = nn.MaxPool2d(2)
        self.conv = nn.Conv2d(16, 32, 3, padding=1)
        self.conv_relu = nn.ReLU()
        self.gap = nn.AdaptiveAvgPool2d(1)
        # The pooled activations are fake-quantized too, so that the whole
        # network runs on integers.
        self.gap_quant = tq.QuantStub()
        self.fc = nn.Linear(32, 10)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = self.stem_relu(self.stem(x))
        y = self.pw(self.dw_relu(self.dw(x)))
        x = self.skip.add_relu(x, y)
        x = self.pool(x)
        x = self.conv_relu(self.conv(x))
        x = self.gap_quant(self.gap(x))
        x = torch.flatten(x, 1)
        return self.dequant(self.fc(x))

    def fuse(self):
        tq.fuse_modules(self, [["stem", "stem_relu"], ["dw", "dw_relu"],
                               ["conv", "conv_relu"]], inplace=True)


class MLP(nn.Module):
    """linear(48) -> hardtanh -> linear(32) -> hardtanh -> linear(10), on
    signed int8 activations."""

    def __init__(self):
        super().__init__()
        self.quant = tq.QuantStub()
        self.fc1 = nn.Linear(64, 48)
        self.act1 = nn.Hardtanh()
        # Eager-mode QAT observes no Hardtanh output: these stubs give the
        # clipped activations their own fake quantization (Clip -> Q).
        self.act1_quant = tq.QuantStub()
        self.fc2 = nn.Linear(48, 32)
        self.act2 = nn.Hardtanh()
        self.act2_quant = tq.QuantStub()
        self.fc3 = nn.Linear(32, 10)
        self.dequant = tq.DeQuantStub()

    def forward(self, x):
        x = torch.flatten(self.quant(x), 1)
        x = self.act1_quant(self.act1(self.fc1(x)))
        x = self.act2_quant(self.act2(self.fc2(x)))
        return self.dequant(self.fc3(x))

    def fuse(self):
        pass


MODELS = {
    "cnn": (CNN, dict(signed_act=False, per_channel=True)),
    "resnet": (ResNet, dict(signed_act=False, per_channel=True)),
    "mlp": (MLP, dict(signed_act=True, per_channel=False)),
}


def train(model, x, y, epochs, lr):
    opt = torch.optim.Adam(model.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    gen = torch.Generator().manual_seed(SEED)
    for _ in range(epochs):
        model.train()
        perm = torch.randperm(len(x), generator=gen)
        for i in range(0, len(x), 32):
            idx = perm[i:i + 32]
            opt.zero_grad()
            loss_fn(model(x[idx]), y[idx]).backward()
            opt.step()


def accuracy(logits, y):
    return float((logits.argmax(1) == y).float().mean())


def main():
    warnings.filterwarnings("ignore")
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    torch.manual_seed(SEED)
    torch.backends.quantized.engine = "qnnpack"
    px_train, px_test, y_train, y_test = load_split()
    x_train, x_test = to_input(px_train), to_input(px_test)
    t_train, t_test = torch.from_numpy(y_train), torch.from_numpy(y_test)

    report = {"split": {"test_size": 0.2, "random_state": SEED,
                        "stratify": True, "n_train": len(y_train),
                        "n_test": len(y_test)},
              "input": "pixels / 16.0, NCHW float32 [N, 1, 8, 8]",
              "models": {}}
    arrays = {"pixels": px_test, "labels": y_test}
    for name, (cls, qc) in MODELS.items():
        torch.manual_seed(SEED)
        model = cls()
        train(model, x_train, t_train, epochs=30, lr=3e-3)
        model.eval()
        with torch.no_grad():
            float_acc = accuracy(model(x_test), t_test)
        model.fuse()
        model.qconfig = qconfig(**qc)
        model.train()
        tq.prepare_qat(model, inplace=True)
        train(model, x_train, t_train, epochs=8, lr=5e-4)
        model.apply(tq.disable_observer)
        model.eval()
        with torch.no_grad():
            fq_logits = model(x_test)
        fq_acc = accuracy(fq_logits, t_test)
        path = os.path.join(outdir, "digits_%s.onnx" % name)
        torch.onnx.export(model, x_test[:1], path, opset_version=OPSET,
                          input_names=["input"], output_names=["logits"],
                          dynamic_axes={"input": {0: "batch"},
                                        "logits": {0: "batch"}})
        report["models"][name] = {"file": os.path.basename(path),
                                  "float_accuracy": float_acc,
                                  "fake_quant_accuracy": fq_acc}
        arrays["fq_logits_" + name] = fq_logits.numpy()
        print("%-7s float %.4f  fake-quant %.4f  -> %s" %
              (name, float_acc, fq_acc, path))
    with open(os.path.join(outdir, "digits.json"), "w") as f:
        json.dump(report, f, indent=2, sort_keys=True)
        f.write("\n")
    np.savez_compressed(os.path.join(outdir, "digits_heldout.npz"), **arrays)


if __name__ == "__main__":
    main()
