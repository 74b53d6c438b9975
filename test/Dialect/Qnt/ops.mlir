// Every example of the dialect contract parses and prints back to itself.
// RUN: quant-opt %s | FileCheck %s
// RUN: quant-opt %s | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s

!U8 = !quant.uniform<u8:f32, 2.500000e-01:128>
!X = !quant.uniform<u8:f32, 2.500000e-01:128>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 1.250000e-01>
!Y = !quant.uniform<i8:f32, 2.500000e-01:-5>

// CHECK-LABEL: func.func @quantize_dequantize
// CHECK: %[[Q:.*]] = qnt.quantize %{{.*}} : tensor<2xf32> -> tensor<2x!quant.uniform<u8:f32, 2.500000e-01:128>>
// CHECK: qnt.dequantize %[[Q]] : tensor<2x!quant.uniform<u8:f32, 2.500000e-01:128>> -> tensor<2xf32>
func.func @quantize_dequantize(%x: tensor<2xf32>) -> tensor<2xf32> {
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!U8>
  %r = qnt.dequantize %q : tensor<2x!U8> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @storage_kinds
// CHECK: tensor<4x!quant.uniform<i8:f32, 5.000000e-02:-10>>
// CHECK: tensor<4x!quant.uniform<i8<-127:127>:f32, 1.000000e-02>>
// CHECK: tensor<4x!quant.uniform<i16:f32, 1.000000e-03>>
func.func @storage_kinds(%x: tensor<4xf32>) {
  %a = qnt.quantize %x : tensor<4xf32> -> tensor<4x!quant.uniform<i8:f32, 0.05:-10>>
  %b = qnt.quantize %x : tensor<4xf32> -> tensor<4x!quant.uniform<i8<-127:127>:f32, 0.01>>
  %c = qnt.quantize %x : tensor<4xf32> -> tensor<4x!quant.uniform<i16:f32, 0.001>>
  return
}

// Per-axis dequantize on any axis, e.g. per-row scales of a 2-D tile.
// CHECK-LABEL: func.func @per_axis
// CHECK: qnt.dequantize %{{.*}} : tensor<2x3x!quant.uniform<i8:f32:0, {5.000000e-01,2.500000e-01}>> -> tensor<2x3xf32>
// CHECK: qnt.quantize %{{.*}} : tensor<2x3xf32> -> tensor<2x3x!quant.uniform<u8:f32:1, {1.000000e-01:1,2.000000e-01:2,3.000000e-01:3}>>
func.func @per_axis(%q: tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>>, %x: tensor<2x3xf32>) {
  %r = qnt.dequantize %q : tensor<2x3x!quant.uniform<i8:f32:0, {0.5, 0.25}>> -> tensor<2x3xf32>
  %p = qnt.quantize %x : tensor<2x3xf32> -> tensor<2x3x!quant.uniform<u8:f32:1, {0.1:1, 0.2:2, 0.3:3}>>
  return
}

// CHECK-LABEL: func.func @matmul
// CHECK: qnt.matmul %{{.*}}, %{{.*}} : tensor<1x2x!quant.uniform<u8:f32, 2.500000e-01:128>>, tensor<2x1x!quant.uniform<i8:f32, 5.000000e-01>> -> tensor<1x1x!quant.uniform<i32:f32, 1.250000e-01>>
// CHECK: qnt.matmul %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x2x!quant.uniform<u8:f32, 2.500000e-01:128>>, tensor<2x1x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<1x!quant.uniform<i32:f32, 1.250000e-01>> -> tensor<1x1x!quant.uniform<i32:f32, 1.250000e-01>>
func.func @matmul(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>, %b: tensor<1x!A>) {
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  %c = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
  return
}

// Per-channel weights give a per-axis accumulator on the output channel.
// CHECK-LABEL: func.func @matmul_per_channel
// CHECK: qnt.matmul {{.*}} -> tensor<1x2x!quant.uniform<i32:f32:1, {1.250000e-01,6.250000e-02}>>
func.func @matmul_per_channel(%x: tensor<1x2x!X>, %w: tensor<2x2x!quant.uniform<i8<-127:127>:f32:1, {0.5, 0.25}>>) {
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x2x!quant.uniform<i8<-127:127>:f32:1, {0.5, 0.25}>> -> tensor<1x2x!quant.uniform<i32:f32:1, {0.125, 0.0625}>>
  return
}

// CHECK-LABEL: func.func @conv2d
// CHECK: qnt.conv2d %{{.*}}, %{{.*}}, %{{.*}} {padding = array<i64: 1, 1, 1, 1>} : tensor<1x8x8x3x!quant.uniform<u8:f32, 2.500000e-01:128>>, tensor<3x3x3x4x!quant.uniform<i8:f32, 5.000000e-01>>, tensor<4x!quant.uniform<i32:f32, 1.250000e-01>> -> tensor<1x8x8x4x!quant.uniform<i32:f32, 1.250000e-01>>
// CHECK: qnt.conv2d %{{.*}}, %{{.*}} {dilations = array<i64: 2, 2>, groups = 3 : i64, strides = array<i64: 2, 2>} : tensor<1x8x8x3x{{.*}}>, tensor<3x3x1x3x{{.*}}> -> tensor<1x2x2x3x{{.*}}>
func.func @conv2d(%x: tensor<1x8x8x3x!X>, %w: tensor<3x3x3x4x!W>, %b: tensor<4x!A>, %dw: tensor<3x3x1x3x!W>) {
  %a = qnt.conv2d %x, %w, %b {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
         padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}
       : tensor<1x8x8x3x!X>, tensor<3x3x3x4x!W>, tensor<4x!A> -> tensor<1x8x8x4x!A>
  // Depthwise (groups == C), stride 2, dilation 2: (8 - 4 - 1) / 2 + 1 = 2.
  %d = qnt.conv2d %x, %dw {strides = array<i64: 2, 2>, dilations = array<i64: 2, 2>, groups = 3 : i64}
       : tensor<1x8x8x3x!X>, tensor<3x3x1x3x!W> -> tensor<1x2x2x3x!A>
  return
}

// CHECK-LABEL: func.func @requantize
// CHECK: qnt.requantize %{{.*}} {clamp = array<i64: -5, 127>} : tensor<1x1x!quant.uniform<i32:f32, 1.250000e-01>> -> tensor<1x1x!quant.uniform<i8:f32, 2.500000e-01:-5>>
// CHECK: qnt.requantize %{{.*}} {rounding = "half_even"}
// CHECK: qnt.requantize %{{.*}} {rounding = "single"}
// CHECK: qnt.requantize %{{.*}} {rounding = "away"}
// CHECK: qnt.requantize %{{.*}} {rounding = "float"}
func.func @requantize(%a: tensor<1x1x!A>) {
  %y = qnt.requantize %a {rounding = "double", clamp = array<i64: -5, 127>}
       : tensor<1x1x!A> -> tensor<1x1x!Y>
  %h = qnt.requantize %a {rounding = "half_even"} : tensor<1x1x!A> -> tensor<1x1x!Y>
  %s = qnt.requantize %a {rounding = "single"} : tensor<1x1x!A> -> tensor<1x1x!Y>
  %w = qnt.requantize %a {rounding = "away"} : tensor<1x1x!A> -> tensor<1x1x!Y>
  %f = qnt.requantize %a {rounding = "float"} : tensor<1x1x!A> -> tensor<1x1x!Y>
  return
}

// Raw integers move in and out of quantized types with upstream quant.scast.
// CHECK-LABEL: func.func @storage_cast
// CHECK: quant.scast %{{.*}} : tensor<2xi8> to tensor<2x!quant.uniform<u8:f32, 2.500000e-01:128>>
func.func @storage_cast(%raw: tensor<2xi8>) -> tensor<2xf32> {
  %q = quant.scast %raw : tensor<2xi8> to tensor<2x!U8>
  %r = qnt.dequantize %q : tensor<2x!U8> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// CHECK-LABEL: func.func @constant
// CHECK: qnt.constant dense<[0, 200, 255]> : tensor<3xui8> -> tensor<3x!quant.uniform<u8:f32, 2.500000e-01:128>>
func.func @constant() -> tensor<3x!U8> {
  %c = qnt.constant dense<[0, 200, 255]> : tensor<3xui8> -> tensor<3x!U8>
  return %c : tensor<3x!U8>
}
