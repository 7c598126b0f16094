//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of the code a device pass hands to ptxas, for the rule model's
// target rules (rules/TargetSite.h): an inline-PTX statement's opcodes, the
// arch-specific forms a library op selects, and the unsupported-target
// stub a CCCL wrapper's header compiles it to on this pass.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_TARGETFACTS_H
#define TMA_TIDY_API_TARGETFACTS_H

#include "api/DeviceOps.h"
#include "rules/TargetSite.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace clang::tidy::tma {

/// The text \p Asm's opcodes are read from: its string \p Text, with the
/// "n" operands named in modifiers substituted (`.cta_group::%6`) where
/// the text names one.
std::string asmOpcodeSource(const GCCAsmStmt &Asm, const StringLiteral &Text,
                            const ASTContext &Ctx);

/// The opcodes of an asm statement's \p Source (asmOpcodeSource), in order;
/// \p Extended: the statement has operands (`%0` refers to one).
std::vector<std::string> asmOpcodes(StringRef Source, bool Extended);

/// The arch-specific forms a library op selects (its overload or
/// arguments); the plain Hopper forms are left to the header's own gate.
std::vector<::tma::rules::DeviceFeature> libraryFeatures(const DeviceOp &Op);

/// Whether \p FD is a function of CCCL's `cuda` namespace (cuda::ptx,
/// cuda::device, cuda::device::experimental, ...).
bool inCudaNamespace(const FunctionDecl *FD);

/// "cuda::ptx::tensormap_replace_global_address", without CCCL's inline
/// namespaces.
std::string libraryName(const FunctionDecl *FD);

/// The `__cuda_ptx_<name>_is_not_supported_before_<SM>__` externs that
/// CCCL's wrappers call in this pass where the target lacks their
/// instruction, memoised per wrapper.
class LibraryStubs {
public:
  /// The stub that \p Callee's body (or that of a library function it
  /// calls) calls, or null.
  const FunctionDecl *stubOf(const FunctionDecl *Callee, unsigned Depth = 0);

private:
  llvm::DenseMap<const FunctionDecl *, const FunctionDecl *> Stubs;
};

} // namespace clang::tidy::tma

#endif // TMA_TIDY_API_TARGETFACTS_H
