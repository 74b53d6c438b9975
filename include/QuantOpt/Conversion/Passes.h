//===- Passes.h - qnt conversion passes -------------------------*- C++ -*-===//

#ifndef QUANTOPT_CONVERSION_PASSES_H
#define QUANTOPT_CONVERSION_PASSES_H

#include "QuantOpt/Conversion/QntToLinalg/QntToLinalg.h"

namespace mlir::qnt {

#define GEN_PASS_REGISTRATION
#include "QuantOpt/Conversion/Passes.h.inc"

} // namespace mlir::qnt

#endif // QUANTOPT_CONVERSION_PASSES_H
