// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-qnt))" | FileCheck %s

// Every converted op: the expected attributes follow from TOSA's definitions
// (docs/TosaToQnt.md): apply_scale's shift s is qnt's `shifts = s - 31`, the
// multiplier is copied, zero points and clamps are TOSA's.

// CHECK-LABEL: func.func @rescale_double_per_channel
// CHECK-NOT: tosa.
// CHECK: qnt.int_requantize %arg0 {axis = 3 : i64, float_multipliers = array<f32: 1.000000e+00, 1.000000e+00>, input_zero_points = array<i32: 0, 0>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 1073741824, 1500000000>, output_zero_points = array<i32: 5, 5>, rounding = "double", shifts = array<i32: 7, 9>} : tensor<1x2x2x2xi32> -> tensor<1x2x2x2xi8>
func.func @rescale_double_per_channel(%acc: tensor<1x2x2x2xi32>) -> tensor<1x2x2x2xi8> {
  %m = "tosa.const"() {values = dense<[1073741824, 1500000000]> : tensor<2xi32>} : () -> tensor<2xi32>
  %s = "tosa.const"() {values = dense<[38, 40]> : tensor<2xi8>} : () -> tensor<2xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = true, input_unsigned = false, output_unsigned = false} : (tensor<1x2x2x2xi32>, tensor<2xi32>, tensor<2xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x2xi8>
  return %y : tensor<1x2x2x2xi8>
}

// -----

// SINGLE_ROUND with a 16-bit multiplier; u8 input codes (zero point 200,
// written as its i8 bit pattern -56 and zero-extended by TOSA).
// CHECK-LABEL: func.func @rescale_single_u8_in
// CHECK: qnt.int_requantize %arg0 {float_multipliers = array<f32: 1.000000e+00>, input_unsigned, input_zero_points = array<i32: 200>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 19689>, output_zero_points = array<i32: -3>, rounding = "single", shifts = array<i32: -16>} : tensor<4xi8> -> tensor<4xi8>
func.func @rescale_single_u8_in(%x: tensor<4xi8>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<19689> : tensor<1xi16>} : () -> tensor<1xi16>
  %s = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<-56> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = true, output_unsigned = false} : (tensor<4xi8>, tensor<1xi16>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// INEXACT_ROUND leaves the rounding to the implementation: `single`.
// output_unsigned: clamp to [0, 255].
// CHECK-LABEL: func.func @rescale_inexact_u8_out
// CHECK: qnt.int_requantize %arg0 {{{.*}}max = 255 : i32, min = 0 : i32, multipliers = array<i32: 1073741824>, output_unsigned, output_zero_points = array<i32: 128>, rounding = "single", shifts = array<i32: -1>}
func.func @rescale_inexact_u8_out(%x: tensor<4xi8>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = INEXACT_ROUND, per_channel = false, input_unsigned = false, output_unsigned = true} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// A clamp after a rescale narrows its [min, max]; a clamp on anything else
// is the exact identity requantize (2^30 * 2^-31 * 2^1 = 1) with bounds.
// CHECK-LABEL: func.func @clamp
// CHECK: %[[R:.*]] = qnt.int_requantize %arg0 {{{.*}}max = 6 : i32, min = 5 : i32{{.*}}} : tensor<4xi32> -> tensor<4xi8>
// CHECK: qnt.int_requantize %[[R]] {float_multipliers = array<f32: 1.000000e+00>, input_zero_points = array<i32: 0>, max = 4 : i32, min = -4 : i32, multipliers = array<i32: 1073741824>, output_zero_points = array<i32: 0>, rounding = "single", shifts = array<i32: -1>} : tensor<4xi8> -> tensor<4xi8>
func.func @clamp(%acc: tensor<4xi32>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<35> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  %relu6 = tosa.clamp %y {min_val = 5 : i8, max_val = 6 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  %c = tosa.clamp %relu6 {min_val = -4 : i8, max_val = 4 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  return %c : tensor<4xi8>
}

// -----

// conv2d: OHWI weights become HWCF at compile time ([F=2, KH=1, KW=1, C=2]
// [[a, b], [c, d]] -> [[[[a, c], [b, d]]]]), types of scale 1 carry TOSA's
// zero points, the bias keeps its i32 codes.
// CHECK-LABEL: func.func @conv2d
// CHECK-DAG: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1, 3], [2, 4]]]]> : tensor<1x1x2x2xi8>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[10, -20]> : tensor<2xi32>
// CHECK-DAG: %[[X:.*]] = quant.scast %arg0 : tensor<1x2x1x2xi8> to tensor<1x2x1x2x!quant.uniform<i8:f32, 1.000000e+00:-3>>
// CHECK-DAG: %[[WQ:.*]] = quant.scast %[[W]] : tensor<1x1x2x2xi8> to tensor<1x1x2x2x!quant.uniform<i8:f32, 1.000000e+00:7>>
// CHECK-DAG: %[[BQ:.*]] = quant.scast %[[B]] : tensor<2xi32> to tensor<2x!quant.uniform<i32:f32, 1.000000e+00>>
// CHECK: %[[A:.*]] = qnt.conv2d %[[X]], %[[WQ]], %[[BQ]] {dilations = array<i64: 1, 2>, padding = array<i64: 1, 0, 0, 1>, strides = array<i64: 2, 1>}
// CHECK-SAME: -> tensor<1x2x2x2x!quant.uniform<i32:f32, 1.000000e+00>>
// CHECK: quant.scast %[[A]] : tensor<1x2x2x2x!quant.uniform<i32:f32, 1.000000e+00>> to tensor<1x2x2x2xi32>
func.func @conv2d(%x: tensor<1x2x1x2xi8>) -> tensor<1x2x2x2xi32> {
  %w = "tosa.const"() {values = dense<[[[[1, 2]]], [[[3, 4]]]]> : tensor<2x1x1x2xi8>} : () -> tensor<2x1x1x2xi8>
  %b = "tosa.const"() {values = dense<[10, -20]> : tensor<2xi32>} : () -> tensor<2xi32>
  %izp = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<7> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, pad = array<i64: 1, 0, 0, 1>, stride = array<i64: 2, 1>, dilation = array<i64: 1, 2>} : (tensor<1x2x1x2xi8>, tensor<2x1x1x2xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x2xi32>
  return %acc : tensor<1x2x2x2xi32>
}

// -----

// Run-time weights are transposed by linalg; a one-element constant bias is
// broadcast to the channels.
// CHECK-LABEL: func.func @conv2d_runtime_weights
// CHECK-DAG: arith.constant dense<7> : tensor<3xi32>
// CHECK: %[[T:.*]] = linalg.transpose ins(%arg1 : tensor<3x2x2x1xi8>) outs(%{{.*}} : tensor<2x2x1x3xi8>) permutation = [1, 2, 3, 0]
// CHECK: quant.scast %[[T]]
// CHECK: qnt.conv2d
func.func @conv2d_runtime_weights(%x: tensor<1x4x4x1xi8>, %w: tensor<3x2x2x1xi8>) -> tensor<1x3x3x3xi32> {
  %b = "tosa.const"() {values = dense<7> : tensor<1xi32>} : () -> tensor<1xi32>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x1xi8>, tensor<3x2x2x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x3xi32>
  return %acc : tensor<1x3x3x3xi32>
}

// -----

// depthwise_conv2d: [KH, KW, C, M] is [KH, KW, 1, C*M] with groups = C.
// CHECK-LABEL: func.func @depthwise
// CHECK: %[[W:.*]] = arith.constant dense<{{\[\[\[\[}}1, 2, 3, 4, 5, 6]]]]> : tensor<1x1x1x6xi8>
// CHECK: qnt.conv2d %{{.*}}, %{{.*}}, %{{.*}} {groups = 3 : i64} : tensor<1x2x2x3x!quant.uniform<i8:f32, 1.000000e+00>>, tensor<1x1x1x6x!quant.uniform<i8:f32, 1.000000e+00>>, tensor<6x!quant.uniform<i32:f32, 1.000000e+00>> -> tensor<1x2x2x6x!quant.uniform<i32:f32, 1.000000e+00>>
func.func @depthwise(%x: tensor<1x2x2x3xi8>) -> tensor<1x2x2x6xi32> {
  %w = "tosa.const"() {values = dense<[[[[1, 2], [3, 4], [5, 6]]]]> : tensor<1x1x3x2xi8>} : () -> tensor<1x1x3x2xi8>
  %b = "tosa.const"() {values = dense<0> : tensor<6xi32>} : () -> tensor<6xi32>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.depthwise_conv2d %x, %w, %b, %zp, %zp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x2x2x3xi8>, tensor<1x1x3x2xi8>, tensor<6xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2x6xi32>
  return %acc : tensor<1x2x2x6xi32>
}

// -----

// matmul: each batch is one qnt.matmul of its H x C and C x W slices;
// constant B is sliced at compile time.
// CHECK-LABEL: func.func @matmul
// CHECK-DAG: %[[B0:.*]] = arith.constant dense<{{\[\[}}1], [2]]> : tensor<2x1xi8>
// CHECK-DAG: %[[B1:.*]] = arith.constant dense<{{\[\[}}3], [4]]> : tensor<2x1xi8>
// CHECK: %[[A0:.*]] = tensor.extract_slice %arg0[0, 0, 0] [1, 1, 2] [1, 1, 1] : tensor<2x1x2xi8> to tensor<1x2xi8>
// CHECK: quant.scast %[[A0]] : tensor<1x2xi8> to tensor<1x2x!quant.uniform<i8:f32, 1.000000e+00:4>>
// CHECK: quant.scast %[[B0]] : tensor<2x1xi8> to tensor<2x1x!quant.uniform<i8:f32, 1.000000e+00:-1>>
// CHECK: qnt.matmul
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<1x1xi32> into tensor<2x1x1xi32>
// CHECK: tensor.extract_slice %arg0[1, 0, 0]
// CHECK: quant.scast %[[B1]]
// CHECK: qnt.matmul
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[1, 0, 0]
func.func @matmul(%a: tensor<2x1x2xi8>) -> tensor<2x1x1xi32> {
  %b = "tosa.const"() {values = dense<[[[1], [2]], [[3], [4]]]> : tensor<2x2x1xi8>} : () -> tensor<2x2x1xi8>
  %azp = "tosa.const"() {values = dense<4> : tensor<1xi8>} : () -> tensor<1xi8>
  %bzp = "tosa.const"() {values = dense<-1> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %azp, %bzp : (tensor<2x1x2xi8>, tensor<2x2x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x1x1xi32>
  return %acc : tensor<2x1x1xi32>
}

// -----

// One batch: A and the result are reshaped, not copied; run-time B too.
// CHECK-LABEL: func.func @matmul_one_batch
// CHECK: %[[A:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1], [2]] : tensor<1x3x2xi8> into tensor<3x2xi8>
// CHECK: %[[B:.*]] = tensor.collapse_shape %arg1 {{\[\[}}0, 1], [2]] : tensor<1x2x4xi8> into tensor<2x4xi8>
// CHECK: %[[AQ:.*]] = quant.scast %[[A]]
// CHECK: %[[BQ:.*]] = quant.scast %[[B]]
// CHECK: %[[M:.*]] = qnt.matmul %[[AQ]], %[[BQ]]
// CHECK: %[[C:.*]] = quant.scast %[[M]] : tensor<3x4x!quant.uniform<i32:f32, 1.000000e+00>> to tensor<3x4xi32>
// CHECK: tensor.expand_shape %[[C]] {{\[\[}}0, 1], [2]] output_shape [1, 3, 4] : tensor<3x4xi32> into tensor<1x3x4xi32>
func.func @matmul_one_batch(%a: tensor<1x3x2xi8>, %b: tensor<1x2x4xi8>) -> tensor<1x3x4xi32> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %zp, %zp : (tensor<1x3x2xi8>, tensor<1x2x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x4xi32>
  return %acc : tensor<1x3x4xi32>
}

// -----

// TFLite's add: rescale(add(rescale(a), rescale(b))) is one qnt.int_add
// with the three multipliers and shifts (s - 31) and the zero points; the
// inputs' shifts are at most 31, so the output's DOUBLE_ROUND decides.
// CHECK-LABEL: func.func @add_chain
// CHECK-NOT: tosa.
// CHECK: qnt.int_add %arg0, %arg1 {a_float_multiplier = 1.000000e+00 : f32, a_multiplier = 1073741824 : i32, a_shift = -11 : i32, a_unsigned, a_zero_point = 128 : i32, b_float_multiplier = 1.000000e+00 : f32, b_multiplier = 1500000000 : i32, b_shift = -10 : i32, b_zero_point = -3 : i32, left_shift = 0 : i32, max = 127 : i32, min = 0 : i32, output_multiplier = 1200000000 : i32, output_shift = 9 : i32, output_zero_point = 2 : i32, rounding = "double"} : tensor<1x2x2x3xi8>, tensor<1x1x1x3xi8> -> tensor<1x2x2x3xi8>
func.func @add_chain(%a: tensor<1x2x2x3xi8>, %b: tensor<1x1x1x3xi8>) -> tensor<1x2x2x3xi8> {
  %ma = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %sa = "tosa.const"() {values = dense<20> : tensor<1xi8>} : () -> tensor<1xi8>
  %mb = "tosa.const"() {values = dense<1500000000> : tensor<1xi32>} : () -> tensor<1xi32>
  %sb = "tosa.const"() {values = dense<21> : tensor<1xi8>} : () -> tensor<1xi8>
  %mo = "tosa.const"() {values = dense<1200000000> : tensor<1xi32>} : () -> tensor<1xi32>
  %so = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zpa = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %zpb = "tosa.const"() {values = dense<-3> : tensor<1xi8>} : () -> tensor<1xi8>
  %zpo = "tosa.const"() {values = dense<2> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ra = tosa.rescale %a, %ma, %sa, %zpa, %z32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = true, output_unsigned = false} : (tensor<1x2x2x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x2x2x3xi32>
  %rb = tosa.rescale %b, %mb, %sb, %zpb, %z32 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x1x1x3xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<1x1x1x3xi32>
  %sum = tosa.add %ra, %rb : (tensor<1x2x2x3xi32>, tensor<1x1x1x3xi32>) -> tensor<1x2x2x3xi32>
  %y = tosa.rescale %sum, %mo, %so, %z32, %zpo {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x2x2x3xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x2x3xi8>
  %relu = tosa.clamp %y {min_val = 0 : i8, max_val = 127 : i8} : (tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi8>
  return %relu : tensor<1x2x2x3xi8>
}

// -----

// avg_pool2d with input zero point 3: qnt.int_avg_pool2d around 3, then
// the identity rescale from 3 to the output zero point -7.
// CHECK-LABEL: func.func @avg_pool
// CHECK: %[[P:.*]] = qnt.int_avg_pool2d %arg0 {kernel = array<i64: 2, 2>, max = 127 : i32, min = -128 : i32, padding = array<i64: 1, 0, 1, 0>, strides = array<i64: 2, 2>, zero_points = array<i32: 3>} : tensor<1x5x5x2xi8> -> tensor<1x3x3x2xi8>
// CHECK: qnt.int_requantize %[[P]] {float_multipliers = array<f32: 1.000000e+00>, input_zero_points = array<i32: 3>, max = 127 : i32, min = -128 : i32, multipliers = array<i32: 1073741824>, output_zero_points = array<i32: -7>, rounding = "single", shifts = array<i32: -1>}
func.func @avg_pool(%x: tensor<1x5x5x2xi8>) -> tensor<1x3x3x2xi8> {
  %izp = "tosa.const"() {values = dense<3> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<-7> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.avg_pool2d %x, %izp, %ozp {kernel = array<i64: 2, 2>, stride = array<i64: 2, 2>, pad = array<i64: 1, 0, 1, 0>, acc_type = i32} : (tensor<1x5x5x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x2xi8>
  return %y : tensor<1x3x3x2xi8>
}

// -----

// CHECK-LABEL: func.func @max_pool
// CHECK: qnt.int_max_pool2d %arg0 {dilations = array<i64: 1, 1>, kernel = array<i64: 3, 3>, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : tensor<1x5x5x2xi8> -> tensor<1x3x3x2xi8>
func.func @max_pool(%x: tensor<1x5x5x2xi8>) -> tensor<1x3x3x2xi8> {
  %y = tosa.max_pool2d %x {kernel = array<i64: 3, 3>, stride = array<i64: 2, 2>, pad = array<i64: 1, 1, 1, 1>} : (tensor<1x5x5x2xi8>) -> tensor<1x3x3x2xi8>
  return %y : tensor<1x3x3x2xi8>
}

// -----

// Shape ops move codes: reshape through one dimension, transpose by
// linalg (constants at compile time), concat by tensor.concat.
// CHECK-LABEL: func.func @shapes
// CHECK-DAG: %[[K:.*]] = arith.constant dense<{{\[\[}}1, 3], [2, 4]]> : tensor<2x2xi8>
// CHECK: %[[C:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1]] : tensor<2x3xi8> into tensor<6xi8>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [3, 2] : tensor<6xi8> into tensor<3x2xi8>
// CHECK: %[[T:.*]] = linalg.transpose ins(%[[E]] : tensor<3x2xi8>) outs(%{{.*}} : tensor<2x3xi8>) permutation = [1, 0]
// CHECK: tensor.concat dim(1) %[[T]], %[[K]] : (tensor<2x3xi8>, tensor<2x2xi8>) -> tensor<2x5xi8>
func.func @shapes(%x: tensor<2x3xi8>) -> tensor<2x5xi8> {
  %shape = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %x, %shape : (tensor<2x3xi8>, !tosa.shape<2>) -> tensor<3x2xi8>
  %t = tosa.transpose %r {perms = array<i32: 1, 0>} : (tensor<3x2xi8>) -> tensor<2x3xi8>
  %k = "tosa.const"() {values = dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>} : () -> tensor<2x2xi8>
  %kt = tosa.transpose %k {perms = array<i32: 1, 0>} : (tensor<2x2xi8>) -> tensor<2x2xi8>
  %c = tosa.concat %t, %kt {axis = 1 : i32} : (tensor<2x3xi8>, tensor<2x2xi8>) -> tensor<2x5xi8>
  return %c : tensor<2x5xi8>
}
