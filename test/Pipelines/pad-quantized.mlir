// tensor.pad and linalg.fill on quantized tensors through --qnt-to-llvm: they
// write the code their scalar holds (a quant.scast of an integer), usually
// the zero point, i.e. real 0 (docs/Semantics.md, "Padding and filling").
// Expected values are worked by hand in the comments.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s
// RUN: %quant_ref_run %s | FileCheck %s

// qnt-strip-quant-types pads and fills the storage integers with the code.
// RUN: quant-opt %s --qnt-strip-quant-types | FileCheck %s --check-prefix=STRIP
// STRIP-LABEL: func.func @pad_zero_point
// STRIP: tensor.pad %{{.*}} low[1, 1] high[0, 1]
// STRIP: %[[Z:.*]] = arith.constant 3 : i8
// STRIP-NEXT: tensor.yield %[[Z]] : i8
// STRIP-NEXT: } : tensor<2x2xi8> to tensor<3x4xi8>
// STRIP-LABEL: func.func @fill
// STRIP: linalg.fill ins(%{{.*}} : i8) outs(%{{.*}} : tensor<2x3xi8>) -> tensor<2x3xi8>

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefF32(memref<*xf32>)

!Q = !quant.uniform<i8:f32, 0.5:3>
!U = !quant.uniform<u8:f32, 0.25:128>

// [[1, 2], [3, 4]] padded by one row above and one column on each side
// with the zero point 3 (real 0):
// [[3, 3, 3, 3], [3, 1, 2, 3], [3, 3, 4, 3]].
func.func @pad_zero_point(%xi: tensor<2x2xi8>) -> tensor<3x4xi8> {
  %x = quant.scast %xi : tensor<2x2xi8> to tensor<2x2x!Q>
  %p = tensor.pad %x low[1, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %z = arith.constant 3 : i8
    %zq = quant.scast %z : i8 to !Q
    tensor.yield %zq : !Q
  } : tensor<2x2x!Q> to tensor<3x4x!Q>
  %pi = quant.scast %p : tensor<3x4x!Q> to tensor<3x4xi8>
  return %pi : tensor<3x4xi8>
}

// u8 codes [200, 10, 255] (i8 bits -56, 10, -1) padded by two in front and
// one behind with the zero point 128 (i8 bits -128), a value defined outside
// the pad: [128, 128, 200, 10, 255, 128].
func.func @pad_u8(%xi: tensor<3xi8>) -> tensor<6xi8> {
  %x = quant.scast %xi : tensor<3xi8> to tensor<3x!U>
  %z = arith.constant -128 : i8
  %zq = quant.scast %z : i8 to !U
  %p = tensor.pad %x low[2] high[1] {
  ^bb0(%i: index):
    tensor.yield %zq : !U
  } : tensor<3x!U> to tensor<6x!U>
  %pi = quant.scast %p : tensor<6x!U> to tensor<6xi8>
  return %pi : tensor<6xi8>
}

// Another code pads with that code, as written: -7 is real
// (-7 - 3) * 0.5 = -5, not 0. [[5, 6]] padded by one row below and one
// column on the right: [[5, 6, -7], [-7, -7, -7]].
func.func @pad_other_code(%xi: tensor<1x2xi8>) -> tensor<2x3xi8> {
  %x = quant.scast %xi : tensor<1x2xi8> to tensor<1x2x!Q>
  %p = tensor.pad %x low[0, 0] high[1, 1] {
  ^bb0(%i: index, %j: index):
    %c = arith.constant -7 : i8
    %cq = quant.scast %c : i8 to !Q
    tensor.yield %cq : !Q
  } : tensor<1x2x!Q> to tensor<2x3x!Q>
  %pi = quant.scast %p : tensor<2x3x!Q> to tensor<2x3xi8>
  return %pi : tensor<2x3xi8>
}

// A 2x3 tensor filled with the zero point 3: [[3, 3, 3], [3, 3, 3]].
func.func @fill() -> tensor<2x3xi8> {
  %z = arith.constant 3 : i8
  %zq = quant.scast %z : i8 to !Q
  %e = tensor.empty() : tensor<2x3x!Q>
  %f = linalg.fill ins(%zq : !Q) outs(%e : tensor<2x3x!Q>) -> tensor<2x3x!Q>
  %fi = quant.scast %f : tensor<2x3x!Q> to tensor<2x3xi8>
  return %fi : tensor<2x3xi8>
}

// u8 fill with code 200 (i8 bits -56): [200, 200, 200, 200].
func.func @fill_u8() -> tensor<4xi8> {
  %c = arith.constant -56 : i8
  %cq = quant.scast %c : i8 to !U
  %e = tensor.empty() : tensor<4x!U>
  %f = linalg.fill ins(%cq : !U) outs(%e : tensor<4x!U>) -> tensor<4x!U>
  %fi = quant.scast %f : tensor<4x!U> to tensor<4xi8>
  return %fi : tensor<4xi8>
}

// Per axis on dimension 0 (scales 0.5 and 0.25, zero points 1 and -2),
// padded by one column on each side of dimension 1 (the axis keeps its
// size). The region reads each row's own zero point from a tensor of codes,
// so every padded entry is real 0: rows [3, 5] and [2, 6] become [1, 3, 5, 1]
// and [-2, 2, 6, -2], dequantized [(1 - 1) * 0.5, (3 - 1) * 0.5,
// (5 - 1) * 0.5, 0] = [0, 1, 2, 0] and [0, (2 + 2) * 0.25, (6 + 2) * 0.25,
// 0] = [0, 1, 2, 0].
!PA = !quant.uniform<i8:f32:0, {0.5:1, 0.25:-2}>
func.func @pad_per_axis(%xi: tensor<2x2xi8>) -> tensor<2x4xf32> {
  %x = quant.scast %xi : tensor<2x2xi8> to tensor<2x2x!PA>
  %zi = arith.constant dense<[1, -2]> : tensor<2xi8>
  %zps = quant.scast %zi : tensor<2xi8> to tensor<2x!PA>
  %p = tensor.pad %x low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    %z = tensor.extract %zps[%i] : tensor<2x!PA>
    tensor.yield %z : !PA
  } : tensor<2x2x!PA> to tensor<2x4x!PA>
  %f = qnt.dequantize %p : tensor<2x4x!PA> -> tensor<2x4xf32>
  return %f : tensor<2x4xf32>
}

func.func @main() {
  %zx = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>
  %zy = call @pad_zero_point(%zx) : (tensor<2x2xi8>) -> tensor<3x4xi8>
  %zym = bufferization.to_buffer %zy : tensor<3x4xi8> to memref<3x4xi8>
  %zyu = memref.cast %zym : memref<3x4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[3, 3, 3, 3],
  // CHECK-NEXT: [3, 1, 2, 3],
  // CHECK-NEXT: [3, 3, 4, 3]]
  call @printMemrefI8(%zyu) : (memref<*xi8>) -> ()

  %ux = arith.constant dense<[-56, 10, -1]> : tensor<3xi8>
  %uy = call @pad_u8(%ux) : (tensor<3xi8>) -> tensor<6xi8>
  %uym = bufferization.to_buffer %uy : tensor<6xi8> to memref<6xi8>
  %uyu = memref.cast %uym : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [128, 128, 200, 10, 255, 128]
  call @printMemrefU8(%uyu) : (memref<*xi8>) -> ()

  %ox = arith.constant dense<[[5, 6]]> : tensor<1x2xi8>
  %oy = call @pad_other_code(%ox) : (tensor<1x2xi8>) -> tensor<2x3xi8>
  %oym = bufferization.to_buffer %oy : tensor<2x3xi8> to memref<2x3xi8>
  %oyu = memref.cast %oym : memref<2x3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[5, 6, -7],
  // CHECK-NEXT: [-7, -7, -7]]
  call @printMemrefI8(%oyu) : (memref<*xi8>) -> ()

  %fy = call @fill() : () -> tensor<2x3xi8>
  %fym = bufferization.to_buffer %fy : tensor<2x3xi8> to memref<2x3xi8>
  %fyu = memref.cast %fym : memref<2x3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[3, 3, 3],
  // CHECK-NEXT: [3, 3, 3]]
  call @printMemrefI8(%fyu) : (memref<*xi8>) -> ()

  %gy = call @fill_u8() : () -> tensor<4xi8>
  %gym = bufferization.to_buffer %gy : tensor<4xi8> to memref<4xi8>
  %gyu = memref.cast %gym : memref<4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [200, 200, 200, 200]
  call @printMemrefU8(%gyu) : (memref<*xi8>) -> ()

  %px = arith.constant dense<[[3, 5], [2, 6]]> : tensor<2x2xi8>
  %py = call @pad_per_axis(%px) : (tensor<2x2xi8>) -> tensor<2x4xf32>
  %pym = bufferization.to_buffer %py : tensor<2x4xf32> to memref<2x4xf32>
  %pyu = memref.cast %pym : memref<2x4xf32> to memref<*xf32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0, 1, 2, 0],
  // CHECK-NEXT: [0, 1, 2, 0]]
  call @printMemrefF32(%pyu) : (memref<*xf32>) -> ()
  return
}
