// Ops on quantized tensors that --qnt-to-llvm does not take are reported by
// name, with what it takes instead, rather than as a bare "failed to
// legalize" or "op was not bufferized" (docs/Semantics.md, "Padding and
// filling quantized tensors"). Per-axis pads along the axis are in
// per-axis-shapes.mlir.
// RUN: quant-opt %s -split-input-file -verify-diagnostics --qnt-to-llvm

!Q = !quant.uniform<i8:f32, 0.5:3>
func.func @copy(%x: tensor<4x!Q>) -> tensor<4x!Q> {
  %e = tensor.empty() : tensor<4x!Q>
  // expected-error@+1 {{'linalg.copy' op on quantized element types is not supported by qnt-strip-quant-types; the ops with regions it converts are func.func, scf.for, scf.if, scf.while, scf.index_switch, linalg.transpose, linalg.broadcast, linalg.fill and tensor.pad (region-free ops are converted generically): write this op on the storage integers (quant.scast) instead}}
  %c = linalg.copy ins(%x : tensor<4x!Q>) outs(%e : tensor<4x!Q>) -> tensor<4x!Q>
  return %c : tensor<4x!Q>
}

// -----

!Q = !quant.uniform<i8:f32, 0.5:3>
func.func @generate(%z: !Q) -> tensor<4x!Q> {
  // expected-error@+1 {{'tensor.generate' op on quantized element types is not supported by qnt-strip-quant-types}}
  %g = tensor.generate {
  ^bb0(%i: index):
    tensor.yield %z : !Q
  } : tensor<4x!Q>
  return %g : tensor<4x!Q>
}

// -----

!Q = !quant.uniform<i8:f32, 0.5:3>
func.func @map(%x: tensor<4x!Q>, %y: tensor<4x!Q>) -> tensor<4x!Q> {
  %e = tensor.empty() : tensor<4x!Q>
  // expected-error@+1 {{'linalg.map' op on quantized element types is not supported by qnt-strip-quant-types}}
  %m = linalg.map ins(%x, %y : tensor<4x!Q>, tensor<4x!Q>) outs(%e : tensor<4x!Q>)
    (%a: !Q, %b: !Q, %o: !Q) {
      linalg.yield %b : !Q
    }
  return %m : tensor<4x!Q>
}

// -----

// tensor.gather and tensor.scatter have no bufferization on any element
// type.
!Q = !quant.uniform<i8:f32, 0.5:3>
func.func @gather(%x: tensor<4x!Q>, %i: tensor<2x1xindex>) -> tensor<2x!Q> {
  // expected-error@+1 {{'tensor.gather' op is not supported by qnt-to-llvm: bufferization has no lowering for it; index single elements with tensor.extract / tensor.insert, or move blocks with tensor.extract_slice / tensor.insert_slice}}
  %g = tensor.gather %x[%i] gather_dims([0]) unique : (tensor<4x!Q>, tensor<2x1xindex>) -> tensor<2x!Q>
  return %g : tensor<2x!Q>
}

// -----

func.func @scatter(%x: tensor<4xi8>, %s: tensor<2x1xi8>, %i: tensor<2x1xindex>) -> tensor<4xi8> {
  // expected-error@+1 {{'tensor.scatter' op is not supported by qnt-to-llvm: bufferization has no lowering for it}}
  %r = tensor.scatter %s into %x[%i] scatter_dims([0]) unique : (tensor<2x1xi8>, tensor<4xi8>, tensor<2x1xindex>) -> tensor<4xi8>
  return %r : tensor<4xi8>
}
