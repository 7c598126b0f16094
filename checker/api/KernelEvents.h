//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Event recognisers of the kernel model (api/KernelModel) for the surfaces
// the device-op finder does not cover because they order or name rather
// than issue: which builtins and body-less CUDA intrinsics are a thread
// barrier (`__syncthreads`, `bar.sync`) and which are not (`__shfl_sync`,
// votes, `__syncwarp`); libcu++'s `init(&bar, n)` on a `cuda::barrier`;
// the generic shared-memory reads of inline PTX (`ld.shared`,
// `ldmatrix`); and the barrier a pointer designates through helper
// parameters, local pointers and `cuda::device::barrier_native_handle`.
// KernelModel calls each from one place; nothing here emits events.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_KERNELEVENTS_H
#define TMA_TIDY_API_KERNELEVENTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/FoldingSet.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::tma::events {

/// The annotation that tma-clangd puts on a device function of a system
/// header whose body it leaves out of the preamble because a scan of its
/// tokens found nothing the model reads (clangd/PreambleBodies.cpp):
/// values in and out, no barrier, fence, wait, asynchronous or memory
/// operation. Such a function orders nothing, as its body would show.
inline constexpr llvm::StringLiteral QuietBodySkipped =
    "tma-tidy.quiet-body-skipped";

/// What a call of a builtin or of a body-less CUDA intrinsic orders.
enum class IntrinsicRole {
  None,       ///< nothing: math, address conversions, shuffles, votes
  ThreadSync, ///< a barrier of the threads of the block (or cluster)
  WarpSync,   ///< a barrier of the threads of one warp (`__syncwarp`)
  Opaque,     ///< it may order memory in a way the model does not know
};

/// The role of the builtin \p Name (`__syncthreads`, `__nvvm_bar_sync`,
/// `__nvvm_shfl_sync_idx_i32`, `__nvvm_mbarrier_init_shared`).
IntrinsicRole builtinRole(llvm::StringRef Name);

/// The role of a call of \p FD, which has no body in the translation unit
/// (stub headers declare `__shfl_sync`, `__syncthreads` or
/// cooperative_groups' `thread_rank()` without one).
IntrinsicRole bodylessRole(const FunctionDecl &FD);

/// A library function that orders nothing the model tracks, whatever its
/// body says in this compilation pass: `cuda::ptx::fence_mbarrier_init`
/// (it publishes an init to the cluster's async proxy; in the host pass its
/// body is a stub call).
bool ordersNothing(const FunctionDecl &FD);

/// Whether \p RD is libcu++'s `cuda::barrier`.
bool isCudaBarrier(const CXXRecordDecl *RD);

/// The one field of \p RD when it is a class that only wraps a 64-bit
/// integer, an mbarrier word (ThunderKittens' `semaphore`, tilelang's
/// `Barrier`): one field, no base, no virtual member, the class's size;
/// else null.
const FieldDecl *oneWordField(const RecordDecl &RD);

/// libcu++'s `init(&bar, n[, completion])` on a `cuda::barrier`: the
/// pointer to the barrier; null for any other call.
const Expr *libcudacxxInitBarrier(const FunctionDecl &FD, const CallExpr &C);

/// What a member call on a barrier object does to it: libcu++'s
/// `cuda::barrier` arrive / wait / arrive_and_wait (whose bodies are NVVM
/// builtins), CUTLASS's `ClusterBarrier::arrive()` and `wait(phase)` (whose
/// static forms reach the barrier through `this`).
struct BarrierMember {
  bool Arrives = false, Waits = false;
  /// The body says the same (CUTLASS's asm), for a barrier the model
  /// cannot name.
  bool BodyModelled = false;
};
BarrierMember barrierMember(const CXXMethodDecl &MD);

/// An inline PTX instruction that reads shared memory with a generic load
/// (`ld.shared.b32 %0, [%1];`, `ldmatrix.sync.aligned.x4.m8n8.shared.b16
/// {...}, [%4];`): the asm operand number of its address; std::nullopt for
/// any other instruction (a register address, a non-shared load, an async
/// proxy read such as wgmma).
std::optional<unsigned> asmSharedReadOperand(llvm::StringRef Opcode,
                                             llvm::StringRef Operands);

/// The asm operand numbers of the shared-memory matrix descriptors that an
/// MMA instruction reads: `wgmma.mma_async {d..}, a, b, ...` (a unless it
/// is a register fragment `{..}`), `tcgen05.mma [d], a, b, idesc, ...` (a
/// unless it is a tensor-memory address `[..]`). Empty for any other
/// instruction.
llvm::SmallVector<unsigned, 2> mmaDescriptorOperands(llvm::StringRef Opcode,
                                                     llvm::StringRef Operands);

/// The `[%n]` memory operand of an instruction's operand list.
std::optional<unsigned> memoryOperand(llvm::StringRef Operands);

/// What one instruction of an inline asm text gives the kernel model
/// besides the device ops the finder recognises in it.
enum class AsmLineKind {
  Commit,      ///< cp.async.bulk.commit_group
  WaitGroup,   ///< cp.async.bulk.wait_group{.read} N
  SharedWrite, ///< stmatrix, st.shared: a generic store to shared memory
  SharedRead,  ///< ld.shared, ldmatrix (asmSharedReadOperand)
  MmaRead,     ///< wgmma.mma_async, tcgen05.mma: shared-memory descriptors
               ///< (mmaDescriptorOperands)
  CpAsyncWait, ///< cp.async.wait_group / wait_all: a wait on no barrier
  ThreadSync,  ///< bar.*, barrier.*
  WarpSync,    ///< bar.warp.sync
  Inval,       ///< mbarrier.inval
  MapWrite,    ///< tensormap.replace (.global), tensormap.cp_fenceproxy
  Tma,         ///< another mbarrier / bulk / proxy-fence instruction
  Opaque,      ///< any other fence or membar
};
struct AsmLine {
  AsmLineKind Kind;
  llvm::StringRef Opcode, Operands;
  /// SharedWrite, SharedRead: the operand number of the address.
  std::optional<unsigned> Address;
};
/// The instructions of \p Text that give the model something, in text
/// order (those that give nothing, wgmma.fence, mov, setmaxnreg, arithmetic, are
/// left out): a text for which it is empty shows no event but its ops.
llvm::SmallVector<AsmLine, 4> asmLines(llvm::StringRef Text);

/// Whether a bulk-group commit or wait that the model knows by its name
/// (`tl::tma_store_wait<N, Read>`, `cute::tma_store_arrive`) is told by its
/// body instead: \p FD has one, and the body as written (the template's,
/// before `if constexpr` drops a branch) holds an asm commit or wait_group.
/// The walk of the body decides then (an emptied branch is no wait); the
/// name is the fallback for a body without one (a host pass's stub).
bool groupBodyDecides(const FunctionDecl &FD);

/// A memory access of one CFG element: the lvalue it reads or writes.
struct Access {
  const Expr *LValue;
  bool Write;
  SourceLocation Loc;
};

/// The lvalues that the CFG element \p S reads and writes, reads first:
/// a scalar load (an lvalue-to-rvalue conversion); an assignment, compound
/// assignment (read and write) or increment; the copy or move of a
/// class-typed object (`uint4 v = buf[i]`, a `__nv_bfloat16` passed by
/// value, `a[i] = b[j]` on `float4`), whose constructor or assignment
/// operator reads its source; a conversion operator or const member of a
/// small value class that reads its object (cutlass `half_t`'s
/// `operator float()`, `to_half()`), read as a copy reads it. The operands of
/// \p S are elements of their own, so nothing is reported twice.
llvm::SmallVector<Access, 2> accessesOf(const Stmt *S);

/// Whether the member \p M selects a part of one element of a buffer (the
/// `.x` of `buf[i].x`, the bits of a `__half`) rather than a buffer of a
/// struct (`smem.a`): its base is an array element or a dereference and
/// its record is a vector-like value (at most four fields of one scalar
/// type). An access through it is an access of the buffer.
bool selectsElementPart(const MemberExpr &M);

/// A barrier as the model names it: the `__shared__` variable at its root,
/// the fields and indices down to the 8-byte mbarrier, as a key, and
/// whether every index is a constant.
struct BarrierName {
  const VarDecl *Root = nullptr;
  llvm::FoldingSetNodeID Key;
  bool Fixed = true;
  /// "bar", "smem.full": the root and the fields on the way; with Root,
  /// the family of barriers the name is a member of (indices left out).
  std::string Display;
  /// The one run-time index that selects the member (`full[k % S]`), and
  /// the number of members of the array it indexes (0: unknown); null when
  /// the name is fixed or has other run-time parts.
  const Expr *Index = nullptr;
  std::uint64_t Members = 0;
  /// Index selects a barrier of a byte pool (`base + OFF + s * 8`): the
  /// family's members are not counted by an array's extent.
  bool Pool = false;
  /// A barrier of an `extern __shared__` byte pool named by its offset
  /// alone (no field on the way): the offset in bytes, and the bytes per
  /// member of its family (0: one barrier).
  std::optional<std::int64_t> PoolOffset;
  std::int64_t PoolStride = 0;
  /// A barrier of a `__shared__` array that is no `extern` pool, of one
  /// or two dimensions, named by indices of which at most one is a
  /// run-time one (`bars[s]`, `base + 56 + s * 8` with `base` the array's
  /// window address, `pingpong[1][s]`, `bars[s][2]`): its element in the
  /// array seen as one dimension, as a constant part, the elements per unit
  /// of the run-time index (0: fixed) and that index. MBAR-UNINIT tells an
  /// array's barriers apart by it (PoolSlot, in elements).
  std::optional<std::int64_t> ElementOffset;
  std::int64_t ElementStride = 0;
  const Expr *ElementIndex = nullptr;
  /// With an index: the members its family has at most, those that lie in
  /// the array (in the row, for the inner index of an array of arrays).
  std::uint64_t ElementMembers = 0;
};

/// The expression a helper parameter or a local pointer or reference
/// stands for (its argument at the call being walked, its initialiser), or
/// null. Asked for null, the object `this` stands for in the member
/// function being walked (the object of its call, an lvalue or a pointer),
/// or null.
using Substitution = llvm::function_ref<const Expr *(const VarDecl *)>;

/// The object `this` stands for in the member function that \p C calls
/// (a user barrier or pipeline class): its object argument, an lvalue or
/// (`p->f()`) a pointer, or \p Outer, the caller's, when that is `this`.
/// Null when \p C calls no non-static member, when the object is no part
/// of a `__shared__` variable, or when an argument of \p C names the
/// caller's `this` (which the callee's would then stand for wrongly).
const Expr *thisObject(const CallExpr &C, const Expr *Outer, Substitution Subst,
                       const ASTContext &Ctx);

/// For a call of an address helper (`smem_u32(p)`,
/// `__cvta_generic_to_shared(p)`): p; null otherwise (and a null helper).
using AddressHelper = llvm::function_ref<const Expr *(const CallExpr &)>;

/// The barrier the address or lvalue \p E designates: through `&`, `*`,
/// subscripts, members, casts, constant offsets, helper parameters,
/// local pointers and `this` (\p Subst), `cuda::device::barrier_native_handle(b)`; the
/// `cuda::barrier` object and its native `uint64_t` are one barrier;
/// integer shared-window addresses (`__cvta_generic_to_shared(p)`, an
/// address helper \p Helper knows, plus a constant byte offset and one
/// run-time term `s * 8`): offsets count in bytes, so `base + 40 + s * 8`
/// with `base` the window address of `char smem[]` and
/// `reinterpret_cast<uint64_t *>(smem + 40) + s` are one member of one
/// family. std::nullopt when it is no `__shared__` variable's part.
std::optional<BarrierName> barrierNameOf(const Expr *E, Substitution Subst,
                                         const ASTContext &Ctx,
                                         AddressHelper Helper = nullptr);

/// Whether the address \p E is the first byte of a one-dimensional buffer
/// of \p Root (the variable or one of its fields, `&s.C[0]`, `smem_c`):
/// every index on the way is zero and the buffer is no array of arrays
/// (whose stages a copy of the first one does not cover).
bool startOfBuffer(const Expr *E, Substitution Subst, const ASTContext &Ctx,
                   const VarDecl *Root);

/// Whether \p P is taken by value, or by const reference to a scalar (`const
/// uint32_t &i`: read once by a one-return body, the same as a copy).
bool valueLike(const ParmVarDecl &P);

/// The one return of the accessor member \p C calls (no argument, an
/// lvalue reference returned by one `return E;`: tilelang's
/// `Barrier::storage()`), in the member's terms (`this` is C's object), or
/// null: the call designates what E designates.
const Expr *accessorReturn(const CXXMemberCallExpr &C);

/// The one returned expression of a call of a lambda that takes its
/// arguments by value (`[&](int s) { return &full[s]; }`), or null.
const Expr *byValueLambdaReturn(const CallExpr &C);

/// For a call of a const member of an accessor object whose body is one
/// `return func(i);`, `func` a field that holds a lambda with such a return
/// (`auto full = Visitor([=](const uint32_t &i) { return bars + i; });`,
/// then `full[s]`), called with the member's parameters or constants: that
/// inner call (the lambda's closure type names its body), or null.
const CallExpr *accessorClosureCall(const CallExpr &C);

} // namespace clang::tidy::tma::events

#endif // TMA_TIDY_API_KERNELEVENTS_H
