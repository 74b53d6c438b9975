// qnt-parallelize-tiles: one loop per nest of loops marked qnt.parallel_tiles
// becomes scf.parallel; small loops, loops that carry values and unmarked
// loops stay serial.
// RUN: quant-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(qnt-parallelize-tiles{min-trips=8 min-work=1000}))' | FileCheck %s
// RUN: not quant-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(qnt-parallelize-tiles{min-trips=0}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: qnt-parallelize-tiles: min-trips must be at least 1 and min-work at least 0
// RUN: quant-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(qnt-parallelize-tiles{min-work=1000 report=true}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// REPORT: remark: qnt-parallelize-tiles: parallel (64 trips, work 3201, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: serial, too little work (64 trips, work 193, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: parallel (56 trips, work
// REPORT: remark: qnt-parallelize-tiles: parallel (64 trips, work
// REPORT: remark: qnt-parallelize-tiles: serial, carries a value (64 trips
// REPORT: remark: qnt-parallelize-tiles: serial, too little work (64 trips, work 641, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: serial, unsigned bounds (64 trips
// REPORT: remark: qnt-parallelize-tiles: parallel (16 trips, work 1825, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: parallel (16 trips, work 1057, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: serial, too little work (64 trips, work 193, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: parallel (64 trips, work 3201, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: parallel, feeds a parallel loop (64 trips, work 193, min-work 1000)
// REPORT: remark: qnt-parallelize-tiles: parallel, feeds a parallel loop (2 trips
// REPORT: remark: qnt-parallelize-tiles: parallel, feeds a parallel loop (56 trips
// REPORT-NOT: feeds a parallel loop

// 64 tiles of 16 elements, 2 ops each in a 16-trip inner loop: about 64 *
// (16 * 3) = 3072 ops >= min-work, 64 trips >= min-trips.
// CHECK-LABEL: func.func @tiles
// CHECK: %[[C0:.+]] = arith.constant 0 : index
// CHECK: %[[C1:.+]] = arith.constant 1 : index
// CHECK: %[[C64:.+]] = arith.constant 64 : index
// CHECK: scf.parallel (%[[T:.+]]) = (%[[C0]]) to (%[[C64]]) step (%[[C1]]) {
// CHECK:   scf.for
// CHECK:     memref.load %{{.+}}[%[[T]], %{{.+}}]
// CHECK:     memref.store
// CHECK-NOT: qnt.parallel_tiles
// CHECK:   scf.reduce
func.func @tiles(%a: memref<64x16xi8>, %b: memref<64x16xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  scf.for %t = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %a[%t, %j] : memref<64x16xi8>
      memref.store %v, %b[%t, %j] : memref<64x16xi8>
    }
  } {qnt.parallel_tiles}
  return
}

// -----

// Too little work: 64 * 3 ops < 1000.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.parallel
// CHECK: scf.for
func.func @small(%a: memref<64xi8>, %b: memref<64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %t = %c0 to %c64 step %c1 {
    %v = memref.load %a[%t] : memref<64xi8>
    memref.store %v, %b[%t] : memref<64xi8>
  } {qnt.parallel_tiles}
  return
}

// -----

// The outer marked loop has 2 trips (< min-trips): the marked loop inside,
// 56 trips, is the one that runs in parallel, once per outer iteration.
// CHECK-LABEL: func.func @nest
// CHECK: scf.for %[[G:.+]] = %{{.+}} to %{{.+}} step
// CHECK:   scf.parallel (%[[L:.+]]) =
// CHECK:     scf.for
// CHECK:       memref.store %{{.+}}, %{{.+}}[%[[G]], %[[L]], %{{.+}}]
func.func @nest(%a: memref<2x56x64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c56 = arith.constant 56 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i8
  scf.for %g = %c0 to %c2 step %c1 {
    scf.for %l = %c0 to %c56 step %c1 {
      scf.for %p = %c0 to %c64 step %c1 {
        memref.store %z, %a[%g, %l, %p] : memref<2x56x64xi8>
      }
    } {qnt.parallel_tiles}
  } {qnt.parallel_tiles}
  return
}

// -----

// A buffer yielded unchanged (what bufferization leaves of a tensor
// iter_arg) is the init value: the loop qualifies and its result is %a.
// A loop that carries a real value (a sum) stays serial.
// CHECK-LABEL: func.func @forwarded
// CHECK: scf.parallel
// CHECK: return %arg0 : memref<64x16xi8>
func.func @forwarded(%a: memref<64x16xi8>) -> memref<64x16xi8> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i8
  %r = scf.for %t = %c0 to %c64 step %c1 iter_args(%o = %a) -> memref<64x16xi8> {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %z, %o[%t, %j] : memref<64x16xi8>
    }
    scf.yield %o : memref<64x16xi8>
  } {qnt.parallel_tiles}
  return %r : memref<64x16xi8>
}

// CHECK-LABEL: func.func @carried
// CHECK-NOT: scf.parallel
// CHECK: scf.for {{.+}} iter_args
func.func @carried(%a: memref<64x16xi32>) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i32
  %r = scf.for %t = %c0 to %c64 step %c1 iter_args(%s = %z) -> i32 {
    %inner = scf.for %j = %c0 to %c16 step %c1 iter_args(%s2 = %s) -> i32 {
      %v = memref.load %a[%t, %j] : memref<64x16xi32>
      %n = arith.addi %s2, %v : i32
      scf.yield %n : i32
    }
    scf.yield %inner : i32
  } {qnt.parallel_tiles}
  return %r : i32
}

// -----

// Unmarked loops are never touched.
// CHECK-LABEL: func.func @unmarked
// CHECK-NOT: scf.parallel
func.func @unmarked(%a: memref<64x16xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i8
  scf.for %t = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %z, %a[%t, %j] : memref<64x16xi8>
    }
  }
  return
}

// -----

// The blocked form [lb, min(lb + 4, ub)) counts 4 trips: 64 * 4 * 2 = 512
// ops < 1000, serial.
// CHECK-LABEL: func.func @blocked
// CHECK-NOT: scf.parallel
func.func @blocked(%a: memref<64x16xi8>, %kb: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i8
  %hi = arith.addi %kb, %c4 : index
  %ub = arith.minsi %hi, %c16 : index
  scf.for %t = %c0 to %c64 step %c1 {
    scf.for %j = %kb to %ub step %c1 {
      memref.store %z, %a[%t, %j] : memref<64x16xi8>
    }
  } {qnt.parallel_tiles}
  return
}

// -----

// scf.parallel compares signed: a loop with unsigned bounds stays serial.
// CHECK-LABEL: func.func @unsigned
// CHECK-NOT: scf.parallel
func.func @unsigned(%a: memref<64x16xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %z = arith.constant 0 : i8
  scf.for unsigned %t = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %z, %a[%t, %j] : memref<64x16xi8>
    }
  } {qnt.parallel_tiles}
  return
}

// -----

// A dot-product step counts 4 units per 32-bit lane (4 multiply-adds each):
// 16 trips x (3 loads of 16 words + vpdpbusd 16 x 4 + store + yield)
// = 1 + 16 * 114 = 1825; the same loop with an addi in place of the dot
// counts 1 + 16 * 66 = 1057.
// CHECK-LABEL: func.func @dot_steps
// CHECK: scf.parallel
// CHECK: qnt_kernel.x86.vpdpbusd
func.func @dot_steps(%acc: memref<16x16xi32>, %a: memref<16x64xi8>, %b: memref<16x64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %t = %c0 to %c16 step %c1 {
    %s = vector.load %acc[%t, %c0] : memref<16x16xi32>, vector<16xi32>
    %x = vector.load %a[%t, %c0] : memref<16x64xi8>, vector<64xi8>
    %w = vector.load %b[%t, %c0] : memref<16x64xi8>, vector<64xi8>
    %r = qnt_kernel.x86.vpdpbusd %s, %x, %w : vector<64xi8> -> vector<16xi32>
    vector.store %r, %acc[%t, %c0] : memref<16x16xi32>, vector<16xi32>
  } {qnt.parallel_tiles}
  return
}

// -----

// CHECK-LABEL: func.func @add_steps
func.func @add_steps(%acc: memref<16x16xi32>, %a: memref<16x64xi8>, %b: memref<16x64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  scf.for %t = %c0 to %c16 step %c1 {
    %s = vector.load %acc[%t, %c0] : memref<16x16xi32>, vector<16xi32>
    %x = vector.load %a[%t, %c0] : memref<16x64xi8>, vector<64xi8>
    %w = vector.load %b[%t, %c0] : memref<16x64xi8>, vector<64xi8>
    %r = arith.addi %s, %s : vector<16xi32>
    vector.store %r, %acc[%t, %c0] : memref<16x16xi32>, vector<16xi32>
  } {qnt.parallel_tiles}
  return
}

// -----

// A small loop that writes a buffer (here through a subview) which a later
// parallel loop reads runs in parallel too, so that each thread writes
// what it will read (the conv's padded input, run-time packed weights).
// CHECK-LABEL: func.func @producer
// CHECK: %[[PAD:.+]] = memref.alloc
// CHECK: %[[VIEW:.+]] = memref.subview %[[PAD]]
// CHECK: scf.parallel
// CHECK:   memref.store %{{.+}}, %[[VIEW]]
// CHECK: scf.parallel
// CHECK:   memref.load %[[PAD]]
func.func @producer(%a: memref<64xi8>, %out: memref<64x16xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %pad = memref.alloc() : memref<66xi8>
  %view = memref.subview %pad[1] [64] [1] : memref<66xi8> to memref<64xi8, strided<[1], offset: 1>>
  scf.for %t = %c0 to %c64 step %c1 {
    %v = memref.load %a[%t] : memref<64xi8>
    memref.store %v, %view[%t] : memref<64xi8, strided<[1], offset: 1>>
  } {qnt.parallel_tiles}
  scf.for %t = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %pad[%t] : memref<66xi8>
      memref.store %v, %out[%t, %j] : memref<64x16xi8>
    }
  } {qnt.parallel_tiles}
  memref.dealloc %pad : memref<66xi8>
  return
}

// -----

// A small loop whose buffer no parallel loop reads, and one that writes
// only after the parallel loop has read, stay serial.
// CHECK-LABEL: func.func @not_producer
// CHECK: memref.alloc
// CHECK-NEXT: scf.for
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK-NOT: scf.parallel
func.func @not_producer(%a: memref<64xi8>, %out: memref<64x16xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %tmp = memref.alloc() : memref<64xi8>
  scf.for %t = %c0 to %c64 step %c1 {
    %v = memref.load %a[%t] : memref<64xi8>
    memref.store %v, %tmp[%t] : memref<64xi8>
  } {qnt.parallel_tiles}
  scf.for %t = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %a[%t] : memref<64xi8>
      memref.store %v, %out[%t, %j] : memref<64x16xi8>
    }
  } {qnt.parallel_tiles}
  scf.for %t = %c0 to %c64 step %c1 {
    %v = memref.load %tmp[%t] : memref<64xi8>
    memref.store %v, %a[%t] : memref<64xi8>
  } {qnt.parallel_tiles}
  memref.dealloc %tmp : memref<64xi8>
  return
}

// -----

// A nest of small marked loops that writes the buffer: the inner loop is
// recorded first, but only the outer one runs before the reader, so the
// outer one runs in parallel and the inner one stays serial inside it. A
// small loop recorded after them that feeds nothing stays serial.
// CHECK-LABEL: func.func @nested_producer
// CHECK: scf.parallel
// CHECK-NEXT: scf.for
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK-NOT: scf.parallel
func.func @nested_producer(%a: memref<2x4xi8>, %out: memref<64x16xi8>, %other: memref<4xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c64 = arith.constant 64 : index
  %pad = memref.alloc() : memref<2x4xi8>
  scf.for %g = %c0 to %c2 step %c1 {
    scf.for %t = %c0 to %c4 step %c1 {
      %v = memref.load %a[%g, %t] : memref<2x4xi8>
      memref.store %v, %pad[%g, %t] : memref<2x4xi8>
    } {qnt.parallel_tiles}
  } {qnt.parallel_tiles}
  scf.for %t = %c0 to %c64 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      %v = memref.load %pad[%c0, %c0] : memref<2x4xi8>
      memref.store %v, %out[%t, %j] : memref<64x16xi8>
    }
  } {qnt.parallel_tiles}
  scf.for %t = %c0 to %c4 step %c1 {
    %v = memref.load %a[%c0, %t] : memref<2x4xi8>
    memref.store %v, %other[%t] : memref<4xi8>
  } {qnt.parallel_tiles}
  memref.dealloc %pad : memref<2x4xi8>
  return
}

// -----

// A pool's output filled by a small loop, then written (not read) by the
// parallel loop; each inside its own one-trip batch loop, so neither
// dominates the other. The fill still runs first and touches the lines the
// parallel loop writes: it runs in parallel too.
// CHECK-LABEL: func.func @fill_then_write
// CHECK: scf.for
// CHECK-NEXT: scf.parallel
// CHECK: scf.for
// CHECK-NEXT: scf.parallel
func.func @fill_then_write(%a: memref<56x64xi8>, %out: memref<56x64xi8>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c56 = arith.constant 56 : index
  %c64 = arith.constant 64 : index
  %min = arith.constant -128 : i8
  scf.for %n = %c0 to %c1 step %c1 {
    scf.for %t = %c0 to %c56 step %c1 {
      memref.store %min, %out[%t, %c0] : memref<56x64xi8>
    } {qnt.parallel_tiles}
  }
  scf.for %n = %c0 to %c1 step %c1 {
    scf.for %t = %c0 to %c56 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 {
        %v = memref.load %a[%t, %j] : memref<56x64xi8>
        memref.store %v, %out[%t, %j] : memref<56x64xi8>
      }
    } {qnt.parallel_tiles}
  }
  return
}
