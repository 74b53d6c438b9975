func.func @f(%x: tensor<2xf32>) {
  %q = qnt.quantize %x : tensor<2xf32> -> tensor<2xi8>
  return
}
