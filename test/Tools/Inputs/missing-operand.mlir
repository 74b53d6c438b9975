func.func @f(%x: tensor<1x2x!quant.uniform<u8:f32, 0.25:128>>) {
  %a = qnt.matmul %x : tensor<1x2x!quant.uniform<u8:f32, 0.25:128>> -> tensor<1x1x!quant.uniform<i32:f32, 0.125>>
  return
}
