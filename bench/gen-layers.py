#!/usr/bin/env python3
"""Writes an N-layer int8 conv network (conv2d 3x3 + requantize per layer,
1x8x8x16 activations, dense pseudo-random weights) for the compile-time
row of the benchmark: --qnt-to-llvm should take time linear in N."""
import argparse
import random

X = "!quant.uniform<i8:f32, 0.05:3>"
W = "!quant.uniform<i8<-127:127>:f32, 0.02>"
A = "!quant.uniform<i32:f32, 0.001>"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("layers", type=int)
    args = parser.parse_args()
    rng = random.Random(args.layers)
    t = f"tensor<1x8x8x16x{X}>"
    lines = [f"func.func @net(%x0: {t}) -> {t} {{"]
    for i in range(args.layers):
        codes = ", ".join(str(rng.randint(-127, 127)) for _ in range(3 * 3 * 16 * 16))
        lines += [
            f"  %c{i} = arith.constant dense<[{codes}]> : tensor<2304xi8>",
            f"  %r{i} = tensor.expand_shape %c{i} [[0, 1, 2, 3]] output_shape [3, 3, 16, 16]"
            f" : tensor<2304xi8> into tensor<3x3x16x16xi8>",
            f"  %w{i} = quant.scast %r{i} : tensor<3x3x16x16xi8> to tensor<3x3x16x16x{W}>",
            f"  %a{i} = qnt.conv2d %x{i}, %w{i} {{padding = array<i64: 1, 1, 1, 1>}}"
            f" : {t}, tensor<3x3x16x16x{W}> -> tensor<1x8x8x16x{A}>",
            f"  %x{i + 1} = qnt.requantize %a{i} : tensor<1x8x8x16x{A}> -> {t}",
        ]
    lines += [f"  return %x{args.layers} : {t}", "}"]
    print("\n".join(lines))


if __name__ == "__main__":
    main()
