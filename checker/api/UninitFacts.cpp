//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/UninitFacts.h"
#include "api/CuteTensors.h"
#include "api/KernelEvents.h"
#include "api/OpAddressFacts.h"
#include "rules/OrderingRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"
#include <functional>
#include <string>

namespace ord = tma::rules::ordering;

namespace clang::tidy::tma {

namespace {

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

/// Whether a reference to \p V lies under \p S.
bool mentions(const Stmt *S, const ValueDecl *V) {
  if (!S)
    return false;
  if (refersTo(S, V))
    return true;
  for (const Stmt *Child : S->children())
    if (mentions(Child, V))
      return true;
  return false;
}

/// The reference \p E is (wholeArgument), or, for an integer local \p V
/// holding a shared address, the reference to V that \p E moves by terms
/// that do not name it (`a + s * 8`, `a + 64 + s * 8`, `a - 8`) or masks
/// (`(a + s * 8) & 0xFEFFFFFF`, the address in the cluster's first CTA):
/// an address among the barriers V points into.
const Expr *offsetArgument(const Expr *E, const ValueDecl *V) {
  const Expr *X = E->IgnoreParenCasts();
  while (V && V->getType()->isIntegerType()) {
    const auto *B = dyn_cast<BinaryOperator>(X);
    if (B && B->getType()->isIntegerType() && B->getOpcode() == BO_And &&
        isa<IntegerLiteral>(B->getRHS()->IgnoreParenImpCasts())) {
      X = B->getLHS()->IgnoreParenCasts();
      continue;
    }
    if (!B || !B->getType()->isIntegerType() ||
        (B->getOpcode() != BO_Add && B->getOpcode() != BO_Sub))
      break;
    const Expr *L = B->getLHS()->IgnoreParenCasts();
    const Expr *R = B->getRHS()->IgnoreParenCasts();
    if (!mentions(R, V))
      X = L;
    else if (B->getOpcode() == BO_Add && !mentions(L, V))
      X = R;
    else
      break;
  }
  return refersTo(X, V) ? X : wholeArgument(E);
}

/// The array \p E is an element of (`bar[i]`, `p[i][j]`), else \p E.
const Expr *elementBase(const Expr *E) {
  E = E->IgnoreParenCasts();
  while (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    E = A->getBase()->IgnoreParenImpCasts();
  return E;
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
  bool all(const Stmt *S, const Stmt *Body, const ValueDecl *V, unsigned Depth,
           unsigned &Count) {
    if (!S)
      return true;
    if (refersTo(S, V)) {
      bool K = Known.count(cast<Expr>(S));
      Count += K;
      return K;
    }
    // Inline PTX that issues no mbarrier.init (`tcgen05.commit` on the
    // barrier, an instruction the model lacks) reads V's address and
    // initialises nothing; one that may write V is unknown.
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      const auto *Text =
          dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
      if (!Text || Text->getString().contains("call"))
        return !mentions(S, V);
      // An init: known where it is an event of the group (its operands
      // are Known).
      if (Text->getString().contains("mbarrier.init")) {
        for (const Stmt *Child : S->children())
          if (!all(Child, Body, V, Depth, Count))
            return false;
        return true;
      }
      for (const Expr *Out : Asm->outputs())
        if (mentions(Out, V))
          return false;
      for (const Expr *In : Asm->inputs())
        Count += mentions(In, V);
      return true;
    }
    if (const auto *L = dyn_cast<LambdaExpr>(S)) {
      // A capture of V itself names it in the body, walked below.
      for (const Expr *Init : L->capture_inits())
        if (Init && !refersTo(Init->IgnoreParenImpCasts(), V) &&
            !all(Init, Body, V, Depth, Count))
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
            refersTo(offsetArgument(Finder.lookThrough(Init), V), V)) {
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
        W && cute::isTmaLoadWith(*W)) {
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
    const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr, *Def = nullptr;
    bool Helper = FD && FD->hasBody(Def) && Def && Depth < 4 &&
                  !isa<CXXOperatorCallExpr>(C);
    const auto *MC = Helper ? dyn_cast<CXXMemberCallExpr>(C) : nullptr;
    const auto *MD = MC ? dyn_cast<CXXMethodDecl>(Def) : nullptr;
    for (const Stmt *Child : S->children()) {
      unsigned I = 0;
      while (Helper && I < C->getNumArgs() && C->getArg(I) != Child)
        ++I;
      const Expr *Whole =
          Helper && I < C->getNumArgs() && I < Def->getNumParams()
              ? offsetArgument(C->getArg(I), V)
              : nullptr;
      // `init(cvta(bar), n)`: the address conversion passes V on.
      if (Whole && !refersTo(Whole, V))
        Whole = offsetArgument(Finder.lookThrough(C->getArg(I)), V);
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
            L->isLocalVarDecl() && !L->isStaticLocal() && T->isPointerType()) {
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
      bool Helper =
          FD && FD->hasBody(Def) && Def && !isa<CXXOperatorCallExpr>(C);
      for (const Stmt *Child : S->children()) {
        unsigned I = 0;
        while (Helper && I < C->getNumArgs() && C->getArg(I) != Child)
          ++I;
        const MemberExpr *M =
            Helper && I < C->getNumArgs() && I < Def->getNumParams()
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

/// The pool's barriers named by their byte offsets (PoolSlot).
ord::PoolSlotFacts poolSlotFacts(const FunctionDecl &Kernel,
                                 const KernelSequence &K, const VarDecl &Pool,
                                 KernelModel &Model, const SourceManager &SM) {
  ord::PoolSlotFacts P;
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
  for (std::size_t I = 0; I < K.Seq.size() && !P.First; ++I)
    if (IsUse(K.Seq[I]) && K.Seq[I].Object >= 0 &&
        K.Objects[K.Seq[I].Object] == &Pool)
      P.First = I;
  if (!P.First)
    return P;
  std::string Elsewhere;
  if (!Model.poolPrivate(&Kernel, &Elsewhere)) {
    P.SharedWith = Elsewhere;
    return P;
  }
  for (std::size_t I = 0; I < K.Seq.size(); ++I) {
    const ord::Event &E = K.Seq[I];
    if (E.Kind == ord::EventKind::Opaque && !K.Events[I].NoInit) {
      P.Hidden = ord::PoolSlotFacts::Hider::Opaque;
      P.HiderLine = SM.getPresumedLineNumber(SM.getFileLoc(K.Events[I].OpLoc));
      return P;
    }
    if (E.Object >= 0 && K.Objects[E.Object] != &Pool &&
        K.Objects[E.Object]->hasExternalStorage() &&
        K.Objects[E.Object]->hasAttr<CUDASharedAttr>()) {
      P.Hidden = ord::PoolSlotFacts::Hider::OtherName;
      return P;
    }
    if (E.Kind != ord::EventKind::BarrierInit || E.Object < 0 ||
        K.Objects[E.Object] != &Pool)
      continue;
    const PoolSlot *S = SlotOf(E.Object);
    if (!S) {
      P.Hidden = ord::PoolSlotFacts::Hider::UnknownOffset;
      return P;
    }
    P.Slots.Inits.push_back(*S);
    P.Slots.InitEvents.push_back(I);
    P.Slots.InitNames.push_back(K.Names[E.Object]);
  }
  llvm::StringSet<> Told;
  for (std::size_t I = 0; I < K.Seq.size(); ++I) {
    const ord::Event &E = K.Seq[I];
    const PoolSlot *U = IsUse(E) ? SlotOf(E.Object) : nullptr;
    if (U && Told.insert(K.Names[E.Object]).second)
      P.Slots.Uses.push_back({I, *U, K.Names[E.Object]});
    // The member a family's index names the first time the use runs.
    if (U && U->Stride && E.FirstMember >= 0) {
      PoolSlot M{U->Offset + U->Stride * E.FirstMember, 0, 0};
      std::string Name = Pool.getName().str();
      if (M.Offset)
        Name += " + " + std::to_string(M.Offset);
      P.Slots.Members.push_back({I, M, Name, K.Names[E.Object]});
    }
  }
  return P;
}

/// The name in messages of the barrier (Stride 0) or family \p S of the
/// array \p VD, in elements of it as one dimension: `bars[3]`,
/// `bars[7 + s]`, `pingpong[1][s]`, `bars[2 * s][1]`.
std::string elementName(const VarDecl &VD, const PoolSlot &S) {
  auto Term = [](std::int64_t C, std::int64_t K) {
    std::string T = K == 1 ? "s" : std::to_string(K) + " * s";
    if (!K)
      return std::to_string(C);
    return C ? std::to_string(C) + " + " + T : T;
  };
  std::string N = VD.getName().str();
  const auto *Outer =
      VD.getASTContext().getAsConstantArrayType(VD.getType());
  const auto *Inner =
      Outer ? VD.getASTContext().getAsConstantArrayType(Outer->getElementType())
            : nullptr;
  auto Row = Inner ? static_cast<std::int64_t>(Inner->getSize().getLimitedValue())
                   : 0;
  if (!Row || (S.Stride % Row && S.Stride >= Row))
    return N + "[" + Term(S.Offset, S.Stride) + "]";
  bool OuterIndex = S.Stride && S.Stride % Row == 0;
  return N + "[" + Term(S.Offset / Row, OuterIndex ? S.Stride / Row : 0) +
         "][" + Term(S.Offset % Row, OuterIndex ? 0 : S.Stride) + "]";
}

/// The barriers of a `__shared__` array (no extern pool) named by their
/// elements (BarrierName::ElementOffset), where the group has inits and
/// some use may reach an element none covers: every init and the first use
/// of each barrier or family, as for the pool's barriers; std::nullopt when
/// every use is covered (or the group's events show nothing to judge).
/// \p AllKnown tells, asked only then, whether every reference to the
/// array is known (KnownUses).
std::optional<ord::PoolSlotFacts>
arraySlotFacts(const VarDecl &VD, const KernelSequence &K,
               const std::vector<bool> &InGroup,
               const ord::BarrierGroupEvents &G,
               llvm::function_ref<bool()> AllKnown) {
  if (!G.First || G.Buffer || !G.Inits)
    return std::nullopt;
  ord::PoolSlotFacts P;
  P.First = G.First;
  auto SlotOf = [&](int Obj) -> const PoolSlot * {
    if (Obj < 0 || static_cast<std::size_t>(Obj) >= InGroup.size() ||
        !InGroup[Obj] || static_cast<std::size_t>(Obj) >= K.PoolSlots.size() ||
        !K.PoolSlots[Obj])
      return nullptr;
    return &*K.PoolSlots[Obj];
  };
  llvm::StringSet<> Told;
  for (std::size_t I = 0; I < K.Seq.size(); ++I) {
    const ord::Event &E = K.Seq[I];
    if (E.Object < 0 || static_cast<std::size_t>(E.Object) >= InGroup.size() ||
        !InGroup[E.Object])
      continue;
    const PoolSlot *S = SlotOf(E.Object);
    if (E.Kind == ord::EventKind::BarrierInit) {
      // An init the model cannot place among the array's elements may
      // initialise any of them.
      if (!S)
        return std::nullopt;
      P.Slots.Inits.push_back(*S);
      P.Slots.InitEvents.push_back(I);
      P.Slots.InitNames.push_back(elementName(VD, *S));
      continue;
    }
    if (!S || (E.Kind != ord::EventKind::BarrierUse &&
               E.Kind != ord::EventKind::BarrierWait))
      continue;
    std::string Name = elementName(VD, *S);
    if (Told.insert(Name).second)
      P.Slots.Uses.push_back({I, *S, Name});
    if (S->Stride && E.FirstMember >= 0) {
      PoolSlot M{S->Offset + S->Stride * E.FirstMember, 0, 0};
      P.Slots.Members.push_back({I, M, elementName(VD, M), Name});
    }
  }
  if (ord::uninitialisedPoolBarriers(P.Slots).empty() &&
      ord::uninitialisedPoolMembers(P.Slots).empty())
    return std::nullopt;
  if (!AllKnown())
    P.Hidden = ord::PoolSlotFacts::Hider::UnknownReference;
  return P;
}

} // namespace

ord::UninitFacts uninitFacts(const FunctionDecl &Kernel,
                             const KernelSequence &K, KernelModel &Model,
                             DeviceOpsFinder &Finder, const SourceManager &SM,
                             std::function<bool(const Stmt *)> BodyRuns) {
  ord::UninitFacts F;
  auto IsUse = [&](std::size_t I) {
    return K.Seq[I].Kind == ord::EventKind::BarrierUse ||
           K.Seq[I].Kind == ord::EventKind::BarrierWait;
  };
  if (std::optional<std::size_t> I = ord::unnamedInit(K.Seq)) {
    F.UnnamedInit = I;
    llvm::SmallPtrSet<const VarDecl *, 8> Told;
    for (std::size_t U = 0; U < K.Seq.size(); ++U)
      if (IsUse(U) && K.Seq[U].Object >= 0 &&
          Told.insert(K.Objects[K.Seq[U].Object]).second)
        F.FirstUses.push_back(U);
    return F;
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
    std::vector<bool> InGroup(K.Objects.size());
    for (std::size_t Obj = Id; Obj < K.Objects.size(); ++Obj)
      InGroup[Obj] =
          K.Objects[Obj] == VD && (Group.empty() || K.Names[Obj] == Group);
    ord::UninitGroupFacts &G = F.Groups.emplace_back();
    G.Name = Group.empty() ? VD->getName().str() : Group.str();
    G.Events = ord::barrierGroupEvents(K.Seq, InGroup);
    // A barrier of the kernel's own (every use is in its body), a uint64_t
    // or a barrier class, or an array of them: no struct of several.
    if (!Pool &&
        (!VD->isLocalVarDecl() || VD->getParentFunctionOrMethod() != &Kernel)) {
      G.Foreign = true;
      continue;
    }
    if (Pool && Field.empty()) {
      G.Slots = poolSlotFacts(Kernel, K, *VD, Model, SM);
      continue;
    }
    QualType T = VD->getType();
    while (const ArrayType *A = T->getAsArrayTypeUnsafe())
      T = A->getElementType();
    const auto *RD = T->getAsCXXRecordDecl();
    // A class that wraps one mbarrier word (ThunderKittens' `semaphore`)
    // is one barrier, as a class named for one is.
    if (!Pool && !T->isIntegerType() &&
        !(RD && ((RD->getIdentifier() &&
                  RD->getName().contains_insensitive("barrier")) ||
                 events::oneWordField(*RD)))) {
      G.SeveralMembers = true;
      continue;
    }
    // The operands of the group's events are its known references.
    KnownRefs Known;
    auto KnownOperands = [&] {
      for (std::size_t I = 0; I < K.Seq.size(); ++I) {
        int Obj = K.Seq[I].Object;
        if (Obj < 0 || !InGroup[Obj])
          continue;
        const KernelEvent &KE = K.Events[I];
        if (!KE.Op) {
          refsOrParamsTo(KE.Operand, Known);
          continue;
        }
        // In a helper, the operand names the helper's parameter.
        if (const OpValue *V = barrierOperand(*KE.Op))
          refsOrParamsTo(V->Written ? V->Written : V->E, Known);
      }
    };
    unsigned Count = 0;
    const LangOptions &LO = Kernel.getASTContext().getLangOpts();
    KnownUses Refs{Known, Finder, BodyRuns, 0, LO.CUDAIsDevice};
    // The body's references are read only where the rule would report
    // with every use known. An array with inits whose barriers are named
    // by element: an init of some of them leaves the others uninitialised.
    if (!ord::mayBeUninitialised(G.Events)) {
      if (!Pool)
        G.Slots = arraySlotFacts(*VD, K, InGroup, G.Events, [&] {
          KnownOperands();
          return Refs.all(Kernel.getBody(), Kernel.getBody(), VD, 0, Count);
        });
      continue;
    }
    KnownOperands();
    if (Pool) {
      std::string Elsewhere;
      if (!Model.poolPrivate(&Kernel, &Elsewhere)) {
        G.PoolSharedWith = Elsewhere;
        continue;
      }
      PoolUses P{*VD, Field, Refs};
      G.AllKnown = P.walk(Kernel.getBody());
      for (const VarDecl *L : P.Pointers)
        G.AllKnown = G.AllKnown &&
                     Refs.all(Kernel.getBody(), Kernel.getBody(), L, 0, Count);
      if (P.Why) {
        G.PoolUnknownUse = P.Why;
        continue;
      }
    } else {
      G.AllKnown = Refs.all(Kernel.getBody(), Kernel.getBody(), VD, 0, Count);
    }
  }
  return F;
}

} // namespace clang::tidy::tma
