// Every bad-input rule of qnt.dequantize_dynamic, qnt.quantize_dynamic and
// qnt.dynamic_quantize, one case per split.
// RUN: quant-opt %s -split-input-file -verify-diagnostics

func.func @dequant_src_element(%s: tensor<2x3xsi8>, %p: tensor<2x1xf32>) {
  // expected-error@+1 {{'qnt.dequantize_dynamic' op 'src' must hold raw codes of element type i8, ui8, i16 or i32 (signless is signed), got 'tensor<2x3xsi8>'}}
  %r = qnt.dequantize_dynamic %s, %p, %p : tensor<2x3xsi8>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_src_ui16(%s: tensor<2x3xui16>, %p: tensor<2x1xf32>) {
  // expected-error@+1 {{'src' must hold raw codes of element type i8, ui8, i16 or i32}}
  %r = qnt.dequantize_dynamic %s, %p, %p : tensor<2x3xui16>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_src_float(%s: tensor<2x3xf32>, %p: tensor<2x1xf32>) {
  // expected-error@+1 {{'src' must hold raw codes of element type i8, ui8, i16 or i32}}
  %r = qnt.dequantize_dynamic %s, %p, %p : tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_scale_f16(%s: tensor<2x3xi8>, %p: tensor<2x1xf16>, %o: tensor<2x1xf32>) {
  // expected-error@+1 {{'qnt.dequantize_dynamic' op 'scale' must be a tensor of f32, got 'tensor<2x1xf16>'}}
  %r = qnt.dequantize_dynamic %s, %p, %o : tensor<2x3xi8>, tensor<2x1xf16>, tensor<2x1xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_offset_f64(%s: tensor<2x3xi8>, %p: tensor<2x1xf32>, %o: tensor<2x1xf64>) {
  // expected-error@+1 {{'offset' must be a tensor of f32, got 'tensor<2x1xf64>'}}
  %r = qnt.dequantize_dynamic %s, %p, %o : tensor<2x3xi8>, tensor<2x1xf32>, tensor<2x1xf64> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_scale_rank(%s: tensor<2x3xi8>, %p: tensor<2xf32>, %o: tensor<2x1xf32>) {
  // expected-error@+1 {{'scale' must have the rank of 'src' (2; use 1 for a broadcast dimension), got 'tensor<2xf32>'}}
  %r = qnt.dequantize_dynamic %s, %p, %o : tensor<2x3xi8>, tensor<2xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_scale_broadcast(%s: tensor<2x3xi8>, %p: tensor<2x2xf32>, %o: tensor<2x1xf32>) {
  // expected-error@+1 {{'scale' dimension 1 is 2; it must be 1 or 3 (that of 'src') to broadcast}}
  %r = qnt.dequantize_dynamic %s, %p, %o : tensor<2x3xi8>, tensor<2x2xf32>, tensor<2x1xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_offset_broadcast(%s: tensor<2x3xi8>, %p: tensor<2x1xf32>, %o: tensor<3x1xf32>) {
  // expected-error@+1 {{'offset' dimension 0 is 3; it must be 1 or 2 (that of 'src') to broadcast}}
  %r = qnt.dequantize_dynamic %s, %p, %o : tensor<2x3xi8>, tensor<2x1xf32>, tensor<3x1xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @dequant_dynamic_shape(%s: tensor<?x3xi8>, %p: tensor<1x1xf32>) {
  // expected-error@+1 {{'src' must have a static shape, got 'tensor<?x3xi8>'}}
  %r = qnt.dequantize_dynamic %s, %p, %p : tensor<?x3xi8>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<?x3xf32>
  return
}

// -----

func.func @dequant_result_type(%s: tensor<2x3xi8>, %p: tensor<1x1xf32>) {
  // expected-error@+1 {{'qnt.dequantize_dynamic' op result must be a tensor of f32, got 'tensor<2x3xf16>'}}
  %r = qnt.dequantize_dynamic %s, %p, %p : tensor<2x3xi8>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x3xf16>
  return
}

// -----

func.func @dequant_result_shape(%s: tensor<2x3xi8>, %p: tensor<1x1xf32>) {
  // expected-error@+1 {{result shape must equal the shape of 'src', got 'tensor<3x2xf32>' for 'tensor<2x3xi8>'}}
  %r = qnt.dequantize_dynamic %s, %p, %p : tensor<2x3xi8>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<3x2xf32>
  return
}

// -----

func.func @quant_x_type(%x: tensor<2x3xi8>, %p: tensor<1x1xf32>) {
  // expected-error@+1 {{'qnt.quantize_dynamic' op 'x' must be a tensor of f32, got 'tensor<2x3xi8>'}}
  %q = qnt.quantize_dynamic %x, %p, %p : tensor<2x3xi8>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x3xi8>
  return
}

// -----

func.func @quant_result_i32(%x: tensor<2x3xf32>, %p: tensor<1x1xf32>) {
  // expected-error@+1 {{'qnt.quantize_dynamic' op result must hold raw codes of element type i8, ui8 or i16 (signless is signed), got 'tensor<2x3xi32>'}}
  %q = qnt.quantize_dynamic %x, %p, %p : tensor<2x3xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x3xi32>
  return
}

// -----

func.func @quant_result_ui16(%x: tensor<2x3xf32>, %p: tensor<1x1xf32>) {
  // expected-error@+1 {{result must hold raw codes of element type i8, ui8 or i16}}
  %q = qnt.quantize_dynamic %x, %p, %p : tensor<2x3xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x3xui16>
  return
}

// -----

func.func @quant_scale_broadcast(%x: tensor<2x3xf32>, %p: tensor<1x4xf32>, %o: tensor<1x1xf32>) {
  // expected-error@+1 {{'scale' dimension 1 is 4; it must be 1 or 3 (that of 'x') to broadcast}}
  %q = qnt.quantize_dynamic %x, %p, %o : tensor<2x3xf32>, tensor<1x4xf32>, tensor<1x1xf32> -> tensor<2x3xi8>
  return
}

// -----

func.func @quant_result_shape(%x: tensor<2x3xf32>, %p: tensor<1x1xf32>) {
  // expected-error@+1 {{result shape must equal the shape of 'x'}}
  %q = qnt.quantize_dynamic %x, %p, %p : tensor<2x3xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x4xi8>
  return
}

// -----

func.func @quant_offset_not_integral(%x: tensor<2x3xf32>, %p: tensor<2x1xf32>) {
  %o = arith.constant dense<[[1.0], [2.5]]> : tensor<2x1xf32>
  // expected-error@+1 {{'qnt.quantize_dynamic' op 'offset' must be integral (a zero point in codes), got 2.5}}
  %q = qnt.quantize_dynamic %x, %p, %o : tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x3xi8>
  return
}

// -----

// The same rule for offsets in a dense_resource blob: 1.0 (0x3F800000),
// then 2.5 (0x40200000), little-endian after the 4-byte alignment word.
func.func @quant_offset_resource_not_integral(%x: tensor<2x3xf32>, %p: tensor<2x1xf32>) {
  %o = arith.constant dense_resource<offsets_blob> : tensor<2x1xf32>
  // expected-error@+1 {{'qnt.quantize_dynamic' op 'offset' must be integral (a zero point in codes), got 2.5}}
  %q = qnt.quantize_dynamic %x, %p, %o : tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x3xi8>
  return
}
{-#
  dialect_resources: {
    builtin: {
      offsets_blob: "0x040000000000803F00002040"
    }
  }
#-}

// -----

func.func @quant_offset_nan(%x: tensor<2x3xf32>, %p: tensor<1x1xf32>) {
  %o = arith.constant dense<0x7FC00000> : tensor<1x1xf32>
  // expected-error@+1 {{'offset' must be integral (a zero point in codes), got NaN}}
  %q = qnt.quantize_dynamic %x, %p, %o : tensor<2x3xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x3xi8>
  return
}

// -----

func.func @quant_offset_splat(%x: tensor<2x3xf32>, %p: tensor<2x1xf32>) {
  %o = arith.constant dense<-0.5> : tensor<2x1xf32>
  // expected-error@+1 {{'offset' must be integral (a zero point in codes), got -0.5}}
  %q = qnt.quantize_dynamic %x, %p, %o : tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x1xf32> -> tensor<2x3xi8>
  return
}

// -----

func.func @dq_mode_unknown(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op attribute 'mode' failed to satisfy constraint: dynamic quantization mode, "onnx" or "symmetric"}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "asymmetric"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dq_mode_not_string(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{attribute 'mode' failed to satisfy constraint: dynamic quantization mode, "onnx" or "symmetric"}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = 0 : i32} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dq_mode_missing(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op requires attribute 'mode'}}
  %c, %s, %z = qnt.dynamic_quantize %x : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dq_onnx_axis(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op mode "onnx" is per tensor and takes no 'axis'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx", axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dq_onnx_codes_i8(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{mode "onnx" gives ui8 'codes' (ONNX DynamicQuantizeLinear), got 'tensor<4x8xi8>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dq_onnx_scale_shape(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{mode "onnx" gives a per-tensor 'scale' of type tensor<f32>, got 'tensor<1xf32>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<1xf32>, tensor<ui8>
  return
}

// -----

func.func @dq_onnx_zero_point(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{mode "onnx" gives a per-tensor 'zero_point' of type tensor<ui8>, got 'tensor<i8>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<i8>
  return
}

// -----

func.func @dq_codes_shape(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op 'codes' shape must equal the shape of 'x', got 'tensor<8x4xui8>' for 'tensor<4x8xf32>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf32> -> tensor<8x4xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dq_x_type(%x: tensor<4x8xf16>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op 'x' must be a tensor of f32, got 'tensor<4x8xf16>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf16> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  return
}

// -----

func.func @dq_symmetric_no_axis(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op mode "symmetric" requires 'axis' (the dimension with one scale per slice)}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric"} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>
  return
}

// -----

func.func @dq_symmetric_axis_range(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op 'axis' 2 is out of range for 'x' of rank 2}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 2 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>
  return
}

// -----

func.func @dq_symmetric_axis_negative(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'axis' -1 is out of range for 'x' of rank 2}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = -1 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<4xi8>
  return
}

// -----

func.func @dq_symmetric_codes_ui8(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{mode "symmetric" gives i8 'codes', got 'tensor<4x8xui8>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<4xf32>, tensor<4xi8>
  return
}

// -----

func.func @dq_symmetric_scale_shape(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{mode "symmetric" gives one scale per slice along 'axis': 'scale' must be 'tensor<8xf32>', got 'tensor<4xf32>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<8xi8>
  return
}

// -----

func.func @dq_symmetric_zero_point(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{mode "symmetric" gives one zero point (0) per slice along 'axis': 'zero_point' must be 'tensor<4xi8>', got 'tensor<4xui8>'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 0 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<4xf32>, tensor<4xui8>
  return
}

// -----

func.func @dq_unknown_attribute(%x: tensor<4x8xf32>) {
  // expected-error@+1 {{'qnt.dynamic_quantize' op unknown attribute 'rounding'}}
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx", rounding = "double"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  return
}
