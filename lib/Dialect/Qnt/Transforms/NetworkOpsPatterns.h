//===- NetworkOpsPatterns.h - add / pool / concat rewrites ------*- C++ -*-===//
//
// The rewrites of the whole-network public ops into explicit integer IR that
// the qnt-network-to-integer pass applies (docs/NetworkOps.md).
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_DIALECT_QNT_TRANSFORMS_NETWORKOPSPATTERNS_H
#define QUANTOPT_LIB_DIALECT_QNT_TRANSFORMS_NETWORKOPSPATTERNS_H

namespace mlir {
class RewritePatternSet;

namespace qnt {

/// qnt.add -> qnt.int_add with TFLite's add multipliers.
void populateQntAddToIntegerPatterns(RewritePatternSet &patterns);

/// qnt.max_pool2d / qnt.avg_pool2d -> qnt.int_max_pool2d / int_avg_pool2d.
void populateQntPoolToIntegerPatterns(RewritePatternSet &patterns);

/// qnt.concat -> qnt.requantize of the operands that need it + tensor.concat.
void populateQntConcatDecompositionPatterns(RewritePatternSet &patterns);

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_LIB_DIALECT_QNT_TRANSFORMS_NETWORKOPSPATTERNS_H
