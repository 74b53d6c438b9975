//===- Depthwise.h - depthwise conv along channels on x86 -------*- C++ -*-===//
//
// Internal to the qnt-x86-vnni patterns: what the VNNI conv pattern needs to
// know about the depthwise kernel that takes precedence over it.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_QNTTOX86VNNI_DEPTHWISE_H
#define LIB_CONVERSION_QNTTOX86VNNI_DEPTHWISE_H

#include "QuantOpt/Conversion/QntToX86Vnni/QntToX86Vnni.h"
#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

namespace mlir::qnt::x86vnni {

/// A depthwise conv whose single user is an int_requantize the depthwise
/// kernel fuses: the requantize pattern rewrites both.
bool isFusedDepthwise(IntConv2DOp conv);

} // namespace mlir::qnt::x86vnni

#endif // LIB_CONVERSION_QNTTOX86VNNI_DEPTHWISE_H
