//===- FusedElementwise.h - elementwise body in an epilogue -----*- C++ -*-===//
//
// Internal to the qnt-x86-vnni patterns: the all-parallel `linalg.generic`
// that consumes a matmul's i32 accumulators (the fused dequantize + GELU of
// qnt-dynamic-scales-to-linalg, for instance), applied in registers to the
// kernel's accumulator vectors before the store. The kernel then writes the
// generic's result and no i32 tensor. Each scalar op of the body becomes the
// same op on vector<16 x T>, lane by lane: the same bits as the loop it
// replaces, except where LLVM promises none on either side (a NaN's payload
// and sign, e.g. a signaling NaN through minnumf folded at compile time;
// values that are poison, such as fptosi of a NaN).
//
//===----------------------------------------------------------------------===//

#ifndef LIB_CONVERSION_QNTTOX86VNNI_FUSEDELEMENTWISE_H
#define LIB_CONVERSION_QNTTOX86VNNI_FUSEDELEMENTWISE_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"

#include <optional>

namespace mlir::qnt::x86vnni {

class FusedElementwise {
public:
  /// The generic the kernel computing `acc` (a rank-2 i32 tensor) can apply
  /// in its epilogue, if `acc` has one and it qualifies:
  ///   * `acc` has no other use, and is an input of the generic (in the
  ///     same block) with the identity map;
  ///   * two parallel loops, one result with the identity map, whose
  ///     initial value the body does not read;
  ///   * tensors of 8, 16, 32 or 64-bit elements (a vector of i1 is
  ///     bit-packed, a tensor of i1 is not);
  ///   * every other input is read at loop dimensions in order, with the
  ///     column dimension (if any) last, or at constants: per element, per
  ///     row, per column or one value;
  ///   * the body is elementwise, side-effect-free ops on integer and float
  ///     scalars, with no integer division, remainder or math.ipowi (the
  ///     lanes past a partial tile's columns hold padding, which must not
  ///     trap), no math.fpowi (LLVM's powi wants a scalar exponent), and no
  ///     linalg.index.
  static std::optional<FusedElementwise> plan(Value acc);

  linalg::GenericOp getOp() const { return op; }
  Type getResultElementType() const;

  /// The body on the accumulators `acc` (vector<16 x i32>) of row `row` and
  /// columns [col, col + 16), of which `len` are real.
  Value apply(OpBuilder &b, Location loc, Value acc, Value row, Value col,
              int64_t len) const;

private:
  FusedElementwise(linalg::GenericOp op, unsigned accInput)
      : op(op), accInput(accInput) {}

  linalg::GenericOp op;
  unsigned accInput;
};

} // namespace mlir::qnt::x86vnni

#endif // LIB_CONVERSION_QNTTOX86VNNI_FUSEDELEMENTWISE_H
