//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Where the address of a tensor map goes in device code: which types hold a
// map, which statements are TMA operations that read or write one, the
// flow of a map's address from a variable through the kernel and the device
// functions it calls to such an operation, and whether every use of a
// parameter stays valid once it is const. tma-tensor-map-placement's facts.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_MAPUSES_H
#define TMA_TIDY_API_MAPUSES_H

#include "folding/ConstantFolder.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::tma::placement {

/// What an expression is with respect to the tensor map being followed.
enum class Ref {
  None,
  /// An lvalue that designates the map, or a subobject that holds one.
  Object,
  /// A variable whose value is the map's address.
  AddressVar,
  /// A value that is the map's address: a pointer or a 64-bit integer.
  Address,
};

/// The declarations, TMA candidates and references of one function body, in
/// source order.
struct BodyNodes {
  std::vector<const VarDecl *> Vars;
  std::vector<const Stmt *> Sites;
  std::vector<const DeclRefExpr *> Refs;
};

/// One walk per body, shared by the rules of the check: the kernel's rules
/// and the functions the address flow follows used to walk the same body
/// up to five times (a RecursiveASTVisitor each), once per rule and per
/// followed parameter. The walk does not descend into a lambda that the
/// matcher hands to check() itself: that lambda's body has its own walk, and
/// D nested lambdas walked below each other cost D^2 / 2 node visits. It
/// keeps where such a lambda was met, so that the All scope is rebuilt in
/// the order of one full walk from the walks of those lambdas.
class PlacementBodies {
public:
  /// \p OwnWalk: whether a lambda is handed to the check on its own (its
  /// body gets its own walk), as the check's matchers decide.
  explicit PlacementBodies(bool (*OwnWalk)(const LambdaExpr &))
      : OwnWalk(OwnWalk) {}
  /// Which nodes of a body a rule asks for.
  enum class Scope {
    /// All of them, lambdas included.
    All,
    /// Not those of the lambdas that the matcher hands to check()
    /// themselves.
    OwnOnly,
    /// Not those of any lambda (a lambda's body is another function).
    NoLambdas,
  };
  const BodyNodes &of(const Stmt *Body, Scope S);

private:
  /// A lambda the walk left out, and how many nodes of each kind the walk
  /// had met before it.
  struct Skipped {
    const LambdaExpr *Lambda;
    size_t Vars, Sites, Refs;
  };
  struct Walked {
    /// The nodes outside the lambdas the matcher hands over (OwnOnly).
    BodyNodes Own;
    /// Whether each node of Own is in a lambda (one the matcher does not
    /// hand over).
    std::vector<bool> VarIn, SiteIn, RefIn;
    std::vector<Skipped> Left;
    std::optional<BodyNodes> NoLambdas, All;
  };
  class Walker;
  bool (*OwnWalk)(const LambdaExpr &);
  const BodyNodes &allOf(Walked &W);
  Walked &walkOf(const LambdaExpr *Lambda);
  llvm::DenseMap<const Stmt *, std::unique_ptr<Walked>> Bodies;
  /// The walks of left-out lambdas (all their nodes, captures included),
  /// for the All scope of the bodies around them.
  llvm::DenseMap<const LambdaExpr *, std::unique_ptr<Walked>> Lambdas;
};

/// Follows the address of one kernel parameter through the kernel and the
/// device functions it calls.
class AddressFlow {
public:
  /// Which operations end the flow.
  enum class Mode {
    /// Every TMA operation that names a map.
    AnyTma,
    /// Only tensor copies, not tensormap.* instructions (which legitimately
    /// work on shared-memory copies of a map).
    CopiesOnly,
    /// Only the map operand of an instruction that writes a map:
    /// tensormap.replace and the destination of tensormap.cp_fenceproxy.
    MapWrites,
  };
  AddressFlow(ASTContext &Ctx, ConstantFolder &Folder,
              PlacementBodies &Bodies, unsigned MaxDepth,
              Mode M = Mode::AnyTma)
      : Ctx(Ctx), Folder(Folder), Bodies(Bodies), MaxDepth(MaxDepth), M(M) {}

  /// The statements from \p FD's body to the TMA operation that the map
  /// reaches, starting from \p Var (an Object or an AddressVar): the calls
  /// that pass it on, then the operation. Empty when nothing is proven.
  llvm::SmallVector<const Stmt *, 4>
  follow(const FunctionDecl &FD, const VarDecl &Var, Ref Kind, unsigned Depth);

private:
  ASTContext &Ctx;
  ConstantFolder &Folder;
  PlacementBodies &Bodies;
  const unsigned MaxDepth;
  const Mode M;
};

/// True when \p T is a tensor map, an array of them, or a class that holds
/// one (in a field or base, at any depth up to a few levels).
bool holdsMap(QualType T, unsigned Depth = 0);

/// True when \p T is the map type itself (not a class that holds one).
bool isMapType(QualType T);

/// True when \p FD is declared in namespace cuda::ptx.
bool isCudaPtx(const FunctionDecl &FD);

/// One instruction of an asm statement's text: its opcode and operands.
struct AsmInstruction {
  StringRef Opcode;
  SmallVector<StringRef, 4> Operands;
};

/// The instructions of \p S's text (labels, braces, predicates and comments
/// dropped); empty when the text is not a plain literal.
SmallVector<AsmInstruction, 4> asmInstructions(const GCCAsmStmt &S);

/// The C++ expression of asm operand \p Text ("%N", or a register that a
/// `mov` of the same text sets from "%N"); null otherwise.
const Expr *asmOperandExpr(const GCCAsmStmt &S, StringRef Text,
                           ArrayRef<AsmInstruction> Instructions);

/// True when \p Opcode writes the map its first operand names.
bool writesMap(StringRef Opcode);

/// True when every use of \p Param in \p Kernel still compiles once the
/// parameter is const.
bool survivesConst(const ParmVarDecl &Param, const FunctionDecl &Kernel,
                   ConstantFolder &Folder, PlacementBodies &Bodies);

} // namespace clang::tidy::tma::placement

#endif // TMA_TIDY_API_MAPUSES_H
