//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/PeerAddress.h"
#include "api/PtxParser.h"
#include "folding/Uses.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::tidy::tma {

namespace {
/// Locals and helpers followed.
constexpr unsigned MaxDepth = 8;

const VarDecl *localOf(const Expr *E) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts()
                                                  : nullptr);
  const auto *VD = D ? dyn_cast<VarDecl>(D->getDecl()) : nullptr;
  return VD && VD->isLocalVarDecl() && !isa<ParmVarDecl>(VD) ? VD : nullptr;
}

const ParmVarDecl *paramOf(const Expr *E, const FunctionDecl *F) {
  const auto *D = dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts()
                                                  : nullptr);
  const auto *P = D ? dyn_cast<ParmVarDecl>(D->getDecl()) : nullptr;
  return P && P->getDeclContext() == F ? P : nullptr;
}

} // namespace

std::optional<MapaAsm> mapaAsm(const GCCAsmStmt &S) {
  const auto *Text = dyn_cast_or_null<StringLiteral>(S.getAsmStringExpr());
  if (!Text || Text->getCharByteWidth() != 1 || S.getNumOutputs() != 1 ||
      S.getNumInputs() != 2)
    return std::nullopt;
  // The text's one statement: "mapa.shared::cluster.u32 %0, %1, %2;".
  unsigned Statements = 0;
  std::vector<::tma::ptx::Mapa> Mapas =
      ::tma::ptx::mapasOf(Text->getString(), !S.isSimple(), &Statements);
  auto IsRef = [](const ::tma::ptx::Value &V, unsigned N) {
    return V.Kind == ::tma::ptx::Value::Ref && V.Index == N;
  };
  if (Statements != 1 || Mapas.size() != 1 || Mapas[0].Guarded ||
      !IsRef(Mapas[0].Dst, 0) || !IsRef(Mapas[0].Addr, 1) ||
      !IsRef(Mapas[0].Rank, 2))
    return std::nullopt;
  return MapaAsm{S.getOutputExpr(0), S.getInputExpr(0), S.getInputExpr(1)};
}

std::optional<MapaAsm> PeerAddresses::onlyWriter(const VarDecl *VD) {
  if (auto It = Writers.find(VD); It != Writers.end())
    return It->second;
  Writers[VD] = std::nullopt;
  const auto *F = dyn_cast_or_null<FunctionDecl>(VD->getParentFunctionOrMethod());
  if (!F || !F->getBody() || VD->getInit() ||
      !VD->getType()->isIntegerType())
    return std::nullopt;
  llvm::SmallVector<const DeclRefExpr *, 8> Refs;
  refsTo(F->getBody(), VD, Refs);
  const ParentMap &PM = Folder.parentsOf(F->getBody());
  std::optional<MapaAsm> Found;
  for (const DeclRefExpr *D : Refs) {
    if (!mayWrite(PM, D))
      continue;
    const Stmt *P = PM.getParent(D);
    while (P && isa<ParenExpr>(P))
      P = PM.getParent(P);
    const auto *A = dyn_cast_or_null<GCCAsmStmt>(P);
    auto M = A ? mapaAsm(*A) : std::nullopt;
    if (Found || !M || M->Out->IgnoreParens() != D)
      return std::nullopt;
    Found = M;
  }
  return Writers[VD] = Found;
}

std::optional<std::pair<unsigned, unsigned>>
PeerAddresses::helperParams(const FunctionDecl *FD) {
  if (!FD)
    return std::nullopt;
  if (auto It = Helpers.find(FD); It != Helpers.end())
    return It->second;
  Helpers[FD] = std::nullopt;
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def) || isa<CXXMethodDecl>(Def))
    return std::nullopt;
  // `{ T out; asm("mapa..." : "=r"(out) : "r"(addr(p)), "r"(rank)); return
  // out; }`.
  const auto *Body = dyn_cast<CompoundStmt>(Def->getBody());
  if (!Body || Body->size() != 3)
    return std::nullopt;
  const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
  const auto *A = dyn_cast<GCCAsmStmt>(*std::next(Body->body_begin()));
  auto M = A ? mapaAsm(*A) : std::nullopt;
  if (!Ret || !M || !isa<DeclStmt>(Body->body_front()))
    return std::nullopt;
  const VarDecl *Out = localOf(M->Out);
  if (!Out || Out != localOf(Ret->getRetValue()))
    return std::nullopt;
  const ParmVarDecl *Addr = paramOf(Finder.lookThrough(M->Addr), Def);
  const ParmVarDecl *Rank = paramOf(M->Rank, Def);
  if (!Addr || !Rank || Addr == Rank)
    return std::nullopt;
  return Helpers[FD] = std::make_pair(Addr->getFunctionScopeIndex(),
                                      Rank->getFunctionScopeIndex());
}

const Expr *PeerAddresses::mappedArgument(const CallExpr &Call) {
  auto P = helperParams(Call.getDirectCallee());
  if (!P || std::max(P->first, P->second) >= Call.getNumArgs())
    return nullptr;
  return Call.getArg(P->first);
}

std::optional<PeerAddress> PeerAddresses::peerOf(const Expr *E,
                                                 unsigned Depth) {
  if (!E || Depth > MaxDepth)
    return std::nullopt;
  E = Finder.lookThrough(E);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    auto P = helperParams(Call->getDirectCallee());
    if (!P || std::max(P->first, P->second) >= Call->getNumArgs())
      return std::nullopt;
    return PeerAddress{Call->getArg(P->first), Call->getArg(P->second)};
  }
  const VarDecl *VD = localOf(E);
  if (!VD)
    return std::nullopt;
  if (VD->getInit()) {
    if (!Folder.isNeverWritten(VD))
      return std::nullopt;
    return peerOf(VD->getInit(), Depth + 1);
  }
  if (auto M = onlyWriter(VD))
    return PeerAddress{M->Addr, M->Rank};
  return std::nullopt;
}

} // namespace clang::tidy::tma
