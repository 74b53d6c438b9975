//===- MaxUnpool.cpp - MaxPool's inverse (SegNet's decoder) ---------------===//
//
// MaxUnpool: Y of zeros, then each element of X written at its flat index
// in Y (MaxPool's Indices), in order, the later of equal indices winning,
// as ONNX Runtime's kernel does (`Y[I[i]] = X[i]`). Y's shape is the
// output_shape input, or per spatial dimension (in - 1) * stride - (pad
// begin + pad end) + kernel. In f32 (dequantized codes: the zeros are real
// zeros, as the float op writes them). An index outside Y writes nothing
// (ONNX Runtime writes outside its buffer); a negative one counts from the
// end (ScatterND's rule, which this shares).
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
  auto x = floatInput(0, "X");
  auto indices = failed(x) ? x : input(1);
  if (failed(indices))
    return failure();
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

  // The output shape: the output_shape input, or the inverse of the pool.
  SmallVector<int64_t> shape(xs.take_front(2));
  if (hasInput(2)) {
    auto given = constInts(2);
    if (failed(given))
      return failure();
    if (int64_t(given->size()) != rank || (*given)[0] != xs[0] ||
        (*given)[1] != xs[1])
      return fail("output_shape must be N x C x ... with X's N and C");
    shape.assign(given->begin(), given->end());
  } else {
    for (int64_t d = 0; d < spatial; ++d) {
      int64_t k = (*kernel)[d], s = strides[d];
      if (k <= 0 || s <= 0 || pads[d] < 0 || pads[d + spatial] < 0)
        return fail("kernel and strides must be positive, pads not negative");
      int64_t extent;
      if (llvm::MulOverflow(xs[2 + d] - 1, s, extent) ||
          llvm::AddOverflow(extent, k, extent))
        return fail("the output's size overflows int64");
      extent -= pads[d] + pads[d + spatial];
      shape.push_back(extent);
    }
  }
  int64_t total = 1;
  for (int64_t d : shape)
    if (d <= 0 || llvm::MulOverflow(total, d, total))
      return fail("the output must have positive dimensions and fewer than "
                  "2^63 elements");
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
