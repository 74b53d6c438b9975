// LLVM only warns about an unknown CPU or feature and then ignores it, so a
// typo used to give code for another machine with exit code 0. Now it is an
// error that names the CPU or feature, with no output file.
// RUN: rm -f %t.ll
// RUN: not quant-translate %s --mtriple=x86_64-unknown-linux-gnu --mcpu=znver9 -o %t.ll 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not test -e %t.ll
// CPU: quant-translate: error: unknown CPU 'znver9' for target 'x86_64-unknown-linux-gnu'
// RUN: not quant-translate %s --mtriple=x86_64-unknown-linux-gnu --mattr=+avx512vnni,+avx512vnnii -o %t.ll 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not test -e %t.ll
// ATTR: quant-translate: error: unknown target feature 'avx512vnnii' for target 'x86_64-unknown-linux-gnu'
// ATTR-NOT: warning
// RUN: not quant-translate %s --mtriple=aarch64-unknown-linux-gnu --mattr=+neon,-dotprd -o %t.ll 2>&1 | FileCheck %s --check-prefix=AARCH64
// AARCH64: unknown target feature 'dotprd' for target 'aarch64-unknown-linux-gnu'
// Valid names still work, with '+' and '-'.
// RUN: quant-translate %s --mtriple=x86_64-unknown-linux-gnu --mcpu=znver5 --mattr=+avx512vnni,-avx512bf16 -o - | FileCheck %s --check-prefix=OK
// OK: define void @f()

module {
  llvm.func @f() {
    llvm.return
  }
}
