#!/usr/bin/env python3
"""Finds each function's contraction inner loop in an assembly file and runs
llvm-mca on it (bench/mca.sh; the method is in bench/README.md).

The inner loop of a function is the innermost loop (a backward branch to a
label of the same function, with no other backward branch inside it) that
does the most multiply-accumulates per iteration. MACs are counted from the
multiply instructions the loop holds (table below); for RISC-V V the
vector length comes from --vlen and the element width and LMUL from the last
`vsetvli` / `vsetivli` before the instruction (inside the loop, or else the
last one before the loop, which is then handed to llvm-mca as its
LLVM-MCA-RISCV-LMUL / -SEW instruments so that it models the same vtype).

The bound is MACs per iteration / the core's peak MACs per cycle. The peak
is measured with llvm-mca on the same CPU model: a block of independent
copies of the core's best 8-bit dot instruction (AArch64: smmla with +i8mm,
else sdot with +dotprod, else smull .8h; RISC-V: vwmacc.vx at e16, i16 x i16 ->
i32, at the LMUL that gives the most MACs per cycle), i.e. the dot
throughput of LLVM's scheduling model for that CPU.

Prints one line per function:
  function cycles/iter MACs/iter bound ratio instructions
"""
import argparse
import re
import subprocess
import sys

BRANCH_AARCH64 = re.compile(
    r"^\s*(b|b\.\w+|cbz|cbnz|tbz|tbnz)\s+(?:[^,]+,\s*)*(\.?L\w+)\s*$")
BRANCH_RISCV = re.compile(
    r"^\s*(j|beq|bne|blt|bge|bltu|bgeu|beqz|bnez|blez|bgez|bltz|bgtz|"
    r"bgt|ble|bgtu|bleu)\s+(?:[^,]+,\s*)*(\.?L\w+)\s*$")
LABEL = re.compile(r"^(\.?L\w+):")
FUNC = re.compile(r"^([A-Za-z_][\w.]*):")
VSET = re.compile(r"^\s*vset(?:i)?vli\s+[^,]+,\s*[^,]+,\s*e(\d+),\s*(m\w+)")

# AArch64: MACs of one instruction from its mnemonic and arrangement.
AARCH64_MACS = {
    "smmla": 32, "ummla": 32, "usmmla": 32,
}


ELT_BITS = {"b": 8, "h": 16, "s": 32, "d": 64}


def aarch64_macs(line, sve_bits=128):
    """MACs of one instruction: NEON (v registers, lanes from the
    arrangement) or SVE (z registers, lanes from the vector length)."""
    parts = line.split(None, 1)
    if len(parts) < 2:
        return 0
    op, operands = parts
    if op in AARCH64_MACS:
        # smmla & co: 32 MACs per 128-bit segment.
        if operands.startswith("z"):
            return AARCH64_MACS[op] * sve_bits // 128
        return AARCH64_MACS[op]
    dest = re.match(r"([vz])\d+\.(\d*)([bhsd])", operands)
    if dest:
        kind, count, elt = dest.groups()
        if kind == "v" and not count:
            return 0  # one lane (`mov v0.s[1], w8`): no multiply
        lanes = int(count) if kind == "v" else sve_bits // ELT_BITS[elt]
        if op in ("sdot", "udot", "usdot", "sudot"):
            return 4 * lanes  # 4-byte groups per 32-bit lane
        # Widening multiply-accumulates into 16- or 32-bit lanes (the i64
        # products of a Q31 requantization are not MACs of the contraction).
        if elt in ("h", "s") and op in (
                "smlal", "smlal2", "umlal", "umlal2", "smull", "smull2",
                "umull", "umull2", "mla", "mul", "mad", "smlalb", "smlalt",
                "umlalb", "umlalt", "smullb", "smullt"):
            return lanes
        return 0
    if op in ("madd", "msub", "mul") and operands.startswith("w"):
        return 1
    return 0


def riscv_macs(line, vtype, vlen):
    parts = line.split(None, 1)
    if not parts:
        return 0
    op = parts[0]
    if not (op.startswith("vwmacc") or op.startswith("vmacc") or
            op.startswith("vwmul") or op.startswith("vmul") or
            op.startswith("vmadd") or op.startswith("vnmsac")):
        if op in ("mul", "mulw", "madd"):
            return 1
        return 0
    if vtype is None:
        return 0
    sew, lmul = vtype
    factor = {"mf8": 0.125, "mf4": 0.25, "mf2": 0.5, "m1": 1, "m2": 2,
              "m4": 4, "m8": 8}[lmul]
    return int(vlen * factor / sew)


def functions(lines):
    """(name, [lines]) per function, by `.type name,@function` labels."""
    names = set()
    for line in lines:
        m = re.match(r"^\s*\.type\s+([\w.]+),\s*@function", line)
        if m:
            names.add(m.group(1))
    current, body = None, []
    for line in lines:
        m = FUNC.match(line)
        if m and m.group(1) in names:
            if current:
                yield current, body
            current, body = m.group(1), []
            continue
        if current:
            body.append(line)
    if current:
        yield current, body


def instructions(lines, arch):
    comment = "#" if arch == "riscv64" else "//"
    out = []
    for line in lines:
        s = line.split(comment)[0].strip()
        if not s or s.startswith(".") or LABEL.match(s):
            continue
        out.append(s)
    return out


def loops(body, branch):
    labels = {}
    for i, line in enumerate(body):
        m = LABEL.match(line.strip())
        if m:
            labels[m.group(1)] = i
    found = []
    for j, line in enumerate(body):
        m = branch.match(line.split("//")[0].rstrip())
        if m and m.group(2) in labels and labels[m.group(2)] < j:
            found.append((labels[m.group(2)], j))
    return [(i, j) for (i, j) in found
            if not any(i <= a and b <= j and (a, b) != (i, j)
                       for (a, b) in found)]


def last_vtype(lines):
    vtype = None
    for line in lines:
        m = VSET.match(line)
        if m:
            vtype = (int(m.group(1)), m.group(2))
    return vtype


def count_macs(insts, arch, vlen, entry_vtype, args):
    vtype, total = entry_vtype, 0
    for inst in insts:
        if arch == "riscv64":
            m = VSET.match(inst)
            if m:
                vtype = (int(m.group(1)), m.group(2))
                continue
            total += riscv_macs(inst, vtype, vlen)
        else:
            total += aarch64_macs(inst, args.sve_bits)
    return total


def mca(insts, args, entry_vtype=None, iterations=200):
    text = ""
    if args.arch == "riscv64" and entry_vtype and not any(
            VSET.match(i) for i in insts):
        sew, lmul = entry_vtype
        text += "# LLVM-MCA-RISCV-LMUL %s\n# LLVM-MCA-RISCV-SEW E%d\n" % (
            lmul.upper(), sew)
    text += "\n".join(insts) + "\n"
    cmd = [args.mca, "-mtriple=" + args.triple, "-mcpu=" + args.cpu,
           "-iterations=%d" % iterations]
    if args.mattr:
        cmd.append("-mattr=" + args.mattr)
    r = subprocess.run(cmd, input=text, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    if r.returncode != 0:
        sys.exit("mca-loops: llvm-mca failed:\n" + r.stderr)
    iters = int(re.search(r"Iterations:\s+(\d+)", r.stdout).group(1))
    cycles = int(re.search(r"Total Cycles:\s+(\d+)", r.stdout).group(1))
    return cycles / iters


def peak(args):
    """The core's MACs per cycle for its best 8-bit dot instruction."""
    if args.arch == "riscv64":
        # i16 x i16 -> i32: the widest-accumulator MAC RVV 1.0 has for 8-bit
        # codes (an e8 vwmacc sums in 16 bits and overflows; bench/README.md).
        best = 0.0
        for lmul, factor in (("m1", 1), ("m2", 2), ("m4", 4)):
            insts = ["vwmacc.vx v%d, a1, v28" % (8 * i) for i in range(3)]
            c = mca(insts, args, (16, lmul), 1000)
            best = max(best, 3 * args.vlen * factor / 16 / c)
        return best, "vwmacc.vx e16"
    feats = args.features.split(",")
    if "+i8mm" in feats:
        op, macs = "smmla v%d.4s, v28.16b, v29.16b", 32
    elif "+dotprod" in feats:
        op, macs = "sdot v%d.4s, v28.16b, v29.16b", 16
    else:
        # Plain NEON: the widest 8-bit multiply, 8 i8 x i8 -> i16 products
        # (smlal, i16 x i16 -> i32, does 4).
        op, macs = "smull v%d.8h, v28.8b, v29.8b", 8
    insts = [op % i for i in range(16)]
    return 16 * macs / mca(insts, args, None, 1000), op.split()[0]


def main():
    p = argparse.ArgumentParser()
    p.add_argument("asm")
    p.add_argument("--arch", required=True, choices=["aarch64", "riscv64"])
    p.add_argument("--triple", required=True)
    p.add_argument("--cpu", required=True)
    p.add_argument("--mattr", default="")
    p.add_argument("--features", default="",
                   help="the core's features, for its peak dot instruction")
    p.add_argument("--vlen", type=int, default=0)
    p.add_argument("--sve-bits", type=int, default=128,
                   help="SVE vector length of the core (Neoverse V2: 128)")
    p.add_argument("--mca", default="llvm-mca")
    p.add_argument("--label", default="")
    args = p.parse_args()
    branch = BRANCH_RISCV if args.arch == "riscv64" else BRANCH_AARCH64
    lines = open(args.asm).read().splitlines()
    peak_macs, peak_op = peak(args)
    for name, body in functions(lines):
        if name.startswith("_mlir_ciface_"):
            continue  # the C wrappers only call the function
        best = None
        for (i, j) in loops(body, branch):
            insts = instructions(body[i:j + 1], args.arch)
            entry = last_vtype(instructions(body[:i], args.arch))
            macs = count_macs(insts, args.arch, args.vlen, entry, args)
            if macs and (best is None or macs > best[0]):
                best = (macs, insts, entry)
        if best is None:
            print("%-22s %-12s %-20s no loop with multiply instructions"
                  % (args.label, args.cpu, name))
            continue
        macs, insts, entry = best
        cycles = mca(insts, args, entry)
        bound = macs / peak_macs
        ops = sorted({i.split()[0] for i in insts
                      if (aarch64_macs(i) if args.arch == "aarch64"
                          else riscv_macs(i, (8, "m1"), 64))})
        print("%-10s %-12s %-20s %8.2f %6d %8.2f %6.2fx  %3d insts, %s "
              "(peak %.1f MAC/cycle, %s)"
              % (args.label, args.cpu, name, cycles, macs, bound,
                 cycles / bound, len(insts), " ".join(ops), peak_macs,
                 peak_op))


if __name__ == "__main__":
    main()
