#!/usr/bin/env python3
"""Prints a module whose @chain runs N quantize / dequantize pairs (N from the
command line) on a 4x8 tensor, each pair on another grid, and a @main that
calls it on fixed values and prints the final codes:
quant-translate-long-function.test's input."""
import sys

pairs = int(sys.argv[1])
grids = [(0.1, 3), (0.07, -2), (0.13, 0), (0.05, 7), (0.11, -5)]
t = "tensor<4x8xf32>"
lines = ["func.func private @printMemrefI8(memref<*xi8>)",
         "func.func @chain(%%a0: %s) -> %s {" % (t, t)]
for i in range(pairs):
    scale, zero_point = grids[i % len(grids)]
    q = "tensor<4x8x!quant.uniform<i8:f32, %g:%d>>" % (scale, zero_point)
    lines.append("  %%q%d = qnt.quantize %%a%d : %s -> %s" % (i, i, t, q))
    lines.append("  %%a%d = qnt.dequantize %%q%d : %s -> %s" % (i + 1, i, q, t))
lines.append("  return %%a%d : %s" % (pairs, t))
lines.append("}")
values = ", ".join(
    "[%s]" % ", ".join("%.3f" % ((r * 8 + c) * 0.37 - 6.1) for c in range(8))
    for r in range(4))
out = "tensor<4x8x!quant.uniform<i8:f32, 0.05>>"
lines += [
    "func.func @main() {",
    "  %%x = arith.constant dense<[%s]> : %s" % (values, t),
    "  %%y = call @chain(%%x) : (%s) -> %s" % (t, t),
    "  %%q = qnt.quantize %%y : %s -> %s" % (t, out),
    "  %%c = quant.scast %%q : %s to tensor<4x8xi8>" % out,
    "  %m = bufferization.to_buffer %c : tensor<4x8xi8> to memref<4x8xi8>",
    "  %u = memref.cast %m : memref<4x8xi8> to memref<*xi8>",
    "  call @printMemrefI8(%u) : (memref<*xi8>) -> ()",
    "  return",
    "}",
]
print("\n".join(lines))
