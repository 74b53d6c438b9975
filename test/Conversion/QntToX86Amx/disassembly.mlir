// The AMX kernels in the object for target=x86_64-amx, whatever machine
// compiles: tile configuration, tile loads and stores, and the tile
// multiply whose letters follow the operands' signedness (s8 x s8:
// tdpbssd, u8 x s8: tdpbusd, s8 x u8: tdpbsud, u8 x u8: tdpbuud). The
// module constructor that asks Linux for the tile state makes the
// arch_prctl system call and sits in .init_array. Each check must hit
// inside the function's own code (before the next symbol).
// RUN: quant-opt %s --qnt-to-llvm=target=x86_64-amx | quant-translate --emit=obj -o %t.o
// RUN: llvm-objdump -d %t.o | FileCheck %s
// RUN: llvm-readelf -S %t.o | FileCheck %s --check-prefix=SECTIONS

// CHECK-LABEL: <mm_s8>:
// CHECK-NOT: >:
// CHECK: ldtilecfg
// CHECK-NOT: >:
// CHECK: tileloadd
// CHECK-NOT: >:
// CHECK: tdpbssd %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
// CHECK-NOT: >:
// CHECK: tilestored
func.func @mm_s8(%x: tensor<40x200x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<40x100x!quant.uniform<i32:f32, 0.125>> {
  %w = qnt.constant dense<5> : tensor<200x100xi8> -> tensor<200x100x!quant.uniform<i8:f32, 0.25>>
  %a = qnt.matmul %x, %w : tensor<40x200x!quant.uniform<i8:f32, 0.5:3>>, tensor<200x100x!quant.uniform<i8:f32, 0.25>> -> tensor<40x100x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<40x100x!quant.uniform<i32:f32, 0.125>>
}

// CHECK-LABEL: <mm_u8>:
// CHECK-NOT: >:
// CHECK: tdpbusd %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
func.func @mm_u8(%x: tensor<40x200x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<40x100x!quant.uniform<i32:f32, 0.125>> {
  %w = qnt.constant dense<-5> : tensor<200x100xi8> -> tensor<200x100x!quant.uniform<i8:f32, 0.25>>
  %a = qnt.matmul %x, %w : tensor<40x200x!quant.uniform<u8:f32, 0.5:128>>, tensor<200x100x!quant.uniform<i8:f32, 0.25>> -> tensor<40x100x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<40x100x!quant.uniform<i32:f32, 0.125>>
}

// u8 weights above 127 with zero point 0: the weights are the u8 operand.
// CHECK-LABEL: <mm_s8_u8w>:
// CHECK-NOT: >:
// CHECK: tdpbsud %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
func.func @mm_s8_u8w(%x: tensor<40x200x!quant.uniform<i8:f32, 0.5:3>>) -> tensor<40x100x!quant.uniform<i32:f32, 0.125>> {
  %w = qnt.constant dense<200> : tensor<200x100xui8> -> tensor<200x100x!quant.uniform<u8:f32, 0.25>>
  %a = qnt.matmul %x, %w : tensor<40x200x!quant.uniform<i8:f32, 0.5:3>>, tensor<200x100x!quant.uniform<u8:f32, 0.25>> -> tensor<40x100x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<40x100x!quant.uniform<i32:f32, 0.125>>
}

// CHECK-LABEL: <mm_u8_u8w>:
// CHECK-NOT: >:
// CHECK: tdpbuud %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
func.func @mm_u8_u8w(%x: tensor<40x200x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<40x100x!quant.uniform<i32:f32, 0.125>> {
  %w = qnt.constant dense<200> : tensor<200x100xui8> -> tensor<200x100x!quant.uniform<u8:f32, 0.25>>
  %a = qnt.matmul %x, %w : tensor<40x200x!quant.uniform<u8:f32, 0.5:128>>, tensor<200x100x!quant.uniform<u8:f32, 0.25>> -> tensor<40x100x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<40x100x!quant.uniform<i32:f32, 0.125>>
}

// A 3x3 conv as an implicit GEMM on tiles.
// CHECK-LABEL: <conv3x3_u8>:
// CHECK-NOT: >:
// CHECK: tdpbusd %tmm{{[0-7]}}, %tmm{{[0-7]}}, %tmm{{[0-7]}}
func.func @conv3x3_u8(%x: tensor<1x9x9x16x!quant.uniform<u8:f32, 0.5:128>>) -> tensor<1x9x9x64x!quant.uniform<i32:f32, 0.125>> {
  %w = qnt.constant dense<-2> : tensor<3x3x16x64xi8> -> tensor<3x3x16x64x!quant.uniform<i8:f32, 0.25>>
  %b = qnt.constant dense<100> : tensor<64xi32> -> tensor<64x!quant.uniform<i32:f32, 0.125>>
  %a = qnt.conv2d %x, %w, %b {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>, padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}
       : tensor<1x9x9x16x!quant.uniform<u8:f32, 0.5:128>>, tensor<3x3x16x64x!quant.uniform<i8:f32, 0.25>>, tensor<64x!quant.uniform<i32:f32, 0.125>> -> tensor<1x9x9x64x!quant.uniform<i32:f32, 0.125>>
  return %a : tensor<1x9x9x64x!quant.uniform<i32:f32, 0.125>>
}

// arch_prctl (158) with ARCH_REQ_XCOMP_PERM (0x1023) and XFEATURE_XTILEDATA
// (18).
// CHECK-LABEL: <__qnt_amx_request_tile_data>:
// CHECK-DAG: movl $0x9e, %eax
// CHECK-DAG: movl $0x1023, %edi
// CHECK-DAG: movl $0x12, %esi
// CHECK: syscall

// SECTIONS: .init_array
