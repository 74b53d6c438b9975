# One precompiled header for the compiler libraries: the MLIR and LLVM
# headers they share. Parsing those headers is most of each translation
# unit's compile time (about 19 of 25 s for QntToLinalg.cpp), so building
# them once halves the build, which runs twice in CI (plain and ASan).
#
# Only project headers that never change during a build go in: upstream MLIR
# and LLVM. Our own headers stay out, so editing them does not rebuild the
# precompiled header. Turn it off with -DQUANT_OPT_USE_PCH=OFF to check that
# every file includes what it uses.
option(QUANT_OPT_USE_PCH
  "Precompile the upstream MLIR/LLVM headers the compiler libraries share" ON)

set(QUANT_OPT_PCH_HEADERS
  <llvm/ADT/DenseMap.h>
  <llvm/ADT/STLExtras.h>
  <llvm/ADT/SmallVector.h>
  <llvm/ADT/StringExtras.h>
  <llvm/Support/MathExtras.h>
  <llvm/TargetParser/Triple.h>
  <mlir/Dialect/Arith/IR/Arith.h>
  <mlir/Dialect/Func/IR/FuncOps.h>
  <mlir/Dialect/LLVMIR/LLVMDialect.h>
  <mlir/Dialect/Linalg/IR/Linalg.h>
  <mlir/Dialect/Math/IR/Math.h>
  <mlir/Dialect/MemRef/IR/MemRef.h>
  <mlir/Dialect/Quant/IR/Quant.h>
  <mlir/Dialect/Quant/IR/QuantTypes.h>
  <mlir/Dialect/SCF/IR/SCF.h>
  <mlir/Dialect/Tensor/IR/Tensor.h>
  <mlir/Dialect/Vector/IR/VectorOps.h>
  <mlir/IR/Builders.h>
  <mlir/IR/BuiltinOps.h>
  <mlir/IR/Matchers.h>
  <mlir/IR/PatternMatch.h>
  <mlir/Pass/Pass.h>
  <mlir/Pass/PassManager.h>
  <mlir/Transforms/DialectConversion.h>
  <mlir/Transforms/GreedyPatternRewriteDriver.h>
  )

# Collects the targets defined in DIR and its subdirectories into OUT.
function(quant_opt_collect_targets dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(subdir IN LISTS subdirs)
    quant_opt_collect_targets("${subdir}" sub)
    list(APPEND targets ${sub})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# Gives every static library under DIR that links MLIR the shared
# precompiled header. Libraries of plain C++ (the reference model, the
# planning code, the target table) and the executables (compiled -fPIE, which
# a -fPIC header cannot serve) keep their own includes only.
function(quant_opt_use_precompiled_headers dir)
  if(NOT QUANT_OPT_USE_PCH)
    return()
  endif()
  add_library(QuantOptPCH OBJECT "${QUANT_OPT_SOURCE_DIR}/cmake/QuantOptPCH.cpp")
  target_precompile_headers(QuantOptPCH PRIVATE ${QUANT_OPT_PCH_HEADERS})
  quant_opt_collect_targets("${dir}" targets)
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    get_target_property(links ${target} LINK_LIBRARIES)
    if(type STREQUAL "STATIC_LIBRARY" AND "MLIR" IN_LIST links)
      target_precompile_headers(${target} REUSE_FROM QuantOptPCH)
    endif()
  endforeach()
endfunction()
