// Plain NEON: the kernel's K loop is smull / smull2 and sadalp (the
// saddlp intrinsic plus the accumulating add, selected together), and the
// four accumulators of a row reduce with addp.
// RUN: quant-opt %s --qnt-to-llvm=target=aarch64-neon | quant-translate --emit=asm | FileCheck %s
// CHECK-LABEL: mm:
// CHECK-DAG: smull v{{[0-9]+}}.8h, v{{[0-9]+}}.8b, v{{[0-9]+}}.8b
// CHECK-DAG: smull2 v{{[0-9]+}}.8h, v{{[0-9]+}}.16b, v{{[0-9]+}}.16b
// CHECK-DAG: sadalp v{{[0-9]+}}.4s, v{{[0-9]+}}.8h
// CHECK-DAG: addp v{{[0-9]+}}.4s, v{{[0-9]+}}.4s, v{{[0-9]+}}.4s
// CHECK-NOT: saddlp
// CHECK-NOT: sdot
// CHECK: ret
func.func @mm(%x: tensor<4x128xi8>) -> tensor<4x4xi32> {
  %w = arith.constant dense<-3> : tensor<128x4xi8>
  %b = arith.constant dense<7> : tensor<4xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
      : tensor<4x128xi8>, tensor<128x4xi8>, tensor<4xi32> -> tensor<4x4xi32>
  return %a : tensor<4x4xi32>
}
