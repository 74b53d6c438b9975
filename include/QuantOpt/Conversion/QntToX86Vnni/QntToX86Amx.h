//===- QntToX86Amx.h - int8 matmuls on AMX-INT8 tiles -----------*- C++ -*-===//
//
// The pass is declared in QuantOpt/Conversion/Passes.td (`qnt-x86-amx`);
// the tile plan and weight layout are in AmxPlanning.h.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86AMX_H
#define QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86AMX_H

#include <cstdint>

namespace mlir {
class ModuleOp;
class RewritePatternSet;

namespace qnt {

/// Rewrites `qnt.int_matmul` (at least `minRows` rows) and `qnt.int_conv2d`
/// (groups = 1) with static shapes and constant weights whose w - zw fit s8
/// or u8 into loops of `amx` tile ops on buffers. The caller checks that the
/// target has AMX-INT8 and calls `addAmxPermissionRequest` on the module once
/// kernels were emitted.
void populateQntToX86AmxPatterns(RewritePatternSet &patterns,
                                 int64_t minRows = 2);

/// Adds to `module`, once, an internal constructor that asks Linux for the
/// AMX tile data state (`arch_prctl(ARCH_REQ_XCOMP_PERM,
/// XFEATURE_XTILEDATA)`) when the code is loaded. Without it the first tile
/// instruction of the process dies with SIGILL.
void addAmxPermissionRequest(ModuleOp module);

/// The constructor's symbol.
inline constexpr const char *kAmxPermissionFunction =
    "__qnt_amx_request_tile_data";

} // namespace qnt
} // namespace mlir

#endif // QUANTOPT_CONVERSION_QNTTOX86VNNI_QNTTOX86AMX_H
