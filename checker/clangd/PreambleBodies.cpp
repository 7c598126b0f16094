//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// clangd builds the preamble (the headers at the top of a file, parsed once
// and reused for every edit) without function bodies: its callbacks answer
// shouldSkipFunctionBody with true. The tma- checks need the bodies of the
// helpers a kernel calls (PTX wrappers, barrier classes, encode helpers),
// which live in the project's headers: with them skipped, a kernel that
// calls its wrappers from include/tma_ptx.cuh issued no op that the checks
// could see.
//
// The link wraps clang::PrecompiledPreamble::Build (-Wl,--wrap, see
// CMakeLists.txt) and hands it clangd's callbacks behind a forwarder that
// keeps the bodies outside system headers, and those of CUTLASS, CuTe and
// CCCL's cuda:: (whose barriers, TMA atoms and memcpy_async the checks read)
// wherever they are. The host bodies of the other system headers stay
// skipped.
//
// Their device functions are most of what the preamble keeps and costs
// (cuda_bf16.hpp, cuda_fp16.hpp, clang's __clang_cuda_* wrappers: parsed,
// written into the preamble, indexed): a device body is kept only when the
// model could read something in it. One whose parameters and result are
// values (no pointer, reference or `this`) and whose tokens, macros
// expanded by a raw scan, name no barrier, fence, wait, asynchronous,
// shared-memory or memory operation (nor a function kept for one) is
// skipped and annotated (clang::tidy::tma::events::QuietBodySkipped): the model
// takes it to order nothing, as its body would show. Those of the standard
// library (std::, cuda::std::) and of clang's CUDA wrappers are left out
// whatever they show, as system headers' templates are: the model takes
// their calls by name.
//
// clangd indexes the preamble's AST once it is written: the kept bodies
// are marked skipped first, so that the index walks what stock clangd's
// does.
//
//===----------------------------------------------------------------------===//

#include "api/KernelEvents.h"
#include "clangd/LateBodies.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclBase.h"
#include "clang/Basic/SourceManager.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/PrecompiledPreamble.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Sema/Sema.h"
#include "clang/Serialization/PCHContainerOperations.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

using namespace clang;

/// Whether \p D is declared in a library whose bodies the checks read
/// where they are system headers: CUTLASS and CuTe (barriers, TMA atoms),
/// CCCL's cuda:: and cuda::device:: (memcpy_async's TMA path), not the
/// standard library of cuda::std.
bool inReadLibrary(const Decl *D) {
  const NamespaceDecl *Outer = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  auto Name = [](const NamespaceDecl *NS) {
    const IdentifierInfo *II = NS ? NS->getIdentifier() : nullptr;
    return II ? II->getName() : llvm::StringRef();
  };
  if (!Outer)
    return false;
  if (Name(Outer) == "cutlass" || Name(Outer) == "cute")
    return true;
  if (Name(Outer) != "cuda")
    return false;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && !NS->isInline() && NS != Outer && Name(NS) == "std")
      return false;
  return true;
}

/// Whether \p FD is the standard library's (in a namespace std, libcu++'s
/// cuda::std included) or in one of clang's CUDA wrapper headers
/// (\p File: __clang_cuda_device_functions.h, __clang_cuda_intrinsics.h,
/// ...).
bool standardOrWrapper(const FunctionDecl &FD, llvm::StringRef File) {
  if (llvm::sys::path::filename(File).starts_with("__clang_cuda_"))
    return true;
  for (const DeclContext *DC = FD.getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getIdentifier() && NS->getName() == "std")
      return true;
  return false;
}

/// Whether \p T can carry an address: a pointer, reference or member
/// pointer, a record with such a field (a few levels deep), or a type not
/// known yet (dependent, incomplete).
bool mayCarryAddress(QualType T, unsigned Depth = 0) {
  T = T.getCanonicalType();
  if (T->isDependentType() || Depth > 3)
    return true;
  if (T->isPointerType() || T->isReferenceType() || T->isMemberPointerType() ||
      T->isBlockPointerType() || T->isNullPtrType())
    return true;
  if (const auto *AT = T->getAsArrayTypeUnsafe())
    return mayCarryAddress(AT->getElementType(), Depth + 1);
  if (T->isBuiltinType() || T->isEnumeralType() || T->isVectorType() ||
      T->isExtVectorType() || T->isAnyComplexType())
    return false;
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD || !RD->hasDefinition() || RD->isDependentContext())
    return true;
  RD = RD->getDefinition();
  for (const CXXBaseSpecifier &B : RD->bases())
    if (mayCarryAddress(B.getType(), Depth + 1))
      return true;
  for (const FieldDecl *F : RD->fields())
    if (mayCarryAddress(F->getType(), Depth + 1))
      return true;
  return false;
}

/// Whether a word (an identifier, or a piece of an asm string) names
/// something the model reads: a barrier, fence, wait or arrive, an
/// asynchronous, bulk, tensor or shared-memory operation, a memory access
/// of PTX (`ld`, `st`, `red`, `atom`, `cp`), a cluster address. Generous
/// on purpose: a word too many keeps a body, one too few loses parity.
bool relevantWord(llvm::StringRef W) {
  // PTX opcodes spelled as tokens (macro arguments stringified later).
  if (W == "ld" || W == "st" || W == "red" || W == "cp")
    return true;
  // Shuffles, votes, matches and reductions order nothing, with a body or
  // without (events::bodylessRole).
  for (llvm::StringRef Part :
       {"shfl", "vote", "ballot", "match_a", "redux", "reduce_", "activemask",
        "any_sync", "all_sync", "uni_sync"})
    if (W.contains(Part) && !W.contains("fence") && !W.contains("bar"))
      return false;
  static const char *const Parts[] = {
      "sync",   "fence",    "bar",    "wait",    "arrive",  "async",    "bulk",
      "tensor", "shared",   "wgmma",  "tcgen05", "elect",   "cluster",  "mapa",
      "atom",   "prefetch", "matrix", "griddep", "maxnreg", "multimem", "ld.",
      "st.",    "red.",     "cp.",    "ctarank", "smem",    "tma"};
  for (const char *P : Parts)
    if (W.contains(P))
      return true;
  return false;
}

/// clangd's preamble callbacks, keeping the bodies the checks read.
class KeepUserBodies : public PreambleCallbacks {
public:
  explicit KeepUserBodies(PreambleCallbacks &Inner) : Inner(Inner) {}

  void BeforeExecute(CompilerInstance &CI) override {
    PP = &CI.getPreprocessor();
    this->CI = &CI;
    Inner.BeforeExecute(CI);
  }
  void AfterExecute(CompilerInstance &CI) override {
    // The preamble is written: clangd indexes the AST next, and its
    // symbol collector would walk every body kept for the checks. Marked
    // skipped, as stock clangd leaves them, they are indexed as stock
    // clangd's (definitions without bodies); the preamble keeps them.
    if (Emitted && !IndexBodies)
      for (FunctionDecl *FD : KeptBodies)
        if (FD->doesThisDeclarationHaveABody()) {
          FD->setBody(nullptr);
          FD->setHasSkippedBody();
        }
    if (std::getenv("TMA_TIDY_STATS"))
      llvm::errs() << "tma-clangd preamble: device bodies of system headers "
                   << Kept << " kept, " << Skipped << " skipped as quiet, "
                   << StdSkipped << " of std and clang's wrappers skipped, "
                   << KeptBodies.size() << " kept for the checks ("
                   << DeferredForgotten << " out of the deferred checks); "
                   << AsTokens << " bodies kept as tokens ("
                   << (Late ? Late->Toks.size() : 0) << " tokens); kept: "
                   << Why[0] << " templated, " << Why[1] << " constexpr, "
                   << Why[2] << " local, " << Why[3] << " no plain brace, "
                   << Why[4] << " macro brace, " << Why[5]
                   << " annotation; deferred checks "
                   << (CI.hasSema()
                           ? CI.getSema().DeclsToCheckForDeferredDiags.size()
                           : 0)
                   << "\n";
    Inner.AfterExecute(CI);
  }
  void AfterPCHEmitted(ASTWriter &Writer) override {
    Emitted = true;
    Inner.AfterPCHEmitted(Writer);
  }
  void HandleTopLevelDecl(DeclGroupRef DG) override {
    forgetDeferredChecks();
    Inner.HandleTopLevelDecl(DG);
  }
  std::unique_ptr<PPCallbacks> createPPCallbacks() override {
    return Inner.createPPCallbacks();
  }
  CommentHandler *getCommentHandler() override {
    return Inner.getCommentHandler();
  }
  bool shouldSkipFunctionBody(Decl *D) override {
    forgetDeferredChecks();
    if (!Inner.shouldSkipFunctionBody(D))
      return false;
    bool Skip = skipBody(D);
    if (!Skip)
      if (auto *FD = D->getAsFunction()) {
        KeptBodies.push_back(FD);
        KeptSet.insert(FD);
      }
    return Skip;
  }

private:
  /// Sema lists every function whose body it finished, for CUDA's
  /// deferred diagnostics; the preamble writes the list and every AST
  /// built on it reads all of its functions back at its end
  /// (Sema::emitDeferredDiags). A kept body, appended when it is
  /// finished, leaves the list at the next function or top-level
  /// declaration: its deferred diagnostics are the preamble's own, which
  /// the preamble does not keep either.
  void forgetDeferredChecks() {
    if (!CI || !CI->hasSema() || KeepDeferredChecks || KeptSet.empty())
      return;
    auto &List = CI->getSema().DeclsToCheckForDeferredDiags;
    while (!List.empty() && KeptSet.count(List.back())) {
      List.pop_back();
      ++DeferredForgotten;
    }
  }

  bool skipBody(Decl *D) {
    // bench/clangd.sh: stock clangd's preamble, for a baseline with
    // symbols (the installed clangd is stripped).
    if (StockPreamble)
      return true;
    const SourceManager &SM = D->getASTContext().getSourceManager();
    SourceLocation Loc = SM.getExpansionLoc(D->getLocation());
    if (!Loc.isValid() || !SM.isInSystemHeader(Loc) || inReadLibrary(D))
      return keepAsTokens(D);
    // Device functions of system headers too, where the model may read
    // them: cuda_bf16.hpp's operator* reads its operands.
    if (!(D->hasAttrs() && D->hasAttr<CUDADeviceAttr>()))
      return true;
    auto *FD = D->getAsFunction();
    if (!FD)
      return false;
    // Whether its tokens name something the model reads; the bodies
    // scanned after it that call it by name then do too.
    bool Quiet = quietBody(*FD);
    if (!Quiet && FD->getIdentifier())
      RelevantNames.insert(FD->getIdentifier());
    if (Quiet && valuesOnly(*FD)) {
      ++Skipped;
      FD->addAttr(AnnotateAttr::CreateImplicit(
          FD->getASTContext(), clang::tidy::tma::events::QuietBodySkipped,
          nullptr, 0));
      return true;
    }
    // The standard library's (std::, cuda::std::) and clang's CUDA
    // wrappers' (__clang_cuda_*.h) are left out whatever they show, as
    // their templates are: the model takes a call of one by its name
    // (events::bodylessRole), opaque unless it is an intrinsic's.
    if (!NoStdBodies && standardOrWrapper(*FD, SM.getFilename(Loc))) {
      ++StdSkipped;
      return true;
    }
    ++Kept;
    return keepAsTokens(D);
  }

  /// Keeps \p D's body as tokens (LateBodies.h), for the main file to
  /// parse if it reaches it, where that parse can be the one the preamble
  /// would do: a function neither templated nor constexpr, its type known,
  /// not local, its body a plain `{...}` (no constructor initialisers,
  /// no function-try-block). The parser stands at the `{`; its tokens are
  /// looked ahead (macros expanded, pragmas as their annotations), then
  /// skipped. Whether it did (the body is skipped then).
  bool keepAsTokens(Decl *D) {
    if (NoLateBodies || !PP || !CI || !CI->hasSema())
      return false;
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD || FD->isTemplated() || FD->isDependentContext())
      return ++Why[0], false;
    if (FD->isConstexpr() || FD->getReturnType()->isUndeducedType())
      return ++Why[1], false;
    for (const DeclContext *DC = FD->getDeclContext(); DC;
         DC = DC->getParent())
      if (isa<FunctionDecl, BlockDecl, CapturedDecl>(DC))
        return ++Why[2], false;
    SourceLocation Brace, First;
    if (!findBrace(*FD, Brace, First))
      return ++Why[3], false;
    // TMA_CLANGD_DROP_TOKEN_BODIES=1, for measuring only (no parity): the
    // body is skipped and no token kept, the bound of what leaving out the
    // bodies the file never reaches can save (bench/README.md, round 5).
    if (DropTokenBodies) {
      KeptSet.insert(FD);
      return ++AsTokens, true;
    }
    const SourceManager &SM = PP->getSourceManager();
    if (SM.getExpansionLoc(PP->LookAhead(0).getLocation()) != First)
      return ++Why[4], false;
    Token Tok;
    Tok.startToken();
    Tok.setKind(tok::l_brace);
    Tok.setLocation(Brace);
    Tok.setLength(1);
    Body.clear();
    Body.push_back(Tok);
    for (unsigned N = 0, Depth = 1; Depth; ++N) {
      Tok = PP->LookAhead(N);
      if (Tok.isOneOf(tok::eof, tok::code_completion))
        return false;
      // The annotations a preamble can serialise.
      if (Tok.isAnnotation() &&
          !Tok.isOneOf(tok::annot_pragma_loop_hint, tok::annot_pragma_unused))
        return ++Why[5], false;
      if (Tok.is(tok::l_brace))
        ++Depth;
      else if (Tok.is(tok::r_brace))
        --Depth;
      Body.push_back(Tok);
    }
    Sema &S = CI->getSema();
    if (!Late) {
      auto Entry = std::make_unique<LateParsedTemplate>();
      Entry->D = FD;
      Entry->FPO = S.getCurFPFeatures();
      Token Marker;
      Marker.startToken();
      Marker.setKind(tok::identifier);
      Marker.setIdentifierInfo(PP->getIdentifierInfo(
          clang::tidy::tma::clangd::LateBodiesMarker));
      Marker.setLocation(FD->getLocation());
      Entry->Toks.push_back(Marker);
      Late = Entry.get();
      S.LateParsedTemplateMap.insert({FD, std::move(Entry)});
    }
    // The function's key: an eof at its name.
    Tok.startToken();
    Tok.setKind(tok::eof);
    Tok.setLocation(FD->getLocation());
    Late->Toks.push_back(Tok);
    Late->Toks.append(Body.begin(), Body.end());
    ++AsTokens;
    // Sema lists the function for the deferred diagnostics all the same
    // (forgetDeferredChecks): out of it, as a parsed kept body.
    KeptSet.insert(FD);
    return true;
  }

  /// The `{` of \p FD's body and the token after it, by a raw scan from its
  /// name; false at a `;`, `:` or `try` first.
  /// A raw lexer of \p FD's file, positioned at its name; null for a name
  /// a macro made or a file without its text.
  std::unique_ptr<Lexer> lexerAtName(const FunctionDecl &FD) {
    SourceLocation Loc = FD.getLocation();
    if (!PP || Loc.isMacroID())
      return nullptr;
    const SourceManager &SM = PP->getSourceManager();
    auto [FID, Offset] = SM.getDecomposedLoc(Loc);
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
    if (Invalid)
      return nullptr;
    return std::make_unique<Lexer>(SM.getLocForStartOfFile(FID),
                                   PP->getLangOpts(), Buf.begin(),
                                   Buf.begin() + Offset, Buf.end());
  }

  bool findBrace(const FunctionDecl &FD, SourceLocation &Brace,
                 SourceLocation &First) {
    std::unique_ptr<Lexer> Lex = lexerAtName(FD);
    if (!Lex)
      return false;
    Lexer &Raw = *Lex;
    Token Tok;
    int Parens = 0;
    while (true) {
      Raw.LexFromRawLexer(Tok);
      if (Tok.is(tok::eof))
        return false;
      if (Tok.isOneOf(tok::l_paren, tok::l_square))
        ++Parens;
      else if (Tok.isOneOf(tok::r_paren, tok::r_square))
        --Parens;
      else if (Parens != 0)
        continue;
      else if (Tok.isOneOf(tok::semi, tok::colon) ||
               (Tok.is(tok::raw_identifier) && Tok.getRawIdentifier() == "try"))
        return false;
      else if (Tok.is(tok::l_brace)) {
        Brace = Tok.getLocation();
        Raw.LexFromRawLexer(Tok);
        First = Tok.getLocation();
        return Tok.isNot(tok::eof);
      }
    }
  }

  /// Whether \p FD takes and returns values only: no pointer, reference or
  /// `this`, nothing dependent.
  static bool valuesOnly(const FunctionDecl &FD) {
    if (FD.isDependentContext() || FD.isTemplated() ||
        mayCarryAddress(FD.getReturnType()))
      return false;
    if (const auto *MD = dyn_cast<CXXMethodDecl>(&FD); MD && !MD->isStatic())
      return false;
    for (const ParmVarDecl *P : FD.parameters())
      if (mayCarryAddress(P->getType()))
        return false;
    return true;
  }

  /// Whether a raw scan of \p FD's body, from the first brace after its
  /// name, finds no relevant word in its identifiers (macros expanded) or
  /// strings, and no call of a function whose body had one.
  bool quietBody(const FunctionDecl &FD) {
    std::unique_ptr<Lexer> Lex = lexerAtName(FD);
    if (!Lex)
      return false;
    Lexer &Raw = *Lex;
    Token Tok;
    int Parens = 0, Braces = 0;
    while (true) {
      Raw.LexFromRawLexer(Tok);
      if (Tok.is(tok::eof))
        return false;
      if (Braces == 0) {
        // The declarator's rest: parameters, attributes, trailing return.
        if (Tok.isOneOf(tok::l_paren, tok::l_square))
          ++Parens;
        else if (Tok.isOneOf(tok::r_paren, tok::r_square))
          --Parens;
        else if (Parens == 0 && Tok.isOneOf(tok::semi, tok::colon))
          return false; // no body here, or a constructor's initialisers
        else if (Parens == 0 && Tok.is(tok::l_brace))
          Braces = 1;
        continue;
      }
      if (Tok.is(tok::l_brace))
        ++Braces;
      else if (Tok.is(tok::r_brace) && --Braces == 0)
        return true;
      else if (Tok.is(tok::raw_identifier)) {
        if (!quietWord(Tok.getRawIdentifier(), 0))
          return false;
      } else if (tok::isStringLiteral(Tok.getKind()) &&
                 relevantWord(
                     llvm::StringRef(Tok.getLiteralData(), Tok.getLength()))) {
        return false;
      }
    }
  }

  /// Whether an identifier of a body is harmless: not a relevant word, not
  /// a function kept for one, and if a macro, none in its expansion (each
  /// macro scanned once; one met again while it is scanned adds nothing).
  bool quietWord(llvm::StringRef Name, unsigned Depth) {
    if (relevantWord(Name))
      return false;
    IdentifierInfo &II = PP->getIdentifierTable().get(Name);
    if (RelevantNames.count(&II))
      return false;
    if (!II.hasMacroDefinition())
      return true;
    auto [It, New] = Macros.try_emplace(&II, true);
    if (!New)
      return It->second;
    const MacroInfo *MI = PP->getMacroInfo(&II);
    bool Quiet = MI && Depth < 64;
    for (const Token &T : MI ? MI->tokens() : llvm::ArrayRef<Token>()) {
      if (!Quiet)
        break;
      if (const IdentifierInfo *TI = T.getIdentifierInfo())
        Quiet = quietWord(TI->getName(), Depth + 1);
      else if (T.isLiteral() && T.getLiteralData())
        Quiet =
            !relevantWord(llvm::StringRef(T.getLiteralData(), T.getLength()));
    }
    Macros[&II] = Quiet;
    return Quiet;
  }

  PreambleCallbacks &Inner;
  const bool StockPreamble = std::getenv("TMA_CLANGD_STOCK_PREAMBLE") != nullptr;
  /// Bodies kept as tokens only on request (TMA_CLANGD_LATE_BODIES=1):
  /// the first diagnostics cost less, but every re-check parses again the
  /// bodies the file reaches and walks the system headers' bodies for more
  /// (bench/README.md, issue 25 item 5 round 3: mha_sm90 first 25.85 % ->
  /// 19.94 %, re-check 25.27 % -> 34.93 %).
  const bool NoLateBodies = [] {
    const char *V = std::getenv("TMA_CLANGD_LATE_BODIES");
    return !V || !*V || *V == '0';
  }();
  const bool DropTokenBodies =
      std::getenv("TMA_CLANGD_DROP_TOKEN_BODIES") != nullptr;
  Preprocessor *PP = nullptr;
  CompilerInstance *CI = nullptr;
  /// Sema's entry holding the bodies kept as tokens (LateBodies.h).
  LateParsedTemplate *Late = nullptr;
  llvm::SmallVector<Token, 256> Body;
  unsigned AsTokens = 0;
  /// Why bodies stayed parsed (TMA_TIDY_STATS).
  unsigned Why[6] = {};
  /// Names of the functions whose bodies named something relevant.
  llvm::DenseSet<const IdentifierInfo *> RelevantNames;
  /// Macros scanned: whether their expansion is harmless.
  llvm::DenseMap<const IdentifierInfo *, bool> Macros;
  unsigned Kept = 0, Skipped = 0, StdSkipped = 0;
  /// TMA_CLANGD_STD_BODIES=1: the device bodies of std::, cuda::std:: and
  /// clang's wrappers kept as before (for measuring).
  const bool NoStdBodies = std::getenv("TMA_CLANGD_STD_BODIES") != nullptr;
  /// The bodies parsed for the checks, where clangd's own callbacks would
  /// have skipped them.
  std::vector<FunctionDecl *> KeptBodies;
  llvm::DenseSet<const Decl *> KeptSet;
  /// Whether the preamble was written (its bodies are in it).
  bool Emitted = false;
  /// Kept bodies taken out of Sema's deferred-diagnostics list.
  size_t DeferredForgotten = 0;
  /// TMA_CLANGD_DEFERRED_CHECKS=1: they stay in it (for measuring).
  const bool KeepDeferredChecks =
      std::getenv("TMA_CLANGD_DEFERRED_CHECKS") != nullptr;
  /// TMA_CLANGD_INDEX_BODIES=1: the index walks the kept bodies (as
  /// before; for measuring).
  const bool IndexBodies = std::getenv("TMA_CLANGD_INDEX_BODIES") != nullptr;
};

} // namespace

using BuildResult = llvm::ErrorOr<clang::PrecompiledPreamble>;

// clang's PrecompiledPreamble::Build, renamed by the linker's --wrap, and
// ours, which clangd's buildPreamble reaches instead.
BuildResult clangPreambleBuild(
    const clang::CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, clang::PreambleBounds Bounds,
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diagnostics,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, llvm::StringRef StoragePath,
    clang::PreambleCallbacks &Callbacks) __asm__(
    "__real__ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEPKN"
    "4llvm12MemoryBufferENS_14PreambleBoundsENS4_18IntrusiveRefCntPtrINS_"
    "17DiagnosticsEngineEEENS9_INS4_3vfs10FileSystemEEESt10shared_ptrINS_"
    "22PCHContainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE");
// NOLINTNEXTLINE(misc-use-internal-linkage)
BuildResult tmaPreambleBuild(
    const clang::CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, clang::PreambleBounds Bounds,
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diagnostics,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, llvm::StringRef StoragePath,
    clang::PreambleCallbacks &Callbacks) __asm__(
    "__wrap__ZN5clang19PrecompiledPreamble5BuildERKNS_18CompilerInvocationEPKN"
    "4llvm12MemoryBufferENS_14PreambleBoundsENS4_18IntrusiveRefCntPtrINS_"
    "17DiagnosticsEngineEEENS9_INS4_3vfs10FileSystemEEESt10shared_ptrINS_"
    "22PCHContainerOperationsEEbNS4_9StringRefERNS_17PreambleCallbacksE");

BuildResult tmaPreambleBuild(
    const clang::CompilerInvocation &Invocation,
    const llvm::MemoryBuffer *MainFileBuffer, clang::PreambleBounds Bounds,
    llvm::IntrusiveRefCntPtr<clang::DiagnosticsEngine> Diagnostics,
    llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem> VFS,
    std::shared_ptr<clang::PCHContainerOperations> PCHContainerOps,
    bool StoreInMemory, llvm::StringRef StoragePath,
    clang::PreambleCallbacks &Callbacks) {
  KeepUserBodies Keep(Callbacks);
  return clangPreambleBuild(Invocation, MainFileBuffer, Bounds,
                            std::move(Diagnostics), std::move(VFS),
                            std::move(PCHContainerOps), StoreInMemory,
                            StoragePath, Keep);
}
