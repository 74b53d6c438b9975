//===- Passes.td - qnt conversion passes -------------------*- tablegen -*-===//
//
// Lowerings out of the qnt dialect, declared in one file as upstream's
// mlir/Conversion/Passes.td does.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_PASSES_TD
#define QUANTOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def QntToLinalg : Pass<"qnt-to-linalg", "func::FuncOp"> {
  let summary = "Lower the explicit integer qnt ops to linalg on tensors";
  let description = [{
    Lowers `qnt.int_matmul`, `qnt.int_conv2d`, `qnt.int_requantize`,
    `qnt.int_quantize` and `qnt.int_dequantize` to `linalg`, `arith`, `math`
    and `tensor` ops on signless integer tensors. The rounding arithmetic is
    emitted step by step after `QuantOpt/Reference/FixedPoint.h`, so compiled
    code is bit-exact with the reference model.

    Input: explicit integer IR, as left by `qnt-strip-quant-types`. A public
    qnt op (`qnt.matmul`, ...) that is still present is an error.

    ```mlir
    %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32,
           weight_zero_points = array<i32: 0>, x_unsigned}
         : tensor<1x2xi8>, tensor<2x1xi8>, tensor<1xi32> -> tensor<1x1xi32>
    ```
    becomes a `linalg.broadcast` of the bias into a `1x1` init and a
    `linalg.generic` that extends `x` with `arith.extui`, `w` with
    `arith.extsi`, multiplies and accumulates in i32.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntToX86Vnni : Pass<"qnt-x86-vnni", "func::FuncOp"> {
  let summary = "Lower eligible int8 contractions to AVX-512 VNNI microkernels";
  let description = [{
    Runs before `qnt-to-linalg` when the target has AVX-512 VNNI. Rewrites
    `qnt.int_matmul` / `qnt.int_conv2d` whose weights are compile-time
    constants into packed-weight loops whose inner step is `vpdpbusd`
    (u8 x s8 -> i32). Signed activations are moved to u8 by `x + 128`, with
    `128 * sum(w)` folded into the bias, exactly as the input zero point is.
    Ops it does not handle are left for `qnt-to-linalg`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // QUANTOPT_CONVERSION_PASSES_TD
