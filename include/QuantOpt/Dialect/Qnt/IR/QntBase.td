//===- QntBase.td - qnt dialect definition -----------------*- tablegen -*-===//
//
// The `qnt` dialect: integer-only quantized neural-network ops on upstream
// `!quant.uniform` types.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTBASE_TD
#define QUANTOPT_DIALECT_QNT_IR_QNTBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def Qnt_Dialect : Dialect {
  let name = "qnt";
  let cppNamespace = "::mlir::qnt";
  let summary = "Integer-only quantized tensor ops (affine quantization)";
  let description = [{
    The `qnt` dialect models the integer-only inference of Jacob et al.
    (CVPR 2018) on upstream `!quant.uniform` element types: affine
    quantize/dequantize, integer matmul and conv2d with zero points into an
    exact i32 accumulator, and requantize with a selectable rounding mode that
    reproduces TFLite (`double`, `single`), TVM (`away`), an unbiased integer
    mode (`half_even`) or ONNX Runtime (`float`) bit for bit.

    The public ops (`quantize`, `dequantize`, `matmul`, `conv2d`,
    `requantize`) follow the project's dialect contract exactly. `constant`
    is internal: it is what folding produces for a quantized constant.
  }];
  let dependentDialects = [
    "::mlir::quant::QuantDialect",
    "::mlir::arith::ArithDialect"
  ];
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let useDefaultAttributePrinterParser = 1;
  // `qnt.parallel_tiles` (unit) on an `scf.for` whose iterations compute
  // disjoint output tiles and read nothing another iteration writes: the
  // loop may run its iterations on different threads
  // (`qnt-parallelize-tiles`, docs/Parallelism.md).
  let discardableAttrs = (ins "::mlir::UnitAttr":$parallel_tiles);
}

// Verifier rules every qnt op gets (QntTraits.h): no undeclared attribute
// names, and constant operands hold codes inside their storage range.
def Qnt_NoUnknownAttributes : NativeOpTrait<"NoUnknownAttributes"> {
  let cppNamespace = "::mlir::qnt";
}
def Qnt_ConstantCodesInRange : NativeOpTrait<"ConstantCodesInRange"> {
  let cppNamespace = "::mlir::qnt";
}

class Qnt_Op<string mnemonic, list<Trait> traits = []>
    : Op<Qnt_Dialect, mnemonic,
         !listconcat([Qnt_NoUnknownAttributes, Qnt_ConstantCodesInRange],
                     traits)>;

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Qnt_UniformQuantizedType : Type<
    CPred<"::llvm::isa<::mlir::quant::UniformQuantizedType, "
          "::mlir::quant::UniformQuantizedPerAxisType>($_self)">,
    "uniform quantized type (per tensor or per axis)">;

def Qnt_QuantizedTensor : RankedTensorOf<[Qnt_UniformQuantizedType]>;
def Qnt_FloatTensor : RankedTensorOf<[F32]>;

#endif // QUANTOPT_DIALECT_QNT_IR_QNTBASE_TD
