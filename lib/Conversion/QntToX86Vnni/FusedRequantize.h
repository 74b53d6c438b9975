//===- FusedRequantize.h - requantize in a kernel's epilogue ----*- C++ -*-===//
//
// Internal to the qnt-x86-vnni patterns: a `qnt.int_requantize` applied in
// registers to the i32 accumulator vectors of a kernel whose vectors run
// along the channels (the last dimension), so that the kernel stores the
// narrow codes and no i32 tensor is written. The steps are those of
// FixedPointBuilder (the generic lowering's), on vectors: the same bits.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_QNTTOX86VNNI_FUSEDREQUANTIZE_H
#define LIB_CONVERSION_QNTTOX86VNNI_FUSEDREQUANTIZE_H

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::qnt::x86vnni {

/// A requantize parameter as one value per lane: a splat, or a table along
/// the channels.
struct ChannelParam {
  Value table;     ///< tensor<size x T>, or null
  Attribute splat; ///< the single value, when table is null
};

class FusedRequantize {
public:
  /// `op` fused after a kernel whose result has `channels` channels in its
  /// last dimension: an i32 input, codes of at most 32 bits, and
  /// per-channel arrays only along that dimension. nullopt otherwise.
  static std::optional<FusedRequantize> plan(IntRequantizeOp op,
                                             int64_t channels);

  /// The single int_requantize consuming `result` that plan() accepts, if
  /// any.
  static IntRequantizeOp singleUser(Value result, int64_t channels);

  /// Builds the per-channel tables, each of `tableSize` entries (zero past
  /// the channels): every vector the kernel reads from them is in bounds.
  void materialize(OpBuilder &b, Location loc, int64_t tableSize);

  /// Requantizes `acc` (vector<L x i32>, channels [c0, c0 + L)) into a
  /// vector<L x storage> of codes.
  Value apply(OpBuilder &b, Location loc, Value acc, Value c0) const;

  IntRequantizeOp getOp() const { return op; }
  /// The element type of the codes.
  Type getStorage() const { return storage; }

private:
  Value param(OpBuilder &b, Location loc, const ChannelParam &p,
              VectorType type, Value c0) const;
  /// The rescaled value of the i32 vector `x` plus `zeroPoint`, in the
  /// even/odd 64-bit lane form: valid when `evenOdd` (and zeroPoint 0 unless
  /// `foldedZeroPoint`).
  Value rescaleEvenOdd(OpBuilder &b, Location loc, Value x, Value multiplier,
                       int64_t zeroPoint, Value c0) const;

  IntRequantizeOp op;
  quantopt::ref::RoundingMode mode = quantopt::ref::RoundingMode::Double;
  Type storage;
  int32_t min = 0, max = 0;
  bool exactF32Bounds = true;
  /// No right shift is negative (no left-shift step).
  bool shiftsNonNegative = false;
  ChannelParam zpIn, multiplier, shift, floatMultiplier, zpOut;
  /// The one right shift of every channel, if they are equal; the least.
  std::optional<int32_t> uniformShift;
  int32_t minShift = 0;
  /// Per-channel shifts that differ (evenOdd): 31 + s, and the rounding
  /// addend in units of 2^30 (2^s - 1 for "double", 2^s for "single"; an
  /// unsigned 32-bit value).
  ChannelParam totalShift, addendUnits;
  /// "double" with a uniform shift >= 1, or "single" with one >= 0: the
  /// product, both roundings and the shift are one 64-bit add and shift
  /// per even/odd lane (rescaleEvenOdd). Set by materialize.
  bool evenOdd = false;
  /// The output zero point (a splat) joins the rounding addend as
  /// zp * 2^(31 + s): the 64-bit sum stays below 2^63 and q + zp fits i32.
  std::optional<int32_t> foldedZeroPoint;
  /// The codes are the saturated narrowing of q + zpOut: the clamp is the
  /// storage type's whole range and q + zpOut cannot wrap in i32.
  bool saturatingNarrow = false;
  /// min - zpOut and max - zpOut per channel ("double" and "single" when
  /// they fit i32; else null).
  ChannelParam loMinusZp, hiMinusZp;
};

} // namespace mlir::qnt::x86vnni

#endif // LIB_CONVERSION_QNTTOX86VNNI_FUSEDREQUANTIZE_H
