// The runtime-scale ops in generic form with bad attributes, types or shapes:
// quant-ref-run checks them itself (it links no verifier) and names the rule;
// it never aborts in a reference kernel. One function per case, with -e.
// RUN: not quant-ref-run %s -e bad_mode 2>&1 | FileCheck %s --check-prefix=BAD-MODE
// RUN: not quant-ref-run %s -e onnx_axis 2>&1 | FileCheck %s --check-prefix=ONNX-AXIS
// RUN: not quant-ref-run %s -e symmetric_axis 2>&1 | FileCheck %s --check-prefix=SYMMETRIC-AXIS
// RUN: not quant-ref-run %s -e onnx_result_type 2>&1 | FileCheck %s --check-prefix=ONNX-RESULT-TYPE
// RUN: not quant-ref-run %s -e deq_src_type 2>&1 | FileCheck %s --check-prefix=DEQ-SRC-TYPE
// RUN: not quant-ref-run %s -e deq_broadcast 2>&1 | FileCheck %s --check-prefix=DEQ-BROADCAST
// RUN: not quant-ref-run %s -e deq_rank 2>&1 | FileCheck %s --check-prefix=DEQ-RANK
// RUN: not quant-ref-run %s -e q_result_type 2>&1 | FileCheck %s --check-prefix=Q-RESULT-TYPE
// RUN: not quant-ref-run %s -e q_unknown_attribute 2>&1 | FileCheck %s --check-prefix=Q-UNKNOWN-ATTRIBUTE

// BAD-MODE: error: quant-ref-run: 'mode' must be "onnx" or "symmetric"
func.func @bad_mode() {
  %x = arith.constant dense<1.0> : tensor<2xf32>
  %c:3 = "qnt.dynamic_quantize"(%x) <{mode = "asymmetric"}> : (tensor<2xf32>) -> (tensor<2xui8>, tensor<f32>, tensor<ui8>)
  return
}

// ONNX-AXIS: error: quant-ref-run: mode "onnx" takes no 'axis'
func.func @onnx_axis() {
  %x = arith.constant dense<1.0> : tensor<2xf32>
  %c:3 = "qnt.dynamic_quantize"(%x) <{mode = "onnx", axis = 0 : i64}> : (tensor<2xf32>) -> (tensor<2xui8>, tensor<f32>, tensor<ui8>)
  return
}

// SYMMETRIC-AXIS: error: quant-ref-run: mode "symmetric" needs an 'axis' inside the rank of 'x'
func.func @symmetric_axis() {
  %x = arith.constant dense<1.0> : tensor<2xf32>
  %c:3 = "qnt.dynamic_quantize"(%x) <{mode = "symmetric", axis = 1 : i64}> : (tensor<2xf32>) -> (tensor<2xi8>, tensor<2xf32>, tensor<2xi8>)
  return
}

// ONNX-RESULT-TYPE: error: quant-ref-run: result #0 must be 'tensor<2xui8>' for mode "onnx", got 'tensor<2xi8>'
func.func @onnx_result_type() {
  %x = arith.constant dense<1.0> : tensor<2xf32>
  %c:3 = "qnt.dynamic_quantize"(%x) <{mode = "onnx"}> : (tensor<2xf32>) -> (tensor<2xi8>, tensor<f32>, tensor<ui8>)
  return
}

// DEQ-SRC-TYPE: error: quant-ref-run: 'src' must be a tensor of i8, ui8, i16 or i32, got 'tensor<2xsi8>'
func.func @deq_src_type() {
  %q = arith.constant dense<1> : tensor<2xsi8>
  %s = arith.constant dense<1.0> : tensor<1xf32>
  %r = "qnt.dequantize_dynamic"(%q, %s, %s) : (tensor<2xsi8>, tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
  return
}

// DEQ-BROADCAST: error: quant-ref-run: 'scale' dimension 1 must be 1 or 3, got 'tensor<2x2xf32>'
func.func @deq_broadcast() {
  %q = arith.constant dense<1> : tensor<2x3xi8>
  %s = arith.constant dense<1.0> : tensor<2x2xf32>
  %o = arith.constant dense<1.0> : tensor<1x1xf32>
  %r = "qnt.dequantize_dynamic"(%q, %s, %o) : (tensor<2x3xi8>, tensor<2x2xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
  return
}

// DEQ-RANK: error: quant-ref-run: 'offset' must have rank 2, got 'tensor<3xf32>'
func.func @deq_rank() {
  %q = arith.constant dense<1> : tensor<2x3xi8>
  %s = arith.constant dense<1.0> : tensor<1x1xf32>
  %o = arith.constant dense<1.0> : tensor<3xf32>
  %r = "qnt.dequantize_dynamic"(%q, %s, %o) : (tensor<2x3xi8>, tensor<1x1xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// Q-RESULT-TYPE: error: quant-ref-run: result must be a tensor of i8, ui8 or i16, got 'tensor<2xi32>'
func.func @q_result_type() {
  %x = arith.constant dense<1.0> : tensor<2xf32>
  %s = arith.constant dense<1.0> : tensor<1xf32>
  %q = "qnt.quantize_dynamic"(%x, %s, %s) : (tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2xi32>
  return
}

// Q-UNKNOWN-ATTRIBUTE: error: quant-ref-run: unknown attribute 'rounding' on 'qnt.quantize_dynamic'
func.func @q_unknown_attribute() {
  %x = arith.constant dense<1.0> : tensor<2xf32>
  %s = arith.constant dense<1.0> : tensor<1xf32>
  %q = "qnt.quantize_dynamic"(%x, %s, %s) <{rounding = "double"}> : (tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2xi8>
  return
}
