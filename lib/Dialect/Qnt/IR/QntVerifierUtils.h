//===- QntVerifierUtils.h - rules shared by the qnt op verifiers -*- C++ -*-===//
//
// The bad-input rules of the dialect contract that more than one op checks:
// storage widths, scales and zero points, static shapes, the i32
// accumulator and bias types, and the static overflow bound. Each emits an
// op error that names the operand and the rule.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_DIALECT_QNT_IR_QNTVERIFIERUTILS_H
#define QUANTOPT_LIB_DIALECT_QNT_IR_QNTVERIFIERUTILS_H

#include "QuantOpt/Reference/Kernels.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"

#include <string>

namespace mlir::qnt {

/// Storage widths an operand may use, from the contract's "Storage types".
enum StorageRule { kActivationOrWeight, kIoStorage, kRequantizeInput };

/// "i8 or u8", ... for diagnostics.
StringRef describe(StorageRule rule);
bool allows(StorageRule rule, quant::QuantizedType type);
/// "i8", "u8", "i16", "i32".
std::string storageName(quant::QuantizedType type);

/// Checks one quantized operand or result: f32 expressed type, storage width,
/// positive finite scales, zero points inside the storage range, and per-axis
/// scale counts that match the tensor.
LogicalResult verifyQuantizedValue(Operation *op, StringRef name,
                                   RankedTensorType tensorType,
                                   StorageRule rule);

/// The same, reporting through `emitError` (`[] { return
/// InFlightDiagnostic(); }` checks silently, e.g. before a rewrite creates
/// an op of that type: an empty diagnostic converts to success, so every
/// rule returns failure() itself).
LogicalResult verifyQuantizedValue(function_ref<InFlightDiagnostic()> emitError,
                                   StringRef name, RankedTensorType tensorType,
                                   StorageRule rule);

/// The result shape equals the 'input' shape.
LogicalResult verifySameShape(Operation *op, RankedTensorType input,
                              RankedTensorType output);

/// `name` has rank `rank` and a static shape.
LogicalResult verifyStaticShape(Operation *op, StringRef name,
                                RankedTensorType type, int64_t rank);

/// The i32 accumulator rules shared by matmul and conv2d: result storage i32,
/// zero point 0, scale S_X * S_W (per channel on `channelDim` when the
/// weights are per axis), and the same for the bias on dimension 0.
LogicalResult verifyAccumulatorType(Operation *op, StringRef name,
                                    RankedTensorType tensorType,
                                    int32_t channelDim, double scaleX,
                                    const quantopt::ref::QuantParams &w,
                                    int64_t channels);

/// Static overflow rule: K * max|x - z_x| * max|w - z_w| (+ max|bias| for a
/// constant bias) must fit in i32, and so must the zero-point correction
/// K * |z_x| * max|w - z_w| (+ max|bias|) that qnt-fold-zero-points folds
/// into the bias. Without the operand values, the maxima are taken over every
/// bit pattern of the storage width (a narrow range is not trusted).
LogicalResult verifyAccumulatorBound(Operation *op, int64_t k,
                                     quant::QuantizedType x,
                                     quant::QuantizedType w, Value bias);

/// The same rule for operand values: a verified constant operand holds codes
/// inside its declared storage range (ConstantCodesInRange), and so does the
/// result of qnt.quantize / qnt.requantize (they clamp to it), so their
/// maxima use that range; any other operand may hold every bit pattern of
/// its storage width (docs/Semantics.md, "Accumulator range").
LogicalResult verifyAccumulatorBound(Operation *op, int64_t k, Value x,
                                     Value w, Value bias);

/// Bias: rank 1 with `channels` entries and the accumulator's own type rules.
LogicalResult verifyBias(Operation *op, Value bias, double scaleX,
                         const quantopt::ref::QuantParams &w,
                         int64_t channels);

} // namespace mlir::qnt

#endif // QUANTOPT_LIB_DIALECT_QNT_IR_QNTVERIFIERUTILS_H
