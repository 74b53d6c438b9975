// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-qnt))" | FileCheck %s

// Inputs at the edges of what converts: each stays TOSA (and the pass
// neither fails nor crashes) or converts as stated.

// Dynamic shapes.
// CHECK-LABEL: func.func @dynamic_matmul
// CHECK: tosa.matmul
func.func @dynamic_matmul(%a: tensor<?x5x3xi8>, %b: tensor<?x3x6xi8>) -> tensor<?x5x6xi32> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %0 = tosa.matmul %a, %b, %zp, %zp : (tensor<?x5x3xi8>, tensor<?x3x6xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<?x5x6xi32>
  return %0 : tensor<?x5x6xi32>
}

// -----

// Unsigned element types.
// CHECK-LABEL: func.func @max_pool_ui8
// CHECK: tosa.max_pool2d
func.func @max_pool_ui8(%x: tensor<1x6x6x2xui8>) -> tensor<1x4x4x2xui8> {
  %0 = tosa.max_pool2d %x {pad = array<i64: 0, 0, 0, 0>, kernel = array<i64: 3, 3>, stride = array<i64: 1, 1>} : (tensor<1x6x6x2xui8>) -> tensor<1x4x4x2xui8>
  return %0 : tensor<1x4x4x2xui8>
}

// -----

// A negative multiplier breaks TOSA's REQUIRE(multiplier >= 0).
// CHECK-LABEL: func.func @negative_multiplier
// CHECK: tosa.rescale
func.func @negative_multiplier(%x: tensor<4xi32>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<-5> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<35> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// Shift 1 is below TOSA's minimum of 2.
// CHECK-LABEL: func.func @shift_one
// CHECK: tosa.rescale
func.func @shift_one(%x: tensor<4xi8>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<3> : tensor<1xi16>} : () -> tensor<1xi16>
  %s = "tosa.const"() {values = dense<1> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// Splat weights stay a splat through the OHWI -> HWCF transpose; a
// one-element bias becomes a splat over the channels.
// CHECK-LABEL: func.func @splat_weights
// CHECK-DAG: arith.constant dense<3> : tensor<2x2x4x5xi8>
// CHECK-DAG: arith.constant dense<-9> : tensor<5xi32>
// CHECK: qnt.conv2d
func.func @splat_weights(%x: tensor<1x3x3x4xi8>) -> tensor<1x2x2x5xi32> {
  %w = "tosa.const"() {values = dense<3> : tensor<5x2x2x4xi8>} : () -> tensor<5x2x2x4xi8>
  %b = "tosa.const"() {values = dense<-9> : tensor<1xi32>} : () -> tensor<1xi32>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x3x3x4xi8>, tensor<5x2x2x4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x5xi32>
  return %y : tensor<1x2x2x5xi32>
}

// -----

// A clamp whose range misses the producer's: the requantize is not
// narrowed to an empty range; the clamp becomes its own identity.
// CHECK-LABEL: func.func @disjoint_clamp
// CHECK: %[[R:.*]] = qnt.int_requantize %arg0 {{{.*}}max = 127 : i32, min = 0 : i32
// CHECK: qnt.int_requantize %[[R]] {{{.*}}max = -5 : i32, min = -10 : i32
func.func @disjoint_clamp(%x: tensor<4xi8>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %x, %m, %s, %zp, %zp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  %relu = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  %c = tosa.clamp %relu {min_val = -10 : i8, max_val = -5 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  return %c : tensor<4xi8>
}
