// Every prefix of real inputs (cut at ~60 points each) is parsed, verified
// and, when it parses, lowered by the whole pipeline: each run must end in
// success or a diagnostic, never a crash.
// RUN: %python %S/../../utils/truncation-check.py %S/../Dialect/Qnt/ops.mlir quant-opt | FileCheck %s
// RUN: %python %S/../../utils/truncation-check.py %S/../../examples/tiny-cnn.mlir quant-opt --qnt-to-llvm | FileCheck %s
// RUN: %python %S/../../utils/truncation-check.py %S/../Dialect/Qnt/canonicalize.mlir quant-opt -canonicalize | FileCheck %s
// CHECK: truncations of {{.*}}, 0 crashes
