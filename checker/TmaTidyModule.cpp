//===----------------------------------------------------------------------===//
//
// Part of tma-tidy.
//
//===----------------------------------------------------------------------===//

#include "checks/BulkCopyCheck.h"
#include "checks/DescriptorCheck.h"
#include "checks/EncodeResultCheck.h"
#include "checks/ExpectTxCheck.h"
#include "checks/OrderingCheck.h"
#include "checks/TensorMapPlacementCheck.h"

#include "clang-tidy/ClangTidyModule.h"

namespace clang::tidy::tma {

namespace {
/// Registers the tma- checks.
class TmaModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<BulkCopyCheck>("tma-bulk-copy");
    CheckFactories.registerCheck<DescriptorCheck>("tma-descriptor");
    CheckFactories.registerCheck<EncodeResultCheck>("tma-encode-result");
    CheckFactories.registerCheck<ExpectTxCheck>("tma-expect-tx");
    CheckFactories.registerCheck<OrderingCheck>("tma-ordering");
    CheckFactories.registerCheck<TensorMapPlacementCheck>(
        "tma-tensor-map-placement");
  }
};
} // namespace

// Register the module with clang-tidy's registry (plugin load or link).
static ClangTidyModuleRegistry::Add<TmaModule>
    X("tma-module", "Checks CUDA Tensor Memory Accelerator (TMA) code.");

} // namespace clang::tidy::tma

// Referenced by binaries that link the module statically, so the linker keeps
// the registration above.
// NOLINTNEXTLINE(misc-use-internal-linkage)
volatile int TmaModuleAnchorSource = 0;
