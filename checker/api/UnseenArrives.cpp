//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/UnseenArrives.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Builtins.h"

namespace clang::tidy::tma {

namespace {

/// Deeper than this, a callee counts as one that may arrive.
constexpr unsigned MaxDepth = 24;

bool arrivingText(llvm::StringRef Text) {
  return Text.contains("tcgen05.commit") ||
         Text.contains("cp.async.mbarrier.arrive");
}

bool arrivingName(llvm::StringRef Name) {
  return Name.contains("tcgen05_commit") ||
         Name.contains("cp_async_mbarrier_arrive");
}

} // namespace

bool UnseenArrives::callee(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return true; // a call through a pointer: unknown
  if (unsigned ID = FD->getBuiltinID())
    return arrivingName(Ctx.BuiltinInfo.getName(ID));
  if (FD->getIdentifier() && arrivingName(FD->getName()))
    return true;
  return scan(FD, Depth + 1);
}

bool UnseenArrives::scan(const FunctionDecl *FD, unsigned Depth) {
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || !Def)
    return false; // a body-less callee is an opaque event of the model
  if (Depth > MaxDepth)
    return true;
  auto [It, Inserted] = Memo.try_emplace(Def, false);
  if (!Inserted)
    return It->second;
  bool R = scanStmt(Def->getBody(), Depth);
  Memo[Def] = R;
  return R;
}

bool UnseenArrives::scanStmt(const Stmt *S, unsigned Depth) {
  if (!S)
    return false;
  if (const auto *A = dyn_cast<GCCAsmStmt>(S)) {
    const auto *Text = dyn_cast_or_null<StringLiteral>(A->getAsmStringExpr());
    return !Text || arrivingText(Text->getString());
  }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    if (!isa<CXXPseudoDestructorExpr>(C->getCallee()->IgnoreParenImpCasts()) &&
        callee(C->getDirectCallee(), Depth))
      return true;
  } else if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
    if (callee(C->getConstructor(), Depth))
      return true;
  }
  for (const Stmt *Child : S->children())
    if (scanStmt(Child, Depth))
      return true;
  return false;
}

} // namespace clang::tidy::tma
