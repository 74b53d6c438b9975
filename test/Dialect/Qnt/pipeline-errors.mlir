// Bad input reaching the integer pipeline is reported with a diagnostic,
// never a crash. Each pass gets its own input (split-file), each case its own
// split.
// RUN: split-file %s %t
// RUN: quant-opt %t/rounding.mlir -qnt-fixed-point-multiplier -split-input-file -verify-diagnostics
// RUN: quant-opt %t/constant-weights.mlir -split-input-file -verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(qnt-fold-zero-points{require-constant-weights=true}))'
// RUN: quant-opt %t/leftover.mlir -qnt-strip-quant-types -split-input-file -verify-diagnostics

//--- rounding.mlir

// An unknown rounding never reaches qnt-fixed-point-multiplier: the
// verifier rejects it while parsing.
func.func @unknown_rounding(%a: tensor<2x!quant.uniform<i32:f32, 0.0072>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>> {
  // expected-error@+1 {{'qnt.requantize' op unknown rounding "nearest"; expected one of "double", "single", "away", "half_even", "float"}}
  %y = "qnt.requantize"(%a) {rounding = "nearest"} : (tensor<2x!quant.uniform<i32:f32, 0.0072>>) -> tensor<2x!quant.uniform<i8:f32, 1.0>>
  return %y : tensor<2x!quant.uniform<i8:f32, 1.0>>
}

//--- constant-weights.mlir

func.func @runtime_matmul_weights(%x: tensor<1x3x!quant.uniform<i8:f32, 0.05:-10>>, %w: tensor<3x1x!quant.uniform<i8:f32, 0.01>>)
    -> tensor<1x1x!quant.uniform<i32:f32, 0.0005>> {
  // expected-error@+1 {{'qnt.matmul' op 'w' must be a compile-time constant for qnt-fold-zero-points (require-constant-weights)}}
  %a = qnt.matmul %x, %w : tensor<1x3x!quant.uniform<i8:f32, 0.05:-10>>, tensor<3x1x!quant.uniform<i8:f32, 0.01>> -> tensor<1x1x!quant.uniform<i32:f32, 0.0005>>
  return %a : tensor<1x1x!quant.uniform<i32:f32, 0.0005>>
}

// -----

func.func @runtime_conv_weights(%x: tensor<1x3x3x1x!quant.uniform<u8:f32, 0.05:128>>, %w: tensor<3x3x1x2x!quant.uniform<i8:f32, 0.01>>)
    -> tensor<1x1x1x2x!quant.uniform<i32:f32, 0.0005>> {
  // expected-error@+1 {{'qnt.conv2d' op 'w' must be a compile-time constant for qnt-fold-zero-points (require-constant-weights)}}
  %a = qnt.conv2d %x, %w : tensor<1x3x3x1x!quant.uniform<u8:f32, 0.05:128>>, tensor<3x3x1x2x!quant.uniform<i8:f32, 0.01>> -> tensor<1x1x1x2x!quant.uniform<i32:f32, 0.0005>>
  return %a : tensor<1x1x1x2x!quant.uniform<i32:f32, 0.0005>>
}

// -----

// Weights written in float are constant once folded: no error.
func.func @float_weights_are_constant(%x: tensor<1x3x!quant.uniform<i8:f32, 0.05:-10>>) -> tensor<1x1x!quant.uniform<i32:f32, 0.0005>> {
  %wf = arith.constant dense<[[0.5], [-0.3], [0.2]]> : tensor<3x1xf32>
  %w = qnt.quantize %wf : tensor<3x1xf32> -> tensor<3x1x!quant.uniform<i8:f32, 0.01>>
  %a = qnt.matmul %x, %w : tensor<1x3x!quant.uniform<i8:f32, 0.05:-10>>, tensor<3x1x!quant.uniform<i8:f32, 0.01>> -> tensor<1x1x!quant.uniform<i32:f32, 0.0005>>
  return %a : tensor<1x1x!quant.uniform<i32:f32, 0.0005>>
}

//--- leftover.mlir

!X = !quant.uniform<i8:f32, 0.05:-10>
!W = !quant.uniform<i8:f32, 0.01>
!A = !quant.uniform<i32:f32, 0.0005>

func.func @leftover_matmul(%x: tensor<1x3x!X>) -> tensor<1x1x!A> {
  %w = qnt.constant dense<[[50], [-30], [20]]> : tensor<3x1xi8> -> tensor<3x1x!W>
  // expected-error@+1 {{'qnt.matmul' op is still present in qnt-strip-quant-types: run qnt-fold-zero-points first}}
  %a = qnt.matmul %x, %w : tensor<1x3x!X>, tensor<3x1x!W> -> tensor<1x1x!A>
  return %a : tensor<1x1x!A>
}

// -----

func.func @leftover_conv_and_requantize(%x: tensor<1x3x3x1x!quant.uniform<i8:f32, 0.05:-10>>, %w: tensor<3x3x1x1x!quant.uniform<i8:f32, 0.01>>)
    -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.1:-5>> {
  // expected-error@+1 {{'qnt.conv2d' op is still present in qnt-strip-quant-types: run qnt-fold-zero-points first}}
  %a = qnt.conv2d %x, %w : tensor<1x3x3x1x!quant.uniform<i8:f32, 0.05:-10>>, tensor<3x3x1x1x!quant.uniform<i8:f32, 0.01>> -> tensor<1x1x1x1x!quant.uniform<i32:f32, 0.0005>>
  // expected-error@+1 {{'qnt.requantize' op is still present in qnt-strip-quant-types: run qnt-fixed-point-multiplier first}}
  %y = qnt.requantize %a : tensor<1x1x1x1x!quant.uniform<i32:f32, 0.0005>> -> tensor<1x1x1x1x!quant.uniform<i8:f32, 0.1:-5>>
  return %y : tensor<1x1x1x1x!quant.uniform<i8:f32, 0.1:-5>>
}

// -----

// Upstream quant casts have no integer form here: reported, not rewritten
// into invalid IR.
func.func @leftover_qcast(%f: tensor<2xf32>) -> tensor<2x!quant.uniform<i8:f32, 0.5>> {
  // expected-error@+1 {{'quant.qcast' op is not supported by qnt-strip-quant-types: use qnt.quantize instead}}
  %q = quant.qcast %f : tensor<2xf32> to tensor<2x!quant.uniform<i8:f32, 0.5>>
  return %q : tensor<2x!quant.uniform<i8:f32, 0.5>>
}

// -----

func.func @leftover_dcast(%q: tensor<2x!quant.uniform<i8:f32, 0.5>>) -> tensor<2xf32> {
  // expected-error@+1 {{'quant.dcast' op is not supported by qnt-strip-quant-types: use qnt.dequantize instead}}
  %f = quant.dcast %q : tensor<2x!quant.uniform<i8:f32, 0.5>> to tensor<2xf32>
  return %f : tensor<2xf32>
}
