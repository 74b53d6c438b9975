// The test-only AMX emulation (test/lib/Dialect/AMX) checked against values
// worked by hand from the SDM definitions, so that the kernel tests that
// rely on it rest on something independent of both.
// RUN: quant-test-opt %s --pass-pipeline="builtin.module(func.func(test-amx-emulate))" | FileCheck %s --check-prefix=IR
// RUN: quant-test-opt %s --pass-pipeline="builtin.module(func.func(test-amx-emulate),one-shot-bufferize{bufferize-function-boundaries},func.func(convert-linalg-to-loops),expand-strided-metadata,convert-scf-to-cf,convert-vector-to-llvm,convert-cf-to-llvm,finalize-memref-to-llvm,convert-arith-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)" \
// RUN:   | %mlir_runner_cmd | FileCheck %s

// IR-NOT: amx.

// A: every byte 0xFF (-1 sign extended, 255 zero extended) in columns
// 0-63, 0x01 in columns 64-127; B: every byte 0xFE (-2 / 254). One C
// element sums 64 byte products (16 dwords x 4 bytes) onto the accumulator:
//   tdpbssd: 64 * (-1 * -2) = 128
//   tdpbsud: 64 * (-1 * 254) = -16256
//   tdpbusd: 64 * (255 * -2) = -32640
//   tdpbuud: 64 * (255 * 254) = 64 * 64770 = 4145280
// starting from tile_zero (0) or from a loaded tile of 1000. The A tile
// loaded at column 64 (row stride 128 bytes) holds 0x01: 64 * (1 * -2).
// CHECK: {{^}}128{{$}}
// CHECK-NEXT: {{^}}128{{$}}
// CHECK: {{^}}-16256{{$}}
// CHECK-NEXT: {{^}}-16256{{$}}
// CHECK: {{^}}-32640{{$}}
// CHECK-NEXT: {{^}}-32640{{$}}
// CHECK: {{^}}4145280{{$}}
// CHECK-NEXT: {{^}}4145280{{$}}
// CHECK: {{^}}1128{{$}}
// CHECK-NEXT: {{^}}1128{{$}}
// CHECK: {{^}}-128{{$}}
// CHECK-NEXT: {{^}}-128{{$}}
func.func private @printC(%c: memref<16x16xi32>) {
  %c0 = arith.constant 0 : index
  %c15 = arith.constant 15 : index
  %first = memref.load %c[%c0, %c0] : memref<16x16xi32>
  %last = memref.load %c[%c15, %c15] : memref<16x16xi32>
  vector.print %first : i32
  vector.print %last : i32
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %ff = arith.constant -1 : i8
  %one = arith.constant 1 : i8
  %fe = arith.constant -2 : i8
  %thousand = arith.constant 1000 : i32
  %a = memref.alloc() : memref<16x128xi8>
  %b = memref.alloc() : memref<16x64xi8>
  %acc = memref.alloc() : memref<16x16xi32>
  %c = memref.alloc() : memref<16x16xi32>
  %a0 = memref.subview %a[0, 0] [16, 64] [1, 1] : memref<16x128xi8> to memref<16x64xi8, strided<[128, 1]>>
  %a1 = memref.subview %a[0, 64] [16, 64] [1, 1] : memref<16x128xi8> to memref<16x64xi8, strided<[128, 1], offset: 64>>
  linalg.fill ins(%ff : i8) outs(%a0 : memref<16x64xi8, strided<[128, 1]>>)
  linalg.fill ins(%one : i8) outs(%a1 : memref<16x64xi8, strided<[128, 1], offset: 64>>)
  linalg.fill ins(%fe : i8) outs(%b : memref<16x64xi8>)
  linalg.fill ins(%thousand : i32) outs(%acc : memref<16x16xi32>)

  %ta = amx.tile_load %a[%c0, %c0] : memref<16x128xi8> into !amx.tile<16x64xi8>
  %tb = amx.tile_load %b[%c0, %c0] : memref<16x64xi8> into !amx.tile<16x64xi8>
  %z = amx.tile_zero : !amx.tile<16x16xi32>
  %ss = amx.tile_muli %ta, %tb, %z : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
  amx.tile_store %c[%c0, %c0], %ss : memref<16x16xi32>, !amx.tile<16x16xi32>
  call @printC(%c) : (memref<16x16xi32>) -> ()
  %su = amx.tile_muli %ta, %tb zext, %z : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
  amx.tile_store %c[%c0, %c0], %su : memref<16x16xi32>, !amx.tile<16x16xi32>
  call @printC(%c) : (memref<16x16xi32>) -> ()
  %us = amx.tile_muli %ta zext, %tb, %z : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
  amx.tile_store %c[%c0, %c0], %us : memref<16x16xi32>, !amx.tile<16x16xi32>
  call @printC(%c) : (memref<16x16xi32>) -> ()
  %uu = amx.tile_muli %ta zext, %tb zext, %z : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
  amx.tile_store %c[%c0, %c0], %uu : memref<16x16xi32>, !amx.tile<16x16xi32>
  call @printC(%c) : (memref<16x16xi32>) -> ()

  %tacc = amx.tile_load %acc[%c0, %c0] : memref<16x16xi32> into !amx.tile<16x16xi32>
  %ss2 = amx.tile_muli %ta, %tb, %tacc : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
  amx.tile_store %c[%c0, %c0], %ss2 : memref<16x16xi32>, !amx.tile<16x16xi32>
  call @printC(%c) : (memref<16x16xi32>) -> ()

  %ta1 = amx.tile_load %a[%c0, %c64] : memref<16x128xi8> into !amx.tile<16x64xi8>
  %s1 = amx.tile_muli %ta1, %tb, %z : !amx.tile<16x64xi8>, !amx.tile<16x64xi8>, !amx.tile<16x16xi32>
  amx.tile_store %c[%c0, %c0], %s1 : memref<16x16xi32>, !amx.tile<16x16xi32>
  call @printC(%c) : (memref<16x16xi32>) -> ()
  return
}
