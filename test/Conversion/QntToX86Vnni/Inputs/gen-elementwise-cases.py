#!/usr/bin/env python3
"""Matmul + elementwise linalg.generic cases for the VNNI kernel's
elementwise epilogue (lib/Conversion/QntToX86Vnni/FusedElementwise.h).

Every case is a `qnt.int_matmul` whose only user is an all-parallel
`linalg.generic`, which qnt-x86-vnni applies in registers before the
kernel stores. The shapes hit every remainder of the microkernel (M not a
multiple of the row tile, N not a multiple of 16, K padded, K long enough
for two and three K blocks, rows outside columns); the bodies cover each
kind of operand access (per element, per row as a vector or an M x 1
tensor, per column as a vector or a 1 x N tensor, one value as a 1 x 1
tensor, a scalar input and a value from above), integer and float bodies,
i32, f32 and i8 results, and scales holding NaN, +-Inf, -0.0 and
subnormals. The golden values come from the generic lowering of the same
module (qnt-to-linalg before --qnt-to-llvm: no kernel, the generic as a
loop).

The module's @main prints every result: f32 as its bits (printMemrefI32).
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "..", "..", "utils"))
from mlir_literals import shape_str, nested, f32_bits  # noqa: E402

MATMULS = [  # M, K, N
    (1, 4, 1), (3, 5, 7), (7, 13, 70), (9, 64, 130), (5, 600, 20),
    (17, 257, 100), (2, 1030, 48), (12, 3, 1), (6, 40, 64), (10, 31, 17),
    (4, 520, 64), (3, 2100, 20), (70, 96, 40), (66, 36, 256), (33, 768, 96),
]
BODIES = ["dequant_gelu", "per_element", "integer", "codes", "scalars",
          "unit_dims"]
SPECIAL = [float("nan"), float("inf"), float("-inf"), -0.0, 1e-40, 3e38]


class Module:
    def __init__(self):
        self.funcs, self.main, self.counter = [], [], 0

    def fresh(self):
        self.counter += 1
        return "%%v%d" % self.counter

    def ints(self, values, shape, elem):
        name = self.fresh()
        self.main.append("  %s = arith.constant dense<%s> : tensor<%sx%s>"
                         % (name, nested(values, shape), shape_str(shape), elem))
        return name

    def floats(self, values, shape):
        """An f32 tensor from exact bit patterns (NaN, Inf, subnormals)."""
        raw = self.ints([f32_bits(v) for v in values], shape, "i32")
        name = self.fresh()
        s = shape_str(shape)
        self.main.append("  %s = arith.bitcast %s : tensor<%sxi32> to tensor<%sxf32>"
                         % (name, raw, s, s))
        return name

    def print(self, value, shape, elem):
        s = shape_str(shape)
        if elem == "f32":
            bits = self.fresh()
            self.main.append("  %s = arith.bitcast %s : tensor<%sxf32> to tensor<%sxi32>"
                             % (bits, value, s, s))
            value, elem = bits, "i32"
        m, u = self.fresh(), self.fresh()
        self.main.append("  %s = bufferization.to_buffer %s : tensor<%sx%s> to memref<%sx%s>"
                         % (m, value, s, elem, s, elem))
        self.main.append("  %s = memref.cast %s : memref<%sx%s> to memref<*x%s>"
                         % (u, m, s, elem, elem))
        fn = {"i8": "printMemrefI8", "i32": "printMemrefI32"}[elem]
        self.main.append("  call @%s(%s) : (memref<*x%s>) -> ()" % (fn, u, elem))

    def text(self):
        head = ["func.func private @printMemrefI8(memref<*xi8>)",
                "func.func private @printMemrefI32(memref<*xi32>)"]
        return "\n".join(head + [""] + self.funcs + ["func.func @main() {"]
                         + self.main + ["  return", "}", ""])


def scales(rng, count, special):
    values = [rng.uniform(1e-4, 2e-2) for _ in range(count)]
    if special:
        for v in SPECIAL:
            if rng.random() < 0.5:
                values[rng.randrange(count)] = v
    return values


# The tanh-form GELU of utils/gen-w8a8-mlp.py, on %a (f32): the body of the
# W8A8 block, divide, compare and select included.
GELU = """
    %a3 = arith.mulf %a, %a : f32
    %a3b = arith.mulf %a3, %a : f32
    %c0 = arith.constant 4.471500e-02 : f32
    %t0 = arith.mulf %a3b, %c0 : f32
    %t1 = arith.addf %a, %t0 : f32
    %c1 = arith.constant 0.797884583 : f32
    %u = arith.mulf %t1, %c1 : f32
    %hi = arith.constant 7.99881172 : f32
    %lo = arith.constant -7.99881172 : f32
    %uc = arith.minimumf %u, %hi : f32
    %ud = arith.maximumf %uc, %lo : f32
    %u2 = arith.mulf %ud, %ud : f32
    %p1 = arith.constant 4.89352455e-03 : f32
    %p2 = arith.constant 6.37261954e-04 : f32
    %pa = arith.mulf %u2, %p2 : f32
    %pb = arith.addf %pa, %p1 : f32
    %p = arith.mulf %ud, %pb : f32
    %q1 = arith.constant 4.89352504e-03 : f32
    %q2 = arith.constant 2.26843474e-03 : f32
    %qa = arith.mulf %u2, %q2 : f32
    %q = arith.addf %qa, %q1 : f32
    %ra = arith.divf %p, %q : f32
    %abs = math.absf %u : f32
    %tiny = arith.constant 4.000000e-04 : f32
    %small = arith.cmpf olt, %abs, %tiny : f32
    %th = arith.select %small, %u, %ra : f32
    %half = arith.constant 5.000000e-01 : f32
    %one = arith.constant 1.000000e+00 : f32
    %g0 = arith.mulf %a, %half : f32
    %g1 = arith.addf %th, %one : f32
    %g = arith.mulf %g0, %g1 : f32"""


def gen_case(rng, mod, index, m, k, n, body):
    name = "case_%d" % index
    x_unsigned = rng.random() < 0.5
    zx = rng.choice([0, 0, rng.randint(0, 255) if x_unsigned else rng.randint(-128, 127)])
    wv = [rng.randint(-128, 127) for _ in range(k * n)]
    bias = [rng.randint(-5000, 5000) for _ in range(n)]
    mm = ["  %%fw = arith.constant dense<%s> : tensor<%dx%dxi8>" % (nested(wv, [k, n]), k, n),
          "  %%fb = arith.constant dense<%s> : tensor<%dxi32>" % (nested(bias, [n]), n),
          "  %%acc = qnt.int_matmul %%x, %%fw, %%fb {input_zero_point = %d : i32, "
          "weight_zero_points = array<i32: 0>%s} : tensor<%dx%dxi8>, tensor<%dx%dxi8>, "
          "tensor<%dxi32> -> tensor<%dx%dxi32>"
          % (zx, ", x_unsigned" if x_unsigned else "", m, k, k, n, n, m, n)]
    ident = "affine_map<(d0, d1) -> (d0, d1)>"
    row, col = "affine_map<(d0, d1) -> (d0)>", "affine_map<(d0, d1) -> (d1)>"
    special = rng.random() < 0.6
    args, call, out = ["%%x: tensor<%dx%dxi8>" % (m, k)], [], "f32"
    xv = [rng.randint(0, 255) if x_unsigned else rng.randint(-128, 127)
          for _ in range(m * k)]
    call.append(mod.ints(xv, [m, k], "i8"))
    if body == "dequant_gelu":
        # (f32(acc) - z) * (rs[m] * cs[n]), then GELU.
        cs = scales(rng, n, False)
        args.append("%%rs: tensor<%dxf32>" % m)
        call.append(mod.floats(scales(rng, m, special), [m]))
        mm.append("  %%fcs = arith.constant dense<%s> : tensor<%dxf32>"
                  % (nested(["%.9e" % v for v in cs], [n]), n))
        mm.append("  %fz = arith.constant dense<0.0> : tensor<1x1xf32>")
        maps = [ident, row, col, "affine_map<(d0, d1) -> (0, 0)>", ident]
        ins = "%%acc, %%rs, %%fcs, %%fz : tensor<%dx%dxi32>, tensor<%dxf32>, tensor<%dxf32>, tensor<1x1xf32>" % (m, n, m, n)
        block = "^bb0(%in: i32, %r: f32, %c: f32, %zz: f32, %o: f32):"
        text = """
    %s = arith.mulf %r, %c : f32
    %f = arith.sitofp %in : i32 to f32
    %d = arith.subf %f, %zz : f32
    %a = arith.mulf %d, %s : f32""" + GELU + "\n    linalg.yield %g : f32"
    elif body == "per_element":
        # acc * e[m, n] + cs[n], e with specials.
        args.append("%%e: tensor<%dx%dxf32>" % (m, n))
        call.append(mod.floats(scales(rng, m * n, special), [m, n]))
        cs = scales(rng, n, False)
        mm.append("  %%fcs = arith.constant dense<%s> : tensor<%dxf32>"
                  % (nested(["%.9e" % v for v in cs], [n]), n))
        maps = [ident, ident, col, ident]
        ins = "%%acc, %%e, %%fcs : tensor<%dx%dxi32>, tensor<%dx%dxf32>, tensor<%dxf32>" % (m, n, m, n, n)
        block = "^bb0(%in: i32, %ee: f32, %c: f32, %o: f32):"
        text = """
    %f = arith.sitofp %in : i32 to f32
    %p = arith.mulf %f, %ee : f32
    %s = arith.addf %p, %c : f32
    linalg.yield %s : f32"""
    elif body == "integer":
        # i32 -> i32: ((acc + off[n]) * 3 >> sh[m]) clamped; wraps as i32.
        out = "i32"
        args.append("%%sh: tensor<%dxi32>" % m)
        call.append(mod.ints([rng.randint(0, 12) for _ in range(m)], [m], "i32"))
        off = [rng.randint(-2**31, 2**31 - 1) if rng.random() < 0.2 else
               rng.randint(-1000, 1000) for _ in range(n)]
        mm.append("  %%foff = arith.constant dense<%s> : tensor<%dxi32>" % (nested(off, [n]), n))
        maps = [ident, row, col, ident]
        ins = "%%acc, %%sh, %%foff : tensor<%dx%dxi32>, tensor<%dxi32>, tensor<%dxi32>" % (m, n, m, n)
        block = "^bb0(%in: i32, %s: i32, %c: i32, %o: i32):"
        text = """
    %a = arith.addi %in, %c : i32
    %three = arith.constant 3 : i32
    %p = arith.muli %a, %three : i32
    %q = arith.shrsi %p, %s : i32
    %lo = arith.constant -70000 : i32
    %hi = arith.constant 70000 : i32
    %r = arith.maxsi %q, %lo : i32
    %t = arith.minsi %r, %hi : i32
    linalg.yield %t : i32"""
    elif body == "codes":
        # f32 scale, round half to even, clamp, i8 codes.
        out = "i8"
        args.append("%%rs: tensor<%dxf32>" % m)
        call.append(mod.floats(scales(rng, m, False), [m]))
        maps = [ident, row, ident]
        ins = "%%acc, %%rs : tensor<%dx%dxi32>, tensor<%dxf32>" % (m, n, m)
        block = "^bb0(%in: i32, %r: f32, %o: i8):"
        text = """
    %f = arith.sitofp %in : i32 to f32
    %a = arith.mulf %f, %r : f32
    %e = math.roundeven %a : f32
    %lo = arith.constant -128.0 : f32
    %hi = arith.constant 127.0 : f32
    %c = arith.maximumf %e, %lo : f32
    %d = arith.minimumf %c, %hi : f32
    %i = arith.fptosi %d : f32 to i32
    %t = arith.trunci %i : i32 to i8
    linalg.yield %t : i8"""
    elif body == "scalars":
        # A scalar input and a value from above.
        args += ["%s: f32", "%t: f32"]
        call.append(mod.fresh())
        mod.main.append("  %s = arith.constant %.9e : f32" % (call[-1], rng.uniform(1e-3, 1e-1)))
        call.append(mod.fresh())
        mod.main.append("  %s = arith.constant %s : f32"
                        % (call[-1], rng.choice(["0x7FC00000", "0x7F800000", "-1.5"])
                           if special else "2.5"))
        maps = [ident, "affine_map<(d0, d1) -> ()>", ident]
        ins = "%%acc, %%s : tensor<%dx%dxi32>, f32" % (m, n)
        block = "^bb0(%in: i32, %ss: f32, %o: f32):"
        text = """
    %f = arith.sitofp %in : i32 to f32
    %a = arith.mulf %f, %ss : f32
    %b = arith.subf %a, %t : f32
    linalg.yield %b : f32"""
    else:  # unit_dims: M x 1 and 1 x N tensors
        args += ["%%r: tensor<%dx1xf32>" % m]
        call.append(mod.floats(scales(rng, m, special), [m, 1]))
        cs = scales(rng, n, False)
        mm.append("  %%fcs = arith.constant dense<%s> : tensor<1x%dxf32>"
                  % (nested(["%.9e" % v for v in cs], [1, n]), n))
        maps = [ident, "affine_map<(d0, d1) -> (d0, 0)>",
                "affine_map<(d0, d1) -> (0, d1)>", ident]
        ins = "%%acc, %%r, %%fcs : tensor<%dx%dxi32>, tensor<%dx1xf32>, tensor<1x%dxf32>" % (m, n, m, n)
        block = "^bb0(%in: i32, %rr: f32, %c: f32, %o: f32):"
        text = """
    %f = arith.sitofp %in : i32 to f32
    %a = arith.mulf %f, %rr : f32
    %b = arith.divf %a, %c : f32
    linalg.yield %b : f32"""
    types = [a.split(": ", 1)[1] for a in args]
    mod.funcs.append("\n".join(
        ["func.func @%s(%s) -> tensor<%dx%dx%s> {" % (name, ", ".join(args), m, n, out)]
        + mm +
        ["  %%init = tensor.empty() : tensor<%dx%dx%s>" % (m, n, out),
         "  %%y = linalg.generic {indexing_maps = [%s], iterator_types = [\"parallel\", \"parallel\"]}"
         % ", ".join(maps),
         "      ins(%s) outs(%%init : tensor<%dx%dx%s>) {" % (ins, m, n, out),
         "  " + block + text,
         "  } -> tensor<%dx%dx%s>" % (m, n, out),
         "  return %%y : tensor<%dx%dx%s>" % (m, n, out), "}", ""]))
    y = mod.fresh()
    mod.main.append("  %s = call @%s(%s) : (%s) -> tensor<%dx%dx%s>"
                    % (y, name, ", ".join(call), ", ".join(types), m, n, out))
    mod.print(y, [m, n], out)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--module", required=True)
    args = p.parse_args()
    rng = random.Random(args.seed)
    mod = Module()
    index = 0
    for shape_index, (m, k, n) in enumerate(MATMULS):
        for b in range(2):
            body = BODIES[(shape_index * 2 + b) % len(BODIES)]
            gen_case(rng, mod, index, m, k, n, body)
            index += 1
    with open(args.module, "w") as f:
        f.write(mod.text())


if __name__ == "__main__":
    main()
