//===- StripQuantTypes.cpp - !quant.uniform -> storage integers -----------===//
//
// The last step into explicit integer IR. A dialect conversion replaces every
// tensor of `!quant.uniform` by the tensor of its signless storage integer
// (i8 for u8 too) in function signatures, block arguments, calls, returns,
// structured control flow, linalg.transpose / linalg.broadcast /
// linalg.fill, tensor.pad and any other region-free op
// (tensor.collapse_shape, tensor.expand_shape, tensor.extract_slice,
// tensor.concat, ...), and rewrites the quantization-aware ops:
//
//   qnt.quantize   -> qnt.int_quantize   (scales, zero points, range as attrs)
//   qnt.dequantize -> qnt.int_dequantize
//   qnt.constant   -> arith.constant     (the same bits, signless)
//   tensor.bitcast -> its operand        (ui8 <-> i8: raw unsigned codes are
//                                         signless too)
//   quant.scast    -> its converted operand
//
// Other ops with regions on quantized values are reported by name.
//
// Signedness of 8-bit codes is carried by the integer ops' unit attributes;
// function arguments and results that held unsigned codes are marked with
// `qnt.unsigned` so that callers (and the C interface) know how to read them.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "TransformUtils.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Patterns.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/StringExtras.h"

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTSTRIPQUANTTYPES
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

/// Marks function arguments / results whose codes are unsigned.
static constexpr StringLiteral kUnsignedAttrName = "qnt.unsigned";

namespace {
/// Raw unsigned codes (`ui8`, e.g. the operand of a `tensor.bitcast` to
/// `i8`) also become signless: LLVM integers carry no sign.
static Type getSignlessIntegerType(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer || integer.isSignless())
    return type;
  return IntegerType::get(type.getContext(), integer.getWidth());
}

class QuantTypeConverter : public TypeConverter {
public:
  QuantTypeConverter() {
    addConversion([](Type type) { return type; });
    addConversion([](IntegerType type) -> Type {
      return getSignlessIntegerType(type);
    });
    addConversion([](quant::QuantizedType type) -> Type {
      return getSignlessStorageType(type);
    });
    addConversion([](ShapedType type) -> Type {
      Type converted = getStorageTensorType(type);
      auto shaped = cast<ShapedType>(converted);
      return shaped.clone(getSignlessIntegerType(shaped.getElementType()));
    });
  }
};
} // namespace

/// Scales of a quantized type as the f32 values the integer ops use.
static SmallVector<float> getF32Scales(const quantopt::ref::QuantParams &p) {
  SmallVector<float> scales;
  for (double scale : p.scales)
    scales.push_back(static_cast<float>(scale));
  return scales;
}

namespace {
struct QuantizeLowering : OpConversionPattern<QuantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    quant::QuantizedType type = getUniformElementType(op.getType());
    quantopt::ref::QuantParams params = getQuantParams(type);
    rewriter.replaceOpWithNewOp<IntQuantizeOp>(
        op, getStorageTensorType(op.getType()), adaptor.getInput(),
        rewriter.getDenseF32ArrayAttr(getF32Scales(params)),
        rewriter.getDenseI32ArrayAttr(params.zeroPoints),
        rewriter.getI32IntegerAttr(params.storageMin),
        rewriter.getI32IntegerAttr(params.storageMax),
        rewriter.getI64IntegerAttr(params.axis),
        type.isSigned() ? UnitAttr() : rewriter.getUnitAttr());
    return success();
  }
};

struct DequantizeLowering : OpConversionPattern<DequantizeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    quant::QuantizedType type = getUniformElementType(op.getInput().getType());
    quantopt::ref::QuantParams params = getQuantParams(type);
    rewriter.replaceOpWithNewOp<IntDequantizeOp>(
        op, op.getType(), adaptor.getInput(),
        rewriter.getDenseF32ArrayAttr(getF32Scales(params)),
        rewriter.getDenseI32ArrayAttr(params.zeroPoints),
        rewriter.getI64IntegerAttr(params.axis),
        type.isSigned() ? UnitAttr() : rewriter.getUnitAttr());
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type = cast<ShapedType>(getStorageTensorType(op.getType()));
    // ui8 codes keep their bits: 200 becomes -56 : i8.
    auto value = op.getValue().bitcast(type.getElementType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   cast<TypedAttr>(value));
    return success();
  }
};

/// Both directions of `quant.scast` are the identity on storage integers.
struct StorageCastLowering : OpConversionPattern<quant::StorageCastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(quant::StorageCastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType || adaptor.getInput().getType() != resultType)
      return rewriter.notifyMatchFailure(op, "operand and result differ "
                                             "after conversion");
    rewriter.replaceOp(op, adaptor.getInput());
    return success();
  }
};

/// `tensor.bitcast` between same-width integers (ui8 <-> i8) keeps the bits:
/// on signless storage integers it is the identity.
struct BitcastLowering : OpConversionPattern<tensor::BitcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tensor::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultType = getTypeConverter()->convertType(op.getType());
    if (!resultType)
      return failure();
    if (adaptor.getSource().getType() == resultType) {
      rewriter.replaceOp(op, adaptor.getSource());
      return success();
    }
    rewriter.replaceOpWithNewOp<tensor::BitcastOp>(op, resultType,
                                                   adaptor.getSource());
    return success();
  }
};

/// A constant of unsigned integers (`dense<[200, 1]> : tensor<2xui8>`) keeps
/// its bits as signless integers (`[-56, 1] : tensor<2xi8>`).
struct UnsignedConstantLowering : OpConversionPattern<arith::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(arith::ConstantOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto type =
        dyn_cast<ShapedType>(getTypeConverter()->convertType(op.getType()));
    auto value = dyn_cast<DenseIntElementsAttr>(op.getValue());
    if (!type || !value || type == op.getType())
      return failure();
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, cast<TypedAttr>(value.bitcast(type.getElementType())));
    return success();
  }
};

/// linalg.transpose / linalg.broadcast move codes without looking at them,
/// but carry a region whose block arguments have the element type: rebuild
/// them on the storage integers (the builders create the region).
struct TransposeLowering : OpConversionPattern<linalg::TransposeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(linalg::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto newOp = linalg::TransposeOp::create(
        rewriter, op.getLoc(), adaptor.getInput(), adaptor.getInit(),
        op.getPermutation());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

struct BroadcastLowering : OpConversionPattern<linalg::BroadcastOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(linalg::BroadcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto newOp = linalg::BroadcastOp::create(
        rewriter, op.getLoc(), adaptor.getInput(), adaptor.getInit(),
        op.getDimensions());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

/// linalg.fill writes its scalar (a `quant.scast` of the code) everywhere:
/// rebuilt on the storage integers like linalg.transpose.
struct FillLowering : OpConversionPattern<linalg::FillOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(linalg::FillOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto newOp = linalg::FillOp::create(
        rewriter, op.getLoc(), adaptor.getInputs(), adaptor.getOutputs());
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};

/// tensor.pad pads with the value its region yields, so the codes it pads
/// with are exactly the yielded code: the region (whose block arguments are
/// indices) moves unchanged into a pad of the storage type, and the yield
/// and the `quant.scast` before it are converted like any other op.
struct PadLowering : OpConversionPattern<tensor::PadOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tensor::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType =
        getTypeConverter()->convertType<RankedTensorType>(op.getResultType());
    if (!resultType)
      return failure();
    auto newOp = tensor::PadOp::create(
        rewriter, op.getLoc(), resultType, adaptor.getSource(),
        adaptor.getLow(), adaptor.getHigh(), op.getStaticLowAttr(),
        op.getStaticHighAttr(), op.getNofoldAttr());
    newOp->setDiscardableAttrs(op->getDiscardableAttrDictionary());
    rewriter.inlineRegionBefore(op.getRegion(), newOp.getRegion(),
                                newOp.getRegion().end());
    rewriter.replaceOp(op, newOp.getResult());
    return success();
  }
};

/// Any other op without regions or successors (tensor.collapse_shape,
/// tensor.empty, ...) just gets converted operand and result types.
struct GenericTypeConversion : ConversionPattern {
  GenericTypeConversion(const TypeConverter &converter, MLIRContext *ctx)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/0, ctx) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    // The quant dialect's own casts (qcast, dcast) would become invalid.
    if (op->getNumRegions() != 0 || op->getNumSuccessors() != 0 ||
        isa_and_present<quant::QuantDialect, QntDialect>(op->getDialect()))
      return failure();
    SmallVector<Type> resultTypes;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(),
                                                resultTypes)))
      return failure();
    Operation *newOp = rewriter.clone(*op);
    rewriter.modifyOpInPlace(newOp, [&] {
      newOp->setOperands(operands);
      for (auto [result, type] : llvm::zip(newOp->getResults(), resultTypes))
        result.setType(type);
    });
    rewriter.replaceOp(op, newOp->getResults());
    return success();
  }
};
} // namespace

/// The ops the earlier passes must have rewritten: their semantics depend on
/// the quant types this pass erases. Reports every one of them.
static LogicalResult checkNoPublicComputeOps(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    StringRef pass;
    if (isa<MatmulOp, Conv2DOp>(op))
      pass = "qnt-fold-zero-points";
    else if (isa<RequantizeOp>(op))
      pass = "qnt-fixed-point-multiplier";
    else if (isa<AddOp, MaxPool2DOp, AvgPool2DOp, ConcatOp>(op))
      pass = "qnt-network-to-integer";
    else
      return;
    op->emitOpError("is still present in qnt-strip-quant-types: run ")
        << pass << " first";
    found = true;
  });
  return failure(found);
}

/// Whether `type` is, or is a shaped type of, a quantized type.
static bool isQuantized(Type type) {
  return isa<quant::QuantizedType>(getElementTypeOrSelf(type));
}

/// Whether `op` itself (not only ops nested in it) has a quantized operand,
/// result or block argument: exactly the ops this pass must convert.
static bool holdsQuantizedValues(Operation *op) {
  auto isQuantizedValue = [](Value v) { return isQuantized(v.getType()); };
  if (llvm::any_of(op->getOperands(), isQuantizedValue) ||
      llvm::any_of(op->getResults(), isQuantizedValue))
    return true;
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (llvm::any_of(block.getArguments(), isQuantizedValue))
        return true;
  return false;
}

/// The ops with regions that the patterns below rebuild on storage integers
/// (structural conversions included): one list for the check and its
/// message.
namespace {
template <typename... Ops>
struct OpList {
  static bool contains(Operation *op) { return isa<Ops...>(op); }
  /// "a, b and c".
  static std::string names() {
    SmallVector<StringRef> all = {Ops::getOperationName()...};
    return (llvm::join(ArrayRef(all).drop_back(), ", ") + " and " +
            all.back())
        .str();
  }
};
using ConvertedRegionOps =
    OpList<func::FuncOp, scf::ForOp, scf::IfOp, scf::WhileOp,
           scf::IndexSwitchOp, linalg::TransposeOp, linalg::BroadcastOp,
           linalg::FillOp, tensor::PadOp>;
} // namespace

/// The ops on quantized values that this pass cannot convert, reported with
/// what it does convert instead of the conversion's bare "failed to
/// legalize": the quant dialect's own casts, and ops with regions other than
/// ConvertedRegionOps.
static LogicalResult checkConvertibleOps(ModuleOp module) {
  bool found = false;
  module.walk([&](Operation *op) {
    if (!holdsQuantizedValues(op))
      return;
    if (isa<quant::QuantizeCastOp, quant::DequantizeCastOp>(op)) {
      op->emitOpError("is not supported by qnt-strip-quant-types: use ")
          << (isa<quant::QuantizeCastOp>(op) ? "qnt.quantize"
                                             : "qnt.dequantize")
          << " instead";
      found = true;
      return;
    }
    if (op->getNumRegions() == 0 || ConvertedRegionOps::contains(op))
      return;
    op->emitOpError("on quantized element types is not supported by "
                    "qnt-strip-quant-types; the ops with regions it converts "
                    "are ")
        << ConvertedRegionOps::names()
        << " (region-free ops are converted generically): write this op on "
           "the storage integers (quant.scast) instead";
    found = true;
  });
  return failure(found);
}

/// Records which function arguments / results hold unsigned codes, before
/// the signature loses that information.
static void markUnsignedSignatures(ModuleOp module) {
  auto isUnsigned = [](Type type) {
    quant::QuantizedType quantType = getUniformElementType(type);
    if (quantType)
      return !quantType.isSigned();
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.getElementType().isUnsignedInteger();
  };
  Builder builder(module.getContext());
  module.walk([&](func::FuncOp func) {
    FunctionType type = func.getFunctionType();
    for (auto [i, input] : llvm::enumerate(type.getInputs()))
      if (isUnsigned(input))
        func.setArgAttr(i, kUnsignedAttrName, builder.getUnitAttr());
    for (auto [i, output] : llvm::enumerate(type.getResults()))
      if (isUnsigned(output))
        func.setResultAttr(i, kUnsignedAttrName, builder.getUnitAttr());
  });
}

namespace {
struct QntStripQuantTypesPass
    : qnt::impl::QntStripQuantTypesBase<QntStripQuantTypesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkNoPublicComputeOps(module)) ||
        failed(checkConvertibleOps(module)))
      return signalPassFailure();
    markUnsignedSignatures(module);

    MLIRContext *ctx = &getContext();
    QuantTypeConverter converter;
    ConversionTarget target(*ctx);
    target.addIllegalOp<QuantizeOp, DequantizeOp, ConstantOp, MatmulOp,
                        Conv2DOp, RequantizeOp, AddOp, MaxPool2DOp,
                        AvgPool2DOp, ConcatOp, quant::StorageCastOp>();
    target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp op) {
      return converter.isSignatureLegal(op.getFunctionType()) &&
             converter.isLegal(&op.getBody());
    });
    target.markUnknownOpDynamicallyLegal([&](Operation *op) {
      return converter.isLegal(op) &&
             llvm::all_of(op->getRegions(), [&](Region &region) {
               return converter.isLegal(&region);
             });
    });

    RewritePatternSet patterns(ctx);
    patterns.add<QuantizeLowering, DequantizeLowering, ConstantLowering,
                 StorageCastLowering, TransposeLowering, BroadcastLowering,
                 FillLowering, PadLowering, BitcastLowering,
                 UnsignedConstantLowering>(converter, ctx);
    patterns.add<GenericTypeConversion>(converter, ctx);
    populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns,
                                                                   converter);
    populateCallOpTypeConversionPattern(patterns, converter);
    populateReturnOpTypeConversionPattern(patterns, converter);
    populateBranchOpInterfaceTypeConversionPattern(patterns, converter);
    scf::populateSCFStructuralTypeConversionsAndLegality(converter, patterns,
                                                         target);
    if (failed(applyPartialConversion(module, target, std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
