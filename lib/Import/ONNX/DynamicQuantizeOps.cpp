//===- DynamicQuantizeOps.cpp - run-time scales in ONNX graphs ------------===//
//
// DynamicQuantizeLinear becomes qnt.dynamic_quantize {mode = "onnx"} (the
// same definition, docs/RuntimeScales.md); its codes and zero point are raw
// u8 integers (Kind::Int, carried as i8 bits like u8 graph inputs) and its
// scale an f32 value. DequantizeLinear whose scale is only known at run time
// (integer codes of any supported width, int32 included) becomes
// qnt.dequantize_dynamic with the scale and zero point broadcast per tensor
// or per axis.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
/// `value` (rank 0 or 1, `n` elements) in the broadcast shape `shape`
/// (1s, and n in at most one dimension).
Value toParamShape(Importer &im, Value value, ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(value.getType());
  if (type.getRank() == 0 && !shape.empty())
    return tensor::ExpandShapeOp::create(
        im.b, im.loc, RankedTensorType::get(shape, type.getElementType()),
        value, ArrayRef<ReassociationIndices>{});
  return im.reshape(value, shape);
}

bool isUnsignedType(int32_t dtype) {
  return dtype == onnx::TensorProto::UINT8 ||
         dtype == onnx::TensorProto::UINT16;
}

/// The raw codes of a run-time integer tensor in logical layout, typed as
/// qnt's dynamic ops read them (`ui8` for uint8, signless otherwise).
Value runtimeCodes(Importer &im, const ImportedValue &in) {
  int64_t rank = in.shape.size();
  Value src =
      in.nhwc && rank == 4 ? im.transpose(in.value, {0, 3, 1, 2}) : in.value;
  if (!isUnsignedType(in.dtype))
    return src;
  auto type = cast<RankedTensorType>(src.getType());
  return tensor::BitcastOp::create(
      im.b, im.loc,
      RankedTensorType::get(type.getShape(),
                            IntegerType::get(im.ctx,
                                             type.getElementTypeBitWidth(),
                                             IntegerType::Unsigned)),
      src);
}

/// A per-tensor f32 parameter of `rank` dimensions, all 1.
Value splatParam(Importer &im, int64_t rank, float v) {
  auto type = RankedTensorType::get(SmallVector<int64_t>(rank, 1),
                                    Float32Type::get(im.ctx));
  return arith::ConstantOp::create(im.b, im.loc, type,
                                   DenseElementsAttr::get(type, v));
}
} // namespace

FailureOr<Value> Importer::runtimeIntToF32(const ImportedValue &in) {
  int32_t dtype = in.dtype;
  if (in.kind == Kind::Int && dtype == onnx::TensorProto::INT64) {
    // int64 (token ids, attention masks as torch exports them): sitofp,
    // which rounds to nearest even like C's conversion in ONNX Runtime's
    // Cast.
    return elementwise(*this, {in.value}, in.shape,
                       [](OpBuilder &nb, Location l, ValueRange a) {
                         return arith::SIToFPOp::create(
                             nb, l, nb.getF32Type(), a[0]);
                       });
  }
  if (in.kind != Kind::Int ||
      (dtype != onnx::TensorProto::INT8 && dtype != onnx::TensorProto::UINT8 &&
       dtype != onnx::TensorProto::INT16 && dtype != onnx::TensorProto::INT32))
    return fail("only run-time int8, uint8, int16, int32 or int64 tensors "
                "convert to float");
  // Exact: (f32(x) - 0) * 1 is f32(x), which is ONNX's Cast.
  int64_t rank = in.shape.size();
  return qnt::DequantizeDynamicOp::create(
             b, loc, RankedTensorType::get(in.shape, Float32Type::get(ctx)),
             runtimeCodes(*this, in), splatParam(*this, rank, 1.0f),
             splatParam(*this, rank, 0.0f))
      .getResult();
}

LogicalResult Importer::importDynamicQuantizeLinear() {
  if (failed(checkAttrs({})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  auto xf = floatValue(**x, /*nhwc=*/false);
  if (failed(xf))
    return failure();
  llvm::SmallVector<int64_t> shape = (*x)->shape;
  Type ui8 = IntegerType::get(ctx, 8, IntegerType::Unsigned);
  Type i8 = IntegerType::get(ctx, 8);
  auto op = qnt::DynamicQuantizeOp::create(
      b, loc,
      TypeRange{RankedTensorType::get(shape, ui8),
                RankedTensorType::get({}, Float32Type::get(ctx)),
                RankedTensorType::get({}, ui8)},
      *xf, qnt::DynamicQuantizeMode::Onnx, /*axis=*/nullptr);

  ImportedValue codes;
  codes.kind = Kind::Int;
  codes.dtype = onnx::TensorProto::UINT8;
  codes.shape = shape;
  codes.value = tensor::BitcastOp::create(b, loc, RankedTensorType::get(shape, i8),
                                          op.getCodes());
  ImportedValue scale;
  scale.kind = Kind::Float;
  scale.value = op.getScale();
  ImportedValue zeroPoint;
  zeroPoint.kind = Kind::Int;
  zeroPoint.dtype = onnx::TensorProto::UINT8;
  zeroPoint.value = tensor::BitcastOp::create(
      b, loc, RankedTensorType::get({}, i8), op.getZeroPoint());
  setOutput(0, std::move(codes));
  if (node->output_size() > 1)
    setOutput(1, std::move(scale));
  if (node->output_size() > 2)
    setOutput(2, std::move(zeroPoint));
  return success();
}

LogicalResult Importer::importDequantizeLinearDynamic() {
  auto x = input(0);
  auto s = input(1);
  if (failed(x) || failed(s))
    return failure();
  ImportedValue &in = **x;
  int32_t dtype = in.dtype;
  if (in.kind != Kind::Int ||
      (dtype != onnx::TensorProto::INT8 && dtype != onnx::TensorProto::UINT8 &&
       dtype != onnx::TensorProto::INT16 && dtype != onnx::TensorProto::INT32))
    return fail("DequantizeLinear with a run-time scale needs run-time "
                "int8, uint8, int16 or int32 codes");
  int64_t rank = in.shape.size();
  ImportedValue &scaleIn = **s;
  if (scaleIn.shape.size() > 1)
    return fail("the run-time scale must be a scalar or 1-D");
  int64_t count = scaleIn.shape.empty() ? 1 : scaleIn.shape[0];
  // Parameter shape: all 1s per tensor, the axis dimension per axis.
  SmallVector<int64_t> paramShape(rank, 1);
  if (!scaleIn.shape.empty() && count != 1) {
    int64_t axis = attrInt("axis").value_or(1);
    if (axis < 0)
      axis += rank;
    if (axis < 0 || axis >= rank)
      return fail("axis out of range");
    if (in.shape[axis] != count)
      return fail("per-axis scale has " + Twine(count) +
                  " elements, the axis has " + Twine(in.shape[axis]));
    paramShape[axis] = count;
  }
  auto scaleValue = floatValue(scaleIn, /*nhwc=*/false);
  if (failed(scaleValue))
    return failure();
  Type f32 = Float32Type::get(ctx);
  auto paramType = RankedTensorType::get(paramShape, f32);

  // The zero point as f32 offsets: a constant, or run-time codes converted
  // exactly by a dequantize_dynamic with scale 1 and offset 0.
  Value offset;
  auto zeroF32 = [&](ArrayRef<int64_t> shape, float v) -> Value {
    auto type = RankedTensorType::get(shape, f32);
    return arith::ConstantOp::create(b, loc, type,
                                     DenseElementsAttr::get(type, v));
  };
  if (!hasInput(2)) {
    offset = zeroF32(paramShape, 0.0f);
  } else {
    auto z = input(2);
    if (failed(z))
      return failure();
    ImportedValue &zp = **z;
    if (zp.dtype != dtype)
      return fail("the input's element type does not match the zero "
                  "point's");
    if (zp.numElements() != count)
      return fail("the zero point and the scale differ in size");
    // qnt.dequantize_dynamic computes (f32(x) - f32(z)) * s, ONNX
    // f32(x - z) * s: the same for 8- and 16-bit codes, which f32 holds
    // exactly, not for int32 beyond 2^24 (ONNX gives int32 no zero point).
    if (dtype == onnx::TensorProto::INT32 &&
        (zp.kind != Kind::Const ||
         llvm::any_of(zp.i, [](int64_t v) { return v != 0; })))
      return fail("DequantizeLinear of run-time int32 values with a nonzero "
                  "or run-time zero point is not supported");
    if (zp.kind == Kind::Const) {
      SmallVector<float> values(zp.i.begin(), zp.i.end());
      offset = arith::ConstantOp::create(
          b, loc, paramType,
          DenseElementsAttr::get(paramType, ArrayRef<float>(values)));
    } else if (zp.kind == Kind::Int) {
      auto converted = runtimeIntToF32(zp);
      if (failed(converted))
        return failure();
      offset = toParamShape(*this, *converted, paramShape);
    } else {
      return fail("the zero point must be an integer tensor");
    }
  }

  Value src = runtimeCodes(*this, in);
  ImportedValue out;
  out.kind = Kind::Float;
  out.dtype = onnx::TensorProto::FLOAT;
  out.shape = in.shape;
  out.value = qnt::DequantizeDynamicOp::create(
      b, loc, RankedTensorType::get(in.shape, f32), src,
      toParamShape(*this, *scaleValue, paramShape), offset);
  setOutput(0, std::move(out));
  return success();
}
