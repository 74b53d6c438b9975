//===- VectorRequantize.h - requantize in a kernel's epilogue ---*- C++ -*-===//
//
// A `qnt.int_requantize` applied in registers to the i32 accumulator
// vectors of a contraction kernel whose vectors run along the channels (the
// last dimension), so that the kernel stores the narrow codes and no i32
// tensor is written. Target-neutral: the steps are FixedPointBuilder's (the
// generic lowering's, the same bits) on plain vector/arith ops, on fixed
// vectors (AArch64 NEON) or scalable ones with a mask for a partial chunk
// (RISC-V V). Used by qnt-arm-neon and qnt-riscv-v; which requantize ops
// qualify and their tables are EpiloguePlan's.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_KERNELEPILOGUE_VECTORREQUANTIZE_H
#define LIB_CONVERSION_KERNELEPILOGUE_VECTORREQUANTIZE_H

#include "EpiloguePlan.h"

#include "mlir/IR/PatternMatch.h"

#include <optional>

namespace mlir::qnt {

class VectorRequantize : public EpiloguePlan {
public:
  /// EpiloguePlan::get as a VectorRequantize.
  static std::optional<VectorRequantize> plan(IntRequantizeOp op,
                                              int64_t channels);

  /// The requantize that is the only user of `result` (`channels`
  /// channels), planned and with its per-channel tables of `tableSize`
  /// entries built at `b`; nullopt when there is none.
  static std::optional<VectorRequantize>
  fuseSingleUser(OpBuilder &b, Location loc, Value result, int64_t channels,
                 int64_t tableSize);

  /// Replaces `op`, or the requantize `fused` into its kernel, with
  /// `value`. The requantize is replaced in place and `op` left without
  /// users: the walk that applies the kernel patterns has already fetched
  /// the op after `op`, so neither may be erased here (the canonicalizer
  /// after the pass drops `op`).
  static void replaceResult(PatternRewriter &rewriter, Operation *op,
                            const std::optional<VectorRequantize> &fused,
                            Value value);

  /// Builds the per-channel tables of `tableSize` entries (zero past the
  /// channels), before the kernel's loops.
  void materialize(OpBuilder &b, Location loc, int64_t tableSize);

  /// Requantizes `acc` (a 1-D vector of i32, channels [c0, c0 + lanes))
  /// into a vector of codes of the same shape. `mask` (optional) marks the
  /// lanes whose table entries exist; the others read 0.
  Value apply(OpBuilder &b, Location loc, Value acc, Value c0,
              Value mask = Value()) const;

private:
  explicit VectorRequantize(const EpiloguePlan &plan) : EpiloguePlan(plan) {}

  Value param(OpBuilder &b, Location loc, const ChannelParam &p,
              VectorType type, Value c0, Value mask) const;
};

} // namespace mlir::qnt

#endif // LIB_CONVERSION_KERNELEPILOGUE_VECTORREQUANTIZE_H
