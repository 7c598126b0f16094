//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/CudaTarget.h"

#include "clang/Basic/Cuda.h"
#include "clang/Basic/TargetInfo.h"
#include "clang/Lex/MacroInfo.h"

namespace clang::tidy::tma {

std::optional<::tma::rules::GpuTarget> passTarget(const ASTContext &Ctx) {
  const TargetInfo &TI = Ctx.getTargetInfo();
  if (!Ctx.getLangOpts().CUDAIsDevice || !TI.getTriple().isNVPTX())
    return std::nullopt;
  // The -target-cpu clang derives __CUDA_ARCH__ and the
  // __CUDA_ARCH_FEAT_SM*_ALL macros from; it keeps the 'a' suffix.
  return ::tma::rules::parseGpuTarget(TI.getTargetOpts().CPU);
}

std::optional<std::string> macroText(const Preprocessor *PP, StringRef Name) {
  if (!PP)
    return std::nullopt;
  const MacroInfo *MI = PP->getMacroInfo(PP->getIdentifierInfo(Name));
  if (!MI || MI->isFunctionLike())
    return std::nullopt;
  std::string Text;
  for (const Token &T : MI->tokens())
    Text += PP->getSpelling(T);
  return Text;
}

std::optional<::tma::rules::GpuTarget>
encodeTarget(const ASTContext &Ctx, const Preprocessor *PP) {
  std::optional<std::string> List = macroText(PP, "__CUDA_ARCH_LIST__");
  if (!List)
    return std::nullopt;
  return ::tma::rules::newestEncodeTarget(*List, passTarget(Ctx));
}

std::optional<unsigned> cudaVersionMacro(const Preprocessor *PP,
                                         SourceLocation *Where) {
  if (!PP)
    return std::nullopt;
  const MacroInfo *MI =
      PP->getMacroInfo(PP->getIdentifierInfo("CUDA_VERSION"));
  if (!MI || MI->isFunctionLike() || MI->getNumTokens() != 1 ||
      !MI->getReplacementToken(0).is(tok::numeric_constant))
    return std::nullopt;
  unsigned V = 0;
  if (StringRef(PP->getSpelling(MI->getReplacementToken(0)))
          .getAsInteger(10, V))
    return std::nullopt;
  if (Where)
    *Where = MI->getDefinitionLoc();
  return V;
}

/// The PTX ISA clang compiles for with the newest CUDA it knows ("12.9":
/// 88); with any newer installation it compiles for that one too.
static unsigned newestDriverPtxIsa() {
  llvm::VersionTuple V;
  if (V.tryParse(CudaVersionToString(CudaVersion::PARTIALLY_SUPPORTED)))
    return 0;
  return ::tma::rules::ptxIsaOfToolkit(V.getMajor() * 1000 +
                                       V.getMinor().value_or(0) * 10)
      .value_or(0);
}

std::optional<::tma::rules::Toolkit>
passToolkit(const ASTContext &Ctx, const Preprocessor *PP,
            SourceLocation *MacroLoc) {
  using ::tma::rules::Toolkit;
  SourceLocation Where;
  std::optional<Toolkit> Macro;
  if (std::optional<unsigned> V = cudaVersionMacro(PP, &Where))
    Macro = ::tma::rules::toolkitOfCudaVersion(*V);
  // The device pass's PTX ISA: the +ptxNN feature clang's driver derives
  // from the installation it found (+ptx42 without one). The host pass has
  // none.
  std::optional<Toolkit> Driver;
  if (Ctx.getLangOpts().CUDAIsDevice && Ctx.getTargetInfo().getTriple().isNVPTX())
    for (StringRef F : Ctx.getTargetInfo().getTargetOpts().Features) {
      unsigned Ptx = 0;
      if (F.consume_front("+ptx") && !F.getAsInteger(10, Ptx))
        Driver = ::tma::rules::toolkitOfDriver(Ptx, newestDriverPtxIsa());
    }
  std::optional<Toolkit> T = ::tma::rules::passToolkit(Macro, Driver);
  if (MacroLoc && T &&
      T->Source == ::tma::rules::ToolkitSource::CudaVersionMacro)
    *MacroLoc = Where;
  return T;
}

} // namespace clang::tidy::tma
