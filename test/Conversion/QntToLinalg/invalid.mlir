// RUN: quant-opt %s --split-input-file --verify-diagnostics --pass-pipeline="builtin.module(func.func(qnt-to-linalg))"

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>
func.func @public_op(%x: tensor<1x2x!X>, %w: tensor<2x1x!W>) -> tensor<1x1x!A> {
  // expected-error@+1 {{'qnt.matmul' op must be rewritten to explicit integer ops (the qnt passes up to qnt-strip-quant-types) before qnt-to-linalg}}
  %a = qnt.matmul %x, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

// A 3x3 kernel over an unpadded 4x4 input gives 2x2, not 4x4 (the
// verifier's rule now, so that every target's lowering can rely on it).
func.func @bad_output_size(%x: tensor<1x4x4x1xi8>, %w: tensor<3x3x1x1xi8>, %b: tensor<1xi32>) -> tensor<1x4x4x1xi32> {
  // expected-error@+1 {{'qnt.int_conv2d' op result dimension 1 must be the output size of the window over input 4 (padding 0 + 0, kernel 3, stride 1, dilation 1), got 4}}
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x4x4x1xi8>, tensor<3x3x1x1xi8>, tensor<1xi32> -> tensor<1x4x4x1xi32>
  return %a : tensor<1x4x4x1xi32>
}

// -----

func.func @dynamic_conv(%x: tensor<?x4x4x1xi8>, %w: tensor<3x3x1x1xi8>, %b: tensor<1xi32>) -> tensor<?x2x2x1xi32> {
  // expected-error@+2 {{lowering needs static shapes}}
  // expected-error@+1 {{failed to legalize operation 'qnt.int_conv2d'}}
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<?x4x4x1xi8>, tensor<3x3x1x1xi8>, tensor<1xi32> -> tensor<?x2x2x1xi32>
  return %a : tensor<?x2x2x1xi32>
}
