//===- QntNetworkOps.td - whole-network qnt ops ------------*- tablegen -*-===//
//
// The public ops of the contract's "Version 2 additions" that a complete
// quantized CNN needs besides conv2d / matmul / requantize: residual add,
// pooling and concatenation. Exact semantics: docs/NetworkOps.md.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTNETWORKOPS_TD
#define QUANTOPT_DIALECT_QNT_IR_QNTNETWORKOPS_TD

include "QuantOpt/Dialect/Qnt/IR/QntBase.td"
include "QuantOpt/Dialect/Qnt/IR/QntEnums.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// AddOp
//===----------------------------------------------------------------------===//

def Qnt_AddOp : Qnt_Op<"add", [Pure]> {
  let summary = "Elementwise quantized add with numpy broadcasting";
  let description = [{
    Real `y = a + b`. `a`, `b` and the result are per-tensor quantized with
    i8, u8 or i16 storage (each may differ) and equal ranks; every dimension
    of `a` and `b` equals the result's or is 1 (numpy broadcasting).

    `rounding = "double"` (default) is TFLite's integer add: both inputs are
    shifted left by `left_shift` (20 for an 8-bit result, 15 for 16-bit),
    scaled by `S_a / (2 max(S_a, S_b))` and `S_b / (2 max(S_a, S_b))`, summed
    and scaled by `2 max(S_a, S_b) / (2^left_shift S_y)`, each multiply
    rounded with the chosen integer mode (`single`, `away`, `half_even` work
    the same way). `"float"` is ONNX Runtime's `QLinearAdd`. `clamp` narrows
    the output range as for `qnt.requantize`. Results saturate.

    ```mlir
    %y = qnt.add %a, %b {rounding = "double", clamp = array<i64: 0, 127>}
         : tensor<1x8x8x16x!A>, tensor<1x1x1x16x!B> -> tensor<1x8x8x16x!Y>
    ```
  }];
  let arguments = (ins Qnt_QuantizedTensor:$a, Qnt_QuantizedTensor:$b,
                       Qnt_DefaultRoundingModeAttr:$rounding,
                       OptionalAttr<DenseI64ArrayAttr>:$clamp);
  let results = (outs Qnt_QuantizedTensor:$result);
  let assemblyFormat = [{
    $a `,` $b attr-dict `:` type($a) `,` type($b) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// MaxPool2DOp
//===----------------------------------------------------------------------===//

def Qnt_MaxPool2DOp : Qnt_Op<"max_pool2d", [Pure]> {
  let summary = "NHWC max pooling on quantized codes";
  let description = [{
    Maximum over each `kernel` window (with `strides`, `dilations` and
    `padding = [top, bottom, left, right]`) of the real, non-padded codes;
    padded positions never win. Every padding must be smaller than the
    dilated kernel extent so that each window holds a real element. The
    result type equals the input type (per tensor, or per axis on the
    channel dimension 3).

    ```mlir
    %m = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>,
           padding = array<i64: 0, 0, 0, 0>} : tensor<1x8x8x16x!X> -> tensor<1x4x4x16x!X>
    ```
  }];
  let arguments = (ins Qnt_QuantizedTensor:$input,
                       DenseI64ArrayAttr:$kernel,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$dilations,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding);
  let results = (outs Qnt_QuantizedTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// AvgPool2DOp
//===----------------------------------------------------------------------===//

def Qnt_AvgPool2DOp : Qnt_Op<"avg_pool2d", [Pure]> {
  let summary = "NHWC average pooling on quantized codes";
  let description = [{
    `y = z + round_half_away_from_zero(sum(q - z) / count)` by exact integer
    division, then clamped to the storage range, where `count` is the number
    of window positions inside the input (or `kernel[0] * kernel[1]` when
    `count_include_pad`, padded positions then contributing 0). The result
    type equals the input type (per tensor, or per axis on dimension 3, each
    channel with its own zero point). Global average pooling is a kernel
    equal to the input H and W; a scale change is a following
    `qnt.requantize`.

    `rounding` says how an exact tie of the mean rounds: `"away"` (default,
    the contract's rule: TFLite's pool) or `"half_even"` (ONNX's
    QuantizeLinear of the float mean, on the same grid). Only these two
    modes apply: the division is exact, so no multiplier is involved.

    ```mlir
    %p = qnt.avg_pool2d %x {kernel = array<i64: 8, 8>} : tensor<1x8x8x16x!X> -> tensor<1x1x1x16x!X>
    ```
  }];
  let arguments = (ins Qnt_QuantizedTensor:$input,
                       DenseI64ArrayAttr:$kernel,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{1, 1}">:$strides,
                       DefaultValuedAttr<DenseI64ArrayAttr, "{0, 0, 0, 0}">:$padding,
                       DefaultValuedAttr<BoolAttr, "false">:$count_include_pad,
                       Qnt_AwayRoundingModeAttr:$rounding);
  let results = (outs Qnt_QuantizedTensor:$output);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($output)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

def Qnt_ConcatOp : Qnt_Op<"concat", [Pure]> {
  let summary = "Concatenation of quantized tensors along one dimension";
  let description = [{
    All operands and the result share one storage type (width and
    signedness) and are per tensor; all dimensions but `axis` are equal and
    the result's `axis` size is their sum. An operand whose scale or zero
    point differs from the result's is requantized to it exactly as
    `qnt.requantize` with `rounding` (default `"double"`); the others are
    copied bit for bit.

    ```mlir
    %c = qnt.concat %a, %b {axis = 3 : i64} : tensor<1x4x4x8x!A>, tensor<1x4x4x8x!B> -> tensor<1x4x4x16x!Y>
    ```
  }];
  let arguments = (ins Variadic<Qnt_QuantizedTensor>:$inputs,
                       I64Attr:$axis,
                       Qnt_DefaultRoundingModeAttr:$rounding);
  let results = (outs Qnt_QuantizedTensor:$result);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($result)
  }];
  let hasVerifier = 1;
}

#endif // QUANTOPT_DIALECT_QNT_IR_QNTNETWORKOPS_TD
