func.func @quantize_i8(%x: tensor<4096xf32>) -> tensor<4096x!quant.uniform<i8:f32, 0.05:-3>> {
  %q = qnt.quantize %x : tensor<4096xf32> -> tensor<4096x!quant.uniform<i8:f32, 0.05:-3>>
  return %q : tensor<4096x!quant.uniform<i8:f32, 0.05:-3>>
}
func.func @dequantize_u8(%q: tensor<4096x!quant.uniform<u8:f32, 0.05:128>>) -> tensor<4096xf32> {
  %r = qnt.dequantize %q : tensor<4096x!quant.uniform<u8:f32, 0.05:128>> -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
func.func @dequantize_i16(%q: tensor<4096x!quant.uniform<i16:f32, 0.001:7>>) -> tensor<4096xf32> {
  %r = qnt.dequantize %q : tensor<4096x!quant.uniform<i16:f32, 0.001:7>> -> tensor<4096xf32>
  return %r : tensor<4096xf32>
}
