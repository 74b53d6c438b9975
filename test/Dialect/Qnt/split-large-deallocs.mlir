// RUN: quant-opt %s --split-input-file --qnt-split-large-deallocs="chunk=2" | FileCheck %s

// Five fresh buffers, chunks of two: three deallocs with the same retained
// list, whose updated conditions are or-ed.
// CHECK-LABEL: func.func @fresh(
// CHECK-SAME:      %[[R:.*]]: memref<4xf32>, %[[T:.*]]: i1, %[[U:.*]]: i1)
// CHECK:         %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[B:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[C:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[D:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[E:.*]] = memref.alloc() : memref<4xf32>
// CHECK:         %[[P0:.*]] = bufferization.dealloc (%[[A]], %[[B]] : memref<4xf32>, memref<4xf32>) if (%[[T]], %[[U]]) retain (%[[R]] : memref<4xf32>)
// CHECK-NEXT:    %[[P1:.*]] = bufferization.dealloc (%[[C]], %[[D]] : memref<4xf32>, memref<4xf32>) if (%[[T]], %[[T]]) retain (%[[R]] : memref<4xf32>)
// CHECK-NEXT:    %[[O1:.*]] = arith.ori %[[P0]], %[[P1]] : i1
// CHECK-NEXT:    %[[P2:.*]] = bufferization.dealloc (%[[E]] : memref<4xf32>) if (%[[U]]) retain (%[[R]] : memref<4xf32>)
// CHECK-NEXT:    %[[O2:.*]] = arith.ori %[[O1]], %[[P2]] : i1
// CHECK-NEXT:    return %[[O2]] : i1
func.func @fresh(%r: memref<4xf32>, %t: i1, %u: i1) -> i1 {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  %c = memref.alloc() : memref<4xf32>
  %d = memref.alloc() : memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  %0 = bufferization.dealloc (%a, %b, %c, %d, %e : memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%t, %u, %t, %t, %u) retain (%r : memref<4xf32>)
  return %0 : i1
}

// -----

// Left alone: a memref that is not a fresh allocation (an argument may alias
// the others), the same buffer twice, and a dealloc within the chunk.
// CHECK-LABEL: func.func @kept(
// CHECK-COUNT-3: bufferization.dealloc
// CHECK-NOT:     arith.ori
func.func @kept(%arg: memref<4xf32>, %t: i1) {
  %a = memref.alloc() : memref<4xf32>
  %b = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%a, %b, %arg : memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%t, %t, %t)
  %c = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%c, %c, %c : memref<4xf32>, memref<4xf32>, memref<4xf32>) if (%t, %t, %t)
  %d = memref.alloc() : memref<4xf32>
  %e = memref.alloc() : memref<4xf32>
  bufferization.dealloc (%d, %e : memref<4xf32>, memref<4xf32>) if (%t, %t)
  return
}
