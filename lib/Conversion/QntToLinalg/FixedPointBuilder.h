//===- FixedPointBuilder.h - fixed-point rounding as arith ------*- C++ -*-===//
//
// Emits the integer rounding steps of QuantOpt/Reference/FixedPoint.h as
// arith/math ops, one method per reference function and under the same name,
// so that the generated code and the reference model agree bit for bit and a
// reader can check one against the other line by line.
//
// Values are signless: i32 stands for int32_t, i64 for int64_t, f32 for
// float. Every op is created with createOrFold, so per-tensor parameters
// (constants) fold away at compile time and only the per-element work stays.
// Given a vector shape, the builder emits the same steps on vectors of that
// shape (constants become splats), which the x86 kernels use for their fused
// epilogues: one definition of the rounding for every lowering.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_CONVERSION_QNTTOLINALG_FIXEDPOINTBUILDER_H
#define QUANTOPT_LIB_CONVERSION_QNTTOLINALG_FIXEDPOINTBUILDER_H

#include "QuantOpt/Reference/FixedPoint.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::qnt {

/// The per-element parameters of a rescale: quantopt::ref::Rescale as values.
/// `multiplier` / `rightShift` (i32) drive the integer modes,
/// `floatMultiplier` (f32) mode Float; the other may be null.
struct RescaleOperands {
  Value multiplier;
  Value rightShift;
  Value floatMultiplier;
  /// The caller knows every rightShift is >= 0 (e.g. a per-channel table
  /// checked at compile time): no left-shift step is emitted.
  bool rightShiftNonNegative = false;
};

class FixedPointBuilder {
public:
  FixedPointBuilder(OpBuilder &builder, Location loc) : b(loc, builder) {}
  /// Every value (operands, constants, results) is a vector of `shape`.
  FixedPointBuilder(OpBuilder &builder, Location loc, ArrayRef<int64_t> shape)
      : b(loc, builder), shape(shape) {}
  /// Every value is a vector of `like`'s shape, scalable dimensions
  /// included (the RISC-V V kernels' epilogue).
  FixedPointBuilder(OpBuilder &builder, Location loc, VectorType like)
      : b(loc, builder), shape(like.getShape()),
        scalableDims(like.getScalableDims()) {}

  Value i32Const(int64_t value);
  Value i64Const(int64_t value);
  Value f32Const(float value);

  /// detail::saturateToInt32: i64 -> i32.
  Value saturateToInt32(Value v);

  /// saturatingRoundingDoublingHighMul: (i32, i32) -> i32. On scalars
  /// and vectors that are not 1-D of even length, `referenceForm` emits the
  /// reference's nudge select and truncating division instead of the floor
  /// shift (the same bits; see the definition for when it matters).
  Value saturatingRoundingDoublingHighMul(Value a, Value bv,
                                          bool referenceForm = false);

  /// roundingDivideByPOT: (i32 x, i32 exponent) -> i32.
  Value roundingDivideByPOT(Value x, Value exponent);

  /// detail::roundingShiftRight: (i64 p, i64 shift) -> i64, shift in [1, 62].
  Value roundingShiftRight(Value p, Value shift,
                           quantopt::ref::RoundingMode mode);

  /// multiplyByQuantizedMultiplier in an integer mode: (i32 x, i32 multiplier,
  /// i32 rightShift) -> i64. rightShift must lie in [-30, 31], the range the
  /// int_requantize verifier enforces (and quantizeMultiplier yields); the
  /// reference's branches for shifts beyond it are not emitted.
  /// `rightShiftNonNegative`: as in RescaleOperands.
  Value multiplyByQuantizedMultiplier(Value x, Value multiplier,
                                      Value rightShift,
                                      quantopt::ref::RoundingMode mode,
                                      bool rightShiftNonNegative = false);

  /// Whether lo - z and hi - z are exact in f32 (|.| <= 2^24) for every
  /// zero point z: then roundAddZeroPointClamp can clamp in f32. Always so
  /// for 8- and 16-bit storage with in-range zero points.
  static bool boundsExactInF32(int32_t lo, int32_t hi,
                               ArrayRef<int32_t> zeroPoints);

  /// detail::roundAddZeroPointClamp: (f32 v, i32 zeroPoint, i32 lo, i32 hi)
  /// -> i32. `exactF32Bounds` is boundsExactInF32 of the operands' values.
  Value roundAddZeroPointClamp(Value v, Value zeroPoint, Value lo, Value hi,
                               bool exactF32Bounds);

  /// applyRescale: (i32 x, i32 zpOut, i32 lo, i32 hi) -> i32.
  /// `exactF32Bounds` as for roundAddZeroPointClamp (mode Float only).
  Value applyRescale(quantopt::ref::RoundingMode mode,
                     const RescaleOperands &rescale, Value x, Value zpOut,
                     Value lo, Value hi, bool exactF32Bounds);

  /// quantizeValue: (f32 x, f32 scale, i32 zeroPoint, i32 qmin, i32 qmax)
  /// -> i32. `exactF32Bounds` as for roundAddZeroPointClamp.
  Value quantizeValue(Value x, Value scale, Value zeroPoint, Value qmin,
                      Value qmax, bool exactF32Bounds);

  /// dequantizeValue: (code q, f32 scale, i32 zeroPoint) -> f32. The code is
  /// converted from its storage width directly, as unsigned when `isUnsigned`.
  Value dequantizeValue(Value q, bool isUnsigned, Value scale, Value zeroPoint);

private:
  template <typename OpTy, typename... Args> Value fold(Args &&...args) {
    return b.createOrFold<OpTy>(std::forward<Args>(args)...);
  }
  Value clampInt(Value v, Value lo, Value hi);
  /// saturatingRoundingDoublingHighMul on a 1-D vector of even length.
  Value highMulEvenOdd(Value a, Value bv);
  /// `scalar`, or a vector of it when the builder has a shape.
  Type typeOf(Type scalar) const;
  Value constant(Type scalar, TypedAttr value);

  ImplicitLocOpBuilder b;
  SmallVector<int64_t> shape;
  SmallVector<bool> scalableDims;
};

} // namespace mlir::qnt

#endif // QUANTOPT_LIB_CONVERSION_QNTTOLINALG_FIXEDPOINTBUILDER_H
