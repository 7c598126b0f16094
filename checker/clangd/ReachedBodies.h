//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// Which of the bodies that the preamble keeps as tokens the main file can
// reach (PreambleBodies.cpp parses those at the preamble's end and drops
// the others), and when an edit of the main file must rebuild the preamble
// because it starts naming one that was dropped.
//
// Reaching is by names, as a raw scan sees them: the identifiers of the
// main file after its preamble (comments and strings included), then,
// transitively, those of each body whose function has a reached name (its
// declarator's too: default arguments), and those of each reached macro's
// definition. Constructors, destructors, operators and conversions have no
// name a file writes: their bodies are always reached, and so are the
// functions that a language rule calls by a fixed name (begin, end, get,
// ...). A macro that pastes tokens (##) reaches every body; an #include
// after the preamble (a header that the scan does not read) too.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_CLANGD_REACHEDBODIES_H
#define TMA_TIDY_CLANGD_REACHEDBODIES_H

#include "clang/Lex/Token.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class FunctionDecl;
class IdentifierInfo;
class Preprocessor;
} // namespace clang

namespace clang::tidy::tma::clangd {

/// The bodies of one preamble and the names they mention.
class BodySelection {
public:
  /// \p MainFile: the main file's name and whole text; \p PreambleSize: the
  /// bytes of it that the preamble covers.
  BodySelection(Preprocessor &PP, llvm::StringRef MainFile,
                llvm::StringRef MainText, unsigned PreambleSize);

  /// A body parsed in the preamble: the names it mentions (its templates'
  /// bodies reach the helpers they call).
  void addParsed(const FunctionDecl &FD,
                 llvm::ArrayRef<const IdentifierInfo *> Names);
  /// A body kept as tokens (`{` to `}`, macros expanded), and the names of
  /// its declarator.
  void addTokens(FunctionDecl &FD, llvm::ArrayRef<Token> Body,
                 llvm::ArrayRef<const IdentifierInfo *> Declarator);

  struct Reached {
    FunctionDecl *FD;
    llvm::SmallVector<Token, 0> Body;
  };
  /// The bodies kept as tokens that the main file reaches, in the order
  /// they were added; remembers, for the main file, the names whose use
  /// would reach one of the others (mainFileNeedsBodies). Once.
  std::vector<Reached> select();

  /// For TMA_TIDY_STATS.
  unsigned dropped() const { return Dropped; }
  unsigned triggers() const { return NumTriggers; }
  llvm::StringRef why() const { return Why; }

private:
  struct Body {
    FunctionDecl *FD = nullptr;
    llvm::SmallVector<Token, 0> Toks;
    std::vector<const IdentifierInfo *> Names;
    bool AsTokens = false;
    bool Reached = false;
  };
  void add(Body B, const IdentifierInfo *Name);

  Preprocessor &PP;
  std::string MainFile;
  std::string Region;
  /// The words of the main file after its preamble.
  llvm::StringSet<> MainWords;
  /// Whether the scan found `include` after the preamble.
  bool MainIncludes = false;
  std::vector<Body> Bodies;
  /// Bodies by their function's name; those without one are roots.
  llvm::DenseMap<const IdentifierInfo *, llvm::SmallVector<unsigned, 1>> ByName;
  std::vector<unsigned> Roots;
  unsigned Dropped = 0, NumTriggers = 0;
  std::string Why;
};

/// Calls \p Each with every identifier of \p Text as a raw scan sees it
/// (comments and strings included; numbers skipped).
void forEachWord(llvm::StringRef Text,
                 llvm::function_ref<void(llvm::StringRef)> Each);

/// Whether \p MainText (the file \p MainFile, its preamble the first
/// \p PreambleSize bytes) names something whose body the preamble built
/// last for it dropped, or includes a header after the preamble while some
/// body was dropped: its preamble must be built again.
bool mainFileNeedsBodies(llvm::StringRef MainFile, llvm::StringRef MainText,
                         unsigned PreambleSize);

} // namespace clang::tidy::tma::clangd

#endif // TMA_TIDY_CLANGD_REACHEDBODIES_H
