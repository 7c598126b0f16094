//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/OrderingFixes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::tma {

namespace {

/// Whether \p S (in expansion locations) holds \p L, a file location.
bool holds(const Stmt *S, SourceLocation L, const SourceManager &SM) {
  if (!S)
    return false;
  SourceLocation B = SM.getExpansionLoc(S->getBeginLoc());
  SourceLocation E = SM.getExpansionRange(S->getEndLoc()).getEnd();
  return B.isValid() && E.isValid() && SM.isPointWithin(L, B, E);
}

/// The innermost direct child of a compound statement under \p S that
/// holds \p L.
const Stmt *innermostListed(const Stmt *S, SourceLocation L,
                            const SourceManager &SM) {
  const Stmt *Best = nullptr;
  while (S) {
    const Stmt *Next = nullptr;
    for (const Stmt *C : S->children())
      if (holds(C, L, SM)) {
        Next = C;
        break;
      }
    if (Next && isa<CompoundStmt>(S))
      Best = Next;
    S = Next;
  }
  return Best;
}

/// The call or asm statement under \p S that begins at \p L.
const Stmt *opAt(const Stmt *S, SourceLocation L, const SourceManager &SM) {
  while (S) {
    if ((isa<CallExpr>(S) || isa<GCCAsmStmt>(S)) && S->getBeginLoc() == L)
      return S;
    const Stmt *Next = nullptr;
    for (const Stmt *C : S->children())
      if (holds(C, L, SM)) {
        Next = C;
        break;
      }
    S = Next;
  }
  return nullptr;
}

bool declaresAlias(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *D = dyn_cast<DeclStmt>(S))
    for (const Decl *X : D->decls())
      if (isa<NamespaceAliasDecl>(X) || isa<UsingDirectiveDecl>(X))
        return true;
  for (const Stmt *C : S->children())
    if (declaresAlias(C))
      return true;
  return false;
}

/// The qualifier the op's call is written with ("cde::"), when it names
/// the callee's own namespace (no using-declaration) and holds no macro;
/// else \p Full.
std::string qualifierOf(const OpSite &Site, bool InBody, const Stmt *Body,
                        llvm::StringRef Full, const SourceManager &SM,
                        const LangOptions &LO) {
  const auto *C = dyn_cast_or_null<CallExpr>(Site.Site);
  const auto *D =
      C ? dyn_cast<DeclRefExpr>(C->getCallee()->IgnoreImpCasts()) : nullptr;
  // A namespace alias declared in the body may not be visible where the
  // fix goes.
  if (!InBody || !D || !D->hasQualifier() ||
      isa<UsingShadowDecl>(D->getFoundDecl()) || declaresAlias(Body))
    return Full.str();
  SourceLocation B = D->getQualifierLoc().getBeginLoc();
  SourceLocation E = D->getNameInfo().getBeginLoc();
  if (B.isMacroID() || E.isMacroID())
    return Full.str();
  llvm::StringRef Text =
      Lexer::getSourceText(CharSourceRange::getCharRange(B, E), SM, LO);
  if (!Text.ends_with("::") || Text.contains_insensitive("template") ||
      Text.contains('<'))
    return Full.str();
  return Text.str();
}

/// The integer literal \p E is, or null.
const IntegerLiteral *literal(const Expr *E) {
  return E ? dyn_cast<IntegerLiteral>(E->IgnoreParenImpCasts()) : nullptr;
}

/// The first argument of the template specialisation \p TSI names.
const IntegerLiteral *typeArgument(const TypeSourceInfo *TSI) {
  if (!TSI)
    return nullptr;
  auto TL = TSI->getTypeLoc().getAsAdjusted<TemplateSpecializationTypeLoc>();
  if (!TL || TL.getNumArgs() == 0)
    return nullptr;
  TemplateArgumentLoc A = TL.getArgLoc(0);
  if (A.getArgument().getKind() != TemplateArgument::Expression)
    return nullptr;
  return literal(A.getSourceExpression());
}

const IntegerLiteral *depthLiteral(const CallExpr &C) {
  const auto *D = dyn_cast<DeclRefExpr>(C.getCallee()->IgnoreImpCasts());
  if (D && D->getNumTemplateArgs() > 0) {
    const TemplateArgumentLoc &A = D->template_arguments()[0];
    if (A.getArgument().getKind() != TemplateArgument::Expression)
      return nullptr;
    return literal(A.getSourceExpression());
  }
  if (C.getNumArgs() != 1)
    return nullptr;
  const Expr *Arg = C.getArg(0)->IgnoreImplicit();
  if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(Arg))
    return typeArgument(F->getTypeInfoAsWritten());
  if (const auto *T = dyn_cast<CXXTemporaryObjectExpr>(Arg))
    return typeArgument(T->getTypeSourceInfo());
  if (const auto *V = dyn_cast<CXXScalarValueInitExpr>(Arg))
    return typeArgument(V->getTypeSourceInfo());
  return nullptr;
}

std::optional<FixItHint> asmDepthFix(const GCCAsmStmt &S, std::uint64_t Old,
                                     std::uint64_t New,
                                     const ASTContext &Ctx) {
  const auto *SL = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!SL || SL->getNumConcatenated() != 1 || SL->getBeginLoc().isMacroID())
    return std::nullopt;
  llvm::StringRef Text = SL->getString();
  constexpr llvm::StringLiteral Opcode = "cp.async.bulk.wait_group";
  std::size_t At = Text.find(Opcode);
  if (At == llvm::StringRef::npos ||
      Text.find(Opcode, At + 1) != llvm::StringRef::npos)
    return std::nullopt;
  std::size_t I = At + Opcode.size();
  while (I < Text.size() && Text[I] != ' ' && Text[I] != '\t')
    ++I;
  while (I < Text.size() && (Text[I] == ' ' || Text[I] == '\t'))
    ++I;
  std::size_t J = I;
  while (J < Text.size() && llvm::isDigit(Text[J]))
    ++J;
  std::uint64_t Value = 0;
  if (J == I || Text.substr(I, J - I).getAsInteger(10, Value) || Value != Old)
    return std::nullopt;
  const SourceManager &SM = Ctx.getSourceManager();
  SourceLocation B = SL->getLocationOfByte(I, SM, Ctx.getLangOpts(),
                                           Ctx.getTargetInfo());
  SourceLocation E = SL->getLocationOfByte(J, SM, Ctx.getLangOpts(),
                                           Ctx.getTargetInfo());
  if (B.isInvalid() || E.isInvalid() || B.isMacroID())
    return std::nullopt;
  return FixItHint::CreateReplacement(CharSourceRange::getCharRange(B, E),
                                      std::to_string(New));
}

} // namespace

const Stmt *statementAt(const Stmt *Body, SourceLocation Loc,
                        const SourceManager &SM) {
  if (!Body || Loc.isMacroID())
    return nullptr;
  const Stmt *S = innermostListed(Body, Loc, SM);
  return S && S->getBeginLoc() == Loc ? S : nullptr;
}

const Stmt *topLevelStatementAt(const Stmt *Body, SourceLocation Loc,
                                const SourceManager &SM) {
  const auto *CS = dyn_cast_or_null<CompoundStmt>(Body);
  if (!CS || Loc.isMacroID())
    return nullptr;
  for (const Stmt *S : CS->body())
    if (holds(S, Loc, SM))
      return S;
  return nullptr;
}

std::optional<FixItHint> insertBefore(const Stmt &S, llvm::StringRef Code,
                                      const SourceManager &SM) {
  SourceLocation B = S.getBeginLoc();
  if (B.isInvalid() || B.isMacroID())
    return std::nullopt;
  auto [File, Offset] = SM.getDecomposedLoc(B);
  bool Invalid = false;
  llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid || Offset > Buffer.size())
    return std::nullopt;
  llvm::StringRef Before = Buffer.take_front(Offset);
  std::size_t NL = Before.rfind('\n');
  llvm::StringRef Indent =
      NL == llvm::StringRef::npos ? Before : Before.drop_front(NL + 1);
  if (Indent.find_first_not_of(" \t") == llvm::StringRef::npos)
    return FixItHint::CreateInsertion(B, (Code + "\n" + Indent).str());
  return FixItHint::CreateInsertion(B, (Code + " ").str());
}

std::optional<std::string> fenceStatement(const DeviceOp &Op, bool InBody,
                                          const Stmt *Body,
                                          const SourceManager &SM,
                                          const LangOptions &LO) {
  const OpSite &Site = siteOf(Op);
  switch (Site.Api) {
  case OpApi::InlinePtx:
    return std::string(
        R"(asm volatile("fence.proxy.async.shared::cta;" ::: "memory");)");
  case OpApi::CudaPtx: {
    std::string Q = qualifierOf(Site, InBody, Body, "cuda::ptx::", SM, LO);
    return Q + "fence_proxy_async(" + Q + "space_shared);";
  }
  case OpApi::Cde:
    return qualifierOf(Site, InBody, Body, "cuda::device::experimental::", SM,
                       LO) +
           "fence_proxy_async_shared_cta();";
  default:
    return std::nullopt;
  }
}

std::optional<FixItHint> waitDepthFix(const Stmt *Body, SourceLocation Loc,
                                      std::uint64_t Old, std::uint64_t New,
                                      const ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  if (!Body || Loc.isMacroID())
    return std::nullopt;
  const Stmt *S = opAt(Body, Loc, SM);
  if (const auto *A = dyn_cast_or_null<GCCAsmStmt>(S))
    return asmDepthFix(*A, Old, New, Ctx);
  const auto *C = dyn_cast_or_null<CallExpr>(S);
  const IntegerLiteral *L = C ? depthLiteral(*C) : nullptr;
  if (!L || L->getLocation().isMacroID() || L->getValue() != Old)
    return std::nullopt;
  return FixItHint::CreateReplacement(
      CharSourceRange::getTokenRange(L->getSourceRange()),
      std::to_string(New));
}

} // namespace clang::tidy::tma
