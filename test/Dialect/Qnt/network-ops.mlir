// Every example of the contract's "Version 2 additions" for add, pooling and
// concat parses and prints back to itself; defaults are elided.
// RUN: quant-opt %s | FileCheck %s
// RUN: quant-opt %s | quant-opt | FileCheck %s
// RUN: quant-opt %s --mlir-print-op-generic | quant-opt | FileCheck %s

!A = !quant.uniform<i8:f32, 5.000000e-02:-3>
!B = !quant.uniform<u8:f32, 1.000000e-01:128>
!Y = !quant.uniform<i8:f32, 1.250000e-01:-1>
!X = !quant.uniform<u8:f32, 2.500000e-01:128>
!XC = !quant.uniform<i8:f32:3, {5.000000e-01:1,2.500000e-01:-2}>
!I16 = !quant.uniform<i16:f32, 1.000000e-03>

// CHECK-LABEL: func.func @add
// CHECK: qnt.add %{{.*}}, %{{.*}} {clamp = array<i64: 0, 127>} : tensor<1x8x8x16x!quant.uniform<i8:f32, 5.000000e-02:-3>>, tensor<1x1x1x16x!quant.uniform<u8:f32, 1.000000e-01:128>> -> tensor<1x8x8x16x!quant.uniform<i8:f32, 1.250000e-01:-1>>
// CHECK: qnt.add %{{.*}}, %{{.*}} : tensor<2x1x!quant.uniform<i16:f32, 1.000000e-03>>, tensor<1x3x!quant.uniform<i16:f32, 1.000000e-03>> -> tensor<2x3x!quant.uniform<i16:f32, 1.000000e-03>>
// CHECK: qnt.add %{{.*}}, %{{.*}} {rounding = "float"}
func.func @add(%a: tensor<1x8x8x16x!A>, %b: tensor<1x1x1x16x!B>,
               %c: tensor<2x1x!I16>, %d: tensor<1x3x!I16>) {
  %y = qnt.add %a, %b {rounding = "double", clamp = array<i64: 0, 127>}
       : tensor<1x8x8x16x!A>, tensor<1x1x1x16x!B> -> tensor<1x8x8x16x!Y>
  %z = qnt.add %c, %d : tensor<2x1x!I16>, tensor<1x3x!I16> -> tensor<2x3x!I16>
  %f = qnt.add %a, %a {rounding = "float"} : tensor<1x8x8x16x!A>, tensor<1x8x8x16x!A> -> tensor<1x8x8x16x!Y>
  return
}

// CHECK-LABEL: func.func @pools
// CHECK: qnt.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x8x8x16x!quant.uniform<u8:f32, 2.500000e-01:128>> -> tensor<1x4x4x16x!quant.uniform<u8:f32, 2.500000e-01:128>>
// CHECK: qnt.avg_pool2d %{{.*}} {kernel = array<i64: 8, 8>} : tensor<1x8x8x16x!quant.uniform<u8:f32, 2.500000e-01:128>> -> tensor<1x1x1x16x!quant.uniform<u8:f32, 2.500000e-01:128>>
// CHECK: qnt.max_pool2d %{{.*}} {dilations = array<i64: 2, 2>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>} : tensor<1x8x8x2x!quant.uniform<i8:f32:3, {5.000000e-01:1,2.500000e-01:-2}>> -> tensor<1x6x6x2x!quant.uniform<i8:f32:3, {5.000000e-01:1,2.500000e-01:-2}>>
// CHECK: qnt.avg_pool2d %{{.*}} {count_include_pad = true, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x8x8x2x!quant.uniform<i8:f32:3, {5.000000e-01:1,2.500000e-01:-2}>> -> tensor<1x4x4x2x!quant.uniform<i8:f32:3, {5.000000e-01:1,2.500000e-01:-2}>>
func.func @pools(%x: tensor<1x8x8x16x!X>, %xc: tensor<1x8x8x2x!XC>) {
  %m = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>,
         padding = array<i64: 0, 0, 0, 0>} : tensor<1x8x8x16x!X> -> tensor<1x4x4x16x!X>
  %p = qnt.avg_pool2d %x {kernel = array<i64: 8, 8>} : tensor<1x8x8x16x!X> -> tensor<1x1x1x16x!X>
  %d = qnt.max_pool2d %xc {kernel = array<i64: 3, 3>, dilations = array<i64: 2, 2>,
         padding = array<i64: 1, 1, 1, 1>} : tensor<1x8x8x2x!XC> -> tensor<1x6x6x2x!XC>
  %q = qnt.avg_pool2d %xc {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>,
         padding = array<i64: 1, 1, 1, 1>, count_include_pad = true}
       : tensor<1x8x8x2x!XC> -> tensor<1x4x4x2x!XC>
  return
}

// CHECK-LABEL: func.func @concat
// CHECK: qnt.concat %{{.*}}, %{{.*}} {axis = 3 : i64} : tensor<1x4x4x8x!quant.uniform<i8:f32, 5.000000e-02:-3>>, tensor<1x4x4x8x!quant.uniform<i8:f32, 1.250000e-01:-1>> -> tensor<1x4x4x16x!quant.uniform<i8:f32, 1.250000e-01:-1>>
// CHECK: qnt.concat %{{.*}} {axis = 0 : i64, rounding = "single"} : tensor<2x3x!quant.uniform<u8:f32, 2.500000e-01:128>> -> tensor<2x3x!quant.uniform<u8:f32, 2.500000e-01:128>>
func.func @concat(%a: tensor<1x4x4x8x!A>, %b: tensor<1x4x4x8x!Y>, %x: tensor<2x3x!X>) {
  %c = qnt.concat %a, %b {axis = 3 : i64} : tensor<1x4x4x8x!A>, tensor<1x4x4x8x!Y> -> tensor<1x4x4x16x!Y>
  %s = qnt.concat %x {axis = 0 : i64, rounding = "single"} : tensor<2x3x!X> -> tensor<2x3x!X>
  return
}
