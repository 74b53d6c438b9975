// RUN: quant-opt %s --split-input-file --qnt-nontemporal-stores="min-bytes=256" | FileCheck %s

// Per-row dequantization (the pass description's example): the codes are
// read as vectors, the row's scale and offset once per vector as a
// broadcast, the body's ops applied in their order, the result stored
// 64-byte aligned and non-temporal; x86 fences after the loops.
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4">} {
func.func @rows(%q: memref<4x32xi8>, %s: memref<4x1xf32>, %o: memref<4x1xf32>) -> memref<4x32xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<4x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%q, %s, %o : memref<4x32xi8>, memref<4x1xf32>, memref<4x1xf32>) outs(%alloc : memref<4x32xf32>) {
  ^bb0(%in: i8, %scale: f32, %offset: f32, %out: f32):
    %two = arith.constant 2.0 : f32
    %0 = arith.sitofp %in : i8 to f32
    %1 = arith.subf %0, %offset : f32
    %2 = arith.mulf %1, %scale : f32
    %3 = arith.mulf %2, %two : f32
    linalg.yield %3 : f32
  }
  return %alloc : memref<4x32xf32>
}
}
// CHECK-LABEL: func.func @rows(
// CHECK-SAME:      %[[Q:.*]]: memref<4x32xi8>, %[[S:.*]]: memref<4x1xf32>, %[[O:.*]]: memref<4x1xf32>)
// CHECK:         %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x32xf32>
// CHECK-NOT:     linalg.generic
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for %[[J:.*]] = %[[C0:.*]] to %[[C32:.*]] step %[[C16:.*]] {
// CHECK:             %[[V:.*]] = vector.load %[[Q]][%[[I]], %[[J]]] : memref<4x32xi8>, vector<16xi8>
// CHECK:             %[[SC:.*]] = memref.load %[[S]][%[[I]], %{{.*}}] : memref<4x1xf32>
// CHECK:             %[[SV:.*]] = vector.broadcast %[[SC]] : f32 to vector<16xf32>
// CHECK:             %[[OF:.*]] = memref.load %[[O]][%[[I]], %{{.*}}] : memref<4x1xf32>
// CHECK:             %[[OV:.*]] = vector.broadcast %[[OF]] : f32 to vector<16xf32>
// CHECK:             %[[TWO:.*]] = arith.constant 2.000000e+00 : f32
// CHECK:             %[[TWOV:.*]] = vector.broadcast %[[TWO]] : f32 to vector<16xf32>
// CHECK:             %[[F:.*]] = arith.sitofp %[[V]] : vector<16xi8> to vector<16xf32>
// CHECK:             %[[D:.*]] = arith.subf %[[F]], %[[OV]] : vector<16xf32>
// CHECK:             %[[M:.*]] = arith.mulf %[[D]], %[[SV]] : vector<16xf32>
// CHECK:             %[[R:.*]] = arith.mulf %[[M]], %[[TWOV]] : vector<16xf32>
// CHECK:             vector.store %[[R]], %[[ALLOC]][%[[I]], %[[J]]] {alignment = 64 : i64, nontemporal = true} : memref<4x32xf32>, vector<16xf32>
// CHECK:           }
// CHECK:         } {qnt.parallel_tiles}
// CHECK-NEXT:    llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
// CHECK-NEXT:    return %[[ALLOC]]

// -----

// Quantization to i8 (64 codes per vector): the NaN test's i1 select, and a
// value from outside the body, broadcast. Not x86: no fence.
module attributes {llvm.target = #llvm.target<triple = "aarch64-unknown-linux-gnu", chip = "generic">} {
func.func @codes(%x: memref<4x64xf32>, %zero: f32) -> memref<4x64xi8> {
  %alloc = memref.alloc() {alignment = 128 : i64} : memref<4x64xi8>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x64xf32>) outs(%alloc : memref<4x64xi8>) {
  ^bb0(%in: f32, %out: i8):
    %nan = arith.cmpf uno, %in, %in : f32
    %0 = arith.select %nan, %zero, %in : f32
    %1 = arith.fptosi %0 : f32 to i8
    linalg.yield %1 : i8
  }
  return %alloc : memref<4x64xi8>
}
}
// CHECK-LABEL: func.func @codes(
// CHECK-SAME:      %{{.*}}: memref<4x64xf32>, %[[ZERO:.*]]: f32)
// CHECK:           scf.for %{{.*}} step %[[C64:.*]] {
// CHECK:             %[[X:.*]] = vector.load {{.*}} : memref<4x64xf32>, vector<64xf32>
// CHECK:             %[[NAN:.*]] = arith.cmpf uno, %[[X]], %[[X]] : vector<64xf32>
// CHECK:             %[[ZV:.*]] = vector.broadcast %[[ZERO]] : f32 to vector<64xf32>
// CHECK:             %[[SEL:.*]] = arith.select %[[NAN]], %[[ZV]], %[[X]] : vector<64xi1>, vector<64xf32>
// CHECK:             %[[C:.*]] = arith.fptosi %[[SEL]] : vector<64xf32> to vector<64xi8>
// CHECK:             vector.store %[[C]], {{.*}} {alignment = 64 : i64, nontemporal = true} : memref<4x64xi8>, vector<64xi8>
// CHECK-NOT:     sfence
// CHECK:         return

// -----

// Left to the usual lowering: an output below min-bytes (128 of 256 bytes),
// rows not a multiple of 64 bytes, an output that is not a 64-byte aligned
// allocation (a function argument, a smaller alignment), a reduction, a body
// that reads the output, linalg.index, and an input whose innermost loop
// moves along another index than its last (a transpose).
module attributes {llvm.target = #llvm.target<triple = "x86_64-unknown-linux-gnu", chip = "x86-64-v4">} {
func.func @small(%a: memref<2x16xf32>) -> memref<2x16xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<2x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<2x16xf32>) outs(%alloc : memref<2x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<2x16xf32>
}
func.func @odd_rows(%a: memref<16x20xf32>) -> memref<16x20xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x20xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<16x20xf32>) outs(%alloc : memref<16x20xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<16x20xf32>
}
func.func @argument(%a: memref<16x16xf32>, %out: memref<16x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<16x16xf32>) outs(%out : memref<16x16xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @aligned_16(%a: memref<16x16xf32>) -> memref<16x16xf32> {
  %alloc = memref.alloc() {alignment = 16 : i64} : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<16x16xf32>) outs(%alloc : memref<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<16x16xf32>
}
func.func @reduction(%a: memref<16x16x4xf32>) -> memref<16x16xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%a : memref<16x16x4xf32>) outs(%alloc : memref<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<16x16xf32>
}
func.func @reads_output(%a: memref<16x16xf32>) -> memref<16x16xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<16x16xf32>) outs(%alloc : memref<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.addf %in, %out : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<16x16xf32>
}
func.func @index(%a: memref<16x16xf32>) -> memref<16x16xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<16x16xf32>) outs(%alloc : memref<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %0 = arith.addf %in, %f : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<16x16xf32>
}
func.func @transpose(%a: memref<16x16xf32>) -> memref<16x16xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<16x16xf32>) outs(%alloc : memref<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<16x16xf32>
}
}
// CHECK-LABEL: func.func @small(
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @odd_rows(
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @argument(
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @aligned_16(
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @reduction(
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @reads_output(
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @index(
// CHECK:         linalg.generic
// CHECK-LABEL: func.func @transpose(
// CHECK:         linalg.generic
// CHECK-NOT:     vector.store

// -----

// Without the module's target nothing is rewritten.
func.func @no_target(%a: memref<16x16xf32>) -> memref<16x16xf32> {
  %alloc = memref.alloc() {alignment = 64 : i64} : memref<16x16xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : memref<16x16xf32>) outs(%alloc : memref<16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.negf %in : f32
    linalg.yield %0 : f32
  }
  return %alloc : memref<16x16xf32>
}
// CHECK-LABEL: func.func @no_target(
// CHECK:         linalg.generic
// CHECK-NOT:     vector.store
