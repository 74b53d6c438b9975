func.func @f(%x: tensor<2x!quant.uniform<i8:f32 0.5>>) {
  return
}
