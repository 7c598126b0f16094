//===----------------------------------------------------------------------===//
//
// Part of tma-tidy. The rule model: plain C++17, no Clang or LLVM include.
//
//===----------------------------------------------------------------------===//
//
// The code a device pass hands to ptxas, against the pass's target and
// toolkit (tma-rules.md section 7), as a whole per site: an inline-PTX
// statement (its opcodes as api/ reads them) and a library op or call (the
// arch-specific forms it selects, the unsupported-target stub its header
// compiles it to). Every violation comes out naming the fact it is about.
// A new rule of a site is one function in rules/ plus its line here.
//
//===----------------------------------------------------------------------===//

#ifndef TMA_TIDY_RULES_TARGETSITE_H
#define TMA_TIDY_RULES_TARGETSITE_H

#include "rules/ArchRules.h"
#include "rules/PtxIsaRules.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tma::rules {

/// The fact of a site that a target violation is about.
enum class TargetFact {
  /// A form the target lacks (TMA-ARCH, BULK-CPMASK, TMA-GATHER4,
  /// TMA-CTA-GROUP).
  Feature,
  /// An opcode newer than the toolkit's PTX ISA (TMA-PTX-ISA).
  PtxIsa,
  /// An opcode's .override form (TMA-OVERRIDE-ATTR).
  OverrideForm,
  /// A CCCL wrapper compiled, on the target, to a stub no library defines
  /// (TMA-ARCH).
  LibraryStub,
};

/// A violation of a site against its target, and which fact it is about.
struct TargetViolation {
  DeviceViolation Violation;
  TargetFact Fact;
  /// The opcode of an inline-PTX statement it is about (its index).
  std::size_t Opcode = 0;
  /// What the warning names before the message: the instruction
  /// ("cp.async.bulk.tensor"); empty where the message names the whole
  /// opcode or the call.
  std::string Subject;
};

/// An inline-PTX statement: its opcodes in order (the "n" operands named
/// in modifiers substituted), the pass's target and toolkit when its
/// instructions are judged against them (the device pass), and whether
/// its .override forms are judged (a text that writes one).
struct AsmFacts {
  std::vector<std::string> Opcodes;
  bool JudgeTarget = false;
  std::optional<GpuTarget> Target;
  std::optional<Toolkit> Toolkit;
  bool JudgeForms = false;
};

/// Every rule of an inline-PTX statement, in this order: per opcode the
/// target's forms, then the toolkit's PTX ISA; then per opcode the
/// .override form.
std::vector<TargetViolation> checkAsmStatement(const AsmFacts &F);

/// A CCCL wrapper's call: the library function's name without inline
/// namespaces, and the `__cuda_ptx_*_is_not_supported_before_*` extern its
/// header calls on this target.
struct LibraryStub {
  std::string Library;
  std::string Stub;
};

/// A library op or call on the pass's target: the arch-specific forms the
/// op selects (its overload or arguments), and the stub the wrapper
/// compiles to, when one was asked for.
struct LibraryTargetFacts {
  std::vector<DeviceFeature> Features;
  std::optional<GpuTarget> Target;
  std::optional<LibraryStub> Stub;
};

/// The rule of a library site: the first form the target lacks; else the
/// stub (the form's own rule names the cause better than the link error).
std::vector<TargetViolation> checkLibraryTarget(const LibraryTargetFacts &F);

/// The instruction of \p Opcode without its state spaces, types and
/// completion qualifiers: "cp.async.bulk.tensor", "mbarrier.try_wait".
std::string instructionOf(std::string_view Opcode);

} // namespace tma::rules

#endif // TMA_TIDY_RULES_TARGETSITE_H
