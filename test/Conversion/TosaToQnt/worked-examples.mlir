// RUN: quant-opt %s --tosa-to-llvm | %mlir_runner_cmd | FileCheck %s

// Hand-worked values through --tosa-to-llvm (tosa-to-qnt, then qnt-to-llvm).

// The contract's worked example as TOSA: 100 * 40 + 50 * 20 = 5000, and
// M = 0.0072 is multiplier 1979120930, shift 31 + 7 = 38, so 5000 -> 36,
// -5000 -> -36; plus the output zero point 5: 41 and -31.
func.func @matmul(%a: tensor<1x2x2xi8>) -> tensor<1x2x1xi8> {
  %b = "tosa.const"() {values = dense<[[[40], [20]]]> : tensor<1x2x1xi8>} : () -> tensor<1x2x1xi8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.matmul %a, %b, %zp, %zp : (tensor<1x2x2xi8>, tensor<1x2x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x1xi32>
  %m = "tosa.const"() {values = dense<1979120930> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<38> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<5> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %acc, %m, %s, %z32, %ozp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<1x2x1xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x2x1xi8>
  return %y : tensor<1x2x1xi8>
}

// Padding is real 0: one input code 10 with zero point 10 under a 3x3
// all-ones filter padded by 1 sums nine zeros, so the bias 7 is the result
// (padding with code 0 would add 8 * (0 - 10) = -80).
func.func @conv_padding(%x: tensor<1x1x1x1xi8>) -> tensor<1x1x1x1xi32> {
  %w = "tosa.const"() {values = dense<1> : tensor<1x3x3x1xi8>} : () -> tensor<1x3x3x1xi8>
  %b = "tosa.const"() {values = dense<7> : tensor<1xi32>} : () -> tensor<1xi32>
  %izp = "tosa.const"() {values = dense<10> : tensor<1xi8>} : () -> tensor<1xi8>
  %wzp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %acc = tosa.conv2d %x, %w, %b, %izp, %wzp {acc_type = i32, pad = array<i64: 1, 1, 1, 1>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x1x1xi8>, tensor<1x3x3x1xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x1xi32>
  return %acc : tensor<1x1x1x1xi32>
}

// Averages of [3, 4] and [-3, -4]: 3.5 -> 4 and -3.5 -> -4 (TOSA's
// reciprocal_scale pushes ties away from zero).
func.func @avg_pool(%x: tensor<1x2x2x1xi8>) -> tensor<1x2x1x1xi8> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.avg_pool2d %x, %zp, %zp {kernel = array<i64: 1, 2>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, acc_type = i32} : (tensor<1x2x2x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x1x1xi8>
  return %y : tensor<1x2x1x1xi8>
}

// u8 in, u8 out: codes 0 and 255 (bits -1) with input zero point 128 are
// -128 and 127; M = 0.5 (2^30, shift 31) gives -64 and 63.5 -> 64 (single
// rounding: ties up) in i8; then M = 1 (2^30, shift 30) to u8 with output
// zero point 100: 36 and 164 (bits -92).
func.func @rescale_u8(%x: tensor<2xi8>) -> tensor<2xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<31> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<-128> : tensor<1xi8>} : () -> tensor<1xi8>
  %zero = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %r = tosa.rescale %x, %m, %s, %izp, %zero {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = true, output_unsigned = false} : (tensor<2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2xi8>
  %one = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s30 = "tosa.const"() {values = dense<30> : tensor<1xi8>} : () -> tensor<1xi8>
  %ozp = "tosa.const"() {values = dense<100> : tensor<1xi8>} : () -> tensor<1xi8>
  %u = tosa.rescale %r, %one, %s30, %zero, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = true} : (tensor<2xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2xi8>
  return %u : tensor<2xi8>
}

// CHECK: data =
// CHECK-NEXT: {{\[\[\[}}41],
// CHECK-NEXT: [-31]]]
// CHECK: data =
// CHECK-NEXT: {{\[\[\[\[}}7]]]]
// CHECK: data =
// CHECK-NEXT: {{\[\[\[\[}}4]],
// CHECK-NEXT: {{\[\[}}-4]]]]
// CHECK: data =
// CHECK-NEXT: [36, -92]
func.func @main() {
  %a = arith.constant dense<[[[100, 50], [-100, -50]]]> : tensor<1x2x2xi8>
  %y0 = call @matmul(%a) : (tensor<1x2x2xi8>) -> tensor<1x2x1xi8>
  %u0 = tensor.cast %y0 : tensor<1x2x1xi8> to tensor<*xi8>
  call @printMemrefI8(%u0) : (tensor<*xi8>) -> ()
  %x = arith.constant dense<10> : tensor<1x1x1x1xi8>
  %y1 = call @conv_padding(%x) : (tensor<1x1x1x1xi8>) -> tensor<1x1x1x1xi32>
  %u1 = tensor.cast %y1 : tensor<1x1x1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  %p = arith.constant dense<[[[[3], [4]], [[-3], [-4]]]]> : tensor<1x2x2x1xi8>
  %y2 = call @avg_pool(%p) : (tensor<1x2x2x1xi8>) -> tensor<1x2x1x1xi8>
  %u2 = tensor.cast %y2 : tensor<1x2x1x1xi8> to tensor<*xi8>
  call @printMemrefI8(%u2) : (tensor<*xi8>) -> ()
  %q = arith.constant dense<[0, -1]> : tensor<2xi8>
  %y3 = call @rescale_u8(%q) : (tensor<2xi8>) -> tensor<2xi8>
  %u3 = tensor.cast %y3 : tensor<2xi8> to tensor<*xi8>
  call @printMemrefI8(%u3) : (tensor<*xi8>) -> ()
  return
}
func.func private @printMemrefI8(tensor<*xi8>)
func.func private @printMemrefI32(tensor<*xi32>)
