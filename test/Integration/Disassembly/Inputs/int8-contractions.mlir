// int8 contractions without zero points (the common case after
// qnt-fold-zero-points and qnt-symmetric-weights), shared by the
// disassembly tests aarch64-dot.mlir and riscv64-vwmacc.mlir. Each needs
// the lowering's layout: the reduction innermost, contiguous in both
// operands, with the sum in a register.

// u8 x s8, runtime weights (transposed at run time), K = 64.
func.func @mm_u8s8(%x: tensor<4x64xi8>, %w: tensor<64x16xi8>, %b: tensor<16xi32>) -> tensor<4x16xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<4x64xi8>, tensor<64x16xi8>, tensor<16xi32> -> tensor<4x16xi32>
  return %a : tensor<4x16xi32>
}

// s8 x s8, constant weights (transposed at compile time), K = 48: a loop
// LLVM would fully unroll without the lowering's unroll hint.
func.func @mm_s8s8(%x: tensor<4x48xi8>, %b: tensor<8xi32>) -> tensor<4x8xi32> {
  %w = arith.constant dense<[
    [-116, -79, -42, -5, 32, 69, 106, -112],
    [-75, -38, -1, 36, 73, 110, -108, -71],
    [-34, 3, 40, 77, 114, -104, -67, -30],
    [7, 44, 81, 118, -100, -63, -26, 11],
    [48, 85, 122, -96, -59, -22, 15, 52],
    [89, 126, -92, -55, -18, 19, 56, 93],
    [-125, -88, -51, -14, 23, 60, 97, -121],
    [-84, -47, -10, 27, 64, 101, -117, -80],
    [-43, -6, 31, 68, 105, -113, -76, -39],
    [-2, 35, 72, 109, -109, -72, -35, 2],
    [39, 76, 113, -105, -68, -31, 6, 43],
    [80, 117, -101, -64, -27, 10, 47, 84],
    [121, -97, -60, -23, 14, 51, 88, 125],
    [-93, -56, -19, 18, 55, 92, -126, -89],
    [-52, -15, 22, 59, 96, -122, -85, -48],
    [-11, 26, 63, 100, -118, -81, -44, -7],
    [30, 67, 104, -114, -77, -40, -3, 34],
    [71, 108, -110, -73, -36, 1, 38, 75],
    [112, -106, -69, -32, 5, 42, 79, 116],
    [-102, -65, -28, 9, 46, 83, 120, -98],
    [-61, -24, 13, 50, 87, 124, -94, -57],
    [-20, 17, 54, 91, -127, -90, -53, -16],
    [21, 58, 95, -123, -86, -49, -12, 25],
    [62, 99, -119, -82, -45, -8, 29, 66],
    [103, -115, -78, -41, -4, 33, 70, 107],
    [-111, -74, -37, 0, 37, 74, 111, -107],
    [-70, -33, 4, 41, 78, 115, -103, -66],
    [-29, 8, 45, 82, 119, -99, -62, -25],
    [12, 49, 86, 123, -95, -58, -21, 16],
    [53, 90, 127, -91, -54, -17, 20, 57],
    [94, -124, -87, -50, -13, 24, 61, 98],
    [-120, -83, -46, -9, 28, 65, 102, -116],
    [-79, -42, -5, 32, 69, 106, -112, -75],
    [-38, -1, 36, 73, 110, -108, -71, -34],
    [3, 40, 77, 114, -104, -67, -30, 7],
    [44, 81, 118, -100, -63, -26, 11, 48],
    [85, 122, -96, -59, -22, 15, 52, 89],
    [126, -92, -55, -18, 19, 56, 93, -125],
    [-88, -51, -14, 23, 60, 97, -121, -84],
    [-47, -10, 27, 64, 101, -117, -80, -43],
    [-6, 31, 68, 105, -113, -76, -39, -2],
    [35, 72, 109, -109, -72, -35, 2, 39],
    [76, 113, -105, -68, -31, 6, 43, 80],
    [117, -101, -64, -27, 10, 47, 84, 121],
    [-97, -60, -23, 14, 51, 88, 125, -93],
    [-56, -19, 18, 55, 92, -126, -89, -52],
    [-15, 22, 59, 96, -122, -85, -48, -11],
    [26, 63, 100, -118, -81, -44, -7, 30]]> : tensor<48x8xi8>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<4x48xi8>, tensor<48x8xi8>, tensor<8xi32> -> tensor<4x8xi32>
  return %a : tensor<4x8xi32>
}

// u8 x u8.
func.func @mm_u8u8(%x: tensor<4x64xi8>, %w: tensor<64x16xi8>, %b: tensor<16xi32>) -> tensor<4x16xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned, w_unsigned}
       : tensor<4x64xi8>, tensor<64x16xi8>, tensor<16xi32> -> tensor<4x16xi32>
  return %a : tensor<4x16xi32>
}

// 3x3 conv, u8 x s8, C = 16, padding 1 (the u8 zero point 128): the inner
// loop runs over a kernel row, KW * C = 48 codes.
func.func @conv3x3_u8s8(%x: tensor<1x8x8x16xi8>, %w: tensor<3x3x16x32xi8>, %b: tensor<32xi32>) -> tensor<1x8x8x32xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 128 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64, x_unsigned}
       : tensor<1x8x8x16xi8>, tensor<3x3x16x32xi8>, tensor<32xi32> -> tensor<1x8x8x32xi32>
  return %a : tensor<1x8x8x32xi32>
}

// 3x3 conv, s8 x s8, C = 32, stride 2.
func.func @conv3x3_s8s8(%x: tensor<1x9x9x32xi8>, %w: tensor<3x3x32x16xi8>, %b: tensor<16xi32>) -> tensor<1x4x4x16xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 2, 2>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 1 : i64}
       : tensor<1x9x9x32xi8>, tensor<3x3x32x16xi8>, tensor<16xi32> -> tensor<1x4x4x16xi32>
  return %a : tensor<1x4x4x16xi32>
}

// 3x3 conv with two groups of 16 channels: the inner loop runs over the
// channels of a group.
func.func @conv3x3_grouped(%x: tensor<1x8x8x32xi8>, %w: tensor<3x3x16x8xi8>, %b: tensor<8xi32>) -> tensor<1x6x6x8xi32> {
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 2 : i64}
       : tensor<1x8x8x32xi8>, tensor<3x3x16x8xi8>, tensor<8xi32> -> tensor<1x6x6x8xi32>
  return %a : tensor<1x6x6x8xi32>
}
