//===- ModelImporter.cpp - parse, check and import an ONNX model ----------===//
//
// The library's entry point. Parsing and the ONNX checker run here; the
// checker reports through C++ exceptions, so this one file is built with
// -fexceptions and turns them into diagnostics: a bad file never crashes.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Import/ONNX/ModelImporter.h"
#include "Importer.h"

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Quant/IR/Quant.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"

#include <onnx/checker.h>

#include "llvm/ADT/StringSwitch.h"

#include <exception>
#include <stdexcept>

using namespace mlir;
using namespace quantopt::onnx_import;

bool quantopt::onnx_import::parseInputShape(StringRef spec,
                                            ImportOptions &options,
                                            std::string &error) {
  auto [name, dims] = spec.rsplit('=');
  if (name.empty() || dims.empty()) {
    error = "expected NAME=D0xD1x..., got '" + spec.str() + "'";
    return false;
  }
  SmallVector<StringRef> parts;
  dims.split(parts, 'x');
  SmallVector<int64_t> shape;
  for (StringRef p : parts) {
    int64_t d;
    if (p.getAsInteger(10, d) || d <= 0 || d > (int64_t(1) << 31)) {
      error = "bad dimension '" + p.str() + "' in '" + spec.str() + "'";
      return false;
    }
    shape.push_back(d);
  }
  options.inputShapes[name] = shape;
  return true;
}

void quantopt::onnx_import::registerImportDialects(DialectRegistry &registry) {
  registry.insert<arith::ArithDialect, func::FuncDialect, linalg::LinalgDialect,
                  math::MathDialect, quant::QuantDialect, scf::SCFDialect,
                  tensor::TensorDialect, qnt::QntDialect>();
}

namespace {
/// A standard op whose inputs or attributes changed (or that appeared) in
/// `opset`, after ONNX 1.12's newest opset 17. Changes of the element types
/// alone (float8 in 19, int4 in 21, bfloat16 in 22) are left out: the
/// older schema checks such a node's structure as well.
struct SchemaChange {
  llvm::StringLiteral op;
  int opset;
};
} // namespace

static constexpr SchemaChange kSchemaChanges[] = {
    // Opset 18: axes as an input, num_outputs, Resize's antialias and axes,
    // LpPool's ceil_mode; new ops.
    {"Pad", 18},
    {"ReduceL1", 18},
    {"ReduceL2", 18},
    {"ReduceLogSum", 18},
    {"ReduceLogSumExp", 18},
    {"ReduceMax", 18},
    {"ReduceMean", 18},
    {"ReduceMin", 18},
    {"ReduceProd", 18},
    {"ReduceSumSquare", 18},
    {"Resize", 18},
    {"Split", 18},
    {"LpPool", 18},
    {"BitwiseAnd", 18},
    {"BitwiseNot", 18},
    {"BitwiseOr", 18},
    {"BitwiseXor", 18},
    {"CenterCropPad", 18},
    {"Col2Im", 18},
    {"GroupNormalization", 18},
    {"LpPool", 18},
    {"Mish", 18},
    {"OptionalGetElement", 18},
    {"OptionalHasElement", 18},
    // Opset 19: AveragePool's dilations, Cast's and QuantizeLinear's
    // saturate; DeformConv.
    {"AveragePool", 19},
    {"Cast", 19},
    {"CastLike", 19},
    {"QuantizeLinear", 19},
    {"DeformConv", 19},
    // Opset 20: DFT's axis as an input; GridSample's linear / cubic modes
    // and N-d grids; new ops.
    {"DFT", 20},
    {"GridSample", 20},
    {"AffineGrid", 20},
    {"Gelu", 20},
    {"ImageDecoder", 20},
    {"RegexFullMatch", 20},
    {"StringConcat", 20},
    {"StringSplit", 20},
    // Opset 21: block quantization (block_size, output_dtype),
    // GroupNormalization's stash_type.
    {"QuantizeLinear", 21},
    {"DequantizeLinear", 21},
    {"GroupNormalization", 21},
    // Opset 23 (ONNX 1.18): new LLM ops; the others of that opset changed
    // their element types only (float4e2m1).
    {"Attention", 23},
    {"RMSNormalization", 23},
    {"RotaryEmbedding", 23},
    // Opset 24 (ONNX 1.19): new ops, Attention's nonpad_kv_seqlen; the
    // others changed their element types only (float8e8m0, bfloat16 for
    // TopK and SplitToSequence).
    {"Attention", 24},
    {"Swish", 24},
    {"TensorScatter", 24},
};

/// The newest standard opset whose schema changes kSchemaChanges lists.
static constexpr int kNewestKnownOpset = 24;
/// The IR version of the ONNX release that brought opset 24 (1.19).
static constexpr int64_t kNewestKnownIrVersion = 12;

/// The domain the copy checked below gives the nodes whose schema the
/// checker does not know: the checker verifies no schema for a custom
/// domain but still checks everything else about the node.
static constexpr llvm::StringLiteral kUncheckedDomain = "quant-opt.unchecked";

/// The types of the attributes the ops of kSchemaChanges have: without
/// their schema, a mistyped attribute would read as absent.
static std::optional<onnx::AttributeProto::AttributeType>
attributeType(llvm::StringRef name) {
  using A = onnx::AttributeProto;
  return llvm::StringSwitch<std::optional<A::AttributeType>>(name)
      .Cases({"axis", "keepdims", "noop_with_empty_axes", "num_outputs",
              "saturate", "block_size", "output_dtype", "num_groups",
              "stash_type", "to", "antialias", "exclude_outside", "ceil_mode",
              "count_include_pad", "p", "onesided", "inverse", "align_corners"},
             A::INT)
      .Cases({"epsilon", "cubic_coeff_a", "extrapolation_value"}, A::FLOAT)
      .Cases({"mode", "approximate", "coordinate_transformation_mode",
              "nearest_mode", "keep_aspect_ratio_policy", "auto_pad",
              "padding_mode"},
             A::STRING)
      .Cases({"axes", "kernel_shape", "strides", "pads", "dilations"}, A::INTS)
      .Default(std::nullopt);
}

/// ONNX Runtime's own ops of the standard domain (it registers its RMS norm
/// there, and its model builder writes it so): unknown to ONNX's checker,
/// read by the importer like a com.microsoft op.
static bool isRuntimeStandardOp(llvm::StringRef op) {
  return op == "SimplifiedLayerNormalization";
}

static bool isStandardDomain(const onnx::NodeProto &n) {
  return n.domain().empty() || n.domain() == "ai.onnx";
}

/// Whether `g` (or a subgraph) has a node isRuntimeStandardOp names.
static bool usesRuntimeStandardOp(const onnx::GraphProto &g) {
  for (const onnx::NodeProto &n : g.node()) {
    if (isStandardDomain(n) && isRuntimeStandardOp(n.op_type()))
      return true;
    for (const onnx::AttributeProto &a : n.attribute())
      if ((a.has_g() && usesRuntimeStandardOp(a.g())) ||
          llvm::any_of(a.graphs(), [](const onnx::GraphProto &sub) {
            return usesRuntimeStandardOp(sub);
          }))
        return true;
  }
  return false;
}

/// Marks the nodes of `g` (and of its subgraphs) whose op changed after
/// `checkerOpset` and by `opset`, and ONNX Runtime's standard-domain ops,
/// as unchecked, after checking the types of their attributes.
static void markUnchecked(onnx::GraphProto &g, int64_t checkerOpset,
                          int64_t opset) {
  for (onnx::NodeProto &n : *g.mutable_node()) {
    bool standard = isStandardDomain(n);
    // An op that appeared after the checker's opsets, in a model older
    // than that op (the lowered copy would name the checker's opset).
    if (standard &&
        !onnx::OpSchemaRegistry::Schema(n.op_type(), checkerOpset, "")) {
      int64_t first = 0;
      for (const SchemaChange &c : kSchemaChanges)
        if (c.op == n.op_type() && (!first || c.opset < first))
          first = c.opset;
      if (first > opset)
        throw std::runtime_error("node '" + n.name() + "' (" + n.op_type() +
                                 ") needs opset " + std::to_string(first) +
                                 "; the model imports opset " +
                                 std::to_string(opset));
    }
    if (standard && (isRuntimeStandardOp(n.op_type()) ||
                     llvm::any_of(kSchemaChanges, [&](const SchemaChange &c) {
                       return c.op == n.op_type() && c.opset > checkerOpset &&
                              c.opset <= opset;
                     }))) {
      for (const onnx::AttributeProto &a : n.attribute()) {
        auto type = attributeType(a.name());
        if (type && a.type() != *type)
          throw std::runtime_error(
              "attribute '" + a.name() + "' of node '" + n.name() + "' (" +
              n.op_type() + ") must be of type " +
              onnx::AttributeProto::AttributeType_Name(*type));
      }
      n.set_domain(kUncheckedDomain.str());
    }
    for (onnx::AttributeProto &a : *n.mutable_attribute()) {
      if (a.has_g())
        markUnchecked(*a.mutable_g(), checkerOpset, opset);
      for (onnx::GraphProto &sub : *a.mutable_graphs())
        markUnchecked(sub, checkerOpset, opset);
    }
  }
}

/// Data ONNX 1.12's checker cannot read: in another file (it opens the
/// location relative to the current directory, not the model's), or 4-bit
/// elements (its element types end before uint4 / int4; raw data it does not
/// check by type). The importer reads both itself.
static bool hasUncheckableData(const onnx::TensorProto &t) {
  return t.data_location() == onnx::TensorProto::EXTERNAL ||
         quantopt::onnx_import::detail::isFourBitType(t.data_type());
}

static bool hasUncheckableDataSparse(const onnx::SparseTensorProto &t) {
  return hasUncheckableData(t.values()) || hasUncheckableData(t.indices());
}

/// Whether a tensor of `g` (an initializer or an attribute, dense or
/// sparse, also in subgraphs) has such data.
static bool usesUncheckableData(const onnx::GraphProto &g) {
  if (llvm::any_of(g.initializer(), hasUncheckableData) ||
      llvm::any_of(g.sparse_initializer(), hasUncheckableDataSparse))
    return true;
  for (const onnx::NodeProto &n : g.node())
    for (const onnx::AttributeProto &a : n.attribute())
      if ((a.has_t() && hasUncheckableData(a.t())) ||
          llvm::any_of(a.tensors(), hasUncheckableData) ||
          (a.has_sparse_tensor() &&
           hasUncheckableDataSparse(a.sparse_tensor())) ||
          llvm::any_of(a.sparse_tensors(), hasUncheckableDataSparse) ||
          (a.has_g() && usesUncheckableData(a.g())) ||
          llvm::any_of(a.graphs(), [](const onnx::GraphProto &sub) {
            return usesUncheckableData(sub);
          }))
        return true;
  return false;
}

/// Gives those tensors of `g` (and of its subgraphs) a one-byte raw_data
/// (none if empty) in place of their file or int32_data, 4-bit ones as
/// uint8: the checker checks no size of raw data. The importer reads and checks
/// them itself (ExternalData.cpp, Constants.cpp).
static void detachUncheckableData(onnx::GraphProto &g) {
  auto detach = [](onnx::TensorProto &t) {
    if (!hasUncheckableData(t))
      return;
    t.clear_external_data();
    t.clear_data_location();
    t.clear_int32_data();
    // The checker reads the element type of a tensor without raw data, and
    // does not know 4 bits: the copy calls it uint8.
    if (quantopt::onnx_import::detail::isFourBitType(t.data_type()))
      t.set_data_type(onnx::TensorProto::UINT8);
    if (llvm::any_of(t.dims(), [](int64_t d) { return d == 0; }))
      return;
    // Strings may not be raw data; the importer refuses both anyway.
    if (t.data_type() == onnx::TensorProto::STRING)
      t.add_string_data();
    else
      t.set_raw_data(std::string(1, 0));
  };
  auto detachSparse = [&](onnx::SparseTensorProto &t) {
    detach(*t.mutable_values());
    detach(*t.mutable_indices());
  };
  llvm::for_each(*g.mutable_initializer(), detach);
  llvm::for_each(*g.mutable_sparse_initializer(), detachSparse);
  for (onnx::NodeProto &n : *g.mutable_node())
    for (onnx::AttributeProto &a : *n.mutable_attribute()) {
      if (a.has_t())
        detach(*a.mutable_t());
      llvm::for_each(*a.mutable_tensors(), detach);
      if (a.has_sparse_tensor())
        detachSparse(*a.mutable_sparse_tensor());
      llvm::for_each(*a.mutable_sparse_tensors(), detachSparse);
      if (a.has_g())
        detachUncheckableData(*a.mutable_g());
      for (onnx::GraphProto &sub : *a.mutable_graphs())
        detachUncheckableData(sub);
    }
}

/// Runs the ONNX checker. A model of a newer standard opset than the
/// checker knows, or with ONNX Runtime's standard-domain ops, is checked as
/// a copy: its opset (and IR version) lowered to the checker's, and the
/// nodes whose schema changed since then (or that the checker has no schema
/// for) moved to a custom domain, whose schema the checker does not verify
/// (their importers check what they read). A model with external data is
/// checked as a copy without it, as is one with 4-bit int32_data
/// (detachUncheckableData). A model of a newer IR version than the
/// checker's (onnx >= 1.14 writes IR 9 or later whatever the opset) is
/// checked as a copy of the checker's IR version: what the newer versions
/// added (float8 and 4-bit types, function attribute defaults) the checker
/// refuses, or reads as unknown fields, and the importer handles itself.
/// Throws the checker's errors.
static void checkModel(const onnx::ModelProto &model, int64_t opset) {
  int checkerOpset = onnx::OpSchemaRegistry::DomainToVersionRange::Instance()
                         .Map()
                         .at(onnx::ONNX_DOMAIN)
                         .second;
  bool uncheckable = usesUncheckableData(model.graph());
  bool lowered = opset > checkerOpset || usesRuntimeStandardOp(model.graph());
  bool newerIr = model.ir_version() > onnx::Version::IR_VERSION;
  if (!uncheckable && !lowered && !newerIr) {
    onnx::checker::check_model(model);
    return;
  }
  onnx::ModelProto copy = model;
  if (uncheckable)
    detachUncheckableData(*copy.mutable_graph());
  if (newerIr)
    copy.set_ir_version(onnx::Version::IR_VERSION);
  if (!lowered) {
    onnx::checker::check_model(copy);
    return;
  }
  for (onnx::OperatorSetIdProto &imp : *copy.mutable_opset_import())
    if (imp.domain().empty() || imp.domain() == "ai.onnx")
      imp.set_version(checkerOpset);
  onnx::OperatorSetIdProto *unchecked = copy.add_opset_import();
  unchecked->set_domain(kUncheckedDomain.str());
  unchecked->set_version(1);
  markUnchecked(*copy.mutable_graph(), checkerOpset, opset);
  onnx::checker::check_model(copy);
}

OwningOpRef<ModuleOp>
quantopt::onnx_import::importModel(MLIRContext *context, StringRef bytes,
                                   StringRef fileName,
                                   const ImportOptions &options) {
  Location loc = FileLineColLoc::get(context, fileName, 0, 0);
  if (options.entry.empty()) {
    emitError(loc) << "the entry function's name is empty";
    return nullptr;
  }
  DialectRegistry registry;
  registerImportDialects(registry);
  context->appendDialectRegistry(registry);
  context->loadAllAvailableDialects();

  onnx::ModelProto model;
  if (bytes.size() > size_t(INT32_MAX) ||
      !model.ParseFromArray(bytes.data(), int(bytes.size()))) {
    emitError(loc) << "not a valid ONNX model (the protobuf does not parse: "
                      "truncated or corrupted file?)";
    return nullptr;
  }
  if (!model.has_graph()) {
    emitError(loc) << "not a valid ONNX model: no graph";
    return nullptr;
  }
  if (model.ir_version() > kNewestKnownIrVersion) {
    emitError(loc) << "IR version " << model.ir_version()
                   << " is newer than the importer knows (at most "
                   << kNewestKnownIrVersion << ")";
    return nullptr;
  }
  int64_t opset = detail::standardOpset(model);
  if (opset > kNewestKnownOpset) {
    emitError(loc) << "opset " << opset
                   << " is newer than the importer knows (at most "
                   << kNewestKnownOpset << ")";
    return nullptr;
  }
  try {
    checkModel(model, opset);
  } catch (const std::exception &e) {
    // The checker appends "==> Context: ..." lines; its message itself may
    // span lines (the node it names), which join into one.
    StringRef what(e.what());
    what = what.substr(0, what.find("==> Context"));
    SmallVector<StringRef> words;
    what.split(words, ' ', -1, /*KeepEmpty=*/false);
    std::string message;
    for (StringRef word : words)
      for (StringRef part : llvm::split(word, '\n'))
        if (!part.trim().empty())
          message += (message.empty() ? "" : " ") + part.trim().str();
    emitError(loc) << "the ONNX checker rejects the model: " << message;
    return nullptr;
  } catch (...) {
    emitError(loc) << "the ONNX checker rejects the model";
    return nullptr;
  }
  if (failed(detail::inlineLocalFunctions(model, loc)))
    return nullptr;
  detail::Importer importer(context, options, fileName);
  return importer.run(model);
}
