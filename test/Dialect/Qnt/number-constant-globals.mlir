// qnt-number-constant-globals: bufferization's constant globals move to the
// start of the module in the order of their first read and are numbered
// per shape in that order; names held by other symbols are skipped, unread
// constant globals are erased, other globals are left alone.
// RUN: quant-opt %s -qnt-number-constant-globals -split-input-file -allow-unregistered-dialect | FileCheck %s

// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32 : memref<4xi32> = dense<2>
// CHECK-NEXT: memref.global "private" constant @__constant_2xi8 : memref<2xi8> = dense<7>
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32_2 : memref<4xi32> = dense<1>
// CHECK-NEXT: memref.global "private" @__constant_4xi32_1 : memref<4xi32>
// CHECK-NEXT: memref.global constant @__constant_8xi32 : memref<8xi32> = dense<3>
// CHECK-NOT: dense<9>
// CHECK-LABEL: func.func @f
// CHECK-NEXT: memref.get_global @__constant_4xi32 :
// CHECK-NEXT: memref.get_global @__constant_2xi8 :
// CHECK-NEXT: memref.get_global @__constant_4xi32_2 :
// CHECK-LABEL: func.func @g
// CHECK-NEXT: memref.get_global @__constant_4xi32_2 :
// CHECK-NEXT: memref.get_global @__constant_4xi32_1 :
// CHECK-NEXT: memref.get_global @__constant_8xi32 :
module {
  memref.global "private" constant @__constant_4xi32_0 : memref<4xi32> = dense<1>
  // Not a constant: keeps its name, which the numbering then skips.
  memref.global "private" @__constant_4xi32_1 : memref<4xi32>
  // Public: not bufferization's.
  memref.global constant @__constant_8xi32 : memref<8xi32> = dense<3>
  memref.global "private" constant @__constant_4xi32 : memref<4xi32> = dense<2>
  memref.global "private" constant @__constant_16xi32 : memref<16xi32> = dense<9>
  memref.global "private" constant @__constant_2xi8_5 : memref<2xi8> = dense<7>
  func.func @f() {
    %a = memref.get_global @__constant_4xi32 : memref<4xi32>
    %b = memref.get_global @__constant_2xi8_5 : memref<2xi8>
    %c = memref.get_global @__constant_4xi32_0 : memref<4xi32>
    return
  }
  func.func @g() {
    %a = memref.get_global @__constant_4xi32_0 : memref<4xi32>
    %b = memref.get_global @__constant_4xi32_1 : memref<4xi32>
    %c = memref.get_global @__constant_8xi32 : memref<8xi32>
    return
  }
}

// -----

// Nothing to do: the module is unchanged.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" @g : memref<4xi32>
// CHECK-NEXT: func.func @h
module {
  memref.global "private" @g : memref<4xi32>
  func.func @h() {
    return
  }
}

// -----

// A constant global that another kind of op references keeps its name and
// place (renaming it would leave that reference dangling); the others are
// still numbered around it.
// CHECK-LABEL: module
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32 : memref<4xi32> = dense<5>
// CHECK-NEXT: memref.global "private" constant @__constant_4xi32_3 : memref<4xi32> = dense<6>
// CHECK-LABEL: func.func @k
// CHECK-NEXT: memref.get_global @__constant_4xi32 :
// CHECK-NEXT: "test.use"() {ref = @__constant_4xi32_3}
module {
  memref.global "private" constant @__constant_4xi32_3 : memref<4xi32> = dense<6>
  memref.global "private" constant @__constant_4xi32_9 : memref<4xi32> = dense<5>
  func.func @k() {
    %a = memref.get_global @__constant_4xi32_9 : memref<4xi32>
    "test.use"() {ref = @__constant_4xi32_3} : () -> ()
    return
  }
}
