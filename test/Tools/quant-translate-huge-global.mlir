// A global over 2^32 bytes is rejected before translation, which would
// materialize it: a 2^40-byte splat (quant-opt --qnt-to-llvm of a splat
// qnt.constant) ran out of memory. The error names the global and its size;
// exit code 1, no output file.
// RUN: split-file %s %t
// RUN: rm -f %t.o
// RUN: not quant-translate %t/splat.mlir --emit=obj -o %t.o 2>&1 | FileCheck %s --check-prefix=SPLAT
// RUN: not test -e %t.o
// SPLAT: quant-translate: error: global '@__constant_1099511627776xi8' takes 1099511627776 bytes, more than the 2^32 bytes a global may take
// Element counts multiply through nested arrays and add up over struct
// fields, without overflow.
// RUN: not quant-translate %t/nested.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: quant-translate: error: global '@zeros' takes 17179869184 bytes, more than the 2^32 bytes a global may take
// RUN: not quant-translate %t/overflow.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=OVERFLOW
// OVERFLOW: quant-translate: error: global '@wide' takes more than 2^64 bytes, more than the 2^32 bytes a global may take
// RUN: not quant-translate %t/struct.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=STRUCT
// STRUCT: quant-translate: error: global '@pair' takes 4294967297 bytes, more than the 2^32 bytes a global may take
// RUN: not test -e %t.o

// 2^32 bytes exactly is accepted, and so is a declaration of any size: it
// takes no room in the object.
// RUN: quant-translate %t/limit.mlir -O0 -o - | FileCheck %s --check-prefix=LIMIT
// LIMIT: @limit = internal global [4294967296 x i8] undef
// LIMIT: @huge = external global [1099511627776 x i8]

//--- splat.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.mlir.global private constant @__constant_1099511627776xi8(dense<1> : tensor<1099511627776xi8>) {addr_space = 0 : i32, alignment = 64 : i64} : !llvm.array<1099511627776 x i8>
}

//--- nested.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.mlir.global internal @zeros() : !llvm.array<65536 x array<65536 x i32>>
}

//--- overflow.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.mlir.global internal @wide() : !llvm.array<4294967296 x array<4294967296 x i8>>
}

//--- struct.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.mlir.global internal @pair() : !llvm.struct<(array<2147483648 x i8>, array<2147483648 x i8>, i8)>
}

//--- limit.mlir
module attributes {llvm.target_triple = "x86_64-unknown-linux-gnu"} {
  llvm.mlir.global internal @limit() : !llvm.array<4294967296 x i8>
  llvm.mlir.global external @huge() : !llvm.array<1099511627776 x i8>
  llvm.func @use() -> !llvm.ptr {
    %0 = llvm.mlir.addressof @limit : !llvm.ptr
    %1 = llvm.mlir.addressof @huge : !llvm.ptr
    llvm.return %0 : !llvm.ptr
  }
}
