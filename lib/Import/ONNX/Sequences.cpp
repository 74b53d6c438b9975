//===- Sequences.cpp - sequences of tensors -------------------------------===//
//
// ONNX's sequences (what scripted exports write for Python lists: a list
// grown in a loop, then stacked) as compile-time lists of the importer's
// values: a sequence value holds its tensors, positions and lengths are
// compile-time, and the ops that make a tensor of a sequence
// (ConcatFromSequence) or a sequence of a tensor (SplitToSequence) are the
// Concat, Unsqueeze, Split and Squeeze nodes they equal. Only the sequence
// ops, Identity and Loop (a loop-carried list) take a sequence; a graph
// output or any other op's input that is one is diagnosed.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

static ImportedValue makeSequence(std::vector<ImportedValue> elements) {
  ImportedValue s;
  s.kind = Kind::Sequence;
  s.elements =
      std::make_shared<const std::vector<ImportedValue>>(std::move(elements));
  return s;
}

/// Input `idx` of the current node, which must be a sequence.
static FailureOr<const std::vector<ImportedValue> *>
sequenceInput(Importer &im, unsigned idx) {
  auto in = im.input(idx);
  if (failed(in))
    return failure();
  if ((*in)->kind != Kind::Sequence)
    return im.fail("input " + Twine(idx) + " must be a sequence");
  return (*in)->elements.get();
}

/// The compile-time position input `idx` (absent: `fallback`) made
/// non-negative; it must lie in [-length, length + extra).
static FailureOr<int64_t> position(Importer &im, unsigned idx, int64_t fallback,
                                   int64_t length, int64_t extra) {
  int64_t p = fallback;
  if (im.hasInput(idx)) {
    auto c = im.constInts(idx);
    if (failed(c))
      return failure();
    if (c->size() != 1)
      return im.fail("the position must be one integer");
    p = (*c)[0];
  }
  if (p < -length || p >= length + extra)
    return im.fail("position " + Twine(p) + " outside [" + Twine(-length) +
                   ", " + Twine(length + extra - 1) + "]");
  return p < 0 ? p + length : p;
}

/// SplitToSequence: the Split (and, without `split` and with keepdims = 0,
/// Squeeze) nodes it equals, their outputs collected.
static LogicalResult splitToSequence(Importer &im) {
  if (failed(im.checkAttrs({"axis", "keepdims"})))
    return failure();
  auto in = im.input(0);
  if (failed(in))
    return failure();
  int64_t rank = (*in)->shape.size();
  auto axis = im.normalizedAxis(im.attrInt("axis").value_or(0), rank);
  if (failed(axis))
    return failure();
  int64_t dim = (*in)->shape[*axis];
  std::vector<int64_t> sizes;
  bool squeeze = false;
  if (im.hasInput(1)) {
    auto split = im.constInts(1);
    if (failed(split))
      return failure();
    auto splitIn = im.input(1);
    if ((*splitIn)->shape.empty()) {
      // A scalar: chunks of that size, the last one smaller.
      int64_t chunk = split->at(0);
      if (chunk < 1)
        return im.fail("split " + Twine(chunk) + " must be positive");
      for (int64_t at = 0; at < dim; at += chunk)
        sizes.push_back(std::min(chunk, dim - at));
    } else {
      sizes = *split;
    }
  } else {
    sizes.assign(dim, 1);
    squeeze = im.attrInt("keepdims").value_or(1) == 0;
  }
  constexpr int64_t kMaxParts = 1 << 12;
  if (int64_t(sizes.size()) > kMaxParts)
    return im.fail("more than " + Twine(kMaxParts) + " parts");
  Expansion e(im, *im.node);
  std::vector<std::string> parts;
  for (size_t k = 0; k < sizes.size(); ++k)
    parts.push_back(e.fresh("part"));
  onnx::NodeProto &split = e.add("Split", {im.node->input(0)}, parts[0]);
  for (size_t k = 1; k < parts.size(); ++k)
    split.add_output(parts[k]);
  Expansion::setInt(split, "axis", *axis);
  e.addInts(split, "split", sizes, 13);
  std::vector<std::string> names = parts;
  if (squeeze) {
    for (std::string &name : names) {
      std::string squeezed = e.fresh("squeezed");
      e.addInts(e.add("Squeeze", {name}, squeezed), "axes", {*axis}, 13);
      name = squeezed;
    }
  }
  const onnx::NodeProto *n = im.node;
  if (failed(im.importExpansion(*n, e.nodes)))
    return failure();
  std::vector<ImportedValue> elements;
  for (const std::string &name : names)
    elements.push_back(im.values[name]);
  im.setOutput(0, makeSequence(std::move(elements)));
  return success();
}

LogicalResult Importer::importSequenceOp() {
  StringRef op = node->op_type();
  if (op == "SplitToSequence")
    return splitToSequence(*this);
  if (op == "SequenceEmpty") {
    if (failed(checkAttrs({"dtype"})))
      return failure();
    setOutput(0, makeSequence({}));
    return success();
  }
  if (op == "SequenceConstruct") {
    if (failed(checkAttrs({})))
      return failure();
    std::vector<ImportedValue> elements;
    for (int k = 0; k < node->input_size(); ++k) {
      auto v = input(k);
      if (failed(v))
        return failure();
      if ((*v)->kind == Kind::Sequence)
        return fail("a sequence holds tensors, not sequences");
      elements.push_back(**v);
    }
    setOutput(0, makeSequence(std::move(elements)));
    return success();
  }
  if (failed(checkAttrs(op == "ConcatFromSequence"
                            ? ArrayRef<StringRef>{"axis", "new_axis"}
                            : ArrayRef<StringRef>{})))
    return failure();
  auto seq = sequenceInput(*this, 0);
  if (failed(seq))
    return failure();
  const std::vector<ImportedValue> &elements = **seq;
  int64_t length = elements.size();
  if (op == "SequenceLength") {
    setOutput(0, int64Constant({}, {length}));
    return success();
  }
  if (op == "SequenceAt") {
    auto p = position(*this, 1, 0, length, 0);
    if (failed(p))
      return failure();
    setOutput(0, elements[*p]);
    return success();
  }
  if (op == "SequenceInsert") {
    auto tensor = input(1);
    if (failed(tensor))
      return failure();
    if ((*tensor)->kind == Kind::Sequence)
      return fail("a sequence holds tensors, not sequences");
    auto p = position(*this, 2, length, length, 1);
    if (failed(p))
      return failure();
    std::vector<ImportedValue> grown = elements;
    grown.insert(grown.begin() + *p, **tensor);
    setOutput(0, makeSequence(std::move(grown)));
    return success();
  }
  if (op == "SequenceErase") {
    auto p = position(*this, 1, length - 1, length, 0);
    if (failed(p))
      return failure();
    std::vector<ImportedValue> shrunk = elements;
    shrunk.erase(shrunk.begin() + *p);
    setOutput(0, makeSequence(std::move(shrunk)));
    return success();
  }
  if (op == "ConcatFromSequence") {
    auto axis = attrInt("axis");
    if (!axis)
      return fail("axis is required");
    if (elements.empty())
      return fail("the sequence is empty: an empty result is not supported");
    return concatenate(elements, *axis, attrInt("new_axis").value_or(0) != 0,
                       0);
  }
  return fail("unsupported sequence operator");
}
