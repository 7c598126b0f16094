//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/TensorMapPlacementCheck.h"
#include "checks/SharedMatchers.h"
#include "checks/ContextNotes.h"
#include "api/DeviceOps.h"
#include "api/MapUses.h"
#include "rules/FormRules.h"
#include "rules/TensorMapRules.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"
#include <memory>
#include <optional>

using namespace clang::ast_matchers;

namespace clang::tidy::tma {

using namespace placement;


//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

/// True when an identifier such as CUTLASS_GRID_CONSTANT is written around
/// the parameter's type: a macro that expands to __grid_constant__ for nvcc
/// and to nothing here. The author asked for the attribute.
static bool hasGridConstantMacro(const ParmVarDecl &P, const SourceManager &SM,
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

TensorMapPlacementCheck::TensorMapPlacementCheck(StringRef Name,
                                                 ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), CallDepth(Options.get("CallDepth", 3U)),
      GlobalFence(Options.get("GlobalFence", true)) {}

PlacementBodies &TensorMapPlacementCheck::bodies() {
  if (!Bodies)
    Bodies = std::make_shared<PlacementBodies>(matchedOnItsOwn);
  return *Bodies;
}

void TensorMapPlacementCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "DisabledRules", Rules.option());
  Options.store(Opts, "CallDepth", CallDepth);
  Options.store(Opts, "GlobalFence", GlobalFence);
}

void TensorMapPlacementCheck::registerMatchers(MatchFinder *Finder) {
  Rules.diagnoseUnknown(*this, getID());
  // Kernels (TMAP-PLACE-*) and other __device__ definitions (their map
  // copies), through the module's shared matcher.
  Shared = SharedMatchers::functions(Finder, this,
                                     SharedMatchers::Functions::DeviceOrKernel);
}

/// The insertions that make parameter \p Index of \p Kernel
/// 'const __grid_constant__' on every declaration of the kernel, or nothing
/// when one of them cannot be edited safely.
static std::vector<FixItHint> gridConstantFixes(const FunctionDecl &Kernel,
                                                unsigned Index,
                                                const SourceManager &SM,
                                                const LangOptions &LangOpts) {
  const FunctionDecl *Written = Kernel.getTemplateInstantiationPattern();
  if (!Written)
    Written = &Kernel;
  std::vector<FixItHint> Fixes;
  for (const FunctionDecl *Decl : Written->redecls()) {
    if (Index >= Decl->getNumParams())
      return {};
    const ParmVarDecl &P = *Decl->getParamDecl(Index);
    // A template parameter's type is shared with other instantiations.
    if (P.getType()->isDependentType())
      return {};
    SourceLocation Begin = P.getBeginLoc();
    if (Begin.isInvalid() || Begin.isMacroID() || SM.isInSystemHeader(Begin))
      return {};
    if (!P.getType().isConstQualified()) {
      Fixes.push_back(
          FixItHint::CreateInsertion(Begin, "const __grid_constant__ "));
      continue;
    }
    // 'const CUtensorMap' -> 'const __grid_constant__ CUtensorMap'.
    Token Tok;
    if (!Lexer::getRawToken(Begin, Tok, SM, LangOpts) &&
        Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "const")
      Fixes.push_back(FixItHint::CreateInsertion(
          Lexer::getLocForEndOfToken(Begin, 0, SM, LangOpts),
          " __grid_constant__"));
    else
      Fixes.push_back(FixItHint::CreateInsertion(Begin, "__grid_constant__ "));
  }
  return Fixes;
}

//===----------------------------------------------------------------------===//
// Functions without a site
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

/// Whether a rule of a __device__ function (not a kernel) can report in
/// \p FD: a map it holds by value (a parameter or a local) or a
/// tensormap.replace. A host pass hands over thousands of
/// __host__ __device__ bodies (CuTe's) that have neither: their walk was
/// most of the check's instructions.
static bool mayHoldSite(const FunctionDecl &FD, DeviceOpsFinder &Finder,
                        PlacementScanMemo &Memo) {
  for (const ParmVarDecl *P : FD.parameters()) {
    QualType T = P->getType();
    if (!T->isReferenceType() && !T->isPointerType() && holdsMap(T))
      return true;
  }
  return declaresMapOrUnreadMemo(FD, /*InLambda=*/false, Memo) ||
         mayReplace(Finder, FD.getBody(), Memo);
}

void TensorMapPlacementCheck::check(const MatchFinder::MatchResult &Result) {
  ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;
  // The shared matcher hands over no dependent function, and says once for
  // all checks whether it has a body outside system headers.
  const SharedMatchers::FunctionMatch &M = Shared->function();
  if (const FunctionDecl *Fn = M.Fn; Fn && !M.Kernel) {
    if (M.UserBody) {
      if (!OpsFinder)
        OpsFinder = DeviceOpsFinder::forTranslationUnit(Ctx);
      if (!mayHoldSite(*Fn, *OpsFinder, ScanMemo))
        return;
      if (!Folder)
        Folder = ConstantFolder::forTranslationUnit(Ctx);
      checkMapCopies(*Fn, Ctx, SM);
      checkReplaceValues(*Fn, SM);
    }
    return;
  }
  const FunctionDecl *Kernel = M.Fn;
  // Templates are checked per instantiation.
  if (!Kernel || !Kernel->getBody())
    return;
  if (!Folder)
    Folder = ConstantFolder::forTranslationUnit(Ctx);
  if (M.UserBody) {
    checkMapCopies(*Kernel, Ctx, SM);
    checkReplaceValues(*Kernel, SM);
    checkReadonlyParams(*Kernel, Ctx, SM);
  }
  for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
    const ParmVarDecl &P = *Kernel->getParamDecl(I);
    QualType T = P.getType();
    // Pointers (a map in global memory) and references are not copies.
    if (!P.getIdentifier() || T->isReferenceType() || T->isPointerType() ||
        !holdsMap(T) || P.hasAttr<CUDAGridConstantAttr>())
      continue;
    SourceLocation Loc = SM.getFileLoc(P.getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        Reported.count(Loc.getRawEncoding()) ||
        hasGridConstantMacro(P, SM, getLangOpts()))
      continue;
    auto Path = AddressFlow(Ctx, *Folder, bodies(), CallDepth)
                    .follow(*Kernel, P, Ref::Object,
                            /*Depth=*/0);
    if (Path.empty() || !Rules.allows("TMAP-PLACE-GRID-CONSTANT"))
      continue;
    Reported.insert(Loc.getRawEncoding());

    std::vector<FixItHint> Fixes;
    if (survivesConst(P, *Kernel, *Folder, bodies()))
      Fixes = gridConstantFixes(*Kernel, I, SM, getLangOpts());
    diag(Loc, "%select{CUtensorMap parameter %1 is|parameter %1 holds a "
              "CUtensorMap and is}0 passed by value without 'const "
              "__grid_constant__': its address points to a local copy, which "
              "TMA cannot read (TMAP-PLACE-GRID-CONSTANT)")
        << !isMapType(T) << &P << Fixes;

    SourceLocation First = SM.getFileLoc(Path.front()->getBeginLoc());
    diag(First,
         Path.size() == 1
             ? "the address of %0 reaches a TMA operation here"
             : "the address of %0 is passed on here and reaches a TMA "
               "operation",
         DiagnosticIDs::Note)
        << &P;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the TMA operation", DiagnosticIDs::Note);
  }
  if (GlobalFence)
    checkGlobalMaps(*Kernel, Ctx, SM);
}

//===----------------------------------------------------------------------===//
// TMA-MAP-STATE-SPACE
//===----------------------------------------------------------------------===//

/// A local or __shared__ variable that holds a map by value.
static bool isMapVar(const VarDecl &V) {
  QualType T = V.getType();
  return V.isLocalVarDecl() && !T->isReferenceType() && !T->isPointerType() &&
         !V.hasAttr<CUDAConstantAttr>() && holdsMap(T) &&
         (V.hasLocalStorage() || V.hasAttr<CUDASharedAttr>());
}

void TensorMapPlacementCheck::checkMapCopies(const FunctionDecl &FD,
                                             ASTContext &Ctx,
                                             const SourceManager &SM) {
  using ::tma::rules::MapStorage;
  std::vector<std::pair<const VarDecl *, MapStorage>> Candidates;
  // By-value parameters of __device__ functions; a kernel's are
  // TMAP-PLACE-GRID-CONSTANT's.
  if (!FD.hasAttr<CUDAGlobalAttr>())
    for (const ParmVarDecl *P : FD.parameters()) {
      QualType T = P->getType();
      if (P->getIdentifier() && !T->isReferenceType() && !T->isPointerType() &&
          holdsMap(T))
        Candidates.emplace_back(P, MapStorage::DeviceParamCopy);
    }
  // A lambda's body is another function.
  for (const VarDecl *V :
       bodies().of(FD.getBody(), PlacementBodies::Scope::NoLambdas).Vars)
    if (isMapVar(*V))
      Candidates.emplace_back(V, V->hasAttr<CUDASharedAttr>()
                                     ? MapStorage::Shared
                                     : MapStorage::Local);
  for (const auto &[Var, Storage] : Candidates) {
    SourceLocation Loc = SM.getFileLoc(Var->getLocation());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        Reported.count(Loc.getRawEncoding()))
      continue;
    std::optional<::tma::rules::DeviceViolation> V =
        ::tma::rules::checkTmaMapStateSpace(Storage);
    if (!V || !Rules.allows(V->RuleId))
      continue;
    auto Path = AddressFlow(Ctx, *Folder, bodies(), CallDepth, AddressFlow::Mode::CopiesOnly)
                    .follow(FD, *Var, Ref::Object, 0);
    if (Path.empty())
      continue;
    Reported.insert(Loc.getRawEncoding());
    diag(Loc, "%select{tensor map %1|%1 holds a CUtensorMap and}0 %2 (%3)")
        << !isMapType(Var->getType()) << Var << V->Message << V->RuleId;
    SourceLocation First = SM.getFileLoc(Path.front()->getBeginLoc());
    diag(First,
         Path.size() == 1
             ? "the address of %0 reaches a TMA operation here"
             : "the address of %0 is passed on here and reaches a TMA "
               "operation",
         DiagnosticIDs::Note)
        << Var;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the TMA operation", DiagnosticIDs::Note);
    diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
  }
}

//===----------------------------------------------------------------------===//
// TMAP-DEV-READONLY-PARAM
//===----------------------------------------------------------------------===//

/// What the diagnostics call the map write \p S: the PTX instruction or
/// the cuda::ptx function.
static std::string mapWriteName(const Stmt &S) {
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

void TensorMapPlacementCheck::checkReadonlyParams(const FunctionDecl &Kernel,
                                                  ASTContext &Ctx,
                                                  const SourceManager &SM) {
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (!P->getIdentifier() || T->isReferenceType() || T->isPointerType() ||
        !holdsMap(T) ||
        !(P->hasAttr<CUDAGridConstantAttr>() ||
          hasGridConstantMacro(*P, SM, getLangOpts())))
      continue;
    std::optional<::tma::rules::DeviceViolation> V =
        ::tma::rules::checkDevReadonlyParam(
            ::tma::rules::MapStorage::GridConstantParam);
    if (!V || !Rules.allows(V->RuleId))
      continue;
    auto Path = AddressFlow(Ctx, *Folder, bodies(), CallDepth,
                            AddressFlow::Mode::MapWrites)
                    .follow(Kernel, *P, Ref::Object, 0);
    if (Path.empty())
      continue;
    SourceLocation Loc = SM.getFileLoc(Path.front()->getBeginLoc());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        !Reported.insert(Loc.getRawEncoding()).second)
      continue;
    diag(Loc, "%select{%1 writes tensor map %2 in place|the address of tensor "
              "map %2 is passed on here to %1, which writes it in place}0; "
              "%2 %3 (%4)")
        << (Path.size() > 1) << mapWriteName(*Path.back()) << P
        << V->Message << V->RuleId;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the write", DiagnosticIDs::Note);
    diag(SM.getFileLoc(P->getLocation()), "%0 is declared here",
         DiagnosticIDs::Note)
        << P;
    diag(Loc, "%0", DiagnosticIDs::Note) << V->Suggestion;
  }
}

//===----------------------------------------------------------------------===//
// TMAP-DEV-REPLACE-ENCODING
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

void TensorMapPlacementCheck::reportReplace(
    SourceLocation Loc, const Expr *Written,
    const ::tma::rules::DeviceViolation &V, const SourceManager &SM,
    const ReplaceOrigin &From) {
  SourceLocation OpLoc = Loc;
  if (Written)
    Loc = SM.getFileLoc(Written->getBeginLoc());
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
      !Rules.allows(V.RuleId) ||
      !ReplaceReported.insert({Loc.getRawEncoding(), V.Message}).second)
    return;
  diag(Loc, "%0 (%1)") << V.Message << V.RuleId;
  // A value that a helper's parameter forwards is reported where a caller
  // wrote it: the calls in between, and the instruction that receives it.
  if (From.Value)
    noteBindings(*this, *Folder, From.Value->From.Through, Loc, SM,
                 From.Context);
  if (From.Forwarded && OpLoc != Loc && !SM.isInSystemHeader(OpLoc))
    diag(OpLoc, "passed to tensormap.replace .%0 here", DiagnosticIDs::Note)
        << ::tma::rules::replaceFieldName(From.Field);
  if (!V.Suggestion.empty())
    diag(Loc, "%0", DiagnosticIDs::Note) << V.Suggestion;
  if (From.Instantiation &&
      From.Instantiation->getPointOfInstantiation().isValid())
    diag(SM.getFileLoc(From.Instantiation->getPointOfInstantiation()),
         "in instantiation of %0 requested here", DiagnosticIDs::Note)
        << From.Instantiation;
}

void TensorMapPlacementCheck::checkReplaceValue(
    const Stmt &Site, const FunctionDecl &FD, ::tma::rules::ReplaceField F,
    const Expr *E, ::tma::rules::Known Imm, const SourceManager &SM) {
  using namespace ::tma::rules;
  SourceLocation Loc = SM.getFileLoc(Site.getBeginLoc());
  // An immediate (or an n32_t<V> template argument) is the same under every
  // caller; an expression is folded under each caller's context, so a
  // helper's parameter is the value its caller passes.
  if (Imm || !E) {
    if (auto V = checkReplaceEncoding(F, Imm, driverEnumOf(E))) {
      ReplaceOrigin From{F};
      // A template argument: which instantiation.
      From.Instantiation = FD.isTemplateInstantiation() ? &FD : nullptr;
      reportReplace(Loc, E, *V, SM, From);
    }
    return;
  }
  for (const CallContext *Context : Folder->contextsOf(&FD)) {
    // Nothing to report where a guard leaves before the site (§11.C).
    if (!Folder->mayRun(&Site, &FD, Context))
      continue;
    Folder->enterContext(Context);
    ReplaceOrigin From{F};
    From.Context = Context;
    From.Value = Folder->foldInt(E);
    Known Value;
    if (From.Value)
      Value = asU64(From.Value->Value);
    // The caller's argument says which enum the value was written as.
    const CallContext *Outer = Context;
    const Expr *Arg = forwardedFrom(E, Outer);
    From.Forwarded = Arg != E;
    DriverEnum AsWritten = driverEnumOf(Arg);
    if (AsWritten == DriverEnum::None)
      AsWritten = driverEnumOf(E);
    if (auto V = checkReplaceEncoding(F, Value, AsWritten))
      reportReplace(Loc, Arg, *V, SM, From);
  }
  Folder->enterContext(nullptr);
}

void TensorMapPlacementCheck::checkReplaceValues(const FunctionDecl &FD,
                                                 const SourceManager &SM) {
  using namespace ::tma::rules;
  // A site outside system headers; asked after the cheap tests of the
  // text or callee, which rule out almost every site.
  auto InUserCode = [&](const Stmt *S) {
    SourceLocation Loc = SM.getFileLoc(S->getBeginLoc());
    return Loc.isValid() && !SM.isInSystemHeader(Loc);
  };
  for (const Stmt *S : bodies().of(FD.getBody(), PlacementBodies::Scope::OwnOnly).Sites) {
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
          checkReplaceValue(*S, FD, *F, E, Value, SM);
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
      checkReplaceValue(*S, FD, *F, N->second ? N->second : Arg, N->first,
                        SM);
    else
      checkReplaceValue(*S, FD, *F, Arg, std::nullopt, SM);
  }
}

//===----------------------------------------------------------------------===//
// TMAP-PLACE-GLOBAL-FENCE
//===----------------------------------------------------------------------===//

/// How deep calls are searched for an acquire fence.
static constexpr unsigned MaxFenceDepth = 8;

/// Whether \p FD, or a function it calls, may execute
/// fence.proxy.tensormap::generic.acquire. A call of a function whose body
/// is not visible (outside system headers) may: silence over guesses.
bool TensorMapPlacementCheck::mayFence(const FunctionDecl &FD,
                                       const SourceManager &SM,
                                       unsigned Depth) {
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
  const BodyNodes &Nodes = bodies().of(Def->getBody(), PlacementBodies::Scope::All);
  auto IsAcquire = [](const DeviceOp &Op) {
    const auto *F = std::get_if<Fence>(&Op);
    return F && F->Kind == device::FenceKind::TensormapAcquire;
  };
  bool Found = false;
  for (const Stmt *S : Nodes.Sites) {
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
      Found = llvm::any_of(OpsFinder->opsOf(*Asm), IsAcquire);
    } else {
      const auto *Call = cast<CallExpr>(S);
      if (std::optional<DeviceOp> Op = OpsFinder->opOf(*Call)) {
        Found = IsAcquire(*Op);
      } else if (const FunctionDecl *Callee = Call->getDirectCallee()) {
        Found = mayFence(*Callee, SM, Depth + 1);
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

void TensorMapPlacementCheck::checkGlobalMaps(const FunctionDecl &Kernel,
                                              ASTContext &Ctx,
                                              const SourceManager &SM) {
  // The maps in global memory the kernel reads: pointer parameters and
  // __device__ variables it names.
  llvm::SmallVector<std::pair<const VarDecl *, Ref>, 4> Maps;
  for (const ParmVarDecl *P : Kernel.parameters()) {
    QualType T = P->getType();
    if (P->getIdentifier() && T->isPointerType() &&
        holdsMap(T->getPointeeType()))
      Maps.push_back({P, Ref::AddressVar});
  }
  const BodyNodes &Nodes = bodies().of(Kernel.getBody(), PlacementBodies::Scope::All);
  llvm::SmallPtrSet<const VarDecl *, 4> Seen;
  for (const DeclRefExpr *DRE : Nodes.Refs)
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
        VD && isGlobalMemoryMap(*VD) && Seen.insert(VD).second)
      Maps.push_back({VD, Ref::Object});
  if (Maps.empty())
    return;
  if (!OpsFinder)
    OpsFinder = DeviceOpsFinder::forTranslationUnit(Ctx);

  // Only a tensor copy or prefetch reads the map through the tensormap
  // proxy (prefetch.tensormap is a hint; tensormap.replace writes).
  auto IsTensorCopy = [&](const Stmt *S) {
    auto Is = [](const DeviceOp &Op) {
      return std::holds_alternative<TensorCopy>(Op);
    };
    if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
      return llvm::any_of(OpsFinder->opsOf(*Asm), Is);
    std::optional<DeviceOp> Op = OpsFinder->opOf(*cast<CallExpr>(S));
    return Op && Is(*Op);
  };
  for (auto [Var, Kind] : Maps) {
    auto Path =
        AddressFlow(Ctx, *Folder, bodies(), CallDepth).follow(Kernel, *Var, Kind, 0);
    if (Path.empty() || !IsTensorCopy(Path.back()) || mayFence(Kernel, SM, 0))
      continue;
    // A parameter is reported once; a __device__ map once per kernel use.
    SourceLocation Loc =
        SM.getFileLoc(isa<ParmVarDecl>(Var) ? Var->getLocation()
                                            : Path.front()->getBeginLoc());
    if (Loc.isInvalid() || SM.isInSystemHeader(Loc) ||
        !Rules.allows("TMAP-PLACE-GLOBAL-FENCE") ||
        !Reported.insert(Loc.getRawEncoding()).second)
      continue;
    diag(Loc, "tensor map %0 is read from global memory by a TMA operation, "
              "but %1 executes no fence.proxy.tensormap::generic.acquire "
              "before it: TMA may use a stale copy of the map "
              "(TMAP-PLACE-GLOBAL-FENCE)")
        << Var << &Kernel;
    SourceLocation First = SM.getFileLoc(Path.front()->getBeginLoc());
    if (First != Loc)
      diag(First,
           Path.size() == 1
               ? "the address of %0 reaches a TMA operation here"
               : "the address of %0 is passed on here and reaches a TMA "
                 "operation",
           DiagnosticIDs::Note)
          << Var;
    SourceLocation Last = SM.getFileLoc(Path.back()->getBeginLoc());
    if (Path.size() > 1 && !SM.isInSystemHeader(Last))
      diag(Last, "the TMA operation", DiagnosticIDs::Note);
    diag(SM.getFileLoc(Kernel.getLocation()),
         "in one thread of each block, before the first use: "
         "cuda::ptx::fence_proxy_tensormap_generic(cuda::ptx::sem_acquire, "
         "cuda::ptx::scope_sys, map, cuda::ptx::n32_t<128>()), then "
         "__syncthreads(); or pass the map as 'const __grid_constant__ "
         "CUtensorMap'",
         DiagnosticIDs::Note);
  }
}

} // namespace clang::tidy::tma
