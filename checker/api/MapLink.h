//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The host-to-device map link: from the tensor-map operand of a device op,
// through the kernel parameter and the launch that binds it, back to the
// host encode call that wrote the map. It follows locals, globals,
// `__constant__` maps set with cudaMemcpyToSymbol, device-side local
// pointers and references (never written, or every assignment the same
// map), device copies made with
// cudaMemcpy, helpers that encode through an out-parameter, and functions
// and lambdas that return a map, getters that return a part of their object
// (device) and constructors that encode into a field (host), ThunderKittens'
// gl<> and descriptor_dict. Maps are keyed by access path on both
// sides: a root variable and the fields and constant indices below it
// (`p.tma_a` of a `Params` kernel parameter, `maps[1]`, `g.a.desc`, the
// pointee of a `const CUtensorMap *tma_a` field). Anything
// it cannot prove (two possible writers, an unknown call that may write the
// map, a run-time index) ends the link: no encode call, and the rules that
// need one stay silent.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_MAPLINK_H
#define TMA_TIDY_API_MAPLINK_H

#include "api/DeviceOpKinds.h"
#include "api/EncodeCall.h"
#include "folding/ConstantFolder.h"
#include "rules/TensorCopyRules.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include <map>
#include <optional>

namespace clang::tidy::tma {

/// The encode call that wrote a map, and the context to fold it in.
struct LinkedMap {
  const CallExpr *Encode = nullptr;
  EncodeKind Kind = EncodeKind::Tiled;
  /// The call chain to the function that holds Encode (null: no binding).
  const CallContext *Context = nullptr;
};

/// A linked map with its operands folded.
struct KnownMap {
  LinkedMap Link;
  rules::MapDescriptor Desc;
  /// The operand of Encode that holds the box (boxDim, or pixelsPerColumn
  /// for im2col maps), for notes.
  const Expr *BoxArg = nullptr;
  /// The host call that hands the map to the device, for notes: the kernel
  /// launch, or the cudaMemcpyToSymbol call (ToSymbol).
  const CallExpr *Handoff = nullptr;
  bool ToSymbol = false;
};

/// The rule model's name of a tensor copy's load mode.
rules::CopyMode copyModeOf(::tma::device::TensorMode M);

/// Follows tensor-map operands back to their encode calls. One per TU; it
/// shares the TU's folder, whose contexts it extends.
class MapLinker {
public:
  explicit MapLinker(ConstantFolder &Folder, ASTContext &Ctx)
      : Folder(Folder), Ctx(Ctx) {}

  /// The map that the tensor-map operand \p Map (a pointer to the map, as
  /// DeviceOps's OpValue::E gives it) of a device op designates when the op
  /// runs in \p Context (a context of the op's function, from the folder's
  /// contextsOf), folded in the encode call's context. std::nullopt when the
  /// link is not proven.
  std::optional<KnownMap> mapOf(const Expr *Map, const CallContext *Context);

  /// Host side: the map that the pointer \p Map designates at \p At, a
  /// statement of the host function \p Fn running in \p Context (the
  /// tensorMap operand of cuTensorMapReplaceAddress), folded in the encode
  /// call's context. std::nullopt when the link is not proven.
  std::optional<KnownMap> hostMapOf(const Expr *Map, const FunctionDecl *Fn,
                                    const Stmt *At,
                                    const CallContext *Context);

  /// One step of an access path: a field, or a constant array index.
  /// Deref: the step's part is a pointer (`const CUtensorMap *tma_a` of a
  /// Params struct) and the rest of the path lies in its pointee. It names
  /// no other part, so steps compare by field and index alone.
  struct PathStep {
    const FieldDecl *Field = nullptr;
    uint64_t Index = 0;
    bool Deref = false;
    bool operator==(const PathStep &O) const {
      return Field == O.Field && Index == O.Index;
    }
  };
  /// The steps from an object to the map inside it, outermost first.
  using AccessPath = llvm::SmallVector<PathStep, 2>;
  using PathRef = llvm::ArrayRef<PathStep>;

private:
  /// A place in a host function: the function, the statement the map is
  /// read at, and the context the function runs in.
  struct Place {
    const FunctionDecl *Fn = nullptr;
    const Stmt *At = nullptr;
    const CallContext *Context = nullptr;
  };
  /// The map the one cudaMemcpyToSymbol of \p Var copies (\p Copy), at
  /// \p Path inside the symbol.
  std::optional<LinkedMap> fromSymbol(const VarDecl *Var, PathRef Path,
                                      const CallExpr *&Copy);
  /// The map that every non-null assignment of the device-side local
  /// pointer \p Local designates (\p Path empty), in \p Context.
  std::optional<KnownMap> reassignedMap(const VarDecl *Local, PathRef Path,
                                        const CallContext *Context);
  /// The map at \p Path inside the object that the pointer \p E points to.
  std::optional<LinkedMap> fromPointer(const Expr *E, Place P, unsigned Depth,
                                       PathRef Path = {});
  /// The map at \p Path inside the object \p E.
  std::optional<LinkedMap> fromValue(const Expr *E, Place P, unsigned Depth,
                                     PathRef Path = {});
  /// The map at the rest of \p Path inside the part \p E that its first
  /// \p Taken steps lead to: E's value, or E's pointee after a Deref step.
  std::optional<LinkedMap> fromPart(const Expr *E, Place P, unsigned Depth,
                                    PathRef Path, size_t Taken);
  std::optional<LinkedMap> fromVar(const VarDecl *Var, bool Pointee, Place P,
                                   unsigned Depth, PathRef Path);
  /// What a call does to the map at \p Path inside the object whose
  /// pointer (or, for a reference parameter, the object itself) it
  /// receives as argument \p ArgIdx: reads it, writes it (Source: the map
  /// written, when the link can follow), or something unknown.
  struct CallWrite {
    enum KindType { Read, Write, Unknown } Kind;
    std::optional<LinkedMap> Source;
  };
  CallWrite writeThrough(const CallExpr &Call, unsigned ArgIdx,
                         const CallContext *Context, unsigned Depth,
                         PathRef Path);
  CallWrite fromOutParam(const CallExpr *Call, const FunctionDecl *Callee,
                         unsigned Param, const CallContext *Parent,
                         unsigned Depth, PathRef Path);
  /// The uses (of a pointer or reference parameter, or of `this` in a
  /// constructor: \p This) of the function \p P.Fn, running in P.Context:
  /// what they write at \p Path inside the object.
  CallWrite writesThrough(llvm::ArrayRef<const Expr *> Uses, bool This,
                          bool Pointer, Place P, unsigned Depth, PathRef Path);
  /// The map at \p Path inside the object that \p CE constructs: its member
  /// initialiser, then what the constructor's body writes.
  std::optional<LinkedMap> fromConstruct(const CXXConstructExpr *CE,
                                         unsigned Depth, PathRef Path);
  /// For a method that returns a pointer to (or a reference to) a part of
  /// its object, the call's object; \p Fields gets the fields to the part
  /// in front. Null for any other call.
  const Expr *getterObject(const CXXMemberCallExpr *Call, AccessPath &Fields,
                           unsigned Depth);
  std::optional<LinkedMap> fromReturn(const CallExpr *Call,
                                      const FunctionDecl *Callee, bool Pointer,
                                      const CallContext *Parent,
                                      unsigned Depth, PathRef Path);
  const ReturnStmt *soleReturn(const FunctionDecl &FD);
  /// The place of the call that \p Context stands for.
  Place callerPlace(const CallContext *Context);
  /// The kernel that the launch \p Call (<<<>>>, cudaLaunchKernelEx) runs:
  /// named directly, through a never-written local function pointer, or
  /// through a parameter that \p Context binds; null when unknown.
  const FunctionDecl *launchedKernel(const CallExpr &Call,
                                     const CallContext *Context);
  /// Whether \p Fn, or a function it calls, may write a tensor map in
  /// global memory (tensormap.replace.global, tensormap.cp_fenceproxy into
  /// global memory, their cuda::ptx wrappers; a call the walk cannot follow
  /// may). A launch of such a kernel writes the maps it receives through
  /// pointers: later launches may read other values. Memoised.
  bool mayWriteGlobalMaps(const FunctionDecl *Fn, unsigned Depth = 0);
  bool bodyMayWriteGlobalMaps(const Stmt *S, unsigned Depth);
  /// A statement `params.tma_a = d` (or `Params p{d}`) whose pointer the
  /// link follows from the struct: while the pointee is checked at the
  /// struct's read, that store is no escape of d.
  llvm::SmallVector<const Stmt *, 2> FollowedStores;
  /// Helpers being followed whose result (or out-parameter) holds the map
  /// behind a pointer (`return Params{d};`, `out->tma_a = d;`): a pointer
  /// that comes from one of their parameters is the caller's, which may
  /// write through it between the call and the read, out of the link's
  /// sight.
  llvm::SmallVector<const FunctionDecl *, 2> PointerBuilders;
  KnownMap describe(const LinkedMap &L);

  ConstantFolder &Folder;
  ASTContext &Ctx;
  std::map<std::pair<const Expr *, const CallContext *>,
           std::optional<KnownMap>>
      Memo;
  /// The cudaMemcpyToSymbol calls of the TU by symbol, built on first use.
  std::optional<
      llvm::DenseMap<const VarDecl *, llvm::SmallVector<const CallExpr *, 1>>>
      SymbolCopies;
  llvm::DenseMap<const FunctionDecl *, const ReturnStmt *> SoleReturns;
  llvm::DenseMap<const FunctionDecl *, bool> MapWriters;
  /// The functions whose walk is in progress, and whether an answer of
  /// the walk counted on one of them or on the depth bound.
  llvm::SmallVector<const FunctionDecl *, 8> MapWalk;
  bool Provisional = false;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_MAPLINK_H
