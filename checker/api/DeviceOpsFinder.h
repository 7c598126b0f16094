//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Recognises device ops: the instructions of inline `asm` statements (parsed
// by api/PtxParser, each operand bound to its C++ expression) and calls of
// the library wrappers of tma-rules.md section 8 (cuda::ptx, the cde
// wrappers of cuda::device::experimental, cuda::device::barrier_*_tx and
// memcpy_async_tx, cuda::memcpy_async on its cp.async.bulk path, the
// barriers of cutlass::arch and CuTe's SM90_TMA_*_<N>D copy atoms). All
// produce the model of api/DeviceOps.h.
//
// The wrappers are themselves written with inline asm. CCCL's are in system
// headers, which the checks skip; CUTLASS and CuTe are often included as
// user headers, so the finder itself answers nothing for the asm statements
// and calls inside the bodies of the CUTLASS and CuTe functions it
// recognises: each operation is seen once, at the caller's call.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_DEVICEOPSFINDER_H
#define TMA_TIDY_API_DEVICEOPSFINDER_H

#include "api/DeviceOps.h"
#include "api/PtxParser.h"
#include "folding/ConstantFolder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <map>
#include <memory>
#include <string>
#include <optional>
#include <vector>

namespace clang::tidy::tma {

/// The value of an operand: its immediate, else its written expression
/// folded by \p Folder; nullopt when absent or unknown.
std::optional<uint64_t> foldOperand(const OpValue &V, ConstantFolder &Folder);

/// The asm text \p Text of the extended asm statement \p S with each operand
/// reference inside an instruction's modifiers (`.cta_group::%6`) replaced
/// by the value of its "n" operand, as the compiler substitutes it; a
/// reference whose value is unknown stays (the parser then does not read
/// the modifier).
std::string substituteModifierImmediates(const GCCAsmStmt &S, StringRef Text,
                                         const ASTContext &Ctx);

/// Finds the device ops of asm statements and library calls of one
/// translation unit. "Never modified" is answered by the TU's shared folder
/// (per-body parent maps, memoised per variable), so one finder should serve
/// a whole TU.
class DeviceOpsFinder {
public:
  explicit DeviceOpsFinder(ASTContext &Ctx) : Ctx(Ctx) {}

  /// The finder of the translation unit \p Ctx, shared by every check that
  /// holds it, so that each asm statement is parsed once per TU. Checks
  /// release it at the end of the TU.
  static std::shared_ptr<DeviceOpsFinder> forTranslationUnit(ASTContext &Ctx);

  /// The ops of the recognised instructions of \p S, in text order; empty
  /// when the text holds none (or is not a plain string literal).
  std::vector<DeviceOp> opsOf(const GCCAsmStmt &S);

  /// The op of \p Call when it calls a recognised library wrapper.
  std::optional<DeviceOp> opOf(const CallExpr &Call);

  /// Whether \p FD is a library function that arrives on an mbarrier by an
  /// instruction no DeviceOp models: cuda::ptx's `tcgen05_commit{,_mc}` and
  /// `cp_async_mbarrier_arrive{,_noinc}`, and the NVVM builtins
  /// `__nvvm_cp_async_mbarrier_arrive*` (ptx::isUndecodedArrive for asm).
  static bool isUndecodedArrive(const FunctionDecl &FD, const ASTContext &Ctx);

  /// \p E without the conversions that only turn a pointer into a PTX
  /// address: parentheses, implicit and explicit integer or pointer casts,
  /// __cvta_generic_to_{shared,global}, calls of one-line helpers that return
  /// such a conversion of a parameter, and locals that are never modified
  /// after such an initialisation.
  const Expr *lookThrough(const Expr *E);

  /// For a call of an address conversion (__cvta_generic_to_shared) or of a
  /// one-line helper that returns such a conversion of a parameter
  /// (`smem_u32(ptr)`, cute::cast_smem_ptr_to_uint), the argument it
  /// converts; otherwise null. The result keeps the argument's identity.
  const Expr *addressHelperArgument(const CallExpr &Call) {
    return helperArgument(&Call, 0);
  }

  /// A statement of a body that may issue ops: an asm statement or a call;
  /// or a lambda, whose body is not part of the list.
  struct OpStmt {
    const Stmt *S;
    /// In the condition or the discarded branch of an `if constexpr`: never
    /// compiled, nor run.
    bool Discarded;
  };
  /// The asm statements, calls and lambdas of \p Body in pre-order, not
  /// descending into lambdas (a lambda's call operator is a function of its
  /// own); collected once per body: the same body is read by several checks,
  /// as a checked function, as a helper at each of its calls and as a
  /// callee.
  llvm::ArrayRef<OpStmt> opStmtsOf(const Stmt *Body);

  /// What the same walk of \p Body (opStmtsOf's) meets besides: the
  /// constructions (their constructors may issue ops), and the expressions
  /// that default arguments, default member initialisers and opaque values
  /// stand for, which the walk does not enter (children() does not reach
  /// them). A reader of every statement a body may run (KernelModel's
  /// reach) walks these as bodies of their own; not descending into
  /// lambdas either.
  struct BodyExtras {
    std::vector<const CXXConstructExpr *> Constructs;
    std::vector<const Expr *> Hidden;
    /// A reference to a `__shared__` variable (a buffer access KernelModel
    /// may record without a parameter).
    bool NamesShared = false;
    /// A reference to an `extern __shared__` variable: the dynamic
    /// shared-memory pool, which every such variable of a kernel aliases.
    bool NamesPool = false;
    /// An indirect goto, a try, a Microsoft or SEH statement: control flow
    /// or code that KernelModel does not follow.
    bool Irregular = false;
  };
  const BodyExtras &extrasOf(const Stmt *Body);

  /// Whether \p FD (or what it calls) may issue an mbarrier or bulk op: a
  /// recognised op, an asm text that names mbarrier or .async.bulk, a call
  /// through a pointer or of a function without a definition, or a call of
  /// such a function outside system headers (address helpers, see
  /// addressHelperArgument, only convert). The least fixpoint over the
  /// call graph (a recursion adds nothing), memoised per definition; a
  /// chain deeper than the recursion budget answers true without being
  /// memoised, so that an answer never depends on the order of the
  /// questions.
  bool mayIssueOps(const FunctionDecl *FD);

private:
  bool mayIssueOps(const FunctionDecl *FD, unsigned &Low);
  const Expr *lookThrough(const Expr *E, unsigned Depth);
  const Expr *helperArgument(const CallExpr *Call, unsigned Depth);
  bool isNeverModified(const VarDecl *VD);

  std::vector<DeviceOp> parseAsm(const GCCAsmStmt &S);
  std::optional<DeviceOp> computeOpOf(const CallExpr &Call);
  std::optional<DeviceOp> memcpyAsyncOp(const CallExpr &Call,
                                        const FunctionDecl &FD);
  std::optional<DeviceOp> libraryMethodOp(const CallExpr &Call,
                                          const CXXMethodDecl &MD);
  const std::vector<DeviceOp> &bodyOps(const FunctionDecl *FD, unsigned Depth);
  bool reachesBulkCopy(const FunctionDecl *FD, unsigned Depth);
  bool inLibraryBody(const Stmt *S);
  bool pointsInto(const Expr *E, device::Space Space, unsigned Depth);
  bool objectIn(const Expr *E, device::Space Space, unsigned Depth);
  const Expr *alignedSizeValue(const Expr *E, unsigned Depth);

  ASTContext &Ctx;
  /// The TU's folder, taken on first use (it answers isNeverWritten).
  std::shared_ptr<ConstantFolder> Folder;
  /// The answers of opsOf and opOf, and the parse of each distinct asm text
  /// (keyed by 's' or 'e', simple or extended asm, and the text).
  llvm::DenseMap<const GCCAsmStmt *, std::vector<DeviceOp>> AsmOps;
  llvm::DenseMap<const CallExpr *, std::optional<DeviceOp>> CallOps;
  struct Parse {
    std::vector<::tma::ptx::Instruction> Instructions;
    /// TMA statements of the text the parser did not recognise.
    unsigned Unrecognised = 0;
  };
  std::map<std::string, Parse> Parses;
  /// The ops of the asm statements of a library function's body.
  llvm::DenseMap<const FunctionDecl *, std::vector<DeviceOp>> BodyOps;
  /// Whether a cuda:: function's instantiation reaches
  /// cuda::ptx::cp_async_bulk.
  llvm::DenseMap<const FunctionDecl *, bool> ReachesBulk;
  /// opStmtsOf and extrasOf, per body (one walk).
  struct BodyStmts {
    std::vector<OpStmt> Ops;
    BodyExtras Extras;
  };
  const BodyStmts &bodyStmtsOf(const Stmt *Body);
  llvm::DenseMap<const Stmt *, std::unique_ptr<BodyStmts>> OpStmts;
  /// mayIssueOps per definition: Yes, No, or on the stack of the questions
  /// being answered (Tarjan's: a function of a recursion whose answer waits
  /// for the function at Index).
  struct IssueState {
    enum { OnStack, Yes, No } State;
    unsigned Index;
  };
  llvm::DenseMap<const FunctionDecl *, IssueState> Issues;
  std::vector<const FunctionDecl *> IssueStack;
  /// Set when a question ran past the recursion budget.
  bool IssueCut = false;
  /// The asm statements and calls inside the recognised CUTLASS and CuTe
  /// functions; built on first use.
  std::optional<llvm::DenseSet<const Stmt *>> LibraryStmts;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_DEVICEOPSFINDER_H
