//===- TosaInput.cpp - what --tosa-to-llvm accepts as input ---------------===//
//
// See TosaInput.h.
//
//===----------------------------------------------------------------------===//

#include "TosaInput.h"

#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"

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

struct CheckTosaInputPass
    : PassWrapper<CheckTosaInputPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(CheckTosaInputPass)

  StringRef getArgument() const final { return "qnt-check-tosa-input"; }
  StringRef getDescription() const final {
    return "Reject TOSA input that the TOSA pipeline cannot compile";
  }

  void runOnOperation() final {
    WalkResult result = getOperation().walk([](Operation *op) {
      if (!isa_and_present<tosa::TosaDialect>(op->getDialect()))
        return WalkResult::advance();
      if (failed(checkTypes(op)))
        return WalkResult::interrupt();
      if (auto rescale = dyn_cast<tosa::RescaleOp>(op)) {
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
