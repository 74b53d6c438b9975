// What --qnt-to-llvm rejects before it lowers anything (docs/Semantics.md,
// "What --qnt-to-llvm takes"); each case was found by a hostile-input review.
// RUN: quant-opt %s -split-input-file -verify-diagnostics --qnt-to-llvm

// 2^62 x 8 one-byte codes are 2^65 bytes: the result was allocated as
// malloc(64).
!X = !quant.uniform<i8:f32, 0.5>
!Y = !quant.uniform<i8:f32, 0.25>
func.func @result_beyond_int64_bytes(%x: tensor<4611686018427387904x8x!X>) -> tensor<4611686018427387904x8x!Y> {
  // expected-error@+1 {{'qnt.requantize' op result #0 of type 'tensor<4611686018427387904x8x!quant.uniform<i8:f32, 2.500000e-01>>' holds more than 2^63 - 1 bytes: no buffer can hold it}}
  %y = qnt.requantize %x : tensor<4611686018427387904x8x!X> -> tensor<4611686018427387904x8x!Y>
  return %y : tensor<4611686018427387904x8x!Y>
}

// -----

// 2^61 i32 elements: 2^63 bytes, one more than int64 counts.
func.func @argument_beyond_int64_bytes(%x: tensor<2305843009213693952xi32>) -> tensor<2305843009213693952xi32> {
  // expected-error@-1 {{'func.func' op block argument #0 of type 'tensor<2305843009213693952xi32>' holds more than 2^63 - 1 bytes: no buffer can hold it}}
  return %x : tensor<2305843009213693952xi32>
}
