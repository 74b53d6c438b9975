// Which compilations stream a large elementwise output with non-temporal
// stores (--qnt-to-llvm's nontemporal-min-bytes): a named target never by
// default, whatever the compiling machine's cache; an explicit size on any
// target; 0 never. The output is 1 GiB, beyond any last-level cache.
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64" | FileCheck %s --check-prefix=OFF
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64" | FileCheck %s --check-prefix=OFF
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 nontemporal-min-bytes=0" | FileCheck %s --check-prefix=OFF
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 nontemporal-min-bytes=1073741824" | FileCheck %s --check-prefix=ON
// RUN: quant-opt %s --qnt-to-llvm="target=aarch64 nontemporal-min-bytes=1073741824" | FileCheck %s --check-prefix=ON
// RUN: quant-opt %s --qnt-to-llvm="target=x86_64 nontemporal-min-bytes=1073741825" | FileCheck %s --check-prefix=OFF
// On an x86-64 host, target=host streams it whatever the machine says of
// its cache: 1 GiB is beyond any last-level cache, and a machine that hides
// its cache gets 32 MiB.
// RUN: %if x86-avx2 %{ quant-opt %s --qnt-to-llvm="target=host" | FileCheck %s --check-prefix=ON %}
// OFF-NOT: nontemporal
// ON: llvm.store {{.*}} {alignment = 64 : i64, nontemporal} : vector<16xf32>

func.func @rows(%src: tensor<16384x16384xi8>, %scale: tensor<16384x1xf32>,
                %offset: tensor<16384x1xf32>) -> tensor<16384x16384xf32> {
  %r = qnt.dequantize_dynamic %src, %scale, %offset
     : tensor<16384x16384xi8>, tensor<16384x1xf32>, tensor<16384x1xf32> -> tensor<16384x16384xf32>
  return %r : tensor<16384x16384xf32>
}
