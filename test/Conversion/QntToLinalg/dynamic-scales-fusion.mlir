// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-dynamic-scales-to-linalg))" | FileCheck %s

// The runtime-scale matmul's epilogue: the per-element scale is the product
// of a row and a column scale (an elementwise linalg.generic), and an
// elementwise op follows the dequantization. Both fuse into one loop that
// reads the row and column scales through their broadcasting maps: the
// product is formed per element, first, exactly as the producer did; the
// dequantization's steps follow in the contract's order, then the consumer's.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @row_times_column
// CHECK-SAME: (%[[ACC:.+]]: tensor<2x3xi32>, %[[RS:.+]]: tensor<2xf32>, %[[CS:.+]]: tensor<3xf32>)
// CHECK: %[[Y:.+]] = linalg.generic
// CHECK-SAME: ins(%[[ACC]], %[[RS]], %[[CS]], %{{.+}} : tensor<2x3xi32>, tensor<2xf32>, tensor<3xf32>, tensor<1x1xf32>)
// CHECK: ^bb0(%[[A:[^:]+]]: i32, %[[R:[^:]+]]: f32, %[[C:[^:]+]]: f32, %[[Z:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[P:.+]] = arith.mulf %[[R]], %[[C]] : f32
// CHECK-NEXT: %[[F:.+]] = arith.sitofp %[[A]] : i32 to f32
// CHECK-NEXT: %[[D:.+]] = arith.subf %[[F]], %[[Z]] : f32
// CHECK-NEXT: %[[V:.+]] = arith.mulf %[[D]], %[[P]] : f32
// CHECK-NEXT: %[[E:.+]] = arith.addf %[[V]], %[[V]] : f32
// CHECK-NEXT: linalg.yield %[[E]] : f32
// CHECK-NOT: linalg.generic
// CHECK: return %[[Y]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @row_times_column(%acc: tensor<2x3xi32>, %rs: tensor<2xf32>, %cs: tensor<3xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x3xf32>
  %scale = linalg.generic {indexing_maps = [#row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rs, %cs : tensor<2xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  %zero = arith.constant dense<0.0> : tensor<1x1xf32>
  %d = qnt.dequantize_dynamic %acc, %scale, %zero : tensor<2x3xi32>, tensor<2x3xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<2x3xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %v : f32
    linalg.yield %t : f32
  } -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

// -----

// Nothing is computed twice: a scale product with a second user, and a
// dequantized tensor with two users, stay separate loops; so does a
// reduction that consumes the dequantized tensor.
// CHECK-LABEL: func.func @shared
// CHECK: %[[S:.+]] = linalg.generic
// CHECK: arith.mulf
// CHECK: %[[D:.+]] = linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[S]], %{{.+}} :
// CHECK: arith.sitofp
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[D]] :
// CHECK: arith.addf
// CHECK: return %[[S]], %[[D]]
// CHECK-LABEL: func.func @reduction_user
// CHECK: %[[D2:.+]] = linalg.generic
// CHECK: arith.sitofp
// CHECK: linalg.generic
// CHECK-SAME: iterator_types = ["parallel", "reduction"]
// CHECK-SAME: ins(%[[D2]] :
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @shared(%acc: tensor<2x3xi32>, %rs: tensor<2xf32>, %cs: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %e = tensor.empty() : tensor<2x3xf32>
  %scale = linalg.generic {indexing_maps = [#row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%rs, %cs : tensor<2xf32>, tensor<3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %p = arith.mulf %a, %b : f32
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  %zero = arith.constant dense<0.0> : tensor<1x1xf32>
  %d = qnt.dequantize_dynamic %acc, %scale, %zero : tensor<2x3xi32>, tensor<2x3xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    %t = arith.addf %v, %v : f32
    linalg.yield %t : f32
  } -> tensor<2x3xf32>
  return %scale, %d, %y : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

func.func @reduction_user(%acc: tensor<2x3xi32>, %scale: tensor<2x1xf32>) -> tensor<2xf32> {
  %zero = arith.constant dense<0.0> : tensor<1x1xf32>
  %d = qnt.dequantize_dynamic %acc, %scale, %zero : tensor<2x3xi32>, tensor<2x1xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  %init = arith.constant dense<0.0> : tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<2x3xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%v: f32, %acc2: f32):
    %t = arith.addf %v, %acc2 : f32
    linalg.yield %t : f32
  } -> tensor<2xf32>
  return %sum : tensor<2xf32>
}

// -----

// A producer read through a broadcast (a per-row scale computed by a
// generic) would run once per element if fused: it stays a separate loop.
// CHECK-LABEL: func.func @broadcast_producer
// CHECK: %[[RS:.+]] = linalg.generic
// CHECK: arith.divf
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[RS]], %{{.+}} :
// CHECK-NOT: arith.divf
// CHECK: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @broadcast_producer(%acc: tensor<2x3xi32>, %m: tensor<2x1xf32>) -> tensor<2x3xf32> {
  %e = tensor.empty() : tensor<2x1xf32>
  %rs = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%m : tensor<2x1xf32>) outs(%e : tensor<2x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 127.0 : f32
    %s = arith.divf %a, %c : f32
    linalg.yield %s : f32
  } -> tensor<2x1xf32>
  %zero = arith.constant dense<0.0> : tensor<1x1xf32>
  %d = qnt.dequantize_dynamic %acc, %rs, %zero : tensor<2x3xi32>, tensor<2x1xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}

// -----

// One dequantization feeding another (as its scale): each keeps its loop.
// CHECK-LABEL: func.func @chained
// CHECK: %[[S:.+]] = linalg.generic
// CHECK: arith.sitofp
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.+}}, %[[S]], %{{.+}} :
// CHECK: arith.sitofp
func.func @chained(%acc: tensor<2x3xi32>, %q: tensor<2x3xi8>, %m: tensor<1x1xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant dense<0.0> : tensor<1x1xf32>
  %s = qnt.dequantize_dynamic %q, %m, %zero : tensor<2x3xi8>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  %d = qnt.dequantize_dynamic %acc, %s, %zero : tensor<2x3xi32>, tensor<2x3xf32>, tensor<1x1xf32> -> tensor<2x3xf32>
  return %d : tensor<2x3xf32>
}
