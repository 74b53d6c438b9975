//===- QntKernelOps.td - target steps of the kernels -------*- tablegen -*-===//
//
// The `qnt_kernel` dialect: the target instructions the microkernels are
// built from, as Pure ops on vectors. Each lowers 1:1 to an LLVM intrinsic
// during the conversion to LLVM, through upstream's
// `X86IntrinsicOpInterface` (`convert-vector-to-llvm{enable-x86vector}`), so
// the kernels never hold an `llvm.call_intrinsic` before that point and no
// memory-effect model has to be attached to one. The AArch64 op uses the same
// interface: only its name is x86's (it is upstream's 1:1 intrinsic
// interface, LLVM::OneToOneIntrinsicOpInterface, plus the pattern that
// applies it), and the intrinsic name alone decides the target.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNTKERNEL_IR_QNTKERNELOPS_TD
#define QUANTOPT_DIALECT_QNTKERNEL_IR_QNTKERNELOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Dialect/X86Vector/X86VectorInterfaces.td"

def QntKernel_Dialect : Dialect {
  let name = "qnt_kernel";
  let cppNamespace = "::mlir::qnt_kernel";
  let summary = "Target instructions of the qnt microkernels";
  let description = [{
    Internal to quant-opt: the kernel passes (`qnt-x86-vnni`, `qnt-arm-neon`)
    emit these ops
    and the conversion to LLVM replaces them by intrinsic calls. They are
    `Pure`: they compute on registers only.
  }];
}

class QntKernel_Op<string mnemonic, list<Trait> traits = []>
    : Op<QntKernel_Dialect, mnemonic, traits>;

def QntKernel_X86DotU8S8Op : QntKernel_Op<"x86.vpdpbusd", [Pure,
    X86IntrinsicOpInterface,
    AllTypesMatch<["acc", "result"]>,
    AllTypesMatch<["a", "b"]>,
    TypesMatchWith<"`a` has four times as many elements as `acc`",
                   "acc", "a",
                   "VectorType::get({::llvm::cast<VectorType>($_self)"
                   ".getShape()[0] * 4}, "
                   "IntegerType::get($_self.getContext(), 8))">]> {
  let summary = "u8 x s8 dot product of groups of 4 into i32 (vpdpbusd)";
  let description = [{
    For each i32 lane `i`:
    `result[i] = acc[i] + sum_{q<4} zext(a[4i+q]) * sext(b[4i+q])`,
    with wrap-around (not saturating) i32 addition: AVX-512 VNNI
    `vpdpbusd`. `a` is read as unsigned bytes, `b` as signed ones. The
    512-bit form needs `avx512vnni`; the 128- and 256-bit forms also
    `avx512vl`.

    ```mlir
    %r = qnt_kernel.x86.vpdpbusd %acc, %a, %b : vector<64xi8> -> vector<16xi32>
    ```
    becomes `llvm.call_intrinsic "llvm.x86.avx512.vpdpbusd.512"`.
  }];
  let arguments = (ins VectorOfLengthAndType<[4, 8, 16], [I32]>:$acc,
                       VectorOfLengthAndType<[16, 32, 64], [I8]>:$a,
                       VectorOfLengthAndType<[16, 32, 64], [I8]>:$b);
  let results = (outs VectorOfLengthAndType<[4, 8, 16], [I32]>:$result);
  let assemblyFormat =
      "$acc `,` $a `,` $b attr-dict `:` type($a) `->` type($acc)";
  let extraClassDeclaration = [{
    /// llvm.x86.avx512.vpdpbusd.{128,256,512}
    std::string getIntrinsicName() {
      return "llvm.x86.avx512.vpdpbusd." +
             std::to_string(getAcc().getType().getNumElements() * 32);
    }
  }];
}

def QntKernel_X86DotI16Op : QntKernel_Op<"x86.vpdpwssd", [Pure,
    X86IntrinsicOpInterface,
    AllTypesMatch<["acc", "result"]>,
    AllTypesMatch<["a", "b"]>,
    TypesMatchWith<"`a` has twice as many elements as `acc`",
                   "acc", "a",
                   "VectorType::get({::llvm::cast<VectorType>($_self)"
                   ".getShape()[0] * 2}, "
                   "IntegerType::get($_self.getContext(), 16))">]> {
  let summary = "s16 x s16 dot product of pairs into i32 (vpdpwssd)";
  let description = [{
    For each i32 lane `i`:
    `result[i] = acc[i] + a[2i] * b[2i] + a[2i+1] * b[2i+1]` (signed 16-bit
    products, wrap-around i32 sums): AVX-512 VNNI `vpdpwssd` (the 256-bit
    form also with AVX-VNNI, VEX-encoded).

    ```mlir
    %r = qnt_kernel.x86.vpdpwssd %acc, %a, %b : vector<32xi16> -> vector<16xi32>
    ```
    becomes `llvm.call_intrinsic "llvm.x86.avx512.vpdpwssd.512"`.
  }];
  let arguments = (ins VectorOfLengthAndType<[4, 8, 16], [I32]>:$acc,
                       VectorOfLengthAndType<[8, 16, 32], [I16]>:$a,
                       VectorOfLengthAndType<[8, 16, 32], [I16]>:$b);
  let results = (outs VectorOfLengthAndType<[4, 8, 16], [I32]>:$result);
  let assemblyFormat =
      "$acc `,` $a `,` $b attr-dict `:` type($a) `->` type($acc)";
  let extraClassDeclaration = [{
    /// llvm.x86.avx512.vpdpwssd.{128,256,512}
    std::string getIntrinsicName() {
      return "llvm.x86.avx512.vpdpwssd." +
             std::to_string(getAcc().getType().getNumElements() * 32);
    }
  }];
}

def QntKernel_X86MaddI16Op : QntKernel_Op<"x86.vpmaddwd", [Pure,
    X86IntrinsicOpInterface,
    AllTypesMatch<["a", "b"]>,
    TypesMatchWith<"`a` has twice as many elements as the result",
                   "result", "a",
                   "VectorType::get({::llvm::cast<VectorType>($_self)"
                   ".getShape()[0] * 2}, "
                   "IntegerType::get($_self.getContext(), 16))">]> {
  let summary = "s16 x s16 products of pairs summed into i32 (vpmaddwd)";
  let description = [{
    For each i32 lane `i`: `result[i] = a[2i] * b[2i] + a[2i+1] * b[2i+1]`
    (signed 16-bit products, wrap-around i32 sum): SSE2 / AVX2 / AVX-512 BW
    `vpmaddwd`, the fallback of `x86.vpdpwssd` without VNNI.

    ```mlir
    %r = qnt_kernel.x86.vpmaddwd %a, %b : vector<16xi16> -> vector<8xi32>
    ```
    becomes `llvm.call_intrinsic "llvm.x86.avx2.pmadd.wd"`.
  }];
  let arguments = (ins VectorOfLengthAndType<[8, 16, 32], [I16]>:$a,
                       VectorOfLengthAndType<[8, 16, 32], [I16]>:$b);
  let results = (outs VectorOfLengthAndType<[4, 8, 16], [I32]>:$result);
  let assemblyFormat = "$a `,` $b attr-dict `:` type($a) `->` type($result)";
  let extraClassDeclaration = [{
    /// llvm.x86.{sse2.pmadd.wd, avx2.pmadd.wd, avx512.pmaddw.d.512}
    std::string getIntrinsicName() {
      switch (getResult().getType().getNumElements()) {
      case 4:
        return "llvm.x86.sse2.pmadd.wd";
      case 8:
        return "llvm.x86.avx2.pmadd.wd";
      default:
        return "llvm.x86.avx512.pmaddw.d.512";
      }
    }
  }];
}

def QntKernel_Aarch64PairwiseAddLongOp : QntKernel_Op<"aarch64.saddlp", [Pure,
    X86IntrinsicOpInterface]> {
  let summary = "s16 pairs summed into i32 lanes (AArch64 saddlp)";
  let description = [{
    For each i32 lane `i`: `result[i] = sext(a[2i]) + sext(a[2i+1])`:
    AArch64 Advanced SIMD `saddlp v.4s, v.8h`. An `arith.addi` of the result
    to an accumulator selects `sadalp`, the second half of the plain-NEON
    int8 dot step (`smull` products into i16, then their pairs into i32).
    LLVM forms `saddlp` / `sadalp` only from this intrinsic.

    ```mlir
    %r = qnt_kernel.aarch64.saddlp %a : vector<8xi16> -> vector<4xi32>
    ```
    becomes `llvm.call_intrinsic "llvm.aarch64.neon.saddlp.v4i32.v8i16"`.
  }];
  let arguments = (ins VectorOfLengthAndType<[8], [I16]>:$a);
  let results = (outs VectorOfLengthAndType<[4], [I32]>:$result);
  let assemblyFormat = "$a attr-dict `:` type($a) `->` type($result)";
  let extraClassDeclaration = [{
    std::string getIntrinsicName() {
      return "llvm.aarch64.neon.saddlp.v4i32.v8i16";
    }
  }];
}

#endif // QUANTOPT_DIALECT_QNTKERNEL_IR_QNTKERNELOPS_TD
