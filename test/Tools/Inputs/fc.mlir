func.func @f(%x: tensor<1x2x!quant.uniform<u8:f32, 0.25:128>>, %w: tensor<2x1x!quant.uniform<i8:f32, 0.5>>) -> tensor<1x1x!quant.uniform<u8:f32, 0.25:128>> {
  %a = qnt.matmul %x, %w : tensor<1x2x!quant.uniform<u8:f32, 0.25:128>>, tensor<2x1x!quant.uniform<i8:f32, 0.5>> -> tensor<1x1x!quant.uniform<i32:f32, 0.125>>
  %y = qnt.requantize %a {rounding = "single"} : tensor<1x1x!quant.uniform<i32:f32, 0.125>> -> tensor<1x1x!quant.uniform<u8:f32, 0.25:128>>
  return %y : tensor<1x1x!quant.uniform<u8:f32, 0.25:128>>
}
