// Inputs of network-ops-vectorized.mlir: NHWC, 64 channels (32 for the i16 pool).
!A = !quant.uniform<i8:f32, 0.05:-3>
!B = !quant.uniform<i8:f32, 0.1:4>
!Y = !quant.uniform<i8:f32, 0.125:-1>
!X = !quant.uniform<u8:f32, 0.25:128>
func.func @add_i8(%a: tensor<1x8x8x64x!A>, %b: tensor<1x8x8x64x!B>) -> tensor<1x8x8x64x!Y> {
  %y = qnt.add %a, %b : tensor<1x8x8x64x!A>, tensor<1x8x8x64x!B> -> tensor<1x8x8x64x!Y>
  return %y : tensor<1x8x8x64x!Y>
}
func.func @add_float(%a: tensor<1x8x8x64x!A>, %b: tensor<1x1x1x64x!B>) -> tensor<1x8x8x64x!Y> {
  %y = qnt.add %a, %b {rounding = "float"} : tensor<1x8x8x64x!A>, tensor<1x1x1x64x!B> -> tensor<1x8x8x64x!Y>
  return %y : tensor<1x8x8x64x!Y>
}
func.func @max_pool_u8(%x: tensor<1x8x8x64x!X>) -> tensor<1x4x4x64x!X> {
  %m = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x8x8x64x!X> -> tensor<1x4x4x64x!X>
  return %m : tensor<1x4x4x64x!X>
}
func.func @avg_pool_u8(%x: tensor<1x8x8x64x!X>) -> tensor<1x1x1x64x!X> {
  %p = qnt.avg_pool2d %x {kernel = array<i64: 8, 8>} : tensor<1x8x8x64x!X> -> tensor<1x1x1x64x!X>
  return %p : tensor<1x1x1x64x!X>
}
!S = !quant.uniform<i16:f32, 0.001:5>
func.func @max_pool_i16_c32(%x: tensor<1x8x8x32x!S>) -> tensor<1x4x4x32x!S> {
  %m = qnt.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>} : tensor<1x8x8x32x!S> -> tensor<1x4x4x32x!S>
  return %m : tensor<1x4x4x32x!S>
}
// ResNet's stem pools: 3x3, stride 2, padding 1 on every side, 64 i8
// channels, at their real size (LLVM's choices depend on it). A select of the padded taps' codes on a loop-invariant
// condition became a branch in the channel loop (LLVM's unswitching) and
// left both scalar on x86 (0.10x of a C loop).
func.func @max_pool_i8_stem(%x: tensor<1x112x112x64x!A>) -> tensor<1x56x56x64x!A> {
  %m = qnt.max_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : tensor<1x112x112x64x!A> -> tensor<1x56x56x64x!A>
  return %m : tensor<1x56x56x64x!A>
}
func.func @avg_pool_i8_stem(%x: tensor<1x112x112x64x!A>) -> tensor<1x56x56x64x!A> {
  %p = qnt.avg_pool2d %x {kernel = array<i64: 3, 3>, strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>} : tensor<1x112x112x64x!A> -> tensor<1x56x56x64x!A>
  return %p : tensor<1x56x56x64x!A>
}
