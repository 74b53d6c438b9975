"""Reads the tensors a compiled test model printed with printMemref*."""
import re

import numpy as np

_NUMBER = re.compile(r"[-+]?(?:nan|inf|\d+(?:\.\d*)?(?:e[-+]?\d+)?)")


def printed_tensors(path):
    """The values of each printed tensor, in order, as flat float arrays."""
    blocks = open(path).read().split("Unranked Memref")[1:]
    return [np.array([float(v) for v in _NUMBER.findall(b.partition("data =")[2])])
            for b in blocks]
