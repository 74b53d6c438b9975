// Bad input to the whole pipeline gives a diagnostic and a non-zero exit,
// never a crash (`not` fails on a crash) and never code.

// RUN: not quant-opt %S/Inputs/bad-rounding.mlir --qnt-to-llvm 2>&1 | FileCheck %s --check-prefix=ROUNDING
// ROUNDING: error: 'qnt.requantize' op unknown rounding "ties_up"
// ROUNDING-NOT: llvm.func

// RUN: not quant-opt %S/Inputs/overflow.mlir --qnt-to-llvm 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: error: 'qnt.matmul' op worst-case accumulator can overflow i32: K * max|x - z_x| * max|w - z_w| = 131073 * 128 * 128 = 2147500032 exceeds 2147483647
// OVERFLOW-NOT: llvm.func

// Non-constant weights are valid input for --qnt-to-llvm (a runtime
// correction is kept) ...
// RUN: quant-opt %S/Inputs/runtime-weights.mlir --qnt-to-llvm | FileCheck %s --check-prefix=RUNTIME
// RUNTIME: llvm.func @f(
// ... but an error where the fold pass is told to require constants.
// RUN: not quant-opt %S/Inputs/runtime-weights.mlir --pass-pipeline='builtin.module(func.func(qnt-fold-zero-points{require-constant-weights=true}))' 2>&1 | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: error: 'qnt.matmul' op 'w' must be a compile-time constant for qnt-fold-zero-points (require-constant-weights)

// RUN: not quant-opt %S/Inputs/runtime-weights.mlir --qnt-to-llvm="target=sparc" 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: unknown target 'sparc'
