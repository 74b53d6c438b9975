// The int8 inner loops of the generic lowering (generic-contractions=1; the
// qnt-riscv-v kernels are riscv64-kernels.mlir) become RISC-V V widening
// multiply-accumulates once LLVM's O3 pipeline vectorizes them for RV64GCV:
// vwmaccsu for u8 x s8 and vwmacc for s8 x s8 (on i8 values extended to
// i16, accumulated into i32); u8 x u8 takes the widening multiply vwmulu.
// Each check must hit inside the function's own code (before the next
// function symbol; local .L labels do not count), not in another function
// or its C wrapper.
// RUN: quant-opt %S/Inputs/int8-contractions.mlir --qnt-to-llvm="target=riscv64 generic-contractions=1" \
// RUN:   | mlir-translate --mlir-to-llvmir \
// RUN:   | opt -O3 -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+v \
// RUN:   | llc -mtriple=riscv64-linux-gnu -mattr=+m,+a,+f,+d,+c,+v -target-abi=lp64d -filetype=obj -o %t.o
// RUN: llvm-objdump -d %t.o | FileCheck %s

// CHECK-LABEL: <mm_u8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmaccsu.vv{{[[:space:]]}}

// CHECK-LABEL: <mm_s8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmacc.vv{{[[:space:]]}}

// CHECK-LABEL: <mm_u8u8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmulu.vv{{[[:space:]]}}

// CHECK-LABEL: <conv3x3_u8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmaccsu.vv{{[[:space:]]}}

// CHECK-LABEL: <conv3x3_s8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmacc.vv{{[[:space:]]}}

// CHECK-LABEL: <conv3x3_grouped>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmacc.vv{{[[:space:]]}}
