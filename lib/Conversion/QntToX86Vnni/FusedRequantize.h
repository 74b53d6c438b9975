//===- FusedRequantize.h - requantize in a kernel's epilogue ----*- C++ -*-===//
//
// Internal to the qnt-x86-vnni patterns: a `qnt.int_requantize` applied in
// registers to the i32 accumulator vectors of a kernel whose vectors run
// along the channels (the last dimension), so that the kernel stores the
// narrow codes and no i32 tensor is written. The steps are those of
// FixedPointBuilder (the generic lowering's), on vectors: the same bits.
// Which requantize ops qualify and their tables are EpiloguePlan's
// (KernelEpilogue, shared with the other targets); the x86 forms (even/odd
// 64-bit lanes, a folded zero point, saturating narrowing) are here.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_QNTTOX86VNNI_FUSEDREQUANTIZE_H
#define LIB_CONVERSION_QNTTOX86VNNI_FUSEDREQUANTIZE_H

#include "../KernelEpilogue/EpiloguePlan.h"

#include <optional>

namespace mlir::qnt::x86vnni {

class FusedRequantize : public EpiloguePlan {
public:
  /// EpiloguePlan::get as a FusedRequantize (with the shifts' summary).
  static std::optional<FusedRequantize> plan(IntRequantizeOp op,
                                             int64_t channels);

  /// Builds the per-channel tables, each of `tableSize` entries (zero past
  /// the channels): every vector the kernel reads from them is in bounds.
  void materialize(OpBuilder &b, Location loc, int64_t tableSize);

  /// Requantizes `acc` (vector<L x i32>, channels [c0, c0 + L)) into a
  /// vector<L x storage> of codes.
  Value apply(OpBuilder &b, Location loc, Value acc, Value c0) const;

private:
  explicit FusedRequantize(const EpiloguePlan &plan) : EpiloguePlan(plan) {}

  Value param(OpBuilder &b, Location loc, const ChannelParam &p,
              VectorType type, Value c0) const;
  /// The rescaled value of the i32 vector `x` plus `zeroPoint`, in the
  /// even/odd 64-bit lane form: valid when `evenOdd` (and zeroPoint 0 unless
  /// `foldedZeroPoint`).
  Value rescaleEvenOdd(OpBuilder &b, Location loc, Value x, Value multiplier,
                       int64_t zeroPoint, Value c0) const;

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
};

} // namespace mlir::qnt::x86vnni

#endif // LIB_CONVERSION_QNTTOX86VNNI_FUSEDREQUANTIZE_H
