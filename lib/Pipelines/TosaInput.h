//===- TosaInput.h - what --tosa-to-llvm accepts as input -------*- C++ -*-===//
//
// Internal to the pipelines: checks, before anything is lowered, the input
// properties that tosa-to-qnt and upstream's TOSA lowering take for granted.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_PIPELINES_TOSAINPUT_H
#define LIB_PIPELINES_TOSAINPUT_H

#include "mlir/Pass/Pass.h"

#include <memory>

namespace quantopt {

/// A module pass that reports, with a diagnostic naming the rule, a TOSA op
/// that the TOSA pipeline would crash on or silently misread:
/// - an unranked tensor operand or result (upstream's lowering dereferences
///   a ranked type);
/// - a `!quant.*` element type (TOSA 1.0 carries storage integers and its
///   zero points as operands);
/// - a `tosa.rescale` whose result shape differs from its input's (TOSA's
///   RESCALE keeps the shape; a fused add chain would broadcast instead),
///   or DOUBLE_ROUND with scale32 = false (an ERROR_IF of the spec, which
///   no lowering takes).
/// Upstream's tosa-validate would catch these too, but it also requires
/// the module to declare its profiles and extensions, which we do not.
std::unique_ptr<mlir::Pass> createCheckTosaInputPass();

} // namespace quantopt

#endif // LIB_PIPELINES_TOSAINPUT_H
