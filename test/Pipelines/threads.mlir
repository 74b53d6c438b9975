// --qnt-to-llvm="threads=N": the output-tile loop of each kernel large
// enough becomes an OpenMP work-sharing loop (docs/Parallelism.md).

// threads=2: the VNNI matmul's loop and the quantize loop are omp.wsloop
// nests in an omp.parallel of 2 threads; the small matmul stays serial.
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 threads=2" | FileCheck %s --check-prefixes=CHECK,T2
// threads=0: no num_threads clause (the runtime chooses).
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 threads=0" | FileCheck %s --check-prefixes=CHECK,T0
// The generic (linalg) path on other targets is parallel the same way.
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64 threads=2" | FileCheck %s --check-prefixes=CHECK,T2
// threads=1 (the default): no OpenMP at all.
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" | FileCheck %s --check-prefix=SERIAL
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 threads=1" | FileCheck %s --check-prefix=SERIAL
// SERIAL-NOT: omp.
// SERIAL-NOT: __kmpc

// LLVM IR: the runtime calls, and the outlined body keeps the target's
// features (the VNNI intrinsic must compile in it).
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 threads=2" | quant-translate --emit=llvm | FileCheck %s --check-prefix=LLVMIR
// LLVMIR-DAG: call void {{.*}}@__kmpc_fork_call(
// LLVMIR-DAG: declare {{.*}}@__kmpc_fork_call(
// LLVMIR-DAG: define internal void @big..omp_par{{.*}} #[[ATTRS:[0-9]+]]
// LLVMIR-DAG: attributes #[[ATTRS]] = {{.+}}"target-features"="{{[^"]*}}+avx512vnni
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" | quant-translate --emit=llvm | FileCheck %s --check-prefix=SERIAL

// Bad option values are diagnosed before any IR is touched.
// RUN: not quant-opt %s --qnt-to-llvm="threads=-1" 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: qnt-to-llvm: threads=-1 is out of range; expected 1 (serial), 0 (chosen at run time) or a thread count up to 2147483647
// RUN: not quant-opt %s --qnt-to-llvm="threads=2147483648" 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: qnt-to-llvm: threads=2147483648 is out of range
// RUN: not quant-opt %s --qnt-to-llvm="threads=2 parallel-min-work=-5" 2>&1 | FileCheck %s --check-prefix=WORK
// WORK: qnt-to-llvm: parallel-min-work must be at least 0

// CHECK-LABEL: llvm.func @big(
// T2: omp.parallel num_threads(%{{.+}} : i32) {
// T0: omp.parallel {
// CHECK: omp.wsloop {
// CHECK: omp.loop_nest
// CHECK: omp.yield
// CHECK: omp.terminator
// CHECK-LABEL: llvm.func @_mlir_ciface_big(
func.func @big(%x: tensor<256x256xi8>) -> tensor<256x256xi32> {
  %w = arith.constant dense<3> : tensor<256x256xi8>
  %b = arith.constant dense<7> : tensor<256xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<256x256xi8>, tensor<256x256xi8>, tensor<256xi32> -> tensor<256x256xi32>
  return %a : tensor<256x256xi32>
}

// Too small to fork for: serial code.
// CHECK-LABEL: llvm.func @small(
// CHECK-NOT: omp.
// CHECK-LABEL: llvm.func @_mlir_ciface_small(
func.func @small(%x: tensor<2x5xi8>) -> tensor<2x3xi32> {
  %w = arith.constant dense<[[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12], [13, 14, 15]]> : tensor<5x3xi8>
  %b = arith.constant dense<[100, 200, 300]> : tensor<3xi32>
  %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
       : tensor<2x5xi8>, tensor<5x3xi8>, tensor<3xi32> -> tensor<2x3xi32>
  return %a : tensor<2x3xi32>
}

// An elementwise kernel (linalg.generic): its H loop runs in parallel.
// CHECK-LABEL: llvm.func @quantize(
// T2: omp.parallel num_threads
// T0: omp.parallel {
// CHECK: omp.wsloop
// CHECK-LABEL: llvm.func @_mlir_ciface_quantize(
func.func @quantize(%x: tensor<1x56x56x64xf32>) -> tensor<1x56x56x64x!quant.uniform<i8:f32, 0.05:3>> {
  %q = qnt.quantize %x : tensor<1x56x56x64xf32> -> tensor<1x56x56x64x!quant.uniform<i8:f32, 0.05:3>>
  return %q : tensor<1x56x56x64x!quant.uniform<i8:f32, 0.05:3>>
}

// Cross targets: the same runtime calls in an AArch64 / RISC-V object
// (linked with that target's libomp, which Debian 12 does not ship as a
// cross package: these objects are checked, not run).
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64 threads=0" | quant-translate --emit=obj -o %t.aarch64.o
// RUN: llvm-nm %t.aarch64.o | FileCheck %s --check-prefix=OBJ
// RUN: quant-opt %s --qnt-to-llvm="target=riscv64 threads=0" | quant-translate --emit=obj -o %t.riscv64.o
// RUN: llvm-nm %t.riscv64.o | FileCheck %s --check-prefix=OBJ
// OBJ-DAG: U __kmpc_fork_call
// OBJ-DAG: U __kmpc_for_static_init_8u

// The VNNI conv's padded input copy is too small to fork for by itself, but
// the parallel row loop reads it: it runs in parallel too, so each thread
// writes the rows it reads (docs/Parallelism.md).
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 threads=2 parallel-report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=FEEDS
// FEEDS: remark: qnt-parallelize-tiles: serial, too little work (58 trips
// FEEDS: remark: qnt-parallelize-tiles: parallel (56 trips
// FEEDS: remark: qnt-parallelize-tiles: parallel, feeds a parallel loop (58 trips
// CHECK-LABEL: llvm.func @conv(
// CHECK: omp.parallel
// CHECK: omp.parallel
// CHECK-LABEL: llvm.func @_mlir_ciface_conv(
func.func @conv(%x: tensor<1x56x56x64x!quant.uniform<i8:f32, 0.0625:5>>) -> tensor<1x56x56x64x!quant.uniform<i8:f32, 4.0:-3>> {
  %w = qnt.constant dense<3> : tensor<3x3x64x64xi8> -> tensor<3x3x64x64x!quant.uniform<i8<-127:127>:f32, 0.015625>>
  %b = qnt.constant dense<7> : tensor<64xi32> -> tensor<64x!quant.uniform<i32:f32, 0.0009765625>>
  %a = qnt.conv2d %x, %w, %b {strides = array<i64: 1, 1>, dilations = array<i64: 1, 1>,
         padding = array<i64: 1, 1, 1, 1>, groups = 1 : i64}
       : tensor<1x56x56x64x!quant.uniform<i8:f32, 0.0625:5>>, tensor<3x3x64x64x!quant.uniform<i8<-127:127>:f32, 0.015625>>, tensor<64x!quant.uniform<i32:f32, 0.0009765625>> -> tensor<1x56x56x64x!quant.uniform<i32:f32, 0.0009765625>>
  %y = qnt.requantize %a : tensor<1x56x56x64x!quant.uniform<i32:f32, 0.0009765625>> -> tensor<1x56x56x64x!quant.uniform<i8:f32, 4.0:-3>>
  return %y : tensor<1x56x56x64x!quant.uniform<i8:f32, 4.0:-3>>
}
