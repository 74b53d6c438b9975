//===- Passes.td - qnt transformation passes ---------------*- tablegen -*-===//

#ifndef QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD
#define QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD
