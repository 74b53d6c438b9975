//===- TestAmxEmulation.cpp - amx ops as plain loops, for tests only ------===//
//
// TEST ONLY: no product tool links this file (it is built into
// quant-test-opt). The machines that build and test this project often have
// no AMX, and qemu cannot emulate it; this pass rewrites every `amx` op into
// scf loops over memref loads and stores, written from the definitions of
// the instructions in the Intel SDM (vol. 2, "TILELOADD", "TILESTORED",
// "TILEZERO", "TDPBSSD/TDPBSUD/TDPBUSD/TDPBUUD"), not from our kernels, so
// that the kernels' packing, blocking and tails run here and are compared
// with the reference model bit for bit.
//
// A tile value becomes a memref<rows x cols x elt> of its own (value
// semantics: every op that defines a tile allocates). Tile loads and stores
// read and write row r at `base + r * stride` (the stride of the buffer's
// second innermost dimension, or the explicit stride in elements), bytes
// [0, colsb). The dot products follow the SDM's DPBD: four byte products,
// each byte sign- or zero-extended to 32 bits as the instruction's letters
// say, added to the 32-bit accumulator with wrap-around.
//
//===----------------------------------------------------------------------===//

#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {

MemRefType tileBufferType(amx::TileType type) {
  return MemRefType::get(type.getShape(), type.getElementType());
}

Value cst(OpBuilder &b, Location loc, int64_t v) {
  return arith::ConstantIndexOp::create(b, loc, v);
}

/// for (r < rows) for (c < cols) body(r, c)
void forTile(OpBuilder &b, Location loc, int64_t rows, int64_t cols,
             function_ref<void(OpBuilder &, Value, Value)> body) {
  scf::buildLoopNest(b, loc, ValueRange{cst(b, loc, 0), cst(b, loc, 0)},
                     ValueRange{cst(b, loc, rows), cst(b, loc, cols)},
                     ValueRange{cst(b, loc, 1), cst(b, loc, 1)},
                     [&](OpBuilder &nb, Location, ValueRange ivs) {
                       body(nb, ivs[0], ivs[1]);
                     });
}

/// The memory indices of element (r, c) of a tile at `indices` of `base`:
/// row r starts `r * stride` elements after the tile's first element. With
/// the buffer's own row stride that is the next index of the second
/// innermost dimension; an explicit stride is added to the innermost index
/// (the address the instruction computes, base + r * stride + c).
SmallVector<Value> memIndices(OpBuilder &b, Location loc, ValueRange indices,
                              Value stride, Value r, Value c) {
  SmallVector<Value> idx(indices.begin(), indices.end());
  Value &last = idx.back();
  if (stride) {
    Value rowOffset = arith::MulIOp::create(b, loc, r, stride);
    last = arith::AddIOp::create(b, loc, last,
                                 arith::AddIOp::create(b, loc, rowOffset, c));
    return idx;
  }
  Value &row = idx[idx.size() - 2];
  row = arith::AddIOp::create(b, loc, row, r);
  last = arith::AddIOp::create(b, loc, last, c);
  return idx;
}

struct TileZeroToLoops : OpConversionPattern<amx::TileZeroOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileZeroOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    amx::TileType type = op.getTileType();
    Value tile = memref::AllocOp::create(rewriter, loc, tileBufferType(type));
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
    forTile(rewriter, loc, type.getDimSize(0), type.getDimSize(1),
            [&](OpBuilder &b, Value r, Value c) {
              memref::StoreOp::create(b, loc, zero, tile, ValueRange{r, c});
            });
    rewriter.replaceOp(op, tile);
    return success();
  }
};

struct TileLoadToLoops : OpConversionPattern<amx::TileLoadOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileLoadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    amx::TileType type = op.getTileType();
    Value tile = memref::AllocOp::create(rewriter, loc, tileBufferType(type));
    forTile(rewriter, loc, type.getDimSize(0), type.getDimSize(1),
            [&](OpBuilder &b, Value r, Value c) {
              Value v = memref::LoadOp::create(
                  b, loc, adaptor.getBase(),
                  memIndices(b, loc, adaptor.getIndices(), adaptor.getStride(),
                             r, c));
              memref::StoreOp::create(b, loc, v, tile, ValueRange{r, c});
            });
    rewriter.replaceOp(op, tile);
    return success();
  }
};

struct TileStoreToLoops : OpConversionPattern<amx::TileStoreOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileStoreOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    amx::TileType type = op.getTileType();
    forTile(rewriter, loc, type.getDimSize(0), type.getDimSize(1),
            [&](OpBuilder &b, Value r, Value c) {
              Value v = memref::LoadOp::create(b, loc, adaptor.getVal(),
                                               ValueRange{r, c});
              memref::StoreOp::create(b, loc, v, adaptor.getBase(),
                                      memIndices(b, loc, adaptor.getIndices(),
                                                 adaptor.getStride(), r, c));
            });
    rewriter.eraseOp(op);
    return success();
  }
};

/// TDPB[SU][SU]D tdest, tsrc1, tsrc2 (SDM):
///   FOR m := 0 TO dst.rows - 1
///     tmp := dst.row[m]
///     FOR k := 0 TO (tsrc1.colsb / 4) - 1
///       FOR n := 0 TO (dst.colsb / 4) - 1
///         DPBD(tmp.dword[n], tsrc1.row[m].dword[k], tsrc2.row[k].dword[n])
///     write_row_and_zero(dst, m, tmp, dst.colsb)
/// DPBD(c, x, y): c += ext(x.byte[i]) * ext(y.byte[i]) for i = 0..3, each
/// byte extended to 32 bits (sign for S, zero for U; first letter tsrc1).
struct TileMulIToLoops : OpConversionPattern<amx::TileMulIOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(amx::TileMulIOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    amx::TileType dstType = op.getTileType();
    amx::TileType src1Type = op.getLhsTileType();
    int64_t rows = dstType.getDimSize(0), dwordsN = dstType.getDimSize(1);
    int64_t dwordsK = src1Type.getDimSize(1) / 4;
    bool zext1 = op.getIsZextLhs(), zext2 = op.getIsZextRhs();
    Value dst = memref::AllocOp::create(rewriter, loc, tileBufferType(dstType));
    Value acc = adaptor.getAcc(), src1 = adaptor.getLhs(),
          src2 = adaptor.getRhs();
    Type i32 = rewriter.getI32Type();
    auto ext = [&](OpBuilder &b, Value byte, bool zext) -> Value {
      if (zext)
        return arith::ExtUIOp::create(b, loc, i32, byte);
      return arith::ExtSIOp::create(b, loc, i32, byte);
    };
    scf::buildLoopNest(
        rewriter, loc, ValueRange{cst(rewriter, loc, 0)},
        ValueRange{cst(rewriter, loc, rows)}, ValueRange{cst(rewriter, loc, 1)},
        [&](OpBuilder &b, Location, ValueRange m) {
          // tmp := dst.row[m], kept in the new tile's row.
          forTile(b, loc, 1, dwordsN, [&](OpBuilder &nb, Value, Value n) {
            Value v = memref::LoadOp::create(nb, loc, acc, ValueRange{m[0], n});
            memref::StoreOp::create(nb, loc, v, dst, ValueRange{m[0], n});
          });
          forTile(
              b, loc, dwordsK, dwordsN, [&](OpBuilder &nb, Value k, Value n) {
                Value c =
                    memref::LoadOp::create(nb, loc, dst, ValueRange{m[0], n});
                for (int64_t i = 0; i < 4; ++i) {
                  Value x = memref::LoadOp::create(
                      nb, loc, src1,
                      ValueRange{m[0], arith::AddIOp::create(
                                           nb, loc,
                                           arith::MulIOp::create(
                                               nb, loc, k, cst(nb, loc, 4)),
                                           cst(nb, loc, i))});
                  Value y = memref::LoadOp::create(
                      nb, loc, src2,
                      ValueRange{k, arith::AddIOp::create(
                                        nb, loc,
                                        arith::MulIOp::create(nb, loc, n,
                                                              cst(nb, loc, 4)),
                                        cst(nb, loc, i))});
                  Value product = arith::MulIOp::create(
                      nb, loc, ext(nb, x, zext1), ext(nb, y, zext2));
                  c = arith::AddIOp::create(nb, loc, c, product);
                }
                memref::StoreOp::create(nb, loc, c, dst, ValueRange{m[0], n});
              });
        });
    rewriter.replaceOp(op, dst);
    return success();
  }
};

struct TestAmxEmulationPass
    : PassWrapper<TestAmxEmulationPass, OperationPass<>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(TestAmxEmulationPass)

  StringRef getArgument() const final { return "test-amx-emulate"; }
  StringRef getDescription() const final {
    return "TEST ONLY: rewrite amx tile ops into scf loops over memrefs "
           "following the Intel SDM definitions";
  }
  void getDependentDialects(DialectRegistry &registry) const final {
    registry
        .insert<arith::ArithDialect, memref::MemRefDialect, scf::SCFDialect>();
  }

  void runOnOperation() final {
    MLIRContext *ctx = &getContext();
    TypeConverter converter;
    converter.addConversion([](Type type) { return type; });
    converter.addConversion(
        [](amx::TileType type) -> Type { return tileBufferType(type); });
    ConversionTarget target(*ctx);
    target.addIllegalDialect<amx::AMXDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(ctx);
    patterns.add<TileZeroToLoops, TileLoadToLoops, TileStoreToLoops,
                 TileMulIToLoops>(converter, ctx);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace

namespace quantopt::test {
void registerTestAmxEmulationPass() {
  PassRegistration<TestAmxEmulationPass>();
}
std::unique_ptr<Pass> createTestAmxEmulationPass() {
  return std::make_unique<TestAmxEmulationPass>();
}
} // namespace quantopt::test
