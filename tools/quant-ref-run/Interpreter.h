//===- Interpreter.h - quant-ref-run's interpreter --------------*- C++ -*-===//
//
// The interpreter of quant-ref-run. It links the reference model
// (QuantOpt/Reference) and upstream MLIR only: `qnt` ops are unregistered
// operations in MLIR's generic form, read by name, operands and attributes,
// and every rule the compiler's verifier would check is checked here again
// (a bad module gives a diagnostic naming the attribute or operand, never a
// reference-kernel abort).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_TOOLS_QUANTREFRUN_INTERPRETER_H
#define QUANTOPT_TOOLS_QUANTREFRUN_INTERPRETER_H

#include "QuantOpt/Reference/Kernels.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace quantrefrun {

/// A tensor value: integer codes (read with the signedness of the value's
/// element type) or f32 values.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<int32_t> codes;
  std::vector<float> floats;
};

/// Largest tensor the interpreter materializes (elements); larger shapes are
/// rejected with a diagnostic rather than exhausting memory.
constexpr int64_t kMaxElements = int64_t(1) << 28;

class Interpreter {
public:
  explicit Interpreter(mlir::ModuleOp module, unsigned depth = 0)
      : module(module), depth(depth) {}

  mlir::LogicalResult run(mlir::func::FuncOp func,
                          llvm::ArrayRef<Tensor> args,
                          llvm::SmallVectorImpl<Tensor> &results);

private:
  mlir::LogicalResult step(mlir::Operation *op,
                           llvm::SmallVectorImpl<Tensor> *results,
                           bool &returned);
  mlir::LogicalResult call(mlir::func::CallOp call);
  mlir::LogicalResult print(mlir::func::CallOp call);

  /// `qnt.*` in generic form (QntOps.cpp).
  mlir::LogicalResult evalQnt(mlir::Operation *op);
  mlir::LogicalResult evalQuantize(mlir::Operation *op);
  mlir::LogicalResult evalDequantize(mlir::Operation *op);
  mlir::LogicalResult evalRequantize(mlir::Operation *op);
  mlir::LogicalResult evalConstant(mlir::Operation *op);
  mlir::LogicalResult evalMatmul(mlir::Operation *op);
  mlir::LogicalResult evalConv2D(mlir::Operation *op);
  mlir::LogicalResult evalAdd(mlir::Operation *op);
  mlir::LogicalResult evalPool2D(mlir::Operation *op, bool isMax);
  mlir::LogicalResult evalConcat(mlir::Operation *op);
  /// Runtime-scale ops (DynamicOps.cpp).
  mlir::LogicalResult evalDequantizeDynamic(mlir::Operation *op);
  mlir::LogicalResult evalQuantizeDynamic(mlir::Operation *op);
  mlir::LogicalResult evalDynamicQuantize(mlir::Operation *op);

  /// Upstream ops other than func (TensorOps.cpp); sets `handled` when `op`
  /// is one of them.
  mlir::LogicalResult evalUpstream(mlir::Operation *op, bool &handled);

  /// The value of `v`; emits an error at `user` if it has none.
  const Tensor *lookup(mlir::Operation *user, mlir::Value v);
  void set(mlir::Value v, Tensor t) { values[v] = std::move(t); }

  mlir::ModuleOp module;
  unsigned depth;
  llvm::DenseMap<mlir::Value, Tensor> values;
};

//===----------------------------------------------------------------------===//
// Checked readers of types and attributes (Support.cpp)
//===----------------------------------------------------------------------===//

/// Static shape of a ranked tensor or memref value, at most kMaxElements
/// elements. `what` names the operand or result in the diagnostic.
mlir::FailureOr<std::vector<int64_t>>
readShape(mlir::Operation *op, llvm::StringRef what, mlir::Type type);

/// Element count of a shape already checked by readShape.
int64_t numElements(llvm::ArrayRef<int64_t> shape);

/// Quantization parameters of a tensor of `!quant.uniform` elements (per
/// tensor or per axis), read through the upstream quant type API and checked:
/// positive finite scales, zero points in the storage range, a per-axis
/// dimension inside the rank with one scale per slice.
mlir::FailureOr<quantopt::ref::QuantParams>
readQuantParams(mlir::Operation *op, llvm::StringRef what, mlir::Type type);

/// Storage width (bits) and signedness of a quantized tensor type, or of a
/// plain integer tensor type (signless reads as signed).
struct Storage {
  unsigned width;
  bool isSigned;
};
mlir::FailureOr<Storage> readStorage(mlir::Operation *op, llvm::StringRef what,
                                     mlir::Type type);

/// The attribute `name` of a generic-form op, from its properties or its
/// attribute dictionary; null when absent.
mlir::Attribute getGenericAttr(mlir::Operation *op, llvm::StringRef name);

/// Fails, naming the first attribute of `op` that is not in `allowed`.
mlir::LogicalResult checkAttributeNames(mlir::Operation *op,
                                        llvm::ArrayRef<llvm::StringRef> allowed);

/// An optional `array<i64: ...>` attribute with exactly `size` values (the
/// default when absent), each >= `minimum`.
mlir::FailureOr<std::vector<int64_t>>
readI64Array(mlir::Operation *op, llvm::StringRef name, size_t size,
             std::vector<int64_t> defaultValue, int64_t minimum);

/// The `rounding` attribute (a string; "double" when absent).
mlir::FailureOr<quantopt::ref::RoundingMode> readRounding(mlir::Operation *op);

/// The optional `clamp = array<i64: lo, hi>` within [storageMin, storageMax].
mlir::FailureOr<std::optional<std::pair<int32_t, int32_t>>>
readClamp(mlir::Operation *op, const quantopt::ref::QuantParams &out);

} // namespace quantrefrun

#endif // QUANTOPT_TOOLS_QUANTREFRUN_INTERPRETER_H
