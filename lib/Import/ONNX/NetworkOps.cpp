//===- NetworkOps.cpp - MaxPool, Concat, Add, AveragePool -----------------===//
//
// The whole-network ops. MaxPool, and Concat of equal parameters, keep the
// grid: the result is still dequantized codes (qnt.max_pool2d / qnt.concat
// copy codes). Add, the average pools and Concat of different parameters
// change it: they stay pending until their QuantizeLinear names the output
// type, then become qnt.add / qnt.concat with that type, or qnt.avg_pool2d +
// qnt.requantize.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Quant/IR/QuantTypes.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// Compile-time tables of the pools (weights of ones, counts) are built
/// from activation shapes, which the model's data does not bound.
static constexpr int64_t kMaxPoolTable = int64_t(1) << 22;

LogicalResult Importer::importPool1D() {
  StringRef op = node->op_type();
  // Unsqueeze and Squeeze of axis 2 move codes as they are; the window
  // attributes gain a leading 1 (pads: none above or below). MaxPool's
  // Indices of the unit-height pool are the 1-D ones, ((n C + c) 1 + 0) L +
  // l.
  Expansion e(*this, *node);
  std::string tall = e.fresh("unit_height"), pooled = e.fresh("pooled");
  e.addInts(e.add("Unsqueeze", {node->input(0)}, tall), "axes", {2}, 13);
  onnx::NodeProto &pool = e.add(op, {tall}, pooled);
  bool indices =
      op == "MaxPool" && node->output_size() > 1 && !node->output(1).empty();
  std::string tallIndices = indices ? e.fresh("indices") : std::string();
  if (indices)
    pool.add_output(tallIndices);
  for (const onnx::AttributeProto &a : node->attribute()) {
    StringRef name = a.name();
    if (name != "kernel_shape" && name != "strides" && name != "dilations" &&
        name != "pads") {
      *pool.add_attribute() = a;
      continue;
    }
    size_t expected = name == "pads" ? 2 : 1;
    if (size_t(a.ints_size()) != expected)
      return fail(name + " of a 1-D pool needs " + Twine(expected) + " value" +
                  (expected == 1 ? "" : "s") + ", got " + Twine(a.ints_size()));
    std::vector<int64_t> v;
    if (name == "pads")
      v = {0, a.ints(0), 0, a.ints(1)};
    else
      v = {1, a.ints(0)};
    Expansion::setInts(pool, name, v);
  }
  e.addInts(e.add("Squeeze", {pooled}, node->output(0)), "axes", {2}, 13);
  if (indices)
    e.addInts(e.add("Squeeze", {tallIndices}, node->output(1)), "axes", {2},
              13);
  return importExpansion(*node, e.nodes);
}

/// MaxPool's Indices from `found` (int64, N x C x pooled spatial sizes): the
/// flat index of each window's winner, or -1 where nothing won, which
/// becomes the kernel's index of coordinates -1, plane * planeSize +
/// noneOffset for the window's plane n C + c.
static ImportedValue maxPoolIndexResult(Importer &im, Value found,
                                        ArrayRef<int64_t> shape,
                                        int64_t channels, int64_t planeSize,
                                        int64_t noneOffset) {
  OpBuilder &b = im.b;
  Type i64 = b.getI64Type();
  unsigned rank = shape.size();
  Value empty = tensor::EmptyOp::create(b, im.loc, shape, i64);
  SmallVector<AffineMap> maps(2,
                              AffineMap::getMultiDimIdentityMap(rank, im.ctx));
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = onnx::TensorProto::INT64;
  out.shape.assign(shape.begin(), shape.end());
  out.value =
      linalg::GenericOp::create(
          b, im.loc, TypeRange{empty.getType()}, ValueRange{found},
          ValueRange{empty}, maps,
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &nb, Location l, ValueRange a) {
            auto constant = [&](int64_t v) -> Value {
              return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v));
            };
            auto index = [&](unsigned i) -> Value {
              return arith::IndexCastOp::create(
                  nb, l, i64, linalg::IndexOp::create(nb, l, i));
            };
            Value plane = arith::AddIOp::create(
                nb, l,
                arith::MulIOp::create(nb, l, index(0), constant(channels)),
                index(1));
            Value none = arith::AddIOp::create(
                nb, l, arith::MulIOp::create(nb, l, plane, constant(planeSize)),
                constant(noneOffset));
            Value missing = arith::CmpIOp::create(
                nb, l, arith::CmpIPredicate::slt, a[0], constant(0));
            linalg::YieldOp::create(
                nb, l,
                arith::SelectOp::create(nb, l, missing, none, a[0])
                    .getResult());
          })
          .getResult(0);
  return out;
}

/// The flat input index of each window's largest element of a max pool over
/// k = kernel.size() spatial dimensions, -1 where nothing won: one
/// linalg.generic over loops (n, c, o_1..o_k, t_1..t_k) reading `src` (the
/// f32 input padded with -inf, `padBegin` before each spatial axis) through
/// `srcMap`. The taps are scanned in row-major order from the lowest float,
/// as ONNX Runtime's MaxPool kernels scan them: a strictly larger element
/// takes over, so the first of equal maxima wins and padding (-inf) or a NaN
/// never does. The index is ((n C + c) in_1 + i_1) in_2 + i_2 ... of the
/// unpadded input.
static Value scanForMaxIndex(Importer &im, Value src, AffineMap srcMap,
                             ArrayRef<int64_t> pooled, ArrayRef<int64_t> kernel,
                             ArrayRef<int64_t> strides,
                             ArrayRef<int64_t> dilations,
                             ArrayRef<int64_t> padBegin,
                             ArrayRef<int64_t> inputSizes, int64_t channels) {
  OpBuilder &b = im.b;
  Location loc = im.loc;
  MLIRContext *ctx = im.ctx;
  Type f32 = Float32Type::get(ctx), i64 = b.getI64Type();
  unsigned k = kernel.size(), loops = 2 + 2 * k;
  SmallVector<AffineExpr> taps, outs;
  for (unsigned d = 0; d < 2 + k; ++d)
    outs.push_back(getAffineDimExpr(d, ctx));
  for (unsigned d = 0; d < k; ++d)
    taps.push_back(getAffineDimExpr(2 + k + d, ctx));
  AffineMap out = AffineMap::get(loops, 0, outs, ctx);
  SmallVector<AffineMap> maps = {srcMap, AffineMap::get(loops, 0, taps, ctx),
                                 out, out};
  SmallVector<utils::IteratorType> iters(2 + k, utils::IteratorType::parallel);
  iters.append(k, utils::IteratorType::reduction);
  Value window = tensor::EmptyOp::create(b, loc, kernel, f32);
  auto filled = [&](TypedAttr value, Type elem) {
    Value start = arith::ConstantOp::create(b, loc, value);
    return linalg::FillOp::create(
               b, loc, ValueRange{start},
               ValueRange{tensor::EmptyOp::create(b, loc, pooled, elem)})
        .getResult(0);
  };
  Value best =
      filled(b.getF32FloatAttr(std::numeric_limits<float>::lowest()), f32);
  Value where = filled(b.getI64IntegerAttr(-1), i64);
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{best.getType(), where.getType()},
      ValueRange{src, window}, ValueRange{best, where}, maps, iters,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        auto index = [&](unsigned i) -> Value {
          return arith::IndexCastOp::create(nb, l, i64,
                                            linalg::IndexOp::create(nb, l, i));
        };
        auto constant = [&](int64_t v) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v));
        };
        auto mulAdd = [&](Value v, int64_t m, Value y) -> Value {
          return arith::AddIOp::create(
              nb, l, arith::MulIOp::create(nb, l, v, constant(m)), y);
        };
        // The plane, then each coordinate in the unpadded input.
        Value flat = mulAdd(index(0), channels, index(1));
        for (unsigned d = 0; d < k; ++d) {
          Value at = arith::SubIOp::create(
              nb, l,
              mulAdd(index(2 + d), strides[d],
                     arith::MulIOp::create(nb, l, index(2 + k + d),
                                           constant(dilations[d]))),
              constant(padBegin[d]));
          flat = mulAdd(flat, inputSizes[d], at);
        }
        Value larger =
            arith::CmpFOp::create(nb, l, arith::CmpFPredicate::OGT, a[0], a[2]);
        linalg::YieldOp::create(
            nb, l,
            ValueRange{arith::SelectOp::create(nb, l, larger, a[0], a[2]),
                       arith::SelectOp::create(nb, l, larger, flat, a[3])});
      });
  return generic.getResult(1);
}

/// A 3-D MaxPool's Indices (NCDHW int64) over the pooled shape `pooled`,
/// as ONNX Runtime's MaxPool3DTask finds them (scanning D, then H, then W):
/// ((n C + c) D + d) H W + h W + w; a window of only -inf or NaN keeps the
/// kernel's initial -1 for d, h and w: (n C + c) D H W - H W - W - 1.
/// Compared in f32 (codes as their reals).
static FailureOr<ImportedValue> maxPool3DIndices(Importer &im, ImportedValue &x,
                                                 ArrayRef<int64_t> pooled) {
  auto in = im.floatValue(x, /*nhwc=*/false);
  if (failed(in))
    return failure();
  OpBuilder &b = im.b;
  Location loc = im.loc;
  std::vector<int64_t> kernel = *im.attrInts("kernel_shape");
  std::vector<int64_t> strides =
      im.attrInts("strides").value_or(std::vector<int64_t>{1, 1, 1});
  std::vector<int64_t> dilations =
      im.attrInts("dilations").value_or(std::vector<int64_t>{1, 1, 1});
  std::vector<int64_t> pads =
      im.attrInts("pads").value_or(std::vector<int64_t>(6, 0));
  if (im.attrString("auto_pad").value_or("NOTSET") == "VALID")
    pads.assign(6, 0);
  // Padded with -inf before each axis by its begin padding and after it as
  // far as the last window reaches (ceil_mode's overrun included).
  SmallVector<OpFoldResult> low(2, b.getIndexAttr(0)),
      high(2, b.getIndexAttr(0));
  SmallVector<int64_t> padded = {x.shape[0], x.shape[1]};
  for (int d = 0; d < 3; ++d) {
    int64_t reach = (pooled[2 + d] - 1) * strides[d] +
                    (kernel[d] - 1) * dilations[d] + 1 - pads[d];
    int64_t after = std::max<int64_t>(0, reach - x.shape[2 + d]);
    low.push_back(b.getIndexAttr(pads[d]));
    high.push_back(b.getIndexAttr(after));
    padded.push_back(x.shape[2 + d] + pads[d] + after);
  }
  Value minusInf = arith::ConstantOp::create(
      b, loc, b.getF32FloatAttr(-std::numeric_limits<float>::infinity()));
  Value src = tensor::PadOp::create(
                  b, loc, RankedTensorType::get(padded, b.getF32Type()), *in,
                  low, high, minusInf)
                  .getResult();
  // Loops (n, c, od, oh, ow, kd, kh, kw) over the NCDHW input.
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, im.ctx); };
  SmallVector<AffineExpr> read = {dim(0), dim(1)};
  for (int d = 0; d < 3; ++d)
    read.push_back(dim(2 + d) * strides[d] + dim(5 + d) * dilations[d]);
  ArrayRef<int64_t> sizes = ArrayRef<int64_t>(x.shape).drop_front(2);
  Value found = scanForMaxIndex(
      im, src, AffineMap::get(8, 0, read, im.ctx), pooled, kernel, strides,
      dilations, ArrayRef<int64_t>(pads).take_front(3), sizes, x.shape[1]);
  // The -1 left where nothing won: the index of d = h = w = -1.
  return maxPoolIndexResult(im, found, pooled, x.shape[1],
                            sizes[0] * sizes[1] * sizes[2],
                            -sizes[1] * sizes[2] - sizes[2] - 1);
}

LogicalResult Importer::importPool3D() {
  StringRef op = node->op_type();
  auto x = input(0);
  if (failed(x))
    return failure();
  ArrayRef<int64_t> shape = (*x)->shape;
  int64_t n = shape[0], c = shape[1], h = shape[3], w = shape[4];
  Expansion e(*this, *node);
  // A global pool is the 2-D one over D x (H W), viewed back with ones.
  if (op.starts_with("Global")) {
    std::string pooled =
        e.op(op, {e.reshape(node->input(0), {n, c, shape[2], h * w})});
    e.op("Reshape", {pooled, e.constInts("shape", {n, c, 1, 1, 1})},
         node->output(0));
    return importExpansion(*node, e.nodes);
  }
  // The window is a box and both the max and the average (whose count of
  // a box clipped to the input is the product of the counts along each
  // axis) are separable: the 2-D pool of (kD, 1) over N x C x D x (H W),
  // then the 2-D pool of (kH, kW) over N x (C Do) x H x W.
  bool indices =
      op == "MaxPool" && node->output_size() > 1 && !node->output(1).empty();
  if (indices && attrInt("storage_order").value_or(0) != 0)
    return fail("storage_order = " + Twine(*attrInt("storage_order")) +
                " (column-major Indices) is not supported");
  std::string byDepth = e.fresh("pooled_d"), byPlane = e.fresh("pooled_hw");
  std::string rows = e.reshape(node->input(0), {n, c, shape[2], h * w});
  size_t alongD = e.nodes.size();
  e.add(op, {rows}, byDepth);
  std::string planes =
      e.op("Reshape", {byDepth, e.constInts("shape", {n, -1, h, w})});
  size_t alongHW = e.nodes.size();
  e.add(op, {planes}, byPlane);
  for (const onnx::AttributeProto &a : node->attribute()) {
    StringRef name = a.name();
    if (name != "kernel_shape" && name != "strides" && name != "dilations" &&
        name != "pads") {
      *e.nodes[alongD].add_attribute() = a;
      *e.nodes[alongHW].add_attribute() = a;
      continue;
    }
    size_t expected = name == "pads" ? 6 : 3;
    if (size_t(a.ints_size()) != expected)
      return fail(name + " of a 3-D pool needs " + Twine(expected) +
                  " values, got " + Twine(a.ints_size()));
    auto v = [&](int i) { return a.ints(i); };
    bool pads = name == "pads";
    Expansion::setInts(e.nodes[alongD], name,
                       pads ? std::vector<int64_t>{v(0), 0, v(3), 0}
                            : std::vector<int64_t>{v(0), 1});
    Expansion::setInts(e.nodes[alongHW], name,
                       pads ? std::vector<int64_t>{v(1), v(2), v(4), v(5)}
                            : std::vector<int64_t>{v(1), v(2)});
  }
  // N x (C Do) x Ho x Wo as N x C x Do x Ho x Wo: Reshape's 0 copies Ho
  // and Wo from the unsqueezed input, -1 is Do.
  std::string tall = e.fresh("unsqueezed");
  e.addInts(e.add("Unsqueeze", {byPlane}, tall), "axes", {1}, 13);
  e.op("Reshape", {tall, e.constInts("shape", {0, c, -1, 0, 0})},
       node->output(0));
  if (failed(importExpansion(*node, e.nodes)))
    return failure();
  if (!indices)
    return success();
  // The pools above checked the window; the Indices come from one scan of
  // each 3-D window, over the pooled shape they produced.
  x = input(0);
  if (failed(x))
    return failure();
  auto found = maxPool3DIndices(*this, **x, values[node->output(0)].shape);
  if (failed(found))
    return failure();
  setOutput(1, std::move(*found));
  return success();
}

/// Reads the window attributes of MaxPool / AveragePool on an NCHW input.
static FailureOr<PoolWindow> readWindow(Importer &im, const ImportedValue &x,
                                    bool global) {
  if (x.shape.size() != 4)
    return im.fail("only 2-D pooling (rank-4 input) is supported");
  PoolWindow w;
  if (global) {
    w.kernel = {x.shape[2], x.shape[3]};
    w.strides = {1, 1};
    w.dilations = {1, 1};
    w.padding = {0, 0, 0, 0};
    return w;
  }
  bool ceilMode = im.attrInt("ceil_mode").value_or(0) != 0;
  w.countIncludePad = im.attrInt("count_include_pad").value_or(0) != 0;
  auto k = im.attrInts("kernel_shape");
  if (!k || k->size() != 2)
    return im.fail("kernel_shape needs two values");
  w.kernel = *k;
  w.strides = im.attrInts("strides").value_or(std::vector<int64_t>{1, 1});
  w.dilations = im.attrInts("dilations").value_or(std::vector<int64_t>{1, 1});
  std::vector<int64_t> pads =
      im.attrInts("pads").value_or(std::vector<int64_t>{0, 0, 0, 0});
  std::string autoPad = im.attrString("auto_pad").value_or("NOTSET");
  if (autoPad == "VALID")
    pads = {0, 0, 0, 0};
  else if (autoPad != "NOTSET")
    return im.fail("unsupported auto_pad '" + autoPad + "'");
  if (w.strides.size() != 2 || w.dilations.size() != 2 || pads.size() != 4)
    return im.fail("strides / dilations / pads have the wrong length");
  bool explicitPadding = llvm::any_of(pads, [](int64_t p) { return p != 0; });
  // Bounded so that the window arithmetic below cannot overflow (inputs
  // hold fewer than 2^62 elements).
  constexpr int64_t kMaxWindow = int64_t(1) << 40;
  for (int d = 0; d < 2; ++d) {
    if (w.kernel[d] <= 0 || w.strides[d] <= 0 || w.dilations[d] <= 0)
      return im.fail("kernel, strides and dilations must be positive");
    if (w.kernel[d] > kMaxWindow || w.strides[d] > kMaxWindow ||
        w.dilations[d] > kMaxWindow)
      return im.fail("kernel, strides and dilations must be at most 2^40");
    if (pads[d] < 0 || pads[d + 2] < 0)
      return im.fail("negative padding");
    if (pads[d] >= w.kernel[d] || pads[d + 2] >= w.kernel[d])
      return im.fail("padding must be smaller than the kernel");
    int64_t extent;
    if (llvm::MulOverflow(w.kernel[d] - 1, w.dilations[d], extent) ||
        extent >= kMaxWindow)
      return im.fail("the dilated kernel spans more than 2^40 positions");
    extent += 1;
    int64_t padded = x.shape[2 + d] + pads[d] + pads[d + 2];
    if (padded < extent)
      return im.fail("the window is larger than the padded input");
    if (!ceilMode)
      continue;
    // ceil_mode: the last window may run past the end; those positions are
    // padding (never the max, not counted in the average).
    int64_t windows = (padded - extent + w.strides[d] - 1) / w.strides[d] + 1;
    // PyTorch (and the ONNX reference) drop a last window that would start
    // past the input, others keep it: only unambiguous sizes are taken.
    if ((windows - 1) * w.strides[d] >= x.shape[2 + d] + pads[d])
      return im.fail("ceil_mode = 1 where the last window would start in the "
                     "padding is not supported");
    int64_t extra = (windows - 1) * w.strides[d] + extent - padded;
    if (extra == 0)
      continue;
    // ONNX Runtime and PyTorch count explicit padding under
    // count_include_pad but never these extra positions: without explicit
    // padding that is count_include_pad = 0.
    if (w.countIncludePad) {
      if (explicitPadding)
        return im.fail("ceil_mode = 1 with count_include_pad = 1 and "
                       "explicit padding is not supported");
      w.countIncludePad = false;
    }
    pads[d + 2] += extra;
    if (pads[d + 2] >= w.kernel[d])
      return im.fail("ceil_mode = 1 pads the end beyond the kernel");
  }
  w.padding = {pads[0], pads[2], pads[1], pads[3]};
  return w;
}

static SmallVector<int64_t> pooledShape(const ImportedValue &x,
                                        const std::vector<int64_t> &kernel,
                                        const std::vector<int64_t> &strides,
                                        const std::vector<int64_t> &dilations,
                                        const std::vector<int64_t> &padding) {
  SmallVector<int64_t> s = {x.shape[0], x.shape[1], 0, 0};
  for (int d = 0; d < 2; ++d)
    s[2 + d] = (x.shape[2 + d] + padding[2 * d] + padding[2 * d + 1] -
                ((kernel[d] - 1) * dilations[d] + 1)) /
                   strides[d] +
               1;
  return s;
}

/// floatPool over the current node's window (`global`: all of H and W).
static FailureOr<ImportedValue> floatPoolOfNode(Importer &im,
                                                ImportedValue &x, bool global,
                                                bool isMax) {
  auto read = readWindow(im, x, global);
  if (failed(read))
    return failure();
  return floatPool(im, x, *read, isMax);
}

FailureOr<ImportedValue>
quantopt::onnx_import::detail::floatPool(Importer &im, ImportedValue &x,
                                         const PoolWindow &w, bool isMax) {
  auto in = im.floatValue(x, /*nhwc=*/true);
  if (failed(in))
    return failure();
  OpBuilder &b = im.b;
  Location loc = im.loc;
  MLIRContext *ctx = im.ctx;
  Type f32 = Float32Type::get(ctx);
  int64_t h = x.shape[2], wd = x.shape[3];
  float padValue = isMax ? -std::numeric_limits<float>::infinity() : 0.0f;
  Value src = im.padSpatialNhwc(*in, w.padding, padValue);
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = pooledShape(x, w.kernel, w.strides, w.dilations, w.padding);
  out.nhwc = true;
  int64_t oh = out.shape[2], ow = out.shape[3];
  SmallVector<int64_t> shape = {x.shape[0], oh, ow, x.shape[1]};
  // Loops (n, oh, ow, c, kh, kw); the window operand only gives kh, kw
  // their bounds (as upstream's pooling ops do).
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> maps = {
      AffineMap::get(6, 0,
                     {d(0), d(1) * w.strides[0] + d(4) * w.dilations[0],
                      d(2) * w.strides[1] + d(5) * w.dilations[1], d(3)},
                     ctx),
      AffineMap::get(6, 0, {d(4), d(5)}, ctx),
      AffineMap::get(6, 0, {d(0), d(1), d(2), d(3)}, ctx)};
  SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
  iters.append(2, utils::IteratorType::reduction);
  Value window = tensor::EmptyOp::create(b, loc, w.kernel, f32);
  Value start = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(padValue));
  Value init = linalg::FillOp::create(
                   b, loc, ValueRange{start},
                   ValueRange{tensor::EmptyOp::create(b, loc, shape, f32)})
                   .getResult(0);
  Value y =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ValueRange{src, window},
          ValueRange{init}, maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            Value r =
                isMax ? arith::MaximumFOp::create(nb, l, a[2], a[0]).getResult()
                      : arith::AddFOp::create(nb, l, a[2], a[0]).getResult();
            linalg::YieldOp::create(nb, l, r);
          })
          .getResult(0);
  if (!isMax) {
    // The count of each output position, at compile time.
    if (oh > kMaxPoolTable / ow)
      return im.fail("average pooling to " + Twine(oh) + " x " + Twine(ow) +
                     " positions is too large for the count table (at most " +
                     Twine(kMaxPoolTable) + ")");
    // The taps inside the input factor into rows times columns, each
    // counted in closed form (a kernel may have 2^40 taps).
    auto inside = [](int64_t base, int64_t kernel, int64_t dilation,
                     int64_t size) -> int64_t {
      if (base > size - 1)
        return 0;
      int64_t first = base >= 0 ? 0 : (-base + dilation - 1) / dilation;
      int64_t last = std::min(kernel - 1, (size - 1 - base) / dilation);
      return std::max<int64_t>(0, last - first + 1);
    };
    SmallVector<float> counts;
    for (int64_t i = 0; i < oh; ++i)
      for (int64_t j = 0; j < ow; ++j) {
        if (w.countIncludePad) {
          counts.push_back(float(double(w.kernel[0]) * double(w.kernel[1])));
          continue;
        }
        int64_t rows = inside(i * w.strides[0] - w.padding[0], w.kernel[0],
                              w.dilations[0], h);
        int64_t cols = inside(j * w.strides[1] - w.padding[2], w.kernel[1],
                              w.dilations[1], wd);
        counts.push_back(float(double(rows) * double(cols)));
      }
    auto cType = RankedTensorType::get({1, oh, ow, 1}, f32);
    Value cv = arith::ConstantOp::create(
        b, loc, cType, DenseElementsAttr::get(cType, ArrayRef<float>(counts)));
    SmallVector<AffineMap> divMaps = {
        AffineMap::getMultiDimIdentityMap(4, ctx),
        AffineMap::get(4, 0,
                       {getAffineConstantExpr(0, ctx), d(1), d(2),
                        getAffineConstantExpr(0, ctx)},
                       ctx),
        AffineMap::getMultiDimIdentityMap(4, ctx)};
    Value empty = tensor::EmptyOp::create(b, loc, shape, f32);
    y = linalg::GenericOp::create(
            b, loc, TypeRange{empty.getType()}, ValueRange{y, cv},
            ValueRange{empty}, divMaps,
            SmallVector<utils::IteratorType>(4, utils::IteratorType::parallel),
            [](OpBuilder &nb, Location l, ValueRange a) {
              linalg::YieldOp::create(
                  nb, l, arith::DivFOp::create(nb, l, a[0], a[1]).getResult());
            })
            .getResult(0);
  }
  out.value = y;
  return out;
}

/// MaxPool's Indices output (NCHW int64): for each window the flat index
/// in the input, ((n C + c) H + h) W + w, of its largest element, as ONNX
/// Runtime's kernel finds it: scanning the window row by row from the
/// lowest float, a strictly larger element replaces the current one, so
/// the first of equal maxima wins and padding never does. A window of only
/// -inf or NaN keeps the kernel's initial row and column -1: (n C + c) H W
/// - W - 1, or for a 1-D pool (`oneDim`, lifted to height 1) (n C + c) L -
/// 1. Compared in f32 (codes compare as their reals).
static FailureOr<ImportedValue> maxPoolIndices(Importer &im, ImportedValue &x,
                                               const PoolWindow &w,
                                               bool oneDim) {
  auto in = im.floatValue(x, /*nhwc=*/true);
  if (failed(in))
    return failure();
  MLIRContext *ctx = im.ctx;
  int64_t h = x.shape[2], wd = x.shape[3];
  Value src = im.padSpatialNhwc(*in, w.padding,
                                -std::numeric_limits<float>::infinity());
  SmallVector<int64_t> shape =
      pooledShape(x, w.kernel, w.strides, w.dilations, w.padding);
  // Loops (n, c, oh, ow, kh, kw) over the NHWC input, into NCHW results.
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  AffineMap read =
      AffineMap::get(6, 0,
                     {d(0), d(2) * w.strides[0] + d(4) * w.dilations[0],
                      d(3) * w.strides[1] + d(5) * w.dilations[1], d(1)},
                     ctx);
  Value found =
      scanForMaxIndex(im, src, read, shape, w.kernel, w.strides, w.dilations,
                      {w.padding[0], w.padding[2]}, {h, wd}, x.shape[1]);
  // The -1 left where nothing won becomes the kernel's index of row and
  // column -1 (of column -1 in 1-D).
  return maxPoolIndexResult(im, found, shape, x.shape[1], h * wd,
                            oneDim ? -1 : -wd - 1);
}

LogicalResult Importer::importMaxPool(bool global) {
  if (failed(global ? checkAttrs({})
                    : checkAttrs({"auto_pad", "ceil_mode", "dilations",
                                  "kernel_shape", "pads", "storage_order",
                                  "strides"})))
    return failure();
  auto xin = input(0);
  if (failed(xin))
    return failure();
  if (!global && node->output_size() > 1 && !node->output(1).empty()) {
    // Indices (SegNet's MaxPool -> MaxUnpool): from the f32 values.
    auto w = readWindow(*this, **xin, /*global=*/false);
    if (failed(w))
      return failure();
    // storage_order orders the indices only.
    if (int64_t order = attrInt("storage_order").value_or(0))
      return fail("storage_order = " + Twine(order) +
                  " (column-major Indices) is not supported");
    // A 1-D pool arrives lifted to height 1 by importPool1D's expansion.
    bool oneDim = expandedFrom && expandedFrom->op_type() == "MaxPool";
    auto indices = maxPoolIndices(*this, **xin, *w, oneDim);
    if (failed(indices))
      return failure();
    setOutput(1, std::move(*indices));
  }
  if (!isQuantizable(**xin)) {
    // A float input (e.g. after a conv with no Q): the max in f32.
    auto pool = floatPoolOfNode(*this, **xin, global, /*isMax=*/true);
    if (failed(pool))
      return failure();
    setOutput(0, std::move(*pool));
    return success();
  }
  auto x = requireQuantized(0, "input X");
  if (failed(x))
    return failure();
  auto w = readWindow(*this, **x, global);
  if (failed(w))
    return failure();
  auto in = quantValue(**x, /*nhwc=*/true);
  if (failed(in))
    return failure();
  ImportedValue out = **x;
  out.codes.reset();
  out.shape = pooledShape(**x, w->kernel, w->strides, w->dilations, w->padding);
  out.nhwc = true;
  out.value =
      qnt::MaxPool2DOp::create(b, loc, quantTensorType(out), *in, w->kernel,
                               w->strides, w->dilations, w->padding)
          .getResult();
  setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importAveragePool(bool global) {
  if (failed(checkAttrs({"auto_pad", "ceil_mode", "count_include_pad",
                         "kernel_shape", "pads", "strides"})))
    return failure();
  auto pool = averagePool(global);
  if (failed(pool))
    return failure();
  setOutput(0, std::move(*pool));
  return success();
}

LogicalResult Importer::importReduce() {
  // axes: an attribute before opset 18 (ReduceSum: 13), an input since.
  bool isMean = node->op_type() == "ReduceMean";
  bool axesInput = opset >= reduceAxesInputOpset(node->op_type());
  if (failed(checkAttrs(
          axesInput ? ArrayRef<StringRef>{"keepdims", "noop_with_empty_axes"}
                    : ArrayRef<StringRef>{"axes", "keepdims"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  int64_t rank = (*x)->shape.size();
  std::vector<int64_t> axes;
  if (!axesInput) {
    axes = attrInts("axes").value_or(std::vector<int64_t>{});
  } else if (hasInput(1)) {
    auto c = constInts(1);
    if (failed(c))
      return failure();
    axes = *c;
  }
  if (axes.empty()) {
    // No axes: every axis, or (opset 18, noop_with_empty_axes) none.
    if (axesInput && attrInt("noop_with_empty_axes").value_or(0) == 1)
      return importIdentity();
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  for (int64_t &a : axes) {
    if (a < -rank || a >= rank)
      return fail("axis " + Twine(a) + " out of range");
    if (a < 0)
      a += rank;
  }
  llvm::sort(axes);
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    return fail("an axis is repeated");
  // ONNX Runtime keeps the dimensions for keepdims = 1 only (so does the
  // noop flag above).
  bool keepdims = attrInt("keepdims").value_or(1) == 1;
  // The mean over H and W of quantized NCHW codes is a global average pool;
  // any other mean runs in f32 (LayerNorm as torch exports it before
  // opset 17).
  if ((*x)->holdsIntegers())
    return importIntReduce(**x, axes, keepdims);
  if (!isMean || rank != 4 || axes != std::vector<int64_t>{2, 3} ||
      !isQuantizable(**x))
    return importFloatReduce(**x, axes, keepdims);
  auto pool = averagePool(/*global=*/true);
  if (failed(pool))
    return failure();
  if (keepdims) {
    setOutput(0, std::move(*pool));
    return success();
  }
  // keepdims = 0: N x C. A reshape of the pending average runs it in f32
  // (correct, not integer-only): the usual exporters keep the dims.
  int64_t n = pool->shape[0], c = pool->shape[1];
  return setReshapedOutput(std::move(*pool), {n, c});
}

FailureOr<ImportedValue> Importer::averagePool(bool global) {
  auto xin = input(0);
  if (failed(xin))
    return failure();
  if (!isQuantizable(**xin)) {
    // A float input: the average in f32.
    return floatPoolOfNode(*this, **xin, global, /*isMax=*/false);
  }
  auto x = requireQuantized(0, "input X");
  if (failed(x))
    return failure();
  if ((*x)->q.perAxis())
    return fail("average pooling of per-axis quantized values is not "
                "supported");
  auto w = readWindow(*this, **x, global);
  if (failed(w))
    return failure();
  PendingInfo p;
  p.op = PendingOp::AvgPool;
  p.operands = {**x};
  p.kernel = w->kernel;
  p.strides = w->strides;
  p.padding = w->padding;
  p.countIncludePad = w->countIncludePad;
  ImportedValue out;
  out.kind = Kind::Pending;
  out.shape = pooledShape(**x, w->kernel, w->strides, {1, 1}, w->padding);
  out.nhwc = true;
  out.pending = std::make_shared<PendingInfo>(std::move(p));
  return out;
}

FailureOr<ImportedValue> Importer::emitAvgPool(PendingInfo &p,
                                               const QParams &out) {
  ImportedValue &x = p.operands[0];
  auto in = quantValue(x, /*nhwc=*/true);
  if (failed(in))
    return failure();
  auto [lo, hi] = clampCodes(p, out);
  bool unpadded = llvm::all_of(p.padding, [](int64_t v) { return v == 0; });
  bool sameGrid = out == x.q && lo == out.qmin() && hi == out.qmax();
  // ONNX's QuantizeLinear rounds the mean half to even, TFLite's pool (and
  // qnt.avg_pool2d) half away from zero; the TFLite-style rounding modes
  // keep TFLite's rule on the input grid.
  bool halfEvenTies = options.rounding == qnt::RoundingMode::Float ||
                      options.rounding == qnt::RoundingMode::HalfEven;
  // On the input's scale the mean needs no multiplier: qnt.avg_pool2d
  // divides exactly and rounds its ties half to even, and a zero point or
  // storage change after it is a requantize by exactly 1. (A multiplier
  // S_x / count is inexact, and tips the mean's exact ties one way.)
  bool sameScale = out.scales == x.q.scales;
  if (halfEvenTies && sameScale)
    return averageOnInputGrid(p, out, *in, qnt::RoundingMode::HalfEven, lo,
                              hi);
  // The average in f32 on the dequantized values, as the QDQ graph defines
  // it, quantized once.
  auto averageInF32 = [&]() -> FailureOr<ImportedValue> {
    PoolWindow w{p.kernel, p.strides, {1, 1}, p.padding, p.countIncludePad};
    auto pooled = floatPool(*this, x, w, /*isMax=*/false);
    if (failed(pooled))
      return failure();
    ImportedValue res = quantizeFloat(*pooled, out);
    if (lo != out.qmin() || hi != out.qmax())
      res.value = requantize(res.value, quantTensorType(res), lo, hi, out);
    return res;
  };
  if ((!sameGrid || halfEvenTies) && (unpadded || p.countIncludePad)) {
    // Rounding the average on the input grid first would add a rounding
    // the float graph does not have (up to half an input step, more than
    // an output step when the output grid is finer), or round its ties
    // the other way. Instead sum exactly, as a depthwise conv with weights
    // 1 at scale 1 / count, and requantize the sum once:
    // M = S_x / (count * S_y).
    // The conv takes 8-bit codes (qnt.conv2d's contract): 16-bit ones
    // (ONNX Runtime's A16W8 models) are averaged in f32, as the QDQ graph
    // defines it, and quantized once.
    if (x.q.width != 8)
      return averageInF32();
    int64_t channels = x.shape[1];
    // The weights are a compile-time constant of count x channels ones;
    // activation shapes are not bounded by the model's data (checked in
    // double: two kernel sizes of 2^40 overflow int64).
    if (double(p.kernel[0]) * double(p.kernel[1]) >
        double(kMaxPoolTable / channels))
      return fail("average pooling of " +
                  str(double(p.kernel[0]) * double(p.kernel[1])) +
                  " positions x " + Twine(channels) +
                  " channels is too large for the exact sum "
                  "(at most " +
                  Twine(kMaxPoolTable) + " weights)");
    int64_t count = p.kernel[0] * p.kernel[1];
    QParams ones;
    ones.width = 8;
    ones.isSigned = true;
    ones.scales = {1.0 / double(count)};
    ones.zeroPoints = {0};
    SmallVector<int64_t> wShape = {p.kernel[0], p.kernel[1], 1, channels};
    auto wType = RankedTensorType::get(wShape, quantElementType(ones, -1));
    std::vector<int32_t> codes(count * channels, 1);
    Value w =
        qnt::ConstantOp::create(
            b, loc, wType,
            qnt::buildCodesAttr(
                wShape, cast<quant::QuantizedType>(wType.getElementType()),
                codes))
            .getResult();
    QParams acc;
    acc.width = 32;
    acc.isSigned = true;
    acc.scales = {x.q.scales[0] / double(count)};
    if (!isF32QuantScale(acc.scales[0]))
      return fail("the AveragePool's sum scale S_X / " + Twine(count) +
                  " = " + str(acc.scales[0]) +
                  " is outside the positive range of f32");
    acc.zeroPoints = {0};
    ImportedValue sum = x;
    sum.codes.reset();
    sum.kind = Kind::Quant;
    sum.nhwc = true;
    sum.q = acc;
    sum.shape = pooledShape(x, p.kernel, p.strides, {1, 1}, p.padding);
    Value accValue =
        qnt::Conv2DOp::create(b, loc, quantTensorType(sum), *in, w, Value(),
                              p.strides, ArrayRef<int64_t>{1, 1}, p.padding,
                              uint64_t(channels))
            .getResult();
    ImportedValue y = sum;
    y.q = out;
    y.value = requantize(accValue, quantTensorType(y), lo, hi, out);
    return y;
  }
  // Counts that differ between windows (count_include_pad = 0 with padding,
  // ceil_mode's overrun) have no single multiplier for the exact sum. On
  // another scale, rounding the mean on the input grid first would add a
  // rounding the graph does not have (two codes off and more when the
  // output grid is finer): the mean in f32, quantized once.
  if (!sameScale)
    return averageInF32();
  // qnt.avg_pool2d averages codes (TFLite's rule, count_include_pad
  // respected); another zero point or clamp is one requantize by exactly 1.
  return averageOnInputGrid(p, out, *in, qnt::RoundingMode::Away, lo, hi);
}

FailureOr<ImportedValue>
Importer::averageOnInputGrid(PendingInfo &p, const QParams &out, Value in,
                             qnt::RoundingMode ties, int64_t lo, int64_t hi) {
  ImportedValue &x = p.operands[0];
  ImportedValue pooled = x;
  pooled.codes.reset();
  pooled.kind = Kind::Quant;
  pooled.nhwc = true;
  pooled.shape = pooledShape(x, p.kernel, p.strides, {1, 1}, p.padding);
  Value avg = qnt::AvgPool2DOp::create(b, loc, quantTensorType(pooled), in,
                                       p.kernel, p.strides, p.padding,
                                       p.countIncludePad, ties)
                  .getResult();
  ImportedValue y = pooled;
  y.q = out;
  if (out == x.q && lo == out.qmin() && hi == out.qmax())
    y.value = avg;
  else
    y.value = requantize(avg, quantTensorType(y), lo, hi, out);
  return y;
}

std::optional<SmallVector<int64_t>>
quantopt::onnx_import::detail::broadcastShapes(ArrayRef<int64_t> a,
                                               ArrayRef<int64_t> b) {
  size_t rank = std::max(a.size(), b.size());
  SmallVector<int64_t> out(rank);
  for (size_t d = 0; d < rank; ++d) {
    int64_t x = d + a.size() >= rank ? a[d + a.size() - rank] : 1;
    int64_t y = d + b.size() >= rank ? b[d + b.size() - rank] : 1;
    if (x != y && x != 1 && y != 1)
      return std::nullopt;
    // numpy: a size-1 dimension takes the other's size, 0 included.
    out[d] = x == 1 ? y : x;
  }
  return out;
}

std::optional<int64_t>
quantopt::onnx_import::detail::foldableCount(ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, [](int64_t d) { return d < 0; }))
    return std::nullopt;
  // Empty whatever the other dimensions are.
  if (llvm::is_contained(shape, 0))
    return 0;
  int64_t count = 1;
  for (int64_t d : shape) {
    if (count > kMaxFoldedElements / d)
      return std::nullopt;
    count *= d;
  }
  return count;
}

LogicalResult Importer::importAdd() {
  if (failed(checkAttrs({})))
    return failure();
  auto a = input(0);
  auto c = failed(a) ? FailureOr<ImportedValue *>(failure()) : input(1);
  if (failed(a) || failed(c))
    return failure();
  // MatMul + Add(constant): the bias of the pending contraction, a float
  // constant or int32 codes at S_X * S_W (as tf2onnx writes a
  // FullyConnected's bias), where it is one value per column. Any other
  // constant (one per row or element: Gemm's C of [M, N]) is added in f32
  // below.
  for (int k = 0; k < 2; ++k) {
    ImportedValue *acc = k ? *c : *a, *bias = k ? *a : *c;
    bool constantBias =
        (bias->kind == Kind::Const && !bias->f.empty()) ||
        (bias->kind == Kind::Dequant && bias->codes && bias->q.width == 32);
    if (acc->kind == Kind::Pending &&
        acc->pending->op == PendingOp::Contraction &&
        !acc->pending->floatBias && !acc->pending->intBias &&
        !std::isfinite(acc->pending->lo) && !std::isfinite(acc->pending->hi) &&
        constantBias) {
      int64_t channels = acc->shape.back();
      int64_t n = bias->numElements();
      bool leadingOnes =
          bias->shape.empty() ||
          llvm::all_of(ArrayRef<int64_t>(bias->shape).drop_back(),
                       [](int64_t d) { return d == 1; });
      if (acc->pending->isConv || (n != channels && n != 1) || !leadingOnes ||
          bias->shape.size() > acc->shape.size())
        break;
      ImportedValue out = *acc;
      out.pending = std::make_shared<PendingInfo>(*acc->pending);
      if (failed(setContractionBias(*bias, channels, *out.pending)))
        return failure();
      setOutput(0, std::move(out));
      return success();
    }
  }
  // A float operand: add in float.
  if (!isQuantizable(**a) || !isQuantizable(**c))
    return importFloatBinary(**a, **c, "Add");
  auto qa = requireQuantized(0, "input A");
  if (failed(qa))
    return failure();
  auto qb = requireQuantized(1, "input B");
  if (failed(qb))
    return failure();
  if ((*qa)->q.perAxis() || (*qb)->q.perAxis())
    return fail("Add of per-axis quantized values is not supported");
  auto shape = broadcastShapes((*qa)->shape, (*qb)->shape);
  if (!shape)
    return fail("shapes do not broadcast");
  PendingInfo p;
  p.op = PendingOp::Add;
  p.operands = {**qa, **qb};
  ImportedValue out;
  out.kind = Kind::Pending;
  out.shape = *shape;
  out.nhwc = shape->size() == 4;
  out.pending = std::make_shared<PendingInfo>(std::move(p));
  setOutput(0, std::move(out));
  return success();
}

FailureOr<ImportedValue> Importer::emitAdd(PendingInfo &p, const QParams &out) {
  SmallVector<int64_t> shape =
      *broadcastShapes(p.operands[0].shape, p.operands[1].shape);
  bool nhwc = shape.size() == 4;
  SmallVector<Value> operands;
  for (ImportedValue &v : p.operands) {
    // Equal ranks for qnt.add: leading 1s where ONNX broadcasts ranks.
    if (v.shape.size() != shape.size()) {
      ImportedValue r = v;
      auto val = quantValue(v, false);
      if (failed(val))
        return failure();
      r.shape.insert(r.shape.begin(), shape.size() - v.shape.size(), 1);
      r.nhwc = false;
      r.codes.reset();
      r.value = reshape(*val, r.shape);
      v = r;
    }
    auto val = quantValue(v, nhwc);
    if (failed(val))
      return failure();
    operands.push_back(*val);
  }
  ImportedValue y;
  y.kind = Kind::Quant;
  y.shape = shape;
  y.nhwc = nhwc;
  y.q = out;
  y.dtype = out.isSigned ? onnx::TensorProto::INT8 : onnx::TensorProto::UINT8;
  auto [lo, hi] = clampCodes(p, out);
  DenseI64ArrayAttr clamp;
  if (lo != out.qmin() || hi != out.qmax())
    clamp = b.getDenseI64ArrayAttr({lo, hi});
  // qnt.add knows TFLite's integer add and ONNX Runtime's float rule.
  qnt::RoundingMode rounding = options.rounding == qnt::RoundingMode::Float
                                   ? qnt::RoundingMode::Float
                                   : qnt::RoundingMode::Double;
  auto add = qnt::AddOp::create(b, loc, quantTensorType(y), operands[0],
                                operands[1], rounding, clamp);
  // The op's range rules (an f32 sum that overflows for "float", an i32
  // left shift for "double") depend on the scales.
  if (failed(verifyAtNode(add)))
    return failure();
  y.value = add.getResult();
  return y;
}

/// Concat with a run-time integer operand (index tuples built at run
/// time): every input integers of one type (constants included), joined as
/// they are.
static LogicalResult concatIntegers(Importer &im,
                                    ArrayRef<ImportedValue> operands,
                                    int64_t axis, ArrayRef<int64_t> shape) {
  const ImportedValue *typed = llvm::find_if(
      operands, [](const ImportedValue &v) { return v.kind == Kind::Int; });
  Type elem = cast<RankedTensorType>(typed->value.getType()).getElementType();
  SmallVector<Value> values;
  for (const ImportedValue &v : operands) {
    if (!v.holdsIntegers() || v.dtype != typed->dtype)
      return im.fail("Concat of run-time integers needs every input to be "
                     "integers of the same type");
    if (v.nhwc)
      return im.fail("Concat of NHWC integers is not supported");
    values.push_back(v.kind == Kind::Int ? v.value : intConstant(im, v, elem));
  }
  ImportedValue out;
  out.kind = Kind::Int;
  out.dtype = typed->dtype;
  out.shape.assign(shape.begin(), shape.end());
  out.value =
      tensor::ConcatOp::create(im.b, im.loc, axis, nonEmptyParts(values, axis));
  im.setOutput(0, std::move(out));
  return success();
}

LogicalResult Importer::importConcat() {
  if (failed(checkAttrs({"axis"})))
    return failure();
  bool allConst = true;
  for (int k = 0; k < node->input_size(); ++k) {
    auto in = input(k);
    if (failed(in))
      return failure();
    allConst &= (*in)->kind == Kind::Const;
  }
  if (allConst)
    return foldConstConcat();
  auto axisAttr = attrInt("axis");
  if (!axisAttr)
    return fail("missing attribute 'axis'");
  PendingInfo p;
  p.op = PendingOp::Concat;
  bool quantized = true;
  for (int k = 0; k < node->input_size(); ++k) {
    auto in = input(k);
    if (failed(in))
      return failure();
    quantized &= isQuantizable(**in);
    p.operands.push_back(**in);
  }
  const ImportedValue &first = p.operands[0];
  int64_t rank = first.shape.size();
  int64_t axis = *axisAttr < 0 ? *axisAttr + rank : *axisAttr;
  if (axis < 0 || axis >= rank)
    return fail("axis out of range");
  SmallVector<int64_t> shape = first.shape;
  shape[axis] = 0;
  for (const ImportedValue &v : p.operands) {
    if (int64_t(v.shape.size()) != rank)
      return fail("inputs have different ranks");
    for (int64_t d = 0; d < rank; ++d)
      if (d != axis && v.shape[d] != first.shape[d])
        return fail("inputs differ outside the concatenation axis");
    shape[axis] += v.shape[axis];
  }
  if (llvm::any_of(p.operands,
                   [](const ImportedValue &v) { return v.kind == Kind::Int; }))
    return concatIntegers(*this, p.operands, axis, shape);
  if (!quantized) {
    // A float operand: the concatenation runs in f32.
    auto f = floatConcat(p.operands, axis);
    if (failed(f))
      return failure();
    ImportedValue out;
    out.kind = Kind::Float;
    out.shape = shape;
    out.value = *f;
    setOutput(0, std::move(out));
    return success();
  }
  bool sameParams = true;
  // ONNX concatenates int8 / uint8 tensors (the codes a QuantizeLinear
  // wrote) as they are: the result is codes too, not dequantized values.
  bool codes = true;
  for (int k = 0; k < node->input_size(); ++k) {
    auto in = requireQuantized(k, "input " + std::to_string(k));
    if (failed(in))
      return failure();
    if ((*in)->q.perAxis())
      return fail("Concat of per-axis quantized values is not supported");
    p.operands[k] = **in;
    sameParams &= (*in)->q == p.operands[0].q;
    codes &= (*in)->kind == Kind::Quant;
  }
  if (codes && !sameParams)
    return fail("Concat of int8 / uint8 code tensors quantized with "
                "different parameters is not supported (ONNX copies the "
                "codes, which then share no one scale and zero point)");
  p.axis = axis;
  ImportedValue out;
  out.kind = Kind::Pending;
  out.shape = shape;
  out.nhwc = rank == 4;
  out.pending = std::make_shared<PendingInfo>(std::move(p));
  if (sameParams) {
    // Equal parameters keep the grid: codes are copied.
    QParams q = first.q;
    auto r = emitConcat(*out.pending, q);
    if (failed(r))
      return failure();
    r->kind = codes ? Kind::Quant : Kind::Dequant;
    setOutput(0, std::move(*r));
    return success();
  }
  setOutput(0, std::move(out));
  return success();
}

FailureOr<ImportedValue> Importer::emitConcat(PendingInfo &p,
                                              const QParams &out) {
  SmallVector<int64_t> shape = p.operands[0].shape;
  shape[p.axis] = 0;
  for (const ImportedValue &v : p.operands)
    shape[p.axis] += v.shape[p.axis];
  bool nhwc = shape.size() == 4;
  SmallVector<Value> operands;
  for (ImportedValue &v : p.operands) {
    auto val = quantValue(v, nhwc);
    if (failed(val))
      return failure();
    // qnt.concat takes operands of the result's storage type; one of
    // another type (an int8 branch joined into a uint8 result) is moved to
    // the result's parameters first. Under --rounding float every operand
    // on another grid is, as the graph (and ONNX Runtime's QLinearConcat
    // tables) compute it: DequantizeLinear, then QuantizeLinear.
    bool otherType = v.q.width != out.width || v.q.isSigned != out.isSigned;
    bool floatMode = options.rounding == qnt::RoundingMode::Float;
    if (otherType || (floatMode && !(v.q == out))) {
      ImportedValue converted;
      converted.shape = v.shape;
      converted.nhwc = nhwc;
      converted.q = out;
      val =
          regrid(*val, quantTensorType(converted), out.qmin(), out.qmax(), out);
    }
    operands.push_back(*val);
  }
  ImportedValue y;
  y.kind = Kind::Quant;
  y.shape = shape;
  y.nhwc = nhwc;
  y.q = out;
  static const int64_t toNhwc[4] = {0, 3, 1, 2};
  int64_t axis = nhwc ? toNhwc[p.axis] : p.axis;
  Value cat = qnt::ConcatOp::create(b, loc, quantTensorType(y), operands,
                                    axis, options.rounding)
                  .getResult();
  auto [lo, hi] = clampCodes(p, out);
  y.value = lo == out.qmin() && hi == out.qmax()
                ? cat
                : requantize(cat, quantTensorType(y), lo, hi, out);
  return y;
}
