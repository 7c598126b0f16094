//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// What MapLink's two halves share (api/MapLink.cpp: from a device op's
// operand to the launch; api/MapLinkHost.cpp: from the launch argument to
// the encode call): access paths into objects, the uses of a variable, and
// what a call does with a pointer it receives. Internal to MapLink.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_MAPLINKPATHS_H
#define TMA_TIDY_API_MAPLINKPATHS_H

#include "api/MapLink.h"

#include "clang/AST/ParentMap.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::tma::maplink {

/// Steps (parameters, variables, pointers, returns, helpers) followed from
/// one device operand; a helper chain of four functions takes about 16.
constexpr unsigned MaxLinkDepth = 32;

/// One write of a map variable (or of the map a pointer variable points to).
struct MapWrite {
  /// The statement of the write in its block.
  const Stmt *At;
  /// The map written; std::nullopt for a write the link cannot follow.
  std::optional<LinkedMap> Source;
};

const Expr *stripValue(const Expr *E);

const VarDecl *varOf(const Expr *E);

/// The parameter that argument \p Arg of \p Call binds in \p Callee (a
/// member operator call, such as a lambda's, passes the object first).
std::optional<unsigned> paramIndexOf(const CallExpr &Call,
                                     const FunctionDecl &Callee, unsigned Arg);

/// The full statement of \p E: E's outermost enclosing expression (or
/// declaration) below a statement that is not an expression.
const Stmt *statementOf(const ParentMap &PM, const Stmt *E);

/// The uses of \p Var in \p S, with whether one lies in a lambda.
void usesIn(const Stmt *S, const VarDecl *Var,
            llvm::SmallVectorImpl<const DeclRefExpr *> &Out, bool &InLambda,
            bool Nested = false);

/// The uses of `this` in \p S (explicit and implicit), with whether one lies
/// in a lambda.
void thisUsesIn(const Stmt *S, llvm::SmallVectorImpl<const Expr *> &Out,
                bool &InLambda, bool Nested = false);

/// Walks up from a use of a variable through parentheses, casts (loads
/// included) and one address-of; reports the expression reached and whether the
/// address was taken.
const Expr *useRoot(const ParentMap &PM, const Expr *Use, bool &AddressTaken);

/// The declaration statement of the local \p Var within \p S.
const DeclStmt *declarationOf(const Stmt *S, const VarDecl *Var);

/// Which argument of \p Call is \p Arg; std::nullopt for the callee.
std::optional<unsigned> argumentIndex(const CallExpr &Call, const Expr *Arg);

using PathStep = MapLinker::PathStep;

using AccessPath = MapLinker::AccessPath;

using PathRef = MapLinker::PathRef;

/// Whether the first \p Taken steps of \p Path end at a pointer whose
/// pointee holds the rest (a pointer field of a Params struct).
bool pointeeAfter(PathRef Path, size_t Taken);

bool hasDeref(PathRef Path);

AccessPath prepend(PathStep Step, PathRef Path);

/// The index of a subscript of an array object (not of a pointer) when it
/// is a constant expression.
std::optional<uint64_t> constantIndex(const ArraySubscriptExpr &ASE,
                                      const ASTContext &Ctx);

/// Peels `.field` and constant `[i]` steps off the object expression \p E
/// and puts them in front of \p Path. Returns the object they start from;
/// \p ThroughPointer when a `->field` step starts from a pointer (returned).
const Expr *peelObject(const Expr *E, AccessPath &Path, bool &ThroughPointer,
                       const ASTContext &Ctx);

/// The initialiser of the part \p Step in the (semantic) initialiser list
/// \p ILE; null when the list does not initialise that part.
const Expr *initFor(const InitListExpr &ILE, const PathStep &Step);

/// The access path of one use of a variable: the steps from the variable to
/// the part that the use designates (End). Opaque: a run-time index follows.
struct UsePath {
  const Expr *End = nullptr;
  AccessPath Steps;
  bool Opaque = false;
};

/// Walks up from \p Use through `.field` and `[i]` steps (`->field` first
/// when the variable is a pointer to the object, \p Pointer).
UsePath usePathOf(const ParentMap &PM, const Expr *Use, bool Pointer,
                  const ASTContext &Ctx);

/// How the part a use designates relates to the map at \p Want: another
/// part, a part that holds the map (or the map), or one that may overlap it.
enum class PathRel { Unrelated, Holds, MayOverlap };

PathRel relate(const UsePath &U, PathRef Want);

/// Whether \p Root (a pointer's value) is only tested: compared, negated,
/// or converted to bool.
bool onlyTested(const ParentMap &PM, const Expr *Root);

/// The value assigned to the lvalue \p LHS (`*d = other`, also through a
/// class type's operator=), or null.
const Expr *assignedTo(const ParentMap &PM, const Expr *LHS);

/// Whether the pointer value \p Root is stored into a field of a struct
/// (`params.tma_a = d`, `Params{d, ...}`).
bool storedInStruct(const ParentMap &PM, const Expr *Root);

/// Whether parameter \p ArgIdx of \p Call's callee is a reference to
/// non-const (an out-parameter taken by reference).
bool bindsMutableReference(const CallExpr &Call, unsigned ArgIdx);

bool isCalled(const CallExpr &Call, llvm::ArrayRef<StringRef> Names);

/// A runtime or driver function that receives a pointer (argument
/// \p Arg) without writing what it points to and without keeping it for a
/// later write: frees, queries and hints. A loop that frees or queries its
/// maps after their launches (h100_gemm's profiling loop) changes no map
/// that the next iteration's launch reads; a launch after a free is a
/// use-after-free, not another map. (Functions whose parameter is a
/// pointer to const, such as cudaPointerGetAttributes or
/// cudaMemPrefetchAsync, read by their declaration.)
bool isReadOnlyRuntimeCall(const CallExpr &Call, unsigned Arg);

/// Whether the asm text of \p S may write a tensor map in global memory:
/// tensormap.replace on a .global map or a generic address (only
/// .shared::cta names a shared copy), or tensormap.cp_fenceproxy, whose
/// destination is global.
bool asmWritesGlobalMap(const GCCAsmStmt &S);

/// Whether \p Call is a cuda::ptx call that writes a map in global memory:
/// tensormap_replace_*(space_global, map, ...), tensormap_cp_fenceproxy.
bool callWritesGlobalMap(const CallExpr &Call);

} // namespace clang::tidy::tma::maplink

#endif // TMA_TIDY_API_MAPLINKPATHS_H
