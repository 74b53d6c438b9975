//===- PipelineInput.h - what --qnt-to-llvm accepts as input ----*- C++ -*-===//
//
// Internal to the pipelines: checks, before anything is lowered, the input
// properties that later passes take for granted.
//
//===----------------------------------------------------------------------===//

#ifndef LIB_PIPELINES_PIPELINEINPUT_H
#define LIB_PIPELINES_PIPELINEINPUT_H

#include "mlir/Dialect/LLVMIR/LLVMAttrs.h"
#include "mlir/IR/BuiltinOps.h"

namespace quantopt {

/// Reports, with a diagnostic naming the rule, an input to the qnt-to-llvm
/// pipeline (lowering for `target`) that it would otherwise miscompile:
/// - a nested builtin.module (it would pass through unlowered);
/// - a TOSA op (--tosa-to-llvm's input; nothing here lowers it);
/// - a func.func named like a C runtime symbol the lowered code calls
///   (malloc, free, the C math library, __kmpc_*, ...): the call would
///   reach the user's function, or be renamed away from the library;
/// - code already lowered for another target (its kernels' intrinsics
///   would reach the wrong back end);
/// - regions nested more than 1000 deep;
/// - a qnt op at the module's top level, outside any function;
/// - a contraction with more than 2^30 output channels (its int32 bias
///   would not fit a global);
/// - a quantized type other than !quant.uniform per tensor or per axis
///   (calibrated, any, sub-channel);
/// - a value of rank above 32, or of a static shape whose bytes int64
///   cannot count (the buffer size would wrap in the allocation);
/// - a quantized block argument of a non-entry block (unstructured control
///   flow carrying a quantized value);
/// - tensor.gather / tensor.scatter, linalg.pack / linalg.unpack on tensors
///   and affine.for carrying tensors, which nothing bufferizes;
/// - a dense_resource constant without its blob, or with a blob of
///   another size than its type's (verifyResourceConstants).
mlir::LogicalResult verifyQntToLLVMInput(mlir::ModuleOp module,
                                         mlir::LLVM::TargetAttr target);

/// Reports a `dense_resource` attribute whose blob is missing or does not
/// hold exactly its type's bytes (part of verifyQntToLLVMInput; the TOSA
/// pipeline checks it before upstream's passes read such constants).
mlir::LogicalResult verifyResourceConstants(mlir::ModuleOp module);

} // namespace quantopt

#endif // LIB_PIPELINES_PIPELINEINPUT_H
