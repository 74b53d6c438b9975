//===- ComposedOps.cpp - ops imported as the nodes they are made of -------===//
//
// Ops that ONNX (or ONNX Runtime) defines through other ops, imported as
// those nodes (Expansion.h), so they share their rules and diagnostics:
//
// - MeanVarianceNormalization: ONNX's function body, step by step.
// - LpNormalization (p = 1 or 2): ONNX Runtime's kernel, which ONNX's
//   reference does not match (it drops the absolute value for p = 1 and
//   divides 0 by 0): a zero norm gives zeros, and finite inputs are first
//   divided by the largest magnitude so that the norm cannot overflow or
//   underflow; an infinity or a NaN divides by the plain norm.
// - Hardmax: the OneHot of the ArgMax (the first maximum), over the axis
//   from opset 13, over the input flattened to 2-D at the axis before.
// - GlobalLpPool: the p-norm over the spatial axes (ReduceL1, ReduceL2, or
//   Pow of the ReduceSum of Pow of Abs for another p); LpPool: ONNX's
//   reference, the kernel size times the AveragePool (padding counted) of
//   |x|^p, to the power 1 / p.
// - ReverseSequence with compile-time lengths: a GatherElements along the
//   time axis whose indices reverse each batch entry's first `len` steps.
// - GroupNormalization: InstanceNormalization of the input reshaped to
//   [N, groups, -1], reshaped back, times the scale plus the bias (one per
//   group in opsets 18-20, one per channel from opset 21), as ONNX's
//   function body computes it.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importMeanVarianceNormalization() {
  if (failed(checkAttrs({"axes"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  std::vector<int64_t> axes =
      attrInts("axes").value_or(std::vector<int64_t>{0, 2, 3});
  Expansion e(*this, *node);
  std::string in = node->input(0), two = e.scalar(2.0f);
  std::string mean = e.reduce("ReduceMean", in, axes);
  std::string meanSquared = e.op("Pow", {mean, two});
  std::string squares = e.op("Pow", {in, two});
  std::string meanOfSquares = e.reduce("ReduceMean", squares, axes);
  std::string variance = e.op("Sub", {meanOfSquares, meanSquared});
  std::string deviation = e.op("Sqrt", {variance});
  std::string centered = e.op("Sub", {in, mean});
  std::string denominator = e.op("Add", {deviation, e.scalar(1e-9f)});
  e.op("Div", {centered, denominator}, node->output(0));
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importLpNormalization() {
  if (failed(checkAttrs({"axis", "p"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  int64_t p = attrInt("p").value_or(2);
  if (p != 1 && p != 2)
    return fail("p = " + Twine(p) + " (ONNX allows 1 and 2)");
  auto axis = normalizedAxis(attrInt("axis").value_or(-1), (*x)->shape.size());
  if (failed(axis))
    return failure();
  Expansion e(*this, *node);
  StringRef norm = p == 1 ? "ReduceL1" : "ReduceL2";
  std::string in = node->input(0), zero = e.scalar(0.0f);
  std::string scale = e.reduce("ReduceMax", e.op("Abs", {in}), {*axis});
  std::string scaled = e.op("Div", {in, scale});
  std::string viaScale = e.op("Div", {scaled, e.reduce(norm, scaled, {*axis})});
  std::string direct = e.op("Div", {in, e.reduce(norm, in, {*axis})});
  std::string nonFinite =
      e.op("Or", {e.op("IsInf", {scale}), e.op("IsNaN", {scale})});
  std::string normalized = e.op("Where", {nonFinite, direct, viaScale});
  e.op("Where", {e.op("Equal", {scale, zero}), zero, normalized},
       node->output(0));
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importHardmax() {
  if (failed(checkAttrs({"axis"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  SmallVector<int64_t> shape = (*x)->shape;
  int64_t rank = shape.size();
  auto axis =
      normalizedAxis(attrInt("axis").value_or(opset >= 13 ? -1 : 1), rank);
  if (failed(axis))
    return failure();
  Expansion e(*this, *node);
  std::string in = node->input(0);
  int64_t along = *axis;
  if (opset < 13) {
    // Hardmax-1 / -11: over the input coerced to [outer, inner] at axis.
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < rank; ++d)
      (d < *axis ? outer : inner) *= shape[d];
    in = e.op("Reshape", {in, e.constInts("shape", {outer, inner})});
    shape = {outer, inner};
    along = 1;
  }
  std::string argmax = e.fresh("argmax");
  onnx::NodeProto &am = e.add("ArgMax", {in}, argmax);
  Expansion::setInt(am, "axis", along);
  Expansion::setInt(am, "keepdims", 0);
  bool reshapeBack = opset < 13;
  std::string hot = reshapeBack ? e.fresh("onehot") : node->output(0);
  Expansion::setInt(e.add("OneHot",
                          {argmax, e.constInts("depth", {shape[along]}),
                           e.constFloats("values", {0.0, 1.0})},
                          hot),
                    "axis", along);
  if (reshapeBack)
    e.op("Reshape", {hot, e.constInts("shape", (*x)->shape)}, node->output(0));
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importGlobalLpPool() {
  if (failed(checkAttrs({"p"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  int64_t rank = (*x)->shape.size();
  if (rank < 3)
    return fail("GlobalLpPool needs an input of rank 3 or more (N, C, ...)");
  int64_t p = attrInt("p").value_or(2);
  if (p < 1)
    return fail("p = " + Twine(p) + " must be positive");
  std::vector<int64_t> spatial;
  for (int64_t d = 2; d < rank; ++d)
    spatial.push_back(d);
  Expansion e(*this, *node);
  std::string in = node->input(0), out = node->output(0);
  if (p == 1 || p == 2) {
    e.reduce(p == 1 ? "ReduceL1" : "ReduceL2", in, spatial, true, out);
  } else {
    std::string powered = e.op("Pow", {e.op("Abs", {in}), e.scalar(float(p))});
    e.op("Pow",
         {e.reduce("ReduceSum", powered, spatial),
          e.scalar(float(1.0 / double(p)))},
         out);
  }
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importLpPool() {
  if (failed(checkAttrs({"auto_pad", "ceil_mode", "dilations", "kernel_shape",
                         "p", "pads", "strides"})))
    return failure();
  auto x = input(0);
  if (failed(x))
    return failure();
  int64_t p = attrInt("p").value_or(2);
  if (p < 1)
    return fail("p = " + Twine(p) + " must be positive");
  // The partial last window of ceil_mode would count only its inside
  // positions in the average below, not the kernel's.
  if (attrInt("ceil_mode").value_or(0) != 0)
    return fail("ceil_mode = 1 is not supported");
  // AveragePool takes dilations only from opset 19.
  if (auto d = attrInts("dilations");
      d && llvm::any_of(*d, [](int64_t v) { return v != 1; }))
    return fail("dilations other than 1 are not supported");
  auto kernel = attrInts("kernel_shape");
  if (!kernel)
    return fail("the required attribute 'kernel_shape' is missing");
  int64_t count = 1;
  for (int64_t k : *kernel) {
    if (k <= 0 || k > (int64_t(1) << 16))
      return fail("kernel_shape values must be in [1, 2^16]");
    count *= k;
  }
  // ONNX's reference: kernel size * AveragePool(|x|^p, count_include_pad =
  // 1), then ^(1 / p).
  Expansion e(*this, *node);
  std::string in = node->input(0);
  std::string powered =
      p == 1 ? e.op("Abs", {in})
             : e.op("Pow", {e.op("Abs", {in}), e.scalar(float(p))});
  std::string average = e.fresh("average");
  onnx::NodeProto &pool = e.add("AveragePool", {powered}, average);
  for (StringRef name : {"auto_pad", "kernel_shape", "pads", "strides"})
    e.copyAttr(pool, name);
  Expansion::setInt(pool, "count_include_pad", 1);
  std::string sum = e.op("Mul", {average, e.scalar(float(count))},
                         p == 1 ? node->output(0) : std::string());
  if (p != 1)
    e.op("Pow", {sum, e.scalar(float(1.0 / double(p)))}, node->output(0));
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importReverseSequence() {
  if (failed(checkAttrs({"batch_axis", "time_axis"})))
    return failure();
  auto x = input(0);
  auto lensIn = failed(x) ? x : input(1);
  if (failed(lensIn))
    return failure();
  const std::vector<int64_t> shape((*x)->shape.begin(), (*x)->shape.end());
  const ImportedValue &lens = **lensIn;
  if (shape.size() < 2)
    return fail("ReverseSequence needs an input of rank 2 or more");
  int64_t batchAxis = attrInt("batch_axis").value_or(1);
  int64_t timeAxis = attrInt("time_axis").value_or(0);
  if (!((batchAxis == 0 && timeAxis == 1) || (batchAxis == 1 && timeAxis == 0)))
    return fail("batch_axis and time_axis must be 0 and 1, in either order");
  if (lens.kind != Kind::Const || !lens.f.empty())
    return fail("ReverseSequence needs compile-time sequence_lens");
  int64_t batch = shape[batchAxis], steps = shape[timeAxis];
  if (lens.shape.size() != 1 || lens.shape[0] != batch)
    return fail("sequence_lens must hold one length per batch entry (" +
                Twine(batch) + ")");
  for (int64_t len : lens.i)
    if (len < 0 || len > steps)
      return fail("sequence length " + Twine(len) + " outside [0, " +
                  Twine(steps) + "]");
  int64_t count = (*x)->numElements();
  constexpr int64_t kMaxIndices = int64_t(1) << 22;
  if (count > kMaxIndices)
    return fail("more than " + Twine(kMaxIndices) +
                " elements (the index table is built at import)");
  // Index of each element along the time axis: the first len steps of its
  // batch entry reversed, the rest in place.
  std::vector<int64_t> index(count);
  int64_t inner = count / (shape[0] * shape[1]);
  for (int64_t n = 0; n < count; ++n) {
    int64_t outerPos = n / inner;
    int64_t t = timeAxis == 0 ? outerPos / shape[1] : outerPos % shape[1];
    int64_t b = batchAxis == 0 ? outerPos / shape[1] : outerPos % shape[1];
    int64_t len = lens.i[b];
    index[n] = t < len ? len - 1 - t : t;
  }
  Expansion e(*this, *node);
  Expansion::setInt(
      e.add("GatherElements",
            {node->input(0),
             e.bind("reversed", int64Constant(shape, std::move(index)))},
            node->output(0)),
      "axis", timeAxis);
  return importExpansion(*node, e.nodes);
}

LogicalResult Importer::importGroupNormalization() {
  if (failed(checkAttrs({"epsilon", "num_groups", "stash_type"})))
    return failure();
  if (attrInt("stash_type").value_or(1) != 1)
    return fail("stash_type must be 1 (float)");
  auto x = input(0);
  auto scaleIn = failed(x) ? x : input(1);
  auto biasIn = failed(scaleIn) ? scaleIn : input(2);
  if (failed(biasIn))
    return failure();
  SmallVector<int64_t> shape = (*x)->shape;
  int64_t rank = shape.size();
  auto groups = attrInt("num_groups");
  if (!groups)
    return fail("num_groups is required");
  if (rank < 3)
    return fail("GroupNormalization needs an input of rank 3 or more");
  int64_t channels = shape[1];
  if (*groups < 1 || channels % *groups != 0)
    return fail("num_groups = " + Twine(*groups) + " does not divide the " +
                Twine(channels) + " channels");
  // One scale and bias per group before opset 21, per channel from it.
  bool perGroup = opset < 21;
  int64_t expected = perGroup ? *groups : channels;
  std::vector<double> perChannel[2];
  ImportedValue *params[] = {*scaleIn, *biasIn};
  for (auto [k, v] : llvm::enumerate(params)) {
    if (v->kind != Kind::Const || v->f.empty() ||
        v->shape != SmallVector<int64_t>{expected})
      return fail("scale and bias must be compile-time floats, one per " +
                  Twine(perGroup ? "group" : "channel") + " (" +
                  Twine(expected) + ")");
    for (int64_t c = 0; c < channels; ++c)
      perChannel[k].push_back(v->f[perGroup ? c / (channels / *groups) : c]);
  }
  Expansion e(*this, *node);
  float epsilon = attrFloat("epsilon").value_or(1e-5f);
  std::string grouped =
      e.op("Reshape",
           {node->input(0), e.constInts("shape", {shape[0], *groups, -1})});
  std::string normalized = e.fresh("normalized");
  onnx::NodeProto &in =
      e.add("InstanceNormalization",
            {grouped, e.constFloats("ones", std::vector<double>(*groups, 1.0)),
             e.constFloats("zeros", std::vector<double>(*groups, 0.0))},
            normalized);
  Expansion::setFloat(in, "epsilon", epsilon);
  std::string back = e.op("Reshape", {normalized, e.constInts("shape", shape)});
  // [C, 1, ...]: broadcast along the channel axis of [N, C, ...].
  SmallVector<int64_t> channelShape(rank - 1, 1);
  channelShape[0] = channels;
  auto channelConstant = [&](StringRef what, ArrayRef<double> values) {
    ImportedValue c;
    c.kind = Kind::Const;
    c.f.assign(values.begin(), values.end());
    c.shape = channelShape;
    return e.bind(what, std::move(c));
  };
  e.op("Add",
       {e.op("Mul", {back, channelConstant("scale", perChannel[0])}),
        channelConstant("bias", perChannel[1])},
       node->output(0));
  return importExpansion(*node, e.nodes);
}
