// Found by qnt-gen-fuzzer on the whole-network ops: qnt ops whose tensors
// have a zero-sized dimension passed the verifier and then failed in
// --qnt-to-llvm: a concat of empty operands ("offset 0 is out-of-bounds:
// 0 >= 0" from the memref.subview of an empty slice), and a matmul with no
// output channel whose empty splat bias (nominally INT32_MIN) was read by
// qnt-fold-zero-points ("folded bias of output channel 0 ... outside i32").
// RUN: quant-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(qnt-erase-empty-results))' \
// RUN:   | FileCheck %s --check-prefix=ERASE
// RUN: quant-opt %s --split-input-file --qnt-fold-zero-points | FileCheck %s --check-prefix=FOLD
// RUN: quant-opt %s --split-input-file --qnt-to-llvm="target=x86_64" > /dev/null
// RUN: quant-opt %s --split-input-file --qnt-to-llvm="target=aarch64" > /dev/null

!A = !quant.uniform<i8:f32, 3.0e-05:-128>
!Y = !quant.uniform<i8:f32, 1.0e-38:-31>

// ERASE-LABEL: func.func @empty_concat
// ERASE-NEXT: %[[E:.+]] = tensor.empty() : tensor<0x4x!quant.uniform
// ERASE-NEXT: return %[[E]]
func.func @empty_concat(%a: tensor<0x2x!A>, %b: tensor<0x2x!A>) -> tensor<0x4x!Y> {
  %c = qnt.concat %a, %b {axis = 1 : i64} : tensor<0x2x!A>, tensor<0x2x!A> -> tensor<0x4x!Y>
  return %c : tensor<0x4x!Y>
}

// -----

!X = !quant.uniform<i8:f32, 1.7e-04:127>
!W = !quant.uniform<i8:f32, 4.0:0>
!B = !quant.uniform<i32:f32, 6.8e-04:0>

// ERASE-LABEL: func.func @no_output_channel
// ERASE-NEXT: %[[E:.+]] = tensor.empty() : tensor<3x0x!quant.uniform
// ERASE-NEXT: return %[[E]]
// FOLD-LABEL: func.func @no_output_channel
// FOLD: qnt.int_matmul
func.func @no_output_channel(%x: tensor<3x5x!X>) -> tensor<3x0x!B> {
  %w = qnt.constant dense<127> : tensor<5x0xi8> -> tensor<5x0x!W>
  %b = qnt.constant dense<-2147483648> : tensor<0xi32> -> tensor<0x!B>
  %a = qnt.matmul %x, %w, %b : tensor<3x5x!X>, tensor<5x0x!W>, tensor<0x!B> -> tensor<3x0x!B>
  return %a : tensor<3x0x!B>
}
