//===- MatMulNBits.cpp - ONNX Runtime's block-quantized MatMul ------------===//
//
// com.microsoft MatMulNBits (the weight-only 2-, 4- and 8-bit LLM layers of
// ONNX Runtime's model builder and its MatMulNBitsQuantizer): Y = A x B (+
// bias) with B (K x N) stored transposed in blocks of `block_size` along K,
// each block of column n with its own scale and zero point:
//
//   B[k, n] = (q[n, k] - zero_point[n, k / block_size]) * scale[n, k /
//   block_size]
//
// The codes are packed low bits first, `8 / bits` to a byte, each column's
// blocks `block_size * bits / 8` bytes apart (the last block padded); the
// zero points packed the same way along the blocks of a column (default
// 2^(bits - 1)) or given as floats. The weights are compile-time data, so
// the importer dequantizes them once, in f32 as the definition says (the
// code minus the zero point is exact, times the scale rounded once), and
// imports a float MatMul of the constant, plus the bias. That is the
// operator's definition; ONNX Runtime's CPU kernel with accuracy_level 4
// instead quantizes A to int8 per block, a different rounding.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include <functional>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
using onnx::AttributeProto;

/// At most this many dequantized weights (K x N): the importer holds them
/// as compile-time data.
constexpr int64_t kMaxWeights = int64_t(1) << 26;

/// Code `idx` (of `bits` bits, low bits first) of the bytes from `at`.
int64_t unpack(ArrayRef<int64_t> bytes, int64_t at, int64_t idx, int64_t bits) {
  int64_t perByte = 8 / bits;
  int64_t byte = bytes[at + idx / perByte];
  return (byte >> ((idx % perByte) * bits)) & ((int64_t(1) << bits) - 1);
}
} // namespace

LogicalResult quantopt::onnx_import::detail::expandMatMulNBits(Importer &im,
                                                               Expansion &e) {
  const onnx::NodeProto &n = e.n;
  if (failed(im.checkAttrTypes({{"K", AttributeProto::INT},
                                {"N", AttributeProto::INT},
                                {"bits", AttributeProto::INT},
                                {"block_size", AttributeProto::INT},
                                {"accuracy_level", AttributeProto::INT}})))
    return failure();
  if (n.input_size() > 6 || n.output_size() != 1)
    return im.fail("MatMulNBits takes at most 6 inputs (A, B, scales, "
                   "zero_points, g_idx, bias) and 1 output");
  if (e.has(4))
    return im.fail("input 4 (g_idx, act-order) is not supported");
  auto attrK = im.attrInt("K"), attrN = im.attrInt("N");
  auto blockSize = im.attrInt("block_size");
  if (!attrK || !attrN || !blockSize)
    return im.fail("the required attributes K, N and block_size must be set");
  int64_t bits = im.attrInt("bits").value_or(4);
  if (bits != 2 && bits != 4 && bits != 8)
    return im.fail("bits = " + Twine(bits) + " is not supported (2, 4 or 8)");
  int64_t kDim = *attrK, nDim = *attrN, block = *blockSize;
  if (block < 16 || (block & (block - 1)) != 0 || block > (int64_t(1) << 16))
    return im.fail("block_size = " + Twine(block) +
                   " must be a power of 2 from 16 to 2^16");
  if (kDim <= 0 || nDim <= 0 || kDim > kMaxWeights / nDim)
    return im.fail("K and N must be positive with at most 2^26 weights "
                   "(they are dequantized at import)");
  int64_t blocks = (kDim + block - 1) / block;
  int64_t blob = block * bits / 8;

  auto a = im.floatInput(0, "A");
  if (failed(a))
    return failure();
  ArrayRef<int64_t> as = (*a)->shape;
  if (as.empty() || as.back() != kDim)
    return im.fail("A's last dimension must be K = " + Twine(kDim));
  auto codesIn = im.input(1), scalesIn = im.input(2);
  if (failed(codesIn) || failed(scalesIn))
    return failure();
  ImportedValue &codes = **codesIn, &scales = **scalesIn;
  if (codes.kind != Kind::Const || codes.dtype != onnx::TensorProto::UINT8)
    return im.fail("B must be a compile-time uint8 tensor");
  if (codes.shape != ArrayRef<int64_t>{nDim, blocks, blob})
    return im.fail("B must be N x ceil(K / block_size) x block_size * bits / "
                   "8 = " +
                   Twine(nDim) + "x" + Twine(blocks) + "x" + Twine(blob));
  // Per-block data (scales, float zero points): N * blocks values, or N x
  // blocks; packed zero points N * bytes or N x bytes.
  auto perColumn = [&](const ImportedValue &v, int64_t count) {
    return v.shape == ArrayRef<int64_t>{nDim * count} ||
           v.shape == ArrayRef<int64_t>{nDim, count};
  };
  if (scales.kind != Kind::Const || scales.dtype != onnx::TensorProto::FLOAT)
    return im.fail("scales must be compile-time float (f32) data");
  if (!perColumn(scales, blocks))
    return im.fail("scales must be N * blocks or N x blocks with N = " +
                   Twine(nDim) + ", blocks = " + Twine(blocks));

  // The zero point of block j of column n.
  int64_t zpBytes = (blocks * bits + 7) / 8;
  std::function<double(int64_t, int64_t)> zeroPoint = [bits](int64_t, int64_t) {
    return double(int64_t(1) << (bits - 1));
  };
  if (e.has(3)) {
    auto zpIn = im.input(3);
    if (failed(zpIn))
      return failure();
    ImportedValue &zp = **zpIn;
    if (zp.kind != Kind::Const || (zp.dtype != onnx::TensorProto::UINT8 &&
                                   zp.dtype != onnx::TensorProto::FLOAT))
      return im.fail("zero_points must be compile-time uint8 (packed) or "
                     "float (f32) data");
    if (zp.dtype == onnx::TensorProto::UINT8) {
      if (!perColumn(zp, zpBytes))
        return im.fail("packed uint8 zero_points must be N * bytes or N x "
                       "bytes with N = " +
                       Twine(nDim) +
                       ", bytes = ceil(blocks * bits / 8) = " + Twine(zpBytes));
      zeroPoint = [&zp, zpBytes, bits](int64_t col, int64_t j) {
        return double(unpack(zp.i, col * zpBytes, j, bits));
      };
    } else {
      if (!perColumn(zp, blocks))
        return im.fail("float zero_points must be N * blocks or N x blocks "
                       "with N = " +
                       Twine(nDim) + ", blocks = " + Twine(blocks));
      zeroPoint = [&zp, blocks](int64_t col, int64_t j) {
        return zp.f[col * blocks + j];
      };
    }
  }
  if (e.has(5)) {
    auto bias = im.floatInput(5, "bias");
    if (failed(bias))
      return failure();
    if ((*bias)->shape != ArrayRef<int64_t>{nDim})
      return im.fail("bias must be of shape N = " + Twine(nDim));
  }

  // B as K x N f32: (code - zero point) exact, times the scale rounded once.
  ImportedValue w;
  w.kind = Kind::Const;
  w.dtype = onnx::TensorProto::FLOAT;
  w.shape = {kDim, nDim};
  w.f.resize(kDim * nDim);
  for (int64_t col = 0; col < nDim; ++col)
    for (int64_t j = 0; j < blocks; ++j) {
      float scale = float(scales.f[col * blocks + j]);
      float zero = float(zeroPoint(col, j));
      for (int64_t i = 0; i < block && j * block + i < kDim; ++i) {
        float q = float(unpack(codes.i, (col * blocks + j) * blob, i, bits));
        w.f[(j * block + i) * nDim + col] = double((q - zero) * scale);
      }
    }
  // A 1-D A is one row.
  bool vector = as.size() == 1;
  std::string x = vector ? e.reshape(n.input(0), {1, kDim}) : n.input(0);
  bool last = !vector && !e.has(5);
  std::string y = e.op("MatMul", {x, e.bind("weights", std::move(w))},
                       last ? n.output(0) : std::string());
  if (e.has(5))
    y = e.op("Add", {y, n.input(5)}, vector ? std::string() : n.output(0));
  if (vector)
    e.op("Reshape", {y, e.constInts("shape", {nDim})}, n.output(0));
  return success();
}
