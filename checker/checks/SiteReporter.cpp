//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/SiteReporter.h"
#include "checks/ContextNotes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "llvm/Support/raw_ostream.h"

namespace clang::tidy::tma {

std::string SiteReporter::message(llvm::StringRef OpName, llvm::StringRef Sep,
                                  const ::tma::rules::DeviceViolation &V) {
  return OpName.str() + Sep.str() + V.Message + " (" + V.RuleId + ")";
}

bool SiteReporter::admit(SourceLocation Loc, const std::string &Message,
                         const SourceManager &SM) {
  if (Loc.isInvalid() || SM.isInSystemHeader(Loc) || !Rules.allows(Message) ||
      Reported.count({Loc.getRawEncoding(), Message}) || !MayReport())
    return false;
  Reported.insert({Loc.getRawEncoding(), Message});
  return true;
}

bool SiteReporter::admits(SourceLocation Loc, const std::string &Message,
                          const SourceManager &SM) const {
  return Loc.isValid() && !SM.isInSystemHeader(Loc) && Rules.allows(Message) &&
         !Reported.count({Loc.getRawEncoding(), Message});
}

bool SiteReporter::warnOnceAs(SourceLocation Loc, const std::string &Key,
                              const std::string &Message,
                              const SourceManager &SM) {
  if (!Rules.allows(Message) || !admit(Loc, Key, SM))
    return false;
  Check.diag(Loc, "%0") << Message;
  return true;
}

bool SiteReporter::warnOnce(SourceLocation Loc, const std::string &Message,
                            const SourceManager &SM,
                            llvm::ArrayRef<FixItHint> Fixes) {
  if (!admit(Loc, Message, SM))
    return false;
  Check.diag(Loc, "%0") << Message << Fixes;
  return true;
}

bool SiteReporter::warnFixOnce(SourceLocation Loc, const std::string &Message,
                               const SourceManager &SM,
                               const std::optional<FixItHint> &Fix) {
  if (!admit(Loc, Message, SM))
    return false;
  auto D = Check.diag(Loc, "%0") << Message;
  if (Fix && Fixed.insert(Fix->RemoveRange.getBegin().getRawEncoding()).second)
    D << *Fix;
  return true;
}

std::string SiteReporter::nameOf(const NamedDecl &ND, const ASTContext &Ctx) {
  std::string Name;
  llvm::raw_string_ostream OS(Name);
  OS << '\'';
  ND.getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/false);
  OS << '\'';
  return Name;
}

bool SiteReporter::firstTime(SourceLocation Loc, const std::string &Key,
                             const SourceManager &SM) {
  return Loc.isValid() && !SM.isInSystemHeader(Loc) &&
         !Reported.count({Loc.getRawEncoding(), Key}) && MayReport() &&
         Reported.insert({Loc.getRawEncoding(), Key}).second;
}

void SiteReporter::note(SourceLocation Loc, llvm::StringRef Text,
                        llvm::ArrayRef<FixItHint> Fixes) {
  Check.diag(Loc, "%0", DiagnosticIDs::Note) << Text << Fixes;
}

void SiteReporter::aid(SourceLocation Loc, llvm::StringRef Text) {
  Check.diag(Loc, "%0") << Text;
}

void SiteReporter::remark(SourceLocation Loc, llvm::StringRef Text) {
  Check.diag(Loc, "%0", DiagnosticIDs::Remark) << Text;
}

void SiteReporter::noteEvent(const KernelEvent &E, llvm::StringRef Text,
                             const SourceManager &SM) {
  note(SM.getFileLoc(E.Loc), Text);
  if (!E.InBody && !SM.isInSystemHeader(SM.getFileLoc(E.OpLoc)))
    note(SM.getFileLoc(E.OpLoc), "issued here");
}

void SiteReporter::noteOrigin(const FoldedInt &Folded, llvm::StringRef Param,
                              SourceLocation WarnLoc, ConstantFolder &Folder,
                              const CallContext *Context,
                              const SourceManager &SM) {
  noteValue(Folded.From, Param, toString(Folded.Value, 10), WarnLoc, SM);
  noteCalls(Folded, WarnLoc, Folder, Context, SM);
}

void SiteReporter::noteValue(const Origin &O, llvm::StringRef Name,
                             llvm::StringRef Value, SourceLocation WarnLoc,
                             const SourceManager &SM) {
  if (!O.Range.isValid())
    return;
  SourceLocation L = SM.getFileLoc(O.Range.getBegin());
  if (L != WarnLoc && !SM.isInSystemHeader(L))
    Check.diag(L, "%0 = %1 comes from here", DiagnosticIDs::Note)
        << Name << Value;
}

void SiteReporter::noteDeclared(const VarDecl &Var, const SourceManager &SM,
                                llvm::StringRef What) {
  Check.diag(SM.getFileLoc(Var.getLocation()), "%0 %1", DiagnosticIDs::Note)
      << &Var << What;
}

void SiteReporter::noteBufferDeclared(const VarDecl &Var,
                                      const SourceManager &SM) {
  Check.diag(SM.getFileLoc(Var.getLocation()),
             "the shared-memory buffer '%0' is declared here",
             DiagnosticIDs::Note)
      << Var.getName();
}

/// What is certain about the start of \p B, for a note.
static std::string startNote(const SharedBuffer &B) {
  std::string Name = "'" + B.Var->getNameAsString() + "'";
  std::string Align = std::to_string(B.BaseAlign.value_or(1));
  if (B.RoundedTo)
    return Name + " is used through an address rounded to a multiple of " +
           Align + " bytes at run time";
  if (B.Extern)
    return Name + " is dynamic shared memory, taken as " + Align +
           "-byte aligned at its start (" +
           (B.AlignDeclared  ? "its declaration's __align__"
            : B.AlignFromCast ? "the alignment of the type it is cast to"
                              : "its type's alignment, and dynamic shared "
                                "memory starts 16-byte aligned") +
           "; only offsets that break that alignment are reported)";
  return Name + " starts " + Align + "-byte aligned" +
         (B.AlignDeclared ? " (declared)"
                          : " (its type's alignment; no alignas)");
}

void SiteReporter::noteBufferStart(const SharedBuffer &B,
                                   const SourceManager &SM) {
  SourceLocation VarLoc = SM.getFileLoc(B.Var->getLocation());
  if (SM.isInSystemHeader(VarLoc))
    return;
  if (!B.Offset && B.Stride)
    Check.diag(VarLoc,
               "%0; the address is %1 bytes into it plus a multiple of %2",
               DiagnosticIDs::Note)
        << startNote(B) << std::to_string(B.Residue)
        << std::to_string(B.Stride);
  else
    Check.diag(VarLoc,
               B.RoundedTo ? "%0; the address is %1 bytes past it"
                           : "%0; the address is %1 bytes into it",
               DiagnosticIDs::Note)
        << startNote(B) << std::to_string(B.Offset.value_or(0));
}

void SiteReporter::noteBufferCall(const VarDecl *Var, llvm::StringRef OpName,
                                  SourceLocation WarnLoc,
                                  ConstantFolder &Folder,
                                  const CallContext *Context,
                                  const SourceManager &SM) {
  clang::tidy::tma::noteBufferCall(Check, bufferCall(Folder, Var, Context, SM),
                                   Var, OpName, WarnLoc, SM);
}

void SiteReporter::noteLinkedMap(const KnownMap &Map, ::tma::rules::Param P,
                                 ConstantFolder &Folder,
                                 const CallContext *Context,
                                 const SourceManager &SM) {
  const Expr *About = encodeOperand(Map, P);
  SourceLocation AboutLoc = SM.getFileLoc(About->getBeginLoc());
  Check.diag(AboutLoc, "the tensor map is encoded here", DiagnosticIDs::Note);
  // The calls that bound the operand, when it came through parameters.
  Folder.enterContext(Map.Link.Context);
  auto Value = Folder.foldInt(About);
  Folder.enterContext(Context);
  if (Value)
    noteCalls(Value->From.Through, AboutLoc, Folder, Context, SM);
  noteHandoff(Map, SM);
}

void SiteReporter::noteToolkit(const ::tma::rules::Toolkit &T,
                               SourceLocation MacroLoc,
                               SourceLocation WarnLoc) {
  const bool FromMacro =
      T.Source == ::tma::rules::ToolkitSource::CudaVersionMacro &&
      MacroLoc.isValid();
  note(FromMacro ? MacroLoc : WarnLoc, ::tma::rules::toolkitOrigin(T));
}

void SiteReporter::noteCalls(const FoldedInt &Folded, SourceLocation WarnLoc,
                             ConstantFolder &Folder, const CallContext *Context,
                             const SourceManager &SM) {
  noteCalls(Folded.From.Through, WarnLoc, Folder, Context, SM);
}

void SiteReporter::noteCalls(llvm::ArrayRef<Binding> Through,
                             SourceLocation WarnLoc, ConstantFolder &Folder,
                             const CallContext *Context,
                             const SourceManager &SM) {
  noteBindings(Check, Folder, Through, WarnLoc, SM, Context);
}

void SiteReporter::noteHandoff(const KnownMap &M, const SourceManager &SM) {
  clang::tidy::tma::noteHandoff(Check, M, SM);
}

void SiteReporter::noteOtherCalls(SourceLocation WarnLoc, unsigned Others,
                                  const NamedDecl *Callee) {
  Check.diag(WarnLoc, "the same value also comes from %0 other call%s0 of %1",
             DiagnosticIDs::Note)
      << Others << Callee;
}

void SiteReporter::notePointer(const PointerAlign &A, llvm::StringRef Name,
                               SourceLocation WarnLoc, ConstantFolder &Folder,
                               const CallContext *Context,
                               const SourceManager &SM, bool SayWhy) {
  std::string Offset = std::to_string(A.Offset) +
                       (A.Offset == 1 || A.Offset == -1 ? " byte" : " bytes");
  if (A.Kind == PointerAlign::Allocation) {
    SourceLocation L = SM.getFileLoc(A.Alloc->getBeginLoc());
    if (!SM.isInSystemHeader(L))
      Check.diag(L, "%0 is %1 past '%2', which %3 allocates %4-byte aligned",
                 DiagnosticIDs::Note)
          << Name << Offset << A.Base->getName()
          << A.Alloc->getDirectCallee()->getName()
          << std::to_string(A.BaseAlign);
  } else {
    SourceLocation L = SM.getFileLoc(A.Base->getLocation());
    bool Declared = A.Base->hasAttr<AlignedAttr>();
    if (!SM.isInSystemHeader(L)) {
      auto D = Check.diag(
          L,
          SayWhy ? "%0 is %1 into '%2', which is %3-byte aligned (%4)"
                 : "%0 is %1 into '%2', which is %3-byte aligned",
          DiagnosticIDs::Note);
      D << Name << Offset << A.Base->getName() << std::to_string(A.BaseAlign);
      if (SayWhy)
        D << (Declared ? "declared" : "its type's alignment");
    }
  }
  noteCalls(A.Through, WarnLoc, Folder, Context, SM);
}

void SiteReporter::notePassedTo(bool Forwarded, SourceLocation OpLoc,
                                SourceLocation WarnLoc, llvm::StringRef What,
                                llvm::StringRef OpName,
                                const SourceManager &SM) {
  OpLoc = SM.getFileLoc(OpLoc);
  if (Forwarded && OpLoc != WarnLoc && !SM.isInSystemHeader(OpLoc))
    Check.diag(OpLoc, "passed to %0 of %1 here", DiagnosticIDs::Note)
        << What << OpName;
}

void SiteReporter::noteInstantiation(bool Forwarded, const FunctionDecl *Fn,
                                     const SourceManager &SM) {
  if (!Forwarded && Fn && Fn->isTemplateInstantiation() &&
      Fn->getPointOfInstantiation().isValid())
    Check.diag(SM.getFileLoc(Fn->getPointOfInstantiation()),
               "in instantiation of %0 requested here", DiagnosticIDs::Note)
        << Fn;
}

const Expr *encodeOperand(const KnownMap &Map, ::tma::rules::Param P) {
  using ::tma::rules::Param;
  const CallExpr *Encode = Map.Link.Encode;
  switch (P) {
  case Param::Encoder:
    return Encode;
  case Param::BoxDim:
    return Map.BoxArg ? Map.BoxArg : Encode;
  case Param::PixelBoxLowerCorner:
    return Encode->getArg(6);
  case Param::PixelBoxUpperCorner:
    return Encode->getArg(7);
  default:
    // The other operands sit where cuTensorMapEncodeTiled has them in every
    // encoder (tensorDataType, tensorRank; swizzle of tiled maps).
    return static_cast<unsigned>(P) < Encode->getNumArgs()
               ? Encode->getArg(static_cast<unsigned>(P))
               : Encode;
  }
}

} // namespace clang::tidy::tma
