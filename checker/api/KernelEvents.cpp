//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/KernelEvents.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <algorithm>

namespace clang::tidy::tma::events {

namespace {
bool isWarpCollective(llvm::StringRef Name) {
  // Shuffles, votes, matches and reductions exchange registers within a
  // warp: they order no memory.
  for (llvm::StringRef Part :
       {"shfl", "vote", "ballot", "match_a", "redux", "reduce_", "activemask",
        "any_sync", "all_sync", "uni_sync"})
    if (Name.contains(Part))
      return true;
  return false;
}
} // namespace

IntrinsicRole builtinRole(llvm::StringRef Name) {
  if (Name.contains("mbarrier"))
    return IntrinsicRole::Opaque; // an mbarrier op the model lacks
  if (isWarpCollective(Name))
    return IntrinsicRole::None;
  // __syncwarp orders the threads of one warp only.
  if (Name == "__nvvm_bar_warp_sync")
    return IntrinsicRole::WarpSync;
  if (Name.starts_with("__syncthreads") || Name.starts_with("__nvvm_bar0_") ||
      Name == "__nvvm_bar_sync" || Name.starts_with("__nvvm_barrier_sync") ||
      Name.starts_with("__nvvm_barrier_cluster_"))
    return IntrinsicRole::ThreadSync;
  if (Name.contains("sync") || Name.contains("bar") || Name.contains("fence") ||
      Name.contains("membar"))
    return IntrinsicRole::Opaque;
  return IntrinsicRole::None;
}

namespace {
bool inCooperativeGroups(const Decl &D) {
  for (const DeclContext *DC = D.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *N = dyn_cast<NamespaceDecl>(DC);
        N && N->getIdentifier() && N->getName() == "cooperative_groups")
      return N->getParent()->getRedeclContext()->isTranslationUnit();
  return false;
}
} // namespace

namespace {
bool quietBodySkipped(const FunctionDecl &FD) {
  for (const FunctionDecl *R : FD.redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == QuietBodySkipped)
        return true;
  return false;
}
} // namespace

IntrinsicRole bodylessRole(const FunctionDecl &FD) {
  // A body tma-clangd left out of its preamble as showing nothing.
  if (quietBodySkipped(FD))
    return IntrinsicRole::None;
  llvm::StringRef Name = FD.getIdentifier() ? FD.getName() : "";
  if (inCooperativeGroups(FD)) {
    // The queries of a group order nothing; a thread block's sync() is
    // __syncthreads.
    if (llvm::is_contained({"this_thread_block", "thread_rank", "size",
                            "num_threads", "thread_index", "group_index",
                            "dim_threads", "meta_group_rank",
                            "meta_group_size"},
                           Name))
      return IntrinsicRole::None;
    const auto *RD = dyn_cast<CXXRecordDecl>(FD.getDeclContext());
    if (Name == "sync" && RD && RD->getIdentifier() &&
        RD->getName() == "thread_block")
      return IntrinsicRole::ThreadSync;
    return IntrinsicRole::Opaque;
  }
  if (!Name.starts_with("__"))
    return IntrinsicRole::Opaque;
  if (isWarpCollective(Name))
    return IntrinsicRole::None;
  if (Name.starts_with("__syncthreads") || Name == "__barrier_sync" ||
      Name == "__barrier_sync_count")
    return IntrinsicRole::ThreadSync;
  if (Name == "__syncwarp")
    return IntrinsicRole::WarpSync;
  // CUDA intrinsics (address conversions, math) order nothing; anything
  // that may synchronise, fence, wait or arrive may.
  if (Name.contains("sync") || Name.contains("fence") || Name.contains("bar") ||
      Name.contains("wait") || Name.contains("arrive"))
    return IntrinsicRole::Opaque;
  return IntrinsicRole::None;
}

namespace {
/// Whether \p DC is namespace `cuda` (or an inline namespace in it) right
/// under the translation unit, or \p Inner below it (`cuda::device`).
bool inCudaNamespace(const DeclContext *DC, llvm::StringRef Inner = "") {
  auto Skip = [](const DeclContext *C) {
    while (C && isa<NamespaceDecl>(C) && cast<NamespaceDecl>(C)->isInline())
      C = C->getParent();
    return C;
  };
  DC = Skip(DC);
  if (!Inner.empty()) {
    const auto *N = dyn_cast_or_null<NamespaceDecl>(DC);
    if (!N || N->getName() != Inner)
      return false;
    DC = Skip(N->getParent());
  }
  const auto *N = dyn_cast_or_null<NamespaceDecl>(DC);
  return N && N->getName() == "cuda" &&
         N->getParent()->getRedeclContext()->isTranslationUnit();
}

} // namespace

bool isCudaBarrier(const CXXRecordDecl *RD) {
  return RD && RD->getIdentifier() && RD->getName() == "barrier" &&
         inCudaNamespace(RD->getDeclContext());
}
static bool isCudaBarrier(QualType T) {
  return isCudaBarrier(T->getAsCXXRecordDecl());
}

const FieldDecl *oneWordField(const RecordDecl &R) {
  const RecordDecl *RD = R.getDefinition();
  if (!RD || RD->isInvalidDecl() || RD->isDependentType() || RD->isUnion() ||
      RD->field_empty() || std::next(RD->field_begin()) != RD->field_end())
    return nullptr;
  if (const auto *CRD = dyn_cast<CXXRecordDecl>(RD);
      CRD && (CRD->getNumBases() || CRD->isPolymorphic()))
    return nullptr;
  const FieldDecl *FD = *RD->field_begin();
  const ASTContext &Ctx = RD->getASTContext();
  QualType T = FD->getType();
  if (FD->isBitField() || T->isDependentType() || !T->isIntegerType() ||
      Ctx.getTypeSizeInChars(T).getQuantity() != 8 ||
      Ctx.getASTRecordLayout(RD).getSize().getQuantity() != 8)
    return nullptr;
  return FD;
}

bool ordersNothing(const FunctionDecl &FD) {
  return FD.getIdentifier() && FD.getName() == "fence_mbarrier_init" &&
         inCudaNamespace(FD.getDeclContext(), "ptx");
}

const Expr *libcudacxxInitBarrier(const FunctionDecl &FD, const CallExpr &C) {
  if (!FD.getIdentifier() || FD.getName() != "init" ||
      isa<CXXMethodDecl>(FD) || C.getNumArgs() < 2)
    return nullptr;
  QualType T = C.getArg(0)->IgnoreParenImpCasts()->getType();
  if (!T->isPointerType() || !isCudaBarrier(T->getPointeeType()))
    return nullptr;
  return C.getArg(0);
}

BarrierMember barrierMember(const CXXMethodDecl &MD) {
  BarrierMember R;
  const CXXRecordDecl *RD = MD.getParent();
  if (!MD.getIdentifier() || !RD || !RD->getIdentifier() || MD.isStatic())
    return R;
  llvm::StringRef Name = MD.getName(), Record = RD->getName();
  if (isCudaBarrier(RD)) {
    R.Arrives = Name == "arrive" || Name == "arrive_and_wait";
    R.Waits = Name == "wait" || Name == "arrive_and_wait" ||
              Name == "wait_parity";
    return R;
  }
  const auto *Arch = dyn_cast<NamespaceDecl>(RD->getDeclContext());
  const auto *Cutlass =
      Arch ? dyn_cast<NamespaceDecl>(Arch->getDeclContext()) : nullptr;
  if ((Record == "ClusterBarrier" || Record == "ClusterTransactionBarrier") &&
      Arch && Arch->getName() == "arch" && Cutlass &&
      Cutlass->getName() == "cutlass") {
    // arrive(cta_id, pred) arrives on another CTA's barrier: not this one.
    R.Arrives = Name == "arrive" && MD.getNumParams() == 0;
    R.Waits = Name == "wait" && MD.getNumParams() == 1;
    R.BodyModelled = true;
  }
  return R;
}

std::optional<unsigned> memoryOperand(llvm::StringRef Operands) {
  std::size_t Open = Operands.find('[');
  if (Open == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Rest = Operands.drop_front(Open + 1).ltrim();
  unsigned Index = 0;
  if (!Rest.consume_front("%") || Rest.consumeInteger(10, Index))
    return std::nullopt;
  return Index;
}

std::optional<unsigned> asmSharedReadOperand(llvm::StringRef Opcode,
                                             llvm::StringRef Operands) {
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  Opcode.split(Parts, '.');
  if (Parts.empty())
    return std::nullopt;
  // ld{.weak,.volatile,.relaxed.scope,...}.shared{::cta}.type; ldmatrix
  // reads shared memory whether or not .shared is written.
  bool Shared = false;
  for (llvm::StringRef P : llvm::ArrayRef(Parts).drop_front())
    if (P == "shared" || P == "shared::cta")
      Shared = true;
  if (Parts[0] == "ldmatrix" || (Parts[0] == "ld" && Shared))
    return memoryOperand(Operands);
  return std::nullopt;
}

llvm::SmallVector<unsigned, 2> mmaDescriptorOperands(llvm::StringRef Opcode,
                                                     llvm::StringRef Operands) {
  llvm::SmallVector<unsigned, 2> Out;
  bool Wgmma = Opcode.starts_with("wgmma.mma_async");
  // tcgen05.mma{.sp,.ws}.cta_group.kind: a and b come first in every form.
  bool Umma =
      Opcode == "tcgen05.mma" || Opcode.starts_with("tcgen05.mma.");
  if (!Wgmma && !Umma)
    return Out;
  // The operands at the top level, braces and brackets kept whole.
  llvm::SmallVector<llvm::StringRef, 6> Parts;
  unsigned Nest = 0;
  std::size_t Start = 0;
  for (std::size_t I = 0; I < Operands.size() && Parts.size() < 3; ++I) {
    char C = Operands[I];
    if (C == '{' || C == '[')
      ++Nest;
    else if ((C == '}' || C == ']') && Nest)
      --Nest;
    else if (C == ',' && !Nest) {
      Parts.push_back(Operands.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  if (Parts.size() < 3)
    Parts.push_back(Operands.drop_front(Start).trim());
  if (Parts.size() < 3)
    return Out;
  // a (a register fragment or a tensor-memory address is no descriptor),
  // then b.
  for (llvm::StringRef P : {Parts[1], Parts[2]}) {
    unsigned N = 0;
    if (P.consume_front("%") && !P.consumeInteger(10, N) && P.empty())
      Out.push_back(N);
  }
  return Out;
}

llvm::SmallVector<AsmLine, 4> asmLines(llvm::StringRef Text) {
  llvm::SmallVector<AsmLine, 4> Out;
  llvm::SmallVector<llvm::StringRef, 16> Lines;
  Text.split(Lines, ';');
  for (llvm::StringRef Line : Lines) {
    // Several instructions may share a line; braces and labels go.
    Line = Line.trim(" \t\r\n{}");
    if (Line.contains(':') && !Line.contains("::"))
      Line = Line.split(':').second.trim(" \t\r\n{}");
    while (Line.contains('\n'))
      Line = Line.split('\n').second.trim(" \t\r{}");
    if (Line.consume_front("@"))
      Line = Line.split(' ').second.trim();
    auto [Opcode, Operands] = Line.split(' ');
    Opcode = Opcode.split('\t').first;
    AsmLine L{AsmLineKind::Opaque, Opcode, Operands, std::nullopt};
    if (Opcode.starts_with("cp.async.bulk.commit_group")) {
      L.Kind = AsmLineKind::Commit;
    } else if (Opcode.starts_with("cp.async.bulk.wait_group")) {
      L.Kind = AsmLineKind::WaitGroup;
    } else if (Opcode.starts_with("stmatrix") ||
               Opcode.starts_with("st.shared")) {
      L.Kind = AsmLineKind::SharedWrite;
      L.Address = memoryOperand(Operands);
    } else if (auto Read = asmSharedReadOperand(Opcode, Operands)) {
      L.Kind = AsmLineKind::SharedRead;
      L.Address = Read;
    } else if (!mmaDescriptorOperands(Opcode, Operands).empty()) {
      L.Kind = AsmLineKind::MmaRead;
    } else if (Opcode.starts_with("cp.async.wait_group") ||
               Opcode.starts_with("cp.async.wait_all")) {
      L.Kind = AsmLineKind::CpAsyncWait;
    } else if (Opcode.starts_with("bar.warp.")) {
      L.Kind = AsmLineKind::WarpSync;
    } else if (Opcode.starts_with("bar.") || Opcode.starts_with("barrier.")) {
      L.Kind = AsmLineKind::ThreadSync;
    } else if (Opcode.starts_with("mbarrier.inval")) {
      L.Kind = AsmLineKind::Inval;
    } else if ((Opcode.starts_with("tensormap.replace") &&
                Opcode.contains(".global.")) ||
               Opcode.starts_with("tensormap.cp_fenceproxy.global")) {
      L.Kind = AsmLineKind::MapWrite;
    } else if (Opcode.starts_with("mbarrier.") ||
               Opcode.starts_with("cp.async.bulk") ||
               Opcode.starts_with("cp.reduce.async.bulk") ||
               Opcode.starts_with("st.bulk") ||
               Opcode.starts_with("fence.proxy") ||
               Opcode.starts_with("fence.mbarrier_init")) {
      L.Kind = AsmLineKind::Tma;
    } else if (!Opcode.starts_with("fence.") &&
               !Opcode.starts_with("membar.")) {
      continue; // nothing the model reads
    }
    Out.push_back(L);
  }
  return Out;
}

namespace {
bool holdsGroupAsm(const Stmt *S, unsigned &Budget) {
  if (!S || ++Budget > 512)
    return false;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    const auto *Text = dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
    return Text &&
           llvm::any_of(asmLines(Text->getString()), [](const AsmLine &L) {
             return L.Kind == AsmLineKind::Commit ||
                    L.Kind == AsmLineKind::WaitGroup;
           });
  }
  for (const Stmt *C : S->children())
    if (holdsGroupAsm(C, Budget))
      return true;
  return false;
}
} // namespace

bool groupBodyDecides(const FunctionDecl &FD) {
  const FunctionDecl *Def = nullptr;
  if (!FD.hasBody(Def) || !Def)
    return false;
  const FunctionDecl *Written = Def->getTemplateInstantiationPattern();
  const Stmt *Body =
      Written && Written->getBody() ? Written->getBody() : Def->getBody();
  unsigned Budget = 0;
  return holdsGroupAsm(Body, Budget);
}

namespace {
/// Whether \p E is a glvalue of class type: the source of a copy or move.
bool classLValue(const Expr *E) {
  return E && E->isGLValue() && E->getType()->isRecordType();
}

/// Whether \p S, part of a member's body, reads the object `this` points
/// to: `*this`, or a field of it that is no array, used other than by its
/// address. A budget bounds the walk (spent: not known, no).
bool readsThis(const Stmt *S, const Stmt *Parent, unsigned &Budget) {
  if (!S || ++Budget > 256)
    return false;
  const auto *Up = dyn_cast_or_null<UnaryOperator>(Parent);
  const bool Addressed = Up && Up->getOpcode() == UO_AddrOf;
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->getOpcode() == UO_Deref &&
      isa<CXXThisExpr>(U->getSubExpr()->IgnoreParenImpCasts()))
    return !Addressed;
  if (const auto *M = dyn_cast<MemberExpr>(S);
      M && isa<FieldDecl>(M->getMemberDecl()) &&
      isa<CXXThisExpr>(M->getBase()->IgnoreParenImpCasts()))
    return !Addressed && !M->getType()->isArrayType();
  for (const Stmt *C : S->children())
    if (readsThis(C, S, Budget))
      return true;
  return false;
}

/// The object that \p C reads by value through a member of a small value
/// class (a cutlass `half_t`'s `operator float()`, a const `to_half()` or
/// `operator*`): a conversion operator or a const member that returns a
/// value (no reference, pointer or void) of a trivially copyable class of
/// at most 16 bytes, whose body reads `*this` or a field of it. The call
/// reads its object as a copy would; null for any other call (a barrier's
/// members, an index or address helper, a non-const member: walked).
const Expr *valueMemberObject(const CallExpr &C) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C.getDirectCallee());
  if (!MD || MD->isStatic() || !(MD->isConst() || isa<CXXConversionDecl>(MD)))
    return nullptr;
  const Expr *Obj = nullptr;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(&C))
    Obj = MC->getImplicitObjectArgument();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(&C);
           Op && !Op->isAssignmentOp() && Op->getNumArgs() >= 1)
    Obj = Op->getArg(0);
  if (!classLValue(Obj))
    return nullptr;
  QualType Ret = MD->getReturnType();
  if (Ret->isVoidType() || Ret->isReferenceType() || Ret->isPointerType())
    return nullptr;
  const CXXRecordDecl *RD = MD->getParent()->getDefinition();
  if (!RD || RD->isInvalidDecl() || RD->isDependentType() ||
      !RD->isTriviallyCopyable() || isCudaBarrier(RD) ||
      MD->getASTContext().getASTRecordLayout(RD).getSize().getQuantity() > 16)
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return nullptr;
  unsigned Budget = 0;
  return readsThis(Def->getBody(), nullptr, Budget) ? Obj : nullptr;
}
} // namespace

llvm::SmallVector<Access, 2> accessesOf(const Stmt *S) {
  llvm::SmallVector<Access, 2> Out;
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isCompoundAssignmentOp())
      Out.push_back({B->getLHS(), false, B->getOperatorLoc()});
    if (B->isAssignmentOp())
      Out.push_back({B->getLHS(), true, B->getOperatorLoc()});
    return Out;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp()) {
      Out.push_back({U->getSubExpr(), false, U->getOperatorLoc()});
      Out.push_back({U->getSubExpr(), true, U->getOperatorLoc()});
    }
    return Out;
  }
  if (const auto *C = dyn_cast<ImplicitCastExpr>(S)) {
    if (C->getCastKind() == CK_LValueToRValue)
      Out.push_back({C->getSubExpr(), false, C->getBeginLoc()});
    return Out;
  }
  if (const auto *C = dyn_cast<CallExpr>(S))
    if (const Expr *Obj = valueMemberObject(*C)) {
      Out.push_back({Obj, false, Obj->getBeginLoc()});
      return Out;
    }
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (!Op->isAssignmentOp() || Op->getNumArgs() != 2)
      return Out;
    // `a[i] = b[j]` copies b[j]; `a[i] += x` reads a[i] first.
    if (classLValue(Op->getArg(1)))
      Out.push_back({Op->getArg(1), false, Op->getOperatorLoc()});
    if (Op->getOperator() != OO_Equal)
      Out.push_back({Op->getArg(0), false, Op->getOperatorLoc()});
    Out.push_back({Op->getArg(0), true, Op->getOperatorLoc()});
    return Out;
  }
  if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
    const CXXConstructorDecl *Ctor = C->getConstructor();
    if (Ctor && Ctor->isCopyOrMoveConstructor() && C->getNumArgs() >= 1 &&
        classLValue(C->getArg(0)))
      Out.push_back({C->getArg(0), false, C->getBeginLoc()});
    return Out;
  }
  return Out;
}

bool selectsElementPart(const MemberExpr &M) {
  const auto *FD = dyn_cast<FieldDecl>(M.getMemberDecl());
  if (!FD)
    return false;
  const Expr *Base = M.getBase()->IgnoreParenImpCasts();
  bool Element = M.isArrow() || isa<ArraySubscriptExpr>(Base);
  if (const auto *U = dyn_cast<UnaryOperator>(Base))
    Element |= U->getOpcode() == UO_Deref;
  if (!Element)
    return false;
  const RecordDecl *RD = FD->getParent();
  QualType Scalar;
  unsigned Fields = 0;
  for (const FieldDecl *F : RD->fields()) {
    QualType T = F->getType().getCanonicalType().getUnqualifiedType();
    if (!T->isBuiltinType() || ++Fields > 4 ||
        (!Scalar.isNull() && T != Scalar))
      return false;
    Scalar = T;
  }
  return Fields > 0;
}

namespace {
/// One step from the root to the barrier.
struct Step {
  const FieldDecl *Field = nullptr;
  /// An index, in elements of the array: a constant, plus (Var) Scale
  /// elements per unit of an expression.
  std::int64_t Index = 0;
  const Expr *Var = nullptr;
  std::int64_t Scale = 1;
  /// The number of elements of the array indexed (0: unknown).
  std::uint64_t Extent = 0;
  /// The array is a byte pool (`char smem[]`): its barriers are named by
  /// their byte offset.
  bool Bytes = false;
};

/// An offset in bytes added to an address: a constant, plus Scale bytes
/// per unit of Var.
struct Offset {
  std::int64_t Const = 0;
  const Expr *Var = nullptr;
  std::int64_t Scale = 0;
};

const Expr *referenceAccessorReturn(const CXXMemberCallExpr &C);

class Walk {
public:
  Walk(Substitution Subst, const ASTContext &Ctx, AddressHelper Helper)
      : Subst(Subst), Ctx(Ctx), Helper(Helper) {}

  /// The root of \p E; Steps holds the way down, innermost first.
  const VarDecl *any(const Expr *E) {
    QualType T = E->IgnoreParens()->getType();
    if (T->isPointerType() || T->isIntegerType())
      return address(E, {});
    // An array (an operand looked through to it) names its first element.
    if (E->IgnoreParenImpCasts()->getType()->isArrayType())
      index({}, E->IgnoreParenImpCasts()->getType());
    return lvalue(E);
  }

  llvm::SmallVector<Step, 8> Steps;

private:
  bool budget() { return ++Used < 64; }

  std::optional<std::int64_t> constant(const Expr *E) {
    if (E->isValueDependent())
      return std::nullopt;
    Expr::EvalResult R;
    if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 40)
      return std::nullopt;
    return R.Val.getInt().getExtValue();
  }

  /// sizeof \p T, when it is a complete object type.
  std::optional<std::int64_t> sizeOf(QualType T) {
    if (T.isNull() || T->isDependentType() || T->isVoidType() ||
        T->isIncompleteType() || T->isFunctionType())
      return std::nullopt;
    return Ctx.getTypeSizeInChars(T).getQuantity();
  }

  /// Adds \p N times \p Bytes to \p Off: a constant, or the one run-time
  /// term. False when N is a second run-time term.
  bool add(Offset &Off, const Expr *N, std::int64_t Bytes, bool Negate) {
    if (auto K = constant(N)) {
      Off.Const += (Negate ? -*K : *K) * Bytes;
      return true;
    }
    // `OFF + i` (`barrier_start_ptr + (kNumStages + i)`): the constant
    // and the run-time part.
    if (const auto *B = dyn_cast<BinaryOperator>(N->IgnoreParenImpCasts());
        B && B->getOpcode() == BO_Add) {
      if (auto K = constant(B->getLHS())) {
        Off.Const += (Negate ? -*K : *K) * Bytes;
        return add(Off, B->getRHS(), Bytes, Negate);
      }
      if (auto K = constant(B->getRHS())) {
        Off.Const += (Negate ? -*K : *K) * Bytes;
        return add(Off, B->getLHS(), Bytes, Negate);
      }
    }
    if (Negate || Off.Var)
      return false;
    // An accessor lambda's parameter stands for its argument (`stage`), so
    // its calls name the member their own index does.
    if (const Expr *Arg = lambdaArgument(N)) {
      Off.Var = Arg;
      Off.Scale = Bytes;
      return true;
    }
    if (auto T = term(N); T && lambdaArgument(T->first)) {
      Off.Var = lambdaArgument(T->first);
      Off.Scale = T->second * Bytes;
      return true;
    }
    if (mentionsLambdaParameter(N))
      return false;
    Off.Var = N;
    Off.Scale = Bytes;
    return true;
  }

  /// The argument an accessor lambda being followed takes for the
  /// parameter \p E names, or null.
  /// An argument that is itself a parameter of an outer call being
  /// followed (the lambda an accessor object's `operator[](i)` calls with
  /// `i`) stands for that call's argument.
  const Expr *lambdaArgument(const Expr *E) {
    const Expr *Found = nullptr;
    for (unsigned Hop = 0; Hop < 4; ++Hop) {
      const auto *D = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
      const Expr *Next = nullptr;
      for (const auto &[P, Arg] : llvm::reverse(LambdaArgs))
        if (D && D->getDecl() == P) {
          Next = Arg->IgnoreParenImpCasts();
          break;
        }
      if (!Next)
        break;
      Found = E = Next;
    }
    return Found;
  }
  /// Whether \p E reads a parameter of an accessor lambda being followed
  /// (in a form the walk cannot put its argument in).
  bool mentionsLambdaParameter(const Expr *E) {
    if (LambdaArgs.empty() || !E)
      return false;
    if (lambdaArgument(E))
      return true;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child);
          CE && mentionsLambdaParameter(CE))
        return true;
    return false;
  }

  /// A run-time term of an integer address: `x * C`, `C * x`, `x << C`
  /// with x no constant; std::nullopt otherwise.
  std::optional<std::pair<const Expr *, std::int64_t>> term(const Expr *E) {
    const auto *B = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!B)
      return std::nullopt;
    if (B->getOpcode() == BO_Mul) {
      if (auto C = constant(B->getRHS()); C && !constant(B->getLHS()))
        return std::make_pair(B->getLHS()->IgnoreParenImpCasts(), *C);
      if (auto C = constant(B->getLHS()); C && !constant(B->getRHS()))
        return std::make_pair(B->getRHS()->IgnoreParenImpCasts(), *C);
    }
    if (B->getOpcode() == BO_Shl)
      if (auto C = constant(B->getRHS());
          C && *C >= 0 && *C < 31 && !constant(B->getLHS()))
        return std::make_pair(B->getLHS()->IgnoreParenImpCasts(),
                              std::int64_t(1) << *C);
    return std::nullopt;
  }

  /// Adds an index step: the element \p Off bytes into an array of type
  /// \p T.
  bool index(Offset Off, QualType T) {
    std::uint64_t Extent = 0;
    if (const auto *A = Ctx.getAsConstantArrayType(T))
      Extent = A->getSize().getLimitedValue();
    const ArrayType *AT = T.isNull() ? nullptr : T->getAsArrayTypeUnsafe();
    std::optional<std::int64_t> Elem =
        AT ? sizeOf(AT->getElementType()) : std::nullopt;
    Step S{nullptr, 0, Off.Var, 1, Extent, Elem == 1};
    if (Off.Const || Off.Var) {
      // The offset must name whole elements.
      if (!Elem || *Elem <= 0 || Off.Const % *Elem || Off.Scale % *Elem)
        return false;
      S.Index = Off.Const / *Elem;
      S.Scale = Off.Var ? Off.Scale / *Elem : 1;
    }
    Steps.push_back(S);
    return true;
  }

  /// The object whose address \p E computes, \p Off bytes further.
  const VarDecl *address(const Expr *E, Offset Off) {
    if (!E || !budget())
      return nullptr;
    E = E->IgnoreParens();
    if (const auto *C = dyn_cast<CastExpr>(E)) {
      if (C->getCastKind() == CK_ArrayToPointerDecay) {
        // `arr`: the address of its element at Off.
        return index(Off, C->getSubExpr()->getType())
                   ? lvalue(C->getSubExpr())
                   : nullptr;
      }
      return address(C->getSubExpr(), Off);
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_AddrOf)
        return nullptr;
      if (Off.Const == 0 && !Off.Var)
        return lvalue(U->getSubExpr());
      // `&a[i] + k`: a[i + k], for a constant i.
      const auto *A =
          dyn_cast<ArraySubscriptExpr>(U->getSubExpr()->IgnoreParens());
      auto I = A ? constant(A->getIdx()) : std::nullopt;
      auto Elem = A ? sizeOf(A->getType()) : std::nullopt;
      if (!I || !Elem)
        return nullptr;
      Off.Const += *I * *Elem;
      return address(A->getBase(), Off);
    }
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAdditiveOp()) {
      const Expr *Ptr = B->getLHS(), *N = B->getRHS();
      bool Sub = B->getOpcode() == BO_Sub;
      if (!Ptr->getType()->isPointerType())
        std::swap(Ptr, N);
      if (Ptr->getType()->isPointerType()) {
        auto Elem = sizeOf(Ptr->getType()->getPointeeType());
        if (!Elem || !add(Off, N, *Elem, Sub))
          return nullptr;
        return address(Ptr, Off);
      }
      // An integer shared-window address plus a byte offset: a constant,
      // or one run-time term `x * C` (a stage times its bytes).
      const Expr *L = B->getLHS(), *R = B->getRHS();
      if (auto K = constant(R)) {
        Off.Const += Sub ? -*K : *K;
        return address(L, Off);
      }
      if (auto K = constant(L); K && !Sub) {
        Off.Const += *K;
        return address(R, Off);
      }
      if (Off.Var || Sub)
        return nullptr;
      auto Resolved = [&](const Expr *X) {
        if (const Expr *Arg = lambdaArgument(X))
          return Arg;
        return mentionsLambdaParameter(X) ? nullptr : X;
      };
      if (auto T = term(R)) {
        Off.Var = Resolved(T->first);
        Off.Scale = T->second;
        return Off.Var ? address(L, Off) : nullptr;
      }
      if (auto T = term(L)) {
        Off.Var = Resolved(T->first);
        Off.Scale = T->second;
        return Off.Var ? address(R, Off) : nullptr;
      }
      return nullptr;
    }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (!VD)
        return nullptr;
      if (VD->getType()->isArrayType())
        return index(Off, VD->getType()) ? lvalue(E) : nullptr;
      if (const Expr *Arg = lambdaArgument(D))
        return address(Arg, Off);
      const Expr *Init = Subst(VD);
      return Init ? address(Init, Off) : nullptr;
    }
    if (isa<CXXThisExpr>(E)) {
      // Inside an accessor member's return (lvalue): the object it was
      // called on, read where the call is (its own `this` is the outer one).
      if (!AccessorObjects.empty()) {
        const Expr *Obj = AccessorObjects.pop_back_val();
        const VarDecl *Root = Obj->getType()->isPointerType() ? address(Obj, Off)
                              : Off.Const == 0 && !Off.Var ? lvalue(Obj)
                                                            : nullptr;
        AccessorObjects.push_back(Obj);
        return Root;
      }
      // The barrier class's object at the member call being walked.
      const Expr *Obj = Subst(nullptr);
      if (!Obj)
        return nullptr;
      if (Obj->getType()->isPointerType())
        return address(Obj, Off);
      return Off.Const == 0 && !Off.Var ? lvalue(Obj) : nullptr;
    }
    if (const auto *C = dyn_cast<CallExpr>(E)) {
      // An accessor lambda (`[&](int i) { return reinterpret_cast<uint64_t
      // *>(buf + i * BYTES); }`): its one return, its parameters standing
      // for the call's arguments.
      if (const Expr *Ret = byValueLambdaReturn(*C)) {
        const auto *MD = cast<CXXMethodDecl>(C->getDirectCallee());
        std::size_t Saved = LambdaArgs.size();
        for (unsigned I = 0; I < MD->getNumParams(); ++I)
          LambdaArgs.push_back({MD->getParamDecl(I), C->getArg(I + 1)});
        const VarDecl *Root = address(Ret, Off);
        LambdaArgs.resize(Saved);
        return Root;
      }
      // An accessor object (`full[i]`, whose `operator[](i) const` returns
      // `func(i)`, `func` a field holding an accessor lambda): the
      // lambda's return, for the call's arguments.
      if (const CallExpr *Inner = accessorClosureCall(*C)) {
        const auto *MD = cast<CXXMethodDecl>(C->getDirectCallee());
        std::size_t Saved = LambdaArgs.size();
        unsigned Shift = isa<CXXOperatorCallExpr>(C) ? 1 : 0;
        for (unsigned I = 0; I < MD->getNumParams(); ++I)
          LambdaArgs.push_back({MD->getParamDecl(I), C->getArg(I + Shift)});
        const VarDecl *Root = address(Inner, Off);
        LambdaArgs.resize(Saved);
        return Root;
      }
      // An address helper (`smem_u32(p)`): p's address.
      if (Helper)
        if (const Expr *Arg = Helper(*C))
          return address(Arg, Off);
      const FunctionDecl *FD = C->getDirectCallee();
      if (!FD || !FD->getIdentifier() || C->getNumArgs() != 1)
        return nullptr;
      llvm::StringRef Name = FD->getName();
      // The native mbarrier of a cuda::barrier is the barrier.
      if (Name == "barrier_native_handle" &&
          inCudaNamespace(FD->getDeclContext(), "device") && Off.Const == 0 &&
          !Off.Var)
        return lvalue(C->getArg(0));
      if (Name == "__cvta_generic_to_shared")
        return address(C->getArg(0), Off);
      return nullptr;
    }
    return nullptr;
  }

  /// The object that the lvalue \p E designates.
  const VarDecl *lvalue(const Expr *E) {
    if (!E || !budget())
      return nullptr;
    E = E->IgnoreParenImpCasts();
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Offset Off;
      auto Elem = sizeOf(A->getType());
      if (auto I = constant(A->getIdx())) {
        if (*I && !Elem)
          return nullptr;
        Off.Const = *I ? *I * *Elem : 0;
      } else {
        if (!Elem)
          return nullptr;
        Off.Var = A->getIdx();
        Off.Scale = *Elem;
      }
      return address(A->getBase(), Off);
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      const auto *FD = dyn_cast<FieldDecl>(M->getMemberDecl());
      if (!FD)
        return nullptr;
      // A cuda::barrier's native word is the barrier itself.
      const auto *RD = dyn_cast<CXXRecordDecl>(FD->getParent());
      bool Native = FD->getName() == "__barrier" && isCudaBarrier(RD);
      if (!Native)
        Steps.push_back({FD, 0, nullptr});
      return M->isArrow() ? address(M->getBase(), {}) : lvalue(M->getBase());
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_Deref)
        return nullptr;
      return address(U->getSubExpr(), {});
    }
    // An accessor member (tilelang's `Barrier::storage()`, `return
    // *const_cast<uint64_t *>(&barrier_);`): the object its one return
    // designates, `this` standing for the object it is called on.
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E))
      if (const Expr *Ret = referenceAccessorReturn(*MC)) {
        AccessorObjects.push_back(MC->getImplicitObjectArgument());
        const VarDecl *Root = lvalue(Ret);
        AccessorObjects.pop_back();
        return Root;
      }
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(D->getDecl());
      if (!VD)
        return nullptr;
      QualType T = VD->getType();
      if (T->isReferenceType()) {
        const Expr *Init = Subst(VD);
        return Init ? lvalue(Init) : nullptr;
      }
      if (T->isPointerType() || !VD->hasAttr<CUDASharedAttr>())
        return nullptr;
      return VD;
    }
    return nullptr;
  }

  Substitution Subst;
  const ASTContext &Ctx;
  AddressHelper Helper;
  unsigned Used = 0;
  /// The parameters of the accessor lambdas being followed, with their
  /// arguments.
  llvm::SmallVector<std::pair<const ParmVarDecl *, const Expr *>, 2>
      LambdaArgs;
  /// The objects of the accessor members being followed (lvalue), the
  /// innermost last.
  llvm::SmallVector<const Expr *, 2> AccessorObjects;
};
} // namespace

namespace {
/// Whether \p E names `this`, through parameters and locals (\p Subst).
bool namesThis(const Expr *E, Substitution Subst, unsigned &Budget) {
  if (!E || ++Budget > 256)
    return true; // past the budget: assume it does
  E = E->IgnoreParenImpCasts();
  if (isa<CXXThisExpr>(E))
    return true;
  if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(D->getDecl());
    const Expr *Init = VD ? Subst(VD) : nullptr;
    return Init && namesThis(Init, Subst, Budget);
  }
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child);
        CE && namesThis(CE, Subst, Budget))
      return true;
  return false;
}
} // namespace

const Expr *thisObject(const CallExpr &C, const Expr *Outer, Substitution Subst,
                       const ASTContext &Ctx) {
  const auto *MC = dyn_cast<CXXMemberCallExpr>(&C);
  const auto *MD = MC ? dyn_cast_or_null<CXXMethodDecl>(MC->getMethodDecl())
                      : nullptr;
  if (!MD || MD->isStatic())
    return nullptr;
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (!Obj)
    return nullptr;
  if (isa<CXXThisExpr>(Obj->IgnoreParenImpCasts()))
    return Outer;
  unsigned Budget = 0;
  for (const Expr *Arg : C.arguments())
    if (namesThis(Arg, Subst, Budget))
      return nullptr;
  Walk W(Subst, Ctx, nullptr);
  return W.any(Obj) ? Obj : nullptr;
}

namespace {
/// BarrierName's element of an array that is no extern pool: one index
/// step, or two into an array of arrays whose inner extent is known (the
/// outer index counts rows of it), with at most one run-time index. \p
/// Steps are ordered from the root.
void elementOf(const llvm::SmallVectorImpl<Step> &Steps, const VarDecl &Root,
               BarrierName &N) {
  if (Root.hasExternalStorage() || Steps.empty() || Steps.size() > 2 ||
      !Root.getType()->isConstantArrayType())
    return;
  for (const Step &S : Steps)
    if (S.Field || !S.Extent)
      return;
  const Step &Inner = Steps.back();
  std::int64_t Offset = Inner.Index, Stride = Inner.Var ? Inner.Scale : 0;
  const Expr *Index = Inner.Var;
  if (Steps.size() == 2) {
    const Step &Outer = Steps.front();
    if (Outer.Var && Inner.Var)
      return;
    auto Row = static_cast<std::int64_t>(Inner.Extent);
    Offset += Outer.Index * Row;
    if (Outer.Var) {
      Stride = Outer.Scale * Row;
      Index = Outer.Var;
    }
  }
  if (Offset < 0 || Stride < 0)
    return;
  N.ElementOffset = Offset;
  N.ElementStride = Stride;
  N.ElementIndex = Index;
  // The elements the family may name: the rest of the array, or of the
  // row an inner index runs along.
  std::int64_t End = 1;
  for (const Step &S : Steps)
    End *= static_cast<std::int64_t>(S.Extent);
  if (Steps.size() == 2 && Inner.Var)
    End = (Offset / static_cast<std::int64_t>(Inner.Extent) + 1) *
          static_cast<std::int64_t>(Inner.Extent);
  if (Stride > 0 && Offset < End)
    N.ElementMembers = static_cast<std::uint64_t>((End - Offset + Stride - 1) /
                                                  Stride);
}
} // namespace

namespace {
/// Whether \p RD has one field and no base with fields (a barrier class
/// that wraps its mbarrier word).
bool oneField(const RecordDecl &RD) {
  if (RD.isUnion() || std::distance(RD.field_begin(), RD.field_end()) != 1)
    return false;
  const auto *CRD = dyn_cast<CXXRecordDecl>(&RD);
  return !CRD || !CRD->hasDefinition() ||
         (CRD->getNumBases() == 0 && !CRD->isPolymorphic());
}
} // namespace

std::optional<BarrierName> barrierNameOf(const Expr *E, Substitution Subst,
                                         const ASTContext &Ctx,
                                         AddressHelper Helper) {
  if (!E)
    return std::nullopt;
  Walk W(Subst, Ctx, Helper);
  const VarDecl *Root = W.any(E);
  if (!Root)
    return std::nullopt;
  BarrierName N;
  N.Root = Root;
  N.Display = Root->getName().str();
  N.Key.AddPointer(Root->getCanonicalDecl());
  std::reverse(W.Steps.begin(), W.Steps.end());
  // A barrier class of one field laid in a byte pool (`reinterpret_cast<
  // Barrier *>(smem + OFF) + s`, whose members reach `&this->word`): the
  // field is the object, named by its byte offset like the pointer cast to
  // `uint64_t *`.
  llvm::erase_if(W.Steps, [&, Bytes = false](const Step &S) mutable {
    bool Wrapper = Bytes && S.Field && oneField(*S.Field->getParent());
    Bytes = (Bytes && Wrapper) || (S.Bytes && !S.Field);
    return Wrapper;
  });
  for (const Step &S : W.Steps) {
    if (S.Field) {
      N.Key.AddInteger(1);
      N.Key.AddPointer(S.Field->getCanonicalDecl());
      N.Display += "." + S.Field->getNameAsString();
    } else if (S.Var) {
      N.Key.AddInteger(3);
      S.Var->IgnoreParenImpCasts()->Profile(N.Key, Ctx, /*Canonical=*/true);
      N.Key.AddInteger(S.Index);
      N.Key.AddInteger(S.Scale);
      // One run-time index selects a member of the family: of an array
      // (`full[s]`, no constant added), or of a byte pool (`base + OFF + s
      // * 8`: the barriers OFF + 8m bytes in, their number unknown); more,
      // or a mixed offset, leave it unknown.
      bool Array = S.Index == 0 && S.Scale == 1;
      N.Index = N.Fixed && (Array || S.Bytes) ? S.Var : nullptr;
      N.Members = N.Index && Array ? S.Extent : 0;
      N.Pool = N.Index && !Array;
      N.Fixed = false;
      if (S.Bytes && !Array)
        N.Display += " + " + std::to_string(S.Index) + " + " +
                     std::to_string(S.Scale) + " * s";
    } else {
      N.Key.AddInteger(2);
      N.Key.AddInteger(S.Index);
      // A barrier of a byte pool is named by its offset.
      if (S.Bytes && S.Index)
        N.Display += " + " + std::to_string(S.Index);
    }
  }
  // One index into an extern byte pool: the barrier's place in it.
  if (W.Steps.size() == 1 && W.Steps[0].Bytes && !W.Steps[0].Field &&
      Root->hasExternalStorage()) {
    N.PoolOffset = W.Steps[0].Index;
    N.PoolStride = W.Steps[0].Var ? W.Steps[0].Scale : 0;
  }
  elementOf(W.Steps, *Root, N);
  return N;
}

bool startOfBuffer(const Expr *E, Substitution Subst, const ASTContext &Ctx,
                   const VarDecl *Root) {
  if (!E || !Root)
    return false;
  Walk W(Subst, Ctx, nullptr);
  if (W.any(E) != Root)
    return false;
  QualType T = Root->getType();
  for (const Step &S : W.Steps) { // innermost first
    if (S.Var || S.Index != 0)
      return false;
    if (S.Field && T == Root->getType())
      T = S.Field->getType();
  }
  const ArrayType *A = T->getAsArrayTypeUnsafe();
  return !A || !A->getElementType()->isArrayType();
}

bool valueLike(const ParmVarDecl &P) {
  QualType T = P.getType();
  if (!T->isReferenceType())
    return true;
  QualType Pointee = T->getPointeeType();
  return T->isLValueReferenceType() && Pointee.isConstQualified() &&
         Pointee->isScalarType();
}

namespace {
/// The returned value of a body that is one `return E;`, or null.
const Expr *soleReturnValue(const FunctionDecl &F) {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(F.getBody());
  const auto *Ret = Body && Body->size() == 1
                        ? dyn_cast<ReturnStmt>(Body->body_front())
                        : nullptr;
  return Ret ? Ret->getRetValue() : nullptr;
}

/// The one return of a member that takes no argument and returns an
/// lvalue reference (`T &storage() const { return *const_cast<T *>(&f); }`),
/// or null: the call designates what that return designates.
const Expr *referenceAccessorReturn(const CXXMemberCallExpr &C) {
  const CXXMethodDecl *MD = C.getMethodDecl();
  if (!MD || MD->isStatic() || MD->getNumParams() != 0 ||
      !MD->getReturnType()->isLValueReferenceType() ||
      !C.getImplicitObjectArgument())
    return nullptr;
  const FunctionDecl *Def = nullptr;
  if (!MD->hasBody(Def) || !Def)
    return nullptr;
  const Expr *V = soleReturnValue(*Def);
  return V && V->isGLValue() ? V : nullptr;
}
} // namespace

const Expr *accessorReturn(const CXXMemberCallExpr &C) {
  return referenceAccessorReturn(C);
}

const Expr *byValueLambdaReturn(const CallExpr &C) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(&C);
  const auto *MD = Op && Op->getOperator() == OO_Call
                       ? dyn_cast_or_null<CXXMethodDecl>(Op->getDirectCallee())
                       : nullptr;
  if (!MD || !MD->getParent()->isLambda() ||
      C.getNumArgs() != MD->getNumParams() + 1)
    return nullptr;
  for (const ParmVarDecl *P : MD->parameters())
    if (!valueLike(*P))
      return nullptr;
  return soleReturnValue(*MD);
}

const CallExpr *accessorClosureCall(const CallExpr &C) {
  const auto *MD = dyn_cast_or_null<CXXMethodDecl>(C.getDirectCallee());
  if (!MD || MD->isStatic() || !MD->isConst() || MD->getParent()->isLambda())
    return nullptr;
  unsigned Shift = isa<CXXOperatorCallExpr>(C) ? 1 : 0;
  if (!Shift && !isa<CXXMemberCallExpr>(C))
    return nullptr;
  if (C.getNumArgs() != MD->getNumParams() + Shift)
    return nullptr;
  for (const ParmVarDecl *P : MD->parameters())
    if (!valueLike(*P))
      return nullptr;
  const Expr *V = soleReturnValue(*MD);
  V = V ? V->IgnoreImplicit() : nullptr;
  const auto *Inner = dyn_cast_or_null<CXXOperatorCallExpr>(V);
  if (!Inner || Inner->getOperator() != OO_Call || !byValueLambdaReturn(*Inner))
    return nullptr;
  // The closure is a field of the object (`this->func`).
  const auto *Field =
      dyn_cast<MemberExpr>(Inner->getArg(0)->IgnoreParenImpCasts());
  if (!Field || !isa<FieldDecl>(Field->getMemberDecl()) ||
      !isa<CXXThisExpr>(Field->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  // Its arguments are the member's parameters or constants.
  for (unsigned I = 1; I < Inner->getNumArgs(); ++I) {
    const Expr *A = Inner->getArg(I)->IgnoreParenImpCasts();
    const auto *D = dyn_cast<DeclRefExpr>(A);
    if (!(D && isa<ParmVarDecl>(D->getDecl()) &&
          cast<ParmVarDecl>(D->getDecl())->getDeclContext() == MD) &&
        !A->isIntegerConstantExpr(MD->getASTContext()))
      return nullptr;
  }
  return Inner;
}

} // namespace clang::tidy::tma::events
