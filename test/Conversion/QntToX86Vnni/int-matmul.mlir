// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s
// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni{k-block=2},canonicalize,cse))" | FileCheck %s --check-prefix=KBLOCK

// s8 activations, s8 weights, constant bias. The weights are packed as
// [N/16][K/4][16][4] (K padded 5 -> 8, N padded 3 -> 16, zeros); the
// activations are flipped to u8 (x ^ 0x80 = x + 128) and padded to K = 8 by a
// pre-pass; the bias folds -128 * sum_k w[k, n] (sums 35, 40, 45):
// 100 - 4480, 200 - 5120, 300 - 5760. Two rows, one vector of columns: two
// loop-carried accumulators; only 3 lanes of each are written.
// CHECK-LABEL: func.func @s8_x_s8_w
// CHECK-SAME: (%[[X:.*]]: tensor<2x5xi8>)
// CHECK-DAG: %[[W:.*]] = arith.constant dense<"0x0104070A0205080B0306090C{{0+}}0D0000000E0000000F{{0+}}"> : tensor<128xi8>
// CHECK-DAG: %[[B:.*]] = arith.constant dense<[-4380, -4920, -5460, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK-DAG: %[[FLIP:.*]] = arith.constant dense<-128> : vector<5xi8>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0> : vector<3xi8>
// CHECK: %[[XP0:.*]] = tensor.empty() : tensor<2x8xi8>
// CHECK: %[[XP:.*]] = scf.for %[[M:.*]] = {{.*}} iter_args(%[[T:.*]] = %[[XP0]]) -> (tensor<2x8xi8>)
// CHECK:   %[[ROW:.*]] = vector.transfer_read %[[X]][%[[M]], %{{.*}}], %{{.*}} {in_bounds = [true]} : tensor<2x5xi8>, vector<5xi8>
// CHECK:   %[[U8:.*]] = arith.xori %[[ROW]], %[[FLIP]] : vector<5xi8>
// CHECK:   %[[T1:.*]] = vector.transfer_write %[[U8]], %[[T]][%[[M]], %{{.*}}] {in_bounds = [true]} : vector<5xi8>, tensor<2x8xi8>
// CHECK:   vector.transfer_write %[[ZERO]], %[[T1]]{{.*}} {in_bounds = [true]} : vector<3xi8>, tensor<2x8xi8>
// CHECK: %[[XF:.*]] = tensor.collapse_shape %[[XP]] {{\[}}[0, 1]] : tensor<2x8xi8> into tensor<16xi8>
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<2x3xi32>
// CHECK: %[[BV:.*]] = vector.transfer_read %[[B]]{{.*}} : tensor<16xi32>, vector<16xi32>
// CHECK: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args(%[[A0:.*]] = %[[BV]], %[[A1:.*]] = %[[BV]]) -> (vector<16xi32>, vector<16xi32>)
// CHECK:   %[[WV:.*]] = vector.transfer_read %[[W]]{{.*}} : tensor<128xi8>, vector<64xi8>
// CHECK:   %[[X4:.*]] = vector.transfer_read %[[XF]]{{.*}} : tensor<16xi8>, vector<4xi8>
// CHECK:   %[[X1:.*]] = vector.bitcast %[[X4]] : vector<4xi8> to vector<1xi32>
// CHECK:   %[[XS:.*]] = vector.extract %[[X1]][0] : i32 from vector<1xi32>
// CHECK:   %[[XB:.*]] = vector.broadcast %[[XS]] : i32 to vector<16xi32>
// CHECK:   %[[XB8:.*]] = vector.bitcast %[[XB]] : vector<16xi32> to vector<64xi8>
// CHECK:   %[[D0:.*]] = qnt_kernel.x86.vpdpbusd %[[A0]], %[[XB8]], %[[WV]] : vector<64xi8> -> vector<16xi32>
// CHECK:   %[[D1:.*]] = qnt_kernel.x86.vpdpbusd %[[A1]], %{{.*}}, %[[WV]]
// CHECK:   scf.yield %[[D0]], %[[D1]]
// CHECK: %[[R0:.*]] = vector.extract_strided_slice %[[ACC]]#0 {offsets = [0], sizes = [3], strides = [1]} : vector<16xi32> to vector<3xi32>
// CHECK: %[[O1:.*]] = vector.transfer_write %[[R0]], %[[OUT]]{{.*}} {in_bounds = [true]} : vector<3xi32>, tensor<2x3xi32>
// CHECK: %[[R1:.*]] = vector.extract_strided_slice %[[ACC]]#1
// CHECK: %[[O2:.*]] = vector.transfer_write %[[R1]], %[[O1]]
// CHECK: return %[[O2]]
// CHECK-NOT: qnt.int_matmul
func.func @s8_x_s8_w(%x: tensor<2x5xi8>) -> tensor<2x3xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]> : tensor<5x3xi8>
  %b = arith.constant dense<[100, 200, 300]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x5xi8>, tensor<5x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  return %a : tensor<2x3xi32>
}

// -----

// u8 weights above 127 do not fit s8: they become the u8 operand (first
// after the accumulator) and the u8 activations the s8 one, flipped
// (x - 128); +128 * sum_k w[k, n] (sums 331, 267) is added to the run-time
// bias. K = 4 needs no padding, so the activations are read in place and
// flipped in registers: the 4 broadcast bytes xor 0x80808080
// (-2139062144 as an i32).
// CHECK-LABEL: func.func @u8_x_u8_w
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xi8>, %[[B:.*]]: tensor<2xi32>)
// CHECK-DAG: %[[W:.*]] = arith.constant dense<[-56, 0, -128, 3, 1, -1, 7, 4, 0, {{.*}}]> : tensor<64xi8>
// CHECK-DAG: %[[CORR:.*]] = arith.constant dense<[42368, 34176, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK-DAG: %[[FLIP:.*]] = arith.constant dense<-2139062144> : vector<16xi32>
// CHECK: %[[XF:.*]] = tensor.collapse_shape %[[X]]
// CHECK: %[[B2:.*]] = vector.transfer_read %[[B]]{{.*}} : tensor<2xi32>, vector<2xi32>
// CHECK: %[[B16:.*]] = vector.insert_strided_slice %[[B2]], %{{.*}} {offsets = [0], strides = [1]} : vector<2xi32> into vector<16xi32>
// CHECK: %[[C16:.*]] = vector.transfer_read %[[CORR]]
// CHECK: %[[INIT:.*]] = arith.addi %[[B16]], %[[C16]] : vector<16xi32>
// K = 4 is one group: canonicalize drops the one-step K loop, and each of
// the three rows starts from the bias.
// CHECK:   %[[WV:.*]] = vector.transfer_read %[[W]]
// CHECK:   %[[XB:.*]] = vector.broadcast %{{.*}} : i32 to vector<16xi32>
// CHECK:   %[[XU:.*]] = arith.xori %[[XB]], %[[FLIP]] : vector<16xi32>
// CHECK:   %[[XB8:.*]] = vector.bitcast %[[XU]] : vector<16xi32> to vector<64xi8>
// CHECK:   qnt_kernel.x86.vpdpbusd %[[INIT]], %[[WV]], %[[XB8]]
// CHECK-COUNT-2: qnt_kernel.x86.vpdpbusd %[[INIT]], %[[WV]], %{{.*}}
func.func @u8_x_u8_w(%x: tensor<3x4xi8>, %b: tensor<2xi32>) -> tensor<3x2xi32> {
  %w = arith.constant dense<[[-56, 1], [0, -1], [-128, 7], [3, 4]]> : tensor<4x2xi8>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned, w_unsigned}
       : tensor<3x4xi8>, tensor<4x2xi8>, tensor<2xi32> -> tensor<3x2xi32>
  return %a : tensor<3x2xi32>
}

// -----

// u8 activations with K a multiple of 4 are read in place (no pre-pass);
// the input zero point folds into the bias: -3 * sum_k w'[k, n] (sums 10, 6).
// u8 weights with per-channel zero points 128 / 130: w - zw fits s8.
// CHECK-LABEL: func.func @in_place
// CHECK-SAME: (%[[X:.*]]: tensor<1x4xi8>)
// CHECK-DAG: arith.constant dense<[1, 2, 3, 4, 1, 1, -1, 5, 0, {{.*}}]> : tensor<64xi8>
// CHECK-DAG: arith.constant dense<[-20, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]> : tensor<16xi32>
// CHECK-NOT: arith.xori
// CHECK: tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<1x4xi8> into tensor<4xi8>
// CHECK: qnt_kernel.x86.vpdpbusd
func.func @in_place(%x: tensor<1x4xi8>) -> tensor<1x2xi32> {
  %w = arith.constant dense<[[-127, -125], [-126, -125], [-125, -127], [-124, -121]]> : tensor<4x2xi8>
  %b = arith.constant dense<[10, 15]> : tensor<2xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 3 : i32, weight_zero_points = array<i32: 128, 130>, x_unsigned, w_unsigned}
       : tensor<1x4xi8>, tensor<4x2xi8>, tensor<2xi32> -> tensor<1x2xi32>
  return %a : tensor<1x2xi32>
}

// -----

// Run-time weights are packed at run time into the layout of the constant
// path: four rows of W interleaved byte by byte (8-bit, then 16-bit
// interleaves), N padded to 16. Their column sums come from one vpdpbusd
// against ones; s8 activations are flipped (offset -128, zx = 0), so the
// correction is -128 * sum_k w[k, n], added to the run-time bias.
// CHECK-LABEL: func.func @runtime_weights
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xi8>, %[[W:.*]]: tensor<4x3xi8>, %[[B:.*]]: tensor<3xi32>)
// CHECK-DAG: %[[M128:.*]] = arith.constant dense<-128> : vector<16xi32>
// CHECK-DAG: %[[ONES:.*]] = arith.constant dense<1> : vector<64xi8>
// CHECK-COUNT-4: vector.transfer_read %[[W]]{{.*}} : tensor<4x3xi8>, vector<3xi8>
// CHECK: %[[I01:.*]] = vector.interleave %{{.*}}, %{{.*}} : vector<16xi8> -> vector<32xi8>
// CHECK: %[[I23:.*]] = vector.interleave %{{.*}}, %{{.*}} : vector<16xi8> -> vector<32xi8>
// CHECK: %[[I:.*]] = vector.interleave %{{.*}}, %{{.*}} : vector<16xi16> -> vector<32xi16>
// CHECK: %[[P:.*]] = vector.bitcast %[[I]] : vector<32xi16> to vector<64xi8>
// CHECK: %[[SUMS:.*]] = qnt_kernel.x86.vpdpbusd %{{.*}}, %[[ONES]], %[[P]] : vector<64xi8> -> vector<16xi32>
// CHECK: %[[CORR:.*]] = arith.muli %[[SUMS]], %[[M128]] : vector<16xi32>
// CHECK: vector.transfer_read %[[B]]
// CHECK: %[[ACC:.*]] = arith.addi %{{.*}}, %[[CORR]] : vector<16xi32>
// CHECK: %[[XU:.*]] = arith.xori %{{.*}}, %{{.*}} : vector<16xi32>
// CHECK: %[[XU8:.*]] = vector.bitcast %[[XU]] : vector<16xi32> to vector<64xi8>
// CHECK: qnt_kernel.x86.vpdpbusd %[[ACC]], %[[XU8]], %[[P]] : vector<64xi8> -> vector<16xi32>
// CHECK-NOT: qnt.int_matmul
func.func @runtime_weights(%x: tensor<2x4xi8>, %w: tensor<4x3xi8>, %b: tensor<3xi32>) -> tensor<2x3xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  return %a : tensor<2x3xi32>
}

// -----

// Run-time weights with a zero point (qnt-symmetric-weights moves those out
// before this pass) stay for qnt-to-linalg.
// CHECK-LABEL: func.func @runtime_weights_zero_point
// CHECK: qnt.int_matmul
// CHECK-NOT: qnt_kernel.x86.vpdpbusd
func.func @runtime_weights_zero_point(%x: tensor<2x4xi8>, %w: tensor<4x3xi8>, %b: tensor<3xi32>) -> tensor<2x3xi32> {
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 3>, w_unsigned}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  return %a : tensor<2x3xi32>
}

// -----

// w - zw spans -133 .. 122: neither s8 nor u8, so the op stays.
// CHECK-LABEL: func.func @weights_out_of_range
// CHECK: qnt.int_matmul
// CHECK-NOT: qnt_kernel.x86.vpdpbusd
func.func @weights_out_of_range(%x: tensor<2x2xi8>) -> tensor<2x1xi32> {
  %w = arith.constant dense<[[-128], [127]]> : tensor<2x1xi8>
  %b = arith.constant dense<0> : tensor<1xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 5>}
       : tensor<2x2xi8>, tensor<2x1xi8>, tensor<1xi32> -> tensor<2x1xi32>
  return %a : tensor<2x1xi32>
}

// -----

// K blocking: K = 20 is 5 groups of 4; with k-block=2 the blocks are [0, 2),
// [2, 4), [4, 5). A loop over the full blocks accumulates i32 partial sums
// (the first from the bias, the next from the partial sums); the last block
// is peeled: it starts from those sums and stores the result (or, with a
// fused requantize, its codes). Its one K group is group 4: packed weights
// at 4 * 64 bytes, activations at byte 16 of each row of 20.
// CHECK-LABEL: func.func @k_blocks
// KBLOCK-LABEL: func.func @k_blocks
// KBLOCK-DAG: %[[C2:.*]] = arith.constant 2 : index
// KBLOCK-DAG: %[[C256:.*]] = arith.constant 256 : index
// KBLOCK-DAG: %[[C16:.*]] = arith.constant 16 : index
// KBLOCK-DAG: %[[C36:.*]] = arith.constant 36 : index
// KBLOCK: %[[PARTIAL:.*]] = scf.for %[[KB:.*]] = %{{.*}} to %[[C2]]
// KBLOCK:   %[[LB:.*]] = arith.muli %[[KB]], %[[C2]] : index
// KBLOCK:   %[[UB:.*]] = arith.addi %[[LB]], %[[C2]] : index
// KBLOCK:   %[[FIRST:.*]] = arith.cmpi eq, %[[KB]], %{{.*}} : index
// KBLOCK:   %[[INIT:.*]]:2 = scf.if %[[FIRST]]
// KBLOCK:     vector.transfer_read %{{.*}} : tensor<16xi32>, vector<16xi32>
// KBLOCK:   } else {
// KBLOCK:     vector.transfer_read %{{.*}} : tensor<2x3xi32>, vector<3xi32>
// KBLOCK:   scf.for %{{.*}} = %[[LB]] to %[[UB]]
// KBLOCK:     qnt_kernel.x86.vpdpbusd
// KBLOCK: vector.transfer_read %[[PARTIAL]]{{.*}} : tensor<2x3xi32>, vector<3xi32>
// KBLOCK: vector.transfer_read %[[PARTIAL]]{{.*}} : tensor<2x3xi32>, vector<3xi32>
// KBLOCK: vector.transfer_read %{{.*}}[%[[C256]]]{{.*}} : tensor<320xi8>, vector<64xi8>
// KBLOCK: vector.transfer_read %{{.*}}[%[[C16]]]{{.*}} : tensor<40xi8>, vector<4xi8>
// KBLOCK: qnt_kernel.x86.vpdpbusd
// KBLOCK: vector.transfer_read %{{.*}}[%[[C36]]]{{.*}} : tensor<40xi8>, vector<4xi8>
// KBLOCK: qnt_kernel.x86.vpdpbusd
// KBLOCK-NOT: scf.for
// KBLOCK: return
func.func @k_blocks(%x: tensor<2x20xi8>) -> tensor<2x3xi32> {
  %w = arith.constant dense<3> : tensor<20x3xi8>
  %b = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, x_unsigned}
       : tensor<2x20xi8>, tensor<20x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  return %a : tensor<2x3xi32>
}
