//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/SiteReporter.h"
#include "checks/ContextNotes.h"

#include "clang/AST/ASTContext.h"
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

void SiteReporter::note(SourceLocation Loc, llvm::StringRef Text) {
  Check.diag(Loc, "%0", DiagnosticIDs::Note) << Text;
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
  if (Folded.From.Range.isValid()) {
    SourceLocation L = SM.getFileLoc(Folded.From.Range.getBegin());
    if (L != WarnLoc && !SM.isInSystemHeader(L))
      Check.diag(L, "%0 = %1 comes from here", DiagnosticIDs::Note)
          << Param << toString(Folded.Value, 10);
  }
  noteCalls(Folded, WarnLoc, Folder, Context, SM);
}

void SiteReporter::noteCalls(const FoldedInt &Folded, SourceLocation WarnLoc,
                             ConstantFolder &Folder, const CallContext *Context,
                             const SourceManager &SM) {
  noteBindings(Check, Folder, Folded.From.Through, WarnLoc, SM, Context);
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
