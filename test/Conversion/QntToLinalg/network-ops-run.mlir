// qnt.add, the pools and qnt.concat compiled by --qnt-to-llvm and run under
// mlir-runner. Every expected value is worked by hand from the shared
// semantics (docs/NetworkOps.md) in the comments.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefI16(memref<*xi16>)

!A = !quant.uniform<i8:f32, 0.5:1>
!B = !quant.uniform<u8:f32, 0.25:128>
!Y = !quant.uniform<i8:f32, 1.0:-2>

// S_a = 0.5, S_b = 0.25, S_y = 1, 8-bit result: left_shift 20, twice_max 1,
// M_a = 0.5, M_b = 0.25, M_out = 2^-20. Every step is exact except the last
// one, so y = round(t / 4) - 2 with t = 2 (a - 1) + (b - 128), the tie
// broken by the mode: double (the final divide) and single round halves
// up/away, half_even and float to even.
// a = [[1, 2, 3], [-128, 127, 0]], b = [[130, 126, 129]] (u8), broadcast:
// t = [[2, 0, 5], [-256, 250, -1]], t / 4 = [[0.5, 0, 1.25], [-64, 62.5, -0.25]].
func.func @add(%ai: tensor<2x3xi8>, %bi: tensor<1x3xi8>)
    -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>) {
  %a = quant.scast %ai : tensor<2x3xi8> to tensor<2x3x!A>
  %b = quant.scast %bi : tensor<1x3xi8> to tensor<1x3x!B>
  %d = qnt.add %a, %b : tensor<2x3x!A>, tensor<1x3x!B> -> tensor<2x3x!Y>
  %s = qnt.add %a, %b {rounding = "single"} : tensor<2x3x!A>, tensor<1x3x!B> -> tensor<2x3x!Y>
  %h = qnt.add %a, %b {rounding = "half_even"} : tensor<2x3x!A>, tensor<1x3x!B> -> tensor<2x3x!Y>
  %f = qnt.add %a, %b {rounding = "float"} : tensor<2x3x!A>, tensor<1x3x!B> -> tensor<2x3x!Y>
  %c = qnt.add %a, %b {clamp = array<i64: -10, 50>} : tensor<2x3x!A>, tensor<1x3x!B> -> tensor<2x3x!Y>
  %di = quant.scast %d : tensor<2x3x!Y> to tensor<2x3xi8>
  %si = quant.scast %s : tensor<2x3x!Y> to tensor<2x3xi8>
  %hi = quant.scast %h : tensor<2x3x!Y> to tensor<2x3xi8>
  %fi = quant.scast %f : tensor<2x3x!Y> to tensor<2x3xi8>
  %ci = quant.scast %c : tensor<2x3x!Y> to tensor<2x3xi8>
  return %di, %si, %hi, %fi, %ci : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>
}

// i16 (S = 1, z = 0) everywhere: left_shift 15, M_a = M_b = 0.5,
// M_out = 2 / 2^15 = 2^-14; exact, so y = a + b saturated to i16.
!S = !quant.uniform<i16:f32, 1.0>
func.func @add_i16(%ai: tensor<3xi16>, %bi: tensor<3xi16>) -> tensor<3xi16> {
  %a = quant.scast %ai : tensor<3xi16> to tensor<3x!S>
  %b = quant.scast %bi : tensor<3xi16> to tensor<3x!S>
  %y = qnt.add %a, %b : tensor<3x!S>, tensor<3x!S> -> tensor<3x!S>
  %yi = quant.scast %y : tensor<3x!S> to tensor<3xi16>
  return %yi : tensor<3xi16>
}

// A tiny output scale 2^-25: M_out = 1 / (2^20 * 2^-25) = 32 >= 1 takes the
// left-shift path and saturates instead of wrapping.
!T = !quant.uniform<i8:f32, 0.5>
!TY = !quant.uniform<i8:f32, 2.98023224E-8>
func.func @add_tiny_scale(%ai: tensor<3xi8>) -> tensor<3xi8> {
  %a = quant.scast %ai : tensor<3xi8> to tensor<3x!T>
  %y = qnt.add %a, %a : tensor<3x!T>, tensor<3x!T> -> tensor<3x!TY>
  %yi = quant.scast %y : tensor<3x!TY> to tensor<3xi8>
  return %yi : tensor<3xi8>
}

// u8 codes (compared unsigned), 2x2 window, top/left padding 1: padding
// never wins. Channel 0 = [[10, 200, 30], [40, 50, 60], [70, 80, 255]],
// channel 1 = [[0, 1, 2], [3, 4, 5], [6, 7, 8]].
!P = !quant.uniform<u8:f32, 0.25:128>
func.func @max_pool_u8(%xi: tensor<1x3x3x2xi8>) -> tensor<1x3x3x2xi8> {
  %x = quant.scast %xi : tensor<1x3x3x2xi8> to tensor<1x3x3x2x!P>
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>}
       : tensor<1x3x3x2x!P> -> tensor<1x3x3x2x!P>
  %yi = quant.scast %y : tensor<1x3x3x2x!P> to tensor<1x3x3x2xi8>
  return %yi : tensor<1x3x3x2xi8>
}

// Dilation 2 (extent 3), padding 1 all round, all codes negative so that a
// padding value of 0 would win: x = [[-10, -20, -30], [-40, -50, -60],
// [-70, -80, -90]].
!Q = !quant.uniform<i8:f32, 0.5>
func.func @max_pool_dilated(%xi: tensor<1x3x3x1xi8>) -> tensor<1x3x3x1xi8> {
  %x = quant.scast %xi : tensor<1x3x3x1xi8> to tensor<1x3x3x1x!Q>
  %y = qnt.max_pool2d %x {kernel = array<i64: 2, 2>, dilations = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
       : tensor<1x3x3x1x!Q> -> tensor<1x3x3x1x!Q>
  %yi = quant.scast %y : tensor<1x3x3x1x!Q> to tensor<1x3x3x1xi8>
  return %yi : tensor<1x3x3x1xi8>
}

// Dilation 3 over a 2-row input with padding 3 / 2: the one window's taps
// are rows -3, 0 and 3, so only row 0 is read (row 1 = 100 never wins).
func.func @max_pool_straddle(%xi: tensor<1x2x4x1xi8>) -> tensor<1x1x4x1xi8> {
  %x = quant.scast %xi : tensor<1x2x4x1xi8> to tensor<1x2x4x1x!Q>
  %y = qnt.max_pool2d %x {kernel = array<i64: 3, 1>, dilations = array<i64: 3, 1>, padding = array<i64: 3, 2, 0, 0>}
       : tensor<1x2x4x1x!Q> -> tensor<1x1x4x1x!Q>
  %yi = quant.scast %y : tensor<1x1x4x1x!Q> to tensor<1x1x4x1xi8>
  return %yi : tensor<1x1x4x1xi8>
}

// z = 1; x = [[1, 4, 2], [8, -9, 6], [-2, 5, 7]], i.e. q - z = [[0, 3, 1],
// [7, -10, 5], [-3, 4, 6]]; 2x2 window, top/left padding 1.
// Without padding in the count: sums / counts = [[0/1, 3/2, 4/2],
// [7/2, 0/4, -1/4], [4/2, -2/4, 5/4]] -> [[0, 2, 2], [4, 0, 0], [2, -1, 1]]
// (halves away from zero), + z.
// With count_include_pad every divisor is 4: [[0, 0.75, 1], [1.75, 0, -0.25],
// [1, -0.5, 1.25]] -> [[0, 1, 1], [2, 0, 0], [1, -1, 1]], + z.
!V = !quant.uniform<i8:f32, 0.5:1>
func.func @avg_pool(%xi: tensor<1x3x3x1xi8>) -> (tensor<1x3x3x1xi8>, tensor<1x3x3x1xi8>) {
  %x = quant.scast %xi : tensor<1x3x3x1xi8> to tensor<1x3x3x1x!V>
  %e = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>}
       : tensor<1x3x3x1x!V> -> tensor<1x3x3x1x!V>
  %i = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>, count_include_pad = true}
       : tensor<1x3x3x1x!V> -> tensor<1x3x3x1x!V>
  %ei = quant.scast %e : tensor<1x3x3x1x!V> to tensor<1x3x3x1xi8>
  %ii = quant.scast %i : tensor<1x3x3x1x!V> to tensor<1x3x3x1xi8>
  return %ei, %ii : tensor<1x3x3x1xi8>, tensor<1x3x3x1xi8>
}

// Global average pooling, per channel zero points 10 and -20:
// channel 0 = [10, 12, 13, 20]: (0 + 2 + 3 + 10) / 4 = 3.75 -> 4, y = 14;
// channel 1 = [-20, -21, -22, -20]: (0 - 1 - 2 + 0) / 4 = -0.75 -> -1, y = -21.
!G = !quant.uniform<i8:f32:3, {0.5:10, 0.25:-20}>
func.func @global_avg_pool(%xi: tensor<1x2x2x2xi8>) -> tensor<1x1x1x2xi8> {
  %x = quant.scast %xi : tensor<1x2x2x2xi8> to tensor<1x2x2x2x!G>
  %y = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>} : tensor<1x2x2x2x!G> -> tensor<1x1x1x2x!G>
  %yi = quant.scast %y : tensor<1x1x1x2x!G> to tensor<1x1x1x2xi8>
  return %yi : tensor<1x1x1x2xi8>
}

// a (0.5, z = 1) = [3, -4] is requantized to (1.0, z = -2) with M = 0.5:
// (3 - 1) / 2 = 1 -> -1; (-4 - 1) / 2 = -2.5 -> -2 (double: tie toward
// +inf) or -3 (away), -> -4 / -5. b has the result's parameters and the
// narrow c the same scale and zero point: both copied bit for bit.
!N = !quant.uniform<i8<-127:127>:f32, 1.0:-2>
func.func @concat(%ai: tensor<1x2xi8>, %bi: tensor<1x3xi8>, %ci: tensor<1x1xi8>) -> (tensor<1x6xi8>, tensor<1x6xi8>) {
  %a = quant.scast %ai : tensor<1x2xi8> to tensor<1x2x!A>
  %b = quant.scast %bi : tensor<1x3xi8> to tensor<1x3x!Y>
  %c = quant.scast %ci : tensor<1x1xi8> to tensor<1x1x!N>
  %d = qnt.concat %a, %b, %c {axis = 1 : i64} : tensor<1x2x!A>, tensor<1x3x!Y>, tensor<1x1x!N> -> tensor<1x6x!Y>
  %w = qnt.concat %a, %b, %c {axis = 1 : i64, rounding = "away"} : tensor<1x2x!A>, tensor<1x3x!Y>, tensor<1x1x!N> -> tensor<1x6x!Y>
  %di = quant.scast %d : tensor<1x6x!Y> to tensor<1x6xi8>
  %wi = quant.scast %w : tensor<1x6x!Y> to tensor<1x6xi8>
  return %di, %wi : tensor<1x6xi8>, tensor<1x6xi8>
}

func.func @print8(%t: tensor<*xi8>) {
  %m = bufferization.to_buffer %t : tensor<*xi8> to memref<*xi8>
  call @printMemrefI8(%m) : (memref<*xi8>) -> ()
  return
}

func.func @main() {
  %a = arith.constant dense<[[1, 2, 3], [-128, 127, 0]]> : tensor<2x3xi8>
  // u8 [130, 126, 129] as i8 bits.
  %b = arith.constant dense<[[-126, 126, -127]]> : tensor<1x3xi8>
  %d, %s, %h, %f, %c = call @add(%a, %b)
      : (tensor<2x3xi8>, tensor<1x3xi8>) -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>)
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-1, -2, -1],
  // CHECK-NEXT: [-66, 61, -2]]
  %du = tensor.cast %d : tensor<2x3xi8> to tensor<*xi8>
  call @print8(%du) : (tensor<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-1, -2, -1],
  // CHECK-NEXT: [-66, 61, -2]]
  %su = tensor.cast %s : tensor<2x3xi8> to tensor<*xi8>
  call @print8(%su) : (tensor<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-2, -2, -1],
  // CHECK-NEXT: [-66, 60, -2]]
  %hu = tensor.cast %h : tensor<2x3xi8> to tensor<*xi8>
  call @print8(%hu) : (tensor<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-2, -2, -1],
  // CHECK-NEXT: [-66, 60, -2]]
  %fu = tensor.cast %f : tensor<2x3xi8> to tensor<*xi8>
  call @print8(%fu) : (tensor<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-1, -2, -1],
  // CHECK-NEXT: [-10, 50, -2]]
  %cu = tensor.cast %c : tensor<2x3xi8> to tensor<*xi8>
  call @print8(%cu) : (tensor<*xi8>) -> ()

  %a16 = arith.constant dense<[30000, -30000, 100]> : tensor<3xi16>
  %b16 = arith.constant dense<[30000, -30000, -300]> : tensor<3xi16>
  %y16 = call @add_i16(%a16, %b16) : (tensor<3xi16>, tensor<3xi16>) -> tensor<3xi16>
  %y16m = bufferization.to_buffer %y16 : tensor<3xi16> to memref<3xi16>
  %y16u = memref.cast %y16m : memref<3xi16> to memref<*xi16>
  // CHECK: data =
  // CHECK-NEXT: [32767, -32768, -200]
  call @printMemrefI16(%y16u) : (memref<*xi16>) -> ()

  %t = arith.constant dense<[1, -1, 0]> : tensor<3xi8>
  %ty = call @add_tiny_scale(%t) : (tensor<3xi8>) -> tensor<3xi8>
  // CHECK: data =
  // CHECK-NEXT: [127, -128, 0]
  %tyu = tensor.cast %ty : tensor<3xi8> to tensor<*xi8>
  call @print8(%tyu) : (tensor<*xi8>) -> ()

  // u8 [[10, 200, 30], [40, 50, 60], [70, 80, 255]] interleaved with 0..8,
  // as i8 bits (200 = -56, 255 = -1).
  %px = arith.constant dense<[[[[10, 0], [-56, 1], [30, 2]], [[40, 3], [50, 4], [60, 5]], [[70, 6], [80, 7], [-1, 8]]]]> : tensor<1x3x3x2xi8>
  %py = call @max_pool_u8(%px) : (tensor<1x3x3x2xi8>) -> tensor<1x3x3x2xi8>
  %pym = bufferization.to_buffer %py : tensor<1x3x3x2xi8> to memref<1x3x3x2xi8>
  %pyu = memref.cast %pym : memref<1x3x3x2xi8> to memref<*xi8>
  // Channel 0 windows: {10} {10,200} {200,30} / {10,40} {10,200,40,50}
  // {200,30,50,60} / {40,70} {40,50,70,80} {50,60,80,255}; channel 1 the
  // bottom-right element of each window.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[10, 0],
  // CHECK-NEXT: [200, 1],
  // CHECK-NEXT: [200, 2]],
  // CHECK-NEXT: {{\[}}[40, 3],
  // CHECK-NEXT: [200, 4],
  // CHECK-NEXT: [200, 5]],
  // CHECK-NEXT: {{\[}}[70, 6],
  // CHECK-NEXT: [80, 7],
  // CHECK-NEXT: [255, 8]]]]
  call @printMemrefU8(%pyu) : (memref<*xi8>) -> ()

  %dx = arith.constant dense<[[[[-10], [-20], [-30]], [[-40], [-50], [-60]], [[-70], [-80], [-90]]]]> : tensor<1x3x3x1xi8>
  %dy = call @max_pool_dilated(%dx) : (tensor<1x3x3x1xi8>) -> tensor<1x3x3x1xi8>
  // Window of (oh, ow): rows oh - 1 and oh + 1, columns ow - 1 and ow + 1.
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[-50],
  // CHECK-NEXT: [-40],
  // CHECK-NEXT: [-50]],
  // CHECK-NEXT: {{\[}}[-20],
  // CHECK-NEXT: [-10],
  // CHECK-NEXT: [-20]],
  // CHECK-NEXT: {{\[}}[-50],
  // CHECK-NEXT: [-40],
  // CHECK-NEXT: [-50]]]]
  %dyu = tensor.cast %dy : tensor<1x3x3x1xi8> to tensor<*xi8>
  call @print8(%dyu) : (tensor<*xi8>) -> ()

  %sx = arith.constant dense<[[[[-5], [7], [-100], [3]], [[100], [100], [100], [100]]]]> : tensor<1x2x4x1xi8>
  %sy = call @max_pool_straddle(%sx) : (tensor<1x2x4x1xi8>) -> tensor<1x1x4x1xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[-5],
  // CHECK-NEXT: [7],
  // CHECK-NEXT: [-100],
  // CHECK-NEXT: [3]]]]
  %syu = tensor.cast %sy : tensor<1x1x4x1xi8> to tensor<*xi8>
  call @print8(%syu) : (tensor<*xi8>) -> ()

  %vx = arith.constant dense<[[[[1], [4], [2]], [[8], [-9], [6]], [[-2], [5], [7]]]]> : tensor<1x3x3x1xi8>
  %ve, %vi = call @avg_pool(%vx) : (tensor<1x3x3x1xi8>) -> (tensor<1x3x3x1xi8>, tensor<1x3x3x1xi8>)
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[1],
  // CHECK-NEXT: [3],
  // CHECK-NEXT: [3]],
  // CHECK-NEXT: {{\[}}[5],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [1]],
  // CHECK-NEXT: {{\[}}[3],
  // CHECK-NEXT: [0],
  // CHECK-NEXT: [2]]]]
  %veu = tensor.cast %ve : tensor<1x3x3x1xi8> to tensor<*xi8>
  call @print8(%veu) : (tensor<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[1],
  // CHECK-NEXT: [2],
  // CHECK-NEXT: [2]],
  // CHECK-NEXT: {{\[}}[3],
  // CHECK-NEXT: [1],
  // CHECK-NEXT: [1]],
  // CHECK-NEXT: {{\[}}[2],
  // CHECK-NEXT: [0],
  // CHECK-NEXT: [2]]]]
  %viu = tensor.cast %vi : tensor<1x3x3x1xi8> to tensor<*xi8>
  call @print8(%viu) : (tensor<*xi8>) -> ()

  %gx = arith.constant dense<[[[[10, -20], [12, -21]], [[13, -22], [20, -20]]]]> : tensor<1x2x2x2xi8>
  %gy = call @global_avg_pool(%gx) : (tensor<1x2x2x2xi8>) -> tensor<1x1x1x2xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[14, -21]]]]
  %gyu = tensor.cast %gy : tensor<1x1x1x2xi8> to tensor<*xi8>
  call @print8(%gyu) : (tensor<*xi8>) -> ()

  %ca = arith.constant dense<[[3, -4]]> : tensor<1x2xi8>
  %cb = arith.constant dense<[[5, -128, 127]]> : tensor<1x3xi8>
  %cc = arith.constant dense<[[-127]]> : tensor<1x1xi8>
  %cd, %cw = call @concat(%ca, %cb, %cc) : (tensor<1x2xi8>, tensor<1x3xi8>, tensor<1x1xi8>) -> (tensor<1x6xi8>, tensor<1x6xi8>)
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-1, -4, 5, -128, 127, -127]]
  %cdu = tensor.cast %cd : tensor<1x6xi8> to tensor<*xi8>
  call @print8(%cdu) : (tensor<*xi8>) -> ()
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-1, -5, 5, -128, 127, -127]]
  %cwu = tensor.cast %cw : tensor<1x6xi8> to tensor<*xi8>
  call @print8(%cwu) : (tensor<*xi8>) -> ()
  return
}
