// The runtime-scale ops (contract "Version 2 additions", docs/RuntimeScales.md)
// on edge inputs: NaN, infinities, all-zero slices, ties at .5, saturation,
// i32 codes beyond 2^24, ui8 / i16 codes, every broadcast shape. Run on the
// reference model and compiled through --qnt-to-llvm under mlir-runner (the
// per-target tests run the same file natively and under qemu); the two must
// agree bit for bit (f32 results are printed as their bits; NaNs compare as
// NaN whatever their payload, --f32-bits). The hand-computed values are
// checked on both outputs.
// RUN: %quant_ref_run %s > %t.reference
// RUN: FileCheck %s < %t.reference
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd > %t.compiled
// RUN: FileCheck %s < %t.compiled
// RUN: %compare_outputs --f32-bits 0 --f32-bits 1 --f32-bits 2 --f32-bits 3 --f32-bits 8 --f32-bits 11 --f32-bits 14 --f32-bits 17 --f32-bits 20 --f32-bits 23 --f32-bits 26 --f32-bits 29 --f32-bits 31 %t.reference %t.compiled | FileCheck %s --check-prefix=AGREE
// AGREE: agreement: 142/142 printed values identical

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefI16(memref<*xi16>)
func.func private @printMemrefI32(memref<*xi32>)

//===----------------------------------------------------------------------===//
// dequantize_dynamic
//===----------------------------------------------------------------------===//

// i8 codes, per-row scale (Rx1), per-column offset (1xC).
func.func @deq_i8(%src: tensor<3x4xi8>, %scale: tensor<3x1xf32>,
                  %offset: tensor<1x4xf32>) -> tensor<3x4xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<3x4xi8>, tensor<3x1xf32>, tensor<1x4xf32> -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// ui8 codes, per-column scale, per-tensor offset.
func.func @deq_u8(%src: tensor<2x3xui8>, %scale: tensor<1x3xf32>,
                  %offset: tensor<1x1xf32>) -> tensor<2x3xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<2x3xui8>, tensor<1x3xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// i16 codes, a 3-D broadcast: scale 2x1x2, offset 1x2x1.
func.func @deq_i16(%src: tensor<2x2x2xi16>, %scale: tensor<2x1x2xf32>,
                   %offset: tensor<1x2x1xf32>) -> tensor<2x2x2xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<2x2x2xi16>, tensor<2x1x2xf32>, tensor<1x2x1xf32> -> tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

// i32 accumulators (full scale), converted to f32 with ties to even.
func.func @deq_i32(%src: tensor<1x6xi32>, %scale: tensor<1x6xf32>,
                   %offset: tensor<1x6xf32>) -> tensor<1x6xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<1x6xi32>, tensor<1x6xf32>, tensor<1x6xf32> -> tensor<1x6xf32>
  return %r : tensor<1x6xf32>
}

//===----------------------------------------------------------------------===//
// quantize_dynamic
//===----------------------------------------------------------------------===//

func.func @q_i8(%x: tensor<3x6xf32>, %scale: tensor<3x1xf32>,
                %offset: tensor<3x1xf32>) -> tensor<3x6xi8> {
  %q = qnt.quantize_dynamic %x, %scale, %offset
     : tensor<3x6xf32>, tensor<3x1xf32>, tensor<3x1xf32> -> tensor<3x6xi8>
  return %q : tensor<3x6xi8>
}

func.func @q_u8(%x: tensor<2x3xf32>, %scale: tensor<1x3xf32>,
                %offset: tensor<1x1xf32>) -> tensor<2x3xui8> {
  %q = qnt.quantize_dynamic %x, %scale, %offset
     : tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x1xf32> -> tensor<2x3xui8>
  return %q : tensor<2x3xui8>
}

func.func @q_i16(%x: tensor<1x4xf32>, %scale: tensor<1x1xf32>,
                 %offset: tensor<1x1xf32>) -> tensor<1x4xi16> {
  %q = qnt.quantize_dynamic %x, %scale, %offset
     : tensor<1x4xf32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<1x4xi16>
  return %q : tensor<1x4xi16>
}

//===----------------------------------------------------------------------===//
// dynamic_quantize
//===----------------------------------------------------------------------===//

func.func @onnx6(%x: tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<6xf32> -> tensor<6xui8>, tensor<f32>, tensor<ui8>
  return %c, %s, %z : tensor<6xui8>, tensor<f32>, tensor<ui8>
}

func.func @onnx2x2(%x: tensor<2x2xf32>) -> (tensor<2x2xui8>, tensor<f32>, tensor<ui8>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<2x2xf32> -> tensor<2x2xui8>, tensor<f32>, tensor<ui8>
  return %c, %s, %z : tensor<2x2xui8>, tensor<f32>, tensor<ui8>
}

func.func @sym_rows(%x: tensor<4x4xf32>) -> (tensor<4x4xi8>, tensor<4xf32>, tensor<4xi8>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 0 : i64} : tensor<4x4xf32> -> tensor<4x4xi8>, tensor<4xf32>, tensor<4xi8>
  return %c, %s, %z : tensor<4x4xi8>, tensor<4xf32>, tensor<4xi8>
}

func.func @sym_cols(%x: tensor<2x3xf32>) -> (tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 1 : i64} : tensor<2x3xf32> -> tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>
  return %c, %s, %z : tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>
}

//===----------------------------------------------------------------------===//
// Runtime-scale matmul (contract: raw codes through quant.scast, the i32
// accumulator dequantized directly, its scale the product of the row and
// column scales)
//===----------------------------------------------------------------------===//

!Raw8 = !quant.uniform<i8:f32, 1.0>
!Raw32 = !quant.uniform<i32:f32, 1.0>
func.func @rt_matmul(%x: tensor<2x3xi8>, %w: tensor<3x2xi8>,
                     %scale: tensor<2x2xf32>) -> tensor<2x2xf32> {
  %xq = quant.scast %x : tensor<2x3xi8> to tensor<2x3x!Raw8>
  %wq = quant.scast %w : tensor<3x2xi8> to tensor<3x2x!Raw8>
  %a = qnt.matmul %xq, %wq : tensor<2x3x!Raw8>, tensor<3x2x!Raw8> -> tensor<2x2x!Raw32>
  %acc = quant.scast %a : tensor<2x2x!Raw32> to tensor<2x2xi32>
  %zero = arith.constant dense<0.0> : tensor<1x1xf32>
  %r = qnt.dequantize_dynamic %acc, %scale, %zero
     : tensor<2x2xi32>, tensor<2x2xf32>, tensor<1x1xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

//===----------------------------------------------------------------------===//
// main: every result printed, f32 as its bits
//===----------------------------------------------------------------------===//

func.func @main() {
  %d8s = arith.constant dense<[[-128, 127, 0, 5], [1, 2, 3, 4], [10, -10, 7, 5]]> : tensor<3x4xi8>
  %d8sc = arith.constant dense<[[0.5], [0x7FC00000], [0x7F800000]]> : tensor<3x1xf32>
  %d8of = arith.constant dense<[[0.0, 1.0, 0.25, 5.0]]> : tensor<1x4xf32>
  %d8 = call @deq_i8(%d8s, %d8sc, %d8of) : (tensor<3x4xi8>, tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  // (q - offset) * scale: row 0 -64, 63, -0.125, 0; row 1 NaN (scale NaN);
  // row 2 inf, -inf, inf, NaN (0 * inf). As f32 bits:
  %b1 = arith.bitcast %d8 : tensor<3x4xf32> to tensor<3x4xi32>
  %m1 = bufferization.to_buffer %b1 : tensor<3x4xi32> to memref<3x4xi32>
  %u1 = memref.cast %m1 : memref<3x4xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-1031798784, 1115422720, -1107296256, 0],
  // CHECK-NEXT: [{{[-0-9]+}}, {{[-0-9]+}}, {{[-0-9]+}}, {{[-0-9]+}}],
  // CHECK-NEXT: [2139095040, -8388608, 2139095040, {{[-0-9]+}}]]
  call @printMemrefI32(%u1) : (memref<*xi32>) -> ()
  %du8s = arith.constant dense<[[0, 128, 255], [200, 1, 129]]> : tensor<2x3xui8>
  %du8sc = arith.constant dense<[[0.25, 1.0, -2.0]]> : tensor<1x3xf32>
  %du8of = arith.constant dense<[[128.0]]> : tensor<1x1xf32>
  %du8 = call @deq_u8(%du8s, %du8sc, %du8of) : (tensor<2x3xui8>, tensor<1x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  // ui8 codes read unsigned: -32, 0, -254; 18, -127, -2.
  %b2 = arith.bitcast %du8 : tensor<2x3xf32> to tensor<2x3xi32>
  %m2 = bufferization.to_buffer %b2 : tensor<2x3xi32> to memref<2x3xi32>
  %u2 = memref.cast %m2 : memref<2x3xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-1040187392, 0, -1015152640],
  // CHECK-NEXT: [1099956224, -1023541248, -1073741824]]
  call @printMemrefI32(%u2) : (memref<*xi32>) -> ()
  %d16s = arith.constant dense<[[[-32768, 32767], [100, -100]], [[1, 2], [3, 4]]]> : tensor<2x2x2xi16>
  %d16sc = arith.constant dense<[[[1.0, 0.5]], [[2.0, 0.25]]]> : tensor<2x1x2xf32>
  %d16of = arith.constant dense<[[[0.0], [100.0]]]> : tensor<1x2x1xf32>
  %d16 = call @deq_i16(%d16s, %d16sc, %d16of) : (tensor<2x2x2xi16>, tensor<2x1x2xf32>, tensor<1x2x1xf32>) -> tensor<2x2x2xf32>
  // -32768, 16383.5, 0, -100, 2, 0.5, -194, -24.
  %b3 = arith.bitcast %d16 : tensor<2x2x2xf32> to tensor<2x2x2xi32>
  %m3 = bufferization.to_buffer %b3 : tensor<2x2x2xi32> to memref<2x2x2xi32>
  %u3 = memref.cast %m3 : memref<2x2x2xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}{{\[}}[-956301312, 1182793216],
  // CHECK-NEXT: [0, -1027080192]],
  // CHECK-NEXT: {{\[}}[1073741824, 1056964608],
  // CHECK-NEXT: [-1019084800, -1044381696]]]
  call @printMemrefI32(%u3) : (memref<*xi32>) -> ()
  %d32s = arith.constant dense<[[16777217, 16777219, 2147483647, -2147483648, 33554435, -16777217]]> : tensor<1x6xi32>
  %d32sc = arith.constant dense<[[1.0, 1.0, 1.0, 4.65661287e-10, 1.0, 1.0]]> : tensor<1x6xf32>
  %d32of = arith.constant dense<[[0.0, 0.0, 2147483520.0, 0.0, 0.0, 0.5]]> : tensor<1x6xf32>
  %d32 = call @deq_i32(%d32s, %d32sc, %d32of) : (tensor<1x6xi32>, tensor<1x6xf32>, tensor<1x6xf32>) -> tensor<1x6xf32>
  // f32(code) rounds to even first: 2^24, 2^24 + 4, 2^31 - (2^31 - 128) = 128,
  // -2^31 * 2^-31 = -1, 2^25 + 4, -2^24 - 0.5 -> -2^24.
  %b4 = arith.bitcast %d32 : tensor<1x6xf32> to tensor<1x6xi32>
  %m4 = bufferization.to_buffer %b4 : tensor<1x6xi32> to memref<1x6xi32>
  %u4 = memref.cast %m4 : memref<1x6xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1266679808, 1266679810, 1124073472, -1082130432, 1275068417, -880803840]]
  call @printMemrefI32(%u4) : (memref<*xi32>) -> ()
  %qx = arith.constant dense<[[2.5, 3.5, -2.5, -0.5, 1000.0, -1000.0], [5.0, 0x7FC00000, 0x7F800000, 0xFF800000, 0.5, -7.0], [1.0, -1.0, 0.0, 0x7FC00000, 0.0, -0.0]]> : tensor<3x6xf32>
  %qsc = arith.constant dense<[[1.0], [2.0], [0.0]]> : tensor<3x1xf32>
  %qof = arith.constant dense<[[0.0], [3.0], [-5.0]]> : tensor<3x1xf32>
  %q8 = call @q_i8(%qx, %qsc, %qof) : (tensor<3x6xf32>, tensor<3x1xf32>, tensor<3x1xf32>) -> tensor<3x6xi8>
  // Ties to even, saturation; NaN gives the offset; scale 0: +-inf saturate,
  // 0 / 0 = NaN gives the offset.
  %m5 = bufferization.to_buffer %q8 : tensor<3x6xi8> to memref<3x6xi8>
  %u5 = memref.cast %m5 : memref<3x6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[2, 4, -2, 0, 127, -128],
  // CHECK-NEXT: [5, 3, 127, -128, 3, -1],
  // CHECK-NEXT: [127, -128, -5, -5, -5, -5]]
  call @printMemrefI8(%u5) : (memref<*xi8>) -> ()
  %qux = arith.constant dense<[[0.0, 25.5, -1.0], [300.0, 1.5, 0x7FC00000]]> : tensor<2x3xf32>
  %qusc = arith.constant dense<[[1.0, 0.1, 0.5]]> : tensor<1x3xf32>
  %quof = arith.constant dense<[[128.0]]> : tensor<1x1xf32>
  %qu8 = call @q_u8(%qux, %qusc, %quof) : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x1xf32>) -> tensor<2x3xui8>
  // 25.5 / f32(0.1) = 255 in f32, + 128 saturates; 1.5 / f32(0.1) -> 15.
  %b6 = tensor.bitcast %qu8 : tensor<2x3xui8> to tensor<2x3xi8>
  %m6 = bufferization.to_buffer %b6 : tensor<2x3xi8> to memref<2x3xi8>
  %u6 = memref.cast %m6 : memref<2x3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[128, 255, 126],
  // CHECK-NEXT: [255, 143, 128]]
  call @printMemrefU8(%u6) : (memref<*xi8>) -> ()
  %q16x = arith.constant dense<[[40000.0, -40000.0, 12345.5, -0.5]]> : tensor<1x4xf32>
  %q16sc = arith.constant dense<[[1.0]]> : tensor<1x1xf32>
  %q16of = arith.constant dense<[[-1.0]]> : tensor<1x1xf32>
  %q16 = call @q_i16(%q16x, %q16sc, %q16of) : (tensor<1x4xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x4xi16>
  %m7 = bufferization.to_buffer %q16 : tensor<1x4xi16> to memref<1x4xi16>
  %u7 = memref.cast %m7 : memref<1x4xi16> to memref<*xi16>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[32767, -32768, 12345, -1]]
  call @printMemrefI16(%u7) : (memref<*xi16>) -> ()
  %oax = arith.constant dense<[0.0, 2.0, -3.0, -2.5, 1.34, 0.5]> : tensor<6xf32>
  %oac, %oas, %oaz = call @onnx6(%oax) : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  // ONNX backend test test_dynamicquantizelinear: scale 5/255, zero point 153.
  %b8 = tensor.bitcast %oac : tensor<6xui8> to tensor<6xi8>
  %m8 = bufferization.to_buffer %b8 : tensor<6xi8> to memref<6xi8>
  %u8 = memref.cast %m8 : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [153, 255, 0, 26, 221, 179]
  call @printMemrefU8(%u8) : (memref<*xi8>) -> ()
  %b9 = arith.bitcast %oas : tensor<f32> to tensor<i32>
  %m9 = bufferization.to_buffer %b9 : tensor<i32> to memref<i32>
  %u9 = memref.cast %m9 : memref<i32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [1017159841]
  call @printMemrefI32(%u9) : (memref<*xi32>) -> ()
  %b10 = tensor.bitcast %oaz : tensor<ui8> to tensor<i8>
  %m10 = bufferization.to_buffer %b10 : tensor<i8> to memref<i8>
  %u10 = memref.cast %m10 : memref<i8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [153]
  call @printMemrefU8(%u10) : (memref<*xi8>) -> ()
  %obx = arith.constant dense<[1.0, 0x7FC00000, -2.0, 0.0, 0.0, 0.0]> : tensor<6xf32>
  %obc, %obs, %obz = call @onnx6(%obx) : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  // A NaN: scale NaN, zero point 255 (std::min(255, NaN)), every code 0.
  %b11 = tensor.bitcast %obc : tensor<6xui8> to tensor<6xi8>
  %m11 = bufferization.to_buffer %b11 : tensor<6xi8> to memref<6xi8>
  %u11 = memref.cast %m11 : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 0, 0, 0, 0, 0]
  call @printMemrefU8(%u11) : (memref<*xi8>) -> ()
  %b12 = arith.bitcast %obs : tensor<f32> to tensor<i32>
  %m12 = bufferization.to_buffer %b12 : tensor<i32> to memref<i32>
  %u12 = memref.cast %m12 : memref<i32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [{{[-0-9]+}}]
  call @printMemrefI32(%u12) : (memref<*xi32>) -> ()
  %b13 = tensor.bitcast %obz : tensor<ui8> to tensor<i8>
  %m13 = bufferization.to_buffer %b13 : tensor<i8> to memref<i8>
  %u13 = memref.cast %m13 : memref<i8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [255]
  call @printMemrefU8(%u13) : (memref<*xi8>) -> ()
  %ocx = arith.constant dense<[-1.0, -2.1, -1.3, -2.5, -3.34, -4.0]> : tensor<6xf32>
  %occ, %ocs, %ocz = call @onnx6(%ocx) : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  // test_dynamicquantizelinear_max_adjusted: scale 4/255, zero point 255.
  %b14 = tensor.bitcast %occ : tensor<6xui8> to tensor<6xi8>
  %m14 = bufferization.to_buffer %b14 : tensor<6xi8> to memref<6xi8>
  %u14 = memref.cast %m14 : memref<6xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [191, 121, 172, 96, 42, 0]
  call @printMemrefU8(%u14) : (memref<*xi8>) -> ()
  %b15 = arith.bitcast %ocs : tensor<f32> to tensor<i32>
  %m15 = bufferization.to_buffer %b15 : tensor<i32> to memref<i32>
  %u15 = memref.cast %m15 : memref<i32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [1015054465]
  call @printMemrefI32(%u15) : (memref<*xi32>) -> ()
  %b16 = tensor.bitcast %ocz : tensor<ui8> to tensor<i8>
  %m16 = bufferization.to_buffer %b16 : tensor<i8> to memref<i8>
  %u16 = memref.cast %m16 : memref<i8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [255]
  call @printMemrefU8(%u16) : (memref<*xi8>) -> ()
  %odx = arith.constant dense<[[0.0, -0.0], [0.0, 0.0]]> : tensor<2x2xf32>
  %odc, %ods, %odz = call @onnx2x2(%odx) : (tensor<2x2xf32>) -> (tensor<2x2xui8>, tensor<f32>, tensor<ui8>)
  // All zero: ONNX Runtime's scale 1, zero point 0.
  %b17 = tensor.bitcast %odc : tensor<2x2xui8> to tensor<2x2xi8>
  %m17 = bufferization.to_buffer %b17 : tensor<2x2xi8> to memref<2x2xi8>
  %u17 = memref.cast %m17 : memref<2x2xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0, 0],
  // CHECK-NEXT: [0, 0]]
  call @printMemrefU8(%u17) : (memref<*xi8>) -> ()
  %b18 = arith.bitcast %ods : tensor<f32> to tensor<i32>
  %m18 = bufferization.to_buffer %b18 : tensor<i32> to memref<i32>
  %u18 = memref.cast %m18 : memref<i32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [1065353216]
  call @printMemrefI32(%u18) : (memref<*xi32>) -> ()
  %b19 = tensor.bitcast %odz : tensor<ui8> to tensor<i8>
  %m19 = bufferization.to_buffer %b19 : tensor<i8> to memref<i8>
  %u19 = memref.cast %m19 : memref<i8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0]
  call @printMemrefU8(%u19) : (memref<*xi8>) -> ()
  %oex = arith.constant dense<[[0xFF800000, 1.0], [0.0, 0.0]]> : tensor<2x2xf32>
  %oec, %oes, %oez = call @onnx2x2(%oex) : (tensor<2x2xf32>) -> (tensor<2x2xui8>, tensor<f32>, tensor<ui8>)
  // -inf: scale inf, 0 - (-inf / inf) = NaN -> zero point 255; finite x / inf = 0 -> 255.
  %b20 = tensor.bitcast %oec : tensor<2x2xui8> to tensor<2x2xi8>
  %m20 = bufferization.to_buffer %b20 : tensor<2x2xi8> to memref<2x2xi8>
  %u20 = memref.cast %m20 : memref<2x2xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0, 255],
  // CHECK-NEXT: [255, 255]]
  call @printMemrefU8(%u20) : (memref<*xi8>) -> ()
  %b21 = arith.bitcast %oes : tensor<f32> to tensor<i32>
  %m21 = bufferization.to_buffer %b21 : tensor<i32> to memref<i32>
  %u21 = memref.cast %m21 : memref<i32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [2139095040]
  call @printMemrefI32(%u21) : (memref<*xi32>) -> ()
  %b22 = tensor.bitcast %oez : tensor<ui8> to tensor<i8>
  %m22 = bufferization.to_buffer %b22 : tensor<i8> to memref<i8>
  %u22 = memref.cast %m22 : memref<i8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [255]
  call @printMemrefU8(%u22) : (memref<*xi8>) -> ()
  %ofx = arith.constant dense<[[-3.0, 507.0], [0.0, 1.0]]> : tensor<2x2xf32>
  %ofc, %ofs, %ofz = call @onnx2x2(%ofx) : (tensor<2x2xf32>) -> (tensor<2x2xui8>, tensor<f32>, tensor<ui8>)
  // Scale 510 / 255 = 2, zero point 1.5 -> 2 (ties to even); 1 / 2 = 0.5 -> 0, + 2.
  %b23 = tensor.bitcast %ofc : tensor<2x2xui8> to tensor<2x2xi8>
  %m23 = bufferization.to_buffer %b23 : tensor<2x2xi8> to memref<2x2xi8>
  %u23 = memref.cast %m23 : memref<2x2xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[0, 255],
  // CHECK-NEXT: [2, 2]]
  call @printMemrefU8(%u23) : (memref<*xi8>) -> ()
  %b24 = arith.bitcast %ofs : tensor<f32> to tensor<i32>
  %m24 = bufferization.to_buffer %b24 : tensor<i32> to memref<i32>
  %u24 = memref.cast %m24 : memref<i32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [1073741824]
  call @printMemrefI32(%u24) : (memref<*xi32>) -> ()
  %b25 = tensor.bitcast %ofz : tensor<ui8> to tensor<i8>
  %m25 = bufferization.to_buffer %b25 : tensor<i8> to memref<i8>
  %u25 = memref.cast %m25 : memref<i8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [2]
  call @printMemrefU8(%u25) : (memref<*xi8>) -> ()
  %srx = arith.constant dense<[[127.0, -63.5, 0.5, -2.5], [254.0, 3.0, -5.0, 1.0], [0.0, -0.0, 0.0, 0.0], [0x7FC00000, 1.0, -1.0, 2.0]]> : tensor<4x4xf32>
  %srr, %srs, %srz = call @sym_rows(%srx) : (tensor<4x4xf32>) -> (tensor<4x4xi8>, tensor<4xf32>, tensor<4xi8>)
  // Per row: scale 1 (ties -63.5 -> -64, -2.5 -> -2), 2 (1.5 -> 2, -2.5 -> -2),
  // 1 (all zero), NaN (codes 0).
  %m26 = bufferization.to_buffer %srr : tensor<4x4xi8> to memref<4x4xi8>
  %u26 = memref.cast %m26 : memref<4x4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[127, -64, 0, -2],
  // CHECK-NEXT: [127, 2, -2, 0],
  // CHECK-NEXT: [0, 0, 0, 0],
  // CHECK-NEXT: [0, 0, 0, 0]]
  call @printMemrefI8(%u26) : (memref<*xi8>) -> ()
  %b27 = arith.bitcast %srs : tensor<4xf32> to tensor<4xi32>
  %m27 = bufferization.to_buffer %b27 : tensor<4xi32> to memref<4xi32>
  %u27 = memref.cast %m27 : memref<4xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [1065353216, 1073741824, 1065353216, {{[-0-9]+}}]
  call @printMemrefI32(%u27) : (memref<*xi32>) -> ()
  %m28 = bufferization.to_buffer %srz : tensor<4xi8> to memref<4xi8>
  %u28 = memref.cast %m28 : memref<4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 0, 0, 0]
  call @printMemrefI8(%u28) : (memref<*xi8>) -> ()
  %scx = arith.constant dense<[[2.0, -127.0, 0x7F800000], [-1.0, 0.0, 5.0]]> : tensor<2x3xf32>
  %scc, %scs, %scz = call @sym_cols(%scx) : (tensor<2x3xf32>) -> (tensor<2x3xi8>, tensor<3xf32>, tensor<3xi8>)
  // Per column: f32(2 / 127) (-1 / it is exactly -63.5 in f32 -> -64), 1, inf.
  %m29 = bufferization.to_buffer %scc : tensor<2x3xi8> to memref<2x3xi8>
  %u29 = memref.cast %m29 : memref<2x3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[127, -127, 0],
  // CHECK-NEXT: [-64, 0, 0]]
  call @printMemrefI8(%u29) : (memref<*xi8>) -> ()
  %b30 = arith.bitcast %scs : tensor<3xf32> to tensor<3xi32>
  %m30 = bufferization.to_buffer %b30 : tensor<3xi32> to memref<3xi32>
  %u30 = memref.cast %m30 : memref<3xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: [1015087620, 1065353216, 2139095040]
  call @printMemrefI32(%u30) : (memref<*xi32>) -> ()
  %m31 = bufferization.to_buffer %scz : tensor<3xi8> to memref<3xi8>
  %u31 = memref.cast %m31 : memref<3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 0, 0]
  call @printMemrefI8(%u31) : (memref<*xi8>) -> ()
  %mx = arith.constant dense<[[1, -2, 3], [127, -128, 0]]> : tensor<2x3xi8>
  %mw = arith.constant dense<[[1, 2], [3, -4], [5, 6]]> : tensor<3x2xi8>
  // Row scales [0.5, 0.25] times column scales [2, 0.125].
  %ms = arith.constant dense<[[1.0, 0.0625], [0.5, 0.03125]]> : tensor<2x2xf32>
  %mr = call @rt_matmul(%mx, %mw, %ms) : (tensor<2x3xi8>, tensor<3x2xi8>, tensor<2x2xf32>) -> tensor<2x2xf32>
  // Accumulators [[10, 28], [-257, 766]]: 10, 1.75, -128.5, 23.9375.
  %mb = arith.bitcast %mr : tensor<2x2xf32> to tensor<2x2xi32>
  %mm = bufferization.to_buffer %mb : tensor<2x2xi32> to memref<2x2xi32>
  %mu = memref.cast %mm : memref<2x2xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[1092616192, 1071644672],
  // CHECK-NEXT: [-1023377408, 1103069184]]
  call @printMemrefI32(%mu) : (memref<*xi32>) -> ()
  return
}
