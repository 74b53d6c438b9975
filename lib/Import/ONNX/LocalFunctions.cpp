//===- LocalFunctions.cpp - inline an ONNX model's local functions --------===//
//
// A model may define functions of its own (ModelProto.functions, IR version
// 8): torch's dynamo exporter and onnxscript write one per module or per
// aten op, and a node whose (domain, op_type) names one calls it. They are
// inlined before the import, as ONNX Runtime does when it loads such a
// model: each call becomes the function's body, with
// - the formal inputs read as the call's actual inputs (a missing or empty
//   one as absent) and the formal outputs written to the call's outputs;
// - every other name (nested subgraphs included) renamed to a name no other
//   part of the model uses, one set per call;
// - attribute references (`ref_attr_name`, in nested subgraphs too)
//   replaced by the call's attribute of that name, else the function's
//   default (`attribute_proto`, IR version 9), else left out, as ONNX's
//   function semantics say; a graph the call passes this way reads the
//   caller's names, so only the names it defines are renamed (a default
//   graph belongs to the body and is renamed with it);
// - body nodes named `<call>/<node>`, so that diagnostics say where they
//   came from.
// Calls in the body, and in subgraphs of If / Loop / Scan, are inlined in
// turn. Refused with a diagnostic: a function that calls itself, two
// functions with one (domain, name) (IR 10's overloads), a function in the
// standard domain (it would shadow the standard op), a function importing
// another version of an opset the model imports, more inputs, outputs or
// attributes at a call than the function declares, more than 2^20 nodes
// after inlining, and calls nested more than 256 deep.
//
//===----------------------------------------------------------------------===//

#include "Importer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"

#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

using namespace mlir;

namespace {

/// FunctionProto.attribute_proto (IR version 9, ONNX 1.13): newer than the
/// ONNX this is built with, so read from the unknown fields.
constexpr int kFunctionAttributeProtoField = 11;
/// Nodes after inlining (a function calling another twice per level
/// doubles at each level), counted before anything is copied.
constexpr uint64_t kMaxInlinedNodes = uint64_t(1) << 20;
/// Calls nested in calls: the inliner recurses once per level.
constexpr size_t kMaxCallDepth = 256;

std::string normalDomain(const std::string &domain) {
  return domain == "ai.onnx" ? std::string() : domain;
}

std::string functionKey(const std::string &domain, const std::string &name) {
  return normalDomain(domain) + '\0' + name;
}

std::string displayName(const onnx::FunctionProto &fn) {
  return fn.domain().empty() ? fn.name() : fn.domain() + "." + fn.name();
}

/// Calls `fn` on each graph attribute of `node` (If / Loop / Scan bodies),
/// up to the first failure.
LogicalResult forEachSubgraph(
    const onnx::NodeProto &node,
    llvm::function_ref<LogicalResult(const onnx::GraphProto &)> fn) {
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.has_g() && failed(fn(a.g())))
      return failure();
    for (const onnx::GraphProto &sub : a.graphs())
      if (failed(fn(sub)))
        return failure();
  }
  return success();
}

/// The same over the graphs of one attribute, to change them.
LogicalResult
forEachSubgraph(onnx::AttributeProto &a,
                llvm::function_ref<LogicalResult(onnx::GraphProto &)> fn) {
  if (a.has_g() && failed(fn(*a.mutable_g())))
    return failure();
  for (onnx::GraphProto &sub : *a.mutable_graphs())
    if (failed(fn(sub)))
      return failure();
  return success();
}

/// Every name a graph (and its subgraphs) uses for a value or a node.
void collectNames(const onnx::GraphProto &g, llvm::StringSet<> &names) {
  auto addInfos = [&](const auto &infos) {
    for (const onnx::ValueInfoProto &v : infos)
      names.insert(v.name());
  };
  addInfos(g.input());
  addInfos(g.output());
  addInfos(g.value_info());
  for (const onnx::TensorProto &t : g.initializer())
    names.insert(t.name());
  for (const onnx::SparseTensorProto &t : g.sparse_initializer())
    names.insert(t.values().name());
  for (const onnx::NodeProto &n : g.node()) {
    names.insert(n.name());
    for (const std::string &s : n.input())
      names.insert(s);
    for (const std::string &s : n.output())
      names.insert(s);
    (void)forEachSubgraph(n, [&](const onnx::GraphProto &sub) {
      collectNames(sub, names);
      return success();
    });
  }
}

class FunctionInliner {
public:
  FunctionInliner(onnx::ModelProto &model, Location loc)
      : model(model), loc(loc) {}

  LogicalResult run() {
    if (model.functions_size() == 0)
      return success();
    for (const onnx::OperatorSetIdProto &imp : model.opset_import())
      modelOpsets[normalDomain(imp.domain())] = imp.version();
    for (const onnx::FunctionProto &fn : model.functions())
      if (failed(addFunction(fn)))
        return failure();
    auto total = countNodes(model.graph().node());
    if (failed(total))
      return failure();
    if (*total > kMaxInlinedNodes)
      return fail("inlining the local functions gives more than " +
                  Twine(kMaxInlinedNodes) + " nodes");
    collectNames(model.graph(), used);
    for (const onnx::FunctionProto &fn : model.functions())
      used.insert(fn.name());
    if (failed(inlineGraph(*model.mutable_graph())))
      return failure();
    model.clear_functions();
    return success();
  }

private:
  LogicalResult fail(const Twine &message) {
    emitError(loc) << message;
    return failure();
  }

  LogicalResult addFunction(const onnx::FunctionProto &fn) {
    if (normalDomain(fn.domain()).empty())
      return fail("local function '" + fn.name() +
                  "' is in the standard domain, where it would shadow the "
                  "standard operator: not supported");
    if (!functions.try_emplace(functionKey(fn.domain(), fn.name()), &fn).second)
      return fail("the model defines local function '" + displayName(fn) +
                  "' more than once (overloads are not supported)");
    for (const onnx::OperatorSetIdProto &imp : fn.opset_import()) {
      std::string domain = normalDomain(imp.domain());
      auto [it, added] = modelOpsets.try_emplace(domain, imp.version());
      if (added) {
        // Its body's ops are imported like the model's own.
        onnx::OperatorSetIdProto *copy = model.add_opset_import();
        copy->set_domain(domain);
        copy->set_version(imp.version());
      } else if (it->second != imp.version()) {
        return fail("local function '" + displayName(fn) + "' imports opset " +
                    Twine(imp.version()) + " of domain '" +
                    (domain.empty() ? std::string("ai.onnx") : domain) +
                    "', the model opset " + Twine(it->second) +
                    ": not supported");
      }
    }
    return success();
  }

  /// The nodes `nodes` become once inlined (at most kMaxInlinedNodes + 1);
  /// diagnoses a function that calls itself and calls nested too deeply.
  FailureOr<uint64_t>
  countNodes(const google::protobuf::RepeatedPtrField<onnx::NodeProto> &nodes) {
    uint64_t total = 0;
    auto add = [&](uint64_t n) {
      total = std::min(total + n, kMaxInlinedNodes + 1);
    };
    for (const onnx::NodeProto &n : nodes) {
      if (const onnx::FunctionProto *fn = lookup(n)) {
        auto size = functionSize(*fn);
        if (failed(size))
          return failure();
        add(*size);
        continue;
      }
      add(1);
      auto addGraph = [&](const onnx::GraphProto &g) -> LogicalResult {
        auto size = countNodes(g.node());
        if (failed(size))
          return failure();
        add(*size);
        return success();
      };
      if (failed(forEachSubgraph(n, addGraph)))
        return failure();
    }
    return total;
  }

  FailureOr<uint64_t> functionSize(const onnx::FunctionProto &fn) {
    auto known = sizes.find(&fn);
    if (known != sizes.end())
      return known->second;
    if (llvm::is_contained(active, &fn))
      return fail("local function '" + displayName(fn) +
                  "' calls itself (directly or through other functions)");
    if (active.size() >= kMaxCallDepth)
      return fail("local functions call each other more than " +
                  Twine(kMaxCallDepth) + " levels deep");
    active.push_back(&fn);
    auto size = countNodes(fn.node());
    active.pop_back();
    if (failed(size))
      return failure();
    // The Identity copies of outputs that are inputs or repeated.
    uint64_t total =
        std::min(*size + uint64_t(fn.output_size()), kMaxInlinedNodes + 1);
    sizes[&fn] = total;
    return total;
  }

  const onnx::FunctionProto *lookup(const onnx::NodeProto &n) const {
    auto it = functions.find(functionKey(n.domain(), n.op_type()));
    return it == functions.end() ? nullptr : it->second;
  }

  /// A name no part of the model uses, `base` if it is free.
  std::string fresh(const std::string &base) {
    std::string name = base;
    for (unsigned k = 1; used.contains(name); ++k)
      name = base + "_" + std::to_string(k);
    used.insert(name);
    return name;
  }

  /// Gives every name `g` (or a subgraph of it) defines a fresh one, in
  /// its definitions and its reads; reads of outer names stay. `renamed`
  /// holds the enclosing graphs' renaming (nodes are in topological order,
  /// so a read follows its definition).
  void freshenDefinitions(onnx::GraphProto &g,
                          std::map<std::string, std::string> renamed = {}) {
    auto define = [&](std::string &name) {
      if (name.empty())
        return;
      std::string unique = fresh(name);
      renamed[name] = unique;
      name = std::move(unique);
    };
    auto read = [&](std::string &name) {
      auto it = renamed.find(name);
      if (it != renamed.end())
        name = it->second;
    };
    for (onnx::ValueInfoProto &v : *g.mutable_input())
      define(*v.mutable_name());
    for (onnx::TensorProto &t : *g.mutable_initializer())
      define(*t.mutable_name());
    for (onnx::SparseTensorProto &t : *g.mutable_sparse_initializer())
      define(*t.mutable_values()->mutable_name());
    for (onnx::NodeProto &n : *g.mutable_node()) {
      if (!n.name().empty())
        n.set_name(fresh(n.name()));
      for (std::string &s : *n.mutable_input())
        read(s);
      for (onnx::AttributeProto &a : *n.mutable_attribute())
        (void)forEachSubgraph(a, [&](onnx::GraphProto &sub) {
          freshenDefinitions(sub, renamed);
          return success();
        });
      for (std::string &s : *n.mutable_output())
        define(s);
    }
    for (onnx::ValueInfoProto &v : *g.mutable_output())
      read(*v.mutable_name());
    for (onnx::ValueInfoProto &v : *g.mutable_value_info())
      read(*v.mutable_name());
  }

  LogicalResult inlineGraph(onnx::GraphProto &g) {
    // Moved out and back: a Constant node may hold a large tensor.
    std::vector<onnx::NodeProto> nodes;
    nodes.reserve(g.node_size());
    for (onnx::NodeProto &n : *g.mutable_node())
      nodes.push_back(std::move(n));
    std::vector<onnx::NodeProto> out;
    if (failed(expand(nodes, out)))
      return failure();
    g.clear_node();
    for (onnx::NodeProto &n : out)
      *g.add_node() = std::move(n);
    return success();
  }

  /// Appends `nodes` to `out` with every call replaced by its body.
  LogicalResult expand(std::vector<onnx::NodeProto> &nodes,
                       std::vector<onnx::NodeProto> &out) {
    for (onnx::NodeProto &n : nodes) {
      const onnx::FunctionProto *fn = lookup(n);
      if (!fn) {
        for (onnx::AttributeProto &a : *n.mutable_attribute())
          if (failed(forEachSubgraph(
                  a, [&](onnx::GraphProto &g) { return inlineGraph(g); })))
            return failure();
        out.push_back(std::move(n));
        continue;
      }
      // countNodes has ruled out recursion and bounded the nesting.
      std::vector<onnx::NodeProto> body;
      if (failed(instantiate(n, *fn, body)) || failed(expand(body, out)))
        return failure();
    }
    return success();
  }

  /// One call's copy of the function's body.
  class Instance {
  public:
    Instance(FunctionInliner &inliner, const onnx::NodeProto &call,
             const onnx::FunctionProto &fn, std::string prefix)
        : inliner(inliner), call(call), fn(fn), prefix(std::move(prefix)) {}

    LogicalResult build(std::vector<onnx::NodeProto> &body) {
      std::string where = "node '" + callName() + "' (" + call.op_type() + ")";
      if (call.input_size() > fn.input_size() ||
          call.output_size() > fn.output_size())
        return inliner.fail(
            where + ": local function '" + displayName(fn) + "' takes " +
            Twine(fn.input_size()) + " inputs and " + Twine(fn.output_size()) +
            " outputs, the call gives " + Twine(call.input_size()) + " and " +
            Twine(call.output_size()));
      llvm::StringSet<> declared;
      for (const std::string &a : fn.attribute())
        declared.insert(a);
      for (const onnx::AttributeProto &a : defaults())
        declared.insert(a.name());
      for (const onnx::AttributeProto &a : call.attribute()) {
        if (!declared.contains(a.name()))
          return inliner.fail(where + ": attribute '" + a.name() +
                              "' is not an attribute of local function '" +
                              displayName(fn) + "'");
        given[a.name()] = &a;
        callGiven.insert(a.name());
      }
      for (const onnx::AttributeProto &a : defaultStorage)
        if (!given.count(a.name()))
          given[a.name()] = &a;

      for (auto [i, formal] : llvm::enumerate(fn.input())) {
        inputs.insert(formal);
        rename[formal] = int(i) < call.input_size() ? call.input(i) : "";
      }
      // A formal output written to several actual ones, or that is one of
      // the inputs, is copied with Identity after the body.
      std::vector<std::pair<std::string, std::string>> copies;
      for (auto [i, formal] : llvm::enumerate(fn.output())) {
        std::string actual =
            int(i) < call.output_size() ? call.output(i) : std::string();
        if (actual.empty())
          actual = inliner.fresh(prefix + formal);
        if (inputs.contains(formal) || rename.count(formal))
          copies.emplace_back(formal, actual);
        else
          rename[formal] = actual;
      }

      for (auto [i, node] : llvm::enumerate(fn.node())) {
        onnx::NodeProto copy = node;
        if (failed(rewriteNode(copy, int64_t(i))))
          return failure();
        body.push_back(std::move(copy));
      }
      for (auto &[formal, actual] : copies) {
        onnx::NodeProto identity;
        identity.set_op_type("Identity");
        identity.set_name(inliner.fresh(callName() + "/" + formal));
        identity.add_input(use(formal));
        identity.add_output(actual);
        body.push_back(std::move(identity));
      }
      return failure(failed(status));
    }

  private:
    std::string callName() const {
      return call.name().empty() ? call.op_type() : call.name();
    }

    /// The function's attribute defaults (FunctionProto.attribute_proto).
    const std::vector<onnx::AttributeProto> &defaults() {
      if (!defaultsRead) {
        defaultsRead = true;
        const google::protobuf::UnknownFieldSet &unknown = fn.unknown_fields();
        for (int i = 0; i < unknown.field_count(); ++i) {
          const google::protobuf::UnknownField &f = unknown.field(i);
          if (f.number() != kFunctionAttributeProtoField ||
              f.type() != google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED)
            continue;
          onnx::AttributeProto a;
          if (a.ParseFromString(f.length_delimited()) && !a.name().empty())
            defaultStorage.push_back(std::move(a));
        }
      }
      return defaultStorage;
    }

    /// The name a read of `name` refers to in this copy.
    std::string use(const std::string &name) {
      if (name.empty())
        return name;
      auto it = rename.find(name);
      if (it != rename.end())
        return it->second;
      std::string renamed = inliner.fresh(prefix + name);
      rename[name] = renamed;
      return renamed;
    }

    /// The name a definition of `name` gets in this copy.
    std::string define(const std::string &name) {
      if (inputs.contains(name) && succeeded(status)) {
        status = inliner.fail("local function '" + displayName(fn) +
                              "' redefines its input '" + name + "'");
      }
      return use(name);
    }

    LogicalResult rewriteNode(onnx::NodeProto &node, int64_t index) {
      node.set_name(inliner.fresh(
          callName() + "/" +
          (node.name().empty() ? "#" + std::to_string(index) : node.name())));
      for (std::string &s : *node.mutable_input())
        s = use(s);
      for (std::string &s : *node.mutable_output())
        s = define(s);
      auto *attrs = node.mutable_attribute();
      for (int i = 0; i < attrs->size();) {
        onnx::AttributeProto &a = attrs->at(i);
        if (!a.ref_attr_name().empty()) {
          auto it = given.find(a.ref_attr_name());
          if (it == given.end()) {
            // Not given at the call and no default: the attribute is absent.
            attrs->DeleteSubrange(i, 1);
            continue;
          }
          std::string name = a.name();
          bool fromCall = callGiven.contains(a.ref_attr_name());
          a = *it->second;
          a.set_name(name);
          if (fromCall) {
            // The caller's graph reads the caller's scope, where the
            // inlined node lands: only the names it defines are renamed,
            // so that two copies of it do not define them twice.
            (void)forEachSubgraph(a, [&](onnx::GraphProto &g) {
              inliner.freshenDefinitions(g);
              return success();
            });
            ++i;
            continue;
          }
        }
        if (failed(forEachSubgraph(
                a, [&](onnx::GraphProto &g) { return rewriteGraph(g); })))
          return failure();
        ++i;
      }
      return failure(failed(status));
    }

    /// A subgraph of the body: its own names are renamed like the body's
    /// (they are unique in the model, as ONNX's single assignment wants),
    /// its reads of the body's values follow the body's renaming.
    LogicalResult rewriteGraph(onnx::GraphProto &g) {
      for (onnx::ValueInfoProto &v : *g.mutable_input())
        v.set_name(define(v.name()));
      for (onnx::TensorProto &t : *g.mutable_initializer())
        t.set_name(define(t.name()));
      for (onnx::SparseTensorProto &t : *g.mutable_sparse_initializer())
        t.mutable_values()->set_name(define(t.values().name()));
      for (auto [i, n] : llvm::enumerate(*g.mutable_node()))
        if (failed(rewriteNode(n, int64_t(i))))
          return failure();
      for (onnx::ValueInfoProto &v : *g.mutable_output())
        v.set_name(use(v.name()));
      for (onnx::ValueInfoProto &v : *g.mutable_value_info())
        v.set_name(use(v.name()));
      return failure(failed(status));
    }

    FunctionInliner &inliner;
    const onnx::NodeProto &call;
    const onnx::FunctionProto &fn;
    std::string prefix;
    llvm::StringSet<> inputs;
    std::map<std::string, std::string> rename;
    std::map<std::string, const onnx::AttributeProto *> given;
    /// The attributes of `given` that the call sets (the rest are defaults).
    llvm::StringSet<> callGiven;
    std::vector<onnx::AttributeProto> defaultStorage;
    bool defaultsRead = false;
    LogicalResult status = success();
  };

  LogicalResult instantiate(const onnx::NodeProto &call,
                            const onnx::FunctionProto &fn,
                            std::vector<onnx::NodeProto> &body) {
    std::string base = call.name().empty() ? fn.name() : call.name();
    Instance instance(*this, call, fn, fresh(base + "/"));
    return instance.build(body);
  }

  onnx::ModelProto &model;
  Location loc;
  std::map<std::string, int64_t> modelOpsets;
  llvm::StringMap<const onnx::FunctionProto *> functions;
  llvm::StringSet<> used;
  /// The functions whose size countNodes is computing, outermost first.
  llvm::SmallVector<const onnx::FunctionProto *> active;
  llvm::DenseMap<const onnx::FunctionProto *, uint64_t> sizes;
};

} // namespace

LogicalResult
quantopt::onnx_import::detail::inlineLocalFunctions(onnx::ModelProto &model,
                                                    Location loc) {
  return FunctionInliner(model, loc).run();
}
