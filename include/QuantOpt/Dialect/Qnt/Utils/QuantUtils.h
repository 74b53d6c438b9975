//===- QuantUtils.h - quant types to plain integer parameters ---*- C++ -*-===//
//
// The bridge between upstream `!quant.uniform` types and the MLIR-free
// reference model: every pass, folder and verifier reads quantization
// parameters through these helpers, so they agree on per-axis layout,
// storage ranges and code signedness.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_UTILS_QUANTUTILS_H
#define QUANTOPT_DIALECT_QNT_UTILS_QUANTUTILS_H

#include "QuantOpt/Reference/Kernels.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

#include <limits>
#include <optional>
#include <vector>

namespace mlir::qnt {

/// Returns the uniform quantized element type of `type` (a shaped type), or
/// null if it has none (e.g. an f32 tensor or a sub-channel type).
quant::QuantizedType getUniformElementType(Type type);

/// True for `!quant.uniform<...:f32:axis, {...}>`.
bool isPerAxis(quant::QuantizedType type);

/// Scales, zero points, axis and storage range as plain integers. Zero points
/// are narrowed to int32: only call this on types whose zero points were
/// checked against the storage range (every verified qnt op's types).
quantopt::ref::QuantParams getQuantParams(quant::QuantizedType type);

/// The zero points exactly as the type stores them (int64, one per channel
/// or a single one), for checks that must run before anything narrows them.
SmallVector<int64_t> getZeroPoints(quant::QuantizedType type);

/// Largest |code - zero point| that a value of `type` can take, over all
/// channels: the factor the static accumulator bound multiplies by.
int64_t getMaxAbsOffset(quant::QuantizedType type);

/// Largest |code - zero point| over every bit pattern of the storage width
/// (e.g. [-128, 127] for `i8<-1:1>`): what a value that is not a verified
/// constant (a function argument, a `quant.scast` of run-time data) can hold.
int64_t getMaxAbsOffsetOfStorageBits(quant::QuantizedType type);

/// Scales written in MLIR text lose digits, so an accumulator scale is
/// compared with S_X * S_W up to this relative tolerance.
constexpr double kScaleRelativeTolerance = 1e-5;
/// Whether `actual` is `expected` up to kScaleRelativeTolerance, or both
/// round to the same f32: a product of f32 scales stored as f32 (an ONNX
/// bias scale) keeps only a few bits when it is subnormal.
bool scalesMatch(double actual, double expected);

/// The integer type in which constant codes of `type` are stored in
/// attributes: signless for signed storage, unsigned (e.g. `ui8`) for
/// unsigned storage, so that printed numbers are the codes themselves.
IntegerType getCodeType(quant::QuantizedType type);

/// One code of a constant, its bits read with the signedness of `type`.
int64_t readCode(const APInt &bits, quant::QuantizedType type);

/// Reads the codes of a constant (any integer element type of the storage
/// width), interpreting the bits with the signedness of `type`. This expands
/// a splat to every element: callers that may see large constants handle
/// `attr.isSplat()` first (see getCodeRange, buildSplatCodesAttr).
std::vector<int32_t> readCodes(DenseIntElementsAttr attr,
                               quant::QuantizedType type);

/// Smallest and largest code of a constant, without materializing it (one
/// read for a splat). An empty constant gives {0, 0}.
struct CodeRange {
  int64_t min = 0, max = 0;
};
CodeRange getCodeRange(DenseIntElementsAttr attr, quant::QuantizedType type);

/// Builds the attribute that `qnt.constant` holds for `codes`.
DenseIntElementsAttr buildCodesAttr(ArrayRef<int64_t> shape,
                                    quant::QuantizedType type,
                                    ArrayRef<int32_t> codes);

/// The splat attribute of `code` in the layout `qnt.constant` holds.
DenseIntElementsAttr buildSplatCodesAttr(ArrayRef<int64_t> shape,
                                         quant::QuantizedType type,
                                         int32_t code);

/// Matches a constant quantized tensor: `qnt.constant`, or `quant.scast` of
/// an integer constant. Returns its codes attribute.
std::optional<DenseIntElementsAttr> matchQuantizedConstant(Value value);

/// The smallest and largest code of a constant of `type`: a qnt.constant or
/// quant.scast of a dense constant, of a sparse one (its stored codes, and 0
/// where an element is not stored) or of a dense_resource blob (read when
/// present); nullopt for anything else, or when empty. Never expands a
/// splat or a sparse constant.
std::optional<CodeRange> getConstantCodeRange(Value value,
                                              quant::QuantizedType type);

/// Largest |code| of a constant bias (getConstantCodeRange); 0 for no bias
/// or one known only at run time.
uint64_t getMaxConstantBias(Value bias);

/// The static accumulator bound of matmul / conv2d, K * maxX * maxW +
/// maxBias (docs/Semantics.md, "Accumulator range"); nullopt when it does
/// not fit 64 bits.
std::optional<uint64_t> getAccumulatorBound(int64_t k, uint64_t maxX,
                                            uint64_t maxW, uint64_t maxBias);

/// The data of a dense_resource constant when its blob is present and holds
/// exactly its type's elements (ceil(width / 8) bytes each, little endian);
/// nullopt otherwise (a missing or wrong-size blob is --qnt-to-llvm's input
/// rule, lib/Pipelines/PipelineInput.cpp).
std::optional<ArrayRef<char>>
getResourceElementData(DenseResourceElementsAttr resource);

/// The bits of element `index` of such data, of `bitWidth` bits.
APInt readResourceElement(ArrayRef<char> data, unsigned bitWidth,
                          int64_t index);

/// The elements of a constant integer tensor of `bitWidth`-bit elements
/// (dense or dense_resource), sign- or zero-extended; nullopt otherwise, and
/// for a splat of more than `maxSplatElements` elements (which callers
/// that would expand it leave alone).
std::optional<std::vector<int64_t>>
getConstantInts(Value value, unsigned bitWidth, bool isUnsigned,
                int64_t maxSplatElements = std::numeric_limits<int64_t>::max());

} // namespace mlir::qnt

#endif // QUANTOPT_DIALECT_QNT_UTILS_QUANTUTILS_H
