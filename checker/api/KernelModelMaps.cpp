//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Builder's tensor-map operands: the map object a kernel's `CUtensorMap *`
// names, and the writes of a map in global memory (stores through the
// pointer, tensormap.replace in asm and cuda::ptx).
//
//===----------------------------------------------------------------------===//

#include "api/KernelModelBuilder.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::tidy::tma {
namespace kmodel {

void Builder::mapWrite(const Expr *Lhs, SourceLocation Loc) {
  if (mapPartWrite(Lhs, Loc) || !holdsMap(Lhs->getType(), 0))
    return;
  // A whole map, or an object holding one, stored through a pointer
  // the map's address names.
  if (std::optional<MapAddress> A = mapAddress(Lhs))
    mapEvent(EventKind::MapWrite, mapObjectAt(*A, Lhs), Loc);
}

bool Builder::holdsMap(QualType T, unsigned Depth) {
  if (Depth > 4 || T.isNull())
    return false;
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return holdsMap(AT->getElementType(), Depth + 1);
  const auto *RD = T->getAsRecordDecl();
  if (!RD || RD->isDependentType())
    return false;
  if (RD->getIdentifier() && RD->getName().starts_with("CUtensorMap"))
    return true;
  const RecordDecl *Def = RD->getDefinition();
  return Def && llvm::any_of(Def->fields(), [&](const FieldDecl *F) {
           return holdsMap(F->getType(), Depth + 1);
         });
}

namespace {
/// Where an lvalue or pointer path starts: the reference it reaches, and
/// whether the path dereferences on the way.
struct PathRoot {
  const DeclRefExpr *Ref = nullptr;
  bool Derefs = false;
  /// The walk stopped at a parameter bound to an argument (\p Through said
  /// so).
  bool Bound = false;
};
} // namespace

/// Walks the path \p E (subscripts, members, `*`, `&`, casts, pointer
/// arithmetic) down to the reference it starts from, through the arguments
/// \p B binds to the parameters it meets while \p Through (asked with
/// whether the path dereferenced so far) says so. std::nullopt for a path
/// of another shape.
static std::optional<PathRoot>
pathRoot(const Expr *E, const ParamBindings *B,
         llvm::function_ref<bool(bool Derefs)> Through) {
  bool Derefs = false;
  while (E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *D = dyn_cast<DeclRefExpr>(E)) {
      const auto *P = dyn_cast<ParmVarDecl>(D->getDecl());
      if (P && B)
        if (const Expr *Arg = B->lookup(P)) {
          if (!Through(Derefs))
            return PathRoot{D, Derefs, true};
          E = Arg;
          continue;
        }
      return PathRoot{D, Derefs, false};
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      Derefs = true;
      E = A->getBase();
    } else if (const auto *M = dyn_cast<MemberExpr>(E)) {
      Derefs |= M->isArrow();
      E = M->getBase();
    } else if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      if (U->getOpcode() != UO_Deref && U->getOpcode() != UO_AddrOf)
        return std::nullopt;
      Derefs |= U->getOpcode() == UO_Deref;
      E = U->getSubExpr();
    } else if (const auto *C = dyn_cast<CastExpr>(E)) {
      E = C->getSubExpr();
    } else if (const auto *Bin = dyn_cast<BinaryOperator>(E);
               Bin && Bin->isAdditiveOp()) {
      E = Bin->getLHS()->getType()->isPointerType() ? Bin->getLHS()
                                                    : Bin->getRHS();
    } else {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

bool Builder::mapPartWrite(const Expr *Lhs, SourceLocation Loc) {
  // Through a bound parameter only once the path dereferences: before, it
  // is the helper's own pointer, not the map.
  std::optional<PathRoot> R =
      pathRoot(Lhs, bindings(), [](bool Derefs) { return Derefs; });
  if (!R)
    return false;
  if (R->Bound)
    return true;
  const auto *P = dyn_cast<ParmVarDecl>(R->Ref->getDecl());
  if (!R->Derefs || !P || !isTensorMapPointer(P->getType()))
    return false;
  int Map = mapObject(R->Ref);
  mapEvent(EventKind::MapWrite, Map, Loc);
  return Map >= 0;
}

bool Builder::isTensorMapPointer(QualType T) {
  if (!T->isPointerType())
    return false;
  const auto *RD = T->getPointeeType()->getAsRecordDecl();
  return RD && RD->getIdentifier() && RD->getName().starts_with("CUtensorMap");
}

void Builder::mapEvent(EventKind Kind, int Map, SourceLocation Loc) {
  if (Map < 0)
    return;
  Event E;
  E.Kind = Kind;
  E.Map = Map;
  emit(E, Loc);
}

int Builder::asmMapOperand(const GCCAsmStmt &S, llvm::StringRef Operands) {
  llvm::StringRef First = Operands.split(',').first.trim(" \t[]");
  unsigned Index = 0;
  if (!First.consume_front("%") || First.getAsInteger(10, Index) ||
      Index < S.getNumOutputs() ||
      Index - S.getNumOutputs() >= S.getNumInputs())
    return -1;
  const Expr *E = S.getInputExpr(Index - S.getNumOutputs());
  for (;;) {
    E = E->IgnoreParenCasts();
    const auto *C = dyn_cast<CallExpr>(E);
    if (!C || C->getNumArgs() != 1)
      break;
    E = C->getArg(0); // __as_ptr_gmem(p), __cvta_generic_to_global(p)
  }
  return mapObject(E);
}

int Builder::mapObject(const OpValue &V) { return V.E ? mapObject(V.E) : -1; }

int Builder::mapObject(const Expr *E) {
  std::optional<MapAddress> A = mapAddress(E);
  return A ? mapObjectAt(*A, bound(E)) : -1;
}

std::optional<MapAddress> Builder::mapAddress(const Expr *E) {
  return Maps.of(E, Stack.front(), [this](const ParmVarDecl *P) {
    const ParamBindings *B = bindings();
    const Expr *Arg = B ? B->lookup(P) : nullptr;
    return Arg ? Finder.lookThrough(Arg) : nullptr;
  });
}

int Builder::mapObjectAt(const MapAddress &A, const Expr *Spelt) {
  for (const auto &[Key, Id] : MapKeys)
    if (Key == A)
      return Id;
  std::string Name = A.Root->getName().str();
  if (A.Offset != 0)
    Name += " + " + std::to_string(A.Offset) + " bytes";
  if (Spelt) {
    const SourceManager &SM = Ctx.getSourceManager();
    CharSourceRange R = CharSourceRange::getTokenRange(
        Spelt->IgnoreParenImpCasts()->getSourceRange());
    llvm::StringRef Text = R.getBegin().isMacroID() || R.getEnd().isMacroID()
                               ? llvm::StringRef()
                               : Lexer::getSourceText(R, SM, Ctx.getLangOpts());
    Text = Text.ltrim("&*").trim();
    if (!Text.empty() && Text.size() <= 48 && !Text.contains('\n'))
      Name = Text.str();
  }
  MapKeys.push_back({A, newObject(A.Root, std::move(Name))});
  return MapKeys.back().second;
}

bool Builder::tensorMapWrite(const FunctionDecl &FD, const CallExpr &C) {
  if (!FD.getIdentifier())
    return false;
  llvm::StringRef Name = FD.getName();
  const Expr *Map = nullptr;
  if (Name.starts_with("tensormap_replace_") && C.getNumArgs() >= 2) {
    // space_global_t, or what it names: space_t<dot_space::global>.
    std::string Space = C.getArg(0)->getType().getCanonicalType().getAsString();
    if (!llvm::StringRef(Space).contains("global"))
      return false;
    Map = C.getArg(1);
  } else if (Name == "tensormap_cp_fenceproxy" && C.getNumArgs() == 5) {
    Map = C.getArg(2);
  } else {
    return false;
  }
  mapEvent(EventKind::MapWrite, mapObject(Map), C.getBeginLoc());
  return true;
}

bool Builder::namesMapPointer(const Expr *E) const {
  std::optional<PathRoot> R =
      pathRoot(E, bindings(), [](bool) { return true; });
  const auto *P = R ? dyn_cast<ParmVarDecl>(R->Ref->getDecl()) : nullptr;
  return P && isTensorMapPointer(P->getType());
}

} // namespace kmodel

} // namespace clang::tidy::tma
