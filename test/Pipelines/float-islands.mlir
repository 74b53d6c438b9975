// Float islands between qnt.dequantize and qnt.quantize: a softmax head
// (linalg.softmax, and spelled out with linalg.generic + math.exp), sigmoid
// and GELU (math.erf and the tanh form) compile with the integer ops of the
// same module through --qnt-to-llvm and run under mlir-runner.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

// linalg.softmax is decomposed on tensors (max, exp(x - max), sum, divide).
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-decompose-float-islands))" | FileCheck %s --check-prefix=DECOMP
// DECOMP-LABEL: func.func @softmax_head
// DECOMP: qnt.dequantize
// DECOMP-NOT: linalg.softmax
// DECOMP: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// DECOMP: arith.maxnumf
// DECOMP: linalg.generic
// DECOMP: arith.subf
// DECOMP: math.exp
// DECOMP: linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// DECOMP: arith.addf
// DECOMP: linalg.generic
// DECOMP: arith.divf
// DECOMP: qnt.quantize

// Every target: the module becomes an object whose only math symbols are
// libm's (expf, erff, tanhf), which utils/run-on-target.py links with -lm.
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64 | quant-translate --emit=obj -o %t.x86.o
// RUN: llvm-nm -u %t.x86.o | FileCheck %s --check-prefix=LIBM
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64 | quant-translate --emit=obj -o %t.a64.o
// RUN: llvm-nm -u %t.a64.o | FileCheck %s --check-prefix=LIBM
// RUN: quant-opt %s --qnt-to-llvm=target=riscv64 | quant-translate --emit=obj -o %t.rv.o
// RUN: llvm-nm -u %t.rv.o | FileCheck %s --check-prefix=LIBM
// LIBM-DAG: U erff
// LIBM-DAG: U expf
// LIBM-DAG: U tanhf

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)

!X = !quant.uniform<i8:f32, 0.5:1>
!P = !quant.uniform<i8:f32, 0.00390625:-128>

// Codes [[1, 1, 1, 1], [3, 1, 1, 1]] at (0.5, z = 1) are [[0, 0, 0, 0],
// [1, 0, 0, 0]]. Softmax: row 0 is 0.25 each, i.e. code 0.25 * 256 - 128 =
// -64; row 1 is e / (e + 3) = 0.475367 -> 121.69 -> 122 - 128 = -6 and
// 1 / (e + 3) = 0.174878 -> 44.77 -> 45 - 128 = -83.
func.func @softmax_head(%xi: tensor<2x4xi8>) -> tensor<2x4xi8> {
  %x = quant.scast %xi : tensor<2x4xi8> to tensor<2x4x!X>
  %f = qnt.dequantize %x : tensor<2x4x!X> -> tensor<2x4xf32>
  %e = tensor.empty() : tensor<2x4xf32>
  %s = linalg.softmax dimension(1) ins(%f : tensor<2x4xf32>) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %q = qnt.quantize %s : tensor<2x4xf32> -> tensor<2x4x!P>
  %qi = quant.scast %q : tensor<2x4x!P> to tensor<2x4xi8>
  return %qi : tensor<2x4xi8>
}

// The same softmax written out: row max, exp(x - max), row sum, divide.
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @softmax_explicit(%xi: tensor<2x4xi8>) -> tensor<2x4xi8> {
  %x = quant.scast %xi : tensor<2x4xi8> to tensor<2x4x!X>
  %f = qnt.dequantize %x : tensor<2x4x!X> -> tensor<2x4xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %max = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%f : tensor<2x4xf32>) outs(%minit : tensor<2xf32>) {
  ^bb0(%a: f32, %m: f32):
    %r = arith.maximumf %a, %m : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x4xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f, %max : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %m: f32, %o: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<2x4xf32>) outs(%sinit : tensor<2xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %soft = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp, %sum : tensor<2x4xf32>, tensor<2xf32>) outs(%e2 : tensor<2x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  %q = qnt.quantize %soft : tensor<2x4xf32> -> tensor<2x4x!P>
  %qi = quant.scast %q : tensor<2x4x!P> to tensor<2x4xi8>
  return %qi : tensor<2x4xi8>
}

// sigmoid(x) = 1 / (1 + exp(-x)) at x = [0, 2, -2]: [0.5, 0.880797,
// 0.119203], at (1/256, u8, z = 0): [128, 225.48 -> 225, 30.52 -> 31].
!U = !quant.uniform<u8:f32, 0.00390625>
#v = affine_map<(d0) -> (d0)>
func.func @sigmoid(%x: tensor<3xf32>) -> tensor<3xi8> {
  %e = tensor.empty() : tensor<3xf32>
  %s = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : tensor<3xf32>) outs(%e : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %ex = math.exp %n : f32
    %d = arith.addf %ex, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  %q = qnt.quantize %s : tensor<3xf32> -> tensor<3x!U>
  %qi = quant.scast %q : tensor<3x!U> to tensor<3xi8>
  return %qi : tensor<3xi8>
}

// GELU at x = [0, 1, -1, 3], quantized at (1/32, i8):
// erf form x * Phi(x) = [0, 0.841345, -0.158655, 2.995950];
// tanh form 0.5 x (1 + tanh(0.797885 (x + 0.044715 x^3))) =
// [0, 0.841192, -0.158808, 2.996363]; both * 32 = [0, 26.9, -5.08, 95.9]
// -> [0, 27, -5, 96].
!G = !quant.uniform<i8:f32, 0.03125>
func.func @gelu(%x: tensor<4xf32>) -> (tensor<4xi8>, tensor<4xi8>) {
  %e = tensor.empty() : tensor<4xf32>
  %erf = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %t = arith.mulf %a, %rsqrt2 : f32
    %er = math.erf %t : f32
    %p = arith.addf %er, %one : f32
    %h = arith.mulf %a, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %tanh = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %k = arith.constant 0.797884583 : f32
    %c = arith.constant 0.044715 : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %ca3 = arith.mulf %a3, %c : f32
    %in = arith.addf %a, %ca3 : f32
    %kin = arith.mulf %in, %k : f32
    %th = math.tanh %kin : f32
    %p = arith.addf %th, %one : f32
    %h = arith.mulf %a, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %qe = qnt.quantize %erf : tensor<4xf32> -> tensor<4x!G>
  %qt = qnt.quantize %tanh : tensor<4xf32> -> tensor<4x!G>
  %qei = quant.scast %qe : tensor<4x!G> to tensor<4xi8>
  %qti = quant.scast %qt : tensor<4x!G> to tensor<4xi8>
  return %qei, %qti : tensor<4xi8>, tensor<4xi8>
}

func.func @main() {
  %x = arith.constant dense<[[1, 1, 1, 1], [3, 1, 1, 1]]> : tensor<2x4xi8>
  %s = call @softmax_head(%x) : (tensor<2x4xi8>) -> tensor<2x4xi8>
  %sm = bufferization.to_buffer %s : tensor<2x4xi8> to memref<2x4xi8>
  %su = memref.cast %sm : memref<2x4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-64, -64, -64, -64],
  // CHECK-NEXT: [-6, -83, -83, -83]]
  call @printMemrefI8(%su) : (memref<*xi8>) -> ()
  %t = call @softmax_explicit(%x) : (tensor<2x4xi8>) -> tensor<2x4xi8>
  %tm = bufferization.to_buffer %t : tensor<2x4xi8> to memref<2x4xi8>
  %tu = memref.cast %tm : memref<2x4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[-64, -64, -64, -64],
  // CHECK-NEXT: [-6, -83, -83, -83]]
  call @printMemrefI8(%tu) : (memref<*xi8>) -> ()

  %sx = arith.constant dense<[0.0, 2.0, -2.0]> : tensor<3xf32>
  %sg = call @sigmoid(%sx) : (tensor<3xf32>) -> tensor<3xi8>
  %sgm = bufferization.to_buffer %sg : tensor<3xi8> to memref<3xi8>
  %sgu = memref.cast %sgm : memref<3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [128, 225, 31]
  call @printMemrefU8(%sgu) : (memref<*xi8>) -> ()

  %gx = arith.constant dense<[0.0, 1.0, -1.0, 3.0]> : tensor<4xf32>
  %ge, %gt = call @gelu(%gx) : (tensor<4xf32>) -> (tensor<4xi8>, tensor<4xi8>)
  %gem = bufferization.to_buffer %ge : tensor<4xi8> to memref<4xi8>
  %geu = memref.cast %gem : memref<4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 27, -5, 96]
  call @printMemrefI8(%geu) : (memref<*xi8>) -> ()
  %gtm = bufferization.to_buffer %gt : tensor<4xi8> to memref<4xi8>
  %gtu = memref.cast %gtm : memref<4xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [0, 27, -5, 96]
  call @printMemrefI8(%gtu) : (memref<*xi8>) -> ()
  return
}
