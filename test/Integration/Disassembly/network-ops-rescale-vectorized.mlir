// The rounding multiplies of qnt.add and of a requantized qnt.concat operand
// (the 32 x 32 -> 64-bit products of the Q31 multipliers), the signed max of
// an i8 max pool and the widening sum of an i16 average pool are vector
// instructions inside each function's own code on all three targets; their
// bits are checked against the reference model by the Integration/*/
// network-seeds-1-3.test suites. (network-ops-vectorized.mlir covers the
// left shift of the add, the float add and the unsigned pools.)
// RUN: quant-opt %S/Inputs/network-ops-rescale.mlir --qnt-to-llvm=target=x86_64 | quant-translate --emit=obj -o %t.x86.o
// RUN: llvm-objdump -d %t.x86.o | FileCheck %s --check-prefix=X86
// RUN: quant-opt %S/Inputs/network-ops-rescale.mlir --qnt-to-llvm=target=aarch64 | quant-translate --emit=obj -o %t.a64.o
// RUN: llvm-objdump -d %t.a64.o | FileCheck %s --check-prefix=A64
// RUN: quant-opt %S/Inputs/network-ops-rescale.mlir --qnt-to-llvm=target=riscv64 | quant-translate --emit=obj -o %t.rv.o
// RUN: llvm-objdump -d %t.rv.o | FileCheck %s --check-prefix=RV

// X86-LABEL: <add_double>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpmuldq {{.*}}%zmm
// X86-LABEL: <add_single>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpmuldq {{.*}}%zmm
// X86-LABEL: <max_pool_i8>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpmaxsb {{.*}}%{{[yz]}}mm
// X86-LABEL: <avg_pool_i16>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpaddd {{.*}}%{{[yz]}}mm
// X86-LABEL: <concat_requantized>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpmuldq {{.*}}%zmm

// A64-LABEL: <add_double>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: {{smlal|smull}}{{2?[[:space:]]+}}v{{[0-9]+}}.2d
// A64-LABEL: <add_single>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: smull{{2?[[:space:]]+}}v{{[0-9]+}}.2d
// A64-LABEL: <max_pool_i8>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: smax{{[[:space:]]+}}v{{[0-9]+}}.16b
// A64-LABEL: <avg_pool_i16>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: saddw{{2?[[:space:]]+}}v{{[0-9]+}}.4s
// A64-LABEL: <concat_requantized>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: smlal{{2?[[:space:]]+}}v{{[0-9]+}}.2d

// RV-LABEL: <add_double>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vwmacc{{(us)?}}.vx
// RV-LABEL: <add_single>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vwmacc.vx
// RV-LABEL: <max_pool_i8>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vmax.vv
// RV-LABEL: <avg_pool_i16>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vwadd.wv
// RV-LABEL: <concat_requantized>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vmacc.vx
