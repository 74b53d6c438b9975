//===- RoundingModeTest.cpp - the rounding enum attribute -----------------===//
//
// `rounding` is an enum in C++ and the contract's string in the IR text
// (`rounding = "double"`, custom and generic form alike).
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/IR/QntOps.h"

#include "QuantOpt/InitAll.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

class RoundingModeTest : public ::testing::Test {
protected:
  RoundingModeTest() {
    DialectRegistry registry;
    quantopt::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    context.loadDialect<func::FuncDialect>();
  }

  /// Parses one requantize in a function and returns it (null on error).
  qnt::RequantizeOp parseRequantize(StringRef attrs, bool generic = false) {
    std::string text =
        "func.func @f(%a: tensor<4x!quant.uniform<i32:f32, 0.5>>) {\n";
    if (generic)
      text += "  %y = \"qnt.requantize\"(%a) " + attrs.str() +
              " : (tensor<4x!quant.uniform<i32:f32, 0.5>>) -> "
              "tensor<4x!quant.uniform<i8:f32, 1.0>>\n";
    else
      text += "  %y = qnt.requantize %a " + attrs.str() +
              " : tensor<4x!quant.uniform<i32:f32, 0.5>> -> "
              "tensor<4x!quant.uniform<i8:f32, 1.0>>\n";
    text += "  return\n}\n";
    module = parseSourceString<ModuleOp>(text, &context);
    if (!module)
      return nullptr;
    qnt::RequantizeOp op;
    module->walk([&](qnt::RequantizeOp found) { op = found; });
    return op;
  }

  static std::string print(Operation *op) {
    std::string text;
    llvm::raw_string_ostream os(text);
    op->print(os);
    return text;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(RoundingModeTest, EveryContractNameParsesToItsEnumerator) {
  const std::pair<const char *, qnt::RoundingMode> cases[] = {
      {"double", qnt::RoundingMode::Double},
      {"single", qnt::RoundingMode::Single},
      {"away", qnt::RoundingMode::Away},
      {"half_even", qnt::RoundingMode::HalfEven},
      {"float", qnt::RoundingMode::Float}};
  for (auto [name, mode] : cases) {
    std::string attrs = std::string("{rounding = \"") + name + "\"}";
    qnt::RequantizeOp op = parseRequantize(attrs);
    ASSERT_TRUE(op) << name;
    EXPECT_EQ(op.getRounding(), mode) << name;
    // The generic form spells the same string.
    qnt::RequantizeOp generic =
        parseRequantize(std::string("<{rounding = \"") + name + "\"}>",
                        /*generic=*/true);
    ASSERT_TRUE(generic) << name;
    EXPECT_EQ(generic.getRounding(), mode) << name;
  }
}

TEST_F(RoundingModeTest, AbsentMeansDoubleAndIsNotPrinted) {
  qnt::RequantizeOp op = parseRequantize("");
  ASSERT_TRUE(op);
  EXPECT_EQ(op.getRounding(), qnt::RoundingMode::Double);
  EXPECT_EQ(print(op).find("rounding"), std::string::npos) << print(op);
}

TEST_F(RoundingModeTest, BuilderTakesTheEnumAndPrintsTheContractSpelling) {
  qnt::RequantizeOp parsed = parseRequantize("");
  ASSERT_TRUE(parsed);
  OpBuilder b(parsed);
  auto op = qnt::RequantizeOp::create(b, parsed.getLoc(),
                                      parsed.getOutput().getType(),
                                      parsed.getInput(),
                                      qnt::RoundingMode::HalfEven,
                                      /*clamp=*/nullptr);
  EXPECT_EQ(op.getRounding(), qnt::RoundingMode::HalfEven);
  EXPECT_NE(print(op).find("rounding = \"half_even\""), std::string::npos)
      << print(op);
  EXPECT_TRUE(succeeded(verify(op)));
}

TEST_F(RoundingModeTest, UnknownNameIsAVerifierErrorNamingIt) {
  std::string message;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  EXPECT_FALSE(parseRequantize("{rounding = \"nearest\"}"));
  EXPECT_EQ(message, "'qnt.requantize' op unknown rounding \"nearest\"; "
                     "expected one of \"double\", \"single\", \"away\", "
                     "\"half_even\", \"float\"");
}

TEST_F(RoundingModeTest, ReferenceEnumMatchesByName) {
  for (qnt::RoundingMode mode :
       {qnt::RoundingMode::Double, qnt::RoundingMode::Single,
        qnt::RoundingMode::Away, qnt::RoundingMode::HalfEven,
        qnt::RoundingMode::Float})
    EXPECT_EQ(quantopt::ref::stringifyRoundingMode(
                  qnt::toReferenceRounding(mode)),
              qnt::stringifyRoundingMode(mode).str());
}

} // namespace
