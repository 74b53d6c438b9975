// The whole-network ops and the shape ops on the reference model, through
// %quant_ref_run (generic form, then quant-ref-run). Every expected value is
// derived by hand in the comments (the same derivations as
// unittests/Reference/NetworkKernelsTest.cpp).
// RUN: %quant_ref_run %s | FileCheck %s

!I = !quant.uniform<i8:f32, 1.0>
!Y2 = !quant.uniform<i8:f32, 2.0:10>
!U = !quant.uniform<u8:f32, 0.5:100>
!Q = !quant.uniform<i8:f32, 0.25>
!Q8 = !quant.uniform<i8:f32, 0.125>

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefF32(memref<*xf32>)

func.func @print4(%y: tensor<4x!Y2>) {
  %i = quant.scast %y : tensor<4x!Y2> to tensor<4xi8>
  %m = bufferization.to_buffer %i : tensor<4xi8> to memref<4xi8>
  %u = memref.cast %m : memref<4xi8> to memref<*xi8>
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()
  return
}

func.func @main() {
  // a = [1, -1, 3, -3] at scale 1 plus b = [0] (broadcast), result scale 2,
  // zero point 10: y = a / 2 = [0.5, -0.5, 1.5, -1.5], all ties.
  %a = qnt.constant dense<[1, -1, 3, -3]> : tensor<4xi8> -> tensor<4x!I>
  %b = qnt.constant dense<[0]> : tensor<1xi8> -> tensor<1x!I>
  // double (the default): the high multiply is exact, the final divide
  // rounds away from zero: [1, -1, 2, -2] + 10.
  // CHECK: data =
  // CHECK-NEXT: [11,  9,  12,  8]
  %d = qnt.add %a, %b : tensor<4x!I>, tensor<1x!I> -> tensor<4x!Y2>
  call @print4(%d) : (tensor<4x!Y2>) -> ()
  // single: floor(v + 1/2) = [1, 0, 2, -1] + 10.
  // CHECK: data =
  // CHECK-NEXT: [11,  10,  12,  9]
  %s = qnt.add %a, %b {rounding = "single"} : tensor<4x!I>, tensor<1x!I> -> tensor<4x!Y2>
  call @print4(%s) : (tensor<4x!Y2>) -> ()
  // away: [1, -1, 2, -2] + 10.
  // CHECK: data =
  // CHECK-NEXT: [11,  9,  12,  8]
  %w = qnt.add %a, %b {rounding = "away"} : tensor<4x!I>, tensor<1x!I> -> tensor<4x!Y2>
  call @print4(%w) : (tensor<4x!Y2>) -> ()
  // half_even and float: [0, 0, 2, -2] + 10.
  // CHECK: data =
  // CHECK-NEXT: [10,  10,  12,  8]
  %h = qnt.add %a, %b {rounding = "half_even"} : tensor<4x!I>, tensor<1x!I> -> tensor<4x!Y2>
  call @print4(%h) : (tensor<4x!Y2>) -> ()
  // CHECK: data =
  // CHECK-NEXT: [10,  10,  12,  8]
  %f = qnt.add %a, %b {rounding = "float"} : tensor<4x!I>, tensor<1x!I> -> tensor<4x!Y2>
  call @print4(%f) : (tensor<4x!Y2>) -> ()
  // double with clamp [10, 11]: [11, 9, 12, 8] -> [11, 10, 11, 10].
  // CHECK: data =
  // CHECK-NEXT: [11,  10,  11,  10]
  %c = qnt.add %a, %b {clamp = array<i64: 10, 11>} : tensor<4x!I>, tensor<1x!I> -> tensor<4x!Y2>
  call @print4(%c) : (tensor<4x!Y2>) -> ()

  // Max pool, 1x2x2x1 [[-5, -3], [-7, -9]], kernel 2x2, padding 1: windows
  // hold only real codes, so no padded value (0) wins:
  // [-5, -3, -3; -5, -3, -3; -7, -7, -9].
  %mx = qnt.constant dense<[[[[-5], [-3]], [[-7], [-9]]]]> : tensor<1x2x2x1xi8> -> tensor<1x2x2x1x!I>
  %mp = qnt.max_pool2d %mx {kernel = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : tensor<1x2x2x1x!I> -> tensor<1x3x3x1x!I>
  %mpi = quant.scast %mp : tensor<1x3x3x1x!I> to tensor<1x3x3x1xi8>
  %mpf = tensor.collapse_shape %mpi [[0, 1, 2, 3]] : tensor<1x3x3x1xi8> into tensor<9xi8>
  %mpm = bufferization.to_buffer %mpf : tensor<9xi8> to memref<9xi8>
  %mpu = memref.cast %mpm : memref<9xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [-5,  -3,  -3,  -5,  -3,  -3,  -7,  -7,  -9]
  call @printMemrefI8(%mpu) : (memref<*xi8>) -> ()

  // Avg pool, u8 z = 100, codes [[104, 108], [112, 116]] (q - z = 4, 8, 12,
  // 16), kernel 2x2, padding top 1 / left 1:
  //   exclude padding: 4/1, 12/2, 16/2, 40/4 -> 104, 106, 108, 110
  //   include padding: 4/4, 12/4, 16/4, 40/4 -> 101, 103, 104, 110
  %ax = qnt.constant dense<[[[[104], [108]], [[112], [116]]]]> : tensor<1x2x2x1xui8> -> tensor<1x2x2x1x!U>
  %ae = qnt.avg_pool2d %ax {kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>}
      : tensor<1x2x2x1x!U> -> tensor<1x2x2x1x!U>
  %ai = qnt.avg_pool2d %ax {kernel = array<i64: 2, 2>, padding = array<i64: 1, 0, 1, 0>, count_include_pad = true}
      : tensor<1x2x2x1x!U> -> tensor<1x2x2x1x!U>
  %acat = qnt.concat %ae, %ai {axis = 0 : i64} : tensor<1x2x2x1x!U>, tensor<1x2x2x1x!U> -> tensor<2x2x2x1x!U>
  %aci = quant.scast %acat : tensor<2x2x2x1x!U> to tensor<2x2x2x1xi8>
  %acf = tensor.collapse_shape %aci [[0, 1, 2, 3]] : tensor<2x2x2x1xi8> into tensor<8xi8>
  %acm = bufferization.to_buffer %acf : tensor<8xi8> to memref<8xi8>
  %acu = memref.cast %acm : memref<8xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [104,  106,  108,  110,  101,  103,  104,  110]
  call @printMemrefU8(%acu) : (memref<*xi8>) -> ()

  // Concat into scale 0.25: [7] has the result's parameters (copied); [1, -3]
  // at scale 0.125 is requantized by M = 0.5 to the ties [0.5, -1.5]:
  // double -> [1, -1] (the high multiply rounds halves up), half_even ->
  // [0, -2].
  %c1 = qnt.constant dense<[7]> : tensor<1xi8> -> tensor<1x!Q>
  %c2 = qnt.constant dense<[1, -3]> : tensor<2xi8> -> tensor<2x!Q8>
  %cd = qnt.concat %c1, %c2 {axis = 0 : i64} : tensor<1x!Q>, tensor<2x!Q8> -> tensor<3x!Q>
  %ch = qnt.concat %c1, %c2 {axis = 0 : i64, rounding = "half_even"} : tensor<1x!Q>, tensor<2x!Q8> -> tensor<3x!Q>
  %cc = qnt.concat %cd, %ch {axis = 0 : i64} : tensor<3x!Q>, tensor<3x!Q> -> tensor<6x!Q>
  %cci = quant.scast %cc : tensor<6x!Q> to tensor<6xi8>
  %ccm = bufferization.to_buffer %cci : tensor<6xi8> to memref<6xi8>
  %ccu = memref.cast %ccm : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [7,  1,  -1,  7,  0,  -2]
  call @printMemrefI8(%ccu) : (memref<*xi8>) -> ()

  // Shape ops on a quantized 2x3 [[1, 2, 3], [4, 5, 6]]:
  // extract_slice offsets [0, 1] sizes [2, 2] -> [[2, 3], [5, 6]];
  // offsets [0, 0] sizes [2, 2] strides [1, 2] -> [[1, 3], [4, 6]];
  // transpose -> [[1, 4], [2, 5], [3, 6]].
  %sx = qnt.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8> -> tensor<2x3x!I>
  %s1 = tensor.extract_slice %sx[0, 1] [2, 2] [1, 1] : tensor<2x3x!I> to tensor<2x2x!I>
  %s2 = tensor.extract_slice %sx[0, 0] [2, 2] [1, 2] : tensor<2x3x!I> to tensor<2x2x!I>
  %init = tensor.empty() : tensor<3x2x!I>
  %tr = linalg.transpose ins(%sx : tensor<2x3x!I>) outs(%init : tensor<3x2x!I>) permutation = [1, 0]
  %s1f = tensor.collapse_shape %s1 [[0, 1]] : tensor<2x2x!I> into tensor<4x!I>
  %s2f = tensor.collapse_shape %s2 [[0, 1]] : tensor<2x2x!I> into tensor<4x!I>
  %trf = tensor.collapse_shape %tr [[0, 1]] : tensor<3x2x!I> into tensor<6x!I>
  %all = qnt.concat %s1f, %s2f, %trf {axis = 0 : i64} : tensor<4x!I>, tensor<4x!I>, tensor<6x!I> -> tensor<14x!I>
  %alli = quant.scast %all : tensor<14x!I> to tensor<14xi8>
  %allm = bufferization.to_buffer %alli : tensor<14xi8> to memref<14xi8>
  %allu = memref.cast %allm : memref<14xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [2,  3,  5,  6,  1,  3,  4,  6,  1,  4,  2,  5,  3,  6]
  call @printMemrefI8(%allu) : (memref<*xi8>) -> ()

  // tensor.bitcast keeps the bits: ui8 200 reads as i8 -56, and back.
  %raw = arith.constant dense<[200, 1]> : tensor<2xui8>
  %sig = tensor.bitcast %raw : tensor<2xui8> to tensor<2xi8>
  %sigm = bufferization.to_buffer %sig : tensor<2xi8> to memref<2xi8>
  %sigu = memref.cast %sigm : memref<2xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [-56,  1]
  call @printMemrefI8(%sigu) : (memref<*xi8>) -> ()

  // Softmax over rows: [0, 0] -> [0.5, 0.5]; [1000, 1000] would overflow
  // expf without the max subtraction, with it it is [0.5, 0.5] too;
  // [0, 0, 0, 0] -> 0.25 each.
  %sm = arith.constant dense<[[0.0, 0.0], [1000.0, 1000.0]]> : tensor<2x2xf32>
  %smi = tensor.empty() : tensor<2x2xf32>
  %smr = linalg.softmax dimension(1) ins(%sm : tensor<2x2xf32>) outs(%smi : tensor<2x2xf32>) -> tensor<2x2xf32>
  %smm = bufferization.to_buffer %smr : tensor<2x2xf32> to memref<2x2xf32>
  %smu = memref.cast %smm : memref<2x2xf32> to memref<*xf32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0.5,   0.5],
  // CHECK-NEXT:  [0.5,   0.5]]
  call @printMemrefF32(%smu) : (memref<*xf32>) -> ()
  %s4 = arith.constant dense<[[0.0, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>
  %s4i = tensor.empty() : tensor<1x4xf32>
  %s4r = linalg.softmax dimension(1) ins(%s4 : tensor<1x4xf32>) outs(%s4i : tensor<1x4xf32>) -> tensor<1x4xf32>
  %s4m = bufferization.to_buffer %s4r : tensor<1x4xf32> to memref<1x4xf32>
  %s4u = memref.cast %s4m : memref<1x4xf32> to memref<*xf32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0.25,   0.25,   0.25,   0.25]]
  call @printMemrefF32(%s4u) : (memref<*xf32>) -> ()
  return
}
