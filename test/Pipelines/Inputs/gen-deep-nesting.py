#!/usr/bin/env python3
"""Prints a function whose quantize / dequantize sits inside N nested
scf.if regions (N from the command line): deep-nesting.test's input."""
import sys

depth = int(sys.argv[1])
t = "tensor<4x8xf32>"
q = "tensor<4x8x!quant.uniform<i8:f32, 0.1:3>>"
lines = ["func.func @main(%%a: %s, %%c: i1) -> %s {" % (t, t)]
for i in range(depth):
    lines.append("%%r%d = scf.if %%c -> (%s) {" % (i, t))
lines.append("  %%q = qnt.quantize %%a : %s -> %s" % (t, q))
lines.append("  %%d = qnt.dequantize %%q : %s -> %s" % (q, t))
lines.append("  scf.yield %%d : %s" % t)
for i in reversed(range(depth)):
    lines.append("} else { scf.yield %%a : %s }" % t)
    if i > 0:
        lines.append("scf.yield %%r%d : %s" % (i, t))
lines.append("return %%r0 : %s" % t)
lines.append("}")
print("\n".join(lines))
