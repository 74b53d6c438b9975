//===- EpiloguePlan.h - what a fused requantize epilogue needs --*- C++ -*-===//
//
// The target-neutral part of fusing a `qnt.int_requantize` into the
// epilogue of a contraction kernel whose output channels are the last
// dimension: which requantize ops qualify, their parameters as plain values,
// the parameters as per-channel tables or splats, and the requantize steps
// that do not depend on the target. Every kernel layer builds on it:
// VectorRequantize (AArch64 NEON, RISC-V V), the x86 FusedRequantize
// (AVX-512 / AVX2) and the AMX epilogue, each adding its own reads of the
// tables (a ParamReader) and its own forms of the arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_KERNELEPILOGUE_EPILOGUEPLAN_H
#define LIB_CONVERSION_KERNELEPILOGUE_EPILOGUEPLAN_H

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::qnt {

class FixedPointBuilder;
struct RescaleOperands;

/// A requantize parameter as one value per lane: a splat, or a table along
/// the channels.
struct ChannelParam {
  Value table;     ///< tensor<tableSize x T>, or null
  TypedAttr splat; ///< the single value, when table is null
};

/// An attribute array of a requantize (one entry, or one per channel) as a
/// ChannelParam: a constant tensor<tableSize x T> (i32 or f32) zero past the
/// entries. With `splatEqualEntries`, equal entries (e.g. per-channel input
/// zero points, all 0) are a splat too, which folds; else only a single
/// entry is.
template <typename T>
ChannelParam makeChannelParam(OpBuilder &b, Location loc, ArrayRef<T> values,
                              int64_t tableSize, bool splatEqualEntries = true);

/// A requantize a kernel can apply to its accumulators, and its parameters.
struct EpiloguePlan {
  /// `op` applied after a kernel whose result has `channels` channels in
  /// its last dimension: an i32 input, codes of at most 32 bits, rank > 0,
  /// and per-channel arrays only along that dimension, each of 1 or
  /// `channels` entries. nullopt otherwise.
  static std::optional<EpiloguePlan> get(IntRequantizeOp op, int64_t channels);

  /// The int_requantize that is the only user of `result`, if any (not
  /// checked against get()).
  static IntRequantizeOp soleRequantizeUser(Value result);

  /// soleRequantizeUser(result) when get() accepts it for `channels`.
  static IntRequantizeOp singleUser(Value result, int64_t channels);

  /// Builds zpIn, zpOut and the multipliers and shifts (or the float
  /// multipliers) of the rounding mode, before the kernel's loops.
  void materializeParams(OpBuilder &b, Location loc, int64_t tableSize,
                         bool splatEqualEntries = true);

  /// loMinusZp and hiMinusZp, when they all fit i32 (then true); else
  /// false and both stay null.
  bool materializeBoundsMinusZeroPoint(OpBuilder &b, Location loc,
                                       int64_t tableSize);

  /// A parameter as a vector of `type`: the kernel's read of its table at
  /// the channels of the accumulators, or the splat.
  using ParamReader =
      function_ref<Value(const ChannelParam &p, VectorType type)>;

  // The steps of every epilogue on a vector `x` of i32 accumulators, those
  // of FixedPointBuilder (the generic lowering's): the same bits.

  /// x - zpIn, saturated to i32 as in the generic lowering; x when zpIn is
  /// a splat 0.
  Value subtractInputZeroPoint(OpBuilder &b, Location loc,
                               FixedPointBuilder &fp, Value x,
                               ParamReader read) const;
  /// The multipliers and shifts (with their sign, known here), or the float
  /// multipliers, of the rounding mode, as vectors shaped like `i32Type`.
  RescaleOperands readRescaleOperands(OpBuilder &b, VectorType i32Type,
                                      ParamReader read) const;
  /// clamp(rescale(x) + zp, min, max) in i32. For "double" with
  /// loMinusZp / hiMinusZp, the clamp and add are in i32:
  /// clamp(h + z, lo, hi) = clamp(h, lo - z, hi - z) + z, exactly.
  Value rescaleAndClamp(OpBuilder &b, Location loc, FixedPointBuilder &fp,
                        Value x, const RescaleOperands &rescale, Value zp,
                        ParamReader read) const;
  /// The i32 vector `codes` truncated to the storage type.
  Value narrowToStorage(OpBuilder &b, Location loc, Value codes) const;

  IntRequantizeOp getOp() const { return op; }
  /// The element type of the codes.
  Type getStorage() const { return storage; }

  IntRequantizeOp op;
  quantopt::ref::RoundingMode mode = quantopt::ref::RoundingMode::Double;
  Type storage; ///< element type of the codes
  int32_t min = 0, max = 0;
  bool exactF32Bounds = true;
  /// No right shift is negative (no left-shift step).
  bool shiftsNonNegative = false;
  /// Set by materializeParams.
  ChannelParam zpIn, multiplier, shift, floatMultiplier, zpOut;
  /// min - zpOut and max - zpOut per channel, set by
  /// materializeBoundsMinusZeroPoint (each target says for which modes);
  /// else null.
  ChannelParam loMinusZp, hiMinusZp;
};

} // namespace mlir::qnt

#endif // LIB_CONVERSION_KERNELEPILOGUE_EPILOGUEPLAN_H
