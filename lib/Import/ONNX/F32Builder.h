//===- F32Builder.h - f32 arithmetic in a linalg body -----------*- C++ -*-===//
//
// Scalar f32 arithmetic for the bodies of the importer's linalg.generic ops
// that compute coordinates and weights (GridSample, RoiAlign): each call is
// one arith / math op, so the IR keeps the order the C++ kernels compute in.
//
//===----------------------------------------------------------------------===//

#ifndef QUANTOPT_LIB_IMPORT_ONNX_F32BUILDER_H
#define QUANTOPT_LIB_IMPORT_ONNX_F32BUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Builders.h"

namespace quantopt::onnx_import::detail {

/// f32 arithmetic in a linalg body.
struct F32Builder {
  mlir::OpBuilder &b;
  mlir::Location l;

  mlir::Value c(double v) {
    return mlir::arith::ConstantOp::create(b, l, b.getF32FloatAttr(float(v)));
  }
  mlir::Value add(mlir::Value x, mlir::Value y) {
    return mlir::arith::AddFOp::create(b, l, x, y);
  }
  mlir::Value sub(mlir::Value x, mlir::Value y) {
    return mlir::arith::SubFOp::create(b, l, x, y);
  }
  mlir::Value mul(mlir::Value x, mlir::Value y) {
    return mlir::arith::MulFOp::create(b, l, x, y);
  }
  mlir::Value div(mlir::Value x, mlir::Value y) {
    return mlir::arith::DivFOp::create(b, l, x, y);
  }
  mlir::Value floor(mlir::Value x) {
    return mlir::math::FloorOp::create(b, l, x);
  }
  mlir::Value cmp(mlir::arith::CmpFPredicate p, mlir::Value x, mlir::Value y) {
    return mlir::arith::CmpFOp::create(b, l, p, x, y);
  }
  mlir::Value select(mlir::Value cond, mlir::Value x, mlir::Value y) {
    return mlir::arith::SelectOp::create(b, l, cond, x, y);
  }
  /// lo <= x <= hi ? x : the nearer bound; NaN stays NaN.
  mlir::Value clamp(mlir::Value x, double lo, double hi) {
    x = select(cmp(mlir::arith::CmpFPredicate::OLT, x, c(lo)), c(lo), x);
    return select(cmp(mlir::arith::CmpFPredicate::OGT, x, c(hi)), c(hi), x);
  }
};

} // namespace quantopt::onnx_import::detail

#endif // QUANTOPT_LIB_IMPORT_ONNX_F32BUILDER_H
