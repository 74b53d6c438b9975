//===- QntDynamicOps.td - runtime-scale qnt ops ------------*- tablegen -*-===//
//
// The runtime-scale ops of the contract's "Version 2 additions": scales and
// offsets are f32 tensors known only at run time, codes are raw integer
// tensors (no !quant.uniform type). Exact semantics and the degenerate cases:
// docs/RuntimeScales.md.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTDYNAMICOPS_TD
#define QUANTOPT_DIALECT_QNT_IR_QNTDYNAMICOPS_TD

include "QuantOpt/Dialect/Qnt/IR/QntBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Dynamic quantization mode
//===----------------------------------------------------------------------===//

def Qnt_DynamicQuantizeMode : I32Enum<"DynamicQuantizeMode",
    "how qnt.dynamic_quantize chooses its parameters", [
      I32EnumCase<"Onnx", 0, "onnx">,
      I32EnumCase<"Symmetric", 1, "symmetric">
    ]> {
  let cppNamespace = "::mlir::qnt";
}

// The contract spells the mode as a string (`mode = "onnx"`), in the custom
// and the generic form alike, so the attribute is stored as a StringAttr;
// the accessor returns the ODS enum above and the predicate accepts only its
// names.
def Qnt_DynamicQuantizeModeAttr : Attr<
    And<[CPred<"::llvm::isa<::mlir::StringAttr>($_self)">,
         CPred<"::mlir::qnt::symbolizeDynamicQuantizeMode("
               "::llvm::cast<::mlir::StringAttr>($_self).getValue())"
               ".has_value()">]>,
    "dynamic quantization mode, \"onnx\" or \"symmetric\""> {
  let storageType = "::mlir::StringAttr";
  let returnType = "::mlir::qnt::DynamicQuantizeMode";
  let convertFromStorage =
      "*::mlir::qnt::symbolizeDynamicQuantizeMode($_self.getValue())";
  let constBuilderCall =
      "$_builder.getStringAttr(::mlir::qnt::stringifyDynamicQuantizeMode($0))";
}

//===----------------------------------------------------------------------===//
// DequantizeDynamicOp
//===----------------------------------------------------------------------===//

def Qnt_DequantizeDynamicOp : Qnt_Op<"dequantize_dynamic", [Pure]> {
  let summary = "Dequantization of raw codes with run-time scales and offsets";
  let description = [{
    `r = (f32(src) - offset) * scale`, in f32 and in that order (no fused
    multiply-add); NaN and infinities propagate as IEEE f32 arithmetic says.
    `src` holds raw codes of element type i8, ui8, i16 or i32 (signless is
    signed; an i32 code converts to f32 with round-half-even, as DSP
    runtimes dequantize accumulators). `scale` and `offset` are f32 tensors
    of the rank of `src` whose every dimension is 1 or that of `src`
    (numpy broadcasting: `Rx1` per row, `1xC` per column, `1x1` per tensor).

    ```mlir
    %r = qnt.dequantize_dynamic %src, %scale, %offset
         : tensor<64x128xi8>, tensor<64x1xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$src, AnyRankedTensor:$scale,
                       AnyRankedTensor:$offset);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `,` $scale `,` $offset attr-dict `:` type($src) `,` type($scale) `,`
    type($offset) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// QuantizeDynamicOp
//===----------------------------------------------------------------------===//

def Qnt_QuantizeDynamicOp : Qnt_Op<"quantize_dynamic", [Pure]> {
  let summary = "Quantization of f32 values with run-time scales and offsets";
  let description = [{
    `q = saturate(round_half_even(x / scale) + offset)` in f32 (a true
    division, ties to even), saturated to the range of the result's raw
    element type: i8, ui8 or i16. `scale` and `offset` broadcast to `x` as
    for `qnt.dequantize_dynamic`. `offset` is integral: a constant offset
    that is not is rejected. A NaN quotient counts as 0 (the result is the
    saturated offset, as `qnt.quantize` gives the zero point for NaN);
    infinities saturate. docs/RuntimeScales.md gives the rule for an offset
    that is not integral at run time.

    ```mlir
    %q = qnt.quantize_dynamic %x, %scale, %offset
         : tensor<64x128xf32>, tensor<64x1xf32>, tensor<64x1xf32> -> tensor<64x128xi8>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x, AnyRankedTensor:$scale,
                       AnyRankedTensor:$offset);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $x `,` $scale `,` $offset attr-dict `:` type($x) `,` type($scale) `,`
    type($offset) `->` type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// DynamicQuantizeOp
//===----------------------------------------------------------------------===//

def Qnt_DynamicQuantizeOp : Qnt_Op<"dynamic_quantize", [Pure]> {
  let summary = "Quantization with parameters computed at run time";
  let description = [{
    Returns `(codes, scale, zero_point)`.

    `mode = "onnx"` is ONNX `DynamicQuantizeLinear` as ONNX Runtime computes
    it: per tensor, `min = min(0, x...)`, `max = max(0, x...)`,
    `scale = max == min ? 1 : (max - min) / 255`, `zero_point =
    round_half_even(clamp(0 - min / scale, 0, 255))`, codes
    `clamp(round_half_even(x / scale), -zp, 255 - zp) + zp` (a NaN quotient
    gives 0), all in f32. Codes and zero point are `ui8`; scale and zero
    point are rank 0. `axis` must be absent.

    `mode = "symmetric"` with `axis`: per slice along `axis`,
    `scale = max(|x|) / 127` (1.0 where the slice is all zero), zero point 0,
    codes `saturate(round_half_even(x / scale))` in i8 (a NaN quotient gives
    0). Scale and zero point are rank 1 with the size of dimension `axis`.

    A NaN anywhere in the reduced values makes the scale NaN. The
    degenerate cases and their sources: docs/RuntimeScales.md.

    ```mlir
    %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
    %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x,
                       Qnt_DynamicQuantizeModeAttr:$mode,
                       OptionalAttr<I64Attr>:$axis);
  let results = (outs AnyRankedTensor:$codes, AnyRankedTensor:$scale,
                      AnyRankedTensor:$zero_point);
  let assemblyFormat = [{
    $x attr-dict `:` type($x) `->` type($codes) `,` type($scale) `,`
    type($zero_point)
  }];
  let hasVerifier = 1;
}

#endif // QUANTOPT_DIALECT_QNT_IR_QNTDYNAMICOPS_TD
