//===- WindowOps.cpp - HannWindow, HammingWindow, BlackmanWindow ----------===//
//
// The window functions of ONNX's signal ops (opset 17), folded at import:
// the size must be a compile-time scalar. Each element follows the op's
// function body in ONNX's defs, in f32 as it computes:
//
//   N     = size if periodic else size - 1
//   x[n]  = n * (tau / N)
//   w[n]  = a0 - a1 * cos(x[n]) + a2 * cos(2 * x[n])
//
// with (a0, a1, a2) = (0.5, 0.5, 0) for Hann, (25/46, 21/46, 0) for
// Hamming and (0.42, 0.5, 0.08) for Blackman. A symmetric window of size 1
// divides 0 by 0 and is NaN, as that body computes.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include <cmath>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importWindow() {
  if (failed(checkAttrs({"output_datatype", "periodic"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  const ImportedValue &size = **in;
  if (size.kind != Kind::Const || size.numElements() != 1 || size.i.empty())
    return fail("the size must be a compile-time integer scalar (the window "
                "folds at import)");
  int64_t periodic = attrInt("periodic").value_or(1);
  if (periodic != 0 && periodic != 1)
    return fail("periodic must be 0 or 1");
  int64_t dtype = attrInt("output_datatype").value_or(onnx::TensorProto::FLOAT);
  if (dtype != onnx::TensorProto::FLOAT)
    return fail("only output_datatype = 1 (float) is supported");
  constexpr int64_t kMaxElements = 1 << 16;
  int64_t n = size.i[0];
  if (n < 0)
    return fail("the size must not be negative");
  if (n > kMaxElements)
    return fail("a window of more than " + Twine(kMaxElements) +
                " elements (the window folds at import)");
  StringRef op = node->op_type();
  float a0 = 0.5f, a1 = 0.5f, a2 = 0.0f;
  if (op == "HammingWindow") {
    a0 = 25.0f / 46.0f;
    a1 = 1.0f - a0;
  } else if (op == "BlackmanWindow") {
    a0 = 0.42f;
    a2 = 0.08f;
  }
  const float tau = 6.2831853071795864f;
  float span = float(n) - float(1 - periodic);
  float increment = tau / span;
  ImportedValue out;
  out.kind = Kind::Const;
  out.dtype = onnx::TensorProto::FLOAT;
  out.shape = {n};
  for (int64_t k = 0; k < n; ++k) {
    // One f32 operation per statement, as the function body's nodes: no
    // contraction into a fused multiply-add.
    float angle = float(k) * increment;
    float first = a1 * std::cos(angle);
    float second = a2 * std::cos(angle * 2.0f);
    float value = a0 - first;
    out.f.push_back(value + second);
  }
  setOutput(0, std::move(out));
  return success();
}
