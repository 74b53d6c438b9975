//===- QntAttributes.td - qnt attribute definitions --------*- tablegen -*-===//
//
// Attributes of the qnt dialect.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTATTRIBUTES_TD
#define QUANTOPT_DIALECT_QNT_IR_QNTATTRIBUTES_TD

include "QuantOpt/Dialect/Qnt/IR/QntBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Qnt_CodesAttr : AttrDef<Qnt_Dialect, "Codes", [TypedAttrInterface]> {
  let mnemonic = "codes";
  let summary = "Folded value of a quantized constant";
  let description = [{
    The fold value of `qnt.constant` and of the `qnt.quantize` /
    `qnt.requantize` folders: the storage codes (`codes`, a dense integer
    attribute of the storage type) of a tensor whose type (`type`) has a
    `!quant.uniform` element type.

    Upstream folders expect a `DenseElementsAttr` whose element type is the
    result's element type; handing them the bare codes makes them reshape or
    splat into a quantized type (a crash). This attribute is not a
    `DenseElementsAttr`, so they leave it alone; the dialect materializes it
    back into `qnt.constant`.

    ```mlir
    #qnt.codes<dense<[1, 2]> : tensor<2xi8>> : tensor<2x!quant.uniform<i8:f32, 1.0>>
    ```
  }];
  let parameters = (ins
    AttributeSelfTypeParameter<"", "::mlir::RankedTensorType">:$type,
    "::mlir::DenseIntElementsAttr":$codes);
  let builders = [
    AttrBuilderWithInferredContext<(ins "::mlir::RankedTensorType":$type,
                                        "::mlir::DenseIntElementsAttr":$codes), [{
      return $_get(type.getContext(), type, codes);
    }]>
  ];
  let assemblyFormat = "`<` $codes `>`";
  let genVerifyDecl = 1;
}

#endif // QUANTOPT_DIALECT_QNT_IR_QNTATTRIBUTES_TD
