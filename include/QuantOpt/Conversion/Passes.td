//===- Passes.td - qnt conversion passes -------------------*- tablegen -*-===//
//
// Lowerings out of the qnt dialect, declared in one file as upstream's
// mlir/Conversion/Passes.td does.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_PASSES_TD
#define QUANTOPT_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def QntToLinalg : Pass<"qnt-to-linalg", "func::FuncOp"> {
  let summary = "Lower the explicit integer qnt ops to linalg on tensors";
  let description = [{
    Lowers `qnt.int_matmul`, `qnt.int_conv2d`, `qnt.int_requantize`,
    `qnt.int_quantize` and `qnt.int_dequantize` to `linalg`, `arith`, `math`
    and `tensor` ops on signless integer tensors. The rounding arithmetic is
    emitted step by step after `QuantOpt/Reference/FixedPoint.h`, so compiled
    code is bit-exact with the reference model.

    Input: explicit integer IR, as left by `qnt-strip-quant-types`. A public
    qnt op (`qnt.matmul`, ...) that is still present is an error.

    ```mlir
    %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32,
           weight_zero_points = array<i32: 0>, x_unsigned}
         : tensor<1x2xi8>, tensor<2x1xi8>, tensor<1xi32> -> tensor<1x1xi32>
    ```
    becomes a `linalg.broadcast` of the bias into a `1x1` init, the weights
    transposed to N x K (at compile time when they are constant; convs pack
    the filter as [F][KH][KW*C] or per group), and a parallel
    `linalg.generic` over (m, n) whose body sums over k in an `scf.for`,
    reading `x[m, k]` and `wt[n, k]` (both contiguous in k), extending `x`
    with `arith.extui` and `w` with `arith.extsi`, and accumulating in i32.
    That inner loop is the shape LLVM's vectorizer turns into dot-product
    instructions (`sdot`/`usdot`/`udot`, `vwmacc*`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntDynamicScalesToLinalg : Pass<"qnt-dynamic-scales-to-linalg",
                                    "func::FuncOp"> {
  let summary = "Lower the runtime-scale qnt ops to linalg on tensors";
  let description = [{
    Lowers `qnt.dequantize_dynamic`, `qnt.quantize_dynamic` and
    `qnt.dynamic_quantize` (docs/RuntimeScales.md) to `linalg.generic`,
    `arith` and `math` ops. Runs before `qnt-strip-quant-types`, which
    erases the signedness of `ui8` tensors these ops read and write: `ui8`
    operands and results go through `tensor.bitcast` to and from `i8`, and
    the bodies convert them as unsigned.

    * `dequantize_dynamic` / `quantize_dynamic`: one elementwise parallel
      `linalg.generic`; scale and offset are read through broadcasting
      indexing maps (a size-1 dimension reads index 0). The f32 steps are
      the contract's, in its order, with no fast-math flags:
      `(sitofp(src) - offset) * scale`, and `divf`, `math.roundeven`, NaN to
      0, `addf`, clamp, `fptosi`.
    * `dynamic_quantize`: a reduction `linalg.generic` (`arith.minimumf` /
      `arith.maximumf`, NaN-propagating, from 0), a rank-0 or per-slice
      `linalg.generic` computing scale and zero point, and an elementwise
      `linalg.generic` producing the codes.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntToX86Vnni : Pass<"qnt-x86-vnni", "func::FuncOp"> {
  let summary = "Lower eligible int8 contractions to AVX-512 VNNI microkernels";
  let description = [{
    Runs before `qnt-to-linalg` when the target has AVX-512 VNNI. Rewrites
    `qnt.int_matmul` and `qnt.int_conv2d` (any strides, dilations, padding
    and groups) whose weights are compile-time constants and whose shapes are
    static into packed-weight loops whose inner step is the 512-bit
    `vpdpbusd` (u8 x s8 -> i32), emitted on tensors as `scf.for`, vector ops
    and `qnt_kernel.x86.vpdpbusd` (a `Pure` op that the conversion to LLVM
    turns into `llvm.x86.avx512.vpdpbusd.512`).

    The kernel choice follows the module's `llvm.target`: when the module
    has one, the pass builds the kernels with `vpdpbusd` only if that
    triple, CPU and features have AVX-512 VNNI (as LLVM's subtarget tables
    say, whatever the machine running the compiler). Where they have AVX2
    but no AVX-512 VNNI (x86-64-v3: Haswell to Comet Lake, Zen 1 to 3), it
    builds the same kernels with each `vpdpbusd` step emulated exactly: the
    even and the odd bytes of each 16-bit lane widened to 16 bits, two
    `qnt_kernel.x86.vpmaddwd` per 256 bits, their pair sums added to the
    accumulator (no product or pair sum saturates, so the bits are those
    of `vpdpbusd`); the register tiles are then 4 x 16, and a matmul with
    at least two tiles of rows (8) and constant weights reads both operands
    widened ahead (the weights at compile time, the activations by a
    pre-pass). AVX-512 BW without VNNI gets the same emulation at 512 bits;
    AVX-VNNI without AVX-512 (Alder Lake) two 256-bit `vpdpbusd` per step.
    A module without `llvm.target` is taken as the caller's claim that the
    target has VNNI.

    With `w' = w - weight_zero_points[n]` (exact, at compile time):
    * if every `w'` fits s8, the weights are the s8 operand and the
      activations the u8 one; s8 activations are flipped, `x ^ 0x80`
      (`x + 128`), and `-128 * sum_k w'[k,n]` folds into the bias;
    * else if every `w'` fits u8, the weights are the u8 operand and the
      activations the s8 one; u8 activations are flipped (`x - 128`) and
      `+128 * sum_k w'[k,n]` folds into the bias;
    * else the op is left alone.
    The input zero point folds into the bias the same way
    (`-input_zero_point * sum_k w'[k,n]`). Arithmetic is i32 with
    wrap-around, so the result is exact whenever the true accumulator fits
    i32.

    Weights are packed at compile time as `[N/N0][K/4][N0][4]` (N0 = 64, or
    16 / 32 / 48 for narrow outputs; zero padded). Activations are read in
    place when they need no change, else copied by a vectorized pre-pass
    that flips them and pads K (matmul) or the image (conv, with
    `pad_value`) and the channels to a multiple of 4. The microkernel keeps
    M0 x N0 = 4 x 64 (8 x 32, 8 x 16 for narrow outputs) i32 accumulators in
    registers as loop-carried vectors; conv is an implicit GEMM whose K loop
    runs over (kh, kw * c / 4). Every vector transfer is in bounds: M, N and
    K remainders use static-size tails, never masks.

    Ops it does not handle (run-time weights, dynamic shapes, weights that
    fit neither s8 nor u8 after their zero points) are left for
    `qnt-to-linalg`.

    Depthwise convs (`groups` = C = F, constant weights) take a kernel of
    their own that needs no VNNI for its multiply: vectors along the NHWC
    channels, x widened to i32 and multiplied by `w'` (low 16 bits) with
    `qnt_kernel.x86.vpdpwssd` (VNNI) or `qnt_kernel.x86.vpmaddwd` + add,
    register tiles along W, border pixels selecting `pad_value`, and the
    consuming `qnt.int_requantize` fused as its epilogue. It runs with 16
    lanes when the target has AVX-512 BW and with 8 (AVX2, `vpdpwssd` with
    AVX-VNNI) on an x86 target without AVX-512; the VNNI contraction kernels
    only with AVX-512 VNNI.

    The pass only rewrites (`populateQntToX86VnniPatterns`, applied in one
    walk); the index arithmetic and constants it leaves are for a later
    `canonicalize` and `cse`, as `--qnt-to-llvm` schedules them.
  }];
  let options = [
    Option<"kBlock", "k-block", "int64_t", /*default=*/"256",
           "Matmul K block in groups of 4 (256: K up to 1024 in one block, "
           "a 64-column weight panel of at most 64 KiB read from L2, and no "
           "i32 partial sums; measured 2% faster than 128 on 1024^3); 0 "
           "disables K blocking">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::qnt_kernel::QntKernelDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def QntToArmNeon : Pass<"qnt-arm-neon", "func::FuncOp"> {
  let summary = "Data-tiled int8 contractions on AArch64 i8mm / dotprod / NEON";
  let description = [{
    Rewrites `qnt.int_matmul` (constant or run-time weights) and
    `qnt.int_conv2d` (constant filter, groups 1) into linalg.mmt4d's
    data-tiled form: activations packed at run time into
    `[Mp/M0][Kp/kStep][M0][kStep]` (a conv packs its im2col rows, K over
    (kh, kw, c)), weights into `[Np/N0][Kp/kStep][N0][kStep]` (at compile
    time when constant), and an M0 x N0 register tile looping over K: a
    12 x 8 tile of `arm_neon.intr.smmla` / `ummla` / `usmmla` (kStep 8)
    when the module's `llvm.target` has i8mm, else an 8 x 8 tile of `arm_neon.intr.sdot` by
    element (kStep 4) when it has dotprod, else (plain NEON) a 4 x 4 tile of
    `arm_neon.intr.smull` and `qnt_kernel.aarch64.saddlp` (kStep 16, one
    4-lane accumulator per output, summed across after the K loop). The i32
    result is the M x N corner of the padded tile grid.

    With i8mm every signedness pair has an instruction; sdot and smull
    multiply s8 x s8 only, so u8 activations are flipped (x ^ 0x80) and
    128 * sum_k w' joins the bias (constant weights only). Weight zero
    points are folded into constant weights; run-time weights must have
    none (qnt-symmetric-weights); an input zero point left on a run-time
    weight matmul costs one column-sum pass over W. Weights beyond
    the 8-bit range of the chosen operand, large splats and AArch64 targets
    without NEON are left to qnt-to-linalg. Without `llvm.target`, scheduling the
    pass claims i8mm. The pass only rewrites (`populateQntToArmNeonPatterns`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::arm_neon::ArmNeonDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::qnt_kernel::QntKernelDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def QntToRiscvV : Pass<"qnt-riscv-v", "func::FuncOp"> {
  let summary = "VLEN-agnostic int8 contractions on RISC-V V (vwmacc)";
  let description = [{
    Rewrites `qnt.int_matmul` (constant weights, or run-time weights without
    zero points) and `qnt.int_conv2d` (constant filter, groups 1) into a
    GEMM on scalable vectors: 3-row register tiles, columns in chunks of
    vscale x 16 i32 lanes (LMUL 8 at every VLEN; the last chunk masked), and
    an inner loop over K whose step per row is
    `acc += sext(x - zx) * sext(w')` on i16 operands, which the RISC-V
    backend selects as `vwmacc.vx` at SEW 16. Zero points are exact in 16
    bits, so constant weights are stored as `w - zw[n]` in i16 and no
    correction term is needed; a conv reads its input padded with
    `pad_value` (implicit GEMM, K = (kh, kw, c)). Runs when the module's
    `llvm.target` is RISC-V with V (without a target, scheduling the pass
    claims V). The pass only rewrites (`populateQntToRiscvVPatterns`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def QntToX86Amx : Pass<"qnt-x86-amx", "ModuleOp"> {
  let summary = "Lower eligible int8 matmuls to AMX-INT8 tile microkernels";
  let description = [{
    Runs before `qnt-x86-vnni` and `qnt-to-linalg` when the module's
    `llvm.target` has AMX-INT8 (`target=x86_64-amx`, or `target=host` on a
    machine with `amx_int8`; never decided from the host otherwise). A module
    without `llvm.target` is taken as the caller's claim that the target has
    AMX.

    Rewrites `qnt.int_matmul` (at least `min-rows` rows) and
    `qnt.int_conv2d` with `groups = 1` (an implicit GEMM whose rows are
    output pixels), with static shapes and compile-time constant weights
    whose `w' = w - weight_zero_points[n]` fit s8 or u8, into loops of
    upstream `amx` ops: `amx.tile_load`,
    `amx.tile_muli` (s8 or u8 activations times s8 or u8 weights, chosen by
    the `zext` flags: no flip), `amx.tile_store`. The input zero point
    folds into the bias, `b[n] - input_zero_point * sum_k w'[k, n]`; the
    accumulator tiles start from 16 copies of that row.

    Weights are packed at compile time into B tiles: tile (nt, kt) holds 16
    rows of 64 bytes, row r = the 4 reduction indices 64 kt + 4 r + q of the
    16 columns 16 nt + c, at byte 4 c + q (the VNNI layout), zero padded in
    K and N. The kernel keeps 2 x 2 accumulator tiles (32 x 32 outputs),
    with 2 A and 2 B tiles per K step: all 8 tile registers. M, N and K
    remainders run on padded buffers (activations padded with 0 to whole
    16 x 64 tiles when needed, the i32 result written to a padded buffer
    whose M x N corner is the result). A conv's A tile is 16 consecutive
    output pixels of one output row, read from the input padded with
    `pad_value` at a row stride of `stride_w * C` bytes; its K steps walk
    the contiguous runs of bytes of each filter row (W dilation 1) or tap.
    Matmul weights that are not constants (and have no zero point left)
    are packed into the same B-tile layout at run time (pad, expand,
    `linalg.transpose`, collapse), their column sums reduced at run time
    for the input zero point's correction.
    A `qnt.int_requantize` that is the contraction's only user (per tensor
    or per output channel) is fused into the epilogue: each block's i32
    rows are requantized on vectors right after the block's last K step,
    and the kernel stores the narrow codes.

    `amx` ops take memrefs, so the kernel is built on buffers from the start:
    `bufferization.to_buffer read_only` of its tensor operands, a
    `memref.alloc` result returned through `bufferization.to_tensor restrict
    writable`. One-shot bufferization replaces the casts by the operands'
    buffers. Tile values never cross a block boundary (the K loop is unrolled
    in chunks whose partial sums go through the result buffer): the LLVM
    conversion of `cf` branches does not know the tile type.

    Linux grants AMX tile data per process only after
    `arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)`: the pass adds to
    the module an internal constructor (`llvm.mlir.global_ctors`) that makes
    this system call when the code is loaded, so callers do nothing.
  }];
  let options = [
    Option<"minRows", "min-rows", "int64_t", /*default=*/"2",
           "Smallest M taken: a GEMV (M = 1) is bound by the weight bytes and "
           "stays with the VNNI kernel">
  ];
  let dependentDialects = ["::mlir::amx::AMXDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect"];
}

def TosaToQnt : Pass<"tosa-to-qnt", "func::FuncOp"> {
  let summary = "Convert quantized TOSA 1.0 ops into qnt and its integer IR";
  let description = [{
    Rewrites the quantized part of a TOSA 1.0 graph (signless integer
    tensors) into the `qnt` dialect so that `--qnt-to-llvm` compiles it with
    the project's kernels, bit-exact with upstream's `tosa-to-linalg`
    lowering (docs/TosaToQnt.md):

    * `tosa.conv2d`, `tosa.depthwise_conv2d`, `tosa.matmul` (i8 x i8 -> i32)
      become `qnt.conv2d` / `qnt.matmul` on `!quant.uniform` types of scale
      1.0 whose zero points are TOSA's, so that the zero-point folding and
      the target kernels apply; OHWI weights become HWCF (constant weights
      at compile time).
    * `tosa.rescale` becomes `qnt.int_requantize` with TOSA's multiplier and
      shift as given (`shifts = shift - 31`): SINGLE_ROUND is `single`,
      DOUBLE_ROUND `double`, INEXACT_ROUND `single` (one of the roundings
      TOSA allows it). `tosa.clamp` narrows the preceding requantize or
      becomes an exact identity requantize with bounds.
    * `tosa.add` of two rescales to i32 followed by a rescale becomes one
      `qnt.int_add` (TFLite's add structure).
    * `tosa.avg_pool2d` becomes `qnt.int_avg_pool2d` (exact for every count
      below 2^29 / max|q - zp|), `tosa.max_pool2d` `qnt.int_max_pool2d`.
    * `tosa.reshape`, `tosa.transpose`, `tosa.concat` and `tosa.const` on
      integer tensors become tensor / linalg / arith ops (constants are
      permuted at compile time).

    Whatever does not match stays TOSA, e.g. float ops, i48 rescales,
    non-constant multipliers or zero points, or shapes whose worst-case
    accumulator could leave i32; `--tosa-to-llvm` lowers it with upstream's
    TOSA passes in the same module.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect",
                           "::mlir::tensor::TensorDialect"];
}

#endif // QUANTOPT_CONVERSION_PASSES_TD
