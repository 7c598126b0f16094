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
#include <cstdint>
#include <optional>

namespace clang::tidy::tma {

/// The `__shared__` variable that an address points into.
struct SharedBuffer {
  const VarDecl *Var = nullptr;
  /// An `extern __shared__` pool (dynamic shared memory): its size is set at
  /// launch and its start may be more aligned than BaseAlign.
  bool Extern = false;
  /// The alignment of the variable's start that is certain, in bytes: the
  /// larger of alignas/__align__ and the type's natural alignment. For an
  /// extern pool only the type's natural alignment, at most 16 bytes: an
  /// __align__ on it does not reliably raise the start (tma-rules.md
  /// TMA-SMEM-ALIGN-128).
  std::optional<std::uint64_t> BaseAlign;
  /// BaseAlign comes from an alignas/__align__ of the declaration.
  bool AlignDeclared = false;
  /// The byte offset of the address from the variable's start.
  std::optional<std::int64_t> Offset;
  /// sizeof the variable; unknown for extern pools.
  std::optional<std::uint64_t> Size;
  /// Bytes from the address to the end of the variable; unknown for extern
  /// pools, unknown offsets and offsets outside the variable.
  std::optional<std::uint64_t> BytesToEnd;
  /// When Offset is unknown because of run-time indices (`buf[stage]`,
  /// `buf + (k % S) * Stride`): the offset is Residue plus a multiple of
  /// Stride bytes. 0: not known in this form either.
  std::uint64_t Stride = 0;
  std::int64_t Residue = 0;
};

/// The alignment guaranteed for the address \p B describes (see
/// rules::addressAlign): unknown unless the offset is known; for an extern
/// pool known only when the offset proves it.
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
  /// (pointers and references), parameters bound by the current context, and
  /// calls of helpers whose body is `return <one of these>;`.
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
    /// Adds Elem bytes times the index \p Index (folded, or known as
    /// `Known + a multiple of Mod`).
    void addIndex(std::optional<std::int64_t> Elem,
                  std::optional<std::int64_t> Known, std::uint64_t Mod);
  };
  /// \p E as `Known + a multiple of Mod` under \p Context (Mod 0: E folds
  /// to Known).
  std::pair<std::optional<std::int64_t>, std::uint64_t>
  affineIndex(const Expr *E, const CallContext *Context, unsigned Depth);
  std::optional<Location> pointee(const Expr *E, const CallContext *Context,
                                  unsigned Depth);
  std::optional<Location> object(const Expr *E, const CallContext *Context,
                                 unsigned Depth);
  std::optional<Location>
  pointerValue(const Expr *E, const CallContext *Context, unsigned Depth);
  std::optional<Location> entry(const Expr *E, const CallContext *Context,
                                unsigned Depth);
  /// \p E folded under \p Context, sign-extended.
  std::optional<std::int64_t> foldIndex(const Expr *E,
                                        const CallContext *Context);
  /// Whether every use of the local or parameter \p VD only reads its value.
  bool isNeverReassigned(const VarDecl *VD);
  SharedBuffer describe(const Location &L) const;

  ASTContext &Ctx;
  ConstantFolder &Folder;
  llvm::DenseMap<const VarDecl *, bool> NeverReassigned;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_SHAREDBUFFERS_H
