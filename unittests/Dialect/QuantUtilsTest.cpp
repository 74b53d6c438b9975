//===- QuantUtilsTest.cpp - quant type bridge tests ------------------------===//

#include "QuantOpt/Dialect/Qnt/Utils/QuantUtils.h"

#include "QuantOpt/InitAll.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace mlir;

namespace {

class QuantUtilsTest : public ::testing::Test {
protected:
  QuantUtilsTest() {
    DialectRegistry registry;
    quantopt::registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  quant::QuantizedType parse(StringRef text) {
    Type type = parseType(text, &context);
    EXPECT_TRUE(type) << text.str();
    return qnt::getUniformElementType(type);
  }

  MLIRContext context;
};

TEST_F(QuantUtilsTest, PerTensorU8) {
  quant::QuantizedType type = parse("!quant.uniform<u8:f32, 0.25:128>");
  ASSERT_TRUE(type);
  quantopt::ref::QuantParams params = qnt::getQuantParams(type);
  EXPECT_EQ(params.axis, -1);
  EXPECT_EQ(params.scales, std::vector<double>{0.25});
  EXPECT_EQ(params.zeroPoints, std::vector<int32_t>{128});
  EXPECT_EQ(params.storageMin, 0);
  EXPECT_EQ(params.storageMax, 255);
  // max(255 - 128, 128 - 0) = 128.
  EXPECT_EQ(qnt::getMaxAbsOffset(type), 128);
  EXPECT_TRUE(qnt::getCodeType(type).isUnsignedInteger(8));
}

TEST_F(QuantUtilsTest, NarrowRangePerAxis) {
  quant::QuantizedType type =
      parse("tensor<2x2x!quant.uniform<i8<-127:127>:f32:1, {0.5, 0.25:3}>>");
  ASSERT_TRUE(type);
  EXPECT_TRUE(qnt::isPerAxis(type));
  quantopt::ref::QuantParams params = qnt::getQuantParams(type);
  EXPECT_EQ(params.axis, 1);
  EXPECT_EQ(params.scales, (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(params.zeroPoints, (std::vector<int32_t>{0, 3}));
  EXPECT_EQ(params.storageMin, -127);
  EXPECT_EQ(params.storageMax, 127);
  // Channel 1: 3 - (-127) = 130 is the largest offset.
  EXPECT_EQ(qnt::getMaxAbsOffset(type), 130);
  EXPECT_TRUE(qnt::getCodeType(type).isSignlessInteger(8));
}

TEST_F(QuantUtilsTest, CodesRoundTripWithSignedness) {
  quant::QuantizedType u8 = parse("!quant.uniform<u8:f32, 0.25:128>");
  DenseIntElementsAttr attr = qnt::buildCodesAttr({3}, u8, {0, 200, 255});
  EXPECT_EQ(qnt::readCodes(attr, u8), (std::vector<int32_t>{0, 200, 255}));
  quant::QuantizedType i16 = parse("!quant.uniform<i16:f32, 0.5:-7>");
  attr = qnt::buildCodesAttr({2}, i16, {-32768, 32767});
  EXPECT_EQ(qnt::readCodes(attr, i16), (std::vector<int32_t>{-32768, 32767}));
}

TEST_F(QuantUtilsTest, ScaleTolerance) {
  // 0.05 * 0.01 printed as 5.000000e-04 must still match.
  EXPECT_TRUE(qnt::scalesMatch(5.000000e-04, 0.05 * 0.01));
  EXPECT_FALSE(qnt::scalesMatch(5.01e-04, 0.05 * 0.01));
}

TEST_F(QuantUtilsTest, SubnormalScaleStoredAsF32Matches) {
  // 1.2 * 2^-149 rounds to the f32 2^-149 (20% off), 1.6 * 2^-149 to
  // 2 * 2^-149: an f32 bias scale near the bottom of f32 holds the product
  // S_X * S_W only to its rounding.
  const double tiny = std::ldexp(1.0, -149);
  EXPECT_TRUE(qnt::scalesMatch(tiny, 1.2 * tiny));
  EXPECT_FALSE(qnt::scalesMatch(tiny, 1.6 * tiny));
  EXPECT_TRUE(qnt::scalesMatch(2 * tiny, 1.6 * tiny));
  // Normal values are still held to the relative tolerance.
  const double normal = 1.5 * std::ldexp(1.0, -126);
  EXPECT_FALSE(qnt::scalesMatch(normal * 1.01, normal));
}

TEST_F(QuantUtilsTest, NonUniformTypesAreRejected) {
  EXPECT_FALSE(qnt::getUniformElementType(Float32Type::get(&context)));
  Type any = parseType("!quant.any<i8:f32>", &context);
  ASSERT_TRUE(any);
  EXPECT_FALSE(qnt::getUniformElementType(any));
}

TEST_F(QuantUtilsTest, ZeroPointsAreReadWithoutTruncation) {
  // 2^32 narrows to 0 in int32; getZeroPoints keeps it.
  quant::QuantizedType type = parse("!quant.uniform<i32:f32, 0.5:4294967296>");
  ASSERT_TRUE(type);
  EXPECT_EQ(qnt::getZeroPoints(type), SmallVector<int64_t>{4294967296});
  quant::QuantizedType perAxis =
      parse("tensor<2x!quant.uniform<i8:f32:0, {0.5:-3, 0.25:7}>>");
  ASSERT_TRUE(perAxis);
  EXPECT_EQ(qnt::getZeroPoints(perAxis), (SmallVector<int64_t>{-3, 7}));
}

TEST_F(QuantUtilsTest, MaxAbsOffsetOfStorageBits) {
  // i8<-1:1>, z = 0: the declared range gives 1, the i8 bits give 128.
  quant::QuantizedType narrow = parse("!quant.uniform<i8<-1:1>:f32, 0.5>");
  ASSERT_TRUE(narrow);
  EXPECT_EQ(qnt::getMaxAbsOffset(narrow), 1);
  EXPECT_EQ(qnt::getMaxAbsOffsetOfStorageBits(narrow), 128);
  // u8<100:101>, z = 100: max(255 - 100, 100 - 0) = 155.
  quant::QuantizedType u8 = parse("!quant.uniform<u8<100:101>:f32, 0.5:100>");
  ASSERT_TRUE(u8);
  EXPECT_EQ(qnt::getMaxAbsOffset(u8), 1);
  EXPECT_EQ(qnt::getMaxAbsOffsetOfStorageBits(u8), 155);
}

TEST_F(QuantUtilsTest, SplatCodesAreReadOnce) {
  quant::QuantizedType u8 = parse("!quant.uniform<u8:f32, 0.25:128>");
  ASSERT_TRUE(u8);
  // 2^62 elements: anything that expanded this would abort.
  int64_t huge = int64_t(1) << 62;
  DenseIntElementsAttr splat = qnt::buildSplatCodesAttr({huge}, u8, 200);
  EXPECT_TRUE(splat.isSplat());
  EXPECT_TRUE(splat.getElementType().isUnsignedInteger(8));
  qnt::CodeRange range = qnt::getCodeRange(splat, u8);
  EXPECT_EQ(range.min, 200);
  EXPECT_EQ(range.max, 200);
  // The same bits read as i8 are -56.
  quant::QuantizedType i8 = parse("!quant.uniform<i8:f32, 0.25>");
  ASSERT_TRUE(i8);
  EXPECT_EQ(qnt::readCode(splat.getSplatValue<APInt>(), i8), -56);

  DenseIntElementsAttr codes = qnt::buildCodesAttr({3}, i8, {5, -7, 2});
  range = qnt::getCodeRange(codes, i8);
  EXPECT_EQ(range.min, -7);
  EXPECT_EQ(range.max, 5);
}

} // namespace
