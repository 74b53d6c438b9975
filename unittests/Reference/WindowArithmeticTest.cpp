//===- WindowArithmeticTest.cpp - checked sliding-window shape math ------===//
//
// Expected values are worked by hand from
//   out = (in + padBefore + padAfter - dilation * (kernel - 1) - 1)
//         / stride + 1
// and from the int64 limits.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Reference/Kernels.h"
#include "QuantOpt/Reference/WindowArithmetic.h"

#include <gtest/gtest.h>

#include <limits>

using namespace quantopt::ref;

namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin = std::numeric_limits<int64_t>::min();

TEST(WindowArithmetic, CheckedOpsAtTheEdges) {
  EXPECT_EQ(checkedAdd(2, 3), 5);
  EXPECT_EQ(checkedAdd(kMax - 1, 1), kMax);
  EXPECT_EQ(checkedAdd(kMax, 1), std::nullopt);
  EXPECT_EQ(checkedAdd(kMin, -1), std::nullopt);
  EXPECT_EQ(checkedSub(kMin + 1, 1), kMin);
  EXPECT_EQ(checkedSub(kMin, 1), std::nullopt);
  EXPECT_EQ(checkedSub(0, kMin), std::nullopt);
  EXPECT_EQ(checkedMul(int64_t(1) << 31, int64_t(1) << 31), int64_t(1) << 62);
  EXPECT_EQ(checkedMul(int64_t(1) << 32, int64_t(1) << 31), std::nullopt);
  EXPECT_EQ(checkedMul(-1, kMin), std::nullopt);
  EXPECT_EQ(checkedMul(-1, kMax), kMin + 1);
}

TEST(WindowArithmetic, DilatedKernelExtent) {
  EXPECT_EQ(dilatedKernelExtent(3, 1), 3);
  EXPECT_EQ(dilatedKernelExtent(3, 2), 5);  // taps at 0, 2, 4
  EXPECT_EQ(dilatedKernelExtent(1, kMax), 1); // one tap never moves
  EXPECT_EQ(dilatedKernelExtent(0, 1), std::nullopt);
  EXPECT_EQ(dilatedKernelExtent(3, 0), std::nullopt);
  // The input: 4 * (2^62 + 1) + 1 overflows int64.
  EXPECT_EQ(dilatedKernelExtent(5, (int64_t(1) << 62) + 1), std::nullopt);
  // 2 * (2^62 - 1) + 1 = 2^63 - 1 is the largest extent that fits.
  EXPECT_EQ(dilatedKernelExtent(3, (int64_t(1) << 62) - 1), kMax);
  EXPECT_EQ(dilatedKernelExtent(3, int64_t(1) << 62), std::nullopt);
}

TEST(WindowArithmetic, WindowOutputSize) {
  // 8 + 1 + 1 - 3 = 7, / 1 + 1 = 8 ("same" padding).
  EXPECT_EQ(windowOutputSize(8, 1, 1, 3, 1, 1), 8);
  // (7 - 3) / 2 + 1 = 3.
  EXPECT_EQ(windowOutputSize(7, 0, 0, 3, 2, 1), 3);
  // Extent 5 in a padded 5: exactly one position.
  EXPECT_EQ(windowOutputSize(3, 1, 1, 3, 1, 2), 1);
  // Extent 5 in a padded 4: no position.
  EXPECT_EQ(windowOutputSize(4, 0, 0, 3, 1, 2), std::nullopt);
  EXPECT_EQ(windowOutputSize(4, 0, 0, 0, 1, 1), std::nullopt);
  EXPECT_EQ(windowOutputSize(4, 0, 0, 1, 0, 1), std::nullopt);
  EXPECT_EQ(windowOutputSize(4, -1, 0, 1, 1, 1), std::nullopt);
  EXPECT_EQ(windowOutputSize(-1, 0, 0, 1, 1, 1), std::nullopt);
  // Padding of INT64_MAX or twice 2^62 overflows the padded size.
  EXPECT_EQ(windowOutputSize(8, kMax, 0, 3, 1, 1), std::nullopt);
  EXPECT_EQ(windowOutputSize(8, int64_t(1) << 62, int64_t(1) << 62, 3, 1, 1),
            std::nullopt);
  // Large but representable: (2^62 + 8 - 3) / 2^61 + 1 = 3.
  EXPECT_EQ(windowOutputSize(8, int64_t(1) << 62, 0, 3, int64_t(1) << 61, 1),
            3);
  // The dilation 2^62 + 1 with a 5-tap kernel on a height of 8.
  EXPECT_EQ(windowOutputSize(8, 0, 0, 5, 1, (int64_t(1) << 62) + 1),
            std::nullopt);
}

TEST(WindowArithmetic, Conv2DShapeUsesCheckedMath) {
  Conv2DShape s;
  s.batch = 1, s.inH = 8, s.inW = 6, s.inC = 1;
  s.kernelH = 3, s.kernelW = 3, s.outC = 1;
  s.padTop = 1, s.padBottom = 1;
  s.dilationW = 2;
  EXPECT_EQ(s.checkedOutH(), 8); // 8 + 2 - 3 + 1
  EXPECT_EQ(s.checkedOutW(), 2); // 6 - 5 + 1
  EXPECT_EQ(s.outH(), 8);

  s.dilationH = (int64_t(1) << 62) + 1;
  s.kernelH = 5;
  EXPECT_EQ(s.checkedOutH(), std::nullopt);
  EXPECT_EQ(s.outH(), 0); // the old API reports no output rows

  s.dilationH = 1;
  s.padTop = kMax;
  EXPECT_EQ(s.checkedOutH(), std::nullopt);

  // A kernel that does not fit is a valid empty result, not an error.
  s.padTop = 0, s.padBottom = 0, s.kernelH = 9;
  EXPECT_EQ(s.checkedOutH(), 0);
}

} // namespace

namespace {
TEST(WindowArithmetic, CheckedProduct) {
  EXPECT_EQ(quantopt::ref::checkedProduct({}), 1);
  EXPECT_EQ(quantopt::ref::checkedProduct({2, 3, 7}), 42);
  EXPECT_EQ(quantopt::ref::checkedProduct({5, 0, kMax}), 0);
  EXPECT_EQ(quantopt::ref::checkedProduct({2, -1}), std::nullopt);
  // (2^62 + 8) * 8 > 2^63 - 1: the padding of 2^62 on an 8-wide row.
  EXPECT_EQ(quantopt::ref::checkedProduct({1, (int64_t(1) << 62) + 8, 8, 1}),
            std::nullopt);
  EXPECT_EQ(quantopt::ref::checkedProduct({int64_t(1) << 31, int64_t(1) << 31,
                                           1}),
            int64_t(1) << 62);
}
} // namespace
