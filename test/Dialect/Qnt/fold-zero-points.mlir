// qnt-fold-zero-points: matmul / conv2d become integer ops on raw codes and,
// with constant weights, the input zero point moves into the i32 bias:
//   q_bias[n] = q_b[n] - Z_X * sum_k q_W[k, n] + K * Z_X * Z_W[n].
// Every expected bias is derived by hand in the comment above its test.
// RUN: quant-opt %s -qnt-fold-zero-points -split-input-file | FileCheck %s

// Seed FC neuron: S_X = 0.05, Z_X = -10; q_W = [50, -30, 20] (Z_W = 0);
// q_b = 540 at S_X * S_W = 0.0005. sum q_W = 40, so
// q_bias = 540 - (-10) * 40 = 940.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @fc_seed
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x!quant.uniform<i8:f32, 5.000000e-02:-10>>)
// CHECK-DAG: %[[W:.*]] = qnt.constant dense<{{\[}}[50], [-30], [20]]> : tensor<3x1xi8>
// CHECK-DAG: %[[XI:.*]] = quant.scast %[[X]] : tensor<1x3x!quant.uniform<i8:f32, 5.000000e-02:-10>> to tensor<1x3xi8>
// CHECK-DAG: %[[WI:.*]] = quant.scast %[[W]] : tensor<3x1x!quant.uniform<i8:f32, 1.000000e-02>> to tensor<3x1xi8>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<940> : tensor<1xi32>
// CHECK: %[[ACC:.*]] = qnt.int_matmul %[[XI]], %[[WI]], %[[B]] {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>} : tensor<1x3xi8>, tensor<3x1xi8>, tensor<1xi32> -> tensor<1x1xi32>
// CHECK: %[[R:.*]] = quant.scast %[[ACC]] : tensor<1x1xi32> to tensor<1x1x!quant.uniform<i32:f32, 5.000000e-04>>
// CHECK-NOT: qnt.matmul
// CHECK: return %[[R]]
func.func @fc_seed(%x: tensor<1x3x!X>) -> tensor<1x1x!A> {
  %w = qnt.constant dense<[[50], [-30], [20]]> : tensor<3x1xi8> -> tensor<3x1x!W>
  %b = qnt.constant dense<540> : tensor<1xi32> -> tensor<1x!A>
  %a = qnt.matmul %x, %w, %b : tensor<1x3x!X>, tensor<3x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// The same weights written in float: quantize(0.5, -0.3, 0.2) at scale 0.01
// is [50, -30, 20] (the f32 quotients are 50, -30.0000019, 20), folded by the
// pass itself without -canonicalize. No bias: q_bias = 0 - (-10) * 40 = 400.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @float_weights
// CHECK-NOT: qnt.quantize
// CHECK-DAG: %[[W:.*]] = qnt.constant dense<{{\[}}[50], [-30], [20]]> : tensor<3x1xi8>
// CHECK-DAG: %[[WI:.*]] = quant.scast %[[W]]
// CHECK-DAG: %[[B:.*]] = arith.constant dense<400> : tensor<1xi32>
// CHECK: qnt.int_matmul %{{.*}}, %[[WI]], %[[B]] {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
func.func @float_weights(%x: tensor<1x3x!X>) -> tensor<1x1x!A> {
  %wf = arith.constant dense<[[0.5], [-0.3], [0.2]]> : tensor<3x1xf32>
  %w = qnt.quantize %wf : tensor<3x1xf32> -> tensor<3x1x!W>
  %a = qnt.matmul %x, %w : tensor<1x3x!X>, tensor<3x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// Asymmetric weights (u8, Z_W = 128), K = 2, Z_X = -10, q_W = [130, 120],
// q_b = 7:
//   q_bias = 7 - (-10) * (130 + 120) + 2 * (-10) * 128
//          = 7 + 2500 - 2560 = -53.
// Cross-check: sum_k (x + 10)(w - 128) + 7 = sum_k x (w - 128)
//   + 10 * ((130 - 128) + (120 - 128)) + 7 = sum_k x (w - 128) - 53.
// Z_W stays on the op (qnt-symmetric-weights handles it).
!X = !quant.uniform<i8:f32, 0.5:-10>
!W = !quant.uniform<u8:f32, 0.25:128>
!A = !quant.uniform<i32:f32, 0.125>

// CHECK-LABEL: func.func @asymmetric_weights
// CHECK-DAG: %[[B:.*]] = arith.constant dense<-53> : tensor<1xi32>
// CHECK: qnt.int_matmul %{{.*}}, %{{.*}}, %[[B]] {input_zero_point = 0 : i32, w_unsigned, weight_zero_points = array<i32: 128>} : tensor<4x2xi8>, tensor<2x1xi8>, tensor<1xi32> -> tensor<4x1xi32>
func.func @asymmetric_weights(%x: tensor<4x2x!X>) -> tensor<4x1x!A> {
  %w = qnt.constant dense<[[130], [120]]> : tensor<2x1xui8> -> tensor<2x1x!W>
  %b = qnt.constant dense<7> : tensor<1xi32> -> tensor<1x!A>
  %a = qnt.matmul %x, %w, %b : tensor<4x2x!X>, tensor<2x1x!W>, tensor<1x!A> -> tensor<4x1x!A>
  return %a : tensor<4x1x!A>
}

// -----

// Per-channel weights (axis 1, scales {0.01, 0.02}, Z_W = 0), Z_X = -10:
// column sums 50 - 30 + 20 = 40 and 10 + 10 - 40 = -20, so
// q_bias = [540 + 10 * 40, 100 + 10 * (-20)] = [940, -100].
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8<-127:127>:f32:1, {0.01, 0.02}>
!A = !quant.uniform<i32:f32:1, {0.0005, 0.001}>
!B = !quant.uniform<i32:f32:0, {0.0005, 0.001}>

// CHECK-LABEL: func.func @per_channel
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[940, -100]> : tensor<2xi32>
// CHECK: qnt.int_matmul %{{.*}}, %{{.*}}, %[[B]] {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0, 0>} : tensor<1x3xi8>, tensor<3x2xi8>, tensor<2xi32> -> tensor<1x2xi32>
// CHECK: quant.scast %{{.*}} : tensor<1x2xi32> to tensor<1x2x!quant.uniform<i32:f32:1, {5.000000e-04,1.000000e-03}>>
func.func @per_channel(%x: tensor<1x3x!X>) -> tensor<1x2x!A> {
  %w = qnt.constant dense<[[50, 10], [-30, 10], [20, -40]]> : tensor<3x2xi8> -> tensor<3x2x!W>
  %b = qnt.constant dense<[540, 100]> : tensor<2xi32> -> tensor<2x!B>
  %a = qnt.matmul %x, %w, %b : tensor<1x3x!X>, tensor<3x2x!W>, tensor<2x!B> -> tensor<1x2x!A>
  return %a : tensor<1x2x!A>
}

// -----

// A runtime bias with constant weights: only the correction is constant,
// -(-10) * 40 = 400, and goes into the op; the runtime bias is added to the
// exact sum afterwards with i32 saturation (never wrapped), in i64.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @runtime_bias
// CHECK-SAME: %[[BIAS:[^:]*]]: tensor<1x!quant.uniform<i32:f32, 5.000000e-04>>
// CHECK-DAG: %[[BI:.*]] = quant.scast %[[BIAS]] : tensor<1x!quant.uniform<i32:f32, 5.000000e-04>> to tensor<1xi32>
// CHECK-DAG: %[[C:.*]] = arith.constant dense<400> : tensor<1xi32>
// CHECK: %[[ACC:.*]] = qnt.int_matmul %{{.*}}, %{{.*}}, %[[C]] {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
// CHECK: linalg.generic {{.*}} ins(%[[ACC]], %[[BI]] : tensor<1x1xi32>, tensor<1xi32>)
// CHECK: arith.addi %{{.*}}, %{{.*}} : i64
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: arith.trunci
func.func @runtime_bias(%x: tensor<1x3x!X>, %b: tensor<1x!A>) -> tensor<1x1x!A> {
  %w = qnt.constant dense<[[50], [-30], [20]]> : tensor<3x1xi8> -> tensor<3x1x!W>
  %a = qnt.matmul %x, %w, %b : tensor<1x3x!X>, tensor<3x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// Non-constant weights: nothing can be folded, the input zero point stays
// on the op (subtracted at run time) and the bias is zero. u8 codes are
// marked unsigned and cast to i8 bits.
!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<u8:f32, 0.5:3>
!A = !quant.uniform<i32:f32, 0.125>

// CHECK-LABEL: func.func @runtime_weights
// CHECK-SAME: (%[[X:[^:]*]]: tensor<1x2x!quant.uniform<u8:f32, 2.500000e-01:128>>, %[[W:[^:]*]]: tensor<2x1x!quant.uniform<u8:f32, 5.000000e-01:3>>)
// CHECK-DAG: %[[XI:.*]] = quant.scast %[[X]] : tensor<1x2x!quant.uniform<u8:f32, 2.500000e-01:128>> to tensor<1x2xi8>
// CHECK-DAG: %[[WI:.*]] = quant.scast %[[W]] : tensor<2x1x!quant.uniform<u8:f32, 5.000000e-01:3>> to tensor<2x1xi8>
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0> : tensor<1xi32>
// CHECK: qnt.int_matmul %[[XI]], %[[WI]], %[[Z]] {input_zero_point = 128 : i32, w_unsigned, weight_zero_points = array<i32: 3>, x_unsigned}
func.func @runtime_weights(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) -> tensor<1x1x!A> {
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// Non-constant weights with a constant bias: every accumulator fits i32
// whatever bits x and w hold (K * 128 * 128 + max|b| = 2 * 16384 + 7000),
// so the bias goes into the op as it is (no Z_X folding) and no saturating
// add follows; a kernel can then fuse the requantize.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @runtime_weights_constant_bias
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[-7000, 12]> : tensor<2xi32>
// CHECK: %[[ACC:.*]] = qnt.int_matmul %{{.*}}, %{{.*}}, %[[B]] {input_zero_point = -10 : i32, weight_zero_points = array<i32: 0>}
// CHECK-NOT: linalg.generic
// CHECK: quant.scast %[[ACC]]
func.func @runtime_weights_constant_bias(%x: tensor<1x2x!X>, %w: tensor<2x2x!W>) -> tensor<1x2x!A> {
  %b = qnt.constant dense<[-7000, 12]> : tensor<2xi32> -> tensor<2x!A>
  %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x2x!W>, tensor<2x!A> -> tensor<1x2x!A>
  return %a : tensor<1x2x!A>
}

// -----

// The same with a splat bias stays a splat.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @runtime_weights_splat_bias
// CHECK-DAG: %[[B:.*]] = arith.constant dense<-3> : tensor<4xi32>
// CHECK: qnt.int_matmul %{{.*}}, %{{.*}}, %[[B]] {input_zero_point = -10 : i32
// CHECK-NOT: linalg.generic
func.func @runtime_weights_splat_bias(%x: tensor<1x2x!X>, %w: tensor<2x4x!W>) -> tensor<1x4x!A> {
  %b = qnt.constant dense<-3> : tensor<4xi32> -> tensor<4x!A>
  %a = qnt.matmul %x, %w, %b : tensor<1x2x!X>, tensor<2x4x!W>, tensor<4x!A> -> tensor<1x4x!A>
  return %a : tensor<1x4x!A>
}

// -----

// A constant bias whose bound fits only over the declared range of x
// (the verifier's 131072 * 1 * 128 + 2^31 - 2^24 - 1 = 2^31 - 1): the pass
// checks over every bit pattern of x and w (131072 * 128 * 128 + ...
// > 2^31 - 1), conservatively, so the bias keeps its saturating add.
!F = !quant.uniform<i8<-1:1>:f32, 0.05>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @runtime_weights_bias_near_limit
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0> : tensor<1xi32>
// CHECK: %[[ACC:.*]] = qnt.int_matmul %{{.*}}, %{{.*}}, %[[Z]]
// CHECK: linalg.generic {{.*}} ins(%[[ACC]], %{{.*}} : tensor<1x1xi32>, tensor<1xi32>)
// CHECK: arith.minsi
func.func @runtime_weights_bias_near_limit(%f: tensor<1x131072xf32>, %w: tensor<131072x1x!W>) -> tensor<1x1x!A> {
  %x = qnt.quantize %f : tensor<1x131072xf32> -> tensor<1x131072x!F>
  %b = qnt.constant dense<2130706431> : tensor<1xi32> -> tensor<1x!A>
  %a = qnt.matmul %x, %w, %b : tensor<1x131072x!F>, tensor<131072x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// Seed conv: one 3x3 filter over 1 input channel whose codes sum to
// (1 + 0 - 1) + (2 + 1 + 0) + (1 + 0 + 1) = 5, Z_X = -10, bias 0:
// q_bias = 0 - (-10) * 5 = 50. Padding keeps holding Z_X (pad_value = -10)
// while input_zero_point becomes 0.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @conv_seed
// CHECK-DAG: %[[B:.*]] = arith.constant dense<50> : tensor<1xi32>
// CHECK: %[[ACC:.*]] = qnt.int_conv2d %{{.*}}, %{{.*}}, %[[B]] {dilations = array<i64: 1, 1>, groups = 1 : i64, input_zero_point = 0 : i32, pad_value = -10 : i32, padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 1, 1>, weight_zero_points = array<i32: 0>} : tensor<1x3x3x1xi8>, tensor<3x3x1x1xi8>, tensor<1xi32> -> tensor<1x3x3x1xi32>
// CHECK: quant.scast %[[ACC]] : tensor<1x3x3x1xi32> to tensor<1x3x3x1x!quant.uniform<i32:f32, 5.000000e-04>>
// CHECK-NOT: qnt.conv2d
func.func @conv_seed(%x: tensor<1x3x3x1x!X>) -> tensor<1x3x3x1x!A> {
  %w = qnt.constant dense<[[[[1]], [[0]], [[-1]]],
                           [[[2]], [[1]], [[0]]],
                           [[[1]], [[0]], [[1]]]]> : tensor<3x3x1x1xi8> -> tensor<3x3x1x1x!W>
  %b = qnt.constant dense<0> : tensor<1xi32> -> tensor<1x!A>
  %a = qnt.conv2d %x, %w, %b {padding = array<i64: 1, 1, 1, 1>}
       : tensor<1x3x3x1x!X>, tensor<3x3x1x1x!W>, tensor<1x!A> -> tensor<1x3x3x1x!A>
  return %a : tensor<1x3x3x1x!A>
}

// -----

// Depthwise (groups = C = 2), 1x2 filters in HWCF: w[0, kw, 0, f] is
// [[1, 3], [2, -4]], so filter 0 is {1, 2} (sum 3) and filter 1 is {3, -4}
// (sum -1). Z_X = -10, no bias: q_bias = [10 * 3, 10 * (-1)] = [30, -10].
// Strides, dilations and groups are carried over.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @depthwise
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[30, -10]> : tensor<2xi32>
// CHECK: qnt.int_conv2d %{{.*}}, %{{.*}}, %[[B]] {dilations = array<i64: 2, 1>, groups = 2 : i64, input_zero_point = 0 : i32, pad_value = -10 : i32, padding = array<i64: 0, 0, 0, 0>, strides = array<i64: 1, 2>, weight_zero_points = array<i32: 0>} : tensor<1x2x4x2xi8>, tensor<1x2x1x2xi8>, tensor<2xi32> -> tensor<1x2x2x2xi32>
func.func @depthwise(%x: tensor<1x2x4x2x!X>) -> tensor<1x2x2x2x!A> {
  %w = qnt.constant dense<[[[[1, 3]], [[2, -4]]]]> : tensor<1x2x1x2xi8> -> tensor<1x2x1x2x!W>
  %a = qnt.conv2d %x, %w {groups = 2 : i64, strides = array<i64: 1, 2>, dilations = array<i64: 2, 1>}
       : tensor<1x2x4x2x!X>, tensor<1x2x1x2x!W> -> tensor<1x2x2x2x!A>
  return %a : tensor<1x2x2x2x!A>
}

// -----

// Conv with runtime weights keeps input_zero_point = pad_value = Z_X.
!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

// CHECK-LABEL: func.func @conv_runtime_weights
// CHECK: qnt.int_conv2d {{.*}}input_zero_point = -10 : i32, pad_value = -10 : i32
func.func @conv_runtime_weights(%x: tensor<1x3x3x1x!X>, %w: tensor<3x3x1x1x!W>) -> tensor<1x3x3x1x!A> {
  %a = qnt.conv2d %x, %w {padding = array<i64: 1, 1, 1, 1>}
       : tensor<1x3x3x1x!X>, tensor<3x3x1x1x!W> -> tensor<1x3x3x1x!A>
  return %a : tensor<1x3x3x1x!A>
}
