// RUN: quant-opt %s -split-input-file -verify-diagnostics

func.func @lanes(%a: vector<16xi32>, %b: vector<32xi8>) -> vector<16xi32> {
  // expected-error@+1 {{failed to verify that `a` has four times as many elements as `acc`}}
  %0 = "qnt_kernel.x86.vpdpbusd"(%a, %b, %b) : (vector<16xi32>, vector<32xi8>, vector<32xi8>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// -----

func.func @width(%a: vector<2xi32>, %b: vector<8xi8>) -> vector<2xi32> {
  // expected-error@+1 {{operand #0 must be}}
  %0 = "qnt_kernel.x86.vpdpbusd"(%a, %b, %b) : (vector<2xi32>, vector<8xi8>, vector<8xi8>) -> vector<2xi32>
  return %0 : vector<2xi32>
}

// -----

func.func @operands(%a: vector<16xi32>, %b: vector<64xi8>, %c: vector<64xi8>) -> vector<8xi32> {
  // expected-error@+1 {{failed to verify that all of {acc, result} have same type}}
  %0 = "qnt_kernel.x86.vpdpbusd"(%a, %b, %c) : (vector<16xi32>, vector<64xi8>, vector<64xi8>) -> vector<8xi32>
  return %0 : vector<8xi32>
}

// -----

func.func @pair_lanes(%a: vector<16xi32>, %b: vector<16xi16>) -> vector<16xi32> {
  // expected-error@+1 {{failed to verify that `a` has twice as many elements as `acc`}}
  %0 = "qnt_kernel.x86.vpdpwssd"(%a, %b, %b) : (vector<16xi32>, vector<16xi16>, vector<16xi16>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// -----

func.func @madd_lanes(%b: vector<16xi16>) -> vector<16xi32> {
  // expected-error@+1 {{failed to verify that `a` has twice as many elements as the result}}
  %0 = "qnt_kernel.x86.vpmaddwd"(%b, %b) : (vector<16xi16>, vector<16xi16>) -> vector<16xi32>
  return %0 : vector<16xi32>
}

// -----

func.func @saddlp_width(%p: vector<16xi16>) -> vector<8xi32> {
  // expected-error@+1 {{operand #0 must be vector of 16-bit signless integer values of length 8}}
  %0 = qnt_kernel.aarch64.saddlp %p : vector<16xi16> -> vector<8xi32>
  return %0 : vector<8xi32>
}
