//===- Expansion.h - a node as the standard nodes it stands for -*- C++ -*-===//
//
// Private to lib/Import/ONNX. Some ops are defined as a small graph of
// other ops (ONNX Runtime's QOperator ops as DequantizeLinear, the float op
// and QuantizeLinear; DepthToSpace as Reshape, Transpose, Reshape). The
// importer builds those nodes and imports them in place of the original,
// so both forms become the same IR and get the same diagnostics, which name
// the original node.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_IMPORT_ONNX_EXPANSION_H
#define QUANTOPT_LIB_IMPORT_ONNX_EXPANSION_H

#include "Importer.h"

#include "llvm/ADT/Twine.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include <optional>

#include <string>
#include <vector>

namespace quantopt::onnx_import::detail {

/// Builds the standard-domain nodes a node stands for (a com.microsoft
/// QOperator op, DepthToSpace, ...), for Importer::importExpansion.
class Expansion {
public:
  Expansion(Importer &im, const onnx::NodeProto &n) : im(im), n(n) {}

  bool has(int idx) const {
    return idx < n.input_size() && !n.input(idx).empty();
  }

  /// A fresh value name derived from the node's first output, never one
  /// the graph itself uses (or this import made): the expansion's values
  /// share the table of the graph's names.
  std::string fresh(llvm::StringRef what) {
    std::string name;
    do
      name =
          (n.output(0) + "/qnt." + what + "." + llvm::Twine(counter++)).str();
    while (im.graphNames.contains(name) || im.values.count(name));
    return name;
  }

  onnx::NodeProto &add(llvm::StringRef opType,
                       llvm::ArrayRef<std::string> inputs, std::string output) {
    onnx::NodeProto &node = nodes.emplace_back();
    node.set_name(n.name());
    node.set_op_type(opType.str());
    for (const std::string &in : inputs)
      node.add_input(in);
    node.add_output(std::move(output));
    return node;
  }

  /// DequantizeLinear of input `x` with scale `s` and zero point `z` (absent:
  /// zero of x's type); `axis` for a per-axis scale.
  std::string dequantize(int x, int s, int z,
                         std::optional<int64_t> axis = {}) {
    std::vector<std::string> in = {n.input(x), n.input(s)};
    if (has(z))
      in.push_back(n.input(z));
    std::string out = fresh("dq");
    onnx::NodeProto &node = add("DequantizeLinear", in, out);
    if (axis)
      setInt(node, "axis", *axis);
    return out;
  }

  /// QuantizeLinear of `src` into the node's output 0 with scale input `s`
  /// and zero point input `z`. Without `z` the output has the element type
  /// of input `like` (the com.microsoft ops keep their input's type, where a
  /// standard QuantizeLinear would default to uint8).
  mlir::LogicalResult quantize(const std::string &src, int s, int z, int like) {
    std::string zp;
    if (has(z)) {
      zp = n.input(z);
    } else {
      auto v = im.input(like);
      if (mlir::failed(v))
        return mlir::failure();
      ImportedValue zero;
      zero.kind = Kind::Const;
      zero.dtype = (*v)->isQuantized() ? codeElementType((*v)->q) : (*v)->dtype;
      zero.i = {0};
      zp = fresh("zero_point");
      im.values[zp] = std::move(zero);
    }
    add("QuantizeLinear", {src, n.input(s), zp}, n.output(0));
    return mlir::success();
  }

  /// A node `type` of `inputs` into `out` (a fresh name when empty); its
  /// output name.
  std::string op(llvm::StringRef type, llvm::ArrayRef<std::string> inputs,
                 std::string out = {}) {
    if (out.empty())
      out = fresh(type.lower());
    add(type, inputs, out);
    return out;
  }

  /// A Reduce* node over `axes`, written as the opset wants them (an
  /// attribute, or an input from opset 18; ReduceSum from 13).
  std::string reduce(llvm::StringRef type, const std::string &x,
                     llvm::ArrayRef<int64_t> axes, bool keepdims = true,
                     std::string out = {}) {
    if (out.empty())
      out = fresh(type.lower());
    onnx::NodeProto &node = add(type, {x}, out);
    addInts(node, "axes", axes, reduceAxesInputOpset(type));
    setInt(node, "keepdims", keepdims);
    return out;
  }

  std::string scalar(float v) { return constFloats("c", {v}); }

  std::string reshape(const std::string &x, llvm::ArrayRef<int64_t> shape) {
    return op("Reshape", {x, constInts("shape", shape)});
  }

  std::string transpose(const std::string &x, llvm::ArrayRef<int64_t> perm) {
    std::string out = fresh("transpose");
    setInts(add("Transpose", {x}, out), "perm", perm);
    return out;
  }

  /// x[..., begin:end] along `axis` (Slice takes inputs from opset 10).
  std::string slice(const std::string &x, int64_t axis, int64_t begin,
                    int64_t end) {
    return op("Slice", {x, constInts("starts", {begin}),
                        constInts("ends", {end}), constInts("axes", {axis})});
  }

  /// A fresh compile-time int32 tensor (an operand for int32 masks).
  std::string int32s(llvm::ArrayRef<int64_t> shape,
                     std::vector<int64_t> values) {
    ImportedValue c = int64Constant(shape, std::move(values));
    c.dtype = onnx::TensorProto::INT32;
    return bind("int32", std::move(c));
  }

  /// A compile-time int32 table of `shape` holding `f(row, col)` over its
  /// last two dimensions, `rows` x `cols` (the others 1).
  std::string int32Table(llvm::ArrayRef<int64_t> shape, int64_t rows,
                         int64_t cols,
                         llvm::function_ref<int64_t(int64_t, int64_t)> f) {
    std::vector<int64_t> values;
    values.reserve(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c)
        values.push_back(f(r, c));
    return int32s(shape, std::move(values));
  }

  /// The same with booleans (a mask).
  std::string boolTable(llvm::ArrayRef<int64_t> shape, int64_t rows,
                        int64_t cols,
                        llvm::function_ref<bool(int64_t, int64_t)> f) {
    ImportedValue c;
    c.kind = Kind::Const;
    c.dtype = onnx::TensorProto::BOOL;
    c.shape.assign(shape.begin(), shape.end());
    c.i.reserve(rows * cols);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t col = 0; col < cols; ++col)
        c.i.push_back(f(r, col));
    return bind("mask", std::move(c));
  }

  /// The node's output `idx` when it names one, else a fresh name.
  std::string outputOr(int idx, llvm::StringRef what) {
    if (idx < n.output_size() && !n.output(idx).empty())
      return n.output(idx);
    return fresh(what);
  }

  /// A fresh value holding the int64 vector `v` (a Reshape's shape, axes).
  std::string constInts(llvm::StringRef what, llvm::ArrayRef<int64_t> v) {
    return bind(what, int64Constant({int64_t(v.size())},
                                    std::vector<int64_t>(v.begin(), v.end())));
  }

  /// `v` (axes, split sizes) as `node`'s input after its data from opset
  /// `inputSince`, as its attribute `name` before: where ONNX moved them.
  void addInts(onnx::NodeProto &node, llvm::StringRef name,
               llvm::ArrayRef<int64_t> v, int64_t inputSince) {
    if (im.opset >= inputSince)
      node.add_input(constInts(name, v));
    else
      setInts(node, name, v);
  }

  /// A fresh value holding the float vector `v` (Resize's scales).
  std::string constFloats(llvm::StringRef what, llvm::ArrayRef<double> v) {
    ImportedValue c;
    c.kind = Kind::Const;
    c.f.assign(v.begin(), v.end());
    c.shape = {int64_t(v.size())};
    return bind(what, std::move(c));
  }

  /// A fresh value name bound to `c`.
  std::string bind(llvm::StringRef what, ImportedValue c) {
    std::string name = fresh(what);
    im.values[name] = std::move(c);
    return name;
  }

  /// Copies the node's attribute `name`, if present, to `node`.
  void copyAttr(onnx::NodeProto &node, llvm::StringRef name) const {
    for (const auto &a : n.attribute())
      if (a.name() == name)
        *node.add_attribute() = a;
  }

  static void setInt(onnx::NodeProto &node, llvm::StringRef name, int64_t v) {
    onnx::AttributeProto *a = node.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::INT);
    a->set_i(v);
  }

  static void setFloat(onnx::NodeProto &node, llvm::StringRef name, float v) {
    onnx::AttributeProto *a = node.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::FLOAT);
    a->set_f(v);
  }

  static void setInts(onnx::NodeProto &node, llvm::StringRef name,
                      llvm::ArrayRef<int64_t> v) {
    onnx::AttributeProto *a = node.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t x : v)
      a->add_ints(x);
  }

  static void setString(onnx::NodeProto &node, llvm::StringRef name,
                        llvm::StringRef v) {
    onnx::AttributeProto *a = node.add_attribute();
    a->set_name(name.str());
    a->set_type(onnx::AttributeProto::STRING);
    a->set_s(v.str());
  }

  Importer &im;
  const onnx::NodeProto &n;
  std::vector<onnx::NodeProto> nodes;
  unsigned counter = 0;
};

/// (A - a_zp) (B - b_zp) * a_scale * b_scale (+ bias) into `out`, as ONNX
/// Runtime's dynamic quantization writes it with standard ops:
/// MatMulInteger, Cast to float, Mul by the scales' product, Add. Empty
/// names are absent optional inputs (MicrosoftOps.cpp).
void addIntegerMatmulToFloat(Expansion &e, const std::string &a,
                             const std::string &b, const std::string &aScale,
                             const std::string &bScale,
                             const std::string &aZero, const std::string &bZero,
                             const std::string &bias, const std::string &out);

/// com.microsoft RotaryEmbedding as the Gather, Mul, Sub / Add and Concat
/// nodes of ONNX Runtime's kernel (RotaryEmbedding.cpp; one of the
/// transformer ops of TransformerOps.cpp).
mlir::LogicalResult expandRotaryEmbedding(Importer &im, Expansion &e);

/// com.microsoft MatMulNBits as a float MatMul of its weights dequantized at
/// import (MatMulNBits.cpp; one of the transformer ops).
mlir::LogicalResult expandMatMulNBits(Importer &im, Expansion &e);

/// com.microsoft GroupQueryAttention as the nodes of ONNX Runtime's CPU
/// kernel (GroupQueryAttention.cpp; one of the transformer ops).
mlir::LogicalResult expandGroupQueryAttention(Importer &im, Expansion &e);

/// x / sqrt(mean(x^2 over `axes`) + epsilon) * gamma into `out`: the
/// function body of ONNX's RMSNormalization (TransformerOps.cpp).
void rmsNormalize(Expansion &e, const std::string &x, const std::string &gamma,
                  llvm::ArrayRef<int64_t> axes, float epsilon,
                  const std::string &out);

} // namespace quantopt::onnx_import::detail

#endif // QUANTOPT_LIB_IMPORT_ONNX_EXPANSION_H
