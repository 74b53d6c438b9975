//===- Pad.cpp - ONNX Pad: constant, reflect, edge and wrap ---------------===//
//
// Pad with pads from an attribute (before opset 11) or a compile-time
// input, on the axes of the `axes` input (opset 18) or all of them. As ONNX
// Runtime computes it, negative pads crop first and the positive ones then
// pad what is left:
// - constant: `tensor.pad` with the value (of a quantized tensor: the code
//   of the value, which must lie on its grid, or the code itself for the
//   codes a QuantizeLinear wrote);
// - reflect, edge, wrap (opset 19): a `linalg.generic` over the output that
//   reads each element from the source index of ONNX's reference (numpy's
//   `np.pad`): reflect mirrors on the first and last elements (pads up to
//   the axis's length - 1), edge repeats the end elements, wrap reads the
//   axis cyclically (pads up to its length). Codes move as codes, in the
//   value's own layout.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include "llvm/ADT/STLExtras.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
enum class PadMode { Constant, Reflect, Edge, Wrap };

/// Each pad is bounded so that the padded sizes cannot overflow.
constexpr int64_t kMaxPad = 1 << 24;

/// The source index along an axis of `n` elements (n >= 1) of output index
/// `i`, `low` elements padded before the axis.
Value sourceIndex(OpBuilder &b, Location loc, PadMode mode, Value i,
                  int64_t low, int64_t n) {
  auto index = [&](int64_t v) -> Value {
    return arith::ConstantIndexOp::create(b, loc, v);
  };
  Value j = arith::SubIOp::create(b, loc, i, index(low));
  // The non-negative remainder of j by m.
  auto modulo = [&](Value x, int64_t m) -> Value {
    Value r = arith::RemSIOp::create(b, loc, x, index(m));
    Value negative =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, r, index(0));
    return arith::SelectOp::create(
        b, loc, negative, arith::AddIOp::create(b, loc, r, index(m)), r);
  };
  switch (mode) {
  case PadMode::Edge:
    return arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, j, index(0)), index(n - 1));
  case PadMode::Wrap:
    return modulo(j, n);
  case PadMode::Reflect: {
    // Period 2 (n - 1) (n >= 2): t in [0, n) reads t, t in [n, 2n - 2)
    // reads 2 (n - 1) - t.
    int64_t period = 2 * (n - 1);
    Value t = modulo(j, period);
    Value back =
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge, t, index(n));
    return arith::SelectOp::create(
        b, loc, back, arith::SubIOp::create(b, loc, index(period), t), t);
  }
  case PadMode::Constant:
    break;
  }
  llvm_unreachable("constant pads use tensor.pad");
}

/// `src` padded by reading each output element from its source index.
Value padByReading(OpBuilder &b, Location loc, PadMode mode, Value src,
                   ArrayRef<int64_t> low, ArrayRef<int64_t> outShape) {
  auto srcType = cast<RankedTensorType>(src.getType());
  int64_t rank = outShape.size();
  Value init =
      tensor::EmptyOp::create(b, loc, outShape, srcType.getElementType());
  SmallVector<AffineMap> maps = {
      AffineMap::getMultiDimIdentityMap(rank, b.getContext())};
  SmallVector<utils::IteratorType> iters(rank, utils::IteratorType::parallel);
  return linalg::GenericOp::create(
             b, loc, TypeRange{init.getType()}, ValueRange{}, ValueRange{init},
             maps, iters,
             [&](OpBuilder &nb, Location l, ValueRange) {
               SmallVector<Value> at;
               for (int64_t d = 0; d < rank; ++d) {
                 Value i = linalg::IndexOp::create(nb, l, d);
                 int64_t n = srcType.getDimSize(d);
                 at.push_back(low[d] == 0 && outShape[d] == n
                                  ? i
                                  : sourceIndex(nb, l, mode, i, low[d], n));
               }
               linalg::YieldOp::create(
                   nb, l,
                   tensor::ExtractOp::create(nb, l, src, at).getResult());
             })
      .getResult(0);
}
} // namespace

LogicalResult Importer::importPad() {
  // pads and constant_value are inputs since opset 11, axes since 18.
  bool asInputs = opset >= 11;
  if (failed(checkAttrs(asInputs
                            ? ArrayRef<StringRef>{"mode"}
                            : ArrayRef<StringRef>{"mode", "pads", "value"})))
    return failure();
  std::string modeName = attrString("mode").value_or("constant");
  PadMode mode;
  if (modeName == "constant")
    mode = PadMode::Constant;
  else if (modeName == "reflect")
    mode = PadMode::Reflect;
  else if (modeName == "edge")
    mode = PadMode::Edge;
  else if (modeName == "wrap" && opset >= 19)
    mode = PadMode::Wrap;
  else
    return fail("Pad mode '" + modeName + "' is not one of opset " +
                Twine(opset) + "'s: constant, reflect, edge" +
                (opset >= 19 ? ", wrap" : ""));
  auto in = input(0);
  if (failed(in))
    return failure();
  ImportedValue *v = *in;
  int64_t rank = v->shape.size();
  std::vector<int64_t> pads;
  if (asInputs) {
    auto c = constInts(1);
    if (failed(c))
      return failure();
    pads = std::move(*c);
  } else if (auto a = attrInts("pads")) {
    pads = std::move(*a);
  } else {
    return fail("missing attribute 'pads'");
  }
  if (asInputs && hasInput(3)) {
    // axes (opset 18): pads holds the begins and ends of these axes only.
    auto axes = constInts(3);
    if (failed(axes))
      return failure();
    if (pads.size() != 2 * axes->size())
      return fail("pads has " + Twine(pads.size()) + " entries for " +
                  Twine(axes->size()) + " axes, expected " +
                  Twine(2 * axes->size()));
    std::vector<int64_t> full(2 * rank, 0);
    SmallVector<bool> seen(rank, false);
    for (auto [k, axis] : llvm::enumerate(*axes)) {
      auto d = normalizedAxis(axis, rank);
      if (failed(d))
        return failure();
      if (seen[*d])
        return fail("axis " + Twine(axis) + " is repeated in axes");
      seen[*d] = true;
      full[*d] = pads[k];
      full[*d + rank] = pads[k + axes->size()];
    }
    pads = std::move(full);
  }
  if (int64_t(pads.size()) != 2 * rank)
    return fail("pads has " + Twine(pads.size()) + " entries, expected " +
                Twine(2 * rank));
  // Logical (NCHW) crops and pads: a negative pad crops.
  SmallVector<int64_t> cropLow(rank), cropHigh(rank), low(rank), high(rank);
  SmallVector<int64_t> cropped(v->shape.begin(), v->shape.end());
  for (int64_t d = 0; d < rank; ++d) {
    for (int64_t p : {pads[d], pads[d + rank]})
      if (p > kMaxPad || p < -kMaxPad)
        return fail("a pad of more than " + Twine(kMaxPad) +
                    " elements is not supported");
    cropLow[d] = std::max<int64_t>(-pads[d], 0);
    cropHigh[d] = std::max<int64_t>(-pads[d + rank], 0);
    low[d] = std::max<int64_t>(pads[d], 0);
    high[d] = std::max<int64_t>(pads[d + rank], 0);
    cropped[d] -= cropLow[d] + cropHigh[d];
    if (cropped[d] < 0)
      return fail("pads crop " + Twine(cropLow[d] + cropHigh[d]) +
                  " elements from axis " + Twine(d) + " of " +
                  Twine(v->shape[d]));
    if (mode != PadMode::Constant && cropped[d] == 0 && low[d] + high[d] > 0)
      return fail("Pad mode '" + modeName + "' cannot pad axis " + Twine(d) +
                  ", which is empty");
    // Longer pads reflect or wrap more than once: ONNX Runtime reads
    // outside the axis, and numpy's np.pad (ONNX's reference) repeats
    // them in an order of its own.
    int64_t longest = mode == PadMode::Reflect ? cropped[d] - 1
                      : mode == PadMode::Wrap  ? cropped[d]
                                               : kMaxPad;
    if (std::max(low[d], high[d]) > longest)
      return fail("Pad mode '" + modeName + "' pads axis " + Twine(d) + " of " +
                  Twine(cropped[d]) + " elements by " + Twine(low[d]) +
                  " and " + Twine(high[d]) + ": at most " + Twine(longest) +
                  " each");
  }
  double value = 0;
  if (mode != PadMode::Constant) {
    // constant_value is ignored outside constant mode.
  } else if (asInputs && hasInput(2)) {
    auto c = input(2);
    if (failed(c))
      return failure();
    if ((*c)->kind != Kind::Const || (*c)->numElements() != 1)
      return fail("constant_value must be a compile-time scalar");
    value = (*c)->f.empty() ? double((*c)->i[0]) : (*c)->f[0];
  } else if (!asInputs) {
    value = attrFloat("value").value_or(0.0f);
  }

  if (failed(settleOrFloat(*this, *v)))
    return failure();
  if (v->kind == Kind::Const || v->codes)
    return fail("Pad of a constant is not supported");
  ImportedValue out = *v;
  for (int64_t d = 0; d < rank; ++d)
    out.shape[d] = cropped[d] + low[d] + high[d];
  // Padded in the value's own layout: an NHWC conv result stays NHWC.
  out.nhwc = rank == 4 && v->nhwc && !v->isFlattenedNhwc();
  out.flattenedFromNhwc.clear();
  auto physical = [&](SmallVector<int64_t> &a) {
    if (out.nhwc)
      a = {a[0], a[2], a[3], a[1]};
  };
  physical(cropLow);
  physical(cropped);
  physical(low);
  physical(high);
  Value src, padValue;
  // A dequantized tensor padded with a real off its grid (ONNX pads the
  // reals, and the QuantizeLinear after the Pad quantizes the value): the
  // pad runs on the f32 values.
  // On the grid (0 is the zero point), the padding is the value's code.
  std::optional<int64_t> gridCode;
  bool offGrid = false;
  if (v->kind == Kind::Dequant && !v->q.perAxis() &&
      mode == PadMode::Constant) {
    gridCode = quantizeLinear(value, v->q.scales[0], v->q.zeroPoints[0], v->q);
    offGrid = float((*gridCode - v->q.zeroPoints[0]) * float(v->q.scales[0])) !=
              float(value);
  }
  if (v->isQuantized() && !offGrid) {
    if (v->q.perAxis())
      return fail("Pad of a per-axis quantized tensor is not supported");
    auto ints = storageInts(*this, *v, out.nhwc);
    if (failed(ints))
      return failure();
    src = *ints;
    if (mode == PadMode::Constant) {
      int64_t code;
      if (v->kind == Kind::Quant) {
        // The tensor holds the codes themselves (a QuantizeLinear output),
        // so constant_value is a code of their type: the default 0 is code
        // 0, not the zero point.
        if (value != std::trunc(value) || value < double(v->q.qmin()) ||
            value > double(v->q.qmax()))
          return fail("the pad value " + str(value) +
                      " is not a code of the input's type");
        code = int64_t(value);
      } else {
        code = *gridCode;
      }
      padValue = storageCode(v->q, code);
    }
  } else if (v->kind == Kind::Float || offGrid) {
    auto f = floatValue(*v, out.nhwc);
    if (failed(f))
      return failure();
    src = *f;
    padValue = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
    out.kind = Kind::Float;
    out.dtype = onnx::TensorProto::FLOAT;
  } else {
    return fail("unsupported input to Pad");
  }
  auto srcType = cast<RankedTensorType>(src.getType());
  if (llvm::any_of(llvm::concat<int64_t>(cropLow, cropHigh),
                   [](int64_t c) { return c > 0; })) {
    SmallVector<int64_t> ones(rank, 1);
    src = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get(cropped, srcType.getElementType()), src,
        ValueRange{}, ValueRange{}, ValueRange{}, cropLow, cropped, ones);
  }
  SmallVector<int64_t> outShape = physicalShape(out);
  Value padded;
  if (mode == PadMode::Constant)
    padded =
        tensor::PadOp::create(
            b, loc, RankedTensorType::get(outShape, srcType.getElementType()),
            src, getAsIndexOpFoldResult(ctx, low),
            getAsIndexOpFoldResult(ctx, high), padValue)
            .getResult();
  else
    padded = padByReading(b, loc, mode, src, low, outShape);
  out.value =
      out.isQuantized()
          ? quant::StorageCastOp::create(b, loc, quantTensorType(out), padded)
          : padded;
  setOutput(0, std::move(out));
  return success();
}
