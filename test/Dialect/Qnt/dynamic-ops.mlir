// Every example of the contract's runtime-scale ops parses and prints back to
// itself, in the custom and the generic form; mode stays a string.
// RUN: quant-opt %s | FileCheck %s
// RUN: quant-opt %s | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @dequantize_dynamic
// CHECK: qnt.dequantize_dynamic %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xi8>, tensor<64x1xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
// CHECK: qnt.dequantize_dynamic %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3xui8>, tensor<1x3xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
// CHECK: qnt.dequantize_dynamic %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x3x4xi16>, tensor<2x1x4xf32>, tensor<1x3x1xf32> -> tensor<2x3x4xf32>
// CHECK: qnt.dequantize_dynamic %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xi32>, tensor<64x128xf32>, tensor<1x1xf32> -> tensor<64x128xf32>
func.func @dequantize_dynamic(%src: tensor<64x128xi8>, %scale: tensor<64x1xf32>,
                              %offset: tensor<64x1xf32>, %u: tensor<2x3xui8>,
                              %cs: tensor<1x3xf32>, %t: tensor<1x1xf32>,
                              %h: tensor<2x3x4xi16>, %hs: tensor<2x1x4xf32>,
                              %ho: tensor<1x3x1xf32>, %acc: tensor<64x128xi32>,
                              %full: tensor<64x128xf32>) {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<64x128xi8>, tensor<64x1xf32>, tensor<64x1xf32> -> tensor<64x128xf32>
  %r1 = qnt.dequantize_dynamic %u, %cs, %t : tensor<2x3xui8>, tensor<1x3xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  %r2 = qnt.dequantize_dynamic %h, %hs, %ho : tensor<2x3x4xi16>, tensor<2x1x4xf32>, tensor<1x3x1xf32> -> tensor<2x3x4xf32>
  %r3 = qnt.dequantize_dynamic %acc, %full, %t : tensor<64x128xi32>, tensor<64x128xf32>, tensor<1x1xf32> -> tensor<64x128xf32>
  return
}

// CHECK-LABEL: func.func @quantize_dynamic
// CHECK: qnt.quantize_dynamic %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xf32>, tensor<64x1xf32>, tensor<64x1xf32> -> tensor<64x128xi8>
// CHECK: qnt.quantize_dynamic %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xf32>, tensor<1x128xf32>, tensor<1x1xf32> -> tensor<64x128xui8>
// CHECK: qnt.quantize_dynamic %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x128xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<64x128xi16>
func.func @quantize_dynamic(%x: tensor<64x128xf32>, %scale: tensor<64x1xf32>,
                            %offset: tensor<64x1xf32>, %cs: tensor<1x128xf32>,
                            %t: tensor<1x1xf32>) {
  %q = qnt.quantize_dynamic %x, %scale, %offset : tensor<64x128xf32>, tensor<64x1xf32>, tensor<64x1xf32> -> tensor<64x128xi8>
  %q1 = qnt.quantize_dynamic %x, %cs, %t : tensor<64x128xf32>, tensor<1x128xf32>, tensor<1x1xf32> -> tensor<64x128xui8>
  %q2 = qnt.quantize_dynamic %x, %t, %t : tensor<64x128xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<64x128xi16>
  return
}

// CHECK-LABEL: func.func @dynamic_quantize
// CHECK: qnt.dynamic_quantize %{{.*}} {mode = "onnx"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
// CHECK: qnt.dynamic_quantize %{{.*}} {axis = 0 : i64, mode = "symmetric"} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>
// CHECK: qnt.dynamic_quantize %{{.*}} {axis = 1 : i64, mode = "symmetric"} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<8xf32>, tensor<8xi8>
// GENERIC: "qnt.dynamic_quantize"(%{{.*}}) <{mode = "onnx"}>
// GENERIC: "qnt.dynamic_quantize"(%{{.*}}) <{axis = 0 : i64, mode = "symmetric"}>
func.func @dynamic_quantize(%x: tensor<4x8xf32>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  %c1, %s1, %z1 = qnt.dynamic_quantize %x {mode = "symmetric", axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>
  %c2, %s2, %z2 = qnt.dynamic_quantize %x {mode = "symmetric", axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<8xf32>, tensor<8xi8>
  return
}
