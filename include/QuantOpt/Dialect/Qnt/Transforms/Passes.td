//===- Passes.td - qnt transformation passes ---------------*- tablegen -*-===//
//
// The integer-only pipeline of Jacob et al. (CVPR 2018), one concept per
// pass. They run in this order and leave explicit integer IR
// (docs/IntegerIR.md) for the lowering.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD
#define QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def QntFoldZeroPoints : Pass<"qnt-fold-zero-points", "func::FuncOp"> {
  let summary = "Fold the input zero point into the int32 bias at compile time";
  let description = [{
    Rewrites `qnt.matmul` / `qnt.conv2d` into `qnt.int_matmul` /
    `qnt.int_conv2d` on raw codes. With constant weights the input zero
    point term is computed offline and folded into one int32 bias per output
    channel: `q_bias = q_b - Z_X * sum_k q_W (+ K * Z_X * Z_W[n])`; for conv2d
    the sum runs over KH x KW x C/groups of each filter. Padding keeps
    holding `Z_X` (`pad_value`), so the fold is exact at every output
    position. With non-constant weights the input zero point stays on the op
    (a runtime correction), unless `require-constant-weights` is set, which
    makes it an error.

    Operands and result go through `quant.scast` (signless storage integers,
    i8 for u8 too; `x_unsigned` / `w_unsigned` carry the signedness), so the
    following `qnt.requantize` still sees the accumulator's quant type. The
    sums are exact (int64); a folded bias outside i32 is reported, never
    wrapped. A `qnt.quantize` of a constant feeding the weights is folded by
    the pass itself, so `-canonicalize` need not run first. A bias that is
    not constant gets the correction with `arith.addi` on tensors (the
    lowering must handle elementwise arith on tensors).

    Before (Z_X = -10, q_W = [50, -30, 20], q_b = 540):
    ```mlir
    %a = qnt.matmul %x, %w, %b : tensor<1x3x!X>, tensor<3x1x!W>, tensor<1x!A> -> tensor<1x1x!A>
    ```
    After (540 - (-10) * (50 - 30 + 20) = 940):
    ```mlir
    %xi = quant.scast %x : tensor<1x3x!X> to tensor<1x3xi8>
    %wi = quant.scast %w : tensor<3x1x!W> to tensor<3x1xi8>
    %b2 = arith.constant dense<940> : tensor<1xi32>
    %ai = qnt.int_matmul %xi, %wi, %b2 {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
          : tensor<1x3xi8>, tensor<3x1xi8>, tensor<1xi32> -> tensor<1x1xi32>
    %a = quant.scast %ai : tensor<1x1xi32> to tensor<1x1x!A>
    ```
  }];
  let options = [
    Option<"requireConstantWeights", "require-constant-weights", "bool",
           /*default=*/"false",
           "Report an error instead of keeping a runtime correction when the "
           "weights are not a compile-time constant">
  ];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntSymmetricWeights : Pass<"qnt-symmetric-weights", "func::FuncOp"> {
  let summary = "Drop the Z_W terms, or emit the one runtime reduction they need";
  let description = [{
    On `qnt.int_matmul` / `qnt.int_conv2d`: when every weight zero point is
    0 the `Z_W * sum(q_X)` and `K * Z_X * Z_W` terms vanish and nothing is
    emitted. Otherwise exactly one runtime reduction over the input remains
    (row sums for matmul, window sums over the padded input for conv), and
    `Z_W[n] * sum` is subtracted from the accumulator, after which the op's
    weight zero points are 0.

    The reduction is the same integer op with all-ones i8 weights (K x 1 for
    matmul; KH x KW x C/groups x groups with the same groups for conv), so it
    shares the padding, `pad_value`, strides, dilations and input zero point
    exactly. The subtraction is a `linalg.generic` whose operand maps are
    broadcasts (grouped convolutions split F into groups x F/groups with
    `tensor.expand_shape`). The arithmetic is i32 and may wrap in between;
    the result is exact because the final accumulator is in i32 range and
    the integer ops accumulate modulo 2^32.

    Before:
    ```mlir
    %a = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 128>, w_unsigned}
         : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
    ```
    After:
    ```mlir
    %ones = arith.constant dense<1> : tensor<3x1xi8>
    %zero = arith.constant dense<0> : tensor<1xi32>
    %r = qnt.int_matmul %x, %ones, %zero {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>}
         : tensor<2x3xi8>, tensor<3x1xi8>, tensor<1xi32> -> tensor<2x1xi32>
    %s = qnt.int_matmul %x, %w, %b {input_zero_point = 0 : i32, weight_zero_points = array<i32: 0>, w_unsigned}
         : tensor<2x3xi8>, tensor<3x4xi8>, tensor<4xi32> -> tensor<2x4xi32>
    %rv = tensor.collapse_shape %r [[0, 1]] : tensor<2x1xi32> into tensor<2xi32>
    %zw = arith.constant dense<128> : tensor<4xi32>
    %a = linalg.generic {indexing_maps = [affine_map<(m, n) -> (m)>, affine_map<(m, n) -> (n)>,
                                          affine_map<(m, n) -> (m, n)>],
                         iterator_types = ["parallel", "parallel"]}
        ins(%rv, %zw : tensor<2xi32>, tensor<4xi32>) outs(%s : tensor<2x4xi32>) {
    ^bb0(%ri: i32, %z: i32, %acc: i32):
      %p = arith.muli %z, %ri : i32
      %d = arith.subi %acc, %p : i32
      linalg.yield %d : i32
    } -> tensor<2x4xi32>
    ```
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntFixedPointMultiplier : Pass<"qnt-fixed-point-multiplier",
                                   "func::FuncOp"> {
  let summary = "Turn M = S_in / S_out into a Q31 multiplier and a shift";
  let description = [{
    Rewrites each `qnt.requantize` into `qnt.int_requantize` with explicit
    Q31 `multipliers` (M0) and right `shifts` (n; negative for M >= 1), per
    channel where either side is per axis, computed by the reference model's
    `quantizeMultiplier` (TFLite's rule: M0 in [2^30, 2^31), the 2^31 case
    halved, M < 2^-32 flushed to 0, shifts clamped at -30). The rounding mode
    and the clamp bounds become attributes. Mode `float` reads the f32
    multipliers `f32(S_in) / f32(S_out)` instead; both arrays are always
    filled. `min` / `max` are the output storage range narrowed by `clamp`;
    `input_unsigned` / `output_unsigned` come from the types. `axis` is the
    per-axis dimension of whichever side is per axis, -1 if neither.

    Before:
    ```mlir
    %y = qnt.requantize %a : tensor<2x2x!quant.uniform<i32:f32, 0.0072>> -> tensor<2x2x!quant.uniform<i8:f32, 1.0>>
    ```
    After (0.0072 = 0.9216 * 2^-7, round(0.9216 * 2^31) = 1979120930):
    ```mlir
    %ai = quant.scast %a : tensor<2x2x!quant.uniform<i32:f32, 0.0072>> to tensor<2x2xi32>
    %yi = qnt.int_requantize %ai {float_multipliers = array<f32: 7.200000e-03>,
            input_zero_points = array<i32: 0>, max = 127 : i32, min = -128 : i32,
            multipliers = array<i32: 1979120930>, output_zero_points = array<i32: 0>,
            rounding = "double", shifts = array<i32: 7>} : tensor<2x2xi32> -> tensor<2x2xi8>
    %y = quant.scast %yi : tensor<2x2xi8> to tensor<2x2x!quant.uniform<i8:f32, 1.0>>
    ```
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect"];
}

def QntStripQuantTypes : Pass<"qnt-strip-quant-types", "ModuleOp"> {
  let summary = "Replace !quant.uniform types by their storage integers";
  let description = [{
    The last step into explicit integer IR: `qnt.quantize` /
    `qnt.dequantize` become `qnt.int_quantize` / `qnt.int_dequantize` with
    scales and zero points as attributes, `qnt.constant` becomes
    `arith.constant`, `quant.scast` disappears, and function signatures use
    signless storage integers (i8 for u8 too; signedness lives on the ops).
    Fails with a diagnostic if a public qnt op is still present.

    The types of calls, returns, block arguments, `scf` control flow,
    `linalg.transpose` / `linalg.broadcast` / `linalg.fill`, `tensor.pad`
    (which keeps padding with the code its region yields) and any other
    region-free op (e.g. `tensor.collapse_shape`) are converted too; other
    ops with regions on quantized values, and `quant.qcast` /
    `quant.dcast`, are reported. Raw unsigned integer codes (`ui8`) become
    signless as well, so `tensor.bitcast` between `ui8` and `i8` is the
    identity.
    Function arguments and results that held unsigned codes get the unit
    attribute `qnt.unsigned`, so callers through the C interface know that
    the i8 bits are u8 codes.

    Before:
    ```mlir
    func.func @f(%x: tensor<2xf32>) -> tensor<2x!quant.uniform<u8:f32, 0.25:128>> {
      %q = qnt.quantize %x : tensor<2xf32> -> tensor<2x!quant.uniform<u8:f32, 0.25:128>>
      return %q : tensor<2x!quant.uniform<u8:f32, 0.25:128>>
    }
    ```
    After:
    ```mlir
    func.func @f(%x: tensor<2xf32>) -> (tensor<2xi8> {qnt.unsigned}) {
      %q = qnt.int_quantize %x {max = 255 : i32, min = 0 : i32, output_unsigned,
             scales = array<f32: 2.500000e-01>, zero_points = array<i32: 128>}
           : tensor<2xf32> -> tensor<2xi8>
      return %q : tensor<2xi8>
    }
    ```
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::func::FuncDialect"];
}

def QntEraseEmptyResults : Pass<"qnt-erase-empty-results", "func::FuncOp"> {
  let summary = "Replace qnt ops whose results hold no element by tensor.empty";
  let description = [{
    A tensor with a zero-sized dimension holds no value, so a `qnt` op whose
    results all have zero elements computes nothing: it becomes a
    `tensor.empty` of its result type. Runs first in `--qnt-to-llvm`, so no
    later rewrite has to reason about empty shapes (the lowering's slices
    into an empty buffer would be out of bounds), and constant operands of
    an empty op (an empty splat bias, say) are never read.

    ```mlir
    %c = qnt.concat %a, %b {axis = 1 : i64}
         : tensor<0x2x!Q>, tensor<0x1x!Q> -> tensor<0x3x!Q>
    // becomes
    %c = tensor.empty() : tensor<0x3x!Q>
    ```
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def QntSplitSharedEmptyTensors
    : Pass<"qnt-split-shared-empty-tensors", "func::FuncOp"> {
  let summary = "Give every use of a tensor.empty its own op";
  let description = [{
    CSE merges identical `tensor.empty` ops, so after the kernel rewrites
    one empty tensor can be the destination of every layer of a network.
    One-shot bufferization then sees a single alias set spanning all layers
    and its conflict analysis grows quadratically with their number (100
    conv layers spent 65% of `--qnt-to-llvm` there), for nothing: an empty
    tensor has no contents to preserve. This pass, run right before
    bufferization, clones the op for each further use at the same place, so
    the analysis stays per layer and compile time linear.

    ```mlir
    %e = tensor.empty() : tensor<4xi32>
    %a = linalg.fill ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    %b = linalg.fill ins(%c1 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    // becomes
    %e = tensor.empty() : tensor<4xi32>
    %e_0 = tensor.empty() : tensor<4xi32>
    %a = linalg.fill ins(%c0 : i32) outs(%e : tensor<4xi32>) -> tensor<4xi32>
    %b = linalg.fill ins(%c1 : i32) outs(%e_0 : tensor<4xi32>) -> tensor<4xi32>
    ```
  }];
}

def QntNumberConstantGlobals
    : Pass<"qnt-number-constant-globals", "ModuleOp"> {
  let summary = "Name and place bufferization's constant globals by first use";
  let description = [{
    One-shot bufferization turns each constant tensor into a private
    `memref.global` named `__constant_<shape>`, with a `_<N>` suffix where
    names collide. It bufferizes the functions of a module in the order of a
    hash map keyed by their addresses, so which constant gets which suffix,
    and where each global sits in the module, changes from run to run: two
    compilations of the same input printed different modules. This pass,
    run right after bufferization, makes the output a function of the input
    alone: the `__constant_` globals move to the start of the module in the
    order of their first `memref.get_global` in a walk of the module, and
    are named `__constant_<shape>`, `__constant_<shape>_1`, ... in that
    order (skipping names other symbols hold). Constant globals nothing
    reads are erased; one that an op other than `memref.get_global`
    references is left as it is.

    ```mlir
    memref.global "private" constant @__constant_4xi32_0 : memref<4xi32> = dense<1>
    memref.global "private" constant @__constant_4xi32 : memref<4xi32> = dense<2>
    func.func @f() {
      %a = memref.get_global @__constant_4xi32 : memref<4xi32>
      %b = memref.get_global @__constant_4xi32_0 : memref<4xi32>
      ...
    // becomes (dense<2> is read first)
    memref.global "private" constant @__constant_4xi32 : memref<4xi32> = dense<2>
    memref.global "private" constant @__constant_4xi32_1 : memref<4xi32> = dense<1>
    func.func @f() {
      %a = memref.get_global @__constant_4xi32 : memref<4xi32>
      %b = memref.get_global @__constant_4xi32_1 : memref<4xi32>
    ```
  }];
}

def QntNetworkToInteger : Pass<"qnt-network-to-integer", "func::FuncOp"> {
  let summary = "Rewrite add, pooling and concat into explicit integer IR";
  let description = [{
    Runs before `qnt-fixed-point-multiplier` (docs/NetworkOps.md):

    - `qnt.add` becomes `qnt.int_add` with TFLite's integer add parameters
      computed in double from the scales as the types hold them:
      `left_shift` = 20 (8-bit result) or 15 (16-bit), `twice_max =
      2 max(S_a, S_b)`, `M_a = S_a / twice_max`, `M_b = S_b / twice_max`,
      `M_out = twice_max / (2^left_shift S_y)`, each turned into a Q31
      multiplier and right shift by the reference model's
      `quantizeMultiplier`; the f32 ratios `f32(S_a) / f32(S_y)` and
      `f32(S_b) / f32(S_y)` of mode `float` are filled in too.
    - `qnt.max_pool2d` / `qnt.avg_pool2d` become `qnt.int_max_pool2d` /
      `qnt.int_avg_pool2d` (zero points per channel, storage range).
    - `qnt.concat` becomes a `qnt.requantize` of each operand whose scale or
      zero point differs from the result's, then upstream `tensor.concat` on
      the (now equal) quantized types.

    Before (S_a = 0.5, S_b = 0.25, S_y = 1, 8-bit result):
    ```mlir
    %y = qnt.add %a, %b : tensor<4x!A>, tensor<4x!B> -> tensor<4x!Y>
    ```
    After (twice_max = 1: M_a = 0.5 = 2^30 * 2^-31, M_b = 0.25 = 2^30 *
    2^-31 * 2^-1, M_out = 2^-20 = 2^30 * 2^-31 * 2^-19):
    ```mlir
    %ai = quant.scast %a : tensor<4x!A> to tensor<4xi8>
    %bi = quant.scast %b : tensor<4x!B> to tensor<4xi8>
    %yi = qnt.int_add %ai, %bi {a_multiplier = 1073741824 : i32, a_shift = 0 : i32, ...,
            left_shift = 20 : i32, output_multiplier = 1073741824 : i32, output_shift = 19 : i32, ...}
          : tensor<4xi8>, tensor<4xi8> -> tensor<4xi8>
    %y = quant.scast %yi : tensor<4xi8> to tensor<4x!Y>
    ```
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::quant::QuantDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntVerifyPerAxisShapes : Pass<"qnt-verify-per-axis-shapes", "ModuleOp"> {
  let summary = "Reject shape ops that move the quantized axis of a per-axis type";
  let description = [{
    Upstream shape ops (`tensor.collapse_shape`, `tensor.expand_shape`,
    `tensor.reshape`, `tensor.extract_slice`, `linalg.transpose`) require
    equal element types on both sides, so a per-axis type keeps its axis
    *number* while the dimensions move under it. The pipeline runs this
    check first and reports every shape op after which the per-axis
    dimension would no longer be the same dimension of the same size: a
    collapse, expand or reshape that merges or splits it with dimensions of
    size > 1 or shifts its index (a `tensor.reshape` needs static shapes to
    show where it goes), a slice that cuts it or drops a dimension before
    it, a transpose that moves it. It also reports, once, any other op with
    an operand or result whose per-axis type names a dimension the shape
    does not have, or one whose size differs from the number of scales
    (`tensor.concat`, `tensor.pad` or `tensor.insert_slice` along the axis).
    Shapes ops on per-tensor types, and those that keep the axis in place,
    pass unchanged.

    Rejected (axis 3 becomes part of dimension 1):
    ```mlir
    %y = tensor.collapse_shape %x [[0], [1, 2, 3]]
         : tensor<1x2x2x4x!quant.uniform<i8:f32:3, {...}>> into tensor<1x16x!quant.uniform<i8:f32:3, {...}>>
    ```
  }];
  let dependentDialects = ["::mlir::quant::QuantDialect"];
}

def QntDecomposeFloatIslands : Pass<"qnt-decompose-float-islands",
                                    "func::FuncOp"> {
  let summary = "Decompose aggregated linalg ops (linalg.softmax) on tensors";
  let description = [{
    Float islands between `qnt.dequantize` and `qnt.quantize` may use
    `linalg.softmax`, which has no loop lowering: this pass replaces it (and
    any other op of the `linalg::AggregatedOpInterface`) by its
    decomposition into `linalg.generic` / `linalg.fill` on tensors
    (max-reduce, `exp(x - max)`, sum, divide), before bufferization.
    Math functions are left to the LLVM conversion: `math-to-llvm`, then
    `math-to-libm` for those without an LLVM intrinsic (`math.erf` becomes
    a call to `erff`), so every target resolves them from libm.
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect",
                           "::mlir::tensor::TensorDialect"];
}

def QntDeallocAfterLastUse
    : Pass<"qnt-dealloc-after-last-use", "func::FuncOp"> {
  let summary = "Free each buffer right after its last use";
  let description = [{
    Ownership-based deallocation frees every buffer of a block at the end of
    the block, so all the intermediate buffers of a network's function were
    alive at once: its peak memory was the sum of its layers' buffers
    rather than the largest set alive together, and the code generator,
    which keeps each of their pointers until the end, took time
    superlinear in the number of layers. This pass, run after the
    deallocations are lowered, moves each `memref.dealloc %m` of a
    `memref.alloc` of the same block up to right after the last op of the
    block that uses `%m` or anything derived from it.

    Derived from `%m` is every result of an op that takes `%m` or a derived
    value (views, casts, `extract_strided_metadata`, the pointer as an
    index, and conservatively anything else), and every block argument of a
    region of such an op. A dealloc stays where it is when a derived value
    leaves the analysis: it is stored to memory as data, passed to a call
    or an LLVM dialect op, used by the block's terminator, or used outside
    the block; or when another dealloc frees a derived value.

    ```mlir
    %a = memref.alloc() : memref<8xi8>
    scf.for ... { memref.store %v, %a[%i] : memref<8xi8> }
    scf.for ... { ... memref.load %a[%i] ... }
    %b = memref.alloc() : memref<8xi8>
    ...
    memref.dealloc %a : memref<8xi8>
    // becomes
    %a = memref.alloc() : memref<8xi8>
    scf.for ... { memref.store %v, %a[%i] : memref<8xi8> }
    scf.for ... { ... memref.load %a[%i] ... }
    memref.dealloc %a : memref<8xi8>
    %b = memref.alloc() : memref<8xi8>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def QntSplitLargeDeallocs : Pass<"qnt-split-large-deallocs", "func::FuncOp"> {
  let summary = "Split bufferization.dealloc ops of many fresh allocations "
                "into small ones";
  let description = [{
    Ownership-based deallocation frees every buffer of a block in one
    `bufferization.dealloc` at its end, and
    `buffer-deallocation-simplification` asks, for each pair of its memrefs,
    whether they may alias: quadratic in the number of buffers (a function
    of 2000 quantize / dequantize pairs, 4000 buffers, spent 4 s there).

    When every memref of a dealloc is the result of its own `memref.alloc`
    (fresh buffers never alias each other), it is split into deallocs of at
    most `chunk` memrefs, each with the same retained list, and each
    retained value's updated condition is the `arith.ori` of the pieces'
    (as the op's description prescribes for such a split). The
    simplification then compares memrefs within a piece only. Deallocs with
    any other memref (an argument, a view, a block argument) are left as
    they are.

    ```mlir
    %0 = bufferization.dealloc (%a, %b, %c : ...) if (%t, %t, %t) retain (%r : ...)
    // with chunk = 2 becomes
    %1 = bufferization.dealloc (%a, %b : ...) if (%t, %t) retain (%r : ...)
    %2 = bufferization.dealloc (%c : ...) if (%t) retain (%r : ...)
    %0 = arith.ori %1, %2 : i1
    ```
  }];
  let options = [
    Option<"chunk", "chunk", "int64_t", /*default=*/"32",
           "Most memrefs per dealloc">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect"];
}

def QntSplitBlocksAtRegions
    : Pass<"qnt-split-blocks-at-regions", "func::FuncOp"> {
  let summary = "Give each top-level region op of a function its own block";
  let description = [{
    `convert-scf-to-cf` lowers a loop by splitting its block after it: every
    op that follows moves to a new block, one parent update per op. In a
    function of n loops in one block, lowered first to last, that is
    quadratic (2000 quantize / dequantize pairs spent 5 s there). This pass,
    run right before it, splits each block at its ops with regions, last
    first, so that each split moves only the ops up to the next one, and
    chains the pieces with `cf.br`: the same code in straight-line blocks,
    and each later split in the conversion moves a handful of ops.

    ```mlir
    func.func @f() {
      scf.for ... { ... }
      %x = arith.addi ...
      scf.for ... { ... }
      return
    }
    // becomes
    func.func @f() {
      cf.br ^bb1
    ^bb1:
      scf.for ... { ... }
      %x = arith.addi ...
      cf.br ^bb2
    ^bb2:
      scf.for ... { ... }
      return
    }
    ```
  }];
  let dependentDialects = ["::mlir::cf::ControlFlowDialect"];
}

def QntNontemporalStores : Pass<"qnt-nontemporal-stores", "func::FuncOp"> {
  let summary = "Write large elementwise outputs with non-temporal vector "
                "stores";
  let description = [{
    An elementwise `linalg.generic` on buffers whose output is larger than
    the last-level cache gains nothing from keeping that output in the
    cache: ordinary stores first read every output line (write-allocate)
    and then evict it again. Non-temporal stores write whole lines to
    memory without reading them (docs/RuntimeScales.md: the per-row
    dequantization beyond L3 went from the speed of a C loop to 1.6x it).

    The pass rewrites such an op into loops whose innermost one steps over
    64 bytes of output: each input is read as a vector (or, when the
    innermost dimension does not index it, as a scalar broadcast, e.g. a
    per-row scale), the body's ops are applied to vectors one by one, the
    same ops in the same order (the same bits as the scalar loop), and the
    result is written by `vector.store {nontemporal = true, alignment =
    64}`. On x86 an `sfence` follows the loops, so the stores are ordered
    before anything after the op, as ordinary stores are.

    An op is rewritten only when all of this holds (otherwise it is left to
    the usual lowering): every iterator parallel, no `linalg.index`, one
    output, written through the identity map and never read by the body;
    the output a `memref.alloc` aligned to at least 64 bytes, static,
    contiguous, of at least `min-bytes` bytes, its innermost dimension a
    multiple of 64 bytes (so every vector store is aligned); inputs
    contiguous, indexed by dimensions or the constant 0, the innermost
    dimension only as their last index; body ops `arith.constant` or
    elementwise and free of memory effects, on scalar integers or floats.
    The module must name its target (`llvm.target`, as `--qnt-to-llvm`
    attaches it); without one nothing is rewritten.

    The loops over the leading dimensions get `qnt.parallel_tiles`, like
    `qnt-linalg-to-tile-loops`' loops, so `qnt-parallelize-tiles` may share
    them among threads.

    `--qnt-to-llvm` runs this pass when its `nontemporal-min-bytes` option
    gives a threshold: by default the last-level cache of the machine, for
    `target=host` on x86-64 only (the named targets do not say how large
    the cache of the machine that will run the code is).

    Before (`min-bytes=0`):
    ```mlir
    linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = [...]}
        ins(%q, %scale : memref<4x32xi8>, memref<4x1xf32>)
        outs(%alloc : memref<4x32xf32>) {
    ^bb0(%in: i8, %s: f32, %out: f32):
      %f = arith.sitofp %in : i8 to f32
      %y = arith.mulf %f, %s : f32
      linalg.yield %y : f32
    }
    ```
    After:
    ```mlir
    scf.for %i = %c0 to %c4 step %c1 {
      scf.for %j = %c0 to %c32 step %c16 {
        %v = vector.load %q[%i, %j] : memref<4x32xi8>, vector<16xi8>
        %s = memref.load %scale[%i, %c0] : memref<4x1xf32>
        %sv = vector.broadcast %s : f32 to vector<16xf32>
        %f = arith.sitofp %v : vector<16xi8> to vector<16xf32>
        %y = arith.mulf %f, %sv : vector<16xf32>
        vector.store %y, %alloc[%i, %j] {alignment = 64 : i64, nontemporal = true}
            : memref<4x32xf32>, vector<16xf32>
      }
    } {qnt.parallel_tiles}
    llvm.call_intrinsic "llvm.x86.sse.sfence"() : () -> ()
    ```
  }];
  let options = [
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"0",
           "Rewrite only ops whose output holds at least this many bytes">,
  ];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::LLVM::LLVMDialect"];
}

def QntLinalgToTileLoops : Pass<"qnt-linalg-to-tile-loops", "func::FuncOp"> {
  let summary = "Lower linalg ops on buffers to scf.for loops, marking the "
                "loops of their leading parallel dimensions";
  let description = [{
    Lowers every linalg op on buffers with upstream's `linalgOpToLoops`
    (as `convert-linalg-to-loops` does: one `scf.for` per dimension of the
    iteration domain, outermost first) and marks the loops of the leading
    `parallel` dimensions with `qnt.parallel_tiles`: their iterations write
    disjoint parts of the op's outputs, so `qnt-parallelize-tiles` may run
    them on several threads. Loops of `reduction` dimensions, and every loop
    inside one, are never marked: a reduction is never split. Ops on tensors
    are left alone.

    Before:
    ```mlir
    linalg.generic {indexing_maps = [#id, #id],
                    iterator_types = ["parallel", "parallel"]}
        ins(%a : memref<64x64xi8>) outs(%b : memref<64x64xi8>) { ... }
    ```
    After:
    ```mlir
    scf.for %i = %c0 to %c64 step %c1 {
      scf.for %j = %c0 to %c64 step %c1 { ... } {qnt.parallel_tiles}
    } {qnt.parallel_tiles}
    ```
  }];
  let dependentDialects = ["::mlir::qnt::QntDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::affine::AffineDialect"];
}

def QntParallelizeTiles : Pass<"qnt-parallelize-tiles", "func::FuncOp"> {
  let summary = "Turn scf.for loops marked qnt.parallel_tiles into "
                "scf.parallel";
  let description = [{
    Kernel emitters mark the `scf.for` loops that run over output tiles with
    the discardable unit attribute `qnt.parallel_tiles` (the VNNI
    microkernels' column-tile, output-row and pixel-tile loops,
    `qnt-linalg-to-tile-loops` for linalg ops): their iterations write
    disjoint parts of the result and read nothing another iteration writes.
    This pass picks, in every nest of marked loops, one loop to run in
    parallel and rewrites it as a one-dimensional `scf.parallel` with the
    same bounds, which upstream's `convert-scf-to-openmp` then turns into an
    OpenMP work-sharing loop. Each iteration computes exactly what it
    computed serially (no reduction is split), so results are bit-identical
    at every thread count.

    The choice, from the outermost marked loop of a nest inward: the first
    marked loop with at least `min-trips` iterations (so that the threads
    get balanced shares); when no loop inside qualifies, the outermost loop
    of two iterations or more. A loop is only parallelized when one run of
    it executes at least `min-work` units of work (an estimate: a scalar op
    counts one, a vector op its number of 32-bit words (four per word for
    a `qnt_kernel` dot-product step, an AMX tile multiply 4096), nested loops
    multiply by their trip counts, an `scf.if` takes its larger branch;
    loops of unknown trip count count 1024); smaller loops stay
    serial, where forking would cost more than it saves
    (docs/Parallelism.md has the measurement behind the default), unless
    they write a buffer that a parallelized loop running later reads or
    writes (a conv's padded input, run-time packed weights, a pool's initial
    fill): such a loop runs in parallel too, so that each thread writes most
    of the lines it later uses instead of pulling them from the one core
    that wrote them. Nested marked loops of a parallelized loop stay serial.

    Only loops on buffers qualify: every loop-carried value must be yielded
    unchanged (what bufferization leaves of the kernels' tensor iter_args);
    other marked loops are left serial. Marked loops already inside an
    `scf.parallel` or an OpenMP region are left alone.
  }];
  let options = [
    Option<"minTrips", "min-trips", "int64_t", /*default=*/"8",
           "Iterations a marked loop needs to be chosen before the loops "
           "nested in it">,
    Option<"minWork", "min-work", "int64_t", /*default=*/"1048576",
           "Estimated operations below which a loop stays serial">,
    Option<"report", "report", "bool", /*default=*/"false",
           "Emit a remark for every marked loop considered: trips, estimated "
           "work and the decision">
  ];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

#endif // QUANTOPT_DIALECT_QNT_TRANSFORMS_PASSES_TD
