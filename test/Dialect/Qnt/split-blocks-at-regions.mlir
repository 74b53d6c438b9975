// RUN: quant-opt %s --split-input-file --qnt-split-blocks-at-regions | FileCheck %s

// Each top-level op with regions but the first starts a block of its own,
// reached by cf.br; the ops between two loops stay with the earlier one.
// CHECK-LABEL: func.func @loops(
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    cf.br ^bb1
// CHECK-NEXT:  ^bb1:
// CHECK-NEXT:    scf.for
// CHECK:         }
// CHECK-NEXT:    %[[X:.*]] = arith.addi %[[C0]], %[[C1]] : index
// CHECK-NEXT:    cf.br ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    scf.for
// CHECK-NEXT:      scf.for
// CHECK-NEXT:        memref.store
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[X]] : index
func.func @loops(%m: memref<4xindex>) -> index {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %i, %m[%i] : memref<4xindex>
  }
  %x = arith.addi %c0, %c1 : index
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      memref.store %j, %m[%i] : memref<4xindex>
    }
  }
  return %x : index
}

// -----

// A region op first in its block needs no split; loop bodies are never
// split (they must stay one block); nothing else changes.
// CHECK-LABEL: func.func @first(
// CHECK-NOT:     cf.br
// CHECK:         scf.for
// CHECK:           scf.for
// CHECK-NOT:     cf.br
// CHECK:         return
func.func @first(%m: memref<4xindex>, %c0: index, %c4: index, %c1: index) {
  scf.for %i = %c0 to %c4 step %c1 {
    memref.store %i, %m[%i] : memref<4xindex>
    scf.for %j = %c0 to %c4 step %c1 {
      memref.store %j, %m[%i] : memref<4xindex>
    }
  }
  return
}
