//===- MaxUnpool.cpp - MaxPool's inverse (SegNet's decoder) ---------------===//
//
// MaxUnpool: Y of zeros, then each element of X written at its flat index
// in Y (MaxPool's Indices), in order, the later of equal indices winning,
// as ONNX Runtime's kernel does (`Y[I[i]] = X[i]`). Y's shape is the
// output_shape input, or per spatial dimension (in - 1) * stride - (pad
// begin + pad end) + kernel. In f32 (dequantized codes: the zeros are real
// zeros, as the float op writes them). Compile-time indices outside Y are
// diagnosed, as ONNX Runtime fails on them; a run-time one outside writes
// nothing, a negative one counts from the end (ScatterND's rule, which
// this shares).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importMaxUnpool() {
  if (failed(checkAttrs({"kernel_shape", "pads", "strides"})))
    return failure();
  auto x = input(0);
  auto indices = failed(x) ? x : input(1);
  if (failed(indices))
    return failure();
  // Codes are unpooled as their reals (the zeros are real zeros).
  if ((*x)->holdsIntegers())
    return fail("X must be a float tensor (or dequantized codes)");
  ArrayRef<int64_t> xs = (*x)->shape;
  int64_t rank = xs.size(), spatial = rank - 2;
  if (rank < 3)
    return fail("X must be N x C x D1 x ... (rank 3 or more)");
  if ((*indices)->dtype != onnx::TensorProto::INT64 ||
      (*indices)->shape != xs || (*indices)->isQuantized())
    return fail("I must be int64 of X's shape");
  auto kernel = attrInts("kernel_shape");
  if (!kernel || int64_t(kernel->size()) != spatial)
    return fail("kernel_shape needs " + Twine(spatial) + " values");
  auto strides = attrInts("strides").value_or(std::vector<int64_t>(spatial, 1));
  auto pads = attrInts("pads").value_or(std::vector<int64_t>(2 * spatial, 0));
  if (int64_t(strides.size()) != spatial || int64_t(pads.size()) != 2 * spatial)
    return fail("strides / pads have the wrong length");
  // ONNX Runtime's rules, with or without output_shape.
  for (int64_t d = 0; d < spatial; ++d)
    if ((*kernel)[d] <= 0 || strides[d] <= 0 || pads[d] < 0 ||
        pads[d + spatial] < 0 || pads[d] >= (*kernel)[d] ||
        pads[d + spatial] >= (*kernel)[d])
      return fail("kernel and strides must be positive, pads in [0, kernel)");

  // The inverse of the pool's shape, and the output_shape input (at least
  // as large in every dimension, as ONNX Runtime requires).
  SmallVector<int64_t> shape(xs.take_front(2));
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t extent;
    if (llvm::MulOverflow(xs[2 + d] - 1, strides[d], extent) ||
        llvm::AddOverflow(extent, (*kernel)[d], extent))
      return fail("the output's size overflows int64");
    shape.push_back(extent - pads[d] - pads[d + spatial]);
  }
  if (hasInput(2)) {
    auto given = input(2);
    if (failed(given))
      return failure();
    if ((*given)->kind != Kind::Const ||
        (*given)->dtype != onnx::TensorProto::INT64 ||
        (*given)->shape.size() != 1 || (*given)->numElements() != rank)
      return fail("output_shape must be a compile-time 1-D int64 tensor of " +
                  Twine(rank) + " values");
    ArrayRef<int64_t> g = (*given)->i;
    if (g[0] != xs[0] || g[1] != xs[1])
      return fail("output_shape must keep X's N and C");
    for (int64_t d = 2; d < rank; ++d)
      if (g[d] < shape[d])
        return fail("output_shape is smaller than the unpooled shape in "
                    "dimension " +
                    Twine(d) + " (" + Twine(g[d]) + " < " + Twine(shape[d]) +
                    ")");
    shape.assign(g.begin(), g.end());
  }
  int64_t total = 1;
  for (int64_t d : shape)
    if (d <= 0 || llvm::MulOverflow(total, d, total))
      return fail("the output must have positive dimensions and fewer than "
                  "2^63 elements");
  // Compile-time indices are checked (ONNX Runtime fails on one outside
  // the output).
  if ((*indices)->kind == Kind::Const)
    for (int64_t at : (*indices)->i)
      if (at < 0 || at >= total)
        return fail("index " + Twine(at) + " is outside the output's " +
                    Twine(total) + " elements");
  int64_t count = (*x)->numElements();

  auto values = floatValue(**x, /*nhwc=*/false);
  if (failed(values))
    return failure();
  Type f32 = b.getF32Type();
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0));
  Value zeros = linalg::FillOp::create(
                    b, loc, ValueRange{zero},
                    ValueRange{tensor::EmptyOp::create(b, loc, {total}, f32)})
                    .getResult(0);
  Value tuples =
      reshape(logicalIntegers(*this, **indices, b.getI64Type()), {count, 1});
  Value scattered = scatterInOrder(*this, zeros, {total}, tuples,
                                   reshape(*values, {count}), count, 1);
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = shape;
  out.value = reshape(scattered, shape);
  setOutput(0, std::move(out));
  return success();
}
