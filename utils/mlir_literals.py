"""MLIR literal text shared by the test-case generators.

The generators under utils/ and test/**/Inputs/ write modules as text; these
are the pieces they all need: tensor shapes, nested dense literals, codes
wrapped to a signed storage width, f32 bit patterns and window extents.
Scripts outside utils/ put utils/ on `sys.path` from their own location,
so that a fresh clone needs nothing installed.
"""
import struct


def shape_str(shape):
    """`[2, 3, 4]` -> `2x3x4`, as in `tensor<2x3x4xi8>`."""
    return "x".join(str(d) for d in shape)


def nested(values, shape):
    """A flat row-major list as a nested dense literal of `shape`."""
    if not shape:
        return str(values[0])
    if len(shape) == 1:
        return "[" + ", ".join(str(v) for v in values) + "]"
    step = len(values) // shape[0]
    return "[" + ", ".join(nested(values[i * step:(i + 1) * step], shape[1:])
                           for i in range(shape[0])) + "]"


def bits(value, width):
    """Two's complement bits of `value` read as a signed `width`-bit integer
    (how a signless `iN` literal spells an unsigned code)."""
    value &= (1 << width) - 1
    return value - (1 << width) if value >= 1 << (width - 1) else value


def bits8(value):
    return bits(value, 8)


def f32_bits(value):
    """The bits of `value` rounded to f32, as a signed i32 (NaN, Inf, -0.0
    and subnormals written exactly through `arith.bitcast`)."""
    return struct.unpack("<i", struct.pack("<f", value))[0]


def out_size(size, kernel, stride, dilation, pad_lo, pad_hi):
    """Output extent of a convolution or pooling window along one axis; 0
    when the dilated window does not fit the padded input."""
    span = dilation * (kernel - 1) + 1
    padded = size + pad_lo + pad_hi
    return 0 if padded < span else (padded - span) // stride + 1
