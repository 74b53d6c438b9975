// The output of --qnt-to-llvm depends on the input alone. One-shot
// bufferization visits functions in an address-dependent order, so each
// layer's packed-weight and bias globals used to get a different numbering
// (and place) from run to run; qnt-number-constant-globals names them in
// the order the layers read them. Two runs must print the same module, and
// layer N must read the N-th global of each shape.
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 > %t.1
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 > %t.2
// RUN: diff %t.1 %t.2
// RUN: FileCheck %s < %t.1

// CHECK: llvm.mlir.global private constant @__constant_64xi8(
// CHECK-NEXT: llvm.mlir.global private constant @__constant_16xi32(
// CHECK-NEXT: llvm.mlir.global private constant @__constant_64xi8_1(
// CHECK-NEXT: llvm.mlir.global private constant @__constant_16xi32_1(
// CHECK-NEXT: llvm.mlir.global private constant @__constant_64xi8_2(
// CHECK-NEXT: llvm.mlir.global private constant @__constant_16xi32_2(
// CHECK-NEXT: llvm.mlir.global private constant @__constant_64xi8_3(
// CHECK-NEXT: llvm.mlir.global private constant @__constant_16xi32_3(
// CHECK-LABEL: llvm.func @layer0(
// CHECK: llvm.mlir.addressof @__constant_64xi8 :
// CHECK-LABEL: llvm.func @layer1(
// CHECK: llvm.mlir.addressof @__constant_64xi8_1 :
// CHECK-LABEL: llvm.func @layer2(
// CHECK: llvm.mlir.addressof @__constant_64xi8_2 :
// CHECK-LABEL: llvm.func @layer3(
// CHECK: llvm.mlir.addressof @__constant_64xi8_3 :

!X = !quant.uniform<i8:f32, 0.5:1>
!W = !quant.uniform<i8:f32, 0.25>
!A = !quant.uniform<i32:f32, 0.125>
!Y = !quant.uniform<i8:f32, 2.0:-1>

func.func @layer0(%x: tensor<2x4x!X>) -> tensor<2x4x!Y> {
  %w = qnt.constant dense<[[-3, -2, -1, 0], [1, 2, 3, -3], [-2, -1, 0, 1], [2, 3, -3, -2]]> : tensor<4x4xi8> -> tensor<4x4x!W>
  %a = qnt.matmul %x, %w : tensor<2x4x!X>, tensor<4x4x!W> -> tensor<2x4x!A>
  %y = qnt.requantize %a : tensor<2x4x!A> -> tensor<2x4x!Y>
  return %y : tensor<2x4x!Y>
}

func.func @layer1(%x: tensor<2x4x!X>) -> tensor<2x4x!Y> {
  %w = qnt.constant dense<[[-1, 0, 1, 2], [3, -3, -2, -1], [0, 1, 2, 3], [-3, -2, -1, 0]]> : tensor<4x4xi8> -> tensor<4x4x!W>
  %a = qnt.matmul %x, %w : tensor<2x4x!X>, tensor<4x4x!W> -> tensor<2x4x!A>
  %y = qnt.requantize %a : tensor<2x4x!A> -> tensor<2x4x!Y>
  return %y : tensor<2x4x!Y>
}

func.func @layer2(%x: tensor<2x4x!X>) -> tensor<2x4x!Y> {
  %w = qnt.constant dense<[[1, 2, 3, -3], [-2, -1, 0, 1], [2, 3, -3, -2], [-1, 0, 1, 2]]> : tensor<4x4xi8> -> tensor<4x4x!W>
  %a = qnt.matmul %x, %w : tensor<2x4x!X>, tensor<4x4x!W> -> tensor<2x4x!A>
  %y = qnt.requantize %a : tensor<2x4x!A> -> tensor<2x4x!Y>
  return %y : tensor<2x4x!Y>
}

func.func @layer3(%x: tensor<2x4x!X>) -> tensor<2x4x!Y> {
  %w = qnt.constant dense<[[3, -3, -2, -1], [0, 1, 2, 3], [-3, -2, -1, 0], [1, 2, 3, -3]]> : tensor<4x4xi8> -> tensor<4x4x!W>
  %a = qnt.matmul %x, %w : tensor<2x4x!X>, tensor<4x4x!W> -> tensor<2x4x!A>
  %y = qnt.requantize %a : tensor<2x4x!A> -> tensor<2x4x!Y>
  return %y : tensor<2x4x!Y>
}
