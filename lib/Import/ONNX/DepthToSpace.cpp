//===- DepthToSpace.cpp - DepthToSpace and SpaceToDepth -------------------===//
//
// Both ops only move elements, and ONNX defines each as a Reshape to rank
// 6, a Transpose and a Reshape back to rank 4. The importer builds exactly
// those nodes (Expansion.h) and imports them: codes stay codes on their
// grid, a float value stays float, compile-time data folds, and a per-axis
// value gets the Reshape's diagnostic. torch writes PixelShuffle (super
// resolution, ESPCN) as DepthToSpace in CRD mode.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importDepthToSpace(bool toSpace) {
  if (failed(checkAttrs(toSpace ? ArrayRef<StringRef>{"blocksize", "mode"}
                                : ArrayRef<StringRef>{"blocksize"})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  const onnx::NodeProto &n = *node;
  if ((*in)->shape.size() != 4)
    return fail("the input must have rank 4 (N x C x H x W)");
  auto blocksize = attrInt("blocksize");
  if (!blocksize)
    return fail("the attribute 'blocksize' is required");
  int64_t b = *blocksize;
  // Kept small enough that no size below can overflow.
  if (b < 1 || b > (int64_t(1) << 16))
    return fail("blocksize must be in [1, 2^16]");
  SmallVector<int64_t> s = (*in)->shape;
  int64_t n0 = s[0], c = s[1], h = s[2], w = s[3];
  std::vector<int64_t> split, perm, joined;
  if (toSpace) {
    if (c % (b * b) != 0)
      return fail("channels " + Twine(c) +
                  " are not a multiple of "
                  "blocksize^2 = " +
                  Twine(b * b));
    if (double(h) * b * w * b > double(int64_t(1) << 40))
      return fail("the output would be too large");
    std::string mode = attrString("mode").value_or("DCR");
    if (mode == "DCR") {
      split = {n0, b, b, c / (b * b), h, w};
      perm = {0, 3, 4, 1, 5, 2};
    } else if (mode == "CRD") {
      split = {n0, c / (b * b), b, b, h, w};
      perm = {0, 1, 4, 2, 5, 3};
    } else {
      return fail("unknown mode '" + mode + "' (ONNX defines DCR and CRD)");
    }
    joined = {n0, c / (b * b), h * b, w * b};
  } else {
    if (h % b != 0 || w % b != 0)
      return fail("height " + Twine(h) + " and width " + Twine(w) +
                  " must be multiples of blocksize " + Twine(b));
    split = {n0, c, h / b, b, w / b, b};
    perm = {0, 3, 5, 1, 2, 4};
    joined = {n0, c * b * b, h / b, w / b};
  }
  Expansion e(*this, n);
  std::string blocks = e.fresh("blocks"), moved = e.fresh("moved");
  e.add("Reshape", {n.input(0), e.constInts("shape", split)}, blocks);
  Expansion::setInts(e.add("Transpose", {blocks}, moved), "perm", perm);
  e.add("Reshape", {moved, e.constInts("shape", joined)}, n.output(0));
  return importExpansion(n, e.nodes);
}
