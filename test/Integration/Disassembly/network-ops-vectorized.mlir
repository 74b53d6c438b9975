// The compiled qnt.add (integer and float modes), qnt.max_pool2d and
// qnt.avg_pool2d loops are vectorized along the channels on all three
// targets (their bits are checked by Conversion/QntToLinalg/
// network-ops-run.mlir): the left shift by 20 of the integer add, the f32
// products of the float add, the unsigned max of the max pool and the
// widening sum of the average pool are vector instructions inside each
// function's own code, with 64 channels and with 32 i16 channels (a 3x3
// window, the short channel loop that a reduction-iterator form left
// scalar), and ResNet's padded 3x3 / 2 stem pools on 64 i8 channels (the
// average's division in f32 vectors: no vector integer division exists).
// The float add keeps its two products and one add
// (ONNX Runtime's rounding): no fused multiply-add.
// RUN: quant-opt %S/Inputs/network-ops.mlir --qnt-to-llvm=target=x86_64 | quant-translate --emit=obj -o %t.x86.o
// RUN: llvm-objdump -d %t.x86.o | FileCheck %s --check-prefix=X86
// RUN: quant-opt %S/Inputs/network-ops.mlir --qnt-to-llvm=target=x86_64-avx2 | quant-translate --emit=obj -o %t.avx2.o
// RUN: llvm-objdump -d %t.avx2.o | FileCheck %s --check-prefix=AVX2
// RUN: quant-opt %S/Inputs/network-ops.mlir --qnt-to-llvm=target=aarch64 | quant-translate --emit=obj -o %t.a64.o
// RUN: llvm-objdump -d %t.a64.o | FileCheck %s --check-prefix=A64
// RUN: quant-opt %S/Inputs/network-ops.mlir --qnt-to-llvm=target=riscv64 | quant-translate --emit=obj -o %t.rv.o
// RUN: llvm-objdump -d %t.rv.o | FileCheck %s --check-prefix=RV

// X86-LABEL: <add_i8>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpslld $0x14, %{{[yz]}}mm
// X86-LABEL: <add_float>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vmulps {{.*}}%{{[yz]}}mm
// X86-NOT: vfmadd
// X86-LABEL: <max_pool_u8>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpmaxub {{.*}}%{{[yz]}}mm
// X86-LABEL: <avg_pool_u8>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpaddd {{.*}}%{{[yz]}}mm
// X86-LABEL: <max_pool_i16_c32>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpmaxsw {{.*}}%{{[yz]}}mm
// X86-LABEL: <max_pool_i8_stem>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpmaxsb {{.*}}%{{[yz]}}mm
// X86-LABEL: <avg_pool_i8_stem>:
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vpaddd {{.*}}%{{[yz]}}mm
// X86-NOT: {{^[0-9a-f]+ <[^.]}}
// X86: vdivps {{.*}}%{{[yz]}}mm

// Without AVX-512 the stem pools were the ones left scalar.
// AVX2-LABEL: <max_pool_i8_stem>:
// AVX2-NOT: {{^[0-9a-f]+ <[^.]}}
// AVX2: vpmaxsb {{.*}}%ymm
// AVX2-LABEL: <avg_pool_i8_stem>:
// AVX2-NOT: {{^[0-9a-f]+ <[^.]}}
// AVX2: vpaddd {{.*}}%ymm
// AVX2-NOT: {{^[0-9a-f]+ <[^.]}}
// AVX2: vdivps {{.*}}%ymm
// A64-LABEL: <add_i8>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: shl{{[[:space:]]+}}v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, #0x14
// A64-LABEL: <add_float>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: fmul{{[[:space:]]+}}v{{[0-9]+}}.4s
// A64-NOT: {{fmla|fmadd}}
// A64-LABEL: <max_pool_u8>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: umax{{[[:space:]]+}}v{{[0-9]+}}.16b
// A64-LABEL: <avg_pool_u8>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: uaddw{{2?[[:space:]]+}}v{{[0-9]+}}.4s
// A64-LABEL: <max_pool_i16_c32>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: smax{{[[:space:]]+}}v{{[0-9]+}}.8h
// A64-LABEL: <max_pool_i8_stem>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: smax{{[[:space:]]+}}v{{[0-9]+}}.16b
// A64-LABEL: <avg_pool_i8_stem>:
// A64-NOT: {{^[0-9a-f]+ <[^.]}}
// A64: fdiv{{[[:space:]]+}}v{{[0-9]+}}.4s

// RV-LABEL: <add_i8>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vsll.vi {{.*}}0x14
// RV-LABEL: <add_float>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vfmul.v
// RV-NOT: {{vfmacc|vfmadd}}
// RV-LABEL: <max_pool_u8>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vmaxu.vv
// RV-LABEL: <avg_pool_u8>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vwaddu.wv
// RV-LABEL: <max_pool_i16_c32>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vmax.vv
// RV-LABEL: <max_pool_i8_stem>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vmax.vv
// RV-LABEL: <avg_pool_i8_stem>:
// RV-NOT: {{^[0-9a-f]+ <[^.]}}
// RV: vfdiv.v
