// Constant folding of quantize / requantize / dequantize. Expected codes are
// the contract's worked examples, derived by hand in the comments.
// RUN: quant-opt %s -canonicalize="test-convergence" -split-input-file | FileCheck %s

!U8 = !quant.uniform<u8:f32, 0.25:128>

// 0 -> 0/0.25 + 128 = 128; 0.5 -> 2 + 128 = 130; -0.5 -> -2 + 128 = 126.
// CHECK-LABEL: func.func @quantize_seed
// CHECK: %[[C:.*]] = qnt.constant dense<[128, 130, 126]> : tensor<3xui8> -> tensor<3x!quant.uniform<u8:f32, 2.500000e-01:128>>
// CHECK-NOT: qnt.quantize
// CHECK: return %[[C]]
func.func @quantize_seed() -> tensor<3x!U8> {
  %x = arith.constant dense<[0.0, 0.5, -0.5]> : tensor<3xf32>
  %q = qnt.quantize %x : tensor<3xf32> -> tensor<3x!U8>
  return %q : tensor<3x!U8>
}

// -----

// 0.625 / 0.25 = 2.5 is a tie: half-even gives 2 (not 3).
// NaN -> zero point 0; +inf -> qmax 127; -inf -> qmin -128; 1e30 -> 127.
// CHECK-LABEL: func.func @quantize_ties_and_specials
// CHECK: qnt.constant dense<[2, -2, 0, 127, -128, 127]> : tensor<6xi8>
func.func @quantize_ties_and_specials() -> tensor<6x!quant.uniform<i8:f32, 0.25>> {
  %x = arith.constant dense<[0.625, -0.625, 0x7FC00000, 0x7F800000, 0xFF800000, 1.0e30]> : tensor<6xf32>
  %q = qnt.quantize %x : tensor<6xf32> -> tensor<6x!quant.uniform<i8:f32, 0.25>>
  return %q : tensor<6x!quant.uniform<i8:f32, 0.25>>
}

// -----

// Narrow range: -100 / 0.5 = -200 clamps to -127, not -128.
// CHECK-LABEL: func.func @quantize_narrow_range
// CHECK: qnt.constant dense<[-127, 127]> : tensor<2xi8>
func.func @quantize_narrow_range() -> tensor<2x!quant.uniform<i8<-127:127>:f32, 0.5>> {
  %x = arith.constant dense<[-100.0, 100.0]> : tensor<2xf32>
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<i8<-127:127>:f32, 0.5>>
  return %q : tensor<2x!quant.uniform<i8<-127:127>:f32, 0.5>>
}

// -----

// Per-axis on dimension 0 (per-row scales): row 0 scale 0.5, row 1 scale 0.25.
// [[1, 2], [1, 2]] -> [[2, 4], [4, 8]].
// CHECK-LABEL: func.func @quantize_per_row
// CHECK: qnt.constant dense<{{\[}}[2, 4], [4, 8]]> : tensor<2x2xi8>
func.func @quantize_per_row() -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>> {
  %x = arith.constant dense<[[1.0, 2.0], [1.0, 2.0]]> : tensor<2x2xf32>
  %q = qnt.quantize %x : tensor<2x2xf32> -> tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
  return %q : tensor<2x2x!quant.uniform<i8:f32:0, {0.5, 0.25}>>
}

// -----

// Raw code 0 at (s=0.25, z=128) is (0 - 128) * 0.25 = -32;
// int8 [-32, -31] at scale 0.25 is [-8, -7.75].
// CHECK-LABEL: func.func @dequantize_seed
// CHECK-DAG: arith.constant dense<-3.200000e+01> : tensor<1xf32>
// CHECK-DAG: arith.constant dense<[-8.000000e+00, -7.750000e+00]> : tensor<2xf32>
// CHECK-NOT: qnt.dequantize
func.func @dequantize_seed() -> (tensor<1xf32>, tensor<2xf32>) {
  %a = qnt.constant dense<0> : tensor<1xui8> -> tensor<1x!quant.uniform<u8:f32, 0.25:128>>
  %b = qnt.constant dense<[-32, -31]> : tensor<2xi8> -> tensor<2x!quant.uniform<i8:f32, 0.25>>
  %ra = qnt.dequantize %a : tensor<1x!quant.uniform<u8:f32, 0.25:128>> -> tensor<1xf32>
  %rb = qnt.dequantize %b : tensor<2x!quant.uniform<i8:f32, 0.25>> -> tensor<2xf32>
  return %ra, %rb : tensor<1xf32>, tensor<2xf32>
}

// -----

// Accumulator 10 at scale 0.125 is 1.25 real = code 1.25 / 0.25 + 128 = 133.
// CHECK-LABEL: func.func @requantize_seed_133
// CHECK: qnt.constant dense<133> : tensor<1x1xui8>
func.func @requantize_seed_133() -> tensor<1x1x!quant.uniform<u8:f32, 0.25:128>> {
  %a = qnt.constant dense<10> : tensor<1x1xi32> -> tensor<1x1x!quant.uniform<i32:f32, 0.125>>
  %y = qnt.requantize %a : tensor<1x1x!quant.uniform<i32:f32, 0.125>> -> tensor<1x1x!quant.uniform<u8:f32, 0.25:128>>
  return %y : tensor<1x1x!quant.uniform<u8:f32, 0.25:128>>
}

// -----

// M = 0.0072: 5000 * 0.0072 = 36.
// FC neuron: acc 3540 at S_X * S_W = 0.05 * 0.01, S_Y = 0.1, Z_Y = -5:
// 3540 * 0.005 = 17.7 -> 18, + (-5) = 13.
// CHECK-LABEL: func.func @requantize_seeds
// CHECK-DAG: qnt.constant dense<36> : tensor<1xi8>
// CHECK-DAG: qnt.constant dense<13> : tensor<1xi8>
func.func @requantize_seeds() -> (tensor<1x!quant.uniform<i8:f32, 1.0>>, tensor<1x!quant.uniform<i8:f32, 0.1:-5>>) {
  %a = qnt.constant dense<5000> : tensor<1xi32> -> tensor<1x!quant.uniform<i32:f32, 0.0072>>
  %y = qnt.requantize %a : tensor<1x!quant.uniform<i32:f32, 0.0072>> -> tensor<1x!quant.uniform<i8:f32, 1.0>>
  %b = qnt.constant dense<3540> : tensor<1xi32> -> tensor<1x!quant.uniform<i32:f32, 0.0005>>
  %z = qnt.requantize %b : tensor<1x!quant.uniform<i32:f32, 0.0005>> -> tensor<1x!quant.uniform<i8:f32, 0.1:-5>>
  return %y, %z : tensor<1x!quant.uniform<i8:f32, 1.0>>, tensor<1x!quant.uniform<i8:f32, 0.1:-5>>
}

// -----

// Ties at M = 1/4 (M0 = 2^30, right shift 1): 10 -> 2.5, -10 -> -2.5, 6 -> 1.5.
//   double (gemmlowp):  3, -3, 2  (exact high multiply, then the rounding
//                                  divide by 2 rounds ties away from zero)
//   single (TFLite):    3, -2, 2  (ties toward +inf)
//   away (TVM):         3, -3, 2
//   half_even:          2, -2, 2
//   float (ONNX RT):    2, -2, 2  (round half to even in f32)
// CHECK-LABEL: func.func @requantize_ties
// CHECK-DAG: qnt.constant dense<[3, -3, 2]> : tensor<3xi8> -> tensor<3x!quant.uniform<i8:f32, 4.000000e+00>>
// CHECK-DAG: qnt.constant dense<[3, -2, 2]> : tensor<3xi8> -> tensor<3x!quant.uniform<i8<-100:100>:f32, 4.000000e+00>>
// CHECK-DAG: qnt.constant dense<[2, -2, 2]> : tensor<3xi8> -> tensor<3x!quant.uniform<i8<-127:127>:f32, 4.000000e+00>>
// CHECK-DAG: qnt.constant dense<[3, -3, 2]> : tensor<3xi16> -> tensor<3x!quant.uniform<i16:f32, 4.000000e+00>>
// CHECK-DAG: qnt.constant dense<[2, -2, 2]> : tensor<3xi16> -> tensor<3x!quant.uniform<i16<-32767:32767>:f32, 4.000000e+00>>
!A = !quant.uniform<i32:f32, 1.0>
func.func @requantize_ties() -> (tensor<3x!quant.uniform<i8:f32, 4.0>>, tensor<3x!quant.uniform<i8<-100:100>:f32, 4.0>>,
                                 tensor<3x!quant.uniform<i8<-127:127>:f32, 4.0>>, tensor<3x!quant.uniform<i16:f32, 4.0>>,
                                 tensor<3x!quant.uniform<i16<-32767:32767>:f32, 4.0>>) {
  %a = qnt.constant dense<[10, -10, 6]> : tensor<3xi32> -> tensor<3x!A>
  %d = qnt.requantize %a {rounding = "double"} : tensor<3x!A> -> tensor<3x!quant.uniform<i8:f32, 4.0>>
  %s = qnt.requantize %a {rounding = "single"} : tensor<3x!A> -> tensor<3x!quant.uniform<i8<-100:100>:f32, 4.0>>
  %h = qnt.requantize %a {rounding = "half_even"} : tensor<3x!A> -> tensor<3x!quant.uniform<i8<-127:127>:f32, 4.0>>
  %w = qnt.requantize %a {rounding = "away"} : tensor<3x!A> -> tensor<3x!quant.uniform<i16:f32, 4.0>>
  %f = qnt.requantize %a {rounding = "float"} : tensor<3x!A> -> tensor<3x!quant.uniform<i16<-32767:32767>:f32, 4.0>>
  return %d, %s, %h, %w, %f : tensor<3x!quant.uniform<i8:f32, 4.0>>, tensor<3x!quant.uniform<i8<-100:100>:f32, 4.0>>,
                              tensor<3x!quant.uniform<i8<-127:127>:f32, 4.0>>, tensor<3x!quant.uniform<i16:f32, 4.0>>,
                              tensor<3x!quant.uniform<i16<-32767:32767>:f32, 4.0>>
}

// -----

// Fused ReLU6-style clamp in output codes, and saturation: 1000 * 1 = 1000
// saturates to 127 before the clamp narrows it to 6; -7 clamps to 0.
// CHECK-LABEL: func.func @requantize_clamp
// CHECK: qnt.constant dense<[6, 0, 3]> : tensor<3xi8>
func.func @requantize_clamp() -> tensor<3x!quant.uniform<i8:f32, 1.0>> {
  %a = qnt.constant dense<[1000, -7, 3]> : tensor<3xi32> -> tensor<3x!quant.uniform<i32:f32, 1.0>>
  %y = qnt.requantize %a {clamp = array<i64: 0, 6>} : tensor<3x!quant.uniform<i32:f32, 1.0>> -> tensor<3x!quant.uniform<i8:f32, 1.0>>
  return %y : tensor<3x!quant.uniform<i8:f32, 1.0>>
}

// -----

// quant.scast of an integer constant becomes a qnt.constant (u8 codes are
// shown unsigned: i8 -56 is u8 200), and then folds onward.
// CHECK-LABEL: func.func @storage_cast_constant
// CHECK: %[[C:.*]] = arith.constant dense<[1.800000e+01, -3.200000e+01]> : tensor<2xf32>
// CHECK: return %[[C]]
func.func @storage_cast_constant() -> tensor<2xf32> {
  %raw = arith.constant dense<[-56, 0]> : tensor<2xi8>
  %q = quant.scast %raw : tensor<2xi8> to tensor<2x!quant.uniform<u8:f32, 0.25:128>>
  %r = qnt.dequantize %q : tensor<2x!quant.uniform<u8:f32, 0.25:128>> -> tensor<2xf32>
  return %r : tensor<2xf32>
}

// -----

// A code outside a narrowed range is not turned into an invalid constant.
// CHECK-LABEL: func.func @storage_cast_out_of_range
// CHECK: quant.scast
func.func @storage_cast_out_of_range() -> tensor<1x!quant.uniform<i8<-127:127>:f32, 0.5>> {
  %raw = arith.constant dense<-128> : tensor<1xi8>
  %q = quant.scast %raw : tensor<1xi8> to tensor<1x!quant.uniform<i8<-127:127>:f32, 0.5>>
  return %q : tensor<1x!quant.uniform<i8<-127:127>:f32, 0.5>>
}
