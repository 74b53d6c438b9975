//===- NetworkOpsToLinalg.h - int_add / int pools to linalg -----*- C++ -*-===//

#ifndef QUANTOPT_LIB_CONVERSION_QNTTOLINALG_NETWORKOPSTOLINALG_H
#define QUANTOPT_LIB_CONVERSION_QNTTOLINALG_NETWORKOPSTOLINALG_H

namespace mlir {
class RewritePatternSet;

namespace qnt {

/// Lowers qnt.int_add, qnt.int_max_pool2d and qnt.int_avg_pool2d to
/// linalg.generic (plus tensor.pad / linalg.fill) on NHWC tensors, channels
/// innermost so that LLVM vectorizes along C.
void populateQntNetworkOpsToLinalgPatterns(RewritePatternSet &patterns);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_LIB_CONVERSION_QNTTOLINALG_NETWORKOPSTOLINALG_H
