// Bad attributes and operands in generic form: quant-ref-run checks them
// itself (it links no verifier) and names the rule; it never aborts in a
// reference kernel. One function per case, selected with -e.
// RUN: not quant-ref-run %s -e bad_rounding 2>&1 | FileCheck %s --check-prefix=BAD-ROUNDING
// RUN: not quant-ref-run %s -e rounding_not_string 2>&1 | FileCheck %s --check-prefix=ROUNDING-NOT-STRING
// RUN: not quant-ref-run %s -e unknown_attribute 2>&1 | FileCheck %s --check-prefix=UNKNOWN-ATTRIBUTE
// RUN: not quant-ref-run %s -e dilations_on_avg_pool 2>&1 | FileCheck %s --check-prefix=DILATIONS-ON-AVG-POOL
// RUN: not quant-ref-run %s -e missing_kernel 2>&1 | FileCheck %s --check-prefix=MISSING-KERNEL
// RUN: not quant-ref-run %s -e kernel_size 2>&1 | FileCheck %s --check-prefix=KERNEL-SIZE
// RUN: not quant-ref-run %s -e zero_stride 2>&1 | FileCheck %s --check-prefix=ZERO-STRIDE
// RUN: not quant-ref-run %s -e pad_as_large_as_kernel 2>&1 | FileCheck %s --check-prefix=PAD-AS-LARGE-AS-KERNEL
// RUN: not quant-ref-run %s -e window_without_input 2>&1 | FileCheck %s --check-prefix=WINDOW-WITHOUT-INPUT
// RUN: not quant-ref-run %s -e pool_result_shape 2>&1 | FileCheck %s --check-prefix=POOL-RESULT-SHAPE
// RUN: not quant-ref-run %s -e count_include_pad_not_bool 2>&1 | FileCheck %s --check-prefix=COUNT-INCLUDE-PAD-NOT-BOOL
// RUN: not quant-ref-run %s -e clamp_outside_storage 2>&1 | FileCheck %s --check-prefix=CLAMP-OUTSIDE-STORAGE
// RUN: not quant-ref-run %s -e clamp_size 2>&1 | FileCheck %s --check-prefix=CLAMP-SIZE
// RUN: not quant-ref-run %s -e add_per_axis 2>&1 | FileCheck %s --check-prefix=ADD-PER-AXIS
// RUN: not quant-ref-run %s -e add_broadcast 2>&1 | FileCheck %s --check-prefix=ADD-BROADCAST
// RUN: not quant-ref-run %s -e add_i16_into_i8 2>&1 | FileCheck %s --check-prefix=ADD-I16-INTO-I8
// RUN: not quant-ref-run %s -e concat_axis 2>&1 | FileCheck %s --check-prefix=CONCAT-AXIS
// RUN: not quant-ref-run %s -e concat_missing_axis 2>&1 | FileCheck %s --check-prefix=CONCAT-MISSING-AXIS
// RUN: not quant-ref-run %s -e concat_storage 2>&1 | FileCheck %s --check-prefix=CONCAT-STORAGE
// RUN: not quant-ref-run %s -e constant_out_of_range 2>&1 | FileCheck %s --check-prefix=CONSTANT-OUT-OF-RANGE
// RUN: not quant-ref-run %s -e conv_groups 2>&1 | FileCheck %s --check-prefix=CONV-GROUPS
// RUN: not quant-ref-run %s -e unknown_qnt_op 2>&1 | FileCheck %s --check-prefix=UNKNOWN-QNT-OP
// RUN: not quant-ref-run %s -e matmul_overflow 2>&1 | FileCheck %s --check-prefix=MATMUL-OVERFLOW
// RUN: not quant-ref-run %s -e pad_dynamic 2>&1 | FileCheck %s --check-prefix=PAD-DYNAMIC
// RUN: not quant-ref-run %s -e extract_outside 2>&1 | FileCheck %s --check-prefix=EXTRACT-OUTSIDE
// RUN: not quant-ref-run %s -e transpose_moves_axis 2>&1 | FileCheck %s --check-prefix=TRANSPOSE-MOVES-AXIS
// RUN: not quant-ref-run %s -e fractional_offset 2>&1 | FileCheck %s --check-prefix=FRACTIONAL-OFFSET
// RUN: not quant-ref-run %s -e nan_offset 2>&1 | FileCheck %s --check-prefix=NAN-OFFSET
// RUN: not quant-ref-run %s -e f16_expressed 2>&1 | FileCheck %s --check-prefix=F16-EXPRESSED
// RUN: not quant-ref-run %s -e print_empty 2>&1 | FileCheck %s --check-prefix=PRINT-EMPTY

!I = !quant.uniform<i8:f32, 1.0>

// BAD-ROUNDING: error: quant-ref-run: 'rounding' must be one of "double", "single", "away", "half_even", "float"; got "nearest"
func.func @bad_rounding() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %y = "qnt.add"(%a, %a) <{rounding = "nearest"}> : (tensor<1x!I>, tensor<1x!I>) -> tensor<1x!I>
  return
}

// ROUNDING-NOT-STRING: error: quant-ref-run: 'rounding' must be one of
func.func @rounding_not_string() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %y = "qnt.requantize"(%a) <{rounding = 3 : i64}> : (tensor<1x!I>) -> tensor<1x!I>
  return
}

// UNKNOWN-ATTRIBUTE: error: quant-ref-run: unknown attribute 'kernal' on 'qnt.max_pool2d'
func.func @unknown_attribute() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.max_pool2d"(%x) <{kernel = array<i64: 2, 2>, kernal = array<i64: 2, 2>}> : (tensor<1x2x2x1x!I>) -> tensor<1x1x1x1x!I>
  return
}

// DILATIONS-ON-AVG-POOL: error: quant-ref-run: unknown attribute 'dilations' on 'qnt.avg_pool2d'
func.func @dilations_on_avg_pool() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.avg_pool2d"(%x) <{kernel = array<i64: 2, 2>, dilations = array<i64: 1, 1>}> : (tensor<1x2x2x1x!I>) -> tensor<1x1x1x1x!I>
  return
}

// MISSING-KERNEL: error: quant-ref-run: missing required attribute 'kernel'
func.func @missing_kernel() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.max_pool2d"(%x) : (tensor<1x2x2x1x!I>) -> tensor<1x1x1x1x!I>
  return
}

// KERNEL-SIZE: error: quant-ref-run: 'kernel' must be array<i64> with 2 values, got array<i64: 2>
func.func @kernel_size() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.max_pool2d"(%x) <{kernel = array<i64: 2>}> : (tensor<1x2x2x1x!I>) -> tensor<1x1x1x1x!I>
  return
}

// ZERO-STRIDE: error: quant-ref-run: 'strides' values must be >= 1
func.func @zero_stride() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.max_pool2d"(%x) <{kernel = array<i64: 2, 2>, strides = array<i64: 0, 1>}> : (tensor<1x2x2x1x!I>) -> tensor<1x1x1x1x!I>
  return
}

// PAD-AS-LARGE-AS-KERNEL: error: quant-ref-run: each 'padding' value must be smaller than the (dilated) 'kernel' extent
func.func @pad_as_large_as_kernel() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.avg_pool2d"(%x) <{kernel = array<i64: 2, 2>, padding = array<i64: 2, 0, 0, 0>}> : (tensor<1x2x2x1x!I>) -> tensor<1x2x1x1x!I>
  return
}

// WINDOW-WITHOUT-INPUT: error: quant-ref-run: with these 'dilations' and 'padding' a window holds no input element
func.func @window_without_input() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x3x1x1xi8>}> : () -> tensor<1x3x1x1x!I>
  %y = "qnt.max_pool2d"(%x) <{kernel = array<i64: 2, 1>, dilations = array<i64: 5, 1>, padding = array<i64: 2, 1, 0, 0>}> : (tensor<1x3x1x1x!I>) -> tensor<1x1x1x1x!I>
  return
}

// POOL-RESULT-SHAPE: error: quant-ref-run: result shape must be 1x1x1x1
func.func @pool_result_shape() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.max_pool2d"(%x) <{kernel = array<i64: 2, 2>}> : (tensor<1x2x2x1x!I>) -> tensor<1x2x2x1x!I>
  return
}

// COUNT-INCLUDE-PAD-NOT-BOOL: error: quant-ref-run: 'count_include_pad' must be a bool, got 1 : i64
func.func @count_include_pad_not_bool() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x1xi8>}> : () -> tensor<1x2x2x1x!I>
  %y = "qnt.avg_pool2d"(%x) <{kernel = array<i64: 2, 2>, count_include_pad = 1 : i64}> : (tensor<1x2x2x1x!I>) -> tensor<1x1x1x1x!I>
  return
}

// CLAMP-OUTSIDE-STORAGE: error: quant-ref-run: 'clamp' [-200, 0] must satisfy lo <= hi inside the result storage range [-128, 127]
func.func @clamp_outside_storage() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %y = "qnt.add"(%a, %a) <{clamp = array<i64: -200, 0>}> : (tensor<1x!I>, tensor<1x!I>) -> tensor<1x!I>
  return
}

// CLAMP-SIZE: error: quant-ref-run: 'clamp' must be array<i64: lo, hi> in output codes, got array<i64: 0>
func.func @clamp_size() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %y = "qnt.requantize"(%a) <{clamp = array<i64: 0>}> : (tensor<1x!I>) -> tensor<1x!I>
  return
}

// ADD-PER-AXIS: error: quant-ref-run: 'a': per-axis is not supported for 'qnt.add'
func.func @add_per_axis() {
  %a = "qnt.constant"() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>
  %b = "qnt.constant"() <{value = dense<[1, 2]> : tensor<2xi8>}> : () -> tensor<2x!I>
  %y = "qnt.add"(%a, %b) : (tensor<2x!quant.uniform<i8:f32:0, {1.0, 2.0}>>, tensor<2x!I>) -> tensor<2x!I>
  return
}

// ADD-BROADCAST: error: quant-ref-run: dimension 1 of 'a' (3) and 'b' (2) does not broadcast to the result's 3
func.func @add_broadcast() {
  %a = "qnt.constant"() <{value = dense<1> : tensor<2x3xi8>}> : () -> tensor<2x3x!I>
  %b = "qnt.constant"() <{value = dense<1> : tensor<2x2xi8>}> : () -> tensor<2x2x!I>
  %y = "qnt.add"(%a, %b) : (tensor<2x3x!I>, tensor<2x2x!I>) -> tensor<2x3x!I>
  return
}

// ADD-I16-INTO-I8: error: quant-ref-run: 'a': max|q - z| = 32768 shifted left by 20 (the integer add's left_shift) overflows i32
func.func @add_i16_into_i8() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi16>}> : () -> tensor<1x!quant.uniform<i16:f32, 1.0>>
  %y = "qnt.add"(%a, %a) : (tensor<1x!quant.uniform<i16:f32, 1.0>>, tensor<1x!quant.uniform<i16:f32, 1.0>>) -> tensor<1x!I>
  return
}

// CONCAT-AXIS: error: quant-ref-run: 'axis' 1 must lie in [0, 1)
func.func @concat_axis() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %y = "qnt.concat"(%a, %a) <{axis = 1 : i64}> : (tensor<1x!I>, tensor<1x!I>) -> tensor<2x!I>
  return
}

// CONCAT-MISSING-AXIS: error: quant-ref-run: 'axis' must be an i64 attribute
func.func @concat_missing_axis() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %y = "qnt.concat"(%a, %a) : (tensor<1x!I>, tensor<1x!I>) -> tensor<2x!I>
  return
}

// CONCAT-STORAGE: error: quant-ref-run: operand #1 storage differs from the result's
func.func @concat_storage() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %b = "qnt.constant"() <{value = dense<[1]> : tensor<1xui8>}> : () -> tensor<1x!quant.uniform<u8:f32, 1.0>>
  %y = "qnt.concat"(%a, %b) <{axis = 0 : i64}> : (tensor<1x!I>, tensor<1x!quant.uniform<u8:f32, 1.0>>) -> tensor<2x!I>
  return
}

// CONSTANT-OUT-OF-RANGE: error: quant-ref-run: 'value' code 300 lies outside the storage range [-128, 127]
func.func @constant_out_of_range() {
  %a = "qnt.constant"() <{value = dense<[300]> : tensor<1xi16>}> : () -> tensor<1x!I>
  return
}

// CONV-GROUPS: error: quant-ref-run: 'groups' must be an i64 >= 1, got 0 : i64
func.func @conv_groups() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x2x2x2xi8>}> : () -> tensor<1x2x2x2x!I>
  %w = "qnt.constant"() <{value = dense<1> : tensor<1x1x2x2xi8>}> : () -> tensor<1x1x2x2x!I>
  %y = "qnt.conv2d"(%x, %w) <{groups = 0 : i64}> : (tensor<1x2x2x2x!I>, tensor<1x1x2x2x!I>) -> tensor<1x2x2x2x!quant.uniform<i32:f32, 1.0>>
  return
}

// UNKNOWN-QNT-OP: error: quant-ref-run: unsupported op 'qnt.mul' (the reference model runs the public qnt ops only)
func.func @unknown_qnt_op() {
  %a = "qnt.constant"() <{value = dense<[1]> : tensor<1xi8>}> : () -> tensor<1x!I>
  %y = "qnt.mul"(%a, %a) : (tensor<1x!I>, tensor<1x!I>) -> tensor<1x!I>
  return
}

// MATMUL-OVERFLOW: error: quant-ref-run: worst-case accumulator can overflow i32: K = 140000
func.func @matmul_overflow() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<1x140000xi8>}> : () -> tensor<1x140000x!I>
  %w = "qnt.constant"() <{value = dense<1> : tensor<140000x1xi8>}> : () -> tensor<140000x1x!I>
  %y = "qnt.matmul"(%x, %w) : (tensor<1x140000x!I>, tensor<140000x1x!I>) -> tensor<1x1x!quant.uniform<i32:f32, 1.0>>
  return
}

// PAD-DYNAMIC: error: quant-ref-run: tensor.pad needs static, non-negative padding amounts
func.func @pad_dynamic() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<2xi8>}> : () -> tensor<2x!I>
  %n = arith.constant 1 : index
  %z = arith.constant 0 : i8
  %zq = quant.scast %z : i8 to !I
  %p = tensor.pad %x low[%n] high[0] {
  ^bb0(%i: index):
    tensor.yield %zq : !I
  } : tensor<2x!I> to tensor<3x!I>
  return
}

// EXTRACT-OUTSIDE: error: quant-ref-run: tensor.extract index 2 lies outside dimension 0
func.func @extract_outside() {
  %x = "qnt.constant"() <{value = dense<1> : tensor<2xi8>}> : () -> tensor<2x!I>
  %c2 = arith.constant 2 : index
  %e = tensor.extract %x[%c2] : tensor<2x!I>
  return
}

// The compiler's qnt-verify-per-axis-shapes rule: result dimension 0 is
// input dimension 1, the quantized axis, while the type says dimension 1.
// TRANSPOSE-MOVES-AXIS: error: quant-ref-run: linalg.transpose moves dimension 1, the quantized axis of the per-axis type
func.func @transpose_moves_axis() {
  %c = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9]]> : tensor<3x3xi8>
  %a = quant.scast %c : tensor<3x3xi8> to tensor<3x3x!quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>>
  %e = tensor.empty() : tensor<3x3x!quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>>
  %t = linalg.transpose ins(%a : tensor<3x3x!quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>>) outs(%e : tensor<3x3x!quant.uniform<i8:f32:1, {1.0, 10.0, 100.0}>>) permutation = [1, 0]
  return
}

// The contract's quantize_dynamic offset is integral; a constant one is
// checked as the verifier checks it.
// FRACTIONAL-OFFSET: error: quant-ref-run: 'offset' must be integral (a zero point in codes), got 5.000000e-01
func.func @fractional_offset() {
  %x = arith.constant dense<[[1.0, 2.0, -1.0]]> : tensor<1x3xf32>
  %s = arith.constant dense<1.0> : tensor<1x1xf32>
  %o = arith.constant dense<0.5> : tensor<1x1xf32>
  %y = "qnt.quantize_dynamic"(%x, %s, %o) : (tensor<1x3xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x3xi8>
  return
}

// NAN-OFFSET: error: quant-ref-run: 'offset' must be integral (a zero point in codes), got nan
func.func @nan_offset() {
  %x = arith.constant dense<[[1.0, 2.0, -1.0]]> : tensor<1x3xf32>
  %s = arith.constant dense<1.0> : tensor<1x1xf32>
  %o = arith.constant dense<0x7FC00000> : tensor<1x1xf32>
  %y = "qnt.quantize_dynamic"(%x, %s, %o) : (tensor<1x3xf32>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x3xi8>
  return
}

// F16-EXPRESSED: error: quant-ref-run: result must have expressed type f32, got 'f16'
func.func @f16_expressed() {
  %x = arith.constant dense<[1.0, 2.0, -1.0]> : tensor<3xf32>
  %q = "qnt.quantize"(%x) : (tensor<3xf32>) -> tensor<3x!quant.uniform<u8:f16, 0.5:128>>
  return
}

// Upstream's printMemref reads each dimension's first element: on an empty
// tensor that was a null dereference here (a hostile-input hunt).
// PRINT-EMPTY: error: quant-ref-run: printMemrefI8 of a tensor with no elements (shape has a 0 dimension): upstream's printMemref reads its first element
func.func private @printMemrefI8(tensor<0x4xi8>)
func.func @print_empty() {
  %x = arith.constant dense<1> : tensor<0x4xi8>
  call @printMemrefI8(%x) : (tensor<0x4xi8>) -> ()
  return
}
