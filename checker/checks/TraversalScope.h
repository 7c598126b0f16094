//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// clangd hands the checks the main file's top-level declarations only (the
// AST's traversal scope): the headers of the preamble, and those included
// later, are not walked. The checks see a __device__ helper only where they
// match it (its ops, checked in the contexts of its calls, reported at the
// caller's argument), and the call indexes and parent maps are built by
// walks of the traversal scope: with the PTX wrappers in a header, clangd
// showed 1 of tma-tidy's 5 warnings.
//
// widenTraversalScope adds to a restricted scope the function definitions
// outside it that the main file reaches by calls (and references), directly
// or through other such functions, outside system headers: each in the
// place of the TU's order that a walk of the whole TU visits it. Everything
// that walks the scope then sees them, as it sees the whole TU in
// clang-tidy. Definitions the main file does not reach cannot put a
// diagnostic in it, so they are left out. SharedMatchers walks the widened
// scope with the tma- checks' matchers alone and restores clangd's scope
// before clang-tidy's finder walks it: clangd's other checks keep to the
// main file.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CHECKS_TRAVERSALSCOPE_H
#define TMA_TIDY_CHECKS_TRAVERSALSCOPE_H

#include <optional>
#include <vector>

#include <memory>

namespace clang {
class ASTContext;
class Decl;
class FunctionDecl;
} // namespace clang

namespace clang::tidy::tma {

/// Whether \p Ctx's traversal scope is narrower than the whole TU (clangd).
bool hasRestrictedTraversalScope(const ASTContext &Ctx);

/// Widens a restricted traversal scope as above; returns the scope it
/// replaced (to restore), or nullopt when the scope is the whole TU or
/// nothing was added.
std::optional<std::vector<Decl *>> widenTraversalScope(ASTContext &Ctx);

/// Gives, on demand, a function the body that the AST left out (tma-clangd:
/// the preamble keeps some headers' bodies as tokens, clangd/LateBodies.cpp;
/// the instantiations of the headers' templates wait for the walk,
/// clangd/DeferredInstantiations.cpp).
class BodyProvider {
public:
  virtual ~BodyProvider() = default;
  /// Gives \p Def (a definition without a body) its body; whether it has
  /// one now.
  virtual bool provide(const FunctionDecl &Def) = 0;
  /// Instantiates \p F, a template specialization whose instantiation
  /// waited for the walk; whether it has a body now.
  virtual bool instantiate(const FunctionDecl &F) = 0;
  /// Whether the walk visits implicit code (default arguments, member
  /// initialisers, range-for calls, implicit members): the references there
  /// may name an instantiation that waits.
  virtual bool walksImplicitCode() const = 0;
  /// Whether the walk descends into \p Def, a body of a system header, for
  /// the bodies it reaches (it is not checked).
  virtual bool walksSystemBody(const FunctionDecl &Def) const = 0;
};
using BodyProviderFactory = std::unique_ptr<BodyProvider> (*)(ASTContext &);
/// tma-clangd installs its provider; the plugin has none (whole bodies).
void setBodyProviderFactory(BodyProviderFactory Factory);

/// tma-clangd: told when the checks join a finder, that is before clangd
/// parses the file that finder will match (and only then: clangd's other
/// parses, code completion and the index, are left alone).
using BeforeParseHook = void (*)();
void setBeforeParseHook(BeforeParseHook Hook);
/// Calls the hook, if one is installed (SharedMatchers).
void beforeParse();

} // namespace clang::tidy::tma

#endif // TMA_TIDY_CHECKS_TRAVERSALSCOPE_H
