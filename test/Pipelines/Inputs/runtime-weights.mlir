func.func @f(%x: tensor<1x3x!quant.uniform<i8:f32, 0.05:-10>>, %w: tensor<3x1x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x1x!quant.uniform<i32:f32, 0.0005>> {
  %a = qnt.matmul %x, %w : tensor<1x3x!quant.uniform<i8:f32, 0.05:-10>>, tensor<3x1x!quant.uniform<i8:f32, 0.01>> -> tensor<1x1x!quant.uniform<i32:f32, 0.0005>>
  return %a : tensor<1x1x!quant.uniform<i32:f32, 0.0005>>
}
