// The int8 inner loops of the generic lowering (generic-contractions=1; the
// qnt-arm-neon kernels are aarch64-kernels.mlir) become AArch64 dot-product
// instructions once LLVM's O3 pipeline vectorizes them for a CPU with
// dotprod and i8mm: usdot for u8 x s8, sdot for s8 x s8, udot for u8 x u8.
// Each check must hit inside the function's own code (before the next
// function symbol; local .L labels do not count), not in another function
// or its C wrapper.
// RUN: quant-opt %S/Inputs/int8-contractions.mlir --qnt-to-llvm="target=aarch64 generic-contractions=1" \
// RUN:   | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -O3 -mtriple=aarch64-linux-gnu -mattr=+neon,+dotprod,+i8mm \
// RUN:   | llc -mtriple=aarch64-linux-gnu -mattr=+neon,+dotprod,+i8mm -filetype=obj -o %t.o
// RUN: llvm-objdump -d %t.o | FileCheck %s

// CHECK-LABEL: <mm_u8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}usdot{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b

// CHECK-LABEL: <mm_s8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}sdot{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b

// CHECK-LABEL: <mm_u8u8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}udot{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b

// CHECK-LABEL: <conv3x3_u8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}usdot{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b

// CHECK-LABEL: <conv3x3_s8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}sdot{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b

// CHECK-LABEL: <conv3x3_grouped>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}sdot{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
