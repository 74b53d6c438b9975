//===- QntNetworkOps.cpp - verifiers of add, pooling and concat -----------===//
//
// The bad-input rules of qnt.add, qnt.max_pool2d, qnt.avg_pool2d and
// qnt.concat (docs/NetworkOps.md). Rules shared with the other ops come from
// QntVerifierUtils.h; pool geometry from the reference model's checked
// window arithmetic so that verifier, reference kernels and lowering agree.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

#include "QntVerifierUtils.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "QuantOpt/Reference/FixedPoint.h"
#include "QuantOpt/Reference/WindowArithmetic.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::qnt;

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

static LogicalResult verifyStatic(Operation *op, StringRef name,
                                  RankedTensorType type) {
  if (!type.hasStaticShape())
    return op->emitOpError("'")
           << name << "' must have a static shape, got " << type;
  return success();
}

/// qnt.add and qnt.concat are defined per tensor only.
static LogicalResult verifyPerTensor(Operation *op, StringRef name,
                                     RankedTensorType type) {
  if (isPerAxis(getUniformElementType(type)))
    return op->emitOpError("'")
           << name << "': per-axis quantization is not supported by "
           << op->getName() << "; use per-tensor scales";
  return success();
}

/// Same rule as qnt.requantize: [lo, hi] in output codes inside the result
/// storage range.
static LogicalResult verifyClamp(Operation *op,
                                 std::optional<ArrayRef<int64_t>> clamp,
                                 const quantopt::ref::QuantParams &out) {
  if (!clamp)
    return success();
  if (clamp->size() != 2)
    return op->emitOpError("'clamp' must be [lo, hi] in output codes, got ")
           << clamp->size() << " values";
  int64_t lo = (*clamp)[0], hi = (*clamp)[1];
  if (lo > hi)
    return op->emitOpError("'clamp' lower bound ")
           << lo << " must not exceed the upper bound " << hi;
  if (lo < out.storageMin || hi > out.storageMax)
    return op->emitOpError("'clamp' [")
           << lo << ", " << hi << "] must lie within the result storage "
           << "range [" << out.storageMin << ", " << out.storageMax << "]";
  return success();
}

/// Whether some window of one dimension holds no real element. With pads
/// smaller than the dilated extent the first and last windows always reach
/// the input, and a window can only miss it by stepping over it: two taps
/// straddling an input shorter than the dilation. `outSize` is the checked
/// output size; at most kMaxWindows windows are examined.
static std::optional<int64_t> findEmptyWindow(int64_t in, int64_t padBefore,
                                              int64_t kernel, int64_t stride,
                                              int64_t dilation,
                                              int64_t outSize) {
  if (dilation <= in)
    return std::nullopt;
  for (int64_t o = 0; o < outSize; ++o) {
    // All values stay below the checked padded extent, so nothing overflows.
    int64_t start = o * stride - padBefore;
    // The first tap at or after 0, and its index in the window.
    int64_t k = start >= 0 ? 0 : (-start + dilation - 1) / dilation;
    if (k >= kernel || start + k * dilation >= in)
      return o;
  }
  return std::nullopt;
}

/// Windows examined by findEmptyWindow before the verifier gives up.
static constexpr int64_t kMaxWindows = int64_t(1) << 20;

/// The window rules shared by both pools: NHWC input, result type equal to
/// the input type except for H and W, per axis only on the channels, and a
/// window geometry whose every window holds at least one real element.
static LogicalResult
verifyPool(Operation *op, RankedTensorType inType, RankedTensorType outType,
           ArrayRef<int64_t> kernel, ArrayRef<int64_t> strides,
           ArrayRef<int64_t> dilations, ArrayRef<int64_t> padding) {
  if (failed(verifyStaticShape(op, "input", inType, 4)) ||
      failed(verifyStaticShape(op, "result", outType, 4)) ||
      failed(verifyQuantizedValue(op, "input", inType, kIoStorage)))
    return failure();
  quant::QuantizedType type = getUniformElementType(inType);
  quantopt::ref::QuantParams params = getQuantParams(type);
  if (params.axis >= 0 && params.axis != 3)
    return op->emitOpError("'input' per-axis dimension must be the channel "
                           "dimension 3 (C of NHWC), got ")
           << params.axis;
  if (outType.getElementType() != inType.getElementType())
    return op->emitOpError("result element type must equal the input type ")
           << type << " (a scale change is a following qnt.requantize), got "
           << outType.getElementType();

  auto positive = [](int64_t v) { return v >= 1; };
  if (kernel.size() != 2 || !llvm::all_of(kernel, positive))
    return op->emitOpError("'kernel' must be two values >= 1, got [")
           << kernel << "]";
  if (strides.size() != 2 || !llvm::all_of(strides, positive))
    return op->emitOpError("'strides' must be two values >= 1 (zero stride "
                           "is invalid), got [")
           << strides << "]";
  if (dilations.size() != 2 || !llvm::all_of(dilations, positive))
    return op->emitOpError("'dilations' must be two values >= 1, got [")
           << dilations << "]";
  if (padding.size() != 4 ||
      llvm::any_of(padding, [](int64_t p) { return p < 0; }))
    return op->emitOpError("'padding' must be four non-negative values "
                           "[top, bottom, left, right], got [")
           << padding << "]";

  SmallVector<int64_t> expected = {inType.getDimSize(0), 0, 0,
                                   inType.getDimSize(3)};
  static const char *const kDimNames[] = {"H", "W"};
  for (int d = 0; d < 2; ++d) {
    // The dilated extent is representable: kernel <= int64 and the
    // window-size check below rejects any that overflow.
    std::optional<int64_t> extent =
        quantopt::ref::dilatedKernelExtent(kernel[d], dilations[d]);
    if (!extent)
      return op->emitOpError("dilated kernel extent overflows in ")
             << kDimNames[d];
    for (int side = 0; side < 2; ++side) {
      int64_t pad = padding[2 * d + side];
      if (pad >= *extent)
        return op->emitOpError("'padding' ")
               << pad << " on the " << (side ? "end" : "start") << " of "
               << kDimNames[d] << " must be smaller than the dilated kernel "
               << "extent " << *extent
               << " (every window must hold a real element)";
    }
    std::optional<int64_t> size = quantopt::ref::windowOutputSize(
        inType.getDimSize(1 + d), padding[2 * d], padding[2 * d + 1], kernel[d],
        strides[d], dilations[d]);
    if (!size)
      return op->emitOpError("dilated kernel extent ")
             << *extent << " does not fit the padded input " << kDimNames[d]
             << " = " << inType.getDimSize(1 + d) << " + " << padding[2 * d]
             << " + " << padding[2 * d + 1];
    if (dilations[d] > inType.getDimSize(1 + d) && *size > kMaxWindows)
      return op->emitOpError("dilation ")
             << dilations[d] << " exceeds the input " << kDimNames[d] << " = "
             << inType.getDimSize(1 + d) << " with " << *size
             << " output positions: too many windows to check that each holds "
                "a real element";
    if (std::optional<int64_t> empty =
            findEmptyWindow(inType.getDimSize(1 + d), padding[2 * d], kernel[d],
                            strides[d], dilations[d], *size))
      return op->emitOpError("window ")
             << *empty << " along " << kDimNames[d]
             << " holds only padding: its taps step over the input "
             << kDimNames[d] << " = " << inType.getDimSize(1 + d)
             << " (dilation " << dilations[d]
             << "); every window must hold a real element";
    expected[1 + d] = *size;
  }
  if (outType.getShape() != ArrayRef<int64_t>(expected))
    return op->emitOpError("result must have shape [")
           << ArrayRef<int64_t>(expected) << "] (N x OH x OW x C), got "
           << outType;
  return success();
}

//===----------------------------------------------------------------------===//
// AddOp
//===----------------------------------------------------------------------===//

LogicalResult AddOp::verify() {
  RankedTensorType aType = getA().getType(), bType = getB().getType(),
                   yType = getResult().getType();
  if (failed(verifyQuantizedValue(*this, "a", aType, kIoStorage)) ||
      failed(verifyQuantizedValue(*this, "b", bType, kIoStorage)) ||
      failed(verifyQuantizedValue(*this, "result", yType, kIoStorage)) ||
      failed(verifyPerTensor(*this, "a", aType)) ||
      failed(verifyPerTensor(*this, "b", bType)) ||
      failed(verifyPerTensor(*this, "result", yType)) ||
      failed(verifyStatic(*this, "a", aType)) ||
      failed(verifyStatic(*this, "b", bType)) ||
      failed(verifyStatic(*this, "result", yType)))
    return failure();
  if (aType.getRank() != yType.getRank() || bType.getRank() != yType.getRank())
    return emitOpError("'a', 'b' and the result must have equal ranks "
                       "(broadcasting only stretches size-1 dimensions), got ")
           << aType.getRank() << ", " << bType.getRank() << " and "
           << yType.getRank();
  for (int64_t d = 0, e = yType.getRank(); d < e; ++d) {
    int64_t da = aType.getDimSize(d), db = bType.getDimSize(d);
    int64_t broadcast = da == 1 ? db : da;
    if ((da != 1 && db != 1 && da != db) || yType.getDimSize(d) != broadcast)
      return emitOpError("dimension ")
             << d << ": 'a' size " << da << " and 'b' size " << db
             << " do not broadcast to the result size " << yType.getDimSize(d)
             << " (each must equal it or be 1)";
  }
  if (failed(verifyRoundingName(*this, getRoundingAttr())))
    return failure();

  quant::QuantizedType y = getUniformElementType(yType);
  quantopt::ref::QuantParams out = getQuantParams(y);
  // (q - z) << left_shift must be exact in i32 (TFLite's integer add
  // structure). Run-time codes may use every bit pattern of the storage
  // width (a narrow range is not enforced on data), so the bound is taken
  // over all of them; only an i16 input with an 8-bit result can break it.
  auto maxOffsetOf = [](quant::QuantizedType q) {
    unsigned width = q.getStorageTypeIntegralWidth();
    int64_t lo = q.isSigned() ? -(int64_t(1) << (width - 1)) : 0;
    int64_t hi = q.isSigned() ? (int64_t(1) << (width - 1)) - 1
                              : (int64_t(1) << width) - 1;
    int64_t z = getQuantParams(q).zeroPoints.front();
    return std::max(hi - z, z - lo);
  };
  if (getRounding() == RoundingMode::Float) {
    // v = f32(a - z_a) * r_a + f32(b - z_b) * r_b in f32 must stay finite:
    // an infinite term, or two opposite ones whose sum is NaN, would leave
    // the saturation nothing to act on. f32 arithmetic is monotone, so the
    // largest offsets bound every v.
    quant::QuantizedType qa = getUniformElementType(aType),
                         qb = getUniformElementType(bType);
    float sy = static_cast<float>(out.scales.front());
    float ra = static_cast<float>(getQuantParams(qa).scales.front()) / sy;
    float rb = static_cast<float>(getQuantParams(qb).scales.front()) / sy;
    float bound = static_cast<float>(maxOffsetOf(qa)) * ra +
                  static_cast<float>(maxOffsetOf(qb)) * rb;
    if (!std::isfinite(bound))
      return emitOpError("rounding = \"float\": max|a - z_a| * S_a/S_y + "
                         "max|b - z_b| * S_b/S_y = ")
             << maxOffsetOf(qa) << " * " << ra << " + " << maxOffsetOf(qb)
             << " * " << rb << " overflows f32";
  } else {
    int leftShift = y.getStorageTypeIntegralWidth() == 8 ? 20 : 15;
    for (auto [name, type] :
         {std::pair<StringRef, RankedTensorType>{"a", aType}, {"b", bType}}) {
      quant::QuantizedType q = getUniformElementType(type);
      int64_t maxOffset = maxOffsetOf(q);
      if ((maxOffset << leftShift) > std::numeric_limits<int32_t>::max())
        return emitOpError("'")
               << name << "': max|q - z| = " << maxOffset << " over the "
               << storageName(q) << " codes, shifted left by " << leftShift
               << " (the integer add's left_shift for a "
               << y.getStorageTypeIntegralWidth()
               << "-bit result), overflows i32; use an i16 result or "
                  "rounding = \"float\"";
    }
  }
  return verifyClamp(*this, getClamp(), out);
}

//===----------------------------------------------------------------------===//
// Pools
//===----------------------------------------------------------------------===//

LogicalResult MaxPool2DOp::verify() {
  return verifyPool(*this, getInput().getType(), getOutput().getType(),
                    getKernel(), getStrides(), getDilations(), getPadding());
}

LogicalResult AvgPool2DOp::verify() {
  static const int64_t kNoDilation[] = {1, 1};
  if (failed(verifyTieRounding(*this, getRoundingAttr())))
    return failure();
  return verifyPool(*this, getInput().getType(), getOutput().getType(),
                    getKernel(), getStrides(), kNoDilation, getPadding());
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult ConcatOp::verify() {
  RankedTensorType yType = getResult().getType();
  if (getInputs().empty())
    return emitOpError("expects at least one operand");
  if (failed(verifyQuantizedValue(*this, "result", yType, kIoStorage)) ||
      failed(verifyPerTensor(*this, "result", yType)) ||
      failed(verifyStatic(*this, "result", yType)))
    return failure();
  int64_t rank = yType.getRank(), axis = getAxis();
  if (axis < 0 || axis >= rank)
    return emitOpError("'axis' ")
           << axis << " must lie in [0, " << rank << ") (the result rank)";
  quant::QuantizedType y = getUniformElementType(yType);

  int64_t axisSize = 0;
  for (auto [i, input] : llvm::enumerate(getInputs())) {
    auto type = cast<RankedTensorType>(input.getType());
    std::string name = ("operand #" + Twine(i)).str();
    if (failed(verifyQuantizedValue(*this, name, type, kIoStorage)) ||
        failed(verifyPerTensor(*this, name, type)) ||
        failed(verifyStatic(*this, name, type)))
      return failure();
    quant::QuantizedType q = getUniformElementType(type);
    if (q.getStorageTypeIntegralWidth() != y.getStorageTypeIntegralWidth() ||
        q.isSigned() != y.isSigned())
      return emitOpError("'")
             << name << "' storage " << storageName(q)
             << " must equal the result storage " << storageName(y)
             << " (concat requantizes scales, not storage types)";
    quantopt::ref::QuantParams qp = getQuantParams(q), yp = getQuantParams(y);
    if (qp.storageMin < yp.storageMin || qp.storageMax > yp.storageMax)
      return emitOpError("'")
             << name << "' storage range [" << qp.storageMin << ", "
             << qp.storageMax << "] must lie within the result storage range ["
             << yp.storageMin << ", " << yp.storageMax
             << "] (codes of equal scale and zero point are copied)";
    if (type.getRank() != rank)
      return emitOpError("'") << name << "' must have the result rank " << rank
                              << ", got " << type;
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && type.getDimSize(d) != yType.getDimSize(d))
        return emitOpError("'") << name << "' dimension " << d << " has size "
                                << type.getDimSize(d) << " but the result has "
                                << yType.getDimSize(d) << " (only 'axis' "
                                << axis << " may differ)";
    axisSize += type.getDimSize(axis);
  }
  if (yType.getDimSize(axis) != axisSize)
    return emitOpError("result dimension ")
           << axis << " must be the sum of the operand sizes " << axisSize
           << ", got " << yType.getDimSize(axis);
  return verifyRoundingName(*this, getRoundingAttr());
}
