//===- quant-ref-run.cpp - run a qnt module on the reference model ---------===//
//
// Interprets the entry function of a module with the MLIR-free reference
// model (QuantOpt/Reference): the golden side of every end-to-end check. It
// never runs a compiler pass, so its answers are independent of the
// lowering. Output uses upstream's printMemref format, so that it can be
// compared line by line with `mlir-runner` running the compiled module.
//
// Supported: func.func/call/return, arith.constant, arith.bitcast (f32 to
// i32), quant.scast,
// qnt.{constant,quantize,dequantize,matmul,conv2d,requantize},
// tensor.collapse_shape/expand_shape, bufferization.to_buffer, memref.cast
// and calls to printMemref{I8,U8,I16,I32,F32}.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"
#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"
#include "QuantOpt/InitAll.h"
#include "QuantOpt/Reference/Kernels.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/ExecutionEngine/RunnerUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>

using namespace mlir;

static llvm::cl::opt<std::string> inputFilename(llvm::cl::Positional,
                                                llvm::cl::desc("<input>"),
                                                llvm::cl::Required);
static llvm::cl::opt<std::string>
    entryPoint("e", llvm::cl::desc("Function to run (no arguments)"),
               llvm::cl::init("main"));

namespace {
/// A tensor value: integer codes (interpreted with the signedness of the
/// value's type) or f32 values.
struct Tensor {
  std::vector<int64_t> shape;
  std::vector<int32_t> codes;
  std::vector<float> floats;
};

class Interpreter {
public:
  explicit Interpreter(ModuleOp module) : module(module) {}

  LogicalResult run(func::FuncOp func, ArrayRef<Tensor> args,
                    SmallVectorImpl<Tensor> &results);

private:
  LogicalResult step(Operation *op, SmallVectorImpl<Tensor> *results,
                     bool &returned);
  LogicalResult print(func::CallOp call);
  Tensor &get(Value v) { return values[v]; }

  ModuleOp module;
  DenseMap<Value, Tensor> values;
};
} // namespace

static std::vector<int64_t> shapeOf(Value v) {
  auto type = cast<ShapedType>(v.getType());
  return std::vector<int64_t>(type.getShape().begin(), type.getShape().end());
}

/// Codes of a plain integer tensor are two's complement bits of its width;
/// unsigned element types read as unsigned.
static int32_t toCode(const APInt &bits, bool isUnsigned) {
  return static_cast<int32_t>(isUnsigned ? bits.getZExtValue()
                                         : bits.getSExtValue());
}

/// Re-reads the bits of `code` (of `width` bits) with the given signedness.
static int32_t reinterpret(int32_t code, unsigned width, bool isSigned) {
  if (width >= 32)
    return code;
  uint32_t mask = (1u << width) - 1;
  uint32_t bits = static_cast<uint32_t>(code) & mask;
  if (isSigned && (bits >> (width - 1)))
    return static_cast<int32_t>(bits | ~mask);
  return static_cast<int32_t>(bits);
}

LogicalResult Interpreter::run(func::FuncOp func, ArrayRef<Tensor> args,
                               SmallVectorImpl<Tensor> &results) {
  if (func.isExternal())
    return func.emitError("quant-ref-run: cannot run an external function");
  if (!func.getBody().hasOneBlock())
    return func.emitError("quant-ref-run: only single-block functions");
  Block &block = func.getBody().front();
  for (auto [arg, value] : llvm::zip(block.getArguments(), args))
    values[arg] = value;
  bool returned = false;
  for (Operation &op : block) {
    if (failed(step(&op, &results, returned)))
      return failure();
    if (returned)
      return success();
  }
  return func.emitError("quant-ref-run: missing return");
}

LogicalResult Interpreter::step(Operation *op, SmallVectorImpl<Tensor> *results,
                                bool &returned) {
  using namespace quantopt;
  if (auto ret = dyn_cast<func::ReturnOp>(op)) {
    for (Value v : ret.getOperands())
      results->push_back(get(v));
    returned = true;
    return success();
  }
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    Tensor t;
    t.shape = shapeOf(constant.getResult());
    if (auto ints = dyn_cast<DenseIntElementsAttr>(constant.getValue())) {
      bool isUnsigned = ints.getElementType().isUnsignedInteger();
      for (const APInt &v : ints.getValues<APInt>())
        t.codes.push_back(toCode(v, isUnsigned));
    } else if (auto fps = dyn_cast<DenseFPElementsAttr>(constant.getValue())) {
      for (float v : fps.getValues<float>())
        t.floats.push_back(v);
    } else {
      return op->emitError("quant-ref-run: unsupported constant");
    }
    values[constant.getResult()] = std::move(t);
    return success();
  }
  if (auto constant = dyn_cast<qnt::ConstantOp>(op)) {
    Tensor t;
    t.shape = shapeOf(constant.getResult());
    t.codes = qnt::readCodes(constant.getValue(),
                             qnt::getUniformElementType(constant.getType()));
    values[constant.getResult()] = std::move(t);
    return success();
  }
  if (auto storageCast = dyn_cast<quant::StorageCastOp>(op)) {
    Tensor t = get(storageCast.getInput());
    // Storage casts keep the bits; the signedness of the target decides how
    // they read (u8 code 200 is i8 -56).
    Type target = storageCast.getType();
    quant::QuantizedType quantTarget = qnt::getUniformElementType(target);
    Type element = cast<ShapedType>(target).getElementType();
    unsigned width = quantTarget ? quantTarget.getStorageTypeIntegralWidth()
                                 : element.getIntOrFloatBitWidth();
    bool isSigned =
        quantTarget ? quantTarget.isSigned() : !element.isUnsignedInteger();
    for (int32_t &code : t.codes)
      code = reinterpret(code, width, isSigned);
    values[storageCast.getResult()] = std::move(t);
    return success();
  }
  if (auto quantize = dyn_cast<qnt::QuantizeOp>(op)) {
    Tensor t;
    t.shape = shapeOf(quantize.getOutput());
    t.codes = ref::quantize(get(quantize.getInput()).floats, t.shape,
                            qnt::getQuantParams(qnt::getUniformElementType(
                                quantize.getOutput().getType())));
    values[quantize.getOutput()] = std::move(t);
    return success();
  }
  if (auto dequantize = dyn_cast<qnt::DequantizeOp>(op)) {
    Tensor t;
    t.shape = shapeOf(dequantize.getOutput());
    t.floats = ref::dequantize(get(dequantize.getInput()).codes, t.shape,
                               qnt::getQuantParams(qnt::getUniformElementType(
                                   dequantize.getInput().getType())));
    values[dequantize.getOutput()] = std::move(t);
    return success();
  }
  if (auto requantize = dyn_cast<qnt::RequantizeOp>(op)) {
    std::optional<std::pair<int32_t, int32_t>> clamp;
    if (std::optional<ArrayRef<int64_t>> bounds = requantize.getClamp())
      clamp = std::make_pair(int32_t((*bounds)[0]), int32_t((*bounds)[1]));
    Tensor t;
    t.shape = shapeOf(requantize.getOutput());
    t.codes = ref::requantize(
        get(requantize.getInput()).codes, t.shape,
        qnt::getQuantParams(
            qnt::getUniformElementType(requantize.getInput().getType())),
        qnt::getQuantParams(
            qnt::getUniformElementType(requantize.getOutput().getType())),
        *ref::parseRoundingMode(requantize.getRounding()), clamp);
    values[requantize.getOutput()] = std::move(t);
    return success();
  }
  if (auto matmul = dyn_cast<qnt::MatmulOp>(op)) {
    std::vector<int64_t> xShape = shapeOf(matmul.getX());
    std::vector<int64_t> wShape = shapeOf(matmul.getW());
    ref::QuantParams x = qnt::getQuantParams(
        qnt::getUniformElementType(matmul.getX().getType()));
    ref::QuantParams w = qnt::getQuantParams(
        qnt::getUniformElementType(matmul.getW().getType()));
    std::vector<int32_t> bias;
    if (matmul.getBias())
      bias = get(matmul.getBias()).codes;
    Tensor t;
    t.shape = shapeOf(matmul.getResult());
    t.codes = ref::matmul(xShape[0], xShape[1], wShape[1],
                          get(matmul.getX()).codes, x.zeroPoints.front(),
                          get(matmul.getW()).codes, w.zeroPoints, bias);
    values[matmul.getResult()] = std::move(t);
    return success();
  }
  if (auto conv = dyn_cast<qnt::Conv2DOp>(op)) {
    std::vector<int64_t> xShape = shapeOf(conv.getX());
    std::vector<int64_t> wShape = shapeOf(conv.getW());
    ref::Conv2DShape s;
    s.batch = xShape[0], s.inH = xShape[1], s.inW = xShape[2];
    s.inC = xShape[3], s.kernelH = wShape[0], s.kernelW = wShape[1];
    s.outC = wShape[3];
    s.strideH = conv.getStrides()[0], s.strideW = conv.getStrides()[1];
    s.dilationH = conv.getDilations()[0], s.dilationW = conv.getDilations()[1];
    s.padTop = conv.getPadding()[0], s.padBottom = conv.getPadding()[1];
    s.padLeft = conv.getPadding()[2], s.padRight = conv.getPadding()[3];
    s.groups = conv.getGroups();
    ref::QuantParams x = qnt::getQuantParams(
        qnt::getUniformElementType(conv.getX().getType()));
    ref::QuantParams w = qnt::getQuantParams(
        qnt::getUniformElementType(conv.getW().getType()));
    std::vector<int32_t> bias;
    if (conv.getBias())
      bias = get(conv.getBias()).codes;
    Tensor t;
    t.shape = shapeOf(conv.getResult());
    t.codes = ref::conv2d(s, get(conv.getX()).codes, x.zeroPoints.front(),
                          get(conv.getW()).codes, w.zeroPoints, bias);
    values[conv.getResult()] = std::move(t);
    return success();
  }
  if (auto bitcast = dyn_cast<arith::BitcastOp>(op)) {
    // f32 -> i32 bits, so that float results compare bit for bit.
    Tensor t = get(bitcast.getIn());
    if (t.floats.empty() && !t.codes.empty())
      return op->emitError("quant-ref-run: only f32 -> i32 bitcasts");
    for (float v : t.floats) {
      int32_t bits;
      std::memcpy(&bits, &v, sizeof(bits));
      t.codes.push_back(bits);
    }
    t.floats.clear();
    values[bitcast.getResult()] = std::move(t);
    return success();
  }
  if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op)) {
    // Row-major data is unchanged by a reshape.
    Tensor t = get(op->getOperand(0));
    t.shape = shapeOf(op->getResult(0));
    values[op->getResult(0)] = std::move(t);
    return success();
  }
  if (auto toBuffer = dyn_cast<bufferization::ToBufferOp>(op)) {
    // Copy before inserting: DenseMap insertion may move existing entries.
    Tensor t = get(toBuffer.getTensor());
    values[toBuffer.getResult()] = std::move(t);
    return success();
  }
  if (auto memrefCast = dyn_cast<memref::CastOp>(op)) {
    Tensor t = get(memrefCast.getSource());
    values[memrefCast.getResult()] = std::move(t);
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    if (call.getCallee().starts_with("printMemref"))
      return print(call);
    auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
    if (!callee)
      return op->emitError("quant-ref-run: unknown callee");
    SmallVector<Tensor> args, results;
    for (Value v : call.getOperands())
      args.push_back(get(v));
    Interpreter nested(module);
    if (failed(nested.run(callee, args, results)))
      return failure();
    for (auto [result, value] : llvm::zip(call.getResults(), results))
      values[result] = value;
    return success();
  }
  return op->emitError("quant-ref-run: unsupported op '")
         << op->getName() << "'";
}

/// Prints like upstream printMemrefI32 / printMemrefF32 (the same template),
/// including the 'Unranked Memref' header line.
template <typename T>
static void printLikeUpstream(const std::vector<int64_t> &shape,
                              std::vector<T> data) {
  int64_t rank = shape.size();
  std::vector<int64_t> descriptor(3 + 2 * rank);
  T *ptr = data.data();
  std::memcpy(&descriptor[0], &ptr, sizeof(ptr));
  std::memcpy(&descriptor[1], &ptr, sizeof(ptr));
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    descriptor[3 + d] = shape[d];
    descriptor[3 + rank + d] = stride;
    stride *= shape[d];
  }
  ::UnrankedMemRefType<T> unranked = {rank, descriptor.data()};
  std::cout << "Unranked Memref ";
  ::impl::printMemRef(::DynamicMemRefType<T>(unranked));
}

LogicalResult Interpreter::print(func::CallOp call) {
  if (call.getNumOperands() != 1)
    return call.emitError("quant-ref-run: print takes one memref");
  const Tensor &t = get(call.getOperand(0));
  StringRef name = call.getCallee();
  int64_t count = 1;
  for (int64_t d : t.shape)
    count *= d;
  size_t size = name == "printMemrefF32" ? t.floats.size() : t.codes.size();
  if (static_cast<int64_t>(size) != count)
    return call.emitError("quant-ref-run: internal error: ")
           << size << " values for a tensor of " << count << " elements";
  if (name == "printMemrefF32") {
    printLikeUpstream<float>(t.shape, t.floats);
    return success();
  }
  // 8-bit codes are printed widened to i32 (lib/Runtime does the same for
  // the compiled side); the reinterpretation follows the callee's name.
  std::vector<int32_t> codes = t.codes;
  if (name == "printMemrefI8" || name == "printMemrefU8")
    for (int32_t &code : codes)
      code = reinterpret(code, 8, name == "printMemrefI8");
  else if (name == "printMemrefI16")
    for (int32_t &code : codes)
      code = reinterpret(code, 16, /*isSigned=*/true);
  else if (name != "printMemrefI32")
    return call.emitError("quant-ref-run: unsupported printer ") << name;
  printLikeUpstream<int32_t>(t.shape, codes);
  return success();
}

int main(int argc, char **argv) {
  llvm::InitLLVM y(argc, argv);
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "run a qnt module on the reference model\n");
  DialectRegistry registry;
  quantopt::registerAllDialects(registry);
  registry.insert<func::FuncDialect, bufferization::BufferizationDialect,
                  memref::MemRefDialect, tensor::TensorDialect>();
  MLIRContext context(registry);
  context.loadAllAvailableDialects();

  llvm::SourceMgr sourceMgr;
  std::string errorMessage;
  auto file = openInputFile(inputFilename, &errorMessage);
  if (!file) {
    llvm::errs() << "quant-ref-run: " << errorMessage << "\n";
    return 1;
  }
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 1;
  auto entry = module->lookupSymbol<func::FuncOp>(entryPoint);
  if (!entry || entry.getNumArguments() != 0) {
    llvm::errs() << "quant-ref-run: no function @" << entryPoint
                 << " without arguments\n";
    return 1;
  }
  Interpreter interpreter(*module);
  SmallVector<Tensor> results;
  return failed(interpreter.run(entry, {}, results)) ? 1 : 0;
}
