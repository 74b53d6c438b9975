// Between quantized input and quantized output the compiled network is
// integer only: conv -> requantize (ReLU) -> matmul -> requantize, with
// float weights and per-channel scales folded at compile time, lowers to a
// function without a single floating-point LLVM op.
// RUN: quant-opt %s --qnt-to-llvm | FileCheck %s

// Positive control: the same network with rounding "float" does multiply in
// f32, and the same CHECK-NOT lines would catch it.
// RUN: sed 's/"double"/"float"/' %s | quant-opt --qnt-to-llvm | FileCheck %s --check-prefix=FLOAT

// And it computes what the reference model computes.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd > %t.compiled
// RUN: %quant_ref_run %s > %t.reference
// RUN: %compare_outputs %t.reference %t.compiled

// CHECK-LABEL: llvm.func @net(
// The body, past the function's attributes: a host's feature list names
// features such as "amx-bf16" (an Intel Xeon's), not types.
// CHECK-SAME: {{\{$}}
// CHECK-NOT: f16
// CHECK-NOT: f32
// CHECK-NOT: f64
// CHECK-NOT: llvm.fmul
// CHECK-NOT: llvm.fdiv
// CHECK-NOT: llvm.fadd
// CHECK-NOT: llvm.fsub
// CHECK-NOT: llvm.sitofp
// CHECK-NOT: llvm.uitofp
// CHECK-NOT: llvm.fptosi
// CHECK-NOT: llvm.fptoui
// CHECK-NOT: llvm.fcmp
// CHECK-NOT: llvm.intr.roundeven
// CHECK-NOT: llvm.intr.maxnum
// CHECK-NOT: llvm.intr.minnum
// CHECK: llvm.func @_mlir_ciface_net(

// FLOAT-LABEL: llvm.func @net(
// FLOAT-SAME: {{\{$}}
// FLOAT: llvm.sitofp
// FLOAT: llvm.fmul
// FLOAT: llvm.intr.roundeven
// FLOAT: llvm.fptosi
// FLOAT: llvm.func @_mlir_ciface_net(

!X = !quant.uniform<u8:f32, 0.5:128>
!WC = !quant.uniform<i8<-127:127>:f32:3, {0.02, 0.03, 0.025}>
!AC = !quant.uniform<i32:f32:3, {0.01, 0.015, 0.0125}>
!BC = !quant.uniform<i32:f32:0, {0.01, 0.015, 0.0125}>
!Y1 = !quant.uniform<i8:f32, 0.1:-3>
!WM = !quant.uniform<i8:f32, 0.05>
!AM = !quant.uniform<i32:f32, 0.005>
!Y2 = !quant.uniform<u8:f32, 0.2:100>

func.func @net(%x: tensor<1x4x4x2x!X>) -> tensor<16x2x!Y2> {
  // 3x3 conv, 2 -> 3 channels, per-channel weights, padding 1.
  %wcf = arith.constant dense<[
    [[[0.5, -0.3, 0.2], [0.1, 0.4, -0.6]], [[-0.2, 0.3, 0.1], [0.7, -0.1, 0.2]], [[0.3, 0.2, -0.4], [-0.5, 0.6, 0.3]]],
    [[[0.2, -0.7, 0.5], [0.4, 0.1, -0.2]], [[0.6, 0.3, -0.3], [-0.1, 0.2, 0.4]], [[-0.4, 0.5, 0.1], [0.3, -0.2, 0.6]]],
    [[[0.1, 0.2, -0.1], [-0.3, 0.4, 0.5]], [[0.2, -0.6, 0.3], [0.5, 0.1, -0.4]], [[0.4, 0.3, 0.2], [-0.2, -0.5, 0.1]]]
  ]> : tensor<3x3x2x3xf32>
  %wc = qnt.quantize %wcf : tensor<3x3x2x3xf32> -> tensor<3x3x2x3x!WC>
  %bci = arith.constant dense<[100, -50, 25]> : tensor<3xi32>
  %bc = quant.scast %bci : tensor<3xi32> to tensor<3x!BC>
  %ac = qnt.conv2d %x, %wc, %bc {padding = array<i64: 1, 1, 1, 1>}
        : tensor<1x4x4x2x!X>, tensor<3x3x2x3x!WC>, tensor<3x!BC> -> tensor<1x4x4x3x!AC>
  // Fused ReLU: real 0 is code -3.
  %y1 = qnt.requantize %ac {rounding = "double", clamp = array<i64: -3, 127>}
        : tensor<1x4x4x3x!AC> -> tensor<1x4x4x3x!Y1>
  // Pixels become the M rows of a matmul.
  %y1i = quant.scast %y1 : tensor<1x4x4x3x!Y1> to tensor<1x4x4x3xi8>
  %rows = tensor.collapse_shape %y1i [[0, 1, 2], [3]] : tensor<1x4x4x3xi8> into tensor<16x3xi8>
  %m = quant.scast %rows : tensor<16x3xi8> to tensor<16x3x!Y1>
  %wmf = arith.constant dense<[[0.5, -0.25], [0.3, 0.45], [-0.6, 0.2]]> : tensor<3x2xf32>
  %wm = qnt.quantize %wmf : tensor<3x2xf32> -> tensor<3x2x!WM>
  %am = qnt.matmul %m, %wm : tensor<16x3x!Y1>, tensor<3x2x!WM> -> tensor<16x2x!AM>
  %y2 = qnt.requantize %am {rounding = "double"} : tensor<16x2x!AM> -> tensor<16x2x!Y2>
  return %y2 : tensor<16x2x!Y2>
}

func.func private @printMemrefU8(memref<*xi8>)

func.func @main() {
  // u8 codes as i8 bits.
  %xi = arith.constant dense<[[
    [[-126, 126], [0, 5], [-1, -128], [64, -64]],
    [[10, 20], [30, 40], [-10, -20], [-30, -40]],
    [[127, -127], [1, -1], [50, 60], [-50, -60]],
    [[100, 110], [120, -120], [2, 3], [4, 5]]
  ]]> : tensor<1x4x4x2xi8>
  %x = quant.scast %xi : tensor<1x4x4x2xi8> to tensor<1x4x4x2x!X>
  %y = call @net(%x) : (tensor<1x4x4x2x!X>) -> tensor<16x2x!Y2>
  %yi = quant.scast %y : tensor<16x2x!Y2> to tensor<16x2xi8>
  %ym = bufferization.to_buffer %yi : tensor<16x2xi8> to memref<16x2xi8>
  %yu = memref.cast %ym : memref<16x2xi8> to memref<*xi8>
  call @printMemrefU8(%yu) : (memref<*xi8>) -> ()
  return
}
