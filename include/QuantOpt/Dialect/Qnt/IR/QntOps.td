//===- QntOps.td - qnt dialect ops -------------------------*- tablegen -*-===//
//
// Op names, operands and textual form are fixed by the public contract
// (shared/spec/dialect-contract.md). Semantics are summarised here; the exact
// integer definitions live in include/QuantOpt/Reference/FixedPoint.h.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTOPS_TD
#define QUANTOPT_DIALECT_QNT_IR_QNTOPS_TD

include "QuantOpt/Dialect/Qnt/IR/QntBase.td"
include "QuantOpt/Dialect/Qnt/IR/QntEnums.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

def Qnt_QuantizeOp : Qnt_Op<"quantize", [Pure]> {
  let summary = "Affine quantization of an f32 tensor";
  let description = [{
    `q = clamp(round_half_even(x / s) + z, qmin, qmax)` with `x / s` computed
    in f32 and `qmin`/`qmax` from the (possibly narrow) storage range. NaN
    gives `z`, +inf gives `qmax`, -inf gives `qmin`. The result may be per
    tensor or per axis (any axis); storage is i8, u8 or i16.

    Folds when the input is a constant: weights may be written in float.

    ```mlir
    %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<u8:f32, 2.500000e-01:128>>
    ```
  }];
  let arguments = (ins Qnt_FloatTensor:$input);
  let results = (outs Qnt_QuantizedTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// DequantizeOp
//===----------------------------------------------------------------------===//

def Qnt_DequantizeOp : Qnt_Op<"dequantize", [Pure]> {
  let summary = "Affine dequantization to f32";
  let description = [{
    `r = (f32(q) - f32(z)) * s`, in f32, in that order. The operand may be
    per tensor or per axis (any axis); storage is i8, u8 or i16 (the
    contract's storage types; an i32 accumulator is requantized first, or
    dequantized with `qnt.dequantize_dynamic`).

    ```mlir
    %r = qnt.dequantize %q : tensor<2x!quant.uniform<u8:f32, 2.500000e-01:128>> -> tensor<2xf32>
    ```
  }];
  let arguments = (ins Qnt_QuantizedTensor:$input);
  let results = (outs Qnt_FloatTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

def Qnt_MatmulOp : Qnt_Op<"matmul", [Pure]> {
  let summary = "Integer matmul with zero points into an exact i32 accumulator";
  let description = [{
    `acc[m,n] = sum_k (x[m,k] - z_x) * (w[k,n] - z_w[n]) + b[n]`.

    `x` is `M x K` (i8 or u8, per tensor), `w` is `K x N` (i8 or u8, per
    tensor or per axis on dimension 1), the optional `bias` is `N` (i32,
    zero point 0, scale `S_X * S_W`). The result is `M x N` with i32 storage,
    zero point 0 and scale `S_X * S_W` (per axis on dimension 1 when `w` is).
    The verifier rejects a shape whose worst-case sum can leave i32.

    ```mlir
    %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
    ```
  }];
  let arguments = (ins Qnt_QuantizedTensor:$x, Qnt_QuantizedTensor:$w,
                       Optional<Qnt_QuantizedTensor>:$bias);
  let results = (outs Qnt_QuantizedTensor:$result);
  let assemblyFormat = [{
    $x `,` $w (`,` $bias^)? attr-dict `:` type($x) `,` type($w)
    (`,` type($bias)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Conv2DOp
//===----------------------------------------------------------------------===//

def Qnt_Conv2DOp : Qnt_Op<"conv2d", [Pure]> {
  let summary = "Integer 2-D convolution (NHWC x HWCF) with zero points";
  let description = [{
    Direct convolution of `x` (NHWC, i8 or u8, per tensor) with `w` (HWCF:
    `KH x KW x C/groups x F`, i8 or u8, per tensor or per axis on dimension
    3) into an exact i32 accumulator (NHWF). `padding` is
    `[top, bottom, left, right]`; padded positions hold real 0, i.e. the
    input zero point, never raw code 0. `groups == C` is a depthwise
    convolution. The optional `bias` is `F` (i32, zero point 0, scale
    `S_X * S_W`).

    ```mlir
    %a = qnt.conv2d %x, %w, %b {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
           padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}
         : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W>, tensor<4x!A> -> tensor<1x8x8x4x!A>
    ```
  }];
  let arguments = (ins Qnt_QuantizedTensor:$x, Qnt_QuantizedTensor:$w,
                       Optional<Qnt_QuantizedTensor>:$bias,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Qnt_QuantizedTensor:$result);
  let assemblyFormat = [{
    $x `,` $w (`,` $bias^)? attr-dict `:` type($x) `,` type($w)
    (`,` type($bias)^)? `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// RequantizeOp
//===----------------------------------------------------------------------===//

def Qnt_RequantizeOp : Qnt_Op<"requantize", [Pure]> {
  let summary = "Rescale a quantized tensor to another quantization";
  let description = [{
    `M = S_in / S_out` (per channel where either side is per axis);
    `y = clamp(rescale(q - z_in, M) + z_out, lo, hi)` where `lo, hi` is the
    result storage range, narrowed by the optional `clamp` attribute (output
    codes: fused ReLU / ReLU6). `rounding` selects whose bits are reproduced:
    `double` (default; TFLite reference, gemmlowp, TOSA DOUBLE_ROUND),
    `single` (TFLite single rounding, ruy, TOSA SINGLE_ROUND, TVM UPWARD),
    `away` (TVM TONEAREST), `half_even` (unbiased integer), `float` (ONNX
    Runtime CPU). Every integer mode saturates instead of wrapping. The
    result storage is i8, u8 or i16.

    ```mlir
    %y = qnt.requantize %a {rounding = "double", clamp = array<i64: -5, 127>}
         : tensor<1x1x!A> -> tensor<1x1x!Y>
    ```
  }];
  let arguments = (ins Qnt_QuantizedTensor:$input,
                       Qnt_DefaultRoundingModeAttr:$rounding,
                       OptionalAttr<DenseI64ArrayAttr>:$clamp);
  let results = (outs Qnt_QuantizedTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// ConstantOp (internal)
//===----------------------------------------------------------------------===//

def Qnt_ConstantOp : Qnt_Op<"constant", [ConstantLike, Pure]> {
  let summary = "A constant tensor of quantized codes";
  let description = [{
    Internal op (not part of the public contract): the materialized result of
    folding, e.g. `qnt.quantize` of an f32 constant. `value` holds the raw
    storage codes: signless integers for signed storage, unsigned integers
    (`ui8`) for unsigned storage, so that the printed numbers are the codes.

    ```mlir
    %w = qnt.constant dense<[3, -2]> : tensor<2xi8> -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>
    ```
  }];
  let arguments = (ins AnyIntElementsAttr:$value);
  let results = (outs Qnt_QuantizedTensor:$output);
  let assemblyFormat = "$value attr-dict `->` type($output)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

include "QuantOpt/Dialect/Qnt/IR/QntIntegerOps.td"
include "QuantOpt/Dialect/Qnt/IR/QntNetworkOps.td"
include "QuantOpt/Dialect/Qnt/IR/QntDynamicOps.td"

#endif // QUANTOPT_DIALECT_QNT_IR_QNTOPS_TD
