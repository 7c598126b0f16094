//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//
//
// The facts of tma-tensor-map-placement for the rule model
// (rules/PlacementSite.h). A placement site is a variable that holds a
// tensor map: where the map is stored (a kernel parameter by value, with or
// without __grid_constant__, or by pointer; a __device__ map; a local,
// __shared__ or by-value __device__ parameter copy), how it reaches the
// kernel, and where its address goes (api/MapUses' address flow): one
// record per site, with the path for notes. A replace site is the new
// value of a tensormap.replace instruction or cuda::ptx::tensormap_replace_*
// call, folded per call-site context. Also the pre-scan that tells which
// __device__ functions can hold a site at all.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_API_PLACEMENTFACTS_H
#define TMA_TIDY_API_PLACEMENTFACTS_H

#include "api/DeviceOpsFinder.h"
#include "api/MapUses.h"
#include "folding/ConstantFolder.h"
#include "rules/PlacementSite.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::tma::placement {

/// A variable that holds a tensor map, and where the map is stored.
struct MapSite {
  const VarDecl *Var = nullptr;
  ::tma::rules::MapStorage Storage = ::tma::rules::MapStorage::Global;
  /// How Var names the map: the map itself (Object) or its address
  /// (AddressVar: a pointer parameter).
  Ref Kind = Ref::Object;
  /// A kernel parameter's index (for the fix-it), else 0.
  unsigned Index = 0;
};

/// One placement site's facts, and the statements they were proven on.
struct MapPlacement {
  ::tma::rules::MapPlacementFacts Facts;
  /// From the function's body to the operation of ReachesRead or
  /// ReachesWrite: the calls that pass the address on, then the operation.
  llvm::SmallVector<const Stmt *, 4> Path;
};

/// A tensormap.replace operand that writes a new value into a field.
struct ReplaceSite {
  const Stmt *Site = nullptr;
  ::tma::rules::ReplaceField Field = ::tma::rules::ReplaceField::GlobalAddress;
  /// The operand as written (an n32_t<V>'s template argument when there is
  /// one); null for an immediate of an asm text.
  const Expr *E = nullptr;
  /// An immediate (or an n32_t<V> argument): the same in every context.
  ::tma::rules::Known Imm;
};

/// A replace site's value in one context, and where it came from.
struct ReplaceValue {
  ::tma::rules::ReplaceValueFacts Facts;
  /// The expression reported at: the caller's argument for a helper's
  /// parameter, else the operand (null for an immediate of an asm text).
  const Expr *Written = nullptr;
  /// The value folded from an expression (none for an immediate).
  std::optional<FoldedInt> Folded;
  /// The value is a helper's parameter, written at a caller.
  bool Forwarded = false;
};

/// What the pre-scan of a __device__ function (mayHoldSite) found, per
/// declaration context (outside and inside a lambda) and per body.
struct PlacementScanMemo {
  llvm::DenseMap<const DeclContext *, bool> Declares[2];
  llvm::DenseMap<const Stmt *, bool> Replaces;
};

/// Builds the placement and replace sites' facts of one translation unit:
/// each body is walked once (PlacementBodies), the fence search and the
/// pre-scan are memoised.
class PlacementFacts {
public:
  /// \p OwnWalk: whether a lambda is handed to the check on its own (see
  /// PlacementBodies). \p CallDepth: how many levels of device functions an
  /// address is followed into.
  PlacementFacts(ASTContext &Ctx, ConstantFolder &Folder,
                 bool (*OwnWalk)(const LambdaExpr &), unsigned CallDepth)
      : Ctx(Ctx), Folder(Folder), Bodies(OwnWalk), CallDepth(CallDepth) {}

  /// Whether a site of a __device__ function (not a kernel) can be in
  /// \p FD: a map it holds by value (a parameter or a local) or a
  /// tensormap.replace. A host pass hands over thousands of
  /// __host__ __device__ bodies (CuTe's) that have neither.
  bool mayHoldSite(const FunctionDecl &FD);

  /// The maps \p FD holds as copies: by-value parameters of a __device__
  /// function (a kernel's are its own sites), then the locals and
  /// __shared__ variables of its body outside lambdas.
  std::vector<MapSite> copySites(const FunctionDecl &FD);
  /// \p Kernel's named parameters that hold a map by value:
  /// GridConstantParam when declared 'const __grid_constant__' (or through
  /// a macro that expands to it for nvcc), else KernelParamCopy.
  std::vector<MapSite> valueParamSites(const FunctionDecl &Kernel);
  /// The maps in global memory \p Kernel reads: its named pointer
  /// parameters, then the __device__ maps its body names.
  std::vector<MapSite> globalSites(const FunctionDecl &Kernel);

  /// The facts of \p S, a site of \p FD (\p Kernel: the kernel FD is, for
  /// a map in global memory). Follows only the uses a rule of the storage
  /// reads (rules/PlacementSite.h).
  MapPlacement placementOf(const FunctionDecl &FD, const MapSite &S);

  /// The replace sites of \p FD's own body (not the lambdas handed over on
  /// their own), outside system headers.
  std::vector<ReplaceSite> replaceSitesOf(const FunctionDecl &FD);
  /// \p R's value under the folder's current context \p Context; an
  /// immediate's under any.
  ReplaceValue replaceValueOf(const ReplaceSite &R,
                              const CallContext *Context);

  /// Each body's nodes, walked once for all sites.
  PlacementBodies &bodies() { return Bodies; }

private:
  ASTContext &Ctx;
  ConstantFolder &Folder;
  PlacementBodies Bodies;
  const unsigned CallDepth;
  std::shared_ptr<DeviceOpsFinder> Finder;
  /// Whether a function may execute a tensormap acquire fence (memoised).
  llvm::DenseMap<const FunctionDecl *, bool> Fenced;
  PlacementScanMemo ScanMemo;

  DeviceOpsFinder &finder();
  bool mayFence(const FunctionDecl &FD, unsigned Depth);
  bool isTensorCopy(const Stmt *S);
};

/// True when an identifier such as CUTLASS_GRID_CONSTANT is written around
/// the parameter's type: a macro that expands to __grid_constant__ for nvcc
/// and to nothing here. The author asked for the attribute.
bool hasGridConstantMacro(const ParmVarDecl &P, const SourceManager &SM,
                          const LangOptions &LangOpts);

/// What the diagnostics call the map write \p S: the PTX instruction or
/// the cuda::ptx function.
std::string mapWriteName(const Stmt &S);

} // namespace clang::tidy::tma::placement

#endif // TMA_TIDY_API_PLACEMENTFACTS_H
