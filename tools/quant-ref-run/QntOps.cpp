//===- QntOps.cpp - qnt ops in generic form on the reference model --------===//
//
// Each `qnt` op is read by name, operands and attributes (defaults as in the
// public contract), checked the way the contract's verifier rules say, and
// evaluated with the reference kernels. The checks are repeated here on
// purpose: this tool links none of the compiler, so a rule the compiler gets
// wrong cannot also be wrong here by sharing the code.
//
//===----------------------------------------------------------------------===//

#include "Interpreter.h"

#include "QuantOpt/Reference/NetworkKernels.h"
#include "QuantOpt/Reference/WindowArithmetic.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace quantrefrun;
namespace ref = quantopt::ref;

namespace {

LogicalResult checkArity(Operation *op, unsigned minOperands,
                         unsigned maxOperands, unsigned results) {
  if (op->getNumOperands() < minOperands ||
      op->getNumOperands() > maxOperands || op->getNumResults() != results ||
      op->getNumRegions() != 0)
    return op->emitError("quant-ref-run: '")
           << op->getName() << "' expects "
           << (minOperands == maxOperands
                   ? std::to_string(minOperands)
                   : std::to_string(minOperands) + " to " +
                         std::to_string(maxOperands))
           << " operands, " << results << " result(s) and no region";
  return success();
}

bool isF32Tensor(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  return shaped && shaped.getElementType().isF32();
}

/// Contract storage rule for activations: i8, u8 or i16 (signed).
LogicalResult checkActivationStorage(Operation *op, StringRef what,
                                     Type type) {
  FailureOr<Storage> storage = readStorage(op, what, type);
  if (failed(storage))
    return failure();
  if (storage->width == 8 || (storage->width == 16 && storage->isSigned))
    return success();
  return op->emitError("quant-ref-run: ")
         << what << " storage must be i8, u8 or i16, got " << type;
}

LogicalResult checkPerTensor(Operation *op, StringRef what,
                             const ref::QuantParams &p) {
  if (p.isPerAxis())
    return op->emitError("quant-ref-run: ")
           << what << ": per-axis is not supported for '" << op->getName()
           << "'";
  return success();
}

/// The largest |q - z| over a type's storage range and zero points.
int64_t maxAbsOffset(const ref::QuantParams &p) {
  int64_t result = 0;
  for (int32_t z : p.zeroPoints)
    result = std::max({result, int64_t(p.storageMax) - z,
                       int64_t(z) - p.storageMin});
  return result;
}

/// The contract's static accumulator rule: K * max|x - z_x| * max|w - z_w|
/// must fit in i32 (the reference kernels abort on an actual overflow).
LogicalResult checkAccumulatorBound(Operation *op, int64_t k,
                                    const ref::QuantParams &x,
                                    const ref::QuantParams &w) {
  std::optional<int64_t> bound = ref::checkedMul(k, maxAbsOffset(x));
  if (bound)
    bound = ref::checkedMul(*bound, maxAbsOffset(w));
  if (!bound || *bound > std::numeric_limits<int32_t>::max())
    return op->emitError("quant-ref-run: worst-case accumulator can overflow "
                         "i32: K = ")
           << k << ", max|x - z_x| = " << maxAbsOffset(x)
           << ", max|w - z_w| = " << maxAbsOffset(w);
  return success();
}

/// Bias of matmul / conv2d: rank 1 with `channels` entries, i32 storage,
/// zero point 0.
LogicalResult checkBias(Operation *op, Type type, int64_t channels) {
  FailureOr<std::vector<int64_t>> shape = readShape(op, "'bias'", type);
  FailureOr<ref::QuantParams> params = readQuantParams(op, "'bias'", type);
  if (failed(shape) || failed(params))
    return failure();
  FailureOr<Storage> storage = readStorage(op, "'bias'", type);
  if (shape->size() != 1 || (*shape)[0] != channels)
    return op->emitError("quant-ref-run: 'bias' must have shape [")
           << channels << "], got " << type;
  if (storage->width != 32 || !storage->isSigned)
    return op->emitError("quant-ref-run: 'bias' storage must be i32, got ")
           << type;
  for (int32_t z : params->zeroPoints)
    if (z != 0)
      return op->emitError("quant-ref-run: 'bias' zero point must be 0");
  return success();
}

/// Result must be an i32 accumulator of the expected shape.
LogicalResult checkAccumulatorResult(Operation *op,
                                     const std::vector<int64_t> &expected) {
  Type type = op->getResult(0).getType();
  FailureOr<std::vector<int64_t>> shape = readShape(op, "result", type);
  FailureOr<ref::QuantParams> params = readQuantParams(op, "result", type);
  if (failed(shape) || failed(params))
    return failure();
  FailureOr<Storage> storage = readStorage(op, "result", type);
  if (storage->width != 32 || !storage->isSigned)
    return op->emitError("quant-ref-run: result must be an i32 accumulator, "
                         "got ")
           << type;
  if (*shape != expected)
    return op->emitError("quant-ref-run: result shape does not match the "
                         "operands, got ")
           << type;
  return success();
}

/// Operand codes with their expected element count checked.
const Tensor *codesOf(Operation *op, const Tensor *t, StringRef what) {
  if (!t)
    return nullptr;
  if (int64_t(t->codes.size()) != numElements(t->shape)) {
    op->emitError("quant-ref-run: ") << what << " holds no integer codes";
    return nullptr;
  }
  return t;
}

} // namespace

LogicalResult Interpreter::evalQnt(Operation *op) {
  StringRef name = op->getName().getStringRef();
  if (name == "qnt.constant")
    return evalConstant(op);
  if (name == "qnt.quantize")
    return evalQuantize(op);
  if (name == "qnt.dequantize")
    return evalDequantize(op);
  if (name == "qnt.requantize")
    return evalRequantize(op);
  if (name == "qnt.matmul")
    return evalMatmul(op);
  if (name == "qnt.conv2d")
    return evalConv2D(op);
  if (name == "qnt.add")
    return evalAdd(op);
  if (name == "qnt.max_pool2d")
    return evalPool2D(op, /*isMax=*/true);
  if (name == "qnt.avg_pool2d")
    return evalPool2D(op, /*isMax=*/false);
  if (name == "qnt.concat")
    return evalConcat(op);
  if (name == "qnt.dequantize_dynamic")
    return evalDequantizeDynamic(op);
  if (name == "qnt.quantize_dynamic")
    return evalQuantizeDynamic(op);
  if (name == "qnt.dynamic_quantize")
    return evalDynamicQuantize(op);
  return op->emitError("quant-ref-run: unsupported op '")
         << name << "' (the reference model runs the public qnt ops only)";
}

LogicalResult Interpreter::evalConstant(Operation *op) {
  if (failed(checkArity(op, 0, 0, 1)) ||
      failed(checkAttributeNames(op, {"value"})))
    return failure();
  Type type = op->getResult(0).getType();
  FailureOr<std::vector<int64_t>> shape = readShape(op, "result", type);
  FailureOr<ref::QuantParams> params = readQuantParams(op, "result", type);
  if (failed(shape) || failed(params))
    return failure();
  FailureOr<Storage> storage = readStorage(op, "result", type);
  auto value = dyn_cast_or_null<DenseIntElementsAttr>(
      getGenericAttr(op, "value"));
  if (!value || value.getType().getShape() != ArrayRef<int64_t>(*shape))
    return op->emitError("quant-ref-run: 'value' must be a dense integer "
                         "attribute of the result's shape");
  Tensor t;
  t.shape = *shape;
  for (const APInt &bits : value.getValues<APInt>()) {
    // The storage type's signedness decides how the bits read, as for the
    // compiler's readCodes (u8 code 200 is stored as ui8 200 or i8 -56).
    int64_t code = storage->isSigned ? bits.getSExtValue()
                                     : int64_t(bits.getZExtValue());
    if (bits.getBitWidth() > 32 || code < params->storageMin ||
        code > params->storageMax)
      return op->emitError("quant-ref-run: 'value' code ")
             << code << " lies outside the storage range ["
             << params->storageMin << ", " << params->storageMax << "]";
    t.codes.push_back(int32_t(code));
  }
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalQuantize(Operation *op) {
  if (failed(checkArity(op, 1, 1, 1)) || failed(checkAttributeNames(op, {})))
    return failure();
  Type inType = op->getOperand(0).getType(), outType = op->getResult(0).getType();
  if (!isF32Tensor(inType))
    return op->emitError("quant-ref-run: 'input' must be a tensor of f32");
  FailureOr<std::vector<int64_t>> inShape = readShape(op, "'input'", inType);
  FailureOr<std::vector<int64_t>> shape = readShape(op, "result", outType);
  FailureOr<ref::QuantParams> params = readQuantParams(op, "result", outType);
  if (failed(inShape) || failed(shape) || failed(params) ||
      failed(checkActivationStorage(op, "result", outType)))
    return failure();
  if (*inShape != *shape)
    return op->emitError("quant-ref-run: 'input' and result shapes differ");
  const Tensor *in = lookup(op, op->getOperand(0));
  if (!in)
    return failure();
  if (int64_t(in->floats.size()) != numElements(*shape))
    return op->emitError("quant-ref-run: 'input' holds no f32 values");
  Tensor t;
  t.shape = *shape;
  t.codes = ref::quantize(in->floats, t.shape, *params);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalDequantize(Operation *op) {
  if (failed(checkArity(op, 1, 1, 1)) || failed(checkAttributeNames(op, {})))
    return failure();
  Type inType = op->getOperand(0).getType(), outType = op->getResult(0).getType();
  if (!isF32Tensor(outType))
    return op->emitError("quant-ref-run: result must be a tensor of f32");
  FailureOr<std::vector<int64_t>> shape = readShape(op, "'input'", inType);
  FailureOr<std::vector<int64_t>> outShape = readShape(op, "result", outType);
  FailureOr<ref::QuantParams> params = readQuantParams(op, "'input'", inType);
  if (failed(shape) || failed(outShape) || failed(params))
    return failure();
  if (*shape != *outShape)
    return op->emitError("quant-ref-run: 'input' and result shapes differ");
  const Tensor *in = codesOf(op, lookup(op, op->getOperand(0)), "'input'");
  if (!in)
    return failure();
  Tensor t;
  t.shape = *shape;
  t.floats = ref::dequantize(in->codes, t.shape, *params);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalRequantize(Operation *op) {
  if (failed(checkArity(op, 1, 1, 1)) ||
      failed(checkAttributeNames(op, {"rounding", "clamp"})))
    return failure();
  Type inType = op->getOperand(0).getType(), outType = op->getResult(0).getType();
  FailureOr<std::vector<int64_t>> shape = readShape(op, "'input'", inType);
  FailureOr<std::vector<int64_t>> outShape = readShape(op, "result", outType);
  FailureOr<ref::QuantParams> in = readQuantParams(op, "'input'", inType);
  FailureOr<ref::QuantParams> out = readQuantParams(op, "result", outType);
  if (failed(shape) || failed(outShape) || failed(in) || failed(out) ||
      failed(checkActivationStorage(op, "result", outType)))
    return failure();
  if (*shape != *outShape)
    return op->emitError("quant-ref-run: 'input' and result shapes differ");
  if (in->isPerAxis() && out->isPerAxis() && in->axis != out->axis)
    return op->emitError("quant-ref-run: 'input' and result per-axis "
                         "dimensions differ");
  FailureOr<ref::RoundingMode> mode = readRounding(op);
  if (failed(mode))
    return failure();
  auto clamp = readClamp(op, *out);
  if (failed(clamp))
    return failure();
  const Tensor *input = codesOf(op, lookup(op, op->getOperand(0)), "'input'");
  if (!input)
    return failure();
  Tensor t;
  t.shape = *shape;
  t.codes = ref::requantize(input->codes, t.shape, *in, *out, *mode, *clamp);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalMatmul(Operation *op) {
  if (failed(checkArity(op, 2, 3, 1)) || failed(checkAttributeNames(op, {})))
    return failure();
  Type xType = op->getOperand(0).getType(), wType = op->getOperand(1).getType();
  FailureOr<std::vector<int64_t>> xShape = readShape(op, "'x'", xType);
  FailureOr<std::vector<int64_t>> wShape = readShape(op, "'w'", wType);
  FailureOr<ref::QuantParams> x = readQuantParams(op, "'x'", xType);
  FailureOr<ref::QuantParams> w = readQuantParams(op, "'w'", wType);
  if (failed(xShape) || failed(wShape) || failed(x) || failed(w))
    return failure();
  FailureOr<Storage> xStorage = readStorage(op, "'x'", xType);
  FailureOr<Storage> wStorage = readStorage(op, "'w'", wType);
  if (xStorage->width != 8 || wStorage->width != 8)
    return op->emitError("quant-ref-run: 'x' and 'w' storage must be i8 or u8");
  if (xShape->size() != 2 || wShape->size() != 2 ||
      (*xShape)[1] != (*wShape)[0])
    return op->emitError("quant-ref-run: 'x' (MxK) and 'w' (KxN) shapes do "
                         "not match");
  if (x->isPerAxis() || (w->isPerAxis() && w->axis != 1))
    return op->emitError("quant-ref-run: 'x' must be per tensor and 'w' per "
                         "tensor or per axis on dimension 1");
  const int64_t m = (*xShape)[0], k = (*xShape)[1], n = (*wShape)[1];
  if (failed(checkAccumulatorResult(op, {m, n})) ||
      failed(checkAccumulatorBound(op, k, *x, *w)))
    return failure();
  std::vector<int32_t> bias;
  if (op->getNumOperands() == 3) {
    if (failed(checkBias(op, op->getOperand(2).getType(), n)))
      return failure();
    const Tensor *b = codesOf(op, lookup(op, op->getOperand(2)), "'bias'");
    if (!b)
      return failure();
    bias = b->codes;
  }
  const Tensor *xv = codesOf(op, lookup(op, op->getOperand(0)), "'x'");
  const Tensor *wv = codesOf(op, lookup(op, op->getOperand(1)), "'w'");
  if (!xv || !wv)
    return failure();
  Tensor t;
  t.shape = {m, n};
  t.codes = ref::matmul(m, k, n, xv->codes, x->zeroPoints.front(), wv->codes,
                        w->zeroPoints, bias);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalConv2D(Operation *op) {
  if (failed(checkArity(op, 2, 3, 1)) ||
      failed(checkAttributeNames(
          op, {"strides", "dilations", "padding", "groups"})))
    return failure();
  Type xType = op->getOperand(0).getType(), wType = op->getOperand(1).getType();
  FailureOr<std::vector<int64_t>> xShape = readShape(op, "'x'", xType);
  FailureOr<std::vector<int64_t>> wShape = readShape(op, "'w'", wType);
  FailureOr<ref::QuantParams> x = readQuantParams(op, "'x'", xType);
  FailureOr<ref::QuantParams> w = readQuantParams(op, "'w'", wType);
  auto strides = readI64Array(op, "strides", 2, {1, 1}, 1);
  auto dilations = readI64Array(op, "dilations", 2, {1, 1}, 1);
  auto padding = readI64Array(op, "padding", 4, {0, 0, 0, 0}, 0);
  if (failed(xShape) || failed(wShape) || failed(x) || failed(w) ||
      failed(strides) || failed(dilations) || failed(padding))
    return failure();
  int64_t groups = 1;
  if (Attribute attr = getGenericAttr(op, "groups")) {
    auto integer = dyn_cast<IntegerAttr>(attr);
    if (!integer || !integer.getType().isInteger(64) || integer.getInt() < 1)
      return op->emitError("quant-ref-run: 'groups' must be an i64 >= 1, got ")
             << attr;
    groups = integer.getInt();
  }
  FailureOr<Storage> xStorage = readStorage(op, "'x'", xType);
  FailureOr<Storage> wStorage = readStorage(op, "'w'", wType);
  if (xStorage->width != 8 || wStorage->width != 8)
    return op->emitError("quant-ref-run: 'x' and 'w' storage must be i8 or u8");
  if (xShape->size() != 4 || wShape->size() != 4)
    return op->emitError("quant-ref-run: 'x' must be NHWC and 'w' HWCF");
  ref::Conv2DShape s;
  s.batch = (*xShape)[0], s.inH = (*xShape)[1], s.inW = (*xShape)[2];
  s.inC = (*xShape)[3], s.kernelH = (*wShape)[0], s.kernelW = (*wShape)[1];
  s.outC = (*wShape)[3];
  s.strideH = (*strides)[0], s.strideW = (*strides)[1];
  s.dilationH = (*dilations)[0], s.dilationW = (*dilations)[1];
  s.padTop = (*padding)[0], s.padBottom = (*padding)[1];
  s.padLeft = (*padding)[2], s.padRight = (*padding)[3];
  s.groups = groups;
  if (s.inC % groups != 0 || s.outC % groups != 0 ||
      (*wShape)[2] != s.inC / groups)
    return op->emitError("quant-ref-run: 'groups' = ")
           << groups << " must divide the " << s.inC << " input and "
           << s.outC << " output channels, with 'w' dimension 2 = C/groups";
  if (x->isPerAxis() || (w->isPerAxis() && w->axis != 3))
    return op->emitError("quant-ref-run: 'x' must be per tensor and 'w' per "
                         "tensor or per axis on dimension 3");
  std::optional<int64_t> outH = ref::windowOutputSize(
      s.inH, s.padTop, s.padBottom, s.kernelH, s.strideH, s.dilationH);
  std::optional<int64_t> outW = ref::windowOutputSize(
      s.inW, s.padLeft, s.padRight, s.kernelW, s.strideW, s.dilationW);
  if (!outH || !outW)
    return op->emitError("quant-ref-run: the dilated kernel does not fit the "
                         "padded input");
  if (failed(checkAccumulatorResult(op, {s.batch, *outH, *outW, s.outC})) ||
      failed(checkAccumulatorBound(op, s.kernelH * s.kernelW * (s.inC / groups),
                                   *x, *w)))
    return failure();
  std::vector<int32_t> bias;
  if (op->getNumOperands() == 3) {
    if (failed(checkBias(op, op->getOperand(2).getType(), s.outC)))
      return failure();
    const Tensor *b = codesOf(op, lookup(op, op->getOperand(2)), "'bias'");
    if (!b)
      return failure();
    bias = b->codes;
  }
  const Tensor *xv = codesOf(op, lookup(op, op->getOperand(0)), "'x'");
  const Tensor *wv = codesOf(op, lookup(op, op->getOperand(1)), "'w'");
  if (!xv || !wv)
    return failure();
  Tensor t;
  t.shape = {s.batch, *outH, *outW, s.outC};
  t.codes = ref::conv2d(s, xv->codes, x->zeroPoints.front(), wv->codes,
                        w->zeroPoints, bias);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalAdd(Operation *op) {
  if (failed(checkArity(op, 2, 2, 1)) ||
      failed(checkAttributeNames(op, {"rounding", "clamp"})))
    return failure();
  Type aType = op->getOperand(0).getType(), bType = op->getOperand(1).getType();
  Type yType = op->getResult(0).getType();
  FailureOr<std::vector<int64_t>> aShape = readShape(op, "'a'", aType);
  FailureOr<std::vector<int64_t>> bShape = readShape(op, "'b'", bType);
  FailureOr<std::vector<int64_t>> yShape = readShape(op, "result", yType);
  FailureOr<ref::QuantParams> a = readQuantParams(op, "'a'", aType);
  FailureOr<ref::QuantParams> b = readQuantParams(op, "'b'", bType);
  FailureOr<ref::QuantParams> y = readQuantParams(op, "result", yType);
  if (failed(aShape) || failed(bShape) || failed(yShape) || failed(a) ||
      failed(b) || failed(y) || failed(checkActivationStorage(op, "'a'", aType)) ||
      failed(checkActivationStorage(op, "'b'", bType)) ||
      failed(checkActivationStorage(op, "result", yType)) ||
      failed(checkPerTensor(op, "'a'", *a)) ||
      failed(checkPerTensor(op, "'b'", *b)) ||
      failed(checkPerTensor(op, "result", *y)))
    return failure();
  if (aShape->size() != yShape->size() || bShape->size() != yShape->size())
    return op->emitError("quant-ref-run: 'a', 'b' and the result must have "
                         "equal ranks");
  for (size_t d = 0; d < yShape->size(); ++d) {
    int64_t ad = (*aShape)[d], bd = (*bShape)[d];
    int64_t expected = ad == 1 ? bd : ad;
    if ((ad != 1 && bd != 1 && ad != bd) || (*yShape)[d] != expected)
      return op->emitError("quant-ref-run: dimension ")
             << d << " of 'a' (" << ad << ") and 'b' (" << bd
             << ") does not broadcast to the result's " << (*yShape)[d];
  }
  FailureOr<ref::RoundingMode> mode = readRounding(op);
  if (failed(mode))
    return failure();
  auto clamp = readClamp(op, *y);
  if (failed(clamp))
    return failure();
  // The integer modes shift (q - z) left by 20 (8-bit result) or 15 (16-bit)
  // and need the result exact in i32: an i16 operand feeding an 8-bit result
  // breaks it (contract: "exact in i32").
  const unsigned yBits = readStorage(op, "result", yType)->width;
  if (*mode != ref::RoundingMode::Float) {
    const int64_t leftShift = ref::addLeftShift(yBits);
    for (auto [what, p] : {std::make_pair("'a'", &*a), std::make_pair("'b'", &*b)})
      if ((maxAbsOffset(*p) << leftShift) > std::numeric_limits<int32_t>::max())
        return op->emitError("quant-ref-run: ")
               << what << ": max|q - z| = " << maxAbsOffset(*p)
               << " shifted left by " << leftShift
               << " (the integer add's left_shift) overflows i32";
  }
  const Tensor *av = codesOf(op, lookup(op, op->getOperand(0)), "'a'");
  const Tensor *bv = codesOf(op, lookup(op, op->getOperand(1)), "'b'");
  if (!av || !bv)
    return failure();
  Tensor t;
  t.shape = *yShape;
  t.codes = ref::add(av->codes, *aShape, *a, bv->codes, *bShape, *b, t.shape,
                     *y, yBits, *mode, *clamp);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalPool2D(Operation *op, bool isMax) {
  if (failed(checkArity(op, 1, 1, 1)))
    return failure();
  if (isMax ? failed(checkAttributeNames(
                  op, {"kernel", "strides", "dilations", "padding"}))
            : failed(checkAttributeNames(op, {"kernel", "strides", "padding",
                                              "count_include_pad",
                                              "rounding"})))
    return failure();
  Type xType = op->getOperand(0).getType(), yType = op->getResult(0).getType();
  FailureOr<std::vector<int64_t>> xShape = readShape(op, "'input'", xType);
  FailureOr<std::vector<int64_t>> yShape = readShape(op, "result", yType);
  FailureOr<ref::QuantParams> params = readQuantParams(op, "'input'", xType);
  if (failed(xShape) || failed(yShape) || failed(params) ||
      failed(checkActivationStorage(op, "'input'", xType)))
    return failure();
  if (!getGenericAttr(op, "kernel"))
    return op->emitError("quant-ref-run: missing required attribute 'kernel'");
  auto kernel = readI64Array(op, "kernel", 2, {}, 1);
  auto strides = readI64Array(op, "strides", 2, {1, 1}, 1);
  auto dilations = readI64Array(op, "dilations", 2, {1, 1}, 1);
  auto padding = readI64Array(op, "padding", 4, {0, 0, 0, 0}, 0);
  if (failed(kernel) || failed(strides) || failed(dilations) ||
      failed(padding))
    return failure();
  bool countIncludePad = false;
  if (Attribute attr = getGenericAttr(op, "count_include_pad")) {
    auto flag = dyn_cast<BoolAttr>(attr);
    if (!flag)
      return op->emitError("quant-ref-run: 'count_include_pad' must be a "
                           "bool, got ")
             << attr;
    countIncludePad = flag.getValue();
  }
  // The average's ties: away from zero unless "half_even" is named.
  ref::RoundingMode ties = ref::RoundingMode::Away;
  if (!isMax && getGenericAttr(op, "rounding")) {
    FailureOr<ref::RoundingMode> mode = readRounding(op);
    if (failed(mode))
      return failure();
    if (*mode != ref::RoundingMode::Away &&
        *mode != ref::RoundingMode::HalfEven)
      return op->emitError("quant-ref-run: an average pool's 'rounding' "
                           "must be \"away\" or \"half_even\"");
    ties = *mode;
  }
  if (xShape->size() != 4)
    return op->emitError("quant-ref-run: 'input' must be NHWC (rank 4)");
  if (cast<ShapedType>(xType).getElementType() !=
      cast<ShapedType>(yType).getElementType())
    return op->emitError("quant-ref-run: the result element type must equal "
                         "the input's");
  if (params->isPerAxis() && params->axis != 3)
    return op->emitError("quant-ref-run: 'input' may be per axis on "
                         "dimension 3 (channels) only");
  ref::Pool2DShape s;
  s.batch = (*xShape)[0], s.inH = (*xShape)[1], s.inW = (*xShape)[2];
  s.channels = (*xShape)[3];
  s.kernelH = (*kernel)[0], s.kernelW = (*kernel)[1];
  s.strideH = (*strides)[0], s.strideW = (*strides)[1];
  s.dilationH = (*dilations)[0], s.dilationW = (*dilations)[1];
  s.padTop = (*padding)[0], s.padBottom = (*padding)[1];
  s.padLeft = (*padding)[2], s.padRight = (*padding)[3];
  std::optional<int64_t> extentH =
      ref::dilatedKernelExtent(s.kernelH, s.dilationH);
  std::optional<int64_t> extentW =
      ref::dilatedKernelExtent(s.kernelW, s.dilationW);
  if (!extentH || !extentW || s.padTop >= *extentH ||
      s.padBottom >= *extentH || s.padLeft >= *extentW ||
      s.padRight >= *extentW)
    return op->emitError("quant-ref-run: each 'padding' value must be "
                         "smaller than the (dilated) 'kernel' extent of its "
                         "dimension");
  std::optional<int64_t> outH = s.outH(), outW = s.outW();
  if (!outH || !outW)
    return op->emitError("quant-ref-run: 'kernel' does not fit the padded "
                         "input");
  if (!ref::everyWindowHasInput(s))
    return op->emitError("quant-ref-run: with these 'dilations' and "
                         "'padding' a window holds no input element");
  if (*yShape != std::vector<int64_t>{s.batch, *outH, *outW, s.channels})
    return op->emitError("quant-ref-run: result shape must be ")
           << s.batch << "x" << *outH << "x" << *outW << "x" << s.channels;
  const Tensor *x = codesOf(op, lookup(op, op->getOperand(0)), "'input'");
  if (!x)
    return failure();
  Tensor t;
  t.shape = *yShape;
  t.codes = isMax ? ref::maxPool2d(s, x->codes)
                  : ref::avgPool2d(s, x->codes, *params, countIncludePad,
                                   ties);
  set(op->getResult(0), std::move(t));
  return success();
}

LogicalResult Interpreter::evalConcat(Operation *op) {
  if (op->getNumOperands() < 1 || op->getNumResults() != 1 ||
      op->getNumRegions() != 0)
    return op->emitError("quant-ref-run: 'qnt.concat' expects at least one "
                         "operand and one result");
  if (failed(checkAttributeNames(op, {"axis", "rounding"})))
    return failure();
  auto axisAttr = dyn_cast_or_null<IntegerAttr>(getGenericAttr(op, "axis"));
  if (!axisAttr || !axisAttr.getType().isInteger(64))
    return op->emitError("quant-ref-run: 'axis' must be an i64 attribute");
  FailureOr<ref::RoundingMode> mode = readRounding(op);
  Type yType = op->getResult(0).getType();
  FailureOr<std::vector<int64_t>> yShape = readShape(op, "result", yType);
  FailureOr<ref::QuantParams> y = readQuantParams(op, "result", yType);
  if (failed(mode) || failed(yShape) || failed(y) ||
      failed(checkActivationStorage(op, "result", yType)) ||
      failed(checkPerTensor(op, "result", *y)))
    return failure();
  const int64_t axis = axisAttr.getInt();
  const int64_t rank = yShape->size();
  if (axis < 0 || axis >= rank)
    return op->emitError("quant-ref-run: 'axis' ")
           << axis << " must lie in [0, " << rank << ")";
  FailureOr<Storage> yStorage = readStorage(op, "result", yType);
  std::vector<std::vector<int32_t>> inputs;
  std::vector<std::vector<int64_t>> shapes;
  std::vector<ref::QuantParams> params;
  int64_t axisSize = 0;
  for (auto [i, operand] : llvm::enumerate(op->getOperands())) {
    std::string what = "operand #" + std::to_string(i);
    Type type = operand.getType();
    FailureOr<std::vector<int64_t>> shape = readShape(op, what, type);
    FailureOr<ref::QuantParams> p = readQuantParams(op, what, type);
    if (failed(shape) || failed(p) || failed(checkPerTensor(op, what, *p)))
      return failure();
    FailureOr<Storage> storage = readStorage(op, what, type);
    if (storage->width != yStorage->width ||
        storage->isSigned != yStorage->isSigned)
      return op->emitError("quant-ref-run: ")
             << what << " storage differs from the result's";
    if (int64_t(shape->size()) != rank)
      return op->emitError("quant-ref-run: ") << what << " rank differs";
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && (*shape)[d] != (*yShape)[d])
        return op->emitError("quant-ref-run: ")
               << what << " dimension " << d << " differs from the result's";
    axisSize += (*shape)[axis];
    const Tensor *v = codesOf(op, lookup(op, operand), what);
    if (!v)
      return failure();
    inputs.push_back(v->codes);
    shapes.push_back(*shape);
    params.push_back(*p);
  }
  if (axisSize != (*yShape)[axis])
    return op->emitError("quant-ref-run: result dimension ")
           << axis << " must be the sum of the operands', " << axisSize;
  Tensor t;
  t.shape = *yShape;
  t.codes = ref::concat(inputs, shapes, params, axis, *y, *mode);
  set(op->getResult(0), std::move(t));
  return success();
}
