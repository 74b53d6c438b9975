//===- ParallelizeTiles.cpp - marked output-tile loops to scf.parallel ----===//
//
// Kernel emitters mark the scf.for loops that run over output tiles with
// `qnt.parallel_tiles`; this pass picks one loop per marked nest and makes
// it an scf.parallel, which convert-scf-to-openmp turns into an OpenMP
// work-sharing loop. Iterations are whole output tiles, so no reduction is
// ever split and every thread count gives the serial result bit for bit.
//
//===----------------------------------------------------------------------===//

#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h"

#include "QuantOpt/Dialect/Qnt/IR/QntDialect.h"
#include "mlir/Dialect/AMX/AMXDialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace mlir::qnt {
#define GEN_PASS_DEF_QNTPARALLELIZETILES
#include "QuantOpt/Dialect/Qnt/Transforms/Passes.h.inc"
} // namespace mlir::qnt

using namespace mlir;
using namespace mlir::qnt;

namespace {

constexpr int64_t kMaxWork = std::numeric_limits<int64_t>::max() / 4;
/// Trip count assumed for a loop whose bounds say nothing: large enough
/// that a loop of unknown size counts as worth parallelizing.
constexpr int64_t kUnknownTrips = 1024;

bool isMarked(Operation *op) {
  return isa<scf::ForOp>(op) &&
         op->hasAttr(QntDialect::ParallelTilesAttrHelper::getNameStr());
}

int64_t saturatingMul(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  return a > kMaxWork / b ? kMaxWork : a * b;
}

int64_t saturatingAdd(int64_t a, int64_t b) {
  return std::min(kMaxWork, a + b);
}

/// The trip count of `loop`: exact for constant bounds, an upper bound for
/// the blocked form [lb, min(lb + c, ub)); nullopt when unknown.
std::optional<int64_t> tripCount(scf::ForOp loop) {
  std::optional<int64_t> step = getConstantIntValue(loop.getStep());
  if (!step || *step <= 0)
    return std::nullopt;
  std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
  std::optional<int64_t> ub = getConstantIntValue(loop.getUpperBound());
  if (lb && ub)
    return *ub <= *lb ? 0 : (*ub - *lb + *step - 1) / *step;
  Operation *min = loop.getUpperBound().getDefiningOp();
  if (!isa_and_nonnull<arith::MinSIOp, arith::MinUIOp>(min))
    return std::nullopt;
  for (Value operand : min->getOperands()) {
    auto add = operand.getDefiningOp<arith::AddIOp>();
    if (!add)
      continue;
    for (auto [base, offset] : {std::pair(add.getLhs(), add.getRhs()),
                                std::pair(add.getRhs(), add.getLhs())})
      if (base == loop.getLowerBound())
        if (std::optional<int64_t> c = getConstantIntValue(offset))
          return *c <= 0 ? 0 : (*c + *step - 1) / *step;
  }
  return std::nullopt;
}

int64_t tripsOrGuess(scf::ForOp loop) {
  return tripCount(loop).value_or(kUnknownTrips);
}

int64_t workOf(Block &block);

/// Operations one execution of `op` runs, its regions included: loops
/// multiply their body by the trip count, an scf.if takes its larger branch.
int64_t workOf(Operation &op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return saturatingAdd(
        1, saturatingMul(tripsOrGuess(loop), workOf(*loop.getBody())));
  int64_t regions = 0;
  bool isIf = isa<scf::IfOp>(op);
  // A vector op counts its 32-bit words: a vpdpbusd step and a 16-lane
  // (vectorized) scalar loop body cost about the same per unit.
  int64_t self = 1;
  // An AMX tile multiply (16 x 16 x 64 MACs) is 256 vpdpbusd steps.
  if (isa<amx::TileMulIOp>(op))
    self = 256 * 16;
  for (Type type : op.getResultTypes())
    if (auto vector = dyn_cast<VectorType>(type)) {
      Type element = vector.getElementType();
      int64_t bits =
          element.isIntOrFloat() ? element.getIntOrFloatBitWidth() : 64;
      self = std::max(self, (vector.getNumElements() * bits + 31) / 32);
    }
  // A dot-product step (qnt_kernel: vpdpbusd and kin) does 4 multiply-adds
  // per 32-bit lane: the VNNI kernels ran at a third of the units per second
  // of elementwise code when every op counted its words alone
  // (docs/Parallelism.md), which kept a 6 us GEMV serial.
  if (Dialect *dialect = op.getDialect();
      dialect && dialect->getNamespace() == "qnt_kernel")
    self *= 4;
  for (Region &region : op.getRegions())
    for (Block &block : region) {
      int64_t w = workOf(block);
      regions = isIf ? std::max(regions, w) : saturatingAdd(regions, w);
    }
  return saturatingAdd(self, regions);
}

int64_t workOf(Block &block) {
  int64_t total = 0;
  for (Operation &op : block)
    total = saturatingAdd(total, workOf(op));
  return total;
}

/// The marked loops directly below `op`: nested in it with no marked loop
/// in between.
SmallVector<scf::ForOp> markedChildren(Operation *op) {
  SmallVector<scf::ForOp> result;
  for (Region &region : op->getRegions())
    region.walk<WalkOrder::PreOrder>([&](Operation *nested) {
      if (!isMarked(nested))
        return WalkResult::advance();
      result.push_back(cast<scf::ForOp>(nested));
      return WalkResult::skip();
    });
  return result;
}

/// The buffer a memref value views: through subviews, casts and other
/// view-like ops to the allocation or argument it comes from.
Value rootBuffer(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// The buffers that ops nested in `op` access with any of `Effects`
/// (MemoryEffects::Read, MemoryEffects::Write).
template <typename... Effects>
llvm::SmallPtrSet<Value, 4> buffersAccessed(Operation *op) {
  llvm::SmallPtrSet<Value, 4> buffers;
  op->walk([&](MemoryEffectOpInterface nested) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    nested.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects)
      if (isa<Effects...>(effect.getEffect()) && effect.getValue() &&
          isa<BaseMemRefType>(effect.getValue().getType()))
        buffers.insert(rootBuffer(effect.getValue()));
  });
  return buffers;
}

/// Whether `a` runs before `b`, neither inside the other: the ancestor of
/// `a` in the innermost block that holds both precedes that of `b` (1-trip
/// batch loops around a kernel's pre-pass and its tile loop included).
bool runsBefore(Operation *a, Operation *b) {
  for (Operation *x = a; x && x->getBlock(); x = x->getParentOp())
    if (Operation *y = x->getBlock()->findAncestorOpInBlock(*b))
      return x != y && x->isBeforeInBlock(y);
  return false;
}

struct QntParallelizeTiles
    : qnt::impl::QntParallelizeTilesBase<QntParallelizeTiles> {
  using Base::Base;

  /// Loops that stayed serial only for their work estimate, in the order
  /// their nests were visited.
  SmallVector<scf::ForOp> smallLoops;
  /// The scf.parallel ops this pass created.
  SmallVector<scf::ParallelOp> parallelLoops;

  void remark(scf::ForOp loop, int64_t work, StringRef decision) {
    if (report)
      loop.emitRemark() << "qnt-parallelize-tiles: " << decision << " ("
                        << tripsOrGuess(loop) << " trips, work " << work
                        << ", min-work " << static_cast<int64_t>(minWork)
                        << ")";
  }

  /// Rewrites `loop` as a one-dimensional scf.parallel when it is a loop on
  /// buffers worth forking for; false when it stays serial.
  bool parallelize(scf::ForOp loop) {
    int64_t work = workOf(*loop.getOperation());
    bool small = work < minWork;
    if (small)
      remark(loop, work, "serial, too little work");
    // scf.parallel compares its bounds as signed integers.
    if (loop.getUnsignedCmp()) {
      if (!small)
        remark(loop, work, "serial, unsigned bounds");
      return false;
    }
    // What bufferization leaves of the kernels' tensor iter_args: values
    // yielded unchanged, i.e. the init value on every iteration.
    auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
    for (auto [arg, yielded] :
         llvm::zip_equal(loop.getRegionIterArgs(), yield.getOperands()))
      if (arg != yielded) {
        if (!small)
          remark(loop, work, "serial, carries a value");
        return false;
      }
    if (small) {
      smallLoops.push_back(loop);
      return false;
    }
    remark(loop, work, "parallel");
    // Small loops found inside it go with it (their clones stay serial).
    llvm::erase_if(smallLoops, [&](scf::ForOp small) {
      return loop->isProperAncestor(small);
    });
    rewriteAsParallel(loop);
    return true;
  }

  void rewriteAsParallel(scf::ForOp loop) {
    OpBuilder builder(loop);
    auto parallel = scf::ParallelOp::create(
        builder, loop.getLoc(), ValueRange{loop.getLowerBound()},
        ValueRange{loop.getUpperBound()}, ValueRange{loop.getStep()});
    Block *body = parallel.getBody();
    IRMapping mapping;
    mapping.map(loop.getInductionVar(), parallel.getInductionVars()[0]);
    for (auto [arg, init] :
         llvm::zip_equal(loop.getRegionIterArgs(), loop.getInitArgs()))
      mapping.map(arg, init);
    builder.setInsertionPoint(body->getTerminator());
    for (Operation &op : loop.getBody()->without_terminator())
      builder.clone(op, mapping);
    loop.replaceAllUsesWith(loop.getInitArgs());
    loop.erase();
    parallelLoops.push_back(parallel);
  }

  /// Parallelizes the small loops that write a buffer a later parallel loop
  /// reads or writes (a conv's padded input, run-time packed weights, the
  /// initial fill of a pool's output). Written on one thread, every line the
  /// other threads touch would first have to move from the writer's cache to
  /// theirs; split like that loop, each thread writes mostly the lines it
  /// uses itself (docs/Parallelism.md).
  void parallelizeProducers() {
    if (parallelLoops.empty())
      return;
    // What each parallel loop reads or writes: a line it writes that
    // another core wrote last moves over just as one it reads.
    SmallVector<std::pair<Operation *, llvm::SmallPtrSet<Value, 4>>> users;
    for (scf::ParallelOp parallel : parallelLoops)
      users.emplace_back(
          parallel, buffersAccessed<MemoryEffects::Read, MemoryEffects::Write>(
                        parallel.getOperation()));
    SmallVector<scf::ForOp> candidates = std::move(smallLoops);
    smallLoops.clear();
    SmallVector<scf::ForOp> feeding;
    for (scf::ForOp loop : candidates) {
      // Inside or around a loop already parallel: no nested parallelism.
      if (loop->getParentOfType<scf::ParallelOp>() ||
          loop->walk([](scf::ParallelOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        continue;
      llvm::SmallPtrSet<Value, 4> written =
          buffersAccessed<MemoryEffects::Write>(loop.getOperation());
      if (llvm::any_of(users, [&](auto &user) {
            return runsBefore(loop.getOperation(), user.first) &&
                   llvm::any_of(written, [&](Value buffer) {
                     return user.second.contains(buffer);
                   });
          }))
        feeding.push_back(loop);
    }
    // The outermost of a nest of such loops: one fork, and its clones of the
    // inner ones stay serial. Decided before any loop is rewritten (and
    // erased).
    SmallVector<scf::ForOp> outermost;
    for (scf::ForOp loop : feeding)
      if (llvm::none_of(feeding, [&](scf::ForOp other) {
            return other->isProperAncestor(loop);
          }))
        outermost.push_back(loop);
    for (scf::ForOp loop : outermost) {
      remark(loop, workOf(*loop.getOperation()),
             "parallel, feeds a parallel loop");
      rewriteAsParallel(loop);
    }
  }

  /// Parallelizes one loop of the marked nest rooted at `loop` (see the
  /// pass description); true when one was.
  bool processNest(scf::ForOp loop) {
    int64_t trips = tripsOrGuess(loop);
    if (trips >= minTrips)
      return parallelize(loop);
    bool any = false;
    for (scf::ForOp child : markedChildren(loop))
      any |= processNest(child);
    if (!any && trips >= 2)
      return parallelize(loop);
    return any;
  }

  /// Checked once per run, not once per function.
  LogicalResult initialize(MLIRContext *context) final {
    if (minTrips >= 1 && minWork >= 0)
      return success();
    return emitError(UnknownLoc::get(context),
                     "qnt-parallelize-tiles: min-trips must be at least 1 and "
                     "min-work at least 0");
  }

  void runOnOperation() final {
    smallLoops.clear();
    parallelLoops.clear();
    SmallVector<scf::ForOp> roots;
    getOperation()->walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Already parallel code is left as it is: no nested parallelism.
      Dialect *dialect = op->getDialect();
      if (isa<scf::ParallelOp, scf::ForallOp>(op) ||
          (dialect && dialect->getNamespace() == "omp"))
        return WalkResult::skip();
      if (!isMarked(op))
        return WalkResult::advance();
      roots.push_back(cast<scf::ForOp>(op));
      return WalkResult::skip();
    });
    for (scf::ForOp root : roots)
      processNest(root);
    parallelizeProducers();
  }
};

} // namespace
