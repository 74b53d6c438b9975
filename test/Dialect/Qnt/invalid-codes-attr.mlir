// #qnt.codes (the fold value of quantized constants) verifies like
// qnt.constant's value: storage codes of the quantized tensor type.
// RUN: quant-opt %s -split-input-file -verify-diagnostics

!I = !quant.uniform<i8:f32, 0.5>
// expected-error @below {{#qnt.codes element type must be 'i8' (the storage codes of '!quant.uniform<i8:f32, 5.000000e-01>'), got 'i16'}}
func.func @wrong_width() attributes {x = #qnt.codes<dense<[1]> : tensor<1xi16>> : tensor<1x!I>} { return }

// -----

!U = !quant.uniform<u8:f32, 0.5:128>
// expected-error @below {{#qnt.codes element type must be 'ui8'}}
func.func @signless_for_unsigned() attributes {x = #qnt.codes<dense<[1]> : tensor<1xi8>> : tensor<1x!U>} { return }

// -----

// expected-error @below {{#qnt.codes type must have a uniform quantized element type, got 'tensor<1xi8>'}}
func.func @not_quantized() attributes {x = #qnt.codes<dense<[1]> : tensor<1xi8>> : tensor<1xi8>} { return }

// -----

!I = !quant.uniform<i8:f32, 0.5>
// expected-error @below {{#qnt.codes shape [1] must equal the type's shape [2]}}
func.func @wrong_shape() attributes {x = #qnt.codes<dense<[1]> : tensor<1xi8>> : tensor<2x!I>} { return }

// -----

// expected-error @below {{invalid kind of type specified}}
func.func @not_a_tensor() attributes {x = #qnt.codes<dense<[1]> : tensor<1xi8>> : i8} { return }

// -----

// expected-error @below {{expected a trailing type}}
func.func @no_type() attributes {x = #qnt.codes<dense<[1]> : tensor<1xi8>>} { return }
