// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s

// A depthwise conv (groups = C = F = 3) and its requantize become one loop
// nest vectorized along the channels (16 lanes, AVX-512: no llvm.target is
// the caller's claim of VNNI). Worked by hand:
//   weight table, w' in the low 16 bits per lane, channels padded to 16:
//     tap (0,0): 1, -2 -> 0xfffe = 65534, 3;  tap (0,1): 4, 5, -6 -> 65530
//   bias + (0 - zx) * sum_t w' with zx = 2: sums (5, 3, -3), so
//     10 - 10 = 0, 20 - 6 = 14, 30 + 6 = 36
//   padding: left 1 with KW = 2, so output column 0 reads the padding
//   (pad_value 2, selected per tap) and columns 1..3 are one register tile
//   of 3 pixels x 2 taps = 6 vpdpwssd.
// CHECK-LABEL: func.func @dw_requant
// CHECK-DAG: %[[W:.*]] = arith.constant dense<[1, 65534, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 65530, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<32xi32>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[0, 14, 36, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK-DAG: %[[PAD:.*]] = arith.constant dense<2> : vector<16xi32>
// CHECK: tensor.empty() : tensor<1x3x4x3xi8>
// CHECK: scf.for
// The border pixel: clamped load, widened, pad_value where outside.
// CHECK:   vector.transfer_read %[[B]]
// CHECK:   vector.transfer_read %{{.*}} : tensor<1x3x4x3xi8>, vector<3xi8>
// CHECK:   arith.extsi %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK:   arith.select %{{.*}}, %{{.*}}, %[[PAD]] : vector<16xi32>
// CHECK:   vector.transfer_read %[[W]]
// CHECK:   vector.bitcast %{{.*}} : vector<16xi32> to vector<32xi16>
// CHECK:   qnt_kernel.x86.vpdpwssd %{{.*}} : vector<32xi16> -> vector<16xi32>
// The fused requantize: Q31 high multiply of the even and the odd elements
// in the i64 lanes of the i32 vector, interleaved back; codes stored.
// CHECK:   arith.muli %{{.*}} : vector<8xi64>
// CHECK:   arith.muli %{{.*}} : vector<8xi64>
// CHECK:   vector.shuffle %{{.*}}, %{{.*}} [0, 17, 2, 19, 4, 21, 6, 23, 8, 25, 10, 27, 12, 29, 14, 31] : vector<16xi32>, vector<16xi32>
// The clamp and the output zero point in i32 lanes, then the codes.
// CHECK:   arith.maxsi %{{.*}} : vector<16xi32>
// CHECK:   arith.minsi %{{.*}} : vector<16xi32>
// CHECK:   arith.trunci %{{.*}} : vector<16xi32> to vector<16xi8>
// CHECK:   vector.transfer_write %{{.*}} : vector<3xi8>, tensor<1x3x4x3xi8>
// The interior tile: no select.
// CHECK-NOT: arith.select {{.*}} : vector<16xi32>
// CHECK-COUNT-6: qnt_kernel.x86.vpdpwssd
// CHECK-NOT: qnt_kernel.x86.vpdpwssd
// CHECK: vector.transfer_write %{{.*}} : vector<3xi8>, tensor<1x3x4x3xi8>
// CHECK: } {qnt.parallel_tiles}
// CHECK-NOT: qnt.int_requantize
// CHECK-NOT: qnt.int_conv2d
func.func @dw_requant(%x: tensor<1x3x4x3xi8>) -> tensor<1x3x4x3xi8> {
  %w = arith.constant dense<[[[[1, -2, 3]], [[4, 5, -6]]]]> : tensor<1x2x1x3xi8>
  %b = arith.constant dense<[10, 20, 30]> : tensor<3xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 2 : i32, weight_zero_points = array<i32: 0>, pad_value = 2 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 1, 0>, groups = 3 : i64}
       : tensor<1x3x4x3xi8>, tensor<1x2x1x3xi8>, tensor<3xi32> -> tensor<1x3x4x3xi32>
  %y = qnt.int_requantize %a {input_zero_points = array<i32: 0>, multipliers = array<i32: 1073741824>,
         shifts = array<i32: 1>, float_multipliers = array<f32: 0.25>, output_zero_points = array<i32: -3>,
         min = -128 : i32, max = 127 : i32, rounding = "double"}
       : tensor<1x3x4x3xi32> -> tensor<1x3x4x3xi8>
  return %y : tensor<1x3x4x3xi8>
}

// -----

// Without a requantize the kernel stores the i32 accumulators. u8
// activations widen with extui; per-channel weight zero points (u8 weights
// 200, 0, 255 minus 100, 0, 255) give w' = 100, 0, 0; a run-time bias is
// read as is, with the correction (0 - zx) * w' = -7 * (100, 0, 0) beside
// it.
// CHECK-LABEL: func.func @dw_i32
// CHECK-DAG: arith.constant dense<[100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK-DAG: arith.constant dense<[-700, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK: arith.extui %{{.*}} : vector<16xi8> to vector<16xi32>
// CHECK: qnt_kernel.x86.vpdpwssd
// CHECK: vector.transfer_write %{{.*}} : vector<3xi32>, tensor<1x2x2x3xi32>
func.func @dw_i32(%x: tensor<1x2x2x3xi8>, %b: tensor<3xi32>) -> tensor<1x2x2x3xi32> {
  %w = arith.constant dense<[[[[-56, 0, -1]]]]> : tensor<1x1x1x3xi8>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 7 : i32, weight_zero_points = array<i32: 100, 0, 255>, pad_value = 7 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 3 : i64, x_unsigned, w_unsigned}
       : tensor<1x2x2x3xi8>, tensor<1x1x1x3xi8>, tensor<3xi32> -> tensor<1x2x2x3xi32>
  return %a : tensor<1x2x2x3xi32>
}

// -----

// AVX2 (x86-64-v3, no AVX-512): 8 lanes, vpmaddwd + add; with AVX-VNNI the
// 256-bit vpdpwssd.
// RUN: sed 's/^module attributes.*/module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v3">} {/' %s | quant-opt --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s --check-prefix=AVX2
// RUN: sed 's/^module attributes.*/module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v3", features = <["+avxvnni"]>>} {/' %s | quant-opt --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s --check-prefix=AVXVNNI
// AVX2-LABEL: func.func @dw_target
// AVX2: arith.constant dense<[1, 2, 3, 0, 0, 0, 0, 0]> : tensor<8xi32>
// AVX2: qnt_kernel.x86.vpmaddwd %{{.*}} : vector<16xi16> -> vector<8xi32>
// AVX2-NOT: vpdpwssd
// AVXVNNI-LABEL: func.func @dw_target
// AVXVNNI: qnt_kernel.x86.vpdpwssd %{{.*}} : vector<16xi16> -> vector<8xi32>
// CHECK-LABEL: func.func @dw_target
// CHECK: qnt_kernel.x86.vpdpwssd %{{.*}} : vector<32xi16> -> vector<16xi32>
module attributes {} {
func.func @dw_target(%x: tensor<1x2x2x3xi8>) -> tensor<1x2x2x3xi32> {
  %w = arith.constant dense<[[[[1, 2, 3]]]]> : tensor<1x1x1x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_conv2d %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, pad_value = 0 : i32,
         strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 0, 0, 0, 0>, groups = 3 : i64}
       : tensor<1x2x2x3xi8>, tensor<1x1x1x3xi8>, tensor<3xi32> -> tensor<1x2x2x3xi32>
  return %a : tensor<1x2x2x3xi32>
}
}
