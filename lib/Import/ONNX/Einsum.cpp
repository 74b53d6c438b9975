//===- Einsum.cpp - Einsum as Transpose, Reshape, MatMul, ReduceSum -------===//
//
// An Einsum of one or two operands without repeated labels is a sum over
// some labels followed by a batched matrix product and a permutation (three
// or more operands: two-operand Einsums from the left, as ONNX Runtime
// contracts them). The
// importer writes it as those standard nodes (Expansion.h), so a constant
// operand folds, a quantized one keeps its codes through the moves, and the
// product is whichever MatMul the operands allow (the f32 batched matmul for
// attention's "bhqd,bhkd->bhqk", the int8 kernels for a 2-D constant B).
//
//   A: ReduceSum over its labels used nowhere else, Transpose to
//      (batch, m, k), Reshape to (B, M, K) (or (M, K) without batch labels);
//   B: the same, to (batch, k, n) and (B, K, N);
//   MatMul, Reshape to (batch, m, n), Transpose to the output's order.
//
// batch labels are in A, B and the output, m in A and the output, n in B
// and the output, k in A and B only. The contraction sums k in A's order of
// the k labels (row-major over them).
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <numeric>

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
/// One label: a letter (0-51) or, for an ellipsis dimension, 100 + its
/// position among the broadcast dimensions (aligned to the right).
using Label = int;

/// An equation's terms, labels per dimension.
struct Equation {
  SmallVector<SmallVector<Label>> inputs;
  SmallVector<Label> output;
};
} // namespace

static int letterLabel(char c) {
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 26;
  if (c >= 'A' && c <= 'Z')
    return c - 'A';
  return -1;
}

/// Splits a term into its letters and where its ellipsis is (-1: none).
static FailureOr<std::pair<SmallVector<Label>, int>> parseTerm(Importer &im,
                                                               StringRef term) {
  SmallVector<Label> letters;
  int ellipsis = -1;
  for (size_t i = 0; i < term.size(); ++i) {
    if (term.substr(i).starts_with("...")) {
      if (ellipsis >= 0)
        return im.fail("a term of the equation has two ellipses");
      ellipsis = letters.size();
      i += 2;
      continue;
    }
    int l = letterLabel(term[i]);
    if (l < 0)
      return im.fail("unexpected character '" + Twine(term[i]) +
                     "' in the equation (labels are letters)");
    letters.push_back(l);
  }
  return std::make_pair(letters, ellipsis);
}

/// Parses `text` for operands of `ranks`.
static FailureOr<Equation> parseEquation(Importer &im, std::string text,
                                         ArrayRef<int64_t> ranks) {
  llvm::erase_if(text, [](char c) { return c == ' '; });
  StringRef eq(text);
  auto [lhs, rhs] = eq.split("->");
  bool explicitOutput = eq.contains("->");
  SmallVector<StringRef> terms;
  lhs.split(terms, ',');
  if (terms.size() != ranks.size())
    return im.fail("the equation has " + Twine(terms.size()) +
                   " input terms for " + Twine(ranks.size()) + " inputs");
  Equation e;
  int64_t broadcastDims = 0;
  for (auto [term, rank] : llvm::zip(terms, ranks)) {
    auto t = parseTerm(im, term);
    if (failed(t))
      return failure();
    auto &[letters, ellipsis] = *t;
    int64_t covered = rank - int64_t(letters.size());
    if (covered < 0 || (ellipsis < 0 && covered != 0))
      return im.fail("the term '" + term +
                     "' does not match an input of rank " + Twine(rank));
    SmallVector<Label> labels(letters.begin(), letters.end());
    if (ellipsis >= 0) {
      broadcastDims = std::max(broadcastDims, covered);
      // Ellipsis dimensions align to the right, as numpy broadcasts.
      SmallVector<Label> dims;
      for (int64_t d = 0; d < covered; ++d)
        dims.push_back(100 + d);
      labels.insert(labels.begin() + ellipsis, dims.begin(), dims.end());
    }
    e.inputs.push_back(labels);
  }
  // Right-align each operand's ellipsis labels on the widest one.
  for (SmallVector<Label> &labels : e.inputs) {
    int64_t covered = llvm::count_if(labels, [](Label l) { return l >= 100; });
    for (Label &l : labels)
      if (l >= 100)
        l += broadcastDims - covered;
  }
  if (explicitOutput) {
    auto t = parseTerm(im, rhs);
    if (failed(t))
      return failure();
    auto &[letters, ellipsis] = *t;
    e.output.assign(letters.begin(), letters.end());
    if (ellipsis >= 0) {
      SmallVector<Label> dims;
      for (int64_t d = 0; d < broadcastDims; ++d)
        dims.push_back(100 + d);
      e.output.insert(e.output.begin() + ellipsis, dims.begin(), dims.end());
    } else if (broadcastDims > 0) {
      return im.fail("the output term needs an ellipsis: the inputs' have "
                     "dimensions");
    }
  } else {
    // Implicit output: the broadcast dimensions, then the letters used
    // once, in alphabetical order.
    for (int64_t d = 0; d < broadcastDims; ++d)
      e.output.push_back(100 + d);
    std::map<Label, int> uses;
    for (const auto &labels : e.inputs)
      for (Label l : labels)
        if (l < 100)
          ++uses[l];
    for (auto [l, count] : uses)
      if (count == 1)
        e.output.push_back(l);
  }
  for (const auto &labels : e.inputs)
    for (auto [i, l] : llvm::enumerate(labels))
      if (llvm::is_contained(ArrayRef(labels).take_front(i), l))
        return im.fail("a label repeats within an input term (diagonals are "
                       "not supported)");
  for (auto [i, label] : llvm::enumerate(e.output)) {
    Label l = label;
    if (llvm::is_contained(ArrayRef(e.output).take_front(i), l))
      return im.fail("a label repeats in the output term");
    if (llvm::none_of(e.inputs, [&](const SmallVector<Label> &labels) {
          return llvm::is_contained(labels, l);
        }))
      return im.fail("an output label appears in no input term");
  }
  return e;
}

static int64_t product(ArrayRef<int64_t> v) {
  return std::accumulate(v.begin(), v.end(), int64_t(1), std::multiplies<>());
}

static char labelLetter(Label l) { return l < 26 ? 'A' + l : 'a' + (l - 26); }

static std::string termOf(ArrayRef<Label> labels) {
  std::string term;
  for (Label l : labels)
    term += labelLetter(l);
  return term;
}

/// Three or more operands: two at a time from the left, as ONNX Runtime
/// contracts them. Each step keeps the labels a later operand or the output
/// uses (in the order they first appear) and sums the others; the last step
/// writes the output's order. Each step is a two-operand Einsum node.
/// The ellipsis dimensions are named by letters the equation leaves unused
/// (each step is written as a lettered equation; the labels already align
/// them across the operands).
static LogicalResult expandPairwise(Importer &im, const onnx::NodeProto &n,
                                    ArrayRef<std::string> operands, Equation eq,
                                    Expansion &e) {
  std::map<Label, Label> letterOf;
  Label next = 0;
  auto isUsed = [&](Label l) {
    auto inTerm = [&](ArrayRef<Label> labels) {
      return llvm::is_contained(labels, l);
    };
    return llvm::any_of(eq.inputs, inTerm) || inTerm(eq.output);
  };
  auto rename = [&](Label &l) -> LogicalResult {
    if (l < 100)
      return success();
    auto [it, inserted] = letterOf.emplace(l, 0);
    if (inserted) {
      while (next < 52 && isUsed(next))
        ++next;
      if (next == 52)
        return im.fail("too many labels: the ellipsis dimensions need a free "
                       "letter each");
      it->second = next++;
    }
    l = it->second;
    return success();
  };
  for (auto &labels : eq.inputs)
    for (Label &l : labels)
      if (failed(rename(l)))
        return failure();
  for (Label &l : eq.output)
    if (failed(rename(l)))
      return failure();
  std::string current = operands[0];
  SmallVector<Label> have = eq.inputs[0];
  int count = operands.size();
  for (int i = 1; i < count; ++i) {
    bool last = i == count - 1;
    SmallVector<Label> keep;
    if (last) {
      keep = eq.output;
    } else {
      auto later = [&](Label l) {
        if (llvm::is_contained(eq.output, l))
          return true;
        for (int j = i + 1; j < count; ++j)
          if (llvm::is_contained(eq.inputs[j], l))
            return true;
        return false;
      };
      for (Label l : llvm::concat<const Label>(have, eq.inputs[i]))
        if (later(l) && !llvm::is_contained(keep, l))
          keep.push_back(l);
    }
    std::string out = last ? n.output(0) : e.fresh("pair");
    onnx::NodeProto &step = e.add("Einsum", {current, operands[i]}, out);
    Expansion::setString(step, "equation",
                         termOf(have) + "," + termOf(eq.inputs[i]) + "->" +
                             termOf(keep));
    current = out;
    have = keep;
  }
  return im.importExpansion(n, e.nodes);
}

LogicalResult Importer::importEinsum() {
  if (failed(checkAttrs({"equation"})))
    return failure();
  const onnx::NodeProto &n = *node;
  if (n.input_size() < 1)
    return fail("Einsum needs an operand");
  auto equation = attrString("equation");
  if (!equation)
    return fail("the attribute 'equation' is required");
  SmallVector<int64_t> ranks;
  SmallVector<SmallVector<int64_t>> shapes;
  for (int i = 0; i < n.input_size(); ++i) {
    auto in = input(i);
    if (failed(in))
      return failure();
    shapes.push_back((*in)->shape);
    ranks.push_back((*in)->shape.size());
  }
  auto eq = parseEquation(*this, *equation, ranks);
  if (failed(eq))
    return failure();
  std::map<Label, int64_t> size;
  for (auto [labels, shape] : llvm::zip(eq->inputs, shapes))
    for (auto [l, d] : llvm::zip(labels, shape)) {
      auto [it, inserted] = size.emplace(l, d);
      if (inserted || it->second == d)
        continue;
      // Ellipsis dimensions broadcast as numpy's do: a size of 1 stretches.
      if (l >= 100 && (it->second == 1 || d == 1)) {
        if (it->second == 1)
          it->second = d;
        continue;
      }
      return l >= 100 ? fail("the ellipsis stands for dimensions of sizes " +
                             Twine(it->second) + " and " + Twine(d) +
                             " (aligned to the right), which do not broadcast")
                      : fail("label '" + Twine(labelLetter(l)) +
                             "' stands for dimensions of sizes " +
                             Twine(it->second) + " and " + Twine(d));
    }
  auto sizesOf = [&](ArrayRef<Label> labels) {
    SmallVector<int64_t> s;
    for (Label l : labels)
      s.push_back(size[l]);
    return s;
  };
  auto inOutput = [&](Label l) { return llvm::is_contained(eq->output, l); };

  Expansion e(*this, n);
  // An operand's broadcast ellipsis dimension (size 1 where another
  // operand's is larger) is reshaped away: the label is then the other
  // operands' alone, and nothing is copied to stretch it.
  SmallVector<std::string> operands;
  for (size_t i = 0; i < eq->inputs.size(); ++i) {
    SmallVector<Label> &labels = eq->inputs[i];
    operands.push_back(n.input(i));
    SmallVector<Label> kept;
    SmallVector<int64_t> keptShape;
    for (auto [l, d] : llvm::zip(labels, shapes[i]))
      if (!(l >= 100 && d == 1 && size[l] != 1)) {
        kept.push_back(l);
        keptShape.push_back(d);
      }
    if (kept.size() == labels.size())
      continue;
    operands.back() = e.fresh("unbroadcast");
    e.add("Reshape", {n.input(i), e.constInts("shape", keptShape)},
          operands.back());
    labels = kept;
  }
  if (n.input_size() > 2)
    return expandPairwise(*this, n, operands, *eq, e);
  // The value named `value` with labels `have`, moved to the order `want`.
  auto permuteTo = [&](std::string value, ArrayRef<Label> have,
                       ArrayRef<Label> want, std::string out = "") {
    SmallVector<int64_t> perm;
    for (Label l : want)
      perm.push_back(llvm::find(have, l) - have.begin());
    bool identity = llvm::equal(have, want);
    if (identity && out.empty())
      return value;
    if (out.empty())
      out = e.fresh("transposed");
    if (identity)
      e.add("Identity", {value}, out);
    else
      Expansion::setInts(e.add("Transpose", {value}, out), "perm", perm);
    return out;
  };
  auto reshapeTo = [&](std::string value, ArrayRef<int64_t> from,
                       ArrayRef<int64_t> to) {
    if (llvm::equal(from, to))
      return value;
    std::string out = e.fresh("reshaped");
    e.add("Reshape", {value, e.constInts("shape", to)}, out);
    return out;
  };
  // Sums `value` over the labels of `labels` that `keep` rejects.
  auto sumOver = [&](std::string value, SmallVector<Label> &labels,
                     function_ref<bool(Label)> keep) {
    SmallVector<int64_t> axes;
    SmallVector<Label> kept;
    for (auto [i, l] : llvm::enumerate(labels)) {
      if (keep(l))
        kept.push_back(l);
      else
        axes.push_back(i);
    }
    if (axes.empty())
      return value;
    std::string out = e.fresh("summed");
    onnx::NodeProto &sum = e.add("ReduceSum", {value}, out);
    Expansion::setInt(sum, "keepdims", 0);
    e.addInts(sum, "axes", axes, reduceAxesInputOpset("ReduceSum"));
    labels = kept;
    return out;
  };

  SmallVector<Label> a = eq->inputs[0];
  if (n.input_size() == 1) {
    std::string summed = sumOver(operands[0], a, inOutput);
    permuteTo(summed, a, eq->output, n.output(0));
    return importExpansion(n, e.nodes);
  }
  SmallVector<Label> b = eq->inputs[1];
  auto inA = [&](Label l) { return llvm::is_contained(a, l); };
  auto inB = [&](Label l) { return llvm::is_contained(b, l); };
  // Labels of one operand only, and not in the output, are summed first.
  std::string aSummed =
      sumOver(operands[0], a, [&](Label l) { return inOutput(l) || inB(l); });
  std::string bSummed =
      sumOver(operands[1], b, [&](Label l) { return inOutput(l) || inA(l); });
  SmallVector<Label> batch, m, k, nn;
  for (Label l : eq->output) {
    if (inA(l) && inB(l))
      batch.push_back(l);
    else if (inA(l))
      m.push_back(l);
    else
      nn.push_back(l);
  }
  for (Label l : a)
    if (inB(l) && !inOutput(l))
      k.push_back(l);
  int64_t bs = product(sizesOf(batch)), ms = product(sizesOf(m)),
          ks = product(sizesOf(k)), ns = product(sizesOf(nn));
  SmallVector<Label> aOrder = llvm::to_vector(llvm::concat<Label>(batch, m, k));
  SmallVector<Label> bOrder =
      llvm::to_vector(llvm::concat<Label>(batch, k, nn));
  SmallVector<int64_t> aShape = {ms, ks}, bShape = {ks, ns},
                       productShape = {ms, ns};
  if (!batch.empty()) {
    aShape.insert(aShape.begin(), bs);
    bShape.insert(bShape.begin(), bs);
    productShape.insert(productShape.begin(), bs);
  }
  std::string lhs =
      reshapeTo(permuteTo(aSummed, a, aOrder), sizesOf(aOrder), aShape);
  std::string rhs =
      reshapeTo(permuteTo(bSummed, b, bOrder), sizesOf(bOrder), bShape);
  std::string prod = e.fresh("product");
  e.add("MatMul", {lhs, rhs}, prod);
  SmallVector<Label> prodOrder =
      llvm::to_vector(llvm::concat<Label>(batch, m, nn));
  std::string unflat = reshapeTo(prod, productShape, sizesOf(prodOrder));
  permuteTo(unflat, prodOrder, eq->output, n.output(0));
  return importExpansion(n, e.nodes);
}
