//===- QntIntegerOps.td - explicit integer qnt ops ---------*- tablegen -*-===//
//
// The internal, explicit integer IR between the qnt passes and the lowering
// (docs/IntegerIR.md). Operands are plain signless integer tensors; every
// zero point, multiplier and shift is an attribute, and the signedness of
// 8-bit codes is an explicit unit attribute, never guessed from a type.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTINTEGEROPS_TD
#define QUANTOPT_DIALECT_QNT_IR_QNTINTEGEROPS_TD

include "QuantOpt/Dialect/Qnt/IR/QntBase.td"
include "QuantOpt/Dialect/Qnt/IR/QntEnums.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Qnt_CodeTensor : RankedTensorOf<[I8, I16, I32]>;
def Qnt_I8Tensor : RankedTensorOf<[I8]>;
def Qnt_I32Tensor : RankedTensorOf<[I32]>;

def Qnt_IntMatmulOp : Qnt_Op<"int_matmul", [Pure]> {
  let summary = "acc = sum_k (x - zx) * (w - zw[n]) + bias[n] on raw codes";
  let description = [{
    Explicit integer form of `qnt.matmul`. `x` (M x K) and `w` (K x N) hold
    8-bit codes, read as unsigned when `x_unsigned` / `w_unsigned` is set.
    `weight_zero_points` has 1 or N entries. After `qnt-fold-zero-points`
    the input zero point is 0 (folded into `bias`); after
    `qnt-symmetric-weights` the weight zero points are 0, so the op is a
    plain integer matmul plus bias.
  }];
  let arguments = (ins Qnt_I8Tensor:$x, Qnt_I8Tensor:$w, Qnt_I32Tensor:$bias,
                       I32Attr:$input_zero_point,
                       DenseI32ArrayAttr:$weight_zero_points,
                       UnitAttr:$x_unsigned, UnitAttr:$w_unsigned);
  let results = (outs Qnt_I32Tensor:$result);
  let assemblyFormat = [{
    $x `,` $w `,` $bias attr-dict `:` type($x) `,` type($w) `,` type($bias)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Qnt_IntConv2DOp : Qnt_Op<"int_conv2d", [Pure]> {
  let summary = "Direct NHWC x HWCF convolution on raw codes";
  let description = [{
    Explicit integer form of `qnt.conv2d`:
    `acc = sum_window (xp - zx) * (w - zw[f]) + bias[f]` where `xp` is `x`
    padded with `pad_value` (the original input zero point, so that padding
    is real 0 even after `input_zero_point` has been folded into the bias).
  }];
  let arguments = (ins Qnt_I8Tensor:$x, Qnt_I8Tensor:$w, Qnt_I32Tensor:$bias,
                       I32Attr:$input_zero_point,
                       DenseI32ArrayAttr:$weight_zero_points,
                       I32Attr:$pad_value,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       I64Attr:$groups,
                       UnitAttr:$x_unsigned, UnitAttr:$w_unsigned);
  let results = (outs Qnt_I32Tensor:$result);
  let assemblyFormat = [{
    $x `,` $w `,` $bias attr-dict `:` type($x) `,` type($w) `,` type($bias)
    `->` type($result)
  }];
  let hasVerifier = 1;
}

def Qnt_IntRequantizeOp : Qnt_Op<"int_requantize", [Pure]> {
  let summary = "Fixed-point rescale with explicit M0 / shift per channel";
  let description = [{
    `y = clamp(rescale(x - input_zero_points[c], M0[c], shift[c]) +
    output_zero_points[c], min, max)` in the integer rounding modes, where
    `M[c] ~= multipliers[c] * 2^-31 * 2^-shifts[c]` (negative shift: left
    shift). In mode `float`, `float_multipliers[c]` (f32) is used instead.
    Arrays have 1 entry (per tensor) or one per index of dimension `axis`.
  }];
  let arguments = (ins Qnt_CodeTensor:$input,
                       DenseI32ArrayAttr:$input_zero_points,
                       DenseI32ArrayAttr:$multipliers,
                       DenseI32ArrayAttr:$shifts,
                       DenseF32ArrayAttr:$float_multipliers,
                       DenseI32ArrayAttr:$output_zero_points,
                       I32Attr:$min, I32Attr:$max,
                       Qnt_RoundingModeAttr:$rounding,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       UnitAttr:$input_unsigned, UnitAttr:$output_unsigned);
  let results = (outs Qnt_CodeTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def Qnt_IntQuantizeOp : Qnt_Op<"int_quantize", [Pure]> {
  let summary = "f32 to codes: clamp(round_half_even(x / s) + z, min, max)";
  let arguments = (ins RankedTensorOf<[F32]>:$input,
                       DenseF32ArrayAttr:$scales,
                       DenseI32ArrayAttr:$zero_points,
                       I32Attr:$min, I32Attr:$max,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       UnitAttr:$output_unsigned);
  let results = (outs Qnt_CodeTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def Qnt_IntDequantizeOp : Qnt_Op<"int_dequantize", [Pure]> {
  let summary = "codes to f32: (f32(q) - f32(z)) * s";
  let arguments = (ins Qnt_CodeTensor:$input,
                       DenseF32ArrayAttr:$scales,
                       DenseI32ArrayAttr:$zero_points,
                       DefaultValuedAttr<I64Attr, "-1">:$axis,
                       UnitAttr:$input_unsigned);
  let results = (outs RankedTensorOf<[F32]>:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Whole-network ops (docs/NetworkOps.md)
//===----------------------------------------------------------------------===//

def Qnt_IntAddOp : Qnt_Op<"int_add", [Pure]> {
  let summary = "TFLite-structured integer add of two broadcast code tensors";
  let description = [{
    Explicit integer form of `qnt.add`. `a` and `b` broadcast numpy-style
    (equal ranks, size-1 dimensions stretched) to the result. In the integer
    modes, per element:
    ```
    sa  = multiplyByQuantizedMultiplier((a - a_zero_point) << left_shift,
                                        a_multiplier, a_shift, rounding)
    sb  = (the same for b)
    y   = clamp(multiplyByQuantizedMultiplier(sa + sb, output_multiplier,
                output_shift, rounding) + output_zero_point, min, max)
    ```
    with saturation as in `qnt.int_requantize`. In mode `float`:
    `y = clamp(round_half_even(f32(a - za) * a_float_multiplier +
    f32(b - zb) * b_float_multiplier) + output_zero_point, min, max)` in f32
    (two products, one add, no fusion). Codes are read as unsigned where
    `a_unsigned` / `b_unsigned` is set.
  }];
  let arguments = (ins Qnt_CodeTensor:$a, Qnt_CodeTensor:$b,
                       I32Attr:$a_zero_point, I32Attr:$b_zero_point,
                       I32Attr:$output_zero_point,
                       I32Attr:$left_shift,
                       I32Attr:$a_multiplier, I32Attr:$a_shift,
                       I32Attr:$b_multiplier, I32Attr:$b_shift,
                       I32Attr:$output_multiplier, I32Attr:$output_shift,
                       F32Attr:$a_float_multiplier, F32Attr:$b_float_multiplier,
                       I32Attr:$min, I32Attr:$max,
                       Qnt_RoundingModeAttr:$rounding,
                       UnitAttr:$a_unsigned, UnitAttr:$b_unsigned,
                       UnitAttr:$output_unsigned);
  let results = (outs Qnt_CodeTensor:$output);
  let assemblyFormat = [{
    $a `,` $b attr-dict `:` type($a) `,` type($b) `->` type($output)
  }];
  let hasVerifier = 1;
}

def Qnt_IntMaxPool2DOp : Qnt_Op<"int_max_pool2d", [Pure]> {
  let summary = "NHWC max pooling of raw codes; padding never wins";
  let description = [{
    Explicit integer form of `qnt.max_pool2d`: the maximum of the real codes
    of each window, compared as unsigned when `input_unsigned` is set. No
    zero point is involved: max commutes with the affine map.
  }];
  let arguments = (ins Qnt_CodeTensor:$input,
                       DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$dilations,
                       DenseI64ArrayAttr:$padding,
                       UnitAttr:$input_unsigned);
  let results = (outs Qnt_CodeTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

def Qnt_IntAvgPool2DOp : Qnt_Op<"int_avg_pool2d", [Pure]> {
  let summary = "NHWC average pooling of raw codes with exact rounding";
  let description = [{
    Explicit integer form of `qnt.avg_pool2d`:
    `y = clamp(z + round_half_away_from_zero(sum(q - z) / count), min, max)`
    by exact integer division, `z = zero_points[c]` (1 entry or one per
    channel), `count` the number of window positions inside the input, or
    `kernel[0] * kernel[1]` when `count_include_pad` is set. With
    `rounding = "half_even"` a tie of the quotient rounds to even instead.
  }];
  let arguments = (ins Qnt_CodeTensor:$input,
                       DenseI64ArrayAttr:$kernel,
                       DenseI64ArrayAttr:$strides,
                       DenseI64ArrayAttr:$padding,
                       DenseI32ArrayAttr:$zero_points,
                       I32Attr:$min, I32Attr:$max,
                       UnitAttr:$count_include_pad,
                       UnitAttr:$input_unsigned,
                       Qnt_AwayRoundingModeAttr:$rounding);
  let results = (outs Qnt_CodeTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

#endif // QUANTOPT_DIALECT_QNT_IR_QNTINTEGEROPS_TD
