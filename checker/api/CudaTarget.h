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

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_CUDATARGET_H
