//===- Passes.td - qnt transformation passes ---------------*- tablegen -*-===//
//
// The integer-only pipeline of Jacob et al. (CVPR 2018), one concept per
// pass. They run in this order and leave explicit integer IR
// (docs/IntegerIR.md) for the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD
#define QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QntFoldZeroPoints : Pass<"qnt-fold-zero-points", "func::FuncOp"> {
  let summary = "Fold the input zero point into the int32 bias at compile time";
  let description = [{
    Rewrites `qnt.matmul` / `qnt.conv2d` into `qnt.int_matmul` /
    `qnt.int_conv2d` on raw codes. With constant weights the input zero
    point term is computed offline and folded into one int32 bias per output
    channel: `q_bias = q_b - Z_X * sum_k q_W (+ K * Z_X * Z_W[n])`; for conv2d
    the sum runs over KH x KW x C/groups of each filter. Padding keeps
    holding `Z_X` (`pad_value`), so the fold is exact at every output
    position. With non-constant weights the input zero point stays on the op
    (a runtime correction), unless `require-constant-weights` is set, which
    makes it an error.
  }];
  let options = [
    Option<"requireConstantWeights", "require-constant-weights", "bool",
           /*default=*/"false",
           "Report an error instead of keeping a runtime correction when the "
           "weights are not a compile-time constant">
  ];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect",
                           "::mlir::arith::ArithDialect"];
}

def QntSymmetricWeights : Pass<"qnt-symmetric-weights", "func::FuncOp"> {
  let summary = "Drop the Z_W terms, or emit the one runtime reduction they need";
  let description = [{
    On `qnt.int_matmul` / `qnt.int_conv2d`: when every weight zero point is
    0 the `Z_W * sum(q_X)` and `K * Z_X * Z_W` terms vanish and nothing is
    emitted. Otherwise exactly one runtime reduction over the input remains
    (row sums for matmul, window sums over the padded input for conv), and
    `Z_W[n] * sum` is subtracted from the accumulator, after which the op's
    weight zero points are 0.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntFixedPointMultiplier : Pass<"qnt-fixed-point-multiplier",
                                   "func::FuncOp"> {
  let summary = "Turn M = S_in / S_out into a Q31 multiplier and a shift";
  let description = [{
    Rewrites each `qnt.requantize` into `qnt.int_requantize` with explicit
    Q31 `multipliers` (M0) and right `shifts` (n; negative for M >= 1), per
    channel where either side is per axis, computed by the reference model's
    `quantizeMultiplier` (TFLite's rule: M0 in [2^30, 2^31), the 2^31 case
    halved, M < 2^-31 flushed to 0, shifts clamped at -30). The rounding mode
    and the clamp bounds become attributes. Mode `float` gets f32
    multipliers `f32(S_in) / f32(S_out)` instead.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect"];
}

def QntStripQuantTypes : Pass<"qnt-strip-quant-types", "ModuleOp"> {
  let summary = "Replace !quant.uniform types by their storage integers";
  let description = [{
    The last step into explicit integer IR: `qnt.quantize` /
    `qnt.dequantize` become `qnt.int_quantize` / `qnt.int_dequantize` with
    scales and zero points as attributes, `qnt.constant` becomes
    `arith.constant`, `quant.scast` disappears, and function signatures use
    signless storage integers (i8 for u8 too; signedness lives on the ops).
    Fails with a diagnostic if a public qnt op is still present.
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD
