//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/OrderingCheck.h"
#include "checks/SharedMatchers.h"
#include "checks/OrderingFixes.h"
#include "rules/OrderingRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include <algorithm>
#include <functional>
#include <string>

using namespace clang::ast_matchers;
namespace ord = tma::rules::ordering;

namespace clang::tidy::tma {

static constexpr llvm::StringLiteral FnId = SharedMatchers::FunctionId;

void OrderingCheck::registerMatchers(MatchFinder *F) {
  Rules.diagnoseUnknown(*this, getID());
  Shared =
      SharedMatchers::functions(F, this, SharedMatchers::Functions::Kernels);
}

namespace {
/// Records the `#if` branches the preprocessor skipped and the files it
/// entered.
class SkippedRanges : public PPCallbacks {
public:
  SkippedRanges(const SourceManager &SM,
                std::shared_ptr<OrderingCheck::Preprocessed> Out)
      : SM(SM), Out(std::move(Out)) {}
  void FileChanged(SourceLocation Loc, FileChangeReason Reason,
                   SrcMgr::CharacteristicKind, FileID) override {
    if (Reason == EnterFile && Loc.isValid())
      Out->Files.insert(SM.getFileID(SM.getFileLoc(Loc)).getHashValue());
  }
  void SourceRangeSkipped(SourceRange Range, SourceLocation) override {
    Out->Skipped.push_back(Range);
  }

private:
  const SourceManager &SM;
  std::shared_ptr<OrderingCheck::Preprocessed> Out;
};
} // namespace

void OrderingCheck::registerPPCallbacks(const SourceManager &SM,
                                        Preprocessor *PP, Preprocessor *) {
  PPInfo = std::make_shared<Preprocessed>();
  // The main file is entered before the callbacks exist.
  PPInfo->Files.insert(SM.getMainFileID().getHashValue());
  PP->addPPCallbacks(std::make_unique<SkippedRanges>(SM, PPInfo));
}

bool OrderingCheck::bodyRuns(const Stmt *Body, const SourceManager &SM,
                             const LangOptions &LO) const {
  if (LO.CUDAIsDevice)
    return true;
  if (!Body)
    return false;
  SourceLocation B = SM.getFileLoc(Body->getBeginLoc()),
                 E = SM.getFileLoc(Body->getEndLoc());
  if (B.isInvalid() || E.isInvalid() || SM.getFileID(B) != SM.getFileID(E) ||
      !PPInfo->Files.count(SM.getFileID(B).getHashValue()))
    return false;
  for (const SourceRange &R : PPInfo->Skipped) {
    SourceLocation S = R.getBegin();
    if (SM.getFileID(S) == SM.getFileID(B) &&
        !SM.isBeforeInTranslationUnit(S, B) &&
        !SM.isBeforeInTranslationUnit(E, S))
      return false;
  }
  return true;
}

void OrderingCheck::onEndOfTranslationUnit() {
  Model.reset();
  Finder.reset();
  Reported.clear();
  Fixed.clear();
}

bool OrderingCheck::once(SourceLocation Loc, const std::string &Message) {
  return Rules.allows(Message) &&
         Reported.insert({Loc.getRawEncoding(), Message}).second;
}

bool OrderingCheck::firstFixAt(SourceLocation Loc) {
  return Fixed.insert(Loc.getRawEncoding()).second;
}

namespace {

/// The fence.proxy.async in the API of \p Op.
const char *fenceSpelling(const DeviceOp &Op) {
  switch (siteOf(Op).Api) {
  case OpApi::InlinePtx:
    return "asm volatile(\"fence.proxy.async.shared::cta;\" ::: \"memory\")";
  case OpApi::CudaPtx:
    return "cuda::ptx::fence_proxy_async(cuda::ptx::space_shared)";
  case OpApi::Cde:
    return "cuda::device::experimental::fence_proxy_async_shared_cta()";
  case OpApi::Cute:
    return "cute::tma_store_fence()";
  case OpApi::Cutlass:
    return "cutlass::arch::fence_view_async_shared()";
  default:
    return "fence.proxy.async.shared::cta";
  }
}

const OpValue *barrierOperand(const DeviceOp &Op) {
  if (const auto *B = std::get_if<BulkCopy>(&Op))
    return &B->Barrier;
  if (const auto *T = std::get_if<TensorCopy>(&Op))
    return &T->Barrier;
  if (const auto *X = std::get_if<ExpectTx>(&Op))
    return &X->Barrier;
  if (const auto *A = std::get_if<Arrive>(&Op))
    return &A->Barrier;
  if (const auto *I = std::get_if<BarrierInit>(&Op))
    return &I->Barrier;
  if (const auto *W = std::get_if<Wait>(&Op))
    return &W->Barrier;
  return nullptr;
}

void refsTo(const Stmt *S, const VarDecl *VD,
            llvm::SmallPtrSetImpl<const DeclRefExpr *> &Out) {
  if (!S)
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(S); D && D->getDecl() == VD)
    Out.insert(D);
  if (const auto *L = dyn_cast<LambdaExpr>(S)) {
    refsTo(L->getBody(), VD, Out);
    for (const Expr *Init : L->capture_inits())
      refsTo(Init, VD, Out);
    return;
  }
  for (const Stmt *Child : S->children())
    refsTo(Child, VD, Out);
}

/// The references of a variable, a parameter or `this` that are known
/// uses: operands of recognised ops on the barrier.
using KnownRefs = llvm::SmallPtrSet<const Expr *, 16>;

/// Whether \p E is a reference to \p V, or to `this` for null.
bool refersTo(const Stmt *E, const ValueDecl *V) {
  if (const auto *D = dyn_cast_or_null<DeclRefExpr>(E))
    return V && D->getDecl() == V;
  return !V && isa_and_nonnull<CXXThisExpr>(E);
}

/// The reference \p E is as a whole or by address (`bar`, `&bar`, `this`,
/// through parentheses and casts), or an element of it by address
/// (`&bar[i]`: a helper that uses the element uses the array).
const Expr *wholeArgument(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *U = dyn_cast<UnaryOperator>(E);
      U && U->getOpcode() == UO_AddrOf) {
    E = U->getSubExpr()->IgnoreParenCasts();
    while (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
      E = A->getBase()->IgnoreParenImpCasts();
  }
  return E;
}

/// The array \p E is an element of (`bar[i]`, `p[i][j]`), else \p E.
const Expr *elementBase(const Expr *E) {
  E = E->IgnoreParenCasts();
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  return E;
}

/// Whether \p C is `with(...)` of a CuTe TMA load atom or its traits
/// (`Copy_Atom<Copy_Traits<SM90_TMA_LOAD, ...>>`, a TiledCopy of one):
/// the executable copy that completes on the barrier it is given.
bool isCuteTmaLoadWith(const CXXMemberCallExpr &C) {
  const CXXMethodDecl *M = C.getMethodDecl();
  if (!M || !M->getIdentifier() || M->getName() != "with")
    return false;
  const auto *R = dyn_cast<ClassTemplateSpecializationDecl>(M->getParent());
  if (!R || (R->getName() != "Copy_Atom" && R->getName() != "Copy_Traits"))
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(R->getDeclContext());
  if (!NS || NS->getName() != "cute")
    return false;
  // Its operation: the first type among the (packed) template arguments.
  for (const TemplateArgument &A : R->getTemplateArgs().asArray()) {
    ArrayRef<TemplateArgument> Each =
        A.getKind() == TemplateArgument::Pack ? A.pack_elements() : A;
    for (const TemplateArgument &E : Each)
      if (E.getKind() == TemplateArgument::Type)
        return StringRef(E.getAsType().getAsString()).contains("SM90_TMA_LOAD");
  }
  return false;
}

/// Whether every reference to a barrier is known: a recognised op's
/// operand (Known), or the whole argument (or the object) of a helper (a
/// member) whose parameter (`this`) has only known references itself, and
/// at least one: the helper issues recognised ops on it and nothing else
/// (a body that the pass compiles out, CUTLASS's asm in the host pass,
/// issues none); or the initialiser of a local that holds its address
/// (`uint32_t a = smem_u32(&bar)`) whose references are all known, and at
/// least one. To a few calls deep. In the device pass (\p Device), whose
/// bodies are the code that runs, a helper whose parameter's references
/// all end in locals that nothing reads (`uint32_t p = cvta(bar);` and no
/// instruction on p) does nothing to the barrier either; in the host pass
/// such a body may be a device body compiled out, and counts only when
/// nothing in it was (\p Runs).
struct KnownUses {
  const KnownRefs &Known;
  DeviceOpsFinder &Finder;
  std::function<bool(const Stmt *)> Runs;
  /// Locals met that hold the barrier's address and that nothing reads.
  unsigned Dead = 0;
  /// The device pass: the bodies are the code that runs.
  bool Device = false;

  /// Whether the references to \p V (`this` for null) under \p S, in the
  /// body \p Body, are all known; \p Count receives how many there are.
  bool all(const Stmt *S, const Stmt *Body, const ValueDecl *V,
           unsigned Depth, unsigned &Count) {
    if (!S)
      return true;
    if (refersTo(S, V)) {
      bool K = Known.count(cast<Expr>(S));
      Count += K;
      return K;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const Expr *Init : L->capture_inits())
        if (!all(Init, Body, V, Depth, Count))
          return false;
      return all(L->getBody(), Body, V, Depth, Count);
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *L = dyn_cast<VarDecl>(D);
        const Expr *Init = L ? L->getInit() : nullptr;
        if (!Init)
          continue;
        if (L->isLocalVarDecl() && !L->isStaticLocal() &&
            !L->getType()->isReferenceType() &&
            refersTo(wholeArgument(Finder.lookThrough(Init)), V)) {
          if (!inside(Body, L, Depth, Count, /*Local=*/true))
            return false;
          continue;
        }
        if (!all(Init, Body, V, Depth, Count))
          return false;
      }
      return true;
    }
    const auto *C = dyn_cast<CallExpr>(S);
    // CuTe's TMA load atoms: `tma.with(bar)` keeps the barrier's address
    // for the copies to complete on; it never initialises it.
    if (const auto *W = dyn_cast_or_null<CXXMemberCallExpr>(C);
        W && isCuteTmaLoadWith(*W)) {
      for (const Expr *A : W->arguments()) {
        if (refersTo(elementBase(A), V)) {
          ++Count;
          continue;
        }
        if (!all(A, Body, V, Depth, Count))
          return false;
      }
      return all(W->getImplicitObjectArgument(), Body, V, Depth, Count);
    }
    const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr,
                       *Def = nullptr;
    bool Helper = FD && FD->hasBody(Def) && Def && Depth < 4 &&
                  !isa<CXXOperatorCallExpr>(C);
    const auto *MC = Helper ? dyn_cast<CXXMemberCallExpr>(C) : nullptr;
    const auto *MD = MC ? dyn_cast<CXXMethodDecl>(Def) : nullptr;
    for (const Stmt *Child : S->children()) {
      unsigned I = 0;
      while (Helper && I < C->getNumArgs() && C->getArg(I) != Child)
        ++I;
      const Expr *Whole = Helper && I < C->getNumArgs() &&
                                  I < Def->getNumParams()
                              ? wholeArgument(C->getArg(I))
                              : nullptr;
      if (refersTo(Whole, V) && !Known.count(Whole)) {
        if (!inside(Def->getBody(), Def->getParamDecl(I), Depth + 1, Count))
          return false;
        continue;
      }
      // `b.f()`, `p->f()`: f's `this` stands for b.
      if (MD && !MD->isStatic() && Child == MC->getCallee())
        if (const auto *M =
                dyn_cast<MemberExpr>(MC->getCallee()->IgnoreParens());
            M && refersTo(wholeArgument(M->getBase()), V) &&
            !Known.count(wholeArgument(M->getBase()))) {
          if (!inside(Def->getBody(), nullptr, Depth + 1, Count))
            return false;
          continue;
        }
      if (!all(Child, Body, V, Depth, Count))
        return false;
    }
    return true;
  }

  /// Whether \p V (a parameter, `this`, a local) has references in
  /// \p Body, all of them known.
  bool inside(const Stmt *Body, const ValueDecl *V, unsigned Depth,
              unsigned &Count, bool Local = false) {
    unsigned Inner = 0, DeadBefore = Dead;
    if (!all(Body, Body, V, Depth, Inner))
      return false;
    if (Inner == 0) {
      // Nothing recognised uses V: a local that nothing reads (or whose
      // copies nothing reads), or a parameter whose references all end in
      // such locals, in the device pass only; in the device pass also a
      // parameter that nothing references (`__CUTLASS_UNUSED(x)`). A host
      // body may have lost its code to a macro.
      if ((!Local && Dead == DeadBefore && !Device) || !Runs(Body))
        return false;
      if (Local)
        ++Dead;
      return true;
    }
    Count += Inner;
    return true;
  }
};

/// The references to variables, parameters and `this` under \p S.
void refsOrParamsTo(const Stmt *S, KnownRefs &Out) {
  if (!S)
    return;
  if (const auto *D = dyn_cast<DeclRefExpr>(S))
    Out.insert(D);
  if (const auto *T = dyn_cast<CXXThisExpr>(S))
    Out.insert(T);
  for (const Stmt *Child : S->children())
    refsOrParamsTo(Child, Out);
}

/// Whether every loop around event \p Outer is around \p Inner too.
bool loopsAround(const ord::Flow &G, std::size_t Outer, std::size_t Inner) {
  for (const ord::Flow::Set *L : G.loopsAround(Outer))
    if (!(*L)[G.nodeOf(Inner)])
      return false;
  return true;
}

/// BULK-S2G-FENCE-BEFORE / TMA-STORE-FENCE: the fence goes before the
/// first thread barrier on the way from the write to the copy that every
/// writing thread runs after it (it post-dominates the write, in the same
/// or an outer loop), or, with no thread barrier in between, before the
/// copy when the same threads write and copy (each dominates or
/// post-dominates the other).
std::optional<FixItHint> fenceFix(const KernelSequence &K,
                                  const ord::Finding &F, const Stmt *Body,
                                  const SourceManager &SM,
                                  const LangOptions &LO) {
  const ord::Flow &G = K.G;
  std::optional<std::size_t> At;
  for (std::size_t J : G.between(F.First, F.Second, false))
    if (K.Seq[J].Kind == ord::EventKind::ThreadSync && !K.Seq[J].Warp) {
      At = J;
      break;
    }
  if (At) {
    if (!G.postDominates(*At, F.First) || !loopsAround(G, *At, F.First))
      return std::nullopt;
  } else if (!G.dominates(F.First, F.Second) ||
             !G.postDominates(F.Second, F.First)) {
    return std::nullopt; // other threads copy: a thread barrier is missing too
  } else {
    At = F.Second;
  }
  const KernelEvent &Write = K.Events[F.First], &Store = K.Events[F.Second];
  SourceLocation Loc = K.Events[*At].Loc;
  const Stmt *S = statementAt(Body, Loc, SM);
  if (!S || Write.Loc.isMacroID() ||
      !SM.isBeforeInTranslationUnit(Write.Loc, S->getBeginLoc()))
    return std::nullopt;
  std::optional<std::string> Code =
      fenceStatement(*Store.Op, Store.InBody, Body, SM, LO);
  if (!Code)
    return std::nullopt;
  return insertBefore(*S, *Code, SM);
}

/// MBAR-INIT-VISIBLE: __syncthreads() before the statement of the kernel's
/// own block that holds the use, when that is not the one that holds the
/// init (every thread reaches it once, after the init).
std::optional<FixItHint> syncFix(const KernelSequence &K,
                                 const ord::Finding &F, const Stmt *Body,
                                 const SourceManager &SM) {
  const Stmt *Init = topLevelStatementAt(Body, K.Events[F.First].Loc, SM);
  const Stmt *Use = topLevelStatementAt(Body, K.Events[F.Second].Loc, SM);
  if (!Init || !Use || Init == Use ||
      !SM.isBeforeInTranslationUnit(Init->getBeginLoc(), Use->getBeginLoc()))
    return std::nullopt;
  return insertBefore(*Use, "__syncthreads();", SM);
}

} // namespace

void OrderingCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *Fn = Result.Nodes.getNodeAs<FunctionDecl>(FnId);
  const SourceManager &SM = *Result.SourceManager;
  if (isDependentFunction(*Fn) || !Fn->getBody() ||
      SM.isInSystemHeader(SM.getFileLoc(Fn->getLocation())))
    return;
  if (!Model)
    Model = KernelModel::forTranslationUnit(*Result.Context);
  if (!Finder)
    Finder = DeviceOpsFinder::forTranslationUnit(*Result.Context);
  const KernelSequence *K = Model->sequenceOf(Fn);
  if (!K) {
    if (ExplainModel)
      explainModel(*Fn, K, SM);
    return;
  }
  // ExplainModel: why each rule stayed silent, recorded where it decides.
  ord::Silences Silences;
  ord::Silences *Why = ExplainModel ? &Silences : nullptr;

  auto Line = [&](SourceLocation L) {
    return std::to_string(SM.getPresumedLineNumber(SM.getFileLoc(L)));
  };
  auto Name = [&](std::size_t I) -> std::string {
    int O = K->Seq[I].Object;
    return O < 0 ? "shared memory" : "'" + K->Names[O] + "'";
  };
  auto What = [&](std::size_t I) -> std::string {
    return K->Seq[I].Tensor ? "TMA store" : "bulk copy";
  };
  auto Warn = [&](SourceLocation L, const std::string &Msg,
                  std::optional<FixItHint> Fix = std::nullopt) {
    L = SM.getFileLoc(L);
    if (!once(L, Msg))
      return false;
    auto D = diag(L, "%0") << Msg;
    if (Fix && firstFixAt(Fix->RemoveRange.getBegin()))
      D << *Fix;
    return true;
  };
  const Stmt *Body = Fn->getBody();
  const LangOptions &LO = Result.Context->getLangOpts();
  auto NoteOp = [&](std::size_t I, const std::string &Msg) {
    const KernelEvent &E = K->Events[I];
    diag(SM.getFileLoc(E.Loc), "%0", DiagnosticIDs::Note) << Msg;
    if (!E.InBody && !SM.isInSystemHeader(SM.getFileLoc(E.OpLoc)))
      diag(SM.getFileLoc(E.OpLoc), "issued here", DiagnosticIDs::Note);
  };

  for (const ord::Finding &F : ord::fenceBeforeStore(K->Seq, K->G, K->Block, Why)) {
    const KernelEvent &S = K->Events[F.Second];
    // A fence on the way that comes after the hand-off (every path from
    // the write to it passes a thread barrier).
    std::optional<std::size_t> Late;
    ord::Flow::Set BeforeSync =
        K->G.search(F.First, true, false, [&](std::size_t J) {
          return K->Seq[J].Kind == ord::EventKind::ThreadSync &&
                 !K->Seq[J].Warp;
        });
    for (std::size_t J : K->G.between(F.First, F.Second, false))
      if (K->Seq[J].Kind == ord::EventKind::ProxyFence && !BeforeSync[J]) {
        Late = J;
        break;
      }
    std::string Msg = What(F.Second) + " reads " + Name(F.Second) +
                      " written by generic stores at line " +
                      Line(K->Events[F.First].Loc) +
                      (Late ? " with no fence.proxy.async before the thread "
                              "barrier that hands it over (the fence at line " +
                                  Line(K->Events[*Late].Loc) +
                                  " comes after it)"
                            : " with no fence.proxy.async in between") +
                      " (" + F.Rule + ")";
    if (!Warn(S.Loc, Msg, fenceFix(*K, F, Body, SM, LO)))
      continue;
    NoteOp(F.First, "generic store to " + Name(F.First) + " here");
    NoteOp(F.Second, std::string("each writing thread must execute ") +
                         fenceSpelling(*S.Op) +
                         " after its stores, before the thread barrier that "
                         "hands the buffer to the issuing thread");
  }

  if (Why && !WaitBeforeExit)
    for (std::size_t S = 0; S < K->Seq.size(); ++S)
      if (K->Seq[S].Kind == ord::EventKind::Store)
        Why->push_back({K->Seq[S].Tensor ? "TMA-STORE-WAIT"
                                         : "BULK-S2G-WAIT-BEFORE-REUSE",
                        S,
                        "option WaitBeforeExit is off: a copy not waited for "
                        "before the kernel exits is not reported",
                        std::nullopt});
  for (const ord::Finding &F :
       WaitBeforeExit ? ord::waitBeforeExit(K->Seq, K->G, Why)
                      : std::vector<ord::Finding>()) {
    std::string Msg = What(F.First) + " reads " + Name(F.First) +
                      " but the kernel can exit after it with no "
                      "cp.async.bulk.wait_group.read: the copy may still be "
                      "reading shared memory (" +
                      F.Rule + ")";
    Warn(K->Events[F.First].Loc, Msg);
  }

  for (const ord::Finding &F : ord::waitBeforeReuse(K->Seq, K->G, Why)) {
    std::string Why;
    if (!F.Wait)
      Why = "no cp.async.bulk.wait_group.read in between covers its group";
    else if (F.Commits == 0)
      Why = "its group is not committed before the wait at line " +
            Line(K->Events[*F.Wait].Loc);
    else
      Why = "wait_group.read " + std::to_string(*K->Seq[*F.Wait].Depth) +
            " at line " + Line(K->Events[*F.Wait].Loc) +
            " lets its group stay pending (" + std::to_string(F.Commits) +
            (F.Commits == 1 ? " group" : " groups") +
            " committed since the copy)";
    std::string Writer = K->Seq[F.Second].Kind != ord::EventKind::Load
                             ? "generic store"
                         : K->Seq[F.Second].Tensor ? "TMA load"
                                                   : "bulk load";
    // A stage of a ring: the same stage, in the same pass or Laps later.
    std::string Msg =
        K->Seq[F.First].Slice < 0
            ? Writer + " overwrites " + Name(F.First) + " while the " +
                  What(F.First) + " at line " + Line(K->Events[F.First].Loc) +
                  " may still read it: " + Why + " (" + F.Rule + ")"
        : F.Laps == 0
            ? Writer + " overwrites the stage of " + Name(F.First) +
                  " that the " + What(F.First) + " at line " +
                  Line(K->Events[F.First].Loc) + " may still read: " + Why +
                  " (" + F.Rule + ")"
            : Writer + " overwrites the stage of " + Name(F.First) +
                  " that the " + What(F.First) + " at line " +
                  Line(K->Events[F.First].Loc) + " read " +
                  std::to_string(F.Laps) +
                  (F.Laps == 1 ? " pass" : " passes") +
                  " earlier (a ring of " + std::to_string(F.Laps) +
                  (F.Laps == 1 ? " stage" : " stages") +
                  ") and may still read: " + Why + " (" + F.Rule + ")";
    std::optional<FixItHint> Fix;
    if (F.Wait && F.Commits > 0 && F.Laps == 0 && K->Events[*F.Wait].InBody)
      Fix = waitDepthFix(Body, K->Events[*F.Wait].Loc, *K->Seq[*F.Wait].Depth,
                         F.Commits - 1, *Result.Context);
    if (!Warn(K->Events[F.Second].Loc, Msg, Fix))
      continue;
    NoteOp(F.First, "the " + What(F.First) + " reads " + Name(F.First) +
                        " here");
    if (F.Wait && F.Commits > 0)
      diag(SM.getFileLoc(K->Events[*F.Wait].Loc),
           "wait_group.read %0 would complete the copy's group",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(F.Commits - 1);
  }

  for (const ord::Finding &F : ord::initVisible(K->Seq, K->G, K->Block, Why)) {
    // A role's use: a thread of it that runs no init.
    const ord::Event &Init = K->Seq[F.First], &Use = K->Seq[F.Second];
    std::optional<unsigned> Thread;
    if (Use.Guarded && Use.Threads && Init.Threads)
      Thread = ::tma::rules::threads::firstOutside(*Use.Threads, *Init.Threads,
                                                   K->Block);
    std::string Who = Thread ? "by thread " + std::to_string(*Thread) +
                                   ", which runs no init of it,"
                             : "by all threads";
    std::string Msg = Name(F.Second) + " is used " + Who +
                      " here after its mbarrier.init "
                      "at line " +
                      Line(K->Events[F.First].Loc) +
                      " with no __syncthreads() in between: other threads "
                      "may use it before it is initialised (MBAR-INIT-VISIBLE)";
    // Where a cluster wait stands alone, the missing arrive is the fix,
    // not a __syncthreads().
    if (!Warn(K->Events[F.Second].Loc, Msg,
              F.Wait ? std::nullopt : syncFix(*K, F, Body, SM)))
      continue;
    NoteOp(F.First, "initialised here, by the threads of this branch only");
    if (F.Wait)
      NoteOp(*F.Wait, "this barrier.cluster.wait has no "
                      "barrier.cluster.arrive before it: it synchronises "
                      "nothing");
  }

  for (const ord::Finding &F : ord::reinitInLoop(K->Seq, K->G)) {
    std::string Msg = "mbarrier.init of " + Name(F.First) +
                      " inside a loop that uses it: the next pass "
                      "re-initialises a live barrier without mbarrier.inval "
                      "(MBAR-REINIT-INVAL)";
    if (!Warn(K->Events[F.First].Loc, Msg))
      continue;
    NoteOp(F.Second, "used here in the same loop");
  }

  for (const ord::Finding &F : ord::waitParity(K->Seq, K->G, Why)) {
    const ord::Event &W = K->Seq[F.First];
    std::string Msg = "wait on " + Name(F.First);
    std::string Note;
    if (W.Parity == ord::ParityForm::Constant ||
        W.Parity == ord::ParityForm::StageBit) {
      Msg += W.Parity == ord::ParityForm::StageBit
                 ? " names the stage's own bit as its parity, the same "
                   "parity each time the ring comes back to the stage"
                 : " names parity " + std::to_string(W.ParityBit) +
                       " on every pass of its loop";
      Msg += W.FixedObject
                 ? ", but the barrier completes a phase each pass: from the "
                   "second pass on the wait names a phase that has already "
                   "completed and returns at once; flip the parity after "
                   "each wait (MBAR-WAIT-PARITY)"
                 : ", but the barrier completes a phase each lap: from the "
                   "second lap on the wait names a phase that has already "
                   "completed and returns at once; flip the parity each time "
                   "the stage wraps (MBAR-WAIT-PARITY)";
      Note = "the barrier completes here, in a loop";
    } else if (K->Seq[F.Second].Role != ord::UseRole::Arrive) {
      Msg += " names parity 1 on the ring's first lap, but no phase of the "
             "barrier has completed then: parity 1 names the phase before "
             "its first, so the wait returns at once, before its copy "
             "lands; start the phase bit at 0 (MBAR-WAIT-PARITY)";
      Note = "the copy or expect-tx that completes the first phase";
    } else {
      Msg += " names parity 1 on the ring's first lap, but the arrivals at "
             "line " +
             Line(K->Events[F.Second].Loc) +
             " complete phase 0 of every stage before the ring starts: from "
             "the second lap on the wait names a phase that completed a lap "
             "earlier and returns before the stage is released; start the "
             "phase bit at 0 (MBAR-WAIT-PARITY)";
      Note = "these arrivals complete phase 0 before any wait";
    }
    if (!Warn(K->Events[F.First].Loc, Msg))
      continue;
    NoteOp(F.Second, Note);
  }

  auto LoadWhat = [&](std::size_t I) -> std::string {
    return K->Seq[I].Tensor ? "TMA load" : "bulk copy";
  };
  auto BarrierName = [&](std::size_t I) -> std::string {
    int B = K->Seq[I].Barrier;
    return B < 0 ? "its mbarrier" : "'" + K->Names[B] + "'";
  };
  auto ReadWhat = [&](std::size_t I) -> std::string {
    return K->Seq[I].Mma ? "the MMA (shared-memory descriptor) reads "
                         : "generic load reads ";
  };
  for (const ord::Finding &F : ord::loadWaitBeforeRead(K->Seq, K->G, Why)) {
    std::string Msg = ReadWhat(F.Second) + Name(F.Second) + " while the " +
                      LoadWhat(F.First) + " at line " +
                      Line(K->Events[F.First].Loc) + " may still write it: ";
    if (F.Wait)
      Msg += "cp.async.bulk.wait_group at line " +
             Line(K->Events[*F.Wait].Loc) +
             " does not wait for copies that complete on an mbarrier";
    else
      Msg += "no wait on " + BarrierName(F.First) + " in between";
    Msg += std::string(" (") + F.Rule + ")";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "the " + LoadWhat(F.First) + " into " + Name(F.First) +
                        " completes on " + BarrierName(F.First));
    if (F.Other)
      NoteOp(*F.Other, "this wait is on another barrier: it does not "
                       "order the read");
  }

  for (const ord::Finding &F : ord::loadWaitAcrossRoles(K->Seq, K->G)) {
    std::string Msg = ReadWhat(F.Second) + Name(F.Second) +
                      " that the " + LoadWhat(F.First) + " at line " +
                      Line(K->Events[F.First].Loc) +
                      " (in other threads' code) writes, with no wait on " +
                      BarrierName(F.First) + " before it on this path "
                      "(TMA-LOAD-WAIT-BEFORE-READ)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "the " + LoadWhat(F.First) + " into " + Name(F.First) +
                        " completes on " + BarrierName(F.First) +
                        "; wait on it before reading");
  }

  for (const ord::Finding &F : ord::asyncWarFence(K->Seq, K->G, Why)) {
    std::string Msg = LoadWhat(F.Second) + " overwrites " + Name(F.Second) +
                      " that generic loads read at line " +
                      Line(K->Events[F.First].Loc) +
                      " with no fence.proxy.async, thread barrier or mbarrier "
                      "hand-off in between (ASYNC-WAR-FENCE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "generic load of " + Name(F.First) + " here");
  }

  for (const ord::Finding &F : ord::asyncWarHandOff(K->Seq, K->G)) {
    std::size_t Arrive = *F.Wait;
    std::string Msg = LoadWhat(F.Second) + " overwrites " + Name(F.Second) +
                      " that generic loads read at line " +
                      Line(K->Events[F.First].Loc) +
                      " and hand back through the arrive on " + Name(Arrive) +
                      " at line " + Line(K->Events[Arrive].Loc) +
                      " with no fence.proxy.async before it: the copy may "
                      "overtake the reads (ASYNC-WAR-FENCE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "generic load of " + Name(F.First) + " here");
    NoteOp(Arrive, "each reading thread must execute "
                   "fence.proxy.async.shared::cta after its reads, before "
                   "this arrive");
  }

  for (const ord::Finding &F : ord::reuseBeforeRelease(K->Seq, K->G, Why)) {
    std::size_t Arrive = *F.Wait;
    std::string Msg =
        LoadWhat(F.Second) + " refills " + Name(F.Second) + " that " +
        (K->Seq[F.First].Mma ? "the MMA (shared-memory descriptor) reads"
                             : "generic loads read") +
        " at line " + Line(K->Events[F.First].Loc) +
        " in other threads' code and hands back through the arrive on " +
        Name(Arrive) + " at line " + Line(K->Events[Arrive].Loc) +
        ", but these threads never wait on " + Name(Arrive) +
        ": the copy may overwrite the stage before its reads are done "
        "(ASYNC-REUSE-BEFORE-RELEASE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, std::string(K->Seq[F.First].Mma ? "the MMA reads "
                                                     : "generic load of ") +
                        Name(F.First) + " here, after waiting on " +
                        Name(*F.Other));
    NoteOp(Arrive, "the readers release the stage here; wait on this "
                   "barrier's phase before the refill");
  }

  for (const ord::Finding &F : ord::expectAfterArrive(K->Seq, K->G)) {
    std::string Msg = "expect-tx on " + Name(F.Second) +
                      " after an arrive on it at line " +
                      Line(K->Events[F.First].Loc) +
                      ": the arrive may complete the phase before these bytes "
                      "are expected (MBAR-EXPECT-BEFORE-LAST-ARRIVE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "arrives here; expect the bytes before it, or use "
                    "mbarrier.arrive.expect_tx");
  }

  for (const ord::Finding &F : ord::waitByOtherThreads(K->Seq, K->G, K->Block)) {
    // A stage of a ring is overwritten Laps passes after its copy.
    std::string Target =
        F.Laps == 0
            ? Name(F.First) + " while the " + What(F.First) + " at line " +
                  Line(K->Events[F.First].Loc) + " may still read it"
            : "the stage of " + Name(F.First) + " that the " + What(F.First) +
                  " at line " + Line(K->Events[F.First].Loc) + " read " +
                  std::to_string(F.Laps) +
                  (F.Laps == 1 ? " pass" : " passes") +
                  " earlier (a ring of " + std::to_string(F.Laps) +
                  (F.Laps == 1 ? " stage" : " stages") + ") and may still read";
    std::string Msg =
        "generic store overwrites " + Target +
        ": the wait at line " + Line(K->Events[*F.Wait].Loc) +
        " waits only in the thread that issued the copy, and no thread "
        "barrier after it makes the others wait (BULK-WAITGROUP-SCOPE)";
    if (!Warn(K->Events[F.Second].Loc, Msg))
      continue;
    NoteOp(F.First, "the " + What(F.First) + " reads " + Name(F.First) +
                        " here, issued by the threads of this branch only");
  }

  for (const ord::Finding &F : ord::acquireAfterCopy(K->Seq, K->G)) {
    int M = K->Seq[F.First].Map;
    std::string Msg = std::string(K->Seq[F.First].Kind == ord::EventKind::Load
                                      ? LoadWhat(F.First)
                                      : What(F.First)) +
                      " reads the tensor map '" + K->Names[M] +
                      "' before its acquire fence at line " +
                      Line(K->Events[F.Second].Loc) +
                      ": the fence must precede the copy "
                      "(TMAP-PLACE-GLOBAL-FENCE)";
    if (!Warn(K->Events[F.First].Loc, Msg))
      continue;
    NoteOp(F.Second, "fence.proxy.tensormap::generic.acquire here");
  }

  for (const ord::Finding &F : ord::mapRewriteInFlight(K->Seq, K->G, Why)) {
    const ord::Event &Cp = K->Seq[F.First];
    bool Load = Cp.Kind == ord::EventKind::Load;
    std::string Copy = Load ? LoadWhat(F.First) : What(F.First);
    std::string Why;
    if (Load)
      Why = "no mbarrier wait in between completes it";
    else if (!F.Wait)
      Why = "no cp.async.bulk.wait_group.read in between completes its group";
    else if (F.Commits == 0)
      Why = "its group is not committed before the wait at line " +
            Line(K->Events[*F.Wait].Loc);
    else
      Why = "wait_group.read " + std::to_string(*K->Seq[*F.Wait].Depth) +
            " at line " + Line(K->Events[*F.Wait].Loc) +
            " lets its group stay pending";
    std::string Msg = "tensor map '" + K->Names[Cp.Map] +
                      "' is rewritten while the " + Copy + " at line " +
                      Line(K->Events[F.First].Loc) +
                      " may still read it: " + Why +
                      " (TMAP-INFLIGHT-IMMUTABLE)";
    std::optional<FixItHint> Fix;
    if (F.Wait && F.Commits > 0 && K->Events[*F.Wait].InBody)
      Fix = waitDepthFix(Body, K->Events[*F.Wait].Loc, *K->Seq[*F.Wait].Depth,
                         F.Commits - 1, *Result.Context);
    if (!Warn(K->Events[F.Second].Loc, Msg, Fix))
      continue;
    NoteOp(F.First, "the " + Copy + " reads the tensor map here");
    if (F.Wait && F.Commits > 0)
      diag(SM.getFileLoc(K->Events[*F.Wait].Loc),
           "wait_group.read %0 would complete the copy's group",
           DiagnosticIDs::Note)
          << static_cast<unsigned>(F.Commits - 1);
  }

  checkUninit(*Fn, *K, SM, Why);
  if (ExplainModel)
    explainModel(*Fn, K, SM, Silences);
}

/// The field a barrier group of the dynamic shared-memory pool \p Pool
/// lies in (`smem.full` -> `full`), from its name in messages; empty when
/// the group is not reached through a field.
llvm::StringRef poolField(const VarDecl &Pool, llvm::StringRef Name) {
  llvm::StringRef Root = Pool.getName();
  if (!Name.consume_front(Root) || !Name.consume_front("."))
    return {};
  return Name.take_until([](char C) { return C == '.' || C == '['; });
}

/// Whether \p VD is the dynamic shared-memory pool declared in \p Kernel's
/// body (`extern __shared__ char smem[];`).
bool kernelPool(const VarDecl &VD, const FunctionDecl &Kernel) {
  return VD.hasExternalStorage() && VD.hasAttr<CUDASharedAttr>() &&
         VD.getLexicalDeclContext() == &Kernel;
}

/// Whether the kernel's body reaches the member \p Field of a struct laid
/// over the pool \p Pool only through known uses: the pool initialises
/// only locals that lay a struct over it (`S &s = *reinterpret_cast<S
/// *>(pool)`); those are used only through members; the member \p Field
/// initialises only pointer locals (`uint64_t *full = s.full`), whose
/// references KnownUses judges, or is a known operand itself. No other
/// `extern __shared__` variable (the same pool) is named. \p Why says what
/// was not known.
struct PoolUses {
  const VarDecl &Pool;
  llvm::StringRef Field;
  KnownUses &Uses;
  llvm::SmallPtrSet<const VarDecl *, 4> Structs = {};
  const Type *View = nullptr;
  llvm::SmallVector<const VarDecl *, 4> Pointers = {};
  const char *Why = nullptr;

  static const DeclRefExpr *ref(const Expr *E) {
    E = E->IgnoreParenCasts();
    if (const auto *U = dyn_cast<UnaryOperator>(E);
        U && (U->getOpcode() == UO_Deref || U->getOpcode() == UO_AddrOf))
      E = U->getSubExpr()->IgnoreParenCasts();
    return dyn_cast<DeclRefExpr>(E);
  }
  /// The struct local that \p E selects a member of, or null.
  const MemberExpr *member(const Expr *E) const {
    const auto *M = dyn_cast<MemberExpr>(E->IgnoreParenImpCasts());
    const DeclRefExpr *Base = M ? ref(M->getBase()) : nullptr;
    const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    return VD && Structs.count(VD) ? M : nullptr;
  }

  bool walk(const Stmt *S) {
    if (!S || Why)
      return !Why;
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      for (const Decl *D : DS->decls()) {
        const auto *L = dyn_cast<VarDecl>(D);
        const Expr *Init = L ? L->getInit() : nullptr;
        if (!Init)
          continue;
        const DeclRefExpr *R = ref(Init);
        QualType T = L->getType().getNonReferenceType();
        if (R && R->getDecl() == &Pool && L->isLocalVarDecl() &&
            !L->isStaticLocal() &&
            (T->isRecordType() || T->getPointeeType()->isRecordType()) &&
            (L->getType()->isReferenceType() || T->isPointerType())) {
          // Two struct types laid over the pool may overlap anywhere.
          const Type *Rec = (T->isPointerType() ? T->getPointeeType() : T)
                                ->getCanonicalTypeUnqualified()
                                .getTypePtr();
          if (View && View != Rec) {
            Why = "the pool is viewed as more than one struct type";
            return false;
          }
          View = Rec;
          Structs.insert(L);
          continue;
        }
        if (const MemberExpr *M = member(Init);
            M && M->getMemberDecl()->getName() == Field &&
            L->isLocalVarDecl() && !L->isStaticLocal() &&
            T->isPointerType()) {
          Pointers.push_back(L);
          continue;
        }
        if (!walk(Init))
          return false;
      }
      return true;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(S)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (VD && VD->hasExternalStorage() && VD->hasAttr<CUDASharedAttr>())
        Why = "the pool is used other than through a struct laid over it";
      else if (VD && Structs.count(VD))
        Why = "the struct laid over the pool is used other than through "
              "its members";
      return !Why;
    }
    // `f(&s.full[i])`: a helper whose parameter has only known uses.
    if (const auto *C = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *FD = C->getDirectCallee(), *Def = nullptr;
      bool Helper = FD && FD->hasBody(Def) && Def &&
                    !isa<CXXOperatorCallExpr>(C);
      for (const Stmt *Child : S->children()) {
        unsigned I = 0;
        while (Helper && I < C->getNumArgs() && C->getArg(I) != Child)
          ++I;
        const MemberExpr *M = Helper && I < C->getNumArgs() &&
                                      I < Def->getNumParams()
                                  ? member(wholeArgument(C->getArg(I)))
                                  : nullptr;
        if (M && M->getMemberDecl()->getName() == Field) {
          unsigned Count = 0;
          if (!Uses.inside(Def->getBody(), Def->getParamDecl(I), 1, Count)) {
            Why = "the barrier's member goes to a helper whose uses of it "
                  "are not all known";
            return false;
          }
          continue;
        }
        if (!walk(Child))
          return false;
      }
      return true;
    }
    if (const auto *M = dyn_cast<MemberExpr>(S); M && member(M)) {
      if (M->getMemberDecl()->getName() != Field ||
          Uses.Known.count(ref(M->getBase())))
        return true;
      Why = "the barrier's member is used other than through a local "
            "pointer or a recognised op";
      return false;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      for (const Expr *Init : L->capture_inits())
        if (!walk(Init))
          return false;
      return walk(L->getBody());
    }
    for (const Stmt *Child : S->children())
      if (!walk(Child))
        return false;
    return true;
  }
};

namespace {
/// Whether an init of the pool's barriers at \p Init may initialise a
/// barrier at \p Use: the same offset, a member of the init loop's family,
/// or (a family used) some member of it. Unknown extents count as
/// reaching.
bool mayCover(const PoolSlot &Init, const PoolSlot &Use) {
  auto Member = [](std::int64_t At, const PoolSlot &F, bool Bounded) {
    if (At < F.Offset || (At - F.Offset) % F.Stride)
      return false;
    return !Bounded || !F.InitsKnown ||
           static_cast<std::uint64_t>((At - F.Offset) / F.Stride) <
               F.InitMembers;
  };
  if (!Init.Stride && !Use.Stride)
    return Init.Offset == Use.Offset;
  if (!Init.Stride) // some member of the used family may be it
    return Member(Init.Offset, Use, /*Bounded=*/false);
  if (!Use.Stride)
    return Member(Use.Offset, Init, /*Bounded=*/true);
  // Two families: apart only when the used one starts past the init
  // loop's last member.
  return !Init.InitsKnown ||
         Use.Offset < Init.Offset + static_cast<std::int64_t>(
                                        Init.InitMembers * Init.Stride);
}
} // namespace

void OrderingCheck::checkPoolSlots(const FunctionDecl &Kernel,
                                   const KernelSequence &K,
                                   const VarDecl &Pool,
                                   const SourceManager &SM,
                                   ord::Silences *Why) {
  const char *Rule = "MBAR-UNINIT";
  auto SlotOf = [&](int Obj) -> const PoolSlot * {
    if (Obj < 0 || K.Objects[Obj] != &Pool ||
        static_cast<std::size_t>(Obj) >= K.PoolSlots.size() ||
        !K.PoolSlots[Obj])
      return nullptr;
    return &*K.PoolSlots[Obj];
  };
  auto IsUse = [&](const ord::Event &E) {
    return E.Kind == ord::EventKind::BarrierUse ||
           E.Kind == ord::EventKind::BarrierWait;
  };
  std::optional<std::size_t> First;
  for (std::size_t I = 0; I < K.Seq.size() && !First; ++I)
    if (IsUse(K.Seq[I]) && K.Seq[I].Object >= 0 &&
        K.Objects[K.Seq[I].Object] == &Pool)
      First = I;
  if (!First)
    return;
  auto Quiet = [&](llvm::StringRef Text) {
    if (Why)
      Why->push_back({Rule, *First, Text.str(), std::nullopt});
  };
  // Every init must be told: one the model cannot place in the pool, a
  // call or instruction it does not follow, code elsewhere that names the
  // pool, another name of it, may initialise any barrier there.
  std::string Elsewhere;
  if (!Model->poolPrivate(&Kernel, &Elsewhere)) {
    Quiet("the barrier lies in the dynamic shared-memory pool, and " +
          Elsewhere + ": code there may initialise it");
    return;
  }
  llvm::SmallVector<const PoolSlot *, 16> Inits;
  for (std::size_t I = 0; I < K.Seq.size(); ++I) {
    const ord::Event &E = K.Seq[I];
    if (E.Kind == ord::EventKind::Opaque && !K.Events[I].NoInit) {
      Quiet("a call or instruction the model does not follow may "
            "initialise the pool's barriers");
      return;
    }
    if (E.Object >= 0 && K.Objects[E.Object] != &Pool &&
        K.Objects[E.Object]->hasExternalStorage() &&
        K.Objects[E.Object]->hasAttr<CUDASharedAttr>()) {
      Quiet("another extern __shared__ variable names the same pool");
      return;
    }
    if (E.Kind != ord::EventKind::BarrierInit || E.Object < 0 ||
        K.Objects[E.Object] != &Pool)
      continue;
    const PoolSlot *S = SlotOf(E.Object);
    if (!S) {
      Quiet("an mbarrier.init in the pool at an offset the model cannot "
            "fold may initialise any barrier there");
      return;
    }
    Inits.push_back(S);
  }
  llvm::StringSet<> Told;
  for (std::size_t I = 0; I < K.Seq.size(); ++I) {
    const ord::Event &E = K.Seq[I];
    const PoolSlot *U = IsUse(E) ? SlotOf(E.Object) : nullptr;
    if (!U || !Told.insert(K.Names[E.Object]).second)
      continue;
    if (llvm::any_of(Inits, [&](const PoolSlot *S) { return mayCover(*S, *U); }))
      continue;
    std::string Msg = "'" + K.Names[E.Object] +
                      "' is used here but no mbarrier.init in this kernel "
                      "initialises it (MBAR-UNINIT)";
    SourceLocation L = SM.getFileLoc(K.Events[I].Loc);
    if (once(L, Msg))
      diag(L, "%0") << Msg;
  }
}

void OrderingCheck::checkUninit(const FunctionDecl &Kernel,
                                const KernelSequence &K,
                                const SourceManager &SM, ord::Silences *Why) {
  const char *Rule = "MBAR-UNINIT";
  auto IsUse = [&](std::size_t I) {
    return K.Seq[I].Kind == ord::EventKind::BarrierUse ||
           K.Seq[I].Kind == ord::EventKind::BarrierWait;
  };
  // An init whose barrier the model cannot name may be any barrier's.
  for (std::size_t I = 0; I < K.Seq.size(); ++I)
    if (K.Seq[I].Kind == ord::EventKind::BarrierInit && K.Seq[I].Object < 0) {
      if (Why) {
        llvm::SmallPtrSet<const VarDecl *, 8> Told;
        for (std::size_t U = 0; U < K.Seq.size(); ++U)
          if (IsUse(U) && K.Seq[U].Object >= 0 &&
              Told.insert(K.Objects[K.Seq[U].Object]).second)
            Why->push_back({Rule, U,
                            "an mbarrier.init of a barrier the model cannot "
                            "name may initialise this one",
                            I});
      }
      return;
    }
  // A group of objects judged together: every object of one variable, or
  // of a member of a struct laid over the kernel's own dynamic
  // shared-memory pool (`s.full` with `S &s = *reinterpret_cast<S
  // *>(smem)`), which is the kernel's as much as a `__shared__` array is
  // when no code it may call names the pool.
  llvm::DenseSet<std::pair<const VarDecl *, llvm::StringRef>> Done;
  for (std::size_t Id = 0; Id < K.Objects.size(); ++Id) {
    const VarDecl *VD = K.Objects[Id];
    bool Pool = kernelPool(*VD, Kernel);
    llvm::StringRef Field = Pool ? poolField(*VD, K.Names[Id]) : "";
    llvm::StringRef Group = Field.empty() ? "" : llvm::StringRef(K.Names[Id]);
    if (!Done.insert({VD, Group}).second)
      continue;
    auto InGroup = [&](int Obj) {
      return Obj >= 0 && K.Objects[Obj] == VD &&
             (Group.empty() || K.Names[Obj] == Group);
    };
    std::optional<std::size_t> First;
    for (std::size_t I = 0; I < K.Seq.size() && !First; ++I)
      if (IsUse(I) && InGroup(K.Seq[I].Object))
        First = I;
    auto Quiet = [&](llvm::StringRef Text) {
      if (Why && First)
        Why->push_back({Rule, *First, Text.str(), std::nullopt});
    };
    // A barrier of the kernel's own (every use is in its body), a uint64_t
    // or a barrier class, or an array of them: no struct of several.
    if (!Pool && (!VD->isLocalVarDecl() ||
                  VD->getParentFunctionOrMethod() != &Kernel)) {
      Quiet("the barrier's variable is not declared in this kernel: "
            "code elsewhere may initialise it");
      continue;
    }
    if (Pool && Field.empty()) {
      checkPoolSlots(Kernel, K, *VD, SM, Why);
      continue;
    }
    QualType T = VD->getType();
    while (const ArrayType *A = T->getAsArrayTypeUnsafe())
      T = A->getElementType();
    const auto *RD = T->getAsCXXRecordDecl();
    if (!Pool && !T->isIntegerType() &&
        !(RD && RD->getIdentifier() &&
          RD->getName().contains_insensitive("barrier"))) {
      Quiet("the barrier is part of a variable of several members (a "
            "shared struct): its other members are not followed");
      continue;
    }
    unsigned Uses = 0, Inits = 0;
    bool Barrier = true;
    KnownRefs Known;
    for (std::size_t I = 0; I < K.Seq.size(); ++I) {
      const ord::Event &E = K.Seq[I];
      if (!InGroup(E.Object))
        continue;
      switch (E.Kind) {
      case ord::EventKind::BarrierInit:
        ++Inits;
        break;
      case ord::EventKind::BarrierUse:
      case ord::EventKind::BarrierWait:
        ++Uses;
        break;
      default:
        Barrier = false;
        break;
      }
      const KernelEvent &KE = K.Events[I];
      if (!KE.Op) {
        refsOrParamsTo(KE.Operand, Known);
        continue;
      }
      // In a helper, the operand names the helper's parameter.
      if (const OpValue *V = barrierOperand(*KE.Op))
        refsOrParamsTo(V->Written ? V->Written : V->E, Known);
    }
    // The body's references are counted only where the rule would report
    // with every use known.
    if (!Barrier && First && Inits == 0)
      Quiet("the variable also holds buffers (a byte array carved into "
            "barriers and tiles): the barriers in it are not told apart");
    if (!Barrier || !First || !ord::uninitialised(true, Uses, Inits))
      continue;
    unsigned Count = 0;
    const LangOptions &LO = Kernel.getASTContext().getLangOpts();
    KnownUses Refs{Known, *Finder,
                   [&](const Stmt *Body) { return bodyRuns(Body, SM, LO); },
                   0, LO.CUDAIsDevice};
    bool AllKnown;
    if (Pool) {
      std::string Elsewhere;
      if (!Model->poolPrivate(&Kernel, &Elsewhere)) {
        Quiet("the barrier lies in the dynamic shared-memory pool, and " +
              Elsewhere + ": code there may initialise it");
        continue;
      }
      PoolUses P{*VD, Field, Refs};
      AllKnown = P.walk(Kernel.getBody());
      for (const VarDecl *L : P.Pointers)
        AllKnown = AllKnown &&
                   Refs.all(Kernel.getBody(), Kernel.getBody(), L, 0, Count);
      if (P.Why) {
        Quiet(std::string("the barrier lies in a struct laid over the "
                          "dynamic shared-memory pool, and ") +
              P.Why + ": such a use may initialise it");
        continue;
      }
    } else {
      AllKnown = Refs.all(Kernel.getBody(), Kernel.getBody(), VD, 0, Count);
    }
    if (!ord::uninitialised(AllKnown, Uses, Inits)) {
      Quiet("a reference to the barrier that no event accounts for (a "
            "call or pointer the model does not follow) may initialise it");
      continue;
    }
    std::string Name = Group.empty() ? VD->getName().str() : Group.str();
    std::string Msg = "'" + Name +
                      "' is used here but no mbarrier.init in this kernel "
                      "initialises it (MBAR-UNINIT)";
    SourceLocation L = SM.getFileLoc(K.Events[*First].Loc);
    if (once(L, Msg))
      diag(L, "%0") << Msg;
  }
}

} // namespace clang::tidy::tma
