// threads=0: the AMX kernel's outer loop over pairs of tile rows (16 of them
// for 512 rows) is worth a parallel loop. qnt-parallelize-tiles weighs an
// amx.tile_muli as the 256 vpdpbusd steps it replaces (16 x 16 x 64 MACs),
// not as one op: counted as one, this kernel looked like 28465 units of
// work, under the 2^20 threshold, and stayed serial.
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64-amx threads=0 parallel-report=true" -o %t.mlir 2>&1 | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.mlir
// CHECK: remark: qnt-parallelize-tiles: parallel (16 trips, work {{[0-9]+}}, min-work 1048576)
// IR: omp.parallel
// IR: omp.wsloop
// The tile configuration is per thread: every thread that runs tile
// instructions must load it, so ldtilecfg sits in the outlined body that
// each OpenMP thread executes, before its first tile instruction.
// RUN: quant-translate %t.mlir --emit=obj -o %t.o
// RUN: llvm-objdump -d --no-show-raw-insn %t.o | FileCheck %s --check-prefix=OBJ
// OBJ: <mm..omp_par>:
// OBJ-NOT: {{tileloadd|tilezero|tdpb}}
// OBJ: ldtilecfg
// OBJ: tdpbssd
// OBJ: tilerelease
func.func @mm(%x: tensor<512x512xi8>) -> tensor<512x512xi32> {
  %w = arith.constant dense<3> : tensor<512x512xi8>
  %b = arith.constant dense<0> : tensor<512xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<512x512xi8>, tensor<512x512xi8>, tensor<512xi32> -> tensor<512x512xi32>
  return %a : tensor<512x512xi32>
}
