//===- WindowOps.cpp - signal windows and the mel weight matrix -----------===//
//
// The tables of ONNX's signal ops (opset 17), folded at import from
// compile-time scalars: the window functions and MelWeightMatrix (below).
//
// Each element of a window follows the op's
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
  if (size.kind != Kind::Const || size.numElements() != 1 || size.i.empty() ||
      (size.dtype != onnx::TensorProto::INT32 &&
       size.dtype != onnx::TensorProto::INT64))
    return fail("the size must be a compile-time integer scalar (the window "
                "folds at import)");
  int64_t periodic = attrInt("periodic").value_or(1);
  if (periodic != 0 && periodic != 1)
    return fail("periodic must be 0 or 1");
  int64_t dtype = attrInt("output_datatype").value_or(onnx::TensorProto::FLOAT);
  if (dtype != onnx::TensorProto::FLOAT)
    return fail("only output_datatype = 1 (float) is supported");
  int64_t n = size.i[0];
  if (n < 0)
    return fail("the size must not be negative");
  if (n > kMaxFoldedElements)
    return fail("a window of more than " + Twine(kMaxFoldedElements) +
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

// MelWeightMatrix: num_mel_bins triangles over the dft_length / 2 + 1 bins
// of a onesided spectrum, their corners at num_mel_bins + 2 points equally
// spaced on the mel scale (mel(f) = 2595 log10(1 + f / 700)) from
// lower_edge_hertz to upper_edge_hertz, each turned into a bin index
// floor((dft_length + 1) * hz / sample_rate). As ONNX's reference and ONNX
// Runtime compute it, in double: the mel step is the span over
// num_mel_bins + 2 (not + 1), a triangle rises over [left, center] as (j -
// left) / (center - left) (1 at the center when left = center) and falls
// over [center, right) as (right - j) / (right - center).
LogicalResult Importer::importMelWeightMatrix() {
  if (failed(checkAttrs({"output_datatype"})))
    return failure();
  if (attrInt("output_datatype").value_or(onnx::TensorProto::FLOAT) !=
      onnx::TensorProto::FLOAT)
    return fail("only output_datatype = 1 (float) is supported");
  const char *names[] = {"num_mel_bins", "dft_length", "sample_rate",
                         "lower_edge_hertz", "upper_edge_hertz"};
  double in[5];
  for (int k = 0; k < 5; ++k) {
    auto v = scalarInput(k, names[k]);
    if (failed(v))
      return failure();
    // T1 (the counts and the rate) is int32 / int64, T2 (the edges) float.
    int32_t dtype = (*v)->dtype;
    bool integer =
        dtype == onnx::TensorProto::INT32 || dtype == onnx::TensorProto::INT64;
    if (integer != (k < 3))
      return fail(Twine(names[k]) + " must be " +
                  (k < 3 ? "an int32 or int64" : "a float") + " scalar");
    in[k] = (*v)->i.empty() ? (*v)->f[0] : double((*v)->i[0]);
  }
  double mels = in[0], dft = in[1], rate = in[2], lo = in[3], hi = in[4];
  constexpr double kMaxElements = double(int64_t(1) << 22);
  if (!(mels >= 1 && dft >= 1 && rate >= 1) ||
      (dft / 2 + 1) * mels > kMaxElements)
    return fail("num_mel_bins, dft_length and sample_rate must be positive, "
                "with at most 2^22 elements in the matrix");
  if (!(lo >= 0 && lo < hi && std::isfinite(hi)))
    return fail("needs 0 <= lower_edge_hertz < upper_edge_hertz (finite)");
  int64_t numMels = int64_t(mels), length = int64_t(dft);
  int64_t bins = length / 2 + 1;
  auto toMel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  double low = toMel(lo), step = (toMel(hi) - low) / double(numMels + 2);
  std::vector<int64_t> corner(numMels + 2);
  for (int64_t k = 0; k < numMels + 2; ++k) {
    double hz =
        700.0 * (std::pow(10.0, (low + step * double(k)) / 2595.0) - 1.0);
    double at = std::floor(double(length + 1) * hz / rate);
    // The last triangle's right corner is exclusive.
    if (!(at >= 0 && at <= double(k == numMels + 1 ? bins : bins - 1)))
      return fail(
          "upper_edge_hertz " + str(hi) + " lies beyond the " + Twine(bins) +
          " bins of the spectrum (sample_rate / 2 = " + str(rate / 2) + ")");
    corner[k] = int64_t(at);
  }
  ImportedValue out;
  out.kind = Kind::Const;
  out.dtype = onnx::TensorProto::FLOAT;
  out.shape = {bins, numMels};
  out.f.assign(bins * numMels, 0.0);
  for (int64_t i = 0; i < numMels; ++i) {
    int64_t left = corner[i], center = corner[i + 1], right = corner[i + 2];
    auto at = [&](int64_t j) -> double & { return out.f[j * numMels + i]; };
    if (center == left)
      at(center) = 1.0;
    else
      for (int64_t j = left; j <= center; ++j)
        at(j) = float(double(j - left) / double(center - left));
    for (int64_t j = center; j < right; ++j)
      at(j) = float(double(right - j) / double(right - center));
  }
  setOutput(0, std::move(out));
  return success();
}
