// RUN: quant-opt %s --split-input-file --qnt-dealloc-after-last-use | FileCheck %s

// Two layers: %a's last use is the second loop (through a subview), so its
// dealloc moves up to right after that loop, before %b's allocation; %b's
// last use is the copy into the result.
// CHECK-LABEL: func.func @layers(
// CHECK:         %[[A:.*]] = memref.alloc() : memref<8xi8>
// CHECK:         scf.for
// CHECK:         %[[V:.*]] = memref.subview %[[A]]
// CHECK:         scf.for
// CHECK:           memref.load %[[V]]
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[A]] : memref<8xi8>
// CHECK-NEXT:    %[[B:.*]] = memref.alloc() : memref<8xi8>
// CHECK:         memref.copy %[[B]], %{{.*}}
// CHECK-NEXT:    memref.dealloc %[[B]] : memref<8xi8>
// CHECK-NEXT:    %{{.*}} = arith.constant
// CHECK-NEXT:    return
func.func @layers(%x: memref<8xi8>, %out: memref<8xi8>) -> i8 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %a = memref.alloc() : memref<8xi8>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %x[%i] : memref<8xi8>
    memref.store %v, %a[%i] : memref<8xi8>
  }
  %view = memref.subview %a[4] [4] [1] : memref<8xi8> to memref<4xi8, strided<[1], offset: 4>>
  scf.for %i = %c0 to %c4 step %c1 {
    %v = memref.load %view[%i] : memref<4xi8, strided<[1], offset: 4>>
    memref.store %v, %out[%i] : memref<8xi8>
  }
  %b = memref.alloc() : memref<8xi8>
  scf.for %i = %c0 to %c8 step %c1 {
    %v = memref.load %out[%i] : memref<8xi8>
    memref.store %v, %b[%i] : memref<8xi8>
  }
  memref.copy %b, %out : memref<8xi8> to memref<8xi8>
  %r = arith.constant 7 : i8
  memref.dealloc %a : memref<8xi8>
  memref.dealloc %b : memref<8xi8>
  return %r : i8
}

// -----

// A buffer carried into a loop as an iteration argument: the loop's block
// argument and result derive from it, and the loop is the last use.
// CHECK-LABEL: func.func @iter_arg(
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         scf.for
// CHECK:         }
// CHECK-NEXT:    memref.dealloc %[[A]]
// CHECK-NEXT:    call @other()
func.func private @other()
func.func @iter_arg(%n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %a) -> memref<4xf32> {
    memref.store %f, %m[%c0] : memref<4xf32>
    scf.yield %m : memref<4xf32>
  }
  call @other() : () -> ()
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

// Left alone: a buffer passed to a call (the callee may keep it), one whose
// pointer is stored to memory as data, one freed through a view too, and
// one returned by the block's terminator (through a cast).
// CHECK-LABEL: func.func @kept(
// CHECK:         call @sink
// CHECK:         call @other()
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    memref.dealloc
// CHECK-NEXT:    return
func.func private @sink(memref<4xf32>)
func.func private @other()
func.func @kept(%slot: memref<1xindex>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %a = memref.alloc() : memref<4xf32>
  call @sink(%a) : (memref<4xf32>) -> ()
  %b = memref.alloc() : memref<4xf32>
  %p = memref.extract_aligned_pointer_as_index %b : memref<4xf32> -> index
  memref.store %p, %slot[%c0] : memref<1xindex>
  %c = memref.alloc() : memref<4xf32>
  %cast = memref.cast %c : memref<4xf32> to memref<?xf32>
  call @other() : () -> ()
  memref.dealloc %a : memref<4xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %c : memref<4xf32>
  return %cast : memref<?xf32>
}

// -----

// Each block on its own: a loop body's buffer is freed within the body
// after its last use there.
// CHECK-LABEL: func.func @nested(
// CHECK:         scf.for
// CHECK:           %[[T:.*]] = memref.alloc() : memref<4xf32>
// CHECK-NEXT:      memref.store %{{.*}}, %[[T]]
// CHECK-NEXT:      memref.dealloc %[[T]]
// CHECK-NEXT:      func.call @other()
// CHECK-NEXT:    }
func.func @nested(%n: index, %f: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    memref.store %f, %t[%c0] : memref<4xf32>
    func.call @other() : () -> ()
    memref.dealloc %t : memref<4xf32>
  }
  return
}
func.func private @other()
