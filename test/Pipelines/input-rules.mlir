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

// -----

// A function named malloc: the allocations of the lowered code were renamed
// to call a symbol `malloc_0` that nothing defines, and the user's function
// would replace the C allocator of the whole program.
!Q = !quant.uniform<i8:f32, 0.5:1>
// expected-error@+1 {{qnt-to-llvm: function name 'malloc' is reserved for the C allocator the lowered code calls; a function of that name would take its place (rename it)}}
func.func @malloc(%x: tensor<4xf32>) -> tensor<4xi8> {
  %q = qnt.quantize %x : tensor<4xf32> -> tensor<4x!Q>
  %i = quant.scast %q : tensor<4x!Q> to tensor<4xi8>
  return %i : tensor<4xi8>
}

// -----

// Even declared: the lowering renames its own allocator calls away from it.
// expected-error@+1 {{qnt-to-llvm: function name 'free' is reserved for the C allocator the lowered code calls}}
func.func private @free(i64)

// -----

// math.erf becomes a call to erff, through whatever function of that name
// the module holds: this one would be called instead of the C library's.
// expected-error@+1 {{qnt-to-llvm: function name 'erff' is reserved for the C math function the lowered math ops call}}
func.func @erff(%x: f32) -> f32 {
  return %x : f32
}

// -----

// The generated C interface wrappers and OpenMP entry points likewise.
// expected-error@+1 {{qnt-to-llvm: function name '_mlir_ciface_f' is reserved for the C interface wrappers the lowering adds}}
func.func @_mlir_ciface_f(%x: f32) -> f32 {
  return %x : f32
}

// -----

// A declaration of a C math function names the library itself: accepted,
// and the call reaches it.
func.func private @expf(f32) -> f32
func.func @calls_expf(%x: f32) -> f32 {
  %y = call @expf(%x) : (f32) -> f32
  return %y : f32
}

// -----

// A nested module passed through unlowered (exit 0), so its qnt ops only
// failed later, in the LLVM translation.
// (The function beside it makes the parser wrap both in a module.)
!Q = !quant.uniform<i8:f32, 0.5:1>
func.func @outer(%x: f32) -> f32 {
  return %x : f32
}
// expected-error@+1 {{qnt-to-llvm lowers the functions of one module: a nested 'builtin.module' is not supported; lower it as a module of its own}}
module @inner {
  func.func @f(%x: tensor<4xf32>) -> tensor<4xi8> {
    %q = qnt.quantize %x : tensor<4xf32> -> tensor<4x!Q>
    %i = quant.scast %q : tensor<4x!Q> to tensor<4xi8>
    return %i : tensor<4xi8>
  }
}

// -----

// Each dimension is one loop of a nest that upstream's region simplification
// walks recursively: rank 5000 overflowed the stack. Rank 32 is the limit.
!R = !quant.uniform<i8:f32, 0.5>
func.func @rank_above_limit(%x: tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>) -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32> {
  // expected-error@+1 {{'qnt.quantize' op result #0 has rank 33: qnt-to-llvm takes ranks up to 32}}
  %q = qnt.quantize %x : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32> -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x!R>
  %d = qnt.dequantize %q : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x!R> -> tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>
  return %d : tensor<1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1x1xf32>
}

// -----

// Unstructured control flow carrying a quantized tensor failed to legalize
// with an internal error ("func.func that was explicitly marked illegal").
!B = !quant.uniform<i8:f32, 0.1:3>
func.func @quantized_block_argument(%a: tensor<4x8xf32>, %c: i1) -> tensor<4x8xf32> {
  %q = qnt.quantize %a : tensor<4x8xf32> -> tensor<4x8x!B>
  cf.cond_br %c, ^join(%q : tensor<4x8x!B>), ^join(%q : tensor<4x8x!B>)
// expected-error@+1 {{qnt-to-llvm: block argument #0 of a non-entry block has quantized type 'tensor<4x8x!quant.uniform<i8:f32, 1.000000e-01:3>>': unstructured control flow may not carry quantized values; use scf.if / scf.for, or branch on the raw codes (quant.scast)}}
^join(%r: tensor<4x8x!B>):
  %d = qnt.dequantize %r : tensor<4x8x!B> -> tensor<4x8xf32>
  return %d : tensor<4x8xf32>
}

// -----

// A qnt op outside any function passed the verifier and reached
// bufferization as "failed to legalize operation 'bufferization.to_tensor'".
// expected-error@+1 {{'qnt.constant' op is at the module's top level: qnt-to-llvm lowers qnt ops inside functions}}
%top = qnt.constant dense<1> : tensor<4xi8> -> tensor<4x!quant.uniform<i8:f32, 0.1:3>>

// -----

// The int32 bias is a constant per output channel, and a global holds at
// most 2^32 bytes: 2^40 columns compiled, and quant-translate could not
// write the object.
func.func @bias_beyond_global(%x: tensor<1x8x!quant.uniform<i8:f32, 0.05:-10>>, %w: tensor<8x1099511627776x!quant.uniform<i8:f32, 0.01>>) -> tensor<1x1099511627776x!quant.uniform<i32:f32, 0.0005>> {
  // expected-error@+1 {{'qnt.matmul' op has 1099511627776 output channels: its int32 bias (one constant per channel) would take more than the 2^32 bytes a global may hold}}
  %a = qnt.matmul %x, %w : tensor<1x8x!quant.uniform<i8:f32, 0.05:-10>>, tensor<8x1099511627776x!quant.uniform<i8:f32, 0.01>> -> tensor<1x1099511627776x!quant.uniform<i32:f32, 0.0005>>
  return %a : tensor<1x1099511627776x!quant.uniform<i32:f32, 0.0005>>
}

// -----

// A dense_resource blob must hold exactly its type's bytes: this one holds
// seven for four i8 codes, and upstream's translation took the first four
// (exit code 0); a blob too short for f32 weights failed only in
// quant-translate ("raw data size does not match element type size").
!Q = !quant.uniform<i8:f32, 0.5:3>
func.func @resource_blob_wrong_size() -> tensor<4x!Q> {
  // expected-error@+1 {{'arith.constant' op attribute 'value' is dense_resource<seven_bytes> of type 'tensor<4xi8>', whose blob holds 7 bytes instead of 4 x 1 (elements x bytes each)}}
  %c = arith.constant dense_resource<seven_bytes> : tensor<4xi8>
  %q = quant.scast %c : tensor<4xi8> to tensor<4x!Q>
  return %q : tensor<4x!Q>
}
{-#
  dialect_resources: {
    builtin: {
      seven_bytes: "0x0400000001020304050607"
    }
  }
#-}

// -----

// A dense_resource the module's dialect_resources section does not define
// has no data at all.
func.func @resource_blob_missing() -> tensor<2x3xf32> {
  // expected-error@+1 {{'arith.constant' op attribute 'value' is dense_resource<undefined_blob>, which the module's dialect_resources section does not define}}
  %c = arith.constant dense_resource<undefined_blob> : tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}

// -----

// Quantized types without fixed codes: a calibrated tensor crashed the
// pipeline (it has no storage type), a tensor of !quant.any came out half
// lowered with exit code 0.
func.func @calibrated(%x: tensor<4x!quant.calibrated<f32<-0.998:1.2321>>>) -> tensor<4x!quant.calibrated<f32<-0.998:1.2321>>> {
  // expected-error@+1 {{'func.return' op operand #0 has type 'tensor<4x!quant.calibrated<f32<-0.998:1.232100e+00>>>' of quantized element type '!quant.calibrated<f32<-0.998:1.232100e+00>>': qnt-to-llvm lowers !quant.uniform types, per tensor or per axis, only}}
  return %x : tensor<4x!quant.calibrated<f32<-0.998:1.2321>>>
}

// -----

// expected-error@+1 {{'func.func' op argument #0 has type 'tensor<4x!quant.any<i8<-8:7>:f32>>' of quantized element type '!quant.any<i8<-8:7>:f32>': qnt-to-llvm lowers !quant.uniform types, per tensor or per axis, only}}
func.func private @declared_any(tensor<4x!quant.any<i8<-8:7>:f32>>)

// -----

// Upstream ops that bufferization does not lower are named before it
// fails with "op was not bufferized".
!X = !quant.uniform<i8:f32, 0.5:1>
func.func @pack(%x: tensor<4x6x!X>) -> tensor<2x3x2x2x!X> {
  %e = tensor.empty() : tensor<2x3x2x2x!X>
  // expected-error@+1 {{'linalg.pack' op on tensors is not supported by qnt-to-llvm: bufferization has no lowering for it; the kernels pack their operands themselves}}
  %p = linalg.pack %x inner_dims_pos = [0, 1] inner_tiles = [2, 2] into %e : tensor<4x6x!X> -> tensor<2x3x2x2x!X>
  return %p : tensor<2x3x2x2x!X>
}

// -----

func.func @affine_for_tensor(%raw: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{'affine.for' op carries a tensor, which bufferization does not lower; carry it through scf.for}}
  %r = affine.for %i = 0 to 3 iter_args(%acc = %raw) -> (tensor<4xi8>) {
    %y = arith.addi %acc, %acc : tensor<4xi8>
    affine.yield %y : tensor<4xi8>
  }
  return %r : tensor<4xi8>
}
