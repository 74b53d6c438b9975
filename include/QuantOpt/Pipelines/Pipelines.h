//===- Pipelines.h - quant-opt pass pipelines -------------------*- C++ -*-===//
//
// The end-to-end pipeline from the public qnt ops to the LLVM dialect, in the
// shape of upstream's sparse-tensor pipelines: an options struct, a builder
// that fills an OpPassManager, and a registration for textual pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_PIPELINES_PIPELINES_H
#define QUANTOPT_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace quantopt {

/// Options of `--qnt-to-llvm`.
struct QuantOptPipelineOptions
    : public mlir::PassPipelineOptions<QuantOptPipelineOptions> {
  /// The machine to compile for. Each name fixes a triple, CPU and features:
  ///   x86_64   x86_64-unknown-linux-gnu, x86-64-v4, +avx512vnni
  ///   x86_64-amx  the same triple, sapphirerapids
  ///   x86_64-avx2 the same triple, x86-64-v3 (AVX2, no AVX-512)
  ///   aarch64  aarch64-unknown-linux-gnu, generic, +neon,+dotprod,+i8mm
  ///   aarch64-dotprod  the same triple, neoverse-n1, +neon,+dotprod
  ///   aarch64-neon     the same triple, cortex-a57, +neon
  ///   riscv64  riscv64-unknown-linux-gnu, generic-rv64, +m,+a,+f,+d,+c,+v,
  ///            ABI lp64d
  ///   host     the process triple, the host CPU (plus the features in
  ///            which the host differs from it)
  /// The module gets `llvm.target` (#llvm.target<triple, chip, features>),
  /// `llvm.target_triple` and `llvm.data_layout`; every `llvm.func`
  /// definition gets `target_cpu` / `target_features` (and RISC-V the
  /// "target-abi" module flag), so the translated LLVM IR compiles with
  /// llc / clang and no extra flag.
  PassOptions::Option<std::string> target{
      *this, "target",
      llvm::cl::desc("Machine to compile for: host, x86_64 (x86-64-v4 + "
                     "AVX-512 VNNI), x86_64-amx (Sapphire Rapids: "
                     "AVX-512 VNNI + AMX-INT8), x86_64-avx2 (x86-64-v3: "
                     "AVX2), aarch64 (NEON + dotprod + "
                     "i8mm) or "
                     "riscv64 (RV64GC + V)"),
      llvm::cl::init("host")};

  /// Threads of the generated code. 1: serial code with no run-time
  /// dependency. 0: the output-tile loops of every kernel (those marked
  /// `qnt.parallel_tiles`, docs/Parallelism.md) become OpenMP work-sharing
  /// loops whose thread count the OpenMP runtime picks when the code runs
  /// (`OMP_NUM_THREADS`, else every core). N > 1: the same, on N threads.
  /// With anything but 1 the code calls LLVM's OpenMP runtime (libomp).
  PassOptions::Option<int64_t> threads{
      *this, "threads",
      llvm::cl::desc("Threads of the generated code: 1 (serial, default), 0 "
                     "(OpenMP, chosen at run time) or N > 1 (OpenMP, N)"),
      llvm::cl::init(1)};

  /// With threads != 1: the estimated operations (qnt-parallelize-tiles'
  /// `min-work`) below which a kernel's loop stays serial. 0 parallelizes
  /// every marked loop of two or more iterations, which tests use to run
  /// small cases on several threads.
  PassOptions::Option<int64_t> parallelMinWork{
      *this, "parallel-min-work",
      llvm::cl::desc("With threads != 1: estimated operations below which a "
                     "kernel stays serial (docs/Parallelism.md)"),
      llvm::cl::init(1048576)};

  /// With threads != 1: a remark per marked loop considered (trips,
  /// estimated work, parallel or serial and why).
  PassOptions::Option<bool> parallelReport{
      *this, "parallel-report",
      llvm::cl::desc("With threads != 1: report each parallelization "
                     "decision as a remark"),
      llvm::cl::init(false)};

  /// Elementwise ops (per-row dequantization, say) whose output holds at
  /// least this many bytes write it with non-temporal vector stores
  /// (qnt-nontemporal-stores). -1: the last-level cache of the machine for
  /// `target=host` on x86-64 (32 MiB where the machine hides it), never for
  /// the named targets (which do not say how large the running machine's
  /// cache is); 0: never.
  PassOptions::Option<int64_t> nontemporalMinBytes{
      *this, "nontemporal-min-bytes",
      llvm::cl::desc("Output bytes from which elementwise ops store with "
                     "non-temporal stores: -1 (default) the host's "
                     "last-level cache (32 MiB where hidden) for "
                     "target=host on x86-64, else never; 0 never"),
      llvm::cl::init(-1)};

  /// AArch64 and RISC-V contractions take the generic lowering instead of
  /// the qnt-arm-neon / qnt-riscv-v kernels: the baseline bench/mca.sh
  /// compares them with.
  PassOptions::Option<bool> genericContractions{
      *this, "generic-contractions",
      llvm::cl::desc("AArch64 / RISC-V: lower contractions generically, "
                     "without the i8mm / dotprod / RVV kernels (a benchmark "
                     "baseline)"),
      llvm::cl::init(false)};
};

/// Lowers a module of qnt ops on quantized tensors (plus func, arith, tensor
/// and quant.scast) to the LLVM dialect: the qnt passes, qnt-to-linalg,
/// bufferization and the upstream conversions to LLVM. Public functions get
/// the C interface. An unknown target makes the pipeline fail when it runs
/// (registerQuantOptPipelines rejects it earlier, while parsing options).
void buildQntToLLVMPipeline(mlir::OpPassManager &pm,
                            const QuantOptPipelineOptions &options);

/// The two halves of buildQntToLLVMPipeline, which runs one after the
/// other: up to and including the target kernels and their clean-up (still
/// on tensors), then the rest. Test tools put passes between the two.
void buildQntToKernelsPipeline(mlir::OpPassManager &pm,
                               const QuantOptPipelineOptions &options);
void buildQntKernelsToLLVMPipeline(mlir::OpPassManager &pm,
                                   const QuantOptPipelineOptions &options);

/// Registers `qnt-to-llvm` for textual pipelines and command-line tools.
void registerQuantOptPipelines();

/// `tosa-to-qnt`, then upstream's TOSA lowering (tosa-to-linalg-named,
/// tosa-to-linalg, tosa-to-tensor, tosa-to-arith, without validation) for
/// whatever stayed TOSA: the result holds no TOSA op and is what
/// `--qnt-to-llvm` takes (docs/TosaToQnt.md).
void buildTosaToQntPipeline(mlir::OpPassManager &pm);

/// buildTosaToQntPipeline, then buildQntToLLVMPipeline: quantized TOSA to
/// the LLVM dialect.
void buildTosaToLLVMPipeline(mlir::OpPassManager &pm,
                             const QuantOptPipelineOptions &options);

/// Registers `tosa-to-qnt-pipeline` and `tosa-to-llvm` (same options as
/// `qnt-to-llvm`).
void registerTosaPipelines();

} // namespace quantopt

#endif // QUANTOPT_PIPELINES_PIPELINES_H
