//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// See ReachedBodies.h. The names whose use in the main file would reach a
// dropped body (the dropped functions' names, and backwards, the names of
// the bodies and macros that mention one of them) are kept per main file
// for the wrap of clang::PrecompiledPreamble::CanReuse (-Wl,--wrap, see
// CMakeLists.txt), which clangd asks before it reuses a preamble for an
// edit: an edit that writes one of them, or an #include after the
// preamble, makes clangd build the preamble again, now with that body.
//
//===----------------------------------------------------------------------===//

#include "clangd/ReachedBodies.h"

#include "clang/AST/Decl.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <mutex>

namespace clang::tidy::tma::clangd {
namespace {

bool wordStart(char C) { return llvm::isAlpha(C) || C == '_' || C == '$'; }
bool wordChar(char C) { return llvm::isAlnum(C) || C == '_' || C == '$'; }

/// Functions that a language rule calls by a name the file need not write:
/// range-for's begin and end, structured bindings' get.
bool calledImplicitly(llvm::StringRef Name) {
  return Name == "begin" || Name == "end" || Name == "get";
}

/// What the wrap of CanReuse needs of the preamble last built for a file.
struct FileTriggers {
  /// The preamble's text (the part of the file it covers).
  std::string Region;
  llvm::StringSet<> Names;
};

std::mutex RegistryMutex;
llvm::StringMap<std::shared_ptr<const FileTriggers>> &registry() {
  static llvm::StringMap<std::shared_ptr<const FileTriggers>> Files;
  return Files;
}

void remember(llvm::StringRef File, std::shared_ptr<const FileTriggers> T) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  if (T)
    registry()[File] = std::move(T);
  else
    registry().erase(File);
}

} // namespace

void forEachWord(llvm::StringRef Text,
                 llvm::function_ref<void(llvm::StringRef)> Each) {
  const char *P = Text.begin(), *E = Text.end();
  while (P != E) {
    if (wordStart(*P)) {
      const char *B = P;
      while (P != E && wordChar(*P))
        ++P;
      Each(llvm::StringRef(B, P - B));
    } else if (llvm::isDigit(*P)) {
      // A number, its suffix and exponent with it (1_x's literal operator
      // is a root).
      while (P != E && (wordChar(*P) || *P == '.'))
        ++P;
    } else {
      ++P;
    }
  }
}

BodySelection::BodySelection(Preprocessor &PP, llvm::StringRef MainFile,
                             llvm::StringRef MainText, unsigned PreambleSize)
    : PP(PP), MainFile(MainFile.str()) {
  PreambleSize = std::min<size_t>(PreambleSize, MainText.size());
  Region = MainText.take_front(PreambleSize).str();
  // Looked up at the preamble's end, when the headers' names are known.
  forEachWord(MainText.drop_front(PreambleSize), [&](llvm::StringRef W) {
    if (W == "include")
      MainIncludes = true;
    MainWords.insert(W);
  });
}

void BodySelection::add(Body B, const IdentifierInfo *Name) {
  unsigned I = Bodies.size();
  Bodies.push_back(std::move(B));
  if (Name && !calledImplicitly(Name->getName()))
    ByName[Name].push_back(I);
  else
    Roots.push_back(I);
}

void BodySelection::addParsed(const FunctionDecl &FD,
                              llvm::ArrayRef<const IdentifierInfo *> Names) {
  Body B;
  B.Names.assign(Names.begin(), Names.end());
  add(std::move(B), FD.getIdentifier());
}

void BodySelection::addTokens(
    FunctionDecl &FD, llvm::ArrayRef<Token> Toks,
    llvm::ArrayRef<const IdentifierInfo *> Declarator) {
  Body B;
  B.FD = &FD;
  B.AsTokens = true;
  B.Toks.assign(Toks.begin(), Toks.end());
  B.Names.assign(Declarator.begin(), Declarator.end());
  for (const Token &T : Toks)
    if (const IdentifierInfo *II = T.getIdentifierInfo())
      B.Names.push_back(II);
  add(std::move(B), FD.getIdentifier());
}

std::vector<BodySelection::Reached> BodySelection::select() {
  // Forward: what the main file reaches.
  llvm::DenseSet<const IdentifierInfo *> Seen;
  std::vector<const IdentifierInfo *> Work;
  bool Everything = MainIncludes;
  if (Everything)
    Why = "an #include after the preamble";
  auto Name = [&](const IdentifierInfo *II) {
    if (II && Seen.insert(II).second)
      Work.push_back(II);
  };
  auto Reach = [&](unsigned I) {
    if (Bodies[I].Reached)
      return;
    Bodies[I].Reached = true;
    for (const IdentifierInfo *II : Bodies[I].Names)
      Name(II);
  };
  const IdentifierTable &Table = PP.getIdentifierTable();
  for (const auto &W : MainWords) {
    auto It = Table.find(W.getKey());
    if (It != Table.end())
      Name(It->second);
  }
  for (unsigned I : Roots)
    Reach(I);
  while (!Work.empty() && !Everything) {
    const IdentifierInfo *II = Work.back();
    Work.pop_back();
    if (II->hasMacroDefinition())
      if (const MacroInfo *MI =
              PP.getMacroInfo(const_cast<IdentifierInfo *>(II)))
        for (const Token &T : MI->tokens()) {
          if (T.is(tok::hashhash)) {
            Everything = true;
            Why = ("the macro " + II->getName() + " pastes tokens").str();
            break;
          }
          Name(T.getIdentifierInfo());
        }
    auto It = ByName.find(II);
    if (It != ByName.end())
      for (unsigned I : It->second)
        Reach(I);
  }

  std::vector<Reached> Out;
  llvm::DenseSet<const IdentifierInfo *> DroppedNames;
  for (Body &B : Bodies) {
    if (!B.AsTokens)
      continue;
    if (B.Reached || Everything) {
      Out.push_back({B.FD, std::move(B.Toks)});
      continue;
    }
    ++Dropped;
    DroppedNames.insert(B.FD->getIdentifier());
  }
  if (DroppedNames.empty()) {
    remember(MainFile, nullptr);
    return Out;
  }

  // Backward: the names that reach a dropped body, through the bodies and
  // every macro of the preamble. A macro that pastes tokens is one.
  llvm::DenseMap<const IdentifierInfo *,
                 llvm::SmallVector<const IdentifierInfo *, 2>>
      MentionedBy;
  std::vector<const IdentifierInfo *> Back(DroppedNames.begin(),
                                           DroppedNames.end());
  for (const auto &[II, Indices] : ByName)
    for (unsigned I : Indices)
      for (const IdentifierInfo *M : Bodies[I].Names)
        MentionedBy[M].push_back(II);
  for (const auto &Macro : PP.macros()) {
    const IdentifierInfo *II = Macro.first;
    const MacroInfo *MI = PP.getMacroInfo(const_cast<IdentifierInfo *>(II));
    if (!MI)
      continue;
    for (const Token &T : MI->tokens()) {
      if (T.is(tok::hashhash)) {
        Back.push_back(II);
        break;
      }
      if (const IdentifierInfo *M = T.getIdentifierInfo())
        MentionedBy[M].push_back(II);
    }
  }
  auto T = std::make_shared<FileTriggers>();
  T->Region = Region;
  T->Names.insert("include");
  llvm::DenseSet<const IdentifierInfo *> Marked(Back.begin(), Back.end());
  while (!Back.empty()) {
    const IdentifierInfo *II = Back.back();
    Back.pop_back();
    T->Names.insert(II->getName());
    auto It = MentionedBy.find(II);
    if (It != MentionedBy.end())
      for (const IdentifierInfo *By : It->second)
        if (Marked.insert(By).second)
          Back.push_back(By);
  }
  NumTriggers = T->Names.size();
  remember(MainFile, std::move(T));
  return Out;
}

bool mainFileNeedsBodies(llvm::StringRef MainFile, llvm::StringRef MainText,
                         unsigned PreambleSize) {
  std::shared_ptr<const FileTriggers> T;
  {
    std::lock_guard<std::mutex> Lock(RegistryMutex);
    auto It = registry().find(MainFile);
    if (It == registry().end())
      return false;
    T = It->second;
  }
  PreambleSize = std::min<size_t>(PreambleSize, MainText.size());
  // Another preamble of the file, built after this one: its triggers are
  // not this one's.
  if (MainText.take_front(PreambleSize) != T->Region)
    return true;
  bool Needs = false;
  forEachWord(MainText.drop_front(PreambleSize), [&](llvm::StringRef W) {
    Needs = Needs || T->Names.contains(W);
  });
  return Needs;
}

} // namespace clang::tidy::tma::clangd

// clang's PrecompiledPreamble::CanReuse, renamed by the linker's --wrap, and
// ours, which clangd's isPreambleCompatible reaches instead.
// NOLINTBEGIN(misc-use-internal-linkage)
bool clangPreambleCanReuse(const clang::PrecompiledPreamble *This,
                           const clang::CompilerInvocation &Invocation,
                           const llvm::MemoryBufferRef &MainFileBuffer,
                           clang::PreambleBounds Bounds,
                           llvm::vfs::FileSystem &VFS) __asm__(
    "__real__ZNK5clang19PrecompiledPreamble8CanReuseERKNS_18CompilerInvocation"
    "ERKN4llvm15MemoryBufferRefENS_14PreambleBoundsERNS4_3vfs10FileSystemE");
bool tmaPreambleCanReuse(const clang::PrecompiledPreamble *This,
                         const clang::CompilerInvocation &Invocation,
                         const llvm::MemoryBufferRef &MainFileBuffer,
                         clang::PreambleBounds Bounds,
                         llvm::vfs::FileSystem &VFS) __asm__(
    "__wrap__ZNK5clang19PrecompiledPreamble8CanReuseERKNS_18CompilerInvocation"
    "ERKN4llvm15MemoryBufferRefENS_14PreambleBoundsERNS4_3vfs10FileSystemE");
// NOLINTEND(misc-use-internal-linkage)

bool tmaPreambleCanReuse(const clang::PrecompiledPreamble *This,
                         const clang::CompilerInvocation &Invocation,
                         const llvm::MemoryBufferRef &MainFileBuffer,
                         clang::PreambleBounds Bounds,
                         llvm::vfs::FileSystem &VFS) {
  if (!clangPreambleCanReuse(This, Invocation, MainFileBuffer, Bounds, VFS))
    return false;
  return !clang::tidy::tma::clangd::mainFileNeedsBodies(
      MainFileBuffer.getBufferIdentifier(), MainFileBuffer.getBuffer(),
      Bounds.Size);
}
