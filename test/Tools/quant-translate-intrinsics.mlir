// A target intrinsic of another architecture used to abort LLVM's
// instruction selection ("Cannot select", stack dump); now it is an error
// that names the function, the intrinsic and the target, with no output.
// RUN: split-file %s %t
// RUN: rm -f %t.o
// RUN: not quant-translate %t/aarch64-in-x86.mlir --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=A64-IN-X86
// RUN: not test -e %t.o
// A64-IN-X86: quant-translate: error: function 'f' calls the aarch64 intrinsic 'llvm.aarch64.neon.usmmla.v4i32.v16i8', which target 'x86_64-unknown-linux-gnu' cannot compile
// RUN: not quant-translate %t/x86-in-aarch64.mlir --emit=llvm -o %t.o 2>&1 | FileCheck %s --check-prefix=X86-IN-A64
// RUN: not test -e %t.o
// X86-IN-A64: quant-translate: error: function 'g' calls the x86 intrinsic 'llvm.x86.avx512.vpdpbusd.512', which target 'aarch64-unknown-linux-gnu' cannot compile

// On its own target the intrinsic compiles.
// RUN: quant-translate %t/aarch64.mlir --emit=asm -o - | FileCheck %s --check-prefix=OK
// OK: usmmla v0.4s, v1.16b, v2.16b

// Any other error LLVM reports as fatal (here: usmmla without +i8mm, after
// --mattr replaced the function's features) is one line, exit code 1, no
// output file and no stack dump.
// RUN: not quant-translate %t/aarch64.mlir --mattr=+neon --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=FATAL
// RUN: not test -e %t.o
// FATAL-NOT: LLVM ERROR
// FATAL: quant-translate: error: LLVM cannot compile this module for aarch64-unknown-linux-gnu: Cannot select: intrinsic %llvm.aarch64.neon.usmmla
// FATAL-NOT: {{.}}
// The same for an error diagnostic, which LLVM prints and exits on.
// RUN: not quant-translate %t/bad-asm.mlir --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: not test -e %t.o
// DIAG: quant-translate: error: LLVM cannot compile this module for x86_64-unknown-linux-gnu: <inline asm>:1:2: invalid instruction mnemonic 'nosuchinsn'
// DIAG-NOT: {{.}}

//--- aarch64-in-x86.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.func @f(%a: vector<4xi32>, %b: vector<16xi8>, %c: vector<16xi8>) -> vector<4xi32> {
    %r = llvm.call_intrinsic "llvm.aarch64.neon.usmmla.v4i32.v16i8"(%a, %b, %c) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
    llvm.return %r : vector<4xi32>
  }
}

//--- x86-in-aarch64.mlir
module attributes {llvm.target_triple = "aarch64-unknown-linux-gnu"} {
  llvm.func @g(%a: vector<16xi32>, %b: vector<64xi8>, %c: vector<64xi8>) -> vector<16xi32> {
    %r = llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"(%a, %b, %c) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<16xi32>
    llvm.return %r : vector<16xi32>
  }
}

//--- aarch64.mlir
module attributes {llvm.target_triple = "aarch64-unknown-linux-gnu"} {
  llvm.func @f(%a: vector<4xi32>, %b: vector<16xi8>, %c: vector<16xi8>) -> vector<4xi32> attributes {target_features = #llvm.target_features<["+neon", "+i8mm"]>} {
    %r = llvm.call_intrinsic "llvm.aarch64.neon.usmmla.v4i32.v16i8"(%a, %b, %c) : (vector<4xi32>, vector<16xi8>, vector<16xi8>) -> vector<4xi32>
    llvm.return %r : vector<4xi32>
  }
}

//--- bad-asm.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.func @f() {
    llvm.inline_asm has_side_effects "nosuchinsn", "" : () -> ()
    llvm.return
  }
}
