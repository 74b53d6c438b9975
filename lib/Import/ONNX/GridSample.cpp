//===- GridSample.cpp - GridSample (spatial transformers, optical flow) ---===//
//
// GridSample reads X (N x C x H x W) at the positions a run-time grid
// (N x Ho x Wo x 2, normalized x then y in [-1, 1]) names, as ONNX's
// reference computes it (torch's grid_sample): each coordinate is
// denormalized (align_corners: -1 and 1 are the centers of the corner
// pixels, else their outer edges), rounded half to even for `nearest`,
// clamped (`border`) or reflected (`reflection`) into the image when
// outside it, and then interpolated from 1, 2 x 2 or 4 x 4 pixels (nearest,
// (bi)linear, (bi)cubic with Keys' a = -0.75), each row along x first and
// then the rows along y; a pixel outside the image reads 0 (`zeros`), the
// nearest edge pixel (`border`) or its mirror image (`reflection`). One
// linalg.generic over the output, in f32 on dequantized input.
//
// ONNX leaves non-finite coordinates undefined (its reference fails on
// them): a NaN coordinate gives NaN (the interpolation weights are NaN;
// nearest selects it explicitly); an infinite one is clamped to the edge
// by `border`, NaN after `reflection`, and otherwise outside the image:
// NaN weights when interpolating, a zero for nearest. Indices are computed from
// coordinates clamped to a few pixels beyond the image, so no grid value reads
// outside X.
//
//===----------------------------------------------------------------------===//

#include "F32Builder.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
enum class Interpolation { Nearest, Linear, Cubic };
enum class Padding { Zeros, Border, Reflection };

/// ONNX's _gs_reflect: x mirrored at lo and hi until inside [lo, hi].
Value reflect(F32Builder &f, Value x, double lo, double hi) {
  double range = hi - lo;
  if (range <= 0)
    return f.c(lo);
  auto mirrored = [&](Value distance, bool fromLow) {
    // n = trunc(distance / range), r = distance - n * range; an even n
    // leaves r beyond the bound it crossed, an odd one before the other.
    Value n = f.floor(f.div(distance, f.c(range)));
    Value r = f.sub(distance, f.mul(n, f.c(range)));
    Value half = f.mul(n, f.c(0.5));
    Value odd = f.cmp(arith::CmpFPredicate::ONE, f.floor(half), half);
    Value even = fromLow ? f.add(f.c(lo), r) : f.sub(f.c(hi), r);
    Value other = fromLow ? f.sub(f.c(hi), r) : f.add(f.c(lo), r);
    return f.select(odd, other, even);
  };
  Value below = f.cmp(arith::CmpFPredicate::OLT, x, f.c(lo));
  Value above = f.cmp(arith::CmpFPredicate::OGT, x, f.c(hi));
  Value fromLow = mirrored(f.sub(f.c(lo), x), true);
  Value fromHigh = mirrored(f.sub(x, f.c(hi)), false);
  return f.select(below, fromLow, f.select(above, fromHigh, x));
}

/// The interpolation weights of the taps at floor(x) + offset(t).
SmallVector<Value> weights(F32Builder &f, Interpolation mode, Value t) {
  if (mode == Interpolation::Linear)
    return {f.sub(f.c(1), t), t};
  // Keys' cubic convolution, a = -0.75, as ONNX's _gs_get_cubic_coeffs.
  constexpr double a = -0.75;
  auto outer = [&](Value d) { // 1 < d < 2
    Value p = f.sub(f.mul(f.c(a), d), f.c(5 * a));
    p = f.add(f.mul(p, d), f.c(8 * a));
    return f.sub(f.mul(p, d), f.c(4 * a));
  };
  auto inner = [&](Value d) { // 0 <= d <= 1
    Value p = f.sub(f.mul(f.c(a + 2), d), f.c(a + 3));
    return f.add(f.mul(f.mul(p, d), d), f.c(1));
  };
  Value oneMinus = f.sub(f.c(1), t);
  return {outer(f.add(t, f.c(1))), inner(t), inner(oneMinus),
          outer(f.sub(f.c(2), t))};
}
} // namespace

LogicalResult Importer::importGridSample() {
  if (failed(checkAttrs({"align_corners", "mode", "padding_mode"})))
    return failure();
  auto xIn = input(0);
  auto gridIn = failed(xIn) ? xIn : input(1);
  if (failed(gridIn))
    return failure();
  ImportedValue &x = **xIn;
  ImportedValue &grid = **gridIn;
  if (x.shape.size() != 4)
    return fail("GridSample is supported on N x C x H x W input only (got "
                "rank " +
                Twine(x.shape.size()) + ")");
  int64_t n = x.shape[0], c = x.shape[1], h = x.shape[2], w = x.shape[3];
  if (grid.shape.size() != 4 || grid.shape[0] != n || grid.shape[3] != 2)
    return fail("the grid must be N x H_out x W_out x 2 with N = " + Twine(n));
  if (x.holdsIntegers() || grid.holdsIntegers())
    return fail("GridSample of integer tensors");
  // An empty image has no border to clamp to or reflect at.
  if (h <= 0 || w <= 0)
    return fail("the input's height and width must be positive");
  std::string modeName =
      attrString("mode").value_or(opset >= 20 ? "linear" : "bilinear");
  Interpolation mode;
  if (modeName == "nearest")
    mode = Interpolation::Nearest;
  else if (modeName == (opset >= 20 ? "linear" : "bilinear"))
    mode = Interpolation::Linear;
  else if (modeName == (opset >= 20 ? "cubic" : "bicubic"))
    mode = Interpolation::Cubic;
  else
    return fail("unknown mode '" + modeName + "' (opset " + Twine(opset) +
                " defines " +
                (opset >= 20 ? "linear, nearest and cubic"
                             : "bilinear, nearest and bicubic") +
                ")");
  std::string paddingName = attrString("padding_mode").value_or("zeros");
  Padding padding;
  if (paddingName == "zeros")
    padding = Padding::Zeros;
  else if (paddingName == "border")
    padding = Padding::Border;
  else if (paddingName == "reflection")
    padding = Padding::Reflection;
  else
    return fail("unknown padding_mode '" + paddingName +
                "' (ONNX defines zeros, border and reflection)");
  bool alignCorners = attrInt("align_corners").value_or(0) != 0;

  auto xv = floatValue(x, /*nhwc=*/false);
  auto gv = failed(xv) ? xv : floatValue(grid, /*nhwc=*/false);
  if (failed(gv))
    return failure();
  int64_t ho = grid.shape[1], wo = grid.shape[2];
  // The grid's x and y as N x 1 x Ho x Wo, broadcast over the channels.
  auto component = [&](int64_t k) {
    Value part = tensor::ExtractSliceOp::create(
        b, loc, RankedTensorType::get({n, ho, wo}, b.getF32Type()), *gv,
        ArrayRef<OpFoldResult>{b.getIndexAttr(0), b.getIndexAttr(0),
                               b.getIndexAttr(0), b.getIndexAttr(k)},
        ArrayRef<OpFoldResult>{b.getIndexAttr(n), b.getIndexAttr(ho),
                               b.getIndexAttr(wo), b.getIndexAttr(1)},
        ArrayRef<OpFoldResult>(
            SmallVector<OpFoldResult>(4, b.getIndexAttr(1))));
    return reshape(part, {n, 1, ho, wo});
  };
  Value gx = component(0), gy = component(1);
  Value image = *xv;

  auto body = [&](OpBuilder &nb, Location l, ValueRange args) -> Value {
    F32Builder f{nb, l};
    Value batch = linalg::IndexOp::create(nb, l, 0);
    Value channel = linalg::IndexOp::create(nb, l, 1);
    // Denormalized coordinates, rounded for nearest, then clamped or
    // reflected into [lo, hi] (ONNX's borders) when outside.
    auto coordinate = [&](Value g, int64_t size) {
      Value v = alignCorners
                    ? f.mul(f.div(f.add(g, f.c(1)), f.c(2)), f.c(size - 1))
                    : f.div(f.sub(f.mul(f.add(g, f.c(1)), f.c(size)), f.c(1)),
                            f.c(2));
      if (mode == Interpolation::Nearest)
        v = math::RoundEvenOp::create(nb, l, v);
      double lo = alignCorners ? 0.0 : -0.5;
      double hi = alignCorners ? double(size - 1) : size - 0.5;
      if (padding == Padding::Border) {
        // Only outside [lo, hi]: -0.3 (align_corners = 0) stays, and its
        // taps read the border pixel.
        Value outside = arith::OrIOp::create(
            nb, l, f.cmp(arith::CmpFPredicate::OLT, v, f.c(lo)),
            f.cmp(arith::CmpFPredicate::OGT, v, f.c(hi)));
        v = f.select(outside, f.clamp(v, 0, double(size - 1)), v);
      } else if (padding == Padding::Reflection) {
        v = reflect(f, v, lo, hi);
      }
      return v;
    };
    Value cx = coordinate(args[0], w), cy = coordinate(args[1], h);
    // The pixel at integer (float-held) row / column `r`, `col`, with the
    // padding rule; inside-image reads only.
    auto pixelIndex = [&](Value v, int64_t size) {
      // In range: v itself; else by the padding rule (zeros: any index,
      // the read is discarded).
      Value idx = v;
      if (padding == Padding::Border)
        idx = f.clamp(v, 0, double(size - 1));
      else if (padding == Padding::Reflection)
        idx = reflect(f, v, alignCorners ? 0.0 : -0.5,
                      alignCorners ? double(size - 1) : size - 0.5);
      // Never outside the tensor, whatever the float says (NaN -> 0).
      Value safe = f.clamp(idx, 0, double(size - 1));
      safe =
          f.select(f.cmp(arith::CmpFPredicate::UNO, safe, safe), f.c(0), safe);
      Value i = arith::FPToSIOp::create(nb, l, nb.getI64Type(), safe);
      return arith::IndexCastOp::create(nb, l, nb.getIndexType(), i)
          .getResult();
    };
    auto inside = [&](Value v, int64_t size) {
      return arith::AndIOp::create(
          nb, l, f.cmp(arith::CmpFPredicate::OGE, v, f.c(0)),
          f.cmp(arith::CmpFPredicate::OLE, v, f.c(size - 1)));
    };
    auto pixel = [&](Value r, Value col) {
      Value value = tensor::ExtractOp::create(
          nb, l, image,
          ValueRange{batch, channel, pixelIndex(r, h), pixelIndex(col, w)});
      if (padding != Padding::Zeros)
        return value;
      Value in = arith::AndIOp::create(nb, l, inside(r, h), inside(col, w));
      return f.select(in, value, f.c(0));
    };
    if (mode == Interpolation::Nearest) {
      Value nan = f.cmp(arith::CmpFPredicate::UNO, cx, cy);
      return f.select(nan, f.c(std::nan("")), pixel(cy, cx));
    }
    // Taps floor(x) + offsets; coordinates kept within a few pixels of the
    // image so that the tap arithmetic stays exact in f32.
    int64_t first = mode == Interpolation::Cubic ? -1 : 0;
    int64_t taps = mode == Interpolation::Cubic ? 4 : 2;
    auto base = [&](Value v, int64_t size) {
      return f.clamp(f.floor(v), -8.0, double(size + 8));
    };
    Value bx = base(cx, w), by = base(cy, h);
    SmallVector<Value> wx = weights(f, mode, f.sub(cx, f.floor(cx)));
    SmallVector<Value> wy = weights(f, mode, f.sub(cy, f.floor(cy)));
    Value total;
    for (int64_t ty = 0; ty < taps; ++ty) {
      Value r = f.add(by, f.c(first + ty));
      Value row;
      for (int64_t tx = 0; tx < taps; ++tx) {
        Value term = f.mul(wx[tx], pixel(r, f.add(bx, f.c(first + tx))));
        row = row ? f.add(row, term) : term;
      }
      Value term = f.mul(wy[ty], row);
      total = total ? f.add(total, term) : term;
    }
    return total;
  };
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = {n, c, ho, wo};
  out.value = elementwise(*this, {gx, gy}, out.shape, body);
  setOutput(0, std::move(out));
  return success();
}
