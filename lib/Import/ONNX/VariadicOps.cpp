//===- VariadicOps.cpp - Sum, Mean, Max and Min of any number of inputs ---===//
//
// ONNX's variadic elementwise ops, as the chain of binary nodes ONNX Runtime
// evaluates: ((x0 op x1) op x2) ..., each step broadcasting as numpy does;
// Mean divides that sum by the input count. Written as standard nodes
// (Expansion.h), so quantized operands, float islands and compile-time data
// take the paths Add, Max, Min and Div take. One input is the input itself.
//
//===----------------------------------------------------------------------===//

#include "Expansion.h"
#include "Importer.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

LogicalResult Importer::importVariadic() {
  if (failed(checkAttrs({})))
    return failure();
  const onnx::NodeProto &n = *node;
  StringRef op = n.op_type();
  if (n.input_size() < 1)
    return fail(op + " needs at least one input");
  for (int i = 0; i < n.input_size(); ++i)
    if (n.input(i).empty())
      return fail("input " + Twine(i) + " is missing");
  if (n.input_size() == 1)
    return importIdentity();
  bool isMean = op == "Mean";
  StringRef binary = op == "Sum" || isMean ? "Add" : op;
  Expansion e(*this, n);
  std::string acc = n.input(0);
  for (int i = 1; i < n.input_size(); ++i) {
    bool last = i + 1 == n.input_size() && !isMean;
    std::string out = last ? n.output(0) : e.fresh(binary);
    e.add(binary, {acc, n.input(i)}, out);
    acc = out;
  }
  if (isMean) {
    // The count as an f32 scalar (rank 0: it broadcasts to any shape).
    ImportedValue count;
    count.kind = Kind::Const;
    count.dtype = onnx::TensorProto::FLOAT;
    count.f = {double(n.input_size())};
    e.add("Div", {acc, e.bind("count", std::move(count))}, n.output(0));
  }
  return importExpansion(n, e.nodes);
}
