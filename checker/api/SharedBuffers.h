//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Resolves the shared-memory operand of a device op to the `__shared__`
// variable it points into: the alignment the declaration guarantees for the
// variable's start, the constant byte offset of the address, and the bytes
// left to the end of the variable. Indices fold with the ConstantFolder, so
// template constants and call-site contexts count; whatever does not fold is
// unknown.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_SHAREDBUFFERS_H
#define TMA_TIDY_API_SHAREDBUFFERS_H

#include "api/DeviceOps.h"
#include "folding/ConstantFolder.h"
#include "rules/Violation.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>

namespace clang::tidy::tma {

/// The `__shared__` variable that an address points into.
struct SharedBuffer {
  const VarDecl *Var = nullptr;
  /// An `extern __shared__` variable (dynamic shared memory): its size is
  /// set at launch and where its start lies is up to the launch.
  bool Extern = false;
  /// The alignment of the variable's start, in bytes. Static variables: the
  /// larger of alignas/__align__ and the type's natural alignment, which is
  /// all that is guaranteed. Extern variables: what the code takes the start
  /// to be aligned to, the largest of the declaration's __align__, its
  /// type's alignment, the alignment of a type the start is cast to
  /// (`*reinterpret_cast<SharedStorage *>(smem)`) and the 16 bytes dynamic
  /// shared memory starts at; the start may be more aligned, so only an
  /// offset that breaks this alignment is an answer (addressAlignOf).
  std::optional<std::uint64_t> BaseAlign;
  /// BaseAlign comes from an alignas/__align__ of the declaration.
  bool AlignDeclared = false;
  /// BaseAlign of an extern variable comes from the type it is cast to.
  bool AlignFromCast = false;
  /// The address was computed from one rounded down to a multiple of
  /// RoundedTo bytes at run time (`(p + 1023) & ~1023`, `p / 1024 * 1024`):
  /// BaseAlign is RoundedTo, certain but perhaps exceeded, and Offset
  /// counts from the rounded address. 0: not rounded.
  std::uint64_t RoundedTo = 0;
  /// The byte offset of the address from the variable's start.
  std::optional<std::int64_t> Offset;
  /// sizeof the variable; unknown for extern pools.
  std::optional<std::uint64_t> Size;
  /// Bytes from the address to the end of the variable; unknown for extern
  /// pools, rounded addresses, unknown offsets and offsets outside the
  /// variable.
  std::optional<std::uint64_t> BytesToEnd;
  /// When Offset is unknown because of run-time indices (`buf[stage]`,
  /// `buf + (k % S) * Stride`): the offset is Residue plus a multiple of
  /// Stride bytes. 0: not known in this form either.
  std::uint64_t Stride = 0;
  std::int64_t Residue = 0;
  /// A stage family (issue 24): the only run-time part of the address is a
  /// ring index over an array of Members stages (`buf[k % S]` with S the
  /// array's extent and k a counted loop's counter), which takes every
  /// stage; stage m starts Member0 + m * MemberStride bytes into the
  /// variable. 0: no such family.
  std::uint64_t Members = 0;
  std::int64_t Member0 = 0;
  std::uint64_t MemberStride = 0;
};

/// The alignment guaranteed for the address \p B describes (see
/// rules::addressAlign): unknown unless the offset is known; for an extern
/// pool and a rounded address known only when the offset proves it.
::tma::rules::Known addressAlignOf(const SharedBuffer &B);

/// Resolves shared-memory addresses of one translation unit. Evaluates under
/// the folder's current context (ConstantFolder::enterContext): parameters
/// of the op's function are the arguments of that call.
class SharedBuffers {
public:
  SharedBuffers(ASTContext &Ctx, ConstantFolder &Folder)
      : Ctx(Ctx), Folder(Folder) {}

  /// The buffer that the address \p E points into (E as in OpValue::E: a
  /// pointer, or an array or pointer lvalue). std::nullopt when it is not a
  /// `__shared__` variable reached through the forms below; unknown parts of
  /// a found buffer are unknown fields.
  ///
  /// Forms: `buf`, `&buf[i]`, `&buf[i][j]`, `buf + k`, `buf - k`,
  /// `reinterpret_cast<char *>(buf) + k`, `(T *)buf + k`, `&s.field`,
  /// `p->field`, `*p`, locals never reassigned after such an initialisation
  /// (pointers and references), parameters bound by the current context,
  /// calls of helpers and methods whose body is `return <one of these>;`
  /// (`this` standing for the call's object), ThunderKittens'
  /// `shared_allocator::allocate` (the pool, rounded up), and integers
  /// made of an address and rounded to a power of two
  /// (`(T *)(((uintptr_t)p + 1023) & ~uintptr_t(1023))`, `/ A * A`).
  std::optional<SharedBuffer> resolve(const Expr *E);

  /// resolve(V.E), plus the constant offset of an asm memory operand
  /// ([%0+16]).
  std::optional<SharedBuffer> resolve(const OpValue &V);

private:
  /// A location found so far: the variable and the offset into it.
  struct Location {
    const VarDecl *Var = nullptr;
    std::optional<std::int64_t> Offset;
    /// Offset is known modulo Stride bytes only (0: exactly).
    std::uint64_t Stride = 0;
    /// Offset counts from an address rounded to this many bytes (0: from
    /// the variable's start).
    std::uint64_t RoundedTo = 0;
    /// The largest alignment of a type that the variable's start (offset a
    /// multiple of it) was cast to a pointer to.
    std::uint64_t CastAlign = 0;
    /// A stage family: the ring index of the last run-time index added
    /// (SharedBuffer::Members), with the bytes per stage.
    std::uint64_t Members = 0, MemberStride = 0;
    /// Adds Elem bytes times the index \p Index (folded, or known as
    /// `Known + a multiple of Mod`).
    void addIndex(std::optional<std::int64_t> Elem,
                  std::optional<std::int64_t> Known, std::uint64_t Mod);
  };
  /// Whether the index \p E takes every value of [0, \p N) (a ring index):
  /// `k % N`, k the counter of an enclosing `for` stepping by one, directly
  /// or through a local never reassigned (`const int s = k % N;`).
  bool ringIndex(const Expr *E, std::uint64_t N, const CallContext *Context,
                 unsigned Depth);
  /// \p E as `Known + a multiple of Mod` under \p Context (Mod 0: E folds
  /// to Known).
  std::pair<std::optional<std::int64_t>, std::uint64_t>
  affineIndex(const Expr *E, const CallContext *Context, unsigned Depth);
  std::optional<Location> pointee(const Expr *E, const CallContext *Context,
                                  unsigned Depth);
  std::optional<Location> object(const Expr *E, const CallContext *Context,
                                 unsigned Depth);
  /// An allocation of ThunderKittens' bump allocator over extern shared
  /// memory (`al.allocate<T, N>()`, `al.allocate<Align, T>()`): the pool the
  /// allocator was built on, at an address rounded up to the allocation's
  /// alignment. std::nullopt for any other call.
  std::optional<Location> allocation(const CXXMemberCallExpr *Call,
                                     const CallContext *Context,
                                     unsigned Depth);
  /// Whether every use of the allocator \p VD is a call of its allocate
  /// (nothing else moves or rebuilds it); memoised.
  bool onlyAllocates(const VarDecl *VD);
  llvm::DenseMap<const VarDecl *, bool> OnlyAllocates;
  std::optional<Location>
  pointerValue(const Expr *E, const CallContext *Context, unsigned Depth);
  /// \p E, an integer, as an address (pointer-to-integer casts, sums with
  /// an offset, rounding to a power of two).
  std::optional<Location>
  integerAddress(const Expr *E, const CallContext *Context, unsigned Depth);
  std::optional<Location> entry(const Expr *E, const CallContext *Context,
                                unsigned Depth);
  /// \p E folded under \p Context, sign-extended.
  std::optional<std::int64_t> foldIndex(const Expr *E,
                                        const CallContext *Context);
  /// Whether every use of the local or parameter \p VD only reads its value.
  bool isNeverReassigned(const VarDecl *VD);
  /// The references to \p VD under \p Body (its statements' children, as
  /// a walk of the body reaches them), from one walk of the body for all its
  /// variables: a walk per variable cost a whole kernel body each.
  llvm::ArrayRef<const DeclRefExpr *> refsTo(const VarDecl *VD,
                                             const Stmt *Body);
  using VarRefs =
      llvm::DenseMap<const VarDecl *, llvm::SmallVector<const DeclRefExpr *, 4>>;
  llvm::DenseMap<const Stmt *, VarRefs> RefsByBody;
  /// Whether every reference to \p VD in \p Body passes \p Use; false
  /// without a body.
  template <typename UseFn>
  bool everyUse(const VarDecl *VD, const Stmt *Body, UseFn Use);
  SharedBuffer describe(const Location &L) const;

  ASTContext &Ctx;
  ConstantFolder &Folder;
  llvm::DenseMap<const VarDecl *, bool> NeverReassigned;
  /// The objects of the method calls being followed, innermost last, with
  /// the context they are evaluated in (what `this` stands for).
  llvm::SmallVector<std::pair<const Expr *, const CallContext *>, 4>
      ThisObjects;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_SHAREDBUFFERS_H
