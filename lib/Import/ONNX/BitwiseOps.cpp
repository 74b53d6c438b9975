//===- BitwiseOps.cpp - BitShift, BitwiseAnd / Or / Xor / Not -------------===//
//
// The bit operations of ONNX on integer tensors (BitShift since opset 11 on
// unsigned types, the Bitwise ops since opset 18 on every integer type),
// elementwise with numpy broadcasting, in the element type of their inputs.
// Compile-time operands fold; otherwise one linalg.generic.
//
// A shift by the type's width or more gives 0 in either direction: the
// rule of numpy and of ONNX's reference implementation (ONNX Runtime's C++
// shift is undefined there, and LLVM's shift would be poison).
//
//===----------------------------------------------------------------------===//

#include "Importer.h"
#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace quantopt::onnx_import::detail;

namespace {
enum class BitOp { ShiftLeft, ShiftRight, And, Or, Xor, Not };
} // namespace

static bool isInteger(int32_t dtype) {
  return isUnsignedIntType(dtype) || dtype == onnx::TensorProto::INT8 ||
         dtype == onnx::TensorProto::INT16 ||
         dtype == onnx::TensorProto::INT32 || dtype == onnx::TensorProto::INT64;
}

/// `op` on two integers of `width` bits (their two's complement bits in
/// the low bits of x and y), sign-extended back from `width` when the type
/// is signed, as the importer stores compile-time integers.
static int64_t foldBitOp(BitOp op, int64_t x, int64_t y, unsigned width,
                         bool isSigned) {
  uint64_t mask = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
  uint64_t ux = uint64_t(x) & mask, uy = uint64_t(y) & mask, r;
  switch (op) {
  case BitOp::ShiftLeft:
    r = uy >= width ? 0 : (ux << uy) & mask;
    break;
  case BitOp::ShiftRight:
    r = uy >= width ? 0 : ux >> uy;
    break;
  case BitOp::And:
    r = ux & uy;
    break;
  case BitOp::Or:
    r = ux | uy;
    break;
  case BitOp::Xor:
    r = ux ^ uy;
    break;
  case BitOp::Not:
    r = ~ux & mask;
    break;
  }
  return wrapToWidth(r, width, !isSigned);
}

static Value emitBitOp(OpBuilder &nb, Location l, BitOp op, Type elem,
                       ValueRange v) {
  auto constant = [&](int64_t c) -> Value {
    return arith::ConstantOp::create(nb, l, nb.getIntegerAttr(elem, c));
  };
  switch (op) {
  case BitOp::And:
    return arith::AndIOp::create(nb, l, v[0], v[1]);
  case BitOp::Or:
    return arith::OrIOp::create(nb, l, v[0], v[1]);
  case BitOp::Xor:
    return arith::XOrIOp::create(nb, l, v[0], v[1]);
  case BitOp::Not:
    return arith::XOrIOp::create(nb, l, v[0], constant(-1));
  case BitOp::ShiftLeft:
  case BitOp::ShiftRight: {
    // LLVM's shift by the width or more is poison: select 0 there.
    Value shifted = op == BitOp::ShiftLeft
                        ? Value(arith::ShLIOp::create(nb, l, v[0], v[1]))
                        : Value(arith::ShRUIOp::create(nb, l, v[0], v[1]));
    Value tooFar =
        arith::CmpIOp::create(nb, l, arith::CmpIPredicate::uge, v[1],
                              constant(elem.getIntOrFloatBitWidth()));
    return arith::SelectOp::create(nb, l, tooFar, constant(0), shifted);
  }
  }
  llvm_unreachable("unknown bit operation");
}

LogicalResult Importer::importBitwiseOp() {
  StringRef name = node->op_type();
  bool isShift = name == "BitShift";
  if (failed(isShift ? checkAttrs({"direction"}) : checkAttrs({})))
    return failure();
  BitOp op = name == "BitwiseAnd"   ? BitOp::And
             : name == "BitwiseOr"  ? BitOp::Or
             : name == "BitwiseXor" ? BitOp::Xor
                                    : BitOp::Not;
  if (isShift) {
    std::optional<std::string> direction = attrString("direction");
    if (!direction)
      return fail("the attribute 'direction' is required");
    if (*direction != "LEFT" && *direction != "RIGHT")
      return fail("direction must be \"LEFT\" or \"RIGHT\", got \"" +
                  *direction + "\"");
    op = *direction == "LEFT" ? BitOp::ShiftLeft : BitOp::ShiftRight;
  }
  unsigned arity = op == BitOp::Not ? 1 : 2;
  if (node->input_size() != int(arity))
    return fail(name + " takes " + Twine(arity) + " input" +
                (arity == 1 ? "" : "s"));
  SmallVector<ImportedValue *, 2> ins;
  for (unsigned k = 0; k < arity; ++k) {
    auto v = input(k);
    if (failed(v))
      return failure();
    ins.push_back(*v);
  }
  for (ImportedValue *v : ins) {
    if (!v->holdsIntegers() ||
        (v->kind == Kind::Const && v->i.empty() && v->numElements() != 0))
      return fail(name + " takes integer tensors (not floats or quantized "
                         "codes)");
    if (v->dtype == onnx::TensorProto::BOOL)
      return fail(name + " of boolean tensors (And, Or, Xor and Not take "
                         "those)");
    if (!isInteger(v->dtype))
      return fail(name + " takes integer tensors");
    if (isShift && !isUnsignedIntType(v->dtype))
      return fail("BitShift takes unsigned integers (uint8, uint16, uint32, "
                  "uint64)");
    if (v->dtype != ins[0]->dtype)
      return fail(name + " of integer tensors of different element types");
  }
  std::optional<SmallVector<int64_t>> shape =
      arity == 1 ? std::optional<SmallVector<int64_t>>(
                       SmallVector<int64_t>(ins[0]->shape))
                 : broadcastShapes(ins[0]->shape, ins[1]->shape);
  if (!shape)
    return fail("shapes do not broadcast");
  int32_t dtype = ins[0]->dtype;
  ImportedValue out;
  out.dtype = dtype;
  out.shape.assign(shape->begin(), shape->end());

  bool allConst = llvm::all_of(
      ins, [](ImportedValue *v) { return v->kind == Kind::Const; });
  std::optional<int64_t> count = foldableCount(*shape);
  if (allConst && count) {
    Type elem = integerElementType(*this, *ins[0]);
    unsigned width = elem.getIntOrFloatBitWidth();
    out.kind = Kind::Const;
    for (int64_t n = 0; n < *count; ++n) {
      int64_t x = ins[0]->i[broadcastSource(ins[0]->shape, *shape, n)];
      int64_t y =
          arity == 1 ? 0 : ins[1]->i[broadcastSource(ins[1]->shape, *shape, n)];
      out.i.push_back(foldBitOp(op, x, y, width, !isUnsignedIntType(dtype)));
    }
    setOutput(0, std::move(out));
    return success();
  }
  // The element type of the run-time operand (a constant's follows it).
  ImportedValue *runtime = ins[0]->kind == Kind::Int ? ins[0] : ins.back();
  Type elem = integerElementType(*this, *runtime);
  int64_t rank = shape->size();
  SmallVector<Value> values;
  for (ImportedValue *v : ins)
    values.push_back(withLeadingOnes(*this, logicalIntegers(*this, *v, elem),
                                     v->shape, rank));
  out.kind = Kind::Int;
  out.value = elementwise(
      *this, values, *shape,
      [&](OpBuilder &nb, Location l, ValueRange v) {
        return emitBitOp(nb, l, op, elem, v);
      },
      elem);
  setOutput(0, std::move(out));
  return success();
}
