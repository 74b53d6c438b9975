// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-dynamic-scales-to-linalg))" | FileCheck %s
// qnt-to-linalg takes the same patterns.
// RUN: quant-opt %s --split-input-file --pass-pipeline="builtin.module(func.func(qnt-to-linalg))" | FileCheck %s
// Through the whole pipeline: the f32 steps stay plain IEEE operations (no
// fast-math flag, true divisions, roundeven, NaN-propagating minimum/maximum
// for the ranges).
// RUN: quant-opt %s --split-input-file --qnt-to-llvm | FileCheck %s --check-prefix=LLVM --implicit-check-not=fastmath
// LLVM-LABEL: llvm.func @dequantize
// LLVM: llvm.uitofp
// LLVM-NEXT: llvm.fsub
// LLVM-NEXT: llvm.fmul
// LLVM-LABEL: llvm.func @quantize
// LLVM: llvm.fdiv
// LLVM-NEXT: llvm.intr.roundeven
// LLVM-LABEL: llvm.func @onnx
// LLVM-DAG: llvm.intr.minimum
// LLVM-DAG: llvm.intr.maximum
// LLVM-LABEL: llvm.func @symmetric
// LLVM: llvm.intr.fabs
// LLVM-NEXT: llvm.intr.maximum

// ui8 codes are read through a bitcast to i8 and converted unsigned; the
// per-row scale and per-column offset are read through broadcasting maps.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.+]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[COL:.+]] = affine_map<(d0, d1) -> (0, d1)>
// CHECK-LABEL: func.func @dequantize
// CHECK-SAME: (%[[SRC:.+]]: tensor<4x8xui8>, %[[S:.+]]: tensor<4x1xf32>, %[[O:.+]]: tensor<1x8xf32>)
// CHECK: %[[RAW:.+]] = tensor.bitcast %[[SRC]] : tensor<4x8xui8> to tensor<4x8xi8>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[COL]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%[[RAW]], %[[S]], %[[O]] :
// CHECK: ^bb0(%[[Q:[^:]+]]: i8, %[[SC:[^:]+]]: f32, %[[OF:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT: %[[F:.+]] = arith.uitofp %[[Q]] : i8 to f32
// CHECK-NEXT: %[[C:.+]] = arith.subf %[[F]], %[[OF]] : f32
// CHECK-NEXT: %[[R:.+]] = arith.mulf %[[C]], %[[SC]] : f32
// CHECK-NEXT: linalg.yield %[[R]]
func.func @dequantize(%src: tensor<4x8xui8>, %scale: tensor<4x1xf32>, %offset: tensor<1x8xf32>) -> tensor<4x8xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset : tensor<4x8xui8>, tensor<4x1xf32>, tensor<1x8xf32> -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// i32 accumulators convert signed.
// CHECK-LABEL: func.func @dequantize_i32
// CHECK: arith.sitofp %{{.+}} : i32 to f32
func.func @dequantize_i32(%src: tensor<2x2xi32>, %scale: tensor<1x1xf32>) -> tensor<2x2xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %scale : tensor<2x2xi32>, tensor<1x1xf32>, tensor<1x1xf32> -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}

// -----

// x / scale, round half even, NaN -> 0, + offset, clamp to the ui8 range,
// then the codes bitcast back to ui8.
// CHECK-LABEL: func.func @quantize
// CHECK: %[[G:.+]] = linalg.generic
// CHECK: ^bb0(%[[X:[^:]+]]: f32, %[[SC:[^:]+]]: f32, %[[OF:[^:]+]]: f32, %{{.+}}: i8):
// CHECK-NEXT: %[[D:.+]] = arith.divf %[[X]], %[[SC]] : f32
// CHECK-NEXT: %[[R:.+]] = math.roundeven %[[D]] : f32
// CHECK-NEXT: %[[NAN:.+]] = arith.cmpf uno, %[[R]], %[[R]] : f32
// CHECK: %[[R0:.+]] = arith.select %[[NAN]], %{{.+}}, %[[R]] : f32
// CHECK-NEXT: %[[SUM:.+]] = arith.addf %[[R0]], %[[OF]] : f32
// CHECK: arith.constant 0.000000e+00 : f32
// CHECK: arith.maxnumf
// CHECK: arith.constant 2.550000e+02 : f32
// CHECK: arith.minnumf
// CHECK: math.roundeven
// CHECK: arith.fptosi %{{.+}} : f32 to i32
// CHECK: arith.trunci %{{.+}} : i32 to i8
// CHECK: tensor.bitcast %[[G]] : tensor<4x8xi8> to tensor<4x8xui8>
func.func @quantize(%x: tensor<4x8xf32>, %scale: tensor<4x1xf32>, %offset: tensor<4x1xf32>) -> tensor<4x8xui8> {
  %q = qnt.quantize_dynamic %x, %scale, %offset : tensor<4x8xf32>, tensor<4x1xf32>, tensor<4x1xf32> -> tensor<4x8xui8>
  return %q : tensor<4x8xui8>
}

// -----

// i16 codes clamp to [-32768, 32767].
// CHECK-LABEL: func.func @quantize_i16
// CHECK: arith.constant -3.276800e+04 : f32
// CHECK: arith.constant 3.276700e+04 : f32
// CHECK: arith.trunci %{{.+}} : i32 to i16
func.func @quantize_i16(%x: tensor<4xf32>, %p: tensor<1xf32>) -> tensor<4xi16> {
  %q = qnt.quantize_dynamic %x, %p, %p : tensor<4xf32>, tensor<1xf32>, tensor<1xf32> -> tensor<4xi16>
  return %q : tensor<4xi16>
}

// -----

// ONNX: a full reduction to min and max (from 0, NaN-propagating), a rank-0
// step for scale and zero point, then the codes.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ALL:.+]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[SCALAR:.+]] = affine_map<() -> ()>
// CHECK-LABEL: func.func @onnx
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<f32>)
// CHECK: %[[RANGE:.+]]:2 = linalg.generic {indexing_maps = [#[[ID]], #[[ALL]], #[[ALL]]], iterator_types = ["reduction", "reduction"]}
// CHECK-SAME: outs(%[[ZERO]], %[[ZERO]] :
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: %[[P:.+]]:2 = linalg.generic {indexing_maps = [#[[SCALAR]], #[[SCALAR]], #[[SCALAR]], #[[SCALAR]]], iterator_types = []}
// CHECK: ^bb0(%[[LO:[^:]+]]: f32, %[[HI:[^:]+]]: f32,
// CHECK-NEXT: %[[SAME:.+]] = arith.cmpf oeq, %[[HI]], %[[LO]]
// CHECK-NEXT: %[[W:.+]] = arith.subf %[[HI]], %[[LO]]
// CHECK: arith.divf %[[W]], %{{.+}}
// CHECK: %[[SCALE:.+]] = arith.select %[[SAME]]
// CHECK: arith.divf %[[LO]], %[[SCALE]]
// CHECK: arith.cmpf olt
// CHECK: arith.cmpf olt
// CHECK: math.roundeven
// CHECK: %[[CODES:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[ALL]], #[[ALL]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME: ins(%{{.+}}, %[[P]]#0, %[[P]]#1 :
// CHECK: arith.extui
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: %[[C8:.+]] = tensor.bitcast %[[CODES]] : tensor<4x8xi8> to tensor<4x8xui8>
// CHECK: %[[Z8:.+]] = tensor.bitcast %[[P]]#1 : tensor<i8> to tensor<ui8>
// CHECK: return %[[C8]], %[[P]]#0, %[[Z8]]
func.func @onnx(%x: tensor<4x8xf32>) -> (tensor<4x8xui8>, tensor<f32>, tensor<ui8>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x8xf32> -> tensor<4x8xui8>, tensor<f32>, tensor<ui8>
  return %c, %s, %z : tensor<4x8xui8>, tensor<f32>, tensor<ui8>
}

// -----

// Symmetric along axis 1: max |x| per column, scale per column, codes.
// CHECK-DAG: #[[ID:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COLUMN:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @symmetric
// CHECK: %[[M:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[COLUMN]]], iterator_types = ["reduction", "parallel"]}
// CHECK: math.absf
// CHECK: arith.maximumf
// CHECK: %[[S:.+]] = linalg.generic
// CHECK-SAME: ins(%[[M]] : tensor<8xf32>)
// CHECK: arith.cmpf oeq
// CHECK: arith.constant 1.270000e+02 : f32
// CHECK: arith.divf
// CHECK: %[[C:.+]] = linalg.generic {indexing_maps = [#[[ID]], #[[COLUMN]], #[[ID]]]
// CHECK-SAME: ins(%{{.+}}, %[[S]] :
// CHECK: arith.constant -1.280000e+02 : f32
// CHECK: arith.constant 1.270000e+02 : f32
// CHECK: %[[Z:.+]] = linalg.fill ins(%{{.+}} : i8) outs(%{{.+}} : tensor<8xi8>)
// CHECK: return %[[C]], %[[S]], %[[Z]]
func.func @symmetric(%x: tensor<4x8xf32>) -> (tensor<4x8xi8>, tensor<8xf32>, tensor<8xi8>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "symmetric", axis = 1 : i64} : tensor<4x8xf32> -> tensor<4x8xi8>, tensor<8xf32>, tensor<8xi8>
  return %c, %s, %z : tensor<4x8xi8>, tensor<8xf32>, tensor<8xi8>
}

// -----

// From 2048 elements (a multiple of 1024) the range goes through 1024
// partial minima / maxima, which start from 0: x as a 2x1024 matrix reduced
// along its rows (the inner, parallel loop vectorizes), then the partials
// reduced from 0. IEEE minimum / maximum, NaN-propagating, at every step.
// CHECK-DAG: #[[MAT:.+]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[LANE:.+]] = affine_map<(d0, d1) -> (d1)>
// CHECK-DAG: #[[VEC:.+]] = affine_map<(d0) -> (d0)>
// CHECK-DAG: #[[ALL:.+]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @onnx_partials
// CHECK-SAME: (%[[X:.+]]: tensor<4x512xf32>)
// CHECK: %[[ZERO:.+]] = linalg.fill ins(%{{.+}} : f32) outs(%{{.+}} : tensor<f32>)
// CHECK: %[[FLAT:.+]] = tensor.collapse_shape %[[X]] {{\[}}[0, 1]] : tensor<4x512xf32> into tensor<2048xf32>
// CHECK: %[[MATRIX:.+]] = tensor.expand_shape %[[FLAT]] {{\[}}[0, 1]] output_shape [2, 1024] : tensor<2048xf32> into tensor<2x1024xf32>
// CHECK: %[[INIT:.+]] = linalg.broadcast ins(%[[ZERO]] : tensor<f32>) outs(%{{.+}} : tensor<1024xf32>)
// CHECK: %[[P:.+]]:2 = linalg.generic {indexing_maps = [#[[MAT]], #[[LANE]], #[[LANE]]], iterator_types = ["reduction", "parallel"]}
// CHECK-SAME: ins(%[[MATRIX]] : tensor<2x1024xf32>) outs(%[[INIT]], %[[INIT]] :
// CHECK-NEXT: ^bb0(%[[E:[^:]+]]: f32, %[[LO:[^:]+]]: f32, %[[HI:[^:]+]]: f32):
// CHECK-NEXT: arith.minimumf %[[LO]], %[[E]] : f32
// CHECK-NEXT: arith.maximumf %[[HI]], %[[E]] : f32
// CHECK: linalg.generic {indexing_maps = [#[[VEC]], #[[ALL]]], iterator_types = ["reduction"]}
// CHECK-SAME: ins(%[[P]]#0 : tensor<1024xf32>) outs(%[[ZERO]] : tensor<f32>)
// CHECK: arith.minimumf
// CHECK: linalg.generic {indexing_maps = [#[[VEC]], #[[ALL]]], iterator_types = ["reduction"]}
// CHECK-SAME: ins(%[[P]]#1 : tensor<1024xf32>) outs(%[[ZERO]] : tensor<f32>)
// CHECK: arith.maximumf
func.func @onnx_partials(%x: tensor<4x512xf32>) -> (tensor<4x512xui8>, tensor<f32>, tensor<ui8>) {
  %c, %s, %z = qnt.dynamic_quantize %x {mode = "onnx"} : tensor<4x512xf32> -> tensor<4x512xui8>, tensor<f32>, tensor<ui8>
  return %c, %s, %z : tensor<4x512xui8>, tensor<f32>, tensor<ui8>
}
