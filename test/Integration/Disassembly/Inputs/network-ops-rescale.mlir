// Whole-network op loops whose vectorization ../network-ops-rescale-vectorized.mlir
// checks beyond the shifts and adds of network-ops-vectorized.mlir: the
// 64-bit rounding products of qnt.add ("double" and "single") and of a
// requantized qnt.concat operand, and signed 8-bit / 16-bit pools.
!A = !quant.uniform<i8:f32, 0.047:3>
!B = !quant.uniform<i8:f32, 0.089:-7>
!Y = !quant.uniform<i8:f32, 0.131:1>
!S = !quant.uniform<i8:f32, 0.05:-2>
!H = !quant.uniform<i16:f32, 0.001:5>
!C1 = !quant.uniform<i8:f32, 0.07:4>

func.func @add_double(%a: tensor<1x8x8x64x!A>, %b: tensor<1x8x8x64x!B>) -> tensor<1x8x8x64x!Y> {
  %y = qnt.add %a, %b : tensor<1x8x8x64x!A>, tensor<1x8x8x64x!B> -> tensor<1x8x8x64x!Y>
  return %y : tensor<1x8x8x64x!Y>
}

func.func @add_single(%a: tensor<1x8x8x64x!A>, %b: tensor<1x8x8x64x!B>) -> tensor<1x8x8x64x!Y> {
  %y = qnt.add %a, %b {rounding = "single"} : tensor<1x8x8x64x!A>, tensor<1x8x8x64x!B> -> tensor<1x8x8x64x!Y>
  return %y : tensor<1x8x8x64x!Y>
}

func.func @max_pool_i8(%x: tensor<1x16x16x64x!S>) -> tensor<1x8x8x64x!S> {
  %y = qnt.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>,
         padding = array<i64: 1, 0, 1, 0>} : tensor<1x16x16x64x!S> -> tensor<1x8x8x64x!S>
  return %y : tensor<1x8x8x64x!S>
}

func.func @avg_pool_i16(%x: tensor<1x8x8x64x!H>) -> tensor<1x4x4x64x!H> {
  %y = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : tensor<1x8x8x64x!H> -> tensor<1x4x4x64x!H>
  return %y : tensor<1x4x4x64x!H>
}

func.func @concat_requantized(%a: tensor<1x8x8x32x!C1>, %b: tensor<1x8x8x32x!S>) -> tensor<1x8x8x64x!S> {
  %y = qnt.concat %a, %b {axis = 3 : i64} : tensor<1x8x8x32x!C1>, tensor<1x8x8x32x!S> -> tensor<1x8x8x64x!S>
  return %y : tensor<1x8x8x64x!S>
}
