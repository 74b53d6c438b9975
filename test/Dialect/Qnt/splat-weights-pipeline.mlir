// 10^8 splat weights used to be expanded by the zero-point fold and by VNNI
// packing (20 s and 4 GB); both now keep the splat, so the whole x86 pipeline
// finishes at once.
// RUN: quant-opt %s --qnt-fold-zero-points | FileCheck %s --check-prefix=FOLD
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-fold-zero-points), \
// RUN:   qnt-strip-quant-types, func.func(qnt-x86-vnni))" | FileCheck %s --check-prefix=VNNI
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" | FileCheck %s --check-prefix=LLVM

!X = !quant.uniform<i8:f32, 5.000000e-01:-3>
!W = !quant.uniform<i8:f32, 5.000000e-01>
!A = !quant.uniform<i32:f32, 2.500000e-01>

// acc = (x - (-3)) * (3 - 0) = 3x + 9: the folded bias is the splat 9.
// FOLD-LABEL: func.func @big_splat_weights
// FOLD-DAG: arith.constant dense<9> : tensor<100000000xi32>
// FOLD-DAG: arith.constant dense<3> : tensor<1x100000000xi8>
// FOLD: qnt.int_matmul

// The packing kernel is skipped: the generic lowering keeps the splat.
// VNNI-LABEL: func.func @big_splat_weights
// VNNI: qnt.int_matmul
// VNNI-NOT: vpdpbusd

// LLVM-LABEL: llvm.func @big_splat_weights
func.func @big_splat_weights(%x: tensor<1x1x!X>) -> tensor<1x100000000x!A> {
  %c = arith.constant dense<3> : tensor<1x100000000xi8>
  %w = quant.scast %c : tensor<1x100000000xi8> to tensor<1x100000000x!W>
  %a = qnt.matmul %x, %w : tensor<1x1x!X>, tensor<1x100000000x!W> -> tensor<1x100000000x!A>
  return %a : tensor<1x100000000x!A>
}

!CX = !quant.uniform<u8:f32, 5.000000e-01:128>
!CW = !quant.uniform<i8:f32, 5.000000e-01:-2>
!CA = !quant.uniform<i32:f32, 2.500000e-01>

// Conv2d: 10^8 filters of one tap. Folded bias: K = 1,
// z_x * (z_w - w) = 128 * (-2 - 5) = -896.
// FOLD-LABEL: func.func @big_splat_filters
// FOLD-DAG: arith.constant dense<-896> : tensor<100000000xi32>
// FOLD: qnt.int_conv2d
// VNNI-LABEL: func.func @big_splat_filters
// VNNI: qnt.int_conv2d
// VNNI-NOT: vpdpbusd
// LLVM-LABEL: llvm.func @big_splat_filters
func.func @big_splat_filters(%x: tensor<1x1x1x1x!CX>) -> tensor<1x1x1x100000000x!CA> {
  %c = arith.constant dense<5> : tensor<1x1x1x100000000xi8>
  %w = quant.scast %c : tensor<1x1x1x100000000xi8> to tensor<1x1x1x100000000x!CW>
  %a = qnt.conv2d %x, %w : tensor<1x1x1x1x!CX>, tensor<1x1x1x100000000x!CW> -> tensor<1x1x1x100000000x!CA>
  return %a : tensor<1x1x1x100000000x!CA>
}
