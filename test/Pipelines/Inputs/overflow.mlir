// 131073 * 128 * 128 > 2^31 - 1: the accumulator could overflow i32.
func.func @f(%x: tensor<1x131073x!quant.uniform<u8:f32, 0.25:128>>, %w: tensor<131073x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x!quant.uniform<i32:f32, 0.125>> {
  %a = qnt.matmul %x, %w : tensor<1x131073x!quant.uniform<u8:f32, 0.25:128>>, tensor<131073x1x!quant.uniform<i8:f32, 0.5>> -> tensor<1x1x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<1x1x!quant.uniform<i32:f32, 0.125>>
}
