// RUN: quant-opt --allow-unregistered-dialect %s --qnt-to-llvm -verify-diagnostics
// RUN: quant-opt --allow-unregistered-dialect %s --tosa-to-llvm -verify-diagnostics

// An op of an unregistered dialect has no Dialect object: the passes that
// ask an op for its dialect (tosa input check, qnt-erase-empty-results,
// qnt-strip-quant-types, qnt-to-linalg) used to dereference the null one
// and crash. Now the op reaches bufferization, which names it.
func.func @f(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{op was not bufferized}}
  %y = "foo.bar"(%x) : (tensor<4xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}
