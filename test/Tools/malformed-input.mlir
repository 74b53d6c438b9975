// Malformed input gives a diagnostic and a non-zero exit, never a crash
// (`not` itself fails when the tool crashes).

// The complete input is fine.
// RUN: quant-opt %S/Inputs/fc.mlir | FileCheck %s --check-prefix=VALID
// VALID: qnt.requantize

// Truncated files, cut inside a type, inside an op and before the closing brace.
// RUN: head -c 60 %S/Inputs/fc.mlir > %t.cut60.mlir
// RUN: not quant-opt %t.cut60.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: head -c 250 %S/Inputs/fc.mlir > %t.cut250.mlir
// RUN: not quant-opt %t.cut250.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: head -n 4 %S/Inputs/fc.mlir > %t.nobrace.mlir
// RUN: not quant-opt %t.nobrace.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// TRUNCATED: error:

// An empty file is an empty module, not an error.
// RUN: head -c 0 %S/Inputs/fc.mlir > %t.empty.mlir
// RUN: quant-opt %t.empty.mlir | FileCheck %s --check-prefix=EMPTY
// EMPTY: module

// RUN: not quant-opt %S/Inputs/missing-operand.mlir 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: error: expected ','

// RUN: not quant-opt %S/Inputs/not-quantized.mlir 2>&1 | FileCheck %s --check-prefix=NOTQUANT
// NOTQUANT: error: 'qnt.quantize' op result #0 must be ranked tensor of uniform quantized type

// RUN: not quant-opt %S/Inputs/bad-quant-type.mlir 2>&1 | FileCheck %s --check-prefix=BADQUANT
// BADQUANT: error: expected ','

// RUN: not quant-opt %S/Inputs/generic-bad-rounding.mlir 2>&1 | FileCheck %s --check-prefix=ROUNDING
// ROUNDING: error: 'qnt.requantize' op unknown rounding "up"

// RUN: not quant-opt %S/Inputs/generic-no-operands.mlir 2>&1 | FileCheck %s --check-prefix=NOOPERANDS
// NOOPERANDS: error: 'qnt.conv2d' op

// Binary garbage (the tool's own executable).
// RUN: not quant-opt %S/Inputs/../../lit.cfg.py 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error:
