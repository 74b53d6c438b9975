// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s

// Software-pipelined register tiles (KernelEmitter::emitPipelinedTiles):
// 8 output rows (lines) of 12 pixels, 64 filters: three 4 x 64 register
// tiles per line, a 1 x 1 conv over 16 channels (4 vpdpbusd steps), the
// requantize fused. The first tile's sums go to a 16 x 16 i32 scratch; a
// loop over the other two unrolls each tile's 4 steps, after each one
// requantizing and storing one vector of the previous tile (the remaining
// 12 right after them), then stashes its own sums; the last tile's 16
// vectors are stored after the loop. The line loop stays the one threads
// split.
// CHECK-LABEL: func.func @pipelined
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}}) -> (tensor<96x64xi8>)
// CHECK:   %[[SCRATCH0:.*]] = tensor.empty() : tensor<16x16xi32>
// CHECK-COUNT-16: qnt_kernel.x86.vpdpbusd
// CHECK:   vector.transfer_write %{{.*}}, %[[SCRATCH0]]
// CHECK:   scf.for %{{.*}} = %c1 to %c3 step %c1 iter_args(%{{.*}} = %{{.*}}, %[[SCRATCH:.*]] = %{{.*}}) -> (tensor<96x64xi8>, tensor<16x16xi32>)
// CHECK:     qnt_kernel.x86.vpdpbusd
// CHECK:     vector.transfer_read %[[SCRATCH]]
// CHECK:     vector.transfer_write {{.*}} : vector<16xi8>, tensor<96x64xi8>
// CHECK:     qnt_kernel.x86.vpdpbusd
// CHECK:     scf.yield {{.*}} : tensor<96x64xi8>, tensor<16x16xi32>
// CHECK-COUNT-16: vector.transfer_write {{.*}} : vector<16xi8>, tensor<96x64xi8>
// CHECK:   scf.yield
func.func @pipelined(%x: tensor<1x8x12x16xi8>) -> tensor<1x8x12x64xi8> {
  %w = arith.constant dense<3> : tensor<1x1x16x64xi8>
  %b = arith.constant dense<100> : tensor<64xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x8x12x16xi8>, tensor<1x1x16x64xi8>, tensor<64xi32> -> tensor<1x8x12x64xi32>
  %y = qnt.int_requantize %a {multipliers = array<i32: 1518500250>, shifts = array<i32: 6>, float_multipliers = array<f32: 0.0>, input_zero_points = array<i32: 0>, output_zero_points = array<i32: -3>, min = -128 : i32, max = 127 : i32, rounding = "double", axis = 3 : i64}
       : tensor<1x8x12x64xi32> -> tensor<1x8x12x64xi8>
  return %y : tensor<1x8x12x64xi8>
}

// -----

// Fewer than 8 lines: the row-tile loop stays a plain loop that threads
// may split, with no scratch.
// CHECK-LABEL: func.func @few_lines
// CHECK-NOT: tensor<16x16xi32>
// CHECK: return
func.func @few_lines(%x: tensor<1x4x12x16xi8>) -> tensor<1x4x12x64xi8> {
  %w = arith.constant dense<3> : tensor<1x1x16x64xi8>
  %b = arith.constant dense<100> : tensor<64xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x4x12x16xi8>, tensor<1x1x16x64xi8>, tensor<64xi32> -> tensor<1x4x12x64xi32>
  %y = qnt.int_requantize %a {multipliers = array<i32: 1518500250>, shifts = array<i32: 6>, float_multipliers = array<f32: 0.0>, input_zero_points = array<i32: 0>, output_zero_points = array<i32: -3>, min = -128 : i32, max = 127 : i32, rounding = "double", axis = 3 : i64}
       : tensor<1x4x12x64xi32> -> tensor<1x4x12x64xi8>
  return %y : tensor<1x4x12x64xi8>
}
