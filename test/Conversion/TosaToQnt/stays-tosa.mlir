// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(tosa-to-qnt))" | FileCheck %s

// What tosa-to-qnt leaves to upstream's TOSA lowering: ops where a
// conversion could change a result, and everything that is not integer.

// Float ops are not quantized TOSA.
// CHECK-LABEL: func.func @float_conv
// CHECK: tosa.conv2d
// CHECK-NOT: qnt.
func.func @float_conv(%x: tensor<1x4x4x1xf32>, %w: tensor<1x1x1x1xf32>) -> tensor<1x4x4x1xf32> {
  %b = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %zp = "tosa.const"() {values = dense<0.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = f32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x4x4x1xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x4x1xf32>
  return %y : tensor<1x4x4x1xf32>
}

// -----

// Multipliers known only at run time cannot become attributes.
// CHECK-LABEL: func.func @runtime_multiplier
// CHECK: tosa.rescale
// CHECK-NOT: qnt.
func.func @runtime_multiplier(%x: tensor<4xi32>, %m: tensor<1xi32>) -> tensor<4xi8> {
  %s = "tosa.const"() {values = dense<35> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// A shift outside TOSA's [2, 62] has no defined result.
// CHECK-LABEL: func.func @shift_out_of_range
// CHECK: tosa.rescale
// CHECK-NOT: qnt.
func.func @shift_out_of_range(%x: tensor<4xi32>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<63> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// i48 accumulators have no qnt form.
// CHECK-LABEL: func.func @i48_rescale
// CHECK: tosa.rescale
// CHECK-NOT: qnt.
func.func @i48_rescale(%x: tensor<4xi48>) -> tensor<4xi16> {
  %m = "tosa.const"() {values = dense<19689> : tensor<1xi16>} : () -> tensor<1xi16>
  %s = "tosa.const"() {values = dense<15> : tensor<1xi8>} : () -> tensor<1xi8>
  %izp = "tosa.const"() {values = dense<0> : tensor<1xi48>} : () -> tensor<1xi48>
  %ozp = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
  %y = tosa.rescale %x, %m, %s, %izp, %ozp {scale32 = false, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi48>, tensor<1xi16>, tensor<1xi8>, tensor<1xi48>, tensor<1xi16>) -> tensor<4xi16>
  return %y : tensor<4xi16>
}

// -----

// K = 40000 with zero points 127: |x - 127| and |w - 127| reach 255, and
// 40000 * 255 * 255 can leave i32, where TOSA's accumulator has no defined
// value and qnt's verifier would reject the op.
// CHECK-LABEL: func.func @accumulator_bound
// CHECK: tosa.conv2d
// CHECK-NOT: qnt.conv2d
func.func @accumulator_bound(%x: tensor<1x1x1x40000xi8>, %w: tensor<1x1x1x40000xi8>) -> tensor<1x1x1x1xi32> {
  %b = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %zp = "tosa.const"() {values = dense<127> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>, dilation = array<i64: 1, 1>} : (tensor<1x1x1x40000xi8>, tensor<1x1x1x40000xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x1x1xi32>
  return %y : tensor<1x1x1x1xi32>
}

// -----

// i16 average over 128 x 128 = 2^14 positions: 2^14 * 2^15 reaches 2^29,
// where reciprocal_scale and exact division may part.
// CHECK-LABEL: func.func @avg_pool_large_window
// CHECK: tosa.avg_pool2d
// CHECK-NOT: qnt.
func.func @avg_pool_large_window(%x: tensor<1x128x128x1xi16>) -> tensor<1x1x1x1xi16> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi16>} : () -> tensor<1xi16>
  %y = tosa.avg_pool2d %x, %zp, %zp {kernel = array<i64: 128, 128>, stride = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, acc_type = i32} : (tensor<1x128x128x1xi16>, tensor<1xi16>, tensor<1xi16>) -> tensor<1x1x1x1xi16>
  return %y : tensor<1x1x1x1xi16>
}

// -----

// An add whose rescales round differently above shift 31 cannot be one
// qnt.int_add: the rescales convert on their own, the i32 add stays TOSA.
// CHECK-LABEL: func.func @add_mixed_rounding
// CHECK: qnt.int_requantize %arg0 {{{.*}}rounding = "single"
// CHECK: qnt.int_requantize %arg1 {{{.*}}rounding = "double"
// CHECK: tosa.add
// CHECK: qnt.int_requantize
func.func @add_mixed_rounding(%a: tensor<4xi8>, %b: tensor<4xi8>) -> tensor<4xi8> {
  %m = "tosa.const"() {values = dense<1073741824> : tensor<1xi32>} : () -> tensor<1xi32>
  %s = "tosa.const"() {values = dense<33> : tensor<1xi8>} : () -> tensor<1xi8>
  %so = "tosa.const"() {values = dense<40> : tensor<1xi8>} : () -> tensor<1xi8>
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %z32 = "tosa.const"() {values = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %ra = tosa.rescale %a, %m, %s, %zp, %z32 {scale32 = true, rounding_mode = SINGLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4xi32>
  %rb = tosa.rescale %b, %m, %s, %zp, %z32 {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi8>, tensor<1xi32>, tensor<1xi8>, tensor<1xi8>, tensor<1xi32>) -> tensor<4xi32>
  %sum = tosa.add %ra, %rb : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %y = tosa.rescale %sum, %m, %so, %z32, %zp {scale32 = true, rounding_mode = DOUBLE_ROUND, per_channel = false, input_unsigned = false, output_unsigned = false} : (tensor<4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// A large batch is not unrolled.
// CHECK-LABEL: func.func @matmul_large_batch
// CHECK: tosa.matmul
// CHECK-NOT: qnt.
func.func @matmul_large_batch(%a: tensor<65x1x2xi8>, %b: tensor<65x2x1xi8>) -> tensor<65x1x1xi32> {
  %zp = "tosa.const"() {values = dense<0> : tensor<1xi8>} : () -> tensor<1xi8>
  %y = tosa.matmul %a, %b, %zp, %zp : (tensor<65x1x2xi8>, tensor<65x2x1xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<65x1x1xi32>
  return %y : tensor<65x1x1xi32>
}
