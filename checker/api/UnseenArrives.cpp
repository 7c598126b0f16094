//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/UnseenArrives.h"
#include "api/DeviceOpsFinder.h"
#include "api/PtxParser.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/Builtins.h"

namespace clang::tidy::tma {

namespace {

/// Deeper than this, a callee counts as one that may arrive.
constexpr unsigned MaxDepth = 24;

/// Whether the asm \p A holds an arrive no DeviceOp models (an asm whose
/// text is no plain string: unknown, so it may).
bool arrivingAsm(const GCCAsmStmt &A) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(A.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1)
    return true;
  llvm::StringRef Raw = Text->getString();
  // Each opcode names its family whole: text without the words is lexed
  // for nothing (wgmma and mma texts are the longest).
  if (!Raw.contains("tcgen05") && !Raw.contains("mbarrier"))
    return false;
  for (const ::tma::ptx::Opcode &Op :
       ::tma::ptx::opcodesOf(Raw, /*Extended=*/!A.isSimple()))
    if (::tma::ptx::isUndecodedArrive(Op.Text))
      return true;
  return false;
}

} // namespace

bool UnseenArrives::callee(const FunctionDecl *FD, unsigned Depth) {
  if (!FD)
    return true; // a call through a pointer: unknown
  if (DeviceOpsFinder::isUndecodedArrive(*FD, Ctx))
    return true;
  if (FD->getBuiltinID())
    return false;
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
  if (const auto *A = dyn_cast<GCCAsmStmt>(S))
    return arrivingAsm(*A);
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
