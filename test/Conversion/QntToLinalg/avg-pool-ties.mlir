// qnt.avg_pool2d's `rounding`: exact ties of the mean go away from zero
// (the default, TFLite's rule) or to the even neighbour ("half_even", ONNX's
// QuantizeLinear of the float mean on the same grid). Compiled code and the
// reference model print the same codes; every expected value is worked by
// hand below.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: %quant_ref_run %s | FileCheck %s

!Z = !quant.uniform<i8:f32, 0.5:3>
!U = !quant.uniform<u8:f32, 0.25:128>
!G = !quant.uniform<i8:f32, 0.1>

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)

func.func @print(%t: tensor<1x1x8x1xi8>) {
  %m = bufferization.to_buffer %t : tensor<1x1x8x1xi8> to memref<1x1x8x1xi8>
  %u = memref.cast %m : memref<1x1x8x1xi8> to memref<*xi8>
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()
  return
}

// Pairs (1x2 window, stride 2) of q - z: (0, 1), (1, 2), (2, 3), (3, 4),
// (-1, 0), (-1, -2), (-2, -3), (5, 5); means 0.5, 1.5, 2.5, 3.5, -0.5,
// -1.5, -2.5, 5.
//   away:      1, 2, 3, 4, -1, -2, -3, 5  (+ z = 3: 4, 5, 6, 7, 2, 1, 0, 8)
//   half_even: 0, 2, 2, 4,  0, -2, -2, 5  (+ z = 3: 3, 5, 5, 7, 3, 1, 1, 8)
func.func @pairs(%xi: tensor<1x1x16x1xi8>)
    -> (tensor<1x1x8x1xi8>, tensor<1x1x8x1xi8>, tensor<1x1x8x1xi8>) {
  %x = quant.scast %xi : tensor<1x1x16x1xi8> to tensor<1x1x16x1x!Z>
  %d = qnt.avg_pool2d %x {kernel = array<i64: 1, 2>, strides = array<i64: 1, 2>}
       : tensor<1x1x16x1x!Z> -> tensor<1x1x8x1x!Z>
  %a = qnt.avg_pool2d %x {kernel = array<i64: 1, 2>, strides = array<i64: 1, 2>, rounding = "away"}
       : tensor<1x1x16x1x!Z> -> tensor<1x1x8x1x!Z>
  %e = qnt.avg_pool2d %x {kernel = array<i64: 1, 2>, strides = array<i64: 1, 2>, rounding = "half_even"}
       : tensor<1x1x16x1x!Z> -> tensor<1x1x8x1x!Z>
  %di = quant.scast %d : tensor<1x1x8x1x!Z> to tensor<1x1x8x1xi8>
  %ai = quant.scast %a : tensor<1x1x8x1x!Z> to tensor<1x1x8x1xi8>
  %ei = quant.scast %e : tensor<1x1x8x1x!Z> to tensor<1x1x8x1xi8>
  return %di, %ai, %ei : tensor<1x1x8x1xi8>, tensor<1x1x8x1xi8>, tensor<1x1x8x1xi8>
}

// u8, z = 128, 2x2 window, padding 1 on top and left, half_even. Codes
// [[130, 129], [127, 133]], i.e. q - z = [[2, 1], [-1, 5]].
// Without padding in the count, the windows hold
//   (0,0): {2} -> 2;  (0,1): {2, 1} -> 1.5 -> 2;  (1,0): {2, -1} -> 0.5 -> 0;
//   (1,1): {2, 1, -1, 5} -> 1.75 -> 2.
// With count_include_pad every divisor is 4:
//   2/4 = 0.5 -> 0; 3/4 -> 1; 1/4 -> 0; 7/4 -> 2.
// + z: [130, 130, 128, 130] and [128, 129, 128, 130].
func.func @padded(%xi: tensor<1x2x2x1xi8>) -> (tensor<1x2x2x1xi8>, tensor<1x2x2x1xi8>) {
  %x = quant.scast %xi : tensor<1x2x2x1xi8> to tensor<1x2x2x1x!U>
  %e = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>, rounding = "half_even"}
       : tensor<1x2x2x1x!U> -> tensor<1x2x2x1x!U>
  %i = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>, count_include_pad = true, rounding = "half_even"}
       : tensor<1x2x2x1x!U> -> tensor<1x2x2x1x!U>
  %ei = quant.scast %e : tensor<1x2x2x1x!U> to tensor<1x2x2x1xi8>
  %ii = quant.scast %i : tensor<1x2x2x1x!U> to tensor<1x2x2x1xi8>
  return %ei, %ii : tensor<1x2x2x1xi8>, tensor<1x2x2x1xi8>
}

// A 6x6 global pool (count 36, EfficientNet's squeeze-excitation size).
// Channel 0: 18 codes 2 and 18 codes 3, sum 90, mean 2.5 -> 2 (away: 3).
// Channel 1: 18 codes 3 and 18 codes 4, sum 126, mean 3.5 -> 4 (away: 4).
// Channel 2: 18 codes -3 and 18 codes -2, sum -90, mean -2.5 -> -2
// (away: -3). Channel 3: 35 codes 1 and one 20, sum 55, 1.53 -> 2 (no tie).
func.func @global36(%xi: tensor<1x6x6x4xi8>) -> (tensor<1x1x1x4xi8>, tensor<1x1x1x4xi8>) {
  %x = quant.scast %xi : tensor<1x6x6x4xi8> to tensor<1x6x6x4x!G>
  %e = qnt.avg_pool2d %x {kernel = array<i64: 6, 6>, rounding = "half_even"}
       : tensor<1x6x6x4x!G> -> tensor<1x1x1x4x!G>
  %a = qnt.avg_pool2d %x {kernel = array<i64: 6, 6>}
       : tensor<1x6x6x4x!G> -> tensor<1x1x1x4x!G>
  %ei = quant.scast %e : tensor<1x1x1x4x!G> to tensor<1x1x1x4xi8>
  %ai = quant.scast %a : tensor<1x1x1x4x!G> to tensor<1x1x1x4xi8>
  return %ei, %ai : tensor<1x1x1x4xi8>, tensor<1x1x1x4xi8>
}

func.func @main() {
  %px = arith.constant dense<[[[[3], [4], [4], [5], [5], [6], [6], [7], [2], [3], [2], [1], [1], [0], [8], [8]]]]> : tensor<1x1x16x1xi8>
  %pd, %pa, %pe = call @pairs(%px) : (tensor<1x1x16x1xi8>) -> (tensor<1x1x8x1xi8>, tensor<1x1x8x1xi8>, tensor<1x1x8x1xi8>)
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[4],
  // CHECK-NEXT: [5],
  // CHECK-NEXT: [6],
  // CHECK-NEXT: [7],
  // CHECK-NEXT: [2],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [0],
  // CHECK-NEXT: [8]]]]
  call @print(%pd) : (tensor<1x1x8x1xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[4],
  // CHECK-NEXT: [5],
  // CHECK-NEXT: [6],
  // CHECK-NEXT: [7],
  // CHECK-NEXT: [2],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [0],
  // CHECK-NEXT: [8]]]]
  call @print(%pa) : (tensor<1x1x8x1xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[3],
  // CHECK-NEXT: [5],
  // CHECK-NEXT: [5],
  // CHECK-NEXT: [7],
  // CHECK-NEXT: [3],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [8]]]]
  call @print(%pe) : (tensor<1x1x8x1xi8>) -> ()

  // u8 codes 130, 129, 127, 133 as signless i8 bits.
  %ux = arith.constant dense<[[[[-126], [-127]], [[127], [-123]]]]> : tensor<1x2x2x1xi8>
  %ue, %ui = call @padded(%ux) : (tensor<1x2x2x1xi8>) -> (tensor<1x2x2x1xi8>, tensor<1x2x2x1xi8>)
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[130],
  // CHECK-NEXT: [130]],
  // CHECK-NEXT: {{\[}}[128],
  // CHECK-NEXT: [130]]]]
  %uem = bufferization.to_buffer %ue : tensor<1x2x2x1xi8> to memref<1x2x2x1xi8>
  %ueu = memref.cast %uem : memref<1x2x2x1xi8> to memref<*xi8>
  call @printMemrefU8(%ueu) : (memref<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[128],
  // CHECK-NEXT: [129]],
  // CHECK-NEXT: {{\[}}[128],
  // CHECK-NEXT: [130]]]]
  %uim = bufferization.to_buffer %ui : tensor<1x2x2x1xi8> to memref<1x2x2x1xi8>
  %uiu = memref.cast %uim : memref<1x2x2x1xi8> to memref<*xi8>
  call @printMemrefU8(%uiu) : (memref<*xi8>) -> ()

  %gx = arith.constant dense<[
    [[[2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1]],
     [[2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1]],
     [[2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 1], [2, 3, -3, 20]],
     [[3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1]],
     [[3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1]],
     [[3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1], [3, 4, -2, 1]]]]> : tensor<1x6x6x4xi8>
  %ge, %ga = call @global36(%gx) : (tensor<1x6x6x4xi8>) -> (tensor<1x1x1x4xi8>, tensor<1x1x1x4xi8>)
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[2, 4, -2, 2]]]]
  %gem = bufferization.to_buffer %ge : tensor<1x1x1x4xi8> to memref<1x1x1x4xi8>
  %geu = memref.cast %gem : memref<1x1x1x4xi8> to memref<*xi8>
  call @printMemrefI8(%geu) : (memref<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[3, 4, -3, 2]]]]
  %gam = bufferization.to_buffer %ga : tensor<1x1x1x4xi8> to memref<1x1x1x4xi8>
  %gau = memref.cast %gam : memref<1x1x1x4xi8> to memref<*xi8>
  call @printMemrefI8(%gau) : (memref<*xi8>) -> ()
  return
}
