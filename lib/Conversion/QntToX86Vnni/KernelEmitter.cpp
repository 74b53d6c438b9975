//===- KernelEmitter.cpp - IR of the VNNI microkernels --------------------===//

#include "KernelEmitter.h"

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "QuantOpt/Dialect/QntKernel/IR/QntKernelDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinAttributes.h"

using namespace mlir;

namespace mlir::qnt::x86vnni {

Value readPadded(OpBuilder &b, Location loc, Value src, ValueRange indices,
                 int64_t len, int64_t width) {
  Type elt = cast<ShapedType>(src.getType()).getElementType();
  auto full = VectorType::get({width}, elt);
  if (len == width)
    return vector::TransferReadOp::create(b, loc, full, src, indices,
                                          std::nullopt, ArrayRef<bool>{true});
  Value part = vector::TransferReadOp::create(
      b, loc, VectorType::get({len}, elt), src, indices, std::nullopt,
      ArrayRef<bool>{true});
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(full, b.getZeroAttr(elt)));
  return vector::InsertStridedSliceOp::create(
      b, loc, part, zero, ArrayRef<int64_t>{0}, ArrayRef<int64_t>{1});
}

Value createDotU8S8(OpBuilder &b, Location loc, DotIsa isa, Value acc, Value u8,
                    Value s8) {
  if (isa == DotIsa::Avx512Vnni)
    return qnt_kernel::X86DotU8S8Op::create(b, loc, acc.getType(), acc, u8, s8);
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto part = [&](Value v, int64_t h, int64_t width) -> Value {
    return vector::ExtractStridedSliceOp::create(
        b, loc, v, ArrayRef<int64_t>{width * h}, ArrayRef<int64_t>{width},
        ArrayRef<int64_t>{1});
  };
  if (isa == DotIsa::AvxVnni) {
    // The 256-bit vpdpbusd (VEX-encoded with AVX-VNNI), once per 8 lanes.
    auto partLanes = VectorType::get({8}, b.getI32Type());
    for (int64_t h = 0; h < lanes / 8; ++h) {
      Value sum = qnt_kernel::X86DotU8S8Op::create(
          b, loc, partLanes, part(acc, h, 8), part(u8, h, 32), part(s8, h, 32));
      acc = vector::InsertStridedSliceOp::create(
          b, loc, sum, acc, ArrayRef<int64_t>{8 * h}, ArrayRef<int64_t>{1});
    }
    return acc;
  }
  // Byte 2j of each 16-bit lane ("even") and byte 2j + 1 ("odd"), widened:
  // zero-extended for u8, sign-extended for s8. A lane's four products are
  // then the even pair's vpmaddwd plus the odd pair's, each at most
  // 2 * 255 * 128 in magnitude, so no step saturates or loses a bit.
  auto wordType = VectorType::get({2 * lanes}, b.getI16Type());
  auto splat = [&](int64_t v) {
    return arith::ConstantOp::create(
        b, loc, DenseElementsAttr::get(wordType, b.getI16IntegerAttr(v)));
  };
  Value eight = splat(8);
  Value u = vector::BitCastOp::create(b, loc, wordType, u8);
  Value s = vector::BitCastOp::create(b, loc, wordType, s8);
  Value uEven = arith::AndIOp::create(b, loc, u, splat(0xff));
  Value uOdd = arith::ShRUIOp::create(b, loc, u, eight);
  Value sEven = arith::ShRSIOp::create(
      b, loc, arith::ShLIOp::create(b, loc, s, eight), eight);
  Value sOdd = arith::ShRSIOp::create(b, loc, s, eight);
  return createDotWidened(b, loc, isa, acc, uEven, uOdd, sEven, sOdd);
}

Value createDotWidened(OpBuilder &b, Location loc, DotIsa isa, Value acc,
                       Value aEven, Value aOdd, Value bEven, Value bOdd) {
  int64_t lanes = cast<VectorType>(acc.getType()).getNumElements();
  auto part = [&](Value v, int64_t h, int64_t width) -> Value {
    return vector::ExtractStridedSliceOp::create(
        b, loc, v, ArrayRef<int64_t>{width * h}, ArrayRef<int64_t>{width},
        ArrayRef<int64_t>{1});
  };
  // vpmaddwd on 512 bits with AVX-512 BW, else 256 at a time.
  int64_t width = isa == DotIsa::Avx512Bw ? std::min<int64_t>(lanes, 16) : 8;
  auto partLanes = VectorType::get({width}, b.getI32Type());
  for (int64_t h = 0; h < lanes / width; ++h) {
    auto slice = [&](Value v) -> Value {
      return width == lanes ? v : part(v, h, 2 * width);
    };
    Value even = qnt_kernel::X86MaddI16Op::create(b, loc, partLanes,
                                                  slice(aEven), slice(bEven));
    Value odd = qnt_kernel::X86MaddI16Op::create(b, loc, partLanes, slice(aOdd),
                                                 slice(bOdd));
    if (width == lanes)
      return arith::AddIOp::create(
          b, loc, arith::AddIOp::create(b, loc, acc, even), odd);
    Value sum = arith::AddIOp::create(
        b, loc, arith::AddIOp::create(b, loc, part(acc, h, width), even), odd);
    acc = vector::InsertStridedSliceOp::create(
        b, loc, sum, acc, ArrayRef<int64_t>{width * h}, ArrayRef<int64_t>{1});
  }
  return acc;
}

Value writePrefix(OpBuilder &b, Location loc, Value v, Value dest,
                  ValueRange indices, int64_t len) {
  auto type = cast<VectorType>(v.getType());
  if (len != type.getDimSize(0))
    v = vector::ExtractStridedSliceOp::create(b, loc, v, ArrayRef<int64_t>{0},
                                              ArrayRef<int64_t>{len},
                                              ArrayRef<int64_t>{1});
  return vector::TransferWriteOp::create(b, loc, v, dest, indices,
                                         ArrayRef<bool>{true})
      .getResult();
}

Value KernelEmitter::groupOffset(OpBuilder &nb, int64_t stride) {
  if (!group)
    return arith::ConstantIndexOp::create(nb, loc, 0);
  return mul(nb, group, stride);
}

Value KernelEmitter::add(OpBuilder &nb, Value a, Value c) {
  return nb.createOrFold<arith::AddIOp>(loc, a, c);
}

Value KernelEmitter::mul(OpBuilder &nb, Value a, int64_t c) {
  if (c == 1)
    return a;
  return nb.createOrFold<arith::MulIOp>(
      loc, a, arith::ConstantIndexOp::create(nb, loc, c));
}

Value KernelEmitter::readBias(OpBuilder &nb, Value col, int64_t len) {
  Value paddedCol = add(nb, col, groupOffset(nb, tiling.paddedN()));
  if (biasFolded)
    return readPadded(nb, loc, biasFolded, ValueRange{paddedCol}, kLanes,
                      kLanes);
  Value realCol = add(nb, col, groupOffset(nb, tiling.n));
  Value v =
      readPadded(nb, loc, biasRuntime, ValueRange{realCol}, len, kLanes);
  if (correction)
    v = arith::AddIOp::create(nb, loc, v,
                              readPadded(nb, loc, correction,
                                         ValueRange{paddedCol}, kLanes,
                                         kLanes));
  return v;
}

Value KernelEmitter::broadcastX(OpBuilder &nb, Value offset) {
  Value bytes = vector::TransferReadOp::create(
      nb, loc, VectorType::get({4}, nb.getI8Type()), xFlat,
      ValueRange{offset}, std::nullopt, ArrayRef<bool>{true});
  Value word = vector::BitCastOp::create(
      nb, loc, VectorType::get({1}, nb.getI32Type()), bytes);
  Value scalar =
      vector::ExtractOp::create(nb, loc, word, ArrayRef<int64_t>{0});
  auto wordVec = VectorType::get({kLanes}, nb.getI32Type());
  Value splat = vector::BroadcastOp::create(nb, loc, wordVec, scalar);
  if (flipX)
    splat = arith::XOrIOp::create(
        nb, loc, splat,
        arith::ConstantOp::create(
            nb, loc,
            DenseElementsAttr::get(
                wordVec, nb.getI32IntegerAttr(int32_t(0x80808080u)))));
  return vector::BitCastOp::create(
      nb, loc, VectorType::get({kBytes}, nb.getI8Type()), splat);
}

std::pair<Value, Value> KernelEmitter::broadcastWidenedX(OpBuilder &nb,
                                                         Value offset) {
  // q0, q2 then q1, q3 of one group (copyRowWidened): two words, each
  // read on its own so that it becomes one broadcast load.
  auto splat = [&](int64_t at) -> Value {
    Value pair = vector::TransferReadOp::create(
        nb, loc, VectorType::get({2}, nb.getI16Type()), xFlat,
        ValueRange{
            add(nb, offset, arith::ConstantIndexOp::create(nb, loc, at))},
        std::nullopt, ArrayRef<bool>{true});
    Value word = vector::ExtractOp::create(
        nb, loc,
        vector::BitCastOp::create(nb, loc,
                                  VectorType::get({1}, nb.getI32Type()), pair),
        ArrayRef<int64_t>{0});
    Value v = vector::BroadcastOp::create(
        nb, loc, VectorType::get({kLanes}, nb.getI32Type()), word);
    return vector::BitCastOp::create(
        nb, loc, VectorType::get({2 * kLanes}, nb.getI16Type()), v);
  };
  return {splat(0), splat(2)};
}

SmallVector<Value> KernelEmitter::emitWidenedStep(OpBuilder &nb,
                                                  ArrayRef<Value> xOffsets,
                                                  Value wOffset, int64_t nv,
                                                  ValueRange accs) {
  auto halfType = VectorType::get({2 * kLanes}, nb.getI16Type());
  auto read = [&](int64_t at) -> Value {
    return vector::TransferReadOp::create(
        nb, loc, halfType, wPacked,
        ValueRange{
            add(nb, wOffset, arith::ConstantIndexOp::create(nb, loc, at))},
        std::nullopt, ArrayRef<bool>{true});
  };
  SmallVector<std::pair<Value, Value>> w;
  for (int64_t v = 0; v < nv; ++v)
    w.push_back({read(v * kBytes), read(v * kBytes + 2 * kLanes)});
  SmallVector<Value> result;
  for (auto [i, xOffset] : llvm::enumerate(xOffsets)) {
    auto [xEven, xOdd] = broadcastWidenedX(nb, xOffset);
    for (int64_t v = 0; v < nv; ++v)
      result.push_back(createDotWidened(nb, loc, tiling.isa, accs[i * nv + v],
                                        xEven, xOdd, w[v].first, w[v].second));
  }
  return result;
}

SmallVector<Value>
KernelEmitter::emitStep(OpBuilder &nb, ArrayRef<Value> xOffsets, Value wOffset,
                        int64_t nv, ValueRange accs) {
  if (widenedOperands)
    return emitWidenedStep(nb, xOffsets, wOffset, nv, accs);
  auto byteVec = VectorType::get({kBytes}, nb.getI8Type());
  SmallVector<Value> w;
  for (int64_t v = 0; v < nv; ++v)
    w.push_back(vector::TransferReadOp::create(
        nb, loc, byteVec, wPacked,
        ValueRange{add(nb, wOffset,
                       arith::ConstantIndexOp::create(nb, loc, v * kBytes))},
        std::nullopt, ArrayRef<bool>{true}));
  SmallVector<Value> result;
  for (auto [i, xOffset] : llvm::enumerate(xOffsets)) {
    Value x = broadcastX(nb, xOffset);
    for (int64_t v = 0; v < nv; ++v) {
      Value acc = accs[i * nv + v];
      Value u8 = weightsUnsigned ? w[v] : x;
      Value s8 = weightsUnsigned ? x : w[v];
      result.push_back(createDotU8S8(nb, loc, tiling.isa, acc, u8, s8));
    }
  }
  return result;
}

SmallVector<Value>
KernelEmitter::emitKLoops(OpBuilder &nb, ArrayRef<KDim> dims,
                          ArrayRef<Value> xOffsets, Value wOffset, int64_t nv,
                          ValueRange accs) {
  if (dims.empty())
    return emitStep(nb, xOffsets, wOffset, nv, accs);
  const KDim &dim = dims.front();
  Value lb = dim.lb ? dim.lb : arith::ConstantIndexOp::create(nb, loc, 0);
  Value ub =
      dim.ub ? dim.ub : arith::ConstantIndexOp::create(nb, loc, dim.extent);
  Value one = arith::ConstantIndexOp::create(nb, loc, 1);
  int64_t wStride = dim.wGroupStride * nv * kLanes * 4;
  auto loop = scf::ForOp::create(
      nb, loc, lb, ub, one, accs,
      [&](OpBuilder &lb2, Location, Value iv, ValueRange iters) {
        SmallVector<Value> xs;
        for (Value x : xOffsets)
          xs.push_back(add(lb2, x, mul(lb2, iv, dim.xStride)));
        Value w = add(lb2, wOffset, mul(lb2, iv, wStride));
        SmallVector<Value> next =
            emitKLoops(lb2, dims.drop_front(), xs, w, nv, iters);
        scf::YieldOp::create(lb2, loc, next);
      });
  return SmallVector<Value>(loop.getResults());
}

KernelEmitter::TileCoords KernelEmitter::tileCoords(OpBuilder &nb, Value row0,
                                                    Value xBase0,
                                                    int64_t pixStride,
                                                    int64_t rows, Value col,
                                                    ArrayRef<int64_t> lens) {
  TileCoords c;
  Value xGroup = add(nb, xBase0, groupOffset(nb, xGroupStride));
  for (int64_t i = 0; i < rows; ++i) {
    c.rowIdx.push_back(
        add(nb, row0, arith::ConstantIndexOp::create(nb, loc, i)));
    c.xOffsets.push_back(add(
        nb, xGroup, arith::ConstantIndexOp::create(nb, loc, i * pixStride)));
  }
  for (int64_t v = 0; v < int64_t(lens.size()); ++v) {
    c.colIdx.push_back(
        add(nb, col, arith::ConstantIndexOp::create(nb, loc, v * kLanes)));
    c.outCol.push_back(add(nb, c.colIdx.back(), groupOffset(nb, tiling.n)));
  }
  return c;
}

SmallVector<Value> KernelEmitter::biasAccumulators(OpBuilder &nb,
                                                   const TileCoords &c,
                                                   int64_t rows,
                                                   ArrayRef<int64_t> lens) {
  SmallVector<Value> bias, accs;
  for (int64_t v = 0; v < int64_t(lens.size()); ++v)
    bias.push_back(readBias(nb, c.colIdx[v], lens[v]));
  for (int64_t i = 0; i < rows; ++i)
    llvm::append_range(accs, bias);
  return accs;
}

Value KernelEmitter::storeAccumulator(OpBuilder &nb, Value out,
                                      const TileCoords &c, Value acc, int64_t i,
                                      int64_t v, ArrayRef<int64_t> lens) {
  if (epilogue)
    acc = epilogue->apply(nb, loc, acc, c.outCol[v]);
  else if (elementwise)
    acc = elementwise->apply(nb, loc, acc, c.rowIdx[i], c.outCol[v], lens[v]);
  return writePrefix(nb, loc, acc, out, ValueRange{c.rowIdx[i], c.outCol[v]},
                     lens[v]);
}

Value KernelEmitter::emitTile(OpBuilder &nb, Value out, Value row0,
                              Value xBase0, int64_t pixStride, int64_t rows,
                              Value col, Value wBase, ArrayRef<int64_t> lens,
                              ArrayRef<KDim> dims, Value firstBlock) {
  int64_t nv = lens.size();
  TileCoords c = tileCoords(nb, row0, xBase0, pixStride, rows, col, lens);
  auto readPartials = [&](OpBuilder &rb, Value src) {
    SmallVector<Value> partial;
    for (int64_t i = 0; i < rows; ++i)
      for (int64_t v = 0; v < nv; ++v)
        partial.push_back(readPadded(rb, loc, src,
                                     ValueRange{c.rowIdx[i], c.outCol[v]},
                                     lens[v], kLanes));
    return partial;
  };
  SmallVector<Value> accs;
  if (partials) {
    accs = readPartials(nb, partials);
  } else if (!firstBlock) {
    accs = biasAccumulators(nb, c, rows, lens);
  } else {
    auto ifOp = scf::IfOp::create(
        nb, loc, firstBlock,
        [&](OpBuilder &tb, Location) {
          scf::YieldOp::create(tb, loc, biasAccumulators(tb, c, rows, lens));
        },
        [&](OpBuilder &eb, Location) {
          scf::YieldOp::create(eb, loc, readPartials(eb, out));
        });
    accs = SmallVector<Value>(ifOp.getResults());
  }

  SmallVector<Value> result = emitKLoops(nb, dims, c.xOffsets, wBase, nv, accs);
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t v = 0; v < nv; ++v)
      out = storeAccumulator(nb, out, c, result[i * nv + v], i, v, lens);
  return out;
}

SmallVector<Value> KernelEmitter::emitKLoopsWithSlots(
    OpBuilder &nb, ArrayRef<KDim> dims, ArrayRef<Value> xOffsets, Value wOffset,
    int64_t nv, ValueRange accs, int64_t slots,
    llvm::function_ref<void(OpBuilder &, int64_t)> slot) {
  SmallVector<Value> result(accs);
  if (dims.empty()) {
    result = emitStep(nb, xOffsets, wOffset, nv, result);
    for (int64_t s = 0; s < slots; ++s)
      slot(nb, s);
    return result;
  }
  const KDim &dim = dims.front();
  int64_t wStride = dim.wGroupStride * nv * kLanes * 4;
  auto offsetsAt = [&](OpBuilder &ob, Value iv) {
    SmallVector<Value> xs;
    for (Value x : xOffsets)
      xs.push_back(add(ob, x, mul(ob, iv, dim.xStride)));
    return xs;
  };
  int64_t unrolled = 0;
  if (dims.size() == 1) {
    unrolled = std::min(slots, dim.extent);
    for (int64_t j = 0; j < unrolled; ++j) {
      Value iv = arith::ConstantIndexOp::create(nb, loc, j);
      result = emitStep(nb, offsetsAt(nb, iv),
                        add(nb, wOffset, mul(nb, iv, wStride)), nv, result);
      slot(nb, j);
    }
    for (int64_t s = unrolled; s < slots; ++s)
      slot(nb, s);
  } else {
    // The first iteration of this dimension carries the slots inside.
    Value zero = arith::ConstantIndexOp::create(nb, loc, 0);
    result = emitKLoopsWithSlots(nb, dims.drop_front(), offsetsAt(nb, zero),
                                 wOffset, nv, result, slots, slot);
    unrolled = 1;
  }
  if (unrolled < dim.extent) {
    SmallVector<KDim> rest(dims.begin(), dims.end());
    rest.front().lb = arith::ConstantIndexOp::create(nb, loc, unrolled);
    rest.front().ub = arith::ConstantIndexOp::create(nb, loc, dim.extent);
    result = emitKLoops(nb, rest, xOffsets, wOffset, nv, result);
  }
  return result;
}

bool KernelEmitter::canPipelineTiles(ArrayRef<KDim> dims,
                                     Value firstBlock) const {
  if ((!epilogue && !elementwise) || partials || firstBlock)
    return false;
  int64_t steps = 1;
  for (const KDim &d : dims) {
    if (d.lb || d.ub)
      return false;
    steps *= d.extent;
  }
  return steps <= kMaxPipelinedSteps;
}

Value KernelEmitter::emitPipelinedTiles(
    OpBuilder &nb, Value out, int64_t count, int64_t rows,
    llvm::function_ref<Value(OpBuilder &, Value)> tileRow,
    llvm::function_ref<Value(OpBuilder &, Value)> tileXBase, int64_t pixStride,
    Value col, Value wBase, ArrayRef<int64_t> lens, ArrayRef<KDim> dims) {
  int64_t nv = lens.size(), vectors = rows * nv;
  auto coordsOf = [&](OpBuilder &cb, Value t) {
    return tileCoords(cb, tileRow(cb, t), tileXBase(cb, t), pixStride, rows,
                      col, lens);
  };
  // A tile's finished sums wait in a small buffer rather than in registers,
  // which the next tile's accumulators need: held there, LLVM spilled
  // accumulators of the dot-product steps.
  auto stash = [&](OpBuilder &sb, Value scratch, ValueRange accs) {
    for (int64_t s = 0; s < vectors; ++s)
      scratch = writePrefix(sb, loc, accs[s], scratch,
                            {arith::ConstantIndexOp::create(sb, loc, s),
                             arith::ConstantIndexOp::create(sb, loc, 0)},
                            kLanes);
    return scratch;
  };
  auto stored = [&](OpBuilder &rb, Value scratch, int64_t s) {
    return readPadded(rb, loc, scratch,
                      {arith::ConstantIndexOp::create(rb, loc, s),
                       arith::ConstantIndexOp::create(rb, loc, 0)},
                      kLanes, kLanes);
  };
  Value scratch = tensor::EmptyOp::create(
      nb, loc, ArrayRef<int64_t>{vectors, kLanes}, nb.getI32Type());
  // Prologue: the first tile's sums.
  TileCoords c0 = coordsOf(nb, arith::ConstantIndexOp::create(nb, loc, 0));
  scratch = stash(nb, scratch,
                  emitKLoops(nb, dims, c0.xOffsets, wBase, nv,
                             biasAccumulators(nb, c0, rows, lens)));
  // Tile t sums while tile t - 1 is requantized and stored.
  auto loop = scf::ForOp::create(
      nb, loc, arith::ConstantIndexOp::create(nb, loc, 1),
      arith::ConstantIndexOp::create(nb, loc, count),
      arith::ConstantIndexOp::create(nb, loc, 1), ValueRange{out, scratch},
      [&](OpBuilder &lb, Location, Value t, ValueRange iters) {
        Value prev = add(lb, t, arith::ConstantIndexOp::create(lb, loc, -1));
        TileCoords c = coordsOf(lb, t);
        TileCoords cPrev = coordsOf(lb, prev);
        Value o = iters[0];
        SmallVector<Value> result = emitKLoopsWithSlots(
            lb, dims, c.xOffsets, wBase, nv,
            biasAccumulators(lb, c, rows, lens), vectors,
            [&](OpBuilder &sb, int64_t s) {
              o = storeAccumulator(sb, o, cPrev, stored(sb, iters[1], s),
                                   s / nv, s % nv, lens);
            });
        scf::YieldOp::create(lb, loc,
                             ValueRange{o, stash(lb, iters[1], result)});
      });
  // Epilogue: the last tile.
  out = loop.getResult(0);
  TileCoords cLast =
      coordsOf(nb, arith::ConstantIndexOp::create(nb, loc, count - 1));
  for (int64_t s = 0; s < vectors; ++s)
    out = storeAccumulator(nb, out, cLast, stored(nb, loop.getResult(1), s),
                           s / nv, s % nv, lens);
  return out;
}

Value KernelEmitter::emitColumnTile(
    OpBuilder &nb, Value out, int64_t lines, int64_t pixels,
    llvm::function_ref<Value(OpBuilder &, Value)> lineXBase, int64_t pixStride,
    Value col, Value wBase, ArrayRef<int64_t> lens, ArrayRef<KDim> dims,
    Value firstBlock) {
  int64_t m0 = tiling.rowsPerTile(lens.size());
  int64_t fullTiles = pixels / m0, rest = pixels % m0;
  auto lineBody = [&](OpBuilder &lb, Value l, Value acc) {
    Value xLine = lineXBase(lb, l);
    Value rowLine = mul(lb, l, pixels);
    auto tileRow = [&](OpBuilder &tb, Value t) {
      return add(tb, rowLine, mul(tb, t, m0));
    };
    auto tileXBase = [&](OpBuilder &tb, Value t) {
      return add(tb, xLine, mul(tb, t, m0 * pixStride));
    };
    if (lines >= kMinParallelTrips && fullTiles >= 2 &&
        fullTiles <= kMaxPipelinedTiles && canPipelineTiles(dims, firstBlock)) {
      // One chain per line; threads split the lines.
      acc = emitPipelinedTiles(lb, acc, fullTiles, m0, tileRow, tileXBase,
                               pixStride, col, wBase, lens, dims);
    } else if (fullTiles > 0) {
      auto loop = scf::ForOp::create(
          lb, loc, arith::ConstantIndexOp::create(lb, loc, 0),
          arith::ConstantIndexOp::create(lb, loc, fullTiles),
          arith::ConstantIndexOp::create(lb, loc, 1), ValueRange{acc},
          [&](OpBuilder &tb, Location, Value t, ValueRange iters) {
            Value next = emitTile(tb, iters[0], tileRow(tb, t),
                                  tileXBase(tb, t), pixStride, m0, col, wBase,
                                  lens, dims, firstBlock);
            scf::YieldOp::create(tb, loc, next);
          });
      acc = markParallelTiles(loop)[0];
    }
    if (rest > 0) {
      Value t = arith::ConstantIndexOp::create(lb, loc, fullTiles);
      acc = emitTile(lb, acc, tileRow(lb, t), tileXBase(lb, t), pixStride,
                     rest, col, wBase, lens, dims, firstBlock);
    }
    return acc;
  };
  if (lines == 1)
    return lineBody(nb, arith::ConstantIndexOp::create(nb, loc, 0), out);
  auto loop = scf::ForOp::create(
      nb, loc, arith::ConstantIndexOp::create(nb, loc, 0),
      arith::ConstantIndexOp::create(nb, loc, lines),
      arith::ConstantIndexOp::create(nb, loc, 1), ValueRange{out},
      [&](OpBuilder &lb, Location, Value l, ValueRange iters) {
        scf::YieldOp::create(lb, loc, lineBody(lb, l, iters[0]));
      });
  return markParallelTiles(loop)[0];
}

Value KernelEmitter::emitRowsOutside(OpBuilder &nb, Value out, int64_t rows,
                                     int64_t pixStride, ArrayRef<KDim> dims) {
  int64_t n0 = tiling.nv * kLanes;
  // Every column tile of the register tiles of rows [row0, row0 + count).
  auto rowTile = [&](OpBuilder &rb, Value acc, Value row0, int64_t count) {
    Value xBase = mul(rb, row0, pixStride);
    auto tile = [&](OpBuilder &tb, Value a, Value col, Value wBase,
                    ArrayRef<int64_t> lens) {
      return emitTile(tb, a, row0, xBase, pixStride, count, col, wBase, lens,
                      dims, Value());
    };
    if (tiling.full > 0) {
      auto loop = scf::ForOp::create(
          rb, loc, arith::ConstantIndexOp::create(rb, loc, 0),
          arith::ConstantIndexOp::create(rb, loc, tiling.full),
          arith::ConstantIndexOp::create(rb, loc, 1), ValueRange{acc},
          [&](OpBuilder &tb, Location, Value t, ValueRange iters) {
            scf::YieldOp::create(
                tb, loc,
                tile(tb, iters[0], mul(tb, t, n0), mul(tb, t, k1 * n0 * 4),
                     SmallVector<int64_t>(tiling.nv, kLanes)));
          });
      acc = markParallelTiles(loop)[0];
    }
    if (tiling.nvTail > 0) {
      int64_t col0 = tiling.full * n0;
      SmallVector<int64_t> lens;
      for (int64_t v = 0; v < tiling.nvTail; ++v)
        lens.push_back(std::min(kLanes, tiling.n - col0 - v * kLanes));
      acc = tile(rb, acc, arith::ConstantIndexOp::create(rb, loc, col0),
                 arith::ConstantIndexOp::create(rb, loc,
                                                tiling.full * k1 * n0 * 4),
                 lens);
    }
    return acc;
  };
  int64_t m0 = tiling.rowsPerTile(tiling.full > 0 ? tiling.nv : tiling.nvTail);
  int64_t fullTiles = rows / m0, rest = rows % m0;
  if (fullTiles > 0) {
    auto loop = scf::ForOp::create(
        nb, loc, arith::ConstantIndexOp::create(nb, loc, 0),
        arith::ConstantIndexOp::create(nb, loc, fullTiles),
        arith::ConstantIndexOp::create(nb, loc, 1), ValueRange{out},
        [&](OpBuilder &tb, Location, Value t, ValueRange iters) {
          scf::YieldOp::create(tb, loc,
                               rowTile(tb, iters[0], mul(tb, t, m0), m0));
        });
    out = markParallelTiles(loop)[0];
  }
  if (rest > 0)
    out = rowTile(nb, out,
                  arith::ConstantIndexOp::create(nb, loc, fullTiles * m0),
                  rest);
  return out;
}

Value KernelEmitter::emitColumns(
    OpBuilder &nb, Value out, int64_t lines, int64_t pixels,
    llvm::function_ref<Value(OpBuilder &, Value)> lineXBase, int64_t pixStride,
    ArrayRef<KDim> dims, Value firstBlock) {
  int64_t n0 = tiling.nv * kLanes;
  if (tiling.full > 0) {
    auto loop = scf::ForOp::create(
        nb, loc, arith::ConstantIndexOp::create(nb, loc, 0),
        arith::ConstantIndexOp::create(nb, loc, tiling.full),
        arith::ConstantIndexOp::create(nb, loc, 1), ValueRange{out},
        [&](OpBuilder &tb, Location, Value t, ValueRange iters) {
          Value next = emitColumnTile(tb, iters[0], lines, pixels, lineXBase,
                                      pixStride, mul(tb, t, n0),
                                      add(tb, mul(tb, t, k1 * n0 * 4),
                                          groupOffset(tb, packedGroupSize())),
                                      SmallVector<int64_t>(tiling.nv, kLanes),
                                      dims, firstBlock);
          scf::YieldOp::create(tb, loc, next);
        });
    out = markParallelTiles(loop)[0];
  }
  if (tiling.nvTail > 0) {
    int64_t col0 = tiling.full * n0;
    SmallVector<int64_t> lens;
    for (int64_t v = 0; v < tiling.nvTail; ++v)
      lens.push_back(std::min(kLanes, tiling.n - col0 - v * kLanes));
    out = emitColumnTile(nb, out, lines, pixels, lineXBase, pixStride,
                         arith::ConstantIndexOp::create(nb, loc, col0),
                         add(nb, groupOffset(nb, packedGroupSize()),
                             arith::ConstantIndexOp::create(
                                 nb, loc, tiling.full * k1 * n0 * 4)),
                         lens, dims, firstBlock);
  }
  return out;
}

void setBias(OpBuilder &b, Location loc, KernelEmitter &k, Value bias,
             ArrayRef<int64_t> correction) {
  int64_t n = k.tiling.n, padded = k.tiling.paddedN();
  int64_t groups = correction.size() / n;
  auto paddedType = RankedTensorType::get({groups * padded}, b.getI32Type());
  auto spread = [&](auto value) {
    SmallVector<int32_t> result(groups * padded, 0);
    for (int64_t g = 0; g < groups; ++g)
      for (int64_t j = 0; j < n; ++j)
        result[g * padded + j] = static_cast<int32_t>(
            static_cast<uint32_t>(static_cast<uint64_t>(value(g * n + j))));
    return result;
  };
  if (std::optional<std::vector<int64_t>> biasValues =
          getConstantInts(bias, 32, /*isUnsigned=*/false)) {
    SmallVector<int32_t> folded = spread(
        [&](int64_t col) { return (*biasValues)[col] + correction[col]; });
    k.biasFolded = arith::ConstantOp::create(
        b, loc, DenseIntElementsAttr::get(paddedType, ArrayRef(folded)));
    return;
  }
  k.biasRuntime = bias;
  if (llvm::all_of(correction, [](int64_t c) { return c == 0; }))
    return;
  SmallVector<int32_t> values =
      spread([&](int64_t col) { return correction[col]; });
  k.correction = arith::ConstantOp::create(
      b, loc, DenseIntElementsAttr::get(paddedType, ArrayRef(values)));
}

namespace {

/// `indices` with `offset` added to the innermost one.
SmallVector<Value> offsetInnermost(OpBuilder &b, Location loc,
                                   ValueRange indices, Value offset) {
  SmallVector<Value> result(indices);
  result.back() = b.createOrFold<arith::AddIOp>(loc, result.back(), offset);
  return result;
}

/// x ^ 0x80 on every byte of the i8 vector `v`.
Value flipBytes(OpBuilder &b, Location loc, Value v) {
  return arith::XOrIOp::create(
      b, loc, v,
      arith::ConstantOp::create(
          b, loc,
          DenseElementsAttr::get(cast<VectorType>(v.getType()),
                                 b.getI8IntegerAttr(-128))));
}

/// Applies `step(builder, dest, offset, len)` to [start, start + length):
/// a loop over chunks of kBytes, then once to the tail. Returns the last
/// `dest`.
Value forEachChunk(
    OpBuilder &b, Location loc, Value dest, int64_t start, int64_t length,
    llvm::function_ref<Value(OpBuilder &, Value, Value, int64_t)> step) {
  int64_t chunks = length / kBytes, tail = length % kBytes;
  if (chunks > 0) {
    auto loop = scf::ForOp::create(
        b, loc, arith::ConstantIndexOp::create(b, loc, start),
        arith::ConstantIndexOp::create(b, loc, start + chunks * kBytes),
        arith::ConstantIndexOp::create(b, loc, kBytes), ValueRange{dest},
        [&](OpBuilder &nb, Location, Value c0, ValueRange iters) {
          scf::YieldOp::create(nb, loc, step(nb, iters[0], c0, kBytes));
        });
    dest = loop.getResult(0);
  }
  if (tail > 0)
    dest = step(b, dest,
                arith::ConstantIndexOp::create(b, loc, start + chunks * kBytes),
                tail);
  return dest;
}

} // namespace

Value fillRow(OpBuilder &b, Location loc, Value dest, ValueRange indices,
              int64_t offset, int64_t length, int64_t code) {
  Type element = cast<ShapedType>(dest.getType()).getElementType();
  return forEachChunk(
      b, loc, dest, offset, length,
      [&](OpBuilder &nb, Value acc, Value off, int64_t len) -> Value {
        auto type = VectorType::get({len}, element);
        Value v = arith::ConstantOp::create(
            nb, loc,
            DenseElementsAttr::get(type, nb.getIntegerAttr(element, code)));
        return vector::TransferWriteOp::create(
                   nb, loc, v, acc, offsetInnermost(nb, loc, indices, off),
                   ArrayRef<bool>{true})
            .getResult();
      });
}

Value copyRow(OpBuilder &b, Location loc, Value src, ValueRange srcIndices,
              Value dest, ValueRange destIndices, int64_t length, bool flip,
              int64_t padLength, int8_t padCode) {
  dest = forEachChunk(
      b, loc, dest, 0, length,
      [&](OpBuilder &nb, Value acc, Value offset, int64_t len) -> Value {
        Value v = vector::TransferReadOp::create(
            nb, loc, VectorType::get({len}, nb.getI8Type()), src,
            offsetInnermost(nb, loc, srcIndices, offset), std::nullopt,
            ArrayRef<bool>{true});
        if (flip)
          v = flipBytes(nb, loc, v);
        return vector::TransferWriteOp::create(
                   nb, loc, v, acc,
                   offsetInnermost(nb, loc, destIndices, offset),
                   ArrayRef<bool>{true})
            .getResult();
      });
  return fillRow(b, loc, dest, destIndices, length, padLength, padCode);
}

Value copyRowWidened(OpBuilder &b, Location loc, Value src,
                     ValueRange srcIndices, Value dest, ValueRange destIndices,
                     int64_t length, bool flip, bool isUnsigned) {
  return forEachChunk(
      b, loc, dest, 0, length,
      [&](OpBuilder &nb, Value acc, Value offset, int64_t len) -> Value {
        // A partial group at the end is read as zeros.
        int64_t width = ceilDiv(len, 4) * 4;
        Value v = readPadded(nb, loc, src,
                             offsetInnermost(nb, loc, srcIndices, offset), len,
                             width);
        if (flip)
          v = flipBytes(nb, loc, v);
        SmallVector<int64_t> order;
        for (int64_t g = 0; g < width; g += 4)
          llvm::append_range(order, ArrayRef<int64_t>{g, g + 2, g + 1, g + 3});
        v = vector::ShuffleOp::create(nb, loc, v, v, order);
        auto wide = VectorType::get({width}, nb.getI16Type());
        v = isUnsigned ? (Value)arith::ExtUIOp::create(nb, loc, wide, v)
                       : (Value)arith::ExtSIOp::create(nb, loc, wide, v);
        return vector::TransferWriteOp::create(
                   nb, loc, v, acc,
                   offsetInnermost(nb, loc, destIndices, offset),
                   ArrayRef<bool>{true})
            .getResult();
      });
}

Value collapseToFlat(OpBuilder &b, Location loc, Value t) {
  auto type = cast<RankedTensorType>(t.getType());
  ReassociationIndices all;
  for (int64_t d = 0; d < type.getRank(); ++d)
    all.push_back(d);
  return tensor::CollapseShapeOp::create(
      b, loc,
      RankedTensorType::get({type.getNumElements()}, type.getElementType()), t,
      SmallVector<ReassociationIndices>{all});
}

} // namespace mlir::qnt::x86vnni
