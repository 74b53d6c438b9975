//===- IntegerReduce.cpp - ReduceSum / Max / Min / Prod of integers -------===//
//
// Reductions of integer tensors: an LLM's sequence lengths (ReduceSum of
// the int64 attention mask, then Sub 1 and Cast: GroupQueryAttention's
// seqlens_k as ONNX Runtime's model builder computes it) and shape
// arithmetic (ReduceProd of a Shape slice). In the element type, as numpy
// and ONNX Runtime compute them: sums and products wrap around, Max / Min
// compare signed or unsigned by the type. Compile-time data folds (at most
// kMaxFoldedElements); run-time integers reduce in one linalg.generic per
// axis.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
enum class Reduction { Sum, Prod, Max, Min };

} // namespace

LogicalResult Importer::importIntReduce(ImportedValue &v,
                                        ArrayRef<int64_t> axes, bool keepdims) {
  StringRef op = node->op_type();
  Reduction kind = op == "ReduceSum"    ? Reduction::Sum
                   : op == "ReduceProd" ? Reduction::Prod
                   : op == "ReduceMax"  ? Reduction::Max
                   : op == "ReduceMin"  ? Reduction::Min
                                        : Reduction(-1);
  if (v.dtype == onnx::TensorProto::BOOL)
    return fail(op + " of a boolean tensor is not supported");
  if (int(kind) < 0)
    return fail(op + " of an integer tensor is not supported (ReduceSum, "
                     "ReduceProd, ReduceMax and ReduceMin of integers are)");
  if (v.isQuantized())
    return fail(op + " of quantized codes is not supported");
  Type elem = integerElementType(*this, v);
  unsigned width = elem.getIntOrFloatBitWidth();
  bool isUnsigned = isUnsignedIntType(v.dtype);
  SmallVector<int64_t> reducedShape(v.shape);
  for (int64_t axis : axes)
    reducedShape[axis] = 1;
  SmallVector<int64_t> kept;
  for (int64_t d = 0; d < int64_t(v.shape.size()); ++d)
    if (keepdims || !llvm::is_contained(axes, d))
      kept.push_back(reducedShape[d]);

  APInt lowest =
      isUnsigned ? APInt::getMinValue(width) : APInt::getSignedMinValue(width);
  APInt highest =
      isUnsigned ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
  int64_t init = kind == Reduction::Sum    ? 0
                 : kind == Reduction::Prod ? 1
                 : kind == Reduction::Max
                     ? (isUnsigned ? 0 : lowest.getSExtValue())
                     : (isUnsigned ? int64_t(highest.getZExtValue())
                                   : highest.getSExtValue());

  if (v.kind == Kind::Const) {
    auto count = foldableCount(v.shape);
    auto outCount = foldableCount(reducedShape);
    if (!count || !outCount)
      return fail("folding a constant of more than " +
                  Twine(kMaxFoldedElements) + " elements is not supported");
    std::vector<int64_t> acc(*outCount, init);
    int64_t rank = v.shape.size();
    for (int64_t n = 0; n < *count; ++n) {
      // The output element of input element n: its index with the reduced
      // axes at 0.
      int64_t rest = n, at = 0, stride = 1;
      for (int64_t d = rank - 1; d >= 0; --d) {
        int64_t coord = rest % v.shape[d];
        rest /= v.shape[d];
        if (!llvm::is_contained(axes, d))
          at += coord * stride;
        stride *= reducedShape[d];
      }
      int64_t x = v.i[n], &a = acc[at];
      uint64_t ux = uint64_t(x), ua = uint64_t(a);
      switch (kind) {
      case Reduction::Sum:
        a = wrapToWidth(ua + ux, width, isUnsigned);
        break;
      case Reduction::Prod:
        a = wrapToWidth(ua * ux, width, isUnsigned);
        break;
      case Reduction::Max:
        a = isUnsigned ? int64_t(std::max(ua, ux)) : std::max(a, x);
        break;
      case Reduction::Min:
        a = isUnsigned ? int64_t(std::min(ua, ux)) : std::min(a, x);
        break;
      }
    }
    ImportedValue out;
    out.kind = Kind::Const;
    out.dtype = v.dtype;
    out.shape = kept;
    out.i = std::move(acc);
    setOutput(0, std::move(out));
    return success();
  }

  Value x = logicalIntegers(*this, v, elem);
  mlir::TypedAttr start =
      b.getIntegerAttr(elem, APInt(width, uint64_t(init), !isUnsigned));
  for (int64_t axis : axes)
    x = reduceAlong(
        *this, x, axis, start,
        [&](OpBuilder &nb, Location l, Value acc, Value e) -> Value {
          switch (kind) {
          case Reduction::Sum:
            return arith::AddIOp::create(nb, l, acc, e);
          case Reduction::Prod:
            return arith::MulIOp::create(nb, l, acc, e);
          case Reduction::Max:
            return isUnsigned ? Value(arith::MaxUIOp::create(nb, l, acc, e))
                              : Value(arith::MaxSIOp::create(nb, l, acc, e));
          case Reduction::Min:
            return isUnsigned ? Value(arith::MinUIOp::create(nb, l, acc, e))
                              : Value(arith::MinSIOp::create(nb, l, acc, e));
          }
          llvm_unreachable("every reduction is handled");
        });
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = v.dtype;
  out.shape = kept;
  out.value = keepdims ? x : reshape(x, kept);
  setOutput(0, std::move(out));
  return success();
}
