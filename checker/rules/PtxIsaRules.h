//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The toolkit half of tma-rules.md section 7 (TMA-PTX-ISA): an inline-PTX
// instruction form needs the PTX ISA version that introduced it, and ptxas
// accepts only the forms of its own toolkit's PTX ISA. The toolkit is the
// one the translation unit compiles against: CUDA_VERSION of its cuda.h, or
// the version clang's driver detected for the compilation; an unknown
// toolkit reports nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_PTXISARULES_H
#define TMA_TIDY_RULES_PTXISARULES_H

#include "rules/DeviceRules.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tma::rules {

/// The PTX ISA version of the CUDA toolkit \p CudaVersion, both as
/// numbers: CUDA_VERSION's 1000 * major + 10 * minor (13000) and PTX ISA
/// major * 10 + minor (90). From the PTX ISA release history: CUDA 11.x is
/// 7.x, 12.0-12.5 are 8.0-8.5, 12.6 is 8.5, 12.7 8.6, 12.8 8.7, 12.9 8.8,
/// 13.x is 9.x. std::nullopt before CUDA 11.0 and from CUDA 14.0 on (not
/// known yet).
std::optional<unsigned> ptxIsaOfToolkit(unsigned CudaVersion);

/// The first CUDA toolkit with PTX ISA \p PtxIsa (86: 12070), or
/// std::nullopt when none is known.
std::optional<unsigned> toolkitOfPtxIsa(unsigned PtxIsa);

/// "13.0" for 13000; "9.2" for PTX ISA 92 (ptxIsaText).
std::string toolkitText(unsigned CudaVersion);
std::string ptxIsaText(unsigned PtxIsa);

/// Where the toolkit version of a translation unit came from.
enum class ToolkitSource {
  /// `#define CUDA_VERSION 13000`, normally in cuda.h.
  CudaVersionMacro,
  /// The PTX ISA clang's driver compiles the device pass for: the
  /// `-target-feature +ptx85` it derives from the CUDA installation it found.
  Driver,
};

/// The toolkit a translation unit compiles against.
struct Toolkit {
  /// Its PTX ISA version: 90.
  unsigned PtxIsa = 0;
  /// CUDA_VERSION's 1000 * major + 10 * minor (13000); 0 when only the PTX
  /// ISA is known (the driver's).
  unsigned CudaVersion = 0;
  ToolkitSource Source = ToolkitSource::CudaVersionMacro;
  /// The version is only a lower bound: clang's driver compiles for its
  /// newest known PTX ISA with any newer installation (clang 22: PTX 8.8,
  /// CUDA 12.9's, for CUDA 13.0).
  bool AtLeast = false;
};

/// The toolkit of CUDA_VERSION \p CudaVersion, or std::nullopt when its PTX
/// ISA is not known (ptxIsaOfToolkit).
std::optional<Toolkit> toolkitOfCudaVersion(unsigned CudaVersion);

/// The toolkit of the driver's `+ptxNN` feature \p PtxIsa (85), a lower
/// bound when it is at least \p NewestPtxIsa (the PTX ISA of the newest
/// CUDA the compiler knows); std::nullopt below PTX ISA 7.0 (clang's +ptx42
/// when it found no installation).
std::optional<Toolkit> toolkitOfDriver(unsigned PtxIsa, unsigned NewestPtxIsa);

/// The toolkit of a pass, from CUDA_VERSION (\p Macro) and the driver's
/// (\p Driver), either unknown: the one with the newer PTX ISA,
/// CUDA_VERSION on a tie. A form is reported only when no source says the
/// toolkit is new enough (silence over guesses).
std::optional<Toolkit> passToolkit(std::optional<Toolkit> Macro,
                                   std::optional<Toolkit> Driver);

/// A form of an instruction that a PTX ISA version introduced.
struct PtxForm {
  /// As the message names it: "'.ignore_oob'", "'st.bulk'".
  std::string Name;
  /// The PTX ISA version that introduced it: 92.
  unsigned PtxIsa = 0;
};

/// The forms of one inline-PTX instruction (its opcode with every
/// qualifier, as ArchRules' featuresOfOpcode takes it) that need more than
/// PTX ISA 7.8, the first with an sm_90 target: the TMA, bulk-copy,
/// mbarrier and tensormap forms of section 7 and the PTX 9.x forms of
/// section 11.B. Other instructions have none.
std::vector<PtxForm> ptxFormsOfOpcode(std::string_view Opcode);

/// TMA-PTX-ISA: a violation when toolkit \p T is known, and its PTX ISA
/// is known to be older than \p F needs; std::nullopt otherwise.
std::optional<DeviceViolation> checkPtxIsa(const PtxForm &F,
                                           const std::optional<Toolkit> &T);

/// TMA-PTX-ISA for one inline-PTX instruction \p Opcode: checkPtxIsa on
/// the form of it that needs the newest PTX ISA (one report per
/// instruction).
std::optional<DeviceViolation>
checkOpcodePtxIsa(std::string_view Opcode, const std::optional<Toolkit> &T);

/// Where \p T came from, for a note: "this translation unit's CUDA_VERSION
/// is 13000 (CUDA 13.0)", "clang's driver compiles this pass for PTX ISA
/// 8.5 (...)".
std::string toolkitOrigin(const Toolkit &T);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_PTXISARULES_H
