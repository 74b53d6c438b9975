// The qnt-riscv-v kernels in the object: every matmul of the input runs a
// widening multiply-accumulate by a scalar at SEW 16, VLEN-agnostic (vsetvli
// to VLMAX, no fixed vector length): vwmacc.vx for s8 activations,
// vwmaccus.vx for u8 ones (the backend sees the zero-extended scalar; the
// weights are i16 either way, u8 weights zero-extended first). Each check must hit inside the function's
// own code (before the next function symbol).
// RUN: quant-opt %S/Inputs/int8-contractions.mlir --qnt-to-llvm=target=riscv64 \
// RUN:   | quant-translate --emit=obj -o %t.o
// RUN: llvm-objdump -d --no-show-raw-insn %t.o | FileCheck %s

// CHECK-LABEL: <mm_u8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: vsetvli {{[a-z0-9]+}}, zero, e16, m4
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmaccus.vx{{[[:space:]]}}

// CHECK-LABEL: <mm_s8s8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmacc.vx{{[[:space:]]}}

// CHECK-LABEL: <mm_u8u8>:
// CHECK-NOT: {{^[0-9a-f]+ <[^.]}}
// CHECK: {{[[:space:]]}}vwmaccus.vx{{[[:space:]]}}
