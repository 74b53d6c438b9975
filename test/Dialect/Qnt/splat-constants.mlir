// Splat constants stay splats: the verifier reads one element and the folders
// fold a splat to a splat. Before, a 2^62-element splat aborted in readCodes
// (std::length_error) and in QuantizeOp::fold ("SmallVector unable to grow"),
// and a 10^9-element splat made the verifier loop over every element.
// RUN: quant-opt %s -split-input-file -canonicalize | FileCheck %s

!Q = !quant.uniform<i8:f32, 5.000000e-01:-1>
!R = !quant.uniform<i8:f32, 2.500000e-01:3>

// (1 - (-1)) * 0.5 = 1.0
// CHECK-LABEL: func.func @scast_dequantize
// CHECK-NEXT: arith.constant dense<1.000000e+00> : tensor<4611686018427387904xf32>
func.func @scast_dequantize() -> tensor<4611686018427387904xf32> {
  %c = arith.constant dense<1> : tensor<4611686018427387904xi8>
  %q = quant.scast %c : tensor<4611686018427387904xi8> to tensor<4611686018427387904x!Q>
  %r = qnt.dequantize %q : tensor<4611686018427387904x!Q> -> tensor<4611686018427387904xf32>
  return %r : tensor<4611686018427387904xf32>
}

// 1.25 / 0.5 = 2.5 rounds half to even to 2, plus z = -1 gives code 1.
// CHECK-LABEL: func.func @quantize
// CHECK-NEXT: qnt.constant dense<1> : tensor<4611686018427387904xi8>
func.func @quantize() -> tensor<4611686018427387904x!Q> {
  %c = arith.constant dense<1.25> : tensor<4611686018427387904xf32>
  %q = qnt.quantize %c : tensor<4611686018427387904xf32> -> tensor<4611686018427387904x!Q>
  return %q : tensor<4611686018427387904x!Q>
}

// (7 - (-1)) * (0.5 / 0.25) + 3 = 19.
// CHECK-LABEL: func.func @requantize
// CHECK-NEXT: qnt.constant dense<19> : tensor<4611686018427387904xi8>
func.func @requantize() -> tensor<4611686018427387904x!R> {
  %c = arith.constant dense<7> : tensor<4611686018427387904xi8>
  %q = quant.scast %c : tensor<4611686018427387904xi8> to tensor<4611686018427387904x!Q>
  %r = qnt.requantize %q : tensor<4611686018427387904x!Q> -> tensor<4611686018427387904x!R>
  return %r : tensor<4611686018427387904x!R>
}

// u8 storage: the splat bits 0xC8 are code 200; (200 - 128) * 0.25 = 18.0.
// CHECK-LABEL: func.func @unsigned_splat
// CHECK-NEXT: arith.constant dense<1.800000e+01> : tensor<1000000000xf32>
func.func @unsigned_splat() -> tensor<1000000000xf32> {
  %c = arith.constant dense<-56> : tensor<1000000000xi8>
  %q = quant.scast %c : tensor<1000000000xi8> to tensor<1000000000x!quant.uniform<u8:f32, 2.500000e-01:128>>
  %r = qnt.dequantize %q : tensor<1000000000x!quant.uniform<u8:f32, 2.500000e-01:128>> -> tensor<1000000000xf32>
  return %r : tensor<1000000000xf32>
}

// Per-axis parameters give each channel its own code, so the splat cannot
// fold to a splat; expanding 2^62 elements is not an option, so it stays.
// CHECK-LABEL: func.func @per_axis_huge_splat
// CHECK: qnt.quantize
func.func @per_axis_huge_splat() -> tensor<2305843009213693952x2x!quant.uniform<i8:f32:1, {5.000000e-01, 2.500000e-01}>> {
  %c = arith.constant dense<1.0> : tensor<2305843009213693952x2xf32>
  %q = qnt.quantize %c : tensor<2305843009213693952x2xf32> -> tensor<2305843009213693952x2x!quant.uniform<i8:f32:1, {5.000000e-01, 2.500000e-01}>>
  return %q : tensor<2305843009213693952x2x!quant.uniform<i8:f32:1, {5.000000e-01, 2.500000e-01}>>
}

// A valid 10^9-element qnt.constant verifies by reading one code.
// CHECK-LABEL: func.func @huge_qnt_constant
// CHECK-NEXT: qnt.constant dense<127> : tensor<1000000000xi8>
func.func @huge_qnt_constant() -> tensor<1000000000x!quant.uniform<i8<-127:127>:f32, 5.000000e-01>> {
  %q = qnt.constant dense<127> : tensor<1000000000xi8> -> tensor<1000000000x!quant.uniform<i8<-127:127>:f32, 5.000000e-01>>
  return %q : tensor<1000000000x!quant.uniform<i8<-127:127>:f32, 5.000000e-01>>
}

// -----

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

// A 10^9-channel splat bias: the static bound reads it once.
// 1 * 128 * 128 + 5 fits in i32.
// CHECK-LABEL: func.func @huge_splat_bias
// CHECK: qnt.constant dense<5> : tensor<1000000000xi32>
// CHECK: qnt.matmul
func.func @huge_splat_bias(%x: tensor<1x1x!X>, %w: tensor<1x1000000000x!W>) -> tensor<1x1000000000x!A> {
  %c = arith.constant dense<5> : tensor<1000000000xi32>
  %b = quant.scast %c : tensor<1000000000xi32> to tensor<1000000000x!A>
  %a = qnt.matmul %x, %w, %b : tensor<1x1x!X>, tensor<1x1000000000x!W>, tensor<1000000000x!A> -> tensor<1x1000000000x!A>
  return %a : tensor<1x1000000000x!A>
}
