//===- ModuleGenerator.cpp - random qnt modules from fuzzer bytes ---------===//
//
// Text, not builder calls: the generated module goes through the same parser
// and verifier as user input, and a finding is a module one can paste into a
// lit test. Every choice is drawn from FuzzedDataProvider, so libFuzzer's
// mutations move through the space of modules.
//
//===----------------------------------------------------------------------===//

#include "ModuleGenerator.h"

#include "QuantOpt/InitAll.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"

#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cctype>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

using namespace quantopt::fuzz;

AvailableOps quantopt::fuzz::queryAvailableOps() {
  mlir::DialectRegistry registry;
  quantopt::registerAllDialects(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  auto has = [&](const char *name) {
    return mlir::RegisteredOperationName::lookup(name, &context).has_value();
  };
  AvailableOps ops;
  ops.add = has("qnt.add");
  ops.maxPool2d = has("qnt.max_pool2d");
  ops.avgPool2d = has("qnt.avg_pool2d");
  ops.concat = has("qnt.concat");
  return ops;
}

namespace {

/// Elements of one tensor at most: keeps constants and compile time small.
constexpr int64_t kMaxElements = 1 << 16;
/// Dense literals are written only up to this size (splats beyond).
constexpr int64_t kMaxDenseLiteral = 64;
/// Op units per module at most.
constexpr unsigned kMaxUnits = 4;

const char *const kRoundings[] = {"double", "single", "away", "half_even",
                                  "float"};

std::string fmtDouble(double v) {
  // MLIR float literals need the dot: %e always has one.
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17e", v);
  return buf;
}

std::string join(const std::vector<std::string> &parts, const char *sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i)
    out += (i ? sep : "") + parts[i];
  return out;
}

struct Storage {
  std::string name; // i8, u8, i16, i32
  int64_t lo, hi;   // the range in use (narrow or full)
  bool narrow = false;
  unsigned width() const {
    return name == "i16" ? 16 : name == "i32" ? 32 : 8;
  }
  std::string spelling() const {
    if (!narrow)
      return name;
    return name + "<" + std::to_string(lo) + ":" + std::to_string(hi) + ">";
  }
};

struct QType {
  Storage storage;
  std::optional<int64_t> axis;
  std::vector<double> scales;
  std::vector<int64_t> zps;
  std::string str() const {
    std::string s = "!quant.uniform<" + storage.spelling() + ":f32";
    if (!axis)
      return s + ", " + fmtDouble(scales[0]) + ":" + std::to_string(zps[0]) +
             ">";
    std::vector<std::string> params;
    for (size_t i = 0; i < scales.size(); ++i)
      params.push_back(fmtDouble(scales[i]) + ":" + std::to_string(zps[i]));
    return s + ":" + std::to_string(*axis) + ", {" + join(params, ", ") + "}>";
  }
};

using Shape = std::vector<int64_t>; // -1 is a dynamic dimension

std::string shapeStr(const Shape &shape) {
  std::string s;
  for (int64_t d : shape)
    s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s;
}

std::string tensorOf(const Shape &shape, const std::string &elt) {
  return "tensor<" + shapeStr(shape) + elt + ">";
}

/// Static element count (a dynamic dim counts as 1).
int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d < 0 ? 1 : d;
  return n;
}

class Generator {
public:
  Generator(const uint8_t *data, size_t size, const AvailableOps &ops)
      : fdp(data, size), ops(ops) {}

  std::string run() {
    unsigned units = fdp.ConsumeIntegralInRange<unsigned>(1, kMaxUnits);
    for (unsigned i = 0; i < units && fdp.remaining_bytes(); ++i)
      unit();
    if (results.empty())
      unit();
    std::vector<std::string> values, types;
    for (auto &[v, t] : results) {
      values.push_back(v);
      types.push_back(t);
    }
    std::string text = "func.func @main(" + join(args, ", ") + ") -> (" +
                       join(types, ", ") + ") {\n";
    for (const std::string &line : body)
      text += "  " + line + "\n";
    text += "  return " + join(values, ", ") +
            (values.empty() ? "" : " : ") + join(types, ", ") + "\n}\n";
    return text;
  }

private:
  FuzzedDataProvider fdp;
  const AvailableOps &ops;
  std::vector<std::string> args, body;
  std::vector<std::pair<std::string, std::string>> results;
  unsigned counter = 0;

  /// True with `percent`% probability; false once the bytes run out (the
  /// provider then returns the low end), so short inputs give plain modules.
  bool chance(unsigned percent) {
    return fdp.ConsumeIntegralInRange<unsigned>(0, 99) >= 100 - percent;
  }
  int64_t pick(int64_t lo, int64_t hi) {
    return fdp.ConsumeIntegralInRange<int64_t>(lo, hi);
  }
  std::string fresh() { return "%v" + std::to_string(counter++); }

  std::string newArg(const std::string &type) {
    std::string name = "%arg" + std::to_string(args.size());
    args.push_back(name + ": " + type);
    return name;
  }

  // --- Parameters --------------------------------------------------------

  Storage storage(std::vector<const char *> names, bool allowNarrow = true) {
    Storage s;
    s.name = names[pick(0, names.size() - 1)];
    if (s.name == "i8")
      s.lo = -128, s.hi = 127;
    else if (s.name == "u8")
      s.lo = 0, s.hi = 255;
    else if (s.name == "i16")
      s.lo = -32768, s.hi = 32767;
    else
      s.lo = INT32_MIN, s.hi = INT32_MAX;
    if (allowNarrow && s.name != "i32" && chance(15)) {
      s.narrow = true;
      if (s.name == "i8" && chance(70)) {
        s.lo = -127;
      } else {
        // Any sub-range, including a single value.
        int64_t a = pick(s.lo, s.hi), b = pick(s.lo, s.hi);
        s.lo = std::min(a, b);
        s.hi = std::max(a, b);
      }
    }
    return s;
  }

  /// Mostly ordinary scales; the extremes of f32 (denormal, FLT_MIN,
  /// FLT_MAX, powers of two far from 1) and a few invalid ones. Case 0 is
  /// the ordinary one because exhausted bytes pick it.
  double scale() {
    switch (pick(0, 15)) {
    case 1:
      return std::ldexp(1.0, static_cast<int>(pick(-149, -100)));
    case 2:
      return std::ldexp(1.0, static_cast<int>(pick(60, 127)));
    case 3:
      return FLT_MIN;
    case 4:
      return FLT_MAX;
    case 5:
      return 1.0;
    case 6:
      return std::ldexp(1.0, static_cast<int>(pick(-20, 20)));
    case 7:
      // Invalid: zero, negative or below the smallest f32 denormal.
      switch (pick(0, 2)) {
      case 0:
        return 0.0;
      case 1:
        return -0.5;
      default:
        return 1e-46;
      }
    default:
      return std::pow(10.0, -4.5 + 4.5 * fdp.ConsumeProbability<double>());
    }
  }

  int64_t zeroPoint(const Storage &s) {
    if (s.name == "i32")
      return chance(3) ? pick(-5, 5) : 0;
    switch (pick(0, 9)) {
    case 0:
      return s.lo;
    case 1:
      return s.hi;
    case 2:
      return 0;
    case 3:
      // Sometimes outside the range (the verifier must reject).
      return chance(50) ? s.hi + 1 : s.lo - 1;
    default:
      return pick(s.lo, s.hi);
    }
  }

  QType qtype(const Storage &s, std::optional<int64_t> axis, int64_t channels,
              bool symmetric = false) {
    QType t;
    t.storage = s;
    t.axis = axis;
    int64_t n = axis ? std::max<int64_t>(channels, 1) : 1;
    for (int64_t i = 0; i < n; ++i) {
      t.scales.push_back(scale());
      t.zps.push_back(symmetric ? 0 : zeroPoint(s));
    }
    return t;
  }

  /// An accumulator (or bias) type whose scale is S_X * S_W, per axis when
  /// the weights are; occasionally wrong on purpose.
  QType accType(const QType &x, const QType &w, std::optional<int64_t> axis) {
    QType t;
    t.storage = storage({"i32"}, false);
    t.axis = w.axis ? axis : std::nullopt;
    for (double sw : w.scales) {
      t.scales.push_back(x.scales[0] * sw);
      t.zps.push_back(0);
    }
    if (chance(3))
      t.scales[0] *= 1.5;
    return t;
  }

  int64_t dim(int64_t maxTypical = 8) {
    switch (pick(0, 31)) {
    case 1:
      return 0; // empty tensors must compile too
    case 2:
      return pick(9, 300);
    case 3:
      return pick(300, 4096);
    default:
      return pick(1, maxTypical);
    }
  }

  /// Keeps a shape under kMaxElements by shrinking its largest dims.
  void cap(Shape &shape) {
    while (numElements(shape) > kMaxElements) {
      auto it = std::max_element(shape.begin(), shape.end());
      *it = std::max<int64_t>(1, *it / 4);
    }
  }

  /// Now and then a static dim becomes dynamic.
  Shape maybeDynamic(Shape shape) {
    if (!shape.empty() && chance(4))
      shape[pick(0, shape.size() - 1)] = -1;
    return shape;
  }

  /// `value` of an integer storage as it prints in a dense literal of
  /// element type `elt` (two's complement for signless types).
  static int64_t codeBits(int64_t code, unsigned width, bool unsignedElt) {
    if (unsignedElt || width >= 64)
      return code;
    int64_t mask = (int64_t(1) << width) - 1;
    code &= mask;
    return code >= (int64_t(1) << (width - 1)) ? code - (int64_t(1) << width)
                                                : code;
  }

  std::string codeLiteral(const Shape &shape, const Storage &s,
                          bool &unsignedElt) {
    unsignedElt = s.name == "u8";
    int64_t n = numElements(shape);
    auto code = [&]() {
      int64_t c = chance(20) ? (chance(50) ? s.lo : s.hi) : pick(s.lo, s.hi);
      return codeBits(c, s.width(), unsignedElt);
    };
    if (n == 0 || n > kMaxDenseLiteral || chance(30) || shape.empty())
      return "dense<" + std::to_string(code()) + ">";
    // A flat literal of a multi-dim shape is not accepted; nest it.
    std::vector<int64_t> flat;
    for (int64_t i = 0; i < n; ++i)
      flat.push_back(code());
    return "dense<" + nest(flat, shape, 0, 0).first + ">";
  }

  std::pair<std::string, size_t> nest(const std::vector<int64_t> &flat,
                                      const Shape &shape, size_t d,
                                      size_t pos) {
    if (d == shape.size())
      return {std::to_string(flat[pos]), pos + 1};
    std::vector<std::string> parts;
    for (int64_t i = 0; i < shape[d]; ++i) {
      auto [s, next] = nest(flat, shape, d + 1, pos);
      parts.push_back(s);
      pos = next;
    }
    return {"[" + join(parts, ", ") + "]", pos};
  }

  std::string floatLiteral(const Shape &shape) {
    static const char *const specials[] = {
        "0x7FC00000", "0x7F800000", "0xFF800000", "0x80000000",
        "0x00000001", "0x7F7FFFFF", "0.0",        "-1.0e30"};
    auto value = [&]() -> std::string {
      if (chance(25))
        return specials[pick(0, 7)];
      return fmtDouble(static_cast<float>(
          (fdp.ConsumeProbability<double>() - 0.5) * std::pow(10.0, pick(-3, 6))));
    };
    int64_t n = numElements(shape);
    if (n == 0 || n > kMaxDenseLiteral || chance(40) || shape.empty())
      return "dense<" + value() + ">";
    std::vector<std::string> flat;
    for (int64_t i = 0; i < n; ++i)
      flat.push_back(value());
    // Reuse nest() on indices, then substitute the strings.
    std::vector<int64_t> idx(n);
    for (int64_t i = 0; i < n; ++i)
      idx[i] = i;
    std::string skeleton = nest(idx, shape, 0, 0).first, out;
    for (size_t i = 0; i < skeleton.size();) {
      if (std::isdigit(static_cast<unsigned char>(skeleton[i]))) {
        size_t j = i;
        while (j < skeleton.size() &&
               std::isdigit(static_cast<unsigned char>(skeleton[j])))
          ++j;
        out += flat[std::stoll(skeleton.substr(i, j - i))];
        i = j;
      } else {
        out += skeleton[i++];
      }
    }
    return "dense<" + out + ">";
  }

  /// A quantized operand: a function argument, a qnt.constant of codes or a
  /// qnt.quantize of a float constant (folded at compile time).
  std::string quantizedValue(const Shape &shape, const QType &t) {
    std::string type = tensorOf(shape, t.str());
    bool dynamic = std::count(shape.begin(), shape.end(), -1) > 0;
    // qnt.quantize makes only i8/u8/i16 (an i32 one is rare, for the verifier).
    unsigned form = dynamic ? 0 : pick(0, t.storage.width() == 32 && !chance(3) ? 1 : 2);
    if (form == 0)
      return newArg(type);
    std::string v = fresh();
    if (form == 1) {
      bool unsignedElt;
      std::string lit = codeLiteral(shape, t.storage, unsignedElt);
      std::string elt = (unsignedElt ? "ui" : "i") +
                        std::to_string(t.storage.width());
      body.push_back(v + " = qnt.constant " + lit + " : " +
                     tensorOf(shape, elt) + " -> " + type);
      return v;
    }
    std::string f = fresh();
    body.push_back(f + " = arith.constant " + floatLiteral(shape) + " : " +
                   tensorOf(shape, "f32"));
    body.push_back(v + " = qnt.quantize " + f + " : " +
                   tensorOf(shape, "f32") + " -> " + type);
    return v;
  }

  std::string clampAttr(const Storage &out, int64_t zp) {
    int64_t lo, hi;
    if (chance(10)) { // possibly invalid: reversed or outside the range
      lo = pick(out.lo - 2, out.hi + 2);
      hi = pick(out.lo - 2, out.hi + 2);
    } else {
      lo = pick(out.lo, std::clamp(zp, out.lo, out.hi));
      hi = pick(std::clamp(zp, out.lo, out.hi), out.hi);
    }
    return "clamp = array<i64: " + std::to_string(lo) + ", " +
           std::to_string(hi) + ">";
  }

  std::string rounding() {
    if (chance(2))
      return "\"nearest\""; // unknown: the verifier must reject
    return std::string("\"") + kRoundings[pick(0, 4)] + "\"";
  }

  std::string i64Array(std::vector<int64_t> values) {
    std::string s = "array<i64: ";
    for (size_t i = 0; i < values.size(); ++i)
      s += (i ? ", " : "") + std::to_string(values[i]);
    return s + ">";
  }

  /// `qnt.requantize` of `input` (type `in`); returns the result.
  void requantize(const std::string &input, const Shape &shape,
                  const QType &in) {
    Storage outStorage = storage({"i8", "u8", "i16"});
    QType out;
    out.storage = outStorage;
    bool perAxis = in.axis && chance(50);
    out.axis = perAxis ? in.axis : std::nullopt;
    size_t n = perAxis ? in.scales.size() : 1;
    for (size_t i = 0; i < n; ++i) {
      double m;
      switch (pick(0, 9)) {
      case 1:
        m = 1.0 + 3.0 * fdp.ConsumeProbability<double>(); // M >= 1
        break;
      case 2:
        m = std::ldexp(1.0, static_cast<int>(pick(-60, -31))); // tiny M
        break;
      case 3:
        m = std::ldexp(1.0, static_cast<int>(pick(1, 40))); // huge M
        break;
      default:
        m = std::pow(10.0, -4.5 + 4.0 * fdp.ConsumeProbability<double>());
      }
      out.scales.push_back(in.scales[perAxis ? i : 0] / m);
      out.zps.push_back(zeroPoint(outStorage));
    }
    std::vector<std::string> attrs;
    if (chance(80))
      attrs.push_back("rounding = " + rounding());
    if (chance(30))
      attrs.push_back(clampAttr(outStorage, out.zps[0]));
    std::string v = fresh();
    std::string outType = tensorOf(shape, out.str());
    body.push_back(v + " = qnt.requantize " + input +
                   (attrs.empty() ? "" : " {" + join(attrs, ", ") + "}") +
                   " : " + tensorOf(shape, in.str()) + " -> " + outType);
    results.push_back({v, outType});
    if (chance(20)) {
      std::string r = fresh();
      body.push_back(r + " = qnt.dequantize " + v + " : " + outType + " -> " +
                     tensorOf(shape, "f32"));
      results.push_back({r, tensorOf(shape, "f32")});
    }
  }

  // --- Units ---------------------------------------------------------------

  void unit() {
    std::vector<void (Generator::*)()> units = {
        &Generator::quantize, &Generator::dequantize, &Generator::matmul,
        &Generator::matmul,   &Generator::conv2d,     &Generator::conv2d,
        &Generator::requantizeOnly};
    if (ops.add)
      units.push_back(&Generator::add);
    if (ops.maxPool2d || ops.avgPool2d)
      units.push_back(&Generator::pool);
    if (ops.concat)
      units.push_back(&Generator::concat);
    (this->*units[pick(0, units.size() - 1)])();
  }

  Shape anyShape() {
    Shape shape(pick(0, 4));
    for (int64_t &d : shape)
      d = dim();
    cap(shape);
    return shape;
  }

  void quantize() {
    Shape shape = anyShape();
    std::optional<int64_t> axis;
    if (!shape.empty() && chance(30))
      axis = pick(0, shape.size() - 1);
    QType t = qtype(storage({"i8", "u8", "i16"}), axis,
                    axis ? shape[*axis] : 1);
    Shape s = axis ? shape : maybeDynamic(shape);
    std::string x;
    if (chance(50) || std::count(s.begin(), s.end(), -1)) {
      x = newArg(tensorOf(s, "f32"));
    } else {
      x = fresh();
      body.push_back(x + " = arith.constant " + floatLiteral(s) + " : " +
                     tensorOf(s, "f32"));
    }
    std::string v = fresh(), type = tensorOf(s, t.str());
    body.push_back(v + " = qnt.quantize " + x + " : " + tensorOf(s, "f32") +
                   " -> " + type);
    results.push_back({v, type});
  }

  void dequantize() {
    Shape shape = anyShape();
    std::optional<int64_t> axis;
    if (!shape.empty() && chance(30))
      axis = pick(0, shape.size() - 1);
    QType t = qtype(storage(chance(3) ? std::vector<const char *>{"i32"}
                                      : std::vector<const char *>{"i8", "u8", "i16"}),
                    axis,
                    axis ? shape[*axis] : 1);
    std::string q = quantizedValue(shape, t);
    std::string v = fresh(), type = tensorOf(shape, "f32");
    body.push_back(v + " = qnt.dequantize " + q + " : " +
                   tensorOf(shape, t.str()) + " -> " + type);
    results.push_back({v, type});
  }

  /// Bias operand (or none) for `channels` outputs of accumulator `acc`.
  std::string bias(int64_t channels, const QType &acc, std::string &types) {
    if (chance(40))
      return "";
    QType b = acc;
    if (b.axis)
      b.axis = 0;
    Shape shape{channels};
    std::string v = quantizedValue(shape, b);
    types += ", " + tensorOf(shape, b.str());
    return ", " + v;
  }

  void matmul() {
    int64_t m = dim(), k = dim(32), n = dim();
    if (chance(5))
      k = pick(1024, kMaxElements); // worst-case sums near the i32 limit
    Shape xs{m, k}, ws{k, n};
    cap(xs);
    cap(ws);
    ws[0] = xs[1] = std::min(xs[1], ws[0]);
    Storage xst = storage({"u8", "i8", "i8", "i16"});
    Storage wst = storage({"i8", "i8", "u8"});
    QType x = qtype(xst, std::nullopt, 1);
    bool perAxis = chance(50);
    QType w = qtype(wst, perAxis ? std::optional<int64_t>(1) : std::nullopt,
                    ws[1], chance(50));
    QType acc = accType(x, w, 1);
    Shape xShape = chance(5) ? Shape{-1, xs[1]} : xs;
    std::string xv = quantizedValue(xShape, x);
    std::string wv = quantizedValue(ws, w);
    std::string types = tensorOf(xShape, x.str()) + ", " + tensorOf(ws, w.str());
    std::string b = bias(ws[1], acc, types);
    Shape accShape{xShape[0], ws[1]};
    std::string v = fresh(), accT = tensorOf(accShape, acc.str());
    body.push_back(v + " = qnt.matmul " + xv + ", " + wv + b + " : " + types +
                   " -> " + accT);
    if (chance(70))
      requantize(v, accShape, acc);
    else
      results.push_back({v, accT});
  }

  void conv2d() {
    int64_t nb = pick(1, 2), c = dim(6);
    std::vector<int64_t> kernel{pick(1, 4), pick(1, 4)};
    std::vector<int64_t> strides{pick(1, 3), pick(1, 3)};
    std::vector<int64_t> dilations{pick(1, 3), pick(1, 3)};
    std::vector<int64_t> pads{pick(0, 3), pick(0, 3), pick(0, 3), pick(0, 3)};
    if (chance(3))
      strides[pick(0, 1)] = 0; // invalid
    if (chance(3))
      pads[pick(0, 3)] = -1; // invalid
    if (chance(3))
      dilations[pick(0, 1)] = 0; // invalid
    int64_t groups = 1;
    switch (pick(0, 4)) {
    case 1:
      groups = std::max<int64_t>(c, 1); // depthwise
      break;
    case 2:
      groups = c % 2 == 0 && c ? 2 : 1;
      break;
    case 3:
      if (chance(10))
        groups = pick(0, 5); // possibly invalid
      break;
    }
    int64_t f = std::max<int64_t>(groups, 1) * pick(1, 3);
    if (chance(5))
      f = pick(1, 5); // possibly not a multiple of groups
    // Input large enough for one window, usually; sometimes too small.
    auto extent = [&](int i) {
      int64_t need = dilations[i] * (kernel[i] - 1) + 1 - pads[2 * i] -
                     pads[2 * i + 1];
      return std::max<int64_t>(1, need) + (chance(5) ? -1 : pick(0, 6));
    };
    int64_t h = extent(0), w = extent(1);
    if (chance(3))
      h = pick(100, 512);
    auto out = [&](int64_t in, int i) {
      int64_t s = strides[i] ? strides[i] : 1;
      return (in + pads[2 * i] + pads[2 * i + 1] -
              dilations[i] * (kernel[i] - 1) - 1) /
                 s +
             1;
    };
    int64_t cin = groups > 0 && c % groups == 0 ? c / groups : c;
    Shape xs{nb, h, w, c}, ws{kernel[0], kernel[1], cin, f};
    cap(xs);
    cap(ws);
    Shape accShape{xs[0], out(xs[1], 0), out(xs[2], 1), ws[3]};
    for (int64_t &d : accShape)
      d = std::max<int64_t>(d, 0);
    Storage xst = storage({"u8", "i8", "i8"});
    Storage wst = storage({"i8", "i8", "u8"});
    QType x = qtype(xst, std::nullopt, 1);
    bool perAxis = chance(50);
    QType wt = qtype(wst, perAxis ? std::optional<int64_t>(3) : std::nullopt,
                     ws[3], chance(50));
    QType acc = accType(x, wt, 3);
    std::string xv = quantizedValue(xs, x);
    std::string wv = quantizedValue(ws, wt);
    std::string types = tensorOf(xs, x.str()) + ", " + tensorOf(ws, wt.str());
    std::string b = bias(ws[3], acc, types);
    std::vector<std::string> attrs;
    if (chance(80))
      attrs.push_back("strides = " + i64Array(strides));
    if (chance(80))
      attrs.push_back("dilations = " + i64Array(dilations));
    if (chance(80))
      attrs.push_back("padding = " + i64Array(pads));
    if (chance(80))
      attrs.push_back("groups = " + std::to_string(groups) + " : i64");
    std::string v = fresh(), accT = tensorOf(accShape, acc.str());
    body.push_back(v + " = qnt.conv2d " + xv + ", " + wv + b + " {" +
                   join(attrs, ", ") + "} : " + types + " -> " + accT);
    if (chance(70))
      requantize(v, accShape, acc);
    else
      results.push_back({v, accT});
  }

  void requantizeOnly() {
    Shape shape = anyShape();
    std::optional<int64_t> axis;
    if (!shape.empty() && chance(30))
      axis = pick(0, shape.size() - 1);
    QType in = qtype(storage({"i32", "i32", "i8", "u8", "i16"}), axis,
                     axis ? shape[*axis] : 1);
    requantize(quantizedValue(shape, in), shape, in);
  }

  // --- Version 2 ops (emitted once they exist on main) ----------------------

  void add() {
    Shape shape(pick(1, 4));
    for (int64_t &d : shape)
      d = dim();
    cap(shape);
    auto broadcast = [&]() {
      Shape s = shape;
      for (int64_t &d : s)
        if (chance(30))
          d = 1;
      return s;
    };
    Shape as = broadcast(), bs = broadcast();
    QType a = qtype(storage({"i8", "u8", "i16"}), std::nullopt, 1);
    QType b = qtype(storage({"i8", "u8", "i16"}), std::nullopt, 1);
    QType y = qtype(storage({"i8", "u8", "i16"}), std::nullopt, 1);
    std::string av = quantizedValue(as, a), bv = quantizedValue(bs, b);
    std::vector<std::string> attrs;
    if (chance(70))
      attrs.push_back("rounding = " + rounding());
    if (chance(30))
      attrs.push_back(clampAttr(y.storage, y.zps[0]));
    std::string v = fresh(), type = tensorOf(shape, y.str());
    body.push_back(v + " = qnt.add " + av + ", " + bv +
                   (attrs.empty() ? "" : " {" + join(attrs, ", ") + "}") +
                   " : " + tensorOf(as, a.str()) + ", " +
                   tensorOf(bs, b.str()) + " -> " + type);
    results.push_back({v, type});
  }

  void pool() {
    bool isMax = ops.maxPool2d && (!ops.avgPool2d || chance(50));
    std::vector<int64_t> kernel{pick(1, 4), pick(1, 4)};
    std::vector<int64_t> strides{pick(1, 3), pick(1, 3)};
    std::vector<int64_t> dilations{1, 1};
    if (isMax && chance(30))
      dilations = {pick(1, 3), pick(1, 3)};
    std::vector<int64_t> pads{pick(0, 2), pick(0, 2), pick(0, 2), pick(0, 2)};
    if (chance(3))
      strides[0] = 0; // invalid
    auto extent = [&](int i) {
      int64_t need = dilations[i] * (kernel[i] - 1) + 1 - pads[2 * i] -
                     pads[2 * i + 1];
      return std::max<int64_t>(1, need) + pick(0, 6);
    };
    Shape xs{pick(1, 2), extent(0), extent(1), dim(8)};
    cap(xs);
    auto out = [&](int64_t in, int i) {
      int64_t s = strides[i] ? strides[i] : 1;
      return std::max<int64_t>(0, (in + pads[2 * i] + pads[2 * i + 1] -
                                   dilations[i] * (kernel[i] - 1) - 1) /
                                          s +
                                      1);
    };
    Shape ys{xs[0], out(xs[1], 0), out(xs[2], 1), xs[3]};
    QType t = qtype(storage({"i8", "u8", "i16"}), std::nullopt, 1);
    std::string xv = quantizedValue(xs, t);
    std::vector<std::string> attrs{"kernel = " + i64Array(kernel)};
    if (chance(80))
      attrs.push_back("strides = " + i64Array(strides));
    if (isMax && chance(50))
      attrs.push_back("dilations = " + i64Array(dilations));
    if (chance(80))
      attrs.push_back("padding = " + i64Array(pads));
    if (!isMax && chance(50))
      attrs.push_back(std::string("count_include_pad = ") +
                      (chance(50) ? "true" : "false"));
    // The average's ties; now and then a mode that rounds no exact
    // quotient (invalid).
    if (!isMax && chance(50))
      attrs.push_back(std::string("rounding = ") +
                      (chance(5)    ? rounding()
                       : chance(50) ? "\"half_even\""
                                    : "\"away\""));
    std::string v = fresh(), type = tensorOf(ys, t.str());
    body.push_back(v + (isMax ? " = qnt.max_pool2d " : " = qnt.avg_pool2d ") +
                   xv + " {" + join(attrs, ", ") + "} : " +
                   tensorOf(xs, t.str()) + " -> " + type);
    results.push_back({v, type});
  }

  void concat() {
    Shape shape(pick(1, 4));
    for (int64_t &d : shape)
      d = dim();
    cap(shape);
    int64_t axis = pick(0, shape.size() - 1);
    Storage st = storage({"i8", "u8", "i16"});
    QType y = qtype(st, std::nullopt, 1);
    unsigned n = pick(1, 3);
    std::vector<std::string> values, types;
    int64_t total = 0;
    for (unsigned i = 0; i < n; ++i) {
      Shape s = shape;
      s[axis] = dim(4);
      total += s[axis];
      QType t = chance(50) ? y : qtype(st, std::nullopt, 1);
      values.push_back(quantizedValue(s, t));
      types.push_back(tensorOf(s, t.str()));
    }
    Shape ys = shape;
    ys[axis] = total;
    std::vector<std::string> attrs{"axis = " + std::to_string(axis) + " : i64"};
    if (chance(50))
      attrs.push_back("rounding = " + rounding());
    std::string v = fresh(), type = tensorOf(ys, y.str());
    body.push_back(v + " = qnt.concat " + join(values, ", ") + " {" +
                   join(attrs, ", ") + "} : " + join(types, ", ") + " -> " +
                   type);
    results.push_back({v, type});
  }
};

} // namespace

std::string quantopt::fuzz::generateModule(const uint8_t *data, size_t size,
                                           const AvailableOps &ops) {
  return Generator(data, size, ops).run();
}
