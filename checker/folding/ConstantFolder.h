//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Expressions to known integers, or "unknown". Starts with Clang's evaluator
// and adds what it does not fold: non-const locals that are never written
// after initialisation, local arrays built from initialiser lists and
// straight-line constant-index stores, pointer offsets into such arrays and
// std::array::data(). Every value keeps the source range it came from.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_FOLDING_CONSTANTFOLDER_H
#define TMA_TIDY_FOLDING_CONSTANTFOLDER_H

#include "folding/Uses.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace clang {
class CFG;
class CFGBlock;
} // namespace clang

namespace clang::tidy::tma {

/// One call of a function whose parameters a folded value depends on: the
/// call, the function it calls, and the context of the caller (null at the
/// outermost caller). Contexts are interned by the folder and live as long
/// as it does.
struct CallContext {
  const CallExpr *Call;
  const FunctionDecl *Callee;
  const CallContext *Parent;
};

/// A parameter that a value was read through, and the call that bound it.
struct Binding {
  const ParmVarDecl *Param;
  const CallContext *Context;
};

/// Where a folded value came from: the expression that produced it and, when
/// it was read from a variable, that variable; and the parameters it passed
/// through, outermost call first.
struct Origin {
  SourceRange Range;
  const VarDecl *Var = nullptr;
  /// The expression that produced the value, when there is one.
  const Expr *Source = nullptr;
  llvm::SmallVector<Binding, 2> Through;
};

/// A known integer and its origin.
struct FoldedInt {
  llvm::APSInt Value;
  Origin From;
};

/// The elements reachable from a pointer into a known array.
struct FoldedArray {
  /// Elements from the pointer on; std::nullopt for an unknown element.
  std::vector<std::optional<FoldedInt>> Elems;
  /// How many elements the array provides from the pointer on, when the
  /// array's extent is known.
  std::optional<uint64_t> Provided;
  /// The array variable, for notes.
  const VarDecl *Array = nullptr;
};

/// What is proven about the address a pointer expression holds: it lies
/// Offset bytes past a base that is BaseAlign-aligned (a power of two). The
/// base is a variable (its declared or its type's alignment) or a device
/// allocation (cudaMalloc and friends return 256-byte aligned memory).
struct PointerAlign {
  enum KindType { Variable, Allocation } Kind = Variable;
  uint64_t BaseAlign = 1;
  int64_t Offset = 0;
  /// The variable whose address it is, or the pointer that the allocation
  /// call set.
  const VarDecl *Base = nullptr;
  /// Allocation: the call (e.g. cudaMalloc(&p, n)).
  const CallExpr *Alloc = nullptr;
  /// The parameters it was read through, outermost call first.
  llvm::SmallVector<Binding, 2> Through;

  /// The largest power of two that divides the address, when the offset
  /// proves it (its lowest set bit is below BaseAlign); std::nullopt when
  /// the address is at least BaseAlign-aligned, which proves no upper bound.
  std::optional<uint64_t> provenAlign() const {
    auto U = static_cast<uint64_t>(Offset);
    uint64_t Low = U & (~U + 1);
    if (Low != 0 && Low < BaseAlign)
      return Low;
    return std::nullopt;
  }
};

/// The alignment that device allocations (cudaMalloc, cudaMallocAsync,
/// cudaMallocManaged, cudaMallocPitch, cudaMallocFromPoolAsync, and the
/// driver's cuMemAlloc, cuMemAllocAsync, cuMemAllocManaged,
/// cuMemAllocPitch, cuMemAllocFromPoolAsync) guarantee: "any address ...
/// returned by one of the memory allocation routines from the driver or
/// runtime API is always aligned to at least 256 bytes" (CUDA C++
/// Programming Guide, device memory accesses). cuda.h itself says only
/// "suitably aligned for any kind of variable"; a report needs a proven
/// misalignment below 16 or 32 bytes, which either statement gives.
inline constexpr uint64_t DeviceAllocationAlign = 256;

/// The argument that the operand \p E passes on unchanged from the calls of
/// \p Context (a parameter, possibly through std::forward), followed
/// outwards; E itself when it is not such a parameter. \p Context becomes
/// the context of the returned expression.
const Expr *forwardedFrom(const Expr *E, const CallContext *&Context);

/// \p V as an unsigned 64-bit number: the value a driver or instruction
/// operand of V's (already converted) type holds.
inline uint64_t asU64(const llvm::APSInt &V) {
  return V.getBitWidth() > 64 ? V.trunc(64).getZExtValue() : V.getZExtValue();
}

/// The function \p E names (`f`, `&f`), or null.
const FunctionDecl *functionOf(const Expr *E);

/// How many arguments of \p Call precede the launched kernel's own: 2 for
/// cudaLaunchKernelEx(config, kernel, args...), 0 for any other call.
unsigned launchArgumentOffset(const CallExpr &Call);

/// The argument that \p Context's call passes for \p PVD, or null when the
/// context does not bind it.
const Expr *argumentFor(const ParmVarDecl *PVD, const CallContext *Context);

/// Folds expressions of one translation unit. Results about a function's
/// local variables are memoised, so one folder should serve a whole TU.
class ConstantFolder {
public:
  explicit ConstantFolder(ASTContext &Ctx) : Ctx(Ctx) {}
  /// Asserts, when asked to (checkNoTuParentMap), that nothing built the
  /// TU-wide parent map while the folder served the TU.
  ~ConstantFolder();

  /// The folder of the translation unit \p Ctx, shared by every check that
  /// holds it: the call index and parent maps are built once per TU. Checks
  /// release it at the end of the TU.
  static std::shared_ptr<ConstantFolder> forTranslationUnit(ASTContext &Ctx);

  /// The contexts in which to evaluate code of \p F: one per call of F in the
  /// translation unit (recursively through its callers, bounded in depth and
  /// count), or a single null context when F has no caller.
  llvm::ArrayRef<const CallContext *> contextsOf(const FunctionDecl *F);

  /// Evaluates parameters of Context->Callee as the arguments of
  /// Context->Call from now on (null: parameters are unknown).
  /// The function (or lambda call operator) that contains \p Call.
  const FunctionDecl *enclosingFunction(const CallExpr *Call);

  /// Statement parents within one function body, built on first use.
  const ParentMap &parentsOf(const Stmt *Body);
  /// Statement parents within \p F's body. A lambda's body is a statement
  /// of the function around it: the map of the outermost function holds it,
  /// so lambdas nested D deep share one map (not D maps of sizes D, D - 1,
  /// ..., each holding the bodies nested in it).
  const ParentMap &parentsOf(const FunctionDecl *F);

  void enterContext(const CallContext *Context) {
    Current = Context;
    Steps = 0;
  }

  /// The context set by enterContext.
  const CallContext *currentContext() const { return Current; }

  /// The context of \p Callee called by \p Call within \p Parent (interned:
  /// the same triple gives the same context).
  const CallContext *contextFor(const CallExpr *Call,
                                const FunctionDecl *Callee,
                                const CallContext *Parent) {
    return intern(Call, Callee, Parent);
  }

  /// Whether \p Site, a statement of \p F's body, can run under \p Context
  /// (tma-rules.md §11.C): false when, with values folded under the context,
  /// every path from F's entry to Site leaves F first (`if (n == 0)
  /// return;`, a throw, a failing assert, __trap), or when the call that
  /// made the context cannot run under its own context (guards in callers).
  bool mayRun(const Stmt *Site, const FunctionDecl *F,
              const CallContext *Context);

  /// Clang's CFG of the body of \p F's definition, built once per function
  /// of the TU and shared by mayRun and the kernel model (api/KernelModel),
  /// which reads its elements as events; null when there is no body or
  /// Clang builds no CFG.
  const CFG *cfgOf(const FunctionDecl *F);

  /// Whether no use of the local \p VD may write it (or, through its
  /// address, its elements or fields) after its initialisation.
  bool isNeverWritten(const VarDecl *VD);

  /// The right-hand sides of the plain assignments `VD = x` of the local
  /// \p VD, when every use that may write it is one (no `++`, no address
  /// taken); std::nullopt otherwise. Its initialiser is not among them.
  std::optional<std::vector<const Expr *>> assignmentsOf(const VarDecl *VD);

  /// The value of the integer or enumeration expression \p E, converted to
  /// E's type, or std::nullopt when it is not provably constant.
  std::optional<FoldedInt> foldInt(const Expr *E);

  /// The array that the pointer expression \p E points into, as seen at
  /// \p UseSite (stores after it do not count). At most \p MaxElems elements
  /// are folded. std::nullopt when the pointer's target is not known.
  std::optional<FoldedArray> foldArray(const Expr *E, const Expr *UseSite,
                                       unsigned MaxElems);

  /// What is proven about the address the pointer expression \p E holds
  /// (PointerAlign), under the current context: `&var`, arrays, members at
  /// their record offsets, constant pointer arithmetic and element indices,
  /// casts, never-written local pointers, parameters bound by the context,
  /// and local pointers written only by device allocation calls
  /// (`cudaMalloc(&p, n)`), or `CUdeviceptr` integers written only by the
  /// driver's (`cuMemAlloc(&d, n)`, then `(void *)(d + k)`). std::nullopt
  /// when nothing is proven.
  std::optional<PointerAlign> pointerAlign(const Expr *E);

private:
  std::optional<PointerAlign> pointerAlignImpl(const Expr *E, unsigned Depth);
  /// \p E, an integer of at least 64 bits that holds an address: a
  /// variable as pointerVarAlign reads it, plus or minus constant bytes.
  std::optional<PointerAlign> integerAlignImpl(const Expr *E, unsigned Depth);
  std::optional<PointerAlign> objectAlignImpl(const Expr *E, unsigned Depth);
  std::optional<PointerAlign> pointerVarAlign(const VarDecl *VD,
                                              unsigned Depth);
  /// The device allocation call that writes the local pointer \p VD, when
  /// every write of VD is one (null otherwise).
  const CallExpr *allocationOf(const VarDecl *VD);
  /// Runs \p F with parameters bound by \p Context, then restores the
  /// current context.
  template <class Fn> auto inContext(const CallContext *Context, Fn F) {
    const CallContext *Saved = Current;
    Current = Context;
    auto Result = F();
    Current = Saved;
    return Result;
  }

  /// The initialiser of a field and the context to evaluate it in.
  struct FieldInit {
    const Expr *E = nullptr;
    const CallContext *Context = nullptr;
    llvm::SmallVector<Binding, 2> Through;
  };
  bool fieldInit(const Expr *Base, const FieldDecl *FD, unsigned Depth,
                 FieldInit &Out);
  /// Runs \p S as far as it is straight-line code on folded values; false
  /// when it cannot. Sets Returned (and Result) at a return statement.
  bool execute(const Stmt *S, unsigned Depth, std::optional<FoldedInt> &Result,
               bool &Returned);
  std::optional<FoldedInt> foldIntImpl(const Expr *E, unsigned Depth);
  std::optional<FoldedInt> foldLocalScalar(const VarDecl *VD, unsigned Depth);
  std::optional<FoldedArray> foldArrayImpl(const Expr *E, const Expr *UseSite,
                                           unsigned MaxElems, unsigned Depth);
  std::optional<FoldedArray> foldArrayVar(const VarDecl *VD,
                                          const Expr *UseSite,
                                          unsigned MaxElems, unsigned Depth);
  std::optional<FoldedArray> computeArrayVar(const VarDecl *VD,
                                             const Expr *UseSite,
                                             unsigned MaxElems, unsigned Depth);
  const ForStmt *fillLoopOf(const ArrayUse &Use, const VarDecl *Array);
  bool unrollStore(const ForStmt *Loop, const ArrayUse &Use,
                   const VarDecl *Array, FoldedArray &A, unsigned Depth);
  /// Whether a store under `if`s with folded conditions runs before the use
  /// (std::nullopt: not such a store).
  std::optional<bool> runsUnderFoldedIfs(const Stmt *Write, const Stmt *UseSite,
                                         const Stmt *Body, unsigned Depth);
  void applyStores(const VarDecl *VD, const Expr *UseSite, FoldedArray &A,
                   unsigned Depth);
  /// The memoised chains of \p PM, a map of parentsOf.
  Ancestry &ancestryOf(const ParentMap &PM);
  /// What applyStores knows after the uses of an array that lie before the
  /// statement at position Top of Block, carried from site to site. Block
  /// is the body or a block nested in it through blocks and `if`s only
  /// (uses before such a block, or after the site within it, act the same
  /// for every site in it); Parent is the prefix of the block around it,
  /// whose statement at ParentTop holds it. Uses [Next, End) lie in Block.
  struct StorePrefix {
    FoldedArray A;
    size_t Next = 0;
    size_t End = 0;
    unsigned Top = 0;
    bool Escaped = false;
    const CompoundStmt *Block = nullptr;
    StorePrefix *Parent = nullptr;
    unsigned ParentTop = 0;
    /// The uses came in the order of the statements when it was built.
    bool Valid = false;
  };
  /// The deepest statement chain applyStores follows.
  static constexpr unsigned MaxStmtDepth = 256;
  static constexpr unsigned NotIn = ~0u, Unknown = ~0u - 1;
  /// The position in \p Block of its statement that holds \p S; NotIn when
  /// S is not in Block, Unknown past MaxStmtDepth.
  unsigned positionIn(const ParentMap &PM, const Stmt *S,
                      const CompoundStmt *Block);
  /// The prefix of the array \p VD for sites in \p Block at or after
  /// position \p Top (its uses before Top applied); null when the uses do
  /// not come in the order of the statements (then every use is applied).
  StorePrefix *storePrefix(const VarDecl *VD, const FoldedArray &Init,
                           llvm::ArrayRef<const CompoundStmt *> Blocks,
                           llvm::ArrayRef<unsigned> Tops, size_t Level,
                           llvm::ArrayRef<const DeclRefExpr *> Uses,
                           const ParentMap &PM, unsigned Depth,
                           llvm::function_ref<bool(const DeclRefExpr *,
                                                   FoldedArray &)>
                               Apply);
  std::optional<FoldedInt> foldParam(const ParmVarDecl *PVD, unsigned Depth);
  std::optional<FoldedArray> foldParamArray(const ParmVarDecl *PVD,
                                            unsigned MaxElems, unsigned Depth);
  const Expr *boundArgument(const ParmVarDecl *PVD) const;
  /// Builds the contexts index so that it holds every call of a function
  /// first named at \p From or later (invalid: every call). Bodies that lie
  /// wholly before From and cannot name such a function are left out
  /// (python_api.cpp's torch headers); a later question about a function
  /// named earlier rebuilds the index without leaving anything out.
  void indexCalls(SourceLocation From);
  /// Ensures the index holds every call of \p F.
  void indexCallsOf(const FunctionDecl *F);
  /// The earliest place where code can name \p F: its first declaration,
  /// its template's, the classes and functions around it.
  SourceLocation firstNamed(const FunctionDecl *F);
  /// \p A comes before \p B in the translation unit (expansion locations).
  bool before(SourceLocation A, SourceLocation B) const;
  /// The function that holds \p Call, from a local its operands name and
  /// that function's parent map (no index); null when there is none.
  /// \p Owner, when given, is set to the function that declares the local
  /// (a call naming it lies in that function's declaration).
  const FunctionDecl *enclosingByLocal(const CallExpr *Call,
                                       const FunctionDecl **Owner = nullptr);
  /// The CFG of a function body and the block of each statement.
  struct BodyGraph;
  const BodyGraph *graphOf(const FunctionDecl *F);
  /// Whether the block \p Block of \p G can run under \p Context.
  bool reachable(const BodyGraph &G, const CallContext *Context,
                 unsigned Block);
  /// Decides every block of \p G under \p Context (one search from the
  /// entry), for a body asked about many blocks.
  void reachAll(const BodyGraph &G, const CallContext *Context);
  /// The side \p B's branch takes under the current context (\p Taken:
  /// the context's folds by block id, filled on first use).
  signed char takenAt(std::vector<signed char> &Taken, const CFGBlock &B);
  /// The function \p E names, directly or through a never-written local
  /// function pointer.
  const FunctionDecl *calledFunction(const Expr *E);
  void collectContexts(const FunctionDecl *F, unsigned Depth,
                       std::vector<const CallContext *> &Out);
  const CallContext *intern(const CallExpr *Call, const FunctionDecl *Callee,
                            const CallContext *Parent);
  /// Whether \p Body contains a goto (straight-line order then proves
  /// nothing).
  bool hasJumps(const Stmt *Body);
  /// Fills Uses and Jumps for \p Body in one walk.
  void walkBody(const Stmt *Body);
  const Stmt *bodyOf(const VarDecl *VD) const;
  llvm::ArrayRef<const DeclRefExpr *> usesOf(const VarDecl *VD);
  /// The uses of the local array \p VD that are not plain reads (stores,
  /// writes, escapes), in the order of usesOf; \p PM is its body's map.
  llvm::ArrayRef<const DeclRefExpr *> writesOf(const VarDecl *VD,
                                               const ParentMap &PM);

  ASTContext &Ctx;
  const CallContext *Current = nullptr;
  unsigned Steps = 0;
  /// Values of counted-loop variables while a fill loop is unrolled.
  llvm::DenseMap<const Decl *, llvm::APSInt> LoopValues;
  /// Clang's evaluation (EvaluateAsInt) of each expression foldIntImpl
  /// asked: it reads no context, so it is asked once per expression rather
  /// than in every context and by every check.
  llvm::DenseMap<const Expr *, std::optional<llvm::APSInt>> Evaluated;
  /// The operand of a cast whose evaluation failed, while foldIntImpl
  /// folds it: the operand's evaluation fails too (the casts foldIntImpl
  /// follows convert every value), so clang is not asked again.
  const Expr *NotEvaluable = nullptr;
  std::map<std::tuple<const VarDecl *, const Expr *, const CallContext *>,
           FoldedArray>
      ArrayMemo;

public:
  /// One entry of the contexts index in the order of its walk: a call of
  /// the function B, a call through a pointer, a call through the
  /// function-pointer parameter B, or a body left out (A, a FunctionDecl).
  struct IndexItem {
    enum Kind : unsigned char { Direct, Indirect, Through, LeftOut } K;
    const void *A;
    const void *B;
  };

private:
  /// The index's entries while some body is left out (Partial).
  std::vector<IndexItem> IndexItems;
  /// Calls of each function in the TU, built on first use.
  std::optional<
      llvm::DenseMap<const FunctionDecl *, std::vector<const CallExpr *>>>
      Callers;
  llvm::DenseMap<const CallExpr *, const FunctionDecl *> CallerOf;
  /// What the index leaves out: function bodies wholly before this place
  /// (invalid: nothing), when some were (Partial).
  SourceLocation IndexedFrom;
  bool Partial = false;
  /// The enclosing function of every call of the TU, for the calls that
  /// neither CallerOf nor enclosingByLocal answer; built on first use.
  std::optional<llvm::DenseMap<const CallExpr *, const FunctionDecl *>>
      AllCallers;
  /// Calls indexed through a function-pointer parameter, and the parameter.
  llvm::DenseMap<const CallExpr *, const ParmVarDecl *> ThroughParam;
  std::deque<CallContext> Contexts;
  /// The functions whose contexts are being collected (cycle guard).
  llvm::SmallVector<const FunctionDecl *, 8> Path;
  std::map<
      std::tuple<const CallExpr *, const FunctionDecl *, const CallContext *>,
      const CallContext *>
      Interned;
  llvm::DenseMap<const FunctionDecl *, std::vector<const CallContext *>>
      ContextsOf;
  // shared_ptr: BodyGraph and CFG are complete only in Feasibility.cpp.
  llvm::DenseMap<const FunctionDecl *, std::shared_ptr<BodyGraph>> Graphs;
  llvm::DenseMap<const FunctionDecl *, std::shared_ptr<CFG>> Cfgs;
  llvm::DenseMap<const VarDecl *, bool> NeverWritten;
  llvm::DenseMap<const VarDecl *, const CallExpr *> Allocations;
  llvm::DenseMap<const Stmt *, bool> Jumps;
  llvm::DenseMap<const Stmt *, std::unique_ptr<ParentMap>> Parents;
  BlockPositions Positions;
  std::map<std::tuple<const VarDecl *, const CallContext *, size_t, unsigned,
                      const CompoundStmt *>,
           StorePrefix>
      Prefixes;
  /// positionIn's answers: a site's prefix is rebuilt per call context, and
  /// each rebuild asked again for every use of the array, each a walk up
  /// through the lambdas around it (D nested lambdas: D^3 parent steps).
  llvm::DenseMap<std::tuple<const ParentMap *, const Stmt *,
                            const CompoundStmt *>,
                 unsigned>
      PositionsIn;
  /// Where the uses of an array (from index Next on) in a block end, or
  /// ~0 when they do not come in the order of its statements: the same
  /// for every call context, so scanned once per (array, block, Next), not
  /// per context (D nested lambdas: D sites scanning D uses each).
  llvm::DenseMap<std::tuple<const VarDecl *, const CompoundStmt *, size_t>,
                 size_t>
      BlockScans;
  llvm::DenseMap<const ParentMap *, std::unique_ptr<Ancestry>> Ancestries;
  /// firstNamed of each function asked about and of those around it.
  llvm::DenseMap<const FunctionDecl *, SourceLocation> FirstNamed;
  llvm::DenseMap<const DeclRefExpr *, ArrayUse> UseKinds;
  llvm::DenseMap<const VarDecl *, std::vector<const DeclRefExpr *>> Writes;
  /// The map that parentsOf(F) gives for the body of a lambda.
  llvm::DenseMap<const Stmt *, const ParentMap *> LambdaParents;
  /// The outermost function around a lambda's call operator through the
  /// lambdas around it (parentsOf(const FunctionDecl *)).
  llvm::DenseMap<const FunctionDecl *, const FunctionDecl *> OutermostOf;
  llvm::DenseMap<const Stmt *, llvm::DenseMap<const VarDecl *,
                                              std::vector<const DeclRefExpr *>>>
      Uses;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_FOLDING_CONSTANTFOLDER_H
