// Raw ui8 codes move to and from signless i8 with upstream tensor.bitcast,
// a no-op on the bits that --qnt-to-llvm accepts (contract, "Version 2
// additions"): ui8 200 reads as i8 -56 and back.
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd | FileCheck %s

// qnt-strip-quant-types makes unsigned integers signless: the bitcasts
// disappear, a ui8 constant keeps its bits, and ui8 arguments and results
// are marked qnt.unsigned like u8 quantized ones.
// RUN: quant-opt %s --qnt-strip-quant-types | FileCheck %s --check-prefix=STRIP
// STRIP-LABEL: func.func @to_signed
// STRIP-SAME: (%[[X:.*]]: tensor<2xi8> {qnt.unsigned}) -> tensor<2xi8>
// STRIP-NEXT: return %[[X]] : tensor<2xi8>
// STRIP-LABEL: func.func @round_trip
// STRIP-SAME: -> (tensor<3xi8> {qnt.unsigned})
// STRIP-NOT: tensor.bitcast
// STRIP-LABEL: func.func @main
// STRIP: arith.constant dense<[-56, 1]> : tensor<2xi8>

func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefU8(memref<*xi8>)

func.func @to_signed(%x: tensor<2xui8>) -> tensor<2xi8> {
  %y = tensor.bitcast %x : tensor<2xui8> to tensor<2xi8>
  return %y : tensor<2xi8>
}

// i8 -> ui8 here, back to i8 in @main: the bits never change.
func.func @round_trip(%x: tensor<3xi8>) -> tensor<3xui8> {
  %u = tensor.bitcast %x : tensor<3xi8> to tensor<3xui8>
  return %u : tensor<3xui8>
}

func.func @main() {
  %raw = arith.constant dense<[200, 1]> : tensor<2xui8>
  %sig = call @to_signed(%raw) : (tensor<2xui8>) -> tensor<2xi8>
  %m = bufferization.to_buffer %sig : tensor<2xi8> to memref<2xi8>
  %u = memref.cast %m : memref<2xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [-56, 1]
  call @printMemrefI8(%u) : (memref<*xi8>) -> ()

  %s = arith.constant dense<[-56, 0, 127]> : tensor<3xi8>
  %r = call @round_trip(%s) : (tensor<3xi8>) -> tensor<3xui8>
  %ri = tensor.bitcast %r : tensor<3xui8> to tensor<3xi8>
  %rm = bufferization.to_buffer %ri : tensor<3xi8> to memref<3xi8>
  %ru = memref.cast %rm : memref<3xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: [200, 0, 127]
  call @printMemrefU8(%ru) : (memref<*xi8>) -> ()
  return
}
