//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The GPU targets of the CUDA pass being analysed, for the rules that depend
// on them (tma-rules.md section 7). The device pass knows its own target
// (clang's -target-cpu, with the arch-specific suffix that __CUDA_ARCH__
// drops); every pass knows the list of all of them (__CUDA_ARCH_LIST__,
// without suffixes). The host pass has no target of its own.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_CUDATARGET_H
#define TMA_TIDY_API_CUDATARGET_H

#include "rules/PtxIsaRules.h"
#include "rules/Target.h"

#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"
#include <optional>
#include <string>

namespace clang::tidy::tma {

/// The target of the device pass \p Ctx was parsed for (sm_90a), or
/// std::nullopt on the host pass and for non-NVPTX targets.
std::optional<::tma::rules::GpuTarget> passTarget(const ASTContext &Ctx);

/// The replacement text of the object-like macro \p Name as the translation
/// unit defines it at its end ("900,1000"), or std::nullopt.
std::optional<std::string> macroText(const Preprocessor *PP, StringRef Name);

/// The newest GPU a descriptor encoded in this translation unit can be used
/// on (rules::newestEncodeTarget): known only on the device pass of the
/// newest listed architecture, and only when it is arch-specific.
std::optional<::tma::rules::GpuTarget>
encodeTarget(const ASTContext &Ctx, const Preprocessor *PP);

/// CUDA_VERSION as the translation unit defines it at its end, when it is
/// one number (13000); \p Where, when given, gets its definition.
std::optional<unsigned> cudaVersionMacro(const Preprocessor *PP,
                                         SourceLocation *Where = nullptr);

/// The toolkit this pass compiles against (rules::passToolkit): the newer
/// of CUDA_VERSION and, on the device pass, the PTX ISA clang's driver
/// compiles for (its +ptxNN target feature, from the installation it found;
/// clang's newest known one is only a lower bound). \p MacroLoc gets
/// CUDA_VERSION's definition when the answer comes from it.
std::optional<::tma::rules::Toolkit>
passToolkit(const ASTContext &Ctx, const Preprocessor *PP,
            SourceLocation *MacroLoc = nullptr);

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_CUDATARGET_H
