// quant-opt --qnt-to-llvm records the target CPU and features on every
// llvm.func as well as on the module, and LLVM compiles each function for
// its own attributes.

// They are checked as the module's are: an unknown CPU or feature on a
// function is an error naming it, exit code 1, no output file. (LLVM only
// warned and ignored it, or aborted: "64-bit code requested on a subtarget
// that doesn't support it!")
// RUN: split-file %s %t
// RUN: rm -f %t.o
// RUN: not quant-translate %t/bad-cpu.mlir --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not test -e %t.o
// CPU-NOT: warning
// CPU: quant-translate: error: unknown CPU 'nonsense' for target 'x86_64-unknown-linux-gnu' (target_cpu of function 'f')
// RUN: not quant-translate %t/bad-feature.mlir --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=FEATURE
// RUN: not test -e %t.o
// FEATURE-NOT: recognized
// FEATURE: quant-translate: error: unknown target feature 'nope' for target 'x86_64-unknown-linux-gnu' (target_features of function 'f')
// Against the triple compiled for.
// RUN: not quant-translate %t/x86.mlir --mtriple=aarch64-unknown-linux-gnu -o %t.o 2>&1 | FileCheck %s --check-prefix=MTRIPLE
// MTRIPLE: quant-translate: error: unknown CPU 'x86-64-v4' for target 'aarch64-unknown-linux-gnu' (target_cpu of function 'add')

// --mcpu and --mattr replace the functions' attributes, each on its own.
// RUN: quant-translate %t/x86.mlir -o - | FileCheck %s --check-prefix=KEEP
// KEEP: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="x86-64-v4" "target-features"="+avx512vnni"
// RUN: quant-translate %t/x86.mlir --mcpu=x86-64 -o - | FileCheck %s --check-prefix=MCPU
// MCPU: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="x86-64" "target-features"="+avx512vnni"
// RUN: quant-translate %t/x86.mlir --mcpu=x86-64 --mattr=-avx2 -o - | FileCheck %s --check-prefix=BOTH
// BOTH-NOT: "target-cpu"="x86-64-v4"
// BOTH: attributes #{{[0-9]+}} = { {{.*}}"target-cpu"="x86-64" "target-features"="-avx2"
// BOTH-NOT: "target-cpu"="x86-64-v4"
// ... and so the code: AVX-512 for x86-64-v4, SSE for x86-64.
// RUN: quant-translate %t/x86.mlir --emit=asm -o - | FileCheck %s --check-prefix=V4-ASM
// V4-ASM: vpaddd {{.*}}%zmm
// RUN: quant-translate %t/x86.mlir --mcpu=x86-64 --mattr=+sse2 --emit=asm -o - | FileCheck %s --check-prefix=SSE-ASM
// SSE-ASM-NOT: zmm
// SSE-ASM: paddd {{.*}}%xmm
// SSE-ASM-NOT: zmm
// The flags are checked before they replace anything.
// RUN: not quant-translate %t/x86.mlir --mattr=+nope -o %t.o 2>&1 | FileCheck %s --check-prefix=BAD-FLAG
// BAD-FLAG: quant-translate: error: unknown target feature 'nope' for target 'x86_64-unknown-linux-gnu' (--mattr or the module's target)

//--- bad-cpu.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.func @f() attributes {target_cpu = "nonsense"} {
    llvm.return
  }
}

//--- bad-feature.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.func @f() attributes {target_features = #llvm.target_features<["+avx2", "+nope"]>} {
    llvm.return
  }
}

//--- x86.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.func @add(%p: !llvm.ptr, %q: !llvm.ptr) attributes {target_cpu = "x86-64-v4", target_features = #llvm.target_features<["+avx512vnni"]>} {
    %a = llvm.load %p : !llvm.ptr -> vector<16xi32>
    %b = llvm.load %q : !llvm.ptr -> vector<16xi32>
    %s = llvm.add %a, %b : vector<16xi32>
    llvm.store %s, %p : vector<16xi32>, !llvm.ptr
    llvm.return
  }
}
