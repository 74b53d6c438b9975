// The compiled qnt.quantize / qnt.dequantize loops are vectorized on all
// three targets (their bits are checked against the reference model by the
// Integration/{x86_64,aarch64,riscv64} suites): the f32 division of
// quantize and the multiplication of dequantize are vector instructions
// inside each function's own code.
// RUN: quant-opt %S/Inputs/quantize-dequantize.mlir --qnt-to-llvm=target=x86_64 | quant-translate --emit=obj -o %t.x86.o
// RUN: llvm-objdump -d %t.x86.o | FileCheck %s --check-prefix=X86
// RUN: quant-opt %S/Inputs/quantize-dequantize.mlir --qnt-to-llvm=target=aarch64 | quant-translate --emit=obj -o %t.a64.o
// RUN: llvm-objdump -d %t.a64.o | FileCheck %s --check-prefix=A64
// RUN: quant-opt %S/Inputs/quantize-dequantize.mlir --qnt-to-llvm=target=riscv64 | quant-translate --emit=obj -o %t.rv.o
// RUN: llvm-objdump -d %t.rv.o | FileCheck %s --check-prefix=RV

// X86-LABEL: <quantize_i8>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vdivps {{.*}}%{{[yz]}}mm
// X86-LABEL: <dequantize_u8>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vmulps {{.*}}%{{[yz]}}mm
// X86-LABEL: <dequantize_i16>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vmulps {{.*}}%{{[yz]}}mm

// A64-LABEL: <quantize_i8>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: fdiv{{[[:space:]]+}}v{{[0-9]+}}.4s
// A64-LABEL: <dequantize_u8>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: fmul{{[[:space:]]+}}v{{[0-9]+}}.4s
// A64-LABEL: <dequantize_i16>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: fmul{{[[:space:]]+}}v{{[0-9]+}}.4s

// RV-LABEL: <quantize_i8>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vfdiv.v
// RV-LABEL: <dequantize_u8>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vfmul.v
// RV-LABEL: <dequantize_i16>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vfmul.v
