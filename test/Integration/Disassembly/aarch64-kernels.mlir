// The qnt-arm-neon kernels in the object, per target: i8mm matrix
// multiplies for target=aarch64 (smmla s8 x s8, usmmla u8 x s8, ummla
// u8 x u8; the run-time weight matmuls too), sdot by element for
// target=aarch64-dotprod (s8 x s8). The convs of the input have run-time
// filters, which take the generic lowering (kernel-cases.test runs the
// conv kernels). Each check must hit inside the
// function's own code (before the next function symbol).
// RUN: quant-opt %S/Inputs/int8-contractions.mlir --qnt-to-llvm=target=aarch64 \
// RUN:   | quant-translate --emit=obj -o %t.i8mm.o
// RUN: llvm-objdump -d --no-show-raw-insn %t.i8mm.o | FileCheck %s --check-prefix=I8MM
// RUN: quant-opt %S/Inputs/int8-contractions.mlir --qnt-to-llvm=target=aarch64-dotprod \
// RUN:   | quant-translate --emit=obj -o %t.dot.o
// RUN: llvm-objdump -d --no-show-raw-insn %t.dot.o | FileCheck %s --check-prefix=DOT

// I8MM-LABEL: <mm_u8s8>:
// I8MM-NOT: {{^[0-9a-f]+ <[^.]}}
// I8MM: {{[[:space:]]}}usmmla{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// I8MM-LABEL: <mm_s8s8>:
// I8MM-NOT: {{^[0-9a-f]+ <[^.]}}
// I8MM: {{[[:space:]]}}smmla{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// I8MM-LABEL: <mm_u8u8>:
// I8MM-NOT: {{^[0-9a-f]+ <[^.]}}
// I8MM: {{[[:space:]]}}ummla{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b

// DOT-LABEL: <mm_s8s8>:
// DOT-NOT: {{^[0-9a-f]+ <[^.]}}
// DOT: {{[[:space:]]}}sdot{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.4b[{{[0-3]}}]
// DOT-NOT: {{smmla|usmmla|ummla}}
