// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// Each rounding mode is emitted step by step after Reference/FixedPoint.h;
// per-tensor parameters fold into constants.

// double: the contract's M = 0.0072 (M0 = 1979120930, n = 7).
// saturatingRoundingDoublingHighMul (gemmlowp's nudge and truncating
// division as one floor shift: (ab + 2^30) >> 31; no clamp of the quotient,
// since the constant M0 is not INT32_MIN), then roundingDivideByPOT by 7
// (mask 127, threshold 63 + (x < 0)), then the output zero point in i64 and
// the clamp.
// CHECK-LABEL: func.func @double
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<4xi32>) outs(%{{.*}} : tensor<4xi8>)
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: i8):
// CHECK: %[[X64:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: %[[M0:.*]] = arith.constant 1979120930 : i64
// CHECK: %[[AB:.*]] = arith.muli %[[X64]], %[[M0]] : i64
// CHECK: %[[NUDGE:.*]] = arith.constant 1073741824 : i64
// CHECK: %[[SUM:.*]] = arith.addi %[[AB]], %[[NUDGE]] : i64
// CHECK: %[[C31:.*]] = arith.constant 31 : i64
// CHECK: %[[Q:.*]] = arith.shrsi %[[SUM]], %[[C31]] : i64
// CHECK-NOT: arith.minsi
// CHECK: %[[HIGH:.*]] = arith.trunci %[[Q]] : i64 to i32
// CHECK: %[[EXP:.*]] = arith.constant 7 : i32
// CHECK: %[[MASK:.*]] = arith.constant 127 : i32
// CHECK: %[[REM:.*]] = arith.andi %[[HIGH]], %[[MASK]] : i32
// CHECK: %[[ISNEG:.*]] = arith.cmpi slt, %[[HIGH]], %{{.*}} : i32
// CHECK: %[[HALF:.*]] = arith.constant 63 : i32
// CHECK: %[[NEGBIT:.*]] = arith.extui %[[ISNEG]] : i1 to i32
// CHECK: %[[THRESHOLD:.*]] = arith.addi %[[NEGBIT]], %[[HALF]] : i32
// CHECK: %[[QUOT:.*]] = arith.shrsi %[[HIGH]], %[[EXP]] : i32
// CHECK: %[[UP:.*]] = arith.cmpi ugt, %[[REM]], %[[THRESHOLD]] : i32
// CHECK: %[[UPBIT:.*]] = arith.extui %[[UP]] : i1 to i32
// CHECK: %[[R:.*]] = arith.addi %[[QUOT]], %[[UPBIT]] : i32
// CHECK: %[[R64:.*]] = arith.extsi %[[R]] : i32 to i64
// CHECK: %[[ZP:.*]] = arith.constant -5 : i64
// CHECK: %[[Y:.*]] = arith.addi %[[R64]], %[[ZP]] : i64
// CHECK: %[[LO:.*]] = arith.constant -128 : i64
// CHECK: %[[HI:.*]] = arith.constant 127 : i64
// CHECK: %[[Y1:.*]] = arith.maxsi %[[Y]], %[[LO]] : i64
// CHECK: %[[Y2:.*]] = arith.minsi %[[Y1]], %[[HI]] : i64
// CHECK: %[[Y8:.*]] = arith.trunci %[[Y2]] : i64 to i8
// CHECK: linalg.yield %[[Y8]] : i8
func.func @double(%x: tensor<4xi32>) -> tensor<4xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1979120930>, shifts = array<i32: 7>,
         float_multipliers = array<f32: 0.0072>, output_zero_points = array<i32: -5>, min = -128 : i32, max = 127 : i32,
         rounding = "double"} : tensor<4xi32> -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// double with M >= 1 (shift -2): the input is first shifted left in i64 and
// saturated to i32; no divide by a power of two follows. The high multiply
// keeps the reference's nudge select and truncating division here: with
// the floor shift LLVM folds the left shift into the multiplier, which then
// leaves int32 (no vpmuldq / smull).
// CHECK-LABEL: func.func @double_left_shift
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: i16):
// CHECK: %[[X64:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: %[[TWO:.*]] = arith.constant 2 : i64
// CHECK: %[[SHL:.*]] = arith.shli %[[X64]], %[[TWO]] : i64
// CHECK: %[[MIN:.*]] = arith.constant -2147483648 : i64
// CHECK: %[[MAX:.*]] = arith.constant 2147483647 : i64
// CHECK: %[[S1:.*]] = arith.maxsi %[[SHL]], %[[MIN]] : i64
// CHECK: %[[S2:.*]] = arith.minsi %[[S1]], %[[MAX]] : i64
// CHECK: %[[SHIFTED:.*]] = arith.trunci %[[S2]] : i64 to i32
// CHECK: %[[A64:.*]] = arith.extsi %[[SHIFTED]] : i32 to i64
// CHECK: arith.muli %[[A64]], %{{.*}} : i64
// CHECK: arith.divsi
// CHECK-NOT: arith.shrsi
// CHECK: arith.trunci %{{.*}} : i64 to i16
func.func @double_left_shift(%x: tensor<4xi32>) -> tensor<4xi16> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1610612736>, shifts = array<i32: -2>,
         float_multipliers = array<f32: 3.0>, output_zero_points = array<i32: 0>, min = -32768 : i32, max = 32767 : i32,
         rounding = "double"} : tensor<4xi32> -> tensor<4xi16>
  return %y : tensor<4xi16>
}

// -----

// single: (x * M0 + 2^(total - 1)) >> total in i64, total = 31 + 7 = 38.
// CHECK-LABEL: func.func @single
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: i8):
// CHECK: %[[X64:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: %[[M0:.*]] = arith.constant 1979120930 : i64
// CHECK: %[[P:.*]] = arith.muli %[[X64]], %[[M0]] : i64
// CHECK: %[[TOTAL:.*]] = arith.constant 38 : i64
// CHECK: %[[HALF:.*]] = arith.constant 137438953472 : i64
// CHECK: %[[SUM:.*]] = arith.addi %[[P]], %[[HALF]] : i64
// CHECK: %[[Q:.*]] = arith.shrsi %[[SUM]], %[[TOTAL]] : i64
// CHECK: arith.addi %[[Q]], %{{.*}} : i64
func.func @single(%x: tensor<4xi32>) -> tensor<4xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1979120930>, shifts = array<i32: 7>,
         float_multipliers = array<f32: 0.0072>, output_zero_points = array<i32: -5>, min = -128 : i32, max = 127 : i32,
         rounding = "single"} : tensor<4xi32> -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// away (TVM TONEAREST): half for a non-negative product, half - 1 otherwise.
// CHECK-LABEL: func.func @away
// CHECK: %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[TOTAL:.*]] = arith.constant 38 : i64
// CHECK: %[[HALF:.*]] = arith.constant 137438953472 : i64
// CHECK: %[[NONNEG:.*]] = arith.cmpi sge, %[[P]], %{{.*}} : i64
// CHECK: %[[HALFM1:.*]] = arith.constant 137438953471 : i64
// CHECK: %[[BIAS:.*]] = arith.select %[[NONNEG]], %[[HALF]], %[[HALFM1]] : i64
// CHECK: %[[SUM:.*]] = arith.addi %[[P]], %[[BIAS]] : i64
// CHECK: arith.shrsi %[[SUM]], %[[TOTAL]] : i64
func.func @away(%x: tensor<4xi32>) -> tensor<4xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1979120930>, shifts = array<i32: 7>,
         float_multipliers = array<f32: 0.0072>, output_zero_points = array<i32: -5>, min = -128 : i32, max = 127 : i32,
         rounding = "away"} : tensor<4xi32> -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// half_even: floor quotient, remainder, round up above half or at half when
// the quotient is odd.
// CHECK-LABEL: func.func @half_even
// CHECK: %[[P:.*]] = arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: %[[TOTAL:.*]] = arith.constant 38 : i64
// CHECK: %[[HALF:.*]] = arith.constant 137438953472 : i64
// CHECK: %[[FLOOR:.*]] = arith.shrsi %[[P]], %[[TOTAL]] : i64
// CHECK: %[[BACK:.*]] = arith.shli %[[FLOOR]], %[[TOTAL]] : i64
// CHECK: %[[REM:.*]] = arith.subi %[[P]], %[[BACK]] : i64
// CHECK: %[[ABOVE:.*]] = arith.cmpi sgt, %[[REM]], %[[HALF]] : i64
// CHECK: %[[TIE:.*]] = arith.cmpi eq, %[[REM]], %[[HALF]] : i64
// CHECK: %[[ODD:.*]] = arith.trunci %[[FLOOR]] : i64 to i1
// CHECK: %[[TIEODD:.*]] = arith.andi %[[TIE]], %[[ODD]] : i1
// CHECK: %[[UP:.*]] = arith.ori %[[ABOVE]], %[[TIEODD]] : i1
// CHECK: %[[UPBIT:.*]] = arith.extui %[[UP]] : i1 to i64
// CHECK: arith.addi %[[FLOOR]], %[[UPBIT]] : i64
func.func @half_even(%x: tensor<4xi32>) -> tensor<4xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1979120930>, shifts = array<i32: 7>,
         float_multipliers = array<f32: 0.0072>, output_zero_points = array<i32: -5>, min = -128 : i32, max = 127 : i32,
         rounding = "half_even"} : tensor<4xi32> -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// float (ONNX Runtime): f32 product, round half to even, NaN to the zero
// point, clamp in f32 to [min - zp, max - zp], then convert and add zp.
// CHECK-LABEL: func.func @float
// CHECK: ^bb0(%[[X:.*]]: i32, %{{.*}}: i8):
// CHECK: %[[M:.*]] = arith.constant 7.200000e-03 : f32
// CHECK: %[[XF:.*]] = arith.sitofp %[[X]] : i32 to f32
// CHECK: %[[V:.*]] = arith.mulf %[[XF]], %[[M]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %[[V]], %[[V]] : f32
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[RND:.*]] = math.roundeven %[[V]] : f32
// CHECK: %[[SEL:.*]] = arith.select %[[NAN]], %[[ZERO]], %[[RND]] : f32
// CHECK: %[[LO:.*]] = arith.constant -1.230000e+02 : f32
// CHECK: %[[HI:.*]] = arith.constant 1.320000e+02 : f32
// CHECK: %[[C1:.*]] = arith.maxnumf %[[SEL]], %[[LO]] : f32
// CHECK: %[[C2:.*]] = arith.minnumf %[[C1]], %[[HI]] : f32
// CHECK: %[[I:.*]] = arith.fptosi %[[C2]] : f32 to i32
// CHECK: %[[Y:.*]] = arith.addi %[[I]], %{{.*}} : i32
// CHECK: %[[Y8:.*]] = arith.trunci %[[Y]] : i32 to i8
// CHECK: linalg.yield %[[Y8]] : i8
func.func @float(%x: tensor<4xi32>) -> tensor<4xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 1979120930>, shifts = array<i32: 7>,
         float_multipliers = array<f32: 0.0072>, output_zero_points = array<i32: -5>, min = -128 : i32, max = 127 : i32,
         rounding = "float"} : tensor<4xi32> -> tensor<4xi8>
  return %y : tensor<4xi8>
}

// -----

// A 32-bit output range does not fit f32 exactly: the clamp runs in f64.
// CHECK-LABEL: func.func @float_wide_range
// CHECK: math.roundeven %{{.*}} : f32
// CHECK: %[[D:.*]] = arith.extf %{{.*}} : f32 to f64
// CHECK: %[[C1:.*]] = arith.maxnumf %[[D]], %{{.*}} : f64
// CHECK: %[[C2:.*]] = arith.minnumf %[[C1]], %{{.*}} : f64
// CHECK: arith.fptosi %[[C2]] : f64 to i64
func.func @float_wide_range(%x: tensor<4xi32>) -> tensor<4xi32> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 0>, multipliers = array<i32: 0>, shifts = array<i32: 0>,
         float_multipliers = array<f32: 3.5>, output_zero_points = array<i32: 1>, min = -2147483648 : i32, max = 2147483647 : i32,
         rounding = "float"} : tensor<4xi32> -> tensor<4xi32>
  return %y : tensor<4xi32>
}

// -----

// Per channel along axis 1: differing entries become constant tensors indexed
// by the channel, equal ones stay scalars. u8 codes are zero-extended and the
// input zero point subtracted in i32.
// CHECK-DAG: #[[$ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[$CH:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @per_channel
// CHECK-DAG: %[[ZIN:.*]] = arith.constant dense<[3, 4, 5]> : tensor<3xi32>
// CHECK-DAG: %[[M0:.*]] = arith.constant dense<[1073741824, 1073741824, 1500000000]> : tensor<3xi32>
// CHECK-DAG: %[[SH:.*]] = arith.constant dense<[-2, 0, 3]> : tensor<3xi32>
// CHECK: linalg.generic {indexing_maps = [#[[$ID]], #[[$CH]], #[[$CH]], #[[$CH]], #[[$ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.*}}, %[[ZIN]], %[[M0]], %[[SH]] : tensor<2x3xi8>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>)
// CHECK: ^bb0(%[[Q:.*]]: i8, %[[ZINV:.*]]: i32, %[[M0V:.*]]: i32, %[[SHV:.*]]: i32, %{{.*}}: i8):
// CHECK: %[[QE:.*]] = arith.extui %[[Q]] : i8 to i32
// CHECK: %[[X:.*]] = arith.subi %[[QE]], %[[ZINV]] : i32
// CHECK: %[[X64:.*]] = arith.extsi %[[X]] : i32 to i64
// CHECK: %[[M64:.*]] = arith.extsi %[[M0V]] : i32 to i64
// CHECK: %[[P:.*]] = arith.muli %[[X64]], %[[M64]] : i64
// CHECK: %[[SH64:.*]] = arith.extsi %[[SHV]] : i32 to i64
// CHECK: %[[TOTAL:.*]] = arith.addi %[[SH64]], %{{.*}} : i64
// CHECK: %[[TM1:.*]] = arith.subi %[[TOTAL]], %{{.*}} : i64
// CHECK: %[[HALF:.*]] = arith.shli %{{.*}}, %[[TM1]] : i64
// CHECK: %[[SUM:.*]] = arith.addi %[[P]], %[[HALF]] : i64
// CHECK: arith.shrsi %[[SUM]], %[[TOTAL]] : i64
// CHECK: arith.constant 128 : i64
// CHECK: arith.constant 0 : i64
// CHECK: arith.constant 255 : i64
func.func @per_channel(%x: tensor<2x3xi8>) -> tensor<2x3xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 3, 4, 5>, multipliers = array<i32: 1073741824, 1073741824, 1500000000>,
         shifts = array<i32: -2, 0, 3>, float_multipliers = array<f32: 2.0, 0.5, 0.087>, output_zero_points = array<i32: 128, 128, 128>,
         min = 0 : i32, max = 255 : i32, rounding = "single", axis = 1, input_unsigned, output_unsigned}
       : tensor<2x3xi8> -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// An i32 input with a nonzero zero point: q - z_in saturates to i32, as in
// the reference kernel.
// CHECK-LABEL: func.func @wide_input_zero_point
// CHECK: ^bb0(%[[Q:.*]]: i32, %{{.*}}: i8):
// CHECK: %[[Z:.*]] = arith.constant 100 : i32
// CHECK: %[[Q64:.*]] = arith.extsi %[[Q]] : i32 to i64
// CHECK: %[[Z64:.*]] = arith.extsi %[[Z]] : i32 to i64
// CHECK: %[[D:.*]] = arith.subi %[[Q64]], %[[Z64]] : i64
// CHECK: %[[D1:.*]] = arith.maxsi %[[D]], %{{.*}} : i64
// CHECK: %[[D2:.*]] = arith.minsi %[[D1]], %{{.*}} : i64
// CHECK: arith.trunci %[[D2]] : i64 to i32
func.func @wide_input_zero_point(%x: tensor<4xi32>) -> tensor<4xi8> {
  %y = qnt.int_requantize %x {input_zero_points = array<i32: 100>, multipliers = array<i32: 1979120930>, shifts = array<i32: 7>,
         float_multipliers = array<f32: 0.0072>, output_zero_points = array<i32: -5>, min = -128 : i32, max = 127 : i32,
         rounding = "double"} : tensor<4xi32> -> tensor<4xi8>
  return %y : tensor<4xi8>
}
