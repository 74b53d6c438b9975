// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s

// One elementwise linalg.generic; the size-1 dimension of %b reads index 0
// through its indexing map (never materialized). Body: (a - 1) << 20 and
// (b - 128) << 20 (b unsigned: zero extension), each through
// multiplyByQuantizedMultiplier (double: the Q31 high multiply, gemmlowp's
// nudge and truncating division as (ab + 2^30) >> 31, then for b the
// divide by 2^1), their sum, the output
// multiply and the divide by 2^19 (mask 2^19 - 1 = 524287, threshold
// 2^18 - 1 = 262143 + (x < 0)), then + z_y = -2 and the clamp.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BC:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @add_double
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[BC]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x3xi8>, tensor<1x3xi8>) outs(%{{.*}} : tensor<2x3xi8>)
// CHECK: ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK: %[[AE:.*]] = arith.extsi %[[A]] : i8 to i32
// CHECK: %[[AC:.*]] = arith.subi %[[AE]], %c1_i32
// CHECK: %[[BE:.*]] = arith.extui %[[B]] : i8 to i32
// CHECK: %[[BCN:.*]] = arith.subi %[[BE]], %c128_i32
// CHECK: %[[AS:.*]] = arith.shli %[[AC]], %c20_i32
// CHECK: %[[PA:.*]] = arith.muli %{{.*}}, %c1073741824_i64
// CHECK: %[[NA:.*]] = arith.addi %[[PA]], %c1073741824_i64
// CHECK: %[[QA:.*]] = arith.shrsi %[[NA]], %c31_i64
// CHECK: %[[SA:.*]] = arith.trunci %[[QA]] : i64 to i32
// CHECK: %[[BS:.*]] = arith.shli %[[BCN]], %c20_i32
// CHECK: arith.muli
// CHECK: arith.shrsi %{{.*}}, %c1_i32
// CHECK: %[[RAW:.*]] = arith.addi %[[SA]], %{{.*}} : i32
// CHECK: %[[RAWE:.*]] = arith.extsi %[[RAW]] : i32 to i64
// CHECK: arith.muli %[[RAWE]], %c1073741824_i64
// CHECK: arith.andi %{{.*}}, %c524287_i32
// CHECK: arith.addi %{{.*}}, %c262143_i32
// CHECK: arith.shrsi %{{.*}}, %c19_i32
// CHECK: arith.addi %{{.*}}, %c-2_i64 : i64
// CHECK: arith.maxsi %{{.*}}, %c-128_i64
// CHECK: arith.minsi %{{.*}}, %c127_i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
func.func @add_double(%a: tensor<2x3xi8>, %b: tensor<1x3xi8>) -> tensor<2x3xi8> {
  %y = qnt.int_add %a, %b {a_float_multiplier = 5.000000e-01 : f32, a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 1 : i32,
         b_float_multiplier = 2.500000e-01 : f32, b_multiplier = 1073741824 : i32, b_shift = 1 : i32, b_unsigned, b_zero_point = 128 : i32,
         left_shift = 20 : i32, max = 127 : i32, min = -128 : i32, output_multiplier = 1073741824 : i32, output_shift = 19 : i32,
         output_zero_point = -2 : i32, rounding = "double"} : tensor<2x3xi8>, tensor<1x3xi8> -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// float: ONNX Runtime's QLinearAdd, two f32 products and one add (no fma),
// rounded half to even, + z_y and saturation. Both operands broadcast.
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @add_float
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID]]]
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x1xi16>, tensor<1x3xi8>) outs(%{{.*}} : tensor<2x3xi16>)
// CHECK: %[[AF:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK: %[[PA:.*]] = arith.mulf %[[AF]], %{{.*}} : f32
// CHECK: %[[BF:.*]] = arith.sitofp %{{.*}} : i32 to f32
// CHECK: %[[PB:.*]] = arith.mulf %[[BF]], %{{.*}} : f32
// CHECK: %[[V:.*]] = arith.addf %[[PA]], %[[PB]] : f32
// CHECK: math.roundeven
// CHECK: arith.fptosi
// CHECK: arith.trunci %{{.*}} : i32 to i16
// CHECK-NOT: math.fma
func.func @add_float(%a: tensor<2x1xi16>, %b: tensor<1x3xi8>) -> tensor<2x3xi16> {
  %y = qnt.int_add %a, %b {a_float_multiplier = 3.000000e-01 : f32, a_multiplier = 1073741824 : i32, a_shift = 0 : i32, a_zero_point = 0 : i32,
         b_float_multiplier = 7.000000e-01 : f32, b_multiplier = 1073741824 : i32, b_shift = 0 : i32, b_zero_point = 3 : i32,
         left_shift = 15 : i32, max = 32767 : i32, min = -32768 : i32, output_multiplier = 1073741824 : i32, output_shift = 13 : i32,
         output_zero_point = 0 : i32, rounding = "float"} : tensor<2x1xi16>, tensor<1x3xi8> -> tensor<2x3xi16>
  return %y : tensor<2x3xi16>
}
