// RUN: quant-opt %s --split-input-file --qnt-to-llvm -verify-diagnostics

// TOSA is --tosa-to-llvm's input: --qnt-to-llvm names the first TOSA op
// before anything runs on it (upstream's canonicalization of tosa.clamp
// crashed on an unranked tensor; the qnt-parse-fuzzer found it).
func.func @unranked_clamp(%x: tensor<*xi8>) -> tensor<*xi8> {
  // expected-error@+1 {{'tosa.clamp' op is a TOSA op, which qnt-to-llvm does not lower; compile TOSA input with --tosa-to-llvm}}
  %y = tosa.clamp %x {min_val = 0 : i8, max_val = 5 : i8} : (tensor<*xi8>) -> tensor<*xi8>
  return %y : tensor<*xi8>
}

// -----

func.func @ranked_clamp(%x: tensor<4xi8>) -> tensor<4xi8> {
  // expected-error@+1 {{'tosa.clamp' op is a TOSA op, which qnt-to-llvm does not lower}}
  %y = tosa.clamp %x {min_val = 0 : i8, max_val = 5 : i8} : (tensor<4xi8>) -> tensor<4xi8>
  return %y : tensor<4xi8>
}
