//===- TosaInput.cpp - what --tosa-to-llvm accepts as input ---------------===//
//
// See TosaInput.h.
//
//===----------------------------------------------------------------------===//

#include "TosaInput.h"
#include "PipelineInput.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;

namespace {

/// The first operand or result of `op` that breaks a type rule, with the
/// rule's message; success when none does.
LogicalResult checkTypes(Operation *op) {
  auto check = [&](Type type, StringRef what,
                   unsigned index) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped)
      return success();
    if (!shaped.hasRank())
      return op->emitOpError()
             << what << " #" << index << " is unranked (" << type
             << "); the TOSA pipeline compiles ranked tensors only";
    if (isa<quant::QuantizedType>(shaped.getElementType()))
      return op->emitOpError()
             << what << " #" << index << " has the quantized element type "
             << shaped.getElementType()
             << "; TOSA 1.0 tensors hold the storage integers (i8, i16, "
                "i32) and take their zero points as operands";
    if (shaped.getElementType().isUnsignedInteger())
      return op->emitOpError()
             << what << " #" << index << " has the unsigned element type "
             << shaped.getElementType()
             << "; TOSA 1.0 integers are signless (RESCALE's input_unsigned "
                "/ output_unsigned read them as unsigned)";
    return success();
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", index)))
      return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", index)))
      return failure();
  return success();
}

/// The largest kernel, stride and padding of TOSA 1.0's level 8K (its
/// MAX_KERNEL and MAX_STRIDE; upstream's tosa-validate checks the same by
/// default). The pool loops walk the whole window: a 2^40 kernel ran for
/// minutes.
constexpr int64_t kLevel8kMaxKernel = 8192;

LogicalResult checkPoolLevel(Operation *op, ArrayRef<int64_t> kernel,
                             ArrayRef<int64_t> stride, ArrayRef<int64_t> pad) {
  auto above = [](ArrayRef<int64_t> values) {
    return llvm::any_of(values,
                        [](int64_t v) { return v > kLevel8kMaxKernel; });
  };
  if (above(kernel) || above(stride) || above(pad))
    return op->emitOpError("kernel, stride or padding above ")
           << kLevel8kMaxKernel
           << ", TOSA 1.0's level 8K limit (MAX_KERNEL, MAX_STRIDE)";
  return success();
}

/// What RESCALE's lowering takes for granted: TOSA 1.0's types, a constant
/// shift inside apply_scale's [2, 62], and parameters it can read.
LogicalResult checkRescale(tosa::RescaleOp rescale) {
  Type in = getElementTypeOrSelf(rescale.getInput().getType());
  Type out = getElementTypeOrSelf(rescale.getType());
  auto isInt = [](Type t, std::initializer_list<unsigned> widths) {
    return t.isSignlessInteger() &&
           llvm::is_contained(widths, t.getIntOrFloatBitWidth());
  };
  if (!isInt(in, {8, 16, 32, 48}) || !isInt(out, {8, 16, 32}))
    return rescale.emitOpError("rescales ")
           << in << " to " << out
           << "; TOSA 1.0's RESCALE takes i8, i16, i32 or i48 to i8, i16 or "
              "i32";
  // Upstream's lowering reads a dense_resource parameter as an empty
  // tensor, out of bounds: garbage that changes from run to run.
  for (auto [name, value] :
       {std::pair<StringRef, Value>{"multiplier", rescale.getMultiplier()},
        {"shift", rescale.getShift()},
        {"input_zp", rescale.getInputZp()},
        {"output_zp", rescale.getOutputZp()}}) {
    Attribute attr;
    if (matchPattern(value, m_Constant(&attr)) &&
        isa<DenseResourceElementsAttr>(attr))
      return rescale.emitOpError()
             << name << " is a dense_resource constant, which the TOSA "
             << "lowering cannot read; give it as dense<...>";
  }
  DenseIntElementsAttr shifts;
  if (matchPattern(rescale.getShift(), m_Constant(&shifts)))
    for (const APInt &shift : shifts.getValues<APInt>())
      if (shift.getSExtValue() < 2 || shift.getSExtValue() > 62)
        return rescale.emitOpError("shift ")
               << shift.getSExtValue()
               << " is outside [2, 62], which TOSA's apply_scale requires";
  return success();
}

/// Upstream's lowering of the integer contractions and of avg_pool2d reads
/// their zero points at compile time; a run-time one failed to legalize
/// with no reason given.
LogicalResult checkConstantZeroPoints(Operation *op) {
  auto require = [&](FailureOr<int64_t> zp, StringRef name) -> LogicalResult {
    if (succeeded(zp))
      return success();
    return op->emitOpError()
           << name << " must be a constant (tosa.const or arith.constant); "
           << "the TOSA pipeline folds zero points at compile time";
  };
  auto pair = [&](auto typed, StringRef first,
                  StringRef second) -> LogicalResult {
    if (failed(require(typed.getInputZeroPoint(), first)))
      return failure();
    return require(typed.getWeightZeroPoint(), second);
  };
  if (auto conv = dyn_cast<tosa::Conv2DOp>(op))
    return pair(conv, "input_zp", "weight_zp");
  if (auto conv = dyn_cast<tosa::DepthwiseConv2DOp>(op))
    return pair(conv, "input_zp", "weight_zp");
  if (auto conv = dyn_cast<tosa::TransposeConv2DOp>(op))
    return pair(conv, "input_zp", "weight_zp");
  if (auto matmul = dyn_cast<tosa::MatMulOp>(op)) {
    if (failed(require(matmul.getAZeroPoint(), "a_zp")))
      return failure();
    return require(matmul.getBZeroPoint(), "b_zp");
  }
  if (auto pool = dyn_cast<tosa::AvgPool2dOp>(op)) {
    if (failed(require(pool.getInputZeroPoint(), "input_zp")))
      return failure();
    return require(pool.getOutputZeroPoint(), "output_zp");
  }
  return success();
}

struct CheckTosaInputPass
    : PassWrapper<CheckTosaInputPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckTosaInputPass)

  StringRef getArgument() const final { return "qnt-check-tosa-input"; }
  StringRef getDescription() const final {
    return "Reject TOSA input that the TOSA pipeline cannot compile";
  }

  void runOnOperation() final {
    if (failed(quantopt::verifyResourceConstants(getOperation())))
      return signalPassFailure();
    WalkResult result = getOperation().walk([](Operation *op) {
      if (!isa_and_present<tosa::TosaDialect>(op->getDialect()))
        return WalkResult::advance();
      if (failed(checkTypes(op)))
        return WalkResult::interrupt();
      if (auto pool = dyn_cast<tosa::MaxPool2dOp>(op))
        if (failed(checkPoolLevel(op, pool.getKernel(), pool.getStride(),
                                  pool.getPad())))
          return WalkResult::interrupt();
      if (auto pool = dyn_cast<tosa::AvgPool2dOp>(op))
        if (failed(checkPoolLevel(op, pool.getKernel(), pool.getStride(),
                                  pool.getPad())))
          return WalkResult::interrupt();
      if (failed(checkConstantZeroPoints(op)))
        return WalkResult::interrupt();
      if (isa<tosa::IfOp, tosa::WhileOp>(op)) {
        op->emitOpError("is TOSA control flow, which the TOSA pipeline does "
                        "not compile; use scf.if / scf.while around TOSA ops");
        return WalkResult::interrupt();
      }
      if (auto rescale = dyn_cast<tosa::RescaleOp>(op)) {
        if (failed(checkRescale(rescale)))
          return WalkResult::interrupt();
        auto input = cast<ShapedType>(rescale.getInput().getType());
        auto output = cast<ShapedType>(rescale.getType());
        if (input.getShape() != output.getShape()) {
          rescale.emitOpError("result shape ")
              << output << " differs from the input's " << input
              << "; TOSA's RESCALE keeps the shape";
          return WalkResult::interrupt();
        }
        if (!rescale.getScale32() &&
            rescale.getRoundingMode() == tosa::RoundingMode::DOUBLE_ROUND) {
          rescale.emitOpError("DOUBLE_ROUND needs scale32 = true (an ERROR_IF "
                              "of TOSA's RESCALE)");
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace

std::unique_ptr<Pass> quantopt::createCheckTosaInputPass() {
  return std::make_unique<CheckTosaInputPass>();
}
