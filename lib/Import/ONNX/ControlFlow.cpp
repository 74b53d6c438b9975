//===- ControlFlow.cpp - If, Loop and Scan --------------------------------===//
//
// ONNX's control flow as straight-line code. The importer knows every shape
// at compile time, and exporters write control flow mostly over shapes and
// counts (a branch on the batch size, a loop over a fixed number of steps),
// which fold at import:
//
// - If whose condition is compile-time data imports the branch taken.
//   With a run-time condition both branches are imported and each output
//   picks its value element by element (the branches have no side effects,
//   and every op the importer emits is defined on every input, so running
//   the branch not taken is harmless; the cost is both branches). Outputs
//   of the two branches must then have one shape and one type: codes on
//   the same grid stay codes, anything else quantized is compared in f32.
// - Loop with a compile-time trip count and condition is unrolled: the
//   body is imported once per iteration with the iteration number and the
//   condition as constants, so shape arithmetic on them folds. The scan
//   outputs are the per-iteration values stacked (Unsqueeze, Concat). A
//   condition computed at run time needs the trip count: the body is
//   unrolled that many times, and from the first run-time condition on
//   each iteration's loop-carried values are selected against the previous
//   ones by whether the loop still runs (the And of the conditions so
//   far), so the state stops where ONNX's loop stops. Scan outputs, whose
//   length would then be known only at run time, are diagnosed.
// - Scan is unrolled over its sequence length in the same way, each
//   iteration reading its slice of the scan inputs (Gather at the step).
//
// A subgraph's names hide those of the enclosing graph while it is imported
// (ONNX's lexical scoping) and are dropped after. Unrolling is bounded: all
// subgraphs together import at most kMaxSubgraphNodes nodes.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// How deeply subgraphs may nest.
static constexpr int kMaxSubgraphDepth = 16;

static std::string shapeString(ArrayRef<int64_t> shape) {
  return "[" + joinedDims(shape) + "]";
}

FailureOr<std::vector<ImportedValue>>
Importer::importSubgraph(const onnx::GraphProto &g,
                         ArrayRef<ImportedValue> inputs, StringRef what) {
  if (subgraphDepth >= kMaxSubgraphDepth)
    return fail("subgraphs nest more than " + Twine(kMaxSubgraphDepth) +
                " deep");
  if (g.input_size() != int(inputs.size()))
    return fail("the " + what + " has " + Twine(g.input_size()) +
                " inputs, the op gives it " + Twine(inputs.size()));
  if (g.sparse_initializer_size() != 0)
    return fail("the " + what +
                " has sparse initializers, which are not "
                "supported");
  // An empty body counts as one node, so that a loop without a bound ends
  // here too.
  int64_t cost = std::max(1, g.node_size());
  if (cost > subgraphNodeBudget)
    return fail("control flow unrolls to more than " +
                Twine(kMaxSubgraphNodes) + " nodes");
  subgraphNodeBudget -= cost;

  // The subgraph's own names hide the enclosing graph's.
  std::vector<std::pair<std::string, std::optional<ImportedValue>>> hidden;
  auto hide = [&](const std::string &name) {
    if (name.empty())
      return;
    auto it = values.find(name);
    hidden.emplace_back(name, it == values.end()
                                  ? std::nullopt
                                  : std::optional<ImportedValue>(it->second));
  };
  for (const auto &in : g.input())
    hide(in.name());
  for (const auto &t : g.initializer())
    hide(t.name());
  for (const auto &n : g.node())
    for (const std::string &name : n.output())
      hide(name);
  auto restore = [&] {
    for (auto &[name, old] : llvm::reverse(hidden)) {
      if (old)
        values[name] = std::move(*old);
      else
        values.erase(name);
    }
  };

  const onnx::NodeProto *outer = node;
  Location outerLoc = loc;
  auto backInOuter = [&] {
    node = outer;
    loc = outerLoc;
  };

  for (auto [in, v] : llvm::zip(g.input(), inputs))
    values[in.name()] = v;
  bool ok = true;
  for (const auto &t : g.initializer()) {
    auto v = readTensor(t);
    if (failed(v)) {
      ok = false;
      break;
    }
    values[t.name()] = std::move(*v);
  }
  ++subgraphDepth;
  for (int k = 0; ok && k < g.node_size(); ++k)
    ok = succeeded(importNode(g.node(k)));
  --subgraphDepth;

  std::vector<ImportedValue> outputs;
  std::string missing;
  for (int k = 0; ok && k < g.output_size(); ++k) {
    auto it = values.find(g.output(k).name());
    if (it == values.end()) {
      missing = g.output(k).name();
      ok = false;
      break;
    }
    outputs.push_back(it->second);
  }
  restore();
  backInOuter();
  if (!missing.empty())
    return fail("output '" + missing + "' of the " + what +
                " is never defined");
  if (!ok)
    return fail("its " + what + " does not import (see above)");
  return outputs;
}

/// Equal compile-time data: a run-time If needs no select for it.
static bool sameConstant(const ImportedValue &a, const ImportedValue &b) {
  return a.kind == Kind::Const && b.kind == Kind::Const && a.dtype == b.dtype &&
         a.shape == b.shape && a.f == b.f && a.i == b.i;
}

FailureOr<ImportedValue> Importer::selectAtRunTime(Value cond, unsigned idx,
                                                   ImportedValue a,
                                                   ImportedValue b) {
  if (a.kind == Kind::Sequence || b.kind == Kind::Sequence)
    return fail("output " + Twine(idx) +
                " is a sequence, which needs a compile-time condition");
  if (failed(settleOrFloat(*this, a)) || failed(settleOrFloat(*this, b)))
    return failure();
  if (a.shape != b.shape)
    return fail("output " + Twine(idx) + " has shape " + shapeString(a.shape) +
                " in the then_branch and " + shapeString(b.shape) +
                " in the else_branch; with a condition known only at run "
                "time they must agree");
  if (sameConstant(a, b))
    return a;
  auto pick = [&](OpBuilder &nb, Location l, ValueRange x) -> Value {
    return arith::SelectOp::create(nb, l, cond, x[0], x[1]);
  };
  if (a.holdsIntegers() || b.holdsIntegers()) {
    if (!a.holdsIntegers() || !b.holdsIntegers() || a.dtype != b.dtype)
      return fail("output " + Twine(idx) +
                  " has different element types in the two branches");
    Type elem = integerElementType(*this, a);
    Value x = logicalIntegers(*this, a, elem);
    Value y = logicalIntegers(*this, b, elem);
    ImportedValue out;
    out.kind = Kind::Int;
    out.dtype = a.dtype;
    out.shape = a.shape;
    out.value = elementwise(*this, {x, y}, a.shape, pick, elem);
    return out;
  }
  if (a.isQuantized() && b.isQuantized() && a.q == b.q) {
    auto x = storageInts(*this, a, /*nhwc=*/false);
    auto y = failed(x) ? x : storageInts(*this, b, /*nhwc=*/false);
    if (failed(y))
      return failure();
    Value codes =
        elementwise(*this, {*x, *y}, a.shape, pick, storageIntType(a.q));
    return resultLike(*this, a, /*codes=*/true, codes, a.shape);
  }
  auto x = floatValue(a, /*nhwc=*/false);
  auto y = failed(x) ? x : floatValue(b, /*nhwc=*/false);
  if (failed(y))
    return failure();
  ImportedValue out;
  out.kind = Kind::Float;
  out.shape = a.shape;
  out.value = elementwise(*this, {*x, *y}, a.shape, pick);
  return out;
}

LogicalResult Importer::importIf() {
  if (failed(checkAttrs({"then_branch", "else_branch"})))
    return failure();
  const onnx::GraphProto *thenBranch = attrGraph("then_branch");
  const onnx::GraphProto *elseBranch = attrGraph("else_branch");
  if (!thenBranch || !elseBranch)
    return fail("If needs a then_branch and an else_branch");
  auto condIn = input(0);
  if (failed(condIn))
    return failure();
  ImportedValue cond = **condIn;
  if (cond.numElements() != 1 || cond.dtype != onnx::TensorProto::BOOL ||
      !((cond.kind == Kind::Const && cond.i.size() == 1) ||
        cond.kind == Kind::Int))
    return fail("the condition must be a boolean tensor of one element");
  for (const onnx::GraphProto *g : {thenBranch, elseBranch})
    if (g->output_size() != node->output_size())
      return fail("the node has " + Twine(node->output_size()) +
                  " outputs, a branch " + Twine(g->output_size()));

  if (cond.kind == Kind::Const) {
    bool taken = cond.i[0] != 0;
    auto outputs = importSubgraph(taken ? *thenBranch : *elseBranch, {},
                                  taken ? "then_branch" : "else_branch");
    if (failed(outputs))
      return failure();
    for (auto [k, v] : llvm::enumerate(*outputs))
      setOutput(k, std::move(v));
    return success();
  }

  auto thenOut = importSubgraph(*thenBranch, {}, "then_branch");
  if (failed(thenOut))
    return failure();
  auto elseOut = importSubgraph(*elseBranch, {}, "else_branch");
  if (failed(elseOut))
    return failure();
  SmallVector<Value> zeros(
      cond.shape.size(), arith::ConstantIndexOp::create(b, loc, 0).getResult());
  Value c = tensor::ExtractOp::create(b, loc, cond.value, zeros);
  std::vector<ImportedValue> results;
  for (unsigned k = 0; k < thenOut->size(); ++k) {
    auto v = selectAtRunTime(c, k, (*thenOut)[k], (*elseOut)[k]);
    if (failed(v))
      return failure();
    results.push_back(std::move(*v));
  }
  for (auto [k, v] : llvm::enumerate(results))
    setOutput(k, std::move(v));
  return success();
}

static ImportedValue boolScalar(bool v) {
  ImportedValue c = int64Constant({}, {v});
  c.dtype = onnx::TensorProto::BOOL;
  return c;
}

/// The one boolean of a compile-time condition, or nullopt.
static std::optional<bool> constantCondition(const ImportedValue &v) {
  if (v.kind != Kind::Const || v.dtype != onnx::TensorProto::BOOL ||
      v.i.size() != 1)
    return std::nullopt;
  return v.i[0] != 0;
}

LogicalResult Importer::stackOutputs(std::vector<ImportedValue> parts,
                                     int64_t axis, unsigned idx) {
  if (node->output(idx).empty())
    return success(); // an output the graph does not use
  if (parts.empty())
    return fail("scan output " + Twine(idx) +
                " would be empty (no iteration ran), which is not supported");
  return concatenate(std::move(parts), axis, /*newAxis=*/true, idx);
}

LogicalResult Importer::concatenate(std::vector<ImportedValue> parts,
                                    int64_t axis, bool newAxis, unsigned idx) {
  Expansion e(*this, *node);
  int64_t rank = parts[0].shape.size() + (newAxis ? 1 : 0);
  auto normalized = normalizedAxis(axis, rank);
  if (failed(normalized))
    return failure();
  std::vector<std::string> pieces;
  for (ImportedValue &part : parts) {
    std::string name = e.bind("part", std::move(part));
    if (!newAxis) {
      pieces.push_back(name);
      continue;
    }
    pieces.push_back(e.fresh("stacked"));
    e.addInts(e.add("Unsqueeze", {name}, pieces.back()), "axes", {*normalized},
              13);
  }
  Expansion::setInt(e.add("Concat", pieces, node->output(idx)), "axis",
                    *normalized);
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importLoop() {
  if (failed(checkAttrs({"body"})))
    return failure();
  const onnx::GraphProto *body = attrGraph("body");
  if (!body)
    return fail("Loop needs a body");
  // Inputs: M, cond, then the N loop-carried values.
  int carried = node->input_size() - 2;
  if (carried < 0)
    return fail("Loop needs its M and cond inputs (either may be empty)");
  int scans = node->output_size() - carried;
  if (scans < 0 || body->output_size() != 1 + carried + scans ||
      body->input_size() != 2 + carried)
    return fail("the body has " + Twine(body->input_size()) + " inputs and " +
                Twine(body->output_size()) + " outputs; the node's " +
                Twine(carried) + " loop-carried values need " +
                Twine(2 + carried) + " inputs and " +
                Twine(1 + node->output_size()) + " outputs");
  std::optional<int64_t> tripCount;
  if (hasInput(0)) {
    auto m = input(0);
    if (failed(m))
      return failure();
    if ((*m)->kind != Kind::Const || (*m)->i.size() != 1 ||
        (*m)->dtype != onnx::TensorProto::INT64)
      return fail("the trip count M must be a compile-time int64 scalar "
                  "(a Loop is unrolled at import)");
    tripCount = (*m)->i[0];
  }
  // The condition is compile-time data (`cond`) until a run-time one
  // appears; from then on `running` (an i1) says whether the loop still
  // runs, and every later iteration keeps the state where it stopped.
  bool cond = true;
  Value running;
  auto runTimeCondition = [&](const ImportedValue &c) -> FailureOr<Value> {
    if (c.kind != Kind::Int || c.dtype != onnx::TensorProto::BOOL ||
        c.numElements() != 1)
      return fail("the condition must be a boolean tensor of one element");
    if (!tripCount)
      return fail("a condition computed at run time needs a compile-time "
                  "trip count M (the Loop is unrolled M times at import)");
    SmallVector<Value> zeros(
        c.shape.size(), arith::ConstantIndexOp::create(b, loc, 0).getResult());
    return tensor::ExtractOp::create(b, loc, c.value, zeros).getResult();
  };
  if (hasInput(1)) {
    auto c = input(1);
    if (failed(c))
      return failure();
    if (auto known = constantCondition(**c)) {
      cond = *known;
    } else {
      auto r = runTimeCondition(**c);
      if (failed(r))
        return failure();
      running = *r;
    }
  }
  std::vector<ImportedValue> state;
  for (int k = 0; k < carried; ++k) {
    auto v = input(2 + k);
    if (failed(v))
      return failure();
    state.push_back(**v);
  }
  std::vector<std::vector<ImportedValue>> scanned(scans);
  for (int64_t i = 0; (running || cond) && (!tripCount || i < *tripCount);
       ++i) {
    ImportedValue condIn = boolScalar(true);
    if (running) {
      condIn.kind = Kind::Int;
      condIn.i.clear();
      condIn.value = tensor::FromElementsOp::create(
          b, loc, RankedTensorType::get({}, b.getI1Type()), running);
    }
    std::vector<ImportedValue> in = {int64Constant({}, {i}), condIn};
    in.insert(in.end(), state.begin(), state.end());
    auto out = importSubgraph(*body, in, "body");
    if (failed(out))
      return failure();
    std::vector<ImportedValue> next(out->begin() + 1,
                                    out->begin() + 1 + carried);
    if (running) {
      // An iteration the loop may not reach leaves the state as it was.
      for (int k = 0; k < carried; ++k) {
        if (next[k].shape != state[k].shape)
          return fail("loop-carried value " + Twine(k) + " changes shape " +
                      "from " + shapeString(state[k].shape) + " to " +
                      shapeString(next[k].shape) + " in iteration " + Twine(i) +
                      "; with a condition computed at run time " +
                      "it must keep its shape");
        auto kept = selectAtRunTime(running, k, next[k], state[k]);
        if (failed(kept))
          return failure();
        next[k] = std::move(*kept);
      }
      for (int k = 0; k < scans; ++k)
        if (!node->output(carried + k).empty())
          return fail("scan output " + Twine(carried + k) + " of a Loop " +
                      "whose condition is computed at run time (its length " +
                      "would be known only at run time)");
    }
    state = std::move(next);
    for (int k = 0; k < scans; ++k)
      scanned[k].push_back((*out)[1 + carried + k]);
    const ImportedValue &condOut = (*out)[0];
    if (auto known = constantCondition(condOut)) {
      // A false condition ends the loop whether or not it still ran.
      if (!*known)
        running = nullptr;
      cond = *known;
      continue;
    }
    auto c = runTimeCondition(condOut);
    if (failed(c))
      return failure();
    running =
        running ? arith::AndIOp::create(b, loc, running, *c).getResult() : *c;
  }
  for (int k = 0; k < carried; ++k)
    setOutput(k, state[k]);
  for (int k = 0; k < scans; ++k)
    if (failed(stackOutputs(std::move(scanned[k]), 0, carried + k)))
      return failure();
  return success();
}

LogicalResult Importer::importScan() {
  if (failed(checkAttrs({"body", "num_scan_inputs", "scan_input_axes",
                         "scan_input_directions", "scan_output_axes",
                         "scan_output_directions"})))
    return failure();
  if (opset < 9)
    return fail("Scan before opset 9 (with a batch axis) is not supported");
  const onnx::GraphProto *body = attrGraph("body");
  auto numScanInputs = attrInt("num_scan_inputs");
  if (!body || !numScanInputs)
    return fail("Scan needs a body and num_scan_inputs");
  int64_t m = *numScanInputs;
  int64_t states = node->input_size() - m;
  if (m < 1 || states < 0)
    return fail("num_scan_inputs = " + Twine(m) + " must lie in [1, " +
                Twine(node->input_size()) + "], the number of inputs");
  int64_t scans = node->output_size() - states;
  if (scans < 0 || body->input_size() != states + m ||
      body->output_size() != states + scans)
    return fail("the body has " + Twine(body->input_size()) + " inputs and " +
                Twine(body->output_size()) + " outputs; the node needs " +
                Twine(states + m) + " and " + Twine(node->output_size()));
  auto listOr = [&](StringRef name, int64_t count,
                    int64_t fill) -> FailureOr<std::vector<int64_t>> {
    auto v = attrInts(name).value_or(std::vector<int64_t>(count, fill));
    if (int64_t(v.size()) != count)
      return fail(name + " has " + Twine(v.size()) + " entries, expected " +
                  Twine(count));
    for (int64_t d : v)
      if (name.ends_with("directions") && d != 0 && d != 1)
        return fail(name + " holds " + Twine(d) + "; a direction is 0 or 1");
    return v;
  };
  auto inAxes = listOr("scan_input_axes", m, 0);
  auto inDirs = failed(inAxes) ? inAxes : listOr("scan_input_directions", m, 0);
  auto outAxes = failed(inDirs) ? inDirs : listOr("scan_output_axes", scans, 0);
  auto outDirs =
      failed(outAxes) ? outAxes : listOr("scan_output_directions", scans, 0);
  if (failed(outDirs))
    return failure();

  std::vector<ImportedValue> state;
  for (int64_t k = 0; k < states; ++k) {
    auto v = input(k);
    if (failed(v))
      return failure();
    state.push_back(**v);
  }
  // The sequence: every scan input's length along its axis, all equal.
  std::optional<int64_t> length;
  std::vector<int64_t> axes;
  for (int64_t k = 0; k < m; ++k) {
    auto v = input(states + k);
    if (failed(v))
      return failure();
    auto axis = normalizedAxis((*inAxes)[k], (*v)->shape.size());
    if (failed(axis))
      return failure();
    axes.push_back(*axis);
    int64_t len = (*v)->shape[*axis];
    if (length && len != *length)
      return fail("scan inputs of lengths " + Twine(*length) + " and " +
                  Twine(len));
    length = len;
  }

  std::vector<std::vector<ImportedValue>> scanned(scans);
  Expansion e(*this, *node);
  for (int64_t t = 0; t < *length; ++t) {
    // Each scan input's slice at this step: a Gather of a scalar index.
    std::vector<ImportedValue> in = state;
    for (int64_t k = 0; k < m; ++k) {
      int64_t at = (*inDirs)[k] ? *length - 1 - t : t;
      std::string slice = e.fresh("slice");
      Expansion::setInt(e.add("Gather",
                              {node->input(states + k),
                               e.bind("step", int64Constant({}, {at}))},
                              slice),
                        "axis", axes[k]);
      if (failed(importExpansion(*node, {e.nodes.back()})))
        return failure();
      in.push_back(values[slice]);
    }
    auto out = importSubgraph(*body, in, "body");
    if (failed(out))
      return failure();
    state.assign(out->begin(), out->begin() + states);
    for (int64_t k = 0; k < scans; ++k)
      scanned[k].push_back((*out)[states + k]);
  }
  for (int64_t k = 0; k < states; ++k)
    setOutput(k, state[k]);
  for (int64_t k = 0; k < scans; ++k) {
    if ((*outDirs)[k])
      std::reverse(scanned[k].begin(), scanned[k].end());
    if (failed(stackOutputs(std::move(scanned[k]), (*outAxes)[k], states + k)))
      return failure();
  }
  return success();
}
