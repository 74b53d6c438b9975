//===- RoiAlign.cpp - RoiAlign (Faster / Mask R-CNN box heads) ------------===//
//
// ONNX's RoiAlign as ONNX Runtime's CPU kernel computes it (Caffe2's): each
// region r (x1, y1, x2, y2 of `rois` times spatial_scale, minus 0.5 with
// coordinate_transformation_mode = half_pixel; with output_half_pixel a
// region is at least 1 x 1) is cut into output_height x output_width bins,
// each sampled at sampling_ratio x sampling_ratio points; a point is the
// bilinear interpolation of its four neighbours in image batch_indices[r]
// (a point below -1 or past the image has weights 0; coordinates below 0
// read row / column 0, those in the last row / column read it alone).
// `avg` averages the points; `max` takes, per point, the largest of its
// four weighted neighbours and then the largest point (ONNX Runtime's
// definition, not the largest pixel).
//
// In f32 and in the kernel's order: one linalg.generic tabulates each
// point's neighbours and weights (over regions, bins and points, shared by
// the channels, as the kernel's pre_calc), a second reduces the points of
// each output in row-major order, reading X at the tabled positions
// (w1 v1 + w2 v2 + w3 v3 + w4 v4 added to the sum), then the sum is divided
// by the point count.
//
// sampling_ratio = 0 (ceil(region size / bins) points, which depends on the
// run-time boxes) is diagnosed. Where ONNX Runtime reads outside X a choice
// is made: batch indices are clamped to [0, N), a NaN coordinate counts as
// outside the image.
//
//===----------------------------------------------------------------------===//

#include "F32Builder.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// The point table holds 8 values per region, bin and point: bounded.
static constexpr int64_t kMaxPoints = int64_t(1) << 22;

LogicalResult Importer::importRoiAlign() {
  if (failed(checkArity(3, 1)))
    return failure();
  SmallVector<StringRef> attrs = {"mode", "output_height", "output_width",
                                  "sampling_ratio", "spatial_scale"};
  if (opset >= 16)
    attrs.push_back("coordinate_transformation_mode");
  if (failed(checkAttrs(attrs)))
    return failure();
  ImportedValue *in[3];
  for (unsigned k = 0; k < 3; ++k) {
    auto v = input(k);
    if (failed(v))
      return failure();
    in[k] = *v;
  }
  ImportedValue &x = *in[0], &rois = *in[1], &indices = *in[2];
  if (x.shape.size() != 4 || x.shape[2] <= 0 || x.shape[3] <= 0)
    return fail("X must be N x C x H x W with H and W positive");
  int64_t n = x.shape[0], channels = x.shape[1], h = x.shape[2], w = x.shape[3];
  if (rois.shape.size() != 2 || rois.shape[1] != 4)
    return fail("rois must be num_rois x 4");
  int64_t regions = rois.shape[0];
  if (indices.shape.size() != 1 || indices.shape[0] != regions)
    return fail("batch_indices must hold num_rois = " + Twine(regions) +
                " values");
  if (!indices.holdsIntegers() || indices.dtype == onnx::TensorProto::BOOL)
    return fail("batch_indices must be integers");
  if (x.holdsIntegers() || rois.holdsIntegers())
    return fail("RoiAlign of integer tensors");
  if (n <= 0 && regions > 0)
    return fail("X holds no image for the regions to read");

  std::string mode = attrString("mode").value_or("avg");
  if (mode != "avg" && mode != "max")
    return fail("unknown mode '" + mode + "' (ONNX defines avg and max)");
  std::string transform =
      attrString("coordinate_transformation_mode")
          .value_or(opset >= 16 ? "half_pixel" : "output_half_pixel");
  if (transform != "half_pixel" && transform != "output_half_pixel")
    return fail("unknown coordinate_transformation_mode '" + transform +
                "' (ONNX defines half_pixel and output_half_pixel)");
  bool halfPixel = transform == "half_pixel";
  int64_t bins[2] = {attrInt("output_height").value_or(1),
                     attrInt("output_width").value_or(1)};
  if (bins[0] < 1 || bins[1] < 1)
    return fail("output_height and output_width must be positive");
  int64_t grid = attrInt("sampling_ratio").value_or(0);
  if (grid <= 0)
    return fail("sampling_ratio = " + Twine(grid) +
                " (a grid that depends on the run-time regions) is not "
                "supported; it must be positive");
  float scale = attrFloat("spatial_scale").value_or(1.0f);
  if (!std::isfinite(scale))
    return fail("spatial_scale must be finite");
  // Regions x bins x points, each of 4 neighbours and 4 weights.
  double points = double(regions) * double(bins[0]) * double(bins[1]) *
                  double(grid) * double(grid);
  if (points > double(kMaxPoints))
    return fail("more than " + Twine(kMaxPoints) +
                " sampling points (regions x bins x sampling_ratio^2) are "
                "not supported");

  auto image = floatValue(x, /*nhwc=*/false);
  auto boxes = failed(image) ? image : floatValue(rois, /*nhwc=*/false);
  if (failed(boxes))
    return failure();
  Value batch = logicalIntegers(*this, indices, b.getI64Type());
  Type f32 = b.getF32Type(), i64 = b.getI64Type();

  // The point table: loops (r, ph, pw, iy, ix); the region's four
  // coordinates read through constant columns of rois.
  SmallVector<int64_t> tableShape = {regions, bins[0], bins[1], grid, grid};
  auto dim = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineMap> tableMaps;
  for (int64_t k = 0; k < 4; ++k)
    tableMaps.push_back(
        AffineMap::get(5, 0, {dim(0), getAffineConstantExpr(k, ctx)}, ctx));
  SmallVector<Value> tableInits;
  SmallVector<Type> tableTypes;
  for (int k = 0; k < 8; ++k) {
    Value empty =
        tensor::EmptyOp::create(b, loc, tableShape, k < 4 ? i64 : f32);
    tableInits.push_back(empty);
    tableTypes.push_back(empty.getType());
    tableMaps.push_back(AffineMap::getMultiDimIdentityMap(5, ctx));
  }
  SmallVector<utils::IteratorType> tableIters(5, utils::IteratorType::parallel);
  auto table = linalg::GenericOp::create(
      b, loc, tableTypes, ValueRange{*boxes, *boxes, *boxes, *boxes},
      tableInits, tableMaps, tableIters,
      [&](OpBuilder &nb, Location l, ValueRange a) {
        F32Builder f{nb, l};
        using P = arith::CmpFPredicate;
        auto indexF = [&](unsigned i) -> Value {
          return arith::SIToFPOp::create(
              nb, l, f32,
              arith::IndexCastOp::create(nb, l, i64,
                                         linalg::IndexOp::create(nb, l, i)));
        };
        auto corner = [&](Value v) {
          Value scaled = f.mul(v, f.c(scale));
          return halfPixel ? f.sub(scaled, f.c(0.5)) : scaled;
        };
        Value startW = corner(a[0]), startH = corner(a[1]);
        Value roiW = f.sub(corner(a[2]), startW);
        Value roiH = f.sub(corner(a[3]), startH);
        if (!halfPixel) {
          // std::max(size, 1): a NaN stays.
          roiW = f.select(f.cmp(P::OLT, roiW, f.c(1)), f.c(1), roiW);
          roiH = f.select(f.cmp(P::OLT, roiH, f.c(1)), f.c(1), roiH);
        }
        Value binH = f.div(roiH, f.c(double(bins[0])));
        Value binW = f.div(roiW, f.c(double(bins[1])));
        // start + bin * b + (i + .5) * bin / grid, in the kernel's order.
        auto sample = [&](Value start, Value bin, unsigned binDim,
                          unsigned pointDim) {
          return f.add(f.add(start, f.mul(indexF(binDim), bin)),
                       f.div(f.mul(f.add(indexF(pointDim), f.c(0.5)), bin),
                             f.c(double(grid))));
        };
        Value y = sample(startH, binH, 1, 3), xx = sample(startW, binW, 2, 4);
        auto outside = [&](Value v, int64_t size) {
          Value below = f.cmp(P::ULT, v, f.c(-1.0)); // NaN counts too
          return arith::OrIOp::create(nb, l, below,
                                      f.cmp(P::OGT, v, f.c(double(size))));
        };
        Value empty =
            arith::OrIOp::create(nb, l, outside(y, h), outside(xx, w));
        auto constant = [&](int64_t v) -> Value {
          return arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(v));
        };
        // Per axis: the low and high neighbours and the weight of the high
        // one (v - low), for an inside coordinate.
        auto neighbours = [&](Value v, int64_t size) {
          v = f.select(empty, f.c(0), v);
          v = f.select(f.cmp(P::OLE, v, f.c(0)), f.c(0), v);
          Value low = arith::FPToSIOp::create(nb, l, i64, v);
          Value last = arith::CmpIOp::create(nb, l, arith::CmpIPredicate::sge,
                                             low, constant(size - 1));
          Value lowIdx =
              arith::SelectOp::create(nb, l, last, constant(size - 1), low);
          Value highIdx = arith::SelectOp::create(
              nb, l, last, constant(size - 1),
              arith::AddIOp::create(nb, l, low, constant(1)));
          v = f.select(last, f.c(double(size - 1)), v);
          Value frac = f.sub(v, arith::SIToFPOp::create(nb, l, f32, lowIdx));
          return std::make_tuple(lowIdx, highIdx, frac);
        };
        auto [yLow, yHigh, ly] = neighbours(y, h);
        auto [xLow, xHigh, lx] = neighbours(xx, w);
        Value hy = f.sub(f.c(1), ly), hx = f.sub(f.c(1), lx);
        Value zero = constant(0), zeroF = f.c(0);
        auto orZero = [&](Value v, Value z) {
          return arith::SelectOp::create(nb, l, empty, z, v).getResult();
        };
        linalg::YieldOp::create(
            nb, l,
            ValueRange{
                orZero(yLow, zero), orZero(yHigh, zero), orZero(xLow, zero),
                orZero(xHigh, zero), orZero(f.mul(hy, hx), zeroF),
                orZero(f.mul(hy, lx), zeroF), orZero(f.mul(ly, hx), zeroF),
                orZero(f.mul(ly, lx), zeroF)});
      });

  // The output: loops (r, c, ph, pw, iy, ix), the points reduced in
  // row-major order.
  SmallVector<int64_t> outShape = {regions, channels, bins[0], bins[1]};
  AffineMap point =
      AffineMap::get(6, 0, {dim(0), dim(2), dim(3), dim(4), dim(5)}, ctx);
  SmallVector<AffineMap> maps(8, point);
  maps.push_back(AffineMap::get(6, 0, {dim(0)}, ctx));
  maps.push_back(AffineMap::get(6, 0, {dim(0), dim(1), dim(2), dim(3)}, ctx));
  SmallVector<utils::IteratorType> iters(4, utils::IteratorType::parallel);
  iters.append(2, utils::IteratorType::reduction);
  Value init =
      linalg::FillOp::create(
          b, loc,
          ValueRange{arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0))},
          ValueRange{tensor::EmptyOp::create(b, loc, outShape, f32)})
          .getResult(0);
  SmallVector<Value> ins(table.getResults());
  ins.push_back(batch);
  bool isMax = mode == "max";
  Value pooled =
      linalg::GenericOp::create(
          b, loc, TypeRange{init.getType()}, ins, ValueRange{init}, maps, iters,
          [&](OpBuilder &nb, Location l, ValueRange a) {
            F32Builder f{nb, l};
            auto toIndex = [&](Value v) -> Value {
              return arith::IndexCastOp::create(nb, l, nb.getIndexType(), v);
            };
            // batch_indices clamped into [0, N).
            Value which = arith::MinSIOp::create(
                nb, l,
                arith::MaxSIOp::create(
                    nb, l, a[8],
                    arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(0))),
                arith::ConstantOp::create(nb, l, nb.getI64IntegerAttr(n - 1)));
            Value c = linalg::IndexOp::create(nb, l, 1);
            auto pixel = [&](Value row, Value col) -> Value {
              return tensor::ExtractOp::create(
                  nb, l, *image,
                  ValueRange{toIndex(which), c, toIndex(row), toIndex(col)});
            };
            Value terms[4] = {
                f.mul(a[4], pixel(a[0], a[2])), f.mul(a[5], pixel(a[0], a[3])),
                f.mul(a[6], pixel(a[1], a[2])), f.mul(a[7], pixel(a[1], a[3]))};
            Value result;
            if (!isMax) {
              Value sum =
                  f.add(f.add(f.add(terms[0], terms[1]), terms[2]), terms[3]);
              result = f.add(a[9], sum);
            } else {
              // std::max(p, q): q where p < q, else p (a NaN p stays).
              auto larger = [&](Value p, Value q) {
                return f.select(f.cmp(arith::CmpFPredicate::OLT, p, q), q, p);
              };
              Value value = larger(larger(larger(terms[0], terms[1]), terms[2]),
                                   terms[3]);
              Value zero = arith::ConstantIndexOp::create(nb, l, 0);
              Value first = arith::AndIOp::create(
                  nb, l,
                  arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                        linalg::IndexOp::create(nb, l, 4),
                                        zero),
                  arith::CmpIOp::create(nb, l, arith::CmpIPredicate::eq,
                                        linalg::IndexOp::create(nb, l, 5),
                                        zero));
              result = f.select(first, value, larger(a[9], value));
            }
            linalg::YieldOp::create(nb, l, result);
          })
          .getResult(0);
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = outShape;
  out.value =
      isMax ? pooled
            : elementwise(*this, {pooled}, outShape,
                          [&](OpBuilder &nb, Location l, ValueRange a) {
                            return F32Builder{nb, l}.div(
                                a[0], F32Builder{nb, l}.c(double(grid * grid)));
                          });
  setOutput(0, std::move(out));
  return success();
}
