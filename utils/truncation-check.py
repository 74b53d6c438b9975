#!/usr/bin/env python3
"""Runs a tool on many truncated prefixes of an input file.

Every run must end with exit code 0 or 1 (a diagnostic): a crash (signal or
any other code) fails the check and names the cut point.
Usage: truncation-check.py [--cuts N] FILE TOOL [ARGS...]
"""
import os
import subprocess
import sys
import tempfile


def main():
    args = sys.argv[1:]
    cuts = 60
    if args[:1] == ["--cuts"]:
        cuts, args = int(args[1]), args[2:]
    path, tool = args[0], args[1:]
    data = open(path, "rb").read()
    step = max(1, len(data) // cuts)
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        cut_path = os.path.join(tmp, "cut.mlir")
        for end in range(0, len(data), step):
            with open(cut_path, "wb") as f:
                f.write(data[:end])
            rc = subprocess.run(tool + [cut_path], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL).returncode
            if rc not in (0, 1):
                print("crash: %s cut at byte %d exited with %d" % (path, end, rc))
                bad += 1
    print("%d truncations of %s, %d crashes" % (len(range(0, len(data), step)), path, bad))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
