//===- SignalOps.cpp - DFT and STFT ---------------------------------------===//
//
// ONNX's discrete Fourier transforms, as the standard nodes that compute
// them (Expansion.h): the signal axis moved last and flattened with its
// real / imaginary pair into rows of N * C values (C = 1 for a real signal,
// 2 for a complex one), one f32 MatMul with a compile-time matrix whose
// columns are the (re, im) pairs of each output frequency, and the result
// moved back to the signal axis:
//
//   forward  X[k] =       sum_n x[n] * exp(-2 pi i k n / N)
//   inverse  x[k] = 1/N * sum_n X[n] * exp(+2 pi i k n / N)
//
// The matrix's cosines and sines are computed in double from the exact
// angle index (k * n mod N) and rounded to f32 once. A dft_length longer
// than the signal zero-pads it (the padding's rows of the matrix are left
// out), a shorter one uses its first dft_length samples. onesided keeps
// frequencies 0 .. N/2. STFT gathers its frames (a compile-time index
// table), multiplies them by the window and takes the DFT of each frame.
//
// This is O(N^2) per transform, exact in the sense of one f32 dot product
// per output; ONNX Runtime's radix-2 FFT rounds differently (both are
// within a few f32 ulps of the exact transform times the signal's scale).
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "llvm/Support/MathExtras.h"

#include <cmath>
#include <numeric>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
/// At most this many elements in a transform's matrix (N * C rows, 2 * K
/// columns): 32 MB of f32 constants.
constexpr int64_t kMaxMatrixElements = int64_t(1) << 23;
/// The longest transform.
constexpr int64_t kMaxLength = int64_t(1) << 16;

/// A compile-time int32 / int64 scalar input `idx`, or a diagnostic naming
/// it.
FailureOr<int64_t> intScalarInput(Importer &im, int idx, StringRef what) {
  auto v = im.scalarInput(idx, what);
  if (failed(v))
    return failure();
  if ((*v)->dtype != onnx::TensorProto::INT32 &&
      (*v)->dtype != onnx::TensorProto::INT64)
    return im.fail(what + " (input " + Twine(idx) +
                   ") must be an int32 or int64 scalar");
  return (*v)->i[0];
}

/// The DFT of `x` (of `shape`, last dimension 1 or 2) along `axis` (in [0,
/// rank - 2]) with `length` points into `out`.
LogicalResult addDft(Importer &im, Expansion &e, std::string x,
                     ArrayRef<int64_t> shape, int64_t axis, int64_t length,
                     bool onesided, bool inverse, const std::string &out) {
  int64_t rank = shape.size();
  int64_t channels = shape.back();
  if (channels != 1 && channels != 2)
    return im.fail("the last dimension must be 1 (real) or 2 (complex), got " +
                   Twine(channels));
  if (length <= 0 || length > kMaxLength)
    return im.fail("dft_length " + Twine(length) + " is not in [1, " +
                   Twine(kMaxLength) + "]");
  if (onesided && channels == 2)
    return im.fail("onesided = 1 needs a real signal (the last dimension 1)");
  if (onesided && inverse)
    return im.fail("onesided = 1 with inverse = 1 is not supported");
  int64_t used = std::min(shape[axis], length);
  int64_t bins = onesided ? length / 2 + 1 : length;
  double resultBytes = 8.0 * double(bins);
  for (int64_t d = 0; d < rank - 1; ++d)
    resultBytes *= d == axis ? 1.0 : double(shape[d]);
  if (resultBytes > double(int64_t(1) << 60))
    return im.fail("the result would hold more than 2^60 bytes");
  int64_t rows = used * channels, cols = 2 * bins;
  if (double(rows) * double(cols) > double(kMaxMatrixElements))
    return im.fail("a transform of " + Twine(used) + " x " + Twine(bins) +
                   " points needs more than 2^23 matrix elements");
  if (used < shape[axis])
    x = e.slice(x, axis, 0, used);

  // The signal axis, then the pair, last; the other axes flattened.
  std::vector<int64_t> perm, others;
  for (int64_t d = 0; d < rank - 1; ++d)
    if (d != axis) {
      perm.push_back(d);
      others.push_back(shape[d]);
    }
  perm.push_back(axis);
  perm.push_back(rank - 1);
  bool moved = !std::is_sorted(perm.begin(), perm.end());
  if (moved)
    x = e.transpose(x, perm);
  int64_t batch = std::accumulate(others.begin(), others.end(), int64_t(1),
                                  std::multiplies<int64_t>());
  x = e.reshape(x, {batch, rows});

  // Row (n, c) of the signal, column (k, part) of the result.
  ImportedValue matrix;
  matrix.kind = Kind::Const;
  matrix.shape = {rows, cols};
  matrix.f.resize(rows * cols);
  double norm = inverse ? 1.0 / double(length) : 1.0;
  double sign = inverse ? 1.0 : -1.0; // of the exponent
  for (int64_t n = 0; n < used; ++n)
    for (int64_t k = 0; k < bins; ++k) {
      double angle =
          2.0 * llvm::numbers::pi * double((n * k) % length) / double(length);
      double c = std::cos(angle) * norm, s = sign * std::sin(angle) * norm;
      // (re + i im) * (c + i s): re' = re c - im s, im' = re s + im c.
      auto at = [&](int64_t ch, int64_t part) -> double & {
        return matrix.f[(n * channels + ch) * cols + 2 * k + part];
      };
      at(0, 0) = float(c);
      at(0, 1) = float(s);
      if (channels == 2) {
        at(1, 0) = float(-s);
        at(1, 1) = float(c);
      }
    }
  std::string product = e.op("MatMul", {x, e.bind("dft", std::move(matrix))});
  std::vector<int64_t> result = others;
  result.push_back(bins);
  result.push_back(2);
  if (!moved) {
    e.op("Reshape", {product, e.constInts("shape", result)}, out);
    return success();
  }
  std::vector<int64_t> back(rank);
  for (int64_t i = 0; i < rank; ++i)
    back[perm[i]] = i;
  std::string unflat = e.reshape(product, result);
  Expansion::setInts(e.add("Transpose", {unflat}, out), "perm", back);
  return success();
}
} // namespace

LogicalResult Importer::importDFT() {
  bool axisInput = opset >= 20;
  if (failed(axisInput ? checkAttrs({"inverse", "onesided"})
                       : checkAttrs({"axis", "inverse", "onesided"})))
    return failure();
  auto x = floatInput(0, "signal");
  if (failed(x))
    return failure();
  if (node->input_size() > (axisInput ? 3 : 2))
    return fail("DFT takes at most " + Twine(axisInput ? 3 : 2) +
                " inputs at opset " + Twine(opset));
  std::vector<int64_t> shape((*x)->shape.begin(), (*x)->shape.end());
  int64_t rank = shape.size();
  if (rank < 2)
    return fail("the input must have rank 2 or more (signal dimensions, "
                "then 1 or 2)");
  int64_t axis = axisInput ? -2 : 1;
  Expansion e(*this, *node);
  if (axisInput && e.has(2)) {
    auto a = intScalarInput(*this, 2, "axis");
    if (failed(a))
      return failure();
    axis = *a;
  } else if (!axisInput) {
    axis = attrInt("axis").value_or(1);
  }
  // ONNX accepts [-r, -2] and [0, r - 2]: never the real / imaginary pair.
  if (axis < -rank || axis > rank - 2 || axis == -1)
    return fail("axis " + Twine(axis) + " is not in [-" + Twine(rank) +
                ", -2] or [0, " + Twine(rank - 2) + "]");
  if (axis < 0)
    axis += rank;
  int64_t length = shape[axis];
  if (e.has(1)) {
    auto l = intScalarInput(*this, 1, "dft_length");
    if (failed(l))
      return failure();
    length = *l;
  }
  for (StringRef flag : {"inverse", "onesided"})
    if (int64_t v = attrInt(flag).value_or(0); v != 0 && v != 1)
      return fail(flag + " must be 0 or 1");
  if (failed(addDft(*this, e, node->input(0), shape, axis, length,
                    attrInt("onesided").value_or(0) != 0,
                    attrInt("inverse").value_or(0) != 0, node->output(0))))
    return failure();
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importSTFT() {
  if (failed(checkAttrs({"onesided"})))
    return failure();
  auto x = floatInput(0, "signal");
  if (failed(x))
    return failure();
  if (node->input_size() > 4)
    return fail("STFT takes at most 4 inputs");
  std::vector<int64_t> shape((*x)->shape.begin(), (*x)->shape.end());
  if (shape.size() != 3)
    return fail("the signal must be batch x length x (1 or 2)");
  Expansion e(*this, *node);
  auto step = intScalarInput(*this, 1, "frame_step");
  if (failed(step))
    return failure();
  std::optional<int64_t> frameLength;
  if (e.has(3)) {
    auto l = intScalarInput(*this, 3, "frame_length");
    if (failed(l))
      return failure();
    frameLength = *l;
  }
  if (e.has(2)) {
    auto w = input(2);
    if (failed(w))
      return failure();
    if ((*w)->shape.size() != 1)
      return fail("the window must be 1-D");
    if (frameLength && *frameLength != (*w)->shape[0])
      return fail("the window's " + Twine((*w)->shape[0]) +
                  " values differ from frame_length = " + Twine(*frameLength));
    frameLength = (*w)->shape[0];
  }
  if (!frameLength)
    return fail("needs a window or frame_length (input 2 or 3)");
  int64_t signal = shape[1];
  if (*step <= 0)
    return fail("frame_step must be positive, got " + Twine(*step));
  if (*frameLength <= 0 || *frameLength > signal)
    return fail("frame_length " + Twine(*frameLength) + " is not in [1, " +
                Twine(signal) + "] (the signal's length)");
  int64_t frames = (signal - *frameLength) / *step + 1;
  if (double(frames) * double(*frameLength) > double(int64_t(1) << 24))
    return fail(Twine(frames) + " frames of " + Twine(*frameLength) +
                " samples is more than 2^24 gathered positions");
  if (4.0 * double(shape[0]) * double(frames) * double(*frameLength) *
          double(shape[2]) >
      double(int64_t(1) << 60))
    return fail("the frames would hold more than 2^60 bytes");
  int64_t onesided = attrInt("onesided").value_or(1);
  if (onesided != 0 && onesided != 1)
    return fail("onesided must be 0 or 1");
  // Frame f is samples f * step .. f * step + frame_length - 1.
  std::vector<int64_t> positions;
  positions.reserve(frames * *frameLength);
  for (int64_t f = 0; f < frames; ++f)
    for (int64_t j = 0; j < *frameLength; ++j)
      positions.push_back(f * *step + j);
  ImportedValue table = int64Constant({frames, *frameLength}, positions);
  std::string framed =
      e.op("Gather", {node->input(0), e.bind("frames", std::move(table))});
  Expansion::setInt(e.nodes.back(), "axis", 1);
  if (e.has(2))
    framed = e.op(
        "Mul", {framed, e.reshape(node->input(2), {*frameLength, int64_t(1)})});
  std::vector<int64_t> framedShape = {shape[0], frames, *frameLength, shape[2]};
  if (failed(addDft(*this, e, framed, framedShape, /*axis=*/2, *frameLength,
                    onesided != 0, /*inverse=*/false, node->output(0))))
    return failure();
  return importExpansion(*node, e.nodes);
}
