// The contract's worked examples, run twice: on the reference model
// (quant-ref-run, no compiler pass involved) and compiled through
// --qnt-to-llvm and executed by mlir-runner. Both must print the numbers of
// the worked examples, and the two outputs must be identical.
// RUN: %quant_ref_run %s | FileCheck %s
// RUN: quant-opt %s --qnt-to-llvm | %mlir_runner_cmd > %t.compiled
// RUN: FileCheck %s < %t.compiled
// RUN: %quant_ref_run %s > %t.reference
// RUN: %compare_outputs %t.reference %t.compiled

!XU8 = !quant.uniform<u8:f32, 0.25:128>
!W05 = !quant.uniform<i8:f32, 0.5>
!A0125 = !quant.uniform<i32:f32, 0.125>

func.func private @printMemrefU8(memref<*xi8>)
func.func private @printMemrefI8(memref<*xi8>)
func.func private @printMemrefI32(memref<*xi32>)
func.func private @printMemrefF32(memref<*xf32>)

// Input codes [130, 126] (u8, s=0.25, z=128) times weights [3, -2] (s=0.5):
// accumulator (2)(3) + (-2)(-2) = 10 = 1.25 real; at (s=0.25, z=128) that is
// code 1.25 / 0.25 + 128 = 133.
func.func @seed_133(%x: tensor<1x2x!XU8>) -> (tensor<1x1x!A0125>, tensor<1x1x!XU8>) {
  %w = qnt.constant dense<[[3], [-2]]> : tensor<2x1xi8> -> tensor<2x1x!W05>
  %a = qnt.matmul %x, %w : tensor<1x2x!XU8>, tensor<2x1x!W05> -> tensor<1x1x!A0125>
  %y = qnt.requantize %a : tensor<1x1x!A0125> -> tensor<1x1x!XU8>
  return %a, %y : tensor<1x1x!A0125>, tensor<1x1x!XU8>
}

// The FC neuron: S_X=0.05 Z_X=-10, S_W=0.01 Z_W=0, S_Y=0.1 Z_Y=-5,
// q_W=[50,-30,20] (written in float: 0.5, -0.3, 0.2), q_X=[30,10,70],
// bias 0.27 -> q_b = 540 at scale 0.0005; acc = 40*50 + 20*(-30) + 80*20
// + 540 = 3540; M = 0.005 -> 17.7 -> 18, - 5 = 13.
!FX = !quant.uniform<i8:f32, 0.05:-10>
!FW = !quant.uniform<i8:f32, 0.01>
!FA = !quant.uniform<i32:f32, 0.0005>
!FY = !quant.uniform<i8:f32, 0.1:-5>
func.func @fc_neuron(%x: tensor<1x3x!FX>) -> (tensor<1x1x!FA>, tensor<1x1x!FY>) {
  %wf = arith.constant dense<[[0.5], [-0.3], [0.2]]> : tensor<3x1xf32>
  %w = qnt.quantize %wf : tensor<3x1xf32> -> tensor<3x1x!FW>
  // 0.27 / 0.0005 = 540 (the quantized bias of the worked example).
  %b = qnt.constant dense<[540]> : tensor<1xi32> -> tensor<1x!FA>
  %a = qnt.matmul %x, %w, %b : tensor<1x3x!FX>, tensor<3x1x!FW>, tensor<1x!FA> -> tensor<1x1x!FA>
  %y = qnt.requantize %a : tensor<1x1x!FA> -> tensor<1x1x!FY>
  return %a, %y : tensor<1x1x!FA>, tensor<1x1x!FY>
}

// 2x2 asymmetric matmul: q_W=[[3,1],[4,2]] (Z_W=1) as the M x K operand,
// q_X=[[5,1],[3,6]] (Z_X=2) as the K x N operand:
// (3-1)(5-2)+(1-1)(3-2) = 6, (3-1)(1-2)+(1-1)(6-2) = -2,
// (4-1)(5-2)+(2-1)(3-2) = 10, (4-1)(1-2)+(2-1)(6-2) = 1.
!LW = !quant.uniform<u8:f32, 1.0:1>
!RX = !quant.uniform<u8:f32, 1.0:2>
!AA = !quant.uniform<i32:f32, 1.0>
func.func @asymmetric_2x2(%lhs: tensor<2x2x!LW>) -> tensor<2x2x!AA> {
  %rhs = qnt.constant dense<[[5, 1], [3, 6]]> : tensor<2x2xui8> -> tensor<2x2x!RX>
  %a = qnt.matmul %lhs, %rhs : tensor<2x2x!LW>, tensor<2x2x!RX> -> tensor<2x2x!AA>
  return %a : tensor<2x2x!AA>
}

func.func @main() {
  // u8 codes [130, 126] as i8 bits.
  %xi = arith.constant dense<[[-126, 126]]> : tensor<1x2xi8>
  %x = quant.scast %xi : tensor<1x2xi8> to tensor<1x2x!XU8>
  %a, %y = call @seed_133(%x) : (tensor<1x2x!XU8>) -> (tensor<1x1x!A0125>, tensor<1x1x!XU8>)
  %ai = quant.scast %a : tensor<1x1x!A0125> to tensor<1x1xi32>
  %am = bufferization.to_buffer %ai : tensor<1x1xi32> to memref<1x1xi32>
  %au = memref.cast %am : memref<1x1xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[10]]
  call @printMemrefI32(%au) : (memref<*xi32>) -> ()
  %yi = quant.scast %y : tensor<1x1x!XU8> to tensor<1x1xi8>
  %ym = bufferization.to_buffer %yi : tensor<1x1xi8> to memref<1x1xi8>
  %yu = memref.cast %ym : memref<1x1xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[133]]
  call @printMemrefU8(%yu) : (memref<*xi8>) -> ()

  %fxi = arith.constant dense<[[30, 10, 70]]> : tensor<1x3xi8>
  %fx = quant.scast %fxi : tensor<1x3xi8> to tensor<1x3x!FX>
  %fa, %fy = call @fc_neuron(%fx) : (tensor<1x3x!FX>) -> (tensor<1x1x!FA>, tensor<1x1x!FY>)
  %fai = quant.scast %fa : tensor<1x1x!FA> to tensor<1x1xi32>
  %fam = bufferization.to_buffer %fai : tensor<1x1xi32> to memref<1x1xi32>
  %fau = memref.cast %fam : memref<1x1xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[3540]]
  call @printMemrefI32(%fau) : (memref<*xi32>) -> ()
  %fyi = quant.scast %fy : tensor<1x1x!FY> to tensor<1x1xi8>
  %fym = bufferization.to_buffer %fyi : tensor<1x1xi8> to memref<1x1xi8>
  %fyu = memref.cast %fym : memref<1x1xi8> to memref<*xi8>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[13]]
  call @printMemrefI8(%fyu) : (memref<*xi8>) -> ()

  %li = arith.constant dense<[[3, 1], [4, 2]]> : tensor<2x2xi8>
  %l = quant.scast %li : tensor<2x2xi8> to tensor<2x2x!LW>
  %r = call @asymmetric_2x2(%l) : (tensor<2x2x!LW>) -> tensor<2x2x!AA>
  %ri = quant.scast %r : tensor<2x2x!AA> to tensor<2x2xi32>
  %rm = bufferization.to_buffer %ri : tensor<2x2xi32> to memref<2x2xi32>
  %ru = memref.cast %rm : memref<2x2xi32> to memref<*xi32>
  // CHECK: data =
  // CHECK-NEXT: {{\[}}[6,   -2],
  // CHECK-NEXT: [10,   1]]
  call @printMemrefI32(%ru) : (memref<*xi32>) -> ()
  return
}
