//===- LegacyBroadcast.cpp - binary ops before opset 7 --------------------===//
//
// Before opset 7 the binary ops (Add, Sub, Mul, Div, Pow, And, Or, Xor,
// Equal, Greater, Less) broadcast only when `broadcast = 1`, and then B's
// dimensions line up with A's from `axis` on (by default the trailing
// ones): B of shape (3) with axis = 1 adds along the channels of an
// N x 3 x H x W input, where numpy would align it with W. Old Caffe2
// conversions write every bias so. Such a node is imported as B reshaped
// to A's rank (ones around its dimensions), then the op with numpy
// broadcasting. `consumed_inputs` (opset 1's in-place hint) has no
// meaning for the values and is dropped.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

bool Importer::hasLegacyBroadcast(const onnx::NodeProto &n) const {
  // The nodes of an expansion are the importer's own, numpy-broadcasting.
  if (opset >= 7 || expandedFrom)
    return false;
  StringRef op = n.op_type();
  if (op != "Add" && op != "Sub" && op != "Mul" && op != "Div" && op != "Pow" &&
      op != "And" && op != "Or" && op != "Xor" && op != "Equal" &&
      op != "Greater" && op != "Less")
    return false;
  if (llvm::any_of(n.attribute(), [](const onnx::AttributeProto &a) {
        return a.name() == "broadcast" || a.name() == "axis" ||
               a.name() == "consumed_inputs";
      }))
    return true;
  // Without `broadcast` the shapes must be equal: a difference is for
  // importLegacyBroadcast to diagnose.
  if (n.input_size() != 2)
    return false;
  auto a = values.find(n.input(0)), b = values.find(n.input(1));
  return a != values.end() && b != values.end() &&
         a->second.shape != b->second.shape;
}

LogicalResult Importer::importLegacyBroadcast() {
  if (failed(checkAttrs({"broadcast", "axis", "consumed_inputs"})))
    return failure();
  if (node->input_size() != 2)
    return fail(node->op_type() + " takes two inputs");
  auto a = input(0);
  auto b = failed(a) ? a : input(1);
  if (failed(b))
    return failure();
  ArrayRef<int64_t> shapeA = (*a)->shape, shapeB = (*b)->shape;
  int64_t rankA = shapeA.size(), rankB = shapeB.size();
  Expansion e(*this, *node);
  std::string operandB = node->input(1);
  if (attrInt("broadcast").value_or(0) == 0) {
    if (shapeA != shapeB)
      return fail("B's shape differs from A's and broadcast is 0 (opset " +
                  Twine(opset) + " broadcasts only with broadcast = 1)");
  } else {
    int64_t axis = attrInt("axis").value_or(rankA - rankB);
    if (axis < 0 || rankB > rankA || axis > rankA - rankB)
      return fail("axis " + Twine(axis) + " does not place B's " +
                  Twine(rankB) + " dimensions within A's " + Twine(rankA));
    SmallVector<int64_t> aligned(rankA, 1);
    for (int64_t d = 0; d < rankB; ++d) {
      if (shapeB[d] != 1 && shapeB[d] != shapeA[axis + d])
        return fail("B's dimension " + Twine(d) + " (" + Twine(shapeB[d]) +
                    ") does not match A's dimension " + Twine(axis + d) + " (" +
                    Twine(shapeA[axis + d]) + ")");
      aligned[axis + d] = shapeB[d];
    }
    if (rankB != rankA)
      operandB = e.reshape(operandB, aligned);
  }
  e.add(node->op_type(), {node->input(0), operandB}, node->output(0));
  return importExpansion(*node, e.nodes);
}
