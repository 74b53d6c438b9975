// Upstream shape ops take quantized tensors directly through --qnt-to-llvm
// (no quant.scast round trip): a classifier head pools, flattens with
// tensor.collapse_shape and runs qnt.matmul; expand_shape, extract_slice and
// linalg.transpose move codes; per-axis types pass where their axis stays in
// place. Expected values are worked by hand in the comments.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

// The shape ops keep their quantized element types until
// qnt-strip-quant-types, which gives them (and linalg.transpose's region)
// storage integers.
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-network-to-integer,qnt-fold-zero-points,qnt-fixed-point-multiplier),qnt-strip-quant-types)" | FileCheck %s --check-prefix=STRIP
// STRIP-LABEL: func.func @head
// STRIP: tensor.collapse_shape %{{.*}} {{\[}}[0], [1, 2, 3]] : tensor<1x1x1x2xi8> into tensor<1x2xi8>
// STRIP-LABEL: func.func @transpose
// STRIP: linalg.transpose ins(%{{.*}} : tensor<2x3xi8>) outs(%{{.*}} : tensor<3x2xi8>) permutation = [1, 0]

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefF32(memref<*xf32>)

!X = !quant.uniform<u8:f32, 0.25:128>
!W = !quant.uniform<i8:f32, 0.5>
!A = !quant.uniform<i32:f32, 0.125>

// Global average pool of channel 0 = [130, 134, 126, 130] and channel 1 =
// [128, 128, 132, 132] (z = 128): sums 8 and 8 over 4 -> 2 -> codes 130,
// 130. Flattened to 1x2 and multiplied by W = [3, -2] (0.5): acc = 2 * 3 +
// 2 * (-2) = 2 (0.125 each, 0.25 real), requantized to (0.25, 128): 129.
func.func @head(%xi: tensor<1x2x2x2xi8>) -> tensor<1x1xi8> {
  %x = quant.scast %xi : tensor<1x2x2x2xi8> to tensor<1x2x2x2x!X>
  %p = qnt.avg_pool2d %x {kernel = array<i64: 2, 2>} : tensor<1x2x2x2x!X> -> tensor<1x1x1x2x!X>
  %f = tensor.collapse_shape %p [[0], [1, 2, 3]] : tensor<1x1x1x2x!X> into tensor<1x2x!X>
  %wf = arith.constant dense<[[1.5], [-1.0]]> : tensor<2x1xf32>
  %w = qnt.quantize %wf : tensor<2x1xf32> -> tensor<2x1x!W>
  %a = qnt.matmul %f, %w : tensor<1x2x!X>, tensor<2x1x!W> -> tensor<1x1x!A>
  %y = qnt.requantize %a : tensor<1x1x!A> -> tensor<1x1x!X>
  %yi = quant.scast %y : tensor<1x1x!X> to tensor<1x1xi8>
  return %yi : tensor<1x1xi8>
}

// [1, 2, 3, 4] expands to [[1, 2], [3, 4]] and the max pool of that 2x2
// image is 4.
!Q = !quant.uniform<i8:f32, 0.5:1>
func.func @expand_pool(%xi: tensor<1x4xi8>) -> tensor<1x1x1x1xi8> {
  %x = quant.scast %xi : tensor<1x4xi8> to tensor<1x4x!Q>
  %e = tensor.expand_shape %x [[0], [1, 2, 3]] output_shape [1, 2, 2, 1] : tensor<1x4x!Q> into tensor<1x2x2x1x!Q>
  %m = qnt.max_pool2d %e {kernel = array<i64: 2, 2>} : tensor<1x2x2x1x!Q> -> tensor<1x1x1x1x!Q>
  %mi = quant.scast %m : tensor<1x1x1x1x!Q> to tensor<1x1x1x1xi8>
  return %mi : tensor<1x1x1x1xi8>
}

// The centre 2x2 of [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]].
func.func @slice(%xi: tensor<4x4xi8>) -> tensor<2x2xi8> {
  %x = quant.scast %xi : tensor<4x4xi8> to tensor<4x4x!Q>
  %s = tensor.extract_slice %x[1, 1] [2, 2] [1, 1] : tensor<4x4x!Q> to tensor<2x2x!Q>
  %si = quant.scast %s : tensor<2x2x!Q> to tensor<2x2xi8>
  return %si : tensor<2x2xi8>
}

// [[1, 2, 3], [4, 5, 6]] transposed, then dequantized at (0.5, z = 1):
// [[0, 1.5], [0.5, 2], [1, 2.5]].
func.func @transpose(%xi: tensor<2x3xi8>) -> tensor<3x2xf32> {
  %x = quant.scast %xi : tensor<2x3xi8> to tensor<2x3x!Q>
  %e = tensor.empty() : tensor<3x2x!Q>
  %t = linalg.transpose ins(%x : tensor<2x3x!Q>) outs(%e : tensor<3x2x!Q>) permutation = [1, 0]
  %f = qnt.dequantize %t : tensor<3x2x!Q> -> tensor<3x2xf32>
  return %f : tensor<3x2xf32>
}

// Per axis on dimension 0 (scales 0.5 and 0.25, zero points 1 and -2): the
// collapse keeps dimension 0 in place and the slice takes whole rows, so
// dequantization still reads each row's own parameters. Rows [3, 5, 7] and
// [2, 6, -2] -> slice columns 1..2 -> [[5, 7], [6, -2]] ->
// [[(5 - 1) * 0.5, (7 - 1) * 0.5], [(6 + 2) * 0.25, (-2 + 2) * 0.25]] =
// [[2, 3], [2, 0]].
!PA = !quant.uniform<i8:f32:0, {0.5:1, 0.25:-2}>
func.func @per_axis(%xi: tensor<2x1x3xi8>) -> tensor<2x2xf32> {
  %x = quant.scast %xi : tensor<2x1x3xi8> to tensor<2x1x3x!PA>
  %c = tensor.collapse_shape %x [[0], [1, 2]] : tensor<2x1x3x!PA> into tensor<2x3x!PA>
  %s = tensor.extract_slice %c[0, 1] [2, 2] [1, 1] : tensor<2x3x!PA> to tensor<2x2x!PA>
  %f = qnt.dequantize %s : tensor<2x2x!PA> -> tensor<2x2xf32>
  return %f : tensor<2x2xf32>
}

func.func @main() {
  // u8 [130, 128, 134, 128, 126, 132, 130, 132] (NHWC) as i8 bits (126 stays).
  %hx = arith.constant dense<[[[[-126, -128], [-122, -128]], [[126, -124], [-126, -124]]]]> : tensor<1x2x2x2xi8>
  %hy = call @head(%hx) : (tensor<1x2x2x2xi8>) -> tensor<1x1xi8>
  %hym = bufferization.to_buffer %hy : tensor<1x1xi8> to memref<1x1xi8>
  %hyu = memref.cast %hym : memref<1x1xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[129]]
  call @printMemrefU8(%hyu) : (memref<*xi8>) -> ()

  %ex = arith.constant dense<[[1, 2, 3, 4]]> : tensor<1x4xi8>
  %ey = call @expand_pool(%ex) : (tensor<1x4xi8>) -> tensor<1x1x1x1xi8>
  %eym = bufferization.to_buffer %ey : tensor<1x1x1x1xi8> to memref<1x1x1x1xi8>
  %eyu = memref.cast %eym : memref<1x1x1x1xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}{{\[}}[4]]]]
  call @printMemrefI8(%eyu) : (memref<*xi8>) -> ()

  %sx = arith.constant dense<[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]> : tensor<4x4xi8>
  %sy = call @slice(%sx) : (tensor<4x4xi8>) -> tensor<2x2xi8>
  %sym = bufferization.to_buffer %sy : tensor<2x2xi8> to memref<2x2xi8>
  %syu = memref.cast %sym : memref<2x2xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[5, 6],
  // CHECK-NEXT: [9, 10]]
  call @printMemrefI8(%syu) : (memref<*xi8>) -> ()

  %tx = arith.constant dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi8>
  %ty = call @transpose(%tx) : (tensor<2x3xi8>) -> tensor<3x2xf32>
  %tym = bufferization.to_buffer %ty : tensor<3x2xf32> to memref<3x2xf32>
  %tyu = memref.cast %tym : memref<3x2xf32> to memref<*xf32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0, 1.5],
  // CHECK-NEXT: [0.5, 2],
  // CHECK-NEXT: [1, 2.5]]
  call @printMemrefF32(%tyu) : (memref<*xf32>) -> ()

  %px = arith.constant dense<[[[3, 5, 7]], [[2, 6, -2]]]> : tensor<2x1x3xi8>
  %py = call @per_axis(%px) : (tensor<2x1x3xi8>) -> tensor<2x2xf32>
  %pym = bufferization.to_buffer %py : tensor<2x2xf32> to memref<2x2xf32>
  %pyu = memref.cast %pym : memref<2x2xf32> to memref<*xf32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[2, 3],
  // CHECK-NEXT: [2, 0]]
  call @printMemrefF32(%pyu) : (memref<*xf32>) -> ()
  return
}
