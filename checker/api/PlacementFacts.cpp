//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/PlacementFacts.h"
#include "api/DeviceOps.h"

#include "clang/AST/Attr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSwitch.h"
#include <cstring>

namespace clang::tidy::tma::placement {

bool hasGridConstantMacro(const ParmVarDecl &P, const SourceManager &SM,
                          const LangOptions &LangOpts) {
  auto IsGridConstantName = [](const Token &Tok) {
    return Tok.is(tok::raw_identifier) &&
           Tok.getRawIdentifier().contains_insensitive("grid_constant");
  };
  SourceLocation Begin = SM.getFileLoc(P.getBeginLoc());
  SourceLocation Name = SM.getFileLoc(P.getLocation());
  // Back to the '(' or ',' before the parameter.
  SourceLocation Loc = Begin;
  for (unsigned I = 0; I < 4; ++I) {
    std::optional<Token> Tok =
        Lexer::findPreviousToken(Loc, SM, LangOpts, /*IncludeComments=*/false);
    if (!Tok || Tok->isOneOf(tok::l_paren, tok::comma))
      break;
    if (IsGridConstantName(*Tok))
      return true;
    Loc = Tok->getLocation();
  }
  // From the type to the name.
  Loc = Begin;
  for (unsigned I = 0; I < 16 && Loc.isValid() && Loc != Name; ++I) {
    Token Tok;
    if (Lexer::getRawToken(Loc, Tok, SM, LangOpts, /*IgnoreWhiteSpace=*/true))
      break;
    if (IsGridConstantName(Tok))
      return true;
    std::optional<Token> Next = Lexer::findNextToken(Loc, SM, LangOpts);
    if (!Next)
      break;
    Loc = Next->getLocation();
  }
  return false;
}

std::string mapWriteName(const Stmt &S) {
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(&S)) {
    for (const AsmInstruction &I : asmInstructions(*Asm))
      if (writesMap(I.Opcode))
        return I.Opcode.starts_with("tensormap.replace")
                   ? "tensormap.replace"
                   : "tensormap.cp_fenceproxy";
    return "tensormap.replace";
  }
  const FunctionDecl *FD = cast<CallExpr>(S).getDirectCallee();
  return FD && FD->getIdentifier() ? "cuda::ptx::" + FD->getName().str()
                                   : "a tensormap write";
}

/// A local or __shared__ variable that holds a map by value.
static bool isMapVar(const VarDecl &V) {
  QualType T = V.getType();
  return V.isLocalVarDecl() && !T->isReferenceType() && !T->isPointerType() &&
         !V.hasAttr<CUDAConstantAttr>() && holdsMap(T) &&
         (V.hasLocalStorage() || V.hasAttr<CUDASharedAttr>());
}

/// How deep calls are searched for an acquire fence.
static constexpr unsigned MaxFenceDepth = 8;

/// Whether \p FD, or a function it calls, may execute
/// fence.proxy.tensormap::generic.acquire. A call of a function whose body
/// is not visible (outside system headers) may: silence over guesses.
bool PlacementFacts::mayFence(const FunctionDecl &FD, unsigned Depth) {
  const SourceManager &SM = Ctx.getSourceManager();
  const FunctionDecl *Def = FD.getDefinition();
  if (!Def || !Def->hasBody()) {
    // Builtins (no location) and system declarations do not fence.
    SourceLocation Loc = SM.getFileLoc(FD.getLocation());
    return FD.getBuiltinID() == 0 && Loc.isValid() && !SM.isInSystemHeader(Loc);
  }
  if (auto It = Fenced.find(Def); It != Fenced.end())
    return It->second;
  // Too deep to search: user code may fence, the library's internals do not.
  if (Depth > MaxFenceDepth)
    return !SM.isInSystemHeader(SM.getFileLoc(Def->getLocation()));
  // Assume a fence while the body is searched (recursion).
  Fenced[Def] = true;
  const BodyNodes &Nodes = Bodies.of(Def->getBody(), PlacementBodies::Scope::All);
  auto IsAcquire = [](const DeviceOp &Op) {
    const auto *F = std::get_if<Fence>(&Op);
    return F && F->Kind == device::FenceKind::TensormapAcquire;
  };
  bool Found = false;
  for (const Stmt *S : Nodes.Sites) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      Found = llvm::any_of(finder().opsOf(*Asm), IsAcquire);
    } else {
      const auto *Call = cast<CallExpr>(S);
      if (std::optional<DeviceOp> Op = finder().opOf(*Call)) {
        Found = IsAcquire(*Op);
      } else if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        Found = mayFence(*Callee, Depth + 1);
      } else {
        // A call through a pointer in user code may reach anything; the
        // library's own (CCCL's atomics) reach the library.
        Found = !Call->getType()->isDependentType() &&
                !SM.isInSystemHeader(SM.getFileLoc(Call->getBeginLoc()));
      }
    }
    if (Found)
      break;
  }
  return Fenced[Def] = Found;
}

/// True when \p VD is a `__device__` variable (global memory) that holds a
/// map.
static bool isGlobalMemoryMap(const VarDecl &VD) {
  return VD.hasGlobalStorage() && VD.hasAttr<CUDADeviceAttr>() &&
         !VD.hasAttr<CUDAConstantAttr>() && !VD.hasAttr<CUDASharedAttr>() &&
         holdsMap(VD.getType());
}

//===----------------------------------------------------------------------===//
// The pre-scan of __device__ functions
//===----------------------------------------------------------------------===//

/// Whether \p DC (a function, or a class or function declared in one)
/// declares, outside lambdas, a variable whose type holds a map; or
/// something this scan does not read, whose insides the body walk visits
/// (a local class's members, a block). Every local variable, static,
/// extern and structured binding included, is a declaration of the
/// function it is declared in (of its template instantiation too), so a
/// false answer means that checkMapCopies has no local candidate.
static bool declaresMapOrUnread(const DeclContext &DC, bool InLambda,
                                PlacementScanMemo &Memo);

/// declaresMapOrUnread's answer for \p DC, memoised: a lambda's answer
/// holds those of the lambdas nested in it, and each of D nested lambdas is
/// asked on its own (they were scanned D, D - 1, ... levels deep).
static bool declaresMapOrUnreadMemo(const DeclContext &DC, bool InLambda,
                                    PlacementScanMemo &Memo) {
  auto &Known = Memo.Declares[InLambda];
  if (auto It = Known.find(&DC); It != Known.end())
    return It->second;
  bool Result = declaresMapOrUnread(DC, InLambda, Memo);
  // Not Known[&DC] = ...: the recursion may have grown the map.
  Memo.Declares[InLambda][&DC] = Result;
  return Result;
}

static bool declaresMapOrUnread(const DeclContext &DC, bool InLambda,
                                PlacementScanMemo &Memo) {
  for (const Decl *D : DC.decls()) {
    if (const auto *V = dyn_cast<VarDecl>(D)) {
      if (!InLambda && !isa<ParmVarDecl>(V) && holdsMap(V->getType()))
        return true;
      continue;
    }
    if (const auto *B = dyn_cast<BindingDecl>(D)) {
      if (const ValueDecl *Whole = B->getDecomposedDecl();
          !InLambda && Whole && holdsMap(Whole->getType()))
        return true;
      continue;
    }
    if (const auto *R = dyn_cast<CXXRecordDecl>(D)) {
      // A lambda's closure: its call operator is another function.
      if (!R->isLambda() ||
          declaresMapOrUnreadMemo(*R, /*InLambda=*/true, Memo))
        return true;
      continue;
    }
    if (const auto *T = dyn_cast<FunctionTemplateDecl>(D)) {
      // A generic lambda's call operator.
      if (declaresMapOrUnreadMemo(*T->getTemplatedDecl(), InLambda, Memo))
        return true;
      continue;
    }
    if (const auto *F = dyn_cast<FunctionDecl>(D)) {
      if (declaresMapOrUnreadMemo(*F, InLambda, Memo))
        return true;
      continue;
    }
    if (isa<EnumDecl>(D))
      continue;
    if (isa<DeclContext>(D))
      return true;
  }
  return false;
}

/// Whether \p Call's callee is named like a cuda::ptx::tensormap_replace_*
/// function (the name only: a cheap pre-filter of the walk).
static bool namedLikeReplace(const CallExpr &Call) {
  const FunctionDecl *FD = Call.getDirectCallee();
  return FD && FD->getIdentifier() &&
         FD->getName().starts_with("tensormap_replace_");
}

/// Whether a call in \p E (a lambda's capture initialiser) is named like a
/// cuda::ptx::tensormap_replace_* function.
static bool callsReplace(const Stmt *E) {
  if (!E)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(E); Call && namedLikeReplace(*Call))
    return true;
  return llvm::any_of(E->children(), callsReplace);
}

/// Whether \p Body (its lambdas' bodies included) holds an asm text that
/// names tensormap.replace or a call named tensormap_replace_*: the sites
/// checkReplaceValues reads. From the finder's list of the body's asm
/// statements and calls, which the other checks have asked for already:
/// it reaches every site of checkReplaceValues' walk but those of a local
/// class (declaresMapOrUnread sends such a body to the walk) and those in
/// the unevaluated operands of a type (decltype), which never run.
/// Memoised per body (a lambda's answer holds its nested lambdas').
static bool mayReplace(DeviceOpsFinder &Finder, const Stmt *Body,
                       PlacementScanMemo &Memo) {
  if (auto It = Memo.Replaces.find(Body); It != Memo.Replaces.end())
    return It->second;
  bool Result = false;
  for (const DeviceOpsFinder::OpStmt &OS : Finder.opStmtsOf(Body)) {
    if (const auto *L = dyn_cast<LambdaExpr>(OS.S)) {
      if (llvm::any_of(L->capture_inits(), callsReplace) ||
          mayReplace(Finder, L->getBody(), Memo)) {
        Result = true;
        break;
      }
      continue;
    }
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(OS.S)) {
      const auto *Text =
          dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
      if (Text && Text->getCharByteWidth() == 1 &&
          Text->getString().contains("tensormap.replace")) {
        Result = true;
        break;
      }
      continue;
    }
    if (namedLikeReplace(*cast<CallExpr>(OS.S))) {
      Result = true;
      break;
    }
  }
  return Memo.Replaces[Body] = Result;
}

bool PlacementFacts::mayHoldSite(const FunctionDecl &FD) {
  for (const ParmVarDecl *P : FD.parameters()) {
    QualType T = P->getType();
    if (!T->isReferenceType() && !T->isPointerType() && holdsMap(T))
      return true;
  }
  return declaresMapOrUnreadMemo(FD, /*InLambda=*/false, ScanMemo) ||
         mayReplace(finder(), FD.getBody(), ScanMemo);
}

//===----------------------------------------------------------------------===//
// tensormap.replace operands
//===----------------------------------------------------------------------===//

/// The tensormap.replace field \p Name (PTX's spelling, or the cuda::ptx
/// function's suffix).
static std::optional<::tma::rules::ReplaceField>
replaceField(StringRef Name) {
  using ::tma::rules::ReplaceField;
  return llvm::StringSwitch<std::optional<ReplaceField>>(Name)
      .Case("global_address", ReplaceField::GlobalAddress)
      .Case("rank", ReplaceField::Rank)
      .Case("box_dim", ReplaceField::BoxDim)
      .Case("global_dim", ReplaceField::GlobalDim)
      .Case("global_stride", ReplaceField::GlobalStride)
      .Case("element_stride", ReplaceField::ElementStride)
      .Case("element_size", ReplaceField::ElementStride)
      .Case("elemtype", ReplaceField::ElemType)
      .Case("interleave_layout", ReplaceField::InterleaveLayout)
      .Case("swizzle_mode", ReplaceField::SwizzleMode)
      .Case("swizzle_atomicity", ReplaceField::SwizzleAtomicity)
      .Case("fill_mode", ReplaceField::FillMode)
      .Default(std::nullopt);
}

/// The driver enum that \p T is, or None.
static ::tma::rules::DriverEnum driverEnumOfType(QualType T) {
  using ::tma::rules::DriverEnum;
  const EnumDecl *ED = T->getAsEnumDecl();
  if (!ED)
    return DriverEnum::None;
  StringRef Name = ED->getName();
  if (Name.empty())
    if (const TypedefNameDecl *TD = ED->getTypedefNameForAnonDecl())
      Name = TD->getName();
  Name.consume_back("_enum");
  return llvm::StringSwitch<DriverEnum>(Name)
      .Case("CUtensorMapDataType", DriverEnum::DataType)
      .Case("CUtensorMapInterleave", DriverEnum::Interleave)
      .Case("CUtensorMapSwizzle", DriverEnum::Swizzle)
      .Case("CUtensorMapFloatOOBfill", DriverEnum::FloatOobFill)
      .Default(DriverEnum::None);
}

/// The driver enum whose value \p E is (an enumerator, or a value of the
/// enum type, through casts; in a template instantiation, the argument of
/// a template parameter of the enum type, whose replacement clang keeps as
/// a cast integer).
static ::tma::rules::DriverEnum driverEnumOf(const Expr *E) {
  using ::tma::rules::DriverEnum;
  if (!E)
    return DriverEnum::None;
  const Expr *Cur = E;
  for (unsigned Steps = 0; Cur && Steps < 8; ++Steps) {
    Cur = Cur->IgnoreParens();
    if (const auto *S = dyn_cast<SubstNonTypeTemplateParmExpr>(Cur))
      return driverEnumOfType(S->getParameter()->getType());
    if (const auto *Full = dyn_cast<FullExpr>(Cur))
      Cur = Full->getSubExpr();
    else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Cur))
      Cur = Cast->getSubExpr();
    else
      break;
  }
  return driverEnumOfType(E->IgnoreParenCasts()->getType());
}

/// For an n32_t<V> argument (CCCL's integral_constant<int, V>, or a class
/// template of that name): V, and the expression written for it.
static std::optional<std::pair<uint64_t, const Expr *>>
n32Argument(const Expr *Arg) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Arg->getType().getNonReferenceType()->getAsCXXRecordDecl());
  if (!Spec || (Spec->getName() != "integral_constant" &&
                Spec->getName() != "n32_t"))
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() == 0 ||
      Args[Args.size() - 1].getKind() != TemplateArgument::Integral)
    return std::nullopt;
  uint64_t Value = Args[Args.size() - 1].getAsIntegral().getZExtValue();
  // The type as written: n32_t<CU_TENSOR_MAP_DATA_TYPE_BFLOAT16>{}.
  const Expr *Written = nullptr;
  const Expr *E = Arg->IgnoreImplicit();
  if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
    E = M->getSubExpr()->IgnoreImplicit();
  TypeSourceInfo *TSI = nullptr;
  if (const auto *T = dyn_cast<CXXTemporaryObjectExpr>(E))
    TSI = T->getTypeSourceInfo();
  else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E))
    TSI = F->getTypeInfoAsWritten();
  else if (const auto *C = dyn_cast<CompoundLiteralExpr>(E))
    TSI = C->getTypeSourceInfo();
  if (TSI)
    if (auto TL = TSI->getTypeLoc()
                      .getAsAdjusted<TemplateSpecializationTypeLoc>();
        TL && TL.getNumArgs() > 0 &&
        TL.getArgLoc(TL.getNumArgs() - 1).getArgument().getKind() ==
            TemplateArgument::Expression)
      Written = TL.getArgLoc(TL.getNumArgs() - 1).getSourceExpression();
  return std::make_pair(Value, Written);
}

DeviceOpsFinder &PlacementFacts::finder() {
  if (!Finder)
    Finder = DeviceOpsFinder::forTranslationUnit(Ctx);
  return *Finder;
}

//===----------------------------------------------------------------------===//
// Placement sites
//===----------------------------------------------------------------------===//

std::vector<MapSite> PlacementFacts::copySites(const FunctionDecl &FD) {
  using ::tma::rules::MapStorage;
  std::vector<MapSite> Sites;
  // By-value parameters of __device__ functions; a kernel's are
  // TMAP-PLACE-GRID-CONSTANT's.
  if (!FD.hasAttr<CUDAGlobalAttr>())
    for (const ParmVarDecl *P : FD.parameters()) {
      QualType T = P->getType();
      if (P->getIdentifier() && !T->isReferenceType() && !T->isPointerType() &&
          holdsMap(T))
        Sites.push_back({P, MapStorage::DeviceParamCopy});
    }
  // A lambda's body is another function.
  for (const VarDecl *V :
       Bodies.of(FD.getBody(), PlacementBodies::Scope::NoLambdas).Vars)
    if (isMapVar(*V))
      Sites.push_back({V, V->hasAttr<CUDASharedAttr>() ? MapStorage::Shared
                                                        : MapStorage::Local});
  return Sites;
}

std::vector<MapSite>
PlacementFacts::valueParamSites(const FunctionDecl &Kernel) {
  using ::tma::rules::MapStorage;
  std::vector<MapSite> Sites;
  for (unsigned I = 0; I < Kernel.getNumParams(); ++I) {
    const ParmVarDecl &P = *Kernel.getParamDecl(I);
    QualType T = P.getType();
    // Pointers (a map in global memory) and references are not copies.
    if (!P.getIdentifier() || T->isReferenceType() || T->isPointerType() ||
        !holdsMap(T))
      continue;
    bool GridConstant =
        P.hasAttr<CUDAGridConstantAttr>() ||
        hasGridConstantMacro(P, Ctx.getSourceManager(), Ctx.getLangOpts());
    Sites.push_back({&P,
                     GridConstant ? MapStorage::GridConstantParam
                                  : MapStorage::KernelParamCopy,
                     Ref::Object, I});
  }
  return Sites;
}

std::vector<MapSite> PlacementFacts::globalSites(const FunctionDecl &Kernel) {
  using ::tma::rules::MapStorage;
  std::vector<MapSite> Sites;
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (P->getIdentifier() && T->isPointerType() &&
        holdsMap(T->getPointeeType()))
      Sites.push_back({P, MapStorage::Global, Ref::AddressVar});
  }
  const BodyNodes &Nodes =
      Bodies.of(Kernel.getBody(), PlacementBodies::Scope::All);
  llvm::SmallPtrSet<const VarDecl *, 4> Seen;
  for (const DeclRefExpr *DRE : Nodes.Refs)
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && isGlobalMemoryMap(*VD) && Seen.insert(VD).second)
      Sites.push_back({VD, MapStorage::Global, Ref::Object});
  return Sites;
}

bool PlacementFacts::isTensorCopy(const Stmt *S) {
  // Only a tensor copy or prefetch reads the map through the tensormap
  // proxy (prefetch.tensormap is a hint; tensormap.replace writes).
  auto Is = [](const DeviceOp &Op) {
    return std::holds_alternative<TensorCopy>(Op);
  };
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return llvm::any_of(finder().opsOf(*Asm), Is);
  std::optional<DeviceOp> Op = finder().opOf(*cast<CallExpr>(S));
  return Op && Is(*Op);
}

MapPlacement PlacementFacts::placementOf(const FunctionDecl &FD,
                                         const MapSite &S) {
  using ::tma::rules::MapStorage;
  MapPlacement R;
  R.Facts.Storage = S.Storage;
  auto Follow = [&](AddressFlow::Mode M) {
    R.Path = AddressFlow(Ctx, Folder, Bodies, CallDepth, M)
                 .follow(FD, *S.Var, S.Kind, /*Depth=*/0);
    return !R.Path.empty();
  };
  switch (S.Storage) {
  case MapStorage::KernelParamCopy:
    R.Facts.ReachesRead = Follow(AddressFlow::Mode::AnyTma);
    break;
  case MapStorage::Local:
  case MapStorage::Shared:
  case MapStorage::DeviceParamCopy:
    // tensormap.* legitimately works on a copy of a map.
    R.Facts.ReachesRead = Follow(AddressFlow::Mode::CopiesOnly);
    break;
  case MapStorage::GridConstantParam:
    R.Facts.ReachesWrite = Follow(AddressFlow::Mode::MapWrites);
    break;
  case MapStorage::Global:
    R.Facts.ReachesRead = Follow(AddressFlow::Mode::AnyTma);
    R.Facts.ReadByTensorCopy = R.Facts.ReachesRead && isTensorCopy(R.Path.back());
    if (R.Facts.ReadByTensorCopy)
      R.Facts.KernelMayFence = mayFence(FD, 0);
    break;
  case MapStorage::Constant:
    break;
  }
  return R;
}

//===----------------------------------------------------------------------===//
// Replace sites
//===----------------------------------------------------------------------===//

std::vector<ReplaceSite> PlacementFacts::replaceSitesOf(const FunctionDecl &FD) {
  using namespace ::tma::rules;
  const SourceManager &SM = Ctx.getSourceManager();
  std::vector<ReplaceSite> Sites;
  // A site outside system headers; asked after the cheap tests of the
  // text or callee, which rule out almost every site.
  auto InUserCode = [&](const Stmt *S) {
    SourceLocation Loc = SM.getFileLoc(S->getBeginLoc());
    return Loc.isValid() && !SM.isInSystemHeader(Loc);
  };
  for (const Stmt *S :
       Bodies.of(FD.getBody(), PlacementBodies::Scope::OwnOnly).Sites) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      // An opcode is a part of the text.
      const auto *Text = dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr());
      if (!Text || Text->getCharByteWidth() != 1 ||
          !Text->getString().contains("tensormap.replace") || !InUserCode(S))
        continue;
      SmallVector<AsmInstruction, 4> Instructions = asmInstructions(*Asm);
      for (const AsmInstruction &I : Instructions) {
        if (!I.Opcode.starts_with("tensormap.replace") || I.Operands.size() < 2)
          continue;
        // tensormap.replace.mode.field1{.ss}.b1024.type [addr], {ord,} new_val
        std::optional<ReplaceField> F;
        SmallVector<StringRef, 8> Parts;
        I.Opcode.split(Parts, '.');
        for (StringRef P : Parts)
          if ((F = replaceField(P)))
            break;
        if (!F)
          continue;
        StringRef Text = I.Operands.back();
        const Expr *E = asmOperandExpr(*Asm, Text, Instructions);
        uint64_t Imm = 0;
        Known Value;
        if (!E && !Text.getAsInteger(0, Imm))
          Value = Imm;
        if (E || Value)
          Sites.push_back({S, *F, E, Value});
      }
      continue;
    }
    const auto *Call = cast<CallExpr>(S);
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() ||
        !Callee->getName().starts_with("tensormap_replace_") ||
        Call->getNumArgs() < 3 || !isCudaPtx(*Callee) || !InUserCode(S))
      continue;
    std::optional<ReplaceField> F =
        replaceField(Callee->getName().drop_front(strlen("tensormap_replace_")));
    if (!F)
      continue;
    const Expr *Arg = Call->getArg(Call->getNumArgs() - 1);
    if (auto N = n32Argument(Arg))
      Sites.push_back({S, *F, N->second ? N->second : Arg, N->first});
    else
      Sites.push_back({S, *F, Arg, std::nullopt});
  }
  return Sites;
}

ReplaceValue PlacementFacts::replaceValueOf(const ReplaceSite &R,
                                            const CallContext *Context) {
  using namespace ::tma::rules;
  ReplaceValue V;
  V.Facts.Field = R.Field;
  // An immediate (or an n32_t<V> template argument) is the same under every
  // caller; an expression is folded under the context, so a helper's
  // parameter is the value its caller passes.
  if (R.Imm || !R.E) {
    V.Facts.Value = R.Imm;
    V.Facts.AsWritten = driverEnumOf(R.E);
    V.Written = R.E;
    return V;
  }
  V.Folded = Folder.foldInt(R.E);
  if (V.Folded)
    V.Facts.Value = asU64(V.Folded->Value);
  // The caller's argument says which enum the value was written as.
  const CallContext *Outer = Context;
  const Expr *Arg = forwardedFrom(R.E, Outer);
  V.Forwarded = Arg != R.E;
  V.Written = Arg;
  V.Facts.AsWritten = driverEnumOf(Arg);
  if (V.Facts.AsWritten == DriverEnum::None)
    V.Facts.AsWritten = driverEnumOf(R.E);
  return V;
}

} // namespace clang::tidy::tma::placement
