// quant-translate turns the LLVM dialect from --qnt-to-llvm="target=T" into
// LLVM IR, assembly or an object for T. The IR carries T's triple, data
// layout, CPU and features (and RISC-V's lp64d ABI as the "target-abi" module
// flag), so that llc-22 with no flag at all compiles it for T.

// x86-64: x86-64-v4 (AVX-512 F/BW/CD/DQ/VL) + AVX-512 VNNI.
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 -o %t.x86_64.mlir
// RUN: quant-translate %t.x86_64.mlir --emit=llvm -o %t.x86_64.ll
// RUN: FileCheck %s --check-prefix=X86 < %t.x86_64.ll
// X86: target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
// X86: target triple = "x86_64-unknown-linux-gnu"
// X86: define {{.*}} @fc(
// X86: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="x86-64-v4" "target-features"="+avx512vnni"
// RUN: llc %t.x86_64.ll -filetype=obj -o %t.x86_64.llc.o
// RUN: llvm-objdump -f %t.x86_64.llc.o | FileCheck %s --check-prefix=X86-OBJ
// RUN: quant-translate %t.x86_64.mlir --emit=obj -o %t.x86_64.o
// RUN: llvm-objdump -f %t.x86_64.o | FileCheck %s --check-prefix=X86-OBJ
// X86-OBJ: file format elf64-x86-64
// X86-OBJ: architecture: x86_64
// RUN: quant-translate %t.x86_64.mlir --emit=asm -o - | FileCheck %s --check-prefix=X86-ASM
// X86-ASM: fc:
// X86-ASM: ret

// AArch64: NEON + dot product + i8mm.
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64 -o %t.aarch64.mlir
// RUN: quant-translate %t.aarch64.mlir --emit=llvm -o %t.aarch64.ll
// RUN: FileCheck %s --check-prefix=AARCH64 < %t.aarch64.ll
// AARCH64: target triple = "aarch64-unknown-linux-gnu"
// AARCH64: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="generic" "target-features"="+neon,+dotprod,+i8mm"
// RUN: llc %t.aarch64.ll -filetype=obj -o %t.aarch64.llc.o
// RUN: llvm-objdump -f %t.aarch64.llc.o | FileCheck %s --check-prefix=AARCH64-OBJ
// RUN: quant-translate %t.aarch64.mlir --emit=obj -o %t.aarch64.o
// RUN: llvm-objdump -f %t.aarch64.o | FileCheck %s --check-prefix=AARCH64-OBJ
// AARCH64-OBJ: file format elf64-littleaarch64
// AARCH64-OBJ: architecture: aarch64
// RUN: quant-translate %t.aarch64.mlir --emit=asm -o - | FileCheck %s --check-prefix=AARCH64-ASM
// AARCH64-ASM: fc:
// AARCH64-ASM: ret

// RISC-V: RV64GC + V, ABI lp64d. (llc, whose own target machine has no
// features, warns that it ignores target-abi at that level; the functions
// carry +d and the object is lp64d, as the ELF flags show.)
// RUN: quant-opt %s --qnt-to-llvm=target=riscv64 -o %t.riscv64.mlir
// RUN: quant-translate %t.riscv64.mlir --emit=llvm -o %t.riscv64.ll
// RUN: FileCheck %s --check-prefix=RISCV64 < %t.riscv64.ll
// RISCV64: target datalayout = "e-m:e-p:64:64-i64:64-i128:128-n32:64-S128"
// RISCV64: target triple = "riscv64-unknown-linux-gnu"
// RISCV64: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="generic-rv64" "target-features"="+m,+a,+f,+d,+c,+v"
// RISCV64: !{i32 1, !"target-abi", !"lp64d"}
// RUN: llc %t.riscv64.ll -filetype=obj -o %t.riscv64.llc.o
// RUN: llvm-objdump -f %t.riscv64.llc.o | FileCheck %s --check-prefix=RISCV64-OBJ
// RUN: llvm-readelf -h %t.riscv64.llc.o | FileCheck %s --check-prefix=LP64D
// RUN: quant-translate %t.riscv64.mlir --emit=obj -o %t.riscv64.o
// RUN: llvm-objdump -f %t.riscv64.o | FileCheck %s --check-prefix=RISCV64-OBJ
// RUN: llvm-readelf -h %t.riscv64.o | FileCheck %s --check-prefix=LP64D
// RISCV64-OBJ: file format elf64-littleriscv
// RISCV64-OBJ: architecture: riscv64
// LP64D: Flags: {{.*}}double-float ABI
// RUN: quant-translate %t.riscv64.mlir --emit=asm -o - | FileCheck %s --check-prefix=RISCV64-ASM
// RISCV64-ASM: fc:
// RISCV64-ASM: ret

// The test-only quant-translate-qemu --avoid-rvv-rtz-conversions (used for
// runs on qemu-riscv64 7.2, which aborts on some vfcvt.rtz; see
// utils/run-on-target.py) computes the
// vectorized fptosi of @quantize from round-to-nearest conversions: no
// vector fptosi, hence no vfcvt.rtz, is left. Scalar fcvt ... rtz stays.
// RUN: quant-translate %t.riscv64.mlir --emit=asm -o - | FileCheck %s --check-prefix=RTZ
// RTZ: quantize:
// RTZ: vfcvt.rtz.x.f.v
// RUN: quant-translate-qemu %t.riscv64.mlir --avoid-rvv-rtz-conversions --emit=llvm -o - | FileCheck %s --check-prefix=NO-RTZ-IR
// NO-RTZ-IR-LABEL: define {{.*}} @quantize(
// NO-RTZ-IR-NOT: fptosi <vscale
// NO-RTZ-IR: @llvm.lrint.nxv4i32.nxv4f32(
// NO-RTZ-IR-NOT: fptosi <vscale
// NO-RTZ-IR-LABEL: define {{.*}} @_mlir_ciface_quantize(
// RUN: quant-translate-qemu %t.riscv64.mlir --avoid-rvv-rtz-conversions --emit=asm -o - | FileCheck %s --check-prefix=NO-RTZ
// NO-RTZ-NOT: vf{{[nw]?}}cvt.rtz
// The product tool has no such option.
// RUN: not quant-translate %t.riscv64.mlir --avoid-rvv-rtz-conversions --emit=asm -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-FLAG
// NO-FLAG: Unknown command line argument '--avoid-rvv-rtz-conversions'

// The host: its triple and CPU; llc takes it as well.
// RUN: quant-opt %s --qnt-to-llvm -o %t.host.mlir
// RUN: quant-translate %t.host.mlir --emit=llvm -o %t.host.ll
// RUN: FileCheck %s --check-prefix=HOST < %t.host.ll
// HOST: target triple =
// HOST: "target-cpu"=
// RUN: llc %t.host.ll -filetype=obj -o %t.host.o

// Every -O level; a bad one, and input that is not the LLVM dialect, are
// errors.
// RUN: quant-translate %t.aarch64.mlir -O0 --emit=obj -o %t.O0.o
// RUN: quant-translate %t.aarch64.mlir -O1 --emit=obj -o %t.O1.o
// RUN: quant-translate %t.aarch64.mlir -O2 --emit=obj -o %t.O2.o
// RUN: not quant-translate %t.aarch64.mlir -O4 2>&1 | FileCheck %s --check-prefix=BAD-O
// BAD-O: quant-translate: error: -O4: expected -O0, -O1, -O2 or -O3
// RUN: not quant-translate %s 2>&1 | FileCheck %s --check-prefix=NOT-LLVM
// NOT-LLVM: quant-translate: error: cannot parse '{{.*}}' (expected a module in the LLVM dialect, the output of quant-opt --qnt-to-llvm)

!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>
!Y = !quant.uniform<i8:f32, 0.1:-5>
func.func @fc(%x: tensor<4x16x!X>, %b: tensor<8x!A>) -> tensor<4x8x!Y> {
  %w = qnt.constant dense<[
      [1, -2, 3, -4, 5, -6, 7, -8], [9, -10, 11, -12, 13, -14, 15, -16],
      [17, -18, 19, -20, 21, -22, 23, -24], [25, -26, 27, -28, 29, -30, 31, -32],
      [-1, 2, -3, 4, -5, 6, -7, 8], [-9, 10, -11, 12, -13, 14, -15, 16],
      [-17, 18, -19, 20, -21, 22, -23, 24], [-25, 26, -27, 28, -29, 30, -31, 32],
      [40, 41, 42, 43, 44, 45, 46, 47], [-40, -41, -42, -43, -44, -45, -46, -47],
      [50, 0, -50, 0, 50, 0, -50, 0], [0, 60, 0, -60, 0, 60, 0, -60],
      [127, -127, 100, -100, 90, -90, 80, -80], [3, 1, 4, 1, 5, 9, 2, 6],
      [-5, -3, -5, -8, -9, -7, -9, -3], [2, 7, 1, 8, 2, 8, 1, 8]]>
      : tensor<16x8xi8> -> tensor<16x8x!W>
  %a = qnt.matmul %x, %w, %b : tensor<4x16x!X>, tensor<16x8x!W>, tensor<8x!A> -> tensor<4x8x!A>
  %y = qnt.requantize %a : tensor<4x8x!A> -> tensor<4x8x!Y>
  return %y : tensor<4x8x!Y>
}

// Float to int8 codes: a vectorizable fptosi.
func.func @quantize(%x: tensor<256xf32>) -> tensor<256x!X> {
  %q = qnt.quantize %x : tensor<256xf32> -> tensor<256x!X>
  return %q : tensor<256x!X>
}
