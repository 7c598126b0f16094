//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// One matcher per node kind for all tma- checks. MatchFinder pays for each
// registered matcher at each node of its kind (kind filter, traversal scope,
// the matcher's own predicates), and four checks want the device and kernel
// definitions, two the calls shaped like an encoder's or a driver lookup's:
// on a CUTLASS device pass that dispatch was about a fifth of the module's
// instructions. Here each kind is matched once, with one plain predicate,
// and the match goes to every check that asked for it, in the order they
// asked (the order their own matchers had).
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_SHAREDMATCHERS_H
#define TMA_TIDY_CHECKS_SHAREDMATCHERS_H

#include "clang-tidy/ClangTidyCheck.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <memory>
#include <optional>
#include <vector>

namespace clang::tidy::tma {

class SharedMatchers : public ast_matchers::MatchFinder::MatchCallback {
public:
  /// The ids the shared matchers bind their node to.
  static constexpr llvm::StringLiteral FunctionId = "tma-function";
  static constexpr llvm::StringLiteral CallId = "tma-call";
  static constexpr llvm::StringLiteral TuId = "tma-translation-unit";

  /// Which function definitions a check wants.
  enum class Functions {
    DeviceOrKernel, ///< __device__ or __global__
    Kernels,        ///< __global__
  };
  /// Which calls a check wants (a cheap test: argument count, callee name).
  using CallFilter = bool (*)(const CallExpr &);

  /// Sends \p Check the definitions \p Which of the TU that \p Finder
  /// matches, bound to FunctionId. The check keeps the result: the shared
  /// matchers live as long as one of their checks does.
  static std::shared_ptr<SharedMatchers>
  functions(ast_matchers::MatchFinder *Finder, ClangTidyCheck *Check,
            Functions Which);
  /// Sends \p Check the calls that \p Wants accepts, bound to CallId.
  static std::shared_ptr<SharedMatchers>
  calls(ast_matchers::MatchFinder *Finder, ClangTidyCheck *Check,
        CallFilter Wants);

  /// Whether some check wants \p Call.
  bool wantsCall(const CallExpr &Call) const;

  /// The definition run() is handing to the function checks now (never a
  /// dependent one), whether it has a body outside system headers, which is
  /// all those checks analyse, and whether it is a kernel: asked once per
  /// match instead of once per check (getNodeAs, isDependentContext and the system-header
  /// query cost ~10 M per check on a CUTLASS host pass).
  struct FunctionMatch {
    const FunctionDecl *Fn = nullptr;
    bool UserBody = false;
    /// A __global__ function.
    bool Kernel = false;
  };
  const FunctionMatch &function() const { return Current; }

  void run(const ast_matchers::MatchFinder::MatchResult &Result) override;
  /// Hands a match of the shared matchers to the checks that want it.
  void deliver(const ast_matchers::MatchFinder::MatchResult &Result);
  // The checks register no matcher of their own, so MatchFinder tells only
  // this callback about the TU's start and end: it tells each check once.
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;
  StringRef getID() const override { return "tma-shared-matchers"; }

private:
  static std::shared_ptr<SharedMatchers>
  forFinder(ast_matchers::MatchFinder *Finder);
  void subscribe(ClangTidyCheck *Check);

  ast_matchers::MatchFinder *Finder = nullptr;
  bool FunctionsAdded = false, CallsAdded = false;
  /// The translation unit being matched, and the traversal scope that
  /// clangd set before widenTraversalScope widened it (restored after
  /// checkWidenedScope).
  ASTContext *Ctx = nullptr;
  std::optional<std::vector<Decl *>> NarrowScope;
  /// Whether the checks had the TU from checkWidenedScope's own walk.
  bool Walked = false;
  /// Walks the widened scope with the shared matchers alone and ends the
  /// checks' TU on it; restores clangd's scope.
  void checkWidenedScope();
  struct FunctionSub {
    ast_matchers::MatchFinder::MatchCallback *Check;
    Functions Which;
  };
  struct CallSub {
    ast_matchers::MatchFinder::MatchCallback *Check;
    CallFilter Wants;
  };
  std::vector<FunctionSub> FunctionSubs;
  FunctionMatch Current;
  std::vector<CallSub> CallSubs;
  /// Every subscribed check once, in the order of subscription.
  std::vector<ast_matchers::MatchFinder::MatchCallback *> Checks;
};

/// Whether the functions matcher hands \p Lambda's call operator to the
/// checks on its own (a non-template __device__ or __global__ definition):
/// a walk of the function around it need not descend into it (D nested
/// lambdas were walked D, D - 1, ... times).
bool matchedOnItsOwn(const LambdaExpr &Lambda);

/// Fn->isDependentContext(), memoised per lambda call operator for the
/// translation unit being matched: clang's answer walks up every enclosing
/// context, and a lambda D deep asked it D levels up. The functions matcher
/// hands no function for which this is true to the checks.
bool isDependentFunction(const FunctionDecl &Fn);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_SHAREDMATCHERS_H
