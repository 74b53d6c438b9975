// A negative K block is a bad option, not "no blocking": it is rejected with
// the rule it breaks.
// RUN: not quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-x86-vnni{k-block=-4}))" 2>&1 | FileCheck %s
// CHECK: error: qnt-x86-vnni: k-block must be at least 0 (0 disables K blocking), got -4
// Reported once, not once per function.
// CHECK-NOT: error

// 0 (no blocking) is accepted.
// RUN: quant-opt %s --pass-pipeline="builtin.module(func.func(qnt-x86-vnni{k-block=0}))" | FileCheck %s --check-prefix=ZERO
// ZERO: func.func @f
func.func @f() {
  return
}
func.func @g() {
  return
}

// The same for the AMX pass's smallest M.
// RUN: not quant-opt %s --pass-pipeline="builtin.module(qnt-x86-amx{min-rows=-1})" 2>&1 | FileCheck %s --check-prefix=AMX
// AMX: error: qnt-x86-amx: min-rows must be at least 0, got -1
