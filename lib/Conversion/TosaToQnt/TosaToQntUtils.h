//===- TosaToQntUtils.h - helpers of the TOSA to qnt patterns ---*- C++ -*-===//
//
// Reading TOSA's constant operands, building the explicit integer ops with
// TOSA's parameters, and compile-time layout changes of constants.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_CONVERSION_TOSATOQNT_TOSATOQNTUTILS_H
#define QUANTOPT_LIB_CONVERSION_TOSATOQNT_TOSATOQNTUTILS_H

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::qnt::tosa_to_qnt {

/// The `rounding` attribute of the integer ops for `mode`: the one place
/// that spells it.
Attribute getRoundingAttr(Builder &builder, quantopt::ref::RoundingMode mode);

/// The values of a constant integer tensor (tosa.const or arith.constant),
/// sign-extended; nullopt if `value` is not a constant.
std::optional<SmallVector<int64_t>> getConstantInts(Value value);

/// The constant elements behind `value`, if any.
std::optional<DenseIntElementsAttr> getConstantAttr(Value value);

/// Whether `type` is a statically shaped tensor of signless iN, N in
/// `widths`.
bool isStaticSignlessIntTensor(Type type, ArrayRef<unsigned> widths);

/// [min, max] of an N-bit code, unsigned when `isUnsigned`.
std::pair<int64_t, int64_t> getCodeRange(unsigned width, bool isUnsigned);

/// `!quant.uniform<iN:f32, 1.0:zeroPoint>`: TOSA's integer semantics carry
/// no scale, and with scale 1 everywhere the accumulator scale S_X * S_W is
/// 1 as the qnt verifiers require.
quant::UniformQuantizedType getUnitScaleType(MLIRContext *context,
                                             unsigned width,
                                             int64_t zeroPoint);

/// `source` with its dimensions permuted: result dim i is source dim
/// perm[i].
DenseIntElementsAttr transposeConstant(DenseIntElementsAttr source,
                                       ArrayRef<int64_t> perm);

/// Whether sum_k (x - zx)(w - zw) + bias cannot leave i32 for any i8 codes x
/// and w and |bias| <= maxBias, and neither can the folded zero-point
/// correction: the bound the qnt.matmul / qnt.conv2d verifiers enforce.
bool accumulatorFitsI32(int64_t k, int64_t inputZeroPoint,
                        int64_t weightZeroPoint, uint64_t maxBias);

/// The parameters of one qnt.int_requantize.
struct RequantizeParams {
  SmallVector<int32_t> inputZeroPoints, multipliers, shifts, outputZeroPoints;
  int64_t min, max;
  quantopt::ref::RoundingMode rounding;
  int64_t axis = -1;
  bool inputUnsigned = false, outputUnsigned = false;
};

/// Creates qnt.int_requantize (float_multipliers all 1.0: no integer mode
/// reads them).
Value createIntRequantize(OpBuilder &builder, Location loc, Type resultType,
                          Value input, const RequantizeParams &params);

/// An exact identity rescale (multiplier 2^30, shift -1, i.e. M = 1, in
/// mode `single`) from zero point `inputZeroPoint` to `outputZeroPoint`,
/// clamped to [min, max].
RequantizeParams getIdentityParams(int64_t inputZeroPoint,
                                   int64_t outputZeroPoint, int64_t min,
                                   int64_t max);

} // namespace mlir::qnt::tosa_to_qnt

namespace mlir::qnt {
// One populate function per op family; populateTosaToQntConversionPatterns
// adds them all.
void populateTosaContractionToQntPatterns(RewritePatternSet &patterns);
void populateTosaRescaleToQntPatterns(RewritePatternSet &patterns);
void populateTosaPoolToQntPatterns(RewritePatternSet &patterns);
void populateTosaDataMovementToQntPatterns(RewritePatternSet &patterns);
} // namespace mlir::qnt

#endif // QUANTOPT_LIB_CONVERSION_TOSATOQNT_TOSATOQNTUTILS_H
