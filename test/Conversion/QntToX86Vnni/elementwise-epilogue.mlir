// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-x86-vnni,canonicalize,cse))" | FileCheck %s

// The matmul's only user is an all-parallel generic (a per-row x per-column
// dequantization): the kernel converts its accumulator vectors, reads the row
// scale as one value broadcast to the lanes and the column scales as a
// vector (the 3 real columns, then zeros), and stores f32. No i32 tensor and
// no generic are left.
// CHECK-LABEL: func.func @dequantize
// CHECK-SAME: (%[[X:.*]]: tensor<2x4xi8>, %[[RS:.*]]: tensor<2xf32>)
// CHECK-DAG: %[[CS:.*]] = arith.constant dense<[1.000000e+00, 2.000000e+00, 4.000000e+00]> : tensor<3xf32>
// CHECK-DAG: %[[OUT:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: qnt_kernel.x86.vpdpbusd
// CHECK: %[[ROW:.*]] = tensor.extract %[[RS]][%{{.*}}] : tensor<2xf32>
// CHECK: vector.broadcast %[[ROW]] : f32 to vector<16xf32>
// CHECK: vector.transfer_read %[[CS]]{{.*}} : tensor<3xf32>, vector<3xf32>
// CHECK: arith.sitofp %{{.*}} : vector<16xi32> to vector<16xf32>
// CHECK: arith.mulf %{{.*}} : vector<16xf32>
// CHECK: vector.transfer_write %{{.*}}, %[[OUT]]{{.*}} : vector<3xf32>, tensor<2x3xf32>
// CHECK-NOT: tensor<2x3xi32>
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @dequantize(%x: tensor<2x4xi8>, %rs: tensor<2xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<[100, -200, 300]> : tensor<3xi32>
  %cs = arith.constant dense<[1.0, 2.0, 4.0]> : tensor<3xf32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>,
                                        affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %rs, %cs : tensor<2x3xi32>, tensor<2xf32>, tensor<3xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: i32, %r: f32, %c: f32, %o: f32):
    %s = arith.mulf %r, %c : f32
    %f = arith.sitofp %in : i32 to f32
    %d = arith.mulf %f, %s : f32
    linalg.yield %d : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Not fused: the accumulators have a second user; the kernel stores them
// and the generic reads them.
// CHECK-LABEL: func.func @second_user
// CHECK: qnt_kernel.x86.vpdpbusd
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
func.func @second_user(%x: tensor<2x4xi8>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x3xi32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: i32, %o: f32):
    %f = arith.sitofp %in : i32 to f32
    linalg.yield %f : f32
  } -> tensor<2x3xf32>
  return %y, %a : tensor<2x3xf32>, tensor<2x3xi32>
}

// -----

// Not fused: an integer division, which a padding lane (columns 3 to 15 of
// the tile hold the padded accumulators) could make trap.
// CHECK-LABEL: func.func @integer_division
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
// CHECK: arith.divsi
// CHECK-LABEL: func.func @integer_power
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
// CHECK: math.ipowi
// CHECK-LABEL: func.func @float_power_integer_exponent
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
// CHECK: math.fpowi
func.func @integer_division(%x: tensor<2x4xi8>, %d: tensor<3xi32>) -> tensor<2x3xi32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %d : tensor<2x3xi32>, tensor<3xi32>) outs(%init : tensor<2x3xi32>) {
  ^bb0(%in: i32, %dd: i32, %o: i32):
    %q = arith.divsi %in, %dd : i32
    linalg.yield %q : i32
  } -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}

// math.ipowi of 0 to a negative power divides by zero.
func.func @integer_power(%x: tensor<2x4xi8>) -> tensor<2x3xi32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xi32>
  %e = arith.constant -1 : i32
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x3xi32>) outs(%init : tensor<2x3xi32>) {
  ^bb0(%in: i32, %o: i32):
    %p = math.ipowi %in, %e : i32
    linalg.yield %p : i32
  } -> tensor<2x3xi32>
  return %y : tensor<2x3xi32>
}

// math.fpowi: LLVM's powi takes a scalar exponent, a vector one does not
// lower.
func.func @float_power_integer_exponent(%x: tensor<2x4xi8>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xf32>
  %e = arith.constant 2 : i32
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x3xi32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: i32, %o: f32):
    %f = arith.sitofp %in : i32 to f32
    %p = math.fpowi %f, %e : f32, i32
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Not fused: a reduction over the columns.
// CHECK-LABEL: func.func @reduction
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
func.func @reduction(%x: tensor<2x4xi8>) -> tensor<2xi32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %zero = arith.constant dense<0> : tensor<2xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<2x3xi32>) outs(%zero : tensor<2xi32>) {
  ^bb0(%in: i32, %o: i32):
    %s = arith.addi %in, %o : i32
    linalg.yield %s : i32
  } -> tensor<2xi32>
  return %y : tensor<2xi32>
}

// -----

// Not fused: an operand read transposed (its column index is not its last
// dimension), and a body that reads the output's initial value.
// CHECK-LABEL: func.func @transposed
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
// CHECK-LABEL: func.func @reads_init
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
func.func @transposed(%x: tensor<2x4xi8>, %t: tensor<3x2xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>,
                                        affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : tensor<2x3xi32>, tensor<3x2xf32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: i32, %tt: f32, %o: f32):
    %f = arith.sitofp %in : i32 to f32
    %m = arith.mulf %f, %tt : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

func.func @reads_init(%x: tensor<2x4xi8>, %init: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x3xi32>) outs(%init : tensor<2x3xf32>) {
  ^bb0(%in: i32, %o: f32):
    %f = arith.sitofp %in : i32 to f32
    %s = arith.addf %f, %o : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Not fused: an i1 result (a vector<16xi1> store would write packed bits
// where the tensor holds one byte per element).
// CHECK-LABEL: func.func @i1_result
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: linalg.generic
func.func @i1_result(%x: tensor<2x4xi8>) -> tensor<2x3xi1> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %init = tensor.empty() : tensor<2x3xi1>
  %zero = arith.constant 0 : i32
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x3xi32>) outs(%init : tensor<2x3xi1>) {
  ^bb0(%in: i32, %o: i1):
    %p = arith.cmpi sgt, %in, %zero : i32
    linalg.yield %p : i1
  } -> tensor<2x3xi1>
  return %y : tensor<2x3xi1>
}

// -----

// Not fused: the generic is inside a loop; fusing would move the whole
// matmul into the loop body.
// CHECK-LABEL: func.func @in_loop
// CHECK: vector.transfer_write {{.*}} tensor<2x3xi32>
// CHECK: scf.for
// CHECK: linalg.generic
func.func @in_loop(%x: tensor<2x4xi8>, %n: index) -> tensor<2x3xf32> {
  %w = arith.constant dense<[[1, -2, 3], [4, 5, -6], [7, 8, 9], [-10, 11, 12]]> : tensor<4x3xi8>
  %b = arith.constant dense<0> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x4xi8>, tensor<4x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = tensor.empty() : tensor<2x3xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init) -> tensor<2x3xf32> {
    %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<2x3xi32>) outs(%acc : tensor<2x3xf32>) {
    ^bb0(%in: i32, %o: f32):
      %f = arith.sitofp %in : i32 to f32
      linalg.yield %f : f32
    } -> tensor<2x3xf32>
    scf.yield %y : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
