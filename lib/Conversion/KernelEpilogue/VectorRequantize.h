//===- VectorRequantize.h - requantize in a kernel's epilogue ---*- C++ -*-===//
//
// A `qnt.int_requantize` applied in registers to the i32 accumulator
// vectors of a contraction kernel whose vectors run along the channels (the
// last dimension), so that the kernel stores the narrow codes and no i32
// tensor is written. Target-neutral: the steps are FixedPointBuilder's (the
// generic lowering's, the same bits) on plain vector/arith ops, on fixed
// vectors (AArch64 NEON) or scalable ones with a mask for a partial chunk
// (RISC-V V). Used by qnt-arm-neon and qnt-riscv-v.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_KERNELEPILOGUE_VECTORREQUANTIZE_H
#define LIB_CONVERSION_KERNELEPILOGUE_VECTORREQUANTIZE_H

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace mlir::qnt {

class VectorRequantize {
public:
  /// `op` applied after a kernel whose result has `channels` channels in
  /// its last dimension: an i32 input, codes of at most 32 bits, and
  /// per-channel arrays only along that dimension. nullopt otherwise.
  static std::optional<VectorRequantize> plan(IntRequantizeOp op,
                                              int64_t channels);

  /// The single int_requantize consuming `result` that plan() accepts, if
  /// any.
  static IntRequantizeOp singleUser(Value result, int64_t channels);

  /// Builds the per-channel tables of `tableSize` entries (zero past the
  /// channels), before the kernel's loops.
  void materialize(OpBuilder &b, Location loc, int64_t tableSize);

  /// Requantizes `acc` (a 1-D vector of i32, channels [c0, c0 + lanes))
  /// into a vector of codes of the same shape. `mask` (optional) marks the
  /// lanes whose table entries exist; the others read 0.
  Value apply(OpBuilder &b, Location loc, Value acc, Value c0,
              Value mask = Value()) const;

  IntRequantizeOp getOp() const { return op; }
  /// The element type of the codes.
  Type getStorage() const { return storage; }

private:
  /// A parameter as one value per lane: a splat, or a table along the
  /// channels.
  struct ChannelParam {
    Value table;     ///< tensor<tableSize x T>, or null
    Attribute splat; ///< the single value, when table is null
  };

  Value param(OpBuilder &b, Location loc, const ChannelParam &p,
              VectorType type, Value c0, Value mask) const;
  template <typename T>
  static ChannelParam makeParam(OpBuilder &b, Location loc,
                                ArrayRef<T> values, int64_t tableSize,
                                Type elt);

  IntRequantizeOp op;
  quantopt::ref::RoundingMode mode = quantopt::ref::RoundingMode::Double;
  Type storage;
  int32_t min = 0, max = 0;
  bool exactF32Bounds = true;
  /// No right shift is negative (no left-shift step).
  bool shiftsNonNegative = false;
  ChannelParam zpIn, multiplier, shift, floatMultiplier, zpOut;
  /// min - zpOut and max - zpOut per channel ("double" mode when they fit
  /// i32; else null).
  ChannelParam loMinusZp, hiMinusZp;
};

} // namespace mlir::qnt

#endif // LIB_CONVERSION_KERNELEPILOGUE_VECTORREQUANTIZE_H
