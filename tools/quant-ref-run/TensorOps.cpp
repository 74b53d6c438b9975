//===- TensorOps.cpp - upstream ops on the reference model ----------------===//
//
// The upstream ops a quantized network uses around the qnt ops: constants,
// storage casts and bit casts, shape ops (on quantized and plain tensors),
// pads and fills, and a float softmax head. All of them move or reinterpret
// codes except
// linalg.softmax, whose f32 evaluation order is fixed here and documented in
// docs/ReferenceModel.md:
//
//   for each slice along `dimension`, in row-major order of the slice:
//     m = fmax(-inf, x_0, x_1, ...) (sequential, first to last; maxnum
//         semantics: NaN elements are skipped)
//     e_i = expf(x_i - m)                       (f32 subtract, f32 expf)
//     s = e_0 + e_1 + ... (sequential f32 sum, first to last)
//     y_i = e_i / s                             (f32 divide)
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>
#include <cstring>
#include <limits>

using namespace mlir;
using namespace quantrefrun;

namespace {

bool isFloatElement(Type type) {
  return cast<ShapedType>(type).getElementType().isF32();
}

/// Re-reads the low `width` bits of `code` with the given signedness.
int32_t reinterpretBits(int32_t code, unsigned width, bool isSigned) {
  if (width >= 32)
    return code;
  uint32_t mask = (1u << width) - 1;
  uint32_t bits = static_cast<uint32_t>(code) & mask;
  if (isSigned && (bits >> (width - 1)))
    return static_cast<int32_t>(bits | ~mask);
  return static_cast<int32_t>(bits);
}

/// Row-major strides of a shape.
std::vector<int64_t> stridesOf(ArrayRef<int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Calls `body(flatIndex, index)` for every index of `shape` in row-major
/// order.
template <typename Fn> void forEachIndex(ArrayRef<int64_t> shape, Fn body) {
  int64_t count = numElements(shape);
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t i = 0; i < count; ++i) {
    body(i, index);
    for (size_t d = shape.size(); d-- > 0;) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

/// A copy of `t` whose elements are gathered from flat source positions.
Tensor gather(const Tensor &t, std::vector<int64_t> shape,
              ArrayRef<int64_t> sources) {
  Tensor result;
  result.shape = std::move(shape);
  if (!t.floats.empty() || t.codes.empty()) {
    for (int64_t s : sources)
      result.floats.push_back(t.floats[s]);
  }
  if (!t.codes.empty())
    for (int64_t s : sources)
      result.codes.push_back(t.codes[s]);
  return result;
}

} // namespace

LogicalResult Interpreter::evalUpstream(Operation *op, bool &handled) {
  handled = true;
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    // Scalars: pad values and fill values (integer codes) and indices.
    if (auto scalar = dyn_cast<IntegerAttr>(constant.getValue())) {
      Type type = scalar.getType();
      bool isIndex = isa<IndexType>(type);
      if (!isIndex &&
          !(isa<IntegerType>(type) && type.getIntOrFloatBitWidth() <= 32))
        return op->emitError("quant-ref-run: scalar constants must be index "
                             "or integers of at most 32 bits");
      int64_t value = type.isUnsignedInteger()
                          ? int64_t(scalar.getValue().getZExtValue())
                          : scalar.getValue().getSExtValue();
      if (isIndex && (value < std::numeric_limits<int32_t>::min() ||
                      value > std::numeric_limits<int32_t>::max()))
        return op->emitError("quant-ref-run: index constant out of range");
      Tensor t;
      t.codes.push_back(static_cast<int32_t>(value));
      set(constant.getResult(), std::move(t));
      return success();
    }
    FailureOr<std::vector<int64_t>> shape =
        readShape(op, "result", constant.getType());
    if (failed(shape))
      return failure();
    Tensor t;
    t.shape = *shape;
    if (auto ints = dyn_cast<DenseIntElementsAttr>(constant.getValue())) {
      bool isUnsigned = ints.getElementType().isUnsignedInteger();
      if (ints.getElementType().getIntOrFloatBitWidth() > 32)
        return op->emitError("quant-ref-run: integer constants wider than 32 "
                             "bits are not supported");
      for (const APInt &v : ints.getValues<APInt>())
        t.codes.push_back(static_cast<int32_t>(
            isUnsigned ? int64_t(v.getZExtValue()) : v.getSExtValue()));
    } else if (auto fps = dyn_cast<DenseFPElementsAttr>(constant.getValue());
               fps && fps.getElementType().isF32()) {
      for (float v : fps.getValues<float>())
        t.floats.push_back(v);
    } else {
      return op->emitError("quant-ref-run: unsupported constant (dense "
                           "integer or f32 tensors only)");
    }
    set(constant.getResult(), std::move(t));
    return success();
  }
  if (auto storageCast = dyn_cast<quant::StorageCastOp>(op)) {
    const Tensor *in = lookup(op, storageCast.getInput());
    FailureOr<Storage> target =
        readStorage(op, "result", storageCast.getType());
    if (!in || failed(target))
      return failure();
    // Storage casts keep the bits; the signedness of the target decides how
    // they read (u8 code 200 is i8 -56).
    Tensor t = *in;
    for (int32_t &code : t.codes)
      code = reinterpretBits(code, target->width, target->isSigned);
    set(storageCast.getResult(), std::move(t));
    return success();
  }
  if (auto bitcast = dyn_cast<arith::BitcastOp>(op)) {
    // f32 -> i32 bits, so that float results compare bit for bit.
    const Tensor *in = lookup(op, bitcast.getIn());
    if (!in)
      return failure();
    if (!isa<ShapedType>(bitcast.getType()) ||
        !isFloatElement(bitcast.getIn().getType()) ||
        !cast<ShapedType>(bitcast.getType()).getElementType().isInteger(32))
      return op->emitError("quant-ref-run: only f32 -> i32 tensor bitcasts");
    Tensor t;
    t.shape = in->shape;
    for (float v : in->floats) {
      int32_t bits;
      std::memcpy(&bits, &v, sizeof(bits));
      t.codes.push_back(bits);
    }
    set(bitcast.getResult(), std::move(t));
    return success();
  }
  if (auto bitcast = dyn_cast<tensor::BitcastOp>(op)) {
    // Raw codes between integer types of one width (ui8 <-> i8): the bits
    // stay, the signedness of the result decides how they read.
    const Tensor *in = lookup(op, bitcast.getSource());
    FailureOr<Storage> source =
        readStorage(op, "'source'", bitcast.getSource().getType());
    FailureOr<Storage> target = readStorage(op, "result", bitcast.getType());
    if (!in || failed(source) || failed(target))
      return failure();
    if (source->width != target->width)
      return op->emitError("quant-ref-run: tensor.bitcast must keep the "
                           "element width");
    Tensor t = *in;
    for (int32_t &code : t.codes)
      code = reinterpretBits(code, target->width, target->isSigned);
    set(bitcast.getResult(), std::move(t));
    return success();
  }
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op)) {
    // Row-major data is unchanged by a reshape.
    const Tensor *in = lookup(op, op->getOperand(0));
    FailureOr<std::vector<int64_t>> shape =
        readShape(op, "result", op->getResult(0).getType());
    if (!in || failed(shape))
      return failure();
    Tensor t = *in;
    t.shape = *shape;
    set(op->getResult(0), std::move(t));
    return success();
  }
  if (auto empty = dyn_cast<tensor::EmptyOp>(op)) {
    // Only ever an init operand; its contents are never read by the ops we
    // run, but hold zeros so that nothing reads garbage.
    FailureOr<std::vector<int64_t>> shape =
        readShape(op, "result", empty.getType());
    if (failed(shape))
      return failure();
    Tensor t;
    t.shape = *shape;
    if (isFloatElement(empty.getType()))
      t.floats.assign(numElements(*shape), 0.0f);
    else
      t.codes.assign(numElements(*shape), 0);
    set(empty.getResult(), std::move(t));
    return success();
  }
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op)) {
    const Tensor *in = lookup(op, slice.getSource());
    FailureOr<std::vector<int64_t>> shape =
        readShape(op, "result", slice.getType());
    if (!in || failed(shape))
      return failure();
    ArrayRef<int64_t> offsets = slice.getStaticOffsets();
    ArrayRef<int64_t> sizes = slice.getStaticSizes();
    ArrayRef<int64_t> strides = slice.getStaticStrides();
    for (size_t d = 0; d < in->shape.size(); ++d) {
      if (ShapedType::isDynamic(offsets[d]) || ShapedType::isDynamic(sizes[d]) ||
          ShapedType::isDynamic(strides[d]))
        return op->emitError("quant-ref-run: tensor.extract_slice needs "
                             "static offsets, sizes and strides");
      if (offsets[d] < 0 || sizes[d] < 0 || strides[d] < 1 ||
          (sizes[d] > 0 &&
           offsets[d] + (sizes[d] - 1) * strides[d] >= in->shape[d]))
        return op->emitError("quant-ref-run: tensor.extract_slice dimension ")
               << d << " reads outside the source";
    }
    if (numElements(sizes) != numElements(*shape))
      return op->emitError("quant-ref-run: tensor.extract_slice result does "
                           "not hold the slice's elements");
    std::vector<int64_t> sourceStrides = stridesOf(in->shape);
    std::vector<int64_t> sources;
    forEachIndex(sizes, [&](int64_t, const std::vector<int64_t> &index) {
      int64_t flat = 0;
      for (size_t d = 0; d < index.size(); ++d)
        flat += (offsets[d] + index[d] * strides[d]) * sourceStrides[d];
      sources.push_back(flat);
    });
    set(slice.getResult(), gather(*in, *shape, sources));
    return success();
  }
  if (auto extract = dyn_cast<tensor::ExtractOp>(op)) {
    const Tensor *in = lookup(op, extract.getTensor());
    if (!in)
      return failure();
    std::vector<int64_t> sourceStrides = stridesOf(in->shape);
    int64_t flat = 0;
    for (auto [d, index] : llvm::enumerate(extract.getIndices())) {
      const Tensor *i = lookup(op, index);
      if (!i)
        return failure();
      int64_t position = i->codes.at(0);
      if (position < 0 || position >= in->shape[d])
        return op->emitError("quant-ref-run: tensor.extract index ")
               << position << " lies outside dimension " << d;
      flat += position * sourceStrides[d];
    }
    set(extract.getResult(), gather(*in, {}, {flat}));
    return success();
  }
  if (auto fill = dyn_cast<linalg::FillOp>(op)) {
    if (fill->getNumResults() != 1)
      return op->emitError("quant-ref-run: linalg.fill on tensors only");
    const Tensor *value = lookup(op, fill.getInputs()[0]);
    FailureOr<std::vector<int64_t>> shape =
        readShape(op, "result", fill->getResult(0).getType());
    if (!value || failed(shape))
      return failure();
    std::vector<int64_t> sources(numElements(*shape), 0);
    set(fill->getResult(0), gather(*value, *shape, sources));
    return success();
  }
  if (auto pad = dyn_cast<tensor::PadOp>(op)) {
    // Every position outside the source gets the value the region yields
    // there, evaluated with the block arguments bound to its indices.
    const Tensor *in = lookup(op, pad.getSource());
    FailureOr<std::vector<int64_t>> shape =
        readShape(op, "result", pad.getResultType());
    if (!in || failed(shape))
      return failure();
    ArrayRef<int64_t> low = pad.getStaticLow(), high = pad.getStaticHigh();
    for (size_t d = 0; d < in->shape.size(); ++d) {
      if (ShapedType::isDynamic(low[d]) || ShapedType::isDynamic(high[d]) ||
          low[d] < 0 || high[d] < 0)
        return op->emitError("quant-ref-run: tensor.pad needs static, "
                             "non-negative padding amounts");
      if (low[d] + in->shape[d] + high[d] != (*shape)[d])
        return op->emitError("quant-ref-run: tensor.pad result dimension ")
               << d << " is not the padded source's";
    }
    Block &body = pad.getRegion().front();
    auto yield = cast<tensor::YieldOp>(body.getTerminator());
    std::vector<int64_t> sourceStrides = stridesOf(in->shape);
    Tensor t;
    t.shape = *shape;
    LogicalResult status = success();
    forEachIndex(*shape, [&](int64_t, const std::vector<int64_t> &index) {
      if (failed(status))
        return;
      bool inside = true;
      int64_t flat = 0;
      for (size_t d = 0; d < index.size(); ++d) {
        int64_t position = index[d] - low[d];
        inside = inside && position >= 0 && position < in->shape[d];
        flat += position * sourceStrides[d];
      }
      const Tensor *value = in;
      if (!inside) {
        for (auto [arg, position] : llvm::zip(body.getArguments(), index)) {
          Tensor i;
          i.codes.push_back(static_cast<int32_t>(position));
          set(arg, std::move(i));
        }
        bool returned = false;
        for (Operation &inner : body.without_terminator()) {
          status = step(&inner, nullptr, returned);
          if (failed(status))
            return;
        }
        value = lookup(op, yield.getValue());
        if (!value) {
          status = failure();
          return;
        }
        flat = 0;
      }
      if (value->codes.empty())
        t.floats.push_back(value->floats.at(flat));
      else
        t.codes.push_back(value->codes.at(flat));
    });
    if (failed(status))
      return failure();
    set(pad.getResult(), std::move(t));
    return success();
  }
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op)) {
    if (transpose->getNumResults() != 1)
      return op->emitError("quant-ref-run: linalg.transpose on tensors only");
    const Tensor *in = lookup(op, transpose.getInput());
    FailureOr<std::vector<int64_t>> shape =
        readShape(op, "result", transpose->getResult(0).getType());
    if (!in || failed(shape))
      return failure();
    ArrayRef<int64_t> permutation = transpose.getPermutation();
    // Elements keep their type; a per-axis one keeps its quantized
    // dimension where the permutation leaves it (the compiler's
    // qnt-verify-per-axis-shapes rule): result dimension k is input
    // dimension permutation[k].
    Type inElement = getElementTypeOrSelf(transpose.getInput().getType());
    if (inElement !=
        getElementTypeOrSelf(transpose->getResult(0).getType()))
      return op->emitError("quant-ref-run: linalg.transpose must keep the "
                           "element type");
    if (auto perAxis =
            dyn_cast<quant::UniformQuantizedPerAxisType>(inElement)) {
      int32_t axis = perAxis.getQuantizedDimension();
      if (axis < 0 || axis >= int32_t(permutation.size()) ||
          permutation[axis] != axis)
        return op->emitError("quant-ref-run: linalg.transpose moves "
                             "dimension ")
               << axis << ", the quantized axis of the per-axis type "
               << inElement;
    }
    // result[i_0, ..., i_n] = input[j] with j[permutation[k]] = i_k.
    std::vector<int64_t> sourceStrides = stridesOf(in->shape);
    std::vector<int64_t> sources;
    forEachIndex(*shape, [&](int64_t, const std::vector<int64_t> &index) {
      int64_t flat = 0;
      for (size_t k = 0; k < index.size(); ++k)
        flat += index[k] * sourceStrides[permutation[k]];
      sources.push_back(flat);
    });
    set(transpose->getResult(0), gather(*in, *shape, sources));
    return success();
  }
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op)) {
    if (softmax->getNumResults() != 1 ||
        !isFloatElement(softmax.getInput().getType()) ||
        !isFloatElement(softmax->getResult(0).getType()))
      return op->emitError("quant-ref-run: linalg.softmax on f32 tensors only");
    const Tensor *in = lookup(op, softmax.getInput());
    if (!in)
      return failure();
    if (int64_t(in->floats.size()) != numElements(in->shape))
      return op->emitError("quant-ref-run: softmax input holds no f32 values");
    const int64_t dim = softmax.getDimension();
    const std::vector<int64_t> strides = stridesOf(in->shape);
    const int64_t size = in->shape[dim], stride = strides[dim];
    Tensor t;
    t.shape = in->shape;
    t.floats.assign(in->floats.size(), 0.0f);
    std::vector<int64_t> outer = in->shape;
    outer[dim] = 1;
    std::vector<float> e(size);
    forEachIndex(outer, [&](int64_t, const std::vector<int64_t> &index) {
      int64_t base = 0;
      for (size_t d = 0; d < index.size(); ++d)
        base += index[d] * strides[d];
      // maxnum semantics (a NaN element is skipped), starting at -inf.
      float m = -std::numeric_limits<float>::infinity();
      for (int64_t i = 0; i < size; ++i)
        m = std::fmax(m, in->floats[base + i * stride]);
      float s = 0.0f;
      for (int64_t i = 0; i < size; ++i) {
        e[i] = std::exp(in->floats[base + i * stride] - m);
        s += e[i];
      }
      for (int64_t i = 0; i < size; ++i)
        t.floats[base + i * stride] = e[i] / s;
    });
    set(softmax->getResult(0), std::move(t));
    return success();
  }
  if (auto toBuffer = dyn_cast<bufferization::ToBufferOp>(op)) {
    const Tensor *in = lookup(op, toBuffer.getTensor());
    if (!in)
      return failure();
    // Copy before inserting: DenseMap insertion may move existing entries.
    Tensor t = *in;
    set(toBuffer.getResult(), std::move(t));
    return success();
  }
  if (auto memrefCast = dyn_cast<memref::CastOp>(op)) {
    const Tensor *in = lookup(op, memrefCast.getSource());
    if (!in)
      return failure();
    Tensor t = *in;
    set(memrefCast.getResult(), std::move(t));
    return success();
  }
  handled = false;
  return success();
}
