//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/TargetFacts.h"
#include "api/DeviceOpsFinder.h"
#include "api/PtxParser.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallVector.h"

using ::tma::rules::DeviceFeature;

namespace clang::tidy::tma {

std::string asmOpcodeSource(const GCCAsmStmt &Asm, const StringLiteral &Text,
                            const ASTContext &Ctx) {
  StringRef S = Text.getString();
  if (Asm.isSimple() || (!S.contains(":%") && !S.contains(".%")))
    return S.str();
  return substituteModifierImmediates(Asm, S, Ctx);
}

std::vector<std::string> asmOpcodes(StringRef Source, bool Extended) {
  std::vector<std::string> Out;
  for (::tma::ptx::Opcode &Op : ::tma::ptx::opcodesOf(Source, Extended))
    Out.push_back(std::move(Op.Text));
  return Out;
}

std::vector<DeviceFeature> libraryFeatures(const DeviceOp &Op) {
  std::vector<DeviceFeature> F;
  if (const auto *B = std::get_if<BulkCopy>(&Op)) {
    if (B->ByteMask.Present)
      F.push_back(DeviceFeature::CpMask);
    return F;
  }
  const auto *T = std::get_if<TensorCopy>(&Op);
  if (!T)
    return F;
  const bool Prefetch = T->Direction == device::TensorDirection::Prefetch;
  // An unknown destination counts as .shared::cta, the form more targets
  // have.
  const bool Cluster = T->DstSpace == device::Space::SharedCluster;
  switch (T->Mode) {
  case device::TensorMode::TileGather4:
    F.push_back(Prefetch  ? DeviceFeature::PrefetchGather4
                : Cluster ? DeviceFeature::Gather4Cluster
                          : DeviceFeature::Gather4Cta);
    break;
  case device::TensorMode::TileScatter4:
    F.push_back(DeviceFeature::Scatter4);
    break;
  case device::TensorMode::Im2colW:
    F.push_back(Prefetch  ? DeviceFeature::PrefetchIm2colW
                : Cluster ? DeviceFeature::Im2colWCluster
                          : DeviceFeature::Im2colWCta);
    break;
  case device::TensorMode::Im2colW128:
    F.push_back(Prefetch ? DeviceFeature::PrefetchIm2colW
                         : DeviceFeature::Im2colW128);
    break;
  default:
    break;
  }
  if (T->CtaGroup)
    F.push_back(DeviceFeature::CtaGroup);
  return F;
}

static bool isUnsupportedStub(const FunctionDecl *FD) {
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef Name = FD->getName();
  return Name.starts_with("__cuda_ptx_") &&
         Name.contains("_is_not_supported");
}

const FunctionDecl *LibraryStubs::stubOf(const FunctionDecl *Callee,
                                         unsigned Depth) {
  if (!Callee || Depth > 3)
    return nullptr;
  auto [It, New] = Stubs.try_emplace(Callee, nullptr);
  if (!New)
    return It->second;
  const FunctionDecl *Definition = nullptr;
  const Stmt *Body = Callee->getBody(Definition);
  const FunctionDecl *Found = nullptr;
  if (Body) {
    const SourceManager &SM = Callee->getASTContext().getSourceManager();
    llvm::SmallVector<const Stmt *, 32> Work{Body};
    while (!Work.empty() && !Found) {
      const Stmt *S = Work.pop_back_val();
      if (!S)
        continue;
      if (const auto *Call = dyn_cast<CallExpr>(S)) {
        const FunctionDecl *FD = Call->getDirectCallee();
        if (isUnsupportedStub(FD)) {
          Found = FD;
          break;
        }
        // Wrappers of wrappers (cde:: calls cuda::ptx::): the library's
        // own functions only.
        if (FD && inCudaNamespace(FD) &&
            SM.isInSystemHeader(SM.getFileLoc(FD->getLocation())))
          if (const FunctionDecl *Inner = stubOf(FD, Depth + 1)) {
            Found = Inner;
            break;
          }
      }
      for (const Stmt *Child : S->children())
        Work.push_back(Child);
    }
  }
  Stubs[Callee] = Found;
  return Found;
}

bool inCudaNamespace(const FunctionDecl *FD) {
  const DeclContext *DC = FD->getDeclContext();
  const NamespaceDecl *Outer = nullptr;
  for (; DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Outer = NS;
  return Outer && Outer->getName() == "cuda";
}

std::string libraryName(const FunctionDecl *FD) {
  std::string Name;
  for (const DeclContext *DC = FD->getDeclContext();
       DC && !DC->isTranslationUnit(); DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && !NS->isInline() && NS->getIdentifier())
      Name = NS->getName().str() + "::" + Name;
  return Name + FD->getNameAsString();
}

} // namespace clang::tidy::tma
