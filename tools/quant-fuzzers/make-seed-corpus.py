#!/usr/bin/env python3
"""Writes the qnt-parse-fuzzer seed corpus from the .mlir files under test/.

Each file is split at `// -----` (as -split-input-file does) and every
chunk becomes one corpus file named by its content hash, so rebuilding is
idempotent and duplicate chunks collapse. RUN/CHECK lines stay in: they are
comments to the parser.
"""
import hashlib
import os
import sys

MAX_LEN = 16384  # keep in step with kMaxInputSize in FuzzerHarness.h


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-seed-corpus.py TEST_DIR CORPUS_DIR")
    test_dir, out_dir = sys.argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    count = 0
    for root, _, files in os.walk(test_dir):
        for name in sorted(files):
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(root, name), "rb") as f:
                text = f.read()
            for chunk in text.split(b"// -----"):
                chunk = chunk[:MAX_LEN]
                if not chunk.strip():
                    continue
                digest = hashlib.sha1(chunk).hexdigest()
                path = os.path.join(out_dir, digest)
                if not os.path.exists(path):
                    with open(path, "wb") as f:
                        f.write(chunk)
                count += 1
    print("seed corpus: %d chunks in %s" % (count, out_dir))


if __name__ == "__main__":
    main()
