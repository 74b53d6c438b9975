// Runs the lowered integer ops and checks them against values of the
// reference model (Reference/FixedPoint.h, Kernels.h) and the contract's
// worked examples. qnt-to-linalg runs alone first, so the qnt passes of
// --qnt-to-llvm see no qnt op and only the lowering below linalg remains.
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" \
// RUN:   | quant-opt --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

// The contract's M = 0.0072 (M0 = 1979120930, n = 7): 5000 -> 36.
func.func @double_contract(%x: tensor<5xi32>) -> tensor<5xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1979120930>, shifts = array<i32: 7>,
         float_multipliers = array<f32: 0.0072>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "double"} : tensor<5xi32> -> tensor<5xi8>
  return %y : tensor<5xi8>
}

// Ties at M = 0.5 (M0 = 2^30, n = 0) on [1, -1, 3, -3, 5, -5], one mode
// each: double and single round halves toward +inf, away away from zero,
// half_even and float to even.
func.func @ties(%x: tensor<6xi32>) -> (tensor<6xi8>, tensor<6xi8>, tensor<6xi8>, tensor<6xi8>, tensor<6xi8>) {
  %d = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>,
         float_multipliers = array<f32: 0.5>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "double"} : tensor<6xi32> -> tensor<6xi8>
  %s = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>,
         float_multipliers = array<f32: 0.5>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "single"} : tensor<6xi32> -> tensor<6xi8>
  %a = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>,
         float_multipliers = array<f32: 0.5>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "away"} : tensor<6xi32> -> tensor<6xi8>
  %h = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>,
         float_multipliers = array<f32: 0.5>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "half_even"} : tensor<6xi32> -> tensor<6xi8>
  %f = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 0>,
         float_multipliers = array<f32: 0.5>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "float"} : tensor<6xi32> -> tensor<6xi8>
  return %d, %s, %a, %h, %f : tensor<6xi8>, tensor<6xi8>, tensor<6xi8>, tensor<6xi8>, tensor<6xi8>
}

// Double rounding at M = 0.25 (n = 1) on [1, 2, -2, 6, -6]: 1 * 0.25 rounds
// twice (0.5 -> 1, then 0.5 -> 1) where one rounding gives 0.
func.func @double_rounding(%x: tensor<5xi32>) -> (tensor<5xi8>, tensor<5xi8>) {
  %d = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 1>,
         float_multipliers = array<f32: 0.25>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "double"} : tensor<5xi32> -> tensor<5xi8>
  %s = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>, shifts = array<i32: 1>,
         float_multipliers = array<f32: 0.25>, output_zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32,
         rounding = "single"} : tensor<5xi32> -> tensor<5xi8>
  return %d, %s : tensor<5xi8>, tensor<5xi8>
}

// M = 3 (M0 = 0.75 * 2^31, n = -2) on [1000, -1000, 1e9, -1e9] into i32:
// double saturates the left shift first (2^31 - 1, then * 0.75), single
// saturates only the final result.
func.func @left_shift(%x: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %d = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1610612736>, shifts = array<i32: -2>,
         float_multipliers = array<f32: 3.0>, output_zero_points = array<i32: 0>, min = -2147483648 : i32, max = 2147483647 : i32,
         rounding = "double"} : tensor<4xi32> -> tensor<4xi32>
  %s = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1610612736>, shifts = array<i32: -2>,
         float_multipliers = array<f32: 3.0>, output_zero_points = array<i32: 0>, min = -2147483648 : i32, max = 2147483647 : i32,
         rounding = "single"} : tensor<4xi32> -> tensor<4xi32>
  return %d, %s : tensor<4xi32>, tensor<4xi32>
}

// u8 -> u8 per channel (axis 1): M = [2, 0.5, 0.0072], z_in = 128,
// z_out = [128, 100, 0], saturating at 0.
func.func @per_channel(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 128>, multipliers = array<i32: 1073741824, 1073741824, 1979120930>,
         shifts = array<i32: -2, 0, 7>, float_multipliers = array<f32: 2.0, 0.5, 0.0072>, output_zero_points = array<i32: 128, 100, 0>,
         min = 0 : i32, max = 255 : i32, rounding = "double", axis = 1, input_unsigned, output_unsigned}
       : tensor<2x3xi8> -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// s = 1: ties to even (2.5 -> 2, 3.5 -> 4, -2.5 -> -2), NaN -> z, +-inf and
// huge values saturate.
func.func @quantize(%x: tensor<8xf32>) -> tensor<8xi8> {
  %q = qnt.int_quantize %x {scales = array<f32: 1.0>, zero_points = array<i32: 0>, min = -128 : i32, max = 127 : i32}
       : tensor<8xf32> -> tensor<8xi8>
  return %q : tensor<8xi8>
}

// The contract's codes: [0.5, -0.5] at (u8, s = 0.25, z = 128) is
// [130, 126], and back.
func.func @quantize_dequantize_u8(%x: tensor<2xf32>) -> (tensor<2xi8>, tensor<2xf32>) {
  %q = qnt.int_quantize %x {scales = array<f32: 0.25>, zero_points = array<i32: 128>, min = 0 : i32, max = 255 : i32, output_unsigned}
       : tensor<2xf32> -> tensor<2xi8>
  %r = qnt.int_dequantize %q {scales = array<f32: 0.25>, zero_points = array<i32: 128>, input_unsigned}
       : tensor<2xi8> -> tensor<2xf32>
  return %q, %r : tensor<2xi8>, tensor<2xf32>
}

// The contract's codes [130, 126] (u8, z = 128) times [3, -2]: 10.
func.func @matmul_u8(%x: tensor<1x2xi8>) -> tensor<1x1xi32> {
  %w = arith.constant dense<[[3], [-2]]> : tensor<2x1xi8>
  %b = arith.constant dense<0> : tensor<1xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 128 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<1x2xi8>, tensor<2x1xi8>, tensor<1xi32> -> tensor<1x1xi32>
  return %a : tensor<1x1xi32>
}

// The contract's 2x2 asymmetric matmul: [[3,1],[4,2]] (z = 1) times
// [[5,1],[3,6]] (z = 2) is [[6, -2], [10, 1]].
func.func @matmul_asymmetric(%x: tensor<2x2xi8>) -> tensor<2x2xi32> {
  %w = arith.constant dense<[[5, 1], [3, 6]]> : tensor<2x2xi8>
  %b = arith.constant dense<0> : tensor<2xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 1 : i32, weight_zero_points = array<i32: 2>, x_unsigned, w_unsigned}
       : tensor<2x2xi8>, tensor<2x2xi8>, tensor<2xi32> -> tensor<2x2xi32>
  return %a : tensor<2x2xi32>
}

// u8 codes 129 (real 1 at z = 128) under a 3x3 all-ones kernel with
// padding 1 and bias 100: every window sees the four real pixels and five
// padded ones that hold z, i.e. real 0, so each output is 100 + 4. Padding
// with raw code 0 would add 5 * (0 - 128) instead.
func.func @conv_padding(%x: tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xi32> {
  %w = arith.constant dense<1> : tensor<3x3x1x1xi8>
  %b = arith.constant dense<100> : tensor<1xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 128 : i32, weight_zero_points = array<i32: 0>, pad_value = 128 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64, x_unsigned}
       : tensor<1x2x2x1xi8>, tensor<3x3x1x1xi8>, tensor<1xi32> -> tensor<1x2x2x1xi32>
  return %a : tensor<1x2x2x1xi32>
}

func.func @main() {
  %c = arith.constant dense<[5000, -5000, 0, 2147483647, -2147483648]> : tensor<5xi32>
  %cr = call @double_contract(%c) : (tensor<5xi32>) -> tensor<5xi8>
  %crm = bufferization.to_buffer %cr : tensor<5xi8> to memref<5xi8>
  %cru = memref.cast %crm : memref<5xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [36, -36, 0, 127, -128]
  call @printMemrefI8(%cru) : (memref<*xi8>) -> ()

  %t = arith.constant dense<[1, -1, 3, -3, 5, -5]> : tensor<6xi32>
  %td, %ts, %ta, %th, %tf = call @ties(%t) : (tensor<6xi32>) -> (tensor<6xi8>, tensor<6xi8>, tensor<6xi8>, tensor<6xi8>, tensor<6xi8>)
  %tdm = bufferization.to_buffer %td : tensor<6xi8> to memref<6xi8>
  %tdu = memref.cast %tdm : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [1, 0, 2, -1, 3, -2]
  call @printMemrefI8(%tdu) : (memref<*xi8>) -> ()
  %tsm = bufferization.to_buffer %ts : tensor<6xi8> to memref<6xi8>
  %tsu = memref.cast %tsm : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [1, 0, 2, -1, 3, -2]
  call @printMemrefI8(%tsu) : (memref<*xi8>) -> ()
  %tam = bufferization.to_buffer %ta : tensor<6xi8> to memref<6xi8>
  %tau = memref.cast %tam : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [1, -1, 2, -2, 3, -3]
  call @printMemrefI8(%tau) : (memref<*xi8>) -> ()
  %thm = bufferization.to_buffer %th : tensor<6xi8> to memref<6xi8>
  %thu = memref.cast %thm : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 0, 2, -2, 2, -2]
  call @printMemrefI8(%thu) : (memref<*xi8>) -> ()
  %tfm = bufferization.to_buffer %tf : tensor<6xi8> to memref<6xi8>
  %tfu = memref.cast %tfm : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 0, 2, -2, 2, -2]
  call @printMemrefI8(%tfu) : (memref<*xi8>) -> ()

  %q = arith.constant dense<[1, 2, -2, 6, -6]> : tensor<5xi32>
  %qd, %qs = call @double_rounding(%q) : (tensor<5xi32>) -> (tensor<5xi8>, tensor<5xi8>)
  %qdm = bufferization.to_buffer %qd : tensor<5xi8> to memref<5xi8>
  %qdu = memref.cast %qdm : memref<5xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [1, 1, -1, 2, -2]
  call @printMemrefI8(%qdu) : (memref<*xi8>) -> ()
  %qsm = bufferization.to_buffer %qs : tensor<5xi8> to memref<5xi8>
  %qsu = memref.cast %qsm : memref<5xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 1, 0, 2, -1]
  call @printMemrefI8(%qsu) : (memref<*xi8>) -> ()

  %l = arith.constant dense<[1000, -1000, 1000000000, -1000000000]> : tensor<4xi32>
  %ld, %ls = call @left_shift(%l) : (tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>)
  %ldm = bufferization.to_buffer %ld : tensor<4xi32> to memref<4xi32>
  %ldu = memref.cast %ldm : memref<4xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [3000, -3000, 1610612735, -1610612736]
  call @printMemrefI32(%ldu) : (memref<*xi32>) -> ()
  %lsm = bufferization.to_buffer %ls : tensor<4xi32> to memref<4xi32>
  %lsu = memref.cast %lsm : memref<4xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [3000, -3000, 2147483647, -2147483648]
  call @printMemrefI32(%lsu) : (memref<*xi32>) -> ()

  // u8 codes [[129, 131, 255], [100, 127, 0]] as i8 bits.
  %p = arith.constant dense<[[-127, -125, -1], [100, 127, 0]]> : tensor<2x3xi8>
  %pr = call @per_channel(%p) : (tensor<2x3xi8>) -> tensor<2x3xi8>
  %prm = bufferization.to_buffer %pr : tensor<2x3xi8> to memref<2x3xi8>
  %pru = memref.cast %prm : memref<2x3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[130, 102, 1],
  // CHECK-NEXT: [72, 100, 0]]
  call @printMemrefU8(%pru) : (memref<*xi8>) -> ()

  // [2.5, 3.5, -2.5, NaN, +inf, -inf, 1e10, -1e10]
  %f = arith.constant dense<[2.5, 3.5, -2.5, 0x7FC00000, 0x7F800000, 0xFF800000, 1.0e10, -1.0e10]> : tensor<8xf32>
  %fq = call @quantize(%f) : (tensor<8xf32>) -> tensor<8xi8>
  %fqm = bufferization.to_buffer %fq : tensor<8xi8> to memref<8xi8>
  %fqu = memref.cast %fqm : memref<8xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [2, 4, -2, 0, 127, -128, 127, -128]
  call @printMemrefI8(%fqu) : (memref<*xi8>) -> ()

  %h = arith.constant dense<[0.5, -0.5]> : tensor<2xf32>
  %hq, %hr = call @quantize_dequantize_u8(%h) : (tensor<2xf32>) -> (tensor<2xi8>, tensor<2xf32>)
  %hqm = bufferization.to_buffer %hq : tensor<2xi8> to memref<2xi8>
  %hqu = memref.cast %hqm : memref<2xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [130, 126]
  call @printMemrefU8(%hqu) : (memref<*xi8>) -> ()
  %hrm = bufferization.to_buffer %hr : tensor<2xf32> to memref<2xf32>
  %hru = memref.cast %hrm : memref<2xf32> to memref<*xf32>
  // CHECK: data =
  // CHECK-NEXT: [0.5, -0.5]
  call @printMemrefF32(%hru) : (memref<*xf32>) -> ()

  // u8 codes [130, 126] as i8 bits.
  %mx = arith.constant dense<[[-126, 126]]> : tensor<1x2xi8>
  %mr = call @matmul_u8(%mx) : (tensor<1x2xi8>) -> tensor<1x1xi32>
  %mrm = bufferization.to_buffer %mr : tensor<1x1xi32> to memref<1x1xi32>
  %mru = memref.cast %mrm : memref<1x1xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[10]]
  call @printMemrefI32(%mru) : (memref<*xi32>) -> ()

  %ax = arith.constant dense<[[3, 1], [4, 2]]> : tensor<2x2xi8>
  %ar = call @matmul_asymmetric(%ax) : (tensor<2x2xi8>) -> tensor<2x2xi32>
  %arm = bufferization.to_buffer %ar : tensor<2x2xi32> to memref<2x2xi32>
  %aru = memref.cast %arm : memref<2x2xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[6, -2],
  // CHECK-NEXT: [10, 1]]
  call @printMemrefI32(%aru) : (memref<*xi32>) -> ()

  // u8 code 129 as i8 bits.
  %cx = arith.constant dense<-127> : tensor<1x2x2x1xi8>
  %cv = call @conv_padding(%cx) : (tensor<1x2x2x1xi8>) -> tensor<1x2x2x1xi32>
  %cvm = bufferization.to_buffer %cv : tensor<1x2x2x1xi32> to memref<1x2x2x1xi32>
  %cvu = memref.cast %cvm : memref<1x2x2x1xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[104],
  // CHECK-NEXT: [104]],
  // CHECK-NEXT: {{\[}}[104],
  // CHECK-NEXT: [104]]]]
  call @printMemrefI32(%cvu) : (memref<*xi32>) -> ()
  return
}
