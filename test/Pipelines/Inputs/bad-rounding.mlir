func.func @f(%a: tensor<2x!quant.uniform<i32:f32, 0.0072>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>> {
  %y = qnt.requantize %a {rounding = "ties_up"} : tensor<2x!quant.uniform<i32:f32, 0.0072>> -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return %y : tensor<2x!quant.uniform<i8:f32, 1.0>>
}
