//===- Selection.cpp - NonZero, Compress, ScatterElements -----------------===//
//
// Ops whose result depends on which elements of a tensor are set. The
// compiled code has static shapes, so NonZero and Compress need that
// tensor at compile time (exporters write them over constant masks); then
// NonZero folds and Compress is the Gather of the positions it keeps (a
// run-time mask is diagnosed: the result's shape would only be known at run
// time). ScatterElements is the ScatterND of the index tuples it names (one
// per element of `indices`: its own position with the coordinate along
// `axis` replaced by the index), built at import for compile-time indices
// and concatenated from the indices and coordinate grids for run-time ones.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

/// How many elements the compile-time tables below may hold.
static constexpr int64_t kMaxFolded = int64_t(1) << 22;

/// Element `n` of compile-time data is set (nonzero; a NaN counts).
static bool isSet(const ImportedValue &v, int64_t n) {
  return v.f.empty() ? v.i[n] != 0 : v.f[n] != 0.0;
}

LogicalResult Importer::importNonZero() {
  if (failed(checkAttrs({})))
    return failure();
  auto in = input(0);
  if (failed(in))
    return failure();
  const ImportedValue &x = **in;
  if (x.kind != Kind::Const)
    return fail("NonZero needs compile-time data (its result's shape depends "
                "on the values)");
  int64_t rank = std::max<int64_t>(x.shape.size(), 1);
  int64_t count = x.numElements();
  if (count > kMaxFolded)
    return fail("more than " + Twine(kMaxFolded) +
                " elements (NonZero folds at import)");
  std::vector<int64_t> hits;
  for (int64_t n = 0; n < count; ++n)
    if (isSet(x, n))
      hits.push_back(n);
  if (hits.empty())
    return fail("no element is nonzero: an empty result is not supported");
  // Row d holds coordinate d of each hit, in row-major order.
  std::vector<int64_t> coords(rank * hits.size(), 0);
  for (auto [h, flat] : llvm::enumerate(hits)) {
    int64_t rest = flat;
    for (int64_t d = int64_t(x.shape.size()) - 1; d >= 0; --d) {
      coords[d * hits.size() + h] = rest % x.shape[d];
      rest /= x.shape[d];
    }
  }
  setOutput(0, int64Constant({rank, int64_t(hits.size())}, std::move(coords)));
  return success();
}

LogicalResult Importer::importCompress() {
  if (failed(checkAttrs({"axis"})))
    return failure();
  auto in = input(0);
  auto condIn = failed(in) ? in : input(1);
  if (failed(condIn))
    return failure();
  const ImportedValue &x = **in;
  const ImportedValue &cond = **condIn;
  if (cond.kind != Kind::Const)
    return fail("Compress needs a compile-time condition (its result's shape "
                "depends on it)");
  if (cond.shape.size() != 1)
    return fail("the condition must be 1-D");
  std::optional<int64_t> axis;
  int64_t length = x.numElements();
  if (auto a = attrInt("axis")) {
    auto normalized = normalizedAxis(*a, x.shape.size());
    if (failed(normalized))
      return failure();
    axis = *normalized;
    length = x.shape[*axis];
  }
  if (cond.shape[0] > length)
    return fail("the condition has " + Twine(cond.shape[0]) +
                " elements, more than the " + Twine(length) +
                " it selects from");
  std::vector<int64_t> kept;
  for (int64_t n = 0; n < cond.shape[0]; ++n)
    if (isSet(cond, n))
      kept.push_back(n);
  if (kept.empty())
    return fail("the condition keeps no element: an empty result is not "
                "supported");
  // Without an axis, Compress selects from the flattened input.
  Expansion e(*this, *node);
  std::string source = node->input(0);
  if (!axis) {
    source = e.fresh("flat");
    e.add("Reshape", {node->input(0), e.constInts("shape", {-1})}, source);
  }
  Expansion::setInt(
      e.add("Gather", {source, e.constInts("kept", kept)}, node->output(0)),
      "axis", axis.value_or(0));
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importScatterElements() {
  if (failed(checkAttrs({"axis", "reduction"})))
    return failure();
  auto dataIn = input(0);
  auto idxIn = failed(dataIn) ? dataIn : input(1);
  auto updIn = failed(idxIn) ? idxIn : input(2);
  if (failed(updIn))
    return failure();
  const ImportedValue &data = **dataIn;
  const ImportedValue &indices = **idxIn;
  const ImportedValue &updates = **updIn;
  bool runTime = indices.kind == Kind::Int;
  if (runTime && indices.dtype != onnx::TensorProto::INT64 &&
      indices.dtype != onnx::TensorProto::INT32)
    return fail(node->op_type() + " needs int32 or int64 indices");
  if (!runTime && (indices.kind != Kind::Const || !indices.f.empty()))
    return fail(node->op_type() + " needs int32 or int64 indices");
  int64_t rank = data.shape.size();
  if (rank == 0)
    return fail(node->op_type() + " into a scalar");
  if (int64_t(indices.shape.size()) != rank || updates.shape != indices.shape)
    return fail("the indices and the updates must have one shape, of the "
                "data's rank");
  auto normalized = normalizedAxis(attrInt("axis").value_or(0), rank);
  if (failed(normalized) ||
      failed(checkElementIndices(*this, indices.shape, data.shape,
                                 *normalized)))
    return failure();
  int64_t axis = *normalized;
  int64_t count = indices.numElements();
  if (count > kMaxFolded / rank)
    return fail("more than " + Twine(kMaxFolded) +
                " index coordinates (the scatter is built at import)");
  // The ScatterND tuples: each element's position, its coordinate along
  // `axis` replaced by the index (ScatterND checks and wraps it).
  SmallVector<int64_t> tableShape = indices.shape;
  tableShape.push_back(rank);
  Expansion e(*this, *node);
  std::string tuples;
  if (!runTime) {
    std::vector<int64_t> table(count * rank);
    for (int64_t n = 0; n < count; ++n) {
      int64_t rest = n;
      for (int64_t d = rank - 1; d >= 0; --d) {
        table[n * rank + d] =
            d == axis ? indices.i[n] : rest % indices.shape[d];
        rest /= indices.shape[d];
      }
    }
    tuples = e.bind("tuples", int64Constant(tableShape, std::move(table)));
  } else {
    // Run-time indices: the same tuples concatenated from the indices (as
    // int64) and compile-time coordinate grids along the other axes.
    SmallVector<int64_t> column = indices.shape;
    column.push_back(1);
    std::vector<std::string> columns;
    for (int64_t d = 0; d < rank; ++d) {
      if (d == axis) {
        std::string wide = e.fresh("indices");
        Expansion::setInt(e.add("Cast", {node->input(1)}, wide), "to",
                          onnx::TensorProto::INT64);
        columns.push_back(e.reshape(wide, column));
        continue;
      }
      std::vector<int64_t> grid(count);
      int64_t inner = 1;
      for (int64_t j = d + 1; j < rank; ++j)
        inner *= indices.shape[j];
      for (int64_t n = 0; n < count; ++n)
        grid[n] = (n / inner) % indices.shape[d];
      columns.push_back(
          e.bind("coordinates", int64Constant(column, std::move(grid))));
    }
    tuples = e.fresh("tuples");
    Expansion::setInt(e.add("Concat", columns, tuples), "axis", rank);
  }
  onnx::NodeProto &scatter = e.add(
      "ScatterND", {node->input(0), tuples, node->input(2)}, node->output(0));
  e.copyAttr(scatter, "reduction");
  return importExpansion(*node, e.nodes);
}
