//===- QntEnums.td - qnt dialect enums ---------------------*- tablegen -*-===//
//
// The rounding mode of every rescaling qnt op. It is an enum in C++
// (`mlir::qnt::RoundingMode`, as TOSA's RoundingModeAttr) held in an
// attribute whose stored form is the mode's name, so the contract's textual
// form `rounding = "double"` is the same in the custom and the generic form.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_IR_QNTENUMS_TD
#define QUANTOPT_DIALECT_QNT_IR_QNTENUMS_TD

include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"

def Qnt_RoundingMode : I32Enum<"RoundingMode",
    "whose bits a rescale reproduces (docs/Semantics.md)", [
      I32EnumCase<"Double", 0, "double">,
      I32EnumCase<"Single", 1, "single">,
      I32EnumCase<"Away", 2, "away">,
      I32EnumCase<"HalfEven", 3, "half_even">,
      I32EnumCase<"Float", 4, "float">]> {
  let cppNamespace = "::mlir::qnt";
}

/// `rounding` as an attribute: stored as the StringAttr the contract spells
/// (so the custom and the generic form read `rounding = "double"`), read and
/// built as the enum. The op verifiers reject an unknown name, naming it.
def Qnt_RoundingModeAttr : Attr<CPred<"::llvm::isa<::mlir::StringAttr>($_self)">,
                                "string naming a rounding mode (\"double\", \"single\", "
                                "\"away\", \"half_even\" or \"float\")"> {
  let storageType = "::mlir::StringAttr";
  let returnType = "::mlir::qnt::RoundingMode";
  let convertFromStorage = "::mlir::qnt::getRoundingMode($_self)";
  let constBuilderCall = [{
    ::mlir::StringAttr::get($_builder.getContext(),
                            ::mlir::qnt::stringifyRoundingMode($0))
  }];
}

/// `rounding` where the contract makes it optional ("double" when absent).
def Qnt_DefaultRoundingModeAttr
    : DefaultValuedAttr<Qnt_RoundingModeAttr, "::mlir::qnt::RoundingMode::Double">;

/// `rounding` of the average pools, whose exact division only rounds ties:
/// "away" (TFLite's rule) when absent, or "half_even".
def Qnt_AwayRoundingModeAttr
    : DefaultValuedAttr<Qnt_RoundingModeAttr, "::mlir::qnt::RoundingMode::Away">;

#endif // QUANTOPT_DIALECT_QNT_IR_QNTENUMS_TD
