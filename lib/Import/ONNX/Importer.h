//===- Importer.h - state shared by the ONNX op importers -------*- C++ -*-===//
//
// Private to lib/Import/ONNX. The importer walks the graph once, in order,
// and maps every ONNX value name to an `ImportedValue`. Values are kept lazy
// where the graph's meaning depends on what follows: a float Conv on
// dequantized inputs stays a pending contraction until the QuantizeLinear
// after it (maybe through Relu / Clip) says which output type and clamp the
// fused qnt.requantize gets.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_IMPORT_ONNX_IMPORTER_H
#define QUANTOPT_LIB_IMPORT_ONNX_IMPORTER_H

#include "QuantOpt/Import/ONNX/ModelImporter.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace quantopt::onnx_import::detail {

/// Quantization parameters of an ONNX QuantizeLinear / DequantizeLinear.
struct QParams {
  unsigned width = 8;
  bool isSigned = false;
  std::vector<double> scales;
  std::vector<int64_t> zeroPoints;
  /// Logical (ONNX) axis of a per-axis quantization, -1 for per tensor.
  int64_t axis = -1;

  bool perAxis() const { return axis >= 0; }
  int64_t qmin() const { return isSigned ? -(int64_t(1) << (width - 1)) : 0; }
  int64_t qmax() const {
    return isSigned ? (int64_t(1) << (width - 1)) - 1
                    : (int64_t(1) << width) - 1;
  }
  bool operator==(const QParams &o) const {
    return width == o.width && isSigned == o.isSigned && scales == o.scales &&
           zeroPoints == o.zeroPoints && axis == o.axis;
  }
  bool operator!=(const QParams &o) const { return !(*this == o); }
};

enum class Kind {
  /// Compile-time data (initializers, Constant, folded shape arithmetic).
  Const,
  /// Integer codes of an ONNX int8/uint8 tensor (QuantizeLinear output).
  Quant,
  /// Float tensor that is exactly the dequantization of codes (after
  /// DequantizeLinear and ops that keep the grid: MaxPool, Reshape, ...).
  Dequant,
  /// An f32 tensor.
  Float,
  /// Raw integers (int32 of MatMulInteger / ConvInteger, int graph inputs).
  Int,
  /// A float result on quantized operands that waits for its QuantizeLinear.
  Pending,
  /// An ONNX sequence of tensors (`elements`), known element by element at
  /// compile time. Only the sequence ops, Identity and control flow take
  /// one (Importer::input).
  Sequence,
};

enum class PendingOp { Contraction, Add, AvgPool, Concat, Clamp };

struct ImportedValue;

/// The window of a 3-D conv, per spatial dimension D, H, W (Conv3D.cpp).
struct ConvWindow3D {
  int64_t kernel[3], strides[3], dilations[3], padBegin[3], padEnd[3], out[3];
  int64_t groups;
};

/// What a pending value computes when its output type becomes known.
struct PendingInfo {
  PendingOp op = PendingOp::Clamp;
  std::vector<ImportedValue> operands;
  // Contraction: conv2d (X NCHW, W OIHW) or matmul (X MxK, W KxN).
  bool isConv = false;
  std::vector<int64_t> strides, dilations, padding; // padding: t, b, l, r
  int64_t groups = 1;
  /// Float bias (ONNX Conv / Gemm input C, a following Add) or int32 codes
  /// already at scale S_X * S_W (QLinearConv, DequantizeLinear'd int32).
  std::optional<std::vector<double>> floatBias;
  std::optional<std::vector<int64_t>> intBias;
  /// MatMul of an A of rank > 2: the contraction runs on A's rows as a 2-D
  /// matrix (operand 0 is that view) and its result has this shape.
  std::vector<int64_t> resultShape;
  /// A ConvTranspose's sub-pixel form (ConvTranspose.cpp): a conv with
  /// blocks[0] * blocks[1] * M output channels, each pixel's channels then
  /// spread over a blocks[0] x blocks[1] block of the output (0: not such a
  /// conv). Biases hold M values.
  int64_t blocks[2] = {0, 0};
  /// The window of the spread output that is the result (a ConvTranspose's
  /// padding cropped): top row, left column, height, width (height 0: all).
  int64_t crop[4] = {0, 0, 0, 0};
  // AvgPool (kernel, strides, padding) and Concat (axis, logical).
  std::vector<int64_t> kernel;
  int64_t axis = 0;
  bool countIncludePad = false;
  /// Real bounds of fused Relu / Clip.
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
};

struct ImportedValue {
  Kind kind = Kind::Float;
  /// Logical ONNX shape (NCHW for rank 4).
  llvm::SmallVector<int64_t> shape;
  /// ONNX element type (TensorProto::DataType).
  int32_t dtype = onnx::TensorProto::FLOAT;

  // Const: values as doubles (float types) or int64 (integer types).
  std::vector<double> f;
  std::vector<int64_t> i;

  // Quant / Dequant.
  QParams q;
  /// Codes of a compile-time quantized tensor, in logical layout.
  std::optional<std::vector<int64_t>> codes;

  /// The MLIR value (Quant / Dequant: quantized tensor; Float: f32; Int).
  mlir::Value value;
  /// The MLIR value of a rank-4 tensor is NHWC rather than NCHW.
  bool nhwc = false;
  /// Set on a Flatten of an NHWC value: `flattenedValue` holds the codes in
  /// N x (H*W*C) order while the logical order is N x (C*H*W); this is the
  /// NCHW shape before flattening. A following MatMul permutes its weight
  /// rows instead of transposing the activations.
  llvm::SmallVector<int64_t, 4> flattenedFromNhwc;
  /// The value the order above describes. Handlers copy a record and then
  /// give the copy another value (often in logical order); tying the mark
  /// to the value keeps such a copy from being reordered a second time.
  mlir::Value flattenedValue;

  /// `value` holds NHWC-ordered codes flattened from `flattenedFromNhwc`.
  bool isFlattenedNhwc() const {
    return !flattenedFromNhwc.empty() && value && value == flattenedValue;
  }

  std::shared_ptr<PendingInfo> pending;

  /// Sequence: its tensors, in order (shared; sequence ops make new ones).
  std::shared_ptr<const std::vector<ImportedValue>> elements;

  bool isQuantized() const {
    return kind == Kind::Quant || kind == Kind::Dequant;
  }
  /// Raw integers (a run-time integer tensor or integer constants), which
  /// the float ops do not take.
  bool holdsIntegers() const {
    // An empty constant holds what its element type says.
    return kind == Kind::Int ||
           (kind == Kind::Const && f.empty() &&
            (!i.empty() || (dtype != onnx::TensorProto::FLOAT &&
                            dtype != onnx::TensorProto::DOUBLE &&
                            dtype != onnx::TensorProto::FLOAT16 &&
                            dtype != onnx::TensorProto::BFLOAT16)));
  }
  int64_t numElements() const {
    int64_t n = 1;
    for (int64_t d : shape)
      n *= d;
    return n;
  }
};

/// Compile-time int64 data of `shape` (empty: a scalar) holding `values`
/// in row-major order.
inline ImportedValue int64Constant(llvm::ArrayRef<int64_t> shape,
                                   std::vector<int64_t> values) {
  ImportedValue c;
  c.kind = Kind::Const;
  c.dtype = onnx::TensorProto::INT64;
  c.shape.assign(shape.begin(), shape.end());
  c.i = std::move(values);
  return c;
}

/// The {begin, end} padding auto_pad SAME_UPPER (`upper`) or SAME_LOWER
/// gives an axis of size `in`, stride `stride` and dilated kernel `extent`:
/// ceil(in / stride) outputs, the odd one at the end (upper) or beginning.
inline std::pair<int64_t, int64_t> samePadding(int64_t in, int64_t stride,
                                               int64_t extent, bool upper) {
  int64_t total = std::max<int64_t>(
      0, ((in + stride - 1) / stride - 1) * stride + extent - in);
  int64_t small = total / 2;
  int64_t begin = upper ? small : total - small;
  return {begin, total - begin};
}

/// The model's standard (ai.onnx) opset; 0 when it imports none.
inline int64_t standardOpset(const onnx::ModelProto &model) {
  int64_t opset = 0;
  for (const auto &imp : model.opset_import())
    if (imp.domain().empty() || imp.domain() == "ai.onnx")
      opset = imp.version();
  return opset;
}

/// The opset from which a Reduce* op takes its axes as an input rather
/// than an attribute (ReduceSum moved first).
inline int64_t reduceAxesInputOpset(llvm::StringRef op) {
  return op == "ReduceSum" ? 13 : 18;
}

class Importer {
public:
  Importer(mlir::MLIRContext *ctx, const ImportOptions &options,
           llvm::StringRef fileName);

  mlir::OwningOpRef<mlir::ModuleOp> run(const onnx::ModelProto &model);

  //===--------------------------------------------------------------------===//
  // Shared helpers (Importer.cpp)
  //===--------------------------------------------------------------------===//
  mlir::MLIRContext *ctx;
  const ImportOptions &options;
  mlir::OpBuilder b;
  mlir::Location loc;
  mlir::Location fileLoc;
  llvm::StringMap<ImportedValue> values;
  /// Every value name the graph mentions (inputs, initializers, node inputs
  /// and outputs, graph outputs): the names an expansion must not take.
  llvm::StringSet<> graphNames;
  const onnx::NodeProto *node = nullptr;
  /// The com.microsoft node whose expansion `node` is part of (diagnostics
  /// name it).
  const onnx::NodeProto *expandedFrom = nullptr;
  int nodeIndex = 0;
  int64_t opset = 0;

  /// Emits "node 'NAME' (OP): MSG" and returns failure.
  mlir::InFlightDiagnostic error();
  mlir::LogicalResult fail(const llvm::Twine &msg);
  /// Runs the verifier of `op`, just created for the current node: its
  /// rules that depend on the model's values (an accumulator that can
  /// overflow i32, an f32 sum that can overflow) are reported as the node's
  /// error, and the op is erased.
  mlir::LogicalResult verifyAtNode(mlir::Operation *op);

  /// Input `idx` of the current node; fails with a clear error when absent.
  mlir::FailureOr<ImportedValue *> input(unsigned idx);
  /// Input `idx` when it is a compile-time scalar (one element whose value
  /// is known); otherwise a diagnostic naming it `what`.
  mlir::FailureOr<const ImportedValue *> scalarInput(unsigned idx,
                                                     llvm::StringRef what);
  /// Input `idx` when it is plain float data (f32, not quantized: an op
  /// that runs in f32 on float tensors); otherwise a diagnostic naming it
  /// `what` and the rule it breaks.
  mlir::FailureOr<ImportedValue *> floatInput(unsigned idx,
                                              llvm::StringRef what);
  bool hasInput(unsigned idx) const;
  void setOutput(unsigned idx, ImportedValue v);

  // Attributes.
  std::optional<int64_t> attrInt(llvm::StringRef name) const;
  std::optional<float> attrFloat(llvm::StringRef name) const;
  std::optional<std::vector<int64_t>> attrInts(llvm::StringRef name) const;
  std::optional<std::vector<double>> attrFloats(llvm::StringRef name) const;
  std::optional<std::string> attrString(llvm::StringRef name) const;
  const onnx::TensorProto *attrTensor(llvm::StringRef name) const;
  const onnx::GraphProto *attrGraph(llvm::StringRef name) const;
  /// Fails when the current node has more than `inputs` inputs or
  /// `outputs` outputs (the op's schema has no more; the checker does not
  /// check ops newer than it knows).
  mlir::LogicalResult checkArity(int inputs, int outputs);
  /// Fails on any attribute not in `known`.
  mlir::LogicalResult checkAttrs(llvm::ArrayRef<llvm::StringRef> known);
  /// Fails when graph output `out` declares an element type or a static
  /// shape other than the computed value `v` has.
  mlir::LogicalResult checkDeclaredOutput(const onnx::ValueInfoProto &out,
                                          const ImportedValue &v);
  /// An attribute name and the type its schema gives it.
  using TypedAttr =
      std::pair<llvm::StringRef, onnx::AttributeProto::AttributeType>;
  /// Fails on an attribute of `known` whose type differs from its schema's
  /// and, with `rejectOthers`, on any attribute not in `known`. For ops the
  /// ONNX checker has no schema for (com.microsoft), whose attributes would
  /// otherwise be read as absent when mistyped.
  mlir::LogicalResult checkAttrTypes(llvm::ArrayRef<TypedAttr> known,
                                     bool rejectOthers = true);

  // Types and layout.
  mlir::Type storageIntType(const QParams &q) const;
  /// A scalar constant of the storage integer type of `q` holding `code`.
  mlir::Value storageCode(const QParams &q, int64_t code);
  /// `axis` in [-rank, rank) made non-negative; a failure naming it
  /// otherwise.
  mlir::FailureOr<int64_t> normalizedAxis(int64_t axis, int64_t rank);
  mlir::Type quantElementType(const QParams &q, int64_t physicalAxis) const;
  mlir::RankedTensorType quantTensorType(const ImportedValue &v) const;
  llvm::SmallVector<int64_t> physicalShape(const ImportedValue &v) const;
  int64_t physicalAxis(const ImportedValue &v) const;

  /// The quantized MLIR value of a Quant / Dequant value in the requested
  /// layout (materializing constants and transposing as needed).
  mlir::FailureOr<mlir::Value> quantValue(ImportedValue &v, bool nhwc);
  /// The f32 MLIR value of a Float / Dequant / Const value, logical layout
  /// unless `nhwc`.
  mlir::FailureOr<mlir::Value> floatValue(ImportedValue &v, bool nhwc);
  /// An f32 NHWC tensor padded along H and W (`padding`: top, bottom, left,
  /// right) with `value`; the tensor itself without padding.
  mlir::Value padSpatialNhwc(mlir::Value nhwc, llvm::ArrayRef<int64_t> padding,
                             float value);
  /// Permutes a tensor value (any element type).
  mlir::Value transpose(mlir::Value value, llvm::ArrayRef<int64_t> perm);
  /// Reshapes a tensor to `shape` with the same number of elements.
  mlir::Value reshape(mlir::Value value, llvm::ArrayRef<int64_t> shape);

  //===--------------------------------------------------------------------===//
  // Op families (one file each)
  //===--------------------------------------------------------------------===//
  // Constants.cpp: initializers, Constant and shape arithmetic.
  mlir::FailureOr<ImportedValue> readTensor(const onnx::TensorProto &t);
  /// ExternalData.cpp: the `byteCount` bytes of raw data an external tensor
  /// names, checked against ONNX's rules.
  mlir::FailureOr<std::unique_ptr<llvm::MemoryBuffer>>
  readExternalData(const onnx::TensorProto &t, int64_t byteCount);
  mlir::LogicalResult importConstantOp();
  mlir::LogicalResult importShapeOp();
  mlir::LogicalResult importGatherOp();
  mlir::LogicalResult importUnsqueezeOp();
  mlir::LogicalResult importCastOp();
  mlir::LogicalResult importSizeOp();
  mlir::LogicalResult importEyeLikeOp();
  /// Cast of a run-time value to bool (nonzero: true; an i1 mask) or of a
  /// run-time mask to float or an integer type (1 and 0).
  mlir::LogicalResult runtimeBoolCast(ImportedValue &v, int32_t to);
  mlir::LogicalResult importConstantOfShapeOp();
  /// Range of compile-time scalars, folded (values accumulate in the
  /// element type, as ONNX's function body adds delta step by step).
  mlir::LogicalResult importRangeOp();
  /// Concat of compile-time tensors of any rank, folded (RAFT's coordinate
  /// grids, shape arithmetic).
  mlir::LogicalResult foldConstConcat();
  mlir::FailureOr<std::vector<int64_t>> constInts(unsigned idx);

  // QuantizeOps.cpp: QuantizeLinear, DequantizeLinear and the emission of
  // pending values.
  /// Without a zero point, its type is `defaultType` (ONNX: the input's
  /// type for DequantizeLinear, uint8 for QuantizeLinear). 4-bit types are
  /// read as 8-bit storage when `readsFourBit` (codes that exist, whose
  /// values an 8-bit type holds exactly); elsewhere they would be codes to
  /// produce, and are diagnosed.
  mlir::FailureOr<QParams>
  readQParams(unsigned scaleIdx, unsigned zpIdx, int64_t rank,
              int32_t defaultType = onnx::TensorProto::UINT8,
              bool readsFourBit = false);
  mlir::LogicalResult importQuantizeLinear();
  mlir::LogicalResult importDequantizeLinear();
  mlir::LogicalResult importBlockDequantizeLinear(const ImportedValue &in);
  mlir::FailureOr<ImportedValue> emitPending(ImportedValue &v,
                                             const QParams &out);
  /// A pending Relu / Clip whose bounds lie on its input grid becomes a
  /// Dequant value; anything else fails with `why`.
  mlir::FailureOr<ImportedValue *> requireQuantized(unsigned idx,
                                                    llvm::StringRef what);
  /// Turns a pending Relu / Clip on dequantized codes into a Dequant value
  /// where that is exact; fails (silently) otherwise.
  mlir::LogicalResult settle(ImportedValue &v);
  std::pair<int64_t, int64_t> clampCodes(const PendingInfo &p,
                                         const QParams &out) const;
  /// Makes `v` (a float constant, int32 constants, or DequantizeLinear'd
  /// int32 codes at scale S_X * S_W; `channels` or one element) the bias of
  /// the pending contraction `p`, or fails naming the rule.
  mlir::LogicalResult setContractionBias(const ImportedValue &v,
                                         int64_t channels, PendingInfo &p);
  mlir::Value requantize(mlir::Value in, mlir::Type resultType, int64_t lo,
                         int64_t hi, const QParams &out);
  /// The f32 values of int32 codes (floatValue's case for them).
  mlir::FailureOr<mlir::Value> dequantizeInt32(ImportedValue &v, bool nhwc);
  /// Codes on one grid moved to another (`resultType`'s) as the graph says:
  /// DequantizeLinear then QuantizeLinear. Under `--rounding float` (ONNX
  /// Runtime) exactly that, in f32 (qnt.dequantize, qnt.quantize), as ONNX
  /// Runtime runs such a pair and builds QLinearConcat's tables; under the
  /// integer modes a qnt.requantize. Then clamped to [lo, hi].
  mlir::Value regrid(mlir::Value in, mlir::Type resultType, int64_t lo,
                     int64_t hi, const QParams &out);

  // DynamicQuantizeOps.cpp: run-time scales.
  mlir::LogicalResult importDynamicQuantizeLinear();
  /// DequantizeLinear whose scale is not a compile-time constant.
  mlir::LogicalResult importDequantizeLinearDynamic();
  /// f32(x) of a run-time integer tensor (int8, uint8, int16, int32) in
  /// logical layout: ONNX's Cast to float.
  mlir::FailureOr<mlir::Value> runtimeIntToF32(const ImportedValue &in);

  // Contractions.cpp.
  mlir::LogicalResult importConv();
  mlir::LogicalResult importGemm();
  mlir::LogicalResult importMatMul();
  mlir::LogicalResult importQLinearConv();
  mlir::LogicalResult importQLinearMatMul();
  mlir::LogicalResult importIntegerContraction(bool isConv);
  mlir::FailureOr<ImportedValue> emitContraction(PendingInfo &p,
                                                 const QParams *out);
  /// Reads a Conv's attributes into `p` (2-D terms: a 1-D conv's are those
  /// of height 1) and checks them against `x` and `w`.
  mlir::LogicalResult readConvAttrs(PendingInfo &p, const ImportedValue &x,
                                    const ImportedValue &w);
  /// For a 1-D conv (rank-3 `x` and `w`): both as the rank-4 operands of
  /// the 2-D conv of height 1, and `p.resultShape` the 1-D result's shape.
  mlir::LogicalResult liftConv1D(PendingInfo &p, ImportedValue &x,
                                 ImportedValue &w);
  /// Conv3D.cpp: a conv of rank-5 x and w as the 2-D conv of the
  /// depth-stacked input (x and w replaced, p's window and result shape
  /// set), over the node's window or over `window`.
  mlir::LogicalResult liftConv3D(PendingInfo &p, ImportedValue &x,
                                 ImportedValue &w);
  mlir::LogicalResult liftConv3D(PendingInfo &p, ImportedValue &x,
                                 ImportedValue &w, const ConvWindow3D &window);
  /// The window of the current Conv / QLinearConv / ConvInteger node over
  /// x and w of rank 3, 4 or 5, as a 2-D conv (liftConv1D, liftConv3D).
  mlir::LogicalResult readConvWindow(PendingInfo &p, ImportedValue &x,
                                     ImportedValue &w);
  /// Output 0 is the pending quantized conv `p` of `x` and the constant
  /// codes `w` (OIHW), its bias input 2 of the current node.
  mlir::LogicalResult setPendingConv(const ImportedValue &x,
                                     const ImportedValue &w, PendingInfo p);
  /// Spreads the NHWC result `v` (i32 accumulator or codes) of a sub-pixel
  /// ConvTranspose's conv over the output: channel (a, b, m) of pixel
  /// (i, j) goes to pixel (i * blocks[0] + a, j * blocks[1] + b), channel m.
  void spreadBlocks(ImportedValue &v, const int64_t blocks[2]);
  /// The `crop` window (PendingInfo::crop) of the NHWC value `v`.
  void cropSpatial(ImportedValue &v, const int64_t crop[4]);
  /// `v` (a contraction result) as the logical tensor of `shape`: an NHWC
  /// value back to NCHW first, then reshaped; for a shape of rank 5, a 3-D
  /// conv's N Do x Ho x Wo x F result as N x F x Do x Ho x Wo.
  void viewAs(ImportedValue &v, llvm::ArrayRef<int64_t> shape);

  // ConvTranspose.cpp: ConvTranspose as a stride-1 conv on the input with
  // zeros between its rows and columns.
  mlir::LogicalResult importConvTranspose();
  /// A ConvTranspose of rank-5 x and w: the stride-1 3-D conv of the
  /// stuffed input (ConvTranspose.cpp).
  mlir::LogicalResult importConvTranspose3D();

  // GridOps.cpp: ops that keep the quantization grid.
  mlir::LogicalResult importIdentity();
  /// Gather with run-time indices (embedding tables): a linalg.generic
  /// reading the table (codes or f32) at each index.
  mlir::LogicalResult importRuntimeGather(ImportedValue &data,
                                          ImportedValue &indices);
  /// Gather of compile-time indices from data that is not 1-D shape data:
  /// the indices checked, then importRuntimeGather on a constant.
  mlir::LogicalResult importConstIndexGather(ImportedValue &data,
                                             const ImportedValue &indices,
                                             llvm::ArrayRef<int64_t> idx);
  /// Dropout outside training: the input, unchanged.
  mlir::LogicalResult importDropout();
  mlir::LogicalResult importRelu();
  mlir::LogicalResult importClip();
  mlir::LogicalResult importReshape(bool isFlatten);
  mlir::LogicalResult importTranspose();
  mlir::LogicalResult importSlice();
  mlir::LogicalResult importSqueeze();
  /// Split along one axis: an extract_slice per output, in the value's own
  /// layout.
  mlir::LogicalResult importSplit();
  /// Output 0 is `v` with the logical shape `shape` (same element count):
  /// a reshape of the codes or of the f32 value; a pending value that does
  /// not settle runs as a float island.
  mlir::LogicalResult setReshapedOutput(ImportedValue v,
                                        llvm::ArrayRef<int64_t> shape);
  /// Resize, mode "nearest", by an integer factor per axis.
  mlir::LogicalResult importResize();
  /// GridSample.cpp: bilinear / nearest / bicubic sampling at a run-time
  /// grid.
  mlir::LogicalResult importGridSample();
  /// Upsample (opsets 7-9) as the Resize it equals.
  mlir::LogicalResult importUpsample();
  /// Resize, mode "linear" or "cubic" of N x C x L and N x C x D x H x W:
  /// the rank-4 one over planes.
  mlir::LogicalResult importResizeByPlanes(ImportedValue &v,
                                           llvm::ArrayRef<int64_t> outShape,
                                           llvm::ArrayRef<double> scales);
  /// Resize, mode "linear" or "cubic" (over H and W) in f32.
  mlir::LogicalResult importResizeInterpolated(ImportedValue &v,
                                               llvm::ArrayRef<int64_t> outShape,
                                               llvm::ArrayRef<double> scales,
                                               llvm::StringRef transform,
                                               llvm::StringRef mode);
  /// Pad (Pad.cpp): constant, reflect, edge and wrap, on the codes or the
  /// f32 value.
  mlir::LogicalResult importPad();
  /// Trilu: the upper or lower triangle of the last two dimensions, the
  /// rest zero (code 0 of raw codes, the zero point of dequantized ones);
  /// folded on compile-time data (causal masks).
  mlir::LogicalResult importTrilu();
  /// MaxUnpool: X scattered at its flat indices into zeros (MaxUnpool.cpp).
  mlir::LogicalResult importMaxUnpool();
  /// MaxPool, or GlobalMaxPool (`global`: the window is all of H and W).
  mlir::LogicalResult importMaxPool(bool global);
  /// A pool over N x C x L (audio, sequences): the 2-D pool of height 1.
  mlir::LogicalResult importPool1D();
  /// A pool over N x C x D x H x W as two 2-D pools (NetworkOps.cpp).
  mlir::LogicalResult importPool3D();
  mlir::LogicalResult importConcat();

  /// ArgMax.cpp: ArgMax (`isMax`) or ArgMin, int64 indices.
  mlir::LogicalResult importArgMax(bool isMax);
  /// DepthToSpace.cpp: DepthToSpace (`toSpace`) or SpaceToDepth as ONNX
  /// defines them, Reshape -> Transpose -> Reshape.
  mlir::LogicalResult importDepthToSpace(bool toSpace);
  /// Einsum.cpp: Einsum of one or two operands as ReduceSum, Transpose,
  /// Reshape and MatMul nodes.
  mlir::LogicalResult importEinsum();
  /// Recurrent.cpp: LSTM and GRU in f32 with the default activations, an
  /// scf.for over time.
  mlir::LogicalResult importRecurrent();
  /// LegacyBroadcast.cpp: a binary op of opset < 7 with `broadcast`,
  /// `axis` or `consumed_inputs`, as B reshaped to A's rank and the op.
  bool hasLegacyBroadcast(const onnx::NodeProto &n) const;
  mlir::LogicalResult importLegacyBroadcast();
  /// RoiAlign.cpp: RoiAlign as ONNX Runtime's CPU kernel computes it.
  mlir::LogicalResult importRoiAlign();
  /// The f32 value `real` quantized onto `out` (qnt.quantize), in its layout.
  ImportedValue quantizeFloat(const ImportedValue &real, const QParams &out);
  /// Whether the float bias of pending contraction `p`, rounded to int32 at
  /// S_X * S_W, could move its result onto `out` by half a step or more.
  bool floatBiasTooCoarse(const PendingInfo &p, const QParams &out) const;
  /// Contractions.cpp: a Gemm outside the fused form, as its MatMul, Mul and
  /// Add.
  mlir::LogicalResult importGemmAsMatMul();
  /// IntegerPow.cpp: Pow of an int32 / int64 base.
  mlir::LogicalResult importIntegerPow(ImportedValue &base,
                                       ImportedValue &exponent);
  /// CumSum.cpp: CumSum of run-time f32 or integer tensors, folded on
  /// compile-time data.
  mlir::LogicalResult importCumSum();
  mlir::LogicalResult foldCumSum(const ImportedValue &v, int64_t axis,
                                 bool exclusive, bool reverse);
  /// TopK.cpp: TopK of run-time data, folded on compile-time data.
  mlir::LogicalResult importTopK();
  mlir::LogicalResult foldTopK(const ImportedValue &v, int64_t axis, int64_t k,
                               bool largest, bool unsignedInts);
  mlir::LogicalResult importGatherElements();
  mlir::LogicalResult importOneHot();
  mlir::LogicalResult importGatherND();
  mlir::LogicalResult importScatterND();
  // Selection.cpp: ops whose result depends on which elements are set, on
  // compile-time masks and indices.
  mlir::LogicalResult importNonZero();
  mlir::LogicalResult importCompress();
  /// ScatterElements (and the older Scatter) as the ScatterND it equals.
  mlir::LogicalResult importScatterElements();

  // ComposedOps.cpp: ops imported as the nodes ONNX (or ONNX Runtime)
  // defines them by.
  mlir::LogicalResult importMeanVarianceNormalization();
  mlir::LogicalResult importLpNormalization();
  mlir::LogicalResult importHardmax();
  mlir::LogicalResult importGlobalLpPool();
  /// LlmOps.cpp: ONNX's RMSNormalization and RotaryEmbedding (opset 23) and
  /// Swish (24), as the nodes they are defined by.
  mlir::LogicalResult importRMSNormalization();
  mlir::LogicalResult importStandardRotaryEmbedding();
  mlir::LogicalResult importSwish();
  mlir::LogicalResult importTensorScatter();
  /// Where a node may take opset 21's 4-bit tensors (Importer.cpp).
  mlir::LogicalResult checkFourBitUse(const onnx::NodeProto &n);
  /// ONNX's Attention (opsets 23, 24), as its reference's nodes.
  mlir::LogicalResult importStandardAttention();
  mlir::LogicalResult importLpPool();
  mlir::LogicalResult importReverseSequence();
  mlir::LogicalResult importGroupNormalization();

  // ControlFlow.cpp: If, Loop and Scan as straight-line code.
  mlir::LogicalResult importIf();
  mlir::LogicalResult importLoop();
  mlir::LogicalResult importScan();
  /// Imports subgraph `g` (the `what` of the current node) with its inputs
  /// bound to `inputs`; its outputs. Its names hide the enclosing graph's
  /// while it is imported.
  mlir::FailureOr<std::vector<ImportedValue>>
  importSubgraph(const onnx::GraphProto &g,
                 llvm::ArrayRef<ImportedValue> inputs, llvm::StringRef what);
  /// Output `idx` of an If whose i1 condition `cond` is known only at run
  /// time: `a` (then) or `b` (else), element by element.
  mlir::FailureOr<ImportedValue> selectAtRunTime(mlir::Value cond, unsigned idx,
                                                 ImportedValue a,
                                                 ImportedValue b);
  /// Output `idx` of the current node: `parts` stacked along a new `axis`.
  mlir::LogicalResult stackOutputs(std::vector<ImportedValue> parts,
                                   int64_t axis, unsigned idx);
  /// Output `idx` of the current node: the nonempty `parts` concatenated
  /// along `axis`, or stacked along a new one (`newAxis`).
  mlir::LogicalResult concatenate(std::vector<ImportedValue> parts,
                                  int64_t axis, bool newAxis, unsigned idx);

  // Sequences.cpp: ONNX's sequences of tensors, whose lengths and positions
  // are compile-time.
  mlir::LogicalResult importSequenceOp();
  /// How many subgraph nodes one model may import in all (unrolled
  /// iterations and nested subgraphs counted each time); what is left.
  static constexpr int64_t kMaxSubgraphNodes = int64_t(1) << 16;
  int64_t subgraphNodeBudget = kMaxSubgraphNodes;
  int subgraphDepth = 0;

  /// VariadicOps.cpp: Sum, Mean, and Max / Min of more than two inputs, as
  /// a chain of binary nodes.
  mlir::LogicalResult importVariadic();

  // FloatIslands.cpp: float ops where the graph has no Q/DQ.
  /// The float value of a pending result (its op run on dequantized
  /// inputs in f32), in logical layout.
  mlir::FailureOr<ImportedValue> emitFloat(ImportedValue &v);
  /// True for quantized values and pending Relu / Clip that settle exactly.
  bool isQuantizable(ImportedValue &v);
  mlir::LogicalResult importFloatContraction(ImportedValue &a,
                                             const ImportedValue &w,
                                             unsigned biasIdx);
  /// a + b, a - b, a * b or a / b in f32 with numpy broadcasting; the
  /// operands are dequantized where quantized. Two small constants fold
  /// (floats in f32; Add / Sub / Mul of integers in int64).
  mlir::LogicalResult importFloatBinary(ImportedValue &a, ImportedValue &c,
                                        llvm::StringRef op);
  /// Add, Sub or Mul of integer tensors, one of them run-time (RoBERTa's
  /// position ids): wrap-around in the element type, numpy broadcasting to
  /// `shape`.
  mlir::LogicalResult importIntegerBinary(ImportedValue &a, ImportedValue &c,
                                          llvm::StringRef op,
                                          llvm::ArrayRef<int64_t> shape);
  /// Mul, Sub, Div, Max, Min, PRelu nodes: always float (no quantized
  /// form).
  mlir::LogicalResult importFloatArithmetic();
  mlir::LogicalResult importMod();
  /// GridOps.cpp: Expand (broadcast to a constant shape) and Tile
  /// (constant repeats), on codes, f32 or integers; folded on compile-time
  /// data.
  mlir::LogicalResult importExpandOrTile();
  /// Masks.cpp: Equal, Greater, Less, GreaterOrEqual, LessOrEqual, Not,
  /// And, Or and Xor, folded on compile-time data, else i1 tensors; Where.
  mlir::LogicalResult importCompareOp();
  /// BitShift and BitwiseAnd / Or / Xor / Not (BitwiseOps.cpp).
  mlir::LogicalResult importBitwiseOp();
  /// HannWindow, HammingWindow, BlackmanWindow (WindowOps.cpp).
  mlir::LogicalResult importWindow();
  mlir::LogicalResult importMelWeightMatrix();
  /// DFT and STFT (SignalOps.cpp).
  mlir::LogicalResult importDFT();
  mlir::LogicalResult importSTFT();
  /// A comparison, Not, And, Or or Xor of run-time values: an i1 tensor of
  /// `shape` (the operands broadcast).
  mlir::LogicalResult runtimeMaskOp(llvm::ArrayRef<ImportedValue *> operands,
                                    llvm::ArrayRef<int64_t> shape);
  mlir::LogicalResult importWhere();
  mlir::LogicalResult importIsNaNOrInf();
  /// Normalization.cpp: LayerNormalization (opset 17) and
  /// InstanceNormalization in f32, statistics computed at run time.
  mlir::LogicalResult importLayerNorm();
  mlir::LogicalResult importInstanceNorm();
  /// Inputs [first, first + count) as f32 constants of one value per
  /// channel, shaped to broadcast over a rank-`rank` value (NCHW or NHWC);
  /// a failure naming `what` otherwise.
  mlir::FailureOr<llvm::SmallVector<mlir::Value>>
  channelConstants(unsigned first, unsigned count, int64_t channels,
                   int64_t rank, bool nhwc, llvm::StringRef what);
  /// Sigmoid, Tanh, HardSigmoid, HardSwish, LeakyRelu, Erf, Sqrt, Exp,
  /// Log, Neg, Abs, Reciprocal, Elu, Softplus, Selu, Celu, Softsign,
  /// ThresholdedRelu, Shrink, Gelu, Floor, Ceil, Round, Sign, Sin, Cos: f32
  /// on the dequantized input, as ONNX defines them.
  mlir::LogicalResult importFloatActivation();
  /// MatMul whose B is not compile-time data (attention's Q K^T and P V):
  /// f32 on the dequantized operands, batch dimensions broadcast.
  mlir::LogicalResult importFloatBatchMatmul(ImportedValue &a,
                                             ImportedValue &c);
  /// The f32 values of `operands` concatenated along `axis` (logical
  /// layout).
  mlir::FailureOr<mlir::Value>
  floatConcat(llvm::MutableArrayRef<ImportedValue> operands, int64_t axis);
  /// Conv in f32 (a float input, or float weights): a linalg.generic over
  /// NHWC with the constant weights' real values, zero padding, groups.
  mlir::LogicalResult importFloatConv(ImportedValue &x, const ImportedValue &w,
                                      const PendingInfo &p, unsigned biasIdx);
  /// BatchNormalization (inference) in f32 on the dequantized input
  /// (Normalization.cpp).
  mlir::LogicalResult importFloatBatchNorm();
  /// LRN across the channels in f32 (AlexNet, GoogLeNet).
  mlir::LogicalResult importFloatLRN();
  /// Pow by a constant scalar exponent, in f32 (2: x * x).
  mlir::LogicalResult importFloatPow();
  /// ReduceMean (the sum along each axis in turn, divided by the count),
  /// ReduceSum, ReduceMax or ReduceMin in f32 over any axes.
  mlir::LogicalResult importFloatReduce(ImportedValue &v,
                                        llvm::ArrayRef<int64_t> axes,
                                        bool keepdims);
  /// ReduceSum / ReduceProd / ReduceMax / ReduceMin of integers in their
  /// element type (IntegerReduce.cpp).
  mlir::LogicalResult importIntReduce(ImportedValue &v,
                                      llvm::ArrayRef<int64_t> axes,
                                      bool keepdims);
  /// Softmax over one axis in f32 (exp(x - max) / sum), or LogSoftmax
  /// ((x - max) - log(sum)).
  mlir::LogicalResult importFloatSoftmax();
  mlir::LogicalResult importFloatClamp(ImportedValue &v, double lo, double hi);

  // NetworkOps.cpp: Add, AveragePool, GlobalAveragePool.
  mlir::LogicalResult importAdd();
  mlir::LogicalResult importAveragePool(bool global);
  /// ReduceMean over H and W (axes 2, 3 of a rank-4 tensor): a global
  /// average pool; ReduceMean over other axes, ReduceSum, ReduceMax and
  /// ReduceMin: importFloatReduce.
  mlir::LogicalResult importReduce();
  /// The pending average pool of input 0 (global: over all of H and W).
  mlir::FailureOr<ImportedValue> averagePool(bool global);
  mlir::FailureOr<ImportedValue> emitAdd(PendingInfo &p, const QParams &out);
  mlir::FailureOr<ImportedValue> emitAvgPool(PendingInfo &p,
                                             const QParams &out);
  /// qnt.avg_pool2d of the pending pool's input (its grid, ties rounded as
  /// `ties` says), then a requantize to `out` clamped to [lo, hi] unless
  /// that is the input's grid.
  mlir::FailureOr<ImportedValue>
  averageOnInputGrid(PendingInfo &p, const QParams &out, mlir::Value in,
                     mlir::qnt::RoundingMode ties, int64_t lo, int64_t hi);
  mlir::FailureOr<ImportedValue> emitConcat(PendingInfo &p, const QParams &out);

  /// Imports `nodes` (Expansion.h) as what node `n` stands for.
  mlir::LogicalResult importExpansion(const onnx::NodeProto &n,
                                      llvm::ArrayRef<onnx::NodeProto> nodes);

private:
  std::string fileName;
  /// Imports `n` (dispatchNode) and checks the size of its outputs.
  mlir::LogicalResult importNode(const onnx::NodeProto &n);
  /// The importer of `n`'s operator.
  mlir::LogicalResult dispatchNode(const onnx::NodeProto &n);
  /// MicrosoftOps.cpp: ONNX Runtime's com.microsoft QOperator ops, imported
  /// as the DequantizeLinear -> op -> QuantizeLinear nodes they stand for.
  mlir::LogicalResult importMicrosoftNode(const onnx::NodeProto &n);
  /// TransformerOps.cpp: ONNX Runtime's fused transformer ops (Attention,
  /// QAttention, SkipLayerNormalization, FastGelu, ...), imported as the
  /// standard nodes its CPU kernels compute.
  mlir::LogicalResult importTransformerOp(const onnx::NodeProto &n);
};

/// The com.microsoft ops importTransformerOp takes.
bool isTransformerOp(llvm::StringRef op);

/// The dimensions of `shape` joined by 'x' for diagnostics ("2x3"; empty
/// for a scalar).
inline std::string joinedDims(llvm::ArrayRef<int64_t> shape) {
  std::string s;
  for (int64_t d : shape)
    s += (s.empty() ? "" : "x") + std::to_string(d);
  return s;
}

/// A double for diagnostics (Twine takes no floating point).
inline std::string str(double x) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.9g", x);
  return buf;
}

/// True when `scale` is a scale a !quant.uniform<...:f32> type holds: a
/// positive f32 (subnormal included). A scale derived from valid ones, such
/// as S_X * S_W or S_X / count, may still fall outside.
inline bool isF32QuantScale(double scale) {
  return scale >= std::numeric_limits<float>::denorm_min() &&
         scale <= std::numeric_limits<float>::max();
}

/// The ONNX element type of codes with these parameters (INT8, UINT16, ...).
int32_t codeElementType(const QParams &q);

/// round_half_even(f32(x) / f32(s)) + z, saturated: ONNX QuantizeLinear.
int64_t quantizeLinear(double x, double scale, int64_t zp, const QParams &q);

/// The flat (row-major) index in a tensor of shape `from` of the element
/// that numpy broadcasting takes to flat index `n` of shape `to`.
int64_t broadcastSource(llvm::ArrayRef<int64_t> from,
                        llvm::ArrayRef<int64_t> to, int64_t n);

/// Compile-time integers or booleans (`v.i`) as a tensor of `elem` (i1 for
/// masks), wrapped to its width.
mlir::Value intConstant(Importer &im, const ImportedValue &v, mlir::Type elem);

/// sum(a * b) in f32 over the reduction loops of `iters`, into a tensor of
/// `shape` starting from zero: each step a product then an add (no fused
/// multiply-add), the reduction in loop order. Float MatMul, Conv, LSTM.
mlir::Value sumOfProducts(Importer &im, mlir::Value a, mlir::Value b,
                          llvm::ArrayRef<mlir::AffineMap> maps,
                          llvm::ArrayRef<mlir::utils::IteratorType> iters,
                          llvm::ArrayRef<int64_t> shape);

/// `value` of logical shape `shape` reshaped to `rank` dimensions with
/// leading 1s (numpy broadcasting aligns the trailing ones).
mlir::Value withLeadingOnes(Importer &im, mlir::Value value,
                            llvm::ArrayRef<int64_t> shape, int64_t rank);

/// ONNX's elementwise float op `op` (Sigmoid, Tanh, LeakyRelu, Elu,
/// HardSigmoid, Softplus, ...) on x, with the op's alpha and beta (Selu's
/// gamma and Shrink's bias as beta, Shrink's lambd as alpha).
mlir::Value floatUnaryOp(mlir::OpBuilder &nb, mlir::Location l,
                         llvm::StringRef op, float alpha, float beta,
                         mlir::Value x);

/// A pending result either settles on its grid or runs as a float island.
mlir::LogicalResult settleOrFloat(Importer &im, ImportedValue &v);

/// The codes of a quantized value as storage integers (quant.scast), in
/// NHWC or logical layout: ops that only move codes work on these.
mlir::FailureOr<mlir::Value> storageInts(Importer &im, ImportedValue &v,
                                         bool nhwc);

/// The tensor ops that pick elements by position (Gather, GatherElements,
/// GatherND, ScatterND, TopK) read `v` from, in logical layout: its codes
/// as storage integers (`codes`), run-time integers, or f32; a diagnostic
/// for anything else.
mlir::FailureOr<mlir::Value> elementTable(Importer &im, ImportedValue &v,
                                          bool codes);

/// The parts of a concatenation along `axis` that have elements along it (all
/// of them if none has): tensor.concat's lowering places an empty part at
/// the end of the axis, an offset its slices then reject.
inline llvm::SmallVector<mlir::Value>
nonEmptyParts(llvm::ArrayRef<mlir::Value> parts, int64_t axis) {
  llvm::SmallVector<mlir::Value> kept;
  for (mlir::Value v : parts)
    if (llvm::cast<mlir::RankedTensorType>(v.getType()).getDimSize(axis) != 0)
      kept.push_back(v);
  return kept.empty() ? llvm::SmallVector<mlir::Value>(parts) : kept;
}

/// The element type `v` has in the ONNX graph: QuantizeLinear's codes are
/// integers of their type, integer data its type, everything else
/// (DequantizeLinear's output, float data) FLOAT.
int32_t graphElementType(const ImportedValue &v);

/// An ONNX element type's name in lower case ("int8"), or "type N".
std::string elementTypeName(int32_t type);

/// Replaces every call of one of `model`'s local functions
/// (ModelProto.functions) by the function's body (LocalFunctions.cpp);
/// a diagnostic at `loc` where that cannot be done faithfully.
mlir::LogicalResult inlineLocalFunctions(onnx::ModelProto &model,
                                         mlir::Location loc);

/// The element tables of a scatter's data and updates (ScatterND,
/// TensorScatter), which must have one ONNX element type (a diagnostic
/// naming `what`, the two inputs, if not): floats as codes when both are
/// one per-tensor grid's dequantization, else f32; QuantizeLinear codes of
/// one type as codes; other integers (run-time, compile-time, or codes
/// mixed with them) as integers. `codes` says whether the tables hold
/// codes; the result is `like`'s kind (resultLike).
struct ScatterTables {
  mlir::Value data, updates;
  bool codes = false;
  ImportedValue like;
};
/// `keepCodes` false: dequantized floats as f32 even on one grid (a
/// reduction computes on the values).
mlir::FailureOr<ScatterTables> scatterTables(Importer &im, ImportedValue &data,
                                             ImportedValue &updates,
                                             llvm::StringRef what,
                                             bool keepCodes = true);

/// The result of such an op: `value` (of `shape`, read from `like`'s
/// table) as codes on `like`'s grid, `like`'s integers, or f32.
ImportedValue resultLike(Importer &im, const ImportedValue &like, bool codes,
                         mlir::Value value, llvm::ArrayRef<int64_t> shape);

/// Index `i` (an integer of any width) into an axis of `dim`: negative ones
/// count from the end, then clamped to [0, dim) (a defined read where ONNX
/// calls the index an error).
mlir::Value normalizedIndex(mlir::OpBuilder &b, mlir::Location loc,
                            mlir::Value i, int64_t dim);

/// GatherElements' and ScatterElements' rule: `indices` (of the data's
/// rank) may be shorter than `data` but not longer, except along `axis`.
mlir::LogicalResult checkElementIndices(Importer &im,
                                        llvm::ArrayRef<int64_t> indices,
                                        llvm::ArrayRef<int64_t> data,
                                        int64_t axis);

/// ONNX's 4-bit integer element types (opset 21), which the TensorProto of
/// ONNX 1.12 does not name.
constexpr int32_t kOnnxUInt4 = 21;
constexpr int32_t kOnnxInt4 = 22;

inline bool isFourBitType(int32_t dtype) {
  return dtype == kOnnxUInt4 || dtype == kOnnxInt4;
}

/// Whether the ONNX element type `dtype` is an unsigned integer type.
inline bool isUnsignedIntType(int32_t dtype) {
  return dtype == kOnnxUInt4 || dtype == onnx::TensorProto::UINT8 ||
         dtype == onnx::TensorProto::UINT16 ||
         dtype == onnx::TensorProto::UINT32 ||
         dtype == onnx::TensorProto::UINT64;
}

/// The low `width` bits of `x`, sign-extended back to int64 unless
/// `isUnsigned`: how the importer stores compile-time integers of a
/// narrower type (C's conversion to that type, then back).
inline int64_t wrapToWidth(uint64_t x, unsigned width, bool isUnsigned) {
  if (width >= 64)
    return int64_t(x);
  uint64_t mask = (uint64_t(1) << width) - 1;
  x &= mask;
  if (!isUnsigned && (x >> (width - 1)) & 1)
    x |= ~mask;
  return int64_t(x);
}

/// The MLIR integer type of run-time integers `v`, or of compile-time ones
/// of its ONNX element type (i1 for booleans).
mlir::Type integerElementType(Importer &im, const ImportedValue &v);

/// The integers of `v` as a tensor of `elem` in logical layout: compile-time
/// data as a constant, run-time integers as they are (transposed back from
/// NHWC where held so).
mlir::Value logicalIntegers(Importer &im, const ImportedValue &v,
                            mlir::Type elem);

/// Output 0 of the current node: `body` applied elementwise to the
/// integers of `v`, in their own element type `elem` (the integer ops:
/// Abs, Neg, Sign, Relu, Clip).
mlir::LogicalResult
setIntegerMap(Importer &im, const ImportedValue &v,
              llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                             mlir::Value x, mlir::Type elem)>
                  body);

/// An elementwise linalg.generic over tensors of equal rank; size-1
/// dimensions of the inputs broadcast (numpy style). The result holds f32
/// unless `resultElement` says otherwise (an i1 mask).
mlir::Value
elementwise(Importer &im, llvm::ArrayRef<mlir::Value> inputs,
            llvm::ArrayRef<int64_t> shape,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::ValueRange)>
                body,
            mlir::Type resultElement = {});

/// `combine` over dimension `axis` of the tensor `x`, from `init` (of x's
/// element type), in index order: the result keeps that dimension with
/// size 1 (so that elementwise() broadcasts it back).
mlir::Value
reduceAlong(Importer &im, mlir::Value x, int64_t axis, mlir::TypedAttr init,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::Value, mlir::Value)>
                combine);
/// The same over an f32 tensor from an f32 `init`.
mlir::Value
reduceAlong(Importer &im, mlir::Value x, int64_t axis, float init,
            llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                           mlir::Value, mlir::Value)>
                combine);

/// reduceAlong over each of `axes` in turn (ascending).
mlir::Value
reduceAxes(Importer &im, mlir::Value x, llvm::ArrayRef<int64_t> axes,
           float init,
           llvm::function_ref<mlir::Value(mlir::OpBuilder &, mlir::Location,
                                          mlir::Value, mlir::Value)>
               combine);

/// The f32 mean of `x` over `axes` (ReduceMean's rule): the sum along each
/// axis in turn, then one division by the element count. The reduced
/// dimensions stay, with size 1.
mlir::Value meanAlong(Importer &im, mlir::Value x,
                      llvm::ArrayRef<int64_t> axes);

/// The window of a 2-D pool on an NCHW value.
struct PoolWindow {
  std::vector<int64_t> kernel, strides, dilations, padding; // padding: t b l r
  /// AveragePool's count_include_pad, as it applies to `padding`.
  bool countIncludePad = false;
};

/// A pool in f32 on the (dequantized) NHWC value of `x` over `w`: the max,
/// or the sum divided by the count of each window (its taps inside the
/// input, or all of them with count_include_pad). Padding never wins the
/// max. The result is NHWC.
mlir::FailureOr<ImportedValue> floatPool(Importer &im, ImportedValue &x,
                                         const PoolWindow &w, bool isMax);

/// Checks that `w` is constant 8-bit codes (weights must be known at
/// compile time to be laid out and folded).
mlir::LogicalResult requireConstWeight(Importer &im, const ImportedValue &w);

/// `q` for `channels` channels: per-axis parameters repeated cyclically
/// (a ConvTranspose's per-group or per-block output channels); per-tensor
/// ones as they are.
QParams repeatChannels(const QParams &q, int64_t channels);

/// A 1-D conv's input and weight (N x C x L, F x C/g x K) as the 2-D ones
/// of height 1 (N x C x 1 x L, F x C/g x 1 x K), in logical layout.
mlir::LogicalResult liftToUnitHeight(Importer &im, ImportedValue &x,
                                     ImportedValue &w);

/// The output map (the reduced axis read at 0, every other dimension
/// itself) and iterator types of a linalg.generic reducing `axis` of a
/// rank-`rank` tensor.
std::pair<mlir::AffineMap, llvm::SmallVector<mlir::utils::IteratorType>>
reductionOver(mlir::MLIRContext *ctx, int64_t rank, int64_t axis);

/// ScatterND of run-time index tuples (`tuples`, [slices, k] i64) into
/// `data` of `shape`: the update slices ([slices, shape[k:]...]) written one
/// after the other (the later of duplicates wins, as ONNX Runtime applies
/// them). A tuple outside the data (after negative indices count from the
/// end) writes nothing: ONNX calls it an error, which cannot be diagnosed
/// before the values exist.
/// `reduction` (ONNX's: add, mul, max, min; none writes) combines each
/// update with the data it lands on, unsigned integers compared as such.
mlir::Value scatterInOrder(Importer &im, mlir::Value data,
                           llvm::ArrayRef<int64_t> shape, mlir::Value tuples,
                           mlir::Value updates, int64_t slices, int64_t k,
                           llvm::StringRef reduction = "none",
                           bool isUnsigned = false);

/// numpy broadcasting of two shapes (ranks aligned on the right); nullopt
/// when they do not broadcast.
std::optional<llvm::SmallVector<int64_t>>
broadcastShapes(llvm::ArrayRef<int64_t> a, llvm::ArrayRef<int64_t> b);

/// What the importer folds (compile-time data computed element by element)
/// holds at most this many elements: beyond it an op runs at run time or is
/// diagnosed, so that a hostile shape cannot make the import take gigabytes.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 16;

/// The element count of `shape` (0 when a dimension is 0) when it is at
/// most kMaxFoldedElements; nullopt when larger or a dimension is negative.
std::optional<int64_t> foldableCount(llvm::ArrayRef<int64_t> shape);

/// The element counts of `shape` before and after dimension `axis`: a
/// row-major tensor is outer x shape[axis] x inner (the folds along an axis).
inline std::pair<int64_t, int64_t>
countsAroundAxis(llvm::ArrayRef<int64_t> shape, int64_t axis) {
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < int64_t(shape.size()); ++d)
    if (d != axis)
      (d < axis ? outer : inner) *= shape[d];
  return {outer, inner};
}

} // namespace quantopt::onnx_import::detail

#endif // QUANTOPT_LIB_IMPORT_ONNX_IMPORTER_H
