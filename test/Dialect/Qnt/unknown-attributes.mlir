// An attribute name a qnt op does not declare is an error that names it and
// lists the op's attributes: a misspelt `round = "float"` used to be ignored
// silently, so the user got the default "double" rounding.
// RUN: quant-opt %s -split-input-file -verify-diagnostics

!A = !quant.uniform<i32:f32, 5.000000e-01>
!Y = !quant.uniform<i8:f32, 1.000000e+00>

func.func @misspelt_rounding(%a: tensor<2x!A>) -> tensor<2x!Y> {
  // expected-error@+1 {{'qnt.requantize' op unknown attribute 'round'; known attributes: 'clamp', 'rounding'}}
  %y = qnt.requantize %a {round = "float"} : tensor<2x!A> -> tensor<2x!Y>
  return %y : tensor<2x!Y>
}

// -----

func.func @attribute_on_op_without_attributes(%x: tensor<2xf32>) {
  // expected-error@+1 {{'qnt.quantize' op unknown attribute 'rounding'; known attributes: none}}
  %q = qnt.quantize %x {rounding = "float"} : tensor<2xf32> -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>
  return
}

// -----

!X = !quant.uniform<i8:f32, 5.000000e-01>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

func.func @misspelt_conv_attribute(%x: tensor<1x4x4x1x!X>, %w: tensor<1x1x1x1x!W>) -> tensor<1x4x4x1x!A> {
  // expected-error@+1 {{'qnt.conv2d' op unknown attribute 'stride'; known attributes: 'dilations', 'groups', 'padding', 'strides'}}
  %a = qnt.conv2d %x, %w {stride = array<i64: 2, 2>} : tensor<1x4x4x1x!X>, tensor<1x1x1x1x!W> -> tensor<1x4x4x1x!A>
  return %a : tensor<1x4x4x1x!A>
}

// -----

// Our own prefix declares no discardable attributes either.
func.func @qnt_prefixed(%x: tensor<2xf32>) {
  // expected-error@+1 {{'qnt.quantize' op unknown attribute 'qnt.rounding'}}
  %q = qnt.quantize %x {qnt.rounding = "float"} : tensor<2xf32> -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>
  return
}

// -----

// Other dialects' discardable attributes (a '.' in the name) follow MLIR's
// convention and are allowed on any op; they do not change the semantics.
// (-verify-diagnostics fails on any unexpected error.)
func.func @foreign_discardable_attribute(%x: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>> {
  %q = qnt.quantize %x {tool.origin = "onnx:QuantizeLinear_3"} : tensor<2xf32> -> tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>
  return %q : tensor<2x!quant.uniform<i8:f32, 5.000000e-01>>
}
