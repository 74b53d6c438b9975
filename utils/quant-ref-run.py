#!/usr/bin/env python3
"""Runs a module on the reference model: the golden side of e2e checks.

    quant-ref-run.py [--tools-dir DIR] FILE [quant-ref-run options...]

quant-ref-run links no compiler library, so it reads qnt ops only in MLIR's
generic form. This wrapper first prints FILE in generic form with
`quant-opt --mlir-print-op-generic` (a parse/print round trip, no pass), then
pipes it into `quant-ref-run -`. Output (printMemref transcripts) goes to
stdout; diagnostics of either step go to stderr with the step named, and the
exit status is nonzero if either step fails. lit's `%quant_ref_run FILE`
expands to this script (docs/ReferenceModel.md).
"""
import os
import subprocess
import sys


def main():
    args = sys.argv[1:]
    tools_dir = None
    if len(args) >= 2 and args[0] == "--tools-dir":
        tools_dir, args = args[1], args[2:]
    if not args:
        sys.stderr.write(__doc__)
        return 2
    if tools_dir is None:
        tools_dir = os.path.join(
            os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin")
    # The first positional argument is the module; the rest go to
    # quant-ref-run (e.g. `-e forward`).
    # `-` is stdin; `-e NAME` takes a separate value.
    positional, skip = [], False
    for i, a in enumerate(args):
        if skip:
            skip = False
        elif a in ("-e", "--e"):
            skip = True
        elif a == "-" or not a.startswith("-"):
            positional.append(i)
    if not positional:
        sys.stderr.write("quant-ref-run.py: no input file\n")
        return 2
    module = args.pop(positional[0])

    quant_opt = os.path.join(tools_dir, "quant-opt")
    ref_run = os.path.join(tools_dir, "quant-ref-run")
    generic = subprocess.run(
        [quant_opt, "--mlir-print-op-generic", module],
        stdin=None if module != "-" else sys.stdin.buffer,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if generic.returncode != 0:
        sys.stderr.write("quant-ref-run.py: quant-opt could not print %s in "
                         "generic form:\n" % module)
        sys.stderr.buffer.write(generic.stderr)
        return generic.returncode or 1
    run = subprocess.run([ref_run, "-"] + args, input=generic.stdout,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    sys.stdout.buffer.write(run.stdout)
    sys.stdout.flush()
    if run.stderr:
        # Locations point into the generic text ("<stdin>"), not FILE.
        sys.stderr.write("quant-ref-run.py: quant-ref-run on the generic "
                         "form of %s:\n" % module)
        sys.stderr.buffer.write(run.stderr)
    return run.returncode


if __name__ == "__main__":
    sys.exit(main())
