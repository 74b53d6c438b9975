// A conv whose C is below the K step packs K = (kh, kw, c) densely, padded
// only at its end: C = 3, 3 x 3 taps, K = 27 -> 32 on plain NEON (K step
// 16), so the packed weights are 32 x 4 columns = 128 bytes (per-tap
// padding would be 9 x 16 x 4 = 576) and the im2col rows of the 25 output
// pixels take 25 x 32 bytes, written byte by byte. With the sdot step of 4:
// K = 28, 28 x 8 columns = 224 bytes (9 x 4 x 8 = 288 padded per tap).
// RUN: sed 's/TARGET/triple = "aarch64-unknown-linux-gnu", chip = "cortex-a57", features = <["+neon"]>/' %s \
// RUN:   | quant-opt --pass-pipeline="builtin.module(func.func(qnt-arm-neon,canonicalize,cse))" | FileCheck %s --check-prefix=NEON
// RUN: sed 's/TARGET/triple = "aarch64-unknown-linux-gnu", chip = "neoverse-n1", features = <["+neon", "+dotprod"]>/' %s \
// RUN:   | quant-opt --pass-pipeline="builtin.module(func.func(qnt-arm-neon,canonicalize,cse))" | FileCheck %s --check-prefix=DOT
// NEON-LABEL: func.func @rgb
// NEON: arith.constant dense<{{.*}}> : tensor<128xi8>
// NEON: tensor.empty() : tensor<800xi8>
// NEON: linalg.fill
// NEON: tensor.extract %arg0
// NEON: tensor.insert
// NEON: arm_neon.intr.smull
// DOT-LABEL: func.func @rgb
// DOT: arith.constant dense<{{.*}}> : tensor<224xi8>
// DOT: arm_neon.intr.sdot
module attributes {llvm.target = #llvm.target<TARGET>} {
func.func @rgb(%x: tensor<1x5x5x3xi8>) -> tensor<1x5x5x4xi32> {
  %w = arith.constant dense<-3> : tensor<3x3x3x4xi8>
  %b = arith.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
  %a = qnt.int_conv2d %x, %w, %b {dilations = array<i64: 1, 1>, groups = 1 : i64,
      input_zero_point = 0 : i32, pad_value = 0 : i32, padding = array<i64: 1, 1, 1, 1>,
      strides = array<i64: 1, 1>, weight_zero_points = array<i32: 0>}
      : tensor<1x5x5x3xi8>, tensor<3x3x3x4xi8>, tensor<4xi32> -> tensor<1x5x5x4xi32>
  return %a : tensor<1x5x5x4xi32>
}
}
