// RUN: quant-opt %s --split-input-file --qnt-x86-amx | FileCheck %s

// The kernel choice follows the module's llvm.target, never the machine
// running the compiler: x86-64-v4 + VNNI has no AMX, a Sapphire Rapids CPU
// does (implied by the CPU name), and so does an explicit +amx-int8.

// CHECK-LABEL: module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4"
// CHECK: qnt.int_matmul
// CHECK-NOT: amx.tile_muli
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4", features = <["+avx512vnni"]>>} {
  func.func @mm(%x: tensor<4x8xi8>) -> tensor<4x4xi32> {
    %w = arith.constant dense<1> : tensor<8x4xi8>
    %b = arith.constant dense<0> : tensor<4xi32>
    %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
         : tensor<4x8xi8>, tensor<8x4xi8>, tensor<4xi32> -> tensor<4x4xi32>
    return %a : tensor<4x4xi32>
  }
}

// -----

// CHECK-LABEL: module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "sapphirerapids">
// CHECK: amx.tile_muli
// CHECK-NOT: qnt.int_matmul
// CHECK: llvm.mlir.global_ctors
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "sapphirerapids">} {
  func.func @mm(%x: tensor<4x8xi8>) -> tensor<4x4xi32> {
    %w = arith.constant dense<1> : tensor<8x4xi8>
    %b = arith.constant dense<0> : tensor<4xi32>
    %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
         : tensor<4x8xi8>, tensor<8x4xi8>, tensor<4xi32> -> tensor<4x4xi32>
    return %a : tensor<4x4xi32>
  }
}

// -----

// CHECK-LABEL: module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4", features = <["+avx512vnni", "+amx-tile", "+amx-int8"]>>
// CHECK: amx.tile_muli
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4", features = <["+avx512vnni", "+amx-tile", "+amx-int8"]>>} {
  func.func @mm(%x: tensor<4x8xi8>) -> tensor<4x4xi32> {
    %w = arith.constant dense<1> : tensor<8x4xi8>
    %b = arith.constant dense<0> : tensor<4xi32>
    %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
         : tensor<4x8xi8>, tensor<8x4xi8>, tensor<4xi32> -> tensor<4x4xi32>
    return %a : tensor<4x4xi32>
  }
}

// -----

// A module that already has constructors keeps them: ours joins the list.
// CHECK-LABEL: module attributes
// CHECK: llvm.mlir.global_ctors ctors = [@__qnt_amx_request_tile_data, @other], priorities = [101 : i32, 65535 : i32], data = [#llvm.zero, #llvm.zero]
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "sapphirerapids">} {
  llvm.func @other() {
    llvm.return
  }
  llvm.mlir.global_ctors ctors = [@other], priorities = [65535 : i32], data = [#llvm.zero]
  func.func @mm(%x: tensor<4x8xi8>) -> tensor<4x4xi32> {
    %w = arith.constant dense<1> : tensor<8x4xi8>
    %b = arith.constant dense<0> : tensor<4xi32>
    %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
         : tensor<4x8xi8>, tensor<8x4xi8>, tensor<4xi32> -> tensor<4x4xi32>
    return %a : tensor<4x4xi32>
  }
}
