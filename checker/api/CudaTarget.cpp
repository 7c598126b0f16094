//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "api/CudaTarget.h"

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

} // namespace clang::tidy::tma
